//! Baking: everything the ASWM derives from the triangles — edges and adjacency, centres,
//! planes, tile assignment, per-tile next-hop tables, islands and island paths — computed the
//! way the official toolset's files show it (`docs/formats/nwn2.md` §2.2–§2.5, §5.3).

use walkmesh_core::WriteError;
use walkmesh_core::passes::paths::{next_hop_rows, parallel_chunks_on};

use crate::aswm::{Aswm, Edge, Island, IslandPath, NO_NODE, NONE16, NONE32, Tile, Triangle, flags};

/// Which kind of file is baked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Baked (TRX): clockwise + 0x04, path tables, islands, tiles_flags 31.
    Trx,
    /// Toolset working file (TRN): counter-clockwise, no path tables or islands, tiles_flags 15.
    Trn,
}

/// How far (in metres) a centre may lie outside the tile it was read from and stay there.
pub const KEEP_TILE_SLACK: f32 = 0.05;

/// Largest tile grid the bake accepts (NWN2 areas are at most 32 × 32 megatiles of 4 × 4
/// tiles, i.e. 16 384 tiles).
pub const MAX_TILES: usize = 1 << 16;

/// Most walkable triangles a tile can hold (node indices are 7 bits; 0x7F|0x80 is reserved).
pub const MAX_TILE_NODES: usize = 127;

/// Bake settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Extra room (metres) past a tile's upper edge that still counts as inside the tile
    /// when a triangle has no recorded tile. 0 = the closed upper edge alone.
    pub tile_tolerance: f32,
    /// Memory limit (MiB) of the island path stage, whose table grows with the square of
    /// the island count (see [`walkmesh_core::memory`]).
    pub max_memory_mib: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tile_tolerance: 0.0,
            max_memory_mib: walkmesh_core::memory::default_max_memory_mib(),
        }
    }
}

/// What to bake.
#[derive(Clone, Debug)]
pub struct BakeInput<'a> {
    pub vertices: &'a [[f32; 3]],
    /// Triangles in the winding they are written with.
    pub triangles: &'a [[u32; 3]],
    /// Flags as written (0x04 already matching the winding).
    pub flags: &'a [u16],
    /// Tile each triangle was read from (`None` or negative: unknown). Kept when the centre
    /// is within [`KEEP_TILE_SLACK`] of that tile's square.
    pub tiles: Option<&'a [i64]>,
    /// Link hints per triangle and written side, input indices (see [`build_edges`]).
    pub links: Option<&'a [[i64; 3]]>,
    pub grid_width: u32,
    pub grid_height: u32,
    pub tile_width: f32,
    pub style: Style,
    pub border: u32,
}

/// The baked walkmesh and the triangle order (new index → input index).
#[derive(Clone, Debug)]
pub struct Baked {
    pub aswm: Aswm,
    pub order: Vec<u32>,
    /// Triangles whose centre lies outside the grid (clamped into the nearest tile).
    pub outside: usize,
}

/// Centre as the toolset stores it: the mean of the three x and of the three y, in f32.
pub fn centre(vertices: &[[f32; 3]], t: [u32; 3]) -> [f32; 2] {
    let v = |i: u32| vertices.get(i as usize).copied().unwrap_or([0.0; 3]);
    let (a, b, c) = (v(t[0]), v(t[1]), v(t[2]));
    // Multiplying by the f32 nearest 1/3 (not dividing by 3) matches every stored centre.
    const THIRD: f32 = 1.0 / 3.0;
    [(a[0] + b[0] + c[0]) * THIRD, (a[1] + b[1] + c[1]) * THIRD]
}

/// Upward normal and plane distance of a triangle written as `t`, bit-exact with the
/// toolset's files: `n = normalize((v2−v1)×(v0−v1))` scaled by the reciprocal of its length,
/// negated for clockwise triangles so that it points up; `d = −(n.z·v0.z + n.y·v0.y + n.x·v0.x)`
/// (that summation order matters for the last bit).
pub fn plane(vertices: &[[f32; 3]], t: [u32; 3], clockwise: bool) -> ([f32; 3], f32) {
    let v = |i: u32| vertices.get(i as usize).copied().unwrap_or([0.0; 3]);
    let (p0, p1, p2) = (v(t[0]), v(t[1]), v(t[2]));
    let a = [p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]];
    let b = [p0[0] - p1[0], p0[1] - p1[1], p0[2] - p1[2]];
    let c = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let length = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
    let mut n = if length > 0.0 && length.is_finite() {
        let r = 1.0 / length;
        [c[0] * r, c[1] * r, c[2] * r]
    } else {
        [0.0, 0.0, 0.0]
    };
    if clockwise {
        n = [-n[0], -n[1], -n[2]];
    }
    let d = -(n[2] * p0[2] + n[1] * p0[1] + n[0] * p0[0]);
    (n, d)
}

/// Tile coordinate of `value` along one axis: a tile owns `(k·W, (k+1)·W]` (its upper edge
/// included, the toolset's rule) widened by `tolerance` past the upper edge, and the first tile
/// also owns its lower edge. Values outside are clamped; the flag says so.
pub fn tile_coordinate(value: f32, width: f32, count: u32, tolerance: f32) -> (u32, bool) {
    if count == 0 || width.is_nan() || width <= 0.0 || !value.is_finite() {
        return (0, true);
    }
    let f = f64::from(value - tolerance) / f64::from(width);
    let k = f.ceil() - 1.0;
    let last = f64::from(count - 1);
    if k < 0.0 {
        (0, value < 0.0)
    } else if k > last {
        (count - 1, true)
    } else {
        (k as u32, false)
    }
}

/// A triangle side: (triangle, side index).
type Side = (u32, u8);

