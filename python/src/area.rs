//! `walkmesh.area`: KotOR areas (module archives, layouts, whole-area meshes, room-to-room
//! transitions) from the `walkmesh-kotor-area` crate, as `walkmesh area list|assemble|solve`
//! use it.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use walkmesh_core::ReadOptions;
use walkmesh_kotor_area::rooms::ignore_reads;
use walkmesh_kotor_area::transitions::{apply, solve};
use walkmesh_kotor_area::{Archive, Lyt, RoomMesh, RoomSource, Tolerance, assemble, transitions};

use crate::errors;
use crate::mesh::Mesh;

fn read_all(py: Python<'_>, path: &Path) -> PyResult<Vec<u8>> {
    walkmesh_kotor_area::erf::read_file_or_member(path)
        .map_err(|error| errors::read_failure(py, &error, Some(path)))
}

fn archive(py: Python<'_>, path: &Path) -> PyResult<Archive> {
    let bytes = read_all(py, path)?;
    Archive::parse(&bytes).map_err(|e| errors::read_error(py, &e.in_file(path)))
}

/// The member file names of a module archive (.mod, .erf, .rim, .sav, .hak).
#[pyfunction]
fn list(py: Python<'_>, archive_path: PathBuf) -> PyResult<Vec<String>> {
    let archive = archive(py, &archive_path)?;
    Ok(archive.members.iter().map(|m| m.file_name()).collect())
}

/// The layout (`lyt`, else the single .lyt of the rooms) and every layout room with a WOK,
/// with the names of the rooms without one (`walkmesh_kotor_area::rooms`, as the command line
/// loads them).
fn load_area(
    py: Python<'_>,
    rooms: &Path,
    lyt: Option<&Path>,
) -> PyResult<(Lyt, Vec<RoomMesh>, Vec<String>)> {
    let loaded = py.detach(|| {
        let source = RoomSource::open(rooms, ignore_reads)?;
        let (layout, layout_file) = source.layout(lyt, "lyt=", ignore_reads)?;
        let (loaded, _, missing) = source.load_rooms(&layout, &layout_file, ignore_reads)?;
        Ok((layout, loaded, missing))
    });
    loaded.map_err(|error| errors::rooms_error(py, error))
}

fn area_mesh(mesh: walkmesh_core::NavMesh, format: Option<&'static str>) -> Mesh {
    Mesh {
        mesh,
        source_format: format,
        path: None,
        read_options: ReadOptions::default(),
        warnings: Vec::new(),
    }
}

/// The whole area as one mesh (`walkmesh area assemble`): every room's WOK placed by the
/// layout, faces tagged with their room (face attribute "area:room"), transitions and LYT
/// door hooks kept. `rooms`: a folder of WOKs or a module archive; `lyt`: the layout file
/// (default: the single .lyt among the rooms).
#[pyfunction]
#[pyo3(signature = (rooms, lyt=None))]
fn assemble_area(py: Python<'_>, rooms: PathBuf, lyt: Option<PathBuf>) -> PyResult<Mesh> {
    let (layout, loaded, _) = load_area(py, &rooms, lyt.as_deref())?;
    let mesh = py.detach(|| assemble::assemble(&layout, &loaded));
    Ok(area_mesh(mesh, Some("bwm")))
}

/// Room-to-room transitions solved from geometry (`walkmesh area solve`). Returns a dict:
/// `rooms` (room name → Mesh with the solved transitions), `rooms_without_walkmesh`,
/// `perimeter_edges`, `coinciding_pairs`, `edges_to_change` (solved ≠ stored) and
/// `findings` (stale, one-sided, conflicting, partly meeting edges; unreachable rooms).
#[pyfunction]
#[pyo3(signature = (rooms, lyt=None, tolerance=0.05, vertical_tolerance=0.1))]
fn solve_transitions<'py>(
    py: Python<'py>,
    rooms: PathBuf,
    lyt: Option<PathBuf>,
    tolerance: f32,
    vertical_tolerance: f32,
) -> PyResult<Bound<'py, PyDict>> {
    if !(tolerance.is_finite()
        && tolerance > 0.0
        && vertical_tolerance.is_finite()
        && vertical_tolerance > 0.0)
    {
        return Err(PyValueError::new_err("tolerances must be finite and > 0"));
    }
    let (layout, mut loaded, missing) = load_area(py, &rooms, lyt.as_deref())?;
    let tolerance = Tolerance {
        horizontal: tolerance,
        vertical: vertical_tolerance,
    };
    let solution = py.detach(|| transitions::solve(&loaded, layout.rooms.len(), tolerance));
    let changed = solution.changed();
    transitions::apply(&mut loaded, &solution);
    let result = PyDict::new(py);
    let solved = PyDict::new(py);
    for room in loaded {
        solved.set_item(&room.name, area_mesh(room.mesh, Some("bwm")))?;
    }
    result.set_item("rooms", solved)?;
    result.set_item("rooms_without_walkmesh", PyList::new(py, missing)?)?;
    result.set_item("perimeter_edges", solution.edges.len())?;
    result.set_item("coinciding_pairs", solution.pairs.len())?;
    result.set_item("edges_to_change", changed)?;
    result.set_item("findings", errors::findings_list(py, &solution.findings)?)?;
    Ok(result)
}

