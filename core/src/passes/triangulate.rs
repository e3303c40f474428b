//! Triangulation of simple polygons (convex and concave) by ear clipping, keeping each
//! polygon's surface, attributes and edge tags.

use std::collections::BTreeMap;

use glam::DVec3;

use crate::diag::Diagnostics;
use crate::ir::{EdgeRef, NavMesh, Polygons};

/// Orientation of the 2-D corner a → b → c (twice the signed area).
fn cross(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// True when `p` lies inside or on the triangle a, b, c (counter-clockwise).
fn in_triangle(p: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    cross(a, b, p) >= 0.0 && cross(b, c, p) >= 0.0 && cross(c, a, p) >= 0.0
}

/// Projects a polygon onto the plane of its dominant normal axis so that it runs
/// counter-clockwise in 2-D.
fn project(points: &[[f32; 3]]) -> Vec<[f64; 2]> {
    let mut normal = DVec3::ZERO;
    for (i, a) in points.iter().enumerate() {
        let b = points.get((i + 1) % points.len()).unwrap_or(a);
        let (a, b) = (
            DVec3::new(a[0].into(), a[1].into(), a[2].into()),
            DVec3::new(b[0].into(), b[1].into(), b[2].into()),
        );
        normal += DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    let abs = normal.abs();
    // (u, v) axes chosen so that u × v points along +axis; mirrored when the normal points
    // along −axis, so the projection is always counter-clockwise.
    let (u, v, positive) = if abs.z >= abs.x && abs.z >= abs.y {
        (0, 1, normal.z >= 0.0)
    } else if abs.x >= abs.y {
        (1, 2, normal.x >= 0.0)
    } else {
        (2, 0, normal.y >= 0.0)
    };
    points
        .iter()
        .map(|p| {
            let (pu, pv) = (f64::from(p[u]), f64::from(p[v]));
            if positive { [pu, pv] } else { [pv, pu] }
        })
        .collect()
}

/// Triangles of one simple polygon as corner positions (0-based within the polygon), in the
/// polygon's winding. `None` when ear clipping gets stuck (self-intersecting input).
pub fn ear_clip(points: &[[f32; 3]]) -> Option<Vec<[usize; 3]>> {
    let n = points.len();
    if n < 3 {
        return Some(Vec::new());
    }
    if n == 3 {
        return Some(vec![[0, 1, 2]]);
    }
    let flat = project(points);
    let at = |i: usize| flat.get(i).copied().unwrap_or([0.0, 0.0]);
    // Convex fast path: a fan.
    if (0..n).all(|i| cross(at((i + n - 1) % n), at(i), at((i + 1) % n)) >= 0.0) {
        return Some((1..n - 1).map(|i| [0, i, i + 1]).collect());
    }
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut triangles = Vec::with_capacity(n - 2);
    let mut i = 0usize;
    let mut since_last_ear = 0usize;
    while remaining.len() > 3 {
        let m = remaining.len();
        let (prev, cur, next) = (
            remaining[(i + m - 1) % m],
            remaining[i % m],
            remaining[(i + 1) % m],
        );
        let (a, b, c) = (at(prev), at(cur), at(next));
        let convex = cross(a, b, c) > 0.0;
        let is_ear = convex
            && remaining.iter().all(|&other| {
                let p = at(other);
                other == prev
                    || other == cur
                    || other == next
                    // A vertex at the same place as a corner (a polygon touching itself)
                    // does not block the ear.
                    || p == a
                    || p == b
                    || p == c
                    || !in_triangle(p, a, b, c)
            });
        if is_ear {
            triangles.push([prev, cur, next]);
            remaining.remove(i % m);
            since_last_ear = 0;
            i = (i + m - 2) % (m - 1);
        } else {
            i = (i + 1) % m;
            since_last_ear += 1;
            if since_last_ear > m {
                return None;
            }
        }
    }
    if let [a, b, c] = remaining[..] {
        triangles.push([a, b, c]);
    }
    Some(triangles)
}

/// A triangulated copy of `mesh` and, per triangle, the polygon it came from. Polygons that
/// are already triangles are copied as they are; an edge tag moves to the triangle edge that
/// lies on the tagged polygon edge. Self-intersecting polygons are fanned, with a warning.
pub fn triangulate(mesh: &NavMesh, diag: &mut Diagnostics) -> (NavMesh, Vec<u32>) {
    let mut polygons = Polygons::with_capacity(mesh.polygons.len(), mesh.polygons.indices().len());
    let mut source = Vec::with_capacity(mesh.polygons.len());
    let mut surfaces = Vec::with_capacity(mesh.polygons.len());
    let mut edge_tags = BTreeMap::new();
    let mut fanned = 0usize;
    // Edge tags grouped by polygon, to move them along in one pass.
    let mut tags_by_polygon: BTreeMap<u32, Vec<(u32, crate::ir::EdgeTag)>> = BTreeMap::new();
    for (edge, tag) in &mesh.edge_tags {
        tags_by_polygon
            .entry(edge.polygon)
            .or_default()
            .push((edge.edge, *tag));
    }
    for (polygon, vertices) in mesh.polygons.iter().enumerate() {
        let first_triangle = polygons.len();
        let corners = if vertices.len() == 3 {
            vec![[0, 1, 2]]
        } else {
            let points: Vec<[f32; 3]> = vertices.iter().map(|&v| mesh.vertex(v)).collect();
            ear_clip(&points).unwrap_or_else(|| {
                fanned += 1;
                (1..vertices.len().saturating_sub(1))
                    .map(|i| [0, i, i + 1])
                    .collect()
            })
        };
        let surface = mesh
            .surfaces
            .get(polygon)
            .copied()
            .unwrap_or(crate::ir::Surface {
                material: crate::material::Material(0),
                walkable: false,
                code: 0,
            });
        for triangle in &corners {
            let indices = triangle.map(|corner| vertices.get(corner).copied().unwrap_or(0));
            polygons.push(&indices);
            surfaces.push(surface);
            source.push(polygon as u32);
        }
        if let Some(tags) = tags_by_polygon.get(&(polygon as u32)) {
            for &(edge, tag) in tags {
                let from = edge as usize;
                let to = (from + 1) % vertices.len();
                // The polygon edge from corner `from` to corner `to` is exactly one triangle's
                // edge, running the same way.
                let found = corners.iter().enumerate().find_map(|(t, tri)| {
                    (0..3)
                        .find_map(|k| (tri[k] == from && tri[(k + 1) % 3] == to).then_some((t, k)))
                });
                if let Some((t, k)) = found {
                    edge_tags.insert(
                        EdgeRef {
                            polygon: (first_triangle + t) as u32,
                            edge: k as u32,
                        },
                        tag,
                    );
                }
            }
        }
    }
    if fanned > 0 {
        diag.warn(
            "mesh.self_intersecting_polygon",
            format!("{fanned} polygon(s) are not simple and were split as fans; check them in a modeller"),
        );
    }
    let face_attributes = mesh
        .face_attributes
        .iter()
        .map(|(name, column)| (name.clone(), column.permuted(&source)))
        .collect();
    let triangulated = NavMesh {
        kind: mesh.kind,
        vertices: mesh.vertices.clone(),
        polygons,
        surfaces,
        edge_tags,
        face_attributes,
        origin: mesh.origin,
        hooks: mesh.hooks.clone(),
        tile_grid: mesh.tile_grid,
        extras: mesh.extras.clone(),
        provenance: None,
    };
    (triangulated, source)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{EdgeTag, Surface};
    use crate::material::Material;
    use crate::passes::planes::polygon_area;

    fn area2(points: &[[f32; 3]], tri: [usize; 3]) -> f64 {
        let p: Vec<[f64; 2]> = tri
            .iter()
            .map(|&i| [points[i][0] as f64, points[i][1] as f64])
            .collect();
        cross(p[0], p[1], p[2])
    }

    #[test]
    fn concave_l_shape_gives_ccw_triangles_covering_its_area() {
        // L shape, area 3.
        let points = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        let triangles = ear_clip(&points).unwrap();
        assert_eq!(triangles.len(), 4);
        let total: f64 = triangles.iter().map(|&t| area2(&points, t) / 2.0).sum();
        assert!((total - 3.0).abs() < 1e-12);
        assert!(triangles.iter().all(|&t| area2(&points, t) > 0.0));
    }

    #[test]
    fn clockwise_and_vertical_polygons_keep_their_winding() {
        // The L shape mirrored (clockwise seen from +Z): triangles stay clockwise.
        let points: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [0.0, 2.0],
            [1.0, 2.0],
            [1.0, 1.0],
            [2.0, 1.0],
            [2.0, 0.0],
        ]
        .iter()
        .map(|p| [p[0], p[1], 0.0])
        .collect();
        let triangles = ear_clip(&points).unwrap();
        assert_eq!(triangles.len(), 4);
        assert!(triangles.iter().all(|&t| area2(&points, t) < 0.0));
        // A concave wall in the XZ plane.
        let wall: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [0.0, 2.0],
        ]
        .iter()
        .map(|p| [p[0], 0.0, p[1]])
        .collect();
        assert_eq!(ear_clip(&wall).unwrap().len(), 4);
    }

    #[test]
    fn triangulate_keeps_surfaces_tags_and_area() {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            ..NavMesh::default()
        };
        let grass = Surface {
            material: Material(3),
            walkable: true,
            code: 3,
        };
        mesh.push_polygon(&[0, 1, 2, 3, 4, 5], grass);
        mesh.push_polygon(&[1, 2, 3], grass);
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 3,
            },
            EdgeTag { transition: 9 },
        );
        let mut diag = Diagnostics::new();
        let (tris, source) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 5);
        assert_eq!(source, vec![0, 0, 0, 0, 1]);
        assert!(tris.surfaces.iter().all(|s| *s == grass));
        let area: f64 = (0..4).map(|p| polygon_area(&tris, p)).sum();
        assert!((area - 3.0).abs() < 1e-9);
        // The tag on edge 3 (vertex 3 -> vertex 4) sits on the triangle edge 3 -> 4.
        let (edge, tag) = tris.edge_tags.iter().next().unwrap();
        assert_eq!(tag.transition, 9);
        let tri = tris.polygons.get(edge.polygon as usize);
        assert_eq!(tri[edge.edge as usize], 3);
        assert_eq!(tri[(edge.edge as usize + 1) % 3], 4);
        assert!(diag.items.is_empty());
    }

    #[test]
    fn self_intersecting_polygon_still_gives_n_minus_2_triangles() {
        // A bow tie drawn as one quad.
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(
            &[0, 1, 2, 3],
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        let mut diag = Diagnostics::new();
        let (tris, _) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 2);
        // A pentagram (every second point of a pentagon) cannot be ear-clipped.
        let star: Vec<[f32; 3]> = [0usize, 2, 4, 1, 3]
            .iter()
            .map(|&k| {
                let angle = k as f32 * std::f32::consts::TAU / 5.0;
                [angle.cos(), angle.sin(), 0.0]
            })
            .collect();
        let mut mesh = NavMesh {
            vertices: star,
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2, 3, 4], tris.surfaces[0]);
        let mut diag = Diagnostics::new();
        let (tris, _) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 3);
    }
}
