//! What survives Blender: files edited the way Blender 3.4's importer/exporter changes them
//! (primitive and scene `extras` dropped, vertices split per primitive, hook empties moved),
//! foreign texture maps, axes and quarter-turn transforms. Expected values by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::{Value, json};
use walkmesh_core::{
    EdgeRef, EdgeTag, Hook, NavMesh, ReadOptions, UpAxis, VertexIdentity, passes::as_modelled,
    summary::summarize,
};

/// A 3×1 strip of unit squares (six walkable triangles, one surface) with transitions on the
/// right end (edge (3,0)→(3,1)) and on the middle of the bottom (edge (1,0)→(2,0)), and two
/// hooks.
fn tagged_strip() -> NavMesh {
    let mut mesh = NavMesh {
        vertices: (0..2)
            .flat_map(|y| (0..4).map(move |x| [x as f32, y as f32, 0.0]))
            .collect(),
        hooks: vec![
            Hook {
                name: "use1".into(),
                position: [0.5, 0.5, 0.0],
            },
            Hook {
                name: "use2".into(),
                position: [2.5, 0.5, 1.0],
            },
        ],
        ..NavMesh::default()
    };
    let stone = surface(4, true, 4);
    for x in 0..3u32 {
        mesh.push_polygon(&[x, x + 1, x + 5], stone);
        mesh.push_polygon(&[x, x + 5, x + 4], stone);
    }
    // Polygon 4 = [2, 3, 7]: edge 1 runs 3 → 7, the right end. Polygon 2 = [1, 2, 6]: edge 0
    // runs 1 → 2, the bottom middle.
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 4,
            edge: 1,
        },
        EdgeTag { transition: 9 },
    );
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 2,
            edge: 0,
        },
        EdgeTag { transition: 0 },
    );
    mesh
}

/// Our `.gltf` for `mesh` as a JSON document with the buffer embedded.
fn document(mesh: &NavMesh) -> Value {
    let (output, diag) = write(mesh, "room.gltf");
    assert!(diag.items.is_empty(), "{diag:?}");
    let mut doc: Value = serde_json::from_slice(&output.main).unwrap();
    doc["buffers"][0]["uri"] = json!(format!(
        "data:application/octet-stream;base64,{}",
        base64(&output.sidecars[0].bytes)
    ));
    doc
}

fn read_doc(doc: &Value) -> (NavMesh, walkmesh_core::Diagnostics) {
    read_bytes(&serde_json::to_vec(doc).unwrap()).unwrap()
}

/// What Blender's exporter keeps by default: no scene or primitive extras.
fn drop_extras(doc: &mut Value) {
    doc["scenes"][0].as_object_mut().unwrap().remove("extras");
    for primitive in doc["meshes"][0]["primitives"].as_array_mut().unwrap() {
        primitive.as_object_mut().unwrap().remove("extras");
    }
}

#[test]
fn hooks_and_transitions_are_written_as_nodes_and_texture_coordinates() {
    let doc = document(&tagged_strip());
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[1]["name"], "hook:use1");
    // glTF (x, z, −y) of IR (2.5, 0.5, 1).
    assert_eq!(nodes[2]["translation"], json!([2.5, 1.0, -0.5]));
    assert_eq!(doc["scenes"][0]["nodes"], json!([0, 1, 2]));
    let primitive = &doc["meshes"][0]["primitives"][0];
    assert!(primitive["attributes"]["TEXCOORD_0"].is_number());
    // Our own file reads back exactly, with authored vertex identity.
    let (back, diag) = read_doc(&doc);
    assert!(diag.items.is_empty(), "{diag:?}");
    assert_same(&back, &tagged_strip());
    assert_eq!(back.vertex_identity(), VertexIdentity::Authored);
    // A mesh without tags or hooks gets neither (other files stay as they were).
    let plain = document(&grid_mesh(2));
    assert_eq!(plain["nodes"].as_array().unwrap().len(), 1);
    assert!(
        plain["meshes"][0]["primitives"][0]["attributes"]
            .get("TEXCOORD_0")
            .is_none()
    );
}

#[test]
fn an_edited_file_keeps_transitions_and_hooks_without_extras() {
    let mut doc = document(&tagged_strip());
    drop_extras(&mut doc);
    // The user moved hook use2 in Blender.
    doc["nodes"][2]["translation"] = json!([2.0, 1.0, -0.5]);
    let (back, diag) = read_doc(&doc);
    assert_eq!(back.vertex_identity(), VertexIdentity::Incidental);
    assert_eq!(back.edge_tags, tagged_strip().edge_tags, "{diag:?}");
    assert!(
        codes(&diag)
            .iter()
            .any(|c| c == "gltf.transitions_from_texcoords")
    );
    assert_eq!(
        back.hooks,
        vec![
            Hook {
                name: "use1".into(),
                position: [0.5, 0.5, 0.0]
            },
            Hook {
                name: "use2".into(),
                position: [2.0, 0.5, 1.0]
            }
        ]
    );
}

