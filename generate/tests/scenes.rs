//! Designed scenes with known answers: points that must be walkable and reachable, walkable but
//! unreachable, or not walkable, on triangle soups built here (floors, boxes, stairs, ramps,
//! a table, a low passage, stacked floors, rotated and scaled objects).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};
use walkmesh_generate::{Engine, Params, generate};

const RENDER: Surface = Surface {
    material: Material(0),
    walkable: false,
    code: 0,
};

/// A render-geometry soup under construction.
#[derive(Default)]
struct Scene {
    mesh: NavMesh,
}

impl Scene {
    /// A planar quad, corners counter-clockwise seen from its front.
    fn quad(&mut self, corners: [[f32; 3]; 4]) {
        let base = self.mesh.vertices.len() as u32;
        self.mesh.vertices.extend(corners);
        self.mesh.push_polygon(&[base, base + 1, base + 2], RENDER);
        self.mesh.push_polygon(&[base, base + 2, base + 3], RENDER);
    }

    /// A floor rectangle at height z.
    fn floor(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, z: f32) {
        self.quad([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]]);
    }

    /// A closed box of half sizes `half` around `centre`, turned by `angle` degrees about +Z.
    fn box_turned(&mut self, centre: [f32; 3], half: [f32; 3], angle: f32) {
        let (s, c) = angle.to_radians().sin_cos();
        let p = |x: f32, y: f32, z: f32| {
            let (dx, dy) = (x * half[0], y * half[1]);
            [
                centre[0] + dx * c - dy * s,
                centre[1] + dx * s + dy * c,
                centre[2] + z * half[2],
            ]
        };
        let faces = [
            [
                p(-1., -1., 1.),
                p(1., -1., 1.),
                p(1., 1., 1.),
                p(-1., 1., 1.),
            ],
            [
                p(-1., -1., -1.),
                p(-1., 1., -1.),
                p(1., 1., -1.),
                p(1., -1., -1.),
            ],
            [
                p(-1., -1., -1.),
                p(1., -1., -1.),
                p(1., -1., 1.),
                p(-1., -1., 1.),
            ],
            [
                p(1., -1., -1.),
                p(1., 1., -1.),
                p(1., 1., 1.),
                p(1., -1., 1.),
            ],
            [
                p(1., 1., -1.),
                p(-1., 1., -1.),
                p(-1., 1., 1.),
                p(1., 1., 1.),
            ],
            [
                p(-1., 1., -1.),
                p(-1., -1., -1.),
                p(-1., -1., 1.),
                p(-1., 1., 1.),
            ],
        ];
        for f in faces {
            self.quad(f);
        }
    }

    fn cuboid(&mut self, lo: [f32; 3], hi: [f32; 3]) {
        let centre = [
            (lo[0] + hi[0]) / 2.0,
            (lo[1] + hi[1]) / 2.0,
            (lo[2] + hi[2]) / 2.0,
        ];
        let half = [
            (hi[0] - lo[0]) / 2.0,
            (hi[1] - lo[1]) / 2.0,
            (hi[2] - lo[2]) / 2.0,
        ];
        self.box_turned(centre, half, 0.0);
    }

    /// A ramp along +x from (x0, z0) to (x1, z1), y0..y1 wide, with its sides and end wall.
    fn ramp(&mut self, x0: f32, x1: f32, y0: f32, y1: f32, z0: f32, z1: f32) {
        self.quad([[x0, y0, z0], [x1, y0, z1], [x1, y1, z1], [x0, y1, z0]]);
    }
}

/// Output heights at plan point (x, y): one per face covering it.
fn heights_at(mesh: &NavMesh, x: f32, y: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let v: Vec<[f32; 3]> = corners.iter().map(|&i| mesh.vertex(i)).collect();
        let [a, b, c] = [v[0], v[1], v[2]];
        let d = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        let l1 = ((b[0] - x) * (c[1] - y) - (b[1] - y) * (c[0] - x)) / d;
        let l2 = ((c[0] - x) * (a[1] - y) - (c[1] - y) * (a[0] - x)) / d;
        let l3 = 1.0 - l1 - l2;
        if l1 >= -1e-4 && l2 >= -1e-4 && l3 >= -1e-4 {
            out.push(l1 * a[2] + l2 * b[2] + l3 * c[2]);
        }
    }
    out
}

fn walkable_at(mesh: &NavMesh, p: [f32; 3]) -> bool {
    heights_at(mesh, p[0], p[1])
        .iter()
        .any(|z| (z - p[2]).abs() < 0.1)
}

/// The point classes of a scene.
enum Expect {
    Reachable,
    Unreachable,
    Blocked,
    /// Not in the reachable output (the inside of a closed box: walkable floor nobody reaches).
    NotReached,
}

fn check_scene(name: &str, scene: &Scene, params: &Params, points: &[([f32; 3], Expect)]) {
    let reached = generate(&scene.mesh, params).unwrap();
    let mut all = params.clone();
    all.keep_unreachable = true;
    let everything = generate(&scene.mesh, &all).unwrap();
    for (point, expect) in points {
        let (a, b) = (
            walkable_at(&reached.mesh, *point),
            walkable_at(&everything.mesh, *point),
        );
        let ok = match expect {
            Expect::Reachable => a && b,
            Expect::Unreachable => !a && b,
            Expect::Blocked => !a && !b,
            Expect::NotReached => !a,
        };
        assert!(
            ok,
            "{name}: point {point:?}: reachable output {a}, keep-unreachable output {b}; heights there {:?}\n{}",
            heights_at(&everything.mesh, point[0], point[1]),
            reached.report.text()
        );
    }
    for generated in [&reached, &everything] {
        assert_lint_clean(name, &generated.mesh);
    }
}

fn assert_lint_clean(name: &str, mesh: &NavMesh) {
    mesh.check().unwrap();
    let findings = walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None);
    let bad: Vec<_> = findings
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
        .map(|f| (f.code, f.at, f.message))
        .collect();
    assert!(bad.is_empty(), "{name}: lint findings {bad:#?}");
}

fn kotor() -> Params {
    Params::preset(Engine::Kotor)
}

#[test]
fn flat_floor_is_one_walkable_piece_reaching_the_edges() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.0, 8.0, 0.0);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    let area = out.report.walkable_area;
    assert!(
        (area - 80.0).abs() < 1.0,
        "area {area}\n{}",
        out.report.text()
    );
    assert!(walkable_at(&out.mesh, [0.05, 0.05, 0.0]));
    assert!(walkable_at(&out.mesh, [9.95, 7.95, 0.0]));
    assert!(
        out.mesh.polygons.len() < 20,
        "a flat rectangle needs few faces: {}",
        out.mesh.polygons.len()
    );
    assert_lint_clean("flat", &out.mesh);
}

#[test]
fn table_top_is_walkable_but_unreachable_and_the_floor_under_it_is_blocked() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.0, 10.0, 0.0);
    scene.cuboid([3.0, 3.0, 0.75], [5.0, 5.0, 0.8]);
    check_scene(
        "table",
        &scene,
        &kotor(),
        &[
            ([1.0, 1.0, 0.0], Expect::Reachable),
            ([4.0, 4.0, 0.8], Expect::Unreachable),
            ([4.0, 4.0, 0.0], Expect::Blocked),
        ],
    );
}

#[test]
fn stairs_within_the_climb_lead_up_and_a_wall_does_not() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 12.0, 10.0, 0.0);
    // Five steps of 0.2 m up to a platform at 1.0 m on the east (x 8..12, y 0..4).
    for i in 0..5 {
        let x = 3.0 + i as f32 * 1.0;
        scene.cuboid([x, 0.0, 0.0], [12.0, 4.0, 0.2 * (i + 1) as f32]);
    }
    // A block 1 m high with no way up (y 6..9, x 8..11).
    scene.cuboid([8.0, 6.0, 0.0], [11.0, 9.0, 1.0]);
    check_scene(
        "stairs",
        &scene,
        &kotor(),
        &[
            ([1.0, 8.0, 0.0], Expect::Reachable),
            ([3.5, 2.0, 0.2], Expect::Reachable),
            ([10.0, 2.0, 1.0], Expect::Reachable),
            ([9.5, 7.5, 1.0], Expect::Unreachable),
        ],
    );
}

