//! Engine limits checked at the end of the pipeline, so a generated walkmesh that the target
//! engine (or our writer for it) would refuse is reported by `generate` with a stable code
//! naming the place, before any writer runs.
//!
//! - **NWN2** (`generate.nwn2_tile_over_limit`): a tile of the TRX walkmesh holds at most
//!   [`walkmesh_nwn2::bake::MAX_TILE_NODES`] (127) walkable triangles: the path table's node
//!   index is a u8 with 0xFF reserved; the largest count seen in the game's files is exactly
//!   127, and nwn-lib-d's baker allows 126 (`docs/formats/nwn2.md` §2.3). Tiles are
//!   those of our TRX writer: [`walkmesh_nwn2::write::DEFAULT_TILE_WIDTH`] (9 m, measured on
//!   interiors), the grid starting at 0, a triangle in the tile of its centre
//!   ([`walkmesh_nwn2::bake::tile_coordinate`]).
//! - **Metroid Prime PATH** (`generate.prime_regions_over_limit`): at most
//!   [`walkmesh_prime::cook::MAX_REGIONS`] (512) regions. The region count is the PATH cook's
//!   own (it merges flat patches and grows its height tolerance up to its bound to meet the
//!   budget), so the check runs the cook and reports its refusal (any other refusal of the
//!   cook as `generate.prime_cook_refused`).
//!
//! Before this check, `generate` cuts the NWN2 floor at the tile lines ([`crate::tiles`]: no
//! face crosses a tile, so each tile counts its own floor, as the writer will) and simplifies
//! the faces of over-full tiles ([`crate::simplify`]); a tile found here is one that could not
//! be brought under the limit.

use serde::Serialize;
use walkmesh_core::NavMesh;
#[cfg(feature = "prime")]
use walkmesh_core::{Diagnostics, WriteOptions};

use crate::Params;

/// One engine limit the generated mesh breaks.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LimitFinding {
    /// Stable code (`generate.nwn2_tile_over_limit`, `generate.prime_regions_over_limit`).
    pub code: &'static str,
    pub message: String,
}

/// Which checks [`check_with`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Every check of the engine.
    All,
    /// Every check but the PATH cook: the caller writes a PATH file next, whose writer runs
    /// the same cook and refuses with the same reason, so cooking here would double the work.
    WriterCooks,
}

/// The limits of `params.engine` that `mesh` breaks (none for KotOR and generic, and none for
/// an engine whose format crate this build leaves out: no writer for it is there either).
pub fn check(mesh: &NavMesh, params: &Params) -> Vec<LimitFinding> {
    check_with(mesh, params, Checks::All)
}

/// [`check`], leaving out what `checks` says the caller's writer checks itself.
pub fn check_with(mesh: &NavMesh, params: &Params, checks: Checks) -> Vec<LimitFinding> {
    #[cfg(feature = "nwn2")]
    if matches!(params.engine, crate::Engine::Nwn2) {
        return nwn2_tiles(mesh, walkmesh_nwn2::write::DEFAULT_TILE_WIDTH);
    }
    #[cfg(feature = "prime")]
    if matches!(params.engine, crate::Engine::Prime) && checks == Checks::All {
        return prime_regions(mesh);
    }
    let _ = (mesh, params, checks);
    Vec::new()
}

/// Tiles (column, row) holding more walkable triangles than an NWN2 tile can.
#[cfg(feature = "nwn2")]
pub fn nwn2_tiles(mesh: &NavMesh, width: f32) -> Vec<LimitFinding> {
    let limit = walkmesh_nwn2::bake::MAX_TILE_NODES;
    // The writer's tiles, after its shift of a mesh reaching below zero by whole tiles.
    let per_tile = crate::simplify::walkable_per_tile(mesh, width);
    per_tile
        .into_iter()
        .filter(|&(_, count)| count > limit)
        .map(|((column, row), count)| LimitFinding {
            code: "generate.nwn2_tile_over_limit",
            message: format!(
                "NWN2 tile (column {column}, row {row}) of {width} m holds {count} walkable triangles; a tile holds at most {limit}, and simplifying could not bring it under (its outlines and material borders alone need more): give the floor there fewer holes, or raise --cell-size"
            ),
        })
        .collect()
}

/// The PATH cook's refusal (more than 512 regions at its largest height tolerance), if any.
#[cfg(feature = "prime")]
pub fn prime_regions(mesh: &NavMesh) -> Vec<LimitFinding> {
    let limit = walkmesh_prime::cook::MAX_REGIONS;
    if mesh.polygons.is_empty() {
        // Nothing generated: the command refuses that on its own.
        return Vec::new();
    }
    let mut notes = Diagnostics::new();
    match walkmesh_prime::cook::cook(mesh, &WriteOptions::default(), &mut notes) {
        Ok((_, report)) if report.regions() <= limit => Vec::new(),
        Ok((_, report)) => vec![LimitFinding {
            code: "generate.prime_regions_over_limit",
            message: format!(
                "the PATH cook made {} regions; Metroid Prime refuses more than {limit}",
                report.regions()
            ),
        }],
        // The cook's region-budget refusals all name the budget; others are not this limit.
        Err(error) if !error.to_string().contains("budget") => vec![LimitFinding {
            code: "generate.prime_cook_refused",
            message: format!("the PATH cook refuses this walkmesh: {error}"),
        }],
        Err(error) => vec![LimitFinding {
            code: "generate.prime_regions_over_limit",
            message: format!(
                "the PATH cook refuses this walkmesh (Metroid Prime allows at most {limit} regions): {error}"
            ),
        }],
    }
}
