//! One designed fixture per lint code: the defect face is known and asserted, and nothing else
//! of that code is reported. A clean floor gives no finding at all.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use walkmesh_core::{Attribute, EdgeRef, EdgeTag, NavMesh};
use walkmesh_lint::{Engine, Finding, LintOptions, lint};

fn options() -> LintOptions {
    LintOptions::default()
}

/// The faces of each finding of `code`.
fn faces_of(findings: &[Finding], code: &str) -> Vec<Vec<u32>> {
    findings
        .iter()
        .filter(|f| f.code == code)
        .map(|f| f.faces.clone())
        .collect()
}

#[test]
fn clean_floors_have_no_findings() {
    for mesh in [clean_floor(), clean_floor_with_ramp_and_wall()] {
        let findings = lint(&mesh, &options(), None);
        assert!(findings.is_empty(), "{findings:#?}");
    }
}

#[test]
fn downward_face_is_found() {
    let mut mesh = clean_floor();
    // Face 9 reversed: (its corners a, b, c become a, c, b).
    let corners = mesh.polygons.get(9).to_vec();
    let start = mesh.polygons.first_index(9);
    let indices = mesh.polygons.indices_mut();
    indices[start + 1] = corners[2];
    indices[start + 2] = corners[1];
    let findings = lint(&mesh, &options(), None);
    assert_eq!(
        faces_of(&findings, walkmesh_lint::DOWNWARD_WALKABLE),
        vec![vec![9]]
    );
    let finding = &findings[0];
    assert!(finding.fixable);
    // at: the face's centroid, Z up: the second triangle (a, c, d) of square (4, 0) at height 0.
    let at = finding.at.unwrap();
    let third = 1.0 / 3.0;
    let expected = [4.0 + third, 2.0 * third, 0.0];
    assert!((0..3).all(|i| (at[i] - expected[i]).abs() < 1e-5), "{at:?}");
    assert_eq!(findings.len(), 1, "{findings:#?}");
}

#[test]
fn steep_face_is_found_with_the_engine_limit() {
    let mut mesh = clean_floor();
    // A 70° walkable face on the floor's back edge (y = 6, x 0..1: vertices 54, 55).
    let top = mesh.vertices.len() as u32;
    let run = 70f32.to_radians().tan().recip();
    mesh.vertices.push([0.5, 6.0 + run, 1.0]);
    mesh.push_polygon(&[54, 55, top], STONE);
    let steep = mesh.polygons.len() as u32 - 1;
    for engine in [Engine::Kotor, Engine::Nwn2, Engine::Prime, Engine::Generic] {
        let findings = lint(
            &mesh,
            &LintOptions {
                engine,
                ..options()
            },
            None,
        );
        assert_eq!(
            faces_of(&findings, walkmesh_lint::STEEP_WALKABLE),
            vec![vec![steep]]
        );
        assert!(
            findings[0].message.contains("70.0°"),
            "{}",
            findings[0].message
        );
        assert!(!findings[0].fixable);
        assert_eq!(findings.len(), 1, "{findings:#?}");
    }
}

#[test]
fn degenerate_faces_are_found() {
    let mut mesh = clean_floor();
    // Zero area: three collinear floor vertices along y = 0 (0, 1, 2).
    mesh.push_polygon(&[0, 1, 2], STONE);
    // A needle: 2 m long, 0.1 mm wide, off on its own (a non-walkable sliver).
    let n = mesh.vertices.len() as u32;
    mesh.vertices
        .extend([[20.0, 0.0, 0.0], [22.0, 0.0, 0.0], [21.0, 0.0001, 0.0]]);
    mesh.push_polygon(&[n, n + 1, n + 2], NON_WALK);
    let findings = lint(&mesh, &options(), None);
    assert_eq!(
        faces_of(&findings, walkmesh_lint::DEGENERATE),
        vec![vec![96], vec![97]]
    );
    assert!(findings.iter().any(|f| f.message.contains("needle")));
}

