//! Cooking generated meshes: hand-computed small cases, shapes that stress the greedy merge,
//! the tables and the octree, and the writer's errors and loss warnings.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;

use common::{WALK, WALL, append, check_cooked, grid};
use walkmesh_core::{Attribute, Diagnostics, EdgeRef, EdgeTag, Format, NavMesh, WriteOptions};
use walkmesh_prime::cook::cook;
use walkmesh_prime::model::{NO_CHILD, test_pair};
use walkmesh_prime::{PathFile, PathFormat};

const POINTS: usize = 10_000;

fn square() -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], WALK);
    mesh.push_polygon(&[0, 2, 3], WALK);
    mesh
}

#[test]
fn two_triangles_become_one_clockwise_square_region() {
    let checked = check_cooked(&square(), &WriteOptions::default(), 1000, 1);
    let file = &checked.file;
    assert_eq!(file.regions.len(), 1);
    let positions: Vec<[f32; 3]> = file.nodes.iter().map(|n| n.position).collect();
    assert_eq!(
        positions,
        vec![
            [0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 0.0, 0.0]
        ]
    );
    let normals: Vec<[f32; 3]> = file.nodes.iter().map(|n| n.normal).collect();
    assert_eq!(
        normals,
        vec![
            [1.0, 0.0, 0.0],
            [0.0, -1.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, -0.0]
        ]
    );
    let r = &file.regions[0];
    assert_eq!((r.node_count, r.node_start, r.link_count), (4, 0, 0));
    assert_eq!((r.index_mask, r.type_mask, r.height), (0xFF, 1, 1.0));
    assert_eq!(r.normal, [0.0, 0.0, 1.0]);
    assert_eq!(r.centroid, [0.5, 0.5, 0.0]);
    assert_eq!((r.aabb_min, r.aabb_max), ([0.0; 3], [1.0, 1.0, 1.0]));
    assert_eq!((r.index, r.scratch), (0, 0));
    assert!(file.ground.is_empty() && file.flyer.is_empty());
    assert_eq!(file.reserved, vec![0, 0]);
    assert_eq!(file.lookup, vec![0]);
    assert_eq!(file.octree.len(), 1);
    assert_eq!(file.octree[0].children, [NO_CHILD; 8]);
    // 8 + 96 + 4 + 4 + 80 + 8 (reserved) + 8 (lookup) + 84 (octree) = 292 -> 320.
    assert_eq!(checked.bytes.len(), 320);
    assert_eq!(&checked.bytes[292..], &[0xFF; 28][..]);
    assert_eq!(file.regions_at([0.5, 0.5, 0.5]), vec![0]);
    assert!(file.regions_at([0.5, 0.5, 1.5]).is_empty());
    assert!(file.regions_at([1.5, 0.5, 0.5]).is_empty());
}

#[test]
fn different_heights_keep_regions_apart_and_link_them() {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [3.0, 0.0, 0.0],
            [3.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3], WALK);
    mesh.push_polygon(&[1, 4, 5, 2], WALK);
    mesh.face_attributes
        .insert("path:height".into(), Attribute::Float(vec![2.0, 3.0]));
    let checked = check_cooked(&mesh, &WriteOptions::default(), 2000, 2);
    let file = &checked.file;
    assert_eq!(file.regions.len(), 2);
    assert_eq!(file.links.len(), 2);
    // Region 0 nodes: (0,0) (0,1) (1,1) (1,0); its edge 2 (1,1)->(1,0) borders region 1.
    assert_eq!((file.links[0].node, file.links[0].region), (2, 1));
    assert_eq!((file.links[0].width, file.links[0].inv_width), (1.0, 1.0));
    // Region 1 nodes: (1,0) (1,1) (3,1) (3,0); edge 0 borders region 0.
    assert_eq!((file.links[1].node, file.links[1].region), (0, 0));
    assert!(test_pair(&file.ground, 2, 0, 1));
    assert_eq!(file.regions[1].height, 3.0);
    assert_eq!(file.regions[1].centroid, [2.0, 0.5, 0.0]);
    assert_eq!(file.regions_at([1.0, 0.5, 1.0]), vec![0, 1]);
    assert_eq!(file.regions_at([2.0, 0.5, 2.5]), vec![1]);
}

#[test]
fn flat_grid_merges_into_few_convex_regions() {
    for alternate in [false, true] {
        let mesh = grid(12, 9, 2.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, alternate);
        let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 3);
        assert!(checked.regions <= 4, "{} regions", checked.regions);
        assert!(checked.hits > POINTS / 3, "{} hits", checked.hits);
    }
}

#[test]
fn l_shape_holes_and_islands() {
    // L: 8 x 8 grid without its upper-right 4 x 4 quadrant.
    let l = grid(
        8,
        8,
        1.5,
        [0.0, 0.0],
        |_, _| 0.0,
        |i, j| i < 4 || j < 4,
        true,
    );
    let checked = check_cooked(&l, &WriteOptions::default(), POINTS, 4);
    assert!(checked.regions >= 2);
    assert_eq!(checked.components, 1);

    // A 10 x 10 grid with two holes, plus a separate island and a raised floor above it.
    let mut mesh = grid(
        10,
        10,
        1.0,
        [0.0, 0.0],
        |_, _| 0.0,
        |i, j| {
            let hole = (2..4).contains(&i) && (3..6).contains(&j);
            let pit = i == 7 && j == 7;
            !hole && !pit
        },
        false,
    );
    append(
        &mut mesh,
        &grid(3, 2, 1.0, [20.0, 0.0], |_, _| 0.0, |_, _| true, false),
    );
    append(
        &mut mesh,
        &grid(4, 4, 1.0, [1.0, 1.0], |_, _| 5.0, |_, _| true, true),
    );
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 5);
    assert_eq!(checked.components, 3);
    // Stacked floors: a point above both floors' prisms is in exactly the upper one.
    assert_eq!(checked.file.regions_at([1.5, 1.5, 5.5]).len(), 1);
}

#[test]
fn slopes_and_terraces_stay_flat_per_region() {
    // A ramp (z = 0.25 x) between two flat terraces, and a wavy field whose every
    // triangle has its own plane.
    let mut mesh = grid(
        12,
        6,
        1.0,
        [0.0, 0.0],
        |x, _| (0.25 * x).clamp(0.5, 2.0),
        |_, _| true,
        false,
    );
    append(
        &mut mesh,
        &grid(
            6,
            6,
            1.0,
            [0.0, 10.0],
            |x, y| (x * 1.3).sin() * 0.4 + (y * 0.7).cos() * 0.3,
            |_, _| true,
            true,
        ),
    );
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 6);
    assert!(checked.regions > 3);
}

