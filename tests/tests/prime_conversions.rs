#![cfg(all(feature = "prime", feature = "bwm", feature = "nwn2"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]
//! Cooking the walkable part of every shared KotOR (.wok) and NWN2 (.trx) walkmesh into PATH.
//!
//! Each cooked file must: validate without errors or warnings; cover the source's walkable
//! area seen from above (polygons with area seen from above, which is what PATH can hold)
//! within 1e-4 relative, and its 3-D area within 1% (merges within the default height
//! tolerance flatten slightly tilted surfaces); report a height error within the bound; have
//! ground tables whose connected groups are the source's walkable components (compared as
//! sorted lists of component areas seen from above); answer `regions_at`-style point queries
//! through the octree exactly as brute force does on 10,000 random points; and keep the
//! source's walkable component count when read back, after `--rebuild`, and converted on to
//! `.wok` and `.trx`. The octree walk, the inside test and the table decoding here are written
//! independently of the PATH crate, from `docs/formats/prime.md` §4–§5, and read the bytes directly.
//!
//! Sources that would need more than 512 regions cannot be PATH files (the engine refuses
//! them): the writer must then fail with a clear error, and the test counts them.

use std::path::{Path, PathBuf};

use walkmesh_core::passes::{connected_components, edge_adjacency, polygon_area, polygon_normal};
use walkmesh_core::testing::files_with_extensions;
use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions, Severity, WriteOptions};
use walkmesh_tests::{Rng, required_corpora, shared_corpora};

// ---- A small independent PATH decoder (MP1 layout, big-endian). ----

struct Be<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Be<'_> {
    fn u32(&mut self) -> u32 {
        let v = u32::from_be_bytes(self.bytes[self.at..self.at + 4].try_into().unwrap());
        self.at += 4;
        v
    }
    fn f32(&mut self) -> f32 {
        f32::from_bits(self.u32())
    }
    fn v3(&mut self) -> [f32; 3] {
        [self.f32(), self.f32(), self.f32()]
    }
}

struct Region {
    nodes: Vec<([f32; 3], [f32; 3])>,
    height: f32,
    normal: [f32; 3],
    min: [f32; 3],
    max: [f32; 3],
}

struct Cell {
    leaf: bool,
    center: [f32; 3],
    children: [u32; 8],
    count: u32,
    start: u32,
}

