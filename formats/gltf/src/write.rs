//! glTF writer: one node, one mesh, one primitive per distinct surface, all primitives
//! sharing one `POSITION` accessor (so vertex order and sharing survive exactly), walkmesh
//! metadata in `extras`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use gltf_json as json;
use json::validation::{Checked, USize64};
use serde_json::Value;
use walkmesh_core::{
    Diagnostics, MaterialProfile, NavMesh, Output, Sidecar, Surface, WriteError, WriteOptions,
};

use crate::meta::{self, MeshMeta, PrimitiveMeta};
use crate::transitions;

/// Whether `file_name` asks for the JSON form (`.gltf` + `.bin`) rather than `.glb`.
pub fn wants_json(file_name: Option<&str>) -> bool {
    file_name
        .and_then(|name| std::path::Path::new(name).extension())
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"))
}

/// glTF coordinates (Y-up) of an IR point (Z-up): IR (x, y, z) = glTF (x, −z, y), so
/// glTF = (x, z, −y). Negation is exact, so reading back restores the same bits.
fn to_gltf(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[2], -p[1]]
}

/// A distinct, stable colour per neutral material (golden-angle hues); non-walkable
/// materials are darker so the walkable floor stands out in a viewer.
fn colour(material: u16, walkable: bool) -> [f32; 4] {
    let hue = (f64::from(material) * 0.618_033_988_749_895 + 0.08).fract();
    let (saturation, value) = if walkable { (0.55, 0.9) } else { (0.7, 0.45) };
    let sector = hue * 6.0;
    let chroma = value * saturation;
    let x = chroma * (1.0 - ((sector % 2.0) - 1.0).abs());
    let (r, g, b) = match sector as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = value - chroma;
    // Rounded to 1/1000 so the JSON stays short and stable.
    let round = |c: f64| ((c + m) * 1000.0).round() as f32 / 1000.0;
    [round(r), round(g), round(b), 1.0]
}

fn raw_extras(value: &Value) -> Result<json::Extras, WriteError> {
    let mut object = serde_json::Map::new();
    object.insert(meta::KEY.into(), value.clone());
    serde_json::value::to_raw_value(&Value::Object(object))
        .map(Some)
        .map_err(|e| WriteError::new("extras", format!("cannot encode metadata: {e}")))
}

fn align4(buffer: &mut Vec<u8>) {
    while !buffer.len().is_multiple_of(4) {
        buffer.push(0);
    }
}

/// Percent-encodes a file name for use as a relative URI.
fn uri_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn count(value: usize) -> USize64 {
    USize64(value as u64)
}

fn index<T>(value: usize) -> Result<json::Index<T>, WriteError> {
    u32::try_from(value).map(json::Index::new).map_err(|_| {
        WriteError::new("", "too many glTF objects").with_kind(walkmesh_core::ErrorKind::Limit)
    })
}

