//! The allocator of the `walkmesh` binary (the library crates leave the choice to their users).
//!
//! On Linux with glibc it is glibc's own `malloc`, configured for what a conversion does —
//! build a few large tables, free them, build the next — in a short-lived process:
//!
//! - **one arena** (`M_ARENA_MAX` 1): every thread allocates from the same heap, so memory
//!   freed by one thread (a compressed chunk, a search row) is reused by the next request of
//!   any thread instead of sitting in a per-thread heap;
//! - **never trimmed** (`M_TRIM_THRESHOLD`), and blocks below 32 MiB are carved from the heap
//!   rather than mapped one by one (`M_MMAP_THRESHOLD`): a freed table is reused, not handed
//!   back to the kernel and page-faulted and zeroed again;
//! - **transparent huge pages**: each time the heap grows, the new range is advised
//!   `MADV_HUGEPAGE`, and so is every block mapped on its own (32 MiB and more). Where the
//!   kernel's THP `defrag` setting is `madvise` (the common default), only advised ranges get
//!   2 MiB pages when memory is fragmented; a 60 MB re-bake then takes a few hundred page
//!   faults instead of ten thousand.
//!
//! Measured on the NWN2 re-bake of `dm_dungeon.trx` (docs/performance.md, issue 36): the
//! same CPU time as mimalloc, with a peak of about 40 MiB instead of 61 MiB (mimalloc keeps
//! each thread's pages apart, and with huge pages every thread's heap is whole 2 MiB pages).
//!
//! Elsewhere it is the system allocator.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use glibc::HugePageHeap;

/// The system allocator, where the glibc configuration does not apply.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub type HugePageHeap = std::alloc::System;

/// Sets the allocator up; call it first thing in `main` (before any thread is started).
/// Allocations made before it still work: they come from the same glibc heap.
pub fn configure() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::configure();
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout};

    /// Fills `size` bytes at `block` with a pattern and checks it back after `then`.
    fn round_trip(heap: &HugePageHeap, size: usize, new_size: usize) {
        let layout = Layout::from_size_align(size, 16).unwrap_or_else(|e| panic!("{e}"));
        // SAFETY: the layout has a non-zero size; every block is freed with its layout.
        unsafe {
            let block = heap.alloc(layout);
            assert!(!block.is_null(), "{size} bytes");
            for i in (0..size).step_by(4093) {
                *block.add(i) = (i % 251) as u8;
            }
            let moved = heap.realloc(block, layout, new_size);
            assert!(!moved.is_null(), "{size} → {new_size} bytes");
            for i in (0..size.min(new_size)).step_by(4093) {
                assert_eq!(*moved.add(i), (i % 251) as u8, "byte {i} after realloc");
            }
            heap.dealloc(
                moved,
                Layout::from_size_align(new_size, 16).unwrap_or_else(|e| panic!("{e}")),
            );
        }
    }

    #[test]
    fn small_large_and_mapped_blocks_keep_their_bytes() {
        configure();
        let heap = HugePageHeap;
        for (size, new_size) in [
            (24, 48),
            (4096, 100),
            (1 << 20, 5 << 20),
            // Past the mapped-block threshold (32 MiB), and back under it.
            (40 << 20, 48 << 20),
            (40 << 20, 1 << 20),
        ] {
            round_trip(&heap, size, new_size);
        }
        let layout = Layout::from_size_align(3 << 20, 64).unwrap_or_else(|e| panic!("{e}"));
        // SAFETY: non-zero size; freed with its layout.
        unsafe {
            let zeroed = heap.alloc_zeroed(layout);
            assert!(!zeroed.is_null());
            assert_eq!(zeroed as usize % 64, 0, "alignment kept");
            assert!((0..3 << 20).step_by(997).all(|i| *zeroed.add(i) == 0));
            heap.dealloc(zeroed, layout);
        }
    }

    #[test]
    fn threads_still_allocate_after_the_configuration() {
        configure();
        let blocks: Vec<Vec<u8>> = (0..4)
            .map(|t| {
                std::thread::spawn(move || vec![t as u8; 1 << 18])
                    .join()
                    .unwrap_or_else(|_| panic!("thread {t}"))
            })
            .collect();
        for (t, block) in blocks.iter().enumerate() {
            assert!(block.iter().all(|&b| b == t as u8));
        }
    }
}
