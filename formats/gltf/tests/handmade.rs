//! Hand-made glTF files (written here by a small builder, not by our writer) with expected
//! results computed by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::json;
use walkmesh_core::passes::polygon_normal;
use walkmesh_core::{Material, ReadOptions};

fn read_doc(doc: &serde_json::Value) -> (walkmesh_core::NavMesh, walkmesh_core::Diagnostics) {
    read_bytes(&serde_json::to_vec(doc).unwrap()).unwrap()
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5)
}

const TRIANGLE: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

#[test]
fn nested_trs_and_matrix_transforms_are_applied_and_converted_to_z_up() {
    let mut b = Builder::default();
    let positions = b.positions(&TRIANGLE);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let doc = b.document(json!({
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"translation": [10.0, 0.0, 0.0], "children": [1], "mesh": 0},
            {"rotation": [0.0, s, 0.0, s], "scale": [2.0, 2.0, 2.0], "children": [2]},
            {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,5,1], "mesh": 0}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    }));
    let (mesh, _) = read_doc(&doc);
    assert_eq!(mesh.polygons.len(), 2);
    assert_eq!(mesh.vertices.len(), 6);
    // Node 0: glTF + (10,0,0) → IR (x, −z, y).
    let expected = [
        [11.0, 0.0, 0.0],
        [10.0, 0.0, 1.0],
        [10.0, -1.0, 0.0],
        // Node 2: translate z+5, scale 2, rotate 90° about +Y ((x,y,z) → (z,y,−x)), +10 x.
        [20.0, 2.0, 0.0],
        [20.0, 0.0, 2.0],
        [22.0, 0.0, 0.0],
    ];
    for (got, want) in mesh.vertices.iter().zip(&expected) {
        assert!(close(*got, *want), "{got:?} vs {want:?}");
    }
    assert_eq!(mesh.polygons.get(0), &[0, 1, 2]);
    assert_eq!(mesh.polygons.get(1), &[3, 4, 5]);
}

#[test]
fn identity_nodes_copy_positions_bit_for_bit() {
    let mut b = Builder::default();
    let positions = b.positions(&[[-0.0, 0.1, -0.0], [1e-40, 3.0, 7.0], [0.0, 1.0, 0.0]]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "children": [1]}, {"mesh": 0, "scale": [1,1,1]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    }));
    let (mesh, _) = read_doc(&doc);
    // IR = (x, −z, y).
    assert_eq!(
        mesh.vertices[0].map(f32::to_bits),
        [(-0.0f32).to_bits(), 0.0f32.to_bits(), 0.1f32.to_bits()]
    );
    assert_eq!(
        mesh.vertices[1].map(f32::to_bits),
        [1e-40f32.to_bits(), (-7.0f32).to_bits(), 3.0f32.to_bits()]
    );
}

#[test]
fn non_indexed_triangles() {
    let mut b = Builder::default();
    let positions = b.positions(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, -1.0],
        [2.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [2.0, 0.0, -1.0],
        [9.0, 9.0, 9.0], // a trailing vertex that does not make a triangle
    ]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}, "mode": 4}]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    assert_eq!(mesh.polygons.len(), 2);
    assert_eq!(mesh.polygons.get(1), &[3, 4, 5]);
    assert_eq!(mesh.vertices.len(), 7);
    assert_eq!(codes(&diag), ["gltf.no_material", "gltf.metadata"]);
    // Counter-clockwise seen from +Y in glTF is counter-clockwise seen from +Z in the IR.
    assert!(polygon_normal(&mesh, 0)[2] > 0.99);
}

