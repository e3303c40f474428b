//! The answer of `walkmesh route` as the CLI's `--json` and Python's dict give it.

use serde::Serialize;

use crate::surface::{Point, Route};

/// A face the route passes: its index in the file, or in a KotOR area the room and the
/// face's index in that room's walkmesh.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum FaceRef {
    Index(u32),
    Room { room: String, face: u32 },
}

/// One route answer: `{"reachable", "method", "points", "faces", "length", "warnings"}`.
/// `length` is `null` when the end cannot be reached.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouteReport {
    pub reachable: bool,
    pub method: String,
    pub points: Vec<Point>,
    pub faces: Vec<FaceRef>,
    pub length: Option<f64>,
    /// Anything the method noticed on the way (stale tables, engine limits exceeded).
    pub warnings: Vec<String>,
}

impl RouteReport {
    /// The report of a surface route over one mesh.
    pub fn from_surface(route: &Route) -> RouteReport {
        RouteReport {
            reachable: route.reachable,
            method: "surface".to_string(),
            points: route.points.clone(),
            faces: route.faces.iter().map(|&f| FaceRef::Index(f)).collect(),
            length: route.reachable.then_some(route.length),
            warnings: Vec::new(),
        }
    }
}
