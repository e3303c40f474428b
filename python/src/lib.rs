//! `walkmesh._walkmesh`: the Rust half of the `walkmesh` Python package.
//!
//! A thin layer: every step is a library function the command line also calls
//! (`walkmesh-pipeline` for detect/read/prepare/write/check/validate, `pipeline::output`
//! for staged, atomic output, core's `summary` for `info`), so the package and
//! `walkmesh convert` give the same bytes, findings and errors. Heavy work runs with the
//! interpreter released (`Python::detach`), so other Python threads keep running.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, Input, NavMesh, ReadOptions, Registry, Severity, WeldChoice,
    passes, validate as core_validate,
};
use walkmesh_pipeline::{self as pipeline, ReadFailure, ValidateFailure};

mod area;
mod area_generate;
mod area_generate_meshes;
mod errors;
mod generate;
mod mesh;
mod options;
mod route;

use errors::{Fields, Kind, raise};
use mesh::Mesh;
use options::Options;

/// The registry every function of the module works over: the one handed to [`build_module`],
/// else the default registry (every built-in format), fixed at the first use.
static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> &'static Registry {
    REGISTRY.get_or_init(walkmesh_formats::default_registry)
}

/// Where a mesh comes from: a file (or `archive.mod:member.wok`), or bytes in memory.
pub(crate) enum Source {
    File(PathBuf),
    Bytes(Vec<u8>),
}

pub(crate) fn source_of(object: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(bytes) = object.cast::<PyBytes>() {
        return Ok(Source::Bytes(bytes.as_bytes().to_vec()));
    }
    if let Ok(bytes) = object.extract::<Vec<u8>>()
        && !object.is_instance_of::<pyo3::types::PyString>()
    {
        return Ok(Source::Bytes(bytes));
    }
    Ok(Source::File(object.extract::<PathBuf>()?))
}

/// The bytes of a source, and the path that names it.
pub(crate) fn load_bytes(py: Python<'_>, source: Source) -> PyResult<(Vec<u8>, Option<PathBuf>)> {
    match source {
        Source::Bytes(bytes) => Ok((bytes, None)),
        Source::File(path) => {
            let read = py.detach(|| pipeline::read_file(&path));
            match read {
                Ok(bytes) => Ok((bytes, Some(path))),
                Err(_) if errors::is_missing(&path) => Err(errors::file_not_found(py, &path)),
                Err(error) => Err(errors::read_failure(py, &error, Some(&path))),
            }
        }
    }
}

fn read_failure_error(py: Python<'_>, failure: ReadFailure, path: Option<&Path>) -> PyErr {
    match failure {
        ReadFailure::Read(error) => errors::read_error(py, &error),
        other => errors::read_failure(py, &other, path),
    }
}

/// Reads a mesh: `source` is a path (str or os.PathLike; `area.mod:room.wok` names an archive
/// member) or bytes. `format` is a format id (detected by magic bytes, extension, then content
/// when None). Options: up, materials (a RON profile file), default_material, scene,
/// max_decompressed (MiB).
#[pyfunction]
#[pyo3(signature = (source, format=None, **options))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Mesh> {
    let parsed = options::parse(options, options::READ_KEYS)?;
    let read_options = parsed.read_options();
    let (bytes, path) = load_bytes(py, source_of(source)?)?;
    read_loaded(py, &bytes, path, format, read_options)
}

pub(crate) fn read_loaded(
    py: Python<'_>,
    bytes: &[u8],
    path: Option<PathBuf>,
    format: Option<&str>,
    read_options: ReadOptions,
) -> PyResult<Mesh> {
    let result = py.detach(|| {
        let mut diag = Diagnostics::new();
        pipeline::read_bytes(
            registry(),
            bytes,
            path.as_deref(),
            format,
            &read_options,
            &mut diag,
        )
        .map(|(mesh, format)| (mesh, format.descriptor().id, diag))
    });
    match result {
        Ok((mesh, format, mut diag)) => {
            if let Some(path) = &path {
                diag.set_file(path);
            }
            Ok(Mesh {
                mesh,
                source_format: Some(format),
                path,
                read_options,
                warnings: diag.items,
            })
        }
        Err(failure) => Err(read_failure_error(py, failure, path.as_deref())),
    }
}

