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

use crate::ModelReadError;
use walkmesh_kotor_area::lyt::{PLACEHOLDER_ROOM, Placement};
use walkmesh_kotor_area::placed::{FarRoom, RepeatedRoom, check_placed, place, unique_rooms};
use walkmesh_kotor_area::rooms::{OnRead, RoomsError, write_room_wok};
use walkmesh_kotor_area::transitions::{
    DEFAULT_TOLERANCE, RoomMesh, Solution, apply, solve, wok_with_transitions,
};
use walkmesh_kotor_area::{Lyt, RoomSource};

use crate::doorways::{Aligned, Facing, align_facing_edges};
use crate::seams::{Tolerance, share_seam_points};
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
    /// Vertices added on its open boundary edges where other rooms' seam vertices lie (so
    /// both sides of a doorway are cut at the same points).
    pub seam_points: usize,
    /// Its doorway vertices moved onto a line shared with the room it faces
    /// ([`crate::doorways`]): how many and the largest move.
    pub doorway: Aligned,
    pub report: Report,
}

/// What `walkmesh generate --out-dir --json` prints and `walkmesh.area.generate` returns.
#[derive(Serialize, Debug)]
pub struct AreaReport<'a> {
    pub layout: &'a Path,
    pub rooms: &'a [RoomResult],
    /// Layout rooms whose model is not in the input (nothing written for them).
    pub rooms_without_model: &'a [String],
    /// The models' reading notes, then the transition solver's findings.
    pub findings: Vec<String>,
}

impl<'a> AreaReport<'a> {
    pub fn new(
        layout: &'a Path,
        rooms: &'a [RoomResult],
        rooms_without_model: &'a [String],
        read_notes: &Diagnostics,
        solution: &Solution,
    ) -> AreaReport<'a> {
        let findings = read_notes
            .items
            .iter()
            .chain(&room_findings(rooms).items)
            .map(|d| d.to_string())
            .chain(solution.findings.iter().map(|f| f.to_string()))
            .collect();
        AreaReport {
            layout,
            rooms,
            rooms_without_model,
            findings,
        }
    }
}

/// Every room's lossy steps as warnings (floor left out, seeds on no floor, passages the cells
/// do not resolve: what `walkmesh generate` says of one room), and a note with the code
/// `generate.doorway_aligned` for each room whose doorway vertices were moved onto the line
/// it shares with another room; each names the room's model.
pub fn room_findings(rooms: &[RoomResult]) -> Diagnostics {
    let mut all = Diagnostics::new();
    for room in rooms {
        let mut diag = Diagnostics::new();
        room.report.warn_lossy_steps(&mut diag);
        if room.doorway.vertices > 0 {
            diag.push(
                walkmesh_core::Severity::Info,
                DOORWAY_ALIGNED,
                walkmesh_core::Position::None,
                None,
                format!(
                    "{} doorway vertex(es) moved onto the line shared with the room it faces, at most {:.3} m",
                    room.doorway.vertices, room.doorway.max_move
                ),
            );
        }
        diag.set_file(Path::new(&format!("{}.mdl", room.room)));
        all.extend(diag);
    }
    all
}

/// The code of the note that a room's doorway vertices were moved ([`room_findings`]).
pub const DOORWAY_ALIGNED: &str = "generate.doorway_aligned";

