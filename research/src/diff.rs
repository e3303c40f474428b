//! `walkmesh diff A B --fields`: the stored fields that differ between two files, by path, with
//! both values and both byte offsets. Derived counts play no part: two files that decode to
//! the same mesh but store different edge counts differ here.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHashMap;
use serde::Serialize;
use walkmesh_core::dump::Elem;
use walkmesh_core::format::Dumper;

use crate::error::ResearchError;
use crate::fields::{FieldRef, Scalar, is_array, scalars, walk};

/// B's fields (and differences) held by default: about 180 bytes each, measured (933,263
/// fields of a 1 MB TRX took 186 MB); `--field-limit` raises it.
pub const DEFAULT_FIELD_LIMIT: usize = 10_000_000;

/// One stored field, as kept for the comparison.
#[derive(Clone, Debug)]
pub(crate) struct Stored {
    pub(crate) path: String,
    pub(crate) space: Option<String>,
    pub(crate) offset: Option<u64>,
    pub(crate) elem: Elem,
    pub(crate) raw: Vec<u8>,
    pub(crate) values: Vec<Scalar>,
    pub(crate) array: bool,
}

/// Where a field is in one file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    /// The stored value (`null` when the file does not hold the field).
    pub value: serde_json::Value,
    /// Byte offset of the value.
    pub offset: Option<u64>,
    /// What `offset` counts from when not the file (`aswm-body`: the inflated ASWM walkmesh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<String>,
}

/// A field that differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDifference {
    /// The flat dump's name of the field; `[i]` is appended for one element of an array. For
    /// records aligned by content, A's name of the record.
    pub path: String,
    /// B's name of the record when alignment paired it with another index (`vertices[530]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_b: Option<String>,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub a: serde_json::Value,
    pub b: serde_json::Value,
    pub offset_a: Option<u64>,
    pub offset_b: Option<u64>,
    /// What the offsets count from when not the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space_a: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space_b: Option<String>,
}

/// The result of a field diff.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FieldDiff {
    /// Stored fields compared in A and in B.
    pub fields_a: usize,
    pub fields_b: usize,
    /// Tables whose records were paired by content (not by index) before comparing: how many
    /// matched, and the order B holds them in. Empty with `--by-index`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aligned: Vec<crate::alignment::Alignment>,
    pub differences: Vec<FieldDifference>,
}

impl FieldDiff {
    /// No field differs and no table is reordered.
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty() && self.aligned.iter().all(|a| !a.differs())
    }

    /// One line per aligned table (`vertices: same 677 vertices, reordered`), then one per
    /// difference: `path: A @offset -> B @offset`.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for alignment in &self.aligned {
            text.push_str(&alignment.to_text());
            text.push('\n');
        }
        for d in &self.differences {
            let path = match &d.path_b {
                Some(b) => format!("{} (B: {b})", d.path),
                None => d.path.clone(),
            };
            text.push_str(&format!(
                "{}: {} @{} -> {} @{}\n",
                path,
                d.a,
                offset_text(d.offset_a, d.space_a.as_deref()),
                d.b,
                offset_text(d.offset_b, d.space_b.as_deref())
            ));
        }
        text.push_str(&format!(
            "{} stored field(s) differ ({} in A, {} in B)\n",
            self.differences.len(),
            self.fields_a,
            self.fields_b
        ));
        text
    }
}

fn offset_text(offset: Option<u64>, space: Option<&str>) -> String {
    match (offset, space) {
        (Some(at), Some(space)) => format!("{space}:{at:#x}"),
        (Some(at), None) => format!("{at:#x}"),
        (None, _) => "-".to_string(),
    }
}

impl Stored {
    pub(crate) fn of(f: &FieldRef<'_>) -> Stored {
        Stored {
            path: f.path.to_string(),
            space: f.space.map(str::to_string),
            offset: f.entry.offset,
            elem: f.entry.elem,
            raw: f.entry.raw.to_vec(),
            values: scalars(f.entry),
            array: is_array(f.entry),
        }
    }
}

