//! Vertex welding: merge vertices closer than a tolerance (0: exactly equal positions).

use std::collections::BTreeMap;

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use crate::diag::Diagnostics;
use crate::ir::{EdgeRef, NavMesh, Polygons};

/// What welding did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WeldReport {
    pub merged_vertices: usize,
    /// Polygons left with fewer than three distinct corners, removed.
    pub dropped_polygons: usize,
    /// Old vertex index → new vertex index.
    pub vertex_map: Vec<u32>,
}

/// Key for exact equality: `-0.0` and `0.0` are the same place.
fn exact_key(p: [f32; 3]) -> [u32; 3] {
    p.map(|c| if c == 0.0 { 0 } else { c.to_bits() })
}

/// Grid cells are this many tolerances wide: a tolerance ball then reaches into a
/// neighbouring cell along an axis only when the point lies within one tolerance of that
/// side, so a search visits 1.125³ ≈ 1.4 cells on average (at most 8) instead of 27. Wider
/// cells would hold more positions to compare; the default tolerance (a few ulps) is far
/// below any vertex spacing, so a cell holds one position and each lookup is a cache miss
/// in a table of one entry per vertex: fewer lookups is what counts (4 tolerances, 3.4
/// lookups, made the weld of a 1M-triangle OBJ take twice as long).
const CELL_TOLERANCES: f64 = 16.0;

fn cell_of(c: f64, size: f64) -> i64 {
    (c / size).floor() as i64
}

/// No further point in a grid cell's list.
const END: u32 = u32::MAX;

/// Groups positions closer than `tolerance` (Euclidean; 0 or non-finite: exactly equal
/// positions, `-0.0 == 0.0`). Each position maps to the *earliest* kept position within
/// the tolerance, or is kept itself; returns the map (position index → kept index) and the
/// kept positions. Linear expected time: a hash grid of `4 × tolerance` cells.
pub fn weld_positions(points: &[[f32; 3]], tolerance: f32) -> (Vec<u32>, Vec<[f32; 3]>) {
    let mut map = Vec::with_capacity(points.len());
    let mut kept: Vec<[f32; 3]> = Vec::new();
    if !(tolerance > 0.0 && tolerance.is_finite()) {
        let mut seen: FxHashMap<[u32; 3], u32> = FxHashMap::default();
        seen.reserve(points.len());
        for &p in points {
            let index = *seen.entry(exact_key(p)).or_insert_with(|| {
                kept.push(p);
                (kept.len() - 1) as u32
            });
            map.push(index);
        }
        return (map, kept);
    }
    let tol = f64::from(tolerance);
    let size = tol * CELL_TOLERANCES;
    // Reach a little further than the tolerance so that rounding in `c ± tol` can never
    // leave out the cell of a point exactly at the tolerance.
    let reach = tol * (1.0 + 1e-6);
    let limit = tol * tol;
    // Cell → (first, last) kept position in it; `next` chains a cell's positions in
    // increasing index order, so the first match in a cell is that cell's earliest. Sized
    // for the usual case of few merges, so the table is never grown and rehashed.
    let mut cells: FxHashMap<[i64; 3], (u32, u32)> = FxHashMap::default();
    cells.reserve(points.len());
    let mut next: Vec<u32> = Vec::with_capacity(points.len());
    kept.reserve(points.len());
    for &p in points {
        let c = p.map(f64::from);
        let low = [0, 1, 2].map(|a| cell_of(c[a] - reach, size));
        let high = [0, 1, 2].map(|a| cell_of(c[a] + reach, size));
        let home = c.map(|v| cell_of(v, size));
        // `cell_of` is monotonic, so low ≤ home ≤ high: when the ball stays in one cell
        // (most positions, with cells 16 tolerances wide) that cell is home, and one probe
        // of the table both searches it and files the position there.
        let found = if low == high {
            weld_in_home_cell(&mut cells, home, p, &mut kept, &mut next, limit)
        } else {
            let found = earliest_within(&cells, low, high, p, &kept, &next, limit);
            if found == END {
                file_new(&mut cells, home, p, &mut kept, &mut next)
            } else {
                found
            }
        };
        map.push(found);
    }
    (map, kept)
}

