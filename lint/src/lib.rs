//! walkmesh-lint: finds the walkmesh defects that game patches fix by hand (holes, loose
//! islands, downward "roof" faces, tile edges that do not meet in height, duplicated and
//! degenerate faces, …) and repairs the mechanical ones.
//!
//! [`lint`] looks at one [`NavMesh`] (a file, or a KotOR area assembled from its rooms, whose
//! faces carry their room in the `area:room` column); [`fix::fix`] repairs what is mechanical.
//! Every neighbourhood search goes through a hash grid ([`grid`]), so a lint is `n·log n` at
//! worst (sorting the findings) and linear in expectation otherwise.
//!
//! Positions (`at`) are in the tool's frame: +Z up, the mesh's own coordinates.

pub mod baseline;
pub mod fix;
mod geometry;
mod grid;
mod islands;
pub mod level;
mod narrow;
mod overlap;
mod seams;
mod surface;

use serde::Serialize;
use walkmesh_core::passes::{Adjacency, edge_adjacency};
use walkmesh_core::{Diagnostic, NavMesh, Severity};

pub use fix::{Fixed, Repair, fix, fix_room};
pub use level::{LEVELS, Level, level_of};
/// The engine whose rules decide what is steep (declared by each format: `FormatDescriptor::engine`).
pub use walkmesh_core::Engine;

/// Walkable face whose normal points down.
pub const DOWNWARD_WALKABLE: &str = "lint.downward_walkable";
/// Walkable face steeper than the target engine walks.
pub const STEEP_WALKABLE: &str = "lint.steep_walkable";
/// Zero-area or needle face.
pub const DEGENERATE: &str = "lint.degenerate";
/// Walkable faces overlapping in plan at the same height (duplicates included).
pub const OVERLAP: &str = "lint.overlap";
/// A vertex on another face's edge without being one of its corners.
pub const T_JUNCTION: &str = "lint.t_junction";
/// Edges that meet in plan but not in height.
pub const HEIGHT_SEAM: &str = "lint.height_seam";
/// Boundary edges closer than the gap that are not joined.
pub const OPEN_SEAM: &str = "lint.open_seam";
/// Walkable component cut off from the main walkable area.
pub const ISLAND: &str = "lint.island";
/// (Areas) a transition naming a room not in the layout, or whose room has no edge back.
pub const TRANSITION_TARGET: &str = "lint.transition_target";
/// (Areas) two rooms' walkable edges meet, but neither names the other: the engine cannot
/// cross between them.
pub const TRANSITION_MISSING: &str = "lint.transition_missing";
/// A walkable edge shared by three or more walkable faces: adjacency cannot link it.
pub const NON_MANIFOLD: &str = "lint.non_manifold";
/// A walkable strip narrower than a character (a gap through a wall, a sliver along one).
pub const NARROW_PASSAGE: &str = "lint.narrow_passage";

/// Every code [`lint`] can give, in report order.
pub const CODES: [&str; 12] = [
    DOWNWARD_WALKABLE,
    STEEP_WALKABLE,
    DEGENERATE,
    OVERLAP,
    T_JUNCTION,
    HEIGHT_SEAM,
    OPEN_SEAM,
    NON_MANIFOLD,
    NARROW_PASSAGE,
    ISLAND,
    TRANSITION_TARGET,
    TRANSITION_MISSING,
];

/// The codes [`fix::fix`] repairs (for duplicates only among the overlaps).
pub const FIXED_CODES: [&str; 6] = [
    DOWNWARD_WALKABLE,
    DEGENERATE,
    T_JUNCTION,
    HEIGHT_SEAM,
    OPEN_SEAM,
    OVERLAP,
];

/// One defect: what (`code`), how bad, which faces (the file's numbering), where (tool frame,
/// Z up; `None` for a reader's note about the whole file), whether `--fix` repairs it, and
/// its group ([`Level`]: default, or pedantic for what shipped content holds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub code: String,
    pub severity: Severity,
    pub faces: Vec<u32>,
    pub at: Option<[f32; 3]>,
    pub message: String,
    pub fixable: bool,
    pub level: Level,
    /// Square metres the defect covers, for the findings that measure one (the model
    /// comparison's `model.*` codes); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<f64>,
}

impl Finding {
    fn warning(code: &str, faces: Vec<u32>, at: [f32; 3], message: String, fixable: bool) -> Self {
        Finding {
            code: code.to_string(),
            severity: Severity::Warning,
            faces,
            at: Some(at),
            message,
            fixable,
            level: Level::Default,
            area: None,
        }
    }

