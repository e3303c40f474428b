//! A tree of stored fields with their byte offsets, for `walkmesh dump`.

use serde::Serialize;

/// A field's value as shown by `dump`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DumpValue {
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(String),
    Ints(Vec<i64>),
    Floats(Vec<f32>),
}

/// One stored field or group of fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DumpNode {
    pub name: String,
    /// Byte offset in the file (or line, for text formats, with `line` set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<DumpValue>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<DumpNode>,
}

impl DumpNode {
    /// A leaf field at `offset`, `size` bytes long.
    pub fn field(name: impl Into<String>, offset: u64, size: u64, value: DumpValue) -> DumpNode {
        DumpNode {
            name: name.into(),
            offset: Some(offset),
            size: Some(size),
            value: Some(value),
            children: Vec::new(),
        }
    }

    /// An unsigned integer field of `size` bytes.
    pub fn uint(
        name: impl Into<String>,
        offset: u64,
        size: u64,
        value: impl Into<u64>,
    ) -> DumpNode {
        DumpNode::field(name, offset, size, DumpValue::UInt(value.into()))
    }

    /// A 4-byte float field.
    pub fn float(name: impl Into<String>, offset: u64, value: f32) -> DumpNode {
        DumpNode::field(name, offset, 4, DumpValue::Float(f64::from(value)))
    }

    /// Consecutive 4-byte floats (a vector).
    pub fn floats(name: impl Into<String>, offset: u64, values: &[f32]) -> DumpNode {
        DumpNode::field(
            name,
            offset,
            4 * values.len() as u64,
            DumpValue::Floats(values.to_vec()),
        )
    }

    /// Consecutive integers taking `size` bytes in all.
    pub fn ints(
        name: impl Into<String>,
        offset: u64,
        size: u64,
        values: impl IntoIterator<Item = i64>,
    ) -> DumpNode {
        DumpNode::field(
            name,
            offset,
            size,
            DumpValue::Ints(values.into_iter().collect()),
        )
    }

    /// A table of fixed-size records: record `i` of `items` starts at `start + stride·i` and is
    /// shown as the group `name[i]` holding the fields `fields(record_offset, item)` returns.
    pub fn table<T>(
        name: &str,
        start: u64,
        stride: u64,
        items: &[T],
        fields: impl Fn(u64, &T) -> Vec<DumpNode>,
    ) -> DumpNode {
        let records = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let at = start.saturating_add(stride.saturating_mul(i as u64));
                DumpNode::group(format!("{name}[{i}]"), Some(at), fields(at, item))
            })
            .collect();
        DumpNode::group(name, Some(start), records)
    }

    /// A group of fields starting at `offset`.
    pub fn group(
        name: impl Into<String>,
        offset: Option<u64>,
        children: Vec<DumpNode>,
    ) -> DumpNode {
        DumpNode {
            name: name.into(),
            offset,
            size: None,
            value: None,
            children,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_places_records_at_their_stride() {
        let table = DumpNode::table(
            "links",
            100,
            16,
            &[(7u32, 0.5f32), (9, 2.0)],
            |at, &(node, width)| {
                vec![
                    DumpNode::uint("node", at, 4, node),
                    DumpNode::float("width", at + 8, width),
                ]
            },
        );
        assert_eq!(table.offset, Some(100));
        assert_eq!(table.children.len(), 2);
        let second = &table.children[1];
        assert_eq!(second.name, "links[1]");
        assert_eq!(second.offset, Some(116));
        assert_eq!(second.children[0].value, Some(DumpValue::UInt(9)));
        assert_eq!(second.children[1].offset, Some(124));
        assert_eq!(second.children[1].size, Some(4));
        assert_eq!(DumpNode::floats("n", 0, &[1.0, 2.0, 3.0]).size, Some(12));
    }
}
