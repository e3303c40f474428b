//! The top-down view: one or more meshes seen from +Z, with legend, axes and scale bar.

use std::collections::BTreeMap;

use walkmesh_core::NavMesh;
use walkmesh_core::passes::{
    Adjacency, boundary_loops, connected_components, edge_adjacency, leaf_depths,
};
use walkmesh_core::{Attribute, passes::components::Components};

use crate::font::{text_strokes, text_width};
use crate::palette;
use crate::scene::{Group, Pen, Rgba, Scene, Shape};

/// What the face colours show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Neutral material of each walkable face (the default).
    #[default]
    Materials,
    /// One colour per connected walkable region: a leak joins two, a split shows two.
    Components,
    /// NWN2 islands (walkable regions inside one tile) over the tile grid.
    Tiles,
    /// One colour per polygon (Metroid Prime PATH regions).
    Regions,
    /// Depth of each polygon's leaf in the balanced AABB tree (dark = shallow).
    AabbDepth,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Materials => "materials",
            Mode::Components => "components",
            Mode::Tiles => "tiles",
            Mode::Regions => "regions",
            Mode::AabbDepth => "aabb-depth",
        }
    }
}

/// One mesh to draw, with the name shown in the legend.
#[derive(Clone, Copy, Debug)]
pub struct Layer<'a> {
    pub name: &'a str,
    pub mesh: &'a NavMesh,
}

/// Extra outlines drawn over the meshes (world XY, closed polygons), e.g. the pieces where
/// two walkable regions differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Highlight {
    pub name: String,
    pub color: Rgba,
    pub polygons: Vec<Vec<[f64; 2]>>,
}

/// How to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub mode: Mode,
    /// Picture width in pixels (the height follows the mesh's shape).
    pub width: u32,
    /// Thin lines along every polygon edge, when polygons are large enough to see them.
    pub wireframe: bool,
    pub highlights: Vec<Highlight>,
    /// Colours chosen by the caller for the walkable faces of a single input (a distance
    /// heat map, say), with the legend entries they mean; replaces `mode`'s colouring.
    pub face_colours: Option<FaceColours>,
}

/// One colour per polygon and what the colours mean.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceColours {
    pub face: Vec<Rgba>,
    pub legend: Vec<(Rgba, String)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Materials,
            width: 1200,
            wireframe: true,
            highlights: Vec::new(),
            face_colours: None,
        }
    }
}

/// Smallest and largest picture width accepted.
pub const MIN_WIDTH: u32 = 320;
pub const MAX_WIDTH: u32 = 8192;
/// At most this many legend entries; the rest are counted in one line.
const MAX_LEGEND_ENTRIES: usize = 24;
/// Grid lines are drawn for at most this many tile columns plus rows.
const MAX_GRID_LINES: u32 = 2048;

/// Opacity of each input's faces when several are overlaid.
const OVERLAY_ALPHA: u8 = 110;

/// Dashed thin line of the NWN2 tile grid.
const GRID_PEN: Pen = Pen {
    color: Rgba(0, 0, 0, 110),
    width: 1.0,
    dash: Some([4.0, 3.0]),
};

/// Why a picture could not be made.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum RenderError {
    #[error("nothing to draw: no input mesh")]
    NoInput,
    #[error("a width of {0} pixels is outside {MIN_WIDTH}..={MAX_WIDTH}")]
    Width(u32),
    #[error(
        "--mode tiles needs a tiled walkmesh (NWN2 TRX/TRN); {0} has no tile grid: try --mode components"
    )]
    NoTiles(String),
}

/// World XY → pixels.
#[derive(Clone, Copy, Debug)]
struct View {
    min: [f64; 2],
    max: [f64; 2],
    scale: f64,
    left: f64,
    top: f64,
}

impl View {
    fn px(&self, x: f64, y: f64) -> [f32; 2] {
        [
            (self.left + (x - self.min[0]) * self.scale) as f32,
            (self.top + (self.max[1] - y) * self.scale) as f32,
        ]
    }

    fn vertex(&self, mesh: &NavMesh, index: u32) -> [f32; 2] {
        let v = mesh.vertex(index);
        self.px(f64::from(v[0]), f64::from(v[1]))
    }

    fn right(&self) -> f64 {
        self.left + (self.max[0] - self.min[0]) * self.scale
    }

    fn bottom(&self) -> f64 {
        self.top + (self.max[1] - self.min[1]) * self.scale
    }
}

/// A step of 1, 2 or 5 times a power of ten, near `rough`.
fn nice_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    let fraction = rough / power;
    let nice = if fraction < 1.5 {
        1.0
    } else if fraction < 3.5 {
        2.0
    } else if fraction < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// Values this large are written in exponent form (a 1e30 coordinate is 31 digits).
const EXPONENT_FROM: f64 = 1e7;

/// `value` with as many decimals as `step` needs; from [`EXPONENT_FROM`] on, in exponent form
/// with as many significant digits as tell two ticks `step` apart.
fn tick_label(value: f64, step: f64) -> String {
    if value.abs() >= EXPONENT_FROM && step > 0.0 {
        let digits = (value.abs().log10().floor() - step.log10().floor()).clamp(0.0, 16.0);
        let digits = digits as usize;
        return format!("{value:.digits$e}");
    }
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()).clamp(0.0, 6.0) as usize
    };
    let text = format!("{value:.decimals$}");
    if text
        .trim_start_matches('-')
        .trim_matches(['0', '.'])
        .is_empty()
    {
        "0".to_string()
    } else {
        text
    }
}

/// Words, drawn as strokes with a white halo so they stay readable over faces.
/// At most this many lines per legend entry.
const LEGEND_LINES: usize = 3;

/// `text` in lines no wider than `available` pixels at `size`: broken after a space, `/`,
/// `\\`, `_`, `:` or `,` where one falls in the line, else mid-word; at most
/// [`LEGEND_LINES`] lines, the last one cut at its start ("...tail": the end of a path or
/// name says most). Always at least one (possibly shortened) line.
fn fit_text(text: &str, available: f32, size: f32) -> Vec<String> {
    let per_line = ((available * 6.0 / size + 2.0) / 6.0).floor().max(4.0) as usize;
    let chars: Vec<char> = text.chars().collect();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < chars.len() && lines.len() + 1 < LEGEND_LINES {
        let rest = chars.len() - start;
        if rest <= per_line {
            break;
        }
        let window = chars.get(start..start + per_line).unwrap_or_default();
        let cut = window
            .iter()
            .rposition(|c| matches!(c, ' ' | '/' | '\\' | '_' | ':' | ','))
            .filter(|&i| i + 1 >= per_line / 2)
            .map_or(per_line, |i| i + 1);
        lines.push(
            chars
                .get(start..start + cut)
                .unwrap_or_default()
                .iter()
                .collect::<String>(),
        );
        start += cut;
    }
    let rest: Vec<char> = chars.get(start..).unwrap_or_default().to_vec();
    if rest.len() <= per_line {
        lines.push(rest.into_iter().collect());
    } else {
        let tail: String = rest
            .get(rest.len() - (per_line - 3)..)
            .unwrap_or_default()
            .iter()
            .collect();
        lines.push(format!("...{tail}"));
    }
    lines
}

fn label(id: String, text: &str, origin: [f32; 2], size: f32, color: Rgba, halo: bool) -> Group {
    let strokes = text_strokes(text, origin, size);
    let mut shapes = Vec::new();
    if halo {
        shapes.push(Shape::Stroke {
            polylines: strokes.clone(),
            pen: Pen::solid(palette::PAPER.with_alpha(220), size * 0.35),
        });
    }
    shapes.push(Shape::Stroke {
        polylines: strokes,
        pen: Pen::solid(color, (size * 0.12).max(1.0)),
    });
    Group {
        id,
        text: Some(text.to_string()),
        shapes,
    }
}

