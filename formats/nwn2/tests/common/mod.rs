#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
use std::path::{Path, PathBuf};

pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = walkmesh_core::testing::corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))?;
    let dir = dir.join("nwn2");
    if !dir.is_dir() {
        return None;
    }
    Some(walkmesh_core::testing::files_with_extensions(
        &dir,
        &["trx", "trn"],
    ))
}

pub fn is_trx(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("trx"))
}

pub fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
