//! walkmesh-generate: a walkmesh from render geometry.
//!
//! The pipeline is Recast's, rebuilt for these games' walkmeshes (+Z up, vertices on the
//! render floor, never a failure on a contour):
//!
//! 1. **voxelise** ([`voxel`]): every source triangle into columns of `cell_size` × `cell_size`,
//!    spans in steps of `cell_height`; a span's top is walkable when the triangle that made it
//!    is no steeper than `max_slope`;
//! 2. **filter**: low obstacles (a step within `max_climb` on a walkable span becomes walkable),
//!    clearance (a walkable span with less than `agent_height` above it is not);
//! 3. **walkable graph** ([`graph`]): walkable spans joined to their four neighbours when the
//!    step is within `max_climb` and both have `agent_height` of room; erosion by
//!    `agent_radius`; components;
//! 4. **reachability**: components holding a seed (`seeds`, else the largest) are kept, the
//!    others dropped and reported (`keep_unreachable` keeps them);
//! 5. **layers** ([`graph::layers`]): kept spans split into pieces that have one floor per
//!    column, so each is a plan shape;
//! 6. **outlines** ([`outline`]): the boundary rings of each layer on the cell grid, simplified
//!    (Douglas–Peucker within `max_edge_error`);
//! 7. **triangulation** ([`triangulate`]): constrained Delaunay of the rings (a ring edge that
//!    would cross another is skipped and counted, never an error), triangles kept whose centre
//!    lies in the layer, refined where the surface leaves the render floor by more than
//!    `detail_error` at any sample on the outline edges or on a lattice inside (Recast's
//!    detail mesh); for NWN2 the TRX tile lines are constraints too ([`tiles`]), so no face
//!    crosses a tile;
//! 8. **heights and materials** ([`floor`]): every vertex takes its height from the render
//!    floor under it (one height per point), every face the walkable surface its render
//!    material's name suggests, else `default_material`;
//! 9. **repairs** (lint's mechanical fixer), then for KotOR the **hole fill** ([`holes`]: the
//!    holes props cut in the walkable floor become non-walkable faces, as in BioWare's WOKs)
//!    and the **walls** ([`walls`]: non-walkable faces standing on the floor's edge where the
//!    render geometry has a wall beyond it), for NWN2 the **tile budget**
//!    ([`simplify`]: faces of tiles holding more walkable triangles than a TRX tile can are
//!    simplified until they hold) and the **engine limits** ([`limits`]).
//!
//! Inputs are a render-geometry [`NavMesh`] (its walkable flags are ignored); material names
//! come from a per-face name column (`<ns>:material` indices into the `<ns>:materials` text
//! list, as the MDL and OBJ readers keep them) or from the face's neutral material.

#[cfg(feature = "kotor-area")]
pub mod area;
pub mod budget;
pub mod doorways;
pub mod floor;
pub mod floor_ends;
pub mod footprint;
pub mod graph;
pub mod holes;
pub mod limits;
pub mod lips;
pub mod model_lint;
pub mod object;
pub mod outline;
pub mod overrides;
pub mod params;
pub mod placeable;
pub mod report;
pub mod seams;
// The TRX tile budget; a build without the NWN2 format has no TRX writer to budget for.
#[cfg(feature = "nwn2")]
pub mod simplify;
pub mod start;
pub mod tiles;
pub mod triangulate;
pub mod voxel;
mod wall_foot;
pub mod walls;
mod warnings;

use std::time::Instant;

use walkmesh_core::{NavMesh, progress};

pub use overrides::Overrides;
pub use params::{Engine, Params};
pub use placeable::{ObjectKind, generate_object};
pub use report::{ComponentReport, Report, StageTime};

/// Why a model's render geometry did not read: the reader's own error, passed through as it
/// is. The model readers are format crates', which sit above this crate, so their callers
/// pass them in ([`area::ModelReader`]) with whatever error type they have, so long as it says
/// its kind.
pub type ModelReadError = walkmesh_core::BoxError;

