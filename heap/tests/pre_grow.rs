//! `configure` grows the heap at once, before anything is written in the new range.
//!
//! No test harness: the check must run on the main thread, as the binary's `main` does
//! (glibc gives other threads arenas of their own, which `sbrk` does not show), and in a
//! process of its own (another test's allocations could have grown the heap already).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn main() {
    // SAFETY: `sbrk(0)` only reads the end of the heap.
    let before = unsafe { libc::sbrk(0) } as usize;
    walkmesh_heap::configure();
    // SAFETY: as above.
    let after = unsafe { libc::sbrk(0) } as usize;
    let grown = after.saturating_sub(before);
    assert!(
        grown >= 32 << 20,
        "configure grew the heap by {grown} bytes, not by tens of MiB"
    );
    println!("configure grew the heap by {} MiB: ok", grown >> 20);
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() {
    println!("not glibc: the system allocator is used, nothing to check");
}