#[test]
fn large_field_of_many_levels_builds_a_deep_octree() {
    // 20 separate 3 x 3 platforms at different heights over a 200 x 200 area: > 16 regions
    // per cell at the top, so the octree splits.
    let mut mesh = NavMesh::default();
    for k in 0..20 {
        let x = (k % 5) as f32 * 40.0;
        let y = (k / 5) as f32 * 50.0;
        let z = (k % 3) as f32 * 4.0;
        append(
            &mut mesh,
            &grid(3, 3, 4.0, [x, y], move |_, _| z, |_, _| true, false),
        );
        let n = mesh.polygons.len();
        // Alternate heights so that neighbouring cells do not merge: many regions.
        let heights: Vec<f32> = (0..n).map(|p| 1.0 + (p % 2) as f32).collect();
        mesh.face_attributes
            .insert("path:height".into(), Attribute::Float(heights));
    }
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 7);
    assert!(
        checked.file.octree.len() > 9,
        "{} nodes",
        checked.file.octree.len()
    );
    assert_eq!(checked.components, 20);
}

#[test]
fn walls_are_dropped_with_a_warning_and_odd_faces_handled() {
    let mut mesh = square();
    // A wall polygon (non-walkable), a vertical walkable triangle, and a walkable triangle
    // facing down.
    mesh.vertices.extend_from_slice(&[
        [0.0, 0.0, 2.0],
        [5.0, 5.0, 0.0],
        [6.0, 5.0, 0.0],
        [5.0, 6.0, 0.0],
    ]);
    mesh.push_polygon(&[0, 1, 4], WALL);
    mesh.push_polygon(&[0, 4, 3], WALK);
    mesh.push_polygon(&[5, 7, 6], WALK);
    let mut diag = Diagnostics::new();
    let (file, report) = cook(&mesh, &WriteOptions::default(), &mut diag).unwrap();
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"path.non_walkable_dropped"), "{codes:?}");
    assert!(codes.contains(&"path.degenerate_dropped"), "{codes:?}");
    assert_eq!(
        (report.dropped_not_walkable, report.dropped_degenerate),
        (1, 1)
    );
    assert_eq!(file.regions.len(), 2);
    // The down-facing triangle is cooked on its own, clockwise from above, normal up.
    let r = &file.regions[1];
    assert_eq!(r.normal, [0.0, 0.0, 1.0]);
    let findings = walkmesh_prime::validate::findings(&file);
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(file.regions_at([5.2, 5.2, 0.5]), vec![1]);
}

#[test]
fn concave_polygons_are_triangulated_first() {
    // An L-shaped hexagon, counter-clockwise.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [4.0, 2.0, 0.0],
            [2.0, 2.0, 0.0],
            [2.0, 4.0, 0.0],
            [0.0, 4.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3, 4, 5], WALK);
    let mut diag = Diagnostics::new();
    let (file, report) = cook(&mesh, &WriteOptions::default(), &mut diag).unwrap();
    assert!(report.triangulated);
    assert!(file.regions.len() >= 2);
    let findings = walkmesh_prime::validate::findings(&file);
    assert!(findings.is_empty(), "{findings:#?}");
    assert!((common::covered_area(&file) - 12.0).abs() < 1e-9);
}

#[test]
fn more_than_512_regions_is_a_clear_error() {
    // 17 x 16 cells, 544 triangles, every one with its own height: nothing merges.
    let mut mesh = grid(17, 16, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let heights: Vec<f32> = (0..mesh.polygons.len()).map(|p| 1.0 + p as f32).collect();
    mesh.face_attributes
        .insert("path:height".into(), Attribute::Float(heights));
    let error = cook(&mesh, &WriteOptions::default(), &mut Diagnostics::new()).unwrap_err();
    assert!(error.to_string().contains("544 regions"), "{error}");
    assert!(error.to_string().contains("512"), "{error}");
}

#[test]
fn options_set_height_masks_version_and_merging() {
    let mesh = grid(4, 4, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let mut options = WriteOptions::default();
    options
        .params
        .insert("prime:region_height".into(), "2.5".into());
    options.params.insert("prime:index_mask".into(), "3".into());
    options.params.insert("prime:merge".into(), "off".into());
    let checked = check_cooked(&mesh, &options, 1000, 8);
    assert_eq!(checked.regions, 32);
    assert!(
        checked
            .file
            .regions
            .iter()
            .all(|r| r.height == 2.5 && r.index_mask == 3)
    );

    for (version, region_bytes) in [(6u32, 92usize), (7, 92)] {
        let mut options = WriteOptions::default();
        options
            .params
            .insert("prime:version".into(), version.to_string());
        let (file, _) = cook(&mesh, &options, &mut Diagnostics::new()).unwrap();
        assert_eq!(file.version, version);
        let bytes = file.encode();
        let parsed = PathFile::parse(&bytes).unwrap();
        assert_eq!(parsed.regions[0].obstruction, Some([0; 3]));
        assert_eq!(parsed.reserved.is_empty(), version == 7);
        assert_eq!(parsed.point_graph.is_some(), version == 6);
        assert_eq!(
            parsed.layout.ground - parsed.layout.regions,
            (region_bytes * parsed.regions.len()) as u64
        );
        let errors: Vec<_> = walkmesh_prime::validate::findings(&parsed)
            .into_iter()
            .filter(|d| d.code != "path.version_not_mp1")
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    let mut bad = WriteOptions::default();
    bad.params.insert("prime:region_height".into(), "-1".into());
    assert!(cook(&mesh, &bad, &mut Diagnostics::new()).is_err());
    bad.params
        .insert("prime:region_height".into(), "tall".into());
    let error = cook(&mesh, &bad, &mut Diagnostics::new()).unwrap_err();
    assert!(error.to_string().contains("prime:region_height"), "{error}");
}

#[test]
fn losses_are_reported_and_output_is_deterministic() {
    let mut mesh = square();
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 0,
            edge: 0,
        },
        EdgeTag { transition: 3 },
    );
    mesh.hooks.push(walkmesh_core::Hook {
        name: "use1".into(),
        position: [0.0; 3],
    });
    mesh.push_polygon(&[0, 1, 3], WALL);
    let writer = PathFormat.writer().unwrap();
    let mut diag = Diagnostics::new();
    let first = writer
        .write(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap();
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    for code in [
        "path.transitions_dropped",
        "path.hooks_dropped",
        "path.non_walkable_dropped",
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
    let second = writer
        .write(&mesh, &WriteOptions::default(), &mut Diagnostics::new())
        .unwrap();
    assert_eq!(first, second);
}

#[test]
fn a_mesh_with_nothing_walkable_is_refused() {
    // No polygons at all, and a placeable (walls only): no region, so no file.
    let mut placeable = square();
    for surface in &mut placeable.surfaces {
        *surface = WALL;
    }
    placeable.kind = walkmesh_core::MeshKind::Placeable;
    for mesh in [NavMesh::default(), placeable] {
        let error = cook(&mesh, &WriteOptions::default(), &mut Diagnostics::new()).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("nothing to cook"), "{text}");
        assert!(text.contains("at least one walkable region"), "{text}");
    }
    // Walkable but vertical only: refused too, naming why.
    let mut wall = NavMesh {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]],
        ..NavMesh::default()
    };
    wall.push_polygon(&[0, 1, 2], WALK);
    let error = cook(&wall, &WriteOptions::default(), &mut Diagnostics::new()).unwrap_err();
    assert!(
        error.to_string().contains("no area seen from above"),
        "{error}"
    );
}

