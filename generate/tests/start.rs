#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Issue #50, "the floor people stand on": without `--seed`, the kept floor is the one a
//! character stands on, not the largest walkable piece. Designed scenes where the largest
//! piece is a roof slab, a big table top or a water plane; the report names the rule.

use walkmesh_core::ir::{Attribute, Extra};
use walkmesh_core::{Material, NavMesh, Surface};
use walkmesh_generate::{Engine, Params, generate};

/// A render scene whose faces carry material names, as the model readers keep them.
#[derive(Default)]
struct Scene {
    mesh: NavMesh,
    names: Vec<String>,
    column: Vec<i64>,
}

impl Scene {
    fn quad(&mut self, corners: [[f32; 3]; 4], material: &str) {
        let index = match self.names.iter().position(|n| n == material) {
            Some(i) => i,
            None => {
                self.names.push(material.to_string());
                self.names.len() - 1
            }
        } as i64;
        let base = self.mesh.vertices.len() as u32;
        self.mesh.vertices.extend(corners);
        let surface = Surface {
            material: Material(0),
            walkable: false,
            code: 0,
        };
        for face in [[base, base + 1, base + 2], [base, base + 2, base + 3]] {
            self.mesh.push_polygon(&face, surface);
            self.column.push(index);
        }
    }

    /// An upward rectangle at height z.
    fn floor(&mut self, lo: [f32; 2], hi: [f32; 2], z: f32, material: &str) {
        let [x0, y0] = lo;
        let [x1, y1] = hi;
        self.quad(
            [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]],
            material,
        );
    }

    /// A closed axis-aligned box.
    fn cuboid(&mut self, lo: [f32; 3], hi: [f32; 3], material: &str) {
        let p = |i: usize| {
            [
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ]
        };
        // Outward faces, counter-clockwise seen from outside.
        for [a, b, c, d] in [
            [4, 5, 7, 6],
            [0, 2, 3, 1],
            [0, 1, 5, 4],
            [1, 3, 7, 5],
            [3, 2, 6, 7],
            [2, 0, 4, 6],
        ] {
            self.quad([p(a), p(b), p(c), p(d)], material);
        }
    }

    fn mesh(&self) -> NavMesh {
        let mut mesh = self.mesh.clone();
        mesh.face_attributes.insert(
            "render:material".into(),
            Attribute::Int(self.column.clone()),
        );
        mesh.extras.insert(
            "render:materials".into(),
            Extra::TextList(self.names.clone()),
        );
        mesh
    }
}

/// A 10 × 8 m room: floor at 0, walls 0.2 m thick to 3 m around it.
fn walled_room() -> Scene {
    let mut scene = Scene::default();
    scene.floor([0.0, 0.0], [10.0, 8.0], 0.0, "LDA_flr_stone01");
    let wall = "LDA_wall01";
    scene.cuboid([-0.2, -0.2, 0.0], [10.2, 0.0, 3.0], wall);
    scene.cuboid([-0.2, 8.0, 0.0], [10.2, 8.2, 3.0], wall);
    scene.cuboid([-0.2, 0.0, 0.0], [0.0, 8.0, 3.0], wall);
    scene.cuboid([10.0, 0.0, 0.0], [10.2, 8.0, 3.0], wall);
    scene
}

fn kotor() -> Params {
    Params::preset(Engine::Kotor)
}

/// Kept walkable area and the mean height of the walkable vertices.
fn kept(out: &walkmesh_generate::Generated) -> (f64, f32) {
    let heights: Vec<f32> = out
        .mesh
        .polygons
        .iter()
        .zip(&out.mesh.surfaces)
        .filter(|(_, s)| s.walkable)
        .flat_map(|(corners, _)| corners.iter().map(|&v| out.mesh.vertex(v)[2]))
        .collect();
    let mean = heights.iter().sum::<f32>() / heights.len().max(1) as f32;
    (out.report.walkable_area, mean)
}

fn rule(out: &walkmesh_generate::Generated) -> &'static str {
    out.report.start.as_ref().map_or("none", |s| s.rule)
}

