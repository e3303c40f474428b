//! NWN2 tile budget: simplify the faces of over-full tiles until every tile holds.
//!
//! A TRX tile numbers its walkable triangles in a u8 path table, so it holds at most
//! [`walkmesh_nwn2::bake::MAX_TILE_NODES`]; bumpy or finely detailed floor (detail points of
//! the height refinement, many short outline edges) can put more in one 9 m tile. This stage
//! removes vertices from the faces of the over-full tiles by half-edge collapse, cheapest
//! first, where the cost is the largest height difference the collapse makes between the
//! simplified surface and every point of the surface it had (the removed vertices are
//! remembered in the face that covers them, so errors do not add up unseen):
//!
//! - a vertex is removed only where the plan footprint and the surfaces stay as they were: a
//!   vertex with no feature edge around it (feature: a boundary edge, an edge between faces
//!   of different surfaces, an edge of more than two faces, an edge on a tile line, where the
//!   triangulation cut the floor: [`crate::tiles`]) collapses onto any neighbour; a
//!   vertex on exactly two feature edges that are collinear in plan collapses along them
//!   (onto one of their other ends), so boundaries and material borders keep their lines;
//!   every other vertex is kept;
//! - a collapse is refused when a changed face would turn over in plan or become thinner
//!   than [`MIN_ALTITUDE`], when it would join two vertices already joined elsewhere (the
//!   link condition), or when it would put a tile that holds into excess;
//! - the vertices are welded by exact position first, so two layers of the generated mesh that
//!   meet (separate vertices at one position) are simplified together, without T-junctions.
//!
//! The tiles are those of the TRX writer (`walkmesh_nwn2::write`): squares of
//! [`walkmesh_nwn2::write::DEFAULT_TILE_WIDTH`] from the grid origin after the writer's shift
//! of a mesh reaching below zero by whole tiles, a triangle in the tile of its centre
//! ([`walkmesh_nwn2::bake::tile_coordinate`]).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use serde::Serialize;
use walkmesh_core::NavMesh;
use walkmesh_core::material::Surface;

/// Thinnest face a collapse may leave (altitude over the longest side, in plan, metres): far
/// above lint's needle height (0.001 m), so the simplified faces are no needles.
pub const MIN_ALTITUDE: f64 = 0.01;

/// What the NWN2 tile simplification did (`Report::nwn2_simplified`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct TileSimplification {
    /// Tiles that held more walkable triangles than a TRX tile can.
    pub tiles: usize,
    /// Walkable triangles in those tiles before and after.
    pub faces_before: usize,
    pub faces_after: usize,
    /// Vertices removed.
    pub vertices_removed: usize,
    /// Largest height difference (m) between the simplified floor and a point of the floor
    /// as generated.
    pub max_height_error: f32,
    /// Tiles still over the limit: (column, row, walkable triangles).
    pub still_over: Vec<(u32, u32, usize)>,
}

impl TileSimplification {
    /// The warning's text: tiles, faces before and after, the largest height error.
    pub fn message(&self) -> String {
        format!(
            "{} NWN2 tile(s) held more than {} walkable triangles; their floor was simplified from {} to {} triangles ({} vertices removed, largest height change {:.3} m){}",
            self.tiles,
            walkmesh_nwn2::bake::MAX_TILE_NODES,
            self.faces_before,
            self.faces_after,
            self.vertices_removed,
            self.max_height_error,
            if self.still_over.is_empty() {
                String::new()
            } else {
                format!("; {} tile(s) still over the limit", self.still_over.len())
            }
        )
    }
}

/// Tile (column, row) of every face of `mesh` in the TRX writer's grid of `width` (None for
/// a face with fewer than three corners), and whether it is walkable.
pub fn tile_of_faces(mesh: &NavMesh, width: f32) -> Vec<Option<(u32, u32)>> {
    let frame = WriterFrame::of(&mesh.vertices, width);
    mesh.polygons
        .iter()
        .map(|corners| frame.tile_of_polygon(&mesh.vertices, corners))
        .collect()
}

/// The TRX writer's placement of a mesh without a tile grid: coordinates within
/// [`walkmesh_nwn2::write::SNAP_EPSILON`] below zero snapped to zero, then the whole mesh
/// moved by whole tiles when it reaches below zero.
#[derive(Clone, Copy, Debug)]
struct WriterFrame {
    shift: [f32; 2],
    width: f32,
}

