//! `walkmesh generate`: a walkmesh from render geometry. Reads the inputs through the
//! registry, runs `walkmesh_generate::generate`, and writes OUT through `convert`'s write path
//! (OUT's extension picks the writer; the bytes are read back and validated before the
//! rename).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use serde::Serialize;
use walkmesh_core::{Diagnostics, Registry, passes};
use walkmesh_generate::area::RoomPlacement;
use walkmesh_generate::{Engine, ObjectKind, Overrides, Params, Report};
use walkmesh_pipeline::plan::PlanOptions;
use walkmesh_pipeline::{generate, policy};

use crate::conversion::{Conversion, Plan, destination, summary_line, target_for, write_loaded};
use crate::input::{ReadArgs, non_negative_distance, option_files, positive, read_options};
use crate::targets::is_stdout;
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::OutputSettings;

mod area;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Render geometry (OBJ, glTF/GLB, or any readable mesh): floors, walls and props. Every
    /// face is a candidate floor, wall or obstacle; the inputs' walkable flags are ignored.
    /// With --out-dir: one folder or module archive (.mod/.erf/.rim) holding the layout's
    /// room models (ROOM.mdl + ROOM.mdx).
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// The walkmesh to write; its extension picks the format (wok, trx, path, obj, glb, …).
    #[arg(
        short = 'o',
        long = "out",
        value_name = "OUT",
        required_unless_present = "out_dir"
    )]
    pub out: Option<PathBuf>,
    /// Whole area: generate every layout room's WOK (in area coordinates) from its model in
    /// INPUT, solve the room transitions, and write `<room>.wok` here (docs/generate.md).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "to", "room"])]
    pub out_dir: Option<PathBuf>,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Output format id or extension, overriding OUT's extension.
    #[arg(long, value_name = "ID|EXT")]
    pub to: Option<String>,
    /// What the walkmesh is for: a room (area), or a placeable (PWK) or door (DWK, its closed
    /// state) from the object's model (docs/generate.md, "Placeables and doors"). Default: from
    /// OUT's extension (.pwk placeable, .dwk door), else area.
    #[arg(long, value_enum, conflicts_with = "out_dir")]
    pub kind: Option<KindArg>,
    /// Preset (docs/generate.md): default from OUT's format (wok → kotor, trx/trn → nwn2,
    /// path → prime, else generic).
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
    /// Clearance a character needs above the floor (m).
    #[arg(long, value_name = "H", value_parser = positive, allow_hyphen_values = true)]
    pub agent_height: Option<f32>,
    /// Distance kept from walls and drops (m); 0 reaches the walls.
    #[arg(long, value_name = "R", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub agent_radius: Option<f32>,
    /// Highest step a character takes (m).
    #[arg(long, value_name = "H", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub max_climb: Option<f32>,
    /// Steepest walkable floor (degrees, below 90).
    #[arg(long, value_name = "DEG", value_parser = positive, allow_hyphen_values = true)]
    pub max_slope: Option<f32>,
    /// Voxel column width (m).
    #[arg(long, value_name = "S", value_parser = positive, allow_hyphen_values = true)]
    pub cell_size: Option<f32>,
    /// Voxel height step (m).
    #[arg(long, value_name = "S", value_parser = positive, allow_hyphen_values = true)]
    pub cell_height: Option<f32>,
    /// A point a character starts from (repeatable); the floor connected to a seed is kept.
    /// Default: the largest connected floor.
    #[arg(long, value_name = "X,Y,Z", value_parser = passes::parse_offset, allow_hyphen_values = true)]
    pub seed: Vec<[f32; 3]>,
    /// Keep floor no seed reaches (table tops, closed-off alcoves).
    #[arg(long)]
    pub keep_unreachable: bool,
    /// Gaps narrower than this (m) do not join floors for reachability (the floor is still
    /// written up to the walls).
    #[arg(long, value_name = "W", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub min_passage_width: Option<f32>,
    /// Drop connected floor pieces smaller than this (m²).
    #[arg(long, value_name = "A", value_parser = non_negative_distance, allow_hyphen_values = true)]
    pub min_region_area: Option<f32>,
    /// KotOR: the area layout placing the room: the walkmesh is written in area coordinates
    /// (the room's LYT position added, as KotOR stores room WOKs), and without --seed the
    /// room's door hooks are the seeds.
    #[arg(long, value_name = "LYT")]
    pub lyt: Option<PathBuf>,
    /// The room's name in the layout (default: the first input's file name without extension).
    #[arg(long, value_name = "NAME", requires = "lyt")]
    pub room: Option<String>,
    /// Words of render material names (case ignored) that mark surfaces no character starts
    /// from, never the floor chosen without --seed (default water,lava,sky,void; a name with
    /// "puddle" is always floor); "" turns the rule off.
    #[arg(long, value_name = "WORD,...", value_delimiter = ',')]
    pub not_floor: Option<Vec<String>>,
    /// Memory limit (MiB): every stage estimates what it allocates before allocating it and
    /// refuses above the limit, naming the stage and the estimate. Default 4096, or less where the
    /// process may not have it: half of `ulimit -v`, three quarters of a container's or the
    /// machine's memory.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory: Option<u64>,
    /// Print one JSON object: the generation report and the conversion.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write the output even when our validator finds errors in it.
    #[arg(long)]
    pub allow_invalid: bool,
    /// Replace sidecars (.mtl, .bin) that walkmesh did not write.
    #[arg(long)]
    pub force: bool,
    /// Create OUT's directory when missing.
    #[arg(long)]
    pub create_dirs: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum KindArg {
    Area,
    Placeable,
    Door,
}

