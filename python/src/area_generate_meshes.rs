//! `walkmesh.area.generate_meshes(rooms, ...)`: every room of a KotOR area generated from
//! render geometry in memory (the Blender add-on's Generate Area), through the flow
//! `walkmesh.area.generate` and `walkmesh generate --out-dir` run
//! (`walkmesh_generate::area::generate_room_models`, then `solve_transitions`; the rooms
//! written by `walkmesh_pipeline::write_set`). Only where the rooms come from differs: meshes
//! instead of `ROOM.mdl` files, placed by a layout file or by positions given with them.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use walkmesh_core::{Engine, NavMesh, ReadOptions};
use walkmesh_generate::area::{AreaReport, RoomModel, generate_room_models, solve_transitions};
use walkmesh_generate::{Overrides, Params};
use walkmesh_kotor_area::{Lyt, Placement};
use walkmesh_pipeline::write_set::{AreaFiles, write_area_files};

use crate::area_generate::{area_error, failure};
use crate::errors::{self, Fields, Kind};
use crate::mesh::Mesh;

/// A room as given: its layout name, its render geometry in area coordinates, and where the
/// layout places it (`None`: as the layout file says, or the origin).
struct GivenRoom {
    name: String,
    geometry: NavMesh,
    position: Option<[f32; 3]>,
}

fn given_rooms(rooms: &Bound<'_, PyAny>) -> PyResult<Vec<GivenRoom>> {
    let shape = || {
        PyValueError::new_err(
            "rooms: each room is (name, meshes) or (name, meshes, (x, y, z)), meshes a Mesh or a \
             list of them",
        )
    };
    let mut given = Vec::new();
    for item in rooms.try_iter()? {
        let item = item?;
        let (name, meshes, position): (String, Bound<'_, PyAny>, Option<[f32; 3]>) =
            match item.extract::<(String, Bound<'_, PyAny>)>() {
                Ok((name, meshes)) => (name, meshes, None),
                Err(_) => item.extract().map_err(|_| shape())?,
            };
        given.push(GivenRoom {
            name,
            geometry: room_geometry(&meshes).ok_or_else(shape)?,
            position,
        });
    }
    if given.is_empty() {
        return Err(PyValueError::new_err("rooms: give at least one room"));
    }
    Ok(given)
}

/// A room's meshes as one scene, put together as `walkmesh.generate` puts its inputs.
fn room_geometry(meshes: &Bound<'_, PyAny>) -> Option<NavMesh> {
    if let Ok(mesh) = meshes.cast::<Mesh>() {
        return Some(mesh.borrow().mesh.clone());
    }
    let list: Vec<PyRef<'_, Mesh>> = meshes.extract().ok()?;
    let parts: Vec<NavMesh> = list.iter().map(|m| m.mesh.clone()).collect();
    (!parts.is_empty()).then(|| walkmesh_generate::combine(&parts))
}

/// The layout: `lyt` as read (a position given with a room is refused: the file places it),
/// else one made of the rooms in the order given, each at its position.
fn layout_of(
    py: Python<'_>,
    rooms: &[GivenRoom],
    lyt: Option<&Path>,
) -> PyResult<(Lyt, Option<PathBuf>)> {
    if let Some(path) = lyt {
        if let Some(room) = rooms.iter().find(|r| r.position.is_some()) {
            return Err(PyValueError::new_err(format!(
                "rooms: {:?} has a position, but the layout {} places the rooms",
                room.name,
                path.display()
            )));
        }
        let (layout, _) =
            walkmesh_kotor_area::rooms::load_lyt(path, walkmesh_core::files::note_read)
                .map_err(|e| errors::rooms_error(py, e))?;
        return Ok((layout, Some(path.to_path_buf())));
    }
    let mut layout = Lyt::default();
    layout.rooms = rooms
        .iter()
        .map(|room| Placement {
            name: room.name.clone(),
            position: room.position.unwrap_or_default(),
            line: None,
        })
        .collect();
    Ok((layout, None))
}

/// Room `placement`'s geometry in room coordinates (the flow places what it generates, as it
/// does a room model), matched by name ignoring ASCII case as the layout's rooms are.
fn room_model(rooms: &[GivenRoom], placement: &Placement) -> Option<RoomModel> {
    let room = rooms
        .iter()
        .find(|r| r.name.eq_ignore_ascii_case(&placement.name))?;
    let mut geometry = room.geometry.clone();
    let p = placement.position;
    for v in &mut geometry.vertices {
        *v = [v[0] - p[0], v[1] - p[1], v[2] - p[2]];
    }
    Some(RoomModel {
        geometry,
        label: room.name.clone(),
    })
}

/// Generates every room of a KotOR area from render geometry in memory, as
/// `walkmesh.area.generate` does from room models: `rooms` is a list of `(name, meshes)` or
/// `(name, meshes, (x, y, z))`, `meshes` a Mesh or a list of them (put together as
/// `walkmesh.generate` puts its inputs), each room's geometry in area coordinates (Z up;
/// material names pick the surface, as in `walkmesh.generate`). `lyt` (a path) places the rooms and gives
/// their door hooks; without it the layout is the rooms in the order given, each at its
/// position (default the origin). Facing doorways are brought onto one line and transitions
/// solved across rooms. With `out_dir`, every room's `ROOM.wok` is staged and read back by
/// the validator before any is written (a file this call read, the layout, is never
/// replaced), and
/// a layout made from the positions is written as `LYT_NAME.lyt` (default `area`). Returns
/// `walkmesh.area.generate`'s report; each room also carries `mesh` (its WOK with the
/// transitions, as a `Mesh`), and `lyt` is the layout's text.
#[pyfunction]
#[pyo3(signature = (rooms, *, lyt=None, out_dir=None, lyt_name=None, seeds=None, agent_height=None, agent_radius=None, max_climb=None, max_slope=None, cell_size=None, cell_height=None, min_region_area=None, min_passage_width=None, not_floor=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn generate_meshes<'py>(
    py: Python<'py>,
    rooms: &Bound<'py, PyAny>,
    lyt: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    lyt_name: Option<String>,
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
    if let Some(dir) = &out_dir
        && dir.exists()
        && !dir.is_dir()
    {
        return Err(PyValueError::new_err(format!(
            "out_dir: {} is not a folder",
            dir.display()
        )));
    }
    let given = given_rooms(rooms)?;
    let settings = Settings {
        lyt,
        out_dir,
        lyt_name: lyt_name.unwrap_or_else(|| String::from("area")),
        params,
    };
    // One command: every file read is recorded, and an output replacing one is refused.
    walkmesh_core::files::Scope::new().run(|| run(py, &given, &settings))
}