#[test]
fn strips_and_fans_follow_the_spec_order() {
    let mut b = Builder::default();
    let points: Vec<[f32; 3]> = (0..6).map(|i| [i as f32, 0.0, (i % 2) as f32]).collect();
    let positions = b.positions(&points);
    let strip = b.indices16(&[0, 1, 2, 3, 3, 4]);
    let fan = b.indices(&[0, 1, 2, 3, 4]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": positions}, "indices": strip, "mode": 5},
            {"attributes": {"POSITION": positions}, "indices": fan, "mode": 6},
            {"attributes": {"POSITION": positions}, "mode": 5}
        ]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    let polygons: Vec<Vec<u32>> = mesh.polygons.iter().map(<[u32]>::to_vec).collect();
    assert_eq!(
        polygons,
        vec![
            // Strip 0,1,2,3,3,4: p0=(0,1,2), p1=(1,3,2), p2=(2,3,3) degenerate, p3=(3,4,3) degenerate.
            vec![0, 1, 2],
            vec![1, 3, 2],
            // Fan 0..4: (1,2,0), (2,3,0), (3,4,0).
            vec![1, 2, 0],
            vec![2, 3, 0],
            vec![3, 4, 0],
            // Non-indexed strip of 6: (0,1,2), (1,3,2), (2,3,4), (3,5,4).
            vec![0, 1, 2],
            vec![1, 3, 2],
            vec![2, 3, 4],
            vec![3, 5, 4],
        ]
    );
    // Shared POSITION accessor: the vertices are read once.
    assert_eq!(mesh.vertices.len(), 6);
    assert_eq!(
        codes(&diag),
        ["gltf.no_material", "gltf.degenerate_skipped"]
    );
}

#[test]
fn materials_map_to_surfaces_through_the_profile() {
    let mut b = Builder::default();
    let positions = b.positions(&TRIANGLE);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "materials": [{"name": "Grass"}, {"name": "nonwalk"}, {"name": "Lava.001"}, {"name": "Granite"}, {}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": positions}, "material": 0},
            {"attributes": {"POSITION": positions}, "material": 1},
            {"attributes": {"POSITION": positions}, "material": 2},
            {"attributes": {"POSITION": positions}, "material": 3},
            {"attributes": {"POSITION": positions}, "material": 4},
            {"attributes": {"POSITION": positions}}
        ]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    let got: Vec<(u16, bool, u32)> = mesh
        .surfaces
        .iter()
        .map(|s| (s.material.0, s.walkable, s.code))
        .collect();
    assert_eq!(
        got,
        vec![
            (3, true, 3),
            (7, false, 7),
            (15, false, 15),
            (4, true, 4),
            (4, true, 4),
            (4, true, 4)
        ]
    );
    let mut found = codes(&diag);
    found.sort();
    assert_eq!(
        found,
        [
            "gltf.no_material",
            "gltf.unknown_material",
            "gltf.unknown_material"
        ]
    );
    assert!(diag.items.iter().any(|d| d.message.contains("'Granite'")));
    assert!(
        diag.items
            .iter()
            .any(|d| d.message.contains("unnamed material 4"))
    );

    // The default material can be chosen.
    let options = ReadOptions {
        default_material: Some("Dirt".into()),
        ..ReadOptions::default()
    };
    let (mesh, _) = read_with(&serde_json::to_vec(&doc).unwrap(), None, &options).unwrap();
    assert_eq!(mesh.surfaces[3].material, Material(1));
}

#[test]
fn mirrored_nodes_keep_faces_pointing_up() {
    let mut b = Builder::default();
    let positions = b.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"mesh": 0}, {"mesh": 0, "scale": [-1.0, 1.0, 1.0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    }));
    let (mesh, _) = read_doc(&doc);
    assert_eq!(mesh.polygons.get(1), &[3, 5, 4]);
    assert!(polygon_normal(&mesh, 0)[2] > 0.99);
    assert!(polygon_normal(&mesh, 1)[2] > 0.99);
}

