//! Voxelisation: source triangles into solid spans per plan column (Recast's heightfield),
//! then the span filters (low obstacles, clearance).

use crate::budget::{Budget, Extent, bytes_of};
use crate::floor::Source;
use crate::{GenerateError, Params};

/// A solid interval of one column, in cell-height steps above the grid's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub bottom: i32,
    pub top: i32,
    /// The top is a floor a character may stand on.
    pub walkable: bool,
    /// The walkable top comes only from floor triangles that do not cover the column's
    /// centre: the floor's edge runs through the column (see `graph::trim_slivers`).
    pub sliver: bool,
    /// The walkable top comes only from render surfaces whose material says they are no
    /// floor to start from (water, lava, sky, void: `Params::not_floor`).
    pub not_floor: bool,
    /// The walkable top comes only from the raised lip of a ledge (`crate::lips`): floor for
    /// choosing and joining pieces, left out of the kept floor (`graph::trim_lips`).
    pub lip: bool,
    /// The floor level a character stands on to reach this top: the top itself, except for a
    /// riser (a steep face rising within a climb from a floor in the same cell, which the
    /// merge makes walkable as Recast does): the floor it rises from. A riser is a step up
    /// from its base, not a floor to step up again from (see `graph::Graph::link`).
    pub base: i32,
}

/// Columns of spans over a plan grid; column `(x, y)` covers
/// `[origin + x·cell, origin + (x+1)·cell) × [origin + y·cell, …)`.
///
/// Compact, as Recast's compact heightfield: every span in one array, column by column, and
/// each column's start in it. A vector per column cost a heap block per column (most hold one
/// span), about 120 bytes a column where this takes 24 (issue #48).
#[derive(Clone, Debug)]
pub struct Heightfield {
    pub width: usize,
    pub height: usize,
    /// Plan origin and base height.
    pub origin: [f32; 3],
    pub cell_size: f32,
    pub cell_height: f32,
    /// Every column's spans, sorted upwards and disjoint, column after column.
    spans: Vec<Span>,
    /// Where each column's spans start in `spans`, and one past the last column's end.
    starts: Vec<u32>,
}

/// Rows rasterised together: each band's columns are built as small vectors, then packed
/// into the compact array, so only one band's vectors are alive at a time.
const BAND_ROWS: usize = 32;

/// The largest grid built (about 4 GiB of empty columns past this).
const MAX_COLUMNS: u64 = 200_000_000;

impl Heightfield {
    /// Voxelises `source` and applies the filters, claiming the grid's and the spans' memory
    /// from `budget` before allocating it.
    pub fn build(
        source: &Source,
        params: &Params,
        budget: &mut Budget,
    ) -> Result<Heightfield, GenerateError> {
        let corners = source.triangles.iter().flat_map(|t| t.corners.iter());
        let extent = Extent::of(corners).ok_or(GenerateError::EmptyInput)?;
        extent.check(params.cell_size, params.cell_height)?;
        let (lo, hi) = (extent.lo, extent.hi);
        let cs = params.cell_size;
        // One empty cell of border, so every walkable cell has four neighbours to look at.
        let origin = [lo[0] - cs, lo[1] - cs, lo[2] - params.cell_height];
        // Counted in f64: the extent check bounds each axis, but not yet their product.
        let cells = |axis: usize| {
            (((f64::from(hi[axis]) - f64::from(origin[axis])) / f64::from(cs)).floor() as u64)
                .saturating_add(2)
        };
        let (width, height) = (cells(0), cells(1));
        let columns = width.saturating_mul(height);
        if columns > MAX_COLUMNS {
            return Err(GenerateError::GridTooLarge {
                columns,
                width,
                height,
                limit: MAX_COLUMNS,
            });
        }
        budget.claim("the voxel grid", bytes_of::<u32>(columns as usize + 1))?;
        let mut field = Heightfield {
            width: width as usize,
            height: height as usize,
            origin,
            cell_size: cs,
            cell_height: params.cell_height,
            spans: Vec::new(),
            starts: Vec::with_capacity(columns as usize + 1),
        };
        field.rasterise_all(&source.triangles, params.climb_cells(), budget)?;
        field.filter_low_obstacles(params.climb_cells());
        field.filter_bevels(params.climb_cells());
        field.fill_cracks(params.climb_cells(), params.height_cells(), budget)?;
        field.filter_low_clearance(params.height_cells());
        Ok(field)
    }

