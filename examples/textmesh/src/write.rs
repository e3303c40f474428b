//! Writes a mesh as textmesh text, and reports what textmesh cannot store.

use std::fmt::Write as _;

use walkmesh_core::{Diagnostics, NavMesh};

use crate::HEADER;

/// The file's text: the header, every vertex (shortest decimal that reads back to the same
/// `f32`), every face with its material and walkability.
pub fn write_textmesh(mesh: &NavMesh, diag: &mut Diagnostics) -> Vec<u8> {
    report_dropped(mesh, diag);
    let mut text = String::new();
    text.push_str(HEADER);
    text.push_str(
        "\n# vertices (x y z, Z up), then faces (0-based vertex indices, material, walk|wall)\n",
    );
    for [x, y, z] in &mesh.vertices {
        let _ = writeln!(text, "v {x} {y} {z}");
    }
    for (corners, surface) in mesh.polygons.iter().zip(&mesh.surfaces) {
        text.push('f');
        for corner in corners {
            let _ = write!(text, " {corner}");
        }
        let walk = if surface.walkable { "walk" } else { "wall" };
        let _ = writeln!(text, " {} {walk}", surface.material.name());
    }
    text.into_bytes()
}

/// Everything beyond vertices, faces and surfaces is dropped, each kind said once.
fn report_dropped(mesh: &NavMesh, diag: &mut Diagnostics) {
    let transitions = mesh
        .edge_tags
        .values()
        .filter(|t| t.transition != -1)
        .count();
    if transitions > 0 {
        diag.warn(
            "textmesh.transitions_dropped",
            format!("textmesh stores no room transitions; {transitions} are dropped"),
        );
    }
    if !mesh.hooks.is_empty() {
        diag.warn(
            "textmesh.hooks_dropped",
            format!("textmesh stores no hooks; {} are dropped", mesh.hooks.len()),
        );
    }
    if mesh.tile_grid.is_some() {
        diag.warn(
            "textmesh.tile_grid_dropped",
            "textmesh stores no tile grid; it is dropped",
        );
    }
    if mesh.origin != [0.0; 3] {
        diag.warn(
            "textmesh.origin_dropped",
            format!("textmesh stores no origin; {:?} is dropped", mesh.origin),
        );
    }
}
