//! Room-to-room transitions solved from geometry.
//!
//! A walkable perimeter edge of room A (an edge of a walkable face with no walkable face across
//! it, the edges a WOK's edge table lists) that coincides with a walkable perimeter edge of room
//! B — each endpoint within the tolerance of the other edge's opposite endpoint —
//! gets B's LYT index, and B's edge gets A's. Every other perimeter edge gets −1.
//!
//! Matching is linear in the number of perimeter edges: each edge's start point goes into a
//! hash grid of cell size 2·tolerance, and an edge looks for partners in the at most 8 cells
//! around each of its endpoints; never room against room.
//!
//! Coinciding edges must run in opposite directions, as the boundaries of two rooms on either
//! side of a seam do; coinciding edges running the same way are reported
//! (`area.edges_same_direction`: the rooms overlap) and not linked.
//!
//! Findings (stable codes): `area.transition_missing` (edges meet, neither names the other),
//! `area.transition_one_sided` (only one side names the other), `area.transition_conflict`
//! (an edge names a room other than the one it meets), `area.transition_stale` (an edge names a
//! room but meets nothing), `area.transition_out_of_range` (not an index of the layout),
//! `area.edge_several_partners`, `area.edge_partial_overlap` (perimeter edges of two rooms lie
//! on one line and overlap without sharing endpoints; when they share at least half of the
//! shorter edge they are linked anyway, since the engine only needs each crossing edge to name
//! the room beyond, otherwise not),
//! `area.room_isolated` (a walkable room no transition reaches) and `area.rooms_disconnected`.

use std::collections::{BTreeMap, HashMap};

use walkmesh_core::passes::edge_adjacency;
use walkmesh_core::{Diagnostic, EdgeRef, EdgeTag, Location, NavMesh, Position, Severity};

/// How close two edge endpoints must be to coincide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// In the XY plane, in area units (metres). Default 0.05: game rooms meet exactly; kit
    /// rooms placed door to door by their hooks meet only to within the kits' own accuracy, and
    /// in the six public kits a hook lies up to 0.026 off its door edge (dantooineestate's
    /// hall_1, hook 28); 0.05 also accepts seams snapped by hand in Blender while staying far
    /// below any real edge length (a door is about 2–4 m wide).
    pub horizontal: f32,
    /// Along Z. Default 0.1: kit components disagree in height at their doors by up to 0.046
    /// (hiddenbek's hallway door edges lie at z 0 and its elevator's at 0.046), which a creature
    /// steps over, while the floors of a multi-storey area are metres apart.
    pub vertical: f32,
}

impl Default for Tolerance {
    fn default() -> Self {
        DEFAULT_TOLERANCE
    }
}

/// The default [`Tolerance`]: 0.05 horizontally, 0.1 vertically.
pub const DEFAULT_TOLERANCE: Tolerance = Tolerance {
    horizontal: 0.05,
    vertical: 0.1,
};

/// Smallest tolerance used (smaller ones are raised to it).
pub const MIN_TOLERANCE: f32 = 1e-6;

impl Tolerance {
    fn sane(self) -> Tolerance {
        // Below a micrometre a tolerance means nothing for f32 coordinates, and the hash
        // grid's cells (twice the tolerance) would be so small that the few cells around a
        // point span billions of cell indices after rounding; such values are raised to it.
        let ok = |v: f32, d: f32| {
            if v.is_finite() && v > 0.0 {
                v.max(MIN_TOLERANCE)
            } else {
                d
            }
        };
        Tolerance {
            horizontal: ok(self.horizontal, DEFAULT_TOLERANCE.horizontal),
            vertical: ok(self.vertical, DEFAULT_TOLERANCE.vertical),
        }
    }
}

/// One room's walkmesh, in area coordinates, and its place in the layout.
#[derive(Clone, Debug)]
pub struct RoomMesh {
    /// Index of the room in the LYT room list (what transitions name).
    pub lyt_index: usize,
    pub name: String,
    pub mesh: NavMesh,
}

/// A perimeter edge of a room.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerimeterEdge {
    /// Position of the room in the slice given to the solver.
    pub room: usize,
    pub edge: EdgeRef,
    pub start: [f32; 3],
    pub end: [f32; 3],
    /// Transition stored now (−1 when none).
    pub stored: i32,
}

/// What the solver found.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Every perimeter edge of every room.
    pub edges: Vec<PerimeterEdge>,
    /// Solved transition of each edge in `edges` (LYT index of the room it meets, or −1).
    pub solved: Vec<i32>,
    /// Pairs of `edges` indices that coincide (each pair once, lower index first).
    pub pairs: Vec<(u32, u32)>,
    pub findings: Vec<Diagnostic>,
}

impl Solution {
    /// Edges whose solved transition differs from the stored one.
    pub fn changed(&self) -> usize {
        self.edges
            .iter()
            .zip(&self.solved)
            .filter(|(e, s)| e.stored != **s)
            .count()
    }