/// What a write produced, with the keys of `walkmesh convert --json`: the library's report.
pub use pipeline::convert::Conversion as Report;

/// The report as a dict.
trait ToDict {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
}

impl ToDict for Report {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = |c: pipeline::Counts| -> PyResult<Bound<'py, PyDict>> {
            let dict = PyDict::new(py);
            dict.set_item("vertices", c.vertices)?;
            dict.set_item("faces", c.faces)?;
            dict.set_item("walkable_faces", c.walkable_faces)?;
            Ok(dict)
        };
        let dict = PyDict::new(py);
        dict.set_item("input", self.input.as_deref().map(errors::path_text))?;
        dict.set_item("from", self.from.as_deref())?;
        dict.set_item("output", self.output.as_deref().map(errors::path_text))?;
        dict.set_item("to", &self.to)?;
        dict.set_item("read", counts(self.read)?)?;
        dict.set_item("written", counts(self.written)?)?;
        dict.set_item("bytes", self.bytes)?;
        dict.set_item("sidecars", PyList::new(py, &self.sidecars)?)?;
        dict.set_item("diagnostics", errors::findings_list(py, &self.diagnostics)?)?;
        dict.set_item("output_errors", self.output_errors)?;
        dict.set_item("output_warnings", self.output_warnings)?;
        dict.set_item("unchanged", self.unchanged)?;
        let rules = PyList::empty(py);
        for applied in &self.rules_applied {
            let rule = PyDict::new(py);
            rule.set_item("code", &applied.code)?;
            rule.set_item("pattern", &applied.rule.pattern)?;
            rule.set_item(
                "action",
                if applied.rule.action == pipeline::warnings::Action::Deny {
                    "deny"
                } else {
                    "allow"
                },
            )?;
            rules.append(rule)?;
        }
        dict.set_item("rules_applied", rules)?;
        Ok(dict)
    }
}

/// Where a write goes.
#[derive(Debug)]
pub enum Destination<'a> {
    File(&'a Path, pipeline::output::OutputSettings),
    Bytes,
}

/// The target format: `format` (an id or an extension) else the output's extension.
pub fn target_format(
    py: Python<'_>,
    format: Option<&str>,
    output: Option<&Path>,
) -> PyResult<&'static dyn Format> {
    let chosen = match (format, output) {
        (Some(to), _) => pipeline::target_for(registry(), to).map(|(f, _)| f),
        (None, Some(path)) => registry().for_output(path),
        (None, None) => {
            return Err(raise(
                py,
                Kind::Write,
                "name the format to write (format=\"bwm\", \"glb\", …)".into(),
                Fields::of_kind(walkmesh_core::ErrorKind::Parameter),
            ));
        }
    };
    let target = chosen.map_err(|e| {
        raise(
            py,
            Kind::Write,
            e.to_string(),
            Fields {
                file: output.map(errors::path_text),
                ..Fields::of_kind(walkmesh_core::ErrorKind::Parameter)
            },
        )
    })?;
    if target.writer().is_none() {
        return Err(raise(
            py,
            Kind::Write,
            format!(
                "the {} format ({}) cannot be written yet",
                target.descriptor().id,
                target.descriptor().name
            ),
            Fields::of_kind(walkmesh_core::ErrorKind::Parameter),
        ));
    }
    Ok(target)
}

/// How the output of `source` written with `parsed` is read back to be checked: the axis,
/// profile and default material it is written with.
pub fn check_options(source: &Mesh, parsed: &Options) -> ReadOptions {
    pipeline::check_options(&written_read_options(source, parsed))
}

