//! Cooking a generated 100,352-triangle mesh (224 × 224 cells, two triangles each) into PATH:
//! a terraced floor (flat terraces joined by uniform ramps), so that the greedy merge, the
//! links, the tables and the octree all have work to do.

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::{Diagnostics, Material, NavMesh, Surface, WriteOptions};

fn terraced_grid(cells: usize) -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut mesh = NavMesh::default();
    let height = |i: usize| -> f32 {
        // 28-cell terraces joined by 4-cell ramps rising 2 units.
        let step = i / 32;
        let within = i % 32;
        let ramp = within.saturating_sub(28) as f32 / 4.0;
        (step as f32 + ramp) * 2.0
    };
    for j in 0..=cells {
        for i in 0..=cells {
            mesh.vertices.push([i as f32, j as f32, height(i)]);
        }
    }
    let v = |i: usize, j: usize| (j * (cells + 1) + i) as u32;
    for j in 0..cells {
        for i in 0..cells {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            mesh.push_polygon(&[a, b, c], walk);
            mesh.push_polygon(&[a, c, d], walk);
        }
    }
    mesh
}

fn cook(c: &mut Criterion) {
    let mesh = terraced_grid(224);
    assert_eq!(mesh.polygons.len(), 100_352);
    let options = WriteOptions::default();
    let regions = walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new())
        .map(|(file, _)| file.regions.len())
        .unwrap_or(0);
    println!(
        "cooked {} triangles into {regions} regions",
        mesh.polygons.len()
    );
    c.bench_function("cook 100k triangles", |b| {
        b.iter(|| walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()))
    });
}

/// A 96 × 96-cell (18,432-triangle) field whose heights ripple by up to 0.1: exact merging
/// leaves thousands of regions, so a budget of 512 runs the tolerance search (one exact
/// merge, one at the bound, bisection steps).
fn rippled_field(cells: usize) -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut mesh = NavMesh::default();
    for j in 0..=cells {
        for i in 0..=cells {
            let z = 0.1 * (((i * i * 7 + j * 13 + i * j * 3) % 11) as f32 / 10.0);
            mesh.vertices.push([i as f32, j as f32, z]);
        }
    }
    let v = |i: usize, j: usize| (j * (cells + 1) + i) as u32;
    for j in 0..cells {
        for i in 0..cells {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            mesh.push_polygon(&[a, b, c], walk);
            mesh.push_polygon(&[a, c, d], walk);
        }
    }
    mesh
}

fn cook_under_budget(c: &mut Criterion) {
    let mesh = rippled_field(96);
    let options = WriteOptions::default();
    let report = walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new())
        .map(|(_, report)| report);
    if let Ok(report) = &report {
        println!(
            "cooked {} triangles: merging at the default tolerance {} regions, budget met with {} at tolerance {:?}",
            mesh.polygons.len(),
            report.first_regions,
            report.regions(),
            report.tolerance
        );
    }
    c.bench_function("cook 18k rippled triangles under 512 regions", |b| {
        b.iter(|| walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()))
    });
}

/// A diamond of unit cells (|i − c| + |j − c| ≤ r) with a square pillar every 8 cells: a
/// staircase border and many holes, so that a budget of 512 regions needs the border
/// straightened after the widest height tolerance (vertex removal, the border search and
/// its bisection all run).
fn stepped_diamond(cells: usize) -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut mesh = NavMesh::default();
    for j in 0..=cells {
        for i in 0..=cells {
            mesh.vertices.push([i as f32, j as f32, 0.0]);
        }
    }
    let centre = (cells / 2) as i64;
    let v = |i: usize, j: usize| (j * (cells + 1) + i) as u32;
    for j in 0..cells {
        for i in 0..cells {
            let inside = (i as i64 - centre).abs() + (j as i64 - centre).abs() <= centre - 2;
            let pillar = i % 8 == 3 && j % 8 == 3;
            if !inside || pillar {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if (i + j) % 2 == 0 {
                mesh.push_polygon(&[a, b, c], walk);
                mesh.push_polygon(&[a, c, d], walk);
            } else {
                mesh.push_polygon(&[a, b, d], walk);
                mesh.push_polygon(&[b, c, d], walk);
            }
        }
    }
    mesh
}

fn cook_straightened(c: &mut Criterion) {
    let mesh = stepped_diamond(160);
    let options = WriteOptions::default();
    let report = walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new())
        .map(|(_, report)| report);
    match &report {
        Ok(report) => println!(
            "cooked {} triangles: {} regions at the default tolerance, {} written; border: {:?}",
            mesh.polygons.len(),
            report.first_regions,
            report.regions(),
            report.border
        ),
        Err(error) => println!("cooking the stepped diamond failed: {error}"),
    }
    c.bench_function("cook a stepped diamond under 512 regions", |b| {
        b.iter(|| walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()))
    });
}

