//! Walkable footprints seen from above, rasterised on a fine plan grid, and their comparison
//! (IoU, precision, recall, regions one has and the other lacks). Used to measure generated
//! walkmeshes against the game's own.

use serde::Serialize;
use walkmesh_core::NavMesh;

/// A plan grid of covered cells.
#[derive(Clone, Debug)]
pub struct Footprint {
    pub origin: [f64; 2],
    pub cell: f64,
    pub width: usize,
    pub height: usize,
    pub covered: Vec<bool>,
}

/// A connected piece of one footprint.
#[derive(Clone, Debug, Serialize)]
pub struct Piece {
    pub area: f64,
    /// Share of its area the other footprint covers.
    pub covered_by_other: f64,
    pub centre: [f64; 2],
}

/// How a footprint (ours) compares with a reference (theirs).
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub ours_area: f64,
    pub theirs_area: f64,
    pub iou: f64,
    /// Share of ours that theirs covers.
    pub precision: f64,
    /// Share of theirs that ours covers.
    pub recall: f64,
    /// Our pieces of at least `min_piece` m² that theirs covers less than half of.
    pub spurious: Vec<Piece>,
    /// Their pieces of at least `min_piece` m² that ours covers less than half of.
    pub missed: Vec<Piece>,
}

/// Plan triangles of a mesh's walkable faces.
fn walkable_triangles(mesh: &NavMesh) -> Vec<[[f64; 2]; 3]> {
    let mut out = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let v: Vec<[f64; 2]> = corners
            .iter()
            .map(|&i| {
                let q = mesh.vertex(i);
                [f64::from(q[0]), f64::from(q[1])]
            })
            .collect();
        let Some(&a) = v.first() else { continue };
        for w in v.windows(2).skip(1) {
            if let (Some(&b), Some(&c)) = (w.first(), w.get(1)) {
                out.push([a, b, c]);
            }
        }
    }
    out
}

impl Footprint {
    /// Rasterises `triangles` (cell centres inside) over the plan box `lo..hi`.
    fn rasterise(triangles: &[[[f64; 2]; 3]], lo: [f64; 2], hi: [f64; 2], cell: f64) -> Footprint {
        let width = ((hi[0] - lo[0]) / cell).ceil().max(1.0) as usize;
        let height = ((hi[1] - lo[1]) / cell).ceil().max(1.0) as usize;
        let mut covered = vec![false; width * height];
        for t in triangles {
            let xs = t.map(|p| p[0]);
            let ys = t.map(|p| p[1]);
            let lo_index = |v: f64, origin: f64| ((v - origin) / cell - 0.5).ceil().max(0.0) as i64;
            let hi_index = |v: f64, origin: f64, n: usize| {
                (((v - origin) / cell - 0.5).floor() as i64).min(n as i64 - 1)
            };
            let x0 = lo_index(xs.iter().fold(f64::MAX, |a, &b| a.min(b)), lo[0]);
            let x1 = hi_index(xs.iter().fold(f64::MIN, |a, &b| a.max(b)), lo[0], width);
            let y0 = lo_index(ys.iter().fold(f64::MAX, |a, &b| a.min(b)), lo[1]);
            let y1 = hi_index(ys.iter().fold(f64::MIN, |a, &b| a.max(b)), lo[1], height);
            let [a, b, c] = *t;
            let side = |p: [f64; 2], q: [f64; 2], r: [f64; 2]| {
                (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let p = [
                        lo[0] + (x as f64 + 0.5) * cell,
                        lo[1] + (y as f64 + 0.5) * cell,
                    ];
                    let d = [side(a, b, p), side(b, c, p), side(c, a, p)];
                    let inside = d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0);
                    if inside && let Some(slot) = covered.get_mut(y as usize * width + x as usize) {
                        *slot = true;
                    }
                }
            }
        }
        Footprint {
            origin: lo,
            cell,
            width,
            height,
            covered,
        }
    }

    /// Connected pieces (8-connected cells) as cell lists.
    fn pieces(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.covered.len()];
        let mut pieces = Vec::new();
        for start in 0..self.covered.len() {
            if !self.covered.get(start).copied().unwrap_or(false)
                || seen.get(start).copied().unwrap_or(true)
            {
                continue;
            }
            let mut piece = Vec::new();
            let mut stack = vec![start];
            if let Some(s) = seen.get_mut(start) {
                *s = true;
            }
            while let Some(i) = stack.pop() {
                piece.push(i);
                let (x, y) = ((i % self.width) as i64, (i / self.width) as i64);
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (x + dx, y + dy);
                        if nx < 0
                            || ny < 0
                            || nx as usize >= self.width
                            || ny as usize >= self.height
                        {
                            continue;
                        }
                        let j = ny as usize * self.width + nx as usize;
                        if self.covered.get(j).copied().unwrap_or(false)
                            && !seen.get(j).copied().unwrap_or(true)
                        {
                            if let Some(s) = seen.get_mut(j) {
                                *s = true;
                            }
                            stack.push(j);
                        }
                    }
                }
            }
            pieces.push(piece);
        }
        pieces
    }

    fn describe(&self, piece: &[usize], other: &Footprint) -> Piece {
        let cell_area = self.cell * self.cell;
        let covered = piece
            .iter()
            .filter(|&&i| other.covered.get(i).copied().unwrap_or(false))
            .count();
        let (mut sx, mut sy) = (0.0, 0.0);
        for &i in piece {
            sx += self.origin[0] + ((i % self.width) as f64 + 0.5) * self.cell;
            sy += self.origin[1] + ((i / self.width) as f64 + 0.5) * self.cell;
        }
        let n = piece.len().max(1) as f64;
        Piece {
            area: piece.len() as f64 * cell_area,
            covered_by_other: covered as f64 / n,
            centre: [sx / n, sy / n],
        }
    }
}

