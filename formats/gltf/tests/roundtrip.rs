//! IR → glTF → IR keeps every authored field, bit for bit, in both container forms.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::Value;
use walkmesh_core::{Diagnostics, MeshKind, NavMesh, ReadOptions, WriteOptions, Writer};
use walkmesh_gltf::GltfFormat;

fn json_of_glb(bytes: &[u8]) -> Value {
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&bytes[20..20 + length]).unwrap()
}

#[test]
fn glb_round_trip_keeps_everything() {
    let mesh = rich_mesh();
    let (output, diag) = write(&mesh, "rich.glb");
    // Only the note that two tags (−1, and one on a non-walkable face) cannot also travel
    // in TEXCOORD_0; extras keep them.
    assert_eq!(
        codes(&diag),
        ["gltf.transitions_not_in_texcoords"],
        "{diag:?}"
    );
    assert!(output.sidecars.is_empty());
    assert_eq!(&output.main[..4], b"glTF");
    std::fs::write(peer_dir().join("rich.glb"), &output.main).unwrap();
    let (back, diag) = read_bytes(&output.main).unwrap();
    assert!(diag.items.is_empty(), "{diag:?}");
    assert_same(&mesh, &back);
}

#[test]
fn gltf_with_bin_sidecar_round_trips_from_disk() {
    let mesh = rich_mesh();
    let (output, _) = write(&mesh, "rich room.gltf");
    assert_eq!(output.sidecars.len(), 1);
    assert_eq!(output.sidecars[0].file_name, "rich room.bin");
    let doc: Value = serde_json::from_slice(&output.main).unwrap();
    assert_eq!(doc["buffers"][0]["uri"], "rich%20room.bin");
    let dir = peer_dir();
    let main = dir.join("rich room.gltf");
    std::fs::write(&main, &output.main).unwrap();
    std::fs::write(dir.join("rich room.bin"), &output.sidecars[0].bytes).unwrap();
    let bytes = std::fs::read(&main).unwrap();
    let (back, diag) = read_with(&bytes, Some(&main), &ReadOptions::default()).unwrap();
    assert!(diag.items.is_empty(), "{diag:?}");
    assert_same(&mesh, &back);
}

#[test]
fn writer_output_is_deterministic_and_axis_swapped() {
    let mesh = rich_mesh();
    let (a, _) = write(&mesh, "x.glb");
    let (b, _) = write(&mesh, "x.glb");
    assert_eq!(a, b);
    let (c, _) = write(&mesh, "x.gltf");
    let (d, _) = write(&mesh, "x.gltf");
    assert_eq!(c, d);
    // glTF (x, y, z) = IR (x, z, −y): vertex 7 is IR (123.456, −7.25, 3.3333333).
    let bin = &c.sidecars[0].bytes;
    let read = |i: usize| f32::from_le_bytes(bin[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!(read(21), 123.456);
    assert_eq!(read(22), 3.333_333_3);
    assert_eq!(read(23), 7.25);
    let doc: Value = serde_json::from_slice(&c.main).unwrap();
    assert_eq!(doc["accessors"][0]["max"][0], 123.45600128173828);
}

#[test]
fn one_primitive_per_surface_with_named_coloured_materials() {
    let mesh = rich_mesh();
    let (output, _) = write(&mesh, "rich.glb");
    let doc = json_of_glb(&output.main);
    let primitives = doc["meshes"][0]["primitives"].as_array().unwrap();
    // Surfaces: Grass, Stone (odd), NonWalk, surface_40.
    assert_eq!(primitives.len(), 4);
    let names: Vec<&str> = doc["materials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Grass", "Stone", "NonWalk", "surface_40"]);
    let colours: std::collections::BTreeSet<String> = doc["materials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pbrMetallicRoughness"]["baseColorFactor"].to_string())
        .collect();
    assert_eq!(colours.len(), 4);
    // Every primitive shares the single POSITION accessor.
    assert!(primitives.iter().all(|p| p["attributes"]["POSITION"] == 0));
    // The Stone primitive records its engine code and walkability, the Grass one nothing.
    let stone = primitives
        .iter()
        .find(|p| doc["materials"][p["material"].as_u64().unwrap() as usize]["name"] == "Stone")
        .unwrap();
    assert_eq!(stone["extras"]["walkmesh"]["code"], 0x1234);
    assert_eq!(stone["extras"]["walkmesh"]["walkable"], false);
    assert_eq!(
        stone["extras"]["walkmesh"]["sizes"],
        serde_json::json!([[4, 1]])
    );
    let grass = &primitives[0];
    assert_eq!(
        grass["extras"]["walkmesh"],
        serde_json::json!({"faces": [[0, 1], [2, 1], [4, 1]]})
    );
    let meta = &doc["scenes"][0]["extras"]["walkmesh"];
    assert_eq!(meta["kind"], "placeable");
    assert_eq!(
        meta["edge_tags"],
        serde_json::json!([[2, 1, 4], [3, 3, 0], [5, 4, -1]])
    );
    assert_eq!(meta["polygons"], 7);
}

