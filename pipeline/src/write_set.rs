//! Several files written as one output: each is staged and read back by the target format's
//! reader and validator, and only when every one passes are they renamed into place, so a
//! refused file leaves every target as it was. A KotOR area's rooms are written this way by
//! `lint AREA --fix OUTDIR` and `generate --out-dir` on the command line and by
//! `walkmesh.area.generate` in Python; `area solve` writes its rooms (or the archive holding
//! them) and `area assemble` its mesh through [`write_checked_outputs`] and
//! [`write_checked_archive`].

use std::path::{Path, PathBuf};

use walkmesh_core::{Format, Output, ReadOptions};
use walkmesh_kotor_area::erf::Archive;
use walkmesh_kotor_area::solved::SolvedFiles;

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
    commit_all(
        files
            .into_iter()
            .map(|(target, bytes)| stage_checked(format, &target, bytes, check, names)),
    )
}

/// Stages every file of a set in turn and renames them all into place once every one is
/// staged; the first failure discards what was staged and is returned.
fn commit_all(files: impl Iterator<Item = Result<Staged, Failure>>) -> Result<(), Failure> {
    let mut staged: Vec<Staged> = Vec::new();
    for file in files {
        match file {
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
    keep_if_valid(format, staged, target, &bytes, check, names)
}

/// `staged` (the bytes `main` at `target`) when the format's reader and validator accept it,
/// judged as any output is; else it is discarded and the failure says why.
fn keep_if_valid(
    format: &dyn Format,
    staged: Staged,
    target: &Path,
    main: &[u8],
    check: &ReadOptions,
    names: OptionNames,
) -> Result<Staged, Failure> {
    match judge(format, main, Some(staged.read_path()), target, check, names) {
        Ok(()) => Ok(staged),
        Err(failure) => {
            staged.discard();
            Err(failure)
        }
    }
}

/// Reads `main` back (from `read_path` when staged, with its sidecars) with the format's
/// reader and validator and judges what they found for `target`.
fn judge(
    format: &dyn Format,
    main: &[u8],
    read_path: Option<&Path>,
    target: &Path,
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    crate::check_output(format, main, read_path, check)
        .map_err(|e| Failure::usage(format!("the {} format cannot be read back", e.id)))
        .and_then(|checked| {
            policy::judge_output(checked, Some(target), format.descriptor().id, false, names)
        })
        .map(|_| ())
}

/// Writes every `(target, output)` in `format` as one set: each staged with its sidecars and
/// read back by the format's reader and validator, then all renamed into place, replacing
/// their targets as `convert` replaces its OUT (never a file the command read, unless the
/// caller released it for an in-place update). A refused output leaves every target as it was.
pub fn write_checked_outputs(
    format: &dyn Format,
    files: Vec<(PathBuf, Output)>,
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    commit_all(files.into_iter().map(|(target, written)| {
        output::stage(&target, &written, OutputSettings::default())
            .and_then(|file| keep_if_valid(format, file, &target, &written.main, check, names))
    }))
}

/// Writes what `area solve` made (`walkmesh_kotor_area::solved::SolvedFiles`), each file read
/// back and validated first: room files as one checked set ([`write_checked_outputs`]), or
/// the archive once it reads back with every rewritten room (`rewritten`, member names) valid
/// ([`write_checked_archive`]). `in_place`: the rooms or the archive read are the files
/// replaced, on purpose (only those: any other file read stays protected). Returns the
/// targets written.
pub fn write_solved(
    format: &dyn Format,
    solved: SolvedFiles,
    rewritten: &[String],
    in_place: bool,
    names: OptionNames,
) -> Result<Vec<PathBuf>, Failure> {
    let check = crate::check_options(&ReadOptions::default());
    if let Some(dir) = &solved.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::in_context(format!("cannot create {}: ", dir.display()), &e))?;
    }
    let targets: Vec<PathBuf> = solved.files.iter().map(|(t, _)| t.clone()).collect();
    if in_place {
        targets.iter().for_each(|t| walkmesh_core::files::forget(t));
    }
    if solved.dir.is_some() {
        let outputs = solved
            .files
            .into_iter()
            .map(|(target, main)| {
                let sidecars = Vec::new();
                (target, Output { main, sidecars })
            })
            .collect();
        write_checked_outputs(format, outputs, &check, names)?;
    } else {
        for (target, bytes) in &solved.files {
            write_checked_archive(format, target, bytes, rewritten, &check, names)?;
        }
    }
    Ok(targets)
}

/// Writes a module archive (`bytes`) to `target` once [`check_archive`] accepts it.
pub fn write_checked_archive(
    format: &dyn Format,
    target: &Path,
    bytes: &[u8],
    checked: &[String],
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    check_archive(format, target, bytes, checked, check, names)?;
    output::write_atomically(target, bytes)
}

/// Whether a module archive made for `target` reads back as an archive and each of its
/// members `checked` (file names, e.g. the rooms rewritten) reads back in `format` and
/// validates; the archive's other members are the bytes read and are not judged again.
pub fn check_archive(
    format: &dyn Format,
    target: &Path,
    bytes: &[u8],
    checked: &[String],
    check: &ReadOptions,
    names: OptionNames,
) -> Result<(), Failure> {
    let unreadable = |why: String| {
        Failure::invalid_output(
            format!(
                "{}: the archive made does not read back: {why}",
                target.display()
            ),
            Vec::new(),
        )
    };
    let archive = Archive::parse(bytes).map_err(|e| unreadable(e.to_string()))?;
    for member in checked {
        let data = archive
            .extract(member)
            .ok_or_else(|| unreadable(format!("it holds no {member}")))?;
        let place = PathBuf::from(format!("{}:{member}", target.display()));
        judge(format, data, None, &place, check, names)?;
    }
    Ok(())
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
