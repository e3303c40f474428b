//! One self-contained HTML page: both pictures, the overlay with the footprint differences
//! outlined, and the tables. No script, no external file: inline SVG and CSS only.

use std::fmt::Write;

use walkmesh_core::NavMesh;
use walkmesh_render::{
    FaceColours, Highlight, Layer, Mode, Options, RenderError, Rgba, Scene, top_down,
};

use crate::{CountRow, DiffReport, Side};

/// Most difference pieces outlined on the overlay (largest first).
const MAX_HIGHLIGHTED: usize = 200;
/// Width of each picture in the page.
const PICTURE_WIDTH: u32 = 900;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn face_change_table(out: &mut String, changes: &crate::faces::FaceChanges) {
    let _ = writeln!(
        out,
        "<table id=\"face-changes\"><caption>faces</caption>\
<tr><td>unchanged</td><td>{}</td></tr><tr><td>added</td><td>{}</td></tr>\
<tr><td>removed</td><td>{}</td></tr><tr><td>moved</td><td>{}</td></tr>\
<tr><td>material changed</td><td>{}</td></tr><tr><td>walkability changed</td><td>{}</td></tr></table>",
        changes.unchanged,
        changes.added,
        changes.removed,
        changes.moved,
        changes.material,
        changes.walkability
    );
}

fn count_table(out: &mut String, title: &str, rows: &[CountRow]) {
    let _ = writeln!(
        out,
        "<table><caption>{title}</caption><tr><th></th><th>A</th><th>B</th><th>delta</th></tr>"
    );
    for row in rows {
        let class = if row.delta != 0 {
            " class=\"differs\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td><td>{:+}</td></tr>",
            escape(&row.name),
            row.a,
            row.b,
            row.delta
        );
    }
    out.push_str("</table>\n");
}

/// The overlay's highlights: the largest pieces walkable only in A (red) or only in B
/// (green).
pub fn highlights(report: &DiffReport) -> Vec<Highlight> {
    let mut only_a = Vec::new();
    let mut only_b = Vec::new();
    for piece in report.listed_pieces().into_iter().take(MAX_HIGHLIGHTED) {
        let target = match piece.side {
            Side::OnlyA => &mut only_a,
            Side::OnlyB => &mut only_b,
        };
        target.extend(piece.contours.iter().cloned());
    }
    let mut out = Vec::new();
    if !only_a.is_empty() {
        out.push(Highlight {
            name: "walkable only in A".into(),
            color: Rgba::rgb(220, 30, 30),
            polygons: only_a,
        });
    }
    if !only_b.is_empty() {
        out.push(Highlight {
            name: "walkable only in B".into(),
            color: Rgba::rgb(20, 160, 60),
            polygons: only_b,
        });
    }
    out
}

/// The overlay of A and B with the footprint pieces outlined, `width` pixels wide. Shapes
/// are compared in A's frame: when the report was aligned, B is moved back first.
pub fn overlay_scene(
    report: &DiffReport,
    a: &NavMesh,
    name_a: &str,
    b: &NavMesh,
    name_b: &str,
    width: u32,
) -> Result<Scene, RenderError> {
    let mut b_in_a = b.clone();
    if report.placement.aligned {
        let t = report.placement.translation;
        let back = |v: &mut [f32; 3]| {
            for (x, t) in v.iter_mut().zip(t) {
                *x = (f64::from(*x) - t) as f32;
            }
        };
        b_in_a.vertices.iter_mut().for_each(back);
        for hook in &mut b_in_a.hooks {
            back(&mut hook.position);
        }
    }
    top_down(
        &[
            Layer {
                name: name_a,
                mesh: a,
            },
            Layer {
                name: name_b,
                mesh: &b_in_a,
            },
        ],
        &Options {
            mode: Mode::Materials,
            width,
            wireframe: false,
            highlights: highlights(report),
            face_colours: None,
        },
    )
}

