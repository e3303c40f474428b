//! Rebuilding the derived tables of a walkable-first triangle mesh the way game files have
//! them: normals and plane distances, adjacency by shared vertex indices among walkable
//! faces, edges and perimeters by the boundary walk, and a balanced AABB tree.

use walkmesh_core::passes::adjacency::{DEGENERATE, NO_NEIGHBOUR, NON_MANIFOLD};
use walkmesh_core::passes::{
    Adjacency, balanced_aabb_tree, boundary_loops, edge_adjacency, plane_distance, polygon_boxes,
    triangle_normal,
};
use walkmesh_core::{EdgeRef, NavMesh};

use crate::layout::{AABB_UNKNOWN, AabbNode};

/// Padding added on every side of a leaf box. BioWare's and K1CP's files pad leaves by about
/// 0.01 so that flat (e.g. horizontal) faces never get a zero-thickness box.
pub const LEAF_PADDING: f32 = 0.01;

/// Normals and plane distances of every face: n = normalize((v1−v0)×(v2−v0)), d = −n·v0
/// (with the normal as stored, in f32).
pub fn normals_and_distances(mesh: &NavMesh) -> (Vec<[f32; 3]>, Vec<f32>) {
    let mut normals = Vec::with_capacity(mesh.polygons.len());
    let mut distances = Vec::with_capacity(mesh.polygons.len());
    for face in mesh.polygons.iter() {
        let [a, b, c] = corners(mesh, face);
        let n = triangle_normal(a, b, c);
        normals.push(n);
        distances.push(plane_distance(n, a));
    }
    (normals, distances)
}

fn corners(mesh: &NavMesh, face: &[u32]) -> [[f32; 3]; 3] {
    let at = |k: usize| mesh.vertex(face.get(k).copied().unwrap_or(0));
    [at(0), at(1), at(2)]
}

/// Adjacency of the first `walkable` faces (which must be the walkable ones) with shared
/// vertex indices. Non-manifold and degenerate edges are left unlinked and count as boundary
/// edges, as in every tool that writes the table: the game then treats them as walls.
pub fn walkable_adjacency(mesh: &NavMesh, walkable: usize) -> Adjacency {
    let mut adjacency = edge_adjacency(mesh, |p| p < walkable);
    for value in &mut adjacency.neighbour {
        if *value == NON_MANIFOLD || *value == DEGENERATE {
            *value = NO_NEIGHBOUR;
        }
    }
    adjacency
}

/// The adjacency rows (3·face + edge of the neighbour, or −1) of the first `walkable` faces.
pub fn adjacency_rows(adjacency: &Adjacency, walkable: usize) -> Vec<[i32; 3]> {
    (0..walkable)
        .map(|face| {
            let mut row = [-1i32; 3];
            for (edge, slot) in row.iter_mut().enumerate() {
                if let Some(other) = adjacency.across(face * 3 + edge) {
                    *slot = i32::try_from(other).unwrap_or(-1);
                }
            }
            row
        })
        .collect()
}

/// Edges (3·face + edge, transition) and cumulative perimeter ends, by the boundary walk.
/// `transition` gives the tag of a face edge (−1 for none).
pub fn edges_and_perimeters(
    mesh: &NavMesh,
    adjacency: &Adjacency,
    transition: impl Fn(EdgeRef) -> i32,
) -> (Vec<(u32, i32)>, Vec<u32>) {
    let loops = boundary_loops(mesh, adjacency);
    let mut edges = Vec::new();
    let mut perimeters = Vec::with_capacity(loops.len());
    for boundary in &loops {
        for &edge in &boundary.edges {
            edges.push((edge.polygon * 3 + edge.edge, transition(edge)));
        }
        perimeters.push(edges.len() as u32);
    }
    (edges, perimeters)
}

/// A balanced AABB tree over all faces, in pre-order with 0-based child indices.
///
/// Each inner node splits its faces ⌊n/2⌋ | ⌈n/2⌉ (as BioWare's own trees do) by the face
/// centroids along the axis where the centroids spread widest, ties broken by face index so the
/// result is deterministic. Leaf boxes are the face's box padded by [`LEAF_PADDING`]; inner
/// boxes are the union of their children. The plane field carries the game's bit flags: +X 1,
/// +Y 2, +Z 4 when the second child lies on the positive side along the split axis, −X 8,
/// −Y 16, −Z 32 when the first does. Iterative, O(n log n) (selection, not sorting, per level).
pub fn aabb_tree(mesh: &NavMesh) -> Vec<AabbNode> {
    let (boxes, centroids) = polygon_boxes(mesh);
    let tree = balanced_aabb_tree(&boxes, &centroids, LEAF_PADDING);
    tree.iter()
        .map(|node| {
            let plane = match (
                node.item,
                tree.get(node.first as usize),
                tree.get(node.second as usize),
            ) {
                (None, Some(a), Some(b)) => {
                    let axis = usize::from(node.split_axis).min(2);
                    let centre = |n: &walkmesh_core::passes::AabbNode| {
                        f64::from(n.min[axis]) + f64::from(n.max[axis])
                    };
                    if centre(b) >= centre(a) {
                        1u32 << axis
                    } else {
                        8u32 << axis
                    }
                }
                _ => 0,
            };
            AabbNode {
                min: node.min,
                max: node.max,
                face: node.item.map_or(-1, |item| item as i32),
                unknown: AABB_UNKNOWN,
                plane,
                first: node.first,
                second: node.second,
            }
        })
        .collect()
}
