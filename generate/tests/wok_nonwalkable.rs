//! What BioWare's room WOKs hold besides walkable floor (docs/generate.md, "Non-walkable
//! faces"): for the 34 room WOKs of the shared corpus, the non-walkable faces by material,
//! slope and place relative to the walkable floor. Prints the measurement
//! (`cargo test --release -p walkmesh-generate --test wok_nonwalkable -- --nocapture`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};

fn corpora() -> std::path::PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

fn rooms(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("kotor-models/STATS.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

fn read_wok(path: &Path) -> NavMesh {
    let bytes = std::fs::read(path).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    walkmesh_bwm::read_bwm(input, &ReadOptions::default(), &mut Diagnostics::new()).unwrap()
}

/// Per face: unit normal and area.
fn normal_area(mesh: &NavMesh, p: usize) -> ([f64; 3], f64) {
    let c = mesh.polygons.get(p);
    let v: Vec<[f64; 3]> = c.iter().map(|&i| mesh.vertex(i).map(f64::from)).collect();
    let (a, b, cc) = (v[0], v[1], v[2]);
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len == 0.0 {
        return ([0.0; 3], 0.0);
    }
    (n.map(|x| x / len), len / 2.0)
}

/// Measured figures of one room.
#[derive(Default, Debug)]
struct Figures {
    faces: usize,
    non_walkable: usize,
    walkable_area: f64,
    non_walkable_area: f64,
    /// Non-walkable area by class: flat-ish (< 40°) touching walkable, steep touching walkable,
    /// not touching walkable.
    flat_touching: f64,
    steep_touching: f64,
    apart: f64,
    /// Flat-ish non-walkable faces touching walkable: enclosed by walkable floor in plan
    /// (every edge shared with walkable or other non-walkable faces, none on the boundary).
    enclosed_flat: f64,
    /// Walkable boundary edges (an edge of a walkable face with no walkable face on its other
    /// side) and how many of them have a non-walkable face on the other side.
    walkable_boundary: usize,
    boundary_rimmed: usize,
    /// Height above the walkable floor edge of non-walkable faces touching walkable ones
    /// (highest vertex minus lowest), largest and per-face list for a median.
    rim_heights: Vec<f64>,
    materials: BTreeMap<String, f64>,
    /// Material of the flat non-walkable faces touching the floor, and their height range.
    flat_materials: BTreeMap<String, f64>,
    flat_rise: f64,
    /// Non-walkable faces: mesh boundary edges (an edge with one face only).
    open_edges: usize,
    total_edges: usize,
}

fn measure(mesh: &NavMesh) -> Figures {
    let mut f = Figures {
        faces: mesh.polygons.len(),
        ..Figures::default()
    };
    // Edges by welded vertex positions.
    let key = |i: u32| mesh.vertex(i).map(f32::to_bits);
    let mut edges: HashMap<([u32; 3], [u32; 3]), Vec<usize>> = HashMap::new();
    for (p, c) in mesh.polygons.iter().enumerate() {
        for k in 0..c.len() {
            let (a, b) = (key(c[k]), key(c[(k + 1) % c.len()]));
            let e = if a < b { (a, b) } else { (b, a) };
            edges.entry(e).or_default().push(p);
        }
    }
    f.total_edges = edges.len();
    let mut touches_walkable = vec![false; mesh.polygons.len()];
    let mut on_boundary = vec![false; mesh.polygons.len()];
    for faces in edges.values() {
        let walk = faces.iter().any(|&p| mesh.is_walkable(p));
        if faces.len() == 1 {
            f.open_edges += 1;
            on_boundary[faces[0]] = true;
        }
        for &p in faces {
            if walk && !mesh.is_walkable(p) {
                touches_walkable[p] = true;
            }
        }
        let walk_count = faces.iter().filter(|&&p| mesh.is_walkable(p)).count();
        if walk_count == 1 {
            f.walkable_boundary += 1;
            if faces.len() > 1 {
                f.boundary_rimmed += 1;
            }
        }
    }
    for p in 0..mesh.polygons.len() {
        let (n, area) = normal_area(mesh, p);
        if mesh.is_walkable(p) {
            f.walkable_area += area;
            continue;
        }
        f.non_walkable += 1;
        f.non_walkable_area += area;
        *f.materials
            .entry(mesh.surfaces[p].material.name().into_owned())
            .or_default() += area;
        let slope = n[2].abs().min(1.0).acos().to_degrees();
        if touches_walkable[p] {
            let zs: Vec<f64> = mesh
                .polygons
                .get(p)
                .iter()
                .map(|&i| f64::from(mesh.vertex(i)[2]))
                .collect();
            let h = zs.iter().cloned().fold(f64::MIN, f64::max)
                - zs.iter().cloned().fold(f64::MAX, f64::min);
            f.rim_heights.push(h);
            if slope < 40.0 {
                f.flat_touching += area;
                f.flat_rise = f.flat_rise.max(h);
                *f.flat_materials
                    .entry(mesh.surfaces[p].material.name().into_owned())
                    .or_default() += area;
                if !on_boundary[p] {
                    f.enclosed_flat += area;
                }
            } else {
                f.steep_touching += area;
            }
        } else {
            f.apart += area;
        }
    }
    f
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn bioware_room_woks_non_walkable_faces() {
    let root = corpora();
    let mut all = Figures::default();
    let mut all_materials: BTreeMap<String, f64> = BTreeMap::new();
    println!(
        "| room | faces | non-walkable | walkable m² | non-walkable m² | flat, touching floor m² | of it enclosed m² | steep, touching m² | apart m² | walkable boundary edges | rimmed |"
    );
    for room in rooms(&root) {
        let wok = read_wok(&root.join("kotor").join(format!("{room}.wok")));
        let m = measure(&wok);
        println!(
            "| {room} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            m.faces,
            m.non_walkable,
            m.walkable_area,
            m.non_walkable_area,
            m.flat_touching,
            m.enclosed_flat,
            m.steep_touching,
            m.apart,
            m.walkable_boundary,
            m.boundary_rimmed
        );
        all.faces += m.faces;
        all.non_walkable += m.non_walkable;
        all.walkable_area += m.walkable_area;
        all.non_walkable_area += m.non_walkable_area;
        all.flat_touching += m.flat_touching;
        all.enclosed_flat += m.enclosed_flat;
        all.steep_touching += m.steep_touching;
        all.apart += m.apart;
        all.walkable_boundary += m.walkable_boundary;
        all.boundary_rimmed += m.boundary_rimmed;
        all.rim_heights.extend(m.rim_heights);
        all.open_edges += m.open_edges;
        all.total_edges += m.total_edges;
        all.flat_rise = all.flat_rise.max(m.flat_rise);
        for (k, v) in m.flat_materials {
            *all.flat_materials.entry(k).or_default() += v;
        }
        for (k, v) in m.materials {
            *all_materials.entry(k).or_default() += v;
        }
    }
    all.rim_heights.sort_by(f64::total_cmp);
    let q = |x: f64| {
        all.rim_heights
            .get(((all.rim_heights.len() as f64 - 1.0) * x) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "total: {} faces, {} non-walkable; walkable {:.1} m², non-walkable {:.1} m² (flat touching {:.1}, of it enclosed {:.1}; steep touching {:.1}; apart {:.1}); walkable boundary edges {}, rimmed {}; open edges {} of {}",
        all.faces,
        all.non_walkable,
        all.walkable_area,
        all.non_walkable_area,
        all.flat_touching,
        all.enclosed_flat,
        all.steep_touching,
        all.apart,
        all.walkable_boundary,
        all.boundary_rimmed,
        all.open_edges,
        all.total_edges
    );
    println!(
        "rim heights (touching faces): n {} median {:.2} p90 {:.2} max {:.2}",
        all.rim_heights.len(),
        q(0.5),
        q(0.9),
        q(1.0)
    );
    println!("non-walkable area by material: {all_materials:?}");
    println!(
        "flat faces touching the floor: by material {:?}, largest rise within one face {:.2} m",
        all.flat_materials, all.flat_rise
    );
    // The figures docs/generate.md states (the corpus is fixed): 6129 faces, 4063 of them
    // non-walkable; every flat face beside the floor enclosed by it and NonWalk; 95 % of the
    // walkable boundary edges with a wall face on their other side.
    assert_eq!((all.faces, all.non_walkable), (6129, 4063));
    assert!((all.flat_touching - all.enclosed_flat).abs() < 1e-6);
    assert_eq!(
        all.flat_materials.keys().collect::<Vec<_>>(),
        vec!["NonWalk"]
    );
    assert_eq!((all.walkable_boundary, all.boundary_rimmed), (1682, 1595));
    assert!((2.9..3.1).contains(&q(0.5)), "median rim height {}", q(0.5));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn generated_hole_fill_against_bioware() {
    // Per room: the flat non-walkable faces BioWare put beside the floor (holes under props)
    // against the holes the KotOR preset fills.
    let root = corpora();
    let params = walkmesh_generate::Params::preset(walkmesh_generate::Engine::Kotor);
    let (mut ours_total, mut theirs_total, mut rooms_with) = (0.0, 0.0, [0usize; 2]);
    println!(
        "| room | BioWare flat non-walkable beside the floor m² | ours filled m² (holes, left open) |"
    );
    for room in rooms(&root) {
        let wok = read_wok(&root.join("kotor").join(format!("{room}.wok")));
        let theirs = measure(&wok).enclosed_flat;
        let model = root.join("kotor-models").join(format!("{room}.mdl"));
        let render = walkmesh_mdl::read_render_mesh_file(&model).unwrap();
        let made = walkmesh_generate::generate(&render, &params).unwrap();
        let filled = made.report.holes.unwrap();
        println!(
            "| {room} | {theirs:.1} | {:.1} ({}, {}) |",
            filled.area, filled.holes, filled.left_open
        );
        ours_total += filled.area;
        theirs_total += theirs;
        rooms_with[0] += usize::from(theirs > 0.0);
        rooms_with[1] += usize::from(filled.area > 0.0);
        // Only props' footprints: m26ae_01e's hole over an unreachable floor stays open.
        if room.ends_with("m26ae_01e") {
            assert_eq!(filled.faces, 0, "{room}: {filled:?}");
        }
        // The fill never touches walkability (the rest are the walls).
        let walls = made.report.walls.map_or(0, |w| w.faces);
        assert_eq!(
            made.mesh.walkable_count() + filled.faces + walls,
            made.mesh.polygons.len()
        );
    }
    println!(
        "total: BioWare {theirs_total:.1} m² in {} rooms, ours {ours_total:.1} m² in {} rooms",
        rooms_with[0], rooms_with[1]
    );
}

/// (room, WOK minus model translation) from STATS.csv: our room-coordinate output moved into
/// the WOK's frame.
fn shifts(root: &Path) -> HashMap<String, [f32; 3]> {
    let text = std::fs::read_to_string(root.join("kotor-models/STATS.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file, shift) = (column("file"), column("wok_minus_model"));
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let t: Vec<f32> = cells[shift]
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            (cells[file].to_string(), [t[0], t[1], t[2]])
        })
        .collect()
}

/// The walkable boundary edges (ends, and whether a face stands on their other side), welded
/// by position as `measure` welds them.
fn rim_edges(mesh: &NavMesh) -> Vec<([f32; 3], [f32; 3], bool)> {
    let key = |i: u32| mesh.vertex(i).map(f32::to_bits);
    let mut edges: HashMap<([u32; 3], [u32; 3]), Vec<usize>> = HashMap::new();
    for (p, c) in mesh.polygons.iter().enumerate() {
        for k in 0..c.len() {
            let (a, b) = (key(c[k]), key(c[(k + 1) % c.len()]));
            let e = if a < b { (a, b) } else { (b, a) };
            edges.entry(e).or_default().push(p);
        }
    }
    let mut out: Vec<_> = edges
        .iter()
        .filter(|(_, faces)| faces.iter().filter(|&&p| mesh.is_walkable(p)).count() == 1)
        .map(|((a, b), faces)| {
            (
                a.map(f32::from_bits),
                b.map(f32::from_bits),
                faces.len() > 1,
            )
        })
        .collect();
    out.sort_by(|x, y| x.0.map(f32::to_bits).cmp(&y.0.map(f32::to_bits)));
    out
}

/// Per cent of the walkable boundary's plan length with a face beyond it.
fn walled_share(mesh: &NavMesh) -> f64 {
    let rim = rim_edges(mesh);
    let all: f64 = rim.iter().map(|&(a, b, _)| plan_length(a, b)).sum();
    let walled: f64 = rim
        .iter()
        .filter(|e| e.2)
        .map(|&(a, b, _)| plan_length(a, b))
        .sum();
    100.0 * walled / all.max(1e-9)
}

fn plan_length(a: [f32; 3], b: [f32; 3]) -> f64 {
    f64::from(b[0] - a[0]).hypot(f64::from(b[1] - a[1]))
}

/// Plan distance from `p` to segment `a`–`b`, and the segment's height there.
fn to_segment(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> (f64, f64) {
    let [p, a, b] = [p, a, b].map(|v| v.map(f64::from));
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = [a[0] + t * d[0], a[1] + t * d[1], a[2] + t * (b[2] - a[2])];
    ((p[0] - q[0]).hypot(p[1] - q[1]), q[2])
}

/// Our walkable boundary, by length, against BioWare's boundary at the same place (an edge
/// of theirs within 0.25 m in plan and 0.5 m in height of our edge's midpoint): walled in
/// both, in ours only, in theirs only, in neither, and not found in theirs.
fn agreement(ours: &NavMesh, theirs: &NavMesh) -> [f64; 5] {
    let theirs = rim_edges(theirs);
    let mut out = [0.0; 5];
    for (a, b, walled) in rim_edges(ours) {
        let mid = [0, 1, 2].map(|k| (a[k] + b[k]) / 2.0);
        let nearest = theirs
            .iter()
            .map(|&(c, d, rimmed)| (to_segment(mid, c, d), rimmed))
            .filter(|&((plan, z), _)| plan <= 0.25 && (z - f64::from(mid[2])).abs() <= 0.5)
            .min_by(|x, y| x.0.0.total_cmp(&y.0.0));
        let slot = match nearest {
            Some((_, true)) if walled => 0,
            Some((_, false)) if walled => 1,
            Some((_, true)) => 2,
            Some((_, false)) => 3,
            None => 4,
        };
        out[slot] += plan_length(a, b);
    }
    out
}

/// Lint findings of the kinds a generated walkmesh must not have, by code.
fn bad_lint(mesh: &NavMesh) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for f in walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None) {
        if [
            walkmesh_lint::DOWNWARD_WALKABLE,
            walkmesh_lint::DEGENERATE,
            walkmesh_lint::T_JUNCTION,
            walkmesh_lint::OVERLAP,
        ]
        .contains(&f.code.as_str())
        {
            *out.entry(f.code).or_default() += 1;
        }
    }
    out
}

/// The generated mesh as a WOK: prepared and written as `convert` writes it, validated, read
/// back. Panics on a validation error.
fn through_wok(room: &str, mesh: &NavMesh) -> NavMesh {
    use walkmesh_core::{Format, WriteOptions};
    let format = walkmesh_bwm::BwmFormat;
    let options = WriteOptions::default();
    let mut diag = Diagnostics::new();
    let writer = format.writer().unwrap();
    let prepared = walkmesh_core::passes::prepare(mesh, &writer.requirements(&options), &mut diag);
    let bytes = writer.write(&prepared, &options, &mut diag).unwrap().main;
    let input = Input {
        bytes: &bytes,
        path: None,
    };
    let findings = walkmesh_bwm::validate_bwm(input, &ReadOptions::default()).unwrap();
    let errors: Vec<_> = findings
        .iter()
        .filter(|d| d.severity == walkmesh_core::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "{room}: {errors:#?}");
    walkmesh_bwm::read_bwm(input, &ReadOptions::default(), &mut Diagnostics::new()).unwrap()
}

/// Rooms whose floor ends over drops that BioWare closes with non-walkable faces while the
/// render geometry has nothing rising there, so the generator leaves them open: m50aa_01a's
/// 2 m trench along its walkways (BioWare: a 19° NonWalk slope up to the Obscuring hull),
/// control_2's pit edges (3.7 m down).
const OVER_DROPS: [&str; 2] = [
    "k1cp/tslpatchdata/m50aa_01a",
    "pykotor-kits/sithbase/control_2",
];

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn generated_walls_against_bioware() {
    // Per room: the share of walkable boundary edges with a face on their other side (a wall,
    // or the hole fill), BioWare's against the KotOR preset's (walls on); by count as
    // `bioware_room_woks_non_walkable_faces` counts, and by length; and at the same places:
    // our boundary length where BioWare's boundary is too, walled in both, ours only, theirs
    // only, neither. Every generated WOK validates, and the walls add no lint finding.
    let root = corpora();
    let shift = shifts(&root);
    let params = walkmesh_generate::Params::preset(walkmesh_generate::Engine::Kotor);
    let mut without = params.clone();
    without.walls = false;
    println!(
        "| room | BioWare: edges with a face beyond | by length | ours: edges | by length | both m | ours only m | theirs only m | neither m | not matched m |"
    );
    let mut totals = [0.0f64; 5];
    let (mut edges, mut low_rooms) = ([0usize; 4], Vec::<String>::new());
    for room in rooms(&root) {
        let wok = read_wok(&root.join("kotor").join(format!("{room}.wok")));
        let theirs = measure(&wok);
        let model = root.join("kotor-models").join(format!("{room}.mdl"));
        let render = walkmesh_mdl::read_render_mesh_file(&model).unwrap();
        let mut made = walkmesh_generate::generate(&render, &params).unwrap();
        let plain = walkmesh_generate::generate(&render, &without).unwrap();
        let read_back = through_wok(&room, &made.mesh);
        // The walls add no lint finding of the kinds a generated walkmesh must not have, and
        // none of those is a downward, degenerate face or a T-junction.
        let (with_lint, plain_lint) = (bad_lint(&read_back), bad_lint(&plain.mesh));
        assert!(
            with_lint.get(walkmesh_lint::OVERLAP) <= plain_lint.get(walkmesh_lint::OVERLAP),
            "{room}: {with_lint:?} against {plain_lint:?} without walls"
        );
        assert_eq!(
            with_lint
                .keys()
                .filter(|c| *c != walkmesh_lint::OVERLAP)
                .count(),
            0,
            "{room}: {with_lint:?}"
        );
        // Walkability unchanged: the same walkable area.
        assert!(
            (made.report.walkable_area - plain.report.walkable_area).abs() < 1e-3,
            "{room}: {} against {}",
            made.report.walkable_area,
            plain.report.walkable_area
        );
        let s = shift[&room];
        for v in &mut made.mesh.vertices {
            for axis in 0..3 {
                v[axis] += s[axis];
            }
        }
        let ours = measure(&made.mesh);
        let (ours_length, theirs_length) = (walled_share(&made.mesh), walled_share(&wok));
        let share = |rimmed: usize, all: usize| 100.0 * rimmed as f64 / all.max(1) as f64;
        let places = agreement(&made.mesh, &wok);
        println!(
            "| {room} | {}/{} ({:.0} %) | {theirs_length:.0} % | {}/{} ({:.0} %) | {ours_length:.0} % | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            theirs.boundary_rimmed,
            theirs.walkable_boundary,
            share(theirs.boundary_rimmed, theirs.walkable_boundary),
            ours.boundary_rimmed,
            ours.walkable_boundary,
            share(ours.boundary_rimmed, ours.walkable_boundary),
            places[0],
            places[1],
            places[2],
            places[3],
            places[4]
        );
        for (t, p) in totals.iter_mut().zip(places) {
            *t += p;
        }
        edges[0] += theirs.boundary_rimmed;
        edges[1] += theirs.walkable_boundary;
        edges[2] += ours.boundary_rimmed;
        edges[3] += ours.walkable_boundary;
        // At the same places: of BioWare's walled boundary, the part ours walls too, and
        // of ours, the part BioWare walls too.
        let recall = places[0] / (places[0] + places[2]).max(1e-9);
        let precision = places[0] / (places[0] + places[1]).max(1e-9);
        if places[0] + places[2] > 5.0 && recall < 0.75 && !OVER_DROPS.contains(&room.as_str()) {
            low_rooms.push(format!(
                "{room}: {:.0} % of BioWare's walls",
                100.0 * recall
            ));
        }
        if places[0] + places[1] > 5.0 && precision < 0.95 {
            low_rooms.push(format!(
                "{room}: {:.0} % of our walls are BioWare's",
                100.0 * precision
            ));
        }
    }
    let matched: f64 = totals[..4].iter().sum();
    println!(
        "total: BioWare {}/{} edges rimmed ({:.1} %), ours {}/{} ({:.1} %); at the same places ({matched:.0} m of our {:.0} m boundary): both {:.0} m, ours only {:.0} m, theirs only {:.0} m, neither {:.0} m",
        edges[0],
        edges[1],
        100.0 * edges[0] as f64 / edges[1] as f64,
        edges[2],
        edges[3],
        100.0 * edges[2] as f64 / edges[3] as f64,
        matched + totals[4],
        totals[0],
        totals[1],
        totals[2],
        totals[3]
    );
    // Where both have a boundary, ours walls at least 85 % of what BioWare walls (86 % when
    // measured) and walls almost nowhere BioWare does not (0.2 %); per room at least 75 %
    // and 95 %, except the rooms where BioWare closes drops (below).
    let (recall, precision) = (
        totals[0] / (totals[0] + totals[2]),
        totals[0] / (totals[0] + totals[1]),
    );
    println!(
        "at the same places: ours walls {:.1} % of BioWare's walled boundary, {:.1} % of ours is walled in BioWare's",
        100.0 * recall,
        100.0 * precision
    );
    assert!(recall >= 0.85 && precision >= 0.99, "{recall} {precision}");
    assert!(low_rooms.is_empty(), "{low_rooms:#?}");
}