/// Every triangle side as (smaller vertex, larger vertex, triangle, side index), sorted.
///
/// A counting sort on the smaller vertex (sides are generated in (triangle, side) order, so
/// each bucket is already in that order), then a stable insertion sort of each small bucket on
/// the larger vertex: linear time instead of sorting 3 × triangles tuples. Vertex indices
/// far beyond the triangle count (possible only in odd input) fall back to a plain sort.
pub fn sorted_sides(triangles: &[[u32; 3]]) -> Vec<(u32, u32, u32, u8)> {
    let generate = || {
        triangles.iter().enumerate().flat_map(|(t, tri)| {
            (0..3u8).map(move |k| {
                let a = tri[k as usize];
                let b = tri[(k as usize + 1) % 3];
                (a.min(b), a.max(b), t as u32, k)
            })
        })
    };
    let largest = triangles.iter().flatten().copied().max().unwrap_or(0) as usize;
    if largest > triangles.len().saturating_mul(8).saturating_add(1024) {
        let mut sides: Vec<(u32, u32, u32, u8)> = generate().collect();
        sides.sort_unstable();
        return sides;
    }
    let mut starts = vec![0usize; largest + 2];
    for tri in triangles {
        for k in 0..3 {
            let a = tri[k].min(tri[(k + 1) % 3]) as usize;
            if let Some(c) = starts.get_mut(a + 1) {
                *c += 1;
            }
        }
    }
    for i in 1..starts.len() {
        let before = starts.get(i - 1).copied().unwrap_or(0);
        if let Some(c) = starts.get_mut(i) {
            *c += before;
        }
    }
    let mut sides = vec![(0u32, 0u32, 0u32, 0u8); triangles.len() * 3];
    let mut fill = starts.clone();
    for side in generate() {
        if let Some(at) = fill.get_mut(side.0 as usize) {
            if let Some(slot) = sides.get_mut(*at) {
                *slot = side;
            }
            *at += 1;
        }
    }
    for bucket in starts.windows(2) {
        if let [from, to] = *bucket
            && let Some(run) = sides.get_mut(from..to)
        {
            // Stable: equal larger vertices keep their (triangle, side) order.
            for i in 1..run.len() {
                let mut j = i;
                while j > 0 && run[j - 1].1 > run[j].1 {
                    run.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
    }
    sides
}

/// "No hint" in [`build_edges`]'s `links`.
pub const NO_LINK_HINT: i64 = -2;

/// Edges as the toolset numbers them: one record per side, sorted by (smaller vertex, larger
/// vertex), smaller vertex first, at most two triangles per record. Per triangle the three
/// edge slots are in ascending edge order and the neighbour slots follow them.
///
/// A side used by more than two triangles (duplicated or overlapping pieces, common around
/// placeables) has several records. Which triangles the toolset links there cannot be derived
/// from the geometry, so `links[t][k]` (side `k` = written vertex `k` → `k+1` of triangle
/// `t`) may name the partner to keep (`-1`: none, [`NO_LINK_HINT`]: no preference); a hint is
/// used only when both triangles name each other. The rest pair up in triangle order.
pub fn build_edges(
    triangles: &[[u32; 3]],
    links: Option<&[[i64; 3]]>,
) -> (Vec<Edge>, Vec<[u32; 3]>, Vec<[u32; 3]>) {
    let sides = sorted_sides(triangles);
    let hint = |t: u32, k: u8| -> i64 {
        links
            .and_then(|l| l.get(t as usize))
            .and_then(|s| s.get(k as usize))
            .copied()
            .unwrap_or(NO_LINK_HINT)
    };
    let mut edges: Vec<Edge> = Vec::with_capacity(triangles.len() * 3 / 2 + 3);
    let mut per_triangle = vec![[NONE32; 3]; triangles.len()];
    let mut start = 0;
    let mut members: Vec<(u32, u8)> = Vec::new();
    let mut records: Vec<(Side, Option<Side>)> = Vec::new();
    while start < sides.len() {
        let key = sides.get(start).map_or((0, 0), |s| (s.0, s.1));
        let mut end = start;
        members.clear();
        while let Some(&(a, b, t, k)) = sides.get(end) {
            if (a, b) != key {
                break;
            }
            members.push((t, k));
            end += 1;
        }
        records.clear();
        if members.len() > 2 && links.is_some() {
            let mut used = vec![false; members.len()];
            for i in 0..members.len() {
                if used.get(i).copied().unwrap_or(true) {
                    continue;
                }
                let Some(&(t, k)) = members.get(i) else {
                    continue;
                };
                let h = hint(t, k);
                if h == -1 {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    records.push(((t, k), None));
                    continue;
                }
                if h < 0 {
                    continue;
                }
                let partner = members.iter().enumerate().position(|(j, &(u, l))| {
                    j != i
                        && !used.get(j).copied().unwrap_or(true)
                        && i64::from(u) == h
                        && hint(u, l) == i64::from(t)
                });
                if let Some(j) = partner
                    && let Some(&other) = members.get(j)
                {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    if let Some(u) = used.get_mut(j) {
                        *u = true;
                    }
                    records.push(((t, k), Some(other)));
                }
            }
            let rest: Vec<(u32, u8)> = members
                .iter()
                .zip(&used)
                .filter(|(_, u)| !**u)
                .map(|(m, _)| *m)
                .collect();
            for pair in rest.chunks(2) {
                match pair {
                    [a, b] => records.push((*a, Some(*b))),
                    [a] => records.push((*a, None)),
                    _ => {}
                }
            }
            records.sort_unstable_by_key(|r| r.0.0);
        } else {
            // Consecutive pairing in triangle order: (t0, t1), (t2, t3), …
            for pair in members.chunks(2) {
                match pair {
                    [a, b] => records.push((*a, Some(*b))),
                    [a] => records.push((*a, None)),
                    _ => {}
                }
            }
        }
        for &(first, second) in &records {
            let e = edges.len() as u32;
            edges.push(Edge {
                vertices: [key.0, key.1],
                triangles: [first.0, second.map_or(NONE32, |s| s.0)],
            });
            for (t, k) in std::iter::once(first).chain(second) {
                if let Some(slot) = per_triangle
                    .get_mut(t as usize)
                    .and_then(|s| s.get_mut(k as usize))
                {
                    *slot = e;
                }
            }
        }
        start = end;
    }
    let mut neighbours = vec![[NONE32; 3]; triangles.len()];
    for (t, slots) in per_triangle.iter_mut().enumerate() {
        slots.sort_unstable();
        for (k, &e) in slots.iter().enumerate() {
            let other = edges.get(e as usize).map_or(NONE32, |edge| {
                if edge.triangles[0] == t as u32 {
                    edge.triangles[1]
                } else {
                    edge.triangles[0]
                }
            });
            if let Some(n) = neighbours.get_mut(t).and_then(|s| s.get_mut(k)) {
                *n = other;
            }
        }
    }
    (edges, per_triangle, neighbours)
}

/// 2-D distance between two centres, in f32.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    let dx = a[0] - b[0];
    let dy = a[1] - b[1];
    (dx * dx + dy * dy).sqrt()
}

/// A triangle whose centre lies exactly on an inner tile boundary (a vertical sliver of wall
/// standing on the boundary, usually) and that has no recorded tile: the toolset keeps it
/// with the tile model it came from, which the closed-upper-edge rule cannot know. Measured
/// on the corpus (73 such triangles in 15 files): it is the candidate tile holding the
/// *fewest* of its side neighbours in 68 cases, the most in 5. So: among the candidate tiles
/// that hold at least one neighbour, the one holding fewest; ties keep the rule's choice.
fn settle_boundary_slivers(
    input: &BakeInput<'_>,
    width: f32,
    gw: u32,
    gh: u32,
    tile_of: &mut [usize],
) {
    let on_line = |v: f32, count: u32| {
        let f = v / width;
        f == f.round() && f > 0.0 && f < count as f32
    };
    let recorded = |i: usize| input.tiles.and_then(|t| t.get(i)).is_some_and(|&k| k >= 0);
    let candidates: Vec<usize> = input
        .triangles
        .iter()
        .enumerate()
        .filter(|&(i, &t)| {
            let c = centre(input.vertices, t);
            !recorded(i) && (on_line(c[0], gw) || on_line(c[1], gh))
        })
        .map(|(i, _)| i)
        .collect();
    if candidates.is_empty() {
        return;
    }
    // Side → triangles, by sorting (smaller, larger, triangle).
    let mut sides: Vec<(u32, u32, u32)> = Vec::with_capacity(input.triangles.len() * 3);
    for (i, t) in input.triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            sides.push((a.min(b), a.max(b), i as u32));
        }
    }
    sides.sort_unstable();
    let neighbours_of = |i: usize| -> Vec<usize> {
        let t = input.triangles.get(i).copied().unwrap_or([0; 3]);
        let mut out = Vec::new();
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let key = (a.min(b), a.max(b));
            let start = sides.partition_point(|s| (s.0, s.1) < key);
            for s in sides.get(start..).unwrap_or(&[]) {
                if (s.0, s.1) != key {
                    break;
                }
                if s.2 as usize != i {
                    out.push(s.2 as usize);
                }
            }
        }
        out
    };
    let decided: Vec<(usize, usize)> = candidates
        .iter()
        .filter_map(|&i| {
            let c = centre(input.vertices, *input.triangles.get(i)?);
            let axis = |v: f32, count: u32| -> Vec<u32> {
                let k = (v / width) as u32;
                if on_line(v, count) {
                    vec![k - 1, k]
                } else {
                    vec![k.min(count - 1)]
                }
            };
            let tiles: Vec<usize> = axis(c[1], gh)
                .iter()
                .flat_map(|&y| {
                    axis(c[0], gw)
                        .into_iter()
                        .map(move |x| (y * gw + x) as usize)
                })
                .collect();
            let mut votes = vec![0usize; tiles.len()];
            for n in neighbours_of(i) {
                // Other slivers on the line (often this one's mirrored twin) do not vote.
                if candidates.binary_search(&n).is_ok() {
                    continue;
                }
                if let Some(p) = tiles.iter().position(|&k| Some(&k) == tile_of.get(n))
                    && let Some(v) = votes.get_mut(p)
                {
                    *v += 1;
                }
            }
            let fewest = votes.iter().copied().filter(|&v| v > 0).min()?;
            let current = *tile_of.get(i)?;
            let tied: Vec<usize> = tiles
                .iter()
                .zip(&votes)
                .filter(|&(_, &v)| v == fewest)
                .map(|(&k, _)| k)
                .collect();
            let choice = if tied.contains(&current) {
                current
            } else {
                *tied.first()?
            };
            Some((i, choice))
        })
        .collect();
    for (i, tile) in decided {
        if let Some(slot) = tile_of.get_mut(i) {
            *slot = tile;
        }
    }
}

/// Bakes a walkmesh.
pub fn bake(input: &BakeInput<'_>, config: &Config) -> Result<Baked, WriteError> {
    bake_streaming(input, config, None)
}

/// What the bake hands over while it runs: first the body's length, then the body's bytes in
/// pieces at their offsets (disjoint, together the whole body, not in order).
#[derive(Debug, PartialEq, Eq)]
pub enum BodyPiece {
    Length(usize),
    At(usize, Vec<u8>),
}

/// Receives the serialised ASWM body in pieces while the bake goes on.
pub type BodySink<'s> = &'s mut dyn FnMut(BodyPiece);

/// The sink and the offset of the next piece in body order.
struct Handover<'s> {
    sink: Option<BodySink<'s>>,
    next: usize,
}

impl Handover<'_> {
    fn streaming(&self) -> bool {
        self.sink.is_some()
    }

    fn length(&mut self, length: u64) {
        if let Some(sink) = self.sink.as_mut() {
            sink(BodyPiece::Length(length as usize));
        }
    }

    /// The piece that follows the last one handed over with `next`.
    fn next(&mut self, piece: impl FnOnce() -> Vec<u8>) {
        if let Some(sink) = self.sink.as_mut() {
            let piece = piece();
            let at = self.next;
            self.next += piece.len();
            sink(BodyPiece::At(at, piece));
        }
    }

    /// The piece that ends the body, handed over ahead of the pieces before it.
    fn last(&mut self, length: u64, piece: impl FnOnce() -> Vec<u8>) {
        if let Some(sink) = self.sink.as_mut() {
            let piece = piece();
            let at = (length as usize).saturating_sub(piece.len());
            sink(BodyPiece::At(at, piece));
        }
    }
}

