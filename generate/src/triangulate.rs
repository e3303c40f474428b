//! A layer's faces: constrained Delaunay triangulation of its rings, triangles chosen by the
//! cells they cover, refined where they leave the render floor (`detail`), heights and
//! surfaces from the render floor. For NWN2 the TRX tile lines are constraints too
//! ([`crate::tiles`]): no face crosses a tile, each layer's share of a tile is triangulated
//! on its own.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
use walkmesh_core::NavMesh;
use walkmesh_core::material::Surface;

use crate::Params;
use crate::floor::FloorIndex;
use crate::graph::{Graph, Layer};
use crate::outline::{Edge, Ring};
use crate::report::Report;
use crate::tiles::{SNAP, TileLines};
use crate::voxel::Heightfield;

mod detail;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Heights already given to outline corners and to points on NWN2 tile lines, across layers:
/// a point two layers share gets one height, so their vertices coincide exactly (no
/// T-junction from a height differing in the last bits). Stacked floors at one point keep
/// their own heights.
pub type CornerHeights = RefCell<HashMap<HeightKey, Vec<f32>>>;

/// A point whose height is shared across layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeightKey {
    /// A corner of the cell grid.
    Corner(i64, i64),
    /// A point on a tile line off the grid's corners (where an outline crosses it), by its
    /// exact plan coordinates: both layers compute it bit for bit (`TileLines::crossings`).
    OnTileLine(u64, u64),
}

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
    /// The tile lines the floor is cut at (NWN2), if any.
    tiles: Option<TileLines>,
}

impl Ground<'_> {
    /// Plan position of grid corner `c`, put on a tile line within [`SNAP`] of one.
    fn plan(&self, c: [i64; 2]) -> [f64; 2] {
        let cs = f64::from(self.field.cell_size);
        let p = [
            f64::from(self.field.origin[0]) + c[0] as f64 * cs,
            f64::from(self.field.origin[1]) + c[1] as f64 * cs,
        ];
        match self.tiles {
            Some(tiles) => tiles.snap_point(p),
            None => p,
        }
    }

    /// The grid corner at plan point `p`, if it is one (a corner a tile line moved onto
    /// itself is up to [`SNAP`] away along that axis).
    fn grid_corner(&self, p: [f64; 2]) -> Option<(i64, i64)> {
        let cs = f64::from(self.field.cell_size);
        let index = |v: f64, origin: f32| -> Option<i64> {
            let g = (v - f64::from(origin)) / cs;
            let slack = match self.tiles {
                Some(tiles) if tiles.on_line(v) => SNAP / cs,
                _ => 1e-6,
            };
            ((g - g.round()).abs() <= slack).then_some(g.round() as i64)
        };
        Some((
            index(p[0], self.field.origin[0])?,
            index(p[1], self.field.origin[1])?,
        ))
    }

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
        let (cx, cy) = self.grid_corner(p)?;
        [(-1, -1), (0, -1), (-1, 0), (0, 0)]
            .iter()
            .filter_map(|(dx, dy)| self.layer.at(cx + dx, cy + dy))
            .filter_map(|n| self.graph.nodes.get(n as usize))
            .map(|n| n.floor)
            .max()
            .map(|level| self.field.z(level))
    }

    /// Height of a vertex: a grid corner (or a point on a tile line) reuses the height
    /// another layer gave it when that is within a climb of this layer's floor there.
    fn vertex_height(&self, p: [f64; 2]) -> f32 {
        let on_tile_line = self
            .tiles
            .is_some_and(|t| t.on_line(p[0]) || t.on_line(p[1]));
        let key = match self.grid_corner(p) {
            Some((x, y)) => HeightKey::Corner(x, y),
            None if on_tile_line => HeightKey::OnTileLine(p[0].to_bits(), p[1].to_bits()),
            None => return self.height(p).0,
        };
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
        tiles: TileLines::for_params(params),
    };
    let mut build = Build {
        cdt: Cdt::new(),
        heights: HashMap::new(),
        on_lines: BTreeMap::new(),
    };
    let skipped_before = report.skipped_edges;
    let plan_rings = build.rings(&ground, rings, report);
    if let Some(plan_rings) = plan_rings
        && report.skipped_edges == skipped_before
    {
        ground.outline = Some(plan_rings);
    }
    build.steps(&ground, steps, report);
    build.tile_lines(&ground, report);
    let Build {
        mut cdt,
        mut heights,
        ..
    } = build;
    detail::refine(&mut cdt, &ground, &mut heights, report);
    emit(&cdt, &ground, &mut heights, mesh, report);
}

