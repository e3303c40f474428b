//! The `walkmesh` binary: everything happens in `walkmesh_cli::run`; the binary adds the
//! signal handler that removes temporary output files on SIGINT/SIGTERM/SIGHUP.

// mimalloc instead of the system allocator: a conversion allocates and frees a few large
// tables, and glibc returns each freed one to the kernel, so the next is page-faulted and
// zeroed again (dm_dungeon re-bake: a fifth of the samples in page faults). mimalloc keeps
// and reuses them: the re-bake 101 -> 79 ms, a 1M-triangle OBJ -> WOK 149k -> 400 faults
// (docs/performance.md). Only the binary: the library leaves the choice to its users.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(unix)]
    if let Err(error) = walkmesh_cli::remove_temporary_files_on_signals() {
        eprintln!(
            "warning: cannot watch for signals ({error}); an interrupted write may leave a .walkmesh-*.tmp file"
        );
    }
    // Standard error is passed unlocked: each message takes the lock for its own write, so
    // a progress bar drawn while a batch runs is never left waiting for a lock held here.
    let code = walkmesh_cli::run(
        std::env::args_os().collect(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