/// Squared distance between `c` (a position in f64) and `q`.
fn squared_distance(c: [f64; 3], q: [f32; 3]) -> f64 {
    (0..3).map(|a| (c[a] - f64::from(q[a])).powi(2)).sum()
}

/// The earliest kept position within `limit` (squared) of `p` in the cells `low..=high`,
/// or [`END`].
fn earliest_within(
    cells: &FxHashMap<[i64; 3], (u32, u32)>,
    low: [i64; 3],
    high: [i64; 3],
    p: [f32; 3],
    kept: &[[f32; 3]],
    next: &[u32],
    limit: f64,
) -> u32 {
    let c = p.map(f64::from);
    let mut found = END;
    for x in low[0]..=high[0] {
        for y in low[1]..=high[1] {
            for z in low[2]..=high[2] {
                let Some(&(first, _)) = cells.get(&[x, y, z]) else {
                    continue;
                };
                let mut candidate = first;
                // Later positions in this cell cannot beat an earlier match.
                while candidate != END && candidate < found {
                    let q = kept.get(candidate as usize).copied().unwrap_or(p);
                    if squared_distance(c, q) <= limit {
                        found = candidate;
                        break;
                    }
                    candidate = next.get(candidate as usize).copied().unwrap_or(END);
                }
            }
        }
    }
    found
}

/// Keeps `p` as a new position filed last in cell `home`; returns its index.
fn file_new(
    cells: &mut FxHashMap<[i64; 3], (u32, u32)>,
    home: [i64; 3],
    p: [f32; 3],
    kept: &mut Vec<[f32; 3]>,
    next: &mut Vec<u32>,
) -> u32 {
    let found = kept.len() as u32;
    kept.push(p);
    next.push(END);
    match cells.entry(home) {
        Entry::Occupied(mut cell) => {
            let (_, last) = cell.get_mut();
            if let Some(link) = next.get_mut(*last as usize) {
                *link = found;
            }
            *last = found;
        }
        Entry::Vacant(cell) => {
            cell.insert((found, found));
        }
    }
    found
}

/// [`earliest_within`] and [`file_new`] for a position whose tolerance ball lies in its
/// home cell alone, with one probe of the table.
fn weld_in_home_cell(
    cells: &mut FxHashMap<[i64; 3], (u32, u32)>,
    home: [i64; 3],
    p: [f32; 3],
    kept: &mut Vec<[f32; 3]>,
    next: &mut Vec<u32>,
    limit: f64,
) -> u32 {
    let c = p.map(f64::from);
    let found = kept.len() as u32;
    match cells.entry(home) {
        Entry::Occupied(mut cell) => {
            let (first, last) = cell.get_mut();
            let mut candidate = *first;
            while candidate != END {
                let q = kept.get(candidate as usize).copied().unwrap_or(p);
                if squared_distance(c, q) <= limit {
                    return candidate;
                }
                candidate = next.get(candidate as usize).copied().unwrap_or(END);
            }
            kept.push(p);
            next.push(END);
            if let Some(link) = next.get_mut(*last as usize) {
                *link = found;
            }
            *last = found;
        }
        Entry::Vacant(cell) => {
            kept.push(p);
            next.push(END);
            cell.insert((found, found));
        }
    }
    found
}

