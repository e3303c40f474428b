//! glTF reader: the triangles of every mesh primitive in one scene, node transforms applied,
//! converted to the IR's Z-up axes; surfaces from material names; walkmesh metadata from
//! `extras`.
//!
//! Accessors are decoded here rather than through `gltf`'s reader utilities so that every
//! offset, stride and count is checked against the bytes that exist before anything is
//! allocated, with errors naming the accessor.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use gltf_json as json;
use json::accessor::ComponentType;
use json::validation::Checked;
use serde_json::Value;
use walkmesh_core::{
    Diagnostics, Hook, Input, Material, MaterialProfile, NavMesh, Position, Provenance, ReadError,
    ReadOptions, Severity, Surface, UpAxis, VertexIdentity, material::DefaultRule,
    validate::steep_walkable_share,
};

use walkmesh_core::cursor::ByteCursor;

use crate::base64;
use crate::meta::{self, MeshMeta, PrimitiveMeta};
use crate::transitions;

const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// Required extensions that do not change geometry, so a walkmesh reader may ignore them.
const HARMLESS_REQUIRED: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_materials_unlit",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_variants",
    "KHR_texture_transform",
    "KHR_texture_basisu",
    "KHR_lights_punctual",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "MSFT_texture_dds",
];

/// The JSON and binary parts of the input.
pub(crate) struct Container<'a> {
    pub(crate) json: &'a [u8],
    pub(crate) json_offset: u64,
    pub(crate) bin: Option<&'a [u8]>,
    /// File offset of the BIN chunk's data.
    pub(crate) bin_offset: Option<u64>,
    pub(crate) glb: bool,
    /// `.glb` chunks as (offset of the chunk header, data length, type).
    pub(crate) chunks: Vec<(u64, u64, u32)>,
}

pub(crate) fn split_container<'a>(
    bytes: &'a [u8],
    diag: &mut Diagnostics,
) -> Result<Container<'a>, ReadError> {
    if !bytes.starts_with(b"glTF") {
        // JSON form; a UTF-8 byte-order mark is not allowed by the spec but harmless.
        let (json, offset) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) => (rest, 3),
            None => (bytes, 0),
        };
        return Ok(Container {
            json,
            json_offset: offset,
            bin: None,
            bin_offset: None,
            glb: false,
            chunks: Vec::new(),
        });
    }
    let total = bytes.len();
    // The bounds of every read are core's cursor's; the messages say what a .glb needs.
    let mut header = ByteCursor::little(bytes);
    header.skip(4, "header.magic")?;
    let version = header.u32("header.version").map_err(|_| {
        ReadError::at_offset(
            4,
            "header.version",
            format!(
                "a .glb file starts with a 12-byte header, but the file has only {total} bytes"
            ),
        )
    })?;
    if version != 2 {
        return Err(ReadError::at_offset(
            4,
            "header.version",
            format!("the .glb container version is {version}; only glTF 2 is supported"),
        )
        .with_kind(walkmesh_core::ErrorKind::Unsupported));
    }
    let length = header.u32("header.length").map_err(|_| {
        ReadError::at_offset(
            8,
            "header.length",
            format!(
                "a .glb file starts with a 12-byte header, but the file has only {total} bytes"
            ),
        )
    })? as usize;
    if length > total {
        return Err(ReadError::at_offset(
            8,
            "header.length",
            format!("the header says the file has {length} bytes, but it has {total} (truncated?)"),
        )
        .with_kind(walkmesh_core::ErrorKind::Truncated));
    }
    if length < 20 {
        return Err(ReadError::at_offset(
            8,
            "header.length",
            format!("the header length {length} leaves no room for the JSON chunk"),
        ));
    }
    if length < total {
        diag.push(
            Severity::Warning,
            "gltf.trailing_bytes",
            Position::Offset(length as u64),
            None,
            format!(
                "{} bytes after the length the header gives were ignored",
                total - length
            ),
        );
    }
    let data = bytes.get(..length).unwrap_or(bytes);
    let mut c = ByteCursor::little(data);
    c.seek(12, "chunks")?;
    let mut chunk = 0usize;
    let mut json = None;
    let mut bin = None;
    let mut chunks = Vec::new();
    while c.remaining() > 0 {
        let offset = c.pos();
        let field = format!("chunks[{chunk}]");
        let header_error = |_| {
            ReadError::at_offset(
                offset as u64,
                format!("{field}.chunkLength"),
                format!(
                    "a chunk header needs 8 bytes, but only {} remain in the file",
                    length - offset
                ),
            )
            .with_kind(walkmesh_core::ErrorKind::Truncated)
        };
        let chunk_length = c.u32("chunkLength").map_err(header_error)?;
        let chunk_type = c.u32("chunkType").map_err(header_error)?;
        let start = c.pos();
        let content = c.take(chunk_length as usize, "chunkData").map_err(|_| {
            ReadError::at_offset(
                offset as u64,
                format!("{field}.chunkLength"),
                format!(
                    "the chunk says it has {chunk_length} bytes, but only {} remain in the file (truncated?)",
                    length - start
                ),
            ).with_kind(walkmesh_core::ErrorKind::Truncated)
        })?;
        chunks.push((offset as u64, u64::from(chunk_length), chunk_type));
        match (chunk, chunk_type) {
            (0, CHUNK_JSON) => json = Some((content, start as u64)),
            (0, _) => {
                return Err(ReadError::at_offset(
                    (offset + 4) as u64,
                    format!("{field}.chunkType"),
                    format!("the first chunk must be JSON (0x4E4F534A), found {chunk_type:#010x}"),
                ));
            }
            (_, CHUNK_BIN) if bin.is_none() => bin = Some((content, start as u64)),
            // Unknown chunk types must be ignored (glTF 2.0, 4.4.3).
            _ => {}
        }
        chunk += 1;
    }
    let (json, json_offset) = json
        .ok_or_else(|| ReadError::at_offset(12, "chunks[0]", "the .glb file has no JSON chunk"))?;
    Ok(Container {
        json,
        json_offset,
        bin: bin.map(|(content, _)| content),
        bin_offset: bin.map(|(_, start)| start),
        glb: true,
        chunks,
    })
}

fn parse_root(container: &Container<'_>) -> Result<json::Root, ReadError> {
    let mut value = serde_json::from_slice::<Value>(container.json).map_err(|e| {
        let message = format!("not valid JSON: {e}");
        if container.glb {
            // GLB JSON is normally one line, so the column is a byte position.
            if e.line() == 1 {
                ReadError::at_offset(
                    container.json_offset + e.column().saturating_sub(1) as u64,
                    "json",
                    message,
                )
            } else {
                ReadError::at_offset(container.json_offset, "json", message)
            }
        } else {
            ReadError::at_line(e.line() as u64, "json", message)
        }
    })?;
    // gltf-json 1.4 insists on `scenes[i].nodes`, which the glTF schema makes optional.
    if let Some(scenes) = value.get_mut("scenes").and_then(Value::as_array_mut) {
        for scene in scenes {
            if let Some(scene) = scene.as_object_mut() {
                scene
                    .entry("nodes")
                    .or_insert_with(|| Value::Array(Vec::new()));
            }
        }
    }
    serde_json::from_value::<json::Root>(value).map_err(|e| {
        ReadError::at_offset(
            container.json_offset,
            "json",
            format!("not a glTF 2.0 document: {e}"),
        )
    })
}

/// Buffer contents, resolved on first use (unused external files are never opened).
struct Buffers<'a> {
    bin: Option<&'a [u8]>,
    glb: bool,
    path: Option<&'a Path>,
    data: Vec<Option<Cow<'a, [u8]>>>,
    /// The buffer files read, as named beside the input (for dependency files).
    files_read: Vec<PathBuf>,
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(byte);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Why a buffer file named by a relative URI is not read ([`confined_file`]).
#[derive(Debug, thiserror::Error)]
enum BufferFileRefusal {
    #[error("the glTF file's folder cannot be resolved: {0}")]
    FolderUnresolved(std::io::Error),
    #[error("{} cannot be resolved: {source}", .path.display())]
    Unresolved {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "it resolves to {}, outside the glTF file's folder {}; only data: URIs and files in that folder are read",
        .resolved.display(),
        .folder.display()
    )]
    OutsideFolder { resolved: PathBuf, folder: PathBuf },
    #[error("{} cannot be examined: {source}", .path.display())]
    Unexamined {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} is not a regular file (a folder, device, pipe or socket)",
        .path.display()
    )]
    NotARegularFile { path: PathBuf },
}

