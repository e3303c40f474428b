#![cfg(all(feature = "obj", feature = "gltf", feature = "bwm", feature = "prime"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The command line in a build pipeline (in-process): safe output (symbolic links, FIFOs,
//! directories, sidecars, missing directories, permission bits kept), machine-readable runs
//! (`--json`, `--quiet`, `--strict`, JSON errors, exit codes), checking the output before it
//! is written, numeric option checks, `validate`'s per-code cap, batch conversion and
//! `profiles`. Signals, the umask and closed pipes need a real process: see
//! `convert-cli/tests/process.rs`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

fn fixture(name: &str) -> PathBuf {
    fixtures_dir().join("obj").join(name)
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn overwriting_keeps_the_targets_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("room.wok");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(mode(&out), 0o640);
    assert!(std::fs::read(&out).unwrap().starts_with(b"BWM V1.0"));
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o604)).unwrap();
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out])).code,
        0
    );
    assert_eq!(mode(&out), 0o604);
}

#[cfg(unix)]
#[test]
fn a_symlink_as_out_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.glb");
    let link = dir.path().join("link.glb");
    std::fs::write(&real, "stale").unwrap();
    std::os::unix::fs::symlink("real.glb", &link).unwrap();
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &link]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read(&real).unwrap().starts_with(b"glTF"));
    // A dangling link: its target is created.
    let dangling = dir.path().join("dangling.glb");
    std::os::unix::fs::symlink("made.glb", &dangling).unwrap();
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &dangling])).code,
        0
    );
    assert!(
        std::fs::read(dir.path().join("made.glb"))
            .unwrap()
            .starts_with(b"glTF")
    );
    assert!(names(dir.path()).iter().all(|n| !n.ends_with(".tmp")));
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_directories_are_refused_as_out_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.glb");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &fifo]));
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert!(run.stderr.contains("FIFO"), "{}", run.stderr);
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo_like(),
            "the FIFO must stay"
        );
    } else {
        eprintln!("notice: mkfifo unavailable; FIFO case skipped");
    }
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &"/dev/null",
        &"--to",
        &"bwm",
    ]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("device"), "{}", run.stderr);
    let folder = dir.path().join("folder.wok");
    std::fs::create_dir(&folder).unwrap();
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &folder]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("directory"), "{}", run.stderr);
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}

#[cfg(unix)]
impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_fifo(self)
    }
}

#[test]
fn dash_writes_one_file_formats_to_stdout_and_refuses_sidecar_formats() {
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &"-",
        &"--to",
        &"bwm",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The BWM bytes (the lossy conversion to String keeps the ASCII header).
    assert!(
        run.stdout.starts_with("BWM V1.0"),
        "{:?}",
        &run.stdout[..20]
    );
    assert!(run.stderr.contains("wrote -"), "{}", run.stderr);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("same.wok");
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &file])).code,
        0
    );
    // `-` never becomes a file named `-`.
    assert!(!Path::new("-").exists());
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &"-",
        &"--to",
        &"obj",
    ]));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("standard output"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &"-"]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--to"), "{}", run.stderr);
}

#[test]
fn a_sidecar_walkmesh_did_not_write_is_kept_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("room.obj");
    let mtl = dir.path().join("room.mtl");
    std::fs::write(&mtl, "# Blender MTL File\nnewmtl Stone\n").unwrap();
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&mtl).unwrap(),
        "# Blender MTL File\nnewmtl Stone\n"
    );
    assert_eq!(
        names(dir.path()),
        ["room.mtl"],
        "nothing new is left behind"
    );
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--force",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        std::fs::read_to_string(&mtl)
            .unwrap()
            .starts_with("# walkmesh")
    );
    // Our own .mtl is replaced without --force.
    let run = walkmesh(os(&[&"convert", &fixture("flat_floor.obj"), &out]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // So is a .bin that the .gltf we replace (ours) refers to.
    let gltf = dir.path().join("scene.gltf");
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &gltf])).code,
        0
    );
    assert!(dir.path().join("scene.bin").exists());
    let run = walkmesh(os(&[&"convert", &fixture("flat_floor.obj"), &gltf]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A .bin beside a .gltf that is not ours is kept.
    std::fs::write(
        &gltf,
        r#"{"asset":{"version":"2.0","generator":"Blender"}}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("scene.bin"), [1u8, 2, 3]).unwrap();
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &gltf]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("scene.bin")).unwrap(),
        [1, 2, 3]
    );
}

