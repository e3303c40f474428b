//! `walkmesh info`: counts, bounds, walkable area, connectivity and materials of one file.

use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Registry, passes, summary};
use walkmesh_kotor_area::contents;
use walkmesh_kotor_area::erf::Archive;
use walkmesh_kotor_area::lyt::read_lyt;

use crate::input::{ReadArgs, load, print_diagnostics};
use walkmesh_pipeline::failure::Failure;

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
    if !ignored.is_empty() && crate::areas::is_archive(file) {
        return Err(Failure::usage(format!(
            "{} is a module archive, listed member by member; {} apply to one walkmesh (name it: {}:MEMBER)",
            file.display(),
            ignored.join(", "),
            file.display()
        )));
    }
    if let Some(result) = info_for_archive(registry, file, json, stdout) {
        return result;
    }
    let mut diag = Diagnostics::new();
    let (mesh, format) = load(registry, file, read, &mut diag)?;
    // Modelling-tool input is looked at welded, as `convert` writes it.
    let mesh = passes::as_modelled(&mesh, &mut diag);
    print_diagnostics(&diag, stderr);
    let s = summary::summarize(&mesh, format);
    if json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&s)?)?;
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

/// `walkmesh info` on an archive: its summary, when `path` is one.
fn info_for_archive(
    registry: &Registry,
    path: &Path,
    json: bool,
    stdout: &mut dyn Write,
) -> Option<Result<i32, Failure>> {
    let head = {
        use std::io::Read;
        let mut head = [0u8; 8];
        let mut file = walkmesh_core::files::open(path).ok()?;
        file.read_exact(&mut head).ok()?;
        head
    };
    if !Archive::sniff(&head) {
        return None;
    }
    Some((|| {
        let archive = crate::areas::read_archive(path)?;
        if json {
            let value = archive_json(registry, path, &archive);
            writeln!(stdout, "{}", walkmesh_core::json::pretty(&value)?)?;
            return Ok(0);
        }
        writeln!(stdout, "file:           {}", path.display())?;
        for line in crate::areas::archive_summary(&archive) {
            writeln!(stdout, "{line}")?;
        }
        Ok(0)
    })())
}

/// `walkmesh info --json` on an archive: its walkmeshes (each summarised as `info` would a
/// file, or with the reason it cannot be read), layouts (room and door-hook counts) and
/// visibility files, each with its byte range in the archive.
fn archive_json(registry: &Registry, path: &Path, archive: &Archive) -> serde_json::Value {
    let kind = contents::kind_name(archive.kind);
    let entry = |m: &walkmesh_kotor_area::erf::Member| {
        let range = m.source_range().unwrap_or(0..0);
        serde_json::json!({
            "name": m.file_name(),
            "type_id": m.type_id,
            "offset": range.start,
            "size": archive.data(m).len(),
        })
    };
    let walkmeshes: Vec<serde_json::Value> =
        contents::members_of(archive, &contents::WALKMESH_TYPES)
            .map(|m| {
                let mut value = entry(m);
                let member = PathBuf::from(format!("{}:{}", path.display(), m.file_name()));
                let mut diag = Diagnostics::new();
                let read = crate::input::load_with(
                    registry,
                    &member,
                    None,
                    &walkmesh_core::ReadOptions::default(),
                    &mut diag,
                );
                match read {
                    Ok((mesh, format)) => {
                        value["summary"] =
                            serde_json::to_value(walkmesh_core::summary::summarize(&mesh, format))
                                .unwrap_or_default();
                    }
                    Err(e) => value["error"] = e.message.into(),
                }
                value
            })
            .collect();
    let layouts: Vec<serde_json::Value> = contents::members_of(archive, &[contents::LAYOUT_TYPE])
        .map(|m| {
            let mut value = entry(m);
            match read_lyt(archive.data(m)) {
                Ok((lyt, _)) => {
                    value["rooms"] = lyt.rooms.len().into();
                    value["door_hooks"] = lyt.door_hooks.len().into();
                }
                Err(e) => value["error"] = e.to_string().into(),
            }
            value
        })
        .collect();
    let visibility: Vec<serde_json::Value> =
        contents::members_of(archive, &[contents::VISIBILITY_TYPE])
            .map(entry)
            .collect();
    serde_json::json!({
        "file": path.display().to_string(),
        "archive": kind,
        "members": archive.members.len(),
        "walkmeshes": walkmeshes,
        "layouts": layouts,
        "visibility": visibility,
    })
}
