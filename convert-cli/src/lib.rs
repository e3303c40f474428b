//! The `walkmesh` command line. Its sixteen commands, one module each in `commands/`:
//!
//! - `formats`: the registered formats and what each can do;
//! - `info`: counts, bounds, walkable area, components, loops and materials of a file;
//! - `convert`: one file or a whole tree (`convert::batch`) into another format;
//! - `validate`: every rule of the file's format, with stable codes;
//! - `dump`: every stored field with its byte offset;
//! - `profiles`: the embedded material profiles;
//! - `render`: a top-down SVG or PNG picture;
//! - `view`: the 3-D inspector, one self-contained HTML page;
//! - `diff`: two walkmeshes compared, as numbers, fields (`diff::fields`), an overlay or an
//!   HTML report;
//! - `stats`: per-field statistics over a corpus;
//! - `spec`: Kaitai Struct specs of the binary formats;
//! - `area`: KotOR areas (layouts, module archives, room transitions, kits);
//! - `lint`: the defects players report, with `--fix`;
//! - `route` and `reach`: a route over the walkable surface, and what can be reached;
//! - `generate`: a walkmesh made from render geometry (`generate::area` for a whole area).
//!
//! Thin on purpose: it parses arguments, dispatches to the library crates and prints. The
//! work of each command is a library's: the conversion flow and batches in `walkmesh-pipeline`
//! (read → prepare → write → check → commit, output staging, failures, warning rules, and
//! which lint findings a run reports: `lint_rules`), areas in `walkmesh-kotor-area` (rooms,
//! transitions and their write-back, archives), `walkmesh-lint`, `walkmesh-route`,
//! `walkmesh-generate` (a whole area: `walkmesh_generate::area`), `walkmesh-render`,
//! `walkmesh-diff`, `walkmesh-view` and `walkmesh-research`; a format is asked for its
//! declared engine and capabilities, never matched by id (docs/architecture.md, "The command
//! line"). No command module imports another (scripts/module_cycles.py): what several share
//! is outside `commands/`: `input` (the reading options), `conversion` (where `-` sends an
//! output and the summary line; the plan, reading and the conversion flow are
//! `walkmesh_pipeline`'s), `areas` (KotOR rooms, layouts and archives
//! as `area`, `lint`, `info`, `route` and `generate` read and write them), `pictures`,
//! `targets`, `progress`. Every `--json` value is printed by `walkmesh_core::json`, and
//! `dump --format json|ron` streamed by `walkmesh_core::dump::tree_stream`.
//!
//! Exit codes: 0 success; 1 a finding (`validate` errors, `convert --strict` warnings, `diff`
//! differences, `lint` findings, `route` unreachable); 2 unreadable input or bad usage; 3 the
//! output could not be written.

use std::ffi::OsString;
use std::io::Write;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use walkmesh_core::printable::Escaping;

mod areas;
mod commands;
mod conversion;
mod hints;
mod input;
mod params;
mod pictures;
mod progress;
mod targets;

// Output staging and failures live in the pipeline library, which Python calls too.
pub use walkmesh_pipeline::{failure, output};

use failure::Failure;

const EXAMPLES: &str = "\
Examples:
  walkmesh convert room.obj room.wok          Blender export (Y up) to a KotOR area walkmesh
  walkmesh convert room.wok room.obj          and back, for editing
  walkmesh info room.wok --json               counts, bounds, walkable area, loops, materials
  walkmesh validate room.wok --json           every rule of the format, with stable codes
  walkmesh dump room.wok --format json        every stored field with its byte offset
  walkmesh convert areas/ --out-dir glb/ --to glb --report report.jsonl
                                              a whole tree, in parallel, paths kept
  walkmesh convert room.wok - --to glb | viewer   a one-file format to standard output
  walkmesh profiles kotor > kotor.ron         an embedded material profile to edit
  walkmesh info area.mod:m12aa_42a.wok        a walkmesh inside a module archive
  walkmesh area solve area.mod --check        room-to-room transitions checked from geometry

Exit codes: 0 success; 1 `validate` found errors, or `convert --strict` met a warning
(nothing written); 2 unreadable input, bad usage, or an output our validator rejects
(nothing written); 3 the output could not be written (nothing new left behind), standard
output included. A batch exits with the highest code of its files. A closed standard output
ends quietly with 0.