/// Welds `mesh` as [`weld`] does, or `None` when that would change nothing: no position
/// merged and no polygon repeating a corner, so [`weld`]'s mesh would have the same
/// polygons, drop nothing and report nothing. Spares a large mesh's rebuild.
pub fn weld_if_changed(
    mesh: &NavMesh,
    tolerance: f32,
    diag: &mut Diagnostics,
) -> Option<(NavMesh, WeldReport)> {
    let (vertex_map, vertices) = weld_positions(&mesh.vertices, tolerance);
    if vertices.len() == mesh.vertices.len() && !has_repeated_corners(mesh) {
        return None;
    }
    Some(weld_with_map(mesh, vertex_map, vertices, diag))
}

/// Welds vertices: each vertex is merged into the earliest kept vertex within `tolerance`
/// (Euclidean; see [`weld_positions`]), so the pass is linear. Unreferenced vertices are
/// kept. Polygon corners that collapse onto their neighbour are removed; polygons left with
/// fewer than three corners are dropped, and the drop is reported.
pub fn weld(mesh: &NavMesh, tolerance: f32, diag: &mut Diagnostics) -> (NavMesh, WeldReport) {
    let (vertex_map, vertices) = weld_positions(&mesh.vertices, tolerance);
    weld_with_map(mesh, vertex_map, vertices, diag)
}

/// [`weld`] once the positions are grouped.
fn weld_with_map(
    mesh: &NavMesh,
    vertex_map: Vec<u32>,
    vertices: Vec<[f32; 3]>,
    diag: &mut Diagnostics,
) -> (NavMesh, WeldReport) {
    let merged_vertices = mesh.vertices.len() - vertices.len();
    let (welded, collapse) = rebuild_polygons(mesh, &vertex_map, vertices);
    let dropped_polygons = collapse.dropped_polygons;
    if dropped_polygons > 0 {
        diag.warn(
            "weld.dropped_polygons",
            format!("welding collapsed {dropped_polygons} polygon(s) to fewer than 3 corners; they were removed"),
        );
    }
    if collapse.lost_tags > 0 {
        diag.warn(
            "weld.lost_edge_tags",
            format!(
                "{} edge tag(s) sat on edges that welding collapsed and were dropped",
                collapse.lost_tags
            ),
        );
    }
    (
        welded,
        WeldReport {
            merged_vertices,
            dropped_polygons,
            vertex_map,
        },
    )
}

/// What [`rebuild_polygons`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollapseReport {
    /// Polygons left with fewer than three corners, removed.
    pub dropped_polygons: usize,
    /// Walkable ones among them.
    pub dropped_walkable: usize,
    /// Corners removed from polygons that were kept (each equal to the next corner).
    pub removed_corners: usize,
    /// Edge tags that sat on a removed edge.
    pub lost_tags: usize,
}

