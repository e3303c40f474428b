#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh generate`: a room OBJ (floor, crate, table) to a KotOR WOK and to glTF through
//! convert's write path (validated, lint-clean), the JSON report, usage errors; a real room
//! model from the shared corpora.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, ReadOptions};
use walkmesh_tests::walkmesh;

/// A 10 × 8 m floor (Z up) with a 2 × 2 × 1 m crate and a table top 0.8 m high.
fn room_obj(dir: &Path) -> PathBuf {
    let mut text =
        String::from("usemtl Wood\nv 0 0 0\nv 10 0 0\nv 10 8 0\nv 0 8 0\nf 1 2 3\nf 1 3 4\n");
    let mut next = 5;
    let mut cuboid = |text: &mut String, lo: [f32; 3], hi: [f32; 3]| {
        for z in [lo[2], hi[2]] {
            for (x, y) in [
                (lo[0], lo[1]),
                (hi[0], lo[1]),
                (hi[0], hi[1]),
                (lo[0], hi[1]),
            ] {
                text.push_str(&format!("v {x} {y} {z}\n"));
            }
        }
        let v = |i: u32| next + i;
        let quads = [
            [4, 5, 6, 7],
            [0, 3, 2, 1],
            [0, 1, 5, 4],
            [1, 2, 6, 5],
            [2, 3, 7, 6],
            [3, 0, 4, 7],
        ];
        text.push_str("usemtl Metal\n");
        for q in quads {
            text.push_str(&format!(
                "f {} {} {} {}\n",
                v(q[0]),
                v(q[1]),
                v(q[2]),
                v(q[3])
            ));
        }
        next += 8;
    };
    cuboid(&mut text, [2.0, 2.0, 0.0], [4.0, 4.0, 1.0]);
    cuboid(&mut text, [6.0, 4.0, 0.75], [8.0, 6.0, 0.8]);
    let path = dir.join("room.obj");
    std::fs::write(&path, text).unwrap();
    path
}

fn read(path: &Path) -> walkmesh_core::NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    format
        .reader()
        .unwrap()
        .read(input, &ReadOptions::default(), &mut Diagnostics::new())
        .unwrap()
}

#[test]
fn a_room_obj_becomes_a_valid_lint_clean_wok_without_the_crate_and_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let obj = room_obj(dir.path());
    let wok = dir.path().join("room.wok");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        wok.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let report = &json["report"];
    assert_eq!(
        report["params"]["engine"], "kotor",
        "the preset follows OUT's extension"
    );
    // Kept: the floor around the crate and under the table's clearance is cut out.
    let area = report["walkable_area"].as_f64().unwrap();
    assert!((62.0..76.0).contains(&area), "walkable area {area}");
    let dropped = report["dropped"].as_array().unwrap();
    assert!(
        dropped
            .iter()
            .any(|c| (c["centre"][2].as_f64().unwrap() - 0.8).abs() < 0.1),
        "the table top is reported as dropped: {dropped:?}"
    );
    assert_eq!(json["conversion"]["output_errors"], 0);
    // Surfaces from the render material (`usemtl Wood`).
    assert!(
        report["materials"]["Wood"].as_u64().unwrap() > 0,
        "{}",
        report["materials"]
    );
    let mesh = read(&wok);
    // Walkable floor, and the holes under the crate and the table filled with non-walkable
    // faces (as BioWare's WOKs have them): as many as the report says.
    let fill = report["holes"]["faces"].as_u64().unwrap() as usize;
    assert!(
        fill >= 4,
        "two holes of at least two triangles: {}",
        report["holes"]
    );
    assert_eq!(mesh.walkable_count() + fill, mesh.polygons.len());
    assert!(
        (0..mesh.polygons.len())
            .filter(|&p| !mesh.is_walkable(p))
            .all(|p| mesh.surfaces[p].material.name() == "NonWalk")
    );
    assert!(walkmesh(["validate".as_ref(), wok.as_os_str()]).code == 0);
    let lint = walkmesh(["lint".as_ref(), wok.as_os_str(), "--json".as_ref()]);
    for code in [
        "lint.downward_walkable",
        "lint.degenerate",
        "lint.t_junction",
        "lint.overlap",
    ] {
        assert!(!lint.stdout.contains(code), "{code} in {}", lint.stdout);
    }
}

