//! A layer's faces: constrained Delaunay triangulation of its rings, triangles chosen by the
//! cells they cover, refined where they leave the render floor, heights and surfaces from
//! the render floor.

use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
use walkmesh_core::NavMesh;
use walkmesh_core::material::Surface;

use crate::Params;
use crate::floor::FloorIndex;
use crate::graph::{Graph, Layer};
use crate::outline::{Edge, Ring};
use crate::report::Report;
use crate::voxel::Heightfield;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Rounds of detail refinement, and the most points one layer may gain.
const DETAIL_ROUNDS: usize = 6;
const DETAIL_POINTS_PER_CELL: f64 = 0.25;

/// Heights already given to outline corners, by grid corner, across layers: a corner two
/// layers share gets one height, so their vertices coincide exactly (no T-junction from a
/// height differing in the last bits). Stacked floors at one corner keep their own heights.
pub type CornerHeights = RefCell<HashMap<(i64, i64), Vec<f32>>>;

/// Everything a layer's height look-ups need.
struct Ground<'a> {
    corners: &'a CornerHeights,
    layer: &'a Layer,
    graph: &'a Graph,
    field: &'a Heightfield,
    index: &'a FloorIndex<'a>,
    params: &'a Params,
}

impl Ground<'_> {
    /// The cell of plan point `p` (may be outside the layer).
    fn cell(&self, p: [f64; 2]) -> (i64, i64) {
        let cs = f64::from(self.field.cell_size);
        (
            ((p[0] - f64::from(self.field.origin[0])) / cs).floor() as i64,
            ((p[1] - f64::from(self.field.origin[1])) / cs).floor() as i64,
        )
    }

    fn inside(&self, p: [f64; 2]) -> bool {
        let (x, y) = self.cell(p);
        self.layer.at(x, y).is_some()
    }

    /// Floor level of the layer near `p`: its node in the cell holding `p` or, for a point on
    /// the outline, in the nearest cell around it.
    fn reference(&self, p: [f64; 2]) -> Option<f32> {
        let cs = f64::from(self.field.cell_size);
        if let Some(top) = self.corner_top(p) {
            return Some(top);
        }
        let (x, y) = self.cell(p);
        let mut best: Option<(f64, u32)> = None;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(n) = self.layer.at(x + dx, y + dy) else {
                    continue;
                };
                let cx = f64::from(self.field.origin[0]) + ((x + dx) as f64 + 0.5) * cs;
                let cy = f64::from(self.field.origin[1]) + ((y + dy) as f64 + 0.5) * cs;
                let d = (cx - p[0]).powi(2) + (cy - p[1]).powi(2);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, n));
                }
            }
        }
        let node = self.graph.nodes.get(best?.1 as usize)?;
        Some(self.field.z(node.floor))
    }

    /// Floor level of a grid corner: the highest of the layer's cells around it, so the
    /// corners on the top edge of a step stay on the upper floor (the step's foot is a cell
    /// away, see [`crate::outline::step_segments`]). None off the grid's corners.
    fn corner_top(&self, p: [f64; 2]) -> Option<f32> {
        let cs = f64::from(self.field.cell_size);
        let gx = (p[0] - f64::from(self.field.origin[0])) / cs;
        let gy = (p[1] - f64::from(self.field.origin[1])) / cs;
        if (gx - gx.round()).abs() > 1e-6 || (gy - gy.round()).abs() > 1e-6 {
            return None;
        }
        let (cx, cy) = (gx.round() as i64, gy.round() as i64);
        [(-1, -1), (0, -1), (-1, 0), (0, 0)]
            .iter()
            .filter_map(|(dx, dy)| self.layer.at(cx + dx, cy + dy))
            .filter_map(|n| self.graph.nodes.get(n as usize))
            .map(|n| n.floor)
            .max()
            .map(|level| self.field.z(level))
    }

    /// Height of a vertex: a grid corner reuses the height another layer gave it when that
    /// is within a climb of this layer's floor there.
    fn vertex_height(&self, p: [f64; 2]) -> f32 {
        let cs = f64::from(self.field.cell_size);
        let gx = (p[0] - f64::from(self.field.origin[0])) / cs;
        let gy = (p[1] - f64::from(self.field.origin[1])) / cs;
        let on_corner = (gx - gx.round()).abs() < 1e-6 && (gy - gy.round()).abs() < 1e-6;
        if !on_corner {
            return self.height(p).0;
        }
        let key = (gx.round() as i64, gy.round() as i64);
        let reference = self.reference(p).unwrap_or(0.0);
        let tolerance = self.params.max_climb + self.field.cell_height;
        let mut cache = self.corners.borrow_mut();
        let known = cache.entry(key).or_default();
        let nearest = known
            .iter()
            .copied()
            .filter(|z| (z - reference).abs() <= tolerance)
            .min_by(|a, b| (a - reference).abs().total_cmp(&(b - reference).abs()));
        if let Some(z) = nearest {
            return z;
        }
        let z = self.height(p).0;
        known.push(z);
        z
    }

    /// Height of the render floor at `p` and the source triangle giving it.
    fn height(&self, p: [f64; 2]) -> (f32, Option<usize>) {
        let ch = self.field.cell_height;
        let Some(reference) = self.reference(p) else {
            return (0.0, None);
        };
        let tolerance = self.params.max_climb + 2.0 * ch;
        let point = [p[0] as f32, p[1] as f32];
        // The voxel top is up to one cell height above the surface that made it.
        let step = self.params.step_levels() as f32 * ch;
        match self
            .index
            .floor_at(point, reference - ch / 2.0, tolerance, step)
        {
            Some(hit) if hit.distance <= 2.0 * self.field.cell_size => (hit.z, Some(hit.triangle)),
            _ => (reference - ch / 2.0, None),
        }
    }
}

