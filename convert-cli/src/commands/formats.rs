//! `walkmesh formats`: the registry as a table or JSON.

use std::io::Write;

use serde::Serialize;
use walkmesh_core::Registry;

use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
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

pub fn run(registry: &Registry, args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let rows: Vec<FormatRow> = registry
        .formats()
        .map(|f| FormatRow {
            id: f.descriptor().id,
            name: f.descriptor().name,
            extensions: f.descriptor().extensions.to_vec(),
            read: f.reader().is_some(),
            write: f.writer().is_some(),
            validate: f.validator().is_some(),
            dump: f.dumper().is_some(),
        })
        .collect();
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&rows)?)?;
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
