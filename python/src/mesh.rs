//! `walkmesh.Mesh`: the neutral mesh with NumPy views of its authored data.
//!
//! The mesh itself (core's `NavMesh`) stays the one authoritative store: every array a
//! property returns is a fresh NumPy array that owns its memory (built from a Rust vector
//! handed over without a further copy), so editing it never changes the mesh behind the
//! provenance fingerprint's back; assigning it back (`mesh.vertices = v`) checks and stores
//! it. Reading and writing never build arrays at all.

use std::collections::BTreeMap;
use std::path::PathBuf;

use numpy::ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use walkmesh_core::ir::Attribute;
use walkmesh_core::material::MaterialProfile;
use walkmesh_core::{
    Diagnostic, Diagnostics, EdgeTag, Hook, Input, MeshKind, NavMesh, Polygons, ReadOptions,
    Surface, passes, summary,
};
use walkmesh_pipeline as pipeline;

pub(crate) mod inputs;

use crate::errors::{self, Fields, Kind, raise};
use crate::options::{self, Options};
use crate::{Destination, ToDict, json_to_python, write_mesh};

/// A walkmesh: vertices, polygons with a surface each (neutral material, walkability, engine
/// code), per-edge transitions, hooks, kind, origin and per-face attribute columns.
#[pyclass(module = "walkmesh", name = "Mesh")]
#[derive(Debug, Clone)]
pub struct Mesh {
    pub mesh: NavMesh,
    /// The format id it was read from (None for a mesh built from arrays).
    pub source_format: Option<&'static str>,
    pub path: Option<PathBuf>,
    pub read_options: ReadOptions,
    pub warnings: Vec<Diagnostic>,
}

/// `numpy.ascontiguousarray(object, dtype)`: any array-like (lists, other dtypes) in the
/// layout the setters read without a further copy.
fn contiguous<'py>(object: &Bound<'py, PyAny>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = object.py();
    let numpy = py.import("numpy")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", dtype)?;
    numpy.call_method("ascontiguousarray", (object,), Some(&kwargs))
}

fn slice_of<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a numpy::PyReadonlyArray<'_, T, D>,
) -> PyResult<&'a [T]> {
    array
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("the array is not contiguous: {e}")))
}

fn neutral() -> &'static MaterialProfile {
    static NEUTRAL: std::sync::OnceLock<MaterialProfile> = std::sync::OnceLock::new();
    NEUTRAL.get_or_init(MaterialProfile::neutral)
}

/// The surface for a material name: a neutral name (`Stone`, `surface_40`) or an alias, as a
/// modelling tool writes it (`Grass.001`, `wok_Stone`); walkability as the neutral profile has
/// it.
fn surface_for(name: &str) -> PyResult<Surface> {
    if let Some(surface) = neutral().surface_for_tool_name(name) {
        return Ok(surface);
    }
    walkmesh_core::Material::from_name(name)
        .map(|material| Surface {
            material,
            walkable: false,
            code: u32::from(material.0),
        })
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown material {name:?}; use a neutral name (Stone, Grass, NonWalk, …; \
                 walkmesh.material_names() lists them) or surface_<id>"
            ))
        })
}

fn polygons_from(faces: &Bound<'_, PyAny>, vertex_count: usize) -> PyResult<Polygons> {
    // A 2-D integer array: every face has as many corners as it has columns.
    let as_array = contiguous(faces, "uint32")
        .ok()
        .and_then(|a| a.cast_into::<PyArray2<u32>>().ok());
    let polygons = if let Some(array) = as_array {
        let readonly = array.readonly();
        let shape = readonly.shape();
        let (rows, columns) = (shape[0], shape[1]);
        if columns < 3 {
            return Err(PyValueError::new_err(format!(
                "faces has {columns} column(s); a face needs at least 3 corners"
            )));
        }
        let flat = slice_of(&readonly)?;
        let mut polygons = Polygons::with_capacity(rows, flat.len());
        for face in flat.chunks_exact(columns) {
            polygons.push(face);
        }
        polygons
    } else {
        // A sequence of index sequences (n-gons of any size).
        let mut polygons = Polygons::new();
        for face in faces.try_iter()? {
            let face: Vec<u32> = face?.extract()?;
            if face.len() < 3 {
                return Err(PyValueError::new_err(format!(
                    "face {} has {} corner(s); a face needs at least 3",
                    polygons.len(),
                    face.len()
                )));
            }
            polygons.push(&face);
        }
        polygons
    };
    if let Some((i, &index)) = polygons
        .indices()
        .iter()
        .enumerate()
        .find(|&(_, &v)| v as usize >= vertex_count)
    {
        return Err(PyValueError::new_err(format!(
            "faces: corner {i} names vertex {index}, but there are {vertex_count} vertices"
        )));
    }
    Ok(polygons)
}