#[test]
fn an_output_named_like_its_own_sidecar_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o2.mtl");
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--to",
        &"obj",
    ]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("its own sidecar"), "{}", run.stderr);
    assert!(names(dir.path()).is_empty());
    let out = dir.path().join("o2.bin");
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--to",
        &"gltf",
    ]));
    // `--to gltf` with a name that is not .gltf writes a .glb: no sidecar, no clash.
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::read(&out).unwrap().starts_with(b"glTF"));
}

#[test]
fn a_failure_writing_any_file_leaves_nothing_new_behind() {
    let dir = tempfile::tempdir().unwrap();
    // The sidecar's name is taken by a directory: the main file must not appear either.
    std::fs::create_dir(dir.path().join("room.mtl")).unwrap();
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &dir.path().join("room.obj"),
    ]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(names(dir.path()), ["room.mtl"]);
    // A regular file where the output's directory should be: nothing can be staged there,
    // with or without --create-dirs (which cannot make a directory over a file): exit 3, the
    // file untouched, nothing new beside it. Unlike a read-only directory, this fails for root
    // too, which CI runs as.
    let blocker = dir.path().join("blocker");
    std::fs::write(&blocker, "not a directory").unwrap();
    let out = blocker.join("room.obj");
    for create_dirs in [false, true] {
        let mut args = os(&[&"convert", &fixture("two_rooms.obj"), &out]);
        if create_dirs {
            args.push("--create-dirs".into());
        }
        let run = walkmesh(args);
        assert_eq!(run.code, 3, "--create-dirs {create_dirs}: {}", run.stderr);
        assert!(
            run.stderr.contains(&blocker.display().to_string()),
            "the error names the path: {}",
            run.stderr
        );
        assert_eq!(std::fs::read(&blocker).unwrap(), b"not a directory");
        assert_eq!(names(dir.path()), ["blocker", "room.mtl"]);
    }
}

#[test]
fn a_missing_directory_is_named_and_can_be_created() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new/sub/room.glb");
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out]));
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "the directory {} does not exist",
            dir.path().join("new/sub").display()
        )),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(".walkmesh-"), "{}", run.stderr);
    assert!(run.stderr.contains("--create-dirs"));
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--create-dirs",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(out.exists());
}

#[test]
fn numeric_options_must_be_finite_and_in_range() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.wok");
    for (option, value) in [
        ("--weld", "nan"),
        ("--weld", "inf"),
        ("--weld", "-inf"),
        ("--weld", "-0.5"),
        ("--weld", "1e39"),
        ("--weld", "abc"),
        ("--region-height", "0"),
        ("--region-height", "NaN"),
        ("--region-height", "-1"),
        ("--max-decompressed", "0"),
        ("--max-decompressed", "99999999"),
        ("--jobs", "0"),
    ] {
        let run = walkmesh(os(&[
            &"convert",
            &fixture("two_rooms.obj"),
            &out,
            &option,
            &value,
        ]));
        assert_eq!(run.code, 2, "{option} {value}: {}", run.stderr);
        assert!(
            run.stderr.contains(option) && run.stderr.contains("invalid value"),
            "{option} {value}: {}",
            run.stderr
        );
        assert!(!out.exists());
    }
    // A finite weld that merges every polygon away is refused, not written as 0 faces.
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--weld",
        &"1e30",
    ]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no polygon"), "{}", run.stderr);
    assert!(!out.exists());
    // Sane values still work.
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &out,
        &"--weld",
        &"0.001",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// An OBJ quad that repeats a vertex at corners apart reads (the OBJ reader keeps it) but our
/// validator rejects it (`mesh.repeated_vertex`): OBJ and glTF writers (which keep polygons
/// as they are) would write it, so the check before renaming must refuse it. (A repeat at
/// neighbouring corners is removed by `prepare`, see tests/tests/degenerate_faces.rs.)
fn repeated_vertex_obj(dir: &Path) -> PathBuf {
    let input = dir.join("repeated.obj");
    // The directive marks the file as this project's (authored vertex identity), so the
    // default weld for modelling-tool input does not drop the bad face first.
    std::fs::write(
        &input,
        "#@walkmesh kind area\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 2 1 4\n",
    )
    .unwrap();
    input
}

