#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The field diff pairs records by content: two WOKs of the same mesh whose writer ordered
//! vertices (and faces) differently show as reordered, with no per-record differences, while
//! a real change (one face's material) is still listed; `field_diff` (`--by-index`) keeps
//! the index-by-index comparison.

use std::path::Path;

use walkmesh_core::{Diagnostics, Input, Material, NavMesh, ReadOptions, Surface, WriteOptions};
use walkmesh_research::align::aligned_diff;
use walkmesh_research::diff::{FieldDiff, Side, field_diff};

const STONE: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 4,
};
const GRASS: Surface = Surface {
    material: Material(3),
    walkable: true,
    code: 3,
};

/// A 5 × 4 floor of 1 m squares, two triangles each, with a bump so normals differ.
fn floor() -> NavMesh {
    let mut mesh = NavMesh::default();
    let (cols, rows) = (5u32, 4u32);
    for r in 0..=rows {
        for c in 0..=cols {
            let z = if (c, r) == (2, 2) { 0.3 } else { 0.0 };
            mesh.vertices.push([c as f32, r as f32, z]);
        }
    }
    let at = |c: u32, r: u32| r * (cols + 1) + c;
    for r in 0..rows {
        for c in 0..cols {
            let (a, b, cc, d) = (at(c, r), at(c + 1, r), at(c + 1, r + 1), at(c, r + 1));
            mesh.push_polygon(&[a, b, cc], STONE);
            mesh.push_polygon(&[a, cc, d], STONE);
        }
    }
    mesh
}

/// The mesh with its vertices stored in the order `order` (new index i holds old vertex
/// `order[i]`), faces unchanged.
fn with_vertex_order(mesh: &NavMesh, order: &[u32]) -> NavMesh {
    let new_of_old = inverse(order);
    let mut out = mesh.clone();
    out.vertices = order
        .iter()
        .map(|&old| mesh.vertices[old as usize])
        .collect();
    for index in out.polygons.indices_mut() {
        *index = new_of_old[*index as usize];
    }
    out
}

fn inverse(order: &[u32]) -> Vec<u32> {
    let mut new_of_old = vec![0u32; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of_old[old as usize] = new as u32;
    }
    new_of_old
}

fn word(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// A BWM file with its vertex table stored in the order `order` and the faces' corners
/// renumbered to match, every other byte as it was: what a writer that orders vertices
/// differently stores for the same mesh.
fn bwm_with_vertex_order(bytes: &[u8], order: &[u32]) -> Vec<u8> {
    let (vertices, faces, face_count) = (word(bytes, 0x4C), word(bytes, 0x54), word(bytes, 0x50));
    assert_eq!(word(bytes, 0x48), order.len());
    let mut out = bytes.to_vec();
    for (new, &old) in order.iter().enumerate() {
        let from = vertices + 12 * old as usize;
        out[vertices + 12 * new..vertices + 12 * new + 12].copy_from_slice(&bytes[from..from + 12]);
    }
    let new_of_old = inverse(order);
    for k in 0..face_count * 3 {
        let at = faces + 4 * k;
        let renumbered = new_of_old[word(bytes, at)];
        out[at..at + 4].copy_from_slice(&renumbered.to_le_bytes());
    }
    out
}

/// The mesh with its faces in reverse order, each starting from its second corner.
fn with_faces_reversed_and_rotated(mesh: &NavMesh) -> NavMesh {
    let mut out = NavMesh {
        vertices: mesh.vertices.clone(),
        ..NavMesh::default()
    };
    for face in (0..mesh.polygons.len()).rev() {
        let c = mesh.polygons.get(face);
        out.push_polygon(&[c[1], c[2], c[0]], mesh.surfaces[face]);
    }
    out
}

fn wok(mesh: &NavMesh) -> Vec<u8> {
    let registry = walkmesh_formats::default_registry();
    let options = WriteOptions {
        file_name: Some("room.wok".into()),
        ..WriteOptions::default()
    };
    let format = registry.by_id("bwm").unwrap();
    format
        .writer()
        .unwrap()
        .write(mesh, &options, &mut Diagnostics::new())
        .unwrap()
        .main
}

fn diffs(a: &[u8], b: &[u8]) -> (FieldDiff, FieldDiff) {
    let registry = walkmesh_formats::default_registry();
    let dumper = registry.by_id("bwm").unwrap().dumper().unwrap();
    let side = |bytes, name| Side {
        bytes,
        file: Path::new(name),
        dumper,
    };
    let (sa, sb) = (side(a, "a.wok"), side(b, "b.wok"));
    (
        aligned_diff(sa, sb, 1_000_000).unwrap(),
        field_diff(sa, sb, 1_000_000).unwrap(),
    )
}

/// The same numbers (0.0 and -0.0 alike), for a vector or a scalar.
fn same_numbers(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    let numbers = |v: &serde_json::Value| -> Option<Vec<f64>> {
        match v.as_array() {
            Some(items) => items.iter().map(serde_json::Value::as_f64).collect(),
            None => v.as_f64().map(|x| vec![x]),
        }
    };
    numbers(a).is_some() && numbers(a) == numbers(b)
}

fn table<'d>(diff: &'d FieldDiff, name: &str) -> &'d walkmesh_research::align::Alignment {
    diff.aligned
        .iter()
        .find(|a| a.table == name)
        .unwrap_or_else(|| panic!("no {name} alignment: {diff:?}"))
}

