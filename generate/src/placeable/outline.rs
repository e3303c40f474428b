//! A set of grid columns as flat triangles: the boundary rings on the cell lines, simplified
//! within the outline tolerance, triangulated (constrained Delaunay) and the triangles inside
//! kept.

use std::collections::HashMap;

use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::grid::Grid;

/// A grid corner (x, y) in cell units.
type Corner = [i64; 2];

/// The plan triangles (counter-clockwise) covering the columns `inside` marks (outline within
/// `tolerance` metres of the cells' centres' shape), and how
/// many ring edges the triangulation could not keep.
pub fn triangles(grid: &Grid, inside: &[bool], tolerance: f64) -> (Vec<[[f64; 2]; 3]>, usize) {
    // The cell outline is within half a cell of the shape; the simplification may add the
    // rest of `tolerance`, never less than half a cell (a staircase's own steps).
    let cells = ((tolerance / grid.cell) - 0.5).max(0.5);
    let rings: Vec<Vec<[f64; 2]>> = trace(grid, inside)
        .iter()
        .map(|ring| simplify(&straighten(ring), cells))
        .filter(|ring| ring.len() >= 3)
        .map(|ring| ring.iter().map(|&c| plan(grid, c)).collect())
        .collect();
    triangulate(&rings)
}

fn plan(grid: &Grid, c: Corner) -> [f64; 2] {
    [
        grid.origin[0] + c[0] as f64 * grid.cell,
        grid.origin[1] + c[1] as f64 * grid.cell,
    ]
}

/// The boundary of the marked columns as closed rings of cell corners, the marked side on
/// the left (outer rings counter-clockwise, holes clockwise).
fn trace(grid: &Grid, inside: &[bool]) -> Vec<Vec<Corner>> {
    let marked = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as usize) < grid.width
            && (y as usize) < grid.height
            && inside.get(grid.index(x as usize, y as usize)) == Some(&true)
    };
    let mut outgoing: HashMap<Corner, Vec<Corner>> = HashMap::new();
    for y in 0..grid.height as i64 {
        for x in 0..grid.width as i64 {
            if !marked(x, y) {
                continue;
            }
            let sides = [
                (!marked(x, y - 1), [x, y], [x + 1, y]),
                (!marked(x + 1, y), [x + 1, y], [x + 1, y + 1]),
                (!marked(x, y + 1), [x + 1, y + 1], [x, y + 1]),
                (!marked(x - 1, y), [x, y + 1], [x, y]),
            ];
            for (open, from, to) in sides {
                if open {
                    outgoing.entry(from).or_default().push(to);
                }
            }
        }
    }
    walk(outgoing)
}

/// Chains directed edges into rings; at a corner two marked columns share diagonally, the
/// walk turns right (so the two columns' rings touch there without crossing).
fn walk(mut outgoing: HashMap<Corner, Vec<Corner>>) -> Vec<Vec<Corner>> {
    let mut starts: Vec<Corner> = outgoing.keys().copied().collect();
    starts.sort_unstable();
    let mut rings = Vec::new();
    for start in starts {
        while outgoing.get(&start).is_some_and(|v| !v.is_empty()) {
            let mut ring = vec![start];
            let mut previous: Option<Corner> = None;
            let mut at = start;
            while let Some(next) = take_next(&mut outgoing, previous, at) {
                previous = Some(at);
                at = next;
                if at == start {
                    break;
                }
                ring.push(at);
            }
            rings.push(ring);
        }
    }
    rings
}

fn take_next(
    outgoing: &mut HashMap<Corner, Vec<Corner>>,
    previous: Option<Corner>,
    at: Corner,
) -> Option<Corner> {
    let choices = outgoing.get_mut(&at)?;
    let pick = match (previous, choices.len()) {
        (_, 0) => return None,
        (Some(p), n) if n > 1 => {
            let heading = [at[0] - p[0], at[1] - p[1]];
            // Right turn: the candidate whose direction is heading rotated clockwise.
            let right = [heading[1], -heading[0]];
            choices
                .iter()
                .position(|c| [c[0] - at[0], c[1] - at[1]] == right)
                .unwrap_or(0)
        }
        _ => 0,
    };
    Some(choices.swap_remove(pick))
}

