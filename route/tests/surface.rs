//! The surface route on hand-built meshes whose shortest paths are computed by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::NavMesh;
use walkmesh_route::fixtures::{cell_floor, open_floor, walkable};
use walkmesh_route::surface::{LocateError, Route, SurfaceRouter, dist, height_at};

fn route(mesh: &NavMesh, from: [f64; 3], to: [f64; 3]) -> Route {
    SurfaceRouter::new(mesh).route_points(from, to).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Quality bars of the issue, checked on any route: not longer than 1.02 × the corridor's
/// midpoint chain, not shorter than the straight line, every point on a corridor face at
/// that face's height, and ends at the located points.
fn assert_quality(mesh: &NavMesh, r: &Route, from: [f64; 3], to: [f64; 3]) {
    assert!(r.reachable);
    assert!(
        r.length <= 1.02 * r.midpoint_length + 1e-9,
        "{} > 1.02 × {}",
        r.length,
        r.midpoint_length
    );
    assert!(
        r.length >= dist(from, to) - 1e-9,
        "{} shorter than straight",
        r.length
    );
    let summed: f64 = r.points.windows(2).map(|w| dist(w[0], w[1])).sum();
    assert!(close(r.length, summed));
    let router = SurfaceRouter::new(mesh);
    for p in &r.points {
        let on_corridor = r.faces.iter().any(|&f| {
            walkmesh_core::passes::aabb::polygon_contains_xy(
                mesh,
                f as usize,
                [p[0] as f32, p[1] as f32],
            ) && (router.height_at(f, p[0], p[1]) - p[2]).abs() < 1e-4
        });
        assert!(on_corridor, "point {p:?} is on no corridor face");
    }
}

#[test]
fn straight_across_an_open_floor_is_the_straight_line() {
    let mesh = open_floor(10, 10);
    let (from, to) = ([0.0, 0.0, 0.0], [10.0, 10.0, 0.0]);
    let r = route(&mesh, from, to);
    assert!(close(r.length, 200f64.sqrt()), "{}", r.length);
    assert_eq!(r.points, vec![from, to]);
    assert_eq!(r.faces.first(), Some(&0));
    // (10, 10) is a corner of faces 198 and 199: the lower index.
    assert_eq!(r.faces.last(), Some(&198));
    assert_quality(&mesh, &r, from, to);
}

#[test]
fn l_shaped_corridor_turns_at_the_inner_corner() {
    // Cells (0..4, 0) then (3, 1..4): the inner corner is the lattice point (3, 1).
    let cells = (0..4).map(|x| (x, 0)).chain((1..4).map(|y| (3, y)));
    let mesh = cell_floor(4, 4, cells, |_, _| 0.0);
    let (from, to) = ([0.5, 0.5, 0.0], [3.5, 3.5, 0.0]);
    let r = route(&mesh, from, to);
    // By hand: (0.5,0.5)→(3,1) is √(2.5² + 0.5²) = √6.5, and (3,1)→(3.5,3.5) the same.
    assert!(
        close(r.length, 2.0 * 6.5f64.sqrt()),
        "{} {:?} {:?}",
        r.length,
        r.points,
        r.faces
    );
    assert_eq!(r.points, vec![from, [3.0, 1.0, 0.0], to]);
    assert_quality(&mesh, &r, from, to);
}

#[test]
fn u_shaped_corridor_wraps_around_both_inner_corners() {
    // Cells (0,0..3), (1,2), (2,0..3): a U opening downward... the route from the bottom of the
    // left arm to the bottom of the right arm goes over the top through (1,2) and (2,2).
    let cells = (0..3)
        .map(|y| (0, y))
        .chain([(1, 2)])
        .chain((0..3).map(|y| (2, y)));
    let mesh = cell_floor(3, 3, cells, |_, _| 0.0);
    let (from, to) = ([0.5, 0.5, 0.0], [2.5, 0.5, 0.0]);
    let r = route(&mesh, from, to);
    // By hand: (0.5,0.5)→(1,2): √(0.25 + 2.25) = √2.5; (1,2)→(2,2): 1; (2,2)→(2.5,0.5): √2.5.
    assert!(
        close(r.length, 2.0 * 2.5f64.sqrt() + 1.0),
        "{} {:?} {:?}",
        r.length,
        r.points,
        r.faces
    );
    assert_eq!(r.points, vec![from, [1.0, 2.0, 0.0], [2.0, 2.0, 0.0], to]);
    assert_quality(&mesh, &r, from, to);
}

#[test]
fn a_ramp_keeps_the_bend_and_measures_in_3d() {
    // Two cells along x: flat for x ≤ 1, rising with slope 1 after.
    let mesh = cell_floor(2, 1, [(0, 0), (1, 0)], |x, _| (x - 1.0).max(0.0));
    let (from, to) = ([0.5, 0.5, 0.0], [1.5, 0.5, 9.0]);
    let r = route(&mesh, from, to);
    // The end is snapped to the ramp: z = 0.5. Flat 0.5, then √(0.5² + 0.5²).
    assert_eq!(r.points, vec![from, [1.0, 0.5, 0.0], [1.5, 0.5, 0.5]]);
    assert!(close(r.length, 0.5 + 0.5f64.sqrt()), "{}", r.length);
}

#[test]
fn a_constant_slope_drops_the_crossings() {
    let mesh = open_floor(4, 4);
    let mut sloped = mesh.clone();
    for v in &mut sloped.vertices {
        v[2] = 0.5 * v[0];
    }
    let (from, to) = ([0.0, 0.0, 0.0], [4.0, 4.0, 0.0]);
    let r = route(&sloped, from, to);
    assert_eq!(r.points, vec![from, [4.0, 4.0, 2.0]]);
    assert!(
        close(r.length, (16.0f64 + 16.0 + 4.0).sqrt()),
        "{}",
        r.length
    );
}

#[test]
fn an_island_is_unreachable() {
    // Cells (0,0) and (2,0): the column between is missing.
    let mesh = cell_floor(3, 1, [(0, 0), (2, 0)], |_, _| 0.0);
    let r = route(&mesh, [0.5, 0.5, 0.0], [2.5, 0.5, 0.0]);
    assert!(!r.reachable);
    assert!(r.points.is_empty() && r.faces.is_empty());
}

#[test]
fn a_point_off_the_surface_names_the_nearest_face_and_distance() {
    let mesh = cell_floor(3, 1, [(0, 0), (2, 0)], |_, _| 0.0);
    let router = SurfaceRouter::new(&mesh);
    // (1.5, 0.25, 0): 0.5 from the edge x = 1 of cell 0 (faces 0, 1) and x = 2 of cell 2.
    // Face 0 is the triangle (0,0)(1,0)(1,1), which holds the edge x = 1: lowest index wins.
    let err = router.locate([1.25, 0.25, 0.0]).unwrap_err();
    assert_eq!(
        err,
        LocateError::OffSurface {
            nearest_face: 0,
            distance: 0.25
        }
    );
    // Above the floor in plan is not off the surface: it snaps down.
    let on = router.locate([0.5, 0.25, 3.0]).unwrap();
    assert_eq!(on.point, [0.5, 0.25, 0.0]);
}

#[test]
fn no_walkable_face_is_its_own_error() {
    let mut mesh = open_floor(1, 1);
    for s in &mut mesh.surfaces {
        s.walkable = false;
    }
    let err = SurfaceRouter::new(&mesh)
        .locate([0.5, 0.5, 0.0])
        .unwrap_err();
    assert_eq!(err, LocateError::NoWalkableFace);
}

#[test]
fn stacked_floors_locate_on_the_nearer_height() {
    // Two separate unit squares over each other, at z = 0 and z = 3.
    let mut mesh = NavMesh::default();
    for z in [0.0, 3.0] {
        let base = mesh.vertices.len() as u32;
        mesh.vertices
            .extend([[0.0, 0.0, z], [1.0, 0.0, z], [1.0, 1.0, z], [0.0, 1.0, z]]);
        mesh.push_polygon(&[base, base + 1, base + 2, base + 3], walkable());
    }
    let router = SurfaceRouter::new(&mesh);
    assert_eq!(router.locate([0.5, 0.5, 1.4]).unwrap().face, 0);
    assert_eq!(router.locate([0.5, 0.5, 1.6]).unwrap().face, 1);
    // Equal gaps: the lower index.
    assert_eq!(router.locate([0.5, 0.5, 1.5]).unwrap().face, 0);
    let r = router
        .route_points([0.1, 0.1, 0.0], [0.9, 0.9, 3.0])
        .unwrap();
    assert!(!r.reachable, "the floors do not touch");
}

#[test]
fn height_on_a_tilted_triangle_and_a_degenerate_polygon() {
    let tri = [[0.0, 0.0, 0.0], [2.0, 0.0, 2.0], [0.0, 2.0, 4.0]];
    // z = x + 2y on this plane.
    assert!(close(height_at(&tri, 0.5, 0.25), 1.0));
    // Outside it extrapolates the plane.
    assert!(close(height_at(&tri, 3.0, 0.0), 3.0));
    let flat_in_plan = [[0.0, 0.0, 1.0], [1.0, 0.0, 2.0], [2.0, 0.0, 6.0]];
    assert!(close(height_at(&flat_in_plan, 0.5, 0.0), 3.0));
}

#[test]
fn a_quad_with_a_fan_uses_the_triangle_that_holds_the_point() {
    // A non-planar quad: corner (1,1) raised to 2; fan (c0,c1,c2) and (c0,c2,c3).
    let quad = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 2.0],
        [0.0, 1.0, 0.0],
    ];
    // (0.75, 0.25) is in the first fan triangle: wa = 0.25, wb = 0.5, wc = 0.25 → z = 0.5.
    assert!(close(height_at(&quad, 0.75, 0.25), 0.5));
    // (0.25, 0.75) is in the second: wa = 0.25, wc2 = 0.25 (c2), wc3 = 0.5 → z = 0.5.
    assert!(close(height_at(&quad, 0.25, 0.75), 0.5));
}

