//! Plan outlines of a layer: boundary rings on the cell grid's corners (inside on the left:
//! outer rings counter-clockwise, holes clockwise), then simplified.

use std::collections::{HashMap, HashSet};

use crate::Params;
use crate::graph::{Graph, Layer};
use crate::voxel::Heightfield;

/// A ring of grid corners (corner (i, j) is at `origin + (i, j)·cell_size`).
pub type Ring = Vec<[i64; 2]>;

/// A directed boundary edge between two grid corners.
pub type Edge = ([i64; 2], [i64; 2]);

/// What outlining a layer looks at besides the layer.
#[derive(Debug)]
pub struct Context<'a> {
    pub graph: &'a Graph,
    pub field: &'a Heightfield,
    /// Layer of each node (u32::MAX: not kept).
    pub layer_of: &'a [u32],
    pub params: &'a Params,
}

/// The simplified boundary rings of layer `id`. Corners on a boundary the layer shares with
/// another layer (the floor goes on there, only the layer changes) are all kept, so both
/// layers have the same corners along it: no overlap, no gap, no T-junction between them.
pub fn rings(layer: &Layer, id: u32, context: &Context) -> Vec<Ring> {
    let tolerance = f64::from(context.params.max_edge_error / context.field.cell_size);
    let (edges, fixed) = boundary_edges(layer, id, context);
    let mut claims = Claims {
        layer,
        id,
        context,
        reach: tolerance.ceil().max(0.0) as i64 + 1,
        free: HashMap::new(),
    };
    let traced = trace(&edges);
    let mut rings: Vec<Ring> = traced
        .iter()
        .map(|ring| simplify(ring, &fixed, tolerance, &mut |chain| claims.clear(chain)))
        .collect();
    // A simplified ring can cross itself or another ring of the layer (two runs straightened
    // into the same gap); the triangulation then refuses an edge and has no exact outline
    // to choose faces by. Such rings go back to their cell outline (which never crosses)
    // until none crosses.
    loop {
        let crossing = crossing_rings(&rings);
        let mut changed = false;
        for i in crossing {
            let (Some(ring), Some(traced)) = (rings.get_mut(i), traced.get(i)) else {
                continue;
            };
            let unsimplified = turn_corners(traced, &fixed);
            if *ring != unsimplified {
                *ring = unsimplified;
                changed = true;
            }
        }
        if !changed {
            return rings;
        }
    }
}

/// The rings (by index) with an edge meeting another edge anywhere but at a corner of both.
fn crossing_rings(rings: &[Ring]) -> HashSet<usize> {
    let mut segments: Vec<(usize, [i64; 2], [i64; 2])> = rings
        .iter()
        .enumerate()
        .flat_map(|(r, ring)| {
            (0..ring.len())
                .filter_map(move |i| Some((r, *ring.get(i)?, *ring.get((i + 1) % ring.len())?)))
        })
        .filter(|(_, a, b)| a != b)
        .collect();
    segments.sort_unstable_by_key(|(_, a, b)| a[0].min(b[0]));
    let mut crossing = HashSet::new();
    for (i, &(r, a, b)) in segments.iter().enumerate() {
        let x_end = a[0].max(b[0]);
        for &(s, c, d) in segments.iter().skip(i + 1) {
            if c[0].min(d[0]) > x_end {
                break;
            }
            if segments_clash((a, b), (c, d)) {
                crossing.insert(r);
                crossing.insert(s);
            }
        }
    }
    crossing
}

