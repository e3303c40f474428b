//! Hints that name an option, fitted to the command that ran.
//!
//! The shared libraries (core, pipeline) write their messages once for every caller and
//! name the command line's usual option in them ("name it with --from", "pass
//! --create-dirs"). Not every command has that option, or under that name: `route` and
//! `reach` take the input format with `--format` (their `--from` is the start point), and
//! only `convert` creates missing folders. [`fit`] rewrites each such sentence for the
//! command that ran, from the command's own clap definition: the option it has for the job,
//! or no option at all. The Python package does the same for its keyword arguments
//! (`python/src/errors.rs`).

use clap::Command;

/// What a hint asks the user to do, by the arg id (clap's, set in each command's
/// definition) of the option that does it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Name the input format (`--from ID`; `--format ID` in route and reach).
    InputFormat,
    /// Name the output format (`convert --to`).
    OutputFormat,
    /// Create a missing output folder (`convert --create-dirs`).
    CreateDirs,
    /// Convert many inputs into a folder (`convert --out-dir`).
    OutDir,
}

impl Capability {
    /// The arg id every command uses for the option that does this.
    pub const fn arg_id(self) -> &'static str {
        match self {
            Capability::InputFormat => "input_format",
            Capability::OutputFormat => "to",
            Capability::CreateDirs => "create_dirs",
            Capability::OutDir => "out_dir",
        }
    }
}

/// One sentence of the libraries that names an option: as they write it, what it asks for,
/// and how to say it with the command's option (`{}` is `--name`) or without one.
pub struct LibraryHint {
    pub written: &'static str,
    pub capability: Capability,
    pub with_option: &'static str,
    pub without_option: &'static str,
}

/// Every sentence of the libraries that names an option (the test below checks that each
/// is still written so, and that every command's version names only its own options).
pub const LIBRARY_HINTS: &[LibraryHint] = &[
    LibraryHint {
        written: "; name it with --from",
        capability: Capability::InputFormat,
        with_option: "; name it with {}",
        without_option: "",
    },
    LibraryHint {
        written: "; name one with --to (`walkmesh formats` lists them)",
        capability: Capability::OutputFormat,
        with_option: "; name one with {} (`walkmesh formats` lists them)",
        without_option: " (`walkmesh formats` lists the extensions written)",
    },
    LibraryHint {
        written: " (create it, or pass --create-dirs)",
        capability: Capability::CreateDirs,
        with_option: " (create it, or pass {})",
        without_option: " (create it first)",
    },
    LibraryHint {
        written: " (name a file, or use --out-dir for many inputs)",
        capability: Capability::OutDir,
        with_option: " (name a file, or use {} for many inputs)",
        without_option: " (name a file)",
    },
];

/// The long name (`--from`) of the option `command` has for `capability`, if any.
pub fn option_for(command: &Command, capability: Capability) -> Option<String> {
    command
        .get_arguments()
        .find(|arg| arg.get_id() == capability.arg_id())
        .and_then(|arg| arg.get_long())
        .map(|long| format!("--{long}"))
}

/// `message` with every library sentence that names an option said with `command`'s own
/// option, or without an option when it has none.
pub fn fit(message: &str, command: &Command) -> String {
    let mut text = message.to_string();
    for hint in LIBRARY_HINTS {
        if text.contains(hint.written) {
            let replacement = match option_for(command, hint.capability) {
                Some(option) => hint.with_option.replace("{}", &option),
                None => hint.without_option.to_string(),
            };
            text = text.replace(hint.written, &replacement);
        }
    }
    text
}

