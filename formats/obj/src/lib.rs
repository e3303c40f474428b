//! Wavefront OBJ.

use walkmesh_core::Format;

/// The Wavefront OBJ format.
#[derive(Debug, Default, Clone, Copy)]
pub struct ObjFormat;

impl Format for ObjFormat {
    fn id(&self) -> &'static str {
        "obj"
    }
    fn name(&self) -> &'static str {
        "Wavefront OBJ"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["obj"]
    }
}
