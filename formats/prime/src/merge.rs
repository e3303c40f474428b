//! Building regions: gluing neighbouring polygons into larger flat convex polygons.
//!
//! **Algorithm: Hertel–Mehlhorn over the input polygons, inner edges longest first.**
//! Every mergeable polygon starts as its own region. Region outlines are doubly linked
//! lists of input half-edges. The inner edges (both sides mergeable, same height and masks)
//! are visited in order of decreasing length seen from above; an edge whose two sides are
//! still different regions is removed when the union stays convex seen from +Z and flat (see
//! [`Flatness`]). Removing an edge removes the whole run of edges the two regions share, so
//! vertices inside a patch disappear with it. Passes repeat until nothing changes (at most
//! [`MERGE_PASSES`]).
//!
//! Why this one: Hertel–Mehlhorn (remove an inner edge whenever both of its ends stay convex)
//! keeps at most four times the fewest convex pieces of a triangulated polygon, needs only
//! the two corners at the ends of the removed run to be tested, and is linear after the sort.
//! The order matters in practice: removing long edges first takes out the diagonals of
//! tiled floors before the grid lines, so tiles fuse into squares, rows and then whole
//! rectangular rooms, where a breadth-first growth from seeds leaves staircase cuts behind
//! that block later merges. Optimal convex partition is cubic in the corner count (and
//! NP-hard with holes, which walkable patches have), far beyond what a cook may cost.
//!
//! Flatness: each region has a plane, at first that of its polygon. Two regions glue when
//! every input vertex of the one with fewer vertices lies within the tolerance of the other's
//! plane; the union keeps the larger one's plane. By induction every input vertex of a
//! region is within the tolerance of the region's plane, and each vertex is checked
//! O(log n) times over all successful glues (the smaller side moves). Under a height
//! tolerance the plane is refitted (least squares) each time the region doubles, and the fit
//! kept when all its vertices are within the tolerance and it is no steeper than the
//! region's steepest polygon, so that wide regions on rippled ground are not bound to the
//! tilt of their first triangle, and thin strips do not tilt across their width.

use rustc_hash::FxHashMap as HashMap;

use walkmesh_core::NavMesh;
use walkmesh_core::passes::Adjacency;

/// Passes over the inner edges.
pub const MERGE_PASSES: usize = 8;
/// Exact flatness: smallest dot product of the two planes' unit normals.
pub const NORMAL_DOT: f64 = 1.0 - 1e-6;
/// Exact flatness: largest distance (along the normal) of a vertex from the region's plane.
pub const PLANE_DISTANCE: f64 = 1e-4;
/// Relative tolerance of the left-turn test.
pub const TURN_EPSILON: f64 = 1e-9;

/// How flat a region must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Flatness {
    /// Normals within [`NORMAL_DOT`], vertices within [`PLANE_DISTANCE`] of the plane: the
    /// input is kept as it is.
    Exact,
    /// Every input vertex within this vertical distance of the region's plane; the region's
    /// corners are then moved onto that plane.
    Vertical(f64),
    /// Flatness was settled before (polygons with equal keys lie on one patch and carry its
    /// plane): never tested, never refitted.
    Given,
}

pub type P3 = [f64; 3];

/// A polygon's plane: unit normal (pointing up for mergeable polygons) and a point on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub normal: P3,
    pub origin: P3,
}

impl Plane {
    /// Signed distance along the normal.
    pub fn distance(&self, p: P3) -> f64 {
        (p[0] - self.origin[0]) * self.normal[0]
            + (p[1] - self.origin[1]) * self.normal[1]
            + (p[2] - self.origin[2]) * self.normal[2]
    }

    /// Signed vertical distance (`p.z` minus the plane's height at `p`'s x, y).
    pub fn vertical(&self, p: P3) -> f64 {
        self.distance(p) / self.normal[2]
    }

    /// Height of the plane at (x, y).
    pub fn z_at(&self, x: f64, y: f64) -> f64 {
        self.origin[2]
            - ((x - self.origin[0]) * self.normal[0] + (y - self.origin[1]) * self.normal[1])
                / self.normal[2]
    }
}

