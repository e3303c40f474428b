//! Scene → PNG with tiny-skia (anti-aliased, software, deterministic).

use tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform,
};

use crate::scene::{Pen, Rgba, Scene, Shape};

/// Why a PNG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("a picture of {0} x {1} pixels cannot be allocated")]
    Size(u32, u32),
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

fn paint(color: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.0, color.1, color.2, color.3);
    paint.anti_alias = true;
    paint
}

fn stroke(pen: &Pen) -> Stroke {
    Stroke {
        width: pen.width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        dash: pen
            .dash
            .and_then(|[dash, gap]| StrokeDash::new(vec![dash, gap], 0.0)),
        ..Stroke::default()
    }
}

fn path(polylines: &[Vec<[f32; 2]>], close: bool) -> Option<tiny_skia::Path> {
    let mut builder = PathBuilder::new();
    for polyline in polylines {
        let mut points = polyline.iter();
        let Some(first) = points.next() else {
            continue;
        };
        builder.move_to(first[0], first[1]);
        for p in points {
            builder.line_to(p[0], p[1]);
        }
        if close {
            builder.close();
        }
    }
    builder.finish()
}

/// Draws the scene into a pixmap.
pub fn to_pixmap(scene: &Scene) -> Result<Pixmap, PngError> {
    let mut pixmap =
        Pixmap::new(scene.width, scene.height).ok_or(PngError::Size(scene.width, scene.height))?;
    let b = scene.background;
    pixmap.fill(tiny_skia::Color::from_rgba8(b.0, b.1, b.2, b.3));
    let identity = Transform::identity();
    for shape in scene.groups.iter().flat_map(|g| &g.shapes) {
        match shape {
            Shape::Fill { subpaths, color } => {
                if let Some(p) = path(subpaths, true) {
                    pixmap.fill_path(&p, &paint(*color), FillRule::Winding, identity, None);
                }
            }
            Shape::Stroke { polylines, pen } => {
                if let Some(p) = path(polylines, false) {
                    pixmap.stroke_path(&p, &paint(pen.color), &stroke(pen), identity, None);
                }
            }
            Shape::Circle {
                center,
                radius,
                fill,
                outline,
            } => {
                let Some(circle) = PathBuilder::from_circle(center[0], center[1], *radius) else {
                    continue;
                };
                if let Some(color) = fill {
                    pixmap.fill_path(&circle, &paint(*color), FillRule::Winding, identity, None);
                }
                if let Some(pen) = outline {
                    pixmap.stroke_path(&circle, &paint(pen.color), &stroke(pen), identity, None);
                }
            }
        }
    }
    Ok(pixmap)
}

/// The scene as PNG bytes.
pub fn to_png(scene: &Scene) -> Result<Vec<u8>, PngError> {
    to_pixmap(scene)?
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

impl walkmesh_core::Kinded for PngError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            PngError::Size(..) => walkmesh_core::ErrorKind::Limit,
            PngError::Encode(_) => walkmesh_core::ErrorKind::Io,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::scene::Group;

    #[test]
    fn a_filled_square_covers_its_pixels_and_nothing_else() {
        let scene = Scene {
            width: 20,
            height: 20,
            background: Rgba::rgb(255, 255, 255),
            title: String::new(),
            groups: vec![Group {
                id: "g".into(),
                text: None,
                shapes: vec![Shape::Fill {
                    subpaths: vec![vec![[5.0, 5.0], [15.0, 5.0], [15.0, 15.0], [5.0, 15.0]]],
                    color: Rgba::rgb(255, 0, 0),
                }],
            }],
        };
        let pixmap = to_pixmap(&scene).unwrap();
        let at = |x: u32, y: u32| pixmap.pixel(x, y).unwrap().demultiply();
        let inside = at(10, 10);
        assert_eq!((inside.red(), inside.green(), inside.blue()), (255, 0, 0));
        let outside = at(2, 2);
        assert_eq!(
            (outside.red(), outside.green(), outside.blue()),
            (255, 255, 255)
        );
        let png = to_png(&scene).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert_eq!(png, to_png(&scene).unwrap(), "deterministic bytes");
    }
}
