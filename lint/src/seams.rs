//! Where walkable boundary edges meet other walkable boundary edges: open seams (not joined),
//! height seams (joined in plan, not in height), T-junctions, and, in an area, room seams and
//! the transitions that should cross them.
//!
//! A "boundary edge" is an edge of a walkable face with no walkable face across it by vertex
//! index. Two boundary edges *meet* when each end of one lies within the gap (in plan) of an
//! end of the other. The start points of all boundary edges go into a plan grid of cells
//! twice the gap wide, so each edge looks at the few cells around its own two ends.

use rustc_hash::FxHashSet;
use walkmesh_core::EdgeRef;
use walkmesh_core::passes::adjacency::NO_NEIGHBOUR;

use crate::geometry::{P3, midpoint, plan_distance, project_on_segment};
use crate::grid::Grid;
use crate::{
    Context, Finding, HEIGHT_SEAM, OPEN_SEAM, T_JUNCTION, TRANSITION_MISSING, TRANSITION_TARGET,
};

/// One walkable boundary edge.
#[derive(Clone, Copy, Debug)]
pub struct BoundaryEdge {
    pub face: u32,
    pub edge: u32,
    pub a: u32,
    pub b: u32,
    pub pa: P3,
    pub pb: P3,
}

/// Two boundary edges that meet in plan.
#[derive(Clone, Copy, Debug)]
pub struct Meeting {
    /// Indices into [`Meetings::edges`], `first < second`.
    pub first: usize,
    pub second: usize,
    /// Whether `second` runs the same way as `first` (boundaries of neighbours run opposite).
    pub same_direction: bool,
    /// Largest height difference between matched ends.
    pub dz: f32,
    /// Largest plan distance between matched ends.
    pub dxy: f32,
    /// The edges belong to different rooms of an area.
    pub cross_room: bool,
    /// The edges belong to different NWN2 tiles.
    pub cross_tile: bool,
}

/// Every walkable boundary edge and every meeting pair.
#[derive(Debug, Default)]
pub struct Meetings {
    pub edges: Vec<BoundaryEdge>,
    pub pairs: Vec<Meeting>,
}

impl Meetings {
    /// The matched end pairs (vertex of `first`, vertex of `second`) of a meeting.
    pub fn matched_ends(&self, meeting: &Meeting) -> Option<[(u32, u32); 2]> {
        let (x, y) = (
            self.edges.get(meeting.first)?,
            self.edges.get(meeting.second)?,
        );
        Some(if meeting.same_direction {
            [(x.a, y.a), (x.b, y.b)]
        } else {
            [(x.a, y.b), (x.b, y.a)]
        })
    }
}

/// The walkable boundary edges of the mesh.
pub fn boundary_edges(context: &Context<'_>) -> Vec<BoundaryEdge> {
    let mesh = context.mesh;
    let mut edges = Vec::new();
    for (face, corners) in mesh.polygons.iter().enumerate() {
        // A later copy's edges lie on its first copy's: looked at once (the copy is a
        // `lint.overlap` finding).
        if !mesh.is_walkable(face) || context.is_copy(face) {
            continue;
        }
        let first = mesh.polygons.first_index(face);
        for (e, &a) in corners.iter().enumerate() {
            let b = corners.get((e + 1) % corners.len()).copied().unwrap_or(a);
            if a != b && context.adjacency.neighbour.get(first + e) == Some(&NO_NEIGHBOUR) {
                edges.push(BoundaryEdge {
                    face: face as u32,
                    edge: e as u32,
                    a,
                    b,
                    pa: mesh.vertex(a),
                    pb: mesh.vertex(b),
                });
            }
        }
    }
    edges
}

/// The NWN2 tile holding a face's centroid, when the mesh has a tile grid.
fn tile_of(context: &Context<'_>, face: u32) -> Option<(i64, i64)> {
    let grid = context.mesh.tile_grid?;
    if grid.tile_width <= 0.0 || grid.tile_height <= 0.0 {
        return None;
    }
    let c = crate::geometry::centroid(context.mesh, face as usize);
    Some((
        ((c[0] - grid.origin[0]) / grid.tile_width).floor() as i64,
        ((c[1] - grid.origin[1]) / grid.tile_height).floor() as i64,
    ))
}

