//! `walkmesh validate` for TRN/TRX: the invariants every reader relies on (`docs/formats/nwn2.md`
//! §5.1, as errors), the rules the official toolset's files always meet (§5.3 "strict", as
//! errors) and the ones official files break harmlessly (§5.3 "loose", as warnings).
//!
//! Codes are stable (`trx.*`); each code is reported at most [`MAX_PER_CODE`] times, then once
//! more with the total count.

use std::collections::BTreeMap;

use walkmesh_core::stored::StoredErrors;
use walkmesh_core::{Diagnostic, Diagnostics, Position, ReadError, ReadOptions, Severity};

use crate::aswm::{Aswm, NO_NODE, NONE16, NONE32, flags};
use crate::bake;
use crate::file::{self, TrxFile};
use crate::read::{Side, stored_sides};

/// Findings reported per code before they are only counted.
pub const MAX_PER_CODE: usize = 20;

/// Collects findings with a per-code cap.
struct Findings {
    diag: Diagnostics,
    counts: BTreeMap<&'static str, (usize, Severity)>,
}

impl Findings {
    fn new() -> Findings {
        Findings {
            diag: Diagnostics::new(),
            counts: BTreeMap::new(),
        }
    }

    fn add(&mut self, severity: Severity, code: &'static str, field: &str, message: String) {
        let entry = self.counts.entry(code).or_insert((0, severity));
        entry.0 += 1;
        if entry.0 <= MAX_PER_CODE {
            self.diag
                .push(severity, code, Position::None, Some(field), message);
        }
    }

    fn error(&mut self, code: &'static str, field: &str, message: String) {
        self.add(Severity::Error, code, field, message);
    }

    fn warn(&mut self, code: &'static str, field: &str, message: String) {
        self.add(Severity::Warning, code, field, message);
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        for (code, (count, severity)) in &self.counts {
            if *count > MAX_PER_CODE {
                self.diag.push(
                    *severity,
                    code,
                    Position::None,
                    None,
                    format!(
                        "{count} findings of this kind in all; only the first {MAX_PER_CODE} are listed"
                    ),
                );
            }
        }
        self.diag.items
    }
}

/// Validates a file's bytes.
pub fn validate_bytes(bytes: &[u8], options: &ReadOptions) -> Result<Vec<Diagnostic>, ReadError> {
    let parsed = file::parse(bytes, options.max_decompressed)?;
    Ok(validate_parsed(&parsed, options.recompute_derived))
}

/// [`validate_bytes`] and [`crate::read::read_trx`] of the same bytes, parsing (and inflating)
/// them once; the two then run side by side on a large file. A file that does not parse
/// gives the same error to both.
#[allow(clippy::type_complexity)]
pub fn validate_and_read(
    input: walkmesh_core::Input<'_>,
    options: &ReadOptions,
    diag: &mut Diagnostics,
) -> (
    Result<Vec<Diagnostic>, ReadError>,
    Result<walkmesh_core::NavMesh, ReadError>,
) {
    let parsed = match file::parse(input.bytes, options.max_decompressed) {
        Ok(parsed) => parsed,
        Err(error) => return (Err(error.clone()), Err(error)),
    };
    let read =
        |diag: &mut Diagnostics| crate::read::to_navmesh(&parsed, input.bytes, options, diag);
    // Below this many triangles a thread costs more than it saves.
    if parsed.aswm.triangles.len() < PARALLEL_TRIANGLES || !walkmesh_core::threads::may_spawn() {
        let findings = validate_parsed(&parsed, options.recompute_derived);
        return (Ok(findings), read(diag));
    }
    // Three jobs on two threads: this one sorts the sides first (the validator needs the
    // count of crowded ones a millisecond in, after the structure; the reader's link hints
    // need the same sort) and then reads the mesh back.
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel();
        let parsed = &parsed;
        let validating = scope.spawn(move || {
            validate_with(parsed, options.recompute_derived, &mut || {
                // Only if this thread's sender is gone (a panic there); counted here then.
                receive
                    .recv()
                    .unwrap_or_else(|_| crowded_count(&stored_sides(&parsed.aswm)))
            })
        });
        let sides = stored_sides(&parsed.aswm);
        let _ = send.send(crowded_count(&sides));
        let mesh = crate::read::to_navmesh_with(parsed, input.bytes, options, diag, Some(&sides));
        // A panic in the validator is a bug: passed on, not hidden.
        let findings = validating
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (Ok(findings), mesh)
    })
}

/// How many times a side (a pair of vertex indices) is used by a third triangle or more, in
/// sides sorted by [`crate::bake::sorted_sides`] (equal pairs are neighbours there).
fn crowded_count(sides: &[Side]) -> usize {
    sides
        .windows(3)
        .filter(|w| matches!(w, [x, y, z] if (x.0, x.1) == (y.0, y.1) && (y.0, y.1) == (z.0, z.1)))
        .count()
}

