//! Generated meshes and the checks every cooked file must pass.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop,
    dead_code
)]

use walkmesh_core::passes::{connected_components, edge_adjacency, polygon_area};
use walkmesh_core::{Diagnostics, Material, NavMesh, Severity, Surface, WriteOptions};
use walkmesh_prime::PathFile;
use walkmesh_prime::cook::{CookReport, cook};
use walkmesh_prime::model::test_pair;

pub const WALK: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 4,
};
pub const WALL: Surface = Surface {
    material: Material(7),
    walkable: false,
    code: 7,
};

/// xorshift64*: small deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A grid of `nx` × `ny` cells of size `cell` at height z(x, y), each cell split into two
/// counter-clockwise triangles (diagonal alternating when `alternate`), skipping the cells
/// for which `keep` is false. Vertices are shared.
pub fn grid(
    nx: usize,
    ny: usize,
    cell: f32,
    origin: [f32; 2],
    z: impl Fn(f32, f32) -> f32,
    keep: impl Fn(usize, usize) -> bool,
    alternate: bool,
) -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=ny {
        for i in 0..=nx {
            let x = origin[0] + i as f32 * cell;
            let y = origin[1] + j as f32 * cell;
            mesh.vertices.push([x, y, z(x, y)]);
        }
    }
    let v = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    for j in 0..ny {
        for i in 0..nx {
            if !keep(i, j) {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if alternate && (i + j) % 2 == 1 {
                mesh.push_polygon(&[a, b, d], WALK);
                mesh.push_polygon(&[b, c, d], WALK);
            } else {
                mesh.push_polygon(&[a, b, c], WALK);
                mesh.push_polygon(&[a, c, d], WALK);
            }
        }
    }
    mesh
}

/// Appends `other`'s vertices and polygons to `mesh`.
pub fn append(mesh: &mut NavMesh, other: &NavMesh) {
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend_from_slice(&other.vertices);
    for (p, polygon) in other.polygons.iter().enumerate() {
        let shifted: Vec<u32> = polygon.iter().map(|v| v + base).collect();
        mesh.push_polygon(&shifted, other.surfaces[p]);
    }
}

fn region_area(file: &PathFile, r: usize) -> f64 {
    let region = &file.regions[r];
    let start = region.node_start as usize;
    let nodes = &file.nodes[start..start + region.node_count as usize];
    let mut n = [0.0f64; 3];
    for (i, a) in nodes.iter().enumerate() {
        let b = &nodes[(i + 1) % nodes.len()];
        let (a, b) = (a.position.map(f64::from), b.position.map(f64::from));
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() / 2.0
}

/// Total area of the regions (from the stored nodes).
pub fn covered_area(file: &PathFile) -> f64 {
    (0..file.regions.len()).map(|r| region_area(file, r)).sum()
}

/// Walkable area of a mesh (non-degenerate walkable polygons).
pub fn walkable_area(mesh: &NavMesh) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| polygon_area(mesh, p))
        .sum()
}

/// What [`check_cooked`] measured.
#[derive(Debug)]
pub struct Checked {
    pub file: PathFile,
    pub report: CookReport,
    pub bytes: Vec<u8>,
    pub diag: Diagnostics,
    pub regions: usize,
    pub components: usize,
    pub hits: usize,
}

/// Cooks `mesh` (a triangle or convex-polygon mesh, so no triangulation) and checks: the
/// bytes parse back to the same file, the validator finds nothing, the covered area equals
/// the walkable area within 1e-4 relative, the ground bits say "connected" exactly for
/// regions whose source polygons share a walkable component, and `regions_at` agrees with
/// brute force on `points` random points.
pub fn check_cooked(mesh: &NavMesh, options: &WriteOptions, points: usize, seed: u64) -> Checked {
    check_cooked_within(mesh, options, points, seed, 1e-4)
}

