//! KotOR area room sets made from one file and written as one checked set: `area split` (an
//! assembled area cut back into its layout's rooms) and `area indoor` (an Indoor Map Builder
//! map built from its kits). Every name a file is written under comes from the layout or the
//! map, so each goes through `confine::join` before anything is built; every room is written
//! in the registry's KotOR room format and read back by its validator before any file is
//! renamed into place (`write_set::write_area_files`). The command line prints what these
//! return; nothing here prints.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostic, Diagnostics, Format, NavMesh, Registry, confine};
use walkmesh_kotor_area::kits::{IndoorBuild, IndoorMap, build_indoor, load_kits};
use walkmesh_kotor_area::lyt::write_lyt;
use walkmesh_kotor_area::transitions::{RoomMesh, Tolerance};
use walkmesh_kotor_area::{Lyt, assemble};

use crate::failure::Failure;
use crate::write_set::{AreaFiles, write_area_files};

/// The registry's format for KotOR area rooms (`Registry::room_walkmesh`: the KotOR format
/// whose files carry room transitions, BWM's `.wok`), which every room of a KotOR area is
/// read and written in; a clear refusal when the registry has none (this build leaves BWM
/// out, cargo feature `bwm`, or a registry of its own does not hold it).
pub fn kotor_room_format(registry: &Registry) -> Result<&dyn Format, Failure> {
    registry
        .room_walkmesh(walkmesh_core::Engine::Kotor)
        .ok_or_else(|| {
            Failure::usage(
                "KotOR areas need a format for KotOR rooms (one that reads and writes room \
                 transitions, as BWM's .wok files), and this build has none (BWM is the cargo \
                 feature `bwm`); `walkmesh formats` lists what it has",
            )
        })
}

/// A room's WOK bytes, written in the registry's KotOR room format (refused first, naming
/// the cargo feature, when the registry has none). Writer notes go to `diag`.
pub fn room_wok_bytes(
    registry: &Registry,
    mesh: &NavMesh,
    diag: &mut Diagnostics,
) -> Result<Vec<u8>, Failure> {
    kotor_room_format(registry)?;
    Ok(walkmesh_kotor_area::rooms::write_room_wok(
        registry, mesh, diag,
    )?)
}

/// Writes an area's room WOKs (and the layout made, if any) into `out` as one set: every room
/// read back by the validator before any file is renamed into place.
pub fn write_rooms(
    registry: &Registry,
    out: &Path,
    rooms: Vec<(PathBuf, Vec<u8>)>,
    layout: Option<(PathBuf, Vec<u8>)>,
) -> Result<(), Failure> {
    let format = kotor_room_format(registry)?;
    let check = crate::check_options(&walkmesh_core::ReadOptions::default());
    let files = AreaFiles {
        dir: out,
        rooms,
        layout,
    };
    write_area_files(format, files, &check, crate::policy::CLI_NAMES)
}

/// One room file written.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenRoom {
    /// The layout's room name.
    pub name: String,
    pub path: PathBuf,
    pub faces: usize,
    /// Edges with a transition to another room.
    pub transition_edges: usize,
    /// What writing it noted (its writer's warnings).
    pub notes: Vec<Diagnostic>,
}

/// Cuts `mesh` (an assembled area, as read from `mesh_path`) into the rooms of `lyt` (read
/// from `lyt_path`) and writes one WOK per room into `out`, as one checked set.
pub fn split_area(
    registry: &Registry,
    (mesh, mesh_path): (&NavMesh, &Path),
    (lyt, lyt_path): (&Lyt, &Path),
    out: &Path,
) -> Result<Vec<WrittenRoom>, Failure> {
    let rooms = assemble::split(mesh, lyt, lyt_path).map_err(|e| match e {
        // The refusal names the layout itself.
        walkmesh_kotor_area::AreaError::Repeated(repeated) => Failure::from(*repeated),
        e => Failure::in_context(format!("{}: ", mesh_path.display()), &e),
    })?;
    let named_by = RoomNames {
        what: "layout room",
        source: lyt_path,
    };
    let (written, files) = room_files(registry, &rooms, out, named_by)?;
    write_rooms(registry, out, files, None)?;
    Ok(written)
}

/// What names the rooms written: `what` from the file `source` (for `confine::join`).
#[derive(Clone, Copy)]
struct RoomNames<'a> {
    what: &'static str,
    source: &'a Path,
}

