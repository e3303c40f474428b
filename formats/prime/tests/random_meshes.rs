//! Seeded random meshes through the whole cooker (patches, vertex removal, the convex
//! partition with its flips and Steiner cuts, the merge, tables, octree): jittered grids with
//! holes, mixed diagonals, terraces, ramps and small bumps. Each must cook, and pass every
//! check of [`common::check_cooked_within`]: the bytes round-trip, the validator finds
//! nothing, the area seen from above is kept, the ground table's groups are the source's
//! components and point queries equal brute force.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;

use common::{Rng, WALK, check_cooked_within};
use walkmesh_core::{NavMesh, WriteOptions};

/// A `nx` × `ny` grid of unit cells with jittered inner vertices, cells left out at random
/// (holes and separate pieces), each cell split along a random diagonal, and heights from
/// one of several surfaces.
fn random_grid(seed: u64) -> NavMesh {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let nx = 2 + rng.below(18);
    let ny = 2 + rng.below(18);
    let surface = rng.below(5);
    let keep = 0.55 + 0.45 * rng.unit();
    let jitter = if rng.below(2) == 0 { 0.0 } else { 0.2 };
    let mut mesh = NavMesh::default();
    for j in 0..=ny {
        for i in 0..=nx {
            let inner = i > 0 && j > 0 && i < nx && j < ny;
            let (dx, dy) = if inner {
                (
                    jitter * (rng.unit() * 2.0 - 1.0),
                    jitter * (rng.unit() * 2.0 - 1.0),
                )
            } else {
                (0.0, 0.0)
            };
            let (x, y) = (i as f64 + dx, j as f64 + dy);
            let z = match surface {
                0 => 0.0,
                // Terraces: steps of 0.2 every three columns.
                1 => (i / 3) as f64 * 0.2,
                // A tilted plane.
                2 => 0.1 * x + 0.05 * y,
                // Small bumps inside the default height tolerance.
                3 => 0.02 * (rng.unit() - 0.5),
                // Bumps beyond it.
                _ => 0.3 * (rng.unit() - 0.5),
            };
            mesh.vertices.push([x as f32, y as f32, z as f32]);
        }
    }
    let v = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if rng.unit() > keep {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if rng.below(2) == 0 {
                mesh.push_polygon(&[a, b, c], WALK);
                mesh.push_polygon(&[a, c, d], WALK);
            } else {
                mesh.push_polygon(&[a, b, d], WALK);
                mesh.push_polygon(&[b, c, d], WALK);
            }
        }
    }
    mesh
}

/// Total area seen from above of polygons (either winding).
fn footprint(polygons: impl Iterator<Item = Vec<[f32; 3]>>) -> f64 {
    polygons
        .map(|points| {
            let n = points.len();
            let twice: f64 = (0..n)
                .map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % n]);
                    f64::from(a[0]) * f64::from(b[1]) - f64::from(b[0]) * f64::from(a[1])
                })
                .sum();
            twice.abs() / 2.0
        })
        .sum()
}

#[test]
fn random_grids_cook_to_valid_files_that_keep_area_and_components() {
    let mut regions = 0;
    let mut triangles = 0;
    for seed in 0..400u64 {
        let mesh = random_grid(seed);
        if mesh.polygons.is_empty() {
            continue;
        }
        triangles += mesh.polygons.len();
        // The 3-D area may change by the tilt of merges within the height tolerance (1 %);
        // the area seen from above must not change.
        let checked = check_cooked_within(&mesh, &WriteOptions::default(), 2_000, seed, 0.01);
        let source = footprint((0..mesh.polygons.len()).map(|p| {
            mesh.polygons
                .get(p)
                .iter()
                .map(|&v| mesh.vertices[v as usize])
                .collect::<Vec<_>>()
        }));
        let file = &checked.file;
        let cooked = footprint(file.regions.iter().map(|r| {
            let start = r.node_start as usize;
            file.nodes[start..start + r.node_count as usize]
                .iter()
                .map(|n| n.position)
                .collect::<Vec<_>>()
        }));
        assert!(
            (cooked - source).abs() <= 1e-4 * source,
            "seed {seed}: footprint {cooked} vs {source}"
        );
        assert!(checked.regions > 0, "seed {seed}");
        assert!(
            checked.regions <= mesh.polygons.len(),
            "seed {seed}: {} regions from {} triangles",
            checked.regions,
            mesh.polygons.len()
        );
        regions += checked.regions;
    }
    println!("{triangles} triangles -> {regions} regions");
    assert!(triangles > 0);
}
