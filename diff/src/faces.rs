//! Per-face changes: faces of A and B matched by their corner positions (any corner order,
//! any face order), so a report can say which faces were added, removed, moved, or changed
//! material or walkability.

use std::collections::HashMap;

use serde::Serialize;
use walkmesh_core::NavMesh;

/// At most this many changes are listed; the counts cover all of them.
pub const MAX_LISTED: usize = 1000;

/// One changed face.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FaceChange {
    /// `added`, `removed`, `moved`, `material` or `walkability`.
    pub change: &'static str,
    /// The face in A's numbering (none when added).
    pub face_a: Option<u32>,
    /// The face in B's numbering (none when removed).
    pub face_b: Option<u32>,
    /// Centre of the face (A's when it has one), in A's frame.
    pub at: [f64; 3],
    /// Neutral material names on each side, where the change is about them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material_a: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material_b: Option<String>,
    /// How far a moved face's centre went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

/// Counts of every kind of change and the first [`MAX_LISTED`] changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FaceChanges {
    pub unchanged: usize,
    pub added: usize,
    pub removed: usize,
    /// Same face number on both sides with the same number of corners, at other positions
    /// (only when A and B have the same number of faces: an edit, not a rebuild).
    pub moved: usize,
    pub material: usize,
    pub walkability: usize,
    pub listed: Vec<FaceChange>,
    /// True when more changes exist than are listed.
    pub truncated: bool,
}

type Key = Vec<[i64; 3]>;

/// Corner positions snapped to `quantum`, sorted: equal for the same face whatever the
/// corner order or face number.
fn key(mesh: &NavMesh, polygon: &[u32], shift: [f64; 3], quantum: f64) -> Key {
    let mut corners: Key = polygon
        .iter()
        .map(|&i| {
            let v = mesh.vertex(i);
            [0, 1, 2].map(|k| ((f64::from(v[k]) + shift[k]) / quantum).round() as i64)
        })
        .collect();
    corners.sort_unstable();
    corners
}

fn centre(mesh: &NavMesh, polygon: &[u32], shift: [f64; 3]) -> [f64; 3] {
    let n = polygon.len().max(1) as f64;
    let mut sum = [0.0; 3];
    for &i in polygon {
        let v = mesh.vertex(i);
        for k in 0..3 {
            sum[k] += f64::from(v[k]) + shift[k];
        }
    }
    sum.map(|s| s / n)
}

fn material(mesh: &NavMesh, face: usize) -> Option<String> {
    mesh.surfaces
        .get(face)
        .map(|s| s.material.name().into_owned())
}

impl FaceChanges {
    fn record(&mut self, change: FaceChange) {
        match change.change {
            "added" => self.added += 1,
            "removed" => self.removed += 1,
            "moved" => self.moved += 1,
            "material" => self.material += 1,
            _ => self.walkability += 1,
        }
        if self.listed.len() < MAX_LISTED {
            self.listed.push(change);
        } else {
            self.truncated = true;
        }
    }
}