    /// A field of the given columns (each sorted upwards and disjoint): for tests and tools
    /// that build a picture by hand.
    pub fn from_columns(
        width: usize,
        height: usize,
        origin: [f32; 3],
        cell_size: f32,
        cell_height: f32,
        columns: &[Vec<Span>],
    ) -> Heightfield {
        let mut field = Heightfield {
            width,
            height,
            origin,
            cell_size,
            cell_height,
            spans: Vec::new(),
            starts: Vec::with_capacity(columns.len() + 1),
        };
        for column in columns {
            field.starts.push(field.spans.len() as u32);
            field.spans.extend_from_slice(column);
        }
        field.starts.push(field.spans.len() as u32);
        field
    }

    /// Number of columns (width × height).
    pub fn column_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The spans of a column, sorted upwards; None outside the grid.
    pub fn spans(&self, column: usize) -> Option<&[Span]> {
        let (start, end) = (self.starts.get(column)?, self.starts.get(column + 1)?);
        self.spans.get(*start as usize..*end as usize)
    }

    fn spans_mut(&mut self, column: usize) -> Option<&mut [Span]> {
        let (start, end) = (self.starts.get(column)?, self.starts.get(column + 1)?);
        self.spans.get_mut(*start as usize..*end as usize)
    }

    /// Every span of the field, column after column.
    pub fn all_spans(&self) -> &[Span] {
        &self.spans
    }

    /// Rasterises every triangle, band of rows by band: a band's columns gather their spans
    /// in small vectors (reused from band to band), in the triangles' order, which the merge
    /// depends on; then they are packed into the compact array.
    fn rasterise_all(
        &mut self,
        triangles: &[crate::floor::Triangle],
        merge: i32,
        budget: &mut Budget,
    ) -> Result<(), GenerateError> {
        let bands = self.height.div_ceil(BAND_ROWS);
        // Each triangle's rows, then the triangles starting in each band (in input order).
        budget.claim(
            "voxelising",
            bytes_of::<(i64, i64)>(triangles.len()) + bytes_of::<u32>(triangles.len() * 2),
        )?;
        let rows: Vec<(i64, i64)> = triangles.iter().map(|t| self.rows_of(t)).collect();
        let mut starting: Vec<Vec<u32>> = vec![Vec::new(); bands];
        for (t, &(first, _)) in rows.iter().enumerate() {
            if let Some(list) = starting.get_mut(first.max(0) as usize / BAND_ROWS) {
                list.push(t as u32);
            }
        }
        budget.claim(
            "voxelising",
            bytes_of::<Vec<Span>>(BAND_ROWS.min(self.height) * self.width),
        )?;
        let mut band_columns: Vec<Vec<Span>> = vec![Vec::new(); BAND_ROWS * self.width];
        let mut active: Vec<u32> = Vec::new();
        for (band, starting_here) in starting.iter().enumerate() {
            let (row0, row1) = (band * BAND_ROWS, ((band + 1) * BAND_ROWS).min(self.height));
            // Triangles still reaching this band, merged with those starting in it: both
            // lists are in input order, and so is the merge.
            let reaching = active
                .iter()
                .copied()
                .filter(|&t| rows.get(t as usize).is_some_and(|r| r.1 >= row0 as i64));
            active = merge_ascending(reaching, starting_here.iter().copied());
            for &t in &active {
                if let Some(triangle) = triangles.get(t as usize) {
                    self.rasterise(triangle, merge, (row0, row1), &mut band_columns, budget)?;
                }
            }
            self.pack_band(&mut band_columns, row1 - row0, budget)?;
        }
        self.starts.push(self.spans.len() as u32);
        Ok(())
    }