/// Bounds of everything drawn, in world XY.
fn world_bounds(layers: &[Layer<'_>]) -> ([f64; 2], [f64; 2]) {
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    let mut grow = |x: f32, y: f32| {
        if x.is_finite() && y.is_finite() {
            min[0] = min[0].min(f64::from(x));
            min[1] = min[1].min(f64::from(y));
            max[0] = max[0].max(f64::from(x));
            max[1] = max[1].max(f64::from(y));
        }
    };
    for layer in layers {
        for v in &layer.mesh.vertices {
            grow(v[0], v[1]);
        }
        for hook in &layer.mesh.hooks {
            grow(hook.position[0], hook.position[1]);
        }
    }
    if !(min[0].is_finite() && max[0].is_finite()) {
        return ([0.0, 0.0], [1.0, 1.0]);
    }
    // A little room around the mesh, and a non-zero extent on both axes. Far from the origin
    // a tiny extent vanishes in f64 (1e30 + 1e-3 == 1e30), leaving a zero-width axis, an
    // infinite scale and tick numbers that overflow; so the extent is at least a millionth of
    // the largest coordinate (f32 positions hold only 24 bits there anyway).
    let magnitude = min
        .iter()
        .chain(&max)
        .fold(0.0f64, |largest, c| largest.max(c.abs()));
    let extent = (max[0] - min[0])
        .max(max[1] - min[1])
        .max(1e-3)
        .max(magnitude * MIN_RELATIVE_EXTENT);
    let pad = extent * 0.03;
    ([min[0] - pad, min[1] - pad], [max[0] + pad, max[1] + pad])
}

/// The smallest extent drawn, as a share of the largest coordinate (see [`world_bounds`]).
const MIN_RELATIVE_EXTENT: f64 = 1e-6;

/// At most this many ticks on one axis (about eight are drawn on a sane view).
const MAX_TICKS: f64 = 64.0;

/// The multiples of `step` between `low` and `high`: none when there would be more than
/// [`MAX_TICKS`] or the numbers are not finite, so the work never follows the coordinates.
fn ticks_between(low: f64, high: f64, step: f64) -> Vec<f64> {
    let (first, last) = ((low / step).ceil(), (high / step).floor());
    let count = last - first;
    if !(first.is_finite() && count.is_finite() && (0.0..=MAX_TICKS).contains(&count)) {
        return Vec::new();
    }
    (0..=count as u32)
        .map(|k| (first + f64::from(k)) * step)
        .collect()
}

/// Per-face colour keys for one mesh in one mode, and the legend entries they mean.
struct Colouring {
    face: Vec<Rgba>,
    legend: Vec<(Rgba, String)>,
}

fn components_of(mesh: &NavMesh, adjacency: &Adjacency) -> Components {
    connected_components(mesh, adjacency, |p| mesh.is_walkable(p))
}

/// The tile of every polygon: the `nwn2:tile` column when the reader kept it, else the grid
/// cell under the polygon's first corner, else 0.
fn tiles_of(mesh: &NavMesh) -> Vec<i64> {
    if let Some(Attribute::Int(tiles)) = mesh.face_attributes.get("nwn2:tile")
        && tiles.len() == mesh.polygons.len()
    {
        return tiles.clone();
    }
    let Some(grid) = mesh.tile_grid else {
        return vec![0; mesh.polygons.len()];
    };
    mesh.polygons
        .iter()
        .map(|polygon| {
            let n = polygon.len().max(1) as f32;
            let (sx, sy) = polygon.iter().fold((0.0, 0.0), |(sx, sy), &i| {
                let v = mesh.vertex(i);
                (sx + v[0], sy + v[1])
            });
            let column = ((sx / n - grid.origin[0]) / grid.tile_width).floor();
            let row = ((sy / n - grid.origin[1]) / grid.tile_height).floor();
            if column.is_finite() && row.is_finite() && column >= 0.0 && row >= 0.0 {
                row as i64 * i64::from(grid.columns) + column as i64
            } else {
                -1
            }
        })
        .collect()
}

fn colouring(mesh: &NavMesh, mode: Mode, adjacency: &Adjacency) -> Colouring {
    let faces = mesh.polygons.len();
    match mode {
        Mode::Materials => {
            let mut counts: BTreeMap<u16, usize> = BTreeMap::new();
            let face = mesh
                .surfaces
                .iter()
                .map(|s| {
                    if s.walkable {
                        *counts.entry(s.material.0).or_insert(0) += 1;
                    }
                    palette::material(s.material.0)
                })
                .collect();
            let legend = counts
                .into_iter()
                .map(|(id, count)| {
                    (
                        palette::material(id),
                        format!("{} ({count})", walkmesh_core::Material(id).name()),
                    )
                })
                .collect();
            Colouring { face, legend }
        }
        Mode::Components => {
            let components = components_of(mesh, adjacency);
            let mut sizes = vec![0usize; components.count];
            for &label in &components.label {
                if let Some(size) = sizes.get_mut(label as usize) {
                    *size += 1;
                }
            }
            Colouring {
                face: components
                    .label
                    .iter()
                    .map(|&l| palette::distinct(l as usize))
                    .collect(),
                legend: sizes
                    .iter()
                    .enumerate()
                    .map(|(i, size)| {
                        (
                            palette::distinct(i),
                            format!("component {} ({size} faces)", i + 1),
                        )
                    })
                    .collect(),
            }
        }
        Mode::Tiles => {
            // Islands: walkable regions inside one tile (links across tiles are cut).
            let tiles = tiles_of(mesh);
            let mut inside = adjacency.clone();
            let polygons = &mesh.polygons;
            for (half_edge, other) in inside.neighbour.iter_mut().enumerate() {
                let Some(across) = adjacency.across(half_edge) else {
                    continue;
                };
                let p = polygons.edge_of_half_edge(half_edge).polygon as usize;
                let q = polygons.edge_of_half_edge(across).polygon as usize;
                if tiles.get(p) != tiles.get(q) {
                    *other = walkmesh_core::passes::adjacency::NO_NEIGHBOUR;
                }
            }
            let islands = components_of(mesh, &inside);
            let used: std::collections::BTreeSet<i64> = tiles
                .iter()
                .enumerate()
                .filter(|(p, _)| mesh.is_walkable(*p))
                .map(|(_, t)| *t)
                .collect();
            let legend = island_legend(&islands, &tiles, used.len());
            Colouring {
                face: islands
                    .label
                    .iter()
                    .map(|&l| palette::distinct(l as usize))
                    .collect(),
                legend,
            }
        }
        Mode::Regions => Colouring {
            face: (0..faces).map(palette::distinct).collect(),
            // One entry per region (the legend lists the first ones and counts the rest).
            legend: (0..faces)
                .map(|i| {
                    let text = if i == 0 {
                        format!("region 0 of {faces}")
                    } else {
                        format!("region {i}")
                    };
                    (palette::distinct(i), text)
                })
                .collect(),
        },
        Mode::AabbDepth => {
            let depth = leaf_depths(mesh);
            let deepest = depth.iter().copied().max().unwrap_or(0).max(1);
            let face = depth
                .iter()
                .map(|&d| palette::ramp(f64::from(d) / f64::from(deepest)))
                .collect();
            let present: std::collections::BTreeSet<u32> = depth.iter().copied().collect();
            let legend = present
                .into_iter()
                .map(|d| {
                    let count = depth.iter().filter(|&&x| x == d).count();
                    (
                        palette::ramp(f64::from(d) / f64::from(deepest)),
                        format!("depth {d} ({count} faces)"),
                    )
                })
                .collect();
            Colouring { face, legend }
        }
    }
}

/// One legend entry per island (walkable faces joined inside one tile), with its tile; the
/// first entry says how many islands and tiles there are.
fn island_legend(islands: &Components, tiles: &[i64], tiles_used: usize) -> Vec<(Rgba, String)> {
    let mut tile_of = vec![None; islands.count];
    let mut faces = vec![0usize; islands.count];
    for (polygon, &label) in islands.label.iter().enumerate() {
        if let Some(count) = faces.get_mut(label as usize) {
            *count += 1;
        }
        if let Some(slot @ None) = tile_of.get_mut(label as usize) {
            *slot = tiles.get(polygon).copied();
        }
    }
    (0..islands.count)
        .map(|i| {
            let tile = tile_of.get(i).copied().flatten().unwrap_or(-1);
            let count = faces.get(i).copied().unwrap_or(0);
            let text = if i == 0 {
                format!(
                    "island 1 of {} (tile {tile}, {count} faces; {tiles_used} tiles)",
                    islands.count
                )
            } else {
                format!("island {} (tile {tile}, {count} faces)", i + 1)
            };
            (palette::distinct(i), text)
        })
        .collect()
}

/// Labels closer than this (pixels) to one of the same value are left out.
const LABEL_SPACING: f32 = 60.0;
/// At most this many transition labels per mesh: more could not be read anyway, and each
/// costs its strokes.
const MAX_TRANSITION_LABELS: usize = 4096;

/// Where transition labels go: one per value every [`LABEL_SPACING`] pixels, found through a
/// hash grid of spacing-wide cells so that many transitions cost linear time, not quadratic.
#[derive(Default)]
struct LabelSpots {
    labels: Vec<(i32, [f32; 2])>,
    cells: std::collections::HashMap<(i32, i64, i64), Vec<usize>>,
}

impl LabelSpots {
    fn cell(at: [f32; 2]) -> (i64, i64) {
        // Saturating casts: a non-finite position lands in an edge cell.
        let key = |c: f32| (c / LABEL_SPACING).floor() as i64;
        (key(at[0]), key(at[1]))
    }

    /// Adds a label for `value` at `at` unless one of the same value is nearer than the
    /// spacing (or the cap is reached).
    fn offer(&mut self, value: i32, at: [f32; 2]) {
        if self.labels.len() >= MAX_TRANSITION_LABELS {
            return;
        }
        let (cx, cy) = Self::cell(at);
        for dx in -1..=1i64 {
            for dy in -1..=1i64 {
                let key = (value, cx.saturating_add(dx), cy.saturating_add(dy));
                let near = self.cells.get(&key).is_some_and(|found| {
                    found.iter().any(|&i| {
                        self.labels.get(i).is_some_and(|(_, other)| {
                            (other[0] - at[0]).hypot(other[1] - at[1]) < LABEL_SPACING
                        })
                    })
                });
                if near {
                    return;
                }
            }
        }
        self.cells
            .entry((value, cx, cy))
            .or_default()
            .push(self.labels.len());
        self.labels.push((value, at));
    }
}

/// Everything drawn for one mesh.
struct MeshGroups {
    groups: Vec<Group>,
    legend: Vec<(Rgba, String)>,
    /// Boundary chains of the walkable region that do not close (drawn red, dashed).
    open_chains: usize,
}

fn polygon_points(view: &View, mesh: &NavMesh, polygon: &[u32]) -> Vec<[f32; 2]> {
    polygon.iter().map(|&i| view.vertex(mesh, i)).collect()
}

/// The groups drawn for one mesh (`index` among the layers, ids prefixed `input<n>`): faces
/// by colour, the wireframe, boundary loops, transitions and hooks, and its legend entries.
fn draw_mesh(
    index: usize,
    layer: &Layer<'_>,
    view: &View,
    options: &Options,
    overlay: bool,
    size: f32,
) -> MeshGroups {
    let mesh = layer.mesh;
    let prefix = format!("input{}", index + 1);
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let (face_colour, legend) = if overlay {
        let colour = palette::overlay(index);
        (
            vec![colour.with_alpha(OVERLAY_ALPHA); mesh.polygons.len()],
            vec![(colour.with_alpha(OVERLAY_ALPHA), layer.name.to_string())],
        )
    } else if let Some(custom) = &options.face_colours {
        (custom.face.clone(), custom.legend.clone())
    } else {
        let c = colouring(mesh, options.mode, &adjacency);
        (c.face, c.legend)
    };
    let mut groups = face_groups(&prefix, view, mesh, &face_colour);
    groups.extend(wireframe_group(&prefix, view, mesh, options));
    let boundary_colour = if overlay {
        palette::overlay(index)
    } else {
        palette::BOUNDARY
    };
    let (boundary, open_count) =
        boundary_group(&prefix, view, mesh, &adjacency, boundary_colour, size);
    groups.push(boundary);
    push_transitions(&mut groups, &prefix, view, mesh, size);
    push_hooks(&mut groups, &prefix, view, mesh, size);
    MeshGroups {
        groups,
        legend,
        open_chains: open_count,
    }
}

/// Faces, one fill per colour (deterministic order: by colour): the non-walkable ones in
/// grey, the walkable ones in `face_colour`.
fn face_groups(prefix: &str, view: &View, mesh: &NavMesh, face_colour: &[Rgba]) -> Vec<Group> {
    let mut non_walkable = Vec::new();
    let mut walkable: BTreeMap<Rgba, Vec<Vec<[f32; 2]>>> = BTreeMap::new();
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        let points = polygon_points(view, mesh, polygon);
        if mesh.is_walkable(p) {
            let colour = face_colour.get(p).copied().unwrap_or(palette::material(0));
            walkable.entry(colour).or_default().push(points);
        } else {
            non_walkable.push(points);
        }
    }
    vec![
        Group {
            id: format!("{prefix}-non-walkable"),
            text: None,
            shapes: vec![Shape::Fill {
                subpaths: non_walkable,
                color: palette::NON_WALKABLE,
            }],
        },
        Group {
            id: format!("{prefix}-walkable"),
            text: None,
            shapes: walkable
                .into_iter()
                .map(|(color, subpaths)| Shape::Fill { subpaths, color })
                .collect(),
        },
    ]
}

