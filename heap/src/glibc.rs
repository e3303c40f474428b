//! glibc `malloc` with one arena, no trimming, and its heap advised for huge pages.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Blocks at least this large are mapped by glibc on their own (`M_MMAP_THRESHOLD`; glibc
/// refuses more than 32 MiB on 64-bit systems).
const MAPPED_BLOCK: usize = 32 << 20;

/// How much more than asked the heap grows by each time (`M_TOP_PAD`). Growing costs only
/// address space until pages are touched, and each growth is advised after the allocation
/// that caused it, when glibc has already written one block header into it (that 2 MiB page
/// stays small): few, large growths lose few huge pages.
const GROWTH_PAD: usize = 64 << 20;

/// The end of the heap range already advised for huge pages (0: nothing yet).
static ADVISED_END: AtomicUsize = AtomicUsize::new(0);

/// The binary's global allocator (see the crate documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct HugePageHeap;

pub(crate) fn configure() {
    // SAFETY: `mallopt` takes plain integers and only changes glibc's allocator settings; it
    // is safe to call at any time (it takes the arena lock itself).
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_BLOCK as i32);
        libc::mallopt(libc::M_TOP_PAD, GROWTH_PAD as i32);
    }
    // Grow the heap now, while nothing is written in the new range, and advise all of it:
    // a block larger than what is left at the top makes glibc extend the heap by the block
    // and the pad; freed, it is the top of the heap again (never trimmed).
    // SAFETY: `sbrk(0)` only reads the end of the heap.
    let before = unsafe { libc::sbrk(0) } as usize;
    // SAFETY: a plain malloc/free pair of a block nobody else sees. `black_box`: without it
    // the compiler removes a pair whose block is never used, and the heap does not grow here.
    unsafe { libc::free(std::hint::black_box(libc::malloc(1 << 20))) };
    if before != usize::MAX {
        ADVISED_END.fetch_max(before, Ordering::Relaxed);
    }
    advise_heap_growth();
}

/// Advises the part of the heap (the `brk` area) that grew since the last call.
fn advise_heap_growth() {
    // SAFETY: `sbrk(0)` only returns the current end of the heap; it moves nothing.
    let end = unsafe { libc::sbrk(0) } as usize;
    if end == usize::MAX {
        return; // sbrk failed: no heap to advise
    }
    let advised = ADVISED_END.fetch_max(end, Ordering::Relaxed);
    if advised >= end {
        return;
    }
    // The first call advises the last huge page below the current end, not the whole heap
    // (where it starts is not known here, and the first few KiB do not matter).
    let start = if advised == 0 {
        end.saturating_sub(2 << 20)
    } else {
        advised
    };
    advise(start, end);
}

/// `madvise(MADV_HUGEPAGE)` on the whole pages inside `start..end`; failures are ignored
/// (the advice only changes page sizes, never contents).
fn advise(start: usize, end: usize) {
    const PAGE: usize = 4096;
    let first = start.div_ceil(PAGE) * PAGE;
    let last = end / PAGE * PAGE;
    if last <= first {
        return;
    }
    // SAFETY: the range is page-aligned and lies inside memory this process mapped (the heap
    // or a block glibc mapped for us); MADV_HUGEPAGE changes no contents and no protection.
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_HUGEPAGE,
        );
    }
}

/// After glibc returned `block` of `size` bytes: a mapped block is advised on its own, any
/// other may have grown the heap.
fn after_allocation(block: *mut u8, size: usize) {
    if block.is_null() {
        return;
    }
    if size >= MAPPED_BLOCK {
        advise(block as usize, block as usize + size);
    } else {
        advise_heap_growth();
    }
}

// SAFETY: every method hands the request to `System` (glibc's malloc, which satisfies the
// `GlobalAlloc` contract) unchanged; the calls added only advise page sizes.
unsafe impl GlobalAlloc for HugePageHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are passed on unchanged.
        let block = unsafe { System.alloc(layout) };
        after_allocation(block, layout.size());
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        after_allocation(block, layout.size());
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` was allocated by `System` with `layout` (every method here uses it).
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `block` came from `System` with `layout`; the caller guarantees `new_size`.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        after_allocation(moved, new_size);
        moved
    }
}
