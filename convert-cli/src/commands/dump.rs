//! `walkmesh dump`: every stored field with its byte offset, or the neutral mesh.

use std::io::Write;
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;
use walkmesh_core::{Diagnostics, Input, NavMesh, Registry};

use crate::Failure;
use crate::input::{ReadArgs, open, print_diagnostics, read_options};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The walkmesh file.
    file: PathBuf,
    #[command(flatten)]
    read: ReadArgs,
    /// Output syntax.
    #[arg(long, value_enum, default_value_t = DumpSyntax::Ron)]
    format: DumpSyntax,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DumpSyntax {
    Ron,
    Json,
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
