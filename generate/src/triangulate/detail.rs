//! Detail heights, as Recast's detail mesh makes them: the outline edges and the inside of a
//! layer are sampled on the render floor, and a point goes in wherever the triangulated
//! surface is more than `detail_error` off the floor, the worst first, until none is.
//!
//! * Edges: each outline edge is sampled about [`SAMPLE_SPACING`] apart and split
//!   Douglas–Peucker-wise in height (the worst sample first, until every sample is within
//!   the error of the polyline), the same points whichever way the edge is walked. Edges
//!   shorter than two spacings are never split: the outline a layer shares with a
//!   neighbouring layer is kept corner by corner (`outline.rs`), so its edges are a cell long
//!   and both layers keep the same vertices (no T-junction).
//! * Inside: cell centres on a lattice of the same spacing; per round, every face not yet
//!   known to fit gets its worst sample inserted when that is over the error. A face that
//!   fits is remembered by its corners, so later rounds look only at faces that changed.
//!   Samples in the low cell of a step (the one-cell riser the step lines make, planar by
//!   design) are not taken.

use std::collections::{HashMap, HashSet};

use spade::handles::{DirectedEdgeHandle, FixedVertexHandle};
use spade::{CdtEdge, Point2, Triangulation};

use super::{Cdt, Ground, vertex_height};
use crate::report::Report;

/// Distance between height samples on edges and inside (m), at least two cells: half a metre
/// keeps the floor between samples within a few centimetres of straight for bumps a few
/// metres across (a ±0.5 m bump every 4.8 m bends 4 cm over 0.6 m), and costs one render
/// floor look-up per 0.25 m² of floor.
const SAMPLE_SPACING: f64 = 0.5;

/// Rounds of interior refinement (each splits every face that does not fit yet).
const MAX_ROUNDS: usize = 64;

/// Points one layer may gain, per cell (a guard: each lattice point goes in at most once).
const MAX_POINTS_PER_CELL: f64 = 0.5;

/// The lattice step in cells.
pub(super) fn sample_cells(ground: &Ground) -> i64 {
    (SAMPLE_SPACING / f64::from(ground.field.cell_size))
        .round()
        .max(2.0) as i64
}

