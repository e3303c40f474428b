#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh lint WALKMESH --model MODEL` and `walkmesh lint AREA --models DIR` on a real
//! K1 room (K1CP's m10ac_30a: its WOK stored at its layout position, its model in room
//! coordinates): quiet as shipped, the model placed where the layout puts it; a layout
//! that places the room 3 m off is one `model.lyt_offset` finding naming the position that
//! fits; `--baseline` and `--level` work on the model codes as on the others.

use std::path::{Path, PathBuf};

use walkmesh_tests::walkmesh;

/// The room's layout position (STATS.csv: WOK minus model).
const POSITION: [f32; 3] = [94.6453, 50.1967, 0.0];
const ROOM: &str = "k1cp/tslpatchdata/m10ac_30a";

fn room_files(root: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let model = root.join("kotor-models").join(format!("{ROOM}.mdl"));
    (
        root.join("kotor").join(format!("{ROOM}.wok")),
        model.clone(),
        model.with_extension("mdx"),
    )
}

/// A folder holding the room's WOK, MDL and MDX and a layout placing it at `position`.
fn area(dir: &Path, position: [f32; 3]) -> PathBuf {
    let root = walkmesh_tests::required_corpora();
    let (wok, mdl, mdx) = room_files(&root);
    let area = dir.join("area");
    std::fs::create_dir_all(&area).unwrap();
    for (from, ext) in [(&wok, "wok"), (&mdl, "mdl"), (&mdx, "mdx")] {
        std::fs::copy(from, area.join(format!("m10ac_30a.{ext}"))).unwrap();
    }
    let [x, y, z] = position;
    std::fs::write(
        area.join("m10ac.lyt"),
        format!(
            "beginlayout\nroomcount 1\n  m10ac_30a {x} {y} {z}\ntrackcount 0\nobstaclecount 0\ndoorhookcount 0\ndonelayout\n"
        ),
    )
    .unwrap();
    area
}

fn lint_json(args: &[&std::ffi::OsStr]) -> (i32, serde_json::Value) {
    let mut all: Vec<&std::ffi::OsStr> = vec!["lint".as_ref()];
    all.extend_from_slice(args);
    all.push(std::ffi::OsStr::new("--json"));
    // A one-room layout leaves the room's transitions to other rooms unmatched, and the
    // OBJ floors have no material: neither is what these tests are about.
    for rule in ["lint.transition_target", "obj.no_material"] {
        all.push(std::ffi::OsStr::new("--allow"));
        all.push(std::ffi::OsStr::new(rule));
    }
    let run = walkmesh(all);
    let json = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    (run.code, json)
}