impl WriterFrame {
    fn of(vertices: &[[f32; 3]], width: f32) -> WriterFrame {
        let mut min = [f32::INFINITY; 2];
        for v in vertices {
            for (m, &c) in min.iter_mut().zip(v.iter()) {
                *m = m.min(Self::snapped(c));
            }
        }
        let shift = min.map(|m| {
            if m < 0.0 {
                -(m / width).floor() * width
            } else {
                0.0
            }
        });
        WriterFrame { shift, width }
    }

    fn snapped(c: f32) -> f32 {
        if (-walkmesh_nwn2::write::SNAP_EPSILON..0.0).contains(&c) {
            0.0
        } else {
            c
        }
    }

    fn place(&self, v: [f32; 3]) -> [f32; 3] {
        [
            Self::snapped(v[0]) + self.shift[0],
            Self::snapped(v[1]) + self.shift[1],
            v[2],
        ]
    }

    fn tile_of_polygon(&self, vertices: &[[f32; 3]], corners: &[u32]) -> Option<(u32, u32)> {
        let placed: Vec<[f32; 3]> = corners
            .iter()
            .map(|&i| self.place(vertices.get(i as usize).copied().unwrap_or([0.0; 3])))
            .collect();
        let centre = match placed.as_slice() {
            [_, _, _] => walkmesh_nwn2::bake::centre(&placed, [0, 1, 2]),
            [] | [_] | [_, _] => return None,
            more => {
                let n = more.len() as f32;
                let sum = more
                    .iter()
                    .fold([0.0f32; 2], |s, p| [s[0] + p[0], s[1] + p[1]]);
                [sum[0] / n, sum[1] / n]
            }
        };
        let tile = |c: f32| walkmesh_nwn2::bake::tile_coordinate(c, self.width, u32::MAX, 0.0).0;
        Some((tile(centre[0]), tile(centre[1])))
    }
}

/// Walkable triangles per tile (a polygon of k corners counts k − 2, as the writer
/// triangulates it).
pub fn walkable_per_tile(mesh: &NavMesh, width: f32) -> BTreeMap<(u32, u32), usize> {
    let mut per_tile = BTreeMap::new();
    for (p, (corners, tile)) in mesh
        .polygons
        .iter()
        .zip(tile_of_faces(mesh, width))
        .enumerate()
    {
        if let Some(tile) = tile
            && mesh.is_walkable(p)
        {
            *per_tile.entry(tile).or_default() += corners.len() - 2;
        }
    }
    per_tile
}

/// Simplifies `mesh` where a tile of `width` holds more than `limit` walkable triangles.
/// Returns None (and leaves the mesh alone) when every tile holds already.
pub fn nwn2_tiles(mesh: &mut NavMesh, width: f32, limit: usize) -> Option<TileSimplification> {
    // Only the generator's own meshes, which carry no attribute columns or edge tags that a
    // changed face list would have to follow.
    if !mesh.face_attributes.is_empty() || !mesh.edge_tags.is_empty() {
        return None;
    }
    let before = walkable_per_tile(mesh, width);
    let over: Vec<(u32, u32)> = before
        .iter()
        .filter(|&(_, &n)| n > limit)
        .map(|(&t, _)| t)
        .collect();
    if over.is_empty() {
        return None;
    }
    let mut work = Work::new(mesh, width, limit);
    let removed = work.run();
    let max_error = work.max_error;
    *mesh = work.into_mesh(mesh);
    let after = walkable_per_tile(mesh, width);
    let count = |map: &BTreeMap<(u32, u32), usize>| -> usize {
        over.iter().filter_map(|t| map.get(t)).sum()
    };
    Some(TileSimplification {
        tiles: over.len(),
        faces_before: count(&before),
        faces_after: count(&after),
        vertices_removed: removed,
        max_height_error: max_error as f32,
        still_over: after
            .iter()
            .filter(|&(_, &n)| n > limit)
            .map(|(&(c, r), &n)| (c, r, n))
            .collect(),
    })
}

/// A triangle being simplified.
#[derive(Clone, Debug)]
struct Face {
    v: [u32; 3],
    surface: Surface,
    walkable: bool,
    /// Points of the surface as generated that lie in this face (removed vertices).
    orphans: Vec<[f64; 3]>,
    tile: Option<(u32, u32)>,
    alive: bool,
}

