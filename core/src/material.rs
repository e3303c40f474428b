//! Neutral material vocabulary and per-engine material profiles.
//!
//! The neutral vocabulary is KotOR's `surfacemat` list (ids 0–30), the richest of the three
//! engines. A [`MaterialProfile`] (RON, one per engine, embedded by default and replaceable
//! with `--materials FILE`) maps an engine's raw codes and material names to neutral
//! materials and says which are walkable. Walkability is a property of the profile, never
//! hard-coded in a format.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Names of the neutral materials, indexed by [`Material`] id.
/// Text of the embedded neutral profile (`core/profiles/neutral.ron`), used by OBJ and glTF.
pub const NEUTRAL_RON: &str = include_str!("../profiles/neutral.ron");

/// Text of the embedded KotOR profile (`core/profiles/kotor.ron`): the `surfacemat` codes that
/// both KotOR formats store (BWM faces and the walkmesh node of an MDL model). It lives in core
/// because a format crate never depends on another format crate.
pub const KOTOR_RON: &str = include_str!("../profiles/kotor.ron");

/// Engine name a profile must carry to be used for KotOR surface codes.
pub const KOTOR_ENGINE: &str = "kotor";

/// The embedded KotOR profile (parsed once).
pub fn kotor_profile() -> std::sync::Arc<MaterialProfile> {
    static PROFILE: std::sync::OnceLock<std::sync::Arc<MaterialProfile>> =
        std::sync::OnceLock::new();
    PROFILE
        .get_or_init(|| {
            // A unit test checks the embedded text; the neutral profile (same codes and
            // walkability) keeps the program working should that ever slip.
            std::sync::Arc::new(
                MaterialProfile::parse(KOTOR_RON).unwrap_or_else(|_| MaterialProfile::neutral()),
            )
        })
        .clone()
}

/// The user's profile when it is a KotOR one, else the embedded KotOR profile.
pub fn choose_kotor_profile(
    user: Option<&std::sync::Arc<MaterialProfile>>,
) -> std::sync::Arc<MaterialProfile> {
    match user {
        Some(profile) if profile.engine.eq_ignore_ascii_case(KOTOR_ENGINE) => profile.clone(),
        _ => kotor_profile(),
    }
}

pub const NEUTRAL_NAMES: [&str; 31] = [
    "Undefined",
    "Dirt",
    "Obscuring",
    "Grass",
    "Stone",
    "Wood",
    "Water",
    "NonWalk",
    "Transparent",
    "Carpet",
    "Metal",
    "Puddles",
    "Swamp",
    "Mud",
    "Leaves",
    "Lava",
    "BottomlessPit",
    "DeepWater",
    "Door",
    "NonWalkGrass",
    "Sand",
    "BareBones",
    "StoneBridge",
    "Surface23",
    "Surface24",
    "Surface25",
    "Surface26",
    "Surface27",
    "Surface28",
    "Surface29",
    "Trigger",
];

/// A neutral material: an index into [`NEUTRAL_NAMES`]; ids past the list are allowed and are
/// named `surface_<id>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Material(pub u16);

/// The surface of one polygon: neutral material, walkability, and the raw code the source
/// engine used (a KotOR surfacemat row, NWN2 flag bits, …; equal to the material index for
/// formats without codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Surface {
    pub material: Material,
    pub walkable: bool,
    pub code: u32,
}

impl Material {
    /// The neutral name (`Stone`, `NonWalk`, or `surface_<id>` past the vocabulary).
    pub fn name(self) -> Cow<'static, str> {
        match NEUTRAL_NAMES.get(usize::from(self.0)) {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(format!("surface_{}", self.0)),
        }
    }

    /// Parses a neutral name (case-insensitive) or the `surface_<id>` form.
    pub fn from_name(name: &str) -> Option<Material> {
        if let Some(index) = NEUTRAL_NAMES
            .iter()
            .position(|known| known.eq_ignore_ascii_case(name))
        {
            return u16::try_from(index).ok().map(Material);
        }
        parse_surface_number(name).map(Material)
    }
}