pub fn point(mesh: &NavMesh, vertex: u32) -> P3 {
    mesh.vertex(vertex).map(f64::from)
}

/// True when the corner u → a → w turns left or goes straight on, seen from +Z.
pub fn turns_left_or_straight(u: P3, a: P3, w: P3) -> bool {
    let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
    let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
    let cross = d1x * d2y - d1y * d2x;
    let scale = (d1x.hypot(d1y) * d2x.hypot(d2y)).max(f64::MIN_POSITIVE);
    if cross > TURN_EPSILON * scale {
        return true;
    }
    cross >= -TURN_EPSILON * scale && d1x * d2x + d1y * d2y > 0.0
}

/// Largest reflex turn (sine of the angle) the merge still takes for straight: a corner
/// this close to straight is where f32 rounding bent a straight outline (NWN2 areas have
/// hundreds, each would otherwise cost a region). A hundredth of the validator's
/// `path.region_not_convex` tolerance (1e-4); the engine's inside test then misses a sliver
/// at most this fraction of an edge wide, below the coordinates' own rounding.
pub const CONVEX_EPSILON: f64 = 1e-5;

/// True when the corner u → a → w turns left, goes straight on, or turns right by at most
/// `epsilon` (sine of the angle; [`CONVEX_EPSILON`] or tighter), seen from +Z.
pub fn convex_corner(u: P3, a: P3, w: P3, epsilon: f64) -> bool {
    let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
    let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
    let cross = d1x * d2y - d1y * d2x;
    let scale = (d1x.hypot(d1y) * d2x.hypot(d2y)).max(f64::MIN_POSITIVE);
    cross >= -epsilon * scale && (cross > 0.0 || d1x * d2x + d1y * d2y > 0.0)
}

/// True when the corner u → a → w goes straight on (within [`TURN_EPSILON`]), seen from +Z.
pub fn straight(u: P3, a: P3, w: P3) -> bool {
    let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
    let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
    let cross = d1x * d2y - d1y * d2x;
    let scale = (d1x.hypot(d1y) * d2x.hypot(d2y)).max(f64::MIN_POSITIVE);
    cross.abs() <= TURN_EPSILON * scale && d1x * d2x + d1y * d2y > 0.0
}

/// What the merger needs to know about the mesh: the mesh with its adjacency, which
/// polygons may be glued and under which keys, their planes, and the order and tolerance of
/// the merge.
#[derive(Debug)]
pub struct MergeInput<'a> {
    pub mesh: &'a NavMesh,
    pub adjacency: &'a Adjacency,
    /// Polygon of every half-edge.
    pub poly_of: &'a [u32],
    /// Polygons that may be glued (cooked, facing up).
    pub mergeable: &'a [bool],
    /// Polygons with equal keys may share a region (height and masks).
    pub key: &'a [u64],
    /// Every polygon's plane.
    pub planes: &'a [Plane],
    /// Per half-edge, a rank: inner edges of lower rank are visited first (then longest
    /// first). Empty: all equal.
    pub rank: &'a [u8],
    /// Per polygon, the order its inner edges are visited in ([`ORDERS`]); empty: 0.
    pub order: &'a [u8],
    /// Largest wrong-way turn (sine) a glued region may have at a corner: [`CONVEX_EPSILON`]
    /// at the default tolerance, [`TURN_EPSILON`] under a widened one (a budget), where the
    /// two sides of a link differ in height by up to the bound and a PATH file read back
    /// welds them: long thin regions with such corners then come back twisted, and formats
    /// that triangulate them lost connectivity (`shadowdale_mages_guild.trx` → .path → .wok,
    /// 53 → 56 components).
    pub convex_epsilon: f64,
}

/// Added to the rank of the diagonals chosen to resolve reflex corners (see
/// `crate::decimate::partition`): in orders below 4 they are removed last, so that every
/// other inner edge goes first.
pub const KEPT_RANK: u8 = 3;