fn vertices_from(object: &Bound<'_, PyAny>) -> PyResult<Vec<[f32; 3]>> {
    let array = contiguous(object, "float32")?;
    let array = array
        .cast_into::<PyArray2<f32>>()
        .map_err(|_| PyValueError::new_err("vertices must be an N×3 array of numbers"))?;
    let readonly: PyReadonlyArray2<'_, f32> = array.readonly();
    if readonly.shape()[1] != 3 {
        return Err(PyValueError::new_err(format!(
            "vertices must be N×3 (x, y, z); got {} columns",
            readonly.shape()[1]
        )));
    }
    let flat = slice_of(&readonly)?;
    let vertices: Vec<[f32; 3]> = flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    if let Some((vertex, axis)) = walkmesh_core::ir::first_non_finite(&vertices) {
        return Err(PyValueError::new_err(format!(
            "vertices[{vertex}].{} is not a finite number",
            walkmesh_core::ir::axis_name(axis)
        )));
    }
    Ok(vertices)
}

fn hooks_from(object: &Bound<'_, PyAny>) -> PyResult<Vec<Hook>> {
    let mut hooks = Vec::new();
    for item in object.try_iter()? {
        let item = item?;
        let (name, position): (String, [f32; 3]) = if let Ok(dict) = item.cast::<PyDict>() {
            let name = dict
                .get_item("name")?
                .ok_or_else(|| PyValueError::new_err("a hook needs a \"name\""))?
                .extract()?;
            let position = dict
                .get_item("position")?
                .ok_or_else(|| PyValueError::new_err("a hook needs a \"position\""))?
                .extract()?;
            (name, position)
        } else {
            item.extract()?
        };
        if !position.iter().all(|c| c.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "hook {name:?}: every coordinate must be finite"
            )));
        }
        hooks.push(Hook { name, position });
    }
    Ok(hooks)
}

fn kind_from(text: &str) -> PyResult<MeshKind> {
    MeshKind::parse(text).ok_or_else(|| {
        PyValueError::new_err(format!(
            "kind {text:?} is not area, placeable, door or terrain"
        ))
    })
}

impl Mesh {
    /// What `Mesh.route` and `Mesh.reach` query.
    fn route_target(&self) -> crate::route::Target<'_> {
        crate::route::Target {
            mesh: &self.mesh,
            source_format: self.source_format,
        }
    }

    fn half_edge_count(&self) -> usize {
        self.mesh.polygons.indices().len()
    }

    /// Replaces the edge tags from a per-half-edge array (-1 = none).
    fn set_transitions_flat(&mut self, values: &[i32]) -> PyResult<()> {
        if values.len() != self.half_edge_count() {
            return Err(PyValueError::new_err(format!(
                "transitions has {} entries; the mesh has {} face edges ({} faces)",
                values.len(),
                self.half_edge_count(),
                self.mesh.polygons.len()
            )));
        }
        let mut tags = BTreeMap::new();
        for (half_edge, &value) in values.iter().enumerate() {
            if value >= 0 {
                tags.insert(
                    self.mesh.polygons.edge_of_half_edge(half_edge),
                    EdgeTag { transition: value },
                );
            } else if value != -1 {
                return Err(PyValueError::new_err(format!(
                    "transitions[{half_edge}] = {value}: use -1 for no transition"
                )));
            }
        }
        self.mesh.edge_tags = tags;
        Ok(())
    }

    fn set_transitions_from(&mut self, object: &Bound<'_, PyAny>) -> PyResult<()> {
        let array = contiguous(object, "int32")?;
        let values: Vec<i32> = if let Ok(two) = array.cast::<PyArray2<i32>>() {
            let readonly = two.readonly();
            let columns = readonly.shape()[1];
            if !self.mesh.polygons.all_triangles() || columns != 3 {
                return Err(PyValueError::new_err(
                    "a 2-D transitions array is M×3 and needs a triangle mesh; give a flat \
                     array aligned with polygon_indices for n-gons",
                ));
            }
            slice_of(&readonly)?.to_vec()
        } else if let Ok(one) = array.cast::<PyArray1<i32>>() {
            slice_of(&one.readonly())?.to_vec()
        } else {
            return Err(PyValueError::new_err(
                "transitions must be an M×3 or a flat integer array",
            ));
        };
        self.set_transitions_flat(&values)
    }

    fn set_materials_from(&mut self, object: &Bound<'_, PyAny>) -> PyResult<()> {
        let faces = self.mesh.polygons.len();
        if let Ok(name) = object.extract::<String>() {
            let surface = surface_for(&name)?;
            self.mesh.surfaces = vec![surface; faces];
            return Ok(());
        }
        let mut cache: BTreeMap<String, Surface> = BTreeMap::new();
        let mut surfaces = Vec::with_capacity(faces);
        for item in object.try_iter()? {
            let name: String = item?.extract()?;
            let surface = match cache.get(&name) {
                Some(surface) => *surface,
                None => {
                    let surface = surface_for(&name)?;
                    cache.insert(name, surface);
                    surface
                }
            };
            surfaces.push(surface);
        }
        if surfaces.len() != faces {
            return Err(PyValueError::new_err(format!(
                "materials has {} names for {faces} faces",
                surfaces.len()
            )));
        }
        self.mesh.surfaces = surfaces;
        Ok(())
    }

    fn set_walkable_from(&mut self, object: &Bound<'_, PyAny>) -> PyResult<()> {
        let array = contiguous(object, "bool")?;
        let array = array
            .cast_into::<PyArray1<bool>>()
            .map_err(|_| PyValueError::new_err("walkable must be a flat array of booleans"))?;
        let readonly = array.readonly();
        let flags = slice_of(&readonly)?;
        if flags.len() != self.mesh.surfaces.len() {
            return Err(PyValueError::new_err(format!(
                "walkable has {} entries for {} faces",
                flags.len(),
                self.mesh.surfaces.len()
            )));
        }
        for (surface, &flag) in self.mesh.surfaces.iter_mut().zip(flags) {
            surface.walkable = flag;
        }
        Ok(())
    }

    fn set_face_attribute(&mut self, name: &str, object: &Bound<'_, PyAny>) -> PyResult<()> {
        let faces = self.mesh.polygons.len();
        let array = numpy_asarray(object)?;
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        let attribute = if kind == "f" {
            let array = contiguous(&array, "float32")?;
            let array = array
                .cast_into::<PyArray1<f32>>()
                .map_err(|_| PyValueError::new_err(format!("{name}: a flat array per face")))?;
            Attribute::Float(slice_of(&array.readonly())?.to_vec())
        } else {
            let array = contiguous(&array, "int64")?;
            let array = array
                .cast_into::<PyArray1<i64>>()
                .map_err(|_| PyValueError::new_err(format!("{name}: a flat array per face")))?;
            Attribute::Int(slice_of(&array.readonly())?.to_vec())
        };
        if attribute.len() != faces {
            return Err(PyValueError::new_err(format!(
                "face attribute {name:?} has {} entries for {faces} faces",
                attribute.len()
            )));
        }
        self.mesh
            .face_attributes
            .insert(name.to_string(), attribute);
        Ok(())
    }

    /// After a change: the structural invariants every reader establishes still hold.
    fn checked(&self) -> PyResult<()> {
        self.mesh
            .check()
            .map_err(|e| PyValueError::new_err(format!("the mesh is not consistent: {e}")))
    }
}

