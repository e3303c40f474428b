//! Hand-built meshes for tests and benches: floors made of unit grid cells.

use walkmesh_core::{Material, NavMesh, Surface};

/// A walkable surface of the default material.
pub fn walkable() -> Surface {
    Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    }
}

/// A floor of the unit cells `(column, row)` listed, each cell split into two
/// counter-clockwise triangles along its (x0,y0)–(x1,y1) diagonal. Vertices are shared on the
/// `(columns + 1) × (rows + 1)` lattice, so neighbouring cells link. `height(x, y)` gives each
/// lattice vertex's z.
pub fn cell_floor(
    columns: u32,
    rows: u32,
    cells: impl IntoIterator<Item = (u32, u32)>,
    height: impl Fn(f32, f32) -> f32,
) -> NavMesh {
    let mut mesh = NavMesh::default();
    for y in 0..=rows {
        for x in 0..=columns {
            let (fx, fy) = (x as f32, y as f32);
            mesh.vertices.push([fx, fy, height(fx, fy)]);
        }
    }
    let at = |x: u32, y: u32| y * (columns + 1) + x;
    for (x, y) in cells {
        let (a, b, c, d) = (at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1));
        mesh.push_polygon(&[a, b, c], walkable());
        mesh.push_polygon(&[a, c, d], walkable());
    }
    mesh
}

/// Every cell of a `columns × rows` floor, row by row.
pub fn open_floor(columns: u32, rows: u32) -> NavMesh {
    let cells = (0..rows).flat_map(|y| (0..columns).map(move |x| (x, y)));
    cell_floor(columns, rows, cells, |_, _| 0.0)
}
