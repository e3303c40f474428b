//! The walkable graph: walkable spans (nodes) joined to their plan neighbours, erosion,
//! components, reachability from seeds, and the split into single-floor layers.

use std::collections::VecDeque;

use crate::budget::{Budget, bytes_of};
use crate::report::{ComponentReport, Report};
use crate::voxel::Heightfield;
use crate::{GenerateError, Params};

/// No node (a layer's grid cell without one).
pub const NONE: u32 = u32::MAX;

/// No neighbour in that direction (a [`Node`]'s link).
const NO_LINK: u8 = u8::MAX;

/// The most walkable spans one column may hold: a link names its neighbour by its place among
/// the neighbour column's nodes in one byte, [`NO_LINK`] reserved.
pub const MAX_COLUMN_NODES: usize = NO_LINK as usize;

/// [`Node`] flags.
const REMOVED: u8 = 1;
const NOT_FLOOR: u8 = 2;

/// Plan steps of the four directions: −x, +y, +x, −y.
pub const DIRECTIONS: [(i64, i64); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// One walkable span, in 24 bytes: a 1M-triangle terrain has 12.3 million of them, so its
/// links are places in the neighbour columns, as Recast keeps them, not node indices, and its
/// cell is its column (issue #48).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Its column, `y · width + x` ([`Graph::cell`]).
    pub column: u32,
    /// Floor level (the span's top) and the level of the solid above (i32::MAX: open sky).
    pub floor: i32,
    pub ceiling: i32,
    /// The level a character steps up from to stand here (the floor, or a riser's base: see
    /// [`crate::voxel::Span::base`]).
    pub base: i32,
    /// Per direction in [`DIRECTIONS`] order, the neighbour's place among its column's nodes
    /// ([`Graph::neighbour`]), or [`NO_LINK`].
    links: [u8; 4],
    /// [`REMOVED`], [`NOT_FLOOR`].
    flags: u8,
}

impl Node {
    /// Removed by erosion.
    pub fn removed(&self) -> bool {
        self.flags & REMOVED != 0
    }

    /// Its top is a surface no character starts from (`voxel::Span::not_floor`).
    pub fn not_floor(&self) -> bool {
        self.flags & NOT_FLOOR != 0
    }
}

/// How far a node lies from the floor's edge, told apart at a number of steps
/// ([`Graph::edge_distance`]): all that erosion and the openings ask of the distance, in a
/// byte per node where the distance took four (issue #48).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeDistance {
    /// Not reached from the edge: a removed node, or a live one no flood path leads to.
    Unreached,
    /// Fewer steps from the edge than asked.
    Near,
    /// At least the steps asked.
    Far,
}

#[derive(Clone, Debug)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// CSR by column: column c's nodes are `starts[c]..starts[c + 1]`.
    pub starts: Vec<u32>,
    /// The grid's width: a node's column gives its cell and its neighbours' columns.
    width: u32,
}

/// Bytes per walkable span claimed for the stages from the graph to the triangulation: the
/// node itself (24) and the per-node working arrays alive beside it at the busiest stage
/// (reachability: the edge distance and the openings' flags, a byte each; component ids, 4;
/// the growth's u32 frontiers, up to 8; the layer split's node layers and members, 8), with
/// room for the outlines' and triangulation's scratch, which follow the kept floor's
/// boundary. Measured: the 1M-triangle bench terrain at 0.1 m cells peaks at 0.71 of the
/// whole estimate (`docs/generate.md`, "Speed and memory").
const BYTES_PER_NODE: u64 = 64;
/// Bytes per grid column from the graph on: the graph's column starts and the layer split's
/// column owners.
const BYTES_PER_COLUMN: u64 = 4 + 8;

impl Graph {
    /// What [`Graph::build`] and the stages up to the triangulation allocate for `field`,
    /// before the layers' own grids (claimed in [`layers`]).
    pub fn bytes_for(field: &Heightfield) -> u64 {
        let nodes = walkable_spans(field) as u64;
        let columns = field.column_count() as u64 + 1;
        nodes
            .saturating_mul(BYTES_PER_NODE)
            .saturating_add(columns.saturating_mul(BYTES_PER_COLUMN))
    }

    /// The walkable spans of `field`, linked. Refuses a column of more walkable spans than a
    /// link can name ([`MAX_COLUMN_NODES`]) and a grid whose columns a u32 cannot number.
    pub fn build(field: &Heightfield, params: &Params) -> Result<Graph, GenerateError> {
        let columns = field.column_count();
        let width = u32::try_from(field.width)
            .ok()
            .filter(|_| u32::try_from(columns).is_ok())
            .ok_or_else(|| GenerateError::OutOfRange {
                why: format!("the voxel grid's {columns} columns do not fit 32 bits"),
            })?;
        let mut nodes = Vec::with_capacity(walkable_spans(field));
        let mut starts = Vec::with_capacity(columns + 1);
        for c in 0..columns {
            starts.push(nodes.len() as u32);
            let spans = field.spans(c).unwrap_or(&[]);
            push_column_nodes(&mut nodes, c as u32, spans);
            let deep = nodes
                .len()
                .saturating_sub(starts.last().map_or(0, |&s| s as usize));
            if deep > MAX_COLUMN_NODES {
                return Err(GenerateError::ColumnTooDeep {
                    x: c % field.width.max(1),
                    y: c / field.width.max(1),
                    floors: deep,
                    limit: MAX_COLUMN_NODES,
                });
            }
        }
        starts.push(nodes.len() as u32);
        let mut graph = Graph {
            nodes,
            starts,
            width,
        };
        graph.link(field, params);
        Ok(graph)
    }

