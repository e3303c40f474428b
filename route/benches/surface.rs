//! The surface router on a 500 × 500-cell open floor (500,000 triangles): building the links,
//! and corner-to-corner queries along both diagonals (the anti-diagonal crosses the cells'
//! split edges, where the edge-midpoint chain is √2 longer than the line and A* searches
//! widest).
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_route::SurfaceRouter;
use walkmesh_route::fixtures::open_floor;

fn surface(c: &mut Criterion) {
    let mesh = open_floor(500, 500);
    let mut group = c.benchmark_group("surface_500k");
    group.sample_size(10);
    group.bench_function("links", |b| b.iter(|| SurfaceRouter::new(&mesh)));
    let router = SurfaceRouter::new(&mesh);
    group.bench_function("query_diagonal", |b| {
        b.iter(|| {
            router
                .route_points([0.1, 0.2, 0.0], [499.9, 499.7, 0.0])
                .unwrap()
        })
    });
    group.bench_function("query_anti_diagonal", |b| {
        b.iter(|| {
            router
                .route_points([0.3, 499.8, 0.0], [499.6, 0.1, 0.0])
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, surface);
criterion_main!(benches);
