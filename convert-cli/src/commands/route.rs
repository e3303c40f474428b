//! `walkmesh route` and `walkmesh reach`: a route between two points and the reachability of
//! the walkable surface. The work is in `walkmesh-route`; this parses, loads and prints.
//!
//! Exit codes: `route` 0 reachable, 1 not; `reach` 0, or 1 with `--require-all` when walkable
//! area is unreachable; both 2 for bad input or a point on no walkable face.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use walkmesh_core::{Diagnostics, NavMesh, ReadOptions, Registry, UpAxis, passes};
use walkmesh_route::query::{self, Engine, QueryError};
use walkmesh_route::surface::Point;
use walkmesh_route::{Reach, RouteReport};

use crate::input::{load_profile, load_with, print_diagnostics};
use walkmesh_pipeline::failure::Failure;

/// Options for reading the target. `--from` is the start point here, so the input format
/// override is `--format`.
#[derive(clap::Args, Debug)]
pub struct TargetArgs {
    /// The walkmesh file, or a KotOR area: a folder of room WOKs or a module archive
    /// (.mod/.erf/.rim) with its layout (positions in area coordinates).
    target: PathBuf,
    /// The area's layout, when the folder or archive does not hold exactly one .lyt.
    #[arg(long, value_name = "LYT")]
    lyt: Option<PathBuf>,
    /// Input format id, overriding detection by magic bytes and extension.
    #[arg(id = "input_format", long = "format", value_name = "ID")]
    format: Option<String>,
    /// A material profile (RON) replacing the embedded one (decides what is walkable).
    #[arg(long, value_name = "FILE")]
    materials: Option<PathBuf>,
    /// Up axis of OBJ files: y (Blender's default export) or z.
    #[arg(long, value_enum)]
    up: Option<Up>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum Up {
    Y,
    Z,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The engine's own tables where the format has them (NWN2 TRX, KotOR, PATH).
    Engine,
    /// Shortest path over the walkable geometry alone: A* over faces, then the funnel.
    Surface,
}

#[derive(clap::Args, Debug)]
pub struct RouteArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Start position.
    #[arg(long, value_name = "X,Y,Z", value_parser = point)]
    from: Point,
    /// End position.
    #[arg(long, value_name = "X,Y,Z", value_parser = point)]
    to: Point,
    /// How to route (default: engine where implemented — KotOR rooms and areas — else
    /// surface).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Print one JSON object: reachable, method, points, faces, length (null when
    /// unreachable), warnings.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct ReachArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Start position: report the walkable area it cannot reach.
    #[arg(long, value_name = "X,Y,Z", value_parser = point)]
    from: Option<Point>,
    /// Which links count (default: engine where implemented, else surface).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Exit 1 when any walkable area is unreachable (from --from, or between components).
    #[arg(long)]
    require_all: bool,
    /// Print one JSON object: walkable_area, components, start.
    #[arg(long)]
    pub json: bool,
}

/// Parses `X,Y,Z` (three finite numbers).
fn point(text: &str) -> Result<Point, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, z] = parts.as_slice() else {
        return Err(format!("{text:?} is not X,Y,Z (three numbers)"));
    };
    let mut out = [0.0; 3];
    for (slot, part) in out.iter_mut().zip([x, y, z]) {
        let value: f64 = part
            .parse()
            .map_err(|_| format!("{part:?} in {text:?} is not a number"))?;
        if !value.is_finite() {
            return Err(format!("{part:?} in {text:?} is not a finite number"));
        }
        *slot = value;
    }
    Ok(out)
}

/// Reads the target: an area assembled from its rooms, or one file as modelled (welded like
/// `convert` and `info` see it); and whose engine rules apply.
fn load_target(
    registry: &Registry,
    args: &TargetArgs,
    stderr: &mut dyn Write,
) -> Result<(NavMesh, Engine), Failure> {
    if is_area(args) {
        // The rooms of an area are KotOR WOKs read with the KotOR profile: these options
        // would be ignored, so they are refused.
        let ignored: Vec<&str> = [
            (args.format.is_some(), "--format"),
            (args.materials.is_some(), "--materials"),
            (args.up.is_some(), "--up"),
        ]
        .into_iter()
        .filter_map(|(given, name)| given.then_some(name))
        .collect();
        if !ignored.is_empty() {
            return Err(Failure::usage(format!(
                "{} is read as a KotOR area (room WOKs and a layout); {} apply to one walkmesh file only",
                args.target.display(),
                ignored.join(", ")
            )));
        }
        let mesh = crate::areas::load_area_mesh(&args.target, args.lyt.as_deref(), stderr)?;
        return Ok((mesh, Engine::Kotor));
    }
    let options = ReadOptions {
        up: match args.up {
            None | Some(Up::Y) => UpAxis::Y,
            Some(Up::Z) => UpAxis::Z,
        },
        materials: load_profile(args.materials.as_deref())?,
        ..ReadOptions::default()
    };
    let mut diag = Diagnostics::new();
    let (mesh, format) = load_with(
        registry,
        &args.target,
        args.format.as_deref(),
        &options,
        &mut diag,
    )?;
    let mesh = passes::as_modelled(&mesh, &mut diag).into_owned();
    print_diagnostics(&diag, stderr);
    Ok((
        mesh,
        query::routing_engine(registry.by_id(format).ok(), false),
    ))
}

