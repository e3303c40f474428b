//! The object on a plan grid: what each column holds within the agent's height above the
//! ground, which walkable tops a character reaches from the ground around the object, and the
//! agent's radius around what it cannot reach.

use std::collections::{BTreeSet, VecDeque};

use walkmesh_core::NavMesh;

use crate::{GenerateError, Params};

/// Most columns a placeable's grid may have (2,048 × 2,048 at the finest cell): an object
/// larger than that is a room, not a placeable.
const MAX_COLUMNS: u64 = 4 << 20;

/// A source triangle in model coordinates with the index of the node that made it.
#[derive(Clone, Copy, Debug)]
pub struct Triangle {
    pub corners: [[f64; 3]; 3],
    pub polygon: usize,
}

/// Something solid in a column: one height (a face over the column's centre) or a range (an
/// upright face passing through the column).
#[derive(Clone, Copy, Debug)]
struct Solid {
    low: f64,
    high: f64,
    /// An upward face no steeper than the slope limit (something one may stand on).
    walkable: bool,
}

/// What one column is, once classified.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    /// Nothing within the agent's height above the ground.
    Ground,
    /// A walkable top at this height with the agent's clearance above it.
    Top(f64),
    /// Solid within the agent's height and nothing to stand on.
    Blocked,
}

/// The plan grid: `width` × `height` columns of `cell` metres from `origin`.
#[derive(Clone, Debug)]
pub struct Grid {
    pub origin: [f64; 2],
    pub cell: f64,
    pub width: usize,
    pub height: usize,
    pub ground: f64,
    pub cells: Vec<Cell>,
    /// Faces (input polygon indices) that put something solid under the agent's head.
    pub blocking_polygons: BTreeSet<usize>,
}

