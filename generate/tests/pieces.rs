//! Many small separate floors (issue 34's "600 plateaus kept 30 pieces with
//! --keep-unreachable"): what `keep_unreachable` keeps is every piece that survives the agent
//! radius (erosion) and the passage width; pieces too narrow for either are left out, and
//! the report and the warnings say how much.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};
use walkmesh_generate::{Engine, Params, generate};

const RENDER: Surface = Surface {
    material: Material(0),
    walkable: false,
    code: 0,
};

/// 600 square plateaus of side `size`, 25 to a row, `pitch` apart, at heights 0, 0.1, 0.2.
fn plateaus(size: f32, pitch: f32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for k in 0..600u32 {
        let (x, y, z) = (
            (k % 25) as f32 * pitch,
            (k / 25) as f32 * pitch,
            (k % 3) as f32 * 0.1,
        );
        let b = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x, y, z],
            [x + size, y, z],
            [x + size, y + size, z],
            [x, y + size, z],
        ]);
        mesh.push_polygon(&[b, b + 1, b + 2], RENDER);
        mesh.push_polygon(&[b, b + 2, b + 3], RENDER);
    }
    mesh
}

fn warnings(report: &walkmesh_generate::Report) -> Vec<String> {
    let mut diag = walkmesh_core::Diagnostics::new();
    report.warn_lossy_steps(&mut diag);
    diag.items.iter().map(|d| d.code.clone()).collect()
}

#[test]
fn every_separate_plateau_is_a_piece_when_nothing_narrows_it() {
    // Radius 0 and no passage width: 600 plateaus 0.7 m apart (more than two 0.3 m cells),
    // 600 pieces, two triangles each.
    let mut params = Params::preset(Engine::Generic);
    params.keep_unreachable = true;
    params.agent_radius = 0.0;
    params.min_passage_width = 0.0;
    let made = generate(&plateaus(1.6, 2.3), &params).unwrap();
    assert_eq!(made.report.kept.len(), 600);
    assert_eq!(made.mesh.polygons.len(), 1200);
    assert_eq!(made.report.eroded_area, 0.0);
    assert_eq!(made.report.narrow_area, 0.0);
    // 0.4 m apart, less than two cells: a column is filled when a triangle touches it, so the
    // cells on both sides of the gap can be neighbours and the plateaus (within a climb of
    // each other) join: fewer pieces, by where each gap falls on the grid. A voxel
    // resolution limit (Recast's too): gaps must be at least two cells wide to stay gaps.
    let joined = generate(&plateaus(1.6, 2.0), &params).unwrap();
    assert!(
        joined.report.kept.len() < 600,
        "{}",
        joined.report.kept.len()
    );
}

#[test]
fn plateaus_narrower_than_radius_and_passage_are_left_out_and_reported() {
    // Generic preset: radius 0.6 m, passage 1.2 m, 0.3 m cells. A 1.6 m plateau keeps a core
    // of 1.6 − 2·0.6 = 0.4 m after erosion (more or less a cell, by its place on the grid),
    // narrower than the 1.2 m passage: most go as "narrow", whatever keep_unreachable says.
    let mut params = Params::preset(Engine::Generic);
    params.keep_unreachable = true;
    let made = generate(&plateaus(1.6, 2.0), &params).unwrap();
    let report = &made.report;
    assert!(report.kept.len() < 600, "{}", report.kept.len());
    assert!(
        report.dropped.is_empty(),
        "none is dropped as unreachable or small"
    );
    assert!(
        report.eroded_area > 0.0 && report.narrow_area > 0.0,
        "{}",
        report.text()
    );
    // Everything walkable is accounted for: kept + narrow + eroded = the walkable spans.
    let cell = 0.3f64 * 0.3;
    let kept: f64 = report.kept.iter().map(|c| c.area).sum();
    let all = report.walkable_spans as f64 * cell;
    assert!(
        (kept + report.narrow_area + report.eroded_area - all).abs() < 1e-3,
        "{kept} + {} + {} against {all}",
        report.narrow_area,
        report.eroded_area
    );
    assert!(warnings(report).contains(&"generate.narrow_dropped".to_string()));
    assert!(report.text().contains("eroded") && report.text().contains("narrower"));
    // 1 m plateaus vanish entirely in the erosion: all their floor is the eroded area.
    let gone = generate(&plateaus(1.0, 2.0), &params).unwrap().report;
    assert!(gone.kept.is_empty());
    assert!((gone.eroded_area - gone.walkable_spans as f64 * cell).abs() < 1e-3);
}
