//! `walkmesh validate`: the format's own rules plus the format-neutral mesh checks.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;
use walkmesh_core::{Diagnostic, Diagnostics, Input, Registry, Severity, passes, validate};

use crate::Failure;
use crate::input::{ReadArgs, open, read_options};

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
    #[arg(long, value_name = "N", default_value_t = 10)]
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
    let mut findings: Vec<Diagnostic> = Vec::new();
    let mut format_errors = 0;
    if let Some(validator) = format.validator() {
        let found = validator
            .validate(input, &options)
            .map_err(|e| Failure(e.in_file(file).to_string()))?;
        format_errors = found
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        findings.extend(found);
    }
    let reader = format.reader();
    let mut diag = Diagnostics::new();
    match reader.map(|r| r.read(input, &options, &mut diag)) {
        Some(Ok(mesh)) => {
            // Modelling-tool input is checked welded, as `convert` writes it; errors in the
            // polygons as read (a face repeating a vertex, which welding would drop) are
            // still errors of the file.
            let welded = passes::as_modelled(&mesh, &mut diag);
            findings.extend(diag.items);
            match welded {
                std::borrow::Cow::Borrowed(_) => {
                    findings.extend(validate::mesh_findings(&mesh));
                }
                std::borrow::Cow::Owned(welded) => {
                    // Zero-area polygons too are counted as read: welding drops the faces
                    // that repeat a vertex, and `convert` reports dropping them.
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
        Some(Err(error)) if format_errors == 0 => {
            return Err(Failure(error.in_file(file).to_string()));
        }
        // The format validator already explained why the file does not read.
        Some(Err(_)) => {}
        None if format.validator().is_none() => {
            return Err(Failure(format!(
                "the {} format cannot be read or validated yet",
                format.id()
            )));
        }
        None => {}
    }
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
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
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
