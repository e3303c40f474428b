//! IR → PATH: the cooker.
//!
//! 1. **Which polygons.** A polygon becomes (part of) a region when its locomotion type mask
//!    is non-zero: the `path:type_mask` face attribute when present; else, when the `prime`
//!    profile lists the polygon's neutral material, the entry's code if the entry is walkable
//!    and 0 if not (a changed walkability is warned); else 1 (ground) for walkable polygons
//!    and 0 for the rest. Everything else is dropped with a loss warning.
//!    Polygons with no area seen from above (vertical walls, collapsed faces, repeated
//!    corners, edges too short for their coordinates' precision) cannot be regions (the
//!    engine divides by the plane normal's z and by edge widths) and are dropped with a
//!    warning too. Polygons facing down are cooked as single regions with their corners
//!    reversed; when they are most of the walkable area seen from above, the mesh is refused
//!    as wound the wrong way. A mesh with nothing left to cook is refused: a PATH file
//!    without regions is of no use to the game.
//! 2. **Convex, flat input.** When some cooked polygon is not convex seen from above or not
//!    flat, the whole mesh is triangulated first (core `triangulate`). Regions read from a
//!    PATH file that are flat only within the height-error bound (cooks under a budget move
//!    shared corners by different amounts on each side) are flattened instead.
//! 3. **Merge** ([`crate::merge`]): patches with their inner vertices removed
//!    ([`crate::decimate`]), each cut along diagonals that resolve two reflex corners at
//!    once (the partition of `decimate/partition.rs`, Steiner cuts where no vertex resolves
//!    a corner), then Hertel–Mehlhorn with those cuts removed last, within each patch of
//!    polygons with equal height and masks that are
//!    flat within a vertical tolerance (`prime:height_tolerance`, default
//!    [`DEFAULT_HEIGHT_TOLERANCE`]; 0 merges exactly coplanar polygons only): a region
//!    replaces input vertices up to the tolerance above or below its plane, and its corners
//!    are moved onto the plane. The engine finds the ground up to 0.3 below a query point,
//!    so a small tolerance keeps every point of the source's surface in its region.
//! 4. **Region budget.** When that leaves more than `prime:max_regions` (default
//!    512, the engine's limit) regions, the tolerance grows: the smallest (by bisection)
//!    that meets the budget, at most `prime:max_height_error`
//!    (default [`DEFAULT_MAX_HEIGHT_ERROR`]); beyond it the cook fails naming the smallest
//!    budget reachable. Connectivity never changes (regions only join across shared edges)
//!    and the covered area seen from above never changes.
//! 5. **Records.** Nodes clockwise from above; collinear corners are dropped where both
//!    edges have the same other side (the same neighbour region, or none), kept where the
//!    neighbour changes, so that every link spans exactly one edge of each side even where
//!    one region's straight side meets several neighbours (T-junctions); node 0 is a strict
//!    corner. Node normal `normalize((next − this) × +Z)`, links for edges whose other side
//!    is another region, width = XY edge length, `1 / width`, region normal = unit Newell
//!    normal (relative to node 0, so that large coordinates keep their precision), centroid
//!    = mean of the corners, box = corners and corners + height, index and scratch =
//!    position.
//! 6. **Tables.** Ground bits = connected components over links among regions with type bit
//!    1; flyer bits the same among regions with bits 1 or 2; reserved words zero; the octree
//!    per [`crate::octree`]; `0xFF` padding to a multiple of 32 bytes.
//!
//! Regions read from a PATH file are authored data: a mesh that came from PATH (it carries
//! the `path:version` extra, which glTF keeps too) is cooked one region per polygon, so
//! `--rebuild` and PATH → glTF → PATH keep its regions and recompute only the derived tables.
//! `params["prime:merge"]` = `on`/`off` overrides either default.

use std::borrow::Cow;

use walkmesh_core::passes::{connected_components, edge_adjacency, triangulate};
use walkmesh_core::progress;
use walkmesh_core::{
    Attribute, Diagnostics, Extra, MeshKind, NavMesh, Position, Severity, WriteError, WriteOptions,
};

use crate::merge::{Flatness, MergeInput, Merger, P3, PLANE_DISTANCE, Plane, point, straight};
use crate::model::{
    Link, Node, PathFile, PointGraph, Region, VERSION_MP1, VERSION_MP2, VERSION_MP3, bitset_words,
    has_reserved_words, pair_bit, reserved_words,
};
use crate::octree::{Aabb, MAX_OCTREE_CELLS, MAX_OCTREE_ENTRIES, build_octree};
use crate::read::{ATTR_HEIGHT, ATTR_INDEX_MASK, ATTR_TYPE_MASK, EXTRA_VERSION, profile_for};

/// The engine refuses areas with more regions than this (bit sets sized for 512).
pub const MAX_REGIONS: usize = 512;
/// Default region height (metaforce's cooker default).
pub const DEFAULT_HEIGHT: f32 = 1.0;
/// Default AI index mask: every AI class may use the region.
pub const DEFAULT_INDEX_MASK: u16 = 0x00FF;
/// Default bound on the height error a region budget may introduce: the engine lifts ground
/// queries by 0.3 before looking for the region below (`docs/formats/prime.md` §5), so a point of the
/// original surface up to 0.3 below its region's floor is still found in it.
pub const DEFAULT_MAX_HEIGHT_ERROR: f64 = 0.3;
/// Default vertical tolerance of every merge (see the module comment): well inside the
/// engine's 0.3 margin, and above the centimetre ripples of modelled floors.
pub const DEFAULT_HEIGHT_TOLERANCE: f64 = 0.05;
/// Default bound on the walkable area (seen from above) a region budget may change by
/// straightening the walkable border, as a fraction of the cooked footprint.
pub const DEFAULT_MAX_AREA_CHANGE: f64 = 0.25;
/// Polygons whose unit normal has a smaller z are treated as vertical and dropped.
const MIN_NORMAL_Z: f64 = 1e-3;
/// An edge shorter than this fraction of its coordinates' magnitude (seen from above) is
/// below `f32` precision (2^-22, two units in the last place): its direction, inward
/// normal and width are noise, so its polygon is dropped as degenerate.
const MIN_RELATIVE_EDGE: f64 = 1.0 / 4_194_304.0;
/// Shortest edge (seen from above) whose width and `1 / width` are normal `f32` numbers.
const MIN_EDGE: f64 = 1e-36;
/// Largest coordinate magnitude cooked: beyond it areas and plane offsets lose all
/// precision in `f32` (and `f32::MAX`-sized boxes overflow).
const MAX_COORDINATE: f64 = 1e15;
/// Bisection steps of the budget search.
const BUDGET_STEPS: usize = 8;
/// Bisection steps of the border search, over areas per corner from [`BORDER_RANGE`] of the
/// bound to the bound (a step of about 3.7% in area at the end).
const BORDER_STEPS: usize = 8;
const BORDER_RANGE: f64 = 1e-4;
/// Smallest tolerance the budget search tries (below it merging is exact in practice).
const MIN_TOLERANCE: f64 = 1e-4;

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Skip,
    Degenerate,
    Up,
    Down,
}
fn parse_param<T: std::str::FromStr>(
    options: &WriteOptions,
    key: &str,
) -> Result<Option<T>, WriteError> {
    match options.params.get(key) {
        None => Ok(None),
        Some(text) => {
            text.trim().parse().map(Some).map_err(|_| {
                WriteError::new(key, format!("'{text}' is not a valid value for {key}"))
            })
        }
    }
}

fn column_f32(mesh: &NavMesh, name: &str, polygon: usize) -> Option<f32> {
    match mesh.face_attributes.get(name)? {
        Attribute::Float(values) => values.get(polygon).copied(),
        Attribute::Int(values) => values.get(polygon).map(|&v| v as f32),
    }
}

fn column_i64(mesh: &NavMesh, name: &str, polygon: usize) -> Option<i64> {
    match mesh.face_attributes.get(name)? {
        Attribute::Int(values) => values.get(polygon).copied(),
        Attribute::Float(values) => values.get(polygon).map(|&v| v as i64),
    }
}

fn mask(mesh: &NavMesh, name: &str, polygon: usize) -> Result<Option<u16>, WriteError> {
    match column_i64(mesh, name, polygon) {
        None => Ok(None),
        Some(value) => u16::try_from(value).map(Some).map_err(|_| {
            WriteError::new(
                format!("{name}[{polygon}]"),
                format!("polygon {polygon} has {name} = {value}, which does not fit in 16 bits"),
            )
        }),
    }
}

/// Type mask and walkability of polygon `p` from the profile: the entry for its neutral
/// material when the profile lists it (walkable entries give their code, others 0), else 1
/// for walkable polygons and 0 for the rest.
fn type_from_profile(
    profile: &walkmesh_core::MaterialProfile,
    mesh: &NavMesh,
    p: usize,
) -> Result<(u16, bool), WriteError> {
    let walkable = mesh.is_walkable(p);
    let Some(surface) = mesh
        .surfaces
        .get(p)
        .and_then(|s| profile.surface_or_fallback(s.material))
        .map(|(surface, _)| surface)
    else {
        return Ok((u16::from(walkable), walkable));
    };
    if !surface.walkable {
        return Ok((0, false));
    }
    let code = u16::try_from(surface.code).ok().filter(|&c| c != 0).ok_or_else(|| {
        WriteError::new(
            format!("polygons[{p}].material"),
            format!(
                "the prime profile gives walkable material {} the type mask {}, which is not a non-zero 16-bit value",
                surface.material.name(),
                surface.code
            ),
        )
    })?;
    Ok((code, true))
}

/// Per-polygon region attributes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Attrs {
    height: f32,
    index_mask: u16,
    type_mask: u16,
}

impl Attrs {
    /// Polygons with equal keys may share a region.
    fn key(&self) -> u64 {
        (u64::from(self.height.to_bits()) << 32)
            | (u64::from(self.index_mask) << 16)
            | u64::from(self.type_mask)
    }
}

