//! KotOR hole fill (`walkmesh_generate::holes`): the floor under a prop becomes non-walkable
//! faces on the hole's own vertices, as in BioWare's room WOKs; walkability is unchanged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};
use walkmesh_generate::{Engine, Params, generate, holes};

const RENDER: Surface = Surface {
    material: Material(0),
    walkable: false,
    code: 0,
};

fn quad(mesh: &mut NavMesh, c: [[f32; 3]; 4]) {
    let b = mesh.vertices.len() as u32;
    mesh.vertices.extend(c);
    mesh.push_polygon(&[b, b + 1, b + 2], RENDER);
    mesh.push_polygon(&[b, b + 2, b + 3], RENDER);
}

/// An axis-aligned box from `lo` to `hi` (closed, outward faces).
fn cuboid(mesh: &mut NavMesh, lo: [f32; 3], hi: [f32; 3]) {
    let [x0, y0, z0] = lo;
    let [x1, y1, z1] = hi;
    quad(
        mesh,
        [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
    );
    quad(
        mesh,
        [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
    );
    quad(
        mesh,
        [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
    );
    quad(
        mesh,
        [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
    );
    quad(
        mesh,
        [[x1, y1, z0], [x0, y1, z0], [x0, y1, z1], [x1, y1, z1]],
    );
    quad(
        mesh,
        [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
    );
}

/// A 10 × 8 m floor with a 2 × 2 × 1 m crate from (2, 2) and a 2 × 2 m table top at 0.8 m
/// from (6, 4) (no legs).
fn room() -> NavMesh {
    let mut mesh = NavMesh::default();
    quad(
        &mut mesh,
        [[0., 0., 0.], [10., 0., 0.], [10., 8., 0.], [0., 8., 0.]],
    );
    cuboid(&mut mesh, [2., 2., 0.], [4., 4., 1.]);
    cuboid(&mut mesh, [6., 4., 0.75], [8., 6., 0.8]);
    mesh
}

fn plan_area(mesh: &NavMesh, p: usize) -> f64 {
    let c = mesh.polygons.get(p);
    let v: Vec<[f64; 3]> = c.iter().map(|&i| mesh.vertex(i).map(f64::from)).collect();
    (1..v.len() - 1)
        .map(|k| {
            let (a, b, c) = (v[0], v[k], v[k + 1]);
            ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
        })
        .sum()
}

#[test]
fn the_floor_under_a_crate_and_a_table_is_filled_with_non_walkable_faces() {
    let made = generate(&room(), &Params::preset(Engine::Kotor)).unwrap();
    let mesh = &made.mesh;
    let fill: Vec<usize> = (0..mesh.polygons.len())
        .filter(|&p| !mesh.is_walkable(p))
        .collect();
    // Two holes: the crate's 2 × 2 m and, under the table (clearance 0.75 m < 1.4 m), its
    // 2 × 2 m (each up to a 0.1 m cell row wider where the voxels cover the edge): the fill
    // closes them exactly, so fill and walkable floor together are the 10 × 8 m floor.
    let area: f64 = fill.iter().map(|&p| plan_area(mesh, p)).sum();
    let walkable: f64 = (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| plan_area(mesh, p))
        .sum();
    assert!((8.0..=8.0 + 4.0 * 0.21).contains(&area), "fill area {area}");
    assert!((area + walkable - 80.0).abs() < 1e-3, "{area} + {walkable}");
    // Every fill face NonWalk, counter-clockwise (facing up), at floor height.
    for &p in &fill {
        assert_eq!(mesh.surfaces[p], holes::FILL);
        assert!(plan_area(mesh, p) > 0.0);
        for &v in mesh.polygons.get(p) {
            assert!(mesh.vertex(v)[2].abs() < 1e-4, "{:?}", mesh.vertex(v));
        }
    }
    let filled = made.report.holes.unwrap();
    assert_eq!((filled.holes, filled.left_open), (2, 0), "{filled:?}");
    assert_eq!(filled.faces, fill.len());
    assert_eq!(made.report.materials.get("NonWalk"), Some(&fill.len()));
    // The fill is made of the rim's own vertices: no vertex was added.
    let mut plain = Params::preset(Engine::Kotor);
    plain.fill_holes = false;
    // Walls off too: the crate's open hole would get walls (`tests/walls.rs`).
    plain.walls = false;
    let open = generate(&room(), &plain).unwrap();
    assert_eq!(open.mesh.vertices.len(), mesh.vertices.len());
    assert!(open.mesh.walkable_count() == open.mesh.polygons.len());
    // Walkability unchanged: the same walkable faces, the same walkable area.
    assert_eq!(open.mesh.walkable_count(), mesh.walkable_count());
    assert!((open.report.walkable_area - made.report.walkable_area).abs() < 1e-9);
    // Lint: no finding of the kinds a generated mesh must not have.
    let bad: Vec<_> = walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None)
        .into_iter()
        .filter(|f| {
            [
                walkmesh_lint::DOWNWARD_WALKABLE,
                walkmesh_lint::DEGENERATE,
                walkmesh_lint::T_JUNCTION,
                walkmesh_lint::OVERLAP,
            ]
            .contains(&f.code.as_str())
        })
        .map(|f| (f.code, f.message))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn a_hole_with_walkable_floor_inside_is_left_open() {
    // Kept, the crate's top and the table top lie inside the holes under them: filling would
    // overlap them, so both holes stay open: no fill (the crate's sides, rising beyond the
    // open hole's edge, become walls).
    let mut params = Params::preset(Engine::Kotor);
    params.keep_unreachable = true;
    let made = generate(&room(), &params).unwrap();
    let filled = made.report.holes.unwrap();
    assert_eq!((filled.holes, filled.left_open), (0, 2), "{filled:?}");
    let walls = made.report.walls.map_or(0, |w| w.faces);
    assert_eq!(made.mesh.walkable_count() + walls, made.mesh.polygons.len());
}

#[test]
fn other_presets_write_walkable_faces_only() {
    for engine in [Engine::Nwn2, Engine::Prime, Engine::Generic] {
        let made = generate(&room(), &Params::preset(engine)).unwrap();
        assert_eq!(made.mesh.walkable_count(), made.mesh.polygons.len());
        assert!(made.report.holes.is_none());
    }
}

/// A 10 × 8 m floor at z = 0 around a 3 × 3 m opening at (4..7, 2..5), made of four quads.
fn floor_with_opening(mesh: &mut NavMesh) {
    quad(
        mesh,
        [[0., 0., 0.], [10., 0., 0.], [10., 2., 0.], [0., 2., 0.]],
    );
    quad(
        mesh,
        [[0., 5., 0.], [10., 5., 0.], [10., 8., 0.], [0., 8., 0.]],
    );
    quad(
        mesh,
        [[0., 2., 0.], [4., 2., 0.], [4., 5., 0.], [0., 5., 0.]],
    );
    quad(
        mesh,
        [[7., 2., 0.], [10., 2., 0.], [10., 5., 0.], [7., 5., 0.]],
    );
}

#[test]
fn a_pit_and_a_chasm_are_no_prop_and_stay_open() {
    // A pit: the opening has a floor 1 m down (a drop, not a climb: unreachable, dropped).
    let mut pit = NavMesh::default();
    floor_with_opening(&mut pit);
    quad(
        &mut pit,
        [[4., 2., -1.], [7., 2., -1.], [7., 5., -1.], [4., 5., -1.]],
    );
    // A chasm: nothing under the opening.
    let mut chasm = NavMesh::default();
    floor_with_opening(&mut chasm);
    // A crate standing in the opening's place on a floor of its own: filled.
    let mut crate_floor = NavMesh::default();
    floor_with_opening(&mut crate_floor);
    cuboid(&mut crate_floor, [4., 2., -0.01], [7., 5., 1.]);
    for (name, mesh, filled) in [
        ("pit", pit, 0),
        ("chasm", chasm, 0),
        ("crate", crate_floor, 1),
    ] {
        let made = generate(&mesh, &Params::preset(Engine::Kotor)).unwrap();
        let holes = made.report.holes.unwrap();
        assert_eq!(
            (holes.holes, holes.left_open),
            (filled, 1 - filled),
            "{name}: {holes:?}"
        );
        assert_eq!(
            made.mesh.polygons.len() - made.mesh.walkable_count(),
            holes.faces,
            "{name}"
        );
    }
}
