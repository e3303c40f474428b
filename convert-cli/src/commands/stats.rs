//! `walkmesh stats DIR…`: statistics of every stored field across a corpus (the logic is in
//! walkmesh-research).

use std::io::Write;
use std::path::PathBuf;

use walkmesh_core::Registry;

use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Folders (searched recursively) or files; files no format with a field dump reads are
    /// listed as skipped.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object: {"files": N, "fields": [{"field", "min", "max", "distinct",
    /// "common", "outliers", "flags", …}], "skipped": […]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(registry: &Registry, args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let stats =
        walkmesh_research::stats::corpus_stats(registry, &args.paths).map_err(Failure::from)?;
    if stats.files == 0 {
        let searched: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::input(format!(
            "no walkmesh with a field dump under {} ({} file(s) skipped)",
            searched.join(", "),
            stats.skipped.len()
        )));
    }
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&stats)?)?;
    } else {
        write!(stdout, "{}", stats.to_text())?;
    }
    Ok(0)
}