/// `surface_7`, `Surface_7`, `surface7` → 7.
fn parse_surface_number(name: &str) -> Option<u16> {
    let lower = name.to_ascii_lowercase();
    let digits = lower.strip_prefix("surface")?;
    let digits = digits.strip_prefix('_').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// One row of a profile: a neutral material, the engine's code for it and its walkability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileEntry {
    /// Neutral material name (see [`NEUTRAL_NAMES`]) or `surface_<id>`.
    pub material: String,
    /// The engine's raw code for this material.
    pub code: u32,
    pub walkable: bool,
    /// Further names that mean this material (case-insensitive).
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// A neutral material the engine has no code of its own for, and the entry it is written as.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fallback {
    /// Neutral material name (or `surface_<id>`).
    pub material: String,
    /// Name (or alias) of the profile entry whose code it is written with.
    pub becomes: String,
}

/// A material profile as stored in RON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaterialProfile {
    /// The engine the codes belong to: `neutral`, `kotor`, `nwn2`, `prime`.
    pub engine: String,
    #[serde(default)]
    pub description: String,
    /// Material given to polygons whose name is unknown or missing.
    pub default_material: String,
    pub entries: Vec<ProfileEntry>,
    /// Neutral materials without an entry of their own and the entry each is written as
    /// (a many-to-one step: writers warn with a count per material).
    #[serde(default)]
    pub fallbacks: Vec<Fallback>,
    /// Entry given to a non-walkable face whose material, in this profile, is walkable
    /// (walkability is kept, the material changes, with a warning). `None`: the first
    /// non-walkable entry.
    #[serde(default)]
    pub non_walkable_default: Option<String>,
    #[serde(skip)]
    resolved: Vec<Material>,
    #[serde(skip)]
    resolved_fallbacks: BTreeMap<Material, usize>,
}

/// How a writer stores one surface through a profile (see [`MaterialProfile::encode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoded {
    /// The profile has the material with the face's walkability: nothing changes.
    Exact(Surface),
    /// Written as another material (a fallback, or the profile's default for the face's
    /// walkability); walkability is kept.
    Merged(Surface),
    /// Nothing in the profile keeps the face's walkability: written with the material's own
    /// entry, whose walkability differs.
    WalkabilityChanged(Surface),
    /// The profile knows neither the material nor a default for its walkability.
    Unknown,
}

/// A profile that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("material profile: {0}")]
pub struct ProfileError(pub String);

impl crate::Kinded for ProfileError {
    /// A `--materials` profile is the caller's option, given as a file.
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Parameter
    }
}

impl MaterialProfile {
    /// Parses and checks a RON profile: every material name known, no code or name twice,
    /// the default material listed.
    pub fn parse(text: &str) -> Result<MaterialProfile, ProfileError> {
        let mut profile: MaterialProfile =
            ron::from_str(text).map_err(|e| ProfileError(format!("not valid RON: {e}")))?;
        profile.resolve()?;
        Ok(profile)
    }

    fn resolve(&mut self) -> Result<(), ProfileError> {
        let mut resolved = Vec::with_capacity(self.entries.len());
        let mut names: Vec<String> = Vec::new();
        let mut codes: Vec<u32> = Vec::new();
        for entry in &self.entries {
            let material = Material::from_name(&entry.material).ok_or_else(|| {
                ProfileError(format!(
                    "unknown neutral material '{}' (use one of {} or surface_<id>)",
                    entry.material,
                    NEUTRAL_NAMES.join(", ")
                ))
            })?;
            if codes.contains(&entry.code) {
                return Err(ProfileError(format!("code {} is listed twice", entry.code)));
            }
            codes.push(entry.code);
            for name in std::iter::once(&entry.material).chain(&entry.aliases) {
                let lower = name.to_ascii_lowercase();
                if names.contains(&lower) {
                    return Err(ProfileError(format!("name '{name}' is listed twice")));
                }
                names.push(lower);
            }
            resolved.push(material);
        }
        self.resolved = resolved;
        let mut fallbacks = BTreeMap::new();
        for fallback in &self.fallbacks {
            let material = Material::from_name(&fallback.material).ok_or_else(|| {
                ProfileError(format!(
                    "fallback for unknown neutral material '{}'",
                    fallback.material
                ))
            })?;
            let (index, _) = self.entry_by_name(&fallback.becomes).ok_or_else(|| {
                ProfileError(format!(
                    "fallback {} -> '{}': no entry has that name",
                    fallback.material, fallback.becomes
                ))
            })?;
            if self.resolved.contains(&material) {
                return Err(ProfileError(format!(
                    "fallback for {}, which has an entry of its own",
                    fallback.material
                )));
            }
            if fallbacks.insert(material, index).is_some() {
                return Err(ProfileError(format!(
                    "fallback for {} is listed twice",
                    fallback.material
                )));
            }
        }
        self.resolved_fallbacks = fallbacks;
        if let Some(name) = &self.non_walkable_default
            && self.entry_by_name(name).is_none()
        {
            return Err(ProfileError(format!(
                "non_walkable_default '{name}' is not one of the profile's entries"
            )));
        }
        if self.entry_by_name(&self.default_material).is_none() {
            return Err(ProfileError(format!(
                "default material '{}' is not one of the profile's entries",
                self.default_material
            )));
        }
        Ok(())
    }