fn codes(json: &serde_json::Value) -> Vec<String> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_shipped_room_against_its_model_is_quiet_and_placed_at_its_layout_position() {
    let root = walkmesh_tests::required_corpora();
    let (wok, mdl, _) = room_files(&root);
    let (code, json) = lint_json(&[wok.as_os_str(), "--model".as_ref(), mdl.as_os_str()]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(codes(&json), Vec::<String>::new(), "{json}");
    let shift = json["model"]["shift"].as_array().unwrap();
    for (axis, expected) in POSITION.iter().enumerate() {
        let got = shift[axis].as_f64().unwrap() as f32;
        assert!((got - expected).abs() <= 0.25, "{json}");
    }
    // The pedantic level shows what the default leaves out, each with its area.
    let (_, pedantic) = lint_json(&[
        wok.as_os_str(),
        "--model".as_ref(),
        mdl.as_os_str(),
        "--level".as_ref(),
        "pedantic".as_ref(),
    ]);
    let findings = pedantic["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{pedantic}");
    assert!(
        findings
            .iter()
            .all(|f| f["level"] == "pedantic" && f["code"].as_str().unwrap().starts_with("model."))
    );
    assert!(findings.iter().any(|f| f["area"].as_f64().is_some()));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_room_placed_3_m_off_by_its_layout_is_one_lyt_offset_with_the_position_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    // As shipped: no finding.
    let good = area(&dir.path().join("good"), POSITION);
    let (code, json) = lint_json(&[good.as_os_str(), "--models".as_ref(), good.as_os_str()]);
    assert_eq!(code, 0, "{json}");
    assert!(
        codes(&json).iter().all(|c| !c.starts_with("model.")),
        "{json}"
    );
    // The layout moves the room 3 m east and 2 m south of where its walkmesh lies.
    let moved = [POSITION[0] + 3.0, POSITION[1] - 2.0, POSITION[2]];
    let bad = area(&dir.path().join("bad"), moved);
    let (code, json) = lint_json(&[bad.as_os_str(), "--models".as_ref(), bad.as_os_str()]);
    assert_eq!(code, 1, "{json}");
    let offsets: Vec<&serde_json::Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "model.lyt_offset")
        .collect();
    assert_eq!(offsets.len(), 1, "{json}");
    assert_eq!(offsets[0]["level"], "default");
    // The message names the position that fits: the room's true one, within 0.25 m.
    let message = offsets[0]["message"].as_str().unwrap();
    let fits = message
        .split("fits the model placed at (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap();
    let fits: Vec<f32> = fits.split(", ").map(|v| v.parse().unwrap()).collect();
    for axis in 0..3 {
        assert!((fits[axis] - POSITION[axis]).abs() <= 0.25, "{message}");
    }
    // The model codes go into a baseline as any other: the same run against it is clean.
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_string(&json).unwrap()).unwrap();
    let (code, again) = lint_json(&[
        bad.as_os_str(),
        "--models".as_ref(),
        bad.as_os_str(),
        "--baseline".as_ref(),
        baseline.as_os_str(),
    ]);
    assert_eq!(code, 0, "{again}");
    assert!(
        codes(&again).iter().all(|c| !c.starts_with("model.")),
        "{again}"
    );
    assert!(again["baseline"]["known"].as_u64().unwrap() >= 1, "{again}");
}

#[test]
fn models_without_an_area_and_model_with_one_are_refused_as_usage() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("floor.obj");
    std::fs::write(&obj, "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nf 1 2 3 4\n").unwrap();
    let run = walkmesh([
        "lint".as_ref(),
        obj.as_os_str(),
        "--models".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--model MODEL"), "{}", run.stderr);
}

/// An OBJ (Y-up, as OBJ files are read) of Z-up `corners` and the `f` lines `faces`.
fn obj(corners: &[[f32; 3]], faces: &str) -> String {
    let mut text: String = corners
        .iter()
        .map(|[x, y, z]| format!("v {x} {z} {}\n", -y))
        .collect();
    text.push_str(faces);
    text
}

#[test]
fn an_obj_floor_against_itself_as_the_model_is_clean_and_a_lifted_copy_floats() {
    let dir = tempfile::tempdir().unwrap();
    // A 6 × 6 m floor as render geometry, and the same floor as the walkmesh.
    let floor = obj(
        &[
            [0.0, 0.0, 0.0],
            [6.0, 0.0, 0.0],
            [6.0, 6.0, 0.0],
            [0.0, 6.0, 0.0],
        ],
        "f 1 2 3 4\n",
    );
    let model = dir.path().join("room.obj");
    std::fs::write(&model, &floor).unwrap();
    let walk = dir.path().join("walk.obj");
    std::fs::write(&walk, &floor).unwrap();
    let args = |walkmesh_file: &Path| {
        vec![
            walkmesh_file.as_os_str().to_owned(),
            "--model".into(),
            model.as_os_str().to_owned(),
            "--engine".into(),
            "kotor".into(),
        ]
    };
    let clean = args(&walk);
    let clean: Vec<&std::ffi::OsStr> = clean.iter().map(|a| a.as_os_str()).collect();
    let (code, json) = lint_json(&clean);
    assert_eq!(code, 0, "{json}");
    assert!(
        codes(&json).iter().all(|c| !c.starts_with("model.")),
        "{json}"
    );
    // The middle 2 × 2 m lifted 0.4 m (its own vertices): floating, there.
    let lifted = dir.path().join("lifted.obj");
    let corners = [
        [0.0, 0.0, 0.0],
        [6.0, 0.0, 0.0],
        [6.0, 6.0, 0.0],
        [0.0, 6.0, 0.0],
        [2.0, 2.0, 0.0],
        [4.0, 2.0, 0.0],
        [4.0, 4.0, 0.0],
        [2.0, 4.0, 0.0],
        [2.0, 2.0, 0.4],
        [4.0, 2.0, 0.4],
        [4.0, 4.0, 0.4],
        [2.0, 4.0, 0.4],
    ];
    let faces = "f 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\nf 9 10 11 12\n";
    std::fs::write(&lifted, obj(&corners, faces)).unwrap();
    let lifted_args = args(&lifted);
    let lifted_args: Vec<&std::ffi::OsStr> = lifted_args.iter().map(|a| a.as_os_str()).collect();
    let (code, json) = lint_json(&lifted_args);
    assert_eq!(code, 1, "{json}");
    let floating: Vec<&serde_json::Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "model.floating")
        .collect();
    assert_eq!(floating.len(), 1, "{json}");
    let at = floating[0]["at"].as_array().unwrap();
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    assert!((x - 3.0).abs() <= 0.25 && (y - 3.0).abs() <= 0.25, "{json}");
    assert_eq!(floating[0]["faces"], serde_json::json!([4]), "{json}");
}

