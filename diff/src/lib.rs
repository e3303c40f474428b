//! walkmesh-diff: compare two walkmeshes of any formats through the neutral mesh.
//!
//! What is compared: counts (vertices, faces, walkable faces), bounding boxes and the
//! translation between them, walkable area per neutral material, the footprint (area of the
//! symmetric difference of the walkable regions projected on XY, with where it lies), the
//! sampled surface distance (two-sided Hausdorff and means) and connectivity (components,
//! boundary loops, holes, non-manifold edges, transitions, hooks). [`DiffReport::equal`] says
//! whether everything agrees within the tolerance.

pub mod distance;
pub mod footprint;
pub mod html;

use std::collections::BTreeMap;

use serde::Serialize;
use walkmesh_core::NavMesh;
use walkmesh_core::passes::{boundary_loops, edge_adjacency, polygon_area};
use walkmesh_core::summary::{Summary, summarize};

pub use distance::{SurfaceDistance, surface_distance};
pub use footprint::{Footprint, Piece, Side, footprint};

/// How to compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Largest length difference counted as equal (translation, surface distance). Areas
    /// are equal within `tolerance` × the walkable boundary length (a band of that width
    /// along the boundary).
    pub tolerance: f64,
    /// Move B by the opposite of the translation between the bounding boxes before comparing
    /// footprints and surfaces (a mesh that a writer moved onto its grid then compares equal
    /// in shape, and the translation is still reported).
    pub align: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: 1e-4,
            align: false,
        }
    }
}

/// A count in A and B.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountRow {
    pub name: String,
    pub a: i64,
    pub b: i64,
    pub delta: i64,
}

/// An area in A and B.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AreaRow {
    pub name: String,
    pub a: f64,
    pub b: f64,
    pub delta: f64,
}

/// Bounding boxes and the translation from A's to B's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placement {
    pub a: Option<[[f64; 3]; 2]>,
    pub b: Option<[[f64; 3]; 2]>,
    /// B's minimum corner minus A's, rounded to 0.1 mm (below the precision of f32
    /// coordinates a few hundred units from the origin); zero when either is empty.
    pub translation: [f64; 3],
    /// Whether footprint and surfaces were compared after moving B back by `translation`.
    pub aligned: bool,
}

/// Everything `walkmesh diff` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffReport {
    /// True when every comparison agrees within the tolerance.
    pub equal: bool,
    pub tolerance: f64,
    /// Tolerance applied to areas: `tolerance` × the longer walkable boundary.
    pub area_tolerance: f64,
    /// What differs beyond the tolerance, one sentence each (empty when equal).
    pub differences: Vec<String>,
    pub counts: Vec<CountRow>,
    pub placement: Placement,
    /// Walkable area per neutral material (sum of polygon areas), plus the total.
    pub walkable_area: Vec<AreaRow>,
    pub footprint: Footprint,
    pub surface_distance: SurfaceDistance,
    pub connectivity: Vec<CountRow>,
}

impl DiffReport {
    /// The footprint pieces worth showing: larger than 1 % of the area tolerance (slivers
    /// along edges from f32 rounding are left out), largest first.
    pub fn listed_pieces(&self) -> Vec<&Piece> {
        self.footprint
            .pieces
            .iter()
            .filter(|p| p.area > self.area_tolerance / 100.0)
            .collect()
    }
}

fn count_row(name: &str, a: usize, b: usize) -> CountRow {
    let (a, b) = (a as i64, b as i64);
    CountRow {
        name: name.to_string(),
        a,
        b,
        delta: b - a,
    }
}

fn bounds(mesh: &NavMesh) -> Option<[[f64; 3]; 2]> {
    mesh.bounds()
        .map(|(min, max)| [min.map(f64::from), max.map(f64::from)])
}

/// Walkable area per material name, and the boundary length of the walkable region.
fn areas(mesh: &NavMesh) -> (BTreeMap<String, f64>, f64) {
    let mut per_material = BTreeMap::new();
    for (p, surface) in mesh.surfaces.iter().enumerate() {
        if surface.walkable {
            *per_material
                .entry(surface.material.name().into_owned())
                .or_insert(0.0) += polygon_area(mesh, p);
        }
    }
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let mut boundary = 0.0;
    for chain in boundary_loops(mesh, &adjacency) {
        for edge in chain.edges {
            let polygon = mesh.polygons.get(edge.polygon as usize);
            let (Some(&a), Some(&b)) = (
                polygon.get(edge.edge as usize),
                polygon.get((edge.edge as usize + 1) % polygon.len().max(1)),
            ) else {
                continue;
            };
            let (va, vb) = (mesh.vertex(a), mesh.vertex(b));
            boundary += (0..3)
                .map(|k| (f64::from(vb[k]) - f64::from(va[k])).powi(2))
                .sum::<f64>()
                .sqrt();
        }
    }
    (per_material, boundary)
}