    /// The cell (x, y) of a node.
    pub fn cell(&self, node: &Node) -> (u32, u32) {
        let width = self.width.max(1);
        (node.column % width, node.column / width)
    }

    /// [`Graph::cell`] widened, for offsetting.
    pub fn cell_at(&self, node: &Node) -> (i64, i64) {
        let (x, y) = self.cell(node);
        (i64::from(x), i64::from(y))
    }

    /// The node linked to node `n` in `direction` (an index of [`DIRECTIONS`]), removed or
    /// not.
    pub fn neighbour(&self, n: usize, direction: usize) -> Option<usize> {
        let node = self.nodes.get(n)?;
        let place = node
            .links
            .get(direction)
            .copied()
            .filter(|&p| p != NO_LINK)?;
        let column = neighbour_column(node.column, self.width, direction)?;
        let start = self.starts.get(column as usize).copied()?;
        Some(start as usize + usize::from(place))
    }

    /// Nodes of a column.
    pub fn column_nodes(&self, column: usize) -> std::ops::Range<usize> {
        let s = self.starts.get(column).copied().unwrap_or(0) as usize;
        let e = self.starts.get(column + 1).copied().unwrap_or(0) as usize;
        s..e
    }

    fn link(&mut self, field: &Heightfield, params: &Params) {
        let climb = params.climb_cells();
        let agent = params.height_cells();
        for n in 0..self.nodes.len() {
            let Some(&node) = self.nodes.get(n) else {
                continue;
            };
            let (x, y) = self.cell_at(&node);
            let mut links = [NO_LINK; 4];
            for (d, (dx, dy)) in DIRECTIONS.iter().enumerate() {
                let Some(column) = field.column(x + dx, y + dy) else {
                    continue;
                };
                let mut best: Option<(i32, u8)> = None;
                // At most MAX_COLUMN_NODES nodes (checked in `build`): every place fits a byte
                // below NO_LINK.
                for (m, place) in self.column_nodes(column).zip(0..NO_LINK) {
                    let Some(other) = self.nodes.get(m) else {
                        continue;
                    };
                    // A riser is reached from its base and leads on to floors within a
                    // climb of that base: a steep face one cell wide is one step, not two
                    // (hall_6's bench fronts: floor 0.15 m, riser top 0.45 m, seat 0.55 m).
                    let step = (other.floor - node.floor)
                        .abs()
                        .max((other.floor - node.base).abs())
                        .max((node.floor - other.base).abs());
                    let room = other.ceiling.min(node.ceiling) - other.floor.max(node.floor);
                    if step <= climb && room >= agent && best.is_none_or(|(s, _)| step < s) {
                        best = Some((step, place));
                    }
                }
                if let (Some((_, place)), Some(link)) = (best, links.get_mut(d)) {
                    *link = place;
                }
            }
            if let Some(node) = self.nodes.get_mut(n) {
                node.links = links;
            }
        }
    }

    /// Live neighbours of node `n`.
    pub fn neighbours(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        (0..DIRECTIONS.len())
            .filter_map(move |d| self.neighbour(n, d))
            .filter(|&m| self.nodes.get(m).is_some_and(|node| !node.removed()))
    }

    /// Live nodes around `n`: its four neighbours and the diagonal ones reached through two
    /// links (so distances below are in squares, not diamonds).
    fn around(&self, n: usize) -> Around {
        let live = |m: &usize| self.nodes.get(*m).is_some_and(|node| !node.removed());
        // Each link looked up once: the floods ask this of every node.
        let first: [Option<usize>; 4] = std::array::from_fn(|d| self.neighbour(n, d));
        let mut out = Around::default();
        for m in first.iter().flatten().filter(|m| live(m)) {
            out.push(*m);
        }
        for (d, first) in first.into_iter().enumerate() {
            let second = first.and_then(|f| self.neighbour(f, (d + 1) % DIRECTIONS.len()));
            if let Some(second) = second.filter(live) {
                out.push(second);
            }
        }
        out
    }