/// Newell normal (not normalised) of the corners in the given order, relative to the first
/// corner so that large coordinates do not cancel.
fn newell(points: &[P3]) -> P3 {
    let mut n = [0.0f64; 3];
    let Some(&o) = points.first() else {
        return n;
    };
    for (i, a) in points.iter().enumerate() {
        let b = points.get((i + 1) % points.len()).unwrap_or(a);
        let (a, b) = (
            [a[0] - o[0], a[1] - o[1], a[2] - o[2]],
            [b[0] - o[0], b[1] - o[1], b[2] - o[2]],
        );
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

fn length(v: P3) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// Convex (left turns or straight, winding once) seen from +Z, for corners counter-clockwise;
/// corners bent the wrong way by f32 rounding (within [`crate::merge::CONVEX_EPSILON`]) count
/// as straight, as the merge takes them, so that a cooked file read back is not triangulated.
fn convex_ccw(points: &[P3]) -> bool {
    let n = points.len();
    let mut turning = 0.0f64;
    for i in 0..n {
        let (Some(u), Some(a), Some(w)) = (
            points.get((i + n - 1) % n),
            points.get(i),
            points.get((i + 1) % n),
        ) else {
            return false;
        };
        if !crate::merge::convex_corner(*u, *a, *w, crate::merge::CONVEX_EPSILON) {
            return false;
        }
        let d1 = (a[1] - u[1]).atan2(a[0] - u[0]);
        let d2 = (w[1] - a[1]).atan2(w[0] - a[0]);
        let mut turn = d2 - d1;
        while turn <= -std::f64::consts::PI {
            turn += std::f64::consts::TAU;
        }
        while turn > std::f64::consts::PI {
            turn -= std::f64::consts::TAU;
        }
        turning += turn;
    }
    (turning - std::f64::consts::TAU).abs() < 1e-3
}

/// Largest distance of a corner from the plane through the first corner, along `normal`
/// (unit), or vertically when `vertical`.
fn flatness_error(points: &[P3], normal: P3, vertical: bool) -> f64 {
    let Some(first) = points.first() else {
        return f64::INFINITY;
    };
    let plane = Plane {
        normal,
        origin: *first,
    };
    points
        .iter()
        .map(|&p| {
            if vertical {
                plane.vertical(p).abs()
            } else {
                plane.distance(p).abs()
            }
        })
        .fold(0.0, f64::max)
}

/// What cooking decided, for tests and reports.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CookReport {
    /// For each polygon of the mesh as cooked (after triangulation, if any), its region or
    /// `u32::MAX`; for a polygon whose patch was triangulated anew (an inner vertex of it
    /// removed), a region of that patch (all of a patch's regions are linked).
    pub region_of_polygon: Vec<u32>,
    /// For each region, an input polygon (of the mesh as cooked) it covers part of: every
    /// region has one, also where a patch was triangulated anew and a region holds none of
    /// the input polygons whole.
    pub source_of_region: Vec<u32>,
    /// True when the mesh had to be triangulated first.
    pub triangulated: bool,
    pub dropped_not_walkable: usize,
    pub dropped_degenerate: usize,
    /// Regions read from PATH that were moved onto their plane (flat only within the bound).
    pub flattened: usize,
    /// Regions after merging under the default height tolerance (before the budget).
    pub first_regions: usize,
    /// Input vertices inside flat patches removed before merging ([`crate::decimate`]).
    pub removed_vertices: usize,
    /// Area of the cooked input polygons seen from above (square units).
    pub footprint_in: f64,
    /// The largest area of one border corner a budget straightened (`None`: not needed).
    pub border_area: Option<f64>,
    /// What straightening the border changed (vertices, area cut off and filled in).
    pub border: crate::decimate::Border,
    /// The vertical tolerance the region budget needed (`None`: exact merging was enough).
    pub tolerance: Option<f64>,
    /// Largest vertical distance between an input vertex and the region that replaces it.
    pub max_height_error: f64,
    /// Area of the cooked input polygons and of the regions written (3-D, square units).
    pub area_in: f64,
    pub area_out: f64,
    /// Corners over all regions, and of the largest region.
    pub corners: usize,
    pub max_corners: usize,
}

impl CookReport {
    /// Regions written.
    pub fn regions(&self) -> usize {
        self.source_of_region.len()
    }

    /// Relative change of the covered 3-D area.
    pub fn area_change(&self) -> f64 {
        if self.area_in > 0.0 {
            (self.area_out - self.area_in) / self.area_in
        } else {
            0.0
        }
    }
}

struct Settings {
    merge: bool,
    version: u32,
    height: f32,
    index_mask: u16,
    max_regions: usize,
    max_height_error: f64,
    height_tolerance: f64,
    max_area_change: f64,
}

fn settings(mesh: &NavMesh, options: &WriteOptions) -> Result<Settings, WriteError> {
    let height = parse_param::<f32>(options, "prime:region_height")?.unwrap_or(DEFAULT_HEIGHT);
    if !height.is_finite() || height <= 0.0 {
        return Err(WriteError::new(
            "prime:region_height",
            format!("the region height must be a positive number, not {height}"),
        ));
    }
    let index_mask = parse_param::<u16>(options, "prime:index_mask")?.unwrap_or(DEFAULT_INDEX_MASK);
    let merge = match options
        .params
        .get("prime:merge")
        .map(|s| s.to_ascii_lowercase())
    {
        // Regions that came from a PATH file are kept as they are (see the module comment).
        None => !mesh.extras.contains_key(EXTRA_VERSION),
        Some(s) if matches!(s.as_str(), "on" | "true" | "1" | "yes") => true,
        Some(s) if matches!(s.as_str(), "off" | "false" | "0" | "no") => false,
        Some(s) => {
            return Err(WriteError::new(
                "prime:merge",
                format!("'{s}' is not on or off"),
            ));
        }
    };
    let from_mesh = match mesh.extras.get(EXTRA_VERSION) {
        Some(Extra::Int(v)) => u32::try_from(*v).ok(),
        _ => None,
    };
    let version = parse_param::<u32>(options, "prime:version")?
        .or(from_mesh)
        .unwrap_or(VERSION_MP1);
    if !matches!(version, VERSION_MP1 | VERSION_MP2 | VERSION_MP3) {
        return Err(WriteError::new(
            "prime:version",
            format!("version {version} cannot be written; use 4 (MP1), 6 (MP2) or 7 (MP3)"),
        ));
    }
    let max_regions = parse_param::<usize>(options, "prime:max_regions")?.unwrap_or(MAX_REGIONS);
    if max_regions == 0 || max_regions > MAX_REGIONS {
        return Err(WriteError::new(
            "prime:max_regions",
            format!(
                "the region budget must be between 1 and {MAX_REGIONS} (the engine's limit), not {max_regions}"
            ),
        )
            .with_kind(walkmesh_core::ErrorKind::Parameter));
    }
    let max_height_error =
        parse_param::<f64>(options, "prime:max_height_error")?.unwrap_or(DEFAULT_MAX_HEIGHT_ERROR);
    if !max_height_error.is_finite() || max_height_error < 0.0 {
        return Err(WriteError::new(
            "prime:max_height_error",
            format!("the height-error bound must be a finite number ≥ 0, not {max_height_error}"),
        ));
    }
    let height_tolerance =
        parse_param::<f64>(options, "prime:height_tolerance")?.unwrap_or(DEFAULT_HEIGHT_TOLERANCE);
    if !height_tolerance.is_finite() || height_tolerance < 0.0 {
        return Err(WriteError::new(
            "prime:height_tolerance",
            format!("the height tolerance must be a finite number ≥ 0, not {height_tolerance}"),
        ));
    }
    let max_area_change =
        parse_param::<f64>(options, "prime:max_area_change")?.unwrap_or(DEFAULT_MAX_AREA_CHANGE);
    if !max_area_change.is_finite() || !(0.0..=1.0).contains(&max_area_change) {
        return Err(WriteError::new(
            "prime:max_area_change",
            format!(
                "the area-change bound must be a fraction between 0 and 1, not {max_area_change}"
            ),
        ));
    }
    Ok(Settings {
        max_area_change,
        merge,
        version,
        height,
        index_mask,
        max_regions,
        max_height_error,
        height_tolerance,
    })
}
fn report_losses(mesh: &NavMesh, diag: &mut Diagnostics) {
    if !mesh.edge_tags.is_empty() {
        diag.warn(
            "path.transitions_dropped",
            format!(
                "{} edge tag(s) (transitions) cannot be stored in PATH and were dropped",
                mesh.edge_tags.len()
            ),
        );
    }
    if !mesh.hooks.is_empty() {
        diag.warn(
            "path.hooks_dropped",
            format!(
                "{} hook(s) cannot be stored in PATH and were dropped",
                mesh.hooks.len()
            ),
        );
    }
    if mesh.tile_grid.is_some() {
        diag.warn(
            "path.tile_grid_dropped",
            "the tile grid cannot be stored in PATH and was dropped",
        );
    }
    if mesh.origin != [0.0; 3] {
        diag.warn(
            "path.origin_dropped",
            format!(
                "the mesh origin {:?} cannot be stored in PATH; positions are written as they are",
                mesh.origin
            ),
        );
    }
    if mesh.kind != MeshKind::Area {
        diag.warn(
            "path.kind_dropped",
            format!(
                "PATH stores area meshes only; the {} kind is not kept",
                mesh.kind.as_str()
            ),
        );
    }
    let extras: Vec<&str> = mesh
        .extras
        .keys()
        .filter(|k| !k.starts_with("path:"))
        .map(String::as_str)
        .collect();
    if !extras.is_empty() {
        diag.warn(
            "path.extras_dropped",
            format!("mesh extras {} cannot be stored in PATH", extras.join(", ")),
        );
    }
    let attributes: Vec<&str> = mesh
        .face_attributes
        .keys()
        .filter(|k| !k.starts_with("path:"))
        .map(String::as_str)
        .collect();
    if !attributes.is_empty() {
        diag.warn(
            "path.attributes_dropped",
            format!(
                "face attributes {} cannot be stored in PATH",
                attributes.join(", ")
            ),
        );
    }
}

/// What to do with a cooked polygon that is not a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Fine,
    /// Flat only within the height-error bound: moved onto this plane.
    Flatten(Plane),
    Triangulate,
}

/// Peak memory of a cook per triangle it works on (after triangulation), in bytes: the
/// polygon and half-edge tables of the input and of the staged mesh, the merger's outline
/// lists and vertex sets, and vertex removal's state. Measured with scripts/gen_floor.py:
/// a 1M-triangle floor peaks at 0.81 GiB and a 4M one at 3.24 GiB for the whole process,
/// about 0.15 GiB per million of which is the OBJ reader's (docs/performance.md); 800 bytes
/// per triangle is the cook's share with a little room.
const COOK_BYTES_PER_TRIANGLE: u64 = 800;

/// Refuses, before anything large is allocated, a mesh whose cook would need more memory
/// than the limit (see [`walkmesh_core::memory`]).
fn check_memory(mesh: &NavMesh, options: &WriteOptions) -> Result<(), WriteError> {
    let limit = walkmesh_core::memory::limit_mib(options)?;
    let triangles: u64 = (0..mesh.polygons.len())
        .map(|p| mesh.polygons.get(p).len().saturating_sub(2).max(1) as u64)
        .sum();
    walkmesh_core::memory::check(
        walkmesh_core::memory::PARAM_MAX_MEMORY,
        &format!(
            "cooking PATH regions from {} polygon(s) ({triangles} triangles)",
            mesh.polygons.len()
        ),
        triangles.saturating_mul(COOK_BYTES_PER_TRIANGLE),
        limit,
    )
}