#[test]
fn a_roof_slab_larger_than_the_room_is_passed_over_for_the_floor_under_it() {
    let mut scene = walled_room();
    // An 11 × 9 m roof slab over the walls: 99 m² open to the sky, the room's 80 m² under it.
    scene.cuboid([-0.5, -0.5, 3.0], [10.5, 8.5, 3.3], "LDA_roof01");
    let out = generate(&scene.mesh(), &kotor()).unwrap();
    let (area, height) = kept(&out);
    assert!(
        (76.0..=81.0).contains(&area),
        "{area}: {}",
        out.report.text()
    );
    assert!(height.abs() < 0.01, "{height}");
    assert_eq!(rule(&out), "under-cover", "{}", out.report.text());
    let start = out.report.start.as_ref().unwrap();
    assert_eq!(start.passed_over.len(), 1, "{start:?}");
    assert!((start.passed_over[0].centre[2] - 3.3).abs() < 0.1);
    assert!(out.report.text().contains("open to the sky"));
    // A seed on the roof still keeps the roof: a start the caller gives wins.
    let mut seeded = kotor();
    seeded.seeds = vec![[5.0, 4.0, 3.3]];
    let out = generate(&scene.mesh(), &seeded).unwrap();
    let (area, height) = kept(&out);
    assert!(
        area > 95.0 && (height - 3.3).abs() < 0.01,
        "{area} {height}"
    );
    assert!(out.report.start.is_none());
}

#[test]
fn a_table_top_larger_than_the_floor_around_it_is_passed_over() {
    let mut scene = walled_room();
    // An 8 × 6 m table 0.8 m high, solid to the floor: its top (48 m²) is larger than the
    // 1 m wide floor around it (32 m²), and every edge of the top drops onto that floor.
    scene.cuboid([1.0, 1.0, 0.0], [9.0, 7.0, 0.8], "LDA_table01");
    let out = generate(&scene.mesh(), &kotor()).unwrap();
    let (area, height) = kept(&out);
    assert!(height.abs() < 0.01, "{height}: {}", out.report.text());
    assert!(
        (28.0..=33.0).contains(&area),
        "{area}: {}",
        out.report.text()
    );
    assert_eq!(rule(&out), "ground", "{}", out.report.text());
    let passed = &out.report.start.as_ref().unwrap().passed_over;
    assert_eq!(passed.len(), 1);
    assert_eq!(passed[0].why, "raised above other floor");
}

#[test]
fn a_water_plane_larger_than_the_ground_is_never_the_start() {
    let mut scene = Scene::default();
    // A 10 × 10 m grass island 0.3 m above a 40 × 40 m water plane (K2's 410dxn02 keeps a
    // 9,442 m² water plane over its 2,121 m² of grass).
    scene.floor([-20.0, -20.0], [20.0, 20.0], 0.0, "dxn_water09");
    scene.cuboid([-5.0, -5.0, -1.0], [5.0, 5.0, 0.3], "DXN_grass01");
    let out = generate(&scene.mesh(), &kotor()).unwrap();
    let (area, height) = kept(&out);
    assert!(
        (95.0..=101.0).contains(&area),
        "{area}: {}",
        out.report.text()
    );
    assert!((height - 0.3).abs() < 0.01, "{height}");
    assert_eq!(rule(&out), "no-water", "{}", out.report.text());
    // The rule's words are the caller's: none, and the largest piece (the water) wins.
    let mut params = kotor();
    params.not_floor.clear();
    let out = generate(&scene.mesh(), &params).unwrap();
    let (area, height) = kept(&out);
    assert!(area > 1000.0 && height.abs() < 0.01, "{area} {height}");
    assert_eq!(rule(&out), "largest");
    // A puddle is floor whatever else its name says.
    assert!(!kotor().names_no_floor("LDA_puddlewater01"));
    assert!(kotor().names_no_floor("w@sKY"));
    assert!(kotor().names_no_floor("LAVA_rock"));
}

#[test]
fn the_largest_floor_stays_the_start_when_no_rule_speaks() {
    let mut scene = walled_room();
    // A 2 × 2 m crate, 1 m high: its top is small, raised, and not the largest.
    scene.cuboid([2.0, 2.0, 0.0], [4.0, 4.0, 1.0], "LDA_crate01");
    let out = generate(&scene.mesh(), &kotor()).unwrap();
    assert_eq!(rule(&out), "largest", "{}", out.report.text());
    assert!(out.report.start.as_ref().unwrap().passed_over.is_empty());
}
