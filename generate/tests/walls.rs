//! KotOR walls (`walkmesh_generate::walls`): non-walkable faces standing on the walkable
//! floor's edge where the render geometry has a wall beyond it, none at open edges and
//! doorways; walkability unchanged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};
use walkmesh_generate::{Engine, Generated, Params, footprint, generate, holes, walls};

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
    let faces = [
        [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
        [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
        [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
        [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
        [[x1, y1, z0], [x0, y1, z0], [x0, y1, z1], [x1, y1, z1]],
        [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
    ];
    for f in faces {
        quad(mesh, f);
    }
}

/// A 10 × 8 m floor at z = 0 with walls 0.2 m thick on three sides: south (y = 0) and west
/// (x = 0) 4 m high, the west one with a doorway 1.5 m wide (y 3..4.5, lintel from 2.2 m),
/// east (x = 10) 2.5 m high; the north side (y = 8) open. A 1 × 1 × 1 m crate at (4, 4).
fn room() -> NavMesh {
    let mut mesh = NavMesh::default();
    quad(
        &mut mesh,
        [[0., 0., 0.], [10., 0., 0.], [10., 8., 0.], [0., 8., 0.]],
    );
    cuboid(&mut mesh, [-0.2, -0.2, 0.], [10.2, 0., 4.]);
    cuboid(&mut mesh, [-0.2, 0., 0.], [0., 3., 4.]);
    cuboid(&mut mesh, [-0.2, 3., 2.2], [0., 4.5, 4.]);
    cuboid(&mut mesh, [-0.2, 4.5, 0.], [0., 8., 4.]);
    cuboid(&mut mesh, [10., 0., 0.], [10.2, 8., 2.5]);
    cuboid(&mut mesh, [4., 4., 0.], [5., 5., 1.]);
    mesh
}

/// Plan area of the walkable faces.
fn walkable_plan_area(mesh: &NavMesh) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| {
            let v: Vec<[f64; 3]> = mesh
                .polygons
                .get(p)
                .iter()
                .map(|&i| mesh.vertex(i).map(f64::from))
                .collect();
            (1..v.len() - 1)
                .map(|k| {
                    let (a, b, c) = (v[0], v[k], v[k + 1]);
                    ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
                })
                .sum::<f64>()
        })
        .sum()
}

/// The walkable faces as sorted corner-position lists: the walkable mesh, face for face.
fn walkable_faces(mesh: &NavMesh) -> Vec<Vec<[u32; 3]>> {
    let mut faces: Vec<Vec<[u32; 3]>> = (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| {
            let mut c: Vec<[u32; 3]> = mesh
                .polygons
                .get(p)
                .iter()
                .map(|&i| mesh.vertex(i).map(f32::to_bits))
                .collect();
            c.sort_unstable();
            c
        })
        .collect();
    faces.sort_unstable();
    faces
}

fn unit_normal(mesh: &NavMesh, p: usize) -> [f64; 3] {
    let v: Vec<[f64; 3]> = mesh
        .polygons
        .get(p)
        .iter()
        .map(|&i| mesh.vertex(i).map(f64::from))
        .collect();
    let (a, b, c) = (v[0], v[1], v[2]);
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    n.map(|x| x / len)
}

fn lint_bad(mesh: &NavMesh) -> Vec<(String, String)> {
    walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None)
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
        .collect()
}

/// The wall faces: added last, after the walkable faces and the hole fill.
fn wall_faces(with: &NavMesh, fill: usize) -> Vec<usize> {
    (with.walkable_count() + fill..with.polygons.len()).collect()
}

/// Walls leave the walkable floor as it was: the same walkable area and footprint, and the
/// same walkable faces except those cut where a wall ends along their edge (their pieces
/// cover them exactly, on their plane, and every new corner lies on one of their edges).
fn assert_walkability_unchanged(made: &Generated, plain: &Generated) {
    let (with, without) = (&made.mesh, &plain.mesh);
    assert!((made.report.walkable_area - plain.report.walkable_area).abs() < 1e-6);
    assert!((walkable_plan_area(with) - walkable_plan_area(without)).abs() < 1e-6);
    let same = footprint::compare(with, without, 0.02, 0.0);
    assert!(same.iou > 0.9999, "{same:?}");
    let (ours, theirs) = (walkable_faces(with), walkable_faces(without));
    let gone: Vec<_> = theirs.iter().filter(|f| !ours.contains(f)).collect();
    let new: Vec<_> = ours.iter().filter(|f| !theirs.contains(f)).collect();
    let area = |faces: &[&Vec<[u32; 3]>]| -> f64 {
        faces
            .iter()
            .map(|f| {
                let [a, b, c] = [0, 1, 2].map(|k| f[k].map(|x| f64::from(f32::from_bits(x))));
                (((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0).abs()
            })
            .sum()
    };
    assert!(
        (area(&gone) - area(&new)).abs() < 1e-6,
        "{gone:?} → {new:?}"
    );
    let split = made.report.walls.map_or(0, |w| w.split_edges);
    assert!(gone.len() <= split, "{gone:?}");
    for face in &new {
        for corner in face.iter() {
            let p = corner.map(f32::from_bits);
            let on_a_gone_edge = gone.iter().any(|g| {
                (0..3).any(|k| {
                    let [a, b] = [g[k], g[(k + 1) % 3]].map(|c| c.map(f32::from_bits));
                    on_segment(p, a, b)
                })
            });
            assert!(on_a_gone_edge, "new corner {p:?} of {face:?}");
        }
    }
}

fn on_segment(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> bool {
    let d = [0, 1, 2].map(|k| f64::from(b[k] - a[k]));
    let e = [0, 1, 2].map(|k| f64::from(p[k] - a[k]));
    let len2: f64 = d.iter().map(|x| x * x).sum();
    let t = if len2 > 0.0 {
        d.iter().zip(&e).map(|(x, y)| x * y).sum::<f64>() / len2
    } else {
        0.0
    };
    (0.0..=1.0).contains(&t) && (0..3).all(|k| (e[k] - t * d[k]).abs() < 1e-4)
}

#[test]
fn walls_stand_on_the_three_walled_sides_only() {
    let made = generate(&room(), &Params::preset(Engine::Kotor)).unwrap();
    let mut plain_params = Params::preset(Engine::Kotor);
    plain_params.walls = false;
    let plain = generate(&room(), &plain_params).unwrap();
    let mesh = &made.mesh;
    let raised = made.report.walls.unwrap();
    let fill = made.report.holes.unwrap();
    assert_eq!(fill.holes, 1, "the crate's hole is filled: {fill:?}");
    assert!(plain.report.walls.is_none());

    assert_walkability_unchanged(&made, &plain);
    assert_eq!(
        raised.split_edges, 1,
        "the west edge is cut at the doorway: {raised:?}"
    );
    assert_eq!(
        mesh.polygons.len(),
        plain.mesh.polygons.len() + raised.faces + 2,
        "{raised:?}"
    );

    let walls = wall_faces(mesh, fill.faces);
    assert_eq!(walls.len(), raised.faces);
    // South, east, and the west on both sides of the doorway: four wall quads.
    assert_eq!((raised.walled, raised.faces), (3, 8), "{raised:?}");
    assert_eq!(
        made.report.materials.get("NonWalk"),
        Some(&(fill.faces + raised.faces))
    );
    // Per side: the plan length of floor edge walled, and the wall tops.
    let (mut south, mut west, mut east) = (0.0f64, 0.0f64, 0.0f64);
    for &p in &walls {
        assert_eq!(mesh.surfaces[p], walls::WALL);
        assert_eq!(mesh.surfaces[p], holes::FILL);
        let n = unit_normal(mesh, p);
        assert!(n[2].abs() < 1e-6, "face {p} is upright: {n:?}");
        let corners: Vec<[f32; 3]> = mesh
            .polygons
            .get(p)
            .iter()
            .map(|&i| mesh.vertex(i))
            .collect();
        let low: Vec<&[f32; 3]> = corners.iter().filter(|c| c[2].abs() < 1e-4).collect();
        let high: Vec<&[f32; 3]> = corners.iter().filter(|c| c[2] > 1e-4).collect();
        assert_eq!(low.len() + high.len(), 3, "{corners:?}");
        // Facing into the room.
        let centre = [
            corners.iter().map(|c| c[0]).sum::<f32>() / 3.0,
            corners.iter().map(|c| c[1]).sum::<f32>() / 3.0,
        ];
        let inward = [5.0 - f64::from(centre[0]), 4.0 - f64::from(centre[1])];
        assert!(
            n[0] * inward[0] + n[1] * inward[1] > 0.0,
            "face {p} faces out: {n:?}"
        );
        // The bottom edge of each wall quad (the triangle with two floor corners).
        if let [a, b] = low.as_slice() {
            let length = f64::from((b[0] - a[0]).hypot(b[1] - a[1]));
            if a[1].abs() < 0.11 && b[1].abs() < 0.11 {
                south += length;
            } else if a[0].abs() < 0.11 && b[0].abs() < 0.11 {
                west += length;
                let y = (a[1] + b[1]) / 2.0;
                assert!(
                    !(3.1..4.4).contains(&y),
                    "a wall across the doorway at y {y}"
                );
            } else if (a[0] - 10.0).abs() < 0.11 && (b[0] - 10.0).abs() < 0.11 {
                east += length;
            } else {
                panic!("a wall on no walled side (the north is open): {a:?} {b:?}");
            }
        }
        // Heights: the 4 m walls capped at 3 m, the east one 2.5 m (and the south-east
        // corner, where both meet, the lower).
        for c in &high {
            let expect = if (c[0] - 10.0).abs() < 0.11 {
                2.5
            } else {
                walls::MAX_HEIGHT
            };
            assert!((c[2] - expect).abs() < 0.06, "top {c:?}, expected {expect}");
        }
    }
    assert!((9.7..=10.01).contains(&south), "south walled {south}");
    assert!((7.7..=8.01).contains(&east), "east walled {east}");
    assert!(
        (8.0 - 1.5 - 0.4..=8.0 - 1.5 + 0.01).contains(&west),
        "west walled {west}"
    );
    assert!(
        raised.walled < raised.edges,
        "the open side and the doorway stay open: {raised:?}"
    );

    // Every point of the rim has one wall top: no two wall vertices at one plan point.
    let mut tops: Vec<[u32; 2]> = walls
        .iter()
        .flat_map(|&p| mesh.polygons.get(p).to_vec())
        .map(|i| mesh.vertex(i))
        .filter(|v| v[2] > 1e-4)
        .map(|v| [v[0].to_bits(), v[1].to_bits()])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let positions = tops.len();
    tops.dedup();
    assert_eq!(tops.len(), positions);
    // Added: the two corners cutting the west edge at the doorway, and one top per point.
    let added = mesh.vertices.len() - plain.mesh.vertices.len();
    assert_eq!(added, positions + 2, "one top vertex per rim point");

    let bad = lint_bad(mesh);
    assert!(bad.is_empty(), "{bad:#?}");
    println!("{}", made.report.text());
}

#[test]
fn other_presets_raise_no_walls() {
    for engine in [Engine::Nwn2, Engine::Prime, Engine::Generic] {
        let made = generate(&room(), &Params::preset(engine)).unwrap();
        assert_eq!(made.mesh.walkable_count(), made.mesh.polygons.len());
        assert!(made.report.walls.is_none());
    }
}

#[test]
fn a_sloped_skirt_and_a_railing_are_walls_and_a_drop_is_not() {
    // A 10 × 8 m floor: on the south a 45° skirt rising 2 m away from it; on the north a
    // railing from 0.8 to 0.9 m just beyond its edge (posts left out), over nothing; on the
    // east a drop to a floor 2 m lower; the west open.
    let mut mesh = NavMesh::default();
    quad(
        &mut mesh,
        [[0., 0., 0.], [10., 0., 0.], [10., 8., 0.], [0., 8., 0.]],
    );
    quad(
        &mut mesh,
        [[0., -2., 2.], [10., -2., 2.], [10., 0., 0.], [0., 0., 0.]],
    );
    cuboid(&mut mesh, [0., 8.05, 0.8], [10., 8.15, 0.9]);
    quad(
        &mut mesh,
        [
            [10., 0., -2.],
            [14., 0., -2.],
            [14., 8., -2.],
            [10., 8., -2.],
        ],
    );
    let made = generate(&mesh, &Params::preset(Engine::Kotor)).unwrap();
    let raised = made.report.walls.unwrap();
    let out = &made.mesh;
    let walls: Vec<usize> = (0..out.polygons.len())
        .filter(|&p| !out.is_walkable(p))
        .collect();
    assert_eq!(walls.len(), raised.faces);
    let (mut south, mut north) = (0usize, 0usize);
    for &p in &walls {
        let corners: Vec<[f32; 3]> = out.polygons.get(p).iter().map(|&i| out.vertex(i)).collect();
        let top = corners.iter().map(|c| c[2]).fold(f32::MIN, f32::max);
        if corners.iter().all(|c| c[1] < 0.2) {
            south += 1;
            assert!((1.6..=2.1).contains(&top), "skirt wall top {top}");
        } else if corners.iter().all(|c| c[1] > 7.8) {
            north += 1;
            assert!((0.85..=0.95).contains(&top), "railing wall top {top}");
        } else {
            panic!("a wall off the skirt and the railing: {corners:?}");
        }
    }
    assert!(south >= 2 && north >= 2, "{raised:?}");
    let bad = lint_bad(out);
    assert!(bad.is_empty(), "{bad:#?}");
}