/// Orders of the merge, per patch: 0 = rank, then longest first; 1 = rank, then shortest
/// first; 2 = longest first; 3 = shortest first; in each, the chosen diagonals last
/// ([`KEPT_RANK`]). 4–7: the same without treating the chosen diagonals apart (where a
/// reflex corner cannot be resolved by one diagonal, the forced ones can cost more than
/// plain Hertel–Mehlhorn's choice; each patch takes the better).
pub const ORDERS: u8 = 8;

/// Region outlines as doubly linked lists of input half-edges, and the gluing of two
/// regions across a run of shared edges.
#[derive(Debug)]
pub struct Merger<'a> {
    input: &'a MergeInput<'a>,
    pub next: Vec<u32>,
    prev: Vec<u32>,
    pub on_boundary: Vec<bool>,
    /// Union-find over polygons; a region's root is its smallest polygon.
    parent: Vec<u32>,
    /// Outline length, valid at roots.
    pub boundary_len: Vec<usize>,
    /// Some half-edge on the outline, valid at roots.
    anchor: Vec<u32>,
    /// The region's plane, valid at roots.
    planes: Vec<Plane>,
    /// Vertex count when the plane was last fitted, valid at roots.
    fitted: Vec<usize>,
    /// Smallest unit-normal z (the steepest slope) of the region's polygons, valid at roots:
    /// a refitted plane may not be steeper (a thin strip's least-squares plane can tilt
    /// across the strip while every vertex stays within the tolerance).
    steepest: Vec<f64>,
    /// Input vertices of the region (with repeats), valid at roots.
    vertices: Vec<Vec<u32>>,
    /// Pairs of roots found not flat together, with their vertex counts then.
    not_flat: HashMap<(usize, usize), (usize, usize)>,
    /// Per half-edge, the vertex counts of the regions on its side and the other when they
    /// were found not flat together across it (`(0, 0)`: never). A region's vertex list only
    /// grows, and grows with every union, so equal counts mean the same two regions: the
    /// same test would fail again. Read before [`Merger::not_flat`], which it spares a hash
    /// lookup per edge and pass (most of a million-triangle merge of a rippled floor, where
    /// most neighbours are not flat together). Empty until a merge tests flatness.
    not_flat_across: Vec<(u32, u32)>,
}