    /// A reader's diagnostic (what it had to repair or could not keep), as a finding.
    pub fn from_diagnostic(diagnostic: &Diagnostic) -> Finding {
        Finding {
            code: diagnostic.code.clone(),
            severity: diagnostic.severity,
            faces: Vec::new(),
            at: None,
            message: diagnostic.message.clone(),
            fixable: false,
            level: Level::Default,
            area: None,
        }
    }
}

/// Distances and limits of one lint. The defaults are in metres (every supported game uses
/// metre-scale units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LintOptions {
    /// Whose walking rules decide steepness.
    pub engine: Engine,
    /// Boundary edges whose ends lie within this distance in plan are "meeting" edges (open or
    /// height seams). Default 0.05, the gap the area transition solver accepts between rooms.
    pub gap: f32,
    /// Meeting edges whose ends differ in height by at most this are one floor (an open seam
    /// when not joined). Default 0.01.
    pub height_tolerance: f32,
    /// Meeting edges further apart in height than this are different floors, not a seam.
    /// Default 0.5: a step no creature takes.
    pub max_step: f32,
    /// Between rooms of an area (joined by transitions, not shared vertices), edges within
    /// this height of each other connect. Default 0.1, the transition solver's.
    pub room_height_tolerance: f32,
    /// Overlapping faces whose planes are within this height of each other at the overlap are
    /// at "the same height". Default 0.25.
    pub overlap_height: f32,
    /// A vertex closer than this to another face's edge sits on it (T-junction). Default 0.001.
    pub on_edge: f32,
    /// Faces with an altitude (twice the area over the longest edge) below this are needles.
    /// Default 0.001.
    pub needle_height: f32,
    /// Walkable strips narrower than this are narrow passages. Default 0.5: an assumed
    /// human-sized creature's width (no engine's value is in our notes); 0 turns the check
    /// off.
    pub character_width: f32,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            engine: Engine::Generic,
            gap: 0.05,
            height_tolerance: 0.01,
            max_step: 0.5,
            room_height_tolerance: 0.1,
            overlap_height: 0.25,
            on_edge: 0.001,
            needle_height: 0.001,
            character_width: 0.5,
        }
    }
}

/// What the lint passes share: the mesh, its walkable adjacency, and per-face room labels
/// (areas) and tile labels (NWN2 terrain).
pub(crate) struct Context<'a> {
    pub mesh: &'a NavMesh,
    pub options: LintOptions,
    pub adjacency: Adjacency,
    /// Room (LYT index) of each face; `None` for a single walkmesh.
    pub rooms: Option<Vec<i64>>,
    /// For a walkable face stored again (the same corner positions, in any order, in the same
    /// room), the first face holding them; `u32::MAX` otherwise. Copies are reported once, in
    /// a group, by `lint.overlap`, and the neighbourhood checks look at the first copy only,
    /// so a face repeated n times costs n, not n² (issue #33).
    pub copy_of: Vec<u32>,
}

impl<'a> Context<'a> {
    pub fn new(mesh: &'a NavMesh, options: LintOptions) -> Self {
        let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
        let rooms = match mesh.face_attributes.get(ROOM_COLUMN) {
            Some(walkmesh_core::Attribute::Int(values)) if values.len() == mesh.polygons.len() => {
                Some(values.clone())
            }
            _ => None,
        };
        let copy_of = copies(mesh, rooms.as_deref());
        Context {
            mesh,
            options,
            adjacency,
            rooms,
            copy_of,
        }
    }

    /// Whether `face` is a later copy of an earlier face (see [`Context::copy_of`]).
    pub fn is_copy(&self, face: usize) -> bool {
        self.copy_of
            .get(face)
            .is_some_and(|&first| first != u32::MAX)
    }

    /// Room of face `face` (0 for a single walkmesh).
    pub fn room(&self, face: u32) -> i64 {
        self.rooms
            .as_ref()
            .and_then(|r| r.get(face as usize).copied())
            .unwrap_or(0)
    }
}

/// For each walkable face, the first earlier walkable face with the same corner positions
/// (sorted, `-0.0` as `0.0`) in the same room; `u32::MAX` when none. One hash map: linear.
fn copies(mesh: &NavMesh, rooms: Option<&[i64]>) -> Vec<u32> {
    let mut first: rustc_hash::FxHashMap<(i64, Vec<[u32; 3]>), u32> = Default::default();
    let mut copy_of = vec![u32::MAX; mesh.polygons.len()];
    for (face, polygon) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(face) {
            continue;
        }
        let mut corners: Vec<[u32; 3]> = polygon
            .iter()
            .map(|&v| mesh.vertex(v).map(|c| (c + 0.0).to_bits()))
            .collect();
        corners.sort_unstable();
        let room = rooms.and_then(|r| r.get(face).copied()).unwrap_or(0);
        match first.entry((room, corners)) {
            std::collections::hash_map::Entry::Occupied(seen) => {
                if let Some(slot) = copy_of.get_mut(face) {
                    *slot = *seen.get();
                }
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(face as u32);
            }
        }
    }
    copy_of
}

