//! `walkmesh.area`: KotOR areas (layouts, module archives, transitions) from the
//! `walkmesh-kotor-area` crate.

use pyo3::prelude::*;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let _ = module;
    Ok(())
}
