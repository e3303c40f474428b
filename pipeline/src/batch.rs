//! Many inputs at once: which files a list of paths names, the output each becomes, and
//! running the conversions on worker threads.
//!
//! Inputs are files, directories (searched recursively for extensions a reader claims) and
//! glob patterns (`'areas/**/*.wok'`). Each output keeps its path relative to the directory or
//! to the glob's fixed prefix it was found under. The list of jobs, their output names and the
//! result order are fixed before any work starts, so nothing depends on the thread count.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use walkmesh_core::Registry;

use crate::failure::Failure;

/// One input and the file it becomes.
#[derive(Debug)]
pub struct Job {
    pub input: PathBuf,
    pub output: PathBuf,
    /// Set when the job cannot run (a missing input, two inputs for one output).
    pub refused: Option<Failure>,
}

/// Converts one job with `plan` (subdirectories of the output folder created as needed is the
/// plan's setting): its refusal, if any; an output that is its own input refused, since a
/// conversion never writes over what it reads; else [`crate::plan::convert_file`].
pub fn convert_job(
    plan: &crate::plan::Plan<'_>,
    job: &Job,
) -> Result<crate::convert::Conversion, Failure> {
    match &job.refused {
        Some(failure) => Err(failure.clone()),
        None if writes_over_its_input(job) => Err(Failure::output(format!(
            "{} is the input {}: convert never writes over what it reads; nothing was written",
            job.output.display(),
            job.input.display()
        ))),
        None => crate::plan::convert_file(plan, &job.input, plan.destination(&job.output, false)),
    }
}

fn writes_over_its_input(job: &Job) -> bool {
    let id = crate::output::file_id;
    id(&job.output).is_some_and(|output| id(&job.input) == Some(output))
}

/// Warnings (and worse findings that did not fail) per code over every converted file.
pub fn warning_counts<'a>(
    conversions: impl Iterator<Item = &'a crate::convert::Conversion>,
) -> BTreeMap<String, usize> {
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    for conversion in conversions {
        for item in &conversion.diagnostics {
            if item.severity >= walkmesh_core::Severity::Warning {
                *warnings.entry(item.code.clone()).or_default() += 1;
            }
        }
    }
    warnings
}

