//! Python exceptions carrying the file, byte offset or line, field and code of a failure, and
//! findings (diagnostics) as dictionaries.

use std::path::Path;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use walkmesh_core::{Diagnostic, Position, Severity};

create_exception!(
    walkmesh,
    Error,
    PyException,
    "Base of every walkmesh error. Attributes: file, offset, line, field, code (None where unknown), findings (list of finding dicts)."
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
    pub findings: Vec<Diagnostic>,
}

impl Fields {
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

/// A Python exception of `kind` with `message` and the attributes of `fields`.
pub fn raise(py: Python<'_>, kind: Kind, message: String, fields: Fields) -> PyErr {
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
            code: Some("cli.input".into()),
            findings: Vec::new(),
        },
    )
}

/// A read failure with only a sentence (detection, missing files) naming `file`.
pub fn read_failure(py: Python<'_>, message: String, file: Option<&Path>) -> PyErr {
    raise(
        py,
        Kind::Read,
        message,
        Fields {
            file: file.map(path_text),
            ..Fields::code("cli.input")
        },
    )
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
    dict.set_item("message", &item.message)?;
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