#[test]
fn ramps_under_the_slope_limit_are_walkable_and_over_it_are_not() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 20.0, 12.0, 0.0);
    // Gentle ramp: 20° up to a platform at 1.5 m; steep ramp: 60° up to another one.
    let rise: f32 = 1.5;
    let gentle = rise / 20f32.to_radians().tan();
    scene.ramp(2.0, 2.0 + gentle, 1.0, 4.0, 0.0, rise);
    scene.cuboid([2.0 + gentle, 1.0, 0.0], [2.0 + gentle + 3.0, 4.0, rise]);
    let steep = rise / 60f32.to_radians().tan();
    scene.ramp(2.0, 2.0 + steep, 7.0, 10.0, 0.0, rise);
    scene.cuboid([2.0 + steep, 7.0, 0.0], [2.0 + steep + 3.0, 10.0, rise]);
    let mid = 2.0 + gentle / 2.0;
    check_scene(
        "ramps",
        &scene,
        &kotor(),
        &[
            ([mid, 2.5, rise / 2.0], Expect::Reachable),
            ([2.0 + gentle + 1.5, 2.5, rise], Expect::Reachable),
            ([2.0 + steep / 2.0, 8.5, rise / 2.0], Expect::Blocked),
            ([2.0 + steep + 1.5, 8.5, rise], Expect::Unreachable),
        ],
    );
}

#[test]
fn a_passage_lower_than_the_agent_is_not_walkable() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 16.0, 6.0, 0.0);
    // A slab 1.0 m above the floor (lower than KotOR's 1.4 m clearance) over x 4..8: the
    // floor west of it (x < 4) is cut off from the larger east part.
    scene.cuboid([4.0, 0.0, 1.0], [8.0, 6.0, 1.2]);
    check_scene(
        "low passage",
        &scene,
        &kotor(),
        &[
            ([12.0, 3.0, 0.0], Expect::Reachable),
            ([2.0, 3.0, 0.0], Expect::Unreachable),
            ([6.0, 3.0, 0.0], Expect::Blocked),
            ([6.0, 3.0, 1.2], Expect::Unreachable),
        ],
    );
}

#[test]
fn stacked_floors_are_both_walkable_with_their_own_heights() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 20.0, 10.0, 0.0);
    // An upper floor at 3 m over x 10..20, reached by a 25° ramp along y 0..3 from x 2.
    let run = 3.0 / 25f32.to_radians().tan();
    scene.ramp(10.0 - run, 10.0, 0.0, 3.0, 0.0, 3.0);
    scene.cuboid([10.0, 0.0, 2.9], [20.0, 10.0, 3.0]);
    check_scene(
        "stacked",
        &scene,
        &kotor(),
        &[
            ([3.0, 6.0, 0.0], Expect::Reachable),
            ([15.0, 5.0, 0.0], Expect::Reachable),
            ([15.0, 5.0, 3.0], Expect::Reachable),
            ([10.0 - run / 2.0, 1.5, 1.5], Expect::Reachable),
        ],
    );
}

#[test]
fn rotated_and_scaled_objects_block_their_own_footprint() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 12.0, 12.0, 0.0);
    // A crate turned 30°, 1 × 3 m, and a pillar turned 45°, scaled flat and tall.
    scene.box_turned([4.0, 4.0, 1.0], [0.5, 1.5, 1.0], 30.0);
    scene.box_turned([8.0, 8.0, 2.0], [1.0, 0.3, 2.0], 45.0);
    check_scene(
        "rotated",
        &scene,
        &kotor(),
        &[
            ([1.0, 1.0, 0.0], Expect::Reachable),
            ([4.0, 4.0, 0.0], Expect::NotReached),
            // Along the crate's long axis (30° from +y), 1.2 m from its centre: inside.
            (
                [4.0 - 1.2 * 0.5, 4.0 + 1.2 * 0.866, 0.0],
                Expect::NotReached,
            ),
            // Across its short axis, 1 m out: free floor.
            ([4.0 + 1.0 * 0.866, 4.0 + 1.0 * 0.5, 0.0], Expect::Reachable),
            ([8.0, 8.0, 0.0], Expect::NotReached),
            ([8.0 + 0.6, 8.0 - 0.6, 0.0], Expect::Reachable),
        ],
    );
}

#[test]
fn seeds_pick_the_component_and_misses_are_reported() {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.0, 10.0, 0.0);
    scene.floor(20.0, 0.0, 24.0, 4.0, 0.0);
    let mut params = kotor();
    params.seeds = vec![[22.0, 2.0, 0.0], [50.0, 50.0, 0.0]];
    let out = generate(&scene.mesh, &params).unwrap();
    assert!(walkable_at(&out.mesh, [22.0, 2.0, 0.0]));
    assert!(!walkable_at(&out.mesh, [5.0, 5.0, 0.0]));
    assert_eq!(out.report.seeds_missed, vec![[50.0, 50.0, 0.0]]);
    assert_eq!(out.report.dropped.len(), 1);
    assert!(
        (out.report.dropped_area - 100.0).abs() < 2.0,
        "{}",
        out.report.dropped_area
    );
}

#[test]
fn vertices_sit_on_a_sloped_and_curved_render_floor() {
    // A floor in a gentle wave: z = 0.3·sin(x/2); every output vertex must be on it.
    let mut scene = Scene::default();
    let n = 40;
    for i in 0..n {
        let (x0, x1) = (i as f32 * 0.5, (i + 1) as f32 * 0.5);
        let (z0, z1) = ((x0 / 2.0).sin() * 0.3, (x1 / 2.0).sin() * 0.3);
        scene.quad([[x0, 0.0, z0], [x1, 0.0, z1], [x1, 6.0, z1], [x0, 6.0, z0]]);
    }
    let out = generate(&scene.mesh, &kotor()).unwrap();
    for v in &out.mesh.vertices {
        let x = v[0].clamp(0.0, 20.0);
        // Between the wave's sample points the render floor is piecewise linear.
        let i = ((x / 0.5).floor() as usize).min(n - 1);
        let (x0, x1) = (i as f32 * 0.5, (i + 1) as f32 * 0.5);
        let (z0, z1) = ((x0 / 2.0).sin() * 0.3, (x1 / 2.0).sin() * 0.3);
        let z = z0 + (z1 - z0) * (x - x0) / 0.5;
        assert!((v[2] - z).abs() < 0.02, "vertex {v:?} off the floor ({z})");
    }
    // Faces follow the floor too: at sample points the mesh is within the detail error.
    for x in [1.0f32, 3.3, 7.7, 12.1, 17.9] {
        let z = heights_at(&out.mesh, x, 3.0);
        let want = (x / 2.0).sin() * 0.3;
        assert!(
            z.iter().any(|z| (z - want).abs() < 0.08),
            "at x {x}: {z:?} against {want}"
        );
    }
    assert_lint_clean("wave", &out.mesh);
}

#[test]
fn bad_parameters_and_empty_input_are_errors() {
    let mut params = kotor();
    params.cell_size = 0.0;
    assert!(generate(&NavMesh::default(), &params).is_err());
    assert!(generate(&NavMesh::default(), &kotor()).is_err());
}