/// The file `name` (a decoded relative URI) beside the glTF file `base`, when it is a regular
/// file inside the glTF file's own folder once `..` and links are resolved. Devices, pipes,
/// sockets and anything outside the folder are refused: a glTF file must not make us read
/// `/dev/zero`, block on a named pipe, or reveal files elsewhere.
fn confined_file(base: &Path, name: &str) -> Result<PathBuf, BufferFileRefusal> {
    let folder = base.parent().unwrap_or(Path::new(""));
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let root = folder
        .canonicalize()
        .map_err(BufferFileRefusal::FolderUnresolved)?;
    let candidate = folder.join(name);
    let resolved = candidate
        .canonicalize()
        .map_err(|source| BufferFileRefusal::Unresolved {
            path: candidate,
            source,
        })?;
    if !resolved.starts_with(&root) {
        return Err(BufferFileRefusal::OutsideFolder {
            resolved,
            folder: root,
        });
    }
    // `metadata` follows links, and `resolved` has none left: this is the file itself.
    let kind = match std::fs::metadata(&resolved) {
        Ok(metadata) => metadata.file_type(),
        Err(source) => {
            return Err(BufferFileRefusal::Unexamined {
                path: resolved,
                source,
            });
        }
    };
    if !kind.is_file() {
        return Err(BufferFileRefusal::NotARegularFile { path: resolved });
    }
    Ok(resolved)
}

impl<'a> Buffers<'a> {
    fn ensure(&mut self, root: &json::Root, index: usize) -> Result<(), ReadError> {
        if self.data.get(index).is_some_and(Option::is_some) {
            return Ok(());
        }
        let field = format!("buffers[{index}]");
        let buffer = root.buffers.get(index).ok_or_else(|| {
            ReadError::whole(field.clone(), format!("buffer {index} does not exist"))
        })?;
        let declared = buffer.byte_length.0;
        let mut bytes: Cow<'a, [u8]> = match buffer.uri.as_deref() {
            None if self.glb && index == 0 => Cow::Borrowed(self.bin.ok_or_else(|| {
                ReadError::whole(
                    field.clone(),
                    "buffer 0 has no uri, so it is the .glb BIN chunk, but the file has none",
                )
            })?),
            None => {
                return Err(ReadError::whole(
                    format!("{field}.uri"),
                    format!(
                        "buffer {index} has no uri (only the first buffer of a .glb may omit it)"
                    ),
                ));
            }
            Some(uri) if uri.starts_with("data:") => {
                let (_, payload) = uri.split_once(";base64,").ok_or_else(|| {
                    ReadError::whole(
                        format!("{field}.uri"),
                        "only base64 data: URIs are supported",
                    )
                    .with_kind(walkmesh_core::ErrorKind::Unsupported)
                })?;
                Cow::Owned(base64::decode(payload).map_err(|at| {
                    ReadError::whole(
                        format!("{field}.uri"),
                        format!(
                            "the data: URI is not valid base64 (at character {at} of the payload)"
                        ),
                    )
                })?)
            }
            Some(uri) => Cow::Owned(self.external(index, uri, declared)?),
        };
        let available = bytes.len() as u64;
        if available < declared {
            return Err(ReadError::whole(
                format!("{field}.byteLength"),
                format!("the buffer declares {declared} bytes, but only {available} are available"),
            ));
        }
        // Views may only reach what the buffer declares.
        if available > declared {
            let declared = declared as usize;
            bytes = match bytes {
                Cow::Borrowed(b) => Cow::Borrowed(b.get(..declared).unwrap_or(b)),
                Cow::Owned(mut v) => {
                    v.truncate(declared);
                    Cow::Owned(v)
                }
            };
        }
        if self.data.len() <= index {
            self.data.resize(index + 1, None);
        }
        if let Some(slot) = self.data.get_mut(index) {
            *slot = Some(bytes);
        }
        Ok(())
    }

    /// Reads a buffer file named by a relative URI, beside the glTF file; at most `declared`
    /// bytes are read.
    fn external(&mut self, index: usize, uri: &str, declared: u64) -> Result<Vec<u8>, ReadError> {
        let field = format!("buffers[{index}].uri");
        let scheme = uri
            .find(':')
            .is_some_and(|colon| uri.find('/').is_none_or(|slash| colon < slash));
        if scheme || uri.starts_with('/') || uri.starts_with('\\') {
            return Err(ReadError::whole(
                field,
                format!(
                    "'{uri}' is not a relative file reference; only data: URIs and files beside the glTF file are read"
                ),
            ));
        }
        let name = percent_decode(uri).ok_or_else(|| {
            ReadError::whole(field.clone(), format!("'{uri}' has a bad %-escape"))
        })?;
        let Some(base) = self.path else {
            return Err(ReadError::whole(
                field,
                format!(
                    "buffer {index} is the external file '{name}', but the input was given without a path to resolve it against"
                ),
            ));
        };
        let file = confined_file(base, &name).map_err(|why| {
            ReadError::whole(
                field.clone(),
                format!("the buffer file '{name}' is not read: {why}"),
            )
        })?;
        self.files_read
            .push(base.parent().unwrap_or(Path::new("")).join(&name));
        let opened = walkmesh_core::files::open(&file).map_err(|e| {
            ReadError::whole(
                field.clone(),
                format!(
                    "cannot open the buffer file '{name}' ({}): {e}",
                    file.display()
                ),
            )
        })?;
        // Checked again on the open file, in case the name was swapped meanwhile.
        if !opened.metadata().is_ok_and(|m| m.is_file()) {
            return Err(ReadError::whole(
                field,
                format!("the buffer file '{name}' is not a regular file"),
            ));
        }
        let size = opened.metadata().map(|m| m.len()).unwrap_or(declared);
        let mut bytes = Vec::with_capacity(size.min(declared) as usize);
        opened.take(declared).read_to_end(&mut bytes).map_err(|e| {
            ReadError::whole(
                field,
                format!(
                    "cannot read the buffer file '{name}' ({}): {e}",
                    file.display()
                ),
            )
        })?;
        Ok(bytes)
    }

    fn get(&self, index: usize) -> &[u8] {
        self.data
            .get(index)
            .and_then(Option::as_deref)
            .unwrap_or(&[])
    }
}

/// Budget of output bytes (positions and indices); instancing a large mesh through many
/// nodes is the glTF equivalent of a decompression bomb.
struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    fn take(&mut self, bytes: u64, field: &str) -> Result<(), ReadError> {
        if bytes > self.left {
            return Err(ReadError::whole(
                field,
                format!(
                    "the scene expands to more than {} bytes of mesh data (the read limit); raise the limit to read it",
                    self.limit
                ),
            ));
        }
        self.left -= bytes;
        Ok(())
    }
}

fn component_size(component: ComponentType) -> usize {
    match component {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn dimensions(kind: json::accessor::Type) -> usize {
    use json::accessor::Type;
    match kind {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// Where an accessor's elements sit: element `k` is `bytes[k * stride ..][..element]`.
struct Layout<'b> {
    bytes: &'b [u8],
    stride: usize,
    element: usize,
    count: usize,
}

impl Layout<'_> {
    fn element(&self, k: usize) -> &[u8] {
        k.checked_mul(self.stride)
            .and_then(|start| self.bytes.get(start..start.checked_add(self.element)?))
            .unwrap_or(&[])
    }
}

/// Elements wanted from a buffer view; `packed` ignores the view's stride (sparse data).
struct ViewRequest {
    view: usize,
    offset: u64,
    count: u64,
    element: usize,
    packed: bool,
}

/// Checks that `count` elements of `element` bytes at `offset` with `stride` fit in view
/// `view_index`, and returns their layout.
fn view_layout<'b>(
    root: &json::Root,
    buffers: &'b Buffers<'_>,
    request: ViewRequest,
    field: &str,
) -> Result<Layout<'b>, ReadError> {
    let ViewRequest {
        view: view_index,
        offset,
        count,
        element,
        packed,
    } = request;
    let view = root.buffer_views.get(view_index).ok_or_else(|| {
        ReadError::whole(field, format!("buffer view {view_index} does not exist"))
    })?;
    let view_field = format!("bufferViews[{view_index}]");
    let buffer = buffers.get(view.buffer.value());
    let view_offset = view.byte_offset.map_or(0, |o| o.0);
    let view_length = view.byte_length.0;
    // Bounds through core's cursor: the view inside its buffer, the elements inside the view.
    let view_bytes = match ByteCursor::little(buffer).table_room(view_offset, view_length, 1) {
        Ok(range) => buffer.get(range).unwrap_or(&[]),
        Err(_) => {
            return Err(ReadError::whole(
                view_field,
                format!(
                    "the view covers bytes {view_offset}..{} of buffer {}, which has {} bytes",
                    view_offset.saturating_add(view_length),
                    view.buffer.value(),
                    buffer.len()
                ),
            ));
        }
    };
    let stride = match view.byte_stride {
        Some(stride) if !packed => stride.0,
        _ => element,
    };
    if stride < element {
        return Err(ReadError::whole(
            format!("{view_field}.byteStride"),
            format!("the stride {stride} is smaller than the element size {element} of {field}"),
        ));
    }
    // Needed: offset + stride * (count - 1) + element <= view length.
    let Ok(elements) =
        ByteCursor::little(view_bytes).strided_room(offset, count, stride as u64, element as u64)
    else {
        return Err(ReadError::whole(
            field,
            format!(
                "{count} elements of {element} bytes with stride {stride} from offset {offset} do not fit in buffer view {view_index} of {view_length} bytes"
            ),
        ));
    };
    Ok(Layout {
        bytes: view_bytes.get(elements.start..).unwrap_or(&[]),
        stride,
        element,
        count: count as usize,
    })
}

