//! Whole areas: rooms meeting at a doorway share the vertices of their seam.
//!
//! KotOR's room transitions link two rooms' perimeter edges only when their endpoints
//! coincide (`walkmesh_kotor_area::transitions`, within 0.05 m across and 0.1 m up). Rooms
//! generated one by one can meet along the same doorway line with their floors' boundary
//! edges cut at different points (one room's seam is one 10 m edge, the next room's a 6 m
//! edge in its middle, or one has a vertex along the seam the other lacks); then no edge
//! pair matches and the area is disconnected in game. Before the transitions are solved,
//! every open walkable boundary edge of each room (a walkable edge of no other face: a walled
//! edge has its wall face on it and is left alone) takes the open boundary vertices of the
//! other rooms lying on its interior (within the tolerance across and up): they are put on
//! the edge's own line (projected, height interpolated along the edge) and the walkable
//! triangle owning the edge is cut into a fan from its opposite corner
//! ([`crate::walls::split_faces`], as a wall's end cuts an edge). No vertex moves, so each
//! floor's plane, area and outline are unchanged. Every room takes the other rooms' original
//! points in one pass, so both sides of a seam end up with the union of its vertices.

use std::collections::HashMap;

use walkmesh_core::NavMesh;

use crate::holes;
use crate::walls::{self, RimEdge};

/// How far a point may lie off an edge and still be on it: across in plan, and up from the
/// edge's height at that point (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub across: f64,
    pub up: f64,
}

/// The open boundary points of one room (area coordinates) and their plan bounding box.
struct RimPoints {
    points: Vec<[f64; 3]>,
    min: [f64; 2],
    max: [f64; 2],
}

/// Puts every room's open seam points on the other rooms' open boundary edges they lie on;
/// returns the number of vertices added to each room (in the order of `rooms`). A room
/// carrying per-face columns or edge tags (which a cut would have to carry) is left as it is.
pub fn share_seam_points(rooms: &mut [NavMesh], tolerance: Tolerance) -> Vec<usize> {
    let rims: Vec<RimPoints> = rooms.iter().map(rim_points).collect();
    rooms
        .iter_mut()
        .enumerate()
        .map(|(r, mesh)| {
            let Some(own) = rims.get(r) else {
                return 0;
            };
            let others: Vec<[f64; 3]> = rims
                .iter()
                .enumerate()
                .filter(|&(o, rim)| o != r && overlaps(own, rim, tolerance.across))
                .flat_map(|(_, rim)| rim.points.iter().copied())
                .collect();
            insert_points(mesh, &others, tolerance)
        })
        .collect()
}

/// The open walkable boundary edges of `mesh` (no other face, walkable or wall, on them).
fn open_rim(mesh: &NavMesh) -> Vec<RimEdge> {
    let canonical = holes::weld(mesh);
    walls::boundary_edges(mesh, &canonical)
}

