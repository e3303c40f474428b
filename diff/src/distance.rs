//! Surface distance between the walkable surfaces of two meshes: points sampled on one
//! surface, the nearest point of the other found with a bounding-box tree (core's balanced
//! AABB tree, searched branch-and-bound).

use serde::Serialize;
use walkmesh_core::NavMesh;
use walkmesh_core::passes::{AabbNode, balanced_aabb_tree};

/// About this many points are sampled on a surface (vertices and centres always; larger
/// triangles get a barycentric grid).
const TARGET_SAMPLES: f64 = 20_000.0;
/// Most grid steps along a triangle edge.
const MAX_STEPS: usize = 16;

type Triangle = [[f64; 3]; 3];

/// The walkable polygons as triangles (fans: walkmesh polygons are convex), moved by
/// `shift`.
pub fn walkable_triangles(mesh: &NavMesh, shift: [f64; 3]) -> Vec<Triangle> {
    let mut triangles = Vec::with_capacity(mesh.walkable_count());
    let at = |i: u32| {
        let v = mesh.vertex(i);
        [0, 1, 2].map(|k| f64::from(v[k]) + shift[k])
    };
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let Some((&first, rest)) = polygon.split_first() else {
            continue;
        };
        for pair in rest.windows(2) {
            if let [b, c] = pair {
                triangles.push([at(first), at(*b), at(*c)]);
            }
        }
    }
    triangles
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn add_scaled(a: [f64; 3], b: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s]
}

fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// Squared distance from `p` to the closest point of triangle `t` (Voronoi-region test of
/// the vertex, edge and face regions).
pub fn point_triangle_distance_sq(p: [f64; 3], t: &Triangle) -> f64 {
    let [a, b, c] = *t;
    let ab = sub(b, a);
    let ac = sub(c, a);
    let ap = sub(p, a);
    let d1 = dot(ab, ap);
    let d2 = dot(ac, ap);
    let closest = if d1 <= 0.0 && d2 <= 0.0 {
        a
    } else {
        let bp = sub(p, b);
        let d3 = dot(ab, bp);
        let d4 = dot(ac, bp);
        if d3 >= 0.0 && d4 <= d3 {
            b
        } else {
            let vc = d1 * d4 - d3 * d2;
            if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 != 0.0 {
                add_scaled(a, ab, d1 / (d1 - d3))
            } else {
                let cp = sub(p, c);
                let d5 = dot(ab, cp);
                let d6 = dot(ac, cp);
                if d6 >= 0.0 && d5 <= d6 {
                    c
                } else {
                    let vb = d5 * d2 - d1 * d6;
                    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 != 0.0 {
                        add_scaled(a, ac, d2 / (d2 - d6))
                    } else {
                        let va = d3 * d6 - d5 * d4;
                        let e43 = d4 - d3;
                        let e56 = d5 - d6;
                        if va <= 0.0 && e43 >= 0.0 && e56 >= 0.0 && e43 + e56 != 0.0 {
                            add_scaled(b, sub(c, b), e43 / (e43 + e56))
                        } else {
                            let sum = va + vb + vc;
                            if sum == 0.0 || !sum.is_finite() {
                                // Degenerate triangle: the nearest of its corners.
                                return [a, b, c]
                                    .iter()
                                    .map(|q| dot(sub(p, *q), sub(p, *q)))
                                    .fold(f64::INFINITY, f64::min);
                            }
                            // Inside the face: the distance to the plane, which is exact
                            // for a point on the plane of an axis-aligned face.
                            let n = cross(ab, ac);
                            let nn = dot(n, n);
                            if nn > 0.0 && nn.is_finite() {
                                let h = dot(ap, n);
                                return h * h / nn;
                            }
                            let v = vb / sum;
                            let w = vc / sum;
                            add_scaled(add_scaled(a, ab, v), ac, w)
                        }
                    }
                }
            }
        }
    };
    let d = sub(p, closest);
    dot(d, d)
}

/// Nearest-distance queries against a set of triangles (the walkable triangles of a mesh,
/// [`walkable_triangles`]) through a bounding-box tree over them.
#[derive(Debug)]
pub struct TriangleDistanceIndex<'a> {
    triangles: &'a [Triangle],
    tree: Vec<AabbNode>,
}

