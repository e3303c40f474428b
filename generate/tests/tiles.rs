#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The NWN2 floor cut at the TRX tile lines (`walkmesh_generate::tiles`): a two-storey room
//! that a tile line runs through is triangulated tile by tile (no walkable face crosses a
//! line), every tile holds as the TRX writer itself counts it, the floor keeps its plan area
//! and both storeys; a tile that cannot hold is still refused by name.

use std::collections::BTreeMap;

use walkmesh_core::material::{Material, Surface};
use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions, WriteOptions};
use walkmesh_generate::{Engine, Params, generate, limits};

/// Render materials: Stone (neutral 4) for floors, walls and props, Wood (5) for the stair.
const STONE: Surface = Surface {
    material: Material(4),
    walkable: false,
    code: 0,
};
const WOOD: Surface = Surface {
    material: Material(5),
    walkable: false,
    code: 0,
};

/// The TRX writer's tile width.
const TILE: f32 = 9.0;

/// A render-geometry soup placed at `origin` (plan offset of every vertex).
struct Scene {
    mesh: NavMesh,
    origin: [f32; 2],
}

impl Scene {
    /// A planar quad, corners counter-clockwise seen from its front.
    fn quad(&mut self, corners: [[f32; 3]; 4], surface: Surface) {
        let base = self.mesh.vertices.len() as u32;
        let [ox, oy] = self.origin;
        self.mesh
            .vertices
            .extend(corners.map(|[x, y, z]| [x + ox, y + oy, z]));
        self.mesh.push_polygon(&[base, base + 1, base + 2], surface);
        self.mesh.push_polygon(&[base, base + 2, base + 3], surface);
    }

