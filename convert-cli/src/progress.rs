//! The progress line of one long conversion on a terminal.
//!
//! A PATH cook of a million triangles or the bake of a large NWN2 area runs for seconds;
//! the libraries name their phases ([`walkmesh_core::progress`]), and while a conversion
//! runs past [`DELAY`] a spinner on standard error shows the current phase and the time
//! spent, redrawn a few times a second by a thread of its own. The line is erased when the
//! conversion ends, before anything else is printed. Nothing is drawn when standard error is
//! not a terminal, nor with `--quiet` or `--json` (the caller decides, see
//! [`with_progress`]).

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use walkmesh_core::progress::{Status, with_status};

/// A conversion shorter than this shows nothing.
pub const DELAY: Duration = Duration::from_secs(1);
/// Redraws of the line (the phase and the seconds spent).
const REDRAW: Duration = Duration::from_millis(250);
/// Replaces [`DELAY`] (milliseconds), so that tests see the line on conversions that take
/// less than a second.
pub const DELAY_VARIABLE: &str = "WALKMESH_PROGRESS_AFTER_MS";

/// Runs `work` (`what` names it until the libraries name a phase), with the progress line
/// when `show`.
pub fn with_progress<R>(show: bool, what: &str, work: impl FnOnce() -> R) -> R {
    if !show {
        return work();
    }
    let delay = std::env::var(DELAY_VARIABLE)
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(DELAY, Duration::from_millis);
    let status = Arc::new(Status::default());
    walkmesh_core::progress::with_status(Arc::clone(&status), || {
        walkmesh_core::progress::phase(|| what.to_string());
    });
    let (stop, stopped) = mpsc::channel::<()>();
    let shown = Arc::clone(&status);
    let started = Instant::now();
    let drawer = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || draw_until_stopped(&shown, started, delay, &stopped));
    let result = with_status(status, work);
    drop(stop);
    if let Ok(drawer) = drawer {
        let _ = drawer.join();
    }
    result
}

/// Draws the line from `delay` after `started` until `stopped` says the work is done, then
/// erases it. Work that ends after the delay but before the first redraw still shows its
/// last phase once.
fn draw_until_stopped(
    status: &Status,
    started: Instant,
    delay: Duration,
    stopped: &mpsc::Receiver<()>,
) {
    let mut line: Option<ProgressBar> = None;
    loop {
        let due = started + delay;
        let wait = if line.is_some() {
            REDRAW
        } else {
            due.saturating_duration_since(Instant::now())
        };
        let done = !matches!(stopped.recv_timeout(wait), Err(RecvTimeoutError::Timeout));
        if Instant::now() >= due {
            let bar = line.get_or_insert_with(|| spinner(started));
            bar.set_message(status.snapshot().to_string());
            bar.tick();
        }
        if done {
            break;
        }
    }
    if let Some(bar) = line {
        bar.finish_and_clear();
    }
}

fn spinner(started: Instant) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {wide_msg} {elapsed}") {
        bar.set_style(style);
    }
    // The elapsed time counts from the start of the work, not from the first draw.
    bar.set_elapsed(started.elapsed());
    bar
}
