//! Removing the vertices inside flat patches, so that a patch is triangulated over its
//! outline only.
//!
//! **Why.** Hertel–Mehlhorn only removes edges: a vertex of the input triangulation that lies
//! inside a flat patch and has edges to several regions can never vanish, so fan-shaped and
//! irregular triangulations (NWN2 terrain, KotOR rooms modelled in strips) leave many small
//! regions around such vertices. A patch triangulated over its outline vertices alone has
//! no such vertex, and the merge that follows ([`crate::merge`]) then only has the outline's
//! reflex corners to work around.
//!
//! **Algorithm: vertex removal.** For each vertex whose incident polygons all belong to one
//! patch and close a single fan around it (every edge from it has its twin among them, one
//! cycle), the fan's outline — a star-shaped polygon — replaces the incident polygons,
//! triangulated by core's ear clipping ([`triangulate_polygon`], seen from above). A removal
//! is made only when the outline is simple seen from above, every new triangle faces up and
//! passes the cooker's degeneracy test, and the triangles cover exactly the fan's area seen
//! from above (so regions still cover exactly the input's walkable footprint). Outline
//! vertices are never removed, so the patch keeps every vertex it shares with another
//! patch, and adjacency (shared vertex indices) across patches is unchanged.
//!
//! Why this rather than tracing each patch's outline loops and triangulating them with holes
//! bridged: each removal is local (a star polygon without holes), so there is no outer/hole
//! assignment, no bridging and no global failure on a patch that touches itself or overlaps
//! itself seen from above (a spiral ramp): such places simply keep their vertices. Vertices
//! are removed in rounds of independent small fans (see `remove_inner`), so fans stay small
//! and the whole is about n log n.
//!
//! Last, each patch's triangulation is cut along diagonals that resolve two reflex corners
//! of its outline at once (the `partition` module), which the merge keeps.

mod partition;

use walkmesh_core::passes::triangulate::triangulate_polygon;
use walkmesh_core::{Material, NavMesh, Surface};

/// Tries per vertex whose fan could not be replaced.
const PASSES: usize = 2;
/// Largest fan (polygons) removed in the first rounds (see `remove_inner`).
const FAN_CAP: usize = 12;
/// Relative tolerance of the area check of a removal (sums of `f64` products of `f32`
/// coordinates: rounding only).
const AREA_RELATIVE: f64 = 1e-9;

/// The result: a mesh with the same vertices and, per polygon, the input polygon it stands for
/// (itself when kept; a polygon of the same patch for new triangles).
#[derive(Debug)]
pub struct Decimated {
    pub mesh: NavMesh,
    pub source: Vec<u32>,
    /// Per polygon of `mesh`: true when it is an input polygon kept as it was.
    pub original: Vec<bool>,
    /// Inner vertices removed.
    pub removed: usize,
    /// Border simplification (budget only).
    pub border: Border,
    /// Diagonals chosen to resolve reflex corners (see the `partition` module), lower vertex first:
    /// the merge removes them last.
    pub kept: rustc_hash::FxHashSet<(u32, u32)>,
}

const NONE: u32 = u32::MAX;

/// Twice the signed area seen from above of the polygon through `points`.
fn xy_area2(points: &[[f32; 3]]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let a = points[i].map(f64::from);
            let b = points[(i + 1) % n].map(f64::from);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// A vertex's fan: the cooked polygons around it, in order counter-clockwise.
struct Fan {
    polygons: Vec<u32>,
    /// The fan's outline without the vertex: closed (the vertex is inside the patch) or open
    /// (`first` … `last`, the vertex on the patch's border between them).
    outline: Vec<u32>,
    closed: bool,
    patch: u32,
}

/// The mesh being changed: polygons with their patch and input polygon, and for every vertex
/// the cooked polygons that use it.
#[derive(Clone)]
struct State<'a> {
    mesh: &'a NavMesh,
    polygons: Vec<Vec<u32>>,
    alive: Vec<bool>,
    patch_of: Vec<u32>,
    source: Vec<u32>,
    incident: Vec<Vec<u32>>,
    acceptable: &'a dyn Fn(&[[f32; 3]; 3]) -> bool,
    /// Vertices added after the mesh's (Steiner points of [`partition`]), numbered on.
    extra: Vec<[f32; 3]>,
}

