//! `walkmesh dump` for glTF: the `.glb` container (header and chunks with their offsets), the
//! JSON document as a tree, and where each buffer view and accessor of a `.glb` BIN chunk sits
//! in the file.

use serde_json::Value;
use walkmesh_core::dump::{DumpValue, Elem, Emitter, Entry, FieldSink, Label, Space};
use walkmesh_core::{Diagnostics, Input, ReadError, ReadOptions};

use crate::read::{Container, split_container};

/// A JSON value with no byte position: `name = value`, or a group of its members.
/// serde_json refuses documents nested deeper than 128 levels, so the recursion is bounded.
/// The top value gets `span` (the JSON's place in the file).
fn json_node(e: &mut Emitter<'_, '_>, label: Label<'_>, value: &Value, span: Option<(u64, u64)>) {
    let leaf = |e: &mut Emitter<'_, '_>, value: DumpValue| {
        e.entry(&Entry {
            offset: span.map(|(offset, _)| offset),
            size: span.map(|(_, size)| size),
            elem: Elem::Json,
            value: Some(&value),
            ..Entry::group(Some(label), None)
        });
    };
    match value {
        Value::Null => leaf(e, DumpValue::Text("null".into())),
        Value::Bool(b) => leaf(e, DumpValue::Text(b.to_string())),
        Value::String(s) => leaf(e, DumpValue::Text(s.clone())),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => leaf(e, DumpValue::Int(i)),
            (_, Some(u), _) => leaf(e, DumpValue::UInt(u)),
            (_, _, Some(f)) => leaf(e, DumpValue::Float(f)),
            _ => leaf(e, DumpValue::Text(n.to_string())),
        },
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(Value::is_i64) {
                return leaf(
                    e,
                    DumpValue::Ints(items.iter().filter_map(Value::as_i64).collect()),
                );
            }
            if !items.is_empty() && items.iter().all(Value::is_number) {
                return leaf(
                    e,
                    DumpValue::Floats(
                        items
                            .iter()
                            .filter_map(Value::as_f64)
                            .map(|f| f as f32)
                            .collect(),
                    ),
                );
            }
            // Items are `name[i]` after the array's whole name (`a[0][1]` in nested arrays).
            let name = label.to_string();
            let group = Entry {
                size: span.map(|(_, size)| size),
                ..Entry::group(Some(label), span.map(|(offset, _)| offset))
            };
            e.nest(&group, |e| {
                for (i, item) in items.iter().enumerate() {
                    json_node(e, Label::Indexed(&name, i as u64), item, None);
                }
            });
        }
        Value::Object(map) => {
            let group = Entry {
                size: span.map(|(_, size)| size),
                ..Entry::group(Some(label), span.map(|(offset, _)| offset))
            };
            e.nest(&group, |e| {
                for (key, item) in map {
                    json_node(e, Label::Name(key), item, None);
                }
            });
        }
    }
}