/// Wireframe: each edge once, when asked for and the faces are big enough on screen to
/// show it.
fn wireframe_group(prefix: &str, view: &View, mesh: &NavMesh, options: &Options) -> Option<Group> {
    let map_area = (view.right() - view.left) * (view.bottom() - view.top);
    let dense = mesh.polygons.len() as f64 * 40.0 > map_area;
    if !options.wireframe || dense {
        return None;
    }
    let all = edge_adjacency(mesh, |_| true);
    let mut lines = Vec::new();
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        let first = mesh.polygons.first_index(p);
        for e in 0..polygon.len() {
            let half_edge = first + e;
            if all.across(half_edge).is_some_and(|other| other < half_edge) {
                continue;
            }
            let a = polygon.get(e).copied().unwrap_or(0);
            let b = polygon.get((e + 1) % polygon.len()).copied().unwrap_or(0);
            lines.push(vec![view.vertex(mesh, a), view.vertex(mesh, b)]);
        }
    }
    Some(Group {
        id: format!("{prefix}-wireframe"),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: lines,
            pen: Pen::solid(Rgba(0, 0, 0, 60), 0.6),
        }],
    })
}

/// Boundary loops of the walkable region in `colour`; open chains (a likely leak) in red,
/// dashed. Returns the group and the number of open chains.
fn boundary_group(
    prefix: &str,
    view: &View,
    mesh: &NavMesh,
    adjacency: &Adjacency,
    colour: Rgba,
    size: f32,
) -> (Group, usize) {
    let loops = boundary_loops(mesh, adjacency);
    let mut closed = Vec::new();
    let mut open = Vec::new();
    for chain in &loops {
        let mut points = Vec::with_capacity(chain.edges.len() + 1);
        for edge in &chain.edges {
            let polygon = mesh.polygons.get(edge.polygon as usize);
            if let Some(&start) = polygon.get(edge.edge as usize) {
                points.push(view.vertex(mesh, start));
            }
        }
        if let Some(last) = chain.edges.last() {
            let polygon = mesh.polygons.get(last.polygon as usize);
            if let Some(&end) = polygon.get((last.edge as usize + 1) % polygon.len().max(1)) {
                points.push(view.vertex(mesh, end));
            }
        }
        if chain.closed {
            closed.push(points);
        } else {
            open.push(points);
        }
    }
    let open_count = open.len();
    let group = Group {
        id: format!("{prefix}-boundary"),
        text: None,
        shapes: vec![
            Shape::Stroke {
                polylines: closed,
                pen: Pen::solid(colour, (size * 0.16).max(1.2)),
            },
            Shape::Stroke {
                polylines: open,
                pen: Pen {
                    color: palette::OPEN_CHAIN,
                    width: (size * 0.22).max(1.6),
                    dash: Some([6.0, 4.0]),
                },
            },
        ],
    };
    (group, open_count)
}

/// Transitions, each labelled with its value (one label per value every
/// [`LABEL_SPACING`] pixels).
fn push_transitions(groups: &mut Vec<Group>, prefix: &str, view: &View, mesh: &NavMesh, size: f32) {
    let mut segments = Vec::new();
    let mut spots = LabelSpots::default();
    for (edge, tag) in &mesh.edge_tags {
        let polygon = mesh.polygons.get(edge.polygon as usize);
        let (Some(&a), Some(&b)) = (
            polygon.get(edge.edge as usize),
            polygon.get((edge.edge as usize + 1) % polygon.len().max(1)),
        ) else {
            continue;
        };
        let (pa, pb) = (view.vertex(mesh, a), view.vertex(mesh, b));
        segments.push(vec![pa, pb]);
        let middle = [(pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0];
        spots.offer(tag.transition, middle);
    }
    let labels = spots.labels;
    if segments.is_empty() {
        return;
    }
    groups.push(Group {
        id: format!("{prefix}-transitions"),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: segments,
            pen: Pen::solid(palette::TRANSITION, (size * 0.3).max(2.0)),
        }],
    });
    for (i, (value, at)) in labels.iter().enumerate() {
        groups.push(label(
            format!("{prefix}-transition-label-{}", i + 1),
            &value.to_string(),
            [at[0] + 3.0, at[1] - size - 3.0],
            size,
            palette::TRANSITION,
            true,
        ));
    }
}