/// The generated walkmesh and what was done to make it.
#[derive(Clone, Debug)]
pub struct Generated {
    pub mesh: NavMesh,
    pub report: Report,
}

/// Why nothing could be generated.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("invalid parameter {name}: {why}")]
    Parameter { name: &'static str, why: String },
    #[error("the input has no triangles with finite coordinates")]
    EmptyInput,
    #[error(
        "the voxel grid would be {columns} columns ({width} × {height}); raise --cell-size (at most {limit} columns)"
    )]
    GridTooLarge {
        columns: u64,
        width: u64,
        height: u64,
        limit: u64,
    },
    /// A stage's memory estimate passes the limit (`Params::max_memory_mib`).
    #[error(
        "{stage} needs an estimated {estimate_mib} MiB of memory in all, more than the limit of {limit_mib} MiB; raise the limit with {option} (at least {estimate_mib}), or raise --cell-size"
    )]
    Memory {
        stage: &'static str,
        estimate_mib: u64,
        limit_mib: u64,
        option: &'static str,
    },
    /// A column holds more walkable spans than the walkable graph's one-byte links can name
    /// (`graph::MAX_COLUMN_NODES`).
    #[error(
        "the column at cell ({x}, {y}) holds {floors} walkable floors one above another, more than the {limit} a column may hold; raise --agent-height (floors with less room above are not walkable), or split the scene"
    )]
    ColumnTooDeep {
        x: usize,
        y: usize,
        floors: usize,
        limit: usize,
    },
    /// The scene reaches where 32-bit cells cannot describe it.
    #[error("the input is out of range: {why}")]
    OutOfRange { why: String },
}

/// Generates a walkmesh from `input`'s triangles (render geometry, +Z up).
pub fn generate(input: &NavMesh, params: &Params) -> Result<Generated, GenerateError> {
    generate_with(input, params, limits::Checks::All)
}