/// Classes of the heat map: up to the tolerance, then up to a quarter, half, and the whole
/// of the largest distance.
const HEAT_CLASSES: usize = 5;

/// Distance from the centre and the corners of each of A's walkable faces to B's walkable
/// surface (B moved back when the report was aligned): the largest of the four, so a face
/// that B lost or moved shows whole. Non-walkable faces get NaN.
pub fn face_distances(report: &DiffReport, a: &NavMesh, b: &NavMesh) -> Vec<f64> {
    let shift = if report.placement.aligned {
        report.placement.translation.map(|t| -t)
    } else {
        [0.0; 3]
    };
    let triangles = crate::distance::walkable_triangles(b, shift);
    let surface = crate::distance::TriangleDistanceIndex::new(&triangles);
    let mut stack = Vec::new();
    let mut out = Vec::with_capacity(a.polygons.len());
    for (p, polygon) in a.polygons.iter().enumerate() {
        if !a.is_walkable(p) {
            out.push(f64::NAN);
            continue;
        }
        let corners: Vec<[f64; 3]> = polygon
            .iter()
            .map(|&i| a.vertex(i).map(f64::from))
            .collect();
        let n = corners.len().max(1) as f64;
        let centre = [0, 1, 2].map(|k| corners.iter().map(|c| c[k]).sum::<f64>() / n);
        let far = corners
            .iter()
            .chain(std::iter::once(&centre))
            .map(|&point| surface.distance(point, &mut stack))
            .fold(0.0, f64::max);
        out.push(far);
    }
    out
}

/// Colours of A's faces by their distance to B, in [`HEAT_CLASSES`] classes, and the legend
/// (only classes that occur are listed).
pub fn heat_colours(distances: &[f64], tolerance: f64) -> FaceColours {
    let largest = distances
        .iter()
        .copied()
        .filter(|d| d.is_finite())
        .fold(0.0, f64::max);
    let bounds: Vec<f64> = [tolerance, largest / 4.0, largest / 2.0, largest]
        .into_iter()
        .filter(|&b| b >= tolerance)
        .collect();
    let class_of = |d: f64| {
        if d.is_infinite() {
            return HEAT_CLASSES - 1;
        }
        bounds
            .iter()
            .position(|&b| d <= b)
            .unwrap_or(HEAT_CLASSES - 1)
    };
    let colour_of = |class: usize| {
        if class == 0 {
            Rgba::rgb(200, 200, 200)
        } else {
            walkmesh_render::palette::ramp(class as f64 / (HEAT_CLASSES - 1) as f64)
        }
    };
    let mut counts = [0usize; HEAT_CLASSES];
    let face = distances
        .iter()
        .map(|&d| {
            if d.is_nan() {
                return Rgba::rgb(200, 200, 200);
            }
            let class = class_of(d).min(HEAT_CLASSES - 1);
            if let Some(count) = counts.get_mut(class) {
                *count += 1;
            }
            colour_of(class)
        })
        .collect();
    let mut legend = Vec::new();
    let mut lower = 0.0;
    for (class, &count) in counts.iter().enumerate() {
        let upper = bounds.get(class).copied();
        if count > 0 {
            let text = match upper {
                Some(upper) if class == 0 => format!("within {upper:.4} ({count} faces)"),
                Some(upper) => format!("{lower:.4} to {upper:.4} ({count} faces)"),
                None => format!("beyond {lower:.4} or no B surface ({count} faces)"),
            };
            legend.push((colour_of(class), text));
        }
        if let Some(upper) = upper {
            lower = upper;
        }
    }
    FaceColours { face, legend }
}

/// A's walkable faces coloured by how far B's walkable surface is from them.
pub fn heat_map_scene(
    report: &DiffReport,
    a: &NavMesh,
    name_a: &str,
    b: &NavMesh,
    width: u32,
) -> Result<Scene, RenderError> {
    let distances = face_distances(report, a, b);
    top_down(
        &[Layer {
            name: name_a,
            mesh: a,
        }],
        &Options {
            mode: Mode::Materials,
            width,
            wireframe: false,
            highlights: Vec::new(),
            face_colours: Some(heat_colours(&distances, report.tolerance)),
        },
    )
}

