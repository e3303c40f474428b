//! Support for tests across the workspace: where the shared real-file corpora live.

use std::path::{Path, PathBuf};

pub mod location;

/// The shared corpora directory: `$WALKMESH_CORPORA` if set, else the first `shared/corpora`
/// found beside an ancestor of `start` (the workspace sits next to `shared/`). `None` when
/// absent. Tests that need the corpora use [`required_corpora_dir`] and are ignored at build
/// time when they are absent (`cfg(walkmesh_corpora)`, set by the crate's build script).
pub fn corpora_dir(start: &Path) -> Option<PathBuf> {
    location::locate(start, std::env::var_os(location::CORPORA_VARIABLE))
}

/// The shared corpora directory for a test that needs it. Such tests only run when the build
/// script found the corpora, so not finding them now is a failure, never a silent pass.
#[allow(clippy::panic)] // test support: a test that cannot find its input must fail
pub fn required_corpora_dir(start: &Path) -> PathBuf {
    corpora_dir(start).unwrap_or_else(|| {
        panic!(
            "this test needs the shared corpora: {} (it is ignored when the build found no \
             corpora; was it run with --include-ignored?)",
            location::missing_message(start)
        )
    })
}

/// All files below `dir` whose extension (case-insensitive) is one of `extensions`, sorted.
pub fn files_with_extensions(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
