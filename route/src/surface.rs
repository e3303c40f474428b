//! The surface route: the shortest way over a mesh's walkable faces, from the geometry alone
//! (`walkmesh route --method surface`, any format).
//!
//! This file is the specification other implementations (the in-page router of `walkmesh
//! view`) follow; a port that does the same arithmetic in the same order in IEEE `f64` gets the
//! same faces, points and length. Every rule is listed here.
//!
//! # Arithmetic
//! Vertex coordinates are read as `f32` and widened to `f64`; everything after that is `f64`.
//! No fused multiply–add. "Plan" means the XY plane (Z is up). `cross(o, a, b)` is
//! `(a.x − o.x)·(b.y − o.y) − (a.y − o.y)·(b.x − o.x)`: positive when `b` lies
//! counter-clockwise of `a` seen from `o`, looking down. `dist(p, q)` is the 3-D Euclidean
//! distance `sqrt(dx·dx + dy·dy + dz·dz)`.
//!
//! # Walkable faces and their links
//! A face (polygon) takes part when `Surface::walkable` is true. Half-edge `h` is the position
//! of a corner in the mesh's flat corner list (`Polygons::indices`): polygon `p`'s edge `e`
//! (from corner `e` to corner `(e + 1) mod n`) is `first_index(p) + e`. Two walkable faces are
//! linked across an edge when exactly two walkable half-edges have the same two vertex indices
//! (either direction); an edge shared by three or more walkable faces links none of them
//! (`walkmesh_core::passes::edge_adjacency`). Positions are never compared: vertices that are
//! only coincident do not link (callers weld first where the format asks for it).
//!
//! # Point location (`locate`)
//! For a query point `q = (x, y, z)`:
//! 1. Candidates are the walkable faces whose plan projection contains `(x, y)`, boundary
//!    included (`x`, `y` rounded to `f32` first;
//!    `walkmesh_core::passes::aabb::polygon_contains_xy`: a point exactly on an edge
//!    line (`cross == 0`) within the edge's box counts; otherwise the crossing-number rule with
//!    the edge taken when `(a.y > y) != (b.y > y)` and `x < a.x + (y − a.y)·(b.x − a.x)/(b.y − a.y)`).
//! 2. Each candidate's height at `(x, y)` is [`height_at`]; the face with the smallest
//!    `|height − z|` wins, ties to the lower face index.
//! 3. The located point is `(x, y, height)`: routes start and end on the ground.
//! 4. No candidate: the error names the walkable face with the smallest 3-D distance from `q`
//!    (distance to the closest point of the face's fan triangles), ties to the lower index.
//!
//! # Height on a face (`height_at`)
//! The face is fanned from corner 0 into triangles `(c0, ci, ci+1)`, `i = 1 … n − 2`. For
//! each triangle with a non-zero plan determinant `det = (b − a) ⨯ (c − a)` the barycentric
//! weights of `(x, y)` are `wb = ((p − a) ⨯ (c − a)) / det`, `wc = ((b − a) ⨯ (p − a)) / det`,
//! `wa = 1 − wb − wc` (2-D cross products `u ⨯ v = u.x·v.y − u.y·v.x`). The triangle with the
//! largest `min(wa, wb, wc)` is used (the first one on ties, so a point inside uses the
//! triangle holding it and a point outside the least-outside one), and the height is
//! `wa·a.z + wb·b.z + wc·c.z`. When every fan triangle is degenerate in plan the height is the
//! mean of the corners' z.
//!
//! # Search (A* over crossings)
//! The search finds the shortest chain start → edge midpoints → end, each step inside one face:
//! - A node is a directed crossing: half-edge `h` of face `f` whose edge is linked to face `g`,
//!   meaning "leave `f` into `g` through this edge". Its position is the 3-D midpoint of the
//!   edge, `(v0 + v1) / 2` per coordinate (`v0`, `v1` the half-edge's two vertices).
//! - From the start face `s`: one node per linked half-edge of `s`, cost `dist(start, mid)`.
//! - From node `h` (entering `g`): every linked half-edge `h2` of `g` except the one across
//!   `h`, cost `g(h) + dist(mid(h), mid(h2))`; and, when `g` is the end face `t`, the goal, cost
//!   `g(h) + dist(mid(h), end)`.
//! - Heuristic: `dist(mid, end)` (0 for the goal). Costs are straight 3-D distances, so the
//!   heuristic never overestimates and the first time the goal is taken it is optimal.
//! - Queue order: smallest `f = g + heuristic` first; ties by the smaller node id (the
//!   half-edge index; the goal's id is the number of half-edges), then the smaller `g`. A node
//!   is (re)queued only when its `g` strictly improves; a taken entry whose `g` is larger than
//!   the node's best is skipped. Any priority queue with this total order takes entries in
//!   the same sequence.
//! - `s == t`: the route is the straight segment start → end with `faces = [s]`, no search.
//! - The queue runs dry without the goal: unreachable.
//!
//! The corridor is `faces = [s, face across h1, …, face across hk] (= t)` for the taken chain
//! `h1 … hk`; `midpoint_length` is the goal's cost.
//!
//! # Funnel (string pulling, in plan)
//! Portals: `P0 = (start, start)`, then for each crossing `hi` of face `f` from vertex `a`
//! (corner `e`) to `b` (corner `e + 1`): with `c` the plan mean of `f`'s corners,
//! `(left, right) = (b, a)` when `cross(c, a, b) > 0`, else `(a, b)`; last `(end, end)`. The
//! simple stupid funnel over these with apex, left, right (and their portal indices), all
//! starting at `P0`, `i` from 1:
//! - `cw(o, a, b)` ("`b` clockwise of `a`") is `cross(o, a, b) < 0`, or `cross(o, a, b) == 0`
//!   and `(a − o)·(b − o) < 0` in plan (exactly opposite: a funnel opened to 180° because the
//!   start lies on a portal).
//! - right side, with `r` = portal `i`'s right: when `cross(apex, right, r) >= 0`: if `apex ==
//!   right` (exact plan equality) or `cw(apex, left, r)`, then `right = r`; otherwise
//!   `left` becomes a corner: emit it, `apex = right = left`, indices likewise, `i = apex
//!   index + 1`, continue.
//! - left side, with `l` = portal `i`'s left: when `cross(apex, left, l) <= 0`: if `apex ==
//!   left` or `cw(apex, l, right)`, then `left = l`; otherwise `right` becomes a corner
//!   the same way.
//! - `i += 1`. After the last portal the end is emitted. Corners carry their 3-D position
//!   (portal vertices keep the vertex's own z) and their portal index.
//!
//! # Heights along the way and the polyline
//! Between consecutive corners `A` (portal index `i`) and `B` (index `j`) the segment crosses
//! portals `i + 1 … j − 1` in order. For portal `(L, R)` with `d = B − A`, `e = R − L` (plan):
//! `den = e ⨯ d`; when `den != 0`, `u = ((A − L) ⨯ d) / den` clamped to `[0, 1]` and the
//! crossing is `L + u·(R − L)` in 3-D (the edge is shared, so that is the height of both faces
//! there); `den == 0` adds no point. The full polyline is start, then for each corner pair the
//! crossings and `B`, dropping any point whose `dist` to the last listed point is `<= 1e-9`
//! (when the dropped point is a corner, the listed point counts as a corner).
//! `points` is that polyline without the interior points (corners or crossings; never the
//! first or last) that lie on the straight 3-D line from the last point kept `K` to the next
//! point of the full polyline `N`: with `s = |KP|`, `t = |PN|` (plan lengths), `P` is dropped
//! when `|cross(K, P, N)| <= 1e-9·s·t`, `(P − K)·(N − P) >= 0` in plan, and
//! `|P.z − z_line| <= 1e-6 · max(1, |z_line|)` where `z_line = K.z + (N.z − K.z)·(s / (s + t))`
//! (`K.z` when `s + t = 0`). So a flat or evenly sloped stretch is one segment and every bend,
//! in plan or in height, is a point. `length` is the sum of `dist` over consecutive `points`.
//!
//! # Unreachable
//! `reachable` is false, `points` and `faces` are empty and `length` is 0 (`null` in the
//! JSON of `walkmesh route`).