    /// Findings with severity `Error`.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// The solved transitions of room `room` (slot in the solver's input), perimeter edges only.
    pub fn room_transitions(&self, room: usize) -> BTreeMap<EdgeRef, i32> {
        self.edges
            .iter()
            .zip(&self.solved)
            .filter(|(e, _)| e.room == room)
            .map(|(e, s)| (e.edge, *s))
            .collect()
    }
}

/// The walkable perimeter edges of `mesh`. A room read from a WOK and not changed since
/// carries the file's own edge table, which lists exactly these edges (the game's perimeter
/// walk; `walkmesh validate` checks it against the geometry), so they are taken from there in
/// time proportional to the perimeter; otherwise they are computed from adjacency by shared
/// vertex indices, in face order then edge order.
pub fn perimeter_edges(mesh: &NavMesh, room: usize) -> Vec<PerimeterEdge> {
    if let Some(edges) = stored_perimeter(mesh, room) {
        return edges;
    }
    computed_perimeter(mesh, room)
}

/// No BWM reader in this build: perimeters are computed.
#[cfg(not(feature = "bwm"))]
fn stored_perimeter(_mesh: &NavMesh, _room: usize) -> Option<Vec<PerimeterEdge>> {
    None
}

/// The edge table of the WOK `mesh` was read from, while `mesh` is unchanged.
#[cfg(feature = "bwm")]
fn stored_perimeter(mesh: &NavMesh, room: usize) -> Option<Vec<PerimeterEdge>> {
    use walkmesh_bwm::layout::{RawBwm, Table};
    let bytes = mesh.fresh_provenance("bwm")?.section("file")?;
    let raw = RawBwm::parse(bytes).ok()?;
    let span = raw.span(Table::Edges);
    let mut edges = Vec::with_capacity(span.count);
    for i in 0..span.count {
        let (index, _) = raw.edge(i);
        let edge = EdgeRef {
            polygon: index / 3,
            edge: index % 3,
        };
        let corners = mesh.polygons.get(edge.polygon as usize);
        let (Some(&a), Some(&b)) = (
            corners.get(edge.edge as usize),
            corners.get((edge.edge as usize + 1) % 3),
        ) else {
            // A table that does not fit the faces: compute instead.
            return None;
        };
        if corners.len() != 3 || !mesh.is_walkable(edge.polygon as usize) {
            return None;
        }
        edges.push(PerimeterEdge {
            room,
            edge,
            start: mesh.vertex(a),
            end: mesh.vertex(b),
            stored: mesh.edge_tags.get(&edge).map_or(-1, |t| t.transition),
        });
    }
    Some(edges)
}

/// The walkable perimeter edges computed from adjacency by shared vertex indices.
pub fn computed_perimeter(mesh: &NavMesh, room: usize) -> Vec<PerimeterEdge> {
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let mut edges = Vec::new();
    for (polygon, vertices) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(polygon) {
            continue;
        }
        let first = mesh.polygons.first_index(polygon);
        for (e, &a) in vertices.iter().enumerate() {
            if !adjacency.is_boundary(first + e) {
                continue;
            }
            let b = vertices.get((e + 1) % vertices.len()).copied().unwrap_or(a);
            let edge = EdgeRef {
                polygon: polygon as u32,
                edge: e as u32,
            };
            edges.push(PerimeterEdge {
                room,
                edge,
                start: mesh.vertex(a),
                end: mesh.vertex(b),
                stored: mesh.edge_tags.get(&edge).map_or(-1, |t| t.transition),
            });
        }
    }
    edges
}

fn close(a: [f32; 3], b: [f32; 3], tolerance: Tolerance) -> bool {
    let dx = a[0] - b[0];
    let dy = a[1] - b[1];
    dx * dx + dy * dy <= tolerance.horizontal * tolerance.horizontal
        && (a[2] - b[2]).abs() <= tolerance.vertical
}

type Cell = [i64; 3];

/// A multiply-rotate hasher for grid cells (integer keys we make ourselves, so no protection
/// against chosen collisions is needed); several times faster than the default SipHash, which
/// dominated the solve.
#[derive(Default, Clone, Copy)]
pub(crate) struct CellHasher(u64);

impl std::hash::Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Integer arrays arrive here as their bytes: eight at a time.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            for (slot, &b) in word.iter_mut().zip(chunk) {
                *slot = b;
            }
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, value: i64) {
        self.write_u64(value as u64);
    }
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

pub(crate) type CellMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<CellHasher>>;

fn cell_of(p: [f32; 3], tolerance: Tolerance) -> Cell {
    let h = 2.0 * tolerance.horizontal;
    let v = 2.0 * tolerance.vertical;
    [
        (p[0] / h).floor() as i64,
        (p[1] / h).floor() as i64,
        (p[2] / v).floor() as i64,
    ]
}

