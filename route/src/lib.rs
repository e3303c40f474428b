//! Routes and reachability on walkmeshes.
//!
//! - [`surface`]: the geometric route over the walkable surface of any mesh (A* over faces
//!   through shared edges, then the funnel), the `--method surface` answer.
//! - [`kotor`]: KotOR's links: room adjacency and transitions between the rooms of an area.
//! - [`nwn2`]: NWN2's stored path and island tables.
//! - [`prime`]: Metroid Prime PATH region queries and the region graph.
//! - [`query`]: one query with the method chosen as the CLI and Python choose it.
//! - [`diff`]: reachability compared between two meshes on sampled point pairs.
//! - [`reach`]: connected walkable components and what a start point reaches.
//! - [`report`]: the answers as the CLI's `--json` and the Python dicts give them.
//! - `fixtures` (feature `testing`): hand-built floors for tests and benches.

pub mod diff;
pub mod error;
#[cfg(any(test, feature = "testing"))]
pub mod fixtures;
pub mod kotor;
#[cfg(feature = "nwn2")]
pub mod nwn2;
#[cfg(feature = "prime")]
pub mod prime;
pub mod query;
mod queue;
pub mod reach;
pub mod report;
pub mod surface;

pub use error::{RouteError, TableInconsistency};
pub use reach::{Reach, reach};
pub use report::{FaceRef, RouteReport};
pub use surface::{LocateError, Route, SurfaceRouter};
