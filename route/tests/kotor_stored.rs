//! KotOR's engine route follows the room file's own adjacency table (issue #26: "walkable
//! faces joined by the file's adjacency"), also where the table disagrees with the shared
//! vertices; the surface method follows the geometry.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use walkmesh_bwm::layout::{RawBwm, Table};
use walkmesh_bwm::{read_bwm, write_bwm};
use walkmesh_core::format::{Input, ReadOptions, WriteOptions};
use walkmesh_core::{Diagnostics, MeshKind, NavMesh};
use walkmesh_route::fixtures::open_floor;
use walkmesh_route::query::{Engine, Method, route};

/// A 3 x 1 floor written as an area WOK: six triangles, faces 2k and 2k+1 on cell k.
fn wok() -> Vec<u8> {
    let mut floor = open_floor(3, 1);
    floor.kind = MeshKind::Area;
    let mut diag = Diagnostics::new();
    write_bwm(&floor, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main
}

fn read(bytes: &[u8]) -> NavMesh {
    let mut diag = Diagnostics::new();
    let input = Input { bytes, path: None };
    read_bwm(input, &ReadOptions::default(), &mut diag).unwrap()
}

/// The file with every adjacency entry linking cell 0 and cell 1 set to −1 (no link): a
/// stale table cutting a floor whose vertices still join.
fn with_cut_table(bytes: &[u8]) -> Vec<u8> {
    let raw = RawBwm::parse(bytes).unwrap();
    let span = raw.span(Table::Adjacency);
    let mut cut = bytes.to_vec();
    let mut cut_entries = 0;
    for face in 0..span.count {
        for (edge, value) in raw.adjacency(face).into_iter().enumerate() {
            let across = usize::try_from(value).map(|v| v / 3).ok();
            let cells = (face / 2, across.map(|f| f / 2));
            if matches!(cells, (0, Some(1)) | (1, Some(0))) {
                let at = span.entry(Table::Adjacency, face) + 4 * edge;
                cut[at..at + 4].copy_from_slice(&(-1i32).to_le_bytes());
                cut_entries += 1;
            }
        }
    }
    // One shared edge between the two cells, stored from both sides.
    assert_eq!(cut_entries, 2);
    cut
}

const FROM: [f64; 3] = [0.25, 0.5, 0.0];
const TO: [f64; 3] = [2.75, 0.5, 0.0];

#[test]
fn the_engine_route_follows_the_stored_table_and_says_when_it_is_stale() {
    let intact = read(&wok());
    let answer = route(&intact, Engine::Kotor, FROM, TO, Some(Method::Engine)).unwrap();
    assert!(answer.reachable);
    assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
    // A straight line along the floor: 2.5 long.
    assert!((answer.length.unwrap() - 2.5).abs() < 1e-9);

    let stale = read(&with_cut_table(&wok()));
    let engine = route(&stale, Engine::Kotor, FROM, TO, Some(Method::Engine)).unwrap();
    assert!(!engine.reachable, "the table cuts cell 0 from cell 1");
    assert!(
        engine
            .warnings
            .iter()
            .any(|w| w.contains("adjacency table and its shared vertices disagree on 2")),
        "{:?}",
        engine.warnings
    );
    let surface = route(&stale, Engine::Kotor, FROM, TO, Some(Method::Surface)).unwrap();
    assert!(surface.reachable, "the geometry still joins the cells");
}

#[test]
fn a_mesh_changed_since_reading_is_joined_by_its_vertices() {
    // Once edited, the file's table no longer describes the mesh: shared vertices decide.
    let mut stale = read(&with_cut_table(&wok()));
    stale.vertices[0][2] = 0.001;
    let answer = route(&stale, Engine::Kotor, FROM, TO, Some(Method::Engine)).unwrap();
    assert!(answer.reachable);
    assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
}
