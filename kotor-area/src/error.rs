//! The error of the library functions that read, write and cut up areas, kits and archives
//! ([`AreaError`]): its variant says what kind of failure it is, its text is the sentence the
//! CLI prints.

use std::path::PathBuf;

use walkmesh_core::confine::UnsafeName;
use walkmesh_core::{MeshCheckError, ReadError, WriteError};

/// Why an area, kit or archive function failed.
#[derive(Debug, thiserror::Error)]
pub enum AreaError {
    /// A file or folder could not be read or listed (`action`: "read", "list", "read the
    /// archive").
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// JSON that is not what was expected (`what`: "a kit JSON", "an Indoor Map Builder map").
    #[error("not {what}: {source}")]
    Json {
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
    /// Text that is not base64 at character `index`.
    #[error("character {index} ('{character}') is not base64")]
    Base64 { index: usize, character: char },
    /// An archive member name without a resource type extension we know.
    #[error("'{file_name}' has no known resource type extension (.wok, .lyt, .vis, …)")]
    UnknownResourceType { file_name: String },
    /// An archive member name that is not a ResRef.
    #[error("'{name}' is not a ResRef (1 to {max} ASCII characters)")]
    NotAResRef { name: String, max: usize },
    /// A count, size or offset beyond what the archive's 32-bit fields hold.
    #[error("{what} ({value}) does not fit in 32 bits")]
    Limit { what: &'static str, value: usize },
    /// `archive.mod:member` names a member the archive does not have.
    #[error(
        "{archive} has no member {member} ({count} members; `walkmesh area list {archive}` lists them)"
    )]
    NoMember {
        archive: String,
        member: String,
        count: usize,
    },
    /// A face whose `area:room` value is not a room of the layout.
    #[error("face {face} belongs to room {room}, but the layout has {rooms} rooms")]
    RoomOutOfRange {
        face: usize,
        room: i64,
        rooms: usize,
    },
    /// A face of an OBJ read back that is in no group.
    #[error("face {face} is in no group")]
    NoGroup { face: usize },
    /// A face whose OBJ group is not named after a room of the layout.
    #[error("face {face} is in group '{group}', which is not a room of the layout")]
    UnknownGroup { face: usize, group: String },
    /// A layout naming one room twice (ignoring ASCII case): one file for two rooms.
    #[error(transparent)]
    Repeated(Box<crate::placed::RepeatedRoom>),
    /// A mesh without room information to split it by.
    // The column is `assemble::ROOM_COLUMN`, spelt out so that this module needs no other
    // (a test in `assemble` checks the two agree).
    #[error(
        "the mesh's {faces} faces carry no room: neither an 'area:room' column nor OBJ groups named after the layout's rooms"
    )]
    NoRooms { faces: usize },
    /// A kit named by a map that is not loaded.
    #[error("kit '{kit}' was not found")]
    KitNotFound { kit: String },
    /// A component named by a map that its kit does not have.
    #[error("kit '{kit}' has no component '{component}'")]
    ComponentNotFound { kit: String, component: String },
    /// A name from file data that cannot be a file name.
    #[error(transparent)]
    UnsafeName(#[from] UnsafeName),
    /// A mesh that breaks the IR's invariants.
    #[error(transparent)]
    Mesh(#[from] MeshCheckError),
    /// A file (WOK, archive) that could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A room that could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// This build leaves the BWM format out (cargo feature `bwm`).
    #[error(
        "KotOR rooms are BWM walkmeshes, and this build leaves the BWM format out (cargo feature `bwm`)"
    )]
    BwmLeftOut,
}

impl From<crate::placed::RepeatedRoom> for AreaError {
    fn from(error: crate::placed::RepeatedRoom) -> Self {
        AreaError::Repeated(Box::new(error))
    }
}

impl walkmesh_core::Kinded for AreaError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            AreaError::Io { .. } => ErrorKind::Io,
            AreaError::Json { source, .. } => source.kind(),
            AreaError::Limit { .. } => ErrorKind::Limit,
            AreaError::NoMember { .. }
            | AreaError::KitNotFound { .. }
            | AreaError::ComponentNotFound { .. } => ErrorKind::Parameter,
            AreaError::UnknownResourceType { .. } | AreaError::BwmLeftOut => ErrorKind::Unsupported,
            AreaError::Base64 { .. }
            | AreaError::NotAResRef { .. }
            | AreaError::RoomOutOfRange { .. }
            | AreaError::NoGroup { .. }
            | AreaError::UnknownGroup { .. }
            | AreaError::Repeated(_)
            | AreaError::NoRooms { .. } => ErrorKind::Invalid,
            AreaError::UnsafeName(error) => error.kind(),
            AreaError::Mesh(error) => error.kind(),
            AreaError::Read(error) => error.kind,
            AreaError::Write(error) => error.kind,
        }
    }
}
