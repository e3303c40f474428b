//! The floor a character starts from when no seed is given: of the connected walkable pieces,
//! the one a modeller means as the room's floor, by rules a modeller would name:
//!
//! 1. **no water**: a piece whose surface is mostly a render material named as no floor
//!    (`Params::not_floor`: water, lava, sky, void) is not a start while another piece is (a
//!    shore parts such a surface from the floor beside it: `Graph::same_kind`);
//! 2. **under cover**: of the pieces at least a quarter the size of the largest left, those
//!    under something (a ceiling, a roof) beat those open to the sky, so a roof slab over a
//!    room is not taken for its floor;
//! 3. **ground**: of those, pieces whose edges do not drop onto other floor beat raised ones:
//!    a table top, a bed, a platform, whose edges drop by more than a climb and at most the
//!    agent's height (a deeper drop is another level of the room: a walkway over a lower
//!    floor is not furniture);
//! 4. **largest**: the largest piece left.
//!
//! A start given by the caller (`--seed`, a layout's door hooks) always wins over these. The
//! report names the rule that decided and the larger pieces passed over.

use crate::Params;
use crate::graph::{DIRECTIONS, Graph, StartChoice};
use crate::report::{PassedOver, StartReport};
use crate::voxel::Heightfield;

/// A share of a piece's cells above which it counts as that kind (not floor, open to the sky,
/// raised).
const MOSTLY: f64 = 0.5;
/// Pieces smaller than this share of the largest left are not weighed by the cover and ground
/// rules: a small covered alcove does not beat a courtyard.
const SUBSTANTIAL: f64 = 0.25;

/// The start among the components `id` labels (`sizes` cells each): the chooser
/// `graph::reachability` is given when no seed lies on a floor.
pub fn choose_start(
    graph: &Graph,
    field: &Heightfield,
    id: &[u32],
    sizes: &[usize],
    params: &Params,
) -> Option<StartChoice> {
    choose(
        &pieces(graph, field, id, sizes, params),
        params,
        field.cell_size,
    )
}

/// What the rules weigh of one connected piece.
#[derive(Clone, Debug, Default)]
pub struct Piece {
    pub component: usize,
    pub cells: usize,
    not_floor: usize,
    open_sky: usize,
    /// Cell sides on the piece's edge, and those that drop onto lower floor beyond.
    edge_sides: usize,
    drops: usize,
    centre_sum: [f64; 3],
}

impl Piece {
    fn share(&self, count: usize) -> f64 {
        count as f64 / self.cells.max(1) as f64
    }
    fn not_floor(&self) -> bool {
        self.share(self.not_floor) > MOSTLY
    }
    fn open(&self) -> bool {
        self.share(self.open_sky) > MOSTLY
    }
    fn raised(&self) -> bool {
        self.drops as f64 > MOSTLY * self.edge_sides.max(1) as f64
    }
    fn centre(&self) -> [f32; 3] {
        let n = self.cells.max(1) as f64;
        self.centre_sum.map(|c| (c / n) as f32)
    }
}

/// The pieces of `id` (a component per node, `u32::MAX` for none; `sizes` cells each).
pub fn pieces(
    graph: &Graph,
    field: &Heightfield,
    id: &[u32],
    sizes: &[usize],
    params: &Params,
) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = (0..sizes.len())
        .map(|component| Piece {
            component,
            ..Piece::default()
        })
        .collect();
    let climb = params.climb_cells();
    for (n, node) in graph.nodes.iter().enumerate() {
        let Some(piece) = id.get(n).and_then(|&c| pieces.get_mut(c as usize)) else {
            continue;
        };
        piece.cells += 1;
        piece.not_floor += usize::from(node.not_floor());
        piece.open_sky += usize::from(node.ceiling == i32::MAX);
        let (x, y) = graph.cell(node);
        let centre = [
            field.origin[0] + (x as f32 + 0.5) * field.cell_size,
            field.origin[1] + (y as f32 + 0.5) * field.cell_size,
            field.z(node.floor),
        ];
        for (sum, c) in piece.centre_sum.iter_mut().zip(centre) {
            *sum += f64::from(c);
        }
        for (d, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            let inside = graph
                .neighbour(n, d)
                .is_some_and(|m| id.get(m) == id.get(n));
            if inside {
                continue;
            }
            piece.edge_sides += 1;
            let heights = (climb, params.height_cells());
            piece.drops += usize::from(drops_beyond(graph, field, node, (dx, dy), heights));
        }
    }
    pieces
}

