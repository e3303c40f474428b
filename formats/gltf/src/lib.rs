//! glTF 2.0 (`.gltf` JSON with buffers, `.glb` binary).

use walkmesh_core::{Format, Magic};

/// The glTF 2.0 format.
#[derive(Debug, Default, Clone, Copy)]
pub struct GltfFormat;

impl Format for GltfFormat {
    fn id(&self) -> &'static str {
        "gltf"
    }
    fn name(&self) -> &'static str {
        "glTF 2.0 (.gltf / .glb)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["gltf", "glb"]
    }
    fn magic(&self) -> &'static [Magic] {
        &[Magic {
            offset: 0,
            bytes: b"glTF",
            mask: None,
        }]
    }
}