/// A digest of a field's stored value: its bytes, or its decoded value when it has no bytes of
/// its own. Equal bytes give equal digests; a field whose digest differs is compared in full.
fn digest(f: &FieldRef<'_>) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    if f.entry.raw.is_empty() {
        1u8.hash(&mut hasher);
        format!("{:?}", f.entry.value).hash(&mut hasher);
    } else {
        0u8.hash(&mut hasher);
        f.entry.raw.hash(&mut hasher);
    }
    hasher.finish()
}

/// B's field at a path, as the first pass keeps it (with the path, about 180 bytes a field).
#[derive(Debug)]
struct Brief {
    digest: u64,
    /// A holds a field of this path.
    matched: bool,
    /// A's field of this path differs: the third pass keeps B's in full.
    wanted: bool,
    /// The third pass has met the field.
    taken: bool,
}

/// A's side of a difference, in A's order.
#[derive(Debug)]
enum FromA {
    Changed(Stored),
    OnlyInA(Stored),
}

pub(crate) fn walk_error(
    file: &std::path::Path,
) -> impl Fn(walkmesh_core::ReadError) -> ResearchError + '_ {
    move |e| ResearchError::Read(e.in_file(file))
}

/// One file to compare: its bytes, its name, and the dumper of its format.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub bytes: &'a [u8],
    pub file: &'a std::path::Path,
    pub dumper: &'a dyn Dumper,
}

impl std::fmt::Debug for Side<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Side")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Compares the stored fields of `a` and `b`: every field whose stored value differs, or that
/// only one file holds, in A's order and then B's.
///
/// Memory: B's fields are walked three times rather than kept: first as a digest per path
/// (refused past `limit` fields), then A's fields are compared with the digests and kept only
/// when they differ, then B's fields that differ or that A lacks are kept. So memory follows
/// B's field count (about 180 bytes a field) plus the differences, not both files in full.
pub fn field_diff(a: Side<'_>, b: Side<'_>, limit: usize) -> Result<FieldDiff, ResearchError> {
    let mut briefs: FxHashMap<String, Brief> = FxHashMap::default();
    let mut fields_b = 0usize;
    walk(b.dumper, b.bytes, Some(b.file), |f: FieldRef<'_>| {
        fields_b += 1;
        if briefs.len() < limit && !briefs.contains_key(f.path) {
            let brief = Brief {
                digest: digest(&f),
                matched: false,
                wanted: false,
                taken: false,
            };
            briefs.insert(f.path.to_string(), brief);
        }
    })
    .map_err(walk_error(b.file))?;
    if fields_b > limit {
        return Err(ResearchError::TooManyFields {
            file: b.file.to_path_buf(),
            fields: fields_b,
            limit,
        });
    }
    let mut fields_a = 0usize;
    let mut from_a: Vec<FromA> = Vec::new();
    walk(a.dumper, a.bytes, Some(a.file), |f: FieldRef<'_>| {
        fields_a += 1;
        if from_a.len() >= limit {
            return;
        }
        match briefs.get_mut(f.path) {
            Some(brief) if !brief.matched => {
                brief.matched = true;
                if brief.digest != digest(&f) {
                    brief.wanted = true;
                    from_a.push(FromA::Changed(Stored::of(&f)));
                }
            }
            _ => from_a.push(FromA::OnlyInA(Stored::of(&f))),
        }
    })
    .map_err(walk_error(a.file))?;
    if from_a.len() >= limit {
        return Err(ResearchError::TooManyDifferences {
            file: a.file.to_path_buf(),
            other: b.file.to_path_buf(),
            limit,
        });
    }
    let mut changed_b: FxHashMap<String, Stored> = FxHashMap::default();
    let mut only_b: Vec<Stored> = Vec::new();
    walk(b.dumper, b.bytes, Some(b.file), |f: FieldRef<'_>| {
        // The first field of a path is the one the digest is of; a later one of the same path
        // has no counterpart in A.
        let first = briefs.get_mut(f.path).filter(|brief| !brief.taken);
        match first {
            Some(brief) if brief.wanted => {
                brief.taken = true;
                changed_b.insert(f.path.to_string(), Stored::of(&f));
            }
            Some(brief) if brief.matched => brief.taken = true,
            Some(brief) => {
                brief.taken = true;
                only_b.push(Stored::of(&f));
            }
            None => only_b.push(Stored::of(&f)),
        }
    })
    .map_err(walk_error(b.file))?;
    let mut differences = Vec::new();
    for entry in &from_a {
        match entry {
            FromA::Changed(field) => match changed_b.get(&field.path) {
                Some(other) => compare(field, other, &mut differences),
                None => differences.push(one_sided(field, true)),
            },
            FromA::OnlyInA(field) => differences.push(one_sided(field, true)),
        }
    }
    for field in &only_b {
        differences.push(one_sided(field, false));
    }
    Ok(FieldDiff {
        fields_a,
        fields_b,
        aligned: Vec::new(),
        differences,
    })
}