#[test]
fn duplicate_and_overlapping_faces_are_found() {
    let mut mesh = clean_floor();
    // Face 20 stored again (same vertices): a duplicate.
    let corners = mesh.polygons.get(20).to_vec();
    mesh.push_polygon(&corners, STONE);
    // A loose 1 m square half over square (5, 4) at the same height (own vertices).
    let first_loose = add_floor(&mut mesh, 1, 1, 5.5, 4.0, 0.05);
    let findings = lint(&mesh, &options(), None);
    let overlaps: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::OVERLAP)
        .collect();
    assert!(
        overlaps
            .iter()
            .any(|f| f.faces == vec![20, 96] && f.fixable && f.message.contains("duplicates")),
        "{overlaps:#?}"
    );
    // The loose square overlaps the floor and nothing else; it is not a duplicate.
    let loose: Vec<&&Finding> = overlaps
        .iter()
        .filter(|f| f.faces.iter().any(|&x| x >= first_loose))
        .collect();
    assert!(
        !loose.is_empty() && loose.iter().all(|f| !f.fixable),
        "{loose:#?}"
    );
    // A floor one storey up over the same squares is not an overlap.
    let mut storeys = clean_floor();
    add_floor(&mut storeys, 2, 2, 1.0, 1.0, 3.0);
    let findings = lint(&storeys, &options(), None);
    assert!(faces_of(&findings, walkmesh_lint::OVERLAP).is_empty());
}

#[test]
fn t_junction_is_found() {
    let (mesh, face) = t_junction_floor();
    let findings = lint(&mesh, &options(), None);
    let found = faces_of(&findings, walkmesh_lint::T_JUNCTION);
    assert!(
        !found.is_empty() && found.iter().all(|f| f[0] == face),
        "{found:?}"
    );
    let at = findings
        .iter()
        .find(|f| f.code == walkmesh_lint::T_JUNCTION)
        .unwrap()
        .at
        .unwrap();
    assert_eq!(at, [2.0, 1.0, 0.0]);
}

#[test]
fn open_seams_are_found_exact_and_within_the_gap() {
    for gap in [0.0, 0.02] {
        let (mesh, left, right) = split_floor(0.0, gap);
        let findings = lint(&mesh, &options(), None);
        let seams = faces_of(&findings, walkmesh_lint::OPEN_SEAM);
        assert_eq!(
            seams,
            vec![vec![left[0], right[0]], vec![left[1], right[1]]],
            "gap {gap}"
        );
        assert!(faces_of(&findings, walkmesh_lint::HEIGHT_SEAM).is_empty());
        // The seam splits the floor: the right half is an island of the same size.
        assert_eq!(faces_of(&findings, walkmesh_lint::ISLAND).len(), 1);
    }
    // Beyond the gap: nothing meets.
    let (mesh, _, _) = split_floor(0.0, 0.2);
    let findings = lint(&mesh, &options(), None);
    assert!(faces_of(&findings, walkmesh_lint::OPEN_SEAM).is_empty());
}

#[test]
fn height_seams_are_found_and_storeys_are_not() {
    let (mesh, left, right) = split_floor(0.1, 0.0);
    let findings = lint(&mesh, &options(), None);
    let seams: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.code == walkmesh_lint::HEIGHT_SEAM)
        .collect();
    assert_eq!(seams.len(), 2);
    assert_eq!(seams[0].faces, vec![left[0], right[0]]);
    assert!(
        seams[0].message.contains("0.100 in height"),
        "{}",
        seams[0].message
    );
    assert!(faces_of(&findings, walkmesh_lint::OPEN_SEAM).is_empty());
    let (storey, _, _) = split_floor(3.0, 0.0);
    let findings = lint(&storey, &options(), None);
    assert!(faces_of(&findings, walkmesh_lint::HEIGHT_SEAM).is_empty());
}

#[test]
fn island_is_found_with_its_area_and_place() {
    let mut mesh = clean_floor();
    let first = add_floor(&mut mesh, 1, 1, 20.0, 20.0, 1.0);
    let findings = lint(&mesh, &options(), None);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].code, walkmesh_lint::ISLAND);
    assert_eq!(findings[0].faces, vec![first, first + 1]);
    assert!(
        findings[0].message.contains("1.00 m²"),
        "{}",
        findings[0].message
    );
    let at = findings[0].at.unwrap();
    assert!((20.0..21.0).contains(&at[0]) && (20.0..21.0).contains(&at[1]) && at[2] == 1.0);
}

