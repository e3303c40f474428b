//! The synthetic fixture from the shared corpus: parse, IR mapping, preserve, rebuild,
//! validation and the engine-style point queries listed in its SOURCES.md.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

use std::path::Path;

use walkmesh_core::format::Dumper;
use walkmesh_core::testing::required_corpora_dir;
use walkmesh_core::{
    Attribute, Diagnostics, Extra, Format, Input, ReadOptions, Severity, WriteOptions,
};
use walkmesh_prime::model::test_pair;
use walkmesh_prime::{PathFile, PathFormat};

fn fixture() -> Vec<u8> {
    let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let path = dir.join("prime/synthetic/grid_mp1_v4.path");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(bytes: &[u8]) -> walkmesh_core::NavMesh {
    PathFormat
        .reader()
        .unwrap()
        .read(
            Input { bytes, path: None },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_sections_have_the_documented_counts() {
    let bytes = fixture();
    assert_eq!(bytes.len(), 7264);
    let file = PathFile::parse(&bytes).unwrap();
    assert_eq!(file.version, 4);
    assert_eq!(file.nodes.len(), 108);
    assert_eq!(file.links.len(), 82);
    assert_eq!(file.regions.len(), 27);
    assert_eq!(file.ground.len(), 11);
    assert_eq!(file.flyer.len(), 11);
    assert_eq!(file.reserved.len(), 24);
    assert_eq!(file.lookup.len(), 64);
    assert_eq!(file.octree.len(), 9);
    assert_eq!(file.trailing, vec![0xFF; 16]);
    // Region 24 is flyer-only; regions 25, 26 have index mask 3 and height 6.
    assert_eq!(file.regions[24].type_mask, 2);
    assert_eq!(file.regions[25].index_mask, 3);
    assert_eq!(file.regions[26].height, 6.0);
    assert_eq!(file.regions[0].centroid, [5.0, 5.0, 0.0]);
    assert_eq!(file.octree.last().unwrap().is_leaf, 0);
    // Ground: 0..=23 connected, 24 alone, 25-26 connected. Flyer: 0..=24, 25-26.
    let n = 27;
    assert!(test_pair(&file.ground, n, 0, 23));
    assert!(!test_pair(&file.ground, n, 19, 24));
    assert!(test_pair(&file.ground, n, 25, 26));
    assert!(!test_pair(&file.ground, n, 0, 25));
    assert!(test_pair(&file.flyer, n, 0, 24));
    assert!(!test_pair(&file.flyer, n, 24, 25));
    assert_eq!(file.encode(), bytes);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_reads_as_counter_clockwise_polygons_with_attributes() {
    let bytes = fixture();
    let mesh = read(&bytes);
    assert!(mesh.check().is_ok());
    assert_eq!(mesh.polygons.len(), 27);
    // Grid corners are shared: 6 x 6 = 36, plus 6 corners of the two raised quads.
    assert_eq!(mesh.vertices.len(), 42);
    // Region 0's nodes are (0,0) (0,10) (10,10) (10,0): clockwise; the IR keeps node 0
    // first and reverses the rest.
    let corners: Vec<[f32; 3]> = mesh
        .polygons
        .get(0)
        .iter()
        .map(|&v| mesh.vertex(v))
        .collect();
    assert_eq!(
        corners,
        vec![
            [0.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            [10.0, 10.0, 0.0],
            [0.0, 10.0, 0.0]
        ]
    );
    assert!(walkmesh_core::passes::polygon_normal(&mesh, 0)[2] > 0.0);
    let Attribute::Float(heights) = &mesh.face_attributes["path:height"] else {
        panic!("height column is not float")
    };
    assert_eq!(heights[0], 4.0);
    assert_eq!(heights[25], 6.0);
    let Attribute::Int(types) = &mesh.face_attributes["path:type_mask"] else {
        panic!("type column is not int")
    };
    assert_eq!(types[24], 2);
    let Attribute::Int(index) = &mesh.face_attributes["path:index_mask"] else {
        panic!("index column is not int")
    };
    assert_eq!(index[26], 3);
    assert!(mesh.surfaces[0].walkable);
    assert!(
        !mesh.surfaces[24].walkable,
        "flyer-only region is not walkable"
    );
    assert_eq!(mesh.surfaces[24].code, 2);
    assert_eq!(mesh.extras["path:version"], Extra::Int(4));
    // The IR's own connectivity matches the file's: 24 grid cells + the raised pair.
    let adjacency = walkmesh_core::passes::edge_adjacency(&mesh, |p| mesh.is_walkable(p));
    let components =
        walkmesh_core::passes::connected_components(&mesh, &adjacency, |p| mesh.is_walkable(p));
    assert_eq!(components.count, 2);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_preserves_byte_for_byte_and_rebuilds_identically() {
    let bytes = fixture();
    let mesh = read(&bytes);
    let writer = PathFormat.writer().unwrap();
    let mut diag = Diagnostics::new();
    let out = writer
        .write(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap();
    assert_eq!(out.main, bytes);
    assert!(diag.items.is_empty());
    // A rebuild with one region per polygon recomputes every table and must land on the
    // same bytes as the independently generated fixture.
    let mut options = WriteOptions {
        rebuild: true,
        ..WriteOptions::default()
    };
    options.params.insert("prime:merge".into(), "off".into());
    let rebuilt = writer.write(&mesh, &options, &mut diag).unwrap();
    if rebuilt.main != bytes {
        let first = rebuilt.main.iter().zip(&bytes).position(|(a, b)| a != b);
        panic!(
            "rebuild differs: len {} vs {}, first difference at {first:?}",
            rebuilt.main.len(),
            bytes.len()
        );
    }
    // Without parameters too: regions read from a PATH file are authored and kept.
    let default_rebuild = writer
        .write(
            &mesh,
            &WriteOptions {
                rebuild: true,
                ..WriteOptions::default()
            },
            &mut diag,
        )
        .unwrap();
    assert_eq!(default_rebuild.main, bytes);
    // Asking for the merge glues the fixture's coplanar regions: fewer, larger regions.
    options.params.insert("prime:merge".into(), "on".into());
    let merged = writer.write(&mesh, &options, &mut diag).unwrap();
    assert!(merged.main.len() < bytes.len());
    // After an edit the provenance is stale and the writer cooks.
    let mut edited = mesh.clone();
    edited.vertices[0][2] = 0.5;
    let cooked = writer
        .write(&edited, &WriteOptions::default(), &mut Diagnostics::new())
        .unwrap();
    assert_ne!(cooked.main, bytes);
}

/// Issue #51 on the fixture: its links and tables broken, a plain write does not copy them
/// but cooks the regions again, giving the intact fixture back with a warning.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_with_broken_stored_tables_is_cooked_again_not_copied() {
    let bytes = fixture();
    let mut file = PathFile::parse(&bytes).unwrap();
    file.flyer[10] ^= 0x10;
    file.links[0].width = 11.0;
    file.lookup[3] = 99;
    let bad = file.encode();
    let mesh = read(&bad);
    let mut diag = Diagnostics::new();
    let out = PathFormat
        .writer()
        .unwrap()
        .write(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap();
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "path.stored_tables_rebuilt")
        .unwrap_or_else(|| panic!("no warning in {diag:?}"));
    for code in [
        "path.flyer_bits_mismatch",
        "path.link_width_mismatch",
        "path.octree_lookup_invalid",
    ] {
        assert!(warning.message.contains(code), "{}", warning.message);
    }
    assert!(out.main == bytes, "not the intact fixture");
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_validates_clean() {
    let bytes = fixture();
    let findings = PathFormat
        .validator()
        .unwrap()
        .validate(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_point_queries_match_its_notes() {
    let bytes = fixture();
    let file = PathFile::parse(&bytes).unwrap();
    assert_eq!(file.regions_at([5.0, 5.0, 1.0]), vec![0]);
    assert_eq!(file.regions_at([45.0, 45.0, 1.0]), vec![24]);
    assert_eq!(file.regions_at([105.0, 5.0, 3.0]), vec![25]);
    assert_eq!(file.regions_at([60.0, 60.0, 1.0]), Vec::<u32>::new());
    assert_eq!(file.regions_at([25.0, 25.0, 10.0]), Vec::<u32>::new());
    // On a shared edge both regions contain the point.
    assert_eq!(file.regions_at([10.0, 5.0, 1.0]), vec![0, 1]);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_dump_names_offsets() {
    let bytes = fixture();
    let tree = walkmesh_prime::dump::PathDumper
        .dump(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
    let find = |name: &str| tree.children.iter().find(|c| c.name == name).unwrap();
    // 8 + 108 * 24 = 2600: link count; links at 2604; 82 * 16 = 1312 -> region count at 3916.
    assert_eq!(find("link_count").offset, Some(2600));
    assert_eq!(find("links").offset, Some(2604));
    assert_eq!(find("region_count").offset, Some(3916));
    assert_eq!(find("regions").offset, Some(3920));
    // 3920 + 27 * 80 = 6080.
    assert_eq!(find("ground_bits").offset, Some(6080));
    assert_eq!(find("flyer_bits").offset, Some(6124));
    assert_eq!(find("reserved").offset, Some(6168));
    assert_eq!(find("octree_lookup_count").offset, Some(6264));
    assert_eq!(find("octree_count").offset, Some(6524));
    assert_eq!(find("trailing").offset, Some(7248));
    let region24 = &find("regions").children[24];
    let type_mask = region24
        .children
        .iter()
        .find(|c| c.name == "type_mask")
        .unwrap();
    assert_eq!(type_mask.offset, Some(3920 + 24 * 80 + 18));
    assert_eq!(
        type_mask.value,
        Some(walkmesh_core::dump::DumpValue::UInt(2))
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn sniff_accepts_the_fixture_and_refuses_other_content() {
    let bytes = fixture();
    let len = bytes.len() as u64;
    assert_eq!(
        PathFormat.sniff(&bytes[..64], len),
        walkmesh_prime::SNIFF_SCORE
    );
    assert_eq!(PathFormat.sniff(b"BWM V1.0\0\0\0\0", 1000), 0);
    assert_eq!(PathFormat.sniff(&bytes[..64], 200), 0, "counts do not fit");
    assert_eq!(PathFormat.sniff(&[0, 0, 0, 4], 4), 0);
    let mut wrong_version = bytes.clone();
    wrong_version[3] = 5;
    assert_eq!(PathFormat.sniff(&wrong_version, len), 0);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn validator_findings_name_stable_codes() {
    let bytes = fixture();
    let codes = |edit: &dyn Fn(&mut PathFile)| -> Vec<String> {
        let mut file = PathFile::parse(&bytes).unwrap();
        edit(&mut file);
        let mut codes: Vec<String> = walkmesh_prime::validate::findings(&file)
            .into_iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| d.code)
            .collect();
        codes.dedup();
        codes
    };
    assert_eq!(
        codes(&|f| f.regions[3].index = 4),
        vec!["path.region_index_mismatch"]
    );
    assert_eq!(codes(&|f| f.reserved[5] = 1), vec!["path.reserved_nonzero"]);
    assert_eq!(
        codes(&|f| f.ground[0] ^= 1),
        vec!["path.ground_bits_mismatch"]
    );
    assert_eq!(
        codes(&|f| f.flyer[10] ^= 0x10),
        vec!["path.flyer_bits_mismatch"]
    );
    assert_eq!(
        codes(&|f| f.links[0].inv_width = 0.2),
        vec!["path.link_inverse_width_mismatch"]
    );
    // Region 0's first link leads to 5; pointing it at 6 breaks reciprocity (and the edge
    // it names no longer borders 6, which the tables do not see).
    assert!(codes(&|f| f.links[0].region = 6).contains(&"path.link_not_reciprocal".to_string()));
    assert!(codes(&|f| f.links[0].width = 11.0).contains(&"path.link_width_mismatch".to_string()));
    // The bad link is not counted as the way back from region 5 either.
    assert_eq!(
        codes(&|f| f.links[0].node = 4),
        vec!["path.link_node_invalid", "path.link_not_reciprocal"]
    );
    // Swapping two nodes of region 0 makes it counter-clockwise.
    let ccw = codes(&|f| f.nodes.swap(1, 3));
    assert!(
        ccw.contains(&"path.region_not_clockwise".to_string()),
        "{ccw:?}"
    );
    // Raising a corner makes the region not flat.
    let bent = codes(&|f| f.nodes[2].position[2] = 1.0);
    assert!(
        bent.contains(&"path.region_not_flat".to_string()),
        "{bent:?}"
    );
    // Moving a corner inwards makes a reflex angle.
    let dent = codes(&|f| f.nodes[2].position = [4.0, 4.0, 0.0]);
    assert!(
        dent.contains(&"path.region_not_convex".to_string()),
        "{dent:?}"
    );
    assert_eq!(
        codes(&|f| f.nodes[0].normal = [0.0, 1.0, 0.0]),
        vec!["path.node_normal_mismatch"]
    );
    assert_eq!(
        codes(&|f| f.regions[0].aabb_max[2] = 3.0),
        vec!["path.region_box_too_small"]
    );
    assert_eq!(
        codes(&|f| f.regions[0].normal = [0.0, 0.0, -1.0]),
        vec!["path.region_normal_invalid"]
    );
    assert_eq!(
        codes(&|f| f.octree[8].children[3] = 0xFFFF_FFFF),
        vec!["path.octree_child_invalid"]
    );
    assert_eq!(
        codes(&|f| f.octree[8].children[3] = 8),
        vec!["path.octree_child_order"]
    );
    assert_eq!(codes(&|f| f.lookup[3] = 99), {
        // Entry 3 named region 3, so leaf 0 also loses region 3.
        vec!["path.octree_lookup_invalid", "path.octree_region_missing"]
    });
    assert_eq!(
        codes(&|f| f.octree[0].region_count = 14),
        vec!["path.octree_region_missing"]
    );
    assert_eq!(codes(&|f| f.octree.clear()), vec!["path.octree_empty"]);
    assert_eq!(codes(&|f| f.regions[5].type_mask = 0), {
        // Region 5 leaves the ground and flyer components.
        vec![
            "path.region_unusable",
            "path.ground_bits_mismatch",
            "path.flyer_bits_mismatch",
        ]
    });
}
