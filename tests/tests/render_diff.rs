#![cfg(all(feature = "bwm", feature = "nwn2", feature = "prime", feature = "gltf"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh render` and `walkmesh diff` on the shared corpora (acceptance of issue #11):
//!
//! - `diff A A` reports zero on every corpus walkmesh;
//! - `diff A (A → .glb → A)` reports zero for every KotOR and NWN2 file;
//! - `diff room.wok (room.wok → .trx)` reports exactly the translation the NWN2 writer
//!   applied (which the writer states in its `trx.mesh_moved` warning and which is computed
//!   here independently from the bounds and the 9 m tile width);
//! - `diff area.trx (area.trx → .path)` reports the walkable area the cooker lost, and where;
//! - `render` of every corpus file succeeds (SVG and PNG, same size, deterministic bytes);
//!   component mode of a corpus area with a known split shows two colours.

use std::path::{Path, PathBuf};

use serde_json::Value;
use walkmesh_core::testing::files_with_extensions;
use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_tests::{required_corpora, walkmesh};

const WALKMESH_EXTENSIONS: &[&str] = &["wok", "pwk", "dwk", "bwm", "trx", "trn", "path"];

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-rd-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The shared corpus files with these extensions (the tests calling this are ignored without
/// the corpora).
fn corpus_files(extensions: &[&str]) -> Vec<PathBuf> {
    let files = files_with_extensions(&required_corpora(), extensions);
    assert!(
        !files.is_empty(),
        "no {extensions:?} files in the shared corpora"
    );
    files
}

fn read(path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let head = &bytes[..bytes.len().min(65536)];
    let format = registry.detect(path, head, bytes.len() as u64).unwrap();
    format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap()
}

fn readable(path: &Path) -> bool {
    walkmesh(["info".as_ref(), path.as_os_str()]).code == 0
}

fn diff_json(a: &Path, b: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args: Vec<std::ffi::OsString> =
        vec!["diff".into(), a.into(), b.into(), "--json".into()];
    args.extend(extra.iter().map(Into::into));
    let run = walkmesh(args);
    assert!(
        run.code == 0 || run.code == 1,
        "diff {} {}: exit {} {}",
        a.display(),
        b.display(),
        run.code,
        run.stderr
    );
    (run.code, serde_json::from_str(&run.stdout).unwrap())
}

/// Every delta, area difference, translation and distance of a report is zero.
fn assert_all_zero(report: &Value, what: &str) {
    assert_eq!(report["equal"], true, "{what}: {}", report["differences"]);
    for table in ["counts", "connectivity"] {
        for row in report[table].as_array().unwrap() {
            assert_eq!(row["delta"], 0, "{what}: {row}");
        }
    }
    for row in report["walkable_area"].as_array().unwrap() {
        assert_eq!(row["delta"].as_f64(), Some(0.0), "{what}: {row}");
    }
    assert_eq!(
        report["placement"]["translation"],
        serde_json::json!([0.0, 0.0, 0.0])
    );
    assert_eq!(
        report["footprint"]["symmetric_difference"].as_f64(),
        Some(0.0),
        "{what}"
    );
    let distance = report["surface_distance"]["hausdorff"].as_f64().unwrap();
    assert!(distance < 1e-9, "{what}: Hausdorff {distance}");
    // Every face of A is found in B, unchanged.
    let changes = &report["face_changes"];
    assert_eq!(changes["listed"], serde_json::json!([]), "{what}");
    assert_eq!(changes["unchanged"], report["counts"][1]["a"], "{what}");
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn diff_of_every_corpus_file_with_itself_is_zero() {
    let files = corpus_files(WALKMESH_EXTENSIONS);
    let mut compared = 0;
    for file in files.iter().filter(|f| readable(f)) {
        let (code, report) = diff_json(file, file, &[]);
        assert_eq!(code, 0, "{}", file.display());
        assert_all_zero(&report, &file.display().to_string());
        compared += 1;
    }
    assert!(compared >= 100, "only {compared} corpus files compared");
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn diff_after_a_glb_round_trip_is_zero_for_kotor_and_nwn2() {
    let files = corpus_files(&["wok", "pwk", "dwk", "trx", "trn"]);
    let dir = temp_dir("glb");
    let mut compared = 0;
    for (i, file) in files.iter().filter(|f| readable(f)).enumerate() {
        let ext = file
            .extension()
            .unwrap()
            .to_string_lossy()
            .to_ascii_lowercase();
        let glb = dir.join(format!("{i}.glb"));
        let back = dir.join(format!("{i}.{ext}"));
        let run = walkmesh(["convert".as_ref(), file.as_os_str(), glb.as_os_str()]);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        let run = walkmesh(["convert".as_ref(), glb.as_os_str(), back.as_os_str()]);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        let (code, report) = diff_json(file, &back, &[]);
        assert_eq!(code, 0, "{}", file.display());
        assert_all_zero(&report, &file.display().to_string());
        compared += 1;
    }
    assert!(compared >= 100, "only {compared} files compared");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn diff_of_a_room_and_its_trx_reports_the_writers_translation() {
    let files = corpus_files(&["wok"]);
    let dir = temp_dir("trx");
    let mut checked = 0;
    for (i, file) in files.iter().filter(|f| readable(f)).enumerate() {
        let mesh = read(file);
        let Some((min, _)) = mesh.bounds() else {
            continue;
        };
        if min[0] >= 0.0 && min[1] >= 0.0 {
            continue;
        }
        // The NWN2 writer moves a mesh reaching below 0 by whole 9 m tiles.
        let shift = |m: f32| {
            if m < 0.0 {
                -(m / 9.0).floor() * 9.0
            } else {
                0.0
            }
        };
        let expected = [f64::from(shift(min[0])), f64::from(shift(min[1])), 0.0];
        let trx = dir.join(format!("{i}.trx"));
        let run = walkmesh(["convert".as_ref(), file.as_os_str(), trx.as_os_str()]);
        if run.code != 0 {
            continue; // more than 127 walkable triangles in a tile, etc.
        }
        assert!(
            run.stderr
                .contains(&format!("by ({}, {}, ", expected[0], expected[1])),
            "{}: {}",
            file.display(),
            run.stderr
        );
        let (code, report) = diff_json(file, &trx, &[]);
        assert_eq!(code, 1, "{}: moved, so different", file.display());
        let translation: Vec<f64> =
            serde_json::from_value(report["placement"]["translation"].clone()).unwrap();
        assert_eq!(translation, expected.to_vec(), "{}", file.display());
        // Moved back, the shapes agree: no footprint or surface difference beyond the f32
        // rounding of the moved coordinates.
        let (_, aligned) = diff_json(file, &trx, &["--align", "--tolerance", "0.001"]);
        let area_tolerance = aligned["area_tolerance"].as_f64().unwrap();
        assert!(
            aligned["footprint"]["symmetric_difference"]
                .as_f64()
                .unwrap()
                <= area_tolerance,
            "{}: {}",
            file.display(),
            aligned["footprint"]
        );
        assert!(aligned["surface_distance"]["hausdorff"].as_f64().unwrap() <= 0.001);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rooms checked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PATH keeps only the walkable faces of its TRX (issue #28): placement comes from the
/// walkable footprint, so a cook that kept the ground in place is not "moved"; identical
/// footprints have identical topology counts; `--align` never makes the match worse.
fn assert_placement_and_topology_follow_the_footprint(trx: &Path, path: &Path, report: &Value) {
    let what = trx.display();
    let footprint = &report["footprint"];
    let symmetric = footprint["symmetric_difference"].as_f64().unwrap();
    let area_tolerance = report["area_tolerance"].as_f64().unwrap();
    let placement = &report["placement"];
    if symmetric <= area_tolerance {
        assert_eq!(
            placement["basis"], "footprints_coincide",
            "{what}: {placement}"
        );
        let t: [f64; 3] = serde_json::from_value(placement["translation"].clone()).unwrap();
        assert_eq!([t[0], t[1]], [0.0, 0.0], "{what}: {placement}");
        assert!(
            !report["differences"].to_string().contains("moved by"),
            "{what}: {}",
            report["differences"]
        );
        for row in report["connectivity"].as_array().unwrap() {
            if row["name"].as_str().unwrap().starts_with("footprint_") {
                assert_eq!(row["delta"], 0, "{what}: same footprint, {row}");
            }
        }
    }
    let (_, aligned) = diff_json(trx, path, &["--align"]);
    let after = aligned["footprint"]["symmetric_difference"]
        .as_f64()
        .unwrap();
    assert!(
        after <= symmetric,
        "{what}: --align made {symmetric} into {after}"
    );
    let hausdorff = |r: &Value| r["surface_distance"]["hausdorff"].as_f64().unwrap();
    if aligned["placement"]["aligned"] == false {
        assert_eq!(hausdorff(&aligned), hausdorff(report), "{what}");
    }
}

/// Sum of the projected XY areas of the walkable polygons whose centre lies in `[min, max]`.
fn area_centred_in(mesh: &NavMesh, min: [f64; 2], max: [f64; 2]) -> f64 {
    let mut total = 0.0;
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let points: Vec<[f64; 2]> = polygon
            .iter()
            .map(|&i| {
                let v = mesh.vertex(i);
                [f64::from(v[0]), f64::from(v[1])]
            })
            .collect();
        let n = points.len() as f64;
        let c = [
            points.iter().map(|p| p[0]).sum::<f64>() / n,
            points.iter().map(|p| p[1]).sum::<f64>() / n,
        ];
        if c[0] >= min[0] && c[0] <= max[0] && c[1] >= min[1] && c[1] <= max[1] {
            let mut twice = 0.0;
            for k in 0..points.len() {
                let (a, b) = (points[k], points[(k + 1) % points.len()]);
                twice += a[0] * b[1] - b[0] * a[1];
            }
            total += twice.abs() / 2.0;
        }
    }
    total
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn diff_of_an_area_and_its_path_reports_the_lost_area_and_where() {
    let files = corpus_files(&["trx"]);
    let dir = temp_dir("path");
    let mut checked = 0;
    for (i, file) in files.iter().filter(|f| readable(f)).enumerate() {
        let path = dir.join(format!("{i}.path"));
        let run = walkmesh(["convert".as_ref(), file.as_os_str(), path.as_os_str()]);
        if run.code != 0 {
            continue; // more than 512 regions: the engine's limit
        }
        let (_, report) = diff_json(file, &path, &[]);
        let a = read(file);
        let b = read(&path);
        // Independent totals: the walkable area of each side, summed here.
        let total = |m: &NavMesh| area_centred_in(m, [f64::MIN; 2], [f64::MAX; 2]);
        let (area_a, area_b) = (total(&a), total(&b));
        let footprint = &report["footprint"];
        let lost = footprint["only_a_area"].as_f64().unwrap();
        let gained = footprint["only_b_area"].as_f64().unwrap();
        // The footprint cannot lose less than the projected totals differ by.
        assert!(
            lost - gained >= (area_a - area_b) - 1e-3 * area_a.max(1.0)
                || footprint["area_a"].as_f64().unwrap() < area_a,
            "{}: lost {lost}, gained {gained}, totals {area_a} -> {area_b}",
            file.display()
        );
        // Where: each listed piece lost from A lies over walkable faces of A.
        for piece in footprint["pieces"].as_array().unwrap() {
            if piece["side"] != "only_a" || piece["area"].as_f64().unwrap() < 0.01 {
                continue;
            }
            let min: [f64; 2] = serde_json::from_value(piece["min"].clone()).unwrap();
            let max: [f64; 2] = serde_json::from_value(piece["max"].clone()).unwrap();
            let grow = 1.0;
            let around = area_centred_in(
                &a,
                [min[0] - grow, min[1] - grow],
                [max[0] + grow, max[1] + grow],
            );
            assert!(
                around > 0.0,
                "{}: piece {piece} over no walkable face of A",
                file.display()
            );
        }
        assert_placement_and_topology_follow_the_footprint(file, &path, &report);
        eprintln!(
            "{}: walkable {area_a:.3} -> {area_b:.3}; footprint lost {lost:.4}, gained {gained:.4} in {} pieces",
            file.display(),
            footprint["piece_count"]
        );
        checked += 1;
    }
    assert!(checked >= 1, "no NWN2 area could be cooked into a PATH");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn render_of_every_corpus_file_succeeds() {
    let files = corpus_files(WALKMESH_EXTENSIONS);
    let dir = temp_dir("render");
    let mut rendered = 0;
    for (i, file) in files.iter().filter(|f| readable(f)).enumerate() {
        let svg = dir.join(format!("{i}.svg"));
        let png = dir.join(format!("{i}.png"));
        for out in [&svg, &png] {
            let run = walkmesh([
                "render".as_ref(),
                file.as_os_str(),
                "-o".as_ref(),
                out.as_os_str(),
            ]);
            assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        }
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height, big-endian, at bytes 16..24; the SVG states the same.
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert!(
            text.contains(&format!("width=\"{width}\" height=\"{height}\"")),
            "{}",
            file.display()
        );
        rendered += 1;
    }
    assert!(rendered >= 100, "only {rendered} files rendered");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn renders_are_deterministic_and_modes_work_on_corpus_areas() {
    let dir = required_corpora();
    let area = dir.join("nwn2/Kaedrin-nwn2cc/dm_dungeon.trx");
    assert!(area.is_file(), "{} is missing", area.display());
    let out = temp_dir("modes");
    for mode in ["materials", "components", "tiles", "regions", "aabb-depth"] {
        let first = out.join(format!("{mode}-1.png"));
        let second = out.join(format!("{mode}-2.png"));
        for target in [&first, &second] {
            let run = walkmesh([
                "render".as_ref(),
                area.as_os_str(),
                "-o".as_ref(),
                target.as_os_str(),
                "--mode".as_ref(),
                mode.as_ref(),
            ]);
            assert_eq!(run.code, 0, "{mode}: {}", run.stderr);
        }
        assert_eq!(
            std::fs::read(&first).unwrap(),
            std::fs::read(&second).unwrap(),
            "{mode}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn component_mode_of_an_area_with_a_known_split_shows_two_colours() {
    let dir = required_corpora();
    // dm_dungeon.trx: two walkable regions that share no edge (`info` counts 2 components;
    // its island table, baked by the toolset, agrees: no island path joins the two).
    let area = dir.join("nwn2/Kaedrin-nwn2cc/dm_dungeon.trx");
    assert!(area.is_file(), "{} is missing", area.display());
    let mesh = read(&area);
    let layers = [walkmesh_render::Layer {
        name: "dm_dungeon.trx",
        mesh: &mesh,
    }];
    let colours = |mode| {
        let scene = walkmesh_render::top_down(
            &layers,
            &walkmesh_render::Options {
                mode,
                ..walkmesh_render::Options::default()
            },
        )
        .unwrap();
        scene
            .group("input1-walkable")
            .unwrap()
            .shapes
            .iter()
            .filter(|s| matches!(s, walkmesh_render::Shape::Fill { subpaths, .. } if !subpaths.is_empty()))
            .count()
    };
    assert_eq!(colours(walkmesh_render::Mode::Components), 2);
    // One material (Stone) in materials mode.
    assert_eq!(colours(walkmesh_render::Mode::Materials), 1);
}

/// A 10 × 10 square at height 0 (`notched`: without the 2 × 3 corner [8, 10] × [0, 3]), as
/// triangles in an OBJ (Y up, as modelling tools write it: the walkmesh's (x, y) is OBJ's
/// (x, −z)). Areas by hand: the L-shape's four triangles are 12 + 40 + 7 + 35 = 94;
/// the notch's two are 3 + 3.
fn square_obj(notched: bool) -> String {
    let mut text = String::from(
        "v 0 0 0\nv 8 0 0\nv 8 0 -3\nv 10 0 -3\nv 10 0 -10\nv 0 0 -10\nv 10 0 0\nusemtl Stone\n\
         f 1 2 3\nf 1 3 6\nf 3 4 5\nf 3 5 6\n",
    );
    if !notched {
        text.push_str("f 2 7 4\nf 2 4 3\n");
    }
    text
}

/// Checks a report of `A = square, B = notched square` against the hand-computed loss: 6
/// square units lost, nothing gained, in one piece over [8, 10] × [0, 3] centred at (9, 1.5);
/// the farthest point of A from B is the corner (10, 0), 2 units from B's edge x = 8.
fn assert_notch_reported(report: &Value, what: &str) {
    assert_eq!(report["equal"], false, "{what}");
    let footprint = &report["footprint"];
    let close = |v: &Value, want: f64, tol: f64| (v.as_f64().unwrap() - want).abs() < tol;
    assert!(
        close(&footprint["area_a"], 100.0, 1e-6),
        "{what}: {footprint}"
    );
    assert!(
        close(&footprint["area_b"], 94.0, 1e-6),
        "{what}: {footprint}"
    );
    assert!(
        close(&footprint["only_a_area"], 6.0, 1e-6),
        "{what}: {footprint}"
    );
    assert!(
        close(&footprint["only_b_area"], 0.0, 1e-6),
        "{what}: {footprint}"
    );
    let pieces: Vec<&Value> = footprint["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["area"].as_f64().unwrap() > 1e-6)
        .collect();
    assert_eq!(pieces.len(), 1, "{what}: {pieces:?}");
    let piece = pieces[0];
    assert_eq!(piece["side"], "only_a");
    assert!(close(&piece["area"], 6.0, 1e-6));
    for (key, want) in [
        ("centre", [9.0, 1.5]),
        ("min", [8.0, 0.0]),
        ("max", [10.0, 3.0]),
    ] {
        for k in 0..2 {
            assert!(
                close(&piece[key][k], want[k], 1e-6),
                "{what}: {key} {piece}"
            );
        }
    }
    let distance = &report["surface_distance"];
    assert!(
        close(&distance["hausdorff"], 2.0, 1e-6),
        "{what}: {distance}"
    );
    let total = report["walkable_area"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "total")
        .unwrap();
    assert!(close(&total["delta"], -6.0, 1e-6), "{what}: {total}");
}

#[test]
fn diff_reports_a_hand_made_loss_with_its_area_and_place() {
    let dir = temp_dir("notch");
    let (full, notched) = (dir.join("full.obj"), dir.join("notched.obj"));
    std::fs::write(&full, square_obj(false)).unwrap();
    std::fs::write(&notched, square_obj(true)).unwrap();
    let (code, report) = diff_json(&full, &notched, &[]);
    assert_eq!(code, 1);
    assert_notch_reported(&report, "obj");
    // The same loss through formats: the notched square cooked into a PATH (one region per
    // convex piece) and written as a KotOR room.
    for ext in ["path", "wok"] {
        let out = dir.join(format!("notched.{ext}"));
        let run = walkmesh(["convert".as_ref(), notched.as_os_str(), out.as_os_str()]);
        assert_eq!(run.code, 0, "{ext}: {}", run.stderr);
        let (code, report) = diff_json(&full, &out, &[]);
        assert_eq!(code, 1);
        assert_notch_reported(&report, ext);
    }
    // The text report names the loss and where it lies.
    let run = walkmesh(["diff".as_ref(), full.as_os_str(), notched.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("only in A 6.0000") && run.stdout.contains("around (9.00, 1.50)"),
        "{}",
        run.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn diff_of_dm_dungeon_and_its_512_region_path_reports_the_cookers_loss() {
    let root = required_corpora();
    let trx = root.join("nwn2/Kaedrin-nwn2cc/dm_dungeon.trx");
    assert!(trx.is_file(), "{} is missing", trx.display());
    let dir = temp_dir("dm_dungeon");
    let path = dir.join("dm_dungeon.path");
    let run = walkmesh([
        "convert".as_ref(),
        trx.as_os_str(),
        path.as_os_str(),
        "--max-regions".as_ref(),
        "512".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, report) = diff_json(&trx, &path, &[]);
    let a = read(&trx);
    let footprint = &report["footprint"];
    let lost = footprint["only_a_area"].as_f64().unwrap();
    let area_a = footprint["area_a"].as_f64().unwrap();
    // What the cooker gave up is reported, and is a small part of the area.
    assert!(
        lost >= 0.0 && lost < 0.05 * area_a,
        "lost {lost} of {area_a}"
    );
    // Each lost piece lies over walkable faces of the TRX.
    for piece in footprint["pieces"].as_array().unwrap() {
        if piece["side"] != "only_a" || piece["area"].as_f64().unwrap() < 0.01 {
            continue;
        }
        let min: [f64; 2] = serde_json::from_value(piece["min"].clone()).unwrap();
        let max: [f64; 2] = serde_json::from_value(piece["max"].clone()).unwrap();
        let around = area_centred_in(
            &a,
            [min[0] - 1.0, min[1] - 1.0],
            [max[0] + 1.0, max[1] + 1.0],
        );
        assert!(around > 0.0, "piece {piece} over no walkable face");
    }
    eprintln!(
        "dm_dungeon.trx -> 512-region PATH: footprint lost {lost:.3} of {area_a:.1} in {} pieces, gained {:.3}; Hausdorff {}",
        footprint["piece_count"], footprint["only_b_area"], report["surface_distance"]["hausdorff"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
