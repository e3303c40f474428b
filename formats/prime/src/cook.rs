//! IR → PATH: the cooker.
//!
//! 1. **Which polygons.** A polygon becomes (part of) a region when its locomotion type mask
//!    is non-zero: the `path:type_mask` face attribute when present; else, when the `prime`
//!    profile lists the polygon's neutral material, the entry's code if the entry is walkable
//!    and 0 if not (a changed walkability is warned); else 1 (ground) for walkable polygons
//!    and 0 for the rest. Everything else is dropped with a loss warning.
//!    Polygons with no area seen from above (vertical walls, collapsed faces, repeated
//!    corners) cannot be regions (the engine divides by the plane normal's z) and are
//!    dropped with a warning too. Polygons facing down are cooked as single regions with
//!    their corners reversed.
//! 2. **Convex, flat input.** When some cooked polygon is not convex seen from above or not
//!    flat, the whole mesh is triangulated first (core `triangulate`).
//! 3. **Greedy merge** (deterministic). Every cooked polygon starts as its own region; an
//!    outline is a doubly linked list of input half-edges. Two regions may be glued when
//!    both face up, have the same height and masks, are coplanar (unit seed normals within
//!    1e-6, every outline corner within 1e-4 of the lower seed's plane) and the union stays
//!    convex seen from above: the two corners where the outlines meet must turn left or go
//!    straight on (all other corners keep their angles, so this is enough; a run of several
//!    shared edges is glued at once). Collinear corners are kept, so every region edge is
//!    exactly one input edge and links are one-to-one.
//!    *Phase 1*: seeds in polygon order; each grows breadth-first (FIFO over its outline
//!    edges) over polygons that are not yet part of any region. *Phase 2* (up to 8 passes,
//!    until nothing changes): each region, in order, glues neighbouring regions with larger
//!    seeds. After a glue the new outline edges and the edges at both glued corners are
//!    queued again. Each glue costs O(size of the joining outline).
//!    Regions read from a PATH file are authored data: a mesh that came from PATH (it carries
//!    the `path:version` extra, which glTF keeps too) is cooked one region per polygon, so
//!    `--rebuild` and PATH → glTF → PATH keep its regions and recompute only the derived
//!    tables. `params["prime:merge"]` = `on`/`off` overrides either default.
//! 4. **Records.** Nodes clockwise from above (the IR loop reversed, starting at the loop's
//!    first corner), node normal `normalize((next − this) × +Z)`, links for edges whose other
//!    side is in another region, width = XY edge length, `1 / width`, region normal = unit
//!    Newell normal, centroid = mean of the corners, box = corners and corners + height,
//!    index and scratch = position.
//! 5. **Tables.** Ground bits = connected components over links among regions with type bit
//!    1; flyer bits the same among regions with bits 1 or 2; reserved words zero; the octree
//!    per [`crate::octree`]; `0xFF` padding to a multiple of 32 bytes.

use std::borrow::Cow;
use std::collections::VecDeque;

use walkmesh_core::passes::{edge_adjacency, triangulate};
use walkmesh_core::{Attribute, Diagnostics, Extra, MeshKind, NavMesh, WriteError, WriteOptions};

use crate::model::{
    Link, Node, PathFile, PointGraph, Region, VERSION_MP1, VERSION_MP2, VERSION_MP3, bitset_words,
    has_reserved_words, pair_bit, reserved_words,
};
use crate::octree::{Aabb, build_octree};
use crate::read::{ATTR_HEIGHT, ATTR_INDEX_MASK, ATTR_TYPE_MASK, EXTRA_VERSION, profile_for};

/// The engine refuses areas with more regions than this (bit sets sized for 512).
pub const MAX_REGIONS: usize = 512;
/// Default region height (metaforce's cooker default).
pub const DEFAULT_HEIGHT: f32 = 1.0;
/// Default AI index mask: every AI class may use the region.
pub const DEFAULT_INDEX_MASK: u16 = 0x00FF;
/// Coplanarity: largest distance of a corner from the seed's plane.
const PLANE_DISTANCE: f64 = 1e-4;
/// Coplanarity: smallest dot product of two unit normals.
const NORMAL_DOT: f64 = 1.0 - 1e-6;
/// Relative tolerance of the left-turn test.
const TURN_EPSILON: f64 = 1e-9;
/// Polygons whose unit normal has a smaller z are treated as vertical and dropped.
const MIN_NORMAL_Z: f64 = 1e-3;

