//! The stored fields of a file, each with the path the flat dump gives it (`header.edge_count`,
//! `aswm.tiles[3].size_x`), taken from the same field stream the format's dumper reports:
//! the field diff and the corpus statistics see exactly what `walkmesh dump` shows.

use walkmesh_core::ReadError;
use walkmesh_core::dump::{DumpValue, Elem, Entry, FieldSink};
use walkmesh_core::flatdump::PathFrames;
use walkmesh_core::format::{Dumper, Input, ReadOptions};

/// Name of the section the dumpers put bytes no field covers in.
const UNCLAIMED: &str = "unclaimed";

/// One stored field as a [`FieldSink`] reports it, with its path.
#[derive(Clone, Copy, Debug)]
pub struct FieldRef<'a> {
    /// The flat dump's name of the field.
    pub path: &'a str,
    /// What the offset counts from: `None` for the file, or a section's bytes (`aswm-body`).
    pub space: Option<&'a str>,
    pub entry: &'a Entry<'a>,
    /// True for bytes no field of the format decodes (unclaimed bytes, unknown packets).
    pub leftover: bool,
}

/// A [`FieldSink`] that names every field as the flat dump does and hands it to `visit`.
pub struct PathSink<F: FnMut(FieldRef<'_>)> {
    visit: F,
    path: String,
    frames: PathFrames,
}

impl<F: FnMut(FieldRef<'_>)> std::fmt::Debug for PathSink<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PathSink")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl<F: FnMut(FieldRef<'_>)> PathSink<F> {
    pub fn new(visit: F) -> PathSink<F> {
        PathSink {
            visit,
            path: String::new(),
            frames: PathFrames::new(),
        }
    }

    fn report(&mut self, entry: &Entry<'_>) {
        // Borrowed apart: `visit` mutably, the path and the frames for reading.
        let PathSink {
            visit,
            path,
            frames,
        } = self;
        let unclaimed = frames.in_section(UNCLAIMED);
        visit(FieldRef {
            path,
            space: frames.space(),
            entry,
            leftover: entry.elem == Elem::Bytes || unclaimed,
        });
    }
}

impl<F: FnMut(FieldRef<'_>)> FieldSink for PathSink<F> {
    fn open(&mut self, group: &Entry<'_>) {
        self.frames.open(&mut self.path, group);
        if group.value.is_some() {
            self.report(group);
        }
    }

    fn close(&mut self) {
        self.frames.close(&mut self.path);
    }

    fn field(&mut self, field: &Entry<'_>) {
        let path_len = self.path.len();
        if let Some(label) = field.label {
            self.frames.append(&mut self.path, label);
        }
        self.report(field);
        self.path.truncate(path_len);
    }
}

/// Runs `dumper` over `bytes`, calling `visit` for every field.
pub fn walk(
    dumper: &dyn Dumper,
    bytes: &[u8],
    path: Option<&std::path::Path>,
    visit: impl FnMut(FieldRef<'_>),
) -> Result<(), ReadError> {
    let mut sink = PathSink::new(visit);
    let input = Input { bytes, path };
    dumper.dump_fields(input, &ReadOptions::default(), &mut sink)
}

/// A scalar value of a field, or of one element of an array field.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(String),
}

impl Scalar {
    /// The number, for min and max.
    pub fn number(&self) -> Option<f64> {
        match *self {
            Scalar::Int(v) => Some(v as f64),
            Scalar::UInt(v) => Some(v as f64),
            Scalar::Float(v) => Some(v),
            Scalar::Text(_) => None,
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Scalar::Int(v) => serde_json::Value::from(*v),
            Scalar::UInt(v) => serde_json::Value::from(*v),
            // f32 fields are shown as the f32 they are (0.1, not 0.10000000149011612).
            Scalar::Float(v) => {
                let shown: f64 = format!("{:?}", *v as f32).parse().unwrap_or(*v);
                serde_json::Number::from_f64(shown)
                    .map(serde_json::Value::Number)
                    .unwrap_or_else(|| serde_json::Value::String(format!("{v:?}")))
            }
            Scalar::Text(text) => serde_json::Value::String(text.clone()),
        }
    }
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::UInt(v) => write!(f, "{v}"),
            Scalar::Float(v) => write!(f, "{:?}", *v as f32),
            Scalar::Text(text) => write!(f, "{text:?}"),
        }
    }
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The characters of a `char` field up to the first NUL.
fn chars(raw: &[u8]) -> String {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    raw.get(..end)
        .unwrap_or(raw)
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b).map(char::from))
        .collect()
}

/// The values of a field: one for a scalar, one per element for an array (a vector, a row of
/// indices), the hex of the bytes for bytes nobody decodes.
pub fn scalars(entry: &Entry<'_>) -> Vec<Scalar> {
    if entry.elem == Elem::Bytes || (entry.value.is_none() && !entry.raw.is_empty()) {
        return vec![Scalar::Text(hex(entry.raw))];
    }
    if entry.elem == Elem::Char && !entry.raw.is_empty() {
        return vec![Scalar::Text(chars(entry.raw))];
    }
    match entry.value {
        None => Vec::new(),
        Some(DumpValue::Int(v)) => vec![Scalar::Int(*v)],
        Some(DumpValue::UInt(v)) => vec![Scalar::UInt(*v)],
        Some(DumpValue::Float(v)) => vec![Scalar::Float(*v)],
        Some(DumpValue::Text(t)) => vec![Scalar::Text(t.clone())],
        Some(DumpValue::Ints(v)) => v.iter().map(|&x| Scalar::Int(x)).collect(),
        Some(DumpValue::Floats(v)) => v.iter().map(|&x| Scalar::Float(f64::from(x))).collect(),
    }
}

/// True when the value is an array (each element is reported apart).
pub fn is_array(entry: &Entry<'_>) -> bool {
    matches!(entry.value, Some(DumpValue::Ints(_) | DumpValue::Floats(_)))
        && entry.elem != Elem::Bytes
}