/// Two segments meet other than at an end of both (crossing, overlapping, or one's end on
/// the other's inside).
fn segments_clash((a, b): Edge, (c, d): Edge) -> bool {
    let orient = |p: [i64; 2], q: [i64; 2], r: [i64; 2]| {
        let v = i128::from(q[0] - p[0]) * i128::from(r[1] - p[1])
            - i128::from(q[1] - p[1]) * i128::from(r[0] - p[0]);
        v.signum()
    };
    // On segment p–q, given collinear.
    let within = |p: [i64; 2], q: [i64; 2], r: [i64; 2]| {
        r[0] >= p[0].min(q[0])
            && r[0] <= p[0].max(q[0])
            && r[1] >= p[1].min(q[1])
            && r[1] <= p[1].max(q[1])
    };
    let [o1, o2, o3, o4] = [
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    ];
    if o1 == 0 && o2 == 0 {
        // Collinear: they clash when they share more than one end point.
        let shared = [c, d].iter().filter(|&&p| p == a || p == b).count();
        let inside = [c, d].iter().any(|&p| p != a && p != b && within(a, b, p))
            || [a, b].iter().any(|&p| p != c && p != d && within(c, d, p));
        return inside || shared == 2;
    }
    if o1 * o2 > 0 || o3 * o4 > 0 {
        return false;
    }
    // They meet at one point: fine only when it is an end of both.
    let ends_meet = [c, d].iter().any(|&p| p == a || p == b);
    !ends_meet
}

/// Where a simplified edge of one layer may stray off its cells. A simplified edge runs up
/// to the tolerance outside the cell outline, over cells that are not the layer's; were
/// another layer there (within a climb), the edge could pass through that layer's corners
/// (a T-junction: case 277 of the ragged-floor scenes) or its faces could cover the other
/// layer's. So an edge may cross, touch or cut off only the layer's own cells and empty
/// cells no other layer's cell is in, and with no layer of a lower id within `reach` cells
/// (the tolerance rounded up, plus one: a simplified edge stays within the tolerance of its
/// layer's cells, so a layer can only stray into cells within `reach` of its own). Of two
/// layers near one empty cell only the lower id may claim it, so their faces never
/// overlap, and neither layer's edges reach the other's cells or corners.
struct Claims<'c> {
    layer: &'c Layer,
    id: u32,
    context: &'c Context<'c>,
    reach: i64,
    /// Answers of [`Claims::free`], by cell.
    free: HashMap<[i64; 2], bool>,
}

impl Claims<'_> {
    /// The straight edge from the first to the last corner of `chain` (a run of the cell
    /// outline, in order) may replace the run: every cell it touches (its ends excepted, so
    /// it may start at a corner shared with another layer) or cuts off between itself and
    /// the run is the layer's own or an empty cell it may claim ([`Claims::free`]).
    fn clear(&mut self, chain: &[[i64; 2]]) -> bool {
        let (Some(&a), Some(&b)) = (chain.first(), chain.last()) else {
            return true;
        };
        let (lo, hi) = chain.iter().fold((a, a), |(lo, hi), c| {
            (
                [lo[0].min(c[0]), lo[1].min(c[1])],
                [hi[0].max(c[0]), hi[1].max(c[1])],
            )
        });
        // Asked only of runs within the tolerance of the edge, so a cell the edge touches or
        // cuts off has its centre within `reach` + 1 of the edge: the others are skipped.
        let near = (self.reach + 1) as f64;
        for y in lo[1] - 1..=hi[1] {
            for x in lo[0] - 1..=hi[0] {
                let centre = [x as f64 + 0.5, y as f64 + 0.5];
                if point_segment_distance(centre, a, b) > near {
                    continue;
                }
                let covered = segment_touches_cell(a, b, [x, y]) || in_pocket(chain, [x, y]);
                if covered && !self.free([x, y]) {
                    return false;
                }
            }
        }
        true
    }

    /// Cell `cell` is the layer's, or empty of other layers with no layer of a lower id
    /// within `reach` cells of it (counting only nodes within a climb of this layer's floors
    /// there).
    fn free(&mut self, cell: [i64; 2]) -> bool {
        if self.layer.at(cell[0], cell[1]).is_some() {
            return true;
        }
        if let Some(&free) = self.free.get(&cell) {
            return free;
        }
        let free = !self.other_layer_near(cell);
        self.free.insert(cell, free);
        free
    }

    fn other_layer_near(&self, cell: [i64; 2]) -> bool {
        let context = self.context;
        let r = self.reach;
        let around = |c: [i64; 2]| {
            (-r..=r).flat_map(move |dy| (-r..=r).map(move |dx| [c[0] + dx, c[1] + dy]))
        };
        let floors: Vec<i32> = around(cell)
            .filter_map(|c| self.layer.at(c[0], c[1]))
            .filter_map(|n| context.graph.nodes.get(n as usize))
            .map(|n| n.floor)
            .collect();
        let climb = context.params.climb_cells();
        around(cell)
            .filter_map(|c| Some((c == cell, context.field.column(c[0], c[1])?)))
            .flat_map(|(here, column)| context.graph.column_nodes(column).map(move |m| (here, m)))
            .any(|(here, m)| {
                let other = context.layer_of.get(m).copied().unwrap_or(u32::MAX);
                other != u32::MAX
                    && other != self.id
                    && (here || other < self.id)
                    && context.graph.nodes.get(m).is_some_and(|n| {
                        floors.is_empty() || floors.iter().any(|f| (n.floor - f).abs() <= climb)
                    })
            })
    }
}

