#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The `walkmesh` process on a real pseudo-terminal, as a person runs it: standard error is a
//! terminal, so a batch draws its progress bar. A batch once hung there for ever (the bar's
//! redraw on a worker thread waited for the stderr lock the main thread held), and no test saw
//! it because every other test redirects standard error.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const BIN: &str = env!("CARGO_BIN_EXE_walkmesh");
/// Far more than a batch of small files needs (well under a second); a hang ends here.
const PATIENCE: Duration = Duration::from_secs(120);

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora/obj");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the project's OBJ fixtures are missing");
    files
}

/// What a terminal session of `walkmesh ARGS` shows, and its exit code; fails the test if the
/// process has not ended within [`PATIENCE`].
fn on_terminal(args: &[&std::ffi::OsStr]) -> (String, u32) {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(BIN);
    command.args(args);
    command.env("TERM", "xterm-256color");
    let mut child = pty.slave.spawn_command(command).unwrap();
    // The parent's copy of the terminal's slave end: without dropping it, reading the master
    // never sees the end of the output.
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let screen = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let _ = reader.read_to_end(&mut seen);
        String::from_utf8_lossy(&seen).into_owned()
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("walkmesh {args:?} did not end within {PATIENCE:?} on a terminal (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(pty.master);
    (screen.join().unwrap(), status.exit_code())
}

fn batch_finishes_on_a_terminal(jobs: &str, copies: usize) {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let mut expected = Vec::new();
    for copy in 0..copies {
        for fixture in fixtures() {
            let stem = fixture.file_stem().unwrap().to_string_lossy();
            let name = format!("{stem}_{copy}");
            std::fs::copy(&fixture, inputs.join(format!("{name}.obj"))).unwrap();
            expected.push(out.join(format!("{name}.wok")));
        }
    }
    let args = [
        "convert".as_ref(),
        inputs.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
        "--to".as_ref(),
        "wok".as_ref(),
        "--jobs".as_ref(),
        jobs.as_ref(),
    ];
    let (screen, code) = on_terminal(&args);
    assert_eq!(code, 0, "{screen}");
    for file in &expected {
        assert!(
            file.is_file(),
            "{} was not written:\n{screen}",
            file.display()
        );
    }
    let total = expected.len();
    // The bar redraws at most about 20 times a second, so a fast batch shows some of its
    // steps, always the first.
    assert!(
        screen.contains(&format!("1/{total} files")),
        "the progress bar was not drawn:\n{screen}"
    );
    assert!(
        screen.contains(&format!("converted {total} of {total} file(s) to bwm")),
        "{screen}"
    );
}

#[test]
fn a_batch_on_a_terminal_finishes_and_draws_its_progress_bar() {
    batch_finishes_on_a_terminal("2", 1);
}

#[test]
fn a_larger_batch_on_a_terminal_finishes_on_every_worker_count() {
    for jobs in ["1", "2", "4"] {
        batch_finishes_on_a_terminal(jobs, 8);
    }
}

#[test]
fn quiet_on_a_terminal_draws_no_bar() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = &fixtures()[0];
    let args = [
        "convert".as_ref(),
        fixture.as_os_str(),
        "--out-dir".as_ref(),
        dir.path().as_os_str(),
        "--to".as_ref(),
        "wok".as_ref(),
        "--quiet".as_ref(),
    ];
    let (screen, code) = on_terminal(&args);
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains("files,"), "{screen}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