    /// Steps (through links, in squares: [`Graph::around`]) from each live node to the floor's
    /// edge, 0 for a node with a missing or removed neighbour, told apart at `steps`. The
    /// flood goes level by level from the edge, so the level at which it first reaches a node
    /// is the node's distance; it stops at `steps`, and every live node it has not reached is
    /// `Far`: each piece of live floor has an edge (its node furthest along +x has no live
    /// neighbour that way) and the flood reaches every node of a piece from it, so those
    /// nodes lie at least `steps` away. Flooding on to the last node measured nothing more
    /// and was a sixth of a 1M-triangle run.
    pub fn edge_distance(&self, steps: i32) -> Vec<EdgeDistance> {
        let at = |level: i32| {
            if level < steps {
                EdgeDistance::Near
            } else {
                EdgeDistance::Far
            }
        };
        let mut distance = vec![EdgeDistance::Unreached; self.nodes.len()];
        let mut level_nodes = self.edge_nodes();
        for &n in &level_nodes {
            if let Some(d) = distance.get_mut(n as usize) {
                *d = at(0);
            }
        }
        let mut next = Vec::new();
        let mut level = 0i32;
        while !level_nodes.is_empty() && level.saturating_add(1) < steps {
            level = level.saturating_add(1);
            for &n in &level_nodes {
                for m in self.around(n as usize) {
                    if let Some(d) = distance.get_mut(m)
                        && *d == EdgeDistance::Unreached
                    {
                        *d = at(level);
                        next.push(m as u32);
                    }
                }
            }
            std::mem::swap(&mut level_nodes, &mut next);
            next.clear();
        }
        for (d, node) in distance.iter_mut().zip(&self.nodes) {
            if *d == EdgeDistance::Unreached && !node.removed() {
                *d = EdgeDistance::Far;
            }
        }
        distance
    }

    /// The live nodes with a missing or removed neighbour, as u32 (the column starts number
    /// the nodes so): the distance flood's first level.
    fn edge_nodes(&self) -> Vec<u32> {
        let edge = |(n, node): &(usize, &Node)| {
            !node.removed()
                && (node.links.contains(&NO_LINK) || self.neighbours(*n).count() < DIRECTIONS.len())
        };
        self.nodes
            .iter()
            .enumerate()
            .filter(edge)
            .map(|(n, _)| n as u32)
            .collect()
    }

    /// Removes the nodes closer than the agent's radius to the floor's edge.
    pub fn erode(&mut self, params: &Params, _field: &Heightfield) {
        let radius = params.radius_cells();
        if radius <= 0 {
            return;
        }
        let distance = self.edge_distance(radius);
        for (node, d) in self.nodes.iter_mut().zip(distance) {
            if d == EdgeDistance::Near {
                node.flags |= REMOVED;
            }
        }
    }

    /// Whether nodes `n` and `m` are floor of one kind: a shore between floor and a surface no
    /// character stands on (water, lava: `Node::not_floor`) parts two pieces, so a grass
    /// floor a step above a water plane is not one piece with it and the start rules keep
    /// the grass alone.
    fn same_kind(&self, n: usize, m: usize) -> bool {
        self.nodes.get(n).map(Node::not_floor) == self.nodes.get(m).map(Node::not_floor)
    }

    /// Connected components of the nodes `core` marks, over links between nodes of one kind
    /// ([`Graph::same_kind`]): a component id per node (u32::MAX for none) and the node count
    /// per component.
    pub fn components(&self, core: &[bool]) -> (Vec<u32>, Vec<usize>) {
        let mut id = vec![u32::MAX; self.nodes.len()];
        let mut sizes = Vec::new();
        let mut queue: Vec<u32> = Vec::new();
        for start in 0..self.nodes.len() {
            let live = core.get(start).copied().unwrap_or(false);
            if !live || id.get(start).is_some_and(|&c| c != u32::MAX) {
                continue;
            }
            let component = sizes.len() as u32;
            let mut size = 0;
            if let Some(slot) = id.get_mut(start) {
                *slot = component;
            }
            queue.push(start as u32);
            while let Some(n) = queue.pop() {
                let n = n as usize;
                size += 1;
                for m in self.neighbours(n) {
                    if let Some(slot) = id.get_mut(m)
                        && core.get(m).copied().unwrap_or(false)
                        && *slot == u32::MAX
                        && self.same_kind(n, m)
                    {
                        *slot = component;
                        queue.push(m as u32);
                    }
                }
            }
            sizes.push(size);
        }
        (id, sizes)
    }
}

/// The live nodes around one node (at most four neighbours and four diagonals), on the stack:
/// the distance and growth floods ask for them once per node, and a heap vector each time was
/// a tenth of a large scene's generation.
#[derive(Clone, Copy, Default)]
struct Around {
    nodes: [usize; 8],
    len: usize,
}

impl Around {
    fn push(&mut self, node: usize) {
        if let Some(slot) = self.nodes.get_mut(self.len) {
            *slot = node;
            self.len += 1;
        }
    }
}

impl IntoIterator for Around {
    type Item = usize;
    type IntoIter = std::iter::Take<std::array::IntoIter<usize, 8>>;

    fn into_iter(self) -> Self::IntoIter {
        self.nodes.into_iter().take(self.len)
    }
}

