//! `lint AREA --fix OUTDIR`: every room read is repaired on its own (`walkmesh_lint::fix_room`)
//! and written to OUTDIR as `<room>.wok`, as `area split` writes rooms. A room with nothing to
//! repair keeps its original bytes. All rooms are staged and read back by the BWM validator
//! before any is renamed into place, so a refused room leaves OUTDIR as it was.

use std::path::{Path, PathBuf};

use walkmesh_core::ReadOptions;
use walkmesh_core::{Diagnostics, NavMesh, Registry, confine};
use walkmesh_kotor_area::Lyt;
use walkmesh_kotor_area::lyt::PLACEHOLDER_ROOM;
use walkmesh_kotor_area::transitions::RoomMesh;
use walkmesh_lint::LintOptions;

use super::{FixOutcome, RoomRepair};
use crate::areas::{load_rooms, open_rooms};
use walkmesh_pipeline::area_files::{kotor_room_format, room_wok_bytes};
use walkmesh_pipeline::failure::Failure;

/// An area as read: its layout (and where it came from), the rooms with a walkmesh and their
/// original WOK bytes (same order).
pub(super) struct AreaSource {
    pub lyt: Lyt,
    pub lyt_path: PathBuf,
    pub rooms: Vec<RoomMesh>,
    pub originals: Vec<Vec<u8>>,
}

/// Where each layout room would be written in `out_dir` (by LYT index; `None` for the
/// placeholder room). Every name is checked, also of rooms without a walkmesh, so that a
/// hostile layout is refused as a whole before anything is written.
fn room_targets(out_dir: &Path, area: &AreaSource) -> Result<Vec<Option<PathBuf>>, Failure> {
    area.lyt
        .rooms
        .iter()
        .map(|room| {
            if room.name == PLACEHOLDER_ROOM {
                return Ok(None);
            }
            let name = format!("{}.wok", room.name);
            Ok(Some(confine::join(
                out_dir,
                &name,
                "layout room",
                &area.lyt_path,
            )?))
        })
        .collect()
}

/// The bytes to write for each room, and the repairs made (with the room's name).
fn repaired_rooms(
    registry: &Registry,
    area: &AreaSource,
    options: &LintOptions,
) -> Result<(Vec<Vec<u8>>, Vec<RoomRepair>), Failure> {
    let mut bytes = Vec::with_capacity(area.rooms.len());
    let mut repairs = Vec::new();
    for (room, original) in area.rooms.iter().zip(&area.originals) {
        match walkmesh_lint::fix_room(&room.mesh, options) {
            Some(fixed) => {
                // The writer's notes are not shown: the read-back check below judges the file.
                let mut notes = Diagnostics::new();
                bytes.push(room_wok_bytes(registry, &fixed.mesh, &mut notes)?);
                repairs.extend(
                    fixed
                        .repairs
                        .into_iter()
                        .map(|repair| (Some(room.name.clone()), repair)),
                );
            }
            // Unchanged rooms keep their file exactly (provenance, padding, field order).
            None => bytes.push(original.clone()),
        }
    }
    Ok((bytes, repairs))
}

/// Repairs and writes the rooms of `area` to `out_dir`, then reads them back with the same
/// layout, assembled as `lint AREA` assembles them.
pub(super) fn fix_area(
    registry: &Registry,
    area: &AreaSource,
    out_dir: &Path,
    options: &LintOptions,
    check: &ReadOptions,
) -> Result<FixOutcome, Failure> {
    if out_dir.exists() && !out_dir.is_dir() {
        return Err(Failure::usage(format!(
            "{} is not a folder: --fix for an area names the folder the rooms are written to",
            out_dir.display()
        )));
    }
    let targets = room_targets(out_dir, area)?;
    let (bytes, repairs) = repaired_rooms(registry, area, options)?;
    let mut files = Vec::with_capacity(bytes.len());
    for (room, bytes) in area.rooms.iter().zip(bytes) {
        let target = targets.get(room.lyt_index).cloned().flatten();
        let target = target
            .ok_or_else(|| Failure::input(format!("room {} is not in the layout", room.name)))?;
        files.push((target, bytes));
    }
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Failure::output(format!("cannot create {}: {e}", out_dir.display())))?;
    let format = kotor_room_format(registry)?;
    walkmesh_pipeline::write_set::write_checked_set(
        format,
        files,
        check,
        walkmesh_pipeline::policy::CLI_NAMES,
    )?;
    let written = open_rooms(out_dir)?;
    let (rooms, _, missing) = load_rooms(&written, &area.lyt, &area.lyt_path)?;
    let mesh: NavMesh = walkmesh_kotor_area::assemble::assemble(&area.lyt, &rooms);
    Ok(FixOutcome {
        repairs,
        written: mesh,
        layout_rooms: Some(area.lyt.rooms.len()),
        notes: super::missing_rooms(&missing),
    })
}
