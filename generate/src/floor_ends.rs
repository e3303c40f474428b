//! Where a floor ends with nothing rising beyond it, the walkmesh ends on the modeller's line.
//!
//! The generated outline is a voxel contour, simplified: where the render floor ends in the
//! open (a doorway, an opening onto the next room: the wall stage wrote no wall on the edge),
//! the walkmesh edge lies up to a cell short of or past the floor's own boundary edge and a
//! little slanted (measured at the sithbase kit's doorways: 0.03–0.04 m off BioWare's door edge,
//! which is the render floor's edge). Rooms modelled to meet on one line then fail to meet
//! within the transition solver's 0.05 m. So, before the walls are raised, every walkable
//! boundary edge the wall stage finds no wall on (`walls::open_edge_keys`) looks for the
//! render floor's own end along it:
//!
//! - an edge of a walkable render triangle lying on the edge's inner side,
//! - parallel in plan within 10°, within 1.5 cells across and two cell heights in height
//!   (our vertices lie on the render floor; a step's edge a climb lower is another floor),
//! - overlapping at least half the walkmesh edge, and
//! - with no walkable render floor just beyond it (2 cm outward, within the climb): the render
//!   floor really ends there (render floors are made of pieces whose inner seams are edges of
//!   one triangle too).
//!
//! The nearest such line (render edges in a row on one line add up) is the target; each end
//! of the walkmesh edge moves onto it, its height the render floor's there, as every generated
//! vertex's. A vertex between two open edges with different lines goes where they cross if
//! that is within 1.5 cells, else onto the nearer; an open edge that found no line of its own
//! (the last step of a voxel staircase) passes its neighbours' lines to its ends. An edge with
//! more of our own floor just beyond it (another layer meeting it at a step) is left alone.
//! Moves that would fold a walkable triangle, leave it a tenth of its plan area, or add a lint
//! finding (overlap, T-junction, degenerate, downward) are not made. Only with an agent radius
//! of 0 (a radius keeps the floor back from every edge on purpose).

use std::collections::HashMap;

use walkmesh_core::NavMesh;

use crate::doorways::{Moves, keeps_faces, move_welded};
use crate::floor::FloorIndex;
use crate::holes;
use crate::params::Params;
pub use crate::report::FloorEnds;
use crate::walls::{self, RimEdge};

/// Plan directions closer than this (cosine of 10°) count as parallel.
const PARALLEL: f64 = 0.984_807_753;

/// How far beyond a render edge to look for more floor (m).
const BEYOND: f32 = 0.02;

/// A line in plan with heights: through `at` along unit `along`, height `z0` at `at` rising
/// `slope` per metre along.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Line {
    at: [f64; 2],
    along: [f64; 2],
    z0: f64,
    slope: f64,
}

impl Line {
    fn through(p: [f32; 3], q: [f32; 3]) -> Option<Line> {
        let (p, q) = (p.map(f64::from), q.map(f64::from));
        let length = (q[0] - p[0]).hypot(q[1] - p[1]);
        (length > 1e-6).then(|| Line {
            at: [p[0], p[1]],
            along: [(q[0] - p[0]) / length, (q[1] - p[1]) / length],
            z0: p[2],
            slope: (q[2] - p[2]) / length,
        })
    }

    /// Position along the line of plan point `p`.
    fn s(&self, p: [f64; 2]) -> f64 {
        (p[0] - self.at[0]) * self.along[0] + (p[1] - self.at[1]) * self.along[1]
    }

    /// Signed distance across (left of the direction is positive).
    fn off(&self, p: [f64; 2]) -> f64 {
        (p[1] - self.at[1]) * self.along[0] - (p[0] - self.at[0]) * self.along[1]
    }

    fn point(&self, s: f64) -> [f64; 3] {
        [
            self.at[0] + s * self.along[0],
            self.at[1] + s * self.along[1],
            self.z0 + s * self.slope,
        ]
    }

    /// Whether `other` is the same line in plan (either direction; within 0.1 mm).
    fn same_as(&self, other: &Line) -> bool {
        let cross = self.along[0] * other.along[1] - self.along[1] * other.along[0];
        cross.abs() < 1e-6 && self.off(other.at).abs() < 1e-4
    }

    /// Where two lines cross (with this line's height there); None when parallel.
    fn crossing(&self, other: &Line) -> Option<[f64; 3]> {
        let cross = self.along[0] * other.along[1] - self.along[1] * other.along[0];
        if cross.abs() < 1e-6 {
            return None;
        }
        let d = [other.at[0] - self.at[0], other.at[1] - self.at[1]];
        let s = (d[0] * other.along[1] - d[1] * other.along[0]) / cross;
        Some(self.point(s))
    }
}

