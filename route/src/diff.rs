//! Reachability compared between two meshes (`walkmesh diff A B --reach`): point pairs
//! sampled on A's walkable surface, and the pairs one mesh joins and the other does not.
//!
//! Sampling is deterministic: a SplitMix64 stream from the seed; each point picks a walkable
//! fan triangle of A with probability proportional to its 3-D area, then a uniform point in
//! it. Points `2i` and `2i + 1` form pair `i`. Reachability is by walkable components (faces
//! joined through shared edges) in each mesh; in B both points are located as
//! [`crate::surface`] locates them (plan containment, nearest height).

use serde::Serialize;
use walkmesh_core::NavMesh;
use walkmesh_core::passes::connected_components;

use crate::surface::{Point, SurfaceRouter, dist};

/// The seed `walkmesh diff --reach` uses.
pub const DEFAULT_SEED: u64 = 26;

/// Most point pairs one comparison samples (`--reach-pairs` refuses more): each pair costs
/// two point locations in B and a differing one is kept, so a million pairs is seconds and
/// tens of megabytes; [`reach_diff`] samples no more than this whatever it is asked.
pub const MAX_PAIRS: usize = 1_000_000;

/// A pair whose reachability differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairDifference {
    pub from: Point,
    pub to: Point,
    pub reachable_in_a: bool,
    pub reachable_in_b: bool,
}

/// The comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReachDiff {
    pub pairs: usize,
    pub seed: u64,
    /// Pairs with a point on no walkable face of B (a footprint change, not a reachability
    /// one; the footprint comparison reports it).
    pub off_b: usize,
    pub differing: Vec<PairDifference>,
}

/// SplitMix64: a tiny, well-mixed, portable stream.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A walkable fan triangle of A: its face, corners and the running area up to it.
struct Sample {
    face: u32,
    corners: [Point; 3],
    cumulative: f64,
}

fn triangle_area(a: Point, b: Point, c: Point) -> f64 {
    let (u, v) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    );
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    0.5 * dist(n, [0.0; 3])
}

fn fan_triangles(router: &SurfaceRouter<'_>) -> Vec<Sample> {
    let mesh = router.mesh();
    let mut samples = Vec::new();
    let mut total = 0.0;
    for face in (0..mesh.polygons.len()).filter(|&f| mesh.is_walkable(f)) {
        let corners = router.face_corners(face as u32);
        let Some(&a) = corners.first() else { continue };
        for pair in corners.get(1..).unwrap_or(&[]).windows(2) {
            let area = triangle_area(a, pair[0], pair[1]);
            if area > 0.0 {
                total += area;
                samples.push(Sample {
                    face: face as u32,
                    corners: [a, pair[0], pair[1]],
                    cumulative: total,
                });
            }
        }
    }
    samples
}

/// A point of A's walkable surface and its face.
fn sample_point(samples: &[Sample], random: &mut SplitMix) -> Option<(u32, Point)> {
    let total = samples.last()?.cumulative;
    let pick = random.unit() * total;
    let index = samples
        .partition_point(|s| s.cumulative <= pick)
        .min(samples.len() - 1);
    let s = samples.get(index)?;
    let (r1, r2) = (random.unit().sqrt(), random.unit());
    let [a, b, c] = s.corners;
    let (wa, wb, wc) = (1.0 - r1, r1 * (1.0 - r2), r1 * r2);
    Some((
        s.face,
        [
            wa * a[0] + wb * b[0] + wc * c[0],
            wa * a[1] + wb * b[1] + wc * c[1],
            wa * a[2] + wb * b[2] + wc * c[2],
        ],
    ))
}

/// Compares the reachability of `pairs` sampled point pairs between `a` and `b` (at most
/// [`MAX_PAIRS`]).
pub fn reach_diff(a: &NavMesh, b: &NavMesh, pairs: usize, seed: u64) -> ReachDiff {
    let pairs = pairs.min(MAX_PAIRS);
    let (router_a, router_b) = (SurfaceRouter::new(a), SurfaceRouter::new(b));
    let labels_a = connected_components(a, router_a.adjacency(), |p| a.is_walkable(p)).label;
    let labels_b = connected_components(b, router_b.adjacency(), |p| b.is_walkable(p)).label;
    let samples = fan_triangles(&router_a);
    let mut random = SplitMix(seed);
    let mut diff = ReachDiff {
        pairs: 0,
        seed,
        off_b: 0,
        differing: Vec::new(),
    };
    let label = |labels: &[u32], face: u32| labels.get(face as usize).copied();
    for _ in 0..pairs {
        let (Some((fa, p)), Some((fb, q))) = (
            sample_point(&samples, &mut random),
            sample_point(&samples, &mut random),
        ) else {
            break;
        };
        diff.pairs += 1;
        let in_a = label(&labels_a, fa) == label(&labels_a, fb);
        let (Ok(pb), Ok(qb)) = (router_b.locate(p), router_b.locate(q)) else {
            diff.off_b += 1;
            continue;
        };
        let in_b = label(&labels_b, pb.face) == label(&labels_b, qb.face);
        if in_a != in_b {
            diff.differing.push(PairDifference {
                from: p,
                to: q,
                reachable_in_a: in_a,
                reachable_in_b: in_b,
            });
        }
    }
    diff
}