/// A room generated, before the transitions are solved.
#[derive(Debug)]
pub struct GeneratedRoom {
    pub lyt_index: usize,
    pub name: String,
    /// Where its WOK goes (in the output folder).
    pub target: PathBuf,
    /// WOK bytes in area coordinates, no transitions yet.
    pub bytes: Vec<u8>,
    /// Vertices added on its open boundary edges where other rooms' seam vertices lie.
    pub seam_points: usize,
    /// Its doorway vertices moved onto a line shared with the room it faces.
    pub doorway: Aligned,
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
pub type ModelReader<'a> = &'a dyn Fn(&[u8], &[u8], &str) -> Result<NavMesh, ModelReadError>;

/// Why an area could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum AreaError {
    /// A layout room's name would leave the output folder.
    #[error(transparent)]
    UnsafeName(#[from] confine::UnsafeName),
    /// A room's model did not read (the reader's own error).
    #[error("{0}")]
    Model(ModelReadError),
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
    /// The layout names one room twice (ignoring ASCII case): both would be one `ROOM.wok`.
    #[error(transparent)]
    Repeated(Box<RepeatedRoom>),
    /// A room placed where 32-bit floats cannot hold its points 1 mm apart.
    #[error(transparent)]
    Far(Box<FarRoom>),
    /// A room's WOK could not be written.
    #[error(transparent)]
    Write(#[from] RoomsError),
    /// A generated WOK did not read back.
    #[error("generated {room}.wok: {source}")]
    ReadBack {
        room: String,
        source: walkmesh_kotor_area::AreaError,
    },
    /// A generated WOK's transitions could not be written.
    #[error(transparent)]
    Transitions(walkmesh_kotor_area::AreaError),
}

impl From<RepeatedRoom> for AreaError {
    fn from(error: RepeatedRoom) -> Self {
        AreaError::Repeated(Box::new(error))
    }
}

impl From<FarRoom> for AreaError {
    fn from(error: FarRoom) -> Self {
        AreaError::Far(Box::new(error))
    }
}

/// A room's render geometry in room coordinates, and the name its errors are reported under
/// (`ROOM.mdl` for a model file).
#[derive(Debug)]
pub struct RoomModel {
    pub geometry: NavMesh,
    pub label: String,
}

/// The render geometry of layout room (index, placement): `None` when the room has none.
pub type RoomModels<'a> = &'a dyn Fn(usize, &Placement) -> Option<Result<RoomModel, AreaError>>;

/// Generates every layout room that has a model; returns the rooms (WOK bytes in area
/// coordinates, no transitions yet) and the names of rooms without a model. The models are
/// `ROOM.mdl` + `ROOM.mdx` of `area.source`, read by `read_model`; see
/// [`generate_room_models`] for the rest.
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
    let model_of = |_: usize, room: &Placement| {
        let mdl = source.get(&format!("{}.mdl", room.name), note_read)?;
        let mdx = source.get(&format!("{}.mdx", room.name), note_read)?;
        let label = format!("{}.mdl", room.name);
        Some(
            read_model(&mdl, &mdx, &label)
                .map(|geometry| RoomModel { geometry, label })
                .map_err(AreaError::Model),
        )
    };
    generate_room_models(
        registry, lyt, lyt_file, out_dir, params, from_hooks, &model_of,
    )
}

/// Generates every layout room `models` gives geometry for (in room coordinates, as a KotOR
/// room model is); returns the rooms (WOK bytes in area coordinates, no transitions yet) and
/// the names of rooms without a model. Every room's output name and position is checked before
/// anything is generated: a layout naming one room twice (ignoring ASCII case) and a position
/// 32-bit floats cannot hold to 1 mm are refused (`walkmesh_kotor_area::placed`), and so is a
/// room whose generated points, once placed, would lie beyond that. `from_hooks`: the rooms'
/// door hooks are their seeds (no seeds were given in `params`). `lyt_file` names the layout
/// in messages.
pub fn generate_room_models(
    registry: &Registry,
    lyt: &Lyt,
    lyt_file: &Path,
    out_dir: &Path,
    params: &Params,
    from_hooks: bool,
    models: RoomModels<'_>,
) -> Result<(Vec<GeneratedRoom>, Vec<String>), AreaError> {
    unique_rooms(lyt, lyt_file)?;
    let mut targets = Vec::new();
    for (index, room) in lyt.rooms.iter().enumerate() {
        if room.name == PLACEHOLDER_ROOM {
            continue;
        }
        check_placed(room, [], lyt_file)?;
        let file_name = format!("{}.wok", room.name);
        let target = confine::join(out_dir, &file_name, "layout room", lyt_file)?;
        targets.push((index, target));
    }
    let mut made_rooms = Vec::new();
    let mut missing = Vec::new();
    for (index, target) in targets {
        let Some(room) = lyt.rooms.get(index) else {
            continue;
        };
        let Some(model) = models(index, room) else {
            missing.push(room.name.clone());
            continue;
        };
        let RoomModel { geometry, label } = model?;
        walkmesh_core::progress::phase(|| format!("generating room {}", room.name));
        let room_params = room_params(params, lyt, index, from_hooks);
        let mut made = crate::generate(&geometry, &room_params)
            .map_err(|error| AreaError::Generate { label, error })?;
        if made.mesh.polygons.is_empty() {
            return Err(AreaError::NoFloor {
                room: room.name.clone(),
                report: made.report.text(),
            });
        }
        place(room, &mut made.mesh.vertices, lyt_file)?;
        made_rooms.push((index, room.name.clone(), target, made));
    }
    // Facing doorway edges are brought onto one line (doorways.rs), then the rooms' doorway
    // seams share their vertices (seams.rs), before any WOK is written.
    let mut meshes: Vec<NavMesh> = made_rooms
        .iter_mut()
        .map(|(_, _, _, made)| std::mem::take(&mut made.mesh))
        .collect();
    let aligned = align_facing_edges(&mut meshes, doorway_facing(params));
    let seam_points = share_seam_points(&mut meshes, seam_tolerance());
    let mut generated = Vec::with_capacity(made_rooms.len());
    for ((((index, name, target, made), mesh), seam_points), doorway) in made_rooms
        .into_iter()
        .zip(&meshes)
        .zip(seam_points)
        .zip(aligned)
    {
        let mut notes = Diagnostics::new();
        let bytes = write_room_wok(registry, mesh, &mut notes)?;
        generated.push(GeneratedRoom {
            lyt_index: index,
            name,
            target,
            bytes,
            seam_points,
            doorway,
            report: made.report,
        });
    }
    Ok((generated, missing))
}

/// When two rooms' open floor edges face each other across a doorway: within two cells across
/// (each floor's voxel contour may end a cell short of or past the modeller's line), heights
/// within the agent's climb, overlapping along at least two cells.
pub fn doorway_facing(params: &Params) -> Facing {
    let cell = f64::from(params.cell_size);
    Facing {
        across: 2.0 * cell,
        up: f64::from(params.max_climb),
        min_overlap: 2.0 * cell,
    }
}

/// The transition solver's tolerance, for the seam points.
fn seam_tolerance() -> Tolerance {
    Tolerance {
        across: f64::from(DEFAULT_TOLERANCE.horizontal),
        up: f64::from(DEFAULT_TOLERANCE.vertical),
    }
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

/// The room as the layout places it (name, position, line) and its door hooks in room
/// coordinates.
pub type RoomPlacement = (Placement, Vec<[f32; 3]>);

/// Why `generate --lyt` cannot place its one room.
#[derive(Debug, thiserror::Error)]
pub enum PlacementError {
    /// The layout names the room twice: which place it takes is not known.
    #[error(transparent)]
    Repeated(Box<RepeatedRoom>),
    /// Its position is one 32-bit floats cannot hold to 1 mm.
    #[error(transparent)]
    Far(Box<FarRoom>),
}

impl From<FarRoom> for PlacementError {
    fn from(error: FarRoom) -> Self {
        PlacementError::Far(Box::new(error))
    }
}

/// Where `lyt` (read from `lyt_file`) places the room `name` (matched case-insensitively),
/// with its door hooks in room coordinates (`generate --lyt` for one room); `Ok(None)` when
/// the layout has no such room. A layout placing the room twice, or at a position 32-bit
/// floats cannot hold to 1 mm (`walkmesh_kotor_area::placed`), is refused: the room's points
/// are placed with `walkmesh_kotor_area::placed::place` once generated.
pub fn room_placement(
    lyt: &Lyt,
    name: &str,
    lyt_file: &Path,
) -> Result<Option<RoomPlacement>, PlacementError> {
    let mut named = lyt
        .rooms
        .iter()
        .enumerate()
        .filter(|(_, r)| r.name.eq_ignore_ascii_case(name));
    let Some((first, room)) = named.next() else {
        return Ok(None);
    };
    if let Some((second, again)) = named.next() {
        return Err(PlacementError::Repeated(Box::new(RepeatedRoom {
            file: lyt_file.to_path_buf(),
            first: (first, room.name.clone(), room.line),
            second: (second, again.name.clone(), again.line),
        })));
    }
    check_placed(room, [], lyt_file)?;
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
    Ok(Some((room.clone(), hooks)))
}

/// Files to write (target, bytes), the solution, and the per-room results.
pub type Solved = (Vec<(PathBuf, Vec<u8>)>, Solution, Vec<RoomResult>);

/// Reads every generated WOK back (so edge references are the file's own face order), solves
/// the transitions across rooms and writes them into the bytes.
pub fn solve_transitions(generated: Vec<GeneratedRoom>, lyt: &Lyt) -> Result<Solved, AreaError> {
    let mut rooms = Vec::with_capacity(generated.len());
    for room in &generated {
        let mesh = read_wok(&room.bytes).map_err(|source| AreaError::ReadBack {
            room: room.name.clone(),
            source,
        })?;
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
            wok_with_transitions(&made.bytes, &room.mesh).map_err(AreaError::Transitions)?;
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
            seam_points: made.seam_points,
            doorway: made.doorway,
            report: made.report,
        });
        files.push((made.target, bytes));
    }
    Ok((files, written, results))
}

