//! KotOR areas as the commands read and write them (`area`, `lint AREA`, `info ARCHIVE`,
//! `route`/`reach` over an area, `generate --out-dir`): module archives, room sources and
//! their layouts, rooms read, assembled and written. The work is `walkmesh-kotor-area`'s and
//! `walkmesh-pipeline`'s; this adds the command line's failures and reading notes, so that no
//! command module imports another.

use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_core::printable;
use walkmesh_kotor_area::erf::Archive;
use walkmesh_kotor_area::{Lyt, assemble, contents};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::note_read;

/// Reads a module archive, recording what is read.
pub(crate) fn read_archive(path: &Path) -> Result<Archive, Failure> {
    Ok(walkmesh_kotor_area::rooms::read_archive(path, note_read)?)
}

/// Lines for `walkmesh info` on an archive: members, walkmeshes and layouts first.
pub fn archive_summary(archive: &Archive) -> Vec<String> {
    let mut lines = Vec::new();
    let kind = contents::kind_name(archive.kind);
    lines.push(format!(
        "archive:        {kind} V1.0, {} members",
        archive.members.len()
    ));
    for (label, types) in [
        ("walkmeshes", &contents::WALKMESH_TYPES[..]),
        ("layouts", &[contents::LAYOUT_TYPE][..]),
        ("visibility", &[contents::VISIBILITY_TYPE][..]),
    ] {
        let names: Vec<String> = contents::members_of(archive, types)
            .map(|m| printable::escape(&m.file_name()).into_owned())
            .collect();
        lines.push(format!(
            "{label:<15} {}",
            if names.is_empty() {
                "-".into()
            } else {
                names.join(", ")
            }
        ));
    }
    lines
}

/// Where rooms come from: a folder of WOKs or an archive (`walkmesh_kotor_area::rooms`).
pub(crate) use walkmesh_kotor_area::RoomSource;

/// Opens a folder of room WOKs or a module archive, recording what is read.
pub(crate) fn open_rooms(path: &Path) -> Result<RoomSource, Failure> {
    Ok(RoomSource::open(path, note_read)?)
}

/// The layout of `source`: `explicit`, else its single `.lyt` (`--lyt` otherwise).
pub(crate) fn room_layout(
    source: &RoomSource,
    explicit: Option<&Path>,
) -> Result<(Lyt, PathBuf), Failure> {
    Ok(source.layout(explicit, "--lyt", note_read)?)
}

/// Rooms read, their original WOK bytes (same order), and the rooms without a WOK.
pub(crate) type LoadedRooms = walkmesh_kotor_area::rooms::LoadedRooms;

/// Reads the WOK of every layout room the source has; returns the rooms, their original
/// bytes, and the names of rooms without a WOK. A layout naming one room twice is refused
/// (`lyt_file` names it).
pub(crate) fn load_rooms(
    source: &RoomSource,
    lyt: &Lyt,
    lyt_file: &Path,
) -> Result<LoadedRooms, Failure> {
    Ok(source.load_rooms(lyt, lyt_file, note_read)?)
}

/// Whether `path` is a module archive (by its first bytes).
pub fn is_archive(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    walkmesh_core::files::open(path)
        .and_then(|mut file| file.read_exact(&mut head))
        .is_ok_and(|()| Archive::sniff(&head))
}

/// A whole area (a folder of room WOKs or a module archive, with its LYT or `lyt`) as one
/// mesh in area coordinates, for `route` and `reach`. Rooms without a walkmesh are noted on
/// `stderr`.
pub fn load_area_mesh(
    rooms_path: &Path,
    lyt_path: Option<&Path>,
    stderr: &mut dyn Write,
) -> Result<walkmesh_core::NavMesh, Failure> {
    Ok(assemble_area(rooms_path, lyt_path, stderr)?.mesh)
}

/// An area's rooms assembled into one mesh, with where they came from (for a depfile).
pub(crate) struct AssembledArea {
    pub source: RoomSource,
    /// The layout file read.
    pub lyt_file: PathBuf,
    pub rooms: Vec<walkmesh_kotor_area::transitions::RoomMesh>,
    pub mesh: walkmesh_core::NavMesh,
}

/// Reads the layout and rooms of `rooms_path` and assembles them (`area assemble`, and the
/// area `route` and `reach` take); rooms without a walkmesh are noted on `stderr`.
pub(crate) fn assemble_area(
    rooms_path: &Path,
    lyt_path: Option<&Path>,
    stderr: &mut dyn Write,
) -> Result<AssembledArea, Failure> {
    let source = open_rooms(rooms_path)?;
    let (lyt, lyt_file) = room_layout(&source, lyt_path)?;
    let (rooms, _, missing) = load_rooms(&source, &lyt, &lyt_file)?;
    if !missing.is_empty() {
        writeln!(
            stderr,
            "note: rooms without a walkmesh: {}",
            missing.join(", ")
        )?;
    }
    let mesh = assemble::assemble(&lyt, &rooms);
    Ok(AssembledArea {
        source,
        lyt_file,
        rooms,
        mesh,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    /// The rooms' format is found by what it is (KotOR, room transitions, read and written),
    /// not by its id: the default registry's is BWM (a registry without one:
    /// `walkmesh_pipeline::area_files`'s tests).
    #[test]
    fn kotor_rooms_are_the_default_registrys_bwm() {
        #[cfg(feature = "bwm")]
        assert_eq!(
            walkmesh_pipeline::area_files::kotor_room_format(&walkmesh_formats::default_registry())
                .unwrap()
                .descriptor()
                .id,
            "bwm"
        );
    }
}
