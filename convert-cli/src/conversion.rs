//! What the conversion commands share (`convert`, its batches, `generate`): the plan and the
//! conversion of one file are the library's (`walkmesh_pipeline::plan`: read → prepare →
//! write → check → rename); here are where `-` sends an output, the format `--to` names, and
//! the lines printed about a conversion.

use std::path::Path;

use walkmesh_core::{Format, Registry};
use walkmesh_pipeline::convert::Destination;
use walkmesh_pipeline::failure::Failure;

use crate::targets::is_stdout;

/// What one conversion read and wrote (`convert --json`, one line of a batch report).
pub use walkmesh_pipeline::convert::Conversion;
pub use walkmesh_pipeline::plan::{Plan, convert_file, dependency_rule, write_loaded};

/// Where OUT goes: standard output for `-`, else the file with the plan's settings.
pub fn destination<'a>(plan: &Plan<'_>, output: &'a Path) -> Destination<'a> {
    plan.destination(output, is_stdout(output))
}

/// The format `--to` names: an extension claimed by a writer (`glb`, `wok`), else a format
/// id; with the extension outputs get.
pub fn target_for<'r>(
    registry: &'r Registry,
    to: &str,
) -> Result<(&'r dyn Format, String), Failure> {
    Ok(walkmesh_pipeline::target_for(registry, to)?)
}

/// `wrote OUT (from → to): N faces, W walkable, B bytes (+ sidecars)`, counted in the file
/// written; `unchanged (same bytes, left untouched) OUT …` when OUT already held them.
pub fn summary_line(c: &Conversion, registry: &Registry) -> String {
    // What the target stores: a format of regions (PATH) holds regions, each the union of
    // many faces, as its declared capabilities say.
    let regions = registry.capabilities_of(&c.to).regions;
    let unit = if regions { "regions" } else { "faces" };
    format!(
        "{} {} ({} → {}): {} {unit}{}, {} walkable, {} bytes{}",
        if c.unchanged {
            "unchanged (same bytes, left untouched)"
        } else {
            "wrote"
        },
        c.output.as_deref().unwrap_or(Path::new("")).display(),
        c.from.as_deref().unwrap_or_default(),
        c.to,
        c.written.faces,
        if c.written.faces == c.read.faces && unit == "faces" {
            String::new()
        } else {
            format!(" (from {} faces read)", c.read.faces)
        },
        c.written.walkable_faces,
        c.bytes,
        if c.sidecars.is_empty() {
            String::new()
        } else {
            format!(" (+ {})", c.sidecars.join(", "))
        }
    )
}
