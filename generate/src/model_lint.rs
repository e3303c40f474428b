//! What the model says about a walkmesh (`walkmesh lint WALKMESH --model MODEL`, issue #49):
//! the walkmesh against generate's voxel picture of the render geometry ([`Picture`]: the
//! same preset, agent and options as `generate`), as lint findings with stable codes.
//!
//! The walkmesh's walkable faces are sampled once per voxel column whose centre they cover
//! (a face covering no centre, at its centroid). Each sample is judged against the spans of
//! its column ([`Verdict`]): solid over it within the agent's height (inside a prop or a wall),
//! no render surface within [`Tolerances::air_depth`] under it (walking on air), or the
//! nearest render surface more than [`Tolerances::height`] below or above it (floating,
//! sinking). Samples of one verdict in neighbouring columns are one finding, with its faces,
//! area, a position on it (`at`) and the largest offset. Walkable edges are followed through
//! the columns they cross for walls standing across them; the picture's walkable floor that a
//! character reaches from the walkmesh's walkable faces without the walkmesh covering it is
//! missing floor (an invisible wall). [`fit`] finds where the walkmesh sits on the model (a
//! KotOR room WOK is stored at its layout position), which also tells a wrong layout offset.
//!
//! Positions (`at`) are in the walkmesh's frame; the model is moved by the shift onto it.

use std::collections::{HashMap, HashSet};

use walkmesh_core::{NavMesh, Severity};
use walkmesh_lint::{Finding, Level};

use crate::budget::{Budget, bytes_of, mesh_bytes};
use crate::floor::{FloorIndex, Source};
use crate::graph::{DIRECTIONS, Graph};
use crate::voxel::{Heightfield, Span};
use crate::{GenerateError, Params};

/// Walkable area with no render surface under it within [`Tolerances::air_depth`].
pub const WALK_ON_AIR: &str = "model.walk_on_air";
/// Walkable surface more than [`Tolerances::height`] above the render floor.
pub const FLOATING: &str = "model.floating";
/// Walkable surface more than [`Tolerances::height`] under the render floor.
pub const SINKING: &str = "model.sinking";
/// Walkable area inside render solids or under something lower than the agent.
pub const INSIDE_SOLID: &str = "model.inside_solid";
/// A walkable edge crossing a render wall within the agent's height.
pub const EDGE_THROUGH_WALL: &str = "model.edge_through_wall";
/// Render floor a character reaches from the walkable area that the walkmesh leaves out.
pub const MISSING_FLOOR: &str = "model.missing_floor";
/// (Areas) a room's walkmesh that fits its model at another layout position.
pub const LYT_OFFSET: &str = "model.lyt_offset";

/// Every code of the comparison, in report order.
pub const CODES: [&str; 7] = [
    WALK_ON_AIR,
    FLOATING,
    SINKING,
    INSIDE_SOLID,
    EDGE_THROUGH_WALL,
    MISSING_FLOOR,
    LYT_OFFSET,
];

/// Distances (m) and areas (m²) of the comparison (docs/lint.md, "Against the model").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// Walkable surface further than this from the render floor floats or sinks.
    pub height: f32,
    /// No render surface this far under a walkable point: it walks on air.
    pub air_depth: f32,
    /// Render solid reaching more than this above a walkable point (and starting within the
    /// agent's height) stands in its way; a render floor less far above it is one it sinks
    /// under.
    pub sink_depth: f32,
    /// Findings of a smaller area are not reported.
    pub min_area: f32,
    /// Findings (other than missing floor) of at least this area are in the default group,
    /// smaller ones pedantic.
    pub default_area: f32,
    /// Missing floor of at least this area is in the default group, smaller pedantic.
    pub missing_area: f32,
    /// Walkable area inside solid is in the default group when at least this much of it is
    /// under solid that stops a body ([`BODY`]): BioWare's rooms let walkable faces reach a
    /// few tenths of a square metre under props' overhangs.
    pub solid_area: f32,
    /// Floating or sinking surface is in the default group when it covers at least
    /// `offset_area` and its median offset is at least `offset_height`: BioWare's walkmeshes
    /// follow sloped terrain and catwalk trims only to within a few tenths.
    pub offset_area: f32,
    pub offset_height: f32,
}

impl Default for Tolerances {
    fn default() -> Tolerances {
        Tolerances {
            height: 0.15,
            air_depth: 1.0,
            sink_depth: 0.5,
            min_area: 0.05,
            default_area: 0.25,
            missing_area: 1.0,
            solid_area: 0.5,
            offset_area: 1.0,
            offset_height: 0.25,
        }
    }
}

/// Generate's picture of the render geometry: its voxel heightfield and walkable graph.
pub struct Picture {
    source: Source,
    field: Heightfield,
    graph: Graph,
    params: Params,
    budget: Budget,
    /// Cell bounds of the walkable floor (first and last column and row).
    floor_box: Option<[i64; 4]>,
}

/// Walkable area on air within this distance (m) of the render floor's plan box may be the
/// strip into a neighbouring room's doorway rather than a defect (see [`air_is_a_defect`]).
pub const DOORWAY_DEPTH: f32 = 1.0;

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Picture")
            .field("grid", &[self.field.width, self.field.height])
            .field("walkable_spans", &self.graph.nodes.len())
            .finish_non_exhaustive()
    }
}

impl Picture {
    /// Voxelises `render` as `generate` does with `params` (memory claimed first against
    /// `params.max_memory_mib`).
    pub fn of(render: &NavMesh, params: &Params) -> Result<Picture, GenerateError> {
        params.check()?;
        let mut budget = Budget::new(params.max_memory_mib);
        let read = mesh_bytes(render).saturating_add(Source::bytes_for(render));
        budget.claim("reading the render geometry", read)?;
        let source = Source::from_mesh(render, params);
        if source.triangles.is_empty() {
            return Err(GenerateError::EmptyInput);
        }
        let field = Heightfield::build(&source, params, &mut budget)?;
        budget.claim("the walkable graph", Graph::bytes_for(&field))?;
        let mut graph = Graph::build(&field, params)?;
        graph.erode(params, &field);
        budget.claim("the floor index", FloorIndex::bytes_for(&source, params))?;
        let floor_box = graph.nodes.iter().fold(None, |acc: Option<[i64; 4]>, n| {
            let (x, y) = graph.cell_at(n);
            Some(match acc {
                None => [x, y, x, y],
                Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
            })
        });
        Ok(Picture {
            source,
            field,
            graph,
            params: params.clone(),
            budget,
            floor_box,
        })
    }

    /// Whether `cell` lies more than [`DOORWAY_DEPTH`] inside the plan box of the picture's
    /// walkable floor. Walkable faces past a room's render floor near its edge are mostly the
    /// strip a KotOR room's walkmesh runs into the next room's doorway.
    fn inside_floor(&self, cell: (i64, i64)) -> bool {
        let Some([x0, y0, x1, y1]) = self.floor_box else {
            return false;
        };
        let margin = (DOORWAY_DEPTH / self.field.cell_size).ceil() as i64;
        cell.0 >= x0 + margin
            && cell.0 <= x1 - margin
            && cell.1 >= y0 + margin
            && cell.1 <= y1 - margin
    }

