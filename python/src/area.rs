//! `walkmesh.area`: KotOR areas (layouts, module archives, transitions) from the
//! `walkmesh-kotor-area` crate.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use walkmesh_kotor_area::transitions::{RoomMesh, Tolerance, apply, solve};

use crate::errors;
use crate::mesh::Mesh;

/// Solves room-to-room transitions from geometry, as `walkmesh area solve` does. `rooms`: a
/// list of (lyt_index, name, Mesh) in area coordinates; `room_count`: the number of rooms in
/// the layout (default: one past the largest index). Returns a dict: "transitions" (per room,
/// the solved per-face-edge values as `Mesh.transitions` shapes them, -1 none), "changed" (edges
/// whose value changed) and "findings" (finding dicts).
#[pyfunction]
#[pyo3(signature = (rooms, room_count=None, tolerance=None, vertical_tolerance=None))]
fn solve_transitions<'py>(
    py: Python<'py>,
    rooms: &Bound<'py, PyAny>,
    room_count: Option<usize>,
    tolerance: Option<f32>,
    vertical_tolerance: Option<f32>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut list = Vec::new();
    for item in rooms.try_iter()? {
        let (lyt_index, name, mesh): (usize, String, PyRef<'_, Mesh>) = item?.extract()?;
        list.push(RoomMesh {
            lyt_index,
            name,
            mesh: mesh.mesh.clone(),
        });
    }
    let count =
        room_count.unwrap_or_else(|| list.iter().map(|r| r.lyt_index + 1).max().unwrap_or(0));
    if let Some(bad) = list.iter().find(|r| r.lyt_index >= count) {
        return Err(PyValueError::new_err(format!(
            "room {:?} has LYT index {} but the layout has {count} rooms",
            bad.name, bad.lyt_index
        )));
    }
    let defaults = walkmesh_kotor_area::DEFAULT_TOLERANCE;
    let tolerance = Tolerance {
        horizontal: tolerance.unwrap_or(defaults.horizontal),
        vertical: vertical_tolerance.unwrap_or(defaults.vertical),
    };
    let solution = py.detach(|| solve(&list, count, tolerance));
    let changed = apply(&mut list, &solution);
    let transitions = PyList::empty(py);
    for room in list {
        let wrapped = Mesh {
            mesh: room.mesh,
            source_format: None,
            path: None,
            read_options: Default::default(),
            warnings: Vec::new(),
        };
        transitions.append(Bound::new(py, wrapped)?.getattr("transitions")?)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("transitions", transitions)?;
    dict.set_item("changed", changed)?;
    dict.set_item("findings", errors::findings_list(py, &solution.findings)?)?;
    Ok(dict)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve_transitions, module)?)?;
    Ok(())
}
