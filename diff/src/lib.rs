//! walkmesh-diff: compare two walkmeshes of any formats through the neutral mesh.
//!
//! What is compared: counts (vertices, faces, walkable faces), bounding boxes and the
//! translation between them, walkable area per neutral material, the footprint (area of the
//! symmetric difference of the walkable regions projected on XY, with where it lies), the
//! sampled surface distance (two-sided Hausdorff and means) and connectivity (components,
//! boundary loops, holes, non-manifold edges, transitions, hooks). [`DiffReport::equal`] says
//! whether everything agrees within the tolerance.

pub mod distance;
pub mod faces;
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

/// Bounding boxes and the translation from A to B.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placement {
    /// Bounding boxes of all faces.
    pub a: Option<[[f64; 3]; 2]>,
    pub b: Option<[[f64; 3]; 2]>,
    /// Bounding boxes of the walkable faces only: formats that keep only walkable ground
    /// (PATH) are placed by these, not by the walls and roofs another format kept.
    pub walkable_a: Option<[[f64; 3]; 2]>,
    pub walkable_b: Option<[[f64; 3]; 2]>,
    /// How far B seems moved from A, rounded to 0.1 mm (below the precision of f32
    /// coordinates a few hundred units from the origin); see `basis`.
    pub translation: [f64; 3],
    /// What the translation was taken from: `footprints_coincide` (the walkable footprints
    /// already agree in plan, so no move is guessed: heights that differ show in the
    /// surface distance), `walkable_bounds` (minimum corners of the walkable
    /// boxes, when both their corners moved alike), `all_faces` (the same for the boxes
    /// of all faces, when a side has no walkable face), `boxes_differ_in_size` (the boxes
    /// grew or shrank: faces were lost or gained, not moved, so no move is guessed) or
    /// `none` (a side is empty).
    pub basis: &'static str,
    /// Whether footprint and surfaces were compared after moving B back by `translation`.
    pub aligned: bool,
    /// Why `--align` left B where it is: moving it would not have made the footprints agree
    /// better.
    pub align_refused: Option<String>,
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
    /// Topology of the walkable footprint (pieces and holes of the projected region) and
    /// the authored transitions and hooks: what two meshes covering the same ground share
    /// whatever their faces.
    pub connectivity: Vec<CountRow>,
    /// Topology of the walkable faces as joined by shared edges (components, loops, open
    /// chains, non-manifold edges): depends on how the ground is cut into faces.
    pub mesh_connectivity: Vec<CountRow>,
    /// Why counts differ where the reason can be told from both meshes (faces merged,
    /// non-walkable faces dropped, faces meeting at T-junctions, alignment refused).
    pub notes: Vec<String>,
    /// Faces added, removed, moved and changed, matched by their corner positions.
    pub face_changes: faces::FaceChanges,
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

fn walkable_bounds(mesh: &NavMesh) -> Option<[[f64; 3]; 2]> {
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(p) {
            continue;
        }
        for &i in polygon {
            let v = mesh.vertex(i);
            for k in 0..3 {
                min[k] = min[k].min(f64::from(v[k]));
                max[k] = max[k].max(f64::from(v[k]));
            }
        }
    }
    min[0].is_finite().then_some([min, max])
}

fn footprint_connectivity(footprint: &Footprint, a: &Summary, b: &Summary) -> Vec<CountRow> {
    let (ta, tb) = (footprint.topology_a, footprint.topology_b);
    vec![
        count_row("footprint_pieces", ta.pieces, tb.pieces),
        count_row("footprint_holes", ta.holes, tb.holes),
        count_row("transitions", a.edge_tags, b.edge_tags),
        count_row("hooks", a.hooks, b.hooks),
    ]
}

fn mesh_connectivity(a: &Summary, b: &Summary) -> Vec<CountRow> {
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
    ]
}

