//! The `walkmesh` binary: everything happens in `walkmesh_cli::run`; the binary adds the
//! signal handler that removes temporary output files on SIGINT/SIGTERM/SIGHUP (started
//! when the first one is staged).

// mimalloc instead of the system allocator: a conversion allocates and frees a few large
// tables, and glibc returns each freed one to the kernel, so the next is page-faulted and
// zeroed again (dm_dungeon re-bake: a fifth of the samples in page faults). mimalloc keeps
// and reuses them: the re-bake 101 -> 79 ms, a 1M-triangle OBJ -> WOK 149k -> 400 faults
// (docs/performance.md). Only the binary: the library leaves the choice to its users.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `walkmesh --version` alone: answered without building every command's arguments
    // (start-up time, docs/performance.md).
    if walkmesh_cli::asks_for_version_only(&args) {
        use std::io::Write;
        let _ = std::io::stdout().write_all(walkmesh_cli::VERSION_LINE.as_bytes());
        std::process::exit(0);
    }
    #[cfg(unix)]
    walkmesh_cli::remove_temporary_files_on_signals_once_staging();
    // Standard error is passed unlocked: each message takes the lock for its own write, so
    // a progress bar drawn while a batch runs is never left waiting for a lock held here.
    let code = walkmesh_cli::run(args, &mut std::io::stdout().lock(), &mut std::io::stderr());
    std::process::exit(code);
}