/// [`bake`], handing the body ([`crate::aswm::serialize`] of the result) to `sink` as soon as
/// each piece is final, so that the caller can compress megabytes while the path tables are
/// still being computed: the body's length; header, vertices and edges; triangles; then the
/// islands and island paths, placed at the end of the body before the tile part ahead of them
/// (they are quick to compute and a fifth of the body, so they keep the compressor busy while
/// the tile tables are computed); then the tiles. Nothing is handed over when the bake fails
/// early.
pub fn bake_streaming(
    input: &BakeInput<'_>,
    config: &Config,
    sink: Option<BodySink<'_>>,
) -> Result<Baked, WriteError> {
    let mut out = Handover { sink, next: 0 };
    let count = input.triangles.len();
    let tile_count = check_grid(input)?;
    walkmesh_core::progress::phase(|| {
        format!("baking NWN2: {count} triangles on {tile_count} tiles: edges")
    });
    let (tile_of, outside) = assign_tiles(input, config, tile_count)?;
    let order = order_by_tile(&tile_of, tile_count);
    let triangles: Vec<[u32; 3]> = order
        .iter()
        .map(|&i| input.triangles.get(i as usize).copied().unwrap_or([0; 3]))
        .collect();
    let tri_flags: Vec<u16> = order
        .iter()
        .map(|&i| input.flags.get(i as usize).copied().unwrap_or(0))
        .collect();
    let tri_tile: Vec<usize> = order
        .iter()
        .map(|&i| tile_of.get(i as usize).copied().unwrap_or(0))
        .collect();
    let ranges = tile_ranges(&tri_tile, tile_count);
    let links = input.links.map(|hints| links_in_baked_order(hints, &order));
    let (edges, edge_slots, neighbours) = build_edges(&triangles, links.as_deref());
    let trx = input.style == Style::Trx;
    let mut out_triangles = triangle_records(
        input.vertices,
        &triangles,
        &tri_flags,
        &edge_slots,
        &neighbours,
    );
    let walkable = |t: usize| tri_flags.get(t).is_some_and(|f| f & flags::WALKABLE != 0);

    let tiles_flags = if trx { 31 } else { 15 };
    let header = Aswm {
        version: crate::aswm::WRITE_VERSION,
        name: [0; 32],
        owns_data: 1,
        header_offset: 0,
        tiles_flags,
        tile_width: input.tile_width,
        grid_height: input.grid_height,
        grid_width: input.grid_width,
        border: input.border,
        ..Aswm::default()
    };
    walkmesh_core::progress::phase(|| format!("baking NWN2: {count} triangles: islands"));
    let (island_members, island_tile, island_of) = if trx {
        find_islands(&ranges, &out_triangles, walkable, input.grid_width)?
    } else {
        (Vec::new(), Vec::new(), vec![NONE16; count])
    };
    for (t, tri) in out_triangles.iter_mut().enumerate() {
        tri.island = island_of.get(t).copied().unwrap_or(NONE16);
    }
    let islands = island_records(&island_members, &island_tile, &island_of, &out_triangles);
    let body_size = planned_body_size(
        input.vertices.len(),
        edges.len(),
        count,
        &ranges,
        walkable,
        trx,
        &islands,
    );
    check_body_size(body_size, &islands, config)?;
    out.length(body_size);
    out.next(|| crate::aswm::parts::head(&header, input.vertices, &edges, count));
    out.next(|| crate::aswm::parts::triangles(&out_triangles));
    let graph: Vec<Vec<(usize, f32)>> = islands
        .iter()
        .map(|i| {
            i.adjacent
                .iter()
                .zip(&i.distances)
                .map(|(&a, &d)| (a as usize, d))
                .collect()
        })
        .collect();

    // With a sink, a core is busy compressing what was handed over: one thread fewer here
    // keeps that (the longest chain of work) from slowing down.
    let threads = walkmesh_core::threads::available();
    let threads = if out.streaming() {
        threads.saturating_sub(1).max(1)
    } else {
        threads
    };
    let island_paths = island_path_table(&graph, threads);
    out.last(body_size, || {
        crate::aswm::parts::islands(input.border, &islands, &island_paths)
    });
    out.next(|| crate::aswm::parts::tiles_header(&header));
    let tiles = TileTables {
        triangles: &triangles,
        edge_slots: &edge_slots,
        records: &out_triangles,
        ranges: &ranges,
        walkable: &walkable,
        trx,
        width: input.tile_width,
        tiles_flags,
        threads,
    }
    .build(&mut out);

    Ok(Baked {
        aswm: Aswm {
            vertices: input.vertices.to_vec(),
            edges,
            triangles: out_triangles,
            tiles,
            islands,
            island_paths,
            ..header
        },
        order,
        outside,
    })
}

/// The tile count of the input's grid, once the triangle count fits 32-bit indices and the
/// grid is neither empty nor larger than any NWN2 area.
fn check_grid(input: &BakeInput<'_>) -> Result<usize, WriteError> {
    if input.triangles.len() >= NONE32 as usize {
        return Err(
            WriteError::new("triangles", "too many triangles for 32-bit indices")
                .with_kind(walkmesh_core::ErrorKind::Limit),
        );
    }
    let (gw, gh, width) = (input.grid_width, input.grid_height, input.tile_width);
    if gw == 0 || gh == 0 || width.is_nan() || width <= 0.0 {
        return Err(WriteError::new(
            "tile_grid",
            format!("the tile grid {gw} x {gh} of width {width} is empty"),
        ));
    }
    let tile_count = gw as usize * gh as usize;
    if tile_count > MAX_TILES {
        return Err(WriteError::new(
            "tile_grid",
            format!(
                "a {gw} x {gh} tile grid has more than {MAX_TILES} tiles; NWN2 areas are far smaller"
            ),
        )
            .with_kind(walkmesh_core::ErrorKind::Limit));
    }
    Ok(tile_count)
}

/// The tile of each input triangle (the one it was read from while its centre is still
/// there, else the one under its centre) and how many centres lay slightly past the grid's
/// edge. A centre farther out is refused: the grid is the area's size, which a walkmesh
/// cannot grow on its own.
fn assign_tiles(
    input: &BakeInput<'_>,
    config: &Config,
    tile_count: usize,
) -> Result<(Vec<usize>, usize), WriteError> {
    let (gw, gh, width) = (input.grid_width, input.grid_height, input.tile_width);
    let mut outside = 0usize;
    let mut tile_of = Vec::with_capacity(input.triangles.len());
    for (i, &t) in input.triangles.iter().enumerate() {
        let c = centre(input.vertices, t);
        let known = input
            .tiles
            .and_then(|tiles| tiles.get(i))
            .copied()
            .filter(|&k| k >= 0 && (k as usize) < tile_count)
            .map(|k| k as usize)
            .filter(|&k| {
                let (kx, ky) = ((k % gw as usize) as f32, (k / gw as usize) as f32);
                c[0] >= kx * width - KEEP_TILE_SLACK
                    && c[0] <= (kx + 1.0) * width + KEEP_TILE_SLACK
                    && c[1] >= ky * width - KEEP_TILE_SLACK
                    && c[1] <= (ky + 1.0) * width + KEEP_TILE_SLACK
            });
        if let Some(k) = known {
            tile_of.push(k);
            continue;
        }
        let (x, ox) = tile_coordinate(c[0], width, gw, config.tile_tolerance);
        let (y, oy) = tile_coordinate(c[1], width, gh, config.tile_tolerance);
        if ox || oy {
            // Slightly past the edge (as official files have it): the nearest edge tile.
            // Farther: the grid is the area's size (TRWH, the .are file), which a walkmesh
            // cannot grow on its own, and an edge tile would hold a triangle that is not in
            // it, which readers reject — so refuse.
            let extent = [gw as f32 * width, gh as f32 * width];
            let beyond = (0..2)
                .map(|k| (-c[k]).max(c[k] - extent[k]))
                .fold(0.0f32, f32::max);
            if beyond.is_nan() || beyond > KEEP_TILE_SLACK {
                return Err(WriteError::new(
                    format!("triangles[{i}]"),
                    format!(
                        "the centre ({}, {}) of triangle {i} lies {beyond} m outside the {gw} x {gh} tile grid of {width} m (x and y from 0 to {} and {}); an NWN2 area holds walkmesh only on its tiles. Move the geometry back onto the grid, or drop the grid (for example through OBJ) so that one is computed from the mesh",
                        c[0], c[1], extent[0], extent[1]
                    ),
                ));
            }
            outside += 1;
        }
        tile_of.push(y as usize * gw as usize + x as usize);
    }
    settle_boundary_slivers(input, width, gw, gh, &mut tile_of);
    Ok((tile_of, outside))
}

