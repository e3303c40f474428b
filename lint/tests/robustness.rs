//! Meshes built to be awkward: lint and fix finish quickly and without panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use common::*;
use walkmesh_core::NavMesh;
use walkmesh_lint::{LintOptions, fix, lint};

#[test]
fn one_huge_face_over_many_small_ones() {
    // 200 × 200 squares of 1 m, and one walkable triangle a million metres wide under them
    // 0.1 m lower: the huge face overlaps every square at the same height.
    let mut mesh = NavMesh::default();
    add_floor(&mut mesh, 200, 200, 0.0, 0.0, 0.1);
    let n = mesh.vertices.len() as u32;
    mesh.vertices
        .extend([[-1e6, -1e6, 0.0], [1e6, -1e6, 0.0], [0.0, 1e6, 0.0]]);
    mesh.push_polygon(&[n, n + 1, n + 2], STONE);
    let started = Instant::now();
    let findings = lint(&mesh, &LintOptions::default(), None);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let overlaps = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::OVERLAP)
        .count();
    assert_eq!(overlaps, 200 * 200 * 2);
}

#[test]
fn non_finite_and_repeated_vertices_do_not_panic() {
    let mut mesh = clean_floor();
    let n = mesh.vertices.len() as u32;
    mesh.vertices.extend([
        [f32::NAN, 0.0, 0.0],
        [f32::INFINITY, 1.0, 0.0],
        [0.0, f32::NEG_INFINITY, f32::INFINITY],
    ]);
    mesh.push_polygon(&[n, n + 1, n + 2], STONE);
    mesh.push_polygon(&[0, 0, 0], STONE);
    mesh.push_polygon(&[n, 1, n], GRASS);
    let findings = lint(&mesh, &LintOptions::default(), None);
    assert!(findings.iter().any(|f| f.code == walkmesh_lint::DEGENERATE));
    let fixed = fix(&mesh, &LintOptions::default());
    fixed.mesh.check().unwrap();
}

#[test]
fn empty_and_wall_only_meshes_are_clean() {
    assert!(lint(&NavMesh::default(), &LintOptions::default(), None).is_empty());
    let mut walls = clean_floor();
    for surface in &mut walls.surfaces {
        *surface = NON_WALK;
    }
    assert!(lint(&walls, &LintOptions::default(), None).is_empty());
}

#[test]
fn a_face_stored_100000_times_is_one_group_in_linear_time_and_memory() {
    // Issue #33: 2,300 copies of one face took 1.16 GiB (every pair of copies a finding, and
    // every pair of their edges a seam); 100,000 aborted. Copies are grouped by their sorted
    // corner positions: one finding naming every copy, which --fix removes.
    const COPIES: u32 = 100_000;
    let mut mesh = clean_floor();
    let faces_before = mesh.polygons.len() as u32;
    let n = mesh.vertices.len() as u32;
    mesh.vertices
        .extend([[10.0, 10.0, 0.0], [11.0, 10.0, 0.0], [10.0, 11.0, 0.0]]);
    for k in 0..COPIES {
        // Every copy starts at another corner: the same face all the same.
        let corners = [n, n + 1, n + 2];
        let r = (k % 3) as usize;
        mesh.push_polygon(
            &[corners[r], corners[(r + 1) % 3], corners[(r + 2) % 3]],
            STONE,
        );
    }
    let started = Instant::now();
    let findings = lint(&mesh, &LintOptions::default(), None);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?}");
    // Linear in the copies: a few findings, each face named a bounded number of times.
    let named: usize = findings.iter().map(|f| f.faces.len()).sum();
    assert!(named <= 6 * COPIES as usize, "{named}");
    assert!(findings.iter().all(|f| f.message.len() < 1000));
    let groups: Vec<_> = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::OVERLAP)
        .collect();
    assert_eq!(groups.len(), 1, "{groups:?}");
    let group = groups[0];
    assert!(group.fixable);
    assert_eq!(group.faces.len(), COPIES as usize);
    assert_eq!(group.faces[0], faces_before);
    assert!(
        group.message.contains("stored 99999 more times"),
        "{}",
        group.message
    );
    // The copies are not islands of their own: the first copy is the one island.
    let islands = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::ISLAND)
        .count();
    assert!(islands <= 1, "{islands}");
    let fixed = fix(&mesh, &LintOptions::default());
    assert_eq!(fixed.mesh.polygons.len() as u32, faces_before + 1);
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn two_copies_are_still_one_pair_finding() {
    let mut mesh = clean_floor();
    let n = mesh.vertices.len() as u32;
    mesh.vertices
        .extend([[10.0, 10.0, 0.0], [11.0, 10.0, 0.0], [10.0, 11.0, 0.0]]);
    mesh.push_polygon(&[n, n + 1, n + 2], STONE);
    mesh.push_polygon(&[n + 1, n + 2, n], STONE);
    let findings = lint(&mesh, &LintOptions::default(), None);
    let overlaps: Vec<_> = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::OVERLAP)
        .collect();
    assert_eq!(overlaps.len(), 1);
    assert_eq!(overlaps[0].faces.len(), 2);
    assert!(overlaps[0].message.contains("duplicates face"));
}