impl State<'_> {
    /// Polygon `p` as a triangle, when it is alive, has three corners and belongs to a patch.
    fn triangle(&self, p: u32) -> Option<[u32; 3]> {
        let polygon = self.polygons.get(p as usize)?;
        (self.alive.get(p as usize).copied() == Some(true)
            && polygon.len() == 3
            && self.patch_of.get(p as usize).copied().unwrap_or(NONE) != NONE)
            .then(|| [polygon[0], polygon[1], polygon[2]])
    }

    /// Kills the polygons `dead` and adds `pieces` with the patch and input polygon of the
    /// first: in the incident lists and, for each triangle of a patch, its directed edges in
    /// `edges` (directed edge → triangle).
    fn swap_polygons(
        &mut self,
        dead: &[u32],
        pieces: &[&[u32]],
        edges: &mut rustc_hash::FxHashMap<(u32, u32), u32>,
    ) {
        let Some(&first) = dead.first() else {
            return;
        };
        let origin = self.source.get(first as usize).copied().unwrap_or(first);
        let patch = self.patch_of.get(first as usize).copied().unwrap_or(NONE);
        for &p in dead {
            if let Some(slot) = self.alive.get_mut(p as usize) {
                *slot = false;
            }
        }
        for piece in pieces {
            let id = self.polygons.len() as u32;
            self.polygons.push(piece.to_vec());
            self.alive.push(true);
            self.patch_of.push(patch);
            self.source.push(origin);
            let n = piece.len();
            for k in 0..n {
                if n == 3 && patch != NONE {
                    edges.insert((piece[k], piece[(k + 1) % n]), id);
                }
                if let Some(list) = self.incident.get_mut(piece[k] as usize) {
                    list.push(id);
                }
            }
        }
    }

    /// Flips the diagonal u–w of triangles p = (u, w, x) and q = (w, u, y) (both
    /// counter-clockwise) to x–y, when the quadrilateral u, y, w, x is strictly convex at u
    /// and w, x and y are not joined yet and both new triangles face up and are cookable.
    /// True when flipped; `edges` (directed edge → triangle) follows.
    fn flip_diagonal(
        &mut self,
        [p, q]: [u32; 2],
        [u, w, x, y]: [u32; 4],
        edges: &mut rustc_hash::FxHashMap<(u32, u32), u32>,
    ) -> bool {
        let [pu, pw, px, py] = [u, w, x, y].map(|v| self.position(v));
        if orient(px, pu, py) <= 0.0 || orient(py, pw, px) <= 0.0 || self.joined(x, y) {
            return false;
        }
        let (t1, t2) = ([u, y, x], [y, w, x]);
        let cookable = [t1, t2].iter().all(|t| {
            let corners = t.map(|v| self.position(v));
            orient(corners[0], corners[1], corners[2]) > 0.0 && (self.acceptable)(&corners)
        });
        if !cookable {
            return false;
        }
        edges.remove(&(u, w));
        edges.remove(&(w, u));
        self.swap_polygons(&[p, q], &[&t1, &t2], edges);
        true
    }

    fn position(&self, v: u32) -> [f32; 3] {
        let count = self.mesh.vertices.len();
        match (v as usize).checked_sub(count) {
            Some(k) => self.extra.get(k).copied().unwrap_or([0.0; 3]),
            None => self.mesh.vertex(v),
        }
    }

    /// Twice the area seen from above of the polygons around a vertex.
    fn fan_area2(&self, fan: &Fan) -> f64 {
        fan.polygons
            .iter()
            .map(|&p| {
                self.polygons
                    .get(p as usize)
                    .map_or(0.0, |polygon| self.area2_of(polygon))
            })
            .sum()
    }

    fn area2_of(&self, vertices: &[u32]) -> f64 {
        let points: Vec<[f32; 3]> = vertices.iter().map(|&w| self.position(w)).collect();
        xy_area2(&points)
    }

    /// The fan of `v` when every cooked polygon around it is in one patch, uses `v` once, and
    /// the polygons form one chain (open) or one cycle (closed) around it.
    fn fan(&mut self, v: u32) -> Option<Fan> {
        let alive = &self.alive;
        let list = self.incident.get_mut(v as usize)?;
        list.retain(|&p| alive.get(p as usize).copied().unwrap_or(false));
        list.dedup();
        let fan: Vec<u32> = list.clone();
        let &first = fan.first()?;
        let patch = self.patch_of.get(first as usize).copied().unwrap_or(NONE);
        if patch == NONE
            || fan
                .iter()
                .any(|&p| self.patch_of.get(p as usize).copied() != Some(patch))
        {
            return None;
        }
        // Each polygon as (before v, after v, polygon, position of v).
        let mut ends: Vec<(u32, u32, u32, usize)> = Vec::with_capacity(fan.len());
        for &p in &fan {
            let polygon = self.polygons.get(p as usize)?;
            let n = polygon.len();
            let mut at = polygon.iter().enumerate().filter(|&(_, &w)| w == v);
            let (Some((k, _)), None) = (at.next(), at.next()) else {
                return None;
            };
            ends.push((polygon[(k + n - 1) % n], polygon[(k + 1) % n], p, k));
        }
        ends.sort_unstable_by_key(|&(_, after, _, _)| after);
        if ends.windows(2).any(|w| w[0].1 == w[1].1) {
            return None;
        }
        let mut befores: Vec<u32> = ends.iter().map(|e| e.0).collect();
        befores.sort_unstable();
        if befores.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        // After polygon (v, b, …, a) comes the one whose edge from v runs to a.
        let next_of = |i: usize| -> Option<usize> {
            let before = ends.get(i)?.0;
            ends.binary_search_by_key(&before, |&(_, after, _, _)| after)
                .ok()
        };
        // An open fan starts at the polygon whose edge from v has no twin.
        let starts: Vec<usize> = (0..ends.len())
            .filter(|&i| befores.binary_search(&ends[i].1).is_err())
            .collect();
        let (start, closed) = match starts.as_slice() {
            [] => (0, true),
            [one] => (*one, false),
            _ => return None,
        };
        let mut order = Vec::with_capacity(ends.len());
        let mut current = start;
        loop {
            order.push(current);
            match next_of(current) {
                Some(next) if closed && next == start => break,
                Some(next) if order.len() < ends.len() => current = next,
                Some(_) => return None,
                None if closed => return None,
                None => break,
            }
        }
        if order.len() != ends.len() {
            return None;
        }
        let mut outline = Vec::new();
        for &i in &order {
            let (_, _, p, k) = ends[i];
            let polygon = self.polygons.get(p as usize)?;
            let n = polygon.len();
            for step in 1..n - 1 {
                outline.push(polygon[(k + step) % n]);
            }
        }
        if !closed {
            outline.push(ends[*order.last()?].0);
        }
        let mut sorted = outline.clone();
        sorted.sort_unstable();
        if outline.len() < 3 || sorted.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some(Fan {
            polygons: order.iter().map(|&i| ends[i].2).collect(),
            outline,
            closed,
            patch,
        })
    }

    /// Replaces the fan's polygons by a triangulation of its outline when that is simple,
    /// every triangle faces up and is cookable, and the triangles cover `expected` (twice the
    /// area seen from above). True when replaced.
    fn replace(&mut self, v: u32, fan: &Fan, expected: f64) -> bool {
        let flat: Vec<[f32; 3]> = fan
            .outline
            .iter()
            .map(|&w| {
                let p = self.position(w);
                [p[0], p[1], 0.0]
            })
            .collect();
        let split = triangulate_polygon(&flat);
        if !split.simple || split.dropped != 0 || split.triangles.len() != fan.outline.len() - 2 {
            return false;
        }
        // A new diagonal must not repeat an edge the mesh already has elsewhere (stacked or
        // folded ground seen from above): the edge would join three polygons and lose its
        // link, splitting what was connected.
        let m = fan.outline.len();
        let on_outline = |i: usize, j: usize| {
            let (lo, hi) = (i.min(j), i.max(j));
            hi - lo == 1 || (fan.closed && lo == 0 && hi == m - 1)
        };
        for t in &split.triangles {
            for (i, j) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                if !on_outline(i, j)
                    && let (Some(&x), Some(&y)) = (fan.outline.get(i), fan.outline.get(j))
                    && self.joined(x, y)
                {
                    return false;
                }
            }
        }
        let mut after = 0.0;
        let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(split.triangles.len());
        for t in &split.triangles {
            let (Some(&a), Some(&b), Some(&c)) = (
                fan.outline.get(t[0]),
                fan.outline.get(t[1]),
                fan.outline.get(t[2]),
            ) else {
                return false;
            };
            let corners = [self.position(a), self.position(b), self.position(c)];
            let area = xy_area2(&corners);
            if area <= 0.0 || !(self.acceptable)(&corners) {
                return false;
            }
            after += area;
            triangles.push([a, b, c]);
        }
        if expected.is_nan()
            || expected <= 0.0
            || (after - expected).abs() > AREA_RELATIVE * expected
        {
            return false;
        }
        let first = fan.polygons.first().copied().unwrap_or(0);
        let origin = self.source.get(first as usize).copied().unwrap_or(first);
        for &p in &fan.polygons {
            if let Some(slot) = self.alive.get_mut(p as usize) {
                *slot = false;
            }
        }
        for triangle in triangles {
            let id = self.polygons.len() as u32;
            self.polygons.push(triangle.to_vec());
            self.alive.push(true);
            self.patch_of.push(fan.patch);
            self.source.push(origin);
            for w in triangle {
                if let Some(list) = self.incident.get_mut(w as usize) {
                    list.push(id);
                }
            }
        }
        if let Some(list) = self.incident.get_mut(v as usize) {
            list.clear();
        }
        true
    }

    /// True when some cooked polygon has an edge between `a` and `b` (either way).
    fn joined(&self, a: u32, b: u32) -> bool {
        self.incident.get(a as usize).is_some_and(|list| {
            list.iter().any(|&p| {
                self.alive.get(p as usize).copied().unwrap_or(false)
                    && self.polygons.get(p as usize).is_some_and(|polygon| {
                        let n = polygon.len();
                        (0..n).any(|i| {
                            let (x, y) = (polygon[i], polygon[(i + 1) % n]);
                            (x == a && y == b) || (x == b && y == a)
                        })
                    })
            })
        })
    }
}

