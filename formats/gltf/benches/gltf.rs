//! Writing and reading a 1,000,000-triangle walkmesh as .glb (the JSON form with an embedded
//! buffer is not measured: large meshes travel as .glb).
#![allow(clippy::panic)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use walkmesh_core::{
    Diagnostics, Input, Material, NavMesh, ReadOptions, Reader, Surface, WriteOptions, Writer,
};
use walkmesh_gltf::GltfFormat;

/// 500 × 1000 quads as 1,000,000 triangles; every tenth row non-walkable.
fn million_triangles() -> NavMesh {
    let (columns, rows) = (500u32, 1000u32);
    let mut mesh = NavMesh::default();
    for y in 0..=rows {
        for x in 0..=columns {
            mesh.vertices
                .push([x as f32, y as f32, ((x * 7 + y * 3) % 5) as f32 * 0.01]);
        }
    }
    let stride = columns + 1;
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let wall = Surface {
        material: Material(7),
        walkable: false,
        code: 7,
    };
    for y in 0..rows {
        let surface = if y % 10 == 9 { wall } else { stone };
        for x in 0..columns {
            let a = y * stride + x;
            mesh.push_polygon(&[a, a + 1, a + stride + 1], surface);
            mesh.push_polygon(&[a, a + stride + 1, a + stride], surface);
        }
    }
    mesh
}

fn bench(c: &mut Criterion) {
    let mesh = million_triangles();
    let options = WriteOptions {
        file_name: Some("million.glb".into()),
        ..WriteOptions::default()
    };
    let bytes = match GltfFormat.write(&mesh, &options, &mut Diagnostics::new()) {
        Ok(output) => output.main,
        Err(error) => panic!("write failed: {error}"),
    };
    let mut group = c.benchmark_group("gltf_1m_triangles");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("write_glb", |b| {
        b.iter(|| GltfFormat.write(&mesh, &options, &mut Diagnostics::new()))
    });
    group.bench_function("read_glb", |b| {
        b.iter(|| {
            GltfFormat.read(
                Input {
                    bytes: &bytes,
                    path: None,
                },
                &ReadOptions::default(),
                &mut Diagnostics::new(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