/// The segment from corner `a` to corner `b`, its two ends left out, meets the closed
/// square of cell `cell` (Liang–Barsky clipping).
fn segment_touches_cell(a: [i64; 2], b: [i64; 2], cell: [i64; 2]) -> bool {
    const END: f64 = 1e-6;
    let [ax, ay, bx, by] = [a[0], a[1], b[0], b[1]].map(|v| v as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let (mut t0, mut t1) = (END, 1.0 - END);
    let [x0, y0] = cell.map(|v| v as f64);
    for (p, q) in [
        (-dx, ax - x0),
        (dx, x0 + 1.0 - ax),
        (-dy, ay - y0),
        (dy, y0 + 1.0 - ay),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    t0 <= t1
}

/// The centre of cell `cell` lies between the run `chain` and the straight edge closing it
/// (even-odd): a cell the edge would cut off or add without touching it.
fn in_pocket(chain: &[[i64; 2]], cell: [i64; 2]) -> bool {
    let p = [cell[0] as f64 + 0.5, cell[1] as f64 + 0.5];
    let n = chain.len();
    let mut inside = false;
    for (i, a) in chain.iter().enumerate() {
        let Some(b) = chain.get((i + 1) % n) else {
            continue;
        };
        let [ax, ay, bx, by] = [a[0], a[1], b[0], b[1]].map(|v| v as f64);
        if (ay > p[1]) != (by > p[1]) && p[0] < ax + (p[1] - ay) * (bx - ax) / (by - ay) {
            inside = !inside;
        }
    }
    inside
}

/// The two constraint lines of every step inside the layer (neighbouring cells whose floors
/// differ by more than a slope can rise over one cell): the cell edge between them (the step's
/// top, where the corners take the upper floor) and the low cell's far edge (the step's foot).
/// Triangulated with the rings, they make the step a one-cell riser between the two floors, so
/// a block within the climb keeps its own top instead of being flattened into the floor
/// around it (BioWare models steps the same way: a short steep strip between two treads).
pub fn step_segments(layer: &Layer, context: &Context) -> Vec<Edge> {
    let step = context.params.step_levels();
    let mut segments = HashSet::new();
    let [x0, y0, x1, y1] = layer.bounds.map(i64::from);
    let floor = |x: i64, y: i64| {
        layer
            .at(x, y)
            .and_then(|n| context.graph.nodes.get(n as usize))
            .map(|n| n.floor)
    };
    for y in y0..=y1 {
        for x in x0..=x1 {
            let Some(low) = floor(x, y) else { continue };
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let Some(high) = floor(x + dx, y + dy) else {
                    continue;
                };
                if high - low <= step {
                    continue;
                }
                for side in [cell_side(x, y, dx, dy), cell_side(x, y, -dx, -dy)] {
                    // Only inside the layer: a corner on the outline would be a vertex the
                    // neighbouring layer or room does not have (a T-junction).
                    if interior(layer, side.0) && interior(layer, side.1) {
                        segments.insert(side);
                    }
                }
            }
        }
    }
    merge_collinear(segments)
}

/// The cells within two of grid corner `c` are all in the layer: the corner is off the
/// outline and off its simplified edges (which stay within a cell of it), so inserting it
/// never splits a ring edge.
fn interior(layer: &Layer, c: [i64; 2]) -> bool {
    (-2..2).all(|dy| (-2..2).all(|dx| layer.at(c[0] + dx, c[1] + dy).is_some()))
}

/// Joins unit segments into straight runs through corners no other segment touches (fewer
/// vertices and faces; a corner where lines meet or turn stays a vertex).
fn merge_collinear(segments: HashSet<Edge>) -> Vec<Edge> {
    let mut degree: HashMap<[i64; 2], u32> = HashMap::new();
    for (a, b) in &segments {
        *degree.entry(*a).or_default() += 1;
        *degree.entry(*b).or_default() += 1;
    }
    let mut sorted: Vec<Edge> = segments.into_iter().collect();
    sorted.sort_unstable_by_key(|&(a, b)| {
        let vertical = a[0] == b[0];
        if vertical {
            (1, a[0], a[1])
        } else {
            (0, a[1], a[0])
        }
    });
    let mut out: Vec<Edge> = Vec::new();
    for (a, b) in sorted {
        if let Some(last) = out.last_mut() {
            let same_line = (last.0[0] == last.1[0]) == (a[0] == b[0])
                && ((a[0] == b[0] && a[0] == last.0[0]) || (a[1] == b[1] && a[1] == last.0[1]));
            if same_line && last.1 == a && degree.get(&a).copied() == Some(2) {
                last.1 = b;
                continue;
            }
        }
        out.push((a, b));
    }
    out
}

/// The edge of cell (x, y) facing direction (dx, dy), as a pair of grid corners.
fn cell_side(x: i64, y: i64, dx: i64, dy: i64) -> Edge {
    match (dx, dy) {
        (1, _) => ([x + 1, y], [x + 1, y + 1]),
        (-1, _) => ([x, y], [x, y + 1]),
        (_, 1) => ([x, y + 1], [x + 1, y + 1]),
        _ => ([x, y], [x + 1, y]),
    }
}

/// Directed boundary edges (from corner, to corner) and the corners that simplification must
/// keep: where two rings touch, and along boundaries shared with another layer.
fn boundary_edges(layer: &Layer, id: u32, context: &Context) -> (Vec<Edge>, HashSet<[i64; 2]>) {
    let mut edges = Vec::new();
    let mut fixed = HashSet::new();
    let [x0, y0, x1, y1] = layer.bounds.map(i64::from);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let Some(node) = layer.at(x, y) else { continue };
            let sides = [
                ((0, -1), [x, y], [x + 1, y]),
                ((1, 0), [x + 1, y], [x + 1, y + 1]),
                ((0, 1), [x + 1, y + 1], [x, y + 1]),
                ((-1, 0), [x, y + 1], [x, y]),
            ];
            for ((dx, dy), from, to) in sides {
                if layer.at(x + dx, y + dy).is_some() {
                    continue;
                }
                edges.push((from, to));
                for corner in [from, to] {
                    if touches_other_layer(node, corner, id, context) {
                        fixed.insert(corner);
                    }
                }
            }
        }
    }
    let mut starts: HashMap<[i64; 2], usize> = HashMap::new();
    for (from, _) in &edges {
        *starts.entry(*from).or_default() += 1;
    }
    fixed.extend(starts.into_iter().filter(|&(_, n)| n > 1).map(|(c, _)| c));
    (edges, fixed)
}