use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;
use walkmesh_core::NavMesh;
use walkmesh_core::passes::aabb::polygon_contains_xy;
use walkmesh_core::passes::adjacency::{Adjacency, edge_adjacency};

use crate::queue::Queued;

/// A 3-D point in `f64`.
pub type Point = [f64; 3];

/// A point that lies on no walkable face (in plan).
#[derive(Clone, Debug, PartialEq)]
pub enum LocateError {
    /// The mesh has no walkable face at all.
    NoWalkableFace,
    /// Off the walkable surface: the nearest walkable face and the 3-D distance to it.
    OffSurface { nearest_face: u32, distance: f64 },
}

impl std::fmt::Display for LocateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocateError::NoWalkableFace => write!(f, "the mesh has no walkable face"),
            LocateError::OffSurface {
                nearest_face,
                distance,
            } => write!(
                f,
                "the point is on no walkable face; the nearest is face {nearest_face}, {distance:.4} away"
            ),
        }
    }
}

impl std::error::Error for LocateError {}

/// A located point: its face and its position on the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Located {
    pub face: u32,
    pub point: Point,
}

/// The answer to one route query.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub reachable: bool,
    /// The smoothed polyline on the ground, start to end (empty when unreachable).
    pub points: Vec<Point>,
    /// The corridor: faces passed, in order, as the mesh numbers them.
    pub faces: Vec<u32>,
    /// Sum of the 3-D segment lengths of `points` (0 when unreachable).
    pub length: f64,
    /// Length of the chain start → corridor edge midpoints → end (what A* minimised).
    pub midpoint_length: f64,
}