impl<'a> Merger<'a> {
    pub fn new(input: &'a MergeInput<'a>) -> Merger<'a> {
        let mesh = input.mesh;
        let half_edges = mesh.polygons.indices().len();
        let mut next = vec![0u32; half_edges];
        let mut prev = vec![0u32; half_edges];
        let count = mesh.polygons.len();
        let mut boundary_len = Vec::with_capacity(count);
        let mut anchor = Vec::with_capacity(count);
        let mut vertices = Vec::with_capacity(count);
        for p in 0..count {
            let first = mesh.polygons.first_index(p);
            let polygon = mesh.polygons.get(p);
            let n = polygon.len();
            for e in 0..n {
                next[first + e] = (first + (e + 1) % n) as u32;
                prev[first + e] = (first + (e + n - 1) % n) as u32;
            }
            boundary_len.push(n);
            anchor.push(first as u32);
            vertices.push(polygon.to_vec());
        }
        Merger {
            input,
            next,
            prev,
            on_boundary: vec![true; half_edges],
            parent: (0..count as u32).collect(),
            boundary_len,
            anchor,
            planes: input.planes.to_vec(),
            fitted: vertices.iter().map(Vec::len).collect(),
            steepest: input.planes.iter().map(|p| p.normal[2]).collect(),
            vertices,
            not_flat: HashMap::default(),
            not_flat_across: Vec::new(),
        }
    }

    pub fn root(&mut self, p: usize) -> usize {
        let mut x = p;
        while self.parent[x] as usize != x {
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    /// The plane of the region rooted at `root`.
    pub fn plane(&self, root: usize) -> Option<Plane> {
        self.planes.get(root).copied()
    }

    /// Input vertices of the region rooted at `root`.
    pub fn vertices(&self, root: usize) -> &[u32] {
        self.vertices.get(root).map_or(&[], Vec::as_slice)
    }

    fn start(&self, h: u32) -> P3 {
        let indices = self.input.mesh.polygons.indices();
        point(
            self.input.mesh,
            indices.get(h as usize).copied().unwrap_or(0),
        )
    }

    /// Glues the regions on both sides of every inner edge where the union stays convex and
    /// flat, longest edges first, until nothing changes.
    pub fn merge(&mut self, flatness: Flatness) {
        self.merge_with(flatness, true);
    }

    /// Glues flat neighbours whether or not the union stays convex: the patches of
    /// [`crate::cook`] (connected, same key, flat together), whose outlines are then dropped.
    /// Outline lists stay consistent (a union along one shared run is one loop; runs the two
    /// shared elsewhere stay on it as edges with both sides in the region).
    pub fn merge_patches(&mut self, flatness: Flatness) {
        self.merge_with(flatness, false);
    }

    fn merge_with(&mut self, flatness: Flatness, convex: bool) {
        let input = self.input;
        let mesh = input.mesh;
        let indices = mesh.polygons.indices();
        let mut edges: Vec<(u8, f64, u32)> = Vec::new();
        for (h, &p) in input.poly_of.iter().enumerate() {
            let Some(t) = input.adjacency.across(h) else {
                continue;
            };
            let q = input.poly_of.get(t).copied().unwrap_or(u32::MAX) as usize;
            let p = p as usize;
            // Each inner edge once, between polygons that may share a region.
            if h > t
                || !input.mergeable.get(p).copied().unwrap_or(false)
                || !input.mergeable.get(q).copied().unwrap_or(false)
                || input.key.get(p) != input.key.get(q)
            {
                continue;
            }
            let a = point(mesh, indices.get(h).copied().unwrap_or(0));
            let b = point(mesh, indices.get(t).copied().unwrap_or(0));
            let order = input.order.get(p).copied().unwrap_or(0);
            let rank = input.rank.get(h).copied().unwrap_or(0);
            let (kept, reflex) = if rank >= KEPT_RANK {
                (KEPT_RANK, rank - KEPT_RANK)
            } else {
                (0, rank)
            };
            let rank = match order {
                0 | 1 => kept + reflex,
                2 | 3 => kept,
                4 | 5 => reflex,
                _ => 0,
            };
            let length = (b[0] - a[0]).hypot(b[1] - a[1]);
            let length = if order % 2 == 1 { -length } else { length };
            edges.push((rank, length, h as u32));
        }
        edges.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)).then(x.2.cmp(&y.2)));
        if flatness != Flatness::Given && self.not_flat_across.is_empty() {
            self.not_flat_across = vec![(0, 0); self.next.len()];
        }
        for _ in 0..MERGE_PASSES {
            let mut merged = false;
            for &(_, _, h) in &edges {
                let h = h as usize;
                if !self.on_boundary[h] {
                    continue;
                }
                let Some(t) = input.adjacency.across(h) else {
                    continue;
                };
                if !self.on_boundary[t] {
                    continue;
                }
                let r = self.root(input.poly_of[h] as usize);
                let q = self.root(input.poly_of[t] as usize);
                if r == q {
                    continue;
                }
                if self.not_flat_across.get(h) == Some(&self.sizes(r, q)) {
                    continue;
                }
                // A pair that was not flat stays so until one side grows.
                let pair = (r.min(q), r.max(q));
                if self.not_flat.get(&pair).is_some_and(|&sizes| {
                    sizes == (self.vertices[pair.0].len(), self.vertices[pair.1].len())
                }) {
                    continue;
                }
                merged |= self.glue(r, h as u32, t as u32, q, flatness, convex);
            }
            if !merged {
                break;
            }
        }
    }

    /// The vertex counts of regions `r` and `q` (see [`Merger::not_flat_across`]).
    fn sizes(&self, r: usize, q: usize) -> (u32, u32) {
        let count = |x: usize| self.vertices.get(x).map_or(0, |v| v.len() as u32);
        (count(r), count(q))
    }

    /// True when every vertex of the region with fewer vertices lies within the tolerance of
    /// the other's plane (and, for exact flatness, the planes' normals agree).
    fn flat_union(&self, r: usize, q: usize, flatness: Flatness) -> bool {
        let (small, large) = if self.vertices[r].len() < self.vertices[q].len() {
            (r, q)
        } else {
            (q, r)
        };
        let (Some(plane), Some(other)) = (self.planes.get(large), self.planes.get(small)) else {
            return false;
        };
        let mesh = self.input.mesh;
        match flatness {
            Flatness::Exact => {
                let n = plane.normal;
                let m = other.normal;
                n[0] * m[0] + n[1] * m[1] + n[2] * m[2] >= NORMAL_DOT
                    && self.vertices[small]
                        .iter()
                        .all(|&v| plane.distance(point(mesh, v)).abs() <= PLANE_DISTANCE)
            }
            Flatness::Vertical(tolerance) => self.vertices[small]
                .iter()
                .all(|&v| plane.vertical(point(mesh, v)).abs() <= tolerance),
            Flatness::Given => true,
        }
    }

    /// Glues region `q` (outline half-edge `t`) to region `r` (outline half-edge `h`, the
    /// twin of `t`) when the union is convex seen from +Z. True when glued.
    fn glue(
        &mut self,
        r: usize,
        h: u32,
        t: u32,
        q: usize,
        flatness: Flatness,
        convex: bool,
    ) -> bool {
        let q_len = self.boundary_len[q];
        let r_len = self.boundary_len[r];
        let (next, prev) = (&self.next, &self.prev);
        let indices = self.input.mesh.polygons.indices();
        let adjacency = self.input.adjacency;
        let vertex = |e: u32| indices.get(e as usize).copied();
        // Linked and running the opposite way (edges of neighbours wound inconsistently are
        // linked by the adjacency too, but cannot be glued).
        let twins = |a: u32, b: u32| {
            adjacency.across(a as usize) == Some(b as usize)
                && vertex(a) == vertex(next[b as usize])
                && vertex(b) == vertex(next[a as usize])
        };
        if !twins(h, t) {
            return false;
        }
        // The shared run: consecutive outline edges of r whose twins are consecutive in q.
        let (mut h_first, mut h_last, mut t_first, mut t_last) = (h, h, t, t);
        let mut shared = 1usize;
        while shared < q_len.min(r_len) {
            let (h2, t2) = (next[h_last as usize], prev[t_last as usize]);
            if h2 != h_first && twins(h2, t2) {
                (h_last, t_last) = (h2, t2);
                shared += 1;
            } else {
                break;
            }
        }
        while shared < q_len.min(r_len) {
            let (h2, t2) = (prev[h_first as usize], next[t_first as usize]);
            if h2 != h_last && twins(h2, t2) {
                (h_first, t_first) = (h2, t2);
                shared += 1;
            } else {
                break;
            }
        }
        // One side's whole outline is a run of the other's: a hole of the other side that
        // this side fills (only patches, which need not be convex, can surround another).
        let enclosed = shared >= q_len || shared >= r_len;
        if enclosed && (convex || (shared >= q_len && shared >= r_len)) {
            return false;
        }
        let u_edge = prev[h_first as usize];
        let w_edge = next[t_first as usize];
        let x_edge = prev[t_last as usize];
        let y_edge = next[h_last as usize];
        if convex {
            let a = self.start(h_first);
            let b = self.start(y_edge);
            let u = self.start(u_edge);
            let w = self.start(next[w_edge as usize]);
            let x = self.start(x_edge);
            let y = self.start(next[y_edge as usize]);
            let epsilon = self.input.convex_epsilon;
            if !convex_corner(u, a, w, epsilon) || !convex_corner(x, b, y, epsilon) {
                return false;
            }
        }
        // Flatness last: it costs the smaller side's vertex count, convexity O(1).
        if !self.flat_union(r, q, flatness) {
            let pair = (r.min(q), r.max(q));
            let sizes = (self.vertices[pair.0].len(), self.vertices[pair.1].len());
            self.not_flat.insert(pair, sizes);
            let across = self.sizes(r, q);
            if let Some(slot) = self.not_flat_across.get_mut(h as usize) {
                *slot = across;
            }
            return false;
        }
        let (mut hr, mut tq) = (h_first, t_first);
        for _ in 0..shared {
            self.on_boundary[hr as usize] = false;
            self.on_boundary[tq as usize] = false;
            hr = self.next[hr as usize];
            tq = self.prev[tq as usize];
        }
        let anchor = if enclosed {
            // The run is a closed stretch of the enclosing side's outline: close it up.
            let (first, last) = if shared >= q_len {
                (h_first, h_last)
            } else {
                (t_last, t_first)
            };
            let before = self.prev[first as usize];
            let after = self.next[last as usize];
            self.next[before as usize] = after;
            self.prev[after as usize] = before;
            before
        } else {
            self.next[u_edge as usize] = w_edge;
            self.prev[w_edge as usize] = u_edge;
            self.next[x_edge as usize] = y_edge;
            self.prev[y_edge as usize] = x_edge;
            u_edge
        };
        let (low, high) = (r.min(q), r.max(q));
        self.parent[high] = low as u32;
        self.boundary_len[low] = r_len + q_len - 2 * shared;
        self.anchor[low] = anchor;
        // The larger vertex set keeps its plane; the smaller one moves (small to large).
        let (small, large) = if self.vertices[r].len() < self.vertices[q].len() {
            (r, q)
        } else {
            (q, r)
        };
        let (plane, fitted) = (self.planes[large], self.fitted[large]);
        let mut kept = std::mem::take(&mut self.vertices[large]);
        kept.append(&mut self.vertices[small]);
        self.planes[low] = plane;
        self.fitted[low] = fitted;
        let steepest = self.steepest[r].min(self.steepest[q]);
        self.steepest[low] = steepest;
        // Under a tolerance, the first polygon's plane is a poor fit for a wide region on a
        // rippled surface: refit (least squares) whenever the region has doubled since the
        // last fit, and keep the fit when every vertex is within the tolerance. Doubling
        // keeps the refits linear in total.
        if let Flatness::Vertical(tolerance) = flatness
            && kept.len() >= 2 * fitted
        {
            self.fitted[low] = kept.len();
            let mesh = self.input.mesh;
            if let Some(fit) = fit_plane(mesh, &kept)
                && fit.normal[2] >= steepest
                && kept
                    .iter()
                    .all(|&v| fit.vertical(point(mesh, v)).abs() <= tolerance)
            {
                self.planes[low] = fit;
            }
        }
        self.vertices[low] = kept;
        true
    }
}