/// A layer's triangulation being built: the CDT, the heights of its vertices, and the
/// vertices lying on each tile line (axis, line number), in a sorted map so that the lines go
/// in in one order every run (the triangulation of cocircular grid points depends on it).
struct Build {
    cdt: Cdt,
    heights: HashMap<usize, f32>,
    on_lines: BTreeMap<(usize, i64), Vec<FixedVertexHandle>>,
}

impl Build {
    /// Inserts plan point `p`, noting it under every tile line it lies on.
    fn insert(&mut self, ground: &Ground, p: [f64; 2]) -> Option<FixedVertexHandle> {
        let v = self.cdt.insert(Point2::new(p[0], p[1])).ok()?;
        if let Some(tiles) = ground.tiles {
            for (axis, &c) in p.iter().enumerate() {
                if tiles.on_line(c) {
                    let line = (c / tiles.width()).round() as i64;
                    self.on_lines.entry((axis, line)).or_default().push(v);
                }
            }
        }
        Some(v)
    }

    /// The points where the segment from `a` to `b` crosses tile lines (none without them).
    fn crossings(ground: &Ground, a: [f64; 2], b: [f64; 2]) -> Vec<[f64; 2]> {
        ground
            .tiles
            .map_or_else(Vec::new, |tiles| tiles.crossings(a, b))
    }

    /// Puts in every ring as constraint chains: each edge split where it crosses a tile line,
    /// each piece through its detail points (`detail::edge_points`). Returns the rings in
    /// plan (crossings included) when every corner went in.
    fn rings(
        &mut self,
        ground: &Ground,
        rings: &[Ring],
        report: &mut Report,
    ) -> Option<Vec<Vec<[f64; 2]>>> {
        let mut complete = true;
        let mut plan_rings = Vec::with_capacity(rings.len());
        for ring in rings {
            let corners: Vec<(FixedVertexHandle, [f64; 2])> = ring
                .iter()
                .map(|&c| ground.plan(c))
                .filter_map(|p| Some((self.insert(ground, p)?, p)))
                .collect();
            complete &= corners.len() == ring.len();
            let mut plan = Vec::with_capacity(corners.len());
            for (i, &(from, a)) in corners.iter().enumerate() {
                let Some(&(to, b)) = corners.get((i + 1) % corners.len()) else {
                    continue;
                };
                plan.push(a);
                if from == to {
                    continue;
                }
                let mut pieces = vec![from];
                for p in Self::crossings(ground, a, b) {
                    if let Some(v) = self.insert(ground, p) {
                        report.tile_line_points += 1;
                        pieces.push(v);
                        plan.push(p);
                    }
                }
                pieces.push(to);
                for pair in pieces.windows(2) {
                    if let [u, w] = *pair {
                        self.chain(ground, u, w, report);
                    }
                }
            }
            plan_rings.push(plan);
        }
        complete.then_some(plan_rings)
    }