/// Node positions of region `r`.
fn region_nodes(file: &PathFile, r: usize) -> Vec<[f32; 3]> {
    let region = &file.regions[r];
    let start = region.node_start as usize;
    file.nodes[start..start + region.node_count as usize]
        .iter()
        .map(|n| n.position)
        .collect()
}

#[test]
fn t_junctions_split_edges_so_links_pair_exactly() {
    // A hexagon [0,2]² with corners (1,0) on its bottom side and (2,1) on its right side; to
    // its right two unit squares of other heights, each sharing one half of that side.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [2.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
            [3.0, 0.0, 0.0],
            [3.0, 1.0, 0.0],
            [3.0, 2.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3, 4, 5], WALK);
    mesh.push_polygon(&[2, 6, 7, 3], WALK);
    mesh.push_polygon(&[3, 7, 8, 4], WALK);
    mesh.face_attributes
        .insert("path:height".into(), Attribute::Float(vec![1.0, 2.0, 3.0]));
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 11);
    let file = &checked.file;
    assert_eq!(file.regions.len(), 3);
    // (1, 0) goes (both sides of it are open), (2, 1) stays (the neighbour changes there):
    // clockwise from a strict corner.
    assert_eq!(
        region_nodes(file, 0),
        vec![
            [0.0, 0.0, 0.0],
            [0.0, 2.0, 0.0],
            [2.0, 2.0, 0.0],
            [2.0, 1.0, 0.0],
            [2.0, 0.0, 0.0]
        ]
    );
    // Region 0 links to 1 across (2,1)→(2,0) (node 3) and to 2 across (2,2)→(2,1) (node 2),
    // each one unit wide; each square links back once.
    let links = |r: usize| {
        let region = &file.regions[r];
        let start = region.link_start as usize;
        file.links[start..start + region.link_count as usize]
            .iter()
            .map(|l| (l.node, l.region, l.width))
            .collect::<Vec<_>>()
    };
    assert_eq!(links(0), vec![(2, 2, 1.0), (3, 1, 1.0)]);
    // The squares link back, and to each other across y = 1.
    let targets = |r: usize| {
        let mut t: Vec<(u32, f32)> = links(r).iter().map(|l| (l.1, l.2)).collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        t
    };
    assert_eq!(targets(1), vec![(0, 1.0), (2, 1.0)]);
    assert_eq!(targets(2), vec![(0, 1.0), (1, 1.0)]);
    assert_eq!(checked.components, 1);
}

#[test]
fn tiled_floors_merge_into_whole_rectangles() {
    // A 12 × 8 room of unit tiles, diagonals alternating, and an L-shaped room: Hertel–
    // Mehlhorn with long edges first gives one rectangle and two pieces for the L.
    let room = grid(12, 8, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, true);
    let checked = check_cooked(&room, &WriteOptions::default(), POINTS, 5);
    assert_eq!(checked.regions, 1);
    assert_eq!(
        region_nodes(&checked.file, 0),
        vec![
            [0.0, 0.0, 0.0],
            [0.0, 8.0, 0.0],
            [12.0, 8.0, 0.0],
            [12.0, 0.0, 0.0]
        ]
    );
    let l_room = grid(
        10,
        10,
        1.0,
        [0.0, 0.0],
        |_, _| 0.0,
        |i, j| i < 4 || j < 4,
        true,
    );
    let checked = check_cooked(&l_room, &WriteOptions::default(), POINTS, 6);
    // Two pieces: two rectangles (where the bar's side meets the other piece's end its
    // corner stays, the neighbour changes there: 4 + 5 corners) or, cut along the diagonal
    // from the reflex corner, two quadrilaterals (4 + 4).
    assert_eq!(checked.regions, 2);
    assert!(checked.report.max_corners <= 5, "{:?}", checked.report);
    assert!(
        (8..=9).contains(&checked.report.corners),
        "{:?}",
        checked.report
    );
}

/// A 24 × 24 grid whose heights ripple by up to `amplitude`.
fn rippled(amplitude: f32) -> NavMesh {
    grid(
        24,
        24,
        1.0,
        [0.0, 0.0],
        move |x, y| amplitude * (((x * 7.0 + y * 13.0) % 5.0) / 4.0),
        |_, _| true,
        false,
    )
}

/// Largest vertical distance of a source vertex from the floor of a region that covers it
/// seen from above (the regions' planes, from the stored nodes and normals).
fn height_error(mesh: &NavMesh, file: &PathFile) -> f64 {
    let mut worst = 0.0f64;
    for v in &mesh.vertices {
        let p = v.map(f64::from);
        let mut best = f64::INFINITY;
        for r in 0..file.regions.len() {
            let nodes: Vec<[f64; 3]> = region_nodes(file, r)
                .iter()
                .map(|n| n.map(f64::from))
                .collect();
            let m = nodes.len();
            // Clockwise from above: the point is inside when it is right of (or on) every edge.
            let inside = (0..m).all(|i| {
                let (a, b) = (nodes[i], nodes[(i + 1) % m]);
                (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) <= 1e-9
            });
            if inside {
                let n = file.regions[r].normal.map(f64::from);
                let o = nodes[0];
                let z = o[2] - (n[0] * (p[0] - o[0]) + n[1] * (p[1] - o[1])) / n[2];
                best = best.min((z - p[2]).abs());
            }
        }
        assert!(best.is_finite(), "vertex {v:?} is in no region");
        worst = worst.max(best);
    }
    worst
}