/// The baked triangle order (new index → input index): a stable counting sort by tile, so
/// that each tile's triangles are one consecutive range and keep their input order inside.
fn order_by_tile(tile_of: &[usize], tile_count: usize) -> Vec<u32> {
    let mut order: Vec<u32> = vec![0; tile_of.len()];
    let mut next = vec![0usize; tile_count + 1];
    for &tile in tile_of {
        if let Some(c) = next.get_mut(tile.min(tile_count) + 1) {
            *c += 1;
        }
    }
    for i in 1..next.len() {
        let before = next.get(i - 1).copied().unwrap_or(0);
        if let Some(c) = next.get_mut(i) {
            *c += before;
        }
    }
    for (i, &tile) in tile_of.iter().enumerate() {
        if let Some(at) = next.get_mut(tile.min(tile_count))
            && let Some(slot) = order.get_mut(*at)
        {
            *slot = i as u32;
            *at += 1;
        }
    }
    order
}

/// (first triangle, triangle count) of each tile, from the tile of each baked triangle;
/// empty tiles start where the previous one ended, as the toolset writes them.
fn tile_ranges(tri_tile: &[usize], tile_count: usize) -> Vec<(usize, usize)> {
    let mut ranges = vec![(0usize, 0usize); tile_count];
    for (t, &tile) in tri_tile.iter().enumerate() {
        if let Some(r) = ranges.get_mut(tile) {
            if r.1 == 0 {
                r.0 = t;
            }
            r.1 += 1;
        }
    }
    // Ranges of empty tiles start where the previous one ended (running sum).
    let mut running = 0usize;
    for r in &mut ranges {
        r.0 = running;
        running += r.1;
    }
    ranges
}

/// Link hints in baked order: the hints name partners by input index, mapped here through
/// the new order (a partner that is gone becomes [`NO_LINK_HINT`]).
fn links_in_baked_order(hints: &[[i64; 3]], order: &[u32]) -> Vec<[i64; 3]> {
    let mut new_index = vec![u32::MAX; order.len()];
    for (new, &old) in order.iter().enumerate() {
        if let Some(slot) = new_index.get_mut(old as usize) {
            *slot = new as u32;
        }
    }
    order
        .iter()
        .map(|&old| {
            let h = hints
                .get(old as usize)
                .copied()
                .unwrap_or([NO_LINK_HINT; 3]);
            h.map(|p| {
                if p < 0 {
                    p
                } else {
                    new_index.get(p as usize).map_or(NO_LINK_HINT, |&n| {
                        if n == u32::MAX {
                            NO_LINK_HINT
                        } else {
                            i64::from(n)
                        }
                    })
                }
            })
        })
        .collect()
}

/// The triangle records in baked order, island not yet assigned.
fn triangle_records(
    vertices: &[[f32; 3]],
    triangles: &[[u32; 3]],
    tri_flags: &[u16],
    edge_slots: &[[u32; 3]],
    neighbours: &[[u32; 3]],
) -> Vec<Triangle> {
    let mut out_triangles: Vec<Triangle> = Vec::with_capacity(triangles.len());
    for (t, &tri) in triangles.iter().enumerate() {
        let f = tri_flags.get(t).copied().unwrap_or(0);
        let (normal, d) = plane(vertices, tri, f & flags::CLOCKWISE != 0);
        out_triangles.push(Triangle {
            vertices: tri,
            edges: edge_slots.get(t).copied().unwrap_or([NONE32; 3]),
            neighbours: neighbours.get(t).copied().unwrap_or([NONE32; 3]),
            centre: centre(vertices, tri),
            normal,
            d,
            island: NONE16,
            flags: f,
        });
    }
    out_triangles
}

/// Islands (TRX): the walkable components inside each tile, numbered by tile then first
/// triangle. Returns each island's triangles (sorted), each island's tile and each
/// triangle's island ([`NONE16`] for none). A tile with more walkable triangles than its
/// 7-bit node indices can name is refused.
#[allow(clippy::type_complexity)]
fn find_islands(
    ranges: &[(usize, usize)],
    out_triangles: &[Triangle],
    walkable: impl Fn(usize) -> bool,
    grid_width: u32,
) -> Result<(Vec<Vec<usize>>, Vec<u32>, Vec<u16>), WriteError> {
    let mut island_members: Vec<Vec<usize>> = Vec::new();
    let mut island_tile: Vec<u32> = Vec::new();
    let mut island_of = vec![NONE16; out_triangles.len()];
    for (tile_index, &(start, len)) in ranges.iter().enumerate() {
        let end = start + len;
        let in_tile = |n: u32| (n as usize) >= start && (n as usize) < end;
        let walkable_count = (start..end).filter(|&t| walkable(t)).count();
        if walkable_count > MAX_TILE_NODES {
            return Err(WriteError::new(
                format!("tiles[{tile_index}]"),
                format!(
                    "tile {tile_index} (column {}, row {}) has {walkable_count} walkable triangles; a tile holds at most {MAX_TILE_NODES}. Simplify the walkmesh there or split its triangles",
                    tile_index % grid_width as usize,
                    tile_index / grid_width as usize,
                ),
            )
                .with_kind(walkmesh_core::ErrorKind::Limit));
        }
        for t in (start..end).filter(|&t| walkable(t)) {
            if island_of.get(t).is_some_and(|&i| i != NONE16) {
                continue;
            }
            let id = island_members.len();
            if id >= NONE16 as usize {
                return Err(WriteError::new(
                    "islands",
                    "more than 65534 islands; the island index is 16 bits",
                )
                .with_kind(walkmesh_core::ErrorKind::Limit));
            }
            let mut members = vec![t];
            if let Some(slot) = island_of.get_mut(t) {
                *slot = id as u16;
            }
            let mut cursor = 0;
            while let Some(&m) = members.get(cursor) {
                cursor += 1;
                let ns = out_triangles
                    .get(m)
                    .map(|x| x.neighbours)
                    .unwrap_or([NONE32; 3]);
                for n in ns {
                    if n != NONE32
                        && in_tile(n)
                        && walkable(n as usize)
                        && island_of.get(n as usize).is_some_and(|&i| i == NONE16)
                    {
                        if let Some(slot) = island_of.get_mut(n as usize) {
                            *slot = id as u16;
                        }
                        members.push(n as usize);
                    }
                }
            }
            members.sort_unstable();
            island_members.push(members);
            island_tile.push(tile_index as u32);
        }
    }
    Ok((island_members, island_tile, island_of))
}

/// The island records: centre, tile, triangle count, and the adjacent islands in scan order
/// with the exit (the first, lowest, triangle met) and the distance between centres.
fn island_records(
    island_members: &[Vec<usize>],
    island_tile: &[u32],
    island_of: &[u16],
    out_triangles: &[Triangle],
) -> Vec<Island> {
    let mut islands = Vec::with_capacity(island_members.len());
    for (id, members) in island_members.iter().enumerate() {
        let mut sum = [0.0f32; 2];
        for &m in members {
            let c = out_triangles.get(m).map_or([0.0; 2], |x| x.centre);
            sum[0] += c[0];
            sum[1] += c[1];
        }
        // f32 sum in triangle order times the f32 reciprocal of the count: bit-exact with
        // every stored island centre.
        let r = 1.0 / members.len().max(1) as f32;
        islands.push(Island {
            index: id as u32,
            tile: island_tile.get(id).copied().unwrap_or(0),
            centre: [sum[0] * r, sum[1] * r, 0.0],
            triangle_count: members.len() as u32,
            ..Island::default()
        });
    }
    // Adjacent islands in scan order; the exit is the first (lowest) triangle met.
    for (id, members) in island_members.iter().enumerate() {
        let mut adjacent: Vec<u32> = Vec::new();
        let mut exits: Vec<u32> = Vec::new();
        for &m in members {
            let ns = out_triangles
                .get(m)
                .map(|x| x.neighbours)
                .unwrap_or([NONE32; 3]);
            for n in ns {
                let Some(&other) = island_of.get(n as usize) else {
                    continue;
                };
                if other != NONE16 && other as usize != id && !adjacent.contains(&u32::from(other))
                {
                    adjacent.push(u32::from(other));
                    exits.push(m as u32);
                }
            }
        }
        let here = islands.get(id).map_or([0.0; 3], |i| i.centre);
        let distances = adjacent
            .iter()
            .map(|&a| {
                let there = islands.get(a as usize).map_or([0.0; 3], |i| i.centre);
                distance([here[0], here[1]], [there[0], there[1]])
            })
            .collect();
        if let Some(island) = islands.get_mut(id) {
            island.adjacent = adjacent;
            island.exits = exits;
            island.distances = distances;
        }
    }
    islands
}

/// Refuses a bake whose body no reader would inflate, or whose island path table (n²
/// records), body and search rows would exceed the memory bound: the whole body is known in
/// size here, before the tile tables and the island path table are computed.
fn check_body_size(body_size: u64, islands: &[Island], config: &Config) -> Result<(), WriteError> {
    if body_size > MAX_BODY {
        let paths = 8 * (islands.len() as u64).pow(2);
        return Err(WriteError::new(
            "aswm",
            format!(
                "the baked walkmesh would take {body_size} bytes, more than the {MAX_BODY} bytes a reader inflates ({} islands — separate walkable pieces per tile — need an island path table of {paths} bytes); join or remove small separate pieces",
                islands.len()
            ),
        )
            .with_kind(walkmesh_core::ErrorKind::Limit));
    }
    // The island path table (n² records), the body it is written into and the search
    // rows of one block of roots, estimated before any of them exists.
    let n = islands.len() as u64;
    let table = (std::mem::size_of::<crate::aswm::IslandPath>() as u64).saturating_mul(n * n);
    let rows = (std::mem::size_of::<usize>() * HOP_BLOCK) as u64 * n;
    walkmesh_core::memory::check(
        walkmesh_core::memory::PARAM_MAX_MEMORY,
        &format!("the island path table of {n} islands (separate walkable pieces per tile)"),
        table.saturating_add(body_size).saturating_add(rows),
        config.max_memory_mib,
    )?;
    Ok(())
}