/// The move from box `a` to box `b` when both corners moved alike (a rigid move); none
/// when the boxes changed size (faces were lost, gained or reshaped instead).
fn rigid_move(a: [[f64; 3]; 2], b: [[f64; 3]; 2], tolerance: f64) -> Option<[f64; 3]> {
    let round = |d: f64| (d * 1e4).round() / 1e4 + 0.0;
    let low = [0, 1, 2].map(|k| b[0][k] - a[0][k]);
    let high = [0, 1, 2].map(|k| b[1][k] - a[1][k]);
    // f32 coordinates a few hundred units out are exact to about 1e-4.
    let slack = tolerance.max(1e-3);
    (0..3)
        .all(|k| (low[k] - high[k]).abs() <= slack)
        .then(|| low.map(round))
}

/// The translation from A to B and what it was taken from (see [`Placement::basis`]).
fn guess_translation(
    boxes: [Option<[[f64; 3]; 2]>; 2],
    walkable: [Option<[[f64; 3]; 2]>; 2],
    coincide: bool,
    tolerance: f64,
) -> ([f64; 3], &'static str) {
    let (source, basis) = match (walkable, boxes) {
        ([Some(_), Some(_)], _) if coincide => return ([0.0; 3], "footprints_coincide"),
        ([Some(wa), Some(wb)], _) => ((wa, wb), "walkable_bounds"),
        (_, [Some(ba), Some(bb)]) => ((ba, bb), "all_faces"),
        _ => return ([0.0; 3], "none"),
    };
    match rigid_move(source.0, source.1, tolerance) {
        Some(translation) => (translation, basis),
        None => ([0.0; 3], "boxes_differ_in_size"),
    }
}

/// Why the edge-joined topology differs where the reason shows in both meshes.
fn connectivity_notes(
    sa: &Summary,
    sb: &Summary,
    footprint_rows: &[CountRow],
    mesh_rows: &[CountRow],
) -> Vec<String> {
    let mut notes = Vec::new();
    if !mesh_rows.iter().any(|r| r.delta != 0) {
        return notes;
    }
    let same_ground = footprint_rows
        .iter()
        .filter(|r| r.name.starts_with("footprint_"))
        .all(|r| r.delta == 0);
    if same_ground {
        notes.push(
            "the walkable footprints have the same pieces and holes: the mesh counts differ \
             only in how the ground is cut into faces"
                .into(),
        );
    }
    if sa.walkable_faces != sb.walkable_faces {
        notes.push(format!(
            "A covers its walkable ground with {} faces, B with {} (faces merged or split)",
            sa.walkable_faces, sb.walkable_faces
        ));
    }
    for (name, summary) in [("A", sa), ("B", sb)] {
        if summary.open_boundary_chains > 0 {
            notes.push(format!(
                "{name} has {} open boundary chains: faces meeting along edges they do not \
                 share both corners of (T-junctions), which the mesh counts as boundary",
                summary.open_boundary_chains
            ));
        }
    }
    let non_walkable = |s: &Summary| s.faces - s.walkable_faces.min(s.faces);
    let (na, nb) = (non_walkable(sa), non_walkable(sb));
    if (na == 0) != (nb == 0) {
        notes.push(format!(
            "A has {na} non-walkable faces, B {nb}: only walkable faces are compared for \
             placement and topology"
        ));
    }
    notes
}

/// What comparing with B moved back looks like.
struct Alignment {
    footprint: Footprint,
    surface_distance: SurfaceDistance,
    aligned: bool,
    refused: Option<String>,
}

