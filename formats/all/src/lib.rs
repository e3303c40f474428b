//! The default format registry: every format crate enabled by a cargo feature (all by default).

use walkmesh_core::{LeftOut, Registry};

/// A registry holding every enabled format, binary formats with magic first.
pub fn default_registry() -> Registry {
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
    for (built, left_out) in BUILT_IN {
        if !built {
            registry.note_left_out(left_out);
        }
    }
    registry
}

/// Every built-in format, whether this build has it, and what names it (so that asking for
/// one the build was compiled without names the cargo feature instead of calling it unknown).
const BUILT_IN: [(bool, LeftOut); 6] = [
    (
        cfg!(feature = "bwm"),
        LeftOut {
            id: "bwm",
            extensions: &["wok", "pwk", "dwk", "bwm"],
            feature: "bwm",
        },
    ),
    (
        cfg!(feature = "nwn2"),
        LeftOut {
            id: "trx",
            extensions: &["trx", "trn"],
            feature: "nwn2",
        },
    ),
    (
        cfg!(feature = "prime"),
        LeftOut {
            id: "path",
            extensions: &["path"],
            feature: "prime",
        },
    ),
    (
        cfg!(feature = "gltf"),
        LeftOut {
            id: "gltf",
            extensions: &["gltf", "glb"],
            feature: "gltf",
        },
    ),
    (
        cfg!(feature = "mdl"),
        LeftOut {
            id: "mdl",
            extensions: &["mdl"],
            feature: "mdl",
        },
    ),
    (
        cfg!(feature = "obj"),
        LeftOut {
            id: "obj",
            extensions: &["obj"],
            feature: "obj",
        },
    ),
];

/// Why a model's render geometry ([`read_render_geometry`], [`render_geometry_of_model`])
/// could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelGeometryError {
    /// The model file did not read (the error names the file, offset and field; boxed, as
    /// `MdlError` is large).
    #[cfg(feature = "mdl")]
    #[error(transparent)]
    Model(Box<walkmesh_mdl::MdlError>),
    /// A model given as bytes did not read; `label` (escaped) names it.
    #[cfg(feature = "mdl")]
    #[error("{label}: {source}")]
    ModelBytes {
        label: String,
        #[source]
        source: Box<walkmesh_mdl::MdlError>,
    },
    /// This build leaves the KotOR model reader out; `model` (escaped) names the file.
    #[error("{model}: this build has no KotOR model reader (cargo feature `mdl`)")]
    NoModelReader { model: String },
    /// As [`ModelGeometryError::NoModelReader`], for a model given as bytes.
    #[error(
        "{label}: this build has no KotOR model reader (cargo feature `mdl`) ({mdl} + {mdx} bytes)"
    )]
    NoModelReaderBytes {
        label: String,
        mdl: usize,
        mdx: usize,
    },
}

impl walkmesh_core::Kinded for ModelGeometryError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            #[cfg(feature = "mdl")]
            ModelGeometryError::Model(error)
            | ModelGeometryError::ModelBytes { source: error, .. } => {
                walkmesh_core::Kinded::kind(error.as_ref())
            }
            ModelGeometryError::NoModelReader { .. }
            | ModelGeometryError::NoModelReaderBytes { .. } => {
                walkmesh_core::ErrorKind::Unsupported
            }
        }
    }
}

/// The render geometry of a model file, for `walkmesh generate`: `Some` for a KotOR binary
/// model (`.mdl`, case-insensitive; its render triangles in room coordinates, read with the
/// `.mdx` beside it), `None` for every other file, whose registry reader already gives its
/// triangles. The registry's `.mdl` reader returns the model's walkmesh node instead, a copy
/// of the room's WOK, which is never an input of the generator. The CLI and the Python
/// package both decide through this function.
pub fn read_render_geometry(
    path: &std::path::Path,
    diag: &mut walkmesh_core::Diagnostics,
) -> Option<Result<walkmesh_core::NavMesh, ModelGeometryError>> {
    let is_model = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("mdl"));
    if !is_model {
        return None;
    }
    #[cfg(feature = "mdl")]
    return Some(
        walkmesh_mdl::read_model_file(path)
            .and_then(|model| {
                note_node_count(&model, diag);
                walkmesh_mdl::render_mesh(&model).map_err(|e| e.in_file(path))
            })
            .map_err(|e| ModelGeometryError::Model(Box::new(e))),
    );
    #[cfg(not(feature = "mdl"))]
    let _ = diag;
    #[cfg(not(feature = "mdl"))]
    return Some(Err(ModelGeometryError::NoModelReader {
        model: walkmesh_core::printable::escape(&path.display().to_string()).into_owned(),
    }));
}