/// What the tile records are made from: the baked triangles, their edge slots and records,
/// the tile ranges, and the threads the per-tile next-hop tables are computed on.
struct TileTables<'a, W: Fn(usize) -> bool + Sync> {
    triangles: &'a [[u32; 3]],
    edge_slots: &'a [[u32; 3]],
    records: &'a [Triangle],
    ranges: &'a [(usize, usize)],
    walkable: &'a W,
    trx: bool,
    width: f32,
    tiles_flags: u32,
    threads: usize,
}

impl<W: Fn(usize) -> bool + Sync> TileTables<'_, W> {
    /// The tile records with (TRX) their next-hop tables, independent of each other and so
    /// computed on a few threads, in order. With a sink, tiles go in batches whose records
    /// are handed over as soon as their tables exist, so that the compressor is never left
    /// waiting for the whole tile block.
    fn build(&self, out: &mut Handover<'_>) -> Vec<Tile> {
        let tile_count = self.ranges.len();
        let count = self.records.len();
        let batch = if out.streaming() {
            TILE_BATCH
        } else {
            tile_count.max(1)
        };
        let mut tiles = Vec::with_capacity(tile_count);
        let mut vertex_ids: Vec<u32> = Vec::new();
        let mut edge_ids: Vec<u32> = Vec::new();
        let mut first = 0;
        walkmesh_core::progress::phase(|| {
            format!("baking NWN2: path tables of {tile_count} tiles")
        });
        while first < tile_count {
            walkmesh_core::progress::step(first as u64, tile_count as u64);
            let last = (first + batch).min(tile_count);
            let batch_ranges = self.ranges.get(first..last).unwrap_or(&[]);
            let tables: Vec<Vec<u8>> = if self.trx {
                parallel_chunks_on(
                    self.threads,
                    batch_ranges.len(),
                    count * 40 / tile_count.max(1) * batch_ranges.len(),
                    &|items| {
                        let mut scratch = TableScratch::default();
                        items
                            .map(|item| {
                                batch_ranges
                                    .get(item)
                                    .map_or_else(Vec::new, |&(start, len)| {
                                        tile_table(self.records, start, len, &mut scratch)
                                    })
                            })
                            .collect()
                    },
                )
            } else {
                Vec::new()
            };
            let mut tables = tables.into_iter();
            for &(start, len) in batch_ranges {
                let end = start + len;
                vertex_ids.clear();
                vertex_ids.extend(
                    self.triangles
                        .get(start..end)
                        .unwrap_or(&[])
                        .iter()
                        .flatten(),
                );
                vertex_ids.sort_unstable();
                vertex_ids.dedup();
                edge_ids.clear();
                edge_ids.extend(
                    self.edge_slots
                        .get(start..end)
                        .unwrap_or(&[])
                        .iter()
                        .flatten(),
                );
                edge_ids.sort_unstable();
                edge_ids.dedup();
                let mut tile = Tile {
                    vertex_count: vertex_ids.len() as u32,
                    edge_count: edge_ids.len() as u32,
                    triangle_count: len as u32,
                    size: if !self.trx && len > 0 {
                        [self.width, self.width]
                    } else {
                        [0.0, 0.0]
                    },
                    triangles_offset: start as u32,
                    flags: self.tiles_flags,
                    ..Tile::default()
                };
                if self.trx {
                    let mut node_of = vec![NO_NODE; len];
                    let mut node_to_local = Vec::new();
                    for t in (start..end).filter(|&t| (self.walkable)(t)) {
                        if let Some(slot) = node_of.get_mut(t - start) {
                            *slot = node_to_local.len() as u8;
                        }
                        node_to_local.push((t - start) as u32);
                    }
                    tile.nodes = tables.next().unwrap_or_default();
                    tile.node_to_local = node_to_local;
                    tile.local_to_node = node_of;
                }
                tiles.push(tile);
            }
            out.next(|| crate::aswm::parts::tile_records(tiles.get(first..last).unwrap_or(&[])));
            first = last;
        }
        tiles
    }
}

/// The island path table: the next hop and its weight from every island to every other.
/// Rows of next hops are computed in blocks of roots, each turned into path records at once,
/// so that the search's own rows (a machine word per entry) never exist for more than a block.
fn island_path_table(graph: &[Vec<(usize, f32)>], threads: usize) -> Vec<IslandPath> {
    let n = graph.len();
    let island_edges: usize = graph.iter().map(Vec::len).sum();
    let mut island_paths = Vec::with_capacity(n * n);
    let mut block_start = 0;
    walkmesh_core::progress::phase(|| format!("baking NWN2: paths between {n} islands"));
    while block_start < n {
        walkmesh_core::progress::step(block_start as u64, n as u64);
        let block_end = (block_start + HOP_BLOCK).min(n);
        let block = block_end - block_start;
        let weight = block.saturating_mul(island_edges.max(n));
        island_paths.extend(parallel_chunks_on(threads, block, weight, &|roots| {
            let first = block_start + roots.start;
            let hops = next_hop_rows(graph, first..block_start + roots.end);
            hops.iter()
                .enumerate()
                .map(|(k, &h)| {
                    let s = first + k / n.max(1);
                    let weight = if h == usize::MAX {
                        0.0
                    } else {
                        graph
                            .get(s)
                            .and_then(|l| l.iter().find(|&&(a, _)| a == h))
                            .map_or(0.0, |&(_, d)| d)
                    };
                    IslandPath {
                        next: if h == usize::MAX { NONE16 } else { h as u16 },
                        padding: 0,
                        weight,
                    }
                })
                .collect()
        }));
        block_start = block_end;
    }
    island_paths
}

/// Largest ASWM body the bake writes: the ceiling below which our reader (and its default
/// `max_decompressed`) inflates a walkmesh, so that every baked file reads back.
pub const MAX_BODY: u64 = 256 * 1024 * 1024;

/// Roots per block of island path rows (see the bake's last step).
const HOP_BLOCK: usize = 256;

/// Bytes of the version 0x6c body [`crate::aswm::serialize`] writes for these counts: header,
/// vertices, edges, triangles, tiles (with their node tables in TRX), islands and the n × n
/// island path table.
fn planned_body_size(
    vertices: usize,
    edges: usize,
    triangles: usize,
    ranges: &[(usize, usize)],
    walkable: impl Fn(usize) -> bool,
    trx: bool,
    islands: &[Island],
) -> u64 {
    let mut size = 53 + 12 * vertices as u64 + 16 * edges as u64 + 64 * triangles as u64 + 16;
    for &(start, len) in ranges {
        size += 74;
        if trx {
            let nodes = (start..start + len).filter(|&t| walkable(t)).count() as u64;
            size += len as u64 + 4 * nodes + nodes * nodes;
        }
    }
    size += 8;
    for island in islands {
        size +=
            36 + 4 * (island.adjacent.len() + island.distances.len() + island.exits.len()) as u64;
    }
    size + 8 * (islands.len() as u64).pow(2)
}

/// Tiles per batch handed to a sink (a 24 × 24 area: 18 batches).
const TILE_BATCH: usize = 32;

/// Node slots of a tile table: node indices are 7 bits, so a `& 127` index is always in range
/// and the searches run without bounds checks or allocation.
const SLOTS: usize = MAX_TILE_NODES + 1;

/// The buffers of [`tile_table`], reused from tile to tile.
struct TableScratch {
    node_of: Vec<u8>,
    links: Links,
    /// One search per lane, run side by side (see [`tile_table`]).
    lanes: [Search; LANES],
}

impl Default for TableScratch {
    fn default() -> Self {
        TableScratch {
            node_of: Vec::new(),
            links: Links {
                node: [[0; 3]; SLOTS],
                length: [[0.0; 3]; SLOTS],
                count: [0; SLOTS],
            },
            lanes: std::array::from_fn(|_| Search {
                cost: [0; SLOTS],
                row: [NO_NODE; SLOTS],
                open: OpenSet::default(),
            }),
        }
    }
}

/// Per node: linked nodes and the lengths of the links (a triangle has three sides).
struct Links {
    node: [[u8; 3]; SLOTS],
    length: [[f32; 3]; SLOTS],
    count: [u8; SLOTS],
}

/// One shortest-path search of a tile: cost bits per node (f32 costs are ≥ 0, where the bits
/// order like the values), the first hop towards each node, and the open nodes.
struct Search {
    cost: [u32; SLOTS],
    row: [u8; SLOTS],
    open: OpenSet,
}

/// How many roots are searched side by side. Each search is one long chain of dependent
/// steps (pick the cheapest open node, read its links, update three costs, pick again);
/// interleaving independent searches lets the processor overlap their chains.
const LANES: usize = 4;