/// A reversed vertex order with the first two swapped (no vertex keeps its index).
fn scrambled(count: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..count as u32).rev().collect();
    order.swap(0, 1);
    order
}

#[test]
fn vertices_in_another_order_are_reported_as_reordered_and_nothing_else() {
    let mesh = floor();
    let order = scrambled(mesh.vertices.len());
    let a = wok(&mesh);
    let b = bwm_with_vertex_order(&a, &order);
    assert_ne!(a, b);
    let (aligned, by_index) = diffs(&a, &b);
    assert!(aligned.differences.is_empty(), "{}", aligned.to_text());
    let vertices = table(&aligned, "vertices");
    assert_eq!(
        (vertices.matched, vertices.count_a, vertices.count_b),
        (30, 30, 30)
    );
    assert!(vertices.reordered());
    // A's vertex i is B's vertex where `order` puts old vertex i.
    for (i, b) in vertices.permutation.iter().enumerate() {
        assert_eq!(order[b.unwrap() as usize], i as u32);
    }
    assert!(!table(&aligned, "faces").reordered());
    assert!(
        aligned
            .to_text()
            .starts_with("vertices: same 30 vertices, reordered"),
        "{}",
        aligned.to_text()
    );
    assert!(!aligned.is_empty());
    // Index by index, nearly every vertex and face row differs.
    let rows = |d: &FieldDiff, table: &str| {
        d.differences
            .iter()
            .filter(|x| x.path.starts_with(&format!("{table}[")))
            .count()
    };
    assert!(rows(&by_index, "vertices") >= 30, "{}", by_index.to_text());
    assert!(rows(&by_index, "faces") >= 40);
    assert!(aligned.aligned.iter().all(|a| a.matched == a.count_a));
}

#[test]
fn faces_in_another_order_keep_their_fields_and_adjacency() {
    let mesh = floor();
    let order = scrambled(mesh.vertices.len());
    let other = with_faces_reversed_and_rotated(&with_vertex_order(&mesh, &order));
    let (a, b) = (wok(&mesh), wok(&other));
    let (aligned, _) = diffs(&a, &b);
    let faces = table(&aligned, "faces");
    assert_eq!((faces.matched, faces.count_a), (40, 40));
    assert!(faces.reordered());
    assert_eq!(faces.permutation[0], Some(39));
    // Per-face fields and adjacency (remapped through the face and corner pairing) and the
    // perimeter edges' transitions agree. What the writer derives from the order may differ:
    // the AABB tree's shape, the perimeter loops' ends, and a normal computed from another
    // first corner (0.0 against -0.0, the same number).
    let per_record: Vec<_> = aligned
        .differences
        .iter()
        .filter(|d| !d.path.starts_with("aabb[") && !d.path.starts_with("perimeters["))
        .filter(|d| !(d.path.starts_with("normals[") && same_numbers(&d.a, &d.b)))
        .collect();
    assert!(per_record.is_empty(), "{}", aligned.to_text());
    assert!(
        aligned
            .differences
            .iter()
            .any(|d| d.path.starts_with("normals[")),
        "the rotated corners were expected to give some -0.0 normals"
    );
}

