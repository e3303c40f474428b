//! Unlinked seams: walkable edges that lie on another walkable edge (both ends within
//! [`SEAM_TOLERANCE`]) but are not linked to it, because the two polygons use different
//! (coincident) vertices. Modelling
//! tools duplicate vertices where materials, primitives or objects meet; adjacency is by
//! vertex index, so such a seam cuts the walkable region in two without anything looking
//! wrong. Welding (`walkmesh convert --weld`) joins them.

use rustc_hash::FxHashMap;

use crate::ir::{EdgeRef, NavMesh};
use crate::passes::adjacency::{Adjacency, NO_NEIGHBOUR};
use crate::passes::weld::weld_positions;

/// Distance within which two vertices count as the same place for seam detection: 0.0001
/// units (0.1 mm in metres), far below any walkmesh feature, far above the rounding of a
/// transform applied along two different paths (parent × child against the parent alone).
pub const SEAM_TOLERANCE: f32 = 1e-4;

/// The walkable edges (as `(polygon, edge)`) that have no neighbour by vertex index but
/// whose two ends lie within [`SEAM_TOLERANCE`] of those of another such unlinked walkable
/// edge, in polygon/edge order. `adjacency` must be the walkable adjacency of `mesh`
/// (`edge_adjacency(mesh, |p| mesh.is_walkable(p))`). An edge already linked on both sides
/// cannot take a third, so only unlinked edges are partners. Linear expected time, and only
/// the unlinked edges' ends are gridded: the walkable boundary, a small part of a mesh.
pub fn unlinked_coincident_edges(mesh: &NavMesh, adjacency: &Adjacency) -> Vec<EdgeRef> {
    // (polygon, edge, first vertex, second vertex) of every unlinked walkable edge.
    let mut unlinked: Vec<(u32, u32, u32, u32)> = Vec::new();
    for (p, vertices) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let first = mesh.polygons.first_index(p);
        for (e, &a) in vertices.iter().enumerate() {
            let b = vertices.get((e + 1) % vertices.len()).copied().unwrap_or(a);
            if a != b && adjacency.neighbour.get(first + e) == Some(&NO_NEIGHBOUR) {
                unlinked.push((p as u32, e as u32, a, b));
            }
        }
    }
    if unlinked.len() < 2 {
        return Vec::new();
    }
    // Local numbering of the vertices these edges use, then their places.
    let mut local: FxHashMap<u32, u32> = FxHashMap::default();
    let mut points: Vec<[f32; 3]> = Vec::new();
    let mut local_of = |v: u32| {
        *local.entry(v).or_insert_with(|| {
            points.push(mesh.vertices.get(v as usize).copied().unwrap_or([0.0; 3]));
            (points.len() - 1) as u32
        })
    };
    let ends: Vec<[u32; 2]> = unlinked
        .iter()
        .map(|&(_, _, a, b)| [local_of(a), local_of(b)])
        .collect();
    let (place_map, _) = weld_positions(&points, SEAM_TOLERANCE);
    let place = |v: u32| place_map.get(v as usize).copied().unwrap_or(v);
    let keys: Vec<Option<[u32; 2]>> = ends
        .iter()
        .map(|&[a, b]| {
            let (ka, kb) = (place(a), place(b));
            (ka != kb).then_some(if ka <= kb { [ka, kb] } else { [kb, ka] })
        })
        .collect();
    let mut uses: FxHashMap<[u32; 2], u32> = FxHashMap::default();
    for key in keys.iter().flatten() {
        *uses.entry(*key).or_insert(0) += 1;
    }
    unlinked
        .iter()
        .zip(&keys)
        .filter(|(_, key)| key.is_some_and(|k| uses.get(&k).is_some_and(|&n| n >= 2)))
        .map(|(&(p, e, _, _), _)| EdgeRef {
            polygon: p,
            edge: e,
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;
    use crate::passes::edge_adjacency;

    fn surface(walkable: bool) -> Surface {
        Surface {
            material: Material(if walkable { 4 } else { 7 }),
            walkable,
            code: 0,
        }
    }

    /// Two unit squares side by side (x 0..1 and 1..2) as triangles; `shared` decides
    /// whether the right square reuses the left one's vertices on x = 1 or has its own.
    fn squares(shared: bool, right_walkable: bool) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], surface(true));
        mesh.push_polygon(&[0, 2, 3], surface(true));
        let (b, c) = if shared { (1, 2) } else { (6, 7) };
        mesh.push_polygon(&[b, 4, 5], surface(right_walkable));
        mesh.push_polygon(&[b, 5, c], surface(right_walkable));
        mesh
    }

    fn seams(mesh: &NavMesh) -> Vec<EdgeRef> {
        let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
        unlinked_coincident_edges(mesh, &adjacency)
    }

    #[test]
    fn duplicated_vertices_leave_a_seam_on_both_sides() {
        // Left square's edge 1 of triangle 0 runs (1,0)→(1,1); the right square's edge 2 of
        // triangle 3 runs (1,1)→(1,0) on duplicates.
        assert_eq!(
            seams(&squares(false, true)),
            vec![
                EdgeRef {
                    polygon: 0,
                    edge: 1
                },
                EdgeRef {
                    polygon: 3,
                    edge: 2
                }
            ]
        );
    }

    #[test]
    fn shared_vertices_or_a_wall_beside_are_no_seam() {
        assert!(seams(&squares(true, true)).is_empty());
        // Non-walkable on the other side: no walkable edge to link to.
        assert!(seams(&squares(false, false)).is_empty());
    }

    #[test]
    fn near_misses_within_the_tolerance_are_seams_too() {
        let mut mesh = squares(false, true);
        mesh.vertices[1] = [1.0, -0.0, 0.0];
        assert_eq!(seams(&mesh).len(), 2);
        // One ulp off, as a transform applied along two paths leaves it.
        mesh.vertices[6][0] = f32::from_bits(1.0f32.to_bits() + 1);
        assert_eq!(seams(&mesh).len(), 2);
        // A real gap is no seam.
        mesh.vertices[6][0] = 1.01;
        mesh.vertices[7][0] = 1.01;
        assert!(seams(&mesh).is_empty());
    }
}
