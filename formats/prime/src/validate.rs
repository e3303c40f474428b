//! The engine's rules for PATH files (`docs/formats/prime.md` §5), as findings with stable codes.
//!
//! | code | severity | rule |
//! | --- | --- | --- |
//! | `path.version_not_mp1` | info | version 6/7: the MP1 runtime accepts only 4 |
//! | `path.too_many_regions` | error | at most 512 regions |
//! | `path.region_index_mismatch` | error | `region.index` equals its position |
//! | `path.region_nodes_invalid` | error | ≥ 3 nodes, node range inside the node table |
//! | `path.region_links_invalid` | error | link range inside the link table |
//! | `path.non_finite` | error | NaN or infinite numbers in a region or its nodes |
//! | `path.region_normal_invalid` | error | unit plane normal pointing up |
//! | `path.region_not_flat` | error | every node on the plane through node 0 |
//! | `path.region_not_clockwise` | error | nodes clockwise seen from +Z |
//! | `path.region_not_convex` | error | no reflex corner seen from +Z |
//! | `path.node_normal_mismatch` | error | node normal = `normalize((next − this) × +Z)` |
//! | `path.region_box_too_small` | error | box holds every node and node + height |
//! | `path.region_height_invalid` | warning | height positive and finite |
//! | `path.region_unusable` | warning | type mask 0: no searcher may use the region |
//! | `path.link_node_invalid` | error | link node < region node count |
//! | `path.link_region_invalid` | error | link region exists and is not the owner |
//! | `path.link_not_reciprocal` | error | the neighbour links back with the same width |
//! | `path.link_width_mismatch` | error | width = XY length of the edge |
//! | `path.link_inverse_width_mismatch` | error | inverse width = 1 / width |
//! | `path.ground_bits_mismatch`, `path.flyer_bits_mismatch` | error | tables = components over links |
//! | `path.reserved_nonzero` | error | reserved words are zero |
//! | `path.octree_empty` | error | at least the root node |
//! | `path.octree_child_invalid` | error | branch nodes have 8 valid children |
//! | `path.octree_child_order` | error | children come before their parent |
//! | `path.octree_cycle` | error | the tree reachable from the root has no cycle |
//! | `path.octree_leaf_range_invalid` | error | leaf range inside the lookup table |
//! | `path.octree_lookup_invalid` | error | lookup entries name existing regions |
//! | `path.octree_region_missing` | error | every region is listed in every leaf its box overlaps |
//! | `path.trailing_bytes` | info | bytes after the last section that are not 0xFF padding |

use std::collections::{HashMap, HashSet};

use walkmesh_core::{Diagnostic, Diagnostics, Input, Position, ReadError, ReadOptions, Severity};

use crate::cook::{MAX_REGIONS, connectivity_bits};
use crate::model::{
    LINK_SIZE, NODE_SIZE, OCTREE_NODE_SIZE, PathFile, VERSION_MP1, pair_bit, region_size,
};
use crate::octree::Aabb;

/// Validates PATH files.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathValidator;

impl walkmesh_core::Validator for PathValidator {
    fn validate(
        &self,
        input: Input<'_>,
        _options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError> {
        let file = PathFile::parse(input.bytes)?;
        Ok(findings(&file))
    }
}

/// Relative tolerance for lengths and unit vectors.
const TOLERANCE: f64 = 1e-4;
/// Distance from the region plane allowed for "flat".
const FLAT_DISTANCE: f64 = 1e-3;

struct Report<'a> {
    diag: Diagnostics,
    file: &'a PathFile,
    /// At most this many findings per code, then one summary.
    counts: HashMap<&'static str, usize>,
}

const PER_CODE: usize = 20;

