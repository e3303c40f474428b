//! `walkmesh generate DIR_OR_MODULE --lyt AREA.lyt --out-dir OUT`: a whole KotOR area.
//!
//! The rooms are generated and their transitions solved by `walkmesh_generate::area` (every
//! layout room's WOK from its model, in area coordinates, transitions solved across rooms);
//! this checks the options, writes every room staged and read back by the validator before
//! any is renamed into OUT (as `lint AREA --fix OUTDIR` writes rooms, so a refused room leaves
//! OUT as it was), and prints.

use std::io::Write;
use std::path::Path;

use walkmesh_core::{Registry, printable};
use walkmesh_generate::area::{Area, AreaReport, RoomResult, generate_rooms, solve_transitions};

use super::{Args, EngineArg, params, plan, show_progress};
use crate::areas::{kotor_room_format, open_rooms, room_layout, write_rooms};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::note_read;

pub fn run(
    registry: &Registry,
    args: &Args,
    out_dir: &Path,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let [input] = args.inputs.as_slice() else {
        return Err(Failure::usage(
            "generate --out-dir takes one INPUT: the folder or module archive holding the room models",
        ));
    };
    if matches!(args.engine, Some(EngineArg::Nwn2 | EngineArg::Prime)) {
        // A layout's rooms are KotOR WOKs; another engine's preset would not fit them.
        return Err(Failure::usage(
            "generate --out-dir writes a KotOR area (one WOK per layout room): --engine kotor or generic only",
        ));
    }
    if out_dir.exists() && !out_dir.is_dir() {
        return Err(Failure::usage(format!(
            "--out-dir {} is not a directory",
            out_dir.display()
        )));
    }
    let target = kotor_room_format(registry)?;
    let plan = plan(registry, args, target, None)?;
    let params = params(args, target, &plan, None)?;
    let source = open_rooms(input)?;
    let (lyt, lyt_file) = room_layout(&source, args.lyt.as_deref())?;
    let show = show_progress(args);
    // The models' reading notes (`mdl.node_count`), printed with the area's findings.
    let read_notes = std::cell::RefCell::new(walkmesh_core::Diagnostics::new());
    let (generated, missing) = crate::progress::with_progress(show, "generating rooms", || {
        let area = Area {
            source: &source,
            lyt: &lyt,
            lyt_file: &lyt_file,
        };
        let from_hooks = args.seed.is_empty();
        let read_model = &|mdl: &[u8], mdx: &[u8], name: &str| {
            let mut diag = read_notes.borrow_mut();
            walkmesh_formats::render_geometry_of_model(mdl, mdx, name, &mut diag)
                .map_err(String::from)
        };
        generate_rooms(
            registry, area, out_dir, &params, from_hooks, note_read, read_model,
        )
    })?;
    if generated.is_empty() {
        return Err(Failure::input(format!(
            "generate: none of the {} layout rooms of {} has a model (ROOM.mdl + ROOM.mdx) in {}",
            lyt.rooms.len(),
            lyt_file.display(),
            input.display()
        )));
    }
    let (files, solution, results) = solve_transitions(generated, &lyt)?;
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", out_dir.display())))?;
    let check = walkmesh_pipeline::check_options(&plan.read);
    write_rooms(registry, files, &check)?;
    let notes = read_notes.into_inner();
    let report = AreaReport::new(&lyt_file, &results, &missing, &notes, &solution);
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&report)?)?;
    } else if !args.quiet {
        for f in &report.findings {
            writeln!(stderr, "{f}")?;
        }
        print_text(&lyt_file, &results, &missing, stdout)?;
    }
    Ok(0)
}

/// What aligning its doorways did to a room, for the text report.
fn doorway_moves(aligned: &walkmesh_generate::doorways::Aligned) -> String {
    if aligned.vertices == 0 {
        String::from("no doorway vertex moved")
    } else {
        format!(
            "{} doorway vertex(es) moved onto the shared line, at most {:.3} m",
            aligned.vertices, aligned.max_move
        )
    }
}

fn print_text(
    lyt_file: &Path,
    results: &[RoomResult],
    missing: &[String],
    stdout: &mut dyn Write,
) -> Result<(), Failure> {
    writeln!(
        stdout,
        "{}: {} room(s) generated",
        lyt_file.display(),
        results.len()
    )?;
    for r in results {
        let leads = if r.leads_to.is_empty() {
            String::from("none")
        } else {
            r.leads_to.join(", ")
        };
        writeln!(
            stdout,
            "  {}: {} faces, walkable {:.2} m², dropped {:.2} m², {} transition edge(s) to {leads}, {} seam point(s) shared, {}; wrote {}",
            printable::escape(&r.room),
            r.faces,
            r.walkable_area,
            r.dropped_area,
            r.transitions,
            r.seam_points,
            doorway_moves(&r.doorway),
            r.file.display()
        )?;
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing
            .iter()
            .map(|n| printable::escape(n).into_owned())
            .collect();
        writeln!(stdout, "rooms without a model: {}", names.join(", "))?;
    }
    Ok(())
}
