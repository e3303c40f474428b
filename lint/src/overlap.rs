//! `lint.overlap`: walkable faces overlapping in plan at the same height. Two floors stacked
//! metres apart are fine (a bridge over a road); two at one height make height lookups and
//! adjacency ambiguous, and a face stored twice (the baker's "duplicated triangles around
//! placeables") is the commonest case.
//!
//! Faces are filed in a plan grid whose cells are twice the median face size; each pair of
//! faces whose boxes meet is tested once, in the cell holding the low corner of the boxes'
//! intersection.

use walkmesh_core::passes::polygon_area;

use crate::geometry::{centroid, clip_convex, plan_box, plan_ring, plane_height, signed_area};
use crate::grid::Grid;
use crate::{Context, Finding, OVERLAP};

/// Overlaps smaller than this share of the smaller face (or than 1 cm²) are rounding along a
/// shared edge, not an overlap.
const MIN_OVERLAP_SHARE: f64 = 0.01;
const MIN_OVERLAP_AREA: f64 = 1e-4;
/// A pair overlapping on this share of both faces is a duplicate.
const DUPLICATE_SHARE: f64 = 0.99;

/// A face and its plan box (min, max).
type FaceBox = (u32, [f32; 2], [f32; 2]);

/// Plan boxes of the walkable faces, and a cell size from their median extent.
fn walkable_boxes(context: &Context<'_>) -> (Vec<FaceBox>, f64) {
    let mesh = context.mesh;
    // Later copies of a face are reported in their group (`copies`), not pair by pair.
    let boxes: Vec<FaceBox> = (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p) && !context.is_copy(p))
        .map(|p| {
            let (min, max) = plan_box(mesh, p);
            (p as u32, min, max)
        })
        .filter(|(_, min, max)| min.iter().chain(max).all(|c| c.is_finite()))
        .collect();
    let mut extents: Vec<f32> = boxes
        .iter()
        .map(|(_, min, max)| (max[0] - min[0]).max(max[1] - min[1]))
        .collect();
    let middle = extents.len() / 2;
    let median = if extents.is_empty() {
        1.0
    } else {
        *extents.select_nth_unstable_by(middle, f32::total_cmp).1
    };
    (boxes, f64::from(median.max(1e-3)) * 2.0)
}

/// One finding per face stored more than once (same corners, same room): the first face and
/// every later copy, which `--fix` removes. Linear in the copies.
fn copies(context: &Context<'_>, findings: &mut Vec<Finding>) {
    let mut groups: rustc_hash::FxHashMap<u32, Vec<u32>> = Default::default();
    for (face, &first) in context.copy_of.iter().enumerate() {
        if first != u32::MAX {
            groups
                .entry(first)
                .or_insert_with(|| vec![first])
                .push(face as u32);
        }
    }
    let mut groups: Vec<Vec<u32>> = groups.into_values().collect();
    groups.sort_unstable();
    for faces in groups {
        let (Some(&first), Some(&second)) = (faces.first(), faces.get(1)) else {
            continue;
        };
        let mesh = context.mesh;
        let area = polygon_area(mesh, first as usize);
        let later = faces.len() - 1;
        let message = if later == 1 {
            format!(
                "walkable face {second} duplicates face {first} (same place, {area:.3} m²); the later one is redundant"
            )
        } else {
            format!(
                "walkable face {first} is stored {later} more times (faces {second}, …; same place, {area:.3} m²); the later copies are redundant"
            )
        };
        findings.push(Finding::warning(
            OVERLAP,
            faces,
            centroid(mesh, first as usize),
            message,
            true,
        ));
    }
}

/// Grid levels: level `k` has cells `base · 2^k` wide, and a face is filed at the smallest
/// level whose cells are at least its plan extent, so it touches at most 2 × 2 cells there.
const MIN_LEVEL: i32 = -40;
const MAX_LEVEL: i32 = 40;

/// The level of a face of plan extent `extent` (see [`MIN_LEVEL`]).
fn level_of(extent: f64, base: f64) -> i32 {
    let k = (extent / base).log2().ceil();
    if k.is_nan() {
        MIN_LEVEL
    } else {
        // Saturating: -inf (a point) is the lowest level, +inf the highest.
        (k.clamp(f64::from(MIN_LEVEL), f64::from(MAX_LEVEL))) as i32
    }
}

