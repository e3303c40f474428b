//! A hash grid over the plan (XY): the one spatial index every neighbourhood search of the
//! lint uses, so that each search looks at a few cells instead of the whole mesh.

use rustc_hash::FxHashMap;

/// Items (by index) filed under the plan cells they touch.
#[derive(Debug)]
pub struct Grid {
    cell: f64,
    cells: FxHashMap<(i64, i64), Vec<u32>>,
}

/// A box is filed in at most this many cells per axis (from its low corner). Cell sizes come
/// from the typical face, so only a face thousands of times larger than the rest reaches
/// this; the cap bounds the work a hostile file can cause.
const MAX_CELLS_PER_AXIS: i64 = 4096;

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

    fn key(&self, c: f64) -> i64 {
        (c / self.cell).floor() as i64
    }

    /// Files `item` under the cell of point (x, y).
    pub fn insert_point(&mut self, item: u32, x: f32, y: f32) {
        let key = (self.key(f64::from(x)), self.key(f64::from(y)));
        self.cells.entry(key).or_default().push(item);
    }

    /// The cell ranges a box covers (clamped so that a huge box cannot loop for ever).
    fn span(&self, min: [f32; 2], max: [f32; 2]) -> ((i64, i64), (i64, i64)) {
        let (x0, y0) = (self.key(f64::from(min[0])), self.key(f64::from(min[1])));
        let x1 = self
            .key(f64::from(max[0]))
            .clamp(x0, x0 + MAX_CELLS_PER_AXIS);
        let y1 = self
            .key(f64::from(max[1]))
            .clamp(y0, y0 + MAX_CELLS_PER_AXIS);
        ((x0, x1), (y0, y1))
    }

    /// Files `item` under every cell its plan box touches.
    pub fn insert_box(&mut self, item: u32, min: [f32; 2], max: [f32; 2]) {
        let ((x0, x1), (y0, y1)) = self.span(min, max);
        for x in x0..=x1 {
            for y in y0..=y1 {
                self.cells.entry((x, y)).or_default().push(item);
            }
        }
    }

    /// Every item filed in a cell the box touches (an item may come more than once).
    pub fn visit_box(&self, min: [f32; 2], max: [f32; 2], mut visit: impl FnMut(u32)) {
        let ((x0, x1), (y0, y1)) = self.span(min, max);
        for x in x0..=x1 {
            for y in y0..=y1 {
                if let Some(items) = self.cells.get(&(x, y)) {
                    items.iter().for_each(|&i| visit(i));
                }
            }
        }
    }

    /// Every item within `radius` (in cells: those the square of half-width `radius` touches).
    pub fn visit_near(&self, x: f32, y: f32, radius: f32, visit: impl FnMut(u32)) {
        self.visit_box([x - radius, y - radius], [x + radius, y + radius], visit);
    }
}
