#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! PATH files of every version we read, for the Kaitai peer check (.ci/peers/kaitai.sh), which
//! parses them with the spec compiled to Python and compares with `walkmesh dump`: the shared
//! corpus holds a version 4 file only, and no CLI option writes versions 6 and 7. Written to
//! `$WALKMESH_PEER_DIR/kaitai/` when that is set; the files are checked here as well.

use walkmesh_core::{Diagnostics, Material, NavMesh, Surface, WriteOptions};
use walkmesh_prime::PathFile;
use walkmesh_prime::model::{Point, PointGraph};

/// Two quads at different heights: two regions, linked both ways.
fn two_quads() -> NavMesh {
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

fn cooked(version: u32) -> PathFile {
    let mut options = WriteOptions::default();
    options
        .params
        .insert("prime:version".into(), version.to_string());
    let (file, _) =
        walkmesh_prime::cook::cook(&two_quads(), &options, &mut Diagnostics::new()).unwrap();
    file
}

/// Version 6 with a point graph of 3 points, set obstruction counters and trailing bytes, so
/// that every optional part of the layout is there.
fn version_6() -> Vec<u8> {
    let mut file = cooked(6);
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
fn path_files_of_every_version() {
    let files = [
        ("two_quads_v4.path", cooked(4).encode(), 4),
        ("two_quads_v6.path", version_6(), 6),
        ("two_quads_v7.path", cooked(7).encode(), 7),
    ];
    for (name, bytes, version) in &files {
        let parsed = PathFile::parse(bytes).unwrap();
        assert_eq!(parsed.version, *version, "{name}");
        assert_eq!(parsed.regions.len(), 2, "{name}");
    }
    if let Some(dir) = std::env::var_os("WALKMESH_PEER_DIR") {
        let dir = std::path::Path::new(&dir).join("kaitai");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes, _) in &files {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
}