/// A mesh with the vertices inside its patches removed, ready for [`Inner::finish`] (which
/// a region budget runs for several border bounds).
#[derive(Clone)]
pub struct Inner<'a> {
    /// Only the polygons still alive (see [`compact`]).
    state: State<'a>,
    /// Per polygon of `state`: cooked (new triangles are).
    cooked: Vec<bool>,
    /// Polygons of `state` below this are input polygons kept as they were.
    inputs_kept: usize,
    removed: usize,
}

/// Removes the vertices inside patches. `patch[p]` is polygon `p`'s patch (`u32::MAX` for
/// polygons kept as they are), `cooked[p]` whether it is cooked at all (others are ignored).
/// `acceptable` says whether a new triangle (its three corners) could be cooked as it is
/// (faces up, not degenerate).
pub fn remove_inner<'a>(
    mesh: &'a NavMesh,
    patch: &[u32],
    cooked: &[bool],
    acceptable: &'a dyn Fn(&[[f32; 3]; 3]) -> bool,
) -> Inner<'a> {
    let count = mesh.polygons.len();
    let mut state = State {
        mesh,
        polygons: (0..count).map(|p| mesh.polygons.get(p).to_vec()).collect(),
        alive: vec![true; count],
        patch_of: (0..count)
            .map(|p| patch.get(p).copied().unwrap_or(NONE))
            .collect(),
        source: (0..count as u32).collect(),
        incident: vec![Vec::new(); mesh.vertices.len()],
        acceptable,
        extra: Vec::new(),
    };
    for p in 0..count {
        if !cooked.get(p).copied().unwrap_or(false) {
            continue;
        }
        for &v in mesh.polygons.get(p) {
            if let Some(list) = state.incident.get_mut(v as usize) {
                list.push(p as u32);
            }
        }
    }
    // Rounds over the vertices still to look at. Within a round, a vertex next to one just
    // removed waits for the next round (the removals of a round are independent), and a fan
    // larger than the round's cap waits too; the cap doubles when a round removes nothing.
    // Planar triangulations always have many small fans, so the fans removed stay small and
    // the rounds few (the Kirkpatrick hierarchy's argument): about n log n in all, where
    // removing vertices in index order let fans grow along a row (n √n on grids).
    let mut removed = 0usize;
    let vertex_count = mesh.vertices.len();
    let mut candidates: Vec<u32> = (0..vertex_count as u32)
        .filter(|&v| {
            state
                .incident
                .get(v as usize)
                .is_some_and(|l| !l.is_empty())
        })
        .collect();
    let mut touched = vec![0u32; vertex_count];
    let mut failures = vec![0u8; vertex_count];
    let mut cap = FAN_CAP;
    let mut round = 0u32;
    while !candidates.is_empty() {
        round += 1;
        let mut next = Vec::new();
        let mut removed_now = 0usize;
        for &v in &candidates {
            if touched.get(v as usize) == Some(&round) {
                next.push(v);
                continue;
            }
            let Some(fan) = state.fan(v) else { continue };
            if !fan.closed {
                continue;
            }
            if fan.polygons.len() > cap {
                next.push(v);
                continue;
            }
            let before = state.fan_area2(&fan);
            if state.replace(v, &fan, before) {
                removed += 1;
                removed_now += 1;
                for &w in &fan.outline {
                    if let Some(t) = touched.get_mut(w as usize) {
                        *t = round;
                    }
                }
            } else if let Some(f) = failures.get_mut(v as usize) {
                // The outline may turn simple once neighbours are gone: a few retries.
                *f += 1;
                if usize::from(*f) < PASSES {
                    next.push(v);
                }
            }
        }
        if removed_now == 0 {
            if cap >= vertex_count {
                break;
            }
            cap = cap.saturating_mul(2);
        }
        candidates = next;
    }
    let (state, cooked, inputs_kept) = compact(state, cooked);
    Inner {
        state,
        cooked,
        inputs_kept,
        removed,
    }
}