/// Hooks: a ring with the name beside it.
fn push_hooks(groups: &mut Vec<Group>, prefix: &str, view: &View, mesh: &NavMesh, size: f32) {
    for (i, hook) in mesh.hooks.iter().enumerate() {
        let at = view.px(f64::from(hook.position[0]), f64::from(hook.position[1]));
        groups.push(Group {
            id: format!("{prefix}-hook-{}", i + 1),
            text: None,
            shapes: vec![Shape::Circle {
                center: at,
                radius: size * 0.45,
                fill: Some(palette::HOOK),
                outline: Some(Pen::solid(palette::INK, 1.0)),
            }],
        });
        groups.push(label(
            format!("{prefix}-hook-label-{}", i + 1),
            &hook.name,
            [at[0] + size * 0.7, at[1] - size * 0.5],
            size,
            palette::INK,
            true,
        ));
    }
}

/// The top-down picture of `layers`. With one layer, faces are coloured by `options.mode`;
/// with several, each layer gets one colour (half transparent) and its own outline, so
/// differences show where the colours do not mix. Drawn in order: the map's frame, the tile
/// grid, each layer ([`draw_mesh`]), highlights, axes and scale bar, then the legend.
pub fn top_down(layers: &[Layer<'_>], options: &Options) -> Result<Scene, RenderError> {
    if layers.is_empty() {
        return Err(RenderError::NoInput);
    }
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&options.width) {
        return Err(RenderError::Width(options.width));
    }
    let width = f64::from(options.width);
    // Text size and margins grow with the picture.
    let size = (width / 110.0).clamp(8.0, 24.0) as f32;
    let s = f64::from(size);
    let legend_width = (width * 0.26).clamp(180.0, 520.0);
    let left = s * 6.5;
    let top = s * 2.0;
    let bottom = s * 7.5;
    let map_width = width - left - legend_width - s * 2.0;
    let (min, max) = world_bounds(layers);
    let mut scale = map_width / (max[0] - min[0]);
    let max_map_height = width * 1.5;
    if (max[1] - min[1]) * scale > max_map_height {
        scale = max_map_height / (max[1] - min[1]);
    }
    let view = View {
        min,
        max,
        scale,
        left,
        top,
    };

    let overlay = layers.len() > 1;
    if options.mode == Mode::Tiles && !overlay && options.face_colours.is_none() {
        for layer in layers {
            let has_tiles = layer.mesh.tile_grid.is_some()
                || layer.mesh.face_attributes.contains_key("nwn2:tile");
            if !has_tiles {
                return Err(RenderError::NoTiles(layer.name.to_string()));
            }
        }
    }
    let mut groups = vec![frame_group(&view)];
    let mut legend: Vec<(Rgba, String)> = Vec::new();
    let mut grid_entry = None;
    if options.mode == Mode::Tiles
        && let Some((group, entry)) = tile_grid_group(layers, &view)
    {
        groups.push(group);
        grid_entry = Some(entry);
    }

    let mut open_chains = 0;
    for (index, layer) in layers.iter().enumerate() {
        let drawn = draw_mesh(index, layer, &view, options, overlay, size);
        groups.extend(drawn.groups);
        legend.extend(drawn.legend);
        open_chains += drawn.open_chains;
    }
    if overlay {
        // Where the half-transparent layers overlap their colours mix: the mix is a colour
        // of the picture too.
        let mut mixed = palette::PAPER;
        for index in 0..layers.len() {
            mixed = palette::over(palette::overlay(index).with_alpha(OVERLAY_ALPHA), mixed);
        }
        legend.push((mixed, "in all inputs (colours mixed)".into()));
    }
    push_highlights(&mut groups, &mut legend, options, &view, size);
    push_axes(&mut groups, &view, size);
    push_scale_bar(&mut groups, &view, size);

    let legend_x = (width - legend_width + s) as f32;
    let entries = LegendEntries {
        legend,
        grid_entry,
        open_chains,
    };
    let y = push_legend(&mut groups, layers, options, entries, legend_x, size);

    let height = (view.bottom() + bottom).max(f64::from(y) + s).ceil() as u32;
    let title = layers
        .iter()
        .map(|l| l.name)
        .collect::<Vec<_>>()
        .join(" + ");
    Ok(Scene {
        width: options.width,
        height,
        background: palette::PAPER,
        title: format!("{title} ({})", options.mode.name()),
        groups,
    })
}

/// The frame of the map.
fn frame_group(view: &View) -> Group {
    Group {
        id: "frame".into(),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: vec![vec![
                [view.left as f32, view.top as f32],
                [view.right() as f32, view.top as f32],
                [view.right() as f32, view.bottom() as f32],
                [view.left as f32, view.bottom() as f32],
                [view.left as f32, view.top as f32],
            ]],
            pen: Pen::solid(Rgba(0, 0, 0, 90), 1.0),
        }],
    }
}

/// The first layer's tile grid (tiles mode), clipped to the map frame, and its legend text;
/// none without a usable grid or with more than [`MAX_GRID_LINES`] lines.
fn tile_grid_group(layers: &[Layer<'_>], view: &View) -> Option<(Group, String)> {
    let grid = layers.first().and_then(|l| l.mesh.tile_grid)?;
    if grid.columns.saturating_add(grid.rows) > MAX_GRID_LINES
        || grid.tile_width <= 0.0
        || grid.tile_height <= 0.0
        || grid.tile_width.is_nan()
        || grid.tile_height.is_nan()
    {
        return None;
    }
    let (ox, oy) = (f64::from(grid.origin[0]), f64::from(grid.origin[1]));
    let (tw, th) = (f64::from(grid.tile_width), f64::from(grid.tile_height));
    // Clipped to the map frame: the grid may reach past the mesh, into the legend.
    let clamp_x = |x: f64| x.clamp(view.min[0], view.max[0]);
    let clamp_y = |y: f64| y.clamp(view.min[1], view.max[1]);
    let (x0, x1) = (clamp_x(ox), clamp_x(ox + tw * f64::from(grid.columns)));
    let (y0, y1) = (clamp_y(oy), clamp_y(oy + th * f64::from(grid.rows)));
    let mut lines = Vec::new();
    for c in 0..=grid.columns {
        let x = ox + tw * f64::from(c);
        if (view.min[0]..=view.max[0]).contains(&x) && y0 < y1 {
            lines.push(vec![view.px(x, y0), view.px(x, y1)]);
        }
    }
    for r in 0..=grid.rows {
        let y = oy + th * f64::from(r);
        if (view.min[1]..=view.max[1]).contains(&y) && x0 < x1 {
            lines.push(vec![view.px(x0, y), view.px(x1, y)]);
        }
    }
    let entry = format!(
        "tile grid {} x {} of {}",
        grid.columns, grid.rows, grid.tile_width
    );
    let group = Group {
        id: "tile-grid".into(),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: lines,
            pen: GRID_PEN,
        }],
    };
    Some((group, entry))
}

/// The caller's highlighted areas: a see-through fill inside an opaque outline, each with a
/// legend entry.
fn push_highlights(
    groups: &mut Vec<Group>,
    legend: &mut Vec<(Rgba, String)>,
    options: &Options,
    view: &View,
    size: f32,
) {
    for (i, highlight) in options.highlights.iter().enumerate() {
        let outlines: Vec<Vec<[f32; 2]>> = highlight
            .polygons
            .iter()
            .map(|polygon| {
                let mut points: Vec<[f32; 2]> =
                    polygon.iter().map(|p| view.px(p[0], p[1])).collect();
                if let Some(&first) = points.first() {
                    points.push(first);
                }
                points
            })
            .collect();
        let fills = outlines.clone();
        groups.push(Group {
            id: format!("highlight-{}", i + 1),
            text: None,
            shapes: vec![
                Shape::Fill {
                    subpaths: fills,
                    color: highlight.color.with_alpha(90),
                },
                Shape::Stroke {
                    polylines: outlines,
                    pen: Pen::solid(highlight.color, (size * 0.2).max(1.5)),
                },
            ],
        });
        legend.push((highlight.color.with_alpha(90), highlight.name.clone()));
    }
}