fn checked<T: Copy>(value: &Checked<T>, field: &str) -> Result<T, ReadError> {
    match value {
        Checked::Valid(v) => Ok(*v),
        Checked::Invalid => Err(ReadError::whole(field, "the value is not valid")),
    }
}

/// Reads every buffer an accessor needs, then yields its decoded elements as `f64`
/// components through `emit(element, components)`.
fn read_accessor(
    root: &json::Root,
    buffers: &mut Buffers<'_>,
    budget: &mut Budget,
    index: usize,
    expect_dims: usize,
    bytes_per_output: u64,
    mut emit: impl FnMut(&[f64]) -> Result<(), ReadError>,
) -> Result<usize, ReadError> {
    let field = format!("accessors[{index}]");
    let accessor = root.accessors.get(index).ok_or_else(|| {
        ReadError::whole(field.clone(), format!("accessor {index} does not exist"))
    })?;
    let component = checked(&accessor.component_type, &format!("{field}.componentType"))?.0;
    let kind = checked(&accessor.type_, &format!("{field}.type"))?;
    let dims = dimensions(kind);
    if dims != expect_dims {
        return Err(ReadError::whole(
            format!("{field}.type"),
            format!("expected {expect_dims} component(s) per element, the accessor has {dims}"),
        ));
    }
    let size = component_size(component);
    let element = size * dims;
    let count = accessor.count.0;
    // Every element becomes output; the budget bounds accessors without a buffer view too.
    budget.take(
        count.saturating_mul(bytes_per_output),
        &format!("{field}.count"),
    )?;
    let offset = accessor.byte_offset.map_or(0, |o| o.0);
    for view in [
        accessor.buffer_view.map(|v| v.value()),
        accessor
            .sparse
            .as_ref()
            .map(|s| s.indices.buffer_view.value()),
        accessor
            .sparse
            .as_ref()
            .map(|s| s.values.buffer_view.value()),
    ]
    .into_iter()
    .flatten()
    {
        let buffer = root
            .buffer_views
            .get(view)
            .map(|v| v.buffer.value())
            .ok_or_else(|| {
                ReadError::whole(field.clone(), format!("buffer view {view} does not exist"))
            })?;
        buffers.ensure(root, buffer)?;
    }
    let buffers = &*buffers;
    let base = match accessor.buffer_view {
        Some(view) => {
            if offset % size as u64 != 0 {
                return Err(ReadError::whole(
                    format!("{field}.byteOffset"),
                    format!("offset {offset} is not a multiple of the component size {size}"),
                ));
            }
            Some(view_layout(
                root,
                buffers,
                ViewRequest {
                    view: view.value(),
                    offset,
                    count,
                    element,
                    packed: false,
                },
                &field,
            )?)
        }
        None => None,
    };
    // Sparse substitutions, by element index.
    let mut substitutes: HashMap<usize, usize> = HashMap::new();
    let mut sparse_values = None;
    if let Some(sparse) = &accessor.sparse {
        let sparse_field = format!("{field}.sparse");
        let sparse_count = sparse.count.0;
        if sparse_count > count {
            return Err(ReadError::whole(
                format!("{sparse_field}.count"),
                format!("{sparse_count} substitutions for an accessor of {count} elements"),
            ));
        }
        let index_component = checked(
            &sparse.indices.component_type,
            &format!("{sparse_field}.indices.componentType"),
        )?
        .0;
        let index_size = component_size(index_component);
        let indices = view_layout(
            root,
            buffers,
            ViewRequest {
                view: sparse.indices.buffer_view.value(),
                offset: sparse.indices.byte_offset.0,
                count: sparse_count,
                element: index_size,
                packed: true,
            },
            &format!("{sparse_field}.indices"),
        )?;
        let values = view_layout(
            root,
            buffers,
            ViewRequest {
                view: sparse.values.buffer_view.value(),
                offset: sparse.values.byte_offset.0,
                count: sparse_count,
                element,
                packed: true,
            },
            &format!("{sparse_field}.values"),
        )?;
        for k in 0..indices.count {
            let target = unsigned(indices.element(k), index_component);
            if target >= count {
                return Err(ReadError::whole(
                    format!("{sparse_field}.indices"),
                    format!(
                        "substitution {k} targets element {target}, but the accessor has {count}"
                    ),
                ));
            }
            substitutes.insert(target as usize, k);
        }
        sparse_values = Some(values);
    }
    let mut components = vec![0.0f64; dims];
    let normalized = accessor.normalized;
    for k in 0..count as usize {
        // Hashing only when there are substitutions keeps the common case fast.
        let substitute = if substitutes.is_empty() {
            None
        } else {
            substitutes.get(&k)
        };
        let bytes = match (substitute, &sparse_values, &base) {
            (Some(&s), Some(values), _) => values.element(s),
            (_, _, Some(base)) => base.element(k),
            _ => &[],
        };
        for (d, slot) in components.iter_mut().enumerate() {
            *slot = bytes
                .get(d * size..(d + 1) * size)
                .map_or(0.0, |c| decode_component(c, component, normalized));
        }
        emit(&components)?;
    }
    Ok(count as usize)
}

/// Indices of a plain accessor (a buffer view, no sparse part, unsigned components) decoded
/// directly, about three times faster than the generic path; `None` when the accessor is not
/// plain. Checks are the same: the layout against the view and buffer, the budget, and every
/// index against `vertex_count`.
fn plain_indices(
    root: &json::Root,
    buffers: &mut Buffers<'_>,
    budget: &mut Budget,
    index: usize,
    vertex_count: usize,
    field: &str,
) -> Result<Option<Vec<u32>>, ReadError> {
    let accessor_field = format!("accessors[{index}]");
    let Some(accessor) = root.accessors.get(index) else {
        return Ok(None);
    };
    let (Some(view), None, Checked::Valid(json::accessor::Type::Scalar)) =
        (accessor.buffer_view, &accessor.sparse, accessor.type_)
    else {
        return Ok(None);
    };
    let component = match accessor.component_type {
        Checked::Valid(json::accessor::GenericComponentType(
            c @ (ComponentType::U8 | ComponentType::U16 | ComponentType::U32),
        )) => c,
        _ => return Ok(None),
    };
    let size = component_size(component);
    let offset = accessor.byte_offset.map_or(0, |o| o.0);
    if offset % size as u64 != 0 {
        return Ok(None);
    }
    let Some(buffer) = root
        .buffer_views
        .get(view.value())
        .map(|v| v.buffer.value())
    else {
        return Ok(None);
    };
    buffers.ensure(root, buffer)?;
    let count = accessor.count.0;
    let layout = view_layout(
        root,
        buffers,
        ViewRequest {
            view: view.value(),
            offset,
            count,
            element: size,
            packed: false,
        },
        &accessor_field,
    )?;
    budget.take(count.saturating_mul(4), &format!("{accessor_field}.count"))?;
    let mut indices = Vec::with_capacity(layout.count);
    for k in 0..layout.count {
        let value = unsigned(layout.element(k), component);
        if value >= vertex_count as u64 {
            return Err(ReadError::whole(
                accessor_field,
                format!(
                    "index {k} of {field} is {value}, but its POSITION accessor has {vertex_count} vertices"
                ),
            ));
        }
        indices.push(value as u32);
    }
    Ok(Some(indices))
}

