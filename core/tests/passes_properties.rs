#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Property tests of the passes on random grid regions, against independent computations:
//! flood fill for components, cell counts for areas.

use proptest::prelude::*;
use walkmesh_core::{
    Diagnostics, Material, NavMesh, Surface,
    passes::{
        boundary_loops, connected_components, edge_adjacency, polygon_area, triangulate, weld,
    },
};

const SIZE: usize = 7;

fn stone(walkable: bool) -> Surface {
    Surface {
        material: Material(if walkable { 4 } else { 7 }),
        walkable,
        code: 0,
    }
}

/// A grid mesh of unit quads: `cells[y][x]` = Some(walkable) for a present cell.
fn grid(cells: &[Vec<Option<bool>>], split: bool) -> NavMesh {
    let mut mesh = NavMesh::default();
    for y in 0..=SIZE {
        for x in 0..=SIZE {
            mesh.vertices.push([x as f32, y as f32, 0.0]);
        }
    }
    let id = |x: usize, y: usize| (y * (SIZE + 1) + x) as u32;
    for (y, row) in cells.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if let Some(walkable) = cell {
                let (a, b, c, d) = (id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1));
                if split {
                    mesh.push_polygon(&[a, b, c], stone(*walkable));
                    mesh.push_polygon(&[a, c, d], stone(*walkable));
                } else {
                    mesh.push_polygon(&[a, b, c, d], stone(*walkable));
                }
            }
        }
    }
    mesh
}

/// Walkable cells, 4-connected components by flood fill.
fn flood_components(cells: &[Vec<Option<bool>>]) -> usize {
    let mut seen = vec![vec![false; SIZE]; SIZE];
    let mut count = 0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            if cells[y][x] != Some(true) || seen[y][x] {
                continue;
            }
            count += 1;
            let mut stack = vec![(x, y)];
            seen[y][x] = true;
            while let Some((cx, cy)) = stack.pop() {
                let neighbours = [
                    (cx.wrapping_sub(1), cy),
                    (cx + 1, cy),
                    (cx, cy.wrapping_sub(1)),
                    (cx, cy + 1),
                ];
                for (nx, ny) in neighbours {
                    if nx < SIZE && ny < SIZE && cells[ny][nx] == Some(true) && !seen[ny][nx] {
                        seen[ny][nx] = true;
                        stack.push((nx, ny));
                    }
                }
            }
        }
    }
    count
}

fn cells_strategy() -> impl Strategy<Value = Vec<Vec<Option<bool>>>> {
    prop::collection::vec(
        prop::collection::vec(
            prop_oneof![3 => Just(Some(true)), 1 => Just(Some(false)), 1 => Just(None)],
            SIZE,
        ),
        SIZE,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn components_match_flood_fill_and_loops_tile_the_region(cells in cells_strategy(), split in any::<bool>()) {
        let mesh = grid(&cells, split);
        let walkable = |p: usize| mesh.is_walkable(p);
        let adjacency = edge_adjacency(&mesh, walkable);
        prop_assert!(adjacency.non_manifold.is_empty());
        prop_assert!(adjacency.same_direction.is_empty());
        let components = connected_components(&mesh, &adjacency, walkable);
        prop_assert_eq!(components.count, flood_components(&cells));

        let loops = boundary_loops(&mesh, &adjacency);
        // Every loop closes, and outer areas minus hole areas equal the walkable cell count.
        prop_assert!(loops.iter().all(|l| l.closed));
        let walkable_cells = cells.iter().flatten().filter(|c| **c == Some(true)).count();
        let total: f64 = loops.iter().map(|l| l.signed_area).sum();
        prop_assert!((total - walkable_cells as f64).abs() < 1e-9, "total {} cells {}", total, walkable_cells);
        // Every boundary half-edge is walked exactly once.
        let boundary = (0..adjacency.neighbour.len()).filter(|&h| adjacency.is_boundary(h)).count();
        let walked: usize = loops.iter().map(|l| l.edges.len()).sum();
        prop_assert_eq!(boundary, walked);
        // Consecutive loop edges chain end to start.
        for l in &loops {
            for (i, edge) in l.edges.iter().enumerate() {
                let next = l.edges[(i + 1) % l.edges.len()];
                let polygon = mesh.polygons.get(edge.polygon as usize);
                let end = polygon[(edge.edge as usize + 1) % polygon.len()];
                let start = mesh.polygons.get(next.polygon as usize)[next.edge as usize];
                prop_assert_eq!(end, start);
            }
        }
    }

    #[test]
    fn triangulation_keeps_area_and_welding_is_idempotent(cells in cells_strategy()) {
        let quads = grid(&cells, false);
        let mut diag = Diagnostics::new();
        let (triangles, source) = triangulate(&quads, &mut diag);
        prop_assert_eq!(triangles.polygons.len(), quads.polygons.len() * 2);
        prop_assert!(triangles.polygons.all_triangles());
        let quad_area: f64 = (0..quads.polygons.len()).map(|p| polygon_area(&quads, p)).sum();
        let tri_area: f64 = (0..triangles.polygons.len()).map(|p| polygon_area(&triangles, p)).sum();
        prop_assert!((quad_area - tri_area).abs() < 1e-9);
        for (t, &s) in source.iter().enumerate() {
            prop_assert_eq!(triangles.surfaces[t], quads.surfaces[s as usize]);
        }
        // Duplicate every vertex, point the second half of the polygons at the copies, weld.
        let mut doubled = quads.clone();
        let n = doubled.vertices.len() as u32;
        doubled.vertices.extend_from_within(..);
        let half = doubled.polygons.len() / 2;
        let first = doubled.polygons.first_index(half);
        for index in &mut doubled.polygons.indices_mut()[first..] {
            *index += n;
        }
        let (welded, report) = weld(&doubled, 0.0, &mut diag);
        prop_assert_eq!(report.merged_vertices, n as usize);
        prop_assert_eq!(&welded.polygons, &quads.polygons);
        let (again, report) = weld(&welded, 0.0, &mut diag);
        prop_assert_eq!(report.merged_vertices, 0);
        prop_assert_eq!(again.polygons, welded.polygons);
    }
}
