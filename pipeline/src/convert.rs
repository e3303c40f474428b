//! The conversion flow, written once for the command line (`convert`, `convert --out-dir`,
//! `generate`) and the Python package (`convert`, `Mesh.write`, `Mesh.to_bytes`):
//!
//! translate → prepare + write → warning policy → standard-output / sidecar rule → stage →
//! check (the target's validator and reader on the bytes about to be written) → commit.
//!
//! Nothing is printed. On failure nothing new is left behind, and the failure says at which
//! step it stopped ([`Step`]) so each caller can turn it into its own error (an exit code, a
//! Python exception class). Messages name the caller's options through [`OptionNames`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::Serialize;
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, NavMesh, Output, ReadOptions, WeldChoice, WriteOptions,
    progress,
};

use crate::failure::Failure;
use crate::output::{self, OutputSettings};
use crate::policy::{self, OptionNames};
use crate::warnings::{Applied, WarningPolicy};
use crate::{Counts, WriteFailure};

/// Everything a conversion needs besides the mesh and where it goes; built once per run.
pub struct WritePlan<'r> {
    pub target: &'r dyn Format,
    /// The writer's options; `file_name` is filled from the destination.
    pub write: WriteOptions,
    /// How the output is read back to be checked ([`crate::check_options`]).
    pub check: ReadOptions,
    /// The weld asked for (`None`: the default, [`WeldChoice::Default`]).
    pub weld: Option<WeldChoice>,
    /// Moves the mesh by this offset before writing (`--translate`).
    pub translate: Option<[f32; 3]>,
    /// Which warnings fail the conversion (strict, allow, deny).
    pub warnings: WarningPolicy,
    /// Write an output our validator finds errors in (they are reported as errors).
    pub allow_invalid: bool,
    /// How the caller names its options in messages.
    pub names: OptionNames,
}

impl std::fmt::Debug for WritePlan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WritePlan")
            .field("target", &self.target.descriptor().id)
            .finish_non_exhaustive()
    }
}

impl<'r> WritePlan<'r> {
    /// The plan for writing `target` with the axis and profile of `read` and nothing else
    /// asked for: no weld, translation or rebuild, the default warning policy, invalid
    /// output refused. A format without a writer is refused (usage).
    pub fn new(
        target: &'r dyn Format,
        read: &ReadOptions,
        names: OptionNames,
    ) -> Result<WritePlan<'r>, Failure> {
        if target.writer().is_none() {
            return Err(Failure::usage(format!(
                "the {} format ({}) cannot be written yet",
                target.descriptor().id,
                target.descriptor().name
            )));
        }
        Ok(WritePlan {
            target,
            write: WriteOptions {
                up: read.up,
                materials: read.materials.clone(),
                ..WriteOptions::default()
            },
            check: crate::check_options(read),
            weld: None,
            translate: None,
            warnings: WarningPolicy::default(),
            allow_invalid: false,
            names,
        })
    }
}

/// Where a conversion goes.
#[derive(Debug, Clone, Copy)]
pub enum Destination<'a> {
    /// A file (sidecars beside it), staged and renamed into place.
    File(&'a Path, OutputSettings),
    /// Memory: the main file's bytes are returned in [`Conversion::main_bytes`]. `name` is
    /// what messages and findings call it (`-` for standard output), if anything.
    Memory { name: Option<&'a Path> },
}

impl<'a> Destination<'a> {
    /// The path messages, findings and the report name the output by.
    fn name(&self) -> Option<&'a Path> {
        match *self {
            Destination::File(path, _) => Some(path),
            Destination::Memory { name } => name,
        }
    }
}

/// The mesh converted: where it was read from, for messages and the report.
#[derive(Debug, Clone, Copy, Default)]
pub struct Origin<'a> {
    /// The file read (diagnostics without a file are located in it).
    pub path: Option<&'a Path>,
    /// The format it was read as (`generate` for a generated mesh).
    pub format: Option<&'a str>,
}

