//! A whole KotOR area (`walkmesh generate DIR_OR_MODULE --lyt AREA.lyt --out-dir OUT`).
//!
//! Every layout room's WOK is generated from its model (`ROOM.mdl` + `ROOM.mdx` in the folder or
//! the module archive, found through `walkmesh_kotor_area::RoomSource` as `area solve` finds
//! rooms), moved into area coordinates (the LYT position added, as KotOR stores room WOKs), and
//! written to WOK bytes ([`generate_rooms`]). The bytes are read back and the room transitions
//! are solved across rooms with `area solve`'s solver ([`solve_transitions`]). Writing the
//! files (staged and read back before any is renamed) is the caller's.
//!
//! Behind the cargo feature `kotor-area`. The model reader is passed in (the MDL reader lives
//! in a format crate, which this crate does not reach into).

use std::path::{Path, PathBuf};

use serde::Serialize;
use walkmesh_core::{Diagnostics, NavMesh, Registry, confine, printable};
use walkmesh_kotor_area::kits::read_wok;
use walkmesh_kotor_area::lyt::PLACEHOLDER_ROOM;
use walkmesh_kotor_area::rooms::{OnRead, RoomsError, write_room_wok};
use walkmesh_kotor_area::transitions::{
    DEFAULT_TOLERANCE, RoomMesh, Solution, apply, solve, wok_with_transitions,
};
use walkmesh_kotor_area::{Lyt, RoomSource};

use crate::{Params, Report};

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

/// A room generated, before the transitions are solved.
#[derive(Debug)]
pub struct GeneratedRoom {
    pub lyt_index: usize,
    pub name: String,
    /// Where its WOK goes (in the output folder).
    pub target: PathBuf,
    /// WOK bytes in area coordinates, no transitions yet.
    pub bytes: Vec<u8>,
    pub report: Report,
}

/// The area to generate: where the room models are and the layout placing them.
#[derive(Debug, Clone, Copy)]
pub struct Area<'a> {
    pub source: &'a RoomSource,
    pub lyt: &'a Lyt,
    /// The layout's file (named in messages and in the report).
    pub lyt_file: &'a Path,
}

/// Reads a model (`.mdl` bytes, `.mdx` bytes, the label for messages) as render geometry.
pub type ModelReader<'a> = &'a dyn Fn(&[u8], &[u8], &str) -> Result<NavMesh, String>;

/// Why an area could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum AreaError {
    /// A layout room's name would leave the output folder.
    #[error(transparent)]
    UnsafeName(#[from] confine::UnsafeName),
    /// A room's model did not read.
    #[error("{0}")]
    Model(String),
    /// The generator refused a room (`label`: its model file).
    #[error("generate: room {label}: {error}")]
    Generate {
        label: String,
        error: crate::GenerateError,
    },
    /// A room had no walkable floor; `report` is the generation report's text.
    #[error(
        "generate: room {}: no walkable floor was found, nothing written\n{report}",
        printable::escape(room)
    )]
    NoFloor { room: String, report: String },
    /// A room's WOK could not be written.
    #[error(transparent)]
    Write(#[from] RoomsError),
    /// A generated WOK did not read back, or its transitions could not be written.
    #[error("{0}")]
    Transitions(String),
}

/// Generates every layout room that has a model; returns the rooms (WOK bytes in area
/// coordinates, no transitions yet) and the names of rooms without a model. Every room's
/// output name is checked before anything is generated. `from_hooks`: the rooms' door hooks
/// are their seeds (no seeds were given in `params`).
pub fn generate_rooms(
    registry: &Registry,
    area: Area<'_>,
    out_dir: &Path,
    params: &Params,
    from_hooks: bool,
    note_read: OnRead,
    read_model: ModelReader<'_>,
) -> Result<(Vec<GeneratedRoom>, Vec<String>), AreaError> {
    let Area {
        source,
        lyt,
        lyt_file,
    } = area;
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
        let model = read_model(&mdl, &mdx, &label).map_err(AreaError::Model)?;
        walkmesh_core::progress::phase(|| format!("generating room {}", room.name));
        let room_params = room_params(params, lyt, index, from_hooks);
        let mut made =
            crate::generate(&model, &room_params).map_err(|error| AreaError::Generate {
                label: label.clone(),
                error,
            })?;
        if made.mesh.polygons.is_empty() {
            return Err(AreaError::NoFloor {
                room: room.name.clone(),
                report: made.report.text(),
            });
        }
        for v in &mut made.mesh.vertices {
            for (c, p) in v.iter_mut().zip(room.position) {
                *c += p;
            }
        }
        let mut notes = Diagnostics::new();
        let bytes = write_room_wok(registry, &made.mesh, &mut notes)?;
        generated.push(GeneratedRoom {
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
pub fn room_params(params: &Params, lyt: &Lyt, index: usize, from_hooks: bool) -> Params {
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

/// The room's position in the layout and its door hooks in room coordinates.
pub type RoomPlacement = ([f32; 3], Vec<[f32; 3]>);

/// Where `lyt` places the room `name` (matched case-insensitively), with its door hooks in
/// room coordinates (`generate --lyt` for one room); `None` when the layout has no such room.
pub fn room_placement(lyt: &Lyt, name: &str) -> Option<RoomPlacement> {
    let room = lyt
        .rooms
        .iter()
        .find(|r| r.name.eq_ignore_ascii_case(name))?;
    let p = room.position;
    let hooks = lyt
        .door_hooks
        .iter()
        .filter(|h| h.room.eq_ignore_ascii_case(&room.name))
        .map(|h| {
            [
                h.position[0] - p[0],
                h.position[1] - p[1],
                h.position[2] - p[2],
            ]
        })
        .collect();
    Some((p, hooks))
}

/// Files to write (target, bytes), the solution, and the per-room results.
pub type Solved = (Vec<(PathBuf, Vec<u8>)>, Solution, Vec<RoomResult>);

/// Reads every generated WOK back (so edge references are the file's own face order), solves
/// the transitions across rooms and writes them into the bytes.
pub fn solve_transitions(generated: Vec<GeneratedRoom>, lyt: &Lyt) -> Result<Solved, AreaError> {
    let mut rooms = Vec::with_capacity(generated.len());
    for room in &generated {
        let mesh = read_wok(&room.bytes)
            .map_err(|e| AreaError::Transitions(format!("generated {}.wok: {e}", room.name)))?;
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
        let bytes = wok_with_transitions(&made.bytes, &room.mesh)
            .map_err(|e| AreaError::Transitions(e.to_string()))?;
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