/// Refuses a mesh whose walkable area (seen from above) mostly faces down: its faces are
/// wound the wrong way (or the up axis is wrong). Cooking it would make every downward
/// polygon a region of its own (they are never merged) and end in a region budget error that
/// says nothing of the cause.
fn refuse_downward_floor(work: &NavMesh, class: &[Class]) -> Result<(), WriteError> {
    let (mut up, mut down) = (0.0f64, 0.0f64);
    let mut down_count = 0usize;
    for (p, c) in class.iter().enumerate() {
        if !matches!(c, Class::Up | Class::Down) {
            continue;
        }
        let points: Vec<P3> = work
            .polygons
            .get(p)
            .iter()
            .map(|&v| point(work, v))
            .collect();
        let footprint = newell(&points)[2].abs() / 2.0;
        if *c == Class::Down {
            down += footprint;
            down_count += 1;
        } else {
            up += footprint;
        }
    }
    if down > up {
        return Err(WriteError::new(
            "regions",
            format!(
                "the walkable faces point down: {down_count} walkable polygon(s), {:.1}% of the walkable area seen from above, have their corners clockwise seen from above (normals pointing down), so the faces are wound the wrong way or the file's up axis is not the one read; flip the faces' normals (reverse each face's corners, e.g. Blender's Mesh > Normals > Flip) or read with the other --up axis",
                100.0 * down / (up + down)
            ),
        ));
    }
    Ok(())
}

/// Regions whose root polygon is cooked.
fn count_regions(merger: &mut Merger<'_>, cooked: &[bool]) -> usize {
    (0..cooked.len())
        .filter(|&p| cooked[p] && merger.root(p) == p)
        .count()
}

/// Whether a polygon (its corners, `repeated` when a vertex index appears twice) can be a
/// region: `Degenerate` when it has no usable area seen from above (see the module comment),
/// else `Up` or `Down` by its Newell normal.
fn shape_class(points: &[P3], repeated: bool) -> Class {
    let n = newell(points);
    let len = length(n);
    let in_range = points
        .iter()
        .flatten()
        .all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE);
    // An edge with no length seen from above, or one shorter than its coordinates'
    // precision, has no inward normal and no usable width.
    let short_edge = (0..points.len()).any(|i| {
        let (p0, p1) = (points[i], points[(i + 1) % points.len()]);
        let magnitude = p0[0]
            .abs()
            .max(p0[1].abs())
            .max(p1[0].abs())
            .max(p1[1].abs());
        let xy = (p1[0] - p0[0]).hypot(p1[1] - p0[1]);
        xy == 0.0 || xy < MIN_EDGE || xy < MIN_RELATIVE_EDGE * magnitude
    });
    if repeated
        || short_edge
        || !in_range
        || len == 0.0
        || !len.is_finite()
        || (n[2] / len).abs() < MIN_NORMAL_Z
    {
        Class::Degenerate
    } else if n[2] > 0.0 {
        Class::Up
    } else {
        Class::Down
    }
}

/// Per-polygon data of a mesh about to be merged: attributes, class, plane, adjacency.
struct Stage {
    attrs: Vec<Attrs>,
    class: Vec<Class>,
    planes: Vec<Plane>,
    cooked: Vec<bool>,
    adjacency: walkmesh_core::passes::Adjacency,
    poly_of: Vec<u32>,
    mergeable: Vec<bool>,
    keys: Vec<u64>,
    /// Per half-edge merge rank (see [`MergeInput::rank`]); empty: all equal.
    rank: Vec<u8>,
    /// Per polygon merge order (see [`MergeInput::order`]); empty: all 0.
    order: Vec<u8>,
    /// Per polygon, the plane it is moved onto (see [`stage`]); empty: none.
    flat: Vec<Option<Plane>>,
    /// See [`MergeInput::convex_epsilon`].
    convex_epsilon: f64,
    dropped_not_walkable: usize,
    dropped_degenerate: usize,
}

type AttrsOf<'a> = dyn Fn(&NavMesh, usize) -> Result<Attrs, WriteError> + 'a;

/// Classifies every polygon of `work` (see the module comment) and links the cooked ones.
/// `flat[p]`, when given, is the plane polygon `p` is moved onto (a PATH region flat only
/// within the height-error bound): it is classified as it will be written.
fn stage(
    work: &NavMesh,
    attrs_of: &AttrsOf<'_>,
    merge: bool,
    flat: &[Option<Plane>],
) -> Result<Stage, WriteError> {
    let polygon_count = work.polygons.len();
    let mut attrs = Vec::with_capacity(polygon_count);
    let mut class = Vec::with_capacity(polygon_count);
    let mut planes = Vec::with_capacity(polygon_count);
    let (mut dropped_not_walkable, mut dropped_degenerate) = (0, 0);
    for p in 0..polygon_count {
        let a = attrs_of(work, p)?;
        let vertices = work.polygons.get(p);
        let mut points: Vec<P3> = vertices.iter().map(|&v| point(work, v)).collect();
        if let Some(Some(plane)) = flat.get(p) {
            for q in &mut points {
                q[2] = plane.z_at(q[0], q[1]);
            }
        }
        let mut sorted = vertices.to_vec();
        sorted.sort_unstable();
        let repeated = sorted.windows(2).any(|w| w[0] == w[1]);
        let c = if a.type_mask == 0 {
            dropped_not_walkable += 1;
            Class::Skip
        } else {
            let c = shape_class(&points, repeated);
            if c == Class::Degenerate {
                dropped_degenerate += 1;
            }
            c
        };
        let n = newell(&points);
        let len = length(n);
        attrs.push(a);
        class.push(c);
        let unit = if len > 0.0 && len.is_finite() {
            n.map(|x| x / len)
        } else {
            [0.0, 0.0, 1.0]
        };
        planes.push(Plane {
            normal: unit,
            origin: points.first().copied().unwrap_or([0.0; 3]),
        });
    }
    let cooked: Vec<bool> = class
        .iter()
        .map(|c| matches!(c, Class::Up | Class::Down))
        .collect();
    let adjacency = edge_adjacency(work, |p| cooked.get(p).copied().unwrap_or(false));
    let poly_of = polygon_of_half_edges(work);
    let mergeable: Vec<bool> = class.iter().map(|&c| merge && c == Class::Up).collect();
    let keys: Vec<u64> = attrs.iter().map(Attrs::key).collect();
    Ok(Stage {
        attrs,
        class,
        planes,
        cooked,
        adjacency,
        poly_of,
        mergeable,
        keys,
        rank: Vec::new(),
        order: Vec::new(),
        flat: Vec::new(),
        convex_epsilon: crate::merge::CONVEX_EPSILON,
        dropped_not_walkable,
        dropped_degenerate,
    })
}

impl Stage {
    fn merge_input<'a>(&'a self, mesh: &'a NavMesh) -> MergeInput<'a> {
        MergeInput {
            mesh,
            adjacency: &self.adjacency,
            poly_of: &self.poly_of,
            mergeable: &self.mergeable,
            key: &self.keys,
            planes: &self.planes,
            rank: &self.rank,
            order: &self.order,
            convex_epsilon: self.convex_epsilon,
        }
    }
}

/// The mesh regions are merged from at one flatness: patches found, their inner vertices
/// removed (see [`crate::decimate`]), staged again with each patch's key and plane.
struct Built {
    /// The mesh over patch outlines (the input mesh itself when merging is off).
    mesh: NavMesh,
    /// Per polygon of `mesh`, the input polygon it stands for.
    source: Vec<u32>,
    /// Per polygon of `mesh`, true when it is that input polygon unchanged.
    original: Vec<bool>,
    stage: Stage,
    /// Per input polygon, its patch (the root input polygon) or `NONE`.
    patch: Vec<u32>,
    /// Per patch root: the patch's input vertices (with repeats), against which the height
    /// error of its regions is measured.
    patch_vertices: Vec<Vec<u32>>,
    /// Input vertices removed.
    removed: usize,
    /// The border simplification of a budget (none otherwise).
    border: crate::decimate::Border,
}

impl Built {
    /// Chooses each patch's merge order (see [`best_orders`]). Searches count with the
    /// first order alone (an upper bound: it is one of the choices) and choose for the
    /// result only.
    fn choose_orders(mut self) -> Built {
        if self.stage.order.is_empty() {
            self.stage.order = best_orders(&self.mesh, &self.stage);
        }
        self
    }

    /// Regions of `self` when every patch merges in the first order, as the searches count
    /// (whether or not [`Built::choose_orders`] ran).
    fn first_order_count(&self) -> usize {
        let input = MergeInput {
            order: &[],
            ..self.stage.merge_input(&self.mesh)
        };
        let mut merger = Merger::new(&input);
        merger.merge(Flatness::Given);
        count_regions(&mut merger, &self.stage.cooked)
    }

    /// Regions of `self` and the merge that made them.
    fn count(&self) -> usize {
        let input = self.stage.merge_input(&self.mesh);
        let mut merger = Merger::new(&input);
        merger.merge(Flatness::Given);
        count_regions(&mut merger, &self.stage.cooked)
    }
}

/// Per half-edge, how many of its two ends are reflex corners of its patch's outline (the
/// patch's polygons around the vertex span more than a half turn seen from above). The merge
/// removes edges of rank 0 first, then those at one reflex corner, and last those joining
/// two: an edge that must stay to keep a reflex corner convex is then more often one that
/// serves two reflex corners at once, so fewer regions are needed (Hertel–Mehlhorn keeps
/// every edge whose removal would make a reflex corner; which ones it keeps depends on the
/// order).
fn reflex_rank(mesh: &NavMesh, stage: &Stage, kept: &rustc_hash::FxHashSet<(u32, u32)>) -> Vec<u8> {
    let indices = mesh.polygons.indices();
    let mut angle: rustc_hash::FxHashMap<(u32, u64), f64> = Default::default();
    for p in 0..mesh.polygons.len() {
        if !stage.mergeable[p] {
            continue;
        }
        let polygon = mesh.polygons.get(p);
        let n = polygon.len();
        for i in 0..n {
            let (u, a, w) = (
                point(mesh, polygon[(i + n - 1) % n]),
                point(mesh, polygon[i]),
                point(mesh, polygon[(i + 1) % n]),
            );
            let (d1, d2) = ([u[0] - a[0], u[1] - a[1]], [w[0] - a[0], w[1] - a[1]]);
            // Interior angle at a of a counter-clockwise polygon: from a→w round to a→u.
            let inner = (d2[0] * d1[1] - d2[1] * d1[0])
                .atan2(d2[0] * d1[0] + d2[1] * d1[1])
                .rem_euclid(std::f64::consts::TAU);
            *angle.entry((polygon[i], stage.keys[p])).or_default() += inner;
        }
    }
    let reflex = |v: u32, key: u64| {
        angle.get(&(v, key)).is_some_and(|&a| {
            a > std::f64::consts::PI * (1.0 + 1e-9) && a < std::f64::consts::TAU * (1.0 - 1e-9)
        })
    };
    let mut rank = vec![0u8; indices.len()];
    for p in 0..mesh.polygons.len() {
        if !stage.mergeable[p] {
            continue;
        }
        let first = mesh.polygons.first_index(p);
        let n = mesh.polygons.get(p).len();
        for i in 0..n {
            let (a, b) = (indices[first + i], indices[first + (i + 1) % n]);
            let reflex_ends =
                u8::from(reflex(a, stage.keys[p])) + u8::from(reflex(b, stage.keys[p]));
            rank[first + i] = if kept.contains(&(a.min(b), a.max(b))) {
                crate::merge::KEPT_RANK + reflex_ends
            } else {
                reflex_ends
            };
        }
    }
    rank
}