/// The start floor chosen when no seed lies on one: its component and what decided.
#[derive(Clone, Debug)]
pub struct StartChoice {
    pub component: usize,
    pub report: crate::report::StartReport,
}

/// Chooses the start among the components (`crate::start::choose_start`, handed in by the
/// pipeline so that the rules can read the graph without the graph knowing them).
pub type StartChooser = fn(&Graph, &Heightfield, &[u32], &[usize], &Params) -> Option<StartChoice>;

/// Half the passage width in cells, at most the grid's width plus its height: no node is
/// farther than that from the floor's edge, so a wider passage changes nothing, and the
/// margin growth below takes one round per cell of it.
fn passage_steps(params: &Params, field: &Heightfield) -> i32 {
    let across = i32::try_from(field.width.saturating_add(field.height)).unwrap_or(i32::MAX);
    params.passage_cells().min(across)
}

/// Appends the nodes of column `column`'s walkable spans, unlinked.
fn push_column_nodes(nodes: &mut Vec<Node>, column: u32, spans: &[crate::voxel::Span]) {
    for (i, span) in spans.iter().enumerate().filter(|(_, s)| s.walkable) {
        let ceiling = spans.get(i + 1).map_or(i32::MAX, |s| s.bottom);
        nodes.push(Node {
            column,
            floor: span.top,
            base: span.base,
            ceiling,
            links: [NO_LINK; 4],
            flags: if span.not_floor { NOT_FLOOR } else { 0 },
        });
    }
}

/// The column next to `column` in `direction` (an index of [`DIRECTIONS`]) on a grid
/// `width` wide; a link only leads into a column of the grid, so no bounds are checked here.
fn neighbour_column(column: u32, width: u32, direction: usize) -> Option<u32> {
    match direction {
        0 => column.checked_sub(1),
        1 => column.checked_add(width),
        2 => column.checked_add(1),
        3 => column.checked_sub(width),
        _ => None,
    }
}

/// Walkable spans of the field: the graph's node count.
fn walkable_spans(field: &Heightfield) -> usize {
    field.all_spans().iter().filter(|s| s.walkable).count()
}

/// The node under a seed point: in the seed's column (or the nearest column with floor within
/// two cells), the highest floor at most a climb above the seed, else the nearest.
fn node_under(
    graph: &Graph,
    field: &Heightfield,
    seed: [f32; 3],
    params: &Params,
) -> Option<usize> {
    let cx = ((seed[0] - field.origin[0]) / field.cell_size).floor() as i64;
    let cy = ((seed[1] - field.origin[1]) / field.cell_size).floor() as i64;
    let level = (seed[2] - field.origin[2]) / field.cell_height;
    let reach = level + params.climb_cells() as f32 + 1.0;
    let mut best: Option<(f32, usize)> = None;
    for dy in -2..=2i64 {
        for dx in -2..=2i64 {
            let Some(column) = field.column(cx + dx, cy + dy) else {
                continue;
            };
            for n in graph.column_nodes(column) {
                let Some(node) = graph.nodes.get(n).filter(|n| !n.removed()) else {
                    continue;
                };
                let floor = node.floor as f32;
                let below = if floor <= reach {
                    reach - floor
                } else {
                    1e6 + floor - reach
                };
                let score = below + (dx.abs() + dy.abs()) as f32 * 1000.0;
                if best.is_none_or(|(s, _)| score < s) {
                    best = Some((score, n));
                }
            }
        }
    }
    best.map(|(_, n)| n)
}

