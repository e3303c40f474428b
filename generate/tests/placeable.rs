#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Placeable and door walkmeshes (`walkmesh_generate::placeable`) on designed objects whose
//! footprints are worked out by hand (docs/generate.md, "Placeables and doors"): a crate, an
//! L-shaped counter, a high table a character walks under at radius 0 but not at the preset's,
//! a closed ring, a platform with steps; a door's closed slab; the use points in front of the
//! front (−Y) side and from the input's `use1`/`use2`. Points are checked 5 cm inside and
//! outside every designed edge, bounds to 5 cm.

use walkmesh_core::{Hook, NavMesh};
use walkmesh_generate::placeable::ObjectKind;
use walkmesh_generate::{Engine, Generated, Params, generate_object};

/// Render faces say nothing about walking (as the model and OBJ readers give them).
const RENDER: walkmesh_core::Surface = walkmesh_core::Surface {
    material: walkmesh_core::material::Material(0),
    walkable: false,
    code: 0,
};

/// Appends a closed axis-aligned box (12 outward triangles).
fn cuboid(mesh: &mut NavMesh, lo: [f32; 3], hi: [f32; 3]) {
    let base = mesh.vertices.len() as u32;
    for z in [lo[2], hi[2]] {
        for (x, y) in [
            (lo[0], lo[1]),
            (hi[0], lo[1]),
            (hi[0], hi[1]),
            (lo[0], hi[1]),
        ] {
            mesh.vertices.push([x, y, z]);
        }
    }
    let quads = [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    for [a, b, c, d] in quads {
        let surface = RENDER;
        mesh.push_polygon(&[base + a, base + b, base + c], surface);
        mesh.push_polygon(&[base + a, base + c, base + d], surface);
    }
}

/// A closed ring (annulus `inner`..`outer` around the origin, `height` tall) of `sides`
/// segments: top, bottom, outer and inner walls.
fn ring(inner: f32, outer: f32, height: f32, sides: u32) -> NavMesh {
    let mut mesh = NavMesh::default();
    let at = |r: f32, k: u32, z: f32| {
        let a = std::f32::consts::TAU * k as f32 / sides as f32;
        [r * a.cos(), r * a.sin(), z]
    };
    let surface = RENDER;
    for k in 0..sides {
        let base = mesh.vertices.len() as u32;
        for (r, z) in [(inner, 0.0), (outer, 0.0), (inner, height), (outer, height)] {
            mesh.vertices.push(at(r, k, z));
            mesh.vertices.push(at(r, k + 1, z));
        }
        // 0/1 inner bottom, 2/3 outer bottom, 4/5 inner top, 6/7 outer top (k, k+1).
        for t in [
            [4, 6, 7],
            [4, 7, 5],
            [0, 1, 3],
            [0, 3, 2],
            [2, 3, 7],
            [2, 7, 6],
            [0, 4, 5],
            [0, 5, 1],
        ] {
            mesh.push_polygon(&t.map(|i| base + i), surface);
        }
    }
    mesh
}

fn preset(kind: ObjectKind) -> Params {
    Params::object_preset(Engine::Kotor, kind)
}

fn at_radius(radius: f32) -> Params {
    let mut params = preset(ObjectKind::Placeable);
    params.agent_radius = radius;
    params
}

fn placeable(mesh: &NavMesh, params: &Params) -> Generated {
    generate_object(mesh, params, ObjectKind::Placeable).unwrap()
}

/// The face over plan point `p`: its height and whether it is walkable.
fn face_at(mesh: &NavMesh, p: [f32; 2]) -> Option<(f32, bool)> {
    mesh.polygons.iter().enumerate().find_map(|(i, corners)| {
        let v: Vec<[f32; 3]> = corners.iter().map(|&c| mesh.vertex(c)).collect();
        let [a, b, c] = [v[0], v[1], v[2]];
        let side = |a: [f32; 3], b: [f32; 3]| {
            (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        };
        let inside = side(a, b) >= 0.0 && side(b, c) >= 0.0 && side(c, a) >= 0.0;
        inside.then(|| (a[2], mesh.is_walkable(i)))
    })
}

fn covered(mesh: &NavMesh, p: [f32; 2]) -> bool {
    face_at(mesh, p).is_some()
}

/// Plan area of the faces, walkable or not.
fn area(mesh: &NavMesh, walkable: bool) -> f64 {
    mesh.polygons
        .iter()
        .enumerate()
        .filter(|(i, _)| mesh.is_walkable(*i) == walkable)
        .map(|(_, c)| {
            let v: Vec<[f32; 3]> = c.iter().map(|&i| mesh.vertex(i)).collect();
            let cross = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1])
                - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
            f64::from(cross) / 2.0
        })
        .sum()
}

