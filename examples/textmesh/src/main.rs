//! `walkmesh-textmesh`: the `walkmesh` command line with one more format, `textmesh`,
//! registered after the built-in ones. Every command (`formats`, `info`, `convert`,
//! `validate`, `dump`, `render`, `view`, `route`, `reach`, `lint`, …) sees it, because they all
//! take their formats from the registry handed to `walkmesh_cli::run_with`.

fn main() {
    #[cfg(unix)]
    if let Err(error) = walkmesh_cli::remove_temporary_files_on_signals() {
        eprintln!(
            "warning: cannot watch for signals ({error}); an interrupted write may leave a .walkmesh-*.tmp file"
        );
    }
    let registry = walkmesh_example_textmesh::registry();
    let code = walkmesh_cli::run_with(
        &registry,
        std::env::args_os().collect(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
