//! Parse a generated triangle-grid OBJ and run the passes `walkmesh info` needs (adjacency,
//! boundary loops, components over the walkable region), at 250k and 1M triangles, with
//! tobj parsing the same text as a baseline in the same run.
//!
//! Reading growth figures: with glibc's default allocator the 250k case reuses freed heap
//! blocks between iterations while the 1M case's blocks cross the dynamic mmap threshold and
//! are mapped and zero-filled afresh every iteration (about 36 ms at 1M). To compare the
//! algorithm alone, keep both on the heap:
//! `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967295 cargo bench -p walkmesh-obj`

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use walkmesh_core::{Diagnostics, Input, ReadOptions, passes};
use walkmesh_obj::read_obj;

/// A `columns` x `rows` grid of unit squares, two triangles each, Y-up, two materials.
fn grid_obj(columns: usize, rows: usize) -> String {
    let mut text = String::with_capacity(columns * rows * 40);
    for y in 0..=rows {
        for x in 0..=columns {
            let _ = writeln!(text, "v {x} 0.25 {}", -(y as f64));
        }
    }
    let stride = columns + 1;
    for (band, material) in [(0..rows / 2, "Stone"), (rows / 2..rows, "Grass")] {
        let _ = writeln!(text, "usemtl {material}");
        for y in band {
            for x in 0..columns {
                let a = y * stride + x + 1;
                let (b, c, d) = (a + 1, a + stride + 1, a + stride);
                let _ = writeln!(text, "f {a} {b} {c}\nf {a} {c} {d}");
            }
        }
    }
    text
}

/// Overwrites a buffer twice the size of this machine's 32 MiB L3 before an iteration, so it
/// starts with a cold cache, as a command-line run does. (Measured here: cold and warm give
/// the same figures, so the growth from 250k to 1M is not a cache-size effect; see the
/// allocator note at the top.)
fn evict_caches(buffer: &mut [u8], round: &mut u8) {
    *round = round.wrapping_add(1);
    for chunk in buffer.chunks_mut(64) {
        if let Some(first) = chunk.first_mut() {
            *first = *round;
        }
    }
    black_box(&buffer);
}

/// What `walkmesh info` does to an OBJ: parse, then adjacency, loops and components over the
/// walkable region.
fn parse_and_passes(text: &str, options: &ReadOptions) -> usize {
    let mut diag = Diagnostics::new();
    let input = Input {
        bytes: text.as_bytes(),
        path: None,
    };
    let Ok(mesh) = read_obj(input, options, &mut diag) else {
        return 0;
    };
    let walkable = |p: usize| mesh.is_walkable(p);
    let adjacency = passes::edge_adjacency(&mesh, walkable);
    let loops = passes::boundary_loops(&mesh, &adjacency);
    let components = passes::connected_components(&mesh, &adjacency, walkable);
    loops.len() + components.count
}

fn bench(c: &mut Criterion) {
    let mut evict = vec![0u8; 64 << 20];
    let mut round = 0u8;
    let mut group = c.benchmark_group("obj");
    group.sample_size(10);
    for (label, columns, rows) in [("250k", 500, 250), ("1M", 1000, 500)] {
        let text = grid_obj(columns, rows);
        let options = ReadOptions::default();
        // Baseline in the same run: tobj parsing the same text (no triangulation, no MTL).
        group.bench_with_input(
            BenchmarkId::new("tobj-parse-baseline", label),
            &text,
            |b, text| {
                b.iter(|| {
                    let mut reader = std::io::BufReader::new(text.as_bytes());
                    black_box(tobj::load_obj_buf(
                        &mut reader,
                        &tobj::LoadOptions::default(),
                        |_| Err(tobj::LoadError::OpenFileFailed),
                    ))
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("parse", label), &text, |b, text| {
            b.iter(|| {
                let mut diag = Diagnostics::new();
                black_box(read_obj(
                    Input {
                        bytes: text.as_bytes(),
                        path: None,
                    },
                    &options,
                    &mut diag,
                ))
            })
        });
        let mut diag = Diagnostics::new();
        let Ok(mesh) = read_obj(
            Input {
                bytes: text.as_bytes(),
                path: None,
            },
            &options,
            &mut diag,
        ) else {
            return;
        };
        assert_eq!(mesh.polygons.len(), columns * rows * 2);
        group.bench_with_input(
            BenchmarkId::new("adjacency+loops+components", label),
            &mesh,
            |b, mesh| {
                b.iter(|| {
                    let walkable = |p: usize| mesh.is_walkable(p);
                    let adjacency = passes::edge_adjacency(mesh, walkable);
                    let loops = passes::boundary_loops(mesh, &adjacency);
                    let components = passes::connected_components(mesh, &adjacency, walkable);
                    black_box((loops.len(), components.count))
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("parse+passes", label), &text, |b, text| {
            b.iter(|| black_box(parse_and_passes(text, &options)))
        });
        group.bench_with_input(
            BenchmarkId::new("parse+passes cold cache", label),
            &text,
            |b, text| {
                b.iter_batched(
                    || evict_caches(&mut evict, &mut round),
                    |()| black_box(parse_and_passes(text, &options)),
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
