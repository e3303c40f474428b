//! The `Format`, `Reader`, `Writer` and `Validator` traits, their options, and the registry
//! that detects a file's format (magic first, then extension, then content sniffing).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics, ReadError, WriteError};
use crate::dump::{DumpNode, FieldSink, TreeSink};
use crate::engine::{Capabilities, Engine};
use crate::ir::{MeshKind, NavMesh};
use crate::material::MaterialProfile;

/// Bytes at a fixed offset that identify a format; `mask` (same length) selects the bits
/// compared.
#[derive(Clone, Copy, Debug)]
pub struct Magic {
    pub offset: usize,
    pub bytes: &'static [u8],
    pub mask: Option<&'static [u8]>,
}

impl Magic {
    /// True when `head` carries this magic.
    pub fn matches(&self, head: &[u8]) -> bool {
        let Some(window) = head.get(self.offset..self.offset + self.bytes.len()) else {
            return false;
        };
        match self.mask {
            None => window == self.bytes,
            Some(mask) => window
                .iter()
                .zip(self.bytes)
                .zip(mask)
                .all(|((&have, &want), &mask)| have & mask == want & mask),
        }
    }
}

/// Sniff score of a magic match; content heuristics stay below it.
pub const MAGIC_SCORE: u8 = 100;

/// One input file: its bytes and, when it came from disk, its path (for sidecar files such
/// as glTF buffers and for error messages).
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    pub bytes: &'a [u8],
    pub path: Option<&'a Path>,
}

/// Which axis is up in a modelling-tool file (OBJ); the IR is always Z-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpAxis {
    /// Blender's OBJ default: file (x, y, z) = IR (x, z, −y).
    #[default]
    Y,
    /// Same axes as the IR.
    Z,
}

/// Options for reading.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    pub up: UpAxis,
    /// Replaces the format's embedded material profile.
    pub materials: Option<Arc<MaterialProfile>>,
    /// Replaces the profile's default material for unknown or missing names.
    pub default_material: Option<String>,
    /// Ceiling for decompressed payloads, in bytes.
    pub max_decompressed: u64,
    /// Format-specific settings (`"gltf:scene" = "1"`).
    pub params: BTreeMap<String, String>,
    /// Validators recompute the derived tables a file stores (path tables, island paths,
    /// …) and compare. `convert`'s check of the bytes it is about to write turns this
    /// off: our writer has just computed those tables with the same code (or, writing an
    /// unchanged file back, has just run the full validator on the stored ones: see
    /// [`crate::stored`]), so computing them again proves nothing and doubled the time of a
    /// re-bake. Structure, ranges, links and values are still checked; `walkmesh validate`
    /// and the corpus tests run the full check.
    pub recompute_derived: bool,
    /// Readers record where the mesh came from (`NavMesh::provenance`: the file's bytes,
    /// a fingerprint) so that an unchanged mesh is written back byte for byte. `convert`'s
    /// check of its own output turns this off: it only counts what it reads, and copying a
    /// 138 MB output into the provenance was a fifth of the page faults of a large OBJ → WOK.
    pub keep_provenance: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            up: UpAxis::Y,
            materials: None,
            default_material: None,
            max_decompressed: 256 * 1024 * 1024,
            params: BTreeMap::new(),
            recompute_derived: true,
            keep_provenance: true,
        }
    }
}

/// Options for writing.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    pub up: UpAxis,
    /// Replaces the format's embedded material profile.
    pub materials: Option<Arc<MaterialProfile>>,
    /// Recompute every derived table even when preserved ones are still fresh.
    pub rebuild: bool,
    /// Overrides the mesh kind (KotOR `.pwk`/`.dwk` output).
    pub kind: Option<MeshKind>,
    /// File name (no directory) of the main output, for formats that name sidecars after it.
    pub file_name: Option<String>,
    /// Format-specific settings (`"nwn2:template" = "area.trn"`).
    pub params: BTreeMap<String, String>,
}

/// A further file written beside the main output (OBJ `.mtl`, glTF `.bin`).
#[derive(Clone, Debug, PartialEq)]
pub struct Sidecar {
    /// File name, placed in the main output's directory.
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What a writer produced.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Output {
    pub main: Vec<u8>,
    pub sidecars: Vec<Sidecar>,
}

/// What must hold of a mesh before a writer sees it; [`crate::passes::prepare`] establishes
/// it on a copy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Requirements {
    /// Polygons must be triangles.
    pub triangles_only: bool,
    /// Walkable polygons must come first (stable order otherwise).
    pub walkable_first: bool,
    /// Weld vertices closer than this first (`Some(0.0)`: exactly equal positions).
    pub weld: Option<f32>,
    /// The target stores links between neighbouring polygons (game formats), so walkable
    /// edges that lie on each other without being linked are reported as a loss.
    pub links: bool,
}

