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
//! itself seen from above (a spiral ramp): such places simply keep their vertices. Each
//! vertex is looked at twice (a second pass retries vertices whose fan was blocked by an
//! earlier state), and a removal costs its fan's size (ear clipping is near linear with
//! core's grid), so the pass is near linear in practice.

use walkmesh_core::passes::triangulate::triangulate_polygon;
use walkmesh_core::{Material, NavMesh, Surface};

/// Passes over the vertices.
const PASSES: usize = 2;
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
    /// Vertices removed.
    pub removed: usize,
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

/// Removes the vertices inside patches. `patch[p]` is polygon `p`'s patch (`u32::MAX` for
/// polygons that must be kept as they are: not mergeable). `acceptable` says whether a new
/// triangle (its three corners) could be cooked as it is (faces up, not degenerate).
pub fn remove_inner_vertices(
    mesh: &NavMesh,
    patch: &[u32],
    acceptable: &dyn Fn(&[[f32; 3]; 3]) -> bool,
) -> Decimated {
    let count = mesh.polygons.len();
    let mut polygons: Vec<Vec<u32>> = (0..count).map(|p| mesh.polygons.get(p).to_vec()).collect();
    let mut alive = vec![true; count];
    let mut patch_of: Vec<u32> = (0..count)
        .map(|p| patch.get(p).copied().unwrap_or(NONE))
        .collect();
    let mut source: Vec<u32> = (0..count as u32).collect();
    let mut incident: Vec<Vec<u32>> = vec![Vec::new(); mesh.vertices.len()];
    for (p, polygon) in polygons.iter().enumerate() {
        for &v in polygon {
            if let Some(list) = incident.get_mut(v as usize) {
                list.push(p as u32);
            }
        }
    }
    let position = |v: u32| mesh.vertex(v);
    let mut removed = 0usize;
    let mut fan: Vec<u32> = Vec::new();
    let mut outline: Vec<u32> = Vec::new();
    let mut order: Vec<u32> = Vec::new();
    for _ in 0..PASSES {
        let mut changed = false;
        for v in 0..mesh.vertices.len() as u32 {
            let Some(list) = incident.get_mut(v as usize) else {
                continue;
            };
            list.retain(|&p| alive.get(p as usize).copied().unwrap_or(false));
            list.dedup();
            fan.clear();
            fan.extend_from_slice(list);
            if fan.len() < 3 {
                continue;
            }
            let Some(&first) = fan.first() else {
                continue;
            };
            let the_patch = patch_of.get(first as usize).copied().unwrap_or(NONE);
            if the_patch == NONE
                || fan
                    .iter()
                    .any(|&p| patch_of.get(p as usize).copied() != Some(the_patch))
            {
                continue;
            }
            // Each incident polygon as (before v, after v); v must appear once in it.
            let mut ends: Vec<(u32, u32, u32)> = Vec::with_capacity(fan.len());
            let mut ok = true;
            for &p in &fan {
                let polygon = &polygons[p as usize];
                let n = polygon.len();
                let mut at = polygon.iter().enumerate().filter(|&(_, &w)| w == v);
                let (Some((k, _)), None) = (at.next(), at.next()) else {
                    ok = false;
                    break;
                };
                ends.push((polygon[(k + n - 1) % n], polygon[(k + 1) % n], p));
            }
            if !ok {
                continue;
            }
            // Walk the fan: after polygon (v, b, …, a) comes the one whose edge from v runs
            // to a. Every "after" vertex must be unique (one polygon per edge from v).
            ends.sort_unstable_by_key(|&(_, after, _)| after);
            if ends.windows(2).any(|w| w[0].1 == w[1].1) {
                continue;
            }
            order.clear();
            let mut current = 0usize;
            for _ in 0..ends.len() {
                order.push(current as u32);
                let before = ends[current].0;
                match ends.binary_search_by_key(&before, |&(_, after, _)| after) {
                    Ok(next) => current = next,
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            // A single cycle through every polygon (a boundary vertex or two fans fail here).
            if !ok || current != 0 {
                continue;
            }
            let mut seen: Vec<u32> = order.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() != ends.len() {
                continue;
            }
            // The fan's outline: each polygon's corners from after v up to (not including)
            // before v, which the next polygon starts with.
            outline.clear();
            for &i in &order {
                let (_, _, p) = ends[i as usize];
                let polygon = &polygons[p as usize];
                let n = polygon.len();
                let Some(k) = polygon.iter().position(|&w| w == v) else {
                    ok = false;
                    break;
                };
                for step in 1..n - 1 {
                    outline.push(polygon[(k + step) % n]);
                }
            }
            if !ok || outline.len() < 3 {
                continue;
            }
            let mut sorted = outline.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                continue;
            }
            let flat: Vec<[f32; 3]> = outline
                .iter()
                .map(|&w| {
                    let p = position(w);
                    [p[0], p[1], 0.0]
                })
                .collect();
            let split = triangulate_polygon(&flat);
            if !split.simple
                || split.dropped != 0
                || split.triangles.len() != outline.len() - 2
            {
                continue;
            }
            // Same footprint, every triangle counter-clockwise seen from above and cookable.
            let before: f64 = fan
                .iter()
                .map(|&p| {
                    let points: Vec<[f32; 3]> =
                        polygons[p as usize].iter().map(|&w| position(w)).collect();
                    xy_area2(&points)
                })
                .sum();
            let mut after = 0.0;
            let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(split.triangles.len());
            for t in &split.triangles {
                let (Some(&a), Some(&b), Some(&c)) =
                    (outline.get(t[0]), outline.get(t[1]), outline.get(t[2]))
                else {
                    ok = false;
                    break;
                };
                let corners = [position(a), position(b), position(c)];
                let area = xy_area2(&corners);
                if area <= 0.0 || !acceptable(&corners) {
                    ok = false;
                    break;
                }
                after += area;
                triangles.push([a, b, c]);
            }
            if !ok || (after - before).abs() > AREA_RELATIVE * before.abs() {
                continue;
            }
            let origin = source.get(first as usize).copied().unwrap_or(first);
            for &p in &fan {
                if let Some(slot) = alive.get_mut(p as usize) {
                    *slot = false;
                }
            }
            for triangle in triangles {
                let id = polygons.len() as u32;
                polygons.push(triangle.to_vec());
                alive.push(true);
                patch_of.push(the_patch);
                source.push(origin);
                for w in triangle {
                    if let Some(list) = incident.get_mut(w as usize) {
                        list.push(id);
                    }
                }
            }
            if let Some(list) = incident.get_mut(v as usize) {
                list.clear();
            }
            removed += 1;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    let mut out = NavMesh {
        kind: mesh.kind,
        vertices: mesh.vertices.clone(),
        ..NavMesh::default()
    };
    let mut kept_source = Vec::new();
    let mut original = Vec::new();
    for (p, polygon) in polygons.iter().enumerate() {
        if !alive[p] {
            continue;
        }
        let origin = source[p];
        // Every input polygon has a surface (`NavMesh::check`); the fallback is never used.
        let surface = mesh.surfaces.get(origin as usize).copied().unwrap_or(Surface {
            material: Material(0),
            walkable: true,
            code: 0,
        });
        out.push_polygon(polygon, surface);
        kept_source.push(origin);
        original.push(p < count);
    }
    Decimated {
        mesh: out,
        source: kept_source,
        original,
        removed,
    }
}