/// The reading options of what `source` is written as with `parsed`: the axis and profile
/// written (the keywords', else the mesh's own), its default material and decompression
/// ceiling.
fn written_read_options(source: &Mesh, parsed: &Options) -> ReadOptions {
    let write = parsed.write_options(&source.read_options);
    ReadOptions {
        up: write.up,
        materials: write.materials,
        default_material: parsed
            .default_material
            .clone()
            .or_else(|| source.read_options.default_material.clone()),
        max_decompressed: parsed
            .max_decompressed
            .unwrap_or(source.read_options.max_decompressed),
        ..ReadOptions::default()
    }
}

/// The plan of writing `source` to `target` with the keywords `parsed`: made by the same
/// builder as the command line's (`pipeline::plan::plan`), without the project file's rules
/// (a Python program states its rules in its calls). The axis and profile written are the
/// keywords' or the mesh's own, and the output is read back with them.
fn write_plan<'r>(
    py: Python<'_>,
    source: &Mesh,
    parsed: &Options,
    target: &'r dyn Format,
) -> PyResult<pipeline::plan::Plan<'r>> {
    let read = written_read_options(source, parsed);
    let options = pipeline::plan::PlanOptions {
        rebuild: parsed.rebuild,
        kind: parsed.kind,
        params: parsed
            .params
            .iter()
            .map(|(key, value)| ((*key).to_string(), value.clone()))
            .collect(),
        max_memory_mib: parsed.max_memory,
        weld: Some(parsed.weld).filter(|w| *w != WeldChoice::Default),
        translate: parsed.translate.map(Ok),
        strict: parsed.strict,
        allow: parsed.allow.clone(),
        deny: parsed.deny.clone(),
        allow_invalid: parsed.allow_invalid,
        project_rules: false,
        ..pipeline::plan::PlanOptions::default()
    };
    pipeline::plan::plan(registry(), target, read, options, PYTHON_NAMES).map_err(|failure| {
        let message = failure.message.clone();
        raise(py, Kind::Write, message, Fields::of_failure(failure))
    })
}

/// `walkmesh convert`'s sequence for a mesh in memory (`pipeline::convert::convert`, the
/// same function the command line calls): translate → prepare → write → warning policy →
/// stage → check with the target's validator and reader → rename. Returns the report and,
/// for `Destination::Bytes`, the main file's bytes.
pub fn write_mesh(
    py: Python<'_>,
    source: &Mesh,
    destination: Destination<'_>,
    format: Option<&str>,
    parsed: &Options,
    earlier: Vec<Diagnostic>,
) -> PyResult<(Report, Option<Vec<u8>>)> {
    let output = match &destination {
        Destination::File(path, _) => Some(*path),
        Destination::Bytes => None,
    };
    let target = target_format(py, format, output)?;
    let plan = write_plan(py, source, parsed, target)?;
    let destination = match destination {
        Destination::File(path, settings) => pipeline::convert::Destination::File(path, settings),
        Destination::Bytes => pipeline::convert::Destination::Memory { name: None },
    };
    let origin = pipeline::convert::Origin {
        path: source.path.as_deref(),
        format: source.source_format,
    };
    let diag = Diagnostics { items: earlier };
    let converted = py.detach(|| {
        pipeline::convert::convert(&source.mesh, origin, destination, &plan.write, diag)
    });
    match converted {
        Ok(mut report) => {
            let bytes = report.main_bytes.take();
            Ok((report, bytes))
        }
        Err(stopped) => Err(convert_error(py, stopped, output)),
    }
}

/// The exception for a conversion that stopped: `InvalidOutput` when the output check
/// refused the bytes, else `WriteError`; the output file is named except where the target
/// itself is the problem (it cannot be checked, or bytes cannot hold its sidecars).
fn convert_error(
    py: Python<'_>,
    stopped: pipeline::convert::ConvertFailure,
    output: Option<&Path>,
) -> PyErr {
    use pipeline::convert::Step;
    let kind = match stopped.step {
        Step::Invalid => Kind::Invalid,
        _ => Kind::Write,
    };
    let file = match stopped.step {
        Step::Check => None,
        _ => output.map(errors::path_text),
    };
    let failure = stopped.failure;
    raise(
        py,
        kind,
        failure.message.clone(),
        Fields {
            file,
            field: stopped.field,
            ..Fields::of_failure(failure)
        },
    )
}

