//! `walkmesh view`: the 3-D inspector, one self-contained HTML file (walkmesh-view builds it).

use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, NavMesh, Registry};
use walkmesh_view::{ViewInput, page, view_tree};

use crate::input::{ReadArgs, open, print_diagnostics, read_options};
use crate::targets::{is_stdout, write_file};
use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh file, and optionally a second one drawn in the same scene (each can be
    /// hidden; a `diff` layer colours the faces where they differ).
    #[arg(required = true, num_args = 1..=2, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The page to write (.html); `-` writes it to standard output (the summary line then
    /// goes to standard error).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
}

/// One input read once: its mesh, its field dump (when the format has one) and its format id.
struct Loaded {
    name: String,
    format: &'static str,
    mesh: NavMesh,
    fields: Option<walkmesh_core::dump::DumpNode>,
}

fn load(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    stderr: &mut dyn Write,
) -> Result<Loaded, Failure> {
    let (bytes, format) = open(registry, file, read)?;
    let options = read_options(read)?;
    let mut diag = Diagnostics::new();
    let mesh = walkmesh_pipeline::read_as(format, &bytes, Some(file), &options, &mut diag)?;
    diag.set_file(file);
    print_diagnostics(&diag, stderr);
    let fields = view_tree(format, &bytes, Some(file), &options, mesh.polygons.len())
        .map_err(|e| Failure::input(e.in_file(file).to_string()))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());
    Ok(Loaded {
        name,
        format: format.id(),
        mesh,
        fields,
    })
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut loaded = Vec::with_capacity(args.files.len());
    for file in &args.files {
        loaded.push(load(registry, file, &args.read, stderr)?);
    }
    let inputs: Vec<ViewInput<'_>> = loaded
        .iter()
        .map(|l| ViewInput {
            name: &l.name,
            format: l.format,
            capabilities: registry.capabilities_of(l.format),
            mesh: &l.mesh,
            fields: l.fields.as_ref(),
        })
        .collect();
    let title = loaded
        .iter()
        .map(|l| l.name.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let html = page(&inputs, &title).map_err(|e| Failure::input(e.to_string()))?;
    write_file(&args.output, html.as_bytes(), stdout)?;
    let faces: usize = loaded.iter().map(|l| l.mesh.polygons.len()).sum();
    let report: &mut dyn Write = if is_stdout(&args.output) {
        stderr
    } else {
        stdout
    };
    writeln!(
        report,
        "{}: {} bytes, {} input(s), {faces} faces",
        args.output.display(),
        html.len(),
        loaded.len()
    )?;
    Ok(0)
}
