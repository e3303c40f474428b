//! Whole areas: the floors of two rooms that face each other across a doorway end on one line.
//!
//! Each room is generated alone, so its floor ends where its own voxel contour ends: at a
//! doorway, a few centimetres short of or past the modeller's line, and slightly slanted. The
//! other room's floor ends as far off on its own side, so the two edges lie up to a cell or two
//! apart, farther than the transition solver's 0.05 m, and the rooms are not linked. Before the
//! seam points are shared ([`crate::seams`]) and the transitions solved, every pair of open
//! walkable boundary edges of two different rooms (no wall face on either) that
//!
//! - run parallel in plan (within 10°) with their floors on opposite sides,
//! - lie within the stated distance of each other across (`Facing::across`, two cells),
//! - overlap along their length by at least `Facing::min_overlap`, and
//! - differ in height by no more than the agent's climb (`Facing::up`)
//!
//! face each other. Facing edges, with the edges of the same room they share an end with, make
//! one doorway; its edges' ends are moved onto one line, the length-weighted mean of the
//! doorway's edges, and to the mean of both sides' heights there. Nothing else moves. A doorway
//! whose edges do not lie along one line within the distance, or whose move would fold or
//! flatten one of the moved vertices' walkable triangles, is left as it was. Each room's count
//! of vertices moved and the largest move is its [`Aligned`].

use std::collections::HashMap;

use walkmesh_core::NavMesh;

use crate::holes;
use crate::walls::{self, RimEdge};

/// When two open edges of different rooms face each other (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facing {
    /// Largest distance across, in plan, between the two edges.
    pub across: f64,
    /// Largest height difference between the two sides.
    pub up: f64,
    /// Least length along which the two edges overlap.
    pub min_overlap: f64,
}

/// What aligning did to one room.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Aligned {
    /// Vertices moved onto a doorway line shared with another room.
    pub vertices: usize,
    /// The largest move (m, in 3D).
    pub max_move: f64,
}

/// Plan directions closer than this (cosine of 10°) count as parallel.
const PARALLEL: f64 = 0.984_807_753;

/// One open boundary edge of a room, as the aligner sees it.
#[derive(Clone, Debug)]
struct OpenEdge {
    room: usize,
    /// Canonical (welded) vertex numbers of its ends.
    ends: [u32; 2],
    a: [f64; 3],
    b: [f64; 3],
    /// Unit plan normal pointing away from its floor.
    outward: [f64; 2],
}

impl OpenEdge {
    fn length(&self) -> f64 {
        (self.b[0] - self.a[0]).hypot(self.b[1] - self.a[1])
    }

    fn direction(&self) -> [f64; 2] {
        let length = self.length();
        [
            (self.b[0] - self.a[0]) / length,
            (self.b[1] - self.a[1]) / length,
        ]
    }
}

/// Moves the ends of facing open edges of different rooms onto one line per doorway; returns
/// what moved in each room (in the order of `rooms`). A room carrying per-face columns or
/// edge tags is left as it is (as [`crate::seams::share_seam_points`] leaves it).
pub fn align_facing_edges(rooms: &mut [NavMesh], facing: Facing) -> Vec<Aligned> {
    let canonical: Vec<Vec<u32>> = rooms.iter().map(holes::weld).collect();
    let mut edges: Vec<OpenEdge> = rooms
        .iter()
        .zip(&canonical)
        .enumerate()
        .filter(|(_, (mesh, _))| mesh.face_attributes.is_empty() && mesh.edge_tags.is_empty())
        .flat_map(|(r, (mesh, canonical))| open_edges(r, mesh, canonical))
        .collect();
    let pairs = facing_pairs(&edges, facing);
    let mut aligned = vec![Aligned::default(); rooms.len()];
    for doorway in doorways(&edges, &pairs) {
        let Some(moves) = doorway_moves(&edges, &doorway, facing) else {
            continue;
        };
        if moves
            .iter()
            .any(|(room, moves)| !keeps_faces(&rooms[*room], &canonical[*room], moves))
        {
            continue;
        }
        for (room, moves) in moves {
            let (count, most) = move_welded(&mut rooms[room], &canonical[room], &moves);
            aligned[room].vertices += count;
            aligned[room].max_move = aligned[room].max_move.max(most);
            follow_moves(&mut edges, room, &moves);
        }
    }
    aligned
}

