//! Edge adjacency by shared vertex indices (never positions: real files duplicate vertices
//! on purpose to cut links).

use crate::ir::{EdgeRef, NavMesh};

/// No polygon on the other side.
pub const NO_NEIGHBOUR: u32 = u32::MAX;
/// Shared by more than two polygons: reported, never linked.
pub const NON_MANIFOLD: u32 = u32::MAX - 1;
/// Both ends are the same vertex (a polygon repeats a vertex).
pub const DEGENERATE: u32 = u32::MAX - 2;
/// The polygon was left out of the computation.
pub const EXCLUDED: u32 = u32::MAX - 3;

/// An edge used by more than two of the included polygons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonManifoldEdge {
    /// The two vertex indices, smaller first.
    pub vertices: [u32; 2],
    pub edges: Vec<EdgeRef>,
}

/// Neighbours of every half-edge. A half-edge id is a position in
/// [`crate::Polygons::indices`]: polygon `p`'s edge `e` is `first_index(p) + e`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjacency {
    /// The half-edge across each half-edge, or one of [`NO_NEIGHBOUR`], [`NON_MANIFOLD`],
    /// [`DEGENERATE`], [`EXCLUDED`].
    pub neighbour: Vec<u32>,
    pub non_manifold: Vec<NonManifoldEdge>,
    /// Linked pairs that run the same way (inconsistent winding between the two polygons).
    pub same_direction: Vec<[u32; 2]>,
}

impl Adjacency {
    /// The half-edge across `half_edge`, if there is exactly one.
    pub fn across(&self, half_edge: usize) -> Option<usize> {
        match self.neighbour.get(half_edge) {
            Some(&n) if n < EXCLUDED => Some(n as usize),
            _ => None,
        }
    }

    /// True when `half_edge` belongs to an included polygon and nothing lies across it.
    pub fn is_boundary(&self, half_edge: usize) -> bool {
        self.neighbour.get(half_edge) == Some(&NO_NEIGHBOUR)
    }
}

