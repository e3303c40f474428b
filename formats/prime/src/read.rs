//! PATH → IR.
//!
//! Each region becomes one polygon. PATH stores region corners clockwise seen from +Z; the IR
//! wants counter-clockwise, so the corners are reversed while node 0 stays the polygon's
//! vertex 0: IR polygon = `[n0, n(k−1), …, n1]`, and PATH edge `j` (node j → j+1) is IR edge
//! `k − 1 − j` run backwards.
//!
//! **Links are the only connectivity.** Nodes belong to their region in PATH, and the IR
//! joins polygons by shared vertex indices, so the reader gives every region its own
//! vertices and welds exactly the nodes that links join: for a link of region r across its
//! edge a → b to region s, the edge of s that runs b → a seen from above (same x and y bits)
//! is found and both ends are welded. Regions that merely touch, or whose edges coincide
//! without a link, stay apart, so components, `--rebuild` and conversions to other formats
//! keep the file's connectivity. A welded vertex takes the position of its first node (by
//! region): after a cook under a region budget the two sides of a link can differ in height
//! (each region lies on its own plane), and the cooker moves such regions back onto their
//! planes when it rebuilds them.
//!
//! Region height and masks become face attributes; everything else (links, tables, octree,
//! MP2 extras, padding) stays in the provenance (the whole file), re-emitted unchanged while
//! the authored data is unchanged.

use std::collections::HashMap;
use std::sync::Arc;

use walkmesh_core::{
    Attribute, Diagnostics, Extra, MaterialProfile, MeshKind, NavMesh, Provenance, ReadError,
    Surface,
};

use walkmesh_core::ir::{axis_name, first_non_finite};
use walkmesh_core::passes::triangulate::MAX_POLYGON_CORNERS;

use crate::model::{NODE_SIZE, PathFile, region_size};

/// Face attribute: region prism height (`f32`).
pub const ATTR_HEIGHT: &str = "path:height";
/// Face attribute: AI pathfinding-index mask (u16).
pub const ATTR_INDEX_MASK: &str = "path:index_mask";
/// Face attribute: locomotion type mask (u16: 1 ground, 2 flyer, 4 swimmer).
pub const ATTR_TYPE_MASK: &str = "path:type_mask";
/// Mesh extra: the version word (4, 6, 7).
pub const EXTRA_VERSION: &str = "path:version";

/// Text of the embedded PATH profile (`profiles/prime.ron`).
pub const PRIME_RON: &str = include_str!("../profiles/prime.ron");

/// The embedded PATH profile (engine `prime`).
pub fn embedded_profile() -> MaterialProfile {
    MaterialProfile::parse(PRIME_RON).unwrap_or_else(|_| {
        // The embedded text is checked by a unit test; the neutral profile keeps the
        // program going if that ever slips.
        MaterialProfile::neutral()
    })
}

/// The profile to use: the caller's when it is for engine `prime`, else the embedded one.
pub fn profile_for(options: Option<&Arc<MaterialProfile>>) -> MaterialProfile {
    match options {
        Some(profile) if profile.engine == "prime" => (**profile).clone(),
        _ => embedded_profile(),
    }
}

/// Surface of a region with type mask `mask`.
pub fn surface_for_mask(profile: &MaterialProfile, mask: u16) -> Surface {
    match profile.surface_for_code(u32::from(mask)) {
        Some(surface) => surface,
        None => Surface {
            walkable: mask & 1 != 0,
            code: u32::from(mask),
            ..profile.default_surface()
        },
    }
}

