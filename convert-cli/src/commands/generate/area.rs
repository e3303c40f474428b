//! `walkmesh generate DIR_OR_MODULE --lyt AREA.lyt --out-dir OUT`: a whole KotOR area.
//!
//! The flow is the library's (`walkmesh_pipeline::area_generate`, which Python's
//! `walkmesh.area.generate` runs too: rooms generated, transitions solved, every room staged
//! and read back by the validator before any is renamed into OUT); this checks the options
//! and prints.

use std::io::Write;
use std::path::Path;

use walkmesh_core::{Diagnostics, Registry, printable};
use walkmesh_generate::area::RoomResult;
use walkmesh_pipeline::area_generate::{AreaFlowError, AreaJob, generate_area};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::note_read;

use super::{Args, EngineArg, params, plan, show_progress};
use walkmesh_pipeline::area_files::kotor_room_format;

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
    let check = walkmesh_pipeline::check_options(&plan.read);
    let job = AreaJob {
        models: input,
        lyt: args.lyt.as_deref(),
        lyt_option: "--lyt",
        out_dir,
        params: &params,
        room_format: target,
        check: &check,
        names: walkmesh_pipeline::policy::CLI_NAMES,
    };
    let read_model = |mdl: &[u8], mdx: &[u8], name: &str, notes: &mut Diagnostics| {
        walkmesh_formats::render_geometry_of_model(registry, mdl, mdx, name, notes)
            .map_err(|e| Box::new(e) as walkmesh_generate::ModelReadError)
    };
    let area = crate::progress::with_progress(show_progress(args), "generating rooms", || {
        generate_area(registry, &job, &read_model, note_read)
    })
    .map_err(AreaFlowError::into_failure)?;
    let report = area.report();
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&report)?)?;
    } else if !args.quiet {
        for f in &report.findings {
            writeln!(stderr, "{f}")?;
        }
        print_text(&area.layout_file, &area.results, &area.missing, stdout)?;
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
