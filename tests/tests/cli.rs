#![cfg(feature = "obj")]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The command-line contract: subcommands, JSON shapes, exit codes 0/1/2, atomic output.

use std::ffi::OsString;

use walkmesh_tests::{fixtures_dir, walkmesh};

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

#[test]
fn formats_json_lists_every_format_with_its_extensions() {
    let run = walkmesh(["formats", "--json"]);
    assert_eq!(run.code, 0);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    let obj = rows.iter().find(|r| r["id"] == "obj").unwrap();
    assert_eq!(obj["extensions"], serde_json::json!(["obj"]));
    assert_eq!(obj["read"], true);
    assert_eq!(obj["write"], true);
    let plain = walkmesh(["formats"]);
    assert!(plain.stdout.contains(".obj"));
}

#[test]
fn help_explains_each_subcommand_with_an_example() {
    for sub in ["info", "convert", "validate", "dump", "formats"] {
        let run = walkmesh([sub, "--help"]);
        assert_eq!(run.code, 0, "{sub}");
        assert!(run.stdout.contains("Example"), "{sub}: {}", run.stdout);
    }
    let convert = walkmesh(["convert", "--help"]);
    for option in [
        "--from",
        "--to",
        "--rebuild",
        "--materials",
        "--up",
        "--kind",
        "--weld",
    ] {
        assert!(convert.stdout.contains(option), "{option}");
    }
    assert_eq!(walkmesh(["--version"]).code, 0);
}

#[test]
fn bad_usage_and_unreadable_input_exit_2_with_one_clear_sentence() {
    assert_eq!(walkmesh(["info"]).code, 2);
    assert_eq!(walkmesh(["frobnicate"]).code, 2);
    let missing = walkmesh(["info", "/nonexistent/room.obj"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .stderr
            .starts_with("error: cannot read /nonexistent/room.obj"),
        "{}",
        missing.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.obj");
    std::fs::write(&broken, "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 7\n").unwrap();
    let run = walkmesh(os(&[&"info", &broken]));
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("broken.obj") && run.stderr.contains("line 4"),
        "{}",
        run.stderr
    );
    let unknown = walkmesh(os(&[&"info", &broken, &"--from", &"nope"]));
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown format id 'nope'"));
}

#[test]
fn validate_exit_codes_and_json_shape() {
    let clean = walkmesh(os(&[
        &"validate",
        &fixtures_dir().join("obj/flat_floor.obj"),
        &"--json",
    ]));
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    let report: serde_json::Value = serde_json::from_str(&clean.stdout).unwrap();
    assert_eq!(report["errors"].as_array().unwrap().len(), 0);
    // A non-manifold edge is a warning (games load such files); it does not fail validation.
    let fin = walkmesh(os(&[
        &"validate",
        &fixtures_dir().join("obj/non_manifold.obj"),
        &"--json",
    ]));
    assert_eq!(fin.code, 0);
    let report: serde_json::Value = serde_json::from_str(&fin.stdout).unwrap();
    let warnings = report["warnings"].as_array().unwrap();
    let fin_warning = warnings
        .iter()
        .find(|w| w["code"] == "mesh.non_manifold_edge")
        .unwrap();
    assert!(
        fin_warning["message"]
            .as_str()
            .unwrap()
            .contains("shared by 3")
    );
    // A face using one vertex twice is an error: exit 1.
    let dir = tempfile::tempdir().unwrap();
    let bad_path = dir.path().join("bad.obj");
    std::fs::write(&bad_path, "v 0 0 0\nv 1 0 0\nv 1 0 -1\nf 1 2 3\nf 1 2 2\n").unwrap();
    let bad = walkmesh(os(&[&"validate", &bad_path, &"--json"]));
    assert_eq!(bad.code, 1, "{}", bad.stdout);
    let report: serde_json::Value = serde_json::from_str(&bad.stdout).unwrap();
    let codes: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["mesh.repeated_vertex"]);
    assert_eq!(report["errors"][0]["field"], "polygons[1]");
}

