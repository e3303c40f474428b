//! `lint.island`: walkable components cut off from the main walkable area (the largest by
//! area). Faces are joined across edges they share by vertex index, and, in an area, across
//! room seams (the engine crosses those by transitions); an open seam is *not* a join, so a
//! seam that splits a floor shows up both as the seam and as the island it cuts off.

use walkmesh_core::passes::polygon_area;

use crate::geometry::centroid;
use crate::seams::{Meetings, SeamKind, kind};
use crate::{Context, Finding, ISLAND};

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while let Some(&p) = parent.get(x as usize) {
        if p == x {
            break;
        }
        let grand = parent.get(p as usize).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(x as usize) {
            *slot = grand;
        }
        x = grand;
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (low, high) = (ra.min(rb), ra.max(rb));
        if let Some(slot) = parent.get_mut(high as usize) {
            *slot = low;
        }
    }
}

/// Component root of every face (walkable faces only are joined).
pub fn walkable_roots(context: &Context<'_>, meetings: &Meetings) -> Vec<u32> {
    let mesh = context.mesh;
    let mut parent: Vec<u32> = (0..mesh.polygons.len() as u32).collect();
    for face in 0..mesh.polygons.len() {
        if !mesh.is_walkable(face) {
            continue;
        }
        // A copy of a face (same corners) stands where its first copy does.
        if let Some(&original) = context.copy_of.get(face)
            && original != u32::MAX
        {
            union(&mut parent, face as u32, original);
        }
        let first = mesh.polygons.first_index(face);
        for e in 0..mesh.polygons.get(face).len() {
            if let Some(other) = context.adjacency.across(first + e) {
                let other_face = mesh.polygons.edge_of_half_edge(other).polygon;
                union(&mut parent, face as u32, other_face);
            }
        }
    }
    for meeting in &meetings.pairs {
        if kind(context, meeting) == SeamKind::RoomLink
            && let (Some(x), Some(y)) = (
                meetings.edges.get(meeting.first),
                meetings.edges.get(meeting.second),
            )
        {
            union(&mut parent, x.face, y.face);
        }
    }
    (0..mesh.polygons.len() as u32)
        .map(|f| find(&mut parent, f))
        .collect()
}

/// One walkable component.
#[derive(Debug, Default, Clone)]
struct Component {
    faces: Vec<u32>,
    area: f64,
    /// The component's largest face: a point surely on it.
    largest: (f64, u32),
}

pub fn islands(context: &Context<'_>, meetings: &Meetings, findings: &mut Vec<Finding>) {
    let mesh = context.mesh;
    let roots = walkable_roots(context, meetings);
    let mut components: rustc_hash::FxHashMap<u32, Component> = Default::default();
    for (face, &root) in roots.iter().enumerate() {
        if !mesh.is_walkable(face) {
            continue;
        }
        // A copy adds no floor.
        let area = if context.is_copy(face) {
            0.0
        } else {
            polygon_area(mesh, face)
        };
        let component = components.entry(root).or_default();
        component.faces.push(face as u32);
        component.area += area;
        if area > component.largest.0 || component.faces.len() == 1 {
            component.largest = (area, face as u32);
        }
    }
    let mut all: Vec<Component> = components.into_values().collect();
    all.sort_by(|a, b| {
        b.area
            .total_cmp(&a.area)
            .then_with(|| a.faces.cmp(&b.faces))
    });
    let Some((main, rest)) = all.split_first() else {
        return;
    };
    for island in rest {
        let at = centroid(mesh, island.largest.1 as usize);
        findings.push(Finding::warning(
            ISLAND,
            island.faces.clone(),
            at,
            format!(
                "walkable island of {} face(s), {:.2} m², cut off from the main walkable area ({:.2} m², {} faces); around ({:.2}, {:.2}, {:.2})",
                island.faces.len(),
                island.area,
                main.area,
                main.faces.len(),
                at[0],
                at[1],
                at[2]
            ),
            false,
        ));
    }
}
