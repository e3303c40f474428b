//! Runs the real `walkmesh-textmesh` binary through every command on a small textmesh file
//! and checks what each prints or writes: the format registered by this crate works wherever
//! a built-in one does.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A 2 × 1 floor of four walkable triangles (Stone on the left, Grass on the right) and a
/// wall standing on its left edge.
const FLOOR: &str = "textmesh 1
# a floor and a wall
v 0 0 0
v 1 0 0
v 2 0 0
v 0 1 0
v 1 1 0
v 2 1 0
v 0 0 1
f 0 1 4 Stone
f 0 4 3 Stone
f 1 2 5 Grass walk
f 1 5 4 Grass walk
f 0 3 6 NonWalk wall
";

fn walkmesh(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_walkmesh-textmesh"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Runs `args`, expects exit `code`, and parses standard output as JSON.
fn json(args: &[&str], code: i32) -> Value {
    let (exit, stdout, stderr) = walkmesh(args);
    assert_eq!(exit, code, "{args:?}\nstdout: {stdout}\nstderr: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{stdout}"))
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

fn floor(dir: &Path) -> String {
    let file = path(dir, "floor.tmesh");
    std::fs::write(&file, FLOOR).unwrap();
    file
}

fn material_faces(info: &Value, material: &str) -> u64 {
    info["materials"][material]
        .as_u64()
        .unwrap_or_else(|| panic!("no {material} in {info}"))
}

#[test]
fn formats_lists_textmesh_beside_the_built_in_formats() {
    let listed = json(&["formats", "--json"], 0);
    let text = listed.to_string();
    for id in ["\"textmesh\"", "\"bwm\"", "\"obj\""] {
        assert!(text.contains(id), "{id} missing from {text}");
    }
    let (code, stdout, _) = walkmesh(&["formats"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("textmesh") && stdout.contains("tmesh"),
        "{stdout}"
    );
}

#[test]
fn info_counts_faces_walkability_and_materials() {
    let dir = tempfile::tempdir().unwrap();
    let info = json(&["info", &floor(dir.path()), "--json"], 0);
    assert_eq!(info["format"], "textmesh");
    assert_eq!(info["faces"], 5);
    assert_eq!(info["walkable_faces"], 4);
    assert_eq!(info["components"], 1);
    assert_eq!(material_faces(&info, "Stone"), 2);
    assert_eq!(material_faces(&info, "Grass"), 2);
    assert_eq!(material_faces(&info, "NonWalk"), 1);
}

#[test]
fn converts_to_and_from_wok_and_obj_keeping_materials_and_walkability() {
    let dir = tempfile::tempdir().unwrap();
    let source = floor(dir.path());
    let wok = path(dir.path(), "floor.wok");
    let obj = path(dir.path(), "floor.obj");
    let from_wok = path(dir.path(), "from_wok.tmesh");
    let from_obj = path(dir.path(), "from_obj.tmesh");
    for (input, output) in [
        (&source, &wok),
        (&wok, &from_wok),
        (&source, &obj),
        (&obj, &from_obj),
    ] {
        let (code, stdout, stderr) = walkmesh(&["convert", input, output]);
        assert_eq!(code, 0, "{input} -> {output}\n{stdout}\n{stderr}");
    }
    assert!(std::fs::read(&wok).unwrap().starts_with(b"BWM V1.0"));
    for file in [&wok, &from_wok, &obj, &from_obj] {
        let info = json(&["info", file, "--json"], 0);
        assert_eq!(info["faces"], 5, "{file}");
        assert_eq!(info["walkable_faces"], 4, "{file}");
        assert_eq!(material_faces(&info, "Stone"), 2, "{file}");
        assert_eq!(material_faces(&info, "Grass"), 2, "{file}");
    }
    let text = std::fs::read_to_string(&from_wok).unwrap();
    assert!(text.starts_with("textmesh 1\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.ends_with(" walk")).count(), 4);
    assert_eq!(text.lines().filter(|l| l.ends_with(" wall")).count(), 1);
}

#[test]
fn validate_passes_a_good_file_and_names_the_line_of_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = json(&["validate", &floor(dir.path()), "--json"], 0);
    assert_eq!(good["errors"].as_array().unwrap().len(), 0, "{good}");
    let bad = path(dir.path(), "bad.tmesh");
    std::fs::write(
        &bad,
        "textmesh 1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 9 Stone\n",
    )
    .unwrap();
    let (code, stdout, stderr) = walkmesh(&["validate", &bad, "--json"]);
    assert_ne!(code, 0, "{stdout}");
    let report: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}{stderr}"));
    let text = report.to_string();
    assert!(text.contains("textmesh.missing_vertex"), "{text}");
    assert!(text.contains("\"line\":5"), "{text}");
}

#[test]
fn dump_shows_every_line_as_a_field_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let file = floor(dir.path());
    let tree = json(&["dump", &file, "--format", "json"], 0);
    let text = tree.to_string();
    assert!(text.contains("\"faces[4]\""), "{text}");
    assert!(text.contains("NonWalk, wall"), "{text}");
    let (code, flat, _) = walkmesh(&["dump", &file, "--format", "flat"]);
    assert_eq!(code, 0);
    // `v 0 0 0` is the first vertex, on the third line: after "textmesh 1\n" and the comment.
    let offset = FLOOR.find("v 0 0 0").unwrap();
    let row = flat
        .lines()
        .find(|l| l.contains("vertices[0]"))
        .unwrap_or_else(|| panic!("{flat}"));
    assert!(
        row.contains(&format!("{offset:x}")),
        "vertices[0] at {offset:#x}: {row}"
    );
}

#[test]
fn render_and_view_draw_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = floor(dir.path());
    let svg = path(dir.path(), "floor.svg");
    let (code, _, stderr) = walkmesh(&["render", &file, "-o", &svg]);
    assert_eq!(code, 0, "{stderr}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") || picture.starts_with("<?xml"));
    assert!(
        picture.contains("Stone") && picture.contains("Grass"),
        "legend"
    );
    let html = path(dir.path(), "floor.html");
    let (code, _, stderr) = walkmesh(&["view", &file, "-o", &html]);
    assert_eq!(code, 0, "{stderr}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<html") && page.contains("floor.tmesh"));
    // Each face's stored fields come from the dumper's `faces` table (one record per face).
    // The page's data is packed (gzip + base64): read it back as the page does.
    let data = walkmesh_view::unpack::page_data(&page).unwrap().to_string();
    assert!(
        data.contains("faces[{i}]"),
        "no per-face fields from the dump"
    );
}

