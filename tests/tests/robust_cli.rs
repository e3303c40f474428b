#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue #33's robustness items that the command line shows: options with stated maxima,
//! paths that are not regular files, names that are not ASCII, archives with a name twice.

use walkmesh_tests::{fixtures_dir, walkmesh};

#[test]
fn reach_pairs_above_the_stated_maximum_are_refused_before_any_work() {
    let floor = fixtures_dir().join("obj/flat_floor.obj");
    let floor = floor.to_str().unwrap();
    let started = std::time::Instant::now();
    for too_many in ["18446744073709551615", "1000001"] {
        let run = walkmesh(["diff", floor, floor, "--reach", "--reach-pairs", too_many]);
        assert_eq!(run.code, 2, "{too_many}: {}", run.stderr);
        assert!(
            run.stderr.contains("--reach-pairs") && run.stderr.contains("1000000"),
            "{}",
            run.stderr
        );
    }
    assert!(started.elapsed().as_secs() < 10);
    // The maximum itself is accepted, and its bound is what --help says.
    let run = walkmesh([
        "diff",
        floor,
        floor,
        "--reach",
        "--reach-pairs",
        "1000000",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["reach"]["pairs"], 1_000_000);
    let help = walkmesh(["diff", "--help"]);
    assert!(help.stdout.contains("at most 1000000"), "{}", help.stdout);
}

/// A module archive holding `flat_floor` as a WOK under each of `names` (ASCII placeholders
/// of 12 characters), with each placeholder's bytes then replaced by `raw` in the key table:
/// names the writer would refuse, as a hostile or odd module holds them.
fn module_with_raw_names(members: &[(&str, &[u8])]) -> Vec<u8> {
    use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
    let dir = tempfile::tempdir().unwrap();
    let wok = dir.path().join("floor.wok");
    let run = walkmesh([
        "convert".into(),
        fixtures_dir().join("obj/flat_floor.obj").into_os_string(),
        wok.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let wok = std::fs::read(wok).unwrap();
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    for (placeholder, _) in members {
        archive
            .put(&format!("{placeholder}.wok"), wok.clone())
            .unwrap();
    }
    let mut bytes = archive.write().unwrap();
    for (placeholder, raw) in members {
        let at = bytes
            .windows(placeholder.len())
            .position(|w| w == placeholder.as_bytes())
            .unwrap();
        let field = bytes.get_mut(at..at + 16).unwrap();
        field.fill(0);
        field[..raw.len()].copy_from_slice(raw);
    }
    bytes
}

#[test]
fn extracting_a_member_named_with_bytes_ff_fe_does_not_panic() {
    // Issue #33: the name reads as "ÿþ" (Latin-1), and the device-name check cut it at byte 3.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("odd.mod");
    std::fs::write(
        &module,
        module_with_raw_names(&[("placeholder1", b"\xff\xfe")]),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = walkmesh([
        "area".into(),
        "extract".into(),
        module.into_os_string(),
        "-o".into(),
        out.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert_eq!(written.len(), 1);
    assert_eq!(
        std::fs::read(out.join("ÿþ.wok")).unwrap().get(..8),
        Some(&b"BWM V1.0"[..])
    );
}

#[test]
fn lint_fix_of_an_area_whose_room_name_is_not_ascii_does_not_panic() {
    // Issue #33: LYT room `ABé` (bytes 41 42 C3 A9) panicked with "byte index 3 is not a char
    // boundary" when `--fix` checked the room's output name.
    let dir = tempfile::tempdir().unwrap();
    let area = dir.path().join("area");
    std::fs::create_dir(&area).unwrap();
    for room in ["fine", "ABé"] {
        let run = walkmesh([
            "convert".into(),
            fixtures_dir().join("obj/flat_floor.obj").into_os_string(),
            area.join(format!("{room}.wok")).into_os_string(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    std::fs::write(
        area.join("area.lyt"),
        "beginlayout\nroomcount 2\n  ABé 0 0 0\n  fine 50 0 0\n\
         trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    let out = dir.path().join("fixed");
    let run = walkmesh([
        "lint".into(),
        area.into_os_string(),
        "--fix".into(),
        out.clone().into_os_string(),
    ]);
    assert!(matches!(run.code, 0 | 1), "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(out.join("fine.wok").is_file());
}

#[test]
fn extract_refuses_two_members_of_one_name_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("twice.mod");
    // Two members `room.wok` and `ROOM.wok` (one name to the games and to a case-insensitive
    // file system), and a third of another name.
    let bytes = module_with_raw_names(&[
        ("placeholder1", b"room"),
        ("placeholder2", b"ROOM"),
        ("placeholder3", b"other"),
    ]);
    std::fs::write(&module, bytes).unwrap();
    let out = dir.path().join("out");
    for named in [vec![], vec!["room.wok"], vec!["other.wok", "Room.wok"]] {
        let mut args: Vec<std::ffi::OsString> =
            vec!["area".into(), "extract".into(), module.clone().into()];
        args.extend(named.iter().map(Into::into));
        args.extend(["-o".into(), out.clone().into()]);
        let run = walkmesh(args);
        assert_eq!(run.code, 2, "{named:?}: {}", run.stdout);
        assert!(
            run.stderr.contains("two members named")
                && run.stderr.contains("entries 0 and 1")
                && run.stderr.contains("nothing was written"),
            "{}",
            run.stderr
        );
        assert!(!out.exists(), "{named:?}: something was written");
    }
    // A member of a unique name still comes out, and asking for it twice writes it once.
    let run = walkmesh([
        "area".into(),
        "extract".into(),
        module.into_os_string(),
        "other.wok".into(),
        "OTHER.wok".into(),
        "-o".into(),
        out.clone().into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert!(out.join("other.wok").is_file());
}

#[cfg(unix)]
#[test]
fn stats_says_a_fifo_or_device_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (path, kind) in [
        (fifo.to_str().unwrap(), "a FIFO"),
        ("/dev/null", "a character device"),
    ] {
        let run = walkmesh(["stats", path]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains("not a regular file") && run.stderr.contains(kind),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("no such file"), "{}", run.stderr);
    }
    let missing = dir.path().join("missing");
    let run = walkmesh(["stats", missing.to_str().unwrap()]);
    assert!(
        run.stderr.contains("no such file or folder"),
        "{}",
        run.stderr
    );
    // Met inside a folder, the FIFO is listed as skipped (never opened: that would block).
    let run = walkmesh([
        "convert".into(),
        fixtures_dir().join("obj/flat_floor.obj").into_os_string(),
        dir.path().join("floor.wok").into_os_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = walkmesh(["stats", dir.path().to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap_or_default();
    let skipped = json["skipped"].as_array().cloned().unwrap_or_default();
    assert!(
        skipped
            .iter()
            .any(|s| s["file"].as_str().is_some_and(|f| f.ends_with("pipe"))
                && s["reason"].as_str().is_some_and(|r| r.contains("FIFO"))),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
}
