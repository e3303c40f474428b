//! Routes and reachability on walkmeshes.
//!
//! - [`surface`]: the geometric route over the walkable surface of any mesh (A* over faces
//!   through shared edges, then the funnel), the `--method surface` answer.

pub mod surface;

pub use surface::{LocateError, Route, SurfaceRouter};

pub mod fixtures;
