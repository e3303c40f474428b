//! The conversion flow the commands share (`convert`, its batches, `generate`): a plan made
//! once per run, one file converted or a mesh in memory written through the library's flow
//! (`walkmesh_pipeline::convert`: read → prepare → write → check → rename), and the lines
//! printed about a conversion.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Format, ReadOptions, Registry, progress};
use walkmesh_pipeline::convert::{Destination, Origin, WritePlan};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::OutputSettings;

use crate::input::load_with;
use crate::targets::is_stdout;

/// What one conversion read and wrote (`convert --json`, one line of a batch report).
pub use walkmesh_pipeline::convert::Conversion;

/// Everything a conversion needs besides the input and output paths; built once per run.
pub struct Plan<'r> {
    pub registry: &'r Registry,
    pub from: Option<String>,
    pub read: ReadOptions,
    /// The library's write plan: target, writer options, weld, translation, warning policy,
    /// output check.
    pub write: WritePlan<'r>,
    /// Files every conversion of the run reads besides its input (--materials, --template).
    pub dependencies: Vec<PathBuf>,
    pub settings: OutputSettings,
}

impl std::fmt::Debug for Plan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("target", &self.write.target.id())
            .finish_non_exhaustive()
    }
}

/// The format `--to` names: an extension claimed by a writer (`glb`, `wok`), else a format
/// id; with the extension outputs get.
pub fn target_for<'r>(
    registry: &'r Registry,
    to: &str,
) -> Result<(&'r dyn Format, String), Failure> {
    Ok(walkmesh_pipeline::target_for(registry, to)?)
}

/// The `--depfile` rule of a conversion: the output and its sidecars, then what it read.
pub fn dependency_rule(conversion: &Conversion) -> String {
    let output = conversion.output.clone().unwrap_or_default();
    let directory = output.parent().unwrap_or(Path::new("")).to_path_buf();
    let targets: Vec<PathBuf> = std::iter::once(output)
        .chain(conversion.sidecars.iter().map(|s| directory.join(s)))
        .collect();
    walkmesh_pipeline::depfile::rule(&targets, &conversion.dependencies)
}

/// Converts `input` to `output` (`-`: the bytes are returned in `main_bytes`). Nothing is
/// printed; on failure nothing new is left behind.
pub fn convert_file(plan: &Plan<'_>, input: &Path, output: &Path) -> Result<Conversion, Failure> {
    let mut diag = Diagnostics::new();
    progress::phase(|| format!("reading {}", input.display()));
    let (mesh, source) = load_with(
        plan.registry,
        input,
        plan.from.as_deref(),
        &plan.read,
        &mut diag,
    )?;
    let dependencies = walkmesh_pipeline::depfile::unique(
        std::iter::once(walkmesh_kotor_area::erf::file_holding(input))
            .chain(mesh.provenance.iter().flat_map(|p| p.files_read.clone()))
            .chain(plan.dependencies.iter().cloned()),
    );
    write_loaded(plan, &mesh, source, dependencies, input, output, diag)
}

/// The writing half of [`convert_file`] for a mesh already in memory (`generate` writes
/// through it too): the library's conversion flow (`walkmesh_pipeline::convert`) to OUT or
/// standard output. `input` names the source in messages; `source` is its format id.
pub fn write_loaded(
    plan: &Plan<'_>,
    mesh: &walkmesh_core::NavMesh,
    source: &str,
    dependencies: Vec<PathBuf>,
    input: &Path,
    output: &Path,
    diag: Diagnostics,
) -> Result<Conversion, Failure> {
    let destination = if is_stdout(output) {
        Destination::Memory { name: Some(output) }
    } else {
        Destination::File(output, plan.settings)
    };
    let origin = Origin {
        path: Some(input),
        format: Some(source),
    };
    let mut conversion =
        walkmesh_pipeline::convert::convert(mesh, origin, destination, &plan.write, diag)?;
    conversion.dependencies = dependencies;
    Ok(conversion)
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