#[test]
fn an_output_our_validator_rejects_is_not_written_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let input = repeated_vertex_obj(dir.path());
    for out in ["bad.obj", "bad.gltf"] {
        let out = dir.path().join(out);
        let run = walkmesh(os(&[&"convert", &input, &out]));
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains("refusing to write") && run.stderr.contains("mesh.repeated_vertex"),
            "{}",
            run.stderr
        );
        assert_eq!(names(dir.path()), ["repeated.obj"], "{}", out.display());
    }
    let out = dir.path().join("bad.obj");
    let run = walkmesh(os(&[
        &"convert",
        &input,
        &out,
        &"--allow-invalid",
        &"--json",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["output_errors"], 1);
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "mesh.repeated_vertex" && d["severity"] == "error")
    );
    assert!(out.exists());
    // JSON error shape for the refusal.
    let run = walkmesh(os(&[
        &"convert",
        &input,
        &dir.path().join("b.obj"),
        &"--json",
    ]));
    assert_eq!(run.code, 2);
    let error: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(error["error"]["code"], "cli.invalid_output");
    assert_eq!(
        error["error"]["diagnostics"][0]["code"],
        "mesh.repeated_vertex"
    );
}

#[test]
fn convert_json_reports_what_the_written_file_holds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("strip.path");
    let run = walkmesh(os(&[
        &"convert",
        &fixture("strip_with_column.obj"),
        &out,
        &"--json",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.is_empty(),
        "warnings go into the JSON: {}",
        run.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["from"], "obj");
    assert_eq!(report["to"], "path");
    assert_eq!(report["bytes"], std::fs::metadata(&out).unwrap().len());
    // The counts are those of the file written, read back independently here.
    let info = walkmesh(os(&[&"info", &out, &"--json"]));
    let info: serde_json::Value = serde_json::from_str(&info.stdout).unwrap();
    assert_eq!(report["written"]["faces"], info["faces"]);
    assert_eq!(report["written"]["walkable_faces"], info["walkable_faces"]);
    // PATH keeps only walkable regions: fewer faces than were read.
    assert!(report["written"]["faces"].as_u64() < report["read"]["faces"].as_u64());
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "path.non_walkable_dropped")
    );
    // The plain summary line counts the written file too, in regions.
    let plain = walkmesh(os(&[
        &"convert",
        &fixture("strip_with_column.obj"),
        &dir.path().join("again.path"),
    ]));
    assert!(
        plain.stdout.contains(&format!(
            "{} regions (from {} faces read)",
            info["faces"], report["read"]["faces"]
        )),
        "{}",
        plain.stdout
    );
}

#[test]
fn quiet_prints_nothing_and_strict_fails_on_warnings_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("strip.path");
    let run = walkmesh(os(&[
        &"convert",
        &fixture("strip_with_column.obj"),
        &out,
        &"--quiet",
    ]));
    assert_eq!(run.code, 0);
    assert!(run.stdout.is_empty() && run.stderr.is_empty(), "{run:?}");
    std::fs::remove_file(&out).unwrap();
    let run = walkmesh(os(&[
        &"convert",
        &fixture("strip_with_column.obj"),
        &out,
        &"--strict",
    ]));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("path.non_walkable_dropped"),
        "{}",
        run.stderr
    );
    assert!(
        names(dir.path()).is_empty(),
        "nothing written under --strict"
    );
    // A conversion without warnings passes --strict.
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &dir.path().join("rooms.wok"),
        &"--strict",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn json_commands_print_json_errors() {
    for command in ["info", "validate", "convert"] {
        let mut args = vec![command, "/nonexistent/room.wok"];
        if command == "convert" {
            args.push("/tmp/never-written.glb");
        }
        args.push("--json");
        let run = walkmesh(args);
        assert_eq!(run.code, 2, "{command}");
        let error: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(error["error"]["code"], "cli.input", "{command}");
        assert_eq!(error["error"]["exit_code"], 2);
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("/nonexistent/room.wok")
        );
    }
    let run = walkmesh(["info", "--json", "--no-such-option", "x"]);
    assert_eq!(run.code, 2);
    let error: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(error["error"]["code"], "cli.usage");
}