fn u64_of(value: &Value, key: &str) -> u64 {
    value.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// Where buffer views and accessors of buffer 0 (the BIN chunk) lie in the file.
fn bin_layout(e: &mut Emitter<'_, '_>, doc: &Value, bin_start: u64, bin_len: u64) {
    let empty = Vec::new();
    let views = doc
        .get("bufferViews")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let accessors = doc
        .get("accessors")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let span = Some((bin_start, bin_len));
    let label = Some(Label::Name("bin"));
    e.section("bin", label, Some(bin_start), span, Space::File, |e| {
        for (i, view) in views.iter().enumerate() {
            if u64_of(view, "buffer") != 0 {
                continue;
            }
            let offset = bin_start.saturating_add(u64_of(view, "byteOffset"));
            let size = u64_of(view, "byteLength");
            let name = view.get("name").and_then(Value::as_str).unwrap_or("");
            let value = DumpValue::Text(name.to_string());
            let group = Entry {
                size: Some(size),
                elem: Elem::Bytes,
                raw: e.raw(offset, size),
                value: Some(&value),
                ..Entry::group(Some(Label::Indexed("bufferViews", i as u64)), Some(offset))
            };
            e.nest(&group, |e| {
                for (a, accessor) in accessors.iter().enumerate() {
                    if accessor.get("bufferView").and_then(Value::as_u64) != Some(i as u64) {
                        continue;
                    }
                    let value = DumpValue::Text(format!(
                        "{} × {} (component type {})",
                        u64_of(accessor, "count"),
                        accessor.get("type").and_then(Value::as_str).unwrap_or("?"),
                        u64_of(accessor, "componentType"),
                    ));
                    e.entry(&Entry {
                        offset: Some(offset.saturating_add(u64_of(accessor, "byteOffset"))),
                        size: Some(0),
                        elem: Elem::Json,
                        value: Some(&value),
                        ..Entry::group(Some(Label::Indexed("accessors", a as u64)), None)
                    });
                }
            });
        }
    });
}

/// Reports the fields of `input`: the `.glb` header and chunks, the JSON document, where the
/// buffer views of the BIN chunk lie. Sections: `header`, `chunks`, `json`, `bin`, `unclaimed`.
pub fn dump_fields(
    input: Input<'_>,
    _options: &ReadOptions,
    sink: &mut dyn FieldSink,
) -> Result<(), ReadError> {
    let mut diag = Diagnostics::new();
    let container: Container<'_> = split_container(input.bytes, &mut diag)?;
    let doc: Value = serde_json::from_slice(container.json).map_err(|e| {
        ReadError::at_offset(
            container.json_offset,
            "json",
            format!("not valid JSON: {e}"),
        )
    })?;
    let bytes = input.bytes;
    let mut e = Emitter::new(sink, bytes);
    e.root("gltf", |e| {
        if container.glb {
            e.comment("glTF binary container (.glb), little-endian");
            let word = |at: usize| {
                bytes
                    .get(at..at + 4)
                    .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            };
            let span = Some((0, 12));
            e.section(
                "header",
                Some("header".into()),
                Some(0),
                span,
                Space::File,
                |e| {
                    e.chars("magic", 0, 4, "glTF");
                    e.uint("version", 4, 4, word(4));
                    e.uint("length", 8, 4, word(8));
                },
            );
            e.section(
                "chunks",
                Some("chunks".into()),
                Some(12),
                None,
                Space::File,
                |e| {
                    for (i, &(offset, length, kind)) in container.chunks.iter().enumerate() {
                        e.group(Label::Indexed("chunks", i as u64), Some(offset), |e| {
                            e.uint("chunkLength", offset, 4, length);
                            let kind_text =
                                String::from_utf8_lossy(&kind.to_le_bytes()).into_owned();
                            e.chars("chunkType", offset + 4, 4, kind_text);
                            let data = offset + 8;
                            let known = i == 0 || Some(data) == container.bin_offset;
                            if !known {
                                // A chunk type the reader ignores (glTF 2.0, 4.4.3).
                                e.opaque("data", data, length, None, false);
                            }
                        });
                    }
                },
            );
        } else {
            e.comment("glTF JSON (.gltf): members have no byte offsets of their own");
        }
        let span = (container.json_offset, container.json.len() as u64);
        e.section("json", None, None, Some(span), Space::File, |e| {
            json_node(e, Label::Name("json"), &doc, Some(span));
        });
        if let (Some(start), Some(bin)) = (container.bin_offset, container.bin) {
            bin_layout(e, &doc, start, bin.len() as u64);
        }
        if container.glb {
            let mut claimed = vec![(0, 12)];
            claimed.extend(
                container
                    .chunks
                    .iter()
                    .map(|&(offset, length, _)| (offset, 8 + length)),
            );
            e.unclaimed(&mut claimed, bytes.len() as u64);
        }
    });
    Ok(())
}
