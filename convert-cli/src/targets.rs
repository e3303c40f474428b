//! What every command writes, in one table: which options name output files, whether `-`
//! (standard output) may stand for each, and the checks every command gets from it before
//! anything is read:
//! - `-` where a command cannot write to standard output (a folder, a file read back, a
//!   dependency file that must name its output) is refused, and so is `-` twice, or `-`
//!   with `--json` (both would print on standard output);
//! - an output that names an input (the same file by any spelling, a symbolic or hard link:
//!   compared by device and inode) is refused, so no command replaces what it reads.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ArgMatches;

use walkmesh_pipeline::failure::Failure;

/// What `-` means for an output option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    /// Standard output.
    Stdout,
    /// Refused, with the reason.
    Refused(&'static str),
}

/// One output option of one command.
#[derive(Debug)]
pub struct OutputArg {
    /// The command's path below `walkmesh` (`view`, `area split`).
    pub command: &'static str,
    /// The clap arg id.
    pub id: &'static str,
    /// Only the last value is an output (`convert IN OUT`), and only without `--out-dir`.
    pub last_of_positional: bool,
    pub dash: Dash,
}

const fn out(command: &'static str, id: &'static str, dash: Dash) -> OutputArg {
    OutputArg {
        command,
        id,
        last_of_positional: false,
        dash,
    }
}

const FOLDER: Dash = Dash::Refused("it is a folder that several files are written into");
const DEPFILE: Dash = Dash::Refused("a dependency file is read by make or ninja from disk");

/// Every option, in every command, that names a file or folder the command writes.
pub const OUTPUTS: &[OutputArg] = &[
    OutputArg {
        command: "convert",
        id: "paths",
        last_of_positional: true,
        dash: Dash::Stdout,
    },
    out("convert", "out_dir", FOLDER),
    out("convert", "report", Dash::Stdout),
    out("convert", "depfile", DEPFILE),
    out("view", "output", Dash::Stdout),
    out("render", "output", Dash::Stdout),
    out("diff", "html", Dash::Stdout),
    out("diff", "overlay", Dash::Stdout),
    out("dump", "output", Dash::Stdout),
    out(
        "lint",
        "fix",
        Dash::Refused("the repaired file is read back from disk and linted again"),
    ),
    out("area extract", "out", FOLDER),
    out("area replace", "out", Dash::Stdout),
    out(
        "area solve",
        "out",
        Dash::Refused("the fixed rooms are written as files (or as an archive file)"),
    ),
    out(
        "area assemble",
        "out",
        Dash::Refused("the format comes from OUT's extension, and OBJ and .gltf bring a sidecar"),
    ),
    out("area assemble", "depfile", DEPFILE),
    out("area split", "out", FOLDER),
    out("area split", "depfile", DEPFILE),
    out("area indoor", "out", FOLDER),
    out(
        "generate",
        "out",
        Dash::Refused("the walkmesh is written as a file, read back and validated"),
    ),
    out("generate", "out_dir", FOLDER),
];

/// Whether `path` names standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The command path (`area split`) and the leaf's matches.
pub fn command_path(matches: &ArgMatches) -> (String, &ArgMatches) {
    let mut names = Vec::new();
    let mut leaf = matches;
    while let Some((name, sub)) = leaf.subcommand() {
        names.push(name.to_string());
        leaf = sub;
    }
    (names.join(" "), leaf)
}

/// The values of a path-valued arg (empty when absent or not a path).
fn paths_of<'m>(matches: &'m ArgMatches, id: &str) -> Vec<&'m PathBuf> {
    matches
        .try_get_many::<PathBuf>(id)
        .ok()
        .flatten()
        .map(Iterator::collect)
        .unwrap_or_default()
}