/// Every finite triangle of `mesh` (polygons fanned), with its polygon index.
pub fn triangles(mesh: &NavMesh) -> Vec<Triangle> {
    let mut out = Vec::new();
    for (p, corners) in mesh.polygons.iter().enumerate() {
        let points: Vec<[f64; 3]> = corners
            .iter()
            .map(|&i| mesh.vertex(i).map(f64::from))
            .collect();
        let Some((&first, rest)) = points.split_first() else {
            continue;
        };
        for pair in rest.windows(2) {
            let (Some(&b), Some(&c)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let corners = [first, b, c];
            if corners.iter().flatten().all(|v| v.is_finite()) {
                out.push(Triangle {
                    corners,
                    polygon: p,
                });
            }
        }
    }
    out
}

impl Grid {
    /// The grid around `triangles`, with room for the agent's radius and a ring of free
    /// ground on every side; lines on whole multiples of the cell size, so an object modelled
    /// on a grid of that size is outlined exactly.
    pub fn build(triangles: &[Triangle], params: &Params) -> Result<Grid, GenerateError> {
        let cell = f64::from(params.cell_size);
        let mut low = [f64::INFINITY; 3];
        let mut high = [f64::NEG_INFINITY; 3];
        for point in triangles.iter().flat_map(|t| t.corners.iter()) {
            for axis in 0..3 {
                low[axis] = low[axis].min(point[axis]);
                high[axis] = high[axis].max(point[axis]);
            }
        }
        let pad = (f64::from(params.agent_radius) / cell).ceil() + 2.0;
        let first = [(low[0] / cell).floor() - pad, (low[1] / cell).floor() - pad];
        let last = [(high[0] / cell).ceil() + pad, (high[1] / cell).ceil() + pad];
        let width = last[0] - first[0];
        let height = last[1] - first[1];
        let columns = width * height;
        if !(columns.is_finite() && columns <= MAX_COLUMNS as f64) {
            return Err(GenerateError::GridTooLarge {
                columns: columns.min(u64::MAX as f64) as u64,
                width: width.min(u64::MAX as f64) as u64,
                height: height.min(u64::MAX as f64) as u64,
                limit: MAX_COLUMNS,
            });
        }
        let (width, height) = (width as usize, height as usize);
        // Per column: its class, and while rasterising a list of what stands in it (the list
        // header, and on average a few entries).
        let per_column = (std::mem::size_of::<Cell>() + std::mem::size_of::<Vec<Solid>>()) as u64
            + 4 * std::mem::size_of::<Solid>() as u64;
        let mut budget = crate::budget::Budget::new(params.max_memory_mib);
        budget.claim(
            "the placeable's columns",
            (width as u64 * height as u64).saturating_mul(per_column),
        )?;
        let mut grid = Grid {
            origin: [first[0] * cell, first[1] * cell],
            cell,
            width,
            height,
            ground: ground_height(low[2], high[2]),
            cells: vec![Cell::Ground; width * height],
            blocking_polygons: BTreeSet::new(),
        };
        let columns = grid.rasterise(triangles, params);
        grid.classify(&columns, params);
        Ok(grid)
    }

    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The plan centre of column (x, y).
    pub fn centre(&self, x: usize, y: usize) -> [f64; 2] {
        [
            self.origin[0] + (x as f64 + 0.5) * self.cell,
            self.origin[1] + (y as f64 + 0.5) * self.cell,
        ]
    }

    /// The columns (x, y) whose centres fall within `lo`..`hi` (plan), clamped to the grid.
    fn span(&self, lo: [f64; 2], hi: [f64; 2]) -> ([usize; 2], [usize; 2]) {
        let first = |v: f64, o: f64, n: usize| {
            (((v - o) / self.cell - 0.5).ceil().max(0.0) as usize).min(n)
        };
        let last = |v: f64, o: f64, n: usize| {
            ((((v - o) / self.cell - 0.5).floor() + 1.0).max(0.0) as usize).min(n)
        };
        (
            [
                first(lo[0], self.origin[0], self.width),
                first(lo[1], self.origin[1], self.height),
            ],
            [
                last(hi[0], self.origin[0], self.width),
                last(hi[1], self.origin[1], self.height),
            ],
        )
    }

    /// What every column holds: the height of each face over its centre, and the height range
    /// of each upright face passing within half a cell of it.
    fn rasterise(&mut self, triangles: &[Triangle], params: &Params) -> Vec<Vec<Solid>> {
        let mut columns = vec![Vec::new(); self.width * self.height];
        let flat = f64::from(params.max_slope).to_radians().cos();
        let head = self.ground + f64::from(params.agent_height);
        for t in triangles {
            let [a, b, c] = t.corners;
            let normal = cross(sub(b, a), sub(c, a));
            let length = (normal[0].powi(2) + normal[1].powi(2) + normal[2].powi(2)).sqrt();
            if length.is_nan() || length <= 0.0 {
                continue;
            }
            if normal[2].abs() / length > 1e-3 {
                let walkable = normal[2] / length >= flat;
                self.cover(&mut columns, t, walkable, head);
            } else {
                self.pass_through(&mut columns, t, head);
            }
        }
        columns
    }

    /// A face with plan area: its height at every column centre it covers.
    fn cover(&mut self, columns: &mut [Vec<Solid>], t: &Triangle, walkable: bool, head: f64) {
        let [a, b, c] = t.corners;
        let lo = [a[0].min(b[0]).min(c[0]), a[1].min(b[1]).min(c[1])];
        let hi = [a[0].max(b[0]).max(c[0]), a[1].max(b[1]).max(c[1])];
        let ([x0, y0], [x1, y1]) = self.span(lo, hi);
        for y in y0..y1 {
            for x in x0..x1 {
                let p = self.centre(x, y);
                let Some(z) = height_over(&t.corners, p) else {
                    continue;
                };
                if z < head {
                    self.blocking_polygons.insert(t.polygon);
                }
                if let Some(column) = columns.get_mut(self.index(x, y)) {
                    column.push(Solid {
                        low: z,
                        high: z,
                        walkable,
                    });
                }
            }
        }
    }

    /// An upright face: its height range in every column whose centre is within (strictly
    /// less than) half a cell of its plan line, so a face lying on a grid line marks neither
    /// side (a closed object's top or bottom covers its columns).
    fn pass_through(&mut self, columns: &mut [Vec<Solid>], t: &Triangle, head: f64) {
        let [a, b] = farthest_plan_pair(&t.corners);
        let low = t.corners.iter().map(|p| p[2]).fold(f64::INFINITY, f64::min);
        let high = t
            .corners
            .iter()
            .map(|p| p[2])
            .fold(f64::NEG_INFINITY, f64::max);
        let reach = 0.5 * self.cell * 0.999;
        let lo = [a[0].min(b[0]) - reach, a[1].min(b[1]) - reach];
        let hi = [a[0].max(b[0]) + reach, a[1].max(b[1]) + reach];
        let ([x0, y0], [x1, y1]) = self.span(lo, hi);
        for y in y0..y1 {
            for x in x0..x1 {
                if segment_distance(self.centre(x, y), a, b) >= reach {
                    continue;
                }
                if low < head {
                    self.blocking_polygons.insert(t.polygon);
                }
                if let Some(column) = columns.get_mut(self.index(x, y)) {
                    column.push(Solid {
                        low,
                        high,
                        walkable: false,
                    });
                }
            }
        }
    }

    fn classify(&mut self, columns: &[Vec<Solid>], params: &Params) {
        for (cell, column) in self.cells.iter_mut().zip(columns) {
            *cell = classify_column(column, self.ground, params);
        }
    }

    /// The walking level of a cell a character may stand in.
    fn level(&self, cell: Cell) -> Option<f64> {
        match cell {
            Cell::Ground => Some(self.ground),
            Cell::Top(z) => Some(z),
            Cell::Blocked => None,
        }
    }

    /// The cells a character walking in from outside the grid reaches: from the border
    /// (free ground, by the padding), to the four neighbours, a step of at most a climb.
    pub fn reachable(&self, params: &Params) -> Vec<bool> {
        let climb = f64::from(params.max_climb) + 1e-6;
        let mut seen = vec![false; self.cells.len()];
        let mut queue = VecDeque::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let border = x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height;
                let i = self.index(x, y);
                if border && self.cells.get(i) == Some(&Cell::Ground) {
                    seen[i] = true;
                    queue.push_back((x, y));
                }
            }
        }
        while let Some((x, y)) = queue.pop_front() {
            let Some(from) = self
                .cells
                .get(self.index(x, y))
                .and_then(|&c| self.level(c))
            else {
                continue;
            };
            for (nx, ny) in self.neighbours(x, y) {
                let n = self.index(nx, ny);
                let Some(to) = self.cells.get(n).and_then(|&c| self.level(c)) else {
                    continue;
                };
                if !seen[n] && (to - from).abs() <= climb {
                    seen[n] = true;
                    queue.push_back((nx, ny));
                }
            }
        }
        seen
    }

    fn neighbours(&self, x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
        let (w, h) = (self.width, self.height);
        [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(move |(dx, dy)| {
                let nx = usize::try_from(x as i64 + dx).ok()?;
                let ny = usize::try_from(y as i64 + dy).ok()?;
                (nx < w && ny < h).then_some((nx, ny))
            })
    }

    /// Everything a character cannot reach becomes blocked: enclosed ground (inside a closed
    /// ring) and tops beyond a climb.
    pub fn block_unreached(&mut self, params: &Params) {
        let reached = self.reachable(params);
        for (cell, reached) in self.cells.iter_mut().zip(reached) {
            if !reached {
                *cell = Cell::Blocked;
            }
        }
    }

    /// Ground within `agent_radius` of an obstacle column (plan distance between the columns'
    /// centres less than the radius and half a cell: the obstacle's column reaches half a cell
    /// beyond its centre; measured to its square instead, the square's corners would push the
    /// outline out on diagonals) becomes blocked: where
    /// the centre of a character of that radius cannot stand. Obstacles are the blocked
    /// columns and the tops more than a climb above the ground (a platform's side is a wall
    /// to a character beside it; the steps up to it are not).
    pub fn grow_by_radius(&mut self, params: &Params) {
        let radius = f64::from(params.agent_radius);
        if radius <= 0.0 {
            return;
        }
        let reach = (radius / self.cell).ceil() as i64 + 1;
        let wall = self.ground + f64::from(params.max_climb) + 1e-6;
        let mut grown = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let obstacle = match self.cells.get(self.index(x, y)) {
                    Some(Cell::Blocked) => true,
                    Some(&Cell::Top(z)) => z > wall,
                    _ => false,
                };
                if obstacle {
                    self.ground_near(x, y, reach, radius, &mut grown);
                }
            }
        }
        for i in grown {
            if let Some(cell) = self.cells.get_mut(i) {
                *cell = Cell::Blocked;
            }
        }
    }

    fn ground_near(&self, x: usize, y: usize, reach: i64, radius: f64, out: &mut Vec<usize>) {
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let (Ok(nx), Ok(ny)) = (
                    usize::try_from(x as i64 + dx),
                    usize::try_from(y as i64 + dy),
                ) else {
                    continue;
                };
                if nx >= self.width || ny >= self.height {
                    continue;
                }
                let distance = (dx as f64 * self.cell).hypot(dy as f64 * self.cell);
                let n = self.index(nx, ny);
                if distance < radius + 0.5 * self.cell - 1e-9
                    && self.cells.get(n) == Some(&Cell::Ground)
                {
                    out.push(n);
                }
            }
        }
    }
}