/// Puts the moved ends of a room's open edges where they went, so that a later doorway
/// sharing a vertex with this one (a floor open on two sides meeting at a corner) starts from
/// it: its own line then moves that corner along the first line, onto where both cross (for
/// sides at right angles exactly, and within a fraction of the move otherwise).
fn follow_moves(edges: &mut [OpenEdge], room: usize, moves: &Moves) {
    for edge in edges.iter_mut().filter(|e| e.room == room) {
        if let Some(&to) = moves.get(&edge.ends[0]) {
            edge.a = to;
        }
        if let Some(&to) = moves.get(&edge.ends[1]) {
            edge.b = to;
        }
    }
}

/// The room's open walkable boundary edges that are long enough to carry a doorway.
fn open_edges(room: usize, mesh: &NavMesh, canonical: &[u32]) -> Vec<OpenEdge> {
    walls::boundary_edges(mesh, canonical)
        .iter()
        .filter_map(|edge| open_edge(room, mesh, edge))
        .collect()
}

fn open_edge(room: usize, mesh: &NavMesh, edge: &RimEdge) -> Option<OpenEdge> {
    let corners = mesh.polygons.get(edge.face);
    let third = mesh
        .vertex(*corners.get((edge.corner + 2) % 3)?)
        .map(f64::from);
    let (a, b) = (
        mesh.vertex(edge.a).map(f64::from),
        mesh.vertex(edge.b).map(f64::from),
    );
    let length = (b[0] - a[0]).hypot(b[1] - a[1]);
    if corners.len() != 3 || length < 1e-3 {
        return None;
    }
    let mut outward = [(b[1] - a[1]) / length, -(b[0] - a[0]) / length];
    if outward[0] * (third[0] - a[0]) + outward[1] * (third[1] - a[1]) > 0.0 {
        outward = [-outward[0], -outward[1]];
    }
    Some(OpenEdge {
        room,
        ends: edge.key,
        a,
        b,
        outward,
    })
}

/// Pairs (indices into `edges`) of edges of different rooms that face each other. Edges are
/// bucketed in a plan grid of metre cells so that only neighbours are compared.
fn facing_pairs(edges: &[OpenEdge], facing: Facing) -> Vec<(usize, usize)> {
    let cell = 1.0_f64;
    let cells_of = |e: &OpenEdge| {
        let lo = |k: usize| ((e.a[k].min(e.b[k]) - facing.across) / cell).floor() as i64;
        let hi = |k: usize| ((e.a[k].max(e.b[k]) + facing.across) / cell).floor() as i64;
        (lo(0), hi(0), lo(1), hi(1))
    };
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, e) in edges.iter().enumerate() {
        let (x0, x1, y0, y1) = cells_of(e);
        // An edge longer than the bucket budget (a 1 km rim) is skipped, not bucketed.
        if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > 4096 {
            continue;
        }
        for x in x0..=x1 {
            for y in y0..=y1 {
                grid.entry((x, y)).or_default().push(i);
            }
        }
    }
    let mut pairs: Vec<(usize, usize)> =
        grid.values()
            .flat_map(|bucket| {
                bucket.iter().enumerate().flat_map(move |(k, &i)| {
                    bucket[k + 1..].iter().map(move |&j| (i.min(j), i.max(j)))
                })
            })
            .filter(|&(i, j)| edges[i].room != edges[j].room && faces(&edges[i], &edges[j], facing))
            .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Whether `e` and `f` face each other (module documentation).
