//! `walkmesh generate DIR_OR_MODULE --lyt AREA.lyt --out-dir OUT`: a whole KotOR area.
//!
//! Every layout room's WOK is generated from its model (`ROOM.mdl` + `ROOM.mdx` in the folder or
//! the module archive, loaded as `area solve` loads rooms), moved into area coordinates (the LYT
//! position added, as KotOR stores room WOKs), and written to WOK bytes. The bytes are read back
//! and the room transitions are solved across rooms with `area solve`'s solver, then every room
//! is staged and read back by the validator before any is renamed into OUT (as
//! `lint AREA --fix OUTDIR` writes rooms), so a refused room leaves OUT as it was.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use walkmesh_core::{Diagnostics, Registry, confine, printable};
use walkmesh_generate::{Params, Report};
use walkmesh_kotor_area::Lyt;
use walkmesh_kotor_area::kits::read_wok;
use walkmesh_kotor_area::lyt::PLACEHOLDER_ROOM;
use walkmesh_kotor_area::transitions::{
    DEFAULT_TOLERANCE, RoomMesh, Solution, apply, solve, wok_with_transitions,
};

use super::generate::{Args, params, plan};
use crate::Failure;
use crate::commands::area::{RoomSource, open_rooms, room_layout, walkmesh_bwm_write};
use crate::output::note_read;

/// One room of the area report.
#[derive(Serialize, Debug)]
pub struct RoomResult {
    pub room: String,
    /// The WOK written (in OUT).
    pub file: PathBuf,
    pub faces: usize,
    /// Walkable area (m²).
    pub walkable_area: f64,
    /// Floor left out as unreachable or small (m²).
    pub dropped_area: f64,
    /// Perimeter edges of this room that lead into another room.
    pub transitions: usize,
    /// The rooms (by layout name) this room's transitions lead to.
    pub leads_to: Vec<String>,
    pub report: Report,
}

/// What `--json` prints in area mode.
#[derive(Serialize, Debug)]
struct AreaGeneration<'a> {
    layout: &'a Path,
    rooms: &'a [RoomResult],
    /// Layout rooms whose model is not in the input (nothing written for them).
    rooms_without_model: &'a [String],
    findings: Vec<String>,
}

