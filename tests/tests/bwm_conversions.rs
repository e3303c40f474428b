#![cfg(all(feature = "obj", feature = "bwm"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! OBJ ↔ KotOR BWM through the command line: fixtures become valid area walkmeshes, WOK → OBJ →
//! WOK keeps geometry, materials, transitions and hooks, `--kind` picks PWK/DWK, and a
//! 1,000,000-face OBJ converts. Every .wok written is also left with a JSON sidecar in
//! `$WALKMESH_PEER_DIR/bwm/` for the Python peers (`.ci/peers/bwm.sh`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Input, ReadOptions, Severity};
use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-bwm-conv-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn peer_dir() -> PathBuf {
    let dir = match std::env::var_os("WALKMESH_PEER_DIR") {
        Some(dir) => PathBuf::from(dir).join("bwm"),
        None => std::env::temp_dir().join("walkmesh-peer-bwm"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn dump(bytes: &[u8]) -> DumpNode {
    let registry = walkmesh_formats::default_registry();
    let bwm = registry.by_id("bwm").unwrap();
    bwm.dumper()
        .unwrap()
        .dump(Input { bytes, path: None }, &ReadOptions::default())
        .unwrap()
}

fn child<'a>(node: &'a DumpNode, name: &str) -> &'a DumpNode {
    node.children
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn value(node: &DumpNode) -> Value {
    match node.value.as_ref() {
        Some(DumpValue::Int(v)) => json!(v),
        Some(DumpValue::UInt(v)) => json!(v),
        Some(DumpValue::Float(v)) => json!(*v as f32),
        Some(DumpValue::Ints(v)) => json!(v),
        Some(DumpValue::Floats(v)) => json!(v),
        Some(DumpValue::Text(v)) => json!(v),
        None => {
            let fields: Vec<Value> = node.children.iter().map(value).collect();
            match node.name.split('[').next() {
                // [min, max, face, unknown, plane, first, second] like the crate's sidecars.
                Some("aabb") | Some("edges") => Value::Array(fields),
                _ => Value::Null,
            }
        }
    }
}

/// The sidecar the peer check reads, built from what our dumper reports.
fn write_peer(name: &str, bytes: &[u8]) {
    let root = dump(bytes);
    let header = child(&root, "header");
    let h = |n: &str| value(child(header, n));
    let tables = [
        "vertices",
        "faces",
        "materials",
        "normals",
        "distances",
        "aabb",
        "adjacency",
        "edges",
        "perimeters",
    ];
    let mut counts = serde_json::Map::new();
    let mut rows = serde_json::Map::new();
    for table in tables {
        let group = child(&root, table);
        counts.insert(table.into(), json!(group.children.len()));
        let entries: Vec<Value> = group
            .children
            .iter()
            .enumerate()
            .map(|(i, entry)| json!([i, value(entry)]))
            .collect();
        rows.insert(table.into(), Value::Array(entries));
    }
    let sidecar = json!({
        "type": h("type"),
        "position": h("position"),
        "relative_use": [h("relative_use1"), h("relative_use2")],
        "absolute_use": [h("absolute_use1"), h("absolute_use2")],
        "counts": counts,
        "tables": rows,
    });
    let dir = peer_dir();
    std::fs::write(dir.join(name), bytes).unwrap();
    std::fs::write(dir.join(format!("{name}.json")), sidecar.to_string()).unwrap();
}

fn table(root: &DumpNode, name: &str) -> Vec<Value> {
    child(root, name).children.iter().map(value).collect()
}

fn corners(root: &DumpNode, face: usize) -> Vec<Value> {
    let vertices = table(root, "vertices");
    let faces = table(root, "faces");
    faces[face]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| vertices[v.as_u64().unwrap() as usize].clone())
        .collect()
}

/// Sorted (corner positions, material) of every face.
fn faces_by_position(root: &DumpNode) -> Vec<String> {
    let materials = table(root, "materials");
    let mut faces: Vec<String> = (0..materials.len())
        .map(|f| format!("{:?} {}", corners(root, f), materials[f]))
        .collect();
    faces.sort();
    faces
}

/// Sorted (start, end, transition) of every edge with a transition.
fn transitions_by_position(root: &DumpNode) -> Vec<String> {
    let mut found: Vec<String> = table(root, "edges")
        .iter()
        .filter(|e| e[1] != json!(-1))
        .map(|e| {
            let index = e[0].as_u64().unwrap() as usize;
            let c = corners(root, index / 3);
            format!("{} {} {}", c[index % 3], c[(index % 3 + 1) % 3], e[1])
        })
        .collect();
    found.sort();
    found
}

fn bwm_findings(path: &Path) -> Vec<walkmesh_core::Diagnostic> {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    registry
        .by_id("bwm")
        .unwrap()
        .validator()
        .unwrap()
        .validate(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
        )
        .unwrap()
}

fn words(bytes: &[u8], at: usize, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| u32::from_le_bytes(bytes[at + 4 * i..at + 4 * i + 4].try_into().unwrap()))
        .collect()
}