fn plan_bounds(mesh: &NavMesh) -> [f32; 4] {
    mesh.vertices.iter().fold(
        [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ],
        |b, v| {
            [
                b[0].min(v[0]),
                b[1].min(v[1]),
                b[2].max(v[0]),
                b[3].max(v[1]),
            ]
        },
    )
}

fn assert_bounds(mesh: &NavMesh, expected: [f32; 4]) {
    let got = plan_bounds(mesh);
    for (g, e) in got.iter().zip(expected) {
        assert!(
            (g - e).abs() <= 0.05,
            "bounds {got:?}, expected {expected:?} to 5 cm"
        );
    }
}

fn assert_points(mesh: &NavMesh, inside: &[[f32; 2]], outside: &[[f32; 2]]) {
    for &p in inside {
        assert!(covered(mesh, p), "{p:?} should be in the footprint");
    }
    for &p in outside {
        assert!(!covered(mesh, p), "{p:?} should be outside the footprint");
    }
}

fn crate_mesh() -> NavMesh {
    let mut mesh = NavMesh::default();
    cuboid(&mut mesh, [-0.5, -0.5, 0.0], [0.5, 0.5, 1.0]);
    mesh
}

#[test]
fn a_crate_blocks_its_square_at_radius_zero_and_the_rounded_square_at_the_preset() {
    let made = placeable(&crate_mesh(), &at_radius(0.0));
    assert_eq!(made.mesh.kind, walkmesh_core::MeshKind::Placeable);
    assert_bounds(&made.mesh, [-0.5, -0.5, 0.5, 0.5]);
    assert_points(
        &made.mesh,
        &[[0.45, 0.0], [-0.45, 0.45], [0.0, -0.45]],
        &[[0.55, 0.0], [0.0, 0.55]],
    );
    assert!((area(&made.mesh, false) - 1.0).abs() < 0.01);
    assert_eq!(area(&made.mesh, true), 0.0);
    assert!(
        made.mesh.vertices.iter().all(|v| v[2] == 0.0),
        "flat at the ground"
    );

    // Radius 0.25: the square grown by 0.25 with quarter-circle corners,
    // 1 + 4 × 0.25 + π × 0.25² = 2.196 m².
    let made = placeable(&crate_mesh(), &preset(ObjectKind::Placeable));
    assert_bounds(&made.mesh, [-0.75, -0.75, 0.75, 0.75]);
    assert_points(
        &made.mesh,
        &[[0.7, 0.0], [0.0, -0.7], [0.64, 0.64]],
        &[[0.8, 0.0], [0.0, 0.8], [0.72, 0.72]],
    );
    assert!(
        (area(&made.mesh, false) - 2.196).abs() < 0.08,
        "{}",
        area(&made.mesh, false)
    );
}