#[test]
fn route_and_reach_walk_across_both_materials() {
    let dir = tempfile::tempdir().unwrap();
    let file = floor(dir.path());
    let route = json(
        &[
            "route",
            &file,
            "--from",
            "0.2,0.5,0",
            "--to",
            "1.8,0.5,0",
            "--json",
        ],
        0,
    );
    assert_eq!(route["reachable"], true);
    assert_eq!(route["method"], "surface");
    let length = route["length"].as_f64().unwrap();
    assert!((length - 1.6).abs() < 1e-4, "{length}");
    let reach = json(&["reach", &file, "--json"], 0);
    assert_eq!(reach["components"].as_array().unwrap().len(), 1, "{reach}");
    // No engine tables in textmesh: the engine method is refused with a reason.
    let (code, _, stderr) = walkmesh(&["reach", &file, "--method", "engine"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--method surface"), "{stderr}");
}

#[test]
fn lint_finds_a_face_turned_upside_down() {
    let dir = tempfile::tempdir().unwrap();
    let clean = json(&["lint", &floor(dir.path()), "--json"], 0);
    assert_eq!(clean["findings"].as_array().unwrap().len(), 0, "{clean}");
    // The format declares no engine: lint applies the generic rules.
    assert_eq!(clean["engine"], "generic");
    let flipped = path(dir.path(), "flipped.tmesh");
    std::fs::write(&flipped, FLOOR.replace("f 0 1 4 Stone", "f 0 4 1 Stone")).unwrap();
    let report = json(&["lint", &flipped, "--json"], 1);
    let text = report.to_string();
    assert!(text.contains("downward"), "{text}");
}