impl KindArg {
    fn name(self) -> &'static str {
        match self {
            KindArg::Area => "area",
            KindArg::Placeable => "placeable",
            KindArg::Door => "door",
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum EngineArg {
    Kotor,
    Nwn2,
    Prime,
    Generic,
}

/// What `--json` prints.
#[derive(Serialize, Debug)]
struct Generation<'a> {
    report: &'a Report,
    conversion: &'a Conversion,
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let out = match (&args.out, &args.out_dir) {
        (_, Some(out_dir)) => {
            return area::run(registry, args, out_dir, stdout, stderr);
        }
        (Some(out), None) => out,
        (None, None) => return Err(Failure::usage("generate needs -o OUT or --out-dir DIR")),
    };
    if is_stdout(out) {
        return Err(Failure::usage("generate writes a file: give OUT a path"));
    }
    let target = match &args.to {
        Some(to) => target_for(registry, to)?.0,
        None => registry.for_output(out)?,
    };
    let object = generate::object_kind(args.kind.map(KindArg::name), Some(out))?;
    if object.is_some() && args.lyt.is_some() {
        return Err(Failure::usage(
            "generate: --lyt places a room; a placeable's or door's walkmesh is in its model's coordinates",
        ));
    }
    let plan = plan(registry, args, target, object)?;
    let params = params(args, target, &plan, object)?;
    let placement = layout_placement(args)?;
    let mut diag = Diagnostics::new();
    let meshes = generate::read_inputs(
        registry,
        &args.inputs,
        &plan.read,
        &crate::input::render_geometry,
        &mut diag,
    )?;
    let dependencies = args.inputs.clone();
    let show = show_progress(args);
    let placed = generate::Target {
        format: target,
        placement: placement.as_ref().zip(args.lyt.as_deref()),
    };
    let generated = crate::progress::with_progress(show, "generating", || match object {
        Some(kind) => generate::generate_object(meshes, params, kind, &mut diag),
        None => generate::generate(meshes, params, Some(placed), &mut diag),
    })?;
    let first = args.inputs.first().map_or(Path::new("-"), PathBuf::as_path);
    let conversion = crate::progress::with_progress(show, "writing", || {
        write_loaded(
            &plan,
            &generated.mesh,
            "generate",
            dependencies,
            first,
            destination(&plan, out),
            diag,
        )
    })?;
    if args.json {
        let both = Generation {
            report: &generated.report,
            conversion: &conversion,
        };
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&both)?)?;
    } else if !args.quiet {
        for item in &conversion.diagnostics {
            writeln!(stderr, "{item}")?;
        }
        write!(stdout, "{}", generated.report.text())?;
        writeln!(stdout, "{}", summary_line(&conversion, registry))?;
    }
    Ok(0)
}

