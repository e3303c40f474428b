//! Neutral material vocabulary and per-engine material profiles.
//!
//! The neutral vocabulary is KotOR's `surfacemat` list (ids 0–30), the richest of the three
//! engines. A [`MaterialProfile`] (RON, one per engine, embedded by default and replaceable
//! with `--materials FILE`) maps an engine's raw codes and material names to neutral
//! materials and says which are walkable. Walkability is a property of the profile, never
//! hard-coded in a format.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Names of the neutral materials, indexed by [`Material`] id.
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
    #[serde(skip)]
    resolved: Vec<Material>,
}

/// A profile that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("material profile: {0}")]
pub struct ProfileError(pub String);

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
        match MaterialProfile::parse(include_str!("../profiles/neutral.ron")) {
            Ok(profile) => profile,
            // The embedded text is checked by a unit test; an empty profile keeps the
            // program running if that ever slips.
            Err(_) => MaterialProfile {
                engine: "neutral".into(),
                description: String::new(),
                default_material: "Stone".into(),
                entries: Vec::new(),
                resolved: Vec::new(),
            },
        }
    }

    fn entry_by_name(&self, name: &str) -> Option<(usize, &ProfileEntry)> {
        self.entries.iter().enumerate().find(|(_, entry)| {
            entry.material.eq_ignore_ascii_case(name)
                || entry.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    fn surface_of(&self, index: usize) -> Option<crate::ir::Surface> {
        let entry = self.entries.get(index)?;
        let material = *self.resolved.get(index)?;
        Some(crate::ir::Surface {
            material,
            walkable: entry.walkable,
            code: entry.code,
        })
    }

    /// Surface for a material name: an entry's name or alias, or a neutral name / `surface_<id>`
    /// that an entry maps. `None` when the profile does not know the name.
    pub fn surface_for_name(&self, name: &str) -> Option<crate::ir::Surface> {
        if let Some((index, _)) = self.entry_by_name(name) {
            return self.surface_of(index);
        }
        let material = Material::from_name(name)?;
        self.surface_for_material(material)
    }

    /// Surface for a neutral material, through the first entry that maps it.
    pub fn surface_for_material(&self, material: Material) -> Option<crate::ir::Surface> {
        let index = self.resolved.iter().position(|&m| m == material)?;
        self.surface_of(index)
    }

    /// Surface for an engine code.
    pub fn surface_for_code(&self, code: u32) -> Option<crate::ir::Surface> {
        let index = self.entries.iter().position(|entry| entry.code == code)?;
        self.surface_of(index)
    }

    /// The default surface for unknown or missing names.
    pub fn default_surface(&self) -> crate::ir::Surface {
        self.surface_for_name(&self.default_material)
            .unwrap_or(crate::ir::Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            })
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
    pub fn surface_for_tool_name(&self, name: &str) -> Option<crate::ir::Surface> {
        let unsuffixed = strip_blender_suffix(name);
        std::iter::once(Some(name))
            .chain([unsuffixed])
            .chain([strip_kotorblender_prefix(name)])
            .chain([unsuffixed.and_then(strip_kotorblender_prefix)])
            .flatten()
            .find_map(|candidate| self.surface_for_name(candidate))
    }

    /// A surface that is not walkable, for steep faces without a known material: the
    /// profile's entry for NonWalk, else its first non-walkable entry.
    pub fn non_walkable_surface(&self) -> Option<crate::ir::Surface> {
        self.surface_for_material(Material(7))
            .filter(|s| !s.walkable)
            .or_else(|| {
                (0..self.entries.len())
                    .filter_map(|i| self.surface_of(i))
                    .find(|s| !s.walkable)
            })
    }
}

/// What faces get when their material name is unknown or missing (OBJ and glTF input).
///
/// With `--default-material NAME` (an `explicit` choice) every such face gets that material.
/// Otherwise faces no steeper than [`crate::passes::STEEP_DEGREES`] get the profile's default
/// material (Stone, walkable) and steeper ones (walls, risers) a non-walkable one (NonWalk),
/// so an unnamed wall never becomes walkable floor; the readers warn with the counts and
/// areas of both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DefaultRule {
    pub floor: crate::ir::Surface,
    pub steep: crate::ir::Surface,
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
    pub fn new(profile: &MaterialProfile, explicit: Option<crate::ir::Surface>) -> DefaultRule {
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

    /// Sets the surface of each polygon in `polygons` (which must exist) by its slope, and
    /// counts what went where.
    pub fn assign(
        &self,
        mesh: &mut crate::ir::NavMesh,
        polygons: impl IntoIterator<Item = usize>,
    ) -> DefaultTally {
        let mut tally = DefaultTally::default();
        for polygon in polygons {
            let area = crate::passes::polygon_area(mesh, polygon);
            let steep = crate::passes::is_steep(crate::passes::polygon_normal(mesh, polygon));
            let surface = if steep {
                tally.steep_faces += 1;
                tally.steep_area += area;
                self.steep
            } else {
                tally.floor_faces += 1;
                tally.floor_area += area;
                self.floor
            };
            if let Some(slot) = mesh.surfaces.get_mut(polygon) {
                *slot = surface;
            }
        }
        tally
    }

    /// "10 face(s) (24.00 square units) got Stone (walkable); 4 steeper than 60° (8.00 square
    /// units) got NonWalk (not walkable)" — the part of a warning that says what became what.
    pub fn describe(&self, tally: &DefaultTally) -> String {
        let walk = |s: &crate::ir::Surface| {
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
                crate::passes::STEEP_DEGREES,
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
    fn default_rule_keeps_steep_faces_unwalkable() {
        use crate::ir::NavMesh;
        let profile = MaterialProfile::neutral();
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [0.0, 2.0, 0.0],
                [2.0, 0.0, 3.0],
                [0.0, 0.0, 3.0],
            ],
            ..NavMesh::default()
        };
        let undefined = profile.surface_for_name("Undefined").unwrap();
        mesh.push_polygon(&[0, 1, 2], undefined); // floor, area 2
        mesh.push_polygon(&[0, 1, 3, 4], undefined); // wall, area 6
        let rule = DefaultRule::new(&profile, None);
        let tally = rule.assign(&mut mesh, [0, 1]);
        assert_eq!(
            tally,
            DefaultTally {
                floor_faces: 1,
                floor_area: 2.0,
                steep_faces: 1,
                steep_area: 6.0
            }
        );
        assert_eq!(mesh.surfaces[0].material, Material(4));
        assert!(mesh.surfaces[0].walkable);
        assert_eq!(mesh.surfaces[1].material, Material(7));
        assert!(!mesh.surfaces[1].walkable);
        let text = rule.describe(&tally);
        assert!(
            text.contains("1 face(s), 2.00 square units, got 'Stone' (walkable)"),
            "{text}"
        );
        assert!(
            text.contains("steeper than 60°, 6.00 square units, got 'NonWalk' (not walkable)"),
            "{text}"
        );
        // An explicit default applies to every face.
        let grass = profile.surface_for_name("Grass").unwrap();
        let rule = DefaultRule::new(&profile, Some(grass));
        rule.assign(&mut mesh, [0, 1]);
        assert!(mesh.surfaces.iter().all(|s| *s == grass));
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
}