/// The page for `report` of `a` (named `name_a`) against `b`. B is drawn where it is (the
/// overlay shows the footprint pieces in A's frame, which is B's when the report was not
/// aligned).
pub fn report_page(
    report: &DiffReport,
    a: &NavMesh,
    name_a: &str,
    b: &NavMesh,
    name_b: &str,
) -> Result<String, RenderError> {
    let options = Options {
        mode: Mode::Materials,
        width: PICTURE_WIDTH,
        wireframe: true,
        highlights: Vec::new(),
        face_colours: None,
    };
    let picture_a = walkmesh_render::to_svg(&top_down(
        &[Layer {
            name: name_a,
            mesh: a,
        }],
        &options,
    )?);
    let picture_b = walkmesh_render::to_svg(&top_down(
        &[Layer {
            name: name_b,
            mesh: b,
        }],
        &options,
    )?);
    let overlay =
        walkmesh_render::to_svg(&overlay_scene(report, a, name_a, b, name_b, PICTURE_WIDTH)?);
    let heat_map = walkmesh_render::to_svg(&heat_map_scene(report, a, name_a, b, PICTURE_WIDTH)?);
    let mut out = String::with_capacity(picture_a.len() + picture_b.len() + overlay.len() + 16384);
    page_head(&mut out, name_a, name_b);
    verdict_section(&mut out, report);
    counts_section(&mut out, report);
    placement_section(&mut out, report);
    walkable_area_section(&mut out, report);
    footprint_section(&mut out, report);
    surface_distance_section(&mut out, report);
    pictures_section(
        &mut out,
        [
            (
                "overlay",
                "A and B overlaid (differences outlined)",
                &overlay,
            ),
            (
                "heat-map",
                "Distance from each walkable face of A to B's walkable surface",
                &heat_map,
            ),
            ("picture-a", "A", &picture_a),
            ("picture-b", "B", &picture_b),
        ],
    );
    out.push_str("</body></html>\n");
    Ok(out)
}