impl Requirements {
    /// Nothing to prepare (the `Default`, as a `const` for [`WriteFn`]s).
    pub const NONE: Requirements = Requirements {
        triangles_only: false,
        walkable_first: false,
        weld: None,
        links: false,
    };
}

/// How to weld before writing, as the user asked (`walkmesh convert --weld off|exact|D`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum WeldChoice {
    /// The writer's requirement, else [`WeldChoice::Exact`] when the reader found the vertex
    /// sharing incidental ([`crate::VertexIdentity::Incidental`]: modelling-tool input), else
    /// nothing.
    #[default]
    Default,
    /// Never weld: keep vertex identity as read.
    Off,
    /// Merge vertices at equal positions, equal up to the rounding that `f32` transforms
    /// leave ([`rounding_tolerance`]): what a modeller sees as one place.
    Exact,
    /// Merge vertices within this distance (0: bit-identical positions only).
    Within(f32),
}

/// Why a weld setting ([`WeldChoice::parse`]) was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeldParseError {
    /// Neither `off`, `exact` nor a finite distance of 0 or more.
    #[error("'{text}' is not a weld setting: use off, exact, or a finite distance of 0 or more")]
    Invalid { text: String },
}

impl WeldChoice {
    /// Parses `off`, `exact` or a finite distance ≥ 0.
    pub fn parse(text: &str) -> Result<WeldChoice, WeldParseError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(WeldChoice::Off),
            "exact" => Ok(WeldChoice::Exact),
            other => match other.parse::<f32>() {
                Ok(d) if d.is_finite() && d >= 0.0 => Ok(WeldChoice::Within(d)),
                _ => Err(WeldParseError::Invalid {
                    text: text.to_string(),
                }),
            },
        }
    }

    /// The tolerance to weld `mesh` within before a writer with `requirements` sees it.
    pub fn tolerance(self, mesh: &NavMesh, requirements: &Requirements) -> Option<f32> {
        match self {
            WeldChoice::Off => None,
            WeldChoice::Exact => Some(rounding_tolerance(mesh)),
            WeldChoice::Within(d) => Some(d),
            WeldChoice::Default => requirements.weld.or((mesh.vertex_identity()
                == crate::ir::VertexIdentity::Incidental)
                .then(|| rounding_tolerance(mesh))),
        }
    }
}

/// How far apart two positions that a modeller made equal can come out of a tool: four
/// units in the last place of the mesh's largest coordinate. Tools store object transforms
/// in `f32` (Blender's glTF exporter writes a child's translation 4 as `4.0000005`), so a
/// vertex placed through a parent and a child lands a few ulps from the same vertex placed
/// through the parent alone. 0 for an empty mesh or one at the origin.
pub fn rounding_tolerance(mesh: &NavMesh) -> f32 {
    let largest = mesh
        .vertices
        .iter()
        .flatten()
        .filter(|c| c.is_finite())
        .fold(0f32, |m, c| m.max(c.abs()));
    if largest == 0.0 || largest == f32::MAX {
        return 0.0;
    }
    4.0 * (f32::from_bits(largest.to_bits() + 1) - largest)
}

/// Reads bytes into the IR.
pub trait Reader: Send + Sync {
    /// Decodes `input`; warnings go to `diag`. The returned mesh satisfies [`NavMesh::check`].
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError>;
}

/// Writes the IR as bytes.
pub trait Writer: Send + Sync {
    /// What the mesh must satisfy before [`Writer::write`].
    fn requirements(&self, options: &WriteOptions) -> Requirements;
    /// Encodes `mesh`; everything the format cannot store is reported in `diag`.
    fn write(
        &self,
        mesh: &NavMesh,
        options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError>;
}

/// Checks a file against its format's rules, beyond what reading needs.
pub trait Validator: Send + Sync {
    /// Findings for `input`; an `Err` means the file could not be examined at all.
    fn validate(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError>;

    /// [`Validator::validate`] and the format's [`Reader::read`] of the same bytes at once,
    /// for formats where both would first decode the whole file (an inflated packet): the
    /// file is decoded once. `None` (the default) when the format does not offer it; callers
    /// then run both. Read warnings go to `diag`.
    #[allow(clippy::type_complexity)]
    fn validate_and_read(
        &self,
        _input: Input<'_>,
        _options: &ReadOptions,
        _diag: &mut Diagnostics,
    ) -> Option<(
        Result<Vec<Diagnostic>, ReadError>,
        Result<NavMesh, ReadError>,
    )> {
        None
    }
}

/// Shows every stored field with its position.
pub trait Dumper: Send + Sync {
    /// Reports every stored field of `input` to `sink`, as it walks the file (the file is
    /// parsed first: an unreadable file fails before anything is reported).
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError>;