    /// Whether a render surface lies from `air_depth` below to `sink_depth` above `at` (a
    /// point in the picture's own frame) in its column or the eight around it: what keeps a
    /// walkable point off the air.
    pub fn has_surface_near(&self, at: [f32; 3], tolerances: &Tolerances) -> bool {
        let (cx, cy) = self.cell_of([at[0], at[1]]);
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (cx + dx, cy + dy)))
            .any(|cell| self.offset(cell, at[2], tolerances).is_some())
    }

    /// The parameters the picture was made with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The column holding plan point `p` (model frame), as cell coordinates.
    fn cell_of(&self, p: [f32; 2]) -> (i64, i64) {
        let f = &self.field;
        (
            ((p[0] - f.origin[0]) / f.cell_size).floor() as i64,
            ((p[1] - f.origin[1]) / f.cell_size).floor() as i64,
        )
    }

    fn centre(&self, cell: (i64, i64)) -> [f32; 2] {
        let f = &self.field;
        [
            f.origin[0] + (cell.0 as f32 + 0.5) * f.cell_size,
            f.origin[1] + (cell.1 as f32 + 0.5) * f.cell_size,
        ]
    }

    fn spans(&self, cell: (i64, i64)) -> &[Span] {
        self.field
            .column(cell.0, cell.1)
            .and_then(|c| self.field.spans(c))
            .unwrap_or(&[])
    }

    /// The solid over a walkable point at `z` in `cell` that stands in a character's way: a
    /// span reaching more than `sink_depth` above it and starting below the agent's head.
    fn blocking(&self, cell: (i64, i64), z: f32, tolerances: &Tolerances) -> Option<Blocking> {
        let f = &self.field;
        self.spans(cell)
            .iter()
            .filter(|s| {
                f.z(s.top) > z + tolerances.sink_depth
                    && f.z(s.bottom) < z + self.params.agent_height
            })
            .map(|s| Blocking {
                height: f.z(s.top) - z,
                standing: f.z(s.bottom) <= z + BODY * self.params.agent_height,
            })
            .reduce(|a, b| Blocking {
                height: a.height.max(b.height),
                standing: a.standing || b.standing,
            })
    }

    /// The render surface in `cell` nearest in height to `z`, within `air_depth` below and
    /// `sink_depth` above: the signed offset of `z` from it (positive: above it).
    fn offset(&self, cell: (i64, i64), z: f32, tolerances: &Tolerances) -> Option<f32> {
        let f = &self.field;
        self.spans(cell)
            .iter()
            .map(|s| z - f.z(s.top))
            .filter(|d| *d <= tolerances.air_depth && *d >= -tolerances.sink_depth)
            .min_by(|a, b| a.abs().total_cmp(&b.abs()))
    }
}

/// Solid in a character's way over a walkable point.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Blocking {
    /// How far above the point it reaches.
    height: f32,
    /// It comes down to [`BODY`] of the agent's height over the point (a wall, a prop, a
    /// table top), not only hanging over it lower than the agent's head (a beam, a lintel, a
    /// low ceiling: BioWare's rooms walk under those).
    standing: bool,
}

/// The share of the agent's height below which solid over a walkable point stops its body.
pub const BODY: f32 = 2.0 / 3.0;

/// How a walkable sample sits on the model.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Fits,
    Air,
    /// Above the render floor by this much.
    Floating(f32),
    /// Under the render floor by this much.
    Sinking(f32),
    /// Solid over it.
    Solid(Blocking),
}

impl Verdict {
    fn code(self) -> Option<&'static str> {
        match self {
            Verdict::Fits => None,
            Verdict::Air => Some(WALK_ON_AIR),
            Verdict::Floating(_) => Some(FLOATING),
            Verdict::Sinking(_) => Some(SINKING),
            Verdict::Solid(_) => Some(INSIDE_SOLID),
        }
    }

    fn amount(self) -> f32 {
        match self {
            Verdict::Floating(d) | Verdict::Sinking(d) => d,
            Verdict::Solid(b) => b.height,
            Verdict::Fits | Verdict::Air => 0.0,
        }
    }
}

/// One sample of a face: its column (model frame) and its point (walkmesh frame).
#[derive(Clone, Copy, Debug)]
struct Sample {
    face: u32,
    cell: (i64, i64),
    at: [f32; 3],
    walkable: bool,
}

/// What the comparison found, and where the walkmesh was compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub findings: Vec<Finding>,
    /// Added to the model to put it in the walkmesh's frame.
    pub shift: [f32; 3],
}

