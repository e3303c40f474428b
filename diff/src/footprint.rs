//! Footprint: where the walkable regions of two meshes, projected on XY, differ. The
//! boolean operations are i_overlay's (robust, integer-snapped); nothing here clips polygons.

use i_overlay::core::extract::BooleanExtractionBuffer;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::overlay::FloatOverlay;
use serde::Serialize;
use walkmesh_core::NavMesh;

/// Which side a piece of the difference is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Walkable in A, not in B (lost going from A to B).
    OnlyA,
    /// Walkable in B, not in A (gained).
    OnlyB,
}

/// One connected piece of the difference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    pub side: Side,
    pub area: f64,
    /// Area-weighted centre, XY.
    pub centre: [f64; 2],
    pub min: [f64; 2],
    pub max: [f64; 2],
    /// Outer contour then holes (XY), for drawing.
    #[serde(skip)]
    pub contours: Vec<Vec<[f64; 2]>>,
}

/// Areas of the two differences and their pieces, largest first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Footprint {
    /// Area of the projected walkable region of A and of B (overlaps counted once).
    pub area_a: f64,
    pub area_b: f64,
    pub only_a_area: f64,
    pub only_b_area: f64,
    /// `only_a_area + only_b_area`: the area of the symmetric difference.
    pub symmetric_difference: f64,
    /// Number of connected pieces of the difference.
    pub piece_count: usize,
    /// The [`MAX_PIECES`] largest pieces, largest first.
    pub pieces: Vec<Piece>,
    /// Connected pieces and holes of A's and of B's projected walkable region: topology of
    /// the footprint itself, so two meshes covering the same ground give the same counts
    /// whatever their faces (a PATH cook's merged regions, a TRX's triangles).
    pub topology_a: Topology,
    pub topology_b: Topology,
}

/// Pieces and holes of one projected walkable region, ignoring slivers below the smallest
/// area the caller asked for (f32 rounding leaves hairline gaps between faces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Topology {
    /// Connected pieces of the region (touching at a point counts as apart).
    pub pieces: usize,
    /// Holes: bounded gaps inside a piece.
    pub holes: usize,
}

/// Pieces kept in [`Footprint::pieces`].
pub const MAX_PIECES: usize = 100;

/// The walkable polygons of `mesh` projected on XY, counter-clockwise, moved by `shift`;
/// polygons seen edge-on (no projected area) are left out.
pub fn walkable_outlines(mesh: &NavMesh, shift: [f64; 2]) -> Vec<Vec<[f64; 2]>> {
    let mut outlines = Vec::with_capacity(mesh.walkable_count());
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        let mut points: Vec<[f64; 2]> = polygon
            .iter()
            .map(|&i| {
                let v = mesh.vertex(i);
                [f64::from(v[0]) + shift[0], f64::from(v[1]) + shift[1]]
            })
            .collect();
        let area = signed_area(&points);
        if !(area.is_finite() && area.abs() > 0.0) {
            continue;
        }
        if area < 0.0 {
            points.reverse();
        }
        outlines.push(points);
    }
    outlines
}

/// Shoelace area, positive counter-clockwise.
pub fn signed_area(points: &[[f64; 2]]) -> f64 {
    let n = points.len();
    let mut twice = 0.0;
    for i in 0..n {
        let (Some(a), Some(b)) = (points.get(i), points.get((i + 1) % n)) else {
            continue;
        };
        twice += a[0] * b[1] - b[0] * a[1];
    }
    twice / 2.0
}

fn piece(side: Side, contours: Vec<Vec<[f64; 2]>>) -> Option<Piece> {
    let mut area = 0.0;
    let mut moment = [0.0f64; 2];
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    for contour in &contours {
        let n = contour.len();
        for i in 0..n {
            let (Some(a), Some(b)) = (contour.get(i), contour.get((i + 1) % n)) else {
                continue;
            };
            let cross = a[0] * b[1] - b[0] * a[1];
            area += cross / 2.0;
            moment[0] += (a[0] + b[0]) * cross / 6.0;
            moment[1] += (a[1] + b[1]) * cross / 6.0;
            for k in 0..2 {
                min[k] = min[k].min(a[k]);
                max[k] = max[k].max(a[k]);
            }
        }
    }
    // Outer contours are counter-clockwise and holes clockwise, so the sum is the piece's
    // area; the sign is normalised in case a library version flips the convention.
    let signed = area;
    let area = area.abs();
    if !(area > 0.0 && min[0].is_finite()) {
        return None;
    }
    Some(Piece {
        side,
        area,
        centre: [moment[0] / signed, moment[1] / signed],
        min,
        max,
        contours,
    })
}

