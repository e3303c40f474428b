//! Wavefront OBJ reader and writer.
//!
//! Walkmesh data that OBJ has no statement for travels in comment directives that other
//! tools ignore (see `docs/formats/obj.md`):
//!
//! ```text
//! #@walkmesh kind door
//! #@walkmesh origin 1.5 0 -2
//! #@walkmesh hook use1 0.5 0 1
//! #@walkmesh edge 12 0 transition 3     (face 12, 1-based; edge 0 = corner 0 → corner 1)
//! ```

mod parallel;
mod read;
mod tokens;
mod write;

pub use read::read_obj;
pub use write::{material_colour, write_obj};

use walkmesh_core::{Format, FormatDescriptor, ReadFn, Reader, Requirements, WriteFn, Writer};

/// Prefix of walkmesh comment directives.
pub const DIRECTIVE: &str = "#@walkmesh";

/// Read parameter (`ReadOptions::params`): with any value, every face's `usemtl` name, known
/// to the material profile or not, is kept in the `obj:material` column (indices into the
/// `obj:materials` list, −1 for a face without one). `walkmesh generate` asks for it, since
/// it reads surfaces from render material names (`Wood_floor`, `LHR_wall03`); conversions
/// do not, so their outputs are unchanged.
pub const MATERIAL_NAMES_PARAM: &str = "obj:material_names";

/// The Wavefront OBJ format.
#[derive(Debug, Default, Clone, Copy)]
pub struct ObjFormat;

/// What OBJ declares: its names only (no magic, no engine, the neutral profile).
pub const DESCRIPTOR: FormatDescriptor =
    FormatDescriptor::new("obj", "Wavefront OBJ", &["obj"], "obj");

impl Format for ObjFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    /// Text heuristic: the first kilobytes hold only OBJ statements, and at least one `v`.
    fn sniff(&self, head: &[u8], _total_len: u64) -> u8 {
        let window = head.get(..head.len().min(4096)).unwrap_or(head);
        let Ok(text) = std::str::from_utf8(window) else {
            return 0;
        };
        let mut lines: Vec<&str> = text.lines().collect();
        if window.len() == 4096 {
            lines.pop(); // possibly cut in the middle
        }
        let known = [
            "v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "usemtl", "mtllib",
        ];
        let mut vertices = 0;
        for line in lines {
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let keyword = trimmed.split_ascii_whitespace().next().unwrap_or("");
            if !known.contains(&keyword) {
                return 0;
            }
            if keyword == "v" {
                vertices += 1;
            }
        }
        if vertices > 0 { 50 } else { 0 }
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(&ReadFn(read_obj))
    }
    fn writer(&self) -> Option<&dyn Writer> {
        // OBJ stores any polygon and any order: nothing to prepare.
        const WRITER: WriteFn = WriteFn {
            requirements: Requirements::NONE,
            write: write_obj,
        };
        Some(&WRITER)
    }
}
