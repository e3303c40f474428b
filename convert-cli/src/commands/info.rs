//! `walkmesh info`: counts, bounds, walkable area, connectivity and materials of one file.

use std::io::Write;
use std::path::PathBuf;

use walkmesh_core::{Diagnostics, Registry, passes, summary};

use crate::Failure;
use crate::input::{ReadArgs, load, print_diagnostics};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh file.
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (file, read, json) = (&args.file, &args.read, args.json);
    // A module archive: its walkmeshes and layouts, each member read as its own format, so
    // reading options would be dropped: they are refused.
    let ignored = crate::input::options_given(read);
    if !ignored.is_empty() && super::area::is_archive(file) {
        return Err(Failure::usage(format!(
            "{} is a module archive, listed member by member; {} apply to one walkmesh (name it: {}:MEMBER)",
            file.display(),
            ignored.join(", "),
            file.display()
        )));
    }
    if let Some(result) = super::area::info_for_archive(registry, file, json, stdout) {
        return result;
    }
    let mut diag = Diagnostics::new();
    let (mesh, format) = load(registry, file, read, &mut diag)?;
    // Modelling-tool input is looked at welded, as `convert` writes it.
    let mesh = passes::as_modelled(&mesh, &mut diag);
    print_diagnostics(&diag, stderr);
    let s = summary::summarize(&mesh, format);
    if json {
        writeln!(stdout, "{}", crate::json::pretty(&s)?)?;
        return Ok(0);
    }
    writeln!(stdout, "file:           {}", file.display())?;
    writeln!(stdout, "format:         {}", s.format)?;
    writeln!(stdout, "kind:           {}", s.kind)?;
    writeln!(stdout, "vertices:       {}", s.vertices)?;
    writeln!(
        stdout,
        "faces:          {} ({} walkable{})",
        s.faces,
        s.walkable_faces,
        if s.triangles_only {
            ", all triangles"
        } else {
            ""
        }
    )?;
    if !s.triangles_only && s.faces > 0 {
        writeln!(
            stdout,
            "face corners:   {:.2} on average; largest face {:.6} square units, {} corners",
            s.mean_corners, s.largest_face_area, s.largest_face_corners
        )?;
    }
    if let Some(b) = s.bbox {
        writeln!(stdout, "bbox:           {:?} .. {:?}", b.min, b.max)?;
    }
    writeln!(stdout, "walkable area:  {:.6}", s.walkable_area)?;
    writeln!(
        stdout,
        "components:     {} connected walkable region(s)",
        s.components
    )?;
    writeln!(
        stdout,
        "boundary loops: {} ({} outer, {} holes{})",
        s.boundary_loops,
        s.outer_loops,
        s.hole_loops,
        if s.open_boundary_chains > 0 {
            format!(", {} open chains", s.open_boundary_chains)
        } else {
            String::new()
        }
    )?;
    if s.non_manifold_edges > 0 {
        writeln!(
            stdout,
            "non-manifold:   {} edge(s) shared by 3+ walkable faces",
            s.non_manifold_edges
        )?;
    }
    if s.edge_tags > 0 || s.hooks > 0 {
        writeln!(
            stdout,
            "edge tags:      {}   hooks: {}",
            s.edge_tags, s.hooks
        )?;
    }
    writeln!(stdout, "materials:")?;
    for (name, count) in &s.materials {
        writeln!(stdout, "  {name:<16} {count}")?;
    }
    Ok(0)
}