/// Solves the transitions of `rooms` from geometry. `room_count` is the number of rooms in
/// the layout (what a transition may name); `tolerance` as [`DEFAULT_TOLERANCE`].
pub fn solve(rooms: &[RoomMesh], room_count: usize, tolerance: Tolerance) -> Solution {
    let tolerance = tolerance.sane();
    let mut edges = Vec::new();
    for (slot, room) in rooms.iter().enumerate() {
        edges.extend(perimeter_edges(&room.mesh, slot));
    }
    let Matches {
        mut partners,
        mut overlapping,
        mut pairs,
    } = coinciding_edges(&edges, tolerance);
    let mut findings = Vec::new();
    link_partial_overlaps(
        rooms,
        &edges,
        tolerance,
        (&mut partners, &mut pairs),
        &mut findings,
    );
    pairs.sort_unstable();
    overlapping.dedup();
    report_same_direction(rooms, &edges, &overlapping, &mut findings);
    let solved = solved_transitions(rooms, &edges, &partners, room_count, &mut findings);
    check_stored_pairs(rooms, &edges, &pairs, &mut findings);
    reachability(rooms, &edges, &pairs, &mut findings);
    Solution {
        edges,
        solved,
        pairs,
        findings,
    }
}

/// Perimeter edges of different rooms that coincide (see [`coinciding_edges`]).
struct Matches {
    /// `partners[i]`: edges of other rooms that meet edge `i` across a seam.
    partners: Vec<Vec<u32>>,
    /// Pairs that coincide running the same way (overlapping rooms), maybe repeated.
    overlapping: Vec<(u32, u32)>,
    /// Every seam pair `(i, j)` (`i < j` for exact matches), in the order found.
    pairs: Vec<(u32, u32)>,
}

/// Matches perimeter edges through a hash grid on their start points: a partner starts near
/// an edge's end (a seam) or near its start (the same direction).
fn coinciding_edges(edges: &[PerimeterEdge], tolerance: Tolerance) -> Matches {
    let mut grid: CellMap<Cell, Vec<u32>> = CellMap::default();
    grid.reserve(edges.len());
    for (i, edge) in edges.iter().enumerate() {
        grid.entry(cell_of(edge.start, tolerance))
            .or_default()
            .push(i as u32);
    }
    // partners[i]: edges of other rooms that coincide with edge i.
    let mut partners: Vec<Vec<u32>> = vec![Vec::new(); edges.len()];
    let mut overlapping: Vec<(u32, u32)> = Vec::new();
    let mut pairs = Vec::new();
    for (i, edge) in edges.iter().enumerate() {
        // A partner starts near this edge's end (opposite direction, a seam) or near its
        // start (same direction: reported as overlapping rooms).
        for anchor in [edge.end, edge.start] {
            let delta = [
                tolerance.horizontal,
                tolerance.horizontal,
                tolerance.vertical,
            ];
            let lo = cell_of([0, 1, 2].map(|k| anchor[k] - delta[k]), tolerance);
            let hi = cell_of([0, 1, 2].map(|k| anchor[k] + delta[k]), tolerance);
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        let Some(candidates) = grid.get(&[x, y, z]) else {
                            continue;
                        };
                        for &j in candidates {
                            let Some(other) = edges.get(j as usize) else {
                                continue;
                            };
                            if other.room == edge.room || j as usize <= i {
                                continue;
                            }
                            // Across a seam the two rooms' boundary edges run opposite ways
                            // (each room's interior on its own side). Edges that coincide
                            // running the same way have both interiors on one side: the rooms
                            // overlap there (or one is wound clockwise); no transition.
                            let opposite = close(other.start, edge.end, tolerance)
                                && close(other.end, edge.start, tolerance);
                            let same = close(other.start, edge.start, tolerance)
                                && close(other.end, edge.end, tolerance);
                            if same && !opposite {
                                overlapping.push((i as u32, j));
                            }
                            if opposite && !partners.get(i).is_some_and(|p| p.contains(&j)) {
                                if let Some(list) = partners.get_mut(i) {
                                    list.push(j);
                                }
                                if let Some(list) = partners.get_mut(j as usize) {
                                    list.push(i as u32);
                                }
                                pairs.push((i as u32, j));
                            }
                        }
                    }
                }
            }
        }
    }
    Matches {
        partners,
        overlapping,
        pairs,
    }
}

