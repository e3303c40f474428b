//! The `walkmesh` command line: `formats`, `info`, `convert`, `validate`, `dump`.
//!
//! Thin on purpose: it parses arguments, picks formats from the registry, runs the core
//! pipeline (read → prepare → write) and prints. Exit codes: 0 success, 1 `validate` found
//! errors, 2 unreadable input or bad usage.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, Input, MeshKind, NavMesh, ReadOptions, Registry, Severity,
    UpAxis, WriteOptions, material::MaterialProfile, passes, summary, validate,
};

const EXAMPLES: &str = "\
Examples:
  walkmesh convert room.obj room.wok          Blender export (Y up) to a KotOR area walkmesh
  walkmesh convert room.wok room.obj          and back, for editing
  walkmesh info room.wok --json               counts, bounds, walkable area, loops, materials
  walkmesh validate room.wok --json           every rule of the format, with stable codes
  walkmesh dump room.wok --format json        every stored field with its byte offset";

#[derive(Parser, Debug)]
#[command(
    name = "walkmesh",
    version,
    about = "Read, write, validate and convert game walkmeshes (KotOR BWM, NWN2 TRN/TRX, Metroid Prime PATH, OBJ, glTF)",
    after_help = EXAMPLES,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the supported formats: id, extensions, and whether they read and write.
    ///
    /// Example: walkmesh formats --json
    Formats {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Summarise a walkmesh: kind, counts, bounding box, walkable area, connected walkable
    /// regions, boundary loops of the walkable region, faces per material.
    ///
    /// Example: walkmesh info room.wok --json
    Info {
        /// The walkmesh file.
        file: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Convert between formats, recomputing the derived tables the target needs.
    ///
    /// The output format comes from OUT's extension (or --to). Writing back to the format a
    /// file came from, with nothing changed, reproduces it byte for byte unless --rebuild is
    /// given. Output is written to a temporary file and renamed, so a failed run leaves no
    /// partial file.
    ///
    /// Example: walkmesh convert room.obj room.wok --materials kotor.ron
    Convert {
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
        /// Merge vertices closer than this distance before writing (0 = only exactly equal
        /// positions). Off by default: vertex identity is authored data.
        #[arg(long, value_name = "DISTANCE")]
        weld: Option<f32>,
        /// NWN2: a .trn/.trx whose other packets (terrain, water) are kept around the baked
        /// walkmesh.
        #[arg(long, value_name = "FILE")]
        template: Option<PathBuf>,
        /// Metroid Prime: region height when the source has none (default 1.0).
        #[arg(long, value_name = "HEIGHT")]
        region_height: Option<f32>,
    },
    /// Check a walkmesh against its format's rules and general mesh sanity.
    ///
    /// Exit code 1 when any error is found. Every finding has a stable code
    /// (`bwm.adjacency_not_reciprocal`, `mesh.non_manifold_edge`, …).
    ///
    /// Example: walkmesh validate room.wok --json
    Validate {
        /// The walkmesh file.
        file: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
        /// Print {"errors": [...], "warnings": [...]}.
        #[arg(long)]
        json: bool,
    },
    /// Show every stored field with its byte offset (formats without a field dump show the
    /// neutral mesh instead).
    ///
    /// Example: walkmesh dump area.path --format ron
    Dump {
        /// The walkmesh file.
        file: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
        /// Output syntax.
        #[arg(long, value_enum, default_value_t = DumpSyntax::Ron)]
        format: DumpSyntax,
    },
}

#[derive(Args, Debug, Clone)]
struct ReadArgs {
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

#[derive(ValueEnum, Clone, Copy, Debug)]
enum KindArg {
    Area,
    Placeable,
    Door,
    Terrain,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DumpSyntax {
    Ron,
    Json,
}

/// A failure that ends the command with exit code 2.
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure(error.to_string())
    }
}

/// Runs the command line `args` (program name first); returns the exit code.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().ansi().to_string();
            return match error.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let _ = write!(stdout, "{}", error.render());
                    0
                }
                clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = write!(stderr, "{}", error.render());
                    2
                }
                _ => {
                    let _ = write!(
                        stderr,
                        "{}",
                        if text.is_empty() {
                            error.to_string()
                        } else {
                            error.render().to_string()
                        }
                    );
                    2
                }
            };
        }
    };
    let registry = walkmesh_formats::default_registry();
    let result = match cli.command {
        Command::Formats { json } => formats(&registry, json, stdout),
        Command::Info { file, read, json } => info(&registry, &file, &read, json, stdout, stderr),
        Command::Convert {
            input,
            output,
            read,
            to,
            rebuild,
            kind,
            weld,
            template,
            region_height,
        } => {
            let plan = ConvertPlan {
                to,
                rebuild,
                kind,
                weld,
                template,
                region_height,
            };
            convert(&registry, &input, &output, &read, &plan, stdout, stderr)
        }
        Command::Validate { file, read, json } => {
            validate_file(&registry, &file, &read, json, stdout)
        }
        Command::Dump { file, read, format } => {
            dump(&registry, &file, &read, format, stdout, stderr)
        }
    };
    match result {
        Ok(code) => code,
        Err(Failure(message)) => {
            let _ = writeln!(stderr, "error: {message}");
            2
        }
    }
}