#[test]
fn large_mesh_uses_32_bit_indices_and_round_trips() {
    let mesh = grid_mesh(260); // 68 121 vertices > 65 535
    let (output, _) = write(&mesh, "grid.glb");
    let doc = json_of_glb(&output.main);
    assert_eq!(doc["accessors"][1]["componentType"], 5125);
    std::fs::write(peer_dir().join("grid_u32.glb"), &output.main).unwrap();
    let (back, _) = read_bytes(&output.main).unwrap();
    assert_same(&mesh, &back);

    let small = grid_mesh(4);
    let (output, _) = write(&small, "small.glb");
    assert_eq!(
        json_of_glb(&output.main)["accessors"][1]["componentType"],
        5123
    );
    std::fs::write(peer_dir().join("grid_u16.glb"), &output.main).unwrap();
    assert_same(&small, &read_bytes(&output.main).unwrap().0);
}

#[test]
fn kind_option_and_empty_mesh() {
    let mesh = rich_mesh();
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        kind: Some(MeshKind::Door),
        file_name: Some("door.glb".into()),
        ..WriteOptions::default()
    };
    let output = GltfFormat.write(&mesh, &options, &mut diag).unwrap();
    assert_eq!(read_bytes(&output.main).unwrap().0.kind, MeshKind::Door);

    let empty = NavMesh {
        hooks: mesh.hooks.clone(),
        ..NavMesh::default()
    };
    let (output, diag) = write(&empty, "empty.glb");
    assert!(diag.items.is_empty());
    std::fs::write(peer_dir().join("empty.glb"), &output.main).unwrap();
    let (back, _) = read_bytes(&output.main).unwrap();
    assert_same(&empty, &back);

    let lonely = NavMesh {
        vertices: vec![[1.0, 2.0, 3.0]],
        ..NavMesh::default()
    };
    let (_, diag) = write(&lonely, "lonely.glb");
    assert_eq!(codes(&diag), ["gltf.vertices_without_polygons"]);
}

#[test]
fn non_finite_vertices_are_refused() {
    let mut mesh = grid_mesh(1);
    mesh.vertices[2][1] = f32::NAN;
    let mut diag = Diagnostics::new();
    let error = GltfFormat
        .write(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap_err();
    assert!(error.to_string().contains("vertices[2]"), "{error}");
}

#[test]
fn custom_profile_decides_what_is_recorded() {
    // A profile in which Grass is not walkable: the writer must record walkable=true for the
    // walkable Grass faces so that reading with the same profile restores them.
    let profile = walkmesh_core::MaterialProfile::parse(
        r#"(engine: "test", default_material: "Stone", entries: [
            (material: "Stone", code: 4, walkable: true),
            (material: "Grass", code: 3, walkable: false),
            (material: "NonWalk", code: 7, walkable: false)])"#,
    )
    .unwrap();
    let profile = std::sync::Arc::new(profile);
    let mesh = grid_mesh(2);
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        materials: Some(profile.clone()),
        ..WriteOptions::default()
    };
    let output = GltfFormat.write(&mesh, &options, &mut diag).unwrap();
    let doc = json_of_glb(&output.main);
    assert_eq!(
        doc["meshes"][0]["primitives"][0]["extras"]["walkmesh"]["walkable"],
        true
    );
    let read_options = ReadOptions {
        materials: Some(profile),
        ..ReadOptions::default()
    };
    let (back, _) = read_with(&output.main, None, &read_options).unwrap();
    assert_same(&mesh, &back);
}