/// Edges without an exact partner that share at least half of the shorter one's length
/// with a collinear edge of another room (door edges of different widths, seams not split
/// at the same points) are partners too: the engine only needs each side's crossing edge to
/// name the other room. They are reported, since part of such an edge leads nowhere.
fn link_partial_overlaps(
    rooms: &[RoomMesh],
    edges: &[PerimeterEdge],
    tolerance: Tolerance,
    (partners, pairs): (&mut [Vec<u32>], &mut Vec<(u32, u32)>),
    findings: &mut Vec<Diagnostic>,
) {
    let length = |e: &PerimeterEdge| {
        let (dx, dy) = (e.end[0] - e.start[0], e.end[1] - e.start[1]);
        (dx * dx + dy * dy).sqrt()
    };
    for (i, j, overlap) in partial_overlaps(edges, partners, tolerance) {
        let (Some(a), Some(b)) = (edges.get(i as usize), edges.get(j as usize)) else {
            continue;
        };
        let linked = overlap >= 0.5 * length(a).min(length(b));
        findings.push(found(
            Severity::Warning,
            "area.edge_partial_overlap",
            format!(
                "{} and {} lie on one line and overlap by {overlap:.3} without sharing endpoints; {}",
                describe_edge(rooms, a),
                describe_edge(rooms, b),
                if linked {
                    "they are linked, but the rest of the longer edge leads nowhere: split the edges so their endpoints meet"
                } else {
                    "too little to link them: split the edges so their endpoints meet"
                }
            ),
        ));
        if linked {
            if let Some(list) = partners.get_mut(i as usize) {
                list.push(j);
            }
            if let Some(list) = partners.get_mut(j as usize) {
                list.push(i);
            }
            pairs.push((i, j));
        }
    }
}

/// Edges that coincide running the same way: the rooms overlap there (or one is wound
/// clockwise), and no transition is set.
fn report_same_direction(
    rooms: &[RoomMesh],
    edges: &[PerimeterEdge],
    overlapping: &[(u32, u32)],
    findings: &mut Vec<Diagnostic>,
) {
    for &(i, j) in overlapping {
        let (Some(a), Some(b)) = (edges.get(i as usize), edges.get(j as usize)) else {
            continue;
        };
        findings.push(found(
            Severity::Warning,
            "area.edges_same_direction",
            format!(
                "{} and {} coincide but run the same way, so both rooms lie on the same side: the rooms overlap there, or one room's faces are wound clockwise; no transition is set",
                describe_edge(rooms, a),
                describe_edge(rooms, b)
            ),
        ));
    }
}

/// The room each perimeter edge should name: its partner's (the lowest layout index among
/// several, reported), or -1; stored transitions that lead nowhere are reported.
fn solved_transitions(
    rooms: &[RoomMesh],
    edges: &[PerimeterEdge],
    partners: &[Vec<u32>],
    room_count: usize,
    findings: &mut Vec<Diagnostic>,
) -> Vec<i32> {
    let describe = |e: &PerimeterEdge| describe_edge(rooms, e);
    let lyt_of = |slot: usize| rooms.get(slot).map_or(-1, |r| r.lyt_index as i32);
    let mut solved = vec![-1i32; edges.len()];
    for (i, edge) in edges.iter().enumerate() {
        let list = partners.get(i).map(Vec::as_slice).unwrap_or_default();
        // With several partners the lowest layout index wins, and the ambiguity is reported.
        let best = list
            .iter()
            .filter_map(|&j| edges.get(j as usize))
            .map(|other| lyt_of(other.room))
            .min();
        if let (Some(best), Some(slot)) = (best, solved.get_mut(i)) {
            *slot = best;
        }
        if list.len() > 1 {
            findings.push(found(
                Severity::Warning,
                "area.edge_several_partners",
                format!(
                    "{} coincides with edges of {} other rooms; it is given room {}",
                    describe(edge),
                    list.len(),
                    best.unwrap_or(-1)
                ),
            ));
        }
        if list.is_empty() && edge.stored != -1 {
            if edge.stored < 0 || edge.stored as usize >= room_count {
                findings.push(found(
                    Severity::Error,
                    "area.transition_out_of_range",
                    format!(
                        "{} names room {}, but the layout has {room_count} rooms (a placeholder or an index from another module)",
                        describe(edge),
                        edge.stored
                    ),
                ));
            } else {
                findings.push(found(
                    Severity::Error,
                    "area.transition_stale",
                    format!(
                        "{} names room {}, but no edge of that room (or any other) meets it",
                        describe(edge),
                        edge.stored
                    ),
                ));
            }
        }
    }
    solved
}

