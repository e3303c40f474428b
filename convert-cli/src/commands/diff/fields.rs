//! `walkmesh diff A B --fields`: the stored-field diff (the logic is in walkmesh-research).

use std::io::Write;
use std::path::Path;

use walkmesh_core::Registry;
use walkmesh_research::diff::{Side, field_diff};

use crate::input::{ReadArgs, open};
use walkmesh_pipeline::failure::Failure;

/// Prints the fields that differ between `a` and `b`; exit code 0 when none do, 1 otherwise.
/// How `diff --fields` compares and prints.
#[derive(Clone, Copy, Debug)]
pub struct How {
    /// `--field-limit`.
    pub limit: usize,
    /// `--by-index`: records compared index by index, not paired by content.
    pub by_index: bool,
    pub json: bool,
}

pub fn diff(
    registry: &Registry,
    (a, b): (&Path, &Path),
    read: &ReadArgs,
    How {
        limit,
        by_index,
        json,
    }: How,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let (bytes_a, format_a) = open(registry, a, read)?;
    let (bytes_b, format_b) = open(registry, b, read)?;
    let side_a = Side {
        bytes: &bytes_a,
        file: a,
        dumper: dumper(format_a, a)?,
    };
    let side_b = Side {
        bytes: &bytes_b,
        file: b,
        dumper: dumper(format_b, b)?,
    };
    let report = if by_index {
        field_diff(side_a, side_b, limit)
    } else {
        walkmesh_research::align::aligned_diff(side_a, side_b, limit)
    }
    .map_err(Failure::from)?;
    if json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&report)?)?;
    } else {
        write!(stdout, "{}", report.to_text())?;
    }
    Ok(if report.is_empty() { 0 } else { 1 })
}

/// The dumper of `format`, or why the field diff cannot use it.
fn dumper<'f>(
    format: &'f dyn walkmesh_core::Format,
    file: &Path,
) -> Result<&'f dyn walkmesh_core::format::Dumper, Failure> {
    format.dumper().ok_or_else(|| {
        Failure::input(format!(
            "{}: the {} format has no field dump, so its stored fields cannot be compared",
            file.display(),
            format.descriptor().id
        ))
    })
}