impl Report<'_> {
    fn push(
        &mut self,
        severity: Severity,
        code: &'static str,
        offset: u64,
        field: String,
        message: String,
    ) {
        let count = self.counts.entry(code).or_insert(0);
        *count += 1;
        if *count <= PER_CODE {
            self.diag.push(
                severity,
                code,
                Position::Offset(offset),
                Some(&field),
                message,
            );
        }
    }

    fn region_offset(&self, r: usize) -> u64 {
        self.file.layout.regions + r as u64 * region_size(self.file.version)
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        let mut extra: Vec<(&'static str, usize)> = self
            .counts
            .iter()
            .filter(|(_, n)| **n > PER_CODE)
            .map(|(&code, &n)| (code, n))
            .collect();
        extra.sort_unstable();
        for (code, n) in extra {
            let severity = self
                .diag
                .items
                .iter()
                .find(|d| d.code == code)
                .map_or(Severity::Warning, |d| d.severity);
            self.diag.push(
                severity,
                code,
                Position::None,
                None,
                format!("{} more finding(s) of this kind not listed", n - PER_CODE),
            );
        }
        self.diag.items
    }
}

fn f64s(v: [f32; 3]) -> [f64; 3] {
    v.map(f64::from)
}

/// Every finding for a parsed file.
pub fn findings(file: &PathFile) -> Vec<Diagnostic> {
    report(file).finish()
}

/// The errors our validator finds in a file the writer is about to copy unchanged (`bytes`,
/// the file a mesh was read from): links, tables and octree are derived data, copied without
/// a look before (issue #51). Each code is counted in full, not only the findings listed.
pub fn stored_errors(bytes: &[u8]) -> walkmesh_core::stored::StoredErrors {
    use walkmesh_core::stored::StoredErrors;
    match PathFile::parse(bytes) {
        Ok(file) => {
            let report = report(&file);
            StoredErrors::counted(&report.diag.items, |code| report.counts.get(code).copied())
        }
        Err(error) => StoredErrors::unreadable(&error),
    }
}

/// Every rule applied to `file`, the findings not yet closed (the counts per code kept).
fn report(file: &PathFile) -> Report<'_> {
    let mut report = Report {
        diag: Diagnostics::new(),
        file,
        counts: HashMap::new(),
    };
    let n = file.regions.len();
    if file.version != VERSION_MP1 {
        report.push(
            Severity::Info,
            "path.version_not_mp1",
            0,
            "header.version".into(),
            format!(
                "version {} is not read by Metroid Prime 1 (which accepts only 4)",
                file.version
            ),
        );
    }
    if n > MAX_REGIONS {
        report.push(
            Severity::Error,
            "path.too_many_regions",
            file.layout.regions.saturating_sub(4),
            "regions.count".into(),
            format!("{n} regions; the engine refuses areas with more than {MAX_REGIONS}"),
        );
    }
    let mut regions_ok = vec![false; n];
    for (r, region) in file.regions.iter().enumerate() {
        regions_ok[r] = check_region(&mut report, r);
        if region.type_mask == 0 {
            report.push(
                Severity::Warning,
                "path.region_unusable",
                report.region_offset(r) + 0x12,
                format!("regions[{r}].type_mask"),
                format!("region {r} has type mask 0, so no searcher can use it"),
            );
        }
    }
    check_links(&mut report, &regions_ok);
    check_tables(&mut report);
    check_octree(&mut report);
    if !file.trailing.is_empty() && file.trailing.iter().any(|&b| b != 0xFF) {
        report.push(
            Severity::Info,
            "path.trailing_bytes",
            file.layout.trailing,
            "trailing".into(),
            format!(
                "{} byte(s) after the last section are not 0xFF padding; the engine ignores them",
                file.trailing.len()
            ),
        );
    }
    report
}

