#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The real `walkmesh` process: what needs a process of its own (the umask, signals, closed
//! pipes, standard output). In-process tests of the command line are in `tests/tests/`.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_walkmesh");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpora/obj")
        .join(name)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Runs `walkmesh ARGS` under `umask MASK` (through the shell, which sets it for the child).
fn with_umask(mask: &str, args: &[&Path]) -> std::process::Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("umask {mask} && exec \"$0\" \"$@\""))
        .arg(BIN);
    command.args(args);
    command.output().unwrap()
}

#[test]
fn new_files_honour_the_umask_and_existing_ones_keep_their_mode() {
    let dir = tempfile::tempdir().unwrap();
    let convert = Path::new("convert");
    for (mask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        for name in ["room.wok", "room.obj"] {
            let out = dir.path().join(format!("{mask}-{name}"));
            let run = with_umask(mask, &[convert, &fixture("two_rooms.obj"), &out]);
            assert!(run.status.success(), "{run:?}");
            assert_eq!(mode(&out), expected, "umask {mask}: {name}");
            if name.ends_with(".obj") {
                // The sidecar too.
                assert_eq!(
                    mode(&out.with_extension("mtl")),
                    expected,
                    "umask {mask}: .mtl"
                );
            }
        }
    }
    // Overwriting a 0644 file under umask 077 keeps 0644.
    let out = dir.path().join("shared.glb");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let run = with_umask("077", &[convert, &fixture("two_rooms.obj"), &out]);
    assert!(run.status.success(), "{run:?}");
    assert_eq!(mode(&out), 0o644);
}

/// Writes an OBJ grid of `n` × `n` squares (2·n² triangles).
fn big_obj(path: &Path, n: usize) {
    use std::fmt::Write;
    let mut text = String::with_capacity(n * n * 40);
    for i in 0..=n {
        for j in 0..=n {
            let _ = writeln!(text, "v {i} 0 {j}");
        }
    }
    for i in 0..n {
        for j in 0..n {
            let a = i * (n + 1) + j + 1;
            let c = a + n + 1;
            let _ = writeln!(text, "f {a} {c} {}\nf {} {c} {}", a + 1, a + 1, c + 1);
        }
    }
    std::fs::write(path, text).unwrap();
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".walkmesh-"))
        .collect()
}