/// Converts a parsed file into the IR. Fails only when a region's node range cannot be
/// turned into a polygon (fewer than 3 nodes, or out of the node table).
pub fn to_navmesh(
    file: &PathFile,
    bytes: &[u8],
    profile: &MaterialProfile,
    _diag: &mut Diagnostics,
) -> Result<NavMesh, ReadError> {
    let mut mesh = NavMesh {
        kind: MeshKind::Area,
        ..NavMesh::default()
    };
    let mut heights = Vec::with_capacity(file.regions.len());
    let mut index_masks = Vec::with_capacity(file.regions.len());
    let mut type_masks = Vec::with_capacity(file.regions.len());
    let record = region_size(file.version);
    // Every region's nodes, checked: slot `slot_start[r] + k` is node k of region r.
    let mut region_nodes: Vec<&[crate::model::Node]> = Vec::with_capacity(file.regions.len());
    for (i, region) in file.regions.iter().enumerate() {
        let offset = file.layout.regions + i as u64 * record;
        let count = region.node_count as usize;
        if count < 3 {
            return Err(ReadError::at_offset(
                offset,
                format!("regions[{i}].node_count"),
                format!("region {i} has {count} nodes; a region needs at least 3"),
            ));
        }
        if count > MAX_POLYGON_CORNERS {
            return Err(ReadError::at_offset(
                offset,
                format!("regions[{i}].node_count"),
                format!(
                    "region {i} has {count} nodes; a polygon may have at most {MAX_POLYGON_CORNERS}"
                ),
            ));
        }
        let start = region.node_start as usize;
        let nodes = start
            .checked_add(count)
            .and_then(|end| file.nodes.get(start..end))
            .ok_or_else(|| {
                ReadError::at_offset(
                    offset + 4,
                    format!("regions[{i}].node_start"),
                    format!(
                        "region {i} uses nodes {start}..{} but the node table has {} nodes",
                        start as u64 + count as u64,
                        file.nodes.len()
                    ),
                )
            })?;
        if let Some((k, axis)) =
            first_non_finite(&nodes.iter().map(|n| n.position).collect::<Vec<_>>())
        {
            let node = start + k;
            return Err(ReadError::at_offset(
                file.layout.nodes + node as u64 * NODE_SIZE + 4 * axis as u64,
                format!("nodes[{node}].position.{}", axis_name(axis)),
                format!("node {node} (of region {i}) has a coordinate that is not a finite number"),
            ));
        }
        region_nodes.push(nodes);
    }
    let slots = weld_slots_by_links(file, &region_nodes);
    let mut vertex_of_slot: Vec<u32> = vec![u32::MAX; slots.root.len()];
    let mut slot = 0usize;
    for (i, region) in file.regions.iter().enumerate() {
        let nodes = region_nodes.get(i).copied().unwrap_or(&[]);
        let count = nodes.len();
        let mut polygon = Vec::with_capacity(count);
        // [n0, n(k-1), ..., n1]: clockwise file order reversed, node 0 first.
        for k in 0..count {
            let local = (count - k) % count;
            let root = slots
                .root
                .get(slot + local)
                .copied()
                .unwrap_or(slot + local);
            let vertex = match vertex_of_slot.get(root).copied() {
                Some(v) if v != u32::MAX => v,
                _ => {
                    let v = mesh.vertices.len() as u32;
                    let position = slots.position.get(root).copied().unwrap_or([0.0; 3]);
                    mesh.vertices.push(position);
                    if let Some(entry) = vertex_of_slot.get_mut(root) {
                        *entry = v;
                    }
                    v
                }
            };
            polygon.push(vertex);
        }
        slot += count;
        let positions: Vec<[f32; 3]> = polygon
            .iter()
            .map(|&v| mesh.vertices.get(v as usize).copied().unwrap_or([0.0; 3]))
            .collect();
        polygon.rotate_left(fan_safe_start(&positions));
        mesh.push_polygon(&polygon, surface_for_mask(profile, region.type_mask));
        heights.push(region.height);
        index_masks.push(i64::from(region.index_mask));
        type_masks.push(i64::from(region.type_mask));
    }
    mesh.face_attributes
        .insert(ATTR_HEIGHT.to_string(), Attribute::Float(heights));
    mesh.face_attributes
        .insert(ATTR_INDEX_MASK.to_string(), Attribute::Int(index_masks));
    mesh.face_attributes
        .insert(ATTR_TYPE_MASK.to_string(), Attribute::Int(type_masks));
    mesh.extras.insert(
        EXTRA_VERSION.to_string(),
        Extra::Int(i64::from(file.version)),
    );
    let mut sections: Vec<(String, Arc<[u8]>)> = vec![("file".to_string(), Arc::from(bytes))];
    if let (Some(start), Some(_)) = (file.layout.point_graph, &file.point_graph) {
        let range = start as usize..file.layout.trailing as usize;
        if let Some(graph) = bytes.get(range) {
            sections.push(("point_graph".to_string(), Arc::from(graph)));
        }
    }
    mesh.provenance = Some(Provenance {
        format: "path".to_string(),
        fingerprint: mesh.fingerprint(),
        sections,
        ..Provenance::default()
    });
    Ok(mesh)
}

/// Where to start a convex polygon so that a fan from its first corner has no zero-area
/// triangle: a corner whose two neighbours both turn (a fan from corner s degenerates exactly
/// where a neighbour of s lies straight between its own neighbours, on a side through s).
/// Cooked regions keep collinear corners where the neighbour region changes (T-junctions),
/// and other formats take regions apart as fans. 0 when it already works or nothing does.
fn fan_safe_start(points: &[[f32; 3]]) -> usize {
    let n = points.len();
    if n <= 3 {
        return 0;
    }
    let at = |i: usize| points.get(i % n).map_or([0.0; 3], |p| p.map(f64::from));
    let turns = |i: usize| {
        let (u, a, w) = (at(i + n - 1), at(i), at(i + 1));
        let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
        let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
        let cross = d1x * d2y - d1y * d2x;
        cross.abs() > 1e-9 * (d1x.hypot(d1y) * d2x.hypot(d2y))
    };
    (0..n)
        .find(|&s| turns(s + n - 1) && turns(s + 1))
        .unwrap_or(0)
}

