#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `walkmesh.toml`'s `[lint] level` and lint groups in `[warnings]` (a process of its own: the
//! project file is found from the process's working folder).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_walkmesh");

/// A walkable floor square and a loose walkable triangle far from it: one `lint.island`.
const ISLAND_OBJ: &str = "v 0 0 0\nv 4 0 0\nv 4 0 -4\nv 0 0 -4\nv 20 1 -20\nv 21 1 -20\nv 20 1 -21\n\
usemtl Stone\nf 1 2 3\nf 1 3 4\nf 5 6 7\n";

#[test]
fn the_project_file_sets_the_lint_level_and_group_rules() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("island.obj"), ISLAND_OBJ).unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["lint", "island.obj", "--engine", "nwn2", "--json"];
        all.extend(args);
        let output = Command::new(BIN)
            .args(&all)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).unwrap_or(serde_json::Value::Null);
        (output.status.code(), report, output.stderr)
    };
    // No project file: the island is pedantic for NWN2 and not reported.
    let (code, report, _) = run(&[]);
    assert_eq!((code, report["level"].as_str()), (Some(0), Some("default")));
    let project = dir.path().join("walkmesh.toml");
    std::fs::write(&project, "[lint]\nlevel = \"pedantic\"\n").unwrap();
    let (code, report, _) = run(&[]);
    assert_eq!(
        (code, report["level"].as_str()),
        (Some(1), Some("pedantic"))
    );
    assert_eq!(report["findings"][0]["code"], "lint.island");
    // The command line wins over the file.
    let (code, _, _) = run(&["--level", "default"]);
    assert_eq!(code, Some(0));
    // Groups in the file's rules: the pedantic group allowed.
    std::fs::write(
        &project,
        "[lint]\nlevel = \"pedantic\"\n[warnings]\nallow = [\"lint::pedantic\"]\n",
    )
    .unwrap();
    let (code, report, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(
        report["findings"][0]["rule"]
            .as_str()
            .unwrap()
            .contains("lint::pedantic")
    );
    // A level that does not exist stops the run and names the file.
    std::fs::write(&project, "[lint]\nlevel = \"loud\"\n").unwrap();
    let (code, _, stderr) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(String::from_utf8_lossy(&stderr).contains("walkmesh.toml"));
    // convert still reads a project file with a [lint] table.
    std::fs::write(
        &project,
        "[lint]\nlevel = \"pedantic\"\n[warnings]\nstrict = false\n",
    )
    .unwrap();
    let converted = Command::new(BIN)
        .args(["convert", "island.obj", "island.wok"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
}