/// What one conversion read and wrote (`convert --json`, one line of a batch report, the
/// dict the Python package returns).
#[derive(Serialize, Debug, Default)]
pub struct Conversion {
    pub input: Option<PathBuf>,
    pub from: Option<String>,
    pub output: Option<PathBuf>,
    pub to: String,
    /// The mesh as read.
    pub read: Counts,
    /// The file written, read back with the target's reader.
    pub written: Counts,
    pub bytes: usize,
    pub sidecars: Vec<String>,
    /// Read, prepare and write diagnostics; with allow-invalid also the output's errors.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors and warnings the target's validator found in the written file.
    pub output_errors: usize,
    pub output_warnings: usize,
    /// The output (and its sidecars) already held these exact bytes and was left untouched:
    /// same inode, same modification time, so a build system sees nothing new.
    pub unchanged: bool,
    /// The warning rules (allow, deny, walkmesh.toml) that decided a warning's fate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules_applied: Vec<Applied>,
    /// Everything the output check found (errors, then warnings).
    #[serde(skip)]
    pub output_findings: Vec<Diagnostic>,
    /// The main file's bytes for [`Destination::Memory`].
    #[serde(skip)]
    pub main_bytes: Option<Vec<u8>>,
    /// Every file read to make the output (`--depfile`); filled by the caller.
    #[serde(skip)]
    pub dependencies: Vec<PathBuf>,
}

/// The step a conversion stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Preparing or writing the mesh.
    Write,
    /// The warning policy refused a warning (strict, deny).
    Warnings,
    /// The output cannot be checked, or cannot go to memory (sidecars).
    Check,
    /// Staging or renaming the output files.
    Output,
    /// The output check found errors and allow-invalid was not given.
    Invalid,
}

/// Why a conversion stopped, at which step, and the field the writer named.
#[derive(Debug, Clone)]
pub struct ConvertFailure {
    pub step: Step,
    pub failure: Failure,
    /// The field a refusing writer named (`WriteError::field`).
    pub field: Option<String>,
}

impl ConvertFailure {
    fn at(step: Step, failure: Failure) -> ConvertFailure {
        ConvertFailure {
            step,
            failure,
            field: None,
        }
    }
}

impl From<ConvertFailure> for Failure {
    fn from(failure: ConvertFailure) -> Failure {
        failure.failure
    }
}

/// Outputs at least this large are written while they are checked (below, a thread costs
/// more than the copy).
const OVERLAP_WRITE_BYTES: usize = 1 << 20;

/// Converts `mesh` (read from `origin`, with the diagnostics of reading it in `diag`) to
/// `destination` following `plan`. Returns the report; nothing is printed.
pub fn convert(
    mesh: &NavMesh,
    origin: Origin<'_>,
    destination: Destination<'_>,
    plan: &WritePlan<'_>,
    mut diag: Diagnostics,
) -> Result<Conversion, ConvertFailure> {
    let target = plan.target;
    let output_name = destination.name();
    let mut mesh: Cow<'_, NavMesh> = Cow::Borrowed(mesh);
    if let Some(offset) = plan.translate {
        crate::translate(mesh.to_mut(), offset, &mut diag);
    }
    let written = write(&mesh, origin, destination, plan, &mut diag)?;
    if let Some(path) = origin.path {
        diag.set_file(path);
    }
    let display = |path: Option<&Path>, fallback: &str| {
        path.map_or_else(|| fallback.to_string(), |p| p.display().to_string())
    };
    let rules_applied = plan
        .warnings
        .judge(
            &diag,
            &display(origin.path, "the mesh"),
            &display(output_name, "nothing"),
            plan.names.strict,
        )
        .map_err(|f| ConvertFailure::at(Step::Warnings, f))?;
    let mut conversion = Conversion {
        input: origin.path.map(Path::to_path_buf),
        from: origin.format.map(str::to_string),
        output: output_name.map(Path::to_path_buf),
        to: target.descriptor().id.to_string(),
        read: crate::counts(&mesh),
        rules_applied,
        bytes: written.main.len(),
        sidecars: written
            .sidecars
            .iter()
            .map(|s| s.file_name.clone())
            .collect(),
        ..Conversion::default()
    };
    match destination {
        Destination::Memory { .. } => {
            to_memory(plan, &mut conversion, &written, &mut diag)?;
            conversion.main_bytes = Some(written.main);
        }
        Destination::File(path, settings) => {
            to_file(plan, &mut conversion, &written, path, settings, &mut diag)?;
        }
    }
    conversion.diagnostics = diag.items;
    Ok(conversion)
}

