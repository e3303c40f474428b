//! Times the surface router on an open floor: `cargo run --release -p walkmesh-route --example floor_timing [CELLS]`.
#![allow(clippy::unwrap_used)]
use std::time::Instant;
use walkmesh_route::SurfaceRouter;
use walkmesh_route::fixtures::open_floor;
use walkmesh_route::surface::dist;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    let t = Instant::now();
    let mesh = open_floor(n, n);
    let built = t.elapsed();
    let t = Instant::now();
    let router = SurfaceRouter::new(&mesh);
    let linked = t.elapsed();
    let f = f64::from(n);
    for (a, b) in [
        ([0.0, 0.0, 0.0], [f, f, 0.0]),
        ([0.1, 0.2, 0.0], [f - 0.1, f - 0.3, 0.0]),
        ([0.3, f - 0.2, 0.0], [f - 0.4, 0.1, 0.0]),
    ] {
        let t = Instant::now();
        let r = router.route_points(a, b).unwrap();
        let q = t.elapsed();
        let straight = dist(a, b);
        println!(
            "{} triangles: mesh {built:?}, links {linked:?}, query {q:?}; length {} straight {} ratio {} midpoint ratio {} points {} faces {}",
            mesh.polygons.len(),
            r.length,
            straight,
            r.length / straight,
            r.midpoint_length / straight,
            r.points.len(),
            r.faces.len()
        );
    }
}
