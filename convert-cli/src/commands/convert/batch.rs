//! `walkmesh convert PATHS… --out-dir DIR --to FORMAT`: many inputs at once.
//!
//! Inputs are files, directories (searched recursively for extensions a reader claims) and
//! glob patterns (`'areas/**/*.wok'`, quoted so the shell leaves them alone). Each output keeps
//! its path relative to the directory or to the glob's fixed prefix it was found under.
//! Files are converted in parallel by `--jobs` worker threads (see [`run_jobs`]); the list of jobs,
//! their output names and the report order are fixed before any work starts, so the output
//! does not depend on the thread count. A bad file is reported and skipped.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use walkmesh_core::{Output, Registry};
use walkmesh_pipeline::batch::{collect_jobs, convert_job, run_jobs, warning_counts};

use super::{Args, plan};
use crate::conversion::{Conversion, Plan, dependency_rule, target_for};
use crate::targets::is_stdout;
use walkmesh_pipeline::failure::EXIT_OK;
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::{self, OutputSettings};

/// One line of `--report`.
#[derive(Serialize)]
struct ReportLine<'a> {
    input: &'a Path,
    output: &'a Path,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    conversion: Option<&'a Conversion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a Failure>,
}

/// The summary printed with `--json`.
#[derive(Serialize)]
struct Summary {
    files: usize,
    converted: usize,
    /// Of the converted, the outputs that already held the same bytes and were left untouched.
    unchanged: usize,
    failed: usize,
    to: String,
    out_dir: PathBuf,
    /// Warnings per code over every file.
    warnings: BTreeMap<String, usize>,
    /// Failures: input and message.
    failures: Vec<(PathBuf, String)>,
    exit_code: i32,
    seconds: f64,
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let started = Instant::now();
    let (out_dir, to) = batch_arguments(args)?;
    let (target, extension) = target_for(registry, to)?;
    let plan = plan(registry, args, target)?;
    ensure_out_dir(out_dir, args.create_dirs)?;
    let jobs = collect_jobs(registry, &args.paths, out_dir, &extension)?;
    // Subdirectories of --out-dir mirror the inputs' tree and are created as needed.
    let job_plan = Plan {
        settings: OutputSettings {
            create_dirs: true,
            ..plan.settings
        },
        ..plan
    };
    let budget = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(walkmesh_core::threads::machine);
    let progress = progress_bar(jobs.len(), args.quiet);
    let results = run_jobs(
        &jobs,
        budget,
        || progress.inc(1),
        |job| convert_job(&job_plan, job),
    );
    progress.finish_and_clear();

    let Tally {
        warnings,
        failures,
        exit_code,
        report,
    } = tally(&jobs, &results, args, stderr)?;
    write_depfile_and_report(args, &results, report, plan.settings, stdout)?;
    let converted = results.iter().filter(|r| r.is_ok()).count();
    let unchanged = results
        .iter()
        .filter(|r| r.as_ref().is_ok_and(|c| c.unchanged))
        .count();
    let summary = Summary {
        files: jobs.len(),
        converted,
        unchanged,
        failed: jobs.len() - converted,
        to: target.descriptor().id.to_string(),
        out_dir: out_dir.clone(),
        warnings,
        failures,
        exit_code,
        seconds: started.elapsed().as_secs_f64(),
    };
    print_summary(&summary, args, stdout, stderr)?;
    Ok(exit_code)
}

/// `--out-dir` and `--to` of a batch, after the checks on the arguments that need no file.
fn batch_arguments(args: &Args) -> Result<(&PathBuf, &String), Failure> {
    let Some(out_dir) = &args.out_dir else {
        return Err(Failure::usage("batch conversion needs --out-dir"));
    };
    let Some(to) = &args.to else {
        return Err(Failure::usage(
            "--out-dir needs --to FORMAT (an id or extension: glb, wok, trx, obj, …)",
        ));
    };
    if args.paths.iter().any(|p| is_stdout(p)) {
        return Err(Failure::usage("`-` is not an input of a batch"));
    }
    if args.json && args.report.as_deref().is_some_and(is_stdout) {
        return Err(Failure::usage(
            "--json and --report - would both print to standard output",
        ));
    }
    Ok((out_dir, to))
}

