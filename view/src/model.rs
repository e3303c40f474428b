//! `view WALKMESH --model MODEL`: the render geometry the walkmesh was compared with, drawn
//! faintly under it, and the comparison's findings (`walkmesh lint --model`) as a face layer
//! and a list whose entries select their faces.

use serde::Serialize;
use serde_json::{Value, json};
use walkmesh_core::NavMesh;

use crate::layers::FaceLayer;

/// One finding of the comparison, as the page shows it (faces in the walkmesh's numbering).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ViewFinding {
    pub code: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// `default` or `pedantic`.
    pub level: String,
    pub message: String,
    pub faces: Vec<u32>,
    pub at: Option<[f32; 3]>,
}

/// The model drawn with the first mesh: its render geometry (placed where the comparison put
/// it: `shift` added) and the findings on the first mesh's faces.
#[derive(Clone, Copy, Debug)]
pub struct ModelOverlay<'a> {
    /// The model's name (its files), shown on the page.
    pub name: &'a str,
    pub render: &'a NavMesh,
    pub shift: [f32; 3],
    pub findings: &'a [ViewFinding],
}

/// The name of the face layer of the findings.
pub const FINDINGS_LAYER: &str = "model findings";

const DEFAULT_FINDING: [u8; 3] = [214, 48, 49];
const PEDANTIC_FINDING: [u8; 3] = [240, 165, 60];
const NO_FINDING: [u8; 3] = [205, 205, 198];

/// Every face of a mesh of `faces` faces coloured by the findings on it: a default-level one
/// over a pedantic one over none.
pub fn findings_layer(faces: usize, findings: &[ViewFinding]) -> FaceLayer {
    let mut colours = vec![NO_FINDING; faces];
    for pedantic_first in [true, false] {
        for finding in findings
            .iter()
            .filter(|f| (f.level == "pedantic") == pedantic_first)
        {
            let colour = if pedantic_first {
                PEDANTIC_FINDING
            } else {
                DEFAULT_FINDING
            };
            for &face in &finding.faces {
                if let Some(slot) = colours.get_mut(face as usize) {
                    *slot = colour;
                }
            }
        }
    }
    FaceLayer {
        name: FINDINGS_LAYER,
        colours,
        legend: vec![
            (DEFAULT_FINDING, "a finding at the default level".into()),
            (PEDANTIC_FINDING, "a pedantic finding only".into()),
            (NO_FINDING, "no finding".into()),
        ],
    }
}

/// The page's `model` entry: the render triangles' corners (nine floats a triangle, shifted)
/// and the findings.
pub(crate) fn model_json(overlay: &ModelOverlay<'_>) -> Value {
    let [dx, dy, dz] = overlay.shift;
    let mut corners = Vec::new();
    for polygon in overlay.render.polygons.iter() {
        let Some((&first, rest)) = polygon.split_first() else {
            continue;
        };
        for pair in rest.windows(2) {
            let [second, third] = pair else { continue };
            for index in [first, *second, *third] {
                let [x, y, z] = overlay.render.vertex(index);
                corners.extend([x + dx, y + dy, z + dz]);
            }
        }
    }
    json!({
        "name": overlay.name,
        "triangles": crate::f32s(corners),
        "findings": overlay.findings,
    })
}
