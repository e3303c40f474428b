//! `compare` of two 26,450-triangle areas (the size of the largest NWN2 corpus areas) that
//! differ a little (one vertex raised, some faces no longer walkable), and its parts.

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::{Material, NavMesh, Surface};
use walkmesh_diff::{Options, compare, footprint, surface_distance};

fn grid(n: u32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (i as f32 * 1.5, j as f32 * 1.5);
            mesh.vertices
                .push([x, y, (x * 0.1).sin() + (y * 0.07).cos()]);
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            let walkable = (i + j) % 7 != 0;
            let surface = Surface {
                material: Material(if walkable { 4 } else { 7 }),
                walkable,
                code: 0,
            };
            mesh.push_polygon(&[at(i, j), at(i + 1, j), at(i + 1, j + 1)], surface);
            mesh.push_polygon(&[at(i, j), at(i + 1, j + 1), at(i, j + 1)], surface);
        }
    }
    mesh
}

fn bench(c: &mut Criterion) {
    let a = grid(115);
    let mut b = a.clone();
    if let Some(v) = b.vertices.get_mut(5000) {
        v[2] += 0.5;
    }
    for s in b.surfaces.iter_mut().skip(100).step_by(500) {
        s.walkable = false;
    }
    let options = Options::default();
    c.bench_function("compare 26k vs 26k", |bench| {
        bench.iter(|| compare(&a, &b, &options).equal)
    });
    c.bench_function("footprint 26k vs 26k", |bench| {
        bench.iter(|| footprint(&a, &b, [0.0, 0.0], 0.0).symmetric_difference)
    });
    c.bench_function("surface distance 26k vs 26k", |bench| {
        bench.iter(|| surface_distance(&a, &b, [0.0; 3]).hausdorff)
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