struct Decoded {
    regions: Vec<Region>,
    ground: Vec<u32>,
    lookup: Vec<u32>,
    octree: Vec<Cell>,
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut r = Be { bytes, at: 0 };
    assert_eq!(r.u32(), 4, "version");
    let node_count = r.u32() as usize;
    let nodes: Vec<_> = (0..node_count).map(|_| (r.v3(), r.v3())).collect();
    let link_count = r.u32() as usize;
    r.at += link_count * 16;
    let region_count = r.u32() as usize;
    let mut regions = Vec::new();
    for _ in 0..region_count {
        let count = r.u32() as usize;
        let start = r.u32() as usize;
        r.at += 12; // links, masks
        let height = r.f32();
        let normal = r.v3();
        r.at += 4 + 12; // index, centroid
        let min = r.v3();
        let max = r.v3();
        r.at += 4; // scratch
        regions.push(Region {
            nodes: nodes[start..start + count].to_vec(),
            height,
            normal,
            min,
            max,
        });
    }
    let n = region_count;
    let words = (n * n.saturating_sub(1) / 2).div_ceil(32);
    let ground: Vec<u32> = (0..words).map(|_| r.u32()).collect();
    r.at += words * 4; // flyer
    r.at += ((n * n).div_ceil(32) - words) * 2 * 4; // reserved
    let lookup_count = r.u32() as usize;
    let lookup: Vec<u32> = (0..lookup_count).map(|_| r.u32()).collect();
    let octree_count = r.u32() as usize;
    let mut octree = Vec::new();
    for _ in 0..octree_count {
        let leaf = r.u32() != 0;
        r.at += 24;
        let center = r.v3();
        let children = [0; 8].map(|_: u32| r.u32());
        let count = r.u32();
        let start = r.u32();
        octree.push(Cell {
            leaf,
            center,
            children,
            count,
            start,
        });
    }
    assert!(bytes[r.at..].iter().all(|&b| b == 0xFF));
    assert_eq!(bytes.len() % 32, 0);
    Decoded {
        regions,
        ground,
        lookup,
        octree,
    }
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The engine's inside test: box, every edge plane, between floor and floor + height.
fn inside(region: &Region, p: [f32; 3]) -> bool {
    (0..3).all(|a| region.min[a] <= p[a] && p[a] <= region.max[a])
        && region
            .nodes
            .iter()
            .all(|(pos, n)| dot(sub(p, *pos), *n) >= 0.0)
        && {
            let d = sub(p, region.nodes[0].0);
            dot(d, region.normal) >= 0.0
                && dot([d[0], d[1], d[2] - region.height], region.normal) <= 0.0
        }
}

/// Descends from the last node by comparing with each centre, then filters the leaf.
fn octree_query(file: &Decoded, p: [f32; 3]) -> Vec<u32> {
    let mut i = file.octree.len() - 1;
    loop {
        let cell = &file.octree[i];
        if cell.leaf {
            let list = &file.lookup[cell.start as usize..(cell.start + cell.count) as usize];
            let mut hits: Vec<u32> = list
                .iter()
                .copied()
                .filter(|&r| inside(&file.regions[r as usize], p))
                .collect();
            hits.sort_unstable();
            hits.dedup();
            return hits;
        }
        let c = cell.center;
        let k = usize::from(p[0] > c[0])
            | usize::from(p[1] > c[1]) << 1
            | usize::from(p[2] > c[2]) << 2;
        let child = cell.children[k] as usize;
        assert!(child < i, "children come before parents");
        i = child;
    }
}

fn ground_bit(file: &Decoded, i: usize, j: usize) -> bool {
    let n = file.regions.len();
    let (i, j) = (i.min(j), i.max(j));
    let bit = n * (n - 1) / 2 - (n - i) * (n - i - 1) / 2 + (j - i - 1);
    file.ground[bit / 32] >> (bit % 32) & 1 == 1
}

// ---- The conversion checks. ----

/// Area of a region seen from above (its footprint).
fn region_footprint(region: &Region) -> f64 {
    let pts: Vec<[f64; 3]> = region.nodes.iter().map(|(p, _)| p.map(f64::from)).collect();
    let m = pts.len();
    ((0..m)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % m]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0)
        .abs()
}

