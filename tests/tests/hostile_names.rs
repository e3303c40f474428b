#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Names from file data never become paths outside the folder the user chose, and never reach
//! the terminal raw. Every `area` writer is run on hostile names as a downloaded module could
//! carry them: it must refuse with a message naming the name and the file, and write nothing.

use std::path::{Path, PathBuf};

use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
use walkmesh_tests::{fixtures_dir, walkmesh};

/// Every file below `dir` (so a test can tell that nothing was written anywhere in it).
fn files_below(dir: &Path) -> Vec<PathBuf> {
    walkmesh_core::testing::files_with_extensions(dir, &["wok", "lyt", "vis", "obj", "json"])
}

fn wok_bytes() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let wok = dir.path().join("floor.wok");
    let run = walkmesh([
        "convert".into(),
        fixtures_dir().join("obj/flat_floor.obj").into_os_string(),
        wok.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::read(wok).unwrap()
}

fn archive_with(names: &[&str]) -> Vec<u8> {
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    let bytes = wok_bytes();
    for name in names {
        archive.put(name, bytes.clone()).unwrap();
    }
    archive.write().unwrap()
}

#[test]
fn extract_refuses_members_that_leave_the_output_folder() {
    // `put` takes any ASCII resref of up to 16 characters, as the format does.
    for hostile in [
        "../../x.wok",
        "/wm-confine-t.wok",
        "..\\..\\x.wok",
        "c:x.wok",
        "nul.wok",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let module = dir.path().join("evil.mod");
        std::fs::write(&module, archive_with(&["fine.wok", hostile])).unwrap();
        let out = dir.path().join("a/b/out");
        let run = walkmesh([
            "area".into(),
            "extract".into(),
            module.clone().into_os_string(),
            "-o".into(),
            out.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 2, "{hostile}: {}", run.stderr);
        let stem = hostile.trim_end_matches(".wok");
        assert!(
            run.stderr.contains("archive member") && run.stderr.contains(stem),
            "{hostile}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("evil.mod"), "{}", run.stderr);
        assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
        assert!(!out.exists(), "{hostile}: the output folder was created");
        assert!(!Path::new("/wm-confine-t.wok").exists());
        assert_eq!(files_below(dir.path()), Vec::<PathBuf>::new(), "{hostile}");
    }
}

#[test]
fn extract_of_plain_names_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("good.mod");
    std::fs::write(&module, archive_with(&["room_a.wok", "room_b.wok"])).unwrap();
    let out = dir.path().join("out");
    let run = walkmesh([
        "area".into(),
        "extract".into(),
        module.into_os_string(),
        "-o".into(),
        out.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(out.join("room_a.wok").is_file() && out.join("room_b.wok").is_file());
}

#[test]
fn list_shows_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("paint.mod");
    // ESC [ 2 J clears the screen; ESC ] 0 ; … BEL retitles the window.
    std::fs::write(
        &module,
        archive_with(&["a\u{1b}[2Jb.wok", "t\u{1b}]0;x\u{7}.wok"]),
    )
    .unwrap();
    let run = walkmesh([
        "area".into(),
        "list".into(),
        module.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{7}'));
    assert!(run.stdout.contains("a\\x1b[2Jb.wok"), "{}", run.stdout);
    assert!(run.stdout.contains("t\\x1b]0;x\\x07.wok"), "{}", run.stdout);
    // JSON keeps the name exactly, escaped the JSON way.
    let run = walkmesh([
        "area".into(),
        "list".into(),
        module.into_os_string(),
        "--json".into(),
    ]);
    let rows: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let names: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"a\u{1b}[2Jb.wok"), "{names:?}");
}

#[test]
fn material_names_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("paint.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Stone\u{1b}[31m\u{9b}2J\nf 1 2 3\n",
    )
    .unwrap();
    let run = walkmesh(["info".into(), obj.into_os_string()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for text in [&run.stdout, &run.stderr] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{9b}'),
            "{text}"
        );
    }
    // The unknown material is named in the warning on standard error.
    assert!(
        run.stderr.contains("Stone\\x1b[31m\\u{009b}2J"),
        "{}",
        run.stderr
    );
}

/// A two-room OBJ whose groups are the rooms of `lyt` (as `area assemble` writes them).
fn split_inputs(dir: &Path, room: &str) -> (PathBuf, PathBuf) {
    let obj = dir.join("area.obj");
    std::fs::write(
        &obj,
        format!(
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 0 0\nv 6 0 0\nv 5 1 0\n\
             g safe\nusemtl Stone\nf 1 2 3\ng {room}\nf 4 5 6\n"
        ),
    )
    .unwrap();
    let lyt = dir.join("area.lyt");
    std::fs::write(
        &lyt,
        format!(
            "beginlayout\nroomcount 2\n  safe 0 0 0\n  {room} 5 0 0\n\
             trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n"
        ),
    )
    .unwrap();
    (obj, lyt)
}

#[test]
fn split_refuses_layout_rooms_that_leave_the_output_folder() {
    for hostile in ["../../../room", "/tmp/wm-confine-room", "sub\\room", "a/b"] {
        let dir = tempfile::tempdir().unwrap();
        let (obj, lyt) = split_inputs(dir.path(), hostile);
        let out = dir.path().join("deep/er/out");
        let run = walkmesh([
            "area".into(),
            "split".into(),
            obj.into_os_string(),
            out.clone().into_os_string(),
            "--lyt".into(),
            lyt.into_os_string(),
        ]);
        assert_eq!(run.code, 2, "{hostile}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("layout room"), "{}", run.stderr);
        assert!(run.stderr.contains("area.lyt"), "{}", run.stderr);
        assert!(!out.exists(), "{hostile}: something was written");
        assert!(!Path::new("/tmp/wm-confine-room.wok").exists());
        assert_eq!(files_below(&dir.path().join("deep")), Vec::<PathBuf>::new());
    }
    // The same inputs with a plain name split into two rooms.
    let dir = tempfile::tempdir().unwrap();
    let (obj, lyt) = split_inputs(dir.path(), "other");
    let out = dir.path().join("out");
    let run = walkmesh([
        "area".into(),
        "split".into(),
        obj.into_os_string(),
        out.clone().into_os_string(),
        "--lyt".into(),
        lyt.into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(out.join("safe.wok").is_file() && out.join("other.wok").is_file());
}

fn indoor_map(module_id: &str) -> String {
    serde_json::json!({
        "module_id": module_id,
        "rooms": [{"position": [0.0, 0.0, 0.0], "rotation": 0.0, "flip_x": false,
                   "flip_y": false, "kit": "Nowhere", "component": "Nothing"}]
    })
    .to_string()
}

#[test]
fn indoor_refuses_module_ids_that_leave_the_output_folder() {
    for hostile in ["../../x", "/tmp/wm-confine-indoor", "a/b", "x\u{1b}[2J"] {
        let dir = tempfile::tempdir().unwrap();
        let map = dir.path().join("evil.indoor");
        std::fs::write(&map, indoor_map(hostile)).unwrap();
        let kits = dir.path().join("kits");
        std::fs::create_dir(&kits).unwrap();
        let out = dir.path().join("deep/out");
        let run = walkmesh([
            "area".into(),
            "indoor".into(),
            map.into_os_string(),
            out.clone().into_os_string(),
            "--kits".into(),
            kits.into_os_string(),
        ]);
        assert_eq!(run.code, 2, "{hostile:?}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("module id"), "{}", run.stderr);
        assert!(run.stderr.contains("evil.indoor"), "{}", run.stderr);
        assert!(!run.stderr.contains('\u{1b}'));
        assert!(!out.exists(), "{hostile:?}: something was written");
        assert!(!Path::new("/tmp/wm-confine-indoor.lyt").exists());
        assert!(!dir.path().join("x.lyt").exists());
    }
}

#[test]
fn kit_ids_cannot_point_outside_the_kit_folder() {
    let dir = tempfile::tempdir().unwrap();
    let kits = dir.path().join("kits");
    std::fs::create_dir(&kits).unwrap();
    std::fs::write(
        kits.join("evil.json"),
        serde_json::json!({"name": "Evil", "id": "../../outside", "components": []}).to_string(),
    )
    .unwrap();
    let error = walkmesh_kotor_area::kits::load_kits(&kits, &kits).unwrap_err();
    assert!(
        matches!(error, walkmesh_kotor_area::AreaError::UnsafeName(_)),
        "{error:?}"
    );
    let error = error.to_string();
    assert!(
        error.contains("kit id") && error.contains("../../outside"),
        "{error}"
    );
    assert!(error.contains("evil.json"), "{error}");
}

/// Not about hostile names, but it needs the same hand-made area (no corpora): `area split`
/// and `area assemble` write Make rules naming the layout and every walkmesh read.
#[test]
fn area_depfiles_name_the_layout_and_the_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let (obj, lyt) = split_inputs(dir.path(), "other");
    let rooms = dir.path().join("rooms");
    let split_dep = dir.path().join("split.d");
    let run = walkmesh([
        "area".into(),
        "split".into(),
        obj.clone().into_os_string(),
        rooms.clone().into_os_string(),
        "--lyt".into(),
        lyt.clone().into_os_string(),
        "--depfile".into(),
        split_dep.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rules = std::fs::read_to_string(&split_dep).unwrap();
    for room in ["safe", "other"] {
        let expected = format!(
            "{}: {} {}",
            rooms.join(format!("{room}.wok")).display(),
            obj.display(),
            lyt.display()
        );
        assert!(rules.lines().any(|l| l == expected), "{rules}");
    }
    // Assembled again from the folder of rooms and the layout.
    let area = dir.path().join("area.wok");
    let assemble_dep = dir.path().join("assemble.d");
    let run = walkmesh([
        "area".into(),
        "assemble".into(),
        rooms.clone().into_os_string(),
        area.clone().into_os_string(),
        "--lyt".into(),
        lyt.clone().into_os_string(),
        "--depfile".into(),
        assemble_dep.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rule = std::fs::read_to_string(&assemble_dep).unwrap();
    let (targets, prerequisites) = rule.trim_end().split_once(": ").unwrap();
    assert_eq!(targets, area.display().to_string());
    let mut prerequisites: Vec<&str> = prerequisites.split(' ').collect();
    prerequisites.sort();
    let mut expected = vec![
        lyt.display().to_string(),
        rooms.join("safe.wok").display().to_string(),
        rooms.join("other.wok").display().to_string(),
    ];
    expected.sort();
    assert_eq!(prerequisites, expected);
}

/// `lint MODULE --fix OUTDIR` writes each room as `<room>.wok`: a room that the archive really
/// holds under a hostile name is refused, and nothing is written (not even the fine room).
#[test]
fn lint_fix_refuses_area_rooms_that_leave_the_output_folder() {
    for hostile in ["../../x", "/wm-confine-l", "..\\..\\x", "c:x", "nul"] {
        let dir = tempfile::tempdir().unwrap();
        let module = dir.path().join("evil.mod");
        let member = format!("{hostile}.wok");
        std::fs::write(&module, archive_with(&["fine.wok", &member])).unwrap();
        let lyt = dir.path().join("area.lyt");
        std::fs::write(
            &lyt,
            format!(
                "beginlayout\nroomcount 2\n  fine 0 0 0\n  {hostile} 0 0 0\n\
                 trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n"
            ),
        )
        .unwrap();
        // The archive really holds the room: linting (without --fix) reads it.
        let run = walkmesh([
            "lint".into(),
            module.clone().into_os_string(),
            "--lyt".into(),
            lyt.clone().into_os_string(),
        ]);
        assert!(
            !run.stdout.contains("room_without_walkmesh"),
            "{hostile}: {}",
            run.stdout
        );
        let out = dir.path().join("a/b/out");
        let run = walkmesh([
            "lint".into(),
            module.into_os_string(),
            "--lyt".into(),
            lyt.into_os_string(),
            "--fix".into(),
            out.clone().into_os_string(),
        ]);
        assert_eq!(run.code, 2, "{hostile}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("layout room"), "{}", run.stderr);
        assert!(run.stderr.contains("area.lyt"), "{}", run.stderr);
        assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
        assert!(!out.exists(), "{hostile}: the output folder was created");
        assert!(!Path::new("/wm-confine-l.wok").exists());
        assert_eq!(
            files_below(dir.path()),
            vec![dir.path().join("area.lyt")],
            "{hostile}"
        );
    }
}