/// Checks one region and its nodes; true when its node range is usable.
fn check_region(report: &mut Report<'_>, r: usize) -> bool {
    let file = report.file;
    let Some(region) = file.regions.get(r) else {
        return false;
    };
    let offset = report.region_offset(r);
    if region.index as usize != r {
        report.push(
            Severity::Error,
            "path.region_index_mismatch",
            offset + 0x24,
            format!("regions[{r}].index"),
            format!("region {r} says it is region {}", region.index),
        );
    }
    let start = region.node_start as usize;
    let count = region.node_count as usize;
    let nodes = match start
        .checked_add(count)
        .and_then(|end| file.nodes.get(start..end))
    {
        Some(nodes) if count >= 3 => nodes,
        _ => {
            report.push(
                Severity::Error,
                "path.region_nodes_invalid",
                offset,
                format!("regions[{r}].node_count"),
                format!(
                    "region {r} uses nodes {start}..{} of {}; a region needs at least 3 nodes inside the node table",
                    start as u64 + count as u64,
                    file.nodes.len()
                ),
            );
            return false;
        }
    };
    let link_start = region.link_start as usize;
    let link_count = region.link_count as usize;
    if link_count > 0
        && link_start
            .checked_add(link_count)
            .is_none_or(|end| end > file.links.len())
    {
        report.push(
            Severity::Error,
            "path.region_links_invalid",
            offset + 8,
            format!("regions[{r}].link_count"),
            format!(
                "region {r} uses links {link_start}..{} of {}",
                link_start as u64 + link_count as u64,
                file.links.len()
            ),
        );
    }
    let finite = nodes
        .iter()
        .flat_map(|n| n.position.iter().chain(&n.normal))
        .chain(&region.normal)
        .chain(&region.centroid)
        .chain(&region.aabb_min)
        .chain(&region.aabb_max)
        .chain(std::iter::once(&region.height))
        .all(|v| v.is_finite());
    if !finite {
        report.push(
            Severity::Error,
            "path.non_finite",
            offset,
            format!("regions[{r}]"),
            format!("region {r} or one of its nodes holds a NaN or infinite number"),
        );
        return true;
    }
    if region.height <= 0.0 {
        report.push(
            Severity::Warning,
            "path.region_height_invalid",
            offset + 0x14,
            format!("regions[{r}].height"),
            format!(
                "region {r} has height {}; the prism is empty",
                region.height
            ),
        );
    }
    let normal = f64s(region.normal);
    let normal_len = (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt();
    if (normal_len - 1.0).abs() > TOLERANCE || normal[2] <= 0.0 {
        report.push(
            Severity::Error,
            "path.region_normal_invalid",
            offset + 0x18,
            format!("regions[{r}].normal"),
            format!(
                "region {r} normal {:?} is not a unit vector pointing up",
                region.normal
            ),
        );
    }
    let points: Vec<[f64; 3]> = nodes.iter().map(|n| f64s(n.position)).collect();
    let p0 = points[0];
    let span = points
        .iter()
        .map(|p| ((p[0] - p0[0]).powi(2) + (p[1] - p0[1]).powi(2) + (p[2] - p0[2]).powi(2)).sqrt())
        .fold(0.0f64, f64::max);
    if normal_len > 0.0 {
        let worst = points
            .iter()
            .map(|p| {
                ((p[0] - p0[0]) * normal[0]
                    + (p[1] - p0[1]) * normal[1]
                    + (p[2] - p0[2]) * normal[2])
                    .abs()
                    / normal_len
            })
            .fold(0.0f64, f64::max);
        if worst > FLAT_DISTANCE + TOLERANCE * span {
            report.push(
                Severity::Error,
                "path.region_not_flat",
                offset,
                format!("regions[{r}]"),
                format!("region {r} has a node {worst:.6} away from its plane"),
            );
        }
    }
    // Seen from +Z: clockwise and convex.
    let m = points.len();
    let mut twice_area = 0.0f64;
    for i in 0..m {
        let a = points[i];
        let b = points[(i + 1) % m];
        twice_area += a[0] * b[1] - b[0] * a[1];
    }
    if twice_area >= 0.0 {
        report.push(
            Severity::Error,
            "path.region_not_clockwise",
            file.layout.nodes + region.node_start as u64 * NODE_SIZE,
            format!("regions[{r}].nodes"),
            format!(
                "region {r} nodes are not clockwise seen from +Z (signed area {:.6})",
                twice_area / 2.0
            ),
        );
    } else {
        for i in 0..m {
            let (u, a, w) = (points[(i + m - 1) % m], points[i], points[(i + 1) % m]);
            let (d1x, d1y) = (a[0] - u[0], a[1] - u[1]);
            let (d2x, d2y) = (w[0] - a[0], w[1] - a[1]);
            let cross = d1x * d2y - d1y * d2x;
            let scale = d1x.hypot(d1y) * d2x.hypot(d2y);
            // Only an exact reversal is a U-turn: slivers are thin but still convex.
            let u_turn = cross.abs() <= 1e-12 * scale && d1x * d2x + d1y * d2y < 0.0;
            if cross > TOLERANCE * scale || u_turn {
                report.push(
                    Severity::Error,
                    "path.region_not_convex",
                    file.layout.nodes + (start + i) as u64 * NODE_SIZE,
                    format!("nodes[{}]", start + i),
                    format!("region {r} turns the wrong way at its node {i} (seen from +Z)"),
                );
                break;
            }
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        let a = points[i];
        let b = points[(i + 1) % m];
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = dx.hypot(dy);
        let expected = if len > 0.0 {
            [dy / len, -dx / len, 0.0]
        } else {
            [0.0; 3]
        };
        let got = f64s(node.normal);
        let off = (0..3)
            .map(|k| (got[k] - expected[k]).abs())
            .fold(0.0, f64::max);
        if len == 0.0 || off > TOLERANCE * 10.0 {
            report.push(
                Severity::Error,
                "path.node_normal_mismatch",
                file.layout.nodes + (start + i) as u64 * NODE_SIZE + 12,
                format!("nodes[{}].normal", start + i),
                format!(
                    "node {i} of region {r} has normal {:?}; its edge's inward horizontal normal is {:?}",
                    node.normal,
                    expected.map(|v| v as f32)
                ),
            );
        }
    }
    let lo = f64s(region.aabb_min);
    let hi = f64s(region.aabb_max);
    let slack = |v: f64| 1e-5 * v.abs().max(1.0);
    let outside = points.iter().any(|p| {
        let top = [p[0], p[1], p[2] + f64::from(region.height)];
        [*p, top]
            .iter()
            .any(|q| (0..3).any(|k| q[k] < lo[k] - slack(q[k]) || q[k] > hi[k] + slack(q[k])))
    });
    if outside {
        report.push(
            Severity::Error,
            "path.region_box_too_small",
            offset + 0x34,
            format!("regions[{r}].aabb"),
            format!("region {r}'s box does not hold all its nodes and the prism above them"),
        );
    }
    true
}

fn check_links(report: &mut Report<'_>, regions_ok: &[bool]) {
    let file = report.file;
    let n = file.regions.len();
    // (from, to) -> widths of links from `from` to `to`.
    let mut widths: HashMap<(u32, u32), Vec<f32>> = HashMap::new();
    let mut owned: Vec<(usize, usize)> = Vec::new();
    for (r, region) in file.regions.iter().enumerate() {
        let start = region.link_start as usize;
        let count = region.link_count as usize;
        if count == 0 {
            continue;
        }
        let Some(end) = start.checked_add(count).filter(|&e| e <= file.links.len()) else {
            continue;
        };
        for l in start..end {
            owned.push((r, l));
        }
    }
    for &(r, l) in &owned {
        let (Some(region), Some(link)) = (file.regions.get(r), file.links.get(l)) else {
            continue;
        };
        let at = file.layout.links + l as u64 * LINK_SIZE;
        if link.node >= region.node_count {
            report.push(
                Severity::Error,
                "path.link_node_invalid",
                at,
                format!("links[{l}].node"),
                format!(
                    "link {l} of region {r} starts at node {}, but the region has {} nodes",
                    link.node, region.node_count
                ),
            );
            continue;
        }
        if link.region as usize >= n || link.region as usize == r {
            report.push(
                Severity::Error,
                "path.link_region_invalid",
                at + 4,
                format!("links[{l}].region"),
                format!(
                    "link {l} of region {r} leads to region {} (of {n})",
                    link.region
                ),
            );
            continue;
        }
        widths
            .entry((r as u32, link.region))
            .or_default()
            .push(link.width);
        let expected_inv = 1.0 / f64::from(link.width);
        if !(f64::from(link.inv_width) - expected_inv)
            .abs()
            .le(&(1e-6 * expected_inv.abs()))
        {
            report.push(
                Severity::Error,
                "path.link_inverse_width_mismatch",
                at + 12,
                format!("links[{l}].inv_width_2d"),
                format!(
                    "link {l} stores 1/width = {}, but its width is {}",
                    link.inv_width, link.width
                ),
            );
        }
        if regions_ok.get(r).copied().unwrap_or(false) {
            let start = region.node_start as usize;
            let count = region.node_count as usize;
            let a = file.nodes.get(start + link.node as usize);
            let b = file
                .nodes
                .get(start + (link.node as usize + 1) % count.max(1));
            if let (Some(a), Some(b)) = (a, b) {
                let dx = f64::from(b.position[0]) - f64::from(a.position[0]);
                let dy = f64::from(b.position[1]) - f64::from(a.position[1]);
                let len = dx.hypot(dy);
                if (f64::from(link.width) - len).abs() > TOLERANCE * len.max(1.0) {
                    report.push(
                        Severity::Error,
                        "path.link_width_mismatch",
                        at + 8,
                        format!("links[{l}].width_2d"),
                        format!(
                            "link {l} of region {r} has width {}, but its edge is {len:.6} long seen from above",
                            link.width
                        ),
                    );
                }
            }
        }
    }
    for &(r, l) in &owned {
        let Some(link) = file.links.get(l) else {
            continue;
        };
        if link.region as usize >= n || link.region as usize == r {
            continue;
        }
        let back = widths.get(&(link.region, r as u32));
        let matched = back.is_some_and(|ws| {
            ws.iter().any(|&w| {
                (f64::from(w) - f64::from(link.width)).abs()
                    <= TOLERANCE * f64::from(link.width).abs().max(1.0)
            })
        });
        if !matched {
            report.push(
                Severity::Error,
                "path.link_not_reciprocal",
                file.layout.links + l as u64 * LINK_SIZE,
                format!("links[{l}]"),
                match back {
                    None => format!("region {r} links to region {}, which does not link back", link.region),
                    Some(_) => format!(
                        "region {r} links to region {} with width {}, but no link back has that width",
                        link.region, link.width
                    ),
                },
            );
        }
    }
}

fn check_tables(report: &mut Report<'_>) {
    let file = report.file;
    let n = file.regions.len() as u64;
    for (name, code, words, start, mask) in [
        (
            "ground",
            "path.ground_bits_mismatch",
            &file.ground,
            file.layout.ground,
            1u16,
        ),
        (
            "flyer",
            "path.flyer_bits_mismatch",
            &file.flyer,
            file.layout.flyer,
            3u16,
        ),
    ] {
        let expected = connectivity_bits(file, mask);
        if &expected == words {
            continue;
        }
        // Name the first pair that differs.
        let mut first = None;
        'search: for i in 0..n {
            for j in i + 1..n {
                let bit = pair_bit(n, i, j);
                let have = words
                    .get((bit / 32) as usize)
                    .is_some_and(|w| w >> (bit % 32) & 1 == 1);
                let want = expected
                    .get((bit / 32) as usize)
                    .is_some_and(|w| w >> (bit % 32) & 1 == 1);
                if have != want {
                    first = Some((i, j, bit, have));
                    break 'search;
                }
            }
        }
        let message = match first {
            Some((i, j, _, have)) => format!(
                "the {name} table says a path {} between regions {i} and {j}, but the links say otherwise",
                if have { "exists" } else { "does not exist" }
            ),
            None => format!("the {name} table has bits set past the last region pair"),
        };
        let offset = first.map_or(start, |(_, _, bit, _)| start + (bit / 32) * 4);
        report.push(Severity::Error, code, offset, name.to_string(), message);
    }
    if let Some(k) = file.reserved.iter().position(|&w| w != 0) {
        report.push(
            Severity::Error,
            "path.reserved_nonzero",
            file.layout.reserved + k as u64 * 4,
            format!("reserved[{k}]"),
            format!("reserved word {k} is {:#x}; the engine skips these words and the cooker writes zeros", file.reserved[k]),
        );
    }
}

fn check_octree(report: &mut Report<'_>) {
    let file = report.file;
    let count = file.octree.len();
    let n = file.regions.len();
    let node_at = |i: usize| file.layout.octree + i as u64 * OCTREE_NODE_SIZE;
    let Some(root) = count.checked_sub(1) else {
        report.push(
            Severity::Error,
            "path.octree_empty",
            file.layout.octree.saturating_sub(4),
            "octree.count".into(),
            "the octree has no nodes; the engine needs a root".into(),
        );
        return;
    };
    for (k, &entry) in file.lookup.iter().enumerate() {
        if entry as usize >= n {
            report.push(
                Severity::Error,
                "path.octree_lookup_invalid",
                file.layout.lookup + k as u64 * 4,
                format!("octree_lookup[{k}]"),
                format!("lookup entry {k} names region {entry}, but there are {n} regions"),
            );
        }
    }
    // Walk from the root, iteratively; a node seen twice means a cycle or shared child.
    let mut seen = vec![false; count];
    let mut stack = vec![root];
    let mut leaves: Vec<usize> = Vec::new();
    while let Some(i) = stack.pop() {
        if seen[i] {
            report.push(
                Severity::Error,
                "path.octree_cycle",
                node_at(i),
                format!("octree[{i}]"),
                format!("octree node {i} is reached twice from the root"),
            );
            continue;
        }
        seen[i] = true;
        let node = &file.octree[i];
        if node.is_leaf != 0 {
            let start = node.region_start as usize;
            if start
                .checked_add(node.region_count as usize)
                .is_none_or(|end| end > file.lookup.len())
            {
                report.push(
                    Severity::Error,
                    "path.octree_leaf_range_invalid",
                    node_at(i) + 0x48,
                    format!("octree[{i}].region_count"),
                    format!(
                        "leaf {i} lists lookup entries {start}..{} of {}",
                        start as u64 + u64::from(node.region_count),
                        file.lookup.len()
                    ),
                );
            } else {
                leaves.push(i);
            }
            continue;
        }
        for (k, &child) in node.children.iter().enumerate() {
            if child & 0x8000_0000 != 0 || child as usize >= count {
                report.push(
                    Severity::Error,
                    "path.octree_child_invalid",
                    node_at(i) + 0x28 + k as u64 * 4,
                    format!("octree[{i}].children[{k}]"),
                    format!("branch node {i} has no valid child {k} ({child:#x}); the engine follows all eight unchecked"),
                );
            } else if child as usize >= i {
                report.push(
                    Severity::Error,
                    "path.octree_child_order",
                    node_at(i) + 0x28 + k as u64 * 4,
                    format!("octree[{i}].children[{k}]"),
                    format!("branch node {i} names child {child}, which does not come before it"),
                );
            } else {
                stack.push(child as usize);
            }
        }
    }
    // Every region must be listed in every reachable leaf its box overlaps. Leaves are
    // found by descending from the root with the region's box, so the cost follows the
    // number of (region, leaf) overlaps, not regions × leaves.
    let listed: HashSet<(usize, u32)> = leaves
        .iter()
        .flat_map(|&leaf| {
            let node = &file.octree[leaf];
            let start = node.region_start as usize;
            let end = start + node.region_count as usize;
            file.lookup
                .get(start..end)
                .unwrap_or(&[])
                .iter()
                .map(move |&r| (leaf, r))
        })
        .collect();
    let mut is_leaf = vec![false; count];
    for &leaf in &leaves {
        is_leaf[leaf] = true;
    }
    // Children always have smaller indices (checked above), so each descent ends; the stamp
    // keeps a node shared by several parents from being visited twice per region.
    let mut stamp = vec![usize::MAX; count];
    for (r, region) in file.regions.iter().enumerate() {
        let b = Aabb {
            min: region.aabb_min,
            max: region.aabb_max,
        };
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            if stamp[i] == r {
                continue;
            }
            stamp[i] = r;
            let node = &file.octree[i];
            let cell = Aabb {
                min: node.aabb_min,
                max: node.aabb_max,
            };
            if !cell.intersects(&b) {
                continue;
            }
            if node.is_leaf != 0 {
                if is_leaf[i] && !listed.contains(&(i, r as u32)) {
                    report.push(
                        Severity::Error,
                        "path.octree_region_missing",
                        node_at(i),
                        format!("octree[{i}]"),
                        format!(
                            "region {r}'s box overlaps leaf {i}, but the leaf does not list it"
                        ),
                    );
                }
                continue;
            }
            for &child in &node.children {
                if child & 0x8000_0000 == 0 && (child as usize) < i {
                    stack.push(child as usize);
                }
            }
        }
    }
}