/// Points to insert on the outline edge from `a` to `b` (heights `za`, `zb`), in that order.
pub(super) fn edge_points(
    ground: &Ground,
    (a, za): ([f64; 2], f32),
    (b, zb): ([f64; 2], f32),
) -> Vec<[f64; 2]> {
    // The same points whichever way the edge is walked.
    if (b[0], b[1]) < (a[0], a[1]) {
        let mut points = edge_points(ground, (b, zb), (a, za));
        points.reverse();
        return points;
    }
    let spacing = sample_cells(ground) as f64 * f64::from(ground.field.cell_size);
    let length = (b[0] - a[0]).hypot(b[1] - a[1]);
    let n = (length / spacing).floor() as usize;
    if n < 2 {
        return Vec::new();
    }
    let point = |k: usize| {
        let t = k as f64 / n as f64;
        [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
    };
    let mut samples: Vec<Option<f32>> = (0..=n).map(|k| ground.sample_height(point(k))).collect();
    if let Some(first) = samples.first_mut() {
        *first = Some(za);
    }
    if let Some(last) = samples.last_mut() {
        *last = Some(zb);
    }
    let kept = douglas_peucker(&samples, ground.params.detail_error);
    (1..n)
        .filter(|&k| kept.get(k).copied().unwrap_or(false))
        .map(point)
        .collect()
}

/// Which of the evenly spaced `samples` (ends known) to keep so that the polyline through
/// them is within `error` of every known sample: the worst one first, until none is over.
fn douglas_peucker(samples: &[Option<f32>], error: f32) -> Vec<bool> {
    let n = samples.len();
    let mut kept = vec![false; n];
    for end in [0, n.saturating_sub(1)] {
        if let Some(k) = kept.get_mut(end) {
            *k = true;
        }
    }
    loop {
        let mut worst: Option<(f32, usize)> = None;
        let mut start = 0;
        for end in 1..n {
            if !kept.get(end).copied().unwrap_or(false) {
                continue;
            }
            let (Some(Some(zs)), Some(Some(ze))) = (samples.get(start), samples.get(end)) else {
                start = end;
                continue;
            };
            for j in start + 1..end {
                let Some(Some(z)) = samples.get(j) else {
                    continue;
                };
                let t = (j - start) as f32 / (end - start) as f32;
                let off = (z - (zs + t * (ze - zs))).abs();
                if off > error && worst.is_none_or(|(w, _)| off > w) {
                    worst = Some((off, j));
                }
            }
            start = end;
        }
        match worst.and_then(|(_, j)| kept.get_mut(j)) {
            Some(k) => *k = true,
            None => return kept,
        }
    }
}

/// The worst sample of one face: how far off, where, and its lattice cell.
struct Worst {
    off: f32,
    at: [f64; 2],
    cell: (i64, i64),
}

/// Sampling state of one layer.
struct Sampler<'g, 'a> {
    ground: &'g Ground<'a>,
    k: i64,
    /// Render floor heights of lattice cells, looked up once.
    cache: HashMap<(i64, i64), Option<f32>>,
    /// Lattice cells already inserted (a vertex there fits by construction).
    inserted: HashSet<(i64, i64)>,
}

impl Sampler<'_, '_> {
    fn centre(&self, (x, y): (i64, i64)) -> [f64; 2] {
        let cs = f64::from(self.ground.field.cell_size);
        [
            f64::from(self.ground.field.origin[0]) + (x as f64 + 0.5) * cs,
            f64::from(self.ground.field.origin[1]) + (y as f64 + 0.5) * cs,
        ]
    }

    /// Render floor height at lattice cell `cell`, None where it is no sample (not in the
    /// layer, a step's riser, no floor found).
    fn height(&mut self, cell: (i64, i64)) -> Option<f32> {
        if let Some(&z) = self.cache.get(&cell) {
            return z;
        }
        let z = if self.ground.layer.at(cell.0, cell.1).is_some() && !self.ground.riser(cell) {
            self.ground.sample_height(self.centre(cell))
        } else {
            None
        };
        self.cache.insert(cell, z);
        z
    }

    /// The lattice sample in triangle `t` (corners counter-clockwise, heights `z`) farthest
    /// from its plane. A sample on an edge (within a hundredth of a cell) belongs to both
    /// faces of the edge, except on a constraint edge (`fixed[i]`: the edge opposite corner
    /// i is an outline or step line, which only the edge sampling splits).
    fn worst(&mut self, t: [[f64; 2]; 3], z: [f32; 3], fixed: [bool; 3]) -> Option<Worst> {
        let cs = f64::from(self.ground.field.cell_size);
        let [ox, oy] = [0, 1].map(|i| f64::from(self.ground.field.origin[i]));
        let [a, b, c] = t;
        let area2 = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if area2 <= 0.0 {
            return None;
        }
        let margin = 0.01 * cs;
        let lengths = [(b, c), (c, a), (a, b)].map(|(p, q)| (q[0] - p[0]).hypot(q[1] - p[1]));
        let (lo, hi) = t
            .iter()
            .fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
                (
                    [lo[0].min(p[0]), lo[1].min(p[1])],
                    [hi[0].max(p[0]), hi[1].max(p[1])],
                )
            });
        let k = self.k;
        let first = |v: f64, o: f64| align_up(((v - o) / cs - 0.5).ceil() as i64, k);
        let mut worst: Option<Worst> = None;
        let mut y = first(lo[1], oy);
        while oy + (y as f64 + 0.5) * cs <= hi[1] {
            let mut x = first(lo[0], ox);
            while ox + (x as f64 + 0.5) * cs <= hi[0] {
                let cell = (x, y);
                x += k;
                let p = self.centre(cell);
                let l = [(b, c), (c, a), (a, b)].map(|(q, r)| {
                    ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])) / area2
                });
                let clear = l
                    .iter()
                    .zip(lengths)
                    .zip(fixed)
                    .all(|((&l, length), fixed)| {
                        let distance = l * area2 / length.max(f64::MIN_POSITIVE);
                        distance > margin || (!fixed && distance >= -margin)
                    });
                if !clear || self.inserted.contains(&cell) {
                    continue;
                }
                let Some(floor) = self.height(cell) else {
                    continue;
                };
                let plane = (l[0] * f64::from(z[0])
                    + l[1] * f64::from(z[1])
                    + l[2] * f64::from(z[2])) as f32;
                let off = (plane - floor).abs();
                if worst.as_ref().is_none_or(|w| off > w.off) {
                    worst = Some(Worst { off, at: p, cell });
                }
            }
            y += k;
        }
        worst
    }
}

