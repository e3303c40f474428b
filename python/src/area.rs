//! `walkmesh.area`: KotOR areas (module archives, layouts, whole-area meshes, room-to-room
//! transitions) from the `walkmesh-kotor-area` crate, as `walkmesh area list|assemble|solve`
//! use it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use walkmesh_core::ReadOptions;
use walkmesh_kotor_area::lyt::PLACEHOLDER_ROOM;
use walkmesh_kotor_area::transitions::{apply, solve};
use walkmesh_kotor_area::{Archive, Lyt, RoomMesh, Tolerance, assemble, read_lyt, transitions};

use crate::errors;
use crate::mesh::Mesh;

fn read_all(py: Python<'_>, path: &Path) -> PyResult<Vec<u8>> {
    walkmesh_kotor_area::erf::read_file_or_member(path)
        .map_err(|message| errors::read_failure(py, message, Some(path)))
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

/// Rooms' WOKs: a folder (names matched case-insensitively) or an archive.
enum Rooms {
    Folder(HashMap<String, PathBuf>),
    Archive(Archive),
}

impl Rooms {
    fn open(py: Python<'_>, path: &Path) -> PyResult<Rooms> {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| {
                errors::read_failure(
                    py,
                    format!("cannot list {}: {e}", path.display()),
                    Some(path),
                )
            })?;
            let files = entries
                .flatten()
                .filter_map(|entry| {
                    let p = entry.path();
                    let name = p.file_name()?.to_str()?.to_ascii_lowercase();
                    Some((name, p))
                })
                .collect();
            return Ok(Rooms::Folder(files));
        }
        Ok(Rooms::Archive(archive(py, path)?))
    }

    fn get(&self, file_name: &str) -> Option<Vec<u8>> {
        match self {
            Rooms::Folder(files) => std::fs::read(files.get(&file_name.to_ascii_lowercase())?).ok(),
            Rooms::Archive(archive) => archive.extract(file_name).map(<[u8]>::to_vec),
        }
    }

    /// `explicit`, else the single .lyt of the folder or archive.
    fn layout(&self, py: Python<'_>, explicit: Option<&Path>) -> PyResult<Lyt> {
        let bytes = match explicit {
            Some(path) => read_all(py, path)?,
            None => {
                let found: Vec<Vec<u8>> = match self {
                    Rooms::Folder(files) => files
                        .iter()
                        .filter(|(n, _)| n.ends_with(".lyt"))
                        .filter_map(|(_, p)| std::fs::read(p).ok())
                        .collect(),
                    Rooms::Archive(archive) => archive
                        .of_type(3000)
                        .map(|m| archive.data(m).to_vec())
                        .collect(),
                };
                match <[Vec<u8>; 1]>::try_from(found) {
                    Ok([bytes]) => bytes,
                    Err(found) => {
                        return Err(errors::read_failure(
                            py,
                            format!(
                                "the rooms hold {} .lyt files; name the layout with lyt=",
                                found.len()
                            ),
                            None,
                        ));
                    }
                }
            }
        };
        read_lyt(&bytes)
            .map(|(lyt, _)| lyt)
            .map_err(|e| errors::read_error(py, &e))
    }

    /// Every layout room with a WOK, and the names of those without.
    fn load(&self, py: Python<'_>, lyt: &Lyt) -> PyResult<(Vec<RoomMesh>, Vec<String>)> {
        let mut rooms = Vec::new();
        let mut missing = Vec::new();
        for (index, room) in lyt.rooms.iter().enumerate() {
            if room.name == PLACEHOLDER_ROOM {
                continue;
            }
            let file = format!("{}.wok", room.name);
            match self.get(&file) {
                Some(bytes) => {
                    let mesh = walkmesh_kotor_area::kits::read_wok(&bytes).map_err(|e| {
                        errors::read_failure(py, format!("{file}: {e}"), Some(Path::new(&file)))
                    })?;
                    rooms.push(RoomMesh {
                        lyt_index: index,
                        name: room.name.clone(),
                        mesh,
                    });
                }
                None => missing.push(room.name.clone()),
            }
        }
        Ok((rooms, missing))
    }
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
/// layout, faces tagged with their room (face attribute "kotor:room"), transitions and LYT
/// door hooks kept. `rooms`: a folder of WOKs or a module archive; `lyt`: the layout file
/// (default: the single .lyt among the rooms).
#[pyfunction]
#[pyo3(signature = (rooms, lyt=None))]
fn assemble_area(py: Python<'_>, rooms: PathBuf, lyt: Option<PathBuf>) -> PyResult<Mesh> {
    let source = Rooms::open(py, &rooms)?;
    let layout = source.layout(py, lyt.as_deref())?;
    let (loaded, _) = source.load(py, &layout)?;
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
    let source = Rooms::open(py, &rooms)?;
    let layout = source.layout(py, lyt.as_deref())?;
    let (mut loaded, missing) = source.load(py, &layout)?;
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

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(list, module)?)?;
    let assemble = wrap_pyfunction!(assemble_area, module)?;
    module.add("assemble", assemble)?;
    module.add_function(wrap_pyfunction!(solve_transitions, module)?)?;
    module.add_function(wrap_pyfunction!(solve_mesh_transitions, module)?)?;
    Ok(())
}
