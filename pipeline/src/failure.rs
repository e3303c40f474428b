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

use serde::Serialize;
use walkmesh_core::Diagnostic;

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: `validate` found errors; `convert --strict` met a warning.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code: unreadable input, bad usage, or an output that would not validate.
pub const EXIT_INPUT: i32 = 2;
/// Exit code: the output could not be written.
pub const EXIT_OUTPUT: i32 = 3;

/// A failure that ends a command (or one file of a batch).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Stable code: `cli.input`, `cli.usage`, `cli.invalid_output`, `cli.strict`,
    /// `cli.output`.
    pub code: &'static str,
    pub message: String,
    /// The exit code this failure ends the command with.
    pub exit_code: i32,
    /// Findings behind the failure (the validator's errors, the warnings under `--strict`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Failure {
    /// Unreadable input (exit 2).
    pub fn input(message: impl Into<String>) -> Failure {
        Failure::with("cli.input", EXIT_INPUT, message)
    }

    /// Bad usage: options that contradict each other or the target (exit 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::with("cli.usage", EXIT_INPUT, message)
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
            message: message.into(),
            exit_code,
            diagnostics: Vec::new(),
        }
    }
}

/// Anything printable is an input failure unless said otherwise: reading errors, detection
/// errors, serialisation of what we print.
impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::input(error.to_string())
    }
}