impl Search {
    /// Starts the search from `root` over the `n` nodes.
    fn start(&mut self, root: usize, n: usize) {
        const INFINITE: u32 = 0x7F80_0000;
        self.cost[..n].fill(INFINITE);
        self.row[..n].fill(NO_NODE);
        self.cost[PAD] = 0;
        self.cost[root % SLOTS] = 0;
        // Every search ends with nothing open, so `at` needs no reset between roots.
        self.open.set_if(true, root, 0);
    }

    /// Settles the next node; false once every reachable node is settled.
    fn step(&mut self, root: usize, links: &Links) -> bool {
        let Some(node) = self.open.pop_cheapest() else {
            return false;
        };
        let node = node % SLOTS;
        let c = f32::from_bits(self.cost[node]);
        let hop_here = self.row[node];
        for k in 0..3 {
            let next = usize::from(links.node[node][k]) % SLOTS;
            let candidate = (c + links.length[node][k]).to_bits();
            let cost = self.cost[next];
            // Both are costs ≥ 0 (or +inf): their bits compare like the values. Which way
            // this goes is unpredictable, so it is computed, not branched on. A settled node
            // is never improved (its cost is at most `c`, and the links are not negative),
            // so only the frontier changes.
            let better = candidate < cost;
            let hop = if node == root { next as u8 } else { hop_here };
            self.cost[next] = if better { candidate } else { cost };
            self.row[next] = if better { hop } else { self.row[next] };
            self.open.set_if(better, next, candidate);
        }
        true
    }
}

/// The spare node slot (no tile has 128 nodes): missing links lead there, at a cost that
/// never improves on its 0, so every node has exactly three links to follow.
const PAD: usize = SLOTS - 1;

/// The nodes reached but not yet settled, as `cost bits << 8 | node` keys in a short array.
///
/// A tile has at most 127 nodes of at most three links each, so the frontier is a handful of
/// nodes. The cheapest is found by scanning the keys (one contiguous run of integers; the
/// smallest key is the least cost, the lowest node among equal costs: the order a heap of
/// these keys pops them in), and a cheaper route to a node already open rewrites its key in
/// place, so there are no stale entries and no sift loops. Against a bit set whose scan looked
/// each cost up by node, the dm_dungeon tables took about half the time (docs/performance.md).
struct OpenSet {
    keys: [u64; SLOTS],
    len: usize,
    /// Where each open node's key is in `keys` ([`NOT_OPEN`] for the others).
    at: [u8; SLOTS],
}

const NOT_OPEN: u8 = u8::MAX;

impl Default for OpenSet {
    fn default() -> Self {
        OpenSet {
            keys: [0; SLOTS],
            len: 0,
            at: [NOT_OPEN; SLOTS],
        }
    }
}

impl OpenSet {
    /// When `apply`: opens `node` at `cost` (bits), or lowers its cost if it is open already.
    /// Written without branches on `apply` or on whether the node is open (both are as good
    /// as random in the search).
    fn set_if(&mut self, apply: bool, node: usize, cost: u32) {
        let node = node % SLOTS;
        let at = self.at[node];
        let open = at != NOT_OPEN;
        // An open node's key is rewritten in place; a new one goes after the last. `len` is
        // below SLOTS here: at most 127 nodes are ever open, the spare slot never is.
        let slot = if open { usize::from(at) } else { self.len } % SLOTS;
        let key = u64::from(cost) << 8 | node as u64;
        self.keys[slot] = if apply { key } else { self.keys[slot] };
        self.at[node] = if apply { slot as u8 } else { at };
        self.len += usize::from(apply && !open);
    }

    /// Removes and returns the open node of least cost, the lowest index among equal costs.
    fn pop_cheapest(&mut self) -> Option<usize> {
        let open = self.keys.get(..self.len)?;
        // Four running minima, so that the scan is four short chains of compares instead of
        // one long one (each step waits for the previous only within its own chain).
        let mut least = [u64::MAX; 4];
        let runs = open.chunks_exact(4);
        let rest = runs.remainder();
        for run in runs {
            for (low, &key) in least.iter_mut().zip(run) {
                *low = (*low).min(key);
            }
        }
        for (low, &key) in least.iter_mut().zip(rest) {
            *low = (*low).min(key);
        }
        let key = least[0].min(least[1]).min(least[2].min(least[3]));
        if key == u64::MAX {
            return None;
        }
        let node = (key & 0xFF) as usize % SLOTS;
        let index = usize::from(self.at[node]) % SLOTS;
        self.len -= 1;
        let moved = self.keys[self.len % SLOTS];
        self.keys[index] = moved;
        self.at[(moved & 0xFF) as usize % SLOTS] = index as u8;
        self.at[node] = NOT_OPEN;
        Some(node)
    }
}

