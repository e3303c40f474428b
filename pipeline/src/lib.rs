//! The steps behind `walkmesh convert`, `info` and `validate`, as library functions over a
//! format registry, so that the command line and the Python package (`python/`) run exactly
//! the same sequence: detect → read → (translate) → prepare for the target's requirements →
//! write → read the bytes back with the target's validator and reader.
//!
//! The steps themselves touch no file beyond what a reader does for sidecars. Output files
//! are written through [`output`] (staging beside the target, checks, atomic renames), the
//! accept/refuse policy for what the check finds is [`policy`], failures with their exit codes
//! are [`failure::Failure`], and many inputs at once are planned and run by [`batch`]: the
//! command line and the Python package both call these, so neither has a copy of its own.

use std::path::Path;

pub mod area_files;
pub mod area_generate;
pub mod batch;
pub mod convert;
pub mod depfile;
pub mod failure;
pub mod generate;
pub mod lint_model;
pub mod lint_rules;
pub mod output;
pub mod plan;
pub mod policy;
pub mod warnings;
pub mod write_set;

pub use failure::Failure;

use serde::Serialize;
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, Input, NavMesh, Output, Position, ReadError, ReadOptions,
    Registry, Severity, WeldChoice, WriteError, WriteOptions, passes, validate,
};

/// Face and vertex counts of a mesh.
#[derive(Serialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub vertices: usize,
    pub faces: usize,
    pub walkable_faces: usize,
}

/// The counts of `mesh`.
pub fn counts(mesh: &NavMesh) -> Counts {
    Counts {
        vertices: mesh.vertices.len(),
        faces: mesh.polygons.len(),
        walkable_faces: mesh.walkable_count(),
    }
}

/// Why an input could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadFailure {
    /// No format could be chosen (or `from` named no format).
    Detect(walkmesh_core::format::DetectError),
    /// The file (or the archive of an `archive.mod:member` path) could not be read.
    File(String),
    /// The format has no reader.
    NoReader {
        id: &'static str,
        name: &'static str,
    },
    /// The reader refused the bytes.
    Read(ReadError),
}

impl std::fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadFailure::Detect(error) => write!(f, "{error}"),
            ReadFailure::File(message) => write!(f, "{message}"),
            ReadFailure::NoReader { id, name } => {
                write!(f, "the {id} format ({name}) cannot be read yet")
            }
            ReadFailure::Read(error) => write!(f, "{error}"),
        }
    }
}

impl walkmesh_core::Kinded for ReadFailure {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            ReadFailure::Detect(error) => error.kind(),
            ReadFailure::File(_) => walkmesh_core::ErrorKind::Io,
            ReadFailure::NoReader { .. } => walkmesh_core::ErrorKind::Unsupported,
            ReadFailure::Read(error) => error.kind,
        }
    }
}

/// The format of `bytes`: `from` (a format id) when given, else detected by magic bytes, the
/// extension of `path`, then content.
pub fn detect<'r>(
    registry: &'r Registry,
    bytes: &[u8],
    path: &Path,
    from: Option<&str>,
) -> Result<&'r dyn Format, walkmesh_core::format::DetectError> {
    match from {
        Some(id) => registry.by_id(id),
        None => {
            let head = bytes.get(..bytes.len().min(64 * 1024)).unwrap_or(bytes);
            registry.detect(path, head, bytes.len() as u64)
        }
    }
}

/// The format an output option names (`walkmesh convert --to`): an extension claimed by a
/// writer (`glb`, `wok`), else a format id; with the extension outputs of it get.
pub fn target_for<'r>(
    registry: &'r Registry,
    to: &str,
) -> Result<(&'r dyn Format, String), walkmesh_core::format::DetectError> {
    let extension = to.trim_start_matches('.').to_ascii_lowercase();
    let by_extension = registry
        .by_extension(Path::new(&format!("x.{extension}")))
        .find(|f| f.writer().is_some());
    if let Some(format) = by_extension {
        return Ok((format, extension));
    }
    let format = registry.by_id(to)?;
    let descriptor = format.descriptor();
    let first = descriptor
        .extensions
        .first()
        .copied()
        .unwrap_or(descriptor.id);
    Ok((format, first.to_string()))
}