/// Which nodes are kept: components holding a seed (else the largest), all with
/// `keep_unreachable`, never components under `min_region_area`. Fills the report's kept and
/// dropped lists.
pub fn reachability(
    graph: &Graph,
    field: &Heightfield,
    params: &Params,
    report: &mut Report,
    choose_start: StartChooser,
) -> Vec<bool> {
    // Components are found on the floor at least a passage wide (an opening: nodes at least
    // half a passage from the edge), so a gap narrower than a character does not join two
    // floors; the kept components then get their narrow margins back (below).
    let half = passage_steps(params, field);
    let core: Vec<bool> = graph
        .edge_distance(half)
        .into_iter()
        .map(|d| d == EdgeDistance::Far)
        .collect();
    let (id, _) = graph.components(&core);
    let (id, sizes) = grow(graph, id, half);
    let mut reason: Vec<Option<&'static str>> = vec![None; sizes.len()];
    for &seed in &params.seeds {
        match node_under(graph, field, seed, params).and_then(|n| id.get(n).copied()) {
            Some(c) if c != u32::MAX => {
                if let Some(r) = reason.get_mut(c as usize) {
                    *r = Some("seed");
                }
            }
            _ => report.seeds_missed.push(seed),
        }
    }
    // No seed given, or none on a floor: the start rules choose the floor a character stands
    // on (`start.rs`).
    if reason.iter().all(Option::is_none)
        && let Some(start) = choose_start(graph, field, &id, &sizes, params)
    {
        if let Some(r) = reason.get_mut(start.component) {
            *r = Some(start.report.rule);
        }
        report.start = Some(start.report);
    }
    let cell_area = f64::from(field.cell_size) * f64::from(field.cell_size);
    let summaries = summarise(graph, field, &id, sizes.len());
    let beside = beside_kept(graph, field, &id, &reason, params);
    let mut keep_component = vec![false; sizes.len()];
    for (c, size) in sizes.iter().enumerate() {
        let area = *size as f64 * cell_area;
        let decided = reason.get(c).copied().flatten();
        let (keep, why) = match decided {
            _ if area < f64::from(params.min_region_area) => (false, "small"),
            Some(why) => (true, why),
            None if params.keep_unreachable => (true, "keep-unreachable"),
            None if beside.get(c).copied().unwrap_or(false) => (true, "beside"),
            None => (false, "unreachable"),
        };
        if let Some(k) = keep_component.get_mut(c) {
            *k = keep;
        }
        let Some(&(centre, bounds)) = summaries.get(c) else {
            continue;
        };
        let entry = ComponentReport {
            area,
            centre,
            bounds,
            reason: why,
        };
        if keep {
            report.kept.push(entry);
        } else {
            report.dropped_area += area;
            report.dropped.push(entry);
        }
    }
    let live = graph.nodes.iter().filter(|n| !n.removed()).count();
    report.narrow_area = live.saturating_sub(sizes.iter().sum::<usize>()) as f64 * cell_area;
    id.iter()
        .map(|&c| c != u32::MAX && keep_component.get(c as usize).copied().unwrap_or(false))
        .collect()
}

/// Pulls the kept floor back from walls and props by `wall_margin`: a kept node is dropped
/// when a column within the margin (plan distance between cell centres, in cells) holds solid
/// that rises more than a climb above the node's floor and starts below the agent's head: a
/// wall, a prop, a step up too high to take. Open edges (a doorway where the room ends, a
/// drop, a gap) have no such solid and keep their floor, so rooms still meet at doorways.
/// Runs after reachability, so the margin never closes a passage the floor reached through.
pub fn trim_walls(graph: &Graph, field: &Heightfield, params: &Params, kept: &mut [bool]) {
    let margin = params.wall_margin_cells();
    if margin <= 0 {
        return;
    }
    let climb = params.climb_cells();
    let agent = params.height_cells();
    let reach = i64::from(margin);
    let mut drop = Vec::new();
    for (n, node) in graph.nodes.iter().enumerate() {
        if !kept.get(n).copied().unwrap_or(false) {
            continue;
        }
        let (x, y) = graph.cell_at(node);
        let (low, high) = (node.floor + climb, node.floor + agent);
        let solid = |column: usize| {
            field
                .spans(column)
                .is_some_and(|spans| spans.iter().any(|s| s.top > low && s.bottom < high))
        };
        let near = (-reach..=reach).any(|dy| {
            (-reach..=reach).any(|dx| {
                dx * dx + dy * dy <= reach * reach
                    && field.column(x + dx, y + dy).is_some_and(solid)
            })
        });
        if near {
            drop.push(n);
        }
    }
    for n in drop {
        if let Some(k) = kept.get_mut(n) {
            *k = false;
        }
    }
}

/// Drops the kept nodes whose walkable top is only the raised lip of a ledge ([`crate::lips`]).
/// Runs after reachability: a lip is part of the piece it rims when the start is chosen (the
/// floor does not lose to a smaller one for its rim), but no floor of the walkmesh.
pub fn trim_lips(graph: &Graph, field: &Heightfield, kept: &mut [bool]) {
    for (n, node) in graph.nodes.iter().enumerate() {
        let column = node.column as usize;
        let lip = field.spans(column).is_some_and(|spans| {
            spans
                .iter()
                .any(|s| s.top == node.floor && s.walkable && s.lip)
        });
        if lip && let Some(k) = kept.get_mut(n) {
            *k = false;
        }
    }
}

/// Drops the kept nodes on the floor's boundary whose walkable top is a sliver (no floor
/// triangle covers the column's centre): a column the floor only reaches into, so the
/// outline, which follows whole cells, does not stand up to a cell past the render floor's
/// open edge. Boundary nodes only (one with a plan neighbour not kept), in one pass: a seam of
/// sliver columns inside the floor joins its two sides and stays.
pub fn trim_slivers(graph: &Graph, field: &Heightfield, kept: &mut [bool]) {
    let mut drop = Vec::new();
    for (n, node) in graph.nodes.iter().enumerate() {
        if !kept.get(n).copied().unwrap_or(false) {
            continue;
        }
        let column = node.column as usize;
        let sliver = field.spans(column).is_some_and(|spans| {
            spans
                .iter()
                .any(|s| s.top == node.floor && s.walkable && s.sliver)
        });
        let boundary = (0..DIRECTIONS.len()).any(|d| {
            graph
                .neighbour(n, d)
                .is_none_or(|m| !kept.get(m).copied().unwrap_or(false))
        });
        if sliver && boundary {
            drop.push(n);
        }
    }
    for n in drop {
        if let Some(k) = kept.get_mut(n) {
            *k = false;
        }
    }
}

