//! The `walkmesh` binary: everything happens in `walkmesh_cli::run`; the binary adds the
//! signal handler that removes temporary output files on SIGINT/SIGTERM/SIGHUP (started
//! when the first one is staged).

// glibc's malloc in one arena, never trimmed, its heap on transparent huge pages
// (`walkmesh_heap`): a conversion allocates and frees a few large tables, and by default glibc
// returns each freed one to the kernel, so the next is page-faulted and zeroed again (a
// dm_dungeon re-bake: a fifth of the samples in page faults). Only the binary: the library
// leaves the choice to its users. Measured against mimalloc in docs/performance.md.
#[global_allocator]
static ALLOCATOR: walkmesh_heap::HugePageHeap = walkmesh_heap::HugePageHeap;

fn main() {
    walkmesh_heap::configure();
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