/// The mesh with `vertices` and every polygon corner mapped through `vertex_map`; a corner
/// equal to the next one (cyclically) is removed, and polygons left with fewer than three
/// corners are dropped, with their surfaces, columns and edge tags.
fn rebuild_polygons(
    mesh: &NavMesh,
    vertex_map: &[u32],
    vertices: Vec<[f32; 3]>,
) -> (NavMesh, CollapseReport) {
    let mut polygons = Polygons::with_capacity(mesh.polygons.len(), mesh.polygons.indices().len());
    let mut kept_polygons = Vec::with_capacity(mesh.polygons.len());
    let mut edge_tags = BTreeMap::new();
    let mut lost_tags = 0usize;
    let has_tags = !mesh.edge_tags.is_empty();
    let tag_of = |polygon: usize, edge: usize| {
        if has_tags {
            mesh.edge_tags.get(&EdgeRef {
                polygon: polygon as u32,
                edge: edge as u32,
            })
        } else {
            None
        }
    };
    // Buffers reused across polygons: a 1M-triangle mesh would otherwise allocate 3M times.
    let mut mapped: Vec<u32> = Vec::new();
    let mut keep: Vec<bool> = Vec::new();
    let mut corners: Vec<u32> = Vec::new();
    let mut dropped_walkable = 0usize;
    let mut removed_corners = 0usize;
    for (polygon, old) in mesh.polygons.iter().enumerate() {
        mapped.clear();
        mapped.extend(
            old.iter()
                .map(|&v| vertex_map.get(v as usize).copied().unwrap_or(v)),
        );
        // Keep corner i unless it equals the next kept corner (collapsed edge i).
        let n = mapped.len();
        keep.clear();
        keep.extend(
            mapped
                .iter()
                .zip(mapped.iter().cycle().skip(1))
                .map(|(a, b)| a != b),
        );
        corners.clear();
        corners.extend(
            mapped
                .iter()
                .zip(&keep)
                .filter(|&(_, &k)| k)
                .map(|(&v, _)| v),
        );
        if corners.len() < 3 {
            if mesh.is_walkable(polygon) {
                dropped_walkable += 1;
            }
            lost_tags += (0..n).filter(|&e| tag_of(polygon, e).is_some()).count();
            continue;
        }
        removed_corners += n - corners.len();
        let new_polygon = kept_polygons.len() as u32;
        // Old edge e survives as new edge (number of kept corners before e) when kept.
        let mut new_edge = 0u32;
        for (e, &kept) in keep.iter().enumerate() {
            let tag = tag_of(polygon, e);
            if kept {
                if let Some(tag) = tag {
                    edge_tags.insert(
                        EdgeRef {
                            polygon: new_polygon,
                            edge: new_edge,
                        },
                        *tag,
                    );
                }
                new_edge += 1;
            } else if tag.is_some() {
                lost_tags += 1;
            }
        }
        polygons.push(&corners);
        kept_polygons.push(polygon as u32);
    }
    let report = CollapseReport {
        dropped_polygons: mesh.polygons.len() - kept_polygons.len(),
        dropped_walkable,
        removed_corners,
        lost_tags,
    };
    let rebuilt = NavMesh {
        kind: mesh.kind,
        vertices,
        polygons,
        surfaces: kept_polygons
            .iter()
            .filter_map(|&p| mesh.surfaces.get(p as usize).copied())
            .collect(),
        edge_tags,
        face_attributes: mesh
            .face_attributes
            .iter()
            .map(|(name, column)| (name.clone(), column.permuted(&kept_polygons)))
            .collect(),
        origin: mesh.origin,
        hooks: mesh.hooks.clone(),
        tile_grid: mesh.tile_grid,
        extras: mesh.extras.clone(),
        provenance: None,
    };
    (rebuilt, report)
}

/// True when some polygon repeats a corner in consecutive (cyclic) positions: a triangle
/// using one vertex twice, or an n-gon with an edge of no length by index.
pub fn has_repeated_corners(mesh: &NavMesh) -> bool {
    mesh.polygons.iter().any(|corners| {
        let n = corners.len();
        (0..n).any(|i| corners.get(i) == corners.get((i + 1) % n))
    })
}