/// Files with at least this many triangles are validated and read on two threads.
const PARALLEL_TRIANGLES: usize = 4096;

/// Validates a parsed file, path tables and island paths included.
pub fn validate_file(file: &TrxFile<'_>) -> Vec<Diagnostic> {
    validate_parsed(file, true)
}

/// Validates a parsed file; `recompute_derived: false` skips the shortest-path checks of the
/// tile tables and island paths (see `ReadOptions::recompute_derived`).
pub fn validate_parsed(file: &TrxFile<'_>, recompute_derived: bool) -> Vec<Diagnostic> {
    validate_with(file, recompute_derived, &mut || {
        crowded_count(&stored_sides(&file.aswm))
    })
}

/// [`validate_parsed`] with the count of sides shared by more than two triangles asked of
/// `crowded` when the rules reach it (so that it can be counted on another thread).
fn validate_with(
    file: &TrxFile<'_>,
    recompute_derived: bool,
    crowded: &mut dyn FnMut() -> usize,
) -> Vec<Diagnostic> {
    findings_of(file, recompute_derived, crowded).finish()
}

/// The rules of [`validate_with`], their findings not yet closed (the counts per code kept).
fn findings_of(
    file: &TrxFile<'_>,
    recompute_derived: bool,
    crowded: &mut dyn FnMut() -> usize,
) -> Findings {
    let mut f = Findings::new();
    if (file.container.major, file.container.minor) != (2, 3) {
        f.warn(
            "trx.container_version",
            "header.version",
            format!(
                "container version {}.{}; every known file is 2.3",
                file.container.major, file.container.minor
            ),
        );
    }
    let aswm = &file.aswm;
    match &file.trwh {
        None => f.error(
            "trx.missing_trwh",
            "TRWH",
            "no TRWH packet; the game needs one".into(),
        ),
        Some((_, trwh)) => {
            if (trwh.width, trwh.height) != (aswm.grid_width, aswm.grid_height) {
                f.warn(
                    "trx.trwh_grid_mismatch",
                    "TRWH",
                    format!(
                        "TRWH says {} x {} but the walkmesh grid is {} x {}",
                        trwh.width, trwh.height, aswm.grid_width, aswm.grid_height
                    ),
                );
            }
        }
    }
    if aswm.version != crate::aswm::WRITE_VERSION {
        f.warn(
            "trx.old_aswm_version",
            "aswm.header.version",
            format!(
                "ASWM version {:#x}; the game's own reader (as re-implemented by Skywing) takes only 0x6c",
                aswm.version
            ),
        );
    }
    let structural_ok = structure(aswm, &mut f);
    if structural_ok {
        toolset_rules(aswm, recompute_derived, crowded, &mut f);
    }
    f
}

/// The errors our validator finds in a file the writer is about to copy unchanged (`bytes`,
/// and `body`, what its ASWM packet inflated to when it was read, if known), path tables and
/// island paths searched again: the writer copied them without a look before (issue #51), and
/// `convert`'s output check does not search them (it trusts the tables its writer computed).
pub fn stored_errors(bytes: &[u8], body: Option<std::sync::Arc<[u8]>>) -> StoredErrors {
    let parsed = match body {
        Some(body) => file::parse_inflated(bytes, body),
        None => file::parse(bytes, ReadOptions::default().max_decompressed),
    };
    let parsed = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return StoredErrors::unreadable(&error),
    };
    let findings = findings_of(&parsed, true, &mut || {
        crowded_count(&stored_sides(&parsed.aswm))
    });
    StoredErrors::counted(&findings.diag.items, |code| {
        findings.counts.get(code).map(|&(count, _)| count)
    })
}

/// A tile's node list (node → local triangle). Versions 0x69 and 0x6a store none
/// (`docs/formats/nwn2.md` §2.6): there it is the inverse of the stored local-to-node map,
/// which is what the node list of a later version holds for the same tile.
fn node_list(version: u32, tile: &crate::aswm::Tile) -> std::borrow::Cow<'_, [u32]> {
    if version >= 0x6b {
        return std::borrow::Cow::Borrowed(&tile.node_to_local);
    }
    let mut list: Vec<(u8, u32)> = tile
        .local_to_node
        .iter()
        .enumerate()
        .filter(|&(_, &node)| node != NO_NODE)
        .map(|(local, &node)| (node, local as u32))
        .collect();
    list.sort_unstable();
    std::borrow::Cow::Owned(list.into_iter().map(|(_, local)| local).collect())
}

