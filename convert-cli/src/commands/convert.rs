//! `walkmesh convert`: read → prepare (the target's requirements) → write → check → rename.
//!
//! The bytes about to be written are read back with the target's own reader and validator
//! before anything is renamed into place: an output our validator rejects is refused (exit 2)
//! unless `--allow-invalid`, and the counts printed are those of the file written. With
//! `--out-dir`, the command line runs `commands::batch` instead, which calls [`convert_file`]
//! for each input.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use serde::Serialize;
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, MeshKind, ReadOptions, Registry, WeldChoice, WriteOptions,
    passes, progress,
};
use walkmesh_pipeline::warnings::{Applied, WarningPolicy};
use walkmesh_pipeline::{WriteFailure, policy};

use crate::Failure;
use crate::input::{ReadArgs, from_id, load_with, non_negative_distance, positive, read_options};
use crate::output::{self, OutputSettings};

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
    /// NWN2: a .trn/.trx whose other packets (terrain, water) are kept around the baked
    /// walkmesh.
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// NWN2: zlib level of the walkmesh packet, 0 (stored, fastest) to 9 (smallest); default 6,
    /// zlib's own default. The game reads every level; see docs/performance.md for the time
    /// and size of each.
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u32).range(0..=9))]
    pub compression: Option<u32>,
    /// Metroid Prime: region height when the source has none (default 1.0; finite, > 0).
    #[arg(long, value_name = "HEIGHT", value_parser = positive, allow_hyphen_values = true)]
    pub region_height: Option<f32>,
    /// Metroid Prime: most regions to write (1–512, default 512, the engine's limit); nearly
    /// flat neighbours are merged when exact merging gives more.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=512))]
    pub max_regions: Option<u32>,
    /// Metroid Prime: largest height error that meeting --max-regions may introduce
    /// (finite, ≥ 0; default 0.3).
    #[arg(long, value_name = "DISTANCE", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub max_height_error: Option<f32>,
    /// Metroid Prime: vertical tolerance of every merge of neighbouring surfaces (finite,
    /// ≥ 0; default 0.05; 0 merges exactly coplanar surfaces only).
    #[arg(long, value_name = "DISTANCE", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub height_tolerance: Option<f32>,
    /// Metroid Prime: largest fraction of the walkable area (seen from above) that meeting
    /// --max-regions may change by straightening the walkable border, once the height-error
    /// bound is not enough (0–1; default 0.25).
    #[arg(long, value_name = "FRACTION", value_parser = crate::input::fraction, allow_hyphen_values = true)]
    pub max_area_change: Option<f64>,
    /// Memory limit (MiB) of the steps that estimate their need before allocating (PATH
    /// cooking, NWN2 island path tables); above it they refuse with a message instead of
    /// exhausting the machine. Default 4096.
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

pub use walkmesh_pipeline::Counts;

/// What one conversion read and wrote (`convert --json`, one line of a batch report).
#[derive(Serialize, Debug, Default)]
pub struct Conversion {
    pub input: PathBuf,
    pub from: String,
    pub output: PathBuf,
    pub to: String,
    /// The mesh as read.
    pub read: Counts,
    /// The file written, read back with the target's reader.
    pub written: Counts,
    pub bytes: usize,
    pub sidecars: Vec<String>,
    /// Read, prepare and write diagnostics; with --allow-invalid also the output's errors.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors and warnings the target's validator found in the written file.
    pub output_errors: usize,
    pub output_warnings: usize,
    /// OUT (and its sidecars) already held these exact bytes and were left untouched: same
    /// inode, same modification time, so a build system sees nothing new.
    pub unchanged: bool,
    /// The warning rules (--allow, --deny, walkmesh.toml) that decided a warning's fate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules_applied: Vec<Applied>,
    /// The main file's bytes when OUT is `-`.
    #[serde(skip)]
    pub to_stdout: Option<Vec<u8>>,
    /// Every file read to make the output (for `--depfile`).
    #[serde(skip)]
    pub dependencies: Vec<PathBuf>,
}