fn faces(e: &OpenEdge, f: &OpenEdge, facing: Facing) -> bool {
    let (d, g) = (e.direction(), f.direction());
    let opposite = e.outward[0] * f.outward[0] + e.outward[1] * f.outward[1];
    if (d[0] * g[0] + d[1] * g[1]).abs() < PARALLEL || opposite > -PARALLEL {
        return false;
    }
    // Across: f's ends from e's line, along e's outward normal.
    let across = |p: [f64; 3]| (p[0] - e.a[0]) * e.outward[0] + (p[1] - e.a[1]) * e.outward[1];
    if across(f.a).abs() > facing.across || across(f.b).abs() > facing.across {
        return false;
    }
    // Along: the overlap of the two edges' spans on e's direction.
    let along = |p: [f64; 3]| (p[0] - e.a[0]) * d[0] + (p[1] - e.a[1]) * d[1];
    let (f0, f1) = (along(f.a).min(along(f.b)), along(f.a).max(along(f.b)));
    let overlap = f1.min(e.length()) - f0.max(0.0);
    if overlap < facing.min_overlap {
        return false;
    }
    // Up: the heights of both at the middle of the overlap.
    let middle = (f0.max(0.0) + f1.min(e.length())) / 2.0;
    let height_e = e.a[2] + (e.b[2] - e.a[2]) * middle / e.length();
    let t = if f1 > f0 {
        (middle - along(f.a)) / (along(f.b) - along(f.a))
    } else {
        0.0
    };
    let height_f = f.a[2] + (f.b[2] - f.a[2]) * t.clamp(0.0, 1.0);
    (height_e - height_f).abs() <= facing.up
}

