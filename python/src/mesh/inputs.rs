//! The render geometry a function is given (`walkmesh.generate`'s inputs, `Mesh.lint`'s
//! `model`): Meshes and paths, read as the command line reads render geometry. A child of
//! `mesh` (it casts to `Mesh`; `Mesh.lint` reads its model with it).

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use walkmesh_core::{NavMesh, ReadOptions};

use super::Mesh;
use crate::errors;
use crate::options::Options;

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
    let registry = crate::registry();
    if let Some(model) = py.detach(|| walkmesh_formats::read_render_geometry(registry, &path, diag))
    {
        return model.map_err(|error| errors::read_failure(py, &error, Some(&path)));
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
