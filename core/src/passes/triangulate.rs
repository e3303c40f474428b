//! Triangulation of simple polygons (convex and concave) by ear clipping, keeping each
//! polygon's surface, attributes and edge tags.

use std::collections::BTreeMap;

use glam::DVec3;

use crate::diag::Diagnostics;
use crate::ir::{EdgeRef, NavMesh, Polygons};

/// Orientation of the 2-D corner a → b → c (twice the signed area).
fn cross(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// True when `p` lies inside or on the triangle a, b, c (counter-clockwise).
fn in_triangle(p: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    cross(a, b, p) >= 0.0 && cross(b, c, p) >= 0.0 && cross(c, a, p) >= 0.0
}

/// Projects a polygon onto the plane of its dominant normal axis so that it runs
/// counter-clockwise in 2-D.
fn project(points: &[[f32; 3]]) -> Vec<[f64; 2]> {
    let mut normal = DVec3::ZERO;
    for (i, a) in points.iter().enumerate() {
        let b = points.get((i + 1) % points.len()).unwrap_or(a);
        let (a, b) = (
            DVec3::new(a[0].into(), a[1].into(), a[2].into()),
            DVec3::new(b[0].into(), b[1].into(), b[2].into()),
        );
        normal += DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    let abs = normal.abs();
    // (u, v) axes chosen so that u × v points along +axis; mirrored when the normal points
    // along −axis, so the projection is always counter-clockwise.
    let (u, v, positive) = if abs.z >= abs.x && abs.z >= abs.y {
        (0, 1, normal.z >= 0.0)
    } else if abs.x >= abs.y {
        (1, 2, normal.x >= 0.0)
    } else {
        (2, 0, normal.y >= 0.0)
    };
    points
        .iter()
        .map(|p| {
            let (pu, pv) = (f64::from(p[u]), f64::from(p[v]));
            if positive { [pu, pv] } else { [pv, pu] }
        })
        .collect()
}

/// Most corners one polygon may have. Readers refuse larger polygons (with the line or
/// offset and field); the triangulation of a polygon costs O(n) in its corner count with a
/// bounded fallback whatever its shape, so the limit only keeps files sensible.
pub const MAX_POLYGON_CORNERS: usize = 1 << 20;

/// How one polygon was split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolygonTriangles {
    /// Triangles as corner positions (0-based within the polygon), in the polygon's winding.
    /// Every triangle has a positive area ([`crate::passes::triangle_area`]), so its three
    /// corners are distinct vertices.
    pub triangles: Vec<[usize; 3]>,
    /// For each corner, the corner that stands for it in `triangles`: itself, the earlier
    /// corner it coincides with (a zero-length edge removed), or `usize::MAX` when it was
    /// dropped as the tip of a zero-width spike.
    pub kept_as: Vec<usize>,
    /// False when the polygon is not simple (it crosses or overlaps itself, or ear clipping
    /// ran out of its work budget): the rest was split as a fan, keeping only the pieces that
    /// have an area.
    pub simple: bool,
    /// Zero-length edges and zero-width spikes removed, and fan pieces without area dropped.
    pub dropped: usize,
    /// Elementary steps spent: ring moves of the clean-up and of the ear search, corners
    /// looked at by ear tests, winding and fan steps. At most [`step_bound`] of the corner
    /// count whatever the shape; tests check the growth with it instead of a clock.
    pub steps: u64,
}

/// Most [`PolygonTriangles::steps`] a polygon of `corners` corners may take: the ear search's
/// work budget plus one ear test that overruns it (a cell holds at most every corner), and
/// linear passes for the clean-up (each step removes a corner or moves on, a quiet round
/// ends it), the winding and the fan.
pub fn step_bound(corners: usize) -> u64 {
    work_budget(corners) + 8 * corners as u64 + 8
}

/// Ear-test work allowed per polygon beyond which the rest is fanned: linear in the corner
/// count, with room for the concave polygons of real walkmeshes.
fn work_budget(corners: usize) -> u64 {
    64 * corners as u64 + (1 << 22)
}

/// Corners of a polygon being clipped: a doubly linked ring over the corner positions.
struct Ring {
    flat: Vec<[f64; 2]>,
    points: Vec<[f32; 3]>,
    prev: Vec<usize>,
    next: Vec<usize>,
    alive: Vec<bool>,
    len: usize,
}

impl Ring {
    fn at(&self, i: usize) -> [f64; 2] {
        self.flat.get(i).copied().unwrap_or([0.0, 0.0])
    }

    fn point(&self, i: usize) -> [f32; 3] {
        self.points.get(i).copied().unwrap_or([0.0; 3])
    }

    fn prev_of(&self, i: usize) -> usize {
        self.prev.get(i).copied().unwrap_or(i)
    }

    fn next_of(&self, i: usize) -> usize {
        self.next.get(i).copied().unwrap_or(i)
    }

    fn turn(&self, i: usize) -> f64 {
        cross(
            self.at(self.prev_of(i)),
            self.at(i),
            self.at(self.next_of(i)),
        )
    }

    fn remove(&mut self, i: usize) {
        let (p, n) = (self.prev_of(i), self.next_of(i));
        if let Some(slot) = self.next.get_mut(p) {
            *slot = n;
        }
        if let Some(slot) = self.prev.get_mut(n) {
            *slot = p;
        }
        if let Some(slot) = self.alive.get_mut(i) {
            *slot = false;
        }
        self.len -= 1;
    }

    /// A triangle of the ring with an area in 3-D as well as in the projection (the
    /// validator's test).
    fn has_area(&self, a: usize, b: usize, c: usize) -> bool {
        crate::passes::planes::triangle_area(self.point(a), self.point(b), self.point(c)) > 0.0
    }

    /// Removes zero-length edges (a corner at the same place as the one before) and the tips
    /// of zero-width spikes (the ring goes out and straight back), each in O(1), until none
    /// is left. Returns how many corners were removed.
    fn clean(&mut self, start: usize, kept_as: &mut [usize], steps: &mut u64) -> usize {
        let mut removed = 0;
        let mut i = start;
        // Every step either removes a corner (at most n) or moves on; `quiet` counts moves
        // since the last removal, and a full quiet round means nothing is left to remove.
        let mut quiet = 0;
        while self.len >= 3 && quiet <= self.len {
            *steps += 1;
            let p = self.prev_of(i);
            let n = self.next_of(i);
            if self.at(i) == self.at(p) {
                if let Some(k) = kept_as.get_mut(i) {
                    *k = p;
                }
                self.remove(i);
                removed += 1;
                quiet = 0;
                i = p;
                continue;
            }
            let (a, b, c) = (self.at(p), self.at(i), self.at(n));
            let back = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) < 0.0;
            if cross(a, b, c) == 0.0 && back {
                if let Some(k) = kept_as.get_mut(i) {
                    *k = usize::MAX;
                }
                self.remove(i);
                removed += 1;
                quiet = 0;
                i = p;
                continue;
            }
            i = n;
            quiet += 1;
        }
        removed
    }
}

