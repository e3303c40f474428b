//! The default format registry: every format crate enabled by a cargo feature (all by default).

use std::path::Path;

use walkmesh_core::{BoxError, Diagnostics, FormatDescriptor, LeftOut, NavMesh, Registry};

/// One built-in format a line: the cargo feature that brings it in, its crate's format and
/// descriptor, and the names a build without the feature refuses it by. The macro makes of
/// them the registrations ([`default_registry`]) and [`BUILT_IN`].
///
/// Why the names stand here as well as in the descriptors: a descriptor is a `const` of its
/// format crate, and a build without the feature does not compile that crate, so a left-out
/// format's id and extensions cannot come from it. They are written once, here, and every
/// build with the feature compares them with the descriptor at compile time
/// ([`names_agree`]), so the two cannot drift apart. `render geometry` marks the formats
/// whose [`walkmesh_core::Format::render_geometry`] role a `.mdl` input of `generate` needs;
/// a test checks it against the role.
macro_rules! built_in {
    ($($feature:literal => $format:path, $descriptor:path,
        id $id:literal, extensions [$($extension:literal),+], render geometry $render:literal;)+) => {
        /// Every enabled format, in the order of [`BUILT_IN`]: binary formats with magic first.
        #[allow(unused_variables)] // every feature off: nothing to register
        fn register_built_in(registry: &mut Registry) {
            $(
                #[cfg(feature = $feature)]
                registry.register(Box::new($format));
            )+
        }

        /// Every built-in format, whether this build has it, and what names it (so that
        /// asking for one the build was compiled without names the cargo feature instead of
        /// calling it unknown).
        const BUILT_IN: &[(bool, LeftOut)] = &[$((
            cfg!(feature = $feature),
            LeftOut {
                id: $id,
                extensions: &[$($extension),+],
                feature: $feature,
                render_geometry: $render,
            },
        )),+];

        $(
            #[cfg(feature = $feature)]
            const _: () = assert!(
                names_agree(&$descriptor, $id, &[$($extension),+], $feature),
                concat!("built_in!: the names of `", $id, "` differ from its descriptor's"),
            );
        )+
    };
}

built_in! {
    "bwm" => walkmesh_bwm::BwmFormat, walkmesh_bwm::DESCRIPTOR,
        id "bwm", extensions ["wok", "pwk", "dwk", "bwm"], render geometry false;
    "nwn2" => walkmesh_nwn2::TrxFormat, walkmesh_nwn2::DESCRIPTOR,
        id "trx", extensions ["trx", "trn"], render geometry false;
    "prime" => walkmesh_prime::PathFormat, walkmesh_prime::DESCRIPTOR,
        id "path", extensions ["path"], render geometry false;
    "gltf" => walkmesh_gltf::GltfFormat, walkmesh_gltf::DESCRIPTOR,
        id "gltf", extensions ["gltf", "glb"], render geometry false;
    "mdl" => walkmesh_mdl::MdlFormat, walkmesh_mdl::DESCRIPTOR,
        id "mdl", extensions ["mdl"], render geometry true;
    "obj" => walkmesh_obj::ObjFormat, walkmesh_obj::DESCRIPTOR,
        id "obj", extensions ["obj"], render geometry false;
}