/// Compares faces of `a` with faces of `b` moved by `shift_b`; corners closer than
/// `tolerance` (at least 1e-6) count as the same position.
pub fn face_changes(a: &NavMesh, b: &NavMesh, shift_b: [f64; 3], tolerance: f64) -> FaceChanges {
    let quantum = tolerance.max(1e-6);
    let mut in_b: HashMap<Key, Vec<u32>> = HashMap::with_capacity(b.polygons.len());
    for (face, polygon) in b.polygons.iter().enumerate() {
        in_b.entry(key(b, polygon, shift_b, quantum))
            .or_default()
            .push(face as u32);
    }
    // Reversed so that popping gives the lowest face number first.
    in_b.values_mut().for_each(|faces| faces.reverse());
    let mut matched_b = vec![false; b.polygons.len()];
    let mut unmatched_a = Vec::new();
    let mut changes = FaceChanges::default();
    for (face, polygon) in a.polygons.iter().enumerate() {
        let Some(face_b) = in_b
            .get_mut(&key(a, polygon, [0.0; 3], quantum))
            .and_then(Vec::pop)
        else {
            unmatched_a.push(face);
            continue;
        };
        if let Some(slot) = matched_b.get_mut(face_b as usize) {
            *slot = true;
        }
        let (sa, sb) = (a.surfaces.get(face), b.surfaces.get(face_b as usize));
        let change = match (sa, sb) {
            (Some(x), Some(y)) if x.walkable != y.walkable => "walkability",
            (Some(x), Some(y)) if x.material != y.material => "material",
            _ => {
                changes.unchanged += 1;
                continue;
            }
        };
        changes.record(FaceChange {
            change,
            face_a: Some(face as u32),
            face_b: Some(face_b),
            at: centre(a, polygon, [0.0; 3]),
            material_a: material(a, face),
            material_b: material(b, face_b as usize),
            distance: None,
        });
    }
    let same_count = a.polygons.len() == b.polygons.len();
    for face in unmatched_a {
        let polygon = a.polygons.get(face);
        let at = centre(a, polygon, [0.0; 3]);
        let partner = (same_count && !matched_b.get(face).copied().unwrap_or(true))
            .then(|| b.polygons.get(face))
            .filter(|other| other.len() == polygon.len());
        if let Some(other) = partner {
            if let Some(slot) = matched_b.get_mut(face) {
                *slot = true;
            }
            let to = centre(b, other, shift_b);
            let distance = (0..3).map(|k| (to[k] - at[k]).powi(2)).sum::<f64>().sqrt();
            changes.record(FaceChange {
                change: "moved",
                face_a: Some(face as u32),
                face_b: Some(face as u32),
                at,
                material_a: None,
                material_b: None,
                distance: Some(distance),
            });
            continue;
        }
        changes.record(FaceChange {
            change: "removed",
            face_a: Some(face as u32),
            face_b: None,
            at,
            material_a: material(a, face),
            material_b: None,
            distance: None,
        });
    }
    for (face, _) in matched_b.iter().enumerate().filter(|(_, m)| !**m) {
        changes.record(FaceChange {
            change: "added",
            face_a: None,
            face_b: Some(face as u32),
            at: centre(b, b.polygons.get(face), shift_b),
            material_a: None,
            material_b: material(b, face),
            distance: None,
        });
    }
    changes
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{Material, Surface};

    fn surface(material: u16, walkable: bool) -> Surface {
        Surface {
            material: Material(material),
            walkable,
            code: u32::from(material),
        }
    }

    /// Unit squares along x, two triangles each: faces 2k and 2k+1 cover square k.
    fn strip(squares: u32) -> NavMesh {
        let mut mesh = NavMesh::default();
        for x in 0..=squares {
            mesh.vertices.push([x as f32, 0.0, 0.0]);
            mesh.vertices.push([x as f32, 1.0, 0.0]);
        }
        for k in 0..squares {
            let (a, b, c, d) = (2 * k, 2 * k + 2, 2 * k + 3, 2 * k + 1);
            mesh.push_polygon(&[a, b, c], surface(4, true));
            mesh.push_polygon(&[a, c, d], surface(4, true));
        }
        mesh
    }

    #[test]
    fn a_mesh_against_itself_reordered_has_no_changes() {
        let a = strip(3);
        let mut b = a.clone();
        // Same faces, other order and other corner rotation.
        b = b.with_polygon_order(&[5, 4, 3, 2, 1, 0]);
        let changes = face_changes(&a, &b, [0.0; 3], 1e-4);
        assert_eq!(changes.unchanged, 6);
        assert!(changes.listed.is_empty(), "{:?}", changes.listed);
    }

    #[test]
    fn material_walkability_moved_added_and_removed_faces_are_told_apart() {
        let a = strip(2);
        let mut b = a.clone();
        b.surfaces[0] = surface(3, true); // Grass instead of Stone
        b.surfaces[1] = surface(4, false); // no longer walkable
        // Face 3 = (1,0) (2,1) (1,1): its corner (2,1) is vertex 5; move a copy up by 2.
        b.vertices.push([2.0, 1.0, 2.0]);
        let moved_corner = (b.vertices.len() - 1) as u32;
        b.polygons = {
            let mut p = walkmesh_core::Polygons::new();
            for (face, polygon) in a.polygons.iter().enumerate() {
                if face == 3 {
                    p.push(&[polygon[0], moved_corner, polygon[2]]);
                } else {
                    p.push(polygon);
                }
            }
            p
        };
        let changes = face_changes(&a, &b, [0.0; 3], 1e-4);
        assert_eq!(
            (
                changes.unchanged,
                changes.material,
                changes.walkability,
                changes.moved
            ),
            (1, 1, 1, 1)
        );
        let moved = changes.listed.iter().find(|c| c.change == "moved").unwrap();
        assert_eq!((moved.face_a, moved.face_b), (Some(3), Some(3)));
        // One corner of three rose by 2: the centre rose by 2/3.
        assert!((moved.distance.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        let grass = changes
            .listed
            .iter()
            .find(|c| c.change == "material")
            .unwrap();
        assert_eq!(grass.material_b.as_deref(), Some("Grass"));

        // A face fewer on B's side: no longer an edit of the same numbering.
        let mut c = a.clone();
        c.polygons = {
            let mut p = walkmesh_core::Polygons::new();
            for polygon in a.polygons.iter().take(3) {
                p.push(polygon);
            }
            p
        };
        c.surfaces.truncate(3);
        let changes = face_changes(&a, &c, [0.0; 3], 1e-4);
        assert_eq!(
            (changes.unchanged, changes.removed, changes.added),
            (3, 1, 0)
        );
        let removed = &changes.listed[0];
        assert_eq!(removed.face_a, Some(3));
        assert_eq!(removed.at, [4.0 / 3.0, 2.0 / 3.0, 0.0]);
        let changes = face_changes(&c, &a, [0.0; 3], 1e-4);
        assert_eq!((changes.added, changes.listed[0].face_b), (1, Some(3)));
    }

    #[test]
    fn a_shift_brings_a_moved_copy_back() {
        let a = strip(2);
        let mut b = a.clone();
        for v in &mut b.vertices {
            v[0] += 9.0;
        }
        assert_eq!(face_changes(&a, &b, [0.0; 3], 1e-4).moved, 4);
        let back = face_changes(&a, &b, [-9.0, 0.0, 0.0], 1e-4);
        assert_eq!(back.unchanged, 4);
    }
}