    /// The embedded neutral profile used by OBJ and glTF.
    pub fn neutral() -> MaterialProfile {
        match MaterialProfile::parse(NEUTRAL_RON) {
            Ok(profile) => profile,
            // The embedded text is checked by a unit test; an empty profile keeps the
            // program running if that ever slips.
            Err(_) => MaterialProfile {
                engine: "neutral".into(),
                description: String::new(),
                default_material: "Stone".into(),
                entries: Vec::new(),
                fallbacks: Vec::new(),
                non_walkable_default: None,
                resolved: Vec::new(),
                resolved_fallbacks: BTreeMap::new(),
            },
        }
    }

    fn entry_by_name(&self, name: &str) -> Option<(usize, &ProfileEntry)> {
        self.entries.iter().enumerate().find(|(_, entry)| {
            entry.material.eq_ignore_ascii_case(name)
                || entry.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    fn surface_of(&self, index: usize) -> Option<Surface> {
        let entry = self.entries.get(index)?;
        let material = *self.resolved.get(index)?;
        Some(Surface {
            material,
            walkable: entry.walkable,
            code: entry.code,
        })
    }

    /// Surface for a material name: an entry's name or alias, or a neutral name / `surface_<id>`
    /// that an entry maps. `None` when the profile does not know the name.
    pub fn surface_for_name(&self, name: &str) -> Option<Surface> {
        if let Some((index, _)) = self.entry_by_name(name) {
            return self.surface_of(index);
        }
        let material = Material::from_name(name)?;
        self.surface_for_material(material)
    }

    /// Surface for a neutral material, through the first entry that maps it.
    pub fn surface_for_material(&self, material: Material) -> Option<Surface> {
        let index = self.resolved.iter().position(|&m| m == material)?;
        self.surface_of(index)
    }

    /// Surface for an engine code.
    pub fn surface_for_code(&self, code: u32) -> Option<Surface> {
        let index = self.entries.iter().position(|entry| entry.code == code)?;
        self.surface_of(index)
    }

    /// The entry a neutral material is written as: its own, else its fallback.
    pub fn surface_or_fallback(&self, material: Material) -> Option<(Surface, bool)> {
        if let Some(surface) = self.surface_for_material(material) {
            return Some((surface, true));
        }
        let index = *self.resolved_fallbacks.get(&material)?;
        self.surface_of(index).map(|s| (s, false))
    }

    /// The surface a non-walkable face gets when its material is walkable here: the
    /// `non_walkable_default` while that entry is not walkable (a user's copy may have made
    /// it walkable), else the first non-walkable entry.
    pub fn non_walkable_surface(&self) -> Option<Surface> {
        self.non_walkable_default
            .as_deref()
            .and_then(|name| self.surface_for_name(name))
            .filter(|s| !s.walkable)
            .or_else(|| {
                (0..self.entries.len())
                    .filter_map(|i| self.surface_of(i))
                    .find(|s| !s.walkable)
            })
    }

    /// How `surface` is stored by an engine whose walkability comes from the material
    /// code (`walkability_in_code`, KotOR, PATH) or is stored beside it (NWN2).
    ///
    /// Walkability is kept whenever the profile allows it: a material without an entry
    /// goes through its fallback; a face whose material has the other walkability here
    /// gets the profile's default for its own walkability (`default_material` for walkable
    /// faces, `non_walkable_default` for the others). Every step but the first is a change
    /// a writer must report ([`MaterialChanges`]).
    pub fn encode(&self, surface: Surface, walkability_in_code: bool) -> Encoded {
        let own = self.surface_or_fallback(surface.material);
        if !walkability_in_code {
            return match own {
                Some((s, true)) => Encoded::Exact(Surface {
                    walkable: surface.walkable,
                    ..s
                }),
                Some((s, false)) => Encoded::Merged(Surface {
                    walkable: surface.walkable,
                    ..s
                }),
                None => {
                    let base = if surface.walkable {
                        self.default_surface()
                    } else {
                        self.non_walkable_surface()
                            .unwrap_or_else(|| self.default_surface())
                    };
                    Encoded::Merged(Surface {
                        walkable: surface.walkable,
                        ..base
                    })
                }
            };
        }
        match own {
            Some((s, true)) if s.walkable == surface.walkable => return Encoded::Exact(s),
            Some((s, false)) if s.walkable == surface.walkable => return Encoded::Merged(s),
            _ => {}
        }
        let default = if surface.walkable {
            Some(self.default_surface()).filter(|s| s.walkable)
        } else {
            self.non_walkable_surface()
        };
        match (default, own) {
            (Some(d), _) => Encoded::Merged(d),
            (None, Some((s, _))) => Encoded::WalkabilityChanged(s),
            (None, None) => Encoded::Unknown,
        }
    }

    /// The default surface for unknown or missing names.
    pub fn default_surface(&self) -> Surface {
        self.surface_for_name(&self.default_material)
            .unwrap_or(Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            })
    }
}

/// What a writer changed in materials and walkability, per (source material and
/// walkability → written material and walkability): faces and area. Reported as one warning
/// per kind of change, with counts, so that no conversion changes meaning silently.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MaterialChanges {
    /// (from material, from walkable, to material, to walkable) → (faces, area in m²).
    pub changes: BTreeMap<(Material, bool, Material, bool), (usize, f64)>,
}

impl MaterialChanges {
    /// Records a polygon of `area` going from `from` to `to` (nothing when equal).
    pub fn record(&mut self, area: f64, from: Surface, to: Surface) {
        if from.material == to.material && from.walkable == to.walkable {
            return;
        }
        let slot = self
            .changes
            .entry((from.material, from.walkable, to.material, to.walkable))
            .or_insert((0, 0.0));
        slot.0 += 1;
        slot.1 += area;
    }