    /// The rows a triangle covers.
    fn rows_of(&self, triangle: &crate::floor::Triangle) -> (i64, i64) {
        let cs = self.cell_size;
        let ys = triangle.corners.map(|c| (c[1] - self.origin[1]) / cs);
        let y_lo = ys.iter().copied().fold(f32::MAX, f32::min);
        let y_hi = ys.iter().copied().fold(f32::MIN, f32::max);
        cell_range(y_lo, y_hi, self.height)
    }

    /// Appends a band's columns to the compact array (claiming its growth first) and empties
    /// them for the next band.
    fn pack_band(
        &mut self,
        band_columns: &mut [Vec<Span>],
        rows: usize,
        budget: &mut Budget,
    ) -> Result<(), GenerateError> {
        let used = band_columns
            .get_mut(..rows * self.width)
            .unwrap_or_default();
        let count: usize = used.iter().map(Vec::len).sum();
        let needed = self.spans.len() + count;
        if needed > self.spans.capacity() {
            // Grows by half again at least, so the packing is amortised linear.
            let grown = needed.max(self.spans.capacity() + self.spans.capacity() / 2);
            budget.claim(
                "voxelising",
                bytes_of::<Span>(grown - self.spans.capacity()),
            )?;
            self.spans.reserve_exact(grown - self.spans.len());
        }
        if u32::try_from(needed).is_err() {
            return Err(GenerateError::Memory {
                stage: "voxelising",
                estimate_mib: bytes_of::<Span>(needed) >> 20,
                limit_mib: 0,
                option: walkmesh_core::memory::OPTION,
            });
        }
        for column in used {
            self.starts.push(self.spans.len() as u32);
            self.spans.append(column);
        }
        Ok(())
    }