/// The ends of the room's open boundary edges, once each.
fn rim_points(mesh: &NavMesh) -> RimPoints {
    let mut points: Vec<[f64; 3]> = open_rim(mesh)
        .iter()
        .flat_map(|e| [e.a, e.b])
        .map(|v| mesh.vertex(v).map(f64::from))
        .collect();
    points.sort_by(|x, y| {
        x.iter()
            .zip(y)
            .map(|(a, b)| a.total_cmp(b))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    points.dedup();
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    for p in &points {
        for k in 0..2 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    RimPoints { points, min, max }
}

/// Whether two rooms' rims come within `margin` of each other in plan (bounding boxes).
fn overlaps(a: &RimPoints, b: &RimPoints, margin: f64) -> bool {
    (0..2).all(|k| a.min[k] <= b.max[k] + margin && b.min[k] <= a.max[k] + margin)
}

/// Cuts the open boundary edges of `mesh` at the `points` lying on them; returns the number
/// of vertices added. A triangle with two open edges to cut is cut one edge per pass (the
/// fan's pieces carry its other edges into the next pass); the points are the same in every
/// pass, and an edge already holding them finds none on its pieces' interiors.
fn insert_points(mesh: &mut NavMesh, points: &[[f64; 3]], tolerance: Tolerance) -> usize {
    if points.is_empty() || !mesh.face_attributes.is_empty() || !mesh.edge_tags.is_empty() {
        return 0;
    }
    let mut inserted = 0;
    for _ in 0..3 {
        let mut splits: HashMap<usize, (usize, Vec<u32>)> = HashMap::new();
        for edge in open_rim(mesh) {
            if splits.contains_key(&edge.face) {
                continue;
            }
            let cuts = cuts_on_edge(mesh, &edge, points, tolerance);
            if cuts.is_empty() {
                continue;
            }
            let corners = mesh.polygons.get(edge.face);
            let Some(&c) = corners.get((edge.corner + 2) % 3) else {
                continue;
            };
            let spans: Vec<(f64, f64)> = std::iter::once(0.0)
                .chain(cuts.iter().copied())
                .zip(cuts.iter().copied().chain(std::iter::once(1.0)))
                .collect();
            if corners.len() != 3 || !walls::fan_wide_enough(mesh, &edge, c, &spans) {
                continue;
            }
            let inner: Vec<u32> = cuts
                .iter()
                .map(|&t| walls::point_on(mesh, &edge, t))
                .collect();
            inserted += inner.len();
            splits.insert(edge.face, (edge.corner, inner));
        }
        if splits.is_empty() {
            break;
        }
        walls::split_faces(mesh, &splits);
    }
    inserted
}

/// The fractions along `edge` (sorted) where `points` lie on its interior: within the
/// tolerance of its line across and of its height up, and farther than the tolerance along
/// it from its ends and from each other (closer ones already coincide for the solver).
fn cuts_on_edge(
    mesh: &NavMesh,
    edge: &RimEdge,
    points: &[[f64; 3]],
    tolerance: Tolerance,
) -> Vec<f64> {
    let (p, q) = (
        mesh.vertex(edge.a).map(f64::from),
        mesh.vertex(edge.b).map(f64::from),
    );
    let length = (q[0] - p[0]).hypot(q[1] - p[1]);
    if length <= 2.0 * tolerance.across {
        return Vec::new();
    }
    let along = [(q[0] - p[0]) / length, (q[1] - p[1]) / length];
    let mut cuts: Vec<f64> = points
        .iter()
        .filter_map(|o| {
            let d = [o[0] - p[0], o[1] - p[1]];
            let s = d[0] * along[0] + d[1] * along[1];
            let off = (d[0] * along[1] - d[1] * along[0]).abs();
            let t = s / length;
            let height = p[2] + t * (q[2] - p[2]);
            (s > tolerance.across
                && s < length - tolerance.across
                && off <= tolerance.across
                && (o[2] - height).abs() <= tolerance.up)
                .then_some(t)
        })
        .collect();
    cuts.sort_by(f64::total_cmp);
    let spacing = tolerance.across / length;
    let mut kept: Vec<f64> = Vec::with_capacity(cuts.len());
    for t in cuts {
        if kept.last().is_none_or(|&last| t - last > spacing) {
            kept.push(t);
        }
    }
    kept
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

    const TOLERANCE: Tolerance = Tolerance {
        across: 0.05,
        up: 0.1,
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

    /// Walkable area (3D) and plan area.
    fn areas(mesh: &NavMesh) -> (f64, f64) {
        let (mut true_area, mut plan) = (0.0, 0.0);
        for (p, c) in mesh.polygons.iter().enumerate() {
            if !mesh.is_walkable(p) {
                continue;
            }
            let [a, b, c] = [c[0], c[1], c[2]].map(|i| mesh.vertex(i).map(f64::from));
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [
                u[1] * w[2] - u[2] * w[1],
                u[2] * w[0] - u[0] * w[2],
                u[0] * w[1] - u[1] * w[0],
            ];
            true_area += (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() / 2.0;
            plan += n[2] / 2.0;
        }
        (true_area, plan)
    }

    #[test]
    fn a_wide_room_takes_the_narrow_rooms_seam_ends_and_nothing_moves() {
        // A: 10 m wide (y 0..10) ending at x = 10; B: 6 m wide (y 2..8) starting there,
        // 2 cm higher (within the vertical tolerance).
        let mut rooms = vec![
            floor(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]], 0.0),
            floor(&[[10.0, 2.0], [16.0, 2.0], [16.0, 8.0], [10.0, 8.0]], 0.02),
        ];
        let before: Vec<(f64, f64)> = rooms.iter().map(areas).collect();
        let vertices: Vec<Vec<[f32; 3]>> = rooms.iter().map(|m| m.vertices.clone()).collect();
        let added = share_seam_points(&mut rooms, TOLERANCE);
        assert_eq!(added, vec![2, 0]);
        for (r, mesh) in rooms.iter().enumerate() {
            let (a, p) = areas(mesh);
            assert!((a - before[r].0).abs() < 1e-4 && (p - before[r].1).abs() < 1e-4);
            // No vertex moved: the old ones are a prefix of the new list.
            assert_eq!(mesh.vertices[..vertices[r].len()], vertices[r][..]);
        }
        // The new vertices lie on A's edge, at A's height (projected, not B's 0.02).
        let new = &rooms[0].vertices[4..];
        let mut ys: Vec<f32> = new.iter().map(|v| v[1]).collect();
        ys.sort_by(f32::total_cmp);
        assert_eq!(ys, vec![2.0, 8.0]);
        assert!(new.iter().all(|v| v[0] == 10.0 && v[2] == 0.0));
        // A second pass finds nothing left to share.
        assert_eq!(share_seam_points(&mut rooms, TOLERANCE), vec![0, 0]);
    }

    #[test]
    fn an_edge_with_a_wall_face_on_it_is_left_alone() {
        let mut wide = floor(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]], 0.0);
        // A wall standing on the seam x = 10 (NonWalk strip on the floor's own vertices).
        wide.vertices.push([10.0, 0.0, 3.0]);
        wide.vertices.push([10.0, 10.0, 3.0]);
        wide.push_polygon(&[2, 1, 4], crate::walls::WALL);
        wide.push_polygon(&[2, 4, 5], crate::walls::WALL);
        let narrow = floor(&[[10.0, 2.0], [16.0, 2.0], [16.0, 8.0], [10.0, 8.0]], 0.0);
        let mut rooms = vec![wide, narrow];
        assert_eq!(share_seam_points(&mut rooms, TOLERANCE), vec![0, 0]);
    }

    #[test]
    fn points_off_the_line_or_height_are_not_taken() {
        let wide = floor(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]], 0.0);
        // 10 cm past the seam, and (second case) on it but 0.5 m up: neither is on the edge.
        for (x, z) in [(10.1_f32, 0.0_f32), (10.0, 0.5)] {
            let narrow = floor(&[[x, 2.0], [16.0, 2.0], [16.0, 8.0], [x, 8.0]], z);
            let mut rooms = vec![wide.clone(), narrow];
            assert_eq!(share_seam_points(&mut rooms, TOLERANCE), vec![0, 0]);
        }
    }
}
