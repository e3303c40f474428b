//! Pictures written by `render` and `diff --overlay`: the format from the output's name, and
//! a scene's bytes in it (`walkmesh-render` draws).

use std::path::Path;

use walkmesh_pipeline::failure::Failure;

use crate::targets::is_stdout;

/// The picture formats, from the output extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    Svg,
    Png,
}

/// The picture format of `path`: SVG on standard output, else by its extension.
pub fn picture_of(path: &Path) -> Result<Picture, Failure> {
    if is_stdout(path) {
        return Ok(Picture::Svg);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        _ => Err(Failure::input(format!(
            "{}: the picture must end in .svg or .png",
            path.display()
        ))),
    }
}

/// The bytes of `scene` in `picture` format.
pub fn encode(scene: &walkmesh_render::Scene, picture: Picture) -> Result<Vec<u8>, Failure> {
    Ok(match picture {
        Picture::Svg => walkmesh_render::to_svg(scene).into_bytes(),
        Picture::Png => walkmesh_render::to_png(scene)?,
    })
}
