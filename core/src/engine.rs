//! Which game engine a format belongs to, and what its files store beyond the neutral mesh.
//!
//! A [`crate::Format`] declares both in its descriptor ([`crate::FormatDescriptor::engine`],
//! [`crate::FormatDescriptor::capabilities`]); `lint`, `route` and `view` look them up there
//! instead of matching format ids, so a format registered by another crate gets the same
//! treatment as a built-in one when it declares the same engine and capabilities.
//!
//! Our format notes (`docs/formats/`) record no run-time slope test for any of the three
//! engines: KotOR and NWN2 walk what a face's material or flag calls walkable, and Metroid
//! Prime's ground walkers follow the PATH regions. A walkable face steeper than a floor is
//! therefore a modelling defect the engine will happily walk a creature up. Each engine's limit
//! is stated by [`Engine::max_walk_slope_degrees`] (and in `docs/lint.md`); all are the
//! project's [`STEEP_DEGREES`] today, kept per engine so that a documented limit can replace
//! one without touching the checks.

use crate::slope::STEEP_DEGREES;

/// The engine whose rules a walkmesh follows (serialised by its lower-case [`Engine::name`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// KotOR I/II (BWM: `.wok`, `.pwk`, `.dwk`; a model's walkmesh node).
    Kotor,
    /// Neverwinter Nights 2 (`.trx`, `.trn`).
    Nwn2,
    /// Metroid Prime (PATH).
    Prime,
    /// Modelling-tool files (OBJ, glTF) and formats that name no engine.
    #[default]
    Generic,
}

impl Engine {
    /// Every engine, in the order `--engine` lists them.
    pub const ALL: [Engine; 4] = [Engine::Kotor, Engine::Nwn2, Engine::Prime, Engine::Generic];

    /// Parses `kotor`, `nwn2`, `prime` or `generic` (case-insensitive).
    pub fn parse(text: &str) -> Option<Engine> {
        Engine::ALL
            .into_iter()
            .find(|engine| engine.name().eq_ignore_ascii_case(text))
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Kotor => "kotor",
            Engine::Nwn2 => "nwn2",
            Engine::Prime => "prime",
            Engine::Generic => "generic",
        }
    }

    /// Slope, in degrees from horizontal, above which a walkable face is reported steep.
    ///
    /// - KotOR: 60° (no engine limit known; the project's validator limit).
    /// - NWN2: 60° (no engine limit known; the same).
    /// - Prime: 60° (no engine limit known; the same).
    /// - Generic: 60° ([`STEEP_DEGREES`]).
    pub fn max_walk_slope_degrees(self) -> f64 {
        match self {
            Engine::Kotor | Engine::Nwn2 | Engine::Prime | Engine::Generic => STEEP_DEGREES,
        }
    }

    /// True when a face with unit normal `normal` is steeper than this engine's limit
    /// (facing up or down alike; a zero normal is not steep).
    pub fn is_steep(self, normal: [f32; 3]) -> bool {
        let z = f64::from(normal[2]).abs();
        let length = normal
            .iter()
            .map(|c| f64::from(*c).powi(2))
            .sum::<f64>()
            .sqrt();
        length > 0.0 && z / length < self.max_walk_slope_degrees().to_radians().cos()
    }
}

/// What a format's files store beyond the neutral mesh, for the commands that show or use it.
/// Each flag promises the layout the built-in format with that flag uses (named below), so
/// that the command can read it; a format declares only what it stores that way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Capabilities {
    /// Edges carry transitions to other rooms and the mesh has hooks (KotOR BWM): `view`
    /// draws the transition and hook layers; an engine's area rooms are in the format with
    /// it (`Registry::room_walkmesh`).
    pub transitions: bool,
    /// The dump has an `aabb` table of the BWM layout (a tree over the faces, leaves naming
    /// faces) and an `adjacency` table that may list walkable faces only: `view` shows the
    /// leaf of each face.
    pub aabb_tree: bool,
    /// Faces are grouped into tiles and islands, with the NWN2 ASWM `tiles` and `islands`
    /// tables in the dump: `view` shows the tile and island layers and each face's entries.
    pub tiles: bool,
    /// Each face is a region with links and an octree, as in the PATH `regions` table:
    /// `view` shows the region layer, links and octree; `convert` counts regions.
    pub regions: bool,
    /// The file stores the engine's own navigation tables, which `route`/`reach --method
    /// engine` read (the walkmesh-route crate implements them for KotOR, NWN2 and Prime).
    pub engine_tables: bool,
}

impl Capabilities {
    /// Nothing beyond the neutral mesh (modelling-tool formats).
    pub const NONE: Capabilities = Capabilities {
        transitions: false,
        aabb_tree: false,
        tiles: false,
        regions: false,
        engine_tables: false,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for engine in Engine::ALL {
            assert_eq!(Engine::parse(engine.name()), Some(engine));
        }
        assert_eq!(Engine::parse("NWN2"), Some(Engine::Nwn2));
        assert_eq!(Engine::parse("trn"), None);
    }

    #[test]
    fn steep_is_beyond_sixty_degrees_either_way() {
        assert!(!Engine::Kotor.is_steep([0.0, 0.0, 1.0]));
        assert!(Engine::Kotor.is_steep([1.0, 0.0, 0.2]));
        assert!(Engine::Generic.is_steep([1.0, 0.0, -0.2]));
        assert!(!Engine::Generic.is_steep([0.0, 0.0, 0.0]));
    }
}