/// Ripples of 4 centimetres (a modelled floor) are within the default height tolerance
/// (0.05): every merge accepts them, without a budget, and the height error is measured.
#[test]
fn the_default_height_tolerance_merges_centimetre_ripples() {
    let mesh = rippled(0.04);
    let checked = common::check_cooked_within(&mesh, &WriteOptions::default(), POINTS, 11, 1e-2);
    // 576 cells: exact merging leaves more than 20 regions (test below); the tolerance
    // merges the whole square floor, which needs one convex region.
    assert_eq!(checked.regions, 1, "{}", checked.regions);
    assert_eq!(checked.report.tolerance, None);
    assert_eq!(checked.report.first_regions, 1);
    let measured = height_error(&mesh, &checked.file);
    assert!(measured <= 0.05 + 1e-5, "{measured}");
    assert!(
        (measured - checked.report.max_height_error).abs() < 1e-4,
        "{measured} vs {}",
        checked.report.max_height_error
    );
    let codes: Vec<&str> = checked.diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(!codes.contains(&"path.surfaces_merged"), "{codes:?}");
    assert!(codes.contains(&"path.cook_quality"), "{codes:?}");
    // Ripples beyond the tolerance stay apart.
    let steep = rippled(0.2);
    let (file, report) = cook(&steep, &WriteOptions::default(), &mut Diagnostics::new()).unwrap();
    assert!(file.regions.len() > 20, "{}", file.regions.len());
    assert!(report.max_height_error <= 0.05 + 1e-5);
    // Refused tolerances.
    for bad in ["-0.1", "NaN", "wide"] {
        let mut options = WriteOptions::default();
        options
            .params
            .insert("prime:height_tolerance".into(), bad.into());
        assert!(
            cook(&mesh, &options, &mut Diagnostics::new()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn a_region_budget_merges_nearly_flat_neighbours_within_a_bounded_height_error() {
    let mesh = rippled(0.04);
    // Exactly flat pieces are small here.
    let mut options = WriteOptions::default();
    options
        .params
        .insert("prime:height_tolerance".into(), "0".into());
    let (exact, exact_report) = cook(&mesh, &options, &mut Diagnostics::new()).unwrap();
    assert!(exact.regions.len() > 20, "{}", exact.regions.len());
    assert_eq!(exact_report.tolerance, None);
    assert_eq!(exact_report.first_regions, exact.regions.len());
    options
        .params
        .insert("prime:max_regions".into(), "12".into());
    let checked = common::check_cooked_within(&mesh, &options, POINTS, 9, 1e-2);
    // Seen from above the regions cover the grid exactly.
    let flat_area: f64 = (0..checked.file.regions.len())
        .map(|r| {
            let nodes = region_nodes(&checked.file, r);
            let m = nodes.len();
            (0..m)
                .map(|i| {
                    let (a, b) = (nodes[i], nodes[(i + 1) % m]);
                    f64::from(b[0]) * f64::from(a[1]) - f64::from(a[0]) * f64::from(b[1])
                })
                .sum::<f64>()
                / 2.0
        })
        .sum();
    assert!((flat_area - 576.0).abs() < 1e-6, "{flat_area}");
    assert!(checked.regions <= 12, "{}", checked.regions);
    assert_eq!(checked.components, 1);
    let tolerance = checked.report.tolerance.unwrap();
    assert!(tolerance > 0.0 && tolerance <= 0.3, "{tolerance}");
    // The reported error is the measured one, and within the tolerance.
    let measured = height_error(&mesh, &checked.file);
    assert!(measured <= tolerance + 1e-5, "{measured} > {tolerance}");
    assert!(
        (measured - checked.report.max_height_error).abs() < 1e-4,
        "{measured} vs {}",
        checked.report.max_height_error
    );
    let codes: Vec<&str> = checked.diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"path.surfaces_merged"), "{codes:?}");
    assert!(codes.contains(&"path.cook_quality"), "{codes:?}");

    // A bound too small for the budget: a clear error naming the smallest budget reachable.
    options
        .params
        .insert("prime:max_height_error".into(), "0.001".into());
    let error = cook(&mesh, &options, &mut Diagnostics::new()).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("smallest budget reachable"), "{text}");
    assert!(text.contains("budget is 12"), "{text}");
    // Budgets outside 1..=512 are refused.
    for bad in ["0", "513", "many"] {
        options
            .params
            .insert("prime:max_regions".into(), bad.into());
        assert!(cook(&mesh, &options, &mut Diagnostics::new()).is_err());
    }
}

#[test]
fn very_large_and_very_small_coordinates_cook_valid_files_or_are_refused() {
    // Tiles of 4 units 10 million units from the origin (f32 steps of 1 there), and tiles
    // of 1e-30 units: both cook into files our validator accepts.
    let far = grid(
        6,
        6,
        4.0,
        [-1.0e7, -1.0e7],
        |_, _| -1.0e7,
        |_, _| true,
        true,
    );
    let checked = check_cooked(&far, &WriteOptions::default(), POINTS, 3);
    assert_eq!(checked.regions, 1);
    let tiny = grid(6, 6, 1.0e-30, [1.0e-30, 0.0], |x, _| x, |_, _| true, false);
    let checked = check_cooked(&tiny, &WriteOptions::default(), POINTS, 4);
    assert!(checked.regions >= 1);
    // A far mesh with a sliver below the coordinates' precision: the sliver is dropped
    // with a warning, the rest cooks valid.
    let mut sliver = grid(3, 3, 4.0, [-1.0e7, -1.0e7], |_, _| 0.0, |_, _| true, false);
    let base = sliver.vertices.len() as u32;
    sliver.vertices.extend([
        [-1.0e7 + 12.0, -1.0e7, 0.0],
        [-1.0e7 + 13.0, -1.0e7, 0.0],
        [-1.0e7 + 13.0, -1.0e7 + 12.0, 0.0],
    ]);
    sliver.push_polygon(&[base, base + 1, base + 2], WALK);
    let mut diag = Diagnostics::new();
    let (file, report) = cook(&sliver, &WriteOptions::default(), &mut diag).unwrap();
    assert_eq!(report.dropped_degenerate, 1);
    let errors: Vec<_> = walkmesh_prime::validate::findings(&file)
        .into_iter()
        .filter(|d| d.severity == walkmesh_core::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // Beyond ±1e15 nothing is cooked: refused with a sentence.
    let huge = grid(2, 2, 1.0e14, [-1.0e16, 0.0], |_, _| 0.0, |_, _| true, false);
    let error = cook(&huge, &WriteOptions::default(), &mut Diagnostics::new()).unwrap_err();
    assert!(error.to_string().contains("nothing to cook"), "{error}");
}

#[test]
fn a_prime_profile_sets_type_masks_by_material() {
    let profile = walkmesh_core::MaterialProfile::parse(
        r#"(engine: "prime", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true),
            (material: "Grass", code: 3, walkable: true),
            (material: "Water", code: 4, walkable: false),
        ])"#,
    )
    .unwrap();
    let mut mesh = grid(2, 1, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let grass = walkmesh_core::Surface {
        material: walkmesh_core::Material(3),
        walkable: true,
        code: 3,
    };
    let water = walkmesh_core::Surface {
        material: walkmesh_core::Material(6),
        walkable: true,
        code: 6,
    };
    mesh.surfaces[0] = grass;
    mesh.surfaces[1] = grass;
    mesh.surfaces[2] = water;
    mesh.surfaces[3] = water;
    let options = WriteOptions {
        materials: Some(std::sync::Arc::new(profile)),
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let (file, report) = cook(&mesh, &options, &mut diag).unwrap();
    assert_eq!(file.regions.len(), 1);
    assert_eq!(file.regions[0].type_mask, 3);
    assert_eq!(report.dropped_not_walkable, 2);
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"path.walkability_changed"), "{codes:?}");
    // Without the profile both materials are plain ground.
    let (file, _) = cook(&mesh, &WriteOptions::default(), &mut Diagnostics::new()).unwrap();
    assert_eq!(file.regions.len(), 1);
    assert_eq!(file.regions[0].type_mask, 1);
}

