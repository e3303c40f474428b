//! Solving transitions for 50 rooms of 5,000 faces each (the target: under 50 ms), and
//! for 10 rooms as a baseline measured in the same run. Rooms are 50 × 50 grids of stone
//! triangles laid out in a 10-wide block so that each room meets up to four others along a
//! whole side.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::{Material, NavMesh, Surface};
use walkmesh_kotor_area::transitions::{DEFAULT_TOLERANCE, RoomMesh, solve};

const CELLS: usize = 50; // 50 × 50 × 2 = 5,000 faces

fn grid_room(index: usize) -> RoomMesh {
    let (ox, oy) = ((index % 10) as f32 * 10.0, (index / 10) as f32 * 10.0);
    let step = 10.0 / CELLS as f32;
    let mut mesh = NavMesh::default();
    for j in 0..=CELLS {
        for i in 0..=CELLS {
            mesh.vertices
                .push([ox + i as f32 * step, oy + j as f32 * step, 0.0]);
        }
    }
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let at = |i: usize, j: usize| (j * (CELLS + 1) + i) as u32;
    for j in 0..CELLS {
        for i in 0..CELLS {
            mesh.push_polygon(&[at(i, j), at(i + 1, j), at(i + 1, j + 1)], stone);
            mesh.push_polygon(&[at(i, j), at(i + 1, j + 1), at(i, j + 1)], stone);
        }
    }
    RoomMesh {
        lyt_index: index,
        name: format!("room{index}"),
        mesh,
    }
}

/// The room as the solver sees it in practice: written as a WOK and read back.
fn as_read_from_wok(room: RoomMesh) -> RoomMesh {
    let mut diag = walkmesh_core::Diagnostics::new();
    let bytes = walkmesh_bwm::write_bwm(&room.mesh, &Default::default(), &mut diag)
        .unwrap()
        .main;
    let mesh = walkmesh_bwm::read_bwm(
        walkmesh_core::Input {
            bytes: &bytes,
            path: None,
        },
        &Default::default(),
        &mut diag,
    )
    .unwrap();
    RoomMesh { mesh, ..room }
}

fn bench(c: &mut Criterion) {
    let room = as_read_from_wok(grid_room(0));
    c.bench_function(
        "perimeter of 1 room x 5000 faces, from its WOK edge table",
        |b| b.iter(|| walkmesh_kotor_area::transitions::perimeter_edges(&room.mesh, 0)),
    );
    c.bench_function("perimeter of 1 room x 5000 faces, computed", |b| {
        b.iter(|| walkmesh_kotor_area::transitions::computed_perimeter(&room.mesh, 0))
    });
    for count in [10usize, 50] {
        let rooms: Vec<RoomMesh> = (0..count).map(|i| as_read_from_wok(grid_room(i))).collect();
        assert_eq!(rooms[0].mesh.polygons.len(), 5000);
        let solution = solve(&rooms, count, DEFAULT_TOLERANCE);
        // 10-wide block: horizontal seams 9 per row, vertical seams 10 per row gap; each seam
        // is 50 edge pairs.
        let rows = count.div_ceil(10);
        let seams = rows * 9 + (rows - 1) * 10;
        assert_eq!(solution.pairs.len(), seams * CELLS);
        c.bench_function(&format!("solve {count} rooms x 5000 faces"), |b| {
            b.iter(|| solve(&rooms, count, DEFAULT_TOLERANCE))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