fn unsigned(bytes: &[u8], component: ComponentType) -> u64 {
    match (component, bytes) {
        (ComponentType::U8 | ComponentType::I8, [a, ..]) => u64::from(*a),
        (ComponentType::U16 | ComponentType::I16, [a, b, ..]) => {
            u64::from(u16::from_le_bytes([*a, *b]))
        }
        (ComponentType::U32 | ComponentType::F32, [a, b, c, d, ..]) => {
            u64::from(u32::from_le_bytes([*a, *b, *c, *d]))
        }
        _ => u64::MAX,
    }
}

fn decode_component(bytes: &[u8], component: ComponentType, normalized: bool) -> f64 {
    match (component, bytes) {
        (ComponentType::F32, [a, b, c, d]) => f64::from(f32::from_le_bytes([*a, *b, *c, *d])),
        (ComponentType::I8, [a]) => {
            let v = f64::from(*a as i8);
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        (ComponentType::U8, [a]) => {
            let v = f64::from(*a);
            if normalized { v / 255.0 } else { v }
        }
        (ComponentType::I16, [a, b]) => {
            let v = f64::from(i16::from_le_bytes([*a, *b]));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        (ComponentType::U16, [a, b]) => {
            let v = f64::from(u16::from_le_bytes([*a, *b]));
            if normalized { v / 65535.0 } else { v }
        }
        (ComponentType::U32, [a, b, c, d]) => f64::from(u32::from_le_bytes([*a, *b, *c, *d])),
        _ => 0.0,
    }
}

/// Column-major 4×4 matrix.
type Matrix = [f64; 16];

const IDENTITY: Matrix = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [0.0; 16];
    for column in 0..4 {
        for row in 0..4 {
            out[column * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[column * 4 + k]).sum();
        }
    }
    out
}

/// A rotation entry within 1e-6 of 0 or ±1 made exactly that: an `f32` quaternion cannot
/// hold a quarter turn exactly (`0.70710677` is not √½), and the few-ulp residue would keep
/// vertices that two objects share (parent × child against the parent alone) from landing
/// on the same `f32`, so they would not weld.
fn snap_unit(entry: f64) -> f64 {
    for target in [0.0, 1.0, -1.0] {
        if (entry - target).abs() < 1e-6 {
            return target;
        }
    }
    entry
}

/// The node's local matrix, `None` when it is exactly the identity (so positions are copied
/// bit for bit).
fn local_matrix(node: &json::Node) -> Option<Matrix> {
    if let Some(m) = node.matrix {
        let mut m = m.map(f64::from);
        for column in 0..3 {
            for row in 0..3 {
                if let Some(entry) = m.get_mut(column * 4 + row) {
                    *entry = snap_unit(*entry);
                }
            }
        }
        return (m != IDENTITY).then_some(m);
    }
    let t = node.translation.unwrap_or([0.0; 3]).map(f64::from);
    let q = node
        .rotation
        .map_or([0.0, 0.0, 0.0, 1.0], |r| r.0)
        .map(f64::from);
    let s = node.scale.unwrap_or([1.0; 3]).map(f64::from);
    if t == [0.0; 3] && q == [0.0, 0.0, 0.0, 1.0] && s == [1.0; 3] {
        return None;
    }
    let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let [x, y, z, w] = if norm > 0.0 {
        q.map(|c| c / norm)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    };
    // Rotation matrix of a unit quaternion, column-major, columns scaled by s.
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + z * w),
            2.0 * (x * z - y * w),
        ],
        [
            2.0 * (x * y - z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + x * w),
        ],
        [
            2.0 * (x * z + y * w),
            2.0 * (y * z - x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let mut m = IDENTITY;
    for column in 0..3 {
        for row in 0..3 {
            m[column * 4 + row] = snap_unit(r[column][row]) * s[column];
        }
    }
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    Some(m)
}

fn determinant3(m: &Matrix) -> f64 {
    m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
        + m[8] * (m[1] * m[6] - m[5] * m[2])
}

/// IR point (Z-up) of a glTF point: Y-up by the spec, IR (x, y, z) = glTF (x, −z, y); with
/// `--up z` (Blender's exporter with "+Y Up" unticked) the axes are taken as they are.
fn to_ir(up: UpAxis, p: [f32; 3]) -> [f32; 3] {
    match up {
        UpAxis::Y => [p[0], -p[2], p[1]],
        UpAxis::Z => p,
    }
}

/// What one primitive contributed, for applying per-primitive metadata afterwards.
struct PrimitiveRecord {
    first_polygon: usize,
    polygon_count: usize,
    meta: Option<PrimitiveMeta>,
    /// False when the primitive's metadata did not match its geometry.
    meta_fits: bool,
}

struct Reading<'a, 'o> {
    root: &'a json::Root,
    buffers: Buffers<'a>,
    budget: Budget,
    profile: Cow<'o, MaterialProfile>,
    default_rule: DefaultRule,
    up: UpAxis,
    mesh: NavMesh,
    records: Vec<PrimitiveRecord>,
    problems: Vec<String>,
    /// Unknown material names in order of first use (key `1 + index`; key 0 = no material).
    unknown_names: Vec<String>,
    /// Polygon ranges that got a default surface: `(first, end, key)`.
    defaulted: Vec<(usize, usize, usize)>,
    /// Transition tags `(in, out)` of each vertex from `TEXCOORD_0` (see `transitions`);
    /// empty while no primitive has texture coordinates.
    tag_pairs: Vec<Option<[u8; 2]>>,
    /// Texture coordinates that are not tag values (a real texture map).
    foreign_texcoords: usize,
    skipped_degenerate: usize,
}

fn parse_extras(extras: &json::Extras, field: &str, problems: &mut Vec<String>) -> Option<Value> {
    let raw = extras.as_ref()?;
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(Value::Object(mut map)) => map.remove(meta::KEY),
        Ok(_) => None,
        Err(e) => {
            problems.push(format!("{field}.extras is not valid JSON ({e}); ignored"));
            None
        }
    }
}

impl Reading<'_, '_> {
    /// The surface for a primitive's material, and the default key when the name is missing
    /// (0) or unknown (`1 + index` into `unknown_names`).
    fn surface_for(&mut self, material: Option<usize>) -> (Surface, Option<usize>) {
        let Some(material) = material else {
            return (self.default_rule.floor, Some(0));
        };
        let name = self
            .root
            .materials
            .get(material)
            .and_then(|m| m.name.clone())
            .unwrap_or_default();
        if let Some(surface) = self.profile.surface_for_tool_name(&name) {
            return (surface, None);
        }
        let label = if name.is_empty() {
            format!("(unnamed material {material})")
        } else {
            name
        };
        let key = match self.unknown_names.iter().position(|known| *known == label) {
            Some(index) => index + 1,
            None => {
                self.unknown_names.push(label);
                self.unknown_names.len()
            }
        };
        (self.default_rule.floor, Some(key))
    }