/// [`generate`], choosing which engine-limit checks run: a caller that writes a PATH file
/// next passes [`limits::Checks::WriterCooks`], since the PATH writer runs the same cook and
/// refuses with the same reason (the cook of a large mesh is not run twice).
pub fn generate_with(
    input: &NavMesh,
    params: &Params,
    checks: limits::Checks,
) -> Result<Generated, GenerateError> {
    params.check()?;
    let mut report = Report::new(params);
    let started = Instant::now();
    let mut clock = Instant::now();
    progress::phase(|| format!("generating: reading {} faces", input.polygons.len()));
    let mut budget = budget::Budget::new(params.max_memory_mib);
    let read = budget::mesh_bytes(input).saturating_add(floor::Source::bytes_for(input));
    budget.claim("reading the render geometry", read)?;
    let mut source = floor::Source::from_mesh(input, params);
    report.lip_faces = lips::remove_lips(&mut source.triangles, params, &mut budget)?;
    if source.triangles.is_empty() {
        return Err(GenerateError::EmptyInput);
    }
    report.input_triangles = source.triangles.len();
    report.stage("read", &mut clock);

    progress::phase(|| {
        format!(
            "generating: voxelising {} triangles",
            source.triangles.len()
        )
    });
    let field = voxel::Heightfield::build(&source, params, &mut budget)?;
    report.grid = [field.width, field.height];
    report.stage("voxelise", &mut clock);

    progress::phase(|| "generating: walkable floor".to_string());
    budget.claim("the walkable graph", graph::Graph::bytes_for(&field))?;
    let mut graph = graph::Graph::build(&field, params)?;
    report.walkable_spans = graph.nodes.len();
    graph.erode(params, &field);
    let cell_area = f64::from(params.cell_size) * f64::from(params.cell_size);
    report.eroded_area = graph.nodes.iter().filter(|n| n.removed()).count() as f64 * cell_area;
    report.stage("walkable", &mut clock);

    progress::phase(|| "generating: reachability".to_string());
    let mut kept = graph::reachability(&graph, &field, params, &mut report, start::choose_start);
    graph::trim_walls(&graph, &field, params, &mut kept);
    graph::trim_lips(&graph, &field, &mut kept);
    graph::trim_slivers(&graph, &field, &mut kept);
    report.stage("reachability", &mut clock);

    let (layers, layer_of) = graph::layers(&graph, &field, &kept, &mut budget)?;
    report.layers = layers.len();
    report.stage("layers", &mut clock);

    budget.claim(
        "the floor index",
        floor::FloorIndex::bytes_for(&source, params),
    )?;
    report.memory_estimate = budget.used();
    let index = floor::FloorIndex::new(&source, params);
    progress::phase(|| format!("generating: outlining {} layer(s)", layers.len()));
    let mesh = triangulate::layers_mesh(
        &layers,
        &layer_of,
        &graph,
        &field,
        &index,
        params,
        &mut report,
    );
    report.stage("triangulate", &mut clock);

    // Where two layers meet, a corner of one can sit on an edge of the other (a T-junction):
    // lint's mechanical repairs split such edges.
    progress::phase(|| "generating: repairs".to_string());
    let options = walkmesh_lint::LintOptions::default();
    let fixed = walkmesh_lint::fix(&mesh, &options);
    report.repairs = fixed.repairs.len();
    let mut mesh = fixed.mesh;
    mesh.provenance = None;
    report.stage("repair", &mut clock);

    if params.fill_holes {
        progress::phase(|| "generating: filling holes".to_string());
        let ground = holes::Ground {
            field: &field,
            graph: &graph,
            max_climb: params.max_climb,
        };
        let filled = holes::fill(&mut mesh, &ground);
        if filled.faces > 0 {
            *report
                .materials
                .entry(holes::FILL.material.name().into_owned())
                .or_default() += filled.faces;
        }
        report.holes = Some(filled);
        report.stage("holes", &mut clock);
    }

    // The open edges' ends on the render floor's own line (floor_ends.rs), where the wall
    // stage finds no wall and no radius keeps the floor back on purpose.
    if params.agent_radius == 0.0 {
        progress::phase(|| "generating: floor ends".to_string());
        let ground = walls::Ground {
            field: &field,
            max_climb: params.max_climb,
            agent_height: params.agent_height,
        };
        report.floor_ends = Some(floor_ends::follow_render_ends(
            &mut mesh, &index, &ground, params,
        ));
        report.stage("floor ends", &mut clock);
    }

    if params.walls {
        progress::phase(|| "generating: walls".to_string());
        let ground = walls::Ground {
            field: &field,
            max_climb: params.max_climb,
            agent_height: params.agent_height,
        };
        let raised = walls::raise(&mut mesh, &ground);
        if raised.faces > 0 {
            *report
                .materials
                .entry(walls::WALL.material.name().into_owned())
                .or_default() += raised.faces;
        }
        report.walls = Some(raised);
        report.stage("walls", &mut clock);
    }

    #[cfg(feature = "nwn2")]
    if params.engine == Engine::Nwn2 {
        progress::phase(|| "generating: NWN2 tile budget".to_string());
        report.nwn2_simplified = simplify::nwn2_tiles(
            &mut mesh,
            walkmesh_nwn2::write::DEFAULT_TILE_WIDTH,
            walkmesh_nwn2::bake::MAX_TILE_NODES,
        );
        report.stage("simplify", &mut clock);
    }

    progress::phase(|| "generating: engine limits".to_string());
    report.limits = limits::check_with(&mesh, params, checks);
    report.stage("limits", &mut clock);

    report.faces_written = mesh.polygons.len();
    report.vertices_written = mesh.vertices.len();
    report.walkable_area = triangulate::walkable_area(&mesh);
    report.total_seconds = started.elapsed().as_secs_f64();
    Ok(Generated { mesh, report })
}

