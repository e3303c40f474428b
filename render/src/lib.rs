//! walkmesh-render: pictures of walkmeshes.
//!
//! A picture is built once as a [`Scene`] (shapes in pixel coordinates, in drawing order) by
//! [`top_down`], then drawn by two backends: [`to_svg`] (text, written directly) and
//! [`to_png`] (tiny-skia). Labels are drawn as strokes of a small built-in font
//! ([`font`]), so no font file is needed and both backends show the same pixels.
//!
//! Depends on walkmesh-core only: everything it shows comes from the neutral mesh (NWN2
//! tiles from the `nwn2:tile` column and the tile grid; PATH regions are the polygons).

pub mod font;
pub mod palette;
pub mod png;
pub mod scene;
pub mod svg;
pub mod top_down;

pub use png::{PngError, to_pixmap, to_png};
pub use scene::{Group, Pen, Rgba, Scene, Shape};
pub use svg::to_svg;
pub use top_down::{FaceColours, Highlight, Layer, Mode, Options, RenderError, top_down};