/// Total turning of the ring divided by a full turn, rounded: 1 for a simple polygon.
fn winding(ring: &Ring, start: usize) -> i64 {
    let mut total = 0.0f64;
    let mut i = start;
    for _ in 0..ring.len {
        let (a, b, c) = (
            ring.at(ring.prev_of(i)),
            ring.at(i),
            ring.at(ring.next_of(i)),
        );
        let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
        total += (u[0] * v[1] - u[1] * v[0]).atan2(u[0] * v[0] + u[1] * v[1]);
        i = ring.next_of(i);
    }
    (total / std::f64::consts::TAU).round() as i64
}

/// Corners that may block an ear (reflex and straight ones), bucketed in a uniform grid over
/// their bounding box so that an ear test looks only at the cells its triangle covers.
struct Blockers {
    min: [f64; 2],
    cell: [f64; 2],
    size: usize,
    /// Cell `k` holds `members[starts[k]..starts[k + 1]]` (one allocation for all cells).
    starts: Vec<usize>,
    members: Vec<usize>,
}

impl Blockers {
    fn new(ring: &Ring, members: &[usize]) -> Blockers {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for &i in members {
            let p = ring.at(i);
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        let size = ((members.len() as f64).sqrt() as usize).clamp(1, 1024);
        let cell = [0, 1].map(|k| {
            let extent = max[k] - min[k];
            if extent.is_finite() && extent > 0.0 {
                extent / size as f64
            } else {
                1.0
            }
        });
        let mut blockers = Blockers {
            min,
            cell,
            size,
            starts: vec![0; size * size + 1],
            members: vec![0; members.len()],
        };
        // Counting sort by cell.
        let cells: Vec<usize> = members
            .iter()
            .map(|&i| {
                let [x, y] = blockers.cell_of(ring.at(i));
                y * size + x
            })
            .collect();
        for &k in &cells {
            if let Some(count) = blockers.starts.get_mut(k + 1) {
                *count += 1;
            }
        }
        for k in 1..blockers.starts.len() {
            let before = blockers.starts.get(k - 1).copied().unwrap_or(0);
            if let Some(count) = blockers.starts.get_mut(k) {
                *count += before;
            }
        }
        let mut fill = blockers.starts.clone();
        for (&i, &k) in members.iter().zip(&cells) {
            if let Some(at) = fill.get_mut(k) {
                if let Some(slot) = blockers.members.get_mut(*at) {
                    *slot = i;
                }
                *at += 1;
            }
        }
        blockers
    }

    fn cell_of(&self, p: [f64; 2]) -> [usize; 2] {
        [0, 1].map(|k| {
            let f = ((p[k] - self.min[k]) / self.cell[k]).floor();
            if f.is_nan() || f < 0.0 {
                0
            } else {
                (f as usize).min(self.size - 1)
            }
        })
    }

    /// True when no blocking corner lies inside or on the triangle a → b → c (corners at the
    /// same place as a, b or c do not block: the polygon touches itself there). `work` is
    /// charged one unit per cell and per corner looked at.
    fn ear_is_empty(&self, ring: &Ring, tri: [usize; 3], strict: &[bool], work: &mut u64) -> bool {
        let [a, b, c] = tri.map(|i| ring.at(i));
        let lo = [a[0].min(b[0]).min(c[0]), a[1].min(b[1]).min(c[1])];
        let hi = [a[0].max(b[0]).max(c[0]), a[1].max(b[1]).max(c[1])];
        let [x0, y0] = self.cell_of(lo);
        let [x1, y1] = self.cell_of(hi);
        for y in y0..=y1 {
            for x in x0..=x1 {
                // Empty cells cost a step too, so that a wide ear over a sparse grid is paid for.
                *work += 1;
                let k = y * self.size + x;
                let (Some(&from), Some(&to)) = (self.starts.get(k), self.starts.get(k + 1)) else {
                    continue;
                };
                let list = self.members.get(from..to).unwrap_or(&[]);
                for &other in list {
                    *work += 1;
                    if !ring.alive.get(other).copied().unwrap_or(false)
                        || strict.get(other).copied().unwrap_or(false)
                        || tri.contains(&other)
                    {
                        continue;
                    }
                    let p = ring.at(other);
                    if p == a || p == b || p == c {
                        continue;
                    }
                    if p[0] < lo[0] || p[0] > hi[0] || p[1] < lo[1] || p[1] > hi[1] {
                        continue;
                    }
                    if in_triangle(p, a, b, c) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Splits one polygon (its corner positions) into triangles of positive area that keep every
/// edge of the polygon (except zero-length edges and zero-width spikes, which bound no area).
///
/// Ear clipping on the projection along the dominant Newell axis. A weakly convex polygon
/// (straight corners allowed, as in PATH regions) needs no containment tests: an ear is any
/// strictly convex corner, except that with three strictly convex corners left an ear must not
/// close off a straight side (that would leave a zero-area rest). Otherwise an ear test looks
/// at the reflex and straight corners in the grid cells its triangle covers. The work is
/// budgeted linearly in the corner count; a polygon that is not simple, or that exhausts the
/// budget, has its rest split as a fan keeping only the pieces with an area.
pub fn triangulate_polygon(points: &[[f32; 3]]) -> PolygonTriangles {
    let n = points.len();
    let mut result = PolygonTriangles {
        triangles: Vec::new(),
        kept_as: (0..n).collect(),
        simple: true,
        dropped: 0,
        steps: 0,
    };
    if n < 3 {
        result.dropped = n;
        return result;
    }
    let mut ring = Ring {
        flat: project(points),
        points: points.to_vec(),
        prev: (0..n).map(|i| (i + n - 1) % n).collect(),
        next: (0..n).map(|i| (i + 1) % n).collect(),
        alive: vec![true; n],
        len: n,
    };
    result.dropped = ring.clean(0, &mut result.kept_as, &mut result.steps);
    let Some(mut start) = ring.alive.iter().position(|&a| a) else {
        return result;
    };
    if ring.len < 3 {
        return result;
    }
    let mut strict: Vec<bool> = (0..n)
        .map(|i| ring.alive.get(i).copied().unwrap_or(false) && ring.turn(i) > 0.0)
        .collect();
    let mut strict_count = strict.iter().filter(|&&s| s).count();
    result.steps += ring.len as u64;
    let convex = winding(&ring, start) == 1
        && (0..n).all(|i| !ring.alive.get(i).copied().unwrap_or(false) || ring.turn(i) >= 0.0);
    let blockers = if convex {
        None
    } else {
        let members: Vec<usize> = (0..n)
            .filter(|&i| {
                ring.alive.get(i).copied().unwrap_or(false)
                    && !strict.get(i).copied().unwrap_or(false)
            })
            .collect();
        Some(Blockers::new(&ring, &members))
    };
    result.triangles.reserve(ring.len.saturating_sub(2));
    let budget = work_budget(n);
    let mut work = 0u64;
    let mut i = start;
    let mut since_last_ear = 0usize;
    while ring.len > 3 && work <= budget {
        work += 1;
        let (p, nx) = (ring.prev_of(i), ring.next_of(i));
        let is_ear = strict.get(i).copied().unwrap_or(false)
            && ring.has_area(p, i, nx)
            && match &blockers {
                None => {
                    // Weakly convex: only a straight side closed off by p → nx can block.
                    !(strict_count == 3
                        && strict.get(p).copied().unwrap_or(false)
                        && strict.get(nx).copied().unwrap_or(false))
                }
                Some(grid) => grid.ear_is_empty(&ring, [p, i, nx], &strict, &mut work),
            };
        if is_ear {
            result.triangles.push([p, i, nx]);
            ring.remove(i);
            if let Some(s) = strict.get_mut(i) {
                *s = false;
            }
            strict_count = strict_count.saturating_sub(1);
            for neighbour in [p, nx] {
                let now = ring.turn(neighbour) > 0.0;
                if let Some(s) = strict.get_mut(neighbour) {
                    if now != *s {
                        if now {
                            strict_count += 1;
                        } else {
                            strict_count = strict_count.saturating_sub(1);
                        }
                    }
                    *s = now;
                }
            }
            since_last_ear = 0;
            start = p;
            // Continue at the previous corner: it may have just become an ear.
            i = p;
        } else {
            i = nx;
            since_last_ear += 1;
            if since_last_ear > ring.len {
                break;
            }
        }
    }
    result.steps += work;
    if ring.len == 3 {
        let (p, nx) = (ring.prev_of(start), ring.next_of(start));
        if ring.has_area(p, start, nx) {
            result.triangles.push([p, start, nx]);
        } else {
            result.dropped += 1;
        }
        return result;
    }
    // Stuck (not simple) or out of budget: fan the rest from one corner, keeping the pieces
    // that have an area.
    result.simple = false;
    let apex = start;
    let mut b = ring.next_of(apex);
    for _ in 0..ring.len.saturating_sub(2) {
        result.steps += 1;
        let c = ring.next_of(b);
        if ring.has_area(apex, b, c) {
            result.triangles.push([apex, b, c]);
        } else {
            result.dropped += 1;
        }
        b = c;
    }
    result
}

/// Triangles of one simple polygon as corner positions (0-based within the polygon), in the
/// polygon's winding. `None` when the polygon is not simple (see [`triangulate_polygon`]).
pub fn ear_clip(points: &[[f32; 3]]) -> Option<Vec<[usize; 3]>> {
    let split = triangulate_polygon(points);
    split.simple.then_some(split.triangles)
}

/// A triangulated copy of `mesh` and, per triangle, the polygon it came from. Polygons that
/// are already triangles are copied as they are; an edge tag moves to the triangle edge that
/// lies on the tagged polygon edge. Polygons that are not simple are fanned, with a warning;
/// pieces without area (zero-length edges, zero-width spikes, fan pieces) are never written,
/// and their count is reported.
pub fn triangulate(mesh: &NavMesh, diag: &mut Diagnostics) -> (NavMesh, Vec<u32>) {
    let mut polygons = Polygons::with_capacity(mesh.polygons.len(), mesh.polygons.indices().len());
    let mut source = Vec::with_capacity(mesh.polygons.len());
    let mut surfaces = Vec::with_capacity(mesh.polygons.len());
    let mut edge_tags = BTreeMap::new();
    let mut fanned = 0usize;
    let mut trimmed = 0usize;
    let mut vanished = 0usize;
    let mut lost_tags = 0usize;
    // Edge tags grouped by polygon, to move them along in one pass.
    let mut tags_by_polygon: BTreeMap<u32, Vec<(u32, crate::ir::EdgeTag)>> = BTreeMap::new();
    for (edge, tag) in &mesh.edge_tags {
        tags_by_polygon
            .entry(edge.polygon)
            .or_default()
            .push((edge.edge, *tag));
    }
    let mut points: Vec<[f32; 3]> = Vec::new();
    for (polygon, vertices) in mesh.polygons.iter().enumerate() {
        let first_triangle = polygons.len();
        let split = if vertices.len() == 3 {
            PolygonTriangles {
                triangles: vec![[0, 1, 2]],
                kept_as: vec![0, 1, 2],
                simple: true,
                dropped: 0,
                steps: 1,
            }
        } else {
            points.clear();
            points.extend(vertices.iter().map(|&v| mesh.vertex(v)));
            triangulate_polygon(&points)
        };
        if !split.simple {
            fanned += 1;
        }
        if split.dropped > 0 {
            trimmed += 1;
        }
        if split.triangles.is_empty() {
            vanished += 1;
        }
        let surface = mesh
            .surfaces
            .get(polygon)
            .copied()
            .unwrap_or(crate::ir::Surface {
                material: crate::material::Material(0),
                walkable: false,
                code: 0,
            });
        for triangle in &split.triangles {
            let indices = triangle.map(|corner| vertices.get(corner).copied().unwrap_or(0));
            polygons.push(&indices);
            surfaces.push(surface);
            source.push(polygon as u32);
        }
        if let Some(tags) = tags_by_polygon.get(&(polygon as u32)) {
            // Directed triangle edges (corner → corner) of this polygon.
            let mut directed: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
            for (t, tri) in split.triangles.iter().enumerate() {
                for k in 0..3 {
                    directed.insert((tri[k], tri[(k + 1) % 3]), (t, k));
                }
            }
            let kept = |corner: usize| split.kept_as.get(corner).copied().unwrap_or(usize::MAX);
            for &(edge, tag) in tags {
                let from = edge as usize;
                let to = (from + 1) % vertices.len();
                // The polygon edge from corner `from` to corner `to` is exactly one triangle's
                // edge, running the same way (through the corners that stand for them).
                match directed.get(&(kept(from), kept(to))) {
                    Some(&(t, k)) => {
                        edge_tags.insert(
                            EdgeRef {
                                polygon: (first_triangle + t) as u32,
                                edge: k as u32,
                            },
                            tag,
                        );
                    }
                    None => lost_tags += 1,
                }
            }
        }
    }
    if fanned > 0 {
        diag.warn(
            "mesh.self_intersecting_polygon",
            format!("{fanned} polygon(s) are not simple and were split as fans; check them in a modeller"),
        );
    }
    if trimmed > 0 {
        diag.warn(
            "mesh.degenerate_parts_dropped",
            format!(
                "{trimmed} polygon(s) have parts without area (repeated corners, zero-width spikes or overlaps) that were left out of their triangles{}",
                if vanished > 0 {
                    format!("; {vanished} of them have no area at all and are gone")
                } else {
                    String::new()
                }
            ),
        );
    }
    if lost_tags > 0 {
        diag.warn(
            "mesh.edge_tags_dropped",
            format!("{lost_tags} edge tag(s) were dropped: their polygon edge has no length or the polygon is not simple, so no triangle keeps it"),
        );
    }
    let face_attributes = mesh
        .face_attributes
        .iter()
        .map(|(name, column)| (name.clone(), column.permuted(&source)))
        .collect();
    let triangulated = NavMesh {
        kind: mesh.kind,
        vertices: mesh.vertices.clone(),
        polygons,
        surfaces,
        edge_tags,
        face_attributes,
        origin: mesh.origin,
        hooks: mesh.hooks.clone(),
        tile_grid: mesh.tile_grid,
        extras: mesh.extras.clone(),
        provenance: None,
    };
    (triangulated, source)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{EdgeTag, Surface};
    use crate::material::Material;
    use crate::passes::planes::polygon_area;

    fn area2(points: &[[f32; 3]], tri: [usize; 3]) -> f64 {
        let p: Vec<[f64; 2]> = tri
            .iter()
            .map(|&i| [points[i][0] as f64, points[i][1] as f64])
            .collect();
        cross(p[0], p[1], p[2])
    }

    #[test]
    fn concave_l_shape_gives_ccw_triangles_covering_its_area() {
        // L shape, area 3.
        let points = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        let triangles = ear_clip(&points).unwrap();
        assert_eq!(triangles.len(), 4);
        let total: f64 = triangles.iter().map(|&t| area2(&points, t) / 2.0).sum();
        assert!((total - 3.0).abs() < 1e-12);
        assert!(triangles.iter().all(|&t| area2(&points, t) > 0.0));
    }

    #[test]
    fn clockwise_and_vertical_polygons_keep_their_winding() {
        // The L shape mirrored (clockwise seen from +Z): triangles stay clockwise.
        let points: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [0.0, 2.0],
            [1.0, 2.0],
            [1.0, 1.0],
            [2.0, 1.0],
            [2.0, 0.0],
        ]
        .iter()
        .map(|p| [p[0], p[1], 0.0])
        .collect();
        let triangles = ear_clip(&points).unwrap();
        assert_eq!(triangles.len(), 4);
        assert!(triangles.iter().all(|&t| area2(&points, t) < 0.0));
        // A concave wall in the XZ plane.
        let wall: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [0.0, 2.0],
        ]
        .iter()
        .map(|p| [p[0], 0.0, p[1]])
        .collect();
        assert_eq!(ear_clip(&wall).unwrap().len(), 4);
    }

    #[test]
    fn triangulate_keeps_surfaces_tags_and_area() {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            ..NavMesh::default()
        };
        let grass = Surface {
            material: Material(3),
            walkable: true,
            code: 3,
        };
        mesh.push_polygon(&[0, 1, 2, 3, 4, 5], grass);
        mesh.push_polygon(&[1, 2, 3], grass);
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 3,
            },
            EdgeTag { transition: 9 },
        );
        let mut diag = Diagnostics::new();
        let (tris, source) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 5);
        assert_eq!(source, vec![0, 0, 0, 0, 1]);
        assert!(tris.surfaces.iter().all(|s| *s == grass));
        let area: f64 = (0..4).map(|p| polygon_area(&tris, p)).sum();
        assert!((area - 3.0).abs() < 1e-9);
        // The tag on edge 3 (vertex 3 -> vertex 4) sits on the triangle edge 3 -> 4.
        let (edge, tag) = tris.edge_tags.iter().next().unwrap();
        assert_eq!(tag.transition, 9);
        let tri = tris.polygons.get(edge.polygon as usize);
        assert_eq!(tri[edge.edge as usize], 3);
        assert_eq!(tri[(edge.edge as usize + 1) % 3], 4);
        assert!(diag.items.is_empty());
    }

