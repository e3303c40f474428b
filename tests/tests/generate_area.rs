#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh generate DIR_OR_MODULE --lyt AREA.lyt --out-dir OUT`: two room models (binary
//! MDL + MDX written with walkmesh_mdl's synthetic builder) whose floors meet at a doorway
//! become two valid WOKs in area coordinates with the transitions between them solved both
//! ways; a hostile room name is refused before anything is written.

use std::path::Path;

use walkmesh_tests::{floor_room_model, walkmesh};

/// A room model named `name`: a 10 × 10 m floor from (0, 0) to (10, 10) at height 0, in room
/// coordinates, written as `name.mdl` + `name.mdx` in `dir`.
fn floor_room(dir: &Path, name: &str) {
    floor_room_model(dir, name, [0.0, 0.0], [10.0, 10.0]);
}

/// A layout of rooms `names` at the x offsets `xs`.
fn layout(dir: &Path, rooms: &[(&str, f32)]) -> std::path::PathBuf {
    let mut text = format!("beginlayout\nroomcount {}\n", rooms.len());
    for (name, x) in rooms {
        text.push_str(&format!("  {name} {x} 0 0\n"));
    }
    text.push_str("trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n");
    let path = dir.join("area.lyt");
    std::fs::write(&path, text).unwrap();
    path
}

/// `walkmesh generate MODELS --lyt LYT --out-dir OUT`, then `extra`, whatever it exits with.
fn run_generate(models: &Path, lyt: &Path, out: &Path, extra: &[&str]) -> walkmesh_tests::CliRun {
    let mut args = vec![
        "generate".as_ref(),
        models.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
    ];
    args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
    walkmesh(args)
}

