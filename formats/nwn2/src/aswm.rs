//! The ASWM walkmesh packet: the `COMP` + zlib wrapper, and the body in versions 0x69–0x6c
//! (read) and 0x6c (written). Field layout: `docs/formats/nwn2.md` §2.

use std::io::Read;
use std::sync::Arc;

use walkmesh_core::ReadError;

use crate::bin::{Cursor, Out, bytes32, le_f32, le_u16, le_u32};

/// "No triangle / no edge" in 32-bit index fields.
pub const NONE32: u32 = u32::MAX;
/// "No island" in 16-bit fields.
pub const NONE16: u16 = u16::MAX;
/// "No node / no path" in path tables.
pub const NO_NODE: u8 = 0xFF;

/// Triangle flag bits.
pub mod flags {
    pub const WALKABLE: u16 = 0x01;
    pub const CLOCKWISE: u16 = 0x04;
    /// Footstep sound bits 0x08–0x2000.
    pub const FOOTSTEPS: u16 = 0x3FF8;
}

/// The version this crate writes.
pub const WRITE_VERSION: u32 = 0x6c;

/// Twice the signed XY area under which a triangle counts as vertical or degenerate: its
/// winding seen from above is meaningless (the writer and the validator use this one bound).
pub const WINDING_EPSILON: f64 = 1e-6;

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Edge {
    pub vertices: [u32; 2],
    pub triangles: [u32; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Triangle {
    pub vertices: [u32; 3],
    pub edges: [u32; 3],
    pub neighbours: [u32; 3],
    pub centre: [f32; 2],
    pub normal: [f32; 3],
    pub d: f32,
    pub island: u16,
    pub flags: u16,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Tile {
    pub name: [u8; 32],
    pub owns_data: u8,
    pub vertex_count: u32,
    pub edge_count: u32,
    pub triangle_count: u32,
    pub size: [f32; 2],
    pub triangles_offset: u32,
    /// Only when `owns_data` (never seen in real files).
    pub own_vertices: Vec<[f32; 3]>,
    pub own_edges: Vec<Edge>,
    pub table_flags: u32,
    pub rle_table_size: u32,
    pub local_to_node: Vec<u8>,
    pub node_to_local: Vec<u32>,
    pub nodes: Vec<u8>,
    pub flags: u32,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Island {
    pub index: u32,
    pub tile: u32,
    pub centre: [f32; 3],
    pub triangle_count: u32,
    pub adjacent: Vec<u32>,
    pub distances: Vec<f32>,
    pub exits: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct IslandPath {
    pub next: u16,
    pub padding: u16,
    pub weight: f32,
}

/// The inflated ASWM body.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Aswm {
    pub version: u32,
    pub name: [u8; 32],
    pub owns_data: u8,
    /// Last header word ("triangles_offset"/FaceOffset), always 0 in real files.
    pub header_offset: u32,
    pub vertices: Vec<[f32; 3]>,
    pub edges: Vec<Edge>,
    pub triangles: Vec<Triangle>,
    pub tiles_flags: u32,
    pub tile_width: f32,
    pub grid_height: u32,
    pub grid_width: u32,
    pub tiles: Vec<Tile>,
    pub border: u32,
    pub islands: Vec<Island>,
    pub island_paths: Vec<IslandPath>,
}

/// Where the blocks of a parsed body start (offsets in the inflated body), for dumps and
/// validator messages.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    pub vertices: u64,
    pub edges: u64,
    pub edge_size: u64,
    pub triangles: u64,
    pub triangle_size: u64,
    pub tiles_header: u64,
    pub tiles: Vec<u64>,
    pub border: u64,
    pub islands: Vec<u64>,
    pub island_paths: u64,
}

const HEADER_SIZE: usize = 53;

fn edge_size(version: u32) -> usize {
    if version == 0x69 { 52 } else { 16 }
}

fn triangle_size(version: u32) -> usize {
    match version {
        0x69 => 88,
        0x6a => 68,
        _ => 64,
    }
}

fn parse_edge(record: &[u8]) -> Edge {
    Edge {
        vertices: [le_u32(record, 0), le_u32(record, 4)],
        triangles: [le_u32(record, 8), le_u32(record, 12)],
    }
}

fn u32x3(record: &[u8], at: usize) -> [u32; 3] {
    [
        le_u32(record, at),
        le_u32(record, at + 4),
        le_u32(record, at + 8),
    ]
}

fn f32x3(record: &[u8], at: usize) -> [f32; 3] {
    [
        le_f32(record, at),
        le_f32(record, at + 4),
        le_f32(record, at + 8),
    ]
}

fn parse_triangle(record: &[u8], version: u32) -> Triangle {
    match version {
        0x69 => Triangle {
            flags: le_u32(record, 4) as u16,
            vertices: u32x3(record, 8),
            edges: u32x3(record, 20),
            neighbours: u32x3(record, 32),
            centre: [le_f32(record, 56), le_f32(record, 60)],
            normal: f32x3(record, 68),
            d: le_f32(record, 80),
            island: le_u16(record, 86),
        },
        _ => {
            let base = if version == 0x6a { 4 } else { 0 };
            Triangle {
                vertices: u32x3(record, base),
                edges: u32x3(record, base + 12),
                neighbours: u32x3(record, base + 24),
                centre: [le_f32(record, base + 36), le_f32(record, base + 40)],
                normal: f32x3(record, base + 44),
                d: le_f32(record, base + 56),
                island: le_u16(record, base + 60),
                flags: le_u16(record, base + 62),
            }
        }
    }
}

/// Parses an inflated body. Every count is checked against the remaining bytes before
/// anything is allocated; trailing bytes are an error (no reader accepts them).
pub fn parse(body: &[u8]) -> Result<(Aswm, Layout), ReadError> {
    parse_keeping(body, true)
}

/// [`parse`] for building the IR: the per-tile path tables, the islands' lists and the island
/// paths are checked exactly as [`parse`] checks them but not copied (left empty), since the
/// IR keeps none of them (megabytes on a large area).
pub fn parse_skeleton(body: &[u8]) -> Result<(Aswm, Layout), ReadError> {
    parse_keeping(body, false)
}

fn parse_keeping(body: &[u8], keep: bool) -> Result<(Aswm, Layout), ReadError> {
    let mut c = crate::bin::cursor(body, 0, "aswm.");
    let version = c.u32("header.version")?;
    if !(0x69..=0x6c).contains(&version) {
        return Err(ReadError::at_offset(
            0,
            "aswm.header.version",
            format!("ASWM version {version:#x} is not one of the known versions 0x69 to 0x6c"),
        ));
    }
    let name = bytes32(c.take(32, "header.name")?, 0);
    let owns_data = c.u8("header.owns_data")?;
    let vertex_count = c.u32("header.vertex_count")?;
    let edge_count = c.u32("header.edge_count")?;
    let triangle_count = c.u32("header.triangle_count")?;
    let header_offset = c.u32("header.triangles_offset")?;
    let mut layout = Layout {
        edge_size: edge_size(version) as u64,
        triangle_size: triangle_size(version) as u64,
        ..Layout::default()
    };
    if owns_data == 0 {
        return Err(c.error(
            "header.owns_data",
            "the walkmesh says it owns no data (owns_data = 0); no engine reads such a packet",
        ));
    }

    layout.vertices = c.pos() as u64;
    let block = c.array(u64::from(vertex_count), 12, "vertices")?;
    let vertices: Vec<[f32; 3]> = block.chunks_exact(12).map(|r| f32x3(r, 0)).collect();

    layout.edges = c.pos() as u64;
    let block = c.array(u64::from(edge_count), edge_size(version), "edges")?;
    let edges: Vec<Edge> = block
        .chunks_exact(edge_size(version))
        .map(parse_edge)
        .collect();

    layout.triangles = c.pos() as u64;
    let block = c.array(
        u64::from(triangle_count),
        triangle_size(version),
        "triangles",
    )?;
    let triangles: Vec<Triangle> = block
        .chunks_exact(triangle_size(version))
        .map(|r| parse_triangle(r, version))
        .collect();

    layout.tiles_header = c.pos() as u64;
    let tiles_flags = c.u32("tiles_flags")?;
    let tile_width = c.f32("tile_width")?;
    let grid_height = c.u32("grid_height")?;
    let grid_width = c.u32("grid_width")?;
    let tile_count = u64::from(grid_height) * u64::from(grid_width);
    // The smallest tile is 57 + 10 + 4 bytes; refuse grids the body cannot hold before
    // reserving room for them.
    let smallest = if version == 0x6c {
        57 + 13 + 4
    } else {
        57 + 10 + 4
    };
    if tile_count.saturating_mul(smallest) > c.remaining() as u64 {
        return Err(c.error(
            "grid_width",
            format!(
                "a {grid_width} x {grid_height} tile grid needs at least {} bytes but only {} remain",
                tile_count.saturating_mul(smallest),
                c.remaining()
            ),
        ).with_kind(walkmesh_core::ErrorKind::Truncated));
    }
    let mut tiles = Vec::with_capacity(tile_count as usize);
    for t in 0..tile_count {
        layout.tiles.push(c.pos() as u64);
        tiles.push(parse_tile(&mut c, version, t, keep)?);
    }
    layout.border = c.pos() as u64;
    let border = c.u32("border")?;
    let island_count = c.u32("island_count")?;
    // An island needs at least 36 bytes and one path-node row of 8·n bytes.
    if u64::from(island_count).saturating_mul(36) > c.remaining() as u64 {
        return Err(c.error(
            "island_count",
            format!(
                "{island_count} islands need at least {} bytes but only {} remain",
                u64::from(island_count) * 36,
                c.remaining()
            ),
        ));
    }
    let mut islands = Vec::with_capacity(island_count as usize);
    for i in 0..island_count {
        layout.islands.push(c.pos() as u64);
        islands.push(parse_island(&mut c, i, keep)?);
    }
    layout.island_paths = c.pos() as u64;
    let n = u64::from(island_count);
    let block = c.array(n * n, 8, "island_paths")?;
    let island_paths = block
        .get(..if keep { block.len() } else { 0 })
        .unwrap_or(&[])
        .chunks_exact(8)
        .map(|r| IslandPath {
            next: le_u16(r, 0),
            padding: le_u16(r, 2),
            weight: le_f32(r, 4),
        })
        .collect();
    if c.remaining() != 0 {
        return Err(c
            .error(
                "end",
                format!(
                    "{} bytes follow the island path table; the walkmesh body must end there",
                    c.remaining()
                ),
            )
            .with_kind(walkmesh_core::ErrorKind::Truncated));
    }
    Ok((
        Aswm {
            version,
            name,
            owns_data,
            header_offset,
            vertices,
            edges,
            triangles,
            tiles_flags,
            tile_width,
            grid_height,
            grid_width,
            tiles,
            border,
            islands,
            island_paths,
        },
        layout,
    ))
}

/// Field names are formatted only when something is wrong: a first pass reads without them
/// (thousands of tiles and islands would otherwise format a name per field), and a failure is
/// read again with names, which gives the same error at the same offset.
fn parse_tile(c: &mut Cursor<'_>, version: u32, t: u64, keep: bool) -> Result<Tile, ReadError> {
    let mut quick = c.clone();
    if let Ok(tile) = parse_tile_named(&mut quick, version, keep, &|_| String::new()) {
        *c = quick;
        return Ok(tile);
    }
    parse_tile_named(c, version, keep, &|name| format!("tiles[{t}].{name}"))
}

/// `block` copied when `keep`, else empty.
fn kept(block: &[u8], keep: bool) -> &[u8] {
    if keep { block } else { &[] }
}

fn parse_tile_named(
    c: &mut Cursor<'_>,
    version: u32,
    keep: bool,
    f: &dyn Fn(&str) -> String,
) -> Result<Tile, ReadError> {
    let name = bytes32(c.take(32, f("name"))?, 0);
    let owns_data = c.u8(f("owns_data"))?;
    let vertex_count = c.u32(f("vertex_count"))?;
    let edge_count = c.u32(f("edge_count"))?;
    let triangle_count = c.u32(f("triangle_count"))?;
    let size = [c.f32(f("size_x"))?, c.f32(f("size_y"))?];
    let triangles_offset = c.u32(f("triangles_offset"))?;
    let (mut own_vertices, mut own_edges) = (Vec::new(), Vec::new());
    if owns_data != 0 {
        let block = c.array(u64::from(vertex_count), 12, f("vertices"))?;
        own_vertices = block.chunks_exact(12).map(|r| f32x3(r, 0)).collect();
        let size = edge_size(version);
        let block = c.array(u64::from(edge_count), size, f("edges"))?;
        own_edges = block.chunks_exact(size).map(parse_edge).collect();
    }
    let table_flags = c.u32(f("path_table.flags"))?;
    let (ltn_len, ntl_len, rle_table_size) = if version == 0x6c {
        (
            c.u32(f("path_table.local_to_node_length"))?,
            c.u8(f("path_table.node_to_local_length"))?,
            c.u32(f("path_table.rle_table_size"))?,
        )
    } else {
        (
            u32::from(c.u8(f("path_table.local_to_node_length"))?),
            c.u8(f("path_table.node_to_local_length"))?,
            c.u32(f("path_table.rle_table_size"))?,
        )
    };
    if table_flags & 0x03 != 0 {
        return Err(c.error(
            f("path_table.flags"),
            format!(
                "path table flags {table_flags:#x} ask for RLE or zlib-compressed tables, which no known reader supports"
            ),
        ));
    }
    let local_to_node = c
        .array(u64::from(ltn_len), 1, f("path_table.local_to_node"))
        .map(|block| kept(block, keep).to_vec())?;
    let n = u64::from(ntl_len);
    let node_to_local = match version {
        0x6c => kept(c.array(n, 4, f("path_table.node_to_local"))?, keep)
            .chunks_exact(4)
            .map(|r| le_u32(r, 0))
            .collect(),
        0x6b => kept(c.array(n, 1, f("path_table.node_to_local"))?, keep)
            .iter()
            .map(|&b| u32::from(b))
            .collect(),
        _ => Vec::new(),
    };
    let nodes = kept(c.array(n * n, 1, f("path_table.nodes"))?, keep).to_vec();
    let flags = c.u32(f("flags"))?;
    Ok(Tile {
        name,
        owns_data,
        vertex_count,
        edge_count,
        triangle_count,
        size,
        triangles_offset,
        own_vertices,
        own_edges,
        table_flags,
        rle_table_size,
        local_to_node,
        node_to_local,
        nodes,
        flags,
    })
}

/// Names formatted only on failure, as in [`parse_tile`].
fn parse_island(c: &mut Cursor<'_>, i: u32, keep: bool) -> Result<Island, ReadError> {
    let mut quick = c.clone();
    if let Ok(island) = parse_island_named(&mut quick, keep, &|_| String::new()) {
        *c = quick;
        return Ok(island);
    }
    parse_island_named(c, keep, &|name| format!("islands[{i}].{name}"))
}

fn parse_island_named(
    c: &mut Cursor<'_>,
    keep: bool,
    f: &dyn Fn(&str) -> String,
) -> Result<Island, ReadError> {
    let index = c.u32(f("index"))?;
    let tile = c.u32(f("tile"))?;
    let centre = f32x3(c.take(12, f("centre"))?, 0);
    let triangle_count = c.u32(f("triangle_count"))?;
    let n = c.u32(f("adjacent_count"))?;
    let adjacent = kept(c.array(u64::from(n), 4, f("adjacent"))?, keep)
        .chunks_exact(4)
        .map(|r| le_u32(r, 0))
        .collect();
    let n = c.u32(f("distance_count"))?;
    let distances = kept(c.array(u64::from(n), 4, f("distances"))?, keep)
        .chunks_exact(4)
        .map(|r| le_f32(r, 0))
        .collect();
    let n = c.u32(f("exit_count"))?;
    let exits = kept(c.array(u64::from(n), 4, f("exits"))?, keep)
        .chunks_exact(4)
        .map(|r| le_u32(r, 0))
        .collect();
    Ok(Island {
        index,
        tile,
        centre,
        triangle_count,
        adjacent,
        distances,
        exits,
    })
}

/// Serialises as version 0x6c (whatever `version` says; older layouts are read-only).
pub fn serialize(aswm: &Aswm) -> Vec<u8> {
    let mut o = Out::with_capacity(
        HEADER_SIZE
            + aswm.vertices.len() * 12
            + aswm.edges.len() * 16
            + aswm.triangles.len() * 64
            + aswm.tiles.len() * 80
            + aswm.island_paths.len() * 8,
    );
    put_head(
        &mut o,
        aswm,
        &aswm.vertices,
        &aswm.edges,
        aswm.triangles.len(),
    );
    put_triangles(&mut o, &aswm.triangles);
    put_tiles_header(&mut o, aswm);
    put_tile_records(&mut o, &aswm.tiles);
    put_islands(&mut o, aswm.border, &aswm.islands, &aswm.island_paths);
    o.bytes
}

/// The body in the pieces the bake produces one after the other (their concatenation is
/// [`serialize`]), so that compression can start before the path tables exist.
pub(crate) mod parts {
    use super::*;

    /// Header, vertices and edges. Only the header fields of `header` are used.
    pub(crate) fn head(
        header: &Aswm,
        vertices: &[[f32; 3]],
        edges: &[Edge],
        triangle_count: usize,
    ) -> Vec<u8> {
        let mut o = Out::with_capacity(HEADER_SIZE + vertices.len() * 12 + edges.len() * 16);
        put_head(&mut o, header, vertices, edges, triangle_count);
        o.bytes
    }

    pub(crate) fn triangles(triangles: &[Triangle]) -> Vec<u8> {
        let mut o = Out::with_capacity(triangles.len() * 64);
        put_triangles(&mut o, triangles);
        o.bytes
    }

    /// Tiles header (flags, width, grid). Only those fields of `header` are used.
    pub(crate) fn tiles_header(header: &Aswm) -> Vec<u8> {
        let mut o = Out::with_capacity(16);
        put_tiles_header(&mut o, header);
        o.bytes
    }

    /// Tile records (following the tiles header or each other).
    pub(crate) fn tile_records(tiles: &[Tile]) -> Vec<u8> {
        let tables: usize = tiles
            .iter()
            .map(|t| t.local_to_node.len() + 4 * t.node_to_local.len() + t.nodes.len())
            .sum();
        let mut o = Out::with_capacity(tiles.len() * 80 + tables);
        put_tile_records(&mut o, tiles);
        o.bytes
    }

    /// Border, islands and island paths.
    pub(crate) fn islands(border: u32, islands: &[Island], paths: &[IslandPath]) -> Vec<u8> {
        let mut o = Out::with_capacity(8 + islands.len() * 64 + paths.len() * 8);
        put_islands(&mut o, border, islands, paths);
        o.bytes
    }
}

fn put_head(
    o: &mut Out,
    header: &Aswm,
    vertices: &[[f32; 3]],
    edges: &[Edge],
    triangle_count: usize,
) {
    o.u32(WRITE_VERSION);
    o.raw(&header.name);
    o.u8(header.owns_data);
    o.u32(vertices.len() as u32);
    o.u32(edges.len() as u32);
    o.u32(triangle_count as u32);
    o.u32(header.header_offset);
    for v in vertices {
        v.iter().for_each(|&x| o.f32(x));
    }
    for e in edges {
        put_edge(o, e);
    }
}

fn put_triangles(o: &mut Out, triangles: &[Triangle]) {
    for t in triangles {
        t.vertices.iter().for_each(|&x| o.u32(x));
        t.edges.iter().for_each(|&x| o.u32(x));
        t.neighbours.iter().for_each(|&x| o.u32(x));
        t.centre.iter().for_each(|&x| o.f32(x));
        t.normal.iter().for_each(|&x| o.f32(x));
        o.f32(t.d);
        o.u16(t.island);
        o.u16(t.flags);
    }
}

fn put_tiles_header(o: &mut Out, header: &Aswm) {
    o.u32(header.tiles_flags);
    o.f32(header.tile_width);
    o.u32(header.grid_height);
    o.u32(header.grid_width);
}

fn put_tile_records(o: &mut Out, tiles: &[Tile]) {
    for tile in tiles {
        o.raw(&tile.name);
        o.u8(tile.owns_data);
        o.u32(tile.vertex_count);
        o.u32(tile.edge_count);
        o.u32(tile.triangle_count);
        o.f32(tile.size[0]);
        o.f32(tile.size[1]);
        o.u32(tile.triangles_offset);
        if tile.owns_data != 0 {
            for v in &tile.own_vertices {
                v.iter().for_each(|&x| o.f32(x));
            }
            for e in &tile.own_edges {
                put_edge(o, e);
            }
        }
        o.u32(tile.table_flags);
        o.u32(tile.local_to_node.len() as u32);
        o.u8(tile.node_to_local.len() as u8);
        o.u32(tile.rle_table_size);
        o.raw(&tile.local_to_node);
        tile.node_to_local.iter().for_each(|&x| o.u32(x));
        o.raw(&tile.nodes);
        o.u32(tile.flags);
    }
}

fn put_islands(o: &mut Out, border: u32, islands: &[Island], paths: &[IslandPath]) {
    o.u32(border);
    o.u32(islands.len() as u32);
    for island in islands {
        o.u32(island.index);
        o.u32(island.tile);
        island.centre.iter().for_each(|&x| o.f32(x));
        o.u32(island.triangle_count);
        o.u32(island.adjacent.len() as u32);
        island.adjacent.iter().for_each(|&x| o.u32(x));
        o.u32(island.distances.len() as u32);
        island.distances.iter().for_each(|&x| o.f32(x));
        o.u32(island.exits.len() as u32);
        island.exits.iter().for_each(|&x| o.u32(x));
    }
    for p in paths {
        o.u16(p.next);
        o.u16(p.padding);
        o.f32(p.weight);
    }
}

fn put_edge(o: &mut Out, e: &Edge) {
    e.vertices.iter().for_each(|&x| o.u32(x));
    e.triangles.iter().for_each(|&x| o.u32(x));
}

/// How the packet payload wrapped the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrapper {
    /// `COMP`, compressed size, uncompressed size, zlib stream.
    Comp { compressed: u32, uncompressed: u32 },
    /// The body itself (accepted like nwn-lib-d does).
    Raw,
}

/// An inflated body, how it was wrapped, and the zlib stream (when there was one). The body
/// is shared: the reader keeps it in the provenance without copying it.
pub type Unwrapped<'a> = (Arc<[u8]>, Wrapper, Option<&'a [u8]>);

/// The inflated body of an ASWM payload (at file offset `base`), and the zlib stream.
/// Decompression is capped by the stored size and by `max` (bytes).
pub fn unwrap_payload(payload: &[u8], base: u64, max: u64) -> Result<Unwrapped<'_>, ReadError> {
    unwrap_reusing(payload, base, max, None)
}

