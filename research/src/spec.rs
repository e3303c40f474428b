//! Kaitai Struct specs of the binary formats, for people researching them.
//!
//! Our readers have no declarative layout description to generate a spec from: each walks its
//! file in code (the BWM reader through the offsets of `layout.rs`, PATH and ASWM with a
//! cursor). So the specs are written by hand in `specs/`, with field names that match the paths
//! of `walkmesh dump --format flat`, and CI checks them against the readers: the peer check
//! `.ci/peers/kaitai.sh` compiles each with the official compiler, parses every shared corpus
//! file of the format with the generated Python, and compares counts and fields with `walkmesh
//! dump --format json`. The tests here check that the specs name the fields the dumpers name.

/// A format with a spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// KotOR BWM V1.0 (.wok, .pwk, .dwk).
    Bwm,
    /// The inflated NWN2 ASWM walkmesh (`walkmesh dump --extract aswm-body`).
    Aswm,
    /// Metroid Prime PATH, versions 4, 6 and 7.
    Path,
}

impl Spec {
    pub const ALL: [Spec; 3] = [Spec::Bwm, Spec::Aswm, Spec::Path];

    /// The name `walkmesh spec` takes.
    pub fn name(self) -> &'static str {
        match self {
            Spec::Bwm => "bwm",
            Spec::Aswm => "aswm",
            Spec::Path => "path",
        }
    }
}

/// The Kaitai Struct YAML of `spec`.
pub fn spec_text(spec: Spec) -> &'static str {
    match spec {
        Spec::Bwm => include_str!("../specs/bwm.ksy"),
        Spec::Aswm => include_str!("../specs/aswm.ksy"),
        Spec::Path => include_str!("../specs/path.ksy"),
    }
}
