//! Diagonals that resolve two reflex corners at once, forced into each patch's
//! triangulation before the merge.
//!
//! **Why.** Hertel–Mehlhorn ([`crate::merge`]) keeps, at every reflex corner of a patch
//! outline, at least one edge of the triangulation, and which edge depends on the
//! triangulation: an ear-clipped patch rarely has an edge that joins two reflex corners and
//! splits both of their angles into parts of at most a half turn, so most reflex corners
//! cost a region of their own (about 0.73 extra region per reflex corner over the corpus,
//! where an optimal partition approaches 0.5). A patch cut along a set of non-crossing
//! diagonals in which every reflex corner has one diagonal that *resolves* it (both parts
//! of its angle ≤ 180°) falls into convex pieces, and their number is one more than the
//! diagonals (less one per hole the diagonals join to the outline), so every diagonal that
//! resolves two corners saves a region.
//!
//! **Algorithm** (a greedy approximation of the fewest convex pieces; the exact problem
//! is NP-hard with holes, and Keil's dynamic programme for simple polygons is cubic).
//! 1. *Reflex corners.* Per patch, outline half-edges are those without a twin in the same
//!    patch; a corner is a vertex with exactly one outline edge in and one out (vertices
//!    where a patch touches itself are left to the merge), reflex when the patch's
//!    triangles around it span more than a half turn (by more than
//!    [`crate::merge::CONVEX_EPSILON`]: f32 rounding) seen from above.
//! 2. *Candidates.* Pairs of reflex corners of one patch whose segment lies in the
//!    resolving cone of both (between the extensions of the two outline edges, within the
//!    same tolerance; exactly along an extension counts: the piece then has a straight
//!    corner), the [`NEAREST`] nearest per corner found ring by ring in a grid of the
//!    patch's corners (at most [`NEAREST_SCAN`] looked at), and visible: traced through
//!    the triangulation from one corner to the other (a walk across the triangles the
//!    segment crosses, seen from above), it meets no outline edge and no vertex.
//! 3. *Matching* ([`choose_pairs`]): greedy, fewest conflicts first (the pairs it crosses
//!    plus those sharing a corner with it; then shortest), no two crossing; then
//!    augmenting paths of three pairs and swaps (one chosen pair that alone blocks two
//!    compatible pairs gives way to them); the same in three other orders (fewest
//!    crossings, fewest shared corners, shortest), each patch keeping its largest. Over
//!    the corpus: shortest first alone 909 pairs, fewest partners first 836, fewest
//!    conflicts 961, the best of four 971.
//! 4. *Insertion.* Each chosen pair is traced again and forced into the triangulation by
//!    edge flips (Sloan's constrained-edge insertion: flip the crossed edges whose
//!    quadrilateral is strictly convex until the segment is an edge), and kept.
//! 5. *One cut for every other reflex corner.* A reflex corner left unmatched keeps an
//!    edge of its fan that lies in its resolving cone when there is one; otherwise the
//!    nearest vertex of the patch in its cone that it can see (among the vertices of the
//!    triangles its cone's bisector crosses) is joined to it the same way; and when no
//!    vertex lies there, a *Steiner point* is added where the bisector meets the outline
//!    (or a kept diagonal), splitting that edge and the triangles on both of its sides
//!    (see [`Partition::steiner`]). Without these Hertel–Mehlhorn may keep two edges at
//!    such a corner.
//!
//! The kept diagonals are returned; the cook gives them the last rank of the merge
//! ([`crate::merge::KEPT_RANK`]), so that Hertel–Mehlhorn removes every other inner edge
//! first (at a resolved corner all of them can go) and then the kept ones where the union
//! is still convex; merge orders 4–7 ignore the rank, and each patch takes the order that
//! gives it the fewest regions (where a corner needs two cuts anyway, plain
//! Hertel–Mehlhorn sometimes places them better). All of the merge's machinery (links,
//! T-junctions, flatness, budgets) is unchanged.
//!
//! Flips keep every outline edge and the footprint, and each new triangle must face up,
//! be cookable and not repeat an edge the mesh has elsewhere (stacked ground), as in
//! [`super::pair_reflex_corners`]. *Cost:* candidates and crossing tests go through uniform
//! grids (about n log n), walks and insertions are linear in the triangles crossed and
//! bounded ([`WALK_LIMIT`], a quadratic flip budget per insertion). An insertion that runs
//! out of budget leaves a valid triangulation and no diagonal. Measured: cooking
//! `dm_dungeon.trx` under the 512 budget (the partition runs at every step of the budget
//! search) went from 0.60 s to 0.75–0.79 s user time (shared 2-core machine).

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{GridFrame, NONE, State, orient};

/// Candidate partners per reflex corner (nearest first).
const NEAREST: usize = 16;
/// Corners looked at per corner when looking for its nearest candidates.
const NEAREST_SCAN: usize = 256;
/// Crossings counted per candidate pair for the matching order (more are as bad).
const CONFLICT_CAP: usize = 8;
/// Triangles a walk may cross.
const WALK_LIMIT: usize = 4096;
/// Vertices tried per unmatched reflex corner.
const SINGLE_TRIES: usize = 6;
/// A directed edge seen in two triangles (stacked or folded ground): never walked across.
const POISON: u32 = u32::MAX - 1;

type Edge = (u32, u32);

fn undirected(a: u32, b: u32) -> Edge {
    (a.min(b), a.max(b))
}

/// A reflex corner: `v` with outline edges `prev → v → next` in `patch`.
#[derive(Clone, Copy, Debug)]
struct Corner {
    v: u32,
    prev: u32,
    next: u32,
    patch: u32,
}

