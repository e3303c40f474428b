//! What a generation did: parameters, components kept and dropped, counts, time per stage.

use std::time::Instant;

use serde::Serialize;

use crate::Params;

/// Warning code of the NWN2 tile simplification.
pub const SIMPLIFIED: &str = "generate.nwn2_tile_simplified";

/// One walkable component of the voxel floor.
#[derive(Clone, Debug, Serialize)]
pub struct ComponentReport {
    /// Floor area in m² (cells × cell area).
    pub area: f64,
    /// Centre of its cells (x, y, floor height).
    pub centre: [f32; 3],
    /// Plan bounds: min x, min y, max x, max y.
    pub bounds: [f32; 4],
    /// Why it was kept or dropped: `seed`, the start rule that chose it when no seed was
    /// given (`largest`, `no-water`, `under-cover`, `ground`: `start.rs`), `keep-unreachable`,
    /// `beside`, `unreachable`, `small`.
    pub reason: &'static str,
}

/// What decided the start, for the report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StartReport {
    /// `largest`, `no-water`, `under-cover` or `ground` (`start.rs`'s rules).
    pub rule: &'static str,
    /// Larger pieces the rules passed over, and why.
    pub passed_over: Vec<PassedOver>,
}

/// A piece larger than the start that a rule passed over.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PassedOver {
    /// Area in m² (cells × cell area).
    pub area: f64,
    /// Centre of its cells (x, y, floor height).
    pub centre: [f32; 3],
    /// `not floor` (its material), `open to the sky`, `raised`.
    pub why: &'static str,
}

/// Time one stage took.
#[derive(Clone, Debug, Serialize)]
pub struct StageTime {
    pub stage: &'static str,
    pub seconds: f64,
}

/// The report of one generation (serialisable for `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub params: Params,
    pub input_triangles: usize,
    /// Render faces left out as the raised lip of a ledge (`lips.rs`).
    pub lip_faces: usize,
    /// Voxel grid columns × rows.
    pub grid: [usize; 2],
    pub walkable_spans: usize,
    /// Memory the stages claimed, in bytes (`budget.rs`): an upper bound of what generation
    /// allocated, checked against `params.max_memory_mib`.
    pub memory_estimate: u64,
    pub kept: Vec<ComponentReport>,
    pub dropped: Vec<ComponentReport>,
    /// Floor narrower than `min_passage_width` everywhere, dropped (m²).
    pub narrow_area: f64,
    /// Floor closer than `agent_radius` to an edge, removed by erosion (m²): a piece narrower
    /// than about twice the radius goes entirely.
    pub eroded_area: f64,
    /// Area of the dropped components (m²).
    pub dropped_area: f64,
    /// With no seed on a floor: the start rule that chose the kept floor and the larger
    /// pieces it passed over (`start.rs`).
    pub start: Option<StartReport>,
    /// Seeds that found no walkable floor under them.
    pub seeds_missed: Vec<[f32; 3]>,
    /// Pieces with one floor per column that were outlined and triangulated.
    pub layers: usize,
    /// Outline edges the triangulation refused because they would cross another (the
    /// generator goes on without them; the faces are still chosen by the cells they cover).
    pub skipped_edges: usize,
    /// Points added where a face left the render floor by more than `detail_error`.
    pub detail_points: usize,
    /// NWN2: points put on the TRX tile lines the floor is cut at (`tiles.rs`): where an
    /// outline or a step line crosses one, and the detail points along a line.
    pub tile_line_points: usize,
    /// Mechanical repairs made by lint's fixer at the end (T-junctions split, …).
    pub repairs: usize,
    pub faces_written: usize,
    pub vertices_written: usize,
    /// Walkable area of the output (m², true 3-D area).
    pub walkable_area: f64,
    /// Number of output faces per material name.
    pub materials: std::collections::BTreeMap<String, usize>,
    pub stages: Vec<StageTime>,
    pub total_seconds: f64,
    /// Engine limits the output breaks (`limits.rs`).
    pub limits: Vec<crate::limits::LimitFinding>,
    /// NWN2: what the tile budget simplified (`simplify.rs`); None when every tile held.
    #[cfg(feature = "nwn2")]
    pub nwn2_simplified: Option<crate::simplify::TileSimplification>,
    /// KotOR: holes of the walkable floor filled with non-walkable faces (`holes.rs`).
    pub holes: Option<Filled>,
    /// KotOR: walls raised on the walkable floor's edge as non-walkable faces (`walls.rs`).
    pub walls: Option<Walls>,
    /// KotOR: open floor edges moved onto the render floor's own end (`floor_ends.rs`).
    pub floor_ends: Option<FloorEnds>,
    /// A placeable's or door's walkmesh (`placeable.rs`): footprint, use points, nodes used.
    pub object: Option<crate::object::ObjectReport>,
}

impl Report {
    pub(crate) fn new(params: &Params) -> Report {
        Report {
            params: params.clone(),
            input_triangles: 0,
            lip_faces: 0,
            grid: [0, 0],
            walkable_spans: 0,
            memory_estimate: 0,
            kept: Vec::new(),
            dropped: Vec::new(),
            dropped_area: 0.0,
            narrow_area: 0.0,
            eroded_area: 0.0,
            start: None,
            seeds_missed: Vec::new(),
            layers: 0,
            skipped_edges: 0,
            detail_points: 0,
            tile_line_points: 0,
            repairs: 0,
            faces_written: 0,
            vertices_written: 0,
            walkable_area: 0.0,
            materials: Default::default(),
            stages: Vec::new(),
            total_seconds: 0.0,
            limits: Vec::new(),
            #[cfg(feature = "nwn2")]
            nwn2_simplified: None,
            holes: None,
            walls: None,
            floor_ends: None,
            object: None,
        }
    }