/// Area of a source polygon seen from above.
fn polygon_footprint(mesh: &NavMesh, p: usize) -> f64 {
    let polygon = mesh.polygons.get(p);
    let m = polygon.len();
    ((0..m)
        .map(|i| {
            let (a, b) = (
                mesh.vertex(polygon[i]).map(f64::from),
                mesh.vertex(polygon[(i + 1) % m]).map(f64::from),
            );
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0)
        .abs()
}

fn region_area(region: &Region) -> f64 {
    let mut n = [0.0f64; 3];
    let pts: Vec<[f64; 3]> = region.nodes.iter().map(|(p, _)| p.map(f64::from)).collect();
    for (i, a) in pts.iter().enumerate() {
        let b = pts[(i + 1) % pts.len()];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() / 2.0
}

/// Polygons PATH can hold: walkable, with area seen from above (unit normal z ≥ 1e-3 in
/// absolute value), no edge of zero length seen from above and no repeated corner.
fn cookable(mesh: &NavMesh, p: usize) -> bool {
    let polygon = mesh.polygons.get(p);
    let mut sorted = polygon.to_vec();
    sorted.sort_unstable();
    let no_flat_edge = polygon.iter().enumerate().all(|(i, &v)| {
        let (a, b) = (
            mesh.vertex(v),
            mesh.vertex(polygon[(i + 1) % polygon.len()]),
        );
        a[0] != b[0] || a[1] != b[1]
    });
    mesh.is_walkable(p)
        && no_flat_edge
        && sorted.windows(2).all(|w| w[0] != w[1])
        && polygon_area(mesh, p) > 0.0
        && polygon_normal(mesh, p)[2].abs() >= 1e-3
}

fn sorted_areas(mut areas: Vec<f64>) -> Vec<f64> {
    areas.sort_by(f64::total_cmp);
    areas
}

#[derive(Debug, Default)]
struct Tally {
    files: usize,
    cooked: usize,
    too_many_regions: Vec<String>,
    unreadable: Vec<String>,
    /// Walkable polygons PATH can hold, over the cooked files.
    source_polygons: usize,
    regions: usize,
    max_regions: usize,
    points_with_hits: usize,
    rows: Vec<String>,
    /// Conversions on from `.path` whose components differ because the source folds.
    folded_route_changes: Vec<String>,
    /// Files that needed the region budget (a wider tolerance, maybe a straightened border).
    budget_rows: Vec<String>,
    /// Largest relative change of the covered 3-D area (merges within the height tolerance
    /// flatten slightly tilted surfaces; the area seen from above is unchanged).
    max_area_change: f64,
    /// Largest height error the cooks reported.
    max_height_error: f64,
}

fn relative_name(path: &Path) -> String {
    shared_corpora()
        .and_then(|root| path.strip_prefix(root).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

fn read_with(
    registry: &walkmesh_core::Registry,
    id: &str,
    bytes: &[u8],
    path: Option<&Path>,
) -> NavMesh {
    registry
        .by_id(id)
        .unwrap()
        .reader()
        .unwrap()
        .read(
            Input { bytes, path },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap()
}

/// Walkable components (polygons joined through shared vertex indices), over polygons with
/// area: a conversion may add zero-area slivers, which are no walkable ground.
fn walkable_components(mesh: &NavMesh) -> usize {
    let include = |p: usize| mesh.is_walkable(p) && polygon_area(mesh, p) > 0.0;
    let adjacency = edge_adjacency(mesh, include);
    connected_components(mesh, &adjacency, include).count
}

/// Groups of regions the ground table says are connected.
fn ground_groups(file: &Decoded) -> usize {
    let n = file.regions.len();
    let mut seen = vec![false; n];
    let mut groups = 0;
    for i in 0..n {
        if seen[i] {
            continue;
        }
        groups += 1;
        for j in i + 1..n {
            if ground_bit(file, i, j) {
                seen[j] = true;
            }
        }
    }
    groups
}

fn check_file(path: &Path, format_id: &str, tally: &mut Tally) {
    check_file_with(path, format_id, tally, &WriteOptions::default());
}

/// [`check_file`] with the writer's options (budget bounds in `params`).
fn check_file_with(path: &Path, format_id: &str, tally: &mut Tally, options: &WriteOptions) {
    let bound = |key: &str, default: f64| -> f64 {
        options
            .params
            .get(key)
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let max_height_error = bound(
        "prime:max_height_error",
        walkmesh_prime::cook::DEFAULT_MAX_HEIGHT_ERROR,
    );
    let max_area_change = bound(
        "prime:max_area_change",
        walkmesh_prime::cook::DEFAULT_MAX_AREA_CHANGE,
    );
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    tally.files += 1;
    let source_format = registry.by_id(format_id).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    let mesh = match source_format.reader().unwrap().read(
        input,
        &ReadOptions::default(),
        &mut Diagnostics::new(),
    ) {
        Ok(mesh) => mesh,
        Err(error) => {
            tally
                .unreadable
                .push(format!("{}: {error}", path.display()));
            return;
        }
    };
    let path_format = registry.by_id("path").unwrap();
    let mut diag = Diagnostics::new();
    let written = path_format
        .writer()
        .unwrap()
        .write(&mesh, options, &mut diag);
    let out = match written {
        Ok(out) => out,
        Err(error) if error.to_string().contains("budget") => {
            tally
                .too_many_regions
                .push(format!("{} ({error})", path.display()));
            return;
        }
        Err(error) => panic!("{}: {error}", path.display()),
    };
    tally.cooked += 1;
    let name = path.display();

    // Validates clean.
    let findings = path_format
        .validator()
        .unwrap()
        .validate(
            Input {
                bytes: &out.main,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
    let bad: Vec<_> = findings
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert!(bad.is_empty(), "{name}: {bad:#?}");

    // The cook's reported height error (the `path.cook_quality` note).
    let quality = diag
        .items
        .iter()
        .find(|d| d.code == "path.cook_quality")
        .unwrap_or_else(|| panic!("{name}: no path.cook_quality note"));
    let height_error: f64 = quality
        .message
        .split("largest height error ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("{name}: {}", quality.message));
    assert!(
        height_error <= max_height_error + 1e-6,
        "{name}: {height_error}"
    );
    tally.max_height_error = tally.max_height_error.max(height_error);
    // A region budget beyond the height-error bound straightens the walkable border and says
    // by how much (area cut off and filled in, seen from above).
    let straightened: Option<(f64, f64)> = diag
        .items
        .iter()
        .find(|d| d.code == "path.border_straightened")
        .map(|d| {
            let number = |after: &str| -> f64 {
                d.message
                    .split(after)
                    .nth(1)
                    .and_then(|rest| rest.split(' ').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{name}: {}", d.message))
            };
            (number("cutting off "), number("filling in "))
        });
    let budget_tolerance: Option<f64> = diag
        .items
        .iter()
        .find(|d| d.code == "path.surfaces_merged")
        .map(|d| {
            d.message
                .split("within a height tolerance of ")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name}: {}", d.message))
        });
    let (cut, filled) = straightened.unwrap_or((0.0, 0.0));

    // Covered area: exactly the source's seen from above; in 3-D within the tilt of merges.
    let file = decode(&out.main);
    let n = file.regions.len();
    tally.regions += n;
    tally.max_regions = tally.max_regions.max(n);
    let cookable_polygons: Vec<usize> = (0..mesh.polygons.len())
        .filter(|&p| cookable(&mesh, p))
        .collect();
    tally.source_polygons += cookable_polygons.len();
    let source_area: f64 = cookable_polygons
        .iter()
        .map(|&p| polygon_area(&mesh, p))
        .sum();
    let covered: f64 = file.regions.iter().map(region_area).sum();
    let change = (covered - source_area).abs() / source_area.max(1e-9);
    let border_share = (cut + filled) / source_area.max(1e-9);
    assert!(
        change <= 1e-2 + 2.0 * border_share,
        "{name}: covered {covered} vs walkable {source_area}"
    );
    tally.max_area_change = tally.max_area_change.max(change);
    let source_footprint: f64 = cookable_polygons
        .iter()
        .map(|&p| polygon_footprint(&mesh, p))
        .sum();
    let footprint: f64 = file.regions.iter().map(region_footprint).sum();
    // Merging never makes ground steeper than the steepest source polygon it covers: no
    // region is steeper than the steepest cookable source polygon.
    let steepest = cookable_polygons
        .iter()
        .map(|&p| f64::from(polygon_normal(&mesh, p)[2]).abs())
        .fold(1.0f64, f64::min);
    for (r, region) in file.regions.iter().enumerate() {
        let nz = f64::from(region.normal[2]).abs();
        assert!(
            nz >= steepest - 1e-4,
            "{name}: region {r} has normal z {nz}, steeper than every source polygon ({steepest})"
        );
    }
    let folded = cookable_polygons
        .iter()
        .filter(|&&p| polygon_normal(&mesh, p)[2] < 0.0)
        .count();
    // Exactly the source's footprint, or (after straightening) the source's with what the
    // cook says it cut off and filled in; the change within the default bound.
    let expected_footprint = source_footprint - cut + filled;
    assert!(
        (footprint - expected_footprint).abs() <= 1e-4 * source_footprint.max(1e-9),
        "{name}: footprint {footprint} vs walkable {source_footprint} - {cut} + {filled}"
    );
    assert!(
        cut + filled <= max_area_change * source_footprint * (1.0 + 1e-9),
        "{name}: border changed by {cut} + {filled} of {source_footprint}"
    );

    // Components: groups of the ground table against the source's walkable components.
    let include = |p: usize| cookable(&mesh, p);
    let adjacency = edge_adjacency(&mesh, include);
    let components = connected_components(&mesh, &adjacency, include);
    let mut source_components = vec![0.0f64; components.count];
    for &p in &cookable_polygons {
        source_components[components.label[p] as usize] += polygon_footprint(&mesh, p);
    }
    let mut group = vec![usize::MAX; n];
    let mut path_components = Vec::new();
    for i in 0..n {
        if group[i] != usize::MAX {
            continue;
        }
        group[i] = path_components.len();
        let mut area = region_footprint(&file.regions[i]);
        for j in i + 1..n {
            if ground_bit(&file, i, j) {
                assert_eq!(
                    group[j],
                    usize::MAX,
                    "{name}: table is not transitive at {j}"
                );
                group[j] = group[i];
                area += region_footprint(&file.regions[j]);
            }
        }
        path_components.push(area);
    }
    let (a, b) = (
        sorted_areas(source_components),
        sorted_areas(path_components),
    );
    assert_eq!(a.len(), b.len(), "{name}: component counts");
    if straightened.is_none() {
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() <= 1e-4 * x.max(1e-9),
                "{name}: component areas {a:?} vs {b:?}"
            );
        }
    }

    // Point queries: 10,000 points, half on region floors. Each is answered three ways: our
    // reader's `regions_at` (the engine's octree descent), an independent decoder's octree
    // walk written here, and brute force over every region.
    let parsed = walkmesh_prime::PathFile::parse(&out.main).unwrap();
    let mut rng = Rng(0x5EED ^ bytes.len() as u64);
    let unit = |rng: &mut Rng| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
    for r in &file.regions {
        for a in 0..3 {
            lo[a] = lo[a].min(r.min[a]);
            hi[a] = hi[a].max(r.max[a]);
        }
    }
    for k in 0..10_000 {
        let p = if k % 2 == 0 && n > 0 {
            let region = &file.regions[rng.below(n)];
            let mut acc = [0.0f64; 3];
            let mut total = 0.0;
            for (pos, _) in &region.nodes {
                let w = unit(&mut rng);
                total += w;
                for a in 0..3 {
                    acc[a] += w * f64::from(pos[a]);
                }
            }
            let mut p = acc.map(|c| c / total);
            p[2] += unit(&mut rng) * f64::from(region.height) * 1.2 - 0.1;
            p.map(|c| c as f32)
        } else {
            [0, 1, 2].map(|a| {
                let (l, h) = (f64::from(lo[a]), f64::from(hi[a]));
                (l + (h - l) * (unit(&mut rng) * 1.1 - 0.05)) as f32
            })
        };
        let fast = octree_query(&file, p);
        let slow: Vec<u32> = (0..n as u32)
            .filter(|&r| inside(&file.regions[r as usize], p))
            .collect();
        assert_eq!(fast, slow, "{name}: point {p:?}");
        assert_eq!(parsed.regions_at(p), slow, "{name}: regions_at {p:?}");
        if !slow.is_empty() {
            tally.points_with_hits += 1;
        }
    }
    // Connectivity through PATH: the file read back (links are the only connectivity), its
    // `--rebuild`, and conversions of the read-back mesh to BWM and TRX keep the source's
    // walkable component count.
    let back = read_with(&registry, "path", &out.main, None);
    assert_eq!(
        walkable_components(&back),
        components.count,
        "{name}: components of the .path read back"
    );
    let rebuilt = path_format
        .writer()
        .unwrap()
        .write(
            &back,
            // The same bounds: regions flat only within a wider height-error bound are laid
            // onto their planes only within it.
            &WriteOptions {
                rebuild: true,
                ..options.clone()
            },
            &mut Diagnostics::new(),
        )
        .unwrap();
    let rebuilt_file = decode(&rebuilt.main);
    assert_eq!(
        ground_groups(&rebuilt_file),
        components.count,
        "{name}: components after --rebuild"
    );
    for (id, extension) in [("bwm", "wok"), ("trx", "trx")] {
        let format = registry.by_id(id).unwrap();
        let writer = format.writer().unwrap();
        let options = WriteOptions {
            file_name: Some(format!("back.{extension}")),
            ..WriteOptions::default()
        };
        let mut diag = Diagnostics::new();
        let prepared =
            walkmesh_core::passes::prepare(&back, &writer.requirements(&options), &mut diag);
        let written = writer.write(&prepared, &options, &mut diag).unwrap();
        let target = PathBuf::from(format!("back.{extension}"));
        let again = read_with(&registry, id, &written.main, Some(&target));
        // Regions become triangles without zero-area ones (a region whose corners beside a
        // T-junction are collinear must not be fanned from such a corner), so the walkable
        // area stays connected.
        // Except where the source folds: a walkable polygon facing down is cooked as its own
        // region, reversed, and links to neighbours whose shared edge runs the same way; the
        // triangles written for BWM/TRX then put three faces on one edge, which those formats
        // leave unlinked. Counted and printed, not hidden.
        let again_components = walkable_components(&again);
        if folded > 0 && again_components != components.count {
            tally.folded_route_changes.push(format!(
                "{name} → .{extension}: {} → {again_components} components ({folded} downward walkable polygon(s) in the source)",
                components.count
            ));
        } else {
            assert_eq!(
                again_components, components.count,
                "{name}: components of .path → .{extension}"
            );
        }
    }
    tally.rows.push(format!(
        "{:<45} {:>6} → {:>4} regions ({:.2} per region)",
        relative_name(path),
        cookable_polygons.len(),
        n,
        cookable_polygons.len() as f64 / n.max(1) as f64
    ));
    if let Some(tolerance) = budget_tolerance {
        tally.budget_rows.push(format!(
            "{:<45} {:>4} regions, tolerance {tolerance:.4}, largest height error {height_error:.4}, footprint {source_footprint:.1} → {footprint:.1} ({:+.2}%: {cut:.1} cut off, {filled:.1} filled in), 3-D area {:+.2}%, components {} = {}",
            relative_name(path),
            n,
            100.0 * (footprint - source_footprint) / source_footprint,
            100.0 * (covered - source_area) / source_area,
            components.count,
            b.len()
        ));
    }

    // Keep the cooked file for the peer check when asked to.
    if let Some(dir) = std::env::var_os("WALKMESH_PEER_DIR") {
        let dir = PathBuf::from(dir).join("path");
        std::fs::create_dir_all(&dir).unwrap();
        // Name after the path inside the corpora, so that equal stems do not collide.
        let relative = shared_corpora()
            .and_then(|root| path.strip_prefix(root).ok().map(Path::to_path_buf))
            .unwrap_or_else(|| path.to_path_buf());
        let flat: String = relative
            .to_string_lossy()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        std::fs::write(dir.join(format!("{flat}.path")), &out.main).unwrap();
    }
}

fn run(family: &str, extensions: &[&str], format_id: &str) -> Tally {
    let corpora = required_corpora();
    let files = files_with_extensions(&corpora.join(family), extensions);
    let mut tally = Tally::default();
    for file in &files {
        check_file(file, format_id, &mut tally);
    }
    for row in &tally.rows {
        println!("{row}");
    }
    tally.rows.clear();
    println!("{family}: cooked under the region budget:");
    for row in &tally.budget_rows {
        println!("  {row}");
    }
    tally.budget_rows.clear();
    println!("{family}: route changes where the source folds:");
    for row in &tally.folded_route_changes {
        println!("  {row}");
    }
    println!(
        "{family}: {} walkable triangles → {} regions ({:.2} per region) over {} cooked files",
        tally.source_polygons,
        tally.regions,
        tally.source_polygons as f64 / tally.regions.max(1) as f64,
        tally.cooked
    );
    println!("{family}: {tally:#?}");
    tally
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_kotor_walkmesh_cooks_to_a_valid_path() {
    let tally = run("kotor", &["wok"], "bwm");
    assert!(tally.files > 0);
    assert!(tally.unreadable.is_empty(), "{:#?}", tally.unreadable);
    assert!(tally.cooked > 0);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_nwn2_walkmesh_cooks_to_a_valid_path() {
    let tally = run("nwn2", &["trx", "trn"], "trx");
    assert!(tally.files > 0);
    assert!(tally.unreadable.is_empty(), "{:#?}", tally.unreadable);
}

/// The shared areas the default bounds cannot bring under 512 regions cook with the bounds
/// the documentation names, with every check of [`check_file`] (components through .path,
/// `--rebuild`, .wok and .trx included).
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn the_largest_nwn2_areas_cook_under_the_budget_with_wider_bounds() {
    let corpora = required_corpora();
    let dir = corpora.join("nwn2/Kaedrin-nwn2cc");
    let mut tally = Tally::default();
    for (file, key, value) in [
        ("oldskull_descent.TRN", "prime:max_height_error", "0.5"),
        ("oldskull_descent.trx", "prime:max_height_error", "0.5"),
        ("shadowdale_mages_guild.trx", "prime:max_area_change", "0.3"),
    ] {
        let mut options = WriteOptions::default();
        options.params.insert(key.into(), value.into());
        check_file_with(&dir.join(file), "trx", &mut tally, &options);
    }
    for row in &tally.budget_rows {
        println!("  {row}");
    }
    for row in &tally.folded_route_changes {
        println!("  {row}");
    }
    assert!(
        tally.too_many_regions.is_empty(),
        "{:#?}",
        tally.too_many_regions
    );
    assert_eq!(tally.cooked, 3);
    assert!(tally.max_regions <= 512);
}

/// The synthetic PATH fixture through BWM, OBJ and glTF and back into PATH: the walkable part
/// (24 grid cells and the two raised quads, 2,600 square units in two components) survives,
/// the flyer-only cell and the PATH attributes are reported as dropped on the way.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn fixture_goes_through_other_formats_and_back() {
    let corpora = required_corpora();
    let source = corpora.join("prime/synthetic/grid_mp1_v4.path");
    let bytes = std::fs::read(&source).unwrap();
    let registry = walkmesh_formats::default_registry();
    let path_format = registry.by_id("path").unwrap();
    let mesh = path_format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(&source),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (id, extension) in [("bwm", "wok"), ("obj", "obj"), ("gltf", "glb")] {
        let format = registry.by_id(id).unwrap();
        let writer = format.writer().unwrap();
        let file_name = format!("grid.{extension}");
        let options = WriteOptions {
            file_name: Some(file_name.clone()),
            ..WriteOptions::default()
        };
        let mut diag = Diagnostics::new();
        let prepared =
            walkmesh_core::passes::prepare(&mesh, &writer.requirements(&options), &mut diag);
        let out = writer.write(&prepared, &options, &mut diag).unwrap();
        let dropped = diag.items.iter().any(|d| d.message.contains("path:height"));
        let target = dir.path().join(&file_name);
        std::fs::write(&target, &out.main).unwrap();
        for sidecar in &out.sidecars {
            std::fs::write(dir.path().join(&sidecar.file_name), &sidecar.bytes).unwrap();
        }
        let back = format
            .reader()
            .unwrap()
            .read(
                Input {
                    bytes: &out.main,
                    path: Some(&target),
                },
                &ReadOptions::default(),
                &mut Diagnostics::new(),
            )
            .unwrap();
        // A target either keeps the PATH attributes (glTF extras) or says it dropped them.
        let kept = back.face_attributes.contains_key("path:type_mask");
        assert!(
            kept != dropped,
            "{id}: kept {kept}, reported dropped {dropped}"
        );
        let mut diag = Diagnostics::new();
        let cooked = path_format
            .writer()
            .unwrap()
            .write(&back, &WriteOptions::default(), &mut diag)
            .unwrap();
        let findings = path_format
            .validator()
            .unwrap()
            .validate(
                Input {
                    bytes: &cooked.main,
                    path: None,
                },
                &ReadOptions::default(),
            )
            .unwrap();
        assert!(findings.is_empty(), "{id}: {findings:#?}");
        let file = decode(&cooked.main);
        let covered: f64 = file.regions.iter().map(region_area).sum();
        // With the type masks kept, the flyer-only cell comes back as a flyer region.
        let (area, expected_groups) = if kept { (2700.0, 3) } else { (2600.0, 2) };
        assert!((covered - area).abs() < 1e-3, "{id}: covered {covered}");
        // Ground components: the grid without the flyer cell and the raised pair (plus the
        // flyer cell alone, which has no ground bits, when it is kept).
        let n = file.regions.len();
        let mut groups = 0;
        let mut seen = vec![false; n];
        for i in 0..n {
            if seen[i] {
                continue;
            }
            groups += 1;
            for j in i + 1..n {
                if ground_bit(&file, i, j) {
                    seen[j] = true;
                }
            }
        }
        assert_eq!(groups, expected_groups, "{id}");
        if kept {
            // glTF kept the PATH data, regions included: they are authored and stay as they
            // were (the fixture's 27).
            assert_eq!(n, 27, "{id}: {n} regions");
        } else {
            // From triangles: the 24 coplanar grid cells merge into far fewer regions.
            assert!(n < 12, "{id}: {n} regions");
        }
    }
}

/// Issue #15's own measure: the 115 shared walkmeshes that cooked when it was filed (every
/// KotOR .wok and NWN2 .trx/.trn but the nine it lists as over the 512-region limit), whose
/// 13,980 walkable faces (as read) then became 5,374 regions. At default options the cook must
/// make at least 2× fewer regions and at least 5.2 walkable faces per region.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn the_issue_15_set_cooks_to_at_least_5_2_faces_per_region() {
    let corpora = required_corpora();
    const OVER_THE_LIMIT_WHEN_FILED: [&str; 9] = [
        "out.wok",
        "db_templemaiden_int.trx",
        "dm_dungeon.trx",
        "midwood caverns level 2.trx",
        "oldskull_descent.trn",
        "oldskull_descent.trx",
        "shadow castle - floor 1.trx",
        "shadowdale_mages_guild.trn",
        "shadowdale_mages_guild.trx",
    ];
    let registry = walkmesh_formats::default_registry();
    let path_format = registry.by_id("path").unwrap();
    let files: Vec<(PathBuf, &str)> = files_with_extensions(&corpora.join("kotor"), &["wok"])
        .into_iter()
        .map(|f| (f, "bwm"))
        .chain(
            files_with_extensions(&corpora.join("nwn2"), &["trx", "trn"])
                .into_iter()
                .map(|f| (f, "trx")),
        )
        .filter(|(f, _)| {
            let name = f.file_name().unwrap().to_string_lossy().to_lowercase();
            !OVER_THE_LIMIT_WHEN_FILED.contains(&name.as_str())
        })
        .collect();
    assert_eq!(files.len(), 115, "the issue's set");
    let (mut faces, mut regions) = (0usize, 0usize);
    for (path, id) in &files {
        let bytes = std::fs::read(path).unwrap();
        let mesh = read_with(&registry, id, &bytes, Some(path));
        faces += mesh.walkable_count();
        // Written as `check_file` writes them (and as `convert` does for game files, which
        // are not welded).
        let written = path_format
            .writer()
            .unwrap()
            .write(&mesh, &WriteOptions::default(), &mut Diagnostics::new())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        regions += decode(&written.main).regions.len();
    }
    println!(
        "issue #15 set: {} files, {faces} walkable faces → {regions} regions ({:.2} per region; the issue's figure when filed: 13,980 → 5,374)",
        files.len(),
        faces as f64 / regions as f64
    );
    assert_eq!(faces, 13_980, "the walkable faces the issue counted");
    assert!(
        2 * regions <= 5_374,
        "{regions} regions: not 2× fewer than 5,374"
    );
    assert!(
        faces as f64 >= 5.2 * regions as f64,
        "{faces} faces in {regions} regions: fewer than 5.2 per region"
    );
}
