//! KotOR: walls standing on the walkable floor's edge, as non-walkable faces.
//!
//! BioWare's room WOKs close the walkable floor with walls: of the 1 682 walkable boundary
//! edges of the 34 shared rooms, 1 595 (95 %) have a steep non-walkable face on their other
//! side, rising a median 2.97 m; the other 5 % are doorways, where the floor goes on into the
//! next room (docs/generate.md, "Non-walkable faces"). This stage does the same for the
//! generated floor: every walkable boundary edge (an edge of one walkable face and of no other
//! face, so the edges the hole fill closed are left alone) is sampled once per cell, and a
//! sample is walled when the room's render geometry stands beyond it in the voxel columns: a
//! surface rising from the floor's level to more than a climb above it (a wall, a sloped
//! skirt), or solid hanging into a character's height just beyond the edge (a railing). A
//! doorway (nothing beyond the edge, or only the lintel above the agent's head), a drop and
//! an edge where the floor goes on (into the next room) get none.
//!
//! The wall is a vertical strip of two triangles per walled stretch, on the edge's own floor
//! vertices and one top vertex per rim point, shared by the walls meeting there: they join
//! without a T-junction and each point of the rim has one wall height. Where a wall ends
//! along an edge (a doorway in a straight wall), the walkable triangle on it is cut there by a
//! vertex on the edge, into pieces on the same plane. A wall is as high as the solid beyond
//! it rises (the median over its samples), never higher than the room is above the floor
//! inside (a ceiling, a balcony) and never higher than [`MAX_HEIGHT`]; at a rim point where
//! two walls of different heights meet, the lower one counts. Walkability is unchanged: the
//! walls are `NonWalk`, and the walkable area and footprint are the same, so routes,
//! reachability and the WOK writer's adjacency and perimeters (walkable faces only) are too.

use std::collections::HashMap;

use walkmesh_core::NavMesh;
use walkmesh_core::material::Surface;

use crate::holes;
use crate::voxel::Heightfield;

/// The surface of the walls (`NonWalk`, as BioWare's wall faces beside the floor mostly are,
/// and the same as the hole fill).
pub const WALL: Surface = holes::FILL;

/// The highest wall written (m above the floor's edge). BioWare's wall faces beside the floor
/// rise a median 2.97 m (90th percentile 6.1 m); a wall up to the ceiling adds nothing a
/// character on the floor meets, so walls stop at about that median.
pub const MAX_HEIGHT: f32 = 3.0;

/// Shortest edge given a wall (m): a shorter one would make needle faces (lint's needle is
/// 1 mm wide).
const MIN_EDGE: f64 = 0.005;

/// How far beyond an edge (m) the surface is followed to see how high it rises: a sloped
/// skirt of 45° rises 2 m over it.
const REACH: f64 = 2.0;

/// Runs of wall (or of no wall) shorter than this along an edge (m) take their neighbours'
/// side: a doorway is a metre or more wide, so a shorter gap is noise of the voxel grid.
const MIN_RUN: f64 = 0.4;

/// A piece of a walkable triangle cut at a wall's end is no thinner than this (m, altitude
/// over its longest side in plan); else the edge is not cut (five times lint's needle).
pub(crate) const MIN_PIECE_ALTITUDE: f64 = 0.005;

/// How far beyond an edge (m) solid hanging into a character's height (a railing, a
/// leaning wall, a low overhang) makes a wall: the first columns out (the outline runs on
/// cell corners, simplified within about a cell).
const BLOCK_REACH: f64 = 0.3;

/// What the wall stage reads: the voxel solid, the climb and the agent's height.
#[derive(Clone, Copy, Debug)]
pub struct Ground<'a> {
    pub field: &'a Heightfield,
    /// A rise up to this (m) is a step, not a wall.
    pub max_climb: f32,
    /// Solid lower than this above the floor (m) just beyond the edge stands in a
    /// character's way.
    pub agent_height: f32,
}

// `Walls` lives in `report` (the report names it), re-exported here where it is made.
pub use crate::report::Walls;