/// The outputs `matches` names, each with its table entry.
pub fn outputs<'m>(command: &str, matches: &'m ArgMatches) -> Vec<(&'m Path, &'static OutputArg)> {
    let batch = !paths_of(matches, "out_dir").is_empty();
    let mut found = Vec::new();
    for arg in OUTPUTS.iter().filter(|a| a.command == command) {
        let values = paths_of(matches, arg.id);
        if arg.last_of_positional {
            if !batch && values.len() == 2 {
                found.extend(values.last().map(|p| (p.as_path(), arg)));
            }
        } else {
            found.extend(values.into_iter().map(|p| (p.as_path(), arg)));
        }
    }
    found
}

/// Every other path the command line names: the inputs (files, folders, archives; the
/// archive of an `area.mod:room.wok` member).
fn inputs<'m>(command: &clap::Command, name: &str, matches: &'m ArgMatches) -> Vec<&'m Path> {
    let batch = !paths_of(matches, "out_dir").is_empty();
    let mut found = Vec::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        let values = paths_of(matches, id);
        match OUTPUTS.iter().find(|o| o.command == name && o.id == id) {
            None => found.extend(values),
            // `convert IN OUT`: IN is read (every path is, with --out-dir).
            Some(output) if output.last_of_positional => {
                let outputs = usize::from(!batch && values.len() == 2);
                found.extend(values.iter().take(values.len() - outputs));
            }
            Some(_) => {}
        }
    }
    found.into_iter().map(PathBuf::as_path).collect()
}

/// Device and inode of what `path` names (following links), or of the archive of an
/// `archive:member` input.
fn identity(path: &Path) -> Option<(u64, u64)> {
    walkmesh_pipeline::output::file_id(path)
}

/// The checks of the module comment, for the command `matches` ran.
pub fn check(root: &clap::Command, matches: &ArgMatches) -> Result<(), Failure> {
    let (name, leaf) = command_path(matches);
    let outputs = outputs(&name, leaf);
    let dashes: Vec<_> = outputs.iter().filter(|(p, _)| is_stdout(p)).collect();
    for (_, arg) in &dashes {
        if let Dash::Refused(why) = arg.dash {
            return Err(Failure::usage(format!(
                "{name}: `-` (standard output) cannot stand for {}: {why}; name a file",
                option_name(root, &name, arg.id)
            )));
        }
    }
    let json = leaf.try_get_one::<bool>("json").ok().flatten() == Some(&true);
    if dashes.len() > 1 || (!dashes.is_empty() && json) {
        return Err(Failure::usage(format!(
            "{name}: only one thing can go to standard output, and {} would share it",
            if json {
                "--json and `-`"
            } else {
                "two `-` outputs"
            }
        )));
    }
    let command = crate::hints::leaf(root, matches);
    for input in inputs(command, &name, leaf) {
        let Some(read) = identity(input) else {
            continue;
        };
        for (output, _) in outputs.iter().filter(|(p, _)| !is_stdout(p)) {
            if identity(output).is_some_and(|written| written == read) {
                return Err(Failure::output(format!(
                    "{} is {}: {name} never writes over what it reads; nothing was written",
                    output.display(),
                    if *output == input {
                        "an input".to_string()
                    } else {
                        format!("the same file as the input {}", input.display())
                    }
                )));
            }
        }
    }
    Ok(())
}

/// How the user wrote an option (`--html`, `-o`, `OUT`).
fn option_name(root: &clap::Command, command: &str, id: &str) -> String {
    let mut leaf = root;
    for part in command.split(' ') {
        if let Some(next) = leaf.find_subcommand(part) {
            leaf = next;
        }
    }
    leaf.get_arguments()
        .find(|a| a.get_id() == id)
        .map(|a| match a.get_long() {
            Some(long) => format!("--{long}"),
            None => a
                .get_value_names()
                .and_then(|n| n.first())
                .map(|n| n.to_string())
                .unwrap_or_else(|| id.to_ascii_uppercase()),
        })
        .unwrap_or_else(|| id.to_string())
}

/// Whether a file's bytes go to standard output (which then carries them unescaped).
pub fn writes_a_file_to_stdout(matches: &ArgMatches) -> bool {
    let (name, leaf) = command_path(matches);
    outputs(&name, leaf).iter().any(|(p, arg)| {
        is_stdout(p) && arg.dash == Dash::Stdout && !(name == "convert" && arg.id == "report")
    })
}

