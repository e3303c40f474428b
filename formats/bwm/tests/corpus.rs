//! Real-corpus conformance: preserve round trip, rebuild against the stored tables, validator.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;

use std::path::{Path, PathBuf};

use walkmesh_bwm::layout::{RawBwm, Table};
use walkmesh_bwm::{BwmFormat, read_bwm, rebuild_tables, validate_bwm, write_bwm};
use walkmesh_core::{Diagnostics, Input, ReadOptions, Severity, WriteOptions};

fn kotor_dir() -> PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join("kotor")
}

/// (path, family) from STATS.csv.
fn corpus() -> Vec<(PathBuf, String)> {
    let dir = kotor_dir();
    let stats = std::fs::read_to_string(dir.join("STATS.csv")).unwrap();
    let files: Vec<(PathBuf, String)> = stats
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let file = fields.next().unwrap();
            let family = fields.next().unwrap();
            (dir.join(file), family.to_string())
        })
        .collect();
    files
}

const GENUINE: [&str; 3] = ["bioware-original", "k1cp-modder", "kit-reexport"];

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_file_round_trips_byte_identically() {
    let files = corpus();
    assert_eq!(files.len(), 105);
    let (mut identical, mut rebuilt) = (0, 0);
    for (path, _) in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut diag = Diagnostics::new();
        let mesh = read_bwm(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let options = WriteOptions {
            file_name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            ..WriteOptions::default()
        };
        // As the command line does: prepare for the writer's requirements, then write.
        let requirements = walkmesh_bwm::REQUIREMENTS;
        let prepared = walkmesh_core::passes::prepare(&mesh, &requirements, &mut diag);
        assert!(
            matches!(prepared, std::borrow::Cow::Borrowed(_)),
            "{}",
            path.display()
        );
        let mut write_diag = Diagnostics::new();
        let out = write_bwm(&prepared, &options, &mut write_diag).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        if STORED_TABLES_INVALID.contains(&name.as_ref()) {
            // Copying these would write a file our validator rejects: their tables are
            // recomputed, with a warning, and the result validates.
            assert!(out.main != bytes, "{} copied", path.display());
            assert!(
                write_diag
                    .items
                    .iter()
                    .any(|d| d.code == "bwm.stored_tables_rebuilt"),
                "{}",
                path.display()
            );
            let errors: Vec<_> = validate_bwm(
                Input {
                    bytes: &out.main,
                    path: None,
                },
                &ReadOptions::default(),
            )
            .unwrap()
            .into_iter()
            .filter(|d| d.severity == walkmesh_core::Severity::Error)
            .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            rebuilt += 1;
            continue;
        }
        assert!(out.main == bytes, "{} not byte-identical", path.display());
        assert!(write_diag.items.is_empty(), "{}", path.display());
        identical += 1;
    }
    eprintln!(
        "{identical}/{} byte-identical, {rebuilt} with invalid stored tables recomputed",
        files.len()
    );
    assert_eq!(identical, 102);
    assert_eq!(rebuilt, STORED_TABLES_INVALID.len());
}

/// Third-party files whose stored tables our validator rejects (see `cases.rs`): a PyKotor
/// writer's (no perimeters, one-sided adjacency, inverted AABB boxes) and Kotor.NET's
/// synthetic file (walkable block contradicting its header).
const STORED_TABLES_INVALID: [&str; 3] = ["out.wok", "floor_plain.wok", "file1.bwm"];

