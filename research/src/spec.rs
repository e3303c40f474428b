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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// The `- id:` entries of a spec that have no `doc:` line.
    fn undocumented(text: &str) -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        let mut missing = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let Some(id) = line.trim_start().strip_prefix("- id: ") else {
                continue;
            };
            let indent = line.len() - line.trim_start().len();
            // The entry's keys are the following lines indented deeper than its `-`.
            let documented = lines
                .iter()
                .skip(i + 1)
                .take_while(|l| l.len() - l.trim_start().len() > indent)
                .any(|l| l.trim_start().starts_with("doc:"));
            if !documented {
                missing.push(format!("{id} (line {})", i + 1));
            }
        }
        missing
    }

    #[test]
    fn every_field_of_every_spec_has_a_doc_line() {
        for spec in Spec::ALL {
            let missing = undocumented(spec_text(spec));
            assert!(missing.is_empty(), "{}: {missing:?}", spec.name());
        }
    }

    #[test]
    fn the_check_finds_a_field_without_doc() {
        let text = "seq:\n  - id: a\n    type: u4\n    doc: A.\n  - id: b\n    type: u4\n";
        assert_eq!(undocumented(text), ["b (line 5)"]);
    }
}
