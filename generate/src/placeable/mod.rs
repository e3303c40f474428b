//! A placeable's walkmesh (PWK) or a door's closed-state walkmesh (DWK) from its model.
//!
//! What is generated, as BioWare stores these files (type-0 BWMs: the model's own
//! coordinates, no position offset, two use points):
//!
//! 1. **ground**: the height of the model's origin (0: the game stands a placeable on its
//!    origin; faces wholly below it are sunk in the floor and ignored), or the model's lowest
//!    point when the model does not reach from below its origin to above it;
//! 2. **columns** ([`grid`]): a plan grid of `cell_size` columns on whole multiples of the
//!    cell; a column holds what the model's faces put over its centre (upright faces: those
//!    passing strictly within half a cell of it). A column with nothing below the agent's
//!    head (`agent_height` above the ground) is ground a character walks (under a high table
//!    top); one whose highest walkable face under the head has the agent's clearance above it
//!    is a **top**; anything else is **blocked**;
//! 3. **reach**: from the free ground around the object, steps of at most `max_climb` between
//!    neighbouring columns; a top reached so (a platform within the climb, or up its steps)
//!    is walkable, one not reached is blocked, and so is ground the object encloses (the
//!    inside of a closed ring);
//! 4. **radius**: ground within `agent_radius` of a blocked column is blocked (where a
//!    character's centre cannot stand), then step 3 again (legs grown together close the
//!    ground between them);
//! 5. **faces**: the blocked columns as flat non-walkable (`NonWalk`) faces at the ground,
//!    each top's columns as flat walkable faces at its height (`default_material`), outlined
//!    on the cell lines, simplified within `max_edge_error`, triangulated;
//! 6. **use points**: the model's `use1`/`use2` points when its reader found them (MDL dummy
//!    nodes), else placed [`USE_DISTANCE`] in front of the footprint's **front**, its −Y side
//!    (the side the use points of `plc_fccage2.pwk`, the one public PWK with use points, are
//!    on): a placeable's at a quarter of the footprint's width left and right of its middle,
//!    a door's one on each side of the slab (−Y then +Y), at the ground.
//!
//! A door's walkmesh is its closed state: the slab the panel fills across the frame, which is
//! the same footprint (at radius 0: the slab is the panel). The open states are not generated
//! (warning `generate.door_open_states_not_generated`).

pub mod grid;
mod outline;

use std::collections::HashMap;
use std::time::Instant;

use walkmesh_core::material::Surface;
use walkmesh_core::{Hook, NavMesh};

use crate::{GenerateError, Generated, Params, Report, holes};
use grid::{Cell, Grid};

/// The agent radius of the KotOR placeable preset (m): a character's centre keeps this far
/// from the object (chosen: a human's half width; BioWare's value is not public).
pub const KOTOR_PLACEABLE_RADIUS: f32 = 0.25;

pub use crate::object::{ObjectKind, ObjectReport, USE_DISTANCE, UsePoints};

impl Params {
    /// The preset of an object's walkmesh for `engine`: the engine's, with 5 cm cells and
    /// outline tolerance (objects are small; the footprint is kept within 5 cm) and, for a
    /// KotOR placeable, [`KOTOR_PLACEABLE_RADIUS`]; a door's radius is 0 (the closed slab is
    /// the panel itself).
    pub fn object_preset(engine: crate::Engine, kind: ObjectKind) -> Params {
        let mut params = Params::preset(engine);
        params.cell_size = 0.05;
        params.max_edge_error = 0.05;
        params.cell_height = params.cell_height.min(0.05);
        params.agent_radius = match (kind, engine) {
            (ObjectKind::Door, _) => 0.0,
            (ObjectKind::Placeable, crate::Engine::Kotor) => KOTOR_PLACEABLE_RADIUS,
            (ObjectKind::Placeable, _) => params.agent_radius,
        };
        params
    }
}

