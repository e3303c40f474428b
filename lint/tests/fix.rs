//! `fix`: after the repairs, lint finds none of the repaired codes, walkable area changes by
//! at most 1%, seams are joined (no island left where one was), every face keeps its
//! material, and every repair is reported.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use walkmesh_core::NavMesh;
use walkmesh_lint::{Fixed, LintOptions, fix, lint};

fn codes(mesh: &NavMesh) -> Vec<String> {
    lint(mesh, &LintOptions::default(), None)
        .into_iter()
        .map(|f| f.code)
        .collect()
}

/// The common promises of a fix of `mesh`, which had findings of `repaired` (each reported as
/// repaired) and of `cleared` (gone as a consequence: islands joined by a repaired seam).
fn check_fixed(mesh: &NavMesh, repaired: &[&str], cleared: &[&str]) -> Fixed {
    let before = codes(mesh);
    for code in repaired.iter().chain(cleared) {
        assert!(
            before.iter().any(|c| c == code),
            "fixture lacks {code}: {before:?}"
        );
    }
    let fixed = fix(mesh, &LintOptions::default());
    fixed.mesh.check().unwrap();
    let after = codes(&fixed.mesh);
    assert!(after.is_empty(), "left after the fix: {after:?}");
    for code in repaired {
        assert!(
            fixed.repairs.iter().any(|r| r.code == *code),
            "no {code} repair reported: {:#?}",
            fixed.repairs
        );
    }
    let (a, b) = (area(mesh), area(&fixed.mesh));
    assert!((a - b).abs() <= 0.01 * a, "walkable area {a} → {b}");
    // Every output face keeps the surface of the input face it came from.
    assert_eq!(fixed.origin.len(), fixed.mesh.polygons.len());
    for (face, &source) in fixed.origin.iter().enumerate() {
        assert_eq!(fixed.mesh.surfaces[face], mesh.surfaces[source as usize]);
    }
    fixed
}

#[test]
fn downward_face_is_flipped() {
    let mut mesh = clean_floor();
    let start = mesh.polygons.first_index(9);
    mesh.polygons.indices_mut().swap(start + 1, start + 2);
    let fixed = check_fixed(&mesh, &[walkmesh_lint::DOWNWARD_WALKABLE], &[]);
    assert_eq!(fixed.repairs.len(), 1);
    assert_eq!(fixed.repairs[0].faces, vec![9]);
}

#[test]
fn degenerate_and_duplicate_faces_are_removed() {
    let mut mesh = clean_floor();
    mesh.push_polygon(&[0, 1, 2], STONE); // 96: zero area
    let corners = mesh.polygons.get(20).to_vec();
    mesh.push_polygon(&corners, GRASS); // 97: duplicate of 20 (another material)
    let fixed = check_fixed(
        &mesh,
        &[walkmesh_lint::DEGENERATE, walkmesh_lint::OVERLAP],
        &[walkmesh_lint::NON_MANIFOLD],
    );
    assert_eq!(fixed.mesh.polygons.len(), 96);
    assert!(!fixed.origin.contains(&96) && !fixed.origin.contains(&97));
    let removed: Vec<Vec<u32>> = fixed.repairs.iter().map(|r| r.faces.clone()).collect();
    assert_eq!(removed, vec![vec![96], vec![97, 20]]);
}

#[test]
fn open_and_height_seams_are_joined() {
    for (rise, gap) in [(0.0, 0.0), (0.0, 0.03), (0.2, 0.0)] {
        let (mesh, left, right) = split_floor(rise, gap);
        let code = if rise > 0.0 {
            walkmesh_lint::HEIGHT_SEAM
        } else {
            walkmesh_lint::OPEN_SEAM
        };
        let fixed = check_fixed(&mesh, &[code], &[walkmesh_lint::ISLAND]);
        // The seam faces are now linked: one walkable component.
        let adjacency = walkmesh_core::passes::edge_adjacency(&fixed.mesh, |_| true);
        let components =
            walkmesh_core::passes::connected_components(&fixed.mesh, &adjacency, |_| true);
        assert_eq!(components.count, 1, "rise {rise} gap {gap}");
        let seam_repairs: Vec<Vec<u32>> = fixed
            .repairs
            .iter()
            .filter(|r| r.code == code)
            .map(|r| r.faces.clone())
            .collect();
        assert_eq!(
            seam_repairs,
            vec![vec![left[0], right[0]], vec![left[1], right[1]]]
        );
    }
}

#[test]
fn t_junction_is_split_and_joins_the_two_sides() {
    let (mesh, face) = t_junction_floor();
    let fixed = check_fixed(
        &mesh,
        &[walkmesh_lint::T_JUNCTION],
        &[walkmesh_lint::ISLAND],
    );
    // Face 0 became two triangles, both from face 0.
    assert_eq!(fixed.origin.iter().filter(|&&f| f == face).count(), 2);
    assert_eq!(fixed.mesh.polygons.len(), mesh.polygons.len() + 1);
}

#[test]
fn edge_tags_follow_their_edges() {
    use walkmesh_core::{EdgeRef, EdgeTag};
    let mut mesh = clean_floor();
    // Face 9 turned to face down, with a transition on its edge 0 (corners 0 → 1). The fix
    // reverses the face, so the tag must move to the reversed face's edge between the same
    // two vertices.
    let start = mesh.polygons.first_index(9);
    mesh.polygons.indices_mut().swap(start + 1, start + 2);
    let corners = mesh.polygons.get(9).to_vec();
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 9,
            edge: 0,
        },
        EdgeTag { transition: 3 },
    );
    let fixed = fix(&mesh, &LintOptions::default());
    let (&edge, tag) = fixed.mesh.edge_tags.iter().next().unwrap();
    assert_eq!(tag.transition, 3);
    let flipped = fixed.mesh.polygons.get(edge.polygon as usize);
    let n = flipped.len() as u32;
    let (from, to) = (
        flipped[edge.edge as usize],
        flipped[((edge.edge + 1) % n) as usize],
    );
    // The tagged edge joins the same two vertices as before.
    let mut ends = [from, to];
    ends.sort_unstable();
    let mut original = [corners[0], corners[1]];
    original.sort_unstable();
    assert_eq!(ends, original);
}

#[test]
fn clean_mesh_is_left_as_it_is() {
    let mesh = clean_floor_with_ramp_and_wall();
    let fixed = fix(&mesh, &LintOptions::default());
    assert!(fixed.repairs.is_empty());
    assert_eq!(fixed.mesh.polygons, mesh.polygons);
    assert_eq!(fixed.mesh.vertices, mesh.vertices);
}

#[test]
fn room_seams_of_an_area_are_left_alone() {
    use walkmesh_core::Attribute;
    // Two rooms meeting at x = 2, the right one 0.2 higher: a height seam between rooms.
    let (mut mesh, _, right) = split_floor(0.2, 0.0);
    let rooms: Vec<i64> = (0..mesh.polygons.len() as u32)
        .map(|f| i64::from(f >= right[0] - 1))
        .collect();
    mesh.face_attributes
        .insert(walkmesh_lint::ROOM_COLUMN.into(), Attribute::Int(rooms));
    let findings = lint(&mesh, &LintOptions::default(), Some(2));
    assert!(
        findings
            .iter()
            .any(|f| f.code == walkmesh_lint::HEIGHT_SEAM && !f.fixable)
    );
    let fixed = fix(&mesh, &LintOptions::default());
    assert!(fixed.repairs.is_empty(), "{:#?}", fixed.repairs);
    assert_eq!(fixed.mesh.vertices, mesh.vertices);
}
