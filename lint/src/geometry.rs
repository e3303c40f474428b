//! Small plane geometry: plan boxes, convex clipping, distances.

use walkmesh_core::NavMesh;

pub type P3 = [f32; 3];

/// Plan bounding box of a face: (min, max).
pub fn plan_box(mesh: &NavMesh, face: usize) -> ([f32; 2], [f32; 2]) {
    let mut min = [f32::INFINITY; 2];
    let mut max = [f32::NEG_INFINITY; 2];
    for &v in mesh.polygons.get(face) {
        let p = mesh.vertex(v);
        for axis in 0..2 {
            min[axis] = min[axis].min(p[axis]);
            max[axis] = max[axis].max(p[axis]);
        }
    }
    (min, max)
}

/// Mean of a face's corners.
pub fn centroid(mesh: &NavMesh, face: usize) -> P3 {
    let corners = mesh.polygons.get(face);
    let mut sum = [0.0f64; 3];
    for &v in corners {
        let p = mesh.vertex(v);
        for axis in 0..3 {
            sum[axis] += f64::from(p[axis]);
        }
    }
    let n = corners.len().max(1) as f64;
    sum.map(|s| (s / n) as f32)
}

pub fn distance(a: P3, b: P3) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
}

pub fn plan_distance(a: P3, b: P3) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

pub fn midpoint(a: P3, b: P3) -> P3 {
    [
        (a[0] + b[0]) / 2.0,
        (a[1] + b[1]) / 2.0,
        (a[2] + b[2]) / 2.0,
    ]
}

/// Where point `p` projects on segment a→b (0 at a, 1 at b) and its 3D distance from the
/// segment's line at that point. A zero-length segment gives `None`.
pub fn project_on_segment(p: P3, a: P3, b: P3) -> Option<(f32, f32)> {
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let length2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if length2 <= 0.0 {
        return None;
    }
    let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1] + (p[2] - a[2]) * d[2]) / length2;
    let foot = [a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]];
    Some((t, distance(p, foot)))
}

/// Signed area of a plan polygon (counter-clockwise positive), in f64.
pub fn signed_area(points: &[[f64; 2]]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0
}

/// Plan corners of a face, counter-clockwise (a clockwise face is reversed).
pub fn plan_ring(mesh: &NavMesh, face: usize) -> Vec<[f64; 2]> {
    let mut ring: Vec<[f64; 2]> = mesh
        .polygons
        .get(face)
        .iter()
        .map(|&v| {
            let p = mesh.vertex(v);
            [f64::from(p[0]), f64::from(p[1])]
        })
        .collect();
    if signed_area(&ring) < 0.0 {
        ring.reverse();
    }
    ring
}

/// The part of convex polygon `subject` inside convex counter-clockwise polygon `clip`
/// (Sutherland–Hodgman). Non-convex faces are treated as their corners' ring, which is exact
/// for the triangles every game format stores.
pub fn clip_convex(subject: &[[f64; 2]], clip: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut output = subject.to_vec();
    let n = clip.len();
    for i in 0..n {
        if output.is_empty() {
            break;
        }
        let (a, b) = (clip[i], clip[(i + 1) % n]);
        let inside = |p: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let input = std::mem::take(&mut output);
        let m = input.len();
        for j in 0..m {
            let (p, q) = (input[j], input[(j + 1) % m]);
            let (sp, sq) = (inside(p), inside(q));
            if sp >= 0.0 {
                output.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                let t = sp / (sp - sq);
                output.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
            }
        }
    }
    output
}

/// Height of a face's plane above plan point (x, y), from its first three corners (`None`
/// for a vertical or degenerate face).
pub fn plane_height(mesh: &NavMesh, face: usize, x: f64, y: f64) -> Option<f64> {
    let corners = mesh.polygons.get(face);
    let [a, b, c] = [corners.first()?, corners.get(1)?, corners.get(2)?]
        .map(|&v| mesh.vertex(v).map(f64::from));
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    if n[2].abs() < 1e-12 {
        return None;
    }
    Some(a[2] - (n[0] * (x - a[0]) + n[1] * (y - a[1])) / n[2])
}