/// Finds every pair of meeting boundary edges. Edges not longer than the gap are left out:
/// their ends would "meet" anything around them.
pub fn meeting_edges(context: &Context<'_>) -> Meetings {
    let gap = context.options.gap;
    let edges = boundary_edges(context);
    let mut grid = Grid::new(f64::from(gap) * 2.0);
    for (i, edge) in edges.iter().enumerate() {
        grid.insert_point(i as u32, edge.pa[0], edge.pa[1]);
    }
    let long_enough = |e: &BoundaryEdge| plan_distance(e.pa, e.pb) > gap;
    let mut pairs = Vec::new();
    for (i, x) in edges.iter().enumerate() {
        if !long_enough(x) {
            continue;
        }
        let mut candidates: Vec<u32> = Vec::new();
        for end in [x.pa, x.pb] {
            grid.visit_near(end[0], end[1], gap, |j| {
                if j as usize > i {
                    candidates.push(j);
                }
            });
        }
        candidates.sort_unstable();
        candidates.dedup();
        for j in candidates {
            let Some(y) = edges.get(j as usize) else {
                continue;
            };
            if y.face == x.face || !long_enough(y) {
                continue;
            }
            if let Some(meeting) = meet(context, i, x, j as usize, y) {
                pairs.push(meeting);
            }
        }
    }
    Meetings { edges, pairs }
}

/// Whether edges `x` and `y` meet, and how.
fn meet(
    context: &Context<'_>,
    i: usize,
    x: &BoundaryEdge,
    j: usize,
    y: &BoundaryEdge,
) -> Option<Meeting> {
    let gap = context.options.gap;
    let ends = |p: P3, q: P3, r: P3, s: P3| {
        let (d1, d2) = (plan_distance(p, r), plan_distance(q, s));
        (d1 <= gap && d2 <= gap).then(|| (d1.max(d2), (p[2] - r[2]).abs().max((q[2] - s[2]).abs())))
    };
    let (same_direction, (dxy, dz)) = match ends(x.pa, x.pb, y.pb, y.pa) {
        Some(found) => (false, found),
        None => (true, ends(x.pa, x.pb, y.pa, y.pb)?),
    };
    Some(Meeting {
        first: i,
        second: j,
        same_direction,
        dz,
        dxy,
        cross_room: context.room(x.face) != context.room(y.face),
        cross_tile: tile_of(context, x.face) != tile_of(context, y.face),
    })
}

/// What a meeting is, for a single mesh's own seams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeamKind {
    /// Same height, not joined.
    Open,
    /// Apart in height by more than the tolerance, less than a step.
    Height,
    /// Different rooms of an area within the room tolerance: joined by transitions.
    RoomLink,
    /// Different floors (or rooms too far apart in height): nothing to report.
    Unrelated,
}

/// Classifies a meeting with the options' tolerances.
pub fn kind(context: &Context<'_>, meeting: &Meeting) -> SeamKind {
    let options = context.options;
    if meeting.cross_room {
        if meeting.dz <= options.room_height_tolerance {
            SeamKind::RoomLink
        } else if meeting.dz <= options.max_step {
            SeamKind::Height
        } else {
            SeamKind::Unrelated
        }
    } else if meeting.dz <= options.height_tolerance {
        SeamKind::Open
    } else if meeting.dz <= options.max_step {
        SeamKind::Height
    } else {
        SeamKind::Unrelated
    }
}