    /// The fields as a tree.
    fn dump(&self, input: Input<'_>, options: &ReadOptions) -> Result<DumpNode, ReadError> {
        let mut tree = TreeSink::new();
        self.dump_fields(input, options, &mut tree)?;
        Ok(tree.finish())
    }
}

/// A reading function, as most formats have one ([`ReadFn`]).
pub type ReadFunction =
    for<'a> fn(Input<'a>, &ReadOptions, &mut Diagnostics) -> Result<NavMesh, ReadError>;
/// A writing function ([`WriteFn`]).
pub type WriteFunction =
    fn(&NavMesh, &WriteOptions, &mut Diagnostics) -> Result<Output, WriteError>;
/// A validating function ([`ValidateFn`]).
pub type ValidateFunction =
    for<'a> fn(Input<'a>, &ReadOptions) -> Result<Vec<Diagnostic>, ReadError>;
/// A dumping function ([`DumpFn`]).
pub type DumpFunction =
    for<'a> fn(Input<'a>, &ReadOptions, &mut dyn FieldSink) -> Result<(), ReadError>;

/// A [`Reader`] that is one function: a format whose reading is a free function hands out
/// `&ReadFn(read_x)` (a `const` of its crate) instead of implementing [`Reader`] only to
/// forward to it.
#[derive(Clone, Copy, Debug)]
pub struct ReadFn(pub ReadFunction);

impl Reader for ReadFn {
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        (self.0)(input, options, diag)
    }
}

/// A [`Writer`] whose requirements do not depend on the options, and one writing function
/// (as [`ReadFn`]).
#[derive(Clone, Copy, Debug)]
pub struct WriteFn {
    pub requirements: Requirements,
    pub write: WriteFunction,
}

impl Writer for WriteFn {
    fn requirements(&self, _options: &WriteOptions) -> Requirements {
        self.requirements
    }
    fn write(
        &self,
        mesh: &NavMesh,
        options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError> {
        (self.write)(mesh, options, diag)
    }
}

/// A [`Validator`] that is one function (as [`ReadFn`]; no combined validate-and-read).
#[derive(Clone, Copy, Debug)]
pub struct ValidateFn(pub ValidateFunction);

impl Validator for ValidateFn {
    fn validate(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError> {
        (self.0)(input, options)
    }
}

/// A [`Dumper`] that is one function (as [`ReadFn`]).
#[derive(Clone, Copy, Debug)]
pub struct DumpFn(pub DumpFunction);

impl Dumper for DumpFn {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        (self.0)(input, options, sink)
    }
}

/// Reads a model's render geometry: the triangles drawn in game, which `walkmesh generate`
/// takes as its input. A model format's [`Reader`] gives the model's walkmesh instead (a
/// KotOR `.mdl` holds a copy of its room's WOK), which is never the generator's input.
/// Errors are the format's own (boxed), so that their messages name the file, offset and
/// field as the format words them.
pub trait RenderGeometryReader: Send + Sync {
    /// The render triangles of the model file at `path`, read with the sidecar files beside
    /// it (KotOR's `.mdx`). Reading notes go to `diag`.
    fn read_render_file(&self, path: &Path, diag: &mut Diagnostics) -> Result<NavMesh, BoxError>;
    /// The same of a model given as bytes: the model file and its sidecar (members of a
    /// module archive).
    fn read_render_bytes(
        &self,
        model: &[u8],
        sidecar: &[u8],
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, BoxError>;
}

/// A format's own error, boxed with its kind ([`RenderGeometryReader`]).
pub type BoxError = Box<dyn crate::diag::KindedError>;

/// What a format declares of itself, as data: a `const` of its crate
/// (`walkmesh_bwm::DESCRIPTOR`). Detection, `walkmesh formats`, `lint`, `route`, `view`,
/// the command line's flags and the Python keywords read it here; what the format does is
/// in its roles ([`Format::reader`] …).
#[derive(Clone, Copy, Debug)]
pub struct FormatDescriptor {
    /// Short id used by `--from`/`--to` (`bwm`, `obj`).
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// Lower-case extensions without the dot; the first names written files
    /// (`walkmesh_pipeline`'s output names).
    pub extensions: &'static [&'static str],
    /// Magic numbers, if the format has any ([`Format::sniff`] compares them).
    pub magic: &'static [Magic],
    /// The engine whose rules this format's files follow: `lint` picks its levels and slope
    /// limit by it, `route` its engine tables.
    pub engine: Engine,
    /// What this format's files store beyond the neutral mesh: `view`, `route` and
    /// `convert` look here instead of at the format's id.
    pub capabilities: Capabilities,
    /// The text (RON) of the material profile embedded for this format, for users to copy
    /// and edit (`walkmesh profiles`); `None` when the format uses the neutral profile
    /// ([`crate::material::NEUTRAL_RON`]).
    pub material_profile: Option<&'static str>,
    /// The writer parameters this format takes (`WriteOptions::params`), declared once: the
    /// command line makes its `convert` flags of them and the Python package its keyword
    /// arguments, with the same names, checks and help.
    pub params: &'static [Param],
    /// The cargo feature of `walkmesh-formats` that brings the format in (a format of
    /// another crate names that crate): a build without it says so
    /// ([`DetectError::LeftOut`]).
    pub feature: &'static str,
}

impl FormatDescriptor {
    /// A descriptor declaring only its names: no magic, no engine ([`Engine::Generic`]),
    /// nothing stored beyond the mesh, the neutral profile, no parameters. A format's
    /// `const` starts from it (`..FormatDescriptor::new(id, name, extensions, feature)`), so
    /// that it writes out only what it declares.
    pub const fn new(
        id: &'static str,
        name: &'static str,
        extensions: &'static [&'static str],
        feature: &'static str,
    ) -> FormatDescriptor {
        FormatDescriptor {
            id,
            name,
            extensions,
            magic: &[],
            engine: Engine::Generic,
            capabilities: Capabilities::NONE,
            material_profile: None,
            params: &[],
            feature,
        }
    }

