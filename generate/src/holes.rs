//! KotOR: the holes props cut in the walkable floor, filled with non-walkable faces.
//!
//! BioWare's room WOKs fill the floor under props with flat non-walkable (`NonWalk`) faces
//! that share the hole's edges with the walkable floor around it (818 m² over the 34 shared
//! rooms, all of it enclosed by walkable floor; docs/generate.md, "Non-walkable faces"). This
//! stage does the same for the generated floor: every hole of the walkable mesh (a boundary
//! loop running clockwise seen from above) is triangulated on its own vertices (constrained
//! Delaunay, `spade`) and the triangles are added as non-walkable faces, so the fill meets the
//! floor on the same vertices (no T-junction) and takes its heights from the hole's rim.
//!
//! A hole is left open when anything walkable lies inside it in plan (a table top, a block
//! top, a floor above or below: the fill would overlap it), when its loop passes a vertex
//! twice (two holes touching at a corner), or when the triangulation cannot keep every rim
//! edge. Walkability is unchanged: the fill is never walkable, so routes, reachability and
//! the walkable footprint are the same.

use std::collections::HashMap;

use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
use walkmesh_core::NavMesh;
use walkmesh_core::material::{Material, Surface};

use crate::graph::Graph;
use crate::voxel::Heightfield;

/// The KotOR neutral material of the fill (`NonWalk`, as BioWare's files have it).
pub const FILL: Surface = Surface {
    material: Material(7),
    walkable: false,
    code: 7,
};

/// Faces thinner than this (altitude over the longest side, plan, metres) are not added.
const MIN_ALTITUDE: f64 = 0.001;

// `Filled` lives in `report` (the report names it; `holes` needs `graph`, which needs
// `report`): re-exported here where it is made.
pub use crate::report::Filled;

/// The voxel floor the mesh was made from: what stands in a hole.
#[derive(Clone, Copy, Debug)]
pub struct Ground<'a> {
    pub field: &'a Heightfield,
    pub graph: &'a Graph,
    pub max_climb: f32,
}

/// Fills the holes of `mesh`'s walkable floor with non-walkable faces, where something
/// stands in them on the floor (see [`prop_stands_in`]).
pub fn fill(mesh: &mut NavMesh, ground: &Ground) -> Filled {
    let mut filled = Filled::default();
    let canonical = weld(mesh);
    for lp in hole_loops(mesh, &canonical) {
        let keep_open = covers_walkable(mesh, &lp) || !prop_stands_in(mesh, &lp, ground);
        match triangulate_hole(mesh, &lp) {
            Some(faces) if !faces.is_empty() && !keep_open => {
                filled.holes += 1;
                for t in faces {
                    filled.area += plan_area(mesh, &t).abs();
                    filled.faces += 1;
                    mesh.push_polygon(&t, FILL);
                }
            }
            _ => filled.left_open += 1,
        }
    }
    filled
}

/// For every vertex, the first vertex at exactly its position.
pub(crate) fn weld(mesh: &NavMesh) -> Vec<u32> {
    let mut first: HashMap<[u32; 3], u32> = HashMap::new();
    mesh.vertices
        .iter()
        .enumerate()
        .map(|(i, v)| *first.entry(v.map(f32::to_bits)).or_insert(i as u32))
        .collect()
}