/// `lint.open_seam` and `lint.height_seam`, one finding per meeting pair.
pub fn report_seams(context: &Context<'_>, meetings: &Meetings, findings: &mut Vec<Finding>) {
    for meeting in &meetings.pairs {
        let (Some(x), Some(y)) = (
            meetings.edges.get(meeting.first),
            meetings.edges.get(meeting.second),
        ) else {
            continue;
        };
        let at = midpoint(x.pa, x.pb);
        let faces = vec![x.face, y.face];
        let place = if meeting.cross_room {
            format!(
                " on the seam between rooms {} and {}",
                context.room(x.face),
                context.room(y.face)
            )
        } else if meeting.cross_tile {
            " on a tile edge".to_string()
        } else {
            String::new()
        };
        match kind(context, meeting) {
            SeamKind::Open => findings.push(Finding::warning(
                OPEN_SEAM,
                faces,
                at,
                format!(
                    "edge {} of face {} and edge {} of face {} meet{place} ({:.4} apart) but share no vertices, so walking cannot cross",
                    x.edge, x.face, y.edge, y.face, meeting.dxy
                ),
                true,
            )),
            SeamKind::Height => findings.push(Finding::warning(
                HEIGHT_SEAM,
                faces,
                at,
                format!(
                    "edge {} of face {} and edge {} of face {} meet in plan{place} but differ by {:.3} in height",
                    x.edge, x.face, y.edge, y.face, meeting.dz
                ),
                !meeting.cross_room,
            )),
            SeamKind::RoomLink | SeamKind::Unrelated => {}
        }
    }
}

/// A vertex lying inside a boundary edge of another face.
#[derive(Clone, Copy, Debug)]
pub struct TJunction {
    /// The face whose edge is split by the vertex.
    pub face: u32,
    pub edge: u32,
    /// The vertex, and the face it came from.
    pub vertex: u32,
    pub other_face: u32,
    /// Where along the edge (0 at its start, 1 at its end).
    pub along: f32,
}

/// Every T-junction on walkable boundary edges (rooms of an area are not compared: they are
/// joined by transitions, not by vertices).
pub fn find_t_junctions(context: &Context<'_>, edges: &[BoundaryEdge]) -> Vec<TJunction> {
    let tolerance = context.options.on_edge;
    let mut lengths: Vec<f32> = edges.iter().map(|e| plan_distance(e.pa, e.pb)).collect();
    let middle = lengths.len() / 2;
    let median = if lengths.is_empty() {
        return Vec::new();
    } else {
        *lengths.select_nth_unstable_by(middle, f32::total_cmp).1
    };
    // Boundary vertices with one face each, filed by plan position.
    let mut grid = Grid::new(f64::from(median.max(0.01)));
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    let mut vertex_face: Vec<(u32, u32)> = Vec::new();
    for edge in edges {
        for v in [edge.a, edge.b] {
            if seen.insert(v) {
                let p = context.mesh.vertex(v);
                grid.insert_point(vertex_face.len() as u32, p[0], p[1]);
                vertex_face.push((v, edge.face));
            }
        }
    }
    let mut found = Vec::new();
    for edge in edges {
        let corners = context.mesh.polygons.get(edge.face as usize);
        let min = [
            edge.pa[0].min(edge.pb[0]) - tolerance,
            edge.pa[1].min(edge.pb[1]) - tolerance,
        ];
        let max = [
            edge.pa[0].max(edge.pb[0]) + tolerance,
            edge.pa[1].max(edge.pb[1]) + tolerance,
        ];
        let length = crate::geometry::distance(edge.pa, edge.pb);
        let mut candidates = Vec::new();
        grid.visit_box(min, max, |slot| candidates.push(slot));
        candidates.sort_unstable();
        candidates.dedup();
        for slot in candidates {
            let Some(&(v, other_face)) = vertex_face.get(slot as usize) else {
                continue;
            };
            if corners.contains(&v) || context.room(other_face) != context.room(edge.face) {
                continue;
            }
            let p = context.mesh.vertex(v);
            let Some((t, off)) = project_on_segment(p, edge.pa, edge.pb) else {
                continue;
            };
            let inside = t * length > tolerance && (1.0 - t) * length > tolerance;
            if inside && off <= tolerance {
                found.push(TJunction {
                    face: edge.face,
                    edge: edge.edge,
                    vertex: v,
                    other_face,
                    along: t,
                });
            }
        }
    }
    found
}