/// The z values of the output's vertices inside the plan rectangle.
fn vertex_heights_in(mesh: &NavMesh, lo: [f32; 2], hi: [f32; 2]) -> Vec<f32> {
    mesh.vertices
        .iter()
        .filter(|v| v[0] >= lo[0] && v[0] <= hi[0] && v[1] >= lo[1] && v[1] <= hi[1])
        .map(|v| v[2])
        .collect()
}

#[test]
fn a_floor_on_the_grid_lines_reports_its_own_area() {
    // Edges on cell boundaries once made the floor cover one extra row and column of cells
    // (102.01 m² for this 10 × 10 m floor).
    let mut scene = Scene::default();
    scene.floor(-5.0, -5.0, 5.0, 5.0, 0.0);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    let area = out.report.walkable_area;
    assert!((area - 100.0).abs() < 0.05, "area {area}");
    let xs = out.mesh.vertices.iter().map(|v| v[0]);
    let (lo, hi) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    assert!(
        (lo + 5.0).abs() < 1e-3 && (hi - 5.0).abs() < 1e-3,
        "x {lo}..{hi}"
    );
}

#[test]
fn a_block_within_the_climb_keeps_its_top() {
    // A 1 × 1 m box 0.2 m high on the floor (the Blender check's reproducer, within the
    // KotOR preset's 0.25 m climb): the walkmesh climbs onto it, so its top must be there at
    // 0.2 m, not flattened into the floor.
    let mut scene = Scene::default();
    scene.floor(-5.0, -5.0, 5.0, 5.0, 0.0);
    scene.cuboid([-3.0, -3.0, 0.0], [-2.0, -2.0, 0.2]);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    let top = vertex_heights_in(&out.mesh, [-3.01, -3.01], [-1.99, -1.99]);
    assert!(
        top.iter().filter(|z| (*z - 0.2).abs() < 1e-3).count() >= 4,
        "vertices on the block: {top:?}"
    );
    let on_top = heights_at(&out.mesh, -2.5, -2.5);
    assert!(
        !on_top.is_empty() && on_top.iter().all(|z| (z - 0.2).abs() < 1e-3),
        "heights on the block {on_top:?}"
    );
    // The floor a metre away is untouched by the step.
    let beside = heights_at(&out.mesh, -1.0, -2.5);
    assert!(beside.iter().all(|z| z.abs() < 1e-3), "beside {beside:?}");
    // The riser is one cell wide: nothing between the top and the floor farther out.
    let foot = heights_at(&out.mesh, -1.85, -2.5);
    assert!(foot.iter().all(|z| z.abs() < 1e-3), "foot {foot:?}");
    check_scene(
        "block",
        &scene,
        &kotor(),
        &[
            ([0.0, 0.0, 0.0], Expect::Reachable),
            ([-2.5, -2.5, 0.2], Expect::Reachable),
        ],
    );
}

#[test]
fn the_blender_generate_case_holds_its_figures() {
    // .ci/peers/blender_addon_check.py's generate_case: a 10 m floor, a 2 × 2 × 1 m table and
    // a 1.6 × 1.0 × 0.2 m block turned 45°: about 96 m², the block top at 0.2, nothing under
    // the table.
    let mut scene = Scene::default();
    scene.floor(-5.0, -5.0, 5.0, 5.0, 0.0);
    scene.cuboid([1.0, 1.0, 0.0], [3.0, 3.0, 1.0]);
    scene.box_turned([-2.5, -2.5, 0.1], [0.8, 0.5, 0.1], 45.0);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    let area = out.report.walkable_area;
    assert!((94.0..=97.5).contains(&area), "area {area}");
    let on_block = heights_at(&out.mesh, -2.5, -2.5);
    assert!(
        !on_block.is_empty() && on_block.iter().all(|z| (z - 0.2).abs() < 1e-3),
        "heights on the block {on_block:?}"
    );
    assert!(heights_at(&out.mesh, 2.0, 2.0).is_empty());
    assert_lint_clean("blender case", &out.mesh);
}

#[test]
fn effect_panels_do_not_cut_the_floor() {
    // A light-shaft panel (material `LKOfx_clouds`, as in Dantooine's hall_1) slanting from the
    // floor to 3 m across the room: an effect, nothing collides with it, so the floor on its
    // far side is reached.
    use walkmesh_core::ir::{Attribute, Extra};
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.0, 6.0, 0.0);
    let floor_faces = scene.mesh.polygons.len();
    scene.quad([
        [4.0, 0.0, 0.0],
        [4.0, 6.0, 0.0],
        [4.6, 6.0, 3.0],
        [4.6, 0.0, 3.0],
    ]);
    let mut column = vec![0i64; floor_faces];
    column.resize(scene.mesh.polygons.len(), 1);
    scene
        .mesh
        .face_attributes
        .insert("render:material".into(), Attribute::Int(column));
    scene.mesh.extras.insert(
        "render:materials".into(),
        Extra::TextList(vec!["LDA_flr09".into(), "LKOfx_clouds".into()]),
    );
    check_scene(
        "effect panel",
        &scene,
        &kotor(),
        &[
            ([1.0, 3.0, 0.0], Expect::Reachable),
            ([8.0, 3.0, 0.0], Expect::Reachable),
        ],
    );
}

#[test]
fn an_untextured_model_helper_is_no_floor() {
    // m12aa_01f: a huge untextured plane (`Box20`, its faces named after their node as the MDL
    // reader does when a node has no texture) under the room outgrew the cab BioWare walks.
    use walkmesh_core::ir::{Attribute, Extra};
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 6.0, 5.0, 1.8);
    let cab_faces = scene.mesh.polygons.len();
    scene.floor(-40.0, -40.0, 40.0, 40.0, 0.0);
    let count = scene.mesh.polygons.len();
    let mut material = vec![0i64; cab_faces];
    material.resize(count, 1);
    let mut node = vec![0i64; cab_faces];
    node.resize(count, 1);
    let mesh = &mut scene.mesh;
    mesh.face_attributes
        .insert("mdl:material".into(), Attribute::Int(material));
    mesh.extras.insert(
        "mdl:materials".into(),
        Extra::TextList(vec!["M12aa_flr01".into(), "Box20".into()]),
    );
    mesh.face_attributes
        .insert("mdl:node".into(), Attribute::Int(node));
    mesh.extras.insert(
        "mdl:nodes".into(),
        Extra::TextList(vec!["cab_floor".into(), "Box20".into()]),
    );
    let points = [
        ([3.0, 2.5, 1.8], Expect::Reachable),
        ([20.0, 20.0, 0.0], Expect::Blocked),
    ];
    check_scene("untextured helper", &scene, &kotor(), &points);
    // The CLI and Python merge their inputs first: the node names must survive that.
    let merged = Scene {
        mesh: walkmesh_generate::combine(&[scene.mesh.clone()]),
    };
    check_scene("untextured helper, combined", &merged, &kotor(), &points);
}

#[test]
fn a_trim_bar_with_steep_bevels_across_a_walkway_is_crossed() {
    // m50aa_01a: a trim bar 0.12 m high laid across the catwalk, its two 50° bevels one cell
    // wide each with no floor modelled under them. The bevels are within the climb between
    // the floor and the bar's top, so the floor on both sides is one walkway.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 6.0, 4.0, 0.0);
    scene.quad([
        [0.0, 4.0, 0.0],
        [6.0, 4.0, 0.0],
        [6.0, 4.1, 0.12],
        [0.0, 4.1, 0.12],
    ]);
    scene.floor(0.0, 4.1, 6.0, 4.4, 0.12);
    scene.quad([
        [0.0, 4.4, 0.12],
        [6.0, 4.4, 0.12],
        [6.0, 4.5, 0.0],
        [0.0, 4.5, 0.0],
    ]);
    scene.floor(0.0, 4.5, 6.0, 10.0, 0.0);
    check_scene(
        "trim bar",
        &scene,
        &kotor(),
        &[
            ([3.0, 2.0, 0.0], Expect::Reachable),
            ([3.0, 7.0, 0.0], Expect::Reachable),
        ],
    );
}

