//! The `walkmesh` command line: `formats`, `info`, `convert`, `validate`, `dump`.
//!
//! Thin on purpose: it parses arguments, picks formats from the registry, runs the core
//! pipeline (read → prepare → write) and prints. One module per subcommand in `commands/`;
//! `input` holds the reading options every command shares, `output` the file writing.
//! Exit codes: 0 success, 1 `validate` found errors, 2 unreadable input or bad usage.

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

mod commands;
mod input;
mod output;

const EXAMPLES: &str = "\
Examples:
  walkmesh convert room.obj room.wok          Blender export (Y up) to a KotOR area walkmesh
  walkmesh convert room.wok room.obj          and back, for editing
  walkmesh info room.wok --json               counts, bounds, walkable area, loops, materials
  walkmesh validate room.wok --json           every rule of the format, with stable codes
  walkmesh dump room.wok --format json        every stored field with its byte offset
  walkmesh info area.mod:m12aa_42a.wok        a walkmesh inside a module archive
  walkmesh area solve area.mod --check        room-to-room transitions checked from geometry";

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
    /// given. Output is written to a temporary file and renamed, so a failed run leaves no
    /// partial file.
    ///
    /// Example: walkmesh convert room.obj room.wok --materials kotor.ron
    Convert(commands::convert::Args),
    /// Check a walkmesh against its format's rules and general mesh sanity.
    ///
    /// Exit code 1 when any error is found. Every finding has a stable code
    /// (`bwm.adjacency_not_reciprocal`, `mesh.non_manifold_edge`, …).
    ///
    /// Example: walkmesh validate room.wok --json
    Validate(commands::validate::Args),
    /// Show every stored field with its byte offset (formats without a field dump show the
    /// neutral mesh instead).
    ///
    /// Example: walkmesh dump area.path --format ron
    Dump(commands::dump::Args),
    /// KotOR areas: layouts (LYT/VIS), module archives (.mod/.erf/.rim), whole-area meshes,
    /// room-to-room transitions solved from geometry, kits and Indoor Map Builder maps.
    ///
    /// Example: walkmesh area solve rooms/ --lyt m40ad.lyt --check
    Area(commands::area::Args),
}

/// A failure that ends the command with exit code 2.
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure(error.to_string())
    }
}

/// Runs the command line `args` (program name first); returns the exit code.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().ansi().to_string();
            return match error.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let _ = write!(stdout, "{}", error.render());
                    0
                }
                clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = write!(stderr, "{}", error.render());
                    2
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
                    2
                }
            };
        }
    };
    let registry = walkmesh_formats::default_registry();
    let result = match &cli.command {
        Command::Formats(args) => commands::formats::run(&registry, args, stdout),
        Command::Info(args) => commands::info::run(&registry, args, stdout, stderr),
        Command::Convert(args) => commands::convert::run(&registry, args, stdout, stderr),
        Command::Validate(args) => commands::validate::run(&registry, args, stdout),
        Command::Dump(args) => commands::dump::run(&registry, args, stdout, stderr),
        Command::Area(args) => commands::area::run(&registry, args, stdout, stderr),
    };
    match result {
        Ok(code) => code,
        Err(Failure(message)) => {
            let _ = writeln!(stderr, "error: {message}");
            2
        }
    }
}