#[test]
fn a_walkable_edge_across_a_thin_wall_is_an_edge_through_the_wall_where_it_crosses() {
    let dir = tempfile::tempdir().unwrap();
    // Render geometry: a 6 × 4 m floor and a wall 0.1 m thick and 3 m high across it at x = 3.
    let (x0, x1) = (2.95, 3.05);
    let corners = [
        [0.0, 0.0, 0.0],
        [6.0, 0.0, 0.0],
        [6.0, 4.0, 0.0],
        [0.0, 4.0, 0.0],
        [x0, 0.0, 0.0],
        [x1, 0.0, 0.0],
        [x1, 4.0, 0.0],
        [x0, 4.0, 0.0],
        [x0, 0.0, 3.0],
        [x1, 0.0, 3.0],
        [x1, 4.0, 3.0],
        [x0, 4.0, 3.0],
    ];
    let faces =
        "f 1 2 3 4\nf 5 8 7 6\nf 9 10 11 12\nf 5 6 10 9\nf 6 7 11 10\nf 7 8 12 11\nf 8 5 9 12\n";
    let model = dir.path().join("room.obj");
    std::fs::write(&model, obj(&corners, faces)).unwrap();
    // The walkmesh: the floor as two triangles, the diagonal from (0, 0) to (6, 4) crossing
    // the wall at (3, 2); the edges along y = 0 and y = 4 run along the wall's ends only.
    let walk = dir.path().join("walk.obj");
    std::fs::write(&walk, obj(&corners[..4], "f 1 2 3\nf 1 3 4\n")).unwrap();
    let (code, json) = lint_json(&[
        walk.as_os_str(),
        "--model".as_ref(),
        model.as_os_str(),
        "--engine".as_ref(),
        "kotor".as_ref(),
    ]);
    assert_eq!(code, 1, "{json}");
    let crossings: Vec<&serde_json::Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "model.edge_through_wall")
        .collect();
    assert_eq!(crossings.len(), 1, "{json}");
    assert_eq!(crossings[0]["faces"], serde_json::json!([0, 1]), "{json}");
    let at = crossings[0]["at"].as_array().unwrap();
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    assert!((x - 3.0).abs() <= 0.25 && (y - 2.0).abs() <= 0.25, "{json}");
}