/// Which edges of a face (the one opposite each of its corners `vs`) are constraints.
fn constraint_edges(
    cdt: &Cdt,
    vs: [FixedVertexHandle; 3],
    edges: [DirectedEdgeHandle<'_, Point2<f64>, (), CdtEdge<()>, ()>; 3],
) -> [bool; 3] {
    let mut fixed = [false; 3];
    for edge in edges {
        let ends = [edge.from().fix(), edge.to().fix()];
        let opposite = vs.iter().position(|v| !ends.contains(v));
        if let Some(slot) = opposite.and_then(|i| fixed.get_mut(i)) {
            *slot = cdt.is_constraint_edge(edge.as_undirected().fix());
        }
    }
    fixed
}

/// The smallest multiple of `k` at or above `v`.
fn align_up(v: i64, k: i64) -> i64 {
    v + (k - v.rem_euclid(k)) % k
}

/// Inserts lattice points where faces are more than `detail_error` off the render floor.
pub(super) fn refine(
    cdt: &mut Cdt,
    ground: &Ground,
    heights: &mut HashMap<usize, f32>,
    report: &mut Report,
) {
    let error = ground.params.detail_error;
    let budget = (ground.layer.nodes.len() as f64 * MAX_POINTS_PER_CELL) as usize + 16;
    let mut sampler = Sampler {
        ground,
        k: sample_cells(ground),
        cache: HashMap::new(),
        inserted: HashSet::new(),
    };
    let mut settled: HashSet<[usize; 3]> = HashSet::new();
    let mut added = 0;
    for _ in 0..MAX_ROUNDS {
        let mut wanted: Vec<(Worst, FixedVertexHandle)> = Vec::new();
        for face in cdt.inner_faces() {
            let vs = face.vertices().map(|v| v.fix());
            let mut key = vs.map(|v| v.index());
            key.sort_unstable();
            if settled.contains(&key) {
                continue;
            }
            let positions = face.positions().map(|p| [p.x, p.y]);
            let [a, b, c] = positions;
            let centre = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
            if !ground.face_inside(centre) {
                settled.insert(key);
                continue;
            }
            let z = vs.map(|v| vertex_height(cdt, ground, heights, v));
            let fixed = constraint_edges(cdt, vs, face.adjacent_edges());
            match sampler.worst(positions, z, fixed) {
                Some(w) if w.off > error => wanted.push((w, vs[0])),
                _ => {
                    settled.insert(key);
                }
            }
        }
        let mut inserted = false;
        for (w, hint) in wanted {
            if added >= budget {
                break;
            }
            if sampler.inserted.insert(w.cell)
                && cdt
                    .insert_with_hint(Point2::new(w.at[0], w.at[1]), hint)
                    .is_ok()
            {
                added += 1;
                inserted = true;
            }
        }
        if !inserted {
            break;
        }
    }
    report.detail_points += added;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn douglas_peucker_keeps_the_worst_samples_until_all_fit() {
        // A tent: the peak goes in, then nothing else is off.
        let tent: Vec<Option<f32>> = [0.0, 0.1, 0.2, 0.3, 0.2, 0.1, 0.0].map(Some).to_vec();
        let kept = douglas_peucker(&tent, 0.05);
        assert_eq!(kept, [true, false, false, true, false, false, true]);
        // A straight line needs nothing; unknown samples are ignored.
        let line = [Some(0.0), None, Some(0.2), Some(0.3), Some(0.4)];
        assert_eq!(
            douglas_peucker(&line, 0.01),
            [true, false, false, false, true]
        );
    }

    #[test]
    fn lattice_alignment_rounds_up_to_a_multiple() {
        assert_eq!(align_up(5, 3), 6);
        assert_eq!(align_up(6, 3), 6);
        assert_eq!(align_up(-4, 3), -3);
        assert_eq!(align_up(-3, 3), -3);
    }
}
