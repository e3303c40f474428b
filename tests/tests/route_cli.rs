#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh route` and `walkmesh reach`: exit codes, JSON shapes and hand-computed lengths on
//! an OBJ corridor; the surface router's quality bars on the KotOR corpus.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions, passes};
use walkmesh_route::SurfaceRouter;
use walkmesh_route::surface::{Located, dist};
use walkmesh_tests::walkmesh;

/// An L-shaped corridor of unit cells (0..4, 0) and (3, 1..4), Z up, and a separate island
/// cell (0, 3). Faces: two triangles per cell in that order.
fn corridor_obj(dir: &Path) -> PathBuf {
    let (columns, rows) = (5, 5);
    let mut text = String::new();
    for y in 0..=rows {
        for x in 0..=columns {
            text.push_str(&format!("v {x} {y} 0\n"));
        }
    }
    text.push_str("usemtl Stone\n");
    let at = |x: u32, y: u32| y * (columns + 1) + x + 1;
    let cells = (0..4)
        .map(|x| (x, 0))
        .chain((1..4).map(|y| (3, y)))
        .chain([(0, 3)]);
    for (x, y) in cells {
        let (a, b, c, d) = (at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1));
        text.push_str(&format!("f {a} {b} {c}\nf {a} {c} {d}\n"));
    }
    let path = dir.join("corridor.obj");
    std::fs::write(&path, text).unwrap();
    path
}

/// A temporary folder holding [`corridor_obj`].
struct Corridor {
    dir: tempfile::TempDir,
    /// The OBJ's path, as an argument.
    obj: String,
}

impl Corridor {
    fn new() -> Corridor {
        let dir = tempfile::tempdir().unwrap();
        let obj = corridor_obj(dir.path()).to_str().unwrap().to_string();
        Corridor { dir, obj }
    }

    /// The path of `name` in the folder, as an argument.
    fn file(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }
}

/// The OBJ corridor's up axis (its cells lie in the XY plane).
const Z_UP: [&str; 2] = ["--up", "z"];

/// `walkmesh ARGS…`: the exit code, standard output as JSON (`null` when it is not JSON) and
/// standard error.
fn run_json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let run = walkmesh(args.iter().copied());
    let value = serde_json::from_str(&run.stdout).unwrap_or(serde_json::Value::Null);
    (run.code, value, run.stderr)
}

/// `walkmesh route FILE OPTIONS… --from FROM --to TO --json`, as [`run_json`].
fn route_json(
    file: &str,
    options: &[&str],
    from: &str,
    to: &str,
) -> (i32, serde_json::Value, String) {
    let ends = ["--from", from, "--to", to, "--json"];
    run_json(&[&["route", file], options, &ends[..]].concat())
}

#[test]
fn route_json_gives_the_hand_computed_length_around_the_corner() {
    let corridor = Corridor::new();
    let (code, json, stderr) = route_json(&corridor.obj, &Z_UP, "0.5,0.5,0", "3.5,3.5,0");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["reachable"], true);
    assert_eq!(json["method"], "surface");
    // (0.5,0.5) → inner corner (3,1) → (3.5,3.5): 2·√(2.5² + 0.5²) = 2·√6.5.
    let length = json["length"].as_f64().unwrap();
    assert!((length - 2.0 * 6.5f64.sqrt()).abs() < 1e-6, "{length}");
    assert_eq!(
        json["points"],
        serde_json::json!([[0.5, 0.5, 0.0], [3.0, 1.0, 0.0], [3.5, 3.5, 0.0]])
    );
    // Starts in cell (0,0)'s first triangle, ends in cell (3,3)'s (faces 12, 13).
    let faces = json["faces"].as_array().unwrap();
    assert_eq!(faces.first(), Some(&serde_json::json!(0)));
    assert!([12, 13].contains(&faces.last().unwrap().as_u64().unwrap()));
}