#[test]
fn split_primitives_are_welded_and_keep_their_transitions() {
    // Blender splits the mesh into one primitive per material with its own vertices. Here:
    // the strip's two halves as two primitives with separate POSITION accessors, the
    // TEXCOORD_0 values copied with their vertices.
    let mesh = tagged_strip();
    let encoded = walkmesh_gltf::transitions::encode(&mesh);
    let mut b = Builder::default();
    let mut primitives = Vec::new();
    for polygons in [&[0usize, 1, 2][..], &[3, 4, 5][..]] {
        let used: Vec<u32> = {
            let mut v: Vec<u32> = polygons
                .iter()
                .flat_map(|&p| mesh.polygons.get(p).to_vec())
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let points: Vec<[f32; 3]> = used
            .iter()
            .map(|&v| {
                let p = mesh.vertices[v as usize];
                [p[0], p[2], -p[1]]
            })
            .collect();
        let positions = b.positions(&points);
        let texcoords: Vec<u8> = used
            .iter()
            .flat_map(|&v| encoded.texcoords[v as usize])
            .flat_map(f32::to_le_bytes)
            .collect();
        let view = b.raw_view(&texcoords);
        let uv = b.accessors.len();
        b.accessors.push(
            json!({"bufferView": view, "componentType": 5126, "count": used.len(), "type": "VEC2"}),
        );
        let local: Vec<u32> = polygons
            .iter()
            .flat_map(|&p| mesh.polygons.get(p).to_vec())
            .map(|v| used.iter().position(|&u| u == v).unwrap() as u32)
            .collect();
        let indices = b.indices(&local);
        primitives.push(
            json!({"attributes": {"POSITION": positions, "TEXCOORD_0": uv},
            "indices": indices, "material": 0}),
        );
    }
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "materials": [{"name": "Stone"}],
        "meshes": [{"primitives": primitives}]
    }));
    let (back, _) = read_doc(&doc);
    assert_eq!(back.vertex_identity(), VertexIdentity::Incidental);
    // Unwelded, only triangles within one primitive link: square 0 (polygons 0, 1),
    // polygon 2, polygon 3, square 2 (polygons 4, 5).
    assert_eq!(summarize(&back, "gltf").components, 4);
    let mut diag = walkmesh_core::Diagnostics::new();
    let welded = as_modelled(&back, &mut diag);
    assert_eq!(welded.vertices.len(), 8);
    let summary = summarize(&welded, "gltf");
    assert_eq!((summary.components, summary.boundary_loops), (1, 1));
    // Polygons keep their order here, so the tags land on the same (polygon, edge).
    assert_eq!(welded.edge_tags, mesh.edge_tags);
}

#[test]
fn texture_maps_are_not_read_as_transitions() {
    let mut b = Builder::default();
    let positions = b.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]]);
    let uv: Vec<u8> = [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let view = b.raw_view(&uv);
    b.accessors
        .push(json!({"bufferView": view, "componentType": 5126, "count": 3, "type": "VEC2"}));
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "materials": [{"name": "Stone"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions, "TEXCOORD_0": 1},
            "material": 0}]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    assert!(mesh.edge_tags.is_empty());
    assert!(diag.items.is_empty(), "{diag:?}");
}

#[test]
fn kotorblender_names_walls_without_material_and_axes() {
    let mut b = Builder::default();
    // A floor triangle of area 8 and a wall triangle of area 2 standing on its edge, Y-up.
    let floor = b.positions(&[[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 0.0, -4.0]]);
    let wall = b.positions(&[[0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [2.0, 0.0, 0.0]]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "materials": [{"name": "wok_Grass.001"}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": floor}, "material": 0},
            {"attributes": {"POSITION": wall}}
        ]}]
    }));
    let (mesh, diag) = read_doc(&doc);
    let got: Vec<(u16, bool)> = mesh
        .surfaces
        .iter()
        .map(|s| (s.material.0, s.walkable))
        .collect();
    assert_eq!(got, [(3, true), (7, false)]);
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "gltf.no_material")
        .unwrap();
    assert!(
        warning
            .message
            .contains("1 face(s) steeper than 60°, 2.00 square units, got 'NonWalk'"),
        "{}",
        warning.message
    );
    // Read Z-up, the floor stands upright: the hint names --up y.
    let options = ReadOptions {
        up: UpAxis::Z,
        ..ReadOptions::default()
    };
    let (_, diag) = read_with(&serde_json::to_vec(&doc).unwrap(), None, &options).unwrap();
    let hint = diag
        .items
        .iter()
        .find(|d| d.code == "gltf.walkable_mostly_vertical")
        .unwrap();
    assert!(hint.message.contains("--up y"), "{}", hint.message);
}

#[test]
fn quarter_turns_place_vertices_exactly() {
    // A triangle under a node turned a quarter turn about +Y (f32 quaternion, not exact)
    // and moved: glTF (1, 0, 0) → (0, 0, −1) → + (4, 0, 6) = (4, 0, 5); IR (4, −5, 0).
    let mut b = Builder::default();
    let positions = b.positions(&[[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 0.0, 0.0]]);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "rotation": [0.0, h, 0.0, h], "translation": [4.0, 0.0, 6.0]}],
        "materials": [{"name": "Stone"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}, "material": 0}]}]
    }));
    let (mesh, _) = read_doc(&doc);
    assert_eq!(mesh.vertices[0], [4.0, -5.0, 0.0]);
    assert_eq!(mesh.vertices[1], [3.0, -6.0, 0.0]);
}
