//! `walkmesh.area.generate(models, out_dir, ...)`: every room of a KotOR area generated from
//! its model, transitions solved across rooms and the WOKs written, through the library flow
//! `walkmesh generate MODELS --lyt AREA.lyt --out-dir OUT` runs (`walkmesh_generate::area`:
//! generate the rooms, bring facing doorways onto one line, share the seam points, solve the
//! transitions; `walkmesh_pipeline::write_set`: every room staged and read back by the
//! validator before any is renamed into place).

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use walkmesh_core::{Diagnostics, Engine, ReadOptions};
use walkmesh_generate::area::AreaError;
use walkmesh_generate::{Overrides, Params};
use walkmesh_pipeline::area_generate::{AreaFlowError, AreaJob, generate_area};

use crate::errors::{self, Fields, Kind};

/// A refusal of the area flow as the package's exception: a room's model or the layout that
/// cannot be read is a `ReadError`, the rest (no floor, a room the generator refuses, a
/// transition that cannot be written) a `WriteError`.
pub(crate) fn area_error(py: Python<'_>, error: AreaError) -> PyErr {
    let kind = match error {
        AreaError::Model(_) | AreaError::Repeated(_) | AreaError::Far(_) => Kind::Read,
        AreaError::UnsafeName(_) => Kind::Read,
        _ => Kind::Write,
    };
    let fields = Fields::of_kind(walkmesh_core::Kinded::kind(&error));
    errors::raise(py, kind, error.to_string(), fields)
}

pub(crate) fn failure(py: Python<'_>, failure: walkmesh_pipeline::Failure) -> PyErr {
    let message = failure.message.clone();
    errors::raise(py, Kind::Write, message, Fields::of_failure(failure))
}

/// Generates every room of a KotOR area: `models` is a folder or module archive holding each
/// layout room's `ROOM.mdl` + `ROOM.mdx` (and the layout, unless `lyt` names it); one
/// `ROOM.wok` per room is written to `out_dir` in area coordinates, with the transitions to
/// the rooms it meets. The agent keywords override the KotOR preset as `walkmesh generate`'s
/// flags do; without `seeds` (area coordinates) each room starts from its layout door hooks.
/// Returns `walkmesh generate --out-dir --json`'s report: `layout`, `rooms` (per room: `file`,
/// `faces`, `walkable_area`, `leads_to`, `doorway` moves, `seam_points`, the generation
/// `report`), `rooms_without_model` and the solver's `findings`.
#[pyfunction]
#[pyo3(signature = (models, out_dir, *, lyt=None, seeds=None, agent_height=None, agent_radius=None, max_climb=None, max_slope=None, cell_size=None, cell_height=None, min_region_area=None, min_passage_width=None, not_floor=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    models: PathBuf,
    out_dir: PathBuf,
    lyt: Option<PathBuf>,
    seeds: Option<Vec<[f32; 3]>>,
    agent_height: Option<f32>,
    agent_radius: Option<f32>,
    max_climb: Option<f32>,
    max_slope: Option<f32>,
    cell_size: Option<f32>,
    cell_height: Option<f32>,
    min_region_area: Option<f32>,
    min_passage_width: Option<f32>,
    not_floor: Option<Vec<String>>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let overrides = Overrides {
        agent_height,
        agent_radius,
        max_climb,
        max_slope,
        cell_size,
        cell_height,
        min_region_area,
        min_passage_width,
        seeds: seeds.unwrap_or_default(),
        keep_unreachable: false,
        default_material: None,
        max_memory_mib: max_memory,
        not_floor,
    };
    let params = Params::with_overrides(Engine::Kotor, &overrides)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if out_dir.exists() && !out_dir.is_dir() {
        return Err(PyValueError::new_err(format!(
            "out_dir: {} is not a folder",
            out_dir.display()
        )));
    }
    // One command, as `walkmesh generate --out-dir`: every file read is recorded, and a room
    // WOK that would replace one of them is refused.
    let json =
        walkmesh_core::files::Scope::new().run(|| run(py, &models, &out_dir, lyt, &params))?;
    crate::json_to_python(py, &json)
}

/// The flow (the library's, as the command line's); the report as JSON text.
fn run(
    py: Python<'_>,
    models: &std::path::Path,
    out_dir: &std::path::Path,
    lyt: Option<PathBuf>,
    params: &Params,
) -> PyResult<String> {
    let registry = crate::registry();
    let room_format = registry.room_walkmesh(Engine::Kotor).ok_or_else(|| {
        errors::raise(
            py,
            Kind::Write,
            "this build has no format for KotOR rooms (BWM)".into(),
            Fields::default(),
        )
    })?;
    let check = walkmesh_pipeline::check_options(&ReadOptions::default());
    let job = AreaJob {
        models,
        lyt: lyt.as_deref(),
        lyt_option: "lyt=",
        out_dir,
        params,
        room_format,
        check: &check,
        names: crate::PYTHON_NAMES,
    };
    let read_model = |mdl: &[u8], mdx: &[u8], name: &str, notes: &mut Diagnostics| {
        walkmesh_formats::render_geometry_of_model(registry, mdl, mdx, name, notes)
            .map_err(|e| Box::new(e) as walkmesh_generate::ModelReadError)
    };
    let area = py
        .detach(|| generate_area(registry, &job, &read_model, walkmesh_core::files::note_read))
        .map_err(|e| flow_error(py, e))?;
    serde_json::to_string(&area.report()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The flow's refusal as the package's exception.
fn flow_error(py: Python<'_>, error: AreaFlowError) -> PyErr {
    match error {
        AreaFlowError::Rooms(error) => errors::rooms_error(py, error),
        AreaFlowError::Area(error) => area_error(py, error),
        AreaFlowError::NoModels { message, models } => errors::read_failure_of_kind(
            py,
            walkmesh_core::ErrorKind::Invalid,
            message,
            Some(&models),
        ),
        AreaFlowError::Write(error) => failure(py, error),
    }
}
