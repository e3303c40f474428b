//! `walkmesh.generate(...)`: a walkmesh from render geometry through the library that
//! `walkmesh generate` calls (`walkmesh-generate`), with the same presets and settings
//! (`walkmesh_generate::Overrides`) and the same reading of model files
//! (`walkmesh_formats::read_render_geometry`); the flow after reading is the command line's,
//! `walkmesh_pipeline::generate::generate`.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use walkmesh_core::{NavMesh, ReadOptions};
use walkmesh_generate::{Engine, Overrides, Params};

use crate::errors;
use crate::mesh::Mesh;
use crate::options::{self, Options};

/// The meshes `inputs` names: one Mesh or path, or a list of them.
pub(crate) fn input_meshes(
    py: Python<'_>,
    inputs: &Bound<'_, PyAny>,
    up: &Options,
    diag: &mut walkmesh_core::Diagnostics,
) -> PyResult<Vec<NavMesh>> {
    let items: Vec<Bound<'_, PyAny>> =
        if inputs.is_instance_of::<PyList>() || inputs.is_instance_of::<PyTuple>() {
            inputs.try_iter()?.collect::<PyResult<_>>()?
        } else {
            vec![inputs.clone()]
        };
    if items.is_empty() {
        return Err(PyValueError::new_err(
            "inputs: give at least one mesh or file",
        ));
    }
    items
        .iter()
        .map(|item| input_mesh(py, item, up, diag))
        .collect()
}

fn input_mesh(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    up: &Options,
    diag: &mut walkmesh_core::Diagnostics,
) -> PyResult<NavMesh> {
    if let Ok(mesh) = item.cast::<Mesh>() {
        return Ok(mesh.borrow().mesh.clone());
    }
    let path: PathBuf = item.extract().map_err(|_| {
        PyTypeError::new_err("inputs: each input is a walkmesh.Mesh or a path (str, os.PathLike)")
    })?;
    // A model's reading notes (`mdl.node_count`) join the generated mesh's warnings.
    if let Some(model) = py.detach(|| walkmesh_formats::read_render_geometry(&path, diag)) {
        return model.map_err(|error| errors::read_failure(py, error.to_string(), Some(&path)));
    }
    // Every `usemtl` name kept, as the command line asks: the generator reads surfaces from
    // render material names.
    let read_options = walkmesh_pipeline::generate::render_read_options(ReadOptions {
        up: up.up.unwrap_or_default(),
        ..ReadOptions::default()
    });
    let (bytes, path) = crate::load_bytes(py, crate::Source::File(path))?;
    Ok(crate::read_loaded(py, &bytes, path, None, read_options)?.mesh)
}

fn engine_of(name: Option<&str>) -> PyResult<Engine> {
    match name {
        None => Ok(Engine::Generic),
        Some(name) => Engine::parse(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "engine: {name:?} is not one of 'kotor', 'nwn2', 'prime', 'generic'"
            ))
        }),
    }
}

/// Generates a walkmesh from render geometry: `inputs` is a path (OBJ, glTF/GLB, a KotOR
/// binary model `.mdl` with its `.mdx`), a `walkmesh.Mesh` (Z up), or a list of them, put
/// together as one scene. `engine` picks the preset ('kotor', 'nwn2', 'prime'; default
/// 'generic'); the keywords override it as `walkmesh generate`'s flags do. Returns the
/// walkmesh as a `Mesh`, or `(Mesh, report)` with `with_report=True` (the report is
/// `walkmesh generate --json`'s `report`).
#[pyfunction]
#[pyo3(signature = (inputs, engine=None, *, agent_height=None, agent_radius=None, max_climb=None, max_slope=None, cell_size=None, cell_height=None, min_region_area=None, min_passage_width=None, seeds=None, keep_unreachable=false, default_material=None, up=None, max_memory=None, not_floor=None, with_report=false))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    engine: Option<&str>,
    agent_height: Option<f32>,
    agent_radius: Option<f32>,
    max_climb: Option<f32>,
    max_slope: Option<f32>,
    cell_size: Option<f32>,
    cell_height: Option<f32>,
    min_region_area: Option<f32>,
    min_passage_width: Option<f32>,
    seeds: Option<Vec<[f32; 3]>>,
    keep_unreachable: bool,
    default_material: Option<String>,
    up: Option<&Bound<'py, PyAny>>,
    max_memory: Option<u64>,
    not_floor: Option<Vec<String>>,
    with_report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let up_options = match up {
        Some(up) => {
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("up", up)?;
            options::parse(Some(&kwargs), &["up"])?
        }
        None => Options::default(),
    };
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
        keep_unreachable,
        default_material,
        max_memory_mib: max_memory,
        not_floor,
    };
    let params = Params::with_overrides(engine_of(engine)?, &overrides)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut read_notes = walkmesh_core::Diagnostics::new();
    let meshes = input_meshes(py, inputs, &up_options, &mut read_notes)?;
    let generated = py
        .detach(|| walkmesh_pipeline::generate::generate(meshes, params, None, &mut read_notes))
        .map_err(|e| PyValueError::new_err(crate::errors::python_wording(&e.to_string())))?;
    let report_json = serde_json::to_string(&generated.report)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // The models' reading notes, then the report's lossy steps.
    let mesh = Mesh {
        mesh: generated.mesh,
        source_format: None,
        path: None,
        read_options: ReadOptions::default(),
        warnings: read_notes.items,
    };
    let mesh = Bound::new(py, mesh)?.into_any();
    if !with_report {
        return Ok(mesh);
    }
    let report = crate::json_to_python(py, &report_json)?;
    Ok(PyTuple::new(py, [mesh, report])?.into_any())
}