/// SIGTERM while the output is being staged: the temporary file (or directory) is removed,
/// no output appears, and the process ends by the signal. The signal is sent as soon as the
/// staged file appears; the mesh is large enough that writing and flushing it (`--fsync`)
/// takes far longer than the polling interval.
#[test]
fn sigterm_while_writing_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.obj");
    big_obj(&input, 600);
    for out in ["big.glb", "big.obj"] {
        let out_dir = dir.path().join(format!("out-{out}"));
        std::fs::create_dir(&out_dir).unwrap();
        let mut child = Command::new(BIN)
            .args(["convert", "--fsync"])
            .arg(&input)
            .arg(out_dir.join(out))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let mut signalled = false;
        while started.elapsed() < Duration::from_secs(120) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if !temporaries(&out_dir).is_empty() {
                let killed = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(killed.success());
                signalled = true;
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        let status = child.wait().unwrap();
        assert!(
            signalled,
            "{out}: the conversion ended ({status:?}) before its temporary file was seen"
        );
        assert_eq!(status.signal(), Some(15), "{out}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
        assert!(left.is_empty(), "{out}: {left:?}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // `walkmesh dump FILE | head -c 1`: the reader leaves after one byte.
    let mut child = Command::new(BIN)
        .args(["dump", "--format", "json"])
        .arg(fixture("strip_with_column.obj"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Read;
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        stdout.read_exact(&mut one).unwrap();
        // Dropping the read end closes the pipe.
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The same through a shell pipeline.
    let run = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" dump --format json \"$1\" | head -c 10 >/dev/null; echo $?")
        .arg(BIN)
        .arg(fixture("strip_with_column.obj"))
        .output()
        .unwrap();
    assert!(
        run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn dash_is_standard_output_and_dev_stdout_is_not_replaced() {
    let run = Command::new(BIN)
        .args(["convert"])
        .arg(fixture("two_rooms.obj"))
        .args(["-", "--to", "glb"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert!(run.stdout.starts_with(b"glTF"));
    let dir = tempfile::tempdir().unwrap();
    // Named `walkmesh.glb`: the glTF node takes the file's stem, `walkmesh` when there is none.
    let file = dir.path().join("walkmesh.glb");
    let direct = Command::new(BIN)
        .arg("convert")
        .arg(fixture("two_rooms.obj"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(direct.status.success());
    assert_eq!(run.stdout, std::fs::read(&file).unwrap());
    // /dev/stdout (a pipe or a terminal here) is refused, never replaced.
    let refused = Command::new(BIN)
        .arg("convert")
        .arg(fixture("two_rooms.obj"))
        .args(["/dev/stdout", "--to", "bwm"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(3), "{refused:?}");
    assert!(refused.stdout.is_empty());
    assert!(
        !std::fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .file_type()
            .is_file()
    );
}

/// `walkmesh.toml` is found from the working folder upward (a process of its own: the
/// working folder is the process's).
#[test]
fn the_project_file_sets_the_warning_rules() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("assets/rooms");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(
        work.join("mystery.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Mystery\nf 1 2 3\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(&work)
            .output()
            .unwrap()
    };
    // No project file: the warning passes.
    assert!(run(&["convert", "mystery.obj", "a.wok"]).status.success());
    let project = dir.path().join("walkmesh.toml");
    std::fs::write(&project, "[warnings]\nstrict = true\n").unwrap();
    let strict = run(&["convert", "mystery.obj", "b.wok"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(!work.join("b.wok").exists());
    std::fs::write(
        &project,
        "[warnings]\nstrict = true\nallow = [\"obj.unknown_material\"]\n",
    )
    .unwrap();
    let allowed = run(&["convert", "mystery.obj", "c.wok", "--json"]);
    assert!(
        allowed.status.success(),
        "{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&allowed.stdout).unwrap();
    assert_eq!(
        report["rules_applied"][0]["rule"]["from"],
        project.display().to_string()
    );
    // The command line adds to the file: a deny there fails the allowed warning.
    let denied = run(&["convert", "mystery.obj", "d.wok", "--deny", "obj.*"]);
    assert_eq!(denied.status.code(), Some(1));
    // A file with a mistake stops the run and names itself.
    std::fs::write(&project, "[warnings]\nalow = []\n").unwrap();
    let broken = run(&["convert", "mystery.obj", "e.wok"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("walkmesh.toml"));
}

/// A full disk as standard output (`/dev/full`): every command exits 3 and names standard
/// output, whether it prints text, JSON, help or a file's bytes.
#[test]
fn a_full_standard_output_exits_3_naming_it() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here; skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let wok = dir.path().join("floor.wok");
    let made = Command::new(BIN)
        .arg("convert")
        .arg(fixture("flat_floor.obj"))
        .arg(&wok)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let wok = wok.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["spec", "bwm"],
        &["formats"],
        &["formats", "--json"],
        &["profiles", "kotor"],
        &["info", wok],
        &["info", wok, "--json"],
        &["validate", wok],
        &["validate", wok, "--json"],
        &["dump", wok, "--format", "flat"],
        &["stats", wok],
        &["diff", wok, wok],
        &["diff", wok, wok, "--fields", "--json"],
        &["lint", wok],
        &["route", wok, "--from", "0.5,0.5,0", "--to", "3.5,2.5,0"],
        &["reach", wok, "--json"],
        &["convert", wok, "-", "--to", "glb"],
        &["view", wok, "-o", "-"],
        &["render", wok, "-o", "-"],
        &["info", "--help"],
    ];
    for args in cases {
        let run = Command::new(BIN)
            .args(*args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{args:?}: {stderr}"
        );
    }
}
