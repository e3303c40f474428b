//! Issue 16's acceptance figure as a bench with a bound: converting one OBJ face of 100,000
//! corners (a hexagon's six corners visited over and over) to a KotOR WOK, through the command
//! line in-process, takes under **0.5 s** on an idle machine (0.25 s of CPU time when the
//! figure was set). It was an `#[ignore]`d wall-clock test; as a bench it runs where timing
//! means something:
//!
//! ```sh
//! cargo bench -p walkmesh-tests --bench big_face
//! ```
//!
//! After criterion's estimate, the median of every conversion it timed (warm-up included) is
//! checked against the bound and the bench exits with an error above it. `cargo test --benches` runs the
//! conversion once (criterion's test mode) without the timing check, which would only measure
//! how loaded the machine is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::Criterion;

/// The acceptance bound of issue 16 for one conversion.
const BOUND: Duration = Duration::from_millis(500);

/// Writes the OBJ: six corners of a unit hexagon, and one face visiting them 100,000 times.
fn write_big_face(path: &Path) {
    let mut text = String::new();
    for k in 0..6 {
        let angle = k as f32 * std::f32::consts::TAU / 6.0;
        writeln!(text, "v {} {} 0", angle.cos(), angle.sin()).unwrap();
    }
    text.push('f');
    for i in 0..100_000u32 {
        write!(text, " {}", (i * 7 / 3) % 6 + 1).unwrap();
    }
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// One conversion, timed; fails when the conversion does.
fn convert_once(obj: &Path, out: &Path) -> Duration {
    let started = Instant::now();
    let run = walkmesh_tests::walkmesh([
        "convert",
        obj.to_str().unwrap(),
        out.to_str().unwrap(),
        "--up",
        "z",
    ]);
    let elapsed = started.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    elapsed
}

fn median(mut times: Vec<Duration>) -> Option<Duration> {
    times.sort();
    times.get(times.len() / 2).copied()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let (obj, out) = (dir.path().join("face.obj"), dir.path().join("face.wok"));
    write_big_face(&obj);
    // Every conversion criterion times, one by one, for the check against the bound.
    let times = RefCell::new(Vec::new());
    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .configure_from_args();
    criterion.bench_function("convert the 100,000-corner face to .wok", |b| {
        b.iter_custom(|iterations| {
            (0..iterations)
                .map(|_| {
                    let elapsed = convert_once(&obj, &out);
                    times.borrow_mut().push(elapsed);
                    elapsed
                })
                .sum()
        });
    });
    criterion.final_summary();
    // Criterion's test mode (`cargo test --benches`) runs without `--bench`: no timing check.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(median) = median(times.into_inner()) else {
        panic!("no conversion was timed");
    };
    println!(
        "median of the timed conversions: {:.3} s (bound {:.3} s)",
        median.as_secs_f64(),
        BOUND.as_secs_f64()
    );
    assert!(
        median < BOUND,
        "converting the 100,000-corner face took {median:?}, over the {BOUND:?} of issue 16 \
         (run on an idle machine)"
    );
}