/// Everything a conversion needs besides the input and output paths; built once per run.
pub struct Plan<'r> {
    pub registry: &'r Registry,
    pub target: &'r dyn Format,
    pub from: Option<String>,
    pub read: ReadOptions,
    /// Options for reading the output back: the input's axis, profile and default material,
    /// none of the input-only settings (`--scene`), and a ceiling at least the default.
    pub check: ReadOptions,
    pub write: WriteOptions,
    pub weld: Option<WeldChoice>,
    /// `--translate`, applied right after reading.
    pub translate: Option<[f32; 3]>,
    /// --strict, --allow and --deny over the project file's rules.
    pub warnings: WarningPolicy,
    /// Files every conversion of the run reads besides its input (--materials, --template).
    pub dependencies: Vec<PathBuf>,
    pub allow_invalid: bool,
    pub settings: OutputSettings,
}

impl std::fmt::Debug for Plan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("target", &self.target.id())
            .finish_non_exhaustive()
    }
}

/// The format `--to` names: an extension claimed by a writer (`glb`, `wok`), else a format
/// id; with the extension outputs get.
pub fn target_for<'r>(
    registry: &'r Registry,
    to: &str,
) -> Result<(&'r dyn Format, String), Failure> {
    Ok(walkmesh_pipeline::target_for(registry, to)?)
}

pub fn plan<'r>(
    registry: &'r Registry,
    args: &Args,
    target: &'r dyn Format,
) -> Result<Plan<'r>, Failure> {
    if target.writer().is_none() {
        return Err(Failure::usage(format!(
            "the {} format ({}) cannot be written yet",
            target.id(),
            target.name()
        )));
    }
    let read = read_options(&args.read)?;
    let mut write = WriteOptions {
        up: read.up,
        materials: read.materials.clone(),
        rebuild: args.rebuild,
        kind: args.kind.map(|k| match k {
            KindArg::Area => MeshKind::Area,
            KindArg::Placeable => MeshKind::Placeable,
            KindArg::Door => MeshKind::Door,
            KindArg::Terrain => MeshKind::Terrain,
        }),
        file_name: None,
        params: Default::default(),
    };
    if let Some(template) = &args.template {
        write
            .params
            .insert("nwn2:template".into(), template.display().to_string());
    }
    if let Some(level) = args.compression {
        write
            .params
            .insert("nwn2:zlib_level".into(), level.to_string());
    }
    if let Some(height) = args.region_height {
        write
            .params
            .insert("prime:region_height".into(), height.to_string());
    }
    if let Some(regions) = args.max_regions {
        write
            .params
            .insert("prime:max_regions".into(), regions.to_string());
    }
    if let Some(error) = args.max_height_error {
        write
            .params
            .insert("prime:max_height_error".into(), error.to_string());
    }
    if let Some(tolerance) = args.height_tolerance {
        write
            .params
            .insert("prime:height_tolerance".into(), tolerance.to_string());
    }
    if let Some(fraction) = args.max_area_change {
        write
            .params
            .insert("prime:max_area_change".into(), fraction.to_string());
    }
    if let Some(mib) = args.max_memory {
        write.params.insert(
            walkmesh_core::memory::PARAM_MAX_MEMORY.into(),
            mib.to_string(),
        );
    }
    let check = walkmesh_pipeline::check_options(&read);
    Ok(Plan {
        registry,
        target,
        from: from_id(&args.read).map(str::to_string),
        read,
        check,
        write,
        weld: args.weld,
        translate: args
            .translate
            .as_deref()
            .map(passes::parse_offset)
            .transpose()
            .map_err(|e| Failure::usage(format!("--translate: {e}")))?,
        warnings: warning_policy(args)?,
        dependencies: crate::input::option_files(&args.read)
            .into_iter()
            .chain(args.template.clone())
            .collect(),
        allow_invalid: args.allow_invalid,
        settings: OutputSettings {
            force: args.force,
            create_dirs: args.create_dirs,
            fsync: args.fsync,
        },
    })
}

/// The project file's rules (`walkmesh.toml` from the working folder up), then the command
/// line's.
fn warning_policy(args: &Args) -> Result<WarningPolicy, Failure> {
    let start = std::env::current_dir().unwrap_or_default();
    let (found, _) = WarningPolicy::discover(&start)?;
    Ok(found.with_flags(args.strict, &args.allow, &args.deny))
}

/// The `--depfile` rule of a conversion: the output and its sidecars, then what it read.
pub fn dependency_rule(conversion: &Conversion) -> String {
    let directory = conversion.output.parent().unwrap_or(Path::new(""));
    let targets: Vec<PathBuf> = std::iter::once(conversion.output.clone())
        .chain(conversion.sidecars.iter().map(|s| directory.join(s)))
        .collect();
    walkmesh_pipeline::depfile::rule(&targets, &conversion.dependencies)
}