#[test]
fn a_comb_of_obstacles_meets_the_quality_bars() {
    // 12 × 12 cells with walls (missing cells) in a comb; many start/end pairs.
    let cells: Vec<(u32, u32)> = (0..12)
        .flat_map(|y| (0..12).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            !((x == 3 && y < 9) || (x == 7 && y > 2) || (y == 5 && (8..11).contains(&x)))
        })
        .collect();
    let mesh = cell_floor(12, 12, cells.clone(), |x, y| {
        0.1 * (x * 0.7).sin() + 0.05 * y
    });
    let router = SurfaceRouter::new(&mesh);
    let mut routed = 0;
    for (i, &(ax, ay)) in cells.iter().enumerate().step_by(7) {
        for &(bx, by) in cells.iter().skip(i % 5).step_by(11) {
            let from = [f64::from(ax) + 0.3, f64::from(ay) + 0.6, 0.0];
            let to = [f64::from(bx) + 0.7, f64::from(by) + 0.2, 0.0];
            let r = router.route_points(from, to).unwrap();
            let (a, b) = (r.points[0], *r.points.last().unwrap());
            assert_quality(&mesh, &r, a, b);
            routed += 1;
        }
    }
    assert!(routed > 100, "{routed}");
}

#[test]
fn the_same_query_gives_the_same_answer() {
    let mesh = open_floor(8, 8);
    let a = route(&mesh, [0.2, 7.7, 0.0], [7.9, 0.1, 0.0]);
    let b = route(&mesh, [0.2, 7.7, 0.0], [7.9, 0.1, 0.0]);
    assert_eq!(a, b);
}

#[test]
fn a_500k_triangle_floor_corner_to_corner_is_within_one_percent_of_straight() {
    let mesh = open_floor(500, 500);
    assert_eq!(mesh.polygons.len(), 500_000);
    let router = SurfaceRouter::new(&mesh);
    for (from, to) in [
        ([0.1, 0.2, 0.0], [499.9, 499.7, 0.0]),
        ([0.3, 499.8, 0.0], [499.6, 0.1, 0.0]),
    ] {
        let r = router.route_points(from, to).unwrap();
        let straight = dist(from, to);
        assert!(r.length <= 1.01 * straight, "{} vs {straight}", r.length);
        assert!(r.length >= straight - 1e-9);
    }
}
