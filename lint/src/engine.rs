//! Whose walking rules decide when a walkable face is too steep.
//!
//! None of the three engines is known to test slope at run time (`docs/lint.md`, "Steepness
//! per engine", and the format facts in `docs/formats/`): KotOR and NWN2 walk what a face's
//! material or flag calls walkable, and Metroid Prime's ground walkers follow the PATH
//! regions. A walkable face steeper than a floor is therefore a modelling defect the engine
//! will happily walk a creature up. Each engine's limit is stated by
//! [`Engine::max_walk_slope_degrees`] (and in `docs/lint.md`); all are the project's
//! [`STEEP_DEGREES`] today, kept per engine so that a documented limit can replace one without
//! touching the checks.

use walkmesh_core::slope::STEEP_DEGREES;

/// The engine whose walkmesh is linted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// KotOR I/II (BWM: `.wok`, `.pwk`, `.dwk`).
    Kotor,
    /// Neverwinter Nights 2 (`.trx`, `.trn`).
    Nwn2,
    /// Metroid Prime (PATH).
    Prime,
    /// Modelling-tool files (OBJ, glTF) with no engine named.
    #[default]
    Generic,
}

impl Engine {
    /// The engine of a format id (`bwm`, `trx`, `trn`, `path`); others are generic.
    pub fn of_format(id: &str) -> Engine {
        match id {
            "bwm" => Engine::Kotor,
            "trx" | "trn" => Engine::Nwn2,
            "path" => Engine::Prime,
            _ => Engine::Generic,
        }
    }

    /// Parses `kotor`, `nwn2`, `prime` or `generic`.
    pub fn parse(text: &str) -> Option<Engine> {
        match text.to_ascii_lowercase().as_str() {
            "kotor" => Some(Engine::Kotor),
            "nwn2" => Some(Engine::Nwn2),
            "prime" => Some(Engine::Prime),
            "generic" => Some(Engine::Generic),
            _ => None,
        }
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