/// Two rooms of an area (the `area:room` column), meeting along x = 2 with their own
/// vertices, with transition tags on the seam edges as given.
fn two_rooms(left_names: Option<i32>, right_names: Option<i32>) -> (NavMesh, Vec<u32>, Vec<u32>) {
    let (mut mesh, left, right) = split_floor(0.0, 0.0);
    let rooms: Vec<i64> = (0..mesh.polygons.len() as u32)
        .map(|f| i64::from(f >= right[0] - 1))
        .collect();
    mesh.face_attributes
        .insert(walkmesh_lint::ROOM_COLUMN.into(), Attribute::Int(rooms));
    for (faces, edge, names) in [(&left, 1, left_names), (&right, 2, right_names)] {
        if let Some(transition) = names {
            for &face in faces {
                mesh.edge_tags.insert(
                    EdgeRef {
                        polygon: face,
                        edge,
                    },
                    EdgeTag { transition },
                );
            }
        }
    }
    (mesh, left, right)
}

#[test]
fn area_transitions_are_checked_both_ways() {
    // Both sides name each other: rooms connect, nothing reported (no island either).
    let (mesh, _, _) = two_rooms(Some(1), Some(0));
    let findings = lint(&mesh, &options(), Some(2));
    assert!(findings.is_empty(), "{findings:#?}");
    // The right room does not name the left back.
    let (mesh, left, _) = two_rooms(Some(1), None);
    let findings = lint(&mesh, &options(), Some(2));
    assert_eq!(
        faces_of(&findings, walkmesh_lint::TRANSITION_TARGET),
        vec![vec![left[0]], vec![left[1]]]
    );
    assert!(findings[0].message.contains("does not name room 0 back"));
    // A room the layout does not have.
    let (mesh, left, right) = two_rooms(Some(7), Some(0));
    let findings = lint(&mesh, &options(), Some(2));
    let targets = faces_of(&findings, walkmesh_lint::TRANSITION_TARGET);
    assert!(targets.contains(&vec![left[0]]) && targets.contains(&vec![right[0]]));
    assert!(
        findings
            .iter()
            .any(|f| f.message.contains("layout has 2 rooms"))
    );
    // Neither names the other.
    let (mesh, left, right) = two_rooms(None, None);
    let findings = lint(&mesh, &options(), Some(2));
    assert_eq!(
        faces_of(&findings, walkmesh_lint::TRANSITION_MISSING),
        vec![vec![left[0], right[0]], vec![left[1], right[1]]]
    );
    // Room seams are not open seams (rooms are joined by transitions, not vertices).
    assert!(faces_of(&findings, walkmesh_lint::OPEN_SEAM).is_empty());
}

#[test]
fn non_manifold_edge_is_found() {
    let mut mesh = clean_floor();
    let n = mesh.vertices.len() as u32;
    mesh.vertices.push([0.5, -1.0, 0.5]);
    // A third walkable face on the floor edge 0-1, which face 0 already uses... and a fourth.
    mesh.push_polygon(&[1, 0, n], STONE);
    let m = n + 1;
    mesh.vertices.push([0.5, -1.0, -0.5]);
    mesh.push_polygon(&[0, 1, m], STONE);
    let findings = lint(&mesh, &options(), None);
    assert_eq!(
        faces_of(&findings, walkmesh_lint::NON_MANIFOLD),
        vec![vec![0, 96, 97]]
    );
}

#[test]
fn narrow_passage_is_found_and_a_corridor_is_not() {
    let strip = |width: f32| {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [3.0, 0.0, 0.0],
                [3.0, width, 0.0],
                [0.0, width, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], STONE);
        mesh.push_polygon(&[0, 2, 3], STONE);
        mesh
    };
    let findings = lint(&strip(0.3), &options(), None);
    assert_eq!(
        faces_of(&findings, walkmesh_lint::NARROW_PASSAGE),
        vec![vec![0, 1]]
    );
    assert!(
        findings[0].message.contains("0.30 wide"),
        "{}",
        findings[0].message
    );
    assert_eq!(findings[0].at.unwrap(), [1.5, 0.15, 0.0]);
    assert!(lint(&strip(1.0), &options(), None).is_empty());
    // Turned off with a zero character width.
    let off = LintOptions {
        character_width: 0.0,
        ..options()
    };
    assert!(lint(&strip(0.3), &off, None).is_empty());
}

#[test]
fn walkable_area_of_nothing_walkable_is_plus_zero() {
    let mesh = walkmesh_core::NavMesh::default();
    assert_eq!(
        format!("{:.3}", walkmesh_lint::walkable_area(&mesh)),
        "0.000"
    );
}
