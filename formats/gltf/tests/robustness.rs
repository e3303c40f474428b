//! Broken input: truncation, byte flips, bad accessors, out-of-range indices, absurd counts,
//! node cycles and instancing bombs give errors naming the problem, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::{Value, json};
use walkmesh_core::ReadOptions;

fn error_of(doc: &Value) -> String {
    read_bytes(&serde_json::to_vec(doc).unwrap())
        .map(|_| "read succeeded".to_string())
        .unwrap_or_else(|e| e.to_string())
}

fn triangle_doc() -> (Builder, Value) {
    let mut b = Builder::default();
    let positions = b.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]]);
    let indices = b.indices(&[0, 1, 2]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": positions}, "indices": indices}]}]
    }));
    (b, doc)
}

#[test]
fn the_sample_itself_reads() {
    let (_, doc) = triangle_doc();
    assert_eq!(error_of(&doc), "read succeeded");
}

#[test]
fn every_truncation_of_a_glb_is_an_error() {
    let (output, _) = write(&rich_mesh(), "t.glb");
    let bytes = output.main;
    for length in 0..bytes.len() {
        let result = read_bytes(&bytes[..length]);
        assert!(
            result.is_err(),
            "prefix of {length} bytes read without error"
        );
    }
    let error = read_bytes(&bytes[..bytes.len() - 1])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("header.length") && error.contains("truncated"),
        "{error}"
    );
    let error = read_bytes(&bytes[..8]).unwrap_err().to_string();
    assert!(error.contains("12-byte header"), "{error}");
}

#[test]
fn every_truncation_of_gltf_json_is_an_error() {
    let (output, _) = write(&rich_mesh(), "t.gltf");
    // Embed the buffer so the document is self-contained.
    let mut doc: Value = serde_json::from_slice(&output.main).unwrap();
    doc["buffers"][0]["uri"] = json!(format!(
        "data:application/octet-stream;base64,{}",
        base64(&output.sidecars[0].bytes)
    ));
    let bytes = serde_json::to_vec(&doc).unwrap();
    assert!(read_bytes(&bytes).is_ok());
    for length in (0..bytes.len()).step_by(7) {
        assert!(read_bytes(&bytes[..length]).is_err(), "prefix {length}");
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let (output, _) = write(&rich_mesh(), "f.glb");
    let original = output.main;
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut errors = 0;
    for _ in 0..3000 {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            bytes[at] ^= 1 << rng.below(8);
        }
        if read_bytes(&bytes).is_err() {
            errors += 1;
        }
    }
    // Flips in float data or JSON whitespace read fine; flips in structure must not panic.
    assert!(errors > 0);
}

#[test]
fn random_json_field_values_never_panic() {
    // Replace numbers in the JSON with hostile values, one at a time, in a hand-made document
    // and in one of ours (whose extras carry walkmesh metadata).
    let (_, doc) = triangle_doc();
    let (output, _) = write(&rich_mesh(), "m.gltf");
    let mut ours: Value = serde_json::from_slice(&output.main).unwrap();
    ours["buffers"][0]["uri"] = json!(format!(
        "data:application/octet-stream;base64,{}",
        base64(&output.sidecars[0].bytes)
    ));
    let mut tried = 0;
    for doc in [doc, ours] {
        tried += mutate_numbers(&serde_json::to_string(&doc).unwrap());
    }
    assert!(tried > 1000, "{tried}");
}

fn mutate_numbers(text: &str) -> usize {
    let hostile = [
        "0",
        "-1",
        "4294967295",
        "18446744073709551615",
        "1e308",
        "3.5",
        "null",
        "\"x\"",
        "[]",
    ];
    let mut tried = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let end = (i..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            for value in hostile {
                let mutated = format!("{}{}{}", &text[..i], value, &text[end..]);
                let _ = read_bytes(mutated.as_bytes());
                tried += 1;
            }
            i = end;
        } else {
            i += 1;
        }
    }
    tried
}

