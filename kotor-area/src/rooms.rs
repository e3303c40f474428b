//! The rooms of an area, from a folder of room WOKs or a module archive, with the layout that
//! places them: given, else the single `.lyt` the folder or archive holds. Written once for
//! the command line (`area solve|assemble`, `lint AREA`, `route`/`reach` over an area,
//! `generate --out-dir`) and the Python package (`walkmesh.area`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, MeshKind, NavMesh, ReadError, Registry, WriteOptions};

use crate::erf::{Archive, read_file_or_member};
use crate::kits::read_wok;
use crate::lyt::{Lyt, PLACEHOLDER_ROOM, read_lyt};
use crate::placed::{RepeatedRoom, unique_rooms};
use crate::transitions::RoomMesh;

/// Why rooms or their layout could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomsError {
    /// A file or folder could not be read or listed; the message names it.
    Io { path: PathBuf, message: String },
    /// An archive or layout did not parse (file, offset or line, field).
    Read(ReadError),
    /// No layout was named and the source holds no `.lyt`, or several (`found`); `option` is
    /// how the caller names the layout (`--lyt`, `lyt=`).
    Layout {
        source: PathBuf,
        found: usize,
        option: String,
    },
    /// A room's WOK did not read.
    Room { file: String, message: String },
    /// A room's WOK could not be written.
    Write { message: String },
    /// The layout names one room twice (ignoring ASCII case): one file for two rooms.
    Repeated(Box<RepeatedRoom>),
}

impl From<RepeatedRoom> for RoomsError {
    fn from(error: RepeatedRoom) -> Self {
        RoomsError::Repeated(Box::new(error))
    }
}

impl std::fmt::Display for RoomsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomsError::Io { message, .. } => write!(f, "{message}"),
            RoomsError::Read(error) => write!(f, "{error}"),
            RoomsError::Layout {
                source,
                found: 0,
                option,
            } => write!(
                f,
                "{} holds no .lyt; name one with {option}",
                source.display()
            ),
            RoomsError::Layout {
                source,
                found,
                option,
            } => write!(
                f,
                "{} holds {found} .lyt files; name one with {option}",
                source.display()
            ),
            RoomsError::Room { file, message } => write!(f, "{file}: {message}"),
            RoomsError::Write { message } => write!(f, "{message}"),
            RoomsError::Repeated(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for RoomsError {}

/// Called with every file read from disk. The files are read through
/// `walkmesh_core::files`, which already records them for the running command (so that no
/// output replaces one); the callback only tells the caller.
pub type OnRead = fn(&Path);

/// Where rooms come from: a folder of WOKs (names matched case-insensitively) or an archive.
#[derive(Debug)]
pub enum RoomSource {
    Folder(PathBuf, HashMap<String, PathBuf>),
    Archive(PathBuf, Archive),
}

/// Rooms read, their original WOK bytes (same order), and the layout rooms without a WOK.
pub type LoadedRooms = (Vec<RoomMesh>, Vec<Vec<u8>>, Vec<String>);

/// Reads a whole module archive.
pub fn read_archive(path: &Path, on_read: OnRead) -> Result<Archive, RoomsError> {
    on_read(path);
    let bytes = walkmesh_core::files::read(path).map_err(|e| RoomsError::Io {
        path: path.to_path_buf(),
        message: format!("cannot read {}: {e}", path.display()),
    })?;
    Archive::parse(&bytes).map_err(|e| RoomsError::Read(e.in_file(path)))
}

/// Reads the layout at `path` (a file or `archive.mod:member.lyt`), with its findings.
pub fn load_lyt(
    path: &Path,
    on_read: OnRead,
) -> Result<(Lyt, Vec<walkmesh_core::Diagnostic>), RoomsError> {
    on_read(path);
    let bytes = read_file_or_member(path).map_err(|error| RoomsError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    })?;
    read_lyt(&bytes).map_err(|e| RoomsError::Read(e.in_file(path)))
}

