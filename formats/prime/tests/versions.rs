//! MP2 (v6, with a point graph) and MP3 (v7) files: read, kept, preserved, dumped, recooked.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

use walkmesh_core::format::Dumper;
use walkmesh_core::{
    Diagnostics, Extra, Format, Input, Material, NavMesh, ReadOptions, Surface, WriteOptions,
};
use walkmesh_prime::model::{Point, PointGraph, VERSION_MP2, VERSION_MP3};
use walkmesh_prime::{PathFile, PathFormat};

fn small_mesh() -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [4.0, 4.0, 0.0],
            [0.0, 4.0, 0.0],
            [8.0, 0.0, 1.0],
            [8.0, 4.0, 1.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3], walk);
    mesh.push_polygon(&[1, 4, 5, 2], walk);
    mesh
}

/// A v6 file with a hand-made point graph of 3 points (3 pairs -> 1 reachability word) and
/// non-zero obstruction counters.
fn mp2_with_points() -> Vec<u8> {
    let mut options = WriteOptions::default();
    options.params.insert("prime:version".into(), "6".into());
    let (mut file, _) =
        walkmesh_prime::cook::cook(&small_mesh(), &options, &mut Diagnostics::new()).unwrap();
    file.regions[0].obstruction = Some([1, 2, 3]);
    file.point_graph = Some(PointGraph {
        points: (0..3)
            .map(|i| Point {
                position: [i as f32, 1.0, 0.5],
                flags: 0x10 + i,
                link_count: 1,
                link_start: i,
                cost_start: i,
            })
            .collect(),
        targets: vec![1, 2, 0],
        costs: vec![0x3F80_0000, 0x4000_0000, 0x4040_0000],
        reachability: vec![0b111],
    });
    file.trailing = vec![0xFF; 4];
    file.encode()
}

#[test]
fn mp2_point_graph_is_read_kept_and_preserved() {
    let bytes = mp2_with_points();
    let file = PathFile::parse(&bytes).unwrap();
    assert_eq!(file.version, VERSION_MP2);
    let graph = file.point_graph.as_ref().unwrap();
    assert_eq!(graph.points.len(), 3);
    assert_eq!(graph.points[2].flags, 0x12);
    assert_eq!(graph.targets, vec![1, 2, 0]);
    assert_eq!(graph.reachability, vec![0b111]);
    assert_eq!(file.regions[0].obstruction, Some([1, 2, 3]));
    assert_eq!(file.trailing, vec![0xFF; 4]);
    assert_eq!(file.encode(), bytes);
    // Point graph: count (4) + 3 x 28 + target count/entries (16) + cost count/entries (16) + 4.
    assert_eq!(
        file.layout.trailing - file.layout.point_graph.unwrap(),
        4 + 84 + 16 + 16 + 4
    );

    let format = PathFormat;
    let mesh = format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    assert_eq!(mesh.extras["path:version"], Extra::Int(6));
    let writer = format.writer().unwrap();
    let kept = writer
        .write(&mesh, &WriteOptions::default(), &mut Diagnostics::new())
        .unwrap();
    assert_eq!(kept.main, bytes);
    // A rebuild keeps the version but cannot recompute the point graph: said so.
    let mut diag = Diagnostics::new();
    let rebuilt = writer
        .write(
            &mesh,
            &WriteOptions {
                rebuild: true,
                ..WriteOptions::default()
            },
            &mut diag,
        )
        .unwrap();
    let reparsed = PathFile::parse(&rebuilt.main).unwrap();
    assert_eq!(reparsed.version, VERSION_MP2);
    assert_eq!(reparsed.point_graph, Some(PointGraph::default()));
    assert_eq!(reparsed.regions[0].obstruction, Some([0; 3]));
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "path.point_graph_dropped"),
        "{:?}",
        diag.items
    );

    let tree = walkmesh_prime::dump::PathDumper
        .dump(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
    let graph_node = tree
        .children
        .iter()
        .find(|c| c.name == "point_graph")
        .unwrap();
    assert_eq!(graph_node.offset, file.layout.point_graph);
    let region0 = &tree
        .children
        .iter()
        .find(|c| c.name == "regions")
        .unwrap()
        .children[0];
    let obstruction = region0
        .children
        .iter()
        .find(|c| c.name == "obstruction[1]")
        .unwrap();
    // 92-byte regions: obstruction words at 0x4C.., scratch at 0x58.
    assert_eq!(obstruction.offset, Some(file.layout.regions + 0x50));
    let scratch = region0
        .children
        .iter()
        .find(|c| c.name == "scratch")
        .unwrap();
    assert_eq!(scratch.offset, Some(file.layout.regions + 0x58));
}

#[test]
fn mp3_has_no_reserved_words_and_nothing_after_the_octree() {
    let mut options = WriteOptions::default();
    options.params.insert("prime:version".into(), "7".into());
    let (file, _) =
        walkmesh_prime::cook::cook(&small_mesh(), &options, &mut Diagnostics::new()).unwrap();
    let bytes = file.encode();
    let parsed = PathFile::parse(&bytes).unwrap();
    assert_eq!(parsed.version, VERSION_MP3);
    assert_eq!(parsed.layout.lookup - 4, parsed.layout.reserved);
    assert!(parsed.reserved.is_empty());
    assert!(parsed.point_graph.is_none());
    let findings = walkmesh_prime::validate::findings(&parsed);
    let codes: Vec<&str> = findings.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, vec!["path.version_not_mp1"]);
    // The two quads are not coplanar: two regions, linked both ways.
    assert_eq!(parsed.regions.len(), 2);
    assert_eq!(parsed.links.len(), 2);
}