/// One walkable boundary edge: corner `corner` of walkable face `face` to the next corner,
/// floor on its left.
pub(crate) struct RimEdge {
    pub(crate) face: usize,
    pub(crate) corner: usize,
    /// The face's own vertices at both ends and their canonical (welded) numbers.
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) key: [u32; 2],
}

/// A stretch of a rim edge, from `from` to `to` (fractions of the edge), walled to `height`
/// (m above the floor) or not walled.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Run {
    from: f64,
    to: f64,
    height: Option<f32>,
}

/// One end of a wall: a floor vertex and the key its single top vertex is found under.
#[derive(Clone, Copy)]
struct Foot {
    vertex: u32,
    key: u32,
}

/// A wall piece to raise: from foot to foot along the floor's edge, to a height or none.
type Piece = (Foot, Foot, Option<f32>);

/// Adds walls on the walkable boundary edges of `mesh` where solid rises beyond them.
pub fn raise(mesh: &mut NavMesh, ground: &Ground) -> Walls {
    let canonical = holes::weld(mesh);
    let rim = boundary_edges(mesh, &canonical);
    let mut walls = Walls {
        edges: rim.len(),
        ..Walls::default()
    };
    let runs: Vec<Vec<Run>> = rim.iter().map(|e| edge_runs(mesh, e, ground)).collect();
    // Where a wall ends along an edge, the edge's triangle is cut there (one new vertex on
    // the edge, shared by the floor pieces and the walls); an edge that cannot be cut cleanly
    // is walled as a whole or not at all, by the longer side.
    let cut = cuttable(mesh, &rim, &runs);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut splits: HashMap<usize, (usize, Vec<u32>)> = HashMap::new();
    for ((edge, edge_runs), &cut) in rim.iter().zip(&runs).zip(&cut) {
        let runs = if cut || edge_runs.len() < 2 {
            edge_runs.clone()
        } else {
            vec![by_majority(edge_runs)]
        };
        let mut feet = vec![Foot {
            vertex: edge.a,
            key: edge.key[0],
        }];
        let mut inner = Vec::new();
        for run in runs.iter().take(runs.len().saturating_sub(1)) {
            let v = point_on(mesh, edge, run.to);
            inner.push(v);
            feet.push(Foot { vertex: v, key: v });
        }
        feet.push(Foot {
            vertex: edge.b,
            key: edge.key[1],
        });
        if !inner.is_empty() {
            walls.split_edges += 1;
            splits.insert(edge.face, (edge.corner, inner));
        }
        walls.walled += usize::from(runs.iter().any(|r| r.height.is_some()));
        for (run, w) in runs.iter().zip(feet.windows(2)) {
            if let [p, q] = w {
                pieces.push((*p, *q, run.height));
            }
        }
    }
    split_faces(mesh, &splits);
    let tops = top_vertices(mesh, &pieces);
    for &(p, q, height) in &pieces {
        if height.is_none() {
            continue;
        }
        let (Some(&tp), Some(&tq)) = (tops.get(&p.key), tops.get(&q.key)) else {
            continue;
        };
        // Across the edge from the floor (q to p), standing up: facing into the room.
        for t in [[q.vertex, p.vertex, tp], [q.vertex, tp, tq]] {
            walls.area += area(mesh, &t);
            walls.faces += 1;
            mesh.push_polygon(&t, WALL);
        }
    }
    walls
}

/// One top vertex per wall foot key, at the height of the lowest wall meeting there.
fn top_vertices(mesh: &mut NavMesh, pieces: &[Piece]) -> HashMap<u32, u32> {
    let mut height_at: HashMap<u32, (u32, f32)> = HashMap::new();
    for &(p, q, height) in pieces {
        let Some(h) = height else { continue };
        for foot in [p, q] {
            let slot = height_at.entry(foot.key).or_insert((foot.vertex, h));
            slot.1 = slot.1.min(h);
        }
    }
    let mut feet: Vec<(u32, (u32, f32))> = height_at.into_iter().collect();
    feet.sort_unstable_by_key(|&(key, _)| key);
    let mut tops = HashMap::with_capacity(feet.len());
    for (key, (vertex, h)) in feet {
        let [x, y, z] = mesh.vertex(vertex);
        tops.insert(key, mesh.vertices.len() as u32);
        mesh.vertices.push([x, y, z + h]);
    }
    tops
}

