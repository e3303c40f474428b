//! Rendering a 26,450-triangle area (the size of the largest NWN2 corpus areas), built here
//! so the bench needs no corpus: scene building alone, then scene + SVG, scene + PNG.

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::{Material, NavMesh, Surface};
use walkmesh_render::{Layer, Mode, Options, to_png, to_svg, top_down};

/// A wavy grid of `n` x `n` squares, two triangles each, every seventh square not walkable.
pub fn grid(n: u32) -> NavMesh {
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
                material: Material(if walkable { 1 + (i / 20) as u16 % 5 } else { 7 }),
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
    let mesh = grid(115);
    let layers = [Layer {
        name: "grid",
        mesh: &mesh,
    }];
    let options = Options::default();
    c.bench_function("scene 26k triangles", |b| {
        b.iter(|| top_down(&layers, &options).map(|s| s.shape_count()))
    });
    c.bench_function("scene + svg 26k triangles", |b| {
        b.iter(|| top_down(&layers, &options).map(|s| to_svg(&s).len()))
    });
    c.bench_function("scene + png 26k triangles", |b| {
        b.iter(|| top_down(&layers, &options).map(|s| to_png(&s).map(|p| p.len())))
    });
    let components = Options {
        mode: Mode::Components,
        ..Options::default()
    };
    c.bench_function("scene + png 26k triangles, components", |b| {
        b.iter(|| top_down(&layers, &components).map(|s| to_png(&s).map(|p| p.len())))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