/// `lint.t_junction`.
pub fn t_junctions(context: &Context<'_>, findings: &mut Vec<Finding>) {
    let edges = boundary_edges(context);
    for junction in find_t_junctions(context, &edges) {
        findings.push(Finding::warning(
            T_JUNCTION,
            vec![junction.face, junction.other_face],
            context.mesh.vertex(junction.vertex),
            format!(
                "vertex {} (of face {}) lies on edge {} of face {} without being one of its corners: the faces are not linked there",
                junction.vertex, junction.other_face, junction.edge, junction.face
            ),
            true,
        ));
    }
}

/// The transition stored on a face edge (`None`: none, or −1).
fn transition(context: &Context<'_>, face: u32, edge: u32) -> Option<i32> {
    context
        .mesh
        .edge_tags
        .get(&EdgeRef {
            polygon: face,
            edge,
        })
        .map(|t| t.transition)
        .filter(|&t| t >= 0)
}

/// `lint.transition_target` and `lint.transition_missing` for an assembled area whose layout
/// has `room_count` rooms.
pub fn transitions(
    context: &Context<'_>,
    meetings: &Meetings,
    room_count: usize,
    findings: &mut Vec<Finding>,
) {
    let rooms_with_faces: FxHashSet<i64> = (0..context.mesh.polygons.len() as u32)
        .map(|f| context.room(f))
        .collect();
    // Room links of every boundary edge: (partner edge index).
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); meetings.edges.len()];
    for meeting in &meetings.pairs {
        if kind(context, meeting) == SeamKind::RoomLink {
            if let Some(list) = partners.get_mut(meeting.first) {
                list.push(meeting.second);
            }
            if let Some(list) = partners.get_mut(meeting.second) {
                list.push(meeting.first);
            }
        }
    }
    for (index, edge) in meetings.edges.iter().enumerate() {
        let own_room = context.room(edge.face);
        let links = partners.get(index).map(Vec::as_slice).unwrap_or_default();
        let at = midpoint(edge.pa, edge.pb);
        let Some(target) = transition(context, edge.face, edge.edge) else {
            missing_transition(context, meetings, index, edge, links, findings);
            continue;
        };
        let problem = if target as usize >= room_count {
            Some(format!(
                "names room {target}, but the layout has {room_count} rooms"
            ))
        } else if !rooms_with_faces.contains(&i64::from(target)) {
            Some(format!("names room {target}, which has no walkmesh"))
        } else {
            let into_target: Vec<&BoundaryEdge> = links
                .iter()
                .filter_map(|&l| meetings.edges.get(l))
                .filter(|other| context.room(other.face) == i64::from(target))
                .collect();
            if into_target.is_empty() {
                Some(format!(
                    "names room {target}, but no walkable edge of room {target} meets it"
                ))
            } else if !into_target
                .iter()
                .any(|other| transition(context, other.face, other.edge) == Some(own_room as i32))
            {
                Some(format!(
                    "names room {target}, whose meeting edge does not name room {own_room} back"
                ))
            } else {
                None
            }
        };
        if let Some(problem) = problem {
            findings.push(Finding::warning(
                TRANSITION_TARGET,
                vec![edge.face],
                at,
                format!(
                    "edge {} of face {} (room {own_room}) {problem}",
                    edge.edge, edge.face
                ),
                false,
            ));
        }
    }
}

/// `lint.transition_missing` for an edge without a transition that meets another room's edge
/// which does not name this room either (reported once, from the lower edge).
fn missing_transition(
    context: &Context<'_>,
    meetings: &Meetings,
    index: usize,
    edge: &BoundaryEdge,
    links: &[usize],
    findings: &mut Vec<Finding>,
) {
    let own_room = context.room(edge.face);
    for &link in links {
        let Some(other) = meetings.edges.get(link) else {
            continue;
        };
        let other_room = context.room(other.face);
        let named_back = transition(context, other.face, other.edge).is_some();
        if link > index && !named_back {
            findings.push(Finding::warning(
                TRANSITION_MISSING,
                vec![edge.face, other.face],
                midpoint(edge.pa, edge.pb),
                format!(
                    "edge {} of face {} (room {own_room}) meets edge {} of face {} (room {other_room}) but neither names the other room: the engine cannot cross here",
                    edge.edge, edge.face, other.edge, other.face
                ),
                false,
            ));
        }
    }
}
