//! A format research kit built on the field dumps every format already has: the field diff
//! (`walkmesh diff --fields`), corpus statistics (`walkmesh stats`) and Kaitai Struct specs
//! (`walkmesh spec`).

pub mod align;
pub mod alignment;
pub mod diff;
pub mod error;
pub mod fields;
pub mod spec;
pub mod stats;

pub use error::{ResearchError, SkipReason};