    /// Column index of (x, y), None outside the grid.
    pub fn column(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    /// World height of a span level.
    pub fn z(&self, level: i32) -> f32 {
        self.origin[2] + level as f32 * self.cell_height
    }

    /// Adds the spans one triangle covers in rows `rows.0 .. rows.1` (Recast's clip per row,
    /// then per column) to that band's columns.
    fn rasterise(
        &self,
        triangle: &crate::floor::Triangle,
        merge: i32,
        rows: (usize, usize),
        band_columns: &mut [Vec<Span>],
        budget: &mut Budget,
    ) -> Result<(), GenerateError> {
        let (corners, walkable) = (&triangle.corners, triangle.walkable);
        let cs = self.cell_size;
        let local = corners.map(|c| {
            [
                (c[0] - self.origin[0]) / cs,
                (c[1] - self.origin[1]) / cs,
                c[2] - self.origin[2],
            ]
        });
        let y_lo = local.iter().map(|c| c[1]).fold(f32::MAX, f32::min);
        let y_hi = local.iter().map(|c| c[1]).fold(f32::MIN, f32::max);
        let (y0, y1) = cell_range(y_lo, y_hi, self.height);
        let (y0, y1) = (y0.max(rows.0 as i64), y1.min(rows.1 as i64 - 1));
        for y in y0..=y1 {
            let row = clip(
                clip(&local, 1, y as f32, true).as_slice(),
                1,
                (y + 1) as f32,
                false,
            );
            let row = row.as_slice();
            if row.len() < 3 {
                continue;
            }
            let x_lo = row.iter().map(|c| c[0]).fold(f32::MAX, f32::min);
            let x_hi = row.iter().map(|c| c[0]).fold(f32::MIN, f32::max);
            let (x0, x1) = cell_range(x_lo, x_hi, self.width);
            for x in x0..=x1 {
                let cell = clip(
                    clip(row, 0, x as f32, true).as_slice(),
                    0,
                    (x + 1) as f32,
                    false,
                );
                let cell = cell.as_slice();
                if cell.len() < 3 {
                    continue;
                }
                let z_lo = cell.iter().map(|c| c[2]).fold(f32::MAX, f32::min);
                let z_hi = cell.iter().map(|c| c[2]).fold(f32::MIN, f32::max);
                let ch = self.cell_height;
                let bottom = (z_lo / ch).floor() as i32;
                let top = ((z_hi / ch).ceil() as i32).max(bottom + 1);
                let in_band = (y as usize - rows.0) * self.width + x as usize;
                if self.column(x, y).is_some()
                    && let Some(spans) = band_columns.get_mut(in_band)
                {
                    let centre = [x as f32 + 0.5, y as f32 + 0.5];
                    let span = Span {
                        bottom,
                        top,
                        walkable,
                        sliver: walkable && !covers(&local, centre),
                        not_floor: walkable && triangle.not_floor,
                        lip: walkable && triangle.lip,
                        base: top,
                    };
                    claim_room(spans, budget)?;
                    add_span(spans, span, merge);
                }
            }
        }
        Ok(())
    }

    /// A non-walkable span whose top is within a climb of the walkable span below it becomes
    /// walkable (kerbs, stair steps: Recast's low-hanging-obstacle filter): a riser, whose
    /// base is that floor (see [`Span::base`]).
    fn filter_low_obstacles(&mut self, climb: i32) {
        for column in 0..self.column_count() {
            let Some(spans) = self.spans_mut(column) else {
                continue;
            };
            let mut below: Option<Span> = None;
            for span in spans.iter_mut() {
                let original = *span;
                if let Some(b) = below
                    && !span.walkable
                    && b.walkable
                    && span.top - b.top <= climb
                {
                    span.walkable = true;
                    span.sliver = false;
                    span.not_floor = false;
                    span.lip = false;
                    span.base = b.top;
                }
                below = Some(original);
            }
        }
    }

    /// A non-walkable span one cell wide between two walkable floors within a climb of its
    /// top and of each other, on opposite sides (the steep bevel of a trim bar laid across a walkway, with no
    /// floor modelled under it: m50aa_01a's catwalks were cut in pieces by them) becomes
    /// walkable. Opposite sides only: the foot of a wall skirt has floor on one side and the
    /// skirt on the other, and stays out.
    fn filter_bevels(&mut self, climb: i32) {
        let mut raise = Vec::new();
        for y in 0..self.height as i64 {
            for x in 0..self.width as i64 {
                let Some(column) = self.column(x, y) else {
                    continue;
                };
                let Some(spans) = self.spans(column) else {
                    continue;
                };
                for (i, span) in spans.iter().enumerate() {
                    if span.walkable {
                        continue;
                    }
                    let floors_beside = |dx: i64, dy: i64| {
                        self.column(x + dx, y + dy)
                            .and_then(|c| self.spans(c))
                            .unwrap_or(&[])
                            .iter()
                            .filter(|o| o.walkable && (o.top - span.top).abs() <= climb)
                            .map(|o| o.top)
                    };
                    // The floors on the two sides within a climb of each other too: crossing
                    // the bevel climbs no more than a step (the steep front of hall_6's seats,
                    // one cell wide between the floor at 0.1 m and the seat at 0.56 m, within
                    // a climb of each, is no way up onto the seat).
                    let level_across = |a: (i64, i64), b: (i64, i64)| {
                        floors_beside(a.0, a.1)
                            .any(|l| floors_beside(b.0, b.1).any(|r| (l - r).abs() <= climb))
                    };
                    let across = level_across((1, 0), (-1, 0)) || level_across((0, 1), (0, -1));
                    if across {
                        raise.push((column, i));
                    }
                }
            }
        }
        for (column, i) in raise {
            if let Some(span) = self.spans_mut(column).and_then(|c| c.get_mut(i)) {
                span.walkable = true;
                span.sliver = false;
                span.not_floor = false;
                span.lip = false;
            }
        }
    }

    /// A column with nothing in it around a floor level, between two walkable floors within a
    /// climb of each other on opposite sides, gets a walkable span at the lower of the two: a
    /// crack between two pieces of render floor, one cell wide (m50aa_01a's catwalk ends 0.14 m
    /// short of the landing it leads to; BioWare's walkmesh crosses the seam, and without the
    /// fill the catwalk was cut off from the room). Opposite sides only, and only an empty
    /// column (no solid from a climb below the floor to the agent's height above it): a wall
    /// foot, a step or a bevel is not a crack, and a gap of two cells stays a gap.
    fn fill_cracks(
        &mut self,
        climb: i32,
        agent: i32,
        budget: &mut Budget,
    ) -> Result<(), GenerateError> {
        let mut fill = Vec::new();
        for y in 0..self.height as i64 {
            for x in 0..self.width as i64 {
                let Some(column) = self.column(x, y) else {
                    continue;
                };
                let Some(spans) = self.spans(column) else {
                    continue;
                };
                let floors = |dx: i64, dy: i64| {
                    self.column(x + dx, y + dy)
                        .and_then(|c| self.spans(c))
                        .unwrap_or(&[])
                        .iter()
                        // A sliver (floor reaching into the cell, its centre uncovered) is
                        // no floor to bridge from: two slivers one cell apart are a gap of
                        // about three cells of real floor.
                        .filter(|o| o.walkable && !o.sliver)
                        .map(|o| o.top)
                };
                for (a, b) in [((1, 0), (-1, 0)), ((0, 1), (0, -1))] {
                    for l in floors(a.0, a.1) {
                        let Some(r) = floors(b.0, b.1).find(|&r| (r - l).abs() <= climb) else {
                            continue;
                        };
                        let (level, high) = (l.min(r), l.max(r));
                        let empty = spans
                            .iter()
                            .all(|s| s.top < level - climb || s.bottom >= high + agent);
                        if empty {
                            fill.push((column, level));
                        }
                    }
                }
            }
        }
        self.add_fills(&fill, budget)
    }

    /// Adds a floor span at each `(column, level)` of `fill` (in column order), merged into
    /// its column as rasterising merges: the compact array is copied once, with room for them.
    fn add_fills(
        &mut self,
        fill: &[(usize, i32)],
        budget: &mut Budget,
    ) -> Result<(), GenerateError> {
        if fill.is_empty() {
            return Ok(());
        }
        let count = self.spans.len() + fill.len();
        budget.claim(
            "filling cracks",
            bytes_of::<Span>(count) + bytes_of::<u32>(self.starts.len()),
        )?;
        let mut spans = Vec::with_capacity(count);
        let mut starts = Vec::with_capacity(self.starts.len());
        let mut fills = fill.iter().peekable();
        let mut scratch = Vec::new();
        for column in 0..self.column_count() {
            starts.push(spans.len() as u32);
            let own = self.spans(column).unwrap_or(&[]);
            if fills.peek().is_none_or(|(c, _)| *c != column) {
                spans.extend_from_slice(own);
                continue;
            }
            scratch.clear();
            scratch.extend_from_slice(own);
            while let Some(&(_, level)) = fills.next_if(|(c, _)| *c == column) {
                let span = Span {
                    bottom: level - 1,
                    top: level,
                    walkable: true,
                    sliver: false,
                    not_floor: false,
                    lip: false,
                    base: level,
                };
                add_span(&mut scratch, span, 0);
            }
            spans.extend_from_slice(&scratch);
        }
        starts.push(spans.len() as u32);
        self.spans = spans;
        self.starts = starts;
        Ok(())
    }

    /// A walkable span with less than the agent's height of room above it is not walkable.
    fn filter_low_clearance(&mut self, agent: i32) {
        for column in 0..self.column_count() {
            let Some(spans) = self.spans_mut(column) else {
                continue;
            };
            for i in 0..spans.len() {
                let next = spans.get(i + 1).map(|s| s.bottom);
                if let Some(span) = spans.get_mut(i)
                    && next.is_some_and(|n| n - span.top < agent)
                {
                    span.walkable = false;
                }
            }
        }
    }
}

/// Two ascending sequences merged into one ascending vector.
fn merge_ascending(a: impl Iterator<Item = u32>, b: impl Iterator<Item = u32>) -> Vec<u32> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    let mut out = Vec::new();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) if x <= y => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => break,
        };
        out.extend(next);
    }
    out
}

