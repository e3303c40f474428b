//! `walkmesh view`: the 3-D inspector, one self-contained HTML file (walkmesh-view builds it).

use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, NavMesh, Registry};
use walkmesh_view::model::{ModelOverlay, ViewFinding};
use walkmesh_view::{ViewInput, page_with_model, view_tree};

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
    /// Render geometry of the (first) walkmesh's room (MDL, OBJ, glTF; several files are one
    /// scene): drawn faintly under the walkmesh where `lint --model` places it, with the
    /// comparison's findings as the `model findings` layer and a list that selects their
    /// faces. The engine's preset agent is used (as `lint --model` without agent options).
    #[arg(long, value_name = "MODEL", num_args = 1..)]
    model: Vec<PathBuf>,
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
        .map_err(|e| Failure::from(e.in_file(file)))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());
    Ok(Loaded {
        name,
        format: format.descriptor().id,
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
    let compared = match loaded.first() {
        Some(first) if !args.model.is_empty() => {
            Some(compare_with_model(registry, args, first, stderr)?)
        }
        _ => None,
    };
    let overlay = compared.as_ref().map(|c| ModelOverlay {
        name: &c.name,
        render: &c.scene,
        shift: c.shift,
        findings: &c.findings,
    });
    let html = page_with_model(&inputs, &title, overlay.as_ref()).map_err(Failure::from)?;
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

/// The model of `view --model`: its render geometry as one scene, where the comparison placed
/// it, and the comparison's findings.
struct Compared {
    name: String,
    scene: NavMesh,
    shift: [f32; 3],
    findings: Vec<ViewFinding>,
}

/// Reads the model's render geometry and compares `walkmesh` with it as `lint --model` does
/// (`walkmesh_pipeline::lint_model`); the model's reading notes go to `stderr`.
fn compare_with_model(
    registry: &Registry,
    args: &Args,
    walkmesh: &Loaded,
    stderr: &mut dyn Write,
) -> Result<Compared, Failure> {
    let read = walkmesh_pipeline::generate::render_read_options(read_options(&args.read)?);
    let mut diag = Diagnostics::new();
    let models = walkmesh_pipeline::generate::read_inputs(
        registry,
        &args.model,
        &read,
        &crate::input::render_geometry,
        &mut diag,
    )?;
    print_diagnostics(&diag, stderr);
    let engine = registry.engine_of(walkmesh.format);
    let params = walkmesh_generate::Params::preset(engine);
    let linted = walkmesh_lint::as_linted(&walkmesh.mesh);
    let scene = walkmesh_generate::combine(&models);
    drop(models);
    let compared = walkmesh_pipeline::lint_model::lint_against_scene(
        &linted, &scene, &params, [0.0; 3], None,
    )?;
    let name = args
        .model
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect::<Vec<_>>()
        .join(" + ");
    Ok(Compared {
        name,
        scene,
        shift: compared.fit.shift,
        findings: compared.findings.iter().map(view_finding).collect(),
    })
}

fn view_finding(finding: &walkmesh_lint::Finding) -> ViewFinding {
    let severity = match finding.severity {
        walkmesh_core::Severity::Error => "error",
        walkmesh_core::Severity::Warning => "warning",
        walkmesh_core::Severity::Info => "info",
    };
    ViewFinding {
        code: finding.code.clone(),
        severity: severity.into(),
        level: finding.level.name().into(),
        message: finding.message.clone(),
        faces: finding.faces.clone(),
        at: finding.at,
    }
}