/// Generates the walkmesh of the object `input` (render geometry in model coordinates, +Z
/// up; see the module documentation).
pub fn generate_object(
    input: &NavMesh,
    params: &Params,
    kind: ObjectKind,
) -> Result<Generated, GenerateError> {
    params.check()?;
    let started = Instant::now();
    let mut clock = Instant::now();
    let mut report = Report::new(params);
    let triangles = grid::triangles(input);
    if triangles.is_empty() {
        return Err(GenerateError::EmptyInput);
    }
    report.input_triangles = triangles.len();
    let mut grid = Grid::build(&triangles, params)?;
    report.grid = [grid.width, grid.height];
    report.stage("voxelise", &mut clock);
    grid.block_unreached(params);
    grid.grow_by_radius(params);
    grid.block_unreached(params);
    report.stage("reachability", &mut clock);
    let mut mesh = faces(&grid, params, kind, &mut report);
    report.stage("triangulate", &mut clock);
    let bounds = footprint_bounds(&grid);
    let use_points = place_use_points(&mut mesh, input, kind, bounds, grid.ground);
    report.object = Some(object_report(&grid, input, kind, bounds, use_points));
    report.faces_written = mesh.polygons.len();
    report.vertices_written = mesh.vertices.len();
    report.walkable_area = crate::triangulate::walkable_area(&mesh);
    report.total_seconds = started.elapsed().as_secs_f64();
    Ok(Generated { mesh, report })
}

/// The blocked columns at the ground, then each top (connected columns at one height) at its
/// height.
fn faces(grid: &Grid, params: &Params, kind: ObjectKind, report: &mut Report) -> NavMesh {
    let mut mesh = NavMesh {
        kind: kind.mesh_kind(),
        ..NavMesh::default()
    };
    let tolerance = f64::from(params.max_edge_error);
    let mut welded = HashMap::new();
    let blocked: Vec<bool> = grid.cells.iter().map(|&c| c == Cell::Blocked).collect();
    let (triangles, skipped) = outline::triangles(grid, &blocked, tolerance);
    report.skipped_edges += skipped;
    push_flat(&mut mesh, &mut welded, &triangles, grid.ground, holes::FILL);
    let walkable = Surface {
        material: params.default_material,
        walkable: true,
        code: u32::from(params.default_material.0),
    };
    for (height, inside) in tops(grid) {
        let (triangles, skipped) = outline::triangles(grid, &inside, tolerance);
        report.skipped_edges += skipped;
        push_flat(&mut mesh, &mut welded, &triangles, height, walkable);
        report.layers += 1;
    }
    for surface in &mesh.surfaces {
        *report
            .materials
            .entry(surface.material.name().into_owned())
            .or_default() += 1;
    }
    mesh
}

/// Each walkable top: columns connected (four neighbours) at one height.
fn tops(grid: &Grid) -> Vec<(f64, Vec<bool>)> {
    let mut done = vec![false; grid.cells.len()];
    let mut out = Vec::new();
    for start in 0..grid.cells.len() {
        let Some(&Cell::Top(height)) = grid.cells.get(start) else {
            continue;
        };
        if done[start] {
            continue;
        }
        let mut inside = vec![false; grid.cells.len()];
        let mut stack = vec![start];
        done[start] = true;
        while let Some(i) = stack.pop() {
            inside[i] = true;
            let (x, y) = (i % grid.width, i / grid.width);
            for (nx, ny) in neighbours(grid, x, y) {
                let n = grid.index(nx, ny);
                let same =
                    matches!(grid.cells.get(n), Some(&Cell::Top(h)) if (h - height).abs() < 1e-6);
                if same && !done[n] {
                    done[n] = true;
                    stack.push(n);
                }
            }
        }
        out.push((height, inside));
    }
    out
}

fn neighbours(grid: &Grid, x: usize, y: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(4);
    if x > 0 {
        out.push((x - 1, y));
    }
    if y > 0 {
        out.push((x, y - 1));
    }
    if x + 1 < grid.width {
        out.push((x + 1, y));
    }
    if y + 1 < grid.height {
        out.push((x, y + 1));
    }
    out
}