Streams: results on standard output, messages on standard error. `-` as an output is
standard output where one file is written, refused elsewhere (each option's help says
which); no command writes over one of its inputs. docs/cli.md has the whole contract.";

const CONVERT_EXAMPLES: &str = "\
More examples:
  walkmesh convert room.wok - --to glb > room.glb     standard output (one-file formats)
  walkmesh convert room.obj room.wok --strict --json  fail on any warning; JSON report
  walkmesh convert areas/ 'doors/**/*.dwk' --out-dir out/ --to glb --jobs 2 --report r.jsonl
                                                      many inputs, paths kept, parallel

Exit codes: 0 written; 1 --strict met a warning (nothing written); 2 unreadable input, bad
usage or an output our validator rejects (nothing written); 3 the output could not be
written (nothing new left behind). With --out-dir: the highest code of its files.";

#[derive(Parser, Debug)]
#[command(
    name = "walkmesh",
    version,
    about = "Read, write, validate and convert game walkmeshes (KotOR BWM, NWN2 TRN/TRX, Metroid Prime PATH, OBJ, glTF)",
    after_help = EXAMPLES,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the supported formats: id, extensions, and whether they read and write.
    ///
    /// Example: walkmesh formats --json
    Formats(commands::formats::Args),
    /// Summarise a walkmesh: kind, counts, bounding box, walkable area, connected walkable
    /// regions, boundary loops of the walkable region, faces per material.
    ///
    /// Example: walkmesh info room.wok --json
    Info(commands::info::Args),
    /// Convert between formats, recomputing the derived tables the target needs.
    ///
    /// The output format comes from OUT's extension (or --to). Writing back to the format a
    /// file came from, with nothing changed, reproduces it byte for byte unless --rebuild is
    /// given. The bytes are read back with the target's reader and validator before they are
    /// renamed into place: the counts printed are the written file's, and an output with
    /// errors is refused (exit 2) unless --allow-invalid. Files are staged beside the target
    /// and renamed, sidecars first, so a failed or interrupted run leaves nothing new
    /// behind. An existing OUT keeps its permission bits; a symbolic link is written
    /// through; FIFOs, devices and directories are refused; a .mtl/.bin that walkmesh did
    /// not write is kept unless --force.
    ///
    /// Example: walkmesh convert room.obj room.wok --materials kotor.ron
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert(commands::convert::Args),
    /// Check a walkmesh against its format's rules and general mesh sanity.
    ///
    /// Exit code 1 when any error is found. Every finding has a stable code
    /// (`bwm.adjacency_not_reciprocal`, `mesh.non_manifold_edge`, …). The text form shows
    /// at most --max-per-code findings of each code and then a count per code.
    ///
    /// Example: walkmesh validate room.wok --json
    Validate(commands::validate::Args),
    /// Show every stored field with its byte offset (formats without a field dump show the
    /// neutral mesh instead).
    ///
    /// Example: walkmesh dump area.path --format ron
    Dump(commands::dump::Args),
    /// Print the embedded material profiles (RON) so that one can be copied, edited and
    /// passed back with --materials FILE.
    ///
    /// Example: walkmesh profiles kotor > kotor.ron
    Profiles(commands::profiles::Args),
    /// Draw a top-down picture (SVG or PNG): faces by material, components, NWN2 tiles and
    /// islands, PATH regions or AABB depth; boundary loops, transitions, hooks, scale and
    /// axes. Several files are overlaid, one colour each.
    ///
    /// Example: walkmesh render room.wok -o room.svg --mode components
    Render(commands::render::Args),
    /// The 3-D inspector: one self-contained HTML file (WebGL, no network) with orbit, pan,
    /// zoom, layers per format and, for a clicked face, every stored field with its offset.
    /// A second file is drawn in the same scene, with the faces where they differ coloured.
    ///
    /// Example: walkmesh view area.trx -o area.html
    View(commands::view::Args),
    /// Compare two walkmeshes of any formats: counts, bounds and translation, walkable area
    /// per material, footprint difference, surface distance, connectivity.
    ///
    /// Exit code 0 when equal within the tolerance, 1 when different, 2 when unreadable.
    ///
    /// Example: walkmesh diff room.wok room.trx --json --html report.html
    Diff(commands::diff::Args),
    /// For every stored field across one or more folders of walkmeshes: min, max, distinct
    /// values, the most common ones and the files holding the outliers; unknown fields and
    /// leftover bytes flagged.
    ///
    /// Example: walkmesh stats corpora/nwn2 --json
    Stats(commands::stats::Args),
    /// Print a Kaitai Struct spec of a binary format (bwm, aswm, path), for format research.
    ///
    /// Example: walkmesh spec bwm --format ksy > bwm.ksy
    Spec(commands::spec::Args),
    /// KotOR areas: layouts (LYT/VIS), module archives (.mod/.erf/.rim), whole-area meshes,
    /// room-to-room transitions solved from geometry, kits and Indoor Map Builder maps.
    ///
    /// Example: walkmesh area solve rooms/ --lyt m40ad.lyt --check
    Area(commands::area::Args),
    /// Find the walkmesh defects players report (downward and steep walkable faces,
    /// degenerate and overlapping faces, T-junctions, open and height seams, islands, strips
    /// narrower than a character, area transitions without a target) and, with --fix OUT,
    /// repair the mechanical ones.
    ///
    /// Exit code 0 when clean, 1 when a finding at warning level or above is not allowed, 2
    /// when the input cannot be read. Steepness limit: 60° for every engine (docs/lint.md).
    ///
    /// Example: walkmesh lint room.wok --json --fix room_fixed.wok
    Lint(commands::lint::Args),
    /// A route between two points over the walkable surface: the faces passed, the smoothed
    /// polyline on the ground and its length.
    ///
    /// Exit code 0 when reachable, 1 when not, 2 for bad input or a point on no walkable
    /// face (the message names the nearest walkable face and its distance).
    ///
    /// Example: walkmesh route room.wok --from 1,2,0 --to 8,5,0 --json
    Route(commands::route::RouteArgs),
    /// Reachability: the connected walkable components with their area and a point on each,
    /// and from --from the walkable area that cannot be reached.
    ///
    /// Exit code 1 with --require-all when any walkable area is unreachable.
    ///
    /// Example: walkmesh reach room.wok --from 1,2,0 --require-all
    Reach(commands::route::ReachArgs),
    /// Make a walkmesh from render geometry (a room's floors, walls and props): voxelise,
    /// slope, climb, clearance, erosion, reachability from seeds, outlines, triangles with
    /// heights on the render floor and surfaces from the material names (docs/generate.md).
    ///
    /// Example: walkmesh generate room.obj -o room.wok --seed 2,3,0
    Generate(commands::generate::Args),
}

