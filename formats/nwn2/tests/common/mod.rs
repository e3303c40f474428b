#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
use std::path::{Path, PathBuf};

/// The NWN2 files of the shared corpora (the tests calling this are ignored without them).
pub fn corpus_files() -> Vec<PathBuf> {
    let dir = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join("nwn2");
    let files = walkmesh_core::testing::files_with_extensions(&dir, &["trx", "trn"]);
    assert!(
        !files.is_empty(),
        "no TRN/TRX files below {}",
        dir.display()
    );
    files
}

pub fn is_trx(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("trx"))
}

pub fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
