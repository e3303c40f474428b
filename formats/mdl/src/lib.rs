//! KotOR binary models (`.mdl` + `.mdx`, KotOR 1 and 2, PC).
//!
//! - [`read_model`]: the model tree with each node's rest transform and mesh data.
//! - [`render_mesh`] / [`read_render_mesh_file`]: every render triangle in model (room)
//!   coordinates, with texture names per face, for `walkmesh generate`.
//! - [`walkmesh()`] and the registered [`MdlFormat`] (id `mdl`): the model's own walkmesh node
//!   (the AABB node) as a BWM-equivalent mesh, so `walkmesh info/convert/view room.mdl` work;
//!   its render-geometry role gives [`render_mesh`] of a file or of bytes to `walkmesh
//!   generate` (`walkmesh_formats::read_render_geometry`).
//!
//! Layout and evidence: `docs/formats/mdl.md` (its "Layout facts").

mod bytes;
mod error;
pub mod model;
mod parse;
mod render;
#[cfg(feature = "testing")]
pub mod synthetic;
mod walkmesh;

pub use error::{MdlError, MdlErrorKind, Part};
pub use model::{Face, Game, Mesh, Model, Node, Transform, flags};
pub use parse::read_model;
pub use render::{
    MATERIAL_COLUMN, MATERIAL_LIST, NODE_COLUMN, NODE_LIST, mdx_path, read_model_file,
    read_render_mesh_file, render_mesh,
};
pub use walkmesh::walkmesh;

use std::path::Path;

use walkmesh_core::format::MAGIC_SCORE;
use walkmesh_core::{
    BoxError, Diagnostics, Engine, Format, FormatDescriptor, Input, NavMesh, ReadError,
    ReadOptions, Reader, RenderGeometryReader,
};

/// The KotOR binary model format: read only, as the model's walkmesh node.
#[derive(Debug, Default, Clone, Copy)]
pub struct MdlFormat;

/// True when `head` starts like a binary model whose wrapper agrees with the file's length:
/// four zero bytes, then the model data's size = length − 12, then (when present) a known
/// geometry-header pointer (KotOR 1 or 2, PC or Xbox).
pub fn looks_like_model(head: &[u8], total_len: u64) -> bool {
    let head = walkmesh_core::cursor::ByteCursor::little(head);
    let word = |at: usize| head.at(at).u32("wrapper").ok();
    let (Some(0), Some(size), Some(pointer)) = (word(0), word(4), word(12)) else {
        return false;
    };
    let sizes_agree =
        u64::from(size) + parse::WRAPPER as u64 == total_len && size as usize >= parse::HEADERS;
    let known = parse::game_of(pointer).is_some() || [4_254_992, 4_285_872].contains(&pointer);
    sizes_agree && known
}

/// What the model format declares: KotOR's rules and profile; no magic ([`looks_like_model`]
/// checks the wrapper instead), nothing stored beyond the mesh (no transitions: a model is no
/// room walkmesh).
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    engine: Engine::Kotor,
    material_profile: Some(walkmesh_core::material::KOTOR_RON),
    ..FormatDescriptor::new(
        "mdl",
        "KotOR binary model (MDL; its walkmesh node)",
        &["mdl"],
        "mdl",
    )
};

impl Format for MdlFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn sniff(&self, head: &[u8], total_len: u64) -> u8 {
        if looks_like_model(head, total_len) {
            MAGIC_SCORE
        } else {
            0
        }
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(self)
    }
    fn render_geometry(&self) -> Option<&dyn RenderGeometryReader> {
        Some(self)
    }
}

/// The reader's warning for a header node count that disagrees with the tree it read.
fn note_node_count(model: &Model, diag: &mut Diagnostics) {
    if let Some(note) = model.node_count_note() {
        diag.warn("mdl.node_count", note);
    }
}

impl RenderGeometryReader for MdlFormat {
    /// The render triangles in room coordinates, read with the `.mdx` beside the `.mdl`
    /// ([`read_model_file`]); errors name the file.
    fn read_render_file(&self, path: &Path, diag: &mut Diagnostics) -> Result<NavMesh, BoxError> {
        let model = read_model_file(path).map_err(boxed)?;
        note_node_count(&model, diag);
        render_mesh(&model).map_err(|e| boxed(e.in_file(path)))
    }

    fn read_render_bytes(
        &self,
        model: &[u8],
        sidecar: &[u8],
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, BoxError> {
        let model = read_model(model, Some(sidecar)).map_err(boxed)?;
        note_node_count(&model, diag);
        render_mesh(&model).map_err(boxed)
    }
}

/// The model reader's error as a role's boxed error, its kind kept.
fn boxed(error: MdlError) -> BoxError {
    Box::new(error)
}

impl Reader for MdlFormat {
    /// The walkmesh node, read from the `.mdl` alone: its vertex copy holds the positions
    /// (equal to the `.mdx` rows in every file checked, docs/formats/mdl.md §4.3), so no `.mdx` is
    /// needed and a model read from standard input works too.
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        let model = read_model(input.bytes, None)?;
        note_node_count(&model, diag);
        let mesh = walkmesh(&model, options.materials.as_ref(), diag)?;
        mesh.check()
            .map_err(|error| ReadError::whole("", error.to_string()))?;
        Ok(mesh)
    }
}