    /// Reads mesh `mesh_index` under the node's `world` transform: each primitive in turn
    /// ([`Reading::read_primitive`]). Primitives of one node instance that share a POSITION
    /// accessor share vertices.
    fn read_mesh(&mut self, mesh_index: usize, world: Option<&Matrix>) -> Result<(), ReadError> {
        let root = self.root;
        let Some(mesh) = root.meshes.get(mesh_index) else {
            return Err(ReadError::whole(
                "meshes",
                format!("mesh {mesh_index} does not exist"),
            ));
        };
        // Primitives of one node instance that share a POSITION accessor share vertices.
        let mut bases: HashMap<usize, (u32, usize)> = HashMap::new();
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            let field = format!("meshes[{mesh_index}].primitives[{primitive_index}]");
            self.read_primitive(primitive, &field, world, &mut bases)?;
        }
        Ok(())
    }

    /// Reads one primitive (`field` names it): skipped (with a note) unless it is made of
    /// triangles and has positions; its vertices (once per POSITION accessor, in `bases`),
    /// indices and triangles, its surface from our extras or its material, then its polygons
    /// (regrouped when our extras list their sizes) and a record for the metadata pass.
    fn read_primitive(
        &mut self,
        primitive: &json::mesh::Primitive,
        field: &str,
        world: Option<&Matrix>,
        bases: &mut HashMap<usize, (u32, usize)>,
    ) -> Result<(), ReadError> {
        let flip = world.is_some_and(|m| determinant3(m) < 0.0);
        let mode = match primitive.mode {
            Checked::Valid(mode) => mode,
            Checked::Invalid => json::mesh::Mode::Points,
        };
        use json::mesh::Mode;
        if !matches!(
            mode,
            Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
        ) {
            self.skip(
                field,
                "its mode is not triangles, a triangle strip or a fan",
            );
            return Ok(());
        }
        let Some(position) = primitive
            .attributes
            .get(&Checked::Valid(json::mesh::Semantic::Positions))
            .map(|a| a.value())
        else {
            self.skip(field, "it has no POSITION attribute");
            return Ok(());
        };
        let (base, vertex_count) = match bases.get(&position) {
            Some(&known) => known,
            None => {
                let known = self.read_positions(primitive, position, field, world)?;
                bases.insert(position, known);
                known
            }
        };
        let indices = self.primitive_indices(primitive, vertex_count, field)?;
        let triangles = self.primitive_triangles(mode, &indices, field, flip);
        let surface_meta = parse_extras(&primitive.extras, field, &mut self.problems).map(|v| {
            PrimitiveMeta::from_json(&v, &format!("{field}.extras.walkmesh"), &mut self.problems)
        });
        let (surface, default_key) = self.primitive_surface(primitive, surface_meta.as_ref());
        let first_polygon = self.mesh.polygons.len();
        let mut meta_fits = true;
        let grouped = match surface_meta.as_ref().and_then(|m| m.sizes.as_ref()) {
            None => None,
            Some(sizes) => {
                let grouped = if matches!(mode, Mode::Triangles) && !flip {
                    let corners = surface_meta
                        .as_ref()
                        .and_then(|m| m.corners.as_deref())
                        .unwrap_or(&[]);
                    group_polygons(&triangles, sizes, corners, vertex_count)
                } else {
                    None
                };
                if grouped.is_none() {
                    meta_fits = false;
                    self.problems.push(format!(
                        "{field}.extras.walkmesh.sizes does not match the primitive's triangles; the triangles were kept as they are"
                    ));
                }
                grouped
            }
        };
        match grouped {
            Some(polygons) => {
                for polygon in polygons {
                    let shifted: Vec<u32> = polygon.iter().map(|v| v + base).collect();
                    self.mesh.push_polygon(&shifted, surface);
                }
            }
            None => {
                for t in &triangles {
                    self.mesh.push_polygon(&t.map(|v| v + base), surface);
                }
            }
        }
        if let Some(key) = default_key {
            self.defaulted
                .push((first_polygon, self.mesh.polygons.len(), key));
        }
        self.records.push(PrimitiveRecord {
            first_polygon,
            polygon_count: self.mesh.polygons.len() - first_polygon,
            meta: surface_meta,
            meta_fits,
        });
        Ok(())
    }

    /// Appends the vertices of POSITION accessor `position` (transformed by `world`, finite,
    /// in IR axes) and their transition tags from `TEXCOORD_0`; returns the first vertex's
    /// index and the count.
    fn read_positions(
        &mut self,
        primitive: &json::mesh::Primitive,
        position: usize,
        field: &str,
        world: Option<&Matrix>,
    ) -> Result<(u32, usize), ReadError> {
        let (root, up) = (self.root, self.up);
        let base = self.mesh.vertices.len();
        let mut vertices = std::mem::take(&mut self.mesh.vertices);
        let result = read_accessor(
            root,
            &mut self.buffers,
            &mut self.budget,
            position,
            3,
            12,
            |c| {
                let p = match world {
                    None => [c[0] as f32, c[1] as f32, c[2] as f32],
                    Some(m) => [0, 1, 2].map(|row| {
                        (m[row] * c[0] + m[4 + row] * c[1] + m[8 + row] * c[2] + m[12 + row]) as f32
                    }),
                };
                if p.iter().any(|v| !v.is_finite()) {
                    return Err(ReadError::whole(
                        format!("accessors[{position}]"),
                        format!(
                            "vertex {} of {field} is not a finite position ({p:?})",
                            vertices.len() - base
                        ),
                    ));
                }
                vertices.push(to_ir(up, p));
                Ok(())
            },
        );
        self.mesh.vertices = vertices;
        let count = result?;
        if base + count > u32::MAX as usize {
            return Err(ReadError::whole(
                format!("accessors[{position}]"),
                "more than 2^32 vertices in the scene",
            ));
        }
        if let Some(texcoords) = primitive
            .attributes
            .get(&Checked::Valid(json::mesh::Semantic::TexCoords(0)))
            .map(|a| a.value())
        {
            self.read_tag_pairs(texcoords, base, count, field)?;
        }
        Ok((base as u32, count))
    }

    /// The primitive's vertex indices, each below `vertex_count`: its index accessor (read
    /// directly when plain, else value by value), or `0..vertex_count` without one.
    fn primitive_indices(
        &mut self,
        primitive: &json::mesh::Primitive,
        vertex_count: usize,
        field: &str,
    ) -> Result<Vec<u32>, ReadError> {
        let root = self.root;
        let plain = match primitive.indices.map(|i| i.value()) {
            Some(accessor) => plain_indices(
                root,
                &mut self.buffers,
                &mut self.budget,
                accessor,
                vertex_count,
                field,
            )?,
            None => None,
        };
        Ok(match (plain, primitive.indices.map(|i| i.value())) {
            (Some(indices), _) => indices,
            (None, Some(accessor)) => {
                let accessor_field = format!("accessors[{accessor}]");
                if let Some(a) = root.accessors.get(accessor)
                    && !matches!(
                        a.component_type,
                        Checked::Valid(json::accessor::GenericComponentType(
                            ComponentType::U8 | ComponentType::U16 | ComponentType::U32
                        ))
                    )
                {
                    return Err(ReadError::whole(
                        format!("{accessor_field}.componentType"),
                        format!("the indices of {field} must be unsigned bytes, shorts or ints"),
                    ));
                }
                let mut indices = Vec::new();
                read_accessor(
                    root,
                    &mut self.buffers,
                    &mut self.budget,
                    accessor,
                    1,
                    4,
                    |c| {
                        let value = c[0];
                        if value >= vertex_count as f64 {
                            return Err(ReadError::whole(
                                accessor_field.clone(),
                                format!(
                                    "index {} of {field} is {value}, but its POSITION accessor has {vertex_count} vertices",
                                    indices.len()
                                ),
                            ));
                        }
                        indices.push(value as u32);
                        Ok(())
                    },
                )?;
                indices
            }
            (None, None) => {
                self.budget.take(vertex_count as u64 * 4, field)?;
                (0..vertex_count as u32).collect()
            }
        })
    }

    /// The triangles of a primitive's `indices` in `mode` (strips and fans unrolled, their
    /// stitching triangles skipped and counted), wound the other way under a mirroring
    /// transform (`flip`).
    fn primitive_triangles(
        &mut self,
        mode: json::mesh::Mode,
        indices: &[u32],
        field: &str,
        flip: bool,
    ) -> Vec<[u32; 3]> {
        use json::mesh::Mode;
        let mut triangles: Vec<[u32; 3]> = Vec::new();
        match mode {
            Mode::TriangleStrip | Mode::TriangleFan => {
                for i in 0..indices.len().saturating_sub(2) {
                    let (a, b, c) = match (mode, indices.get(i..i + 3)) {
                        // glTF 2.0 §3.7.2.1: p_i = {v_i, v_(i+1+i%2), v_(i+2-i%2)}.
                        (Mode::TriangleStrip, Some(&[a, b, c])) if i % 2 == 0 => (a, b, c),
                        (Mode::TriangleStrip, Some(&[a, b, c])) => (a, c, b),
                        // Fans: p_i = {v_(i+1), v_(i+2), v_0}.
                        (_, Some(&[_, b, c])) => (b, c, indices.first().copied().unwrap_or(0)),
                        _ => continue,
                    };
                    // Repeated corners are how strips are stitched; they are not faces.
                    if a == b || b == c || a == c {
                        self.skipped_degenerate += 1;
                        continue;
                    }
                    triangles.push([a, b, c]);
                }
            }
            _ => {
                if !indices.len().is_multiple_of(3) {
                    self.problems.push(format!(
                        "{field} has {} indices, not a multiple of 3; the last {} were ignored",
                        indices.len(),
                        indices.len() % 3
                    ));
                }
                triangles.extend(indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
            }
        }
        if flip {
            for t in &mut triangles {
                t.swap(1, 2);
            }
        }
        triangles
    }

    /// The primitive's surface and, when it came from the default rule, the key of the
    /// default (see [`Reading::surface_for`]). A primitive we wrote names every surface field
    /// that the profile would not give; when all three are named, the material name need not
    /// be known to the profile.
    fn primitive_surface(
        &mut self,
        primitive: &json::mesh::Primitive,
        surface_meta: Option<&PrimitiveMeta>,
    ) -> (Surface, Option<usize>) {
        let mut default_key = None;
        let mut surface = match surface_meta {
            Some(PrimitiveMeta {
                material: Some(material),
                code: Some(code),
                walkable: Some(walkable),
                ..
            }) => Surface {
                material: Material(*material),
                code: *code,
                walkable: *walkable,
            },
            _ => {
                let (surface, key) = self.surface_for(primitive.material.map(|m| m.value()));
                default_key = key.filter(|_| surface_meta.is_none());
                surface
            }
        };
        if let Some(m) = surface_meta {
            if let Some(material) = m.material {
                surface.material = Material(material);
            }
            if let Some(code) = m.code {
                surface.code = code;
            }
            if let Some(walkable) = m.walkable {
                surface.walkable = walkable;
            }
        }
        (surface, default_key)
    }

    /// Reads a `TEXCOORD_0` accessor for the `count` vertices from `base` on as transition
    /// tag pairs.
    fn read_tag_pairs(
        &mut self,
        accessor: usize,
        base: usize,
        count: usize,
        field: &str,
    ) -> Result<(), ReadError> {
        if self.root.accessors.get(accessor).map(|a| a.count.0) != Some(count as u64)
            || !matches!(
                self.root.accessors.get(accessor).map(|a| a.type_),
                Some(Checked::Valid(json::accessor::Type::Vec2))
            )
        {
            self.problems.push(format!(
                "{field}: TEXCOORD_0 (accessor {accessor}) is not one VEC2 per position; not read for transitions"
            ));
            return Ok(());
        }
        let mut pairs = std::mem::take(&mut self.tag_pairs);
        pairs.resize(base, None);
        let mut foreign = 0usize;
        let result = read_accessor(
            self.root,
            &mut self.buffers,
            &mut self.budget,
            accessor,
            2,
            2,
            |c| {
                let tag = |i: usize| c.get(i).copied().and_then(transitions::tag_of);
                match (tag(0), tag(1)) {
                    (Some(a), Some(b)) => pairs.push(Some([a, b])),
                    _ => {
                        foreign += 1;
                        pairs.push(None);
                    }
                }
                Ok(())
            },
        );
        self.tag_pairs = pairs;
        self.foreign_texcoords += foreign;
        result.map(|_| ())
    }

    fn skip(&mut self, field: &str, why: &str) {
        self.problems.push(format!("{field} was skipped: {why}"));
    }
}