/// Moves the ends of the open walkable edges of `mesh` onto the render floor's own end lines
/// (module documentation); cells, climb as `params`.
pub fn follow_render_ends(
    mesh: &mut NavMesh,
    index: &FloorIndex,
    ground: &walls::Ground,
    params: &Params,
) -> FloorEnds {
    let (cell, climb) = (params.cell_size, params.max_climb);
    let level = 2.0 * params.cell_height;
    let canonical = holes::weld(mesh);
    let open = walls::open_edge_keys(mesh, &canonical, ground);
    let reach = 1.5 * f64::from(cell);
    let mut targets: HashMap<u32, Vec<Line>> = HashMap::new();
    let mut ends = FloorEnds::default();
    let own = OwnFloor::new(mesh);
    let mut unmatched: Vec<[u32; 2]> = Vec::new();
    for edge in walls::boundary_edges(mesh, &canonical) {
        if !open.contains(&edge.key) || own.beyond(mesh, &edge, reach, climb) {
            continue;
        }
        let Some(line) = render_end(mesh, &edge, index, reach, [level, climb]) else {
            unmatched.push(edge.key);
            continue;
        };
        ends.edges += 1;
        for end in edge.key {
            let lines = targets.entry(end).or_default();
            if !lines.iter().any(|l| l.same_as(&line)) {
                lines.push(line);
            }
        }
    }
    // An open edge with no end of its own (the last step of a voxel staircase, turned more
    // than 10° from the floor's end) takes its neighbours' lines at both its ends: its corner
    // then goes where the lines cross if that is within reach, else onto the nearer line.
    for [a, b] in unmatched {
        let (from_a, from_b) = (
            targets.get(&a).cloned().unwrap_or_default(),
            targets.get(&b).cloned().unwrap_or_default(),
        );
        for (end, lines) in [(a, from_b), (b, from_a)] {
            let own = targets.entry(end).or_default();
            for line in lines {
                if !own.iter().any(|l| l.same_as(&line)) {
                    own.push(line);
                }
            }
        }
    }
    targets.retain(|_, lines| !lines.is_empty());
    let mut moves: Moves = targets
        .iter()
        .filter_map(|(&v, lines)| {
            let from = mesh.vertex(v).map(f64::from);
            let to = target(from, lines, reach)?;
            let plan = [to[0] as f32, to[1] as f32];
            let z = index
                .floor_at(plan, from[2] as f32, level, level)
                .map_or(from[2], |hit| f64::from(hit.z));
            Some((v, [to[0], to[1], z]))
        })
        .collect();
    // Drop the moves of vertices whose triangles would fold, until what is left keeps them.
    for _ in 0..4 {
        let folding = folding_vertices(mesh, &canonical, &moves);
        if folding.is_empty() {
            break;
        }
        moves.retain(|v, _| !folding.contains(v));
    }
    // Nothing to move: no lint pass over the whole mesh (it runs on every KotOR room).
    if moves.is_empty() {
        return ends;
    }
    if !keeps_faces(mesh, &canonical, &moves) {
        return FloorEnds::default();
    }
    let (moved, vertices, max_move) = without_new_findings(mesh, &canonical, moves);
    *mesh = moved;
    ends.vertices = vertices;
    ends.max_move = max_move;
    ends
}

