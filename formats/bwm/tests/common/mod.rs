//! Shared by the integration tests: where peer-check files go, and reading a file that must read.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// `$WALKMESH_PEER_DIR/bwm/` when set (CI's peer check reads it), else a directory under the
/// system temp dir.
pub fn peer_dir() -> PathBuf {
    let dir = match std::env::var_os("WALKMESH_PEER_DIR") {
        Some(dir) => PathBuf::from(dir).join("bwm"),
        None => std::env::temp_dir().join("walkmesh-peer-bwm"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `bytes` as `name` in the peer directory with its sidecar `name.json`.
pub fn write_peer_file(name: &str, bytes: &[u8], limit: usize) -> PathBuf {
    let dir = peer_dir();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let json = walkmesh_bwm::sidecar::sidecar_json(bytes, limit).unwrap();
    std::fs::write(dir.join(format!("{name}.json")), json).unwrap();
    path
}

/// Checks that a JSON sidecar parses (the peer script relies on it).
pub fn sidecar_is_json(path: &Path) -> bool {
    let text = std::fs::read_to_string(path.with_file_name(format!(
        "{}.json",
        path.file_name().unwrap().to_string_lossy()
    )))
    .unwrap();
    text.starts_with('{') && text.ends_with("}}\n")
}

/// Reads `bytes` (from `path`, which decides placeable or door for type-0 files); the file
/// must read.
pub fn read_ok(
    bytes: &[u8],
    path: Option<&Path>,
    diag: &mut walkmesh_core::Diagnostics,
) -> walkmesh_core::NavMesh {
    walkmesh_bwm::read_bwm(
        walkmesh_core::Input { bytes, path },
        &walkmesh_core::ReadOptions::default(),
        diag,
    )
    .unwrap()
}
