#![cfg(feature = "obj")]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The project's fixtures show the hand-computed facts of `corpora/manifest.ron`, through the
//! library and through `walkmesh info --json`; OBJ → OBJ keeps every coordinate bit-exact;
//! random mutations never panic and always give a mesh or an error naming a line.

use walkmesh_core::{Diagnostics, Input, NavMesh, Position, ReadOptions, summary};
use walkmesh_tests::{Rng, fixtures_dir, manifest, walkmesh};

fn read_fixture(path: &std::path::Path) -> NavMesh {
    let bytes = std::fs::read(path).unwrap();
    let registry = walkmesh_formats::default_registry();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    assert_eq!(format.descriptor().id, "obj", "{}", path.display());
    let mut diag = Diagnostics::new();
    let mesh = format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap();
    assert!(
        diag.items.is_empty(),
        "{}: {:?}",
        path.display(),
        diag.items
    );
    mesh
}

#[test]
fn manifest_lists_all_six_fixtures() {
    let entries = manifest();
    assert_eq!(entries.len(), 6);
    for entry in &entries {
        assert!(fixtures_dir().join(&entry.file).is_file(), "{}", entry.file);
    }
}

#[test]
fn library_summary_matches_the_manifest() {
    for facts in manifest() {
        let mesh = read_fixture(&fixtures_dir().join(&facts.file));
        let s = summary::summarize(&mesh, "obj");
        let name = &facts.file;
        assert_eq!(s.vertices, facts.vertices, "{name} vertices");
        assert_eq!(s.faces, facts.faces, "{name} faces");
        assert_eq!(s.walkable_faces, facts.walkable_faces, "{name} walkable");
        assert!(
            (s.walkable_area - facts.walkable_area).abs() < 1e-9,
            "{name} area {}",
            s.walkable_area
        );
        assert_eq!(s.components, facts.components, "{name} components");
        assert_eq!(s.boundary_loops, facts.boundary_loops, "{name} loops");
        assert_eq!(s.outer_loops, facts.outer_loops, "{name} outer");
        assert_eq!(s.hole_loops, facts.hole_loops, "{name} holes");
        assert_eq!(
            s.non_manifold_edges, facts.non_manifold_edges,
            "{name} non-manifold"
        );
        let bbox = s.bbox.unwrap();
        let min = [facts.bbox_min.0, facts.bbox_min.1, facts.bbox_min.2];
        let max = [facts.bbox_max.0, facts.bbox_max.1, facts.bbox_max.2];
        assert_eq!(bbox.min, min, "{name} bbox min");
        assert_eq!(bbox.max, max, "{name} bbox max");
        assert_eq!(s.materials, facts.materials, "{name} materials");
    }
}

#[test]
fn info_json_reports_the_manifest_numbers() {
    for facts in manifest() {
        let path = fixtures_dir().join(&facts.file);
        let run = walkmesh([
            "info".into(),
            path.clone().into_os_string(),
            "--json".into(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let count = |key: &str| json[key].as_u64().unwrap() as usize;
        assert_eq!(json["format"], "obj");
        assert_eq!(json["kind"], "area");
        assert_eq!(count("vertices"), facts.vertices);
        assert_eq!(count("faces"), facts.faces);
        assert_eq!(count("walkable_faces"), facts.walkable_faces);
        assert_eq!(count("components"), facts.components);
        assert_eq!(count("boundary_loops"), facts.boundary_loops);
        assert!((json["walkable_area"].as_f64().unwrap() - facts.walkable_area).abs() < 1e-9);
        assert_eq!(
            json["bbox"]["max"][0].as_f64().unwrap() as f32,
            facts.bbox_max.0
        );
        for (name, n) in &facts.materials {
            assert_eq!(
                json["materials"][name].as_u64().unwrap() as usize,
                *n,
                "{name}"
            );
        }
    }
}

#[test]
fn convert_obj_to_obj_keeps_every_coordinate_bit_exact() {
    let dir = tempfile::tempdir().unwrap();
    for facts in manifest() {
        let input = fixtures_dir().join(&facts.file);
        let output = dir.path().join("copy.obj");
        let run = walkmesh(
            [
                input.clone().into_os_string(),
                output.clone().into_os_string(),
            ]
            .into_iter()
            .fold(vec![std::ffi::OsString::from("convert")], |mut v, a| {
                v.push(a);
                v
            }),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(dir.path().join("copy.mtl").is_file());
        let (a, b) = (read_fixture(&input), read_fixture(&output));
        assert_eq!(a.vertices.len(), b.vertices.len());
        for (p, q) in a.vertices.iter().zip(&b.vertices) {
            assert_eq!(p.map(f32::to_bits), q.map(f32::to_bits), "{}", facts.file);
        }
        // Same polygons as sets (the writer groups faces by surface).
        let mut pa: Vec<(Vec<u32>, u16)> = a
            .polygons
            .iter()
            .zip(&a.surfaces)
            .map(|(p, s)| (p.to_vec(), s.material.0))
            .collect();
        let mut pb: Vec<(Vec<u32>, u16)> = b
            .polygons
            .iter()
            .zip(&b.surfaces)
            .map(|(p, s)| (p.to_vec(), s.material.0))
            .collect();
        pa.sort();
        pb.sort();
        assert_eq!(pa, pb, "{}", facts.file);
    }
}

/// One random change to an OBJ file.
fn mutate(original: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = original.to_vec();
    match rng.below(5) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let at = rng.below(bytes.len());
            // Replace with a character that matters to the grammar.
            let grammar = b"-/ 0129e.#\nvf\\+x\x00\xff";
            bytes[at] = grammar[rng.below(grammar.len())];
        }
        2 => bytes.truncate(rng.below(bytes.len())),
        _ => {
            let lines: Vec<&[u8]> = original.split(|&b| b == b'\n').collect();
            let pick = rng.below(lines.len());
            let mut out = Vec::new();
            let duplicate = rng.below(2) == 0;
            for (i, line) in lines.iter().enumerate() {
                if i == pick && !duplicate {
                    continue;
                }
                out.extend_from_slice(line);
                out.push(b'\n');
                if i == pick {
                    out.extend_from_slice(line);
                    out.push(b'\n');
                }
            }
            bytes = out;
        }
    }
    bytes
}

#[test]
fn ten_thousand_mutations_of_each_fixture_never_panic() {
    let registry = walkmesh_formats::default_registry();
    let obj = registry.by_id("obj").unwrap().reader().unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut meshes, mut errors) = (0usize, 0usize);
    for facts in manifest() {
        let original = std::fs::read(fixtures_dir().join(&facts.file)).unwrap();
        for _ in 0..10_000 {
            let bytes = mutate(&original, &mut rng);
            let mut diag = Diagnostics::new();
            match obj.read(
                Input {
                    bytes: &bytes,
                    path: None,
                },
                &ReadOptions::default(),
                &mut diag,
            ) {
                Ok(mesh) => {
                    mesh.check().unwrap();
                    // The derived passes must cope with whatever the reader accepted.
                    let _ = summary::summarize(&mesh, "obj");
                    meshes += 1;
                }
                Err(error) => {
                    assert!(
                        matches!(error.position, Position::Line(n) if n >= 1),
                        "error without a line: {error}"
                    );
                    errors += 1;
                }
            }
        }
    }
    // Both outcomes must occur, or the mutations are not exercising anything.
    assert!(
        meshes > 1000 && errors > 1000,
        "meshes {meshes}, errors {errors}"
    );
}