#[test]
fn a_steep_front_one_cell_wide_is_no_way_up_onto_a_seat() {
    // sithbase hall_6 and enclavesurface generic_1: a seat 0.5 m above the floor whose front
    // is steep and one cell wide, its top within a climb of the floor and of the seat. The
    // bevel rule (a steep span one cell wide between floors within a climb of its top, on
    // opposite sides, is crossed) made it a way up: two climbs in one cell. The two floors
    // must be within a climb of each other too.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 2.0, 6.0, 0.0);
    // The front: 70° from the floor at x = 2.0 to 0.28 m at x = 2.1, then a riser to the seat.
    scene.quad([
        [2.0, 0.0, 0.0],
        [2.1, 0.0, 0.28],
        [2.1, 6.0, 0.28],
        [2.0, 6.0, 0.0],
    ]);
    scene.quad([
        [2.1, 0.0, 0.28],
        [2.1, 0.0, 0.5],
        [2.1, 6.0, 0.5],
        [2.1, 6.0, 0.28],
    ]);
    scene.floor(2.1, 0.0, 3.5, 6.0, 0.5);
    check_scene(
        "seat front",
        &scene,
        &kotor(),
        &[
            ([1.0, 3.0, 0.0], Expect::Reachable),
            ([3.0, 3.0, 0.5], Expect::Unreachable),
        ],
    );
}

#[test]
fn a_riser_is_one_step_from_its_floor_not_a_floor_to_step_up_from() {
    // sithbase hall_6's benches: a steep front rising from the floor to a seat 0.45 m up,
    // across two cells. In the first cell the front's top (0.225 m) merges with the floor
    // under it and is walkable (a riser, as Recast makes stair risers); from there the seat
    // was one more step of 0.225 m: two climbs over two cells. A riser leads on only to
    // floors within a climb of the floor it rises from.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 2.05, 6.0, 0.0);
    scene.quad([
        [2.05, 0.0, 0.0],
        [2.15, 0.0, 0.45],
        [2.15, 6.0, 0.45],
        [2.05, 6.0, 0.0],
    ]);
    scene.floor(2.15, 0.0, 3.5, 6.0, 0.45);
    check_scene(
        "riser",
        &scene,
        &kotor(),
        &[
            ([1.0, 3.0, 0.0], Expect::Reachable),
            ([3.0, 3.0, 0.45], Expect::Unreachable),
        ],
    );
}

#[test]
fn a_riser_over_a_gap_is_one_step_from_its_floor_too() {
    // The same as the riser above, the front standing 0.1 m clear of the floor (a separate
    // span, made walkable by the low-obstacle filter rather than by the merge): still one
    // step from the floor under it, no way up onto a seat 0.4 m up.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 2.05, 6.0, 0.0);
    scene.quad([
        [2.05, 0.0, 0.1],
        [2.15, 0.0, 0.4],
        [2.15, 6.0, 0.4],
        [2.05, 6.0, 0.1],
    ]);
    scene.floor(2.15, 0.0, 3.5, 6.0, 0.4);
    check_scene(
        "riser over a gap",
        &scene,
        &kotor(),
        &[
            ([1.0, 3.0, 0.0], Expect::Reachable),
            ([3.0, 3.0, 0.4], Expect::Unreachable),
        ],
    );
}

#[test]
fn a_gently_sloped_wall_foot_is_no_floor() {
    // escape_pods: the curved foot of the wall (texture LHR_wall03) rises at 19°, within the
    // slope limit, along the whole room; BioWare's walkmesh stops where the floor texture
    // ends. A flat face with a wall texture is still floor (some rooms do that).
    use walkmesh_core::ir::{Attribute, Extra};
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 8.0, 6.0, 0.0);
    let floor_faces = scene.mesh.polygons.len();
    // The foot: from the floor's edge at x = 0 out to x = -1.5, rising 0.52 m (19°).
    scene.quad([
        [-1.5, 0.0, 0.52],
        [0.0, 0.0, 0.0],
        [0.0, 6.0, 0.0],
        [-1.5, 6.0, 0.52],
    ]);
    let foot_faces = scene.mesh.polygons.len();
    // A flat landing textured as wall, beyond the floor on the other side.
    scene.floor(8.0, 0.0, 10.0, 6.0, 0.0);
    let mut column = vec![0i64; floor_faces];
    column.resize(foot_faces, 1);
    column.resize(scene.mesh.polygons.len(), 1);
    scene
        .mesh
        .face_attributes
        .insert("render:material".into(), Attribute::Int(column));
    scene.mesh.extras.insert(
        "render:materials".into(),
        Extra::TextList(vec!["LHR_flr01".into(), "LHR_wall03".into()]),
    );
    check_scene(
        "wall foot",
        &scene,
        &kotor(),
        &[
            ([4.0, 3.0, 0.0], Expect::Reachable),
            ([9.0, 3.0, 0.0], Expect::Reachable),
            ([-0.9, 3.0, 0.31], Expect::Blocked),
        ],
    );
}

#[test]
fn a_curved_wall_foot_is_no_floor_down_to_its_gentlest_row() {
    // endarspire junction_2: the wall (texture LHR_wall06) bends up from the floor in rows of
    // 7°, 11°, 16° … 42°; its 7° row, under the wall rule's 10°, was floor (28 m² of the room
    // that BioWare leaves out). A walkway textured as wall, at 6°, whose side meets a 45° beam
    // at a sharp bend stays floor (Kashyyyk's walkways).
    use walkmesh_core::ir::{Attribute, Extra};
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 8.0, 6.0, 0.0);
    let floor_faces = scene.mesh.polygons.len();
    // The wall foot out from x = 0 towards -x: rows of 7°, 16°, 30°, 45°, then a vertical wall.
    let mut x = 0.0f32;
    let mut z = 0.0f32;
    for (width, degrees) in [(0.8f32, 7.0f32), (0.3, 16.0), (0.3, 30.0), (0.3, 45.0)] {
        let (x1, z1) = (x - width, z + width * degrees.to_radians().tan());
        scene.quad([[x1, 0.0, z1], [x, 0.0, z], [x, 6.0, z], [x1, 6.0, z1]]);
        (x, z) = (x1, z1);
    }
    scene.quad([[x, 6.0, z], [x, 6.0, 3.0], [x, 0.0, 3.0], [x, 0.0, z]]);
    // The walkway beyond x = 8: 6° up to x = 10, a 45° beam along its y = 6 side.
    let rise = |x: f32| (x - 8.0) * 6f32.to_radians().tan();
    scene.quad([
        [8.0, 0.0, 0.0],
        [10.0, 0.0, rise(10.0)],
        [10.0, 6.0, rise(10.0)],
        [8.0, 6.0, 0.0],
    ]);
    scene.quad([
        [8.0, 6.0, 0.0],
        [10.0, 6.0, rise(10.0)],
        [10.0, 6.5, rise(10.0) + 0.5],
        [8.0, 6.5, 0.5],
    ]);
    let mut column = vec![0i64; floor_faces];
    column.resize(scene.mesh.polygons.len(), 1);
    scene
        .mesh
        .face_attributes
        .insert("render:material".into(), Attribute::Int(column));
    scene.mesh.extras.insert(
        "render:materials".into(),
        Extra::TextList(vec!["LHR_flr01".into(), "LHR_wall06".into()]),
    );
    check_scene(
        "curved wall foot",
        &scene,
        &kotor(),
        &[
            ([4.0, 3.0, 0.0], Expect::Reachable),
            ([9.0, 3.0, rise(9.0)], Expect::Reachable),
            ([-0.4, 3.0, 0.05], Expect::Blocked),
        ],
    );
}