/// Checks the transitions stored on both sides of every seam pair: conflicting, one-sided,
/// and missing ones (counted per pair of rooms).
fn check_stored_pairs(
    rooms: &[RoomMesh],
    edges: &[PerimeterEdge],
    pairs: &[(u32, u32)],
    findings: &mut Vec<Diagnostic>,
) {
    let describe = |e: &PerimeterEdge| describe_edge(rooms, e);
    let lyt_of = |slot: usize| rooms.get(slot).map_or(-1, |r| r.lyt_index as i32);
    let mut missing: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (edges.get(i as usize), edges.get(j as usize)) else {
            continue;
        };
        let want_a = lyt_of(b.room);
        let want_b = lyt_of(a.room);
        let a_ok = a.stored == want_a;
        let b_ok = b.stored == want_b;
        if a_ok && b_ok {
            continue;
        }
        let wrong = |e: &PerimeterEdge, want: i32| e.stored != -1 && e.stored != want;
        if wrong(a, want_a) || wrong(b, want_b) {
            let (e, want) = if wrong(a, want_a) {
                (a, want_a)
            } else {
                (b, want_b)
            };
            findings.push(found(
                Severity::Error,
                "area.transition_conflict",
                format!(
                    "{} names room {} but meets room {want} ({})",
                    describe(e),
                    e.stored,
                    describe(if std::ptr::eq(e, a) { b } else { a })
                ),
            ));
        } else if a_ok || b_ok {
            let (has, lacks) = if a_ok { (a, b) } else { (b, a) };
            findings.push(found(
                Severity::Error,
                "area.transition_one_sided",
                format!(
                    "{} names room {}, but the edge it meets ({}) has no transition back",
                    describe(has),
                    has.stored,
                    describe(lacks)
                ),
            ));
        } else {
            // Counted per pair of rooms: a whole seam without transitions is one finding.
            *missing
                .entry((a.room.min(b.room), a.room.max(b.room)))
                .or_insert(0usize) += 1;
        }
    }
    for ((ra, rb), count) in missing {
        let name = |slot: usize| {
            rooms
                .get(slot)
                .map_or(String::new(), |r| format!("{} '{}'", r.lyt_index, r.name))
        };
        findings.push(found(
            Severity::Warning,
            "area.transition_missing",
            format!(
                "rooms {} and {} meet along {count} edge pair(s) that carry no transition on either side",
                name(ra),
                name(rb)
            ),
        ));
    }
}

fn describe_edge(rooms: &[RoomMesh], e: &PerimeterEdge) -> String {
    let room = rooms.get(e.room);
    format!(
        "room {} '{}' face {} edge {}",
        room.map_or(0, |r| r.lyt_index),
        room.map_or("", |r| r.name.as_str()),
        e.edge.polygon,
        e.edge.edge
    )
}

fn found(severity: Severity, code: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity,
        code: code.to_string(),
        message,
        location: Location {
            file: None,
            position: Position::None,
            field: None,
        },
    }
}

/// Perimeter edges without a partner that lie on one line with an edge of another room and
/// overlap it by more than the tolerance: the rooms touch there, but no transition can be
/// placed, because the game links whole edges. Edges go into a 2-D grid whose cell is the mean
/// edge length, so each edge covers a few cells and the pass stays linear.
fn partial_overlaps(
    edges: &[PerimeterEdge],
    partners: &[Vec<u32>],
    tolerance: Tolerance,
) -> Vec<(u32, u32, f32)> {
    let mut found_pairs = Vec::new();
    let lonely: Vec<usize> = (0..edges.len())
        .filter(|&i| partners.get(i).is_some_and(Vec::is_empty))
        .collect();
    if lonely.len() < 2 {
        return found_pairs;
    }
    let length = |e: &PerimeterEdge| {
        let d: Vec<f32> = e.start.iter().zip(&e.end).map(|(a, b)| b - a).collect();
        d.iter().map(|x| x * x).sum::<f32>().sqrt()
    };
    // Edges with a coordinate that is not finite lie on no line; they are left out.
    let finite = |e: &PerimeterEdge| {
        e.start.iter().chain(&e.end).all(|c| c.is_finite()) && length(e).is_finite()
    };
    let lengths: Vec<f32> = lonely
        .iter()
        .filter_map(|&i| edges.get(i))
        .filter(|e| finite(e))
        .map(length)
        .filter(|l| l.is_finite())
        .collect();
    let total: f32 = lengths.iter().sum();
    let longest = lengths.iter().copied().fold(0.0f32, f32::max);
    // Cells about the mean edge length, but never so small that the longest edge's box covers
    // more than 65 × 65 of them: every edge then goes into a bounded number of cells, and the
    // work stays linear in the number of edges whatever their lengths (hostile input with one
    // huge edge would otherwise fill billions of cells).
    let cell = (total / lengths.len().max(1) as f32)
        .max(tolerance.horizontal * 4.0)
        .max(longest / 64.0);
    let mut grid: CellMap<[i64; 2], Vec<u32>> = CellMap::default();
    for &i in &lonely {
        let Some(e) = edges.get(i).filter(|e| finite(e)) else {
            continue;
        };
        let lo = [e.start[0].min(e.end[0]), e.start[1].min(e.end[1])];
        let hi = [e.start[0].max(e.end[0]), e.start[1].max(e.end[1])];
        let c0 = [(lo[0] / cell).floor() as i64, (lo[1] / cell).floor() as i64];
        let c1 = [(hi[0] / cell).floor() as i64, (hi[1] / cell).floor() as i64];
        for x in c0[0]..=c1[0] {
            for y in c0[1]..=c1[1] {
                grid.entry([x, y]).or_default().push(i as u32);
            }
        }
    }
    let mut reported: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
    for list in grid.values() {
        for (k, &i) in list.iter().enumerate() {
            for &j in list.iter().skip(k + 1) {
                let (Some(a), Some(b)) = (edges.get(i as usize), edges.get(j as usize)) else {
                    continue;
                };
                if a.room == b.room || reported.contains(&(i.min(j), i.max(j))) {
                    continue;
                }
                if let Some(overlap) = collinear_overlap(a, b, tolerance)
                    && overlap > tolerance.horizontal
                {
                    reported.insert((i.min(j), i.max(j)));
                    found_pairs.push((i.min(j), i.max(j), overlap));
                }
            }
        }
    }
    found_pairs.sort_unstable_by_key(|&(i, j, _)| (i, j));
    found_pairs
}

