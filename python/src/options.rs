//! Keyword options, named and checked like the command line's (`--up` → `up="z"`,
//! `--max-regions` → `max_regions=…`).

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use walkmesh_core::material::MaterialProfile;
use walkmesh_core::{MeshKind, Param, ParamKind, ReadOptions, UpAxis, WeldChoice, WriteOptions};

/// Options that change how a file is read.
pub const READ_KEYS: &[&str] = &[
    "up",
    "materials",
    "default_material",
    "scene",
    "max_decompressed",
];

/// Options that change how a mesh is written (with `up` and `materials`, which both use),
/// besides the formats' declared parameters ([`write_keys`]).
const COMMON_WRITE_KEYS: &[&str] = &[
    "up",
    "materials",
    "default_material",
    "max_decompressed",
    "rebuild",
    "kind",
    "weld",
    "max_memory",
    "translate",
    "strict",
    "allow",
    "deny",
    "allow_invalid",
];

/// Options that change how a mesh is written: the common ones, then every writer parameter
/// a format of the registry declares (`template`, `compression`, `region_height`, …:
/// `FormatDescriptor::params`, the declaration `walkmesh convert`'s flags are made from).
pub fn write_keys() -> Vec<&'static str> {
    let declared: Vec<&'static str> = crate::registry().params().iter().map(|p| p.name).collect();
    keys(&[COMMON_WRITE_KEYS, &declared])
}

/// The declared writer parameter called `key`, if any.
fn declared(key: &str) -> Option<&'static Param> {
    crate::registry()
        .params()
        .into_iter()
        .find(|p| p.name == key)
}

/// Options of a call that writes a file, read by `output_settings` (the others by `parse`).
pub const OUTPUT_KEYS: &[&str] = &["force", "create_dirs", "fsync"];

/// Options that only decide whether a write goes ahead: `validate(mesh, format=…)` lists
/// every finding and writes nothing, so they have no meaning there.
const VERDICT_KEYS: &[&str] = &["strict", "allow", "deny", "allow_invalid"];

/// The options of one call: the union of `groups`, each key once, in order.
pub fn keys(groups: &[&[&'static str]]) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for key in groups.iter().flat_map(|group| group.iter()) {
        if !all.contains(key) {
            all.push(key);
        }
    }
    all
}

/// The options of `validate(mesh, format=…)`: how the mesh would be written, nothing of the
/// verdict.
pub fn check_keys() -> Vec<&'static str> {
    write_keys()
        .into_iter()
        .filter(|key| !VERDICT_KEYS.contains(key))
        .collect()
}

/// Every option, parsed; `None` where not given.
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub up: Option<UpAxis>,
    pub materials: Option<Arc<MaterialProfile>>,
    pub default_material: Option<String>,
    pub scene: Option<u32>,
    pub max_decompressed: Option<u64>,
    pub rebuild: bool,
    pub kind: Option<MeshKind>,
    pub weld: WeldChoice,
    /// The formats' declared writer parameters given: (key in `WriteOptions::params`, value).
    pub params: Vec<(&'static str, String)>,
    /// Memory limit in MiB of the steps that estimate their need (`--max-memory`).
    pub max_memory: Option<u64>,
    pub translate: Option<[f32; 3]>,
    pub strict: bool,
    /// Warning codes (with `*`) accepted under strict, as `--allow`.
    pub allow: Vec<String>,
    /// Warning codes (with `*`) that fail on their own, as `--deny`.
    pub deny: Vec<String>,
    pub allow_invalid: bool,
}

/// A code pattern or a list of them.
fn codes(key: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(one) = value.extract::<String>() {
        return Ok(vec![one]);
    }
    value.extract::<Vec<String>>().map_err(|_| {
        bad(
            key,
            "give a warning code or a list of them ('bwm.*_dropped')",
        )
    })
}

/// A keyword the call does not take (a TypeError, as Python raises for a wrong keyword),
/// listing the ones it does take.
fn unexpected(key: &str, allowed: &[&str]) -> PyErr {
    if allowed.is_empty() {
        return PyTypeError::new_err(format!("unexpected option {key:?}; this call takes none"));
    }
    PyTypeError::new_err(format!(
        "unexpected option {key:?}; accepted here: {}",
        allowed.join(", ")
    ))
}

fn bad(key: &str, message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{key}: {message}"))
}