/// How the Python package names its options in the policy's messages.
pub(crate) const PYTHON_NAMES: pipeline::policy::OptionNames = pipeline::policy::OptionNames {
    strict: "strict=True",
    allow_invalid: "allow_invalid=True",
    weld: "weld=",
    memory_holds: "bytes hold",
    to_glb: "format=\"glb\"",
    translate: "translate",
};

/// The output settings among `options` (force, create_dirs, fsync); `options::parse` checks
/// the rest and leaves these alone.
fn output_settings(
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<pipeline::output::OutputSettings> {
    let mut settings = pipeline::output::OutputSettings::default();
    let Some(options) = options else {
        return Ok(settings);
    };
    for key in options::OUTPUT_KEYS {
        if let Some(value) = options.get_item(key)? {
            let on = value.is_truthy()?;
            match *key {
                "force" => settings.force = on,
                "create_dirs" => settings.create_dirs = on,
                _ => settings.fsync = on,
            }
        }
    }
    Ok(settings)
}

/// Converts `src` to `dst` like `walkmesh convert IN OUT`: the same options (from_format,
/// to_format and every option of read and Mesh.write), the same checks, the same atomic
/// output. Returns the report `walkmesh convert --json` prints.
#[pyfunction]
#[pyo3(signature = (src, dst, from_format=None, to_format=None, **options))]
fn convert<'py>(
    py: Python<'py>,
    src: &Bound<'py, PyAny>,
    dst: PathBuf,
    from_format: Option<&str>,
    to_format: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = output_settings(options)?;
    let keys = options::keys(&[
        options::READ_KEYS,
        &options::write_keys(),
        options::OUTPUT_KEYS,
    ]);
    let parsed = options::parse(options, &keys)?;
    // Choose the target before reading, so a bad output fails fast.
    target_format(py, to_format, Some(&dst))?;
    // One command, as `walkmesh convert`: every file read (the source, its buffers, the
    // profile) is recorded, and `dst` (or a sidecar of it) that is one of them is refused.
    let report = walkmesh_core::files::Scope::new().run(|| {
        let (bytes, path) = load_bytes(py, source_of(src)?)?;
        let mut mesh = read_loaded(py, &bytes, path, from_format, parsed.read_options())?;
        let earlier = std::mem::take(&mut mesh.warnings);
        write_mesh(
            py,
            &mesh,
            Destination::File(&dst, settings),
            to_format,
            &parsed,
            earlier,
        )
    })?;
    report.0.to_dict(py)
}

/// The findings of `validate` for a file (path, archive member or bytes), or for a Mesh:
/// a list of dicts (severity, code, message, file, offset, line, field). For a Mesh without
/// `format`, the format-neutral mesh checks; with `format`, the findings of the bytes it would
/// be written as (what `Mesh.write` refuses on errors).
#[pyfunction]
#[pyo3(signature = (source, format=None, **options))]
fn validate<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    if let Ok(mesh) = source.cast::<Mesh>() {
        let mesh = mesh.borrow();
        let findings = match format {
            None => {
                options::parse(options, &[])?;
                let navmesh: &NavMesh = &mesh.mesh;
                py.detach(|| {
                    let mut diag = Diagnostics::new();
                    let modelled = passes::as_modelled(navmesh, &mut diag);
                    let mut findings = diag.items;
                    findings.extend(core_validate::mesh_findings(&modelled));
                    findings
                })
            }
            Some(_) => mesh::findings_as_written(py, &mesh, format, options)?,
        };
        return errors::findings_list(py, &findings);
    }
    let parsed = options::parse(options, options::READ_KEYS)?;
    let read_options = parsed.read_options();
    let (bytes, path) = load_bytes(py, source_of(source)?)?;
    let name = path.clone().unwrap_or_default();
    let format = pipeline::detect(registry(), &bytes, &name, format)
        .map_err(|e| errors::read_failure(py, &e, path.as_deref()))?;
    let result = py.detach(|| {
        pipeline::validate_input(
            format,
            Input {
                bytes: &bytes,
                path: path.as_deref(),
            },
            &read_options,
        )
    });
    let mut findings = match result {
        Ok(findings) => findings,
        Err(ValidateFailure::Read(error)) => {
            let error = match &path {
                Some(path) => error.in_file(path),
                None => error,
            };
            return Err(errors::read_error(py, &error));
        }
        Err(ValidateFailure::Unsupported { id }) => {
            return Err(errors::read_failure_of_kind(
                py,
                walkmesh_core::ErrorKind::Unsupported,
                format!("the {id} format cannot be read or validated yet"),
                path.as_deref(),
            ));
        }
    };
    if let Some(path) = &path {
        for finding in &mut findings {
            if finding.location.file.is_none() {
                finding.location.file = Some(path.clone());
            }
        }
    }
    // Errors first, as `validate --json` lists them.
    findings.sort_by_key(|d| d.severity != Severity::Error);
    errors::findings_list(py, &findings)
}