/// [`unwrap_payload`], taking `inflated` as the body instead of inflating the stream again
/// when it has the stored size: what this very payload inflated to when it was read (the
/// provenance keeps it), so that checking a file about to be copied costs no second inflate.
pub(crate) fn unwrap_reusing(
    payload: &[u8],
    base: u64,
    max: u64,
    inflated: Option<Arc<[u8]>>,
) -> Result<Unwrapped<'_>, ReadError> {
    if !payload.starts_with(b"COMP") {
        return Ok((Arc::from(payload), Wrapper::Raw, None));
    }
    let mut c = crate::bin::cursor(payload, base, "ASWM.");
    c.take(4, "comp.magic")?;
    let compressed = c.u32("comp.compressed_size")?;
    let uncompressed = c.u32("comp.uncompressed_size")?;
    if u64::from(uncompressed) > max {
        return Err(ReadError::at_offset(
            base + 8,
            "ASWM.comp.uncompressed_size",
            format!(
                "the walkmesh claims {uncompressed} bytes once inflated, more than the limit of {max} bytes"
            ),
        )
        .with_kind(walkmesh_core::ErrorKind::Limit));
    }
    let stream = c.array(u64::from(compressed), 1, "comp.stream")?;
    let wrapper = Wrapper::Comp {
        compressed,
        uncompressed,
    };
    if let Some(body) = inflated.filter(|body| body.len() as u64 == u64::from(uncompressed)) {
        return Ok((body, wrapper, Some(stream)));
    }
    if let Some(body) = inflate_exact(stream, uncompressed as usize) {
        return Ok((body, wrapper, Some(stream)));
    }
    // Anything unusual (a bad stream, a wrong size): inflated again the careful way, which
    // names the problem.
    let mut body = Vec::new();
    let mut decoder =
        flate2::read::ZlibDecoder::new(stream).take(u64::from(uncompressed).saturating_add(1));
    decoder.read_to_end(&mut body).map_err(|e| {
        ReadError::at_offset(
            base + 12,
            "ASWM.comp.stream",
            format!("the zlib stream cannot be inflated: {e}"),
        )
    })?;
    if body.len() as u64 != u64::from(uncompressed) {
        return Err(ReadError::at_offset(
            base + 8,
            "ASWM.comp.uncompressed_size",
            format!(
                "the header says {uncompressed} bytes once inflated but the stream gives {}{}",
                if body.len() as u64 > u64::from(uncompressed) {
                    "more"
                } else {
                    ""
                },
                if body.len() as u64 > u64::from(uncompressed) {
                    String::new()
                } else {
                    body.len().to_string()
                }
            ),
        ));
    }
    Ok((Arc::from(body), wrapper, Some(stream)))
}

