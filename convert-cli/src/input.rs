//! Reading input files: options shared by every command that reads a walkmesh, detection,
//! and loading into the neutral mesh.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use walkmesh_core::{
    Diagnostics, Format, Input, NavMesh, ReadOptions, Registry, UpAxis, material::MaterialProfile,
};

use crate::Failure;

#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// Input format id, overriding detection by magic bytes and extension.
    #[arg(long, value_name = "ID")]
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
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    max_decompressed: u64,
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
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure(format!(
            "cannot read the material profile {}: {e}",
            path.display()
        ))
    })?;
    let profile =
        MaterialProfile::parse(&text).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    Ok(Some(Arc::new(profile)))
}

/// The input's bytes and its format.
pub fn open<'r>(
    registry: &'r Registry,
    file: &Path,
    read: &ReadArgs,
) -> Result<(Vec<u8>, &'r dyn Format), Failure> {
    // A file, or a member of a module archive written `area.mod:room.wok`.
    let bytes = walkmesh_kotor_area::erf::read_file_or_member(file).map_err(Failure)?;
    let format = match &read.from {
        Some(id) => registry.by_id(id)?,
        None => {
            let head = bytes.get(..bytes.len().min(64 * 1024)).unwrap_or(&bytes);
            registry.detect(file, head, bytes.len() as u64)?
        }
    };
    Ok((bytes, format))
}

/// Reads `file` into the IR; read warnings go to `diag`.
pub fn load(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    diag: &mut Diagnostics,
) -> Result<(NavMesh, &'static str), Failure> {
    let (bytes, format) = open(registry, file, read)?;
    let reader = format.reader().ok_or_else(|| {
        Failure(format!(
            "the {} format ({}) cannot be read yet",
            format.id(),
            format.name()
        ))
    })?;
    let options = read_options(read)?;
    let mesh = reader
        .read(
            Input {
                bytes: &bytes,
                path: Some(file),
            },
            &options,
            diag,
        )
        .map_err(|e| Failure(e.in_file(file).to_string()))?;
    diag.set_file(file);
    Ok((mesh, format.id()))
}

pub fn print_diagnostics(diag: &Diagnostics, stderr: &mut dyn Write) {
    for item in &diag.items {
        let _ = writeln!(stderr, "{item}");
    }
}
