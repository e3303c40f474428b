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
use walkmesh_tests::{required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-meaning-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(mesh: &NavMesh, target: &str, file_name: &str) -> (Vec<u8>, Diagnostics) {
    write_with(mesh, target, file_name, false)
        .unwrap_or_else(|| panic!("the {target} writer refused {file_name}"))
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
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_tile_shift_is_reported_exactly_and_translate_undoes_it() {
    let corpora = required_corpora();
    let source = corpora.join("kotor/pykotor-kits/enclavesurface/training_1.wok");
    assert!(source.is_file(), "{} is missing", source.display());
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

/// `materials` of `walkmesh info --json` on `path`: neutral name → faces.
fn info_materials(path: &Path) -> BTreeMap<String, u64> {
    let run = walkmesh(["info", path.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    info["materials"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, count)| (name.clone(), count.as_u64().unwrap()))
        .collect()
}

#[test]
fn info_json_names_materials_by_neutral_name_in_every_format() {
    let dir = temp_dir("info");
    let wok = dir.join("every.wok");
    let (bytes, _) = write(&every_material(), "bwm", "every.wok");
    std::fs::write(&wok, bytes).unwrap();
    // Every neutral material, two faces each: what KotOR, glTF and OBJ keep.
    let all: BTreeMap<String, u64> = walkmesh_core::material::NEUTRAL_NAMES
        .iter()
        .map(|name| (name.to_string(), 2))
        .collect();
    assert_eq!(info_materials(&wok), all);
    for extension in ["glb", "obj"] {
        let out = dir.join(format!("every.{extension}"));
        let run = walkmesh(["convert", wok.to_str().unwrap(), out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(info_materials(&out), all, "{extension}");
    }
    // NWN2 has twelve footsteps; the rest fall back as `nwn2.ron` says (written out here
    // by hand from the table in the format note, not from the profile).
    let trx = dir.join("every.trx");
    let run = walkmesh(["convert", wok.to_str().unwrap(), trx.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let nwn2: BTreeMap<String, u64> = [
        // NonWalk itself, Undefined, Obscuring, Transparent, Lava, BottomlessPit,
        // DeepWater, NonWalkGrass, Surface23-29: 15 materials.
        ("NonWalk", 30),
        // Stone, Door, BareBones, StoneBridge, Trigger.
        ("Stone", 10),
        // Dirt, Sand.
        ("Dirt", 4),
        ("Grass", 2),
        ("Wood", 2),
        ("Carpet", 2),
        ("Metal", 2),
        ("Swamp", 2),
        ("Mud", 2),
        ("Leaves", 2),
        ("Water", 2),
        ("Puddles", 2),
    ]
    .into_iter()
    .map(|(name, faces)| (name.to_string(), faces))
    .collect();
    assert_eq!(info_materials(&trx), nwn2);
    // PATH stores walkable regions only, read back as the prime profile's Stone: one square
    // region per walkable KotOR material (16 of them).
    let path = dir.join("every.path");
    let run = walkmesh(["convert", wok.to_str().unwrap(), path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        info_materials(&path),
        BTreeMap::from([("Stone".to_string(), 16)])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The NWN2 footstep a KotOR material is written as (the `fallbacks` of `nwn2.ron`, written
/// out by hand here so that the test does not take them from the code it checks).
fn nwn2_material(kotor: &str) -> &str {
    match kotor {
        "Door" | "BareBones" | "StoneBridge" | "Trigger" => "Stone",
        "Sand" => "Dirt",
        "Undefined" | "Obscuring" | "Transparent" | "Lava" | "BottomlessPit" | "DeepWater"
        | "NonWalkGrass" | "Surface23" | "Surface24" | "Surface25" | "Surface26" | "Surface27"
        | "Surface28" | "Surface29" => "NonWalk",
        other => other,
    }
}

/// Faces of the warning's first figure: "`N face(s)` …".
fn merged_faces(diag: &Diagnostics, code: &str) -> usize {
    message(diag, code).map_or(0, |m| {
        m.split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap()
    })
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_shared_wok_keeps_its_materials_through_gltf_and_nwn2() {
    let corpora = required_corpora();
    let woks = walkmesh_core::testing::files_with_extensions(&corpora, &["wok"]);
    assert!(woks.len() >= 25, "{} WOKs", woks.len());
    let (mut faces, mut merged) = (0, 0);
    for path in &woks {
        let name = path.display().to_string();
        let source = read(&std::fs::read(path).unwrap(), "source.wok");
        let before = histogram(&source);
        faces += source.polygons.len();

        // glTF carries every KotOR material: the round trip is exact, with no warning.
        let (glb, diag) = write(&source, "gltf", "x.glb");
        assert!(message(&diag, "gltf.materials_merged").is_none(), "{name}");
        let (wok, diag) = write(&read(&glb, "x.glb"), "bwm", "back.wok");
        assert!(message(&diag, "bwm.materials_merged").is_none(), "{name}");
        assert_eq!(
            histogram(&read(&wok, "back.wok")),
            before,
            "{name} via glTF"
        );

        // NWN2: each material becomes its footstep (or fallback), walkability stays, and
        // the warning counts exactly the faces whose material changed.
        let (trx, diag) = write(&source, "trx", "x.trx");
        let changed: usize = before
            .iter()
            .filter(|((material, _), _)| nwn2_material(material) != material)
            .map(|(_, faces)| faces)
            .sum();
        assert_eq!(
            merged_faces(&diag, "trx.materials_merged"),
            changed,
            "{name}"
        );
        assert!(
            message(&diag, "trx.walkability_changed").is_none(),
            "{name}"
        );
        merged += changed;
        let (wok, diag) = write(&read(&trx, "x.trx"), "bwm", "back.wok");
        assert!(
            message(&diag, "bwm.walkability_changed").is_none(),
            "{name}"
        );
        assert_eq!(merged_faces(&diag, "bwm.materials_merged"), 0, "{name}");
        let mut expected = BTreeMap::new();
        for ((material, walkable), count) in &before {
            *expected
                .entry((nwn2_material(material).to_string(), *walkable))
                .or_insert(0) += count;
        }
        assert_eq!(
            histogram(&read(&wok, "back.wok")),
            expected,
            "{name} via NWN2"
        );
    }
    eprintln!(
        "{} WOKs, {faces} faces: glTF round trips exact; NWN2 round trips merged {merged} face(s), each counted",
        woks.len()
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_path_cook_that_changes_the_walkable_components_says_so() {
    let corpora = required_corpora();
    let dir = temp_dir("components");
    // Three walkable components in the room: the floor and two groups of walkable polygons
    // with no area seen from above, which PATH cannot hold.
    let room = corpora.join("kotor/pykotor-kits/blackvulkar/room_1.wok");
    let out = dir.join("room_1.path");
    let run = walkmesh(["convert", room.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains("[path.components_changed]"))
        .unwrap_or_else(|| panic!("no warning: {}", run.stderr));
    assert!(
        line.contains("3 in the mesh, 1 in the file written")
            && line.contains("no area seen from above"),
        "{line}"
    );
    // Unchanged components: no such warning.
    let hall = corpora.join("kotor/pykotor-kits/sithbase/hall_1.wok");
    let run = walkmesh([
        "convert",
        hall.to_str().unwrap(),
        dir.join("hall_1.path").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !run.stderr.contains("path.components_changed"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Walkable components as `walkmesh info` counts them.
fn components(mesh: &NavMesh) -> usize {
    walkmesh_core::summary::summarize(mesh, "").components
}

/// Writes `mesh` as `target` with `rebuild`, returning the bytes and the warning codes with
/// their messages; `None` when the writer refuses.
fn write_with(
    mesh: &NavMesh,
    target: &str,
    file_name: &str,
    rebuild: bool,
) -> Option<(Vec<u8>, Diagnostics)> {
    let registry = walkmesh_formats::default_registry();
    let writer = registry.by_id(target).unwrap().writer().unwrap();
    let options = WriteOptions {
        file_name: Some(file_name.to_string()),
        rebuild,
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let prepared = passes::prepare(mesh, &writer.requirements(&options), &mut diag);
    let out = writer.write(&prepared, &options, &mut diag).ok()?;
    Some((out.main, diag))
}

/// Every shared walkmesh that cooks keeps its walkable components (counted as `info` counts
/// them) through → .path, → .path --rebuild and → .path → .wok/.trx; where the cook changes
/// them, it says so with the counts (`path.components_changed`), and that happens only where
/// walkable polygons with no area seen from above (which PATH cannot hold) made the
/// difference.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_shared_mesh_that_cooks_keeps_its_components_through_path() {
    let corpora = required_corpora();
    let files = walkmesh_core::testing::files_with_extensions(
        &corpora,
        &["wok", "pwk", "bwm", "trx", "trn"],
    );
    let (mut cooked, mut kept, mut warned) = (0, 0, Vec::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = read(&std::fs::read(path).unwrap(), &name);
        let Some((bytes, diag)) = write_with(&source, "path", "x.path", false) else {
            continue;
        };
        cooked += 1;
        let cooked_mesh = read(&bytes, "x.path");
        let (before, after) = (components(&source), components(&cooked_mesh));
        if before == after {
            assert!(
                message(&diag, "path.components_changed").is_none(),
                "{name}"
            );
            kept += 1;
        } else {
            let text = message(&diag, "path.components_changed")
                .unwrap_or_else(|| panic!("{name}: {before} → {after} components, silently"));
            assert!(
                text.contains(&format!(
                    "{before} in the mesh, {after} in the file written"
                )) && text.contains("no area seen from above (path.degenerate_dropped) made up"),
                "{name}: {text}"
            );
            warned.push(format!("{name} {before} → {after}"));
        }
        // From the .path on, nothing changes.
        let (rebuilt, _) = write_with(&cooked_mesh, "path", "y.path", true).unwrap();
        assert_eq!(
            components(&read(&rebuilt, "y.path")),
            after,
            "{name} --rebuild"
        );
        for (target, file) in [("bwm", "z.wok"), ("trx", "z.trx")] {
            let (out, _) = write_with(&cooked_mesh, target, file, false).unwrap();
            assert_eq!(
                components(&read(&out, file)),
                after,
                "{name} → .path → {file}"
            );
        }
    }
    eprintln!(
        "{cooked} meshes cook; {kept} keep their walkable components exactly, {} change them with path.components_changed (walkable polygons with no area seen from above): {warned:?}",
        warned.len()
    );
    assert!(cooked >= 120, "{cooked}");
    assert!(warned.len() <= 4, "{warned:?}");
}
