//! Writing output files: atomically, beside their target.

use std::io::Write;
use std::path::Path;

use crate::Failure;

/// Writes to a temporary file in the target's directory, then renames it over the target:
/// readers never see a half-written file, and a failure leaves nothing behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let directory = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new()
        .prefix(".walkmesh-")
        .suffix(".tmp")
        .tempfile_in(directory)
        .map_err(|e| {
            Failure(format!(
                "cannot create a temporary file in {}: {e}",
                directory.display()
            ))
        })?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    temporary
        .persist(path)
        .map_err(|e| Failure(format!("cannot replace {}: {}", path.display(), e.error)))?;
    Ok(())
}