/// How far past a piece's edge a lower floor is looked for (cells): the side of a table or a
/// slab takes a column or two of its own before the floor beside it shows.
const DROP_REACH: i64 = 3;

/// Whether the floor drops past `node`'s side `(dx, dy)` as from furniture: a walkable cell
/// more than a climb and at most the agent's height lower, within [`DROP_REACH`] cells out. A
/// deeper drop is another level of the room (a walkway over a lower floor, as in K2's
/// `351narh`, whose floor is the upper one), not a table beside the floor.
fn drops_beyond(
    graph: &Graph,
    field: &Heightfield,
    node: &crate::graph::Node,
    (dx, dy): (i64, i64),
    (climb, agent): (i32, i32),
) -> bool {
    (1..=DROP_REACH).any(|k| {
        let (x, y) = graph.cell_at(node);
        let column = field.column(x + k * dx, y + k * dy);
        column.is_some_and(|column| {
            graph.column_nodes(column).any(|m| {
                graph
                    .nodes
                    .get(m)
                    .is_some_and(|o| o.floor < node.floor - climb && o.floor >= node.floor - agent)
            })
        })
    })
}

/// One rule: which pieces of the pool it keeps, and what it says of those it drops.
struct Rule {
    name: &'static str,
    keeps: fn(&Piece) -> bool,
    dropped: &'static str,
    /// Only pieces at least [`SUBSTANTIAL`] of the largest are weighed.
    substantial_only: bool,
}

const RULES: [Rule; 3] = [
    Rule {
        name: "no-water",
        keeps: |p| !p.not_floor(),
        dropped: "not floor (water, lava, sky or void)",
        substantial_only: false,
    },
    Rule {
        name: "under-cover",
        keeps: |p| !p.open(),
        dropped: "open to the sky",
        substantial_only: true,
    },
    Rule {
        name: "ground",
        keeps: |p| !p.raised(),
        dropped: "raised above other floor",
        substantial_only: true,
    },
];

/// The start among `pieces` (those under `min_region_area` only when no piece is larger).
pub fn choose(pieces: &[Piece], params: &Params, cell_size: f32) -> Option<StartChoice> {
    let cell_area = f64::from(cell_size) * f64::from(cell_size);
    let big_enough = |p: &&Piece| p.cells as f64 * cell_area >= f64::from(params.min_region_area);
    let mut pool: Vec<&Piece> = pieces.iter().filter(big_enough).collect();
    if pool.is_empty() {
        pool = pieces.iter().filter(|p| p.cells > 0).collect();
    }
    let largest = |pool: &[&Piece]| pool.iter().max_by_key(|p| p.cells).map(|p| p.component);
    let mut best = largest(&pool)?;
    let mut rule = "largest";
    let mut passed_over = Vec::new();
    for r in &RULES {
        let most = pool.iter().map(|p| p.cells).max().unwrap_or(0) as f64;
        let weighed = |p: &&&Piece| !r.substantial_only || p.cells as f64 >= SUBSTANTIAL * most;
        let kept: Vec<&Piece> = pool
            .iter()
            .filter(weighed)
            .filter(|p| (r.keeps)(p))
            .copied()
            .collect();
        if kept.is_empty() || kept.len() == pool.len() {
            continue;
        }
        let start = largest(&kept)?;
        let start_cells = pieces.get(start).map_or(0, |p| p.cells);
        for p in pool
            .iter()
            .filter(|p| !(r.keeps)(p) && p.cells > start_cells)
        {
            passed_over.push(PassedOver {
                area: p.cells as f64 * cell_area,
                centre: p.centre(),
                why: r.dropped,
            });
        }
        if start != best {
            rule = r.name;
            best = start;
        }
        pool = kept;
    }
    Some(StartChoice {
        component: best,
        report: StartReport { rule, passed_over },
    })
}
