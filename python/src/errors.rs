//! Python exceptions carrying the file, byte offset or line, field and code of a failure, and
//! findings (diagnostics) as dictionaries.

use std::path::Path;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyFileNotFoundError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use walkmesh_core::{Diagnostic, ErrorKind, Kinded, Position, Severity};

create_exception!(
    walkmesh,
    Error,
    PyException,
    "Base of every walkmesh error. Attributes: file, offset, line, field, code (None where unknown), kind (\"truncated\", \"invalid\", \"unsupported\", \"limit\", \"io\", \"parameter\"; None where the failure is not an error of the input or options: a refused write, strict=True), findings (list of finding dicts)."
);
create_exception!(
    walkmesh,
    ReadError,
    Error,
    "An input that cannot be read: unreadable bytes, an unknown format, a missing file or archive member."
);
create_exception!(
    walkmesh,
    WriteError,
    Error,
    "A mesh that cannot be written: the writer refused it, options contradict the target, the file system refused the output, or strict=True met a warning."
);
create_exception!(
    walkmesh,
    InvalidOutput,
    WriteError,
    "The bytes about to be written do not pass our own validator (nothing was written); allow_invalid=True writes them anyway. The validator's errors are in `findings`."
);

/// What an exception carries besides its message.
#[derive(Debug, Default)]
pub struct Fields {
    pub file: Option<String>,
    pub position: Position,
    pub field: Option<String>,
    pub code: Option<String>,
    /// The kind of error, where there is one (Python's `kind`).
    pub kind: Option<ErrorKind>,
    pub findings: Vec<Diagnostic>,
}

impl Fields {
    /// A library failure's code, kind and findings.
    pub fn of_failure(failure: walkmesh_pipeline::Failure) -> Fields {
        Fields {
            code: Some(failure.code.to_string()),
            kind: failure.kind,
            findings: failure.diagnostics,
            ..Fields::default()
        }
    }

    /// The code a failure of `kind` has ([`walkmesh_pipeline::failure::KIND_TABLE`]).
    pub fn of_kind(kind: ErrorKind) -> Fields {
        Fields::of_failure(walkmesh_pipeline::Failure::of_kind(kind, ""))
    }

    pub fn code(code: &str) -> Fields {
        Fields {
            code: Some(code.to_string()),
            ..Fields::default()
        }
    }
}

/// Which exception class to raise.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Read,
    Write,
    Invalid,
}

/// Sentences of the shared library that name a command-line flag or command, and what a
/// Python caller writes instead. Longest first: a later, shorter entry must not cut an earlier
/// one short.
const PYTHON_WORDING: &[(&str, &str)] = &[
    (
        "name it with --from",
        "name it with format= (from_format= in convert)",
    ),
    (
        "name one with --to (`walkmesh formats` lists them)",
        "name one with format= (to_format= in convert; walkmesh.formats() lists them)",
    ),
    ("`walkmesh formats`", "walkmesh.formats()"),
    ("`walkmesh convert --weld exact`", "weld=\"exact\""),
    ("`walkmesh convert --translate ", "translate=\""),
    ("--weld exact", "weld=\"exact\""),
    ("--weld off", "weld=\"off\""),
    ("--weld DISTANCE", "weld=DISTANCE"),
    ("--up y", "up=\"y\""),
    ("--up z", "up=\"z\""),
    ("--rebuild", "rebuild=True"),
    ("--max-memory MIB", "max_memory=MIB"),
    ("--cell-size", "cell_size="),
    ("--cell-height", "cell_height="),
    ("--height-tolerance 0", "height_tolerance=0"),
    ("--force", "force=True"),
    ("--create-dirs", "create_dirs=True"),
    ("--allow ", "allow="),
    ("--deny ", "deny="),
    (
        "name a file, or use --out-dir for many inputs",
        "name a file",
    ),
];

/// `text` as a Python caller reads it: command-line flags (`--default-material`,
/// `--weld exact`) become the package's keyword arguments (`default_material=`,
/// `weld="exact"`). The library's messages are shared with the command line; this is the one
/// place the package renames them.
pub fn python_wording(text: &str) -> String {
    if !text.contains("--") && !text.contains('`') {
        return text.to_string();
    }
    let mut out = text.to_string();
    for (cli, python) in PYTHON_WORDING {
        out = out.replace(cli, python);
    }
    // "translate=\"X,Y,0` moves it back": close the quote the table opened.
    if let Some(start) = out.find("translate=\"")
        && let Some(end) = out[start..].find('`')
    {
        out.replace_range(start + end..start + end + 1, "\"");
    }
    flags_to_keywords(&out)
}

/// Any other `--flag-name` left in `text` becomes `flag_name=`.
fn flags_to_keywords(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let name_len = after[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(after.len() - 2);
        let name = &after[2..2 + name_len];
        let starts_word = before.is_empty() || before.ends_with([' ', '(', '`']);
        if starts_word && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&name.replace('-', "_"));
            out.push('=');
        } else {
            out.push_str(&after[..2 + name_len]);
        }
        rest = &after[2 + name_len..];
    }
    out.push_str(rest);
    out
}

/// A Python exception of `kind` with `message` and the attributes of `fields`.
pub fn raise(py: Python<'_>, kind: Kind, message: String, fields: Fields) -> PyErr {
    let message = python_wording(&message);
    let error = match kind {
        Kind::Read => ReadError::new_err(message),
        Kind::Write => WriteError::new_err(message),
        Kind::Invalid => InvalidOutput::new_err(message),
    };
    let value = error.value(py);
    let (offset, line) = split_position(fields.position);
    let findings = findings_list(py, &fields.findings);
    // Attributes on a fresh exception instance cannot fail short of memory exhaustion; if they
    // do, the exception still carries its message.
    let _ = value.setattr("file", fields.file);
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("line", line);
    let _ = value.setattr("field", fields.field.filter(|f| !f.is_empty()));
    let _ = value.setattr("code", fields.code);
    let _ = value.setattr("kind", fields.kind.map(ErrorKind::name));
    if let Ok(findings) = findings {
        let _ = value.setattr("findings", findings);
    }
    error
}