/// Length (in XY) of the overlap of two edges lying on one line: both endpoints of `b` within
/// the horizontal tolerance of `a`'s line in XY, and within the vertical tolerance of `a`'s
/// height there. `None` when they do not lie on one line or do not overlap.
fn collinear_overlap(a: &PerimeterEdge, b: &PerimeterEdge, tolerance: Tolerance) -> Option<f32> {
    let dir = [a.end[0] - a.start[0], a.end[1] - a.start[1]];
    let len2 = dir[0] * dir[0] + dir[1] * dir[1];
    if len2 <= tolerance.horizontal * tolerance.horizontal {
        return None;
    }
    let len = len2.sqrt();
    // Position along `a` (0..len), distance off its line, height difference at that point.
    let project = |p: [f32; 3]| -> (f32, f32, f32) {
        let rel = [p[0] - a.start[0], p[1] - a.start[1]];
        let t = (rel[0] * dir[0] + rel[1] * dir[1]) / len;
        let off = (rel[0] * dir[1] - rel[1] * dir[0]).abs() / len;
        let height = a.start[2] + (a.end[2] - a.start[2]) * (t / len);
        (t, off, (p[2] - height).abs())
    };
    let (t0, d0, z0) = project(b.start);
    let (t1, d1, z1) = project(b.end);
    if d0 > tolerance.horizontal
        || d1 > tolerance.horizontal
        || z0 > tolerance.vertical
        || z1 > tolerance.vertical
    {
        return None;
    }
    // Opposite directions only, as across a seam (see the exact match).
    if t1 >= t0 {
        return None;
    }
    let overlap = t0.max(t1).min(len) - t0.min(t1).max(0.0);
    (overlap > 0.0).then_some(overlap)
}

/// Rooms with walkable faces that no coinciding edge joins to any other room, and the
/// connected groups of rooms when there are several.
fn reachability(
    rooms: &[RoomMesh],
    edges: &[PerimeterEdge],
    pairs: &[(u32, u32)],
    findings: &mut Vec<Diagnostic>,
) {
    let walkable: Vec<bool> = rooms.iter().map(|r| r.mesh.walkable_count() > 0).collect();
    if walkable.iter().filter(|w| **w).count() < 2 {
        return;
    }
    let mut parent: Vec<usize> = (0..rooms.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while let Some(&p) = parent.get(x) {
            if p == x {
                break;
            }
            let grand = parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = parent.get_mut(x) {
                *slot = grand;
            }
            x = grand;
        }
        x
    }
    let mut linked = vec![false; rooms.len()];
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (edges.get(i as usize), edges.get(j as usize)) else {
            continue;
        };
        for r in [a.room, b.room] {
            if let Some(slot) = linked.get_mut(r) {
                *slot = true;
            }
        }
        let (ra, rb) = (root(&mut parent, a.room), root(&mut parent, b.room));
        if ra != rb
            && let Some(slot) = parent.get_mut(ra.max(rb))
        {
            *slot = ra.min(rb);
        }
    }
    let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (slot, room) in rooms.iter().enumerate() {
        if !walkable.get(slot).copied().unwrap_or(false) {
            continue;
        }
        if !linked.get(slot).copied().unwrap_or(false) {
            findings.push(found(
                Severity::Warning,
                "area.room_isolated",
                format!(
                    "room {} '{}' meets no other room along a walkable edge: no transition can bring a creature in or out",
                    room.lyt_index, room.name
                ),
            ));
        }
        let r = root(&mut parent, slot);
        groups
            .entry(r)
            .or_default()
            .push(format!("{} '{}'", room.lyt_index, room.name));
    }
    if groups.len() > 1 {
        let text: Vec<String> = groups
            .values()
            .map(|g| format!("[{}]", g.join(", ")))
            .collect();
        findings.push(found(
            Severity::Info,
            "area.rooms_disconnected",
            format!(
                "the walkable rooms form {} separate groups: {}",
                groups.len(),
                text.join("; ")
            ),
        ));
    }
}

/// Writes the solved transitions into the rooms' meshes (perimeter edges only: −1 removes a
/// tag). Returns the number of edges changed.
pub fn apply(rooms: &mut [RoomMesh], solution: &Solution) -> usize {
    let mut changed = 0;
    for (edge, &value) in solution.edges.iter().zip(&solution.solved) {
        if edge.stored == value {
            continue;
        }
        let Some(room) = rooms.get_mut(edge.room) else {
            continue;
        };
        changed += 1;
        if value == -1 {
            room.mesh.edge_tags.remove(&edge.edge);
        } else {
            room.mesh
                .edge_tags
                .insert(edge.edge, EdgeTag { transition: value });
        }
    }
    changed
}

