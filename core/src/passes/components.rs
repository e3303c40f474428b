//! Connected components of a region: polygons joined through shared edges.

use crate::ir::NavMesh;
use crate::passes::adjacency::Adjacency;

/// Component label of every polygon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// Component of each polygon, numbered in order of each component's lowest polygon;
    /// [`Components::NONE`] for polygons outside the region.
    pub label: Vec<u32>,
    pub count: usize,
}

impl Components {
    pub const NONE: u32 = u32::MAX;
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    // Path halving keeps the trees flat without recursion.
    while parent[x as usize] != x {
        let grand = parent[parent[x as usize] as usize];
        parent[x as usize] = grand;
        x = grand;
    }
    x
}

/// Union-find over the links of `adjacency` among polygons for which `include` is true.
pub fn connected_components(
    mesh: &NavMesh,
    adjacency: &Adjacency,
    include: impl Fn(usize) -> bool,
) -> Components {
    let polygon_count = mesh.polygons.len();
    let mut parent: Vec<u32> = (0..polygon_count as u32).collect();
    for polygon in 0..polygon_count {
        if !include(polygon) {
            continue;
        }
        let first = mesh.polygons.first_index(polygon);
        for e in 0..mesh.polygons.get(polygon).len() {
            let Some(other) = adjacency.across(first + e) else {
                continue;
            };
            let other_polygon = mesh.polygons.edge_of_half_edge(other).polygon;
            if !include(other_polygon as usize) {
                continue;
            }
            let a = find(&mut parent, polygon as u32);
            let b = find(&mut parent, other_polygon);
            if a != b {
                // The smaller root wins, so labels follow polygon order.
                let (low, high) = (a.min(b), a.max(b));
                parent[high as usize] = low;
            }
        }
    }
    let mut label = vec![Components::NONE; polygon_count];
    let mut root_label = vec![Components::NONE; polygon_count];
    let mut count = 0usize;
    for (polygon, slot) in label.iter_mut().enumerate() {
        if !include(polygon) {
            continue;
        }
        let root = find(&mut parent, polygon as u32) as usize;
        if root_label[root] == Components::NONE {
            root_label[root] = count as u32;
            count += 1;
        }
        *slot = root_label[root];
    }
    Components { label, count }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;
    use crate::passes::adjacency::edge_adjacency;

    #[test]
    fn chains_and_islands() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 9],
            ..NavMesh::default()
        };
        let s = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        mesh.push_polygon(&[0, 1, 2], s); // A
        mesh.push_polygon(&[6, 7, 8], s); // island C
        mesh.push_polygon(&[1, 3, 2], s); // joins A via 1-2
        mesh.push_polygon(&[2, 3, 4], s); // joins via 3-2 ... wait shares 2-3
        mesh.push_polygon(&[0, 2, 5], s); // joins A via 0-2... shares 2-0 reversed
        let adjacency = edge_adjacency(&mesh, |_| true);
        let components = connected_components(&mesh, &adjacency, |_| true);
        assert_eq!(components.count, 2);
        assert_eq!(components.label, vec![0, 1, 0, 0, 0]);
        // Removing the bridge polygon 2 from the region splits polygon 3 off.
        let adjacency = edge_adjacency(&mesh, |p| p != 2);
        let components = connected_components(&mesh, &adjacency, |p| p != 2);
        assert_eq!(components.count, 3);
        assert_eq!(components.label, vec![0, 1, Components::NONE, 2, 0]);
    }

    #[test]
    fn touching_at_a_vertex_is_not_connected() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0; 3]; 5],
            ..NavMesh::default()
        };
        let s = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        mesh.push_polygon(&[0, 1, 2], s);
        mesh.push_polygon(&[2, 3, 4], s);
        let adjacency = edge_adjacency(&mesh, |_| true);
        assert_eq!(connected_components(&mesh, &adjacency, |_| true).count, 2);
    }
}
