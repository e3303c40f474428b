//! The default format registry: every format crate enabled by a cargo feature (all by default).

use walkmesh_core::Registry;

/// A registry holding every enabled format, binary formats with magic first.
pub fn default_registry() -> Registry {
    #[allow(unused_mut)]
    let mut registry = Registry::new();
    #[cfg(feature = "bwm")]
    registry.register(Box::new(walkmesh_bwm::BwmFormat));
    #[cfg(feature = "nwn2")]
    registry.register(Box::new(walkmesh_nwn2::TrxFormat));
    #[cfg(feature = "prime")]
    registry.register(Box::new(walkmesh_prime::PathFormat));
    #[cfg(feature = "gltf")]
    registry.register(Box::new(walkmesh_gltf::GltfFormat));
    #[cfg(feature = "mdl")]
    registry.register(Box::new(walkmesh_mdl::MdlFormat));
    #[cfg(feature = "obj")]
    registry.register(Box::new(walkmesh_obj::ObjFormat));
    registry
}

/// The render geometry of a model file, for `walkmesh generate`: `Some` for a KotOR binary
/// model (`.mdl`, case-insensitive; its render triangles in room coordinates, read with the
/// `.mdx` beside it), `None` for every other file, whose registry reader already gives its
/// triangles. The registry's `.mdl` reader returns the model's walkmesh node instead, a copy
/// of the room's WOK, which is never an input of the generator. The CLI and the Python
/// package both decide through this function.
pub fn read_render_geometry(
    path: &std::path::Path,
) -> Option<Result<walkmesh_core::NavMesh, String>> {
    let is_model = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("mdl"));
    if !is_model {
        return None;
    }
    #[cfg(feature = "mdl")]
    return Some(walkmesh_mdl::read_render_mesh_file(path).map_err(|e| e.to_string()));
    #[cfg(not(feature = "mdl"))]
    return Some(Err(format!(
        "{}: this build has no KotOR model reader (cargo feature `mdl`)",
        walkmesh_core::printable::escape(&path.display().to_string())
    )));
}

/// The render geometry of a KotOR binary model given as bytes (a `.mdl` and its `.mdx`, e.g.
/// members of a module archive), as [`read_render_geometry`] reads it from files. `label`
/// names the model in errors.
pub fn render_geometry_of_model(
    mdl: &[u8],
    mdx: &[u8],
    label: &str,
) -> Result<walkmesh_core::NavMesh, String> {
    #[cfg(feature = "mdl")]
    return walkmesh_mdl::read_model(mdl, Some(mdx))
        .and_then(|model| walkmesh_mdl::render_mesh(&model))
        .map_err(|e| format!("{}: {e}", walkmesh_core::printable::escape(label)));
    #[cfg(not(feature = "mdl"))]
    return Err(format!(
        "{}: this build has no KotOR model reader (cargo feature `mdl`) ({} + {} bytes)",
        walkmesh_core::printable::escape(label),
        mdl.len(),
        mdx.len()
    ));
}
