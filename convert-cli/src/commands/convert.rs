//! `walkmesh convert`: read → prepare (the target's requirements) → write → check → rename.
//!
//! The bytes about to be written are read back with the target's own reader and validator
//! before anything is renamed into place: an output our validator rejects is refused (exit 2)
//! unless `--allow-invalid`, and the counts printed are those of the file written. With
//! `--out-dir`, the command line runs `batch` instead, which calls `conversion::convert_file`
//! for each input; the conversion flow `generate` shares is in `crate::conversion`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use walkmesh_core::{Format, MeshKind, Registry, WeldChoice, passes};
use walkmesh_pipeline::plan::PlanOptions;
use walkmesh_pipeline::policy;

pub mod batch;

use crate::conversion::{
    Plan, convert_file, dependency_rule, destination, summary_line, target_for,
};
use crate::input::{ReadArgs, from_id, read_options};
use crate::targets::is_stdout;
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::{self, OutputSettings};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// IN OUT: the file to read and the file to write (sidecars such as .mtl or .bin go
    /// beside OUT; `-` writes a one-file format to standard output). With --out-dir: every
    /// path is an input (files, directories searched recursively, or quoted glob patterns).
    #[arg(value_name = "PATHS", required = true, num_args = 1..)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Output format id or extension, overriding OUT's extension (`bwm`, `wok`, `glb`, …;
    /// see `walkmesh formats`). Required with --out-dir.
    #[arg(long, value_name = "ID|EXT")]
    pub to: Option<String>,
    /// Recompute every derived table even when the preserved ones are still valid.
    #[arg(long)]
    pub rebuild: bool,
    /// Mesh kind to write (KotOR: placeable → .pwk, door → .dwk); default: from OUT's
    /// extension, else the input's kind.
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Weld vertices before writing: `off` keeps vertex identity, `exact` (or 0) merges
    /// exactly equal positions, a distance merges vertices that close. Default: exact for
    /// OBJ and glTF files from modelling tools (no walkmesh metadata), off otherwise (game
    /// files and files this tool wrote share vertices on purpose).
    #[arg(long, value_name = "off|exact|DISTANCE", value_parser = WeldChoice::parse, allow_hyphen_values = true)]
    pub weld: Option<WeldChoice>,
    /// The writer parameters the formats declare (`--template`, `--compression`,
    /// `--region-height`, …), made from the registry: `crate::params`.
    #[command(flatten)]
    pub params: crate::params::FormatParams,
    /// Memory limit (MiB) of the steps that estimate their need before allocating (PATH
    /// cooking, NWN2 island path tables); above it they refuse with a message instead of
    /// exhausting the machine. Default 4096, or less where the
    /// process may not have it: half of `ulimit -v`, three quarters of a container's or the
    /// machine's memory.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory: Option<u64>,
    /// Move the mesh (vertices and origin) by X,Y,Z metres before writing, e.g. to undo the
    /// shift a bake into NWN2 reports (`--translate=-27,-36,0`).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub translate: Option<String>,
    /// Print one JSON object: what was read and written, counts of the written file, and
    /// every diagnostic with its code (with --out-dir: a JSON summary).
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors (no summary line, no warnings).
    #[arg(long, short)]
    pub quiet: bool,
    /// Treat every warning as a failure: nothing is written, the target is left as it was,
    /// the warnings are listed and the exit code is 1.
    #[arg(long)]
    pub strict: bool,
    /// Accept warnings whose code matches CODE under --strict (repeatable; `*` matches any
    /// run of characters: --allow 'bwm.*_dropped'). Rules may also come from a walkmesh.toml
    /// in the working folder or above it.
    #[arg(long, value_name = "CODE")]
    pub allow: Vec<String>,
    /// Fail (exit 1, nothing written) on any warning whose code matches CODE, with or without
    /// --strict (repeatable; `*` as in --allow). A deny rule wins over an allow rule.
    #[arg(long, value_name = "CODE")]
    pub deny: Vec<String>,
    /// Write the output even when our own validator finds errors in it (they are reported
    /// as errors; the exit code stays 0).
    #[arg(long)]
    pub allow_invalid: bool,
    /// Replace sidecars (.mtl, .bin) that walkmesh did not write.
    #[arg(long)]
    pub force: bool,
    /// Create OUT's directory (or --out-dir) when missing.
    #[arg(long)]
    pub create_dirs: bool,
    /// Flush each file to disk before renaming it into place, so that a power loss cannot
    /// leave an empty file (the rename alone is atomic for other programs; this adds a disk
    /// round trip per file).
    #[arg(long)]
    pub fsync: bool,
    /// Convert every input into this directory, keeping paths relative to each directory
    /// or glob given (requires --to).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// With --out-dir: files converted at once (default: the number of CPUs; 1 to 1024).
    /// The output does not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// With --out-dir: write one JSON line per input to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write a Make/Ninja dependency rule to FILE: the output and its sidecars, then every
    /// file read to make them (the input or its archive, glTF buffer files, --materials,
    /// --template). With --out-dir: one rule per output.
    #[arg(long, value_name = "FILE")]
    pub depfile: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum KindArg {
    Area,
    Placeable,
    Door,
    Terrain,
}

