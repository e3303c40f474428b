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