/// New triangles of vertex removal must be cookable as they are.
fn acceptable(corners: &[[f32; 3]; 3]) -> bool {
    shape_class(&corners.map(|c| c.map(f64::from)), false) == Class::Up
}

/// The patches of `work` under one flatness and, when `decimate`, their inner vertices
/// removed (see [`crate::decimate`]); a region budget finishes this for several border
/// bounds.
struct Patched<'a> {
    flatness: Flatness,
    /// Per input polygon, its patch (the root input polygon) or `NONE`.
    patch: Vec<u32>,
    /// Per patch root: the patch's input vertices, and its plane.
    patch_vertices: Vec<Vec<u32>>,
    planes: Vec<Option<Plane>>,
    inner: Option<crate::decimate::Inner<'a>>,
}

impl Patched<'_> {
    /// The patch roots in use, in increasing order.
    fn roots(&self) -> Vec<u32> {
        let mut used = vec![false; self.patch.len()];
        for &root in &self.patch {
            if let Some(slot) = used.get_mut(root as usize) {
                *slot = true;
            }
        }
        (0..self.patch.len() as u32)
            .filter(|&r| used[r as usize])
            .collect()
    }
}

/// Per polygon, the merge order (see [`crate::merge::ORDERS`]) that gives its patch the
/// fewest regions: Hertel–Mehlhorn's result depends on the order edges are removed in, and
/// no one order is best for every patch (longest first fuses tiled floors into rectangles,
/// shortest first keeps long diagonals that serve two reflex corners). Each order is one
/// linear merge.
fn best_orders(mesh: &NavMesh, stage: &Stage) -> Vec<u8> {
    use rustc_hash::FxHashMap as HashMap;
    let polygons = mesh.polygons.len();
    let mut best: HashMap<u64, (usize, u8)> = HashMap::default();
    for order in 0..crate::merge::ORDERS {
        let orders = vec![order; polygons];
        let input = MergeInput {
            order: &orders,
            ..stage.merge_input(mesh)
        };
        let mut merger = Merger::new(&input);
        merger.merge(Flatness::Given);
        let mut counts: HashMap<u64, usize> = HashMap::default();
        for p in 0..polygons {
            if stage.mergeable[p] && merger.root(p) == p {
                *counts.entry(stage.keys[p]).or_default() += 1;
            }
        }
        for (key, count) in counts {
            let entry = best.entry(key).or_insert((count, order));
            if count < entry.0 {
                *entry = (count, order);
            }
        }
    }
    (0..polygons)
        .map(|p| {
            if stage.mergeable[p] {
                best.get(&stage.keys[p]).map_or(0, |&(_, order)| order)
            } else {
                0
            }
        })
        .collect()
}

/// Moves polygons that stick out of their patch into the neighbouring patch they share most
/// edges with, when every corner of the polygon is flat with that patch too (within the
/// same tolerance): the greedy gluing leaves patch borders zigzagging through the
/// triangles, and every tooth of a zigzag is a reflex corner on one side that needs a
/// region of its own. Three passes; each looks at every polygon's edges once.
fn smooth_patch_borders(
    work: &NavMesh,
    base: &Stage,
    flatness: Flatness,
    patch: &mut [u32],
    patch_vertices: &mut [Vec<u32>],
    planes: &[Option<Plane>],
) {
    let indices = work.polygons.indices();
    for _ in 0..3 {
        let mut moved = 0;
        for p in 0..work.polygons.len() {
            let Some(&own) = patch.get(p) else { continue };
            if own == NONE {
                continue;
            }
            let first = work.polygons.first_index(p);
            let n = work.polygons.get(p).len();
            // Neighbours across p's edges, by patch.
            let mut same = 0usize;
            let mut others: Vec<u32> = Vec::with_capacity(n);
            for h in first..first + n {
                let Some(t) = base.adjacency.across(h) else {
                    continue;
                };
                let q = base.poly_of.get(t).copied().unwrap_or(NONE) as usize;
                match patch.get(q) {
                    Some(&other) if other == own => same += 1,
                    Some(&other) if other != NONE && base.keys.get(q) == base.keys.get(p) => {
                        others.push(other)
                    }
                    _ => {}
                }
            }
            others.sort_unstable();
            let Some((target, count)) = others
                .chunk_by(|a, b| a == b)
                .map(|run| (run[0], run.len()))
                .max_by_key(|&(_, c)| c)
            else {
                continue;
            };
            if count <= same {
                continue;
            }
            let Some(Some(plane)) = planes.get(target as usize) else {
                continue;
            };
            let corners = || {
                indices
                    .get(first..first + n)
                    .unwrap_or(&[])
                    .iter()
                    .map(|&v| point(work, v))
            };
            let flat = match flatness {
                Flatness::Vertical(t) => corners().all(|c| plane.vertical(c).abs() <= t),
                Flatness::Exact => {
                    let own_normal = base.planes.get(p).map_or([0.0; 3], |pl| pl.normal);
                    let dot = (0..3).map(|k| own_normal[k] * plane.normal[k]).sum::<f64>();
                    dot >= crate::merge::NORMAL_DOT
                        && corners().all(|c| plane.distance(c).abs() <= PLANE_DISTANCE)
                }
                Flatness::Given => false,
            };
            if !flat {
                continue;
            }
            if let Some(slot) = patch.get_mut(p) {
                *slot = target;
            }
            if let Some(list) = patch_vertices.get_mut(target as usize) {
                list.extend(indices.get(first..first + n).unwrap_or(&[]));
            }
            moved += 1;
        }
        if moved == 0 {
            break;
        }
    }
}

/// Finds the patches of `work` (staged as `base`) under `flatness`: connected polygons with
/// equal keys that are flat together (the merge without its convexity test).
fn patch_up<'a>(
    work: &'a NavMesh,
    base: &Stage,
    flatness: Flatness,
    merge: bool,
    decimate: bool,
) -> Patched<'a> {
    let count = work.polygons.len();
    let input = base.merge_input(work);
    let mut patches = Merger::new(&input);
    if merge {
        patches.merge_patches(flatness);
    }
    let mut patch = vec![NONE; count];
    let mut patch_vertices = vec![Vec::new(); count];
    let mut planes = vec![None; count];
    for (p, slot) in patch.iter_mut().enumerate() {
        if !base.mergeable.get(p).copied().unwrap_or(false) {
            continue;
        }
        let root = patches.root(p);
        *slot = root as u32;
        if root == p {
            if let Some(vertices) = patch_vertices.get_mut(root) {
                *vertices = patches.vertices(root).to_vec();
            }
            if let Some(plane) = planes.get_mut(root) {
                *plane = patches.plane(root);
            }
        }
    }
    if merge {
        smooth_patch_borders(
            work,
            base,
            flatness,
            &mut patch,
            &mut patch_vertices,
            &planes,
        );
    }
    let inner = (merge && decimate)
        .then(|| crate::decimate::remove_inner(work, &patch, &base.cooked, &acceptable));
    Patched {
        flatness,
        patch,
        patch_vertices,
        planes,
        inner,
    }
}

/// The mesh regions are merged from: `work`'s patches found, their vertices removed and
/// their border straightened up to `border_area` per corner, staged again with each
/// patch's key and plane, so that the merge that follows ([`Flatness::Given`]) stays inside
/// patches.
fn build(
    work: &NavMesh,
    base: &Stage,
    attrs_of: &AttrsOf<'_>,
    flatness: Flatness,
    merge: bool,
    border_area: f64,
    straight: f64,
) -> Result<Built, WriteError> {
    let patched = patch_up(work, base, flatness, merge, true);
    finish(work, base, attrs_of, &patched, merge, border_area, straight)
}

/// The patches of one step of the tolerance search, as far as they decide the step's
/// result: the patch of every input polygon and, per patch, its plane (bit for bit) and the
/// input vertices its height error is measured against (as a set: the error is their
/// largest). Two steps with equal keys decimate, partition and merge alike.
#[derive(PartialEq, Eq)]
struct PatchKey {
    patch: Vec<u32>,
    roots: Vec<(Option<[u64; 6]>, Vec<u32>)>,
}

impl PatchKey {
    fn of(patched: &Patched<'_>) -> PatchKey {
        let roots = patched
            .roots()
            .into_iter()
            .map(|root| {
                let plane = patched
                    .planes
                    .get(root as usize)
                    .copied()
                    .flatten()
                    .map(|p| {
                        [
                            p.normal[0],
                            p.normal[1],
                            p.normal[2],
                            p.origin[0],
                            p.origin[1],
                            p.origin[2],
                        ]
                        .map(f64::to_bits)
                    });
                let mut vertices = patched
                    .patch_vertices
                    .get(root as usize)
                    .cloned()
                    .unwrap_or_default();
                vertices.sort_unstable();
                vertices.dedup();
                (plane, vertices)
            })
            .collect();
        PatchKey {
            patch: patched.patch.clone(),
            roots,
        }
    }
}

/// Keys of the steps a tolerance search decimated, with their region counts (a few: each
/// holds a word per input polygon).
const SEARCH_MEMO: usize = 4;

/// Step 4's bisection over the height tolerance, once the widest tolerance meets the
/// budget. Each step finds the patches at its tolerance; only when they could meet the
/// budget (a region never spans two patches, so there are at least as many regions as
/// patches) and differ from the patches of every step decimated before are their inner
/// vertices removed and the regions counted. On stepped floors every step below the
/// threshold has tens of thousands of patches and every step above it the same few, so
/// most steps end after finding the patches (a 1M-triangle floor: 8 full decimations and
/// partitions before, none or one now). The steps, their results and the mesh chosen are
/// those of decimating at every step.
struct ToleranceSearch<'s> {
    work: &'s NavMesh,
    base: &'s Stage,
    attrs_of: &'s AttrsOf<'s>,
    straight: f64,
    max_regions: usize,
}

impl<'s> ToleranceSearch<'s> {
    /// The smallest tolerance (geometric bisection, [`BUDGET_STEPS`] steps between `low` and
    /// `high`) whose mesh meets the budget, and that mesh; `high`'s is `widest`, found from
    /// `widest_patches`.
    fn run(
        &self,
        widest: Built,
        widest_patches: &Patched<'_>,
        mut low: f64,
        mut high: f64,
    ) -> Result<(Built, f64), WriteError> {
        let mut memo: Vec<(PatchKey, usize)> =
            vec![(PatchKey::of(widest_patches), widest.first_order_count())];
        // The memo entry `built` was made from.
        let mut built_key = Some(0);
        let mut built = widest;
        for step in 0..BUDGET_STEPS {
            let mid = (low * high).sqrt();
            if !(mid > low && mid < high) {
                break;
            }
            walkmesh_core::progress::step(step as u64 + 1, BUDGET_STEPS as u64);
            let patched = patch_up(self.work, self.base, Flatness::Vertical(mid), true, false);
            if patched.roots().len() > self.max_regions {
                low = mid;
                continue;
            }
            let key = PatchKey::of(&patched);
            let known = memo.iter().position(|(k, _)| *k == key);
            let count = match known {
                Some(i) => memo[i].1,
                None => {
                    let candidate = self.finish(patched)?;
                    let count = candidate.count();
                    if memo.len() >= SEARCH_MEMO {
                        memo.remove(0);
                        built_key = built_key.and_then(|b: usize| b.checked_sub(1));
                    }
                    memo.push((key, count));
                    if count <= self.max_regions {
                        built = candidate;
                        built_key = Some(memo.len() - 1);
                        high = mid;
                    } else {
                        low = mid;
                    }
                    continue;
                }
            };
            if count > self.max_regions {
                low = mid;
                continue;
            }
            high = mid;
            if built_key != known {
                // Equal patches give an equal mesh: made again from these.
                built = self.finish(patched)?;
                built_key = known;
            }
        }
        Ok((built, high))
    }