    #[test]
    fn self_intersecting_polygon_still_gives_n_minus_2_triangles() {
        // A bow tie drawn as one quad.
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(
            &[0, 1, 2, 3],
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        let mut diag = Diagnostics::new();
        let (tris, _) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 2);
        // A pentagram (every second point of a pentagon) cannot be ear-clipped.
        let star: Vec<[f32; 3]> = [0usize, 2, 4, 1, 3]
            .iter()
            .map(|&k| {
                let angle = k as f32 * std::f32::consts::TAU / 5.0;
                [angle.cos(), angle.sin(), 0.0]
            })
            .collect();
        let mut mesh = NavMesh {
            vertices: star,
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2, 3, 4], tris.surfaces[0]);
        let mut diag = Diagnostics::new();
        let (tris, _) = triangulate(&mesh, &mut diag);
        assert_eq!(tris.polygons.len(), 3);
    }

    /// Every triangle has an area, and every polygon edge with a length is the edge of
    /// exactly one triangle, running the same way.
    fn assert_sound_split(points: &[[f32; 3]], split: &PolygonTriangles) {
        use crate::passes::planes::triangle_area;
        for t in &split.triangles {
            assert!(
                triangle_area(points[t[0]], points[t[1]], points[t[2]]) > 0.0,
                "zero-area triangle {t:?}"
            );
        }
        let n = points.len();
        for from in 0..n {
            let to = (from + 1) % n;
            if points[from] == points[to] {
                continue;
            }
            let (a, b) = (split.kept_as[from], split.kept_as[to]);
            let uses = split
                .triangles
                .iter()
                .filter(|t| (0..3).any(|k| t[k] == a && t[(k + 1) % 3] == b))
                .count();
            assert_eq!(uses, 1, "polygon edge {from} -> {to}");
        }
    }

    #[test]
    fn convex_polygons_with_straight_corners_split_into_triangles_with_area() {
        // A square with a corner in the middle of every side: a fan from corner 0 would give
        // the zero-area triangles 0-1-2 and 0-6-7.
        let square: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [2.0, 2.0],
            [1.0, 2.0],
            [0.0, 2.0],
            [0.0, 1.0],
        ]
        .iter()
        .map(|p| [p[0], p[1], 0.0])
        .collect();
        let split = triangulate_polygon(&square);
        assert!(split.simple);
        assert_eq!(split.triangles.len(), 6);
        assert_sound_split(&square, &split);
        // A triangle with 50 corners along one side: only the opposite corner can see them.
        let mut long: Vec<[f32; 3]> = (0..=50).map(|i| [i as f32, 0.0, 0.0]).collect();
        long.push([25.0, 10.0, 0.0]);
        for rotation in 0..long.len() {
            let mut rotated = long.clone();
            rotated.rotate_left(rotation);
            let split = triangulate_polygon(&rotated);
            assert!(split.simple);
            assert_eq!(split.triangles.len(), rotated.len() - 2);
            assert_sound_split(&rotated, &split);
        }
        // Three collinear corners have no triangle at all.
        let line = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
        ];
        let split = triangulate_polygon(&line);
        assert!(split.triangles.is_empty());
    }

    #[test]
    fn concave_polygons_with_straight_corners_keep_every_edge() {
        // An L shape with extra corners along three of its sides.
        let l: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [1.5, 1.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [0.0, 2.0],
            [0.0, 1.0],
        ]
        .iter()
        .map(|p| [p[0], p[1], 0.0])
        .collect();
        let split = triangulate_polygon(&l);
        assert!(split.simple);
        assert_eq!(split.triangles.len(), l.len() - 2);
        assert_sound_split(&l, &split);
        let area: f64 = split
            .triangles
            .iter()
            .map(|t| crate::passes::planes::triangle_area(l[t[0]], l[t[1]], l[t[2]]))
            .sum();
        assert!((area - 3.0).abs() < 1e-12);
    }

    #[test]
    fn repeated_corners_and_spikes_are_removed_without_zero_area_triangles() {
        // A unit square whose corner 1 is repeated and which has a spike out of corner 2.
        let points: Vec<[f32; 3]> = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [3.0, 1.0],
            [1.0, 1.0],
            [0.0, 1.0],
        ]
        .iter()
        .map(|p| [p[0], p[1], 0.0])
        .collect();
        let split = triangulate_polygon(&points);
        assert_eq!(split.triangles.len(), 2);
        assert_eq!(split.kept_as[2], 1);
        assert_eq!(split.kept_as[4], usize::MAX);
        assert!(split.dropped >= 3);
        for t in &split.triangles {
            assert!(
                crate::passes::planes::triangle_area(points[t[0]], points[t[1]], points[t[2]])
                    > 0.0
            );
        }
    }

    /// A face of `corners` corners walking around a hexagon over and over (every corner
    /// repeated): the shape that made ear clipping quadratic (11.7 s at 100 000 corners).
    fn hexagon_walk(corners: u32) -> Vec<[f32; 3]> {
        let hexagon: Vec<[f32; 3]> = (0..6)
            .map(|k| {
                let angle = k as f32 * std::f32::consts::TAU / 6.0;
                [angle.cos(), angle.sin(), 0.0]
            })
            .collect();
        (0..corners)
            .map(|i| hexagon[((i * 7 / 3) % 6) as usize])
            .collect()
    }

    #[test]
    fn a_huge_self_overlapping_face_with_repeated_corners_is_split_in_linear_steps() {
        // Counted steps, not a clock: deterministic on a loaded machine. A quadratic split
        // would take 16 times the steps for 4 times the corners; measured here: 124,997 and
        // 599,990 steps (5 and 6 per corner; the repeated corners collapse differently).
        let small = triangulate_polygon(&hexagon_walk(25_000));
        let large = triangulate_polygon(&hexagon_walk(100_000));
        assert!(small.steps <= step_bound(25_000), "{}", small.steps);
        assert!(large.steps <= step_bound(100_000), "{}", large.steps);
        assert!(
            large.steps <= small.steps * 6,
            "steps grow faster than linearly: {} for 25 000 corners, {} for 100 000",
            small.steps,
            large.steps
        );
        // The bound itself is linear: about 110 steps per corner here.
        assert!(step_bound(100_000) < 12_000_000);
        let mut mesh = NavMesh {
            vertices: hexagon_walk(6),
            ..NavMesh::default()
        };
        let corners: Vec<u32> = (0..100_000u32).map(|i| (i * 7 / 3) % 6).collect();
        mesh.push_polygon(
            &corners,
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        let mut diag = Diagnostics::new();
        let (tris, _) = triangulate(&mesh, &mut diag);
        assert!(!tris.polygons.is_empty());
        for (p, tri) in tris.polygons.iter().enumerate() {
            assert!(
                tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2],
                "{tri:?}"
            );
            assert!(polygon_area(&tris, p) > 0.0);
        }
    }

    #[test]
    fn the_step_count_of_a_simple_polygon_is_within_its_bound() {
        // A comb (many reflex corners): ear tests look at blockers, all counted.
        let mut comb = vec![[0.0f32, 0.0, 0.0], [100.0, 0.0, 0.0]];
        for k in (0..50).rev() {
            let x = k as f32 * 2.0;
            comb.push([x + 2.0, 10.0, 0.0]);
            comb.push([x + 1.0, 1.0, 0.0]);
        }
        comb.push([0.0, 10.0, 0.0]);
        let split = triangulate_polygon(&comb);
        assert!(split.simple);
        assert_eq!(split.triangles.len(), comb.len() - 2);
        assert!(split.steps > comb.len() as u64);
        assert!(split.steps <= step_bound(comb.len()), "{}", split.steps);
    }
}
