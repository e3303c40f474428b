//! Generated meshes for tests and benchmarks (not a file format feature).

use walkmesh_core::{EdgeRef, EdgeTag, Material, NavMesh, Surface};

/// A `columns × rows` grid of unit quads split into two triangles each (2·columns·rows
/// faces), gently undulating in z. Every 7th column of quads is a non-walkable strip
/// (material 7) so that walkable and non-walkable faces interleave and the writer must
/// reorder; the walkable faces are Stone (4) or Grass (3). The first row's bottom edges carry
/// transition 1.
pub fn grid(columns: u32, rows: u32) -> NavMesh {
    let stride = columns + 1;
    let mut mesh = NavMesh::default();
    mesh.vertices.reserve(((columns + 1) * (rows + 1)) as usize);
    for y in 0..=rows {
        for x in 0..=columns {
            let z = ((x as f32) * 0.05).sin() * 0.25 + ((y as f32) * 0.03).cos() * 0.25;
            mesh.vertices.push([x as f32, y as f32, z]);
        }
    }
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let grass = Surface {
        material: Material(3),
        walkable: true,
        code: 3,
    };
    let wall = Surface {
        material: Material(7),
        walkable: false,
        code: 7,
    };
    for y in 0..rows {
        for x in 0..columns {
            let a = y * stride + x;
            let surface = if x % 7 == 3 {
                wall
            } else if (x / 16 + y / 16) % 2 == 0 {
                stone
            } else {
                grass
            };
            let first = mesh.polygons.len() as u32;
            mesh.push_polygon(&[a, a + 1, a + stride + 1], surface);
            mesh.push_polygon(&[a, a + stride + 1, a + stride], surface);
            if y == 0 && surface.walkable {
                mesh.edge_tags.insert(
                    EdgeRef {
                        polygon: first,
                        edge: 0,
                    },
                    EdgeTag { transition: 1 },
                );
            }
        }
    }
    mesh
}
