//! Boundary edges and closed boundary loops of a region (usually the walkable polygons).

use std::collections::HashMap;

use crate::ir::{EdgeRef, NavMesh};
use crate::passes::adjacency::Adjacency;

/// One chain of boundary edges.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundaryLoop {
    pub edges: Vec<EdgeRef>,
    /// True when the last edge ends where the first begins.
    pub closed: bool,
    /// Shoelace area of the loop projected on XY: positive for counter-clockwise (outer
    /// loops of a counter-clockwise region seen from +Z), negative for holes.
    pub signed_area: f64,
}

impl BoundaryLoop {
    /// An outer loop (counter-clockwise seen from +Z) rather than a hole.
    pub fn is_outer(&self) -> bool {
        self.signed_area > 0.0
    }
}

/// Steps tried when rotating around a vertex before falling back to a vertex lookup.
const MAX_FAN_STEPS: usize = 4096;

/// Walks the boundary half-edges of `adjacency` into loops.
///
/// Order is deterministic and is the one KotOR's perimeter tables use: polygons ascending,
/// edges ascending; every not-yet-walked boundary edge starts a loop. From a boundary edge the
/// walk continues with the next edge of the same polygon; while that edge has a neighbour it
/// crosses to the neighbour's next edge, turning around the shared vertex, until it meets a
/// boundary edge. A loop ends when it reaches an edge already walked (closed when that is its
/// first edge). Where the turn cannot be made (non-manifold edges, flipped neighbours) the
/// walk takes any unwalked boundary edge that starts at the vertex.
pub fn boundary_loops(mesh: &NavMesh, adjacency: &Adjacency) -> Vec<BoundaryLoop> {
    let polygons = &mesh.polygons;
    let indices = polygons.indices();
    let half_edge_count = indices.len();
    let mut walked = vec![false; half_edge_count];
    // Built only if a walk needs the fallback.
    let mut by_start: Option<HashMap<u32, Vec<usize>>> = None;

    let polygon_of = |half_edge: usize| polygons.edge_of_half_edge(half_edge);
    let next_in_polygon = |half_edge: usize| -> usize {
        let EdgeRef { polygon, edge } = polygon_of(half_edge);
        let first = polygons.first_index(polygon as usize);
        let len = polygons.get(polygon as usize).len();
        first + (edge as usize + 1) % len.max(1)
    };
    let start_of = |half_edge: usize| indices.get(half_edge).copied().unwrap_or(u32::MAX);

    let mut loops = Vec::new();
    for start in 0..half_edge_count {
        if walked[start] || !adjacency.is_boundary(start) {
            continue;
        }
        let mut edges = Vec::new();
        let mut current = start;
        let mut closed = false;
        loop {
            walked[current] = true;
            edges.push(polygon_of(current));
            let end_vertex = start_of(next_in_polygon(current));
            // Turn around `end_vertex` through the fan of polygons.
            let mut candidate = next_in_polygon(current);
            let mut next = None;
            for _ in 0..MAX_FAN_STEPS {
                if start_of(candidate) != end_vertex {
                    break;
                }
                if adjacency.is_boundary(candidate) {
                    next = Some(candidate);
                    break;
                }
                match adjacency.across(candidate) {
                    Some(other) => candidate = next_in_polygon(other),
                    None => break,
                }
            }
            let next = match next {
                Some(n) => Some(n),
                None => {
                    let map = by_start.get_or_insert_with(|| {
                        let mut map: HashMap<u32, Vec<usize>> = HashMap::new();
                        for h in (0..half_edge_count).filter(|&h| adjacency.is_boundary(h)) {
                            map.entry(start_of(h)).or_default().push(h);
                        }
                        map
                    });
                    map.get(&end_vertex).and_then(|candidates| {
                        candidates
                            .iter()
                            .copied()
                            .find(|&h| !walked[h])
                            .or_else(|| candidates.iter().copied().find(|&h| h == start))
                    })
                }
            };
            match next {
                Some(n) if n == start => {
                    closed = true;
                    break;
                }
                Some(n) if !walked[n] => current = n,
                _ => break,
            }
        }
        let signed_area = loop_signed_area(mesh, &edges);
        loops.push(BoundaryLoop {
            edges,
            closed,
            signed_area,
        });
    }
    loops
}

