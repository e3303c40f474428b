//! Diagnostics: typed errors that name the file, the position (byte offset or line) and the
//! field, and warnings for every lossy or suspicious step.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// Where in the input something was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    /// A byte offset in a binary file.
    Offset(u64),
    /// A 1-based line in a text file.
    Line(u64),
    /// Nowhere in particular (the whole file, or derived data).
    #[default]
    None,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Offset(offset) => write!(f, "byte {offset:#x} ({offset})"),
            Position::Line(line) => write!(f, "line {line}"),
            Position::None => Ok(()),
        }
    }
}

/// What kind of failure an error is: the one thing a caller acts on (the command line's exit
/// code and JSON `code`, Python's exception class) without reading the sentence. The kinds
/// follow image-rs's error kinds; every library error says its kind through [`Kinded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The data ends before a structure, or a counted array, does.
    Truncated,
    /// The data is there but wrong: a value out of range, an offset pointing nowhere, two
    /// fields that contradict each other, text that does not parse.
    Invalid,
    /// Well-formed data this build or this format does not handle: another version, a variant,
    /// a format left out of the build, a mesh a writer cannot encode.
    Unsupported,
    /// Refused because it would pass a limit: memory (`--max-memory`), what the target can
    /// hold (faces per tile, vertices per file).
    Limit,
    /// The file system refused: a missing file, an unreadable one, a folder that cannot be made.
    Io,
    /// The caller's options: a value out of range, options that contradict each other or the
    /// target.
    Parameter,
}

impl ErrorKind {
    /// Every kind, in declaration order (for tables and tests).
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::Truncated,
        ErrorKind::Invalid,
        ErrorKind::Unsupported,
        ErrorKind::Limit,
        ErrorKind::Io,
        ErrorKind::Parameter,
    ];

    /// The kind's name as JSON and Python give it (`truncated`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "truncated",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Limit => "limit",
            ErrorKind::Io => "io",
            ErrorKind::Parameter => "parameter",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error that says which [`ErrorKind`] it is. Every error type of the library crates
/// implements it, so that a front end maps kinds, not sentences, to what it reports.
pub trait Kinded: fmt::Display {
    fn kind(&self) -> ErrorKind;
}

impl Kinded for std::io::Error {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Io
    }
}

impl Kinded for serde_json::Error {
    /// JSON the library reads (a baseline, a report) that does not parse, or that it cannot
    /// print.
    fn kind(&self) -> ErrorKind {
        if self.is_io() {
            ErrorKind::Io
        } else if self.is_eof() {
            ErrorKind::Truncated
        } else {
            ErrorKind::Invalid
        }
    }
}

/// An error of any type that says its kind, for errors passed through boxed (a format's own
/// error from a role whose error type the caller cannot know: `format::BoxError`).
pub trait KindedError: std::error::Error + Kinded + Send + Sync {}

impl<E: std::error::Error + Kinded + Send + Sync> KindedError for E {}

impl Kinded for Box<dyn KindedError> {
    fn kind(&self) -> ErrorKind {
        self.as_ref().kind()
    }
}

/// An input that cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ReadError {
    /// What kind of failure: [`ErrorKind::Invalid`] unless the reader said otherwise
    /// ([`ReadError::with_kind`]; the byte cursor says [`ErrorKind::Truncated`]).
    pub kind: ErrorKind,
    /// The file, once known (readers see bytes; the caller adds the path).
    pub file: Option<PathBuf>,
    pub position: Position,
    /// The field being read, as a path (`header.vertex_count`, `faces[12].v2`, `f`).
    pub field: String,
    /// What is wrong, as a sentence without a final full stop.
    pub message: String,
}