/// Runs `convert` on every job with at most `budget` threads in all and returns the results in
/// the jobs' order.
///
/// `min(budget, jobs)` workers each take the next job from a shared counter (one atomic add,
/// the only thing they share) and send its result to this thread, which alone keeps the
/// results and calls `on_done` once per finished job (the command line draws its progress bar
/// there). Workers never touch standard error, so nothing they do
/// waits for a lock the caller holds (the bar's redraw on a worker once waited for the
/// stderr lock of the main thread, and a batch on a terminal hung). Each worker's conversions
/// run with the budget's share of threads, so two workers on two cores do not start two more
/// threads each.
pub fn run_jobs<R: Send>(
    jobs: &[Job],
    budget: usize,
    mut on_done: impl FnMut(),
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
            // In the command's scope: a file one worker reads is never replaced by another.
            scope.spawn(walkmesh_core::files::carried(move || {
                walkmesh_core::threads::with_budget(inner, || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(index) else { break };
                        if send.send((index, convert(job))).is_err() {
                            break;
                        }
                    }
                });
            }));
        }
        // The workers hold the only senders left: the loop ends when the last one is done.
        drop(send);
        for (index, result) in receive {
            if let Some(slot) = results.get_mut(index) {
                *slot = Some(result);
            }
            on_done();
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
pub fn collect_jobs(
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
                    refused: Some(Failure::unreadable(format!("no file matches {pattern}"))),
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
    // Only several arguments, or a symbolic link, can reach one file twice (a directory walk
    // or a glob lists each name once): other paths are not resolved, which saves a few system
    // calls per file on the one thread that plans the batch.
    let linked = |input: &PathBuf| std::fs::symlink_metadata(input).is_ok_and(|m| m.is_symlink());
    if paths.len() > 1 || found.iter().any(|(input, _)| linked(input)) {
        found.retain(|(input, _)| {
            seen.insert(std::fs::canonicalize(input).unwrap_or(input.clone()))
        });
    }

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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn inputs_of(jobs: &[Job]) -> Vec<String> {
        jobs.iter()
            .map(|j| j.input.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_file_reached_twice_is_converted_once() {
        let registry = walkmesh_formats::default_registry();
        let dir = tempfile::tempdir().unwrap();
        let rooms = dir.path().join("rooms");
        std::fs::create_dir(&rooms).unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        for name in ["a.obj", "b.obj"] {
            std::fs::write(rooms.join(name), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        }
        // One folder: every file once, in order.
        let jobs = collect_jobs(&registry, std::slice::from_ref(&rooms), &out, "wok").unwrap();
        assert_eq!(inputs_of(&jobs), ["a.obj", "b.obj"]);
        assert_eq!(jobs[0].output, out.join("a.wok"));
        // The folder and one of its files: that file once.
        let both = [rooms.clone(), rooms.join("a.obj")];
        let jobs = collect_jobs(&registry, &both, &out, "wok").unwrap();
        assert_eq!(inputs_of(&jobs), ["a.obj", "b.obj"]);
        // A link to a file of the same folder: the file once.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(rooms.join("a.obj"), rooms.join("c.obj")).unwrap();
            let jobs = collect_jobs(&registry, std::slice::from_ref(&rooms), &out, "wok").unwrap();
            assert_eq!(jobs.len(), 2, "{:?}", inputs_of(&jobs));
        }
    }

    #[test]
    fn every_job_runs_once_and_results_keep_the_job_order() {
        let jobs: Vec<Job> = (0..50)
            .map(|i| Job {
                input: PathBuf::from(format!("in{i}")),
                output: PathBuf::from(format!("out{i}")),
                refused: None,
            })
            .collect();
        for budget in [1, 2, 7, 100] {
            let mut done = 0;
            let results = run_jobs(&jobs, budget, || done += 1, |job| job.input.clone());
            assert_eq!(done, jobs.len());
            let inputs: Vec<PathBuf> = jobs.iter().map(|j| j.input.clone()).collect();
            assert_eq!(results, inputs, "budget {budget}");
        }
        let empty = run_jobs(&[], 2, || {}, |job: &Job| job.input.clone());
        assert!(empty.is_empty());
    }

    /// A file one worker of a command read is not replaced by another worker of the same
    /// command: workers record into the command's scope (`walkmesh_core::files`).
    #[test]
    fn a_file_one_worker_reads_is_not_replaced_by_another() {
        let dir = tempfile::tempdir().unwrap();
        let read = dir.path().join("read.bin");
        std::fs::write(&read, b"input").unwrap();
        let jobs: Vec<Job> = (0..2)
            .map(|i| Job {
                input: PathBuf::from(format!("in{i}")),
                output: read.clone(),
                refused: None,
            })
            .collect();
        // Job 0 reads and waits for job 1, which then writes: the worker of job 0 waits
        // inside it, so job 1 runs on the other worker.
        let read_first = std::sync::Barrier::new(2);
        let results = walkmesh_core::files::Scope::new().run(|| {
            run_jobs(
                &jobs,
                2,
                || {},
                |job| {
                    if job.input == Path::new("in0") {
                        let bytes = walkmesh_core::files::read(&read).map(|_| ());
                        read_first.wait();
                        bytes.map_err(|e| e.to_string())
                    } else {
                        read_first.wait();
                        crate::output::write_atomically(&read, b"output").map_err(|f| f.message)
                    }
                },
            )
        });
        assert_eq!(results[0], Ok(()));
        let refusal = results[1].clone().unwrap_err();
        assert!(refusal.contains("is a file this command read"), "{refusal}");
        assert_eq!(std::fs::read(&read).unwrap(), b"input");
    }

    #[test]
    fn workers_run_with_their_share_of_the_threads() {
        let jobs: Vec<Job> = (0..4)
            .map(|i| Job {
                input: PathBuf::from(format!("in{i}")),
                output: PathBuf::new(),
                refused: None,
            })
            .collect();
        let budgets = run_jobs(&jobs, 2, || {}, |_| walkmesh_core::threads::available());
        assert_eq!(budgets, [1, 1, 1, 1], "two workers, one thread each");
        let one = &jobs[..1];
        let budgets = run_jobs(one, 4, || {}, |_| walkmesh_core::threads::available());
        assert_eq!(budgets, [4], "one file gets every thread");
    }
}