impl<'a> TriangleDistanceIndex<'a> {
    pub fn new(triangles: &'a [Triangle]) -> TriangleDistanceIndex<'a> {
        let mut boxes = Vec::with_capacity(triangles.len());
        let mut centroids = Vec::with_capacity(triangles.len());
        for t in triangles {
            let mut min = [f32::INFINITY; 3];
            let mut max = [f32::NEG_INFINITY; 3];
            for v in t {
                for k in 0..3 {
                    // Rounded outwards so the f32 box contains the f64 triangle.
                    let x = v[k] as f32;
                    let lo = if f64::from(x) > v[k] {
                        x.next_down()
                    } else {
                        x
                    };
                    let hi = if f64::from(x) < v[k] { x.next_up() } else { x };
                    min[k] = min[k].min(lo);
                    max[k] = max[k].max(hi);
                }
            }
            boxes.push((min, max));
            centroids.push([0, 1, 2].map(|k| ((t[0][k] + t[1][k] + t[2][k]) / 3.0) as f32));
        }
        TriangleDistanceIndex {
            triangles,
            tree: balanced_aabb_tree(&boxes, &centroids, 0.0),
        }
    }

    fn box_distance_sq(node: &AabbNode, p: [f64; 3]) -> f64 {
        let mut sum = 0.0;
        for ((&x, &lo), &hi) in p.iter().zip(&node.min).zip(&node.max) {
            let (lo, hi) = (f64::from(lo), f64::from(hi));
            let d = if x < lo {
                lo - x
            } else if x > hi {
                x - hi
            } else {
                0.0
            };
            sum += d * d;
        }
        sum
    }

    /// Distance from `p` to the nearest triangle (infinite when there is none). `stack` is
    /// scratch space kept between calls.
    pub fn distance(&self, p: [f64; 3], stack: &mut Vec<u32>) -> f64 {
        let mut best = f64::INFINITY;
        stack.clear();
        if !self.tree.is_empty() {
            stack.push(0);
        }
        // A balanced tree is visited at most once per node; the bound guards a bad tree.
        let mut budget = self.tree.len().saturating_mul(2);
        while let Some(index) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let Some(node) = self.tree.get(index as usize) else {
                continue;
            };
            if Self::box_distance_sq(node, p) >= best {
                continue;
            }
            if let Some(item) = node.item {
                if let Some(t) = self.triangles.get(item as usize) {
                    best = best.min(point_triangle_distance_sq(p, t));
                }
                continue;
            }
            let (first, second) = (node.first, node.second);
            let d_first = self
                .tree
                .get(first as usize)
                .map_or(f64::INFINITY, |n| Self::box_distance_sq(n, p));
            let d_second = self
                .tree
                .get(second as usize)
                .map_or(f64::INFINITY, |n| Self::box_distance_sq(n, p));
            // Nearer child on top of the stack, so `best` shrinks early.
            if d_first <= d_second {
                stack.push(second);
                stack.push(first);
            } else {
                stack.push(first);
                stack.push(second);
            }
        }
        best.sqrt()
    }
}

/// Points on the triangles: every corner and centre, plus a barycentric grid on triangles
/// longer than the sample spacing (spacing chosen for about [`TARGET_SAMPLES`] points).
pub fn samples(triangles: &[Triangle]) -> Vec<[f64; 3]> {
    let area: f64 = triangles
        .iter()
        .map(|t| {
            let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
            length(n) / 2.0
        })
        .sum();
    let spacing = (area / TARGET_SAMPLES).sqrt();
    let mut points = Vec::with_capacity(triangles.len() * 4);
    for t in triangles {
        let longest = [
            length(sub(t[1], t[0])),
            length(sub(t[2], t[1])),
            length(sub(t[0], t[2])),
        ]
        .into_iter()
        .fold(0.0, f64::max);
        let steps = if spacing > 0.0 && longest.is_finite() {
            // Corners and centre already cover a triangle up to twice the spacing long.
            ((longest / (2.0 * spacing)).ceil() as usize).clamp(1, MAX_STEPS)
        } else {
            1
        };
        let n = steps as f64;
        for i in 0..=steps {
            for j in 0..=(steps - i) {
                let (u, v) = (i as f64 / n, j as f64 / n);
                let w = 1.0 - u - v;
                points.push([0, 1, 2].map(|k| t[0][k] * w + t[1][k] * u + t[2][k] * v));
            }
        }
        points.push([0, 1, 2].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0));
    }
    // Corners shared by neighbours are sampled once (exact duplicates only).
    points.sort_by(|a, b| {
        a[0].total_cmp(&b[0])
            .then(a[1].total_cmp(&b[1]))
            .then(a[2].total_cmp(&b[2]))
    });
    points.dedup();
    points
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Distances from one surface to the other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OneWay {
    pub samples: usize,
    /// Largest sampled distance (`null` in JSON when the other surface is empty).
    pub max: f64,
    pub mean: f64,
    /// Where the largest distance was found.
    pub worst_at: Option<[f64; 3]>,
}

/// Both directions and the two-sided Hausdorff distance (the larger maximum).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SurfaceDistance {
    pub a_to_b: OneWay,
    pub b_to_a: OneWay,
    pub hausdorff: f64,
}

/// Half the f32 rounding unit at the largest coordinate of the triangles: sampled points
/// are computed in f64 from f32 corners, so distances below this are rounding, not shape.
fn resolution(a: &[Triangle], b: &[Triangle]) -> f64 {
    let largest = a
        .iter()
        .chain(b)
        .flatten()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()));
    largest * f64::from(f32::EPSILON) / 2.0
}

