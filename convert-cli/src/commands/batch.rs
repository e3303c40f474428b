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
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use walkmesh_core::{Output, Registry, Severity};

use crate::Failure;
use crate::commands::convert::{Args, Conversion, Plan, convert_file, is_stdout, plan, target_for};
use crate::failure::EXIT_OK;
use crate::output::{self, OutputSettings};

/// One input and the file it becomes.
#[derive(Debug)]
struct Job {
    input: PathBuf,
    output: PathBuf,
    /// Set when the job cannot run (a missing input, two inputs for one output).
    refused: Option<Failure>,
}

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
    let (target, extension) = target_for(registry, to)?;
    let plan = plan(registry, args, target)?;
    match std::fs::metadata(out_dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Failure::output(format!(
                "--out-dir {} is not a directory",
                out_dir.display()
            )));
        }
        Err(_) if args.create_dirs => {
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
    let results = run_jobs(&jobs, budget, &progress, |job| match &job.refused {
        Some(failure) => Err(failure.clone()),
        None => convert_file(&job_plan, &job.input, &job.output),
    });
    progress.finish_and_clear();

    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut exit_code = EXIT_OK;
    let mut report = String::new();
    for (job, result) in jobs.iter().zip(&results) {
        let line = match result {
            Ok(conversion) => {
                for item in &conversion.diagnostics {
                    if item.severity >= Severity::Warning {
                        *warnings.entry(item.code.clone()).or_default() += 1;
                    }
                }
                ReportLine {
                    input: &job.input,
                    output: &job.output,
                    status: "converted",
                    conversion: Some(conversion),
                    error: None,
                }
            }
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
        report.push_str(&serde_json::to_string(&line)?);
        report.push('\n');
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
                plan.settings,
            )?;
            staged.commit()?;
        }
    }
    let converted = results.iter().filter(|r| r.is_ok()).count();
    let summary = Summary {
        files: jobs.len(),
        converted,
        failed: jobs.len() - converted,
        to: target.id().to_string(),
        out_dir: out_dir.clone(),
        warnings,
        failures,
        exit_code,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&summary)?)?;
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
            "converted {} of {} file(s) to {} in {}, {:.2} s{}",
            summary.converted,
            summary.files,
            summary.to,
            out_dir.display(),
            summary.seconds,
            if summary.failed > 0 {
                format!("; {} failed", summary.failed)
            } else {
                String::new()
            }
        )?;
    }
    Ok(exit_code)
}

/// The progress bar on standard error when it is a terminal (and not --quiet), else hidden.
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

/// Runs `convert` on every job with at most `budget` threads in all and returns the results in
/// the jobs' order.
///
/// `min(budget, jobs)` workers each take the next job from a shared counter (one atomic add,
/// the only thing they share) and send its result to this thread, which alone draws the
/// progress bar and keeps the results. Workers never touch standard error, so nothing they do
/// waits for a lock the caller holds (the bar's redraw on a worker once waited for the
/// stderr lock of the main thread, and a batch on a terminal hung). Each worker's conversions
/// run with the budget's share of threads, so two workers on two cores do not start two more
/// threads each.
fn run_jobs<R: Send>(
    jobs: &[Job],
    budget: usize,
    progress: &ProgressBar,
    convert: impl Fn(&Job) -> R + Sync,
) -> Vec<R> {
    let workers = budget.clamp(1, jobs.len().max(1));
    let inner = (budget / workers).max(1);
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(jobs.len()).collect();
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel::<(usize, R)>();
        for _ in 0..workers {
            let send = send.clone();
            let (next, convert) = (&next, &convert);
            scope.spawn(move || {
                walkmesh_core::threads::with_budget(inner, || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(index) else { break };
                        if send.send((index, convert(job))).is_err() {
                            break;
                        }
                    }
                });
            });
        }
        // The workers hold the only senders left: the loop ends when the last one is done.
        drop(send);
        for (index, result) in receive {
            if let Some(slot) = results.get_mut(index) {
                *slot = Some(result);
            }
            progress.inc(1);
        }
    });
    results.into_iter().flatten().collect()
}

/// Characters that make an argument a glob pattern.
fn is_pattern(path: &Path) -> bool {
    path.to_str().is_some_and(|s| s.contains(['*', '?', '[']))
}