#[test]
fn an_l_shaped_counter_keeps_its_inner_corner() {
    // Two boxes 0.9 m high: 2 × 0.6 along x and 0.6 × 1.5 along y, joined at the origin:
    // 1.2 + 0.54 = 1.74 m².
    let mut mesh = NavMesh::default();
    cuboid(&mut mesh, [0.0, 0.0, 0.0], [2.0, 0.6, 0.9]);
    cuboid(&mut mesh, [0.0, 0.6, 0.0], [0.6, 1.5, 0.9]);
    let made = placeable(&mesh, &at_radius(0.0));
    assert_bounds(&made.mesh, [0.0, 0.0, 2.0, 1.5]);
    assert_points(
        &made.mesh,
        &[[1.95, 0.3], [1.0, 0.55], [0.55, 1.45], [0.3, 1.0]],
        &[
            [1.0, 0.65],
            [0.65, 1.0],
            [0.7, 0.7],
            [2.05, 0.3],
            [0.3, 1.55],
        ],
    );
    assert!((area(&made.mesh, false) - 1.74).abs() < 0.01);
    // At the preset's 0.25 m the inner corner stays sharp: (0.8, 0.8) is 0.2 m from the
    // counter, (0.9, 0.9) 0.3 m.
    let made = placeable(&mesh, &preset(ObjectKind::Placeable));
    assert_bounds(&made.mesh, [-0.25, -0.25, 2.25, 1.75]);
    assert_points(
        &made.mesh,
        &[[0.8, 0.8], [2.2, 0.3]],
        &[[0.9, 0.9], [2.3, 0.3]],
    );
    // Area: the L (1.74) + perimeter 7.0 × 0.25 + five quarter discs (5π × 0.25² / 4) − the
    // 0.25² the two strips at the inner corner share = 3.673 m².
    assert!(
        (area(&made.mesh, false) - 3.673).abs() < 0.08,
        "{}",
        area(&made.mesh, false)
    );
}

/// A 0.6 × 0.6 m table top at 2.3–2.4 m (above the 2.2 m agent) on four 0.1 m legs at the
/// corners: 0.4 m between the legs.
fn high_table() -> NavMesh {
    let mut mesh = NavMesh::default();
    cuboid(&mut mesh, [-0.3, -0.3, 2.3], [0.3, 0.3, 2.4]);
    for (x, y) in [(-0.3, -0.3), (0.2, -0.3), (0.2, 0.2), (-0.3, 0.2)] {
        cuboid(&mut mesh, [x, y, 0.0], [x + 0.1, y + 0.1, 2.3]);
    }
    mesh
}

#[test]
fn a_high_table_is_walked_under_at_radius_zero_but_not_at_the_preset() {
    // Radius 0: the four legs only (4 × 0.01 m²); the ground under the top is free.
    let made = placeable(&high_table(), &at_radius(0.0));
    assert!((area(&made.mesh, false) - 0.04).abs() < 0.005);
    assert_points(
        &made.mesh,
        &[[-0.25, -0.25], [0.25, 0.25]],
        &[[0.0, 0.0], [0.0, -0.25], [-0.15, 0.0]],
    );
    assert_eq!(area(&made.mesh, true), 0.0, "the top is out of reach");
    // Radius 0.25: legs grown by 0.25 overlap across the 0.4 m gaps (in the legs' own bands)
    // and close the ground under the table, whose centre is 0.28 m from every leg: the
    // 1.1 m square minus four rounded corners, 4 × (0.25² − π × 0.25² / 4) = 0.0537 m², and
    // four notches between the grown legs on the sides (the arcs of radius 0.25 around the
    // legs' near corners meet 0.45 m out), 4 × 2 × ∫₀^0.2 (0.25 − √(0.25² − u²)) du =
    // 0.0482 m²: 1.21 − 0.0537 − 0.0482 = 1.108 m².
    let made = placeable(&high_table(), &preset(ObjectKind::Placeable));
    assert_bounds(&made.mesh, [-0.55, -0.55, 0.55, 0.55]);
    assert_points(
        &made.mesh,
        &[[0.0, 0.0], [0.0, -0.3], [0.5, -0.25], [0.0, 0.4]],
        &[[0.0, -0.6], [0.6, 0.0], [0.0, -0.5], [-0.5, 0.0]],
    );
    assert!(
        (area(&made.mesh, false) - 1.108).abs() < 0.06,
        "{}",
        area(&made.mesh, false)
    );
}

