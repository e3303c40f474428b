//! The `walkmesh area` commands and the `archive.mod:member` input syntax, on the real area
//! corpus (skipped with a notice when absent).
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(all(feature = "bwm", feature = "gltf", feature = "obj"))]

use std::path::PathBuf;

use walkmesh_tests::{required_corpora, walkmesh};

/// `kotor-areas` and the kit WOKs of the shared corpora (the tests calling this are ignored
/// without them).
fn areas() -> (PathBuf, PathBuf) {
    let root = required_corpora();
    let areas = root.join("kotor-areas");
    assert!(areas.is_dir(), "{} is missing", areas.display());
    (areas, root.join("kotor/pykotor-kits"))
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn archive_members_are_inputs_and_info_lists_walkmeshes() {
    let (areas, _) = areas();
    let archive = areas.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod");
    let run = walkmesh([
        "info".into(),
        format!("{}:m12aa_42a.wok", archive.display()),
        "--json".into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // SOURCES.md: 10 faces.
    assert_eq!(info["faces"], 10);
    let run = walkmesh(["info".into(), archive.display().to_string()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("walkmeshes      m12aa_42a.wok"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("layouts         m12ac.lyt"));
    let run = walkmesh([
        "validate".into(),
        format!("{}:nothere.wok", archive.display()),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("has no member nothere.wok"),
        "{}",
        run.stderr
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn list_extract_replace() {
    let (areas, _) = areas();
    let archive = areas.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod");
    let dir = tempfile::tempdir().unwrap();
    let run = walkmesh([
        "area".into(),
        "list".into(),
        archive.display().to_string(),
        "--json".into(),
    ]);
    assert_eq!(run.code, 0);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(rows.len(), 45);
    assert_eq!(rows[0]["name"], "m12aa_42a.wok");
    assert_eq!(rows[0]["offset"], 2208290);
    let out = dir.path().join("x");
    let run = walkmesh([
        "area".into(),
        "extract".into(),
        archive.display().to_string(),
        "m12ac.lyt".into(),
        "-o".into(),
        out.display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let extracted = std::fs::read(out.join("m12ac.lyt")).unwrap();
    assert_eq!(
        extracted,
        std::fs::read(areas.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/m12ac.lyt")).unwrap()
    );
    // Replace the LYT with a copy that has one more door hook line; add a new member.
    let mut changed = extracted.clone();
    changed.extend_from_slice(b"\r\n");
    std::fs::write(out.join("m12ac.lyt"), &changed).unwrap();
    std::fs::write(out.join("extra.vis"), b"a 0\r\n").unwrap();
    let fixed = dir.path().join("fixed.mod");
    let run = walkmesh([
        "area".into(),
        "replace".into(),
        archive.display().to_string(),
        fixed.display().to_string(),
        out.join("m12ac.lyt").display().to_string(),
        out.join("extra.vis").display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("replaced m12ac.lyt") && run.stdout.contains("added extra.vis"));
    let run = walkmesh([
        "area".into(),
        "list".into(),
        fixed.display().to_string(),
        "--json".into(),
    ]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(rows.len(), 46);
    // A member of the rewritten archive is an input like any file.
    let run = walkmesh(["info".into(), format!("{}:m12aa_42a.wok", fixed.display())]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn check_reports_the_real_vis_count_error() {
    let (areas, _) = areas();
    let dir = areas.join("K1_Community_Patch/m40ad");
    let run = walkmesh([
        "area".into(),
        "check".into(),
        dir.join("m40ad.lyt").display().to_string(),
        "--vis".into(),
        dir.join("m40ad.vis").display().to_string(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("vis.count_mismatch") && run.stdout.contains("line 45"));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn indoor_solve_assemble_split_round_trip() {
    let (areas, kit_woks) = areas();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("built");
    let run = walkmesh([
        "area".into(),
        "indoor".into(),
        areas
            .join("PyKotor/indoor/step02.indoor")
            .display()
            .to_string(),
        out.display().to_string(),
        "--kits".into(),
        areas.join("PyKotor/kits").display().to_string(),
        "--kit-woks".into(),
        kit_woks.display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(out.join("test01.lyt").exists() && out.join("test01_room1.wok").exists());
    // The built rooms are consistent: --check finds nothing to change.
    let run = walkmesh([
        "area".into(),
        "solve".into(),
        out.display().to_string(),
        "--check".into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("1 coinciding pairs; 0 transition(s) to change"),
        "{}",
        run.stdout
    );
    // Assemble to glTF and split back: the same rooms.
    let glb = dir.path().join("area.glb");
    let run = walkmesh([
        "area".into(),
        "assemble".into(),
        out.display().to_string(),
        glb.display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let split = dir.path().join("split");
    let run = walkmesh([
        "area".into(),
        "split".into(),
        glb.display().to_string(),
        split.display().to_string(),
        "--lyt".into(),
        out.join("test01.lyt").display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for room in ["test01_room0", "test01_room1"] {
        let file = split.join(format!("{room}.wok"));
        let run = walkmesh(["validate".into(), file.display().to_string()]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        // Same faces and transitions as the built room.
        let a: serde_json::Value = serde_json::from_str(
            &walkmesh(["info".into(), file.display().to_string(), "--json".into()]).stdout,
        )
        .unwrap();
        let b: serde_json::Value = serde_json::from_str(
            &walkmesh([
                "info".into(),
                out.join(format!("{room}.wok")).display().to_string(),
                "--json".into(),
            ])
            .stdout,
        )
        .unwrap();
        assert_eq!(a["faces"], b["faces"]);
        assert_eq!(a["walkable_area"], b["walkable_area"]);
    }
    // The rooms are one set: when one room's file cannot be written (a folder stands where
    // the second room's WOK would go), none is, and the folder is as it was.
    let clash = dir.path().join("clash");
    std::fs::create_dir_all(clash.join("test01_room1.wok")).unwrap();
    let run = walkmesh([
        "area".into(),
        "split".into(),
        glb.display().to_string(),
        clash.display().to_string(),
        "--lyt".into(),
        out.join("test01.lyt").display().to_string(),
    ]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(!clash.join("test01_room0.wok").exists(), "{}", run.stdout);
    let left: Vec<_> = std::fs::read_dir(&clash).unwrap().collect();
    assert_eq!(left.len(), 1, "files left behind: {left:?}");
    std::fs::copy(out.join("test01.lyt"), split.join("test01.lyt")).unwrap();
    let run = walkmesh([
        "area".into(),
        "solve".into(),
        split.display().to_string(),
        "--check".into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    // Strip every transition (the OBJ's edge directives), split, and let the solver restore
    // them.
    let obj = dir.path().join("area.obj");
    let run = walkmesh([
        "area".into(),
        "assemble".into(),
        out.display().to_string(),
        obj.display().to_string(),
    ]);
    assert_eq!(run.code, 0);
    let text = std::fs::read_to_string(&obj).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| !l.contains(" transition "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&obj, stripped).unwrap();
    let broken = dir.path().join("broken");
    let run = walkmesh([
        "area".into(),
        "split".into(),
        obj.display().to_string(),
        broken.display().to_string(),
        "--lyt".into(),
        out.join("test01.lyt").display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::copy(out.join("test01.lyt"), broken.join("test01.lyt")).unwrap();
    let run = walkmesh([
        "area".into(),
        "solve".into(),
        broken.display().to_string(),
        "--check".into(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("2 transition(s) to change"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("area.transition_missing"));
    let run = walkmesh(["area".into(), "solve".into(), broken.display().to_string()]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = walkmesh([
        "area".into(),
        "solve".into(),
        broken.display().to_string(),
        "--check".into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn area_help_has_examples() {
    let run = walkmesh(["area", "--help"]);
    assert_eq!(run.code, 0);
    for sub in [
        "list", "extract", "replace", "check", "solve", "assemble", "split", "indoor",
    ] {
        assert!(run.stdout.contains(sub), "{sub}");
    }
    let run = walkmesh(["area", "solve", "--help"]);
    assert!(run.stdout.contains("Example: walkmesh area solve"));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn info_json_on_both_real_archives_lists_walkmeshes_and_layouts() {
    let (areas, _) = areas();
    // SOURCES.md: member ranges of the walkmesh and layout members.
    for (archive, wok_name, wok_offset, faces, layout, lyt_offset, rooms) in [
        (
            "KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod",
            "m12aa_42a.wok",
            2208290,
            Some(10),
            "m12ac.lyt",
            2218812,
            18,
        ),
        (
            "KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_paztourney.mod",
            "paz_holo.pwk",
            -1,
            None,
            "k1r_pazak.lyt",
            197885,
            19,
        ),
    ] {
        let path = areas.join(archive);
        let run = walkmesh(["info".into(), path.display().to_string(), "--json".into()]);
        assert_eq!(run.code, 0, "{archive}: {}", run.stderr);
        let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(info["archive"], "MOD");
        let walkmeshes = info["walkmeshes"].as_array().unwrap();
        assert_eq!(walkmeshes.len(), 1, "{archive}");
        assert_eq!(walkmeshes[0]["name"], wok_name);
        if wok_offset >= 0 {
            assert_eq!(walkmeshes[0]["offset"], wok_offset);
        }
        if let Some(faces) = faces {
            assert_eq!(walkmeshes[0]["summary"]["faces"], faces);
        }
        assert!(
            walkmeshes[0].get("summary").is_some() || walkmeshes[0].get("error").is_some(),
            "{archive}"
        );
        let layouts = info["layouts"].as_array().unwrap();
        assert_eq!(layouts.len(), 1);
        assert_eq!(layouts[0]["name"], layout);
        assert_eq!(layouts[0]["offset"], lyt_offset);
        assert_eq!(layouts[0]["rooms"], rooms);
        assert_eq!(info["visibility"].as_array().unwrap().len(), 1);
    }
}