#[test]
fn validate_caps_every_code_and_summarises_per_code() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("flat.obj");
    // 30 zero-area triangles (all corners on one line) and 12 that face down.
    let mut text = String::new();
    for i in 0..30 {
        let x = i as f32 * 3.0;
        text.push_str(&format!(
            "v {x} 0 0\nv {} 0 0\nv {} 0 0\n",
            x + 1.0,
            x + 2.0
        ));
    }
    for i in 0..12 {
        let x = i as f32 * 3.0;
        // Y up in the file: (x, 5, z); clockwise seen from above in the IR.
        text.push_str(&format!("v {x} 5 0\nv {} 5 0\nv {x} 5 1\n", x + 1.0));
    }
    // A named material, so the only warnings are the mesh checks counted below.
    text.push_str("usemtl Stone\n");
    for t in 0..42 {
        let a = t * 3 + 1;
        text.push_str(&format!("f {a} {} {}\n", a + 1, a + 2));
    }
    std::fs::write(&input, text).unwrap();
    let run = walkmesh(os(&[&"validate", &input]));
    let degenerate = run
        .stdout
        .lines()
        .filter(|l| l.contains("[mesh.degenerate_walkable_polygon]") && l.starts_with("warning"))
        .count();
    let downward = run
        .stdout
        .lines()
        .filter(|l| l.contains("[mesh.downward_walkable]") && l.starts_with("warning"))
        .count();
    assert_eq!((degenerate, downward), (10, 10), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("30 warning [mesh.degenerate_walkable_polygon] (20 not shown"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("12 warning [mesh.downward_walkable] (2 not shown"),
        "{}",
        run.stdout
    );
    let all = walkmesh(os(&[&"validate", &input, &"--max-per-code", &"0"]));
    assert_eq!(
        all.stdout
            .lines()
            .filter(|l| l.starts_with("warning [mesh.degenerate_walkable_polygon]"))
            .count(),
        30
    );
    let json = walkmesh(os(&[&"validate", &input, &"--json"]));
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["warnings"].as_array().unwrap().len(), 30 + 12);
    let summary = report["summary"].as_array().unwrap();
    let count = |code: &str| {
        summary
            .iter()
            .find(|c| c["code"] == code)
            .map(|c| c["count"].as_u64().unwrap())
    };
    assert_eq!(count("mesh.degenerate_walkable_polygon"), Some(30));
    assert_eq!(count("mesh.downward_walkable"), Some(12));
}

#[test]
fn profiles_prints_each_embedded_profile_as_a_usable_file() {
    let list = walkmesh(["profiles"]);
    assert_eq!(list.code, 0);
    for name in ["neutral", "kotor", "nwn2", "prime"] {
        assert!(list.stdout.contains(name), "{name}: {}", list.stdout);
        let run = walkmesh(["profiles", name]);
        assert_eq!(run.code, 0, "{name}");
        let profile = walkmesh_core::MaterialProfile::parse(&run.stdout).unwrap();
        assert_eq!(profile.engine, name);
    }
    // By format id too, and the printed file works with --materials.
    let run = walkmesh(["profiles", "bwm"]);
    let kotor: walkmesh_core::MaterialProfile =
        walkmesh_core::MaterialProfile::parse(&run.stdout).unwrap();
    assert_eq!(kotor.engine, "kotor");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.ron");
    std::fs::write(&file, walkmesh(["profiles", "obj"]).stdout).unwrap();
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &dir.path().join("x.glb"),
        &"--materials",
        &file,
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(walkmesh(["profiles", "nope"]).code, 2);
}