const NONE: u32 = u32::MAX;
/// Passes of region-to-region gluing after the growth phase.
const MERGE_PASSES: usize = 8;

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
    fn same(&self, other: &Attrs) -> bool {
        self.height.to_bits() == other.height.to_bits()
            && self.index_mask == other.index_mask
            && self.type_mask == other.type_mask
    }
}

type P3 = [f64; 3];

fn point(mesh: &NavMesh, vertex: u32) -> P3 {
    mesh.vertex(vertex).map(f64::from)
}

/// Newell normal (not normalised) of the corners in the given order.
fn newell(points: &[P3]) -> P3 {
    let mut n = [0.0f64; 3];
    for (i, a) in points.iter().enumerate() {
        let b = points.get((i + 1) % points.len()).unwrap_or(a);
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

fn length(v: P3) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// True when the corner u → a → w turns left or goes straight on, seen from +Z.
fn turns_left_or_straight(u: P3, a: P3, w: P3) -> bool {
    let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
    let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
    let cross = d1x * d2y - d1y * d2x;
    let scale = (d1x.hypot(d1y) * d2x.hypot(d2y)).max(f64::MIN_POSITIVE);
    if cross > TURN_EPSILON * scale {
        return true;
    }
    cross >= -TURN_EPSILON * scale && d1x * d2x + d1y * d2y > 0.0
}

/// Convex (left turns or straight, winding once) seen from +Z, for corners counter-clockwise.
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
        if !turns_left_or_straight(*u, *a, *w) {
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

fn flat(points: &[P3], normal: P3) -> bool {
    let Some(first) = points.first() else {
        return false;
    };
    points.iter().all(|p| {
        let d = (p[0] - first[0]) * normal[0]
            + (p[1] - first[1]) * normal[1]
            + (p[2] - first[2]) * normal[2];
        d.abs() <= PLANE_DISTANCE
    })
}

/// What cooking decided, for tests and reports.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CookReport {
    /// For each polygon of the mesh as cooked (after triangulation, if any), its region or
    /// `u32::MAX`.
    pub region_of_polygon: Vec<u32>,
    /// True when the mesh had to be triangulated first.
    pub triangulated: bool,
    pub dropped_not_walkable: usize,
    pub dropped_degenerate: usize,
}

struct Settings {
    merge: bool,
    version: u32,
    height: f32,
    index_mask: u16,
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
    Ok(Settings {
        merge,
        version,
        height,
        index_mask,
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

/// Cooks `mesh` into a PATH file.
pub fn cook(
    mesh: &NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Result<(PathFile, CookReport), WriteError> {
    mesh.check()
        .map_err(|message| WriteError::new("mesh", message))?;
    let settings = settings(mesh, options)?;
    report_losses(mesh, diag);

    // The `prime` profile decides, by neutral material, walkability and the type mask of
    // polygons that carry no `path:type_mask`.
    let profile = profile_for(options.materials.as_ref());
    let has_types = mesh.face_attributes.contains_key(ATTR_TYPE_MASK);
    let changed = (0..mesh.polygons.len())
        .filter(|_| !has_types)
        .filter(|&p| {
            type_from_profile(&profile, mesh, p)
                .is_ok_and(|(_, walkable)| walkable != mesh.is_walkable(p))
        })
        .count();
    if changed > 0 {
        diag.warn(
            "path.walkability_changed",
            format!("the prime material profile changes the walkability of {changed} polygon(s)"),
        );
    }

    // Materials PATH cannot keep: a kept region reads back as the profile's material for
    // its type mask (Stone for ground), so every other material is a counted merge.
    if !has_types {
        let mut changes = walkmesh_core::MaterialChanges::default();
        for (p, &from) in mesh.surfaces.iter().enumerate() {
            if let Ok((mask, true)) = type_from_profile(&profile, mesh, p) {
                let back = crate::read::surface_for_mask(&profile, mask);
                if back.material != from.material && from.walkable {
                    changes.record(mesh, p, from, back);
                }
            }
        }
        changes.report(diag, "path", "prime");
    }

    // Attributes of the input polygons.
    let attrs_of = |mesh: &NavMesh, p: usize| -> Result<Attrs, WriteError> {
        let height = column_f32(mesh, ATTR_HEIGHT, p).unwrap_or(settings.height);
        if !height.is_finite() || height <= 0.0 {
            return Err(WriteError::new(
                format!("{ATTR_HEIGHT}[{p}]"),
                format!("polygon {p} has height {height}; region heights must be positive"),
            ));
        }
        let type_mask = match mask(mesh, ATTR_TYPE_MASK, p)? {
            Some(m) => m,
            None => type_from_profile(&profile, mesh, p)?.0,
        };
        Ok(Attrs {
            height,
            index_mask: mask(mesh, ATTR_INDEX_MASK, p)?.unwrap_or(settings.index_mask),
            type_mask,
        })
    };

    // Triangulate when some cooked polygon is not convex or not flat.
    let needs_triangles = (0..mesh.polygons.len()).any(|p| {
        let vertices = mesh.polygons.get(p);
        if vertices.len() <= 3 || !attrs_of(mesh, p).is_ok_and(|a| a.type_mask != 0) {
            return false;
        }
        let mut points: Vec<P3> = vertices.iter().map(|&v| point(mesh, v)).collect();
        let normal = newell(&points);
        if normal[2] < 0.0 {
            points.reverse();
        }
        let len = length(normal);
        len == 0.0 || !convex_ccw(&points) || !flat(&points, normal.map(|c| c / len))
    });
    let mut work: Cow<'_, NavMesh> = Cow::Borrowed(mesh);
    if needs_triangles {
        let (triangles, _) = triangulate(mesh, diag);
        work = Cow::Owned(triangles);
    }
    let work = &*work;
    let polygon_count = work.polygons.len();

    // Classify.
    let mut attrs = Vec::with_capacity(polygon_count);
    let mut class = Vec::with_capacity(polygon_count);
    let mut unit_normal = Vec::with_capacity(polygon_count);
    let mut report = CookReport {
        triangulated: needs_triangles,
        ..CookReport::default()
    };
    for p in 0..polygon_count {
        let a = attrs_of(work, p)?;
        let vertices = work.polygons.get(p);
        let points: Vec<P3> = vertices.iter().map(|&v| point(work, v)).collect();
        let n = newell(&points);
        let len = length(n);
        let mut sorted = vertices.to_vec();
        sorted.sort_unstable();
        let repeated = sorted.windows(2).any(|w| w[0] == w[1]);
        let finite = points.iter().flatten().all(|c| c.is_finite());
        // An edge with no length seen from above has no inward normal and no width.
        let flat_edge = (0..points.len()).any(|i| {
            let (p0, p1) = (points[i], points[(i + 1) % points.len()]);
            p0[0] == p1[0] && p0[1] == p1[1]
        });
        let c = if a.type_mask == 0 {
            report.dropped_not_walkable += 1;
            Class::Skip
        } else if repeated
            || flat_edge
            || !finite
            || len == 0.0
            || (n[2] / len).abs() < MIN_NORMAL_Z
        {
            report.dropped_degenerate += 1;
            Class::Degenerate
        } else if n[2] > 0.0 {
            Class::Up
        } else {
            Class::Down
        };
        attrs.push(a);
        class.push(c);
        unit_normal.push(if len > 0.0 {
            n.map(|x| x / len)
        } else {
            [0.0; 3]
        });
    }
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
                "{} walkable polygon(s) have no area seen from above (vertical, collapsed, with an edge of no length seen from above, or repeating a corner) and were dropped",
                report.dropped_degenerate
            ),
        );
    }
    let cooked = |p: usize| matches!(class.get(p), Some(Class::Up | Class::Down));
    let adjacency = edge_adjacency(work, cooked);

    let indices = work.polygons.indices();
    let poly_of = polygon_of_half_edges(work);
    let mut merger = Merger::new(work, &adjacency, &poly_of);
    let up = |p: usize| class.get(p) == Some(&Class::Up);
    if settings.merge {
        let coplanar = |r: usize, q: usize, merger: &Merger<'_>| -> bool {
            // Normals of the two seeds, and every outline corner of q on r's seed plane.
            let (nr, nq) = (unit_normal[r], unit_normal[q]);
            let d = nq[0] * nr[0] + nq[1] * nr[1] + nq[2] * nr[2];
            let origin = point(work, work.polygons.get(r).first().copied().unwrap_or(0));
            d >= NORMAL_DOT
                && merger.outline_starts(q).all(|v| {
                    let p = point(work, v);
                    let dist = (p[0] - origin[0]) * nr[0]
                        + (p[1] - origin[1]) * nr[1]
                        + (p[2] - origin[2]) * nr[2];
                    dist.abs() <= PLANE_DISTANCE
                })
        };
        let compatible = |r: usize, q: usize, merger: &Merger<'_>| -> bool {
            up(r) && up(q) && attrs[q].same(&attrs[r]) && coplanar(r, q, merger)
        };
        // Phase 1: grow each seed over polygons not yet used, breadth-first.
        for seed in 0..polygon_count {
            if !up(seed) || merger.root(seed) != seed {
                continue;
            }
            merger.grow(seed, |merger, q| {
                q > seed && merger.is_single(q) && compatible(seed, q, merger)
            });
        }
        // Phase 2: glue neighbouring regions whose union is convex, until nothing changes.
        for _ in 0..MERGE_PASSES {
            let mut merged = false;
            for r in 0..polygon_count {
                if !up(r) || merger.root(r) != r {
                    continue;
                }
                merged |= merger.grow(r, |merger, q| compatible(r, q, merger));
            }
            if !merged {
                break;
            }
        }
    }

    // Regions in order of their smallest polygon.
    let mut region_of = vec![NONE; polygon_count];
    let mut region_seed: Vec<usize> = Vec::new();
    for p in 0..polygon_count {
        if !cooked(p) {
            continue;
        }
        let root = merger.root(p);
        if root == p {
            region_of[p] = region_seed.len() as u32;
            region_seed.push(p);
        } else {
            region_of[p] = region_of[root];
        }
    }
    let region_count = region_seed.len();
    if region_count > MAX_REGIONS {
        return Err(WriteError::new(
            "regions",
            format!(
                "cooking gives {region_count} regions, but the engine handles at most {MAX_REGIONS}; merge or simplify the walkable surface (coplanar neighbours with equal height and masks merge)"
            ),
        ));
    }

    // Outlines, each starting at its smallest half-edge.
    let mut outline: Vec<Vec<u32>> = vec![Vec::new(); region_count];
    for h in 0..indices.len() {
        if !merger.on_boundary[h] || !cooked(poly_of[h] as usize) {
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

    // Records.
    let mut file = PathFile {
        version: settings.version,
        ..PathFile::default()
    };
    let mut boxes = Vec::with_capacity(region_count);
    for (r, loop_edges) in outline.iter().enumerate() {
        let seed = region_seed[r];
        let a = attrs[seed];
        let m = loop_edges.len();
        if m < 3 {
            return Err(WriteError::new(
                format!("regions[{r}]"),
                "internal error: a region outline has fewer than 3 corners",
            ));
        }
        // Node j and the half-edge of the input whose (reversed) edge is node j -> j+1.
        let down = class[seed] == Class::Down;
        let node_edge = |j: usize| -> (u32, u32) {
            if down {
                // Already clockwise from above: node order = loop order.
                let h = loop_edges[j];
                (h, h)
            } else {
                let corner = loop_edges[(m - j) % m];
                (corner, loop_edges[m - 1 - j])
            }
        };
        let positions: Vec<[f32; 3]> = (0..m)
            .map(|j| work.vertex(indices[node_edge(j).0 as usize]))
            .collect();
        let node_start = file.nodes.len() as u32;
        let link_start = file.links.len() as u32;
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
            let h = node_edge(j).1 as usize;
            if let Some(t) = adjacency.across(h) {
                let other = region_of[poly_of[t] as usize];
                if other != NONE && other as usize != r {
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
        // Counter-clockwise order for an upward Newell normal.
        let ccw: Vec<P3> = (0..m)
            .map(|j| positions[(m - j) % m].map(f64::from))
            .collect();
        let n = newell(&ccw);
        let len = length(n);
        let normal = n.map(|v| (v / len) as f32);
        let mut sum = [0.0f64; 3];
        for p in &positions {
            for axis in 0..3 {
                sum[axis] += f64::from(p[axis]);
            }
        }
        let centroid = sum.map(|s| (s / m as f64) as f32);
        let mut aabb = Aabb {
            min: positions[0],
            max: positions[0],
        };
        for p in &positions {
            let top = [p[0], p[1], p[2] + a.height];
            for q in [p, &top] {
                for (axis, &value) in q.iter().enumerate() {
                    aabb.min[axis] = aabb.min[axis].min(value);
                    aabb.max[axis] = aabb.max[axis].max(value);
                }
            }
        }
        boxes.push(aabb);
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
            obstruction: (settings.version >= VERSION_MP2).then_some([0; 3]),
            scratch: r as u32,
        });
    }

    file.ground = connectivity_bits(&file, 1);
    file.flyer = connectivity_bits(&file, 3);
    if has_reserved_words(settings.version) {
        file.reserved = vec![0; reserved_words(region_count as u64) as usize];
    }
    let (octree, lookup) = build_octree(&boxes);
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
    report.region_of_polygon = region_of;
    Ok((file, report))
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

/// Region outlines as doubly linked lists of input half-edges, and the gluing of two
/// regions across a run of shared edges.
struct Merger<'a> {
    mesh: &'a NavMesh,
    adjacency: &'a walkmesh_core::passes::Adjacency,
    poly_of: &'a [u32],
    next: Vec<u32>,
    prev: Vec<u32>,
    on_boundary: Vec<bool>,
    /// Union-find over polygons; a region's root is its smallest polygon.
    parent: Vec<u32>,
    /// Outline length, valid at roots.
    boundary_len: Vec<usize>,
    /// Some half-edge on the outline, valid at roots.
    anchor: Vec<u32>,
}

impl<'a> Merger<'a> {
    fn new(
        mesh: &'a NavMesh,
        adjacency: &'a walkmesh_core::passes::Adjacency,
        poly_of: &'a [u32],
    ) -> Merger<'a> {
        let half_edges = mesh.polygons.indices().len();
        let mut next = vec![0u32; half_edges];
        let mut prev = vec![0u32; half_edges];
        let mut boundary_len = Vec::with_capacity(mesh.polygons.len());
        let mut anchor = Vec::with_capacity(mesh.polygons.len());
        for p in 0..mesh.polygons.len() {
            let first = mesh.polygons.first_index(p);
            let n = mesh.polygons.get(p).len();
            for e in 0..n {
                next[first + e] = (first + (e + 1) % n) as u32;
                prev[first + e] = (first + (e + n - 1) % n) as u32;
            }
            boundary_len.push(n);
            anchor.push(first as u32);
        }
        Merger {
            mesh,
            adjacency,
            poly_of,
            next,
            prev,
            on_boundary: vec![true; half_edges],
            parent: (0..mesh.polygons.len() as u32).collect(),
            boundary_len,
            anchor,
        }
    }

    fn root(&mut self, p: usize) -> usize {
        let mut x = p;
        while self.parent[x] as usize != x {
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    /// True when polygon `q` is a region of its own that nothing has joined.
    fn is_single(&self, q: usize) -> bool {
        self.parent[q] as usize == q && self.boundary_len[q] == self.mesh.polygons.get(q).len()
    }

    fn start(&self, h: u32) -> P3 {
        point(
            self.mesh,
            self.mesh
                .polygons
                .indices()
                .get(h as usize)
                .copied()
                .unwrap_or(0),
        )
    }

    /// Start vertices of the outline of the region rooted at `root`.
    fn outline_starts(&self, root: usize) -> impl Iterator<Item = u32> + '_ {
        let len = self.boundary_len.get(root).copied().unwrap_or(0);
        let mut e = self.anchor.get(root).copied();
        (0..len).filter_map(move |_| {
            let here = e?;
            e = self.next.get(here as usize).copied();
            self.mesh.polygons.indices().get(here as usize).copied()
        })
    }

    /// Grows the region rooted at `r` across its outline, breadth-first, joining
    /// neighbouring regions with larger roots that `accept` allows and whose union stays convex.
    /// True when anything joined.
    fn grow(&mut self, r: usize, accept: impl Fn(&Merger<'_>, usize) -> bool) -> bool {
        let mut queue: VecDeque<u32> = VecDeque::new();
        // Seed the queue with the current outline.
        let mut e = self.anchor[r];
        for _ in 0..self.boundary_len[r] {
            queue.push_back(e);
            e = self.next[e as usize];
        }
        let mut merged = false;
        while let Some(h) = queue.pop_front() {
            if !self.on_boundary[h as usize] {
                continue;
            }
            let Some(t) = self.adjacency.across(h as usize) else {
                continue;
            };
            let q = self.root(self.poly_of[t] as usize);
            // Only larger roots join, so `r` stays the root while it grows.
            if q <= r || !self.on_boundary[t] || !accept(self, q) {
                continue;
            }
            if let Some(new_edges) = self.glue(r, h, t as u32, q) {
                merged = true;
                queue.extend(new_edges);
            }
        }
        merged
    }

    /// Glues region `q` (outline half-edge `t`) to region `r` (outline half-edge `h`, the
    /// twin of `t`) when the union is convex seen from +Z. Returns the edges to try next.
    fn glue(&mut self, r: usize, h: u32, t: u32, q: usize) -> Option<Vec<u32>> {
        let q_len = self.boundary_len[q];
        let r_len = self.boundary_len[r];
        let (next, prev) = (&self.next, &self.prev);
        let indices = self.mesh.polygons.indices();
        let vertex = |e: u32| indices.get(e as usize).copied();
        // Linked and running the opposite way (edges of neighbours wound inconsistently are
        // linked by the adjacency too, but cannot be glued).
        let twins = |a: u32, b: u32| {
            self.adjacency.across(a as usize) == Some(b as usize)
                && vertex(a) == vertex(next[b as usize])
                && vertex(b) == vertex(next[a as usize])
        };
        if !twins(h, t) {
            return None;
        }
        // The shared run: consecutive outline edges of r whose twins are consecutive in q.
        let (mut h_first, mut h_last, mut t_first, mut t_last) = (h, h, t, t);
        let mut shared = 1usize;
        while shared < q_len.min(r_len) {
            let (h2, t2) = (next[h_last as usize], prev[t_last as usize]);
            if h2 != h_first && twins(h2, t2) {
                (h_last, t_last) = (h2, t2);
                shared += 1;
            } else {
                break;
            }
        }
        while shared < q_len.min(r_len) {
            let (h2, t2) = (prev[h_first as usize], next[t_first as usize]);
            if h2 != h_last && twins(h2, t2) {
                (h_first, t_first) = (h2, t2);
                shared += 1;
            } else {
                break;
            }
        }
        if shared >= q_len || shared >= r_len {
            return None;
        }
        let u_edge = prev[h_first as usize];
        let w_edge = next[t_first as usize];
        let x_edge = prev[t_last as usize];
        let y_edge = next[h_last as usize];
        let a = self.start(h_first);
        let b = self.start(y_edge);
        let u = self.start(u_edge);
        let w = self.start(next[w_edge as usize]);
        let x = self.start(x_edge);
        let y = self.start(next[y_edge as usize]);
        if !turns_left_or_straight(u, a, w) || !turns_left_or_straight(x, b, y) {
            return None;
        }
        let (mut hr, mut tq) = (h_first, t_first);
        for _ in 0..shared {
            self.on_boundary[hr as usize] = false;
            self.on_boundary[tq as usize] = false;
            hr = self.next[hr as usize];
            tq = self.prev[tq as usize];
        }
        self.next[u_edge as usize] = w_edge;
        self.prev[w_edge as usize] = u_edge;
        self.next[x_edge as usize] = y_edge;
        self.prev[y_edge as usize] = x_edge;
        let (low, high) = (r.min(q), r.max(q));
        self.parent[high] = low as u32;
        self.boundary_len[low] = r_len + q_len - 2 * shared;
        self.anchor[low] = u_edge;
        // q's remaining outline, then the edges at both glued corners.
        let mut edges = Vec::with_capacity(q_len - shared + 2);
        let mut e = w_edge;
        for _ in 0..(q_len - shared) {
            edges.push(e);
            e = self.next[e as usize];
        }
        edges.push(u_edge);
        edges.push(y_edge);
        Some(edges)
    }
}
