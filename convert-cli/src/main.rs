//! The `walkmesh` binary: everything happens in `walkmesh_cli::run`.

fn main() {
    let code = walkmesh_cli::run(
        std::env::args_os().collect(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    std::process::exit(code);
}
