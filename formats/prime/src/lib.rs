//! Metroid Prime series area navigation meshes (`PATH`, big-endian, no magic).
//!
//! - [`model`]: every section of the file, parsed and encoded byte-exactly (MP1 v4, MP2 v6
//!   with its 92-byte regions and point graph, MP3 v7).
//! - [`read`]: PATH → IR (regions become polygons, reversed to counter-clockwise).
//! - [`cook`]: IR → PATH (greedy merge into flat convex regions, links, tables, octree).
//! - [`octree`]: the cooker's octree and the engine's point lookup ([`PathFile::regions_at`]).
//! - [`validate`]: the engine's rules with stable `path.*` codes.
//! - [`dump`]: every field with its byte offset.

pub mod cook;
pub mod decimate;
pub mod dump;
pub mod merge;
pub mod model;
pub mod octree;
pub mod read;
pub mod validate;

use walkmesh_core::{
    Capabilities, Diagnostics, Engine, Format, FormatDescriptor, Input, NavMesh, Output, Param,
    ParamKind, ReadError, ReadOptions, Reader, Requirements, Validator, WriteError, WriteOptions,
    Writer,
};

pub use model::PathFile;

/// Content-sniffing score: PATH has no magic, so a plausible header stays below a magic match.
pub const SNIFF_SCORE: u8 = 60;

/// The Metroid Prime PATH format.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathFormat;

fn be_u32(head: &[u8], offset: u64) -> Option<u32> {
    let start = usize::try_from(offset).ok()?;
    let bytes = head.get(start..start.checked_add(4)?)?;
    Some(u32::from_be_bytes(bytes.try_into().ok()?))
}

/// How likely `head` (of a `total_len`-byte file) is a PATH file: the version word must be
/// 4, 6 or 7 and each count that the head reaches must fit in the file length.
pub fn sniff(head: &[u8], total_len: u64) -> u8 {
    let Some(version) = be_u32(head, 0) else {
        return 0;
    };
    if !matches!(version, 4 | 6 | 7) {
        return 0;
    }
    let Some(nodes) = be_u32(head, 4) else {
        return 0;
    };
    let mut end = 8 + u64::from(nodes) * model::NODE_SIZE;
    // Link count, links, region count: each must leave room for the fixed parts after it
    // (two more counts, the lookup count and the octree count with its root node).
    let minimum_tail = 4 + 4 + 4 + model::OCTREE_NODE_SIZE;
    if end + 4 + minimum_tail > total_len {
        return 0;
    }
    if let Some(links) = be_u32(head, end) {
        end += 4 + u64::from(links) * model::LINK_SIZE;
        if end + minimum_tail > total_len {
            return 0;
        }
        if let Some(regions) = be_u32(head, end) {
            end += 4 + u64::from(regions) * model::region_size(version);
            if end + 8 + model::OCTREE_NODE_SIZE > total_len {
                return 0;
            }
        }
    }
    SNIFF_SCORE
}

/// Reads a PATH file into the IR.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathReader;

impl Reader for PathReader {
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        let file = PathFile::parse(input.bytes)?;
        let profile = read::profile_for(options.materials.as_ref());
        read::to_navmesh(&file, input.bytes, &profile, diag)
    }
}

/// Writes PATH: the preserved bytes while fresh, else a fresh cook.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathWriter;

impl Writer for PathWriter {
    fn requirements(&self, _options: &WriteOptions) -> Requirements {
        // The cooker merges polygons itself and triangulates only when it must; welding would
        // join edges that a source format keeps apart on purpose. Regions store their links.
        Requirements {
            links: true,
            ..Requirements::default()
        }
    }