/// Whether `path` names standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Converts `input` to `output` (`-`: the bytes are returned in `to_stdout`). Nothing is
/// printed; on failure nothing new is left behind.
pub fn convert_file(plan: &Plan<'_>, input: &Path, output: &Path) -> Result<Conversion, Failure> {
    let mut diag = Diagnostics::new();
    progress::phase(|| format!("reading {}", input.display()));
    let (mut mesh, source) = load_with(
        plan.registry,
        input,
        plan.from.as_deref(),
        &plan.read,
        &mut diag,
    )?;
    let dependencies = walkmesh_pipeline::depfile::unique(
        std::iter::once(walkmesh_kotor_area::erf::file_holding(input))
            .chain(mesh.provenance.iter().flat_map(|p| p.files_read.clone()))
            .chain(plan.dependencies.iter().cloned()),
    );
    if let Some(offset) = plan.translate {
        walkmesh_pipeline::translate(&mut mesh, offset, &mut diag);
    }
    write_loaded(plan, &mesh, source, dependencies, input, output, diag)
}

/// The writing half of [`convert_file`] for a mesh already in memory (`generate` writes
/// through it too): prepare for the target, write, read back and validate, stage and rename.
/// `input` names the source in messages; `source` is its format id.
pub fn write_loaded(
    plan: &Plan<'_>,
    mesh: &walkmesh_core::NavMesh,
    source: &str,
    dependencies: Vec<PathBuf>,
    input: &Path,
    output: &Path,
    mut diag: Diagnostics,
) -> Result<Conversion, Failure> {
    let target = plan.target;
    let to_stdout = is_stdout(output);
    let mut options = plan.write.clone();
    options.file_name = if to_stdout {
        None
    } else {
        output
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
    };
    progress::phase(|| {
        format!(
            "writing {} ({} polygons) as {}",
            output.display(),
            mesh.polygons.len(),
            target.id()
        )
    });
    let written =
        walkmesh_pipeline::write_mesh(mesh, target, &options, plan.weld.unwrap_or_default(), &mut diag)
            .map_err(|failure| match failure {
                WriteFailure::NoWriter { id } => {
                    Failure::usage(format!("the {id} format cannot be written"))
                }
                WriteFailure::NothingLeft { polygons } => Failure::input(format!(
                    "{}: no polygon of the {polygons} read is left after preparing it for {}{}; nothing written",
                    input.display(),
                    target.id(),
                    plan.weld
                        .map(|w| format!(" (--weld {w:?} merged them away)"))
                        .unwrap_or_default()
                )),
                WriteFailure::Write(e) => Failure::input(format!(
                    "cannot write {} as {}: {e}",
                    output.display(),
                    target.id()
                )),
            })?;
    diag.set_file(input);
    let rules_applied = plan.warnings.judge(
        &diag,
        &input.display().to_string(),
        &output.display().to_string(),
        policy::CLI_NAMES.strict,
    )?;
    let mut conversion = Conversion {
        input: input.to_path_buf(),
        from: source.to_string(),
        output: output.to_path_buf(),
        to: target.id().to_string(),
        read: counts(mesh),
        rules_applied,
        dependencies,
        bytes: written.main.len(),
        sidecars: written
            .sidecars
            .iter()
            .map(|s| s.file_name.clone())
            .collect(),
        ..Conversion::default()
    };
    if to_stdout {
        if !written.sidecars.is_empty() {
            return Err(Failure::usage(format!(
                "`-` (standard output) holds one file, but {} writes {} beside it; write to a file{}",
                target.id(),
                conversion.sidecars.join(", "),
                if target.extensions().contains(&"glb") {
                    " (or --to glb)"
                } else {
                    ""
                }
            )));
        }
        check_output(plan, &mut conversion, &written.main, None, &mut diag)?;
        conversion.diagnostics = diag.items;
        conversion.to_stdout = Some(written.main);
        return Ok(conversion);
    }
    // Without sidecars the check reads the bytes in memory, so writing the staged file
    // (a kernel copy of the whole output) and checking it are independent: on large outputs
    // they overlap (1M-triangle OBJ -> WOK: 138 MB written while the validator runs).
    let mut check = |read_path: &Path| {
        check_output(
            plan,
            &mut conversion,
            &written.main,
            Some(read_path),
            &mut diag,
        )
    };
    let (staged, checked) = if written.sidecars.is_empty()
        && written.main.len() >= OVERLAP_WRITE_BYTES
        && walkmesh_core::threads::may_spawn()
    {
        let read_path = output::final_path(output, plan.settings)?;
        std::thread::scope(|scope| {
            let staging = scope.spawn(|| output::stage(output, &written, plan.settings));
            let checked = check(&read_path);
            let staged = staging.join().unwrap_or_else(|_| {
                Err(Failure::output(format!(
                    "writing {} failed (the writing thread stopped)",
                    output.display()
                )))
            });
            (staged, checked)
        })
    } else {
        let staged = output::stage(output, &written, plan.settings)?;
        let checked = check(staged.read_path());
        (Ok(staged), checked)
    };
    let staged = staged?;
    if let Err(failure) = checked {
        staged.discard();
        return Err(failure);
    }
    conversion.unchanged = staged.unchanged();
    staged.commit()?;
    conversion.diagnostics = diag.items;
    Ok(conversion)
}