/// Node slots (node k of region r is slot `Σ earlier node counts + k`) grouped by the links
/// that join them.
struct Slots {
    /// Union-find root of every slot (the smallest slot of its group).
    root: Vec<usize>,
    /// Position of every slot's node.
    position: Vec<[f32; 3]>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while let Some(&p) = parent.get(x) {
        if p == x {
            break;
        }
        let grand = parent.get(p).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(x) {
            *slot = grand;
        }
        x = grand;
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    let (low, high) = (ra.min(rb), ra.max(rb));
    if let Some(slot) = parent.get_mut(high) {
        *slot = low;
    }
}

/// A region and the x, y bits of an edge's two ends.
type EdgeKey = (usize, (u32, u32), (u32, u32));

/// Welds, for every link, the ends of the owner's edge with the ends of the neighbour's edge
/// between the same points (the one running the other way, else one running the same way:
/// folds; matched by the x and y bits of its ends, through a hash map, so
/// the whole pass is linear).
fn weld_slots_by_links(file: &PathFile, region_nodes: &[&[crate::model::Node]]) -> Slots {
    let xy = |p: [f32; 3]| (p[0].to_bits(), p[1].to_bits());
    let mut starts = Vec::with_capacity(region_nodes.len());
    let mut position = Vec::new();
    for nodes in region_nodes {
        starts.push(position.len());
        position.extend(nodes.iter().map(|n| n.position));
    }
    // (region, start xy, end xy) -> slot of the edge's start node.
    let mut edge_of: HashMap<EdgeKey, usize> = HashMap::new();
    for (r, nodes) in region_nodes.iter().enumerate() {
        let n = nodes.len();
        for k in 0..n {
            let (Some(a), Some(b)) = (nodes.get(k), nodes.get((k + 1) % n)) else {
                continue;
            };
            edge_of
                .entry((r, xy(a.position), xy(b.position)))
                .or_insert(starts[r] + k);
        }
    }
    let mut root: Vec<usize> = (0..position.len()).collect();
    for (r, region) in file.regions.iter().enumerate() {
        let Some(nodes) = region_nodes.get(r) else {
            continue;
        };
        let n = nodes.len();
        let first = region.link_start as usize;
        let links = first
            .checked_add(region.link_count as usize)
            .and_then(|end| file.links.get(first..end))
            .unwrap_or(&[]);
        for link in links {
            let k = link.node as usize;
            let s = link.region as usize;
            if k >= n || s == r || s >= region_nodes.len() {
                continue;
            }
            let (Some(a), Some(b)) = (nodes.get(k), nodes.get((k + 1) % n)) else {
                continue;
            };
            let m = region_nodes[s].len();
            let (here_a, here_b) = (starts[r] + k, starts[r] + (k + 1) % n);
            if let Some(&twin) = edge_of.get(&(s, xy(b.position), xy(a.position))) {
                // The neighbour's edge runs b → a, as in a consistently wound mesh.
                let twin_end = starts[s] + (twin - starts[s] + 1) % m;
                union(&mut root, here_a, twin_end);
                union(&mut root, here_b, twin);
            } else if let Some(&same) = edge_of.get(&(s, xy(a.position), xy(b.position))) {
                // It runs a → b too: a fold (a face of the source wound the other way),
                // which the source's adjacency links as well.
                let same_end = starts[s] + (same - starts[s] + 1) % m;
                union(&mut root, here_a, same);
                union(&mut root, here_b, same_end);
            }
        }
    }
    for slot in 0..root.len() {
        let r = find(&mut root, slot);
        if let Some(entry) = root.get_mut(slot) {
            *entry = r;
        }
    }
    Slots { root, position }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::Material;

    #[test]
    fn embedded_profile_parses_and_maps_type_masks() {
        let profile = MaterialProfile::parse(include_str!("../profiles/prime.ron")).unwrap();
        assert_eq!(profile.engine, "prime");
        let ground = surface_for_mask(&profile, 1);
        assert!(ground.walkable);
        assert_eq!(ground.material, Material(4));
        let flyer = surface_for_mask(&profile, 2);
        assert!(!flyer.walkable);
        assert_eq!(flyer.material, Material(8));
        assert_eq!(surface_for_mask(&profile, 4).material, Material(17));
        // Unlisted combinations: default material, walkable when the ground bit is set.
        let both = surface_for_mask(&profile, 3);
        assert!(both.walkable);
        assert_eq!(both.code, 3);
        assert!(!surface_for_mask(&profile, 6).walkable);
        // A profile for another engine is ignored.
        let neutral = std::sync::Arc::new(MaterialProfile::neutral());
        assert_eq!(profile_for(Some(&neutral)).engine, "prime");
    }
}