    fn write(
        &self,
        mesh: &NavMesh,
        options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError> {
        let preserved = mesh
            .fresh_provenance("path")
            .and_then(|p| p.section("file"))
            .filter(|_| !options.rebuild);
        // Unchanged regions: the file is written back as it was, unless our validator rejects
        // it (links, connectivity tables, octree, boxes and normals are derived from the
        // regions). Copying would write a file the engine may search wrongly; the regions are
        // cooked again instead (one region per polygon, as `--rebuild` does), with a warning.
        if let Some(bytes) = preserved
            && validate::stored_errors(bytes).copy_or_warn(diag, "path.stored_tables_rebuilt")
        {
            return Ok(Output {
                main: bytes.to_vec(),
                sidecars: Vec::new(),
            });
        }
        let (file, _) = cook::cook(mesh, options, diag)?;
        let main = file.encode();
        report_component_change(mesh, &file, &main, options, diag);
        Ok(Output {
            main,
            sidecars: Vec::new(),
        })
    }
}

/// Walkable components as `walkmesh info` counts them: walkable polygons joined through
/// shared vertices, over the polygons `include` keeps.
fn walkable_components(mesh: &NavMesh, include: impl Fn(usize) -> bool) -> usize {
    let keep = |p: usize| mesh.is_walkable(p) && include(p);
    let adjacency = walkmesh_core::passes::edge_adjacency(mesh, keep);
    walkmesh_core::passes::connected_components(mesh, &adjacency, keep).count
}

/// PATH keeps walkable ground seen from above, joined where region edges meet. When the
/// written file, read back, has another number of walkable components than the mesh, says
/// so (`path.components_changed`) with the counts and what caused it: walkable polygons with
/// no area seen from above (walls marked walkable, collapsed faces) are dropped, and with
/// them the components they made up or the joins they made.
fn report_component_change(
    mesh: &NavMesh,
    file: &PathFile,
    bytes: &[u8],
    options: &WriteOptions,
    diag: &mut Diagnostics,
) {
    let profile = read::profile_for(options.materials.as_ref());
    let Ok(back) = read::to_navmesh(file, bytes, &profile, &mut Diagnostics::new()) else {
        return;
    };
    let before = walkable_components(mesh, |_| true);
    let after = walkable_components(&back, |_| true);
    if before == after {
        return;
    }
    // The same mesh without the polygons PATH cannot hold (no area seen from above).
    let seen_from_above = |p: usize| {
        let n = walkmesh_core::passes::polygon_normal(mesh, p);
        let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        length > 0.0 && (n[2] / length).abs() >= 1e-3
    };
    let without_walls = walkable_components(mesh, seen_from_above);
    let cause = if without_walls == after {
        "the walkable polygons with no area seen from above (path.degenerate_dropped) made up \
         or joined the difference"
            .to_string()
    } else {
        format!(
            "{without_walls} without the walkable polygons that have no area seen from above; \
             the rest comes from regions linked where their edges meet (also where the mesh's \
             faces share no vertex) or from border straightening"
        )
    };
    diag.warn(
        "path.components_changed",
        format!("walkable components: {before} in the mesh, {after} in the file written: {cause}"),
    );
}

/// What PATH declares: Metroid Prime's rules, regions, the engine's tables and the cook's
/// [`PARAMS`]; no magic ([`sniff`] reads the header instead).
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    engine: Engine::Prime,
    capabilities: Capabilities {
        regions: true,
        engine_tables: true,
        ..Capabilities::NONE
    },
    material_profile: Some(read::PRIME_RON),
    params: PARAMS,
    ..FormatDescriptor::new(
        "path",
        "Metroid Prime area path mesh (PATH)",
        &["path"],
        "prime",
    )
};

impl Format for PathFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn sniff(&self, head: &[u8], total_len: u64) -> u8 {
        sniff(head, total_len)
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(&PathReader)
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(&PathWriter)
    }
    fn validator(&self) -> Option<&dyn Validator> {
        Some(&validate::PathValidator)
    }
    fn dumper(&self) -> Option<&dyn walkmesh_core::format::Dumper> {
        Some(&dump::PathDumper)
    }
}

/// The cook's parameters (`walkmesh convert --region-height …`, the Python keywords
/// `region_height=` …); the defaults are those `cook` applies.
pub const PARAMS: &[Param] = &[
    Param {
        key: "prime:region_height",
        name: "region_height",
        kind: ParamKind::Positive,
        default: Some("1.0"),
        value_name: "HEIGHT",
        help: "Metroid Prime: region height when the source has none (default 1.0; finite, > 0)",
    },
    Param {
        key: "prime:max_regions",
        name: "max_regions",
        kind: ParamKind::Integer { min: 1, max: 512 },
        default: Some("512"),
        value_name: "N",
        help: "Metroid Prime: most regions to write (1–512, default 512, the engine's limit); nearly flat neighbours are merged when exact merging gives more",
    },
    Param {
        key: "prime:max_height_error",
        name: "max_height_error",
        kind: ParamKind::NonNegative,
        default: Some("0.3"),
        value_name: "DISTANCE",
        help: "Metroid Prime: largest height error that meeting --max-regions may introduce (finite, ≥ 0; default 0.3)",
    },
    Param {
        key: "prime:height_tolerance",
        name: "height_tolerance",
        kind: ParamKind::NonNegative,
        default: Some("0.05"),
        value_name: "DISTANCE",
        help: "Metroid Prime: vertical tolerance of every merge of neighbouring surfaces (finite, ≥ 0; default 0.05; 0 merges exactly coplanar surfaces only)",
    },
    Param {
        key: "prime:max_area_change",
        name: "max_area_change",
        kind: ParamKind::Fraction,
        default: Some("0.25"),
        value_name: "FRACTION",
        help: "Metroid Prime: largest fraction of the walkable area (seen from above) that meeting --max-regions may change by straightening the walkable border, once the height-error bound is not enough (0–1; default 0.25)",
    },
];

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod param_tests {
    use super::*;

    /// The defaults the declaration shows (in `--help` and the Python keywords) are those the
    /// cook applies.
    #[test]
    fn declared_defaults_are_the_cooks() {
        let default = |name: &str| -> f64 {
            let param = PARAMS.iter().find(|p| p.name == name).unwrap();
            param.default.unwrap().parse().unwrap()
        };
        assert_eq!(default("region_height"), f64::from(cook::DEFAULT_HEIGHT));
        assert_eq!(default("max_regions"), cook::MAX_REGIONS as f64);
        assert_eq!(default("max_height_error"), cook::DEFAULT_MAX_HEIGHT_ERROR);
        assert_eq!(default("height_tolerance"), cook::DEFAULT_HEIGHT_TOLERANCE);
        assert_eq!(default("max_area_change"), cook::DEFAULT_MAX_AREA_CHANGE);
        // Every key is one the cook reads.
        assert!(PARAMS.iter().all(|p| p.key.starts_with("prime:")));
    }
}