/// [`run_generate`] with `--json`, which must succeed; its JSON.
fn generate_area(models: &Path, lyt: &Path, out: &Path) -> serde_json::Value {
    let run = run_generate(models, lyt, out, &["--json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

fn read_wok(path: &Path) -> walkmesh_core::NavMesh {
    walkmesh_kotor_area::kits::read_wok(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn two_rooms_meeting_at_a_doorway_get_valid_woks_and_transitions_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    floor_room(&models, "roomb");
    // Room B's floor starts where room A's ends: they share the edge x = 10.
    let lyt = layout(&models, &[("rooma", 0.0), ("roomb", 10.0)]);
    let out = dir.path().join("out");
    let json = generate_area(&models, &lyt, &out);
    let rooms = json["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 2, "{json}");
    for (room, other) in [(&rooms[0], "roomb"), (&rooms[1], "rooma")] {
        assert!(room["faces"].as_u64().unwrap() >= 2, "{room}");
        let area = room["walkable_area"].as_f64().unwrap();
        assert!((95.0..=100.5).contains(&area), "{area}");
        assert!(room["transitions"].as_u64().unwrap() >= 1, "{room}");
        assert_eq!(room["leads_to"], serde_json::json!([other]), "{room}");
    }
    let a = out.join("rooma.wok");
    let b = out.join("roomb.wok");
    for wok in [&a, &b] {
        let validate = walkmesh(["validate".as_ref(), wok.as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
    }
    // Area coordinates: room B lies in 10..20.
    let mesh_b = read_wok(&b);
    assert!(mesh_b.vertices.iter().all(|v| v[0] >= 9.9 && v[0] <= 20.1));
    let mesh_a = read_wok(&a);
    assert!(mesh_a.vertices.iter().all(|v| v[0] >= -0.1 && v[0] <= 10.1));
    // The files carry the transitions: A's edges on x = 10 lead to room 1, B's on x = 10 to 0.
    let on_seam = |mesh: &walkmesh_core::NavMesh, target: i32| {
        mesh.edge_tags
            .iter()
            .filter(|(_, t)| t.transition == target)
            .all(|(e, _)| {
                let p = mesh.polygons.get(e.polygon as usize);
                let v0 = mesh.vertex(p[e.edge as usize]);
                let v1 = mesh.vertex(p[(e.edge as usize + 1) % 3]);
                (v0[0] - 10.0).abs() < 0.06 && (v1[0] - 10.0).abs() < 0.06
            })
            && mesh.edge_tags.values().any(|t| t.transition == target)
    };
    assert!(on_seam(&mesh_a, 1), "{:?}", mesh_a.edge_tags);
    assert!(on_seam(&mesh_b, 0), "{:?}", mesh_b.edge_tags);
    // And `area solve --check` agrees nothing is left to change.
    let check = walkmesh([
        "area".as_ref(),
        "solve".as_ref(),
        out.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--check".as_ref(),
    ]);
    assert_eq!(check.code, 0, "{}\n{}", check.stdout, check.stderr);
}

#[test]
fn a_wide_room_opening_onto_a_narrow_one_shares_the_seam_points_and_links_exactly() {
    // Room A is 10 m wide (y 0..10) and ends at x = 10; room B, 6 m wide (y 2..8), starts
    // there. Generated one by one, A's seam edge runs the full 10 m and B's only 6: their
    // edges share no endpoints until B's seam ends are put on A's edge.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    floor_room_model(&models, "roomb", [0.0, 2.0], [6.0, 8.0]);
    let lyt = layout(&models, &[("rooma", 0.0), ("roomb", 10.0)]);
    let out = dir.path().join("out");
    let json = generate_area(&models, &lyt, &out);
    assert_eq!(json["findings"], serde_json::json!([]), "{json}");
    let rooms = json["rooms"].as_array().unwrap();
    assert!(rooms[0]["seam_points"].as_u64().unwrap() >= 2, "{json}");
    assert_eq!(rooms[0]["leads_to"], serde_json::json!(["roomb"]));
    assert_eq!(rooms[1]["leads_to"], serde_json::json!(["rooma"]));
    for (room, name, target) in [(&rooms[0], "rooma.wok", 1), (&rooms[1], "roomb.wok", 0)] {
        let path = out.join(name);
        let validate = walkmesh(["validate".as_ref(), path.as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
        let lint = walkmesh(["lint".as_ref(), path.as_os_str(), "--json".as_ref()]);
        let lint: serde_json::Value = serde_json::from_str(&lint.stdout).unwrap();
        let findings = lint["findings"].as_array().unwrap();
        for code in ["lint.t_junction", "lint.overlap", "lint.degenerate"] {
            assert!(findings.iter().all(|f| f["code"] != code), "{name}: {lint}");
        }
        let mesh = read_wok(&path);
        // The seam points added no area: the walkable area is the generator's.
        let reported = room["walkable_area"].as_f64().unwrap();
        assert!(
            (walkable_area(&mesh) - reported).abs() < 1e-3,
            "{name}: {} vs {reported}",
            walkable_area(&mesh)
        );
        // The transition edges cover the 6 m both rooms share, on the seam, in both rooms.
        let linked = transition_length(&mesh, target);
        assert!((linked - 6.0).abs() < 0.15, "{name}: {linked}");
    }
}

/// Walkable area (m²) of a mesh.
fn walkable_area(mesh: &walkmesh_core::NavMesh) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| walkmesh_core::passes::polygon_area(mesh, p))
        .sum()
}

/// Total length (plan, m) of the edges whose transition is `target`, all on the seam x = 10.
fn transition_length(mesh: &walkmesh_core::NavMesh, target: i32) -> f64 {
    mesh.edge_tags
        .iter()
        .filter(|(_, t)| t.transition == target)
        .map(|(e, _)| {
            let p = mesh.polygons.get(e.polygon as usize);
            let v0 = mesh.vertex(p[e.edge as usize]);
            let v1 = mesh.vertex(p[(e.edge as usize + 1) % 3]);
            assert!((v0[0] - 10.0).abs() < 0.06 && (v1[0] - 10.0).abs() < 0.06);
            f64::from((v1[1] - v0[1]).abs())
        })
        .sum()
}

#[test]
fn a_room_name_leaving_the_out_dir_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    let lyt = layout(&models, &[("rooma", 0.0), ("../escape", 10.0)]);
    let out = dir.path().join("out");
    let run = run_generate(&models, &lyt, &out, &[]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("cannot be used as a file name"),
        "{}",
        run.stderr
    );
    assert!(!out.join("rooma.wok").exists());
    assert!(!dir.path().join("escape.wok").exists());
}

#[test]
fn rooms_without_a_model_are_listed_and_one_input_is_required() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    let lyt = layout(&models, &[("rooma", 0.0), ("roomc", 10.0)]);
    let out = dir.path().join("out");
    let run = run_generate(&models, &lyt, &out, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("rooms without a model: roomc"),
        "{}",
        run.stdout
    );
    assert!(out.join("rooma.wok").exists());
    let two = walkmesh([
        "generate".as_ref(),
        models.as_os_str(),
        models.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    let nwn2 = walkmesh([
        "generate".as_ref(),
        models.as_os_str(),
        "--engine".as_ref(),
        "nwn2".as_ref(),
        "--out-dir".as_ref(),
        dir.path().join("other").as_os_str(),
    ]);
    assert_eq!(nwn2.code, 2, "{}", nwn2.stderr);
    assert!(nwn2.stderr.contains("KotOR area"), "{}", nwn2.stderr);
    assert!(!dir.path().join("other").exists());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_real_kit_hall_twice_end_to_end_meets_at_its_doorway() {
    // The corpus has no layout whose room models are present, so the area is made from the
    // sithbase kit's hall_7 (16.5 m long along y) placed twice, end to end.
    let kit = walkmesh_tests::required_corpora().join("kotor-models/pykotor-kits/sithbase");
    let dir = tempfile::tempdir().unwrap();
    for (name, ext) in [("hall_7", "mdl"), ("hall_7", "mdx")] {
        let from = kit.join(format!("{name}.{ext}"));
        std::fs::copy(&from, dir.path().join(format!("hall_7.{ext}"))).unwrap();
        std::fs::copy(&from, dir.path().join(format!("hall_7b.{ext}"))).unwrap();
    }
    let lyt = dir.path().join("two.lyt");
    std::fs::write(
        &lyt,
        "beginlayout\nroomcount 2\n  hall_7 0 0 0\n  hall_7b 0 16.5 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let json = generate_area(dir.path(), &lyt, &out);
    assert_eq!(json["rooms"][0]["leads_to"], serde_json::json!(["hall_7b"]));
    assert_eq!(json["rooms"][1]["leads_to"], serde_json::json!(["hall_7"]));
    // What generating each room left out is said as `walkmesh generate` says it of one room
    // (area mode printed none of it before), and the doorway moves (about a millimetre) as notes.
    assert_eq!(
        finding_codes(&json),
        [
            "warning [generate.narrow_dropped] hall_7.mdl",
            "note [generate.doorway_aligned] hall_7.mdl",
            "warning [generate.narrow_dropped] hall_7b.mdl",
            "note [generate.doorway_aligned] hall_7b.mdl"
        ],
        "{json}"
    );
    for name in ["hall_7.wok", "hall_7b.wok"] {
        let validate = walkmesh(["validate".as_ref(), out.join(name).as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
        assert_no_wall_across_a_transition(&out.join(name));
    }
    for room in json["rooms"].as_array().unwrap() {
        let walls = &room["report"]["walls"];
        assert!(
            walls["faces"].as_u64().unwrap() > 0,
            "the hall's sides: {walls}"
        );
    }
}

/// No non-walkable face (a wall) stands on an edge that leads into another room: the
/// doorway where two rooms meet stays open.
fn assert_no_wall_across_a_transition(path: &Path) {
    let mesh = read_wok(path);
    let key = |v: [f32; 3]| v.map(f32::to_bits);
    let mut walls = std::collections::HashSet::new();
    for p in (0..mesh.polygons.len()).filter(|&p| !mesh.is_walkable(p)) {
        let c = mesh.polygons.get(p);
        for k in 0..c.len() {
            let (a, b) = (
                key(mesh.vertex(c[k])),
                key(mesh.vertex(c[(k + 1) % c.len()])),
            );
            walls.insert(if a < b { (a, b) } else { (b, a) });
        }
    }
    let mut doorway = 0;
    for (edge, tag) in &mesh.edge_tags {
        if tag.transition < 0 {
            continue;
        }
        doorway += 1;
        let c = mesh.polygons.get(edge.polygon as usize);
        let e = edge.edge as usize;
        let (a, b) = (
            key(mesh.vertex(c[e])),
            key(mesh.vertex(c[(e + 1) % c.len()])),
        );
        let pair = if a < b { (a, b) } else { (b, a) };
        assert!(
            !walls.contains(&pair),
            "{}: a wall across the doorway edge {edge:?}",
            path.display()
        );
    }
    assert!(doorway > 0, "{}: no transition edge", path.display());
}

#[test]
fn a_module_archive_holding_the_models_and_the_layout_is_an_input() {
    use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    floor_room(&models, "roomb");
    let lyt = layout(&models, &[("rooma", 0.0), ("roomb", 10.0)]);
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    for name in ["rooma.mdl", "rooma.mdx", "roomb.mdl", "roomb.mdx"] {
        archive
            .put(name, std::fs::read(models.join(name)).unwrap())
            .unwrap();
    }
    archive
        .put("area.lyt", std::fs::read(&lyt).unwrap())
        .unwrap();
    let module = dir.path().join("area.mod");
    std::fs::write(&module, archive.write().unwrap()).unwrap();
    let out = dir.path().join("out");
    // The layout is the module's own (no --lyt).
    let run = walkmesh([
        "generate".as_ref(),
        module.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["rooms"][0]["leads_to"], serde_json::json!(["roomb"]));
    assert_eq!(json["rooms"][1]["leads_to"], serde_json::json!(["rooma"]));
    for name in ["rooma.wok", "roomb.wok"] {
        let validate = walkmesh(["validate".as_ref(), out.join(name).as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
    }
}

/// A layout of rooms `names` at the positions given.
fn layout_at(dir: &Path, rooms: &[(&str, [f32; 3])]) -> std::path::PathBuf {
    let mut text = format!("beginlayout\nroomcount {}\n", rooms.len());
    for (name, [x, y, z]) in rooms {
        text.push_str(&format!("  {name} {x} {y} {z}\n"));
    }
    text.push_str("trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n");
    let path = dir.join("area.lyt");
    std::fs::write(&path, text).unwrap();
    path
}

/// Generates the two rooms `a` and `b` (quads in room coordinates) placed at `at_b` (room A at
/// the origin); the JSON report.
fn two_quad_rooms(a: [[f32; 3]; 4], b: [[f32; 3]; 4], at_b: [f32; 3]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    walkmesh_tests::quad_room_model(&models, "rooma", a);
    walkmesh_tests::quad_room_model(&models, "roomb", b);
    let lyt = layout_at(&models, &[("rooma", [0.0; 3]), ("roomb", at_b)]);
    let out = dir.path().join("out");
    let json = generate_area(&models, &lyt, &out);
    for name in ["rooma.wok", "roomb.wok"] {
        let validate = walkmesh(["validate".as_ref(), out.join(name).as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
    }
    json
}

const SQUARE: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [10.0, 0.0, 0.0],
    [10.0, 10.0, 0.0],
    [0.0, 10.0, 0.0],
];

#[test]
fn doorway_floors_a_little_apart_at_an_angle_or_a_step_are_brought_onto_one_line_and_linked() {
    // Each case: room B's floor ends facing room A's across a doorway, off by more than the
    // transition solver's 0.05 m, within two cells (0.2 m) and the climb (0.25 m).
    let slanted_a = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [12.0, 10.0, 0.0],
        [0.0, 10.0, 0.0],
    ];
    // B's west edge parallel to A's slanted east edge, 0.12 m further east.
    let slanted_b = [
        [10.12, 0.0, 0.0],
        [20.0, 0.0, 0.0],
        [20.0, 10.0, 0.0],
        [12.12, 10.0, 0.0],
    ];
    let cases = [
        ("a 0.12 m gap", SQUARE, SQUARE, [10.12, 0.0, 0.0]),
        ("0.06 m overlapping", SQUARE, SQUARE, [9.94, 0.0, 0.0]),
        (
            "slanted 11°, 0.12 m apart",
            slanted_a,
            slanted_b,
            [0.0, 0.0, 0.0],
        ),
        ("a 0.2 m step up", SQUARE, SQUARE, [10.0, 0.0, 0.2]),
        (
            "half as wide, cut elsewhere, 0.1 m gap",
            SQUARE,
            SQUARE,
            [10.1, 5.0, 0.0],
        ),
    ];
    for (case, a, b, at_b) in cases {
        let json = two_quad_rooms(a, b, at_b);
        let rooms = json["rooms"].as_array().unwrap();
        assert_eq!(
            rooms[0]["leads_to"],
            serde_json::json!(["roomb"]),
            "{case}: {json}"
        );
        assert_eq!(
            rooms[1]["leads_to"],
            serde_json::json!(["rooma"]),
            "{case}: {json}"
        );
        for room in rooms {
            let moved = &room["doorway"];
            assert!(moved["vertices"].as_u64().unwrap() >= 2, "{case}: {moved}");
            // Each side moves about half the gap (the step: half the height), never more
            // than two cells.
            let most = moved["max_move"].as_f64().unwrap();
            assert!(most > 0.02 && most <= 0.2, "{case}: {most}");
        }
        // Each move is said, as a note with a stable code naming the room's model.
        assert_eq!(
            doorway_notes(&json),
            [
                "note [generate.doorway_aligned] rooma.mdl",
                "note [generate.doorway_aligned] roomb.mdl"
            ],
            "{case}: {json}"
        );
    }
}

/// The findings of an area report that say a room's doorway moved, up to their message.
fn doorway_notes(json: &serde_json::Value) -> Vec<String> {
    let mut notes = finding_codes(json);
    notes.retain(|f| f.contains("generate.doorway_aligned"));
    notes
}

/// Each finding of an area report up to its message: severity, code and the file it names.
fn finding_codes(json: &serde_json::Value) -> Vec<String> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().split(':').next().unwrap().to_string())
        .collect()
}

#[test]
fn floors_farther_apart_than_two_cells_or_a_climb_are_not_moved_or_linked() {
    for (case, at_b) in [
        ("a 0.5 m gap", [10.5, 0.0, 0.0]),
        ("a 0.4 m step", [10.0, 0.0, 0.4]),
    ] {
        let json = two_quad_rooms(SQUARE, SQUARE, at_b);
        for room in json["rooms"].as_array().unwrap() {
            assert_eq!(room["leads_to"], serde_json::json!([]), "{case}: {json}");
            assert_eq!(room["doorway"]["vertices"], 0, "{case}: {room}");
        }
        assert!(doorway_notes(&json).is_empty(), "{case}: {json}");
    }
}

#[test]
fn four_rooms_tiling_the_ground_meet_along_both_sides_of_every_corner() {
    // An outdoor area cut into rooms: four 10 m squares in a 2 × 2 grid, each floor ending
    // 0.12 m (east-west) and 0.1 m (north-south) short of its neighbours'. Every room's floor
    // is open on two sides meeting at the middle corner; each side faces one neighbour. Both
    // sides of every room are aligned (they were one doorway before, not on one line, so none
    // moved and no room linked), and the corner vertex lies on both lines.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    let rooms = [
        ("rooma", [0.0, 0.0, 0.0]),
        ("roomb", [10.12, 0.0, 0.0]),
        ("roomc", [0.0, 10.1, 0.0]),
        ("roomd", [10.12, 10.1, 0.0]),
    ];
    for (name, _) in rooms {
        walkmesh_tests::quad_room_model(&models, name, SQUARE);
    }
    let lyt = layout_at(&models, &rooms);
    let out = dir.path().join("out");
    let json = generate_area(&models, &lyt, &out);
    let leads: Vec<&serde_json::Value> = json["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["leads_to"])
        .collect();
    assert_eq!(
        leads,
        [
            &serde_json::json!(["roomb", "roomc"]),
            &serde_json::json!(["rooma", "roomd"]),
            &serde_json::json!(["rooma", "roomd"]),
            &serde_json::json!(["roomb", "roomc"]),
        ],
        "{json}"
    );
    for (name, _) in rooms {
        let wok = out.join(format!("{name}.wok"));
        let validate = walkmesh(["validate".as_ref(), wok.as_os_str()]);
        assert_eq!(validate.code, 0, "{name}: {}", validate.stdout);
        // Every room has a vertex at the middle corner, where the two seams cross.
        let mesh = read_wok(&wok);
        let at_corner = (0..mesh.vertices.len() as u32).any(|v| {
            let p = mesh.vertex(v);
            (p[0] - 10.06).abs() < 0.011 && (p[1] - 10.05).abs() < 0.011
        });
        assert!(at_corner, "{name}: no vertex at the middle corner");
    }
}

/// An OUT that cannot be made (its parent is a file) is an output failure (exit 3) naming it,
/// after every room was generated and before any file is written.
#[test]
fn an_out_dir_that_cannot_be_made_exits_3_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    floor_room(&models, "rooma");
    let lyt = layout(&models, &[("rooma", 0.0)]);
    let file = dir.path().join("plain");
    std::fs::write(&file, b"not a folder").unwrap();
    let out = file.join("out");
    let run = run_generate(&models, &lyt, &out, &[]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("cannot create") && run.stderr.contains("plain"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");
}