/// The surface router over one mesh: links built once, queries after.
#[derive(Debug)]
pub struct SurfaceRouter<'m> {
    mesh: &'m NavMesh,
    adjacency: Adjacency,
    /// Polygon of every half-edge.
    face_of: Vec<u32>,
}

/// Best cost found for a node and the node it came from (`u32::MAX`: the start).
#[derive(Clone, Copy, Debug)]
struct Reached {
    g: f64,
    parent: u32,
}

const FROM_START: u32 = u32::MAX;

/// 3-D distance.
pub fn dist(p: Point, q: Point) -> f64 {
    let (dx, dy, dz) = (p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    (dx * dx + dy * dy + dz * dz).sqrt()
}

/// Plan cross product of `a − o` and `b − o`.
fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

fn plan_equal(p: Point, q: Point) -> bool {
    p[0] == q[0] && p[1] == q[1]
}

fn widen(v: [f32; 3]) -> Point {
    [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]
}

impl<'m> SurfaceRouter<'m> {
    /// Links the walkable faces of `mesh` (which must satisfy `NavMesh::check`).
    pub fn new(mesh: &'m NavMesh) -> SurfaceRouter<'m> {
        Self::with_links(mesh, edge_adjacency(mesh, |p| mesh.is_walkable(p)))
    }

    /// A router over links made elsewhere (an engine's own: KotOR transitions between
    /// rooms). Only links between walkable faces may be given.
    pub fn with_links(mesh: &'m NavMesh, adjacency: Adjacency) -> SurfaceRouter<'m> {
        let mut face_of = Vec::with_capacity(mesh.polygons.indices().len());
        for (polygon, corners) in mesh.polygons.iter().enumerate() {
            face_of.extend(std::iter::repeat_n(polygon as u32, corners.len()));
        }
        SurfaceRouter {
            mesh,
            adjacency,
            face_of,
        }
    }

    /// The mesh routed over.
    pub fn mesh(&self) -> &NavMesh {
        self.mesh
    }

    /// The walkable-face links (half-edge to half-edge).
    pub fn adjacency(&self) -> &Adjacency {
        &self.adjacency
    }

    fn vertex(&self, index: u32) -> Point {
        widen(self.mesh.vertex(index))
    }

    /// The corners of `face` in `f64`.
    pub fn face_corners(&self, face: u32) -> Vec<Point> {
        self.corners(face)
    }

    fn corners(&self, face: u32) -> Vec<Point> {
        self.mesh
            .polygons
            .get(face as usize)
            .iter()
            .map(|&v| self.vertex(v))
            .collect()
    }

    /// The two vertices of half-edge `half_edge` (corner `e` to corner `e + 1`).
    fn half_edge_ends(&self, half_edge: usize) -> (Point, Point) {
        let indices = self.mesh.polygons.indices();
        let face = self.face_of.get(half_edge).copied().unwrap_or(0) as usize;
        let first = self.mesh.polygons.first_index(face);
        let n = self.mesh.polygons.get(face).len().max(1);
        let next = first + (half_edge - first + 1) % n;
        let a = indices.get(half_edge).copied().unwrap_or(0);
        let b = indices.get(next).copied().unwrap_or(0);
        (self.vertex(a), self.vertex(b))
    }

    fn midpoint(&self, half_edge: usize) -> Point {
        let (a, b) = self.half_edge_ends(half_edge);
        [
            (a[0] + b[0]) / 2.0,
            (a[1] + b[1]) / 2.0,
            (a[2] + b[2]) / 2.0,
        ]
    }

    /// The face on the other side of half-edge `half_edge`, when linked.
    fn face_across(&self, half_edge: usize) -> Option<(usize, u32)> {
        let other = self.adjacency.across(half_edge)?;
        Some((other, self.face_of.get(other).copied()?))
    }

    /// Height of `face` at plan position `(x, y)` (module doc, "Height on a face").
    pub fn height_at(&self, face: u32, x: f64, y: f64) -> f64 {
        height_at(&self.corners(face), x, y)
    }

    /// Point location (module doc, "Point location").
    pub fn locate(&self, q: Point) -> Result<Located, LocateError> {
        let mut best: Option<(f64, u32, f64)> = None;
        for face in 0..self.mesh.polygons.len() {
            if !self.mesh.is_walkable(face)
                || !polygon_contains_xy(self.mesh, face, [q[0] as f32, q[1] as f32])
            {
                continue;
            }
            let height = self.height_at(face as u32, q[0], q[1]);
            let gap = (height - q[2]).abs();
            if best.is_none_or(|(best_gap, _, _)| gap < best_gap) {
                best = Some((gap, face as u32, height));
            }
        }
        if let Some((_, face, height)) = best {
            return Ok(Located {
                face,
                point: [q[0], q[1], height],
            });
        }
        Err(self.nearest_face(q))
    }

    /// The walkable face nearest to `q` in 3-D, as the error of a failed location.
    fn nearest_face(&self, q: Point) -> LocateError {
        let mut best: Option<(f64, u32)> = None;
        for face in 0..self.mesh.polygons.len() {
            if !self.mesh.is_walkable(face) {
                continue;
            }
            let distance = distance_to_polygon(&self.corners(face as u32), q);
            if best.is_none_or(|(best_distance, _)| distance < best_distance) {
                best = Some((distance, face as u32));
            }
        }
        match best {
            Some((distance, nearest_face)) => LocateError::OffSurface {
                nearest_face,
                distance,
            },
            None => LocateError::NoWalkableFace,
        }
    }

    /// Locates both points and routes between them.
    pub fn route_points(&self, from: Point, to: Point) -> Result<Route, LocateError> {
        let start = self.locate(from)?;
        let end = self.locate(to)?;
        Ok(self.route(start, end))
    }

    /// The route between two located points (module doc, "Search" and "Funnel").
    pub fn route(&self, start: Located, end: Located) -> Route {
        if start.face == end.face {
            let length = dist(start.point, end.point);
            return Route {
                reachable: true,
                points: vec![start.point, end.point],
                faces: vec![start.face],
                length,
                midpoint_length: length,
            };
        }
        let Some((crossings, midpoint_length)) = self.search(start, end) else {
            return Route {
                reachable: false,
                points: Vec::new(),
                faces: Vec::new(),
                length: 0.0,
                midpoint_length: 0.0,
            };
        };
        self.along_crossings(start, end, &crossings, midpoint_length)
    }

    /// The route through a corridor chosen elsewhere (an engine's stored tables): `faces`
    /// from the start's face to the end's, each linked to the next. The funnel, heights and
    /// polyline are as for [`SurfaceRouter::route`]; `midpoint_length` is the chain start →
    /// edge midpoints → end. `None` when two consecutive faces are not linked.
    pub fn route_along(&self, start: Located, end: Located, faces: &[u32]) -> Option<Route> {
        let mut crossings = Vec::with_capacity(faces.len().saturating_sub(1));
        for pair in faces.windows(2) {
            let linked = self
                .linked_half_edges(pair[0])
                .find(|&h| self.face_across(h).is_some_and(|(_, g)| g == pair[1]));
            let crossing = linked.or_else(|| self.coincident_edge(pair[0], pair[1]))?;
            crossings.push(crossing as u32);
        }
        let mut points = vec![start.point];
        points.extend(crossings.iter().map(|&h| self.midpoint(h as usize)));
        points.push(end.point);
        let midpoint_length = points.windows(2).map(|w| dist(w[0], w[1])).sum();
        let mut route = self.along_crossings(start, end, &crossings, midpoint_length);
        route.faces = faces.to_vec();
        Some(route)
    }

    /// The half-edge of `face` whose two ends are, exactly, the ends of an edge of `other`
    /// (the faces touch through duplicated vertices, which engines' own tables may link).
    fn coincident_edge(&self, face: u32, other: u32) -> Option<usize> {
        let first = self.mesh.polygons.first_index(face as usize);
        let n = self.mesh.polygons.get(face as usize).len();
        let other_first = self.mesh.polygons.first_index(other as usize);
        let other_n = self.mesh.polygons.get(other as usize).len();
        (first..first + n).find(|&h| {
            let (a, b) = self.half_edge_ends(h);
            (other_first..other_first + other_n).any(|k| {
                let (c, d) = self.half_edge_ends(k);
                (a == d && b == c) || (a == c && b == d)
            })
        })
    }

    /// Faces, funnel and polyline of a chain of crossings.
    fn along_crossings(
        &self,
        start: Located,
        end: Located,
        crossings: &[u32],
        midpoint_length: f64,
    ) -> Route {
        let mut faces = vec![start.face];
        faces.extend(
            crossings
                .iter()
                .filter_map(|&h| self.face_across(h as usize).map(|(_, f)| f)),
        );
        let portals = self.portals(start.point, end.point, crossings);
        let corners = funnel(&portals);
        let points = ground_polyline(&portals, &corners);
        let length = points.windows(2).map(|w| dist(w[0], w[1])).sum();
        Route {
            reachable: true,
            points,
            faces,
            length,
            midpoint_length,
        }
    }

    /// A* over directed crossings; the chain of half-edges taken and its cost.
    fn search(&self, start: Located, end: Located) -> Option<(Vec<u32>, f64)> {
        let goal = self.face_of.len() as u32;
        let mut reached: FxHashMap<u32, Reached> = FxHashMap::default();
        let mut queue = BinaryHeap::new();
        for half_edge in self.linked_half_edges(start.face) {
            let mid = self.midpoint(half_edge);
            let g = dist(start.point, mid);
            let h = dist(mid, end.point);
            offer(&mut queue, &mut reached, half_edge as u32, g, h, FROM_START);
        }
        self.expand(&mut queue, &mut reached, goal, end)?;
        let mut chain = Vec::new();
        let mut node = reached.get(&goal)?.parent;
        let cost = reached.get(&goal)?.g;
        while node != FROM_START {
            chain.push(node);
            node = reached.get(&node)?.parent;
        }
        chain.reverse();
        Some((chain, cost))
    }

    /// Runs the queue until the goal is taken; `None` when it runs dry first.
    fn expand(
        &self,
        queue: &mut BinaryHeap<Queued>,
        reached: &mut FxHashMap<u32, Reached>,
        goal: u32,
        end: Located,
    ) -> Option<()> {
        while let Some(entry) = queue.pop() {
            if entry.node == goal {
                return Some(());
            }
            if reached.get(&entry.node).is_some_and(|r| entry.g > r.g) {
                continue;
            }
            let half_edge = entry.node as usize;
            let Some((back, face)) = self.face_across(half_edge) else {
                continue;
            };
            let mid = self.midpoint(half_edge);
            if face == end.face {
                let g = entry.g + dist(mid, end.point);
                offer(queue, reached, goal, g, 0.0, entry.node);
            }
            for next in self.linked_half_edges(face) {
                if next == back {
                    continue;
                }
                let next_mid = self.midpoint(next);
                let g = entry.g + dist(mid, next_mid);
                let h = dist(next_mid, end.point);
                offer(queue, reached, next as u32, g, h, entry.node);
            }
        }
        None
    }

    /// Half-edges of `face` linked to another walkable face, in corner order.
    fn linked_half_edges(&self, face: u32) -> impl Iterator<Item = usize> + '_ {
        let first = self.mesh.polygons.first_index(face as usize);
        let n = self.mesh.polygons.get(face as usize).len();
        (first..first + n).filter(|&h| self.adjacency.across(h).is_some())
    }

    /// The funnel's portals: start, each crossing as (left, right), end.
    fn portals(&self, start: Point, end: Point, crossings: &[u32]) -> Vec<(Point, Point)> {
        let mut portals = Vec::with_capacity(crossings.len() + 2);
        portals.push((start, start));
        for &h in crossings {
            let face = self.face_of.get(h as usize).copied().unwrap_or(0);
            let centre = plan_mean(&self.corners(face));
            let (a, b) = self.half_edge_ends(h as usize);
            portals.push(if cross(centre, a, b) > 0.0 {
                (b, a)
            } else {
                (a, b)
            });
        }
        portals.push((end, end));
        portals
    }
}

/// Queues `node` when `g` improves on its best cost.
fn offer(
    queue: &mut BinaryHeap<Queued>,
    reached: &mut FxHashMap<u32, Reached>,
    node: u32,
    g: f64,
    h: f64,
    parent: u32,
) {
    if reached.get(&node).is_none_or(|r| g < r.g) {
        reached.insert(node, Reached { g, parent });
        queue.push(Queued { f: g + h, node, g });
    }
}

fn plan_mean(corners: &[Point]) -> Point {
    let n = corners.len().max(1) as f64;
    let (sx, sy) = corners
        .iter()
        .fold((0.0, 0.0), |(sx, sy), c| (sx + c[0], sy + c[1]));
    [sx / n, sy / n, 0.0]
}

/// Height of the polygon `corners` at `(x, y)` (module doc, "Height on a face").
pub fn height_at(corners: &[Point], x: f64, y: f64) -> f64 {
    let mut best: Option<(f64, f64)> = None;
    let Some(&a) = corners.first() else {
        return 0.0;
    };
    for pair in corners.get(1..).unwrap_or(&[]).windows(2) {
        let (b, c) = (pair[0], pair[1]);
        let det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if det == 0.0 {
            continue;
        }
        let (px, py) = (x - a[0], y - a[1]);
        let wb = (px * (c[1] - a[1]) - py * (c[0] - a[0])) / det;
        let wc = ((b[0] - a[0]) * py - (b[1] - a[1]) * px) / det;
        let wa = 1.0 - wb - wc;
        let least = wa.min(wb).min(wc);
        if best.is_none_or(|(best_least, _)| least > best_least) {
            best = Some((least, wa * a[2] + wb * b[2] + wc * c[2]));
        }
    }
    match best {
        Some((_, height)) => height,
        None => corners.iter().map(|c| c[2]).sum::<f64>() / corners.len() as f64,
    }
}

/// 3-D distance from `q` to the polygon `corners` (its fan triangles from corner 0).
pub fn distance_to_polygon(corners: &[Point], q: Point) -> f64 {
    let Some(&a) = corners.first() else {
        return f64::INFINITY;
    };
    let mut best = f64::INFINITY;
    for pair in corners.get(1..).unwrap_or(&[]).windows(2) {
        best = best.min(dist(q, closest_on_triangle(q, a, pair[0], pair[1])));
    }
    if corners.len() < 3 {
        best = best.min(dist(q, a));
    }
    best
}

fn sub(p: Point, q: Point) -> Point {
    [p[0] - q[0], p[1] - q[1], p[2] - q[2]]
}

fn dot(p: Point, q: Point) -> f64 {
    p[0] * q[0] + p[1] * q[1] + p[2] * q[2]
}

fn along(a: Point, d: Point, t: f64) -> Point {
    [a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t]
}

/// Closest point of triangle `abc` to `p` (Voronoi regions of the corners, edges and face).
fn closest_on_triangle(p: Point, a: Point, b: Point, c: Point) -> Point {
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return along(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return along(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return along(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom == 0.0 {
        // Degenerate (collinear corners): the nearest corner.
        return [a, b, c]
            .into_iter()
            .min_by(|x, y| dist(p, *x).total_cmp(&dist(p, *y)))
            .unwrap_or(a);
    }
    let (v, w) = (vb / denom, vc / denom);
    [
        a[0] + ab[0] * v + ac[0] * w,
        a[1] + ab[1] * v + ac[1] * w,
        a[2] + ab[2] * v + ac[2] * w,
    ]
}

/// A corner of the pulled string: its position and the portal it lies on.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Corner {
    point: Point,
    portal: usize,
}

/// The simple stupid funnel in plan (module doc, "Funnel"); corners from start to end.
fn funnel(portals: &[(Point, Point)]) -> Vec<Corner> {
    let Some(&(start, _)) = portals.first() else {
        return Vec::new();
    };
    let mut corners = vec![Corner {
        point: start,
        portal: 0,
    }];
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_index, mut right_index) = (0usize, 0usize);
    let mut i = 1;
    while i < portals.len() {
        let (l, r) = portals[i];
        if cross(apex, right, r) >= 0.0 {
            if plan_equal(apex, right) || clockwise_of(apex, left, r) {
                right = r;
                right_index = i;
            } else {
                corners.push(Corner {
                    point: left,
                    portal: left_index,
                });
                apex = left;
                (right, right_index) = (left, left_index);
                i = left_index + 1;
                continue;
            }
        }
        if cross(apex, left, l) <= 0.0 {
            if plan_equal(apex, left) || clockwise_of(apex, l, right) {
                left = l;
                left_index = i;
            } else {
                corners.push(Corner {
                    point: right,
                    portal: right_index,
                });
                apex = right;
                (left, left_index) = (right, right_index);
                i = right_index + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(&(end, _)) = portals.last() {
        corners.push(Corner {
            point: end,
            portal: portals.len() - 1,
        });
    }
    corners
}

/// True when `b` lies strictly clockwise of `a` seen from `o`, or exactly opposite it (a
/// funnel opened to 180° because the start lies on a portal).
fn clockwise_of(o: Point, a: Point, b: Point) -> bool {
    let turn = cross(o, a, b);
    turn < 0.0 || (turn == 0.0 && plan_dot(o, a, b) < 0.0)
}

/// Plan dot product of `a − o` and `b − o`.
fn plan_dot(o: Point, a: Point, b: Point) -> f64 {
    (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1])
}

/// Where the plan segment `a → b` crosses portal `(l, r)`, on the portal, in 3-D.
fn crossing(a: Point, b: Point, l: Point, r: Point) -> Option<Point> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let e = [r[0] - l[0], r[1] - l[1]];
    let den = e[0] * d[1] - e[1] * d[0];
    if den == 0.0 {
        return None;
    }
    let u = ((a[0] - l[0]) * d[1] - (a[1] - l[1]) * d[0]) / den;
    let u = u.clamp(0.0, 1.0);
    Some([
        l[0] + u * (r[0] - l[0]),
        l[1] + u * (r[1] - l[1]),
        l[2] + u * (r[2] - l[2]),
    ])
}

/// A point of the full polyline; `corner` is false for portal crossings (it matters for the
/// de-duplication only).
#[derive(Clone, Copy, Debug)]
struct Step {
    point: Point,
    corner: bool,
}

/// The polyline on the ground (module doc, "Heights along the way and the polyline").
fn ground_polyline(portals: &[(Point, Point)], corners: &[Corner]) -> Vec<Point> {
    let mut full: Vec<Step> = Vec::new();
    let push = |full: &mut Vec<Step>, step: Step| match full.last_mut() {
        // A corner met at a crossing already listed (a fan around a vertex) stays a corner.
        Some(last) if dist(last.point, step.point) <= 1e-9 => last.corner |= step.corner,
        _ => full.push(step),
    };
    if let Some(first) = corners.first() {
        push(
            &mut full,
            Step {
                point: first.point,
                corner: true,
            },
        );
    }
    for pair in corners.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        for &(l, r) in portals.get(a.portal + 1..b.portal).unwrap_or(&[]) {
            if let Some(point) = crossing(a.point, b.point, l, r) {
                push(
                    &mut full,
                    Step {
                        point,
                        corner: false,
                    },
                );
            }
        }
        push(
            &mut full,
            Step {
                point: b.point,
                corner: true,
            },
        );
    }
    drop_straight_points(&full)
}

/// Drops the interior points that lie on the straight line from the last kept point to the
/// next point (module doc, "Heights along the way and the polyline").
fn drop_straight_points(full: &[Step]) -> Vec<Point> {
    let mut kept: Vec<Point> = Vec::with_capacity(full.len());
    for (k, step) in full.iter().enumerate() {
        let p = step.point;
        match (kept.last(), full.get(k + 1)) {
            (Some(&last), Some(next)) if on_straight_line(last, p, next.point) => {}
            _ => kept.push(p),
        }
    }
    kept
}

/// True when `p` lies on the 3-D segment `k → n` up to rounding.
fn on_straight_line(k: Point, p: Point, n: Point) -> bool {
    let (to_here, onwards) = (plan_length(k, p), plan_length(p, n));
    let turn = cross(k, p, n).abs();
    let ahead = (p[0] - k[0]) * (n[0] - p[0]) + (p[1] - k[1]) * (n[1] - p[1]) >= 0.0;
    if turn > 1e-9 * to_here * onwards || !ahead {
        return false;
    }
    let total = to_here + onwards;
    let z_line = if total > 0.0 {
        k[2] + (n[2] - k[2]) * (to_here / total)
    } else {
        k[2]
    };
    (p[2] - z_line).abs() <= 1e-6 * z_line.abs().max(1.0)
}

fn plan_length(p: Point, q: Point) -> f64 {
    let (dx, dy) = (p[0] - q[0], p[1] - q[1]);
    (dx * dx + dy * dy).sqrt()
}
