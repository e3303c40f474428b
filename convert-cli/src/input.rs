//! Reading input files: options shared by every command that reads a walkmesh, detection,
//! and loading into the neutral mesh.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use walkmesh_core::{
    Diagnostics, Format, NavMesh, ReadOptions, Registry, UpAxis, material::MaterialProfile,
};

use walkmesh_pipeline::failure::Failure;

#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// Input format id, overriding detection by magic bytes and extension.
    #[arg(id = "input_format", long = "from", value_name = "ID")]
    from: Option<String>,
    /// A material profile (RON) replacing the embedded one: names, codes, walkability.
    /// Name-based formats (OBJ, glTF) use it for names; code-based formats use it when its
    /// `engine` is theirs.
    #[arg(long, value_name = "FILE")]
    materials: Option<PathBuf>,
    /// Up axis of OBJ files: y (Blender's default export) or z.
    #[arg(long, value_enum, default_value_t = UpArg::Y)]
    up: UpArg,
    /// Material for faces whose material name is missing or unknown (default: the
    /// profile's default, Stone).
    #[arg(long, value_name = "NAME")]
    default_material: Option<String>,
    /// glTF: index of the scene to read (default: the file's default scene).
    #[arg(long, value_name = "INDEX")]
    scene: Option<u32>,
    /// Ceiling, in MiB, for data a file makes us unpack or generate (NWN2 zlib packets, glTF
    /// geometry); larger claims are refused before anything is allocated.
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=MAX_DECOMPRESSED_MIB))]
    max_decompressed: u64,
}

/// Upper bound of `--max-decompressed`: 64 GiB, far above any walkmesh, low enough that the
/// byte count cannot overflow.
const MAX_DECOMPRESSED_MIB: u64 = 64 * 1024;

/// Parses a fraction between 0 and 1 (`--max-area-change`).
pub fn fraction(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is not a fraction between 0 and 1"))
    }
}

/// Parses a finite, non-negative distance (`--weld`).
pub fn non_negative_distance(text: &str) -> Result<f32, String> {
    let value = finite(text)?;
    if value < 0.0 {
        return Err(format!("{text} is negative; give a distance of 0 or more"));
    }
    Ok(value)
}

/// Parses a finite number greater than zero (`--region-height`).
pub fn positive(text: &str) -> Result<f32, String> {
    let value = finite(text)?;
    if value <= 0.0 {
        return Err(format!("{text} is not greater than 0"));
    }
    Ok(value)
}

fn finite(text: &str) -> Result<f32, String> {
    let value: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if !value.is_finite() {
        return Err(format!(
            "{text} is not a finite number (or is too large for 32-bit floats)"
        ));
    }
    Ok(value)
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum UpArg {
    Y,
    Z,
}

pub fn read_options(read: &ReadArgs) -> Result<ReadOptions, Failure> {
    let mut options = ReadOptions {
        up: match read.up {
            UpArg::Y => UpAxis::Y,
            UpArg::Z => UpAxis::Z,
        },
        materials: load_profile(read.materials.as_deref())?,
        default_material: read.default_material.clone(),
        max_decompressed: read.max_decompressed.saturating_mul(1024 * 1024),
        ..ReadOptions::default()
    };
    if let Some(scene) = read.scene {
        options
            .params
            .insert("gltf:scene".into(), scene.to_string());
    }
    Ok(options)
}

pub fn load_profile(path: Option<&Path>) -> Result<Option<Arc<MaterialProfile>>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let text = walkmesh_core::files::read_to_string(path).map_err(|e| {
        Failure::input(format!(
            "cannot read the material profile {}: {e}",
            path.display()
        ))
    })?;
    let profile = MaterialProfile::parse(&text)
        .map_err(|e| Failure::in_context(format!("{}: ", path.display()), &e))?;
    Ok(Some(Arc::new(profile)))
}

/// The input's bytes and its format (a file, or a member of a module archive written
/// `area.mod:room.wok`).
pub fn open<'r>(
    registry: &'r Registry,
    file: &Path,
    read: &ReadArgs,
) -> Result<(Vec<u8>, &'r dyn Format), Failure> {
    Ok(walkmesh_pipeline::open(
        registry,
        file,
        read.from.as_deref(),
    )?)
}

/// Reads `file` into the IR; read warnings go to `diag`.
pub fn load(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    diag: &mut Diagnostics,
) -> Result<(NavMesh, &'static str), Failure> {
    let options = read_options(read)?;
    load_with(registry, file, read.from.as_deref(), &options, diag)
}

/// The reading options given that have no default (`--from`, `--materials`,
/// `--default-material`, `--scene`), for commands that refuse them where they would be
/// ignored.
pub fn options_given(read: &ReadArgs) -> Vec<&'static str> {
    [
        (read.from.is_some(), "--from"),
        (read.materials.is_some(), "--materials"),
        (read.default_material.is_some(), "--default-material"),
        (read.scene.is_some(), "--scene"),
    ]
    .into_iter()
    .filter_map(|(given, name)| given.then_some(name))
    .collect()
}

/// The input format id given with `--from`.
pub fn from_id(read: &ReadArgs) -> Option<&str> {
    read.from.as_deref()
}

/// Reads `file` with options already prepared (a batch loads the profile once).
pub fn load_with(
    registry: &Registry,
    file: &Path,
    from: Option<&str>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> Result<(NavMesh, &'static str), Failure> {
    let (mesh, format) = walkmesh_pipeline::read_path(registry, file, from, options, diag)?;
    Ok((mesh, format.descriptor().id))
}

/// The files the reading options name (`--materials`), for dependency files.
pub fn option_files(read: &ReadArgs) -> Vec<PathBuf> {
    read.materials.iter().cloned().collect()
}

pub fn print_diagnostics(diag: &Diagnostics, stderr: &mut dyn Write) {
    for item in &diag.items {
        // Hints in the readers' messages, said with the running command's own options.
        let _ = writeln!(
            stderr,
            "{}",
            crate::hints::fit_for_current(&item.to_string())
        );
    }
}

/// A model's render geometry (`walkmesh_formats::read_render_geometry`: a KotOR binary
/// model's, by the registry's render-geometry role), `None` for any other file.
pub(crate) fn render_geometry(
    registry: &Registry,
    path: &Path,
    diag: &mut walkmesh_core::Diagnostics,
) -> Option<Result<walkmesh_core::NavMesh, walkmesh_generate::ModelReadError>> {
    walkmesh_formats::read_render_geometry(registry, path, diag)
        .map(|read| read.map_err(|e| Box::new(e) as walkmesh_generate::ModelReadError))
}
