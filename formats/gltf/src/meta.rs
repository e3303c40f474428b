//! The walkmesh metadata schema kept in glTF `extras` (documented in `docs/formats/gltf.md`).
//!
//! Two places carry it, each under the key `"walkmesh"` of an `extras` object:
//! - the scene (`scenes[i].extras.walkmesh`): mesh-level data ([`MeshMeta`]);
//! - each primitive (`meshes[m].primitives[p].extras.walkmesh`): which IR polygons the
//!   primitive holds and how its triangles group into polygons ([`PrimitiveMeta`]).
//!
//! Floats that JSON cannot carry exactly (non-finite values, or values whose shortest decimal
//! does not parse back to the same bits with our JSON parser) are stored as bit patterns, so a
//! round trip is always bit-exact.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use walkmesh_core::{Attribute, EdgeRef, EdgeTag, Extra, Hook, MeshKind, TileGrid};

use crate::base64;

/// Key under which our data sits inside an `extras` object.
pub const KEY: &str = "walkmesh";
/// Name prefix of the empty nodes that carry hooks (`hook:use1`), the form of them that
/// survives an edit in Blender.
pub const HOOK_NODE_PREFIX: &str = "hook:";
/// Schema version written by this crate.
pub const VERSION: u64 = 1;

/// Mesh-level metadata (scene extras).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshMeta {
    pub kind: Option<MeshKind>,
    pub origin: Option<[f32; 3]>,
    pub hooks: Option<Vec<Hook>>,
    pub tile_grid: Option<TileGrid>,
    /// Keyed by the polygon's index in the original (IR) order.
    pub edge_tags: Vec<(EdgeRef, EdgeTag)>,
    /// Columns in the original polygon order.
    pub face_attributes: BTreeMap<String, Attribute>,
    pub extras: BTreeMap<String, Extra>,
    /// Number of IR polygons written (to check that the file was not edited since).
    pub polygons: Option<u64>,
    /// Number of IR vertices written.
    pub vertices: Option<u64>,
}

/// Per-primitive metadata.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrimitiveMeta {
    /// Original indices of the primitive's polygons, in the primitive's order, as runs
    /// `(first, count)`.
    pub faces: Option<Vec<(u64, u64)>>,
    /// Polygon sizes as runs `(size, repeat)`; absent when every polygon is a triangle.
    /// A polygon of `n` corners is stored as the fan of `n - 2` triangles from its corner 0.
    pub sizes: Option<Vec<(u64, u64)>>,
    /// Corners of the polygons that are not stored as fans (concave ones, triangulated by ear
    /// clipping for display): `(position in the primitive, IR vertex indices)`.
    pub corners: Option<Vec<(u64, Vec<u32>)>>,
    /// Surface fields that differ from what the profile gives for the material name.
    pub material: Option<u16>,
    pub code: Option<u32>,
    pub walkable: Option<bool>,
}

// ---------------------------------------------------------------------------------------------
// Exact floats

/// True when `value`, written the way [`encode_f32s`] writes it (a JSON number holding the
/// exact `f64` of the `f32`, as `serde_json::Value` stores it), reads back to the same bits.
fn f32_survives_json(value: f32) -> bool {
    if !value.is_finite() {
        return false;
    }
    serde_json::to_string(&json!(value))
        .ok()
        .and_then(|text| serde_json::from_str::<f64>(&text).ok())
        .is_some_and(|back| (back as f32).to_bits() == value.to_bits())
}

fn f64_survives_json(value: f64) -> bool {
    if !value.is_finite() {
        return false;
    }
    serde_json::to_string(&value)
        .ok()
        .and_then(|text| serde_json::from_str::<f64>(&text).ok())
        .is_some_and(|back| back.to_bits() == value.to_bits())
}

/// A list of `f32`: plain numbers when all survive JSON, else `{"f32_bits": [u32, …]}`.
pub fn encode_f32s(values: &[f32]) -> Value {
    if values.iter().all(|&v| f32_survives_json(v)) {
        Value::Array(values.iter().map(|&v| json!(v)).collect())
    } else {
        json!({ "f32_bits": values.iter().map(|v| v.to_bits()).collect::<Vec<u32>>() })
    }
}

