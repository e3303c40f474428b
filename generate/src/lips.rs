//! Raised lips at a ledge: a narrow band of floor that tilts up to the edge of a drop is the
//! kerb of the ledge, not floor.
//!
//! Nar Shaddaa's walkways (K2's 351nar* rooms) end in a lip: the floor rises 0.1 m over 0.66 m
//! (8° to 14°) to an edge from which the render surface falls 0.5 m into a gutter by the wall.
//! BioWare's walkmeshes end where the level floor meets the lip, all round every walkway; the
//! slope rule alone makes the lip walkable and keeps it (15 % of those rooms' generated floor
//! beyond BioWare's). What marks a lip is its shape: tilted (steeper than 3°), rising no more
//! than a climb, no deeper than [`MAX_LIP_DEPTH`] in plan from its top edge, and that top edge
//! shared with a face falling more than a climb below it. A ramp rises to level floor, a
//! cambered bridge falls towards its edges, and a hillside is deeper than a lip; none of them
//! is touched. A lip made of several faces (a quad split in two) is taken out whole: faces in
//! one plane with a lip face, sharing an edge with it.

use std::collections::HashMap;

use crate::budget::Budget;
use crate::floor::{Triangle, unit_normal};
use crate::{GenerateError, Params};

/// cos 3°: a face flatter than this is level floor, never a lip.
const LEVEL_UP: f32 = 0.998_629_5;

/// How far in plan a lip may reach back from its top edge (m).
pub const MAX_LIP_DEPTH: f32 = 1.0;

/// cos 2°: faces whose normals differ by less lie in one plane.
const SAME_PLANE: f32 = 0.999_390_8;

/// A point to the millimetre; `None` beyond ±2,000 km (no key, no lip).
type PointKey = [i32; 3];

fn point_key(p: [f32; 3]) -> Option<PointKey> {
    let mut key = [0i32; 3];
    for (slot, c) in key.iter_mut().zip(p) {
        let mm = (f64::from(c) * 1000.0).round();
        if !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&mm) {
            return None;
        }
        *slot = mm as i32;
    }
    Some(key)
}

/// An edge by its ordered end points.
type EdgeKey = [PointKey; 2];

fn edge_key(a: [f32; 3], b: [f32; 3]) -> Option<EdgeKey> {
    let mut edge = [point_key(a)?, point_key(b)?];
    edge.sort_unstable();
    Some(edge)
}

fn edges(t: &Triangle) -> [Option<EdgeKey>; 3] {
    let [a, b, c] = t.corners;
    [edge_key(a, b), edge_key(b, c), edge_key(c, a)]
}

/// A tilted walkable face that may be a lip: its top edge (the two corners at its highest,
/// within a centimetre) and that edge's height.
struct Candidate {
    face: usize,
    top: EdgeKey,
    height: f32,
}

/// The top edge `t` may be the lip of (see the module), with its height. A level face is
/// never a lip: a level band beside a drop, even a kerb a step above the floor, is walked in
/// BioWare's K1 rooms (taking such kerbs out cost the 34 K1 rooms 0.930 → 0.928 for 0.001 on
/// K2).
fn lip_edge(t: &Triangle, max_climb: f32) -> Option<(EdgeKey, f32)> {
    let normal = unit_normal(&t.corners)?;
    if !t.walkable || normal[2] >= LEVEL_UP {
        return None;
    }
    let heights = t.corners.map(|c| c[2]);
    let high = heights.iter().copied().fold(f32::MIN, f32::max);
    let low = heights.iter().copied().fold(f32::MAX, f32::min);
    if high - low > max_climb {
        return None;
    }
    let [a, b, c] = t.corners;
    let at_top = |p: [f32; 3]| high - p[2] <= 0.01;
    let (pa, pb, opposite) = match (at_top(a), at_top(b), at_top(c)) {
        (true, true, false) => (a, b, c),
        (false, true, true) => (b, c, a),
        (true, false, true) => (c, a, b),
        _ => return None,
    };
    if plan_distance_to_line(opposite, pa, pb)? > MAX_LIP_DEPTH {
        return None;
    }
    Some((edge_key(pa, pb)?, high))
}