/// Triangulates one layer and appends its faces to `mesh`.
#[allow(clippy::too_many_arguments)]
pub fn layer_mesh(
    layer: &Layer,
    rings: &[Ring],
    steps: &[Edge],
    graph: &Graph,
    field: &Heightfield,
    index: &FloorIndex,
    params: &Params,
    corners: &CornerHeights,
    mesh: &mut NavMesh,
    report: &mut Report,
) {
    let ground = Ground {
        corners,
        layer,
        graph,
        field,
        index,
        params,
    };
    let mut cdt = Cdt::new();
    let cs = f64::from(field.cell_size);
    let corner = |c: [i64; 2]| {
        Point2::new(
            f64::from(field.origin[0]) + c[0] as f64 * cs,
            f64::from(field.origin[1]) + c[1] as f64 * cs,
        )
    };
    let skipped_before = report.skipped_edges;
    for ring in rings {
        let handles: Vec<FixedVertexHandle> = ring
            .iter()
            .filter_map(|&c| cdt.insert(corner(c)).ok())
            .collect();
        for (i, &from) in handles.iter().enumerate() {
            let Some(&to) = handles.get((i + 1) % handles.len()) else {
                continue;
            };
            if from != to && cdt.try_add_constraint(from, to).is_empty() {
                report.skipped_edges += 1;
            }
        }
    }
    // With every ring edge in, the rings bound the layer exactly: a face is inside when
    // reaching it from outside crosses ring edges an odd number of times. A ring edge left
    // out opens the rings, and then only the cell test below decides.
    let ring_edges = (report.skipped_edges == skipped_before).then(|| ring_edge_set(&cdt));
    // Step lines lie on grid lines inside the layer; one crossing a simplified ring edge
    // near the outline is left out (the ring decides the footprint).
    for (from, to) in steps {
        if let (Ok(a), Ok(b)) = (cdt.insert(corner(*from)), cdt.insert(corner(*to)))
            && a != b
            && cdt.can_add_constraint(a, b)
        {
            cdt.add_constraint(a, b);
        }
    }
    let mut heights: HashMap<usize, f32> = HashMap::new();
    refine(&mut cdt, &ground, &mut heights, report);
    let inside = ring_edges.map(|edges| inside_rings(&cdt, &edges));
    emit(&cdt, &ground, inside.as_ref(), &mut heights, mesh, report);
}