/// The doorways: groups of edges joined by facing pairs, and by sharing an end within one room
/// when both edges face another room's.
fn doorways(edges: &[OpenEdge], pairs: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..edges.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let union = |parent: &mut Vec<usize>, i: usize, j: usize| {
        let (a, b) = (root(parent, i), root(parent, j));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    };
    let mut in_pair = vec![false; edges.len()];
    for &(i, j) in pairs {
        union(&mut parent, i, j);
        in_pair[i] = true;
        in_pair[j] = true;
    }
    // Edges of one room sharing an end, both facing something and along one line (within
    // 10°): one doorway's chain. Two sides of a floor meeting at a corner, each facing another
    // room (rooms tiling an outdoor area), are two doorways: as one, they lay on no one line
    // and neither moved.
    let mut by_end: HashMap<(usize, u32), Vec<usize>> = HashMap::new();
    for (i, e) in edges.iter().enumerate().filter(|(i, _)| in_pair[*i]) {
        for end in e.ends {
            by_end.entry((e.room, end)).or_default().push(i);
        }
    }
    for chain in by_end.values() {
        for (k, &i) in chain.iter().enumerate() {
            for &j in chain.iter().skip(k + 1) {
                let (d, g) = (edges[i].direction(), edges[j].direction());
                if (d[0] * g[0] + d[1] * g[1]).abs() >= PARALLEL {
                    union(&mut parent, i, j);
                }
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in (0..edges.len()).filter(|&i| in_pair[i]) {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_unstable();
    groups
}

/// A vertex move: canonical vertex number to its new position.
pub(crate) type Moves = HashMap<u32, [f64; 3]>;

/// Where the doorway's vertices go, per room: onto the length-weighted mean line of its
/// edges, at the mean of their own height and the other rooms' heights there. `None` when its
/// edges are not along one line within `facing.across`.
fn doorway_moves(
    edges: &[OpenEdge],
    doorway: &[usize],
    facing: Facing,
) -> Option<Vec<(usize, Moves)>> {
    let first = edges.get(*doorway.first()?)?.direction();
    let (mut direction, mut centre, mut weight) = ([0.0; 2], [0.0; 2], 0.0);
    for e in doorway.iter().filter_map(|&i| edges.get(i)) {
        let (d, w) = (e.direction(), e.length());
        let sign = if d[0] * first[0] + d[1] * first[1] < 0.0 {
            -1.0
        } else {
            1.0
        };
        for k in 0..2 {
            direction[k] += sign * d[k] * w;
            centre[k] += (e.a[k] + e.b[k]) / 2.0 * w;
        }
        weight += w;
    }
    let norm = direction[0].hypot(direction[1]);
    if norm <= 0.0 || weight <= 0.0 {
        return None;
    }
    let u = [direction[0] / norm, direction[1] / norm];
    let c = [centre[0] / weight, centre[1] / weight];
    let along = |p: [f64; 3]| (p[0] - c[0]) * u[0] + (p[1] - c[1]) * u[1];
    let off = |p: [f64; 3]| (p[0] - c[0]) * u[1] - (p[1] - c[1]) * u[0];
    let mut moves: HashMap<usize, Moves> = HashMap::new();
    for e in doorway.iter().filter_map(|&i| edges.get(i)) {
        for (end, p) in [(e.ends[0], e.a), (e.ends[1], e.b)] {
            if off(p).abs() > facing.across {
                return None;
            }
            let s = along(p);
            let others = height_of_others(edges, doorway, e.room, s, &along);
            let z = match others {
                Some(z) if (z - p[2]).abs() > facing.up => return None,
                Some(z) => (z + p[2]) / 2.0,
                None => p[2],
            };
            let to = [c[0] + s * u[0], c[1] + s * u[1], z];
            moves.entry(e.room).or_default().insert(end, to);
        }
    }
    let mut moves: Vec<(usize, Moves)> = moves.into_iter().collect();
    moves.sort_unstable_by_key(|(room, _)| *room);
    Some(moves)
}

/// The mean height of the other rooms' doorway edges at `s` along the line (each edge's height
/// interpolated there, its nearest end's beyond it).
fn height_of_others(
    edges: &[OpenEdge],
    doorway: &[usize],
    room: usize,
    s: f64,
    along: &dyn Fn([f64; 3]) -> f64,
) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    for e in doorway.iter().filter_map(|&i| edges.get(i)) {
        if e.room == room {
            continue;
        }
        let (sa, sb) = (along(e.a), along(e.b));
        let t = if (sb - sa).abs() > 1e-9 {
            ((s - sa) / (sb - sa)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let outside = (s - sa.min(sb)).min(0.0).abs() + (s - sa.max(sb)).max(0.0);
        let z = e.a[2] + (e.b[2] - e.a[2]) * t;
        if best.is_none_or(|(distance, _)| outside < distance) {
            best = Some((outside, z));
        }
    }
    best.map(|(_, z)| z)
}

/// Whether every walkable triangle of `mesh` with a moved vertex keeps its plan orientation
/// and at least a tenth of its plan area.
pub(crate) fn keeps_faces(mesh: &NavMesh, canonical: &[u32], moves: &Moves) -> bool {
    let at = |i: u32| canonical.get(i as usize).copied().unwrap_or(i);
    let position = |i: u32| {
        moves
            .get(&at(i))
            .copied()
            .unwrap_or_else(|| mesh.vertex(i).map(f64::from))
    };
    let plan_area = |p: [[f64; 3]; 3]| {
        ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]))
            / 2.0
    };
    mesh.polygons.iter().enumerate().all(|(p, corners)| {
        let [Some(&x), Some(&y), Some(&z)] = [0, 1, 2].map(|k| corners.get(k)) else {
            return true;
        };
        if !mesh.is_walkable(p) || ![x, y, z].iter().any(|&i| moves.contains_key(&at(i))) {
            return true;
        }
        let before = plan_area([x, y, z].map(|i| mesh.vertex(i).map(f64::from)));
        let after = plan_area([x, y, z].map(position));
        before.abs() < 1e-9 || (after * before > 0.0 && after.abs() >= before.abs() / 10.0)
    })
}

/// Moves every vertex welded to a moved one; the number of (canonical) vertices that moved
/// and the largest move (m, in 3D).
pub(crate) fn move_welded(mesh: &mut NavMesh, canonical: &[u32], moves: &Moves) -> (usize, f64) {
    let (mut count, mut most) = (0, 0.0_f64);
    for (i, vertex) in mesh.vertices.iter_mut().enumerate() {
        let Some(to) = canonical.get(i).and_then(|c| moves.get(c)) else {
            continue;
        };
        let from = vertex.map(f64::from);
        let moved =
            ((to[0] - from[0]).powi(2) + (to[1] - from[1]).powi(2) + (to[2] - from[2]).powi(2))
                .sqrt();
        *vertex = to.map(|x| x as f32);
        if moved > 1e-6 && canonical.get(i) == Some(&(i as u32)) {
            count += 1;
            most = most.max(moved);
        }
    }
    (count, most)
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

    /// The KotOR preset's: two 0.1 m cells across and along, a 0.25 m climb.
    const FACING: Facing = Facing {
        across: 0.2,
        up: 0.25,
        min_overlap: 0.2,
    };

    /// A walkable floor at height `z` from the outline `ring` (counter-clockwise), fanned from
    /// its first corner.
    fn floor(ring: &[[f32; 2]], z: f32) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: ring.iter().map(|&[x, y]| [x, y, z]).collect(),
            ..NavMesh::default()
        };
        for k in 1..ring.len() - 1 {
            mesh.push_polygon(&[0, k as u32, k as u32 + 1], STONE);
        }
        mesh
    }

    fn square(x0: f32, z: f32) -> NavMesh {
        floor(
            &[[x0, 0.0], [x0 + 10.0, 0.0], [x0 + 10.0, 10.0], [x0, 10.0]],
            z,
        )
    }

    #[test]
    fn two_floors_a_gap_apart_meet_on_the_middle_line_and_nothing_else_moves() {
        let mut rooms = vec![square(0.0, 0.0), square(10.12, 0.2)];
        let aligned = align_facing_edges(&mut rooms, FACING);
        for a in &aligned {
            assert_eq!(a.vertices, 2);
            // 0.06 m across and 0.1 m up.
            assert!((a.max_move - 0.06_f64.hypot(0.1)).abs() < 1e-5, "{a:?}");
        }
        let seam = |mesh: &NavMesh, x: f32| {
            mesh.vertices
                .iter()
                .filter(|v| (v[0] - x).abs() < 1e-5 && (v[2] - 0.1).abs() < 1e-6)
                .count()
        };
        assert_eq!(seam(&rooms[0], 10.06), 2);
        assert_eq!(seam(&rooms[1], 10.06), 2);
        // The far sides stay.
        assert!(rooms[0].vertices.iter().any(|v| v == &[0.0, 0.0, 0.0]));
        assert!(rooms[1].vertices.iter().any(|v| v[0] > 20.1 && v[2] == 0.2));
        // Aligned once, nothing is left to move.
        assert_eq!(
            align_facing_edges(&mut rooms, FACING),
            vec![Aligned::default(); 2]
        );
    }

    #[test]
    fn edges_not_facing_each_other_stay() {
        // Floors on the same side of parallel edges (one room's floor under the other's).
        let mut same_side = vec![square(0.0, 0.0), square(0.1, 0.0)];
        // Too far apart across, too far up, and a corner pointing at the edge (its sides at
        // 45°).
        let mut far = vec![square(0.0, 0.0), square(10.3, 0.0)];
        let mut high = vec![square(0.0, 0.0), square(10.1, 0.3)];
        let mut crossing = vec![
            square(0.0, 0.0),
            floor(&[[10.1, 2.0], [15.0, -3.0], [15.0, 7.0]], 0.0),
        ];
        for (case, rooms) in [
            ("same side", &mut same_side),
            ("far", &mut far),
            ("high", &mut high),
            ("crossing", &mut crossing),
        ] {
            let before = rooms.clone();
            assert_eq!(
                align_facing_edges(rooms, FACING),
                vec![Aligned::default(); 2],
                "{case}"
            );
            assert_eq!(*rooms, before);
        }
    }

    #[test]
    fn a_walled_edge_or_a_move_that_would_fold_a_face_is_left_alone() {
        let mut walled = square(0.0, 0.0);
        walled.vertices.push([10.0, 0.0, 3.0]);
        walled.vertices.push([10.0, 10.0, 3.0]);
        walled.push_polygon(&[2, 1, 4], crate::walls::WALL);
        walled.push_polygon(&[2, 4, 5], crate::walls::WALL);
        // A sliver whose third corner lies 5 cm inside the edge: the middle line with a floor
        // overlapping it by 0.2 m lies 10 cm inside, past that corner.
        let sliver = floor(&[[10.0, 0.0], [10.0, 10.0], [9.95, 5.0]], 0.0);
        for (room, other) in [(walled, square(10.1, 0.0)), (sliver, square(9.8, 0.0))] {
            let mut rooms = vec![room, other];
            let before = rooms.clone();
            assert_eq!(
                align_facing_edges(&mut rooms, FACING),
                vec![Aligned::default(); 2]
            );
            assert_eq!(rooms, before);
        }
    }
}
