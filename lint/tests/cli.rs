//! `walkmesh lint` end to end: JSON shape, exit codes, --allow/--deny, --fix writing a file
//! that our validator accepts and whose lint is clean, and areas (rooms + LYT).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;
use walkmesh_core::{Diagnostics, EdgeRef, EdgeTag, Input, NavMesh, ReadOptions, WriteOptions};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn walkmesh(args: &[&str]) -> Run {
    let mut argv: Vec<std::ffi::OsString> = vec!["walkmesh".into()];
    argv.extend(args.iter().map(Into::into));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = walkmesh_cli::run(argv, &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// Writes `mesh` as an OBJ by hand, Y up as Blender exports, faces in the mesh's order (our
/// OBJ writer groups faces by material, which would renumber them).
fn write_obj(mesh: &NavMesh, path: &Path) {
    let mut text = String::from("# lint fixture\n");
    for p in &mesh.vertices {
        text.push_str(&format!("v {} {} {}\n", p[0], p[2], -p[1]));
    }
    for (face, corners) in mesh.polygons.iter().enumerate() {
        let name = mesh.surfaces[face].material.name();
        text.push_str(&format!("usemtl {name}\nf"));
        for v in corners {
            text.push_str(&format!(" {}", v + 1));
        }
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// Writes `mesh` to `path` with the writer of its extension (OBJ by hand, see [`write_obj`]).
fn write(mesh: &NavMesh, path: &Path) {
    if path.extension().is_some_and(|e| e == "obj") {
        return write_obj(mesh, path);
    }
    let registry = walkmesh_formats::default_registry();
    let extension = path.extension().unwrap().to_str().unwrap();
    let (format, _) = walkmesh_pipeline_target(&registry, extension);
    let options = WriteOptions {
        file_name: Some(path.file_name().unwrap().to_str().unwrap().to_string()),
        ..WriteOptions::default()
    };
    let output = format
        .writer()
        .unwrap()
        .write(mesh, &options, &mut Diagnostics::new())
        .unwrap();
    std::fs::write(path, &output.main).unwrap();
    for sidecar in &output.sidecars {
        std::fs::write(path.with_file_name(&sidecar.file_name), &sidecar.bytes).unwrap();
    }
}

fn walkmesh_pipeline_target<'r>(
    registry: &'r walkmesh_core::Registry,
    extension: &str,
) -> (&'r dyn walkmesh_core::Format, String) {
    let format = registry
        .by_extension(Path::new(&format!("x.{extension}")))
        .find(|f| f.writer().is_some())
        .unwrap();
    (format, extension.to_string())
}

fn read(path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    format
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
        .unwrap()
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr))
}

fn codes(report: &Value, key: &str) -> Vec<String> {
    report[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn json_shape_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.obj");
    write(&clean_floor(), &clean);
    let run = walkmesh(&["lint", path_str(&clean), "--json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(json(&run)["findings"], Value::Array(vec![]));

    let mut mesh = clean_floor();
    let start = mesh.polygons.first_index(9);
    mesh.polygons.indices_mut().swap(start + 1, start + 2);
    let downward = dir.path().join("downward.obj");
    write(&mesh, &downward);
    let run = walkmesh(&["lint", path_str(&downward), "--json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run);
    let finding = &report["findings"][0];
    assert_eq!(finding["code"], "lint.downward_walkable");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["faces"], serde_json::json!([9]));
    assert_eq!(finding["fixable"], true);
    assert!(finding["message"].as_str().unwrap().contains("faces down"));
    // `at` in the tool's frame, Z up: the OBJ is Y-up on disk, the floor lies at height 0.
    let at: Vec<f64> = finding["at"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        (at[0] - 4.333).abs() < 1e-3 && (at[1] - 0.667).abs() < 1e-3 && at[2].abs() < 1e-6,
        "{at:?}"
    );

    let text = walkmesh(&["lint", path_str(&downward)]);
    assert_eq!(text.code, 1);
    assert!(
        text.stdout.contains("warning [lint.downward_walkable]"),
        "{}",
        text.stdout
    );

    let missing = dir.path().join("missing.wok");
    assert_eq!(walkmesh(&["lint", path_str(&missing)]).code, 2);
}

#[test]
fn allow_and_deny_follow_the_conversion_policy() {
    let dir = tempfile::tempdir().unwrap();
    let mut mesh = clean_floor();
    add_floor(&mut mesh, 1, 1, 20.0, 20.0, 1.0);
    let file = dir.path().join("island.obj");
    write(&mesh, &file);
    let run = walkmesh(&["lint", path_str(&file), "--json"]);
    assert_eq!(
        (run.code, codes(&json(&run), "findings")),
        (1, vec!["lint.island".to_string()])
    );
    let run = walkmesh(&["lint", path_str(&file), "--json", "--allow", "lint.*"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        json(&run)["findings"][0]["rule"]
            .as_str()
            .unwrap()
            .starts_with("allow")
    );
    let run = walkmesh(&[
        "lint",
        path_str(&file),
        "--allow",
        "lint.*",
        "--deny",
        "lint.island",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

/// Runs `lint IN --fix OUT --json`, checks OUT with `validate` and lints it again, and compares
/// walkable area per material.
fn fix_and_check(input: &Path, out: &Path, fixed_codes: &[&str]) -> Value {
    let run = walkmesh(&["lint", path_str(input), "--fix", path_str(out), "--json"]);
    let report = json(&run);
    assert_eq!(run.code, 0, "{:#}", report);
    for code in fixed_codes {
        assert!(
            codes(&report, "findings").iter().any(|c| c == code),
            "{code}"
        );
        assert!(
            codes(&report["fixed"], "repairs").iter().any(|c| c == code),
            "{code} not reported repaired: {:#}",
            report["fixed"]
        );
    }
    let validate = walkmesh(&["validate", path_str(out)]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    let again = walkmesh(&["lint", path_str(out), "--json"]);
    assert_eq!(again.code, 0, "{}", again.stdout);
    assert_eq!(json(&again)["findings"], Value::Array(vec![]));
    // Walkable area per material within 1%.
    let (before, after) = (read(input), read(out));
    for material in [STONE.material, GRASS.material] {
        let per = |mesh: &NavMesh| -> f64 {
            let mut only = mesh.clone();
            for surface in &mut only.surfaces {
                surface.walkable &= surface.material == material;
            }
            walkmesh_lint::walkable_area(&only)
        };
        let (a, b) = (per(&before), per(&after));
        assert!(
            a > 0.0 && (a - b).abs() <= 0.01 * a,
            "{material:?}: {a} → {b}"
        );
    }
    report
}

#[test]
fn fix_writes_a_valid_clean_file() {
    let dir = tempfile::tempdir().unwrap();
    // Downward, degenerate and duplicate faces, in an OBJ.
    let mut mesh = clean_floor();
    let start = mesh.polygons.first_index(9);
    mesh.polygons.indices_mut().swap(start + 1, start + 2);
    let corners = mesh.polygons.get(20).to_vec();
    mesh.push_polygon(&corners, mesh.surfaces[20]);
    let n = mesh.vertices.len() as u32;
    mesh.vertices.push([3.0, 0.0, 0.0]);
    mesh.push_polygon(&[1, 2, n], GRASS); // zero area on the floor's front edge
    let faces = dir.path().join("faces.obj");
    write(&mesh, &faces);
    for out in ["faces_fixed.obj", "faces_fixed.wok"] {
        fix_and_check(
            &faces,
            &dir.path().join(out),
            &["lint.downward_walkable", "lint.overlap", "lint.degenerate"],
        );
    }
    // An open seam 2 cm wide and a height seam, in KotOR rooms: joined after the fix.
    for (rise, gap, code) in [
        (0.0, 0.02, "lint.open_seam"),
        (0.2, 0.0, "lint.height_seam"),
    ] {
        let (mesh, _, _) = split_floor(rise, gap);
        let room = dir.path().join("seam.wok");
        write(&mesh, &room);
        let out = dir.path().join("seam_fixed.wok");
        fix_and_check(&room, &out, &[code]);
        let fixed = read(&out);
        let adjacency = walkmesh_core::passes::edge_adjacency(&fixed, |_| true);
        let components = walkmesh_core::passes::connected_components(&fixed, &adjacency, |_| true);
        assert_eq!(components.count, 1);
    }
    // A T-junction.
    let (mesh, _) = t_junction_floor();
    let room = dir.path().join("tee.wok");
    write(&mesh, &room);
    fix_and_check(
        &room,
        &dir.path().join("tee_fixed.wok"),
        &["lint.t_junction"],
    );
}

/// A hand-made area: two 2 × 2 rooms meeting at x = 2, transitions on the seam as given.
fn area(dir: &Path, left_names: Option<i32>, right_names: Option<i32>) -> PathBuf {
    let folder = dir.join(format!("area_{left_names:?}_{right_names:?}"));
    std::fs::create_dir_all(&folder).unwrap();
    for (name, x, seam_edge, names) in [
        ("room0", 0.0, 1u32, left_names),
        ("room1", 2.0, 2u32, right_names),
    ] {
        let mut mesh = NavMesh::default();
        add_floor(&mut mesh, 2, 2, x, 0.0, 0.0);
        // The seam faces: left room squares (1, r) first triangles; right room (0, r) second.
        let faces = if seam_edge == 1 { [2, 6] } else { [1, 5] };
        if let Some(transition) = names {
            for face in faces {
                mesh.edge_tags.insert(
                    EdgeRef {
                        polygon: face,
                        edge: seam_edge,
                    },
                    EdgeTag { transition },
                );
            }
        }
        write(&mesh, &folder.join(format!("{name}.wok")));
    }
    std::fs::write(
        folder.join("area.lyt"),
        "beginlayout\nroomcount 2\n  room0 0 0 0\n  room1 0 0 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    folder
}

#[test]
fn areas_check_transitions_between_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let good = area(dir.path(), Some(1), Some(0));
    let run = walkmesh(&["lint", path_str(&good), "--json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let one_sided = area(dir.path(), Some(1), None);
    let run = walkmesh(&["lint", path_str(&one_sided), "--json"]);
    assert_eq!(run.code, 1);
    let report = json(&run);
    assert_eq!(
        codes(&report, "findings"),
        vec!["lint.transition_target"; 2]
    );
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("does not name room 0 back")
    );
    let wrong = area(dir.path(), Some(5), Some(0));
    let run = walkmesh(&[
        "lint",
        path_str(&wrong),
        "--lyt",
        path_str(&wrong.join("area.lyt")),
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("layout has 2 rooms"), "{}", run.stdout);
    // An area's --fix names a folder, never an existing file.
    let file = dir.path().join("x.wok");
    std::fs::write(&file, b"not a folder").unwrap();
    let run = walkmesh(&["lint", path_str(&good), "--fix", path_str(&file)]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not a folder"), "{}", run.stderr);
    assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");
}

/// The hand-made area of [`area`] with two defects in room0: its face 0 turned upside down
/// and face 3 duplicated (appended, so the seam faces keep their numbers).
fn defective_area(dir: &Path) -> PathBuf {
    let folder = area(dir, Some(1), Some(0));
    let room0 = folder.join("room0.wok");
    let mut mesh = read(&room0);
    let start = mesh.polygons.first_index(0);
    mesh.polygons.indices_mut().swap(start + 1, start + 2);
    let corners = mesh.polygons.get(3).to_vec();
    mesh.push_polygon(&corners, mesh.surfaces[3]);
    write(&mesh, &room0);
    folder
}

#[test]
fn area_fix_writes_every_room_repaired_or_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let input = defective_area(dir.path());
    let lyt = input.join("area.lyt");
    let out = dir.path().join("fixed/rooms");
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out), "--json"]);
    let report = json(&run);
    assert_eq!(run.code, 0, "{report:#}");
    let found = codes(&report, "findings");
    for code in ["lint.downward_walkable", "lint.overlap"] {
        assert!(found.iter().any(|c| c == code), "{code}: {found:?}");
    }
    // Each repair names room0 and faces in room0's own numbering.
    let repairs = report["fixed"]["repairs"].as_array().unwrap();
    let repaired: Vec<(&str, &str, Vec<u64>)> = repairs
        .iter()
        .map(|r| {
            let faces = r["faces"].as_array().unwrap();
            (
                r["room"].as_str().unwrap(),
                r["code"].as_str().unwrap(),
                faces.iter().map(|f| f.as_u64().unwrap()).collect(),
            )
        })
        .collect();
    assert!(
        repaired.contains(&("room0", "lint.downward_walkable", vec![0])),
        "{repaired:?}"
    );
    assert!(
        repaired.iter().any(|(room, code, faces)| *room == "room0"
            && *code == "lint.overlap"
            && faces.contains(&8)),
        "{repaired:?}"
    );
    assert!(repaired.iter().all(|(room, _, _)| *room == "room0"));
    assert_eq!(report["fixed"]["remaining"], Value::Array(vec![]));
    // A 2 × 2 room each, before and after (the duplicate counted once by the area measure).
    let (before, after) = (
        report["fixed"]["walkable_area_before"].as_f64().unwrap(),
        report["fixed"]["walkable_area_after"].as_f64().unwrap(),
    );
    assert!(
        (after - 8.0).abs() < 1e-6 && (before - after).abs() <= 0.01 * before,
        "{before} → {after}"
    );
    // Every room written; the clean one byte for byte, the repaired one valid.
    assert_eq!(
        std::fs::read(out.join("room1.wok")).unwrap(),
        std::fs::read(input.join("room1.wok")).unwrap()
    );
    let room0 = read(&out.join("room0.wok"));
    assert_eq!(room0.polygons.len(), 8);
    assert_eq!(
        room0.edge_tags.len(),
        2,
        "the transitions to room1 are kept"
    );
    let validate = walkmesh(&["validate", path_str(&out.join("room0.wok"))]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    // The repaired area (written rooms + the same layout) lints clean.
    let again = walkmesh(&["lint", path_str(&out), "--lyt", path_str(&lyt), "--json"]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert_eq!(json(&again)["findings"], Value::Array(vec![]));
    // The text form names the room of each repair.
    let out2 = dir.path().join("text");
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out2)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("repaired [lint.downward_walkable] in room room0 faces [0]"),
        "{}",
        run.stdout
    );
}

/// A face stored in two rooms is not one room's defect: not fixable, and --fix leaves it.
#[test]
fn a_duplicate_across_rooms_is_left_to_the_author() {
    let dir = tempfile::tempdir().unwrap();
    let input = area(dir.path(), Some(1), Some(0));
    let room1 = input.join("room1.wok");
    let mut mesh = read(&room1);
    let base = mesh.vertices.len() as u32;
    // room0's face 0: (0,0) (1,0) (1,1), at height 0.
    mesh.vertices
        .extend([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]);
    mesh.push_polygon(&[base, base + 1, base + 2], STONE);
    write(&mesh, &room1);
    let out = dir.path().join("out");
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out), "--json"]);
    let report = json(&run);
    assert_eq!(run.code, 1, "{report:#}");
    let overlaps: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "lint.overlap")
        .collect();
    assert_eq!(overlaps.len(), 1, "{report:#}");
    assert_eq!(overlaps[0]["fixable"], false);
    assert_eq!(overlaps[0]["faces"], serde_json::json!([0, 16]));
    assert_eq!(report["fixed"]["repairs"], Value::Array(vec![]));
    // Nothing changed: the same findings remain (the copy's edges also meet room0's edges
    // without transitions, lint.transition_missing).
    assert_eq!(
        codes(&report["fixed"], "remaining"),
        codes(&report, "findings")
    );
    assert_eq!(
        std::fs::read(out.join("room1.wok")).unwrap(),
        std::fs::read(&room1).unwrap()
    );
}

#[test]
fn area_fix_writes_nothing_when_a_room_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = defective_area(dir.path());
    let out = dir.path().join("out");
    // room1's target is a folder: room0 (repaired, staged first) must not land either.
    std::fs::create_dir_all(out.join("room1.wok")).unwrap();
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out)]);
    assert_ne!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("room1.wok"), "{}", run.stderr);
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("room1.wok")]);
}

#[test]
fn area_fix_reports_rooms_still_without_a_walkmesh() {
    let dir = tempfile::tempdir().unwrap();
    let input = defective_area(dir.path());
    std::fs::write(
        input.join("area.lyt"),
        "beginlayout\nroomcount 3\n  room0 0 0 0\n  room1 0 0 0\n  room2 0 0 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out), "--json"]);
    let report = json(&run);
    assert_eq!(run.code, 1, "{report:#}");
    assert_eq!(
        codes(&report["fixed"], "remaining"),
        vec!["lint.room_without_walkmesh"]
    );
    assert!(out.join("room0.wok").is_file() && out.join("room1.wok").is_file());
    assert!(!out.join("room2.wok").exists());
}

#[test]
fn area_fix_refuses_a_hostile_room_name_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let input = defective_area(dir.path());
    std::fs::write(
        input.join("area.lyt"),
        "beginlayout\nroomcount 3\n  room0 0 0 0\n  room1 0 0 0\n  ../x 0 0 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = walkmesh(&["lint", path_str(&input), "--fix", path_str(&out)]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("../x"), "{}", run.stderr);
    assert!(!out.exists(), "nothing written");
    assert!(!dir.path().join("x.wok").exists());
}