/// The render geometry of a KotOR binary model given as bytes (a `.mdl` and its `.mdx`, e.g.
/// members of a module archive), as [`read_render_geometry`] reads it from files. `label`
/// names the model in errors and in the warnings added to `diag`.
pub fn render_geometry_of_model(
    mdl: &[u8],
    mdx: &[u8],
    label: &str,
    diag: &mut walkmesh_core::Diagnostics,
) -> Result<walkmesh_core::NavMesh, ModelGeometryError> {
    let label = walkmesh_core::printable::escape(label).into_owned();
    #[cfg(feature = "mdl")]
    return walkmesh_mdl::read_model(mdl, Some(mdx))
        .and_then(|model| {
            let mut notes = walkmesh_core::Diagnostics::new();
            note_node_count(&model, &mut notes);
            for item in notes.items {
                diag.warn(&item.code, format!("{label}: {}", item.message));
            }
            walkmesh_mdl::render_mesh(&model)
        })
        .map_err(|source| ModelGeometryError::ModelBytes {
            label,
            source: Box::new(source),
        });
    #[cfg(not(feature = "mdl"))]
    let _ = diag;
    #[cfg(not(feature = "mdl"))]
    return Err(ModelGeometryError::NoModelReaderBytes {
        label,
        mdl: mdl.len(),
        mdx: mdx.len(),
    });
}

/// The reader's warning for a header node count that disagrees with the tree it read.
#[cfg(feature = "mdl")]
fn note_node_count(model: &walkmesh_mdl::Model, diag: &mut walkmesh_core::Diagnostics) {
    if let Some(note) = model.node_count_note() {
        diag.warn("mdl.node_count", note);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[cfg(feature = "mdl")]
    #[test]
    fn a_model_that_does_not_read_is_a_model_error_naming_it() {
        let mut diag = walkmesh_core::Diagnostics::new();
        let error =
            render_geometry_of_model(b"not a model", b"", "room.mdl", &mut diag).unwrap_err();
        assert!(error.to_string().starts_with("room.mdl: "), "{error}");
        assert!(
            matches!(&error, ModelGeometryError::ModelBytes { label, .. } if label == "room.mdl"),
            "{error:?}"
        );
        assert!(read_render_geometry(std::path::Path::new("room.obj"), &mut diag).is_none());
    }

    /// Every built-in format's engine and capabilities, as lint, route and view use them.
    #[test]
    fn each_format_declares_its_engine_and_capabilities() {
        use walkmesh_core::Engine;
        let registry = default_registry();
        let expected = [
            ("bwm", Engine::Kotor, true),
            ("mdl", Engine::Kotor, false),
            ("trx", Engine::Nwn2, true),
            ("path", Engine::Prime, true),
            ("obj", Engine::Generic, false),
            ("gltf", Engine::Generic, false),
        ];
        for (id, engine, tables) in expected {
            let format = registry.by_id(id).unwrap();
            assert_eq!(format.engine(), engine, "{id}");
            assert_eq!(format.capabilities().engine_tables, tables, "{id}");
        }
        assert_eq!(registry.formats().count(), expected.len());
        let bwm = registry.capabilities_of("bwm");
        assert!(bwm.transitions && bwm.aabb_tree && !bwm.tiles && !bwm.regions);
        assert!(registry.capabilities_of("trx").tiles);
        assert!(registry.capabilities_of("path").regions);
        assert_eq!(
            registry.capabilities_of("obj"),
            walkmesh_core::Capabilities::NONE
        );
        // A `.trn` file is read by the `trx` format: NWN2, for lint and route alike (lint
        // once mapped the id string "trn" to NWN2 and route did not).
        let trn = registry
            .detect(std::path::Path::new("area.TRN"), b"", 0)
            .unwrap();
        assert_eq!((trn.id(), trn.engine()), ("trx", Engine::Nwn2));
    }

    /// An area's rooms are in the format its engine declares for them (transitions, read and
    /// written), whatever the order of registration: KotOR's is BWM, not the model format
    /// of the same engine; the other engines have none.
    #[cfg(all(feature = "bwm", feature = "mdl"))]
    #[test]
    fn the_kotor_room_walkmesh_is_bwm_and_no_other_engine_has_one() {
        use walkmesh_core::Engine;
        let mut registry = Registry::new();
        registry.register(Box::new(walkmesh_mdl::MdlFormat));
        assert!(registry.room_walkmesh(Engine::Kotor).is_none());
        registry.register(Box::new(walkmesh_bwm::BwmFormat));
        let room = registry.room_walkmesh(Engine::Kotor).unwrap();
        assert_eq!(room.id(), "bwm");
        let registry = default_registry();
        assert_eq!(registry.room_walkmesh(Engine::Kotor).unwrap().id(), "bwm");
        for engine in [Engine::Nwn2, Engine::Prime, Engine::Generic] {
            assert!(registry.room_walkmesh(engine).is_none(), "{engine:?}");
        }
    }

    /// The names noted for a left-out format are the format's own (checked for every format
    /// this build has: the full build has them all).
    #[test]
    fn left_out_names_match_the_formats() {
        let registry = default_registry();
        for (built, left_out) in BUILT_IN {
            if built {
                let format = registry.by_id(left_out.id).unwrap();
                assert_eq!(format.extensions(), left_out.extensions, "{}", left_out.id);
            } else {
                assert!(registry.by_id(left_out.id).is_err());
            }
        }
    }
}