impl RoomSource {
    /// A folder (listed once) or a module archive (read whole).
    pub fn open(path: &Path, on_read: OnRead) -> Result<RoomSource, RoomsError> {
        if !path.is_dir() {
            return Ok(RoomSource::Archive(
                path.to_path_buf(),
                read_archive(path, on_read)?,
            ));
        }
        let entries = std::fs::read_dir(path).map_err(|e| RoomsError::Io {
            path: path.to_path_buf(),
            message: format!("cannot list {}: {e}", path.display()),
        })?;
        let mut files = HashMap::new();
        for entry in entries.flatten() {
            let p = entry.path();
            if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
                files.insert(name.to_ascii_lowercase(), p.clone());
            }
        }
        Ok(RoomSource::Folder(path.to_path_buf(), files))
    }

    /// The files the walkmeshes of `rooms` were read from (the archive, for an archive).
    pub fn files_of(&self, rooms: &[RoomMesh]) -> Vec<PathBuf> {
        match self {
            RoomSource::Folder(_, files) => rooms
                .iter()
                .filter_map(|room| files.get(&format!("{}.wok", room.name).to_ascii_lowercase()))
                .cloned()
                .collect(),
            RoomSource::Archive(path, _) => vec![path.clone()],
        }
    }

    /// The bytes of `<name>.<ext>` (case-insensitive), if the source has it.
    pub fn get(&self, file_name: &str, on_read: OnRead) -> Option<Vec<u8>> {
        match self {
            RoomSource::Folder(_, files) => {
                let path = files.get(&file_name.to_ascii_lowercase())?;
                on_read(path);
                walkmesh_core::files::read(path).ok()
            }
            RoomSource::Archive(_, archive) => archive.extract(file_name).map(<[u8]>::to_vec),
        }
    }

    /// The layout and the path that names it: `explicit`, else the single `.lyt` of the
    /// source (`folder/x.lyt`, `archive.mod:x.lyt`). `option` is how the caller names the
    /// layout in the message when there is no single one.
    pub fn layout(
        &self,
        explicit: Option<&Path>,
        option: &str,
        on_read: OnRead,
    ) -> Result<(Lyt, PathBuf), RoomsError> {
        if let Some(path) = explicit {
            return Ok((load_lyt(path, on_read)?.0, path.to_path_buf()));
        }
        let (found, label): (Vec<(String, Vec<u8>)>, &PathBuf) = match self {
            RoomSource::Folder(dir, files) => (
                files
                    .iter()
                    .filter(|(n, _)| n.ends_with(".lyt"))
                    .filter_map(|(n, p)| {
                        on_read(p);
                        Some((n.clone(), walkmesh_core::files::read(p).ok()?))
                    })
                    .collect(),
                dir,
            ),
            RoomSource::Archive(path, archive) => (
                archive
                    .of_type(3000)
                    .map(|m| (m.file_name(), archive.data(m).to_vec()))
                    .collect(),
                path,
            ),
        };
        let [(name, bytes)] = found.as_slice() else {
            return Err(RoomsError::Layout {
                source: label.clone(),
                found: found.len(),
                option: option.to_string(),
            });
        };
        let shown = match self {
            RoomSource::Folder(..) => label.join(name),
            RoomSource::Archive(..) => PathBuf::from(format!("{}:{name}", label.display())),
        };
        let (lyt, _) = read_lyt(bytes).map_err(|e| RoomsError::Read(e.in_file(&shown)))?;
        Ok((lyt, shown))
    }

    /// Reads the WOK of every layout room the source has (the placeholder room `****` has
    /// none); returns the rooms, their original bytes, and the names of rooms without a WOK.
    /// A layout naming one room twice is refused first (both would be the one `ROOM.wok`);
    /// `lyt_file` names the layout in that refusal.
    pub fn load_rooms(
        &self,
        lyt: &Lyt,
        lyt_file: &Path,
        on_read: OnRead,
    ) -> Result<LoadedRooms, RoomsError> {
        unique_rooms(lyt, lyt_file)?;
        let mut rooms = Vec::new();
        let mut originals = Vec::new();
        let mut missing = Vec::new();
        for (index, room) in lyt.rooms.iter().enumerate() {
            if room.name == PLACEHOLDER_ROOM {
                continue;
            }
            let file = format!("{}.wok", room.name);
            match self.get(&file, on_read) {
                Some(bytes) => {
                    let mesh = read_wok(&bytes).map_err(|error| RoomsError::Room {
                        file: file.clone(),
                        message: error.to_string(),
                    })?;
                    rooms.push(RoomMesh {
                        lyt_index: index,
                        name: room.name.clone(),
                        mesh,
                    });
                    originals.push(bytes);
                }
                None => missing.push(room.name.clone()),
            }
        }
        Ok((rooms, originals, missing))
    }
}

/// Reads nothing extra: for callers that do not record the files they read.
pub fn ignore_reads(_: &Path) {}

/// A room's WOK bytes as `area split`, `lint AREA --fix` and `generate --out-dir` write them:
/// an area walkmesh, prepared for the writer of the registry's KotOR room format
/// (`Registry::room_walkmesh`: BWM) and written.
pub fn write_room_wok(
    registry: &Registry,
    mesh: &NavMesh,
    diag: &mut Diagnostics,
) -> Result<Vec<u8>, RoomsError> {
    let failed = |message: String| RoomsError::Write { message };
    let options = WriteOptions {
        kind: Some(MeshKind::Area),
        ..WriteOptions::default()
    };
    let writer = registry
        .room_walkmesh(walkmesh_core::Engine::Kotor)
        .and_then(|format| format.writer())
        .ok_or_else(|| {
            failed("the registry has no format for KotOR rooms (BWM, cargo feature `bwm`)".into())
        })?;
    let prepared = walkmesh_core::passes::prepare(mesh, &writer.requirements(&options), diag);
    let written = writer
        .write(&prepared, &options, diag)
        .map_err(|e| failed(e.to_string()))?;
    Ok(written.main)
}