#[test]
fn obj_fixtures_become_valid_area_walkmeshes() {
    let dir = temp_dir("fixtures");
    let mut converted = 0;
    for entry in std::fs::read_dir(fixtures_dir().join("obj")).unwrap() {
        let input = entry.unwrap().path();
        if input.extension().and_then(|e| e.to_str()) != Some("obj") {
            continue;
        }
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        let output = dir.join(format!("{stem}.wok"));
        let run = walkmesh([
            "convert".into(),
            input.clone().into_os_string(),
            output.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{stem}: {}", run.stderr);
        let bytes = std::fs::read(&output).unwrap();
        assert_eq!(&bytes[..8], b"BWM V1.0");
        assert_eq!(words(&bytes, 8, 1), [1], "{stem}: area type");
        let findings = bwm_findings(&output);
        let errors: Vec<_> = findings
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{stem}: {errors:#?}");
        // The whole `validate` (bwm rules + core's mesh checks): no errors; the fixture made
        // to be non-manifold carries that as a warning.
        let run = walkmesh([
            "validate".into(),
            "--json".into(),
            output.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{stem}: {}{}", run.stdout, run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        let warned = report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "mesh.non_manifold_edge");
        assert_eq!(warned, stem == "non_manifold", "{stem}: {report}");
        write_peer(&format!("obj_{stem}.wok"), &bytes);
        converted += 1;
    }
    assert!(converted >= 6, "{converted} fixtures");
    // Material names map to KotOR codes: flat_floor is all Stone (4).
    let bytes = std::fs::read(dir.join("flat_floor.wok")).unwrap();
    let faces = words(&bytes, 0x50, 1)[0] as usize;
    let materials = words(&bytes, 0x58, 1)[0] as usize;
    assert!(words(&bytes, materials, faces).iter().all(|&m| m == 4));
    assert_eq!(
        words(&bytes, 0x70, 1),
        [faces as u32],
        "every face walkable"
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn wok_to_obj_to_wok_keeps_geometry_materials_transitions_and_hooks() {
    let corpora = required_corpora();
    let dir = temp_dir("roundtrip");
    for rel in [
        "k1cp/tslpatchdata/m12aa_01f.wok",
        "pykotor-tests/zio006j.wok",
        "k1cp/tslpatchdata/plc_fccage2.pwk",
    ] {
        let original = corpora.join("kotor").join(rel);
        let name = original.file_name().unwrap().to_string_lossy().into_owned();
        let obj = dir.join(format!("{name}.obj"));
        let back = dir.join(&name);
        let run = walkmesh([
            "convert".into(),
            original.clone().into_os_string(),
            obj.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{rel}: {}", run.stderr);
        let run = walkmesh([
            "convert".into(),
            obj.into_os_string(),
            back.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{rel}: {}", run.stderr);
        let a = dump(&std::fs::read(&original).unwrap());
        let b = dump(&std::fs::read(&back).unwrap());
        // The OBJ writer groups faces by material, so face and vertex order may change: compare
        // faces as (corner positions, material) and transitions as (edge end positions,
        // transition), order-independently.
        assert_eq!(
            faces_by_position(&a),
            faces_by_position(&b),
            "{rel}: faces and materials"
        );
        assert_eq!(
            transitions_by_position(&a),
            transitions_by_position(&b),
            "{rel}: transitions"
        );
        assert_eq!(
            child(&a, "perimeters").children.len(),
            child(&b, "perimeters").children.len(),
            "{rel}: loops"
        );
        for field in [
            "type",
            "position",
            "relative_use1",
            "relative_use2",
            "absolute_use1",
            "absolute_use2",
        ] {
            assert_eq!(
                value(child(child(&a, "header"), field)),
                value(child(child(&b, "header"), field)),
                "{rel}: {field}"
            );
        }
        assert!(
            bwm_findings(&back)
                .iter()
                .all(|d| d.severity != Severity::Error),
            "{rel}"
        );
        write_peer(&format!("roundtrip_{name}"), &std::fs::read(&back).unwrap());
    }
}

#[test]
fn kind_option_and_extension_choose_pwk_and_dwk() {
    let input = fixtures_dir().join("obj").join("flat_floor.obj");
    let dir = temp_dir("kinds");
    for (out, kind, expected) in [
        ("a.pwk", None, 0u32),
        ("b.dwk", None, 0),
        ("c.wok", Some("door"), 0),
        ("d.wok", Some("placeable"), 0),
        ("e.wok", None, 1),
    ] {
        let output = dir.join(out);
        let mut args: Vec<std::ffi::OsString> = vec![
            "convert".into(),
            input.clone().into_os_string(),
            output.clone().into_os_string(),
        ];
        if let Some(kind) = kind {
            args.push("--kind".into());
            args.push(kind.into());
        }
        let run = walkmesh(args);
        assert_eq!(run.code, 0, "{out}: {}", run.stderr);
        let bytes = std::fs::read(&output).unwrap();
        assert_eq!(words(&bytes, 8, 1), [expected], "{out}");
        if expected == 0 {
            // No AABB, adjacency, edges or perimeters: counts and offsets 0.
            assert_eq!(words(&bytes, 0x64, 9), [0; 9], "{out}");
        }
        assert!(bwm_findings(&output).is_empty(), "{out}");
    }
}

/// 1,000,000 triangles as OBJ → WOK through the command line: validates clean. The peer
/// check reads it with bioware-kaitai-formats (sampled sidecar written by the crate's own test
/// would be too large to dump here, so only counts and a few entries are described).
#[test]
fn million_face_obj_converts_to_a_valid_wok() {
    use std::fmt::Write as _;
    let dir = temp_dir("million");
    let (columns, rows) = (500u32, 1000u32);
    let mut obj = String::with_capacity(40 << 20);
    obj.push_str("# 500 x 1000 quads as 1,000,000 triangles, Z-up\n");
    for y in 0..=rows {
        for x in 0..=columns {
            let _ = writeln!(obj, "v {x} {y} {}", ((x * 7 + y * 3) % 5) as f32 * 0.01);
        }
    }
    let stride = columns + 1;
    for y in 0..rows {
        obj.push_str(if y % 10 == 9 {
            "usemtl NonWalk\n"
        } else {
            "usemtl Stone\n"
        });
        for x in 0..columns {
            let a = y * stride + x + 1;
            let _ = writeln!(obj, "f {a} {} {}", a + 1, a + stride + 1);
            let _ = writeln!(obj, "f {a} {} {}", a + stride + 1, a + stride);
        }
    }
    let input = dir.join("million.obj");
    std::fs::write(&input, obj).unwrap();
    let output = dir.join("million.wok");
    let start = std::time::Instant::now();
    let run = walkmesh([
        "convert".into(),
        input.clone().into_os_string(),
        output.clone().into_os_string(),
        "--up".into(),
        "z".into(),
    ]);
    let elapsed = start.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    eprintln!("OBJ → WOK, 1,000,000 faces: {elapsed:?}");
    let bytes = std::fs::read(&output).unwrap();
    assert_eq!(words(&bytes, 0x50, 1), [1_000_000]);
    assert_eq!(words(&bytes, 0x64, 1), [1_999_999]);
    assert_eq!(words(&bytes, 0x70, 1), [900_000]);
    let findings = bwm_findings(&output);
    assert!(findings.is_empty(), "{findings:#?}");
    if std::env::var_os("WALKMESH_PEER_DIR").is_some() {
        std::fs::copy(&output, peer_dir().join("obj_million.wok")).unwrap();
        // A sampled sidecar: counts, header and the first entries of each table.
        let root = dump(&bytes[..]);
        let header = child(&root, "header");
        let h = |n: &str| value(child(header, n));
        let mut counts = serde_json::Map::new();
        let mut rows = serde_json::Map::new();
        for table in [
            "vertices",
            "faces",
            "materials",
            "normals",
            "distances",
            "aabb",
            "adjacency",
            "edges",
            "perimeters",
        ] {
            let group = child(&root, table);
            counts.insert(table.into(), json!(group.children.len()));
            let entries: Vec<Value> = group
                .children
                .iter()
                .enumerate()
                .step_by(997)
                .map(|(i, e)| json!([i, value(e)]))
                .collect();
            rows.insert(table.into(), Value::Array(entries));
        }
        let sidecar = json!({"type": h("type"), "position": h("position"),
            "relative_use": [h("relative_use1"), h("relative_use2")],
            "absolute_use": [h("absolute_use1"), h("absolute_use2")], "counts": counts, "tables": rows});
        std::fs::write(peer_dir().join("obj_million.wok.json"), sidecar.to_string()).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