#[test]
fn a_ramp_of_35_degrees_is_too_steep_for_the_kotor_preset() {
    // BioWare's walkable faces in the 34 shared rooms are all but 0.1 % under 20° (and none
    // of their non-walkable faces' slopes between 10° and 40° are rare), so the preset's
    // limit is 30°: a 35° ramp to a platform is no floor, a 25° one is.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 20.0, 12.0, 0.0);
    let rise: f32 = 1.5;
    let steep = rise / 35f32.to_radians().tan();
    scene.ramp(2.0, 2.0 + steep, 1.0, 4.0, 0.0, rise);
    scene.cuboid([2.0 + steep, 1.0, 0.0], [2.0 + steep + 3.0, 4.0, rise]);
    let gentle = rise / 25f32.to_radians().tan();
    scene.ramp(2.0, 2.0 + gentle, 7.0, 10.0, 0.0, rise);
    scene.cuboid([2.0 + gentle, 7.0, 0.0], [2.0 + gentle + 3.0, 10.0, rise]);
    check_scene(
        "ramp 35°",
        &scene,
        &kotor(),
        &[
            ([2.0 + steep / 2.0, 2.5, rise / 2.0], Expect::Blocked),
            ([2.0 + steep + 1.5, 2.5, rise], Expect::Unreachable),
            ([2.0 + gentle / 2.0, 8.5, rise / 2.0], Expect::Reachable),
        ],
    );
}

#[test]
fn a_wall_margin_pulls_the_floor_back_from_walls_but_not_from_open_edges() {
    // A 10 m floor with a 3 m wall standing on it from y = 0 to 6 at x = 4.9..5.1.
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.0, 10.0, 0.0);
    scene.cuboid([4.9, 0.0, 0.0], [5.1, 6.0, 3.0]);
    let mut params = kotor();
    check_scene(
        "no margin",
        &scene,
        &params,
        &[([4.85, 3.0, 0.0], Expect::Reachable)],
    );
    params.wall_margin = 0.3;
    check_scene(
        "wall margin",
        &scene,
        &params,
        &[
            // Beside the wall: pulled back on both sides.
            ([4.75, 3.0, 0.0], Expect::Blocked),
            ([5.25, 3.0, 0.0], Expect::Blocked),
            ([4.5, 3.0, 0.0], Expect::Reachable),
            // Open edges of the floor keep their floor.
            ([0.05, 3.0, 0.0], Expect::Reachable),
            ([9.95, 9.95, 0.0], Expect::Reachable),
            ([5.0, 0.3, 0.0], Expect::Blocked),
            ([3.0, 0.05, 0.0], Expect::Reachable),
        ],
    );
}

#[test]
fn a_crack_one_cell_wide_between_floors_is_crossed_and_a_wider_gap_is_not() {
    // Two floors 0.15 m apart (an empty 0.1 m column between them: a seam of the render
    // mesh), and a third floor 0.3 m beyond the second (three empty columns: a gap).
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 5.0, 10.0, 0.0);
    scene.floor(5.15, 0.0, 8.0, 10.0, 0.1);
    scene.floor(8.3, 0.0, 10.0, 10.0, 0.1);
    check_scene(
        "crack",
        &scene,
        &kotor(),
        &[
            ([2.0, 5.0, 0.0], Expect::Reachable),
            ([6.5, 5.0, 0.1], Expect::Reachable),
            ([9.0, 5.0, 0.1], Expect::Unreachable),
        ],
    );
}

#[test]
fn an_open_floor_edge_inside_a_cell_ends_on_the_render_floors_edge() {
    // A floor ending 0.04 m into a 0.1 m cell at x = 10.04 and 0.06 m into one at y = 8.06,
    // with nothing rising beyond (no wall is written there). The voxel contour ends on whole
    // cells (x = 10.0, y = 8.1); the walkmesh ends on the modeller's line instead
    // (floor_ends.rs): exactly the render floor, 10.04 × 8.06 = 80.9224 m².
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 10.04, 8.06, 0.0);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    assert!(walkable_at(&out.mesh, [10.035, 4.0, 0.0]));
    assert!(!walkable_at(&out.mesh, [10.045, 4.0, 0.0]));
    assert!(walkable_at(&out.mesh, [5.0, 8.055, 0.0]));
    assert!(!walkable_at(&out.mesh, [5.0, 8.065, 0.0]));
    let area = out.report.walkable_area;
    assert!((area - 80.9224).abs() < 1e-3, "area {area}");
    let ends = out.report.floor_ends.unwrap();
    assert!(ends.edges >= 2 && ends.max_move <= 0.15, "{ends:?}");
    assert_lint_clean("edge inside a cell", &out.mesh);
}

#[test]
fn a_slanted_open_floor_end_is_followed_and_a_walled_one_is_not_moved() {
    // The east end of the floor runs from (10, 0) to (12, 8), 14° off the cell grid: the voxel
    // contour is a staircase, simplified to a slanted line near it; the walkmesh ends on the
    // render edge itself. Area: 10 × 8 + 2 × 8 / 2 = 88 m².
    let mut scene = Scene::default();
    scene.quad([
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [12.0, 8.0, 0.0],
        [0.0, 8.0, 0.0],
    ]);
    let out = generate(&scene.mesh, &kotor()).unwrap();
    let area = out.report.walkable_area;
    let near_dbg: Vec<_> = out
        .mesh
        .vertices
        .iter()
        .filter(|v| v[0] > 9.5 || v[1] > 7.8)
        .collect();
    assert!(
        (area - 88.0).abs() < 0.02,
        "area {area} {:?} {near_dbg:?}",
        out.report.floor_ends
    );
    // Every vertex near the slanted end lies on its line x = 10 + y / 4.
    let near: Vec<[f32; 3]> = out
        .mesh
        .vertices
        .iter()
        .copied()
        .filter(|v| v[0] > 9.5)
        .collect();
    assert!(!near.is_empty());
    for v in near {
        let off = (v[0] - (10.0 + v[1] / 4.0)).abs();
        assert!(off < 1e-3, "vertex {v:?} is {off} m off the floor's end");
    }
    assert_lint_clean("slanted end", &out.mesh);
    // A wall standing on the floor's end (a 3 m face rising at x = 10.04): the edge is walled,
    // not open, and stays on the voxel contour.
    let mut walled = Scene::default();
    walled.floor(0.0, 0.0, 10.04, 8.0, 0.0);
    walled.quad([
        [10.04, 0.0, 0.0],
        [10.04, 8.0, 0.0],
        [10.04, 8.0, 3.0],
        [10.04, 0.0, 3.0],
    ]);
    let out = generate(&walled.mesh, &kotor()).unwrap();
    assert!(
        out.mesh
            .vertices
            .iter()
            .all(|v| (v[0] - 10.04).abs() > 1e-3),
        "a walled edge moved onto the floor's end"
    );
}

// ---------------------------------------------------------------------------------------------
// Detail heights: the generated surface follows the render floor everywhere, not only at its
// vertices (Recast's detail mesh). Each scene is a height field z = f(x, y) sampled on a grid
// of render quads; the check walks a dense grid in plan, interpolates the walkable face holding
// each point and compares it with the render floor there.

/// A render floor z = f(x, y) over `[x0, x1] × [y0, y1]`, `spacing` apart, as quads whose
/// diagonal runs from (x0, y0) to (x1, y1) corner (as [`Scene::quad`] splits them).
struct HeightField<F: Fn(f32, f32) -> f32> {
    f: F,
    lo: [f32; 2],
    hi: [f32; 2],
    spacing: f32,
}