    /// [`MAGIC_SCORE`] when `head` carries one of the format's magic numbers, else 0.
    pub fn magic_score(&self, head: &[u8]) -> u8 {
        if self.magic.iter().any(|magic| magic.matches(head)) {
            MAGIC_SCORE
        } else {
            0
        }
    }

    /// Whether the format claims `extension` (lower case, no dot).
    pub fn claims(&self, extension: &str) -> bool {
        self.extensions.contains(&extension)
    }
}

/// A file format: its [`FormatDescriptor`] and the roles it plays. Every role is optional
/// (none by default); a format implements those it has.
pub trait Format: Send + Sync {
    /// What the format declares of itself (a `const` of its crate).
    fn descriptor(&self) -> &'static FormatDescriptor;
    /// How sure we are that `head` (the first bytes; `total_len` is the whole length) is this
    /// format: [`MAGIC_SCORE`] for a magic match, less for content heuristics, 0 for no. By
    /// default the descriptor's magic decides; a format without magic, or with a text form
    /// beside its binary one, overrides it.
    fn sniff(&self, head: &[u8], _total_len: u64) -> u8 {
        self.descriptor().magic_score(head)
    }
    fn reader(&self) -> Option<&dyn Reader> {
        None
    }
    fn writer(&self) -> Option<&dyn Writer> {
        None
    }
    fn validator(&self) -> Option<&dyn Validator> {
        None
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        None
    }
    /// The model's render geometry, for `walkmesh generate` (a model format whose
    /// [`Reader`] gives something else: [`RenderGeometryReader`]).
    fn render_geometry(&self) -> Option<&dyn RenderGeometryReader> {
        None
    }
}

/// A writer parameter a format declares ([`FormatDescriptor::params`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The key in [`WriteOptions::params`] (`prime:region_height`).
    pub key: &'static str,
    /// The option's name, words joined by `_` (`region_height`): the command line's flag is
    /// `--region-height`, the Python keyword `region_height`.
    pub name: &'static str,
    pub kind: ParamKind,
    /// What the writer uses when the parameter is not given, as text (`1.0`); `None` when
    /// leaving it out means "none" (no template).
    pub default: Option<&'static str>,
    /// The value's name in help (`HEIGHT`).
    pub value_name: &'static str,
    /// One paragraph of help, without a final full stop (as clap shows help lines).
    pub help: &'static str,
}

/// What a parameter's value is, and the values it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A file read by the writer (reported as a dependency of the output).
    File,
    /// A whole number within `min..=max`.
    Integer { min: u64, max: u64 },
    /// A finite number greater than 0.
    Positive,
    /// A finite number of 0 or more.
    NonNegative,
    /// A fraction within 0 and 1.
    Fraction,
}

impl ParamKind {
    /// Whether a number given for a parameter of this kind is accepted.
    pub fn accepts(self, value: f64) -> bool {
        match self {
            ParamKind::File => false,
            ParamKind::Integer { min, max } => {
                value.fract() == 0.0 && value >= min as f64 && value <= max as f64
            }
            ParamKind::Positive => value.is_finite() && value > 0.0,
            ParamKind::NonNegative => value.is_finite() && value >= 0.0,
            ParamKind::Fraction => value.is_finite() && (0.0..=1.0).contains(&value),
        }
    }