    /// The mesh of `patched` (found without decimation): inner vertices removed, border and
    /// partition done, staged.
    fn finish(&self, mut patched: Patched<'s>) -> Result<Built, WriteError> {
        patched.inner = Some(crate::decimate::remove_inner(
            self.work,
            &patched.patch,
            &self.base.cooked,
            &acceptable,
        ));
        finish(
            self.work,
            self.base,
            self.attrs_of,
            &patched,
            true,
            0.0,
            self.straight,
        )
    }
}

/// [`build`] from patches found before.
fn finish(
    work: &NavMesh,
    base: &Stage,
    attrs_of: &AttrsOf<'_>,
    patched: &Patched<'_>,
    merge: bool,
    border_area: f64,
    straight: f64,
) -> Result<Built, WriteError> {
    let count = work.polygons.len();
    let patch = &patched.patch;
    let decimated = match &patched.inner {
        Some(inner) => inner.finish(border_area, straight),
        None => crate::decimate::Decimated {
            mesh: work.clone(),
            source: (0..count as u32).collect(),
            original: vec![true; count],
            removed: 0,
            border: crate::decimate::Border::default(),
            kept: Default::default(),
        },
    };
    let border = decimated.border;
    let source = decimated.source;
    let of_source = |_: &NavMesh, p: usize| -> Result<Attrs, WriteError> {
        let s = source.get(p).copied().unwrap_or(p as u32) as usize;
        attrs_of(work, s)
    };
    let decimate = patched.inner.is_some();
    let flat: &[Option<Plane>] = if decimate { &[] } else { &base.flat };
    let mut stage = stage(&decimated.mesh, &of_source, merge, flat)?;
    stage.convex_epsilon = straight;
    for (p, &s) in source.iter().enumerate() {
        let s = s as usize;
        let Some(&root) = patch.get(s) else { continue };
        if root == NONE || !stage.mergeable[p] {
            stage.mergeable[p] = false;
            continue;
        }
        stage.keys[p] = u64::from(root);
        if let Some(Some(plane)) = patched.planes.get(root as usize) {
            stage.planes[p] = *plane;
        }
    }
    stage.rank = reflex_rank(&decimated.mesh, &stage, &decimated.kept);
    // Safety net: removing vertices keeps every edge between polygons (see `decimate`), so
    // the walkable components cannot change; if they ever did, cook the patches over their
    // input polygons instead.
    if decimate {
        let before = connected_components(work, &base.adjacency, |p| base.cooked[p]).count;
        let after =
            connected_components(&decimated.mesh, &stage.adjacency, |p| stage.cooked[p]).count;
        if before != after {
            let plain = patch_up(work, base, patched.flatness, merge, false);
            return finish(work, base, attrs_of, &plain, merge, border_area, straight);
        }
    }
    Ok(Built {
        mesh: decimated.mesh,
        source,
        original: decimated.original,
        stage,
        patch: patched.patch.clone(),
        patch_vertices: patched.patch_vertices.clone(),
        removed: decimated.removed,
        border,
    })
}

/// Cooks `mesh` into a PATH file, along the steps of the module comment: the input's
/// attributes and shapes (1, 2), the polygons classified ([`classify`]), merged within the
/// region budget (3, 4: [`CookBudget`]), written as records (5: [`write_regions`]) and the
/// file's tables added (6: [`finish_file`]).
pub fn cook(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<(PathFile, CookReport), WriteError> {
    mesh.check()
        .map_err(|error| WriteError::new("mesh", error.to_string()))?;
    let settings = settings(mesh, options)?;
    check_memory(mesh, options)?;
    report_losses(mesh, diag);
    progress::phase(|| format!("cooking PATH: {} polygons", mesh.polygons.len()));

    // The `prime` profile decides, by neutral material, walkability and the type mask of
    // polygons that carry no `path:type_mask`.
    let profile = profile_for(options.materials.as_ref());
    if !mesh.face_attributes.contains_key(ATTR_TYPE_MASK) {
        report_profile_changes(mesh, &profile, diag);
    }
    let attrs_of = |mesh: &NavMesh, p: usize| -> Result<Attrs, WriteError> {
        input_attrs(mesh, p, &settings, &profile)
    };

    // Triangulate when some cooked polygon is not convex or not flat. Regions read from PATH
    // that are flat within the height-error bound are moved onto their plane instead.
    let shapes: Vec<Shape> = (0..mesh.polygons.len())
        .map(|p| polygon_shape(mesh, p, &settings, &attrs_of))
        .collect();
    let needs_triangles = shapes.contains(&Shape::Triangulate);
    let mut work: Cow<'_, NavMesh> = Cow::Borrowed(mesh);
    if needs_triangles {
        let (triangles, _) = triangulate(mesh, diag);
        work = Cow::Owned(triangles);
    }
    let work = &*work;
    let work_polygons = work.polygons.len();
    // Per polygon of `work`, the plane it is moved onto (none once triangulated).
    let flat: Vec<Option<Plane>> = (0..work_polygons)
        .map(|p| match shapes.get(p) {
            Some(Shape::Flatten(plane)) if !needs_triangles => Some(*plane),
            _ => None,
        })
        .collect();

    let mut report = CookReport {
        triangulated: needs_triangles,
        ..CookReport::default()
    };
    let base = classify(mesh, work, &attrs_of, &settings, flat, &mut report, diag)?;
    let budget = CookBudget {
        work,
        base: &base,
        attrs_of: &attrs_of,
        settings: &settings,
    };
    let (built, flatness) = budget.merge(&mut report)?;
    let built = built.choose_orders();
    report.border = built.border;
    report.removed_vertices = built.removed;
    let (mut file, boxes) = write_regions(
        built,
        flatness,
        &base.flat,
        work_polygons,
        &settings,
        &mut report,
    )?;
    finish_file(&mut file, &boxes, mesh, &settings, diag)?;
    report_quality(&report, &settings, diag);
    Ok((file, report))
}

/// Warns (when the mesh carries no type masks, so that the `prime` profile decides them)
/// about the polygons whose walkability the profile changes, and counts the materials PATH
/// cannot keep: a kept region reads back as the profile's material for its type mask
/// (Stone for ground), so every other material is a counted merge.
fn report_profile_changes(
    mesh: &NavMesh,
    profile: &walkmesh_core::MaterialProfile,
    diag: &mut Diagnostics,
) {
    let changed = (0..mesh.polygons.len())
        .filter(|&p| {
            type_from_profile(profile, mesh, p)
                .is_ok_and(|(_, walkable)| walkable != mesh.is_walkable(p))
        })
        .count();
    if changed > 0 {
        diag.warn(
            "path.walkability_changed",
            format!("the prime material profile changes the walkability of {changed} polygon(s)"),
        );
    }
    let mut changes = walkmesh_core::MaterialChanges::default();
    for (p, &from) in mesh.surfaces.iter().enumerate() {
        if let Ok((mask, true)) = type_from_profile(profile, mesh, p) {
            let back = crate::read::surface_for_mask(profile, mask);
            if back.material != from.material && from.walkable {
                changes.record(walkmesh_core::passes::polygon_area(mesh, p), from, back);
            }
        }
    }
    changes.report(diag, "path", "prime");
}

/// Attributes of input polygon `p`: its height (positive, else an error naming the
/// polygon), index mask and type mask (from the face attributes, else the settings'
/// defaults and the profile).
fn input_attrs(
    mesh: &NavMesh,
    p: usize,
    settings: &Settings,
    profile: &walkmesh_core::MaterialProfile,
) -> Result<Attrs, WriteError> {
    let height = column_f32(mesh, ATTR_HEIGHT, p).unwrap_or(settings.height);
    if !height.is_finite() || height <= 0.0 {
        return Err(WriteError::new(
            format!("{ATTR_HEIGHT}[{p}]"),
            format!("polygon {p} has height {height}; region heights must be positive"),
        ));
    }
    let type_mask = match mask(mesh, ATTR_TYPE_MASK, p)? {
        Some(m) => m,
        None => type_from_profile(profile, mesh, p)?.0,
    };
    Ok(Attrs {
        height,
        index_mask: mask(mesh, ATTR_INDEX_MASK, p)?.unwrap_or(settings.index_mask),
        type_mask,
    })
}

/// Step 2 for input polygon `p`: fine as it is, moved onto a plane (flat only within the
/// height-error bound, or a steep sliver of a kept region laid level), or in need of
/// triangulation (not convex, or not flat enough).
fn polygon_shape(mesh: &NavMesh, p: usize, settings: &Settings, attrs_of: &AttrsOf<'_>) -> Shape {
    let vertices = mesh.polygons.get(p);
    if !attrs_of(mesh, p).is_ok_and(|a| a.type_mask != 0) {
        return Shape::Fine;
    }
    if vertices.len() <= 3 {
        // A kept region (from PATH) that is a sliver can come back steep when its
        // corners were welded to neighbours cooked onto other planes: laid level (at its
        // corners' mean height) when that is within the height-error bound.
        let points: Vec<P3> = vertices.iter().map(|&v| point(mesh, v)).collect();
        let normal = newell(&points);
        let len = length(normal);
        let sliver = len > 0.0 && (normal[2] / len).abs() < MIN_NORMAL_Z && normal[2] != 0.0;
        if settings.merge || !sliver {
            return Shape::Fine;
        }
        let mean = points.iter().map(|q| q[2]).sum::<f64>() / points.len() as f64;
        let worst = points
            .iter()
            .map(|q| (q[2] - mean).abs())
            .fold(0.0, f64::max);
        return if worst <= 2.0 * settings.max_height_error {
            Shape::Flatten(Plane {
                normal: [0.0, 0.0, normal[2].signum()],
                origin: [points[0][0], points[0][1], mean],
            })
        } else {
            Shape::Fine
        };
    }
    let mut points: Vec<P3> = vertices.iter().map(|&v| point(mesh, v)).collect();
    let normal = newell(&points);
    if normal[2] < 0.0 {
        points.reverse();
    }
    let len = length(normal);
    if len == 0.0 || !len.is_finite() || !convex_ccw(&points) {
        return Shape::Triangulate;
    }
    let unit = normal.map(|c| c / len);
    if flatness_error(&points, unit, false) <= PLANE_DISTANCE {
        return Shape::Fine;
    }
    if settings.merge || unit[2].abs() < MIN_NORMAL_Z {
        return Shape::Triangulate;
    }
    let mut origin = [0.0; 3];
    for p in &points {
        for axis in 0..3 {
            origin[axis] += p[axis] / points.len() as f64;
        }
    }
    let plane = Plane {
        normal: if unit[2] < 0.0 {
            unit.map(|c| -c)
        } else {
            unit
        },
        origin,
    };
    let worst = points
        .iter()
        .map(|&q| plane.vertical(q).abs())
        .fold(0.0, f64::max);
    // A corner welded to a linked neighbour's takes the neighbour's height; each side was
    // within the bound of the source surface, so the two differ by at most twice it.
    if worst <= 2.0 * settings.max_height_error {
        Shape::Flatten(plane)
    } else {
        Shape::Triangulate
    }
}

/// Step 1: classifies the polygons of `work` (see [`stage`]; `flat` as there) and reports
/// what the cook drops: non-walkable and degenerate polygons (warnings), nothing left to
/// cook or a floor facing down (errors). Fills the report's dropped counts and the 3-D area
/// and area seen from above of the cooked polygons.
fn classify(
    mesh: &NavMesh,
    work: &NavMesh,
    attrs_of: &AttrsOf<'_>,
    settings: &Settings,
    flat: Vec<Option<Plane>>,
    report: &mut CookReport,
    diag: &mut Diagnostics,
) -> Result<Stage, WriteError> {
    let mut base = stage(work, attrs_of, settings.merge, &flat)?;
    base.flat = flat;
    report.dropped_not_walkable = base.dropped_not_walkable;
    report.dropped_degenerate = base.dropped_degenerate;
    if report.dropped_not_walkable > 0 {
        diag.warn(
            "path.non_walkable_dropped",
            format!(
                "{} non-walkable polygon(s) have no place in PATH and were dropped",
                report.dropped_not_walkable
            ),
        );
    }
    if report.dropped_degenerate > 0 {
        diag.warn(
            "path.degenerate_dropped",
            format!(
                "{} walkable polygon(s) have no area seen from above (vertical, collapsed, with an edge of no length seen from above or shorter than its coordinates' precision, repeating a corner, or beyond ±{MAX_COORDINATE:e}) and were dropped",
                report.dropped_degenerate
            ),
        );
    }
    if !base.cooked.contains(&true) {
        return Err(WriteError::new(
            "regions",
            if report.dropped_degenerate > 0 {
                format!(
                    "nothing to cook: the mesh's {} walkable polygon(s) have no area seen from above, and a PATH file needs at least one walkable region",
                    report.dropped_degenerate
                )
            } else {
                format!(
                    "nothing to cook: none of the mesh's {} polygon(s) is walkable (a {} mesh?), and a PATH file needs at least one walkable region",
                    mesh.polygons.len(),
                    mesh.kind.as_str()
                )
            },
        ));
    }
    refuse_downward_floor(work, &base.class)?;
    // 3-D area and area seen from above of the cooked polygons, from one Newell normal each.
    (report.area_in, report.footprint_in) = (0..work.polygons.len())
        .filter(|&p| base.cooked.get(p).copied().unwrap_or(false))
        .map(|p| {
            let points: Vec<P3> = work
                .polygons
                .get(p)
                .iter()
                .map(|&v| point(work, v))
                .collect();
            let n = newell(&points);
            (length(n) / 2.0, n[2].abs() / 2.0)
        })
        .fold((0.0, 0.0), |sum, one| (sum.0 + one.0, sum.1 + one.1));
    Ok(base)
}

/// Steps 3 and 4: merging under the default height tolerance, then, over the region
/// budget, a wider tolerance, then the walkable border straightened.
struct CookBudget<'a> {
    work: &'a NavMesh,
    base: &'a Stage,
    attrs_of: &'a AttrsOf<'a>,
    settings: &'a Settings,
}