/// §5.1: indices in range and links consistent. Returns false when later checks could index
/// out of range.
fn structure(a: &Aswm, f: &mut Findings) -> bool {
    let (nv, ne, nt, ni) = (
        a.vertices.len(),
        a.edges.len(),
        a.triangles.len(),
        a.islands.len(),
    );
    let before = f.diag.count(Severity::Error);
    for (i, v) in a.vertices.iter().enumerate() {
        if v.iter().any(|c| c.is_nan()) {
            f.error(
                "trx.vertex_nan",
                &format!("aswm.vertices[{i}]"),
                "a coordinate is NaN".into(),
            );
        }
    }
    for (i, e) in a.edges.iter().enumerate() {
        if e.vertices.iter().any(|&v| v as usize >= nv) {
            f.error(
                "trx.edge_vertex_out_of_range",
                &format!("aswm.edges[{i}].vertices"),
                format!("vertices {:?}, but there are {nv}", e.vertices),
            );
        }
        if e.triangles.iter().any(|&t| t != NONE32 && t as usize >= nt) {
            f.error(
                "trx.edge_triangle_out_of_range",
                &format!("aswm.edges[{i}].triangles"),
                format!("triangles {:?}, but there are {nt}", e.triangles),
            );
        }
    }
    for (i, t) in a.triangles.iter().enumerate() {
        let field = || format!("aswm.triangles[{i}]");
        if t.vertices.iter().any(|&v| v as usize >= nv) {
            f.error(
                "trx.triangle_vertex_out_of_range",
                &field(),
                format!("vertices {:?}, but there are {nv}", t.vertices),
            );
        }
        for k in 0..3 {
            let (e, n) = (t.edges[k], t.neighbours[k]);
            if e as usize >= ne {
                f.error(
                    "trx.triangle_edge_out_of_range",
                    &field(),
                    format!(
                        "linked edge {k} is {e}, but there are {ne} edges (none is not allowed)"
                    ),
                );
                continue;
            }
            if n != NONE32 && n as usize >= nt {
                f.error(
                    "trx.triangle_neighbour_out_of_range",
                    &field(),
                    format!("linked triangle {k} is {n}, but there are {nt}"),
                );
                continue;
            }
            if let Some(edge) = a.edges.get(e as usize) {
                let mut have = edge.triangles;
                let mut want = [i as u32, n];
                have.sort_unstable();
                want.sort_unstable();
                if have != want {
                    f.error(
                        "trx.edge_link_mismatch",
                        &field(),
                        format!(
                            "edge {e} links triangles {:?}, but slot {k} says this triangle and {}",
                            edge.triangles,
                            if n == NONE32 {
                                "none".to_string()
                            } else {
                                n.to_string()
                            }
                        ),
                    );
                }
            }
        }
        if ni > 0 && t.island != NONE16 && t.island as usize >= ni {
            f.error(
                "trx.triangle_island_out_of_range",
                &field(),
                format!("island {}, but there are {ni} islands", t.island),
            );
        }
    }
    if a.tile_width.is_nan() || a.tile_width <= 0.0 {
        f.error(
            "trx.tile_width_invalid",
            "aswm.tile_width",
            format!("tile width {} is not positive", a.tile_width),
        );
    }
    let mut owner = vec![u32::MAX; nt];
    for (ti, tile) in a.tiles.iter().enumerate() {
        let field = format!("aswm.tiles[{ti}]");
        let ltn = tile.local_to_node.len();
        let n = node_list(a.version, tile).len();
        let offset = tile.triangles_offset as usize;
        if ltn != 0 && ltn != tile.triangle_count as usize {
            f.error(
                "trx.tile_local_to_node_length",
                &field,
                format!(
                    "local_to_node has {ltn} entries for {} triangles",
                    tile.triangle_count
                ),
            );
        }
        if !(offset < nt || (offset == nt && ltn == 0)) {
            f.error(
                "trx.tile_offset_out_of_range",
                &field,
                format!("triangles_offset {offset} with {nt} triangles"),
            );
        }
        let end = offset.saturating_add(tile.triangle_count as usize);
        if offset.saturating_add(ltn) > nt || end > nt {
            f.error(
                "trx.tile_range_out_of_range",
                &field,
                format!("triangles {offset}..{end} run past the {nt} triangles"),
            );
        } else {
            for t in offset..end {
                if let Some(o) = owner.get_mut(t) {
                    if *o != u32::MAX {
                        f.error(
                            "trx.triangle_in_two_tiles",
                            &format!("aswm.triangles[{t}]"),
                            format!("claimed by tiles {} and {ti}", *o),
                        );
                    }
                    *o = ti as u32;
                }
            }
        }
        if a.version >= 0x6b && tile.nodes.len() != n * n {
            f.error(
                "trx.tile_nodes_length",
                &field,
                format!("{} node entries for {n} nodes", tile.nodes.len()),
            );
        }
        for (j, &node) in tile.nodes.iter().enumerate() {
            if node != NO_NODE && (node & 0x7F) as usize >= n {
                f.error(
                    "trx.tile_node_out_of_range",
                    &format!("{field}.nodes[{j}]"),
                    format!("next node {} but the tile has {n} nodes", node & 0x7F),
                );
            }
        }
        for (j, &node) in tile.local_to_node.iter().enumerate() {
            if node != NO_NODE && node as usize >= n {
                f.error(
                    "trx.tile_local_to_node_out_of_range",
                    &format!("{field}.local_to_node[{j}]"),
                    format!("node {node} but the tile has {n} nodes"),
                );
            }
        }
        for (j, &local) in tile.node_to_local.iter().enumerate() {
            if local as usize >= tile.triangle_count as usize || offset + local as usize >= nt {
                f.error(
                    "trx.tile_node_to_local_out_of_range",
                    &format!("{field}.node_to_local[{j}]"),
                    format!(
                        "local triangle {local} but the tile has {} triangles",
                        tile.triangle_count
                    ),
                );
            }
        }
    }
    for (i, island) in a.islands.iter().enumerate() {
        let field = format!("aswm.islands[{i}]");
        if island.index as usize != i {
            f.error(
                "trx.island_index_mismatch",
                &field,
                format!("index field is {}", island.index),
            );
        }
        if island.adjacent.len() != island.distances.len()
            || island.adjacent.len() != island.exits.len()
        {
            f.error(
                "trx.island_lists_unequal",
                &field,
                format!(
                    "{} adjacent islands, {} distances, {} exits",
                    island.adjacent.len(),
                    island.distances.len(),
                    island.exits.len()
                ),
            );
            continue;
        }
        for (k, (&adj, &exit)) in island.adjacent.iter().zip(&island.exits).enumerate() {
            if adj as usize >= ni {
                f.error(
                    "trx.island_adjacent_out_of_range",
                    &field,
                    format!("adjacent island {k} is {adj}, but there are {ni}"),
                );
                continue;
            }
            let Some(t) = a.triangles.get(exit as usize) else {
                f.error(
                    "trx.island_exit_out_of_range",
                    &field,
                    format!("exit triangle {k} is {exit}, but there are {nt}"),
                );
                continue;
            };
            let reaches = t.neighbours.iter().any(|&n| {
                a.triangles
                    .get(n as usize)
                    .is_some_and(|o| u32::from(o.island) == adj)
            });
            if u32::from(t.island) != i as u32 || !reaches {
                f.error(
                    "trx.island_exit_invalid",
                    &field,
                    format!(
                        "exit triangle {exit} must belong to this island and touch island {adj}"
                    ),
                );
            }
        }
    }
    if a.island_paths.len() != ni * ni {
        f.error(
            "trx.island_paths_length",
            "aswm.island_paths",
            format!("{} entries for {ni} islands", a.island_paths.len()),
        );
    }
    for (k, p) in a.island_paths.iter().enumerate() {
        if p.next != NONE16 && p.next as usize >= ni {
            f.error(
                "trx.island_path_next_out_of_range",
                &format!("aswm.island_paths[{k}]"),
                format!("next island {} but there are {ni}", p.next),
            );
        }
    }
    f.diag.count(Severity::Error) == before
}