    /// What a value must be, for messages (`VALUE is not …`).
    pub fn expected(self) -> String {
        match self {
            ParamKind::File => "a file".to_string(),
            ParamKind::Integer { min, max } => format!("within {min}–{max}"),
            ParamKind::Positive => "a finite number > 0".to_string(),
            ParamKind::NonNegative => "a finite number ≥ 0".to_string(),
            ParamKind::Fraction => "a fraction within 0–1".to_string(),
        }
    }
}

/// Why a format could not be chosen.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DetectError {
    #[error("unknown format id '{0}'; `walkmesh formats` lists the ids")]
    UnknownId(String),
    #[error(
        "cannot tell the format of {0}: no known magic bytes or extension; name it with --from"
    )]
    Undetected(String),
    #[error(
        "no format writes the extension of {0}; name one with --to (`walkmesh formats` lists them)"
    )]
    NoWriterForExtension(String),
    /// The format asked for (by id or by the extension of `what`) is one this build was
    /// compiled without ([`Registry::note_left_out`]).
    #[error(
        "{what}: the {id} format is left out of this build (cargo feature `{feature}`); `walkmesh formats` lists what it has"
    )]
    LeftOut {
        what: String,
        id: &'static str,
        feature: &'static str,
    },
}

/// A format this build knows of but was compiled without (its cargo feature turned off): a
/// request for it by id or extension is refused saying so, instead of as an unknown format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeftOut {
    pub id: &'static str,
    pub extensions: &'static [&'static str],
    /// The cargo feature that would bring it in.
    pub feature: &'static str,
    /// The format reads models' render geometry ([`Format::render_geometry`]): a model with
    /// one of its extensions is refused as such ([`Registry::render_geometry_for`]) instead of
    /// being read as some other file.
    pub render_geometry: bool,
}

/// The set of known formats.
#[derive(Default)]
pub struct Registry {
    formats: Vec<Box<dyn Format>>,
    left_out: Vec<LeftOut>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.formats.iter().map(|format| format.descriptor().id))
            .finish()
    }
}