fn numpy_asarray<'py>(object: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    object
        .py()
        .import("numpy")?
        .call_method1("asarray", (object,))
}

/// The findings of the bytes `mesh` would be written as in `format`: the preparation's notes
/// (faces dropped, vertices welded), then everything `walkmesh validate` reports for those
/// bytes, the format validator's findings and the mesh-level warnings (`mesh.steep_walkable`,
/// unlinked seams, open boundaries) alike. Nothing is written; errors are listed, not raised.
pub fn findings_as_written(
    py: Python<'_>,
    mesh: &Mesh,
    format: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Diagnostic>> {
    let mut parsed = options::parse(options, &options::check_keys())?;
    parsed.allow_invalid = true;
    parsed.strict = false;
    let check = crate::check_options(mesh, &parsed);
    let target = crate::target_format(py, format, None)?;
    let (report, checked) =
        match write_mesh(py, mesh, Destination::Bytes, format, &parsed, Vec::new()) {
            Ok((report, bytes)) => {
                let bytes = bytes.unwrap_or_default();
                let input = Input {
                    bytes: &bytes,
                    path: None,
                };
                let checked = py.detach(|| pipeline::validate_input(target, input, &check));
                (report, checked)
            }
            // A sidecar format (OBJ, .gltf) is written and checked in a scratch directory.
            Err(error) if is_usage(py, &error) => {
                let directory = tempfile::tempdir().map_err(|e| {
                    raise(
                        py,
                        Kind::Write,
                        format!("cannot make a scratch directory: {e}"),
                        Fields::code("cli.output"),
                    )
                })?;
                let extensions = target.descriptor().extensions;
                let extension = extensions.first().copied().unwrap_or("out");
                let path = directory.path().join(format!("mesh.{extension}"));
                let (report, _) = write_mesh(
                    py,
                    mesh,
                    Destination::File(&path, Default::default()),
                    format,
                    &parsed,
                    Vec::new(),
                )?;
                let bytes = walkmesh_core::files::read(&path).map_err(|e| {
                    raise(
                        py,
                        Kind::Write,
                        format!("cannot read back the scratch file {}: {e}", path.display()),
                        Fields::code("cli.output"),
                    )
                })?;
                let input = Input {
                    bytes: &bytes,
                    path: Some(&path),
                };
                let mut checked = py.detach(|| pipeline::validate_input(target, input, &check));
                // The scratch file's name means nothing to the caller.
                if let Ok(findings) = &mut checked {
                    for finding in findings.iter_mut() {
                        finding.location.file = None;
                    }
                }
                (report, checked)
            }
            Err(error) => return Err(error),
        };
    // The bytes were just written by our own writer: one that cannot be read back is a bug,
    // reported as the output check's findings rather than hidden.
    let validated = checked.unwrap_or_else(|_| report.output_findings.clone());
    let mut findings = report.diagnostics;
    for finding in validated {
        let seen = findings.iter().any(|f| {
            f.severity == finding.severity && f.code == finding.code && f.message == finding.message
        });
        if !seen {
            findings.push(finding);
        }
    }
    Ok(findings)
}

fn is_usage(py: Python<'_>, error: &PyErr) -> bool {
    error
        .value(py)
        .getattr("code")
        .and_then(|c| c.extract::<Option<String>>())
        .ok()
        .flatten()
        .is_some_and(|c| c == "cli.usage")
}

#[pymethods]
impl Mesh {
    /// Builds a mesh from arrays. `vertices`: N×3 numbers (Z up, metres). `faces`: an M×K
    /// integer array (K ≥ 3 corners each, counter-clockwise seen from above) or a list of index
    /// lists (n-gons). `materials`: one neutral name per face, or one name for all (default
    /// "Stone"); walkability follows the name unless `walkable` (M booleans) is given.
    /// `transitions`: M×3 (triangles) or one per face edge aligned with polygon_indices, -1 for
    /// none. `hooks`: dicts {"name", "position"} or (name, (x, y, z)) pairs. `kind`: area,
    /// placeable, door or terrain. `face_attributes`: {"path:height": array, …}.
    #[staticmethod]
    #[pyo3(signature = (vertices, faces, materials=None, walkable=None, transitions=None, hooks=None, kind="area", origin=None, face_attributes=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_arrays(
        vertices: &Bound<'_, PyAny>,
        faces: &Bound<'_, PyAny>,
        materials: Option<&Bound<'_, PyAny>>,
        walkable: Option<&Bound<'_, PyAny>>,
        transitions: Option<&Bound<'_, PyAny>>,
        hooks: Option<&Bound<'_, PyAny>>,
        kind: &str,
        origin: Option<[f32; 3]>,
        face_attributes: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Mesh> {
        let vertices = vertices_from(vertices)?;
        let polygons = polygons_from(faces, vertices.len())?;
        let faces = polygons.len();
        let mut mesh = Mesh {
            mesh: NavMesh {
                kind: kind_from(kind)?,
                vertices,
                polygons,
                surfaces: vec![surface_for("Stone")?; faces],
                origin: origin.unwrap_or_default(),
                ..NavMesh::default()
            },
            source_format: None,
            path: None,
            read_options: ReadOptions::default(),
            warnings: Vec::new(),
        };
        if let Some(materials) = materials {
            mesh.set_materials_from(materials)?;
        }
        if let Some(walkable) = walkable {
            mesh.set_walkable_from(walkable)?;
        }
        if let Some(transitions) = transitions {
            mesh.set_transitions_from(transitions)?;
        }
        if let Some(hooks) = hooks {
            mesh.mesh.hooks = hooks_from(hooks)?;
        }
        if let Some(attributes) = face_attributes {
            for (name, values) in attributes.iter() {
                let name: String = name.extract()?;
                mesh.set_face_attribute(&name, &values)?;
            }
        }
        if let Some(origin) = origin
            && !origin.iter().all(|c| c.is_finite())
        {
            return Err(PyValueError::new_err(
                "origin: every coordinate must be finite",
            ));
        }
        mesh.checked()?;
        Ok(mesh)
    }

    /// Vertex positions: an N×3 float32 array (the exact f32 values the file holds; Z up).
    /// A new array each time; assign to change the mesh.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        PyArray2::from_owned_array(py, Array2::from(self.mesh.vertices.clone()))
    }

    #[setter(vertices)]
    fn set_vertices(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let vertices = vertices_from(value)?;
        let old = std::mem::replace(&mut self.mesh.vertices, vertices);
        if let Err(error) = self.checked() {
            self.mesh.vertices = old;
            return Err(error);
        }
        Ok(())
    }

    /// Triangles as an M×3 uint32 array when every face is a triangle; None otherwise (use
    /// polygon_offsets / polygon_indices).
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<u32>>>> {
        if !self.mesh.polygons.all_triangles() {
            return Ok(None);
        }
        let flat = Array1::from(self.mesh.polygons.indices().to_vec());
        let rows = self.mesh.polygons.len();
        let array = flat
            .into_shape_with_order((rows, 3))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Some(PyArray2::from_owned_array(py, array)))
    }

    /// Whether every face is a triangle.
    #[getter]
    fn triangles_only(&self) -> bool {
        self.mesh.polygons.all_triangles()
    }

    /// CSR offsets of the polygons: M+1 uint32 values; face i's corners are
    /// polygon_indices[polygon_offsets[i]:polygon_offsets[i+1]].
    #[getter]
    fn polygon_offsets<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let polygons = &self.mesh.polygons;
        let mut offsets = Vec::with_capacity(polygons.len() + 1);
        offsets.push(0u32);
        let mut at = 0u32;
        for polygon in polygons.iter() {
            at = at.saturating_add(polygon.len() as u32);
            offsets.push(at);
        }
        PyArray1::from_vec(py, offsets)
    }

    /// CSR corner indices of the polygons (uint32), see polygon_offsets.
    #[getter]
    fn polygon_indices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, self.mesh.polygons.indices())
    }

    /// Neutral material name per face (a list of str). Assign a list (or one name for all):
    /// walkability then follows the neutral profile (set `walkable` after).
    #[getter]
    fn materials<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut names: BTreeMap<u16, Bound<'py, PyString>> = BTreeMap::new();
        let list = PyList::empty(py);
        for surface in &self.mesh.surfaces {
            let name = names
                .entry(surface.material.0)
                .or_insert_with(|| PyString::new(py, &surface.material.name()));
            list.append(name.clone())?;
        }
        Ok(list)
    }

    #[setter(materials)]
    fn set_materials(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_materials_from(value)
    }

    /// Neutral material id per face (uint16; KotOR surfacemat numbering, see
    /// walkmesh.material_names()).
    #[getter]
    fn material_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u16>> {
        PyArray1::from_vec(
            py,
            self.mesh.surfaces.iter().map(|s| s.material.0).collect(),
        )
    }

    /// The source engine's raw surface code per face (uint32: KotOR surfacemat row, NWN2 flag
    /// bits, PATH material mask; the neutral id for OBJ/glTF/arrays).
    #[getter]
    fn material_codes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_vec(py, self.mesh.surfaces.iter().map(|s| s.code).collect())
    }

    /// Walkability per face (bool array).
    #[getter]
    fn walkable<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, self.mesh.surfaces.iter().map(|s| s.walkable).collect())
    }

    #[setter(walkable)]
    fn set_walkable(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_walkable_from(value)
    }

    /// Per face-edge transitions (KotOR: the LYT room index an edge leads to), int32, -1 =
    /// none. Edge e of a face runs from its corner e to corner e+1. M×3 for triangle meshes;
    /// for n-gons a flat array aligned with polygon_indices.
    #[getter]
    fn transitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut values = vec![-1i32; self.half_edge_count()];
        for (edge, tag) in &self.mesh.edge_tags {
            let at = self.mesh.polygons.first_index(edge.polygon as usize) + edge.edge as usize;
            if let Some(slot) = values.get_mut(at) {
                *slot = tag.transition;
            }
        }
        if self.mesh.polygons.all_triangles() {
            let rows = self.mesh.polygons.len();
            let array = Array1::from(values)
                .into_shape_with_order((rows, 3))
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            return Ok(PyArray2::from_owned_array(py, array).into_any());
        }
        Ok(PyArray1::from_vec(py, values).into_any())
    }

    #[setter(transitions)]
    fn set_transitions(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_transitions_from(value)
    }

    /// Named points (KotOR use points), relative to `origin`: a list of dicts {"name",
    /// "position": (x, y, z)}.
    #[getter]
    fn hooks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for hook in &self.mesh.hooks {
            let dict = PyDict::new(py);
            dict.set_item("name", &hook.name)?;
            dict.set_item("position", hook.position.to_vec())?;
            list.append(dict)?;
        }
        Ok(list)
    }

    #[setter(hooks)]
    fn set_hooks(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mesh.hooks = hooks_from(value)?;
        Ok(())
    }

    /// "area", "placeable", "door" or "terrain".
    #[getter]
    fn kind(&self) -> &'static str {
        self.mesh.kind.as_str()
    }

    #[setter(kind)]
    fn set_kind(&mut self, value: &str) -> PyResult<()> {
        self.mesh.kind = kind_from(value)?;
        Ok(())
    }

    /// Where the mesh sits in its parent (KotOR walkmesh node position), (x, y, z).
    #[getter]
    fn origin(&self) -> (f32, f32, f32) {
        let [x, y, z] = self.mesh.origin;
        (x, y, z)
    }

    #[setter(origin)]
    fn set_origin(&mut self, value: [f32; 3]) -> PyResult<()> {
        if !value.iter().all(|c| c.is_finite()) {
            return Err(PyValueError::new_err(
                "origin: every coordinate must be finite",
            ));
        }
        self.mesh.origin = value;
        Ok(())
    }

    /// Namespaced per-face columns ("nwn2:tile", "path:height", "obj:group", …): a dict of
    /// name → int64 or float32 array.
    #[getter]
    fn face_attributes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, attribute) in &self.mesh.face_attributes {
            match attribute {
                Attribute::Int(values) => {
                    dict.set_item(name, PyArray1::from_slice(py, values))?;
                }
                Attribute::Float(values) => {
                    dict.set_item(name, PyArray1::from_slice(py, values))?;
                }
            }
        }
        Ok(dict)
    }

    /// Sets (or, with None, removes) one per-face column.
    #[pyo3(signature = (name, values))]
    fn set_face_attribute_column(
        &mut self,
        name: &str,
        values: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        match values {
            Some(values) => self.set_face_attribute(name, values),
            None => {
                self.mesh.face_attributes.remove(name);
                Ok(())
            }
        }
    }

    /// Mesh-level values namespaced by format ("nwn2:name", …) as a dict.
    #[getter]
    fn extras<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json_text(&self.mesh.extras)?;
        json_to_python(py, &text)
    }

    /// NWN2 tile grid parameters as a dict (columns, rows, tile_width, tile_height, origin), or
    /// None.
    #[getter]
    fn tile_grid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json_text(&self.mesh.tile_grid)?;
        json_to_python(py, &text)
    }

    #[setter(material_codes)]
    fn set_material_codes(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let array = contiguous(value, "uint32")?;
        let array = array.cast_into::<PyArray1<u32>>().map_err(|_| {
            PyValueError::new_err("material_codes must be a flat array of integers")
        })?;
        let readonly = array.readonly();
        let codes = slice_of(&readonly)?;
        if codes.len() != self.mesh.surfaces.len() {
            return Err(PyValueError::new_err(format!(
                "material_codes has {} entries for {} faces",
                codes.len(),
                self.mesh.surfaces.len()
            )));
        }
        for (surface, &code) in self.mesh.surfaces.iter_mut().zip(codes) {
            surface.code = code;
        }
        Ok(())
    }

    /// Takes the shape the getter gives ({"nwn2:border": {"Int": 0}, ...}).
    #[setter(extras)]
    fn set_extras(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let text: String = value
            .py()
            .import("json")?
            .call_method1("dumps", (value,))?
            .extract()?;
        self.mesh.extras = serde_json::from_str(&text)
            .map_err(|e| PyValueError::new_err(format!("extras: {e}")))?;
        Ok(())
    }

    /// Takes the dict the getter gives, or None.
    #[setter(tile_grid)]
    fn set_tile_grid(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let text: String = value
            .py()
            .import("json")?
            .call_method1("dumps", (value,))?
            .extract()?;
        self.mesh.tile_grid = serde_json::from_str(&text)
            .map_err(|e| PyValueError::new_err(format!("tile_grid: {e}")))?;
        Ok(())
    }

    /// The format id the mesh was read from; None for a mesh built from arrays.
    #[getter]
    fn source_format(&self) -> Option<&'static str> {
        self.source_format
    }

    /// The file it was read from (None for bytes and arrays).
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.as_deref().map(errors::path_text)
    }

    /// What the reader reported (finding dicts: severity, code, message, file, offset, line,
    /// field).
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        errors::findings_list(py, &self.warnings)
    }

    /// Number of vertices and faces.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.mesh.vertices.len()
    }

    #[getter]
    fn face_count(&self) -> usize {
        self.mesh.polygons.len()
    }

    /// The route from `a` to `b` (x, y, z), as `walkmesh route --json` prints it: a dict with
    /// reachable, method, points, faces, length (None when unreachable), warnings. `method`:
    /// "engine" (the default for KotOR, NWN2 TRX and PATH meshes) or "surface".
    #[pyo3(signature = (a, b, method=None))]
    fn route<'py>(
        &self,
        py: Python<'py>,
        a: [f64; 3],
        b: [f64; 3],
        method: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::route::route(py, self.route_target(), (a, b), method)
    }

    /// Reachability, as `walkmesh reach --json` prints it: walkable_area, components (id,
    /// faces, area, position, min, max) and, with `start`, what it cannot reach.
    #[pyo3(signature = (start=None, method=None))]
    fn reach<'py>(
        &self,
        py: Python<'py>,
        start: Option<[f64; 3]>,
        method: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::route::reach(py, self.route_target(), start, method)
    }

    /// What `walkmesh info --json` prints, as a dict with the same keys (format, kind,
    /// vertices, faces, walkable_faces, bbox, walkable_area, components, boundary_loops,
    /// materials, …). Modelling-tool input is summarised welded, as convert writes it.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let format = self.source_format.unwrap_or("arrays");
        let text = py.detach(|| {
            let mut diag = Diagnostics::new();
            let modelled = passes::as_modelled(&self.mesh, &mut diag);
            serde_json::to_string(&summary::summarize(&modelled, format))
        });
        let text = text.map_err(|e| PyValueError::new_err(e.to_string()))?;
        json_to_python(py, &text)
    }

    /// The findings of `walkmesh lint --json` for this mesh: a list of dicts with code,
    /// severity, faces (this mesh's face numbering), at ([x, y, z], Z up; None for a reader's
    /// note), message, fixable and level (its group: "default" or "pedantic"). The reader's
    /// warnings come first, as the command lists them. `engine` (kotor, nwn2, prime, generic)
    /// decides steepness and which codes are pedantic; by default the source format's engine.
    /// `level` ("default" or "pedantic") is `walkmesh lint --level`: "default" leaves out the
    /// pedantic group. `model` (a path to render geometry: a KotOR .mdl, OBJ, glTF; a Mesh;
    /// or a list of them, one scene) is `walkmesh lint --model`: the mesh is also compared
    /// with what the model says (the `model.*` codes, each with its `area`), with the
    /// engine's `generate` preset and the agent keywords over it.
    #[pyo3(signature = (engine=None, level="default", model=None, *, agent_height=None, agent_radius=None, max_climb=None, max_slope=None, cell_size=None, cell_height=None, max_memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn lint<'py>(
        &self,
        py: Python<'py>,
        engine: Option<&str>,
        level: &str,
        model: Option<&Bound<'py, PyAny>>,
        agent_height: Option<f32>,
        agent_radius: Option<f32>,
        max_climb: Option<f32>,
        max_slope: Option<f32>,
        cell_size: Option<f32>,
        cell_height: Option<f32>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let engine = match engine {
            Some(name) => walkmesh_lint::Engine::parse(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "engine={name:?}: expected 'kotor', 'nwn2', 'prime' or 'generic'"
                ))
            })?,
            None => crate::registry().engine_of(self.source_format.unwrap_or("")),
        };
        let level = walkmesh_lint::Level::parse(level).ok_or_else(|| {
            PyValueError::new_err(format!("level={level:?}: expected 'default' or 'pedantic'"))
        })?;
        let options = walkmesh_lint::LintOptions {
            engine,
            ..walkmesh_lint::LintOptions::default()
        };
        let mut model_notes = walkmesh_core::Diagnostics::new();
        let models = match model {
            Some(model) => Some(inputs::input_meshes(
                py,
                model,
                &crate::options::Options::default(),
                &mut model_notes,
            )?),
            None => None,
        };
        let overrides = walkmesh_generate::Overrides {
            agent_height,
            agent_radius,
            max_climb,
            max_slope,
            cell_size,
            cell_height,
            max_memory_mib: max_memory,
            ..walkmesh_generate::Overrides::default()
        };
        let params = walkmesh_generate::Params::with_overrides(engine, &overrides)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let text = py.detach(|| {
            let mut findings: Vec<walkmesh_lint::Finding> = self
                .warnings
                .iter()
                .chain(&model_notes.items)
                .map(walkmesh_lint::Finding::from_diagnostic)
                .collect();
            let linted = walkmesh_lint::as_linted(&self.mesh);
            findings.extend(walkmesh_lint::lint(&linted, &options, None));
            if let Some(models) = &models {
                let compared = walkmesh_pipeline::lint_model::lint_against_model(
                    &linted, models, &params, [0.0; 3],
                )
                .map_err(|failure| failure.message)?;
                findings.extend(compared.findings);
            }
            serde_json::to_string(&walkmesh_lint::at_level(findings, level))
                .map_err(|e| e.to_string())
        });
        let text = text.map_err(PyValueError::new_err)?;
        json_to_python(py, &text)
    }

    /// Writes the mesh to `path` like `walkmesh convert`: format from the extension unless
    /// `format` (an id or extension) is given; derived tables recomputed for the target (or
    /// preserved bytes re-emitted for an unchanged mesh of the same format, unless
    /// rebuild=True); the bytes read back with the target's validator and reader before they
    /// are renamed into place, and refused (InvalidOutput) on errors unless
    /// allow_invalid=True. Options as convert's: rebuild, kind, weld, template, compression,
    /// region_height, max_regions, max_height_error, max_area_change, max_memory, translate, up,
    /// materials, strict, allow, deny, allow_invalid, force, create_dirs, fsync. Returns the report `convert --json` prints.
    #[pyo3(signature = (path, format=None, **options))]
    fn write<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        format: Option<&str>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let settings = crate::output_settings(options)?;
        let parsed = options::parse(
            options,
            &options::keys(&[&options::write_keys(), options::OUTPUT_KEYS]),
        )?;
        let (report, _) = write_mesh(
            py,
            self,
            Destination::File(&path, settings),
            format,
            &parsed,
            Vec::new(),
        )?;
        report.to_dict(py)
    }

    /// Writes the 3-D inspector of this mesh (and of `other`, overlaid, when given) to `path`:
    /// one self-contained HTML file, as `walkmesh view` writes. A mesh read from a file and
    /// not changed since shows every stored field of a clicked face with its offset (the file
    /// is read again for its field dump); an edited or built mesh shows its neutral polygon
    /// and surface. Returns the path written.
    #[pyo3(signature = (path, other=None))]
    fn view(
        &self,
        py: Python<'_>,
        path: PathBuf,
        other: Option<PyRef<'_, Mesh>>,
    ) -> PyResult<String> {
        let meshes: Vec<&Mesh> = std::iter::once(self).chain(other.as_deref()).collect();
        // One command, as `walkmesh view`: the source files read again for their fields are
        // recorded, and a `path` that is one of them is refused (nothing is written).
        let reads = walkmesh_core::files::Scope::new();
        let html = reads.run(|| {
            py.detach(|| {
                let trees: Vec<Option<walkmesh_core::dump::DumpNode>> =
                    meshes.iter().map(|m| m.stored_fields()).collect();
                let names: Vec<String> = meshes.iter().map(|m| m.view_name()).collect();
                let inputs: Vec<walkmesh_view::ViewInput<'_>> = meshes
                    .iter()
                    .zip(&trees)
                    .zip(&names)
                    .map(|((m, tree), name)| walkmesh_view::ViewInput {
                        name,
                        format: m.source_format.unwrap_or("arrays"),
                        capabilities: crate::registry()
                            .capabilities_of(m.source_format.unwrap_or("")),
                        mesh: &m.mesh,
                        fields: tree.as_ref(),
                    })
                    .collect();
                walkmesh_view::page(&inputs, &names.join(" + "))
            })
        });
        let html = html.map_err(|e| PyValueError::new_err(e.to_string()))?;
        reads
            .run(|| pipeline::output::write_atomically(&path, html.as_bytes()))
            // A ValueError, as before this went through the staged writer.
            .map_err(|failure| PyValueError::new_err(errors::python_wording(&failure.message)))?;
        Ok(path.display().to_string())
    }

    /// The bytes of the mesh in `format` (an id or extension: "bwm", "wok", "trx", "path",
    /// "glb", …), checked as `write` checks them. One-file formats only (OBJ and .gltf have
    /// sidecars: write them to a file).
    #[pyo3(signature = (format, **options))]
    fn to_bytes<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let parsed: Options = options::parse(options, &options::write_keys())?;
        let (_, bytes) = write_mesh(
            py,
            self,
            Destination::Bytes,
            Some(format),
            &parsed,
            Vec::new(),
        )?;
        Ok(PyBytes::new(py, &bytes.unwrap_or_default()))
    }

    /// An independent copy.
    fn copy(&self) -> Mesh {
        self.clone()
    }

    fn __copy__(&self) -> Mesh {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Mesh {
        self.clone()
    }

    /// Whether the authored data of two meshes is the same (vertices bit for bit, polygons,
    /// surfaces, transitions, hooks, kind, origin, attributes, extras).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Mesh>()
            .is_ok_and(|o| o.borrow().mesh.fingerprint() == self.mesh.fingerprint())
    }

    fn __repr__(&self) -> String {
        format!(
            "<walkmesh.Mesh {} from {}: {} vertices, {} faces ({} walkable), {} transitions, {} hooks>",
            self.mesh.kind.as_str(),
            self.source_format.unwrap_or("arrays"),
            self.mesh.vertices.len(),
            self.mesh.polygons.len(),
            self.mesh.walkable_count(),
            self.mesh.edge_tags.len(),
            self.mesh.hooks.len()
        )
    }
}

