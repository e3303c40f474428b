#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Layouts that cannot silently drop a room or collapse it (issue #51): a layout naming one
//! room twice (ignoring ASCII case, as the games and their archives compare file names) is
//! refused by every command that writes one file per layout room or finds a room's file by
//! its name, naming the room and both LYT lines, with nothing written; a room placed so far
//! out that 32-bit floats cannot hold its points 1 mm apart is refused, naming the room, the
//! line and the position; `validate` gives an error for a walkmesh whose walkable faces all
//! collapsed. Every file is made here: nothing needs the shared corpora.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Material, NavMesh, Surface};
use walkmesh_tests::{CliRun, floor_room_model, walkmesh};

const STONE: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 4,
};

/// A walkable 10 × 10 m floor from (x0, 0) to (x0 + 10, 10) at height 0.
fn floor_mesh(x0: f32) -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [x0, 0.0, 0.0],
            [x0 + 10.0, 0.0, 0.0],
            [x0 + 10.0, 10.0, 0.0],
            [x0, 10.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], STONE);
    mesh.push_polygon(&[0, 2, 3], STONE);
    mesh
}

/// `mesh` as the room WOK bytes `area split` and `generate --out-dir` write.
fn wok_bytes(mesh: &NavMesh) -> Vec<u8> {
    let registry = walkmesh_formats::default_registry();
    walkmesh_kotor_area::rooms::write_room_wok(&registry, mesh, &mut Diagnostics::new()).unwrap()
}

/// Room WOKs `name.wok` in `dir`, the floor of room k starting at x = 10·k (area coordinates,
/// as KotOR stores rooms).
fn room_woks(dir: &Path, names: &[&str]) {
    for (k, name) in names.iter().enumerate() {
        let bytes = wok_bytes(&floor_mesh(10.0 * k as f32));
        std::fs::write(dir.join(format!("{name}.wok")), bytes).unwrap();
    }
}

/// A layout file `file` in `dir` placing `rooms` (name, x); the first room is on line 3.
fn layout(dir: &Path, file: &str, rooms: &[(&str, &str)]) -> PathBuf {
    let mut text = format!("beginlayout\nroomcount {}\n", rooms.len());
    for (name, x) in rooms {
        text.push_str(&format!("  {name} {x} 0 0\n"));
    }
    text.push_str("trackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n");
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

/// The layout every duplicate test uses: `rooma` on line 3 and again, as `RoomA`, on line 5.
fn twice(dir: &Path) -> PathBuf {
    layout(
        dir,
        "twice.lyt",
        &[("rooma", "0"), ("roomb", "10"), ("RoomA", "20")],
    )
}

fn run(args: &[&std::ffi::OsStr]) -> CliRun {
    walkmesh(args.iter().copied())
}

/// The refusal of the layout naming `rooma` twice: exit 2, the room and both lines named.
fn assert_refused_as_twice(run: &CliRun) {
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("\"RoomA\"")
            && run.stderr.contains("\"rooma\"")
            && run.stderr.contains("lines 3 and 5")
            && run.stderr.contains("nothing was written"),
        "{}",
        run.stderr
    );
}

