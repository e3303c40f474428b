//! `walkmesh dump` for glTF: the `.glb` container (header and chunks with their offsets), the
//! JSON document as a tree, and where each buffer view and accessor of a `.glb` BIN chunk sits
//! in the file.

use serde_json::Value;
use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Diagnostics, Input, ReadError, ReadOptions};

use crate::read::{Container, split_container};

/// JSON value → dump tree. serde_json refuses documents nested deeper than 128 levels, so the
/// recursion is bounded.
fn json_node(name: String, value: &Value) -> DumpNode {
    let leaf = |value: DumpValue| DumpNode {
        name: name.clone(),
        offset: None,
        size: None,
        value: Some(value),
        children: Vec::new(),
    };
    match value {
        Value::Null => leaf(DumpValue::Text("null".into())),
        Value::Bool(b) => leaf(DumpValue::Text(b.to_string())),
        Value::String(s) => leaf(DumpValue::Text(s.clone())),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => leaf(DumpValue::Int(i)),
            (_, Some(u), _) => leaf(DumpValue::UInt(u)),
            (_, _, Some(f)) => leaf(DumpValue::Float(f)),
            _ => leaf(DumpValue::Text(n.to_string())),
        },
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(Value::is_i64) {
                return leaf(DumpValue::Ints(
                    items.iter().filter_map(Value::as_i64).collect(),
                ));
            }
            if !items.is_empty() && items.iter().all(Value::is_number) {
                return leaf(DumpValue::Floats(
                    items
                        .iter()
                        .filter_map(Value::as_f64)
                        .map(|f| f as f32)
                        .collect(),
                ));
            }
            DumpNode::group(
                name.clone(),
                None,
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| json_node(format!("{name}[{i}]"), item))
                    .collect(),
            )
        }
        Value::Object(map) => DumpNode::group(
            name,
            None,
            map.iter()
                .map(|(key, item)| json_node(key.clone(), item))
                .collect(),
        ),
    }
}

fn u64_of(value: &Value, key: &str) -> u64 {
    value.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// Where buffer views and accessors of buffer 0 (the BIN chunk) lie in the file.
fn bin_layout(doc: &Value, bin_start: u64) -> DumpNode {
    let empty = Vec::new();
    let views = doc
        .get("bufferViews")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut children = Vec::new();
    for (i, view) in views.iter().enumerate() {
        if u64_of(view, "buffer") != 0 {
            continue;
        }
        let offset = bin_start.saturating_add(u64_of(view, "byteOffset"));
        let mut node = DumpNode::field(
            format!("bufferViews[{i}]"),
            offset,
            u64_of(view, "byteLength"),
            DumpValue::Text(
                view.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
        );
        let accessors = doc
            .get("accessors")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        for (a, accessor) in accessors.iter().enumerate() {
            if accessor.get("bufferView").and_then(Value::as_u64) != Some(i as u64) {
                continue;
            }
            node.children.push(DumpNode::field(
                format!("accessors[{a}]"),
                offset.saturating_add(u64_of(accessor, "byteOffset")),
                0,
                DumpValue::Text(format!(
                    "{} × {} (component type {})",
                    u64_of(accessor, "count"),
                    accessor.get("type").and_then(Value::as_str).unwrap_or("?"),
                    u64_of(accessor, "componentType"),
                )),
            ));
        }
        children.push(node);
    }
    DumpNode::group("bin", Some(bin_start), children)
}

/// The dump tree of `input`.
pub fn dump(input: Input<'_>, _options: &ReadOptions) -> Result<DumpNode, ReadError> {
    let mut diag = Diagnostics::new();
    let container: Container<'_> = split_container(input.bytes, &mut diag)?;
    let doc: Value = serde_json::from_slice(container.json).map_err(|e| {
        ReadError::at_offset(
            container.json_offset,
            "json",
            format!("not valid JSON: {e}"),
        )
    })?;
    let mut children = Vec::new();
    if container.glb {
        let bytes = input.bytes;
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        };
        children.push(DumpNode::group(
            "header",
            Some(0),
            vec![
                DumpNode::field("magic", 0, 4, DumpValue::Text("glTF".into())),
                DumpNode::field("version", 4, 4, DumpValue::UInt(u64::from(word(4)))),
                DumpNode::field("length", 8, 4, DumpValue::UInt(u64::from(word(8)))),
            ],
        ));
        let mut chunks = Vec::new();
        for (i, (offset, length, kind)) in container.chunks.iter().enumerate() {
            chunks.push(DumpNode::group(
                format!("chunks[{i}]"),
                Some(*offset),
                vec![
                    DumpNode::field("chunkLength", *offset, 4, DumpValue::UInt(*length)),
                    DumpNode::field(
                        "chunkType",
                        offset + 4,
                        4,
                        DumpValue::Text(String::from_utf8_lossy(&kind.to_le_bytes()).into_owned()),
                    ),
                ],
            ));
        }
        children.push(DumpNode::group("chunks", Some(12), chunks));
    }
    let mut json = json_node("json".into(), &doc);
    json.offset = Some(container.json_offset);
    json.size = Some(container.json.len() as u64);
    children.push(json);
    if let Some(start) = container.bin_offset {
        children.push(bin_layout(&doc, start));
    }
    Ok(DumpNode::group("gltf", Some(0), children))
}