/// Links the edges of the polygons for which `include` is true when they share both vertex
/// indices. Edges shared by three or more polygons are listed in `non_manifold` and left
/// unlinked. O(n): bucketed by the smaller vertex index (counting sort), then each small
/// bucket sorted.
pub fn edge_adjacency(mesh: &NavMesh, include: impl Fn(usize) -> bool) -> Adjacency {
    let indices = mesh.polygons.indices();
    let vertex_count = mesh.vertices.len();
    let mut neighbour = vec![EXCLUDED; indices.len()];

    // Pass 1: count edges per smaller vertex.
    let mut bucket_start = vec![0u32; vertex_count + 1];
    let for_each_edge = |visit: &mut dyn FnMut(usize, u32, u32)| {
        for (polygon, vertices) in mesh.polygons.iter().enumerate() {
            if !include(polygon) {
                continue;
            }
            let first = mesh.polygons.first_index(polygon);
            for (e, &a) in vertices.iter().enumerate() {
                let b = vertices.get((e + 1) % vertices.len()).copied().unwrap_or(a);
                visit(first + e, a, b);
            }
        }
    };
    for_each_edge(&mut |half_edge, a, b| {
        if a == b {
            if let Some(slot) = neighbour.get_mut(half_edge) {
                *slot = DEGENERATE;
            }
        } else if let Some(count) = bucket_start.get_mut(a.min(b) as usize + 1) {
            *count += 1;
        }
    });
    for i in 1..bucket_start.len() {
        bucket_start[i] += bucket_start[i - 1];
    }
    // Pass 2: place (larger vertex, half-edge) into the buckets.
    let total = bucket_start.last().copied().unwrap_or(0) as usize;
    let mut entries = vec![(0u32, 0u32); total];
    let mut fill = bucket_start.clone();
    for_each_edge(&mut |half_edge, a, b| {
        if a == b {
            return;
        }
        if let Some(slot) = fill.get_mut(a.min(b) as usize) {
            if let Some(entry) = entries.get_mut(*slot as usize) {
                *entry = (a.max(b), half_edge as u32);
            }
            *slot += 1;
        }
    });

    let mut non_manifold = Vec::new();
    let mut same_direction = Vec::new();
    let start_vertex = |half_edge: u32| indices.get(half_edge as usize).copied().unwrap_or(0);
    for (low, window) in bucket_start.windows(2).enumerate() {
        let (begin, end) = (window[0] as usize, window[1] as usize);
        let Some(bucket) = entries.get_mut(begin..end) else {
            continue;
        };
        bucket.sort_unstable();
        let mut run_start = 0;
        while run_start < bucket.len() {
            let high = bucket[run_start].0;
            let mut run_end = run_start + 1;
            while run_end < bucket.len() && bucket[run_end].0 == high {
                run_end += 1;
            }
            match &bucket[run_start..run_end] {
                [(_, only)] => neighbour[*only as usize] = NO_NEIGHBOUR,
                [(_, x), (_, y)] => {
                    neighbour[*x as usize] = *y;
                    neighbour[*y as usize] = *x;
                    if start_vertex(*x) == start_vertex(*y) {
                        same_direction.push([*x, *y]);
                    }
                }
                many => {
                    for (_, half_edge) in many {
                        neighbour[*half_edge as usize] = NON_MANIFOLD;
                    }
                    non_manifold.push(NonManifoldEdge {
                        vertices: [low as u32, high],
                        edges: many
                            .iter()
                            .map(|(_, h)| mesh.polygons.edge_of_half_edge(*h as usize))
                            .collect(),
                    });
                }
            }
            run_start = run_end;
        }
    }
    Adjacency {
        neighbour,
        non_manifold,
        same_direction,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{NavMesh, Surface};
    use crate::material::Material;

    pub(crate) fn mesh(vertex_count: usize, polygons: &[&[u32]]) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; vertex_count],
            ..NavMesh::default()
        };
        for polygon in polygons {
            mesh.push_polygon(
                polygon,
                Surface {
                    material: Material(4),
                    walkable: true,
                    code: 4,
                },
            );
        }
        mesh
    }

    #[test]
    fn two_triangles_share_their_diagonal() {
        // 3---2
        // | / |
        // 0---1   triangles (0,1,2) and (0,2,3): the diagonal 2->0 / 0->2.
        let m = mesh(4, &[&[0, 1, 2], &[0, 2, 3]]);
        let adjacency = edge_adjacency(&m, |_| true);
        assert_eq!(adjacency.across(2), Some(3)); // tri0 edge2 (2->0) ~ tri1 edge0 (0->2)
        assert_eq!(adjacency.across(3), Some(2));
        for boundary in [0, 1, 4, 5] {
            assert!(adjacency.is_boundary(boundary), "{boundary}");
        }
        assert!(adjacency.non_manifold.is_empty());
        assert!(adjacency.same_direction.is_empty());
    }

    #[test]
    fn shared_positions_without_shared_indices_do_not_link() {
        let m = mesh(6, &[&[0, 1, 2], &[3, 4, 5]]);
        let adjacency = edge_adjacency(&m, |_| true);
        assert!((0..6).all(|h| adjacency.is_boundary(h)));
    }

    #[test]
    fn fin_edge_is_reported_not_linked() {
        let m = mesh(5, &[&[0, 1, 2], &[1, 0, 3], &[0, 1, 4]]);
        let adjacency = edge_adjacency(&m, |_| true);
        assert_eq!(adjacency.non_manifold.len(), 1);
        assert_eq!(adjacency.non_manifold[0].vertices, [0, 1]);
        assert_eq!(adjacency.non_manifold[0].edges.len(), 3);
        assert_eq!(adjacency.neighbour[0], NON_MANIFOLD);
        assert_eq!(adjacency.across(0), None);
        assert!(!adjacency.is_boundary(0));
    }

    #[test]
    fn excluded_polygons_and_flipped_neighbours() {
        let m = mesh(4, &[&[0, 1, 2], &[2, 1, 3], &[0, 2, 3]]);
        let adjacency = edge_adjacency(&m, |p| p != 1);
        assert_eq!(adjacency.neighbour[3], EXCLUDED);
        assert!(adjacency.is_boundary(1)); // 1->2 borders only the excluded polygon
        let flipped = mesh(4, &[&[0, 1, 2], &[1, 2, 3]]);
        let adjacency = edge_adjacency(&flipped, |_| true);
        assert_eq!(adjacency.across(1), Some(3));
        assert_eq!(adjacency.same_direction, vec![[1, 3]]);
    }

    #[test]
    fn repeated_vertex_gives_degenerate_edge() {
        let m = mesh(3, &[&[0, 1, 1, 2]]);
        let adjacency = edge_adjacency(&m, |_| true);
        assert_eq!(adjacency.neighbour[1], DEGENERATE);
    }
}
