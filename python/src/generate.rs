//! `walkmesh.generate(...)`: a walkmesh from render geometry through the library that
//! `walkmesh generate` calls (`walkmesh-generate`), with the same presets and settings
//! (`walkmesh_generate::Overrides`) and the same reading of model files
//! (`walkmesh_formats::read_render_geometry`); the flow after reading is the command line's,
//! `walkmesh_pipeline::generate::generate`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use walkmesh_core::ReadOptions;
use walkmesh_generate::{Engine, ObjectKind, Overrides, Params};

use crate::mesh::Mesh;
use crate::options::{self, Options};

/// The engine asked for; without one, KotOR for a placeable or door (PWK and DWK are
/// KotOR's), else generic.
fn engine_of(name: Option<&str>, object: Option<ObjectKind>) -> PyResult<Engine> {
    match name {
        None if object.is_some() => Ok(Engine::Kotor),
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
/// 'generic'; 'kotor' for a placeable or door); `kind` is 'area' (default), 'placeable' (the
/// object's PWK footprint, use points) or 'door' (its closed DWK slab), as `walkmesh generate
/// --kind`; the keywords override the preset as `walkmesh generate`'s flags do. Returns the
/// walkmesh as a `Mesh`, or `(Mesh, report)` with `with_report=True` (the report is
/// `walkmesh generate --json`'s `report`).
#[pyfunction]
#[pyo3(signature = (inputs, engine=None, *, kind=None, agent_height=None, agent_radius=None, max_climb=None, max_slope=None, cell_size=None, cell_height=None, min_region_area=None, min_passage_width=None, seeds=None, keep_unreachable=false, default_material=None, up=None, max_memory=None, not_floor=None, with_report=false))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    engine: Option<&str>,
    kind: Option<&str>,
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
    let object = walkmesh_pipeline::generate::object_kind(kind, None)
        .map_err(|e| PyValueError::new_err(format!("kind: {}", e.message)))?;
    let engine = engine_of(engine, object)?;
    let params = match object {
        Some(kind) => Params::object_with_overrides(engine, kind, &overrides),
        None => Params::with_overrides(engine, &overrides),
    }
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut read_notes = walkmesh_core::Diagnostics::new();
    let meshes = crate::mesh::inputs::input_meshes(py, inputs, &up_options, &mut read_notes)?;
    let generated = py
        .detach(|| match object {
            Some(kind) => {
                walkmesh_pipeline::generate::generate_object(meshes, params, kind, &mut read_notes)
            }
            None => walkmesh_pipeline::generate::generate(meshes, params, None, &mut read_notes),
        })
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