#[test]
fn links_are_the_only_connectivity_when_reading_back() {
    // Three unit squares in a row at different heights (so they stay three regions): A and
    // B share their edge's vertices, C touches B along x = 2 with vertices of its own. The
    // file links A–B only; reading it back must not join B and C because their nodes sit at
    // the same positions, and a rebuild must keep the two groups.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [2.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [3.0, 1.0, 0.0],
            [2.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3], WALK);
    mesh.push_polygon(&[1, 4, 5, 2], WALK);
    mesh.push_polygon(&[6, 7, 8, 9], WALK);
    mesh.face_attributes
        .insert("path:height".into(), Attribute::Float(vec![1.0, 2.0, 3.0]));
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 21);
    assert_eq!((checked.regions, checked.components), (3, 2));
    let format = PathFormat;
    let back = walkmesh_core::Format::reader(&format)
        .unwrap()
        .read(
            walkmesh_core::Input {
                bytes: &checked.bytes,
                path: None,
            },
            &walkmesh_core::ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    let shared = |p: usize, q: usize| {
        back.polygons
            .get(p)
            .iter()
            .filter(|v| back.polygons.get(q).contains(v))
            .count()
    };
    assert_eq!(back.polygons.len(), 3);
    assert_eq!(shared(0, 1), 2, "A and B are linked: one shared edge");
    assert_eq!(shared(1, 2), 0, "B and C only touch: nothing shared");
    let walkable = |p: usize| back.is_walkable(p);
    let adjacency = walkmesh_core::passes::edge_adjacency(&back, walkable);
    let components = walkmesh_core::passes::connected_components(&back, &adjacency, walkable);
    assert_eq!(components.count, 2);
    let options = WriteOptions {
        rebuild: true,
        ..WriteOptions::default()
    };
    let (rebuilt, _) = cook(&back, &options, &mut Diagnostics::new()).unwrap();
    assert_eq!(rebuilt.links.len(), 2);
    assert!(test_pair(&rebuilt.ground, 3, 0, 1));
    assert!(!test_pair(&rebuilt.ground, 3, 1, 2));
    assert_eq!(
        rebuilt.encode(),
        checked.bytes,
        "the rebuild gives the same file"
    );
}

#[test]
fn vertices_inside_a_flat_patch_are_removed_before_merging() {
    // An L-shaped floor fanned from an inner point off its diagonal: Hertel–Mehlhorn over
    // these triangles keeps the inner point as a corner of every region around it (their
    // angles there sum to a full turn, so at least three regions meet there with the
    // reflex corner); with the point removed the L is two regions.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            [10.0, 4.0, 0.0],
            [4.0, 4.0, 0.0],
            [4.0, 10.0, 0.0],
            [0.0, 10.0, 0.0],
            [1.0, 3.0, 0.0],
        ],
        ..NavMesh::default()
    };
    for i in 0..6u32 {
        mesh.push_polygon(&[6, i, (i + 1) % 6], WALK);
    }
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 21);
    assert_eq!(checked.report.removed_vertices, 1);
    assert_eq!(checked.regions, 2);
    // The inner point is no corner of any region.
    for r in 0..checked.file.regions.len() {
        assert!(!region_nodes(&checked.file, r).contains(&[1.0, 3.0, 0.0]));
    }
}

/// A diamond of unit cells: its border is a staircase with a reflex corner at every step.
fn diamond() -> NavMesh {
    grid(
        20,
        20,
        1.0,
        [0.0, 0.0],
        |_, _| 0.0,
        |i, j| (i as i64 - 10).abs() + (j as i64 - 10).abs() <= 8,
        true,
    )
}

