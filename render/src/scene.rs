//! The scene description both backends draw: shapes in pixel coordinates (origin top-left,
//! y down), in drawing order, grouped and named. Text is already turned into strokes
//! ([`crate::font`]), so the SVG and the PNG of one scene show the same pixels.

/// A colour with straight (not premultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba(r, g, b, 255)
    }

    /// The same colour with alpha `alpha`.
    pub const fn with_alpha(self, alpha: u8) -> Rgba {
        Rgba(self.0, self.1, self.2, alpha)
    }

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A line style.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    pub color: Rgba,
    pub width: f32,
    /// Dash and gap lengths, when dashed.
    pub dash: Option<[f32; 2]>,
}

impl Pen {
    pub const fn solid(color: Rgba, width: f32) -> Pen {
        Pen {
            color,
            width,
            dash: None,
        }
    }
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Closed subpaths filled with the non-zero rule (one colour for many polygons, so
    /// neighbouring polygons of one colour show no seams).
    Fill {
        subpaths: Vec<Vec<[f32; 2]>>,
        color: Rgba,
    },
    /// Open polylines (closed ones repeat their first point), round caps and joins.
    Stroke {
        polylines: Vec<Vec<[f32; 2]>>,
        pen: Pen,
    },
    Circle {
        center: [f32; 2],
        radius: f32,
        fill: Option<Rgba>,
        outline: Option<Pen>,
    },
}

/// Named shapes (an SVG `<g>`); `text` is the words the group draws, if it is a label (kept
/// in the SVG as an accessible label).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Group {
    pub id: String,
    pub text: Option<String>,
    pub shapes: Vec<Shape>,
}

/// A picture: size in pixels, background, groups in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: u32,
    pub height: u32,
    pub background: Rgba,
    pub title: String,
    pub groups: Vec<Group>,
}

impl Scene {
    /// Number of shapes in all groups.
    pub fn shape_count(&self) -> usize {
        self.groups.iter().map(|g| g.shapes.len()).sum()
    }

    /// The group named `id`.
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }
}
