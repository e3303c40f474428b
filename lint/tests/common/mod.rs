//! Hand-made walkmeshes with one known defect each, for the lint tests.
#![allow(dead_code, clippy::unwrap_used)]

use walkmesh_core::{Material, NavMesh, Surface};

/// Stone (walkable, KotOR code 4) and Grass (walkable) for material checks; NonWalk.
pub const STONE: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 4,
};
pub const GRASS: Surface = Surface {
    material: Material(3),
    walkable: true,
    code: 3,
};
pub const NON_WALK: Surface = Surface {
    material: Material(7),
    walkable: false,
    code: 7,
};

/// Adds a `cols` × `rows` floor of 1 m squares (two triangles each, counter-clockwise from
/// above) with its low corner at (x, y) and height z; returns the index of its first face.
/// Even squares are Stone, odd ones Grass, so that material keeping can be checked.
pub fn add_floor(mesh: &mut NavMesh, cols: u32, rows: u32, x: f32, y: f32, z: f32) -> u32 {
    let base = mesh.vertices.len() as u32;
    for r in 0..=rows {
        for c in 0..=cols {
            mesh.vertices.push([x + c as f32, y + r as f32, z]);
        }
    }
    let first = mesh.polygons.len() as u32;
    let at = |c: u32, r: u32| base + r * (cols + 1) + c;
    for r in 0..rows {
        for c in 0..cols {
            let surface = if (r + c) % 2 == 0 { STONE } else { GRASS };
            let (a, b, cc, d) = (at(c, r), at(c + 1, r), at(c + 1, r + 1), at(c, r + 1));
            mesh.push_polygon(&[a, b, cc], surface);
            mesh.push_polygon(&[a, cc, d], surface);
        }
    }
    first
}

/// A clean 8 × 6 floor.
pub fn clean_floor() -> NavMesh {
    let mut mesh = NavMesh::default();
    add_floor(&mut mesh, 8, 6, 0.0, 0.0, 0.0);
    mesh
}

/// A floor with a 30° ramp joined to its right side (shared vertices) and a non-walkable
/// wall standing on its left edge: still clean.
pub fn clean_floor_with_ramp_and_wall() -> NavMesh {
    let mut mesh = NavMesh::default();
    add_floor(&mut mesh, 4, 2, 0.0, 0.0, 0.0);
    // Right edge vertices: columns 4 at rows 0..=2 are indices 4, 9, 14.
    let rise = 30f32.to_radians().tan() * 2.0;
    let base = mesh.vertices.len() as u32;
    for r in 0..=2 {
        mesh.vertices.push([6.0, r as f32, rise]);
    }
    for r in 0..2u32 {
        let (a, b) = (4 + 5 * r, 4 + 5 * (r + 1));
        let (c, d) = (base + r, base + r + 1);
        mesh.push_polygon(&[a, c, d], STONE);
        mesh.push_polygon(&[a, d, b], STONE);
    }
    // A vertical wall on the left edge (x = 0), not walkable.
    let w = mesh.vertices.len() as u32;
    mesh.vertices.extend([[0.0, 0.0, 3.0], [0.0, 2.0, 3.0]]);
    mesh.push_polygon(&[0, 10, w + 1], NON_WALK);
    mesh.push_polygon(&[0, w + 1, w], NON_WALK);
    mesh
}

/// Two 2 × 2 floors side by side along x = 2, each with its own vertices on the seam; the
/// right one raised by `rise` and shifted right by `gap`. Returns the mesh and the faces that
/// touch the seam (left floor's, right floor's).
pub fn split_floor(rise: f32, gap: f32) -> (NavMesh, Vec<u32>, Vec<u32>) {
    let mut mesh = NavMesh::default();
    add_floor(&mut mesh, 2, 2, 0.0, 0.0, 0.0);
    let right = add_floor(&mut mesh, 2, 2, 2.0 + gap, 0.0, rise);
    // Left floor: squares (1, r) touch x = 2: faces 2, 6 (first triangle a-b-c has edge b-c).
    // Right floor: squares (0, r): faces right+0 … second triangle a-c-d has edge d-a.
    (mesh, vec![2, 6], vec![right + 1, right + 5])
}

/// A 2 × 2 floor on the left whose right edge (x = 2) is one long edge of two triangles,
/// next to two 1 m squares on the right that meet it at (2, 1): a T-junction. Returns the mesh
/// and the left face whose edge holds the vertex.
pub fn t_junction_floor() -> (NavMesh, u32) {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0], // 0
            [2.0, 0.0, 0.0], // 1
            [2.0, 2.0, 0.0], // 2
            [0.0, 2.0, 0.0], // 3
            [3.0, 0.0, 0.0], // 4
            [3.0, 1.0, 0.0], // 5
            [2.0, 1.0, 0.0], // 6: on edge 1-2
            [3.0, 2.0, 0.0], // 7
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], STONE); // 0: edge 1 runs 1→2 through vertex 6
    mesh.push_polygon(&[0, 2, 3], STONE); // 1
    mesh.push_polygon(&[1, 4, 5], GRASS); // 2
    mesh.push_polygon(&[1, 5, 6], GRASS); // 3
    mesh.push_polygon(&[6, 5, 7], GRASS); // 4
    mesh.push_polygon(&[6, 7, 2], GRASS); // 5
    (mesh, 0)
}

/// Sum of walkable face areas.
pub fn area(mesh: &NavMesh) -> f64 {
    walkmesh_lint::walkable_area(mesh)
}
