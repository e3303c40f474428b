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
    /// Print {"errors": [...], "warnings": [...]}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ValidationReport<'a> {
    errors: Vec<&'a Diagnostic>,
    warnings: Vec<&'a Diagnostic>,
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
            // Modelling-tool input is checked welded, as `convert` writes it.
            let mesh = passes::as_modelled(&mesh, &mut diag);
            findings.extend(diag.items);
            findings.extend(validate::mesh_findings(&mesh));
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
    if json {
        let report = ValidationReport { errors, warnings };
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for item in errors.iter().chain(&warnings) {
            writeln!(stdout, "{item}")?;
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
