//! `walkmesh convert`: read → prepare (the target's requirements) → write.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use walkmesh_core::{Diagnostics, MeshKind, Registry, WeldChoice, WriteOptions, passes};

use crate::Failure;
use crate::input::{ReadArgs, load, print_diagnostics, read_options};
use crate::output::write_atomically;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The file to read.
    input: PathBuf,
    /// The file to write (sidecars such as .mtl or .bin go beside it).
    output: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Output format id, overriding OUT's extension (see `walkmesh formats`).
    #[arg(long, value_name = "ID")]
    to: Option<String>,
    /// Recompute every derived table even when the preserved ones are still valid.
    #[arg(long)]
    rebuild: bool,
    /// Mesh kind to write (KotOR: placeable → .pwk, door → .dwk); default: from OUT's
    /// extension, else the input's kind.
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Weld vertices before writing: `off` keeps vertex identity, `exact` (or 0) merges
    /// exactly equal positions, a distance merges vertices that close. Default: exact for
    /// OBJ and glTF files from modelling tools (no walkmesh metadata), off otherwise (game
    /// files and files this tool wrote share vertices on purpose).
    #[arg(long, value_name = "off|exact|DISTANCE", value_parser = WeldChoice::parse)]
    weld: Option<WeldChoice>,
    /// NWN2: a .trn/.trx whose other packets (terrain, water) are kept around the baked
    /// walkmesh.
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// Metroid Prime: region height when the source has none (default 1.0).
    #[arg(long, value_name = "HEIGHT")]
    region_height: Option<f32>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum KindArg {
    Area,
    Placeable,
    Door,
    Terrain,
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (input, output, read, plan): (&Path, &Path, &ReadArgs, &Args) =
        (&args.input, &args.output, &args.read, args);
    // Choose the target before reading, so a bad OUT fails fast.
    let target = match &plan.to {
        Some(id) => registry.by_id(id)?,
        None => registry.for_output(output)?,
    };
    let writer = target.writer().ok_or_else(|| {
        Failure(format!(
            "the {} format ({}) cannot be written yet",
            target.id(),
            target.name()
        ))
    })?;
    let mut diag = Diagnostics::new();
    let (mesh, source) = load(registry, input, read, &mut diag)?;
    let read_opts = read_options(read)?;
    let mut options = WriteOptions {
        up: read_opts.up,
        materials: read_opts.materials.clone(),
        rebuild: plan.rebuild,
        kind: plan.kind.map(|k| match k {
            KindArg::Area => MeshKind::Area,
            KindArg::Placeable => MeshKind::Placeable,
            KindArg::Door => MeshKind::Door,
            KindArg::Terrain => MeshKind::Terrain,
        }),
        file_name: output
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string),
        params: Default::default(),
    };
    if let Some(template) = &plan.template {
        options
            .params
            .insert("nwn2:template".into(), template.display().to_string());
    }
    if let Some(height) = plan.region_height {
        options
            .params
            .insert("prime:region_height".into(), height.to_string());
    }
    let mut requirements = writer.requirements(&options);
    requirements.weld = plan
        .weld
        .unwrap_or_default()
        .tolerance(&mesh, &requirements);
    let prepared = passes::prepare(&mesh, &requirements, &mut diag);
    let written = writer.write(&prepared, &options, &mut diag).map_err(|e| {
        Failure(format!(
            "cannot write {} as {}: {e}",
            output.display(),
            target.id()
        ))
    })?;
    print_diagnostics(&diag, stderr);
    let directory = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    for sidecar in &written.sidecars {
        write_atomically(&directory.join(&sidecar.file_name), &sidecar.bytes)?;
    }
    write_atomically(output, &written.main)?;
    writeln!(
        stdout,
        "wrote {} ({} → {}): {} faces, {} walkable, {} bytes{}",
        output.display(),
        source,
        target.id(),
        prepared.polygons.len(),
        prepared.walkable_count(),
        written.main.len(),
        if written.sidecars.is_empty() {
            String::new()
        } else {
            format!(
                " (+ {})",
                written
                    .sidecars
                    .iter()
                    .map(|s| s.file_name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    )?;
    Ok(0)
}