#[test]
fn convert_writes_atomically_and_leaves_nothing_on_failure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.obj");
    let broken = dir.path().join("broken.obj");
    std::fs::write(&broken, "v 0 0 0\nf 1 1 1 x\n").unwrap();
    let run = walkmesh(os(&[&"convert", &broken, &out]));
    assert_eq!(run.code, 2);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("broken.obj")]);
    // An existing output is replaced whole.
    std::fs::write(&out, "old").unwrap();
    let run = walkmesh(os(&[
        &"convert",
        &fixtures_dir().join("obj/two_rooms.obj"),
        &out,
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("# walkmesh")
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
    // Unknown output extension: exit 2 before anything is read or written.
    let run = walkmesh(os(&[
        &"convert",
        &fixtures_dir().join("obj/two_rooms.obj"),
        &dir.path().join("x.zzz"),
    ]));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--to"));
}

#[test]
fn convert_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.obj"), dir.path().join("b.obj"));
    let input = fixtures_dir().join("obj/strip_with_column.obj");
    assert_eq!(walkmesh(os(&[&"convert", &input, &a])).code, 0);
    assert_eq!(walkmesh(os(&[&"convert", &input, &b])).code, 0);
    let strip = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .replace("b.mtl", "a.mtl")
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn up_axis_option_changes_the_reading() {
    let path = fixtures_dir().join("obj/strip_with_column.obj");
    let y = walkmesh(os(&[&"info", &path, &"--json"]));
    let z = walkmesh(os(&[&"info", &path, &"--json", &"--up", &"z"]));
    let y: serde_json::Value = serde_json::from_str(&y.stdout).unwrap();
    let z: serde_json::Value = serde_json::from_str(&z.stdout).unwrap();
    assert_eq!(y["bbox"]["max"], serde_json::json!([5.0, 1.0, 2.0]));
    // Read as Z-up the column stands along Y and the floor is a wall: nothing faces up, and
    // the file's y (height) becomes z.
    assert_eq!(z["bbox"]["max"][1], serde_json::json!(2.0));
}

#[test]
fn dump_prints_parseable_ron_and_json() {
    let path = fixtures_dir().join("obj/concave_ngons.obj");
    let json = walkmesh(os(&[&"dump", &path, &"--format", &"json"]));
    assert_eq!(json.code, 0);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["mesh"]["polygons"][0].as_array().unwrap().len(), 6);
    let ron_text = walkmesh(os(&[&"dump", &path]));
    assert_eq!(ron_text.code, 0);
    let parsed: ron::Value = ron::from_str(&ron_text.stdout).unwrap();
    assert!(matches!(parsed, ron::Value::Map(_)));
}

#[test]
fn materials_option_loads_a_profile_and_reports_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("mine.ron");
    std::fs::write(
        &profile,
        r#"(engine: "neutral", default_material: "NonWalk", entries: [
            (material: "NonWalk", code: 7, walkable: false),
            (material: "Grass", code: 3, walkable: true)])"#,
    )
    .unwrap();
    let path = fixtures_dir().join("obj/two_rooms.obj");
    let run = walkmesh(os(&[&"info", &path, &"--json", &"--materials", &profile]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // Dirt is not in this profile: those 4 faces fall back to NonWalk, with a warning.
    assert_eq!(value["walkable_faces"], 4);
    assert!(run.stderr.contains("obj.unknown_material"));
    std::fs::write(&profile, "(engine: \"x\", entries: [").unwrap();
    let run = walkmesh(os(&[&"info", &path, &"--materials", &profile]));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("mine.ron"));
}