/// Least-squares plane z = a·x + b·y + c through the vertices (centred, so that large
/// coordinates keep their precision); `None` when they are collinear seen from above.
pub fn fit_plane(mesh: &NavMesh, vertices: &[u32]) -> Option<Plane> {
    let n = vertices.len() as f64;
    if vertices.len() < 3 {
        return None;
    }
    let mut mean = [0.0f64; 3];
    for &v in vertices {
        let p = point(mesh, v);
        for axis in 0..3 {
            mean[axis] += p[axis] / n;
        }
    }
    let (mut sxx, mut sxy, mut syy, mut sxz, mut syz) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &v in vertices {
        let p = point(mesh, v);
        let (x, y, z) = (p[0] - mean[0], p[1] - mean[1], p[2] - mean[2]);
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        sxz += x * z;
        syz += y * z;
    }
    let det = sxx * syy - sxy * sxy;
    if det.is_nan() || det <= 1e-12 * sxx * syy {
        return None;
    }
    let a = (sxz * syy - syz * sxy) / det;
    let b = (syz * sxx - sxz * sxy) / det;
    let len = (a * a + b * b + 1.0).sqrt();
    let normal = [-a / len, -b / len, 1.0 / len];
    normal.iter().all(|c| c.is_finite()).then_some(Plane {
        normal,
        origin: mean,
    })
}