/// The generated floor's walkable triangles filed by plan bucket (1 m), to ask whether an open
/// edge has more of the floor just beyond it (another layer meeting it at a step, which the
/// edge must keep meeting).
struct OwnFloor {
    origin: [f32; 2],
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl OwnFloor {
    const BUCKET: f32 = 1.0;

    fn new(mesh: &NavMesh) -> OwnFloor {
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for v in &mesh.vertices {
            lo = [lo[0].min(v[0]), lo[1].min(v[1])];
            hi = [hi[0].max(v[0]), hi[1].max(v[1])];
        }
        if mesh.vertices.is_empty() {
            (lo, hi) = ([0.0; 2], [0.0; 2]);
        }
        let columns = ((hi[0] - lo[0]) / Self::BUCKET) as usize + 1;
        let rows = ((hi[1] - lo[1]) / Self::BUCKET) as usize + 1;
        let mut own = OwnFloor {
            origin: lo,
            columns,
            rows,
            buckets: vec![Vec::new(); columns.saturating_mul(rows)],
        };
        for (p, corners) in mesh.polygons.iter().enumerate() {
            if !mesh.is_walkable(p) {
                continue;
            }
            let (mut a, mut b) = ([f32::MAX; 2], [f32::MIN; 2]);
            for &i in corners {
                let v = mesh.vertex(i);
                a = [a[0].min(v[0]), a[1].min(v[1])];
                b = [b[0].max(v[0]), b[1].max(v[1])];
            }
            let ([x0, y0], [x1, y1]) = (own.bucket(a), own.bucket(b));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(list) = own.buckets.get_mut(y * columns + x) {
                        list.push(p);
                    }
                }
            }
        }
        own
    }

    fn bucket(&self, p: [f32; 2]) -> [usize; 2] {
        let at = |v: f32, o: f32, n: usize| {
            (((v - o) / Self::BUCKET).floor().max(0.0) as usize).min(n.saturating_sub(1))
        };
        [
            at(p[0], self.origin[0], self.columns),
            at(p[1], self.origin[1], self.rows),
        ]
    }

    /// Whether a walkable face other than the edge's own holds a point just beyond the edge
    /// or `reach` beyond it (at a quarter, half and three quarters along), within the climb of
    /// the edge's height.
    fn beyond(&self, mesh: &NavMesh, edge: &RimEdge, reach: f64, climb: f32) -> bool {
        let corners = mesh.polygons.get(edge.face);
        let Some(&c) = corners.get((edge.corner + 2) % 3) else {
            return false;
        };
        let (a, b, third) = (mesh.vertex(edge.a), mesh.vertex(edge.b), mesh.vertex(c));
        let Some(line) = Line::through(a, b) else {
            return false;
        };
        let inner = line
            .off([f64::from(third[0]), f64::from(third[1])])
            .signum();
        let out = [line.along[1] * inner, -line.along[0] * inner];
        let length = line.s([f64::from(b[0]), f64::from(b[1])]);
        [0.25, 0.5, 0.75].iter().any(|&f| {
            let on = line.point(f * length);
            [f64::from(BEYOND), reach].iter().any(|&d| {
                let p = [(on[0] + out[0] * d) as f32, (on[1] + out[1] * d) as f32];
                self.holds(mesh, p, on[2] as f32, climb, edge.face)
            })
        })
    }

    /// Whether a walkable face other than `except` holds plan point `p` within `climb` of `z`.
    fn holds(&self, mesh: &NavMesh, p: [f32; 2], z: f32, climb: f32, except: usize) -> bool {
        let [x, y] = self.bucket(p);
        let Some(list) = self.buckets.get(y * self.columns + x) else {
            return false;
        };
        list.iter().filter(|&&f| f != except).any(|&f| {
            let corners = mesh.polygons.get(f);
            let t: Vec<[f32; 3]> = corners.iter().map(|&i| mesh.vertex(i)).collect();
            let (Some(&t0), Some(&t1), Some(&t2)) = (t.first(), t.get(1), t.get(2)) else {
                return false;
            };
            height_in_plan([t0, t1, t2], p).is_some_and(|h| (h - z).abs() <= climb)
        })
    }
}

/// The height of triangle `t` at plan point `p` when `p` lies inside it in plan (edges
/// included).
fn height_in_plan(t: [[f32; 3]; 3], p: [f32; 2]) -> Option<f32> {
    let [a, b, c] = t.map(|v| v.map(f64::from));
    let p = p.map(f64::from);
    let det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if det.abs() < 1e-12 {
        return None;
    }
    let u = ((p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])) / det;
    let v = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / det;
    let inside = u >= -1e-9 && v >= -1e-9 && u + v <= 1.0 + 1e-9;
    inside.then(|| (a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2])) as f32)
}

/// The mesh with `moves` made, but those of the vertices of faces in a lint finding
/// (overlap, T-junction, degenerate, downward) the mesh did not have before: a moved edge can
/// cross a piece of floor beside it that the samples beyond the edge missed. At most three
/// rounds; what still finds something new is not moved at all.
fn without_new_findings(
    mesh: &NavMesh,
    canonical: &[u32],
    mut moves: Moves,
) -> (NavMesh, usize, f64) {
    let before = geometry_findings(mesh);
    for _ in 0..3 {
        let mut moved = mesh.clone();
        let (count, most) = move_welded(&mut moved, canonical, &moves);
        let new: Vec<(String, Vec<u32>)> = geometry_findings(&moved)
            .into_iter()
            .filter(|f| !before.contains(f))
            .collect();
        if new.is_empty() {
            return (moved, count, most);
        }
        let at = |i: u32| canonical.get(i as usize).copied().unwrap_or(i);
        for face in new.iter().flat_map(|(_, faces)| faces) {
            for &i in mesh.polygons.get(*face as usize) {
                moves.remove(&at(i));
            }
        }
    }
    (mesh.clone(), 0, 0.0)
}