/// Outputs at least this large are written while they are checked (below, a thread costs
/// more than the copy).
const OVERLAP_WRITE_BYTES: usize = 1 << 20;

fn counts(mesh: &walkmesh_core::NavMesh) -> Counts {
    walkmesh_pipeline::counts(mesh)
}

/// Reads the bytes about to be written with the target's validator and reader and judges
/// what they find (`policy::judge_output`: errors refuse the output unless --allow-invalid);
/// the counts of what was read back are recorded. The mesh read back is checked for errors
/// only (`mesh_errors`): the mesh warnings were given while preparing it, and the full
/// `mesh_findings` (adjacency, seams, loops) cost as much as the conversion on large meshes.
fn check_output(
    plan: &Plan<'_>,
    conversion: &mut Conversion,
    main: &[u8],
    path: Option<&Path>,
    diag: &mut Diagnostics,
) -> Result<(), Failure> {
    let target = plan.target;
    progress::phase(|| format!("checking {}", conversion.output.display()));
    let checked =
        walkmesh_pipeline::check_output(target, main, path, &plan.check).map_err(|e| {
            Failure::usage(format!(
                "the {} format cannot be read back, so its output cannot be checked",
                e.id
            ))
        })?;
    let verdict = policy::judge_output(
        checked,
        Some(&conversion.output),
        target.id(),
        plan.allow_invalid,
        policy::CLI_NAMES,
    )?;
    if let Some(written) = verdict.written {
        conversion.written = written;
    }
    conversion.output_errors = verdict.errors.len();
    conversion.output_warnings = verdict.warnings.len();
    diag.items.extend(verdict.errors);
    Ok(())
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
        &format!("converting {} to {}", input.display(), target.id()),
        || convert_file(&plan, input, output),
    )?;
    if !args.quiet && !args.json {
        for item in &conversion.diagnostics {
            writeln!(stderr, "{item}")?;
        }
    }
    if let Some(bytes) = &conversion.to_stdout {
        stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure::output(format!("cannot write to standard output: {e}")))?;
        if !args.quiet {
            writeln!(stderr, "{}", summary_line(&conversion))?;
        }
        return Ok(0);
    }
    if let Some(depfile) = &args.depfile {
        output::write_atomically(depfile, dependency_rule(&conversion).as_bytes())?;
    }
    if args.json {
        writeln!(stdout, "{}", crate::json::pretty(&conversion)?)?;
    } else if !args.quiet {
        writeln!(stdout, "{}", summary_line(&conversion))?;
    }
    Ok(0)
}

/// `wrote OUT (from → to): N faces, W walkable, B bytes (+ sidecars)`, counted in the file
/// written; `unchanged (same bytes, left untouched) OUT …` when OUT already held them.
pub fn summary_line(c: &Conversion) -> String {
    // What the target stores: PATH files hold regions (each the union of many faces).
    let unit = if c.to == "path" { "regions" } else { "faces" };
    format!(
        "{} {} ({} → {}): {} {unit}{}, {} walkable, {} bytes{}",
        if c.unchanged {
            "unchanged (same bytes, left untouched)"
        } else {
            "wrote"
        },
        c.output.display(),
        c.from,
        c.to,
        c.written.faces,
        if c.written.faces == c.read.faces && unit == "faces" {
            String::new()
        } else {
            format!(" (from {} faces read)", c.read.faces)
        },
        c.written.walkable_faces,
        c.bytes,
        if c.sidecars.is_empty() {
            String::new()
        } else {
            format!(" (+ {})", c.sidecars.join(", "))
        }
    )
}
