//! What an object's walkmesh is and what making it did (`placeable.rs` makes it): the kind,
//! where its use points came from, and the report's `object` entry. A module of its own so
//! that the report (`report.rs`) names these types without reaching into the generator.

use serde::Serialize;
use walkmesh_core::MeshKind;

/// How far in front of the footprint's front the use points are placed (m): the distance of
/// `plc_fccage2.pwk`'s use points from its footprint (0.38 and 0.43 m).
pub const USE_DISTANCE: f64 = 0.4;

/// Node names the text report shows (`--json` has them all).
const NODES_SHOWN: usize = 12;

/// Which object the walkmesh is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    Placeable,
    Door,
}

impl ObjectKind {
    /// The mesh kind the BWM writer writes as PWK or DWK.
    pub fn mesh_kind(self) -> MeshKind {
        match self {
            ObjectKind::Placeable => MeshKind::Placeable,
            ObjectKind::Door => MeshKind::Door,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Placeable => "placeable",
            ObjectKind::Door => "door",
        }
    }

    /// `placeable` or `door` (ASCII case ignored).
    pub fn from_name(name: &str) -> Option<ObjectKind> {
        match name.to_ascii_lowercase().as_str() {
            "placeable" => Some(ObjectKind::Placeable),
            "door" => Some(ObjectKind::Door),
            _ => None,
        }
    }
}

/// Where the use points came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UsePoints {
    /// The input's `use1`/`use2` points (a model's dummy nodes).
    Model,
    /// Placed in front of the footprint's front (−Y).
    Front,
}

/// What the object generation did (the report's `object`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ObjectReport {
    pub kind: ObjectKind,
    /// Height of the ground the object stands on (module documentation, step 1).
    pub ground: f32,
    /// Plan area of the non-walkable footprint (m²).
    pub blocked_area: f64,
    /// Plan area of the walkable tops (m²).
    pub walkable_top_area: f64,
    /// Plan bounds of the footprint (blocked and tops): min x, min y, max x, max y.
    pub bounds: [f32; 4],
    pub use_points: UsePoints,
    /// Names of the model nodes whose faces stand within the agent's height (the faces that
    /// made the footprint), when the input names its nodes.
    pub nodes: Vec<String>,
}

impl ObjectReport {
    pub(crate) fn text(&self) -> String {
        let from = match self.use_points {
            UsePoints::Model => "the model's use1/use2 points".to_string(),
            UsePoints::Front => format!("placed {USE_DISTANCE} m in front of the front (−Y) side"),
        };
        let mut text = format!(
            "  {}: ground at z = {:.3}, {:.2} m² blocked, {:.2} m² walkable top, footprint x {:.2}..{:.2}, y {:.2}..{:.2}; use points {from}\n",
            self.kind.name(),
            self.ground,
            self.blocked_area,
            self.walkable_top_area,
            self.bounds[0],
            self.bounds[2],
            self.bounds[1],
            self.bounds[3],
        );
        if !self.nodes.is_empty() {
            let shown: Vec<&str> = self
                .nodes
                .iter()
                .take(NODES_SHOWN)
                .map(String::as_str)
                .collect();
            let more = self.nodes.len().saturating_sub(NODES_SHOWN);
            let rest = if more > 0 {
                format!(" and {more} more (--json lists all)")
            } else {
                String::new()
            };
            text.push_str(&format!("  model nodes used: {}{rest}\n", shown.join(", ")));
        }
        text
    }
}
