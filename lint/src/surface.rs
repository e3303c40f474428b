//! Checks of one face at a time: facing, slope, degeneracy; and edges shared by too many
//! walkable faces.

use walkmesh_core::passes::{polygon_area, polygon_normal};

use crate::geometry::{centroid, distance};
use crate::{Context, DEGENERATE, DOWNWARD_WALKABLE, Finding, NON_MANIFOLD, STEEP_WALKABLE};

/// `lint.downward_walkable` and `lint.steep_walkable`. A downward face is reported as such
/// only (flipping it may also make it a floor); a steep one whichever way it faces otherwise.
/// A degenerate face is neither: the normal of a needle is rounding noise (KotOR rooms hold
/// 0.6 mm-wide "walls" that would otherwise read as 90° floors).
pub fn downward_and_steep(context: &Context<'_>, findings: &mut Vec<Finding>) {
    let mesh = context.mesh;
    let engine = context.options.engine;
    for face in 0..mesh.polygons.len() {
        if !mesh.is_walkable(face) {
            continue;
        }
        let normal = polygon_normal(mesh, face);
        if normal == [0.0; 3] || degeneracy(context, face).is_some() {
            continue; // reported by `degenerate`
        }
        let at = centroid(mesh, face);
        if normal[2] < 0.0 && !engine.is_steep(normal) {
            findings.push(Finding::warning(
                DOWNWARD_WALKABLE,
                vec![face as u32],
                at,
                format!(
                    "walkable face {face} faces down (normal z {:.3}): height lookups that expect floors facing up miss it",
                    normal[2]
                ),
                true,
            ));
        } else if engine.is_steep(normal) {
            let slope = f64::from(normal[2].abs())
                .clamp(-1.0, 1.0)
                .acos()
                .to_degrees();
            findings.push(Finding::warning(
                STEEP_WALKABLE,
                vec![face as u32],
                at,
                format!(
                    "walkable face {face} slopes {slope:.1}°, steeper than the {}° {} walks",
                    engine.max_walk_slope_degrees(),
                    engine.name()
                ),
                false,
            ));
        }
    }
}

/// Longest edge of a face.
fn longest_edge(context: &Context<'_>, face: usize) -> f32 {
    let corners = context.mesh.polygons.get(face);
    (0..corners.len())
        .map(|i| {
            let a = context.mesh.vertex(corners[i]);
            let b = context.mesh.vertex(corners[(i + 1) % corners.len()]);
            distance(a, b)
        })
        .fold(0.0, f32::max)
}

/// Why a face is degenerate, if it is: a corner repeated, no area, or an altitude (twice the
/// area over the longest edge) below the needle height.
pub fn degeneracy(context: &Context<'_>, face: usize) -> Option<String> {
    let corners = context.mesh.polygons.get(face);
    let mut sorted = corners.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Some(format!("face {face} uses a vertex twice"));
    }
    let area = polygon_area(context.mesh, face);
    let longest = f64::from(longest_edge(context, face));
    if area <= 1e-9 || longest <= 0.0 {
        return Some(format!("face {face} has no area"));
    }
    let altitude = 2.0 * area / longest;
    if altitude < f64::from(context.options.needle_height) {
        return Some(format!(
            "face {face} is a needle: {longest:.3} long but {altitude:.5} wide"
        ));
    }
    None
}

/// `lint.degenerate`, walkable or not (degenerate faces fail exporters either way).
pub fn degenerate(context: &Context<'_>, findings: &mut Vec<Finding>) {
    for face in 0..context.mesh.polygons.len() {
        if let Some(why) = degeneracy(context, face) {
            findings.push(Finding::warning(
                DEGENERATE,
                vec![face as u32],
                centroid(context.mesh, face),
                why,
                true,
            ));
        }
    }
}

/// Most faces a message names.
const MAX_FACES_NAMED: usize = 16;

/// `lint.non_manifold`: a walkable edge that three or more walkable faces share.
pub fn non_manifold(context: &Context<'_>, findings: &mut Vec<Finding>) {
    for edge in &context.adjacency.non_manifold {
        let [a, b] = edge.vertices.map(|v| context.mesh.vertex(v));
        let mut faces: Vec<u32> = edge.edges.iter().map(|e| e.polygon).collect();
        faces.sort_unstable();
        faces.dedup();
        // The message names a few faces (the finding lists them all): a face stored 100,000
        // times would otherwise make a line of megabytes.
        let shown = faces
            .get(..faces.len().min(MAX_FACES_NAMED))
            .unwrap_or(&faces);
        let more = if faces.len() > shown.len() {
            format!(" and {} more", faces.len() - shown.len())
        } else {
            String::new()
        };
        findings.push(Finding::warning(
            NON_MANIFOLD,
            faces.clone(),
            crate::geometry::midpoint(a, b),
            format!(
                "the edge between vertices {} and {} is shared by {} walkable faces ({shown:?}{more}); adjacency links at most two",
                edge.vertices[0],
                edge.vertices[1],
                edge.edges.len()
            ),
            false,
        ));
    }
}
