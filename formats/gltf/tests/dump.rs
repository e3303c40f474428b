//! `walkmesh dump` for glTF: container fields at their offsets, the JSON tree, and where the
//! buffer views and accessors sit in the file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::format::Dumper;
use walkmesh_core::{Input, ReadOptions};
use walkmesh_gltf::GltfFormat;

fn child<'a>(node: &'a DumpNode, name: &str) -> &'a DumpNode {
    node.children
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no {name} in {}", node.name))
}

fn dump(bytes: &[u8]) -> Result<DumpNode, walkmesh_core::ReadError> {
    GltfFormat.dump(Input { bytes, path: None }, &ReadOptions::default())
}

#[test]
fn glb_dump_shows_offsets_and_metadata() {
    let (output, _) = write(&rich_mesh(), "d.glb");
    let bytes = &output.main;
    let root = dump(bytes).unwrap();
    let header = child(&root, "header");
    assert_eq!(child(header, "version").value, Some(DumpValue::UInt(2)));
    assert_eq!(
        child(header, "length").value,
        Some(DumpValue::UInt(bytes.len() as u64))
    );
    let chunks = child(&root, "chunks");
    let json_chunk = child(chunks, "chunks[0]");
    assert_eq!(json_chunk.offset, Some(12));
    assert_eq!(
        child(json_chunk, "chunkType").value,
        Some(DumpValue::Text("JSON".into()))
    );
    let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as u64;
    let bin_chunk = child(chunks, "chunks[1]");
    assert_eq!(bin_chunk.offset, Some(20 + json_length));
    assert_eq!(
        child(bin_chunk, "chunkType").value,
        Some(DumpValue::Text("BIN\0".into()))
    );
    let json = child(&root, "json");
    assert_eq!(json.offset, Some(20));
    let kind = child(
        child(
            child(child(child(json, "scenes"), "scenes[0]"), "extras"),
            "walkmesh",
        ),
        "kind",
    );
    assert_eq!(kind.value, Some(DumpValue::Text("placeable".into())));
    // Buffer view 0 (positions) starts the BIN data; accessor 0 is inside it.
    let bin = child(&root, "bin");
    assert_eq!(bin.offset, Some(28 + json_length));
    let positions = child(bin, "bufferViews[0]");
    assert_eq!(positions.offset, bin.offset);
    assert_eq!(positions.size, Some(9 * 12));
    assert_eq!(child(positions, "accessors[0]").offset, bin.offset);
    // The first vertex's x sits at that offset.
    let at = positions.offset.unwrap() as usize;
    assert_eq!(
        f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
        0.0
    );
    let at = at + 12;
    assert_eq!(
        f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
        1.0
    );
}

#[test]
fn gltf_json_dump_and_broken_inputs() {
    let (output, _) = write(&rich_mesh(), "d.gltf");
    let root = dump(&output.main).unwrap();
    assert!(root.children.iter().all(|c| c.name == "json"));
    let (output, _) = write(&rich_mesh(), "d.glb");
    for length in 0..output.main.len() {
        let _ = dump(&output.main[..length]);
    }
    assert!(dump(b"{").is_err());
}