/// Detects and reads `bytes` (which came from `path`, if from a file: the path names sidecars
/// and the kind BWM takes from the extension). Read warnings go to `diag`, not yet naming the
/// file; a read error names `path` when given.
pub fn read_bytes<'r>(
    registry: &'r Registry,
    bytes: &[u8],
    path: Option<&Path>,
    from: Option<&str>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<(NavMesh, &'r dyn Format), ReadFailure> {
    let format = detect(registry, bytes, path.unwrap_or(Path::new("")), from)
        .map_err(ReadFailure::Detect)?;
    let mesh = read_as(format, bytes, path, options, diag)?;
    Ok((mesh, format))
}

/// Reads `bytes` with `format`'s reader. Read warnings go to `diag`, not yet naming the file;
/// a read error names `path` when given.
pub fn read_as(
    format: &dyn Format,
    bytes: &[u8],
    path: Option<&Path>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<NavMesh, ReadFailure> {
    let reader = format.reader().ok_or(ReadFailure::NoReader {
        id: format.descriptor().id,
        name: format.descriptor().name,
    })?;
    reader
        .read(Input { bytes, path }, options, diag)
        .map_err(|e| match path {
            Some(path) => ReadFailure::Read(e.in_file(path)),
            None => ReadFailure::Read(e),
        })
}

/// The bytes at `path`: a file, or a member of a module archive written `area.mod:room.wok`
/// (the file or the archive read is recorded: no output of the command replaces it).
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadFailure> {
    walkmesh_kotor_area::erf::read_file_or_member(path)
        .map_err(|error| ReadFailure::File(error.to_string()))
}

/// The bytes at `path` ([`read_file`]) and their format ([`detect`]).
pub fn open<'r>(
    registry: &'r Registry,
    path: &Path,
    from: Option<&str>,
) -> Result<(Vec<u8>, &'r dyn Format), ReadFailure> {
    let bytes = read_file(path)?;
    let format = detect(registry, &bytes, path, from).map_err(ReadFailure::Detect)?;
    Ok((bytes, format))
}

/// Reads the file (or archive member) at `path` into the IR: [`open`], then [`read_as`]. Read
/// warnings go to `diag`, which then names the file.
pub fn read_path<'r>(
    registry: &'r Registry,
    path: &Path,
    from: Option<&str>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<(NavMesh, &'r dyn Format), ReadFailure> {
    let (bytes, format) = open(registry, path, from)?;
    let mesh = read_as(format, &bytes, Some(path), options, diag)?;
    diag.set_file(path);
    Ok((mesh, format))
}

/// Moves the mesh by `offset` (`convert --translate`) and notes it in `diag`.
pub fn translate(mesh: &mut NavMesh, offset: [f32; 3], diag: &mut Diagnostics) {
    passes::translate(mesh, offset);
    diag.push(
        Severity::Info,
        "convert.translated",
        Position::None,
        None,
        format!(
            "the mesh is moved by ({}, {}, {}) as asked",
            offset[0], offset[1], offset[2]
        ),
    );
}

/// Why a mesh could not be written.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteFailure {
    /// The format has no writer.
    NoWriter { id: &'static str },
    /// Preparing the mesh (welding) left no polygon of the `polygons` read.
    NothingLeft { polygons: usize },
    /// The writer refused the mesh.
    Write(WriteError),
}

