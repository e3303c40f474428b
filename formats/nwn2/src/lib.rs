//! Neverwinter Nights 2 terrain files (`.trn`/`.trx`) and their ASWM walkmesh packet.
//!
//! * [`container`]: the `NWN2` container (header, packet directory, packets; TRWH parsed,
//!   TRRN/WATR/unknown packets kept as opaque bytes).
//! * [`aswm`]: the walkmesh packet (`COMP` + zlib, versions 0x69–0x6c read, 0x6c written).
//! * [`read`]: ASWM → IR; [`write`]: IR → file (byte-identical preserve, or bake).
//! * [`bake`]: edges, tiles, path tables, islands and island paths as the toolset computes them.
//! * [`validate`]: the format's invariants with stable `trx.*` codes; [`dump`]: every field.

pub mod aswm;
pub mod bake;
mod bin;
pub mod container;
pub mod deflate;
pub mod dump;
pub mod file;
pub mod read;
pub mod validate;
pub mod write;

use walkmesh_core::dump::FieldSink;
use walkmesh_core::format::Dumper;
use walkmesh_core::{
    Capabilities, Diagnostic, Diagnostics, Engine, Format, FormatDescriptor, Input, Magic, NavMesh,
    Param, ParamKind, ReadError, ReadFn, ReadOptions, Reader, Requirements, Validator, WriteFn,
    Writer,
};

pub use read::read_trx;
pub use write::write_trx;

/// The NWN2 TRN/TRX container.
#[derive(Debug, Default, Clone, Copy)]
pub struct TrxFormat;

/// What the container declares: NWN2's rules, tiles and islands, the engine's tables, and
/// the writer's [`PARAMS`].
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    magic: &[Magic {
        offset: 0,
        bytes: b"NWN2",
        mask: None,
    }],
    engine: Engine::Nwn2,
    capabilities: Capabilities {
        tiles: true,
        engine_tables: true,
        ..Capabilities::NONE
    },
    material_profile: Some(read::NWN2_RON),
    params: PARAMS,
    ..FormatDescriptor::new(
        "trx",
        "Neverwinter Nights 2 terrain (TRN/TRX, ASWM walkmesh)",
        &["trx", "trn"],
        "nwn2",
    )
};

/// What the writer asks of a mesh: ASWM stores triangles; vertex indices are kept as they
/// are (no welding, so that a TRX keeps its own vertex list and a preserved file stays
/// byte-identical).
pub const REQUIREMENTS: Requirements = Requirements {
    triangles_only: true,
    walkable_first: false,
    weld: None,
    links: true,
};

/// The writer: [`write_trx`] after [`REQUIREMENTS`].
const WRITER: WriteFn = WriteFn {
    requirements: REQUIREMENTS,
    write: write_trx,
};

impl Format for TrxFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(&ReadFn(read_trx))
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(&WRITER)
    }
    fn validator(&self) -> Option<&dyn Validator> {
        Some(self)
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        Some(self)
    }
}

/// The writer's parameters (`walkmesh convert --template/--compression`, the Python keywords
/// `template=`, `compression=`).
pub const PARAMS: &[Param] = &[
    Param {
        key: "nwn2:template",
        name: "template",
        kind: ParamKind::File,
        default: None,
        value_name: "FILE",
        help: "NWN2: a .trn/.trx whose other packets (terrain, water) are kept around the baked walkmesh",
    },
    Param {
        key: "nwn2:zlib_level",
        name: "compression",
        kind: ParamKind::Integer { min: 0, max: 9 },
        default: Some("6"),
        value_name: "LEVEL",
        help: "NWN2: zlib level of the walkmesh packet, 0 (stored, fastest) to 9 (smallest); default 6, zlib's own default. The game reads every level; see docs/performance.md for the time and size of each",
    },
];

impl Validator for TrxFormat {
    fn validate(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError> {
        validate::validate_bytes(input.bytes, options)
    }

    /// One inflate and one parse for both: checking a re-baked area's output otherwise
    /// inflates its multi-megabyte packet twice.
    fn validate_and_read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Option<(
        Result<Vec<Diagnostic>, ReadError>,
        Result<NavMesh, ReadError>,
    )> {
        Some(validate::validate_and_read(input, options, diag))
    }
}

impl Dumper for TrxFormat {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        dump::dump_fields(input.bytes, options, sink)
    }
}
