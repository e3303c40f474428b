//! `walkmesh generate`'s flow between its options and what it prints, written once for the
//! command line and the Python package (`walkmesh.generate`): the inputs read (a model's
//! render geometry, else the registry's reader), combined into one scene, generated with the
//! limit checks the target needs, moved into the layout's area coordinates (`--lyt`), and
//! refused when no walkable floor is left or a tile of a tiled target is over its limit. It
//! prints nothing; writing is the conversion flow's ([`crate::plan::write_loaded`]) with a
//! plan that rebuilds every table ([`crate::plan::plan`]).

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Format, NavMesh, ReadOptions, Registry};
use walkmesh_generate::area::{RoomPlacement, room_placement};
use walkmesh_generate::limits::Checks;
use walkmesh_generate::{GenerateError, Generated, ModelReadError, ObjectKind, Params, Report};

use crate::failure::Failure;

/// A model's render geometry read from its file by the registry's render-geometry role,
/// `None` for a file whose registry reader already gives its triangles
/// (`walkmesh_formats::read_render_geometry`, its error boxed: the format crates sit below
/// this crate's callers, not below it).
pub type RenderGeometry<'a> =
    &'a dyn Fn(&Registry, &Path, &mut Diagnostics) -> Option<Result<NavMesh, ModelReadError>>;

/// The reading options of render geometry: `read` with every OBJ `usemtl` name kept, known to
/// the profile or not (`walkmesh_obj::MATERIAL_NAMES_PARAM`), since the generator reads
/// surfaces from render material names.
pub fn render_read_options(mut read: ReadOptions) -> ReadOptions {
    read.params.insert("obj:material_names".into(), "1".into());
    read
}

/// Reads every input: a model's render geometry through `render`, any other file through the
/// registry (archive members included). Reading notes go to `diag`.
pub fn read_inputs(
    registry: &Registry,
    inputs: &[PathBuf],
    read: &ReadOptions,
    render: RenderGeometry<'_>,
    diag: &mut Diagnostics,
) -> Result<Vec<NavMesh>, Failure> {
    let mut meshes = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mesh = match render(registry, input, diag) {
            Some(read) => read.map_err(Failure::from)?,
            None => crate::read_path(registry, input, None, read, diag)?.0,
        };
        meshes.push(mesh);
    }
    Ok(meshes)
}

/// Where the room `name` sits in the layout file `lyt` (`generate --lyt`), and its door hooks
/// in room coordinates; `None` when the layout has no such room.
pub fn layout_placement(lyt: &Path, name: &str) -> Result<Option<RoomPlacement>, Failure> {
    let bytes = walkmesh_core::files::read(lyt)
        .map_err(|e| Failure::in_context(format!("cannot read {}: ", lyt.display()), &e))?;
    let (layout, _) = walkmesh_kotor_area::lyt::read_lyt(&bytes)
        .map_err(|e| Failure::in_context(format!("{}: ", lyt.display()), &e))?;
    room_placement(&layout, name, lyt).map_err(Failure::from)
}

/// What a generated walkmesh is written as: the target format, and the layout room it is
/// placed at (with the layout file, named in errors).
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub format: &'a dyn Format,
    pub placement: Option<(&'a RoomPlacement, &'a Path)>,
}

impl std::fmt::Debug for Target<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("format", &self.format.descriptor().id)
            .finish_non_exhaustive()
    }
}

/// Why nothing was generated, or nothing is to be written.
#[derive(Debug)]
pub enum GenerateFailure {
    /// The generator refused (parameters, memory, limits).
    Generate(GenerateError),
    /// The layout places the room where 32-bit floats lose the millimetre.
    Place(String),
    /// No walkable floor was found; the report says what each stage kept.
    Empty(Box<Report>),
    /// A tile of a tiled target (TRX) still holds more walkable triangles than its path
    /// table can number: the limit findings' messages.
    OverFullTiles(Vec<String>),
    /// A placeable or door whose model stands nowhere within the agent's height: its
    /// walkmesh would have no face.
    NothingBlocked(ObjectKind),
}

impl std::fmt::Display for GenerateFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateFailure::Generate(error) => write!(f, "generate: {error}"),
            GenerateFailure::Place(message) => write!(f, "{message}"),
            GenerateFailure::Empty(report) => write!(
                f,
                "generate: no walkable floor was found, nothing written\n{}",
                report.text()
            ),
            GenerateFailure::OverFullTiles(over) => {
                write!(f, "generate: nothing written: {}", over.join("; "))
            }
            GenerateFailure::NothingBlocked(kind) => write!(
                f,
                "generate: the {} model has nothing within the agent's height above its lowest point, so its walkmesh would have no face; nothing written",
                kind.name()
            ),
        }
    }
}