/// Prepares the mesh for the target and writes it in memory (the writer's file name is the
/// destination's).
fn write(
    mesh: &NavMesh,
    origin: Origin<'_>,
    destination: Destination<'_>,
    plan: &WritePlan<'_>,
    diag: &mut Diagnostics,
) -> Result<Output, ConvertFailure> {
    let target = plan.target;
    let mut options = plan.write.clone();
    options.file_name = match destination {
        Destination::File(path, _) => path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string),
        Destination::Memory { .. } => None,
    };
    let output_name = destination.name();
    progress::phase(|| {
        format!(
            "writing {} ({} polygons) as {}",
            output_name.unwrap_or(Path::new("the mesh")).display(),
            mesh.polygons.len(),
            target.descriptor().id
        )
    });
    let weld = plan.weld.unwrap_or_default();
    crate::write_mesh(mesh, target, &options, weld, diag).map_err(|failure| {
        let mut field = None;
        let failure = match failure {
            WriteFailure::NoWriter { id } => {
                Failure::usage(format!("the {id} format cannot be written"))
            }
            WriteFailure::NothingLeft { polygons } => Failure::input(format!(
                "{}no polygon of the {polygons} read is left after preparing it for {}{}; nothing written",
                origin
                    .path
                    .map(|p| format!("{}: ", p.display()))
                    .unwrap_or_default(),
                target.descriptor().id,
                plan.weld
                    .map(|w| format!(" ({} merged them away)", plan.names.weld_choice(w)))
                    .unwrap_or_default()
            )),
            WriteFailure::Write(error) => {
                field = Some(error.field.clone());
                let context = format!(
                    "cannot write {} as {}: ",
                    output_name.unwrap_or(Path::new("the mesh")).display(),
                    target.descriptor().id
                );
                Failure::in_context(context, &error)
            }
        };
        ConvertFailure {
            step: Step::Write,
            failure,
            field,
        }
    })
}

/// The memory destination: one file only (no sidecars), checked in memory.
fn to_memory(
    plan: &WritePlan<'_>,
    conversion: &mut Conversion,
    written: &Output,
    diag: &mut Diagnostics,
) -> Result<(), ConvertFailure> {
    let target = plan.target;
    if !written.sidecars.is_empty() {
        return Err(ConvertFailure::at(
            Step::Check,
            Failure::usage(format!(
                "{} one file, but {} writes {} beside it; write to a file{}",
                plan.names.memory_holds,
                target.descriptor().id,
                conversion.sidecars.join(", "),
                if target.descriptor().extensions.contains(&"glb") {
                    format!(" (or {})", plan.names.to_glb)
                } else {
                    String::new()
                }
            )),
        ));
    }
    check_output(plan, conversion, &written.main, None, diag)
}

/// The file destination: staged beside the target, checked, then renamed into place (or
/// discarded when the check refuses it).
fn to_file(
    plan: &WritePlan<'_>,
    conversion: &mut Conversion,
    written: &Output,
    path: &Path,
    settings: OutputSettings,
    diag: &mut Diagnostics,
) -> Result<(), ConvertFailure> {
    let output_step = |f| ConvertFailure::at(Step::Output, f);
    let mut check =
        |read_path: &Path| check_output(plan, conversion, &written.main, Some(read_path), diag);
    // Without sidecars the check reads the bytes in memory, so writing the staged file
    // (a kernel copy of the whole output) and checking it are independent: on large outputs
    // they overlap (1M-triangle OBJ -> WOK: 138 MB written while the validator runs).
    let (staged, checked) = if written.sidecars.is_empty()
        && written.main.len() >= OVERLAP_WRITE_BYTES
        && walkmesh_core::threads::may_spawn()
    {
        let read_path = output::final_path(path, settings).map_err(output_step)?;
        std::thread::scope(|scope| {
            // In the command's scope: the staging checks OUT against the files it read.
            let staging = scope.spawn(walkmesh_core::files::carried(|| {
                output::stage(path, written, settings)
            }));
            let checked = check(&read_path);
            let staged = staging.join().unwrap_or_else(|_| {
                Err(Failure::output(format!(
                    "writing {} failed (the writing thread stopped)",
                    path.display()
                )))
            });
            (staged, checked)
        })
    } else {
        let staged = output::stage(path, written, settings).map_err(output_step)?;
        let checked = check(staged.read_path());
        (Ok(staged), checked)
    };
    let staged = staged.map_err(output_step)?;
    if let Err(failure) = checked {
        staged.discard();
        return Err(failure);
    }
    conversion.unchanged = staged.unchanged();
    staged.commit().map_err(output_step)
}