    /// Faces whose walkability changed.
    pub fn walkability_changed(&self) -> usize {
        self.changes
            .iter()
            .filter(|((_, a, _, b), _)| a != b)
            .map(|(_, (n, _))| n)
            .sum()
    }

    /// Faces whose material changed but not their walkability.
    pub fn merged(&self) -> usize {
        self.changes
            .iter()
            .filter(|((_, a, _, b), _)| a == b)
            .map(|(_, (n, _))| n)
            .sum()
    }

    /// Adds `<prefix>.materials_merged` (material changed, walkability kept) and
    /// `<prefix>.walkability_changed` warnings, each listing every change with its face
    /// count and area.
    pub fn report(&self, diag: &mut crate::diag::Diagnostics, prefix: &str, engine: &str) {
        let describe = |walkability: bool| -> Vec<String> {
            self.changes
                .iter()
                .filter(|((_, a, _, b), _)| (a != b) == walkability)
                .map(|((from, from_walk, to, to_walk), (faces, area))| {
                    let label = |m: &Material, w: &bool| {
                        format!(
                            "{} ({})",
                            m.name(),
                            if *w { "walkable" } else { "not walkable" }
                        )
                    };
                    format!(
                        "{} -> {}: {faces} face(s), {area:.3} m²",
                        label(from, from_walk),
                        label(to, to_walk)
                    )
                })
                .collect()
        };
        let merged = describe(false);
        if !merged.is_empty() {
            diag.warn(
                &format!("{prefix}.materials_merged"),
                format!(
                    "{} face(s) are written with another material, the {engine} profile having no code for theirs (walkability kept): {}",
                    self.merged(),
                    merged.join("; ")
                ),
            );
        }
        let flipped = describe(true);
        if !flipped.is_empty() {
            diag.warn(
                &format!("{prefix}.walkability_changed"),
                format!(
                    "{} face(s) change walkability: the {engine} profile has no material that keeps it: {}",
                    self.walkability_changed(),
                    flipped.join("; ")
                ),
            );
        }
    }
}

/// Blender appends `.001`, `.002`, … to a duplicated material's name: `Grass.002` → `Grass`.
pub fn strip_blender_suffix(name: &str) -> Option<&str> {
    let (stem, suffix) = name.rsplit_once('.')?;
    (!stem.is_empty() && !suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()))
        .then_some(stem)
}

