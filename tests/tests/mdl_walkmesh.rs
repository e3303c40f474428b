#![cfg(all(feature = "mdl", feature = "bwm"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The walkmesh node of every shared room model (`kotor-models/`) against the room's own
//! `.wok` (`kotor/`, same relative path): the faces match corner for corner after adding the
//! room's LYT position (`wok_minus_model` in STATS.csv), with the same surface material, in
//! 33 rooms; `m12aa_01f` (whose `.wok` the K1 Community Patch corrected without updating the
//! model) matches as STATS.csv counts. `walkmesh convert room.mdl room.wok` writes those
//! faces in the game's order, and the file validates.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_tests::{required_corpora, walkmesh};

fn stats(models: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(models.join("STATS.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            header
                .iter()
                .map(|h| h.to_string())
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

fn read(format: &str, path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    registry
        .by_id(format)
        .unwrap()
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corners(mesh: &NavMesh, face: usize, shift: [f64; 3]) -> [[f64; 3]; 3] {
    let p = mesh.polygons.get(face);
    [0, 1, 2].map(|k| {
        let v = mesh.vertex(p[k]);
        [0, 1, 2].map(|a| f64::from(v[a]) + shift[a])
    })
}

fn near(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-3)
}

/// (faces with a `.wok` face of the same corners in any order, of those with the same start
/// and order, of those with the same material).
fn match_faces(model: &NavMesh, wok: &NavMesh, shift: [f64; 3]) -> (usize, usize, usize) {
    let (mut matched, mut winding, mut material) = (0, 0, 0);
    for face in 0..model.polygons.len() {
        let mine = corners(model, face, shift);
        let mut same_set = false;
        let mut same_order = Vec::new();
        for other in 0..wok.polygons.len() {
            let theirs = corners(wok, other, [0.0; 3]);
            if mine.iter().all(|m| theirs.iter().any(|t| near(*m, *t))) {
                same_set = true;
                if (0..3).all(|k| near(mine[k], theirs[k])) {
                    same_order.push(other);
                }
            }
        }
        matched += usize::from(same_set);
        winding += usize::from(!same_order.is_empty());
        let code = model.surfaces[face].code;
        material += usize::from(same_order.iter().any(|&o| wok.surfaces[o].code == code));
    }
    (matched, winding, material)
}

fn shift_of(row: &HashMap<String, String>) -> [f64; 3] {
    let v: Vec<f64> = row["wok_minus_model"]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    [v[0], v[1], v[2]]
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_model_walkmesh_node_has_its_wok_faces() {
    let corpora = required_corpora();
    let models = corpora.join("kotor-models");
    let rows = stats(&models);
    assert_eq!(rows.len(), 34);
    let mut complete = 0;
    for row in &rows {
        let file = &row["file"];
        let model = read("mdl", &models.join(format!("{file}.mdl")));
        let wok = read("bwm", &corpora.join("kotor").join(format!("{file}.wok")));
        let faces: usize = row["aabb_faces"].parse().unwrap();
        assert_eq!(model.polygons.len(), faces, "{file}");
        assert_eq!(wok.polygons.len(), faces, "{file}");
        let got = match_faces(&model, &wok, shift_of(row));
        let want = (
            row["faces_matched"].parse().unwrap(),
            row["winding_same"].parse().unwrap(),
            row["material_same"].parse().unwrap(),
        );
        assert_eq!(got, want, "{file}: matched, same order, same material");
        if got == (faces, faces, faces) {
            complete += 1;
        } else {
            assert!(file.ends_with("m12aa_01f"), "{file}: {got:?} of {faces}");
            assert_eq!(got, (121, 121, 120), "{file}");
        }
        // The WOK's position is the walkmesh node's (docs/formats/mdl.md §6.4).
        let node_position: Vec<f32> = row["aabb_node_pos"]
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(node_position.len(), 3, "{file}");
        for (have, want) in model.origin.iter().zip(&node_position) {
            assert!(
                (have - want).abs() < 1e-3,
                "{file}: origin {:?}",
                model.origin
            );
        }
    }
    assert_eq!(complete, 33);
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-mdl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn convert_writes_each_models_walkmesh_as_a_valid_wok_in_the_games_order() {
    let corpora = required_corpora();
    let models = corpora.join("kotor-models");
    let dir = temp_dir();
    for row in stats(&models) {
        let file = &row["file"];
        let input = models.join(format!("{file}.mdl"));
        let output = dir.join("room.wok");
        let run = walkmesh(["convert".as_ref(), input.as_os_str(), output.as_os_str()]);
        assert_eq!(run.code, 0, "{file}: {}{}", run.stdout, run.stderr);
        let run = walkmesh(["validate".as_ref(), output.as_os_str()]);
        assert_eq!(run.code, 0, "{file}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("0 error(s)"), "{file}: {}", run.stdout);

        let written = read("bwm", &output);
        let wok = read("bwm", &corpora.join("kotor").join(format!("{file}.wok")));
        // Welding equal positions gives the .wok's distinct vertices (docs/formats/mdl.md §6.6).
        let distinct: usize = row["aabb_unique_pos"].parse().unwrap();
        assert_eq!(written.vertices.len(), distinct, "{file}: welded vertices");
        if file.ends_with("m12aa_01f") {
            // The patched .wok made two non-walkable faces walkable (docs/formats/mdl.md §6.8).
            assert_eq!(written.walkable_count() + 2, wok.walkable_count(), "{file}");
            continue;
        }
        assert_eq!(written.walkable_count(), wok.walkable_count(), "{file}");
        // Same faces in the same order (walkable first, a stable partition of the model's
        // order, as the game's file has them), same materials.
        let shift = shift_of(&row);
        for face in 0..wok.polygons.len() {
            let (mine, theirs) = (
                corners(&written, face, shift),
                corners(&wok, face, [0.0; 3]),
            );
            assert!(
                (0..3).all(|k| near(mine[k], theirs[k])),
                "{file}: face {face} {mine:?} against {theirs:?}"
            );
            assert_eq!(
                written.surfaces[face].code, wok.surfaces[face].code,
                "{file}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn info_on_a_model_shows_its_walkmesh() {
    let corpora = required_corpora();
    let input = corpora.join("kotor-models/pykotor-kits/endarspire/hallway_3.mdl");
    let run = walkmesh(["info".as_ref(), input.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("format:         mdl"), "{}", run.stdout);
    assert!(run.stdout.contains("faces:          6"), "{}", run.stdout);
}

/// Without the corpora: a hand-built room model goes through `info`, `convert` and `validate`.
#[test]
fn a_hand_built_model_converts_to_a_valid_wok() {
    use walkmesh_mdl::synthetic::{SyntheticMesh, SyntheticNode, build};
    let mut walk = SyntheticNode::trimesh(
        "walk",
        0,
        SyntheticMesh {
            texture: "NULL".into(),
            vertices: vec![[0.0; 3], [2.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.0, 0.0]],
            // Split vertices at the shared edge, as game models store them.
            faces: vec![([0, 1, 2], 7), ([0, 2, 3], 4)],
            render: false,
        },
    );
    walk.flags =
        walkmesh_mdl::flags::HEADER | walkmesh_mdl::flags::MESH | walkmesh_mdl::flags::AABB;
    walk.position = [1.0, 0.0, 0.0];
    let nodes = [
        SyntheticNode::dummy("room", None, [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        walk,
    ];
    let built = build(walkmesh_mdl::Game::Kotor1, "room", &nodes);
    let dir = temp_dir().join("hand");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("room.mdl");
    std::fs::write(&input, &built.mdl).unwrap();
    let run = walkmesh(["info".as_ref(), input.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("format:         mdl"), "{}", run.stdout);
    assert!(
        run.stdout.contains("faces:          2 (1 walkable"),
        "{}",
        run.stdout
    );
    let output = dir.join("room.wok");
    let run = walkmesh(["convert".as_ref(), input.as_os_str(), output.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = walkmesh(["validate".as_ref(), output.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let wok = read("bwm", &output);
    // Walkable face first; vertices moved by the node's position; origin = node position.
    assert_eq!(wok.surfaces[0].code, 4);
    assert_eq!(wok.surfaces[1].code, 7);
    assert_eq!(wok.origin, [1.0, 0.0, 0.0]);
    assert_eq!(wok.vertex(wok.polygons.get(0)[1]), [3.0, 2.0, 0.0]);
    std::fs::remove_dir_all(&dir).ok();
}
