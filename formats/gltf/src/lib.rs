//! glTF 2.0 (`.gltf` JSON with buffers, `.glb` binary).
//!
//! The reader takes the triangles of every mesh primitive in one scene (node transforms
//! applied, Y-up converted to the IR's Z-up), maps material names to surfaces through the
//! material profile, and restores walkmesh metadata written in `extras`. The writer emits one
//! primitive per surface with a named, coloured material and keeps everything a walkmesh has
//! in documented `extras`, so that a walkmesh survives a trip through glTF. See
//! `docs/formats/gltf.md`.

mod base64;
mod dump;
pub mod meta;
mod read;
pub mod transitions;
mod write;

use walkmesh_core::dump::FieldSink;
use walkmesh_core::format::Dumper;
use walkmesh_core::{
    Diagnostics, Format, FormatDescriptor, Input, Magic, NavMesh, Output, ReadError, ReadOptions,
    Reader, Requirements, WriteError, WriteOptions, Writer,
};

/// The glTF 2.0 format.
#[derive(Debug, Default, Clone, Copy)]
pub struct GltfFormat;

/// What glTF declares: the binary form's magic (`GltfFormat`'s sniff tells the JSON form).
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    magic: &[Magic {
        offset: 0,
        bytes: b"glTF",
        mask: None,
    }],
    ..FormatDescriptor::new("gltf", "glTF 2.0 (.gltf / .glb)", &["gltf", "glb"], "gltf")
};

impl Format for GltfFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn sniff(&self, head: &[u8], _total_len: u64) -> u8 {
        let magic = DESCRIPTOR.magic_score(head);
        if magic > 0 {
            return magic;
        }
        // JSON form: an object whose text mentions the mandatory "asset" property early.
        let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        let trimmed = text.iter().position(|b| !b.is_ascii_whitespace());
        let starts_object = trimmed.and_then(|i| text.get(i)) == Some(&b'{');
        let mentions_asset = text.windows(7).any(|w| w == b"\"asset\"");
        if starts_object && mentions_asset {
            50
        } else {
            0
        }
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(self)
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(self)
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        Some(self)
    }
}

impl Dumper for GltfFormat {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        dump::dump_fields(input, options, sink)
    }
}

impl Reader for GltfFormat {
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        read::read(input, options, diag)
    }
}

impl Writer for GltfFormat {
    fn requirements(&self, _options: &WriteOptions) -> Requirements {
        // Polygons are fan-triangulated inside the writer and regrouped by the reader, so
        // n-gons (PATH) survive; vertices are written as they are.
        Requirements::default()
    }

    fn write(
        &self,
        mesh: &NavMesh,
        options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError> {
        write::write(mesh, options, diag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_recognises_glb_magic_and_gltf_json() {
        let format = GltfFormat;
        assert_eq!(
            format.sniff(b"glTF\x02\0\0\0", 100),
            walkmesh_core::format::MAGIC_SCORE
        );
        assert_eq!(
            format.sniff(b"\xEF\xBB\xBF  {\"asset\": {\"version\": \"2.0\"}}", 40),
            50
        );
        assert_eq!(format.sniff(b"{\"meshes\": []}", 14), 0);
        assert_eq!(format.sniff(b"v 1 2 3\n", 8), 0);
    }
}