/// The ring without the corners that lie on a straight run.
fn straighten(ring: &[Corner]) -> Vec<Corner> {
    let n = ring.len();
    (0..n)
        .filter_map(|i| {
            let prev = ring.get((i + n - 1) % n)?;
            let here = ring.get(i)?;
            let next = ring.get((i + 1) % n)?;
            let turn = (here[0] - prev[0]) * (next[1] - here[1])
                - (here[1] - prev[1]) * (next[0] - here[0]);
            (turn != 0).then_some(*here)
        })
        .collect()
}

/// Douglas–Peucker on the closed ring within `tolerance` cells, split at its first corner
/// and the corner farthest from it.
fn simplify(ring: &[Corner], tolerance: f64) -> Vec<Corner> {
    if ring.len() <= 4 || tolerance <= 0.0 {
        return ring.to_vec();
    }
    let Some(&first) = ring.first() else {
        return Vec::new();
    };
    let far = (1..ring.len())
        .max_by(|&a, &b| squared(ring, first, a).total_cmp(&squared(ring, first, b)))
        .unwrap_or(1);
    let mut closed = ring.to_vec();
    closed.push(first);
    let mut keep = vec![false; closed.len()];
    keep[0] = true;
    keep[far] = true;
    douglas_peucker(&closed, 0, far, tolerance, &mut keep);
    douglas_peucker(&closed, far, closed.len() - 1, tolerance, &mut keep);
    ring.iter()
        .zip(&keep)
        .filter_map(|(c, k)| k.then_some(*c))
        .collect()
}

fn squared(ring: &[Corner], a: Corner, i: usize) -> f64 {
    ring.get(i).map_or(0.0, |b| {
        ((b[0] - a[0]) as f64).powi(2) + ((b[1] - a[1]) as f64).powi(2)
    })
}

fn douglas_peucker(points: &[Corner], from: usize, to: usize, tolerance: f64, keep: &mut [bool]) {
    if to <= from + 1 {
        return;
    }
    let (Some(&a), Some(&b)) = (points.get(from), points.get(to)) else {
        return;
    };
    let mut worst = (0.0, from);
    for i in from + 1..to {
        if let Some(&p) = points.get(i) {
            let d = distance(p, a, b);
            if d > worst.0 {
                worst = (d, i);
            }
        }
    }
    if worst.0 > tolerance {
        if let Some(k) = keep.get_mut(worst.1) {
            *k = true;
        }
        douglas_peucker(points, from, worst.1, tolerance, keep);
        douglas_peucker(points, worst.1, to, tolerance, keep);
    }
}

fn distance(p: Corner, a: Corner, b: Corner) -> f64 {
    let [px, py, ax, ay, bx, by] = [p[0], p[1], a[0], a[1], b[0], b[1]].map(|v| v as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let length = dx * dx + dy * dy;
    let t = if length > 0.0 {
        (((px - ax) * dx + (py - ay) * dy) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (px - ax - t * dx).hypot(py - ay - t * dy)
}

/// Constrained Delaunay of the rings; the triangles whose centre is inside (even–odd over
/// every ring), counter-clockwise; and the number of ring edges that crossed another.
fn triangulate(rings: &[Vec<[f64; 2]>]) -> (Vec<[[f64; 2]; 3]>, usize) {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let mut skipped = 0;
    for ring in rings {
        let handles: Vec<_> = ring
            .iter()
            .filter_map(|p| cdt.insert(Point2::new(p[0], p[1])).ok())
            .collect();
        for (k, &a) in handles.iter().enumerate() {
            let Some(&b) = handles.get((k + 1) % handles.len()) else {
                continue;
            };
            if a != b && cdt.try_add_constraint(a, b).is_empty() {
                skipped += 1;
            }
        }
    }
    let mut out = Vec::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.positions().map(|p| [p.x, p.y]);
        let centre = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
        if !inside(rings, centre) {
            continue;
        }
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if area.abs() < 1e-9 {
            continue;
        }
        out.push(if area > 0.0 { [a, b, c] } else { [a, c, b] });
    }
    (out, skipped)
}

fn inside(rings: &[Vec<[f64; 2]>], p: [f64; 2]) -> bool {
    let mut crossings = 0;
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let (Some(a), Some(b)) = (ring.get(i), ring.get((i + 1) % n)) else {
                continue;
            };
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
                if p[0] < x {
                    crossings += 1;
                }
            }
        }
    }
    crossings % 2 == 1
}