#[cfg(feature = "nwn2")]
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn max_decompressed_refuses_larger_packets() {
    let shared = walkmesh_tests::required_corpora();
    let files = walkmesh_core::testing::files_with_extensions(&shared.join("nwn2"), &["trx"]);
    let dungeon = files
        .iter()
        .find(|p| p.ends_with("dm_dungeon.trx"))
        .expect("dm_dungeon.trx is in the shared corpora");
    // Its walkmesh packet inflates to 4.96 MB: fine by default, refused under a 1 MiB ceiling.
    assert_eq!(walkmesh(os(&[&"info", dungeon])).code, 0);
    let capped = walkmesh(os(&[&"info", dungeon, &"--max-decompressed", &"1"]));
    assert_eq!(capped.code, 2, "{}", capped.stderr);
    assert!(
        capped.stderr.contains("dm_dungeon.trx"),
        "{}",
        capped.stderr
    );
}

/// An OBJ floor of `side` × `side` unit cells in Z-up coordinates (read with `--up z`), two
/// triangles a cell, counter-clockwise seen from above unless `down`.
#[cfg(feature = "prime")]
fn floor_obj(side: usize, down: bool) -> String {
    let mut text = String::new();
    for j in 0..=side {
        for i in 0..=side {
            text.push_str(&format!("v {i} {j} 0\n"));
        }
    }
    let v = |i: usize, j: usize| j * (side + 1) + i + 1;
    for j in 0..side {
        for i in 0..side {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            for [x, y, z] in [[a, b, c], [a, c, d]] {
                if down {
                    text.push_str(&format!("f {x} {z} {y}\n"));
                } else {
                    text.push_str(&format!("f {x} {y} {z}\n"));
                }
            }
        }
    }
    text
}

#[cfg(feature = "prime")]
#[test]
fn path_cook_refuses_a_downward_floor_and_a_cook_above_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("floor.path");
    // Issue #24: a floor wound the wrong way says so (exit 2), and nothing is written.
    let down = dir.path().join("down.obj");
    std::fs::write(&down, floor_obj(20, true)).unwrap();
    let run = walkmesh(os(&[&"convert", &down, &out, &"--up", &"z"]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("faces point down"), "{}", run.stderr);
    assert!(run.stderr.contains("--up"), "{}", run.stderr);
    assert!(!out.exists());
    // 3 200 triangles at 800 bytes each: 2.4 MiB, above a 1 MiB limit, within 3 MiB.
    let up = dir.path().join("up.obj");
    std::fs::write(&up, floor_obj(40, false)).unwrap();
    let run = walkmesh(os(&[
        &"convert",
        &up,
        &out,
        &"--up",
        &"z",
        &"--max-memory",
        &"1",
    ]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("limit of 1 MiB"), "{}", run.stderr);
    assert!(run.stderr.contains("--max-memory MIB"), "{}", run.stderr);
    assert!(!out.exists());
    let run = walkmesh(os(&[
        &"convert",
        &up,
        &out,
        &"--up",
        &"z",
        &"--max-memory",
        &"3",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(out.exists());
}

#[test]
fn render_of_a_far_vertex_is_quick_and_its_raster_is_bounded_by_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let far = dir.path().join("far.obj");
    std::fs::write(&far, "v 0 0 0\nv 1e30 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let png = dir.path().join("far.png");
    let started = std::time::Instant::now();
    let run = walkmesh(os(&[&"render", &far, &"-o", &png, &"--up", &"z"]));
    let took = started.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The whole test file runs in 0.06 s; the bound is generous for loaded machines.
    assert!(took.as_secs_f64() < 5.0, "took {took:?}");
    assert!(std::fs::metadata(&png).unwrap().len() < 1_000_000);
    // At the largest width the raster (8 bytes a pixel with the encoder's copy) is above
    // 1 MiB: refused by name, nothing written.
    let big = dir.path().join("big.png");
    let run = walkmesh(os(&[
        &"render",
        &far,
        &"-o",
        &big,
        &"--up",
        &"z",
        &"--width",
        &"8192",
        &"--max-memory",
        &"1",
    ]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--max-memory"), "{}", run.stderr);
    assert!(!big.exists());
}
