//! Rebuilding the derived tables of a walkable-first triangle mesh the way game files have
//! them: normals and plane distances, adjacency by shared vertex indices among walkable
//! faces, edges and perimeters by the boundary walk, and a balanced AABB tree.

use walkmesh_core::passes::aabb::{Bounds, union};
use walkmesh_core::passes::adjacency::{DEGENERATE, NO_NEIGHBOUR, NON_MANIFOLD};
use walkmesh_core::passes::{
    Adjacency, TreeNodes, boundary_loops, build_tree_in, edge_adjacency, plane_distance,
    polygon_boxes, triangle_normal,
};
use walkmesh_core::{EdgeRef, NavMesh};

use crate::layout::{AABB_NODE_SIZE, AABB_UNKNOWN, AabbNode, NONE};

/// Padding added on every side of a leaf box. BioWare's and K1CP's files pad leaves by about
/// 0.01 so that flat (e.g. horizontal) faces never get a zero-thickness box.
pub const LEAF_PADDING: f32 = 0.01;

/// Normals and plane distances of every face: n = normalize((v1−v0)×(v2−v0)), d = −n·v0
/// (with the normal as stored, in f32).
pub fn normals_and_distances(mesh: &NavMesh) -> (Vec<[f32; 3]>, Vec<f32>) {
    let mut normals = Vec::with_capacity(mesh.polygons.len());
    let mut distances = Vec::with_capacity(mesh.polygons.len());
    for face in mesh.polygons.iter() {
        let (n, d) = normal_and_distance(mesh, face);
        normals.push(n);
        distances.push(d);
    }
    (normals, distances)
}

/// The normal and plane distance of one face (see [`normals_and_distances`]).
pub fn normal_and_distance(mesh: &NavMesh, face: &[u32]) -> ([f32; 3], f32) {
    let [a, b, c] = corners(mesh, face);
    let n = triangle_normal(a, b, c);
    (n, plane_distance(n, a))
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
        .map(|face| adjacency_row(adjacency, face))
        .collect()
}

/// The adjacency row of face `face` (see [`adjacency_rows`]).
pub fn adjacency_row(adjacency: &Adjacency, face: usize) -> [i32; 3] {
    let mut row = [-1i32; 3];
    for (edge, slot) in row.iter_mut().enumerate() {
        if let Some(other) = adjacency.across(face * 3 + edge) {
            *slot = i32::try_from(other).unwrap_or(-1);
        }
    }
    row
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
    let mut stored = vec![[0u8; AABB_NODE_SIZE]; (2 * mesh.polygons.len()).saturating_sub(1)];
    aabb_tree_into(mesh, &mut stored);
    stored.iter().map(StoredNodes::decode).collect()
}

/// [`aabb_tree`] built straight into the AABB table of a file: `nodes` must hold
/// `2F − 1` records for the mesh's F faces (else nothing is written and `false` is returned);
/// every record is written whatever it held before.
pub fn aabb_tree_into(mesh: &NavMesh, nodes: &mut [[u8; AABB_NODE_SIZE]]) -> bool {
    let (boxes, centroids) = polygon_boxes(mesh);
    build_tree_in::<StoredNodes>(&boxes, &centroids, LEAF_PADDING, nodes)
}

/// BWM AABB records as stored (44 bytes, little-endian: min, max, face, unknown, plane,
/// first, second), filled by the core tree builder. Between [`TreeNodes::set_inner`] and
/// [`TreeNodes::close_inner`] an inner node's plane word holds its split axis; closing turns
/// it into the flag of the side its second child lies on.
struct StoredNodes;

type Stored = [u8; AABB_NODE_SIZE];

const FACE: usize = 6;
const UNKNOWN: usize = 7;
const PLANE: usize = 8;
const FIRST: usize = 9;
const SECOND: usize = 10;

impl StoredNodes {
    fn word(node: &Stored, k: usize) -> u32 {
        node.as_chunks::<4>()
            .0
            .get(k)
            .map_or(0, |w| u32::from_le_bytes(*w))
    }

    fn set(node: &mut Stored, k: usize, value: u32) {
        if let Some(w) = node.as_chunks_mut::<4>().0.get_mut(k) {
            *w = value.to_le_bytes();
        }
    }

    fn bounds(node: &Stored) -> Bounds {
        let f = |k: usize| f32::from_bits(Self::word(node, k));
        ([f(0), f(1), f(2)], [f(3), f(4), f(5)])
    }