/// kotorblender (the KotOR add-on for Blender) names its walkmesh materials `wok_<surfacemat>`
/// (`wok_Stone`, `wok_Nonwalk`, `wok_NotDefined`, `wok_Snow`): `wok_Stone` → `Stone`.
pub fn strip_kotorblender_prefix(name: &str) -> Option<&str> {
    let prefix = name.get(..4)?;
    prefix
        .eq_ignore_ascii_case("wok_")
        .then(|| name.get(4..))
        .flatten()
        .filter(|rest| !rest.is_empty())
}

impl MaterialProfile {
    /// Surface for a material name as a modelling tool writes it: the name itself, else
    /// without Blender's duplicate suffix (`Grass.002`), without kotorblender's `wok_` prefix
    /// (`wok_Stone`), or without both (`wok_Grass.001`).
    pub fn surface_for_tool_name(&self, name: &str) -> Option<Surface> {
        let unsuffixed = strip_blender_suffix(name);
        std::iter::once(Some(name))
            .chain([unsuffixed])
            .chain([strip_kotorblender_prefix(name)])
            .chain([unsuffixed.and_then(strip_kotorblender_prefix)])
            .flatten()
            .find_map(|candidate| self.surface_for_name(candidate))
    }
}

/// What faces get when their material name is unknown or missing (OBJ and glTF input).
///
/// With `--default-material NAME` (an `explicit` choice) every such face gets that material.
/// Otherwise faces no steeper than [`crate::slope::STEEP_DEGREES`] get the profile's default
/// material (Stone, walkable) and steeper ones (walls, risers) a non-walkable one (NonWalk),
/// so an unnamed wall never becomes walkable floor; the readers warn with the counts and
/// areas of both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DefaultRule {
    pub floor: Surface,
    pub steep: Surface,
}

/// Faces and area that a [`DefaultRule`] gave each of its two surfaces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DefaultTally {
    pub floor_faces: usize,
    pub floor_area: f64,
    pub steep_faces: usize,
    pub steep_area: f64,
}

impl DefaultRule {
    /// The rule for `profile`, with the user's `--default-material` surface if any.
    pub fn new(profile: &MaterialProfile, explicit: Option<Surface>) -> DefaultRule {
        match explicit {
            Some(surface) => DefaultRule {
                floor: surface,
                steep: surface,
            },
            None => {
                let floor = profile.default_surface();
                let steep = if floor.walkable {
                    profile.non_walkable_surface().unwrap_or(floor)
                } else {
                    floor
                };
                DefaultRule { floor, steep }
            }
        }
    }

    /// The surface a polygon gets, and the tally counts it (`steep`: steeper than
    /// [`crate::slope::STEEP_DEGREES`]). `passes::assign_default_surfaces` applies it to a mesh.
    pub fn surface_for(&self, steep: bool, area: f64, tally: &mut DefaultTally) -> Surface {
        if steep {
            tally.steep_faces += 1;
            tally.steep_area += area;
            self.steep
        } else {
            tally.floor_faces += 1;
            tally.floor_area += area;
            self.floor
        }
    }