/// Random meshes with random finite float bit patterns (including −0.0 and subnormals),
/// polygons of 3–7 corners, random surfaces and tags: IR → glb/gltf → IR is exact.
#[test]
fn random_meshes_round_trip_bit_exact() {
    use walkmesh_core::{Attribute, EdgeRef, EdgeTag, Extra, Hook};
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    let finite = |rng: &mut XorShift| loop {
        let value = f32::from_bits(rng.next() as u32);
        if value.is_finite() {
            return value;
        }
    };
    for round in 0..150 {
        let vertex_count = 3 + rng.below(200);
        let mut mesh = NavMesh {
            vertices: (0..vertex_count)
                .map(|_| [finite(&mut rng), finite(&mut rng), finite(&mut rng)])
                .collect(),
            origin: [finite(&mut rng), finite(&mut rng), finite(&mut rng)],
            ..NavMesh::default()
        };
        let polygon_count = 1 + rng.below(300);
        for _ in 0..polygon_count {
            let corners: Vec<u32> = (0..3 + rng.below(5))
                .map(|_| rng.below(vertex_count) as u32)
                .collect();
            let material = rng.below(45) as u16;
            mesh.push_polygon(
                &corners,
                surface(material, rng.below(2) == 0, rng.next() as u32 % 5000),
            );
        }
        for _ in 0..rng.below(20) {
            let polygon = rng.below(polygon_count);
            let edge = rng.below(mesh.polygons.get(polygon).len());
            mesh.edge_tags.insert(
                EdgeRef {
                    polygon: polygon as u32,
                    edge: edge as u32,
                },
                EdgeTag {
                    transition: rng.next() as i32,
                },
            );
        }
        mesh.hooks.push(Hook {
            name: format!("hook{round}"),
            position: [finite(&mut rng), finite(&mut rng), finite(&mut rng)],
        });
        mesh.face_attributes.insert(
            "x:f".into(),
            Attribute::Float(
                (0..polygon_count)
                    .map(|_| f32::from_bits(rng.next() as u32))
                    .collect(),
            ),
        );
        mesh.face_attributes.insert(
            "x:i".into(),
            Attribute::Int((0..polygon_count).map(|_| rng.next() as i64).collect()),
        );
        mesh.extras
            .insert("x:float".into(), Extra::Float(f64::from_bits(rng.next())));
        mesh.check().unwrap();
        let form = if round % 2 == 0 { "r.glb" } else { "r.gltf" };
        let (output, _) = write(&mesh, form);
        let bytes = if round % 2 == 0 {
            output.main
        } else {
            // Embed the sidecar so the document reads without a path.
            let mut doc: Value = serde_json::from_slice(&output.main).unwrap();
            doc["buffers"][0]["uri"] = Value::from(format!(
                "data:application/octet-stream;base64,{}",
                base64(&output.sidecars[0].bytes)
            ));
            serde_json::to_vec(&doc).unwrap()
        };
        let (back, _) = read_bytes(&bytes).unwrap();
        // NaN bit patterns in the extras make PartialEq useless there; compare bits.
        match (&mesh.extras["x:float"], &back.extras["x:float"]) {
            (Extra::Float(a), Extra::Float(b)) => assert_eq!(a.to_bits(), b.to_bits()),
            other => panic!("{other:?}"),
        }
        let strip = |m: &NavMesh| {
            let mut m = m.clone();
            m.extras.clear();
            m
        };
        assert_same(&strip(&mesh), &strip(&back));
        if round < 4 {
            std::fs::write(
                peer_dir().join(format!("random_{round}.glb")),
                &write(&mesh, "x.glb").0.main,
            )
            .unwrap();
        }
    }
}

/// A concave polygon is shown with ear-clipped triangles (a fan from its corner 0 would fold
/// over) and its corners are listed in the primitive's extras, so it still reads back as one
/// polygon with the same corner order.
#[test]
fn concave_polygons_display_correctly_and_round_trip() {
    let mut mesh = NavMesh {
        // An L shape whose corner 0 sits at the reflex corner's neighbour: the fan from it
        // would contain a clockwise triangle.
        vertices: vec![
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2, 3, 4, 5], surface(4, true, 4));
    let (output, _) = write(&mesh, "l.glb");
    std::fs::write(peer_dir().join("concave.glb"), &output.main).unwrap();
    let doc = json_of_glb(&output.main);
    let primitive = &doc["meshes"][0]["primitives"][0];
    assert_eq!(
        primitive["extras"]["walkmesh"]["corners"],
        serde_json::json!([[0, [0, 1, 2, 3, 4, 5]]])
    );
    // The index buffer: 4 triangles, each counter-clockwise seen from above, covering area 3.
    let view = &doc["bufferViews"][1];
    let offset = view["byteOffset"].as_u64().unwrap() as usize;
    let length = 20 + u32::from_le_bytes(output.main[12..16].try_into().unwrap()) as usize + 8;
    let bin = &output.main[length..];
    let indices: Vec<usize> = (0..12)
        .map(|i| u16::from_le_bytes([bin[offset + 2 * i], bin[offset + 2 * i + 1]]) as usize)
        .collect();
    let mut total = 0.0;
    for t in indices.chunks(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.vertices[i]);
        let signed = 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
        assert!(signed > 0.0, "{t:?} is clockwise or degenerate");
        total += signed;
    }
    assert_eq!(total, 3.0);
    let (back, _) = read_bytes(&output.main).unwrap();
    assert_same(&mesh, &back);
}

/// Reading our file and writing it again gives the same bytes (glTF → glTF is stable).
#[test]
fn rewriting_a_read_file_is_byte_identical() {
    for name in ["again.glb", "again.gltf"] {
        let (first, _) = write(&rich_mesh(), name);
        let bytes = if name.ends_with(".glb") {
            first.main.clone()
        } else {
            let mut doc: Value = serde_json::from_slice(&first.main).unwrap();
            doc["buffers"][0]["uri"] = Value::from(format!(
                "data:application/octet-stream;base64,{}",
                base64(&first.sidecars[0].bytes)
            ));
            serde_json::to_vec(&doc).unwrap()
        };
        let (mesh, _) = read_bytes(&bytes).unwrap();
        let (second, _) = write(&mesh, name);
        assert_eq!(first, second, "{name}");
    }
}