/// `--out-dir` is a directory, created with `--create-dirs` when missing.
fn ensure_out_dir(out_dir: &Path, create_dirs: bool) -> Result<(), Failure> {
    match std::fs::metadata(out_dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Failure::output(format!(
                "--out-dir {} is not a directory",
                out_dir.display()
            )));
        }
        Err(_) if create_dirs => {
            std::fs::create_dir_all(out_dir).map_err(|e| {
                Failure::output(format!("cannot create {}: {e}", out_dir.display()))
            })?;
        }
        Err(_) => {
            return Err(Failure::output(format!(
                "the output directory {} does not exist (create it, or pass --create-dirs)",
                out_dir.display()
            )));
        }
    }
    Ok(())
}

/// What the batch's results add up to: warnings per code, failures, the exit code and the
/// `--report` lines (built only when asked).
struct Tally {
    warnings: BTreeMap<String, usize>,
    failures: Vec<(PathBuf, String)>,
    exit_code: i32,
    report: String,
}

/// Goes through the results in the jobs' order, printing each failure (unless `--json`).
fn tally(
    jobs: &[walkmesh_pipeline::batch::Job],
    results: &[Result<Conversion, Failure>],
    args: &Args,
    stderr: &mut dyn Write,
) -> Result<Tally, Failure> {
    let warnings = warning_counts(results.iter().flatten());
    let mut failures = Vec::new();
    let mut exit_code = EXIT_OK;
    let mut report = String::new();
    for (job, result) in jobs.iter().zip(results) {
        let line = match result {
            Ok(conversion) => ReportLine {
                input: &job.input,
                output: &job.output,
                status: if conversion.unchanged {
                    "unchanged"
                } else {
                    "converted"
                },
                conversion: Some(conversion),
                error: None,
            },
            Err(failure) => {
                exit_code = exit_code.max(failure.exit_code);
                failures.push((job.input.clone(), failure.message.clone()));
                if !args.json {
                    writeln!(stderr, "error: {}", failure.message)?;
                    for item in &failure.diagnostics {
                        writeln!(stderr, "  {item}")?;
                    }
                }
                ReportLine {
                    input: &job.input,
                    output: &job.output,
                    status: "failed",
                    conversion: None,
                    error: Some(failure),
                }
            }
        };
        // Only when asked: serialising every conversion is work on this one thread.
        if args.report.is_some() {
            report.push_str(&walkmesh_core::json::compact(&line)?);
            report.push('\n');
        }
    }
    Ok(Tally {
        warnings,
        failures,
        exit_code,
        report,
    })
}

/// Writes `--depfile` and `--report` (to a file, staged, or to standard output).
fn write_depfile_and_report(
    args: &Args,
    results: &[Result<Conversion, Failure>],
    report: String,
    settings: OutputSettings,
    stdout: &mut dyn Write,
) -> Result<(), Failure> {
    if let Some(depfile) = &args.depfile {
        let rules: String = results.iter().flatten().map(dependency_rule).collect();
        output::write_atomically(depfile, rules.as_bytes())?;
    }
    if let Some(report_path) = &args.report {
        if is_stdout(report_path) {
            stdout.write_all(report.as_bytes())?;
        } else {
            let staged = output::stage(
                report_path,
                &Output {
                    main: report.into_bytes(),
                    sidecars: Vec::new(),
                },
                settings,
            )?;
            staged.commit()?;
        }
    }
    Ok(())
}

/// The summary: JSON with `--json`, else (unless `--quiet`) warnings per code and one line,
/// on standard error when the report goes to standard output.
fn print_summary(
    summary: &Summary,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Failure> {
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(summary)?)?;
    } else if !args.quiet {
        let out: &mut dyn Write = if args.report.as_deref().is_some_and(is_stdout) {
            stderr
        } else {
            stdout
        };
        for (code, count) in &summary.warnings {
            writeln!(out, "warning [{code}]: {count} time(s)")?;
        }
        writeln!(
            out,
            "converted {} of {} file(s) to {} in {}, {:.2} s{}{}",
            summary.converted,
            summary.files,
            summary.to,
            summary.out_dir.display(),
            summary.seconds,
            if summary.unchanged > 0 {
                format!(
                    "; {} unchanged (same bytes, left untouched)",
                    summary.unchanged
                )
            } else {
                String::new()
            },
            if summary.failed > 0 {
                format!("; {} failed", summary.failed)
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}

/// Whether a job's output is its input (`convert rooms/a.wok --out-dir rooms --to wok`): by
/// device and inode, so links and other spellings count.
fn progress_bar(files: usize, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(files as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed} (eta {eta}) {msg}")
    {
        bar.set_style(style);
    }
    bar
}