/// Footprint and surface distance with B where it is, or moved back by `translation` when
/// asked and only when that makes the match better: the footprint difference smaller (or,
/// when the footprints already coincide, the surface distance).
fn align_b(
    a: &NavMesh,
    b: &NavMesh,
    as_is: Footprint,
    translation: [f64; 3],
    align: bool,
    min_area: f64,
) -> Alignment {
    let here = |footprint: Footprint| Alignment {
        surface_distance: distance::surface_distance(a, b, [0.0; 3]),
        footprint,
        aligned: false,
        refused: None,
    };
    if !align || translation == [0.0; 3] {
        return here(as_is);
    }
    let back = translation.map(|t| -t);
    let moved = if translation[0] == 0.0 && translation[1] == 0.0 {
        as_is.clone()
    } else {
        footprint::footprint(a, b, [back[0], back[1]], min_area)
    };
    let (before, after) = (as_is.symmetric_difference, moved.symmetric_difference);
    let moved_distance = distance::surface_distance(a, b, back);
    let better = if after == before {
        let as_is_distance = distance::surface_distance(a, b, [0.0; 3]);
        moved_distance.hausdorff < as_is_distance.hausdorff
    } else {
        after < before
    };
    if better {
        return Alignment {
            footprint: moved,
            surface_distance: moved_distance,
            aligned: true,
            refused: None,
        };
    }
    let mut kept = here(as_is);
    kept.refused = Some(format!(
        "--align left B in place: moved back by ({}, {}, {}) it would match A worse \
         (footprint difference {:.6} against {:.6}, Hausdorff {:.6} against {:.6})",
        translation[0],
        translation[1],
        translation[2],
        after,
        before,
        moved_distance.hausdorff,
        kept.surface_distance.hausdorff
    ));
    kept
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
    let ((areas_a, boundary_a), (areas_b, boundary_b)) = (areas(a), areas(b));
    let area_tolerance = tolerance * boundary_a.max(boundary_b).max(1.0);
    let walkable_area = area_rows(&areas_a, &areas_b, &sa, &sb);

    let (box_a, box_b) = (bounds(a), bounds(b));
    let (walkable_a, walkable_b) = (walkable_bounds(a), walkable_bounds(b));
    // Slivers of f32 rounding are not pieces or holes of the ground.
    let min_area = area_tolerance / 100.0;
    let as_is = footprint::footprint(a, b, [0.0, 0.0], min_area);
    // Footprints that already agree are not moved: any horizontal "translation" between
    // their boxes comes from faces only one side kept.
    let coincide = as_is.symmetric_difference <= area_tolerance;
    let (translation, basis) = guess_translation(
        [box_a, box_b],
        [walkable_a, walkable_b],
        coincide,
        tolerance,
    );
    let Alignment {
        footprint,
        surface_distance,
        aligned,
        refused: align_refused,
    } = align_b(a, b, as_is, translation, options.align, min_area);
    let shift = if aligned {
        translation.map(|t| -t)
    } else {
        [0.0; 3]
    };
    let connectivity = footprint_connectivity(&footprint, &sa, &sb);
    let mesh_connectivity = mesh_connectivity(&sa, &sb);
    let mut notes = connectivity_notes(&sa, &sb, &connectivity, &mesh_connectivity);
    notes.extend(align_refused.clone());
    let face_changes = faces::face_changes(a, b, shift, tolerance);

    let mut differences = Vec::new();
    for row in counts.iter().chain(&connectivity) {
        if row.delta != 0 {
            differences.push(format!(
                "{}: {} in A, {} in B ({:+})",
                row.name, row.a, row.b, row.delta
            ));
        }
    }
    for row in &mesh_connectivity {
        if row.delta != 0 {
            differences.push(format!(
                "mesh {}: {} in A, {} in B ({:+}; see notes)",
                row.name, row.a, row.b, row.delta
            ));
        }
    }
    if translation.iter().any(|t| t.abs() > tolerance) {
        differences.push(format!(
            "B is moved by ({}, {}, {}) from A (from the {})",
            translation[0],
            translation[1],
            translation[2],
            match basis {
                "walkable_bounds" => "bounds of the walkable faces",
                _ => "bounds of all faces",
            }
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
            walkable_a,
            walkable_b,
            translation,
            basis,
            aligned,
            align_refused,
        },
        walkable_area,
        footprint,
        surface_distance,
        connectivity,
        mesh_connectivity,
        notes,
        face_changes,
    }
}

fn area_rows(
    areas_a: &BTreeMap<String, f64>,
    areas_b: &BTreeMap<String, f64>,
    sa: &Summary,
    sb: &Summary,
) -> Vec<AreaRow> {
    let mut names: Vec<&String> = areas_a.keys().chain(areas_b.keys()).collect();
    names.sort();
    names.dedup();
    let mut rows: Vec<AreaRow> = names
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
    rows.push(AreaRow {
        name: "total".into(),
        a: sa.walkable_area,
        b: sb.walkable_area,
        delta: (sb.walkable_area - sa.walkable_area) + 0.0,
    });
    rows
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
    for line in &report.notes {
        let _ = writeln!(out, "  note: {line}");
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
    let _ = writeln!(out, "mesh (faces joined by shared edges):");
    for row in &report.mesh_connectivity {
        let _ = writeln!(
            out,
            "  {:<20} {:>14} {:>14} {:>+14}",
            row.name, row.a, row.b, row.delta
        );
    }
    let c = &report.face_changes;
    let _ = writeln!(
        out,
        "faces: {} unchanged, {} added, {} removed, {} moved, {} material, {} walkability",
        c.unchanged, c.added, c.removed, c.moved, c.material, c.walkability
    );
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
    let _ = writeln!(out, "walkable A:  {}", fmt_box(&p.walkable_a));
    let _ = writeln!(out, "walkable B:  {}", fmt_box(&p.walkable_b));
    let _ = writeln!(
        out,
        "translation: ({}, {}, {}) from {}{}",
        p.translation[0],
        p.translation[1],
        p.translation[2],
        p.basis.replace('_', " "),
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
            vec![
                "B is moved by (160, 160, 0) from A (from the bounds of the walkable faces)"
                    .to_string()
            ]
        );
        assert_eq!(aligned.placement.basis, "walkable_bounds");
        assert!(aligned.placement.aligned);
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

    /// A with a non-walkable wall face reaching 1 unit further in -x than the floor.
    fn rectangle_with_wall() -> NavMesh {
        let mut a = rectangle(0.0, 0.0);
        let base = a.vertices.len() as u32;
        a.vertices
            .extend([[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 3.0]]);
        a.push_polygon(
            &[base, base + 1, base + 2],
            Surface {
                material: Material(7),
                walkable: false,
                code: 7,
            },
        );
        a
    }

    #[test]
    fn placement_comes_from_the_walkable_footprint_not_from_dropped_walls() {
        // What a PATH cook does to a TRX: the wall is dropped, the floor kept in place. The
        // boxes of all faces differ by 1 in x, the walkable ground not at all.
        let (a, b) = (rectangle_with_wall(), rectangle(0.0, 0.0));
        for align in [false, true] {
            let r = compare(
                &a,
                &b,
                &Options {
                    align,
                    ..Options::default()
                },
            );
            assert_eq!(r.placement.translation, [0.0; 3]);
            assert_eq!(r.placement.basis, "footprints_coincide");
            assert!(!r.placement.aligned);
            assert_eq!(r.footprint.symmetric_difference, 0.0);
            assert!(
                !r.differences.iter().any(|d| d.contains("moved")),
                "{:?}",
                r.differences
            );
            assert_eq!(r.placement.a.unwrap()[0][0], -1.0);
            assert_eq!(r.placement.walkable_a.unwrap()[0][0], 0.0);
        }
    }

    #[test]
    fn a_box_that_shrank_is_not_a_move() {
        // B loses the right half of A's floor and gets its remaining edge lowered: the
        // lowest corner of the walkable box moved in z, the box shrank: no move is guessed.
        let a = rectangle(0.0, 0.0);
        let mut b = NavMesh {
            vertices: vec![
                [0.0, 0.0, -0.05],
                [2.0, 0.0, 0.0],
                [2.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            ..NavMesh::default()
        };
        b.push_polygon(&[0, 1, 2], stone());
        b.push_polygon(&[0, 2, 3], stone());
        let r = compare(&a, &b, &Options::default());
        assert_eq!(r.placement.basis, "boxes_differ_in_size");
        assert_eq!(r.placement.translation, [0.0; 3]);
        assert!(
            !r.differences.iter().any(|d| d.contains("moved")),
            "{:?}",
            r.differences
        );
    }

    /// A walkable 0.1 x 1 post from `x0`.
    fn with_post(mut mesh: NavMesh, x0: f32) -> NavMesh {
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend([
            [x0, 0.0, 0.0],
            [x0 + 0.1, 0.0, 0.0],
            [x0 + 0.1, 1.0, 0.0],
            [x0, 1.0, 0.0],
        ]);
        mesh.push_polygon(&[base, base + 1, base + 2], stone());
        mesh.push_polygon(&[base, base + 2, base + 3], stone());
        mesh
    }

    #[test]
    fn align_never_makes_the_match_worse() {
        // The same 4 x 2 floor; A has a post right of it at x = 5, B one left of it at
        // x = -1.1. Both walkable boxes are 5.1 wide and B's starts 1.1 further left, which
        // looks like a move by -1.1; moving B back would ruin the floor's match.
        let a = with_post(rectangle(0.0, 0.0), 5.0);
        let b = with_post(rectangle(0.0, 0.0), -1.1);
        let plain = compare(&a, &b, &Options::default());
        let aligned = compare(
            &a,
            &b,
            &Options {
                align: true,
                ..Options::default()
            },
        );
        assert_eq!(aligned.placement.translation, [-1.1, 0.0, 0.0]);
        assert!(!aligned.placement.aligned);
        let why = aligned.placement.align_refused.as_deref().unwrap();
        assert!(why.contains("--align left B in place"), "{why}");
        assert!(aligned.notes.iter().any(|n| n == why));
        assert_eq!(
            aligned.footprint.symmetric_difference,
            plain.footprint.symmetric_difference
        );
        // Only the two posts differ: 0.1 each.
        assert!((aligned.footprint.symmetric_difference - 0.2).abs() < 1e-6);
        assert_eq!(
            aligned.surface_distance.hausdorff,
            plain.surface_distance.hausdorff
        );
    }

    #[test]
    fn the_same_ground_cut_differently_has_the_same_footprint_topology() {
        // A: the 4 x 2 rectangle as two triangles. B: the same ground as three triangles
        // with a T-junction: (0,0) (2,0) (0,2), (2,0) (4,0) (4,2), (0,2) (2,0) (4,2): the
        // vertex (2,0) lies on no edge of A, but B's first and third triangles share the
        // edge (0,2)-(2,0) and the third meets the second along (2,0)-(4,2).
        let a = rectangle(0.0, 0.0);
        let mut b = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [4.0, 0.0, 0.0],
                [4.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
                // A second copy of (2, 0): the third triangle does not share it.
                [2.0, 0.0, 0.0],
            ],
            ..NavMesh::default()
        };
        b.push_polygon(&[0, 1, 4], stone());
        b.push_polygon(&[1, 2, 3], stone());
        b.push_polygon(&[4, 5, 3], stone());
        let r = compare(&a, &b, &Options::default());
        let row = |rows: &[CountRow], name: &str| {
            let r = rows.iter().find(|r| r.name == name).unwrap();
            (r.a, r.b)
        };
        assert_eq!(row(&r.connectivity, "footprint_pieces"), (1, 1));
        assert_eq!(row(&r.connectivity, "footprint_holes"), (0, 0));
        // The mesh sees B's three triangles as three components (no edge shared with
        // both corners' indices), and open boundary where they touch.
        assert_eq!(row(&r.mesh_connectivity, "components"), (1, 3));
        assert!(
            r.notes
                .iter()
                .any(|n| n.starts_with("the walkable footprints have the same pieces and holes")),
            "{:?}",
            r.notes
        );
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("A covers its walkable ground with 2 faces, B with 3"))
        );
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
