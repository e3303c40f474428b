//! `walkmesh render`: a top-down picture of one or more walkmeshes, as SVG or PNG.

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use walkmesh_core::{Diagnostics, NavMesh, Registry};
use walkmesh_render::{Layer, Mode, Options};

use crate::input::{ReadArgs, load, print_diagnostics};
use crate::pictures::{Picture, encode, picture_of};
use crate::targets::{is_stdout, write_file};
use walkmesh_pipeline::failure::Failure;

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ModeArg {
    /// Neutral material of each walkable face.
    Materials,
    /// One colour per connected walkable region (leaks and splits show at once).
    Components,
    /// NWN2 islands over the tile grid.
    Tiles,
    /// One colour per polygon (Metroid Prime PATH regions).
    Regions,
    /// Depth of each polygon in a balanced AABB tree.
    AabbDepth,
}

impl From<ModeArg> for Mode {
    fn from(mode: ModeArg) -> Mode {
        match mode {
            ModeArg::Materials => Mode::Materials,
            ModeArg::Components => Mode::Components,
            ModeArg::Tiles => Mode::Tiles,
            ModeArg::Regions => Mode::Regions,
            ModeArg::AabbDepth => Mode::AabbDepth,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh files; several are overlaid, one colour each.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The picture: .svg or .png; `-` writes SVG to standard output (the summary line then
    /// goes to standard error).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// What the face colours show (default: materials). One input only: several inputs are
    /// coloured one colour each, so another mode is refused there, except `tiles`, which
    /// adds the first input's tile grid.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// Picture width in pixels (320 to 8192); the height follows the mesh.
    #[arg(long, default_value_t = 1200)]
    width: u32,
    /// Leave out the thin polygon edges.
    #[arg(long)]
    no_wireframe: bool,
    /// Refuse a PNG whose pixels (with the encoder's copy) would need more than MIB
    /// mebibytes (default 4096, or less where the process may not have it, as in
    /// `convert`); the picture's size, not the coordinates, sets the work.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Refuses a PNG whose raster would exceed the memory limit: the pixmap (4 bytes a pixel)
/// and, at most as large, the encoder's filtered rows and output.
pub fn check_raster(
    scene: &walkmesh_render::Scene,
    max_memory: Option<u64>,
) -> Result<(), Failure> {
    let pixels = u64::from(scene.width) * u64::from(scene.height);
    walkmesh_core::memory::check(
        "picture",
        &format!("a {} x {} pixel PNG", scene.width, scene.height),
        pixels.saturating_mul(8),
        max_memory.unwrap_or_else(walkmesh_core::memory::default_max_memory_mib),
    )
    .map_err(|e| Failure::input(e.message))
}

/// Options this picture would not honour are refused rather than dropped.
fn refuse_ignored_options(args: &Args, picture: Picture) -> Result<(), Failure> {
    if picture == Picture::Svg && args.max_memory.is_some() {
        return Err(Failure::usage(
            "--max-memory bounds a PNG's pixels; an SVG has none (write .png, or leave it out)",
        ));
    }
    if let Some(mode) = args.mode
        && args.files.len() > 1
        && !matches!(mode, ModeArg::Materials | ModeArg::Tiles)
    {
        return Err(Failure::usage(format!(
            "--mode {} colours one input; {} inputs are drawn one colour each (render them one at a time)",
            Mode::from(mode).name(),
            args.files.len()
        )));
    }
    Ok(())
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let picture = picture_of(&args.output)?;
    refuse_ignored_options(args, picture)?;
    let mut meshes: Vec<(String, NavMesh)> = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let mut diag = Diagnostics::new();
        let (mesh, _) = load(registry, file, &args.read, &mut diag)?;
        print_diagnostics(&diag, stderr);
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.display().to_string());
        meshes.push((name, mesh));
    }
    let layers: Vec<Layer<'_>> = meshes
        .iter()
        .map(|(name, mesh)| Layer { name, mesh })
        .collect();
    let options = Options {
        mode: args.mode.unwrap_or(ModeArg::Materials).into(),
        width: args.width,
        wireframe: !args.no_wireframe,
        highlights: Vec::new(),
        face_colours: None,
    };
    let scene = walkmesh_render::top_down(&layers, &options)?;
    if picture == Picture::Png {
        check_raster(&scene, args.max_memory)?;
    }
    let bytes = encode(&scene, picture)?;
    write_file(&args.output, &bytes, stdout)?;
    let report: &mut dyn Write = if is_stdout(&args.output) {
        stderr
    } else {
        stdout
    };
    writeln!(
        report,
        "{}: {} x {} pixels, {} input(s), mode {}",
        args.output.display(),
        scene.width,
        scene.height,
        layers.len(),
        options.mode.name()
    )?;
    Ok(0)
}