/// The supported formats, as `walkmesh formats --json` lists them: dicts with id, name,
/// extensions, read, write, validate, dump.
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for format in registry().formats() {
        let dict = PyDict::new(py);
        let descriptor = format.descriptor();
        dict.set_item("id", descriptor.id)?;
        dict.set_item("name", descriptor.name)?;
        dict.set_item("extensions", PyList::new(py, descriptor.extensions)?)?;
        dict.set_item("read", format.reader().is_some())?;
        dict.set_item("write", format.writer().is_some())?;
        dict.set_item("validate", format.validator().is_some())?;
        dict.set_item("dump", format.dumper().is_some())?;
        list.append(dict)?;
    }
    Ok(list)
}

/// The neutral material names (KotOR surfacemat vocabulary); a name's position is its id
/// (`Mesh.material_ids`).
#[pyfunction]
fn material_names() -> Vec<&'static str> {
    walkmesh_core::material::NEUTRAL_NAMES.to_vec()
}

/// A JSON text as Python objects (through the standard library's json module).
pub fn json_to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The package's wording of a library message (flags → keyword arguments); for the tests.
#[pyfunction]
#[pyo3(name = "_python_wording")]
fn python_wording(text: &str) -> String {
    errors::python_wording(text)
}

/// Builds the extension module `walkmesh._walkmesh` over `registry`, as `walkmesh_cli::run_with`
/// runs the command line over one: a crate with formats of its own makes its own extension
/// module with this (this crate without its default feature `module`, which is the built-in
/// one) and ships it as `walkmesh/_walkmesh` beside the package's Python files
/// (`examples/textmesh/python`). Every function of the module (`read`, `convert`, `formats`,
/// `generate`, `walkmesh.area`…) then knows those formats. A process holds one registry: a
/// second module built with another one is refused.
pub fn build_module(m: &Bound<'_, PyModule>, registry: Registry) -> PyResult<()> {
    REGISTRY.set(registry).map_err(|_| {
        pyo3::exceptions::PyRuntimeError::new_err(
            "walkmesh: this process already built its module over a registry",
        )
    })?;
    add_module_items(m)
}

/// The module over the default registry (every built-in format).
#[cfg(feature = "module")]
#[pymodule]
fn _walkmesh(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_module_items(m)
}

/// The module's functions, classes and exceptions.
fn add_module_items(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(material_names, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(area::read_lyt, m)?)?;
    m.add_class::<Mesh>()?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("ReadError", py.get_type::<errors::ReadError>())?;
    m.add("WriteError", py.get_type::<errors::WriteError>())?;
    m.add("InvalidOutput", py.get_type::<errors::InvalidOutput>())?;
    m.add("FileNotFound", errors::file_not_found_class(py)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(python_wording, m)?)?;
    let area = PyModule::new(py, "area")?;
    area::register(&area)?;
    m.add_submodule(&area)?;
    Ok(())
}