impl CookBudget<'_> {
    /// The merged mesh within the budget and the flatness its regions were merged at; the
    /// report gets the first region count and, under a budget, the tolerance and border
    /// area used.
    fn merge(&self, report: &mut CookReport) -> Result<(Built, Flatness), WriteError> {
        let (work, base, settings) = (self.work, self.base, self.settings);
        let bound = settings.max_height_error;
        let first_tolerance = settings.height_tolerance.min(bound);
        // Regions kept as they are (from PATH, or merging off) keep their corners' heights.
        let first = if first_tolerance > 0.0 && settings.merge {
            Flatness::Vertical(first_tolerance)
        } else {
            Flatness::Exact
        };
        let merge = settings.merge;
        // Corners bent by f32 rounding are straight at the default tolerance; under a widened
        // one (a budget) only within rounding of f64 (see `MergeInput::convex_epsilon`).
        let (default_straight, budget_straight) =
            (crate::merge::CONVEX_EPSILON, crate::merge::TURN_EPSILON);
        let polygon_count = work.polygons.len();
        progress::phase(|| {
            format!("cooking PATH: merging {polygon_count} polygons within {first_tolerance} m")
        });
        let built = build(
            work,
            base,
            self.attrs_of,
            first,
            merge,
            0.0,
            default_straight,
        )?
        .choose_orders();
        report.first_regions = built.count();
        if report.first_regions <= settings.max_regions || !merge {
            return Ok((built, first));
        }
        progress::phase(|| {
            format!(
                "cooking PATH: {} regions, over the budget of {}: merging within {bound} m",
                report.first_regions, settings.max_regions
            )
        });
        // The patches at the widest tolerance, found and decimated once: the border search
        // below finishes them for each bound it tries (finding them again each time was
        // most of a 1M-triangle cook).
        let widest_patches = patch_up(work, base, Flatness::Vertical(bound), merge, true);
        let widest = finish(
            work,
            base,
            self.attrs_of,
            &widest_patches,
            merge,
            0.0,
            budget_straight,
        )?
        .choose_orders();
        let reachable = widest.count();
        if reachable > settings.max_regions {
            let built =
                self.straighten_border(&widest_patches, first_tolerance, reachable, report)?;
            report.tolerance = Some(bound);
            return Ok((built, Flatness::Vertical(bound)));
        }
        progress::phase(|| {
            format!(
                "cooking PATH: the smallest height tolerance that meets {} regions",
                settings.max_regions
            )
        });
        let search = ToleranceSearch {
            work,
            base,
            attrs_of: self.attrs_of,
            straight: budget_straight,
            max_regions: settings.max_regions,
        };
        let low = first_tolerance.max(MIN_TOLERANCE).min(bound);
        let (built, high) = search.run(widest, &widest_patches, low, bound)?;
        report.tolerance = Some(high);
        Ok((built, Flatness::Vertical(high)))
    }

    /// Flatness alone cannot meet the budget (`reachable` regions at the widest tolerance):
    /// the outline's reflex corners need regions of their own. Straightens the free border
    /// (see `decimate`), the smallest change first, as far as needed and within the area
    /// bound, or refuses naming the smallest budget reachable.
    fn straighten_border(
        &self,
        widest_patches: &Patched<'_>,
        first_tolerance: f64,
        reachable: usize,
        report: &mut CookReport,
    ) -> Result<Built, WriteError> {
        let settings = self.settings;
        let bound = settings.max_height_error;
        let limit = settings.max_area_change * report.footprint_in;
        let straighten = |area: f64| {
            finish(
                self.work,
                self.base,
                self.attrs_of,
                widest_patches,
                settings.merge,
                area,
                crate::merge::TURN_EPSILON,
            )
        };
        let changed = |b: &Built| b.border.dropped + b.border.added;
        progress::phase(|| {
            format!(
                "cooking PATH: straightening the walkable border to meet {} regions",
                settings.max_regions
            )
        });
        // Reachable at all: every corner up to the whole bound straightened.
        let straightest = straighten(limit)?;
        let straight_count = straightest.count();
        let refuse = |count: usize, changed: f64, what: &str| {
            WriteError::new(
                "regions",
                format!(
                    "cooking gives {} regions at the height tolerance {first_tolerance}, still {reachable} when merging surfaces up to {bound} apart in height, and {count} when also straightening the walkable border {what} ({changed:.1} square units, {:.2}% of the walkable area seen from above, changed; the bound is {}%), but the budget is {} regions (the engine handles at most {MAX_REGIONS}); the smallest budget reachable within these bounds is {count}; raise --max-height-error or --max-area-change, or simplify the walkable outline",
                    report.first_regions,
                    100.0 * changed / report.footprint_in.max(f64::MIN_POSITIVE),
                    100.0 * settings.max_area_change,
                    settings.max_regions
                ),
            )
                .with_kind(walkmesh_core::ErrorKind::Limit)
        };
        if straight_count > settings.max_regions {
            return Err(refuse(
                straight_count,
                changed(&straightest),
                "wherever it can be",
            ));
        }
        // Bisection (geometric) for the smallest area per straightened corner that meets
        // the budget; the total change must then be within the bound.
        let mut best = straightest;
        let (mut low, mut high) = (limit * BORDER_RANGE, limit);
        for step in 0..BORDER_STEPS {
            progress::step(step as u64 + 1, BORDER_STEPS as u64);
            let mid = (low * high).sqrt();
            if !(mid > low && mid < high) {
                break;
            }
            let b = straighten(mid)?;
            if b.count() <= settings.max_regions {
                high = mid;
                best = b;
            } else {
                low = mid;
            }
        }
        if changed(&best) > limit {
            let needed = changed(&best) / report.footprint_in.max(f64::MIN_POSITIVE);
            return Err(WriteError::new(
                "regions",
                format!(
                    "cooking gives {} regions at the height tolerance {first_tolerance} and still {reachable} when merging surfaces up to {bound} apart in height; straightening the walkable border meets the budget of {} regions only by changing {:.1} square units, {:.2}% of the walkable area seen from above, more than the bound of {}%; raise --max-area-change to at least {needed:.3} (or --max-height-error), or simplify the walkable outline",
                    report.first_regions,
                    settings.max_regions,
                    changed(&best),
                    100.0 * needed,
                    100.0 * settings.max_area_change
                ),
            )
                .with_kind(walkmesh_core::ErrorKind::Limit));
        }
        report.border_area = Some(high);
        Ok(best)
    }
}

