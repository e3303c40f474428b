#![cfg(all(feature = "bwm", feature = "nwn2", feature = "prime", feature = "obj"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh view` (issue #28): the page of every corpus walkmesh is written, holds as many
//! faces as `walkmesh info` counts and refers to nothing outside itself; bad requests are
//! refused. The page in a browser is checked by `.ci/peers/view.sh`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use walkmesh_core::testing::files_with_extensions;
use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-view-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON document inlined in a page, unpacked as the page does (base64, then gzip).
fn page_data(page: &str) -> Value {
    walkmesh_view::unpack::page_data(page).unwrap()
}

fn info_faces(file: &Path) -> u64 {
    let run = walkmesh(["info".as_ref(), "--json".as_ref(), file.as_os_str()]);
    assert_eq!(run.code, 0, "info {}", file.display());
    let info: Value = serde_json::from_str(&run.stdout).unwrap();
    info["faces"].as_u64().unwrap()
}

fn view(files: &[&Path], out: &Path) -> walkmesh_tests::CliRun {
    let mut args: Vec<&std::ffi::OsStr> = vec!["view".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    args.extend(["-o".as_ref(), out.as_os_str()]);
    walkmesh(args)
}

#[test]
fn a_fixture_page_is_written_with_its_faces_and_nothing_outside_it() {
    let dir = temp_dir("fixture");
    let file = fixtures_dir().join("obj").join("two_rooms.obj");
    let out = dir.join("rooms.html");
    let run = view(&[&file], &out);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("8 faces"), "{}", run.stdout);
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(!page.contains("http://") && !page.contains("https://"));
    let data = page_data(&page);
    assert_eq!(data["meshes"][0]["faces"], 8);
    assert_eq!(data["meshes"][0]["format"], "obj");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn three_files_or_an_unreadable_one_are_refused_and_nothing_is_written() {
    let dir = temp_dir("refused");
    let file = fixtures_dir().join("obj").join("two_rooms.obj");
    let out = dir.join("page.html");
    let run = view(&[&file, &file, &file], &out);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let missing = dir.join("missing.wok");
    let run = view(&[&missing], &out);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_walkmesh_gets_a_page_with_info_s_face_count() {
    let files = files_with_extensions(
        &required_corpora(),
        &["wok", "pwk", "dwk", "bwm", "trx", "trn", "path"],
    );
    assert!(files.len() > 100, "{} corpus files", files.len());
    let dir = temp_dir("corpus");
    let out = dir.join("page.html");
    let mut with_fields = 0;
    for file in &files {
        let run = view(&[file], &out);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stdout);
        let data = page_data(&std::fs::read_to_string(&out).unwrap());
        let mesh = &data["meshes"][0];
        assert_eq!(
            mesh["faces"].as_u64(),
            Some(info_faces(file)),
            "{}",
            file.display()
        );
        // Every format here has a field dump, so the panel shows stored fields.
        if mesh["hasFieldDump"] == true && !mesh["fields"].as_array().unwrap().is_empty() {
            with_fields += 1;
        }
    }
    assert_eq!(with_fields, files.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// An OBJ of `corners` (Z up, written Y up as OBJ is) and `faces` lines.
fn obj(corners: &[[f32; 3]], faces: &str) -> String {
    let mut text: String = corners
        .iter()
        .map(|[x, y, z]| format!("v {x} {z} {}\n", -y))
        .collect();
    text.push_str(faces);
    text
}

/// `view WALKMESH --model MODEL`: a 6 × 6 m floor as the model and a walkmesh whose middle
/// 2 × 2 m (face 4) floats 0.4 m above it. The page carries the model's two triangles and
/// exactly the findings `lint --model --level pedantic` gives, face 4 coloured as a
/// default-level finding in the `model findings` layer and face 0 as none.
#[test]
fn a_page_with_a_model_carries_its_triangles_and_lint_s_findings_on_their_faces() {
    let dir = temp_dir("model");
    let model = dir.join("room.obj");
    let floor = [
        [0.0, 0.0, 0.0],
        [6.0, 0.0, 0.0],
        [6.0, 6.0, 0.0],
        [0.0, 6.0, 0.0],
    ];
    std::fs::write(&model, obj(&floor, "f 1 2 3 4\n")).unwrap();
    let mut corners = floor.to_vec();
    for z in [0.0, 0.4] {
        corners.extend([[2.0, 2.0, z], [4.0, 2.0, z], [4.0, 4.0, z], [2.0, 4.0, z]]);
    }
    let faces = "f 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\nf 9 10 11 12\n";
    let walk = dir.join("walk.obj");
    std::fs::write(&walk, obj(&corners, faces)).unwrap();
    let page = dir.join("walk.html");
    let run = walkmesh([
        "view".as_ref(),
        walk.as_os_str(),
        "--model".as_ref(),
        model.as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let triangles =
        walkmesh_view::unpack::decode_base64(data["model"]["triangles"].as_str().unwrap()).unwrap();
    assert_eq!(triangles.len(), 2 * 9 * 4, "two triangles of three corners");
    let lint = walkmesh([
        "lint".as_ref(),
        walk.as_os_str(),
        "--model".as_ref(),
        model.as_os_str(),
        "--json".as_ref(),
        "--level".as_ref(),
        "pedantic".as_ref(),
    ]);
    let lint: Value = serde_json::from_str(&lint.stdout).unwrap();
    let model_codes = |findings: &Value| -> Vec<(String, Value)> {
        findings
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap().starts_with("model."))
            .map(|f| (f["code"].as_str().unwrap().to_string(), f["faces"].clone()))
            .collect()
    };
    let shown = model_codes(&data["model"]["findings"]);
    assert_eq!(shown, model_codes(&lint["findings"]), "{}", data["model"]);
    assert!(
        shown.contains(&("model.floating".to_string(), serde_json::json!([4]))),
        "{shown:?}"
    );
    let layer = data["meshes"][0]["faceLayers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "model findings")
        .expect("a model findings layer");
    let colours = walkmesh_view::unpack::decode_base64(layer["colours"].as_str().unwrap()).unwrap();
    assert_eq!(
        colours.get(12..15),
        Some(&[214u8, 48, 49][..]),
        "face 4: a default finding"
    );
    assert_eq!(
        colours.get(0..3),
        Some(&[205u8, 205, 198][..]),
        "face 0: none"
    );
}