/// Prepares `mesh` for `target`'s writer (its requirements; the weld `weld` asks for, decided
/// on the mesh as given) on a copy and writes it. Prepare and write diagnostics go to `diag`.
pub fn write_mesh(
    mesh: &NavMesh,
    target: &dyn Format,
    options: &WriteOptions,
    weld: WeldChoice,
    diag: &mut Diagnostics,
) -> Result<Output, WriteFailure> {
    let Some(writer) = target.writer() else {
        return Err(WriteFailure::NoWriter {
            id: target.descriptor().id,
        });
    };
    let mut requirements = writer.requirements(options);
    requirements.weld = weld.tolerance(mesh, &requirements);
    let prepared = passes::prepare(mesh, &requirements, diag);
    if prepared.polygons.is_empty() && !mesh.polygons.is_empty() {
        return Err(WriteFailure::NothingLeft {
            polygons: mesh.polygons.len(),
        });
    }
    writer
        .write(&prepared, options, diag)
        .map_err(WriteFailure::Write)
}

/// Options for reading an output back: the input's axis, profile and default material, none
/// of the input-only settings (the glTF scene), and a decompression ceiling at least the
/// default.
pub fn check_options(read: &ReadOptions) -> ReadOptions {
    ReadOptions {
        up: read.up,
        materials: read.materials.clone(),
        default_material: read.default_material.clone(),
        max_decompressed: read
            .max_decompressed
            .max(ReadOptions::default().max_decompressed),
        params: Default::default(),
        // The writer has just computed the derived tables (see ReadOptions).
        recompute_derived: false,
        // Only counts are taken from the mesh read back.
        keep_provenance: false,
    }
}

/// What reading an output back found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checked {
    /// Counts of the mesh read back (`None` when it did not read).
    pub written: Option<Counts>,
    /// The target validator's findings, then the format-neutral mesh findings of the mesh read
    /// back; an output that does not read back is the error `cli.output_unreadable`.
    pub findings: Vec<Diagnostic>,
}

impl Checked {
    /// The findings that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.findings
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

/// The target format has no reader, so its output cannot be checked.
#[derive(Debug, Clone, PartialEq)]
pub struct CannotCheck {
    pub id: &'static str,
}

/// Reads the bytes about to be written (`main`; `path` where they are staged, with any
/// sidecars beside them) with the target's validator and reader, as `convert` does before
/// renaming an output into place.
///
/// What the reader opens here is the command's own output, not an input: it is not recorded
/// as read ([`walkmesh_core::files::unrecorded`]), or the files renamed into place would count
/// as inputs for the rest of the command.
pub fn check_output(
    target: &dyn Format,
    main: &[u8],
    path: Option<&Path>,
    options: &ReadOptions,
) -> Result<Checked, CannotCheck> {
    walkmesh_core::files::unrecorded(|| check_staged(target, main, path, options))
}

fn check_staged(
    target: &dyn Format,
    main: &[u8],
    path: Option<&Path>,
    options: &ReadOptions,
) -> Result<Checked, CannotCheck> {
    let input = Input { bytes: main, path };
    let Some(reader) = target.reader() else {
        return Err(CannotCheck {
            id: target.descriptor().id,
        });
    };
    if let Some((validated, read_back)) = target
        .validator()
        .and_then(|validator| validator.validate_and_read(input, options, &mut Diagnostics::new()))
    {
        return Ok(checked_from(
            Some(validated),
            read_back.map(|mesh| (counts(&mesh), validate::mesh_errors(&mesh))),
        ));
    }
    let validate = || {
        target
            .validator()
            .map(|validator| validator.validate(input, options))
    };
    let read = || {
        reader
            .read(input, options, &mut Diagnostics::new())
            .map(|mesh| {
                // Errors only: the mesh warnings were given while preparing it, and the full
                // `mesh_findings` (adjacency, seams, loops) cost as much as the conversion.
                (counts(&mesh), validate::mesh_errors(&mesh))
            })
    };
    // The validator and the reader each decode the whole file; on a large one they run side
    // by side (a whole-process re-bake of an NWN2 area spends a fifth of its time here). A
    // small file is not worth a thread.
    let (validated, read_back) =
        if main.len() >= PARALLEL_CHECK_BYTES && walkmesh_core::threads::may_spawn() {
            std::thread::scope(|scope| {
                let validating = scope.spawn(validate);
                let read_back = read();
                // The validator panicking is a bug; its panic is passed on rather than hidden.
                let validated = validating
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                (validated, read_back)
            })
        } else {
            (validate(), read())
        };
    Ok(checked_from(validated, read_back))
}

/// The validator's findings (`None`: the format has no validator), then the counts and mesh
/// errors of the mesh read back; what did not decode is `cli.output_unreadable`.
fn checked_from(
    validated: Option<Result<Vec<Diagnostic>, ReadError>>,
    read_back: Result<(Counts, Vec<Diagnostic>), ReadError>,
) -> Checked {
    let mut checked = Checked::default();
    match validated {
        Some(Ok(found)) => checked.findings.extend(found),
        Some(Err(error)) => checked.findings.push(unreadable(error.to_string())),
        None => {}
    }
    match read_back {
        Ok((written, errors)) => {
            checked.written = Some(written);
            checked.findings.extend(errors);
        }
        Err(error) => checked.findings.push(unreadable(error.to_string())),
    }
    checked
}

/// Outputs at least this large are validated and read back on two threads at once.
const PARALLEL_CHECK_BYTES: usize = 256 * 1024;

fn unreadable(message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        code: "cli.output_unreadable".into(),
        message: format!("the output does not read back: {message}"),
        location: Default::default(),
    }
}

