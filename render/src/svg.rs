//! Scene → SVG text. Written directly rather than through an SVG DOM crate: the output is a
//! flat list of `<path>`/`<circle>` elements, and writing it ourselves fixes the attribute
//! order and the number formatting (two decimals, trailing zeros dropped), so the bytes are
//! deterministic and a 26,000-triangle area stays a few hundred kilobytes.

use std::fmt::Write;

use crate::scene::{Pen, Rgba, Scene, Shape};

/// A coordinate with at most two decimals, without trailing zeros (`12`, `3.5`, `-0.25`).
fn number(out: &mut String, value: f32) {
    let rounded = (f64::from(value) * 100.0).round() / 100.0;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    out.push_str(text);
}

fn points(out: &mut String, polyline: &[[f32; 2]], close: bool) {
    for (i, p) in polyline.iter().enumerate() {
        out.push(if i == 0 { 'M' } else { 'L' });
        number(out, p[0]);
        out.push(' ');
        number(out, p[1]);
    }
    if close && !polyline.is_empty() {
        out.push('Z');
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn opacity(out: &mut String, attribute: &str, color: Rgba) {
    if color.3 != 255 {
        let _ = write!(out, " {attribute}=\"");
        number(out, f32::from(color.3) / 255.0);
        out.push('"');
    }
}

fn pen(out: &mut String, pen: &Pen) {
    let _ = write!(out, " stroke=\"{}\" stroke-width=\"", pen.color.hex());
    number(out, pen.width);
    out.push('"');
    opacity(out, "stroke-opacity", pen.color);
    out.push_str(" stroke-linecap=\"round\" stroke-linejoin=\"round\"");
    if let Some([dash, gap]) = pen.dash {
        out.push_str(" stroke-dasharray=\"");
        number(out, dash);
        out.push(' ');
        number(out, gap);
        out.push('"');
    }
}

/// The scene as a standalone SVG document.
pub fn to_svg(scene: &Scene) -> String {
    let mut out = String::with_capacity(64 * 1024 + scene.shape_count() * 64);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = scene.width,
        h = scene.height
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&scene.title));
    let _ = write!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"",
        scene.width,
        scene.height,
        scene.background.hex()
    );
    opacity(&mut out, "fill-opacity", scene.background);
    out.push_str("/>\n");
    for group in &scene.groups {
        let _ = write!(out, "<g id=\"{}\"", escape(&group.id));
        if let Some(text) = &group.text {
            let _ = write!(out, " role=\"img\" aria-label=\"{}\"", escape(text));
        }
        out.push_str(">\n");
        for shape in &group.shapes {
            match shape {
                Shape::Fill { subpaths, color } => {
                    if subpaths.is_empty() {
                        continue;
                    }
                    out.push_str("<path d=\"");
                    for subpath in subpaths {
                        points(&mut out, subpath, true);
                    }
                    let _ = write!(out, "\" fill=\"{}\"", color.hex());
                    opacity(&mut out, "fill-opacity", *color);
                    out.push_str("/>\n");
                }
                Shape::Stroke { polylines, pen: p } => {
                    if polylines.is_empty() {
                        continue;
                    }
                    out.push_str("<path d=\"");
                    for polyline in polylines {
                        points(&mut out, polyline, false);
                    }
                    out.push_str("\" fill=\"none\"");
                    pen(&mut out, p);
                    out.push_str("/>\n");
                }
                Shape::Circle {
                    center,
                    radius,
                    fill,
                    outline,
                } => {
                    out.push_str("<circle cx=\"");
                    number(&mut out, center[0]);
                    out.push_str("\" cy=\"");
                    number(&mut out, center[1]);
                    out.push_str("\" r=\"");
                    number(&mut out, *radius);
                    out.push('"');
                    match fill {
                        Some(color) => {
                            let _ = write!(out, " fill=\"{}\"", color.hex());
                            opacity(&mut out, "fill-opacity", *color);
                        }
                        None => out.push_str(" fill=\"none\""),
                    }
                    if let Some(p) = outline {
                        pen(&mut out, p);
                    }
                    out.push_str("/>\n");
                }
            }
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::scene::Group;

    #[test]
    fn numbers_have_at_most_two_decimals_and_no_negative_zero() {
        let mut out = String::new();
        for v in [12.0, 3.5, -0.25, 1.005_f32, -0.001, 0.1 + 0.2] {
            number(&mut out, v);
            out.push(',');
        }
        assert_eq!(out, "12,3.5,-0.25,1,0,0.3,");
    }

    #[test]
    fn a_small_scene_gives_the_expected_document() {
        let scene = Scene {
            width: 10,
            height: 8,
            background: Rgba::rgb(255, 255, 255),
            title: "a <b>".into(),
            groups: vec![Group {
                id: "faces".into(),
                text: None,
                shapes: vec![
                    Shape::Fill {
                        subpaths: vec![vec![[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]],
                        color: Rgba(255, 0, 0, 128),
                    },
                    Shape::Stroke {
                        polylines: vec![vec![[1.0, 1.0], [2.0, 2.5]]],
                        pen: Pen {
                            color: Rgba::rgb(0, 0, 255),
                            width: 1.5,
                            dash: Some([3.0, 2.0]),
                        },
                    },
                    Shape::Circle {
                        center: [5.0, 5.0],
                        radius: 2.0,
                        fill: None,
                        outline: Some(Pen::solid(Rgba::rgb(0, 0, 0), 1.0)),
                    },
                ],
            }],
        };
        let expected = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"8\" viewBox=\"0 0 10 8\">\n\
<title>a &lt;b&gt;</title>\n\
<rect width=\"10\" height=\"8\" fill=\"#ffffff\"/>\n\
<g id=\"faces\">\n\
<path d=\"M0 0L4 0L0 4Z\" fill=\"#ff0000\" fill-opacity=\"0.5\"/>\n\
<path d=\"M1 1L2 2.5\" fill=\"none\" stroke=\"#0000ff\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-dasharray=\"3 2\"/>\n\
<circle cx=\"5\" cy=\"5\" r=\"2\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n\
</g>\n\
</svg>\n";
        assert_eq!(to_svg(&scene), expected);
    }
}
