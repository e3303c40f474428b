#![cfg(all(feature = "bwm", feature = "nwn2", feature = "prime", feature = "obj"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A triangle that repeats a vertex (OBJ `f 1 2 1`, a BWM face with two equal indices) has no
//! area: `convert` drops it before writing, with `prepare.degenerate_dropped` and a count,
//! instead of refusing the file its own validator would reject; `validate` still lists it
//! (`mesh.degenerate_walkable_polygon` for a walkable one).

use std::path::Path;

use walkmesh_tests::walkmesh;

/// A 4 × 4 m square as two triangles, plus the walkable sliver `f 1 2 1` (Z up).
const SQUARE_WITH_SLIVER: &str =
    "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nusemtl Stone\nf 1 2 3\nf 1 3 4\nf 1 2 1\n";

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let run = walkmesh(args.iter().copied());
    assert!(run.code <= 1, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

fn codes(report: &serde_json::Value, key: &str) -> Vec<String> {
    report[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Converts `input` to `out` (extra arguments after), expecting success with the drop
/// reported; returns the written file's `info --json`.
fn converts_with_the_drop_reported(input: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["convert", s(input), s(out)];
    args.extend_from_slice(extra);
    let run = walkmesh(args.iter().copied());
    assert_eq!(run.code, 0, "{}: {}", out.display(), run.stderr);
    assert!(
        run.stderr.contains("[prepare.degenerate_dropped]")
            && run
                .stderr
                .contains("1 polygon(s) (1 walkable) repeat a vertex"),
        "{}: {}",
        out.display(),
        run.stderr
    );
    let report = json(&["validate", s(out), "--json"]);
    assert!(
        report["errors"].as_array().unwrap().is_empty(),
        "{}: {report}",
        out.display()
    );
    assert!(
        !codes(&report, "warnings")
            .iter()
            .any(|c| c.starts_with("mesh.degenerate")),
        "{}: {report}",
        out.display()
    );
    json(&["info", s(out), "--json"])
}

#[test]
fn an_obj_triangle_repeating_a_vertex_is_dropped_with_a_warning_for_wok_trx_and_path() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("sliver.obj");
    std::fs::write(&obj, SQUARE_WITH_SLIVER).unwrap();
    // `validate` lists the sliver: an error (the index repeats) and a walkable face without
    // area.
    let report = json(&["validate", s(&obj), "--up", "z", "--json"]);
    assert_eq!(codes(&report, "errors"), ["mesh.repeated_vertex"]);
    assert!(
        codes(&report, "warnings")
            .iter()
            .any(|c| c == "mesh.degenerate_walkable_polygon"),
        "{report}"
    );
    // `--weld off` keeps vertex identity, so the drop is prepare's (the default weld of
    // modelling-tool input drops it first, as `weld.dropped_polygons`).
    for extension in ["wok", "trx", "path"] {
        let out = dir.path().join(format!("sliver.{extension}"));
        let info = converts_with_the_drop_reported(&obj, &out, &["--up", "z", "--weld", "off"]);
        // The square is all that is left: 16 m², one component.
        assert!(
            (info["walkable_area"].as_f64().unwrap() - 16.0).abs() < 1e-9,
            "{info}"
        );
        assert_eq!(info["components"], 1);
        if extension != "path" {
            assert_eq!(info["faces"], 2, "{info}");
            assert_eq!(info["walkable_faces"], 2, "{info}");
        }
        let out = dir.path().join(format!("welded.{extension}"));
        let run = walkmesh(["convert", s(&obj), s(&out), "--up", "z"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains("[weld.dropped_polygons]"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_bwm_face_with_two_equal_indices_is_dropped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("three.obj");
    // Three walkable triangles; the third (2, 3, 4 → indices 1, 2, 3) is made degenerate in
    // the written BWM below.
    std::fs::write(
        &obj,
        "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nusemtl Stone\nf 1 2 3\nf 1 3 4\nf 2 3 4\n",
    )
    .unwrap();
    let wok = dir.path().join("three.wok");
    let run = walkmesh(["convert", s(&obj), s(&wok), "--up", "z"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut bytes = std::fs::read(&wok).unwrap();
    // docs/formats/bwm.md §2.1: face count at 0x50, face index table offset at 0x54, three u32
    // vertex indices per face. Face 2's last index becomes its first.
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    assert_eq!(word(&bytes, 0x50), 3);
    let faces = word(&bytes, 0x54) as usize;
    let first = word(&bytes, faces + 24);
    bytes[faces + 32..faces + 36].copy_from_slice(&first.to_le_bytes());
    let patched = dir.path().join("patched.wok");
    std::fs::write(&patched, &bytes).unwrap();
    let report = json(&["validate", s(&patched), "--json"]);
    assert!(
        codes(&report, "errors")
            .iter()
            .any(|c| c == "mesh.repeated_vertex"),
        "{report}"
    );
    assert!(
        codes(&report, "warnings")
            .iter()
            .any(|c| c == "mesh.degenerate_walkable_polygon"),
        "{report}"
    );
    for extension in ["wok", "trx", "path"] {
        let out = dir.path().join(format!("out.{extension}"));
        let info = converts_with_the_drop_reported(&patched, &out, &[]);
        assert!(
            (info["walkable_area"].as_f64().unwrap() - 16.0).abs() < 1e-9,
            "{info}"
        );
        if extension != "path" {
            assert_eq!(info["faces"], 2, "{info}");
        }
    }
}