fn extension_of(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a format after those already registered. Registration order decides ties (see
    /// [`Registry::detect`], [`Registry::by_id`], [`Registry::for_output`]) and is the order
    /// `walkmesh formats` lists.
    pub fn register(&mut self, format: Box<dyn Format>) {
        self.formats.push(format);
    }

    /// Notes a format this build leaves out, so that asking for it names the feature
    /// (`walkmesh_formats::default_registry` notes every built-in format whose feature is
    /// off). It never takes part in detection.
    pub fn note_left_out(&mut self, left_out: LeftOut) {
        self.left_out.push(left_out);
    }

    /// The left-out format with id `id`, or claiming `path`'s extension, as the error to give.
    fn left_out_error(&self, id: Option<&str>, path: Option<&Path>) -> Option<DetectError> {
        let extension = path.and_then(extension_of);
        let found = self.left_out.iter().find(|left| {
            id.is_some_and(|id| left.id.eq_ignore_ascii_case(id))
                || extension
                    .as_deref()
                    .is_some_and(|e| left.extensions.contains(&e))
        })?;
        let what = match (id, path) {
            (Some(id), _) => format!("format id '{id}'"),
            (None, Some(path)) => path.display().to_string(),
            (None, None) => String::new(),
        };
        Some(DetectError::LeftOut {
            what,
            id: found.id,
            feature: found.feature,
        })
    }

    /// All formats, in registration order.
    pub fn formats(&self) -> impl Iterator<Item = &dyn Format> {
        self.formats.iter().map(|f| f.as_ref())
    }

    /// The writer parameters every format declares, in registration order, each name once
    /// (the first format declaring a name decides it).
    pub fn params(&self) -> Vec<&'static Param> {
        let mut all: Vec<&'static Param> = Vec::new();
        for param in self.formats().flat_map(|f| f.descriptor().params) {
            if !all.iter().any(|p| p.name == param.name) {
                all.push(param);
            }
        }
        all
    }

    /// The format with id `id` (case-insensitive); the **first** registered one when two
    /// share an id.
    pub fn by_id(&self, id: &str) -> Result<&dyn Format, DetectError> {
        self.formats()
            .find(|f| f.descriptor().id.eq_ignore_ascii_case(id))
            .ok_or_else(|| {
                self.left_out_error(Some(id), None)
                    .unwrap_or_else(|| DetectError::UnknownId(id.to_string()))
            })
    }

    /// The engine of the format with id `id` ([`Engine::Generic`] when none has that id).
    pub fn engine_of(&self, id: &str) -> Engine {
        self.by_id(id)
            .map_or(Engine::Generic, |f| f.descriptor().engine)
    }

    /// The capabilities of the format with id `id` (none when no format has that id).
    pub fn capabilities_of(&self, id: &str) -> Capabilities {
        self.by_id(id)
            .map_or(Capabilities::NONE, |f| f.descriptor().capabilities)
    }

    /// The format `engine`'s area rooms are read and written in: the **first** registered
    /// format of that engine that reads and writes and whose files link rooms (edges carry
    /// transitions, [`Capabilities::transitions`]). KotOR's is BWM (`.wok`); a KotOR model
    /// (`mdl`) stores no transitions and is no room walkmesh. `None` when the registry has
    /// none (a build without BWM).
    pub fn room_walkmesh(&self, engine: Engine) -> Option<&dyn Format> {
        self.formats().find(|f| {
            f.descriptor().engine == engine
                && f.descriptor().capabilities.transitions
                && f.reader().is_some()
                && f.writer().is_some()
        })
    }

    /// Formats claiming `path`'s extension (case-insensitive).
    pub fn by_extension(&self, path: &Path) -> impl Iterator<Item = &dyn Format> {
        let extension = extension_of(path);
        self.formats().filter(move |f| {
            extension
                .as_deref()
                .is_some_and(|e| f.descriptor().claims(e))
        })
    }

    /// What reads the render geometry of the model at `path` (by its extension, as
    /// `walkmesh generate` has always told models from other inputs): the **first**
    /// registered format claiming the extension with a [`RenderGeometryReader`]. `Ok(None)`
    /// when none claims it (the file is no model: its [`Reader`] gives its triangles); `Err`
    /// with the left-out format that would read it when the build leaves it out.
    pub fn render_geometry_for(
        &self,
        path: &Path,
    ) -> Result<Option<&dyn RenderGeometryReader>, &LeftOut> {
        if let Some(found) = self.by_extension(path).find_map(|f| f.render_geometry()) {
            return Ok(Some(found));
        }
        let extension = extension_of(path);
        let left_out = self.left_out.iter().find(|left| {
            left.render_geometry
                && extension
                    .as_deref()
                    .is_some_and(|e| left.extensions.contains(&e))
        });
        left_out.map_or(Ok(None), Err)
    }

    /// Detects the format of an input, in three steps:
    ///
    /// 1. **Magic**: among formats whose [`Format::sniff`] scores at least [`MAGIC_SCORE`],
    ///    the highest score wins; on equal scores the format registered **last** wins
    ///    (`Iterator::max_by_key` keeps the last maximum).
    /// 2. **Extension**: among formats listing the path's extension (case-insensitive), the
    ///    highest sniff score wins (0 counts: a claimed extension is enough); on equal scores
    ///    the one registered **last** wins.
    /// 3. **Sniff**: among all formats scoring above 0, the highest wins; ties again go to the
    ///    one registered last.
    ///
    /// Otherwise [`DetectError::Undetected`].
    pub fn detect(
        &self,
        path: &Path,
        head: &[u8],
        total_len: u64,
    ) -> Result<&dyn Format, DetectError> {
        let scored: Vec<(u8, &dyn Format)> = self
            .formats()
            .map(|f| (f.sniff(head, total_len), f))
            .collect();
        if let Some((_, format)) = scored
            .iter()
            .filter(|(score, _)| *score >= MAGIC_SCORE)
            .max_by_key(|(score, _)| *score)
        {
            return Ok(*format);
        }
        // Among formats claiming the extension, prefer one whose content check agrees.
        let by_extension: Vec<&dyn Format> = self.by_extension(path).collect();
        if let Some(format) = by_extension.iter().max_by_key(|f| f.sniff(head, total_len)) {
            return Ok(*format);
        }
        scored
            .into_iter()
            .filter(|(score, _)| *score > 0)
            .max_by_key(|(score, _)| *score)
            .map(|(_, f)| f)
            .ok_or_else(|| {
                self.left_out_error(None, Some(path))
                    .unwrap_or_else(|| DetectError::Undetected(path.display().to_string()))
            })
    }

    /// The writer format for an output path: the **first** registered format that lists
    /// the extension and has a writer.
    pub fn for_output(&self, path: &Path) -> Result<&dyn Format, DetectError> {
        self.by_extension(path)
            .find(|f| f.writer().is_some())
            .ok_or_else(|| {
                self.left_out_error(None, Some(path)).unwrap_or_else(|| {
                    DetectError::NoWriterForExtension(path.display().to_string())
                })
            })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    struct Fake {
        descriptor: &'static FormatDescriptor,
        text_score: u8,
    }

    const BWM_MAGIC: &[Magic] = &[Magic {
        offset: 0,
        bytes: b"BWM V1.0",
        mask: None,
    }];
    const BIN: FormatDescriptor = FormatDescriptor {
        magic: BWM_MAGIC,
        ..FormatDescriptor::new("bin", "bin", &["bin", "wok"], "bin")
    };
    const TEXT: FormatDescriptor = FormatDescriptor::new("text", "text", &["obj"], "text");
    const LATER: FormatDescriptor = FormatDescriptor {
        magic: BWM_MAGIC,
        ..FormatDescriptor::new("later", "later", &["wok"], "later")
    };

    impl Format for Fake {
        fn descriptor(&self) -> &'static FormatDescriptor {
            self.descriptor
        }
        fn sniff(&self, head: &[u8], _len: u64) -> u8 {
            match self.descriptor.magic_score(head) {
                0 if head.starts_with(b"v ") => self.text_score,
                score => score,
            }
        }
    }

    fn registry() -> Registry {
        let mut registry = Registry::new();
        registry.register(Box::new(Fake {
            descriptor: &BIN,
            text_score: 0,
        }));
        registry.register(Box::new(Fake {
            descriptor: &TEXT,
            text_score: 10,
        }));
        registry
    }

    #[test]
    fn magic_beats_extension_and_extension_beats_heuristics() {
        let registry = registry();
        assert_eq!(
            registry
                .detect(Path::new("a.obj"), b"BWM V1.0....", 100)
                .unwrap()
                .descriptor()
                .id,
            "bin"
        );
        assert_eq!(
            registry
                .detect(Path::new("a.WOK"), b"garbage", 7)
                .unwrap()
                .descriptor()
                .id,
            "bin"
        );
        assert_eq!(
            registry
                .detect(Path::new("a.txt"), b"v 1 2 3", 7)
                .unwrap()
                .descriptor()
                .id,
            "text"
        );
        assert!(matches!(
            registry.detect(Path::new("a.txt"), b"zzz", 3),
            Err(DetectError::Undetected(_))
        ));
        assert_eq!(registry.by_id("TEXT").unwrap().descriptor().id, "text");
        assert!(registry.by_id("nope").is_err());
    }

    #[test]
    fn ties_go_to_the_format_registered_last_except_by_id_and_for_output() {
        let mut registry = registry();
        // A second binary format with the same magic and extension, registered later.
        registry.register(Box::new(Fake {
            descriptor: &LATER,
            text_score: 0,
        }));
        let magic = registry.detect(Path::new("a.x"), b"BWM V1.0", 8).unwrap();
        assert_eq!(magic.descriptor().id, "later");
        let extension = registry.detect(Path::new("a.wok"), b"zzz", 3).unwrap();
        assert_eq!(extension.descriptor().id, "later");
        // by_id and for_output take the first: here only "bin" has the id.
        assert_eq!(registry.by_id("BIN").unwrap().descriptor().id, "bin");
        assert!(registry.for_output(Path::new("a.wok")).is_err());
        assert_eq!(registry.engine_of("bin"), Engine::Generic);
        assert_eq!(registry.capabilities_of("nope"), Capabilities::NONE);
    }

    #[test]
    fn a_format_left_out_of_the_build_is_named_with_its_feature() {
        let mut registry = registry();
        registry.note_left_out(LeftOut {
            id: "trx",
            extensions: &["trx", "trn"],
            feature: "nwn2",
            render_geometry: false,
        });
        let by_id = registry.by_id("TRX").err().unwrap();
        assert!(
            by_id.to_string().contains("cargo feature `nwn2`"),
            "{by_id}"
        );
        let detected = registry
            .detect(Path::new("a.trn"), b"zzz", 3)
            .err()
            .unwrap();
        assert!(matches!(detected, DetectError::LeftOut { id: "trx", .. }));
        let output = registry.for_output(Path::new("b.TRX")).err().unwrap();
        assert!(
            output.to_string().starts_with("b.TRX: the trx format"),
            "{output}"
        );
        // Detection of what the build has is unchanged.
        assert_eq!(
            registry
                .detect(Path::new("a.trx"), b"v 1 2 3", 7)
                .unwrap()
                .descriptor()
                .id,
            "text"
        );
        assert!(matches!(
            registry.by_id("nope"),
            Err(DetectError::UnknownId(_))
        ));
    }

    /// A model format's render role, found by the model's extension: not by any other
    /// format's extension, and a left-out model format is named instead.
    struct Model;

    impl RenderGeometryReader for Model {
        fn read_render_file(&self, _: &Path, _: &mut Diagnostics) -> Result<NavMesh, BoxError> {
            Ok(NavMesh::default())
        }
        fn read_render_bytes(
            &self,
            _: &[u8],
            _: &[u8],
            _: &mut Diagnostics,
        ) -> Result<NavMesh, BoxError> {
            Err(Box::new(ReadError::whole("model", "bytes")))
        }
    }

    const MODEL: FormatDescriptor = FormatDescriptor::new("model", "model", &["mdl"], "model");

    impl Format for Model {
        fn descriptor(&self) -> &'static FormatDescriptor {
            &MODEL
        }
        fn render_geometry(&self) -> Option<&dyn RenderGeometryReader> {
            Some(self)
        }
    }

    #[test]
    fn render_geometry_is_found_by_role_and_extension() {
        let mut registry = registry();
        let model = Path::new("room.MDL");
        assert!(matches!(registry.render_geometry_for(model), Ok(None)));
        registry.note_left_out(LeftOut {
            id: "model",
            extensions: &["mdl"],
            feature: "models",
            render_geometry: true,
        });
        let left_out = registry.render_geometry_for(model).err().unwrap();
        assert_eq!(left_out.feature, "models");
        registry.register(Box::new(Model));
        let found = registry.render_geometry_for(model).unwrap().unwrap();
        let mut diag = Diagnostics::new();
        assert!(found.read_render_file(model, &mut diag).is_ok());
        // Files of formats without the role are no models.
        for other in ["a.obj", "a.wok", "a"] {
            assert!(matches!(
                registry.render_geometry_for(Path::new(other)),
                Ok(None)
            ));
        }
    }

    #[test]
    fn masked_magic_compares_selected_bits() {
        let magic = Magic {
            offset: 1,
            bytes: &[0xA0, 0x0F],
            mask: Some(&[0xF0, 0x0F]),
        };
        assert!(magic.matches(&[0, 0xAB, 0xCF]));
        assert!(!magic.matches(&[0, 0xBB, 0xCF]));
        assert!(!magic.matches(&[0, 0xAB]));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod weld_tests {
    use super::*;
    use crate::ir::{Provenance, VertexIdentity};

    #[test]
    fn weld_choice_parses_and_defaults_by_vertex_identity() {
        assert_eq!(WeldChoice::parse("off"), Ok(WeldChoice::Off));
        assert_eq!(WeldChoice::parse("EXACT"), Ok(WeldChoice::Exact));
        assert_eq!(WeldChoice::parse("0.01"), Ok(WeldChoice::Within(0.01)));
        assert_eq!(WeldChoice::parse("0"), Ok(WeldChoice::Within(0.0)));
        for bad in ["-1", "nan", "inf", "", "weld"] {
            assert!(WeldChoice::parse(bad).is_err(), "{bad}");
        }
        let refused = WeldChoice::parse("weld").unwrap_err();
        assert_eq!(
            refused,
            WeldParseError::Invalid {
                text: "weld".into()
            }
        );
        assert_eq!(
            refused.to_string(),
            "'weld' is not a weld setting: use off, exact, or a finite distance of 0 or more"
        );
        let mut mesh = NavMesh {
            vertices: vec![[8.0, -3.0, 0.0], [0.5, 0.0, 0.0]],
            ..NavMesh::default()
        };
        // ulp(8) = 2^-20; four of them.
        assert_eq!(rounding_tolerance(&mesh), 4.0 * 2f32.powi(-20));
        let none = Requirements::default();
        let bwm = Requirements {
            weld: Some(0.5),
            ..Requirements::default()
        };
        assert_eq!(WeldChoice::Default.tolerance(&mesh, &none), None);
        assert_eq!(WeldChoice::Default.tolerance(&mesh, &bwm), Some(0.5));
        mesh.provenance = Some(Provenance {
            vertex_identity: VertexIdentity::Incidental,
            ..Provenance::default()
        });
        assert_eq!(
            WeldChoice::Default.tolerance(&mesh, &none),
            Some(4.0 * 2f32.powi(-20))
        );
        assert_eq!(WeldChoice::Off.tolerance(&mesh, &none), None);
        assert_eq!(WeldChoice::Within(0.0).tolerance(&mesh, &none), Some(0.0));
        assert_eq!(rounding_tolerance(&NavMesh::default()), 0.0);
    }
}

impl crate::Kinded for WeldParseError {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Parameter
    }
}

impl crate::Kinded for DetectError {
    fn kind(&self) -> crate::ErrorKind {
        match self {
            DetectError::UnknownId(_) | DetectError::NoWriterForExtension(_) => {
                crate::ErrorKind::Parameter
            }
            DetectError::Undetected(_) | DetectError::LeftOut { .. } => {
                crate::ErrorKind::Unsupported
            }
        }
    }
}
