//! `walkmesh._walkmesh` over the textmesh registry: `import walkmesh` then reads, writes,
//! validates and converts `.tmesh` files as it does the built-in formats.

use pyo3::prelude::*;

/// The extension module: the walkmesh package's functions over the built-in formats and
/// textmesh.
#[pymodule(name = "_walkmesh")]
fn walkmesh_with_textmesh(m: &Bound<'_, PyModule>) -> PyResult<()> {
    _walkmesh::build_module(m, walkmesh_example_textmesh::registry())
}
