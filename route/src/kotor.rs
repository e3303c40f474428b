//! KotOR's own answer (`--method engine` on BWM rooms and areas): walkable faces joined by the
//! room file's own adjacency table when the mesh is still that file (else by shared vertex
//! indices, which is what a correct table stores; an area's assembled rooms use these),
//! and rooms of an area joined only across transition edges, as the engine crosses rooms: an
//! edge tagged with transition `t` in room `r` links to an edge of LYT room `t` tagged `r`
//! lying on it (both ends within the area tolerance, either direction). A transition whose
//! neighbour room has no such edge back is reported, never linked.
//!
//! The area is the mesh `walkmesh_kotor_area::assemble::assemble` builds (rooms concatenated,
//! the `area:room` column naming each face's LYT room). The search, funnel and heights are
//! those of [`crate::surface`] over these links.

use std::collections::BTreeMap;

use walkmesh_core::passes::adjacency::{Adjacency, NO_NEIGHBOUR, edge_adjacency};
use walkmesh_core::{Attribute, Extra, NavMesh};
use walkmesh_kotor_area::DEFAULT_TOLERANCE;
use walkmesh_kotor_area::assemble::{ROOM_COLUMN, ROOM_NAMES};

use crate::report::FaceRef;

/// What was noticed while linking an area, and how its faces are named.
#[derive(Debug)]
pub struct AreaLinks {
    /// Transitions without a matching edge back, transitions to rooms the layout lacks.
    pub warnings: Vec<String>,
    /// Room of every face (LYT index; −1 when the mesh has no room column).
    pub room_of_face: Vec<i64>,
    /// Index of every face within its room's walkmesh.
    pub face_in_room: Vec<u32>,
    pub room_names: Vec<String>,
}

impl AreaLinks {
    /// How the reports name `face`: `{"room", "face"}` in an area, the plain index otherwise.
    pub fn face_ref(&self, face: u32) -> FaceRef {
        let room = self.room_of_face.get(face as usize).copied().unwrap_or(-1);
        match usize::try_from(room)
            .ok()
            .and_then(|r| self.room_names.get(r))
        {
            Some(name) => FaceRef::Room {
                room: name.clone(),
                face: self
                    .face_in_room
                    .get(face as usize)
                    .copied()
                    .unwrap_or(face),
            },
            None => FaceRef::Index(face),
        }
    }
}

/// A transition edge of a walkable face.
#[derive(Clone, Copy, Debug)]
struct TaggedEdge {
    half_edge: usize,
    face: u32,
    edge: u32,
    start: [f32; 3],
    end: [f32; 3],
}

/// The adjacency table the room file itself stores, when `mesh` is still that BWM file (its
/// bytes are kept and nothing was changed since reading): the engine walks what the table
/// says, also where it disagrees with the shared vertices. With the number of half-edges on
/// which the table and the shared vertices disagree (a stale table).
#[cfg(not(feature = "bwm"))]
fn stored_adjacency(_mesh: &NavMesh, _geometric: &Adjacency) -> Option<(Adjacency, usize)> {
    // No BWM reader in this build: a room's links are its shared vertices.
    None
}

#[cfg(feature = "bwm")]
fn stored_adjacency(mesh: &NavMesh, geometric: &Adjacency) -> Option<(Adjacency, usize)> {
    let bytes = mesh.fresh_provenance("bwm")?.section("file")?;
    let raw = walkmesh_bwm::layout::RawBwm::parse(bytes).ok()?;
    if raw.face_count() != mesh.polygons.len() || !mesh.polygons.all_triangles() {
        return None;
    }
    let rows = raw.span(walkmesh_bwm::layout::Table::Adjacency).count;
    let mut stored = geometric.clone();
    stored.neighbour.fill(NO_NEIGHBOUR);
    for face in 0..rows.min(mesh.polygons.len()) {
        for (edge, &value) in raw.adjacency(face).iter().enumerate() {
            // 3·face + edge of the face across, −1 for none; rows past the walkable block
            // or pointing outside it link nothing (the validator reports them).
            let Ok(across) = usize::try_from(value) else {
                continue;
            };
            if across / 3 < rows
                && mesh.is_walkable(face)
                && mesh.is_walkable(across / 3)
                && let Some(slot) = stored.neighbour.get_mut(3 * face + edge)
            {
                *slot = across as u32;
            }
        }
    }
    let disagree = stored
        .neighbour
        .iter()
        .zip(&geometric.neighbour)
        .filter(|(s, g)| {
            let linked = |x: u32| (x as usize) < stored.neighbour.len();
            linked(**s) != linked(**g) || (linked(**s) && s != g)
        })
        .count();
    Some((stored, disagree))
}

