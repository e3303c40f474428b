//! The layers of the inspector: face colourings (one colour per face) and line drawings (coloured
//! segments drawn over the faces), each with its legend. Computed here, in Rust, from the same
//! passes `render` and `info` use, so the page only draws.

use std::collections::BTreeMap;

use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::passes::{
    Adjacency, boundary_loops, connected_components, edge_adjacency, leaf_depths,
};
use walkmesh_core::{Attribute, Capabilities, Material, NavMesh};
use walkmesh_render::{Rgba, palette};

use crate::fields::{FaceFields, ints_of};

/// One colour per face.
#[derive(Debug, Clone, PartialEq)]
pub struct FaceLayer {
    pub name: &'static str,
    /// RGB of each face.
    pub colours: Vec<[u8; 3]>,
    pub legend: Vec<([u8; 3], String)>,
}

/// Coloured segments drawn over the faces.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineLayer {
    pub name: &'static str,
    /// Segment ends, two points a segment.
    pub points: Vec<[f32; 3]>,
    /// RGB of each segment.
    pub colours: Vec<[u8; 3]>,
    pub legend: Vec<([u8; 3], String)>,
}

impl LineLayer {
    fn new(name: &'static str) -> LineLayer {
        LineLayer {
            name,
            ..LineLayer::default()
        }
    }

    fn segment(&mut self, a: [f32; 3], b: [f32; 3], colour: [u8; 3]) {
        self.points.push(a);
        self.points.push(b);
        self.colours.push(colour);
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }
}

/// Most segments a line layer carries into the page (the NWN2 visible links of a large area
/// run to hundreds of thousands); the legend says when some were left out.
pub const MAX_SEGMENTS: usize = 60_000;

fn rgb(colour: Rgba) -> [u8; 3] {
    [colour.0, colour.1, colour.2]
}

/// Mean of a polygon's corners.
pub fn centroid(mesh: &NavMesh, polygon: usize) -> [f32; 3] {
    let corners = mesh.polygons.get(polygon);
    let n = corners.len().max(1) as f32;
    let mut sum = [0.0f32; 3];
    for &v in corners {
        let p = mesh.vertex(v);
        for k in 0..3 {
            sum[k] += p[k];
        }
    }
    sum.map(|s| s / n)
}

/// The face layers of `mesh`.
pub fn face_layers(
    mesh: &NavMesh,
    capabilities: Capabilities,
    fields: &FaceFields,
) -> Vec<FaceLayer> {
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let mut layers = vec![
        materials(mesh),
        walkability(mesh),
        components(mesh, &adjacency),
        aabb_depth(mesh),
    ];
    if capabilities.tiles || mesh.tile_grid.is_some() {
        layers.push(tiles(mesh));
        layers.push(islands(mesh, fields));
    }
    if capabilities.regions {
        layers.push(labelled(
            "regions",
            (0..mesh.polygons.len()).map(|f| f as u32).collect(),
            "region",
        ));
    }
    layers
}

fn materials(mesh: &NavMesh) -> FaceLayer {
    let mut counts: BTreeMap<u16, usize> = BTreeMap::new();
    let colours = mesh
        .surfaces
        .iter()
        .map(|s| {
            *counts.entry(s.material.0).or_insert(0) += 1;
            rgb(palette::material(s.material.0))
        })
        .collect();
    let legend = counts
        .into_iter()
        .map(|(id, n)| {
            (
                rgb(palette::material(id)),
                format!("{} ({n} faces)", Material(id).name()),
            )
        })
        .collect();
    FaceLayer {
        name: "materials",
        colours,
        legend,
    }
}

const WALKABLE: [u8; 3] = [90, 180, 90];
const NOT_WALKABLE: [u8; 3] = [150, 150, 150];

fn walkability(mesh: &NavMesh) -> FaceLayer {
    let walkable = mesh.walkable_count();
    FaceLayer {
        name: "walkability",
        colours: (0..mesh.polygons.len())
            .map(|f| {
                if mesh.is_walkable(f) {
                    WALKABLE
                } else {
                    NOT_WALKABLE
                }
            })
            .collect(),
        legend: vec![
            (WALKABLE, format!("walkable ({walkable} faces)")),
            (
                NOT_WALKABLE,
                format!("not walkable ({} faces)", mesh.polygons.len() - walkable),
            ),
        ],
    }
}

