#![cfg(all(
    feature = "obj",
    feature = "bwm",
    feature = "nwn2",
    feature = "prime",
    feature = "gltf",
    feature = "mdl"
))]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Detection by content and detection by extension agree on every file we have (the check
//! image-rs makes between its magic table and its extension table).

use std::path::{Path, PathBuf};

use walkmesh_core::testing::files_with_extensions;
use walkmesh_tests::{fixtures_dir, required_corpora};

const EXTENSIONS: &[&str] = &[
    "wok", "pwk", "dwk", "bwm", "trx", "trn", "path", "obj", "gltf", "glb", "mdl",
];

#[test]
fn content_and_extension_agree() {
    let files = files_with_extensions(&fixtures_dir(), EXTENSIONS);
    assert!(files.len() >= 6);
    check_detection(&files);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn content_and_extension_agree_on_the_shared_corpora() {
    let files = files_with_extensions(&required_corpora(), EXTENSIONS);
    assert!(files.len() >= 100, "{} files", files.len());
    check_detection(&files);
}

/// Each file's format found by its extension, by extension and content, and by content alone
/// (under a name that says nothing) is the same.
fn check_detection(files: &[PathBuf]) {
    let registry = walkmesh_formats::default_registry();
    for path in files {
        let bytes = std::fs::read(path).unwrap();
        let by_extension: Vec<&str> = registry
            .by_extension(path)
            .map(|f| f.descriptor().id)
            .collect();
        assert_eq!(by_extension.len(), 1, "{}", path.display());
        // The file's own name: what users get.
        let detected = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
        assert_eq!(
            detected.descriptor().id,
            by_extension[0],
            "{}",
            path.display()
        );
        // A name that says nothing: content alone must tell.
        let anonymous = Path::new("renamed.dat");
        let by_content = registry.detect(anonymous, &bytes, bytes.len() as u64);
        assert_eq!(
            by_content.map(|f| f.descriptor().id).ok(),
            Some(by_extension[0]),
            "content of {} not recognised",
            path.display()
        );
    }
}