/// Shoelace area on XY of the chain of edges' start vertices.
fn loop_signed_area(mesh: &NavMesh, edges: &[EdgeRef]) -> f64 {
    let points: Vec<[f32; 3]> = edges
        .iter()
        .map(|edge| {
            let polygon = mesh.polygons.get(edge.polygon as usize);
            mesh.vertex(polygon.get(edge.edge as usize).copied().unwrap_or(0))
        })
        .collect();
    let mut twice_area = 0.0f64;
    for (i, a) in points.iter().enumerate() {
        let b = points.get((i + 1) % points.len()).unwrap_or(a);
        twice_area += f64::from(a[0]) * f64::from(b[1]) - f64::from(b[0]) * f64::from(a[1]);
    }
    twice_area / 2.0
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;
    use crate::passes::adjacency::edge_adjacency;

    fn grid_mesh(points: &[[f32; 2]], polygons: &[&[u32]]) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: points.iter().map(|p| [p[0], p[1], 0.0]).collect(),
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
    fn square_of_two_triangles_has_one_ccw_loop() {
        let mesh = grid_mesh(
            &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
            &[&[0, 1, 2], &[0, 2, 3]],
        );
        let loops = boundary_loops(&mesh, &edge_adjacency(&mesh, |_| true));
        assert_eq!(loops.len(), 1);
        let l = &loops[0];
        assert!(l.closed);
        assert!((l.signed_area - 1.0).abs() < 1e-12);
        // Starts at the lowest boundary edge (tri 0 edge 0), then tri 0 edge 1, then across the
        // diagonal into tri 1 edge 1 and edge 2.
        let order: Vec<(u32, u32)> = l.edges.iter().map(|e| (e.polygon, e.edge)).collect();
        assert_eq!(order, vec![(0, 0), (0, 1), (1, 1), (1, 2)]);
    }

    #[test]
    fn frame_has_outer_loop_and_clockwise_hole() {
        // 4x4 outer square with a 2x2 hole, as 8 quads around the hole.
        //  12 13 14 15
        //   8  9 10 11
        //   4  5  6  7
        //   0  1  2  3
        let mut points = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                points.push([x as f32, y as f32]);
            }
        }
        let quad = |x: u32, y: u32| {
            let a = y * 4 + x;
            [a, a + 1, a + 5, a + 4]
        };
        let quads: Vec<[u32; 4]> = [
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ]
        .iter()
        .map(|&(x, y)| quad(x, y))
        .collect();
        let refs: Vec<&[u32]> = quads.iter().map(|q| &q[..]).collect();
        let mesh = grid_mesh(&points, &refs);
        let loops = boundary_loops(&mesh, &edge_adjacency(&mesh, |_| true));
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.closed));
        let outer: Vec<_> = loops.iter().filter(|l| l.is_outer()).collect();
        let holes: Vec<_> = loops.iter().filter(|l| !l.is_outer()).collect();
        assert_eq!(outer.len(), 1);
        assert_eq!(holes.len(), 1);
        assert!((outer[0].signed_area - 9.0).abs() < 1e-12);
        assert!((holes[0].signed_area + 1.0).abs() < 1e-12);
        assert_eq!(outer[0].edges.len(), 12);
        assert_eq!(holes[0].edges.len(), 4);
    }

    #[test]
    fn bow_tie_pinch_gives_two_loops() {
        // Two triangles touching at vertex 2 only.
        let mesh = grid_mesh(
            &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [2.0, 2.0]],
            &[&[0, 1, 2], &[2, 3, 4]],
        );
        let loops = boundary_loops(&mesh, &edge_adjacency(&mesh, |_| true));
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.closed && l.edges.len() == 3));
    }

    #[test]
    fn empty_region_has_no_loops() {
        let mesh = grid_mesh(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], &[&[0, 1, 2]]);
        let loops = boundary_loops(&mesh, &edge_adjacency(&mesh, |_| false));
        assert!(loops.is_empty());
    }
}