/// The leaf command (`area extract`, `route`) that `matches` ran, in `root`'s tree.
pub fn leaf<'c>(root: &'c Command, matches: &clap::ArgMatches) -> &'c Command {
    let mut command = root;
    let mut matches = matches;
    while let Some((name, sub)) = matches.subcommand() {
        match command.find_subcommand(name) {
            Some(next) => {
                command = next;
                matches = sub;
            }
            None => break,
        }
    }
    command
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// The `--long` options a text names.
    fn options_named(text: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("--") {
            let after = rest.get(at + 2..).unwrap_or_default();
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let before_ok = at == 0
                || rest
                    .get(..at)
                    .and_then(|b| b.chars().last())
                    .is_some_and(|c| !c.is_ascii_alphanumeric() && c != '-');
            if before_ok && name.starts_with(|c: char| c.is_ascii_lowercase()) {
                found.push(format!("--{name}"));
            }
            rest = after;
        }
        found
    }

    fn leaves(command: &Command, path: String, out: &mut Vec<(String, Command)>) {
        let mut any = false;
        for sub in command.get_subcommands() {
            any = true;
            leaves(sub, format!("{path} {}", sub.get_name()), out);
        }
        if !any {
            out.push((path, command.clone()));
        }
    }

    fn accepts(command: &Command, option: &str) -> bool {
        let long = option.trim_start_matches("--");
        long == "help"
            || command.get_arguments().any(|arg| {
                arg.get_long() == Some(long)
                    || arg.get_all_aliases().is_some_and(|a| a.contains(&long))
            })
    }

    /// Every hint every command can print names an option that command accepts.
    #[test]
    fn every_hint_of_every_command_names_one_of_its_own_options() {
        let root = crate::cli_command();
        let mut all = Vec::new();
        leaves(&root, "walkmesh".into(), &mut all);
        assert!(all.len() > 20, "{} commands", all.len());
        for (path, command) in &all {
            for hint in LIBRARY_HINTS {
                let text = fit(&format!("cannot do it{}", hint.written), command);
                for option in options_named(&text) {
                    assert!(
                        accepts(command, &option),
                        "{path}: {text:?} names {option}, which {path} does not accept"
                    );
                }
            }
        }
        // The hints that matter, per command.
        let find = |p: &str| &all.iter().find(|(path, _)| path == p).unwrap().1;
        let undetected =
            "cannot tell the format of x: no known magic bytes or extension; name it with --from";
        assert!(fit(undetected, find("walkmesh route")).ends_with("name it with --format"));
        assert!(fit(undetected, find("walkmesh reach")).ends_with("name it with --format"));
        assert!(fit(undetected, find("walkmesh info")).ends_with("name it with --from"));
        let missing = "the directory d does not exist (create it, or pass --create-dirs)";
        assert!(fit(missing, find("walkmesh convert")).contains("--create-dirs"));
        for command in [
            "walkmesh view",
            "walkmesh render",
            "walkmesh diff",
            "walkmesh lint",
        ] {
            assert!(!fit(missing, find(command)).contains("--"), "{command}");
        }
    }

    /// The sentences above are the ones the libraries write (a changed wording would
    /// otherwise slip past [`fit`]).
    #[test]
    fn the_library_sentences_are_still_written_so() {
        use walkmesh_core::format::DetectError;
        let undetected = DetectError::Undetected("x".into()).to_string();
        assert!(
            undetected.ends_with(LIBRARY_HINTS[0].written),
            "{undetected}"
        );
        let no_writer = DetectError::NoWriterForExtension("x".into()).to_string();
        assert!(no_writer.ends_with(LIBRARY_HINTS[1].written), "{no_writer}");
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing/out.html");
        let failure = walkmesh_pipeline::output::write_atomically(&missing, b"x").unwrap_err();
        assert!(
            failure.message.ends_with(LIBRARY_HINTS[2].written),
            "{}",
            failure.message
        );
        let failure = walkmesh_pipeline::output::write_atomically(dir.path(), b"x").unwrap_err();
        assert!(
            failure.message.ends_with(LIBRARY_HINTS[3].written),
            "{}",
            failure.message
        );
    }

    #[test]
    fn options_named_finds_long_options_only() {
        assert_eq!(
            options_named("pass --create-dirs, or --to glb; a-b --x--y"),
            ["--create-dirs", "--to", "--x--y"]
        );
        assert!(options_named("ok -- 2 --").is_empty());
    }
}