/// One distinct colour per label; unlabelled faces grey.
fn labelled(name: &'static str, labels: Vec<u32>, what: &str) -> FaceLayer {
    let mut sizes: BTreeMap<u32, usize> = BTreeMap::new();
    let colours = labels
        .iter()
        .map(|&l| {
            if l == u32::MAX {
                NOT_WALKABLE
            } else {
                *sizes.entry(l).or_insert(0) += 1;
                rgb(palette::distinct(l as usize))
            }
        })
        .collect();
    let count = sizes.len();
    let mut legend: Vec<([u8; 3], String)> = sizes
        .iter()
        .take(24)
        .map(|(&l, &n)| {
            (
                rgb(palette::distinct(l as usize)),
                format!("{what} {l} ({n} faces)"),
            )
        })
        .collect();
    if count > 24 {
        legend.push((
            [255, 255, 255],
            format!("… {} more {what}s, colours repeat", count - 24),
        ));
    }
    if labels.contains(&u32::MAX) {
        legend.push((NOT_WALKABLE, format!("no {what}")));
    }
    FaceLayer {
        name,
        colours,
        legend,
    }
}

fn components(mesh: &NavMesh, adjacency: &Adjacency) -> FaceLayer {
    let components = connected_components(mesh, adjacency, |p| mesh.is_walkable(p));
    labelled("components", components.label, "component")
}

/// The tile of every polygon: the `nwn2:tile` column, else the grid cell of its centroid.
fn tile_of(mesh: &NavMesh) -> Vec<u32> {
    if let Some(Attribute::Int(tiles)) = mesh.face_attributes.get("nwn2:tile")
        && tiles.len() == mesh.polygons.len()
    {
        return tiles
            .iter()
            .map(|&t| u32::try_from(t).unwrap_or(u32::MAX))
            .collect();
    }
    let Some(grid) = mesh.tile_grid else {
        return vec![u32::MAX; mesh.polygons.len()];
    };
    (0..mesh.polygons.len())
        .map(|p| {
            let c = centroid(mesh, p);
            let column = ((c[0] - grid.origin[0]) / grid.tile_width).floor();
            let row = ((c[1] - grid.origin[1]) / grid.tile_height).floor();
            if column >= 0.0 && row >= 0.0 && column.is_finite() && row.is_finite() {
                (row as u32).saturating_mul(grid.columns) + column as u32
            } else {
                u32::MAX
            }
        })
        .collect()
}

fn tiles(mesh: &NavMesh) -> FaceLayer {
    labelled("tiles", tile_of(mesh), "tile")
}

/// NWN2 islands as stored in each triangle's `island` field (0xFFFF: none).
fn islands(mesh: &NavMesh, fields: &FaceFields) -> FaceLayer {
    let labels = (0..mesh.polygons.len())
        .map(|f| match fields.value("triangles[{i}].island", f) {
            Some(DumpValue::Int(k)) if *k >= 0 && *k < 0xFFFF => *k as u32,
            Some(DumpValue::UInt(k)) if *k < 0xFFFF => *k as u32,
            _ => u32::MAX,
        })
        .collect();
    labelled("islands", labels, "island")
}

/// Depth of each polygon's leaf in the balanced AABB tree (as `render --mode aabb-depth`).
fn aabb_depth(mesh: &NavMesh) -> FaceLayer {
    let depth = leaf_depths(mesh);
    let deepest = depth.iter().copied().max().unwrap_or(0).max(1);
    let shade = |d: u32| rgb(palette::ramp(f64::from(d) / f64::from(deepest)));
    let mut present: Vec<u32> = depth.clone();
    present.sort_unstable();
    present.dedup();
    FaceLayer {
        name: "aabb-depth",
        colours: depth.iter().map(|&d| shade(d)).collect(),
        legend: present
            .iter()
            .map(|&d| (shade(d), format!("depth {d}")))
            .collect(),
    }
}

/// The line layers of `mesh`.
pub fn line_layers(
    mesh: &NavMesh,
    capabilities: Capabilities,
    tree: Option<&DumpNode>,
) -> Vec<LineLayer> {
    let mut layers = vec![boundary(mesh)];
    if capabilities.transitions {
        layers.push(transitions(mesh));
        layers.push(hooks(mesh));
    }
    if capabilities.tiles
        && let Some(tree) = tree
    {
        layers.push(visible_links(mesh, tree));
    }
    if capabilities.regions
        && let Some(tree) = tree
    {
        layers.push(region_links(mesh, tree));
        layers.push(octree(tree));
    }
    layers
}

