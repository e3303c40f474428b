#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh generate` of placeable (PWK) and door (DWK) walkmeshes through the command line:
//! hand-built KotOR models with use-point dummy nodes, a door's closed slab and its warning,
//! OBJ and glTF input with `--kind placeable`, every output validated and lint-clean; the
//! shared corpus's placeable models (corpus-gated). The footprints of the designed objects
//! are checked in `generate/tests/placeable.rs`.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_mdl::synthetic::{SyntheticMesh, SyntheticNode, build};
use walkmesh_tests::{required_corpora, walkmesh};

fn read(path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    format
        .reader()
        .unwrap()
        .read(input, &ReadOptions::default(), &mut Diagnostics::new())
        .unwrap()
}

/// A closed box as a model mesh (12 triangles).
fn box_mesh(texture: &str, lo: [f32; 3], hi: [f32; 3]) -> SyntheticMesh {
    let mut vertices = Vec::new();
    for z in [lo[2], hi[2]] {
        for (x, y) in [
            (lo[0], lo[1]),
            (hi[0], lo[1]),
            (hi[0], hi[1]),
            (lo[0], hi[1]),
        ] {
            vertices.push([x, y, z]);
        }
    }
    let quads: [[u16; 4]; 6] = [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    let faces = quads
        .iter()
        .flat_map(|[a, b, c, d]| [([*a, *b, *c], 0), ([*a, *c, *d], 0)])
        .collect();
    SyntheticMesh {
        texture: texture.into(),
        vertices,
        faces,
        render: true,
    }
}

/// Writes `name.mdl` + `name.mdx` built from `nodes` into `dir`.
fn write_model(dir: &Path, name: &str, nodes: &[SyntheticNode]) -> PathBuf {
    let built = build(walkmesh_mdl::Game::Kotor1, name, nodes);
    let mdl = dir.join(format!("{name}.mdl"));
    std::fs::write(&mdl, &built.mdl).unwrap();
    std::fs::write(dir.join(format!("{name}.mdx")), &built.mdx).unwrap();
    mdl
}

fn root(name: &str) -> SyntheticNode {
    SyntheticNode::dummy(name, None, [0.0; 3], [1.0, 0.0, 0.0, 0.0])
}

fn generate(args: &[&std::ffi::OsStr]) -> walkmesh_tests::CliRun {
    let mut all: Vec<&std::ffi::OsStr> = vec!["generate".as_ref()];
    all.extend_from_slice(args);
    walkmesh(all)
}

/// Validates (no error, no warning) and lints (no finding) `path`.
fn assert_valid_and_lint_clean(path: &Path) {
    let run = walkmesh(["validate".as_ref(), path.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("0 error(s), 0 warning(s)"),
        "{}",
        run.stdout
    );
    let run = walkmesh(["lint".as_ref(), path.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" 0 finding(s)"), "{}", run.stdout);
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

#[test]
fn a_placeable_model_with_use_nodes_becomes_a_pwk_with_those_use_points() {
    let dir = tempfile::tempdir().unwrap();
    let nodes = [
        root("plc_crate"),
        SyntheticNode::trimesh(
            "crate_g",
            0,
            box_mesh("crate_tex", [-0.5, -0.5, 0.0], [0.5, 0.5, 1.0]),
        ),
        SyntheticNode::dummy(
            "plc_crate_pwk_use01",
            Some(0),
            [-0.3, -0.9, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
        SyntheticNode::dummy(
            "plc_crate_pwk_use02",
            Some(0),
            [0.3, -0.9, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
    ];
    let mdl = write_model(dir.path(), "plc_crate", &nodes);
    let pwk = dir.path().join("plc_crate.pwk");
    let run = generate(&[mdl.as_os_str(), "-o".as_ref(), pwk.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("model nodes used: crate_g"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("use points the model's use1/use2 points"),
        "{}",
        run.stdout
    );
    assert_valid_and_lint_clean(&pwk);
    let mesh = read(&pwk);
    assert_eq!(mesh.kind, walkmesh_core::MeshKind::Placeable);
    assert_eq!(mesh.origin, [0.0; 3]);
    assert!(
        mesh.surfaces.iter().all(|s| s.code == 7 && !s.walkable),
        "every face NonWalk"
    );
    // The KotOR placeable preset's 0.25 m radius around the 1 m crate.
    let xs: Vec<f32> = mesh.vertices.iter().map(|v| v[0]).collect();
    let max = xs.iter().copied().fold(f32::MIN, f32::max);
    assert!((max - 0.75).abs() <= 0.05, "{max}");
    let use1 = mesh.hooks.iter().find(|h| h.name == "use1").unwrap();
    let use2 = mesh.hooks.iter().find(|h| h.name == "use2").unwrap();
    assert!(close(use1.position, [-0.3, -0.9, 0.0]), "{use1:?}");
    assert!(close(use2.position, [0.3, -0.9, 0.0]), "{use2:?}");
}

#[test]
fn a_door_model_becomes_its_closed_dwk_and_says_the_open_states_are_not_made() {
    let dir = tempfile::tempdir().unwrap();
    // The use dummies under a dummy moved 0.5 m along x: their model-space positions count.
    let nodes = [
        root("door_a"),
        SyntheticNode::trimesh(
            "door_panel",
            0,
            box_mesh("door_tex", [-1.0, -0.05, 0.0], [1.0, 0.05, 2.5]),
        ),
        SyntheticNode::dummy("hooks", Some(0), [0.5, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]),
        SyntheticNode::dummy(
            "door_a_DWK_dp_closed_01",
            Some(2),
            [-0.5, -0.8, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
        SyntheticNode::dummy(
            "door_a_DWK_dp_closed_02",
            Some(2),
            [-0.5, 0.8, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ),
    ];
    let mdl = write_model(dir.path(), "door_a", &nodes);
    let dwk = dir.path().join("door_a0.dwk");
    let run = generate(&[mdl.as_os_str(), "-o".as_ref(), dwk.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("generate.door_open_states_not_generated"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .contains("door: ground at z = 0.000, 0.20 m² blocked"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("model nodes used: door_panel"),
        "{}",
        run.stdout
    );
    assert_valid_and_lint_clean(&dwk);
    let mesh = read(&dwk);
    assert_eq!(mesh.kind, walkmesh_core::MeshKind::Door);
    let bounds = mesh
        .vertices
        .iter()
        .fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |b, v| {
            [
                b[0].min(v[0]),
                b[1].min(v[1]),
                b[2].max(v[0]),
                b[3].max(v[1]),
            ]
        });
    for (got, want) in bounds.iter().zip([-1.0, -0.05, 1.0, 0.05]) {
        assert!((got - want).abs() <= 0.05, "{bounds:?}");
    }
    let use1 = mesh.hooks.iter().find(|h| h.name == "use1").unwrap();
    assert!(close(use1.position, [0.0, -0.8, 0.0]), "{use1:?}");
}

/// A 1 × 1 × 1 m crate as OBJ (Z up).
fn crate_obj(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for z in [0.0, 1.0] {
        for (x, y) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            text.push_str(&format!("v {x} {y} {z}\n"));
        }
    }
    for q in [
        "1 4 3 2", "5 6 7 8", "1 2 6 5", "2 3 7 6", "3 4 8 7", "4 1 5 8",
    ] {
        text.push_str(&format!("f {q}\n"));
    }
    let path = dir.join("crate.obj");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn obj_and_gltf_input_with_kind_placeable_make_a_placeable_walkmesh() {
    let dir = tempfile::tempdir().unwrap();
    let obj = crate_obj(dir.path());
    // `.bwm` does not say which kind: --kind placeable does.
    let bwm = dir.path().join("crate.bwm");
    let run = generate(&[
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "--kind".as_ref(),
        "placeable".as_ref(),
        "--agent-radius".as_ref(),
        "0".as_ref(),
        "-o".as_ref(),
        bwm.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("placeable: ground at z = 0.000, 1.00 m² blocked"),
        "{}",
        run.stdout
    );
    assert_valid_and_lint_clean(&bwm);
    let mesh = read(&bwm);
    assert_eq!(mesh.kind, walkmesh_core::MeshKind::Placeable);
    // No use nodes in an OBJ: 0.4 m before the front (−Y) side, a quarter width each way.
    let use1 = mesh.hooks.iter().find(|h| h.name == "use1").unwrap();
    assert!(close(use1.position, [-0.25, -0.9, 0.0]), "{use1:?}");

    // The same crate as glTF (Y up on disk, read back Z up).
    let glb = dir.path().join("crate.glb");
    let run = walkmesh([
        "convert".as_ref(),
        obj.as_os_str(),
        glb.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let pwk = dir.path().join("from_gltf.pwk");
    let run = generate(&[
        glb.as_os_str(),
        "--agent-radius".as_ref(),
        "0".as_ref(),
        "-o".as_ref(),
        pwk.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("1.00 m² blocked"), "{}", run.stdout);
    assert_valid_and_lint_clean(&pwk);
}

#[test]
fn kind_names_what_is_made_and_a_layout_is_refused_for_an_object() {
    let dir = tempfile::tempdir().unwrap();
    let obj = crate_obj(dir.path());
    let out = dir.path().join("x.pwk");
    let lyt = dir.path().join("a.lyt");
    std::fs::write(&lyt, "beginlayout\nroomcount 0\ndonelayout\n").unwrap();
    let run = generate(&[
        obj.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("model's coordinates"), "{}", run.stderr);
    let run = generate(&[
        obj.as_os_str(),
        "--kind".as_ref(),
        "chair".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_ne!(run.code, 0);
    assert!(!out.exists());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn the_corpus_placeable_models_make_valid_lint_clean_pwks() {
    let corpora = required_corpora().join("kotor-placeables");
    let dir = tempfile::tempdir().unwrap();
    for name in ["unk_bed", "paz_holo"] {
        let mdl = corpora.join(format!("{name}.mdl"));
        let pwk = dir.path().join(format!("{name}.pwk"));
        let run = generate(&[mdl.as_os_str(), "-o".as_ref(), pwk.as_os_str()]);
        assert_eq!(run.code, 0, "{name}: {}{}", run.stdout, run.stderr);
        assert_valid_and_lint_clean(&pwk);
        let mesh = read(&pwk);
        assert_eq!(mesh.kind, walkmesh_core::MeshKind::Placeable);
        assert_eq!(mesh.hooks.len(), 2);
        assert!(!mesh.polygons.is_empty());
        // The stored form: flat at the ground (the model's origin for both), in the model's
        // coordinates, no position.
        assert!(mesh.vertices.iter().all(|v| v[2].abs() < 0.05), "{name}");
        assert_eq!(mesh.origin, [0.0; 3]);
    }
}