/// The value of a whole field as JSON: a scalar, or an array of its elements.
pub(crate) fn whole(field: &Stored) -> serde_json::Value {
    match (field.array, field.values.as_slice()) {
        (false, [one]) => one.to_json(),
        (_, values) => serde_json::Value::Array(values.iter().map(Scalar::to_json).collect()),
    }
}

pub(crate) fn one_sided(field: &Stored, in_a: bool) -> FieldDifference {
    let (value, none) = (whole(field), serde_json::Value::Null);
    let (a, b) = if in_a { (value, none) } else { (none, value) };
    let (offset_a, offset_b) = if in_a {
        (field.offset, None)
    } else {
        (None, field.offset)
    };
    let (space_a, space_b) = if in_a {
        (field.space.clone(), None)
    } else {
        (None, field.space.clone())
    };
    FieldDifference {
        path: field.path.clone(),
        path_b: None,
        kind: field.elem.name(),
        a,
        b,
        offset_a,
        offset_b,
        space_a,
        space_b,
    }
}

/// Adds the differences between two fields of the same path: element by element for arrays of
/// the same length and type (each element at its own offset), else the whole field.
fn compare(a: &Stored, b: &Stored, out: &mut Vec<FieldDifference>) {
    let same = if !a.raw.is_empty() && !b.raw.is_empty() {
        a.raw == b.raw
    } else {
        a.values == b.values
    };
    if same {
        return;
    }
    let size = a.elem.size();
    let elementwise = a.array
        && b.array
        && a.elem == b.elem
        && a.values.len() == b.values.len()
        && a.raw.len() as u64 == size * a.values.len() as u64
        && b.raw.len() as u64 == size * b.values.len() as u64;
    if elementwise {
        let widths = (size as usize).max(1);
        let pairs = a.values.iter().zip(&b.values).enumerate();
        for (i, (va, vb)) in pairs {
            let at = i * widths;
            let (ra, rb) = (a.raw.get(at..at + widths), b.raw.get(at..at + widths));
            if ra == rb && va == vb {
                continue;
            }
            let step = (i as u64) * size;
            out.push(FieldDifference {
                path: format!("{}[{i}]", a.path),
                path_b: None,
                kind: a.elem.name(),
                a: va.to_json(),
                b: vb.to_json(),
                offset_a: a.offset.map(|o| o + step),
                offset_b: b.offset.map(|o| o + step),
                space_a: a.space.clone(),
                space_b: b.space.clone(),
            });
        }
        return;
    }
    out.push(FieldDifference {
        path: a.path.clone(),
        path_b: None,
        kind: a.elem.name(),
        a: whole(a),
        b: whole(b),
        offset_a: a.offset,
        offset_b: b.offset,
        space_a: a.space.clone(),
        space_b: b.space.clone(),
    });
}