#[test]
fn scene_is_chosen_by_default_index_or_name() {
    let mut b = Builder::default();
    let positions = b.positions(&TRIANGLE);
    let doc = b.document(json!({
        "scene": 1,
        "scenes": [{"name": "first", "nodes": [0]}, {"name": "second", "nodes": [1, 2]}],
        "nodes": [{"mesh": 0}, {"mesh": 0}, {"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    }));
    let bytes = serde_json::to_vec(&doc).unwrap();
    assert_eq!(read_bytes(&bytes).unwrap().0.polygons.len(), 2);
    for (wanted, count) in [("0", 1), ("first", 1), ("second", 2), ("1", 2)] {
        let mut options = ReadOptions::default();
        options.params.insert("gltf:scene".into(), wanted.into());
        assert_eq!(
            read_with(&bytes, None, &options).unwrap().0.polygons.len(),
            count,
            "{wanted}"
        );
    }
    let mut options = ReadOptions::default();
    options.params.insert("gltf:scene".into(), "third".into());
    let error = read_with(&bytes, None, &options).unwrap_err().to_string();
    assert!(
        error.contains("no scene 'third'") && error.contains("1 (second)"),
        "{error}"
    );

    // No scene at all: root nodes are read, with a warning.
    let doc = b.document(json!({
        "nodes": [{"mesh": 0, "children": [1]}, {"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    assert_eq!(mesh.polygons.len(), 2);
    assert_eq!(codes(&diag), ["gltf.no_scene", "gltf.no_material"]);
}

#[test]
fn quantized_positions_and_sparse_accessors() {
    let mut b = Builder::default();
    // u16 normalized VEC3 (KHR_mesh_quantization), padded to 8 bytes per element.
    let mut bytes = Vec::new();
    for p in [[0u16, 0, 0], [65535, 0, 0], [0, 0, 32768]] {
        for c in p {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
        bytes.extend_from_slice(&[0, 0]);
    }
    let quantized_view = b.raw_view(&bytes);
    let sparse_indices = b.raw_view(&1u16.to_le_bytes());
    let sparse_values: Vec<u8> = [5.0f32, 6.0, 7.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let sparse_values = b.raw_view(&sparse_values);
    let base = b.positions(&TRIANGLE);
    let mut doc = b.document(json!({
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": 0}},
            {"attributes": {"POSITION": 1}}
        ]}]
    }));
    doc["bufferViews"][quantized_view]["byteStride"] = json!(8);
    let accessors = doc["accessors"].as_array_mut().unwrap();
    let base_accessor = accessors[base].clone();
    accessors.clear();
    accessors.push(
        json!({"bufferView": quantized_view, "componentType": 5123, "normalized": true,
        "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 0, 0.5]}),
    );
    let mut sparse = base_accessor;
    sparse["sparse"] = json!({"count": 1,
        "indices": {"bufferView": sparse_indices, "componentType": 5123},
        "values": {"bufferView": sparse_values}});
    sparse["max"] = json!([5.0, 6.0, 7.0]);
    accessors.push(sparse);
    let (mesh, _) = read_doc(&doc);
    assert_eq!(mesh.vertices[1], [1.0, 0.0, 0.0]);
    assert!(close(mesh.vertices[2], [0.0, -32768.0 / 65535.0, 0.0]));
    // Sparse: element 1 replaced by (5,6,7) → IR (5, −7, 6).
    assert_eq!(mesh.vertices[3], [1.0, 0.0, 0.0]);
    assert_eq!(mesh.vertices[4], [5.0, -7.0, 6.0]);
    assert_eq!(mesh.vertices[5], [0.0, -1.0, 0.0]);

    doc["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    let error = read_bytes(&serde_json::to_vec(&doc).unwrap())
        .unwrap_err()
        .to_string();
    assert!(error.contains("KHR_draco_mesh_compression"), "{error}");
}

#[test]
fn glb_built_by_hand_with_an_unknown_chunk() {
    let mut b = Builder::default();
    let positions = b.positions(&TRIANGLE);
    let indices = b.indices16(&[2, 1, 0]);
    let doc = b.document_with_buffer(
        json!({
            "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": positions}, "indices": indices}]}]
        }),
        json!({"byteLength": b.bin.len()}),
    );
    let mut bytes = glb(&serde_json::to_vec(&doc).unwrap(), Some(&b.bin));
    // An extra chunk of an unknown type must be skipped.
    bytes.extend_from_slice(&4u32.to_le_bytes());
    bytes.extend_from_slice(b"XTRA");
    bytes.extend_from_slice(&[1, 2, 3, 4]);
    let total = bytes.len() as u32;
    bytes[8..12].copy_from_slice(&total.to_le_bytes());
    let (mesh, diag) = read_bytes(&bytes).unwrap();
    assert_eq!(codes(&diag), ["gltf.no_material"]);
    assert_eq!(mesh.polygons.get(0), &[2, 1, 0]);
    assert_eq!(mesh.vertices[2], [0.0, -1.0, 0.0]);
}

#[test]
fn external_buffers_are_resolved_beside_the_file_only() {
    let mut b = Builder::default();
    let positions = b.positions(&TRIANGLE);
    let dir = std::env::temp_dir().join(format!("walkmesh-gltf-ext-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub").join("geo metry.bin"), &b.bin).unwrap();
    let rest = json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}}]}]
    });
    let make = |uri: &str| {
        serde_json::to_vec(
            &b.document_with_buffer(rest.clone(), json!({"byteLength": b.bin.len(), "uri": uri})),
        )
        .unwrap()
    };
    let main = dir.join("room.gltf");
    let bytes = make("sub/geo%20metry.bin");
    let (mesh, _) = read_with(&bytes, Some(&main), &ReadOptions::default()).unwrap();
    assert_eq!(mesh.polygons.len(), 1);

    let error = read_with(&bytes, None, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("without a path"), "{error}");
    let error = read_with(&make("missing.bin"), Some(&main), &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("buffers[0].uri") && error.contains("missing.bin"),
        "{error}"
    );
    for uri in [
        "http://example.invalid/a.bin",
        "/etc/passwd",
        "file:///etc/passwd",
        "C:/x.bin",
    ] {
        let error = read_with(&make(uri), Some(&main), &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("not a relative file reference"),
            "{uri}: {error}"
        );
    }
    // A file shorter than the declared length.
    std::fs::write(dir.join("short.bin"), &b.bin[..10]).unwrap();
    let error = read_with(&make("short.bin"), Some(&main), &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("only 10 are available"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn metadata_that_no_longer_fits_is_dropped_with_a_warning() {
    // Our writer's output, edited: one primitive's faces removed as if in Blender.
    let mesh = rich_mesh();
    let (output, _) = write(&mesh, "x.gltf");
    let mut doc: serde_json::Value = serde_json::from_slice(&output.main).unwrap();
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64(&output.sidecars[0].bytes)
    );
    doc["buffers"][0]["uri"] = json!(uri);
    doc["meshes"][0]["primitives"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    let (back, diag) = read_doc(&doc);
    assert_eq!(back.polygons.len(), 4);
    assert!(back.edge_tags.is_empty());
    assert!(back.face_attributes.is_empty());
    assert_eq!(back.hooks, mesh.hooks);
    assert!(
        codes(&diag).iter().any(|c| c == "gltf.stale_metadata"),
        "{diag:?}"
    );
}

#[test]
fn sparse_indices_take_the_general_path_with_the_same_checks() {
    let mut b = Builder::default();
    let positions = b.positions(&[
        [0.0; 3],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, -1.0],
        [1.0, 0.0, -1.0],
    ]);
    let indices = b.indices16(&[0, 1, 2]);
    let targets = b.raw_view(&2u16.to_le_bytes());
    let good = b.raw_view(&3u16.to_le_bytes());
    let bad = b.raw_view(&9u16.to_le_bytes());
    let mut doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}, "indices": indices}]}]
    }));
    doc["accessors"][indices]["sparse"] = json!({"count": 1,
        "indices": {"bufferView": targets, "componentType": 5123},
        "values": {"bufferView": good}});
    let (mesh, _) = read_doc(&doc);
    assert_eq!(mesh.polygons.get(0), &[0, 1, 3]);
    doc["accessors"][indices]["sparse"]["values"]["bufferView"] = json!(bad);
    let error = read_bytes(&serde_json::to_vec(&doc).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("index 2 of meshes[0].primitives[0] is 9"),
        "{error}"
    );
}
