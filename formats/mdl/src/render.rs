//! Render geometry of a model as a [`NavMesh`] in model (room) coordinates, the input of
//! `walkmesh generate`.
//!
//! What the mesh holds:
//! - every face of every render mesh node ([`Node::is_render_mesh`]: trimesh, danglymesh,
//!   skin, anim-mesh; not the walkmesh node, not sabers), nodes in tree order, faces in file
//!   order, degenerate faces included;
//! - every vertex of those nodes (also ones no face uses), moved into model space by the
//!   node's rest transform composed down the parent chain; Z up, as in the game;
//! - per face, the name of its material: the node's texture (bitmap), else the node's name,
//!   in the column `mdl:material` indexing the list `mdl:materials` (the layout the OBJ
//!   reader uses for `o`/`g` names: `obj:object` into `obj:objects`), and the node in
//!   `mdl:node` indexing `mdl:nodes`;
//! - surfaces: render geometry says nothing about walking, so **no face is walkable** and
//!   the material is the neutral one the name means when the name is a surface name (as the
//!   OBJ reader maps `usemtl` names, e.g. a texture called `Grass`), else `Undefined`. A
//!   generator decides walkability from the geometry and reads the names from the column.
//!
//! - hooks `use1` and `use2`: the model-space positions of its use-point dummy nodes (a
//!   node without mesh data named `use1`/`use2`, or ending `use01`/`use_01`/`dp_closed_01`
//!   and the `2` forms, as MDLedit names a PWK's and a DWK's closed-state use points), for
//!   `walkmesh generate`'s placeable and door walkmeshes; none when the model has neither.
//!
//! Vertex identity is incidental (meshes split vertices at UV seams, nodes never share
//! them), so a writer welds equal positions as it does for OBJ and glTF input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkmesh_core::material::MaterialProfile;
use walkmesh_core::{
    Attribute, Extra, Hook, Material, MeshKind, NavMesh, Polygons, Provenance, Surface,
    VertexIdentity,
};

use crate::error::{MdlError, MdlErrorKind};
use crate::model::{Model, Node, Transform};

/// Column (per face) and list (per mesh) of the material names.
pub const MATERIAL_COLUMN: &str = "mdl:material";
pub const MATERIAL_LIST: &str = "mdl:materials";
/// Column and list of the node names.
pub const NODE_COLUMN: &str = "mdl:node";
pub const NODE_LIST: &str = "mdl:nodes";

/// Names in order of first use, with one index per face.
#[derive(Default)]
struct NameColumn {
    names: Vec<String>,
    lookup: HashMap<String, i64>,
    per_face: Vec<i64>,
}

impl NameColumn {
    fn index_of(&mut self, name: &str) -> i64 {
        if let Some(&index) = self.lookup.get(name) {
            return index;
        }
        let index = self.names.len() as i64;
        self.names.push(name.to_string());
        self.lookup.insert(name.to_string(), index);
        index
    }

    fn store(self, mesh: &mut NavMesh, column: &str, list: &str) {
        mesh.extras
            .insert(list.to_string(), Extra::TextList(self.names));
        mesh.face_attributes
            .insert(column.to_string(), Attribute::Int(self.per_face));
    }
}

