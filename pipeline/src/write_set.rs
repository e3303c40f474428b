//! Several files written as one output: each is staged and read back by the target format's
//! reader and validator, and only when every one passes are they renamed into place, so a
//! refused file leaves every target as it was. A KotOR area's rooms are written this way by
//! `lint AREA --fix OUTDIR` and `generate --out-dir` on the command line and by
//! `walkmesh.area.generate` in Python.

use std::path::{Path, PathBuf};

use walkmesh_core::{Format, Output, ReadOptions};

use crate::Failure;
use crate::output::{self, OutputSettings, Staged};
use crate::policy::{self, OptionNames};

/// Writes every `(target, bytes)` in `format`: all staged and checked (read back with
/// `check`, judged as any output is, messages naming the caller's options `names`), then
/// renamed. A target that exists is refused (no `force`); its folder must exist.
pub fn write_checked_set(
    format: &dyn Format,
    files: Vec<(PathBuf, Vec<u8>)>,
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    for (target, bytes) in files {
        match stage_checked(format, &target, bytes, check, names) {
            Ok(file) => staged.push(file),
            Err(failure) => {
                staged.into_iter().for_each(Staged::discard);
                return Err(failure);
            }
        }
    }
    for file in staged {
        file.commit()?;
    }
    Ok(())
}

/// Stages `bytes` at `target` (no sidecars, nothing forced, the folder already made), to be
/// committed or discarded with the rest of a set.
pub fn stage_file(target: &Path, bytes: &[u8]) -> Result<Staged, Failure> {
    let written = Output {
        main: bytes.to_vec(),
        sidecars: Vec::new(),
    };
    let settings = OutputSettings {
        force: false,
        create_dirs: false,
        fsync: false,
    };
    output::stage(target, &written, settings)
}

/// Stages `bytes` at `target` and reads it back with the format's reader and validator.
fn stage_checked(
    format: &dyn Format,
    target: &Path,
    bytes: Vec<u8>,
    check: &ReadOptions,
    names: OptionNames,
) -> Result<Staged, Failure> {
    let staged = stage_file(target, &bytes)?;
    let verdict = crate::check_output(format, &bytes, Some(staged.read_path()), check)
        .map_err(|e| Failure::usage(format!("the {} format cannot be read back", e.id)))
        .and_then(|checked| policy::judge_output(checked, Some(target), format.id(), false, names));
    match verdict {
        Ok(_) => Ok(staged),
        Err(failure) => {
            staged.discard();
            Err(failure)
        }
    }
}

/// The files of a KotOR area written into one folder: the room walkmeshes and, when one was
/// made, the layout (`ROOM.wok`…, `AREA.lyt`).
#[derive(Debug)]
pub struct AreaFiles<'a> {
    pub dir: &'a Path,
    pub rooms: Vec<(PathBuf, Vec<u8>)>,
    pub layout: Option<(PathBuf, Vec<u8>)>,
}

/// Writes an area's files: the folder made, the layout read back by the LYT reader and staged
/// first, every room staged and checked as [`write_checked_set`] does, and the layout kept only
/// when every room is written, so a refused area leaves the folder as it was. Used by `area
/// split`, `area indoor`, and Python's `walkmesh.area.generate_meshes`.
pub fn write_area_files(
    format: &dyn Format,
    files: AreaFiles<'_>,
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    std::fs::create_dir_all(files.dir)
        .map_err(|e| Failure::output(format!("cannot create {}: {e}", files.dir.display())))?;
    let layout = match &files.layout {
        Some((target, bytes)) => {
            walkmesh_kotor_area::lyt::read_lyt(bytes).map_err(|e| {
                Failure::invalid_output(
                    format!(
                        "{}: the layout made does not read back: {e}",
                        target.display()
                    ),
                    Vec::new(),
                )
            })?;
            Some(stage_file(target, bytes)?)
        }
        None => None,
    };
    match (write_checked_set(format, files.rooms, check, names), layout) {
        (Ok(()), Some(layout)) => layout.commit(),
        (Ok(()), None) => Ok(()),
        (Err(error), layout) => {
            layout.into_iter().for_each(Staged::discard);
            Err(error)
        }
    }
}