/// Whether the command was asked for JSON output (`--json` on any command or subcommand,
/// `area list` included); its failures are then printed as `{"error": {"code", "message",
/// "exit_code", …}}` on standard output as well.
fn wants_json(matches: &clap::ArgMatches) -> bool {
    let (_, leaf) = targets::command_path(matches);
    leaf.try_get_one::<bool>("json").ok().flatten() == Some(&true)
}

/// Standard output that remembers whether the reader went away (a closed pipe, as with
/// `walkmesh dump f | head`: the command then ends quietly with exit code 0) or a write
/// failed otherwise (a full disk: every command then ends with exit code 3, naming standard
/// output, whatever the command made of the error).
struct PipeAware<'a> {
    inner: &'a mut dyn Write,
    closed: bool,
    failed: Option<std::io::Error>,
}

impl Write for PipeAware<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.inner.write(bytes).inspect_err(|e| self.note(e))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| self.note(e))
    }
}

impl PipeAware<'_> {
    fn note(&mut self, error: &std::io::Error) {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            self.closed = true;
        } else if error.kind() == std::io::ErrorKind::Interrupted {
            // `write_all` tries again: not a failure.
        } else if self.failed.is_none() {
            self.failed = Some(std::io::Error::new(error.kind(), error.to_string()));
        }
    }
}

