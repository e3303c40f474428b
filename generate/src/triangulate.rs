//! A layer's faces: constrained Delaunay triangulation of its rings, triangles chosen by the
//! cells they cover, refined where they leave the render floor (`detail`), heights and
//! surfaces from the render floor.

use std::cell::RefCell;
use std::collections::HashMap;

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

mod detail;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

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
    /// The layer's rings in plan when every ring edge is in the triangulation (then each
    /// face lies wholly inside or outside them); None when an edge was refused.
    outline: Option<Vec<Vec<[f64; 2]>>>,
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

    /// A face with centre `p` is floor: inside the rings when all their edges are in the
    /// triangulation (exact: the thin faces the detail points make along a simplified edge
    /// that strays into the cells outside stay), else its centre's cell is in the layer (a
    /// refused edge cannot turn a hole into floor).
    fn face_inside(&self, p: [f64; 2]) -> bool {
        match &self.outline {
            Some(rings) => inside_rings(rings, p),
            None => self.inside(p),
        }
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

    /// Height of the render floor at `p` for detail sampling: [`Ground::height`]'s answer
    /// (cheaply where a triangle holding `p` lies within a step of the layer's floor), None
    /// where no render floor is near.
    fn sample_height(&self, p: [f64; 2]) -> Option<f32> {
        let ch = self.field.cell_height;
        let near = self.reference(p)? - ch / 2.0;
        let tolerance = self.params.max_climb + 2.0 * ch;
        let step = self.params.step_levels() as f32 * ch;
        let point = [p[0] as f32, p[1] as f32];
        match self.index.floor_holding(point, near, tolerance) {
            Some(hit) if (hit.z - near).abs() <= step => Some(hit.z),
            _ => match self.height(p) {
                (z, Some(_)) => Some(z),
                _ => None,
            },
        }
    }

    /// The cell is the low side of a step (a neighbour in the layer more than the slope
    /// allows over one cell above it): the step lines make it a riser, planar by design.
    fn riser(&self, (x, y): (i64, i64)) -> bool {
        let floor = |x: i64, y: i64| {
            self.layer
                .at(x, y)
                .and_then(|n| self.graph.nodes.get(n as usize))
                .map(|n| n.floor)
        };
        let Some(low) = floor(x, y) else {
            return false;
        };
        let step = self.params.step_levels();
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|(dx, dy)| floor(x + dx, y + dy).is_some_and(|high| high - low > step))
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

/// Every layer's faces in one mesh: its rings and step lines outlined, then triangulated
/// (`layer_mesh`), layer by layer, with progress on a terminal.
pub fn layers_mesh(
    layers: &[Layer],
    layer_of: &[u32],
    graph: &Graph,
    field: &Heightfield,
    index: &FloorIndex,
    params: &Params,
    report: &mut Report,
) -> NavMesh {
    let mut mesh = NavMesh::default();
    let corners = CornerHeights::default();
    for (id, layer) in layers.iter().enumerate() {
        walkmesh_core::progress::step(id as u64, layers.len() as u64);
        let context = crate::outline::Context {
            graph,
            field,
            layer_of,
            params,
        };
        let rings = crate::outline::rings(layer, id as u32, &context);
        let steps = crate::outline::step_segments(layer, &context);
        layer_mesh(
            layer, &rings, &steps, graph, field, index, params, &corners, &mut mesh, report,
        );
    }
    mesh
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
    let mut ground = Ground {
        corners,
        layer,
        graph,
        field,
        index,
        params,
        outline: None,
    };
    let mut cdt = Cdt::new();
    let cs = f64::from(field.cell_size);
    let corner = |c: [i64; 2]| {
        Point2::new(
            f64::from(field.origin[0]) + c[0] as f64 * cs,
            f64::from(field.origin[1]) + c[1] as f64 * cs,
        )
    };
    let mut heights: HashMap<usize, f32> = HashMap::new();
    let skipped_before = report.skipped_edges;
    let mut complete = true;
    for ring in rings {
        let corners: Vec<FixedVertexHandle> = ring
            .iter()
            .filter_map(|&c| cdt.insert(corner(c)).ok())
            .collect();
        complete &= corners.len() == ring.len();
        // Each edge goes in as a chain through its detail points (`detail::edge_points`).
        for (i, &from) in corners.iter().enumerate() {
            let Some(&to) = corners.get((i + 1) % corners.len()) else {
                continue;
            };
            if from == to {
                continue;
            }
            let ends = [from, to].map(|v| {
                let p = cdt.vertex(v).position();
                ([p.x, p.y], vertex_height(&cdt, &ground, &mut heights, v))
            });
            let [start, end] = ends;
            let points = detail::edge_points(&ground, start, end);
            let mut chain = vec![from];
            chain.extend(
                points
                    .iter()
                    .filter_map(|p| cdt.insert(Point2::new(p[0], p[1])).ok()),
            );
            chain.push(to);
            report.detail_points += chain.len() - 2;
            for pair in chain.windows(2) {
                if let [a, b] = *pair
                    && a != b
                    && cdt.try_add_constraint(a, b).is_empty()
                {
                    report.skipped_edges += 1;
                }
            }
        }
    }
    if complete && report.skipped_edges == skipped_before {
        let plan = |r: &Ring| r.iter().map(|&c| corner(c)).map(|p| [p.x, p.y]).collect();
        ground.outline = Some(rings.iter().map(plan).collect());
    }
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
    detail::refine(&mut cdt, &ground, &mut heights, report);
    emit(&cdt, &ground, &mut heights, mesh, report);
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

/// Appends the faces whose centre lies in the layer.
fn emit(
    cdt: &Cdt,
    ground: &Ground,
    heights: &mut HashMap<usize, f32>,
    mesh: &mut NavMesh,
    report: &mut Report,
) {
    let mut output: HashMap<usize, u32> = HashMap::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.positions();
        let centre = [(a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0];
        if !ground.face_inside(centre) {
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

/// Even-odd test of plan point `p` against closed rings.
fn inside_rings(rings: &[Vec<[f64; 2]>], p: [f64; 2]) -> bool {
    let mut inside = false;
    for ring in rings {
        for (i, a) in ring.iter().enumerate() {
            let Some(b) = ring.get((i + 1) % ring.len()) else {
                continue;
            };
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            {
                inside = !inside;
            }
        }
    }
    inside
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