/// The next-hop table of the tile holding triangles `start..start + len`: `n × n` bytes,
/// row = from node, column = to node, the next node on a shortest path between the centres of
/// walkable triangles linked inside the tile, [`NO_NODE`] for none and on the diagonal.
///
/// The same search as `walkmesh_core::passes::paths::next_hop_rows` (f32 sums, settled by
/// (cost, index), a first hop changes only on a strictly smaller cost), on node indices below
/// 128 with fixed-size buffers, so that nothing is allocated per node or per search.
fn tile_table(triangles: &[Triangle], start: usize, len: usize, s: &mut TableScratch) -> Vec<u8> {
    let end = start + len;
    let walkable = |t: usize| {
        triangles
            .get(t)
            .is_some_and(|tri| tri.flags & flags::WALKABLE != 0)
    };
    s.node_of.clear();
    s.node_of.resize(len, NO_NODE);
    let mut n = 0usize;
    for t in start..end {
        if walkable(t) {
            if n >= SLOTS - 1 {
                // More than 127: refused by the caller before the tables are computed.
                return Vec::new();
            }
            if let Some(slot) = s.node_of.get_mut(t - start) {
                *slot = n as u8;
            }
            n += 1;
        }
    }
    let links = &mut s.links;
    for (node, t) in (start..end).filter(|&t| walkable(t)).enumerate() {
        let tri = triangles.get(t);
        let here = tri.map_or([0.0; 2], |x| x.centre);
        let mut count = 0usize;
        for &m in tri.map(|x| &x.neighbours[..]).unwrap_or(&[]) {
            let m = m as usize;
            if m >= start && m < end && walkable(m) {
                let linked = s.node_of.get(m - start).copied().unwrap_or(NO_NODE);
                let known = &links.node[node % SLOTS][..count.min(3)];
                if linked != NO_NODE && !known.contains(&linked) {
                    let there = triangles.get(m).map_or([0.0; 2], |x| x.centre);
                    let length = distance(here, there);
                    // Lengths of finite centres are never negative or NaN; the search skips
                    // such links, so they are not stored.
                    if !(length.is_nan() || length < 0.0) && count < 3 {
                        links.node[node % SLOTS][count] = linked;
                        links.length[node % SLOTS][count] = length;
                        count += 1;
                    }
                }
            }
        }
        links.count[node % SLOTS] = count as u8;
        for k in count..3 {
            links.node[node % SLOTS][k] = PAD as u8;
            links.length[node % SLOTS][k] = f32::INFINITY;
        }
    }
    let mut table = Vec::with_capacity(n * n);
    let links = &s.links;
    for first in (0..n).step_by(LANES) {
        let roots = first..(first + LANES).min(n);
        for (search, root) in s.lanes.iter_mut().zip(roots.clone()) {
            search.start(root, n);
        }
        let lanes = s.lanes.get_mut(..roots.len()).unwrap_or(&mut []);
        loop {
            let mut busy = false;
            for (search, root) in lanes.iter_mut().zip(roots.clone()) {
                busy |= search.step(root, links);
            }
            if !busy {
                break;
            }
        }
        for (search, root) in lanes.iter_mut().zip(roots) {
            search.row[root % SLOTS] = NO_NODE;
            table.extend_from_slice(&search.row[..n]);
        }
    }
    table
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn tile_coordinate_keeps_upper_edges_in_the_lower_tile() {
        assert_eq!(tile_coordinate(0.0, 9.0, 4, 0.0), (0, false));
        assert_eq!(tile_coordinate(4.5, 9.0, 4, 0.0), (0, false));
        assert_eq!(tile_coordinate(9.0, 9.0, 4, 0.0), (0, false));
        assert_eq!(tile_coordinate(9.001, 9.0, 4, 0.0), (1, false));
        assert_eq!(tile_coordinate(36.0, 9.0, 4, 0.0), (3, false));
        assert_eq!(tile_coordinate(36.5, 9.0, 4, 0.0), (3, true));
        assert_eq!(tile_coordinate(-0.5, 9.0, 4, 0.0), (0, true));
        assert_eq!(tile_coordinate(f32::NAN, 9.0, 4, 0.0), (0, true));
    }

    #[test]
    fn centre_and_plane_are_computed_like_the_toolset() {
        let v = [
            [0.0, 0.0, 1.0],
            [3.0, 0.0, 1.0],
            [0.0, 3.0, 1.0],
            [1.0, 1.0, 1.0],
        ];
        assert_eq!(centre(&v, [0, 1, 2]), [1.0, 1.0]);
        // Counter-clockwise: normal +Z, d = -1.
        assert_eq!(plane(&v, [0, 1, 2], false), ([0.0, 0.0, 1.0], -1.0));
        // Written clockwise with 0x04: the normal still points up.
        assert_eq!(plane(&v, [0, 2, 1], true), ([0.0, 0.0, 1.0], -1.0));
        // Degenerate: zero normal rather than NaN.
        assert_eq!(plane(&v, [0, 0, 1], false).0, [0.0, 0.0, 0.0]);
    }

    #[test]
    fn edges_are_sorted_by_vertex_pair_and_slots_ascend() {
        // Square 0-1-2-3 split along 0-2, written clockwise.
        let triangles = [[0, 2, 1], [0, 3, 2]];
        let (edges, slots, neighbours) = build_edges(&triangles, None);
        let pairs: Vec<[u32; 2]> = edges.iter().map(|e| e.vertices).collect();
        assert_eq!(pairs, vec![[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]);
        assert_eq!(edges[1].triangles, [0, 1]);
        assert_eq!(edges[0].triangles, [0, NONE32]);
        assert_eq!(slots, vec![[0, 1, 3], [1, 2, 4]]);
        assert_eq!(neighbours, vec![[NONE32, 1, NONE32], [0, NONE32, NONE32]]);
    }

    #[test]
    fn crowded_sides_pair_in_order_unless_hints_say_otherwise() {
        // Three triangles on side 0-1.
        let triangles = [[0, 1, 2], [1, 0, 3], [0, 1, 4]];
        let (edges, _, neighbours) = build_edges(&triangles, None);
        assert_eq!(edges[0].vertices, [0, 1]);
        assert_eq!(edges[0].triangles, [0, 1]);
        assert_eq!(edges[1].triangles, [2, NONE32]);
        assert_eq!(neighbours[2][0], NONE32);
        // Hints: link 1 with 2, leave 0 alone.
        let n = NO_LINK_HINT;
        let links = [[-1, n, n], [2, n, n], [1, n, n]];
        let (edges, _, neighbours) = build_edges(&triangles, Some(&links));
        assert_eq!(edges[0].triangles, [0, NONE32]);
        assert_eq!(edges[1].triangles, [1, 2]);
        assert!(neighbours[1].contains(&2) && neighbours[2].contains(&1));
    }

    /// A strip of `n` unit squares along x, each two triangles, written clockwise.
    fn strip(n: u32, width: f32) -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
        let mut vertices = Vec::new();
        for i in 0..=n {
            vertices.push([i as f32 * width, 0.0, 0.0]);
            vertices.push([i as f32 * width, width, 0.0]);
        }
        let mut triangles = Vec::new();
        for i in 0..n {
            let (a, b, c, d) = (2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
            triangles.push([a, c, b]);
            triangles.push([a, d, c]);
        }
        (vertices, triangles)
    }

    /// Flags of `count` TRX triangles, every `every`-th one not walkable.
    fn every_nth_unwalkable(count: usize, every: usize) -> Vec<u16> {
        (0..count)
            .map(|i| {
                if i % every == 0 {
                    flags::CLOCKWISE
                } else {
                    flags::WALKABLE | flags::CLOCKWISE
                }
            })
            .collect()
    }

    /// A [`strip`] on a row of `columns` 9 m tiles.
    fn strip_input<'a>(
        vertices: &'a [[f32; 3]],
        triangles: &'a [[u32; 3]],
        flags: &'a [u16],
        columns: u32,
        style: Style,
    ) -> BakeInput<'a> {
        BakeInput {
            vertices,
            triangles,
            flags,
            tiles: None,
            links: None,
            grid_width: columns,
            grid_height: 1,
            tile_width: 9.0,
            style,
            border: 0,
        }
    }

    #[test]
    fn bake_builds_tiles_islands_and_island_paths() {
        // Two 9 m tiles, each one square of two walkable triangles.
        let (vertices, triangles) = strip(2, 9.0);
        let flags = vec![flags::WALKABLE | flags::CLOCKWISE | 0x20; 4];
        let baked = bake(
            &BakeInput {
                vertices: &vertices,
                triangles: &triangles,
                flags: &flags,
                tiles: None,
                links: None,
                grid_width: 2,
                grid_height: 1,
                tile_width: 9.0,
                style: Style::Trx,
                border: 0,
            },
            &Config::default(),
        )
        .unwrap();
        let a = &baked.aswm;
        assert_eq!(a.tiles.len(), 2);
        assert_eq!(
            (a.tiles[0].triangles_offset, a.tiles[0].triangle_count),
            (0, 2)
        );
        assert_eq!(
            (a.tiles[1].triangles_offset, a.tiles[1].triangle_count),
            (2, 2)
        );
        assert_eq!(a.tiles[0].node_to_local, vec![0, 1]);
        assert_eq!(a.tiles[0].nodes, vec![0xFF, 1, 0, 0xFF]);
        assert_eq!(a.tiles[0].vertex_count, 4);
        assert_eq!(a.tiles[0].edge_count, 5);
        assert_eq!(a.islands.len(), 2);
        assert_eq!(a.islands[0].centre, [4.5, 4.5, 0.0]);
        assert_eq!(a.islands[0].adjacent, vec![1]);
        assert_eq!(a.islands[0].distances, vec![9.0]);
        // Triangle 0 ([0, 3, 2]) has the side x = 9 shared with tile 1: the lowest exit.
        assert_eq!(a.islands[0].exits, vec![0]);
        assert_eq!(a.island_paths[1].next, 1);
        assert_eq!(a.island_paths[1].weight, 9.0);
        assert_eq!(a.island_paths[0].next, NONE16);
        assert_eq!(
            a.triangles.iter().map(|t| t.island).collect::<Vec<_>>(),
            vec![0, 0, 1, 1]
        );
        assert_eq!(a.tiles_flags, 31);
    }

    #[test]
    fn the_planned_body_size_is_the_serialised_size() {
        let (vertices, triangles) = strip(5, 3.0);
        let flags = every_nth_unwalkable(triangles.len(), 3);
        for style in [Style::Trx, Style::Trn] {
            let input = strip_input(&vertices, &triangles, &flags, 2, style);
            let baked = bake(&input, &Config::default()).unwrap();
            let a = &baked.aswm;
            let ranges: Vec<(usize, usize)> = a
                .tiles
                .iter()
                .map(|t| (t.triangles_offset as usize, t.triangle_count as usize))
                .collect();
            let walkable = |t: usize| a.triangles[t].flags & flags::WALKABLE != 0;
            let planned = planned_body_size(
                a.vertices.len(),
                a.edges.len(),
                a.triangles.len(),
                &ranges,
                walkable,
                style == Style::Trx,
                &a.islands,
            );
            assert_eq!(planned, crate::aswm::serialize(a).len() as u64, "{style:?}");
        }
        assert_eq!(
            MAX_BODY,
            walkmesh_core::ReadOptions::default().max_decompressed
        );
    }

    #[test]
    fn streamed_pieces_cover_the_serialised_body_once_islands_before_tiles() {
        // 40 tiles of a strip, some triangles not walkable (several islands per tile row).
        let (vertices, triangles) = strip(40, 3.0);
        let flags = every_nth_unwalkable(triangles.len(), 5);
        for style in [Style::Trx, Style::Trn] {
            let input = strip_input(&vertices, &triangles, &flags, 14, style);
            let mut pieces = Vec::new();
            let mut sink = |piece: BodyPiece| pieces.push(piece);
            let baked = bake_streaming(&input, &Config::default(), Some(&mut sink)).unwrap();
            let body = crate::aswm::serialize(&baked.aswm);
            // The length first, then pieces that tile the body exactly once.
            assert_eq!(
                pieces.first(),
                Some(&BodyPiece::Length(body.len())),
                "{style:?}"
            );
            let mut assembled = vec![None; body.len()];
            let mut starts = Vec::new();
            for piece in &pieces[1..] {
                let BodyPiece::At(at, bytes) = piece else {
                    unreachable!("a second length");
                };
                starts.push(*at);
                for (k, &b) in bytes.iter().enumerate() {
                    assert!(
                        assembled[at + k].replace(b).is_none(),
                        "byte {} twice",
                        at + k
                    );
                }
            }
            let assembled: Vec<u8> = assembled.into_iter().map(Option::unwrap).collect();
            assert_eq!(assembled, body, "{style:?}");
            // The island part (the end of the body) is handed over before the tile part.
            let islands_at = body.len()
                - crate::aswm::parts::islands(0, &baked.aswm.islands, &baked.aswm.island_paths)
                    .len();
            let island_piece = starts.iter().position(|&at| at == islands_at).unwrap();
            assert!(starts[island_piece + 1..].iter().all(|&at| at < islands_at));
            assert!(
                island_piece + 1 < starts.len(),
                "tile pieces follow the islands"
            );
        }
    }

    #[test]
    fn tile_tables_equal_the_general_next_hop_search() {
        // Seeded random tiles: neighbours inside and outside the tile, some not walkable,
        // centres on a coarse grid (equal lengths and zero-length links between duplicated
        // centres, where only the tie-breaking rule decides the hop), up to 127 nodes. The
        // tile search (four lanes, padded links, key array) must give the general search's
        // table exactly.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below.max(1)
        };
        let mut scratch = TableScratch::default();
        for round in 0..300 {
            let len = 1 + next(140) as usize;
            let start = next(5) as usize;
            let total = start + len + 3;
            let triangles: Vec<Triangle> = (0..total)
                .map(|_| Triangle {
                    neighbours: std::array::from_fn(|_| {
                        if next(6) == 0 {
                            NONE32
                        } else {
                            next(total as u64) as u32
                        }
                    }),
                    centre: [next(6) as f32 * 0.5, next(6) as f32 * 0.5],
                    flags: if next(8) == 0 { 0 } else { flags::WALKABLE },
                    ..Triangle::default()
                })
                .collect();
            let walkable = |t: usize| triangles[t].flags & flags::WALKABLE != 0;
            let nodes: Vec<usize> = (start..start + len).filter(|&t| walkable(t)).collect();
            let table = tile_table(&triangles, start, len, &mut scratch);
            if nodes.len() > MAX_TILE_NODES {
                assert!(table.is_empty(), "round {round}: refused");
                continue;
            }
            // The links as the tile search takes them: walkable neighbours in the tile,
            // each once, at most three, in the triangle's neighbour order.
            let adjacency: Vec<Vec<(usize, f32)>> = nodes
                .iter()
                .map(|&t| {
                    let mut links: Vec<(usize, f32)> = Vec::new();
                    for &m in &triangles[t].neighbours {
                        let m = m as usize;
                        if m >= start && m < start + len && walkable(m) {
                            let node = nodes.iter().position(|&x| x == m).unwrap();
                            if links.len() < 3 && !links.iter().any(|&(k, _)| k == node) {
                                let length = distance(triangles[t].centre, triangles[m].centre);
                                links.push((node, length));
                            }
                        }
                    }
                    links
                })
                .collect();
            let expected: Vec<u8> = next_hop_rows(&adjacency, 0..nodes.len())
                .into_iter()
                .map(|h| if h == usize::MAX { NO_NODE } else { h as u8 })
                .collect();
            assert_eq!(table, expected, "round {round}: {} nodes", nodes.len());
        }
    }

    #[test]
    fn too_many_islands_are_refused_before_the_path_table_exists() {
        // 9 000 separate walkable triangles, 100 per 9 m tile: 9 000 islands need an
        // 81 000 000-record island path table (648 MB).
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for i in 0..9000u32 {
            let (tile, k) = (i / 100, i % 100);
            let x = (tile % 10) as f32 * 9.0 + (k % 10) as f32 * 0.9 + 0.1;
            let y = (tile / 10) as f32 * 9.0 + (k / 10) as f32 * 0.9 + 0.1;
            let base = vertices.len() as u32;
            vertices.extend([[x, y, 0.0], [x + 0.5, y, 0.0], [x, y + 0.5, 0.0]]);
            triangles.push([base, base + 2, base + 1]);
        }
        let flags = vec![flags::WALKABLE | flags::CLOCKWISE; triangles.len()];
        let started = std::time::Instant::now();
        let error = bake(
            &BakeInput {
                vertices: &vertices,
                triangles: &triangles,
                flags: &flags,
                tiles: None,
                links: None,
                grid_width: 10,
                grid_height: 9,
                tile_width: 9.0,
                style: Style::Trx,
                border: 0,
            },
            &Config::default(),
        )
        .unwrap_err();
        assert_eq!(error.field, "aswm");
        assert!(error.message.contains("9000 islands"), "{error}");
        assert!(started.elapsed().as_secs_f64() < 5.0);
    }

    #[test]
    fn an_island_table_above_the_memory_limit_is_refused_naming_the_option() {
        // 2 000 separate walkable triangles, 100 per 9 m tile: a 4 000 000-record island path
        // table (32 MB at 8 bytes a record), within what a reader inflates but above a
        // 16 MiB limit.
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for i in 0..2000u32 {
            let (tile, k) = (i / 100, i % 100);
            let x = (tile % 5) as f32 * 9.0 + (k % 10) as f32 * 0.9 + 0.1;
            let y = (tile / 5) as f32 * 9.0 + (k / 10) as f32 * 0.9 + 0.1;
            let base = vertices.len() as u32;
            vertices.extend([[x, y, 0.0], [x + 0.5, y, 0.0], [x, y + 0.5, 0.0]]);
            triangles.push([base, base + 2, base + 1]);
        }
        let flags = vec![flags::WALKABLE | flags::CLOCKWISE; triangles.len()];
        let input = BakeInput {
            vertices: &vertices,
            triangles: &triangles,
            flags: &flags,
            tiles: None,
            links: None,
            grid_width: 5,
            grid_height: 4,
            tile_width: 9.0,
            style: Style::Trx,
            border: 0,
        };
        let config = Config {
            max_memory_mib: 16,
            ..Config::default()
        };
        let error = bake(&input, &config).unwrap_err();
        assert_eq!(error.field, walkmesh_core::memory::PARAM_MAX_MEMORY);
        assert!(error.message.contains("2000 islands"), "{error}");
        assert!(error.message.contains("limit of 16 MiB"), "{error}");
        assert!(error.message.contains("--max-memory"), "{error}");
        // 32 000 000 bytes of table alone: the estimate is at least that.
        let estimate: u64 = error
            .message
            .split("estimated ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|mib| mib.parse().ok())
            .unwrap();
        assert!(estimate >= 31, "{estimate} MiB");
    }

    #[test]
    fn a_tile_with_128_walkable_triangles_is_refused_by_name() {
        let (vertices, triangles) = strip(64, 9.0 / 64.0);
        let flags = vec![flags::WALKABLE | flags::CLOCKWISE; triangles.len()];
        let input = BakeInput {
            vertices: &vertices,
            triangles: &triangles,
            flags: &flags,
            tiles: None,
            links: None,
            grid_width: 1,
            grid_height: 1,
            tile_width: 9.0,
            style: Style::Trx,
            border: 0,
        };
        let error = bake(&input, &Config::default()).unwrap_err();
        assert_eq!(error.field, "tiles[0]");
        assert!(error.message.contains("128 walkable"), "{error}");
        // 127 fit.
        let flags: Vec<u16> = (0..128)
            .map(|i| {
                if i == 0 {
                    0
                } else {
                    flags::WALKABLE | flags::CLOCKWISE
                }
            })
            .collect();
        let ok = bake(
            &BakeInput {
                flags: &flags,
                ..input
            },
            &Config::default(),
        )
        .unwrap();
        assert_eq!(ok.aswm.tiles[0].node_to_local.len(), 127);
        assert_eq!(ok.aswm.tiles[0].local_to_node[0], NO_NODE);
    }

    #[test]
    fn a_sliver_on_a_tile_boundary_goes_to_the_side_with_fewer_neighbours() {
        // A vertical wall triangle standing on x = 9 (its centre exactly on the boundary),
        // sharing its base 0-1 with one floor triangle in tile 0 and its side 1-2 with two
        // triangles in tile 1.
        let vertices = [
            [9.0, 1.0, 0.0],  // 0
            [9.0, 2.0, 0.0],  // 1
            [9.0, 2.0, 3.0],  // 2
            [8.0, 1.5, 0.0],  // 3: tile 0
            [10.0, 2.5, 1.0], // 4: tile 1
            [10.0, 1.5, 2.0], // 5: tile 1
        ];
        let triangles = [[0, 1, 2], [0, 3, 1], [1, 4, 2], [2, 1, 5]];
        let flags = [flags::CLOCKWISE; 4];
        let mut input = BakeInput {
            vertices: &vertices,
            triangles: &triangles,
            flags: &flags,
            tiles: None,
            links: None,
            grid_width: 2,
            grid_height: 1,
            tile_width: 9.0,
            style: Style::Trx,
            border: 0,
        };
        let mut tile_of = vec![0, 0, 1, 1];
        settle_boundary_slivers(&input, 9.0, 2, 1, &mut tile_of);
        assert_eq!(tile_of, vec![0, 0, 1, 1]);
        // With two floor neighbours in tile 0 and one in tile 1 it moves to tile 1.
        let triangles = [[0, 1, 2], [0, 3, 1], [1, 4, 2], [0, 2, 3]];
        input.triangles = &triangles;
        let mut tile_of = vec![0, 0, 1, 0];
        settle_boundary_slivers(&input, 9.0, 2, 1, &mut tile_of);
        assert_eq!(tile_of, vec![1, 0, 1, 0]);
        // A recorded tile is left alone.
        let recorded = [0i64, -1, -1, -1];
        input.tiles = Some(&recorded);
        let mut tile_of = vec![0, 0, 1, 0];
        settle_boundary_slivers(&input, 9.0, 2, 1, &mut tile_of);
        assert_eq!(tile_of, vec![0, 0, 1, 0]);
    }
}
