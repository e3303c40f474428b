//! The real process under an address-space cap (`ulimit -v`) and a wall-clock limit, so that
//! a regression fails the test instead of taking the machine.

#![allow(dead_code)]

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_walkmesh");

/// Runs `walkmesh ARGS` with at most `address_space_kib` KiB of address space, killing it
/// after `limit`.
pub fn bounded_by(args: &[&str], address_space_kib: u64, limit: Duration) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {address_space_kib} && exec \"$0\" \"$@\""
        ))
        .arg(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            let output = child.wait_with_output().unwrap();
            panic!(
                "walkmesh {args:?} still running after {limit:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

pub fn code(output: &Output) -> Option<i32> {
    output.status.code()
}
