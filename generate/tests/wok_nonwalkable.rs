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