impl walkmesh_core::Kinded for RoomsError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            RoomsError::Io { .. } | RoomsError::Write { .. } => ErrorKind::Io,
            RoomsError::Read(error) => error.kind,
            RoomsError::Layout { .. } => ErrorKind::Parameter,
            RoomsError::Room { .. } | RoomsError::Repeated(_) => ErrorKind::Invalid,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    const LAYOUT: &str = "beginlayout\nroomcount 2\n  room_a 0 0 0\n  room_b 10 0 0\ndonelayout\n";

    fn folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        dir
    }

    /// Rooms are written in the registry's KotOR room format, found by what it is: an empty
    /// registry is refused with a message naming it; one holding BWM writes a WOK.
    #[test]
    fn a_room_is_written_in_the_registrys_kotor_room_format() {
        let mut mesh = NavMesh::default();
        mesh.vertices
            .extend([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        let stone = walkmesh_core::Surface {
            material: walkmesh_core::Material(4),
            walkable: true,
            code: 4,
        };
        mesh.push_polygon(&[0, 1, 2], stone);
        let refused = write_room_wok(&Registry::new(), &mesh, &mut Diagnostics::new());
        let message = refused.err().unwrap().to_string();
        assert!(message.contains("no format for KotOR rooms"), "{message}");
        let mut registry = Registry::new();
        registry.register(Box::new(walkmesh_bwm::BwmFormat));
        let wok = write_room_wok(&registry, &mesh, &mut Diagnostics::new()).unwrap();
        assert!(wok.starts_with(b"BWM V1.0"));
    }

    #[test]
    fn the_single_lyt_of_a_folder_is_the_layout() {
        let dir = folder(&[("Area.LYT", LAYOUT.as_bytes())]);
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let (lyt, shown) = source.layout(None, "--lyt", ignore_reads).unwrap();
        assert_eq!(lyt.rooms.len(), 2);
        // Names are matched case-insensitively and shown as listed (lower case).
        assert_eq!(shown, dir.path().join("area.lyt"));
    }

    #[test]
    fn no_lyt_or_several_is_an_error_naming_the_callers_option() {
        let dir = folder(&[]);
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let none = source.layout(None, "lyt=", ignore_reads).unwrap_err();
        assert_eq!(
            none.to_string(),
            format!("{} holds no .lyt; name one with lyt=", dir.path().display())
        );
        let dir = folder(&[("a.lyt", LAYOUT.as_bytes()), ("b.lyt", LAYOUT.as_bytes())]);
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let two = source.layout(None, "--lyt", ignore_reads).unwrap_err();
        assert!(matches!(two, RoomsError::Layout { found: 2, .. }));
        assert!(
            two.to_string()
                .ends_with("holds 2 .lyt files; name one with --lyt")
        );
        // A layout named explicitly wins over the files of the folder.
        let explicit = dir.path().join("a.lyt");
        let (lyt, shown) = source
            .layout(Some(&explicit), "--lyt", ignore_reads)
            .unwrap();
        assert_eq!((lyt.rooms.len(), shown), (2, explicit));
    }

    #[test]
    fn rooms_without_a_wok_are_listed_and_a_bad_wok_is_named() {
        let dir = folder(&[
            ("area.lyt", LAYOUT.as_bytes()),
            ("room_b.wok", b"not a wok"),
        ]);
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let (lyt, _) = source.layout(None, "--lyt", ignore_reads).unwrap();
        let error = source
            .load_rooms(&lyt, Path::new("area.lyt"), ignore_reads)
            .unwrap_err();
        assert!(
            matches!(&error, RoomsError::Room { file, .. } if file == "room_b.wok"),
            "{error:?}"
        );
        std::fs::remove_file(dir.path().join("room_b.wok")).unwrap();
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let (rooms, originals, missing) = source
            .load_rooms(&lyt, Path::new("area.lyt"), ignore_reads)
            .unwrap();
        assert!(rooms.is_empty() && originals.is_empty());
        assert_eq!(missing, ["room_a", "room_b"]);
    }

    #[test]
    fn a_layout_naming_a_room_twice_reads_no_room() {
        let twice = "beginlayout\nroomcount 2\n  room_a 0 0 0\n  ROOM_A 10 0 0\ndonelayout\n";
        let dir = folder(&[("area.lyt", twice.as_bytes()), ("room_a.wok", b"not a wok")]);
        let source = RoomSource::open(dir.path(), ignore_reads).unwrap();
        let (lyt, shown) = source.layout(None, "--lyt", ignore_reads).unwrap();
        let error = source.load_rooms(&lyt, &shown, ignore_reads).unwrap_err();
        let RoomsError::Repeated(repeated) = &error else {
            panic!("{error:?}")
        };
        assert_eq!((repeated.first.2, repeated.second.2), (Some(3), Some(4)));
        assert!(error.to_string().contains("lines 3 and 4"), "{error}");
    }

    #[test]
    fn a_file_that_is_not_an_archive_is_a_read_error_in_that_file() {
        let dir = folder(&[("area.mod", b"nothing like an archive")]);
        let path = dir.path().join("area.mod");
        let error = RoomSource::open(&path, ignore_reads).unwrap_err();
        let RoomsError::Read(read) = error else {
            panic!("{error:?}")
        };
        assert_eq!(read.file.as_deref(), Some(path.as_path()));
    }
}