/// The constraint edges of the triangulation (by their vertices' indices, smaller first):
/// taken after the rings are in and before the step lines, so these are the ring edges.
fn ring_edge_set(cdt: &Cdt) -> HashSet<(usize, usize)> {
    cdt.undirected_edges()
        .filter(|e| cdt.is_constraint_edge(e.fix()))
        .map(|e| {
            let [a, b] = e.vertices().map(|v| v.fix().index());
            (a.min(b), a.max(b))
        })
        .collect()
}

/// Which inner faces (by index) lie inside the rings: flood fill from the faces on the
/// convex hull, flipping at every ring edge crossed. A simplified ring can cut a bump of
/// cells off the layer; a face outside the rings whose centre falls in such a cell was kept
/// by the cell test alone and could reach across a neighbouring layer's cell (an overlap).
fn inside_rings(cdt: &Cdt, ring_edges: &HashSet<(usize, usize)>) -> HashSet<usize> {
    let is_ring = |e: [usize; 2]| ring_edges.contains(&(e[0].min(e[1]), e[0].max(e[1])));
    let mut parity: HashMap<usize, bool> = HashMap::new();
    let mut queue = Vec::new();
    for face in cdt.inner_faces() {
        for e in face.adjacent_edges() {
            let ends = [e.from().fix().index(), e.to().fix().index()];
            if e.rev().face().as_inner().is_none()
                && let Entry::Vacant(slot) = parity.entry(face.fix().index())
            {
                slot.insert(is_ring(ends));
                queue.push(face.fix());
            }
        }
    }
    while let Some(f) = queue.pop() {
        let here = parity.get(&f.index()).copied().unwrap_or(false);
        for e in cdt.face(f).adjacent_edges() {
            let Some(next) = e.rev().face().as_inner() else {
                continue;
            };
            let ends = [e.from().fix().index(), e.to().fix().index()];
            if let Entry::Vacant(slot) = parity.entry(next.fix().index()) {
                slot.insert(here ^ is_ring(ends));
                queue.push(next.fix());
            }
        }
    }
    parity
        .into_iter()
        .filter(|&(_, inside)| inside)
        .map(|(f, _)| f)
        .collect()
}

/// Height of a CDT vertex, looked up once.
fn vertex_height(
    cdt: &Cdt,
    ground: &Ground,
    heights: &mut HashMap<usize, f32>,
    v: FixedVertexHandle,
) -> f32 {
    *heights.entry(v.index()).or_insert_with(|| {
        let p = cdt.vertex(v).position();
        ground.vertex_height([p.x, p.y])
    })
}

/// Inserts face centres where the face's plane is more than `detail_error` off the floor.
fn refine(cdt: &mut Cdt, ground: &Ground, heights: &mut HashMap<usize, f32>, report: &mut Report) {
    let cs = f64::from(ground.field.cell_size);
    let budget = (ground.layer.nodes.len() as f64 * DETAIL_POINTS_PER_CELL) as usize + 16;
    let mut added = 0;
    let error = ground.params.detail_error;
    let step = ground.params.step_levels() as f32 * ground.field.cell_height;
    for _ in 0..DETAIL_ROUNDS {
        let mut wanted = Vec::new();
        for face in cdt.inner_faces() {
            let [a, b, c] = face.positions();
            let centre = [(a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0];
            let area = ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)).abs() / 2.0;
            if area < cs * cs || thin(&[a, b, c], area, cs) || !ground.inside(centre) {
                continue;
            }
            let vs = face.vertices().map(|v| v.fix());
            let [za, zb, zc] = vs.map(|v| heights.get(&v.index()).copied());
            let (Some(za), Some(zb), Some(zc)) = (za, zb, zc) else {
                wanted.push((vs, centre));
                continue;
            };
            if za.max(zb).max(zc) - za.min(zb).min(zc) > step {
                continue; // a riser between two floors: planar by design
            }
            let (floor, hit) = ground.height(centre);
            if hit.is_some() && ((za + zb + zc) / 3.0 - floor).abs() > error {
                wanted.push((vs, centre));
            }
        }
        let mut inserted = false;
        for (vs, centre) in wanted {
            let missing: Vec<FixedVertexHandle> = vs
                .into_iter()
                .filter(|v| !heights.contains_key(&v.index()))
                .collect();
            for v in missing {
                vertex_height(cdt, ground, heights, v);
            }
            let all_known = vs.iter().all(|v| heights.contains_key(&v.index()));
            let (floor, hit) = ground.height(centre);
            let plane = vs
                .iter()
                .filter_map(|v| heights.get(&v.index()))
                .sum::<f32>()
                / 3.0;
            if all_known
                && hit.is_some()
                && (plane - floor).abs() > error
                && added < budget
                && cdt.insert(Point2::new(centre[0], centre[1])).is_ok()
            {
                added += 1;
                inserted = true;
            }
        }
        if !inserted {
            break;
        }
    }
    report.detail_points += added;
}

