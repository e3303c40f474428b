//! `walkmesh dump` for BWM: every stored field with its byte offset.

use walkmesh_core::ReadError;
use walkmesh_core::dump::{DumpNode, DumpValue};

use crate::layout::{RawBwm, Table, off};

fn uint(value: u32) -> DumpValue {
    DumpValue::UInt(u64::from(value))
}

fn int(value: i32) -> DumpValue {
    DumpValue::Int(i64::from(value))
}

fn floats(values: &[f32]) -> DumpValue {
    DumpValue::Floats(values.to_vec())
}

/// The dump tree of a BWM file: the header, then one group per table (in file order of the
/// header's fields) with one node per entry and one leaf per field.
pub fn dump_bwm(bytes: &[u8]) -> Result<DumpNode, ReadError> {
    let raw = RawBwm::parse(bytes)?;
    let h = &raw.header;
    let mut header = vec![
        DumpNode::field(
            "magic",
            off::MAGIC as u64,
            4,
            DumpValue::Text("BWM ".into()),
        ),
        DumpNode::field(
            "version",
            off::VERSION as u64,
            4,
            DumpValue::Text("V1.0".into()),
        ),
        DumpNode::field("type", off::TYPE as u64, 4, uint(h.walkmesh_type)),
        DumpNode::field(
            "relative_use1",
            off::REL_USE1 as u64,
            12,
            floats(&h.rel_use[0]),
        ),
        DumpNode::field(
            "relative_use2",
            off::REL_USE2 as u64,
            12,
            floats(&h.rel_use[1]),
        ),
        DumpNode::field(
            "absolute_use1",
            off::ABS_USE1 as u64,
            12,
            floats(&h.abs_use[0]),
        ),
        DumpNode::field(
            "absolute_use2",
            off::ABS_USE2 as u64,
            12,
            floats(&h.abs_use[1]),
        ),
        DumpNode::field("position", off::POSITION as u64, 12, floats(&h.position)),
    ];
    let mut seen = Vec::new();
    for (table, &(count, offset)) in Table::ALL.iter().zip(&h.raw) {
        let (count_at, offset_at) = table.header_fields();
        let (count_name, offset_name) = table.header_names();
        if !seen.contains(&count_at) {
            seen.push(count_at);
            let name = count_name.trim_start_matches("header.");
            header.push(DumpNode::field(name, count_at as u64, 4, uint(count)));
        }
        let name = offset_name.trim_start_matches("header.");
        header.push(DumpNode::field(name, offset_at as u64, 4, uint(offset)));
        if *table == Table::Aabb {
            header.push(DumpNode::field(
                "aabb_root",
                off::AABB_ROOT as u64,
                4,
                uint(h.aabb_root),
            ));
        }
    }
    header.sort_by_key(|n| n.offset);
    let mut root = vec![DumpNode::group("header", Some(0), header)];

    for table in Table::ALL {
        let span = raw.span(table);
        let mut entries = Vec::with_capacity(span.count);
        for i in 0..span.count {
            let at = span.entry(table, i) as u64;
            let name = format!("{}[{i}]", table.name());
            let node = match table {
                Table::Vertices => DumpNode::field(name, at, 12, floats(&raw.vertex(i))),
                Table::Normals => DumpNode::field(name, at, 12, floats(&raw.normal(i))),
                Table::Faces => DumpNode::field(
                    name,
                    at,
                    12,
                    DumpValue::Ints(raw.face(i).iter().map(|&v| i64::from(v)).collect()),
                ),
                Table::Materials => DumpNode::field(name, at, 4, uint(raw.material(i))),
                Table::Distances => {
                    DumpNode::field(name, at, 4, DumpValue::Float(f64::from(raw.distance(i))))
                }
                Table::Perimeters => DumpNode::field(name, at, 4, uint(raw.perimeter(i))),
                Table::Adjacency => DumpNode::field(
                    name,
                    at,
                    12,
                    DumpValue::Ints(raw.adjacency(i).iter().map(|&v| i64::from(v)).collect()),
                ),
                Table::Edges => {
                    let (index, transition) = raw.edge(i);
                    DumpNode::group(
                        name,
                        Some(at),
                        vec![
                            DumpNode::field("index", at, 4, uint(index)),
                            DumpNode::field("transition", at + 4, 4, int(transition)),
                        ],
                    )
                }
                Table::Aabb => {
                    let n = raw.aabb(i);
                    DumpNode::group(
                        name,
                        Some(at),
                        vec![
                            DumpNode::field("min", at, 12, floats(&n.min)),
                            DumpNode::field("max", at + 12, 12, floats(&n.max)),
                            DumpNode::field("face", at + 0x18, 4, int(n.face)),
                            DumpNode::field("unknown", at + 0x1C, 4, uint(n.unknown)),
                            DumpNode::field("plane", at + 0x20, 4, uint(n.plane)),
                            DumpNode::field("first", at + 0x24, 4, int(n.first as i32)),
                            DumpNode::field("second", at + 0x28, 4, int(n.second as i32)),
                        ],
                    )
                }
            };
            entries.push(node);
        }
        let offset = (span.count > 0).then_some(span.offset as u64);
        root.push(DumpNode::group(table.name(), offset, entries));
    }
    Ok(DumpNode::group("bwm", Some(0), root))
}
