//! Sets `cfg(walkmesh_corpora)` when the shared corpora are present, so that the tests that
//! need them are reported as ignored, not passed, when they are absent (see the module).
#[path = "../../core/src/testing/location.rs"]
mod location;

fn main() {
    location::build_script_main();
}