#[test]
fn glb_output_keep_unreachable_and_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let obj = room_obj(dir.path());
    let glb = dir.path().join("room.glb");
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = vec![
            "generate".into(),
            obj.display().to_string(),
            "--up".into(),
            "z".into(),
        ];
        v.extend([
            "-o".into(),
            glb.display().to_string(),
            "--engine".into(),
            "kotor".into(),
            "--json".into(),
        ]);
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let all = walkmesh(args(&["--keep-unreachable"]));
    assert_eq!(all.code, 0, "{}", all.stderr);
    let json: serde_json::Value = serde_json::from_str(&all.stdout).unwrap();
    assert_eq!(json["conversion"]["to"], "gltf");
    let with_table = json["report"]["walkable_area"].as_f64().unwrap();
    // A seed on the table keeps the table top only.
    let seeded = walkmesh(args(&["--seed", "7,5,0.8"]));
    assert_eq!(seeded.code, 0, "{}", seeded.stderr);
    let json: serde_json::Value = serde_json::from_str(&seeded.stdout).unwrap();
    let table = json["report"]["walkable_area"].as_f64().unwrap();
    assert!((3.5..4.5).contains(&table), "table top {table}");
    assert!(with_table > table + 60.0, "{with_table}");
}

#[test]
fn bad_parameters_and_inputs_without_floor_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let obj = room_obj(dir.path());
    let out = dir.path().join("x.wok");
    let bad = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--max-slope".as_ref(),
        "95".as_ref(),
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("max_slope"), "{}", bad.stderr);
    // A wall only: no floor.
    let wall = dir.path().join("wall.obj");
    std::fs::write(&wall, "v 0 0 0\nv 1 0 0\nv 1 0 2\nv 0 0 2\nf 1 2 3 4\n").unwrap();
    let none = walkmesh([
        "generate".as_ref(),
        wall.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("no walkable floor"), "{}", none.stderr);
    assert!(!out.exists());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_real_room_model_generates_a_valid_wok() {
    let root = walkmesh_tests::required_corpora();
    let model = root.join("kotor-models/pykotor-kits/sithbase/hall_7.mdl");
    let dir = tempfile::tempdir().unwrap();
    let wok = dir.path().join("hall_7.wok");
    let run = walkmesh([
        "generate".as_ref(),
        model.as_os_str(),
        "-o".as_ref(),
        wok.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mesh = read(&wok);
    assert!(mesh.polygons.len() >= 4);
    assert_eq!(walkmesh(["validate".as_ref(), wok.as_os_str()]).code, 0);
}

#[test]
fn lyt_places_the_room_and_its_door_hooks_are_the_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let obj = room_obj(dir.path());
    let lyt = dir.path().join("area.lyt");
    // The room at (10, 20, 0); its one door hook on the table top (room (7, 5, 0.8)).
    std::fs::write(
        &lyt,
        "beginlayout\nroomcount 1\n  room 10 20 0\ntrackcount 0\nobstaclecount 0\ndoorhookcount 1\n  room door_01 0 17 25 0.8 1 0 0 0\ndonelayout\n",
    )
    .unwrap();
    let wok = dir.path().join("room.wok");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "-o".as_ref(),
        wok.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let table = json["report"]["walkable_area"].as_f64().unwrap();
    assert!(
        (3.5..4.5).contains(&table),
        "the hook's table top only: {table}"
    );
    let mesh = read(&wok);
    for v in &mesh.vertices {
        assert!(
            (15.9..18.1).contains(&v[0]) && (23.9..26.1).contains(&v[1]),
            "{v:?} not in area coordinates"
        );
        assert!((v[2] - 0.8).abs() < 0.05, "{v:?}");
    }
    // A room the layout does not name is a usage error.
    let other = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--room".as_ref(),
        "nowhere".as_ref(),
        "-o".as_ref(),
        wok.as_os_str(),
    ]);
    assert_eq!(other.code, 2, "{}", other.stderr);
}

