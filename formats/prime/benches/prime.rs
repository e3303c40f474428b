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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = cook, cook_under_budget, cook_straightened
}
criterion_main!(benches);