/// Step 5: the merged mesh's regions as PATH records (nodes, links, regions), with the box
/// of each region for the octree. `flat` is the plane each polygon of the cook's input was
/// moved onto; `work_polygons` that input's polygon count. The report gets the written
/// regions' measures and the region of each input polygon.
fn write_regions(
    built: Built,
    flatness: Flatness,
    flat: &[Option<Plane>],
    work_polygons: usize,
    settings: &Settings,
    report: &mut CookReport,
) -> Result<(PathFile, Vec<Aabb>), WriteError> {
    let Built {
        mesh: merged_mesh,
        source,
        original,
        stage: current,
        patch,
        patch_vertices,
        ..
    } = built;
    let work = &merged_mesh;
    let Stage {
        attrs,
        class,
        cooked,
        adjacency,
        poly_of,
        mergeable,
        keys,
        planes,
        rank,
        order,
        convex_epsilon,
        ..
    } = current;
    let input = MergeInput {
        mesh: work,
        adjacency: &adjacency,
        poly_of: &poly_of,
        mergeable: &mergeable,
        key: &keys,
        planes: &planes,
        rank: &rank,
        order: &order,
        convex_epsilon,
    };
    let mut merger = Merger::new(&input);
    merger.merge(Flatness::Given);
    let (region_seed, region_of) = number_regions(&mut merger, &cooked, &source);
    let region_count = region_seed.len();
    check_region_count(region_count, settings)?;

    progress::phase(|| format!("cooking PATH: writing {region_count} regions"));
    let outline = region_outlines(&merger, &cooked, &poly_of, &region_of, &region_seed)?;
    let mut file = PathFile {
        version: settings.version,
        ..PathFile::default()
    };
    let mut boxes = Vec::with_capacity(region_count);
    let mut writer = RegionWriter {
        work,
        settings,
        flatness,
        flat,
        attrs: &attrs,
        class: &class,
        adjacency: &adjacency,
        poly_of: &poly_of,
        region_of: &region_of,
        region_seed: &region_seed,
        source: &source,
        patch: &patch,
        patch_vertices: &patch_vertices,
        patch_measured: vec![false; patch_vertices.len()],
        merger: &merger,
    };
    for (r, loop_edges) in outline.iter().enumerate() {
        boxes.push(writer.write(r, loop_edges, &mut file, report)?);
    }
    report.source_of_region = region_seed
        .iter()
        .map(|&seed| source.get(seed).copied().unwrap_or(NONE))
        .collect();
    report.region_of_polygon =
        region_of_input(&region_of, &source, &original, &patch, work_polygons);
    Ok((file, boxes))
}

/// Numbers the merged regions in order of the input polygon their root stands for (then of
/// the root), so that regions keep the input's order where vertex removal appended new
/// triangles. Returns each region's root polygon and each polygon's region.
fn number_regions(
    merger: &mut Merger<'_>,
    cooked: &[bool],
    source: &[u32],
) -> (Vec<usize>, Vec<u32>) {
    let polygon_count = cooked.len();
    let mut region_seed: Vec<usize> = (0..polygon_count)
        .filter(|&p| cooked[p] && merger.root(p) == p)
        .collect();
    region_seed.sort_unstable_by_key(|&p| (source.get(p).copied().unwrap_or(NONE), p));
    let mut region_of = vec![NONE; polygon_count];
    for (r, &seed) in region_seed.iter().enumerate() {
        region_of[seed] = r as u32;
    }
    for p in 0..polygon_count {
        if cooked[p] {
            let root = merger.root(p);
            region_of[p] = region_of[root];
        }
    }
    (region_seed, region_of)
}

/// Refuses more regions than the budget, saying how to merge them.
fn check_region_count(region_count: usize, settings: &Settings) -> Result<(), WriteError> {
    if region_count <= settings.max_regions {
        return Ok(());
    }
    Err(WriteError::new(
        "regions",
        if settings.merge {
            format!(
                "cooking gives {region_count} regions, but the budget is {} (the engine handles at most {MAX_REGIONS}); merge or simplify the walkable surface (coplanar neighbours with equal height and masks merge)",
                settings.max_regions
            )
        } else {
            format!(
                "the mesh has {region_count} regions and they are kept as they are (they came from a PATH file, or prime:merge is off), but the budget is {} (the engine handles at most {MAX_REGIONS}); cook with prime:merge=on to merge them",
                settings.max_regions
            )
        },
    ))
}

/// Each region's outline as half-edges, starting at its smallest half-edge.
fn region_outlines(
    merger: &Merger<'_>,
    cooked: &[bool],
    poly_of: &[u32],
    region_of: &[u32],
    region_seed: &[usize],
) -> Result<Vec<Vec<u32>>, WriteError> {
    let mut outline: Vec<Vec<u32>> = vec![Vec::new(); region_seed.len()];
    for h in 0..poly_of.len() {
        if !merger.on_boundary[h] || !cooked[poly_of[h] as usize] {
            continue;
        }
        let r = region_of[poly_of[h] as usize] as usize;
        let Some(loop_edges) = outline.get_mut(r) else {
            continue;
        };
        if !loop_edges.is_empty() {
            continue;
        }
        let root = region_seed[r];
        let mut e = h as u32;
        for _ in 0..merger.boundary_len[root] {
            loop_edges.push(e);
            e = merger.next[e as usize];
        }
        if e as usize != h {
            return Err(WriteError::new(
                format!("regions[{r}]"),
                "internal error: a region outline does not close",
            ));
        }
    }
    Ok(outline)
}

/// What a region's records are made from: the merged mesh and its merge, the regions'
/// numbering, and the patches against which the height error is measured (each once).
struct RegionWriter<'a> {
    work: &'a NavMesh,
    settings: &'a Settings,
    flatness: Flatness,
    flat: &'a [Option<Plane>],
    attrs: &'a [Attrs],
    class: &'a [Class],
    adjacency: &'a walkmesh_core::passes::Adjacency,
    poly_of: &'a [u32],
    region_of: &'a [u32],
    region_seed: &'a [usize],
    source: &'a [u32],
    patch: &'a [u32],
    patch_vertices: &'a [Vec<u32>],
    /// Per patch, whether its input vertices were measured already.
    patch_measured: Vec<bool>,
    merger: &'a Merger<'a>,
}

impl RegionWriter<'_> {
    /// Appends region `r` (outline `loop_edges`) to `file`: its nodes (clockwise from
    /// above), links and region record; returns its box.
    fn write(
        &mut self,
        r: usize,
        loop_edges: &[u32],
        file: &mut PathFile,
        report: &mut CookReport,
    ) -> Result<Aabb, WriteError> {
        let seed = self.region_seed[r];
        let a = self.attrs[seed];
        let (kept, kept_others) = self.outline_corners(r, loop_edges);
        let m = kept.len();
        if m < 3 {
            return Err(WriteError::new(
                format!("regions[{r}]"),
                "internal error: a region outline has fewer than 3 corners",
            ));
        }
        let input = self.source.get(seed).copied().unwrap_or(NONE) as usize;
        let flat_plane = self.flat.get(input).copied().flatten();
        let plane = match self.flatness {
            Flatness::Vertical(_) | Flatness::Given => self.merger.plane(seed),
            Flatness::Exact => flat_plane,
        };
        if flat_plane.is_some() {
            report.flattened += 1;
        }
        let work = self.work;
        let position = |v: u32| -> [f32; 3] {
            let p = work.vertex(v);
            match plane {
                Some(plane) => [
                    p[0],
                    p[1],
                    plane.z_at(f64::from(p[0]), f64::from(p[1])) as f32,
                ],
                None => p,
            }
        };
        // Node j and the other side of the edge node j -> j+1.
        let down = self.class[seed] == Class::Down;
        let node_corner = |j: usize| -> (u32, u32) {
            if down {
                // Already clockwise from above: node order = loop order.
                (kept[j], kept_others[j])
            } else {
                (kept[(m - j) % m], kept_others[m - 1 - j])
            }
        };
        let positions: Vec<[f32; 3]> = (0..m).map(|j| position(node_corner(j).0)).collect();
        let node_start = file.nodes.len() as u32;
        let link_start = file.links.len() as u32;
        push_nodes_and_links(file, &positions, |j| node_corner(j).1);
        // Counter-clockwise order for an upward Newell normal.
        let ccw: Vec<P3> = (0..m)
            .map(|j| positions[(m - j) % m].map(f64::from))
            .collect();
        let n = newell(&ccw);
        let len = length(n);
        let unit = n.map(|v| v / len);
        let normal = unit.map(|v| v as f32);
        report.area_out += len / 2.0;
        report.corners += m;
        report.max_corners = report.max_corners.max(m);
        // Height error: the input vertices the region replaces against its plane.
        let written = Plane {
            normal: unit,
            origin: ccw.first().copied().unwrap_or([0.0; 3]),
        };
        self.measure_height_error(&written, input, seed, report);
        let mut sum = [0.0f64; 3];
        for p in &positions {
            for axis in 0..3 {
                sum[axis] += f64::from(p[axis]);
            }
        }
        let centroid = sum.map(|s| (s / m as f64) as f32);
        let aabb = region_box(&positions, a.height);
        file.regions.push(Region {
            node_count: m as u32,
            node_start,
            link_count: file.links.len() as u32 - link_start,
            link_start,
            index_mask: a.index_mask,
            type_mask: a.type_mask,
            height: a.height,
            normal,
            index: r as u32,
            centroid,
            aabb_min: aabb.min,
            aabb_max: aabb.max,
            obstruction: (self.settings.version >= VERSION_MP2).then_some([0; 3]),
            scratch: r as u32,
        });
        Ok(aabb)
    }

    /// The corners (input vertices) of region `r`'s outline and the region on the other
    /// side of each outline edge ([`NONE`] for none), collinear corners dropped when merging
    /// (see [`simplify_outline`]).
    fn outline_corners(&self, r: usize, loop_edges: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let indices = self.work.polygons.indices();
        let corners: Vec<u32> = loop_edges
            .iter()
            .map(|&e| indices.get(e as usize).copied().unwrap_or(0))
            .collect();
        let others: Vec<u32> = loop_edges
            .iter()
            .map(|&e| {
                self.adjacency
                    .across(e as usize)
                    .and_then(|t| self.region_of.get(self.poly_of[t] as usize).copied())
                    .filter(|&o| o != NONE && o as usize != r)
                    .unwrap_or(NONE)
            })
            .collect();
        if self.settings.merge {
            simplify_outline(self.work, &corners, &others)
        } else {
            (corners, others)
        }
    }

    /// Raises the report's height error to the largest distance of the input vertices the
    /// region replaces from its `written` plane. Regions of a patch replace all of the
    /// patch's input vertices (those inside it were removed); they share its plane, so the
    /// patch is measured once.
    fn measure_height_error(
        &mut self,
        written: &Plane,
        input: usize,
        seed: usize,
        report: &mut CookReport,
    ) {
        let in_patch = self.patch.get(input).copied().unwrap_or(NONE) as usize;
        let replaced: &[u32] = match self.patch_vertices.get(in_patch) {
            Some(vertices) if !vertices.is_empty() => {
                if self.patch_measured[in_patch] {
                    &[]
                } else {
                    self.patch_measured[in_patch] = true;
                    vertices
                }
            }
            _ => self.merger.vertices(seed),
        };
        for &v in replaced {
            let error = written.vertical(point(self.work, v)).abs();
            if error.is_finite() {
                report.max_height_error = report.max_height_error.max(error);
            }
        }
    }
}