/// Rebuild of every genuine area file: everything but the AABB tree (and the normals of the
/// kit files, which their exporter computed differently) equals the stored tables; the new
/// tree passes the validator.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn rebuild_reproduces_the_stored_tables_of_every_genuine_area_file() {
    let files = corpus();
    let mut checked = 0;
    let mut by_family = std::collections::BTreeMap::<String, usize>::new();
    for (path, family) in &files {
        if !GENUINE.contains(&family.as_str()) || path.extension().unwrap() != "wok" {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let raw = RawBwm::parse(&bytes).unwrap();
        let mut diag = Diagnostics::new();
        let mesh = common::read_ok(&bytes, Some(path), &mut diag);
        let options = WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        };
        let tables = rebuild_tables(&mesh, mesh.kind, &options, &mut diag).unwrap();
        let name = path.display();
        assert_eq!(tables.walkmesh_type, 1, "{name}");
        assert_eq!(tables.position, raw.header.position, "{name}");
        assert_eq!(tables.rel_use, raw.header.rel_use, "{name}");
        assert_eq!(tables.abs_use, raw.header.abs_use, "{name}");
        let vertices: Vec<[f32; 3]> = (0..raw.vertex_count()).map(|i| raw.vertex(i)).collect();
        assert!(
            tables
                .vertices
                .iter()
                .flatten()
                .map(|v| v.to_bits())
                .eq(vertices.iter().flatten().map(|v| v.to_bits())),
            "{name} vertices"
        );
        let faces: Vec<[u32; 3]> = (0..raw.face_count()).map(|i| raw.face(i)).collect();
        assert_eq!(tables.faces, faces, "{name} face order");
        let materials: Vec<u32> = (0..raw.face_count()).map(|i| raw.material(i)).collect();
        assert_eq!(tables.materials, materials, "{name} materials");
        let adjacency: Vec<[i32; 3]> = (0..raw.span(Table::Adjacency).count)
            .map(|i| raw.adjacency(i))
            .collect();
        assert_eq!(tables.adjacency, adjacency, "{name} adjacency");
        let edges: Vec<(u32, i32)> = (0..raw.span(Table::Edges).count)
            .map(|i| raw.edge(i))
            .collect();
        assert_eq!(tables.edges, edges, "{name} edges");
        let perimeters: Vec<u32> = (0..raw.span(Table::Perimeters).count)
            .map(|i| raw.perimeter(i))
            .collect();
        assert_eq!(tables.perimeters, perimeters, "{name} perimeters");
        assert_eq!(
            tables.aabb.len(),
            raw.span(Table::Aabb).count,
            "{name} aabb count"
        );
        if family == "bioware-original" {
            // BioWare's normals are the exact f32 formula; kit/K1CP exporters differ slightly.
            for i in 0..raw.face_count() {
                let stored = raw.normal(i);
                for k in 0..3 {
                    assert!(
                        (tables.normals[i][k] - stored[k]).abs() < 1e-6,
                        "{name} normal {i}"
                    );
                }
            }
        }
        // The rebuilt file validates clean (errors and warnings).
        let out = walkmesh_bwm::serialize(&tables).unwrap();
        let findings = validate_bwm(
            Input {
                bytes: &out,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(findings.is_empty(), "{name}: {findings:#?}");
        // The writer lays the tables straight into the file (no `Tables`); the bytes are
        // the ones `serialize` makes of `rebuild_tables`, as an area and as a placeable.
        let written = write_bwm(&mesh, &options, &mut Diagnostics::new()).unwrap();
        assert!(
            written.main == out,
            "{name}: direct writer differs from serialize"
        );
        let placeable = WriteOptions {
            kind: Some(walkmesh_core::MeshKind::Placeable),
            ..options.clone()
        };
        let tables = rebuild_tables(
            &mesh,
            walkmesh_core::MeshKind::Placeable,
            &placeable,
            &mut diag,
        )
        .unwrap();
        let written = write_bwm(&mesh, &placeable, &mut Diagnostics::new()).unwrap();
        assert!(
            written.main == walkmesh_bwm::serialize(&tables).unwrap(),
            "{name}: direct placeable writer differs from serialize"
        );
        checked += 1;
        *by_family.entry(family.clone()).or_default() += 1;
    }
    eprintln!("rebuild conformance: {checked} files {by_family:?}");
    assert_eq!(checked, 101);
}

/// Every genuine file validates without errors as stored.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn genuine_files_validate_without_errors() {
    let files = corpus();
    for (path, family) in &files {
        if !GENUINE.contains(&family.as_str()) {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let findings = validate_bwm(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
        )
        .unwrap();
        let errors: Vec<_> = findings
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    }
}

#[test]
fn format_registers_every_role() {
    use walkmesh_core::Format;
    let format = BwmFormat;
    assert!(format.reader().is_some() && format.writer().is_some());
    assert!(format.validator().is_some() && format.dumper().is_some());
}

/// Writes every corpus file rebuilt (and the hand-made square) with JSON sidecars for the
/// peer check `.ci/peers/bwm.sh` (PyKotor and bioware-kaitai-formats read them).
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn peer_files_are_written_with_sidecars() {
    let files = corpus();
    let dir = kotor_dir();
    let mut written = 0;
    for (path, _) in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut diag = Diagnostics::new();
        let mesh = common::read_ok(&bytes, Some(path), &mut diag);
        let options = WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        };
        let out = write_bwm(&mesh, &options, &mut diag).unwrap().main;
        let name = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace(['/', '\\'], "__");
        let name = name.replace(".bwm", ".wok");
        let peer = common::write_peer_file(&name, &out, 1_000_000);
        assert!(common::sidecar_is_json(&peer));
        written += 1;
    }
    eprintln!("{written} peer files in {}", common::peer_dir().display());
    assert_eq!(written, 105);
}
