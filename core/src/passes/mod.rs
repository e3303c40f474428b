//! Format-neutral geometry passes. Each is linear or n·log n in the mesh size and works on a
//! mesh that satisfies [`crate::NavMesh::check`].

pub mod aabb;
pub mod adjacency;
pub mod boundary;
pub mod components;
pub mod paths;
pub mod planes;
pub mod prepare;
pub mod reorder;
pub mod seams;
pub mod surfaces;
pub mod translate;
pub mod triangulate;
pub mod weld;

pub use aabb::{
    AabbNode, TreeNodes, balanced_aabb_tree, build_tree_in, leaf_depths, polygon_boxes,
    polygons_at_xy,
};
pub use adjacency::{Adjacency, NonManifoldEdge, edge_adjacency};
pub use boundary::{BoundaryLoop, boundary_loops};
pub use components::{Components, connected_components};
pub use paths::{dijkstra, next_hop_rows, next_hops, parallel_chunks, shortest_costs};
pub use planes::{
    STEEP_DEGREES, is_steep, plane_distance, polygon_area, polygon_normal, triangle_area,
    triangle_normal,
};
pub use prepare::{as_modelled, prepare};
pub use reorder::walkable_first;
pub use seams::{SEAM_TOLERANCE, unlinked_coincident_edges};
pub use surfaces::assign_default_surfaces;
pub use translate::{OffsetParseError, parse_offset, translate};
pub use triangulate::triangulate;
pub use weld::{WeldReport, weld};