#[test]
fn batch_converts_trees_keeps_relative_paths_and_skips_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(inputs.join("sub/deeper")).unwrap();
    for (name, into) in [
        ("two_rooms.obj", "a.obj"),
        ("flat_floor.obj", "sub/b.obj"),
        ("strip_with_column.obj", "sub/deeper/c.obj"),
        ("room_with_hole.obj", "sub/c.OBJ"),
    ] {
        std::fs::copy(fixture(name), inputs.join(into)).unwrap();
    }
    std::fs::write(inputs.join("sub/broken.obj"), "v 0 0 0\nf 1 2 3\n").unwrap();
    std::fs::write(inputs.join("notes.txt"), "not a mesh").unwrap();
    let run_with = |jobs: &str, out: &Path| {
        std::fs::create_dir_all(out).unwrap();
        walkmesh(os(&[
            &"convert",
            &inputs,
            &"--out-dir",
            &out,
            &"--to",
            &"glb",
            &"--jobs",
            &jobs,
            &"--report",
            &out.with_extension("jsonl"),
        ]))
    };
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let run = run_with("1", &one);
    assert_eq!(run.code, 2, "one file is bad: {}", run.stderr);
    assert!(run.stderr.contains("broken.obj"), "{}", run.stderr);
    assert!(run.stdout.contains("converted 4 of 5"), "{}", run.stdout);
    assert_eq!(run_with("2", &two).code, 2);
    let mut written: Vec<String> = Vec::new();
    collect(&one, &one, &mut written);
    written.sort();
    // `sub/c.OBJ` and `sub/deeper/c.obj` differ by directory; no clash.
    assert_eq!(
        written,
        ["a.glb", "sub/b.glb", "sub/c.glb", "sub/deeper/c.glb"]
    );
    for name in &written {
        assert_eq!(
            std::fs::read(one.join(name)).unwrap(),
            std::fs::read(two.join(name)).unwrap(),
            "{name} differs between --jobs 1 and --jobs 2"
        );
    }
    let report = std::fs::read_to_string(one.with_extension("jsonl")).unwrap();
    assert_eq!(
        report,
        std::fs::read_to_string(two.with_extension("jsonl"))
            .unwrap()
            .replace("/two/", "/one/")
            .replace("two.jsonl", "one.jsonl")
    );
    let lines: Vec<serde_json::Value> = report
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines.iter().filter(|l| l["status"] == "failed").count(), 1);
    let ok = lines.iter().find(|l| l["status"] == "converted").unwrap();
    assert!(ok["conversion"]["written"]["faces"].as_u64().unwrap() > 0);
}