/// §5.3: what the official toolset's files always satisfy (errors) and what they break
/// harmlessly (warnings). Runs only on a structurally sound walkmesh.
fn toolset_rules(
    a: &Aswm,
    recompute_derived: bool,
    crowded: &mut dyn FnMut() -> usize,
    f: &mut Findings,
) {
    let nt = a.triangles.len();
    let baked = !a.islands.is_empty() || a.tiles.iter().any(|t| !t.local_to_node.is_empty());
    // Centres, planes, winding flag.
    for (i, t) in a.triangles.iter().enumerate() {
        let field = || format!("aswm.triangles[{i}]");
        let c = bake::centre(&a.vertices, t.vertices);
        if c != t.centre {
            f.error(
                "trx.triangle_centre",
                &field(),
                format!("centre {:?}; the mean of its corners is {:?}", t.centre, c),
            );
        }
        let v0 = a
            .vertices
            .get(t.vertices[0] as usize)
            .copied()
            .unwrap_or([0.0; 3]);
        let n = t.normal;
        let d = -(n[2] * v0[2] + n[1] * v0[1] + n[0] * v0[0]);
        if (d - t.d).abs() > 1e-3 * (1.0 + d.abs()) {
            f.error(
                "trx.triangle_plane",
                &field(),
                format!("plane distance {} does not match −(normal · v0) = {d}", t.d),
            );
        }
        let v = |k: usize| {
            a.vertices
                .get(t.vertices[k] as usize)
                .copied()
                .unwrap_or([0.0; 3])
        };
        let (p0, p1, p2) = (v(0), v(1), v(2));
        let area2 = f64::from(p1[0] - p0[0]) * f64::from(p2[1] - p0[1])
            - f64::from(p1[1] - p0[1]) * f64::from(p2[0] - p0[0]);
        let flagged = t.flags & flags::CLOCKWISE != 0;
        // The flag picks the edge order of the engine's point-in-triangle test, which only
        // matters where something can stand: walkable triangles of measurable XY area. The
        // toolset sets 0x04 on every TRX triangle, downward non-walkable pieces included,
        // and the game loads those files, so non-walkable triangles are not checked.
        let walkable = t.flags & flags::WALKABLE != 0;
        let measurable = area2.abs() > crate::aswm::WINDING_EPSILON;
        if walkable && measurable && ((flagged && area2 > 0.0) || (!flagged && area2 < 0.0)) {
            f.warn(
                "trx.clockwise_flag_mismatch",
                &field(),
                format!(
                    "flag 0x04 is {} but the triangle winds {} seen from above",
                    if flagged { "set" } else { "clear" },
                    if area2 > 0.0 {
                        "counter-clockwise"
                    } else {
                        "clockwise"
                    }
                ),
            );
        }
        if baked && ((t.flags & flags::WALKABLE != 0) != (t.island != NONE16)) {
            f.error(
                "trx.walkable_island_mismatch",
                &field(),
                format!(
                    "walkable flag {} but island {}",
                    t.flags & flags::WALKABLE != 0,
                    if t.island == NONE16 {
                        "none".to_string()
                    } else {
                        t.island.to_string()
                    }
                ),
            );
        }
    }
    // Sides shared by more than two triangles.
    let crowded = crowded();
    if crowded > 0 {
        f.warn(
            "trx.side_shared_by_many",
            "aswm.triangles",
            format!("{crowded} times a side is used by more than two triangles (duplicated or overlapping pieces)"),
        );
    }
    // Tiles: consecutive ranges covering everything, tile membership, node lists, tables.
    let gw = a.grid_width.max(1) as usize;
    let w = a.tile_width;
    let mut running = 0usize;
    let mut tile_of = vec![usize::MAX; nt];
    let mut garbage = 0usize;
    for (ti, tile) in a.tiles.iter().enumerate() {
        let field = format!("aswm.tiles[{ti}]");
        if tile.triangles_offset as usize != running {
            f.error(
                "trx.tiles_not_consecutive",
                &field,
                format!(
                    "triangles start at {} but the previous tiles end at {running}",
                    tile.triangles_offset
                ),
            );
        }
        let start = tile.triangles_offset as usize;
        let end = start + tile.triangle_count as usize;
        running = end;
        if tile.name.iter().any(|&b| b != 0) {
            garbage += 1;
        }
        let (tx, ty) = ((ti % gw) as f32, (ti / gw) as f32);
        let mut vertex_ids = Vec::new();
        let mut edge_ids = Vec::new();
        for t in start..end {
            if let Some(slot) = tile_of.get_mut(t) {
                *slot = ti;
            }
            let Some(tri) = a.triangles.get(t) else {
                continue;
            };
            vertex_ids.extend_from_slice(&tri.vertices);
            edge_ids.extend_from_slice(&tri.edges);
            let c = tri.centre;
            let dist_out = [
                tx * w - c[0],
                c[0] - (tx + 1.0) * w,
                ty * w - c[1],
                c[1] - (ty + 1.0) * w,
            ]
            .into_iter()
            .fold(f32::MIN, f32::max);
            if dist_out > bake::KEEP_TILE_SLACK {
                f.error(
                    "trx.triangle_outside_tile",
                    &format!("aswm.triangles[{t}]"),
                    format!("centre {c:?} lies {dist_out} m outside tile {ti}"),
                );
            } else if dist_out > 0.0 {
                // A centre exactly on a tile's upper edge is not reported: the toolset keeps
                // such triangles (wall slivers standing on the boundary) in the tile their
                // model came from, 1,462 times in 87 official files, and the game loads
                // them. Past the edge (up to the slack official files show) is loose.
                f.warn(
                    "trx.triangle_on_tile_edge",
                    &format!("aswm.triangles[{t}]"),
                    format!("centre {c:?} lies {dist_out} m past the edge of tile {ti}"),
                );
            }
        }
        vertex_ids.sort_unstable();
        vertex_ids.dedup();
        edge_ids.sort_unstable();
        edge_ids.dedup();
        if vertex_ids.len() != tile.vertex_count as usize
            || edge_ids.len() != tile.edge_count as usize
        {
            f.warn(
                "trx.tile_counts",
                &field,
                format!(
                    "header says {} vertices and {} edges; its triangles use {} and {}",
                    tile.vertex_count,
                    tile.edge_count,
                    vertex_ids.len(),
                    edge_ids.len()
                ),
            );
        }
        if !baked || tile.local_to_node.is_empty() && tile.triangle_count == 0 {
            continue;
        }
        let walkable: Vec<u32> = (start..end)
            .filter(|&t| {
                a.triangles
                    .get(t)
                    .is_some_and(|x| x.flags & flags::WALKABLE != 0)
            })
            .map(|t| (t - start) as u32)
            .collect();
        if walkable.len() > bake::MAX_TILE_NODES {
            f.error(
                "trx.tile_too_many_nodes",
                &field,
                format!(
                    "{} walkable triangles; at most {} fit",
                    walkable.len(),
                    bake::MAX_TILE_NODES
                ),
            );
        }
        if *node_list(a.version, tile) != walkable[..] {
            f.error(
                "trx.tile_node_list",
                &field,
                "node_to_local is not the ascending list of the tile's walkable triangles".into(),
            );
            continue;
        }
        if recompute_derived {
            check_tile_paths(a, ti, start, end, f);
        }
    }
    if running != nt {
        f.error(
            "trx.tiles_not_covering",
            "aswm.tiles",
            format!("the tiles hold {running} triangles of {nt}"),
        );
    }
    if a.name.iter().any(|&b| b != 0) || garbage > 0 {
        f.warn(
            "trx.garbage_fields",
            "aswm.header.name",
            format!(
                "the walkmesh name{} hold uninitialised bytes (harmless; a rebake zeroes them)",
                if garbage > 0 {
                    format!(" and {garbage} tile names")
                } else {
                    String::new()
                }
            ),
        );
    }
    if baked {
        check_islands(a, &tile_of, recompute_derived, f);
    }
}