/// One of the four cells around grid corner `corner` holds a kept node of another layer
/// within a climb of `node`'s floor (across an edge or diagonally).
fn touches_other_layer(node: u32, corner: [i64; 2], id: u32, context: &Context) -> bool {
    let Some(here) = context.graph.nodes.get(node as usize) else {
        return false;
    };
    let climb = context.params.climb_cells();
    [(-1, -1), (0, -1), (-1, 0), (0, 0)].iter().any(|(dx, dy)| {
        let Some(column) = context.field.column(corner[0] + dx, corner[1] + dy) else {
            return false;
        };
        context.graph.column_nodes(column).any(|m| {
            let other = context.layer_of.get(m).copied().unwrap_or(u32::MAX);
            other != u32::MAX
                && other != id
                && context
                    .graph
                    .nodes
                    .get(m)
                    .is_some_and(|n| (n.floor - here.floor).abs() <= climb)
        })
    })
}

/// Links boundary edges into closed rings; at a corner where two rings touch, the left turn
/// is taken, so diagonal cells stay apart (the floor is 4-connected).
fn trace(edges: &[Edge]) -> Vec<Ring> {
    let mut outgoing: HashMap<[i64; 2], Vec<usize>> = HashMap::new();
    for (i, (from, _)) in edges.iter().enumerate() {
        outgoing.entry(*from).or_default().push(i);
    }
    let mut used = vec![false; edges.len()];
    let mut rings = Vec::new();
    for first in 0..edges.len() {
        if used.get(first).copied().unwrap_or(true) {
            continue;
        }
        let mut ring = Vec::new();
        let mut current = first;
        while let Some(&(from, to)) = edges.get(current) {
            if let Some(u) = used.get_mut(current) {
                *u = true;
            }
            ring.push(from);
            let incoming = [to[0] - from[0], to[1] - from[1]];
            let next = outgoing.get(&to).and_then(|options| {
                options
                    .iter()
                    .copied()
                    .filter(|&e| !used.get(e).copied().unwrap_or(true))
                    .max_by_key(|&e| {
                        let (f, t) = edges.get(e).copied().unwrap_or_default();
                        let out = [t[0] - f[0], t[1] - f[1]];
                        incoming[0] * out[1] - incoming[1] * out[0]
                    })
            });
            match next {
                Some(e) => current = e,
                None => break,
            }
        }
        if ring.len() >= 3 {
            rings.push(ring);
        }
    }
    rings
}