    /// A constraint from `from` to `to` through its detail points; a piece that would cross
    /// another constraint is left out and counted.
    fn chain(
        &mut self,
        ground: &Ground,
        from: FixedVertexHandle,
        to: FixedVertexHandle,
        report: &mut Report,
    ) -> usize {
        if from == to {
            return 0;
        }
        let ends = [from, to].map(|v| {
            let p = self.cdt.vertex(v).position();
            (
                [p.x, p.y],
                vertex_height(&self.cdt, ground, &mut self.heights, v),
            )
        });
        let [start, end] = ends;
        let points = detail::edge_points(ground, start, end);
        let mut chain = vec![from];
        chain.extend(
            points
                .iter()
                .filter_map(|p| self.cdt.insert(Point2::new(p[0], p[1])).ok()),
        );
        chain.push(to);
        let added = chain.len() - 2;
        report.detail_points += added;
        for pair in chain.windows(2) {
            if let [a, b] = *pair
                && a != b
                && self.cdt.try_add_constraint(a, b).is_empty()
            {
                report.skipped_edges += 1;
            }
        }
        added
    }

    /// Step lines lie on grid lines inside the layer; a piece crossing a simplified ring edge
    /// near the outline is left out (the ring decides the footprint). Split at tile lines.
    fn steps(&mut self, ground: &Ground, steps: &[Edge], report: &mut Report) {
        for (from, to) in steps {
            let (a, b) = (ground.plan(*from), ground.plan(*to));
            let crossings = Self::crossings(ground, a, b);
            report.tile_line_points += crossings.len();
            let mut points = vec![a];
            points.extend(crossings);
            points.push(b);
            let handles: Vec<Option<FixedVertexHandle>> =
                points.iter().map(|&p| self.insert(ground, p)).collect();
            for pair in handles.windows(2) {
                if let [Some(a), Some(b)] = *pair
                    && a != b
                    && self.cdt.can_add_constraint(a, b)
                {
                    self.cdt.add_constraint(a, b);
                }
            }
        }
    }

    /// The tile lines inside the layer as constraints: along each line, between consecutive
    /// points on it (every ring crossing is one, so a stretch is wholly inside or outside),
    /// each stretch inside the rings not yet a constraint goes in through its detail points.
    fn tile_lines(&mut self, ground: &Ground, report: &mut Report) {
        self.tile_corners(ground, report);
        let lines = std::mem::take(&mut self.on_lines);
        for ((axis, _), vertices) in lines {
            let along = 1 - axis;
            let mut points: Vec<(f64, FixedVertexHandle)> = vertices
                .into_iter()
                .map(|v| {
                    let p = self.cdt.vertex(v).position();
                    (if along == 0 { p.x } else { p.y }, v)
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points.dedup_by_key(|p| p.1);
            for pair in points.windows(2) {
                let [(_, a), (_, b)] = *pair else {
                    continue;
                };
                if a == b || self.is_constraint(a, b) {
                    continue;
                }
                let (pa, pb) = (self.cdt.vertex(a).position(), self.cdt.vertex(b).position());
                let middle = [(pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0];
                if ground.face_inside(middle) {
                    report.tile_line_points += self.chain(ground, a, b, report);
                }
            }
        }
    }

    /// Where a line of each axis crosses inside the layer, the tile corner goes in first, so
    /// that the two lines meet at a vertex rather than cross each other's constraints.
    fn tile_corners(&mut self, ground: &Ground, report: &mut Report) {
        let Some(tiles) = ground.tiles else {
            return;
        };
        let numbers = |axis: usize| -> Vec<i64> {
            self.on_lines
                .keys()
                .filter(|(a, _)| *a == axis)
                .map(|&(_, k)| k)
                .collect()
        };
        let (xs, ys) = (numbers(0), numbers(1));
        for &kx in &xs {
            for &ky in &ys {
                let corner = [kx as f64 * tiles.width(), ky as f64 * tiles.width()];
                if ground.face_inside(corner) && self.insert(ground, corner).is_some() {
                    report.tile_line_points += 1;
                }
            }
        }
    }

    /// `a` and `b` are joined by a constraint edge already.
    fn is_constraint(&self, a: FixedVertexHandle, b: FixedVertexHandle) -> bool {
        self.cdt
            .get_edge_from_neighbors(a, b)
            .is_some_and(|e| self.cdt.is_constraint_edge(e.as_undirected().fix()))
    }
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
