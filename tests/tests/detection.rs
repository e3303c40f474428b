#![cfg(all(
    feature = "obj",
    feature = "bwm",
    feature = "nwn2",
    feature = "prime",
    feature = "gltf"
))]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Detection by content and detection by extension agree on every file we have (the check
//! image-rs makes between its magic table and its extension table).

use std::path::{Path, PathBuf};

use walkmesh_core::testing::files_with_extensions;
use walkmesh_tests::{fixtures_dir, shared_corpora};

const EXTENSIONS: &[&str] = &[
    "wok", "pwk", "dwk", "bwm", "trx", "trn", "path", "obj", "gltf", "glb",
];

fn all_files() -> Vec<PathBuf> {
    let mut files = files_with_extensions(&fixtures_dir(), EXTENSIONS);
    if let Some(shared) = shared_corpora() {
        files.extend(files_with_extensions(&shared, EXTENSIONS));
    }
    files
}

#[test]
fn content_and_extension_agree() {
    let registry = walkmesh_formats::default_registry();
    let files = all_files();
    assert!(files.len() >= 6);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let by_extension: Vec<&str> = registry.by_extension(path).map(|f| f.id()).collect();
        assert_eq!(by_extension.len(), 1, "{}", path.display());
        // The file's own name: what users get.
        let detected = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
        assert_eq!(detected.id(), by_extension[0], "{}", path.display());
        // A name that says nothing: content alone must tell.
        let anonymous = Path::new("renamed.dat");
        let by_content = registry.detect(anonymous, &bytes, bytes.len() as u64);
        assert_eq!(
            by_content.map(|f| f.id()).ok(),
            Some(by_extension[0]),
            "content of {} not recognised",
            path.display()
        );
    }
}