/// What a segment from a corner meets in the triangulation.
enum Sight {
    /// The segment is an edge already.
    Edge,
    /// It crosses these edges (each as directed in the triangle on the corner's side) and
    /// nothing else.
    Clear(Vec<Edge>),
    /// It meets the outline, a kept diagonal, a vertex, or leaves the patch.
    Blocked,
}

struct Partition<'s, 'a> {
    state: &'s mut State<'a>,
    /// Directed edge → live patch triangle that has it ([`POISON`] when two do).
    edges: HashMap<Edge, u32>,
    kept: HashSet<Edge>,
    /// Largest wrong-way turn (sine) taken for straight (see [`resolve_reflex_corners`]).
    epsilon: f64,
}

fn xy(state: &State<'_>, v: u32) -> [f64; 2] {
    let p = state.position(v);
    [f64::from(p[0]), f64::from(p[1])]
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

/// Twice the signed area of a, b, c (seen from above).
fn orient2(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    cross(sub(b, a), sub(c, a))
}

/// The triangle rotated so that it starts at `v`.
fn from(t: [u32; 3], v: u32) -> Option<[u32; 3]> {
    let i = t.iter().position(|&w| w == v)?;
    Some([t[i], t[(i + 1) % 3], t[(i + 2) % 3]])
}

impl Partition<'_, '_> {
    fn patch(&self, p: u32) -> u32 {
        self.state.patch_of.get(p as usize).copied().unwrap_or(NONE)
    }

    /// The live triangle with directed edge `e`.
    fn owner(&self, e: Edge) -> Option<u32> {
        let &p = self.edges.get(&e)?;
        (p != POISON && self.state.triangle(p).is_some()).then_some(p)
    }

    /// True when `a → b` has a twin in the same patch (an inner edge of the patch).
    fn inner(&self, a: u32, b: u32) -> bool {
        match (self.owner((a, b)), self.owner((b, a))) {
            (Some(p), Some(q)) => self.patch(p) == self.patch(q),
            _ => false,
        }
    }

    /// Live triangles of `patch` around `v`, each rotated to start at `v`.
    fn fan(&mut self, v: u32, patch: u32) -> Vec<[u32; 3]> {
        self.fan_polygons(v)
            .into_iter()
            .filter(|&p| self.patch(p) == patch)
            .filter_map(|p| self.state.triangle(p).and_then(|t| from(t, v)))
            .collect()
    }

    /// Traces the segment from corner `u` (of `patch`) to vertex `v`.
    fn sight(&mut self, u: u32, patch: u32, v: u32) -> Sight {
        let (pu, pv) = (xy(self.state, u), xy(self.state, v));
        let d = sub(pv, pu);
        let mut start = None;
        for [_, x, y] in self.fan(u, patch) {
            if x == v || y == v {
                return if self.inner(u, v) {
                    Sight::Edge
                } else {
                    Sight::Blocked
                };
            }
            let (px, py) = (sub(xy(self.state, x), pu), sub(xy(self.state, y), pu));
            let (cx, cy) = (cross(px, d), cross(d, py));
            if cx > 0.0 && cy > 0.0 {
                start = Some((x, y));
            }
        }
        // Along an edge to another vertex, or outside every triangle of the fan.
        let Some((mut r, mut l)) = start else {
            return Sight::Blocked;
        };
        let mut crossed = Vec::new();
        for _ in 0..WALK_LIMIT {
            // The segment leaves the triangle through r → l: v must lie beyond it.
            let (pr, pl) = (xy(self.state, r), xy(self.state, l));
            if orient2(pr, pl, pv) >= 0.0
                || self.kept.contains(&undirected(r, l))
                || !self.inner(r, l)
            {
                return Sight::Blocked;
            }
            crossed.push((r, l));
            let Some(t) = self.owner((l, r)).and_then(|q| self.state.triangle(q)) else {
                return Sight::Blocked;
            };
            let Some([_, _, z]) = from(t, l) else {
                return Sight::Blocked;
            };
            if z == v {
                return Sight::Clear(crossed);
            }
            let side = orient2(pu, pv, xy(self.state, z));
            if side > 0.0 {
                l = z;
            } else if side < 0.0 {
                r = z;
            } else {
                return Sight::Blocked;
            }
        }
        Sight::Blocked
    }

    /// Replaces the triangles on both sides of `a → b` by the two across the other
    /// diagonal, when their quadrilateral is strictly convex and the new triangles are
    /// cookable; returns the new diagonal.
    fn flip(&mut self, a: u32, b: u32) -> Option<Edge> {
        let (p, q) = (self.owner((a, b))?, self.owner((b, a))?);
        if self.patch(p) != self.patch(q) {
            return None;
        }
        let [_, _, x] = from(self.state.triangle(p)?, a)?;
        let [_, _, y] = from(self.state.triangle(q)?, b)?;
        if x == y {
            return None;
        }
        self.state
            .flip_diagonal([p, q], [a, b, x, y], &mut self.edges)
            .then_some((x, y))
    }

    /// Makes u–v an edge by flipping the edges it crosses (Sloan): a crossed edge whose
    /// quadrilateral is convex is flipped, and its new diagonal goes back in the queue while
    /// it still crosses u–v. True when u–v is an edge at the end.
    fn insert(&mut self, u: u32, v: u32, crossed: Vec<Edge>) -> bool {
        let (pu, pv) = (xy(self.state, u), xy(self.state, v));
        let n = crossed.len();
        let mut budget = 4 * n * n + 64;
        let mut queue: VecDeque<Edge> = crossed.into();
        while let Some((a, b)) = queue.pop_front() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            match self.flip(a, b) {
                None => queue.push_back((a, b)),
                Some((x, y)) => {
                    if undirected(x, y) == undirected(u, v) {
                        continue;
                    }
                    let (px, py) = (xy(self.state, x), xy(self.state, y));
                    let apart = |s: f64, t: f64| (s > 0.0 && t < 0.0) || (s < 0.0 && t > 0.0);
                    if apart(orient2(pu, pv, px), orient2(pu, pv, py))
                        && apart(orient2(px, py, pu), orient2(px, py, pv))
                    {
                        queue.push_back((x, y));
                    }
                }
            }
        }
        self.owner((u, v)).is_some() || self.owner((v, u)).is_some()
    }

    /// Joins corner `c` to `v` when visible: an existing edge is kept, a crossing segment
    /// inserted. True when kept.
    fn join(&mut self, c: &Corner, v: u32) -> bool {
        let ok = match self.sight(c.v, c.patch, v) {
            Sight::Edge => true,
            Sight::Clear(crossed) => self.insert(c.v, v, crossed),
            Sight::Blocked => false,
        };
        if ok {
            self.kept.insert(undirected(c.v, v));
        }
        ok
    }

    /// True when some kept edge or inner edge from corner `c` lies in its resolving cone;
    /// keeps the first such edge.
    fn keep_resolving_edge(&mut self, c: &Corner) -> bool {
        let pu = xy(self.state, c.v);
        let mut found = None;
        for [_, x, _] in self.fan(c.v, c.patch) {
            if resolves(self.state, c, sub(xy(self.state, x), pu), self.epsilon)
                && self.inner(c.v, x)
            {
                if self.kept.contains(&undirected(c.v, x)) {
                    return true;
                }
                found = found.or(Some(x));
            }
        }
        if let Some(x) = found {
            self.kept.insert(undirected(c.v, x));
            return true;
        }
        false
    }

    /// The edge (as directed in the triangle before it) where the ray from corner `c`
    /// along its cone's bisector first meets the outline or a kept diagonal, with the
    /// bisector; `None` when it runs into a vertex or out of bounds.
    fn bisector_hit(&mut self, c: &Corner) -> Option<(Edge, [f64; 2])> {
        let cone = Cone::of(self.state, c, self.epsilon);
        let unit = |e: [f64; 2]| {
            let n = e[0].hypot(e[1]);
            if n > 0.0 { [e[0] / n, e[1] / n] } else { e }
        };
        let (ea, eb) = (unit(cone.to_prev), unit(cone.to_next));
        // Between the extensions of the two edges: opposite the sum of the edge directions.
        let bisector = [-(ea[0] + eb[0]), -(ea[1] + eb[1])];
        if !cone.holds(bisector) {
            return None;
        }
        let pu = cone.at;
        let mut start = None;
        for [_, x, y] in self.fan(c.v, c.patch) {
            let (px, py) = (sub(xy(self.state, x), pu), sub(xy(self.state, y), pu));
            if cross(px, bisector) > 0.0 && cross(bisector, py) > 0.0 {
                start = Some((x, y));
            }
        }
        let (mut r, mut l) = start?;
        let far = [pu[0] + bisector[0], pu[1] + bisector[1]];
        for _ in 0..WALK_LIMIT {
            if self.kept.contains(&undirected(r, l)) || !self.inner(r, l) {
                return Some(((r, l), bisector));
            }
            let t = self.owner((l, r)).and_then(|q| self.state.triangle(q))?;
            let [_, _, z] = from(t, l)?;
            let side = orient2(pu, far, xy(self.state, z));
            if side > 0.0 {
                l = z;
            } else if side < 0.0 {
                r = z;
            } else {
                return None;
            }
        }
        None
    }

    /// A Steiner point for corner `c` that no single diagonal can resolve: where its
    /// bisector meets the outline (or a kept diagonal), the edge r → l is split at a new
    /// vertex s (height interpolated along the edge, so it lies on every polygon that has
    /// the edge), and the triangles on both sides are split at s (a cooked polygon across
    /// the edge that is no triangle of a patch gets s as a straight corner): adjacency by
    /// shared vertices, hence links and components, stays. Refused when s would lie within
    /// a hundredth of the edge of its ends, when the edge has more than one polygon on
    /// the far side or one running the same way, or when a new triangle is not cookable.
    fn steiner(&mut self, c: &Corner) -> Option<u32> {
        let ((r, l), bisector) = self.bisector_hit(c)?;
        let pu = xy(self.state, c.v);
        let (pr, pl) = (xy(self.state, r), xy(self.state, l));
        let denominator = cross(bisector, sub(pl, pr));
        let lambda = cross(bisector, sub(pu, pr)) / denominator;
        if !lambda.is_finite() || !(0.01..=0.99).contains(&lambda) {
            return None;
        }
        let near = self.owner((r, l))?;
        let [_, _, y] = from(self.state.triangle(near)?, r)?;
        // Every other live cooked polygon with this edge.
        let mut far: Vec<(u32, bool)> = Vec::new();
        for p in self.fan_polygons(r) {
            if p == near {
                continue;
            }
            let Some(polygon) = self.state.polygons.get(p as usize) else {
                continue;
            };
            let n = polygon.len();
            for k in 0..n {
                let (a, b) = (polygon[k], polygon[(k + 1) % n]);
                if (a, b) == (l, r) {
                    far.push((p, true));
                } else if (a, b) == (r, l) {
                    far.push((p, false));
                }
            }
        }
        if far.len() > 1 || far.iter().any(|&(_, opposite)| !opposite) {
            return None;
        }
        let (r3, l3) = (self.state.position(r), self.state.position(l));
        let at = |k: usize| f64::from(r3[k]) + lambda * (f64::from(l3[k]) - f64::from(r3[k]));
        let point = [at(0) as f32, at(1) as f32, at(2) as f32];
        let new_id = (self.state.mesh.vertices.len() + self.state.extra.len()) as u32;
        let position = |v: u32| {
            if v == new_id {
                point
            } else {
                self.state.position(v)
            }
        };
        let cookable = |t: [u32; 3]| {
            let corners = t.map(position);
            orient(corners[0], corners[1], corners[2]) > 0.0 && (self.state.acceptable)(&corners)
        };
        let near_split = [[r, new_id, y], [new_id, l, y]];
        if !near_split.iter().all(|&t| cookable(t)) {
            return None;
        }
        let far_split = match far.first() {
            Some(&(q, _)) => match self.state.triangle(q).and_then(|t| from(t, l)) {
                Some([_, _, x]) => {
                    let split = [[l, new_id, x], [new_id, r, x]];
                    if !split.iter().all(|&t| cookable(t)) {
                        return None;
                    }
                    Some((q, Some(split)))
                }
                None => Some((q, None)),
            },
            None => None,
        };
        // Commit.
        self.state.extra.push(point);
        self.state.incident.push(Vec::new());
        self.edges.remove(&(r, l));
        self.edges.remove(&(l, r));
        self.replace_polygon(near, &near_split.map(|t| t.to_vec()));
        if let Some((q, split)) = far_split {
            match split {
                Some(split) => self.replace_polygon(q, &split.map(|t| t.to_vec())),
                None => {
                    let Some(polygon) = self.state.polygons.get(q as usize) else {
                        return Some(new_id);
                    };
                    let n = polygon.len();
                    let mut with: Vec<u32> = Vec::with_capacity(n + 1);
                    for k in 0..n {
                        with.push(polygon[k]);
                        if (polygon[k], polygon[(k + 1) % n]) == (l, r) {
                            with.push(new_id);
                        }
                    }
                    self.replace_polygon(q, &[with]);
                }
            }
        }
        if self.kept.remove(&undirected(r, l)) {
            self.kept.insert(undirected(r, new_id));
            self.kept.insert(undirected(new_id, l));
        }
        Some(new_id)
    }

    /// Live polygons around `v` (cooked ones: those the incident lists hold).
    fn fan_polygons(&mut self, v: u32) -> Vec<u32> {
        let state = &mut *self.state;
        let Some(list) = state.incident.get_mut(v as usize) else {
            return Vec::new();
        };
        let alive = &state.alive;
        list.retain(|&p| alive.get(p as usize).copied().unwrap_or(false));
        list.dedup();
        list.clone()
    }

    /// Replaces polygon `p` by `pieces` (same patch and input polygon), keeping the edge
    /// map and incident lists.
    fn replace_polygon(&mut self, p: u32, pieces: &[Vec<u32>]) {
        let pieces: Vec<&[u32]> = pieces.iter().map(Vec::as_slice).collect();
        self.state.swap_polygons(&[p], &pieces, &mut self.edges);
    }

    /// Vertices in the resolving cone of corner `c`, nearest first, among the vertices of
    /// the triangles its bisector crosses.
    fn cone_vertices(&mut self, c: &Corner) -> Vec<u32> {
        let pu = xy(self.state, c.v);
        let ea = sub(pu, xy(self.state, c.prev));
        let eb = sub(pu, xy(self.state, c.next));
        let unit = |e: [f64; 2]| {
            let n = e[0].hypot(e[1]);
            if n > 0.0 { [e[0] / n, e[1] / n] } else { e }
        };
        let (ea, eb) = (unit(ea), unit(eb));
        let bisector = [ea[0] + eb[0], ea[1] + eb[1]];
        if bisector[0] == 0.0 && bisector[1] == 0.0 {
            return Vec::new();
        }
        let mut start = None;
        let mut found: Vec<u32> = Vec::new();
        for [_, x, y] in self.fan(c.v, c.patch) {
            let (px, py) = (sub(xy(self.state, x), pu), sub(xy(self.state, y), pu));
            if cross(px, bisector) >= 0.0 && cross(bisector, py) >= 0.0 {
                start = Some((x, y));
            }
        }
        let Some((mut r, mut l)) = start else {
            return Vec::new();
        };
        let far = [pu[0] + bisector[0], pu[1] + bisector[1]];
        for _ in 0..WALK_LIMIT {
            found.push(r);
            found.push(l);
            if self.kept.contains(&undirected(r, l)) || !self.inner(r, l) {
                break;
            }
            let Some(t) = self.owner((l, r)).and_then(|q| self.state.triangle(q)) else {
                break;
            };
            let Some([_, _, z]) = from(t, l) else { break };
            let side = orient2(pu, far, xy(self.state, z));
            if side > 0.0 {
                l = z;
            } else if side < 0.0 {
                r = z;
            } else {
                found.push(z);
                break;
            }
        }
        found.sort_unstable();
        found.dedup();
        let (state, epsilon) = (&*self.state, self.epsilon);
        let mut in_cone: Vec<(f64, u32)> = found
            .into_iter()
            .filter(|&w| w != c.v)
            .filter_map(|w| {
                let d = sub(xy(state, w), pu);
                resolves(state, c, d, epsilon).then(|| (d[0].hypot(d[1]), w))
            })
            .collect();
        in_cone.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        in_cone.into_iter().map(|(_, w)| w).collect()
    }
}