#[test]
fn an_island_is_unreachable_exit_1_and_off_surface_exit_2() {
    let corridor = Corridor::new();
    let obj = corridor.obj.as_str();
    let (code, json, _) = route_json(obj, &Z_UP, "0.5,0.5,0", "0.5,3.5,0");
    assert_eq!(code, 1);
    assert_eq!(json["reachable"], false);
    assert_eq!(json["length"], serde_json::Value::Null);
    // (1.5, 2.5) is outside every cell; the nearest walkable face is the island's or the
    // corridor's at 0.5 (island cell x ≤ 1): face 14, triangle (0,3)(1,3)(1,4), 0.5 away.
    let run = walkmesh([
        "route",
        obj,
        "--up",
        "z",
        "--from",
        "1.5,3.5,0",
        "--to",
        "0.5,0.5,0",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "--from: the point is on no walkable face; the nearest is face 14, 0.5000 away"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn reach_lists_components_and_require_all_fails_on_the_island() {
    let corridor = Corridor::new();
    let obj = corridor.obj.as_str();
    let (code, json, stderr) =
        run_json(&["reach", obj, "--up", "z", "--from", "0.5,0.5,0", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["components"].as_array().unwrap().len(), 2);
    assert_eq!(json["components"][0]["area"], 7.0);
    assert_eq!(json["components"][1]["area"], 1.0);
    assert_eq!(json["start"]["unreachable"], serde_json::json!([1]));
    assert_eq!(json["start"]["unreachable_area"], 1.0);
    // The island's point: the centroid of its first triangle (0,3)(1,3)(1,4).
    assert_eq!(
        json["components"][1]["position"],
        serde_json::json!([2.0 / 3.0, 10.0 / 3.0, 0.0])
    );
    let strict = walkmesh([
        "reach",
        obj,
        "--up",
        "z",
        "--from",
        "0.5,0.5,0",
        "--require-all",
    ]);
    assert_eq!(strict.code, 1);
    assert!(
        strict.stdout.contains("unreachable: component #1"),
        "{}",
        strict.stdout
    );
    // From the island nothing else is reachable either; without --from two pieces fail too.
    assert_eq!(
        walkmesh(["reach", obj, "--up", "z", "--require-all"]).code,
        1
    );
}

#[test]
fn bad_points_are_usage_errors() {
    assert_eq!(
        walkmesh(["route", "x.obj", "--from", "1,2", "--to", "1,2,3"]).code,
        2
    );
    assert_eq!(
        walkmesh(["route", "x.obj", "--from", "1,2,nan", "--to", "1,2,3"]).code,
        2
    );
}

fn read(path: &Path) -> NavMesh {
    let bytes = std::fs::read(path).unwrap();
    let registry = walkmesh_formats::default_registry();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let mut diag = Diagnostics::new();
    format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap()
}

#[test]
#[cfg(feature = "bwm")]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn kotor_corpus_routes_meet_the_quality_bars() {
    let root = walkmesh_tests::required_corpora().join("kotor");
    let files = walkmesh_core::testing::files_with_extensions(&root, &["wok"]);
    assert!(files.len() > 20, "{}", files.len());
    let mut routed = 0;
    for file in files.iter().step_by(files.len() / 20) {
        let mesh = read(file);
        let mesh = passes::as_modelled(&mesh, &mut Diagnostics::new()).into_owned();
        let router = SurfaceRouter::new(&mesh);
        let walkable = walkable_faces(&mesh);
        let step = (walkable.len() / 8).max(1);
        for (start, end) in located_centre_pairs(&router, &walkable, step, step / 2) {
            let r = router.route(start, end);
            let straight = dist(start.point, end.point);
            if r.reachable {
                assert!(
                    r.length >= straight - 1e-6,
                    "{}: shorter than straight",
                    file.display()
                );
                assert!(
                    r.length <= 1.02 * r.midpoint_length + 1e-6,
                    "{}: {} > 1.02 × {}",
                    file.display(),
                    r.length,
                    r.midpoint_length
                );
                assert_eq!(r.points.first(), Some(&start.point));
                assert_eq!(r.points.last(), Some(&end.point));
                assert_eq!(r.faces.first(), Some(&start.face));
                assert_eq!(r.faces.last(), Some(&end.face));
                routed += 1;
            }
        }
    }
    assert!(routed > 200, "{routed}");
}

/// The walkable faces of `mesh`, in order.
fn walkable_faces(mesh: &NavMesh) -> Vec<u32> {
    (0..mesh.polygons.len() as u32)
        .filter(|&f| mesh.is_walkable(f as usize))
        .collect()
}

/// Routes to try between walkable faces: from every `step`-th of `walkable` to every
/// `step`-th after the first `skip`, each end at its face's centre; pairs with an end that
/// lies on no walkable face are left out.
fn located_centre_pairs(
    router: &SurfaceRouter,
    walkable: &[u32],
    step: usize,
    skip: usize,
) -> Vec<(Located, Located)> {
    let locate = |face: u32| router.locate(centre(&router.face_corners(face)));
    let mut pairs = Vec::new();
    for &a in walkable.iter().step_by(step) {
        for &b in walkable.iter().skip(skip).step_by(step) {
            if let (Ok(start), Ok(end)) = (locate(a), locate(b)) {
                pairs.push((start, end));
            }
        }
    }
    pairs
}

fn centre(corners: &[[f64; 3]]) -> [f64; 3] {
    let n = corners.len() as f64;
    let sum = |k: usize| corners.iter().map(|p| p[k]).sum::<f64>() / n;
    [sum(0), sum(1), sum(2)]
}

/// A room of unit cells `(x, y)` (two triangles each: (x0,y0)(x1,y0)(x1,y1) then
/// (x0,y0)(x1,y1)(x0,y1)), vertices of its own, with transition tags on (face, edge).
#[cfg(feature = "bwm")]
fn room(cells: &[(u32, u32)], tags: &[(u32, u32, i32)]) -> NavMesh {
    use walkmesh_core::{EdgeRef, EdgeTag, Material, MeshKind, Surface};
    let mut mesh = NavMesh {
        kind: MeshKind::Area,
        ..NavMesh::default()
    };
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    for &(x, y) in cells {
        let base = mesh.vertices.len() as u32;
        let (fx, fy) = (x as f32, y as f32);
        mesh.vertices.extend([
            [fx, fy, 0.0],
            [fx + 1.0, fy, 0.0],
            [fx + 1.0, fy + 1.0, 0.0],
            [fx, fy + 1.0, 0.0],
        ]);
        mesh.push_polygon(&[base, base + 1, base + 2], stone);
        mesh.push_polygon(&[base, base + 2, base + 3], stone);
    }
    // Cells share vertices with their row neighbours only through welding: weld exactly.
    let (mut mesh, _) = passes::weld(&mesh, 0.0, &mut Diagnostics::new());
    for &(polygon, edge, transition) in tags {
        mesh.edge_tags
            .insert(EdgeRef { polygon, edge }, EdgeTag { transition });
    }
    mesh
}

#[cfg(feature = "bwm")]
fn write_wok(mesh: &NavMesh, path: &Path) {
    use walkmesh_core::WriteOptions;
    let registry = walkmesh_formats::default_registry();
    let writer = registry.by_id("bwm").unwrap().writer().unwrap();
    let options = WriteOptions {
        file_name: path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string),
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let prepared = passes::prepare(mesh, &writer.requirements(&options), &mut diag);
    let written = writer.write(&prepared, &options, &mut diag).unwrap();
    std::fs::write(path, &written.main).unwrap();
}

/// Three rooms: `ra` cells x 0..2 and `rb` cells x 2..4 along y 0..1, joined by transitions
/// on their shared side x = 2 (ra's face 3 edge 1, rb's face 1 edge 2); `rc` a cell at (0, 3)
/// with no way in; rb also claims a transition to rc on its far side x = 4 that rc does not
/// return.
#[cfg(feature = "bwm")]
fn three_room_area(dir: &Path) {
    write_wok(&room(&[(0, 0), (1, 0)], &[(2, 1, 1)]), &dir.join("ra.wok"));
    write_wok(
        &room(&[(2, 0), (3, 0)], &[(1, 2, 0), (2, 1, 2)]),
        &dir.join("rb.wok"),
    );
    write_wok(&room(&[(0, 3)], &[]), &dir.join("rc.wok"));
    std::fs::write(
        dir.join("area.lyt"),
        "beginlayout\nroomcount 3\n  ra 0 0 0\n  rb 0 0 0\n  rc 0 0 0\ntrackcount 0\n\
         obstaclecount 0\ndoorhookcount 0\ndonelayout\n",
    )
    .unwrap();
}

#[test]
#[cfg(feature = "bwm")]
fn a_kotor_area_routes_across_rooms_through_transitions_only() {
    let dir = tempfile::tempdir().unwrap();
    three_room_area(dir.path());
    let area = dir.path().to_str().unwrap();
    let (code, json, stderr) = route_json(area, &[], "0.5,0.5,0", "3.5,0.5,0");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["method"], "engine");
    assert_eq!(json["length"], 3.0);
    let faces = json["faces"].as_array().unwrap();
    assert_eq!(faces.first().unwrap()["room"], "ra");
    assert_eq!(faces.last().unwrap()["room"], "rb");
    let rooms: Vec<&str> = faces.iter().map(|f| f["room"].as_str().unwrap()).collect();
    let crossing = rooms.iter().position(|&r| r == "rb").unwrap();
    assert!(rooms[..crossing].iter().all(|&r| r == "ra"), "{rooms:?}");
    // rb's claim towards rc has no edge back: reported, not linked.
    let warnings = json["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("room rb face 2 edge 1: transition to room rc has no matching edge back"),
        "{warnings:?}"
    );
    // The cut-off room: exit 1.
    let (code, json, _) = route_json(area, &[], "0.5,0.5,0", "0.5,3.5,0");
    assert_eq!(code, 1);
    assert_eq!(json["reachable"], false);
    // The geometry alone does not join the rooms (their vertices are their own).
    let (code, _, _) = route_json(area, &["--method", "surface"], "0.5,0.5,0", "3.5,0.5,0");
    assert_eq!(code, 1);
    let (code, json, _) = run_json(&[
        "reach",
        area,
        "--from",
        "0.5,0.5,0",
        "--require-all",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(json["start"]["unreachable_area"], 1.0);
    assert_eq!(json["start"]["reachable_area"], 4.0);
}

#[test]
#[cfg(feature = "bwm")]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_module_archive_is_routed_in_area_coordinates_with_room_names() {
    let archive = walkmesh_tests::required_corpora()
        .join("kotor-areas/KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod");
    let archive = archive.to_str().unwrap();
    // The only room with a walkmesh, M12aa_42a, is a flat floor at z = −10 spanning
    // x 85..165, y 73..118 (its two walkable faces). 20 by 15 apart: 25.
    let (code, json, stderr) = route_json(archive, &[], "100,95,-10", "120,110,-10");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["method"], "engine");
    assert!((json["length"].as_f64().unwrap() - 25.0).abs() < 1e-9);
    for face in json["faces"].as_array().unwrap() {
        assert_eq!(face["room"], "M12aa_42a");
    }
    assert!(stderr.contains("rooms without a walkmesh"), "{stderr}");
    let (code, json, _) = run_json(&["reach", archive, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json["components"].as_array().unwrap().len(), 1);
}

#[test]
#[cfg(feature = "nwn2")]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn nwn2_corpus_chains_follow_the_stored_tables_over_linked_triangles() {
    let root = walkmesh_tests::required_corpora().join("nwn2");
    let files = walkmesh_core::testing::files_with_extensions(&root, &["trx"]);
    assert!(files.len() >= 5, "{}", files.len());
    let (mut pairs, mut agree, mut chained, mut warned) = (0, 0, 0, 0);
    for file in files.iter().step_by((files.len() / 12).max(1)) {
        let mesh = read(file);
        let tables = walkmesh_route::nwn2::tables(&mesh).unwrap();
        let router = SurfaceRouter::new(&mesh);
        let walkable = walkable_faces(&mesh);
        let step = (walkable.len() / 10).max(1);
        for (start, end) in located_centre_pairs(&router, &walkable, step, step / 3) {
            pairs += 1;
            let report = walkmesh_route::nwn2::engine_report(&tables, &router, start, end);
            let surface = router.route(start, end);
            if !report.warnings.is_empty() {
                warned += 1;
                continue;
            }
            if report.reachable == surface.reachable {
                agree += 1;
            }
            if report.reachable {
                // The chain starts and ends on the located faces, every step crosses a
                // shared edge (else a warning above), and the polyline is not shorter
                // than the straight line.
                let faces: Vec<u64> = report
                    .faces
                    .iter()
                    .map(|f| serde_json::to_value(f).unwrap().as_u64().unwrap())
                    .collect();
                assert_eq!(faces.first(), Some(&u64::from(start.face)));
                assert_eq!(faces.last(), Some(&u64::from(end.face)));
                let length = report.length.unwrap();
                assert!(length >= dist(start.point, end.point) - 1e-6);
                chained += 1;
            }
        }
    }
    // Measured: 1,621 pairs in 11 files, 1,291 reachable, tables and geometry agree on all,
    // no warning (fugue_tunnel's tables step across edges of duplicated vertices, which the
    // engine's corridor follows by position).
    assert!(pairs > 500 && chained > 100, "{pairs} {chained}");
    assert_eq!(warned, 0);
    assert_eq!(agree, pairs);
}

/// A serpentine corridor: ten rows of five unit cells (y = 0, 2, …, 18) joined by one-cell
/// connectors alternately at x = 4 and x = 0, as quads.
#[cfg(feature = "prime")]
fn serpentine_obj(dir: &Path) -> PathBuf {
    let (columns, rows) = (5u32, 10u32);
    let mut cells = Vec::new();
    for r in 0..rows {
        cells.extend((0..columns).map(|x| (x, 2 * r)));
        if r + 1 < rows {
            cells.push((if r % 2 == 0 { columns - 1 } else { 0 }, 2 * r + 1));
        }
    }
    let mut text = String::from("usemtl Stone\n");
    for y in 0..=2 * rows {
        for x in 0..=columns {
            text.push_str(&format!("v {x} {y} 0\n"));
        }
    }
    let at = |x: u32, y: u32| y * (columns + 1) + x + 1;
    for (x, y) in cells {
        let (a, b, c, d) = (at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1));
        text.push_str(&format!("f {a} {b} {c} {d}\n"));
    }
    let path = dir.join("serpentine.obj");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
#[cfg(feature = "prime")]
fn a_cooked_path_routes_over_regions_and_reports_the_waypoint_limit() {
    let dir = tempfile::tempdir().unwrap();
    let obj = serpentine_obj(dir.path());
    let cooked = dir.path().join("serpentine.path");
    let run = walkmesh([
        "convert".as_ref(),
        obj.as_os_str(),
        cooked.as_os_str(),
        "--up".as_ref(),
        "z".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cooked = cooked.to_str().unwrap();
    let (from, to) = ("0.5,0.5,0", "0.5,18.5,0");
    let (code, engine, stderr) = route_json(cooked, &[], from, to);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(engine["method"], "engine");
    let (_, surface, _) = route_json(cooked, &["--method", "surface"], from, to);
    // The engine's region corridor here is the only one, so the polylines agree.
    assert_eq!(engine["points"], surface["points"]);
    // Two corners at each of the nine connectors, plus the ends: 20 waypoints.
    assert_eq!(engine["points"].as_array().unwrap().len(), 20);
    assert_eq!(
        engine["warnings"],
        serde_json::json!(["the route needs 20 waypoints; the engine returns at most 16"])
    );
}

#[test]
#[cfg(feature = "prime")]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn the_synthetic_path_grid_answers_as_its_tables_say() {
    let file = walkmesh_tests::required_corpora().join("prime/synthetic/grid_mp1_v4.path");
    let file = file.to_str().unwrap();
    // SOURCES.md: regions 0-24 a 5×5 grid of 10-unit cells (region = 5·row + column), 24
    // flyer-only; 25-26 a separate pair at z = 2.
    let (code, json, stderr) = route_json(file, &[], "5,5,0", "45,35,0");
    assert_eq!(code, 0, "{stderr}");
    let faces: Vec<u64> = json["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_u64().unwrap())
        .collect();
    // A* over centroids 10 apart: a monotone staircase of 4 + 3 steps from 0 to 19.
    assert_eq!(faces.len(), 8, "{faces:?}");
    assert_eq!((faces[0], faces[7]), (0, 19));
    for pair in faces.windows(2) {
        assert!([1, 5].contains(&(pair[1] - pair[0])), "{faces:?}");
    }
    assert!(json["length"].as_f64().unwrap() >= 50.0);
    assert_eq!(json["warnings"], serde_json::json!([]));
    // The other pair of regions: the ground table says unreachable.
    let (code, json, _) = route_json(file, &[], "5,5,0", "105,5,2");
    assert_eq!(code, 1);
    assert_eq!(json["warnings"], serde_json::json!([]));
    // (45,45) lies in flyer-only region 24: the closest ground regions are 19 and 23 (centroids
    // 10 away); the lower index ends the route, at its centroid.
    let (code, json, _) = route_json(file, &[], "5,5,0", "45,45,0");
    assert_eq!(code, 0);
    assert_eq!(json["faces"].as_array().unwrap().last().unwrap(), 19);
    assert_eq!(
        json["points"].as_array().unwrap().last().unwrap(),
        &serde_json::json!([45.0, 35.0, 0.0])
    );
    // Nothing within 10 units: exit 2.
    assert_eq!(
        walkmesh(["route", file, "--from", "5,5,0", "--to", "60,60,0"]).code,
        2
    );
}

#[test]
fn diff_reach_lists_the_pairs_a_cut_separates() {
    let corridor = Corridor::new();
    // The same corridor without cell (2, 0) (its faces 4 and 5): the arm is cut off.
    let text = std::fs::read_to_string(&corridor.obj).unwrap();
    let mut face = 0;
    let cut_text: String = text
        .lines()
        .filter(|line| {
            if !line.starts_with("f ") {
                return true;
            }
            face += 1;
            !(5..=6).contains(&face)
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let cut = corridor.file("cut.obj");
    std::fs::write(&cut, cut_text).unwrap();
    let (whole, cut) = (corridor.obj.as_str(), cut.as_str());
    let (code, json, stderr) = run_json(&["diff", whole, cut, "--up", "z", "--reach", "--json"]);
    assert_eq!(code, 1, "{stderr}");
    let differing = json["reach"]["differing"].as_array().unwrap();
    assert!(differing.len() > 50, "{}", differing.len());
    for pair in differing {
        assert_eq!(pair["reachable_in_a"], true);
        assert_eq!(pair["reachable_in_b"], false);
        // One end before the cut (x < 2), the other after it (x > 3 or up the arm).
        let (x0, x1) = (
            pair["from"][0].as_f64().unwrap(),
            pair["to"][0].as_f64().unwrap(),
        );
        assert!(x0.min(x1) <= 2.0 && x0.max(x1) >= 3.0, "{pair}");
    }
    assert_eq!(json["reach"]["pairs"], 1000);
    let (code, json, _) = run_json(&["diff", whole, whole, "--up", "z", "--reach", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json["reach"]["differing"], serde_json::json!([]));
}

/// A `.trn` file (NWN2, read by the `trx` format) gets NWN2's rules in `lint` and in
/// `route`: both take the engine from the format's declaration. (Before, lint and route kept
/// two engine tables keyed on id strings, and only lint knew `trn`.) A TRN is the toolset's
/// unbaked terrain: it has no path tables, so the engine's answer cannot be read from it.
/// The default route says so and routes over the surface (before, it answered "unreachable"
/// with "triangle 0 belongs to no island" on every TRN); `--method engine` is refused; the
/// TRX of the same floor has the tables and gets the engine's answer.
#[test]
fn a_trn_file_is_nwn2_and_routes_over_the_surface_for_want_of_path_tables() {
    let corridor = Corridor::new();
    let (trn, trx) = (corridor.file("corridor.trn"), corridor.file("corridor.trx"));
    let (obj, trn, trx) = (corridor.obj.as_str(), trn.as_str(), trx.as_str());
    for out in [trn, trx] {
        let run = walkmesh(["convert", obj, out, "--up", "z"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let (_, lint, stderr) = run_json(&["lint", trn, "--json"]);
    assert_eq!(lint["engine"], "nwn2", "{stderr}");
    let (from, to) = ("0.5,0.5,0", "3.5,3.5,0");
    let (code, route, stderr) = route_json(trn, &[], from, to);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(route["method"], "surface", "{route}");
    assert_eq!(route["reachable"], true, "{route}");
    let warnings = route["warnings"].to_string();
    assert!(warnings.contains("no baked path tables"), "{route}");
    assert!(!warnings.contains("island"), "{route}");
    let refused = walkmesh([
        "route", trn, "--method", "engine", "--from", from, "--to", to, "--json",
    ]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("no baked path tables") && refused.stderr.contains(".trx"),
        "{}",
        refused.stderr
    );
    let (code, baked, stderr) = route_json(trx, &[], from, to);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(baked["method"], "engine", "{baked}");
    assert_eq!(baked["reachable"], true, "{baked}");
    assert_eq!(baked["warnings"], serde_json::json!([]), "{baked}");
    let (_, surface, _) = route_json(obj, &Z_UP, from, to);
    assert_eq!(surface["method"], "surface");
    assert_eq!(surface["length"], route["length"]);
}

/// The same on the toolset's own TRNs: none of the shared ones has path tables, so each
/// routes over the surface with the note, between two of its walkable triangles.
#[test]
#[cfg(feature = "nwn2")]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn the_shared_trns_route_over_the_surface_for_want_of_path_tables() {
    let root = walkmesh_tests::required_corpora().join("nwn2");
    let files = walkmesh_core::testing::files_with_extensions(&root, &["trn"]);
    assert!(files.len() >= 5, "{}", files.len());
    for file in &files {
        let mesh = read(file);
        let tables = walkmesh_route::nwn2::tables(&mesh).unwrap();
        assert!(!tables.has_path_tables(), "{}", file.display());
        let point = |p: u32| {
            let corners: Vec<[f64; 3]> = mesh
                .polygons
                .get(p as usize)
                .iter()
                .map(|&v| mesh.vertex(v).map(f64::from))
                .collect();
            let c = centre(&corners);
            format!("{},{},{}", c[0], c[1], c[2])
        };
        let walkable = walkable_faces(&mesh);
        let (from, to) = (point(walkable[0]), point(walkable[walkable.len() / 2]));
        let path = file.to_str().unwrap();
        let (code, route, stderr) = route_json(path, &[], &from, &to);
        assert!(code == 0 || code == 1, "{}: {stderr}", file.display());
        assert_eq!(route["method"], "surface", "{}: {route}", file.display());
        assert!(
            route["warnings"]
                .to_string()
                .contains("no baked path tables"),
            "{}: {route}",
            file.display()
        );
    }
}