/// Claims what one more span in `spans` may allocate before it is added: a full vector
/// grows to twice its capacity (4 at its first allocation, Rust's minimum for small
/// elements), and the allocator keeps a header word or two per block.
fn claim_room(spans: &Vec<Span>, budget: &mut Budget) -> Result<(), GenerateError> {
    if spans.len() < spans.capacity() {
        return Ok(());
    }
    let grown = (spans.capacity() * 2).max(4);
    let header = if spans.capacity() == 0 { 16 } else { 0 };
    let more = bytes_of::<Span>(grown - spans.capacity()) + header;
    budget.claim("voxelising", more)
}

/// Inserts a span into a sorted, disjoint column, merging the ones it touches. The merged
/// top's walkability is that of the span giving the top; tops within `merge` levels of each
/// other are walkable when either is (a floor coinciding with a kerb's top edge).
fn add_span(spans: &mut Vec<Span>, mut new: Span, merge: i32) {
    let mut i = 0;
    while i < spans.len() {
        let Some(&s) = spans.get(i) else { break };
        if s.bottom > new.top {
            break;
        }
        if s.top < new.bottom {
            i += 1;
            continue;
        }
        let (high, low) = if s.top > new.top { (s, new) } else { (new, s) };
        let (walkable, sliver, not_floor, lip, base) = if (s.top - new.top).abs() <= merge {
            // A sliver only when every floor giving the top is one; likewise no floor.
            let sliver = (!s.walkable || s.sliver) && (!new.walkable || new.sliver);
            let not_floor = (!s.walkable || s.not_floor) && (!new.walkable || new.not_floor);
            let lip = (!s.walkable || s.lip) && (!new.walkable || new.lip);
            // A steep top made walkable by a floor within a climb below it is a riser: a
            // character stands on that floor to step up. Where both are walkable, the higher
            // base wins: a tread at the top of a full-height step box is a floor of its own,
            // even when the box's side (a riser from the step below) reached that top first.
            let base = match (high.walkable, low.walkable) {
                (true, true) => high.base.max(low.base),
                (true, false) | (false, false) => high.base,
                (false, true) => low.base,
            };
            (
                s.walkable || new.walkable,
                sliver && (s.walkable || new.walkable),
                not_floor && (s.walkable || new.walkable),
                lip && (s.walkable || new.walkable),
                base,
            )
        } else {
            (
                high.walkable,
                high.sliver,
                high.not_floor,
                high.lip,
                high.base,
            )
        };
        new = Span {
            bottom: new.bottom.min(s.bottom),
            top: new.top.max(s.top),
            walkable,
            sliver,
            not_floor,
            lip,
            base,
        };
        spans.remove(i);
    }
    spans.insert(i, new);
}

