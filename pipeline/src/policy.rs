//! What a conversion accepts and refuses of the output check's findings (the warnings
//! before it are judged by [`crate::warnings::WarningPolicy`]). One policy for the command line and the Python package; each passes the
//! way its users turn the refusal off (`--allow-invalid` or `allow_invalid=True`) so the
//! message names it.

use std::path::Path;

use walkmesh_core::{Diagnostic, Severity};

use crate::failure::Failure;
use crate::{Checked, Counts};

/// How the caller names its options in messages.
#[derive(Clone, Copy, Debug)]
pub struct OptionNames {
    /// The strict switch (`--strict`, `strict=True`).
    pub strict: &'static str,
    /// The switch that writes invalid output anyway (`--allow-invalid`, `allow_invalid=True`).
    pub allow_invalid: &'static str,
    /// The weld option up to its value (`--weld `, `weld=`).
    pub weld: &'static str,
    /// What an output kept in memory is, and that it holds (`` `-` (standard output) holds``,
    /// `bytes hold`).
    pub memory_holds: &'static str,
    /// How to ask for the one-file glTF (`--to glb`, `format="glb"`).
    pub to_glb: &'static str,
    /// The offset option (`--translate`, `translate`).
    pub translate: &'static str,
}

impl OptionNames {
    /// The weld option with `choice` as its value, for messages.
    pub fn weld_choice(&self, choice: walkmesh_core::WeldChoice) -> String {
        format!("{}{choice:?}", self.weld)
    }
}

/// The command line's names.
pub const CLI_NAMES: OptionNames = OptionNames {
    strict: "--strict",
    allow_invalid: "--allow-invalid",
    weld: "--weld ",
    memory_holds: "`-` (standard output) holds",
    to_glb: "--to glb",
    translate: "--translate",
};

/// The output check's findings, judged.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Counts of the mesh read back from the bytes.
    pub written: Option<Counts>,
    /// Errors the target's validator and reader found (accepted only with allow-invalid).
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// Judges what the output check found in the bytes about to be written to `output` (`None`:
/// bytes returned to the caller): errors refuse the output with a failure naming their codes
/// (exit 2), unless `allow_invalid`. Every finding is located in `output`.
pub fn judge_output(
    checked: Checked,
    output: Option<&Path>,
    target: &str,
    allow_invalid: bool,
    names: OptionNames,
) -> Result<Verdict, Failure> {
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) = checked
        .findings
        .into_iter()
        .map(|mut finding| {
            finding.location.file = output.map(Path::to_path_buf);
            finding
        })
        .partition(|d| d.severity == Severity::Error);
    if errors.is_empty() || allow_invalid {
        return Ok(Verdict {
            written: checked.written,
            errors,
            warnings,
        });
    }
    let mut codes: Vec<&str> = errors.iter().map(|d| d.code.as_str()).collect();
    codes.dedup();
    let name = output.map_or_else(|| "the bytes".to_string(), |p| p.display().to_string());
    Err(Failure::invalid_output(
        format!(
            "refusing to write {name}: our own validator finds {} error(s) in the {target} output ({}); nothing written ({} writes it anyway)",
            errors.len(),
            codes.join(", "),
            names.allow_invalid,
        ),
        errors,
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::Diagnostic;

    fn finding(severity: Severity, code: &str) -> Diagnostic {
        Diagnostic {
            severity,
            code: code.into(),
            message: "m".into(),
            location: Default::default(),
        }
    }

    fn checked(findings: Vec<Diagnostic>) -> Checked {
        Checked {
            written: Some(Counts {
                vertices: 3,
                faces: 1,
                walkable_faces: 1,
            }),
            findings,
        }
    }

    #[test]
    fn errors_refuse_unless_allowed_and_name_the_switch() {
        let found = vec![
            finding(Severity::Error, "bwm.a"),
            finding(Severity::Error, "bwm.a"),
            finding(Severity::Warning, "bwm.w"),
        ];
        let out = Path::new("room.wok");
        let refused =
            judge_output(checked(found.clone()), Some(out), "bwm", false, CLI_NAMES).unwrap_err();
        assert_eq!(refused.code, "cli.invalid_output");
        assert_eq!(refused.exit_code, crate::failure::EXIT_INPUT);
        assert_eq!(refused.diagnostics.len(), 2);
        assert!(
            refused
                .message
                .contains("2 error(s) in the bwm output (bwm.a)")
        );
        assert!(refused.message.contains("--allow-invalid writes it anyway"));
        let python = OptionNames {
            strict: "strict=True",
            allow_invalid: "allow_invalid=True",
            weld: "weld=",
            memory_holds: "bytes hold",
            to_glb: "format=\"glb\"",
            translate: "translate",
        };
        let refused = judge_output(checked(found.clone()), None, "bwm", false, python).unwrap_err();
        assert!(refused.message.starts_with("refusing to write the bytes"));
        assert!(refused.message.contains("allow_invalid=True"));
        let accepted = judge_output(checked(found), Some(out), "bwm", true, CLI_NAMES).unwrap();
        assert_eq!((accepted.errors.len(), accepted.warnings.len()), (2, 1));
        assert_eq!(accepted.errors[0].location.file.as_deref(), Some(out));
        assert_eq!(accepted.written.unwrap().faces, 1);
    }
}