fn collect(root: &Path, dir: &Path, into: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, into);
        } else {
            into.push(
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}

#[test]
fn batch_names_clashing_outputs_after_their_source_and_takes_globs() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(fixture("two_rooms.obj"), inputs.join("room.obj")).unwrap();
    let glb = inputs.join("room.glb");
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("flat_floor.obj"), &glb])).code,
        0
    );
    let out = dir.path().join("out");
    let run = walkmesh(os(&[
        &"convert",
        &inputs,
        &"--out-dir",
        &out,
        &"--to",
        &"wok",
        &"--create-dirs",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(names(&out), ["room.glb.wok", "room.obj.wok"]);
    // A quoted glob: paths relative to its fixed prefix.
    let out2 = dir.path().join("out2");
    std::fs::create_dir(&out2).unwrap();
    let pattern = format!("{}/*.obj", inputs.display());
    let run = walkmesh(os(&[
        &"convert",
        &pattern,
        &"--out-dir",
        &out2,
        &"--to",
        &"bwm",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(names(&out2), ["room.bwm"]);
    // A missing --out-dir is named; batch options need --out-dir.
    let run = walkmesh(os(&[
        &"convert",
        &inputs,
        &"--out-dir",
        &dir.path().join("nope"),
        &"--to",
        &"glb",
    ]));
    assert_eq!(run.code, 3);
    assert!(run.stderr.contains("nope"), "{}", run.stderr);
    let run = walkmesh(os(&[
        &"convert",
        &fixture("two_rooms.obj"),
        &dir.path().join("x.glb"),
        &"--jobs",
        &"2",
    ]));
    assert_eq!(run.code, 2);
}

/// Every shared KotOR and NWN2 file to .glb and back to its engine's format (`--to bwm` keeps
/// each KotOR mesh's kind), with 1 and 2
/// threads: identical bytes.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn batch_over_the_shared_corpora_round_trips_identically_for_any_job_count() {
    let corpora = required_corpora();
    let dir = tempfile::tempdir().unwrap();
    for (family, back_to) in [("kotor", "bwm"), ("nwn2", "trx")] {
        let input = corpora.join(family);
        if !input.is_dir() {
            continue;
        }
        let mut trees = Vec::new();
        for jobs in ["1", "2"] {
            let glb = dir.path().join(format!("{family}-glb{jobs}"));
            let back = dir.path().join(format!("{family}-back{jobs}"));
            let started = std::time::Instant::now();
            let run = walkmesh(os(&[
                &"convert",
                &input,
                &"--out-dir",
                &glb,
                &"--to",
                &"glb",
                &"--create-dirs",
                &"--jobs",
                &jobs,
            ]));
            eprintln!(
                "{family} to .glb with --jobs {jobs}: {:?}",
                started.elapsed()
            );
            assert_eq!(run.code, 0, "{}", run.stderr);
            let run = walkmesh(os(&[
                &"convert",
                &format!("{}/**/*.glb", glb.display()),
                &"--out-dir",
                &back,
                &"--to",
                &back_to,
                &"--create-dirs",
                &"--jobs",
                &jobs,
            ]));
            assert_eq!(run.code, 0, "{}", run.stderr);
            trees.push((glb, back));
        }
        let (a, b) = (&trees[0], &trees[1]);
        for (x, y) in [(&a.0, &b.0), (&a.1, &b.1)] {
            let mut files = Vec::new();
            collect(x, x, &mut files);
            assert!(files.len() >= 20, "{family}: {}", files.len());
            for name in files {
                assert_eq!(
                    std::fs::read(x.join(&name)).unwrap(),
                    std::fs::read(y.join(&name)).unwrap(),
                    "{family}: {name}"
                );
            }
        }
    }
}

/// A `columns` × `rows` grid of unit squares (this project's OBJ, so no default weld), with
/// `extra` appended (face lines using the first vertices).
fn large_grid_obj(dir: &Path, name: &str, columns: usize, rows: usize, extra: &str) -> PathBuf {
    let mut text = String::from("#@walkmesh kind area\n");
    for r in 0..=rows {
        for c in 0..=columns {
            text.push_str(&format!("v {c} 0 {r}\n"));
        }
    }
    for r in 0..rows {
        for c in 0..columns {
            let a = r * (columns + 1) + c + 1;
            let (b, d) = (a + 1, a + columns + 1);
            text.push_str(&format!("f {a} {} {b}\nf {a} {d} {}\n", d + 1, d + 1));
        }
    }
    text.push_str(extra);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Outputs of 1 MiB or more without sidecars are written while they are checked: the file
/// still appears only when the check passes, and a refused one leaves nothing behind.
#[test]
fn large_outputs_written_while_checked_appear_only_when_valid() {
    let dir = tempfile::tempdir().unwrap();
    let good = large_grid_obj(dir.path(), "good.obj", 400, 200, "");
    let out = dir.path().join("good.glb");
    let run = walkmesh(os(&[&"convert", &good, &out]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        std::fs::metadata(&out).unwrap().len() >= 1 << 20,
        "the output is too small to take the overlapping path"
    );
    assert_eq!(walkmesh(os(&[&"validate", &out])).code, 0);

    let bad = large_grid_obj(dir.path(), "bad.obj", 400, 200, "f 1 2 1 4\n");
    let refused = dir.path().join("bad.glb");
    let run = walkmesh(os(&[&"convert", &bad, &refused]));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("refusing to write") && run.stderr.contains("mesh.repeated_vertex"),
        "{}",
        run.stderr
    );
    assert_eq!(names(dir.path()), ["bad.obj", "good.glb", "good.obj"]);
}

/// (inode, modification time) of a file.
#[cfg(unix)]
fn identity(path: &Path) -> (u64, std::time::SystemTime) {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).unwrap();
    (metadata.ino(), metadata.modified().unwrap())
}

#[cfg(unix)]
#[test]
fn a_rerun_with_the_same_bytes_leaves_the_outputs_untouched() {
    let dir = tempfile::tempdir().unwrap();
    // With a sidecar (OBJ + .mtl) and without (WOK).
    for name in ["room.obj", "room.wok"] {
        let out = dir.path().join(name);
        let first = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out]));
        assert_eq!(first.code, 0, "{}", first.stderr);
        assert!(first.stdout.starts_with("wrote "), "{}", first.stdout);
        let mtl = out.with_extension("mtl");
        let before = (identity(&out), mtl.exists().then(|| identity(&mtl)));
        // Coarse file-system clocks would hide a rewrite: wait past one tick.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let again = walkmesh(os(&[
            &"convert",
            &fixture("two_rooms.obj"),
            &out,
            &"--json",
        ]));
        assert_eq!(again.code, 0, "{}", again.stderr);
        let report: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
        assert_eq!(report["unchanged"], true, "{name}");
        let after = (identity(&out), mtl.exists().then(|| identity(&mtl)));
        assert_eq!(before, after, "{name}: the output was rewritten");
        let text = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &out]));
        assert!(
            text.stdout
                .starts_with("unchanged (same bytes, left untouched) ")
        );
        // Other bytes (the mesh moved) replace it.
        let changed = walkmesh(os(&[
            &"convert",
            &fixture("two_rooms.obj"),
            &out,
            &"--translate",
            &"1,0,0",
        ]));
        assert_eq!(changed.code, 0, "{}", changed.stderr);
        assert!(changed.stdout.starts_with("wrote "), "{}", changed.stdout);
        assert_ne!(
            identity(&out),
            before.0,
            "{name}: new bytes were not written"
        );
    }
    // No staged file is left behind either way.
    assert!(
        names(dir.path())
            .iter()
            .all(|n| !n.starts_with(".walkmesh-"))
    );
}