/// The corners of a traced ring where its direction changes, and its fixed ones: the cell
/// outline, unsimplified.
fn turn_corners(ring: &[[i64; 2]], fixed: &HashSet<[i64; 2]>) -> Ring {
    let n = ring.len();
    (0..n)
        .filter_map(|i| {
            let p = *ring.get((i + n - 1) % n)?;
            let c = *ring.get(i)?;
            let q = *ring.get((i + 1) % n)?;
            let turn = (c[0] - p[0]) * (q[1] - c[1]) - (c[1] - p[1]) * (q[0] - c[0]);
            (turn != 0 || fixed.contains(&c)).then_some(c)
        })
        .collect()
}

/// Keeps the corners where the direction changes, then Douglas–Peucker within `tolerance`
/// cells between anchors (the corners where rings touch, else the two farthest-apart
/// corners), so touching rings keep their common corner.
fn simplify(
    ring: &[[i64; 2]],
    fixed: &HashSet<[i64; 2]>,
    tolerance: f64,
    clear: &mut dyn FnMut(&[[i64; 2]]) -> bool,
) -> Ring {
    let corners = turn_corners(ring, fixed);
    if corners.len() <= 4 {
        return corners;
    }
    // The corners next to a fixed one are kept too, so a simplified edge never leaves a
    // fixed corner diagonally across the neighbouring layer's cell.
    let count = corners.len();
    let is_fixed = |i: usize| corners.get(i % count).is_some_and(|c| fixed.contains(c));
    let mut anchors: Vec<usize> = (0..count)
        .filter(|&i| is_fixed(i) || is_fixed(i + 1) || is_fixed(i + count - 1))
        .collect();
    if anchors.len() < 2 {
        let a = anchors.first().copied().unwrap_or(0);
        let pa = corners.get(a).copied().unwrap_or_default();
        let far = (0..corners.len())
            .max_by_key(|&i| {
                let c = corners.get(i).copied().unwrap_or_default();
                (c[0] - pa[0]).pow(2) + (c[1] - pa[1]).pow(2)
            })
            .unwrap_or(0);
        anchors = vec![a, far];
        anchors.sort_unstable();
        anchors.dedup();
    }
    let mut keep = vec![false; corners.len()];
    for (k, &a) in anchors.iter().enumerate() {
        let b = anchors.get((k + 1) % anchors.len()).copied().unwrap_or(a);
        if let Some(slot) = keep.get_mut(a) {
            *slot = true;
        }
        douglas_peucker(&corners, a, b, tolerance, &mut keep, clear);
    }
    let simplified: Ring = corners
        .iter()
        .zip(&keep)
        .filter(|&(_, &k)| k)
        .map(|(c, _)| *c)
        .collect();
    if simplified.len() >= 3 {
        simplified
    } else {
        corners
    }
}