/// Axes: ticks and values along the bottom and left edges of the frame, and the axis names.
fn push_axes(groups: &mut Vec<Group>, view: &View, size: f32) {
    let (min, max) = (view.min, view.max);
    let s = f64::from(size);
    let step = nice_step((max[0] - min[0]).max(max[1] - min[1]) / 8.0);
    let mut ticks = Vec::new();
    let tick = s * 0.6;
    let mut axis_labels = Vec::new();
    // Long values (exponent form) would run into each other: a value that would touch the
    // one before it is left out (its tick stays).
    let mut last_right = f32::NEG_INFINITY;
    for x in ticks_between(min[0], max[0], step) {
        let [px, _] = view.px(x, min[1]);
        let b = view.bottom() as f32;
        ticks.push(vec![[px, b], [px, b + tick as f32]]);
        let text = tick_label(x, step);
        let w = text_width(&text, size);
        if px - w / 2.0 < last_right + size {
            continue;
        }
        last_right = px + w / 2.0;
        axis_labels.push((text, [px - w / 2.0, b + tick as f32 + size * 0.5]));
    }
    for y in ticks_between(min[1], max[1], step) {
        let [_, py] = view.px(min[0], y);
        let l = view.left as f32;
        ticks.push(vec![[l - tick as f32, py], [l, py]]);
        let text = tick_label(y, step);
        let w = text_width(&text, size);
        axis_labels.push((text, [l - tick as f32 - size * 0.5 - w, py - size / 2.0]));
    }
    groups.push(Group {
        id: "axes".into(),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: ticks,
            pen: Pen::solid(palette::INK, 1.0),
        }],
    });
    for (i, (text, at)) in axis_labels.iter().enumerate() {
        groups.push(label(
            format!("axis-label-{}", i + 1),
            text,
            *at,
            size,
            palette::INK,
            false,
        ));
    }
    let (right, bottom_px) = (view.right() as f32, view.bottom() as f32);
    groups.push(label(
        "axis-x".into(),
        "x",
        [right - size * 0.7, bottom_px + size * 2.9],
        size,
        palette::INK,
        false,
    ));
    groups.push(label(
        "axis-y".into(),
        "y",
        [view.left as f32 - size * 1.6, view.top as f32 - size * 1.6],
        size,
        palette::INK,
        false,
    ));
}

/// Scale bar under the x values, in the file's units.
fn push_scale_bar(groups: &mut Vec<Group>, view: &View, size: f32) {
    let bar_world = nice_step((view.max[0] - view.min[0]) / 5.0);
    let bar_px = (bar_world * view.scale) as f32;
    let bar_y = view.bottom() as f32 + size * 4.6;
    let bar_x = view.left as f32;
    groups.push(Group {
        id: "scale-bar".into(),
        text: None,
        shapes: vec![Shape::Stroke {
            polylines: vec![vec![
                [bar_x, bar_y - size * 0.5],
                [bar_x, bar_y],
                [bar_x + bar_px, bar_y],
                [bar_x + bar_px, bar_y - size * 0.5],
            ]],
            pen: Pen::solid(palette::INK, (size * 0.2).max(1.5)),
        }],
    });
    groups.push(label(
        "scale-bar-label".into(),
        &format!("{} units", tick_label(bar_world, bar_world)),
        [bar_x + bar_px + size, bar_y - size * 0.8],
        size,
        palette::INK,
        false,
    ));
}

/// What the legend lists beyond the fixed lines: the colours drawn, the tile grid's text
/// and the count of open boundary chains.
struct LegendEntries {
    legend: Vec<(Rgba, String)>,
    grid_entry: Option<String>,
    open_chains: usize,
}