impl ReadError {
    /// An error at a byte offset.
    pub fn at_offset(offset: u64, field: impl Into<String>, message: impl Into<String>) -> Self {
        ReadError {
            kind: ErrorKind::Invalid,
            file: None,
            position: Position::Offset(offset),
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error at a 1-based line.
    pub fn at_line(line: u64, field: impl Into<String>, message: impl Into<String>) -> Self {
        ReadError {
            kind: ErrorKind::Invalid,
            file: None,
            position: Position::Line(line),
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error about the file as a whole.
    pub fn whole(field: impl Into<String>, message: impl Into<String>) -> Self {
        ReadError {
            kind: ErrorKind::Invalid,
            file: None,
            position: Position::None,
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error, of another kind.
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Names the file.
    pub fn in_file(mut self, file: impl Into<PathBuf>) -> Self {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut prefix = Vec::new();
        if let Some(file) = &self.file {
            prefix.push(file.display().to_string());
        }
        if self.position != Position::None {
            prefix.push(self.position.to_string());
        }
        if !self.field.is_empty() {
            prefix.push(format!("field {}", self.field));
        }
        if prefix.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", prefix.join(", "), self.message)
        }
    }
}

impl Kinded for ReadError {
    fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// A mesh that a writer cannot encode.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{message}", if field.is_empty() { String::new() } else { format!("{field}: ") })]
pub struct WriteError {
    /// [`ErrorKind::Unsupported`] (the target cannot store this mesh) unless the writer said
    /// otherwise ([`ErrorKind::Limit`] for more than the target holds).
    pub kind: ErrorKind,
    pub field: String,
    pub message: String,
}

impl WriteError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        WriteError {
            kind: ErrorKind::Unsupported,
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error, of another kind.
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }
}

impl Kinded for WriteError {
    fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// Where a diagnostic points.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    #[serde(skip_serializing_if = "is_none_position")]
    pub position: Position,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

fn is_none_position(position: &Position) -> bool {
    *position == Position::None
}

/// One finding: a stable machine-readable `code` (`mesh.non_manifold_edge`,
/// `bwm.adjacency_not_reciprocal`, `obj.unknown_material`) and a sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    #[serde(flatten)]
    pub location: Location,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Info => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{severity} [{}]", self.code)?;
        if let Some(file) = &self.location.file {
            write!(f, " {}", file.display())?;
        }
        if self.location.position != Position::None {
            write!(f, " {}", self.location.position)?;
        }
        if let Some(field) = &self.location.field {
            write!(f, " ({field})")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// A list of diagnostics collected while reading, preparing or writing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Self {
        Diagnostics::default()
    }

    /// Adds a finding.
    pub fn push(
        &mut self,
        severity: Severity,
        code: &str,
        position: Position,
        field: Option<&str>,
        message: impl Into<String>,
    ) {
        self.items.push(Diagnostic {
            severity,
            code: code.to_string(),
            message: message.into(),
            location: Location {
                file: None,
                position,
                field: field.map(str::to_string),
            },
        });
    }

    /// Adds a warning with no position.
    pub fn warn(&mut self, code: &str, message: impl Into<String>) {
        self.push(Severity::Warning, code, Position::None, None, message);
    }

    /// Adds an error with no position.
    pub fn error(&mut self, code: &str, message: impl Into<String>) {
        self.push(Severity::Error, code, Position::None, None, message);
    }

    /// Names the file in every finding that has none yet.
    pub fn set_file(&mut self, file: &std::path::Path) {
        for item in &mut self.items {
            if item.location.file.is_none() {
                item.location.file = Some(file.to_path_buf());
            }
        }
    }

    /// Findings of at least `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    /// Moves all of `other`'s findings here.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_error_names_file_offset_and_field() {
        let error = ReadError::at_offset(
            0x48,
            "header.vertex_count",
            "count 9 needs 108 bytes, 12 remain",
        )
        .in_file("room.wok");
        assert_eq!(
            error.to_string(),
            "room.wok, byte 0x48 (72), field header.vertex_count: count 9 needs 108 bytes, 12 remain"
        );
        let error = ReadError::at_line(7, "f", "vertex 0 does not exist");
        assert_eq!(
            error.to_string(),
            "line 7, field f: vertex 0 does not exist"
        );
    }
}