fn edge_points(mesh: &NavMesh, polygon: u32, edge: u32) -> Option<([f32; 3], [f32; 3])> {
    let corners = mesh.polygons.get(polygon as usize);
    let a = *corners.get(edge as usize)?;
    let b = *corners.get((edge as usize + 1) % corners.len().max(1))?;
    Some((mesh.vertex(a), mesh.vertex(b)))
}

// Blue, not black: the wireframe is dark grey and the loops run along polygon edges.
const CLOSED_LOOP: [u8; 3] = [20, 70, 220];
const OPEN_CHAIN: [u8; 3] = [230, 20, 20];

fn boundary(mesh: &NavMesh) -> LineLayer {
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let mut layer = LineLayer::new("boundary");
    let (mut closed, mut open) = (0, 0);
    for chain in boundary_loops(mesh, &adjacency) {
        let colour = if chain.closed {
            closed += 1;
            CLOSED_LOOP
        } else {
            open += 1;
            OPEN_CHAIN
        };
        for edge in &chain.edges {
            if let Some((a, b)) = edge_points(mesh, edge.polygon, edge.edge) {
                layer.segment(a, b, colour);
            }
        }
    }
    layer.legend = vec![(CLOSED_LOOP, format!("closed boundary loops ({closed})"))];
    if open > 0 {
        layer
            .legend
            .push((OPEN_CHAIN, format!("open boundary chains ({open})")));
    }
    layer
}

/// KotOR transitions, one colour per target room.
fn transitions(mesh: &NavMesh) -> LineLayer {
    let mut layer = LineLayer::new("transitions");
    let mut targets: BTreeMap<i32, usize> = BTreeMap::new();
    for (edge, tag) in &mesh.edge_tags {
        let colour = rgb(palette::distinct(tag.transition.unsigned_abs() as usize));
        if let Some((a, b)) = edge_points(mesh, edge.polygon, edge.edge) {
            layer.segment(a, b, colour);
            *targets.entry(tag.transition).or_insert(0) += 1;
        }
    }
    layer.legend = targets
        .into_iter()
        .map(|(room, n)| {
            (
                rgb(palette::distinct(room.unsigned_abs() as usize)),
                format!("transition to room {room} ({n} edges)"),
            )
        })
        .collect();
    if layer.legend.is_empty() {
        layer
            .legend
            .push(([255, 255, 255], "no transitions".into()));
    }
    layer
}

const HOOK: [u8; 3] = [255, 150, 0];

/// KotOR hooks (use points): a small 3-D cross each.
fn hooks(mesh: &NavMesh) -> LineLayer {
    let mut layer = LineLayer::new("hooks");
    let size = 0.4;
    for hook in &mesh.hooks {
        let p = hook.position;
        for k in 0..3 {
            let (mut a, mut b) = (p, p);
            a[k] -= size;
            b[k] += size;
            layer.segment(a, b, HOOK);
        }
    }
    let names: Vec<&str> = mesh.hooks.iter().map(|h| h.name.as_str()).collect();
    layer.legend = vec![(
        HOOK,
        if names.is_empty() {
            "no hooks".into()
        } else {
            format!("hooks: {}", names.join(", "))
        },
    )];
    layer
}

fn find<'a>(node: &'a DumpNode, name: &str) -> Option<&'a DumpNode> {
    if node.name == name {
        return Some(node);
    }
    node.children.iter().find_map(|c| find(c, name))
}

fn child<'a>(node: &'a DumpNode, name: &str) -> Option<&'a DumpNode> {
    node.children.iter().find(|c| c.name == name)
}

fn int_of(node: &DumpNode, name: &str) -> Option<usize> {
    match child(node, name)?.value.as_ref()? {
        DumpValue::Int(v) => usize::try_from(*v).ok(),
        DumpValue::UInt(v) => usize::try_from(*v).ok(),
        _ => None,
    }
}

fn floats_of(node: &DumpNode, name: &str) -> Option<[f32; 3]> {
    match child(node, name)?.value.as_ref()? {
        DumpValue::Floats(v) => Some([*v.first()?, *v.get(1)?, *v.get(2)?]),
        _ => None,
    }
}