/// A progress line with the stage (a large scene takes seconds) when standard error is a
/// terminal: never into a pipe, a log or machine-read output (as `convert`).
fn show_progress(args: &Args) -> bool {
    use std::io::IsTerminal;
    !args.quiet && !args.json && std::io::stderr().is_terminal()
}

/// With --lyt: where the layout places the room, and its door hooks in room coordinates.
fn layout_placement(args: &Args) -> Result<Option<RoomPlacement>, Failure> {
    let Some(path) = &args.lyt else {
        return Ok(None);
    };
    let name = match &args.room {
        Some(name) => name.clone(),
        None => args
            .inputs
            .first()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let placement = generate::layout_placement(path, &name)?.ok_or_else(|| {
        Failure::usage(format!(
            "room '{}' is not in {} (give its name with --room)",
            walkmesh_core::printable::escape(&name),
            path.display()
        ))
    })?;
    Ok(Some(placement))
}

/// The write plan `convert` would make for OUT (no weld, translation or rebuild options:
/// the generated mesh is new, so every table is rebuilt).
fn plan<'r>(
    registry: &'r Registry,
    args: &Args,
    target: &'r dyn walkmesh_core::Format,
    object: Option<ObjectKind>,
) -> Result<Plan<'r>, Failure> {
    let read = generate::render_read_options(read_options(&args.read)?);
    let options = PlanOptions {
        rebuild: true,
        kind: object.map(ObjectKind::mesh_kind),
        allow_invalid: args.allow_invalid,
        dependencies: option_files(&args.read),
        settings: OutputSettings {
            force: args.force,
            create_dirs: args.create_dirs,
            fsync: false,
        },
        project_rules: true,
        ..PlanOptions::default()
    };
    walkmesh_pipeline::plan::plan(registry, target, read, options, policy::CLI_NAMES)
}

/// The preset of the engine asked for (or OUT's format's), with the options over it
/// (`walkmesh_generate::Overrides`, which the Python package fills from its keywords).
fn params(
    args: &Args,
    target: &dyn walkmesh_core::Format,
    plan: &Plan<'_>,
    object: Option<ObjectKind>,
) -> Result<Params, Failure> {
    let engine = match args.engine {
        Some(EngineArg::Kotor) => Engine::Kotor,
        Some(EngineArg::Nwn2) => Engine::Nwn2,
        Some(EngineArg::Prime) => Engine::Prime,
        Some(EngineArg::Generic) => Engine::Generic,
        None => target.descriptor().engine,
    };
    let overrides = Overrides {
        agent_height: args.agent_height,
        agent_radius: args.agent_radius,
        max_climb: args.max_climb,
        max_slope: args.max_slope,
        cell_size: args.cell_size,
        cell_height: args.cell_height,
        min_region_area: args.min_region_area,
        min_passage_width: args.min_passage_width,
        seeds: args.seed.clone(),
        keep_unreachable: args.keep_unreachable,
        default_material: plan.read.default_material.clone(),
        max_memory_mib: args.max_memory,
        not_floor: args.not_floor.clone(),
    };
    match object {
        Some(kind) => Params::object_with_overrides(engine, kind, &overrides),
        None => Params::with_overrides(engine, &overrides),
    }
    .map_err(|e| Failure::usage(format!("generate: {e}")))
}