fn serde_json_text<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyTypeError::new_err(e.to_string()))
}

impl Mesh {
    /// The field dump of the file this mesh was read from, when the file still holds this
    /// very mesh (same fingerprint) and its format has a field dump; otherwise `None`.
    fn stored_fields(&self) -> Option<walkmesh_core::dump::DumpNode> {
        let (path, format) = (self.path.as_deref()?, self.source_format?);
        let format = crate::registry().by_id(format).ok()?;
        let bytes = walkmesh_kotor_area::erf::read_file_or_member(path).ok()?;
        let input = Input {
            bytes: &bytes,
            path: Some(path),
        };
        let again = format
            .reader()?
            .read(input, &self.read_options, &mut Diagnostics::new())
            .ok()?;
        if again.fingerprint() != self.mesh.fingerprint() {
            return None;
        }
        walkmesh_view::view_tree(
            format,
            &bytes,
            Some(path),
            &self.read_options,
            self.mesh.polygons.len(),
        )
        .ok()
        .flatten()
    }

    /// The name the inspector shows: the file name, or "mesh".
    fn view_name(&self) -> String {
        self.path
            .as_deref()
            .and_then(|p| p.file_name())
            .map_or_else(|| "mesh".to_owned(), |n| n.to_string_lossy().into_owned())
    }
}
