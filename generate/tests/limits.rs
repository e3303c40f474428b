#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Engine limits at the end of the pipeline (`walkmesh_generate::limits`): an NWN2 tile with
//! more walkable triangles than the TRX path table can number, and a PATH scene with more
//! regions than Metroid Prime allows, each reported with its stable code; scenes within the
//! limits report nothing.

use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};
use walkmesh_generate::{Engine, Params, generate, limits};

/// Stone (neutral material 4), the presets' default floor: walkable in every profile.
const FLOOR: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 0,
};

/// A walkable grid of `n` × `n` quads (2 triangles each) of side `step` from `origin`.
fn grid(origin: [f32; 2], n: u32, step: f32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=n {
        for i in 0..=n {
            mesh.vertices.push([
                origin[0] + i as f32 * step,
                origin[1] + j as f32 * step,
                0.0,
            ]);
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            mesh.push_polygon(&[at(i, j), at(i + 1, j), at(i + 1, j + 1)], FLOOR);
            mesh.push_polygon(&[at(i, j), at(i + 1, j + 1), at(i, j + 1)], FLOOR);
        }
    }
    mesh
}

#[test]
fn an_nwn2_tile_with_too_many_walkable_triangles_is_named() {
    // 10 × 10 quads of 0.8 m in tile (1, 2) of 9 m: 200 triangles > 127.
    let dense = grid([9.5, 18.5], 10, 0.8);
    let found = limits::nwn2_tiles(&dense, 9.0);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, "generate.nwn2_tile_over_limit");
    assert!(
        found[0].message.contains("column 1, row 2") && found[0].message.contains("200"),
        "{}",
        found[0].message
    );
    // 8 × 8 quads (128 triangles) spread over four tiles: none over the limit.
    let spread = grid([0.5, 0.5], 8, 2.0);
    assert!(limits::nwn2_tiles(&spread, 9.0).is_empty());
    // 63 quads' worth is within one tile's limit (126 triangles).
    let mut params = Params::preset(Engine::Nwn2);
    params.engine = Engine::Nwn2;
    assert!(limits::check(&grid([0.5, 0.5], 7, 1.0), &params).is_empty());
    assert_eq!(limits::check(&dense, &params).len(), 1);
}

/// `n` separate walkable 1 m floors on a grid 2 m apart: no two share an edge, so no two
/// can share a PATH region.
fn plateaus(n: u32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for k in 0..n {
        let (x, y, z) = (
            (k % 25) as f32 * 2.0,
            (k / 25) as f32 * 2.0,
            (k % 3) as f32 * 0.1,
        );
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x, y, z],
            [x + 1.0, y, z],
            [x + 1.0, y + 1.0, z],
            [x, y + 1.0, z],
        ]);
        mesh.push_polygon(&[base, base + 1, base + 2], FLOOR);
        mesh.push_polygon(&[base, base + 2, base + 3], FLOOR);
    }
    mesh
}

#[test]
fn a_prime_mesh_over_512_regions_is_reported_and_one_under_is_not() {
    let over = limits::prime_regions(&plateaus(600));
    assert_eq!(over.len(), 1, "{over:?}");
    assert_eq!(
        over[0].code, "generate.prime_regions_over_limit",
        "{}",
        over[0].message
    );
    assert!(over[0].message.contains("512"), "{}", over[0].message);
    let under = limits::prime_regions(&plateaus(500));
    assert!(under.is_empty(), "{under:?}");
}

#[test]
fn generate_reports_limits_in_its_report_text_and_warnings() {
    // A flat 20 × 20 m floor (walkable flags of inputs are ignored) is within every limit: nothing reported, for every engine.
    let floor = grid([0.0, 0.0], 1, 20.0);
    for engine in [Engine::Nwn2, Engine::Prime, Engine::Kotor] {
        let made = generate(&floor, &Params::preset(engine)).unwrap();
        assert!(made.report.limits.is_empty(), "{:?}", made.report.limits);
    }
    // The warnings carry a finding's code (the report's list is what the CLI warns).
    let mut report = generate(&floor, &Params::preset(Engine::Prime))
        .unwrap()
        .report;
    report.limits = limits::prime_regions(&plateaus(600));
    let mut diag = walkmesh_core::Diagnostics::new();
    report.warn_lossy_steps(&mut diag);
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "generate.prime_regions_over_limit")
    );
    assert!(report.text().contains("generate.prime_regions_over_limit"));
}