/// Compares `mesh` with the picture placed at `shift` (added to the model's coordinates).
pub fn compare(
    mesh: &NavMesh,
    picture: &Picture,
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Result<Comparison, GenerateError> {
    compare_in_area(mesh, picture, shift, tolerances, None)
}

/// [`compare`] for a room of an area: walkable area on air over its own model is not air
/// where `area` (the picture of every room's model at its layout position, in the walkmesh's
/// frame) has a surface under it: a room's walkmesh running onto floor a neighbouring room
/// draws, as outdoor rooms' walkmeshes do.
pub fn compare_in_area(
    mesh: &NavMesh,
    picture: &Picture,
    shift: [f32; 3],
    tolerances: &Tolerances,
    area: Option<&Picture>,
) -> Result<Comparison, GenerateError> {
    let mut budget = picture.budget.clone();
    let walkable = sample_faces(mesh, picture, shift, true, &mut budget)?;
    let index = FloorIndex::new(&picture.source, &picture.params);
    let verdicts: Vec<Verdict> = walkable
        .iter()
        .map(|s| match judge(picture, &index, s, shift, tolerances) {
            Verdict::Air if area.is_some_and(|a| a.has_surface_near(s.at, tolerances)) => {
                Verdict::Fits
            }
            verdict => verdict,
        })
        .collect();
    let doorways = DoorwayMarks::of(mesh);
    let clustered = cluster_findings(picture, &walkable, &verdicts, tolerances, &doorways);
    // Crossings inside a reported solid are that finding's (a prop's footprint made
    // walkable has edges through the prop).
    let solid_cells: std::collections::HashSet<(i64, i64)> = clustered
        .iter()
        .filter(|(f, _)| f.code == INSIDE_SOLID)
        .flat_map(|(_, cells)| cells.iter().copied())
        .collect();
    let mut findings: Vec<Finding> = clustered.into_iter().map(|(f, _)| f).collect();
    findings.extend(edges_through_walls(
        mesh,
        picture,
        shift,
        tolerances,
        &solid_cells,
    ));
    let every_face = sample_faces(mesh, picture, shift, false, &mut budget)?;
    let covered: std::collections::HashSet<(i64, i64)> =
        every_face.iter().map(|s| s.cell).collect();
    let holes: Vec<Hole> = holes_over_floor(mesh, picture, shift, tolerances)
        .into_iter()
        .filter(|h| {
            // A hole under other faces (a patch lifted off the floor) is not open floor.
            let under = h.cells.iter().filter(|c| covered.contains(c)).count();
            under * 2 < h.cells.len()
        })
        .collect();
    let hole_cells: std::collections::HashSet<(i64, i64)> =
        holes.iter().flat_map(|h| h.cells.iter().copied()).collect();
    let left_out = missing_floor(picture, &every_face, shift, tolerances);
    findings.extend(holes.into_iter().map(|h| h.finding));
    // Floor left out that holds a hole is the hole's finding.
    findings.extend(
        left_out
            .into_iter()
            .filter(|(cells, _)| !cells.iter().any(|c| hole_cells.contains(c)))
            .map(|(_, finding)| finding),
    );
    Ok(Comparison { findings, shift })
}

/// One sample per column centre each face covers (walkable faces only when `walkable_only`),
/// a face covering none at its centroid; memory claimed first from the faces' plan area.
fn sample_faces(
    mesh: &NavMesh,
    picture: &Picture,
    shift: [f32; 3],
    walkable_only: bool,
    budget: &mut Budget,
) -> Result<Vec<Sample>, GenerateError> {
    let cell = picture.field.cell_size;
    let walkable = |p: usize| mesh.surfaces.get(p).is_some_and(|s| s.walkable);
    let chosen = |p: usize| !walkable_only || walkable(p);
    let plan_area: f64 = (0..mesh.polygons.len())
        .filter(|&p| chosen(p))
        .flat_map(|p| triangles(mesh, p))
        .map(|t| plan_box_area(&t))
        .sum();
    let expected = plan_area / f64::from(cell * cell) + mesh.polygons.len() as f64;
    budget.claim(
        "sampling the walkmesh",
        bytes_of::<Sample>(expected.min(u64::MAX as f64) as usize),
    )?;
    let mut samples = Vec::new();
    for p in (0..mesh.polygons.len()).filter(|&p| chosen(p)) {
        let before = samples.len();
        for t in triangles(mesh, p) {
            sample_triangle(picture, &t, p as u32, shift, &mut samples);
        }
        for sample in samples.get_mut(before..).unwrap_or_default() {
            sample.walkable = walkable(p);
        }
        if samples.len() == before
            && let Some(centroid) = centroid(mesh, p)
        {
            let local = [centroid[0] - shift[0], centroid[1] - shift[1]];
            samples.push(Sample {
                face: p as u32,
                cell: picture.cell_of(local),
                at: centroid,
                walkable: walkable(p),
            });
        }
    }
    Ok(samples)
}

/// The fan triangles of face `p` (walkmesh frame).
fn triangles(mesh: &NavMesh, p: usize) -> Vec<[[f32; 3]; 3]> {
    let corners = mesh.polygons.get(p);
    let Some((&first, rest)) = corners.split_first() else {
        return Vec::new();
    };
    rest.windows(2)
        .filter_map(|pair| match pair {
            [b, c] => Some([mesh.vertex(first), mesh.vertex(*b), mesh.vertex(*c)]),
            _ => None,
        })
        .filter(|t| t.iter().flatten().all(|v| v.is_finite()))
        .collect()
}

fn plan_box_area(t: &[[f32; 3]; 3]) -> f64 {
    let span = |axis: usize| {
        let lo = t.iter().map(|c| c[axis]).fold(f32::MAX, f32::min);
        let hi = t.iter().map(|c| c[axis]).fold(f32::MIN, f32::max);
        f64::from(hi - lo)
    };
    span(0) * span(1)
}

fn centroid(mesh: &NavMesh, p: usize) -> Option<[f32; 3]> {
    let corners = mesh.polygons.get(p);
    if corners.is_empty() {
        return None;
    }
    let mut sum = [0.0f32; 3];
    for &i in corners {
        let v = mesh.vertex(i);
        for axis in 0..3 {
            sum[axis] += v[axis];
        }
    }
    let point = sum.map(|s| s / corners.len() as f32);
    point.iter().all(|c| c.is_finite()).then_some(point)
}

/// Samples the column centres inside triangle `t` (walkmesh frame).
fn sample_triangle(
    picture: &Picture,
    t: &[[f32; 3]; 3],
    face: u32,
    shift: [f32; 3],
    out: &mut Vec<Sample>,
) {
    let local = t.map(|c| [c[0] - shift[0], c[1] - shift[1]]);
    let lo = [0, 1].map(|a| local.iter().map(|c| c[a]).fold(f32::MAX, f32::min));
    let hi = [0, 1].map(|a| local.iter().map(|c| c[a]).fold(f32::MIN, f32::max));
    let (x0, y0) = picture.cell_of(lo);
    let (x1, y1) = picture.cell_of(hi);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let centre = picture.centre((x, y));
            let Some(weights) = barycentric(&local, centre) else {
                continue;
            };
            let z = weights[0] * t[0][2] + weights[1] * t[1][2] + weights[2] * t[2][2];
            out.push(Sample {
                face,
                cell: (x, y),
                at: [centre[0] + shift[0], centre[1] + shift[1], z],
                walkable: false,
            });
        }
    }
}

/// Barycentric weights of plan point `p` in triangle `t`, when inside (edges included).
fn barycentric(t: &[[f32; 2]; 3], p: [f32; 2]) -> Option<[f32; 3]> {
    let [a, b, c] = *t;
    let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    if det.abs() < 1e-12 {
        return None;
    }
    let wa = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
    let wb = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
    let wc = 1.0 - wa - wb;
    let eps = -1e-6;
    (wa >= eps && wb >= eps && wc >= eps).then_some([wa, wb, wc])
}

/// The verdict on one walkable sample: solid over it in its own column; else the offset
/// from the nearest render surface over its column and the eight around it (the smallest:
/// a floor's edge or a step's rounding to cells is no defect).
fn judge(
    picture: &Picture,
    index: &FloorIndex<'_>,
    sample: &Sample,
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Verdict {
    let z = sample.at[2] - shift[2];
    if let Some(blocking) = picture.blocking(sample.cell, z, tolerances) {
        return Verdict::Solid(blocking);
    }
    let (cx, cy) = sample.cell;
    let nearest = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (cx + dx, cy + dy)))
        .filter_map(|cell| picture.offset(cell, z, tolerances))
        .min_by(|a, b| a.abs().total_cmp(&b.abs()));
    let Some(voxel) = nearest else {
        return Verdict::Air;
    };
    if voxel.abs() <= tolerances.height {
        return Verdict::Fits;
    }
    // The voxel top is rounded up to a cell height: the render triangle gives the offset.
    let plan = [sample.at[0] - shift[0], sample.at[1] - shift[1]];
    let near = z - voxel;
    let cell_height = picture.field.cell_height;
    let offset = index
        .floor_at(plan, near, 2.0 * cell_height, picture.params.max_climb)
        .filter(|hit| hit.distance == 0.0)
        .map_or(voxel, |hit| z - hit.z);
    if offset > tolerances.height {
        Verdict::Floating(offset)
    } else if offset < -tolerances.height {
        Verdict::Sinking(-offset)
    } else {
        Verdict::Fits
    }
}

/// Union–find over sample indices.
struct Sets(Vec<u32>);

impl Sets {
    fn new(n: usize) -> Sets {
        Sets((0..n as u32).collect())
    }