/// Every render triangle of `model` in model coordinates (see the module documentation).
pub fn render_mesh(model: &Model) -> Result<NavMesh, MdlError> {
    refuse_a_foreign_mdx(model)?;
    let transforms = model.model_transforms();
    let neutral = MaterialProfile::neutral();
    let (vertex_total, face_total) = model
        .render_nodes()
        .filter_map(|i| model.nodes.get(i)?.mesh.as_ref())
        .fold((0usize, 0usize), |(v, f), m| {
            (v + m.vertices.len(), f + m.faces.len())
        });
    if u32::try_from(vertex_total).is_err() {
        return Err(MdlError::whole(
            MdlErrorKind::Inconsistent,
            "vertices",
            format!("{vertex_total} render vertices are more than a mesh can index"),
        ));
    }
    let mut mesh = NavMesh {
        kind: MeshKind::Area,
        vertices: Vec::with_capacity(vertex_total),
        polygons: Polygons::with_capacity(face_total, 3 * face_total),
        surfaces: Vec::with_capacity(face_total),
        ..NavMesh::default()
    };
    let mut materials = NameColumn::default();
    let mut nodes = NameColumn::default();
    for index in model.render_nodes() {
        let (Some(node), Some(transform)) = (model.nodes.get(index), transforms.get(index)) else {
            continue;
        };
        let surface = surface_for_name(&neutral, node.material_name());
        let material = materials.index_of(node.material_name());
        let node_index = nodes.index_of(&node.name);
        let faces = append_node(&mut mesh, node, transform, surface)?;
        materials
            .per_face
            .extend(std::iter::repeat_n(material, faces));
        nodes
            .per_face
            .extend(std::iter::repeat_n(node_index, faces));
    }
    mesh.hooks = use_points(model, &transforms);
    materials.store(&mut mesh, MATERIAL_COLUMN, MATERIAL_LIST);
    nodes.store(&mut mesh, NODE_COLUMN, NODE_LIST);
    mesh.extras
        .insert("mdl:model".to_string(), Extra::Text(model.name.clone()));
    mesh.provenance = Some(Provenance {
        format: "mdl".into(),
        fingerprint: mesh.fingerprint(),
        vertex_identity: VertexIdentity::Incidental,
        ..Provenance::default()
    });
    Ok(mesh)
}

/// The model-space positions of the use-point dummy nodes as hooks `use1`, `use2` (module
/// documentation); the first node of each name in tree order.
fn use_points(model: &Model, transforms: &[Transform]) -> Vec<Hook> {
    let mut hooks: Vec<Hook> = Vec::new();
    for (node, transform) in model.nodes.iter().zip(transforms) {
        let Some(name) = use_point_name(node) else {
            continue;
        };
        if hooks.iter().any(|h| h.name == name) {
            continue;
        }
        let position = transform.translation.map(|c| c as f32);
        if position.iter().all(|c| c.is_finite()) {
            hooks.push(Hook {
                name: name.to_string(),
                position,
            });
        }
    }
    hooks.sort_by(|a, b| a.name.cmp(&b.name));
    hooks
}

/// `use1` or `use2` when `node` is a use-point dummy (no mesh data).
fn use_point_name(node: &Node) -> Option<&'static str> {
    if node.mesh.is_some() {
        return None;
    }
    let name = node.name.to_ascii_lowercase();
    let ends = |suffixes: [&str; 4]| suffixes.iter().any(|s| name.ends_with(s));
    if ends(["use1", "use01", "use_01", "dp_closed_01"]) {
        Some("use1")
    } else if ends(["use2", "use02", "use_02", "dp_closed_02"]) {
        Some("use2")
    } else {
        None
    }
}

/// The neutral surface a render name means, never walkable (module documentation).
fn surface_for_name(neutral: &MaterialProfile, name: &str) -> Surface {
    let material = neutral
        .surface_for_tool_name(name)
        .map_or(Material(0), |surface| surface.material);
    Surface {
        material,
        walkable: false,
        code: u32::from(material.0),
    }
}

/// Appends `node`'s vertices (moved into model space) and faces; returns the face count.
pub(crate) fn append_node(
    mesh: &mut NavMesh,
    node: &Node,
    transform: &Transform,
    surface: Surface,
) -> Result<usize, MdlError> {
    let Some(geometry) = &node.mesh else {
        return Ok(0);
    };
    let base = mesh.vertices.len();
    for (i, &vertex) in geometry.vertices.iter().enumerate() {
        mesh.vertices.push(model_space(transform, vertex, node, i)?);
    }
    for face in &geometry.faces {
        // Corners were checked against the node's vertex count when reading; the total fits
        // in u32 (checked by the callers).
        let corners = face.vertices.map(|c| (base + usize::from(c)) as u32);
        mesh.push_polygon(&corners, surface);
    }
    Ok(geometry.faces.len())
}

