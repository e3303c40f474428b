//! `walkmesh diff`: compare two walkmeshes of any formats through the neutral mesh.
//! Exit code 0 when equal within the tolerance, 1 when different, 2 when unreadable.

use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Registry};

use crate::input::{ReadArgs, load, print_diagnostics};
use crate::targets::{is_stdout, write_file};
use walkmesh_pipeline::failure::Failure;

mod fields;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first walkmesh (A).
    a: PathBuf,
    /// The second walkmesh (B), of any format.
    b: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Largest length difference counted as equal (translation, surface distance); areas
    /// are equal within this times the walkable boundary length.
    #[arg(long, value_name = "T", default_value_t = 1e-4)]
    tolerance: f64,
    /// Compare footprint and surfaces after moving B back by the translation between the
    /// walkable faces' bounding boxes, only when that makes the match better (the
    /// translation is still reported; a refusal is explained in the notes). Not with
    /// --reach, which samples the meshes as read.
    #[arg(long, conflicts_with = "reach")]
    align: bool,
    /// Also write one self-contained HTML page with both pictures, the overlay and the
    /// tables; `-` writes it to standard output (the comparison then goes to standard
    /// error).
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
    /// Also draw A and B overlaid, with the footprint differences outlined (.svg or .png;
    /// `-`: SVG on standard output, the comparison then on standard error).
    #[arg(long, value_name = "PICTURE")]
    overlay: Option<PathBuf>,
    /// Width in pixels of the --overlay picture.
    #[arg(long, default_value_t = 1200, requires = "overlay")]
    width: u32,
    /// Also compare reachability: sample point pairs on A's walkable surface (fixed seed) and
    /// list the pairs one mesh joins and the other does not (exit 1 when any).
    #[arg(long)]
    reach: bool,
    /// Number of point pairs --reach samples (at most 1000000; more is refused).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1000,
        requires = "reach",
        value_parser = clap::value_parser!(u64).range(..=walkmesh_route::diff::MAX_PAIRS as u64)
    )]
    reach_pairs: u64,
    #[command(flatten)]
    read: ReadArgs,
    /// Compare the stored fields instead of the meshes: every field that differs, by path,
    /// with both values and byte offsets (empty for a file against itself). Vertices, faces
    /// with their per-face fields, AABB nodes and perimeter edges are first paired by content,
    /// so a writer's other order shows as "reordered" (the permutation in --json).
    #[arg(long, conflicts_with_all = ["align", "html", "overlay", "reach", "reach_pairs", "tolerance", "width"])]
    fields: bool,
    /// With --fields: compare records index by index, without pairing them by content.
    #[arg(long, requires = "fields")]
    by_index: bool,
    /// Most stored fields held per file by --fields.
    #[arg(long, value_name = "N", default_value_t = walkmesh_research::diff::DEFAULT_FIELD_LIMIT, requires = "fields")]
    field_limit: usize,
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        return Err(Failure::input(format!(
            "--tolerance must be a number >= 0, not {}",
            args.tolerance
        )));
    }
    if args.fields {
        let files = (args.a.as_path(), args.b.as_path());
        let limit = args.field_limit;
        let how = fields::How {
            limit,
            by_index: args.by_index,
            json: args.json,
        };
        return fields::diff(registry, files, &args.read, how, stdout);
    }
    if let Some(path) = &args.overlay {
        crate::pictures::picture_of(path)?;
    }
    let mut diag = Diagnostics::new();
    let (a, _) = load(registry, &args.a, &args.read, &mut diag)?;
    print_diagnostics(&diag, stderr);
    let mut diag = Diagnostics::new();
    let (b, _) = load(registry, &args.b, &args.read, &mut diag)?;
    print_diagnostics(&diag, stderr);
    let options = walkmesh_diff::Options {
        tolerance: args.tolerance,
        align: args.align,
    };
    let report = walkmesh_diff::compare(&a, &b, &options);
    let (name_a, name_b) = (name(&args.a), name(&args.b));
    if let Some(path) = &args.html {
        let page = walkmesh_diff::html::report_page(&report, &a, &name_a, &b, &name_b)?;
        write_file(path, page.as_bytes(), stdout)?;
    }
    if let Some(path) = &args.overlay {
        let picture = crate::pictures::picture_of(path)?;
        let scene =
            walkmesh_diff::html::overlay_scene(&report, &a, &name_a, &b, &name_b, args.width)?;
        write_file(path, &crate::pictures::encode(&scene, picture)?, stdout)?;
    }
    // With a picture or page on standard output, the comparison goes to standard error.
    let to_stdout = [&args.html, &args.overlay]
        .into_iter()
        .flatten()
        .any(|p| is_stdout(p));
    let stdout: &mut dyn Write = if to_stdout { stderr } else { stdout };
    // The parser refused more than MAX_PAIRS, so this fits a usize on every target.
    let pairs = usize::try_from(args.reach_pairs).unwrap_or(walkmesh_route::diff::MAX_PAIRS);
    let reach = args.reach.then(|| reach_diff(&a, &b, pairs));
    let reach_differs = reach.as_ref().is_some_and(|r| !r.differing.is_empty());
    if args.json {
        let mut value = serde_json::to_value(&report)?;
        if let (Some(reach), Some(object)) = (&reach, value.as_object_mut()) {
            object.insert("reach".into(), serde_json::to_value(reach)?);
        }
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&value)?)?;
        return Ok(if report.equal && !reach_differs { 0 } else { 1 });
    } else {
        write!(
            stdout,
            "{}",
            walkmesh_diff::to_text(
                &report,
                &args.a.display().to_string(),
                &args.b.display().to_string()
            )
        )?;
    }
    if let Some(reach) = &reach {
        print_reach_diff(reach, stdout)?;
    }
    Ok(if report.equal && !reach_differs { 0 } else { 1 })
}

/// `--reach`: the comparison on the meshes as modelled (welded like `info` sees them).
fn reach_diff(
    a: &walkmesh_core::NavMesh,
    b: &walkmesh_core::NavMesh,
    pairs: usize,
) -> walkmesh_route::diff::ReachDiff {
    let mut diag = Diagnostics::new();
    let a = walkmesh_core::passes::as_modelled(a, &mut diag);
    let b = walkmesh_core::passes::as_modelled(b, &mut diag);
    walkmesh_route::diff::reach_diff(&a, &b, pairs, walkmesh_route::diff::DEFAULT_SEED)
}

fn print_reach_diff(
    reach: &walkmesh_route::diff::ReachDiff,
    stdout: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        stdout,
        "reachability:  {} point pairs sampled on A (seed {}), {} differ in B, {} with a point off B's walkable surface",
        reach.pairs,
        reach.seed,
        reach.differing.len(),
        reach.off_b
    )?;
    for pair in reach.differing.iter().take(20) {
        let (p, q) = (pair.from, pair.to);
        writeln!(
            stdout,
            "  {:.3},{:.3},{:.3} → {:.3},{:.3},{:.3}: {} in A, {} in B",
            p[0],
            p[1],
            p[2],
            q[0],
            q[1],
            q[2],
            if pair.reachable_in_a {
                "reachable"
            } else {
                "unreachable"
            },
            if pair.reachable_in_b {
                "reachable"
            } else {
                "unreachable"
            },
        )?;
    }
    if reach.differing.len() > 20 {
        writeln!(
            stdout,
            "  … {} more (--json lists all)",
            reach.differing.len() - 20
        )?;
    }
    Ok(())
}