/// Solves room-to-room transitions from geometry for meshes in memory (the Blender add-on
/// uses it), as `walkmesh area solve` does for files. `rooms`: a
/// list of (lyt_index, name, Mesh) in area coordinates; `room_count`: the number of rooms in
/// the layout (default: one past the largest index). Returns a dict: "transitions" (per room,
/// the solved per-face-edge values as `Mesh.transitions` shapes them, -1 none), "changed" (edges
/// whose value changed) and "findings" (finding dicts).
#[pyfunction]
#[pyo3(signature = (rooms, room_count=None, tolerance=None, vertical_tolerance=None))]
fn solve_mesh_transitions<'py>(
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

/// A placement (room, track, obstacle) as a dict: name, position (x, y, z).
fn placement<'py>(
    py: Python<'py>,
    item: &walkmesh_kotor_area::Placement,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("name", &item.name)?;
    dict.set_item("position", item.position)?;
    Ok(dict)
}

/// Reads a KotOR layout (LYT) with the library's reader (`walkmesh area check` reads it so):
/// `source` is a path (str or os.PathLike; `area.mod:area.lyt` names an archive member) or
/// bytes. Returns a dict: "rooms", "tracks", "obstacles" (lists of {"name", "position"} in
/// file order: a room's index is what transitions name), "door_hooks" ({"room", "door",
/// "position", "orientation" (x, y, z, w)}) and "findings" (what reading noticed).
#[pyfunction]
pub fn read_lyt<'py>(py: Python<'py>, source: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let (bytes, path) = crate::load_bytes(py, crate::source_of(source)?)?;
    let (layout, mut findings) = walkmesh_kotor_area::read_lyt(&bytes).map_err(|e| {
        let e = match &path {
            Some(path) => e.in_file(path),
            None => e,
        };
        errors::read_error(py, &e)
    })?;
    if let Some(path) = &path {
        for finding in &mut findings {
            finding.location.file.get_or_insert_with(|| path.clone());
        }
    }
    let dict = PyDict::new(py);
    for (key, items) in [
        ("rooms", &layout.rooms),
        ("tracks", &layout.tracks),
        ("obstacles", &layout.obstacles),
    ] {
        let list = PyList::empty(py);
        for item in items {
            list.append(placement(py, item)?)?;
        }
        dict.set_item(key, list)?;
    }
    let hooks = PyList::empty(py);
    for hook in &layout.door_hooks {
        let item = PyDict::new(py);
        item.set_item("room", &hook.room)?;
        item.set_item("door", &hook.door)?;
        item.set_item("position", hook.position)?;
        item.set_item("orientation", hook.orientation)?;
        hooks.append(item)?;
    }
    dict.set_item("door_hooks", hooks)?;
    dict.set_item("findings", errors::findings_list(py, &findings)?)?;
    Ok(dict)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(list, module)?)?;
    module.add_function(wrap_pyfunction!(read_lyt, module)?)?;
    let assemble = wrap_pyfunction!(assemble_area, module)?;
    module.add("assemble", assemble)?;
    module.add_function(wrap_pyfunction!(solve_transitions, module)?)?;
    module.add_function(wrap_pyfunction!(solve_mesh_transitions, module)?)?;
    module.add_function(wrap_pyfunction!(crate::area_generate::generate, module)?)?;
    module.add_function(wrap_pyfunction!(
        crate::area_generate_meshes::generate_meshes,
        module
    )?)?;
    Ok(())
}
