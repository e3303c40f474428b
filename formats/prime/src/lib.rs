//! Metroid Prime series area navigation meshes (`PATH`, big-endian, no magic).

use walkmesh_core::Format;

/// The Metroid Prime PATH format.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathFormat;

impl Format for PathFormat {
    fn id(&self) -> &'static str {
        "path"
    }
    fn name(&self) -> &'static str {
        "Metroid Prime area path mesh (PATH)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["path"]
    }
}
