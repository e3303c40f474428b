//! Every real room model of `shared/corpora/kotor-models/` against the counts and bounds in its
//! `STATS.csv`, measured there with an independent parser (and PyKotor).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkmesh_mdl::{read_model, read_render_mesh_file, render_mesh};

fn models_dir() -> PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join("kotor-models")
}

/// STATS.csv rows as column name → value (no field holds a comma).
fn stats_rows(dir: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("STATS.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len(), "STATS.csv row {line}");
            header
                .iter()
                .zip(fields)
                .map(|(h, f)| (h.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

fn number(row: &HashMap<String, String>, column: &str) -> usize {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} = {}", row[column]))
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_model_has_the_counts_and_bounds_of_stats_csv() {
    let dir = models_dir();
    let rows = stats_rows(&dir);
    assert_eq!(rows.len(), 34, "STATS.csv lists the 34 room pairs");
    for row in &rows {
        let file = &row["file"];
        let mdl_path = dir.join(format!("{file}.mdl"));
        let mdl = std::fs::read(&mdl_path).unwrap();
        let mdx = std::fs::read(dir.join(format!("{file}.mdx"))).unwrap();
        let model = read_model(&mdl, Some(&mdx)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(model.nodes.len(), number(row, "nodes"), "{file}: nodes");
        let render: Vec<usize> = model.render_nodes().collect();
        assert_eq!(
            render.len(),
            number(row, "render_nodes"),
            "{file}: render nodes"
        );
        let drawn = render
            .iter()
            .filter(|&&i| model.nodes[i].mesh.as_ref().unwrap().render)
            .count();
        assert_eq!(drawn, number(row, "render_nodes_r1"), "{file}: render = 1");
        assert!(
            model.vertex_copy_mismatches.is_empty(),
            "{file}: the .mdl vertex copy differs from the .mdx rows in {:?}",
            model.vertex_copy_mismatches
        );

        let mesh = render_mesh(&model).unwrap();
        mesh.check().unwrap();
        assert_eq!(
            mesh.polygons.len(),
            number(row, "render_tris"),
            "{file}: tris"
        );
        assert_eq!(
            mesh.vertices.len(),
            number(row, "render_verts"),
            "{file}: verts"
        );
        assert!(
            mesh.surfaces.iter().all(|s| !s.walkable),
            "{file}: nothing walkable"
        );
        check_bbox(file, &mesh, &row["render_bbox"]);

        // The same model read without its .mdx (the .mdl's vertex copy) and through the
        // file function give the same mesh.
        let without = render_mesh(&read_model(&mdl, None).unwrap()).unwrap();
        assert_eq!(without.vertices, mesh.vertices, "{file}: .mdl copy");
        let from_file = read_render_mesh_file(&mdl_path).unwrap();
        assert_eq!(from_file.vertices, mesh.vertices, "{file}: from the file");
        assert_eq!(from_file.polygons, mesh.polygons, "{file}: from the file");

        let walkmeshes: Vec<usize> = model.walkmesh_nodes().collect();
        assert_eq!(walkmeshes.len(), 1, "{file}: one walkmesh node");
        let walk = &model.nodes[walkmeshes[0]];
        assert_eq!(walk.name, row["aabb_node"], "{file}: walkmesh node name");
        let walk_mesh = walk.mesh.as_ref().unwrap();
        assert_eq!(walk_mesh.faces.len(), number(row, "aabb_faces"), "{file}");
        assert_eq!(
            walk_mesh.vertices.len(),
            number(row, "aabb_verts"),
            "{file}"
        );
    }
}

/// The model-space box of the render triangles' corners equals `expected` ("x y z x y z",
/// printed to three decimals) within 1e-3.
fn check_bbox(file: &str, mesh: &walkmesh_core::NavMesh, expected: &str) {
    let want: Vec<f64> = expected
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(want.len(), 6, "{file}: render_bbox");
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for &corner in mesh.polygons.indices() {
        let v = mesh.vertex(corner);
        for axis in 0..3 {
            min[axis] = min[axis].min(f64::from(v[axis]));
            max[axis] = max[axis].max(f64::from(v[axis]));
        }
    }
    let got = [min[0], min[1], min[2], max[0], max[1], max[2]];
    for (axis, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-3,
            "{file}: render bbox component {axis} is {g}, STATS.csv says {w}"
        );
    }
}
