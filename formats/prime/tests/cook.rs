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
fn empty_mesh_gives_a_valid_file() {
    let (file, _) = cook(
        &NavMesh::default(),
        &WriteOptions::default(),
        &mut Diagnostics::new(),
    )
    .unwrap();
    assert_eq!(file.octree.len(), 1);
    assert_eq!(file.octree[0].aabb_min, [f32::MAX; 3]);
    let bytes = file.encode();
    assert_eq!(bytes.len(), 128);
    let parsed = PathFile::parse(&bytes).unwrap();
    assert!(walkmesh_prime::validate::findings(&parsed).is_empty());
    assert!(parsed.regions_at([0.0; 3]).is_empty());
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