#[test]
fn a_batch_rerun_counts_its_unchanged_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = os(&[
        &"convert",
        &fixtures_dir().join("obj"),
        &"--out-dir",
        &out,
        &"--to",
        &"wok",
        &"--create-dirs",
        &"--json",
    ]);
    let first = walkmesh(args.clone());
    let first: serde_json::Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!(first["unchanged"], 0);
    let files = first["converted"].as_u64().unwrap();
    assert!(files >= 6);
    let again = walkmesh(args);
    let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["unchanged"].as_u64(), Some(files));
}

/// An OBJ whose material no profile knows: reading it warns `obj.unknown_material`.
fn unknown_material_obj(dir: &Path) -> PathBuf {
    let obj = dir.join("mystery.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Mystery\nf 1 2 3\n").unwrap();
    obj
}

#[test]
fn allow_accepts_a_warning_under_strict_and_deny_fails_on_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let obj = unknown_material_obj(dir.path());
    let out = dir.path().join("mystery.wok");
    let strict = walkmesh(os(&[&"convert", &obj, &out, &"--strict"]));
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert!(!out.exists());
    let allowed = walkmesh(os(&[
        &"convert",
        &obj,
        &out,
        &"--strict",
        &"--allow",
        &"obj.unknown_*",
        &"--json",
    ]));
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    let report: serde_json::Value = serde_json::from_str(&allowed.stdout).unwrap();
    let rules = report["rules_applied"].as_array().unwrap();
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert_eq!(rules[0]["code"], "obj.unknown_material");
    assert_eq!(rules[0]["rule"]["action"], "allow");
    assert_eq!(rules[0]["rule"]["pattern"], "obj.unknown_*");
    assert_eq!(rules[0]["rule"]["from"], "--allow");
    assert!(out.is_file());
    std::fs::remove_file(&out).unwrap();
    // Deny fails without --strict, and wins over a wider allow.
    let denied = walkmesh(os(&[
        &"convert",
        &obj,
        &out,
        &"--allow",
        &"*",
        &"--deny",
        &"obj.unknown_material",
    ]));
    assert_eq!(denied.code, 1, "{}", denied.stderr);
    assert!(
        denied
            .stderr
            .contains("denied: obj.unknown_material (--deny obj.unknown_material)"),
        "{}",
        denied.stderr
    );
    assert!(!out.exists());
    // A warning no rule names passes as before.
    let plain = walkmesh(os(&[&"convert", &obj, &out, &"--deny", &"bwm.*"]));
    assert_eq!(plain.code, 0, "{}", plain.stderr);
}

