//! `walkmesh lint` levels, groups and baselines: `--level pedantic`, `lint::pedantic` and
//! `lint::default` in `--allow`/`--deny`, per-engine groups, and `--baseline FILE` reporting
//! only new findings (matched by code and faces, or code and position). The project file's
//! `[lint] level` is tested as a process of its own (`convert-cli/tests/lint_project_file.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;
use walkmesh_core::NavMesh;

fn walkmesh(args: &[&str]) -> (i32, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["walkmesh".into()];
    argv.extend(args.iter().map(Into::into));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = walkmesh_cli::run(argv, &mut out, &mut err);
    let text = String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err);
    (code, text)
}

/// `lint ARGS --json`: the exit code and the report.
fn lint_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["lint"];
    all.extend(args);
    all.push("--json");
    let (code, text) = walkmesh(&all);
    let report = serde_json::from_str(text.lines().collect::<String>().as_str())
        .unwrap_or_else(|e| panic!("{e}: {text}"));
    (code, report)
}

fn codes(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// Writes `mesh` as an OBJ (Z up, so no turning), faces in the mesh's order.
fn write_obj(mesh: &NavMesh, path: &Path) {
    let mut text = String::new();
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

/// A floor with a loose walkable square at (20, 20): one `lint.island`.
fn floor_with_island() -> NavMesh {
    let mut mesh = clean_floor();
    add_floor(&mut mesh, 1, 1, 20.0, 20.0, 1.0);
    mesh
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn groups_depend_on_the_engine_and_the_level_selects_them() {
    // Islands are what NWN2 bakes hold: pedantic for nwn2, default for kotor.
    assert_eq!(
        walkmesh_lint::level_of(walkmesh_lint::ISLAND, walkmesh_lint::Engine::Nwn2),
        walkmesh_lint::Level::Pedantic
    );
    assert_eq!(
        walkmesh_lint::level_of(walkmesh_lint::ISLAND, walkmesh_lint::Engine::Kotor),
        walkmesh_lint::Level::Default
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("island.obj");
    write_obj(&floor_with_island(), &file);
    let (code, report) = lint_json(&[s(&file), "--engine", "kotor"]);
    assert_eq!((code, codes(&report)), (1, vec!["lint.island".to_string()]));
    assert_eq!(report["findings"][0]["level"], "default");
    assert_eq!(report["level"], "default");
    // For NWN2 the island is pedantic: not reported at the default level, exit 0.
    let (code, report) = lint_json(&[s(&file), "--engine", "nwn2"]);
    assert_eq!((code, codes(&report)), (0, Vec::<String>::new()));
    assert_eq!(report["below_level"], 1);
    let (_, text) = walkmesh(&["lint", s(&file), "--engine", "nwn2"]);
    assert!(
        text.contains("1 pedantic not shown (--level pedantic)"),
        "{text}"
    );
    let (code, report) = lint_json(&[s(&file), "--engine", "nwn2", "--level", "pedantic"]);
    assert_eq!((code, codes(&report)), (1, vec!["lint.island".to_string()]));
    assert_eq!(report["findings"][0]["level"], "pedantic");
    assert_eq!(report["below_level"], 0);
    let (code, text) = walkmesh(&["lint", s(&file), "--level", "loud"]);
    assert_eq!(code, 2, "{text}");
}

#[test]
fn groups_work_in_allow_and_deny() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("island.obj");
    write_obj(&floor_with_island(), &file);
    let nwn2 = [s(&file), "--engine", "nwn2"];
    // Denying the group (or the code itself) reports pedantic findings at the default level.
    for rule in ["lint::pedantic", "lint.island"] {
        let (code, report) = lint_json(&[&nwn2[..], &["--deny", rule]].concat());
        assert_eq!((code, codes(&report)), (1, vec!["lint.island".to_string()]));
        assert!(
            report["findings"][0]["rule"]
                .as_str()
                .unwrap()
                .contains(rule)
        );
    }
    // A pattern with `*` keeps the level's meaning: it does not bring pedantic findings in.
    let (code, report) = lint_json(&[&nwn2[..], &["--deny", "lint.*"]].concat());
    assert_eq!((code, codes(&report)), (0, Vec::<String>::new()));
    // Allowing the group at the pedantic level: shown, but passing.
    let (code, report) = lint_json(
        &[
            &nwn2[..],
            &["--level", "pedantic", "--allow", "lint::pedantic"],
        ]
        .concat(),
    );
    assert_eq!((code, codes(&report)), (0, vec!["lint.island".to_string()]));
    // The default group names the default findings only.
    let kotor = [s(&file), "--engine", "kotor"];
    let (code, _) = lint_json(&[&kotor[..], &["--allow", "lint::default"]].concat());
    assert_eq!(code, 0);
    let (code, _) = lint_json(&[&kotor[..], &["--allow", "lint::pedantic"]].concat());
    assert_eq!(code, 1);
}

#[test]
fn a_baseline_reports_only_new_findings() {
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("before.obj");
    write_obj(&floor_with_island(), &before);
    let (code, text) = walkmesh(&["lint", s(&before), "--json"]);
    assert_eq!(code, 1);
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, &text).unwrap();
    let with_baseline = |file: &Path| lint_json(&[s(file), "--baseline", s(&baseline)]);
    // The same file: nothing new, exit 0.
    let (code, report) = with_baseline(&before);
    assert_eq!((code, codes(&report)), (0, Vec::<String>::new()));
    assert_eq!(report["baseline"]["known"], 1);
    assert_eq!(report["baseline"]["gone"], 0);

    // A face added in front renumbers every face: the island is still known (same place), and
    // a downward face is new.
    let mut after = NavMesh::default();
    after
        .vertices
        .extend([[-5.0, -5.0, 3.0], [-4.0, -5.0, 3.0], [-5.0, -4.0, 3.0]]);
    after.push_polygon(&[0, 1, 2], NON_WALK);
    let base = after.vertices.len() as u32;
    let island = floor_with_island();
    after.vertices.extend(island.vertices.iter().copied());
    for (face, corners) in island.polygons.iter().enumerate() {
        let shifted: Vec<u32> = corners.iter().map(|v| v + base).collect();
        after.push_polygon(&shifted, island.surfaces[face]);
    }
    let start = after.polygons.first_index(9);
    after.polygons.indices_mut().swap(start + 1, start + 2);
    let changed = dir.path().join("after.obj");
    write_obj(&after, &changed);
    let (code, report) = with_baseline(&changed);
    assert_eq!(
        (code, codes(&report)),
        (1, vec!["lint.downward_walkable".to_string()])
    );
    assert_eq!(report["baseline"]["known"], 1);
    // The island's faces moved from [96, 97] to [97, 98]: matched by position, not index.
    let (_, full) = lint_json(&[s(&changed)]);
    let island_faces = &full["findings"][1]["faces"];
    assert_eq!(island_faces, &serde_json::json!([97, 98]), "{full}");

    // The island fixed: nothing new, the baseline's finding is gone.
    let clean = dir.path().join("clean.obj");
    write_obj(&clean_floor(), &clean);
    let (code, report) = with_baseline(&clean);
    assert_eq!(
        (code, report["baseline"]["gone"].clone()),
        (0, Value::from(1))
    );
    let (_, text) = walkmesh(&["lint", s(&clean), "--baseline", s(&baseline)]);
    assert!(text.contains("0 in the baseline"), "{text}");

    // A baseline that is not lint's JSON is refused, naming the file.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"findings\": [{\"code\": 3}]}").unwrap();
    let (code, text) = walkmesh(&["lint", s(&before), "--baseline", s(&broken)]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("broken.json") && text.contains("findings[0]"),
        "{text}"
    );
}
