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

/// An input that cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ReadError {
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
            file: None,
            position: Position::Offset(offset),
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error at a 1-based line.
    pub fn at_line(line: u64, field: impl Into<String>, message: impl Into<String>) -> Self {
        ReadError {
            file: None,
            position: Position::Line(line),
            field: field.into(),
            message: message.into(),
        }
    }

    /// An error about the file as a whole.
    pub fn whole(field: impl Into<String>, message: impl Into<String>) -> Self {
        ReadError {
            file: None,
            position: Position::None,
            field: field.into(),
            message: message.into(),
        }
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

/// A mesh that a writer cannot encode.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{message}", if field.is_empty() { String::new() } else { format!("{field}: ") })]
pub struct WriteError {
    pub field: String,
    pub message: String,
}

impl WriteError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        WriteError {
            field: field.into(),
            message: message.into(),
        }
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
