//! `lint.narrow_passage`: a walkable strip narrower than a character, such as a gap through a
//! wall or a sliver of floor left along one. Path finding over the faces goes through it; a
//! creature cannot, and gets stuck (or, through a wall, sees and walks where it should not).
//!
//! Two walkable boundary edges face each other across walkable ground when each lies on the
//! inner side of the other (the side its face is on) and they run nearly parallel: the ground
//! between them is then at most their distance wide. Boundary edges are filed by plan box in a
//! grid of cells one character wide, so each edge looks only at edges within that width.

use crate::geometry::{P3, midpoint};
use crate::grid::Grid;
use crate::seams::BoundaryEdge;
use crate::{Context, Finding, NARROW_PASSAGE};

/// Edges facing each other must be this close to antiparallel (cosine).
const FACING: f32 = -0.95;
/// And overlap along their length by at least this (m): a corner's two edges do not count.
const MIN_SHARED_LENGTH: f32 = 0.1;

/// Unit plan direction of an edge and its inner normal (towards its face: polygons are
/// counter-clockwise seen from above, so the face lies to the left).
fn frame(edge: &BoundaryEdge) -> Option<([f32; 2], [f32; 2], f32)> {
    let d = [edge.pb[0] - edge.pa[0], edge.pb[1] - edge.pa[1]];
    let length = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if length.is_nan() || length <= 0.0 || !length.is_finite() {
        return None;
    }
    let u = [d[0] / length, d[1] / length];
    Some((u, [-u[1], u[0]], length))
}

fn dot(a: [f32; 2], b: [f32; 2]) -> f32 {
    a[0] * b[0] + a[1] * b[1]
}

fn rel(p: P3, origin: P3) -> [f32; 2] {
    [p[0] - origin[0], p[1] - origin[1]]
}

/// Width of the walkable strip between `x` and `y` when they face each other across it.
fn strip_width(context: &Context<'_>, x: &BoundaryEdge, y: &BoundaryEdge) -> Option<f32> {
    let (ux, nx, length_x) = frame(x)?;
    let (_, ny, _) = frame(y)?;
    if dot(nx, ny) > FACING {
        return None;
    }
    // y's ends, in x's frame: along x, and across (into x's face).
    let along = [dot(rel(y.pa, x.pa), ux), dot(rel(y.pb, x.pa), ux)];
    let across = [dot(rel(y.pa, x.pa), nx), dot(rel(y.pb, x.pa), nx)];
    let shared = along[0].max(along[1]).min(length_x) - along[0].min(along[1]).max(0.0);
    let width = across[0].max(across[1]);
    let options = context.options;
    let close_in_height = (y.pa[2] - x.pa[2]).abs() <= options.max_step;
    (shared >= MIN_SHARED_LENGTH
        && across[0].min(across[1]) > options.gap
        && width < options.character_width
        && close_in_height)
        .then_some(width)
}

pub fn narrow_passages(context: &Context<'_>, edges: &[BoundaryEdge], findings: &mut Vec<Finding>) {
    let width = context.options.character_width;
    if width.is_nan() || width <= 0.0 {
        return;
    }
    let mut grid = Grid::new(f64::from(width));
    let mut large = Vec::new();
    let plan_box = |e: &BoundaryEdge| {
        (
            [e.pa[0].min(e.pb[0]), e.pa[1].min(e.pb[1])],
            [e.pa[0].max(e.pb[0]), e.pa[1].max(e.pb[1])],
        )
    };
    // An edge shorter than MIN_SHARED_LENGTH shares less than that with any other, so it is
    // in no finding: left out, so that a crowd of tiny edges (thousands of millimetre faces
    // in one spot) is not compared pairwise (issue #33).
    let can_share =
        |e: &BoundaryEdge| frame(e).is_some_and(|(_, _, length)| length >= MIN_SHARED_LENGTH);
    for (i, edge) in edges.iter().enumerate() {
        if !can_share(edge) {
            continue;
        }
        let (min, max) = plan_box(edge);
        if !grid.insert_box(i as u32, min, max) {
            large.push(i as u32);
        }
    }
    for (i, x) in edges.iter().enumerate() {
        if !can_share(x) {
            continue;
        }
        let (min, max) = plan_box(x);
        let mut candidates: Vec<u32> = large.clone();
        grid.visit_box(
            [min[0] - width, min[1] - width],
            [max[0] + width, max[1] + width],
            |j| candidates.push(j),
        );
        candidates.sort_unstable();
        candidates.dedup();
        for j in candidates {
            let Some(y) = edges.get(j as usize) else {
                continue;
            };
            // Each pair once, and only where each edge is inside the other's strip.
            if j as usize <= i || y.face == x.face || context.room(x.face) != context.room(y.face) {
                continue;
            }
            let (Some(w), Some(_)) = (strip_width(context, x, y), strip_width(context, y, x))
            else {
                continue;
            };
            findings.push(Finding::warning(
                NARROW_PASSAGE,
                vec![x.face, y.face],
                midpoint(midpoint(x.pa, x.pb), midpoint(y.pa, y.pb)),
                format!(
                    "the walkable ground between edge {} of face {} and edge {} of face {} is {w:.2} wide, narrower than a character ({width})",
                    x.edge, x.face, y.edge, y.face
                ),
                false,
            ));
        }
    }
}