impl<F: Fn(f32, f32) -> f32> HeightField<F> {
    fn add_to(&self, scene: &mut Scene) {
        let n = self.cells();
        for j in 0..n[1] {
            for i in 0..n[0] {
                let (x0, y0) = self.corner(i, j);
                let (x1, y1) = self.corner(i + 1, j + 1);
                let f = &self.f;
                scene.quad([
                    [x0, y0, f(x0, y0)],
                    [x1, y0, f(x1, y0)],
                    [x1, y1, f(x1, y1)],
                    [x0, y1, f(x0, y1)],
                ]);
            }
        }
    }

    fn cells(&self) -> [usize; 2] {
        [0, 1].map(|a| ((self.hi[a] - self.lo[a]) / self.spacing).round() as usize)
    }

    fn corner(&self, i: usize, j: usize) -> (f32, f32) {
        (
            self.lo[0] + i as f32 * self.spacing,
            self.lo[1] + j as f32 * self.spacing,
        )
    }

    /// The render floor's height at (x, y): the plane of the render triangle holding it.
    fn render_height(&self, x: f32, y: f32) -> Option<f32> {
        let n = self.cells();
        let gx = (x - self.lo[0]) / self.spacing;
        let gy = (y - self.lo[1]) / self.spacing;
        if gx < 0.0 || gy < 0.0 || gx > n[0] as f32 || gy > n[1] as f32 {
            return None;
        }
        let (i, j) = (
            (gx.floor() as usize).min(n[0] - 1),
            (gy.floor() as usize).min(n[1] - 1),
        );
        let (fx, fy) = (gx - i as f32, gy - j as f32);
        let (x0, y0) = self.corner(i, j);
        let (x1, y1) = self.corner(i + 1, j + 1);
        let f = &self.f;
        let (z00, z10, z11, z01) = (f(x0, y0), f(x1, y0), f(x1, y1), f(x0, y1));
        Some(if fx >= fy {
            z00 + fx * (z10 - z00) + fy * (z11 - z10)
        } else {
            z00 + fy * (z01 - z00) + fx * (z11 - z01)
        })
    }
}

/// Walkable faces filed by plan bucket, for many point look-ups.
struct FaceIndex {
    triangles: Vec<[[f32; 3]; 3]>,
    lo: [f32; 2],
    bucket: f32,
    columns: usize,
    rows: usize,
    cells: Vec<Vec<usize>>,
}

impl FaceIndex {
    fn new(mesh: &NavMesh) -> FaceIndex {
        let mut triangles = Vec::new();
        for (p, corners) in mesh.polygons.iter().enumerate() {
            if !mesh.is_walkable(p) {
                continue;
            }
            let v: Vec<[f32; 3]> = corners.iter().map(|&i| mesh.vertex(i)).collect();
            for k in 1..v.len() - 1 {
                triangles.push([v[0], v[k], v[k + 1]]);
            }
        }
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for t in &triangles {
            for c in t {
                lo = [lo[0].min(c[0]), lo[1].min(c[1])];
                hi = [hi[0].max(c[0]), hi[1].max(c[1])];
            }
        }
        let bucket = 1.0;
        let columns = ((hi[0] - lo[0]) / bucket) as usize + 1;
        let rows = ((hi[1] - lo[1]) / bucket) as usize + 1;
        let mut cells = vec![Vec::new(); columns * rows];
        for (t, tri) in triangles.iter().enumerate() {
            let bx = |v: f32| ((v - lo[0]) / bucket) as usize;
            let by = |v: f32| ((v - lo[1]) / bucket) as usize;
            let xs = tri.map(|c| c[0]);
            let ys = tri.map(|c| c[1]);
            let (x0, x1) = (
                bx(xs.iter().copied().fold(f32::MAX, f32::min)),
                bx(xs.iter().copied().fold(f32::MIN, f32::max)),
            );
            let (y0, y1) = (
                by(ys.iter().copied().fold(f32::MAX, f32::min)),
                by(ys.iter().copied().fold(f32::MIN, f32::max)),
            );
            for y in y0..=y1.min(rows - 1) {
                for x in x0..=x1.min(columns - 1) {
                    cells[y * columns + x].push(t);
                }
            }
        }
        FaceIndex {
            triangles,
            lo,
            bucket,
            columns,
            rows,
            cells,
        }
    }