fn connectivity(a: &Summary, b: &Summary) -> Vec<CountRow> {
    vec![
        count_row("components", a.components, b.components),
        count_row("boundary_loops", a.boundary_loops, b.boundary_loops),
        count_row("outer_loops", a.outer_loops, b.outer_loops),
        count_row("holes", a.hole_loops, b.hole_loops),
        count_row(
            "open_boundary_chains",
            a.open_boundary_chains,
            b.open_boundary_chains,
        ),
        count_row(
            "non_manifold_edges",
            a.non_manifold_edges,
            b.non_manifold_edges,
        ),
        count_row("transitions", a.edge_tags, b.edge_tags),
        count_row("hooks", a.hooks, b.hooks),
    ]
}

/// Compares `a` with `b`.
pub fn compare(a: &NavMesh, b: &NavMesh, options: &Options) -> DiffReport {
    let tolerance = if options.tolerance.is_finite() && options.tolerance >= 0.0 {
        options.tolerance
    } else {
        0.0
    };
    let (sa, sb) = (summarize(a, ""), summarize(b, ""));
    let counts = vec![
        count_row("vertices", sa.vertices, sb.vertices),
        count_row("faces", sa.faces, sb.faces),
        count_row("walkable_faces", sa.walkable_faces, sb.walkable_faces),
    ];
    let (box_a, box_b) = (bounds(a), bounds(b));
    let translation = match (box_a, box_b) {
        (Some(ba), Some(bb)) => {
            [0, 1, 2].map(|k| ((bb[0][k] - ba[0][k]) * 1e4).round() / 1e4 + 0.0)
        }
        _ => [0.0; 3],
    };
    let shift = if options.align {
        translation.map(|t| -t)
    } else {
        [0.0; 3]
    };

    let ((areas_a, boundary_a), (areas_b, boundary_b)) = (areas(a), areas(b));
    let area_tolerance = tolerance * boundary_a.max(boundary_b).max(1.0);
    let mut names: Vec<&String> = areas_a.keys().chain(areas_b.keys()).collect();
    names.sort();
    names.dedup();
    let mut walkable_area: Vec<AreaRow> = names
        .into_iter()
        .map(|name| {
            let x = areas_a.get(name).copied().unwrap_or(0.0);
            let y = areas_b.get(name).copied().unwrap_or(0.0);
            AreaRow {
                name: name.clone(),
                a: x,
                b: y,
                delta: (y - x) + 0.0,
            }
        })
        .collect();
    walkable_area.push(AreaRow {
        name: "total".into(),
        a: sa.walkable_area,
        b: sb.walkable_area,
        delta: (sb.walkable_area - sa.walkable_area) + 0.0,
    });

    let footprint = footprint::footprint(a, b, [shift[0], shift[1]]);
    let surface_distance = distance::surface_distance(a, b, shift);
    let connectivity = connectivity(&sa, &sb);

    let mut differences = Vec::new();
    for row in counts.iter().chain(&connectivity) {
        if row.delta != 0 {
            differences.push(format!(
                "{}: {} in A, {} in B ({:+})",
                row.name, row.a, row.b, row.delta
            ));
        }
    }
    if translation.iter().any(|t| t.abs() > tolerance) {
        differences.push(format!(
            "B is moved by ({}, {}, {}) from A",
            translation[0], translation[1], translation[2]
        ));
    }
    for row in &walkable_area {
        if row.delta.abs() > area_tolerance {
            differences.push(format!(
                "walkable area of {}: {:.6} in A, {:.6} in B ({:+.6})",
                row.name, row.a, row.b, row.delta
            ));
        }
    }
    if footprint.symmetric_difference > area_tolerance {
        differences.push(format!(
            "footprint: {:.6} walkable only in A, {:.6} only in B",
            footprint.only_a_area, footprint.only_b_area
        ));
    }
    // NaN or infinite distances (one surface empty) are differences too.
    if surface_distance.hausdorff.partial_cmp(&tolerance) != Some(std::cmp::Ordering::Less)
        && surface_distance.hausdorff != tolerance
    {
        differences.push(format!(
            "surface distance: Hausdorff {:.6} (A to B max {:.6}, B to A max {:.6})",
            surface_distance.hausdorff, surface_distance.a_to_b.max, surface_distance.b_to_a.max
        ));
    }
    DiffReport {
        equal: differences.is_empty(),
        tolerance,
        area_tolerance,
        differences,
        counts,
        placement: Placement {
            a: box_a,
            b: box_b,
            translation,
            aligned: options.align,
        },
        walkable_area,
        footprint,
        surface_distance,
        connectivity,
    }
}

