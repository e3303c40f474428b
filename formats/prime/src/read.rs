//! PATH → IR.
//!
//! Each region becomes one polygon. PATH stores region corners clockwise seen from +Z; the IR
//! wants counter-clockwise, so the corners are reversed while node 0 stays the polygon's
//! vertex 0: IR polygon = `[n0, n(k−1), …, n1]`, and PATH edge `j` (node j → j+1) is IR edge
//! `k − 1 − j` run backwards. Node positions that are bit-for-bit equal become one IR vertex,
//! so neighbouring regions share edges in the IR. Region height and masks become face
//! attributes; everything else (links, tables, octree, MP2 extras, padding) stays in the
//! provenance (the whole file), re-emitted unchanged while the authored data is unchanged.

use std::collections::HashMap;
use std::sync::Arc;

use walkmesh_core::{
    Attribute, Diagnostics, Extra, MaterialProfile, MeshKind, NavMesh, Provenance, ReadError,
    Surface,
};

use crate::model::{PathFile, region_size};

/// Face attribute: region prism height (`f32`).
pub const ATTR_HEIGHT: &str = "path:height";
/// Face attribute: AI pathfinding-index mask (u16).
pub const ATTR_INDEX_MASK: &str = "path:index_mask";
/// Face attribute: locomotion type mask (u16: 1 ground, 2 flyer, 4 swimmer).
pub const ATTR_TYPE_MASK: &str = "path:type_mask";
/// Mesh extra: the version word (4, 6, 7).
pub const EXTRA_VERSION: &str = "path:version";

/// The embedded PATH profile (engine `prime`).
pub fn embedded_profile() -> MaterialProfile {
    MaterialProfile::parse(include_str!("../profiles/prime.ron")).unwrap_or_else(|_| {
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
    let mut vertex_of: HashMap<[u32; 3], u32> = HashMap::new();
    let mut heights = Vec::with_capacity(file.regions.len());
    let mut index_masks = Vec::with_capacity(file.regions.len());
    let mut type_masks = Vec::with_capacity(file.regions.len());
    let record = region_size(file.version);
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
        let mut polygon = Vec::with_capacity(count);
        // [n0, n(k-1), ..., n1]: clockwise file order reversed, node 0 first.
        for k in 0..count {
            let node = nodes
                .get((count - k) % count)
                .map_or([0.0; 3], |n| n.position);
            let key = node.map(f32::to_bits);
            let next = mesh.vertices.len() as u32;
            let vertex = *vertex_of.entry(key).or_insert_with(|| {
                mesh.vertices.push(node);
                next
            });
            polygon.push(vertex);
        }
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