/// The per-face room column of an assembled area (`walkmesh_kotor_area::assemble`).
pub use walkmesh_core::ir::ROOM_COLUMN;

/// Lints `mesh`: every check of [`CODES`] (the area checks only when faces carry rooms;
/// `layout_rooms` is the LYT's room count then), at every level: each finding says its group
/// ([`level_of`] the code for the engine), and [`at_level`] keeps those a level reports.
/// Findings are sorted by code order, then by first face.
pub fn lint(mesh: &NavMesh, options: &LintOptions, layout_rooms: Option<usize>) -> Vec<Finding> {
    let context = Context::new(mesh, *options);
    let mut findings = Vec::new();
    surface::downward_and_steep(&context, &mut findings);
    surface::degenerate(&context, &mut findings);
    surface::non_manifold(&context, &mut findings);
    overlap::overlaps(&context, &mut findings);
    let meetings = seams::meeting_edges(&context);
    seams::report_seams(&context, &meetings, &mut findings);
    seams::t_junctions(&context, &mut findings);
    narrow::narrow_passages(&context, &meetings.edges, &mut findings);
    if let Some(room_count) = layout_rooms {
        seams::transitions(&context, &meetings, room_count, &mut findings);
    }
    islands::islands(&context, &meetings, &mut findings);
    for finding in &mut findings {
        finding.level = level_of(&finding.code, options.engine);
    }
    sort(&mut findings);
    findings
}

/// The findings a lint at `level` reports: those of its group and the groups before it.
pub fn at_level(findings: Vec<Finding>, level: Level) -> Vec<Finding> {
    findings.into_iter().filter(|f| f.level <= level).collect()
}

/// Orders findings by code (the order of [`CODES`], others after), then by first face.
pub fn sort(findings: &mut [Finding]) {
    let rank = |code: &str| CODES.iter().position(|c| *c == code).unwrap_or(CODES.len());
    findings.sort_by(|a, b| {
        rank(&a.code)
            .cmp(&rank(&b.code))
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.faces.first().cmp(&b.faces.first()))
    });
}

/// Walkable area of `mesh`: the sum of walkable face areas, a face stored again on the same
/// vertices counted once (a duplicate adds no floor).
pub fn walkable_area(mesh: &NavMesh) -> f64 {
    let mut seen = rustc_hash::FxHashSet::default();
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .filter(|&p| {
            let mut corners = mesh.polygons.get(p).to_vec();
            corners.sort_unstable();
            seen.insert(corners)
        })
        .map(|p| walkmesh_core::passes::polygon_area(mesh, p))
        .sum::<f64>()
        // An empty f64 sum is -0.0, which prints as "-0.000".
        + 0.0
}

/// The mesh as lint should see it: a modelling-tool file (OBJ, glTF), whose coincident
/// vertices are one place to its author, has them merged (what `convert` does before writing,
/// within the rounding of f32 transforms), but every face is kept in its source order so that
/// findings name the file's faces; a face that merging collapses is then a degenerate finding.
/// Game formats are borrowed unchanged.
pub fn as_linted(mesh: &NavMesh) -> std::borrow::Cow<'_, NavMesh> {
    use walkmesh_core::{Requirements, VertexIdentity, WeldChoice};
    if mesh.vertex_identity() != VertexIdentity::Incidental {
        return std::borrow::Cow::Borrowed(mesh);
    }
    let tolerance = WeldChoice::Exact
        .tolerance(mesh, &Requirements::default())
        .unwrap_or(0.0);
    let (map, _) = walkmesh_core::passes::weld::weld_positions(&mesh.vertices, tolerance);
    // Each vertex goes to the first vertex of its group (kept index → first source index).
    let mut first_of_group = vec![u32::MAX; mesh.vertices.len()];
    for (v, &group) in map.iter().enumerate() {
        if let Some(slot) = first_of_group.get_mut(group as usize)
            && *slot == u32::MAX
        {
            *slot = v as u32;
        }
    }
    let mut merged = mesh.clone();
    for index in merged.polygons.indices_mut() {
        let group = map.get(*index as usize).copied().unwrap_or(*index);
        *index = first_of_group
            .get(group as usize)
            .copied()
            .unwrap_or(*index);
    }
    std::borrow::Cow::Owned(merged)
}