    /// Heights of the walkable faces holding plan point (x, y).
    fn heights(&self, x: f32, y: f32) -> Vec<f32> {
        let bx = ((x - self.lo[0]) / self.bucket).floor();
        let by = ((y - self.lo[1]) / self.bucket).floor();
        if bx < 0.0 || by < 0.0 || bx as usize >= self.columns || by as usize >= self.rows {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &t in &self.cells[by as usize * self.columns + bx as usize] {
            let [a, b, c] = self.triangles[t];
            let d = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            if d.abs() < 1e-12 {
                continue;
            }
            let l1 = ((b[0] - x) * (c[1] - y) - (b[1] - y) * (c[0] - x)) / d;
            let l2 = ((c[0] - x) * (a[1] - y) - (c[1] - y) * (a[0] - x)) / d;
            let l3 = 1.0 - l1 - l2;
            if l1 >= -1e-5 && l2 >= -1e-5 && l3 >= -1e-5 {
                out.push(l1 * a[2] + l2 * b[2] + l3 * c[2]);
            }
        }
        out
    }
}

/// How far the walkable surface is from the render floor on a grid `step` apart over the
/// field: the largest error (and where), and the share of grid points the walkmesh covers.
struct SurfaceError {
    max: f32,
    at: [f32; 2],
    mean: f32,
    covered: f64,
}

fn surface_error<F: Fn(f32, f32) -> f32>(
    mesh: &NavMesh,
    field: &HeightField<F>,
    step: f32,
) -> SurfaceError {
    let index = FaceIndex::new(mesh);
    let (mut max, mut at, mut sum, mut covered, mut total) = (0.0f32, [0.0; 2], 0.0f64, 0, 0);
    let n = [0, 1].map(|a| ((field.hi[a] - field.lo[a]) / step) as usize);
    for j in 0..=n[1] {
        for i in 0..=n[0] {
            // Off the grid lines of cells and render quads by an odd fraction.
            let x = field.lo[0] + (i as f32 + 0.37) * step;
            let y = field.lo[1] + (j as f32 + 0.61) * step;
            let Some(want) = field.render_height(x, y) else {
                continue;
            };
            total += 1;
            let heights = index.heights(x, y);
            let Some(error) = heights
                .iter()
                .map(|z| (z - want).abs())
                .min_by(f32::total_cmp)
            else {
                continue;
            };
            covered += 1;
            sum += f64::from(error);
            if error > max {
                max = error;
                at = [x, y];
            }
        }
    }
    SurfaceError {
        max,
        at,
        mean: (sum / f64::from(covered.max(1))) as f32,
        covered: f64::from(covered) / f64::from(total.max(1)),
    }
}

/// Generates the field with `params` and checks the surface against the render floor: within
/// `tolerance` everywhere the walkmesh covers, covering at least `coverage` of the field.
fn assert_follows_the_floor<F: Fn(f32, f32) -> f32>(
    name: &str,
    field: &HeightField<F>,
    params: &Params,
    tolerance: f32,
    coverage: f64,
) -> usize {
    let mut scene = Scene::default();
    field.add_to(&mut scene);
    let out = generate(&scene.mesh, params).unwrap();
    let error = surface_error(&out.mesh, field, 0.1);
    eprintln!(
        "{name}: {} faces, {} detail points, error max {:.3} m at {:?}, mean {:.4} m, covered {:.3}",
        out.mesh.polygons.len(),
        out.report.detail_points,
        error.max,
        error.at,
        error.mean,
        error.covered
    );
    assert!(
        error.covered >= coverage,
        "{name}: the walkmesh covers {:.3} of the floor",
        error.covered
    );
    assert!(
        error.max <= tolerance,
        "{name}: the surface is {:.3} m off the render floor at {:?} (tolerance {tolerance})\n{}",
        error.max,
        error.at,
        out.report.text()
    );
    assert_lint_clean(name, &out.mesh);
    out.mesh.polygons.len()
}

/// The share of `detail_error` the check allows on top of it: the refinement samples the floor
/// at points a few cells apart, and between them a curved floor can bend a little further.
const SAMPLING_ALLOWANCE: f32 = 0.5;

#[test]
fn a_bumpy_terrain_is_followed_everywhere_not_only_at_face_centres() {
    // 90 × 90 m of ±0.5 m bumps every 4.8 m with the NWN2 preset: once two flat faces 0.5 m
    // off the ground, because both face centres lay near the plane.
    let wave = std::f32::consts::TAU / 4.8;
    let field = HeightField {
        f: |x: f32, y: f32| 0.25 * ((x * wave).cos() + (y * wave).cos()),
        lo: [0.0, 0.0],
        hi: [90.0, 90.0],
        spacing: 0.3,
    };
    let mut params = Params::preset(Engine::Nwn2);
    // The check is of the detail heights: the tile budget's own simplification (tested in
    // tests/limits.rs) is kept out by the generic engine with the NWN2 numbers.
    params.engine = Engine::Generic;
    let tolerance = params.detail_error * (1.0 + SAMPLING_ALLOWANCE);
    assert_follows_the_floor("bumpy terrain", &field, &params, tolerance, 0.95);

    // With the NWN2 engine every tile still holds (the tile budget simplifies a tile the
    // refinement filled past 127 walkable triangles, and says how far heights moved).
    let mut scene = Scene::default();
    field.add_to(&mut scene);
    let out = generate(&scene.mesh, &Params::preset(Engine::Nwn2)).unwrap();
    if let Some(s) = &out.report.nwn2_simplified {
        eprintln!(
            "bumpy terrain, NWN2: {} tiles simplified, {} -> {} walkable triangles, largest height change {:.3} m",
            s.tiles, s.faces_before, s.faces_after, s.max_height_error
        );
        assert!(s.still_over.is_empty(), "{:?}", s.still_over);
    }
    assert!(out.report.limits.is_empty(), "{:?}", out.report.limits);
}

#[test]
fn a_ramp_with_a_bump_on_it_is_followed() {
    // A 10° ramp, 12 × 6 m, with a 0.3 m bump of about 1 m radius in its middle (KotOR).
    let rise = 10f32.to_radians().tan();
    let field = HeightField {
        f: |x: f32, y: f32| {
            let r2 = (x - 6.0).powi(2) + (y - 3.0).powi(2);
            rise * x + 0.3 * (-r2).exp()
        },
        lo: [0.0, 0.0],
        hi: [12.0, 6.0],
        spacing: 0.2,
    };
    let params = kotor();
    let tolerance = params.detail_error * (1.0 + SAMPLING_ALLOWANCE);
    assert_follows_the_floor("ramp with a bump", &field, &params, tolerance, 0.95);
}

#[test]
fn a_narrow_walkway_waving_along_its_outline_is_followed() {
    // A walkway 1 m wide and 20 m long rising and falling 0.25 m every 4 m (KotOR): every face
    // is thin and lies along the outline, where only the edges can be sampled.
    let wave = std::f32::consts::TAU / 4.0;
    let field = HeightField {
        f: |x: f32, _y: f32| 0.25 * (x * wave).sin(),
        lo: [0.0, 0.0],
        hi: [20.0, 1.0],
        spacing: 0.1,
    };
    let params = kotor();
    let tolerance = params.detail_error * (1.0 + SAMPLING_ALLOWANCE);
    assert_follows_the_floor("narrow walkway", &field, &params, tolerance, 0.9);
}

/// Runs the stages after reachability on a hand-made heightfield (every walkable span kept)
/// and returns the walkmesh: for layer arrangements a render scene only reaches by accident.
fn mesh_of_field(field: &walkmesh_generate::voxel::Heightfield, params: &Params) -> NavMesh {
    use walkmesh_generate::{graph, triangulate};
    let graph = graph::Graph::build(field, params).unwrap();
    let kept = vec![true; graph.nodes.len()];
    let mut budget = walkmesh_generate::budget::Budget::new(params.max_memory_mib);
    let (layers, layer_of) = graph::layers(&graph, field, &kept, &mut budget).unwrap();
    let mut flat = Scene::default();
    flat.floor(0.0, 0.0, 1.0, 1.0, 0.0);
    let mut report = generate(&flat.mesh, params).unwrap().report;
    let source = walkmesh_generate::floor::Source::default();
    let index = walkmesh_generate::floor::FloorIndex::new(&source, params);
    triangulate::layers_mesh(
        &layers,
        &layer_of,
        &graph,
        field,
        &index,
        params,
        &mut report,
    )
}

#[test]
fn a_cell_the_outline_cuts_off_leaves_no_face_across_the_next_layer() {
    // Ragged floors (cells dropped at random from a block, seeded) with one cell of another
    // layer at the same level among them (a cell too low under a ceiling to link to its
    // neighbours). Simplification straightens a ragged edge within a cell of the cell
    // outline, which can leave floor cells outside the rings; a face of the triangulation
    // outside the rings whose centre fell in such a cell was kept and could reach across the
    // other layer's cell: an overlap (enclavesurface junction_1 had one of 0.002 m²).
    use walkmesh_generate::voxel::{Heightfield, Span};
    let params = kotor();
    let floor = Span {
        bottom: 9,
        top: 10,
        walkable: true,
        sliver: false,
        not_floor: false,
        lip: false,
        base: 10,
    };
    // The other layer's cell: floor at the same level, a ceiling 1.5 m above it.
    let ceiling = Span {
        bottom: 40,
        top: 41,
        walkable: false,
        sliver: false,
        not_floor: false,
        lip: false,
        base: 41,
    };
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 33) as u32
    };
    let (width, height) = (16usize, 16usize);
    for case in 0..300 {
        let mut columns = vec![Vec::new(); width * height];
        for y in 2..14 {
            for x in 2..14 {
                // Keep the middle solid, drop a third of the cells near the edges.
                let edge = x < 5 || y < 5 || x > 10 || y > 10;
                if !edge || random() % 3 != 0 {
                    columns[y * width + x] = vec![floor];
                }
            }
        }
        let (x, y) = (2 + (random() % 12) as usize, 2 + (random() % 12) as usize);
        columns[y * width + x] = vec![floor, ceiling];
        let field = Heightfield::from_columns(
            width,
            height,
            [0.0, 0.0, 0.0],
            params.cell_size,
            params.cell_height,
            &columns,
        );
        let mesh = mesh_of_field(&field, &params);
        assert_lint_clean(&format!("case {case}"), &mesh);
    }
}

#[test]
fn detail_points_make_no_needles_on_a_wavy_floor_among_turned_boxes() {
    // A wavy, tilted 8 × 8 m floor of 0.5 m quads with six turned boxes on it: the detail
    // refinement (a point at the centre of a face that leaves the render floor) once put
    // points at the centres of faces thinner than a quarter cell, a hair from their edges;
    // the repair stage removed the needles those made and folded their neighbours over each
    // other (overlap findings: m50aa_01a had one). Scenes 7 and 268 of this seeded series
    // had such an overlap; every scene of the series is lint-clean now.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as u32) as f32 / u32::MAX as f32 * 2.0
    };
    for case in 0..=268 {
        let mut scene = Scene::default();
        let tilt = random() * 0.3;
        let amp = random() * 0.4;
        let z = |x: f32, y: f32| amp * (x * 1.3).sin() * (y * 0.9).cos() + tilt * x / 8.0;
        for i in 0..16 {
            for j in 0..16 {
                let (x0, y0) = (i as f32 * 0.5, j as f32 * 0.5);
                let (x1, y1) = (x0 + 0.5, y0 + 0.5);
                scene.quad([
                    [x0, y0, z(x0, y0)],
                    [x1, y0, z(x1, y0)],
                    [x1, y1, z(x1, y1)],
                    [x0, y1, z(x0, y1)],
                ]);
            }
        }
        for _ in 0..6 {
            let centre = [random() * 4.0, random() * 4.0, 0.5];
            let half = [0.1 + random() * 0.4, 0.1 + random() * 0.4, 1.0];
            scene.box_turned(centre, half, random() * 90.0);
        }
        if case == 7 || case == 268 {
            let out = generate(&scene.mesh, &kotor()).unwrap();
            assert_lint_clean(&format!("wavy floor {case}"), &out.mesh);
        }
    }
}