    /// A closed box from `lo` to `hi`, faces outwards.
    fn cuboid(&mut self, lo: [f32; 3], hi: [f32; 3]) {
        let ([x0, y0, z0], [x1, y1, z1]) = (lo, hi);
        for quad in [
            [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
            [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
            [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
            [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
            [[x1, y1, z0], [x0, y1, z0], [x0, y1, z1], [x1, y1, z1]],
            [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
        ] {
            self.quad(quad, STONE);
        }
    }
}

/// Stair: 12 steps of 0.25 m rise and 0.28 m tread, 3 m wide (x 5..8), from y = 1.64 up to
/// the gallery's edge at y = 5 and z = 3.
const STEPS: usize = 12;
const RISE: f32 = 0.25;
const TREAD: f32 = 0.28;
const STAIR_FOOT: f32 = 5.0 - STEPS as f32 * TREAD;

/// The two-storey room a modeller makes, from `origin` (Z up, metres): an 8 × 8 m ground
/// floor walled 6 m high on all sides, a gallery 8 × 3 m along the north wall 3 m up (a
/// 0.2 m slab) with a 1 m railing along its open edge and a pillar under it, and a straight
/// stair along the east wall rising north onto the gallery, modelled as a modeller does
/// (treads, risers, and sides down to the floor).
fn two_storey(origin: [f32; 2]) -> NavMesh {
    let mut s = Scene {
        mesh: NavMesh::default(),
        origin,
    };
    s.quad(
        [[0., 0., 0.], [8., 0., 0.], [8., 8., 0.], [0., 8., 0.]],
        STONE,
    );
    for (lo, hi) in [
        ([-0.2, -0.2, 0.0], [8.2, 0.0, 6.0]),
        ([-0.2, 8.0, 0.0], [8.2, 8.2, 6.0]),
        ([-0.2, 0.0, 0.0], [0.0, 8.0, 6.0]),
        ([8.0, 0.0, 0.0], [8.2, 8.0, 6.0]),
    ] {
        s.cuboid(lo, hi);
    }
    s.cuboid([0.0, 5.0, 2.8], [8.0, 8.0, 3.0]);
    s.cuboid([0.0, 5.0, 3.0], [5.0, 5.05, 4.0]);
    s.cuboid([2.3, 5.0, 0.0], [2.7, 5.4, 2.8]);
    for k in 0..STEPS {
        let (y0, y1) = (
            STAIR_FOOT + k as f32 * TREAD,
            STAIR_FOOT + (k + 1) as f32 * TREAD,
        );
        let (z0, z1) = (k as f32 * RISE, (k + 1) as f32 * RISE);
        s.quad(
            [[5., y0, z0], [8., y0, z0], [8., y0, z1], [5., y0, z1]],
            WOOD,
        );
        s.quad(
            [[5., y0, z1], [8., y0, z1], [8., y1, z1], [5., y1, z1]],
            WOOD,
        );
        s.quad(
            [[5., y1, 0.], [5., y0, 0.], [5., y0, z1], [5., y1, z1]],
            WOOD,
        );
        s.quad(
            [[8., y0, 0.], [8., y1, 0.], [8., y1, z1], [8., y0, z1]],
            WOOD,
        );
    }
    s.mesh
}

/// Plan corners of walkable face `p`.
fn corners(mesh: &NavMesh, p: usize) -> Vec<[f32; 3]> {
    mesh.polygons
        .get(p)
        .iter()
        .map(|&i| mesh.vertex(i))
        .collect()
}

/// Signed plan area of a polygon.
fn plan_area_of(v: &[[f32; 3]]) -> f64 {
    let a = v[0].map(f64::from);
    (1..v.len() - 1)
        .map(|k| {
            let (b, c) = (v[k].map(f64::from), v[k + 1].map(f64::from));
            ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
        })
        .sum()
}

/// Plan area of the walkable faces whose corners all satisfy `keep`.
fn plan_area(mesh: &NavMesh, keep: impl Fn(&[f32; 3]) -> bool) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| corners(mesh, p))
        .filter(|v| v.iter().all(&keep))
        .map(|v| plan_area_of(&v))
        .sum()
}

/// Walkable faces not inside one closed tile square (some corner on each side of a line).
fn crossing_a_tile_line(mesh: &NavMesh) -> usize {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .filter(|&p| {
            let v = corners(mesh, p);
            (0..2).any(|axis| {
                let lo = v.iter().map(|c| c[axis]).fold(f32::MAX, f32::min);
                let hi = v.iter().map(|c| c[axis]).fold(f32::MIN, f32::max);
                let line = ((lo / TILE).floor() + 1.0) * TILE;
                lo < line && line < hi
            })
        })
        .count()
}

/// Heights of the walkable faces over plan point (x, y).
fn heights_at(mesh: &NavMesh, x: f32, y: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for p in (0..mesh.polygons.len()).filter(|&p| mesh.is_walkable(p)) {
        let [a, b, c] = <[[f32; 3]; 3]>::try_from(corners(mesh, p)).unwrap();
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

/// Walkable triangles per tile index as the TRX writer stores them: written, read back, and
/// counted by the tile each triangle was stored in.
fn written_per_tile(mesh: &NavMesh) -> BTreeMap<i64, usize> {
    let mut diag = Diagnostics::new();
    let out = walkmesh_nwn2::write::write_trx(mesh, &WriteOptions::default(), &mut diag).unwrap();
    let input = Input {
        bytes: &out.main,
        path: None,
    };
    let back = walkmesh_nwn2::read::read_trx(input, &ReadOptions::default(), &mut diag).unwrap();
    let Some(walkmesh_core::ir::Attribute::Int(tiles)) = back.face_attributes.get("nwn2:tile")
    else {
        panic!("the TRX read back has no tile per face");
    };
    let mut per_tile = BTreeMap::new();
    for (p, &tile) in tiles.iter().enumerate() {
        if back.is_walkable(p) {
            *per_tile.entry(tile).or_default() += 1;
        }
    }
    per_tile
}

fn assert_lint_clean(mesh: &NavMesh) {
    let findings = walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None);
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
}

#[test]
fn a_two_storey_room_across_tile_lines_is_cut_there_and_every_tile_holds() {
    // The room from (6, 8): the tile lines x = 9 and y = 9 run 3 m and 1 m into it, the stair
    // and the gallery lie in tile (1, 1). Before the cut, 12 walkable faces crossed a line
    // and the writer counted 128 walkable triangles in tile (1, 1) where the generator
    // counted 126: the TRX was refused.
    let origin = [6.0, 8.0];
    let scene = two_storey(origin);
    let made = generate(&scene, &Params::preset(Engine::Nwn2)).unwrap();
    let mesh = &made.mesh;
    assert!(made.report.limits.is_empty(), "{:?}", made.report.limits);
    assert!(made.report.tile_line_points > 0, "{}", made.report.text());
    assert_eq!(crossing_a_tile_line(mesh), 0);

    // The writer's own tiles hold, and are the generator's.
    let written = written_per_tile(mesh);
    assert!(written.values().all(|&n| n <= 127), "{written:?}");
    let ours = walkmesh_generate::simplify::walkable_per_tile(mesh, TILE);
    let mut ours_by_index: Vec<usize> = ours.values().copied().collect();
    let mut written_counts: Vec<usize> = written.values().copied().collect();
    ours_by_index.sort_unstable();
    written_counts.sort_unstable();
    assert_eq!(ours_by_index, written_counts, "{ours:?} / {written:?}");

    // The cut keeps the floor's plan area: the same generation without the NWN2 stages.
    let mut plain = Params::preset(Engine::Nwn2);
    plain.engine = Engine::Generic;
    let uncut = generate(&scene, &plain).unwrap().mesh;
    assert!(
        crossing_a_tile_line(&uncut) > 0,
        "the scene must cross a line"
    );
    let (a0, a1) = (plan_area(&uncut, |_| true), plan_area(mesh, |_| true));
    assert!((a0 - a1).abs() < 1e-3, "plan area {a0} → {a1}");

    // Both storeys. Ground floor: 8 × 8 m less a cell and the agent radius (0.5 m) along the
    // walls, the stair where it is lower than the agent (3 × 1.96 m) and the pillar (about
    // 1 m² eroded): 49 − 5.9 − 1 ≈ 42 m² at least, never more than the room less the stair's
    // low part (64 − 5.9). Gallery: 8 × 3 m less the same margin at the walls and the
    // railing: 7 × 2.5 ≈ 17 m² at least, at most 24.
    let ground = plan_area(mesh, |v| v[2].abs() < 0.05);
    let gallery = plan_area(mesh, |v| (v[2] - 3.0).abs() < 0.05);
    assert!((40.0..58.1).contains(&ground), "ground floor {ground} m²");
    assert!((15.0..24.0).contains(&gallery), "gallery {gallery} m²");

    // Reachable (the output keeps only the reachable floor): the ground floor in the
    // room's south-west, the middle of the seventh tread (z 1.75), the gallery's west end,
    // the ground floor under the gallery.
    let tread = STAIR_FOOT + 6.5 * TREAD;
    for (x, y, z) in [
        (2.0, 2.0, 0.0),
        (6.5, tread, 7.0 * RISE),
        (2.0, 7.0, 3.0),
        (1.0, 6.5, 0.0),
    ] {
        let (px, py) = (x + origin[0], y + origin[1]);
        let found = heights_at(mesh, px, py);
        assert!(
            found.iter().any(|h| (h - z).abs() < 0.1),
            "({px}, {py}, {z}) not on the walkmesh; heights there {found:?}"
        );
    }
    assert_lint_clean(mesh);
}

#[test]
fn a_room_inside_one_tile_is_not_cut() {
    // The same room from (0.5, 0.5) lies inside tile (0, 0): nothing to cut, the output is
    // the one without tile lines (apart from the tile budget's simplification, which only
    // runs when the tile holds too many).
    let made = generate(&two_storey([0.5, 0.5]), &Params::preset(Engine::Nwn2)).unwrap();
    assert_eq!(made.report.tile_line_points, 0);
    assert!(made.report.limits.is_empty(), "{:?}", made.report.limits);
    let written = written_per_tile(&made.mesh);
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(written.values().all(|&n| n <= 127), "{written:?}");
}

/// `n` separate 0.6 m plateaus 1 m apart, 9 to a row, from `from` (all kept: each needs two
/// triangles of its own and no vertex of theirs can go).
fn plateaus(mesh: &mut NavMesh, from: [f32; 2], n: u32) {
    for k in 0..n {
        let (x, y, z) = (
            from[0] + (k % 9) as f32,
            from[1] + (k / 9) as f32,
            (k % 2) as f32 * 0.05,
        );
        let b = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x, y, z],
            [x + 0.6, y, z],
            [x + 0.6, y + 0.6, z],
            [x, y + 0.6, z],
        ]);
        mesh.push_polygon(&[b, b + 1, b + 2], STONE);
        mesh.push_polygon(&[b, b + 2, b + 3], STONE);
    }
}

#[test]
fn a_tile_that_cannot_hold_is_refused_by_name_beside_a_cut_floor_that_does() {
    // 72 plateaus in tile (1, 0) (x 9.2..17.8, y 0.2..7.8): 144 walkable triangles that no
    // simplification can lessen. A 14 × 4 m floor across x = 9 in row 1 (y 10..14): cut
    // there, both its tiles hold. Only tile (1, 0) is refused.
    let mut mesh = NavMesh::default();
    plateaus(&mut mesh, [9.2, 0.2], 72);
    let b = mesh.vertices.len() as u32;
    mesh.vertices.extend([
        [2.0, 10.0, 0.0],
        [16.0, 10.0, 0.0],
        [16.0, 14.0, 0.0],
        [2.0, 14.0, 0.0],
    ]);
    mesh.push_polygon(&[b, b + 1, b + 2], STONE);
    mesh.push_polygon(&[b, b + 2, b + 3], STONE);
    let mut params = Params::preset(Engine::Nwn2);
    params.keep_unreachable = true;
    params.agent_radius = 0.0;
    params.min_passage_width = 0.0;
    params.min_region_area = 0.0;
    let made = generate(&mesh, &params).unwrap();
    let codes: Vec<&str> = made.report.limits.iter().map(|l| l.code).collect();
    assert_eq!(
        codes,
        ["generate.nwn2_tile_over_limit"],
        "{:?}",
        made.report.limits
    );
    let message = &made.report.limits[0].message;
    assert!(message.contains("column 1, row 0"), "{message}");
    assert!(message.contains("144"), "{message}");
    let per_tile = walkmesh_generate::simplify::walkable_per_tile(&made.mesh, TILE);
    assert_eq!(per_tile.get(&(1, 0)), Some(&144), "{per_tile:?}");
    for tile in [(0, 1), (1, 1)] {
        assert!(
            per_tile.get(&tile).is_some_and(|&n| n <= 127),
            "{per_tile:?}"
        );
    }
    assert_eq!(limits::nwn2_tiles(&made.mesh, TILE).len(), 1);
    assert_eq!(crossing_a_tile_line(&made.mesh), 0);
}