#[derive(Serialize)]
struct FormatRow {
    id: &'static str,
    name: &'static str,
    extensions: Vec<&'static str>,
    read: bool,
    write: bool,
    validate: bool,
    dump: bool,
}

fn formats(registry: &Registry, json: bool, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let rows: Vec<FormatRow> = registry
        .formats()
        .map(|f| FormatRow {
            id: f.id(),
            name: f.name(),
            extensions: f.extensions().to_vec(),
            read: f.reader().is_some(),
            write: f.writer().is_some(),
            validate: f.validator().is_some(),
            dump: f.dumper().is_some(),
        })
        .collect();
    if json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(0);
    }
    let yes = |b: bool| if b { "yes" } else { "-" };
    writeln!(
        stdout,
        "{:<6} {:<22} {:<5} {:<5} {:<8} {:<5} name",
        "id", "extensions", "read", "write", "validate", "dump"
    )?;
    for row in rows {
        writeln!(
            stdout,
            "{:<6} {:<22} {:<5} {:<5} {:<8} {:<5} {}",
            row.id,
            row.extensions
                .iter()
                .map(|e| format!(".{e}"))
                .collect::<Vec<_>>()
                .join(" "),
            yes(row.read),
            yes(row.write),
            yes(row.validate),
            yes(row.dump),
            row.name
        )?;
    }
    Ok(0)
}

fn read_options(read: &ReadArgs) -> Result<ReadOptions, Failure> {
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

fn load_profile(path: Option<&Path>) -> Result<Option<Arc<MaterialProfile>>, Failure> {
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
fn open<'r>(
    registry: &'r Registry,
    file: &Path,
    read: &ReadArgs,
) -> Result<(Vec<u8>, &'r dyn Format), Failure> {
    let bytes =
        std::fs::read(file).map_err(|e| Failure(format!("cannot read {}: {e}", file.display())))?;
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
fn load(
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

fn print_diagnostics(diag: &Diagnostics, stderr: &mut dyn Write) {
    for item in &diag.items {
        let _ = writeln!(stderr, "{item}");
    }
}

fn info(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    json: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut diag = Diagnostics::new();
    let (mesh, format) = load(registry, file, read, &mut diag)?;
    print_diagnostics(&diag, stderr);
    let s = summary::summarize(&mesh, format);
    if json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&s)?)?;
        return Ok(0);
    }
    writeln!(stdout, "file:           {}", file.display())?;
    writeln!(stdout, "format:         {}", s.format)?;
    writeln!(stdout, "kind:           {}", s.kind)?;
    writeln!(stdout, "vertices:       {}", s.vertices)?;
    writeln!(
        stdout,
        "faces:          {} ({} walkable{})",
        s.faces,
        s.walkable_faces,
        if s.triangles_only {
            ", all triangles"
        } else {
            ""
        }
    )?;
    if let Some(b) = s.bbox {
        writeln!(stdout, "bbox:           {:?} .. {:?}", b.min, b.max)?;
    }
    writeln!(stdout, "walkable area:  {:.6}", s.walkable_area)?;
    writeln!(
        stdout,
        "components:     {} connected walkable region(s)",
        s.components
    )?;
    writeln!(
        stdout,
        "boundary loops: {} ({} outer, {} holes{})",
        s.boundary_loops,
        s.outer_loops,
        s.hole_loops,
        if s.open_boundary_chains > 0 {
            format!(", {} open chains", s.open_boundary_chains)
        } else {
            String::new()
        }
    )?;
    if s.non_manifold_edges > 0 {
        writeln!(
            stdout,
            "non-manifold:   {} edge(s) shared by 3+ walkable faces",
            s.non_manifold_edges
        )?;
    }
    if s.edge_tags > 0 || s.hooks > 0 {
        writeln!(
            stdout,
            "edge tags:      {}   hooks: {}",
            s.edge_tags, s.hooks
        )?;
    }
    writeln!(stdout, "materials:")?;
    for (name, count) in &s.materials {
        writeln!(stdout, "  {name:<16} {count}")?;
    }
    Ok(0)
}