/// Reads the bytes about to be written with the target's validator and reader and judges
/// what they find ([`policy::judge_output`]: errors refuse the output unless allow-invalid);
/// the counts of what was read back are recorded.
fn check_output(
    plan: &WritePlan<'_>,
    conversion: &mut Conversion,
    main: &[u8],
    path: Option<&Path>,
    diag: &mut Diagnostics,
) -> Result<(), ConvertFailure> {
    let target = plan.target;
    let output = conversion.output.clone();
    progress::phase(|| {
        format!(
            "checking {}",
            output.as_deref().unwrap_or(Path::new("the mesh")).display()
        )
    });
    let checked = crate::check_output(target, main, path, &plan.check).map_err(|e| {
        ConvertFailure::at(
            Step::Check,
            Failure::usage(format!(
                "the {} format cannot be read back, so its output cannot be checked",
                e.id
            )),
        )
    })?;
    let verdict = policy::judge_output(
        checked,
        output.as_deref(),
        target.descriptor().id,
        plan.allow_invalid,
        plan.names,
    )
    .map_err(|f| ConvertFailure::at(Step::Invalid, f))?;
    conversion.written = verdict.written.unwrap_or_default();
    conversion.output_errors = verdict.errors.len();
    conversion.output_warnings = verdict.warnings.len();
    conversion.output_findings = verdict
        .errors
        .iter()
        .chain(&verdict.warnings)
        .cloned()
        .collect();
    diag.items.extend(verdict.errors);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::policy::CLI_NAMES;
    use walkmesh_core::{Registry, Severity};

    const PYTHON: OptionNames = OptionNames {
        strict: "strict=True",
        allow_invalid: "allow_invalid=True",
        weld: "weld=",
        memory_holds: "bytes hold",
        to_glb: "format=\"glb\"",
        translate: "translate",
    };

    /// Two walkable triangles sharing an edge, in group `floor` (a column BWM cannot store).
    const SQUARE: &str = "v 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\ng floor\nf 1 2 3\nf 1 3 4\n";

    fn read(registry: &Registry, text: &str) -> (NavMesh, Diagnostics) {
        let mut diag = Diagnostics::new();
        let (mesh, _) = crate::read_bytes(
            registry,
            text.as_bytes(),
            Some(Path::new("square.obj")),
            None,
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap();
        (mesh, diag)
    }

    fn plan<'r>(registry: &'r Registry, id: &str, names: OptionNames) -> WritePlan<'r> {
        WritePlan::new(registry.by_id(id).unwrap(), &ReadOptions::default(), names).unwrap()
    }

    fn origin() -> Origin<'static> {
        Origin {
            path: Some(Path::new("square.obj")),
            format: Some("obj"),
        }
    }

    #[test]
    fn a_mesh_converts_to_memory_with_the_counts_of_the_bytes_read_back() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, diag) = read(&registry, SQUARE);
        let plan = plan(&registry, "bwm", CLI_NAMES);
        let memory = Destination::Memory { name: None };
        let done = convert(&mesh, origin(), memory, &plan, diag).unwrap();
        let bytes = done.main_bytes.as_deref().unwrap();
        assert_eq!(bytes.len(), done.bytes);
        assert!(bytes.starts_with(b"BWM V1.0"), "{:?}", bytes.get(..8));
        assert_eq!((done.read.faces, done.written.faces), (2, 2));
        assert_eq!(done.written.walkable_faces, 2);
        assert_eq!(
            (done.from.as_deref(), done.to.as_str()),
            (Some("obj"), "bwm")
        );
        assert_eq!(done.output, None);
        assert_eq!(done.output_errors, 0);
        // Every diagnostic of the conversion is located in the input.
        assert!(
            done.diagnostics
                .iter()
                .all(|d| d.location.file.as_deref() == Some(Path::new("square.obj")))
        );
    }

    #[test]
    fn a_file_is_staged_checked_and_renamed_and_a_second_run_leaves_it_untouched() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, _) = read(&registry, SQUARE);
        let plan = plan(&registry, "obj", CLI_NAMES);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("room.obj");
        let file = Destination::File(&out, OutputSettings::default());
        let first = convert(&mesh, origin(), file, &plan, Diagnostics::new()).unwrap();
        assert!(!first.unchanged);
        assert_eq!(first.sidecars, ["room.mtl"]);
        assert_eq!(std::fs::read(&out).unwrap().len(), first.bytes);
        assert!(dir.path().join("room.mtl").is_file());
        let second = convert(&mesh, origin(), file, &plan, Diagnostics::new()).unwrap();
        assert!(second.unchanged);
        assert_eq!(second.main_bytes, None);
    }

    #[test]
    fn memory_cannot_hold_sidecars_and_the_message_names_the_callers_options() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, _) = read(&registry, SQUARE);
        for (names, holds) in [
            (CLI_NAMES, "`-` (standard output) holds one file"),
            (PYTHON, "bytes hold one file"),
        ] {
            // OBJ writes its materials beside it (.mtl).
            let plan = plan(&registry, "obj", names);
            let name = Some(Path::new("-")).filter(|_| names.strict == "--strict");
            let memory = Destination::Memory { name };
            let refused = convert(&mesh, origin(), memory, &plan, Diagnostics::new()).unwrap_err();
            assert_eq!(refused.step, Step::Check);
            assert_eq!(refused.failure.code, "cli.usage");
            let message = &refused.failure.message;
            assert!(message.starts_with(holds), "{message}");
            assert!(
                message.ends_with("but obj writes walkmesh.mtl beside it; write to a file"),
                "{message}"
            );
        }
    }

    #[test]
    fn strict_refuses_a_warning_before_anything_is_written() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, diag) = read(&registry, SQUARE);
        // The group column is dropped by BWM: a warning.
        let relaxed = plan(&registry, "bwm", PYTHON);
        let memory = Destination::Memory { name: None };
        let relaxed = convert(&mesh, origin(), memory, &relaxed, diag.clone()).unwrap();
        let mut strict = plan(&registry, "bwm", PYTHON);
        strict.warnings = WarningPolicy::default().with_flags(true, &[], &[]);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("room.wok");
        let file = Destination::File(&out, OutputSettings::default());
        let warnings = relaxed
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        assert!(warnings > 0, "{:?}", relaxed.diagnostics);
        let refused = convert(&mesh, origin(), file, &strict, diag).unwrap_err();
        assert_eq!(refused.step, Step::Warnings);
        assert_eq!(refused.failure.code, "cli.strict");
        assert_eq!(refused.failure.diagnostics.len(), warnings);
        assert_eq!(
            refused.failure.message,
            format!(
                "strict=True: converting square.obj gave {warnings} warning(s); {} was not written",
                out.display()
            )
        );
        assert!(!out.exists());
    }

    #[test]
    fn a_weld_that_leaves_nothing_is_refused_naming_the_input_and_the_weld() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, _) = read(&registry, SQUARE);
        for (names, weld) in [
            (CLI_NAMES, "--weld Within(5.0)"),
            (PYTHON, "weld=Within(5.0)"),
        ] {
            let mut plan = plan(&registry, "bwm", names);
            plan.weld = Some(WeldChoice::Within(5.0));
            let memory = Destination::Memory { name: None };
            let refused = convert(&mesh, origin(), memory, &plan, Diagnostics::new()).unwrap_err();
            assert_eq!(refused.step, Step::Write);
            assert_eq!(
                refused.failure.message,
                format!(
                    "square.obj: no polygon of the 2 read is left after preparing it for bwm ({weld} merged them away); nothing written"
                )
            );
        }
    }

    #[test]
    fn translate_moves_the_written_mesh_and_says_so() {
        let registry = walkmesh_formats::default_registry();
        let (mesh, _) = read(&registry, SQUARE);
        let mut plan = plan(&registry, "obj", CLI_NAMES);
        plan.translate = Some([10.0, 0.0, 0.0]);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("moved.obj");
        let file = Destination::File(&out, OutputSettings::default());
        let done = convert(&mesh, origin(), file, &plan, Diagnostics::new()).unwrap();
        assert!(
            done.diagnostics
                .iter()
                .any(|d| d.code == "convert.translated")
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("\nv 11 0 -1\n"), "{text}");
        // The caller's mesh is left as it was.
        assert_eq!(mesh.vertices[1], [1.0, 0.0, 0.0]);
    }

    #[test]
    fn a_format_without_a_writer_has_no_plan() {
        let registry = walkmesh_formats::default_registry();
        let mdl = registry.by_id("mdl").unwrap();
        let refused = WritePlan::new(mdl, &ReadOptions::default(), CLI_NAMES).unwrap_err();
        assert_eq!(refused.code, "cli.usage");
        assert!(
            refused.message.ends_with("cannot be written yet"),
            "{}",
            refused.message
        );
    }
}