/// Writes `bytes` to `path` (staged and renamed), or to `stdout` for `-`.
pub fn write_file(path: &Path, bytes: &[u8], stdout: &mut dyn Write) -> Result<(), Failure> {
    if is_stdout(path) {
        stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure::output(format!("cannot write to standard output: {e}")))
    } else {
        walkmesh_pipeline::output::write_atomically(path, bytes)
    }
}

/// Adds to the help of every output option what `-` means there, unless it says so already.
pub fn document(mut root: clap::Command) -> clap::Command {
    for arg in OUTPUTS {
        let sentence = match arg.dash {
            Dash::Stdout => "`-`: standard output.".to_string(),
            Dash::Refused(why) => format!("`-` is refused: {why}."),
        };
        root = with_subcommand(root, arg.command, &|command| {
            // A positional argument changed here would move to the end of the list (clap
            // re-adds it): those say it in their doc comment.
            let positional = command
                .get_arguments()
                .any(|a| a.get_id() == arg.id && a.is_positional());
            if positional {
                return command;
            }
            command.mut_arg(arg.id, |a| {
                let help = a.get_help().map(ToString::to_string).unwrap_or_default();
                if help.contains("`-`") {
                    return a;
                }
                let long = a.get_long_help().map(ToString::to_string);
                let a = a.help(joined(&help, &sentence));
                match long {
                    Some(long) => a.long_help(joined(&long, &sentence)),
                    None => a,
                }
            })
        });
    }
    root
}

/// `sentence` after `help` (clap drops a help text's final full stop).
fn joined(help: &str, sentence: &str) -> String {
    let help = help.trim_end();
    if help.is_empty() {
        sentence.to_string()
    } else if help.ends_with('.') {
        format!("{help} {sentence}")
    } else {
        format!("{help}. {sentence}")
    }
}

fn with_subcommand(
    command: clap::Command,
    path: &str,
    change: &dyn Fn(clap::Command) -> clap::Command,
) -> clap::Command {
    match path.split_once(' ') {
        Some((first, rest)) => {
            command.mut_subcommand(first, |sub| with_subcommand(sub, rest, change))
        }
        None => command.mut_subcommand(path, change),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn find<'c>(root: &'c clap::Command, path: &str) -> &'c clap::Command {
        path.split(' ')
            .fold(root, |c, part| c.find_subcommand(part).expect(part))
    }

    /// The table names real options, and each one's help says what `-` means there.
    #[test]
    fn every_output_in_the_table_exists_and_documents_dash() {
        let root = crate::cli_command(&walkmesh_formats::default_registry());
        for output in OUTPUTS {
            let command = find(&root, output.command);
            let arg = command
                .get_arguments()
                .find(|a| a.get_id() == output.id)
                .unwrap_or_else(|| panic!("{} has no {}", output.command, output.id));
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                help.contains("`-`"),
                "{} {}: {help}",
                output.command,
                output.id
            );
        }
    }

    /// Every path option named like an output, in every command, is in the table (so a new
    /// command's output gets the checks).
    #[test]
    fn every_output_like_option_is_in_the_table() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for sub in command.get_subcommands() {
                let inner = if path.is_empty() {
                    sub.get_name().to_string()
                } else {
                    format!("{path} {}", sub.get_name())
                };
                walk(sub, &inner, missing);
            }
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                let output_like = [
                    "output", "out", "out_dir", "fix", "html", "overlay", "depfile", "report",
                ]
                .contains(&id);
                if output_like && !OUTPUTS.iter().any(|o| o.command == path && o.id == id) {
                    missing.push(format!("{path} {id}"));
                }
            }
        }
        let mut missing = Vec::new();
        walk(
            &crate::cli_command(&walkmesh_formats::default_registry()),
            "",
            &mut missing,
        );
        assert!(missing.is_empty(), "{missing:?}");
    }
}