/// The boundary loops of the walkable faces that run clockwise in plan (holes), as vertex
/// lists; loops through a vertex with more than one way on are skipped.
fn hole_loops(mesh: &NavMesh, canonical: &[u32]) -> Vec<Vec<u32>> {
    let at = |i: u32| canonical.get(i as usize).copied().unwrap_or(i);
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    let mut directed = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        for k in 0..corners.len() {
            let (Some(&a), Some(&b)) = (corners.get(k), corners.get((k + 1) % corners.len()))
            else {
                continue;
            };
            let (a, b) = (at(a), at(b));
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
            directed.push((a, b));
        }
    }
    let mut next: HashMap<u32, Vec<u32>> = HashMap::new();
    for (a, b) in directed {
        if count.get(&(a.min(b), a.max(b))) == Some(&1) {
            next.entry(a).or_default().push(b);
        }
    }
    let mut used: HashMap<u32, bool> = HashMap::new();
    let mut loops = Vec::new();
    let mut starts: Vec<u32> = next.keys().copied().collect();
    starts.sort_unstable();
    for start in starts {
        if used.get(&start).copied().unwrap_or(false) {
            continue;
        }
        let mut ring = vec![start];
        let mut simple = true;
        let mut current = start;
        loop {
            used.insert(current, true);
            let Some(outs) = next.get(&current) else {
                simple = false;
                break;
            };
            let &[to] = outs.as_slice() else {
                simple = false;
                break;
            };
            if to == start {
                break;
            }
            if used.get(&to).copied().unwrap_or(false) || ring.len() > next.len() {
                simple = false;
                break;
            }
            ring.push(to);
            current = to;
        }
        if simple && ring.len() >= 3 && ring_area(mesh, &ring) < 0.0 {
            loops.push(ring);
        }
    }
    loops
}

/// Signed plan area of a ring (positive counter-clockwise).
fn ring_area(mesh: &NavMesh, ring: &[u32]) -> f64 {
    let mut sum = 0.0;
    for (k, &a) in ring.iter().enumerate() {
        let b = ring.get((k + 1) % ring.len()).copied().unwrap_or(a);
        let (p, q) = (mesh.vertex(a), mesh.vertex(b));
        sum += f64::from(p[0]) * f64::from(q[1]) - f64::from(q[0]) * f64::from(p[1]);
    }
    sum / 2.0
}

/// Triangles (counter-clockwise in plan, the walkable faces' winding) covering the hole
/// `ring`, on its own vertices; None when a rim edge cannot be kept.
fn triangulate_hole(mesh: &NavMesh, ring: &[u32]) -> Option<Vec<[u32; 3]>> {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let mut vertex_of: HashMap<usize, u32> = HashMap::new();
    let mut handles = Vec::with_capacity(ring.len());
    for &v in ring {
        let p = mesh.vertex(v);
        let h = cdt
            .insert(Point2::new(f64::from(p[0]), f64::from(p[1])))
            .ok()?;
        if vertex_of.insert(h.index(), v).is_some() {
            return None; // two rim vertices at one plan point
        }
        handles.push(h);
    }
    for (k, &a) in handles.iter().enumerate() {
        let b = *handles.get((k + 1) % handles.len())?;
        if cdt.try_add_constraint(a, b).is_empty() {
            return None;
        }
    }
    let polygon: Vec<[f64; 2]> = ring
        .iter()
        .map(|&v| {
            let p = mesh.vertex(v);
            [f64::from(p[0]), f64::from(p[1])]
        })
        .collect();
    let mut out = Vec::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.positions();
        let centre = [(a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0];
        if !inside(&polygon, centre) {
            continue;
        }
        let corners = face
            .vertices()
            .map(|v| vertex_of.get(&v.fix().index()).copied());
        let [Some(x), Some(y), Some(z)] = corners else {
            return None;
        };
        if altitude([a, b, c].map(|p| [p.x, p.y])) >= MIN_ALTITUDE {
            out.push([x, y, z]);
        }
    }
    Some(out)
}