/// Regroups the triangles of a primitive into its polygons: `sizes` are runs
/// `(corners, repeat)`; a polygon of `n` corners owns the next `n − 2` triangles, which are
/// either the fan `(c0, c(k+1), c(k+2))` or, for a polygon listed in `corners` (by position in
/// the primitive), any triangulation of the listed corners. `None` when the triangles do not
/// have that shape.
fn group_polygons(
    triangles: &[[u32; 3]],
    sizes: &[(u64, u64)],
    corners: &[(u64, Vec<u32>)],
    vertex_count: usize,
) -> Option<Vec<Vec<u32>>> {
    let mut needed = 0u64;
    for &(size, repeat) in sizes {
        if size < 3 {
            return None;
        }
        needed = needed.checked_add((size - 2).checked_mul(repeat)?)?;
    }
    if needed != triangles.len() as u64 {
        return None;
    }
    let listed: HashMap<u64, &[u32]> = corners
        .iter()
        .map(|(position, list)| (*position, list.as_slice()))
        .collect();
    let mut polygons = Vec::new();
    let mut next = triangles.iter();
    for &(size, repeat) in sizes {
        for _ in 0..repeat {
            let position = polygons.len() as u64;
            let first = next.next()?;
            if let Some(list) = listed.get(&position) {
                if list.len() as u64 != size || list.iter().any(|&v| v as usize >= vertex_count) {
                    return None;
                }
                let members: std::collections::HashSet<u32> = list.iter().copied().collect();
                if !first.iter().all(|v| members.contains(v)) {
                    return None;
                }
                for _ in 3..size {
                    if !next.next()?.iter().all(|v| members.contains(v)) {
                        return None;
                    }
                }
                polygons.push(list.to_vec());
                continue;
            }
            let mut polygon = first.to_vec();
            for _ in 3..size {
                let t = next.next()?;
                if t[0] != first[0] || Some(&t[1]) != polygon.last() {
                    return None;
                }
                polygon.push(t[2]);
            }
            polygons.push(polygon);
        }
    }
    Some(polygons)
}

/// Which scene to read: `params["gltf:scene"]` (index or name), else the default scene,
/// else the first; `None` when the file has no scenes.
fn choose_scene(root: &json::Root, options: &ReadOptions) -> Result<Option<usize>, ReadError> {
    if let Some(wanted) = options.params.get("gltf:scene") {
        let by_index = wanted
            .parse::<usize>()
            .ok()
            .filter(|&i| i < root.scenes.len());
        let by_name = || {
            root.scenes
                .iter()
                .position(|s| s.name.as_deref() == Some(wanted.as_str()))
        };
        return by_index.or_else(by_name).map(Some).ok_or_else(|| {
            let names: Vec<String> = root
                .scenes
                .iter()
                .enumerate()
                .map(|(i, s)| match &s.name {
                    Some(name) => format!("{i} ({name})"),
                    None => i.to_string(),
                })
                .collect();
            ReadError::whole(
                "scene",
                format!(
                    "there is no scene '{wanted}'; the file has {}",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            )
        });
    }
    if root.scenes.is_empty() {
        return Ok(None);
    }
    Ok(Some(root.scene.map_or(0, |s| s.value())))
}

/// Decodes `input`: the container and JSON checked ([`check_asset`]), the material rule
/// ([`default_rule`]), the scene's root nodes ([`scene_roots`]), the node trees walked and
/// their meshes read ([`Reading::walk_nodes`]), then the faces without a known material given
/// a surface, our metadata or Blender's edits applied, and the mesh's provenance.
pub fn read(
    input: Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    let container = split_container(input.bytes, diag)?;
    let root = parse_root(&container)?;
    check_asset(&root)?;
    // gltf-json's validation is not used: it indexes arrays with unchecked values (a POSITION
    // accessor index past the end panics in 1.4.1) and rejects files that are readable
    // (POSITION without min/max). Every index is checked where it is used instead.
    let (profile, default_rule) = default_rule(options, diag);
    let scene = choose_scene(&root, options)?;
    let mut problems = Vec::new();
    let (roots, scene_meta) = scene_roots(&root, scene, &mut problems, diag)?;

    let mut reading = Reading {
        root: &root,
        buffers: Buffers {
            bin: container.bin,
            glb: container.glb,
            path: input.path,
            data: Vec::new(),
            files_read: Vec::new(),
        },
        budget: Budget {
            left: options.max_decompressed,
            limit: options.max_decompressed,
        },
        profile,
        default_rule,
        up: options.up,
        mesh: NavMesh::default(),
        records: Vec::new(),
        problems,
        unknown_names: Vec::new(),
        defaulted: Vec::new(),
        tag_pairs: Vec::new(),
        foreign_texcoords: 0,
        skipped_degenerate: 0,
    };
    let hook_nodes = reading.walk_nodes(&roots)?;

    let Reading {
        mut mesh,
        records,
        mut problems,
        unknown_names,
        defaulted,
        default_rule,
        skipped_degenerate,
        tag_pairs,
        foreign_texcoords,
        buffers,
        ..
    } = reading;
    let files_read = buffers.files_read;

    assign_defaulted(&mut mesh, &default_rule, &unknown_names, &defaulted, diag);
    if skipped_degenerate > 0 {
        diag.push(
            Severity::Info,
            "gltf.degenerate_skipped",
            Position::None,
            None,
            format!("{skipped_degenerate} degenerate strip/fan triangle(s) (repeated corners) were skipped"),
        );
    }

    let ours = apply_metadata(&mut mesh, &records, scene_meta, &mut problems, diag);
    if !ours {
        apply_blender_edits(&mut mesh, hook_nodes, tag_pairs, foreign_texcoords, diag);
    }
    for problem in problems {
        diag.warn("gltf.metadata", problem);
    }
    warn_other_up_axis(&mesh, options.up, diag);
    mesh.check()
        .map_err(|message| ReadError::whole("", format!("internal: {message}")))?;
    // Only a file as this project wrote it (its face numbering intact) shares vertices on
    // purpose; modelling tools duplicate them where primitives, meshes and nodes meet.
    mesh.provenance = Some(Provenance {
        format: "gltf".into(),
        fingerprint: mesh.fingerprint(),
        vertex_identity: if ours {
            VertexIdentity::Authored
        } else {
            VertexIdentity::Incidental
        },
        files_read,
        ..Provenance::default()
    });
    Ok(mesh)
}

/// Refuses a glTF version other than 2.x and a required extension this reader does not
/// implement (compressed geometry).
fn check_asset(root: &json::Root) -> Result<(), ReadError> {
    if !root.asset.version.starts_with("2.") && root.asset.version != "2" {
        return Err(ReadError::whole(
            "asset.version",
            format!(
                "glTF version {} is not supported; only 2.x is",
                root.asset.version
            ),
        )
        .with_kind(walkmesh_core::ErrorKind::Unsupported));
    }
    for (i, extension) in root.extensions_required.iter().enumerate() {
        if !HARMLESS_REQUIRED.contains(&extension.as_str()) {
            return Err(ReadError::whole(
                format!("extensionsRequired[{i}]"),
                format!(
                    "the file requires the extension {extension}, which this reader does not support (compressed geometry is not implemented)"
                ),
            )
            .with_kind(walkmesh_core::ErrorKind::Unsupported));
        }
    }
    Ok(())
}

/// The material profile and the rule for faces whose material it does not know (the
/// `--default-material`, warned when the profile lacks it, else by slope).
fn default_rule<'o>(
    options: &'o ReadOptions,
    diag: &mut Diagnostics,
) -> (Cow<'o, MaterialProfile>, DefaultRule) {
    let profile = options
        .materials
        .as_deref()
        .map(Cow::Borrowed)
        .unwrap_or_else(|| Cow::Owned(MaterialProfile::neutral()));
    let explicit = options.default_material.as_deref().and_then(|name| {
        let found = profile.surface_for_name(name);
        if found.is_none() {
            diag.warn(
                "gltf.unknown_default_material",
                format!(
                    "default material '{name}' is not in the material profile; using '{}'",
                    profile.default_material
                ),
            );
        }
        found
    });
    let default_rule = DefaultRule::new(&profile, explicit);
    (profile, default_rule)
}