/// An OBJ (Z up) of an `n` × `n` grid of quads over [x0, x1]², heights
/// `amplitude · sin(kx) · sin(ky)`.
fn bumpy_obj(path: &Path, x0: f32, x1: f32, n: u32, amplitude: f32, k: f32) {
    let step = (x1 - x0) / n as f32;
    let mut text = String::new();
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (x0 + i as f32 * step, x0 + j as f32 * step);
            let z = amplitude * (k * x).sin() * (k * y).sin();
            text.push_str(&format!("v {x} {y} {z}\n"));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i + 1;
    for j in 0..n {
        for i in 0..n {
            text.push_str(&format!(
                "f {} {} {} {}\n",
                at(i, j),
                at(i + 1, j),
                at(i + 1, j + 1),
                at(i, j + 1)
            ));
        }
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn an_over_full_nwn2_tile_is_simplified_and_the_trx_validates() {
    // 8 × 8 m of ±0.5 m bumps in tile (0, 0): 158 walkable triangles before the tile budget
    // (generate/tests/limits.rs), at most 127 after.
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("bumps.obj");
    bumpy_obj(&obj, 0.5, 8.5, 48, 0.5, 1.3);
    let trx = dir.path().join("bumps.trx");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "--engine".as_ref(),
        "nwn2".as_ref(),
        "-o".as_ref(),
        trx.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let simplified = &json["report"]["nwn2_simplified"];
    assert_eq!(simplified["tiles"], 1, "{simplified}");
    assert!(simplified["faces_after"].as_u64().unwrap() <= 127);
    assert!(
        json["conversion"]["diagnostics"]
            .to_string()
            .contains("generate.nwn2_tile_simplified"),
        "{}",
        json["conversion"]
    );
    assert_eq!(json["conversion"]["output_errors"], 0);
    let mesh = read(&trx);
    assert!(mesh.walkable_count() <= 127 && mesh.walkable_count() > 0);
    assert_eq!(walkmesh(["validate".as_ref(), trx.as_os_str()]).code, 0);
    let lint = walkmesh(["lint".as_ref(), trx.as_os_str(), "--json".as_ref()]);
    for code in [
        "lint.downward_walkable",
        "lint.degenerate",
        "lint.t_junction",
        "lint.overlap",
    ] {
        assert!(!lint.stdout.contains(code), "{code} in {}", lint.stdout);
    }
}

#[test]
fn an_nwn2_tile_that_cannot_hold_is_refused_by_name() {
    // 72 separate 0.6 m plateaus 1 m apart in tile (0, 0), all kept: 144 walkable triangles,
    // each a corner of its own square, so nothing can be simplified.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    let mut next = 1;
    for k in 0..72 {
        let (x, y, z) = (
            0.2 + (k % 8) as f32,
            0.2 + (k / 8) as f32,
            (k % 2) as f32 * 0.05,
        );
        for (dx, dy) in [(0.0, 0.0), (0.6, 0.0), (0.6, 0.6), (0.0, 0.6)] {
            text.push_str(&format!("v {} {} {z}\n", x + dx, y + dy));
        }
        text.push_str(&format!(
            "f {} {} {} {}\n",
            next,
            next + 1,
            next + 2,
            next + 3
        ));
        next += 4;
    }
    let obj = dir.path().join("plateaus.obj");
    std::fs::write(&obj, text).unwrap();
    let trx = dir.path().join("plateaus.trx");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        trx.as_os_str(),
        "--keep-unreachable".as_ref(),
        "--agent-radius".as_ref(),
        "0".as_ref(),
        "--min-passage-width".as_ref(),
        "0".as_ref(),
        "--min-region-area".as_ref(),
        "0".as_ref(),
    ]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("column 0, row 0") && run.stderr.contains("nothing written"),
        "{}",
        run.stderr
    );
    assert!(!trx.exists());
}