/// The document head with its style sheet, the title and the two names.
fn page_head(out: &mut String, name_a: &str, name_b: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
<title>walkmesh diff: {a} vs {b}</title>\n\
<style>\n\
body {{ font-family: sans-serif; margin: 16px; color: #141414; background: #ffffff; }}\n\
h1 {{ font-size: 20px; }} h2 {{ font-size: 16px; margin-top: 24px; }}\n\
.equal {{ color: #16803c; }} .different {{ color: #c81e1e; }}\n\
table {{ border-collapse: collapse; margin: 8px 24px 8px 0; display: inline-table; vertical-align: top; }}\n\
caption {{ text-align: left; font-weight: bold; padding: 4px 0; }}\n\
td, th {{ border: 1px solid #c8c8c8; padding: 2px 8px; text-align: right; font-variant-numeric: tabular-nums; }}\n\
td:first-child {{ text-align: left; }}\n\
tr.differs td {{ background: #fde8e8; }}\n\
figure {{ display: inline-block; margin: 8px; vertical-align: top; }}\n\
figcaption {{ font-weight: bold; }}\n\
</style></head><body>\n",
        a = escape(name_a),
        b = escape(name_b)
    );
    let _ = writeln!(
        out,
        "<h1>walkmesh diff</h1>\n<p>A: <code>{}</code><br>B: <code>{}</code></p>",
        escape(name_a),
        escape(name_b)
    );
}

/// Equal or different, then every difference and note.
fn verdict_section(out: &mut String, report: &DiffReport) {
    let (class, verdict) = if report.equal {
        ("equal", "equal")
    } else {
        ("different", "different")
    };
    let _ = writeln!(
        out,
        "<p class=\"{class}\" id=\"verdict\"><strong>{verdict}</strong> within tolerance {} (areas {:.6})</p>",
        report.tolerance, report.area_tolerance
    );
    if !report.differences.is_empty() {
        out.push_str("<ul id=\"differences\">\n");
        for line in &report.differences {
            let _ = writeln!(out, "<li>{}</li>", escape(line));
        }
        out.push_str("</ul>\n");
    }

    if !report.notes.is_empty() {
        out.push_str("<ul id=\"notes\">\n");
        for line in &report.notes {
            let _ = writeln!(out, "<li>note: {}</li>", escape(line));
        }
        out.push_str("</ul>\n");
    }
}

/// Counts, connectivity of the footprint and of the mesh, and face changes.
fn counts_section(out: &mut String, report: &DiffReport) {
    out.push_str("<h2>Counts and connectivity</h2>\n");
    count_table(out, "counts", &report.counts);
    count_table(
        out,
        "connectivity (walkable footprint)",
        &report.connectivity,
    );
    count_table(
        out,
        "mesh connectivity (faces joined by shared edges)",
        &report.mesh_connectivity,
    );
    face_change_table(out, &report.face_changes);
}

/// Each side's bounds and the translation between them.
fn placement_section(out: &mut String, report: &DiffReport) {
    out.push_str("<h2>Placement</h2>\n<table><tr><th></th><th>min</th><th>max</th></tr>\n");
    for (name, bounds) in [("A", report.placement.a), ("B", report.placement.b)] {
        match bounds {
            Some([min, max]) => {
                let _ = writeln!(
                    out,
                    "<tr><td>{name}</td><td>{:.4}, {:.4}, {:.4}</td><td>{:.4}, {:.4}, {:.4}</td></tr>",
                    min[0], min[1], min[2], max[0], max[1], max[2]
                );
            }
            None => {
                let _ = writeln!(out, "<tr><td>{name}</td><td colspan=\"2\">empty</td></tr>");
            }
        }
    }
    let t = report.placement.translation;
    let _ = writeln!(
        out,
        "<tr><td>translation</td><td colspan=\"2\">{}, {}, {}{}</td></tr></table>",
        t[0],
        t[1],
        t[2],
        if report.placement.aligned {
            " (B moved back before comparing shapes)"
        } else {
            ""
        }
    );
}

/// Walkable area per material, rows beyond the area tolerance marked.
fn walkable_area_section(out: &mut String, report: &DiffReport) {
    out.push_str("<h2>Walkable area per material</h2>\n<table><tr><th></th><th>A</th><th>B</th><th>delta</th></tr>\n");
    for row in &report.walkable_area {
        let class = if row.delta.abs() > report.area_tolerance {
            " class=\"differs\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td>{}</td><td>{:.4}</td><td>{:.4}</td><td>{:+.4}</td></tr>",
            escape(&row.name),
            row.a,
            row.b,
            row.delta
        );
    }
    out.push_str("</table>\n");
}

/// Footprint areas and the largest pieces only one side has.
fn footprint_section(out: &mut String, report: &DiffReport) {
    let f = &report.footprint;
    let _ = writeln!(
        out,
        "<h2>Footprint (walkable region on XY)</h2>\n<table><tr><th></th><th>area</th></tr>\n\
<tr><td>A</td><td>{:.4}</td></tr><tr><td>B</td><td>{:.4}</td></tr>\n\
<tr><td>only in A</td><td>{:.4}</td></tr><tr><td>only in B</td><td>{:.4}</td></tr>\n\
<tr><td>symmetric difference</td><td>{:.4}</td></tr></table>",
        f.area_a, f.area_b, f.only_a_area, f.only_b_area, f.symmetric_difference
    );
    let listed = report.listed_pieces();
    if !listed.is_empty() {
        out.push_str("<table><caption>largest pieces</caption><tr><th>side</th><th>area</th><th>centre</th><th>box</th></tr>\n");
        for piece in listed.iter().take(20) {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{:.4}</td><td>{:.2}, {:.2}</td><td>{:.2}, {:.2} .. {:.2}, {:.2}</td></tr>",
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
        out.push_str("</table>\n");
    }
}

/// Sampled surface distances both ways and the Hausdorff distance.
fn surface_distance_section(out: &mut String, report: &DiffReport) {
    let d = &report.surface_distance;
    let _ = writeln!(
        out,
        "<h2>Surface distance (sampled)</h2>\n<table><tr><th></th><th>max</th><th>mean</th><th>samples</th></tr>\n\
<tr><td>A to B</td><td>{:.6}</td><td>{:.6}</td><td>{}</td></tr>\n\
<tr><td>B to A</td><td>{:.6}</td><td>{:.6}</td><td>{}</td></tr>\n\
<tr><td>Hausdorff</td><td>{:.6}</td><td></td><td></td></tr></table>",
        d.a_to_b.max,
        d.a_to_b.mean,
        d.a_to_b.samples,
        d.b_to_a.max,
        d.b_to_a.mean,
        d.b_to_a.samples,
        d.hausdorff
    );
}

/// The pictures, each a figure with its id and caption.
fn pictures_section(out: &mut String, pictures: [(&str, &str, &String); 4]) {
    out.push_str("<h2>Pictures</h2>\n");
    for (id, caption, svg) in pictures {
        let _ = writeln!(
            out,
            "<figure id=\"{id}\"><figcaption>{caption}</figcaption>\n{svg}</figure>"
        );
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{Options as DiffOptions, compare};
    use walkmesh_core::{Material, Surface};

    /// A: a 4 x 2 floor of two triangles. B: the same with face 0 no longer walkable.
    fn floor_and_floor_with_a_lost_face() -> (NavMesh, NavMesh) {
        let mut a = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [4.0, 0.0, 0.0],
                [4.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            ..NavMesh::default()
        };
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        a.push_polygon(&[0, 1, 2], stone);
        a.push_polygon(&[0, 2, 3], stone);
        let mut b = a.clone();
        b.surfaces[0].walkable = false;
        (a, b)
    }

    #[test]
    fn the_page_holds_tables_four_pictures_and_no_external_reference() {
        let (a, b) = floor_and_floor_with_a_lost_face();
        let report = compare(&a, &b, &DiffOptions::default());
        let page = report_page(&report, &a, "a<1>.wok", &b, "b.trx").unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert_eq!(page.matches("<svg ").count(), 4);
        assert!(page.contains("id=\"heat-map\""));
        assert!(page.contains("id=\"face-changes\""));
        assert!(page.contains("a&lt;1&gt;.wok"));
        assert!(page.contains("class=\"different\""));
        assert!(page.contains("walkable only in A"));
        assert!(
            !page.contains("src=") && !page.contains("href="),
            "self-contained"
        );
        assert_eq!(highlights(&report).len(), 1);
    }

    #[test]
    fn heat_map_colours_a_lost_face_by_its_farthest_point() {
        let (a, b) = floor_and_floor_with_a_lost_face();
        let report = compare(&a, &b, &DiffOptions::default());
        let distances = face_distances(&report, &a, &b);
        // Face 0's corner (4, 0) is 8/sqrt(20) from B's triangle (0,0) (4,2) (0,2); face 1
        // is B's own.
        assert!(
            (distances[0] - 8.0 / 20f64.sqrt()).abs() < 1e-9,
            "{distances:?}"
        );
        assert_eq!(distances[1], 0.0);
        let heat = heat_colours(&distances, 1e-4);
        let texts: Vec<&str> = heat.legend.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec!["within 0.0001 (1 faces)", "0.8944 to 1.7889 (1 faces)"]
        );
        assert_ne!(heat.face[0], heat.face[1]);
        assert_eq!(heat.legend[1].0, heat.face[0]);
        assert_eq!(heat.legend[0].0, heat.face[1]);
    }
}