/// The WOK bytes for a room whose transitions (only) changed. When every transition sits on an
/// edge of the file's edge table, the original file is kept and only the transition fields of
/// that table are rewritten, so every other byte (AABB tree, adjacency, perimeters) stays as
/// it was; otherwise the room is written anew with every table rebuilt. `mesh` must be the
/// mesh read from `original` with only its edge tags changed.
#[cfg(not(feature = "bwm"))]
pub fn wok_with_transitions(original: &[u8], mesh: &NavMesh) -> Result<Vec<u8>, crate::AreaError> {
    let _ = (original, mesh);
    Err(crate::AreaError::BwmLeftOut)
}

/// As above, with the BWM writer.
#[cfg(feature = "bwm")]
pub fn wok_with_transitions(original: &[u8], mesh: &NavMesh) -> Result<Vec<u8>, crate::AreaError> {
    use walkmesh_bwm::layout::{RawBwm, Table};
    if let Ok(raw) = RawBwm::parse(original) {
        let span = raw.span(Table::Edges);
        let mut patched = original.to_vec();
        let mut placed = 0usize;
        for i in 0..span.count {
            let (index, _) = raw.edge(i);
            let edge = EdgeRef {
                polygon: index / 3,
                edge: index % 3,
            };
            let value = mesh.edge_tags.get(&edge).map_or(-1, |t| t.transition);
            if value != -1 {
                placed += 1;
            }
            let at = span.entry(Table::Edges, i) + 4;
            if let Some(slot) = patched.get_mut(at..at + 4) {
                slot.copy_from_slice(&value.to_le_bytes());
            }
        }
        if placed == mesh.edge_tags.len() {
            return Ok(patched);
        }
    }
    let mut diag = walkmesh_core::Diagnostics::new();
    walkmesh_bwm::write_bwm(mesh, &walkmesh_core::WriteOptions::default(), &mut diag)
        .map(|output| output.main)
        .map_err(crate::AreaError::from)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{Material, Surface};

    /// A unit square of two walkable triangles at x offset `x0`, counter-clockwise from above.
    pub(crate) fn square(x0: f32) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![
                [x0, 0.0, 0.0],
                [x0 + 1.0, 0.0, 0.0],
                [x0 + 1.0, 1.0, 0.0],
                [x0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        mesh.push_polygon(&[0, 1, 2], stone);
        mesh.push_polygon(&[0, 2, 3], stone);
        mesh
    }

    fn room(index: usize, x0: f32) -> RoomMesh {
        RoomMesh {
            lyt_index: index,
            name: format!("r{index}"),
            mesh: square(x0),
        }
    }

    // Square at x0: face 0 = (0,1,2): edge 1 runs (x0+1,0)→(x0+1,1), the right side.
    // Face 1 = (0,2,3): edge 2 runs (x0,1)→(x0,0), the left side.
    const RIGHT: EdgeRef = EdgeRef {
        polygon: 0,
        edge: 1,
    };
    const LEFT: EdgeRef = EdgeRef {
        polygon: 1,
        edge: 2,
    };

    #[test]
    fn two_squares_side_by_side_link_both_ways() {
        let rooms = [room(0, 0.0), room(3, 1.0)];
        let solution = solve(&rooms, 4, DEFAULT_TOLERANCE);
        assert_eq!(solution.edges.len(), 8);
        assert_eq!(solution.pairs.len(), 1);
        assert_eq!(solution.room_transitions(0)[&RIGHT], 3);
        assert_eq!(solution.room_transitions(1)[&LEFT], 0);
        // Every other edge is −1.
        assert_eq!(solution.solved.iter().filter(|&&s| s != -1).count(), 2);
        let codes: Vec<&str> = solution.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["area.transition_missing"]);
        let mut rooms = rooms;
        assert_eq!(apply(&mut rooms, &solution), 2);
        let again = solve(&rooms, 4, DEFAULT_TOLERANCE);
        assert!(again.findings.is_empty(), "{:?}", again.findings);
        assert_eq!(again.changed(), 0);
    }

    #[test]
    fn within_tolerance_matches_beyond_does_not() {
        let rooms = [room(0, 0.0), room(1, 1.04)];
        let tight = Tolerance {
            horizontal: 0.001,
            vertical: 0.1,
        };
        assert_eq!(solve(&rooms, 2, DEFAULT_TOLERANCE).pairs.len(), 1);
        assert_eq!(solve(&rooms, 2, tight).pairs.len(), 0);
        // Heights: 0.05 apart still meets by default, 0.5 apart (another floor) does not.
        let mut rooms = [room(0, 0.0), room(1, 1.0)];
        for v in &mut rooms[1].mesh.vertices {
            v[2] = 0.05;
        }
        assert_eq!(solve(&rooms, 2, DEFAULT_TOLERANCE).pairs.len(), 1);
        for v in &mut rooms[1].mesh.vertices {
            v[2] = 0.5;
        }
        assert_eq!(solve(&rooms, 2, DEFAULT_TOLERANCE).pairs.len(), 0);
    }

    #[test]
    fn stale_out_of_range_one_sided_and_conflicting_are_reported() {
        let mut rooms = [room(0, 0.0), room(1, 1.0), room(2, 5.0)];
        // Room 0 names room 1 correctly; room 1's side is missing: one-sided.
        rooms[0]
            .mesh
            .edge_tags
            .insert(RIGHT, EdgeTag { transition: 1 });
        // Room 2 meets nothing: its left edge naming room 1 is stale, its right edge 17 is out
        // of range.
        rooms[2]
            .mesh
            .edge_tags
            .insert(LEFT, EdgeTag { transition: 1 });
        rooms[2]
            .mesh
            .edge_tags
            .insert(RIGHT, EdgeTag { transition: 17 });
        let solution = solve(&rooms, 3, DEFAULT_TOLERANCE);
        let mut codes: Vec<&str> = solution.findings.iter().map(|f| f.code.as_str()).collect();
        codes.sort_unstable();
        assert_eq!(
            codes,
            [
                "area.room_isolated",
                "area.rooms_disconnected",
                "area.transition_one_sided",
                "area.transition_out_of_range",
                "area.transition_stale",
            ]
        );
        rooms[1]
            .mesh
            .edge_tags
            .insert(LEFT, EdgeTag { transition: 2 });
        let solution = solve(&rooms, 3, DEFAULT_TOLERANCE);
        assert!(
            solution
                .findings
                .iter()
                .any(|f| f.code == "area.transition_conflict")
        );
        // Fixing clears stale values and sets both sides.
        assert_eq!(apply(&mut rooms, &solution), 3);
        assert_eq!(rooms[1].mesh.edge_tags[&LEFT].transition, 0);
        assert!(rooms[2].mesh.edge_tags.is_empty());
    }

    #[test]
    fn partial_overlap_is_reported() {
        // Room 1 is shifted up by half a unit: the shared side overlaps over 0.5.
        let mut shifted = square(1.0);
        for v in &mut shifted.vertices {
            v[1] += 0.5;
        }
        let rooms = [
            room(0, 0.0),
            RoomMesh {
                lyt_index: 1,
                name: "r1".into(),
                mesh: shifted,
            },
        ];
        let solution = solve(&rooms, 2, DEFAULT_TOLERANCE);
        // Half of the unit edge is shared: linked, and reported.
        assert_eq!(solution.pairs.len(), 1);
        let overlap: Vec<&Diagnostic> = solution
            .findings
            .iter()
            .filter(|f| f.code == "area.edge_partial_overlap")
            .collect();
        assert_eq!(overlap.len(), 1);
        assert!(overlap[0].message.contains("0.500"));
        assert!(overlap[0].message.contains("they are linked"));
        // Shifted by 0.8: 0.2 shared, reported but not linked.
        let mut rooms = rooms;
        for v in &mut rooms[1].mesh.vertices {
            v[1] += 0.3;
        }
        let solution = solve(&rooms, 2, DEFAULT_TOLERANCE);
        assert!(solution.pairs.is_empty());
        assert!(
            solution
                .findings
                .iter()
                .any(|f| f.code == "area.edge_partial_overlap" && f.message.contains("too little"))
        );
    }

    #[test]
    fn stored_and_computed_perimeters_agree_on_a_written_wok() {
        let mut mesh = square(0.0);
        mesh.edge_tags.insert(RIGHT, EdgeTag { transition: 2 });
        let mut diag = walkmesh_core::Diagnostics::new();
        let bytes = walkmesh_bwm::write_bwm(&mesh, &Default::default(), &mut diag)
            .unwrap()
            .main;
        let read = walkmesh_bwm::read_bwm(
            walkmesh_core::Input {
                bytes: &bytes,
                path: None,
            },
            &Default::default(),
            &mut diag,
        )
        .unwrap();
        let stored = stored_perimeter(&read, 0).unwrap();
        let mut computed = computed_perimeter(&read, 0);
        let mut sorted = stored.clone();
        sorted.sort_by_key(|e| e.edge);
        computed.sort_by_key(|e| e.edge);
        assert_eq!(sorted, computed);
        assert_eq!(stored.len(), 4);
        assert_eq!(stored.iter().filter(|e| e.stored == 2).count(), 1);
        // Once edited, the table no longer belongs to the mesh.
        let mut edited = read.clone();
        edited.vertices[0][0] = -0.5;
        assert!(stored_perimeter(&edited, 0).is_none());
    }

    #[test]
    fn non_walkable_faces_have_no_perimeter() {
        let mut mesh = square(0.0);
        mesh.surfaces[1].walkable = false;
        // Face 0 alone: all three edges are perimeter.
        let edges = perimeter_edges(&mesh, 0);
        assert_eq!(edges.len(), 3);
        assert!(edges.iter().all(|e| e.edge.polygon == 0));
    }
}