fn is_area(args: &TargetArgs) -> bool {
    walkmesh_kotor_area::contents::is_area_target(&args.target, args.lyt.is_some())
}

fn method_of(method: Option<Method>) -> Option<query::Method> {
    method.map(|m| match m {
        Method::Engine => query::Method::Engine,
        Method::Surface => query::Method::Surface,
    })
}

fn failure(target: &Path, error: QueryError) -> Failure {
    match error {
        QueryError::Usage(message) => Failure::usage(message),
        QueryError::Input(message) => Failure::input(format!("{}: {message}", target.display())),
    }
}

pub fn run_route(
    registry: &Registry,
    args: &RouteArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (mesh, engine) = load_target(registry, &args.target, stderr)?;
    let report = query::route(&mesh, engine, args.from, args.to, method_of(args.method))
        .map_err(|e| failure(&args.target.target, e))?;
    finish_route(&report, args.json, stdout, stderr)
}

fn finish_route(
    report: &RouteReport,
    json: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    for warning in &report.warnings {
        writeln!(stderr, "warning: {warning}")?;
    }
    if json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(report)?)?;
    } else {
        print_route(report, stdout)?;
    }
    Ok(if report.reachable { 0 } else { 1 })
}

fn print_route(report: &RouteReport, stdout: &mut dyn Write) -> std::io::Result<()> {
    writeln!(stdout, "method:    {}", report.method)?;
    let Some(length) = report.length.filter(|_| report.reachable) else {
        writeln!(stdout, "reachable: no")?;
        return Ok(());
    };
    writeln!(stdout, "reachable: yes")?;
    writeln!(stdout, "length:    {length:.6}")?;
    writeln!(stdout, "faces:     {} passed", report.faces.len())?;
    writeln!(stdout, "points:")?;
    for p in &report.points {
        writeln!(stdout, "  {:.6} {:.6} {:.6}", p[0], p[1], p[2])?;
    }
    Ok(())
}

pub fn run_reach(
    registry: &Registry,
    args: &ReachArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (mesh, engine) = load_target(registry, &args.target, stderr)?;
    let (reach, warnings) = query::reachability(&mesh, engine, args.from, method_of(args.method))
        .map_err(|e| failure(&args.target.target, e))?;
    for warning in &warnings {
        writeln!(stderr, "warning: {warning}")?;
    }
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&reach)?)?;
    } else {
        print_reach(&reach, stdout)?;
    }
    Ok(if args.require_all && reach.anything_unreachable() {
        1
    } else {
        0
    })
}

fn print_reach(reach: &Reach, stdout: &mut dyn Write) -> std::io::Result<()> {
    writeln!(stdout, "walkable area: {:.6}", reach.walkable_area)?;
    writeln!(stdout, "components:    {}", reach.components.len())?;
    for c in &reach.components {
        writeln!(
            stdout,
            "  #{:<4} {:>8} faces  area {:>14.6}  at {:.3},{:.3},{:.3}",
            c.id, c.faces, c.area, c.position[0], c.position[1], c.position[2]
        )?;
    }
    if let Some(start) = &reach.start {
        writeln!(
            stdout,
            "from {:.3},{:.3},{:.3} (face {}, component #{}): reachable area {:.6}, unreachable {:.6}",
            start.from[0],
            start.from[1],
            start.from[2],
            start.face,
            start.component,
            start.reachable_area,
            start.unreachable_area
        )?;
        for id in &start.unreachable {
            if let Some(c) = reach.components.get(*id) {
                writeln!(
                    stdout,
                    "  unreachable: component #{} ({:.6} square units) at {:.3},{:.3},{:.3}",
                    c.id, c.area, c.position[0], c.position[1], c.position[2]
                )?;
            }
        }
    }
    Ok(())
}
