//! Stable walkable-first ordering.

use crate::ir::NavMesh;

/// Walkable polygons first, each group in its original order. Returns the reordered copy and
/// the order (new index → old index); edge tags and attributes follow their polygons.
pub fn walkable_first(mesh: &NavMesh) -> (NavMesh, Vec<u32>) {
    let count = mesh.polygons.len() as u32;
    let order: Vec<u32> = (0..count)
        .filter(|&p| mesh.is_walkable(p as usize))
        .chain((0..count).filter(|&p| !mesh.is_walkable(p as usize)))
        .collect();
    (mesh.with_polygon_order(&order), order)
}

/// True when no walkable polygon follows a non-walkable one.
pub fn is_walkable_first(mesh: &NavMesh) -> bool {
    let walkable = mesh.walkable_count();
    mesh.surfaces.iter().take(walkable).all(|s| s.walkable)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{EdgeRef, EdgeTag, Surface};
    use crate::material::Material;

    #[test]
    fn stable_partition_with_index_map() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 3],
            ..NavMesh::default()
        };
        for walkable in [false, true, false, true, true] {
            mesh.push_polygon(
                &[0, 1, 2],
                Surface {
                    material: Material(if walkable { 4 } else { 7 }),
                    walkable,
                    code: 0,
                },
            );
        }
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 2,
                edge: 1,
            },
            EdgeTag { transition: 3 },
        );
        assert!(!is_walkable_first(&mesh));
        let (sorted, order) = walkable_first(&mesh);
        assert_eq!(order, vec![1, 3, 4, 0, 2]);
        assert!(is_walkable_first(&sorted));
        assert_eq!(
            sorted.edge_tags.keys().next(),
            Some(&EdgeRef {
                polygon: 4,
                edge: 1
            })
        );
    }
}
