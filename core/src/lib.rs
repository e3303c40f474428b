//! walkmesh-core: the neutral `NavMesh` representation shared by every walkmesh format,
//! the `Format`/`Reader`/`Writer` traits, the format registry, diagnostics, material
//! profiles and the format-neutral geometry passes (welding, triangulation, adjacency,
//! boundary loops, components, planes, walkable-first reordering).
//!
//! Core depends on no format crate; format crates depend on core only.

pub mod confine;
pub mod cursor;
pub mod diag;
pub mod dump;
pub mod engine;
pub mod files;
pub mod fingerprint;
pub mod flatdump;
pub mod format;
pub mod ir;
pub mod json;
pub mod material;
pub mod memory;
pub mod passes;
pub mod printable;
pub mod progress;
pub mod slope;
pub mod stored;
pub mod summary;
pub mod threads;
pub mod validate;

pub use diag::{
    Diagnostic, Diagnostics, ErrorKind, Kinded, KindedError, Location, Position, ReadError,
    Severity, WriteError,
};
pub use engine::{Capabilities, Engine};
pub use format::{
    BoxError, DumpFn, Format, FormatDescriptor, Input, LeftOut, Magic, Output, Param, ParamKind,
    ReadFn, ReadOptions, Reader, Registry, RenderGeometryReader, Requirements, Sidecar, UpAxis,
    ValidateFn, Validator, WeldChoice, WeldParseError, WriteFn, WriteOptions, Writer,
    rounding_tolerance,
};
pub use ir::{
    Attribute, EdgeRef, EdgeTag, Extra, Hook, MeshCheckError, MeshKind, NavMesh, Polygons,
    Provenance, Surface, TileGrid, VertexIdentity,
};
pub use material::{Encoded, Material, MaterialChanges, MaterialProfile, ProfileEntry};
#[cfg(feature = "testing")]
pub mod testing;