#[test]
fn a_simplified_edge_never_runs_along_another_layers_cell() {
    // A block of floor with a notch one cell deep in its left side, and beside the notch an
    // island cell of floor at the same level (a layer of its own). Straightening the notch
    // (within a cell of the cell outline) laid the block's left edge along the island's right
    // side: the island's corners lay inside the block's edge, a T-junction (case 277 of the
    // ragged floors above). Every island position along the block's side, and one a cell
    // farther out, must leave the two layers lint-clean, sharing their corners where they
    // meet. The scene is also built transposed, which swaps which layer is found first (of
    // two layers near one empty cell, only the first may stray into it).
    use walkmesh_generate::voxel::{Heightfield, Span};
    let params = kotor();
    let floor = Span {
        bottom: 9,
        top: 10,
        walkable: true,
        sliver: false,
        not_floor: false,
        lip: false,
        base: 10,
    };
    let (width, height) = (16usize, 16usize);
    for (transposed, island_x, island_y) in [false, true]
        .into_iter()
        .flat_map(|t| [2usize, 3].map(|x| (t, x)))
        .flat_map(|(t, x)| (1..12usize).map(move |y| (t, x, y)))
    {
        let at = |x: usize, y: usize| {
            if transposed {
                x * width + y
            } else {
                y * width + x
            }
        };
        let mut columns = vec![Vec::new(); width * height];
        for y in 1..12 {
            for x in 4..12 {
                let notch = x == 4 && (4..7).contains(&y);
                if !notch {
                    columns[at(x, y)] = vec![floor];
                }
            }
        }
        if columns[at(island_x + 1, island_y)].is_empty() {
            columns[at(island_x, island_y)] = vec![floor];
        }
        let field = Heightfield::from_columns(
            width,
            height,
            [0.0, 0.0, 0.0],
            params.cell_size,
            params.cell_height,
            &columns,
        );
        let mesh = mesh_of_field(&field, &params);
        assert_lint_clean(
            &format!("island at ({island_x}, {island_y}), transposed {transposed}"),
            &mesh,
        );
    }
}

#[test]
fn islands_of_floor_at_one_level_share_corners_and_never_overlap() {
    // Floor cells kept at random (seeded, 60 %) from a block: many islands at one level,
    // each a layer of its own, a cell or two apart or touching at corners. Every simplified
    // edge strays up to a cell off its cells; two layers straying into the gap between them
    // would overlap there, and one running along the other's cell would make a T-junction
    // (case 131 had one before simplified edges kept off other layers' cells). Looser
    // tolerances (up to three cells) also straighten two runs of one layer into the same
    // gap, crossing: the triangulation refused an edge and chose faces by their centre's
    // cell, keeping a hull face across the next layer (case 19 overlapped).
    use walkmesh_generate::voxel::{Heightfield, Span};
    let mut params = kotor();
    let floor = Span {
        bottom: 9,
        top: 10,
        walkable: true,
        sliver: false,
        not_floor: false,
        lip: false,
        base: 10,
    };
    let mut state: u64 = 0x0d1b_54a3_2d19_2ed0;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as u32
    };
    let (width, height) = (20usize, 20usize);
    for case in 0..800 {
        params.max_edge_error = [0.1, 0.15, 0.2, 0.3][case % 4]; // 1 to 3 cells
        let mut columns = vec![Vec::new(); width * height];
        for y in 2..18 {
            for x in 2..18 {
                if random() % 5 < 3 {
                    columns[y * width + x] = vec![floor];
                }
            }
        }
        let field = Heightfield::from_columns(
            width,
            height,
            [0.0, 0.0, 0.0],
            params.cell_size,
            params.cell_height,
            &columns,
        );
        let mesh = mesh_of_field(&field, &params);
        assert_lint_clean(&format!("islands {case}"), &mesh);
    }
}

/// A walkway `x` 0..8 at height 0 whose edge band `x` 8..`lip_end` goes from height 0 to
/// `lip_top`, and what lies beyond the band: `drop` a steep face falling 0.6 m into a gutter
/// by a wall, else a level platform at `lip_top`.
fn walkway_with_edge_band(lip_end: f32, lip_top: f32, drop: bool) -> Scene {
    let mut scene = Scene::default();
    scene.floor(0.0, 0.0, 8.0, 6.0, 0.0);
    scene.ramp(8.0, lip_end, 0.0, 6.0, 0.0, lip_top);
    if drop {
        let (out, low) = (lip_end + 0.2, lip_top - 0.6);
        scene.quad([
            [lip_end, 0.0, lip_top],
            [out, 0.0, low],
            [out, 6.0, low],
            [lip_end, 6.0, lip_top],
        ]);
        scene.floor(out, 0.0, out + 0.7, 6.0, low);
        scene.quad([
            [out + 0.7, 0.0, low],
            [out + 0.7, 0.0, 3.0],
            [out + 0.7, 6.0, 3.0],
            [out + 0.7, 6.0, low],
        ]);
    } else {
        scene.floor(lip_end, 0.0, lip_end + 4.0, 6.0, lip_top);
    }
    scene
}

#[test]
fn a_lip_rising_to_a_drop_is_no_floor_but_a_ramp_a_camber_and_a_slope_are() {
    // K2's Nar Shaddaa walkways: the floor rises 0.1 m over 0.66 m to the edge of a gutter
    // 0.5 m below; BioWare's walkmesh ends where the level floor meets the lip.
    let lip = walkway_with_edge_band(8.6, 0.1, true);
    check_scene(
        "lip over a gutter",
        &lip,
        &kotor(),
        &[
            ([4.0, 3.0, 0.0], Expect::Reachable),
            ([7.8, 3.0, 0.0], Expect::Reachable),
            ([8.3, 3.0, 0.05], Expect::Blocked),
            ([8.55, 3.0, 0.092], Expect::Blocked),
        ],
    );
    let out = generate(&lip.mesh, &kotor()).unwrap();
    assert_eq!(out.report.lip_faces, 2, "the lip's two triangles");
    // The same band rising to a level platform is a ramp: walked.
    let ramp = walkway_with_edge_band(8.6, 0.1, false);
    check_scene(
        "ramp to a platform",
        &ramp,
        &kotor(),
        &[
            ([8.3, 3.0, 0.05], Expect::Reachable),
            ([10.0, 3.0, 0.1], Expect::Reachable),
        ],
    );
    // Falling towards the drop (a cambered edge): walked.
    let camber = walkway_with_edge_band(8.6, -0.1, true);
    check_scene(
        "camber",
        &camber,
        &kotor(),
        &[([8.3, 3.0, -0.05], Expect::Reachable)],
    );
    // Deeper than a lip (2 m rising 0.15 m): a slope of the floor, walked to its edge.
    let slope = walkway_with_edge_band(10.0, 0.15, true);
    check_scene(
        "slope to a drop",
        &slope,
        &kotor(),
        &[([9.0, 3.0, 0.075], Expect::Reachable)],
    );
    assert_eq!(generate(&slope.mesh, &kotor()).unwrap().report.lip_faces, 0);
}