#[test]
fn a_budget_beyond_the_height_bound_straightens_the_border_and_says_by_how_much() {
    let mesh = diamond();
    let exact = check_cooked(&mesh, &WriteOptions::default(), 1_000, 22);
    assert!(exact.regions > 12, "{}", exact.regions);
    assert!(exact.report.border_area.is_none());
    let mut options = WriteOptions::default();
    options
        .params
        .insert("prime:max_regions".into(), "6".into());
    let checked = common::check_cooked_within(&mesh, &options, POINTS, 23, 0.25);
    assert!(checked.regions <= 6, "{}", checked.regions);
    assert_eq!(checked.components, 1);
    let border = checked.report.border;
    assert!(border.removed > 0, "{border:?}");
    assert!(checked.report.border_area.is_some());
    // The footprint written is the source's with what the report says was cut off and
    // filled in, and that change is within the default bound.
    // 2·8² + 2·8 + 1 unit cells.
    let source: f64 = 145.0;
    let footprint: f64 = (0..checked.file.regions.len())
        .map(|r| {
            let nodes = region_nodes(&checked.file, r);
            let m = nodes.len();
            (0..m)
                .map(|i| {
                    let (a, b) = (nodes[i], nodes[(i + 1) % m]);
                    f64::from(b[0]) * f64::from(a[1]) - f64::from(a[0]) * f64::from(b[1])
                })
                .sum::<f64>()
                / 2.0
        })
        .sum();
    assert!(
        (checked.report.footprint_in - source).abs() < 1e-9,
        "{}",
        checked.report.footprint_in
    );
    assert!(
        (footprint - (source - border.dropped + border.added)).abs() < 1e-6,
        "{footprint} vs {source} - {} + {}",
        border.dropped,
        border.added
    );
    assert!(border.dropped + border.added <= 0.25 * source);
    let codes: Vec<&str> = checked.diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"path.border_straightened"), "{codes:?}");

    // A bound too small: a clear error naming the smallest budget reachable.
    options
        .params
        .insert("prime:max_area_change".into(), "0.001".into());
    let error = cook(&mesh, &options, &mut Diagnostics::new()).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("smallest budget reachable"), "{text}");
    assert!(text.contains("straightening the walkable border"), "{text}");
    for bad in ["-0.1", "1.5", "much"] {
        options
            .params
            .insert("prime:max_area_change".into(), bad.into());
        assert!(cook(&mesh, &options, &mut Diagnostics::new()).is_err());
    }
}

/// A flat polygon (counter-clockwise corners at height 0) cut into walkable triangles by
/// core's ear clipping (as the cooker would cut it: an input without a diagonal joining
/// two reflex corners).
fn flat_polygon(corners: &[[f32; 2]]) -> NavMesh {
    let points: Vec<[f32; 3]> = corners.iter().map(|c| [c[0], c[1], 0.0]).collect();
    let split = walkmesh_core::passes::triangulate::triangulate_polygon(&points);
    assert!(split.simple && split.dropped == 0);
    let mut mesh = NavMesh {
        vertices: points,
        ..NavMesh::default()
    };
    for t in &split.triangles {
        mesh.push_polygon(&[t[0] as u32, t[1] as u32, t[2] as u32], WALK);
    }
    mesh
}

fn has_node(file: &PathFile, r: usize, p: [f32; 2]) -> bool {
    region_nodes(file, r)
        .iter()
        .any(|n| n[0] == p[0] && n[1] == p[1])
}

#[test]
fn two_facing_notches_are_cut_along_the_diagonal_that_resolves_both() {
    // A 6 × 4 rectangle with a V notch up from the bottom (apex (3, 1)) and one down from
    // the top (apex (3, 3)): two reflex corners, and the vertical cut between them splits
    // both angles into halves of 135° + 90°, so two convex hexagons (the fewest: one
    // region cannot cover a reflex corner).
    let mesh = flat_polygon(&[
        [0.0, 0.0],
        [2.0, 0.0],
        [3.0, 1.0],
        [4.0, 0.0],
        [6.0, 0.0],
        [6.0, 4.0],
        [4.0, 4.0],
        [3.0, 3.0],
        [2.0, 4.0],
        [0.0, 4.0],
    ]);
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 21);
    assert_eq!(checked.regions, 2);
    for r in 0..2 {
        assert_eq!(region_nodes(&checked.file, r).len(), 6, "region {r}");
        assert!(has_node(&checked.file, r, [3.0, 1.0]) && has_node(&checked.file, r, [3.0, 3.0]));
    }
}

#[test]
fn four_notches_pair_up_across_the_room() {
    // A 9 × 5 room with two V notches up from the bottom (apexes (3, 1.5), (5, 1.5)) and two
    // down from the top (apexes (3, 3.5), (4.5, 4)). (3, 1.5)–(3, 3.5) lies in both
    // corners' resolving cones (bottom: between the extensions (1, 1.5) and (−0.5, 1.5);
    // top: between (−0.5, −1.5) and (1, −1.5)), and so does (5, 1.5)–(4.5, 4) (direction
    // (−0.5, 2.5) at 101°, the bottom cone spans 56°–108°; at the top (0.5, −2.5) at 281°,
    // the cone spans 225°–297°); the two cuts do not cross. Four reflex corners need at
    // least ⌈4/2⌉ + 1 = 3 convex pieces, and the two cuts give exactly that. Hertel–Mehlhorn
    // over this ear-clipped triangulation (before the partition of issue #15) gave 5.
    let mesh = flat_polygon(&[
        [0.0, 0.0],
        [2.0, 0.0],
        [3.0, 1.5],
        [3.5, 0.0],
        [4.0, 0.0],
        [5.0, 1.5],
        [5.5, 0.0],
        [9.0, 0.0],
        [9.0, 5.0],
        [5.5, 5.0],
        [4.5, 4.0],
        [4.0, 5.0],
        [3.5, 5.0],
        [3.0, 3.5],
        [2.0, 5.0],
        [0.0, 5.0],
    ]);
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 22);
    assert_eq!(checked.regions, 3);
    // The middle piece holds both cuts: all four apexes.
    let middle: Vec<usize> = (0..3)
        .filter(|&r| {
            [[3.0, 1.5], [3.0, 3.5], [5.0, 1.5], [4.5, 4.0]]
                .iter()
                .all(|&p| has_node(&checked.file, r, p))
        })
        .collect();
    assert_eq!(middle.len(), 1);
}

#[test]
fn a_reflex_corner_no_vertex_resolves_gets_a_steiner_cut() {
    // A 6 × 5 room with a notch up from the bottom ending in a vertical side (apex (3, 1.5),
    // resolving cone 56°–90°: straight up, where the top edge has no vertex between x = 3
    // and x ≈ 4.07) and a V notch down from the top (apex (1.5, 4)). No diagonal resolves
    // both (from (3, 1.5) to (1.5, 4) runs at 121°), so the fewest pieces are 1 + 2 = 3:
    // a cut from (1.5, 4) down to a vertex, and one from (3, 1.5) up to a new point on the
    // top edge. Without the new point Hertel–Mehlhorn keeps two edges at (3, 1.5): 4.
    let mesh = flat_polygon(&[
        [0.0, 0.0],
        [2.0, 0.0],
        [3.0, 1.5],
        [3.0, 0.0],
        [6.0, 0.0],
        [6.0, 5.0],
        [2.0, 5.0],
        [1.5, 4.0],
        [1.0, 5.0],
        [0.0, 5.0],
    ]);
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 23);
    assert_eq!(checked.regions, 3);
    // The new point: on the top edge, strictly between its ends, in the corner's cone.
    let steiner: Vec<[f32; 3]> = (0..3)
        .flat_map(|r| region_nodes(&checked.file, r))
        .filter(|n| n[1] == 5.0 && n[0] > 2.0 && n[0] < 6.0)
        .collect();
    assert!(!steiner.is_empty(), "no node on the top edge");
    for n in steiner {
        let (dx, dy) = (n[0] - 3.0, n[1] - 1.5);
        assert!(dx >= 0.0 && dy >= 1.5 * dx, "{n:?} outside the cone");
    }
}

