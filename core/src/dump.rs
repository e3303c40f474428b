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
