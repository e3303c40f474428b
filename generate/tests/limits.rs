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

/// Render terrain over [x0, x1]² as an `n` × `n` grid of quads, heights
/// `amplitude · sin(kx) · sin(ky)` (bumps of 2π/k m).
fn bumpy(x0: f32, x1: f32, n: u32, amplitude: f32, k: f32) -> NavMesh {
    let mut mesh = grid([x0, x0], n, (x1 - x0) / n as f32);
    for v in &mut mesh.vertices {
        v[2] = amplitude * (k * v[0]).sin() * (k * v[1]).sin();
    }
    mesh
}

/// Plan (seen from above) area of the walkable faces.
fn plan_area(mesh: &NavMesh) -> f64 {
    mesh.polygons
        .iter()
        .enumerate()
        .filter(|&(p, _)| mesh.is_walkable(p))
        .map(|(_, c)| {
            let v: Vec<[f64; 3]> = c.iter().map(|&i| mesh.vertex(i).map(f64::from)).collect();
            (1..v.len() - 1)
                .map(|k| {
                    let (a, b, c) = (v[0], v[k], v[k + 1]);
                    ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
                })
                .sum::<f64>()
        })
        .sum()
}

#[test]
fn an_over_full_nwn2_tile_is_simplified_until_it_holds() {
    // Bumps of ±0.5 m every 4.8 m (slopes up to 33°, under NWN2's 45°) on an 8 × 8 m floor
    // inside tile (0, 0): the height refinement puts 158 triangles in the tile (242 with the earlier centre-only refinement).
    let terrain = bumpy(0.5, 8.5, 48, 0.5, 1.3);
    // The same parameters without the NWN2 stages: the mesh before simplification.
    let mut plain = Params::preset(Engine::Nwn2);
    plain.engine = Engine::Generic;
    let before = generate(&terrain, &plain).unwrap().mesh;
    let over = limits::nwn2_tiles(&before, 9.0);
    assert_eq!(over.len(), 1, "the scene must exceed the limit: {over:?}");

    let made = generate(&terrain, &Params::preset(Engine::Nwn2)).unwrap();
    let simplified = made.report.nwn2_simplified.clone().expect("simplified");
    assert!(made.report.limits.is_empty(), "{:?}", made.report.limits);
    assert_eq!(simplified.tiles, 1);
    assert_eq!(simplified.faces_before, before.polygons.len());
    assert!(simplified.faces_after <= 127, "{simplified:?}");
    assert_eq!(simplified.faces_after, made.mesh.polygons.len());
    assert!(simplified.still_over.is_empty());
    // Footprint: only interior vertices and vertices on straight boundary runs go, so the
    // plan area is the same up to float rounding (1 cm²).
    let (a0, a1) = (plan_area(&before), plan_area(&made.mesh));
    assert!((a0 - a1).abs() < 1e-4, "plan area {a0} → {a1}");
    // The largest height change is reported; cheapest first, it stays within the preset's
    // detail error (0.1 m; measured 0.049 m).
    assert!(
        simplified.max_height_error > 0.0 && simplified.max_height_error < 0.1,
        "{simplified:?}"
    );
    // One piece still (connectivity kept), no lint findings that matter.
    let findings = walkmesh_lint::lint(&made.mesh, &walkmesh_lint::LintOptions::default(), None);
    let bad: Vec<_> = findings
        .iter()
        .filter(|f| {
            [
                walkmesh_lint::DOWNWARD_WALKABLE,
                walkmesh_lint::DEGENERATE,
                walkmesh_lint::T_JUNCTION,
                walkmesh_lint::OVERLAP,
            ]
            .contains(&f.code.as_str())
        })
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    // The warning carries the stable code and the counts.
    let mut diag = walkmesh_core::Diagnostics::new();
    made.report.warn_lossy_steps(&mut diag);
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "generate.nwn2_tile_simplified")
        .expect("warning");
    assert!(
        warning.message.contains(&format!(
            "from {} to {}",
            simplified.faces_before, simplified.faces_after
        )),
        "{}",
        warning.message
    );
}

#[test]
fn simplification_removes_inner_and_straight_edge_vertices_only() {
    // A flat 10 × 10 grid of 0.8 m quads in tile (1, 2): 200 triangles, 81 inner vertices and
    // 36 on straight edge runs. Everything flat, so nothing stops the collapse but the
    // corners: the tile ends with the fewest triangles a square needs, two, within 127.
    let mut dense = grid([9.5, 18.5], 10, 0.8);
    let done = walkmesh_generate::simplify::nwn2_tiles(&mut dense, 9.0, 127).unwrap();
    assert_eq!(done.tiles, 1);
    assert_eq!(done.faces_before, 200);
    assert!(done.faces_after <= 127, "{done:?}");
    assert_eq!(done.max_height_error, 0.0);
    assert!((plan_area(&dense) - 64.0).abs() < 1e-4);
    // The four corners are still there.
    for corner in [[9.5, 18.5], [17.5, 18.5], [17.5, 26.5], [9.5, 26.5]] {
        assert!(
            dense
                .vertices
                .iter()
                .any(|v| (v[0] - corner[0]).abs() < 1e-5 && (v[1] - corner[1]).abs() < 1e-5),
            "corner {corner:?} lost"
        );
    }
    // Within the limit already: untouched.
    let mut small = grid([0.5, 0.5], 7, 1.0);
    assert!(walkmesh_generate::simplify::nwn2_tiles(&mut small, 9.0, 127).is_none());
}

#[test]
fn a_tile_that_cannot_hold_is_named() {
    // 70 separate 0.5 m squares in one tile: each needs two triangles of its own (140 > 127)
    // and no vertex of theirs can go (every one is a corner).
    let mut mesh = NavMesh::default();
    for k in 0..70u32 {
        let (x, y) = (0.2 + (k % 10) as f32 * 0.85, 0.2 + (k / 10) as f32 * 1.2);
        let b = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x, y, 0.0],
            [x + 0.5, y, 0.0],
            [x + 0.5, y + 0.5, 0.0],
            [x, y + 0.5, 0.0],
        ]);
        mesh.push_polygon(&[b, b + 1, b + 2], FLOOR);
        mesh.push_polygon(&[b, b + 2, b + 3], FLOOR);
    }
    let done = walkmesh_generate::simplify::nwn2_tiles(&mut mesh, 9.0, 127).unwrap();
    assert_eq!(done.faces_after, 140);
    assert_eq!(done.still_over, vec![(0, 0, 140)]);
    assert!(done.message().contains("still over"), "{}", done.message());
    let found = limits::nwn2_tiles(&mesh, 9.0);
    assert!(found[0].message.contains("column 0, row 0"), "{found:?}");
}

#[test]
fn tiles_below_zero_follow_the_writers_shift() {
    // A dense grid from x = −8.5: the writer moves the mesh by one 9 m tile, so the grid is in
    // tile column 0 (x in 0.5..8.5 once moved), not lumped with whatever is at 0.
    let dense = grid([-8.5, 0.5], 10, 0.8);
    let found = limits::nwn2_tiles(&dense, 9.0);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("column 0, row 0"),
        "{}",
        found[0].message
    );
}