/// Why a float list in the metadata ([`decode_f32s`]) cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FloatsError {
    /// An item of a plain list that is not a number.
    #[error("{item} is not a number")]
    NotANumber { item: String },
    /// An item of an `f32_bits` list that is not a 32-bit pattern.
    #[error("{item} is not a 32-bit pattern")]
    NotABitPattern { item: String },
    /// An object without an `f32_bits` list.
    #[error("expected an array of numbers or {{\"f32_bits\": [...]}}")]
    NoBitList,
    /// Neither a list nor an object.
    #[error("expected an array of numbers")]
    NotAList,
}

/// Why a field of the walkmesh metadata cannot be read; the text follows the field's name in
/// the problem reported (`extras.walkmesh.origin: expected 3 numbers, found 2; ignored`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MetaFieldError {
    /// A float list that does not read ([`decode_f32s`]).
    #[error(transparent)]
    Floats(#[from] FloatsError),
    /// A float list of the wrong length.
    #[error("expected {expected} numbers, found {found}")]
    FloatCount { expected: usize, found: usize },
    /// A value of the wrong shape; `shape` says what was expected
    /// (`an object`, `an array of [a, b] pairs`).
    #[error("expected {shape}")]
    Expected { shape: &'static str },
    /// A field's own value of the wrong kind (`not a count`).
    #[error("not {kind}")]
    Not { kind: &'static str },
    /// A named part or a JSON item of the wrong kind: `value` is the part's name or the item's
    /// JSON text (`int is not a 64-bit integer`, `[1,2] is not a pair`).
    #[error("{value} is not {kind}")]
    IsNot { value: String, kind: &'static str },
    /// A part the field cannot do without.
    #[error("{part} is missing")]
    Missing { part: &'static str },
    /// A hook without its name or position.
    #[error("hook {index} has no {part}")]
    HookWithout { index: usize, part: &'static str },
    /// A hook whose position does not read.
    #[error("hook {index}: {source}")]
    HookPosition {
        index: usize,
        source: Box<MetaFieldError>,
    },
    /// A corner list entry one of whose parts does not read; `problem` names the part.
    #[error("{item}: {problem}")]
    Corner { item: String, problem: &'static str },
    /// An extra's bytes that are not base64.
    #[error("bytes is not base64 (position {position})")]
    NotBase64 { position: usize },
    /// An extra of a type this reader does not know.
    #[error("unknown value type '{tag}'")]
    UnknownValueType { tag: String },
}

impl MetaFieldError {
    fn is_not(value: impl ToString, kind: &'static str) -> Self {
        MetaFieldError::IsNot {
            value: value.to_string(),
            kind,
        }
    }
}

/// Reads what [`encode_f32s`] wrote.
pub fn decode_f32s(value: &Value) -> Result<Vec<f32>, FloatsError> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|item| {
                item.as_f64()
                    .map(|v| v as f32)
                    .ok_or_else(|| FloatsError::NotANumber {
                        item: item.to_string(),
                    })
            })
            .collect(),
        Value::Object(map) => {
            let bits = map
                .get("f32_bits")
                .and_then(Value::as_array)
                .ok_or(FloatsError::NoBitList)?;
            bits.iter()
                .map(|item| {
                    item.as_u64()
                        .and_then(|b| u32::try_from(b).ok())
                        .map(f32::from_bits)
                        .ok_or_else(|| FloatsError::NotABitPattern {
                            item: item.to_string(),
                        })
                })
                .collect()
        }
        _ => Err(FloatsError::NotAList),
    }
}

fn decode_f32_array<const N: usize>(value: &Value) -> Result<[f32; N], MetaFieldError> {
    let values = decode_f32s(value)?;
    <[f32; N]>::try_from(values.as_slice()).map_err(|_| MetaFieldError::FloatCount {
        expected: N,
        found: values.len(),
    })
}

fn encode_f64(value: f64) -> Value {
    if f64_survives_json(value) {
        json!(value)
    } else {
        json!({ "f64_bits": format!("{:016x}", value.to_bits()) })
    }
}

fn decode_f64(value: &Value) -> Result<f64, MetaFieldError> {
    if let Some(number) = value.as_f64() {
        return Ok(number);
    }
    value
        .get("f64_bits")
        .and_then(Value::as_str)
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .map(f64::from_bits)
        .ok_or(MetaFieldError::Expected {
            shape: "a number or {\"f64_bits\": \"hex\"}",
        })
}

// ---------------------------------------------------------------------------------------------
// Runs

/// Run-length encodes ascending-by-one sequences: `[3,4,5,9]` → `[(3,3),(9,1)]`.
pub fn index_runs(values: &[u32]) -> Vec<(u64, u64)> {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &value in values {
        let value = u64::from(value);
        match runs.last_mut() {
            Some((start, count)) if *start + *count == value => *count += 1,
            _ => runs.push((value, 1)),
        }
    }
    runs
}

/// Run-length encodes repeated values: `[4,4,3]` → `[(4,2),(3,1)]`.
pub fn repeat_runs(values: impl IntoIterator<Item = u64>) -> Vec<(u64, u64)> {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for value in values {
        match runs.last_mut() {
            Some((last, count)) if *last == value => *count += 1,
            _ => runs.push((value, 1)),
        }
    }
    runs
}

fn encode_runs(runs: &[(u64, u64)]) -> Value {
    Value::Array(runs.iter().map(|&(a, b)| json!([a, b])).collect())
}

fn decode_runs(value: &Value) -> Result<Vec<(u64, u64)>, MetaFieldError> {
    let items = value.as_array().ok_or(MetaFieldError::Expected {
        shape: "an array of [a, b] pairs",
    })?;
    items
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([a, b]) => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => Ok((a, b)),
                _ => Err(MetaFieldError::is_not(
                    item,
                    "a pair of non-negative integers",
                )),
            },
            _ => Err(MetaFieldError::is_not(item, "a pair")),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Extras and attributes

fn encode_extra(extra: &Extra) -> Value {
    match extra {
        Extra::Int(value) => json!({ "int": value }),
        Extra::Float(value) => json!({ "float": encode_f64(*value) }),
        Extra::Text(text) => json!({ "text": text }),
        Extra::TextList(list) => json!({ "text_list": list }),
        Extra::Floats(values) => json!({ "floats": encode_f32s(values) }),
        Extra::Bytes(bytes) => json!({ "bytes": base64::encode(bytes) }),
    }
}

fn decode_extra(value: &Value) -> Result<Extra, MetaFieldError> {
    let map = value
        .as_object()
        .ok_or(MetaFieldError::Expected { shape: "an object" })?;
    let mut entries = map.iter();
    let (Some((tag, inner)), None) = (entries.next(), entries.next()) else {
        return Err(MetaFieldError::Expected {
            shape: "exactly one of int, float, text, text_list, floats, bytes",
        });
    };
    match tag.as_str() {
        "int" => inner
            .as_i64()
            .map(Extra::Int)
            .ok_or_else(|| MetaFieldError::is_not("int", "a 64-bit integer")),
        "float" => decode_f64(inner).map(Extra::Float),
        "text" => inner
            .as_str()
            .map(|s| Extra::Text(s.to_string()))
            .ok_or_else(|| MetaFieldError::is_not("text", "a string")),
        "text_list" => inner
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .map(|s| s.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
            })
            .map(Extra::TextList)
            .ok_or_else(|| MetaFieldError::is_not("text_list", "a list of strings")),
        "floats" => Ok(Extra::Floats(decode_f32s(inner)?)),
        "bytes" => inner
            .as_str()
            .ok_or_else(|| MetaFieldError::is_not("bytes", "a string"))
            .and_then(|text| {
                base64::decode(text).map_err(|position| MetaFieldError::NotBase64 { position })
            })
            .map(Extra::Bytes),
        other => Err(MetaFieldError::UnknownValueType {
            tag: other.to_string(),
        }),
    }
}

fn encode_attribute(attribute: &Attribute) -> Value {
    match attribute {
        Attribute::Int(values) => json!({ "int": values }),
        Attribute::Float(values) => json!({ "float": encode_f32s(values) }),
    }
}

fn decode_attribute(value: &Value) -> Result<Attribute, MetaFieldError> {
    if let Some(items) = value.get("int") {
        let items = items
            .as_array()
            .ok_or_else(|| MetaFieldError::is_not("int", "an array"))?;
        return items
            .iter()
            .map(|item| {
                item.as_i64()
                    .ok_or_else(|| MetaFieldError::is_not(item, "a 64-bit integer"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Attribute::Int);
    }
    if let Some(items) = value.get("float") {
        return Ok(Attribute::Float(decode_f32s(items)?));
    }
    Err(MetaFieldError::Expected {
        shape: "{\"int\": [...]} or {\"float\": [...]}",
    })
}

// ---------------------------------------------------------------------------------------------
// Mesh-level metadata

impl MeshMeta {
    /// The JSON object stored under [`KEY`].
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("version".into(), json!(VERSION));
        if let Some(kind) = self.kind {
            map.insert("kind".into(), json!(kind.as_str()));
        }
        if let Some(vertices) = self.vertices {
            map.insert("vertices".into(), json!(vertices));
        }
        if let Some(polygons) = self.polygons {
            map.insert("polygons".into(), json!(polygons));
        }
        if let Some(origin) = self.origin {
            map.insert("origin".into(), encode_f32s(&origin));
        }
        if let Some(hooks) = &self.hooks {
            map.insert(
                "hooks".into(),
                Value::Array(
                    hooks
                        .iter()
                        .map(|hook| {
                            json!({ "name": hook.name, "position": encode_f32s(&hook.position) })
                        })
                        .collect(),
                ),
            );
        }
        if let Some(grid) = &self.tile_grid {
            map.insert(
                "tile_grid".into(),
                json!({
                    "columns": grid.columns,
                    "rows": grid.rows,
                    "tile_size": encode_f32s(&[grid.tile_width, grid.tile_height]),
                    "origin": encode_f32s(&grid.origin),
                }),
            );
        }
        if !self.edge_tags.is_empty() {
            map.insert(
                "edge_tags".into(),
                Value::Array(
                    self.edge_tags
                        .iter()
                        .map(|(edge, tag)| json!([edge.polygon, edge.edge, tag.transition]))
                        .collect(),
                ),
            );
        }
        if !self.face_attributes.is_empty() {
            map.insert(
                "face_attributes".into(),
                Value::Object(
                    self.face_attributes
                        .iter()
                        .map(|(name, column)| (name.clone(), encode_attribute(column)))
                        .collect(),
                ),
            );
        }
        if !self.extras.is_empty() {
            map.insert(
                "extras".into(),
                Value::Object(
                    self.extras
                        .iter()
                        .map(|(name, extra)| (name.clone(), encode_extra(extra)))
                        .collect(),
                ),
            );
        }
        Value::Object(map)
    }

    /// Reads the object stored under [`KEY`]; fields that do not parse are skipped and described
    /// in `problems` (one sentence each).
    pub fn from_json(value: &Value, problems: &mut Vec<String>) -> MeshMeta {
        let mut meta = MeshMeta::default();
        let Some(map) = value.as_object() else {
            problems.push("scene extras.walkmesh is not an object".into());
            return meta;
        };
        if let Some(version) = map.get("version").and_then(Value::as_u64)
            && version > VERSION
        {
            problems.push(format!(
                "extras.walkmesh.version is {version}; this reader knows version {VERSION} and reads what it recognises"
            ));
        }
        let mut field = |name: &str, result: Result<(), MetaFieldError>| {
            if let Err(message) = result {
                problems.push(format!("extras.walkmesh.{name}: {message}; ignored"));
            }
        };
        if let Some(kind) = map.get("kind") {
            field(
                "kind",
                kind.as_str()
                    .and_then(MeshKind::parse)
                    .map(|kind| meta.kind = Some(kind))
                    .ok_or_else(|| {
                        MetaFieldError::is_not(kind, "area, placeable, door or terrain")
                    }),
            );
        }
        if let Some(count) = map.get("vertices") {
            field(
                "vertices",
                count
                    .as_u64()
                    .map(|c| meta.vertices = Some(c))
                    .ok_or(MetaFieldError::Not { kind: "a count" }),
            );
        }
        if let Some(count) = map.get("polygons") {
            field(
                "polygons",
                count
                    .as_u64()
                    .map(|c| meta.polygons = Some(c))
                    .ok_or(MetaFieldError::Not { kind: "a count" }),
            );
        }
        if let Some(origin) = map.get("origin") {
            field(
                "origin",
                decode_f32_array::<3>(origin).map(|o| meta.origin = Some(o)),
            );
        }
        if let Some(hooks) = map.get("hooks") {
            field("hooks", decode_hooks(hooks).map(|h| meta.hooks = Some(h)));
        }
        if let Some(grid) = map.get("tile_grid") {
            field(
                "tile_grid",
                decode_tile_grid(grid).map(|g| meta.tile_grid = Some(g)),
            );
        }
        if let Some(tags) = map.get("edge_tags") {
            field(
                "edge_tags",
                decode_edge_tags(tags).map(|t| meta.edge_tags = t),
            );
        }
        if let Some(columns) = map.get("face_attributes") {
            match columns.as_object() {
                Some(columns) => {
                    for (name, column) in columns {
                        match decode_attribute(column) {
                            Ok(column) => {
                                meta.face_attributes.insert(name.clone(), column);
                            }
                            Err(message) => problems.push(format!(
                                "extras.walkmesh.face_attributes.{name}: {message}; ignored"
                            )),
                        }
                    }
                }
                None => problems
                    .push("extras.walkmesh.face_attributes is not an object; ignored".into()),
            }
        }
        if let Some(extras) = map.get("extras") {
            match extras.as_object() {
                Some(extras) => {
                    for (name, extra) in extras {
                        match decode_extra(extra) {
                            Ok(extra) => {
                                meta.extras.insert(name.clone(), extra);
                            }
                            Err(message) => problems
                                .push(format!("extras.walkmesh.extras.{name}: {message}; ignored")),
                        }
                    }
                }
                None => problems.push("extras.walkmesh.extras is not an object; ignored".into()),
            }
        }
        meta
    }
}

fn decode_hooks(value: &Value) -> Result<Vec<Hook>, MetaFieldError> {
    let items = value
        .as_array()
        .ok_or(MetaFieldError::Not { kind: "an array" })?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let name =
                item.get("name")
                    .and_then(Value::as_str)
                    .ok_or(MetaFieldError::HookWithout {
                        index,
                        part: "name",
                    })?;
            let position = item
                .get("position")
                .ok_or(MetaFieldError::HookWithout {
                    index,
                    part: "position",
                })
                .and_then(|p| {
                    decode_f32_array::<3>(p).map_err(|source| MetaFieldError::HookPosition {
                        index,
                        source: Box::new(source),
                    })
                })?;
            Ok(Hook {
                name: name.to_string(),
                position,
            })
        })
        .collect()
}

fn decode_tile_grid(value: &Value) -> Result<TileGrid, MetaFieldError> {
    let count = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_u64)
            .and_then(|c| u32::try_from(c).ok())
            .ok_or_else(|| MetaFieldError::is_not(name, "a 32-bit count"))
    };
    let part = |part: &'static str| value.get(part).ok_or(MetaFieldError::Missing { part });
    let size = decode_f32_array::<2>(part("tile_size")?)?;
    let origin = decode_f32_array::<2>(part("origin")?)?;
    Ok(TileGrid {
        columns: count("columns")?,
        rows: count("rows")?,
        tile_width: size[0],
        tile_height: size[1],
        origin,
    })
}