#[test]
fn a_comb_needs_one_region_per_tooth_and_one_for_the_back() {
    // A comb: a 7 × 1 back with four 1 × 2 teeth standing on it at x = 0, 2, 4, 6. Six
    // reflex corners (at y = 1, x = 1 … 6); the cuts along y = 1 across the teeth at x = 2–3
    // and 4–5 each resolve two, the two outer ones need one cut each: 4 cuts, 5 pieces (a
    // rectangle per tooth and the back; k + 1 for k teeth, which is also the fewest: every
    // tooth's top side and the back's bottom side cannot share a convex piece with
    // another tooth's).
    let mut corners: Vec<[f32; 2]> = vec![[0.0, 0.0], [7.0, 0.0]];
    for i in (0..4).rev() {
        let x = 2.0 * i as f32;
        if i < 3 {
            corners.push([x + 1.0, 1.0]);
        }
        corners.push([x + 1.0, 3.0]);
        corners.push([x, 3.0]);
        if i > 0 {
            corners.push([x, 1.0]);
        }
    }
    let mesh = flat_polygon(&corners);
    let checked = check_cooked(&mesh, &WriteOptions::default(), POINTS, 24);
    assert_eq!(checked.regions, 5);
    // Every tooth's top in a region of its own, the back's middle in the fifth.
    let mut found: Vec<u32> = [0.5f32, 2.5, 4.5, 6.5]
        .iter()
        .map(|&x| [x, 2.5])
        .chain([[3.5, 0.5]])
        .map(|[x, y]| {
            let hits = checked.file.regions_at([x, y, 0.5]);
            assert_eq!(hits.len(), 1, "({x}, {y})");
            hits[0]
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    assert_eq!(found.len(), 5);
}

/// `mesh` with every polygon's corners reversed (facing down).
fn flipped(mesh: &NavMesh, flip: impl Fn(usize) -> bool) -> NavMesh {
    let mut out = NavMesh {
        vertices: mesh.vertices.clone(),
        ..NavMesh::default()
    };
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        let mut corners = polygon.to_vec();
        if flip(p) {
            corners.reverse();
        }
        out.push_polygon(&corners, mesh.surfaces[p]);
    }
    out
}

#[test]
fn a_floor_wound_the_wrong_way_is_refused_as_facing_down() {
    // Issue #24: 800 triangles all facing down used to cook into one region each and fail
    // on the region budget; the cause is the winding, and the message says so.
    let floor = grid(20, 20, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let down = flipped(&floor, |_| true);
    let error = cook(&down, &WriteOptions::default(), &mut Diagnostics::new()).unwrap_err();
    assert_eq!(error.field, "regions");
    assert!(error.message.contains("faces point down"), "{error}");
    assert!(error.message.contains("800 walkable polygon(s)"), "{error}");
    assert!(error.message.contains("100.0%"), "{error}");
    assert!(error.message.contains("Flip"), "{error}");
    // A floor with a few folded faces (here 1 in 10) is not wrong: it cooks as before, the
    // downward ones on their own.
    let folded = flipped(&floor, |p| p % 10 == 0);
    let (file, _) = cook(&folded, &WriteOptions::default(), &mut Diagnostics::new()).unwrap();
    assert!(file.regions.len() >= 80, "{} regions", file.regions.len());
    // Exactly half facing down (by area) is not "most": not refused for its winding (400
    // single downward regions may still miss the region budget, which is another matter).
    let half = flipped(&floor, |p| p % 2 == 0);
    if let Err(error) = cook(&half, &WriteOptions::default(), &mut Diagnostics::new()) {
        assert!(!error.message.contains("point down"), "{error}");
    }
}

#[test]
fn four_million_triangles_are_admitted_by_default_and_refused_early_under_a_low_limit() {
    // Issue #24: a 4M-triangle floor once exhausted 23 GiB. Its cook is estimated at about
    // 3 GiB (measured: 3.24 GiB for the whole process, docs/performance.md), within the
    // default limit; under a 1024 MiB limit it is refused before anything is allocated.
    let floor = grid(1415, 1414, 1.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    assert!(floor.polygons.len() > 4_000_000);
    let mut options = WriteOptions::default();
    options.params.insert(
        walkmesh_core::memory::PARAM_MAX_MEMORY.into(),
        "1024".into(),
    );
    let started = std::time::Instant::now();
    let error = cook(&floor, &options, &mut Diagnostics::new()).unwrap_err();
    let took = started.elapsed();
    assert_eq!(error.field, walkmesh_core::memory::PARAM_MAX_MEMORY);
    assert!(error.message.contains("limit of 1024 MiB"), "{error}");
    assert!(error.message.contains("--max-memory"), "{error}");
    let estimate: u64 = error
        .message
        .split("estimated ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|mib| mib.parse().ok())
        .unwrap();
    // 800 bytes per triangle: 4 001 620 triangles → 3 053 MiB, under the default 4096.
    assert_eq!(estimate, 3053);
    assert!(estimate < walkmesh_core::memory::DEFAULT_MAX_MEMORY_MIB);
    // Refused up front: a cook of this floor takes tens of seconds.
    assert!(took.as_secs_f64() < 2.0, "took {took:?}");
}

/// A stepped floor (issue #33): `side` × `side` half-metre cells with alternating
/// diagonals, corner (i, j) at height 0.02 · ((7i + 3j) mod 5), and one 29 × 29-cell hole
/// (cells 5 to 33 each way). Neighbouring faces differ by up to 0.08, so merging within the
/// default 0.05 leaves thousands of regions, and the budget's tolerance search runs: its
/// steps below the threshold find thousands of patches, those above it the same few.
fn stepped_floor(side: usize) -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=side {
        for i in 0..=side {
            let z = 0.02 * ((7 * i + 3 * j) % 5) as f32;
            mesh.vertices.push([0.5 * i as f32, 0.5 * j as f32, z]);
        }
    }
    let v = |i: usize, j: usize| (j * (side + 1) + i) as u32;
    let hole = |k: usize| (5..34).contains(&k);
    for j in 0..side {
        for i in 0..side {
            if hole(i) && hole(j) {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if (i + j) % 2 == 0 {
                mesh.push_polygon(&[a, b, c], WALK);
                mesh.push_polygon(&[a, c, d], WALK);
            } else {
                mesh.push_polygon(&[a, b, d], WALK);
                mesh.push_polygon(&[b, c, d], WALK);
            }
        }
    }
    mesh
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The tolerance search skips the decimation of steps whose patches cannot meet the budget
/// or equal those of a step decimated before (issue #33): the file must be the one that
/// decimating at every step gave. The digest was taken from `7ad2b34` (before the change),
/// whose CLI wrote the same bytes for this floor as this one (`--up z`, compared with
/// `cmp`; docs/performance.md).
#[test]
fn a_stepped_floor_cooks_to_the_same_file_as_before_the_search_was_shortened() {
    let mesh = stepped_floor(120);
    let mut diag = Diagnostics::new();
    let (file, report) = cook(&mesh, &WriteOptions::default(), &mut diag).unwrap();
    assert!(report.first_regions > 512, "{}", report.first_regions);
    let tolerance = report.tolerance.expect("the tolerance search ran");
    assert!(tolerance > 0.05 && tolerance < 0.3, "{tolerance}");
    let bytes = file.encode();
    assert_eq!(
        (file.regions.len(), bytes.len(), fnv1a(&bytes)),
        (4, 960, 11_633_287_555_546_487_306),
        "tolerance {tolerance}"
    );
}

/// The cook names its phases for a progress line (`walkmesh_core::progress`), the
/// tolerance search with its steps.
#[test]
fn a_cook_under_a_budget_reports_its_phases() {
    use std::sync::{Arc, Mutex};
    use walkmesh_core::progress::{Snapshot, Status, with_status};
    let mesh = stepped_floor(60);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let status = Arc::new(Status::new(Some(Box::new(move |s: &Snapshot| {
        log.lock().unwrap().push(s.to_string());
    }))));
    with_status(status, || {
        cook(&mesh, &WriteOptions::default(), &mut Diagnostics::new()).unwrap()
    });
    let seen = seen.lock().unwrap();
    let has = |text: &str| seen.iter().any(|s| s.contains(text));
    assert!(
        has("cooking PATH: merging ") && has(" polygons within 0.05 m"),
        "{seen:?}"
    );
    assert!(
        has("over the budget of 512: merging within 0.3 m"),
        "{seen:?}"
    );
    assert!(
        has("cooking PATH: the smallest height tolerance that meets 512 regions (1/8)"),
        "{seen:?}"
    );
    assert!(has("cooking PATH: writing "), "{seen:?}");
}

/// A 3 × 3 grid of 2 m squares, each its own region (a different AI index mask per square
/// keeps the merge from joining them): nine linked regions.
fn nine_linked_regions() -> Vec<u8> {
    let mut mesh = grid(3, 3, 2.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let masks = (0..mesh.polygons.len())
        .map(|p| 1 + (p / 2) as i64)
        .collect();
    mesh.face_attributes
        .insert("path:index_mask".into(), Attribute::Int(masks));
    let writer = PathFormat.writer().unwrap();
    let out = writer
        .write(&mesh, &WriteOptions::default(), &mut Diagnostics::new())
        .unwrap();
    let file = PathFile::parse(&out.main).unwrap();
    assert_eq!(file.regions.len(), 9);
    assert!(!file.links.is_empty());
    out.main
}

fn read_path(bytes: &[u8]) -> NavMesh {
    PathFormat
        .reader()
        .unwrap()
        .read(
            walkmesh_core::Input { bytes, path: None },
            &walkmesh_core::ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap()
}

fn path_error_codes(bytes: &[u8]) -> Vec<String> {
    walkmesh_prime::validate::findings(&PathFile::parse(bytes).unwrap())
        .into_iter()
        .filter(|d| d.severity == walkmesh_core::Severity::Error)
        .map(|d| d.code)
        .collect()
}

/// Issue #51 for PATH: a file whose stored derived data (connectivity bits, a link's inverse
/// width, an octree leaf) our validator rejects is not copied by a plain write; the regions
/// are kept and every table is cooked again, with a warning naming what was wrong.
#[test]
fn stored_tables_that_fail_validation_are_cooked_again_not_copied() {
    let clean = read_and_rebuild(&nine_linked_regions());
    assert_eq!(path_error_codes(&clean), Vec::<String>::new());
    let mut file = PathFile::parse(&clean).unwrap();
    file.ground[0] ^= 1 << 1;
    file.links[0].inv_width = 0.2;
    file.octree[0].region_count = 0;
    let bad = file.encode();
    let found = path_error_codes(&bad);
    for code in [
        "path.ground_bits_mismatch",
        "path.link_inverse_width_mismatch",
        "path.octree_region_missing",
    ] {
        assert!(found.iter().any(|c| c == code), "{code} not in {found:?}");
    }
    let mesh = read_path(&bad);
    let writer = PathFormat.writer().unwrap();
    let mut diag = Diagnostics::new();
    let out = writer
        .write(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "path.stored_tables_rebuilt")
        .unwrap_or_else(|| panic!("no warning in {diag:?}"));
    assert_eq!(warning.severity, walkmesh_core::Severity::Warning);
    assert!(
        warning.message.contains("path.ground_bits_mismatch")
            && warning.message.contains("path.octree_region_missing"),
        "{}",
        warning.message
    );
    assert_eq!(path_error_codes(&out), Vec::<String>::new());
    // The regions are authored data: kept, so the cook gives the intact file back.
    assert!(out == clean, "not the intact file");
    let back = read_path(&out);
    assert_eq!(back.vertices, mesh.vertices);
    assert!(back.polygons.iter().eq(mesh.polygons.iter()));
    assert_eq!(back.surfaces, mesh.surfaces);
    // A valid file is still copied, without a word.
    let mut diag = Diagnostics::new();
    let again = writer
        .write(&read_path(&clean), &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    assert!(again == clean && diag.items.is_empty(), "{diag:?}");
}

/// What `--rebuild` makes of `bytes` read back (a file as reading and cooking its own regions
/// gives it).
fn read_and_rebuild(bytes: &[u8]) -> Vec<u8> {
    let options = WriteOptions {
        rebuild: true,
        ..WriteOptions::default()
    };
    PathFormat
        .writer()
        .unwrap()
        .write(&read_path(bytes), &options, &mut Diagnostics::new())
        .unwrap()
        .main
}
