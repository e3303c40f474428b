//! Curved wall feet: gently sloped wall-textured faces that are the bottom of a wall bending
//! up from the floor, not floor.
//!
//! The slope rule lets a wall-textured face under 10° be floor (some rooms texture flat floors
//! and Kashyyyk's 5–10° walkways with wall bitmaps). But a wall that curves up from the floor
//! (endarspire junction_2's `LHR_wall06`: 7°, 11°, 16°, 24°, 30°, 42° in rows) starts with a
//! row of faces under 10° that BioWare leaves out with the rest of the wall (about 28 m² of
//! junction_2). What tells them apart is the bend: the wall foot's gentle row meets the next,
//! steeper row of the same wall at a few degrees, one smooth surface; a walkway textured with a
//! wall bitmap meets its beams and sides at a sharp edge (5° against 45° or 90°), and a flat
//! wall-textured floor (under 2°) is floor whatever it meets. And a wall foot gets steeper as
//! it rises, so the steeper face must lie above the gentle one, and its wall must rise more
//! than a climb above it (the rim of a trough falls from the floor).

use std::collections::HashMap;

/// A wall-textured render face.
#[derive(Clone, Copy, Debug)]
pub struct Face {
    pub corners: [[f32; 3]; 3],
    /// Unit normal, None when degenerate.
    pub normal: Option<[f32; 3]>,
    /// Floor by the slope rules so far.
    pub walkable: bool,
}

/// cos 2°: a wall-textured face flatter than this is floor, whatever it meets.
const FLAT_UP: f32 = 0.999_390_8;

/// cos 20°: two faces sharing an edge at a smaller bend are one smooth surface.
const SMOOTH_BEND: f32 = 0.939_692_6;

/// An edge by its end points, quantised to a millimetre and ordered, so the faces of one
/// surface find each other although the model duplicates vertices at texture seams.
type EdgeKey = [[i64; 3]; 2];

fn point_key(p: [f32; 3]) -> [i64; 3] {
    p.map(|c| (f64::from(c) * 1000.0).round() as i64)
}

fn edge_keys(t: &Face) -> [EdgeKey; 3] {
    let [a, b, c] = t.corners.map(point_key);
    [[a, b], [b, c], [c, a]].map(|mut e| {
        e.sort_unstable();
        e
    })
}

fn centre_height(t: &Face) -> f32 {
    (t.corners[0][2] + t.corners[1][2] + t.corners[2][2]) / 3.0
}

/// The root of `i`'s group (union-find with path halving).
fn root(group: &mut [usize], mut i: usize) -> usize {
    while let Some(&parent) = group.get(i) {
        if parent == i {
            break;
        }
        let grand = group.get(parent).copied().unwrap_or(parent);
        if let Some(slot) = group.get_mut(i) {
            *slot = grand;
        }
        i = parent;
    }
    i
}

/// The highest point of each face's wall: the faces already left out (not walkable), joined
/// through shared edges, each with the top of its whole group.
fn wall_tops(faces: &[Face], edges: &HashMap<EdgeKey, Vec<usize>>) -> Vec<f32> {
    let solid = |i: usize| faces.get(i).is_some_and(|t| !t.walkable);
    let mut group: Vec<usize> = (0..faces.len()).collect();
    for sharing in edges.values() {
        let mut solids = sharing.iter().copied().filter(|&i| solid(i));
        if let Some(first) = solids.next() {
            for other in solids {
                let (a, b) = (root(&mut group, first), root(&mut group, other));
                if let Some(slot) = group.get_mut(a) {
                    *slot = b;
                }
            }
        }
    }
    let mut top = vec![f32::MIN; faces.len()];
    for (i, t) in faces.iter().enumerate().filter(|&(i, _)| solid(i)) {
        let r = root(&mut group, i);
        if let Some(slot) = top.get_mut(r) {
            *slot = t.corners.iter().fold(*slot, |m, c| m.max(c[2]));
        }
    }
    (0..faces.len())
        .map(|i| {
            let r = root(&mut group, i);
            top.get(r).copied().unwrap_or(f32::MIN)
        })
        .collect()
}

/// Marks as not walkable every wall-textured face steeper than 2° joined, through a chain of
/// such faces at smooth bends each lower than the one before, to a wall-textured face the
/// slope rules already left out (a steeper part of the same wall, above it) whose wall rises
/// more than `max_climb` above the face. `faces` are a room's wall-textured faces only.
/// Returns how many faces were taken out.
pub fn remove_curved_wall_feet(faces: &mut [Face], max_climb: f32) -> usize {
    let mut edges: HashMap<EdgeKey, Vec<usize>> = HashMap::new();
    for (i, t) in faces.iter().enumerate() {
        for key in edge_keys(t) {
            edges.entry(key).or_default().push(i);
        }
    }
    let tops = wall_tops(faces, &edges);
    // Seeds: faces facing up that are already no floor (steeper than the wall rule's 10°),
    // each with the top of its wall.
    let mut queue: Vec<(usize, f32)> = (0..faces.len())
        .filter(|&i| {
            faces
                .get(i)
                .is_some_and(|t| !t.walkable && t.normal.is_some_and(|n| n[2] > 0.0))
        })
        .map(|i| (i, tops.get(i).copied().unwrap_or(f32::MIN)))
        .collect();
    let mut removed = 0;
    while let Some((f, top)) = queue.pop() {
        let Some(face) = faces.get(f).copied() else {
            continue;
        };
        let Some(n) = face.normal else { continue };
        for key in edge_keys(&face) {
            for &g in edges.get(&key).map_or(&[][..], Vec::as_slice) {
                let Some(other) = faces.get_mut(g) else {
                    continue;
                };
                let Some(m) = other.normal else { continue };
                let bend = n[0] * m[0] + n[1] * m[1] + n[2] * m[2];
                // Only downhill from the steeper face, and only below a wall a character
                // cannot step onto: a wall foot gets steeper as it rises into a wall; the rim
                // of a trough (escape_pods' wall-textured channel at the pod doors, 0.23 m
                // deep, which BioWare walks) falls from the floor.
                let height = centre_height(other);
                let under_wall = height < centre_height(&face) && top - height > max_climb;
                if other.walkable && under_wall && m[2] < FLAT_UP && bend >= SMOOTH_BEND {
                    other.walkable = false;
                    removed += 1;
                    queue.push((g, top));
                }
            }
        }
    }
    removed
}