/// Next hops: adjacent, terminating, reachability = connectivity, shortest by centre distance.
fn check_tile_paths(a: &Aswm, ti: usize, start: usize, end: usize, f: &mut Findings) {
    let Some(tile) = a.tiles.get(ti) else { return };
    let field = format!("aswm.tiles[{ti}]");
    let nodes = node_list(a.version, tile);
    let n = nodes.len();
    let tri = |node: usize| {
        nodes
            .get(node)
            .and_then(|&l| a.triangles.get(start + l as usize))
    };
    let adjacency: Vec<Vec<(usize, f32)>> = (0..n)
        .map(|s| {
            let mut list = Vec::new();
            if let Some(t) = tri(s) {
                for &nb in &t.neighbours {
                    let nb = nb as usize;
                    if nb >= start && nb < end {
                        let node = tile
                            .local_to_node
                            .get(nb - start)
                            .copied()
                            .unwrap_or(NO_NODE);
                        if node != NO_NODE && !list.iter().any(|&(m, _)| m == node as usize) {
                            let other = a.triangles.get(nb).map_or([0.0; 2], |o| o.centre);
                            list.push((node as usize, bake::distance(t.centre, other)));
                        }
                    }
                }
            }
            list
        })
        .collect();
    // Connected parts of the tile's walkable triangles: the table must give a path exactly
    // between nodes of one part.
    let mut part = vec![usize::MAX; n];
    let mut queue = Vec::new();
    for seed in 0..n {
        if part.get(seed).is_some_and(|&p| p != usize::MAX) {
            continue;
        }
        queue.clear();
        queue.push(seed);
        if let Some(p) = part.get_mut(seed) {
            *p = seed;
        }
        while let Some(node) = queue.pop() {
            for &(next, _) in adjacency.get(node).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(p) = part.get_mut(next)
                    && *p == usize::MAX
                {
                    *p = seed;
                    queue.push(next);
                }
            }
        }
    }
    let entry = |s: usize, t: usize| tile.nodes.get(s * n + t).copied().unwrap_or(NO_NODE);
    for t in 0..n {
        // Cost along the stored next hops towards t, memoised; cycles detected.
        let mut cost = vec![f64::NAN; n];
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        if let Some(c) = cost.get_mut(t) {
            *c = 0.0;
        }
        if let Some(s) = state.get_mut(t) {
            *s = 2;
        }
        for s in 0..n {
            if s == t {
                if entry(s, s) != NO_NODE {
                    f.error(
                        "trx.path_diagonal",
                        &field,
                        format!("nodes[{s}][{s}] is {:#x}, not 0xFF", entry(s, s)),
                    );
                }
                continue;
            }
            let reachable = part.get(s).is_some() && part.get(s) == part.get(t);
            let e = entry(s, t);
            if (e == NO_NODE) == reachable {
                f.error(
                    "trx.path_reachability",
                    &field,
                    format!(
                        "node {s} → {t}: the table says {} but the walkable triangles {} connected inside the tile",
                        if e == NO_NODE { "no path" } else { "a path" },
                        if reachable { "are" } else { "are not" }
                    ),
                );
                continue;
            }
            if e == NO_NODE {
                continue;
            }
            // Walk s → t iteratively.
            let mut stack = vec![s];
            while let Some(&cur) = stack.last() {
                match state.get(cur).copied().unwrap_or(2) {
                    2 => {
                        stack.pop();
                        continue;
                    }
                    1 => {
                        // Returning from the next hop: finish cur.
                        let next = (entry(cur, t) & 0x7F) as usize;
                        let step = adjacency
                            .get(cur)
                            .and_then(|l| l.iter().find(|&&(m, _)| m == next))
                            .map(|&(_, d)| d);
                        let value = match (step, cost.get(next).copied()) {
                            (Some(d), Some(rest)) if rest.is_finite() => rest + f64::from(d),
                            _ => f64::INFINITY,
                        };
                        if let Some(c) = cost.get_mut(cur) {
                            *c = value;
                        }
                        if let Some(st) = state.get_mut(cur) {
                            *st = 2;
                        }
                        stack.pop();
                    }
                    _ => {
                        if let Some(st) = state.get_mut(cur) {
                            *st = 1;
                        }
                        let e = entry(cur, t);
                        let next = (e & 0x7F) as usize;
                        if e == NO_NODE || next >= n {
                            if let Some(c) = cost.get_mut(cur) {
                                *c = f64::INFINITY;
                            }
                            if let Some(st) = state.get_mut(cur) {
                                *st = 2;
                            }
                            stack.pop();
                            continue;
                        }
                        if !adjacency
                            .get(cur)
                            .is_some_and(|l| l.iter().any(|&(m, _)| m == next))
                        {
                            f.error(
                                "trx.path_next_not_adjacent",
                                &field,
                                format!("node {cur} → {t}: next node {next} is not a walkable neighbour in the tile"),
                            );
                        }
                        match state.get(next).copied().unwrap_or(2) {
                            1 => {
                                f.error(
                                    "trx.path_loop",
                                    &field,
                                    format!(
                                        "following the table from node {cur} towards {t} loops"
                                    ),
                                );
                                if let Some(c) = cost.get_mut(cur) {
                                    *c = f64::INFINITY;
                                }
                                if let Some(st) = state.get_mut(cur) {
                                    *st = 2;
                                }
                                stack.pop();
                            }
                            0 => stack.push(next),
                            _ => {}
                        }
                    }
                }
            }
        }
        // Shortest: the costs along the table's hops must satisfy Bellman's condition at
        // every node (no neighbour offers a shorter way on), which with positive steps makes
        // them the shortest costs — checked in O(edges) per target instead of a search from
        // every node. 1e-5 per step covers the toolset's f32 sums.
        for (s, neighbours) in adjacency.iter().enumerate() {
            let have = cost.get(s).copied().unwrap_or(f64::INFINITY);
            if s == t || !have.is_finite() {
                continue;
            }
            let shorter = neighbours
                .iter()
                .filter_map(|&(u, d)| {
                    let rest = cost.get(u).copied().filter(|c| c.is_finite())?;
                    Some((u, rest + f64::from(d)))
                })
                .find(|&(_, via)| have > via + 1e-5 * (1.0 + via));
            if let Some((u, via)) = shorter {
                f.error(
                    "trx.path_not_shortest",
                    &field,
                    format!(
                        "node {s} → {t}: the table's path is {have:.4} m; through neighbour {u} it is {via:.4} m"
                    ),
                );
            }
        }
    }
}

