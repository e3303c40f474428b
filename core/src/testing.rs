//! Support for tests across the workspace: where the shared real-file corpora live.

use std::path::{Path, PathBuf};

/// The shared corpora directory: `$WALKMESH_CORPORA` if set, else the first `shared/corpora`
/// found beside an ancestor of `start` (the workspace sits next to `shared/`). `None` when
/// absent; tests then print a notice and skip.
pub fn corpora_dir(start: &Path) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("WALKMESH_CORPORA") {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    start
        .ancestors()
        .map(|a| a.join("shared").join("corpora"))
        .find(|candidate| candidate.is_dir())
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