/// Turns a Y-up mesh (glTF, Recast, most modelling tools' native frame) into this tool's
/// +Z-up frame: (x, y, z) → (x, −z, y), a rotation, so windings are kept.
pub fn y_up_to_z_up(mesh: &mut NavMesh) {
    for vertex in &mut mesh.vertices {
        let [x, y, z] = *vertex;
        *vertex = [x, -z, y];
    }
}

/// Several render meshes as one input: vertices and faces appended, surfaces kept, and the
/// per-face material names of each (see [`floor`]) carried into one `render:material` column
/// over a merged `render:materials` list; model node names likewise into `render:node` over
/// `render:nodes` (the generator tells untextured model helpers by them).
pub fn combine(meshes: &[NavMesh]) -> NavMesh {
    let mut out = NavMesh::default();
    let mut materials = NameColumn::default();
    let mut nodes = NameColumn::default();
    for mesh in meshes {
        let offset = out.vertices.len() as u32;
        out.vertices.extend_from_slice(&mesh.vertices);
        let own_materials = floor::face_material_names(mesh);
        let own_nodes = floor::face_node_names(mesh);
        materials.any |= own_materials.is_some();
        nodes.any |= own_nodes.is_some();
        for (p, corners) in mesh.polygons.iter().enumerate() {
            let shifted: Vec<u32> = corners.iter().map(|&i| i + offset).collect();
            let surface = mesh.surfaces.get(p).copied().unwrap_or_default_surface();
            out.push_polygon(&shifted, surface);
            materials.push(own_materials.as_ref().and_then(|n| n.name(p)));
            nodes.push(own_nodes.as_ref().and_then(|n| n.name(p)));
        }
        // A model's use points (placeables, doors: `placeable.rs`).
        out.hooks.extend(mesh.hooks.iter().cloned());
    }
    materials.store(&mut out, "render:material", "render:materials");
    nodes.store(&mut out, "render:node", "render:nodes");
    out
}

/// A per-face name column being merged: indices into a list of distinct names, -1 for none.
#[derive(Default)]
struct NameColumn {
    names: Vec<String>,
    column: Vec<i64>,
    /// Some input had such a column.
    any: bool,
}

impl NameColumn {
    fn push(&mut self, name: Option<&str>) {
        let index = match name {
            Some(name) => match self.names.iter().position(|known| known == name) {
                Some(i) => i as i64,
                None => {
                    self.names.push(name.to_string());
                    (self.names.len() - 1) as i64
                }
            },
            None => -1,
        };
        self.column.push(index);
    }

    fn store(self, mesh: &mut NavMesh, column: &str, list: &str) {
        use walkmesh_core::ir::{Attribute, Extra};
        if self.any {
            mesh.face_attributes
                .insert(column.into(), Attribute::Int(self.column));
            mesh.extras.insert(list.into(), Extra::TextList(self.names));
        }
    }
}

/// A missing surface (a mesh that breaks `NavMesh::check`) reads as an undefined one.
trait OrDefaultSurface {
    fn unwrap_or_default_surface(self) -> walkmesh_core::material::Surface;
}

impl OrDefaultSurface for Option<walkmesh_core::material::Surface> {
    fn unwrap_or_default_surface(self) -> walkmesh_core::material::Surface {
        self.unwrap_or(walkmesh_core::material::Surface {
            material: walkmesh_core::material::Material(0),
            walkable: false,
            code: 0,
        })
    }
}

impl walkmesh_core::Kinded for GenerateError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            GenerateError::Parameter { .. } | GenerateError::OutOfRange { .. } => {
                ErrorKind::Parameter
            }
            GenerateError::EmptyInput => ErrorKind::Invalid,
            GenerateError::GridTooLarge { .. }
            | GenerateError::Memory { .. }
            | GenerateError::ColumnTooDeep { .. } => ErrorKind::Limit,
        }
    }
}