/// The plan triangle of `corners` (x, y) covers `point` (edges included, within a
/// thousandth of a cell).
fn covers(corners: &[[f32; 3]], point: [f32; 2]) -> bool {
    let (Some(a), Some(b), Some(c)) = (corners.first(), corners.get(1), corners.get(2)) else {
        return false;
    };
    let side = |p: &[f32; 3], q: &[f32; 3]| {
        let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
        let cross = ex * (point[1] - p[1]) - ey * (point[0] - p[0]);
        cross / (ex * ex + ey * ey).sqrt().max(f32::MIN_POSITIVE)
    };
    let d = [side(a, b), side(b, c), side(c, a)];
    d.iter().all(|&v| v >= -GRID_SNAP) || d.iter().all(|&v| v <= GRID_SNAP)
}

/// A thousandth of a cell (0.1 mm at 0.1 m cells).
const GRID_SNAP: f32 = 1e-3;

/// Cells a coordinate range covers: a range ending exactly on a cell boundary does not reach
/// into the next cell (a floor edge on a grid line covers one column, not two), but a range of
/// no width (a wall on a grid line) covers the cell it starts in.
/// Coordinates within `GRID_SNAP` of a cell boundary count as on it: the shift to the grid's
/// origin leaves floor edges on a boundary a few ulps off it, which made a 10 m floor cover
/// 101 columns.
fn cell_range(lo: f32, hi: f32, count: usize) -> (i64, i64) {
    let first = (lo + GRID_SNAP).floor() as i64;
    let last = (((hi - GRID_SNAP).ceil() as i64) - 1).max(first);
    (first.max(0), last.min(count as i64 - 1))
}