/// Every input with its output path, in a fixed order: arguments in the order given, the
/// files of a directory or glob sorted by path.
fn collect_jobs(
    registry: &Registry,
    paths: &[PathBuf],
    out_dir: &Path,
    extension: &str,
) -> Result<Vec<Job>, Failure> {
    let readable = |path: &Path| registry.by_extension(path).any(|f| f.reader().is_some());
    let out_dir_real = std::fs::canonicalize(out_dir).ok();
    // (input, path relative to its root)
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut missing: Vec<Job> = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut files = Vec::new();
            for (directory, error) in walk(path, out_dir_real.as_deref(), &readable, &mut files) {
                missing.push(Job {
                    input: directory.clone(),
                    output: PathBuf::new(),
                    refused: Some(Failure::input(format!(
                        "cannot list the directory {}: {error}",
                        directory.display()
                    ))),
                });
            }
            files.sort();
            for file in files {
                let relative = file.strip_prefix(path).unwrap_or(&file).to_path_buf();
                found.push((file, relative));
            }
        } else if path.is_file() {
            let name = path.file_name().map(PathBuf::from).unwrap_or_default();
            found.push((path.clone(), name));
        } else if is_pattern(path) {
            let pattern = path.to_string_lossy();
            let entries = glob::glob(&pattern)
                .map_err(|e| Failure::usage(format!("bad glob pattern {pattern}: {e}")))?;
            // The fixed prefix before the first component with a wildcard.
            let base: PathBuf = path
                .components()
                .take_while(|c| !is_pattern(Path::new(c.as_os_str())))
                .collect();
            let mut files: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            if files.is_empty() {
                missing.push(Job {
                    input: path.clone(),
                    output: PathBuf::new(),
                    refused: Some(Failure::input(format!("no file matches {pattern}"))),
                });
            }
            for file in files {
                let relative = file.strip_prefix(&base).unwrap_or(&file).to_path_buf();
                found.push((file, relative));
            }
        } else {
            missing.push(Job {
                input: path.clone(),
                output: PathBuf::new(),
                refused: Some(Failure::input(format!(
                    "cannot read {}: no such file or directory",
                    path.display()
                ))),
            });
        }
    }
    // The same file reached twice (a directory and a glob over it) is converted once.
    let mut seen = std::collections::BTreeSet::new();
    found.retain(|(input, _)| seen.insert(std::fs::canonicalize(input).unwrap_or(input.clone())));

    // Outputs: the relative path with the new extension. Inputs that would share an output
    // (`a.TRN` and `a.TRX` → `a.glb`; compared without case, as some file systems do) keep
    // their own extension too: `a.TRN.glb`, `a.TRX.glb`.
    let plain = |relative: &Path| out_dir.join(safe(relative)).with_extension(extension);
    let mut claims: BTreeMap<String, usize> = BTreeMap::new();
    for (_, relative) in &found {
        *claims
            .entry(plain(relative).to_string_lossy().to_lowercase())
            .or_default() += 1;
    }
    let mut jobs: Vec<Job> = Vec::with_capacity(found.len() + missing.len());
    let mut taken = std::collections::BTreeSet::new();
    for (input, relative) in found {
        let mut output = plain(&relative);
        if claims
            .get(&output.to_string_lossy().to_lowercase())
            .is_some_and(|&n| n > 1)
        {
            let mut name = safe(&relative).into_os_string();
            name.push(format!(".{extension}"));
            output = out_dir.join(name);
        }
        let refused = (!taken.insert(output.to_string_lossy().to_lowercase())).then(|| {
            Failure::usage(format!(
                "{} would be written twice; {} is skipped",
                output.display(),
                input.display()
            ))
        });
        jobs.push(Job {
            input,
            output,
            refused,
        });
    }
    jobs.extend(missing);
    Ok(jobs)
}

/// A relative path with only normal components, so that an output never leaves --out-dir.
fn safe(relative: &Path) -> PathBuf {
    relative
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect()
}

/// Files under `directory` that a reader claims by extension; symbolic links to directories
/// are not followed (no cycles), --out-dir is not entered, and our temporary files are
/// skipped. Iterative, so deep trees cannot exhaust the stack. Returns the directories that
/// could not be listed, to be reported.
fn walk(
    directory: &Path,
    out_dir: Option<&Path>,
    readable: &dyn Fn(&Path) -> bool,
    files: &mut Vec<PathBuf>,
) -> Vec<(PathBuf, std::io::Error)> {
    let mut unreadable = Vec::new();
    let mut stack = vec![directory.to_path_buf()];
    while let Some(dir) = stack.pop() {
        if out_dir.is_some_and(|o| std::fs::canonicalize(&dir).is_ok_and(|d| d == o)) {
            continue;
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) => {
                unreadable.push((dir, error));
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let hidden_temporary = entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(".walkmesh-"));
            if kind.is_dir() {
                if !hidden_temporary {
                    stack.push(path);
                }
            } else if (kind.is_file() || (kind.is_symlink() && path.is_file()))
                && !hidden_temporary
                && readable(&path)
            {
                files.push(path);
            }
        }
    }
    unreadable
}