/// Why a file could not be validated at all.
#[derive(Debug, Clone, PartialEq)]
pub enum ValidateFailure {
    /// The validator or the reader could not read the file (and no format error explains
    /// why).
    Read(ReadError),
    /// The format has neither a reader nor a validator.
    Unsupported { id: &'static str },
}

/// What `walkmesh validate` reports for `input` of `format`: the format validator's findings,
/// the reader's diagnostics, and the format-neutral mesh findings. Modelling-tool input is
/// checked welded, as `convert` writes it; errors in the polygons as read (a face repeating a
/// vertex, which welding would drop) are still errors of the file. Findings do not name the
/// file yet.
pub fn validate_input(
    format: &dyn Format,
    input: Input<'_>,
    options: &ReadOptions,
) -> Result<Vec<Diagnostic>, ValidateFailure> {
    let mut findings: Vec<Diagnostic> = Vec::new();
    let mut format_errors = 0;
    if let Some(validator) = format.validator() {
        let found = validator
            .validate(input, options)
            .map_err(ValidateFailure::Read)?;
        format_errors = found
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        findings.extend(found);
    }
    let mut diag = Diagnostics::new();
    match format.reader().map(|r| r.read(input, options, &mut diag)) {
        Some(Ok(mesh)) => {
            let welded = passes::as_modelled(&mesh, &mut diag);
            findings.extend(diag.items);
            match welded {
                std::borrow::Cow::Borrowed(_) => {
                    findings.extend(validate::mesh_findings(&mesh));
                }
                std::borrow::Cow::Owned(welded) => {
                    // Errors and zero-area polygons are counted as read: welding drops the
                    // faces that repeat a vertex, and `convert` reports dropping them.
                    let degenerate = |d: &Diagnostic| {
                        d.code == "mesh.degenerate_walkable_polygon"
                            || d.code == "mesh.degenerate_polygon"
                    };
                    findings.extend(
                        validate::mesh_findings(&mesh)
                            .into_iter()
                            .filter(|d| d.severity == Severity::Error || degenerate(d)),
                    );
                    findings.extend(
                        validate::mesh_findings(&welded)
                            .into_iter()
                            .filter(|d| d.severity != Severity::Error && !degenerate(d)),
                    );
                }
            }
        }
        Some(Err(error)) if format_errors == 0 => return Err(ValidateFailure::Read(error)),
        // The format validator already explained why the file does not read.
        Some(Err(_)) => {}
        None if format.validator().is_none() => {
            return Err(ValidateFailure::Unsupported {
                id: format.descriptor().id,
            });
        }
        None => {}
    }
    Ok(findings)
}