struct Settings {
    lyt: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    lyt_name: String,
    params: Params,
}

fn run<'py>(
    py: Python<'py>,
    given: &[GivenRoom],
    settings: &Settings,
) -> PyResult<Bound<'py, PyAny>> {
    let registry = crate::registry();
    let format = registry.room_walkmesh(Engine::Kotor).ok_or_else(|| {
        errors::raise(
            py,
            Kind::Write,
            "this build has no format for KotOR rooms (BWM)".into(),
            Fields::default(),
        )
    })?;
    let (layout, layout_file) = layout_of(py, given, settings.lyt.as_deref())?;
    let out_dir = settings.out_dir.clone().unwrap_or_default();
    // A layout made here is named by where it would be written.
    let layout_label = layout_file
        .clone()
        .unwrap_or_else(|| out_dir.join(format!("{}.lyt", settings.lyt_name)));
    let unknown: Vec<&str> = given
        .iter()
        .filter(|r| {
            !layout
                .rooms
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(&r.name))
        })
        .map(|r| r.name.as_str())
        .collect();
    if !unknown.is_empty() {
        return Err(PyValueError::new_err(format!(
            "rooms: the layout {} has no room {}",
            layout_label.display(),
            unknown.join(", ")
        )));
    }
    let params = &settings.params;
    let from_hooks = params.seeds.is_empty();
    let models = |_: usize, placement: &Placement| room_model(given, placement).map(Ok);
    let generated = py.detach(|| {
        generate_room_models(
            registry,
            &layout,
            &layout_label,
            &out_dir,
            params,
            from_hooks,
            &models,
        )
        .and_then(|(rooms, missing)| Ok((solve_transitions(rooms, &layout)?, missing)))
    });
    let ((files, solution, results), missing) = generated.map_err(|e| area_error(py, e))?;
    let layout_text = walkmesh_kotor_area::write_lyt(&layout);
    let room_meshes = files
        .iter()
        .map(|(_, bytes)| {
            crate::read_loaded(
                py,
                bytes,
                None,
                Some(format.descriptor().id),
                ReadOptions::default(),
            )
        })
        .collect::<PyResult<Vec<Mesh>>>()?;
    if let Some(dir) = &settings.out_dir {
        let made_layout = layout_file
            .is_none()
            .then(|| (layout_label.clone(), layout_text.clone()));
        write_area(py, format, dir, files, made_layout)?;
    }
    let notes = walkmesh_core::Diagnostics::new();
    let report = AreaReport::new(&layout_label, &results, &missing, &notes, &solution);
    let json = serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let report = crate::json_to_python(py, &json)?;
    let room_list = report.get_item("rooms")?;
    for (entry, mesh) in room_list.cast::<PyList>()?.iter().zip(room_meshes) {
        entry
            .cast::<PyDict>()?
            .set_item("mesh", Bound::new(py, mesh)?)?;
    }
    report.set_item("lyt", String::from_utf8_lossy(&layout_text).into_owned())?;
    Ok(report)
}

/// Writes the rooms as `walkmesh.area.generate` does (every one staged and checked before any
/// is renamed), and a layout made from the rooms' positions beside them, read back and kept
/// only when every room is written (`walkmesh_pipeline::write_set::write_area_files`).
fn write_area(
    py: Python<'_>,
    format: &dyn walkmesh_core::Format,
    dir: &Path,
    rooms: Vec<(PathBuf, Vec<u8>)>,
    layout: Option<(PathBuf, Vec<u8>)>,
) -> PyResult<()> {
    let check = walkmesh_pipeline::check_options(&ReadOptions::default());
    let files = AreaFiles { dir, rooms, layout };
    write_area_files(format, files, &check, crate::PYTHON_NAMES).map_err(|e| failure(py, e))
}