/// A convex polygon of at most [`Clipped::CAPACITY`] corners, kept on the stack: a triangle
/// clipped to one cell (four half-planes, each adding at most one corner) has at most seven.
/// Rasterising clips every triangle once per row and once per cell, and a heap vector for
/// each was a tenth of a large scene's generation time.
#[derive(Clone, Copy)]
struct Clipped {
    corners: [[f32; 3]; Clipped::CAPACITY],
    len: usize,
}

impl Clipped {
    const CAPACITY: usize = 8;

    fn of(corners: &[[f32; 3]]) -> Clipped {
        let mut polygon = Clipped {
            corners: [[0.0; 3]; Clipped::CAPACITY],
            len: 0,
        };
        for corner in corners {
            polygon.push(*corner);
        }
        polygon
    }

    /// Adds a corner; past the capacity (which a convex clip never reaches) it is dropped.
    fn push(&mut self, corner: [f32; 3]) {
        if let Some(slot) = self.corners.get_mut(self.len) {
            *slot = corner;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[[f32; 3]] {
        self.corners.get(..self.len).unwrap_or(&[])
    }
}

/// Sutherland–Hodgman clip of a convex polygon against `coordinate[axis] >= value` (keep
/// above) or `<= value`.
fn clip(polygon: &[[f32; 3]], axis: usize, value: f32, keep_above: bool) -> Clipped {
    let side = |p: &[f32; 3]| {
        let d = p[axis] - value;
        if keep_above { d } else { -d }
    };
    let mut out = Clipped::of(&[]);
    for (i, a) in polygon.iter().enumerate() {
        let b = polygon.get((i + 1) % polygon.len()).unwrap_or(a);
        let (da, db) = (side(a), side(b));
        if da >= 0.0 {
            out.push(*a);
        }
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            out.push([
                a[0] + (b[0] - a[0]) * t,
                a[1] + (b[1] - a[1]) * t,
                a[2] + (b[2] - a[2]) * t,
            ]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_merge_and_keep_the_top_walkability() {
        let mut spans = Vec::new();
        add_span(
            &mut spans,
            Span {
                bottom: 0,
                top: 1,
                base: 1,
                walkable: true,
                sliver: false,
                not_floor: false,
                lip: false,
            },
            2,
        );
        add_span(
            &mut spans,
            Span {
                bottom: 5,
                top: 6,
                base: 6,
                walkable: true,
                sliver: false,
                not_floor: false,
                lip: false,
            },
            2,
        );
        // A wall from the floor up past the upper span: one solid span, not walkable.
        add_span(
            &mut spans,
            Span {
                bottom: 1,
                top: 20,
                base: 20,
                walkable: false,
                sliver: false,
                not_floor: false,
                lip: false,
            },
            2,
        );
        assert_eq!(
            spans,
            vec![Span {
                bottom: 0,
                top: 20,
                base: 20,
                walkable: false,
                sliver: false,
                not_floor: false,
                lip: false,
            }]
        );
        let mut spans = Vec::new();
        add_span(
            &mut spans,
            Span {
                bottom: 0,
                top: 10,
                base: 10,
                walkable: false,
                sliver: false,
                not_floor: false,
                lip: false,
            },
            2,
        );
        add_span(
            &mut spans,
            Span {
                bottom: 9,
                top: 11,
                base: 11,
                walkable: true,
                sliver: false,
                not_floor: false,
                lip: false,
            },
            2,
        );
        assert_eq!(
            spans,
            vec![Span {
                bottom: 0,
                top: 11,
                base: 11,
                walkable: true,
                sliver: false,
                not_floor: false,
                lip: false,
            }]
        );
    }
}