/// True when the polygon turns the same way at every corner (seen along its Newell normal),
/// so the fan from corner 0 covers it exactly.
fn is_convex(points: &[[f32; 3]]) -> bool {
    let n = points.len();
    let p = |i: usize| points[i % n].map(f64::from);
    let mut normal = [0.0f64; 3];
    for i in 0..n {
        let (a, b) = (p(i), p(i + 1));
        normal[0] += (a[1] - b[1]) * (a[2] + b[2]);
        normal[1] += (a[2] - b[2]) * (a[0] + b[0]);
        normal[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    (0..n).all(|i| {
        let (a, b, c) = (p(i), p(i + 1), p(i + 2));
        let e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let f = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
        let cross = [
            e[1] * f[2] - e[2] * f[1],
            e[2] * f[0] - e[0] * f[2],
            e[0] * f[1] - e[1] * f[0],
        ];
        cross[0] * normal[0] + cross[1] * normal[1] + cross[2] * normal[2] >= 0.0
    })
}

/// The triangles a polygon is displayed with. Triangles and convex polygons are the fan from
/// corner 0 (`(c0, c(k+1), c(k+2))`), which the reader regroups without help; concave ones
/// are ear-clipped so they look right in a viewer, and the function returns `false` so that
/// the writer lists their corners in the primitive's extras. Self-intersecting polygons, which
/// ear clipping cannot handle, are fanned.
fn display_triangles(mesh: &NavMesh, corners: &[u32], out: &mut Vec<[u32; 3]>) -> bool {
    let first = corners.first().copied().unwrap_or(0);
    let fan = |out: &mut Vec<[u32; 3]>| {
        for pair in corners.get(1..).unwrap_or(&[]).windows(2) {
            if let [b, c] = pair {
                out.push([first, *b, *c]);
            }
        }
    };
    if corners.len() <= 3 {
        fan(out);
        return true;
    }
    let points: Vec<[f32; 3]> = corners.iter().map(|&v| mesh.vertex(v)).collect();
    if is_convex(&points) {
        fan(out);
        return true;
    }
    match walkmesh_core::passes::triangulate::ear_clip(&points) {
        Some(triangles) if triangles.len() + 2 == corners.len() => {
            for t in triangles {
                out.push(t.map(|i| corners.get(i).copied().unwrap_or(first)));
            }
            false
        }
        _ => {
            fan(out);
            true
        }
    }
}

/// Encodes `mesh`: materials, the shared positions, the transitions' texture coordinates,
/// one primitive per distinct surface, the nodes (mesh and hooks), the scene with the mesh's
/// metadata, then the `.glb` or `.gltf` + `.bin` bytes.
pub fn write(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Output, WriteError> {
    mesh.check()
        .map_err(|error| WriteError::new("mesh", error.to_string()))?;
    let profile = options
        .materials
        .as_deref()
        .map(Cow::Borrowed)
        .unwrap_or_else(|| Cow::Owned(MaterialProfile::neutral()));
    let json_form = wants_json(options.file_name.as_deref());
    let kind = options.kind.unwrap_or(mesh.kind);
    let vertex_count = check_vertices(mesh)?;

    // Primitive grouping: one per distinct surface, in surface order; polygons keep their
    // relative order inside a group.
    let mut groups: BTreeMap<Surface, Vec<u32>> = BTreeMap::new();
    for (polygon, surface) in mesh.surfaces.iter().enumerate() {
        groups.entry(*surface).or_default().push(polygon as u32);
    }

    let mut root = json::Root {
        asset: json::Asset {
            generator: Some(format!("walkmesh-gltf {}", env!("CARGO_PKG_VERSION"))),
            version: "2.0".into(),
            ..json::Asset::default()
        },
        ..json::Root::default()
    };
    let mut bin: Vec<u8> = Vec::new();
    let material_index = push_materials(&mut root, &groups, &profile);

    let mut primitives = Vec::new();
    if !groups.is_empty() {
        push_positions(&mut root, &mut bin, mesh);
        let tag_accessor = push_transitions(&mut root, &mut bin, mesh, diag)?;
        // Indices: u16 while every index fits below the primitive-restart value 65535.
        let short = vertex_count <= 65_535;
        for (surface, polygons) in &groups {
            let mut accessor = push_indices(&mut root, &mut bin, mesh, polygons, short)?;
            let listed_corners = std::mem::take(&mut accessor.listed_corners);
            let primitive_meta = primitive_meta(
                mesh,
                surface,
                polygons,
                accessor.all_triangles,
                listed_corners,
                &profile,
            );
            let mut attributes = BTreeMap::new();
            attributes.insert(
                Checked::Valid(json::mesh::Semantic::Positions),
                json::Index::new(0),
            );
            if let Some(tags) = tag_accessor {
                attributes.insert(Checked::Valid(json::mesh::Semantic::TexCoords(0)), tags);
            }
            primitives.push(json::mesh::Primitive {
                attributes,
                extensions: None,
                extras: raw_extras(&primitive_meta.to_json())?,
                indices: Some(index(accessor.index)?),
                material: material_index
                    .get(&surface.material.0)
                    .map(|&slot| index(slot))
                    .transpose()?,
                mode: Checked::Valid(json::mesh::Mode::Triangles),
                targets: None,
            });
        }
        align4(&mut bin);
    } else if !mesh.vertices.is_empty() {
        diag.warn(
            "gltf.vertices_without_polygons",
            format!(
                "the mesh has {} vertices but no polygons; glTF meshes need at least one primitive, so the vertices were not written",
                mesh.vertices.len()
            ),
        );
    }

    let nodes = push_nodes(&mut root, mesh, primitives, options, diag)?;
    let mesh_meta = MeshMeta {
        kind: Some(kind),
        origin: Some(mesh.origin),
        hooks: Some(mesh.hooks.clone()),
        tile_grid: mesh.tile_grid,
        edge_tags: mesh.edge_tags.iter().map(|(e, t)| (*e, *t)).collect(),
        face_attributes: mesh.face_attributes.clone(),
        extras: mesh.extras.clone(),
        polygons: Some(mesh.polygons.len() as u64),
        vertices: Some(if mesh.polygons.is_empty() {
            0
        } else {
            vertex_count as u64
        }),
    };
    root.scenes.push(json::Scene {
        extensions: None,
        extras: raw_extras(&mesh_meta.to_json())?,
        name: Some("walkmesh".into()),
        nodes,
    });
    root.scene = Some(json::Index::new(0));
    encode(root, bin, json_form, options)
}

/// The vertex count, once every position is finite (glTF allows no other) and every index
/// fits 32 bits.
fn check_vertices(mesh: &NavMesh) -> Result<usize, WriteError> {
    for (index, vertex) in mesh.vertices.iter().enumerate() {
        if vertex.iter().any(|c| !c.is_finite()) {
            return Err(WriteError::new(
                format!("vertices[{index}]"),
                format!("vertex {index} is {vertex:?}; glTF positions must be finite numbers"),
            ));
        }
    }
    let vertex_count = mesh.vertices.len();
    if vertex_count >= u32::MAX as usize {
        return Err(WriteError::new("vertices", "more than 2^32 - 2 vertices")
            .with_kind(walkmesh_core::ErrorKind::Limit));
    }
    Ok(vertex_count)
}

/// Materials: one per neutral material of the surface groups, in id order, coloured by
/// walkability (the profile's, else the surfaces'). Returns each material's slot.
fn push_materials(
    root: &mut json::Root,
    groups: &BTreeMap<Surface, Vec<u32>>,
    profile: &MaterialProfile,
) -> BTreeMap<u16, usize> {
    let mut material_index: BTreeMap<u16, usize> = BTreeMap::new();
    for surface in groups.keys() {
        let next = material_index.len();
        material_index.entry(surface.material.0).or_insert(next);
    }
    let mut material_slots: Vec<(u16, usize)> =
        material_index.iter().map(|(&m, &i)| (m, i)).collect();
    material_slots.sort_by_key(|&(_, slot)| slot);
    for &(material, _) in &material_slots {
        let name = walkmesh_core::Material(material).name().into_owned();
        let walkable = profile
            .surface_for_name(&name)
            .map(|s| s.walkable)
            .unwrap_or_else(|| {
                groups
                    .keys()
                    .find(|s| s.material.0 == material)
                    .is_some_and(|s| s.walkable)
            });
        root.materials.push(json::Material {
            name: Some(name),
            double_sided: true,
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor(colour(material, walkable)),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(1.0),
                ..json::material::PbrMetallicRoughness::default()
            },
            ..json::Material::default()
        });
    }
    material_index
}

/// The shared positions (glTF axes) at the start of the buffer: buffer view 0 and accessor 0,
/// which every primitive uses.
fn push_positions(root: &mut json::Root, bin: &mut Vec<u8>, mesh: &NavMesh) {
    let vertex_count = mesh.vertices.len();
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    bin.reserve(vertex_count * 12);
    for &vertex in &mesh.vertices {
        let p = to_gltf(vertex);
        for axis in 0..3 {
            min[axis] = min[axis].min(p[axis]);
            max[axis] = max[axis].max(p[axis]);
            bin.extend_from_slice(&p[axis].to_le_bytes());
        }
    }
    root.buffer_views.push(json::buffer::View {
        buffer: json::Index::new(0),
        byte_length: count(vertex_count * 12),
        byte_offset: Some(USize64(0)),
        byte_stride: None,
        name: Some("positions".into()),
        target: Some(Checked::Valid(json::buffer::Target::ArrayBuffer)),
        extensions: None,
        extras: None,
    });
    // Min/max as the exact f64 value of each f32, so validators comparing against the
    // stored floats see equality.
    let bound =
        |values: [f32; 3]| Value::from(values.iter().map(|&v| f64::from(v)).collect::<Vec<f64>>());
    root.accessors.push(json::Accessor {
        buffer_view: Some(json::Index::new(0)),
        byte_offset: Some(USize64(0)),
        count: count(vertex_count),
        component_type: Checked::Valid(json::accessor::GenericComponentType(
            json::accessor::ComponentType::F32,
        )),
        extensions: None,
        extras: None,
        type_: Checked::Valid(json::accessor::Type::Vec3),
        min: Some(bound(min)),
        max: Some(bound(max)),
        name: Some("POSITION".into()),
        normalized: false,
        sparse: None,
    });
}

/// Transitions in texture coordinates, the form Blender keeps (see `transitions`): the
/// accessor, or none when no edge carries a tag this way. Tags that cannot be carried so are
/// noted (they stay in extras).
fn push_transitions(
    root: &mut json::Root,
    bin: &mut Vec<u8>,
    mesh: &NavMesh,
    diag: &mut Diagnostics,
) -> Result<Option<json::Index<json::Accessor>>, WriteError> {
    let encoded = transitions::encode(mesh);
    if encoded.not_encoded > 0 {
        diag.push(
            walkmesh_core::Severity::Info,
            "gltf.transitions_not_in_texcoords",
            walkmesh_core::Position::None,
            None,
            format!(
                "{} edge tag(s) cannot be carried by TEXCOORD_0 (only tags 0-254 on the walkable boundary can); they are kept in extras, which a Blender edit does not keep",
                encoded.not_encoded
            ),
        );
    }
    if encoded.texcoords.is_empty() {
        return Ok(None);
    }
    align4(bin);
    let start = bin.len();
    for pair in &encoded.texcoords {
        for component in pair {
            bin.extend_from_slice(&component.to_le_bytes());
        }
    }
    let view = root.buffer_views.len();
    root.buffer_views.push(json::buffer::View {
        buffer: json::Index::new(0),
        byte_length: count(bin.len() - start),
        byte_offset: Some(count(start)),
        byte_stride: None,
        name: Some("transitions".into()),
        target: Some(Checked::Valid(json::buffer::Target::ArrayBuffer)),
        extensions: None,
        extras: None,
    });
    let accessor = root.accessors.len();
    root.accessors.push(json::Accessor {
        buffer_view: Some(index(view)?),
        byte_offset: Some(USize64(0)),
        count: count(mesh.vertices.len()),
        component_type: Checked::Valid(json::accessor::GenericComponentType(
            json::accessor::ComponentType::F32,
        )),
        extensions: None,
        extras: None,
        type_: Checked::Valid(json::accessor::Type::Vec2),
        min: None,
        max: None,
        name: Some("TEXCOORD_0 (transitions)".into()),
        normalized: false,
        sparse: None,
    });
    Ok(Some(index(accessor)?))
}

/// A primitive's index accessor and what its extras must say about its polygons.
struct IndexAccessor {
    /// The accessor's position in `root.accessors`.
    index: usize,
    /// Whether every polygon is a triangle (else the polygon sizes are listed).
    all_triangles: bool,
    /// (position in the group, corners) of the polygons ear-clipped for display.
    listed_corners: Vec<(u64, Vec<u32>)>,
}

/// The display triangles of a surface group's polygons as an index buffer view and accessor
/// (`short`: u16 indices).
fn push_indices(
    root: &mut json::Root,
    bin: &mut Vec<u8>,
    mesh: &NavMesh,
    polygons: &[u32],
    short: bool,
) -> Result<IndexAccessor, WriteError> {
    align4(bin);
    let start = bin.len();
    let mut index_count = 0usize;
    let mut all_triangles = true;
    let mut listed_corners = Vec::new();
    let mut triangles = Vec::new();
    for (position, &polygon) in polygons.iter().enumerate() {
        let corners = mesh.polygons.get(polygon as usize);
        all_triangles &= corners.len() == 3;
        triangles.clear();
        if !display_triangles(mesh, corners, &mut triangles) {
            listed_corners.push((position as u64, corners.to_vec()));
        }
        for corner in triangles.iter().flatten() {
            if short {
                bin.extend_from_slice(&(*corner as u16).to_le_bytes());
            } else {
                bin.extend_from_slice(&corner.to_le_bytes());
            }
            index_count += 1;
        }
    }
    let view = root.buffer_views.len();
    root.buffer_views.push(json::buffer::View {
        buffer: json::Index::new(0),
        byte_length: count(bin.len() - start),
        byte_offset: Some(count(start)),
        byte_stride: None,
        name: None,
        target: Some(Checked::Valid(json::buffer::Target::ElementArrayBuffer)),
        extensions: None,
        extras: None,
    });
    let accessor = root.accessors.len();
    root.accessors.push(json::Accessor {
        buffer_view: Some(index(view)?),
        byte_offset: Some(USize64(0)),
        count: count(index_count),
        component_type: Checked::Valid(json::accessor::GenericComponentType(if short {
            json::accessor::ComponentType::U16
        } else {
            json::accessor::ComponentType::U32
        })),
        extensions: None,
        extras: None,
        type_: Checked::Valid(json::accessor::Type::Scalar),
        min: None,
        max: None,
        name: None,
        normalized: false,
        sparse: None,
    });
    Ok(IndexAccessor {
        index: accessor,
        all_triangles,
        listed_corners,
    })
}

/// A primitive's extras: its polygons' numbers, sizes (unless all triangles), the corners of
/// ear-clipped polygons, and the surface's material, code and walkability where the profile
/// would read them back differently from the material's name.
fn primitive_meta(
    mesh: &NavMesh,
    surface: &Surface,
    polygons: &[u32],
    all_triangles: bool,
    listed_corners: Vec<(u64, Vec<u32>)>,
    profile: &MaterialProfile,
) -> PrimitiveMeta {
    let name = surface.material.name();
    let expected = profile.surface_for_name(&name);
    let mut primitive_meta = PrimitiveMeta {
        faces: Some(meta::index_runs(polygons)),
        ..PrimitiveMeta::default()
    };
    if !all_triangles {
        primitive_meta.sizes = Some(meta::repeat_runs(
            polygons
                .iter()
                .map(|&p| mesh.polygons.get(p as usize).len() as u64),
        ));
    }
    if !listed_corners.is_empty() {
        primitive_meta.corners = Some(listed_corners);
    }
    if expected.map(|s| s.material) != Some(surface.material) {
        primitive_meta.material = Some(surface.material.0);
    }
    if expected.map(|s| s.code) != Some(surface.code) {
        primitive_meta.code = Some(surface.code);
    }
    if expected.map(|s| s.walkable) != Some(surface.walkable) {
        primitive_meta.walkable = Some(surface.walkable);
    }
    primitive_meta
}

/// The scene's nodes: the mesh's node (named after the file) when there are primitives, and
/// each placed hook as a named empty node, which Blender shows, lets one move, and exports.
fn push_nodes(
    root: &mut json::Root,
    mesh: &NavMesh,
    primitives: Vec<json::mesh::Primitive>,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<Vec<json::Index<json::Node>>, WriteError> {
    let mut nodes = Vec::new();
    if !primitives.is_empty() {
        root.meshes.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some("walkmesh".into()),
            primitives,
            weights: None,
        });
        let node_name = options
            .file_name
            .as_deref()
            .and_then(|n| std::path::Path::new(n).file_stem())
            .and_then(|s| s.to_str())
            .unwrap_or("walkmesh")
            .to_string();
        root.nodes.push(json::Node {
            mesh: Some(json::Index::new(0)),
            name: Some(node_name),
            ..json::Node::default()
        });
        nodes.push(json::Index::new(0));
    }
    // Hooks also as named empty nodes, which Blender shows, lets one move, and exports.
    let mut unplaced = 0usize;
    for hook in &mesh.hooks {
        if hook.position.iter().any(|c| !c.is_finite()) {
            unplaced += 1;
            continue;
        }
        nodes.push(index(root.nodes.len())?);
        root.nodes.push(json::Node {
            name: Some(format!("{}{}", meta::HOOK_NODE_PREFIX, hook.name)),
            translation: Some(to_gltf(hook.position)),
            ..json::Node::default()
        });
    }
    if unplaced > 0 {
        diag.warn(
            "gltf.hooks_not_placed",
            format!(
                "{unplaced} hook(s) have a non-finite position and get no node; they are kept in extras only"
            ),
        );
    }
    Ok(nodes)
}

/// The file's bytes: the buffer declared (an external `.bin` sidecar in the JSON form), then
/// pretty JSON for `.gltf` or the binary container for `.glb` (refused over 4 GiB).
fn encode(
    mut root: json::Root,
    bin: Vec<u8>,
    json_form: bool,
    options: &WriteOptions,
) -> Result<Output, WriteError> {
    let mut sidecars = Vec::new();
    if !bin.is_empty() {
        let uri = if json_form {
            let stem = options
                .file_name
                .as_deref()
                .and_then(|n| std::path::Path::new(n).file_stem())
                .and_then(|s| s.to_str())
                .unwrap_or("walkmesh");
            let bin_name = format!("{stem}.bin");
            let uri = uri_escape(&bin_name);
            sidecars.push(Sidecar {
                file_name: bin_name,
                bytes: Vec::new(),
            });
            Some(uri)
        } else {
            None
        };
        root.buffers.push(json::Buffer {
            byte_length: count(bin.len()),
            name: None,
            uri,
            extensions: None,
            extras: None,
        });
    }

    if json_form {
        let text = json::serialize::to_vec_pretty(&root)
            .map_err(|e| WriteError::new("", format!("cannot encode glTF JSON: {e}")))?;
        if let Some(sidecar) = sidecars.first_mut() {
            sidecar.bytes = bin;
        }
        Ok(Output {
            main: text,
            sidecars,
        })
    } else {
        let text = json::serialize::to_vec(&root)
            .map_err(|e| WriteError::new("", format!("cannot encode glTF JSON: {e}")))?;
        if text.len() + bin.len() > u32::MAX as usize - 64 {
            return Err(WriteError::new(
                "",
                "the mesh is too large for a .glb file (4 GiB); write .gltf instead",
            ));
        }
        let glb = gltf::binary::Glb {
            header: gltf::binary::Header {
                magic: *b"glTF",
                version: 2,
                length: 0,
            },
            json: Cow::Owned(text),
            bin: (!bin.is_empty()).then_some(Cow::Owned(bin)),
        };
        let bytes = glb
            .to_vec()
            .map_err(|e| WriteError::new("", format!("cannot encode .glb: {e}")))?;
        Ok(Output {
            main: bytes,
            sidecars,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_distinct_for_the_vocabulary() {
        let mut seen = std::collections::BTreeSet::new();
        for material in 0..31u16 {
            for walkable in [false, true] {
                let c = colour(material, walkable);
                assert!(c.iter().all(|v| (0.0..=1.0).contains(v)), "{c:?}");
                assert!(seen.insert(c.map(f32::to_bits)), "{material} {walkable}");
            }
        }
    }

    #[test]
    fn uri_escape_keeps_plain_names() {
        assert_eq!(uri_escape("room_01.bin"), "room_01.bin");
        assert_eq!(uri_escape("my room#1.bin"), "my%20room%231.bin");
        assert!(wants_json(Some("a.GLTF")));
        assert!(!wants_json(Some("a.glb")));
        assert!(!wants_json(None));
    }
}