/// The height of the ground the object stands on: its origin's (0) when the model reaches
/// from below it to above it (the game stands a placeable on its origin; a part below it is
/// sunk in the floor), else the model's lowest point (an object modelled off its origin).
fn ground_height(lowest: f64, highest: f64) -> f64 {
    if lowest <= 0.0 && highest >= 0.0 {
        0.0
    } else {
        lowest
    }
}

/// Ground, a top (the highest walkable face under the agent's head with the agent's
/// clearance above it, more than a cell height over the ground: a rug is ground) or blocked.
fn classify_column(column: &[Solid], ground: f64, params: &Params) -> Cell {
    let height = f64::from(params.agent_height);
    let tolerance = f64::from(params.cell_height);
    // What lies wholly under the ground is sunk in the floor.
    let column: Vec<Solid> = column
        .iter()
        .filter(|s| s.high >= ground - tolerance)
        .copied()
        .collect();
    if column.iter().all(|s| s.low >= ground + height) {
        return Cell::Ground;
    }
    let mut tops: Vec<f64> = column
        .iter()
        .filter(|s| s.walkable && s.high < ground + height)
        .map(|s| s.high)
        .collect();
    tops.sort_by(|a, b| b.total_cmp(a));
    for top in tops {
        let clear = column
            .iter()
            .all(|s| s.high <= top + tolerance || s.low >= top + height);
        if clear {
            return if top - ground <= tolerance {
                Cell::Ground
            } else {
                Cell::Top(top)
            };
        }
    }
    Cell::Blocked
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The triangle's height over plan point `p`, `None` when `p` is outside it in plan.
fn height_over(t: &[[f64; 3]; 3], p: [f64; 2]) -> Option<f64> {
    let [a, b, c] = *t;
    let det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if det == 0.0 {
        return None;
    }
    let u = ((p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])) / det;
    let v = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / det;
    let eps = 1e-9;
    (u >= -eps && v >= -eps && u + v <= 1.0 + eps)
        .then(|| a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]))
}

/// The two corners farthest apart in plan: an upright face's plan line.
fn farthest_plan_pair(t: &[[f64; 3]; 3]) -> [[f64; 2]; 2] {
    let [a, b, c] = t.map(|p| [p[0], p[1]]);
    let d = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
    let pairs = [(d(a, b), [a, b]), (d(b, c), [b, c]), (d(a, c), [a, c])];
    pairs
        .into_iter()
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map_or([a, b], |(_, pair)| pair)
}

fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let ab = [b[0] - a[0], b[1] - a[1]];
    let length = ab[0] * ab[0] + ab[1] * ab[1];
    let t = if length > 0.0 {
        (((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * ab[0]).hypot(p[1] - a[1] - t * ab[1])
}