/// `state` without its dead polygons, the others renumbered in the same order, with whether
/// each is cooked and how many of them are input polygons (those come first). Vertex removal
/// leaves a few outline triangles per patch where the input had a million polygons; every
/// [`Inner::finish`] of a region budget starts from a copy of the state, so the copy and the
/// passes over it stay as small as what is left. Renumbering in order keeps every decision
/// of the passes that follow (they compare ids, never count them), so the output is the same.
fn compact<'a>(state: State<'a>, cooked: &[bool]) -> (State<'a>, Vec<bool>, usize) {
    let input_count = state.mesh.polygons.len();
    let mut new_id = vec![NONE; state.polygons.len()];
    let mut kept = State {
        polygons: Vec::new(),
        alive: Vec::new(),
        patch_of: Vec::new(),
        source: Vec::new(),
        incident: Vec::new(),
        ..state
    };
    let mut kept_cooked = Vec::new();
    let mut inputs_kept = 0;
    let State {
        polygons,
        alive,
        patch_of,
        source,
        incident,
        ..
    } = state;
    for (p, polygon) in polygons.into_iter().enumerate() {
        if !alive.get(p).copied().unwrap_or(false) {
            continue;
        }
        if let Some(slot) = new_id.get_mut(p) {
            *slot = kept.polygons.len() as u32;
        }
        if p < input_count {
            inputs_kept += 1;
        }
        kept.polygons.push(polygon);
        kept.alive.push(true);
        kept.patch_of.push(patch_of.get(p).copied().unwrap_or(NONE));
        kept.source.push(source.get(p).copied().unwrap_or(p as u32));
        kept_cooked.push(p >= input_count || cooked.get(p).copied().unwrap_or(false));
    }
    kept.incident = incident
        .into_iter()
        .map(|list| {
            list.into_iter()
                .filter_map(|p| new_id.get(p as usize).copied().filter(|&q| q != NONE))
                .collect()
        })
        .collect();
    (kept, kept_cooked, inputs_kept)
}