/// A face narrower than a quarter cell somewhere (its smallest altitude, twice the area over
/// the longest side): its centre lies within a twelfth of a cell of an edge, and a point
/// there would make needles, which the repair stage removes, folding their neighbours over
/// each other (m50aa_01a's last overlap).
fn thin(corners: &[Point2<f64>; 3], area: f64, cs: f64) -> bool {
    let [a, b, c] = corners;
    let side =
        |p: &Point2<f64>, q: &Point2<f64>| ((q.x - p.x).powi(2) + (q.y - p.y).powi(2)).sqrt();
    let longest = side(a, b).max(side(b, c)).max(side(c, a));
    2.0 * area / longest.max(f64::MIN_POSITIVE) < cs / 4.0
}

/// Appends the faces whose centre lies in the layer (and inside the rings, when known).
fn emit(
    cdt: &Cdt,
    ground: &Ground,
    inside: Option<&HashSet<usize>>,
    heights: &mut HashMap<usize, f32>,
    mesh: &mut NavMesh,
    report: &mut Report,
) {
    let mut output: HashMap<usize, u32> = HashMap::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.positions();
        let centre = [(a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0];
        if !ground.inside(centre) || inside.is_some_and(|set| !set.contains(&face.fix().index())) {
            continue;
        }
        let mut corners = [0u32; 3];
        for (slot, v) in corners.iter_mut().zip(face.vertices()) {
            let fixed = v.fix();
            let z = vertex_height(cdt, ground, heights, fixed);
            *slot = *output.entry(fixed.index()).or_insert_with(|| {
                let p = v.position();
                mesh.vertices.push([p.x as f32, p.y as f32, z]);
                (mesh.vertices.len() - 1) as u32
            });
        }
        let surface = ground
            .height(centre)
            .1
            .and_then(|t| ground.index.triangle(t))
            .map_or_else(|| default_surface(ground.params), |t| t.surface);
        *report
            .materials
            .entry(surface.material.name().into_owned())
            .or_default() += 1;
        mesh.push_polygon(&corners, surface);
    }
}

fn default_surface(params: &Params) -> Surface {
    Surface {
        material: params.default_material,
        walkable: true,
        code: u32::from(params.default_material.0),
    }
}

/// True 3-D area of the walkable faces.
pub fn walkable_area(mesh: &NavMesh) -> f64 {
    mesh.polygons
        .iter()
        .enumerate()
        .filter(|&(p, _)| mesh.is_walkable(p))
        .map(|(_, corners)| {
            let v: Vec<[f64; 3]> = corners
                .iter()
                .map(|&i| mesh.vertex(i).map(f64::from))
                .collect();
            let Some(&a) = v.first() else { return 0.0 };
            v.windows(2)
                .skip(1)
                .filter_map(|w| Some((*w.first()?, *w.get(1)?)))
                .map(|(b, c)| {
                    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
                    let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
                    let n = [
                        u[1] * w[2] - u[2] * w[1],
                        u[2] * w[0] - u[0] * w[2],
                        u[0] * w[1] - u[1] * w[0],
                    ];
                    (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() / 2.0
                })
                .sum::<f64>()
        })
        .sum()
}
