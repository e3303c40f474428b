//! Normals, plane distances and areas.

use glam::{DVec3, Vec3};

use crate::ir::NavMesh;

/// `normalize((b − a) × (c − a))` in `f32`, the way KotOR and NWN2 compute face normals.
/// A degenerate triangle gives the zero vector.
pub fn triangle_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> [f32; 3] {
    let (a, b, c) = (Vec3::from(a), Vec3::from(b), Vec3::from(c));
    (b - a).cross(c - a).normalize_or_zero().to_array()
}

/// Plane distance `d = −(n · p)` so that `n · x + d = 0` on the plane through `p`.
pub fn plane_distance(normal: [f32; 3], point: [f32; 3]) -> f32 {
    -Vec3::from(normal).dot(Vec3::from(point))
}

/// Newell's normal (twice the vector area) of the closed ring of `count` points given by
/// `point`, in `f64`.
fn newell_ring(count: usize, point: impl Fn(usize) -> [f32; 3]) -> DVec3 {
    let mut sum = DVec3::ZERO;
    for i in 0..count {
        let a = Vec3::from(point(i)).as_dvec3();
        let b = Vec3::from(point((i + 1) % count)).as_dvec3();
        sum += DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    sum
}

/// Newell's normal (twice the vector area) of a polygon, in `f64`.
fn newell(mesh: &NavMesh, polygon: usize) -> DVec3 {
    let vertices = mesh.polygons.get(polygon);
    newell_ring(vertices.len(), |i| {
        mesh.vertex(vertices.get(i).copied().unwrap_or(0))
    })
}

/// Area of the triangle a, b, c in `f64`, computed exactly as [`polygon_area`] computes it
/// for a triangle polygon, so that "has area" means the same to the triangulation and to the
/// validator.
pub fn triangle_area(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> f64 {
    let points = [a, b, c];
    newell_ring(3, |i| points.get(i).copied().unwrap_or(a)).length() / 2.0
}

/// Unit normal of a polygon: [`triangle_normal`] for triangles, Newell's normal otherwise.
pub fn polygon_normal(mesh: &NavMesh, polygon: usize) -> [f32; 3] {
    match mesh.polygons.get(polygon) {
        &[a, b, c] => triangle_normal(mesh.vertex(a), mesh.vertex(b), mesh.vertex(c)),
        _ => newell(mesh, polygon)
            .normalize_or_zero()
            .as_vec3()
            .to_array(),
    }
}

pub use crate::slope::{STEEP_DEGREES, is_steep};

/// Area of a (planar) polygon, in `f64`.
pub fn polygon_area(mesh: &NavMesh, polygon: usize) -> f64 {
    newell(mesh, polygon).length() / 2.0
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;

    #[test]
    fn hand_computed_triangle_and_quad() {
        assert_eq!(
            triangle_normal([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
            [0.0, 0.0, 1.0]
        );
        assert_eq!(
            triangle_normal([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
            [0.0, 0.0, -1.0]
        );
        assert_eq!(plane_distance([0.0, 0.0, 1.0], [5.0, 6.0, 2.5]), -2.5);
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 3.0],
                [2.0, 0.0, 3.0],
                [2.0, 3.0, 3.0],
                [0.0, 3.0, 3.0],
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
        assert_eq!(polygon_area(&mesh, 0), 6.0);
        assert_eq!(polygon_normal(&mesh, 0), [0.0, 0.0, 1.0]);
        // A slanted right triangle with legs 3 and 4 along x and the y=z diagonal.
        let mut slanted = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, 4.0, 4.0]],
            ..NavMesh::default()
        };
        slanted.push_polygon(&[0, 1, 2], mesh.surfaces[0]);
        let expected = 0.5 * 3.0 * (32.0f64).sqrt();
        assert!((polygon_area(&slanted, 0) - expected).abs() < 1e-12);
    }
}