#[test]
fn distinct_tiny_faces_piled_into_one_cell_are_not_compared_pairwise() {
    // Issue #33: 40,000 separate millimetre triangles crowded into one square metre among
    // 60,000 metre-sized faces took 300 s: the overlap grid's cells (twice the median face)
    // and the narrow-passage grid (a character wide) each held the whole crowd, compared pair
    // by pair. Overlap now files faces by their own size; edges too short to bound a narrow
    // strip are left out of that search. Measured 0.5 s in release.
    let mut mesh = NavMesh::default();
    add_floor(&mut mesh, 200, 150, 0.0, 0.0, 0.0);
    let side = 200u32;
    let step = 0.004f32;
    for i in 0..side {
        for j in 0..side {
            let n = mesh.vertices.len() as u32;
            let (x, y) = (50.2 + i as f32 * step, 50.2 + j as f32 * step);
            // 1 m above the floor: no overlap at the same height anywhere.
            mesh.vertices
                .extend([[x, y, 1.0], [x + 0.001, y, 1.0], [x, y + 0.001, 1.0]]);
            mesh.push_polygon(&[n, n + 1, n + 2], STONE);
        }
    }
    let started = Instant::now();
    let findings = lint(&mesh, &LintOptions::default(), None);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "{took:?}");
    let count = |code: &str| findings.iter().filter(|f| f.code == code).count();
    assert_eq!(count(walkmesh_lint::OVERLAP), 0);
    assert_eq!(count(walkmesh_lint::NARROW_PASSAGE), 0);
    // Every tiny face is its own island: reported, linearly.
    assert_eq!(count(walkmesh_lint::ISLAND), 40_000);
}

#[test]
fn faces_of_every_size_still_meet_their_overlaps() {
    // The size levels find a pair whichever face is larger and whichever comes first: a
    // 1 m square (two triangles) with a 20 cm triangle on it at the same height, a 10 m
    // triangle over both, in both file orders (the small one 20 cm: overlaps under 1 cm² are
    // rounding, not findings).
    for big_first in [true, false] {
        let mut mesh = NavMesh::default();
        let big = |mesh: &mut NavMesh| {
            let n = mesh.vertices.len() as u32;
            mesh.vertices
                .extend([[-5.0, -5.0, 0.0], [15.0, -5.0, 0.0], [-5.0, 15.0, 0.0]]);
            mesh.push_polygon(&[n, n + 1, n + 2], STONE);
        };
        if big_first {
            big(&mut mesh);
        }
        add_floor(&mut mesh, 1, 1, 0.0, 0.0, 0.0);
        let n = mesh.vertices.len() as u32;
        mesh.vertices
            .extend([[0.5, 0.1, 0.0], [0.7, 0.1, 0.0], [0.5, 0.3, 0.0]]);
        mesh.push_polygon(&[n, n + 1, n + 2], STONE);
        if !big_first {
            big(&mut mesh);
        }
        let findings = lint(&mesh, &LintOptions::default(), None);
        let mut pairs: Vec<Vec<u32>> = findings
            .iter()
            .filter(|f| f.code == walkmesh_lint::OVERLAP)
            .map(|f| f.faces.clone())
            .collect();
        pairs.sort();
        // Faces: big (0 or 3), squares' triangles, tiny. The tiny one lies on the first
        // triangle of the square (x > y); the big one covers all three.
        let (b, s0, s1, t) = if big_first {
            (0, 1, 2, 3)
        } else {
            (3, 0, 1, 2)
        };
        let mut expected = vec![
            vec![b.min(s0), b.max(s0)],
            vec![b.min(s1), b.max(s1)],
            vec![b.min(t), b.max(t)],
            vec![s0.min(t), s0.max(t)],
        ];
        expected.sort();
        assert_eq!(pairs, expected, "big first: {big_first}");
    }
}