/// [`check_cooked`] with the covered 3-D area allowed to differ by `area_relative` (a region
/// budget tilts merged surfaces; the area seen from above is checked exactly then).
pub fn check_cooked_within(
    mesh: &NavMesh,
    options: &WriteOptions,
    points: usize,
    seed: u64,
    area_relative: f64,
) -> Checked {
    let mut diag = Diagnostics::new();
    let (file, report) = cook(mesh, options, &mut diag).unwrap();
    let bytes = file.encode();
    assert_eq!(bytes.len() % 32, 0);
    let parsed = PathFile::parse(&bytes).unwrap();
    assert_eq!(parsed.encode(), bytes);
    let findings: Vec<_> = walkmesh_prime::validate::findings(&parsed)
        .into_iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");

    let source = walkable_area(mesh);
    let covered = covered_area(&parsed);
    assert!(
        (covered - source).abs() <= area_relative * source.max(1e-12),
        "covered {covered} vs walkable {source}"
    );

    // Components of the source's walkable polygons against the ground table.
    assert!(!report.triangulated, "check_cooked expects convex input");
    let walkable = |p: usize| mesh.is_walkable(p);
    let adjacency = edge_adjacency(mesh, walkable);
    let components = connected_components(mesh, &adjacency, walkable);
    let n = parsed.regions.len();
    let mut label = vec![u32::MAX; n];
    for (p, &r) in report.region_of_polygon.iter().enumerate() {
        if r == u32::MAX {
            continue;
        }
        let l = components.label[p];
        assert!(
            label[r as usize] == u32::MAX || label[r as usize] == l,
            "region {r} spans two components"
        );
        label[r as usize] = l;
    }
    // Every region covers part of some input polygon (regions of a patch triangulated anew
    // may hold no input polygon whole).
    assert_eq!(report.source_of_region.len(), n);
    for (r, &p) in report.source_of_region.iter().enumerate() {
        let l = components.label[p as usize];
        assert!(
            label[r] == u32::MAX || label[r] == l,
            "region {r} spans two components"
        );
        label[r] = l;
    }
    for i in 0..n {
        for j in i + 1..n {
            let same = label[i] == label[j];
            assert_eq!(
                test_pair(&parsed.ground, n as u64, i as u64, j as u64),
                same,
                "ground bit of regions {i}, {j}"
            );
            assert_eq!(
                test_pair(&parsed.flyer, n as u64, i as u64, j as u64),
                same,
                "flyer bit of regions {i}, {j}"
            );
        }
    }

    // Point queries: half on region floors (random interior points, random heights in the
    // prism, and corners), half anywhere in the root box.
    let mut rng = Rng(seed | 1);
    let mut hits = 0;
    let root = parsed.octree.last().unwrap();
    for k in 0..points {
        let point = if n > 0 && k % 2 == 0 {
            let r = &parsed.regions[rng.below(n)];
            let start = r.node_start as usize;
            let nodes = &parsed.nodes[start..start + r.node_count as usize];
            let mut p = [0.0f64; 3];
            if k % 10 == 0 {
                p = nodes[rng.below(nodes.len())].position.map(f64::from);
            } else {
                let mut total = 0.0;
                for node in nodes {
                    let w = rng.unit();
                    total += w;
                    for a in 0..3 {
                        p[a] += w * f64::from(node.position[a]);
                    }
                }
                p = p.map(|c| c / total);
            }
            p[2] += rng.unit() * f64::from(r.height) * 1.2 - 0.1;
            p.map(|c| c as f32)
        } else {
            [0, 1, 2].map(|a| {
                let lo = f64::from(root.aabb_min[a]);
                let hi = f64::from(root.aabb_max[a]);
                (lo + (hi - lo) * (rng.unit() * 1.1 - 0.05)) as f32
            })
        };
        let fast = parsed.regions_at(point);
        let slow = parsed.regions_at_brute_force(point);
        assert_eq!(fast, slow, "point {point:?}");
        if !slow.is_empty() {
            hits += 1;
        }
    }
    // Keep the file for the independent peer check when asked to.
    if let Some(dir) = std::env::var_os("WALKMESH_PEER_DIR") {
        let dir = std::path::PathBuf::from(dir).join("path");
        std::fs::create_dir_all(&dir).unwrap();
        let name = format!("generated_{seed}_{n}_{}.path", bytes.len());
        std::fs::write(dir.join(name), &bytes).unwrap();
    }
    Checked {
        regions: n,
        components: components.count,
        file: parsed,
        report,
        bytes,
        diag,
        hits,
    }
}