/// The conversion plan of `convert`'s options (also each file of a batch).
pub fn plan<'r>(
    registry: &'r Registry,
    args: &Args,
    target: &'r dyn Format,
) -> Result<Plan<'r>, Failure> {
    let read = read_options(&args.read)?;
    let options = PlanOptions {
        from: from_id(&args.read).map(str::to_string),
        rebuild: args.rebuild,
        kind: args.kind.map(|k| match k {
            KindArg::Area => MeshKind::Area,
            KindArg::Placeable => MeshKind::Placeable,
            KindArg::Door => MeshKind::Door,
            KindArg::Terrain => MeshKind::Terrain,
        }),
        params: args.params.values.clone(),
        max_memory_mib: args.max_memory,
        weld: args.weld,
        translate: args.translate.as_deref().map(passes::parse_offset),
        strict: args.strict,
        allow: args.allow.clone(),
        deny: args.deny.clone(),
        allow_invalid: args.allow_invalid,
        dependencies: crate::input::option_files(&args.read)
            .into_iter()
            .chain(args.params.files(registry))
            .collect(),
        settings: OutputSettings {
            force: args.force,
            create_dirs: args.create_dirs,
            fsync: args.fsync,
        },
        project_rules: true,
    };
    walkmesh_pipeline::plan::plan(registry, target, read, options, policy::CLI_NAMES)
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    if args.jobs.is_some() || args.report.is_some() {
        return Err(Failure::usage("--jobs and --report go with --out-dir"));
    }
    if args.json && args.quiet {
        // One file: --json prints its object whatever --quiet says (a batch's --quiet
        // still hides the progress bar, so the pair is accepted there).
        return Err(Failure::usage(
            "--quiet does nothing with --json for one file (the JSON object is printed): give one of them",
        ));
    }
    let [input, output] = args.paths.as_slice() else {
        return Err(Failure::usage(format!(
            "convert takes IN and OUT ({} path(s) given); for many inputs add --out-dir DIR --to FORMAT",
            args.paths.len()
        )));
    };
    if is_stdout(output) && args.depfile.is_some() {
        return Err(Failure::usage(
            "--depfile names the output file in its rule; `-` (standard output) has no name",
        ));
    }
    if is_stdout(output) && args.json {
        return Err(Failure::usage(
            "--json prints to standard output, which `-` already fills with the converted file",
        ));
    }
    // Choose the target before reading, so a bad OUT fails fast.
    let target = match &args.to {
        Some(to) => target_for(registry, to)?.0,
        None if is_stdout(output) => {
            return Err(Failure::usage("writing to `-` needs --to FORMAT"));
        }
        None => registry.for_output(output)?,
    };
    let plan = plan(registry, args, target)?;
    // A spinner with the current phase (PATH cooks and NWN2 bakes run for seconds) when
    // standard error is a terminal: never into a pipe, a log or machine-read output.
    let show_progress = !args.quiet && !args.json && std::io::stderr().is_terminal();
    let conversion = crate::progress::with_progress(
        show_progress,
        &format!(
            "converting {} to {}",
            input.display(),
            target.descriptor().id
        ),
        || convert_file(&plan, input, destination(&plan, output)),
    )?;
    if !args.quiet && !args.json {
        for item in &conversion.diagnostics {
            writeln!(stderr, "{item}")?;
        }
    }
    if let Some(bytes) = &conversion.main_bytes {
        stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure::output(format!("cannot write to standard output: {e}")))?;
        if !args.quiet {
            writeln!(stderr, "{}", summary_line(&conversion, registry))?;
        }
        return Ok(0);
    }
    if let Some(depfile) = &args.depfile {
        output::write_atomically(depfile, dependency_rule(&conversion).as_bytes())?;
    }
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&conversion)?)?;
    } else if !args.quiet {
        writeln!(stdout, "{}", summary_line(&conversion, registry))?;
    }
    Ok(0)
}
