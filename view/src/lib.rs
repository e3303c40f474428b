//! walkmesh-view: the 3-D inspector, one self-contained HTML file.
//!
//! [`page`] writes a page holding everything it needs inline: a small WebGL renderer
//! (`viewer.js`, plain JavaScript, no library), its style sheet, and the data of each mesh as
//! JSON with the large arrays in base64 (vertex positions `f32`, corner and triangle indices
//! `u32`, per-face colours `u8`), the whole JSON gzipped and inlined as base64 (the page
//! unpacks it with the browser's `DecompressionStream`). Nothing is fetched: the page works
//! opened from disk, offline.
//!
//! Per mesh the data carries the face layers and line layers of [`layers`] and the stored
//! fields of every face ([`fields`]), taken from the tree the format's dumper gives to
//! `walkmesh dump`, so the panel of a clicked face shows the same names, offsets and values.
//! With two meshes, a `diff` face layer colours each walkable face by the distance from its
//! centre to the other mesh's walkable surface (walkmesh-diff's distance queries).

pub mod fields;
pub mod layers;
pub mod model;
pub mod tree;
pub mod unpack;

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Serialize;
use serde_json::{Value, json};
use walkmesh_core::dump::DumpNode;
use walkmesh_core::passes::{self, triangulate::triangulate_polygon};
use walkmesh_core::{Diagnostics, Format, Input, NavMesh, ReadError, ReadOptions};
use walkmesh_render::palette;

use crate::fields::FaceFields;
use crate::layers::{FaceLayer, LineLayer};
use crate::model::{ModelOverlay, findings_layer, model_json};
pub use crate::tree::view_tree;

/// The renderer and the page's style, inlined into every page.
const VIEWER_JS: &str = include_str!("viewer.js");
const VIEWER_CSS: &str = include_str!("viewer.css");

/// One mesh to show.
#[derive(Debug, Clone, Copy)]
pub struct ViewInput<'a> {
    /// The name shown (usually the file name).
    pub name: &'a str,
    /// The format id (`bwm`, `trx`, `path`, `obj`, `gltf`), shown on the page.
    pub format: &'a str,
    /// What the format stores beyond the mesh (its
    /// [`walkmesh_core::FormatDescriptor::capabilities`]): which layers and per-face fields
    /// the page shows.
    pub capabilities: walkmesh_core::Capabilities,
    pub mesh: &'a NavMesh,
    /// The field dump of the file, when the format has one and the mesh is the file's.
    pub fields: Option<&'a DumpNode>,
}

/// Why no page could be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ViewError {
    #[error("nothing to show: no input mesh")]
    NoInput,
    #[error("the inspector shows one or two meshes, not {0}")]
    TooMany(usize),
    #[error("cannot pack the page's data: {0}")]
    Pack(String),
}

/// The full field dump of `bytes` (a file of `format`), or `None` when the format has no field
/// dump. [`view_tree`] gives the same page from a much smaller tree.
pub fn field_tree(
    format: &dyn Format,
    bytes: &[u8],
    path: Option<&Path>,
    options: &ReadOptions,
) -> Result<Option<DumpNode>, ReadError> {
    let Some(dumper) = format.dumper() else {
        return Ok(None);
    };
    dumper.dump(Input { bytes, path }, options).map(Some)
}