    /// "10 face(s) (24.00 square units) got Stone (walkable); 4 steeper than 60° (8.00 square
    /// units) got NonWalk (not walkable)" — the part of a warning that says what became what.
    pub fn describe(&self, tally: &DefaultTally) -> String {
        let walk = |s: &Surface| {
            if s.walkable {
                "walkable"
            } else {
                "not walkable"
            }
        };
        let mut parts = Vec::new();
        if tally.floor_faces > 0 {
            parts.push(format!(
                "{} face(s), {:.2} square units, got '{}' ({})",
                tally.floor_faces,
                tally.floor_area,
                self.floor.material.name(),
                walk(&self.floor)
            ));
        }
        if tally.steep_faces > 0 {
            parts.push(format!(
                "{} face(s) steeper than {}°, {:.2} square units, got '{}' ({})",
                tally.steep_faces,
                crate::slope::STEEP_DEGREES,
                tally.steep_area,
                self.steep.material.name(),
                walk(&self.steep)
            ));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn neutral_names_round_trip() {
        for id in 0..40u16 {
            let name = Material(id).name();
            assert_eq!(Material::from_name(&name), Some(Material(id)), "{name}");
        }
        assert_eq!(Material::from_name("stone"), Some(Material(4)));
        assert_eq!(Material::from_name("SURFACE_7"), Some(Material(7)));
        assert_eq!(Material::from_name("surface7"), Some(Material(7)));
        assert_eq!(Material::from_name("surface_"), None);
        assert_eq!(Material::from_name("Material.001"), None);
    }

    #[test]
    fn embedded_neutral_profile_parses_with_recommended_walkability() {
        let profile = MaterialProfile::parse(include_str!("../profiles/neutral.ron")).unwrap();
        let walkable: Vec<u16> = (0..31u16)
            .filter(|&id| profile.surface_for_material(Material(id)).unwrap().walkable)
            .collect();
        assert_eq!(
            walkable,
            vec![1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 18, 20, 21, 22, 30]
        );
        assert_eq!(
            profile.surface_for_name("grass").unwrap().material,
            Material(3)
        );
        assert!(!profile.surface_for_name("NonWalk").unwrap().walkable);
        assert_eq!(
            profile.surface_for_name("surface_7").unwrap().material,
            Material(7)
        );
        assert_eq!(
            profile.surface_for_name("Snow").unwrap().material,
            Material(19)
        );
        assert!(profile.surface_for_name("Material.001").is_none());
    }

    #[test]
    fn tool_names_find_their_material() {
        let profile = MaterialProfile::neutral();
        let material = |name: &str| profile.surface_for_tool_name(name).map(|s| s.material.0);
        assert_eq!(material("Grass.002"), Some(3));
        assert_eq!(material("wok_Stone"), Some(4));
        assert_eq!(material("WOK_Nonwalk"), Some(7));
        assert_eq!(material("wok_NotDefined"), Some(0));
        assert_eq!(material("wok_Snow"), Some(19));
        assert_eq!(material("wok_BottomlessPit"), Some(16));
        assert_eq!(material("wok_Grass.001"), Some(3));
        assert_eq!(material("NonWalk.001"), Some(7));
        assert_eq!(material("Material.001"), None);
        assert_eq!(material("wok_"), None);
        assert_eq!(material("Grass."), None);
        // Every kotorblender walkmesh material name (its constants.py) is known.
        for name in [
            "NotDefined",
            "Dirt",
            "Obscuring",
            "Grass",
            "Stone",
            "Wood",
            "Water",
            "Nonwalk",
            "Transparent",
            "Carpet",
            "Metal",
            "Puddles",
            "Swamp",
            "Mud",
            "Leaves",
            "Lava",
            "BottomlessPit",
            "DeepWater",
            "Door",
            "Snow",
            "Sand",
            "BareBones",
            "StoneBridge",
        ] {
            assert!(material(&format!("wok_{name}")).is_some(), "wok_{name}");
        }
    }

    #[test]
    fn profile_errors_name_the_problem() {
        let twice = r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true),
            (material: "Dirt", code: 1, walkable: true)])"#;
        assert!(
            MaterialProfile::parse(twice)
                .unwrap_err()
                .0
                .contains("code 1")
        );
        let unknown = r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Granite", code: 1, walkable: true)])"#;
        assert!(
            MaterialProfile::parse(unknown)
                .unwrap_err()
                .0
                .contains("Granite")
        );
        let no_default = r#"(engine: "x", default_material: "Dirt", entries: [
            (material: "Stone", code: 1, walkable: true)])"#;
        assert!(
            MaterialProfile::parse(no_default)
                .unwrap_err()
                .0
                .contains("Dirt")
        );
    }

    fn nwn2_like() -> MaterialProfile {
        MaterialProfile::parse(
            r#"(engine: "x", default_material: "Stone", entries: [
            (material: "NonWalk", code: 0, walkable: false),
            (material: "Dirt", code: 8, walkable: true),
            (material: "Stone", code: 32, walkable: true)],
            fallbacks: [(material: "Sand", becomes: "Dirt"), (material: "Lava", becomes: "NonWalk")],
            non_walkable_default: Some("NonWalk"))"#,
        )
        .unwrap()
    }

    fn surface(material: u16, walkable: bool) -> Surface {
        Surface {
            material: Material(material),
            walkable,
            code: u32::from(material),
        }
    }

    #[test]
    fn encode_keeps_walkability_and_names_every_merge() {
        let profile = nwn2_like();
        let dirt = profile.surface_for_material(Material(1)).unwrap();
        let stone = profile.surface_for_material(Material(4)).unwrap();
        let nonwalk = profile.surface_for_material(Material(7)).unwrap();
        // Walkability from the code (KotOR-like use).
        assert_eq!(profile.encode(surface(1, true), true), Encoded::Exact(dirt));
        assert_eq!(
            profile.encode(surface(20, true), true),
            Encoded::Merged(dirt)
        );
        assert_eq!(
            profile.encode(surface(15, false), true),
            Encoded::Merged(nonwalk)
        );
        // Stone that is not walkable (an NWN2 footstep on an unwalkable triangle): the
        // non-walkable default, walkability kept.
        assert_eq!(
            profile.encode(surface(4, false), true),
            Encoded::Merged(nonwalk)
        );
        // A walkable face of a non-walkable material: the default material.
        assert_eq!(
            profile.encode(surface(7, true), true),
            Encoded::Merged(stone)
        );
        // Unknown without fallback: the default for its walkability.
        assert_eq!(
            profile.encode(surface(9, true), true),
            Encoded::Merged(stone)
        );
        assert_eq!(
            profile.encode(surface(2, false), true),
            Encoded::Merged(nonwalk)
        );
        // Walkability stored beside the code (NWN2): only the material is mapped.
        let unwalkable_stone = Surface {
            walkable: false,
            ..stone
        };
        assert_eq!(
            profile.encode(surface(4, false), false),
            Encoded::Exact(unwalkable_stone)
        );
        assert_eq!(
            profile.encode(surface(20, false), false),
            Encoded::Merged(Surface {
                walkable: false,
                ..dirt
            })
        );
    }

    #[test]
    fn encode_reports_a_walkability_change_only_when_nothing_keeps_it() {
        let only_walkable = MaterialProfile::parse(
            r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true)])"#,
        )
        .unwrap();
        let stone = only_walkable.surface_for_material(Material(4)).unwrap();
        assert_eq!(
            only_walkable.encode(surface(4, false), true),
            Encoded::WalkabilityChanged(stone)
        );
        assert_eq!(
            only_walkable.encode(surface(7, false), true),
            Encoded::Unknown
        );
    }

    #[test]
    fn changes_are_counted_per_material_with_area() {
        // Two right triangles of legs 2: area 2 each.
        let mut changes = MaterialChanges::default();
        let to = surface(1, true);
        changes.record(2.0, surface(20, true), to);
        changes.record(2.0, surface(20, true), to);
        changes.record(2.0, to, to);
        assert_eq!(changes.merged(), 2);
        assert_eq!(changes.walkability_changed(), 0);
        let mut diag = crate::diag::Diagnostics::new();
        changes.report(&mut diag, "trx", "nwn2");
        assert_eq!(diag.items.len(), 1);
        assert_eq!(diag.items[0].code, "trx.materials_merged");
        assert!(
            diag.items[0]
                .message
                .contains("Sand (walkable) -> Dirt (walkable): 2 face(s), 4.000 m²"),
            "{}",
            diag.items[0].message
        );
    }

    #[test]
    fn fallback_errors_name_the_problem() {
        let own = r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true)],
            fallbacks: [(material: "Stone", becomes: "Stone")])"#;
        assert!(MaterialProfile::parse(own).unwrap_err().0.contains("own"));
        let missing = r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true)],
            fallbacks: [(material: "Sand", becomes: "Dirt")])"#;
        assert!(
            MaterialProfile::parse(missing)
                .unwrap_err()
                .0
                .contains("Dirt")
        );
        let no_such_default = r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true)],
            non_walkable_default: Some("Lava"))"#;
        assert!(
            MaterialProfile::parse(no_such_default)
                .unwrap_err()
                .0
                .contains("non_walkable_default")
        );
        // A walkable default (a user made NonWalk walkable) falls back to the first
        // non-walkable entry.
        let walkable_default = MaterialProfile::parse(
            r#"(engine: "x", default_material: "Stone", entries: [
            (material: "Stone", code: 1, walkable: true),
            (material: "NonWalk", code: 7, walkable: true),
            (material: "Lava", code: 15, walkable: false)],
            non_walkable_default: Some("NonWalk"))"#,
        )
        .unwrap();
        assert_eq!(
            walkable_default.non_walkable_surface().unwrap().material,
            Material(15)
        );
    }
}