/// Adjacency within rooms plus the matched transitions between them, and the area's names.
pub fn area_links(mesh: &NavMesh) -> (Adjacency, AreaLinks) {
    let mut adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let mut warnings = Vec::new();
    if let Some((stored, disagree)) = stored_adjacency(mesh, &adjacency) {
        if disagree > 0 {
            warnings.push(format!(
                "the file's adjacency table and its shared vertices disagree on {disagree} \
                 face edges (a stale table): the route follows the table, as the game does"
            ));
        }
        adjacency = stored;
    }
    let room_of_face: Vec<i64> = match mesh.face_attributes.get(ROOM_COLUMN) {
        Some(Attribute::Int(rooms)) if rooms.len() == mesh.polygons.len() => rooms.clone(),
        _ => vec![-1; mesh.polygons.len()],
    };
    let room_names = match mesh.extras.get(ROOM_NAMES) {
        Some(Extra::TextList(names)) => names.clone(),
        _ => Vec::new(),
    };
    let mut counts: BTreeMap<i64, u32> = BTreeMap::new();
    let face_in_room: Vec<u32> = room_of_face
        .iter()
        .map(|&room| {
            let count = counts.entry(room).or_insert(0);
            *count += 1;
            *count - 1
        })
        .collect();
    // (room, room across) → its tagged edges, in face order.
    let mut groups: BTreeMap<(i64, i64), Vec<TaggedEdge>> = BTreeMap::new();
    for (edge_ref, tag) in &mesh.edge_tags {
        let face = edge_ref.polygon as usize;
        if tag.transition < 0 || !mesh.is_walkable(face) {
            continue;
        }
        let corners = mesh.polygons.get(face);
        let n = corners.len();
        let (Some(&a), Some(&b)) = (
            corners.get(edge_ref.edge as usize),
            corners.get((edge_ref.edge as usize + 1) % n.max(1)),
        ) else {
            continue;
        };
        let room = room_of_face.get(face).copied().unwrap_or(-1);
        groups
            .entry((room, i64::from(tag.transition)))
            .or_default()
            .push(TaggedEdge {
                half_edge: mesh.polygons.first_index(face) + edge_ref.edge as usize,
                face: edge_ref.polygon,
                edge: edge_ref.edge,
                start: mesh.vertex(a),
                end: mesh.vertex(b),
            });
    }
    let name = |room: i64| {
        usize::try_from(room)
            .ok()
            .and_then(|r| room_names.get(r).cloned())
            .unwrap_or_else(|| format!("#{room}"))
    };
    for (&(room, across), edges) in &groups {
        if room < 0 {
            // A single room: transitions lead out of this file.
            continue;
        }
        let back = groups.get(&(across, room)).map_or(&[][..], Vec::as_slice);
        for edge in edges {
            match partner(edge, back) {
                Some(other) => link(&mut adjacency, edge.half_edge, other.half_edge),
                None => warnings.push(format!(
                    "room {} face {} edge {}: transition to room {} has no matching edge back{}",
                    name(room),
                    face_in_room
                        .get(edge.face as usize)
                        .copied()
                        .unwrap_or(edge.face),
                    edge.edge,
                    name(across),
                    if usize::try_from(across).is_ok_and(|a| a < room_names.len()) {
                        ""
                    } else {
                        " (the layout has no such room)"
                    }
                )),
            }
        }
    }
    (
        adjacency,
        AreaLinks {
            warnings,
            room_of_face,
            face_in_room,
            room_names,
        },
    )
}

/// The edge of `candidates` lying on `edge` (ends within the tolerance, either direction):
/// the one with the smallest larger end distance, the first on ties.
fn partner<'a>(edge: &TaggedEdge, candidates: &'a [TaggedEdge]) -> Option<&'a TaggedEdge> {
    let mut best: Option<(f32, &TaggedEdge)> = None;
    for other in candidates {
        let reversed = gap(edge.start, other.end).max(gap(edge.end, other.start));
        let same = gap(edge.start, other.start).max(gap(edge.end, other.end));
        let worst = reversed.min(same);
        if worst.is_finite() && best.is_none_or(|(b, _)| worst < b) {
            best = Some((worst, other));
        }
    }
    best.map(|(_, other)| other)
}

/// Distance in tolerance units: infinite when outside the plan or height tolerance.
fn gap(p: [f32; 3], q: [f32; 3]) -> f32 {
    let plan = (p[0] - q[0]).hypot(p[1] - q[1]);
    let height = (p[2] - q[2]).abs();
    if plan <= DEFAULT_TOLERANCE.horizontal && height <= DEFAULT_TOLERANCE.vertical {
        plan
    } else {
        f32::INFINITY
    }
}

/// Links two half-edges that nothing links yet.
fn link(adjacency: &mut Adjacency, a: usize, b: usize) {
    let free = |h: usize| adjacency.neighbour.get(h) == Some(&NO_NEIGHBOUR);
    if !(free(a) && free(b)) {
        return;
    }
    if let Some(slot) = adjacency.neighbour.get_mut(a) {
        *slot = b as u32;
    }
    if let Some(slot) = adjacency.neighbour.get_mut(b) {
        *slot = a as u32;
    }
}
