//! The TRX tile lines the NWN2 preset cuts the walkable floor at.
//!
//! A TRX numbers the walkable triangles of each tile (a square of the writer's grid; a
//! triangle belongs to the tile of its centre) in a path table of at most 127 nodes
//! (`walkmesh_nwn2::bake::MAX_TILE_NODES`). The game's own files do not let a walkable
//! triangle cross a tile line (measured on the 15 TRX of `shared/corpora/nwn2`: 1 of 45,836
//! walkable triangles does, `docs/generate.md`), so every tile's count is that tile's own floor.
//! A triangle that crosses a line is counted whole in one tile, and when its centre lies on or
//! near the line the writer and the generator can place it in different tiles (the writer
//! settles centres on a line by their neighbours). So, for NWN2, the triangulation takes the
//! tile lines as constraints (`triangulate.rs`): each layer's share of each tile is
//! triangulated on its own, the points on a line shared by both sides.
//!
//! The lines are at every multiple of the tile width in the mesh's own coordinates: the writer
//! moves a mesh reaching below zero by whole tiles, which keeps them there.

use crate::Params;

/// Points closer than this to a tile line (m) are put on it: a point a hair beside a line
/// would leave triangles between it and the line thinner than lint's needle (1 mm). Half the
/// simplifier's thinnest face ([`crate::simplify`]'s 1 cm), a fortieth of the NWN2 cell: the
/// outline itself follows the cells within `max_edge_error` (0.2 m for NWN2).
pub const SNAP: f64 = 0.005;

/// The tile lines of one grid: x = k·width and y = k·width for every integer k.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileLines {
    width: f64,
}

impl TileLines {
    /// Lines `width` apart (None for a width that is not a positive finite number).
    pub fn new(width: f64) -> Option<TileLines> {
        (width.is_finite() && width > 0.0).then_some(TileLines { width })
    }

    /// The lines the preset's engine cuts at: the TRX writer's tiles for NWN2, none otherwise
    /// (and none in a build without the NWN2 format, which has no TRX writer).
    pub fn for_params(params: &Params) -> Option<TileLines> {
        #[cfg(feature = "nwn2")]
        if params.engine == crate::Engine::Nwn2 {
            return TileLines::new(f64::from(walkmesh_nwn2::write::DEFAULT_TILE_WIDTH));
        }
        let _ = params;
        None
    }

    pub fn width(&self) -> f64 {
        self.width
    }

    /// The line nearest to coordinate `v`.
    fn nearest(&self, v: f64) -> f64 {
        (v / self.width).round() * self.width
    }

    /// `v` lies exactly on a line.
    pub fn on_line(&self, v: f64) -> bool {
        v.is_finite() && self.nearest(v) == v
    }

    /// `v`, put on the nearest line when within [`SNAP`] of it.
    pub fn snap(&self, v: f64) -> f64 {
        let line = self.nearest(v);
        if (v - line).abs() <= SNAP { line } else { v }
    }

    /// Plan point `p` with each coordinate snapped ([`TileLines::snap`]).
    pub fn snap_point(&self, p: [f64; 2]) -> [f64; 2] {
        p.map(|v| self.snap(v))
    }

    /// The points where the segment from `a` to `b` (ends already snapped) crosses a line
    /// strictly between its ends, in order from `a`. Computed from the segment's lower end
    /// whichever way it is given, so two layers sharing an edge get bit-identical points. A
    /// crossing within [`SNAP`] of a line of the other axis is put on it (a tile corner).
    pub fn crossings(&self, a: [f64; 2], b: [f64; 2]) -> Vec<[f64; 2]> {
        let reversed = (b[0], b[1]) < (a[0], a[1]);
        let (p, q) = if reversed { (b, a) } else { (a, b) };
        let mut found: Vec<(f64, [f64; 2])> = Vec::new();
        for axis in 0..2 {
            let other = 1 - axis;
            let (Some(&from), Some(&to)) = (p.get(axis), q.get(axis)) else {
                continue;
            };
            for line in self.strictly_between(from, to) {
                let t = (line - from) / (to - from);
                let (Some(&po), Some(&qo)) = (p.get(other), q.get(other)) else {
                    continue;
                };
                let mut point = [0.0; 2];
                if let Some(c) = point.get_mut(axis) {
                    *c = line;
                }
                if let Some(c) = point.get_mut(other) {
                    *c = self.snap(po + t * (qo - po));
                }
                found.push((t, point));
            }
        }
        found.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut points: Vec<[f64; 2]> = found.into_iter().map(|(_, point)| point).collect();
        points.dedup();
        if reversed {
            points.reverse();
        }
        points
    }

    /// The lines strictly between coordinates `a` and `b` (either order), ascending.
    fn strictly_between(&self, a: f64, b: f64) -> Vec<f64> {
        let (lo, hi) = (a.min(b), a.max(b));
        let width = self.width;
        // Integer line numbers; a non-finite end crosses nothing.
        let (first, last) = if lo.is_finite() && hi.is_finite() {
            (
                (lo / width).floor() as i64 + 1,
                (hi / width).ceil() as i64 - 1,
            )
        } else {
            (1, 0)
        };
        (first..=last)
            .map(|k| k as f64 * width)
            .filter(|&line| line > lo && line < hi)
            .collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn points_near_a_line_are_put_on_it_and_others_stay() {
        let lines = TileLines::new(9.0).unwrap();
        assert_eq!(lines.snap(9.004), 9.0);
        assert_eq!(lines.snap(-0.003), 0.0);
        assert_eq!(lines.snap(9.006), 9.006);
        assert!(lines.on_line(18.0) && !lines.on_line(18.0001));
        assert!(TileLines::new(0.0).is_none());
    }

    #[test]
    fn a_segment_crosses_the_lines_between_its_ends_in_order_either_way() {
        let lines = TileLines::new(9.0).unwrap();
        // From (8, 1) to (20, 4): crosses x = 9 at y = 1.25 and x = 18 at y = 3.5.
        let there = lines.crossings([8.0, 1.0], [20.0, 4.0]);
        assert_eq!(there, vec![[9.0, 1.25], [18.0, 3.5]]);
        let mut back = lines.crossings([20.0, 4.0], [8.0, 1.0]);
        back.reverse();
        assert_eq!(back, there);
        // Ends on a line cross nothing there; a segment along a line crosses nothing.
        assert!(lines.crossings([9.0, 1.0], [12.0, 1.0]).is_empty());
        assert_eq!(
            lines.crossings([9.0, 1.0], [9.0, 20.0]),
            vec![[9.0, 9.0], [9.0, 18.0]]
        );
        // Through a tile corner (up to the snap): one point, the corner.
        assert_eq!(
            lines.crossings([8.0, 8.0], [10.0, 10.002]),
            vec![[9.0, 9.0]]
        );
    }
}