/// The report as aligned text tables.
pub fn to_text(report: &DiffReport, name_a: &str, name_b: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "A: {name_a}\nB: {name_b}");
    let _ = writeln!(
        out,
        "result: {} (tolerance {}, areas {:.6})",
        if report.equal { "equal" } else { "different" },
        report.tolerance,
        report.area_tolerance
    );
    for line in &report.differences {
        let _ = writeln!(out, "  - {line}");
    }
    let _ = writeln!(
        out,
        "\n{:<22} {:>14} {:>14} {:>14}",
        "counts", "A", "B", "delta"
    );
    for row in report.counts.iter().chain(&report.connectivity) {
        let _ = writeln!(
            out,
            "{:<22} {:>14} {:>14} {:>+14}",
            row.name, row.a, row.b, row.delta
        );
    }
    let p = &report.placement;
    let fmt_box = |b: &Option<[[f64; 3]; 2]>| match b {
        Some([min, max]) => format!(
            "({:.4}, {:.4}, {:.4}) .. ({:.4}, {:.4}, {:.4})",
            min[0], min[1], min[2], max[0], max[1], max[2]
        ),
        None => "empty".into(),
    };
    let _ = writeln!(out, "\nbbox A:      {}", fmt_box(&p.a));
    let _ = writeln!(out, "bbox B:      {}", fmt_box(&p.b));
    let _ = writeln!(
        out,
        "translation: ({}, {}, {}){}",
        p.translation[0],
        p.translation[1],
        p.translation[2],
        if p.aligned {
            "  (B moved back before comparing shapes)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "\n{:<22} {:>14} {:>14} {:>14}",
        "walkable area", "A", "B", "delta"
    );
    for row in &report.walkable_area {
        let _ = writeln!(
            out,
            "{:<22} {:>14.4} {:>14.4} {:>+14.4}",
            row.name, row.a, row.b, row.delta
        );
    }
    let f = &report.footprint;
    let _ = writeln!(
        out,
        "\nfootprint (XY): A {:.4}, B {:.4}; only in A {:.4}, only in B {:.4}, symmetric difference {:.4}",
        f.area_a, f.area_b, f.only_a_area, f.only_b_area, f.symmetric_difference
    );
    let listed = report.listed_pieces();
    for piece in listed.iter().take(10) {
        let _ = writeln!(
            out,
            "  {:<7} area {:>12.4} around ({:.2}, {:.2}), box ({:.2}, {:.2}) .. ({:.2}, {:.2})",
            match piece.side {
                Side::OnlyA => "only A",
                Side::OnlyB => "only B",
            },
            piece.area,
            piece.centre[0],
            piece.centre[1],
            piece.min[0],
            piece.min[1],
            piece.max[0],
            piece.max[1]
        );
    }
    if f.piece_count > listed.len().min(10) {
        let _ = writeln!(
            out,
            "  ({} pieces in all; listed: the largest, of more than 1 % of the area tolerance)",
            f.piece_count
        );
    }
    let d = &report.surface_distance;
    let _ = writeln!(
        out,
        "\nsurface distance: Hausdorff {:.6}; A to B max {:.6} mean {:.6} ({} samples); B to A max {:.6} mean {:.6} ({} samples)",
        d.hausdorff,
        d.a_to_b.max,
        d.a_to_b.mean,
        d.a_to_b.samples,
        d.b_to_a.max,
        d.b_to_a.mean,
        d.b_to_a.samples
    );
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{EdgeRef, EdgeTag, Material, Surface};

    fn stone() -> Surface {
        Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        }
    }

    /// A 4 x 2 rectangle of two triangles at `(x0, y0)`.
    fn rectangle(x0: f32, y0: f32) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![
                [x0, y0, 0.0],
                [x0 + 4.0, y0, 0.0],
                [x0 + 4.0, y0 + 2.0, 0.0],
                [x0, y0 + 2.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], stone());
        mesh.push_polygon(&[0, 2, 3], stone());
        mesh
    }

    #[test]
    fn a_mesh_equals_itself_with_every_figure_zero() {
        let a = rectangle(0.0, 0.0);
        let r = compare(&a, &a, &Options::default());
        assert!(r.equal, "{:?}", r.differences);
        assert!(r.counts.iter().chain(&r.connectivity).all(|c| c.delta == 0));
        assert!(r.walkable_area.iter().all(|c| c.delta == 0.0));
        assert_eq!(r.placement.translation, [0.0; 3]);
        assert_eq!(r.footprint.symmetric_difference, 0.0);
        assert_eq!(r.surface_distance.hausdorff, 0.0);
        // Total walkable area of a 4 x 2 rectangle.
        assert_eq!(r.walkable_area.last().unwrap().a, 8.0);
    }

    #[test]
    fn a_moved_mesh_reports_its_translation_and_aligns() {
        let a = rectangle(-3.5, 1.0);
        let b = rectangle(156.5, 161.0);
        let r = compare(&a, &b, &Options::default());
        assert!(!r.equal);
        assert_eq!(r.placement.translation, [160.0, 160.0, 0.0]);
        // Disjoint: everything is only in A or only in B.
        assert!((r.footprint.only_a_area - 8.0).abs() < 1e-6);
        assert!((r.footprint.only_b_area - 8.0).abs() < 1e-6);
        let aligned = compare(
            &a,
            &b,
            &Options {
                align: true,
                ..Options::default()
            },
        );
        assert_eq!(
            aligned.differences,
            vec!["B is moved by (160, 160, 0) from A".to_string()]
        );
        assert!(aligned.footprint.symmetric_difference < 1e-6);
        assert!(aligned.surface_distance.hausdorff < 1e-9);
    }

    #[test]
    fn lost_faces_materials_and_tags_show_as_deltas() {
        let a = rectangle(0.0, 0.0);
        let mut b = a.clone();
        // B: the second triangle becomes Grass, the first loses its walkability, one tag.
        b.surfaces[1].material = Material(3);
        b.surfaces[0].walkable = false;
        b.edge_tags.insert(
            EdgeRef {
                polygon: 1,
                edge: 1,
            },
            EdgeTag { transition: 2 },
        );
        let r = compare(&a, &b, &Options::default());
        assert!(!r.equal);
        let row =
            |rows: &[CountRow], name: &str| rows.iter().find(|r| r.name == name).unwrap().delta;
        assert_eq!(row(&r.counts, "walkable_faces"), -1);
        assert_eq!(row(&r.connectivity, "transitions"), 1);
        let area = |name: &str| r.walkable_area.iter().find(|r| r.name == name).unwrap();
        assert_eq!((area("Stone").a, area("Stone").b), (8.0, 0.0));
        assert_eq!((area("Grass").a, area("Grass").b), (0.0, 4.0));
        assert!((r.footprint.only_a_area - 4.0).abs() < 1e-6);
        // The lost triangle (0,0) (4,0) (4,2) has its centre at (8/3, 2/3).
        let lost = &r.footprint.pieces[0];
        assert_eq!(lost.side, Side::OnlyA);
        assert!((lost.centre[0] - 8.0 / 3.0).abs() < 1e-6);
        assert!((lost.centre[1] - 2.0 / 3.0).abs() < 1e-6);
        // From the lost triangle's corner (4,0) to B's remaining triangle: distance to the
        // diagonal from (0,0) to (4,2), 8/sqrt(20).
        let expected = 8.0 / 20f64.sqrt();
        assert!((r.surface_distance.a_to_b.max - expected).abs() < 1e-9);
        assert_eq!(r.surface_distance.b_to_a.max, 0.0);
        let text = to_text(&r, "a", "b");
        assert!(text.contains("result: different"));
        assert!(text.contains("only A"));
    }

    #[test]
    fn tolerance_absorbs_small_moves() {
        let a = rectangle(0.0, 0.0);
        let mut b = a.clone();
        b.vertices[2][2] = 0.00001;
        let strict = compare(
            &a,
            &b,
            &Options {
                tolerance: 0.0,
                ..Options::default()
            },
        );
        assert!(!strict.equal);
        assert!(compare(&a, &b, &Options::default()).equal);
    }

    #[test]
    fn empty_meshes_are_equal_and_empty_against_full_is_not() {
        let empty = NavMesh::default();
        assert!(compare(&empty, &empty, &Options::default()).equal);
        let r = compare(&empty, &rectangle(0.0, 0.0), &Options::default());
        assert!(!r.equal);
        assert_eq!(r.surface_distance.b_to_a.max, f64::INFINITY);
        // JSON has no infinity: serde_json writes null.
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"max\":null"));
    }
}