#[test]
fn a_real_material_change_is_still_reported() {
    let mesh = floor();
    let order = scrambled(mesh.vertices.len());
    let a = wok(&mesh);
    let mut b = bwm_with_vertex_order(&a, &order);
    // Face 7's material, Stone (4) → Grass (3), both walkable.
    let at = word(&b, 0x58) + 4 * 7;
    assert_eq!(word(&b, at), 4);
    b[at..at + 4].copy_from_slice(&GRASS.code.to_le_bytes());
    let (aligned, _) = diffs(&a, &b);
    assert!(table(&aligned, "vertices").reordered());
    let found: Vec<(&str, &serde_json::Value, &serde_json::Value)> = aligned
        .differences
        .iter()
        .map(|d| (d.path.as_str(), &d.a, &d.b))
        .collect();
    assert_eq!(
        found,
        vec![("materials[7]", &serde_json::json!(4), &serde_json::json!(3))],
        "{}",
        aligned.to_text()
    );
}

/// A BioWare WOK with its vertex table stored in another order: reordered, nothing else
/// differs (index by index, every vertex and most face rows do).
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_corpus_room_with_its_vertices_reordered() {
    let root = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let path = root.join("kotor/pykotor-tests/test.wok");
    let bytes = std::fs::read(&path).unwrap();
    let registry = walkmesh_formats::default_registry();
    let mesh = registry
        .by_id("bwm")
        .unwrap()
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(&path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    let order = scrambled(mesh.vertices.len());
    let b = bwm_with_vertex_order(&bytes, &order);
    let (aligned, by_index) = diffs(&bytes, &b);
    assert!(aligned.differences.is_empty(), "{}", aligned.to_text());
    assert!(table(&aligned, "vertices").reordered());
    assert!(by_index.differences.len() > mesh.vertices.len());
}

/// An NWN2 TRX written twice by our writer, the second time from the mesh with its vertices
/// in another order: ASWM vertices, triangles and edges are paired by content.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn an_aswm_written_with_another_vertex_order() {
    let root = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let path = root.join("nwn2/Kaedrin-nwn2cc/abandoned house.trx");
    let bytes = std::fs::read(&path).unwrap();
    let registry = walkmesh_formats::default_registry();
    let format = registry.detect(&path, &bytes, bytes.len() as u64).unwrap();
    let mesh = format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(&path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    let write = |mesh: &NavMesh| {
        let options = WriteOptions {
            file_name: Some("area.trx".into()),
            ..WriteOptions::default()
        };
        format
            .writer()
            .unwrap()
            .write(mesh, &options, &mut Diagnostics::new())
            .unwrap()
            .main
    };
    let order = scrambled(mesh.vertices.len());
    let (a, b) = (write(&mesh), write(&with_vertex_order(&mesh, &order)));
    let dumper = format.dumper().unwrap();
    let side = |bytes, name| Side {
        bytes,
        file: Path::new(name),
        dumper,
    };
    let aligned = aligned_diff(side(&a, "a.trx"), side(&b, "b.trx"), 10_000_000).unwrap();
    let by_index = field_diff(side(&a, "a.trx"), side(&b, "b.trx"), 10_000_000).unwrap();
    let vertices = table(&aligned, "aswm.vertices");
    assert!(vertices.reordered());
    assert_eq!(vertices.matched, mesh.vertices.len());
    for name in ["aswm.triangles", "aswm.edges"] {
        let t = table(&aligned, name);
        assert_eq!((t.matched, t.by_index), (t.count_a, 0), "{name}");
    }
    // Nothing of the paired tables differs (edges' triangles and the triangles' linked
    // edges and triangles compared as remapped) but normals and plane distances, which our
    // writer computes from the other numbering: -0.0 for 0.0, and for the needle triangle 195
    // (lint's degenerate face) another direction altogether. Index by index, thousands differ.
    let in_tables = |d: &FieldDiff| {
        d.differences
            .iter()
            .filter(|x| {
                ["aswm.vertices[", "aswm.triangles[", "aswm.edges["]
                    .iter()
                    .any(|t| x.path.starts_with(t))
            })
            .filter(|x| {
                let derived = x.path.ends_with(".normal") || x.path.ends_with(".d");
                !derived || !(same_numbers(&x.a, &x.b) || x.path.starts_with("aswm.triangles[195]"))
            })
            .count()
    };
    assert_eq!(in_tables(&aligned), 0);
    assert!(in_tables(&by_index) > mesh.vertices.len());
}
