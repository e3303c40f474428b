//! Converting files: a [`Plan`] made once per run (reading options, the write plan, the files
//! every conversion depends on, output settings), one file read and converted through the
//! conversion flow ([`crate::convert::convert`]: prepare → write → check → rename), a mesh
//! already in memory written the same way (`generate`), and the dependency rule of a
//! conversion. `walkmesh convert`, its batches and `generate -o` call these; nothing is
//! printed.

use std::path::{Path, PathBuf};

use walkmesh_core::passes::OffsetParseError;
use walkmesh_core::{
    Diagnostics, Format, MeshKind, NavMesh, ReadOptions, Registry, WeldChoice, progress,
};

use crate::convert::{Conversion, Destination, Origin, WritePlan};
use crate::failure::Failure;
use crate::output::OutputSettings;
use crate::policy::OptionNames;
use crate::warnings::WarningPolicy;

/// Everything a conversion needs besides the input and output paths; built once per run.
pub struct Plan<'r> {
    pub registry: &'r Registry,
    /// The input format id asked for (`None`: detected).
    pub from: Option<String>,
    pub read: ReadOptions,
    /// The library's write plan: target, writer options, weld, translation, warning policy,
    /// output check.
    pub write: WritePlan<'r>,
    /// Files every conversion of the run reads besides its input (a material profile, a
    /// template).
    pub dependencies: Vec<PathBuf>,
    pub settings: OutputSettings,
}

impl std::fmt::Debug for Plan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("target", &self.write.target.descriptor().id)
            .finish_non_exhaustive()
    }
}

impl Plan<'_> {
    /// Where `output` goes: memory when `memory` (the command line's `-`, standard output;
    /// `output` names it in messages), else the file, with the plan's output settings.
    pub fn destination<'a>(&self, output: &'a Path, memory: bool) -> Destination<'a> {
        if memory {
            Destination::Memory { name: Some(output) }
        } else {
            Destination::File(output, self.settings)
        }
    }
}

/// What a run asks of its conversions, however it was asked (the command line's flags of
/// `convert` and `generate`, the Python package's keywords); [`plan`] makes the [`Plan`] of it.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// The input format id (`None`: detected).
    pub from: Option<String>,
    /// Rebuild every derived table (a generated mesh always does).
    pub rebuild: bool,
    /// The mesh kind to write (`None`: from the output's name, else the input's).
    pub kind: Option<MeshKind>,
    /// Writer parameters (`key`, `value`), the formats' declared ones.
    pub params: Vec<(String, String)>,
    /// The memory limit (MiB) of the writers that estimate what they allocate.
    pub max_memory_mib: Option<u64>,
    /// The weld asked for (`None`: the default).
    pub weld: Option<WeldChoice>,
    /// The offset to move the mesh by, or why its text is not one.
    pub translate: Option<Result<[f32; 3], OffsetParseError>>,
    /// Warning rules over the project file's (`walkmesh.toml`): strict, allow, deny.
    pub strict: bool,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    /// Write an output the check finds errors in.
    pub allow_invalid: bool,
    /// Files every conversion reads besides its input (a material profile, a template).
    pub dependencies: Vec<PathBuf>,
    pub settings: OutputSettings,
    /// Take the warning rules of the project file (`walkmesh.toml`) found from the working
    /// folder up before the options' own (the command line does; a Python program states
    /// its rules in its calls).
    pub project_rules: bool,
}

/// The plan of a run writing `target`: its write plan (a format without a writer refused),
/// the options over it, and the warning rules of the project file found from the working
/// folder up (when `options.project_rules`), then the options' own. The command line's
/// `convert` and `generate` and the Python package's writes all plan here.
pub fn plan<'r>(
    registry: &'r Registry,
    target: &'r dyn Format,
    read: ReadOptions,
    options: PlanOptions,
    names: OptionNames,
) -> Result<Plan<'r>, Failure> {
    let mut write = WritePlan::new(target, &read, names)?;
    write.write.rebuild = options.rebuild;
    write.write.kind = options.kind;
    write.write.params.extend(options.params);
    if let Some(mib) = options.max_memory_mib {
        write.write.params.insert(
            walkmesh_core::memory::PARAM_MAX_MEMORY.into(),
            mib.to_string(),
        );
    }
    write.weld = options.weld;
    write.translate = options
        .translate
        .transpose()
        .map_err(|error| Failure::usage(format!("{}: {error}", names.translate)))?;
    let found = if options.project_rules {
        let start = std::env::current_dir().unwrap_or_default();
        WarningPolicy::discover(&start)?.0
    } else {
        WarningPolicy::default()
    };
    write.warnings = found.with_flags(options.strict, &options.allow, &options.deny);
    write.allow_invalid = options.allow_invalid;
    Ok(Plan {
        registry,
        from: options.from,
        read,
        write,
        dependencies: options.dependencies,
        settings: options.settings,
    })
}

/// The dependency-file rule of a conversion: the output and its sidecars, then what it read.
pub fn dependency_rule(conversion: &Conversion) -> String {
    let output = conversion.output.clone().unwrap_or_default();
    let directory = output.parent().unwrap_or(Path::new("")).to_path_buf();
    let targets: Vec<PathBuf> = std::iter::once(output)
        .chain(conversion.sidecars.iter().map(|s| directory.join(s)))
        .collect();
    crate::depfile::rule(&targets, &conversion.dependencies)
}

/// Reads `input` (a file or an archive member) and converts it to `destination`. On failure
/// nothing new is left behind.
pub fn convert_file(
    plan: &Plan<'_>,
    input: &Path,
    destination: Destination<'_>,
) -> Result<Conversion, Failure> {
    let mut diag = Diagnostics::new();
    progress::phase(|| format!("reading {}", input.display()));
    let (mesh, source) = crate::read_path(
        plan.registry,
        input,
        plan.from.as_deref(),
        &plan.read,
        &mut diag,
    )?;
    let dependencies = crate::depfile::unique(
        std::iter::once(walkmesh_kotor_area::erf::file_holding(input))
            .chain(mesh.provenance.iter().flat_map(|p| p.files_read.clone()))
            .chain(plan.dependencies.iter().cloned()),
    );
    write_loaded(
        plan,
        &mesh,
        source.descriptor().id,
        dependencies,
        input,
        destination,
        diag,
    )
}

/// The writing half of [`convert_file`] for a mesh already in memory (`generate` writes
/// through it too). `input` names the source in messages; `source` is its format id.
pub fn write_loaded(
    plan: &Plan<'_>,
    mesh: &NavMesh,
    source: &str,
    dependencies: Vec<PathBuf>,
    input: &Path,
    destination: Destination<'_>,
    diag: Diagnostics,
) -> Result<Conversion, Failure> {
    let origin = Origin {
        path: Some(input),
        format: Some(source),
    };
    let mut conversion = crate::convert::convert(mesh, origin, destination, &plan.write, diag)?;
    conversion.dependencies = dependencies;
    Ok(conversion)
}
