//! Where the shared real-file corpora are, in one place for both users: the tests (through
//! [`super::corpora_dir`]) and the build scripts of the crates with corpus tests, which include
//! this file by path (`#[path = …] mod location;`) so that they need no build dependency.
//! Keeping one copy means a test is never compiled in while its runtime lookup disagrees.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The variable naming the corpora folder; when set, it alone decides (a value naming no
/// folder hides the corpora, which is how CI's run without them is made).
pub const CORPORA_VARIABLE: &str = "WALKMESH_CORPORA";

/// When set to anything but empty or `0`, missing corpora are an error instead of a skip.
pub const REQUIRE_VARIABLE: &str = "WALKMESH_REQUIRE_CORPORA";

/// The `cfg` the build scripts set when the corpora are present; corpus tests are
/// `#[cfg_attr(not(walkmesh_corpora), ignore = …)]`.
pub const CFG_NAME: &str = "walkmesh_corpora";

/// The corpora folder: `configured` (the value of `WALKMESH_CORPORA`) if given, else the first
/// `shared/corpora` beside an ancestor of `start`. `None` when there is no such folder.
pub fn locate(start: &Path, configured: Option<OsString>) -> Option<PathBuf> {
    if let Some(dir) = configured {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    start
        .ancestors()
        .map(|a| a.join("shared").join("corpora"))
        .find(|candidate| candidate.is_dir())
}

/// Whether `WALKMESH_REQUIRE_CORPORA` asks for the corpora.
pub fn corpora_required() -> bool {
    std::env::var_os(REQUIRE_VARIABLE).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Why the corpora were not found, naming where they were looked for.
pub fn missing_message(start: &Path) -> String {
    format!(
        "the shared corpora were not found: {CORPORA_VARIABLE} is {}, and no shared/corpora \
         folder is beside any ancestor of {}",
        std::env::var_os(CORPORA_VARIABLE).map_or_else(
            || "not set".to_string(),
            |v| format!("{:?} (not a folder)", v)
        ),
        start.display()
    )
}

/// The body of a build script: sets `cfg(walkmesh_corpora)` when the corpora are present, and
/// fails the build when `WALKMESH_REQUIRE_CORPORA` is set and they are not. Re-runs when either
/// variable changes or the found folder changes. A missing folder is not watched (cargo would
/// then re-run the script, and rebuild the crate, on every build): after adding the corpora
/// beside a clone, set `WALKMESH_CORPORA` once or touch this crate's `build.rs`.
pub fn build_script_main() {
    println!("cargo::rustc-check-cfg=cfg({CFG_NAME})");
    println!("cargo::rerun-if-env-changed={CORPORA_VARIABLE}");
    println!("cargo::rerun-if-env-changed={REQUIRE_VARIABLE}");
    println!("cargo::rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    match locate(&manifest_dir, std::env::var_os(CORPORA_VARIABLE)) {
        Some(dir) => {
            println!("cargo::rerun-if-changed={}", dir.display());
            println!("cargo::rustc-cfg={CFG_NAME}");
        }
        None if corpora_required() => {
            eprintln!(
                "error: {REQUIRE_VARIABLE} is set and {}",
                missing_message(&manifest_dir)
            );
            std::process::exit(1);
        }
        None => println!(
            "cargo::warning=shared corpora not found: tests that need them are ignored \
             (set {CORPORA_VARIABLE}, or {REQUIRE_VARIABLE}=1 to make this an error)"
        ),
    }
}
