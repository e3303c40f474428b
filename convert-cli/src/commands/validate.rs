//! `walkmesh validate`: the format's own rules plus the format-neutral mesh checks.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;
use walkmesh_core::{Diagnostic, Input, Registry, Severity};
use walkmesh_pipeline::ValidateFailure;

use crate::input::{ReadArgs, open, read_options};
use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh file.
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Print {"errors": [...], "warnings": [...], "summary": [...]} (every finding; the cap
    /// below applies to the text form only).
    #[arg(long)]
    pub json: bool,
    /// Text form: show at most N findings of each code, then how many more there are
    /// (0 = show all).
    #[arg(long, value_name = "N", default_value_t = 10, conflicts_with = "json")]
    max_per_code: usize,
}

#[derive(Serialize)]
struct ValidationReport<'a> {
    errors: Vec<&'a Diagnostic>,
    warnings: Vec<&'a Diagnostic>,
    summary: Vec<CodeCount<'a>>,
}

/// How many findings one code has.
#[derive(Serialize)]
struct CodeCount<'a> {
    code: &'a str,
    severity: Severity,
    count: usize,
}

/// Findings per code, in the order the codes first appear.
fn per_code<'a>(findings: &[&'a Diagnostic]) -> Vec<CodeCount<'a>> {
    let mut counts: Vec<CodeCount<'a>> = Vec::new();
    let mut index: std::collections::BTreeMap<(&str, Severity), usize> = Default::default();
    for item in findings {
        let slot = *index
            .entry((item.code.as_str(), item.severity))
            .or_insert_with(|| {
                counts.push(CodeCount {
                    code: &item.code,
                    severity: item.severity,
                    count: 0,
                });
                counts.len() - 1
            });
        if let Some(entry) = counts.get_mut(slot) {
            entry.count += 1;
        }
    }
    counts
}

pub fn run(registry: &Registry, args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let (file, read, json) = (args.file.as_path(), &args.read, args.json);
    let (bytes, format) = open(registry, file, read)?;
    let options = read_options(read)?;
    let input = Input {
        bytes: &bytes,
        path: Some(file),
    };
    let mut findings = walkmesh_pipeline::validate_input(format, input, &options).map_err(
        |failure| match failure {
            ValidateFailure::Read(error) => Failure::from(error.in_file(file)),
            ValidateFailure::Unsupported { id } => {
                Failure::input(format!("the {id} format cannot be read or validated yet"))
            }
        },
    )?;
    for finding in &mut findings {
        if finding.location.file.is_none() {
            finding.location.file = Some(file.to_path_buf());
        }
    }
    let errors: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let warnings: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.severity != Severity::Error)
        .collect();
    let failed = !errors.is_empty();
    let all: Vec<&Diagnostic> = errors.iter().chain(&warnings).copied().collect();
    let summary = per_code(&all);
    if json {
        let report = ValidationReport {
            errors,
            warnings,
            summary,
        };
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&report)?)?;
    } else {
        let mut shown: std::collections::BTreeMap<(&str, Severity), usize> = Default::default();
        for item in &all {
            let count = shown
                .entry((item.code.as_str(), item.severity))
                .or_default();
            *count += 1;
            if args.max_per_code == 0 || *count <= args.max_per_code {
                writeln!(stdout, "{item}")?;
            }
        }
        if summary.len() > 1 || summary.iter().any(|c| c.count > 1) {
            writeln!(stdout, "by code:")?;
            for entry in &summary {
                let hidden = if args.max_per_code == 0 {
                    0
                } else {
                    entry.count.saturating_sub(args.max_per_code)
                };
                writeln!(
                    stdout,
                    "  {:>6} {} [{}]{}",
                    entry.count,
                    match entry.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                        Severity::Info => "note",
                    },
                    entry.code,
                    if hidden > 0 {
                        format!(" ({hidden} not shown; --max-per-code 0 shows all)")
                    } else {
                        String::new()
                    }
                )?;
            }
        }
        writeln!(
            stdout,
            "{}: {} error(s), {} warning(s)",
            file.display(),
            errors.len(),
            warnings.len()
        )?;
    }
    Ok(if failed { 1 } else { 0 })
}