/// Components not otherwise kept that come within `join_gap` of a kept one at the same level
/// (within a climb): floors split by a seam in the render mesh, not by a wall.
fn beside_kept(
    graph: &Graph,
    field: &Heightfield,
    id: &[u32],
    reason: &[Option<&'static str>],
    params: &Params,
) -> Vec<bool> {
    let mut beside = vec![false; reason.len()];
    let gap = (params.join_gap / field.cell_size).ceil() as i64;
    if gap <= 0 {
        return beside;
    }
    let climb = params.climb_cells();
    let kept = |m: usize| {
        id.get(m)
            .and_then(|&c| reason.get(c as usize))
            .is_some_and(|r| r.is_some())
    };
    for (n, node) in graph.nodes.iter().enumerate() {
        let Some(&c) = id.get(n) else { continue };
        if c == u32::MAX || kept(n) || beside.get(c as usize).copied().unwrap_or(true) {
            continue;
        }
        let (x, y) = graph.cell_at(node);
        let near = (-gap..=gap).any(|dy| {
            (-gap..=gap).any(|dx| {
                let column = field.column(x + dx, y + dy);
                column.is_some_and(|column| {
                    graph.column_nodes(column).any(|m| {
                        kept(m)
                            && graph
                                .nodes
                                .get(m)
                                .is_some_and(|o| (o.floor - node.floor).abs() <= climb)
                    })
                })
            })
        });
        if near && let Some(b) = beside.get_mut(c as usize) {
            *b = true;
        }
    }
    beside
}

/// Gives the live nodes within `steps` (in squares) of a labelled node that node's label (the
/// margins the opening took), and counts the nodes per label.
fn grow(graph: &Graph, mut id: Vec<u32>, steps: i32) -> (Vec<u32>, Vec<usize>) {
    // Node indices as u32, as the distance flood's queue.
    let mut frontier: Vec<u32> = (0..id.len())
        .filter(|&n| id.get(n).is_some_and(|&c| c != u32::MAX))
        .map(|n| n as u32)
        .collect();
    for _ in 0..steps {
        // Nothing left to label: more steps (a passage width wider than the whole grid)
        // change nothing.
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for &n in &frontier {
            let n = n as usize;
            let label = id.get(n).copied().unwrap_or(u32::MAX);
            for m in graph.around(n) {
                if let Some(slot) = id.get_mut(m)
                    && *slot == u32::MAX
                    && graph.same_kind(n, m)
                {
                    *slot = label;
                    next.push(m as u32);
                }
            }
        }
        frontier = next;
    }
    let count = id
        .iter()
        .filter(|&&c| c != u32::MAX)
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    let mut sizes = vec![0; count];
    for &c in &id {
        if let Some(s) = sizes.get_mut(c as usize) {
            *s += 1;
        }
    }
    (id, sizes)
}

/// Centre (mean cell centre and floor) and plan bounds of each component.
fn summarise(
    graph: &Graph,
    field: &Heightfield,
    id: &[u32],
    count: usize,
) -> Vec<([f32; 3], [f32; 4])> {
    let mut sums = vec![([0f64; 3], 0usize, [f32::MAX, f32::MAX, f32::MIN, f32::MIN]); count];
    let cs = field.cell_size;
    for (node, &c) in graph.nodes.iter().zip(id) {
        let Some((sum, n, b)) = sums.get_mut(c as usize) else {
            continue;
        };
        let (x, y) = graph.cell(node);
        let x = field.origin[0] + x as f32 * cs;
        let y = field.origin[1] + y as f32 * cs;
        sum[0] += f64::from(x + cs / 2.0);
        sum[1] += f64::from(y + cs / 2.0);
        sum[2] += f64::from(field.z(node.floor));
        *n += 1;
        *b = [b[0].min(x), b[1].min(y), b[2].max(x + cs), b[3].max(y + cs)];
    }
    sums.into_iter()
        .map(|(sum, n, b)| {
            let n = n.max(1) as f64;
            (
                [
                    (sum[0] / n) as f32,
                    (sum[1] / n) as f32,
                    (sum[2] / n) as f32,
                ],
                b,
            )
        })
        .collect()
}

/// A piece of the kept floor with at most one node per column, in which plan neighbours
/// are always linked: its plan outline is its boundary, and each point has one floor.
#[derive(Clone, Debug)]
pub struct Layer {
    pub nodes: Vec<u32>,
    /// Plan bounds in cells: min x, min y, max x (inclusive), max y (inclusive).
    pub bounds: [u32; 4],
    /// Node of the layer in each column of its bounds (NONE where it has none).
    pub grid: Vec<u32>,
}

impl Layer {
    /// The layer's node at cell (x, y), if any.
    pub fn at(&self, x: i64, y: i64) -> Option<u32> {
        let [x0, y0, x1, y1] = self.bounds.map(i64::from);
        if x < x0 || y < y0 || x > x1 || y > y1 {
            return None;
        }
        let w = x1 - x0 + 1;
        let n = *self.grid.get(((y - y0) * w + (x - x0)) as usize)?;
        (n != NONE).then_some(n)
    }
}

/// Splits the kept nodes into layers by flood fill: a node joins the layer growing beside it
/// unless its column is taken or a plan neighbour in the layer is not linked to it.
pub fn layers(
    graph: &Graph,
    field: &Heightfield,
    kept: &[bool],
    budget: &mut Budget,
) -> Result<(Vec<Layer>, Vec<u32>), GenerateError> {
    let mut layer_of = vec![u32::MAX; graph.nodes.len()];
    let mut layers = Vec::new();
    let mut owner = column_owner::ColumnOwner::new(field.width, field.height);
    for start in 0..graph.nodes.len() {
        if !kept.get(start).copied().unwrap_or(false) || layer_of.get(start) != Some(&u32::MAX) {
            continue;
        }
        let layer = layers.len() as u32;
        owner.start(layer);
        let mut members = Vec::new();
        // Plan bounds in cells (min x, min y, max x, max y), kept as members join: a node's
        // cell costs a division.
        let mut bounds = [u32::MAX, u32::MAX, 0, 0];
        // Node indices as u32, as the distance flood's queue.
        let mut queue = VecDeque::from([start as u32]);
        while let Some(n) = queue.pop_front() {
            let n = n as usize;
            if layer_of.get(n) != Some(&u32::MAX) {
                continue;
            }
            let Some(node) = graph.nodes.get(n) else {
                continue;
            };
            let key = graph.cell(node);
            if owner.get(key).is_some() || !fits(graph, n, key, &owner) {
                continue;
            }
            owner.insert(key, n as u32);
            let (x, y) = key;
            bounds = [
                bounds[0].min(x),
                bounds[1].min(y),
                bounds[2].max(x),
                bounds[3].max(y),
            ];
            if let Some(slot) = layer_of.get_mut(n) {
                *slot = layer;
            }
            members.push(n as u32);
            for m in graph.neighbours(n) {
                if kept.get(m).copied().unwrap_or(false) && layer_of.get(m) == Some(&u32::MAX) {
                    queue.push_back(m as u32);
                }
            }
        }
        layers.push(make_layer(graph, members, bounds, budget)?);
    }
    Ok((layers, layer_of))
}

/// Every plan neighbour already in the layer is linked to `n` (at `cell`).
fn fits(graph: &Graph, n: usize, cell: (u32, u32), owner: &column_owner::ColumnOwner) -> bool {
    let (x, y) = (i64::from(cell.0), i64::from(cell.1));
    DIRECTIONS.iter().enumerate().all(|(d, (dx, dy))| {
        let (x, y) = (x + dx, y + dy);
        if x < 0 || y < 0 {
            return true;
        }
        match owner.get((x as u32, y as u32)) {
            None => true,
            Some(m) => graph.neighbour(n, d) == Some(m as usize) && n != m as usize,
        }
    })
}

/// The layer of `members`, whose cells lie within `b` (min x, min y, max x, max y).
fn make_layer(
    graph: &Graph,
    members: Vec<u32>,
    b: [u32; 4],
    budget: &mut Budget,
) -> Result<Layer, GenerateError> {
    let w = (b[2] - b[0] + 1) as usize;
    let h = (b[3] - b[1] + 1) as usize;
    // A layer's grid covers its bounds: a ring or a long diagonal ramp holds few nodes in a
    // large box, so each grid is claimed on its own.
    budget.claim(
        "the floor layers' grid",
        bytes_of::<u32>(w.saturating_mul(h)),
    )?;
    let mut grid = vec![NONE; w * h];
    for &n in &members {
        if let Some(node) = graph.nodes.get(n as usize) {
            let (x, y) = graph.cell(node);
            let i = (y - b[1]) as usize * w + (x - b[0]) as usize;
            if let Some(slot) = grid.get_mut(i) {
                *slot = n;
            }
        }
    }
    Ok(Layer {
        nodes: members,
        bounds: b,
        grid,
    })
}

/// Which node of the layer being grown holds each column: one slot per column tagged with the
/// layer, so starting a layer costs nothing (a hash map per layer was a third of a
/// 1M-triangle run).
mod column_owner {
    #[derive(Debug)]
    pub struct ColumnOwner {
        width: usize,
        height: usize,
        /// (layer, node) per column.
        slots: Vec<[u32; 2]>,
        current: u32,
    }

    impl ColumnOwner {
        pub fn new(width: usize, height: usize) -> ColumnOwner {
            ColumnOwner {
                width,
                height,
                slots: vec![[u32::MAX, u32::MAX]; width * height],
                current: u32::MAX,
            }
        }
        pub fn start(&mut self, layer: u32) {
            self.current = layer;
        }
        fn index(&self, (x, y): (u32, u32)) -> Option<usize> {
            let (x, y) = (x as usize, y as usize);
            (x < self.width && y < self.height).then_some(y * self.width + x)
        }
        pub fn get(&self, key: (u32, u32)) -> Option<u32> {
            let slot = self.slots.get(self.index(key)?)?;
            (slot[0] == self.current).then_some(slot[1])
        }
        pub fn insert(&mut self, key: (u32, u32), node: u32) {
            let current = self.current;
            if let Some(i) = self.index(key)
                && let Some(slot) = self.slots.get_mut(i)
            {
                *slot = [current, node];
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Issue #51: `--min-passage-width 1e9` looped 2^31 rounds of the margin growth (7 s on
    /// an 80 m² floor). The rounds are bounded by the grid, where a wider passage changes
    /// nothing.
    #[test]
    fn passage_rounds_are_bounded_by_the_grid() {
        let field = Heightfield::from_columns(3, 4, [0.0; 3], 0.1, 0.05, &vec![Vec::new(); 12]);
        let mut params = Params::preset(crate::Engine::Kotor);
        assert_eq!(passage_steps(&params, &field), 4);
        params.min_passage_width = 1e9;
        assert_eq!(passage_steps(&params, &field), 7);
    }

    /// Two columns side by side, each of `floors` walkable spans 5 m apart.
    fn stacked_columns(floors: i32) -> Heightfield {
        let column: Vec<crate::voxel::Span> = (0..floors)
            .map(|i| crate::voxel::Span {
                bottom: i * 100,
                top: i * 100 + 1,
                walkable: true,
                sliver: false,
                not_floor: false,
                lip: false,
                base: i * 100 + 1,
            })
            .collect();
        Heightfield::from_columns(2, 1, [0.0; 3], 0.1, 0.05, &[column.clone(), column])
    }

    /// Issue #48: a link is the neighbour's place in its column in one byte, so a column holds
    /// at most 255 nodes; the highest of them links as the lowest does.
    #[test]
    fn a_full_column_links_its_top_node() {
        let params = Params::preset(crate::Engine::Kotor);
        let graph = Graph::build(&stacked_columns(255), &params).unwrap();
        assert_eq!(graph.nodes.len(), 510);
        assert_eq!(graph.neighbour(254, 2), Some(255 + 254));
        assert_eq!(graph.neighbour(255 + 254, 0), Some(254));
        assert_eq!(graph.neighbour(0, 2), Some(255));
        assert_eq!(graph.neighbour(0, 0), None);
        assert_eq!(graph.cell(&graph.nodes[300]), (1, 0));
    }

    /// One node more than a link can name is refused with a typed error, not a panic.
    #[test]
    fn a_column_too_deep_is_refused() {
        let params = Params::preset(crate::Engine::Kotor);
        let error = Graph::build(&stacked_columns(256), &params).unwrap_err();
        assert!(
            matches!(
                error,
                GenerateError::ColumnTooDeep {
                    x: 0,
                    y: 0,
                    floors: 256,
                    limit: 255
                }
            ),
            "{error}"
        );
    }

    /// The node stays at 24 bytes (it was 40; 12.3 million on the 1M-triangle bench scene).
    #[test]
    fn a_node_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
    }

    /// A `side` × `side` level floor, one walkable span per column.
    fn level_floor(side: usize) -> Heightfield {
        let span = crate::voxel::Span {
            bottom: 0,
            top: 1,
            walkable: true,
            sliver: false,
            not_floor: false,
            lip: false,
            base: 1,
        };
        let columns = vec![vec![span]; side * side];
        Heightfield::from_columns(side, side, [0.0; 3], 0.1, 0.05, &columns)
    }

    /// The flood stops at the steps asked: on a 9 × 9 floor the ring of edge nodes is step 0,
    /// the next ring 1 (diagonals count one step, so rings are squares), and so on; told
    /// apart at 2 steps, the two outer rings (32 + 24 nodes) are near and the 5 × 5 middle
    /// far, though the flood never went past the second ring.
    #[test]
    fn edge_distance_tells_the_rings_apart_at_the_steps_asked() {
        let params = Params::preset(crate::Engine::Kotor);
        let graph = Graph::build(&level_floor(9), &params).unwrap();
        let count =
            |distance: &[EdgeDistance], kind| distance.iter().filter(|d| **d == kind).count();
        let at_two = graph.edge_distance(2);
        assert_eq!(count(&at_two, EdgeDistance::Near), 32 + 24);
        assert_eq!(count(&at_two, EdgeDistance::Far), 25);
        let middle = 4 * 9 + 4;
        assert_eq!(at_two[middle], EdgeDistance::Far);
        let at_four = graph.edge_distance(4);
        assert_eq!(count(&at_four, EdgeDistance::Near), 80);
        assert_eq!(at_four[middle], EdgeDistance::Far);
        assert_eq!(count(&graph.edge_distance(0), EdgeDistance::Far), 81);
    }
}