/// Whether a descriptor has the id, extensions and feature `built_in!` names it by (`const`,
/// for the compile-time check; `str` equality is not `const` yet).
#[allow(dead_code)] // every feature off: nothing to check
const fn names_agree(
    descriptor: &FormatDescriptor,
    id: &str,
    extensions: &[&str],
    feature: &str,
) -> bool {
    if !same(descriptor.id, id)
        || !same(descriptor.feature, feature)
        || descriptor.extensions.len() != extensions.len()
    {
        return false;
    }
    let mut i = 0;
    while i < extensions.len() {
        if !same(descriptor.extensions[i], extensions[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// `a == b`, in a `const fn`.
#[allow(dead_code)] // every feature off: nothing to check
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A registry holding every enabled format, binary formats with magic first.
pub fn default_registry() -> Registry {
    let mut registry = Registry::new();
    register_built_in(&mut registry);
    for (built, left_out) in BUILT_IN {
        if !built {
            registry.note_left_out(*left_out);
        }
    }
    registry
}

/// Why a model's render geometry ([`read_render_geometry`], [`render_geometry_of_model`])
/// could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelGeometryError {
    /// The model file did not read (the format's error names the file, offset and field).
    // Printed, not chained as a `source`: a boxed `KindedError` is not itself an `Error`.
    #[error("{0}")]
    Model(BoxError),
    /// A model given as bytes did not read; `label` (escaped) names it.
    #[error("{label}: {error}")]
    ModelBytes { label: String, error: BoxError },
    /// This build leaves the model's format out; `model` (escaped) names the file. (KotOR's
    /// is the only model format with render geometry, hence the wording.)
    #[error("{model}: this build has no KotOR model reader (cargo feature `{feature}`)")]
    NoModelReader {
        model: String,
        feature: &'static str,
    },
    /// As [`ModelGeometryError::NoModelReader`], for a model given as bytes.
    #[error(
        "{label}: this build has no KotOR model reader (cargo feature `{feature}`) ({mdl} + {mdx} bytes)"
    )]
    NoModelReaderBytes {
        label: String,
        feature: &'static str,
        mdl: usize,
        mdx: usize,
    },
    /// No format of the registry reads render geometry from a model named `label` (a
    /// registry built without the model format and without noting it left out).
    #[error("{label}: no format of this build reads a model's render geometry")]
    NotAModel { label: String },
}

impl walkmesh_core::Kinded for ModelGeometryError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            ModelGeometryError::Model(error) | ModelGeometryError::ModelBytes { error, .. } => {
                error.kind()
            }
            ModelGeometryError::NoModelReader { .. }
            | ModelGeometryError::NoModelReaderBytes { .. }
            | ModelGeometryError::NotAModel { .. } => walkmesh_core::ErrorKind::Unsupported,
        }
    }
}

/// The render geometry of a model file, for `walkmesh generate`: `Some` for a file whose
/// extension a format with the render-geometry role claims (a KotOR binary model, `.mdl`
/// case-insensitive: its render triangles in room coordinates, read with the `.mdx` beside
/// it), `None` for every other file, whose registry reader already gives its triangles. The
/// registry's `.mdl` reader returns the model's walkmesh node instead, a copy of the room's
/// WOK, which is never an input of the generator. The CLI and the Python package both decide
/// through this function.
pub fn read_render_geometry(
    registry: &Registry,
    path: &Path,
    diag: &mut Diagnostics,
) -> Option<Result<NavMesh, ModelGeometryError>> {
    let reader = match registry.render_geometry_for(path) {
        Ok(reader) => reader?,
        Err(left_out) => {
            return Some(Err(ModelGeometryError::NoModelReader {
                model: escaped(&path.display().to_string()),
                feature: left_out.feature,
            }));
        }
    };
    Some(
        reader
            .read_render_file(path, diag)
            .map_err(ModelGeometryError::Model),
    )
}

