//! A generated 1,000,000-face mesh: rebuild + write + validate + read back.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;

use std::time::Instant;

use walkmesh_bwm::layout::{RawBwm, Table};
use walkmesh_bwm::{synthetic, validate_bwm, write_bwm};
use walkmesh_core::{Diagnostics, Input, ReadOptions, Severity, WriteOptions};

#[test]
fn million_face_mesh_is_written_and_validates_clean() {
    let start = Instant::now();
    let mesh = synthetic::grid(500, 1000);
    assert_eq!(mesh.polygons.len(), 1_000_000);
    let walkable = mesh.walkable_count();
    let generated = start.elapsed();

    let start = Instant::now();
    let mut diag = Diagnostics::new();
    let out = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    let written = start.elapsed();
    assert!(diag.items.is_empty(), "{:#?}", diag.items);

    let start = Instant::now();
    let findings = validate_bwm(
        Input {
            bytes: &out,
            path: None,
        },
        &ReadOptions::default(),
    )
    .unwrap();
    let validated = start.elapsed();
    let errors: Vec<_> = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(findings.is_empty(), "{errors:#?} {findings:#?}");

    let raw = RawBwm::parse(&out).unwrap();
    assert_eq!(raw.face_count(), 1_000_000);
    assert_eq!(raw.span(Table::Aabb).count, 1_999_999);
    assert_eq!(raw.span(Table::Adjacency).count, walkable);
    // 72 non-walkable strips (x % 7 == 3 for x < 500) cut the walkable grid into 72 strips
    // plus the left one: one outer loop each.
    assert_eq!(raw.span(Table::Perimeters).count, 72);
    // Walkable faces first, in their original relative order: the first two are quad (0,0).
    assert_eq!(raw.face(0), [0, 1, 502]);
    assert_eq!(raw.face(1), [0, 502, 501]);

    let start = Instant::now();
    let back = common::read_ok(&out, None, &mut diag);
    let read = start.elapsed();
    assert_eq!(back.polygons.len(), 1_000_000);
    assert_eq!(back.walkable_count(), walkable);
    assert_eq!(back.edge_tags.len(), mesh.edge_tags.len());
    eprintln!(
        "1M faces: generate {generated:?}, rebuild+write {written:?} ({} bytes), validate {validated:?}, read {read:?}",
        out.len()
    );
    if std::env::var_os("WALKMESH_PEER_DIR").is_some() {
        let path = common::write_peer_file("generated_1m.wok", &out, 2000);
        assert!(common::sidecar_is_json(&path));
    }
}
