//! What a caller gives over a preset: the command line's flags and the Python keywords go
//! through this one type, so both pick the same preset for the same target and apply the
//! same settings over it.

use walkmesh_core::material::Material;

use crate::{Engine, GenerateError, Params};

/// Settings given over the engine's preset; `None` keeps the preset's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub agent_height: Option<f32>,
    pub agent_radius: Option<f32>,
    pub max_climb: Option<f32>,
    pub max_slope: Option<f32>,
    pub cell_size: Option<f32>,
    pub cell_height: Option<f32>,
    pub min_region_area: Option<f32>,
    pub min_passage_width: Option<f32>,
    pub seeds: Vec<[f32; 3]>,
    pub keep_unreachable: bool,
    /// A neutral material name (`Material::from_name`).
    pub default_material: Option<String>,
    /// Memory limit in MiB (`--max-memory`).
    pub max_memory_mib: Option<u64>,
    /// Material-name words of surfaces no character starts from (`--not-floor`).
    pub not_floor: Option<Vec<String>>,
}

impl Params {
    /// `engine`'s preset with `overrides` over it, checked.
    pub fn with_overrides(engine: Engine, overrides: &Overrides) -> Result<Params, GenerateError> {
        Params::preset(engine).overridden(overrides)
    }

    /// The object preset (`Params::object_preset`: a placeable's or door's walkmesh) with
    /// `overrides` over it, checked.
    pub fn object_with_overrides(
        engine: Engine,
        kind: crate::ObjectKind,
        overrides: &Overrides,
    ) -> Result<Params, GenerateError> {
        Params::object_preset(engine, kind).overridden(overrides)
    }

    /// These parameters with `overrides` over them, checked.
    pub fn overridden(self, overrides: &Overrides) -> Result<Params, GenerateError> {
        let mut params = self;
        let slots = [
            (&mut params.agent_height, overrides.agent_height),
            (&mut params.agent_radius, overrides.agent_radius),
            (&mut params.max_climb, overrides.max_climb),
            (&mut params.max_slope, overrides.max_slope),
            (&mut params.cell_size, overrides.cell_size),
            (&mut params.cell_height, overrides.cell_height),
            (&mut params.min_region_area, overrides.min_region_area),
            (&mut params.min_passage_width, overrides.min_passage_width),
        ];
        for (slot, value) in slots {
            if let Some(value) = value {
                *slot = value;
            }
        }
        params.seeds = overrides.seeds.clone();
        params.keep_unreachable = overrides.keep_unreachable;
        if let Some(words) = &overrides.not_floor {
            params.not_floor = words.iter().filter(|w| !w.is_empty()).cloned().collect();
        }
        if let Some(mib) = overrides.max_memory_mib {
            params.max_memory_mib = mib;
        }
        if let Some(name) = &overrides.default_material {
            params.default_material =
                Material::from_name(name).ok_or_else(|| GenerateError::Parameter {
                    name: "default_material",
                    why: format!("'{name}' is not a material name"),
                })?;
        }
        params.check()?;
        Ok(params)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_only_what_they_name() {
        let overrides = Overrides {
            agent_radius: Some(0.25),
            seeds: vec![[1.0, -2.0, 0.0]],
            ..Overrides::default()
        };
        let params = Params::with_overrides(Engine::Kotor, &overrides).unwrap();
        let preset = Params::preset(Engine::Kotor);
        assert_eq!(params.agent_radius, 0.25);
        assert_eq!(params.seeds, vec![[1.0, -2.0, 0.0]]);
        assert_eq!(params.cell_size, preset.cell_size);
        assert_eq!(params.max_slope, preset.max_slope);
    }

    #[test]
    fn a_bad_override_is_refused_with_its_name() {
        let overrides = Overrides {
            cell_size: Some(-1.0),
            ..Overrides::default()
        };
        let error = Params::with_overrides(Engine::Generic, &overrides)
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("cell_size")));
        let overrides = Overrides {
            default_material: Some("Marmalade".into()),
            ..Overrides::default()
        };
        let error = Params::with_overrides(Engine::Generic, &overrides)
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("Marmalade")));
    }
}