/// Runs the command line `args` (program name first) with the default registry (every format
/// this build was compiled with); returns the exit code (see [`failure`]: 0 success, 1
/// findings, 2 input or usage, 3 output not written).
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    run_with(&walkmesh_formats::default_registry(), args, stdout, stderr)
}

/// [`run`] with the formats of `registry`: every command (detection, `--from`/`--to`, area
/// rooms, `formats`) uses this one registry. A crate that registers its own formats builds
/// its binary on this (`examples/textmesh`, docs/extending.md).
pub fn run_with(
    registry: &walkmesh_core::Registry,
    args: Vec<OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    // Names, messages and values from file data reach a person's terminal through these
    // streams: control characters in them are shown escaped (docs: "Hostile input").
    let mut stderr = Escaping::new(stderr);
    // Every file any reader opens during the command is recorded in this scope, and no output
    // of the command replaces one (walkmesh_core::files; docs/robustness.md).
    let reads = walkmesh_core::files::Scope::new();
    let code = reads.run(|| run_escaped(registry, args, stdout, &mut stderr));
    hints::set_current(None);
    let _ = stderr.flush();
    code
}

fn run_escaped(
    registry: &walkmesh_core::Registry,
    args: Vec<OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let json_asked = args.iter().any(|a| a == "--json");
    let root = cli_command(registry);
    let parsed = root
        .clone()
        .try_get_matches_from(args)
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            let text = error.render().ansi().to_string();
            return match error.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    match write!(stdout, "{}", error.render()).and_then(|()| stdout.flush()) {
                        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                            let _ = writeln!(stderr, "error: cannot write to standard output: {e}");
                            failure::EXIT_OUTPUT
                        }
                        _ => failure::EXIT_OK,
                    }
                }
                clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = write!(stderr, "{}", error.render());
                    failure::EXIT_INPUT
                }
                _ => {
                    let _ = write!(
                        stderr,
                        "{}",
                        if text.is_empty() {
                            error.to_string()
                        } else {
                            error.render().to_string()
                        }
                    );
                    if json_asked {
                        let message = error.render().to_string();
                        let first = message.lines().next().unwrap_or_default();
                        print_json_error(
                            stdout,
                            &Failure::usage(first.trim_start_matches("error: ")),
                        );
                    }
                    failure::EXIT_INPUT
                }
            };
        }
    };
    hints::set_current(Some(hints::leaf(&root, &matches).clone()));
    // Standard output is text, escaped like standard error, except where a converted file is
    // written to it.
    let mut escaping;
    let stdout: &mut dyn Write = if targets::writes_a_file_to_stdout(&matches) {
        stdout
    } else {
        escaping = Escaping::new(stdout);
        &mut escaping
    };
    let mut out = PipeAware {
        inner: stdout,
        closed: false,
        failed: None,
    };
    let result = targets::check(&root, &matches)
        .and_then(|()| dispatch(&cli.command, registry, &mut out, stderr));
    let _ = out.flush();
    if out.closed {
        return failure::EXIT_OK;
    }
    if let Some(error) = out.failed.take() {
        // One rule for every command: exit 3, naming the stream (nothing more is printed on
        // it, not even a JSON error, since it cannot be written).
        let failure = Failure::output(format!("cannot write to standard output: {error}"));
        let _ = writeln!(stderr, "error: {}", failure.message);
        return failure.exit_code;
    }
    match result {
        Ok(code) => code,
        Err(mut failure) => {
            // Hints in the libraries' messages, said with this command's own options.
            failure.message = hints::fit(&failure.message, hints::leaf(&root, &matches));
            let _ = writeln!(stderr, "error: {}", failure.message);
            for item in &failure.diagnostics {
                let _ = writeln!(stderr, "  {item}");
            }
            if wants_json(&matches) {
                print_json_error(&mut out, &failure);
                let _ = out.flush();
                if let Some(error) = out.failed.take() {
                    let _ = writeln!(stderr, "error: cannot write to standard output: {error}");
                    return failure::EXIT_OUTPUT;
                }
            }
            failure.exit_code
        }
    }
}

