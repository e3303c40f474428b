#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every engine from the same scene: designed rooms a modeller makes (a table, a roof slab
//! over a walled room, a two-storey room with a stair, a grass floor in a larger water
//! plane), each generated with no seed to a KotOR WOK, an NWN2 TRX and a Metroid Prime PATH
//! (the preset follows OUT's extension). Each file must be written, pass `walkmesh validate`,
//! and read back walkable at the points a character reaches and not at the points it does
//! not (the table top, the roof, the water) — the floor people stand on, in every engine.

use std::path::Path;

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_tests::walkmesh;

/// An OBJ under construction (Z up; quads as written, counter-clockwise seen from outside).
#[derive(Default)]
struct Obj {
    text: String,
    next: u32,
}

impl Obj {
    fn material(&mut self, name: &str) {
        self.text.push_str(&format!("usemtl {name}\n"));
    }

    fn quad(&mut self, corners: [[f32; 3]; 4]) {
        for [x, y, z] in corners {
            self.text.push_str(&format!("v {x} {y} {z}\n"));
        }
        let n = self.next;
        self.text
            .push_str(&format!("f {} {} {} {}\n", n + 1, n + 2, n + 3, n + 4));
        self.next += 4;
    }

    fn floor(&mut self, lo: [f32; 2], hi: [f32; 2], z: f32) {
        self.quad([
            [lo[0], lo[1], z],
            [hi[0], lo[1], z],
            [hi[0], hi[1], z],
            [lo[0], hi[1], z],
        ]);
    }