/// Islands: one tile each, numbering, members, centre, exits, adjacency order, distances,
/// island paths (shortest, first-hop weight).
fn check_islands(a: &Aswm, tile_of: &[usize], recompute_derived: bool, f: &mut Findings) {
    let ni = a.islands.len();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); ni];
    for (t, tri) in a.triangles.iter().enumerate() {
        if let Some(m) = members.get_mut(tri.island as usize) {
            m.push(t);
        }
    }
    let mut previous = (0usize, 0usize);
    for (i, island) in a.islands.iter().enumerate() {
        let field = format!("aswm.islands[{i}]");
        let m = members.get(i).map(Vec::as_slice).unwrap_or(&[]);
        if island.triangle_count as usize != m.len() {
            f.error(
                "trx.island_triangle_count",
                &field,
                format!(
                    "says {} triangles, {} carry its index",
                    island.triangle_count,
                    m.len()
                ),
            );
        }
        let Some(&first) = m.first() else {
            f.error(
                "trx.island_empty",
                &field,
                "no triangle belongs to the island".into(),
            );
            continue;
        };
        let tile = tile_of.get(first).copied().unwrap_or(usize::MAX);
        if m.iter().any(|&t| tile_of.get(t).copied() != Some(tile)) {
            f.error(
                "trx.island_spans_tiles",
                &field,
                "its triangles lie in more than one tile".into(),
            );
        }
        if i > 0 && (tile, first) < previous {
            f.error(
                "trx.island_numbering",
                &field,
                "islands are not numbered by tile, then by first triangle".into(),
            );
        }
        previous = (tile, first);
        let mut sum = [0.0f32; 2];
        for &t in m {
            let c = a.triangles.get(t).map_or([0.0; 2], |x| x.centre);
            sum[0] += c[0];
            sum[1] += c[1];
        }
        let r = 1.0 / m.len() as f32;
        let centre = [sum[0] * r, sum[1] * r];
        if (centre[0] - island.centre[0]).abs() > 1e-3
            || (centre[1] - island.centre[1]).abs() > 1e-3
        {
            f.error(
                "trx.island_centre",
                &field,
                format!(
                    "centre {:?}; the mean of its triangle centres is {centre:?}",
                    island.centre
                ),
            );
        }
        // Adjacency in scan order, exit = first triangle met.
        let mut adjacent = Vec::new();
        let mut exits = Vec::new();
        for &t in m {
            for &nb in &a.triangles.get(t).map_or([NONE32; 3], |x| x.neighbours) {
                let Some(o) = a.triangles.get(nb as usize) else {
                    continue;
                };
                let other = u32::from(o.island);
                if o.island != NONE16 && other != i as u32 && !adjacent.contains(&other) {
                    adjacent.push(other);
                    exits.push(t as u32);
                }
            }
        }
        let mut sorted_have = island.adjacent.clone();
        sorted_have.sort_unstable();
        let mut sorted_want = adjacent.clone();
        sorted_want.sort_unstable();
        if sorted_have != sorted_want {
            f.error(
                "trx.island_adjacency",
                &field,
                format!(
                    "adjacent islands {:?}; its triangles touch {:?}",
                    island.adjacent, adjacent
                ),
            );
        } else if island.adjacent != adjacent {
            f.warn(
                "trx.island_adjacency_order",
                &field,
                format!(
                    "adjacent islands {:?}; the toolset lists them in scan order {:?}",
                    island.adjacent, adjacent
                ),
            );
        } else if island.exits != exits {
            f.warn(
                "trx.island_exit_not_lowest",
                &field,
                format!(
                    "exits {:?}; the toolset uses the lowest touching triangle {:?}",
                    island.exits, exits
                ),
            );
        }
        for (k, &adj) in island.adjacent.iter().enumerate() {
            let there = a.islands.get(adj as usize).map_or([0.0; 3], |x| x.centre);
            let d = bake::distance([island.centre[0], island.centre[1]], [there[0], there[1]]);
            let have = island.distances.get(k).copied().unwrap_or(f32::NAN);
            if (have - d).abs() > 1e-3 * (1.0 + d) {
                f.error(
                    "trx.island_distance",
                    &field,
                    format!("distance to island {adj} is {have}; the centres are {d} apart"),
                );
            }
        }
    }
    // Island paths: distance-optimal, first-hop weight.
    if !recompute_derived {
        return;
    }
    let graph: Vec<Vec<(usize, f32)>> = a
        .islands
        .iter()
        .map(|i| {
            i.adjacent
                .iter()
                .zip(&i.distances)
                .map(|(&x, &d)| (x as usize, d))
                .collect()
        })
        .collect();
    let best = walkmesh_core::passes::shortest_costs(&graph);
    for s in 0..ni {
        for t in 0..ni {
            let Some(p) = a.island_paths.get(s * ni + t) else {
                continue;
            };
            let field = || format!("aswm.island_paths[{}]", s * ni + t);
            let reachable = s != t && best.get(s * ni + t).is_some_and(|c| c.is_finite());
            if (p.next == NONE16) == reachable {
                f.error(
                    "trx.island_path_reachability",
                    &field(),
                    format!(
                        "island {s} → {t}: next is {} but the islands {} connected",
                        p.next,
                        if reachable { "are" } else { "are not" }
                    ),
                );
                continue;
            }
            if p.next == NONE16 {
                continue;
            }
            let next = p.next as usize;
            let Some(&(_, d)) = graph
                .get(s)
                .and_then(|l| l.iter().find(|&&(m, _)| m == next))
            else {
                f.error(
                    "trx.island_path_next_not_adjacent",
                    &field(),
                    format!("island {s} → {t}: next island {next} is not adjacent"),
                );
                continue;
            };
            if (p.weight - d).abs() > 1e-3 * (1.0 + d) {
                f.error(
                    "trx.island_path_weight",
                    &field(),
                    format!("weight {} but the first hop is {d} long", p.weight),
                );
            }
            let via = f64::from(d) + best.get(next * ni + t).copied().unwrap_or(f64::INFINITY);
            let want = best.get(s * ni + t).copied().unwrap_or(f64::INFINITY);
            if via > want + 1e-4 * (1.0 + want) {
                f.error(
                    "trx.island_path_not_shortest",
                    &field(),
                    format!("island {s} → {t} via {next} is {via:.4} m, the shortest {want:.4} m"),
                );
            }
        }
    }
}