/// The root nodes to read and the scene's metadata: the chosen scene's nodes, or, in a file
/// without a scene, every node that is nobody's child (warned).
fn scene_roots(
    root: &json::Root,
    scene: Option<usize>,
    problems: &mut Vec<String>,
    diag: &mut Diagnostics,
) -> Result<(Vec<usize>, Option<MeshMeta>), ReadError> {
    Ok(match scene {
        Some(index) => {
            let scene = root.scenes.get(index).ok_or_else(|| {
                ReadError::whole("scene", format!("scene {index} does not exist"))
            })?;
            let meta = parse_extras(&scene.extras, &format!("scenes[{index}]"), problems)
                .map(|v| MeshMeta::from_json(&v, problems));
            (
                scene.nodes.iter().map(|n| n.value()).collect::<Vec<_>>(),
                meta,
            )
        }
        None => {
            // No scene: every node that is nobody's child.
            let mut child = vec![false; root.nodes.len()];
            for node in &root.nodes {
                for c in node.children.iter().flatten() {
                    if let Some(flag) = child.get_mut(c.value()) {
                        *flag = true;
                    }
                }
            }
            if !root.nodes.is_empty() {
                diag.warn(
                    "gltf.no_scene",
                    "the file has no scene; every root node was read",
                );
            }
            ((0..root.nodes.len()).filter(|&n| !child[n]).collect(), None)
        }
    })
}

/// Faces without a known material get a surface by slope, so that unnamed walls stay
/// unwalkable; each unknown material name (and "no material") is warned once with the
/// outcome.
fn assign_defaulted(
    mesh: &mut NavMesh,
    default_rule: &DefaultRule,
    unknown_names: &[String],
    defaulted: &[(usize, usize, usize)],
    diag: &mut Diagnostics,
) {
    let mut by_key: Vec<Vec<usize>> = vec![Vec::new(); unknown_names.len() + 1];
    for &(first, end, key) in defaulted {
        if let Some(list) = by_key.get_mut(key) {
            list.extend(first..end);
        }
    }
    for (key, polygons) in by_key.into_iter().enumerate() {
        if polygons.is_empty() {
            continue;
        }
        let outcome = default_rule.describe(&walkmesh_core::passes::assign_default_surfaces(
            mesh,
            default_rule,
            polygons,
        ));
        match key.checked_sub(1).and_then(|k| unknown_names.get(k)) {
            Some(name) => diag.warn(
                "gltf.unknown_material",
                format!(
                    "material '{name}' is not in the material profile: {outcome}; name it after a surface material or set --default-material"
                ),
            ),
            None => diag.warn(
                "gltf.no_material",
                format!(
                    "primitives without a material: {outcome}; give them a material or set --default-material"
                ),
            ),
        }
    }
}

/// Edited (or foreign) files: what Blender keeps. Hook nodes are what the user sees and
/// moves, so they win over hooks in extras; transitions come from `TEXCOORD_0` unless it is
/// a real texture map (ours hold only 0 and 1024 + tag).
fn apply_blender_edits(
    mesh: &mut NavMesh,
    hook_nodes: Vec<Hook>,
    mut tag_pairs: Vec<Option<[u8; 2]>>,
    foreign_texcoords: usize,
    diag: &mut Diagnostics,
) {
    if !hook_nodes.is_empty() {
        mesh.hooks = hook_nodes;
    }
    // A real texture map is not transitions; ours hold only 0 and 1024 + tag.
    if !tag_pairs.is_empty() && foreign_texcoords == 0 {
        tag_pairs.resize(mesh.vertices.len(), None);
        let decoded = transitions::decode(mesh, &tag_pairs);
        if !decoded.tags.is_empty() {
            diag.push(
                Severity::Info,
                "gltf.transitions_from_texcoords",
                Position::None,
                None,
                format!("{} transition(s) read from TEXCOORD_0", decoded.tags.len()),
            );
        }
        if decoded.mismatched > 0 {
            diag.warn(
                "gltf.transition_texcoords_disagree",
                format!(
                    "{} boundary edge(s) carry transition tags in TEXCOORD_0 that disagree at their two ends (edited after export?); they were left without a transition",
                    decoded.mismatched
                ),
            );
        }
        mesh.edge_tags.extend(decoded.tags);
    }
}

/// Warns when most of the walkable area is steep: the file was probably exported with the
/// other up axis.
fn warn_other_up_axis(mesh: &NavMesh, up: UpAxis, diag: &mut Diagnostics) {
    let (steep, walkable) = steep_walkable_share(mesh);
    if walkable > 0.0 && steep > walkable / 2.0 {
        diag.warn(
            "gltf.walkable_mostly_vertical",
            format!(
                "{:.0}% of the walkable area is steeper than {}° with {} up: the file was probably exported with the other up axis (Blender's \"+Y Up\" option); try --up {}",
                100.0 * steep / walkable,
                walkmesh_core::passes::STEEP_DEGREES,
                match up {
                    UpAxis::Y => "Y (the glTF standard)",
                    UpAxis::Z => "Z",
                },
                match up {
                    UpAxis::Y => "z",
                    UpAxis::Z => "y",
                },
            ),
        );
    }
}

