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
    on_terminal_with(args, &[])
}

/// [`on_terminal`] with these environment variables set.
fn on_terminal_with(args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> (String, u32) {
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
    for (key, value) in env {
        command.env(key, value);
    }
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

/// The conversions' progress line shows at once instead of after a second (the
/// conversions here take less). The line is redrawn four times a second, so a conversion
/// this short shows one or two phases and always its last; the libraries' own phases are
/// tested where they are reported (`walkmesh-prime`'s and `walkmesh-nwn2`'s
/// `*_reports_its_phases` tests).
const AT_ONCE: (&str, &str) = ("WALKMESH_PROGRESS_AFTER_MS", "0");

/// A stepped floor (issue #33) of `side` × `side` half-metre cells, diagonals alternating:
/// corner heights 0.02 · ((7i + 3j) mod 5), so that merging within 0.05 leaves more than
/// 512 regions and the cook runs its tolerance search.
fn stepped_floor(path: &Path, side: usize) {
    let mut text = String::new();
    for j in 0..=side {
        for i in 0..=side {
            let z = 0.02 * ((7 * i + 3 * j) % 5) as f64;
            text.push_str(&format!("v {} {z} {}\n", 0.5 * i as f64, -0.5 * j as f64));
        }
    }
    for j in 0..side {
        for i in 0..side {
            let a = j * (side + 1) + i + 1;
            let (b, c, d) = (a + 1, a + side + 2, a + side + 1);
            if (i + j) % 2 == 0 {
                text.push_str(&format!("f {a} {b} {c}\nf {a} {c} {d}\n"));
            } else {
                text.push_str(&format!("f {a} {b} {d}\nf {b} {c} {d}\n"));
            }
        }
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_path_cook_on_a_terminal_shows_its_progress_and_erases_it() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("floor.obj");
    stepped_floor(&obj, 40);
    let out = dir.path().join("floor.path");
    let args = ["convert".as_ref(), obj.as_os_str(), out.as_os_str()];
    let (screen, code) = on_terminal_with(&args, &[AT_ONCE]);
    assert_eq!(code, 0, "{screen}");
    assert!(out.is_file());
    // Which phase the first redraw catches depends on the threads' timing; the last one,
    // drawn when the conversion ends, is the output check.
    assert!(
        screen.contains(&format!("checking {}", out.display())),
        "no progress line:\n{screen}"
    );
    // The line is erased (carriage return, erase line) before anything else is printed.
    let warnings = screen.find("warning [").expect("the cook's warnings");
    let last_erase = screen.rfind("\r\x1b[2K").expect("the line is erased");
    assert!(last_erase < warnings, "{screen:?}");
    assert!(!screen[warnings..].contains("checking "), "{screen:?}");
}

#[test]
fn quiet_and_json_on_a_terminal_draw_no_progress_line() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("floor.obj");
    stepped_floor(&obj, 40);
    for flag in ["--quiet", "--json"] {
        let out = dir.path().join("floor.path");
        let args = [
            "convert".as_ref(),
            obj.as_os_str(),
            out.as_os_str(),
            flag.as_ref(),
        ];
        let (screen, code) = on_terminal_with(&args, &[AT_ONCE]);
        assert_eq!(code, 0, "{flag}: {screen}");
        assert!(out.is_file());
        assert!(!screen.contains("converting "), "{flag}: {screen}");
        assert!(!screen.contains('\x1b'), "{flag}: {screen:?}");
    }
}

#[test]
fn a_path_cook_into_a_pipe_draws_no_progress_line() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("floor.obj");
    stepped_floor(&obj, 40);
    let out = dir.path().join("floor.path");
    let output = std::process::Command::new(BIN)
        .arg("convert")
        .arg(&obj)
        .arg(&out)
        .env(AT_ONCE.0, AT_ONCE.1)
        .env("TERM", "xterm-256color")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The cook's own warning names the budget search; the progress line is not there.
    assert!(stderr.contains("path.surfaces_merged"), "{stderr}");
    assert!(!stderr.contains("converting "), "{stderr}");
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\r'),
        "{stderr:?}"
    );
}

#[test]
fn generate_on_a_terminal_shows_its_stages_and_erases_them() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("floor.obj");
    stepped_floor(&obj, 40);
    let out = dir.path().join("floor.wok");
    let args = [
        "generate".as_ref(),
        obj.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ];
    let (screen, code) = on_terminal_with(&args, &[AT_ONCE]);
    assert_eq!(code, 0, "{screen}");
    assert!(out.is_file());
    // The generation's stages are named (which ones a redraw catches depends on timing; the
    // write's last phase, drawn when it ends, is the output check).
    assert!(
        screen.contains("generating"),
        "no generate stage:\n{screen}"
    );
    assert!(
        screen.contains(&format!("checking {}", out.display())),
        "no write stage:\n{screen}"
    );
    // Erased before the report is printed.
    let report = screen.find("generate: ").expect("the text report");
    let last_erase = screen.rfind("\r\x1b[2K").expect("the line is erased");
    assert!(last_erase < report, "{screen:?}");
    // With --json nothing is drawn.
    let args = [
        "generate".as_ref(),
        obj.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
    ];
    let (screen, code) = on_terminal_with(&args, &[AT_ONCE]);
    assert_eq!(code, 0, "{screen}");
    assert!(!screen.contains('\x1b'), "{screen:?}");
}