/// `dir` does not exist or holds nothing.
fn assert_empty(dir: &Path) {
    if dir.exists() {
        let left: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn generate_out_dir_refuses_a_layout_naming_a_room_twice() {
    let dir = tempfile::tempdir().unwrap();
    floor_room_model(dir.path(), "rooma", [0.0, 0.0], [10.0, 10.0]);
    floor_room_model(dir.path(), "roomb", [0.0, 0.0], [10.0, 10.0]);
    let lyt = twice(dir.path());
    let out = dir.path().join("out");
    let refused = run(&[
        "generate".as_ref(),
        dir.path().as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
    ]);
    assert_refused_as_twice(&refused);
    assert_empty(&out);
}

#[test]
fn generate_one_room_refuses_a_layout_placing_it_twice() {
    let dir = tempfile::tempdir().unwrap();
    floor_room_model(dir.path(), "rooma", [0.0, 0.0], [10.0, 10.0]);
    let lyt = twice(dir.path());
    let wok = dir.path().join("rooma.wok");
    let refused = run(&[
        "generate".as_ref(),
        dir.path().join("rooma.mdl").as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        wok.as_os_str(),
    ]);
    assert_refused_as_twice(&refused);
    assert!(!wok.exists());
}

#[test]
fn area_split_refuses_a_layout_naming_a_room_twice() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = dir.path().join("rooms");
    std::fs::create_dir(&rooms).unwrap();
    room_woks(&rooms, &["rooma", "roomb", "roomc"]);
    let good = layout(
        dir.path(),
        "good.lyt",
        &[("rooma", "0"), ("roomb", "10"), ("roomc", "20")],
    );
    let glb = dir.path().join("area.glb");
    let assembled = run(&[
        "area".as_ref(),
        "assemble".as_ref(),
        rooms.as_os_str(),
        glb.as_os_str(),
        "--lyt".as_ref(),
        good.as_os_str(),
    ]);
    assert_eq!(assembled.code, 0, "{}", assembled.stderr);
    // Room 2's faces would go to RoomA.wok, room 0's to rooma.wok: one file in the games.
    let lyt = twice(dir.path());
    let out = dir.path().join("out");
    let refused = run(&[
        "area".as_ref(),
        "split".as_ref(),
        glb.as_os_str(),
        out.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
    ]);
    assert_refused_as_twice(&refused);
    assert_empty(&out);
}

#[test]
fn area_solve_assemble_and_lint_fix_refuse_a_layout_naming_a_room_twice() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = dir.path().join("rooms");
    std::fs::create_dir(&rooms).unwrap();
    room_woks(&rooms, &["rooma", "roomb"]);
    let lyt = twice(dir.path());
    let out = dir.path().join("out");
    let solve = run(&[
        "area".as_ref(),
        "solve".as_ref(),
        rooms.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_refused_as_twice(&solve);
    assert_empty(&out);
    let glb = dir.path().join("area.glb");
    let assemble = run(&[
        "area".as_ref(),
        "assemble".as_ref(),
        rooms.as_os_str(),
        glb.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
    ]);
    assert_refused_as_twice(&assemble);
    assert!(!glb.exists());
    let lint = run(&[
        "lint".as_ref(),
        rooms.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--fix".as_ref(),
        out.as_os_str(),
    ]);
    assert_refused_as_twice(&lint);
    assert_empty(&out);
    // The rooms read are untouched, and `area check` still reads the layout (a warning).
    for name in ["rooma.wok", "roomb.wok"] {
        let validate = run(&["validate".as_ref(), rooms.join(name).as_os_str()]);
        assert_eq!(validate.code, 0, "{}", validate.stdout);
    }
    let check = run(&["area".as_ref(), "check".as_ref(), lyt.as_os_str()]);
    assert_eq!(check.code, 0, "{}\n{}", check.stdout, check.stderr);
    assert!(
        check.stdout.contains("lyt.duplicate_room") && check.stdout.contains("line 5"),
        "{}",
        check.stdout
    );
}

#[test]
fn placeholder_rooms_may_repeat() {
    // BioWare's cutscene layouts name the model-less room `****` many times
    // (K1CP's stunt_endbridge.lyt: 13 times); it has no file, so nothing is refused.
    let dir = tempfile::tempdir().unwrap();
    let rooms = dir.path().join("rooms");
    std::fs::create_dir(&rooms).unwrap();
    room_woks(&rooms, &["rooma", "roomb"]);
    let lyt = layout(
        dir.path(),
        "stunt.lyt",
        &[
            ("rooma", "0"),
            ("****", "5"),
            ("roomb", "10"),
            ("****", "7"),
        ],
    );
    let out = dir.path().join("out");
    let solve = run(&[
        "area".as_ref(),
        "solve".as_ref(),
        rooms.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(solve.code, 0, "{}\n{}", solve.stdout, solve.stderr);
}

/// The refusal of room `room` placed at `x` on line `line`: exit 2, naming them.
fn assert_refused_as_far(run: &CliRun, room: &str, line: u64, x: &str) {
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!("\"{room}\""))
            && run.stderr.contains(&format!("line {line}"))
            && run.stderr.contains(x)
            && run.stderr.contains("1 mm apart")
            && run.stderr.contains("nothing was written"),
        "{}",
        run.stderr
    );
}

#[test]
fn generate_one_room_refuses_a_position_floats_cannot_hold() {
    for (x, shown) in [("3e38", "3e38"), ("1e30", "1e30"), ("20000", "20000")] {
        let dir = tempfile::tempdir().unwrap();
        floor_room_model(dir.path(), "rooma", [0.0, 0.0], [10.0, 10.0]);
        let lyt = layout(dir.path(), "far.lyt", &[("roomb", "0"), ("rooma", x)]);
        let wok = dir.path().join("rooma.wok");
        let refused = run(&[
            "generate".as_ref(),
            dir.path().join("rooma.mdl").as_os_str(),
            "--lyt".as_ref(),
            lyt.as_os_str(),
            "-o".as_ref(),
            wok.as_os_str(),
        ]);
        assert_refused_as_far(&refused, "rooma", 4, shown);
        assert!(!wok.exists(), "{x}");
    }
    // 8 km out, points 1 mm apart stay apart: placed as before.
    let dir = tempfile::tempdir().unwrap();
    floor_room_model(dir.path(), "rooma", [0.0, 0.0], [10.0, 10.0]);
    let lyt = layout(dir.path(), "near.lyt", &[("rooma", "8000")]);
    let wok = dir.path().join("rooma.wok");
    let placed = run(&[
        "generate".as_ref(),
        dir.path().join("rooma.mdl").as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        wok.as_os_str(),
    ]);
    assert_eq!(placed.code, 0, "{}", placed.stderr);
}

#[test]
fn generate_out_dir_refuses_a_room_placed_where_floats_cannot_hold_it() {
    for x in ["1e30", "3e38"] {
        let dir = tempfile::tempdir().unwrap();
        floor_room_model(dir.path(), "rooma", [0.0, 0.0], [10.0, 10.0]);
        floor_room_model(dir.path(), "roomb", [0.0, 0.0], [10.0, 10.0]);
        let lyt = layout(dir.path(), "far.lyt", &[("rooma", "0"), ("roomb", x)]);
        let out = dir.path().join("out");
        let refused = run(&[
            "generate".as_ref(),
            dir.path().as_os_str(),
            "--lyt".as_ref(),
            lyt.as_os_str(),
            "--out-dir".as_ref(),
            out.as_os_str(),
        ]);
        assert_refused_as_far(&refused, "roomb", 4, x);
        assert_empty(&out);
    }
}

#[test]
fn area_indoor_refuses_a_room_placed_where_floats_cannot_hold_it() {
    let dir = tempfile::tempdir().unwrap();
    let kits = dir.path().join("kits");
    std::fs::create_dir_all(kits.join("k")).unwrap();
    std::fs::write(
        kits.join("k.json"),
        r#"{"name": "k", "id": "k", "components": [{"name": "floor", "id": "floor"}]}"#,
    )
    .unwrap();
    std::fs::write(kits.join("k/floor.wok"), wok_bytes(&floor_mesh(0.0))).unwrap();
    let map = dir.path().join("far.indoor");
    std::fs::write(
        &map,
        r#"{"module_id": "m", "rooms": [
            {"kit": "k", "component": "floor", "position": [0, 0, 0]},
            {"kit": "k", "component": "floor", "position": [1e30, 0, 0]}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let refused = run(&[
        "area".as_ref(),
        "indoor".as_ref(),
        map.as_os_str(),
        out.as_os_str(),
        "--kits".as_ref(),
        kits.as_os_str(),
    ]);
    assert_eq!(refused.code, 2, "{}\n{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("\"m_room1\"")
            && refused.stderr.contains("1e30")
            && refused.stderr.contains("1 mm apart")
            && refused.stderr.contains("nothing was written"),
        "{}",
        refused.stderr
    );
    assert_empty(&out);
}

#[test]
fn validate_gives_an_error_for_walkable_faces_all_collapsed_onto_one_point() {
    let dir = tempfile::tempdir().unwrap();
    // The room `generate --lyt` wrote for a room placed at (1e30, 1e30, 0) before issue #51:
    // every corner rounds to the same point.
    let mut collapsed = floor_mesh(0.0);
    for v in &mut collapsed.vertices {
        v[0] += 1e30;
        v[1] += 1e30;
    }
    assert!(collapsed.vertices.windows(2).all(|w| w[0] == w[1]));
    let wok = dir.path().join("collapsed.wok");
    std::fs::write(&wok, wok_bytes(&collapsed)).unwrap();
    let validate = run(&["validate".as_ref(), wok.as_os_str(), "--json".as_ref()]);
    assert_eq!(validate.code, 1, "{}", validate.stdout);
    let json: serde_json::Value = serde_json::from_str(&validate.stdout).unwrap();
    let errors = json["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["code"] == "mesh.walkable_area_zero"),
        "{json}"
    );
    // One collapsed face among walkable faces with area stays a warning.
    let mut one = floor_mesh(0.0);
    one.vertices.push([0.0, 0.0, 0.0]);
    one.push_polygon(&[0, 4, 1], STONE);
    let wok = dir.path().join("one.wok");
    std::fs::write(&wok, wok_bytes(&one)).unwrap();
    let validate = run(&["validate".as_ref(), wok.as_os_str(), "--json".as_ref()]);
    let json: serde_json::Value = serde_json::from_str(&validate.stdout).unwrap();
    assert!(
        json["errors"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["code"] != "mesh.walkable_area_zero"),
        "{json}"
    );
}