/// Parses `options`, refusing keys outside `allowed` (a TypeError, as for a wrong keyword).
pub fn parse(options: Option<&Bound<'_, PyDict>>, allowed: &[&str]) -> PyResult<Options> {
    let mut parsed = Options::default();
    let Some(options) = options else {
        return Ok(parsed);
    };
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        if !allowed.contains(&key.as_str()) {
            return Err(unexpected(&key, allowed));
        }
        // Output settings are taken by `output_settings`; a None means "the default".
        if value.is_none() || OUTPUT_KEYS.contains(&key.as_str()) {
            continue;
        }
        match key.as_str() {
            "up" => {
                let text: String = value.extract()?;
                parsed.up = Some(match text.to_ascii_lowercase().as_str() {
                    "y" => UpAxis::Y,
                    "z" => UpAxis::Z,
                    _ => return Err(bad(&key, format!("{text:?} is not \"y\" or \"z\""))),
                });
            }
            "materials" => {
                let path: PathBuf = value.extract()?;
                let text = walkmesh_core::files::read_to_string(&path).map_err(|e| {
                    bad(
                        &key,
                        format!("cannot read the material profile {}: {e}", path.display()),
                    )
                })?;
                let profile = MaterialProfile::parse(&text)
                    .map_err(|e| bad(&key, format!("{}: {e}", path.display())))?;
                parsed.materials = Some(Arc::new(profile));
            }
            "default_material" => parsed.default_material = Some(value.extract()?),
            "scene" => parsed.scene = Some(value.extract()?),
            "max_decompressed" => {
                let mib: u64 = value.extract()?;
                if !(1..=64 * 1024).contains(&mib) {
                    return Err(bad(&key, format!("{mib} MiB is not within 1–65536")));
                }
                parsed.max_decompressed = Some(mib.saturating_mul(1024 * 1024));
            }
            "rebuild" => parsed.rebuild = value.is_truthy()?,
            "strict" => parsed.strict = value.is_truthy()?,
            "allow" => parsed.allow = codes(&key, &value)?,
            "deny" => parsed.deny = codes(&key, &value)?,
            "allow_invalid" => parsed.allow_invalid = value.is_truthy()?,
            "kind" => {
                let text: String = value.extract()?;
                parsed.kind = Some(MeshKind::parse(&text).ok_or_else(|| {
                    bad(
                        &key,
                        format!("{text:?} is not area, placeable, door or terrain"),
                    )
                })?);
            }
            "weld" => {
                let text = if let Ok(distance) = value.extract::<f64>() {
                    distance.to_string()
                } else {
                    value.extract::<String>()?
                };
                parsed.weld = WeldChoice::parse(&text).map_err(|e| bad(&key, e))?;
            }
            "max_memory" => {
                let mib: u64 = value.extract()?;
                if mib == 0 {
                    return Err(bad(&key, "0 is not a memory limit (MiB, at least 1)"));
                }
                parsed.max_memory = Some(mib);
            }
            "translate" => {
                let offset = if let Ok(text) = value.extract::<String>() {
                    walkmesh_core::passes::parse_offset(&text).map_err(|e| bad(&key, e))?
                } else {
                    let [x, y, z]: [f32; 3] = value.extract()?;
                    if ![x, y, z].iter().all(|c| c.is_finite()) {
                        return Err(bad(&key, "every coordinate must be finite"));
                    }
                    [x, y, z]
                };
                parsed.translate = Some(offset);
            }
            _ => match declared(&key) {
                Some(param) => parsed.params.push((param.key, param_value(param, &value)?)),
                None => return Err(unexpected(&key, allowed)),
            },
        }
    }
    Ok(parsed)
}

/// The value of a declared writer parameter, checked as its kind says and kept as the text
/// the writer reads (what `walkmesh convert`'s flag gives it).
fn param_value(param: &Param, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let refuse = |shown: String| {
        bad(
            param.name,
            format!("{shown} is not {}", param.kind.expected()),
        )
    };
    match param.kind {
        ParamKind::File => {
            let path: PathBuf = value.extract()?;
            Ok(path.display().to_string())
        }
        ParamKind::Integer { .. } => {
            let number: u64 = value.extract()?;
            if !param.kind.accepts(number as f64) {
                return Err(refuse(number.to_string()));
            }
            Ok(number.to_string())
        }
        ParamKind::Positive | ParamKind::NonNegative => {
            let number: f32 = value.extract()?;
            if !param.kind.accepts(f64::from(number)) {
                return Err(refuse(number.to_string()));
            }
            Ok(number.to_string())
        }
        ParamKind::Fraction => {
            let number: f64 = value.extract()?;
            if !param.kind.accepts(number) {
                return Err(refuse(number.to_string()));
            }
            Ok(number.to_string())
        }
    }
}

impl Options {
    /// The reading options, as the command line builds them.
    pub fn read_options(&self) -> ReadOptions {
        let mut read = ReadOptions {
            up: self.up.unwrap_or_default(),
            materials: self.materials.clone(),
            default_material: self.default_material.clone(),
            ..ReadOptions::default()
        };
        if let Some(ceiling) = self.max_decompressed {
            read.max_decompressed = ceiling;
        }
        if let Some(scene) = self.scene {
            read.params.insert("gltf:scene".into(), scene.to_string());
        }
        read
    }

    /// The writing options, as `walkmesh convert` builds them; `up` and `materials` default
    /// to those the mesh was read with.
    pub fn write_options(&self, read: &ReadOptions) -> WriteOptions {
        let mut write = WriteOptions {
            up: self.up.unwrap_or(read.up),
            materials: self.materials.clone().or_else(|| read.materials.clone()),
            rebuild: self.rebuild,
            kind: self.kind,
            file_name: None,
            params: Default::default(),
        };
        for (key, value) in &self.params {
            write.params.insert((*key).to_string(), value.clone());
        }
        if let Some(mib) = self.max_memory {
            write.params.insert(
                walkmesh_core::memory::PARAM_MAX_MEMORY.into(),
                mib.to_string(),
            );
        }
        write
    }
}