/// A room generated, before the transitions are solved.
struct Generated {
    lyt_index: usize,
    name: String,
    target: PathBuf,
    bytes: Vec<u8>,
    report: Report,
}

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
    if matches!(
        args.engine,
        Some(super::generate::EngineArg::Nwn2 | super::generate::EngineArg::Prime)
    ) {
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
    let target = crate::commands::area::bwm_format(registry)?;
    let plan = plan(registry, args, target)?;
    let params = params(args, target.id(), &plan)?;
    let source = open_rooms(input)?;
    let (lyt, lyt_file) = room_layout(&source, args.lyt.as_deref())?;
    let show = super::generate::show_progress(args);
    let (generated, missing) = crate::progress::with_progress(show, "generating rooms", || {
        generate_rooms(registry, &source, &lyt, &lyt_file, out_dir, args, &params)
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
        .map_err(|e| Failure(format!("cannot create {}: {e}", out_dir.display())))?;
    let check = walkmesh_pipeline::check_options(&plan.read);
    crate::commands::lint::area::write_rooms(registry, files, &check)?;
    let findings: Vec<String> = solution.findings.iter().map(|f| f.to_string()).collect();
    if args.json {
        let json = AreaGeneration {
            layout: &lyt_file,
            rooms: &results,
            rooms_without_model: &missing,
            findings,
        };
        writeln!(stdout, "{}", crate::json::pretty(&json)?)?;
    } else if !args.quiet {
        for f in &findings {
            writeln!(stderr, "{f}")?;
        }
        print_text(&lyt_file, &results, &missing, stdout)?;
    }
    Ok(0)
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
            "  {}: {} faces, walkable {:.2} m², dropped {:.2} m², {} transition edge(s) to {leads}; wrote {}",
            printable::escape(&r.room),
            r.faces,
            r.walkable_area,
            r.dropped_area,
            r.transitions,
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

/// Generates every layout room that has a model; returns the rooms (WOK bytes in area
/// coordinates, no transitions yet) and the names of rooms without a model. Every room's
/// output name is checked before anything is generated.
fn generate_rooms(
    registry: &Registry,
    source: &RoomSource,
    lyt: &Lyt,
    lyt_file: &Path,
    out_dir: &Path,
    args: &Args,
    params: &Params,
) -> Result<(Vec<Generated>, Vec<String>), Failure> {
    let mut targets = Vec::new();
    for (index, room) in lyt.rooms.iter().enumerate() {
        if room.name == PLACEHOLDER_ROOM {
            continue;
        }
        let file_name = format!("{}.wok", room.name);
        let target = confine::join(out_dir, &file_name, "layout room", lyt_file)?;
        targets.push((index, target));
    }
    let mut generated = Vec::new();
    let mut missing = Vec::new();
    for (index, target) in targets {
        let Some(room) = lyt.rooms.get(index) else {
            continue;
        };
        let (Some(mdl), Some(mdx)) = (
            source.get(&format!("{}.mdl", room.name), note_read),
            source.get(&format!("{}.mdx", room.name), note_read),
        ) else {
            missing.push(room.name.clone());
            continue;
        };
        let label = format!("{}.mdl", room.name);
        let model = walkmesh_formats::render_geometry_of_model(&mdl, &mdx, &label)
            .map_err(Failure::input)?;
        walkmesh_core::progress::phase(|| format!("generating room {}", room.name));
        let room_params = room_params(params, lyt, index, args.seed.is_empty());
        let mut made = walkmesh_generate::generate(&model, &room_params)
            .map_err(|e| Failure::input(format!("generate: room {label}: {e}")))?;
        if made.mesh.polygons.is_empty() {
            return Err(Failure::input(format!(
                "generate: room {}: no walkable floor was found, nothing written\n{}",
                printable::escape(&room.name),
                made.report.text()
            )));
        }
        for v in &mut made.mesh.vertices {
            for (c, p) in v.iter_mut().zip(room.position) {
                *c += p;
            }
        }
        let mut notes = Diagnostics::new();
        let bytes = walkmesh_bwm_write(registry, &made.mesh, &mut notes)?;
        generated.push(Generated {
            lyt_index: index,
            name: room.name.clone(),
            target,
            bytes,
            report: made.report,
        });
    }
    Ok((generated, missing))
}

/// The parameters for layout room `index`: seeds given on the command line are in area
/// coordinates and moved into the room's; without them, the room's door hooks are its seeds.
fn room_params(params: &Params, lyt: &Lyt, index: usize, from_hooks: bool) -> Params {
    let mut room_params = params.clone();
    let Some(room) = lyt.rooms.get(index) else {
        return room_params;
    };
    let p = room.position;
    let local = |q: [f32; 3]| [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
    room_params.seeds = if from_hooks {
        lyt.door_hooks
            .iter()
            .filter(|h| h.room.eq_ignore_ascii_case(&room.name))
            .map(|h| local(h.position))
            .collect()
    } else {
        params.seeds.iter().map(|&s| local(s)).collect()
    };
    room_params
}

/// Files to write (target, bytes), the solution, and the per-room results.
type Solved = (Vec<(PathBuf, Vec<u8>)>, Solution, Vec<RoomResult>);

/// Reads every generated WOK back (so edge references are the file's own face order), solves
/// the transitions across rooms and writes them into the bytes.
fn solve_transitions(generated: Vec<Generated>, lyt: &Lyt) -> Result<Solved, Failure> {
    let mut rooms = Vec::with_capacity(generated.len());
    for room in &generated {
        let mesh = read_wok(&room.bytes)
            .map_err(|e| Failure(format!("generated {}.wok: {e}", room.name)))?;
        rooms.push(RoomMesh {
            lyt_index: room.lyt_index,
            name: room.name.clone(),
            mesh,
        });
    }
    let solution = solve(&rooms, lyt.rooms.len(), DEFAULT_TOLERANCE);
    apply(&mut rooms, &solution);
    // The findings shown are those of the area as written (a first solve reports every seam
    // as a missing transition, which `apply` has just written).
    let written = solve(&rooms, lyt.rooms.len(), DEFAULT_TOLERANCE);
    let mut files = Vec::with_capacity(generated.len());
    let mut results = Vec::with_capacity(generated.len());
    for (slot, (made, room)) in generated.into_iter().zip(&rooms).enumerate() {
        let bytes =
            wok_with_transitions(&made.bytes, &room.mesh).map_err(|e| Failure(e.to_string()))?;
        let leads: Vec<i32> = written
            .room_transitions(slot)
            .into_values()
            .filter(|&t| t >= 0)
            .collect();
        let mut leads_to: Vec<String> = leads
            .iter()
            .filter_map(|&t| lyt.rooms.get(t as usize).map(|r| r.name.clone()))
            .collect();
        leads_to.sort();
        leads_to.dedup();
        results.push(RoomResult {
            room: made.name,
            file: made.target.clone(),
            faces: made.report.faces_written,
            walkable_area: made.report.walkable_area,
            dropped_area: made.report.dropped_area,
            transitions: leads.len(),
            leads_to,
            report: made.report,
        });
        files.push((made.target, bytes));
    }
    Ok((files, written, results))
}
