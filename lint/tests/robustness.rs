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