/// An OBJ (Z up) of the two-storey room a modeller makes, from (6, 8) so that the TRX tile
/// lines x = 9 and y = 9 run 3 m and 1 m into it: an 8 × 8 m ground floor walled 6 m high, a
/// gallery 8 × 3 m along the north wall 3 m up (a 0.2 m slab, a 1 m railing, a pillar under
/// it), a stair of 12 steps (0.25 m rise, 0.28 m tread, 3 m wide, `usemtl Wood`) along the
/// east wall from y = 1.64 up to the gallery (`generate/tests/tiles.rs` builds the same).
fn two_storey_obj(path: &Path) {
    let (ox, oy) = (6.0f32, 8.0f32);
    let mut text = String::new();
    let mut next = 1;
    let mut quad = |text: &mut String, corners: [[f32; 3]; 4]| {
        for [x, y, z] in corners {
            text.push_str(&format!("v {} {} {z}\n", x + ox, y + oy));
        }
        text.push_str(&format!(
            "f {} {} {} {}\n",
            next,
            next + 1,
            next + 2,
            next + 3
        ));
        next += 4;
    };
    text.push_str("usemtl Stone\n");
    quad(
        &mut text,
        [[0., 0., 0.], [8., 0., 0.], [8., 8., 0.], [0., 8., 0.]],
    );
    let boxes = [
        ([-0.2, -0.2, 0.0], [8.2, 0.0, 6.0]),
        ([-0.2, 8.0, 0.0], [8.2, 8.2, 6.0]),
        ([-0.2, 0.0, 0.0], [0.0, 8.0, 6.0]),
        ([8.0, 0.0, 0.0], [8.2, 8.0, 6.0]),
        ([0.0, 5.0, 2.8], [8.0, 8.0, 3.0]),
        ([0.0, 5.0, 3.0], [5.0, 5.05, 4.0]),
        ([2.3, 5.0, 0.0], [2.7, 5.4, 2.8]),
    ];
    for ([x0, y0, z0], [x1, y1, z1]) in boxes {
        for q in [
            [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
            [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
            [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
            [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
            [[x1, y1, z0], [x0, y1, z0], [x0, y1, z1], [x1, y1, z1]],
            [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
        ] {
            quad(&mut text, q);
        }
    }
    text.push_str("usemtl Wood\n");
    for k in 0..12 {
        let (y0, y1) = (1.64 + k as f32 * 0.28, 1.64 + (k + 1) as f32 * 0.28);
        let (z0, z1) = (k as f32 * 0.25, (k + 1) as f32 * 0.25);
        quad(
            &mut text,
            [[5., y0, z0], [8., y0, z0], [8., y0, z1], [5., y0, z1]],
        );
        quad(
            &mut text,
            [[5., y0, z1], [8., y0, z1], [8., y1, z1], [5., y1, z1]],
        );
        quad(
            &mut text,
            [[5., y1, 0.], [5., y0, 0.], [5., y0, z1], [5., y1, z1]],
        );
        quad(
            &mut text,
            [[8., y0, 0.], [8., y1, 0.], [8., y1, z1], [8., y0, z1]],
        );
    }
    std::fs::write(path, text).unwrap();
}

/// Plan area of the walkable triangles of `mesh` whose corners all satisfy `keep`.
fn walkable_plan_area(mesh: &walkmesh_core::NavMesh, keep: impl Fn(&[f32; 3]) -> bool) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| -> Vec<[f32; 3]> {
            mesh.polygons
                .get(p)
                .iter()
                .map(|&i| mesh.vertex(i))
                .collect()
        })
        .filter(|v| v.iter().all(&keep))
        .map(|v| {
            let [a, b, c] = [v[0], v[1], v[2]].map(|p| p.map(f64::from));
            (((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0).abs()
        })
        .sum()
}

#[test]
fn a_two_storey_room_across_tile_lines_becomes_a_valid_trx() {
    // Before the floor was cut at the tile lines, 12 walkable triangles crossed x = 9 or
    // y = 9 and the TRX writer counted 128 walkable triangles in tile (1, 1) where the
    // generator counted 126: exit 2, nothing written.
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("two_storey.obj");
    two_storey_obj(&obj);
    let trx = dir.path().join("two_storey.trx");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        trx.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let report = &json["report"];
    assert_eq!(report["params"]["engine"], "nwn2");
    assert!(report["tile_line_points"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["limits"], serde_json::json!([]));
    assert_eq!(json["conversion"]["output_errors"], 0);
    assert_eq!(walkmesh(["validate".as_ref(), trx.as_os_str()]).code, 0);
    let lint = walkmesh(["lint".as_ref(), trx.as_os_str(), "--json".as_ref()]);
    for code in [
        "lint.downward_walkable",
        "lint.degenerate",
        "lint.t_junction",
        "lint.overlap",
    ] {
        assert!(!lint.stdout.contains(code), "{code} in {}", lint.stdout);
    }
    // Every tile of the file holds, counted by the tile each triangle is stored in.
    let mesh = read(&trx);
    let Some(walkmesh_core::ir::Attribute::Int(tiles)) = mesh.face_attributes.get("nwn2:tile")
    else {
        panic!("no tile per face in the TRX read back");
    };
    let mut per_tile = std::collections::BTreeMap::<i64, usize>::new();
    for (p, &tile) in tiles.iter().enumerate() {
        if mesh.is_walkable(p) {
            *per_tile.entry(tile).or_default() += 1;
        }
    }
    assert!(per_tile.values().all(|&n| n <= 127), "{per_tile:?}");
    assert!(per_tile.len() >= 3, "the room spans tiles: {per_tile:?}");
    // Both storeys (the bounds of generate/tests/tiles.rs: the room less its margins, the
    // stair and the pillar; the gallery less its margins and the railing).
    let ground = walkable_plan_area(&mesh, |v| v[2].abs() < 0.05);
    let gallery = walkable_plan_area(&mesh, |v| (v[2] - 3.0).abs() < 0.05);
    assert!((40.0..58.1).contains(&ground), "ground floor {ground} m²");
    assert!((15.0..24.0).contains(&gallery), "gallery {gallery} m²");
}

#[test]
fn a_path_output_is_cooked_once() {
    // The PATH writer cooks the mesh; the limit check must not cook it a second time. Every
    // cook names its phase ("cooking PATH: …"), which a progress listener on this thread sees.
    use std::sync::{Arc, Mutex};
    use walkmesh_core::progress::{Status, with_status};
    let dir = tempfile::tempdir().unwrap();
    let obj = room_obj(dir.path());
    let path = dir.path().join("room.path");
    let phases = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&phases);
    let status = Arc::new(Status::new(Some(Box::new(move |s| {
        seen.lock().unwrap().push(s.phase.clone());
    }))));
    let run = with_status(status, || {
        walkmesh([
            "generate".as_ref(),
            obj.as_os_str(),
            "--up".as_ref(),
            "z".as_ref(),
            "-o".as_ref(),
            path.as_os_str(),
        ])
    });
    assert_eq!(run.code, 0, "{}", run.stderr);
    let phases = phases.lock().unwrap();
    // A cook's first phase is "cooking PATH: N polygons" (then merging, writing regions).
    let cooks = phases
        .iter()
        .filter(|p| p.starts_with("cooking PATH: ") && p.ends_with(" polygons"))
        .count();
    assert_eq!(cooks, 1, "{phases:#?}");
    assert_eq!(walkmesh(["validate".as_ref(), path.as_os_str()]).code, 0);
}

#[test]
fn obj_material_names_the_profile_does_not_know_reach_the_generator() {
    // `usemtl LDA_flr_planks01` is no material of any profile, but its name says planks:
    // the generated floor is Wood, not the default Stone.
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("planks.obj");
    std::fs::write(
        &obj,
        "usemtl LDA_flr_planks01\nv 0 0 0\nv 6 0 0\nv 6 5 0\nv 0 5 0\nf 1 2 3 4\n",
    )
    .unwrap();
    let wok = dir.path().join("planks.wok");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        wok.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let materials = &json["report"]["materials"];
    assert!(materials["Wood"].as_u64().unwrap() > 0, "{materials}");
    assert!(materials.get("Stone").is_none(), "{materials}");
    let mesh = read(&wok);
    assert!(
        (0..mesh.polygons.len())
            .filter(|&p| mesh.is_walkable(p))
            .all(|p| mesh.surfaces[p].material.name() == "Wood")
    );
}

/// A 10 × 8 m floor (Z up) with walls 4 m high and 0.2 m thick on the south (y = 0), west
/// (x = 0) and east (x = 10) sides, the north side open, and a 1 × 1 × 1 m crate.
fn walled_room_obj(dir: &Path) -> PathBuf {
    let mut text =
        String::from("usemtl Stone\nv 0 0 0\nv 10 0 0\nv 10 8 0\nv 0 8 0\nf 1 2 3\nf 1 3 4\n");
    let mut next = 5;
    let boxes = [
        ([-0.2, -0.2, 0.0], [10.2, 0.0, 4.0]),
        ([-0.2, 0.0, 0.0], [0.0, 8.0, 4.0]),
        ([10.0, 0.0, 0.0], [10.2, 8.0, 4.0]),
        ([4.0, 4.0, 0.0], [5.0, 5.0, 1.0]),
    ];
    for (lo, hi) in boxes {
        for z in [lo[2], hi[2]] {
            for (x, y) in [
                (lo[0], lo[1]),
                (hi[0], lo[1]),
                (hi[0], hi[1]),
                (lo[0], hi[1]),
            ] {
                text.push_str(&format!("v {x} {y} {z}\n"));
            }
        }
        text.push_str("usemtl Metal\n");
        for q in [
            [4, 5, 6, 7],
            [0, 3, 2, 1],
            [0, 1, 5, 4],
            [1, 2, 6, 5],
            [2, 3, 7, 6],
            [3, 0, 4, 7],
        ] {
            let v: Vec<String> = q.iter().map(|i| (next + i).to_string()).collect();
            text.push_str(&format!("f {}\n", v.join(" ")));
        }
        next += 8;
    }
    let path = dir.join("walled.obj");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_kotor_wok_holds_walls_on_the_walled_sides_only() {
    let dir = tempfile::tempdir().unwrap();
    let obj = walled_room_obj(dir.path());
    let wok = dir.path().join("walled.wok");
    let run = walkmesh([
        "generate".as_ref(),
        obj.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
        "-o".as_ref(),
        wok.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let report = &json["report"];
    let walls = report["walls"]["faces"].as_u64().unwrap() as usize;
    let fill = report["holes"]["faces"].as_u64().unwrap() as usize;
    assert_eq!(report["walls"]["walled"], 3, "{}", report["walls"]);
    assert!(walls >= 6, "{}", report["walls"]);
    let mesh = read(&wok);
    assert_eq!(mesh.walkable_count() + fill + walls, mesh.polygons.len());
    // The walls: upright NonWalk faces on the three walled sides, 3 m high; none on the
    // open north side.
    let mut upright = 0;
    for p in (0..mesh.polygons.len()).filter(|&p| !mesh.is_walkable(p)) {
        assert_eq!(mesh.surfaces[p].material.name(), "NonWalk");
        let corners: Vec<[f32; 3]> = mesh
            .polygons
            .get(p)
            .iter()
            .map(|&i| mesh.vertex(i))
            .collect();
        let top = corners.iter().map(|c| c[2]).fold(f32::MIN, f32::max);
        if top < 0.01 {
            continue; // the crate's hole fill
        }
        upright += 1;
        assert!((top - 3.0).abs() < 0.01, "wall top {top}: {corners:?}");
        let side = |axis: usize, at: f32| corners.iter().all(|c| (c[axis] - at).abs() < 0.15);
        assert!(
            side(1, 0.0) || side(0, 0.0) || side(0, 10.0),
            "a wall off the walled sides: {corners:?}"
        );
        assert!(
            !corners.iter().all(|c| c[1] > 7.85),
            "a wall on the open side: {corners:?}"
        );
    }
    assert_eq!(upright, walls);
    assert!(walkmesh(["validate".as_ref(), wok.as_os_str()]).code == 0);
    let lint = walkmesh(["lint".as_ref(), wok.as_os_str(), "--json".as_ref()]);
    for code in [
        "lint.downward_walkable",
        "lint.degenerate",
        "lint.t_junction",
        "lint.overlap",
    ] {
        assert!(!lint.stdout.contains(code), "{code} in {}", lint.stdout);
    }
}

/// Issue #50: without --seed the start floor is chosen by named rules, and the report says
/// which: a grass island 0.3 m over a larger water plane keeps the island (`no-water`);
/// `--not-floor ""` turns the rule off and the water plane, the largest piece, is kept.
#[test]
fn the_start_floor_rule_is_reported_and_the_words_are_the_callers() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("island.obj");
    std::fs::write(
        &obj,
        "usemtl dxn_water09\nv -20 -20 0\nv 20 -20 0\nv 20 20 0\nv -20 20 0\nf 1 2 3 4\n\
         usemtl DXN_grass01\nv -5 -5 0.3\nv 5 -5 0.3\nv 5 5 0.3\nv -5 5 0.3\nf 5 6 7 8\n\
         v -5 -5 -1\nv 5 -5 -1\nv 5 5 -1\nv -5 5 -1\n\
         f 9 10 6 5\nf 10 11 7 6\nf 11 12 8 7\nf 12 9 5 8\n",
    )
    .unwrap();
    let out = dir.path().join("island.wok");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "generate".to_string(),
            obj.display().to_string(),
            "--up".into(),
            "z".into(),
            "-o".into(),
            out.display().to_string(),
            "--json".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let run = walkmesh(args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()
    };
    let json = run(&[]);
    let report = &json["report"];
    assert_eq!(report["start"]["rule"], "no-water", "{report:#}");
    assert_eq!(report["kept"][0]["reason"], "no-water");
    let area = report["walkable_area"].as_f64().unwrap();
    assert!((95.0..=101.0).contains(&area), "{area}");
    let passed = &report["start"]["passed_over"][0];
    assert!(passed["area"].as_f64().unwrap() > 1000.0, "{passed}");
    let json = run(&["--not-floor", ""]);
    assert_eq!(json["report"]["start"]["rule"], "largest");
    assert!(json["report"]["walkable_area"].as_f64().unwrap() > 1000.0);
    // The text report names the rule too.
    let text = walkmesh([
        "generate",
        obj.to_str().unwrap(),
        "--up",
        "z",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        text.stdout
            .contains("start floor chosen by the rule: no-water"),
        "{}",
        text.stdout
    );
}