/// Runs the parsed command.
fn dispatch(
    command: &Command,
    registry: &walkmesh_core::Registry,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    match command {
        Command::Formats(args) => commands::formats::run(registry, args, out),
        Command::Info(args) => commands::info::run(registry, args, out, stderr),
        Command::Convert(args) if args.out_dir.is_some() => {
            commands::convert::batch::run(registry, args, out, stderr)
        }
        Command::Convert(args) => commands::convert::run(registry, args, out, stderr),
        Command::Validate(args) => commands::validate::run(registry, args, out),
        Command::Dump(args) => commands::dump::run(registry, args, out, stderr),
        Command::Stats(args) => commands::stats::run(registry, args, out),
        Command::Spec(args) => commands::spec::run(args, out),
        Command::Profiles(args) => commands::profiles::run(registry, args, out),
        Command::Render(args) => commands::render::run(registry, args, out, stderr),
        Command::View(args) => commands::view::run(registry, args, out, stderr),
        Command::Diff(args) => commands::diff::run(registry, args, out, stderr),
        Command::Area(args) => commands::area::run(registry, args, out, stderr),
        Command::Lint(args) => commands::lint::run(registry, args, out),
        Command::Route(args) => commands::route::run_route(registry, args, out, stderr),
        Command::Reach(args) => commands::route::run_reach(registry, args, out, stderr),
        Command::Generate(args) => commands::generate::run(registry, args, out, stderr),
    }
}

/// What `walkmesh --version` prints: clap's line for [`Cli`]. The binary answers a lone
/// `--version` or `-V` with it before anything else, without building the command tree of
/// every command (a test checks that it is clap's line).
pub const VERSION_LINE: &str = concat!("walkmesh ", env!("CARGO_PKG_VERSION"), "\n");

/// True when `args` (program name first) ask for the version only.
pub fn asks_for_version_only(args: &[OsString]) -> bool {
    matches!(args, [_, flag] if flag == "--version" || flag == "-V")
}

/// The command line's definition, with a leading minus accepted in every number-valued
/// option (`--from -1.5,2,0`, `--tolerance -1` reaching its own check): half of every
/// game's coordinates are negative.
fn cli_command(registry: &walkmesh_core::Registry) -> clap::Command {
    let command = params::add_to_convert(Cli::command(), registry);
    targets::document(accept_negative_values(command))
}

/// Walks `command` and its subcommands: options whose values are numbers (by the value
/// parser's type) accept a value that looks like a negative number; options whose value is
/// a list of numbers (`X,Y,Z`) accept any value starting with `-`, which their parser then
/// checks.
fn accept_negative_values(mut command: clap::Command) -> clap::Command {
    let numeric: Vec<(clap::Id, bool)> = command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && arg.get_action().takes_values())
        .filter_map(|arg| {
            let list = arg
                .get_value_names()
                .is_some_and(|names| names.iter().any(|n| n.contains(',')));
            (list || is_number_type(arg)).then(|| (arg.get_id().clone(), list))
        })
        .collect();
    for (id, list) in numeric {
        command = command.mut_arg(id, |arg| {
            if list {
                arg.allow_hyphen_values(true)
            } else {
                arg.allow_negative_numbers(true)
            }
        });
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, accept_negative_values);
    }
    command
}

fn is_number_type(arg: &clap::Arg) -> bool {
    use std::any::TypeId;
    let id = arg.get_value_parser().type_id();
    [
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
    ]
    .iter()
    .any(|t| id == *t)
}

fn print_json_error(stdout: &mut dyn Write, failure: &Failure) {
    #[derive(serde::Serialize)]
    struct ErrorReport<'a> {
        error: &'a Failure,
    }
    if let Ok(text) = walkmesh_core::json::pretty(&ErrorReport { error: failure }) {
        let _ = writeln!(stdout, "{text}");
    }
}

/// For the binary: removes pending temporary output files when SIGINT, SIGTERM or SIGHUP
/// arrives, then ends the process the way the signal would have (so the shell sees exit
/// status 128 + the signal). In-process callers of [`run`] keep their own signal handling.
#[cfg(unix)]
pub fn remove_temporary_files_on_signals() -> std::io::Result<()> {
    start_signal_watcher()
}