/// A heap entry: cheapest collapse first.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    cost: f64,
    vertex: u32,
    target: u32,
    stamp: u32,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .cost
            .total_cmp(&self.cost)
            .then_with(|| other.vertex.cmp(&self.vertex))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The welded mesh under simplification.
struct Work {
    positions: Vec<[f64; 3]>,
    faces: Vec<Face>,
    /// Faces around each vertex (dead ones filtered when read).
    around: Vec<Vec<u32>>,
    /// Vertices of faces that are not triangles: never moved.
    locked: Vec<bool>,
    /// Polygons that are not triangles, kept as they are (welded indices).
    others: Vec<(usize, Vec<u32>)>,
    per_tile: HashMap<(u32, u32), usize>,
    /// Tiles over the limit now.
    over_count: usize,
    frame: WriterFrame,
    limit: usize,
    stamp: Vec<u32>,
    max_error: f64,
}

/// A collapse worked out: its cost and the faces it changes.
struct Plan {
    cost: f64,
    /// Faces that die (they hold the collapsed edge).
    dying: Vec<u32>,
    /// Faces that stay, with their new corners.
    kept: Vec<(u32, [u32; 3])>,
    /// Where every remembered point goes: (face, point).
    orphans: Vec<(u32, [f64; 3])>,
    /// Tile count changes.
    tiles: HashMap<(u32, u32), i64>,
}

impl Work {
    fn new(mesh: &NavMesh, width: f32, limit: usize) -> Work {
        let mut index: HashMap<[u32; 3], u32> = HashMap::new();
        let mut positions = Vec::new();
        let welded: Vec<u32> = mesh
            .vertices
            .iter()
            .map(|v| {
                *index.entry(v.map(f32::to_bits)).or_insert_with(|| {
                    positions.push(v.map(f64::from));
                    (positions.len() - 1) as u32
                })
            })
            .collect();
        let frame = WriterFrame::of(&mesh.vertices, width);
        let at = |i: u32| welded.get(i as usize).copied().unwrap_or(0);
        let mut around = vec![Vec::new(); positions.len()];
        let mut locked = vec![false; positions.len()];
        let mut faces = Vec::new();
        let mut others = Vec::new();
        let mut per_tile: HashMap<(u32, u32), usize> = HashMap::new();
        for (p, corners) in mesh.polygons.iter().enumerate() {
            let surface = mesh.surfaces.get(p).copied().unwrap_or(Surface {
                material: walkmesh_core::material::Material(0),
                walkable: false,
                code: 0,
            });
            let tile = frame.tile_of_polygon(&mesh.vertices, corners);
            let corners: Vec<u32> = corners.iter().map(|&i| at(i)).collect();
            if let (&[a, b, c], Some(t)) = (corners.as_slice(), tile) {
                let id = faces.len() as u32;
                for v in [a, b, c] {
                    if let Some(list) = around.get_mut(v as usize) {
                        list.push(id);
                    }
                }
                if surface.walkable {
                    *per_tile.entry(t).or_default() += 1;
                }
                faces.push(Face {
                    v: [a, b, c],
                    surface,
                    walkable: surface.walkable,
                    orphans: Vec::new(),
                    tile,
                    alive: true,
                });
            } else {
                for &v in &corners {
                    if let Some(l) = locked.get_mut(v as usize) {
                        *l = true;
                    }
                }
                if let (Some(t), true) = (tile, surface.walkable) {
                    *per_tile.entry(t).or_default() += corners.len().saturating_sub(2);
                }
                others.push((p, corners));
            }
        }
        let stamp = vec![0; positions.len()];
        let over_count = per_tile.values().filter(|&&n| n > limit).count();
        Work {
            positions,
            faces,
            around,
            locked,
            others,
            per_tile,
            over_count,
            frame,
            limit,
            stamp,
            max_error: 0.0,
        }
    }

    fn over(&self, tile: Option<(u32, u32)>) -> bool {
        tile.is_some_and(|t| self.per_tile.get(&t).copied().unwrap_or(0) > self.limit)
    }

