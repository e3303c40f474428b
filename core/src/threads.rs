//! How many threads one piece of work may use.
//!
//! A conversion uses several threads on its own (the AABB tree, NWN2 path tables, the
//! chunked deflater, the output check beside the staging write). A batch that already runs
//! one conversion per core must not have each of them start more: on two cores, two
//! conversions each asking for two more threads made `--jobs 2` barely faster than
//! `--jobs 1`, with thousands of futex waits. So every place that would start threads asks
//! [`available`], and a batch worker runs its conversions inside [`with_budget`].
//!
//! The budget is per thread (a thread-local), so two batch workers never share or lock
//! anything to read it.

use std::cell::Cell;

thread_local! {
    /// The budget set by [`with_budget`] on this thread; `None`: the machine's cores.
    static BUDGET: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The threads work started on this thread may use, itself included (at least 1): the
/// budget of the enclosing [`with_budget`], else the machine's available parallelism.
pub fn available() -> usize {
    BUDGET.with(Cell::get).unwrap_or_else(machine).max(1)
}

/// Whether work on this thread may start a second thread.
pub fn may_spawn() -> bool {
    available() > 1
}

/// The machine's available parallelism (1 when it cannot be told).
pub fn machine() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `work` with at most `threads` threads (at least 1) for everything it starts on this
/// thread; the previous budget is restored afterwards, also when `work` panics.
pub fn with_budget<R>(threads: usize, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            BUDGET.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BUDGET.with(|b| b.replace(Some(threads.max(1)))));
    work()
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_holds_inside_and_is_restored_after() {
        let outside = available();
        assert_eq!(outside, machine().max(1));
        let inside = with_budget(1, || (available(), may_spawn()));
        assert_eq!(inside, (1, false));
        assert_eq!(
            with_budget(0, available),
            1,
            "a zero budget means one thread"
        );
        assert_eq!(with_budget(3, || with_budget(2, available)), 2);
        assert_eq!(available(), outside);
    }

    #[test]
    fn the_budget_is_restored_after_a_panic() {
        let outside = available();
        let caught = std::panic::catch_unwind(|| with_budget(1, || panic!("inside")));
        assert!(caught.is_err());
        assert_eq!(available(), outside);
    }

    #[test]
    fn a_budget_belongs_to_its_thread() {
        with_budget(1, || {
            let other = std::thread::spawn(available).join().unwrap_or(0);
            assert_eq!(other, machine().max(1));
        });
    }
}