impl walkmesh_core::Kinded for GenerateFailure {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            GenerateFailure::Generate(error) => error.kind(),
            GenerateFailure::Place(_) => ErrorKind::Invalid,
            // Geometry with no floor, or no object: the input is not one a walkmesh comes from.
            GenerateFailure::Empty(_) | GenerateFailure::NothingBlocked(_) => ErrorKind::Invalid,
            GenerateFailure::OverFullTiles(_) => ErrorKind::Limit,
        }
    }
}

/// Generates one walkmesh from `meshes` (combined into one scene, then dropped): with a
/// target, the limit checks it needs, its layout placement (whose door hooks are the seeds
/// when `params` has none) and the refusals before writing; without one (Python's
/// `walkmesh.generate`), every check and the mesh as generated. The report's lossy steps are
/// added to `diag` as warnings.
pub fn generate(
    meshes: Vec<NavMesh>,
    mut params: Params,
    target: Option<Target<'_>>,
    diag: &mut Diagnostics,
) -> Result<Generated, GenerateFailure> {
    if let Some(((_, hooks), _)) = target.and_then(|t| t.placement)
        && params.seeds.is_empty()
    {
        params.seeds = hooks.clone();
    }
    let scene = walkmesh_generate::combine(&meshes);
    drop(meshes);
    // The PATH writer cooks the mesh and refuses what the cook refuses: the limit check
    // need not cook it first (a second cook of a large mesh is seconds).
    let checks = match target {
        Some(target) if target.format.descriptor().capabilities.regions => Checks::WriterCooks,
        _ => Checks::All,
    };
    let mut generated = walkmesh_generate::generate_with(&scene, &params, checks)
        .map_err(GenerateFailure::Generate)?;
    if let Some(target) = target {
        generated = ready_to_write(generated, target)?;
    }
    generated.report.warn_lossy_steps(diag);
    Ok(generated)
}

/// Places the mesh in the layout's coordinates, then refuses an empty mesh and, for a tiled
/// target, a tile over its limit (named here, before anything is written: the TRX writer
/// would refuse it too, with the tile's index only).
fn ready_to_write(
    mut generated: Generated,
    target: Target<'_>,
) -> Result<Generated, GenerateFailure> {
    if let Some(((room, _), lyt)) = target.placement {
        walkmesh_kotor_area::placed::place(room, &mut generated.mesh.vertices, lyt)
            .map_err(|e| GenerateFailure::Place(e.to_string()))?;
    }
    if generated.mesh.polygons.is_empty() {
        return Err(GenerateFailure::Empty(Box::new(generated.report)));
    }
    let over: Vec<String> = generated
        .report
        .limits
        .iter()
        .filter(|l| l.code == "generate.nwn2_tile_over_limit")
        .map(|l| l.message.clone())
        .collect();
    if target.format.descriptor().capabilities.tiles && !over.is_empty() {
        return Err(GenerateFailure::OverFullTiles(over));
    }
    Ok(generated)
}

/// The object `generate` makes a walkmesh for: `kind` when given (`area`, `placeable`,
/// `door`; `--kind`, Python's `kind=`), else the output's extension (`.pwk` a placeable,
/// `.dwk` a door); `None` for a room (area) walkmesh.
pub fn object_kind(kind: Option<&str>, out: Option<&Path>) -> Result<Option<ObjectKind>, Failure> {
    if let Some(name) = kind {
        if name.eq_ignore_ascii_case("area") {
            return Ok(None);
        }
        return ObjectKind::from_name(name).map(Some).ok_or_else(|| {
            Failure::usage(format!(
                "generate: kind '{}' is none of area, placeable, door",
                walkmesh_core::printable::escape(name)
            ))
        });
    }
    let extension = out
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    Ok(match extension.as_deref() {
        Some("pwk") => Some(ObjectKind::Placeable),
        Some("dwk") => Some(ObjectKind::Door),
        _ => None,
    })
}

/// Generates a placeable's or door's walkmesh from `meshes` (combined into one model, then
/// dropped; `walkmesh_generate::generate_object`), refusing one with no face. The report's
/// lossy steps are added to `diag` as warnings (a door's open states among them).
pub fn generate_object(
    meshes: Vec<NavMesh>,
    params: Params,
    kind: ObjectKind,
    diag: &mut Diagnostics,
) -> Result<Generated, GenerateFailure> {
    let scene = walkmesh_generate::combine(&meshes);
    drop(meshes);
    let generated = walkmesh_generate::generate_object(&scene, &params, kind)
        .map_err(GenerateFailure::Generate)?;
    if generated.mesh.polygons.is_empty() {
        return Err(GenerateFailure::NothingBlocked(kind));
    }
    generated.report.warn_lossy_steps(diag);
    Ok(generated)
}
