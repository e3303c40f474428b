//! The facts `walkmesh info` reports.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ir::NavMesh;
use crate::passes::{boundary_loops, connected_components, edge_adjacency, polygon_area};

/// Axis-aligned bounds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BoundingBox {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

/// What `walkmesh info` prints. Connectivity figures are over the walkable region.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub format: String,
    pub kind: String,
    pub vertices: usize,
    pub faces: usize,
    pub triangles_only: bool,
    /// Mean corners per face, and the corners and area of the largest face (by area): for
    /// formats of n-gons (PATH regions) how coarse the partition is.
    pub mean_corners: f64,
    pub largest_face_corners: usize,
    pub largest_face_area: f64,
    pub walkable_faces: usize,
    pub bbox: Option<BoundingBox>,
    /// Sum of the walkable polygons' areas.
    pub walkable_area: f64,
    /// Connected walkable regions (polygons joined through shared edges).
    pub components: usize,
    /// Closed boundary loops of the walkable region (outer loops and holes).
    pub boundary_loops: usize,
    pub outer_loops: usize,
    pub hole_loops: usize,
    /// Boundary chains that do not close (a sign of non-manifold or flipped geometry).
    pub open_boundary_chains: usize,
    pub non_manifold_edges: usize,
    /// Neutral material name → polygon count.
    pub materials: BTreeMap<String, usize>,
    pub edge_tags: usize,
    pub hooks: usize,
}

/// Computes the summary of `mesh`; `format` is the id of the format it was read from.
pub fn summarize(mesh: &NavMesh, format: &str) -> Summary {
    let walkable = |p: usize| mesh.is_walkable(p);
    let adjacency = edge_adjacency(mesh, walkable);
    let loops = boundary_loops(mesh, &adjacency);
    let components = connected_components(mesh, &adjacency, walkable);
    let closed: Vec<_> = loops.iter().filter(|l| l.closed).collect();
    let mut materials = BTreeMap::new();
    for surface in &mesh.surfaces {
        *materials
            .entry(surface.material.name().into_owned())
            .or_insert(0) += 1;
    }
    let corners = mesh.polygons.indices().len();
    let (largest_face_area, largest_face_corners) = (0..mesh.polygons.len())
        .map(|p| (polygon_area(mesh, p), mesh.polygons.get(p).len()))
        .fold(
            (0.0f64, 0usize),
            |best, face| {
                if face.0 > best.0 { face } else { best }
            },
        );
    // An empty f64 sum is -0.0, which would print as "-0.000000".
    let walkable_area = (0..mesh.polygons.len())
        .filter(|&p| walkable(p))
        .map(|p| polygon_area(mesh, p))
        .sum::<f64>()
        + 0.0;
    Summary {
        format: format.to_string(),
        kind: mesh.kind.as_str().to_string(),
        vertices: mesh.vertices.len(),
        faces: mesh.polygons.len(),
        triangles_only: mesh.polygons.all_triangles(),
        mean_corners: corners as f64 / mesh.polygons.len().max(1) as f64,
        largest_face_corners,
        largest_face_area,
        walkable_faces: mesh.walkable_count(),
        bbox: mesh.bounds().map(|(min, max)| BoundingBox { min, max }),
        walkable_area,
        components: components.count,
        boundary_loops: closed.len(),
        outer_loops: closed.iter().filter(|l| l.is_outer()).count(),
        hole_loops: closed.iter().filter(|l| !l.is_outer()).count(),
        open_boundary_chains: loops.len() - closed.len(),
        non_manifold_edges: adjacency.non_manifold.len(),
        materials,
        edge_tags: mesh.edge_tags.len(),
        hooks: mesh.hooks.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Material, Surface};

    #[test]
    fn no_walkable_face_is_a_walkable_area_of_plus_zero() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            ..NavMesh::default()
        };
        mesh.push_polygon(
            &[0, 1, 2],
            Surface {
                material: Material(7),
                walkable: false,
                code: 7,
            },
        );
        let summary = summarize(&mesh, "obj");
        assert_eq!(format!("{:.6}", summary.walkable_area), "0.000000");
    }
}