/// `vertex` of `node` in model space, refused when it leaves the `f32` range.
fn model_space(
    transform: &Transform,
    vertex: [f32; 3],
    node: &Node,
    index: usize,
) -> Result<[f32; 3], MdlError> {
    let moved = transform.apply(vertex).map(|c| c as f32);
    if moved.iter().all(|c| c.is_finite()) {
        return Ok(moved);
    }
    Err(MdlError::whole(
        MdlErrorKind::NonFinite,
        format!("vertices[{index}]"),
        format!(
            "vertex {index} at {vertex:?} leaves the 32-bit float range once the node's transform (and its parents') is applied"
        ),
    )
    .in_node(&node.name))
}

/// The `.mdx` beside `mdl_path`: same name, extension `mdx` (or `MDX` for an upper-case
/// `.MDL`, for case-sensitive file systems).
pub fn mdx_path(mdl_path: &Path) -> PathBuf {
    let upper = mdl_path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e == "MDL");
    mdl_path.with_extension(if upper { "MDX" } else { "mdx" })
}

/// Refuses a model whose `.mdx` rows differ from the `.mdl`'s own copy of the positions in
/// every mesh: that `.mdx` belongs to another model (its size word patched, or a file
/// renamed), and its rows would be taken as positions. The game's files always agree
/// (`docs/formats/mdl.md` §4.3); one mesh that differs is read as it is (the rows win).
fn refuse_a_foreign_mdx(model: &Model) -> Result<(), MdlError> {
    let meshes = model
        .nodes
        .iter()
        .filter(|n| n.mesh.as_ref().is_some_and(|m| !m.vertices.is_empty()))
        .count();
    let differing = model.vertex_copy_mismatches.len();
    if differing == 0 || differing < meshes {
        return Ok(());
    }
    Err(MdlError::whole(
        MdlErrorKind::Inconsistent,
        "mdx",
        format!(
            "the .mdx rows differ from the model's own copy of the vertices in every mesh ({differing} of {meshes}): this .mdx is not this model's (give the .mdx written with this .mdl)"
        ),
    ))
}

/// Reads `X.mdl` and the `X.mdx` beside it and returns [`render_mesh`]. A missing `.mdx` is
/// an error naming it: the game renders from the `.mdx` rows, so this function does not fall
/// back to the `.mdl`'s vertex copy (use [`crate::read_model`] with `None` for that).
pub fn read_render_mesh_file(mdl_path: &Path) -> Result<NavMesh, MdlError> {
    let model = read_model_file(mdl_path)?;
    render_mesh(&model).map_err(|e| e.in_file(mdl_path))
}

/// Reads `X.mdl` with the `X.mdx` beside it (a missing `.mdx` is an error naming it).
pub fn read_model_file(mdl_path: &Path) -> Result<Model, MdlError> {
    let mdl = walkmesh_core::files::read(mdl_path).map_err(|error| {
        MdlError::whole(
            MdlErrorKind::Io,
            "",
            format!("cannot read the model: {error}"),
        )
        .in_file(mdl_path)
    })?;
    let mdx_file = mdx_path(mdl_path);
    let mdx = walkmesh_core::files::read(&mdx_file).map_err(|error| {
        MdlError::whole(
            MdlErrorKind::MissingMdx,
            "",
            format!(
                "cannot read the model's vertex file {}: {error}; a binary model's vertices are in the .mdx beside its .mdl",
                walkmesh_core::printable::escape(&mdx_file.display().to_string())
            ),
        )
        .in_file(mdl_path)
    })?;
    crate::read_model(&mdl, Some(&mdx)).map_err(|e| e.in_file(mdl_path))
}