    fn find(&mut self, mut i: usize) -> usize {
        while let Some(&parent) = self.0.get(i) {
            if parent as usize == i {
                break;
            }
            let grand = self.0.get(parent as usize).copied().unwrap_or(parent);
            if let Some(slot) = self.0.get_mut(i) {
                *slot = grand;
            }
            i = parent as usize;
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if let Some(slot) = self.0.get_mut(a.max(b)) {
            *slot = a.min(b) as u32;
        }
    }
}

const FOUR: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Samples of one code in neighbouring columns (and within `sink_depth` in height) grouped
/// into findings. Solid and air findings need a core sample (all four neighbours of the same
/// verdict): a strip one cell wide is the rounding of a wall's foot or a floor's edge to
/// cells, not a defect.
fn cluster_findings(
    picture: &Picture,
    samples: &[Sample],
    verdicts: &[Verdict],
    tolerances: &Tolerances,
    doorways: &DoorwayMarks,
) -> Vec<(Finding, Vec<(i64, i64)>)> {
    let mut by_cell: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, (s, v)) in samples.iter().zip(verdicts).enumerate() {
        if v.code().is_some() {
            by_cell.entry(s.cell).or_default().push(i);
        }
    }
    let code_at = |i: usize| verdicts.get(i).and_then(|v| v.code());
    let mut sets = Sets::new(samples.len());
    let mut core = vec![false; samples.len()];
    for (i, s) in samples.iter().enumerate() {
        let Some(code) = code_at(i) else { continue };
        let mut same_around = 0;
        for (dx, dy) in FOUR {
            let mut found = false;
            for &j in by_cell
                .get(&(s.cell.0 + dx, s.cell.1 + dy))
                .into_iter()
                .flatten()
            {
                let near = samples
                    .get(j)
                    .is_some_and(|o| (o.at[2] - s.at[2]).abs() < tolerances.sink_depth);
                if near && code_at(j) == Some(code) {
                    sets.join(i, j);
                    found = true;
                }
            }
            same_around += usize::from(found);
        }
        for &j in by_cell.get(&s.cell).into_iter().flatten() {
            if code_at(j) == Some(code) {
                sets.join(i, j);
            }
        }
        if let Some(slot) = core.get_mut(i) {
            *slot = same_around == 4;
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in (0..samples.len()).filter(|&i| code_at(i).is_some()) {
        let root = sets.find(i);
        groups.entry(root).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_by_key(|g| g.first().copied());
    groups
        .into_iter()
        .filter_map(|group| {
            let code = group.first().and_then(|&i| code_at(i))?;
            let needs_core = code == INSIDE_SOLID || code == WALK_ON_AIR;
            if needs_core && !group.iter().any(|&i| core.get(i).copied().unwrap_or(false)) {
                return None;
            }
            let mut finding = group_finding(picture, samples, verdicts, &group, code, tolerances)?;
            let strong = match code {
                INSIDE_SOLID => standing_area(picture, verdicts, &group) >= tolerances.solid_area,
                WALK_ON_AIR => air_is_a_defect(picture, samples, &core, &group, doorways),
                FLOATING | SINKING => {
                    area_of(picture, &group) >= tolerances.offset_area
                        && median_amount(verdicts, &group) >= tolerances.offset_height
                }
                _ => true,
            };
            if !strong {
                finding.level = Level::Pedantic;
            }
            let cells = group.iter().filter_map(|&i| samples.get(i)).map(|s| s.cell);
            Some((finding, cells.collect()))
        })
        .collect()
}

/// The faces of a walkmesh that carry a transition (a perimeter edge leading into another
/// room): where its doorways are, when it marks them.
struct DoorwayMarks {
    faces: HashSet<u32>,
}

impl DoorwayMarks {
    fn of(mesh: &NavMesh) -> DoorwayMarks {
        let faces = mesh
            .edge_tags
            .iter()
            .filter(|(_, tag)| tag.transition >= 0)
            .map(|(edge, _)| edge.polygon)
            .collect();
        DoorwayMarks { faces }
    }

    /// Whether the walkmesh marks its doorways at all (a room WOK as the game stores it
    /// does; one made without its layout, or a model's own walkmesh node, does not).
    fn marked(&self) -> bool {
        !self.faces.is_empty()
    }
}

/// Whether walkable area on air (`group`, with a core sample) is reported at the default
/// level: when it lies more than [`DOORWAY_DEPTH`] inside the render floor's plan box, or,
/// on a walkmesh that marks its doorways, when none of its faces leads into another room.
/// What remains is the strip a room's walkmesh runs past its own floor into the next room's
/// doorway, which a room's model alone cannot tell from a defect.
fn air_is_a_defect(
    picture: &Picture,
    samples: &[Sample],
    core: &[bool],
    group: &[usize],
    doorways: &DoorwayMarks,
) -> bool {
    let core_samples = || {
        group
            .iter()
            .filter(|&&i| core.get(i).copied().unwrap_or(false))
            .filter_map(|&i| samples.get(i))
    };
    if core_samples().any(|s| picture.inside_floor(s.cell)) {
        return true;
    }
    doorways.marked()
        && core_samples().next().is_some()
        && !group
            .iter()
            .filter_map(|&i| samples.get(i))
            .any(|s| doorways.faces.contains(&s.face))
}

/// Area (m²) of the group's columns.
fn area_of(picture: &Picture, group: &[usize]) -> f32 {
    let cell = picture.field.cell_size;
    group.len() as f32 * cell * cell
}

/// The median offset of the group's samples.
fn median_amount(verdicts: &[Verdict], group: &[usize]) -> f32 {
    let mut amounts: Vec<f32> = group
        .iter()
        .filter_map(|&i| verdicts.get(i))
        .map(|v| v.amount())
        .collect();
    amounts.sort_by(f32::total_cmp);
    amounts.get(amounts.len() / 2).copied().unwrap_or(0.0)
}

/// Area (m²) of the group's samples under solid standing on the floor (a prop, a wall).
fn standing_area(picture: &Picture, verdicts: &[Verdict], group: &[usize]) -> f32 {
    let cell = picture.field.cell_size;
    let standing = group
        .iter()
        .filter(|&&i| matches!(verdicts.get(i), Some(Verdict::Solid(b)) if b.standing))
        .count();
    standing as f32 * cell * cell
}

/// One finding of a group of samples of `code`.
fn group_finding(
    picture: &Picture,
    samples: &[Sample],
    verdicts: &[Verdict],
    group: &[usize],
    code: &'static str,
    tolerances: &Tolerances,
) -> Option<Finding> {
    let cell = picture.field.cell_size;
    let members: Vec<(&Sample, Verdict)> = group
        .iter()
        .filter_map(|&i| Some((samples.get(i)?, *verdicts.get(i)?)))
        .collect();
    let distinct_cells: std::collections::HashSet<(i64, i64)> =
        members.iter().map(|(s, _)| s.cell).collect();
    let area = distinct_cells.len() as f64 * f64::from(cell * cell);
    if area < f64::from(tolerances.min_area) {
        return None;
    }
    let mut faces: Vec<u32> = members.iter().map(|(s, _)| s.face).collect();
    faces.sort_unstable();
    faces.dedup();
    // A finding is placed on the faces it covers for the most part (a defect is made of
    // faces; the columns only sample it), else on its own columns.
    let points = on_faces(samples, &members, &faces);
    let at = representative(&points)?;
    let (worst_sample, worst) = members
        .iter()
        .max_by(|a, b| a.1.amount().total_cmp(&b.1.amount()))?;
    let w = worst_sample.at;
    let place = format!("({:.2}, {:.2}, {:.2})", w[0], w[1], w[2]);
    let message = match worst {
        Verdict::Floating(d) => format!(
            "{area:.2} m² of walkable surface floats above the render floor, by up to {d:.2} m at {place}: characters walk in the air; lower these faces onto the floor"
        ),
        Verdict::Sinking(d) => format!(
            "{area:.2} m² of walkable surface lies under the render floor, by up to {d:.2} m at {place}: characters sink into the floor; raise these faces onto it"
        ),
        Verdict::Solid(Blocking { height: h, .. }) => format!(
            "{area:.2} m² of walkable surface lies inside render geometry or under something lower than the {} m agent (solid up to {h:.2} m above it at {place}): characters walk through a prop or wall; make these faces non-walkable or remove them",
            picture.params.agent_height
        ),
        Verdict::Air | Verdict::Fits => format!(
            "{area:.2} m² of walkable surface has no render surface within {} m under it (around {place}): characters walk on air; remove these faces or make them non-walkable",
            tolerances.air_depth
        ),
    };
    Some(model_finding(
        code,
        faces,
        at,
        area,
        message,
        area >= f64::from(tolerances.default_area),
    ))
}

/// The points of the faces whose samples are mostly among `members` (all their samples), or
/// the members' own points when no face is.
fn on_faces(samples: &[Sample], members: &[(&Sample, Verdict)], faces: &[u32]) -> Vec<[f32; 3]> {
    let mut total: HashMap<u32, usize> = HashMap::new();
    for s in samples
        .iter()
        .filter(|s| faces.binary_search(&s.face).is_ok())
    {
        *total.entry(s.face).or_default() += 1;
    }
    let mut inside: HashMap<u32, usize> = HashMap::new();
    for (s, _) in members {
        *inside.entry(s.face).or_default() += 1;
    }
    let mostly: Vec<u32> = faces
        .iter()
        .copied()
        .filter(|f| inside.get(f).copied().unwrap_or(0) * 2 > total.get(f).copied().unwrap_or(0))
        .collect();
    if mostly.is_empty() {
        return members.iter().map(|(s, _)| s.at).collect();
    }
    samples
        .iter()
        .filter(|s| mostly.contains(&s.face))
        .map(|s| s.at)
        .collect()
}

/// The member point nearest the mean of `points`: a place on the finding itself.
fn representative(points: &[[f32; 3]]) -> Option<[f32; 3]> {
    if points.is_empty() {
        return None;
    }
    let n = points.len() as f64;
    let mean = [0, 1, 2].map(|a| points.iter().map(|p| f64::from(p[a])).sum::<f64>() / n);
    points.iter().copied().min_by(|a, b| {
        let d = |p: &[f32; 3]| {
            (0..2)
                .map(|a| (f64::from(p[a]) - mean[a]).powi(2))
                .sum::<f64>()
        };
        d(a).total_cmp(&d(b))
    })
}

fn model_finding(
    code: &str,
    faces: Vec<u32>,
    at: [f32; 3],
    area: f64,
    message: String,
    default: bool,
) -> Finding {
    Finding {
        code: code.to_string(),
        severity: Severity::Warning,
        faces,
        at: Some(at),
        message,
        fixable: false,
        level: if default {
            Level::Default
        } else {
            Level::Pedantic
        },
        area: Some((area * 1000.0).round() / 1000.0),
    }
}

/// Walkable edges (each once) that run through a render wall: a point along the edge has
/// solid over it within the agent's height, and so have the points a cell to either side
/// of it (the wall stands across the edge, not along it), while both ends are free. Crossings
/// inside a solid already reported (`solid_cells`) are left to that finding.
fn edges_through_walls(
    mesh: &NavMesh,
    picture: &Picture,
    shift: [f32; 3],
    tolerances: &Tolerances,
    solid_cells: &std::collections::HashSet<(i64, i64)>,
) -> Vec<Finding> {
    let mut edges: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.surfaces.get(p).is_some_and(|s| s.walkable) {
            continue;
        }
        for k in 0..corners.len() {
            let (Some(&a), Some(&b)) = (corners.get(k), corners.get((k + 1) % corners.len()))
            else {
                continue;
            };
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(p as u32);
        }
    }
    let mut keys: Vec<(u32, u32)> = edges.keys().copied().collect();
    keys.sort_unstable();
    let mut found: Vec<Finding> = Vec::new();
    for key in keys {
        let (a, b) = (mesh.vertex(key.0), mesh.vertex(key.1));
        let Some(crossing) = wall_crossing(picture, a, b, shift, tolerances) else {
            continue;
        };
        let local = [crossing[0] - shift[0], crossing[1] - shift[1]];
        if solid_cells.contains(&picture.cell_of(local)) {
            continue;
        }
        let faces = edges.get(&key).cloned().unwrap_or_default();
        let near = found.iter_mut().find(|f| {
            f.at.is_some_and(|p| (p[0] - crossing[0]).hypot(p[1] - crossing[1]) < 0.5)
        });
        match near {
            Some(finding) => {
                finding.faces.extend(faces);
                finding.faces.sort_unstable();
                finding.faces.dedup();
            }
            None => found.push(model_finding(
                EDGE_THROUGH_WALL,
                faces,
                crossing,
                0.0,
                format!(
                    "a walkable edge crosses render geometry standing within the {} m agent's height at ({:.2}, {:.2}, {:.2}): characters walk through a wall here; split the walkmesh along the wall or make the faces beyond it non-walkable",
                    picture.params.agent_height, crossing[0], crossing[1], crossing[2]
                ),
                true,
            )),
        }
    }
    for finding in &mut found {
        finding.area = None;
    }
    found
}

/// How far (m) a wall must reach on both sides of an edge's crossing point: a wall's end or a
/// door jamb's corner clipped by an edge is no crossing.
const WALL_REACH: f32 = 0.6;
/// The thickest wall (m) an edge is said to cross; thicker solid is `model.inside_solid`'s.
const WALL_THICKNESS: f32 = 1.0;
/// Points looked at along the edge, each way, for the wall on either side of a crossing.
const WALL_STEPS: i32 = 6;

/// Where the edge from `a` to `b` (walkmesh frame) passes through a wall standing across it.
fn wall_crossing(
    picture: &Picture,
    a: [f32; 3],
    b: [f32; 3],
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Option<[f32; 3]> {
    let cell = picture.field.cell_size;
    let length = (b[0] - a[0]).hypot(b[1] - a[1]);
    if !length.is_finite() || length < 2.0 * cell {
        return None;
    }
    let across = [-(b[1] - a[1]) / length, (b[0] - a[0]) / length];
    let steps = ((length / (cell / 2.0)).ceil() as usize).min(1 << 20);
    // A wall: solid standing on the floor and taller than the agent.
    let agent = picture.params.agent_height;
    let blocked_at = |p: [f32; 3]| {
        let local = [p[0] - shift[0], p[1] - shift[1]];
        picture
            .blocking(picture.cell_of(local), p[2] - shift[2], tolerances)
            .is_some_and(|b| b.standing && b.height >= agent)
    };
    let point = |t: f32| [0, 1, 2].map(|axis| a[axis] + t * (b[axis] - a[axis]));
    if blocked_at(a) || blocked_at(b) {
        return None;
    }
    let along = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
    // The wall reaches WALL_REACH to this side of the edge's line, met within WALL_REACH
    // along it (a wall crossed at a slant meets the offset line further along).
    let wall_on = |p: [f32; 3], side: f32| {
        (-WALL_STEPS..=WALL_STEPS).any(|k| {
            let t = k as f32 * WALL_REACH / WALL_STEPS as f32;
            let s = side * WALL_REACH;
            blocked_at([
                p[0] + t * along[0] + s * across[0],
                p[1] + t * along[1] + s * across[1],
                p[2],
            ])
        })
    };
    // Runs of blocked points along the edge: a crossing is a run at most WALL_THICKNESS long
    // with at least WALL_REACH of free edge before and after it (an edge clipping a wall's
    // face or a jamb's corner near its end is no crossing), the wall on both sides.
    let step = length / steps as f32;
    let blocked: Vec<bool> = (0..=steps)
        .map(|k| blocked_at(point(k as f32 / steps as f32)))
        .collect();
    let mut k = 0;
    while k <= steps {
        if !blocked.get(k).copied().unwrap_or(false) {
            k += 1;
            continue;
        }
        let start = k;
        while blocked.get(k).copied().unwrap_or(false) {
            k += 1;
        }
        let (before, run, after) = (
            start as f32 * step,
            (k - start) as f32 * step,
            (steps + 1 - k) as f32 * step,
        );
        let middle = point((start + k - 1) as f32 / 2.0 / steps as f32);
        if run <= WALL_THICKNESS
            && before >= WALL_REACH
            && after >= WALL_REACH
            && wall_on(middle, -1.0)
            && wall_on(middle, 1.0)
        {
            return Some(middle);
        }
    }
    None
}

/// The picture's walkable floor a character reaches from the walkmesh's walkable faces
/// without crossing a face of the walkmesh (a non-walkable face is the author's wall), left
/// uncovered by it: floods from the covered nodes through the graph's links. A group needs
/// a core node (all four links to missing floor): the cells along the walkmesh's edge are
/// rounding.
fn missing_floor(
    picture: &Picture,
    every_face: &[Sample],
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Vec<(Vec<(i64, i64)>, Finding)> {
    let graph = &picture.graph;
    let field = &picture.field;
    // Per node: the face covering it and whether it is walkable (a walkable one wins).
    let mut cover: Vec<Option<(u32, bool)>> = vec![None; graph.nodes.len()];
    for s in every_face {
        let Some(column) = field.column(s.cell.0, s.cell.1) else {
            continue;
        };
        let z = s.at[2] - shift[2];
        for n in graph.column_nodes(column) {
            let Some(node) = graph.nodes.get(n) else {
                continue;
            };
            if (field.z(node.floor) - z).abs() <= tolerances.sink_depth
                && let Some(slot) = cover.get_mut(n)
                && !slot.is_some_and(|(_, walkable)| walkable)
            {
                *slot = Some((s.face, s.walkable));
            }
        }
    }
    missing_groups(picture, &cover, shift, tolerances)
}

/// The flood and grouping of [`missing_floor`]; `cover` holds each node's covering face.
fn missing_groups(
    picture: &Picture,
    cover: &[Option<(u32, bool)>],
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Vec<(Vec<(i64, i64)>, Finding)> {
    let graph = &picture.graph;
    let field = &picture.field;
    let mut missing = vec![false; graph.nodes.len()];
    let mut queue: std::collections::VecDeque<usize> = (0..graph.nodes.len())
        .filter(|&n| {
            cover
                .get(n)
                .copied()
                .flatten()
                .is_some_and(|(_, walkable)| walkable)
        })
        .collect();
    while let Some(n) = queue.pop_front() {
        for m in graph.neighbours(n) {
            let free = cover.get(m).copied().flatten().is_none();
            if free && !missing.get(m).copied().unwrap_or(true) {
                if let Some(slot) = missing.get_mut(m) {
                    *slot = true;
                }
                queue.push_back(m);
            }
        }
    }
    let cell = field.cell_size;
    let mut sets = Sets::new(graph.nodes.len());
    for n in (0..graph.nodes.len()).filter(|&n| missing.get(n).copied().unwrap_or(false)) {
        for m in graph.neighbours(n) {
            if missing.get(m).copied().unwrap_or(false) {
                sets.join(n, m);
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for n in (0..graph.nodes.len()).filter(|&n| missing.get(n).copied().unwrap_or(false)) {
        let root = sets.find(n);
        groups.entry(root).or_default().push(n);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_by_key(|g| g.first().copied());
    groups
        .into_iter()
        .filter_map(|group| {
            let core = group.iter().any(|&n| {
                graph.neighbours(n).count() == 4
                    && graph
                        .neighbours(n)
                        .all(|m| missing.get(m).copied().unwrap_or(false))
            });
            let area = group.len() as f64 * f64::from(cell * cell);
            if !core || area < f64::from(tolerances.min_area) {
                return None;
            }
            let points: Vec<[f32; 3]> = group
                .iter()
                .filter_map(|&n| graph.nodes.get(n))
                .map(|node| {
                    let c = picture.centre(graph.cell_at(node));
                    [c[0] + shift[0], c[1] + shift[1], field.z(node.floor) + shift[2]]
                })
                .collect();
            let at = representative(&points)?;
            let faces = bordering_faces(picture, cover, &group);
            let enclosed = enclosure(graph, cover, &missing, &group);
            let message = format!(
                "{area:.2} m² of render floor around ({:.2}, {:.2}, {:.2}) is reachable from the walkable area but the walkmesh leaves it out ({:.0}% of its edge is walkmesh): an invisible wall; add walkable faces over it, or non-walkable ones if it is closed on purpose",
                at[0],
                at[1],
                at[2],
                enclosed * 100.0
            );
            let cells = group
                .iter()
                .filter_map(|&n| graph.nodes.get(n))
                .map(|node| graph.cell_at(node))
                .collect();
            let finding = model_finding(
                MISSING_FLOOR,
                faces,
                at,
                area,
                message,
                area >= f64::from(tolerances.missing_area) && enclosed >= ENCLOSED,
            );
            Some((cells, finding))
        })
        .collect()
}

/// Missing floor whose edge is at least this share walkable walkmesh is a hole in the
/// walkmesh (default group); floor along walls and drops that the walkmesh stops short of is
/// how BioWare's rooms are made (pedantic).
pub const ENCLOSED: f64 = 0.75;

/// The share of the group's edge (each node's sides not leading into the group) that leads
/// to floor under walkable faces; a side with no link (a wall, a drop) is edge too.
fn enclosure(
    graph: &Graph,
    cover: &[Option<(u32, bool)>],
    missing: &[bool],
    group: &[usize],
) -> f64 {
    let (mut walkable, mut edge) = (0usize, 0usize);
    for &n in group.iter().filter(|&&n| n < graph.nodes.len()) {
        // A side with no link is edge, and not walkable.
        for m in (0..DIRECTIONS.len()).map(|d| graph.neighbour(n, d)) {
            if m.is_some_and(|m| missing.get(m).copied().unwrap_or(false)) {
                continue;
            }
            edge += 1;
            let under = m.and_then(|m| cover.get(m).copied().flatten());
            if under.is_some_and(|(_, w)| w) {
                walkable += 1;
            }
        }
    }
    if edge == 0 {
        return 0.0;
    }
    walkable as f64 / edge as f64
}

/// The walkmesh faces covering nodes linked to `group` (at most 16, sorted).
fn bordering_faces(picture: &Picture, cover: &[Option<(u32, bool)>], group: &[usize]) -> Vec<u32> {
    let mut faces: Vec<u32> = group
        .iter()
        .flat_map(|&n| picture.graph.neighbours(n))
        .filter_map(|m| cover.get(m).copied().flatten().map(|(face, _)| face))
        .collect();
    faces.sort_unstable();
    faces.dedup();
    faces.truncate(16);
    faces
}

/// Where a walkmesh sits on the model: the shift added to the model's coordinates, and the
/// share of walkable sample points that lie on a render surface there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub shift: [f32; 3],
    pub score: f64,
}

/// Walkable points scored by [`fit`] (evenly chosen among the samples).
const FIT_POINTS: usize = 400;
/// Points whose translations to every walkable voxel vote for a shift.
const VOTING_POINTS: usize = 48;
/// Votes cast at most (points × walkable voxels).
const MAX_VOTES: usize = 20_000_000;
/// The vote's bin (m), and the refinement around the best bins: ± this many steps of 0.05 m.
const VOTE_BIN: f32 = 0.25;
const REFINE_STEPS: i32 = 6;
const REFINE_STEP: f32 = 0.05;

/// The shift that puts the model under `mesh`'s walkable faces: `expected` (none, or the
/// layout position) unless another fits clearly better. Candidates are voted for by
/// translations from walkable points to the picture's walkable voxels, then refined.
pub fn fit(mesh: &NavMesh, picture: &Picture, expected: [f32; 3]) -> Result<Fit, GenerateError> {
    let mut budget = picture.budget.clone();
    let samples = sample_faces(mesh, picture, [0.0; 3], true, &mut budget)?;
    let points = evenly(&samples, FIT_POINTS);
    let at_expected = score(picture, &points, expected);
    if at_expected >= 0.9 {
        return Ok(Fit {
            shift: expected,
            score: at_expected,
        });
    }
    let mut best = Fit {
        shift: expected,
        score: at_expected,
    };
    for candidate in vote(picture, &samples) {
        let refined = refine(picture, &points, candidate);
        if refined.score > best.score {
            best = refined;
        }
    }
    // The plan shift to a few centimetres, with many more points: on a flat floor only the
    // points near walls and edges tell it.
    if best.shift != expected {
        best = refine_fine(picture, &evenly(&samples, FINE_POINTS), best.shift);
    }
    Ok(if best.score - at_expected < 0.05 {
        Fit {
            shift: expected,
            score: at_expected,
        }
    } else {
        best
    })
}

/// At most `n` of the samples' points, evenly spread over the list.
fn evenly(samples: &[Sample], n: usize) -> Vec<[f32; 3]> {
    let step = samples.len().div_ceil(n.max(1)).max(1);
    samples.iter().step_by(step).map(|s| s.at).collect()
}

/// Share of `points` (walkmesh frame) within the height tolerance of a span top of their
/// column, with the model moved by `shift`.
fn score(picture: &Picture, points: &[[f32; 3]], shift: [f32; 3]) -> f64 {
    if points.is_empty() {
        return 0.0;
    }
    let tolerance = Tolerances::default().height;
    let hits = points
        .iter()
        .filter(|p| {
            let cell = picture.cell_of([p[0] - shift[0], p[1] - shift[1]]);
            let z = p[2] - shift[2];
            picture
                .spans(cell)
                .iter()
                .any(|s| (picture.field.z(s.top) - z).abs() <= tolerance)
                && picture.blocking(cell, z, &Tolerances::default()).is_none()
        })
        .count();
    hits as f64 / points.len() as f64
}

/// The best-voted shifts (bins of [`VOTE_BIN`]): every translation from a few walkable
/// points to every walkable voxel floor is a vote, and the true shift gathers one from each.
fn vote(picture: &Picture, samples: &[Sample]) -> Vec<[f32; 3]> {
    let nodes = &picture.graph.nodes;
    if nodes.is_empty() {
        return Vec::new();
    }
    let count = VOTING_POINTS.min(MAX_VOTES / nodes.len()).max(1);
    let points = evenly(samples, count);
    let floors: Vec<[f32; 3]> = nodes
        .iter()
        .map(|n| {
            let c = picture.centre(picture.graph.cell_at(n));
            [c[0], c[1], picture.field.z(n.floor)]
        })
        .collect();
    let mut votes: HashMap<[i32; 3], u32> = HashMap::new();
    for p in &points {
        let mut mine: Vec<[i32; 3]> = floors
            .iter()
            .map(|f| [0, 1, 2].map(|a| ((p[a] - f[a]) / VOTE_BIN).round() as i32))
            .collect();
        // One vote per point and bin: a large floor would otherwise outvote the true shift.
        mine.sort_unstable();
        mine.dedup();
        for key in mine {
            *votes.entry(key).or_default() += 1;
        }
    }
    let mut ranked: Vec<([i32; 3], u32)> = votes.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked
        .into_iter()
        .take(8)
        .map(|(key, _)| key.map(|k| k as f32 * VOTE_BIN))
        .collect()
}

/// Points of the fine refinement, and its steps: ± 4 of 0.025 m in plan.
const FINE_POINTS: usize = 4000;
const FINE_STEPS: i32 = 4;
const FINE_STEP: f32 = 0.025;

/// The best plan shift within ± [`FINE_STEPS`] steps of `start` (its height kept).
fn refine_fine(picture: &Picture, points: &[[f32; 3]], start: [f32; 3]) -> Fit {
    let mut best = Fit {
        shift: start,
        score: score(picture, points, start),
    };
    let mut best_move = 0;
    for dx in -FINE_STEPS..=FINE_STEPS {
        for dy in -FINE_STEPS..=FINE_STEPS {
            let shift = [
                start[0] + dx as f32 * FINE_STEP,
                start[1] + dy as f32 * FINE_STEP,
                start[2],
            ];
            let s = score(picture, points, shift);
            let moved = dx * dx + dy * dy;
            if s > best.score + 1e-9 || (s >= best.score - 1e-9 && moved < best_move) {
                best = Fit { shift, score: s };
                best_move = moved;
            }
        }
    }
    best
}

/// The best shift within ± [`REFINE_STEPS`] steps of `start` on each axis.
fn refine(picture: &Picture, points: &[[f32; 3]], start: [f32; 3]) -> Fit {
    let mut best = Fit {
        shift: start,
        score: score(picture, points, start),
    };
    let mut best_move = 0;
    let range = -REFINE_STEPS..=REFINE_STEPS;
    for dx in range.clone() {
        for dy in range.clone() {
            for dz in range.clone() {
                let shift = [
                    start[0] + dx as f32 * REFINE_STEP,
                    start[1] + dy as f32 * REFINE_STEP,
                    start[2] + dz as f32 * REFINE_STEP,
                ];
                let s = score(picture, points, shift);
                // Ties go to the smaller move from the voted bin.
                let moved = dx * dx + dy * dy + dz * dz;
                if s > best.score + 1e-9 || (s >= best.score - 1e-9 && moved < best_move) {
                    best = Fit { shift, score: s };
                    best_move = moved;
                }
            }
        }
    }
    best.shift[2] += median_height_offset(picture, points, best.shift);
    best
}

/// The median height of `points` over the nearest span top of their column (within 0.3 m),
/// less half a cell height (tops are rounded up to whole cells): what the shift's height
/// still misses.
fn median_height_offset(picture: &Picture, points: &[[f32; 3]], shift: [f32; 3]) -> f32 {
    let field = &picture.field;
    let mut offsets: Vec<f32> = points
        .iter()
        .filter_map(|p| {
            let cell = picture.cell_of([p[0] - shift[0], p[1] - shift[1]]);
            let z = p[2] - shift[2];
            picture
                .spans(cell)
                .iter()
                .map(|s| z - field.z(s.top))
                .filter(|d| d.abs() <= 0.3)
                .min_by(|a, b| a.abs().total_cmp(&b.abs()))
        })
        .collect();
    if offsets.is_empty() {
        return 0.0;
    }
    offsets.sort_by(f32::total_cmp);
    let middle = offsets.get(offsets.len() / 2).copied().unwrap_or(0.0);
    middle + field.cell_height / 2.0
}

/// A room placed more than this (m, on any axis) from where its walkmesh fits its model has
/// a wrong layout position.
pub const LYT_TOLERANCE: f32 = 0.25;

/// A layout room's walkmesh that fits its model (placed at `position` by the layout) only at
/// another position (`fitted`): one finding for the room, with the position that would fit.
/// `faces` are the room's faces in the caller's numbering, `at` is where its walkable area
/// is.
pub fn lyt_offset_finding(
    room: &str,
    position: [f32; 3],
    fitted: &Fit,
    faces: Vec<u32>,
    at: [f32; 3],
) -> Option<Finding> {
    let off = [0, 1, 2].map(|a| fitted.shift[a] - position[a]);
    if off.iter().all(|d| d.abs() <= LYT_TOLERANCE) {
        return None;
    }
    let p = fitted.shift;
    let message = format!(
        "room {room}'s walkmesh does not lie on its model at the layout position ({:.2}, {:.2}, {:.2}): it fits the model placed at ({:.2}, {:.2}, {:.2}) ({:.0}% of its walkable points on a render surface), off by ({:.2}, {:.2}, {:.2}); give the room that position in the layout, or move its walkmesh",
        position[0],
        position[1],
        position[2],
        p[0],
        p[1],
        p[2],
        fitted.score * 100.0,
        off[0],
        off[1],
        off[2]
    );
    let mut finding = model_finding(LYT_OFFSET, faces, at, 0.0, message, true);
    finding.area = None;
    Some(finding)
}

/// The area-weighted centroid of `mesh`'s walkable faces (their plan triangles), if any.
pub fn walkable_centroid(mesh: &NavMesh) -> Option<[f32; 3]> {
    let mut sum = [0.0f64; 3];
    let mut total = 0.0f64;
    for p in 0..mesh.polygons.len() {
        if !mesh.surfaces.get(p).is_some_and(|s| s.walkable) {
            continue;
        }
        for t in triangles(mesh, p) {
            let [a, b, c] = t;
            let area = 0.5
                * f64::from((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs();
            for axis in 0..3 {
                sum[axis] += area * f64::from(a[axis] + b[axis] + c[axis]) / 3.0;
            }
            total += area;
        }
    }
    (total > 0.0).then(|| sum.map(|s| (s / total) as f32))
}

/// A hole in the walkmesh over render floor: the finding and the columns it covers.
struct Hole {
    finding: Finding,
    cells: Vec<(i64, i64)>,
}

/// Holes in the walkmesh (inner boundary loops: every face around them walkable) with the
/// picture's walkable floor under at least half of them: faces deleted from a floor. Each is
/// a `model.missing_floor` finding at the hole's centroid, in the default group from
/// `missing_area` on.
fn holes_over_floor(
    mesh: &NavMesh,
    picture: &Picture,
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Vec<Hole> {
    let mut holes = Vec::new();
    for (ring, faces) in boundary_loops(mesh) {
        let points: Vec<[f32; 3]> = ring.iter().map(|&v| mesh.vertex(v)).collect();
        let signed = signed_plan_area(&points);
        // Walkable faces face up, so a hole's ring, followed along its faces' edges, turns
        // clockwise; the outer boundary turns counter-clockwise.
        let all_walkable = faces
            .iter()
            .all(|&f| mesh.surfaces.get(f as usize).is_some_and(|s| s.walkable));
        let area = -signed;
        if !all_walkable || area < f64::from(tolerances.min_area) {
            continue;
        }
        let Some(hole) = hole_finding(picture, &points, faces, area, shift, tolerances) else {
            continue;
        };
        holes.push(hole);
    }
    holes
}

/// The finding of a hole whose plan ring is `points` (walkmesh frame), when the picture has
/// walkable floor under at least half of its columns near the ring's height.
fn hole_finding(
    picture: &Picture,
    points: &[[f32; 3]],
    mut faces: Vec<u32>,
    area: f64,
    shift: [f32; 3],
    tolerances: &Tolerances,
) -> Option<Hole> {
    let local: Vec<[f32; 2]> = points
        .iter()
        .map(|p| [p[0] - shift[0], p[1] - shift[1]])
        .collect();
    let z = points.iter().map(|p| p[2]).sum::<f32>() / points.len() as f32 - shift[2];
    let lo = [0, 1].map(|a| local.iter().map(|p| p[a]).fold(f32::MAX, f32::min));
    let hi = [0, 1].map(|a| local.iter().map(|p| p[a]).fold(f32::MIN, f32::max));
    let (x0, y0) = picture.cell_of(lo);
    let (x1, y1) = picture.cell_of(hi);
    if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > 4_000_000 {
        return None;
    }
    let (mut inside, mut floor) = (Vec::new(), 0usize);
    for y in y0..=y1 {
        for x in x0..=x1 {
            if !inside_ring(&local, picture.centre((x, y))) {
                continue;
            }
            inside.push((x, y));
            let column = picture.field.column(x, y);
            let has_floor = column.is_some_and(|c| {
                picture.graph.column_nodes(c).any(|n| {
                    picture.graph.nodes.get(n).is_some_and(|node| {
                        (picture.field.z(node.floor) - z).abs() <= tolerances.sink_depth
                    })
                })
            });
            floor += usize::from(has_floor);
        }
    }
    if inside.is_empty() || floor * 2 < inside.len() {
        return None;
    }
    let centre = ring_centroid(points)?;
    faces.sort_unstable();
    faces.dedup();
    let message = format!(
        "a {area:.2} m² hole in the walkmesh at ({:.2}, {:.2}, {:.2}), walkable faces all around it, lies over render floor ({:.0}% of it): an invisible wall in the middle of the floor; add walkable faces over it, or non-walkable ones if it is closed on purpose",
        centre[0],
        centre[1],
        centre[2],
        floor as f64 * 100.0 / inside.len() as f64
    );
    let finding = model_finding(
        MISSING_FLOOR,
        faces,
        centre,
        area,
        message,
        area >= f64::from(tolerances.missing_area),
    );
    Some(Hole {
        finding,
        cells: inside,
    })
}

/// The mesh's boundary loops (edges of one face, followed in their face's direction), each
/// with the faces along it.
fn boundary_loops(mesh: &NavMesh) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    for corners in mesh.polygons.iter() {
        for k in 0..corners.len() {
            if let (Some(&a), Some(&b)) = (corners.get(k), corners.get((k + 1) % corners.len())) {
                *count.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    // Directed boundary edges by start vertex.
    let mut next: HashMap<u32, Vec<(u32, u32)>> = HashMap::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        for k in 0..corners.len() {
            if let (Some(&a), Some(&b)) = (corners.get(k), corners.get((k + 1) % corners.len()))
                && count.get(&(a.min(b), a.max(b))) == Some(&1)
            {
                next.entry(a).or_default().push((b, p as u32));
            }
        }
    }
    let mut starts: Vec<u32> = next.keys().copied().collect();
    starts.sort_unstable();
    let mut loops = Vec::new();
    for start in starts {
        while let Some((mut at, face)) = next.get_mut(&start).and_then(Vec::pop) {
            let (mut ring, mut faces) = (vec![start], vec![face]);
            let mut closed = false;
            for _ in 0..mesh.polygons.indices().len() {
                if at == start {
                    closed = true;
                    break;
                }
                ring.push(at);
                let Some((to, face)) = next.get_mut(&at).and_then(Vec::pop) else {
                    break;
                };
                faces.push(face);
                at = to;
            }
            if closed && ring.len() >= 3 {
                loops.push((ring, faces));
            }
        }
    }
    loops
}

fn signed_plan_area(points: &[[f32; 3]]) -> f64 {
    let n = points.len();
    let twice: f64 = (0..n)
        .filter_map(|i| Some((points.get(i)?, points.get((i + 1) % n)?)))
        .map(|(a, b)| f64::from(a[0]) * f64::from(b[1]) - f64::from(b[0]) * f64::from(a[1]))
        .sum();
    twice / 2.0
}

/// The plan centroid of a ring (its height the mean of its corners').
fn ring_centroid(points: &[[f32; 3]]) -> Option<[f32; 3]> {
    let n = points.len();
    let area = signed_plan_area(points);
    if area.abs() < 1e-9 || n == 0 {
        return None;
    }
    let (mut cx, mut cy) = (0.0f64, 0.0f64);
    for i in 0..n {
        let (a, b) = (points.get(i)?, points.get((i + 1) % n)?);
        let cross = f64::from(a[0]) * f64::from(b[1]) - f64::from(b[0]) * f64::from(a[1]);
        cx += (f64::from(a[0]) + f64::from(b[0])) * cross;
        cy += (f64::from(a[1]) + f64::from(b[1])) * cross;
    }
    let z = points.iter().map(|p| p[2]).sum::<f32>() / n as f32;
    Some([(cx / (6.0 * area)) as f32, (cy / (6.0 * area)) as f32, z])
}

/// Whether plan point `p` lies inside the ring (even–odd rule).
fn inside_ring(ring: &[[f32; 2]], p: [f32; 2]) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (Some(a), Some(b)) = (ring.get(i), ring.get((i + n - 1) % n)) else {
            continue;
        };
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            inside = !inside;
        }
    }
    inside
}