fn decode_edge_tags(value: &Value) -> Result<Vec<(EdgeRef, EdgeTag)>, MetaFieldError> {
    let items = value
        .as_array()
        .ok_or(MetaFieldError::Not { kind: "an array" })?;
    items
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([polygon, edge, transition]) => {
                let polygon = polygon.as_u64().and_then(|v| u32::try_from(v).ok());
                let edge = edge.as_u64().and_then(|v| u32::try_from(v).ok());
                let transition = transition.as_i64().and_then(|v| i32::try_from(v).ok());
                match (polygon, edge, transition) {
                    (Some(polygon), Some(edge), Some(transition)) => {
                        Ok((EdgeRef { polygon, edge }, EdgeTag { transition }))
                    }
                    _ => Err(MetaFieldError::is_not(item, "[polygon, edge, transition]")),
                }
            }
            _ => Err(MetaFieldError::is_not(item, "[polygon, edge, transition]")),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Primitive metadata

impl PrimitiveMeta {
    /// The JSON object stored under [`KEY`].
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        if let Some(faces) = &self.faces {
            map.insert("faces".into(), encode_runs(faces));
        }
        if let Some(sizes) = &self.sizes {
            map.insert("sizes".into(), encode_runs(sizes));
        }
        if let Some(corners) = &self.corners {
            map.insert(
                "corners".into(),
                Value::Array(
                    corners
                        .iter()
                        .map(|(position, vertices)| json!([position, vertices]))
                        .collect(),
                ),
            );
        }
        if let Some(material) = self.material {
            map.insert("material".into(), json!(material));
        }
        if let Some(code) = self.code {
            map.insert("code".into(), json!(code));
        }
        if let Some(walkable) = self.walkable {
            map.insert("walkable".into(), json!(walkable));
        }
        Value::Object(map)
    }

    /// Reads what [`PrimitiveMeta::to_json`] wrote; problems as in [`MeshMeta::from_json`].
    pub fn from_json(value: &Value, field: &str, problems: &mut Vec<String>) -> PrimitiveMeta {
        let mut meta = PrimitiveMeta::default();
        let Some(map) = value.as_object() else {
            problems.push(format!("{field} is not an object; ignored"));
            return meta;
        };
        let mut check = |name: &str, result: Result<(), MetaFieldError>| {
            if let Err(message) = result {
                problems.push(format!("{field}.{name}: {message}; ignored"));
            }
        };
        if let Some(faces) = map.get("faces") {
            check("faces", decode_runs(faces).map(|r| meta.faces = Some(r)));
        }
        if let Some(sizes) = map.get("sizes") {
            check("sizes", decode_runs(sizes).map(|r| meta.sizes = Some(r)));
        }
        if let Some(corners) = map.get("corners") {
            check(
                "corners",
                decode_corners(corners).map(|c| meta.corners = Some(c)),
            );
        }
        if let Some(material) = map.get("material") {
            check(
                "material",
                material
                    .as_u64()
                    .and_then(|m| u16::try_from(m).ok())
                    .map(|m| meta.material = Some(m))
                    .ok_or(MetaFieldError::Not {
                        kind: "a material id",
                    }),
            );
        }
        if let Some(code) = map.get("code") {
            check(
                "code",
                code.as_u64()
                    .and_then(|c| u32::try_from(c).ok())
                    .map(|c| meta.code = Some(c))
                    .ok_or(MetaFieldError::Not {
                        kind: "a 32-bit code",
                    }),
            );
        }
        if let Some(walkable) = map.get("walkable") {
            check(
                "walkable",
                walkable
                    .as_bool()
                    .map(|w| meta.walkable = Some(w))
                    .ok_or(MetaFieldError::Not {
                        kind: "true or false",
                    }),
            );
        }
        meta
    }
}

