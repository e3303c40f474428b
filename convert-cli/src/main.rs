//! The `walkmesh` binary: everything happens in `walkmesh_cli::run`; the binary adds the
//! signal handler that removes temporary output files on SIGINT/SIGTERM/SIGHUP.

fn main() {
    #[cfg(unix)]
    if let Err(error) = walkmesh_cli::remove_temporary_files_on_signals() {
        eprintln!(
            "warning: cannot watch for signals ({error}); an interrupted write may leave a .walkmesh-*.tmp file"
        );
    }
    let code = walkmesh_cli::run(
        std::env::args_os().collect(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    std::process::exit(code);
}
