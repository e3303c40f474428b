//! A hash grid over the plan (XY): the one spatial index every neighbourhood search of the
//! lint uses, so that each search looks at a few cells instead of the whole mesh.

use rustc_hash::FxHashMap;

/// Items (by index) filed under the plan cells they touch.
#[derive(Debug)]
pub struct Grid {
    cell: f64,
    cells: FxHashMap<(i64, i64), Vec<u32>>,
}

/// A box covering more cells than this is not filed cell by cell (the caller keeps it apart),
/// and a search over more cells than this (and than the grid has) walks the filled cells
/// instead: a face or edge thousands of times larger than the typical one (cell sizes come
/// from the median) then costs one pass over the grid, not millions of empty cells.
pub const MAX_CELLS_PER_BOX: i64 = 4096;

impl Grid {
    /// An empty grid of square cells `cell` wide (at least a micrometre).
    pub fn new(cell: f64) -> Grid {
        let cell = if cell.is_finite() && cell > 1e-6 {
            cell
        } else {
            1e-6
        };
        Grid {
            cell,
            cells: FxHashMap::default(),
        }
    }

    /// The cell index of a coordinate (saturating for huge or non-finite ones).
    fn key(&self, c: f64) -> i64 {
        (c / self.cell).floor() as i64
    }

    /// Files `item` under the cell of point (x, y).
    pub fn insert_point(&mut self, item: u32, x: f32, y: f32) {
        let key = (self.key(f64::from(x)), self.key(f64::from(y)));
        self.cells.entry(key).or_default().push(item);
    }

    /// The cell ranges a box covers, and how many cells that is (saturating).
    fn span(&self, min: [f32; 2], max: [f32; 2]) -> ((i64, i64), (i64, i64), i64) {
        let (x0, y0) = (self.key(f64::from(min[0])), self.key(f64::from(min[1])));
        let x1 = self.key(f64::from(max[0])).max(x0);
        let y1 = self.key(f64::from(max[1])).max(y0);
        let count = (x1.saturating_sub(x0).saturating_add(1))
            .saturating_mul(y1.saturating_sub(y0).saturating_add(1));
        ((x0, x1), (y0, y1), count)
    }

    /// Files `item` under every cell its plan box touches; false (nothing filed) when that is
    /// more than [`MAX_CELLS_PER_BOX`] cells.
    pub fn insert_box(&mut self, item: u32, min: [f32; 2], max: [f32; 2]) -> bool {
        let ((x0, x1), (y0, y1), count) = self.span(min, max);
        if count > MAX_CELLS_PER_BOX {
            return false;
        }
        for x in x0..=x1 {
            for y in y0..=y1 {
                self.cells.entry((x, y)).or_default().push(item);
            }
        }
        true
    }

    /// Every item filed in a cell the box touches (an item may come more than once).
    pub fn visit_box(&self, min: [f32; 2], max: [f32; 2], mut visit: impl FnMut(u32)) {
        let ((x0, x1), (y0, y1), count) = self.span(min, max);
        if count > MAX_CELLS_PER_BOX.max(self.cells.len() as i64) {
            for (&(x, y), items) in &self.cells {
                if (x0..=x1).contains(&x) && (y0..=y1).contains(&y) {
                    items.iter().for_each(|&i| visit(i));
                }
            }
            return;
        }
        for x in x0..=x1 {
            for y in y0..=y1 {
                if let Some(items) = self.cells.get(&(x, y)) {
                    items.iter().for_each(|&i| visit(i));
                }
            }
        }
    }

    /// Every item filed in a cell that the square of half-width `radius` around (x, y) touches.
    pub fn visit_near(&self, x: f32, y: f32, radius: f32, visit: impl FnMut(u32)) {
        self.visit_box([x - radius, y - radius], [x + radius, y + radius], visit);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn visited(grid: &Grid, min: [f32; 2], max: [f32; 2]) -> Vec<u32> {
        let mut found = Vec::new();
        grid.visit_box(min, max, |i| found.push(i));
        found.sort_unstable();
        found.dedup();
        found
    }

    #[test]
    fn boxes_find_what_they_touch_and_huge_ones_are_refused() {
        let mut grid = Grid::new(1.0);
        assert!(grid.insert_box(0, [0.0, 0.0], [0.5, 0.5]));
        assert!(grid.insert_box(1, [3.0, 3.0], [4.5, 3.5]));
        grid.insert_point(2, 10.0, 10.0);
        assert_eq!(visited(&grid, [0.2, 0.2], [3.1, 3.1]), vec![0, 1]);
        assert_eq!(visited(&grid, [9.5, 9.5], [9.9, 9.9]), Vec::<u32>::new());
        // A box of a million cells is not filed; a search that wide walks the filled cells.
        assert!(!grid.insert_box(3, [0.0, 0.0], [1000.0, 1000.0]));
        assert_eq!(visited(&grid, [-1e6, -1e6], [1e6, 1e6]), vec![0, 1, 2]);
        // Non-finite coordinates saturate instead of overflowing.
        assert!(!grid.insert_box(4, [f32::NEG_INFINITY, 0.0], [f32::INFINITY, 1.0]));
        assert_eq!(
            visited(&grid, [f32::NAN, f32::NAN], [f32::INFINITY, f32::INFINITY]).len(),
            3
        );
    }
}
