//! `walkmesh dump`: every stored field with its byte offset (as a tree in RON/JSON, or one line
//! per field), one section of it, or the raw bytes of a section; formats without a field dump
//! show the neutral mesh.

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;
use walkmesh_core::dump::FieldSink;
use walkmesh_core::flatdump::{self, FlatWriter, SectionBytes, SectionFilter};
use walkmesh_core::{Diagnostics, Input, NavMesh, Registry};

use crate::input::{ReadArgs, open, print_diagnostics, read_options};
use crate::targets::{is_stdout, write_file};
use walkmesh_core::dump::tree_stream::{RootCount, Syntax, TreeStream};
use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh file.
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Output syntax: `ron` and `json` print the tree of fields; `flat` prints one line per
    /// field (hex offset, size, type, raw bytes in hex, name = value ; meaning), streamed.
    #[arg(long, value_enum, default_value_t = DumpSyntax::Ron, conflicts_with = "extract")]
    format: DumpSyntax,
    /// Show one section only: `header`, `vertices`, `adjacency` (BWM); `aswm`, `aswm-body`,
    /// `aswm.triangles`, `trrn` for every TRRN packet (TRN/TRX); `regions` (PATH); `json`, `bin`
    /// (glTF). An unknown name lists the file's sections.
    #[arg(long, value_name = "NAME")]
    section: Option<String>,
    /// Write the raw bytes of a section to the file given with -o instead of dumping
    /// (`aswm-body`: the inflated ASWM walkmesh, whose offsets the dump shows).
    #[arg(
        long,
        value_name = "SECTION",
        requires = "output",
        conflicts_with = "section"
    )]
    extract: Option<String>,
    /// Where --extract writes; `-` writes the bytes to standard output (the summary line
    /// then goes to standard error).
    #[arg(short = 'o', long, value_name = "FILE", requires = "extract")]
    output: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DumpSyntax {
    Ron,
    Json,
    Flat,
}

#[derive(Serialize)]
struct MeshDump<'a> {
    format: &'a str,
    note: &'a str,
    mesh: &'a NavMesh,
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (file, read, syntax) = (args.file.as_path(), &args.read, args.format);
    let (bytes, format) = open(registry, file, read)?;
    let options = read_options(read)?;
    let input = Input {
        bytes: &bytes,
        path: Some(file),
    };
    let Some(dumper) = format.dumper() else {
        if syntax == DumpSyntax::Flat || args.section.is_some() || args.extract.is_some() {
            return Err(Failure::input(format!(
                "the {} format has no field dump (no flat dump, sections or extraction); \
                 `--format ron` or `json` shows its neutral mesh",
                format.descriptor().id
            )));
        }
        // No field dump: show the neutral mesh, read from the bytes already in hand.
        let reader = format.reader().ok_or_else(|| {
            Failure::input(format!(
                "the {} format cannot be read or dumped yet",
                format.descriptor().id
            ))
        })?;
        let mut diag = Diagnostics::new();
        let mesh = reader
            .read(input, &options, &mut diag)
            .map_err(|e| Failure::from(e.in_file(file)))?;
        diag.set_file(file);
        print_diagnostics(&diag, stderr);
        let text = serialize(
            &MeshDump {
                format: format.descriptor().id,
                note: "this format has no field dump; showing the neutral mesh",
                mesh: &mesh,
            },
            syntax,
        )?;
        writeln!(stdout, "{text}")?;
        return Ok(0);
    };
    let fields = |sink: &mut dyn FieldSink| {
        dumper
            .dump_fields(input, &options, sink)
            .map_err(|e| Failure::from(e.in_file(file)))
    };
    if let (Some(name), Some(output)) = (&args.extract, &args.output) {
        let mut keep = SectionBytes::new(name);
        fields(&mut keep)?;
        let section = keep
            .finish()
            .map_err(|e| Failure::in_context(format!("{}: ", file.display()), &e))?;
        write_file(output, &section, stdout)?;
        let report: &mut dyn Write = if is_stdout(output) { stderr } else { stdout };
        writeln!(
            report,
            "wrote {}: the {} bytes of section {name} of {}",
            output.display(),
            section.len(),
            file.display()
        )?;
        return Ok(0);
    }
    match syntax {
        DumpSyntax::Flat => {
            let mut writer = FlatWriter::new(&mut *stdout);
            writer.preamble(&format!(
                "walkmesh dump of {} ({}, {} bytes){}",
                file.display(),
                format.descriptor().id,
                bytes.len(),
                match &args.section {
                    Some(name) => format!(", section {name}"),
                    None => String::new(),
                }
            ));
            writer.preamble(flatdump::column_titles().trim_start_matches("# "));
            selected(args, &mut writer, &fields, file)?;
            writer.finish()?;
        }
        DumpSyntax::Ron | DumpSyntax::Json => {
            // Streamed, not built as a tree and serialised (issue 36: a 1 MB TRX is a 360 MB
            // tree). A whole-file dump has one top-level part; a section may match several
            // or none, which the tree wraps in a group `dump`: counted first.
            let wrapped = match &args.section {
                None => false,
                Some(_) => {
                    let mut count = RootCount::default();
                    selected(args, &mut count, &fields, file)?;
                    count.roots() != 1
                }
            };
            let tree_syntax = match syntax {
                DumpSyntax::Json => Syntax::Json,
                DumpSyntax::Ron | DumpSyntax::Flat => Syntax::Ron,
            };
            let out = std::io::BufWriter::with_capacity(1 << 16, &mut *stdout);
            let mut stream = TreeStream::new(out, tree_syntax, wrapped);
            selected(args, &mut stream, &fields, file)?;
            stream.finish()?;
        }
    }
    Ok(0)
}

/// Runs the dump into `sink`, through a filter when a section was asked for.
fn selected(
    args: &Args,
    sink: &mut dyn FieldSink,
    fields: &dyn Fn(&mut dyn FieldSink) -> Result<(), Failure>,
    file: &std::path::Path,
) -> Result<(), Failure> {
    let Some(wanted) = &args.section else {
        return fields(sink);
    };
    let mut filter = SectionFilter::new(sink, wanted);
    fields(&mut filter)?;
    if !filter.matched() {
        return Err(Failure::input(format!(
            "{}: no section '{wanted}'; the file's sections are: {}",
            file.display(),
            filter.names().list().join(", ")
        )));
    }
    Ok(())
}

fn serialize<T: Serialize>(value: &T, syntax: DumpSyntax) -> Result<String, Failure> {
    Ok(match syntax {
        DumpSyntax::Json => walkmesh_core::json::pretty(value)?,
        DumpSyntax::Ron | DumpSyntax::Flat => {
            // What we print and cannot serialise is a fault of ours, not of the input.
            ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
                .map_err(|e| Failure::output(format!("cannot print the dump as RON: {e}")))?
        }
    })
}
