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
    /// The material of faces whose name the profile does not know (`--default-material`).
    DefaultMaterial,
    /// Keep modelling-tool vertices apart (`convert --weld off`).
    Weld,
    /// Raise the memory limit (`--max-memory`).
    MaxMemory,
}

impl Capability {
    /// The arg id every command uses for the option that does this.
    pub const fn arg_id(self) -> &'static str {
        match self {
            Capability::InputFormat => "input_format",
            Capability::OutputFormat => "to",
            Capability::CreateDirs => "create_dirs",
            Capability::OutDir => "out_dir",
            Capability::DefaultMaterial => "default_material",
            Capability::Weld => "weld",
            Capability::MaxMemory => "max_memory",
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
    LibraryHint {
        written: "; name it after a surface material or set --default-material",
        capability: Capability::DefaultMaterial,
        with_option: "; name it after a surface material or set {}",
        without_option: "; name it after a surface material",
    },
    LibraryHint {
        written: "; give them a material or set --default-material",
        capability: Capability::DefaultMaterial,
        with_option: "; give them a material or set {}",
        without_option: "; give them a material",
    },
    LibraryHint {
        written: "; --weld off keeps them apart",
        capability: Capability::Weld,
        with_option: "; {} off keeps them apart",
        without_option: "",
    },
    LibraryHint {
        written: "; raise the limit with --max-memory MIB",
        capability: Capability::MaxMemory,
        with_option: "; raise the limit with {} MIB",
        without_option: "",
    },
];

thread_local! {
    /// The leaf command running on this thread, for hints in diagnostics printed deep in a
    /// command ([`fit_for_current`]).
    static CURRENT: std::cell::RefCell<Option<Command>> = const { std::cell::RefCell::new(None) };
}

/// Sets (or clears) the command whose options [`fit_for_current`] uses.
pub fn set_current(command: Option<Command>) {
    CURRENT.with(|current| *current.borrow_mut() = command);
}

/// [`fit`] for the command running on this thread (the text as it is when none is set).
pub fn fit_for_current(message: &str) -> String {
    CURRENT.with(|current| match current.borrow().as_ref() {
        Some(command) => fit(message, command),
        None => message.to_string(),
    })
}

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
        let root = crate::cli_command(&walkmesh_formats::default_registry());
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
        let limit = walkmesh_core::memory::check("picture", "a PNG", u64::MAX, 1).unwrap_err();
        assert!(
            limit.message.contains(LIBRARY_HINTS[7].written),
            "{}",
            limit.message
        );
        // The readers' and the weld's sentences, from a file that has all three.
        let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 0 0\nf 1 2 3\nusemtl Odd\nf 4 2 3\n";
        let registry = walkmesh_formats::default_registry();
        let format = registry.by_id("obj").unwrap();
        let mut diag = walkmesh_core::Diagnostics::new();
        let input = walkmesh_core::Input {
            bytes: obj.as_bytes(),
            path: None,
        };
        let mesh = format
            .reader()
            .unwrap()
            .read(input, &Default::default(), &mut diag)
            .unwrap();
        let _ = walkmesh_core::passes::as_modelled(&mesh, &mut diag);
        let text: Vec<String> = diag.items.iter().map(|d| d.message.clone()).collect();
        for hint in &LIBRARY_HINTS[4..7] {
            assert!(
                text.iter().any(|t| t.contains(hint.written)),
                "{:?} not in {text:#?}",
                hint.written
            );
        }
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