/// The lint findings a move can cause, as (code, faces).
fn geometry_findings(mesh: &NavMesh) -> Vec<(String, Vec<u32>)> {
    let codes = [
        walkmesh_lint::DOWNWARD_WALKABLE,
        walkmesh_lint::DEGENERATE,
        walkmesh_lint::T_JUNCTION,
        walkmesh_lint::OVERLAP,
    ];
    walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None)
        .into_iter()
        .filter(|f| codes.contains(&f.code.as_str()))
        .map(|f| (f.code, f.faces))
        .collect()
}

/// Where a vertex goes: onto its one target line, or where its two lines cross if that is
/// within `reach`, else onto the nearer of the two; None when that is farther than `reach`.
fn target(from: [f64; 3], lines: &[Line], reach: f64) -> Option<[f64; 3]> {
    let plan = [from[0], from[1]];
    let project = |line: &Line| line.point(line.s(plan));
    let near = |to: &[f64; 3]| (to[0] - from[0]).hypot(to[1] - from[1]) <= reach;
    let to = match lines {
        [line] => project(line),
        [a, b] => match a.crossing(b).filter(near) {
            Some(crossing) => crossing,
            None if a.off(plan).abs() <= b.off(plan).abs() => project(a),
            None => project(b),
        },
        _ => return None,
    };
    near(&to).then_some(to)
}

/// The render floor's end line along the open edge, if there is one (module documentation).
/// A floor's end is often several render edges in a row (a threshold strip and the floor
/// beside it): candidates on one line add their overlaps.
fn render_end(
    mesh: &NavMesh,
    edge: &RimEdge,
    index: &FloorIndex,
    reach: f64,
    [level, climb]: [f32; 2],
) -> Option<Line> {
    let corners = mesh.polygons.get(edge.face);
    let third = mesh.vertex(*corners.get((edge.corner + 2) % 3)?);
    let (a, b) = (mesh.vertex(edge.a), mesh.vertex(edge.b));
    let ours = Line::through(a, b)?;
    let length = ours.s([f64::from(b[0]), f64::from(b[1])]);
    // Inner side: where the edge's own face lies.
    let inner = ours
        .off([f64::from(third[0]), f64::from(third[1])])
        .signum();
    let centre = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let radius = (length / 2.0 + reach) as f32;
    let mut candidates: Vec<Candidate> = Vec::new();
    for t in index.triangles_near(centre, radius) {
        for k in 0..3 {
            let (p, q, r) = (t.corners[k], t.corners[(k + 1) % 3], t.corners[(k + 2) % 3]);
            let Some(line) = Line::through(p, q) else {
                continue;
            };
            let Some(fit) = fits(&ours, length, inner, &line, [p, q, r], reach, level) else {
                continue;
            };

            if ends_there(index, [p, q], inner, &ours, climb) {
                candidates.push(fit);
            }
        }
    }
    best_line(&candidates, length)
}

/// A render edge that can be part of our edge's end line: its line, its span along our edge
/// and its largest distance across.
struct Candidate {
    line: Line,
    from: f64,
    to: f64,
    across: f64,
}

/// The candidates' line covering at least half of our edge (`length`) with the spans of the
/// candidates on it (within 1 cm), the nearest of those.
fn best_line(candidates: &[Candidate], length: f64) -> Option<Line> {
    let mut best: Option<(f64, Line)> = None;
    for c in candidates {
        let mut spans: Vec<(f64, f64)> = candidates
            .iter()
            .filter(|o| {
                let ends = [
                    o.line.at,
                    [
                        o.line.at[0] + o.line.along[0],
                        o.line.at[1] + o.line.along[1],
                    ],
                ];
                ends.iter().all(|&e| c.line.off(e).abs() <= 0.01)
            })
            .map(|o| (o.from, o.to))
            .collect();
        spans.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut covered = 0.0;
        let mut reached = f64::NEG_INFINITY;
        for (from, to) in spans {
            let from = from.max(reached);
            if to > from {
                covered += to - from;
            }
            reached = reached.max(to);
        }
        if covered >= length / 2.0 && best.is_none_or(|(d, _)| c.across < d) {
            best = Some((c.across, c.line));
        }
    }
    best.map(|(_, line)| line)
}