    /// Records the time since `clock` under `stage` and restarts the clock.
    pub(crate) fn stage(&mut self, stage: &'static str, clock: &mut Instant) {
        self.stages.push(StageTime {
            stage,
            seconds: clock.elapsed().as_secs_f64(),
        });
        *clock = Instant::now();
    }

    /// The text report for a person.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let p = &self.params;
        let _ = writeln!(
            out,
            "generate: {:?} preset, cell {} × {} m, agent height {} m, radius {} m, climb {} m, slope {}°",
            p.engine,
            p.cell_size,
            p.cell_height,
            p.agent_height,
            p.agent_radius,
            p.max_climb,
            p.max_slope
        );
        let _ = writeln!(
            out,
            "  {} input triangles, grid {} × {}, {} walkable spans, {} layer(s), memory estimate {} MiB",
            self.input_triangles,
            self.grid[0],
            self.grid[1],
            self.walkable_spans,
            self.layers,
            self.memory_estimate.div_ceil(1024 * 1024)
        );
        for (what, list) in [("kept", &self.kept), ("dropped", &self.dropped)] {
            for c in list.iter() {
                let _ = writeln!(
                    out,
                    "  {what} {:.2} m² at ({:.2}, {:.2}, {:.2}) [{}]",
                    c.area, c.centre[0], c.centre[1], c.centre[2], c.reason
                );
            }
        }
        if let Some(start) = &self.start {
            let _ = writeln!(out, "  start floor chosen by the rule: {}", start.rule);
            for p in &start.passed_over {
                let _ = writeln!(
                    out,
                    "  passed over {:.2} m² at ({:.2}, {:.2}, {:.2}): {}",
                    p.area, p.centre[0], p.centre[1], p.centre[2], p.why
                );
            }
        }
        for seed in &self.seeds_missed {
            let _ = writeln!(out, "  seed {seed:?} is on no walkable floor");
        }
        if self.eroded_area > 0.0 {
            let _ = writeln!(
                out,
                "  {:.2} m² within the agent radius ({} m) of an edge eroded",
                self.eroded_area, p.agent_radius
            );
        }
        if self.narrow_area > 0.0 {
            let _ = writeln!(
                out,
                "  {:.2} m² narrower than the passage width ({} m) everywhere dropped",
                self.narrow_area, p.min_passage_width
            );
        }
        if self.skipped_edges > 0 {
            let _ = writeln!(
                out,
                "  {} outline edge(s) crossed another and were left out of the triangulation",
                self.skipped_edges
            );
        }
        if self.tile_line_points > 0 {
            let _ = writeln!(
                out,
                "  floor cut at the NWN2 tile lines: {} point(s) put on them, no face crosses a tile",
                self.tile_line_points
            );
        }
        if let Some(h) = &self.holes
            && h.holes + h.left_open > 0
        {
            let _ = writeln!(
                out,
                "  {} hole(s) in the floor filled with {} non-walkable faces ({:.2} m²), {} left open",
                h.holes, h.faces, h.area, h.left_open
            );
        }
        if let Some(w) = &self.walls
            && w.edges > 0
        {
            let _ = writeln!(
                out,
                "  walls on {} of {} floor edge(s): {} non-walkable faces ({:.2} m²)",
                w.walled, w.edges, w.faces, w.area
            );
        }
        if let Some(e) = &self.floor_ends
            && e.vertices > 0
        {
            let _ = writeln!(
                out,
                "  floor ends: {} open edge(s) on the render floor's own end, {} vertices moved, at most {:.3} m",
                e.edges, e.vertices, e.max_move
            );
        }
        #[cfg(feature = "nwn2")]
        if let Some(s) = &self.nwn2_simplified {
            let _ = writeln!(out, "  [{}] {}", SIMPLIFIED, s.message());
        }
        if let Some(object) = &self.object {
            out.push_str(&object.text());
        }
        for limit in &self.limits {
            let _ = writeln!(out, "  [{}] {}", limit.code, limit.message);
        }
        let _ = writeln!(
            out,
            "  {} faces, {} vertices, walkable area {:.2} m² (dropped {:.2} m²), {:.3} s",
            self.faces_written,
            self.vertices_written,
            self.walkable_area.abs(),
            self.dropped_area,
            self.total_seconds
        );
        out
    }
}

/// What the hole filling did.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, PartialEq)]
pub struct Filled {
    /// Holes filled and left open.
    pub holes: usize,
    pub left_open: usize,
    /// Non-walkable faces added and their plan area (m²).
    pub faces: usize,
    pub area: f64,
}

/// What the wall stage did.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, PartialEq)]
pub struct Walls {
    /// Walkable boundary edges (not closed by the hole fill) and how many got a wall (on
    /// all or part of their length).
    pub edges: usize,
    pub walled: usize,
    /// Edges cut where a wall ends along them (a doorway in a straight wall): the floor
    /// triangle on the edge is split there into pieces on the same plane.
    pub split_edges: usize,
    /// Non-walkable faces added and their area (m², upright).
    pub faces: usize,
    pub area: f64,
}

/// What moving the floor ends did (the report's `floor_ends`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FloorEnds {
    /// Open edges that found the render floor's end along them.
    pub edges: usize,
    /// Vertices moved onto it.
    pub vertices: usize,
    /// The largest move (m, in 3D).
    pub max_move: f64,
}