/// Removes corners equal to the next one (cyclically) without moving any vertex, and drops
/// the polygons left with fewer than three corners (a triangle that repeats a vertex has no
/// area and no meaning a writer could keep). `None` when there is nothing to remove.
pub fn collapse_repeated_corners(mesh: &NavMesh) -> Option<(NavMesh, CollapseReport)> {
    if !has_repeated_corners(mesh) {
        return None;
    }
    let identity: Vec<u32> = (0..mesh.vertices.len() as u32).collect();
    Some(rebuild_polygons(mesh, &identity, mesh.vertices.clone()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{EdgeTag, Surface};
    use crate::material::Material;

    /// The definition, by brute force: each position maps to the earliest kept position
    /// within the tolerance, or is kept itself.
    fn brute_force_weld(points: &[[f32; 3]], tolerance: f32) -> (Vec<u32>, Vec<[f32; 3]>) {
        let limit = f64::from(tolerance).powi(2);
        let mut kept: Vec<[f32; 3]> = Vec::new();
        let mut map = Vec::new();
        for &p in points {
            let close = kept.iter().position(|q| {
                (0..3)
                    .map(|a| (f64::from(p[a]) - f64::from(q[a])).powi(2))
                    .sum::<f64>()
                    <= limit
            });
            map.push(match close {
                Some(index) => index as u32,
                None => {
                    kept.push(p);
                    (kept.len() - 1) as u32
                }
            });
        }
        (map, kept)
    }

    /// Clusters of near positions straddling cell borders (so both the one-cell and the
    /// several-cell searches run) weld as the definition says.
    #[test]
    fn grid_weld_equals_the_brute_force_definition() {
        let mut state = 0x51f1_5eedu32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let tolerance = 0.01f32;
        let mut points = Vec::new();
        for _ in 0..3000 {
            // Centres on a lattice of cell-sized steps (16 tolerances), offsets of up to
            // two tolerances either way.
            let centre = [0, 1, 2].map(|_| (next() % 8) as f32 * 0.16);
            let offset = [0, 1, 2].map(|_| ((next() % 41) as f32 - 20.0) * 0.001);
            points.push([0, 1, 2].map(|a| centre[a] + offset[a]));
        }
        assert_eq!(
            weld_positions(&points, tolerance),
            brute_force_weld(&points, tolerance)
        );
    }

    fn surface() -> Surface {
        Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        }
    }

    #[test]
    fn exact_weld_merges_equal_positions_only() {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [-0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.00001],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], surface());
        mesh.push_polygon(&[4, 5, 3], surface());
        let (welded, report) = weld(&mesh, 0.0, &mut Diagnostics::new());
        assert_eq!(report.vertex_map, vec![0, 1, 2, 0, 1, 3]);
        assert_eq!(report.merged_vertices, 2);
        assert_eq!(welded.vertices.len(), 4);
        assert_eq!(welded.polygons.get(1), &[1, 3, 0]);
    }

    #[test]
    fn tolerance_weld_merges_near_points_and_drops_collapsed_polygons() {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0005, 0.0, 0.0],
                [1.0, 0.0004, 0.0],
                [5.0, 5.0, 5.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], surface());
        mesh.push_polygon(&[0, 3, 5], surface()); // collapses to a segment
        mesh.push_polygon(&[3, 4, 2, 5], surface()); // quad, becomes (0,1,2,5)
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 2,
                edge: 2,
            },
            EdgeTag { transition: 1 },
        );
        let mut diag = Diagnostics::new();
        let (welded, report) = weld(&mesh, 0.001, &mut diag);
        assert_eq!(report.vertex_map, vec![0, 1, 2, 0, 1, 3]);
        assert_eq!(report.dropped_polygons, 1);
        assert_eq!(welded.polygons.len(), 2);
        assert_eq!(welded.polygons.get(1), &[0, 1, 2, 3]);
        assert_eq!(
            welded.edge_tags.keys().next(),
            Some(&EdgeRef {
                polygon: 1,
                edge: 2
            })
        );
        assert_eq!(diag.items.len(), 1);
    }

    #[test]
    fn collapsed_edge_inside_a_polygon_is_removed() {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2, 3], surface());
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 1,
            },
            EdgeTag { transition: 4 },
        );
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 2,
            },
            EdgeTag { transition: 5 },
        );
        let mut diag = Diagnostics::new();
        let (welded, _) = weld(&mesh, 0.0, &mut diag);
        assert_eq!(welded.polygons.get(0), &[0, 1, 2]);
        // Old vertex 3 is new vertex 2. Edge 1 (1->2) collapsed; edge 2 (2->3) is now edge 1.
        assert_eq!(welded.edge_tags.len(), 1);
        assert_eq!(
            welded.edge_tags.get(&EdgeRef {
                polygon: 0,
                edge: 1
            }),
            Some(&EdgeTag { transition: 5 })
        );
        assert_eq!(diag.items.len(), 1);
    }
}