/// A read error of the core, with its file, position and field.
pub fn read_error(py: Python<'_>, error: &walkmesh_core::ReadError) -> PyErr {
    raise(
        py,
        Kind::Read,
        error.to_string(),
        Fields {
            file: error.file.as_deref().map(path_text),
            position: error.position,
            field: Some(error.field.clone()),
            ..Fields::of_kind(error.kind)
        },
    )
}

/// A read failure without a position (detection, an archive member) naming `file`.
pub fn read_failure(py: Python<'_>, error: &dyn Kinded, file: Option<&Path>) -> PyErr {
    read_failure_of_kind(py, error.kind(), error.to_string(), file)
}

/// A read failure of `kind` said in `message`, naming `file`.
pub fn read_failure_of_kind(
    py: Python<'_>,
    kind: ErrorKind,
    message: String,
    file: Option<&Path>,
) -> PyErr {
    raise(
        py,
        Kind::Read,
        message,
        Fields {
            file: file.map(path_text),
            ..Fields::of_kind(kind)
        },
    )
}

/// `path` names no file, and no archive that exists when it reads `archive.mod:member`
/// (a missing member is a ReadError naming the archive's members, not a missing file).
pub fn is_missing(path: &Path) -> bool {
    if path.exists() {
        return false;
    }
    let text = path.to_string_lossy();
    match walkmesh_kotor_area::erf::split_member_path(&text) {
        Some((archive, _)) => !Path::new(archive).exists(),
        None => true,
    }
}

/// `walkmesh.FileNotFound`: both a `ReadError` (the package's errors keep one base) and
/// Python's `FileNotFoundError` (what `open()` raises, with `errno`, `strerror`, `filename`).
/// Made once per interpreter with `type()`: pyo3's exception macro takes a single base.
pub fn file_not_found_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let class = CLASS.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<ReadError>().into_any(),
                py.get_type::<PyFileNotFoundError>().into_any(),
            ],
        )?;
        let namespace = PyDict::new(py);
        namespace.set_item("__module__", "walkmesh")?;
        namespace.set_item(
            "__doc__",
            "A file that does not exist: a walkmesh.ReadError and a FileNotFoundError.",
        )?;
        let class = py
            .get_type::<PyType>()
            .call1(("FileNotFound", bases, namespace))?;
        Ok(class.unbind())
    })?;
    Ok(class.bind(py).clone())
}

/// The error for a missing input file: `walkmesh.FileNotFound` with errno ENOENT and the
/// usual attributes (file, code "cli.input").
pub fn file_not_found(py: Python<'_>, path: &Path) -> PyErr {
    const ENOENT: i32 = 2;
    let made = file_not_found_class(py)
        .and_then(|class| class.call1((ENOENT, "No such file or directory", path_text(path))));
    let value = match made {
        Ok(value) => value,
        Err(error) => return error,
    };
    let _ = value.setattr("file", path_text(path));
    let _ = value.setattr("offset", py.None());
    let _ = value.setattr("line", py.None());
    let _ = value.setattr("field", py.None());
    let _ = value.setattr("code", "cli.input");
    let _ = value.setattr("kind", ErrorKind::Io.name());
    let _ = value.setattr("findings", PyList::empty(py));
    PyErr::from_value(value)
}

pub fn path_text(path: &Path) -> String {
    path.display().to_string()
}

fn split_position(position: Position) -> (Option<u64>, Option<u64>) {
    match position {
        Position::Offset(offset) => (Some(offset), None),
        Position::Line(line) => (None, Some(line)),
        Position::None => (None, None),
    }
}

/// A finding as a dict: `severity` ("error", "warning", "info"), `code`, `message`, `file`,
/// `offset`, `line`, `field` (None where unknown).
pub fn finding_dict<'py>(py: Python<'py>, item: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(
        "severity",
        match item.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        },
    )?;
    dict.set_item("code", &item.code)?;
    dict.set_item("message", python_wording(&item.message))?;
    let (offset, line) = split_position(item.location.position);
    dict.set_item("file", item.location.file.as_deref().map(path_text))?;
    dict.set_item("offset", offset)?;
    dict.set_item("line", line)?;
    dict.set_item("field", item.location.field.as_deref())?;
    Ok(dict)
}

pub fn findings_list<'py>(py: Python<'py>, items: &[Diagnostic]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for item in items {
        list.append(finding_dict(py, item)?)?;
    }
    Ok(list)
}

/// A failure of the library's room loading, as the package's exception: a file named where
/// the failure has one.
pub fn rooms_error(py: Python<'_>, error: walkmesh_kotor_area::RoomsError) -> PyErr {
    use walkmesh_kotor_area::RoomsError;
    match error {
        RoomsError::Read(read) => read_error(py, &read),
        RoomsError::Io { ref path, .. } => read_failure(py, &error, Some(path)),
        RoomsError::Room { ref file, .. } => {
            let file = std::path::PathBuf::from(file);
            read_failure(py, &error, Some(&file))
        }
        RoomsError::Repeated(ref repeated) => {
            let file = repeated.file.clone();
            read_failure(py, &error, Some(&file))
        }
        RoomsError::Layout { .. } | RoomsError::Write { .. } => read_failure(py, &error, None),
    }
}