/// The walkable boundary edges: edges of exactly one face, that face walkable, directed as
/// that face runs them (floor on the left), sorted for a deterministic output.
/// The (canonical) keys of the walkable boundary edges the wall stage finds no wall on at all:
/// where the floor ends in the open (a doorway, an opening), for the floor-ends stage.
pub(crate) fn open_edge_keys(
    mesh: &NavMesh,
    canonical: &[u32],
    ground: &Ground,
) -> std::collections::HashSet<[u32; 2]> {
    boundary_edges(mesh, canonical)
        .iter()
        .filter(|e| {
            edge_runs(mesh, e, ground)
                .iter()
                .all(|r| r.height.is_none())
        })
        .map(|e| e.key)
        .collect()
}

pub(crate) fn boundary_edges(mesh: &NavMesh, canonical: &[u32]) -> Vec<RimEdge> {
    let at = |i: u32| canonical.get(i as usize).copied().unwrap_or(i);
    let undirected = |key: [u32; 2]| (key[0].min(key[1]), key[0].max(key[1]));
    let mut uses: HashMap<(u32, u32), u32> = HashMap::new();
    let mut walkable = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        let walks = mesh.is_walkable(p);
        for k in 0..corners.len() {
            let (Some(&a), Some(&b)) = (corners.get(k), corners.get((k + 1) % corners.len()))
            else {
                continue;
            };
            let key = [at(a), at(b)];
            if key[0] == key[1] {
                continue;
            }
            *uses.entry(undirected(key)).or_default() += 1;
            if walks {
                walkable.push(RimEdge {
                    face: p,
                    corner: k,
                    a,
                    b,
                    key,
                });
            }
        }
    }
    let mut rim: Vec<RimEdge> = walkable
        .into_iter()
        .filter(|e| uses.get(&undirected(e.key)) == Some(&1))
        .collect();
    rim.sort_unstable_by_key(|e| e.key);
    rim
}

/// The edge's runs of wall and of no wall, from a sample per cell along it: a sample is
/// walled when solid rises more than a climb beyond it (within the room's headroom); runs
/// shorter than [`MIN_RUN`] take their neighbours' side; a walled run is as high as the
/// median of its samples' rises, at most [`MAX_HEIGHT`]. An edge too short for a wall is one
/// run without.
fn edge_runs(mesh: &NavMesh, edge: &RimEdge, ground: &Ground) -> Vec<Run> {
    let (p, q) = (
        mesh.vertex(edge.a).map(f64::from),
        mesh.vertex(edge.b).map(f64::from),
    );
    let length = (q[0] - p[0]).hypot(q[1] - p[1]);
    let no_wall = vec![Run {
        from: 0.0,
        to: 1.0,
        height: None,
    }];
    if length < MIN_EDGE {
        return no_wall;
    }
    let cs = f64::from(ground.field.cell_size);
    // Outwards: to the right of p→q.
    let out = [(q[1] - p[1]) / length, -(q[0] - p[0]) / length];
    let samples = ((length / cs).ceil() as usize).max(1);
    let rises: Vec<Option<f32>> = (0..samples)
        .map(|i| {
            let t = (i as f64 + 0.5) / samples as f64;
            let at = [0, 1, 2].map(|k| p[k] + t * (q[k] - p[k]));
            let rise = match (
                rise_beyond(at, out, ground),
                blocker_beyond(at, out, ground),
            ) {
                (Some(r), Some(b)) => Some(r.max(b)),
                (r, b) => r.or(b),
            };
            rise.map(|rise| rise.min(headroom(at, out, ground)))
                .filter(|&rise| rise > ground.max_climb)
        })
        .collect();
    let min_run = ((MIN_RUN / length * samples as f64).ceil() as usize).max(1);
    let walled = smooth(rises.iter().map(Option::is_some).collect(), min_run);
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=samples {
        if i < samples && walled.get(i) == walled.get(start) {
            continue;
        }
        let height = if walled.get(start).copied().unwrap_or(false) {
            let mut own: Vec<f32> = rises
                .get(start..i)
                .unwrap_or(&[])
                .iter()
                .flatten()
                .copied()
                .collect();
            own.sort_by(f32::total_cmp);
            own.get(own.len() / 2).map(|&h| h.min(MAX_HEIGHT))
        } else {
            None
        };
        runs.push(Run {
            from: start as f64 / samples as f64,
            to: i as f64 / samples as f64,
            height,
        });
        start = i;
    }
    if runs.is_empty() { no_wall } else { runs }
}