fn one_way(from: &[Triangle], to: &TriangleDistanceIndex<'_>, resolution: f64) -> OneWay {
    let points = samples(from);
    let mut stack = Vec::with_capacity(64);
    let mut max = 0.0f64;
    let mut sum = 0.0f64;
    let mut worst_at = None;
    for p in &points {
        let d = to.distance(*p, &mut stack);
        let d = if d < resolution { 0.0 } else { d };
        sum += d;
        if d > max || worst_at.is_none() {
            max = max.max(d);
            worst_at = Some(*p);
        }
    }
    let mean = if points.is_empty() {
        0.0
    } else {
        sum / points.len() as f64
    };
    OneWay {
        samples: points.len(),
        max,
        mean,
        worst_at,
    }
}

/// Sampled distances between the walkable surfaces (B moved by `shift_b` first). Both
/// empty: zero; one empty: infinite. Distances below half the f32 rounding unit of the
/// largest coordinate count as zero (the corners are f32; samples between them are not).
pub fn surface_distance(a: &NavMesh, b: &NavMesh, shift_b: [f64; 3]) -> SurfaceDistance {
    let ta = walkable_triangles(a, [0.0; 3]);
    let tb = walkable_triangles(b, shift_b);
    let (sa, sb) = (
        TriangleDistanceIndex::new(&ta),
        TriangleDistanceIndex::new(&tb),
    );
    let resolution = resolution(&ta, &tb);
    let a_to_b = one_way(&ta, &sb, resolution);
    let b_to_a = one_way(&tb, &sa, resolution);
    SurfaceDistance {
        a_to_b,
        b_to_a,
        hausdorff: a_to_b.max.max(b_to_a.max),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const T: Triangle = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]];

    #[test]
    fn point_triangle_distance_in_every_region() {
        let d = |p: [f64; 3]| point_triangle_distance_sq(p, &T).sqrt();
        assert_eq!(d([0.5, 0.5, 3.0]), 3.0); // above the face
        assert_eq!(d([-3.0, -4.0, 0.0]), 5.0); // corner a
        assert_eq!(d([5.0, 0.0, 0.0]), 3.0); // corner b
        assert_eq!(d([0.0, 6.0, 0.0]), 4.0); // corner c
        assert_eq!(d([1.0, -2.0, 0.0]), 2.0); // edge ab
        assert_eq!(d([-1.0, 1.0, 0.0]), 1.0); // edge ac
        assert!((d([2.0, 2.0, 0.0]) - 2f64.sqrt()).abs() < 1e-12); // edge bc
        let flat = [[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
        assert!((point_triangle_distance_sq([1.0, 1.0, 0.0], &flat) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn tree_search_matches_brute_force() {
        // A 20 x 20 grid of triangles and scattered query points.
        let mut triangles = Vec::new();
        for i in 0..20 {
            for j in 0..20 {
                let (x, y) = (f64::from(i), f64::from(j));
                let z = (x * 0.3).sin() + (y * 0.2).cos();
                triangles.push([[x, y, z], [x + 1.0, y, z], [x, y + 1.0, z + 0.5]]);
            }
        }
        let surface = TriangleDistanceIndex::new(&triangles);
        let mut stack = Vec::new();
        let mut seed = 12345u64;
        for _ in 0..300 {
            let mut next = || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 33) as f64 / (1u64 << 31) as f64) * 26.0 - 3.0
            };
            let p = [next(), next(), next() / 4.0];
            let brute = triangles
                .iter()
                .map(|t| point_triangle_distance_sq(p, t))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            assert!((surface.distance(p, &mut stack) - brute).abs() < 1e-9);
        }
        assert_eq!(
            TriangleDistanceIndex::new(&[]).distance([0.0; 3], &mut stack),
            f64::INFINITY
        );
    }

    #[test]
    fn samples_cover_corners_and_grow_with_size() {
        let few = samples(&[T]);
        for corner in T {
            assert!(few.contains(&corner));
        }
        // A long thin triangle among small ones gets interior grid points.
        let mut many = vec![T; 1];
        many.push([[0.0, 10.0, 0.0], [100.0, 10.0, 0.0], [0.0, 11.0, 0.0]]);
        let points = samples(&many);
        assert!(points.len() > 100, "{}", points.len());
    }

    #[test]
    fn lifted_surface_is_at_its_height() {
        use walkmesh_core::{Material, Surface};
        let mut a = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            ..NavMesh::default()
        };
        a.push_polygon(
            &[0, 1, 2],
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        let mut b = a.clone();
        for v in &mut b.vertices {
            v[2] += 0.25;
        }
        let d = surface_distance(&a, &b, [0.0; 3]);
        assert!((d.hausdorff - 0.25).abs() < 1e-12);
        assert!((d.a_to_b.mean - 0.25).abs() < 1e-12);
        let same = surface_distance(&a, &a, [0.0; 3]);
        assert_eq!(same.hausdorff, 0.0);
        let aligned = surface_distance(&a, &b, [0.0, 0.0, -0.25]);
        assert_eq!(aligned.hausdorff, 0.0);
    }
}