/// The stream inflated into one buffer of exactly `size` bytes, when it is a complete zlib
/// stream of exactly that size; `None` otherwise. One allocation, no copy: `read_to_end` would
/// grow a vector several times and the provenance would copy it once more.
fn inflate_exact(stream: &[u8], size: usize) -> Option<Arc<[u8]>> {
    // Deflate expands at most about 1032:1; a claimed size beyond that is not allocated here.
    if size as u64
        > (stream.len() as u64)
            .saturating_mul(1032)
            .saturating_add(1024)
    {
        return None;
    }
    let mut body: Arc<[u8]> = std::iter::repeat_n(0u8, size).collect();
    let out = Arc::get_mut(&mut body)?;
    // libdeflate inflates into the whole buffer at once (the size is known), checking the
    // Adler-32; any failure, or a body shorter than stored, falls back to the careful path.
    let inflated = libdeflater::Decompressor::new()
        .zlib_decompress(stream, out)
        .ok()?;
    (inflated == size).then_some(body)
}

/// Wraps a body: `COMP`, sizes, zlib (default level 6, like the toolset's `78 9C`).
pub fn wrap(body: &[u8], stream: Option<&[u8]>) -> Vec<u8> {
    wrap_level(body, stream, 6)
}

/// [`wrap`] with a zlib level (0–9); `stream`, when given, is used as it is.
pub fn wrap_level(body: &[u8], stream: Option<&[u8]>, level: u32) -> Vec<u8> {
    let compressed = match stream {
        Some(s) => return wrap_stream(body.len(), s),
        None => crate::deflate::zlib(body, level),
    };
    wrap_stream(body.len(), &compressed)
}

/// `COMP`, the stream's size, the body's size, the zlib stream of a `body_length`-byte body.
pub fn wrap_stream(body_length: usize, stream: &[u8]) -> Vec<u8> {
    let mut o = Out::with_capacity(12 + stream.len());
    o.raw(b"COMP");
    o.u32(stream.len() as u32);
    o.u32(body_length as u32);
    o.raw(stream);
    o.bytes
}