/// The walkable footprints of `ours` and `theirs` on one plan grid of `cell` metres (the
/// box of both), as [`compare`] measures them.
pub fn footprints(ours: &NavMesh, theirs: &NavMesh, cell: f64) -> (Footprint, Footprint) {
    let (a, b) = (walkable_triangles(ours), walkable_triangles(theirs));
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in a.iter().chain(&b).flatten() {
        lo = [lo[0].min(p[0]), lo[1].min(p[1])];
        hi = [hi[0].max(p[0]), hi[1].max(p[1])];
    }
    if a.is_empty() && b.is_empty() {
        lo = [0.0; 2];
        hi = [0.0; 2];
    }
    (
        Footprint::rasterise(&a, lo, hi, cell),
        Footprint::rasterise(&b, lo, hi, cell),
    )
}

/// Compares the walkable footprints of `ours` and `theirs` on a plan grid of `cell` metres;
/// pieces under `min_piece` m² are not listed.
pub fn compare(ours: &NavMesh, theirs: &NavMesh, cell: f64, min_piece: f64) -> Comparison {
    let (fa, fb) = footprints(ours, theirs, cell);
    let cell_area = cell * cell;
    let count = |f: &Footprint| f.covered.iter().filter(|&&c| c).count() as f64;
    let both = fa
        .covered
        .iter()
        .zip(&fb.covered)
        .filter(|&(&x, &y)| x && y)
        .count() as f64;
    let (na, nb) = (count(&fa), count(&fb));
    let ratio = |x: f64, y: f64| if y > 0.0 { x / y } else { 1.0 };
    let unmatched = |f: &Footprint, other: &Footprint| {
        f.pieces()
            .iter()
            .map(|p| f.describe(p, other))
            .filter(|p| p.area >= min_piece && p.covered_by_other < 0.5)
            .collect()
    };
    Comparison {
        ours_area: na * cell_area,
        theirs_area: nb * cell_area,
        iou: ratio(both, na + nb - both),
        precision: ratio(both, na),
        recall: ratio(both, nb),
        spurious: unmatched(&fa, &fb),
        missed: unmatched(&fb, &fa),
    }
}
