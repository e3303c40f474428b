//! What `area solve` writes back: the rooms whose transitions the solver changed, as WOK files
//! beside the originals (or in an output folder), or put into the module archive. Only the
//! bytes and their targets are made here, every name checked and every WOK made before the
//! caller writes anything; writing them (atomically, never over an input unless in place) is
//! the caller's.

use std::path::{Path, PathBuf};

use walkmesh_core::confine;

use crate::rooms::RoomSource;
use crate::transitions::{RoomMesh, Solution, wok_with_transitions};

/// The files to write: in a folder (which the caller creates first) or the one archive.
#[derive(Debug, Default)]
pub struct SolvedFiles {
    /// The folder the room files go into (`None` for an archive).
    pub dir: Option<PathBuf>,
    /// Each target with its bytes, in room order (an archive: the archive once, when any room
    /// changed).
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

/// Why the solved rooms could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolvedError {
    /// A layout room's name cannot be a file or member name.
    UnsafeName(confine::UnsafeName),
    /// A room's WOK or the archive could not be written back (the message says why).
    Write(String),
}

impl std::fmt::Display for SolvedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolvedError::UnsafeName(name) => write!(f, "{name}"),
            SolvedError::Write(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for SolvedError {}

impl From<confine::UnsafeName> for SolvedError {
    fn from(name: confine::UnsafeName) -> Self {
        SolvedError::UnsafeName(name)
    }
}

/// The rooms (slots of `rooms`) holding an edge whose solved value differs from the stored one.
pub fn changed_rooms(rooms: &[RoomMesh], solution: &Solution) -> Vec<usize> {
    (0..rooms.len())
        .filter(|&slot| {
            solution
                .edges
                .iter()
                .zip(&solution.solved)
                .any(|(e, s)| e.room == slot && e.stored != *s)
        })
        .collect()
}

/// The files that write the `changed` rooms (after `apply`) back: into `out` when given, else
/// over the files read (a folder's WOKs under their own spelling, or the archive). `originals`
/// are the rooms' WOK bytes as read (same order as `rooms`); `lyt_file` names the layout in
/// refusals of room names.
pub fn solved_files(
    source: &RoomSource,
    rooms: &[RoomMesh],
    originals: &[Vec<u8>],
    changed: &[usize],
    out: Option<&Path>,
    lyt_file: &Path,
) -> Result<SolvedFiles, SolvedError> {
    match source {
        RoomSource::Folder(dir, files) => {
            let target_dir = out.unwrap_or(dir);
            let mut pending = Vec::new();
            for &slot in changed {
                let (Some(room), Some(original)) = (rooms.get(slot), originals.get(slot)) else {
                    continue;
                };
                let file_name = format!("{}.wok", room.name);
                let confined = confine::join(target_dir, &file_name, "layout room", lyt_file)?;
                let target = match out {
                    Some(_) => confined,
                    None => files
                        .get(&file_name.to_ascii_lowercase())
                        .cloned()
                        .unwrap_or(confined),
                };
                let bytes = wok_with_transitions(original, &room.mesh)
                    .map_err(|e| SolvedError::Write(e.to_string()))?;
                pending.push((target, bytes));
            }
            Ok(SolvedFiles {
                dir: Some(target_dir.to_path_buf()),
                files: pending,
            })
        }
        RoomSource::Archive(path, archive) => {
            let mut archive = archive.clone();
            for &slot in changed {
                let (Some(room), Some(original)) = (rooms.get(slot), originals.get(slot)) else {
                    continue;
                };
                let bytes = wok_with_transitions(original, &room.mesh)
                    .map_err(|e| SolvedError::Write(e.to_string()))?;
                // A member is a file once extracted: its name passes the same check.
                let member = format!("{}.wok", room.name);
                confine::check(&member).map_err(|reason| confine::UnsafeName {
                    what: "layout room".into(),
                    name: member.clone(),
                    source: lyt_file.to_path_buf(),
                    reason,
                })?;
                archive
                    .put(&member, bytes)
                    .map_err(|e| SolvedError::Write(e.to_string()))?;
            }
            let mut files = Vec::new();
            if !changed.is_empty() {
                let target = out.unwrap_or(path);
                let bytes = archive
                    .write()
                    .map_err(|e| SolvedError::Write(e.to_string()))?;
                files.push((target.to_path_buf(), bytes));
            }
            Ok(SolvedFiles { dir: None, files })
        }
    }
}

impl walkmesh_core::Kinded for SolvedError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            SolvedError::UnsafeName(error) => walkmesh_core::Kinded::kind(error),
            SolvedError::Write(_) => walkmesh_core::ErrorKind::Io,
        }
    }
}