struct ConvertPlan {
    to: Option<String>,
    rebuild: bool,
    kind: Option<KindArg>,
    weld: Option<f32>,
    template: Option<PathBuf>,
    region_height: Option<f32>,
}

fn convert(
    registry: &Registry,
    input: &Path,
    output: &Path,
    read: &ReadArgs,
    plan: &ConvertPlan,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
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
    if plan.weld.is_some() {
        requirements.weld = plan.weld;
    }
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

/// Writes to a temporary file in the target's directory, then renames it over the target:
/// readers never see a half-written file, and a failure leaves nothing behind.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let directory = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new()
        .prefix(".walkmesh-")
        .suffix(".tmp")
        .tempfile_in(directory)
        .map_err(|e| {
            Failure(format!(
                "cannot create a temporary file in {}: {e}",
                directory.display()
            ))
        })?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    temporary
        .persist(path)
        .map_err(|e| Failure(format!("cannot replace {}: {}", path.display(), e.error)))?;
    Ok(())
}

#[derive(Serialize)]
struct ValidationReport<'a> {
    errors: Vec<&'a Diagnostic>,
    warnings: Vec<&'a Diagnostic>,
}

fn validate_file(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    json: bool,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let (bytes, format) = open(registry, file, read)?;
    let options = read_options(read)?;
    let input = Input {
        bytes: &bytes,
        path: Some(file),
    };
    let mut findings: Vec<Diagnostic> = Vec::new();
    let mut format_errors = 0;
    if let Some(validator) = format.validator() {
        let found = validator
            .validate(input, &options)
            .map_err(|e| Failure(e.in_file(file).to_string()))?;
        format_errors = found
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        findings.extend(found);
    }
    let reader = format.reader();
    let mut diag = Diagnostics::new();
    match reader.map(|r| r.read(input, &options, &mut diag)) {
        Some(Ok(mesh)) => {
            findings.extend(diag.items);
            findings.extend(validate::mesh_findings(&mesh));
        }
        Some(Err(error)) if format_errors == 0 => {
            return Err(Failure(error.in_file(file).to_string()));
        }
        // The format validator already explained why the file does not read.
        Some(Err(_)) => {}
        None if format.validator().is_none() => {
            return Err(Failure(format!(
                "the {} format cannot be read or validated yet",
                format.id()
            )));
        }
        None => {}
    }
    for finding in &mut findings {
        if finding.location.file.is_none() {
            finding.location.file = Some(file.to_path_buf());
        }
    }
    let errors: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let warnings: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.severity != Severity::Error)
        .collect();
    let failed = !errors.is_empty();
    if json {
        let report = ValidationReport { errors, warnings };
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for item in errors.iter().chain(&warnings) {
            writeln!(stdout, "{item}")?;
        }
        writeln!(
            stdout,
            "{}: {} error(s), {} warning(s)",
            file.display(),
            errors.len(),
            warnings.len()
        )?;
    }
    Ok(if failed { 1 } else { 0 })
}

#[derive(Serialize)]
struct MeshDump<'a> {
    format: &'a str,
    note: &'a str,
    mesh: &'a NavMesh,
}

fn dump(
    registry: &Registry,
    file: &Path,
    read: &ReadArgs,
    syntax: DumpSyntax,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (bytes, format) = open(registry, file, read)?;
    let options = read_options(read)?;
    let input = Input {
        bytes: &bytes,
        path: Some(file),
    };
    let text = if let Some(dumper) = format.dumper() {
        let tree = dumper
            .dump(input, &options)
            .map_err(|e| Failure(e.in_file(file).to_string()))?;
        serialize(&tree, syntax)?
    } else {
        // No field dump: show the neutral mesh, read from the bytes already in hand.
        let reader = format.reader().ok_or_else(|| {
            Failure(format!(
                "the {} format cannot be read or dumped yet",
                format.id()
            ))
        })?;
        let mut diag = Diagnostics::new();
        let mesh = reader
            .read(input, &options, &mut diag)
            .map_err(|e| Failure(e.in_file(file).to_string()))?;
        diag.set_file(file);
        print_diagnostics(&diag, stderr);
        serialize(
            &MeshDump {
                format: format.id(),
                note: "this format has no field dump; showing the neutral mesh",
                mesh: &mesh,
            },
            syntax,
        )?
    };
    writeln!(stdout, "{text}")?;
    Ok(0)
}

fn serialize<T: Serialize>(value: &T, syntax: DumpSyntax) -> Result<String, Failure> {
    Ok(match syntax {
        DumpSyntax::Json => serde_json::to_string_pretty(value)?,
        DumpSyntax::Ron => ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())?,
    })
}