    fn fan(&self, v: u32) -> Vec<u32> {
        self.around
            .get(v as usize)
            .map(|list| {
                list.iter()
                    .copied()
                    .filter(|&f| self.faces.get(f as usize).is_some_and(|face| face.alive))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn position(&self, v: u32) -> [f64; 3] {
        self.positions.get(v as usize).copied().unwrap_or([0.0; 3])
    }

    /// Removes vertices until every tile holds or nothing more can go; the count removed.
    fn run(&mut self) -> usize {
        let mut heap = BinaryHeap::new();
        for v in 0..self.positions.len() as u32 {
            self.push(&mut heap, v);
        }
        let mut removed = 0;
        while let Some(candidate) = heap.pop() {
            if self.stamp.get(candidate.vertex as usize) != Some(&candidate.stamp) {
                continue;
            }
            let Some((target, plan)) = self.best(candidate.vertex) else {
                continue;
            };
            if plan.cost > candidate.cost + 1e-9 || target != candidate.target {
                heap.push(Candidate {
                    cost: plan.cost,
                    vertex: candidate.vertex,
                    target,
                    stamp: candidate.stamp,
                });
                continue;
            }
            let touched = self.apply(candidate.vertex, target, plan);
            removed += 1;
            for w in touched {
                if let Some(s) = self.stamp.get_mut(w as usize) {
                    *s += 1;
                }
                self.push(&mut heap, w);
            }
            if self.over_count == 0 {
                break;
            }
        }
        removed
    }

    fn push(&self, heap: &mut BinaryHeap<Candidate>, v: u32) {
        if let Some((target, plan)) = self.best(v) {
            heap.push(Candidate {
                cost: plan.cost,
                vertex: v,
                target,
                stamp: self.stamp.get(v as usize).copied().unwrap_or(0),
            });
        }
    }

    /// The cheapest allowed collapse of `v`, if `v` touches an over-full tile.
    fn best(&self, v: u32) -> Option<(u32, Plan)> {
        if self.locked.get(v as usize).copied().unwrap_or(true) {
            return None;
        }
        let fan = self.fan(v);
        let touches_over = fan.iter().any(|&f| {
            self.faces
                .get(f as usize)
                .is_some_and(|face| face.walkable && self.over(face.tile))
        });
        if fan.is_empty() || !touches_over {
            return None;
        }
        self.targets(v, &fan)?
            .into_iter()
            .filter_map(|u| self.plan(v, u, &fan).map(|p| (u, p)))
            .min_by(|a, b| a.1.cost.total_cmp(&b.1.cost))
    }

    /// The vertices `v` may collapse onto (None: `v` must stay).
    fn targets(&self, v: u32, fan: &[u32]) -> Option<Vec<u32>> {
        // Edge (v, u) → the faces holding it.
        let mut edges: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for &f in fan {
            let face = self.faces.get(f as usize)?;
            for &u in face.v.iter().filter(|&&u| u != v) {
                edges.entry(u).or_default().push(f);
            }
        }
        let surface = |f: u32| self.faces.get(f as usize).map(|face| face.surface);
        let mut features = Vec::new();
        for (&u, faces) in &edges {
            let feature = match faces.as_slice() {
                [_] => true,
                // An edge on a tile line keeps its line: the floor is cut there (`tiles.rs`).
                [a, b] => surface(*a) != surface(*b) || self.on_tile_line(v, u),
                _ => return None, // more than two faces on an edge: left alone
            };
            if feature {
                features.push(u);
            }
        }
        // One fan: a closed cycle has as many neighbours as faces, an open one one more.
        let open = edges.values().filter(|f| f.len() == 1).count();
        let manifold = match open {
            0 => edges.len() == fan.len(),
            2 => edges.len() == fan.len() + 1,
            _ => false,
        };
        if !manifold {
            return None;
        }
        match features.as_slice() {
            [] => Some(edges.keys().copied().collect()),
            &[a, b] if self.between(v, a, b) => Some(vec![a, b]),
            _ => None,
        }
    }

    /// The edge from `v` to `u` lies on a tile line of the writer's grid.
    fn on_tile_line(&self, v: u32, u: u32) -> bool {
        let to_f32 = |p: [f64; 3]| p.map(|c| c as f32);
        let (a, b) = (
            self.frame.place(to_f32(self.position(v))),
            self.frame.place(to_f32(self.position(u))),
        );
        let width = self.frame.width;
        let on_line = |c: f32| (c / width).round() * width == c;
        (0..2).any(|axis| a.get(axis) == b.get(axis) && a.get(axis).is_some_and(|&c| on_line(c)))
    }

    /// `v` lies on the plan segment from `a` to `b` (within a micrometre).
    fn between(&self, v: u32, a: u32, b: u32) -> bool {
        let (p, pa, pb) = (self.position(v), self.position(a), self.position(b));
        let d = [pb[0] - pa[0], pb[1] - pa[1]];
        let length = d[0].hypot(d[1]);
        if length <= 0.0 {
            return false;
        }
        let off = ((p[0] - pa[0]) * d[1] - (p[1] - pa[1]) * d[0]).abs() / length;
        let along = ((p[0] - pa[0]) * d[0] + (p[1] - pa[1]) * d[1]) / length;
        off < 1e-6 && along > 0.0 && along < length
    }

    /// The collapse of `v` onto `u`, if allowed.
    fn plan(&self, v: u32, u: u32, fan: &[u32]) -> Option<Plan> {
        let mut dying = Vec::new();
        let mut kept = Vec::new();
        for &f in fan {
            let face = self.faces.get(f as usize)?;
            if face.v.contains(&u) {
                dying.push(f);
            } else {
                kept.push((f, face.v.map(|w| if w == v { u } else { w })));
            }
        }
        if !self.link_holds(v, u, &dying) {
            return None;
        }
        for &(f, corners) in &kept {
            let old = self.faces.get(f as usize)?.v;
            let (before, after) = (self.plan_area(old), self.plan_area(corners));
            if before.signum() != after.signum() || self.altitude(corners) < MIN_ALTITUDE {
                return None;
            }
        }
        let tiles = self.tile_changes(&dying, &kept)?;
        // Every remembered point of the changed faces, and v itself, in its new face.
        let mut points = vec![self.position(v)];
        for &f in fan {
            points.extend(self.faces.get(f as usize)?.orphans.iter().copied());
        }
        let mut cost = 0.0f64;
        let mut orphans = Vec::with_capacity(points.len());
        for p in points {
            let (f, z) = self.locate(&kept, p)?;
            cost = cost.max((z - p[2]).abs());
            orphans.push((f, p));
        }
        Some(Plan {
            cost,
            dying,
            kept,
            orphans,
            tiles,
        })
    }

    /// The link condition: the vertices joined to both `v` and `u` are exactly the third
    /// corners of the faces on edge (v, u); otherwise the collapse would fold the mesh.
    fn link_holds(&self, v: u32, u: u32, dying: &[u32]) -> bool {
        let neighbours = |w: u32| -> Vec<u32> {
            let mut n: Vec<u32> = self
                .fan(w)
                .iter()
                .filter_map(|&f| self.faces.get(f as usize))
                .flat_map(|face| face.v)
                .filter(|&x| x != w)
                .collect();
            n.sort_unstable();
            n.dedup();
            n
        };
        let (nv, nu) = (neighbours(v), neighbours(u));
        let shared = nv.iter().filter(|x| nu.binary_search(x).is_ok()).count();
        shared == dying.len()
    }

    /// Walkable-count changes per tile, or None when a tile that holds would not.
    fn tile_changes(
        &self,
        dying: &[u32],
        kept: &[(u32, [u32; 3])],
    ) -> Option<HashMap<(u32, u32), i64>> {
        let mut delta: HashMap<(u32, u32), i64> = HashMap::new();
        for &f in dying {
            let face = self.faces.get(f as usize)?;
            if let (true, Some(t)) = (face.walkable, face.tile) {
                *delta.entry(t).or_default() -= 1;
            }
        }
        for &(f, corners) in kept {
            let face = self.faces.get(f as usize)?;
            if !face.walkable {
                continue;
            }
            let new_tile = self.tile(corners);
            if new_tile != face.tile {
                if let Some(t) = face.tile {
                    *delta.entry(t).or_default() -= 1;
                }
                if let Some(t) = new_tile {
                    *delta.entry(t).or_default() += 1;
                }
            }
        }
        let mut relieves = false;
        for (&t, &d) in &delta {
            let now = self.per_tile.get(&t).copied().unwrap_or(0) as i64;
            let over_now = now > self.limit as i64;
            if !over_now && now + d > self.limit as i64 {
                return None;
            }
            relieves |= over_now && d < 0;
        }
        relieves.then_some(delta)
    }

    fn tile(&self, corners: [u32; 3]) -> Option<(u32, u32)> {
        let vertices: Vec<[f32; 3]> = corners
            .iter()
            .map(|&c| self.position(c).map(|x| x as f32))
            .collect();
        self.frame.tile_of_polygon(&vertices, &[0, 1, 2])
    }

    /// The kept face holding plan point `p` (the best-fitting one at a shared edge) and the
    /// height of its plane there.
    fn locate(&self, kept: &[(u32, [u32; 3])], p: [f64; 3]) -> Option<(u32, f64)> {
        kept.iter()
            .filter_map(|&(f, corners)| {
                let [a, b, c] = corners.map(|w| self.position(w));
                let area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
                if area.abs() < 1e-12 {
                    return None;
                }
                let wb = ((p[0] - a[0]) * (c[1] - a[1]) - (p[1] - a[1]) * (c[0] - a[0])) / area;
                let wc = ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / area;
                let wa = 1.0 - wb - wc;
                let z = wa * a[2] + wb * b[2] + wc * c[2];
                Some((wa.min(wb).min(wc), f, z))
            })
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .filter(|&(inside, _, _)| inside > -1e-6)
            .map(|(_, f, z)| (f, z))
    }

    fn plan_area(&self, corners: [u32; 3]) -> f64 {
        let [a, b, c] = corners.map(|w| self.position(w));
        ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
    }

    /// Plan altitude: twice the area over the longest side.
    fn altitude(&self, corners: [u32; 3]) -> f64 {
        let [a, b, c] = corners.map(|w| self.position(w));
        let side = |p: [f64; 3], q: [f64; 3]| (q[0] - p[0]).hypot(q[1] - p[1]);
        let longest = side(a, b).max(side(b, c)).max(side(c, a));
        if longest <= 0.0 {
            return 0.0;
        }
        2.0 * self.plan_area(corners).abs() / longest
    }

    /// Makes the collapse; returns the vertices whose fans changed.
    fn apply(&mut self, v: u32, u: u32, plan: Plan) -> Vec<u32> {
        let mut touched: Vec<u32> = Vec::new();
        for &f in &plan.dying {
            if let Some(face) = self.faces.get_mut(f as usize) {
                face.alive = false;
                face.orphans.clear();
                touched.extend(face.v);
            }
        }
        for &(f, corners) in &plan.kept {
            let tile = self.tile(corners);
            if let Some(face) = self.faces.get_mut(f as usize) {
                face.v = corners;
                face.tile = tile;
                face.orphans.clear();
                touched.extend(corners);
            }
            if let Some(list) = self.around.get_mut(u as usize) {
                list.push(f);
            }
        }
        for (f, p) in plan.orphans {
            if let Some(face) = self.faces.get_mut(f as usize) {
                face.orphans.push(p);
            }
        }
        for (t, d) in plan.tiles {
            let n = self.per_tile.entry(t).or_default();
            let was_over = *n > self.limit;
            *n = (*n as i64 + d).max(0) as usize;
            // A collapse never puts a tile that holds over the limit (`tile_changes`).
            if was_over && *n <= self.limit {
                self.over_count = self.over_count.saturating_sub(1);
            }
        }
        if let Some(list) = self.around.get_mut(v as usize) {
            list.clear();
        }
        self.max_error = self.max_error.max(plan.cost);
        touched.sort_unstable();
        touched.dedup();
        touched.retain(|&w| w != v);
        touched
    }

    /// The simplified mesh: live triangles in their first order, then the polygons that are
    /// not triangles (the generator makes none); vertices compacted.
    fn into_mesh(self, original: &NavMesh) -> NavMesh {
        let mut out = NavMesh {
            kind: original.kind,
            origin: original.origin,
            hooks: original.hooks.clone(),
            tile_grid: original.tile_grid,
            extras: original.extras.clone(),
            ..NavMesh::default()
        };
        let mut index: HashMap<u32, u32> = HashMap::new();
        let mut vertex = |w: u32, out: &mut NavMesh| -> u32 {
            *index.entry(w).or_insert_with(|| {
                let p = self.positions.get(w as usize).copied().unwrap_or([0.0; 3]);
                out.vertices.push(p.map(|x| x as f32));
                (out.vertices.len() - 1) as u32
            })
        };
        for face in self.faces.iter().filter(|f| f.alive) {
            let mapped = face.v.map(|w| vertex(w, &mut out));
            out.push_polygon(&mapped, face.surface);
        }
        for (p, corners) in &self.others {
            let mapped: Vec<u32> = corners.iter().map(|&w| vertex(w, &mut out)).collect();
            if let Some(&surface) = original.surfaces.get(*p) {
                out.push_polygon(&mapped, surface);
            }
        }
        out
    }
}