/// A corner's position and the directions of its outline edges, for [`resolves`] without
/// looking the vertices up again.
struct Cone {
    at: [f64; 2],
    to_next: [f64; 2],
    to_prev: [f64; 2],
    epsilon: f64,
}

impl Cone {
    fn of(state: &State<'_>, c: &Corner, epsilon: f64) -> Cone {
        let at = xy(state, c.v);
        Cone {
            at,
            to_next: sub(xy(state, c.next), at),
            to_prev: sub(xy(state, c.prev), at),
            epsilon,
        }
    }

    /// See [`resolves`].
    fn holds(&self, d: [f64; 2]) -> bool {
        if d[0] == 0.0 && d[1] == 0.0 {
            return false;
        }
        let norm2 = |e: [f64; 2]| e[0] * e[0] + e[1] * e[1];
        // The tolerance only matters (and its square roots are only taken) when a cross
        // product is negative.
        let within =
            |c: f64, e: [f64; 2]| c >= 0.0 || c >= -self.epsilon * (norm2(d) * norm2(e)).sqrt();
        within(cross(self.to_next, d), self.to_next) && within(cross(d, self.to_prev), self.to_prev)
    }
}

/// Points of one patch in a uniform grid over their box (about two per cell).
struct Buckets {
    frame: GridFrame,
    cells: Vec<Vec<usize>>,
}