fn decode_corners(value: &Value) -> Result<Vec<(u64, Vec<u32>)>, MetaFieldError> {
    let items = value.as_array().ok_or(MetaFieldError::Expected {
        shape: "an array of [position, [vertex, ...]]",
    })?;
    let corner = |item: &Value, problem: &'static str| MetaFieldError::Corner {
        item: item.to_string(),
        problem,
    };
    items
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([position, vertices]) => {
                let position = position
                    .as_u64()
                    .ok_or_else(|| corner(item, "the position is not a count"))?;
                let vertices = vertices
                    .as_array()
                    .and_then(|list| {
                        list.iter()
                            .map(|v| v.as_u64().and_then(|v| u32::try_from(v).ok()))
                            .collect::<Option<Vec<u32>>>()
                    })
                    .ok_or_else(|| corner(item, "the corners are not vertex indices"))?;
                Ok((position, vertices))
            }
            _ => Err(MetaFieldError::is_not(item, "[position, [vertex, ...]]")),
        })
        .collect()
}

impl walkmesh_core::Kinded for FloatsError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Invalid
    }
}

impl walkmesh_core::Kinded for MetaFieldError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Invalid
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn floats_that_json_cannot_hold_use_bit_patterns() {
        let plain = encode_f32s(&[0.1, -2.5, 1e-30]);
        assert!(plain.is_array());
        assert_eq!(
            decode_f32s(&plain)
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>(),
            [0.1f32, -2.5, 1e-30]
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>()
        );
        let odd = [f32::NAN, f32::INFINITY, -0.0, 3.0];
        let encoded = encode_f32s(&odd);
        assert!(encoded.get("f32_bits").is_some());
        let back = decode_f32s(&encoded).unwrap();
        assert_eq!(
            decode_f32s(&json!([1.0, "x"])),
            Err(FloatsError::NotANumber {
                item: "\"x\"".into()
            })
        );
        assert_eq!(decode_f32s(&json!({})), Err(FloatsError::NoBitList));
        assert_eq!(
            FloatsError::NoBitList.to_string(),
            "expected an array of numbers or {\"f32_bits\": [...]}"
        );
        assert_eq!(
            back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            odd.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(
            decode_f64(&encode_f64(f64::NAN)).unwrap().to_bits(),
            f64::NAN.to_bits()
        );
        assert_eq!(decode_f64(&encode_f64(0.3)).unwrap(), 0.3);
    }

    #[test]
    fn runs_compress_sequences() {
        assert_eq!(
            index_runs(&[3, 4, 5, 9, 10, 2]),
            vec![(3, 3), (9, 2), (2, 1)]
        );
        assert_eq!(repeat_runs([4, 4, 3, 4]), vec![(4, 2), (3, 1), (4, 1)]);
        assert_eq!(
            decode_runs(&json!([[1, 2], [5, 1]])).unwrap(),
            vec![(1, 2), (5, 1)]
        );
        assert!(decode_runs(&json!([[1, -2]])).is_err());
        assert!(decode_runs(&json!([[1, 2, 3]])).is_err());
    }

    #[test]
    fn mesh_meta_round_trips_and_reports_bad_fields() {
        let mut meta = MeshMeta {
            kind: Some(MeshKind::Door),
            origin: Some([1.0, -0.0, 2.5]),
            hooks: Some(vec![Hook {
                name: "use1".into(),
                position: [0.5, 1.5, 0.0],
            }]),
            tile_grid: Some(TileGrid {
                columns: 4,
                rows: 2,
                tile_width: 10.0,
                tile_height: 10.0,
                origin: [0.0, 0.0],
            }),
            edge_tags: vec![(
                EdgeRef {
                    polygon: 3,
                    edge: 2,
                },
                EdgeTag { transition: -1 },
            )],
            polygons: Some(7),
            vertices: Some(9),
            ..MeshMeta::default()
        };
        meta.face_attributes
            .insert("path:height".into(), Attribute::Float(vec![0.25, 1.0]));
        meta.face_attributes
            .insert("path:mask".into(), Attribute::Int(vec![-5, 1 << 40]));
        meta.extras.insert("a:int".into(), Extra::Int(i64::MIN));
        meta.extras
            .insert("a:float".into(), Extra::Float(f64::INFINITY));
        meta.extras
            .insert("a:text".into(), Extra::Text("é\"x".into()));
        meta.extras.insert(
            "a:list".into(),
            Extra::TextList(vec!["a".into(), "".into()]),
        );
        meta.extras
            .insert("a:floats".into(), Extra::Floats(vec![1.0, 2.0]));
        meta.extras
            .insert("a:bytes".into(), Extra::Bytes(vec![0, 255, 7]));
        let text = serde_json::to_string(&meta.to_json()).unwrap();
        let mut problems = Vec::new();
        let back = MeshMeta::from_json(&serde_json::from_str(&text).unwrap(), &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(back.origin.unwrap()[1].to_bits(), (-0.0f32).to_bits());
        // NaN-free, so PartialEq is meaningful apart from the infinite float.
        assert_eq!(back, meta);

        let bad = json!({"kind": "castle", "hooks": [{"name": "x"}], "edge_tags": [[1, 2]],
                         "extras": {"x": {"int": "no"}}, "origin": [1, 2]});
        let mut problems = Vec::new();
        let back = MeshMeta::from_json(&bad, &mut problems);
        assert_eq!(
            problems,
            [
                "extras.walkmesh.kind: \"castle\" is not area, placeable, door or terrain; ignored",
                "extras.walkmesh.origin: expected 3 numbers, found 2; ignored",
                "extras.walkmesh.hooks: hook 0 has no position; ignored",
                "extras.walkmesh.edge_tags: [1,2] is not [polygon, edge, transition]; ignored",
                "extras.walkmesh.extras.x: int is not a 64-bit integer; ignored",
            ]
        );
        assert_eq!(back.kind, None);
        assert!(back.extras.is_empty());

        let bad = json!({"hooks": [{"name": "x", "position": [1]}], "tile_grid": {"columns": 1},
                         "extras": {"b": {"bytes": "%%"}, "u": {"uuid": 1}},
                         "face_attributes": {"f": {"float": {}}}});
        let mut problems = Vec::new();
        MeshMeta::from_json(&bad, &mut problems);
        assert_eq!(
            problems,
            [
                "extras.walkmesh.hooks: hook 0: expected 3 numbers, found 1; ignored",
                "extras.walkmesh.tile_grid: tile_size is missing; ignored",
                "extras.walkmesh.face_attributes.f: expected an array of numbers or {\"f32_bits\": [...]}; ignored",
                "extras.walkmesh.extras.b: bytes is not base64 (position 0); ignored",
                "extras.walkmesh.extras.u: unknown value type 'uuid'; ignored",
            ]
        );
    }

    #[test]
    fn primitive_meta_round_trips() {
        let meta = PrimitiveMeta {
            faces: Some(vec![(0, 3), (10, 1)]),
            sizes: Some(vec![(4, 2), (3, 2)]),
            corners: Some(vec![(1, vec![4, 5, 6, 7])]),
            material: Some(40),
            code: Some(0x1001),
            walkable: Some(false),
        };
        let mut problems = Vec::new();
        let back = PrimitiveMeta::from_json(&meta.to_json(), "p", &mut problems);
        assert!(problems.is_empty());
        assert_eq!(back, meta);
        let back =
            PrimitiveMeta::from_json(&json!({"code": -1, "walkable": 1}), "p", &mut problems);
        assert_eq!(
            problems,
            [
                "p.code: not a 32-bit code; ignored",
                "p.walkable: not true or false; ignored"
            ]
        );
        assert_eq!(back, PrimitiveMeta::default());
        let mut problems = Vec::new();
        PrimitiveMeta::from_json(
            &json!({"corners": [[1, [-1]]], "faces": [[1]]}),
            "p",
            &mut problems,
        );
        assert_eq!(
            problems,
            [
                "p.faces: [1] is not a pair; ignored",
                "p.corners: [1,[-1]]: the corners are not vertex indices; ignored"
            ]
        );
    }
}