/// Flips runs of equal flags shorter than `min_run` samples to their neighbours' side,
/// shortest first, until every run is long enough or one run is left.
fn smooth(mut flags: Vec<bool>, min_run: usize) -> Vec<bool> {
    loop {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut start = 0;
        for i in 1..=flags.len() {
            if i == flags.len() || flags.get(i) != flags.get(start) {
                runs.push((start, i));
                start = i;
            }
        }
        if runs.len() < 2 {
            return flags;
        }
        let Some(&(s, e)) = runs
            .iter()
            .filter(|(s, e)| e - s < min_run)
            .min_by_key(|(s, e)| (e - s, *s))
        else {
            return flags;
        };
        for flag in flags.get_mut(s..e).unwrap_or(&mut []) {
            *flag = !*flag;
        }
    }
}

/// The whole edge as one run: walled when at least half of its length is, to the height of
/// its longest walled run.
fn by_majority(runs: &[Run]) -> Run {
    let walled: f64 = runs
        .iter()
        .filter(|r| r.height.is_some())
        .map(|r| r.to - r.from)
        .sum();
    let height = runs
        .iter()
        .filter(|r| r.height.is_some())
        .max_by(|x, y| (x.to - x.from).total_cmp(&(y.to - y.from)))
        .and_then(|r| r.height);
    Run {
        from: 0.0,
        to: 1.0,
        height: if walled >= 0.5 { height } else { None },
    }
}

/// Which edges may be cut where their walls end: the face is a triangle with no other edge
/// to cut, the mesh carries no per-face columns or edge tags a cut would have to carry, and
/// every piece stays wider than [`MIN_PIECE_ALTITUDE`].
fn cuttable(mesh: &NavMesh, rim: &[RimEdge], runs: &[Vec<Run>]) -> Vec<bool> {
    let plain = mesh.face_attributes.is_empty() && mesh.edge_tags.is_empty();
    let mut wanted: HashMap<usize, usize> = HashMap::new();
    for (edge, runs) in rim.iter().zip(runs) {
        if runs.len() > 1 {
            *wanted.entry(edge.face).or_default() += 1;
        }
    }
    rim.iter()
        .zip(runs)
        .map(|(edge, runs)| {
            let corners = mesh.polygons.get(edge.face);
            let Some(&c) = corners.get((edge.corner + 2) % 3) else {
                return false;
            };
            plain
                && runs.len() > 1
                && corners.len() == 3
                && wanted.get(&edge.face) == Some(&1)
                && pieces_wide_enough(mesh, edge, c, runs)
        })
        .collect()
}

/// Every triangle of the fan from `c` over the edge cut at the runs' ends is wider (plan
/// altitude over its longest side) than [`MIN_PIECE_ALTITUDE`].
fn pieces_wide_enough(mesh: &NavMesh, edge: &RimEdge, c: u32, runs: &[Run]) -> bool {
    let spans: Vec<(f64, f64)> = runs.iter().map(|r| (r.from, r.to)).collect();
    fan_wide_enough(mesh, edge, c, &spans)
}

