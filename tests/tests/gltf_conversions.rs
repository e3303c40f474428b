#![cfg(feature = "gltf")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Game walkmeshes through glTF and back, for every shared corpus file whose format has a
//! reader and a writer in the default registry (KotOR .wok/.pwk/.dwk, NWN2 .trx/.trn, Prime
//! .path):
//!
//! 1. in the library: source IR → glTF (.glb, and .gltf + .bin for a sample) → IR must give
//!    back every authored field bit for bit (vertices, polygons and their order, surfaces,
//!    edge tags, hooks, origin, kind, tile grid, face attributes, extras);
//! 2. through the command line: `walkmesh convert SRC x.glb` then
//!    `walkmesh convert x.glb back.EXT --rebuild`, read back with the source format's reader:
//!    vertices, faces, surfaces, edge tags (transitions) and hooks equal the source's.
//!
//! Every .glb written is also copied to `$WALKMESH_PEER_DIR/gltf/` for the Khronos validator
//! (`.ci/peers/gltf.sh`).

use std::path::{Path, PathBuf};

use walkmesh_core::testing::files_with_extensions;
use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions, WriteOptions};
use walkmesh_tests::{fixtures_dir, manifest, required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("walkmesh-gltf-conv-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn peer_dir() -> PathBuf {
    let dir = match std::env::var_os("WALKMESH_PEER_DIR") {
        Some(dir) => PathBuf::from(dir).join("gltf"),
        None => std::env::temp_dir().join("walkmesh-peer-gltf"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// (format id, extensions, corpus family)
const FAMILIES: &[(&str, &[&str], &str)] = &[
    ("bwm", &["wok", "pwk", "dwk"], "kotor"),
    ("trx", &["trx", "trn"], "nwn2"),
    ("path", &["path"], "prime"),
];

fn read(id: &str, path: &Path) -> Result<NavMesh, String> {
    let registry = walkmesh_formats::default_registry();
    let format = registry.by_id(id).map_err(|e| e.to_string())?;
    let reader = format.reader().ok_or("no reader")?;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    reader
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .map_err(|e| e.to_string())
}

fn bits(vertices: &[[f32; 3]]) -> Vec<[u32; 3]> {
    vertices.iter().map(|v| v.map(f32::to_bits)).collect()
}

/// Differences in every authored field (floats by bits), as sentences.
fn authored_differences(a: &NavMesh, b: &NavMesh) -> Vec<String> {
    let mut out = Vec::new();
    if bits(&a.vertices) != bits(&b.vertices) {
        out.push(format!(
            "vertices differ ({} vs {})",
            a.vertices.len(),
            b.vertices.len()
        ));
    }
    if a.polygons != b.polygons {
        out.push(format!(
            "polygons differ ({} vs {})",
            a.polygons.len(),
            b.polygons.len()
        ));
    }
    if a.surfaces != b.surfaces {
        out.push("surfaces differ".into());
    }
    if a.edge_tags != b.edge_tags {
        out.push(format!(
            "edge tags differ ({} vs {})",
            a.edge_tags.len(),
            b.edge_tags.len()
        ));
    }
    if a.hooks.len() != b.hooks.len()
        || a.hooks.iter().zip(&b.hooks).any(|(x, y)| {
            x.name != y.name || x.position.map(f32::to_bits) != y.position.map(f32::to_bits)
        })
    {
        out.push("hooks differ".into());
    }
    if a.origin.map(f32::to_bits) != b.origin.map(f32::to_bits) {
        out.push("origin differs".into());
    }
    if a.kind != b.kind {
        out.push(format!("kind {:?} vs {:?}", a.kind, b.kind));
    }
    if a.tile_grid != b.tile_grid {
        out.push("tile grid differs".into());
    }
    // Debug formatting shows float bits faithfully enough (NaN payloads aside) for equality.
    if format!("{:?}", a.face_attributes) != format!("{:?}", b.face_attributes) {
        out.push(format!(
            "face attributes differ ({:?} vs {:?})",
            a.face_attributes.keys().collect::<Vec<_>>(),
            b.face_attributes.keys().collect::<Vec<_>>()
        ));
    }
    if format!("{:?}", a.extras) != format!("{:?}", b.extras) {
        out.push(format!(
            "extras differ ({:?} vs {:?})",
            a.extras.keys().collect::<Vec<_>>(),
            b.extras.keys().collect::<Vec<_>>()
        ));
    }
    out
}

/// Source IR → glTF → IR in the library must be exact.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_walkmesh_survives_gltf_exactly() {
    let corpora = required_corpora();
    let registry = walkmesh_formats::default_registry();
    let gltf = registry.by_id("gltf").unwrap();
    let (writer, reader) = (gltf.writer().unwrap(), gltf.reader().unwrap());
    let peer = peer_dir();
    let mut checked = 0;
    let mut unreadable = Vec::new();
    for &(id, extensions, family) in FAMILIES {
        let Ok(format) = registry.by_id(id) else {
            continue;
        };
        if format.reader().is_none() {
            eprintln!("notice: format {id} has no reader yet; its corpus is skipped");
            continue;
        }
        for (index, path) in files_with_extensions(&corpora.join(family), extensions)
            .iter()
            .enumerate()
        {
            let source = match read(id, path) {
                Ok(mesh) => mesh,
                Err(error) => {
                    unreadable.push(format!("{}: {error}", path.display()));
                    continue;
                }
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            // A sample also goes through the JSON form with its .bin sidecar on disk.
            let forms: &[&str] = if index % 10 == 0 {
                &["glb", "gltf"]
            } else {
                &["glb"]
            };
            for form in forms {
                // Corpus families repeat file names in different folders: number them.
                let file_name = format!("{family}_{index:03}_{name}.{form}");
                let options = WriteOptions {
                    file_name: Some(file_name.clone()),
                    ..WriteOptions::default()
                };
                let mut diag = Diagnostics::new();
                let output = writer
                    .write(&source, &options, &mut diag)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                // A .gltf is written under the name its .bin sidecar was named after.
                let main = match *form {
                    "gltf" => peer.join(&file_name),
                    _ => peer.join(format!("conv_{file_name}")),
                };
                std::fs::write(&main, &output.main).unwrap();
                for sidecar in &output.sidecars {
                    std::fs::write(peer.join(&sidecar.file_name), &sidecar.bytes).unwrap();
                }
                let mut diag = Diagnostics::new();
                let back = reader
                    .read(
                        Input {
                            bytes: &output.main,
                            path: Some(&main),
                        },
                        &ReadOptions::default(),
                        &mut diag,
                    )
                    .unwrap_or_else(|e| panic!("{name} ({form}): {e}"));
                let differences = authored_differences(&source, &back);
                assert!(differences.is_empty(), "{name} ({form}): {differences:?}");
                assert!(diag.items.is_empty(), "{name} ({form}): {:?}", diag.items);
            }
            checked += 1;
        }
    }
    eprintln!(
        "glTF library round trip: {checked} corpus files exact; {} unreadable by their own reader",
        unreadable.len()
    );
    for line in &unreadable {
        eprintln!("  unreadable: {line}");
    }
    assert!(
        checked > 0
            || registry
                .by_id("bwm")
                .ok()
                .and_then(|f| f.reader())
                .is_none()
    );
}

/// `walkmesh convert SRC x.glb` then `walkmesh convert x.glb back.EXT --rebuild` must give the
/// same bytes as `walkmesh convert SRC direct.EXT --rebuild` (glTF loses nothing the target
/// uses), and for KotOR and NWN2 the result keeps the source's vertices, faces, surfaces,
/// transitions and hooks. (The PATH writer re-cooks regions from the walkable area, so a PATH
/// file does not keep its polygons even without glTF; there only the byte equality holds.)
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn game_formats_through_glb_and_back_with_the_cli() {
    let corpora = required_corpora();
    let registry = walkmesh_formats::default_registry();
    let dir = temp_dir("cli");
    for &(id, extensions, family) in FAMILIES {
        let Ok(format) = registry.by_id(id) else {
            continue;
        };
        if format.reader().is_none() || format.writer().is_none() {
            eprintln!("notice: format {id} lacks a reader or writer; skipped");
            continue;
        }
        let (mut identical, mut keeps, mut total) = (0, 0, 0);
        for path in files_with_extensions(&corpora.join(family), extensions) {
            let Ok(source) = read(id, &path) else {
                continue;
            };
            total += 1;
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let extension = path
                .extension()
                .unwrap()
                .to_string_lossy()
                .to_ascii_lowercase();
            let glb = dir.join(format!("{name}.glb"));
            let back = dir.join(format!("back_{name}.{extension}"));
            let direct = dir.join(format!("direct_{name}.{extension}"));
            let convert = |from: &Path, to: &Path| {
                let run = walkmesh([
                    "convert".into(),
                    from.as_os_str().to_owned(),
                    to.as_os_str().to_owned(),
                    "--rebuild".into(),
                ]);
                assert_eq!(
                    run.code,
                    0,
                    "{} → {}: {}",
                    from.display(),
                    to.display(),
                    run.stderr
                );
            };
            convert(&path, &glb);
            convert(&glb, &back);
            convert(&path, &direct);
            assert!(
                std::fs::read(&back).unwrap() == std::fs::read(&direct).unwrap(),
                "{name}: via glTF differs from the direct conversion"
            );
            identical += 1;
            let result =
                read(id, &back).unwrap_or_else(|e| panic!("{name}: reading the result: {e}"));
            // What the acceptance names: vertices, faces, materials, transitions, hooks.
            let differences: Vec<String> = authored_differences(&source, &result)
                .into_iter()
                .filter(|d| {
                    ["vertices", "polygons", "surfaces", "edge tags", "hooks"]
                        .iter()
                        .any(|k| d.starts_with(k))
                })
                .collect();
            assert!(differences.is_empty(), "{name}: {differences:?}");
            keeps += 1;
        }
        eprintln!(
            "{id} → glb → {id} (--rebuild): {identical}/{total} byte-identical to the direct conversion; {keeps}/{total} keep vertices, faces, surfaces, edge tags and hooks"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command line writes the `.bin` sidecar beside a `.gltf`, reads it back through the
/// input's path, passes `--scene`, and reports a missing sidecar as an unreadable input.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn cli_writes_and_reads_gltf_with_its_bin_sidecar() {
    let corpora = required_corpora();
    let Some(source) = files_with_extensions(&corpora.join("kotor"), &["wok"])
        .into_iter()
        .next()
    else {
        return;
    };
    let dir = temp_dir("sidecar");
    let gltf = dir.join("my room.gltf");
    let run = walkmesh([
        "convert".into(),
        source.clone().into_os_string(),
        gltf.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("my room.bin").is_file());
    let info = |extra: &[&str]| {
        let mut args: Vec<std::ffi::OsString> = vec![
            "info".into(),
            gltf.clone().into_os_string(),
            "--json".into(),
        ];
        args.extend(extra.iter().map(|a| a.into()));
        walkmesh(args)
    };
    let run = info(&["--scene", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mesh = read("bwm", &source).unwrap();
    assert_eq!(summary["faces"], mesh.polygons.len());
    assert_eq!(summary["vertices"], mesh.vertices.len());
    let run = info(&["--scene", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no scene '3'"), "{}", run.stderr);
    std::fs::remove_file(dir.join("my room.bin")).unwrap();
    let run = info(&[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("buffers[0].uri") && run.stderr.contains("my room.bin"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The project's OBJ fixtures (n-gons, holes, non-manifold edges) → .glb through the command
/// line: `info` on the .glb reports the manifest's facts, and OBJ → glb → OBJ → IR keeps the
/// polygons exactly. The .glb files go to the validator too.
#[test]
fn obj_fixtures_through_glb_keep_their_facts() {
    let facts = manifest();
    let dir = temp_dir("fixtures");
    let mut checked = 0;
    for fact in &facts {
        let input = fixtures_dir().join(&fact.file);
        if input.extension().and_then(|e| e.to_str()) != Some("obj") {
            continue;
        }
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        let glb = peer_dir().join(format!("fixture_{stem}.glb"));
        let run = walkmesh([
            "convert".into(),
            input.clone().into_os_string(),
            glb.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{stem}: {}", run.stderr);
        let run = walkmesh(["info".into(), glb.clone().into_os_string(), "--json".into()]);
        assert_eq!(run.code, 0, "{stem}: {}", run.stderr);
        let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(info["vertices"], fact.vertices, "{stem}");
        assert_eq!(info["faces"], fact.faces, "{stem}");
        assert_eq!(info["walkable_faces"], fact.walkable_faces, "{stem}");
        assert_eq!(info["components"], fact.components, "{stem}");
        assert_eq!(info["boundary_loops"], fact.boundary_loops, "{stem}");
        assert_eq!(
            info["non_manifold_edges"], fact.non_manifold_edges,
            "{stem}"
        );
        let materials: std::collections::BTreeMap<String, usize> =
            serde_json::from_value(info["materials"].clone()).unwrap();
        assert_eq!(materials, fact.materials, "{stem}");
        let area = info["walkable_area"].as_f64().unwrap();
        assert!(
            (area - fact.walkable_area).abs() <= 1e-4 * fact.walkable_area.max(1.0),
            "{stem}: {area}"
        );
        // The .glb holds the fixture's IR exactly (face order included).
        let original = read("obj", &input).unwrap();
        let back = read("gltf", &glb).unwrap();
        assert_eq!(bits(&original.vertices), bits(&back.vertices), "{stem}");
        assert_eq!(original.polygons, back.polygons, "{stem}");
        assert_eq!(original.surfaces, back.surfaces, "{stem}");
        assert_eq!(original.edge_tags, back.edge_tags, "{stem}");
        // And it converts on to OBJ.
        let obj = dir.join(format!("{stem}.obj"));
        let run = walkmesh(["convert".into(), glb.into_os_string(), obj.into_os_string()]);
        assert_eq!(run.code, 0, "{stem}: {}", run.stderr);
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("OBJ fixtures through glTF: {checked} checked");
    assert!(checked >= 6 || facts.is_empty(), "{checked}");
}