impl Buckets {
    fn new(points: &[[f64; 2]]) -> Buckets {
        let size = ((points.len() as f64 / 2.0).sqrt().ceil() as usize).clamp(1, 256);
        let frame = GridFrame::over(points.iter().copied(), size);
        let mut cells = vec![Vec::new(); frame.size * frame.size];
        for (i, &p) in points.iter().enumerate() {
            let (x, y) = frame.cell_of(p);
            if let Some(list) = cells.get_mut(y * frame.size + x) {
                list.push(i);
            }
        }
        Buckets { frame, cells }
    }

    /// Calls `visit(point, distance)` for the points ring by ring around `p` (Chebyshev rings
    /// of cells), where `distance` is a lower bound of how far every point not visited yet
    /// is (those of the current ring included); stops when `visit` returns false.
    fn rings(&self, p: [f64; 2], mut visit: impl FnMut(usize, f64) -> bool) {
        let (cx, cy) = self.frame.cell_of(p);
        let (cx, cy) = (cx as isize, cy as isize);
        let size = self.frame.size as isize;
        for ring in 0..size {
            let beyond = (ring - 1).max(0) as f64 * self.frame.cell;
            for y in cy - ring..=cy + ring {
                for x in cx - ring..=cx + ring {
                    let on_ring = (y - cy).abs() == ring || (x - cx).abs() == ring;
                    if !on_ring || x < 0 || y < 0 || x >= size || y >= size {
                        continue;
                    }
                    let Some(list) = self.cells.get((y * size + x) as usize) else {
                        continue;
                    };
                    for &i in list {
                        if !visit(i, beyond) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// True when direction `d` from corner `c` splits its angle into two parts of at most a
/// half turn each (it lies between the extensions of the corner's two outline edges).
fn resolves(state: &State<'_>, c: &Corner, d: [f64; 2], epsilon: f64) -> bool {
    Cone::of(state, c, epsilon).holds(d)
}

/// Reflex corners of every patch outline (see the module comment).
fn reflex_corners(p: &Partition<'_, '_>) -> Vec<Corner> {
    let state = &*p.state;
    // Per (vertex, patch): outline edges out and in, and the patch's angle there.
    let mut out: HashMap<(u32, u32), (u32, u32)> = HashMap::default();
    let mut into: HashMap<(u32, u32), (u32, u32)> = HashMap::default();
    let mut angle: HashMap<(u32, u32), f64> = HashMap::default();
    for t in 0..state.polygons.len() as u32 {
        let Some(tri) = state.triangle(t) else {
            continue;
        };
        let patch = p.patch(t);
        for i in 0..3 {
            let (a, b, c) = (tri[i], tri[(i + 1) % 3], tri[(i + 2) % 3]);
            let (d1, d2) = (
                sub(xy(state, b), xy(state, a)),
                sub(xy(state, c), xy(state, a)),
            );
            let inner = cross(d1, d2).atan2(d1[0] * d2[0] + d1[1] * d2[1]);
            *angle.entry((a, patch)).or_default() += inner.abs();
            if !p.inner(a, b) {
                let entry = out.entry((a, patch)).or_insert((b, 0));
                entry.1 += 1;
                let entry = into.entry((b, patch)).or_insert((a, 0));
                entry.1 += 1;
            }
        }
    }
    let mut corners: Vec<Corner> = out
        .iter()
        .filter_map(|(&(v, patch), &(next, outs))| {
            let &(prev, ins) = into.get(&(v, patch))?;
            let a = angle.get(&(v, patch)).copied()?;
            (outs == 1
                && ins == 1
                && a > std::f64::consts::PI + p.epsilon.asin()
                && a < std::f64::consts::TAU * (1.0 - 1e-9))
                .then_some(Corner {
                    v,
                    prev,
                    next,
                    patch,
                })
        })
        .collect();
    corners.sort_unstable_by_key(|c| (c.patch, c.v));
    corners
}

/// Chooses and inserts the diagonals (see the module comment); returns them (lower vertex
/// first).
pub(super) fn resolve_reflex_corners(state: &mut State<'_>, epsilon: f64) -> HashSet<Edge> {
    let mut edges: HashMap<Edge, u32> = HashMap::default();
    for p in 0..state.polygons.len() as u32 {
        if let Some(t) = state.triangle(p) {
            for i in 0..3 {
                edges
                    .entry((t[i], t[(i + 1) % 3]))
                    .and_modify(|q| *q = POISON)
                    .or_insert(p);
            }
        }
    }
    let mut part = Partition {
        state,
        edges,
        kept: HashSet::default(),
        epsilon,
    };
    let corners = reflex_corners(&part);
    // Candidate pairs per patch: both cone tests, the nearest few per corner, found ring by
    // ring in a grid of the patch's corners.
    let cones: Vec<Cone> = corners
        .iter()
        .map(|c| Cone::of(part.state, c, epsilon))
        .collect();
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    let mut base = 0;
    for group in corners.chunk_by(|a, b| a.patch == b.patch) {
        let cones = &cones[base..base + group.len()];
        let points: Vec<[f64; 2]> = cones.iter().map(|c| c.at).collect();
        let grid = Buckets::new(&points);
        for (i, ci) in cones.iter().enumerate() {
            let mut near: Vec<(f64, usize)> = Vec::new();
            let mut seen = 0usize;
            grid.rings(points[i], |j, ring_distance| {
                if j != i {
                    seen += 1;
                    let d = sub(points[j], points[i]);
                    if ci.holds(d) && cones[j].holds([-d[0], -d[1]]) {
                        near.push((d[0] * d[0] + d[1] * d[1], j));
                    }
                }
                // Stop when the nearest few are known (nothing nearer lies beyond the rings
                // done), or after enough corners were looked at.
                if seen >= NEAREST_SCAN {
                    return false;
                }
                if near.len() >= NEAREST {
                    near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                    near.truncate(NEAREST);
                    return near
                        .last()
                        .is_none_or(|&(d2, _)| d2 > ring_distance * ring_distance);
                }
                true
            });
            near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for &(length2, j) in near.iter().take(NEAREST) {
                let (a, b) = (base + i.min(j), base + i.max(j));
                candidates.push((length2.sqrt(), a, b));
            }
        }
        base += group.len();
    }
    candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    candidates.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
    let mut matched = vec![false; corners.len()];
    // Pairs that see each other in the triangulation as it is.
    let visible: Vec<(f64, usize, usize)> = candidates
        .into_iter()
        .filter(|&(_, i, j)| {
            !matches!(
                part.sight(corners[i].v, corners[i].patch, corners[j].v),
                Sight::Blocked
            )
        })
        .collect();
    for (i, j) in choose_pairs(part.state, &corners, &visible) {
        let (ci, cj) = (corners[i], corners[j]);
        if part.join(&ci, cj.v) {
            matched[i] = true;
            matched[j] = true;
        }
    }
    // Every other reflex corner: one resolving diagonal, to a vertex or else to a new point
    // on the outline.
    for (i, c) in corners.iter().enumerate() {
        if matched[i] || part.keep_resolving_edge(c) {
            continue;
        }
        let mut done = false;
        for w in part.cone_vertices(c).into_iter().take(SINGLE_TRIES) {
            if part.join(c, w) {
                done = true;
                break;
            }
        }
        if !done && let Some(s) = part.steiner(c) {
            part.join(c, s);
        }
    }
    part.kept
}

/// A large matching of reflex corners over the pairs that see each other (`pairs`), no
/// two segments crossing: [`match_in_order`] in four orders (fewest conflicts — crossings
/// plus pairs sharing a corner —, fewest crossings, fewest shared corners, shortest), and
/// per patch the result with most pairs (patches are independent: pairs and crossings stay
/// inside one). Taking the corners with fewest partners first gave fewer pairs over the
/// corpus (836 against 909 for shortest first, 961 for fewest conflicts, 971 for the best
/// of four). Returned shortest first (the order they are inserted in).
fn choose_pairs(
    state: &State<'_>,
    corners: &[Corner],
    pairs: &[(f64, usize, usize)],
) -> Vec<(usize, usize)> {
    let n = corners.len();
    let mut partners: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    for &(length, i, j) in pairs {
        partners[i].push((length, j));
        partners[j].push((length, i));
    }
    let points: Vec<[f64; 2]> = corners.iter().map(|c| xy(state, c.v)).collect();
    // Fewest conflicts first: the pairs a pair excludes are those it crosses and those
    // sharing one of its corners.
    let mut all = Segments {
        grid: Buckets::new(&points),
        points: &points,
        corners,
        cells: Vec::new(),
    };
    all.cells = vec![Vec::new(); all.grid.cells.len()];
    let mut degree = vec![0usize; n];
    for &(_, i, j) in pairs {
        all.insert(i, j);
        degree[i] += 1;
        degree[j] += 1;
    }
    let conflicts: Vec<usize> = pairs.iter().map(|&(_, i, j)| all.count(i, j)).collect();
    // Several orders, each patch keeping the matching with most pairs: fewest conflicts
    // (crossings and shared corners), fewest crossings, fewest shared corners, shortest.
    let keys: [&dyn Fn(usize) -> usize; 4] = [
        &|k: usize| conflicts[k] + degree[pairs[k].1] + degree[pairs[k].2],
        &|k: usize| conflicts[k],
        &|k: usize| degree[pairs[k].1] + degree[pairs[k].2],
        &|_: usize| 0,
    ];
    // Each patch's corners are one run of `corners` (sorted by patch).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, c) in corners.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if corners[run.0].patch == c.patch => run.1 = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    let mut best: Vec<Option<usize>> = vec![None; n];
    let mut best_pairs: Vec<usize> = vec![0; runs.len()];
    for key in keys {
        let mut order: Vec<(usize, f64, usize, usize)> = pairs
            .iter()
            .enumerate()
            .map(|(k, &(length, i, j))| (key(k), length, i, j))
            .collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then((a.2, a.3).cmp(&(b.2, b.3)))
        });
        let mate = match_in_order(corners, &points, &partners, &order);
        for (r, &(from, to)) in runs.iter().enumerate() {
            let count = (from..to).filter(|&i| mate[i].is_some()).count() / 2;
            if count > best_pairs[r] {
                best_pairs[r] = count;
                best[from..to].copy_from_slice(&mate[from..to]);
            }
        }
    }
    let mate = best;
    let length = |i: usize, j: usize| {
        let d = sub(xy(state, corners[j].v), xy(state, corners[i].v));
        d[0].hypot(d[1])
    };
    let mut chosen: Vec<(f64, usize, usize)> = (0..n)
        .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| (length(i, j), i, j)))
        .collect();
    chosen.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    chosen.into_iter().map(|(_, i, j)| (i, j)).collect()
}

/// Greedy matching in `order` (no segment crossing one chosen before), then augmenting
/// paths of three pairs — an unmatched corner i that sees corner j, matched to k, takes j
/// when k can take another unmatched corner x instead, neither new segment crossing a
/// chosen one (each adds a pair, so it ends; passes are bounded anyway) — and swaps: a
/// chosen pair that alone blocks (crosses) two compatible pairs of unmatched corners gives
/// way to them. Per corner, its mate.
fn match_in_order(
    corners: &[Corner],
    points: &[[f64; 2]],
    partners: &[Vec<(f64, usize)>],
    order: &[(usize, f64, usize, usize)],
) -> Vec<Option<usize>> {
    let n = corners.len();
    let mut mate: Vec<Option<usize>> = vec![None; n];
    // Chosen segments (corner pairs) in a grid over the corners, for the crossing test.
    let mut segments = Segments {
        grid: Buckets::new(points),
        points,
        corners,
        cells: Vec::new(),
    };
    segments.cells = vec![Vec::new(); segments.grid.cells.len()];
    let crosses = |segments: &Segments<'_>, i: usize, j: usize, skip: (usize, usize)| {
        segments.crosses(i, j, skip)
    };
    for &(_, _, i, j) in order {
        if mate[i].is_none() && mate[j].is_none() && !crosses(&segments, i, j, (n, n)) {
            mate[i] = Some(j);
            mate[j] = Some(i);
            segments.insert(i, j);
        }
    }
    for _ in 0..12 {
        let mut grown = false;
        for i in 0..n {
            if mate[i].is_some() {
                continue;
            }
            'partner: for &(_, j) in &partners[i] {
                let Some(k) = mate[j] else { continue };
                for &(_, x) in &partners[k] {
                    if x == i || x == j || mate[x].is_some() {
                        continue;
                    }
                    if crosses(&segments, i, j, (j, k)) || crosses(&segments, k, x, (j, k)) {
                        continue;
                    }
                    // i–j and k–x must not cross each other either.
                    let (pi, pj, pk, px) = (points[i], points[j], points[k], points[x]);
                    let apart = |s: f64, t: f64| (s >= 0.0 && t <= 0.0) || (s <= 0.0 && t >= 0.0);
                    if apart(orient2(pi, pj, pk), orient2(pi, pj, px))
                        && apart(orient2(pk, px, pi), orient2(pk, px, pj))
                    {
                        continue;
                    }
                    segments.remove(j, k);
                    segments.insert(i, j);
                    segments.insert(k, x);
                    mate[i] = Some(j);
                    mate[j] = Some(i);
                    mate[k] = Some(x);
                    mate[x] = Some(k);
                    grown = true;
                    break 'partner;
                }
            }
        }
        if !grown {
            break;
        }
    }
    // Swaps: a chosen pair that alone blocks (crosses) two pairs of unmatched corners that
    // fit together gives way to them.
    for _ in 0..4 {
        let mut blocked_by: HashMap<(usize, usize), Vec<(usize, usize)>> = HashMap::default();
        for &(_, _, i, j) in order {
            if mate[i].is_some() || mate[j].is_some() {
                continue;
            }
            if let [only] = segments.crossing(i, j).as_slice() {
                blocked_by
                    .entry((only.0.min(only.1), only.0.max(only.1)))
                    .or_default()
                    .push((i, j));
            }
        }
        let mut blockers: Vec<(usize, usize)> = blocked_by.keys().copied().collect();
        blockers.sort_unstable();
        let mut swapped = false;
        for blocker in blockers {
            if mate[blocker.0] != Some(blocker.1) {
                continue;
            }
            let Some(options) = blocked_by.get(&blocker) else {
                continue;
            };
            let free = |a: (usize, usize)| mate[a.0].is_none() && mate[a.1].is_none();
            let mut found = None;
            'search: for (k, &a) in options.iter().enumerate() {
                if !free(a) || crosses(&segments, a.0, a.1, blocker) {
                    continue;
                }
                for &b in &options[k + 1..] {
                    if !free(b)
                        || b.0 == a.0
                        || b.0 == a.1
                        || b.1 == a.0
                        || b.1 == a.1
                        || crosses(&segments, b.0, b.1, blocker)
                    {
                        continue;
                    }
                    let (pa, pb, pc, pd) = (points[a.0], points[a.1], points[b.0], points[b.1]);
                    let apart = |s: f64, t: f64| (s >= 0.0 && t <= 0.0) || (s <= 0.0 && t >= 0.0);
                    if apart(orient2(pa, pb, pc), orient2(pa, pb, pd))
                        && apart(orient2(pc, pd, pa), orient2(pc, pd, pb))
                    {
                        continue;
                    }
                    found = Some((a, b));
                    break 'search;
                }
            }
            if let Some((a, b)) = found {
                segments.remove(blocker.0, blocker.1);
                mate[blocker.0] = None;
                mate[blocker.1] = None;
                for (x, y) in [a, b] {
                    segments.insert(x, y);
                    mate[x] = Some(y);
                    mate[y] = Some(x);
                }
                swapped = true;
            }
        }
        if !swapped {
            break;
        }
    }
    mate
}