/// A prop stands in the hole: at most a quarter of the columns inside hold a walkable span
/// at or below the rim's level (up to a climb above its highest point), kept or not (more is
/// a pit's or an unreachable floor, not a prop's footprint; a crate's or a table's top
/// higher up is a prop's; a few narrow cells between a prop's parts are not a floor), and at
/// least half hold solid reaching the rim's floor level (within a climb below its lowest
/// point: a crate, a pillar, the floor under a table), not a chasm.
pub fn prop_stands_in(mesh: &NavMesh, ring: &[u32], ground: &Ground) -> bool {
    let polygon: Vec<[f64; 2]> = ring
        .iter()
        .map(|&v| {
            let p = mesh.vertex(v);
            [f64::from(p[0]), f64::from(p[1])]
        })
        .collect();
    let rim_low = ring
        .iter()
        .map(|&v| mesh.vertex(v)[2])
        .fold(f32::INFINITY, f32::min);
    let rim_high = ring
        .iter()
        .map(|&v| mesh.vertex(v)[2])
        .fold(f32::NEG_INFINITY, f32::max);
    let field = ground.field;
    let cs = f64::from(field.cell_size);
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in &polygon {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let cell = |value: f64, axis: usize| ((value - f64::from(field.origin[axis])) / cs).floor();
    let (x0, x1) = (cell(lo[0], 0) as i64, cell(hi[0], 0) as i64);
    let (y0, y1) = (cell(lo[1], 1) as i64, cell(hi[1], 1) as i64);
    let (mut inside_columns, mut solid, mut floor_columns) = (0usize, 0usize, 0usize);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let centre = [
                f64::from(field.origin[0]) + (x as f64 + 0.5) * cs,
                f64::from(field.origin[1]) + (y as f64 + 0.5) * cs,
            ];
            if !inside(&polygon, centre) {
                continue;
            }
            let Some(column) = field.column(x, y) else {
                continue;
            };
            let floor_below = ground.graph.column_nodes(column).any(|n| {
                ground
                    .graph
                    .nodes
                    .get(n)
                    .is_some_and(|node| field.z(node.floor) <= rim_high + ground.max_climb)
            });
            floor_columns += usize::from(floor_below);
            inside_columns += 1;
            let reaches = field.spans(column).is_some_and(|spans| {
                spans
                    .iter()
                    .any(|s| field.z(s.top) >= rim_low - ground.max_climb)
            });
            solid += usize::from(reaches);
        }
    }
    inside_columns == 0 || (4 * floor_columns <= inside_columns && 2 * solid >= inside_columns)
}

/// Something walkable lies inside the hole in plan (its face centre inside the ring).
fn covers_walkable(mesh: &NavMesh, ring: &[u32]) -> bool {
    let polygon: Vec<[f64; 2]> = ring
        .iter()
        .map(|&v| {
            let p = mesh.vertex(v);
            [f64::from(p[0]), f64::from(p[1])]
        })
        .collect();
    mesh.polygons.iter().enumerate().any(|(p, corners)| {
        if !mesh.is_walkable(p) || corners.is_empty() {
            return false;
        }
        let n = corners.len() as f64;
        let centre = corners.iter().fold([0.0f64; 2], |s, &i| {
            let v = mesh.vertex(i);
            [s[0] + f64::from(v[0]) / n, s[1] + f64::from(v[1]) / n]
        });
        inside(&polygon, centre)
    })
}

/// Even-odd point-in-polygon test.
fn inside(polygon: &[[f64; 2]], p: [f64; 2]) -> bool {
    let mut odd = false;
    for (k, a) in polygon.iter().enumerate() {
        let Some(b) = polygon.get((k + 1) % polygon.len()) else {
            continue;
        };
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                odd = !odd;
            }
        }
    }
    odd
}

fn altitude(t: [[f64; 2]; 3]) -> f64 {
    let [a, b, c] = t;
    let area2 = ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs();
    let side = |p: [f64; 2], q: [f64; 2]| (q[0] - p[0]).hypot(q[1] - p[1]);
    let longest = side(a, b).max(side(b, c)).max(side(c, a));
    if longest > 0.0 { area2 / longest } else { 0.0 }
}

fn plan_area(mesh: &NavMesh, t: &[u32; 3]) -> f64 {
    let [a, b, c] = t.map(|i| mesh.vertex(i).map(f64::from));
    ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2.0
}
