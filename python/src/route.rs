//! `Mesh.route` and `Mesh.reach`: the queries of `walkmesh route` / `walkmesh reach` through
//! `walkmesh-route`, returned as the dicts their `--json` prints.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use walkmesh_core::{Diagnostics, NavMesh, passes};
use walkmesh_route::query::{self, Engine, Method, QueryError};

use crate::json_to_python;

/// The mesh a query runs on and the format it was read from (`Mesh`'s fields, passed apart
/// so that this module does not depend on `mesh`, which calls it).
pub struct Target<'a> {
    pub mesh: &'a NavMesh,
    pub source_format: Option<&'static str>,
}

fn engine_of(target: &Target<'_>) -> Engine {
    // An area assembled from rooms carries the room of every face.
    let area = target
        .mesh
        .face_attributes
        .contains_key(walkmesh_kotor_area::assemble::ROOM_COLUMN);
    let format = target
        .source_format
        .and_then(|id| crate::registry().by_id(id).ok());
    query::routing_engine(format, area)
}

fn method_of(method: Option<&str>) -> PyResult<Option<Method>> {
    method
        .map(|m| {
            Method::parse(m).ok_or_else(|| {
                PyValueError::new_err(format!("method must be 'engine' or 'surface', not {m:?}"))
            })
        })
        .transpose()
}

fn query_error(error: QueryError) -> PyErr {
    PyValueError::new_err(error.to_string().replace("--method", "method"))
}

fn modelled(mesh: &NavMesh) -> std::borrow::Cow<'_, NavMesh> {
    passes::as_modelled(mesh, &mut Diagnostics::new())
}

/// `Mesh.route(a, b, method=None)`.
pub fn route<'py>(
    py: Python<'py>,
    mesh: Target<'_>,
    (a, b): ([f64; 3], [f64; 3]),
    method: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let method = method_of(method)?;
    let engine = engine_of(&mesh);
    let report = py
        .detach(|| query::route(&modelled(mesh.mesh), engine, a, b, method))
        .map_err(query_error)?;
    let text = serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_to_python(py, &text)
}

/// `Mesh.reach(start=None, method=None)`.
pub fn reach<'py>(
    py: Python<'py>,
    mesh: Target<'_>,
    start: Option<[f64; 3]>,
    method: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let method = method_of(method)?;
    let engine = engine_of(&mesh);
    let (answer, _) = py
        .detach(|| query::reachability(&modelled(mesh.mesh), engine, start, method))
        .map_err(query_error)?;
    let text = serde_json::to_string(&answer).map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_to_python(py, &text)
}