#[test]
fn depfile_names_the_outputs_and_every_file_read() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = dir.path().join("my room.gltf");
    assert_eq!(
        walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &gltf])).code,
        0
    );
    let materials = dir.path().join("kotor.ron");
    let profile = walkmesh(os(&[&"profiles", &"kotor"]));
    std::fs::write(&materials, profile.stdout).unwrap();
    let out = dir.path().join("out.obj");
    let depfile = dir.path().join("out.d");
    let run = walkmesh(os(&[
        &"convert",
        &gltf,
        &out,
        &"--materials",
        &materials,
        &"--depfile",
        &depfile,
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let escaped = |p: &Path| p.display().to_string().replace(' ', "\\ ");
    let expected = format!(
        "{} {}: {} {} {}\n",
        escaped(&out),
        escaped(&dir.path().join("out.mtl")),
        escaped(&gltf),
        escaped(&dir.path().join("my room.bin")),
        escaped(&materials)
    );
    assert_eq!(std::fs::read_to_string(&depfile).unwrap(), expected);
    // Standard output has no name to put in a rule.
    let refused = walkmesh(os(&[
        &"convert",
        &gltf,
        &"-",
        &"--to",
        &"wok",
        &"--depfile",
        &depfile,
    ]));
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    // A batch writes one rule per output.
    let out_dir = dir.path().join("batch");
    let batch_dep = dir.path().join("batch.d");
    let run = walkmesh(os(&[
        &"convert",
        &fixtures_dir().join("obj"),
        &"--out-dir",
        &out_dir,
        &"--to",
        &"wok",
        &"--create-dirs",
        &"--depfile",
        &batch_dep,
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rules = std::fs::read_to_string(&batch_dep).unwrap();
    let outputs = std::fs::read_dir(&out_dir).unwrap().count();
    assert_eq!(rules.lines().count(), outputs);
    assert!(rules.lines().any(|l| l.ends_with("two_rooms.obj")
        && l.starts_with(&out_dir.join("two_rooms.wok").display().to_string())));
}

/// Issue #46: a JSON error says the kind of failure (image-rs's kinds), mapped with its code
/// and exit code by one table: a designed input of each kind through the commands that read.
#[test]
fn json_errors_say_the_kind_of_failure() {
    let dir = tempfile::tempdir().unwrap();
    let wok = dir.path().join("room.wok");
    let run = walkmesh(os(&[&"convert", &fixture("two_rooms.obj"), &wok]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&wok).unwrap();
    let write = |name: &str, data: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        path
    };
    let truncated = write("cut.wok", &bytes[..100]);
    let mut other_version = bytes.clone();
    other_version[4..8].copy_from_slice(b"V2.0");
    let unsupported = write("v2.wok", &other_version);
    let invalid = write("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    let missing = dir.path().join("absent.wok");
    let cases: [(&str, Vec<OsString>, &str, &str); 6] = [
        (
            "truncated",
            os(&[&"info", &truncated]),
            "truncated",
            "cli.input",
        ),
        (
            "unsupported",
            os(&[&"validate", &unsupported]),
            "unsupported",
            "cli.input",
        ),
        ("invalid", os(&[&"info", &invalid]), "invalid", "cli.input"),
        ("missing", os(&[&"info", &missing]), "io", "cli.input"),
        (
            "unknown format id",
            os(&[&"info", &wok, &"--from", &"nosuch"]),
            "parameter",
            "cli.usage",
        ),
        (
            "memory limit",
            os(&[
                &"generate",
                &fixture("two_rooms.obj"),
                &"-o",
                &dir.path().join("made.wok"),
                &"--cell-size",
                &"0.02",
                &"--max-memory",
                &"1",
            ]),
            "limit",
            "cli.limit",
        ),
    ];
    for (what, mut args, kind, code) in cases {
        args.push("--json".into());
        let run = walkmesh(args);
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        let printed: serde_json::Value = serde_json::from_str(&run.stdout).expect(what);
        let error = &printed["error"];
        assert_eq!(error["kind"], kind, "{what}: {error}");
        assert_eq!(error["code"], code, "{what}: {error}");
        assert_eq!(error["exit_code"], 2, "{what}");
    }
    assert!(!dir.path().join("made.wok").exists());
}