/// Marks the corners strictly between `a` and `b` (cyclically) that Douglas–Peucker keeps:
/// a run is split at its farthest corner while that is over `tolerance` or the straight edge
/// replacing the run is not `clear` (see [`Claims::clear`]).
fn douglas_peucker(
    corners: &[[i64; 2]],
    a: usize,
    b: usize,
    tolerance: f64,
    keep: &mut [bool],
    clear: &mut dyn FnMut(&[[i64; 2]]) -> bool,
) {
    let n = corners.len();
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let (Some(&pa), Some(&pb)) = (corners.get(a), corners.get(b)) else {
            continue;
        };
        let mut worst = (-1.0f64, None);
        let mut chain = vec![pa];
        let mut i = (a + 1) % n;
        while i != b {
            if let Some(&p) = corners.get(i) {
                chain.push(p);
                let d = distance_to_segment(p, pa, pb);
                if d > worst.0 {
                    worst = (d, Some(i));
                }
            }
            i = (i + 1) % n;
        }
        chain.push(pb);
        if let (d, Some(i)) = worst
            && (d > tolerance || a == b || !clear(&chain))
        {
            if let Some(slot) = keep.get_mut(i) {
                *slot = true;
            }
            stack.push((a, i));
            stack.push((i, b));
        }
    }
}

fn distance_to_segment(p: [i64; 2], a: [i64; 2], b: [i64; 2]) -> f64 {
    point_segment_distance(p.map(|v| v as f64), a, b)
}

fn point_segment_distance(p: [f64; 2], a: [i64; 2], b: [i64; 2]) -> f64 {
    let [px, py] = p;
    let [ax, ay, bx, by] = [a[0], a[1], b[0], b[1]].map(|v| v as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let length2 = dx * dx + dy * dy;
    let t = if length2 > 0.0 {
        (((px - ax) * dx + (py - ay) * dy) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((ax + t * dx - px).powi(2) + (ay + t * dy - py).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_is_four_corners_and_a_staircase_is_straightened() {
        let square: Vec<[i64; 2]> = (0..4)
            .map(|i| [i, 0])
            .chain((0..4).map(|i| [4, i]))
            .chain((0..4).map(|i| [4 - i, 4]))
            .chain((0..4).map(|i| [0, 4 - i]))
            .collect();
        assert_eq!(
            simplify(&square, &HashSet::new(), 1.0, &mut |_| true),
            vec![[0, 0], [4, 0], [4, 4], [0, 4]]
        );
        // A triangle with a staircase hypotenuse.
        let mut stairs = vec![[0, 0], [6, 0]];
        for i in 0..6 {
            stairs.push([6 - i, i + 1]);
            stairs.push([5 - i, i + 1]);
        }
        stairs.pop();
        let simplified = simplify(&stairs, &HashSet::new(), 1.0, &mut |_| true);
        assert!(simplified.len() <= 4, "{simplified:?}");
    }

    #[test]
    fn segments_clash_unless_they_meet_at_an_end_of_both() {
        // Crossing, a T, and collinear overlap clash; sharing an end, or lying apart, not.
        assert!(segments_clash(([0, 0], [2, 2]), ([0, 2], [2, 0])));
        assert!(segments_clash(([0, 0], [2, 0]), ([1, 0], [1, 3])));
        assert!(segments_clash(([0, 0], [3, 0]), ([2, 0], [5, 0])));
        assert!(segments_clash(([0, 0], [3, 0]), ([3, 0], [0, 0])));
        assert!(!segments_clash(([0, 0], [2, 0]), ([2, 0], [2, 3])));
        assert!(!segments_clash(([0, 0], [2, 0]), ([2, 0], [4, 0])));
        assert!(!segments_clash(([0, 0], [2, 0]), ([0, 1], [2, 1])));
        // Two rings straightened across each other: both go back to their cell outline.
        let a: Ring = vec![[0, 0], [4, 0], [4, 1], [0, 3]];
        let b: Ring = vec![[0, 2], [4, 2], [4, 4], [0, 4]];
        let c: Ring = vec![[10, 10], [11, 10], [11, 11], [10, 11]];
        let crossing = crossing_rings(&[a, b, c]);
        assert_eq!(crossing, HashSet::from([0, 1]));
    }
}