/// Appends plan triangles at `height`, one vertex per position (`welded`: the vertices so
/// far by their bits), as the stored PWKs share them.
fn push_flat(
    mesh: &mut NavMesh,
    welded: &mut HashMap<[u32; 3], u32>,
    triangles: &[[[f64; 2]; 3]],
    height: f64,
    surface: Surface,
) {
    for t in triangles {
        let corners = t.map(|p| {
            let point = [p[0] as f32, p[1] as f32, height as f32];
            *welded.entry(point.map(f32::to_bits)).or_insert_with(|| {
                mesh.vertices.push(point);
                (mesh.vertices.len() - 1) as u32
            })
        });
        mesh.push_polygon(&corners, surface);
    }
}

/// Plan bounds of the blocked and top columns (min x, min y, max x, max y).
fn footprint_bounds(grid: &Grid) -> [f64; 4] {
    let mut bounds = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for y in 0..grid.height {
        for x in 0..grid.width {
            if grid.cells.get(grid.index(x, y)) == Some(&Cell::Ground) {
                continue;
            }
            let [cx, cy] = grid.centre(x, y);
            let half = grid.cell / 2.0;
            bounds = [
                bounds[0].min(cx - half),
                bounds[1].min(cy - half),
                bounds[2].max(cx + half),
                bounds[3].max(cy + half),
            ];
        }
    }
    bounds
}

/// The input's `use1`/`use2` points when it has both, else points in front of the front
/// (module documentation); stored as the mesh's hooks `use1`, `use2`.
fn place_use_points(
    mesh: &mut NavMesh,
    input: &NavMesh,
    kind: ObjectKind,
    bounds: [f64; 4],
    ground: f64,
) -> UsePoints {
    let named = |name: &str| {
        input
            .hooks
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.position)
    };
    if let (Some(use1), Some(use2)) = (named("use1"), named("use2")) {
        mesh.hooks = vec![hook("use1", use1), hook("use2", use2)];
        return UsePoints::Model;
    }
    let [x0, y0, x1, y1] = if bounds[0].is_finite() {
        bounds
    } else {
        [0.0; 4]
    };
    let middle = (x0 + x1) / 2.0;
    let front = y0 - USE_DISTANCE;
    let points = match kind {
        ObjectKind::Placeable => {
            let quarter = (x1 - x0) / 4.0;
            [[middle - quarter, front], [middle + quarter, front]]
        }
        ObjectKind::Door => [[middle, front], [middle, y1 + USE_DISTANCE]],
    };
    mesh.hooks = vec![
        hook(
            "use1",
            [points[0][0] as f32, points[0][1] as f32, ground as f32],
        ),
        hook(
            "use2",
            [points[1][0] as f32, points[1][1] as f32, ground as f32],
        ),
    ];
    UsePoints::Front
}

fn hook(name: &str, position: [f32; 3]) -> Hook {
    Hook {
        name: name.to_string(),
        position,
    }
}

fn object_report(
    grid: &Grid,
    input: &NavMesh,
    kind: ObjectKind,
    bounds: [f64; 4],
    use_points: UsePoints,
) -> ObjectReport {
    let cell_area = grid.cell * grid.cell;
    let count =
        |f: fn(&Cell) -> bool| grid.cells.iter().filter(|c| f(c)).count() as f64 * cell_area;
    let names = crate::floor::face_node_names(input);
    let mut nodes: Vec<String> = grid
        .blocking_polygons
        .iter()
        .filter_map(|&p| names.as_ref()?.name(p).map(str::to_string))
        .collect();
    nodes.sort();
    nodes.dedup();
    ObjectReport {
        kind,
        ground: grid.ground as f32,
        blocked_area: count(|c| *c == Cell::Blocked),
        walkable_top_area: count(|c| matches!(c, Cell::Top(_))),
        bounds: bounds.map(|v| if v.is_finite() { v as f32 } else { 0.0 }),
        use_points,
        nodes,
    }
}