/// The render edge `p`–`q` (of a triangle whose third corner is `r`) as a candidate for our
/// edge's end line: parallel, its triangle on our inner side, within `reach` across and
/// `level` up, overlapping our edge.
fn fits(
    ours: &Line,
    length: f64,
    inner: f64,
    line: &Line,
    [p, q, r]: [[f32; 3]; 3],
    reach: f64,
    level: f32,
) -> Option<Candidate> {
    let dot = ours.along[0] * line.along[0] + ours.along[1] * line.along[1];
    let plan = |v: [f32; 3]| [f64::from(v[0]), f64::from(v[1])];
    if dot.abs() < PARALLEL || ours.off(plan(r)) * inner <= 0.0 {
        return None;
    }
    // Across: our edge's ends from their line (a long render edge a few degrees off ours is
    // still the end where our short edge lies).
    let across = [0.0, length].map(|s| line.off(plan_of(&ours.point(s))));
    if across.iter().any(|d| d.abs() > reach) {
        return None;
    }
    let (sp, sq) = (ours.s(plan(p)), ours.s(plan(q)));
    let (from, to) = (sp.min(sq).max(0.0), sp.max(sq).min(length));
    if to - from <= 0.0 {
        return None;
    }
    let middle = (from + to) / 2.0;
    let ours_z = ours.point(middle)[2];
    let theirs_z = line.point(line.s(plan_of(&ours.point(middle))))[2];
    ((ours_z - theirs_z).abs() <= f64::from(level)).then(|| Candidate {
        line: *line,
        from,
        to,
        across: across[0].abs().max(across[1].abs()),
    })
}

fn plan_of(p: &[f64; 3]) -> [f64; 2] {
    [p[0], p[1]]
}

/// Whether the render floor ends at the edge `p`–`q`: no walkable render triangle holds the
/// point just beyond its middle (outward of our edge), within the climb of its height.
fn ends_there(
    index: &FloorIndex,
    [p, q]: [[f32; 3]; 2],
    inner: f64,
    ours: &Line,
    climb: f32,
) -> bool {
    let middle = [
        (p[0] + q[0]) / 2.0,
        (p[1] + q[1]) / 2.0,
        (p[2] + q[2]) / 2.0,
    ];
    // Our outward normal: away from the inner side.
    let out = [ours.along[1] * inner, -ours.along[0] * inner];
    let beyond = [
        middle[0] + out[0] as f32 * BEYOND,
        middle[1] + out[1] as f32 * BEYOND,
    ];
    index.floor_holding(beyond, middle[2], climb).is_none()
}

/// Vertices with a move whose walkable triangles would fold or thin out.
fn folding_vertices(mesh: &NavMesh, canonical: &[u32], moves: &Moves) -> Vec<u32> {
    let at = |i: u32| canonical.get(i as usize).copied().unwrap_or(i);
    let mut folding = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) || corners.len() != 3 {
            continue;
        }
        let keys: Vec<u32> = corners.iter().map(|&i| at(i)).collect();
        let one: Moves = keys
            .iter()
            .filter_map(|k| moves.get(k).map(|to| (*k, *to)))
            .collect();
        if one.is_empty() {
            continue;
        }
        if !keeps_faces_of(mesh, p, &keys, &one) {
            folding.extend(one.keys().copied());
        }
    }
    folding.sort_unstable();
    folding.dedup();
    folding
}

/// Whether triangle `p` (canonical corners `keys`) keeps its orientation and a tenth of its
/// plan area under `moves`.
fn keeps_faces_of(mesh: &NavMesh, p: usize, keys: &[u32], moves: &Moves) -> bool {
    let corners = mesh.polygons.get(p);
    let position = |k: usize| {
        keys.get(k)
            .and_then(|key| moves.get(key))
            .copied()
            .or_else(|| corners.get(k).map(|&i| mesh.vertex(i).map(f64::from)))
    };
    let (Some(a), Some(b), Some(c)) = (position(0), position(1), position(2)) else {
        return true;
    };
    let before: Vec<[f64; 3]> = corners
        .iter()
        .map(|&i| mesh.vertex(i).map(f64::from))
        .collect();
    let area = |x: [f64; 3], y: [f64; 3], z: [f64; 3]| {
        ((y[0] - x[0]) * (z[1] - x[1]) - (z[0] - x[0]) * (y[1] - x[1])) / 2.0
    };
    let (Some(&x), Some(&y), Some(&z)) = (before.first(), before.get(1), before.get(2)) else {
        return true;
    };
    let (was, now) = (area(x, y, z), area(a, b, c));
    was.abs() < 1e-9 || (now * was > 0.0 && now.abs() >= was.abs() / 10.0)
}
