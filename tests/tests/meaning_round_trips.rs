#![cfg(all(feature = "bwm", feature = "nwn2", feature = "obj", feature = "gltf"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Round trips that must keep what a mesh means: every KotOR material through glTF (kept
//! exactly) and through NWN2 (walkability kept, every merged material counted), NWN2
//! unwalkable triangles with a footstep sound into KotOR, and placement (float noise
//! snapped, whole-tile shifts reported and undone with `--translate`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkmesh_core::passes;
use walkmesh_core::{
    Diagnostics, Input, Material, MaterialProfile, NavMesh, ReadOptions, Surface, WriteOptions,
};
use walkmesh_tests::{shared_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-meaning-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(mesh: &NavMesh, target: &str, file_name: &str) -> (Vec<u8>, Diagnostics) {
    let registry = walkmesh_formats::default_registry();
    let writer = registry.by_id(target).unwrap().writer().unwrap();
    let options = WriteOptions {
        file_name: Some(file_name.to_string()),
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let prepared = passes::prepare(mesh, &writer.requirements(&options), &mut diag);
    let out = writer.write(&prepared, &options, &mut diag).unwrap();
    (out.main, diag)
}

fn read(bytes: &[u8], file_name: &str) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let path = Path::new(file_name);
    let format = registry.detect(path, bytes, bytes.len() as u64).unwrap();
    let mut diag = Diagnostics::new();
    format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap()
}

/// Two triangles per KotOR material (ids 0-30), apart from each other, read from a `.wok`.
fn every_material() -> NavMesh {
    let profile = MaterialProfile::neutral();
    let mut mesh = NavMesh::default();
    for id in 0..31u16 {
        let x = f32::from(id) * 3.0 + 1.0;
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x, 1.0, 0.0],
            [x + 2.0, 1.0, 0.0],
            [x + 2.0, 3.0, 0.0],
            [x, 3.0, 0.0],
        ]);
        let surface = profile.surface_for_material(Material(id)).unwrap();
        mesh.push_polygon(&[base, base + 1, base + 2], surface);
        mesh.push_polygon(&[base, base + 2, base + 3], surface);
    }
    let (bytes, _) = write(&mesh, "bwm", "every.wok");
    read(&bytes, "every.wok")
}

/// (material, walkable) → faces.
fn histogram(mesh: &NavMesh) -> BTreeMap<(String, bool), usize> {
    let mut counts = BTreeMap::new();
    for s in &mesh.surfaces {
        *counts
            .entry((s.material.name().into_owned(), s.walkable))
            .or_insert(0) += 1;
    }
    counts
}

fn message<'a>(diag: &'a Diagnostics, code: &str) -> Option<&'a str> {
    diag.items
        .iter()
        .find(|d| d.code == code)
        .map(|d| d.message.as_str())
}

#[test]
fn every_kotor_material_survives_gltf_exactly() {
    let source = every_material();
    let (glb, diag) = write(&source, "gltf", "every.glb");
    assert!(message(&diag, "gltf.materials_merged").is_none());
    let through = read(&glb, "every.glb");
    let (wok, diag) = write(&through, "bwm", "back.wok");
    assert!(message(&diag, "bwm.materials_merged").is_none(), "{diag:?}");
    assert!(message(&diag, "bwm.walkability_changed").is_none());
    let back = read(&wok, "back.wok");
    assert_eq!(histogram(&back), histogram(&source));
    assert_eq!(histogram(&source).len(), 31);
}

#[test]
fn kotor_to_nwn2_and_back_keeps_walkability_and_counts_every_merge() {
    let source = every_material();
    let (trx, diag) = write(&source, "trx", "every.trx");
    let merged = message(&diag, "trx.materials_merged").expect("merges are reported");
    // 19 of the 31 KotOR materials have no footstep of their own: 2 faces each, 4 m² each.
    assert!(merged.starts_with("38 face(s)"), "{merged}");
    for line in [
        "Door (walkable) -> Stone (walkable): 2 face(s), 4.000 m²",
        "Sand (walkable) -> Dirt (walkable): 2 face(s), 4.000 m²",
        "Lava (not walkable) -> NonWalk (not walkable): 2 face(s), 4.000 m²",
        "Surface29 (not walkable) -> NonWalk (not walkable): 2 face(s), 4.000 m²",
        "Undefined (not walkable) -> NonWalk (not walkable): 2 face(s), 4.000 m²",
    ] {
        assert!(merged.contains(line), "{line} missing from: {merged}");
    }
    assert!(message(&diag, "trx.walkability_changed").is_none());
    let through = read(&trx, "every.trx");
    assert_eq!(through.walkable_count(), source.walkable_count());
    let (wok, diag) = write(&through, "bwm", "back.wok");
    assert!(message(&diag, "bwm.walkability_changed").is_none());
    let back = read(&wok, "back.wok");
    // Walkability per original pair is kept exactly; materials are the NWN2 ones.
    let walkable = |mesh: &NavMesh| {
        let mut by_x: Vec<(u32, bool)> = mesh
            .polygons
            .iter()
            .zip(&mesh.surfaces)
            .map(|(p, s)| (mesh.vertex(p[0])[0].to_bits(), s.walkable))
            .collect();
        by_x.sort_unstable();
        by_x
    };
    assert_eq!(walkable(&back), walkable(&source));
    let materials: Vec<String> = histogram(&back).keys().map(|k| k.0.clone()).collect();
    assert_eq!(
        materials,
        [
            "Carpet", "Dirt", "Grass", "Leaves", "Metal", "Mud", "NonWalk", "Puddles", "Stone",
            "Swamp", "Water", "Wood"
        ]
    );
}