    fn set_bounds(node: &mut Stored, (min, max): Bounds) {
        for (k, v) in min.into_iter().chain(max).enumerate() {
            Self::set(node, k, v.to_bits());
        }
    }

    fn decode(node: &Stored) -> AabbNode {
        let (min, max) = Self::bounds(node);
        AabbNode {
            min,
            max,
            face: Self::word(node, FACE) as i32,
            unknown: Self::word(node, UNKNOWN),
            plane: Self::word(node, PLANE),
            first: Self::word(node, FIRST),
            second: Self::word(node, SECOND),
        }
    }
}

impl TreeNodes for StoredNodes {
    type Node = Stored;
    fn set_leaf(node: &mut Stored, min: [f32; 3], max: [f32; 3], item: u32) {
        Self::set_bounds(node, (min, max));
        // A face index beyond i32 cannot be stored (the file's offsets are 32-bit); −1 would
        // make it an inner node, so saturate instead.
        Self::set(node, FACE, i32::try_from(item).unwrap_or(i32::MAX) as u32);
        Self::set(node, UNKNOWN, AABB_UNKNOWN);
        Self::set(node, PLANE, 0);
        Self::set(node, FIRST, NONE);
        Self::set(node, SECOND, NONE);
    }
    fn set_inner(node: &mut Stored, first: u32, second: u32, axis: u8) {
        Self::set(node, FACE, -1i32 as u32);
        Self::set(node, UNKNOWN, AABB_UNKNOWN);
        Self::set(node, PLANE, u32::from(axis));
        Self::set(node, FIRST, first);
        Self::set(node, SECOND, second);
    }
    fn is_leaf(node: &Stored) -> bool {
        (Self::word(node, FACE) as i32) >= 0
    }
    fn children(node: &Stored) -> (u32, u32) {
        (Self::word(node, FIRST), Self::word(node, SECOND))
    }
    fn close_inner(node: &mut Stored, first: &Stored, second: &Stored) {
        let (a, b) = (Self::bounds(first), Self::bounds(second));
        Self::set_bounds(node, union(a, b));
        let axis = (Self::word(node, PLANE) as usize).min(2);
        let centre = |(min, max): Bounds| f64::from(min[axis]) + f64::from(max[axis]);
        let plane = if centre(b) >= centre(a) {
            1u32 << axis
        } else {
            8u32 << axis
        };
        Self::set(node, PLANE, plane);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::passes::balanced_aabb_tree;
    use walkmesh_core::{Material, Surface};

    /// The table as it was made before the nodes were built in place: the core tree, then
    /// each node converted with its plane flag from its children's final boxes.
    fn converted_tree(mesh: &NavMesh) -> Vec<AabbNode> {
        let (boxes, centroids) = polygon_boxes(mesh);
        let tree = balanced_aabb_tree(&boxes, &centroids, LEAF_PADDING);
        tree.iter()
            .map(|node| {
                let plane = match node.item {
                    None => {
                        let (a, b) = (&tree[node.first as usize], &tree[node.second as usize]);
                        let axis = usize::from(node.split_axis);
                        let centre = |n: &walkmesh_core::passes::AabbNode| {
                            f64::from(n.min[axis]) + f64::from(n.max[axis])
                        };
                        if centre(b) >= centre(a) {
                            1u32 << axis
                        } else {
                            8u32 << axis
                        }
                    }
                    Some(_) => 0,
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

    /// Scattered triangles of varied size and slope, enough of them for the threaded build,
    /// with repeated positions so that ties are broken by face index.
    fn scattered(count: u32) -> NavMesh {
        let mut mesh = NavMesh::default();
        let mut state = 0x2545_f491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 4000) as f32 / 16.0 - 120.0
        };
        let surface = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        for _ in 0..count {
            let base = mesh.vertices.len() as u32;
            let (x, y, z) = (next(), next(), next() / 20.0);
            let size = 0.5 + next().abs() / 60.0;
            mesh.vertices.push([x, y, z]);
            mesh.vertices.push([x + size, y, z + next() / 100.0]);
            mesh.vertices.push([x, y - size, z]);
            mesh.push_polygon(&[base, base + 1, base + 2], surface);
        }
        mesh
    }

    #[test]
    fn the_tree_built_in_place_equals_the_converted_core_tree() {
        for count in [1, 2, 3, 7, 100, 70_001] {
            let mesh = scattered(count);
            let built = aabb_tree(&mesh);
            assert_eq!(built.len(), 2 * count as usize - 1);
            assert!(built == converted_tree(&mesh), "{count} faces");
        }
        assert!(aabb_tree(&NavMesh::default()).is_empty());
    }
}