/// A gently uneven floor with holes (issue #24; the same shape as `scripts/gen_floor.py`):
/// `side` × `side` unit cells, two triangles each with alternating diagonals, inner corners
/// jittered sideways by up to 0.2 and in height by up to 0.01 (within the default 0.05
/// tolerance), a 4 × 4-cell hole every 40 cells each way.
fn uneven_floor(side: usize) -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    // xorshift64*, mapped to [-1, 1).
    let mut noise = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let bits = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        (bits as f64 / (1u64 << 52) as f64 - 1.0) as f32
    };
    let mut mesh = NavMesh::default();
    for j in 0..=side {
        for i in 0..=side {
            let edge = i == 0 || j == 0 || i == side || j == side;
            let (dx, dy) = if edge {
                (0.0, 0.0)
            } else {
                (0.2 * noise(), 0.2 * noise())
            };
            mesh.vertices
                .push([i as f32 + dx, j as f32 + dy, 0.01 * noise()]);
        }
    }
    let v = |i: usize, j: usize| (j * (side + 1) + i) as u32;
    for j in 0..side {
        for i in 0..side {
            if i % 40 >= 36 && j % 40 >= 36 {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if (i + j) % 2 == 0 {
                mesh.push_polygon(&[a, b, c], walk);
                mesh.push_polygon(&[a, c, d], walk);
            } else {
                mesh.push_polygon(&[a, b, d], walk);
                mesh.push_polygon(&[b, c, d], walk);
            }
        }
    }
    mesh
}

/// Scaling of the cook on uneven floors of about 100k and 300k triangles: the time per
/// triangle should stay nearly flat (n log n). 1M and 4M are measured by hand with
/// `scripts/gen_floor.py` (docs/performance.md).
fn cook_scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("cook uneven floor");
    for side in [225, 389] {
        let mesh = uneven_floor(side);
        let options = WriteOptions::default();
        match walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()) {
            Ok((file, _)) => println!(
                "uneven floor {side}x{side}: {} triangles into {} regions",
                mesh.polygons.len(),
                file.regions.len()
            ),
            Err(error) => println!("uneven floor {side}x{side} failed: {error}"),
        }
        group.throughput(criterion::Throughput::Elements(mesh.polygons.len() as u64));
        group.bench_function(format!("{}k triangles", mesh.polygons.len() / 1000), |b| {
            b.iter(|| walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()))
        });
    }
    group.finish();
}

/// The stepped floor of issue #33 (`scripts/gen_floor.py --shape stepped`): `side` ×
/// `side` half-metre cells with alternating diagonals, corner (i, j) at height
/// 0.02 · ((7i + 3j) mod 5) (neighbouring faces differ by up to 0.08, more than the 0.05
/// tolerance), and a 29 × 29-cell hole in the middle of every third 40-cell block each way.
fn stepped_floor(side: usize) -> NavMesh {
    let walk = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let mut mesh = NavMesh::default();
    for j in 0..=side {
        for i in 0..=side {
            let z = 0.02 * ((7 * i + 3 * j) % 5) as f32;
            mesh.vertices.push([0.5 * i as f32, 0.5 * j as f32, z]);
        }
    }
    let in_hole = |k: usize| (k / 40).is_multiple_of(3) && (5..34).contains(&(k % 40));
    let v = |i: usize, j: usize| (j * (side + 1) + i) as u32;
    for j in 0..side {
        for i in 0..side {
            if in_hole(i) && in_hole(j) {
                continue;
            }
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            if (i + j) % 2 == 0 {
                mesh.push_polygon(&[a, b, c], walk);
                mesh.push_polygon(&[a, c, d], walk);
            } else {
                mesh.push_polygon(&[a, b, d], walk);
                mesh.push_polygon(&[b, c, d], walk);
            }
        }
    }
    mesh
}

/// The stepped floor at about 100k and 300k triangles: merging within 0.05 leaves about
/// three regions for four triangles, so the budget runs the tolerance search (issue #33;
/// 1M and 4M are measured by hand with `scripts/gen_floor.py --shape stepped`,
/// docs/performance.md).
fn cook_stepped(c: &mut Criterion) {
    let mut group = c.benchmark_group("cook stepped floor");
    for side in [230, 399] {
        let mesh = stepped_floor(side);
        let options = WriteOptions::default();
        match walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()) {
            Ok((file, report)) => println!(
                "stepped floor {side}x{side}: {} triangles, {} regions within 0.05, {} written at tolerance {:?}",
                mesh.polygons.len(),
                report.first_regions,
                file.regions.len(),
                report.tolerance
            ),
            Err(error) => println!("stepped floor {side}x{side} failed: {error}"),
        }
        group.throughput(criterion::Throughput::Elements(mesh.polygons.len() as u64));
        group.bench_function(format!("{}k triangles", mesh.polygons.len() / 1000), |b| {
            b.iter(|| walkmesh_prime::cook::cook(&mesh, &options, &mut Diagnostics::new()))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = cook, cook_under_budget, cook_straightened, cook_scaling, cook_stepped
}
criterion_main!(benches);
