//! Why a command failed, and the exit code that says so.
//!
//! Exit codes (documented in the README and `--help`):
//! - 0 success;
//! - 1 findings: `validate` found errors, or `convert --strict` met a warning (nothing written);
//! - 2 unreadable input, bad usage, or an output our own validator rejects (nothing written);
//! - 3 the output could not be written: a refused target (FIFO, device, directory, a sidecar
//!   we did not write), a missing directory, or an I/O error (nothing new left behind).
//!
//! Batch conversion exits with the highest code of its files.
//!
//! A library error becomes a failure through its [`ErrorKind`] alone, by one table
//! ([`KIND_TABLE`]): the kind gives the JSON `code` and the exit code, and is printed as
//! `kind`. The command's own outcomes (an output not written, one that would not validate, a
//! warning under `--strict`) have their own constructors.

use serde::Serialize;
use walkmesh_core::{Diagnostic, ErrorKind, Kinded};

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: `validate` found errors; `convert --strict` met a warning.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code: unreadable input, bad usage, or an output that would not validate.
pub const EXIT_INPUT: i32 = 2;
/// Exit code: the output could not be written.
pub const EXIT_OUTPUT: i32 = 3;

/// Every error kind, with the JSON `code` and exit code of a command it ends. The codes are
/// those the command line has always given (a kind refines them; it does not rename them),
/// but for `cli.limit`, which was `cli.input`.
pub const KIND_TABLE: [(ErrorKind, &str, i32); 6] = [
    (ErrorKind::Truncated, "cli.input", EXIT_INPUT),
    (ErrorKind::Invalid, "cli.input", EXIT_INPUT),
    (ErrorKind::Unsupported, "cli.input", EXIT_INPUT),
    (ErrorKind::Limit, "cli.limit", EXIT_INPUT),
    // Reading: a file that is missing or cannot be read. A refused write is `cli.output`
    // (exit 3), said where the output is written.
    (ErrorKind::Io, "cli.input", EXIT_INPUT),
    (ErrorKind::Parameter, "cli.usage", EXIT_INPUT),
];

/// The JSON code and exit code of `kind`, from [`KIND_TABLE`].
fn code_of(kind: ErrorKind) -> (&'static str, i32) {
    KIND_TABLE
        .iter()
        .find(|(listed, ..)| *listed == kind)
        .map_or(("cli.input", EXIT_INPUT), |&(_, code, exit)| (code, exit))
}

/// A failure that ends a command (or one file of a batch).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Stable code: `cli.input`, `cli.usage`, `cli.limit`, `cli.invalid_output`, `cli.strict`,
    /// `cli.output`.
    pub code: &'static str,
    /// The kind of error behind it, where a library error (or a kind named by the command)
    /// is: `truncated`, `invalid`, `unsupported`, `limit`, `io`, `parameter`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ErrorKind>,
    pub message: String,
    /// The exit code this failure ends the command with.
    pub exit_code: i32,
    /// Findings behind the failure (the validator's errors, the warnings under `--strict`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Failure {
    /// A failure of `kind`, coded by [`KIND_TABLE`].
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>) -> Failure {
        let (code, exit_code) = code_of(kind);
        Failure {
            kind: Some(kind),
            ..Failure::with(code, exit_code, message)
        }
    }

    /// A library error, its message after `context` (`"generate: "`, a file name), its kind
    /// kept.
    pub fn in_context(context: impl std::fmt::Display, error: &dyn Kinded) -> Failure {
        Failure::of_kind(error.kind(), format!("{context}{error}"))
    }

    /// Input that does not read: wrong data (exit 2). A library error keeps its own kind
    /// (`Failure::from`).
    pub fn input(message: impl Into<String>) -> Failure {
        Failure::of_kind(ErrorKind::Invalid, message)
    }

    /// A file that is missing or cannot be read (exit 2).
    pub fn unreadable(message: impl Into<String>) -> Failure {
        Failure::of_kind(ErrorKind::Io, message)
    }

    /// Input this build or format does not handle (exit 2).
    pub fn unsupported(message: impl Into<String>) -> Failure {
        Failure::of_kind(ErrorKind::Unsupported, message)
    }

    /// Bad usage: options that contradict each other or the target (exit 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::of_kind(ErrorKind::Parameter, message)
    }

    /// The output could not be written (exit 3).
    pub fn output(message: impl Into<String>) -> Failure {
        Failure::with("cli.output", EXIT_OUTPUT, message)
    }

    /// The bytes about to be written do not validate (exit 2).
    pub fn invalid_output(message: impl Into<String>, errors: Vec<Diagnostic>) -> Failure {
        Failure {
            diagnostics: errors,
            ..Failure::with("cli.invalid_output", EXIT_INPUT, message)
        }
    }

    /// A warning under `--strict` (exit 1).
    pub fn strict(message: impl Into<String>, warnings: Vec<Diagnostic>) -> Failure {
        Failure {
            diagnostics: warnings,
            ..Failure::with("cli.strict", EXIT_FINDINGS, message)
        }
    }

    fn with(code: &'static str, exit_code: i32, message: impl Into<String>) -> Failure {
        Failure {
            code,
            kind: None,
            message: message.into(),
            exit_code,
            diagnostics: Vec::new(),
        }
    }
}

/// A library error ends a command by its kind: every error type says it ([`Kinded`]).
impl<E: Kinded> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::of_kind(error.kind(), error.to_string())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::ReadError;

    #[test]
    fn the_table_codes_every_kind_once_and_only_limits_and_options_differ_from_input() {
        for kind in ErrorKind::ALL {
            let rows = KIND_TABLE.iter().filter(|(k, ..)| *k == kind).count();
            assert_eq!(rows, 1, "{kind}");
        }
        let code = |kind| code_of(kind).0;
        assert_eq!(code(ErrorKind::Truncated), "cli.input");
        assert_eq!(code(ErrorKind::Io), "cli.input");
        assert_eq!(code(ErrorKind::Parameter), "cli.usage");
        assert_eq!(code(ErrorKind::Limit), "cli.limit");
        // Every kind is a failure of the input or the options: exit 2. A refused write is
        // `Failure::output` (exit 3).
        assert!(KIND_TABLE.iter().all(|&(.., exit)| exit == EXIT_INPUT));
        assert_eq!(Failure::output("disk full").exit_code, EXIT_OUTPUT);
        assert_eq!(Failure::output("disk full").kind, None);
    }

    #[test]
    fn a_library_error_keeps_its_kind_and_its_sentence() {
        let error = ReadError::at_offset(16, "header.count", "the data ends here")
            .with_kind(ErrorKind::Truncated);
        let failure = Failure::from(error.clone());
        assert_eq!(failure.kind, Some(ErrorKind::Truncated));
        assert_eq!(failure.message, error.to_string());
        let placed = Failure::in_context("room.wok: ", &error);
        assert_eq!(placed.kind, Some(ErrorKind::Truncated));
        assert!(
            placed.message.starts_with("room.wok: byte 0x10"),
            "{}",
            placed.message
        );
        let json = walkmesh_core::json::compact(&failure).unwrap();
        assert!(json.contains(r#""kind":"truncated""#), "{json}");
        let written = walkmesh_core::json::compact(&Failure::output("x")).unwrap();
        assert!(!written.contains("kind"), "{written}");
    }
}
