//! A whole KotOR area generated from its room models, written once for `walkmesh generate
//! MODELS --lyt AREA.lyt --out-dir OUT` and Python's `walkmesh.area.generate`: the folder or
//! module archive opened, its layout found, every layout room with a model generated in area
//! coordinates, facing doorways brought onto one line and the transitions solved
//! (`walkmesh_generate::area`), and the room WOKs written as one set: each staged and read
//! back by the validator before any is renamed into OUT ([`crate::write_set`]), so a refused
//! room leaves OUT as it was. It prints nothing; what it did is [`GeneratedArea::report`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use walkmesh_core::{Diagnostics, Format, NavMesh, ReadOptions};
use walkmesh_generate::area::{
    Area, AreaError, AreaReport, RoomResult, generate_rooms, solve_transitions,
};
use walkmesh_generate::{ModelReadError, Params};
use walkmesh_kotor_area::transitions::Solution;
use walkmesh_kotor_area::{RoomSource, RoomsError};

use crate::Failure;
use crate::policy::OptionNames;

/// Reads a room model (`.mdl` bytes, `.mdx` bytes, the label for messages) as render
/// geometry, its reading notes to the diagnostics. The MDL reader is a format crate's, which
/// sits above this crate, so the caller passes it in.
pub type ModelGeometry<'a> =
    &'a (dyn Fn(&[u8], &[u8], &str, &mut Diagnostics) -> Result<NavMesh, ModelReadError> + Sync);

/// One area to generate.
#[derive(Clone, Copy)]
#[allow(missing_debug_implementations)] // `room_format` is a trait object without `Debug`.
pub struct AreaJob<'a> {
    /// The folder or module archive holding each room's `ROOM.mdl` + `ROOM.mdx`.
    pub models: &'a Path,
    /// The layout, when not the single `.lyt` of `models`.
    pub lyt: Option<&'a Path>,
    /// How the caller names the layout option in messages (`--lyt`, `lyt=`).
    pub lyt_option: &'a str,
    pub out_dir: &'a Path,
    pub params: &'a Params,
    /// The format every room is written in (the registry's KotOR room walkmesh).
    pub room_format: &'a dyn Format,
    /// The options each written room is read back with.
    pub check: &'a ReadOptions,
    /// How the caller names its options in messages about the written files.
    pub names: OptionNames,
}

/// What was generated and written.
#[derive(Debug)]
pub struct GeneratedArea {
    pub layout_file: PathBuf,
    pub results: Vec<RoomResult>,
    /// Layout rooms without a model (nothing written for them).
    pub missing: Vec<String>,
    pub solution: Solution,
    /// The models' reading notes (`mdl.node_count`).
    pub read_notes: Diagnostics,
}

impl GeneratedArea {
    /// The report `generate --out-dir --json` prints and `walkmesh.area.generate` returns.
    pub fn report(&self) -> AreaReport<'_> {
        AreaReport::new(
            &self.layout_file,
            &self.results,
            &self.missing,
            &self.read_notes,
            &self.solution,
        )
    }
}

/// Why an area was not generated; nothing was written to OUT.
#[derive(Debug)]
pub enum AreaFlowError {
    /// The folder, archive or layout could not be read.
    Rooms(RoomsError),
    /// A room's model did not read, or a room or the transitions were refused.
    Area(AreaError),
    /// No layout room has a model in the input.
    NoModels { message: String, models: PathBuf },
    /// OUT could not be made, or a room's WOK did not pass its check.
    Write(Failure),
}

impl std::fmt::Display for AreaFlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AreaFlowError::Rooms(error) => write!(f, "{error}"),
            AreaFlowError::Area(error) => write!(f, "{error}"),
            AreaFlowError::NoModels { message, .. } => f.write_str(message),
            AreaFlowError::Write(failure) => f.write_str(&failure.message),
        }
    }
}

impl AreaFlowError {
    /// The command line's failure: reading and generation refusals are input failures (exit
    /// 2), a write keeps its own code.
    pub fn into_failure(self) -> Failure {
        match self {
            AreaFlowError::Write(failure) => failure,
            AreaFlowError::NoModels { message, .. } => {
                Failure::input(format!("generate: {message}"))
            }
            AreaFlowError::Rooms(error) => Failure::from(error),
            AreaFlowError::Area(error) => Failure::from(error),
        }
    }
}

/// Generates every room of `job`'s area and writes the room WOKs as one set. `note_read`
/// records each file read (so that no room WOK replaces one: `walkmesh_core::files::Scope`).
pub fn generate_area(
    registry: &walkmesh_core::Registry,
    job: &AreaJob<'_>,
    read_model: ModelGeometry<'_>,
    note_read: walkmesh_kotor_area::rooms::OnRead,
) -> Result<GeneratedArea, AreaFlowError> {
    let source = RoomSource::open(job.models, note_read).map_err(AreaFlowError::Rooms)?;
    let (lyt, layout_file) = source
        .layout(job.lyt, job.lyt_option, note_read)
        .map_err(AreaFlowError::Rooms)?;
    let read_notes = Mutex::new(Diagnostics::new());
    let read_noted = |mdl: &[u8], mdx: &[u8], label: &str| {
        let mut notes = Diagnostics::new();
        let geometry = read_model(mdl, mdx, label, &mut notes);
        if let Ok(mut all) = read_notes.lock() {
            all.extend(notes);
        }
        geometry
    };
    let area = Area {
        source: &source,
        lyt: &lyt,
        lyt_file: &layout_file,
    };
    let from_hooks = job.params.seeds.is_empty();
    let (generated, missing) = generate_rooms(
        registry,
        area,
        job.out_dir,
        job.params,
        from_hooks,
        note_read,
        &read_noted,
    )
    .map_err(AreaFlowError::Area)?;
    if generated.is_empty() {
        return Err(AreaFlowError::NoModels {
            message: format!(
                "none of the {} layout rooms of {} has a model (ROOM.mdl + ROOM.mdx) in {}",
                lyt.rooms.len(),
                layout_file.display(),
                job.models.display()
            ),
            models: job.models.to_path_buf(),
        });
    }
    let (files, solution, results) =
        solve_transitions(generated, &lyt).map_err(AreaFlowError::Area)?;
    write_rooms(job, files)?;
    Ok(GeneratedArea {
        layout_file,
        results,
        missing,
        solution,
        read_notes: read_notes.into_inner().unwrap_or_default(),
    })
}

/// Makes OUT and writes the room WOKs as one checked set.
fn write_rooms(job: &AreaJob<'_>, files: Vec<(PathBuf, Vec<u8>)>) -> Result<(), AreaFlowError> {
    std::fs::create_dir_all(job.out_dir).map_err(|e| {
        // The output could not be written (exit 3), as `convert --out-dir` and `lint --fix` say.
        AreaFlowError::Write(Failure::output(format!(
            "cannot create {}: {e}",
            job.out_dir.display()
        )))
    })?;
    crate::write_set::write_checked_set(job.room_format, files, job.check, job.names)
        .map_err(AreaFlowError::Write)
}