impl std::fmt::Debug for Inner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inner")
            .field("polygons", &self.state.polygons.len())
            .field("removed", &self.removed)
            .finish()
    }
}

impl Inner<'_> {
    /// Straightens the patches' free border (edges with no cooked polygon on the other
    /// side) where that changes the footprint by at most `border_area` per corner (see
    /// [`simplify_border`]; 0: only exactly straight corners) and returns the mesh.
    /// `straight` is the largest wrong-way turn (sine) the partition takes for straight
    /// ([`crate::merge::MergeInput::convex_epsilon`]).
    pub fn finish(&self, border_area: f64, straight: f64) -> Decimated {
        let mut state = self.state.clone();
        let mesh = state.mesh;
        // Always at least the exactly straight border corners (no area change): they are no
        // corner of any region, but as corners of the triangulation they make fans.
        let border = simplify_border(&mut state, &self.cooked, border_area.max(0.0));
        pair_reflex_corners(&mut state);
        let kept = partition::resolve_reflex_corners(&mut state, straight);

        let mut out = NavMesh {
            kind: mesh.kind,
            vertices: mesh.vertices.iter().chain(&state.extra).copied().collect(),
            ..NavMesh::default()
        };
        let mut kept_source = Vec::new();
        let mut original = Vec::new();
        for (p, polygon) in state.polygons.iter().enumerate() {
            if !state.alive[p] {
                continue;
            }
            let origin = state.source[p];
            // Every input polygon has a surface (`NavMesh::check`); the fallback is never
            // used.
            let surface = mesh
                .surfaces
                .get(origin as usize)
                .copied()
                .unwrap_or(Surface {
                    material: Material(0),
                    walkable: true,
                    code: 0,
                });
            out.push_polygon(polygon, surface);
            kept_source.push(origin);
            original.push(p < self.inputs_kept);
        }
        Decimated {
            mesh: out,
            source: kept_source,
            original,
            removed: self.removed,
            border,
            kept,
        }
    }
}