/// Area and topology of the union of `outlines`; contours and pieces smaller than
/// `min_area` are slivers and not counted in the topology.
fn union_of(outlines: &[Vec<[f64; 2]>], min_area: f64) -> (f64, Topology) {
    if outlines.is_empty() {
        return (0.0, Topology::default());
    }
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut overlay = FloatOverlay::with_subj_and_clip(outlines, &empty);
    let mut area = 0.0;
    let mut topology = Topology::default();
    for shape in overlay.overlay(OverlayRule::Union, FillRule::NonZero) {
        let holes = shape
            .iter()
            .skip(1)
            .filter(|hole| signed_area(hole).abs() > min_area)
            .count();
        let Some(piece) = piece(Side::OnlyA, shape) else {
            continue;
        };
        area += piece.area;
        if piece.area > min_area {
            topology.pieces += 1;
            topology.holes += holes;
        }
    }
    (area + 0.0, topology)
}

/// The union of `a`'s walkable region minus `b`'s and the other way round (B moved by
/// `shift_b` first). Pieces and holes smaller than `min_area` are left out of the topology.
pub fn footprint(a: &NavMesh, b: &NavMesh, shift_b: [f64; 2], min_area: f64) -> Footprint {
    let outlines_a = walkable_outlines(a, [0.0, 0.0]);
    let outlines_b = walkable_outlines(b, shift_b);
    let mut pieces = Vec::new();
    if !(outlines_a.is_empty() && outlines_b.is_empty()) {
        let mut overlay = FloatOverlay::with_subj_and_clip(&outlines_a, &outlines_b);
        if let Some(graph) = overlay.build_graph_view(FillRule::NonZero) {
            let mut buffer = BooleanExtractionBuffer::default();
            for (rule, side) in [
                (OverlayRule::Difference, Side::OnlyA),
                (OverlayRule::InverseDifference, Side::OnlyB),
            ] {
                for shape in graph.extract_shapes(rule, &mut buffer) {
                    pieces.extend(piece(side, shape));
                }
            }
        }
    }
    pieces.sort_by(|x, y| {
        y.area
            .total_cmp(&x.area)
            .then(x.centre[0].total_cmp(&y.centre[0]))
            .then(x.centre[1].total_cmp(&y.centre[1]))
    });
    let only = |side: Side| -> f64 {
        pieces
            .iter()
            .filter(|p| p.side == side)
            .map(|p| p.area)
            .sum::<f64>()
            + 0.0 // an empty sum is -0.0
    };
    let (only_a_area, only_b_area) = (only(Side::OnlyA), only(Side::OnlyB));
    let piece_count = pieces.len();
    pieces.truncate(MAX_PIECES);
    let (area_a, topology_a) = union_of(&outlines_a, min_area);
    let (area_b, topology_b) = union_of(&outlines_b, min_area);
    Footprint {
        area_a,
        area_b,
        only_a_area,
        only_b_area,
        symmetric_difference: only_a_area + only_b_area,
        piece_count,
        pieces,
        topology_a,
        topology_b,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{Material, Surface};

    /// A walkable axis-aligned rectangle made of two triangles (one of them clockwise, to
    /// check orientation handling).
    pub fn rectangle(x0: f32, y0: f32, x1: f32, y1: f32) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]],
            ..NavMesh::default()
        };
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        mesh.push_polygon(&[0, 1, 2], stone);
        mesh.push_polygon(&[0, 3, 2], stone);
        mesh
    }

    #[test]
    fn identical_regions_have_no_difference() {
        let a = rectangle(0.0, 0.0, 4.0, 2.0);
        let f = footprint(&a, &a, [0.0, 0.0], 0.0);
        assert_eq!(f.symmetric_difference, 0.0);
        assert!(f.pieces.is_empty());
        assert!((f.area_a - 8.0).abs() < 1e-9);
    }

    #[test]
    fn a_shifted_rectangle_differs_by_two_strips() {
        // [0,4]x[0,2] against [1,5]x[0,2]: only A = [0,1]x[0,2] (area 2), only B = [4,5]x[0,2].
        let a = rectangle(0.0, 0.0, 4.0, 2.0);
        let b = rectangle(1.0, 0.0, 5.0, 2.0);
        let f = footprint(&a, &b, [0.0, 0.0], 0.0);
        assert!((f.only_a_area - 2.0).abs() < 1e-6, "{f:?}");
        assert!((f.only_b_area - 2.0).abs() < 1e-6);
        assert!((f.symmetric_difference - 4.0).abs() < 1e-6);
        let lost = f.pieces.iter().find(|p| p.side == Side::OnlyA).unwrap();
        assert!((lost.centre[0] - 0.5).abs() < 1e-6 && (lost.centre[1] - 1.0).abs() < 1e-6);
        assert!((lost.min[0] - 0.0).abs() < 1e-6 && (lost.max[0] - 1.0).abs() < 1e-6);
        // Moving B back by one unit makes them equal.
        let aligned = footprint(&a, &b, [-1.0, 0.0], 0.0);
        assert!(aligned.symmetric_difference < 1e-6, "{aligned:?}");
    }

    #[test]
    fn a_hole_counts_as_lost_area() {
        // B = A minus the unit square [1,2]x[0.5,1.5], built as a ring of 8 triangles.
        let a = rectangle(0.0, 0.0, 3.0, 2.0);
        let mut b = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [3.0, 0.0, 0.0],
                [3.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
                [1.0, 0.5, 0.0],
                [2.0, 0.5, 0.0],
                [2.0, 1.5, 0.0],
                [1.0, 1.5, 0.0],
            ],
            ..NavMesh::default()
        };
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        for [o0, o1, i1, i0] in [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]] {
            b.push_polygon(&[o0, o1, i1], stone);
            b.push_polygon(&[o0, i1, i0], stone);
        }
        let f = footprint(&a, &b, [0.0, 0.0], 0.0);
        assert!((f.only_a_area - 1.0).abs() < 1e-6, "{f:?}");
        assert_eq!(f.only_b_area, 0.0);
        assert!((f.area_b - 5.0).abs() < 1e-6);
        assert_eq!(
            f.topology_a,
            Topology {
                pieces: 1,
                holes: 0
            }
        );
        assert_eq!(
            f.topology_b,
            Topology {
                pieces: 1,
                holes: 1
            }
        );
        // A hole smaller than the sliver limit is not a hole of the ground.
        let coarse = footprint(&a, &b, [0.0, 0.0], 1.5);
        assert_eq!(
            coarse.topology_b,
            Topology {
                pieces: 1,
                holes: 0
            }
        );
        let hole = &f.pieces[0];
        assert!((hole.centre[0] - 1.5).abs() < 1e-6 && (hole.centre[1] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn overlapping_faces_count_once_and_edge_on_faces_not_at_all() {
        let mut a = rectangle(0.0, 0.0, 2.0, 2.0);
        // The same square again, raised (a bridge over it), and a vertical wall face.
        let base = a.vertices.len() as u32;
        a.vertices.extend([
            [0.0, 0.0, 3.0],
            [2.0, 0.0, 3.0],
            [2.0, 2.0, 3.0],
            [0.0, 0.0, 5.0],
        ]);
        let s = a.surfaces[0];
        a.push_polygon(&[base, base + 1, base + 2], s);
        a.push_polygon(&[base, base + 1, base + 3], s);
        let f = footprint(&a, &rectangle(0.0, 0.0, 2.0, 2.0), [0.0, 0.0], 0.0);
        assert!((f.area_a - 4.0).abs() < 1e-9);
        assert!(f.symmetric_difference < 1e-9, "{f:?}");
    }
}