impl walkmesh_core::Kinded for AreaError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            AreaError::UnsafeName(error) => error.kind(),
            AreaError::Model(error) => error.kind(),
            AreaError::Generate { error, .. } => error.kind(),
            AreaError::NoFloor { .. } | AreaError::Repeated(_) | AreaError::Far(_) => {
                ErrorKind::Invalid
            }
            AreaError::Write(error) => error.kind(),
            AreaError::ReadBack { source, .. } | AreaError::Transitions(source) => source.kind(),
        }
    }
}

impl walkmesh_core::Kinded for PlacementError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Invalid
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use walkmesh_core::material::{Material, Surface};

    const STONE: Surface = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };

    /// A walkable floor at height 0 from the outline `ring` (counter-clockwise), fanned from
    /// its first corner.
    fn floor(ring: &[[f32; 2]]) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: ring.iter().map(|&[x, y]| [x, y, 0.0]).collect(),
            ..NavMesh::default()
        };
        for k in 1..ring.len() - 1 {
            mesh.push_polygon(&[0, k as u32, k as u32 + 1], STONE);
        }
        mesh
    }

    /// Per room: the total length (m) of its perimeter edges the solver links to the other
    /// room; and the codes of the solver's findings (but the missing transitions).
    fn linked_length(meshes: &[NavMesh]) -> (Vec<f64>, Vec<String>) {
        let rooms: Vec<RoomMesh> = meshes
            .iter()
            .enumerate()
            .map(|(i, mesh)| RoomMesh {
                lyt_index: i,
                name: format!("room{i}"),
                mesh: mesh.clone(),
            })
            .collect();
        let solution = solve(&rooms, rooms.len(), DEFAULT_TOLERANCE);
        let lengths = (0..rooms.len())
            .map(|slot| {
                let mesh = &rooms[slot].mesh;
                solution
                    .room_transitions(slot)
                    .into_iter()
                    .filter(|&(_, to)| to >= 0 && to as usize != slot)
                    .map(|(e, _)| {
                        let c = mesh.polygons.get(e.polygon as usize);
                        let a = mesh.vertex(c[e.edge as usize]);
                        let b = mesh.vertex(c[(e.edge as usize + 1) % 3]);
                        f64::from((b[0] - a[0]).hypot(b[1] - a[1]))
                    })
                    .sum()
            })
            .collect();
        // Nothing is stored in these meshes yet: every solved seam is "missing".
        let codes = solution
            .findings
            .iter()
            .map(|f| f.code.clone())
            .filter(|c| c != "area.transition_missing")
            .collect();
        (lengths, codes)
    }

    #[test]
    fn rooms_cut_differently_along_a_doorway_are_linked_exactly_both_ways_after_sharing_seam_points()
     {
        let cases = [
            // A 10 m wide room opening fully onto a 6 m wide room centred on it.
            (
                floor(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]),
                floor(&[[10.0, 2.0], [16.0, 2.0], [16.0, 8.0], [10.0, 8.0]]),
                [10.0, 6.0],
            ),
            // Both 6 m wide, the second with an extra vertex on the seam at y = 3.
            (
                floor(&[[0.0, 0.0], [6.0, 0.0], [6.0, 6.0], [0.0, 6.0]]),
                floor(&[[6.0, 0.0], [12.0, 0.0], [12.0, 6.0], [6.0, 6.0], [6.0, 3.0]]),
                [6.0, 6.0],
            ),
        ];
        for (a, b, linked_before) in cases {
            let mut meshes = vec![a, b];
            // As generated, no seam edges coincide: the solver links them only as partial
            // overlaps (warned; the wide room's whole 10 m edge would lead into the 6 m room).
            let (linked, codes) = linked_length(&meshes);
            assert_eq!(linked, linked_before);
            assert!(
                codes.iter().any(|c| c == "area.edge_partial_overlap"),
                "{codes:?}"
            );
            let added = share_seam_points(&mut meshes, seam_tolerance());
            assert!(added.iter().sum::<usize>() > 0, "{added:?}");
            // Linked both ways by coinciding edges, over exactly the 6 m the rooms share.
            let (linked, codes) = linked_length(&meshes);
            assert!(linked.iter().all(|l| (l - 6.0).abs() < 1e-4), "{linked:?}");
            assert_eq!(codes, Vec::<String>::new());
        }
    }
}
