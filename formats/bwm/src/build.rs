//! Rebuilding the derived tables of a walkable-first triangle mesh the way game files have
//! them: normals and plane distances, adjacency by shared vertex indices among walkable
//! faces, edges and perimeters by the boundary walk, and a balanced AABB tree.

use walkmesh_core::passes::adjacency::{DEGENERATE, NO_NEIGHBOUR, NON_MANIFOLD};
use walkmesh_core::passes::{
    Adjacency, boundary_loops, edge_adjacency, plane_distance, triangle_normal,
};
use walkmesh_core::{EdgeRef, NavMesh};

use crate::layout::{AABB_UNKNOWN, AabbNode, NONE};

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
    let face_count = mesh.polygons.len();
    if face_count == 0 {
        return Vec::new();
    }
    let mut boxes = Vec::with_capacity(face_count);
    // (centroid, face): selected in place, contiguous, so each level is one linear pass.
    let mut items: Vec<([f32; 3], u32)> = Vec::with_capacity(face_count);
    for (face, vertices) in mesh.polygons.iter().enumerate() {
        let [a, b, c] = corners(mesh, vertices);
        let mut min = a;
        let mut max = a;
        for p in [b, c] {
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        boxes.push((min, max));
        let centroid =
            [0, 1, 2].map(|k| ((f64::from(a[k]) + f64::from(b[k]) + f64::from(c[k])) / 3.0) as f32);
        items.push((centroid, face as u32));
    }

    let node_count = 2 * face_count - 1;
    let empty = AabbNode {
        min: [0.0; 3],
        max: [0.0; 3],
        face: -1,
        unknown: AABB_UNKNOWN,
        plane: 0,
        first: NONE,
        second: NONE,
    };
    let mut nodes = vec![empty; node_count];
    let mut axes = vec![0u8; node_count];
    // (node index, start, end) of ranges of `items` still to place.
    let mut stack = vec![(0usize, 0usize, face_count)];
    while let Some((node, start, end)) = stack.pop() {
        let Some(range) = items.get_mut(start..end) else {
            continue;
        };
        if let [(_, face)] = range {
            let (min, max) = boxes
                .get(*face as usize)
                .copied()
                .unwrap_or(([0.0; 3], [0.0; 3]));
            if let Some(slot) = nodes.get_mut(node) {
                slot.min = min.map(|v| v - LEAF_PADDING);
                slot.max = max.map(|v| v + LEAF_PADDING);
                slot.face = *face as i32;
            }
            continue;
        }
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for (c, _) in range.iter() {
            for k in 0..3 {
                // Plain comparisons (NaN never wins) compile to branch-free min/max; this loop
                // is the builder's hot spot.
                if c[k] < lo[k] {
                    lo[k] = c[k];
                }
                if c[k] > hi[k] {
                    hi[k] = c[k];
                }
            }
        }
        let spread = [0, 1, 2].map(|k| hi[k] - lo[k]);
        let mut axis = 0;
        for k in 1..3 {
            // `>`: ties keep the lower axis; NaN spreads are never chosen over a number.
            if spread[k] > spread[axis] || spread[axis].is_nan() {
                axis = k;
            }
        }
        let half = range.len() / 2;
        range.select_nth_unstable_by(half, |a, b| {
            a.0[axis].total_cmp(&b.0[axis]).then(a.1.cmp(&b.1))
        });
        let first = node + 1;
        let second = node + 2 * half;
        if let Some(slot) = nodes.get_mut(node) {
            slot.first = first as u32;
            slot.second = second as u32;
        }
        if let Some(slot) = axes.get_mut(node) {
            *slot = axis as u8;
        }
        stack.push((second, start + half, end));
        stack.push((first, start, start + half));
    }
    // Children come after their parent in pre-order: one backward pass fills inner boxes.
    for node in (0..node_count).rev() {
        let Some(&current) = nodes.get(node) else {
            continue;
        };
        if current.face >= 0 {
            continue;
        }
        let (Some(&a), Some(&b)) = (
            nodes.get(current.first as usize),
            nodes.get(current.second as usize),
        ) else {
            continue;
        };
        let axis = usize::from(axes.get(node).copied().unwrap_or(0)).min(2);
        let centre = |n: &AabbNode| f64::from(n.min[axis]) + f64::from(n.max[axis]);
        let plane = if centre(&b) >= centre(&a) {
            1u32 << axis
        } else {
            8u32 << axis
        };
        if let Some(slot) = nodes.get_mut(node) {
            slot.min = [0, 1, 2].map(|k| a.min[k].min(b.min[k]));
            slot.max = [0, 1, 2].map(|k| a.max[k].max(b.max[k]));
            slot.plane = plane;
        }
    }
    nodes
}