#[test]
fn a_closed_ring_blocks_the_ground_it_encloses() {
    // Outer radius 1.0, inner 0.8, 1 m high, 64 sides: no way in, so the whole disc
    // (π × 1.0² = 3.14 m², the 64-gon 3.136) is blocked. The outline keeps the cells' outer
    // corners, a little outside the curve: 5 cm along the 6.3 m rim allows 0.31 m²; the
    // area is held to 0.15 m² (2.4 cm on average).
    let mesh = ring(0.8, 1.0, 1.0, 64);
    let made = placeable(&mesh, &at_radius(0.0));
    assert_bounds(&made.mesh, [-1.0, -1.0, 1.0, 1.0]);
    assert_points(
        &made.mesh,
        &[[0.0, 0.0], [0.95, 0.0], [0.0, -0.95], [0.6, 0.6]],
        &[[1.05, 0.0], [0.0, 1.05], [0.75, 0.75]],
    );
    assert!(
        (area(&made.mesh, false) - 3.136).abs() < 0.15,
        "{}",
        area(&made.mesh, false)
    );
    // At the preset's radius: the disc of radius 1.25 (4.91 m²); 5 cm along its 7.9 m rim
    // allows 0.39 m², held to 0.25 m² (3.2 cm on average).
    let made = placeable(&mesh, &preset(ObjectKind::Placeable));
    assert_bounds(&made.mesh, [-1.25, -1.25, 1.25, 1.25]);
    assert!(
        (area(&made.mesh, false) - 4.909).abs() < 0.25,
        "{}",
        area(&made.mesh, false)
    );
    assert_points(
        &made.mesh,
        &[[1.2, 0.0], [0.0, -1.2]],
        &[[1.3, 0.0], [0.0, -1.3], [0.93, 0.93]],
    );
}

/// A 2 × 2 m platform 0.6 m high with two 0.3 m deep steps (0.2 and 0.4 m) on its front
/// (−Y) side, 1 m wide, at x 0.5..1.5.
fn platform_with_steps() -> NavMesh {
    let mut mesh = NavMesh::default();
    cuboid(&mut mesh, [0.0, 0.0, 0.0], [2.0, 2.0, 0.6]);
    cuboid(&mut mesh, [0.5, -0.6, 0.0], [1.5, -0.3, 0.2]);
    cuboid(&mut mesh, [0.5, -0.3, 0.0], [1.5, 0.0, 0.4]);
    mesh
}

#[test]
fn a_platform_with_steps_has_a_walkable_top_at_each_height() {
    let made = placeable(&platform_with_steps(), &at_radius(0.0));
    let mesh = &made.mesh;
    // Walkable: 4 m² of platform and 0.3 m² per step, each at its own height.
    assert!(
        (area(mesh, true) - 4.6).abs() < 0.01,
        "{}",
        area(mesh, true)
    );
    assert_eq!(area(mesh, false), 0.0);
    assert_eq!(face_at(mesh, [1.0, 1.0]), Some((0.6, true)));
    assert_eq!(face_at(mesh, [1.0, -0.45]), Some((0.2, true)));
    assert_eq!(face_at(mesh, [1.0, -0.15]), Some((0.4, true)));
    assert_eq!(face_at(mesh, [1.95, 1.95]), Some((0.6, true)));
    assert_points(
        mesh,
        &[[0.55, -0.55]],
        &[[0.45, -0.45], [1.0, -0.65], [2.05, 1.0]],
    );
    // Without its steps the 0.6 m platform is beyond the 0.25 m climb: blocked.
    let mut bare = NavMesh::default();
    cuboid(&mut bare, [0.0, 0.0, 0.0], [2.0, 2.0, 0.6]);
    let made = placeable(&bare, &at_radius(0.0));
    assert_eq!(area(&made.mesh, true), 0.0);
    assert!((area(&made.mesh, false) - 4.0).abs() < 0.01);
    // A 0.2 m dais is within the climb: all of it walkable.
    let mut dais = NavMesh::default();
    cuboid(&mut dais, [0.0, 0.0, 0.0], [2.0, 2.0, 0.2]);
    let made = placeable(&dais, &at_radius(0.0));
    assert!((area(&made.mesh, true) - 4.0).abs() < 0.01);
    assert_eq!(face_at(&made.mesh, [1.0, 1.0]), Some((0.2, true)));
}

#[test]
fn at_the_preset_radius_the_platform_side_is_a_wall_and_its_steps_are_not() {
    let made = placeable(&platform_with_steps(), &preset(ObjectKind::Placeable));
    let mesh = &made.mesh;
    // The ground 0.2 m beside the platform's side is blocked; the ground before the lowest
    // step (0.2 m high, within the climb) is free.
    assert_eq!(face_at(mesh, [2.2, 1.0]), Some((0.0, false)));
    assert_eq!(face_at(mesh, [2.3, 1.0]), None);
    assert_eq!(face_at(mesh, [1.0, -0.65]), None);
    assert_eq!(face_at(mesh, [1.0, 1.0]), Some((0.6, true)));
}