/// Appends a region's nodes at `positions` (clockwise from above) and a link for each edge
/// node j → j+1 whose other side, `other(j)`, is another region.
fn push_nodes_and_links(file: &mut PathFile, positions: &[[f32; 3]], other: impl Fn(usize) -> u32) {
    let m = positions.len();
    for j in 0..m {
        let this = positions[j].map(f64::from);
        let following = positions[(j + 1) % m].map(f64::from);
        let d = [
            following[0] - this[0],
            following[1] - this[1],
            following[2] - this[2],
        ];
        // d × (0, 0, 1), written out so that signed zeros come out as the cross product's.
        let c = [
            d[1] * 1.0 - d[2] * 0.0,
            d[2] * 0.0 - d[0] * 1.0,
            d[0] * 0.0 - d[1] * 0.0,
        ];
        let len = length(c);
        let normal = if len > 0.0 {
            c.map(|v| (v / len) as f32)
        } else {
            [0.0; 3]
        };
        file.nodes.push(Node {
            position: positions[j],
            normal,
        });
        let other = other(j);
        if other != NONE {
            let width = d[0].hypot(d[1]) as f32;
            let inv_width = if width > 0.0 {
                (1.0 / f64::from(width)) as f32
            } else {
                0.0
            };
            file.links.push(Link {
                node: j as u32,
                region: other,
                width,
                inv_width,
            });
        }
    }
}

/// A region's box: its corners and the corners raised by its height.
fn region_box(positions: &[[f32; 3]], height: f32) -> Aabb {
    let first = positions.first().copied().unwrap_or([0.0; 3]);
    let mut aabb = Aabb {
        min: first,
        max: first,
    };
    for p in positions {
        let top = [p[0], p[1], p[2] + height];
        for q in [p, &top] {
            for (axis, &value) in q.iter().enumerate() {
                aabb.min[axis] = aabb.min[axis].min(value);
                aabb.max[axis] = aabb.max[axis].max(value);
            }
        }
    }
    aabb
}

/// Per input polygon, the region of its unchanged copy, else a region of its patch (a
/// polygon whose inner vertex was removed is spread over its patch's regions, all of which
/// are linked), else [`NONE`].
fn region_of_input(
    region_of: &[u32],
    source: &[u32],
    original: &[bool],
    patch: &[u32],
    work_polygons: usize,
) -> Vec<u32> {
    let mut by_input = vec![NONE; work_polygons];
    let mut patch_region = vec![NONE; work_polygons];
    for (q, &r) in region_of.iter().enumerate() {
        let s = source.get(q).copied().unwrap_or(NONE) as usize;
        if original.get(q).copied().unwrap_or(false)
            && let Some(slot) = by_input.get_mut(s)
        {
            *slot = r;
        }
        if let Some(&root) = patch.get(s)
            && let Some(slot) = patch_region.get_mut(root as usize)
            && *slot == NONE
        {
            *slot = r;
        }
    }
    (0..work_polygons)
        .map(|p| {
            let direct = by_input.get(p).copied().unwrap_or(NONE);
            if direct != NONE {
                return direct;
            }
            patch
                .get(p)
                .and_then(|&root| patch_region.get(root as usize))
                .copied()
                .unwrap_or(NONE)
        })
        .collect()
}

/// Step 6: the file's tables from its regions: ground and flyer bits, reserved words, the
/// octree over the regions' `boxes`, an empty MP2 point graph (warned when the source had
/// one) and the `0xFF` padding.
fn finish_file(
    file: &mut PathFile,
    boxes: &[Aabb],
    mesh: &NavMesh,
    settings: &Settings,
    diag: &mut Diagnostics,
) -> Result<(), WriteError> {
    let region_count = file.regions.len();
    file.ground = connectivity_bits(file, 1);
    file.flyer = connectivity_bits(file, 3);
    if has_reserved_words(settings.version) {
        file.reserved = vec![0; reserved_words(region_count as u64) as usize];
    }
    let (octree, lookup) = build_octree(boxes).map_err(|_| {
        WriteError::new(
            "octree",
            format!(
                "the {region_count} regions overlap so much seen from above that the octree the engine's rule builds would exceed {MAX_OCTREE_CELLS} cells or {MAX_OCTREE_ENTRIES} region entries (stacked or huge crossing faces?); nothing written"
            ),
        )
    })?;
    file.octree = octree;
    file.lookup = lookup;
    if settings.version == VERSION_MP2 {
        file.point_graph = Some(PointGraph::default());
        let had_points = mesh
            .provenance
            .as_ref()
            .filter(|p| p.format == "path")
            .and_then(|p| p.section("point_graph"))
            .is_some_and(|bytes| bytes.get(..4).is_some_and(|c| c != [0, 0, 0, 0]));
        if had_points {
            diag.warn(
                "path.point_graph_dropped",
                "the MP2 point graph of the source cannot be recomputed and was written empty",
            );
        }
    }
    let len = file.encode().len();
    file.trailing = vec![0xFF; len.next_multiple_of(32) - len];
    Ok(())
}

/// The cook's figures as a note, and the budget's losses as a warning.
fn report_quality(report: &CookReport, settings: &Settings, diag: &mut Diagnostics) {
    let regions = report.regions().max(1);
    let polygons = report
        .region_of_polygon
        .iter()
        .filter(|&&r| r != NONE)
        .count();
    if report.flattened > 0 {
        diag.warn(
            "path.regions_flattened",
            format!(
                "{} region(s) were not flat (their corners differ in height by up to {:.3e}) and were moved onto their planes",
                report.flattened, report.max_height_error
            ),
        );
    }
    // Heights a default (within-budget) merge moved: small, but a change of placement all
    // the same, so a warning with the figure rather than only the quality note. 1 mm is the
    // conversion matrix's placement tolerance.
    if report.tolerance.is_none() && report.flattened == 0 && report.max_height_error > 1e-3 {
        diag.warn(
            "path.heights_adjusted",
            format!(
                "nearly coplanar walkable faces were merged within the height tolerance ({}): region corners moved vertically by up to {:.4}, area {:+.3e} relative; seen from above nothing changed (--height-tolerance 0 merges only exactly coplanar faces)",
                settings.height_tolerance.min(settings.max_height_error),
                report.max_height_error,
                report.area_change()
            ),
        );
    }
    if let Some(tolerance) = report.tolerance {
        diag.warn(
            "path.surfaces_merged",
            format!(
                "merging under the height tolerance ({}) gives {} regions, over the budget of {}: nearly coplanar neighbours were merged within a height tolerance of {tolerance:.4} (bound {}); largest height error {:.4}, area {:.4} → {:.4} ({:+.3e} relative); connectivity unchanged",
                settings.height_tolerance.min(settings.max_height_error),
                report.first_regions,
                settings.max_regions,
                settings.max_height_error,
                report.max_height_error,
                report.area_in,
                report.area_out,
                report.area_change()
            ),
        );
    }
    if let Some(corner) = report.border_area {
        let border = report.border;
        diag.warn(
            "path.border_straightened",
            format!(
                "merging within the height-error bound still gives more regions than the budget of {}: the walkable border was straightened at {} corner(s) of up to {corner:.4} square units each, cutting off {:.3} and filling in {:.3} square units seen from above ({:.3}% of the walkable {:.3}, bound {}%); links and connectivity unchanged",
                settings.max_regions,
                border.removed,
                border.dropped,
                border.added,
                100.0 * (border.dropped + border.added) / report.footprint_in.max(f64::MIN_POSITIVE),
                report.footprint_in,
                100.0 * settings.max_area_change
            ),
        );
    }
    diag.push(
        Severity::Info,
        "path.cook_quality",
        Position::None,
        None,
        format!(
            "{} regions from {polygons} polygons ({:.2} per region), {:.2} corners per region on average, largest region {} corners; largest height error {:.3e}, area change {:+.3e} relative",
            report.regions(),
            polygons as f64 / regions as f64,
            report.corners as f64 / regions as f64,
            report.max_corners,
            report.max_height_error,
            report.area_change()
        ),
    );
}

/// Drops the corners of a region outline (counter-clockwise corners, and the region on the
/// other side of each edge `i` = corner i → i + 1) where the outline goes straight on and
/// both edges have the same other side. Corners where the neighbour changes stay, so each
/// link still spans one edge on both sides; a straight corner is dropped on both sides of a
/// shared edge alike (the test is symmetric). Starts at a strict corner.
fn simplify_outline(mesh: &NavMesh, corners: &[u32], others: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let m = corners.len();
    let at = |i: usize| point(mesh, corners[i % m]);
    let keep: Vec<bool> = (0..m)
        .map(|i| {
            let before = others[(i + m - 1) % m];
            before != others[i] || !straight(at(i + m - 1), at(i), at(i + 1))
        })
        .collect();
    let kept: Vec<usize> = (0..m).filter(|&i| keep[i]).collect();
    if kept.len() < 3 {
        return (corners.to_vec(), others.to_vec());
    }
    let k = kept.len();
    // A strict corner first (a straight one remains where the neighbour changes): the one
    // with the smallest vertex index, so that the start does not depend on which polygon
    // the outline was traced from.
    let start = (0..k)
        .filter(|&s| {
            !straight(
                at(kept[(s + k - 1) % k]),
                at(kept[s]),
                at(kept[(s + 1) % k]),
            )
        })
        .min_by_key(|&s| corners[kept[s]])
        .unwrap_or(0);
    let order: Vec<usize> = (0..k).map(|s| kept[(start + s) % k]).collect();
    (
        order.iter().map(|&i| corners[i]).collect(),
        // The edge from a kept corner runs to the next kept one; the dropped corners in
        // between had the same other side.
        order.iter().map(|&i| others[i]).collect(),
    )
}

/// Polygon of every half-edge.
fn polygon_of_half_edges(mesh: &NavMesh) -> Vec<u32> {
    let mut poly_of = vec![0u32; mesh.polygons.indices().len()];
    for p in 0..mesh.polygons.len() {
        let first = mesh.polygons.first_index(p);
        for slot in poly_of
            .iter_mut()
            .skip(first)
            .take(mesh.polygons.get(p).len())
        {
            *slot = p as u32;
        }
    }
    poly_of
}

/// The "path exists" table for regions whose type mask meets `mask`: bit (i, j) set when
/// both are such regions and linked through such regions.
pub fn connectivity_bits(file: &PathFile, mask: u16) -> Vec<u32> {
    let n = file.regions.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let member = |r: usize| file.regions.get(r).is_some_and(|g| g.type_mask & mask != 0);
    for (r, region) in file.regions.iter().enumerate() {
        if !member(r) {
            continue;
        }
        let start = region.link_start as usize;
        let links = start
            .checked_add(region.link_count as usize)
            .and_then(|end| file.links.get(start..end))
            .unwrap_or(&[]);
        for link in links {
            let other = link.region as usize;
            if other < n && member(other) {
                let (a, b) = (find(&mut parent, r), find(&mut parent, other));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut words = vec![0u32; bitset_words(n as u64) as usize];
    // Group members by component, then set the bits of every pair inside a group: the
    // output itself is quadratic in the worst case, so this is linear in the bits set.
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for r in 0..n {
        if member(r) {
            let root = find(&mut parent, r);
            groups.entry(root).or_default().push(r);
        }
    }
    for members in groups.values() {
        for (k, &i) in members.iter().enumerate() {
            for &j in members.iter().skip(k + 1) {
                let bit = pair_bit(n as u64, i as u64, j as u64);
                if let Some(word) = words.get_mut((bit / 32) as usize) {
                    *word |= 1 << (bit % 32);
                }
            }
        }
    }
    words
}