pub fn overlaps(context: &Context<'_>, findings: &mut Vec<Finding>) {
    copies(context, findings);
    let (boxes, base) = walkable_boxes(context);
    // One grid per size level, so that faces far smaller than the median crowded into one
    // median-sized cell (or far larger ones) do not meet every face of that cell: a face
    // looks for partners at its own level and above; smaller partners find it from theirs.
    let mut levels: std::collections::BTreeMap<i32, Grid> = Default::default();
    let mut level_of_slot = Vec::with_capacity(boxes.len());
    // Faces too large to file cell by cell (beyond the top level) are compared with every
    // face instead.
    let mut large: Vec<u32> = Vec::new();
    for (slot, (_, min, max)) in boxes.iter().enumerate() {
        let extent = f64::from((max[0] - min[0]).max(max[1] - min[1]));
        let level = level_of(extent, base);
        level_of_slot.push(level);
        let grid = levels
            .entry(level)
            .or_insert_with(|| Grid::new(base * 2f64.powi(level)));
        if !grid.insert_box(slot as u32, *min, *max) {
            large.push(slot as u32);
        }
    }
    let large_set: rustc_hash::FxHashSet<u32> = large.iter().copied().collect();
    for (slot, &(face, min, max)) in boxes.iter().enumerate() {
        let mut candidates: Vec<u32> = Vec::new();
        if large_set.contains(&(slot as u32)) {
            candidates.extend((slot as u32 + 1)..boxes.len() as u32);
        } else {
            let own = level_of_slot.get(slot).copied().unwrap_or(MIN_LEVEL);
            for (&level, grid) in levels.range(own..) {
                grid.visit_box(min, max, |other| {
                    if level > own || other as usize > slot {
                        candidates.push(other);
                    }
                });
            }
            candidates.extend(large.iter().filter(|&&other| other as usize > slot));
        }
        candidates.sort_unstable();
        candidates.dedup();
        for other in candidates {
            let Some(&(other_face, other_min, other_max)) = boxes.get(other as usize) else {
                continue;
            };
            let low = [min[0].max(other_min[0]), min[1].max(other_min[1])];
            let high = [max[0].min(other_max[0]), max[1].min(other_max[1])];
            if low[0] > high[0] || low[1] > high[1] {
                continue;
            }
            // Each pair once, as faces (lower, higher): a partner from a higher level may
            // come before this face in file order.
            let (a, b) = (face.min(other_face), face.max(other_face));
            if let Some(finding) = overlap_of(context, a as usize, b as usize) {
                findings.push(finding);
            }
        }
    }
}

/// The finding for faces `a` < `b` when they overlap at the same height.
fn overlap_of(context: &Context<'_>, a: usize, b: usize) -> Option<Finding> {
    let mesh = context.mesh;
    let shared = plan_ring(mesh, a);
    let clipped = clip_convex(&plan_ring(mesh, b), &shared);
    if clipped.len() < 3 {
        return None;
    }
    let overlap = signed_area(&clipped).abs();
    let (area_a, area_b) = (polygon_area(mesh, a), polygon_area(mesh, b));
    let (plan_a, plan_b) = (
        signed_area(&plan_ring(mesh, a)).abs(),
        signed_area(&plan_ring(mesh, b)).abs(),
    );
    if overlap < MIN_OVERLAP_AREA || overlap < MIN_OVERLAP_SHARE * plan_a.min(plan_b) {
        return None;
    }
    let n = clipped.len() as f64;
    let (cx, cy) = (
        clipped.iter().map(|p| p[0]).sum::<f64>() / n,
        clipped.iter().map(|p| p[1]).sum::<f64>() / n,
    );
    let (za, zb) = (
        plane_height(mesh, a, cx, cy)?,
        plane_height(mesh, b, cx, cy)?,
    );
    if (za - zb).abs() > f64::from(context.options.overlap_height) {
        return None;
    }
    let duplicate = overlap >= DUPLICATE_SHARE * plan_a.max(plan_b)
        && (area_a - area_b).abs() <= (1.0 - DUPLICATE_SHARE) * area_a.max(area_b);
    // An area's rooms are separate files repaired one at a time: a copy in another room is
    // for the author to remove from whichever room should not hold it.
    let (room_a, room_b) = (context.room(a as u32), context.room(b as u32));
    let fixable = duplicate && room_a == room_b;
    let message = if duplicate && !fixable {
        format!(
            "walkable face {b} (room {room_b}) duplicates face {a} (room {room_a}) (same place, {overlap:.3} m² in plan); one room's copy is redundant, which one is for the author to say"
        )
    } else if duplicate {
        format!(
            "walkable face {b} duplicates face {a} (same place, {overlap:.3} m² in plan); the later one is redundant"
        )
    } else {
        format!(
            "walkable faces {a} and {b} overlap by {overlap:.3} m² in plan at heights {za:.2} and {zb:.2}"
        )
    };
    let mut at = centroid(mesh, b);
    at[0] = cx as f32;
    at[1] = cy as f32;
    at[2] = ((za + zb) / 2.0) as f32;
    Some(Finding::warning(
        OVERLAP,
        vec![a as u32, b as u32],
        at,
        message,
        fixable,
    ))
}
