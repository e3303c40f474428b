//! What a long piece of work is doing now, for a progress line on a terminal.
//!
//! A PATH cook of a million triangles or an NWN2 bake of a large area runs for seconds with
//! nothing to show. The steps of such work name themselves with [`phase`] (and, inside a
//! phase with several rounds, [`step`]); a front end that wants to show them runs the work
//! inside [`with_status`] and reads the [`Status`] from another thread (the command-line tool
//! draws it on standard error when that is a terminal). Without an enclosing
//! [`with_status`], [`phase`] and [`step`] do nothing, so libraries and batch workers pay a
//! thread-local read per call and nothing else; they are called a few dozen times per
//! conversion, never per polygon.
//!
//! The status is per thread (a thread-local), like [`crate::threads`]' budget: two batch
//! workers never share one.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Called with the new status after each change (on the working thread).
pub type Listener = Box<dyn Fn(&Snapshot) + Send + Sync>;

/// The current phase of the work run inside [`with_status`], shared with whoever shows it.
pub struct Status {
    state: Mutex<State>,
    /// Called (on the working thread) after each change, e.g. to redraw at once.
    listener: Option<Listener>,
}

#[derive(Debug)]
struct State {
    phase: String,
    step: Option<(u64, u64)>,
    changed: Instant,
}

/// A copy of the status at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// What the work is doing, e.g. `cooking PATH: merging within 0.05`.
    pub phase: String,
    /// Done and total rounds of the phase, when it counts them.
    pub step: Option<(u64, u64)>,
}

impl std::fmt::Display for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.phase)?;
        if let Some((done, total)) = self.step {
            write!(f, " ({done}/{total})")?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Status")
            .field("now", &self.snapshot())
            .finish_non_exhaustive()
    }
}

impl Default for Status {
    fn default() -> Status {
        Status::new(None)
    }
}

impl Status {
    /// A status starting with no phase; `listener`, when given, is called after each change.
    pub fn new(listener: Option<Listener>) -> Status {
        Status {
            state: Mutex::new(State {
                phase: String::new(),
                step: None,
                changed: Instant::now(),
            }),
            listener,
        }
    }

    /// The phase and step now.
    pub fn snapshot(&self) -> Snapshot {
        let state = self.lock();
        Snapshot {
            phase: state.phase.clone(),
            step: state.step,
        }
    }

    /// When the phase or step last changed.
    pub fn changed(&self) -> Instant {
        self.lock().changed
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock leaves a phase text behind, which is still fine to
        // show.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        let snapshot = {
            let mut state = self.lock();
            change(&mut state);
            state.changed = Instant::now();
            Snapshot {
                phase: state.phase.clone(),
                step: state.step,
            }
        };
        if let Some(listener) = &self.listener {
            listener(&snapshot);
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Status>>> = const { RefCell::new(None) };
}

/// Runs `work` with `status` receiving the [`phase`]s and [`step`]s it reports on this
/// thread; the previous status is restored afterwards, also when `work` panics.
pub fn with_status<R>(status: Arc<Status>, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<Status>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(status)));
    work()
}

fn current() -> Option<Arc<Status>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Names what the work on this thread does from now on (clears the step count).
/// `describe` is only called when someone is listening.
pub fn phase(describe: impl FnOnce() -> String) {
    if let Some(status) = current() {
        let text = describe();
        status.update(|state| {
            state.phase = text;
            state.step = None;
        });
    }
}

/// Round `done` of `total` of the current phase.
pub fn step(done: u64, total: u64) {
    if let Some(status) = current() {
        status.update(|state| state.step = Some((done, total)));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn phases_reach_the_status_only_inside_with_status() {
        phase(|| unreachable!("nobody listens, so the text is never made"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let status = Arc::new(Status::new(Some(Box::new(move |s: &Snapshot| {
            log.lock().unwrap().push(s.to_string());
        }))));
        with_status(Arc::clone(&status), || {
            phase(|| "cooking".into());
            step(2, 8);
            // Another thread has no status of its own.
            std::thread::spawn(|| phase(|| unreachable!()))
                .join()
                .unwrap();
        });
        phase(|| unreachable!("the status is gone after with_status"));
        assert_eq!(
            status.snapshot(),
            Snapshot {
                phase: "cooking".into(),
                step: Some((2, 8))
            }
        );
        assert_eq!(*seen.lock().unwrap(), ["cooking", "cooking (2/8)"]);
    }
}