/// The render geometry of a model given as bytes (a `ROOM.mdl` and its `.mdx`, e.g. members
/// of a module archive), as [`read_render_geometry`] reads it from files, through the format
/// the registry has for `label`'s extension. `label` names the model in errors and in the
/// warnings added to `diag`.
pub fn render_geometry_of_model(
    registry: &Registry,
    mdl: &[u8],
    mdx: &[u8],
    label: &str,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ModelGeometryError> {
    let escaped_label = escaped(label);
    let reader = match registry.render_geometry_for(Path::new(label)) {
        Ok(Some(reader)) => reader,
        Ok(None) => {
            return Err(ModelGeometryError::NotAModel {
                label: escaped_label,
            });
        }
        Err(left_out) => {
            return Err(ModelGeometryError::NoModelReaderBytes {
                label: escaped_label,
                feature: left_out.feature,
                mdl: mdl.len(),
                mdx: mdx.len(),
            });
        }
    };
    // The reader's notes, each said of the model (an archive's member has no path to show).
    let mut notes = Diagnostics::new();
    let read = reader.read_render_bytes(mdl, mdx, &mut notes);
    for item in notes.items {
        diag.warn(&item.code, format!("{escaped_label}: {}", item.message));
    }
    read.map_err(|error| ModelGeometryError::ModelBytes {
        label: escaped_label,
        error,
    })
}

/// `text` with control characters escaped, for messages.
fn escaped(text: &str) -> String {
    walkmesh_core::printable::escape(text).into_owned()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[cfg(feature = "mdl")]
    #[test]
    fn a_model_that_does_not_read_is_a_model_error_naming_it() {
        let registry = default_registry();
        let mut diag = walkmesh_core::Diagnostics::new();
        let error = render_geometry_of_model(&registry, b"not a model", b"", "room.mdl", &mut diag)
            .unwrap_err();
        assert!(error.to_string().starts_with("room.mdl: "), "{error}");
        assert!(
            matches!(&error, ModelGeometryError::ModelBytes { label, .. } if label == "room.mdl"),
            "{error:?}"
        );
        let obj = std::path::Path::new("room.obj");
        assert!(read_render_geometry(&registry, obj, &mut diag).is_none());
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
            assert_eq!(format.descriptor().engine, engine, "{id}");
            assert_eq!(
                format.descriptor().capabilities.engine_tables,
                tables,
                "{id}"
            );
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
        let trn = trn.descriptor();
        assert_eq!((trn.id, trn.engine), ("trx", Engine::Nwn2));
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
        assert_eq!(room.descriptor().id, "bwm");
        let registry = default_registry();
        let room = registry.room_walkmesh(Engine::Kotor).unwrap();
        assert_eq!(room.descriptor().id, "bwm");
        for engine in [Engine::Nwn2, Engine::Prime, Engine::Generic] {
            assert!(registry.room_walkmesh(engine).is_none(), "{engine:?}");
        }
    }

    /// The names noted for a left-out format are the format's own, and so is its
    /// render-geometry role (checked for every format this build has: the full build has them
    /// all); no two formats share an id or an extension.
    #[test]
    fn left_out_names_match_the_descriptors() {
        let registry = default_registry();
        for (built, left_out) in BUILT_IN {
            let Ok(format) = registry.by_id(left_out.id) else {
                assert!(!built, "{}", left_out.id);
                continue;
            };
            let descriptor = format.descriptor();
            assert!(built);
            assert_eq!(descriptor.extensions, left_out.extensions);
            assert_eq!(descriptor.feature, left_out.feature);
            let renders = format.render_geometry().is_some();
            assert_eq!(renders, left_out.render_geometry, "{}", left_out.id);
            assert!(names_agree(
                descriptor,
                left_out.id,
                left_out.extensions,
                left_out.feature
            ));
        }
        const X: FormatDescriptor = FormatDescriptor::new("x", "x", &["x"], "x");
        assert!(names_agree(&X, "x", &["x"], "x"));
        assert!(!names_agree(&X, "x", &["x", "y"], "x"));
        assert!(!names_agree(&X, "x", &["xy"], "x") && !names_agree(&X, "y", &["x"], "x"));
        let ids: std::collections::BTreeSet<_> = BUILT_IN.iter().map(|(_, l)| l.id).collect();
        let extensions: Vec<_> = BUILT_IN.iter().flat_map(|(_, l)| l.extensions).collect();
        let distinct: std::collections::BTreeSet<_> = extensions.iter().collect();
        assert_eq!(ids.len(), BUILT_IN.len());
        assert_eq!(distinct.len(), extensions.len());
    }

    /// A model is told by the registry's render-geometry role for its extension, not by the
    /// `.mdl` extension itself: a registry without the model format reads a `.mdl` as no model,
    /// or, when it notes the format left out (as a build without `mdl` does), refuses it naming
    /// the feature; files of other formats are never models.
    #[cfg(all(feature = "obj", feature = "mdl"))]
    #[test]
    fn render_geometry_comes_from_the_role() {
        let model = std::path::Path::new("missing/room.MDL");
        let mut diag = Diagnostics::new();
        let mut registry = Registry::new();
        registry.register(Box::new(walkmesh_obj::ObjFormat));
        assert!(read_render_geometry(&registry, model, &mut diag).is_none());
        let bytes = render_geometry_of_model(&registry, b"", b"", "room.mdl", &mut diag);
        assert!(matches!(bytes, Err(ModelGeometryError::NotAModel { .. })));
        let mdl = BUILT_IN.iter().find(|(_, l)| l.id == "mdl").unwrap().1;
        registry.note_left_out(mdl);
        let refused = read_render_geometry(&registry, model, &mut diag).unwrap();
        assert_eq!(
            refused.unwrap_err().to_string(),
            "missing/room.MDL: this build has no KotOR model reader (cargo feature `mdl`)"
        );
        let bytes = render_geometry_of_model(&registry, b"ab", b"c", "room.mdl", &mut diag);
        assert_eq!(
            bytes.unwrap_err().to_string(),
            "room.mdl: this build has no KotOR model reader (cargo feature `mdl`) (2 + 1 bytes)"
        );
        let obj = std::path::Path::new("room.obj");
        assert!(read_render_geometry(&registry, obj, &mut diag).is_none());
        // With the format, the file is read as a model (here: one that is not there).
        let registry = default_registry();
        let missing = read_render_geometry(&registry, model, &mut diag).unwrap();
        assert!(matches!(missing, Err(ModelGeometryError::Model(_))));
        assert!(read_render_geometry(&registry, obj, &mut diag).is_none());
        assert!(diag.items.is_empty());
    }
}
