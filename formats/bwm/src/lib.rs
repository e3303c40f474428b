//! KotOR binary walkmesh (`BWM V1.0`: `.wok` area, `.pwk` placeable, `.dwk` door).
//!
//! - [`read_bwm`]: every table is bounds-checked before anything is allocated; the IR gets the
//!   authored data, the whole input is kept as provenance.
//! - [`write_bwm`]: re-emits the input bytes while the mesh is unchanged, otherwise rebuilds
//!   every derived table the way game files have them (see `docs/formats/bwm.md`).
//! - [`validate_bwm`]: findings with stable `bwm.*` codes; [`dump_bwm`]: every field with its
//!   byte offset.

pub mod derived;
mod dump;
pub mod layout;
pub mod profile;
mod read;
pub mod sidecar;
#[cfg(feature = "testing")]
pub mod synthetic;
mod validate;
mod write;

pub use dump::{dump_bwm, dump_bwm_fields};
pub use read::{ABSOLUTE_EXTRAS, HOOK_NAMES, read_bwm};
pub use validate::validate_bwm;
pub use write::{Tables, output_kind, rebuild_tables, serialize, write_bwm};

use walkmesh_core::dump::FieldSink;
use walkmesh_core::format::{Dumper, Validator};
use walkmesh_core::{
    Capabilities, DumpFn, Engine, Format, FormatDescriptor, Input, Magic, ReadError, ReadFn,
    ReadOptions, Reader, Requirements, ValidateFn, WriteFn, Writer,
};

/// The KotOR BWM format.
#[derive(Debug, Default, Clone, Copy)]
pub struct BwmFormat;

/// What BWM declares: KotOR's rules, transitions, an AABB tree and the engine's tables.
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    magic: &[Magic {
        offset: 0,
        bytes: b"BWM V1.0",
        mask: None,
    }],
    engine: Engine::Kotor,
    capabilities: Capabilities {
        transitions: true,
        aabb_tree: true,
        engine_tables: true,
        ..Capabilities::NONE
    },
    material_profile: Some(profile::KOTOR_RON),
    ..FormatDescriptor::new(
        "bwm",
        "KotOR binary walkmesh (BWM V1.0)",
        &["wok", "pwk", "dwk", "bwm"],
        "bwm",
    )
};

/// What the writer asks of a mesh: triangles, walkable first. The writer applies the KotOR
/// profile's walkability itself (and reorders again if that differs from the mesh's flags),
/// so this is only a hint.
pub const REQUIREMENTS: Requirements = Requirements {
    triangles_only: true,
    walkable_first: true,
    weld: None,
    links: true,
};

/// The writer: [`write_bwm`] after [`REQUIREMENTS`].
const WRITER: WriteFn = WriteFn {
    requirements: REQUIREMENTS,
    write: write_bwm,
};

/// The dump with the user's profile, else KotOR's, naming each face's material.
fn dump_fields(
    input: Input<'_>,
    options: &ReadOptions,
    sink: &mut dyn FieldSink,
) -> Result<(), ReadError> {
    let profile = profile::choose(options.materials.as_ref());
    dump_bwm_fields(input.bytes, &profile, sink)
}

impl Format for BwmFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(&ReadFn(read_bwm))
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(&WRITER)
    }
    fn validator(&self) -> Option<&dyn Validator> {
        Some(&ValidateFn(validate_bwm))
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        Some(&DumpFn(dump_fields))
    }
}