/// Every triangle of the fan from `c` over the edge's `spans` (pairs of fractions along it)
/// is wider (plan altitude over its longest side) than [`MIN_PIECE_ALTITUDE`].
pub(crate) fn fan_wide_enough(
    mesh: &NavMesh,
    edge: &RimEdge,
    c: u32,
    spans: &[(f64, f64)],
) -> bool {
    let (p, q, c) = (
        mesh.vertex(edge.a).map(f64::from),
        mesh.vertex(edge.b).map(f64::from),
        mesh.vertex(c).map(f64::from),
    );
    let at = |t: f64| [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
    let c = [c[0], c[1]];
    let side = |u: [f64; 2], v: [f64; 2]| (v[0] - u[0]).hypot(v[1] - u[1]);
    spans.iter().all(|&(from, to)| {
        let (x, y) = (at(from), at(to));
        let area2 = ((y[0] - x[0]) * (c[1] - x[1]) - (y[1] - x[1]) * (c[0] - x[0])).abs();
        let longest = side(x, y).max(side(y, c)).max(side(c, x));
        longest > 0.0 && area2 / longest >= MIN_PIECE_ALTITUDE
    })
}

/// A new vertex at fraction `t` along the edge (on the face's plane).
pub(crate) fn point_on(mesh: &mut NavMesh, edge: &RimEdge, t: f64) -> u32 {
    let (p, q) = (mesh.vertex(edge.a), mesh.vertex(edge.b));
    let point = [0, 1, 2].map(|k| (f64::from(p[k]) + t * f64::from(q[k] - p[k])) as f32);
    mesh.vertices.push(point);
    (mesh.vertices.len() - 1) as u32
}

/// Cuts each triangle in `splits` (face → (corner of the cut edge, new vertices along it)) into
/// a fan from the corner opposite the edge: the pieces take the face's place in the face
/// order and its surface; the floor's plane, area and outline are unchanged.
pub(crate) fn split_faces(mesh: &mut NavMesh, splits: &HashMap<usize, (usize, Vec<u32>)>) {
    if splits.is_empty() {
        return;
    }
    let extra: usize = splits.values().map(|(_, inner)| inner.len()).sum();
    let mut polygons = walkmesh_core::ir::Polygons::with_capacity(
        mesh.polygons.len() + extra,
        mesh.polygons.indices().len() + 3 * extra,
    );
    let mut surfaces = Vec::with_capacity(mesh.surfaces.len() + extra);
    for (p, corners) in mesh.polygons.iter().enumerate() {
        let Some(surface) = mesh.surfaces.get(p).copied() else {
            continue;
        };
        let fan = splits.get(&p).and_then(|(k, inner)| {
            let a = *corners.get(*k)?;
            let b = *corners.get((k + 1) % 3)?;
            let c = *corners.get((k + 2) % 3)?;
            let chain: Vec<u32> = std::iter::once(a)
                .chain(inner.iter().copied())
                .chain(std::iter::once(b))
                .collect();
            Some((chain, c))
        });
        match fan {
            Some((chain, c)) => {
                for w in chain.windows(2) {
                    if let [x, y] = w {
                        polygons.push(&[*x, *y, c]);
                        surfaces.push(surface);
                    }
                }
            }
            None => {
                polygons.push(corners);
                surfaces.push(surface);
            }
        }
    }
    mesh.polygons = polygons;
    mesh.surfaces = surfaces;
}

/// How far the surface beyond the floor point `at` (direction `out`) rises above it: the
/// voxel spans are followed column by column outwards from the edge, each joining the last
/// (its bottom within a climb above the height reached, its top no more than a climb below
/// it), for [`REACH`] m, one column without a joining span forgiven; the highest top reached.
/// A wall is one tall span in the first column or two; a sloped skirt (BioWare's wall feet of
/// about 43°) is a thin span per column, each a little higher. None when nothing beyond the
/// edge joins the floor's level (a doorway, a drop, the room's end).
fn rise_beyond(at: [f64; 3], out: [f64; 2], ground: &Ground) -> Option<f32> {
    let field = ground.field;
    let cs = f64::from(field.cell_size);
    let (floor, climb) = (at[2] as f32, ground.max_climb);
    let mut reach: Option<f32> = None;
    let mut misses = 0;
    let columns = (REACH / cs).ceil() as usize;
    for i in 0..columns {
        let cells = i as f64 + 0.5;
        let spans = column_at(
            field,
            at[0] + out[0] * cells * cs,
            at[1] + out[1] * cells * cs,
        )
        .unwrap_or(&[]);
        let level = reach.map_or(floor, |r| r.max(floor));
        let joined = spans
            .iter()
            .map(|s| (field.z(s.bottom), field.z(s.top)))
            .filter(|&(bottom, top)| bottom <= level + climb && top >= level - climb)
            .map(|(_, top)| top)
            .fold(None, |best: Option<f32>, top| {
                Some(best.map_or(top, |b| b.max(top)))
            });
        match joined {
            Some(top) => {
                misses = 0;
                reach = Some(reach.map_or(top, |r| r.max(top)));
                if top - floor >= MAX_HEIGHT {
                    break;
                }
            }
            None if reach.is_some() && misses == 0 => misses += 1,
            None if i == 0 => misses += 1,
            None => break,
        }
    }
    reach.map(|r| r - floor)
}

/// The top (above the floor point `at`) of solid standing in a character's way just beyond
/// the edge: a span within [`BLOCK_REACH`] whose bottom is lower than the agent's height and
/// whose top is more than a climb above the floor (a railing over a drop, the underside of a
/// leaning wall); a lintel above the agent's head is none.
fn blocker_beyond(at: [f64; 3], out: [f64; 2], ground: &Ground) -> Option<f32> {
    let field = ground.field;
    let cs = f64::from(field.cell_size);
    let floor = at[2] as f32;
    let columns = (BLOCK_REACH / cs).round().max(1.0) as usize;
    (0..columns)
        .filter_map(|i| {
            let cells = i as f64 + 0.5;
            column_at(
                field,
                at[0] + out[0] * cells * cs,
                at[1] + out[1] * cells * cs,
            )
        })
        .flatten()
        .map(|s| (field.z(s.bottom) - floor, field.z(s.top) - floor))
        .filter(|&(bottom, top)| bottom < ground.agent_height && top > ground.max_climb)
        .map(|(_, top)| top)
        .fold(None, |best: Option<f32>, top| {
            Some(best.map_or(top, |b| b.max(top)))
        })
}

/// Room above the floor point `at`, in the column just inside the edge: up to the lowest
/// solid starting more than a climb above the floor (a ceiling, a balcony), else unlimited.
fn headroom(at: [f64; 3], out: [f64; 2], ground: &Ground) -> f32 {
    let field = ground.field;
    let cs = f64::from(field.cell_size);
    let floor = at[2] as f32;
    let Some(spans) = column_at(field, at[0] - out[0] * 0.5 * cs, at[1] - out[1] * 0.5 * cs) else {
        return f32::INFINITY;
    };
    spans
        .iter()
        .map(|s| field.z(s.bottom) - floor)
        .filter(|&gap| gap > ground.max_climb)
        .fold(f32::INFINITY, f32::min)
}

/// The spans of the column holding plan point (x, y).
fn column_at(field: &Heightfield, x: f64, y: f64) -> Option<&[crate::voxel::Span]> {
    let cs = f64::from(field.cell_size);
    let cx = ((x - f64::from(field.origin[0])) / cs).floor() as i64;
    let cy = ((y - f64::from(field.origin[1])) / cs).floor() as i64;
    let column = field.column(cx, cy)?;
    field.spans(column)
}

/// True area of a triangle.
fn area(mesh: &NavMesh, t: &[u32; 3]) -> f64 {
    let [a, b, c] = t.map(|i| mesh.vertex(i));
    walkmesh_core::passes::triangle_area(a, b, c)
}