#[test]
fn use_points_stand_before_the_front_side_or_come_from_the_input() {
    // The crate at radius 0.25: footprint x −0.75..0.75, front y −0.75; use points 0.4 m
    // before it at a quarter of the width left and right of the middle.
    let made = placeable(&crate_mesh(), &preset(ObjectKind::Placeable));
    let hooks = &made.mesh.hooks;
    assert_eq!(hooks.len(), 2);
    let near = |h: &Hook, name: &str, p: [f32; 3]| {
        assert_eq!(h.name, name);
        assert!(
            h.position.iter().zip(p).all(|(a, b)| (a - b).abs() < 0.01),
            "{h:?} vs {p:?}"
        );
    };
    near(&hooks[0], "use1", [-0.375, -1.15, 0.0]);
    near(&hooks[1], "use2", [0.375, -1.15, 0.0]);
    let report = made.report.object.unwrap();
    assert_eq!(
        report.use_points,
        walkmesh_generate::placeable::UsePoints::Front
    );

    let mut with_points = crate_mesh();
    with_points.hooks = vec![
        Hook {
            name: "USE2".into(),
            position: [0.1, 0.9, 0.0],
        },
        Hook {
            name: "use1".into(),
            position: [-0.2, -0.9, 0.0],
        },
    ];
    let made = placeable(&with_points, &preset(ObjectKind::Placeable));
    near(&made.mesh.hooks[0], "use1", [-0.2, -0.9, 0.0]);
    near(&made.mesh.hooks[1], "use2", [0.1, 0.9, 0.0]);
    assert_eq!(
        made.report.object.unwrap().use_points,
        walkmesh_generate::placeable::UsePoints::Model
    );
}

#[test]
fn a_door_is_its_closed_slab_with_a_use_point_on_each_side() {
    // A 2 m wide, 0.1 m thick, 2.5 m high panel across the frame (x −1..1, y −0.05..0.05).
    let mut door = NavMesh::default();
    cuboid(&mut door, [-1.0, -0.05, 0.0], [1.0, 0.05, 2.5]);
    let params = preset(ObjectKind::Door);
    assert_eq!(params.agent_radius, 0.0);
    let made = generate_object(&door, &params, ObjectKind::Door).unwrap();
    assert_eq!(made.mesh.kind, walkmesh_core::MeshKind::Door);
    assert_bounds(&made.mesh, [-1.0, -0.05, 1.0, 0.05]);
    assert!((area(&made.mesh, false) - 0.2).abs() < 0.005);
    assert_points(
        &made.mesh,
        &[[0.0, 0.0], [0.95, 0.03]],
        &[[0.0, 0.1], [1.05, 0.0]],
    );
    let hooks: Vec<[f32; 3]> = made.mesh.hooks.iter().map(|h| h.position).collect();
    assert_eq!(hooks.len(), 2);
    assert!(
        (hooks[0][1] + 0.45).abs() < 0.01 && hooks[0][0].abs() < 0.01,
        "{hooks:?}"
    );
    assert!(
        (hooks[1][1] - 0.45).abs() < 0.01 && hooks[1][0].abs() < 0.01,
        "{hooks:?}"
    );
    let mut diag = walkmesh_core::Diagnostics::new();
    made.report.warn_lossy_steps(&mut diag);
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "generate.door_open_states_not_generated")
    );
}

#[test]
fn a_model_sunk_below_its_origin_stands_on_the_origin() {
    // A plinth from −0.5 to 0.02 (sunk in the floor, a rug-thin rim above it) and a 1 m
    // column on it: the ground is the origin's height, the plinth is not in the footprint.
    let mut mesh = NavMesh::default();
    cuboid(&mut mesh, [-1.0, -1.0, -0.5], [1.0, 1.0, 0.02]);
    cuboid(&mut mesh, [-0.2, -0.2, 0.02], [0.2, 0.2, 1.0]);
    let made = placeable(&mesh, &at_radius(0.0));
    assert_eq!(made.report.object.as_ref().unwrap().ground, 0.0);
    assert_bounds(&made.mesh, [-0.2, -0.2, 0.2, 0.2]);
}