/// The legend at the right, from `legend_x`: heading, one swatch and text per colour (at
/// most [`MAX_LEGEND_ENTRIES`], then a count), then the lines, pens and hook drawn. Every
/// legend line ends inside the picture: text is measured with the stroke font and wrapped
/// (at most [`LEGEND_LINES`] lines per entry, the last one cut at its start). Returns the
/// height reached.
fn push_legend(
    groups: &mut Vec<Group>,
    layers: &[Layer<'_>],
    options: &Options,
    entries: LegendEntries,
    legend_x: f32,
    size: f32,
) -> f32 {
    let width = f64::from(options.width);
    let s = f64::from(size);
    let overlay = layers.len() > 1;
    let line = size * 2.0;
    let mut y = (s * 2.0) as f32;
    let right_edge = (width - s * 0.5) as f32;
    let mut heading = Vec::new();
    if !overlay {
        if let Some(layer) = layers.first() {
            heading.push(layer.name.to_string());
        }
        heading.push(format!("mode: {}", options.mode.name()));
    } else {
        heading.push(format!("{} inputs overlaid", layers.len()));
    }
    let mut heading_line = 0;
    for text in &heading {
        for piece in fit_text(text, right_edge - legend_x, size) {
            heading_line += 1;
            groups.push(label(
                format!("legend-heading-{heading_line}"),
                &piece,
                [legend_x, y],
                size,
                palette::INK,
                false,
            ));
            y += line;
        }
    }
    y += size * 0.5;
    for (colour, pen, text) in legend_lines(layers, entries, size) {
        let index = groups.len();
        groups.push(Group {
            id: format!("legend-swatch-{index}"),
            text: None,
            shapes: swatch_shapes([legend_x, y, legend_x + size * 1.6, y + size], colour, pen),
        });
        let text_x = legend_x + size * 2.2;
        for (k, piece) in fit_text(&text, right_edge - text_x, size)
            .iter()
            .enumerate()
        {
            let id = if k == 0 {
                format!("legend-text-{index}")
            } else {
                format!("legend-text-{index}-{k}")
            };
            groups.push(label(id, piece, [text_x, y], size, palette::INK, false));
            y += line;
        }
    }
    if layers.iter().any(|l| !l.mesh.hooks.is_empty()) {
        groups.push(Group {
            id: "legend-hook".into(),
            text: None,
            shapes: vec![Shape::Circle {
                center: [legend_x + size * 0.8, y + size * 0.5],
                radius: size * 0.45,
                fill: Some(palette::HOOK),
                outline: Some(Pen::solid(palette::INK, 1.0)),
            }],
        });
        groups.push(label(
            "legend-hook-text".into(),
            "hook",
            [legend_x + size * 2.2, y],
            size,
            palette::INK,
            false,
        ));
        y += line;
    }
    y
}

/// The legend's lines (fill colour, pen, text): the colours drawn (overlaid inputs and
/// highlights, drawn as a see-through fill inside an opaque outline, show both), then
/// "not walkable", the boundary loop, open chains, transitions and the tile grid where
/// drawn.
fn legend_lines(
    layers: &[Layer<'_>],
    entries: LegendEntries,
    size: f32,
) -> Vec<(Option<Rgba>, Option<Pen>, String)> {
    let overlay = layers.len() > 1;
    let mut lines: Vec<(Option<Rgba>, Option<Pen>, String)> = Vec::new();
    let total = entries.legend.len();
    for (colour, text) in entries.legend.into_iter().take(MAX_LEGEND_ENTRIES) {
        // Overlaid inputs and highlights are drawn as a see-through fill inside an opaque
        // outline of the same hue: their swatch shows both.
        let outline = (colour.3 < 255).then(|| Pen::solid(colour.with_alpha(255), 1.5));
        lines.push((Some(colour), outline, text));
    }
    if total > MAX_LEGEND_ENTRIES {
        lines.push((None, None, format!("+{} more", total - MAX_LEGEND_ENTRIES)));
    }
    let any = |f: &dyn Fn(&NavMesh) -> bool| layers.iter().any(|l| f(l.mesh));
    if any(&|m| m.surfaces.iter().any(|s| !s.walkable)) {
        lines.push((Some(palette::NON_WALKABLE), None, "not walkable".into()));
    }
    if !overlay {
        lines.push((
            None,
            Some(Pen::solid(palette::BOUNDARY, (size * 0.16).max(1.2))),
            "boundary loop".into(),
        ));
    }
    let open_chains = entries.open_chains;
    if open_chains > 0 {
        lines.push((
            None,
            Some(Pen {
                color: palette::OPEN_CHAIN,
                width: (size * 0.22).max(1.6),
                dash: Some([6.0, 4.0]),
            }),
            format!("open boundary chain ({open_chains})"),
        ));
    }
    if any(&|m| !m.edge_tags.is_empty()) {
        lines.push((
            None,
            Some(Pen::solid(palette::TRANSITION, (size * 0.3).max(2.0))),
            "transition (value)".into(),
        ));
    }
    if let Some(text) = entries.grid_entry {
        lines.push((None, Some(GRID_PEN), text));
    }
    lines
}

/// A legend swatch in the box `[left, top, right, bottom]`: filled with `colour` (unless
/// fully transparent), with `pen` around the fill or, without one, as a line across.
fn swatch_shapes(swatch: [f32; 4], colour: Option<Rgba>, pen: Option<Pen>) -> Vec<Shape> {
    let mut shapes = Vec::new();
    if let Some(colour) = colour
        && colour.3 > 0
    {
        shapes.push(Shape::Fill {
            subpaths: vec![vec![
                [swatch[0], swatch[1]],
                [swatch[2], swatch[1]],
                [swatch[2], swatch[3]],
                [swatch[0], swatch[3]],
            ]],
            color: colour,
        });
    }
    if let Some(pen) = pen {
        let line = if colour.is_some() {
            // Around a filled swatch: its outline.
            vec![
                [swatch[0], swatch[1]],
                [swatch[2], swatch[1]],
                [swatch[2], swatch[3]],
                [swatch[0], swatch[3]],
                [swatch[0], swatch[1]],
            ]
        } else {
            vec![
                [swatch[0], (swatch[1] + swatch[3]) / 2.0],
                [swatch[2], (swatch[1] + swatch[3]) / 2.0],
            ]
        };
        shapes.push(Shape::Stroke {
            polylines: vec![line],
            pen,
        });
    }
    shapes
}

impl walkmesh_core::Kinded for RenderError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            RenderError::NoInput | RenderError::Width(_) | RenderError::NoTiles(_) => {
                walkmesh_core::ErrorKind::Parameter
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::{to_png, to_svg};
    use walkmesh_core::{EdgeRef, EdgeTag, Hook, Material, Surface, TileGrid};

    fn surface(material: u16, walkable: bool) -> Surface {
        Surface {
            material: Material(material),
            walkable,
            code: u32::from(material),
        }
    }

    /// Two unit squares (two triangles each) 1 unit apart: two walkable components; a third,
    /// non-walkable square above them.
    fn split_mesh() -> NavMesh {
        let mut mesh = NavMesh::default();
        for (x0, y0) in [(0.0f32, 0.0f32), (2.0, 0.0), (0.0, 2.0)] {
            let base = mesh.vertices.len() as u32;
            mesh.vertices.extend([
                [x0, y0, 0.0],
                [x0 + 1.0, y0, 0.0],
                [x0 + 1.0, y0 + 1.0, 0.0],
                [x0, y0 + 1.0, 0.0],
            ]);
            let walkable = y0 == 0.0;
            let material = if walkable { 4 } else { 7 };
            mesh.push_polygon(&[base, base + 1, base + 2], surface(material, walkable));
            mesh.push_polygon(&[base, base + 2, base + 3], surface(material, walkable));
        }
        mesh
    }

    fn fill_colours(scene: &Scene, group: &str) -> Vec<Rgba> {
        scene
            .group(group)
            .unwrap()
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Fill { color, subpaths } if !subpaths.is_empty() => Some(*color),
                _ => None,
            })
            .collect()
    }

    /// The map frame's pixel box: min x, min y, max x, max y.
    fn frame_box(scene: &Scene) -> [f32; 4] {
        let points = stroke_points(scene, "frame");
        let xs = points.iter().map(|p| p[0]);
        let ys = points.iter().map(|p| p[1]);
        [
            xs.clone().fold(f32::INFINITY, f32::min),
            ys.clone().fold(f32::INFINITY, f32::min),
            xs.fold(f32::NEG_INFINITY, f32::max),
            ys.fold(f32::NEG_INFINITY, f32::max),
        ]
    }

    fn inside(p: [f32; 2], b: [f32; 4]) -> bool {
        p[0] >= b[0] - 0.01 && p[0] <= b[2] + 0.01 && p[1] >= b[1] - 0.01 && p[1] <= b[3] + 0.01
    }

    fn stroke_points(scene: &Scene, group: &str) -> Vec<[f32; 2]> {
        let mut points = Vec::new();
        for shape in &scene.group(group).unwrap().shapes {
            if let Shape::Stroke { polylines, .. } = shape {
                points.extend(polylines.iter().flatten().copied());
            }
        }
        points
    }

    /// Every fill colour and line colour drawn on the map (faces, boundary, open chains,
    /// transitions, highlights, grid; not the thin wireframe, frame, axes or labels) is the
    /// colour of a legend swatch.
    fn assert_every_colour_is_in_the_legend(scene: &Scene) {
        let mut legend = Vec::new();
        let mut drawn = Vec::new();
        for group in &scene.groups {
            let is_legend = group.id.starts_with("legend");
            let on_map = (group.id.starts_with("input")
                || group.id.starts_with("highlight")
                || group.id == "tile-grid")
                && !group.id.ends_with("-wireframe")
                && group.text.is_none()
                && !group.id.contains("label");
            for shape in &group.shapes {
                let colours: Vec<Rgba> = match shape {
                    Shape::Fill { subpaths, color } if !subpaths.is_empty() => vec![*color],
                    Shape::Stroke { polylines, pen } if !polylines.is_empty() => vec![pen.color],
                    Shape::Circle { fill, .. } => fill.iter().copied().collect(),
                    _ => vec![],
                };
                if is_legend {
                    legend.extend(colours);
                } else if on_map {
                    drawn.extend(colours.into_iter().map(|c| (group.id.clone(), c)));
                }
            }
        }
        for (group, colour) in drawn {
            assert!(
                legend.contains(&colour),
                "{group}: {colour:?} not in the legend {legend:?}"
            );
        }
    }

    #[test]
    fn every_colour_of_every_mode_and_of_an_overlay_is_in_the_legend() {
        let mut mesh = split_mesh();
        let last = mesh.surfaces.len() - 1;
        mesh.surfaces[last].walkable = false;
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 0,
            },
            EdgeTag { transition: 3 },
        );
        mesh.hooks.push(Hook {
            name: "door".into(),
            position: [0.5, 0.5, 0.0],
        });
        let layers = [Layer {
            name: "split",
            mesh: &mesh,
        }];
        for mode in [
            Mode::Materials,
            Mode::Components,
            Mode::Regions,
            Mode::AabbDepth,
        ] {
            let scene = top_down(
                &layers,
                &Options {
                    mode,
                    ..Options::default()
                },
            )
            .unwrap();
            assert_every_colour_is_in_the_legend(&scene);
        }
        let other = split_mesh();
        let both = [
            layers[0],
            Layer {
                name: "other",
                mesh: &other,
            },
        ];
        let highlights = vec![Highlight {
            name: "walkable only in A".into(),
            color: Rgba::rgb(220, 30, 30),
            polygons: vec![vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]],
        }];
        let scene = top_down(
            &both,
            &Options {
                highlights,
                ..Options::default()
            },
        )
        .unwrap();
        assert_every_colour_is_in_the_legend(&scene);
        let texts: Vec<&str> = scene
            .groups
            .iter()
            .filter_map(|g| g.text.as_deref())
            .collect();
        assert!(
            texts.concat().contains("in all inputs (colours mixed)"),
            "{texts:?}"
        );
    }

    #[test]
    fn aabb_depth_legend_lists_only_the_depths_present() {
        // Four faces in a balanced tree: every leaf at depth 2; no face at depth 0 or 1.
        let mut mesh = NavMesh::default();
        for k in 0..4 {
            let x = k as f32 * 2.0;
            let base = mesh.vertices.len() as u32;
            mesh.vertices
                .extend([[x, 0.0, 0.0], [x + 1.0, 0.0, 0.0], [x, 1.0, 0.0]]);
            mesh.push_polygon(&[base, base + 1, base + 2], surface(4, true));
        }
        let layers = [Layer {
            name: "four",
            mesh: &mesh,
        }];
        let scene = top_down(
            &layers,
            &Options {
                mode: Mode::AabbDepth,
                ..Options::default()
            },
        )
        .unwrap();
        let texts: Vec<&str> = scene
            .groups
            .iter()
            .filter_map(|g| g.text.as_deref())
            .collect();
        let depths: Vec<&&str> = texts.iter().filter(|t| t.starts_with("depth ")).collect();
        assert_eq!(depths, vec![&"depth 2 (4 faces)"], "{texts:?}");
    }

    /// Every point every legend group draws, with the picture's size.
    fn legend_points(scene: &Scene) -> Vec<[f32; 2]> {
        let mut points = Vec::new();
        for group in scene.groups.iter().filter(|g| g.id.starts_with("legend")) {
            for shape in &group.shapes {
                match shape {
                    Shape::Fill { subpaths, .. } => points.extend(subpaths.iter().flatten()),
                    Shape::Stroke { polylines, pen } => {
                        // A stroke reaches half its width beyond its points.
                        let h = pen.width / 2.0;
                        for p in polylines.iter().flatten() {
                            points.push([p[0] + h, p[1] + h]);
                            points.push([p[0] - h, p[1] - h]);
                        }
                    }
                    Shape::Circle { center, radius, .. } => {
                        points.push([center[0] + radius, center[1] + radius]);
                        points.push([center[0] - radius, center[1] - radius]);
                    }
                }
            }
        }
        points
    }

    #[test]
    fn legend_stays_inside_the_picture_for_long_names_and_many_inputs() {
        // Every material there is (the longest names: "unknown material NNNNN"), each with a
        // large face count, and a name of 300 characters.
        let mut many = NavMesh::default();
        let materials: Vec<u16> = (0..40).chain([999, 65535]).collect();
        for (k, &m) in materials.iter().enumerate() {
            let x = k as f32;
            let base = many.vertices.len() as u32;
            many.vertices
                .extend([[x, 0.0, 0.0], [x + 1.0, 0.0, 0.0], [x, 1.0, 0.0]]);
            many.push_polygon(&[base, base + 1, base + 2], surface(m, true));
        }
        let long_name = format!("{}/room.wok", "a_very_long_folder_name".repeat(13));
        let mesh = split_mesh();
        let names: Vec<String> = (0..30)
            .map(|i| format!("/some/deep/folder/with_long_names/input_number_{i:03}_{long_name}"))
            .collect();
        for width in [MIN_WIDTH, 333, 700, 1400, 3000] {
            for mode in [Mode::Materials, Mode::Components] {
                let single = [Layer {
                    name: &long_name,
                    mesh: &many,
                }];
                let overlay: Vec<Layer> = names
                    .iter()
                    .map(|n| Layer {
                        name: n,
                        mesh: &mesh,
                    })
                    .collect();
                for layers in [&single[..], &overlay[..]] {
                    let options = Options {
                        mode,
                        width,
                        ..Options::default()
                    };
                    let scene = top_down(layers, &options).unwrap();
                    let points = legend_points(&scene);
                    assert!(points.len() > 100);
                    let (w, h) = (scene.width as f32, scene.height as f32);
                    for p in points {
                        assert!(
                            (0.0..=w).contains(&p[0]) && (0.0..=h).contains(&p[1]),
                            "width {width} {mode:?} {} inputs: legend point {p:?} outside {w}x{h}",
                            layers.len()
                        );
                    }
                    // Wrapped, not lost: the start and the end of a long name are both drawn.
                    let text: String = scene
                        .groups
                        .iter()
                        .filter(|g| g.id.starts_with("legend"))
                        .filter_map(|g| g.text.clone())
                        .collect();
                    assert!(text.contains("room.wok"), "{text}");
                }
            }
        }
    }

    #[test]
    fn legend_text_wraps_at_separators_and_cuts_the_last_line() {
        // 10 characters fit in (6 * 10 - 2) * 6 / 6 = 58 px at size 6.
        assert_eq!(fit_text("short", 58.0, 6.0), vec!["short"]);
        assert_eq!(
            fit_text("abc/defghij/klm", 58.0, 6.0),
            vec!["abc/defghi", "j/klm"]
        );
        assert_eq!(
            fit_text("folder/name_of_room", 58.0, 6.0),
            vec!["folder/", "name_of_", "room"]
        );
        // At most three lines; the third keeps the end of the text.
        let lines = fit_text(&"x".repeat(100), 58.0, 6.0);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[2], format!("...{}", "x".repeat(7)));
        for line in &lines {
            assert!(text_width(line, 6.0) <= 58.0);
        }
    }

    #[test]
    fn component_mode_shows_a_split_as_two_colours() {
        let mesh = split_mesh();
        let layers = [Layer {
            name: "split",
            mesh: &mesh,
        }];
        let options = Options {
            mode: Mode::Components,
            ..Options::default()
        };
        let scene = top_down(&layers, &options).unwrap();
        let colours = fill_colours(&scene, "input1-walkable");
        assert_eq!(colours, {
            let mut c = vec![palette::distinct(0), palette::distinct(1)];
            c.sort();
            c
        });
        // Materials mode: both squares are Stone, one colour.
        let scene = top_down(&layers, &Options::default()).unwrap();
        assert_eq!(
            fill_colours(&scene, "input1-walkable"),
            vec![palette::material(4)]
        );
        // The non-walkable square is drawn in its own grey group.
        assert_eq!(
            fill_colours(&scene, "input1-non-walkable"),
            vec![palette::NON_WALKABLE]
        );
    }

    #[test]
    fn geometry_maps_to_pixels_with_y_up() {
        let mesh = split_mesh();
        let layers = [Layer {
            name: "m",
            mesh: &mesh,
        }];
        let scene = top_down(&layers, &Options::default()).unwrap();
        let Shape::Fill { subpaths, .. } = &scene.group("input1-walkable").unwrap().shapes[0]
        else {
            panic!("fill expected");
        };
        // First triangle (0,0) (1,0) (1,1): x grows to the right, y grows upwards.
        let [a, b, c] = [subpaths[0][0], subpaths[0][1], subpaths[0][2]];
        assert!(b[0] > a[0] && (b[1] - a[1]).abs() < 1e-3);
        assert!(c[1] < b[1]);
        // One world unit is the same length on both axes.
        assert!(((b[0] - a[0]) - (b[1] - c[1])).abs() < 1e-3);
    }

    #[test]
    fn transitions_hooks_and_legend_are_drawn() {
        let mut mesh = split_mesh();
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 0,
            },
            EdgeTag { transition: 7 },
        );
        mesh.hooks.push(Hook {
            name: "use1".into(),
            position: [0.5, 0.5, 0.0],
        });
        let layers = [Layer {
            name: "room.wok",
            mesh: &mesh,
        }];
        let scene = top_down(&layers, &Options::default()).unwrap();
        assert!(scene.group("input1-transitions").is_some());
        let texts: Vec<&str> = scene
            .groups
            .iter()
            .filter_map(|g| g.text.as_deref())
            .collect();
        for expected in [
            "7",
            "use1",
            "room.wok",
            "Stone (4)",
            "not walkable",
            "x",
            "y",
        ] {
            assert!(texts.contains(&expected), "{expected} in {texts:?}");
        }
        assert!(texts.iter().any(|t| t.ends_with(" units")));
    }

    #[test]
    fn tiles_mode_counts_islands_per_tile() {
        // One strip of two triangles crossing the line x = 1 between two tiles: one
        // component, but two islands.
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 3], surface(4, true)); // centroid x = 0.67: tile 0
        mesh.push_polygon(&[1, 2, 3], surface(4, true)); // centroid x = 1.33: tile 1
        mesh.tile_grid = Some(TileGrid {
            columns: 2,
            rows: 1,
            tile_width: 1.0,
            tile_height: 1.0,
            origin: [0.0, 0.0],
        });
        let layers = [Layer {
            name: "t",
            mesh: &mesh,
        }];
        let tiles = top_down(
            &layers,
            &Options {
                mode: Mode::Tiles,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(fill_colours(&tiles, "input1-walkable").len(), 2);
        assert!(tiles.group("tile-grid").is_some());
        let texts: Vec<&str> = tiles
            .groups
            .iter()
            .filter_map(|g| g.text.as_deref())
            .collect();
        let joined = texts.join(" ");
        assert!(joined.contains("island 1 of 2 (tile 0,"), "{texts:?}");
        assert!(joined.contains("island 2 (tile 1,"), "{texts:?}");
        assert_every_colour_is_in_the_legend(&tiles);
        // The grid is 2 x 1 tiles of 1: its lines stay in the map frame, not the legend.
        let frame = frame_box(&tiles);
        for point in stroke_points(&tiles, "tile-grid") {
            assert!(inside(point, frame), "{point:?} outside {frame:?}");
        }
        let components = top_down(
            &layers,
            &Options {
                mode: Mode::Components,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(fill_colours(&components, "input1-walkable").len(), 1);
    }

    #[test]
    fn aabb_depth_and_regions_modes_colour_every_face() {
        let mesh = split_mesh();
        let layers = [Layer {
            name: "m",
            mesh: &mesh,
        }];
        for mode in [Mode::AabbDepth, Mode::Regions] {
            let scene = top_down(
                &layers,
                &Options {
                    mode,
                    ..Options::default()
                },
            )
            .unwrap();
            // Four walkable faces; regions: four colours; depth: 6 leaves of a tree of
            // depth 2 and 3, so two depths among the walkable ones at most.
            let colours = fill_colours(&scene, "input1-walkable");
            match mode {
                Mode::Regions => assert_eq!(colours.len(), 4),
                _ => assert!(!colours.is_empty() && colours.len() <= 2, "{colours:?}"),
            }
        }
    }

    #[test]
    fn overlay_gives_each_input_its_colour() {
        let a = split_mesh();
        let mut b = split_mesh();
        for v in &mut b.vertices {
            v[0] += 0.5;
        }
        let layers = [
            Layer {
                name: "a",
                mesh: &a,
            },
            Layer {
                name: "b",
                mesh: &b,
            },
        ];
        let scene = top_down(&layers, &Options::default()).unwrap();
        assert_eq!(
            fill_colours(&scene, "input1-walkable"),
            vec![palette::overlay(0).with_alpha(110)]
        );
        assert_eq!(
            fill_colours(&scene, "input2-walkable"),
            vec![palette::overlay(1).with_alpha(110)]
        );
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        assert_eq!(
            top_down(&[], &Options::default()).unwrap_err(),
            RenderError::NoInput
        );
        let mesh = NavMesh::default();
        let layers = [Layer {
            name: "empty",
            mesh: &mesh,
        }];
        assert_eq!(
            top_down(
                &layers,
                &Options {
                    width: 10,
                    ..Options::default()
                }
            )
            .unwrap_err(),
            RenderError::Width(10)
        );
        // An empty mesh still gives a picture (frame, legend).
        assert!(top_down(&layers, &Options::default()).is_ok());
    }

    #[test]
    fn far_vertex_renders_in_bounded_time_and_size() {
        // Issue #24: one triangle with a corner at x = 1e30 once ran for seconds and took
        // gigabytes. The work must follow the picture's size, not the coordinates: every mode,
        // SVG and PNG, at the default and the largest width, well under a second in all.
        let started = std::time::Instant::now();
        for far in [
            [1e30, 0.0, 0.0],
            [0.0, 1e30, 0.0],
            [-1e30, 1e30, 0.0],
            [3e38, 0.0, 0.0],
        ] {
            let mut mesh = NavMesh {
                vertices: vec![[0.0, 0.0, 0.0], far, [0.0, 1.0, 0.0]],
                ..NavMesh::default()
            };
            mesh.push_polygon(&[0, 1, 2], surface(4, true));
            let layers = [Layer {
                name: "far.obj",
                mesh: &mesh,
            }];
            for mode in [
                Mode::Materials,
                Mode::Components,
                Mode::Tiles,
                Mode::Regions,
                Mode::AabbDepth,
            ] {
                for width in [Options::default().width, MAX_WIDTH] {
                    let options = Options {
                        mode,
                        width,
                        ..Options::default()
                    };
                    if mode == Mode::Tiles {
                        // An OBJ has no tile grid: refused, not drawn as one tile.
                        assert_eq!(
                            top_down(&layers, &options),
                            Err(RenderError::NoTiles("far.obj".into()))
                        );
                        continue;
                    }
                    let scene = top_down(&layers, &options).unwrap();
                    assert_eq!(scene.width, width);
                    // The map is at most 1.5 widths tall, plus the legend below it.
                    assert!(
                        scene.height <= 2 * width,
                        "{far:?} {mode:?}: {}",
                        scene.height
                    );
                    // Ticks are one per step of about an eighth of the extent: a handful.
                    let ticks = scene
                        .group("axes")
                        .map_or(0, |g| g.shapes.iter().map(polyline_count).sum());
                    assert!((1..=40).contains(&ticks), "{far:?} {mode:?}: {ticks} ticks");
                    assert!(!to_svg(&scene).is_empty());
                    if width == Options::default().width {
                        assert!(!to_png(&scene).unwrap().is_empty());
                    }
                }
            }
        }
        // Measured 0.3 s in release on the 2-core build machine; generous for debug builds.
        let took = started.elapsed();
        assert!(took.as_secs_f64() < 5.0, "took {took:?}");
    }

    #[test]
    fn far_geometry_without_width_in_plan_renders_in_bounded_size() {
        // Issue #33: a vertical triangle at x = 1e30 (no width in plan) and a triangle that is
        // one point in plan at (1e30, -1e30): the padded bounds kept a zero-wide axis (1e30 +
        // 0.1 == 1e30 in f64), the tick loop's i64 counter saturated and wrapped, and the
        // render grew to 24 GiB. The bounds must now have width, so no tick loop can run away.
        let vertical = vec![[1e30, 73.0, 0.0], [1e30, 118.0, 0.0], [1e30, 100.0, 5.0]];
        let point = vec![[1e30, -1e30, 0.0], [1e30, -1e30, 1.0], [1e30, -1e30, 2.0]];
        for vertices in [vertical, point] {
            let mut mesh = NavMesh {
                vertices,
                ..NavMesh::default()
            };
            mesh.push_polygon(&[0, 1, 2], surface(4, true));
            mesh.tile_grid = Some(TileGrid {
                columns: 3,
                rows: 3,
                tile_width: 9.0,
                tile_height: 9.0,
                origin: [1e30, 60.0],
            });
            mesh.edge_tags.insert(
                EdgeRef {
                    polygon: 0,
                    edge: 0,
                },
                EdgeTag { transition: 3 },
            );
            let layers = [Layer {
                name: "far.obj",
                mesh: &mesh,
            }];
            let (min, max) = world_bounds(&layers);
            for axis in 0..2 {
                assert!(max[axis] > min[axis], "axis {axis}: {min:?} {max:?}");
                assert!(ticks_between(min[axis], max[axis], 1.0).len() <= 65);
            }
            for mode in [
                Mode::Materials,
                Mode::Components,
                Mode::Tiles,
                Mode::Regions,
                Mode::AabbDepth,
            ] {
                let options = Options {
                    mode,
                    ..Options::default()
                };
                let scene = top_down(&layers, &options).unwrap();
                assert!(
                    scene.height <= 2 * scene.width,
                    "{mode:?}: {}",
                    scene.height
                );
                let ticks = scene
                    .group("axes")
                    .map_or(0, |g| g.shapes.iter().map(polyline_count).sum());
                assert!((1..=40).contains(&ticks), "{mode:?}: {ticks} ticks");
                let points: usize = scene
                    .groups
                    .iter()
                    .flat_map(|g| &g.shapes)
                    .map(|shape| match shape {
                        Shape::Stroke { polylines, .. } => polylines.iter().map(Vec::len).sum(),
                        Shape::Fill { subpaths, .. } => subpaths.iter().map(Vec::len).sum(),
                        Shape::Circle { .. } => 1,
                    })
                    .sum();
                assert!(points < 20_000, "{mode:?}: {points} points");
                assert!(to_svg(&scene).len() < 1 << 20);
                assert!(!to_png(&scene).unwrap().is_empty());
            }
        }
    }

    #[test]
    fn ticks_are_bounded_whatever_the_range() {
        assert_eq!(ticks_between(0.0, 1.0, 0.5), vec![0.0, 0.5, 1.0]);
        assert_eq!(ticks_between(-1.0, -0.5, 0.5), vec![-1.0, -0.5]);
        assert!(ticks_between(0.0, 1e30, 1.0).is_empty());
        assert!(ticks_between(1e30, 1e30, 0.5).len() <= 1);
        assert!(ticks_between(f64::NAN, 1.0, 1.0).is_empty());
        assert!(ticks_between(0.0, f64::INFINITY, 1.0).is_empty());
    }

    #[test]
    fn transition_labels_are_spaced_per_value_and_capped() {
        let mut spots = LabelSpots::default();
        spots.offer(1, [0.0, 0.0]);
        spots.offer(1, [59.0, 0.0]); // too near the first of value 1
        spots.offer(2, [10.0, 0.0]); // another value: labelled
        spots.offer(1, [61.0, 0.0]); // far enough (across a cell boundary)
        spots.offer(1, [f32::NAN, 0.0]);
        assert_eq!(
            spots.labels.iter().map(|l| l.0).collect::<Vec<_>>(),
            vec![1, 2, 1, 1]
        );
        for i in 0..10_000 {
            spots.offer(i, [0.0, 0.0]);
        }
        assert_eq!(spots.labels.len(), MAX_TRANSITION_LABELS);
    }

    fn polyline_count(shape: &Shape) -> usize {
        match shape {
            Shape::Stroke { polylines, .. } => polylines.len(),
            _ => 0,
        }
    }

    #[test]
    fn nice_steps_and_tick_labels() {
        assert_eq!(nice_step(0.13), 0.1);
        assert_eq!(nice_step(2.7), 2.0);
        assert_eq!(nice_step(4.0), 5.0);
        assert_eq!(nice_step(80.0), 100.0);
        assert_eq!(nice_step(f64::NAN), 1.0);
        assert_eq!(tick_label(160.0, 20.0), "160");
        assert_eq!(tick_label(0.25, 0.05), "0.25");
        assert_eq!(tick_label(-0.0, 1.0), "0");
        assert_eq!(tick_label(-1e-17, 0.1), "0");
        assert_eq!(tick_label(1e30, 1e23), "1.0000000e30");
        assert_eq!(tick_label(-2.5e9, 5e8), "-2.5e9");
        assert_eq!(tick_label(5e8, 5e8), "5e8");
    }
}
