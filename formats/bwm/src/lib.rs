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
    Capabilities, Diagnostic, Diagnostics, Engine, Format, FormatDescriptor, Input, Magic, NavMesh,
    Output, ReadError, ReadOptions, Reader, Requirements, WriteError, WriteOptions, Writer,
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

impl Format for BwmFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(self)
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(self)
    }
    fn validator(&self) -> Option<&dyn Validator> {
        Some(self)
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        Some(self)
    }
}

impl Reader for BwmFormat {
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        read_bwm(input, options, diag)
    }
}

impl Writer for BwmFormat {
    /// Triangles, walkable first. The writer applies the KotOR profile's walkability itself
    /// (and reorders again if that differs from the mesh's flags), so this is only a hint.
    fn requirements(&self, _options: &WriteOptions) -> Requirements {
        Requirements {
            triangles_only: true,
            walkable_first: true,
            weld: None,
            links: true,
        }
    }
    fn write(
        &self,
        mesh: &NavMesh,
        options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError> {
        write_bwm(mesh, options, diag)
    }
}

impl Validator for BwmFormat {
    fn validate(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError> {
        validate_bwm(input, options)
    }
}

impl Dumper for BwmFormat {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        let profile = profile::choose(options.materials.as_ref());
        dump_bwm_fields(input.bytes, &profile, sink)
    }
}