/// Files to write: each target path and its bytes.
type Files = Vec<(PathBuf, Vec<u8>)>;

/// Each room's confined `out/NAME.wok` path and WOK bytes, and what will have been written.
fn room_files(
    registry: &Registry,
    rooms: &[RoomMesh],
    out: &Path,
    named_by: RoomNames<'_>,
) -> Result<(Vec<WrittenRoom>, Files), Failure> {
    let mut written = Vec::with_capacity(rooms.len());
    let mut files = Vec::with_capacity(rooms.len());
    for room in rooms {
        let name = format!("{}.wok", room.name);
        let path = confine::join(out, &name, named_by.what, named_by.source)?;
        let mut diag = Diagnostics::new();
        files.push((
            path.clone(),
            room_wok_bytes(registry, &room.mesh, &mut diag)?,
        ));
        written.push(WrittenRoom {
            name: room.name.clone(),
            path,
            faces: room.mesh.polygons.len(),
            transition_edges: room.mesh.edge_tags.len(),
            notes: diag.items,
        });
    }
    Ok((written, files))
}

/// An Indoor Map Builder map built and written.
#[derive(Debug)]
pub struct IndoorWritten {
    pub rooms: Vec<WrittenRoom>,
    /// The layout written beside the rooms (`MODULE.lyt`).
    pub layout: PathBuf,
    /// What the builder made and found (its layout, hook links, findings and the geometric
    /// solve's corrections).
    pub build: IndoorBuild,
}

/// Where an Indoor Map Builder map is read from, and the kits it is built of.
#[derive(Debug, Clone, Copy)]
pub struct IndoorSources<'a> {
    pub map: &'a Path,
    /// The folder of kit JSONs.
    pub kits: &'a Path,
    /// Where the kits' WOKs are (the kit folder when `None`).
    pub kit_woks: Option<&'a Path>,
}

/// Builds the map at `sources.map` from its kits and writes its rooms and layout into `out`
/// as one checked set, every room placed where 32-bit floats hold its points 1 mm apart.
pub fn indoor_area(
    registry: &Registry,
    sources: IndoorSources<'_>,
    out: &Path,
    tolerance: Tolerance,
) -> Result<IndoorWritten, Failure> {
    let map_path = sources.map;
    let bytes = walkmesh_core::files::read(map_path)
        .map_err(|e| Failure::in_context(format!("cannot read {}: ", map_path.display()), &e))?;
    let map = IndoorMap::parse(&bytes)
        .map_err(|e| Failure::in_context(format!("{}: ", map_path.display()), &e))?;
    let kits = load_kits(sources.kits, sources.kit_woks.unwrap_or(sources.kits))?;
    // The module id names every file written: checked before anything is built or written.
    let layout = confine::join(
        out,
        &format!("{}.lyt", map.module_id),
        "module id",
        map_path,
    )?;
    let build = build_indoor(&map, &kits, tolerance);
    for room in &build.rooms {
        if let Some(placement) = build.lyt.rooms.get(room.lyt_index) {
            walkmesh_kotor_area::placed::check_placed(
                placement,
                room.mesh.vertices.iter().copied(),
                map_path,
            )?;
        }
    }
    let named_by = RoomNames {
        what: "room",
        source: map_path,
    };
    let (rooms, files) = room_files(registry, &build.rooms, out, named_by)?;
    let layout_file = (layout.clone(), write_lyt(&build.lyt));
    write_rooms(registry, out, files, Some(layout_file))?;
    Ok(IndoorWritten {
        rooms,
        layout,
        build,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The rooms' format is found by what it is (KotOR, room transitions, read and written),
    /// not by its id: a registry without one is refused with the feature named, a usage error.
    #[test]
    fn kotor_rooms_need_the_registrys_room_format() {
        let refused = kotor_room_format(&Registry::new()).err().unwrap();
        assert_eq!(refused.code, "cli.usage");
        assert!(
            refused
                .message
                .contains("KotOR areas need a format for KotOR rooms")
                && refused.message.contains("cargo feature `bwm`"),
            "{}",
            refused.message
        );
        let refused = room_wok_bytes(
            &Registry::new(),
            &NavMesh::default(),
            &mut Diagnostics::new(),
        )
        .err()
        .unwrap();
        assert_eq!(refused.code, "cli.usage");
    }
}