/// Twice the signed area of the triangle a, b, c seen from above.
fn orient(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> f64 {
    let [a, b, c] = [a, b, c].map(|p| [f64::from(p[0]), f64::from(p[1])]);
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Flips inner edges between two triangles of one patch so that diagonals join reflex
/// corners of the patch outline: Hertel–Mehlhorn keeps, at each reflex corner, an edge that
/// keeps it convex, and a kept diagonal joining two reflex corners serves both, so fewer
/// regions are needed. An edge u–w is flipped to x–y when x and y are more reflex corners
/// than u and w, the two triangles form a strictly convex quadrilateral, x–y is no edge yet
/// and both new triangles are cookable; the footprint and every outline edge stay. (Flips
/// towards a Delaunay triangulation were tried and gave more regions: 4,070 against 3,531
/// over the baseline corpus.) Each flip raises the number of reflex ends over all edges, so
/// it ends; the work is bounded anyway (8 flips per triangle).
fn pair_reflex_corners(state: &mut State<'_>) -> usize {
    use rustc_hash::FxHashMap as HashMap;
    let mut edges: HashMap<(u32, u32), u32> = HashMap::default();
    let mut stack = Vec::new();
    for p in 0..state.polygons.len() as u32 {
        if let Some(t) = state.triangle(p) {
            for i in 0..3 {
                edges.insert((t[i], t[(i + 1) % 3]), p);
                stack.push((t[i], t[(i + 1) % 3]));
            }
        }
    }
    let limit = 8 * stack.len() / 3 + 16;
    // Reflex corners of each patch outline: the patch's triangles around the vertex span
    // more than a half turn seen from above.
    let mut angle: HashMap<(u32, u32), f64> = HashMap::default();
    for p in 0..state.polygons.len() as u32 {
        if let Some(t) = state.triangle(p) {
            let patch = state.patch_of.get(p as usize).copied().unwrap_or(NONE);
            for i in 0..3 {
                let [a, b, c] = [t[i], t[(i + 1) % 3], t[(i + 2) % 3]].map(|v| state.position(v));
                let (d1, d2) = (
                    [f64::from(b[0] - a[0]), f64::from(b[1] - a[1])],
                    [f64::from(c[0] - a[0]), f64::from(c[1] - a[1])],
                );
                let inner = (d1[0] * d2[1] - d1[1] * d2[0]).atan2(d1[0] * d2[0] + d1[1] * d2[1]);
                *angle.entry((t[i], patch)).or_default() += inner.abs();
            }
        }
    }
    let reflex = |v: u32, patch: u32| -> u8 {
        u8::from(angle.get(&(v, patch)).is_some_and(|&a| {
            a > std::f64::consts::PI * (1.0 + 1e-9) && a < std::f64::consts::TAU * (1.0 - 1e-9)
        }))
    };
    let mut flips = 0;
    while let Some((u, w)) = stack.pop() {
        if flips >= limit {
            break;
        }
        let (Some(&p), Some(&q)) = (edges.get(&(u, w)), edges.get(&(w, u))) else {
            continue;
        };
        let (Some(tp), Some(tq)) = (state.triangle(p), state.triangle(q)) else {
            continue;
        };
        if state.patch_of.get(p as usize) != state.patch_of.get(q as usize) {
            continue;
        }
        let third = |t: [u32; 3], a: u32, b: u32| t.into_iter().find(|&v| v != a && v != b);
        let (Some(x), Some(y)) = (third(tp, u, w), third(tq, u, w)) else {
            continue;
        };
        if x == y {
            continue;
        }
        let patch_here = state.patch_of.get(p as usize).copied().unwrap_or(NONE);
        let score = |a: u32, b: u32| reflex(a, patch_here) + reflex(b, patch_here);
        if score(x, y) <= score(u, w) || !state.flip_diagonal([p, q], [u, w, x, y], &mut edges) {
            continue;
        }
        stack.extend([(u, y), (y, w), (w, x), (x, u)]);
        flips += 1;
    }
    flips
}

/// What [`simplify_border`] changed, seen from above (square units).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Border {
    /// Border vertices removed.
    pub removed: usize,
    /// Area cut off at convex corners.
    pub dropped: f64,
    /// Area filled in at reflex corners (notches).
    pub added: f64,
}

/// Removes border vertices smallest change first (Visvalingam–Whyatt): a vertex v between
/// free border edges a → v → b is replaced by the edge a → b, cutting off the triangle
/// (a, v, b) at a convex corner or filling it in at a reflex one, while that triangle's area
/// is at most `max_area`. Each removal keeps its fan's outline edges (so links and
/// components stay as they were), is refused when a and b are already joined by an edge, when
/// the fan is a single triangle (it would vanish), and, for a filled notch, when a cooked
/// vertex lies inside the triangle (the fill would reach over other ground). Straightening a
/// border removes its reflex corners, which is what a convex partition needs.
fn simplify_border(state: &mut State<'_>, cooked: &[bool], max_area: f64) -> Border {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mesh = state.mesh;
    let mut border = Border::default();
    // Cooked vertices in a uniform grid, for the notch test: those of the cooked polygons
    // still there (the test skips the others, which can never be used again).
    let mut used = vec![false; mesh.vertices.len()];
    for (p, polygon) in state.polygons.iter().enumerate() {
        if cooked.get(p).copied().unwrap_or(true) && state.alive.get(p).copied().unwrap_or(false) {
            for &v in polygon {
                if let Some(u) = used.get_mut(v as usize) {
                    *u = true;
                }
            }
        }
    }
    let points: Vec<u32> = (0..mesh.vertices.len() as u32)
        .filter(|&v| used[v as usize])
        .collect();
    let grid = Grid::new(mesh, &points);
    // Ground the fills must not reach over: every cooked polygon still there (convex: input
    // polygons are, the cooker triangulates otherwise), by its id in `state`.
    let mut ground = Shapes::new(&grid);
    let shape_of = |state: &State<'_>, p: usize| -> Vec<[f64; 2]> {
        state
            .polygons
            .get(p)
            .map(|polygon| {
                polygon
                    .iter()
                    .map(|&v| {
                        let q = mesh.vertex(v);
                        [f64::from(q[0]), f64::from(q[1])]
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    for p in 0..state.polygons.len() {
        let is_cooked = cooked.get(p).copied().unwrap_or(true);
        let shape = if is_cooked && state.alive[p] {
            shape_of(state, p)
        } else {
            Vec::new()
        };
        ground.insert(shape);
    }
    let mut version = vec![0u32; mesh.vertices.len()];
    let mut heap: BinaryHeap<Reverse<(u64, u32, u32)>> = BinaryHeap::new();
    let candidate = |state: &mut State<'_>, v: u32| -> Option<(Fan, f64)> {
        let fan = state.fan(v)?;
        if fan.closed {
            return None;
        }
        let (&b, &a) = (fan.outline.first()?, fan.outline.last()?);
        let cut = xy_area2(&[state.position(v), state.position(b), state.position(a)]);
        Some((fan, cut))
    };
    for &v in &points {
        if let Some((_, cut)) = candidate(state, v)
            && cut.abs() / 2.0 <= max_area
        {
            heap.push(Reverse(((cut.abs() / 2.0).to_bits(), v, 0)));
        }
    }
    while let Some(Reverse((_, v, seen))) = heap.pop() {
        if version.get(v as usize).copied() != Some(seen) {
            continue;
        }
        let Some((fan, cut)) = candidate(state, v) else {
            continue;
        };
        if cut.abs() / 2.0 > max_area {
            continue;
        }
        let (Some(&b), Some(&a)) = (fan.outline.first(), fan.outline.last()) else {
            continue;
        };
        if state.joined(a, b) {
            continue;
        }
        if cut < 0.0 {
            let triangle = [state.position(a), state.position(v), state.position(b)];
            let live = |w: u32| {
                state.incident.get(w as usize).is_some_and(|list| {
                    list.iter()
                        .any(|&p| state.alive.get(p as usize).copied().unwrap_or(false))
                })
            };
            let flat = triangle.map(|q| [f64::from(q[0]), f64::from(q[1])]);
            if grid.any_inside(mesh, &triangle, [a, v, b], &live)
                || ground.overlaps(&flat, &state.alive)
            {
                continue;
            }
        }
        let before = state.fan_area2(&fan);
        let first_new = state.polygons.len();
        if !state.replace(v, &fan, before - cut) {
            continue;
        }
        for p in first_new..state.polygons.len() {
            let shape = shape_of(state, p);
            ground.insert(shape);
        }
        border.removed += 1;
        if cut > 0.0 {
            border.dropped += cut / 2.0;
        } else {
            border.added += -cut / 2.0;
        }
        for w in [a, b] {
            if let Some(slot) = version.get_mut(w as usize) {
                *slot += 1;
                let tag = *slot;
                if let Some((_, cut)) = candidate(state, w)
                    && cut.abs() / 2.0 <= max_area
                {
                    heap.push(Reverse(((cut.abs() / 2.0).to_bits(), w, tag)));
                }
            }
        }
    }
    border
}

/// Convex shapes seen from above, bucketed in a hierarchy of grids over a [`Grid`]'s frame.
///
/// Level `k` has cells `2^k` base cells wide; a shape goes into the lowest level where its
/// box spans at most two cells each way, so it sits in at most four cells whatever its size.
/// (One level of base cells held each shape in every cell its box covered: the long thin
/// triangles of a large patch's outline triangulation each covered up to the whole grid, and
/// a 1M-triangle floor filled 1.7 GiB of cell lists.) A query visits, on every level, the
/// cells its own box covers: a shape overlapping the box shares one of them, because both use
/// the same clamped base cells.
struct Shapes<'g> {
    grid: &'g Grid,
    shapes: Vec<Vec<[f64; 2]>>,
    /// Shape ids by (level, x, y).
    cells: rustc_hash::FxHashMap<(u8, u32, u32), Vec<u32>>,
    /// Levels in use: `2^(levels - 1)` base cells cover the whole frame.
    levels: u8,
}

impl<'g> Shapes<'g> {
    fn new(grid: &'g Grid) -> Shapes<'g> {
        let mut levels = 1u8;
        while (1usize << (levels - 1)) < grid.frame.size {
            levels += 1;
        }
        Shapes {
            grid,
            shapes: Vec::new(),
            cells: rustc_hash::FxHashMap::default(),
            levels,
        }
    }

    fn cells_of(&self, shape: &[[f64; 2]]) -> ((usize, usize), (usize, usize)) {
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for p in shape {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        (self.grid.frame.cell_of(lo), self.grid.frame.cell_of(hi))
    }

    /// Adds the next shape (ids count from 0; an empty shape takes its id and no cell).
    fn insert(&mut self, shape: Vec<[f64; 2]>) {
        let id = self.shapes.len() as u32;
        if shape.is_empty() {
            self.shapes.push(shape);
            return;
        }
        let ((x0, y0), (x1, y1)) = self.cells_of(&shape);
        let mut level = 0u8;
        while level + 1 < self.levels
            && ((x1 >> level) > (x0 >> level) + 1 || (y1 >> level) > (y0 >> level) + 1)
        {
            level += 1;
        }
        for y in (y0 >> level)..=(y1 >> level) {
            for x in (x0 >> level)..=(x1 >> level) {
                self.cells
                    .entry((level, x as u32, y as u32))
                    .or_default()
                    .push(id);
            }
        }
        self.shapes.push(shape);
    }

    /// True when the triangle's interior overlaps that of a shape whose id is `alive`
    /// (touching is not overlapping).
    fn overlaps(&self, triangle: &[[f64; 2]; 3], alive: &[bool]) -> bool {
        let ((x0, y0), (x1, y1)) = self.cells_of(triangle);
        for level in 0..self.levels {
            for y in (y0 >> level)..=(y1 >> level) {
                for x in (x0 >> level)..=(x1 >> level) {
                    let Some(list) = self.cells.get(&(level, x as u32, y as u32)) else {
                        continue;
                    };
                    for &id in list {
                        if alive.get(id as usize).copied().unwrap_or(false)
                            && let Some(shape) = self.shapes.get(id as usize)
                            && convex_overlap(triangle, shape)
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}

/// Separating-axis test of two convex polygons (either winding): true when their interiors
/// overlap by more than rounding (a relative 1e-9 of their extent) along every edge normal.
fn convex_overlap(a: &[[f64; 2]], b: &[[f64; 2]]) -> bool {
    let extent = a
        .iter()
        .chain(b)
        .flat_map(|p| [p[0].abs(), p[1].abs()])
        .fold(1.0f64, f64::max);
    let slack = 1e-9 * extent;
    for shape in [a, b] {
        let n = shape.len();
        for i in 0..n {
            let (p, q) = (shape[i], shape[(i + 1) % n]);
            let (nx, ny) = (q[1] - p[1], p[0] - q[0]);
            let len = nx.hypot(ny);
            if len == 0.0 {
                continue;
            }
            let project = |poly: &[[f64; 2]]| {
                poly.iter()
                    .map(|r| (r[0] * nx + r[1] * ny) / len)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
                        (lo.min(d), hi.max(d))
                    })
            };
            let (a_lo, a_hi) = project(a);
            let (b_lo, b_hi) = project(b);
            if a_hi <= b_lo + slack || b_hi <= a_lo + slack {
                return false;
            }
        }
    }
    true
}

/// A square grid of `size` × `size` cells over a box seen from above (cell (x, y) is number
/// `y * size + x`); points outside the box fall in the nearest edge cell. Shared by the
/// vertex and shape grids here and the corner grids of [`partition`].
#[derive(Clone, Copy, Debug)]
struct GridFrame {
    min: [f64; 2],
    cell: f64,
    size: usize,
}

impl GridFrame {
    /// `size` (at least 1) cells a side over the box of `points`.
    fn over(points: impl Iterator<Item = [f64; 2]>, size: usize) -> GridFrame {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in points {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        let size = size.max(1);
        let extent = (max[0] - min[0]).max(max[1] - min[1]);
        let cell = if extent.is_finite() && extent > 0.0 {
            extent / size as f64
        } else {
            1.0
        };
        GridFrame { min, cell, size }
    }

    fn cell_of(&self, p: [f64; 2]) -> (usize, usize) {
        let at = |k: usize| {
            let f = ((p[k] - self.min[k]) / self.cell).floor();
            if f.is_nan() || f < 0.0 {
                0
            } else {
                (f as usize).min(self.size - 1)
            }
        };
        (at(0), at(1))
    }
}

/// Vertices bucketed in a uniform grid over their box seen from above.
struct Grid {
    frame: GridFrame,
    cells: rustc_hash::FxHashMap<(usize, usize), Vec<u32>>,
}

impl Grid {
    fn new(mesh: &NavMesh, points: &[u32]) -> Grid {
        let xy = |v: u32| {
            let p = mesh.vertex(v);
            [f64::from(p[0]), f64::from(p[1])]
        };
        let size = ((points.len() as f64).sqrt() as usize).clamp(1, 1024);
        let mut grid = Grid {
            frame: GridFrame::over(points.iter().map(|&v| xy(v)), size),
            cells: rustc_hash::FxHashMap::default(),
        };
        for &v in points {
            let key = grid.frame.cell_of(xy(v));
            grid.cells.entry(key).or_default().push(v);
        }
        grid
    }

    /// True when a live vertex (still used by a cooked polygon) other than `skip` lies inside
    /// or on the triangle (any winding).
    fn any_inside(
        &self,
        mesh: &NavMesh,
        triangle: &[[f32; 3]; 3],
        skip: [u32; 3],
        live: &dyn Fn(u32) -> bool,
    ) -> bool {
        let t = triangle.map(|p| [f64::from(p[0]), f64::from(p[1])]);
        let lo = [
            t[0][0].min(t[1][0]).min(t[2][0]),
            t[0][1].min(t[1][1]).min(t[2][1]),
        ];
        let hi = [
            t[0][0].max(t[1][0]).max(t[2][0]),
            t[0][1].max(t[1][1]).max(t[2][1]),
        ];
        let (x0, y0) = self.frame.cell_of(lo);
        let (x1, y1) = self.frame.cell_of(hi);
        let cross = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
            (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        };
        let orientation = cross(t[0], t[1], t[2]).signum();
        for x in x0..=x1 {
            for y in y0..=y1 {
                let Some(list) = self.cells.get(&(x, y)) else {
                    continue;
                };
                for &w in list {
                    if skip.contains(&w) || !live(w) {
                        continue;
                    }
                    let p = mesh.vertex(w);
                    let p = [f64::from(p[0]), f64::from(p[1])];
                    if (0..3).all(|i| cross(t[i], t[(i + 1) % 3], p) * orientation >= 0.0) {
                        return true;
                    }
                }
            }
        }
        false
    }
}