#[test]
fn an_unwalkable_face_with_a_walkable_material_stays_unwalkable_in_kotor() {
    // What NWN2 reads from an unwalkable triangle that carries the stone footstep.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 32,
    };
    mesh.push_polygon(&[0, 1, 2], stone);
    mesh.push_polygon(
        &[0, 2, 3],
        Surface {
            walkable: false,
            ..stone
        },
    );
    let (wok, diag) = write(&mesh, "bwm", "x.wok");
    let merged = message(&diag, "bwm.materials_merged").unwrap();
    assert!(
        merged.contains("Stone (not walkable) -> NonWalk (not walkable): 1 face(s), 0.500 m²"),
        "{merged}"
    );
    let back = read(&wok, "x.wok");
    assert_eq!(back.walkable_count(), 1);
    // The same through NWN2 keeps the footstep on the unwalkable triangle.
    let (trx, diag) = write(&mesh, "trx", "x.trx");
    assert!(message(&diag, "trx.materials_merged").is_none());
    let back = read(&trx, "x.trx");
    assert_eq!(
        histogram(&back).get(&("Stone".to_string(), false)),
        Some(&1)
    );
}

fn bbox(path: &Path) -> ([f64; 3], [f64; 3]) {
    let run = walkmesh(["info", path.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let corner = |k: &str| -> [f64; 3] {
        let v = info["bbox"][k].as_array().unwrap();
        [0, 1, 2].map(|i| v[i].as_f64().unwrap())
    };
    (corner("min"), corner("max"))
}

#[test]
fn float_noise_below_zero_is_snapped_not_shifted_by_a_tile() {
    let dir = temp_dir("snap");
    let obj = dir.join("noise.obj");
    // Z-up file: one square whose corner sits 1e-6 below x = 0 and y = 0.
    std::fs::write(
        &obj,
        "v -0.000001 -0.000001 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nusemtl Stone\nf 1 2 3 4\n",
    )
    .unwrap();
    let trx = dir.join("noise.trx");
    let run = walkmesh([
        "convert",
        obj.to_str().unwrap(),
        trx.to_str().unwrap(),
        "--up",
        "z",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("[trx.snapped_to_zero]"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("[trx.mesh_moved]"), "{}", run.stderr);
    let (min, max) = bbox(&trx);
    assert_eq!(min, [0.0, 0.0, 0.0]);
    assert_eq!(max, [4.0, 4.0, 0.0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tile_shift_is_reported_exactly_and_translate_undoes_it() {
    let Some(corpora) = shared_corpora() else {
        return;
    };
    let source = corpora.join("kotor/pykotor-kits/enclavesurface/training_1.wok");
    if !source.is_file() {
        eprintln!("notice: {} missing; skipped", source.display());
        return;
    }
    let dir = temp_dir("shift");
    let trx = dir.join("training.trx");
    let run = walkmesh(["convert", source.to_str().unwrap(), trx.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // min (-12.10, -10.04): two tiles of 9 m on x and on y.
    assert!(
        run.stderr.contains("[trx.mesh_moved]")
            && run.stderr.contains("by (18, 18, 0)")
            && run.stderr.contains("--translate -18,-18,0"),
        "{}",
        run.stderr
    );
    let back = dir.join("back.wok");
    let run = walkmesh([
        "convert",
        trx.to_str().unwrap(),
        back.to_str().unwrap(),
        "--translate",
        "-18,-18,0",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (min0, max0) = bbox(&source);
    let (min1, max1) = bbox(&back);
    for k in 0..3 {
        assert!((min0[k] - min1[k]).abs() < 1e-5, "{min0:?} {min1:?}");
        assert!((max0[k] - max1[k]).abs() < 1e-5, "{max0:?} {max1:?}");
    }
    let bad = walkmesh([
        "convert",
        source.to_str().unwrap(),
        dir.join("x.wok").to_str().unwrap(),
        "--translate",
        "1,2",
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--translate"), "{}", bad.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