/// Plan distance from `p` to the line through `a` and `b`; `None` for a point-like edge.
fn plan_distance_to_line(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> Option<f32> {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1e-4 {
        return None;
    }
    Some(((p[0] - a[0]) * dy - (p[1] - a[1]) * dx).abs() / length)
}

/// Marks every lip face (`Triangle::lip`); returns how many. The faces of the lips' shape are
/// counted first and their edges claimed from `budget` (a lookup of a few bytes each).
pub fn remove_lips(
    triangles: &mut [Triangle],
    params: &Params,
    budget: &mut Budget,
) -> Result<usize, GenerateError> {
    let count = triangles
        .iter()
        .filter(|t| lip_edge(t, params.max_climb).is_some())
        .count();
    if count == 0 {
        return Ok(0);
    }
    let per_candidate =
        (std::mem::size_of::<Candidate>() + 2 * std::mem::size_of::<EdgeKey>()) as u64 + 16;
    budget.claim("the ledge lips", count as u64 * per_candidate * 2)?;
    let candidates: Vec<Candidate> = triangles
        .iter()
        .enumerate()
        .filter_map(|(face, t)| {
            let (top, height) = lip_edge(t, params.max_climb)?;
            Some(Candidate { face, top, height })
        })
        .collect();
    let lips = lips_over_drops(triangles, &candidates, params.max_climb);
    let lips = with_same_plane_partners(triangles, lips);
    for &face in &lips {
        if let Some(t) = triangles.get_mut(face) {
            t.lip = true;
        }
    }
    Ok(lips.len())
}

/// The faces of the candidates whose top edge a face shares that falls more than a climb below
/// it (each face once).
fn lips_over_drops(triangles: &[Triangle], candidates: &[Candidate], climb: f32) -> Vec<usize> {
    let mut by_top: HashMap<EdgeKey, Vec<usize>> = HashMap::with_capacity(candidates.len());
    for (k, c) in candidates.iter().enumerate() {
        by_top.entry(c.top).or_default().push(k);
    }
    let mut lip = vec![false; candidates.len()];
    for t in triangles {
        let low = t.corners.iter().map(|c| c[2]).fold(f32::MAX, f32::min);
        for key in edges(t).into_iter().flatten() {
            for &k in by_top.get(&key).map_or(&[][..], Vec::as_slice) {
                if let (Some(c), Some(slot)) = (candidates.get(k), lip.get_mut(k))
                    && low < c.height - climb
                {
                    *slot = true;
                }
            }
        }
    }
    let mut faces: Vec<usize> = Vec::new();
    for (c, _) in candidates.iter().zip(&lip).filter(|&(_, &is_lip)| is_lip) {
        if faces.last() != Some(&c.face) {
            faces.push(c.face);
        }
    }
    faces
}

/// `lips` and the tilted walkable faces sharing an edge with one of them in its plane (the
/// other half of a split quad), found once (no chains).
fn with_same_plane_partners(triangles: &[Triangle], mut lips: Vec<usize>) -> Vec<usize> {
    let mut lip_edges: HashMap<EdgeKey, usize> = HashMap::with_capacity(lips.len() * 3);
    for &face in &lips {
        if let Some(t) = triangles.get(face) {
            for key in edges(t).into_iter().flatten() {
                lip_edges.insert(key, face);
            }
        }
    }
    let is_lip: std::collections::HashSet<usize> = lips.iter().copied().collect();
    let mut partners = Vec::new();
    for (face, t) in triangles.iter().enumerate() {
        if is_lip.contains(&face) || !t.walkable {
            continue;
        }
        let Some(n) = unit_normal(&t.corners) else {
            continue;
        };
        if !narrow(t) {
            continue;
        }
        let beside_lip = edges(t).into_iter().flatten().any(|key| {
            lip_edges
                .get(&key)
                .and_then(|&f| triangles.get(f))
                .and_then(|lip| unit_normal(&lip.corners))
                .is_some_and(|m| n[0] * m[0] + n[1] * m[1] + n[2] * m[2] >= SAME_PLANE)
        });
        if beside_lip {
            partners.push(face);
        }
    }
    lips.extend(partners);
    lips
}

/// A partner is no deeper than a lip: its shortest side in plan within 1.5 × [`MAX_LIP_DEPTH`]
/// (it may run long along the lip).
fn narrow(t: &Triangle) -> bool {
    let [a, b, c] = t.corners;
    let plan = |p: [f32; 3], q: [f32; 3]| ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
    let sides = [plan(a, b), plan(b, c), plan(c, a)];
    sides.iter().copied().fold(f32::MAX, f32::min) <= MAX_LIP_DEPTH * 1.5
}