#[test]
fn accessor_that_overruns_its_view() {
    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["count"] = json!(4);
    let error = error_of(&doc);
    assert!(
        error.contains("accessors[0]") && error.contains("do not fit"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["byteOffset"] = json!(4);
    let error = error_of(&doc);
    assert!(
        error.contains("accessors[0]") && error.contains("do not fit"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["byteOffset"] = json!(2);
    assert!(error_of(&doc).contains("multiple of the component size"));

    let (_, mut doc) = triangle_doc();
    doc["bufferViews"][0]["byteStride"] = json!(8);
    let error = error_of(&doc);
    assert!(
        error.contains("byteStride") && error.contains("smaller than the element size 12"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["bufferViews"][1]["byteLength"] = json!(1000);
    let error = error_of(&doc);
    assert!(
        error.contains("bufferViews[1]") && error.contains("which has"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["buffers"][0]["byteLength"] = json!(10_000);
    assert!(error_of(&doc).contains("declares 10000 bytes"));

    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["type"] = json!("VEC2");
    assert!(error_of(&doc).contains("expected 3 component(s)"));

    let (_, mut doc) = triangle_doc();
    doc["accessors"][1]["componentType"] = json!(5126);
    assert!(error_of(&doc).contains("must be unsigned"));

    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["componentType"] = json!(1234);
    assert!(error_of(&doc).contains("componentType"));

    let (_, mut doc) = triangle_doc();
    doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(7);
    assert!(error_of(&doc).contains("accessor 7 does not exist"));

    // POSITION without min/max (required by the spec) is still readable.
    let (_, mut doc) = triangle_doc();
    doc["accessors"][0].as_object_mut().unwrap().remove("min");
    assert_eq!(error_of(&doc), "read succeeded");
}

#[test]
fn out_of_range_indices() {
    let (mut b, _) = triangle_doc();
    let bad = b.indices(&[0, 1, 3]);
    let doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": bad}]}]
    }));
    let error = error_of(&doc);
    assert!(
        error.contains("index 2 of meshes[0].primitives[0] is 3") && error.contains("3 vertices"),
        "{error}"
    );
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    // No buffer view: the elements would be zeros; the read limit refuses the count.
    let (_, mut doc) = triangle_doc();
    doc["accessors"][0] = json!({"componentType": 5126, "count": 1u64 << 60, "type": "VEC3"});
    let error = error_of(&doc);
    assert!(error.contains("read limit"), "{error}");

    // With a buffer view: the size check refuses it (count × stride overflows).
    let (_, mut doc) = triangle_doc();
    doc["accessors"][0]["count"] = json!(u64::MAX / 2);
    let error = error_of(&doc);
    assert!(
        error.contains("do not fit") || error.contains("read limit"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["accessors"][1]["count"] = json!(1u64 << 40);
    let error = error_of(&doc);
    assert!(
        error.contains("read limit") || error.contains("do not fit"),
        "{error}"
    );

    // Sparse count larger than the accessor.
    let (mut b, _) = triangle_doc();
    let view = b.raw_view(&[0; 16]);
    let mut doc = b.document(json!({
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]
    }));
    doc["accessors"][0]["sparse"] = json!({"count": 1000,
        "indices": {"bufferView": view, "componentType": 5125},
        "values": {"bufferView": view}});
    assert!(error_of(&doc).contains("1000 substitutions"));
}

#[test]
fn node_cycles_and_shared_children_are_errors() {
    let (_, mut doc) = triangle_doc();
    doc["nodes"] = json!([{"mesh": 0, "children": [1]}, {"children": [0]}]);
    let error = error_of(&doc);
    assert!(
        error.contains("nodes[0]") && error.contains("reached twice"),
        "{error}"
    );

    let (_, mut doc) = triangle_doc();
    doc["scenes"] = json!([{"nodes": [0, 1]}]);
    doc["nodes"] = json!([{"children": [2]}, {"children": [2]}, {"mesh": 0}]);
    assert!(error_of(&doc).contains("reached twice"));

    // A deep chain is walked without recursion.
    let (_, mut doc) = triangle_doc();
    let depth = 5000;
    let nodes: Vec<Value> = (0..depth)
        .map(|i| {
            if i + 1 < depth {
                json!({"children": [i + 1], "translation": [0.0, 0.001, 0.0]})
            } else {
                json!({"mesh": 0})
            }
        })
        .collect();
    doc["nodes"] = json!(nodes);
    let (mesh, _) = read_bytes(&serde_json::to_vec(&doc).unwrap()).unwrap();
    assert!(
        (mesh.vertices[0][2] - 4.999).abs() < 1e-3,
        "{:?}",
        mesh.vertices[0]
    );
}

#[test]
fn instancing_bomb_hits_the_read_limit() {
    let (_, mut doc) = triangle_doc();
    let nodes: Vec<Value> = (0..2000).map(|_| json!({"mesh": 0})).collect();
    doc["nodes"] = json!(nodes);
    doc["scenes"] = json!([{"nodes": (0..2000).collect::<Vec<_>>()}]);
    let bytes = serde_json::to_vec(&doc).unwrap();
    assert_eq!(read_bytes(&bytes).unwrap().0.polygons.len(), 2000);
    let options = ReadOptions {
        max_decompressed: 10_000,
        ..ReadOptions::default()
    };
    let error = read_with(&bytes, None, &options).unwrap_err().to_string();
    assert!(error.contains("more than 10000 bytes"), "{error}");
}

#[test]
fn non_gltf_and_bad_containers() {
    assert!(read_bytes(b"").unwrap_err().to_string().contains("JSON"));
    assert!(read_bytes(b"{}").unwrap_err().to_string().contains("asset"));
    assert!(
        read_bytes(br#"{"asset": {"version": "1.0"}}"#)
            .unwrap_err()
            .to_string()
            .contains("version 1.0")
    );
    let mut bad_version = b"glTF".to_vec();
    bad_version.extend_from_slice(&1u32.to_le_bytes());
    bad_version.extend_from_slice(&20u32.to_le_bytes());
    bad_version.extend_from_slice(&[0; 8]);
    assert!(
        read_bytes(&bad_version)
            .unwrap_err()
            .to_string()
            .contains("version is 1")
    );
    // First chunk not JSON.
    let mut bytes = glb(br#"{"asset":{"version":"2.0"}}"#, None);
    bytes[16..20].copy_from_slice(b"BIN\0");
    let error = read_bytes(&bytes).unwrap_err().to_string();
    assert!(error.contains("chunks[0].chunkType"), "{error}");
    // Chunk longer than the file.
    let mut bytes = glb(br#"{"asset":{"version":"2.0"}}"#, None);
    bytes[12..16].copy_from_slice(&1000u32.to_le_bytes());
    assert!(
        read_bytes(&bytes)
            .unwrap_err()
            .to_string()
            .contains("chunks[0].chunkLength")
    );
    // JSON syntax error inside a GLB is located by byte offset.
    let bytes = glb(br#"{"asset":{"version":"2.0"},}"#, None);
    let error = read_bytes(&bytes).unwrap_err();
    assert_eq!(error.position, walkmesh_core::Position::Offset(20 + 27));
    // .glb whose buffer 0 has no uri but no BIN chunk.
    let (_, mut doc) = triangle_doc();
    doc["buffers"][0] = json!({"byteLength": 48});
    let bytes = glb(&serde_json::to_vec(&doc).unwrap(), None);
    assert!(
        read_bytes(&bytes)
            .unwrap_err()
            .to_string()
            .contains("has none")
    );
    // Bad base64.
    let (_, mut doc) = triangle_doc();
    doc["buffers"][0]["uri"] = json!("data:application/octet-stream;base64,AAA*");
    assert!(error_of(&doc).contains("not valid base64"));
    // Deeply nested JSON is refused by the parser's depth limit, not the stack.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read_bytes(deep.as_bytes()).is_err());
}

/// Interleaved elements are checked against their view through core's cursor: the last one
/// needs only its own bytes, one byte more is refused naming the accessor, with the count,
/// the stride and the view.
#[test]
fn strided_accessors_are_checked_against_their_view() {
    let (_, doc) = triangle_doc();
    let accessor = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    let view = doc["accessors"][accessor]["bufferView"].as_u64().unwrap() as usize;
    let length = doc["bufferViews"][view]["byteLength"].as_u64().unwrap();
    assert_eq!(length, 36);
    // Two elements 24 bytes apart: the second ends exactly at the view's end.
    let mut fits = doc.clone();
    fits["bufferViews"][view]["byteStride"] = json!(24);
    fits["accessors"][accessor]["count"] = json!(2);
    fits["accessors"][accessor]["min"] = json!([0.0, 0.0, -1.0]);
    fits["accessors"][accessor]["max"] = json!([0.0, 0.0, 0.0]);
    fits["meshes"][0]["primitives"][0]
        .as_object_mut()
        .unwrap()
        .remove("indices");
    let error = error_of(&fits);
    assert!(!error.contains("do not fit"), "{error}");
    let mut overruns = doc.clone();
    overruns["bufferViews"][view]["byteStride"] = json!(16);
    let error = error_of(&overruns);
    assert!(
        error.contains(&format!("accessors[{accessor}]"))
            && error.contains(&format!(
                "3 elements of 12 bytes with stride 16 from offset 0 do not fit in buffer view {view} of 36 bytes"
            )),
        "{error}"
    );
}
