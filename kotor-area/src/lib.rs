//! walkmesh-kotor-area: KotOR areas, the rooms of a module taken together.
//!
//! - [`lyt`] and [`vis`]: the layout and visibility text files, read and written back byte for
//!   byte while unchanged, canonical once changed, with checks;
//! - [`contents`]: an archive's kind and its walkmesh, layout and visibility members;
//! - [`erf`]: module archives (ERF family `.mod`/`.erf`/`.sav`/`.hak`, and `.rim`): list,
//!   extract, replace or add members;
//! - [`transitions`]: room-to-room transitions solved from geometry, with findings;
//! - [`assemble`]: a whole area as one mesh (faces tagged with their room) and back to rooms;
//! - [`rooms`]: an area's rooms from a folder or archive, with its layout (the single `.lyt`
//!   rule), for the CLI and the Python package;
//! - [`placed`]: rooms placed by a layout, checked before anything is written for them (one
//!   name per room file; positions 32-bit floats hold to 1 mm);
//! - [`solved`]: the files `area solve` writes back (rooms whose transitions changed);
//! - [`kits`]: Holocron Toolset kits and Indoor Map Builder `.indoor` maps built into rooms.
//!
//! A capability crate on top of `walkmesh-core` and `walkmesh-bwm`; the CLI's `area` commands
//! are thin wrappers around it.

pub mod assemble;
pub mod contents;
pub mod erf;
pub mod error;
pub mod extract;
pub mod kits;
pub mod lyt;
pub mod placed;
pub mod rooms;
pub mod solved;
pub mod text;
pub mod transitions;
pub mod vis;

pub use erf::{Archive, ArchiveKind, Member};
pub use error::AreaError;
pub use lyt::{DoorHook, Lyt, Placement, read_lyt, write_lyt};
pub use rooms::{RoomSource, RoomsError};
pub use transitions::{DEFAULT_TOLERANCE, RoomMesh, Solution, Tolerance, solve};
pub use vis::{Vis, VisRoom, read_vis, write_vis};

/// Why a room cannot be read or written in a build without the BWM format.
#[cfg(not(feature = "bwm"))]
pub const BWM_LEFT_OUT: &str = "KotOR rooms are BWM walkmeshes, and this build leaves the BWM \
     format out (cargo feature `bwm`)";