const VISIBLE: [u8; 3] = [0, 140, 255];

/// NWN2 path tables: a segment between the centres of two triangles of one tile whose entry
/// has the "visible" bit (0x80) set; each pair once.
fn visible_links(mesh: &NavMesh, tree: &DumpNode) -> LineLayer {
    let mut layer = LineLayer::new("visible-links");
    let mut total = 0usize;
    if let Some(tiles) = find(tree, "tiles") {
        for tile in &tiles.children {
            let (Some(start), Some(locals), Some(nodes)) = (
                int_of(tile, "triangles_offset"),
                ints_of(tile, "path_table.node_to_local"),
                ints_of(tile, "path_table.nodes"),
            ) else {
                continue;
            };
            let n = locals.len();
            for a in 0..n {
                for b in a + 1..n {
                    let Some(&entry) = nodes.get(a * n + b) else {
                        continue;
                    };
                    if entry == 0xFF || entry & 0x80 == 0 {
                        continue;
                    }
                    total += 1;
                    if layer.len() >= MAX_SEGMENTS {
                        continue;
                    }
                    let face = |node: usize| {
                        locals
                            .get(node)
                            .and_then(|&l| usize::try_from(l).ok())
                            .map(|l| start + l)
                            .filter(|&f| f < mesh.polygons.len())
                    };
                    if let (Some(fa), Some(fb)) = (face(a), face(b)) {
                        layer.segment(centroid(mesh, fa), centroid(mesh, fb), VISIBLE);
                    }
                }
            }
        }
    }
    let shown = layer.len();
    layer.legend = vec![(
        VISIBLE,
        if shown < total {
            format!("path-table visible pairs: first {shown} of {total} drawn")
        } else {
            format!("path-table visible pairs ({total})")
        },
    )];
    layer
}

const LINK: [u8; 3] = [220, 0, 160];

/// Metroid Prime PATH: a segment from each region's centre to each linked region's centre.
fn region_links(mesh: &NavMesh, tree: &DumpNode) -> LineLayer {
    let mut layer = LineLayer::new("links");
    if let (Some(regions), Some(links)) = (find(tree, "regions"), find(tree, "links")) {
        for (r, region) in regions.children.iter().enumerate() {
            let (Some(start), Some(count)) =
                (int_of(region, "link_start"), int_of(region, "link_count"))
            else {
                continue;
            };
            for j in 0..count {
                let Some(link) = links.children.get(start.saturating_add(j)) else {
                    break;
                };
                let Some(other) = int_of(link, "region") else {
                    continue;
                };
                if r < mesh.polygons.len() && other < mesh.polygons.len() {
                    layer.segment(centroid(mesh, r), centroid(mesh, other), LINK);
                }
            }
        }
    }
    layer.legend = vec![(LINK, format!("region links ({})", layer.len()))];
    layer
}

const OCTREE: [u8; 3] = [60, 60, 200];

/// Metroid Prime PATH: the boxes of the octree's leaves.
fn octree(tree: &DumpNode) -> LineLayer {
    let mut layer = LineLayer::new("octree");
    let mut leaves = 0;
    if let Some(octree) = find(tree, "octree") {
        for node in &octree.children {
            if int_of(node, "is_leaf") != Some(1) {
                continue;
            }
            let (Some(min), Some(max)) = (floats_of(node, "aabb_min"), floats_of(node, "aabb_max"))
            else {
                continue;
            };
            leaves += 1;
            box_edges(&mut layer, min, max, OCTREE);
        }
    }
    layer.legend = vec![(OCTREE, format!("octree leaves ({leaves})"))];
    layer
}

/// The 12 edges of an axis-aligned box.
fn box_edges(layer: &mut LineLayer, min: [f32; 3], max: [f32; 3], colour: [u8; 3]) {
    let corner = |i: usize| {
        [
            if i & 1 == 0 { min[0] } else { max[0] },
            if i & 2 == 0 { min[1] } else { max[1] },
            if i & 4 == 0 { min[2] } else { max[2] },
        ]
    };
    for i in 0..8usize {
        for bit in [1usize, 2, 4] {
            if i & bit == 0 {
                layer.segment(corner(i), corner(i | bit), colour);
            }
        }
    }
}