/// Chosen segments between corners, bucketed in the cells their boxes cover.
struct Segments<'c> {
    grid: Buckets,
    points: &'c [[f64; 2]],
    corners: &'c [Corner],
    cells: Vec<Vec<(usize, usize)>>,
}

impl Segments<'_> {
    fn cells_of(&self, i: usize, j: usize) -> impl Iterator<Item = usize> + use<> {
        let (a, b) = (self.points[i], self.points[j]);
        let (x0, y0) = self.grid.frame.cell_of([a[0].min(b[0]), a[1].min(b[1])]);
        let (x1, y1) = self.grid.frame.cell_of([a[0].max(b[0]), a[1].max(b[1])]);
        let size = self.grid.frame.size;
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * size + x))
    }

    fn insert(&mut self, i: usize, j: usize) {
        for cell in self.cells_of(i, j) {
            if let Some(list) = self.cells.get_mut(cell) {
                list.push((i, j));
            }
        }
    }

    fn remove(&mut self, i: usize, j: usize) {
        for cell in self.cells_of(i, j) {
            if let Some(list) = self.cells.get_mut(cell) {
                list.retain(|&s| s != (i, j) && s != (j, i));
            }
        }
    }

    /// The chosen segments i–j crosses (as [`Segments::crosses`]).
    fn crossing(&self, i: usize, j: usize) -> Vec<(usize, usize)> {
        let mut found: Vec<(usize, usize)> = Vec::new();
        for cell in self.cells_of(i, j) {
            if let Some(list) = self.cells.get(cell) {
                for &(x, y) in list {
                    if self.cross_pair(i, j, x, y) {
                        found.push((x, y));
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// True when segments i–j and x–y of one patch cross or touch (sharing a corner does
    /// not count).
    fn cross_pair(&self, i: usize, j: usize, x: usize, y: usize) -> bool {
        if x == i || x == j || y == i || y == j || self.corners[x].patch != self.corners[i].patch {
            return false;
        }
        let (pa, pb) = (self.points[i], self.points[j]);
        let (pc, pd) = (self.points[x], self.points[y]);
        let apart = |s: f64, t: f64| (s >= 0.0 && t <= 0.0) || (s <= 0.0 && t >= 0.0);
        apart(orient2(pa, pb, pc), orient2(pa, pb, pd))
            && apart(orient2(pc, pd, pa), orient2(pc, pd, pb))
    }

    fn count(&self, i: usize, j: usize) -> usize {
        let (pa, pb) = (self.points[i], self.points[j]);
        let apart = |s: f64, t: f64| (s >= 0.0 && t <= 0.0) || (s <= 0.0 && t >= 0.0);
        let mut found: Vec<(usize, usize)> = Vec::new();
        for cell in self.cells_of(i, j) {
            if let Some(list) = self.cells.get(cell) {
                for &(x, y) in list {
                    if x == i
                        || x == j
                        || y == i
                        || y == j
                        || self.corners[x].patch != self.corners[i].patch
                    {
                        continue;
                    }
                    let (pc, pd) = (self.points[x], self.points[y]);
                    if apart(orient2(pa, pb, pc), orient2(pa, pb, pd))
                        && apart(orient2(pc, pd, pa), orient2(pc, pd, pb))
                    {
                        found.push((x, y));
                        // Only the order of small counts matters.
                        if found.len() >= CONFLICT_CAP {
                            return found.len();
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found.len()
    }

    /// True when segment i–j crosses or touches a chosen segment of the same patch other
    /// than `skip` (segments sharing a corner do not count).
    fn crosses(&self, i: usize, j: usize, skip: (usize, usize)) -> bool {
        let (pa, pb) = (self.points[i], self.points[j]);
        let patch = self.corners[i].patch;
        let apart = |s: f64, t: f64| (s >= 0.0 && t <= 0.0) || (s <= 0.0 && t >= 0.0);
        self.cells_of(i, j).any(|cell| {
            self.cells.get(cell).is_some_and(|list| {
                list.iter().any(|&(x, y)| {
                    if (x, y) == skip
                        || (y, x) == skip
                        || x == i
                        || x == j
                        || y == i
                        || y == j
                        || self.corners[x].patch != patch
                    {
                        return false;
                    }
                    let (pc, pd) = (self.points[x], self.points[y]);
                    apart(orient2(pa, pb, pc), orient2(pa, pb, pd))
                        && apart(orient2(pc, pd, pa), orient2(pc, pd, pb))
                })
            })
        })
    }
}