impl Reading<'_, '_> {
    /// Walks the node trees from `roots` depth-first, children in order, reading each
    /// node's mesh under its world transform; returns the hook nodes met (empty nodes named
    /// with [`meta::HOOK_NODE_PREFIX`]). Every node may be reached once (nodes form trees),
    /// so cycles and shared children are errors and the walk is bounded by the node count.
    fn walk_nodes(&mut self, roots: &[usize]) -> Result<Vec<Hook>, ReadError> {
        let root = self.root;
        let mut visited = vec![false; root.nodes.len()];
        let mut hook_nodes: Vec<Hook> = Vec::new();
        let mut stack: Vec<(usize, Option<Matrix>)> =
            roots.iter().rev().map(|&n| (n, None)).collect();
        while let Some((node_index, parent)) = stack.pop() {
            let field = format!("nodes[{node_index}]");
            let node = root
                .nodes
                .get(node_index)
                .ok_or_else(|| ReadError::whole(field.clone(), "the node does not exist"))?;
            match visited.get_mut(node_index) {
                Some(seen) if *seen => {
                    return Err(ReadError::whole(
                        field,
                        format!(
                            "node {node_index} is reached twice (a cycle or a node with two parents); glTF nodes must form trees"
                        ),
                    ));
                }
                Some(seen) => *seen = true,
                None => {}
            }
            let world = match (parent, local_matrix(node)) {
                (None, local) => local,
                (Some(parent), None) => Some(parent),
                (Some(parent), Some(local)) => Some(multiply(&parent, &local)),
            };
            if let Some(m) = &world
                && m.iter().any(|v| !v.is_finite())
            {
                return Err(ReadError::whole(
                    field,
                    "the node's transform is not finite",
                ));
            }
            if let Some(mesh) = node.mesh {
                self.read_mesh(mesh.value(), world.as_ref())?;
            } else if let Some(name) = node
                .name
                .as_deref()
                .and_then(|n| n.strip_prefix(meta::HOOK_NODE_PREFIX))
            {
                let t = world.map_or([0.0; 3], |m| [m[12], m[13], m[14]]);
                hook_nodes.push(Hook {
                    name: name.to_string(),
                    position: to_ir(self.up, t.map(|c| c as f32)),
                });
            }
            for child in node.children.iter().flatten().rev() {
                stack.push((child.value(), world));
            }
        }
        Ok(hook_nodes)
    }
}

/// Restores the original polygon order and applies mesh-level metadata. True when the
/// file's face numbering was restored (the file is as this project wrote it).
fn apply_metadata(
    mesh: &mut NavMesh,
    records: &[PrimitiveRecord],
    meta: Option<MeshMeta>,
    problems: &mut Vec<String>,
    diag: &mut Diagnostics,
) -> bool {
    let total = mesh.polygons.len();
    let has_face_meta = records
        .iter()
        .any(|r| r.meta.as_ref().is_some_and(|m| m.faces.is_some()));
    let mut order_restored = false;
    if has_face_meta {
        match original_order(records, total, meta.as_ref().and_then(|m| m.polygons)) {
            Some(order) => {
                if order.iter().enumerate().any(|(i, &o)| i as u32 != o) {
                    *mesh = mesh.with_polygon_order(&order);
                }
                order_restored = true;
            }
            None => diag.warn(
                "gltf.stale_metadata",
                "the walkmesh face numbering in the primitives' extras does not match the geometry (edited after export?); faces were kept in file order",
            ),
        }
    }
    let Some(meta) = meta else {
        return order_restored;
    };
    if let Some(kind) = meta.kind {
        mesh.kind = kind;
    }
    if let Some(origin) = meta.origin {
        mesh.origin = origin;
    }
    if let Some(hooks) = meta.hooks {
        mesh.hooks = hooks;
    }
    mesh.tile_grid = meta.tile_grid.or(mesh.tile_grid);
    mesh.extras = meta.extras;
    if let Some(vertices) = meta.vertices
        && vertices != mesh.vertices.len() as u64
    {
        problems.push(format!(
            "extras.walkmesh.vertices is {vertices}, but the scene has {} vertices (edited after export?)",
            mesh.vertices.len()
        ));
    }
    let stale = !order_restored;
    if stale && (!meta.edge_tags.is_empty() || !meta.face_attributes.is_empty()) {
        diag.warn(
            "gltf.stale_metadata",
            "edge tags and face attributes in extras are keyed by the exported face order, which could not be restored; they were dropped (transitions are read from TEXCOORD_0 instead, when the file has them)",
        );
        return order_restored;
    }
    let mut dropped = 0usize;
    for (edge, tag) in meta.edge_tags {
        let len = mesh.polygons.get(edge.polygon as usize).len();
        if (edge.edge as usize) < len {
            mesh.edge_tags.insert(edge, tag);
        } else {
            dropped += 1;
        }
    }
    if dropped > 0 {
        problems.push(format!(
            "{dropped} edge tag(s) in extras.walkmesh.edge_tags name edges that do not exist; dropped"
        ));
    }
    for (name, column) in meta.face_attributes {
        if column.len() == total {
            mesh.face_attributes.insert(name, column);
        } else {
            problems.push(format!(
                "extras.walkmesh.face_attributes.{name} has {} entries for {total} faces; dropped",
                column.len()
            ));
        }
    }
    order_restored
}

/// The order (new index → current index) that puts every polygon back at its original index,
/// when every primitive's `faces` runs fit its polygons and form a permutation.
fn original_order(
    records: &[PrimitiveRecord],
    total: usize,
    declared: Option<u64>,
) -> Option<Vec<u32>> {
    if declared.is_some_and(|d| d != total as u64) {
        return None;
    }
    let mut order = vec![u32::MAX; total];
    for record in records {
        if !record.meta_fits {
            return None;
        }
        let runs = record.meta.as_ref()?.faces.as_ref()?;
        let mut sum = 0u64;
        for &(_, count) in runs {
            sum = sum.checked_add(count)?;
        }
        if sum != record.polygon_count as u64 {
            return None;
        }
        let mut current = record.first_polygon;
        for &(start, count) in runs {
            for original in start..start.checked_add(count)? {
                let slot = order.get_mut(usize::try_from(original).ok()?)?;
                if *slot != u32::MAX {
                    return None;
                }
                *slot = current as u32;
                current += 1;
            }
        }
    }
    order.iter().all(|&o| o != u32::MAX).then_some(order)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn fans_and_listed_polygons_regroup() {
        let triangles = [[0, 1, 2], [0, 2, 3], [4, 5, 6]];
        assert_eq!(
            group_polygons(&triangles, &[(4, 1), (3, 1)], &[], 7).unwrap(),
            vec![vec![0, 1, 2, 3], vec![4, 5, 6]]
        );
        assert!(group_polygons(&triangles, &[(3, 3), (3, 1)], &[], 7).is_none());
        assert!(group_polygons(&[[0, 1, 2], [1, 2, 3]], &[(4, 1)], &[], 7).is_none());
        assert!(group_polygons(&triangles, &[(2, 1)], &[], 7).is_none());
        assert!(group_polygons(&triangles, &[(u64::MAX, u64::MAX)], &[], 7).is_none());
        // A concave quad 0,1,2,3 ear-clipped as (2,3,0), (0,1,2): not a fan, listed.
        let clipped = [[2, 3, 0], [0, 1, 2]];
        let listed = [(0, vec![0, 1, 2, 3])];
        assert!(group_polygons(&clipped, &[(4, 1)], &[], 4).is_none());
        assert_eq!(
            group_polygons(&clipped, &[(4, 1)], &listed, 4).unwrap(),
            vec![vec![0, 1, 2, 3]]
        );
        // The listed corners must cover the triangles and exist.
        assert!(group_polygons(&[[1, 2, 3], [1, 3, 9]], &[(4, 1)], &listed, 10).is_none());
        assert!(group_polygons(&clipped, &[(4, 1)], &listed, 3).is_none());
        assert!(group_polygons(&clipped, &[(4, 1)], &[(0, vec![0, 1, 2])], 4).is_none());
    }

    #[test]
    fn trs_matches_hand_computed_matrix() {
        // 90° about +Y: (1,0,0) -> (0,0,-1); then scale 2 on x first, translate (1,2,3).
        let node = json::Node {
            translation: Some([1.0, 2.0, 3.0]),
            rotation: Some(json::scene::UnitQuaternion([
                0.0,
                std::f32::consts::FRAC_1_SQRT_2,
                0.0,
                std::f32::consts::FRAC_1_SQRT_2,
            ])),
            scale: Some([2.0, 1.0, 1.0]),
            ..json::Node::default()
        };
        let m = local_matrix(&node).unwrap();
        let p = [1.0, 0.0, 0.0];
        let out: Vec<f64> = (0..3)
            .map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
            .collect();
        assert!(
            (out[0] - 1.0).abs() < 1e-6
                && (out[1] - 2.0).abs() < 1e-6
                && (out[2] - 1.0).abs() < 1e-6,
            "{out:?}"
        );
        assert!(local_matrix(&json::Node::default()).is_none());
        assert!((determinant3(&m) - 2.0).abs() < 1e-6);
    }

    #[test]
    fn percent_escapes_decode() {
        assert_eq!(percent_decode("a%20b.bin").unwrap(), "a b.bin");
        assert!(percent_decode("a%2").is_none());
    }
}
