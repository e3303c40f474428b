//! Lint levels, as clippy has them: every finding belongs to the `default` group (reported
//! unless the user asks for less: rare on shipped content, each one worth a patch) or to the
//! `pedantic` group (reported with `--level pedantic`, or when a deny rule names its code or
//! group). Which group a code is in can depend on the engine: official NWN2 bakes hold
//! degenerate faces, overlaps, islands, … that the game lives with, so for NWN2 those are
//! pedantic. The table and the measurements behind it are in `docs/lint.md`.

use serde::Serialize;

use crate::{
    DEGENERATE, DOWNWARD_WALKABLE, Engine, ISLAND, NARROW_PASSAGE, NON_MANIFOLD, OVERLAP,
    STEEP_WALKABLE, T_JUNCTION,
};

/// The group of a finding, and the level a lint runs at (a level reports its own group and
/// every group before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Rare on shipped content; each finding worth a patch.
    #[default]
    Default,
    /// What shipped content holds and its engine lives with, and heuristics that are often
    /// right but seldom worth a patch.
    Pedantic,
}

/// Every level, in order.
pub const LEVELS: [Level; 2] = [Level::Default, Level::Pedantic];

impl Level {
    /// Parses `default` or `pedantic`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "default" => Some(Level::Default),
            "pedantic" => Some(Level::Pedantic),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Default => "default",
            Level::Pedantic => "pedantic",
        }
    }

    /// The group's name in `--allow`, `--deny` and `walkmesh.toml` rules (`lint::pedantic`,
    /// as clippy's `clippy::pedantic`; `::` keeps it apart from every code, which use dots).
    pub fn group(self) -> &'static str {
        match self {
            Level::Default => "lint::default",
            Level::Pedantic => "lint::pedantic",
        }
    }

    /// The level a group name (`lint::pedantic`) names.
    pub fn of_group(name: &str) -> Option<Level> {
        LEVELS.into_iter().find(|level| level.group() == name)
    }
}

/// Codes pedantic for every engine: heuristics whose findings on shipped content are mostly
/// places the game works fine with.
const PEDANTIC_EVERYWHERE: [&str; 1] = [
    // Strips between a wall and a block: dead ends and slivers along walls (docs/lint.md).
    NARROW_PASSAGE,
];

/// Codes pedantic for NWN2: what the toolset's bake produces in official and community areas
/// alike, and the game lives with (measured on the shared NWN2 areas, docs/lint.md).
const PEDANTIC_FOR_NWN2: [&str; 7] = [
    DEGENERATE,
    OVERLAP,
    ISLAND,
    DOWNWARD_WALKABLE,
    STEEP_WALKABLE,
    T_JUNCTION,
    NON_MANIFOLD,
];

/// The group of findings of `code` for `engine`. Codes not named (reader notes, the seam and
/// area checks, codes of other crates) are default.
pub fn level_of(code: &str, engine: Engine) -> Level {
    let pedantic = PEDANTIC_EVERYWHERE.contains(&code)
        || (engine == Engine::Nwn2 && PEDANTIC_FOR_NWN2.contains(&code));
    if pedantic {
        Level::Pedantic
    } else {
        Level::Default
    }
}