/// The HTML page showing `inputs` (one or two meshes), titled `title`.
///
/// The page's data is the JSON of [`page_json`], gzipped and base64-encoded inside the page
/// (`viewer.js` undoes both with the browser's `DecompressionStream`): about 7 times smaller
/// than the JSON itself, whose per-face field columns are mostly repeats.
pub fn page(inputs: &[ViewInput<'_>], title: &str) -> Result<String, ViewError> {
    page_with_model(inputs, title, None)
}

/// [`page`] with a model under the first mesh (`view WALKMESH --model MODEL`): its render
/// geometry drawn faintly and the comparison's findings as the `model findings` layer and a
/// list that selects their faces.
pub fn page_with_model(
    inputs: &[ViewInput<'_>],
    title: &str,
    model: Option<&ModelOverlay<'_>>,
) -> Result<String, ViewError> {
    let mut packed = GzEncoder::new(Vec::new(), Compression::new(PAGE_GZIP_LEVEL));
    write_page_json(inputs, title, model, &mut packed)?;
    let packed = packed.finish().map_err(pack_error)?;
    Ok(html(title, &base64(&packed)))
}

/// The gzip level of the page's data: on dm_dungeon (12.9 MB of JSON) level 3 packs it into
/// 1.9 MB against level 1's 3.1 MB for no CPU time that can be measured in the whole process
/// (zlib-rs's level 1 is a much simpler matcher).
const PAGE_GZIP_LEVEL: u32 = 3;

/// The page's data as JSON (what `viewer.js` reads once it is unpacked).
pub fn page_json(inputs: &[ViewInput<'_>], title: &str) -> Result<Vec<u8>, ViewError> {
    page_json_with_model(inputs, title, None)
}

/// [`page_json`] with a model under the first mesh ([`page_with_model`]).
pub fn page_json_with_model(
    inputs: &[ViewInput<'_>],
    title: &str,
    model: Option<&ModelOverlay<'_>>,
) -> Result<Vec<u8>, ViewError> {
    let mut out = Vec::new();
    write_page_json(inputs, title, model, &mut out)?;
    Ok(out)
}

/// Writes the page's data as JSON to `out`, one mesh at a time (no tree of JSON values).
fn write_page_json(
    inputs: &[ViewInput<'_>],
    title: &str,
    model: Option<&ModelOverlay<'_>>,
    out: &mut dyn Write,
) -> Result<(), ViewError> {
    if inputs.is_empty() {
        return Err(ViewError::NoInput);
    }
    if inputs.len() > 2 {
        return Err(ViewError::TooMany(inputs.len()));
    }
    let extra_layers = |i: usize| -> Vec<FaceLayer> {
        let mut layers = match inputs {
            [a, b] => {
                let (this, other) = if i == 0 { (a, b) } else { (b, a) };
                vec![
                    diff_layer(this.mesh, other.mesh, other.name),
                    overlay_layer(this, i),
                ]
            }
            _ => Vec::new(),
        };
        if let (0, Some(model), Some(first)) = (i, model, inputs.first()) {
            layers.push(findings_layer(first.mesh.polygons.len(), model.findings));
        }
        layers
    };
    let title = serde_json::to_string(title).map_err(pack_error)?;
    write!(out, "{{\"title\":{title},\"meshes\":[").map_err(pack_error)?;
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            out.write_all(b",").map_err(pack_error)?;
        }
        let data = mesh_data(input, extra_layers(i));
        serde_json::to_writer(&mut *out, &data).map_err(pack_error)?;
    }
    out.write_all(b"]").map_err(pack_error)?;
    if let Some(model) = model {
        out.write_all(b",\"model\":").map_err(pack_error)?;
        serde_json::to_writer(&mut *out, &model_json(model)).map_err(pack_error)?;
    }
    out.write_all(b"}").map_err(pack_error)
}

fn pack_error(error: impl std::fmt::Display) -> ViewError {
    ViewError::Pack(error.to_string())
}

fn html(title: &str, packed_base64: &str) -> String {
    let title = escape_html(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title} - walkmesh view</title>\n<style>\n{VIEWER_CSS}</style>\n</head>\n<body>\n\
         <div id=\"walkmesh-app\">\n<canvas id=\"walkmesh-canvas\"></canvas>\n\
         <div id=\"walkmesh-controls\"></div>\n<div id=\"walkmesh-legend\"></div>\n\
         <div id=\"walkmesh-selection\"><em>Click a face to see its stored fields.</em></div>\n\
         </div>\n<script id=\"walkmesh-data\" type=\"application/octet-stream\" \
         data-encoding=\"gzip+base64\">{packed_base64}</script>\n\
         <script>\n{VIEWER_JS}</script>\n</body>\n</html>\n"
    )
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Standard base64 (RFC 4648, with padding).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (k, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if k <= chunk.len() {
                let digit = ((n >> shift) & 63) as usize;
                out.push(char::from(ALPHABET.get(digit).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn f32s(values: impl IntoIterator<Item = f32>) -> String {
    base64(
        &values
            .into_iter()
            .flat_map(f32::to_le_bytes)
            .collect::<Vec<u8>>(),
    )
}

fn u32s(values: impl IntoIterator<Item = u32>) -> String {
    base64(
        &values
            .into_iter()
            .flat_map(u32::to_le_bytes)
            .collect::<Vec<u8>>(),
    )
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

fn legend_json(legend: &[([u8; 3], String)]) -> Value {
    legend
        .iter()
        .map(|(c, text)| json!([hex(*c), text]))
        .collect()
}

fn face_layer_json(layer: &FaceLayer) -> Value {
    json!({
        "name": layer.name,
        "colours": base64(&layer.colours.concat()),
        "legend": legend_json(&layer.legend),
    })
}

fn line_layer_json(layer: &LineLayer) -> Value {
    json!({
        "name": layer.name,
        "points": f32s(layer.points.iter().flatten().copied()),
        "colours": base64(&layer.colours.concat()),
        "legend": legend_json(&layer.legend),
    })
}

/// Triangles of every polygon (ear clipping, so concave OBJ n-gons draw right) and the face
/// each triangle belongs to.
pub fn triangles(mesh: &NavMesh) -> (Vec<u32>, Vec<u32>) {
    let mut corners = Vec::with_capacity(mesh.polygons.len() * 3);
    let mut faces = Vec::with_capacity(mesh.polygons.len());
    for (f, polygon) in mesh.polygons.iter().enumerate() {
        if polygon.len() == 3 {
            corners.extend_from_slice(polygon);
            faces.push(f as u32);
            continue;
        }
        let points: Vec<[f32; 3]> = polygon.iter().map(|&v| mesh.vertex(v)).collect();
        for t in triangulate_polygon(&points).triangles {
            for k in t {
                corners.push(polygon.get(k).copied().unwrap_or(0));
            }
            faces.push(f as u32);
        }
    }
    (corners, faces)
}

/// Where each polygon's corners start in the flat corner list, and the list's length.
fn polygon_starts(mesh: &NavMesh) -> Vec<u32> {
    let mut starts: Vec<u32> = (0..mesh.polygons.len())
        .map(|p| mesh.polygons.first_index(p) as u32)
        .collect();
    starts.push(mesh.polygons.iter().map(<[u32]>::len).sum::<usize>() as u32);
    starts
}

fn walkable_flags(mesh: &NavMesh) -> Vec<u8> {
    (0..mesh.polygons.len())
        .map(|f| u8::from(mesh.is_walkable(f)))
        .collect()
}

/// Everything the page needs of one mesh (see `viewer.js`, which reads these names).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MeshData<'a> {
    route: Value,
    name: &'a str,
    format: &'a str,
    faces: usize,
    walkable: Vec<u8>,
    vertices: String,
    polygon_starts: String,
    polygon_corners: String,
    triangles: String,
    triangle_face: String,
    face_layers: Vec<Value>,
    line_layers: Vec<Value>,
    fields: FaceFields,
    has_field_dump: bool,
}

/// The data of one mesh, with `extra_layers` after its own face layers.
fn mesh_data<'a>(input: &ViewInput<'a>, extra_layers: Vec<FaceLayer>) -> MeshData<'a> {
    let mesh = input.mesh;
    let fields = match input.fields {
        Some(tree) => fields::from_dump(tree, input.capabilities, mesh),
        None => fields::from_mesh(mesh),
    };
    let mut face_layers = layers::face_layers(mesh, input.capabilities, &fields);
    face_layers.extend(extra_layers);
    let line_layers = layers::line_layers(mesh, input.capabilities, input.fields);
    let (corners, triangle_face) = triangles(mesh);
    // The router works on the mesh as `walkmesh route` reads it (welded when the format's
    // vertex sharing is incidental); carried only when that differs from the mesh shown.
    let modelled = passes::as_modelled(mesh, &mut Diagnostics::new());
    let route = match &modelled {
        Cow::Owned(welded) => json!({
            "vertices": f32s(welded.vertices.iter().flatten().copied()),
            "polygonStarts": u32s(polygon_starts(welded)),
            "polygonCorners": u32s(welded.polygons.iter().flatten().copied()),
            "walkable": walkable_flags(welded),
        }),
        Cow::Borrowed(_) => Value::Null,
    };
    MeshData {
        route,
        name: input.name,
        format: input.format,
        faces: mesh.polygons.len(),
        walkable: walkable_flags(mesh),
        vertices: f32s(mesh.vertices.iter().flatten().copied()),
        polygon_starts: u32s(polygon_starts(mesh)),
        polygon_corners: u32s(mesh.polygons.iter().flatten().copied()),
        triangles: u32s(corners),
        triangle_face: u32s(triangle_face),
        face_layers: face_layers.iter().map(face_layer_json).collect(),
        line_layers: line_layers.iter().map(line_layer_json).collect(),
        fields,
        has_field_dump: input.fields.is_some(),
    }
}

/// The `overlay` layer of two meshes: every face of input `index` in that input's colour.
fn overlay_layer(input: &ViewInput<'_>, index: usize) -> FaceLayer {
    let c = palette::overlay(index);
    let colour = [c.0, c.1, c.2];
    FaceLayer {
        name: "overlay",
        colours: vec![colour; input.mesh.polygons.len()],
        legend: vec![(colour, format!("{} (input {})", input.name, index + 1))],
    }
}

/// Faces of `mesh` whose centre is farther than this from the other mesh count as different.
pub const SAME_WITHIN: f64 = 0.01;

/// The `diff` layer of `mesh` against `other`: walkable faces coloured by the distance from
/// their centre to `other`'s walkable surface (same within [`SAME_WITHIN`]: pale; farther:
/// the render ramp, darkest at the largest distance); faces that are not walkable grey.
pub fn diff_layer(mesh: &NavMesh, other: &NavMesh, other_name: &str) -> FaceLayer {
    let triangles = walkmesh_diff::distance::walkable_triangles(other, [0.0; 3]);
    let surface = walkmesh_diff::distance::TriangleDistanceIndex::new(&triangles);
    let mut stack = Vec::new();
    let distances: Vec<Option<f64>> = (0..mesh.polygons.len())
        .map(|f| {
            mesh.is_walkable(f).then(|| {
                let c = layers::centroid(mesh, f);
                surface.distance(c.map(f64::from), &mut stack)
            })
        })
        .collect();
    let largest = distances
        .iter()
        .flatten()
        .copied()
        .filter(|d| d.is_finite())
        .fold(0.0f64, f64::max);
    const SAME: [u8; 3] = [200, 225, 200];
    const OFF: [u8; 3] = [150, 150, 150];
    let far = |d: f64| {
        let t = if largest > 0.0 { d / largest } else { 1.0 };
        let c = palette::ramp(1.0 - t.clamp(0.0, 1.0) * 0.85);
        [c.0, c.1, c.2]
    };
    let mut differing = 0;
    let colours = distances
        .iter()
        .map(|d| match d {
            None => OFF,
            Some(d) if *d <= SAME_WITHIN => SAME,
            Some(d) => {
                differing += 1;
                far(if d.is_finite() { *d } else { largest })
            }
        })
        .collect();
    FaceLayer {
        name: "diff",
        colours,
        legend: vec![
            (
                SAME,
                format!("walkable, within {SAME_WITHIN} m of {other_name}"),
            ),
            (
                far(largest),
                format!("{differing} walkable faces farther (darkest: {largest:.3} m)"),
            ),
            (OFF, "not walkable".into()),
        ],
    }
}

impl walkmesh_core::Kinded for ViewError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            ViewError::NoInput => ErrorKind::Parameter,
            ViewError::TooMany(_) => ErrorKind::Limit,
            ViewError::Pack(_) => ErrorKind::Io,
        }
    }
}

#[cfg(test)]
mod tests;