    /// A closed axis-aligned box.
    fn cuboid(&mut self, [x0, y0, z0]: [f32; 3], [x1, y1, z1]: [f32; 3]) {
        for q in [
            [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
            [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
            [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
            [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
            [[x1, y1, z0], [x0, y1, z0], [x0, y1, z1], [x1, y1, z1]],
            [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
        ] {
            self.quad(q);
        }
    }
}

/// A designed scene: its OBJ, points a character stands on and points it does not.
struct Scene {
    name: &'static str,
    obj: Obj,
    walkable: Vec<[f32; 3]>,
    not_walkable: Vec<[f32; 3]>,
}

/// A 12 × 10 m stone floor with a 2 × 2 m crate 1 m high and a 3 × 2 m table top 1.05 m up
/// on four legs (above every preset's climb, Prime's 0.9 m too): the floor is kept, the table
/// top (walkable, unreachable) is not.
fn table() -> Scene {
    let mut obj = Obj::default();
    obj.material("Stone");
    obj.floor([0.0, 0.0], [12.0, 10.0], 0.0);
    obj.material("Wood");
    obj.cuboid([2.0, 2.0, 0.0], [4.0, 4.0, 1.0]);
    obj.cuboid([7.0, 5.0, 1.0], [10.0, 7.0, 1.05]);
    for (x, y) in [(7.0, 5.0), (9.9, 5.0), (7.0, 6.9), (9.9, 6.9)] {
        obj.cuboid([x, y, 0.0], [x + 0.1, y + 0.1, 1.0]);
    }
    Scene {
        name: "table",
        obj,
        walkable: vec![[1.5, 8.0, 0.0], [10.5, 2.0, 0.0], [6.0, 8.5, 0.0]],
        not_walkable: vec![[8.5, 6.0, 1.05], [3.0, 3.0, 1.0]],
    }
}

/// A 10 × 10 m room walled 3 m high (a 2 m doorway in the south wall) under a 14 × 14 m roof
/// slab: the roof's top is the largest flat piece, the floor under cover is the one kept.
fn roof() -> Scene {
    let mut obj = Obj::default();
    obj.material("Stone");
    obj.floor([0.0, 0.0], [10.0, 10.0], 0.0);
    obj.cuboid([-0.2, 10.0, 0.0], [10.2, 10.2, 3.0]);
    obj.cuboid([-0.2, 0.0, 0.0], [0.0, 10.0, 3.0]);
    obj.cuboid([10.0, 0.0, 0.0], [10.2, 10.0, 3.0]);
    obj.cuboid([-0.2, -0.2, 0.0], [4.0, 0.0, 3.0]);
    obj.cuboid([6.0, -0.2, 0.0], [10.2, 0.0, 3.0]);
    obj.material("Metal");
    obj.cuboid([-2.0, -2.0, 3.0], [12.0, 12.0, 3.3]);
    Scene {
        name: "roof",
        obj,
        walkable: vec![[5.0, 5.0, 0.0], [2.0, 8.0, 0.0], [8.0, 2.0, 0.0]],
        not_walkable: vec![[5.0, 5.0, 3.3], [-1.0, 5.0, 3.3]],
    }
}

/// An 8 × 8 m room walled 4 m high, a gallery 8 × 3 m along the north wall 2 m up, and a
/// straight stair of 10 steps (0.2 m rise, 0.3 m tread, 4 m wide for Prime's 0.6 m radius) up
/// the east side, made as a modeller's stair mesh: a tread and a riser per step and a side
/// skirt.
fn two_storey() -> Scene {
    let mut obj = Obj::default();
    obj.material("Stone");
    obj.floor([0.0, 0.0], [8.0, 8.0], 0.0);
    obj.cuboid([-0.2, -0.2, 0.0], [8.2, 0.0, 4.0]);
    obj.cuboid([-0.2, 8.0, 0.0], [8.2, 8.2, 4.0]);
    obj.cuboid([-0.2, 0.0, 0.0], [0.0, 8.0, 4.0]);
    obj.cuboid([8.0, 0.0, 0.0], [8.2, 8.0, 4.0]);
    obj.cuboid([0.0, 5.0, 1.8], [8.0, 8.0, 2.0]);
    obj.material("Wood");
    for k in 0..10 {
        let (y0, y1) = (2.0 + k as f32 * 0.3, 2.3 + k as f32 * 0.3);
        let (z0, z1) = (0.2 * k as f32, 0.2 * (k + 1) as f32);
        obj.quad([[4.0, y0, z0], [8.0, y0, z0], [8.0, y0, z1], [4.0, y0, z1]]);
        obj.quad([[4.0, y0, z1], [8.0, y0, z1], [8.0, y1, z1], [4.0, y1, z1]]);
        obj.quad([[4.0, y1, 0.0], [4.0, y0, 0.0], [4.0, y0, z1], [4.0, y1, z1]]);
    }
    Scene {
        name: "two_storey",
        obj,
        walkable: vec![[2.0, 2.0, 0.0], [2.0, 6.5, 2.0], [6.0, 3.65, 1.2]],
        not_walkable: vec![[2.0, 6.5, 4.0]],
    }
}

/// The same room with the stair made the other way modellers make one: ten full-height boxes,
/// each step a box from the floor up. Before, a tread met the side of its own box (a riser
/// from the step below) at the same height and took the riser's base, so with a climb of 0.5 m
/// or more (NWN2, Prime) the stair parted at its third step.
fn two_storey_boxes() -> Scene {
    let mut scene = two_storey();
    let mut obj = Obj::default();
    obj.material("Stone");
    obj.floor([0.0, 0.0], [8.0, 8.0], 0.0);
    obj.cuboid([-0.2, -0.2, 0.0], [8.2, 0.0, 4.0]);
    obj.cuboid([-0.2, 8.0, 0.0], [8.2, 8.2, 4.0]);
    obj.cuboid([-0.2, 0.0, 0.0], [0.0, 8.0, 4.0]);
    obj.cuboid([8.0, 0.0, 0.0], [8.2, 8.0, 4.0]);
    obj.cuboid([0.0, 5.0, 1.8], [8.0, 8.0, 2.0]);
    obj.material("Wood");
    for k in 0..10 {
        let y0 = 2.0 + k as f32 * 0.3;
        obj.cuboid([4.0, y0, 0.0], [8.0, y0 + 0.3, 0.2 * (k + 1) as f32]);
    }
    scene.name = "two_storey_boxes";
    scene.obj = obj;
    scene
}

/// An 8 × 8 m grass floor in a 40 × 40 m water plane 0.3 m below: the water is the largest
/// piece, the grass the floor kept (material words `water`, `lava`, `sky`, `void`).
fn water() -> Scene {
    let mut obj = Obj::default();
    obj.material("Grass");
    obj.floor([0.0, 0.0], [8.0, 8.0], 0.0);
    obj.material("Water");
    obj.floor([-16.0, -16.0], [24.0, 24.0], -0.3);
    Scene {
        name: "water",
        obj,
        walkable: vec![[4.0, 4.0, 0.0], [2.0, 6.0, 0.0]],
        not_walkable: vec![[-10.0, -10.0, -0.3], [20.0, 20.0, -0.3]],
    }
}

fn read(path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    format
        .reader()
        .unwrap()
        .read(input, &ReadOptions::default(), &mut Diagnostics::new())
        .unwrap()
}

/// Whether a walkable face holds plan point `p` within 0.3 m of its height.
fn walkable_at(mesh: &NavMesh, p: [f32; 3]) -> bool {
    (0..mesh.polygons.len())
        .filter(|&f| mesh.is_walkable(f))
        .any(|f| {
            let v: Vec<[f32; 3]> = mesh
                .polygons
                .get(f)
                .iter()
                .map(|&i| mesh.vertex(i))
                .collect();
            (1..v.len().saturating_sub(1)).any(|k| {
                let (a, b, c) = (v[0], v[k], v[k + 1]);
                let d = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
                if d.abs() < 1e-9 {
                    return false;
                }
                let u = ((p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])) / d;
                let w = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / d;
                let z = a[2] + u * (b[2] - a[2]) + w * (c[2] - a[2]);
                u >= 0.0 && w >= 0.0 && u + w <= 1.0 && (z - p[2]).abs() <= 0.3
            })
        })
}

#[test]
fn every_designed_scene_becomes_a_valid_file_standing_on_its_floor_in_every_engine() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut rows = Vec::new();
    for scene in [table(), roof(), two_storey(), two_storey_boxes(), water()] {
        let obj = dir.path().join(format!("{}.obj", scene.name));
        std::fs::write(&obj, &scene.obj.text).unwrap();
        for ext in ["wok", "trx", "path"] {
            let out = dir.path().join(format!("{}.{ext}", scene.name));
            let run = walkmesh([
                "generate".as_ref(),
                obj.as_os_str(),
                "--up".as_ref(),
                "z".as_ref(),
                "-o".as_ref(),
                out.as_os_str(),
            ]);
            let case = format!("{} → .{ext}", scene.name);
            if run.code != 0 {
                failures.push(format!("{case}: exit {}: {}", run.code, run.stderr));
                continue;
            }
            let validate = walkmesh(["validate".as_ref(), out.as_os_str()]);
            if validate.code != 0 {
                failures.push(format!("{case}: validate: {}", validate.stdout));
            }
            let mesh = read(&out);
            let missed: Vec<_> = scene
                .walkable
                .iter()
                .filter(|&&p| !walkable_at(&mesh, p))
                .collect();
            let wrong: Vec<_> = scene
                .not_walkable
                .iter()
                .filter(|&&p| walkable_at(&mesh, p))
                .collect();
            if !missed.is_empty() || !wrong.is_empty() {
                failures.push(format!(
                    "{case}: not walkable at {missed:?}, walkable at {wrong:?}"
                ));
            }
            if missed.is_empty() && wrong.is_empty() {
                rows.push(format!("{case}: ok"));
            }
        }
    }
    eprintln!("{}", rows.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}