/// For the binary: [`remove_temporary_files_on_signals`] once the first temporary output file
/// is about to be created, not before (a process that stages no file needs no watcher, and
/// starting its thread was most of `walkmesh --version`'s time on a busy machine). Before that
/// the signals keep their default action, which has nothing to clean up.
#[cfg(unix)]
pub fn remove_temporary_files_on_signals_once_staging() {
    output::before_first_stage(|| {
        if let Err(error) = start_signal_watcher() {
            eprintln!(
                "warning: cannot watch for signals ({error}); an interrupted write may leave a .walkmesh-*.tmp file"
            );
        }
    });
}

#[cfg(unix)]
fn start_signal_watcher() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("walkmesh-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Keeps the list locked: no rename can follow the removal.
                let _locked = output::remove_pending();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    /// The binary's short-cut for `--version` prints what clap would.
    #[test]
    fn the_version_short_cut_prints_clap_s_version_line() {
        let registry = walkmesh_formats::default_registry();
        assert_eq!(
            super::cli_command(&registry).render_version(),
            super::VERSION_LINE
        );
        let args = |a: &[&str]| a.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        assert!(super::asks_for_version_only(&args(&[
            "walkmesh",
            "--version"
        ])));
        assert!(super::asks_for_version_only(&args(&["walkmesh", "-V"])));
        assert!(!super::asks_for_version_only(&args(&[
            "walkmesh",
            "info",
            "--version"
        ])));
        assert!(!super::asks_for_version_only(&args(&[
            "walkmesh",
            "--version",
            "x"
        ])));
    }

    /// Every option of every command whose value is a number or a list of numbers takes a
    /// value with a leading minus (whatever the option then makes of it).
    #[test]
    fn every_number_option_takes_a_negative_value() {
        let registry = walkmesh_formats::default_registry();
        let root = super::cli_command(&registry);
        let mut checked = Vec::new();
        walk(&root, &[], &mut checked);
        for expected in [
            "route --from",
            "route --to",
            "reach --from",
            "convert --translate",
            "diff --tolerance",
            "area solve --tolerance",
            "lint --character-width",
            "render --width",
        ] {
            assert!(
                checked.iter().any(|c| c == expected),
                "{expected} not checked: {checked:?}"
            );
        }
    }

    fn walk(command: &clap::Command, path: &[String], checked: &mut Vec<String>) {
        for sub in command.get_subcommands() {
            let mut inner = path.to_vec();
            inner.push(sub.get_name().to_string());
            walk(sub, &inner, checked);
        }
        for arg in command.get_arguments() {
            let Some(long) = arg.get_long() else {
                continue;
            };
            if !arg.get_action().takes_values() {
                continue;
            }
            let list = arg
                .get_value_names()
                .is_some_and(|names| names.iter().any(|n| n.contains(',')));
            if !(list || super::is_number_type(arg)) {
                continue;
            }
            let value = if list { "-1.5,-2,-0" } else { "-1" };
            let mut argv = vec!["walkmesh".to_string()];
            argv.extend(path.iter().cloned());
            argv.push(format!("--{long}"));
            argv.push(value.to_string());
            let registry = walkmesh_formats::default_registry();
            if let Err(error) = super::cli_command(&registry).try_get_matches_from(&argv) {
                assert!(
                    !matches!(
                        error.kind(),
                        clap::error::ErrorKind::UnknownArgument | clap::error::ErrorKind::NoEquals
                    ) && !error.to_string().contains("unexpected argument"),
                    "{argv:?}: {error}"
                );
            }
            checked.push(format!("{} --{long}", path.join(" ")));
        }
    }

    /// Every JSON the command line prints goes through `walkmesh_core::json`: serde_json's own
    /// printers would leave U+202E raw, and the terminal escaper would then write `\u{202e}`.
    #[test]
    fn no_command_prints_json_with_serde_json_directly() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![src];
        let mut offenders = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    // Spelled in pieces, so that this file holds none of them.
                    for needle in
                        ["to_string", "to_writer", "to_vec"].map(|f| format!("serde_json::{f}"))
                    {
                        if text.contains(needle.as_str()) {
                            offenders.push(format!("{} uses {needle}", path.display()));
                        }
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "{offenders:#?}");
    }
}
