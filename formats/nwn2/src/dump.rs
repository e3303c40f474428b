//! `walkmesh dump` for TRN/TRX: every stored field with its byte offset. Container fields
//! carry file offsets; the fields of a `COMP`-wrapped walkmesh carry offsets inside the
//! inflated body (the group says so), since the zlib stream has no byte-aligned fields.

use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{ReadError, ReadOptions};

use crate::aswm::{Aswm, Layout, Wrapper};
use crate::container::fourcc_text;
use crate::file::{self, TrxFile};

use DumpNode as F;

fn text(name: &str, offset: u64, size: u64, bytes: &[u8]) -> DumpNode {
    let shown: String = bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                char::from(b)
            } else {
                '.'
            }
        })
        .collect();
    DumpNode::field(name, offset, size, DumpValue::Text(shown))
}

/// Dumps a file's bytes.
pub fn dump_bytes(bytes: &[u8], options: &ReadOptions) -> Result<DumpNode, ReadError> {
    let parsed = file::parse(bytes, options.max_decompressed)?;
    Ok(dump_file(&parsed))
}

/// Dumps a parsed file.
pub fn dump_file(file: &TrxFile<'_>) -> DumpNode {
    let c = &file.container;
    let mut children = vec![DumpNode::group(
        "header",
        Some(0),
        vec![
            text("magic", 0, 4, b"NWN2"),
            F::uint("version_major", 4, 2, c.major),
            F::uint("version_minor", 6, 2, c.minor),
            F::uint("packet_count", 8, 4, c.packets.len() as u64),
        ],
    )];
    let directory = c
        .packets
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = 12 + 8 * i as u64;
            DumpNode::group(
                format!("directory[{i}]"),
                Some(at),
                vec![
                    text("fourcc", at, 4, &p.fourcc),
                    F::uint("offset", at + 4, 4, p.offset),
                ],
            )
        })
        .collect();
    children.push(DumpNode::group("directory", Some(12), directory));
    for (i, p) in c.packets.iter().enumerate() {
        let at = u64::from(p.offset);
        let mut fields = vec![
            text("fourcc", at, 4, &p.fourcc),
            F::uint("size", at + 4, 4, p.payload.len() as u64),
        ];
        let base = p.payload_offset;
        match &p.fourcc {
            b"TRWH" => {
                if let Some((_, trwh)) = &file.trwh {
                    fields.push(F::uint("width", base, 4, trwh.width));
                    fields.push(F::uint("height", base + 4, 4, trwh.height));
                    fields.push(F::uint("id", base + 8, 4, trwh.id));
                }
            }
            b"ASWM" if i == file.aswm_index => {
                if let Wrapper::Comp {
                    compressed,
                    uncompressed,
                } = file.wrapper
                {
                    fields.push(text("comp.magic", base, 4, b"COMP"));
                    fields.push(F::uint("comp.compressed_size", base + 4, 4, compressed));
                    fields.push(F::uint("comp.uncompressed_size", base + 8, 4, uncompressed));
                    fields.push(DumpNode {
                        name: "comp.zlib_stream".into(),
                        offset: Some(base + 12),
                        size: Some(u64::from(compressed)),
                        value: None,
                        children: Vec::new(),
                    });
                    let mut body = dump_aswm(&file.aswm, &file.layout, 0);
                    body.name = "body (offsets inside the inflated walkmesh)".into();
                    fields.push(body);
                } else {
                    let mut body = dump_aswm(&file.aswm, &file.layout, base);
                    body.name = "body (stored uncompressed)".into();
                    fields.push(body);
                }
            }
            _ => fields.push(DumpNode {
                name: "payload (kept as opaque bytes)".into(),
                offset: Some(base),
                size: Some(p.payload.len() as u64),
                value: None,
                children: Vec::new(),
            }),
        }
        children.push(DumpNode::group(
            format!("packets[{i}] {}", fourcc_text(p.fourcc)),
            Some(at),
            fields,
        ));
    }
    DumpNode::group("trx", Some(0), children)
}

fn dump_aswm(a: &Aswm, l: &Layout, base: u64) -> DumpNode {
    let mut out = vec![DumpNode::group(
        "header",
        Some(base),
        vec![
            F::uint("version", base, 4, a.version),
            text("name", base + 4, 32, &a.name),
            F::uint("owns_data", base + 36, 1, a.owns_data),
            F::uint("vertex_count", base + 37, 4, a.vertices.len() as u64),
            F::uint("edge_count", base + 41, 4, a.edges.len() as u64),
            F::uint("triangle_count", base + 45, 4, a.triangles.len() as u64),
            F::uint("triangles_offset", base + 49, 4, a.header_offset),
        ],
    )];
    let vstart = base + l.vertices;
    out.push(DumpNode::group(
        "vertices",
        Some(vstart),
        a.vertices
            .iter()
            .enumerate()
            .map(|(i, v)| F::floats(format!("vertices[{i}]"), vstart + 12 * i as u64, v))
            .collect(),
    ));
    let estart = base + l.edges;
    out.push(F::table("edges", estart, l.edge_size, &a.edges, |at, e| {
        vec![
            F::ints("vertices", at, 8, e.vertices.map(i64::from)),
            F::ints(
                "triangles",
                at + 8,
                8,
                e.triangles.map(|t| i64::from(t as i32)),
            ),
        ]
    }));
    // Field offsets inside a triangle record, by version.
    let (v, e, n, c, nm, d, isl, fl, fl_size) = match a.version {
        0x69 => (8, 20, 32, 56, 68, 80, 86, 4, 4),
        0x6a => (4, 16, 28, 40, 48, 60, 64, 66, 2),
        _ => (0, 12, 24, 36, 44, 56, 60, 62, 2),
    };
    let tstart = base + l.triangles;
    out.push(F::table(
        "triangles",
        tstart,
        l.triangle_size,
        &a.triangles,
        |at, t| {
            vec![
                F::ints("vertices", at + v, 12, t.vertices.map(i64::from)),
                F::ints(
                    "linked_edges",
                    at + e,
                    12,
                    t.edges.map(|x| i64::from(x as i32)),
                ),
                F::ints(
                    "linked_triangles",
                    at + n,
                    12,
                    t.neighbours.map(|x| i64::from(x as i32)),
                ),
                F::floats("centre", at + c, &t.centre),
                F::floats("normal", at + nm, &t.normal),
                F::float("d", at + d, t.d),
                F::uint("island", at + isl, 2, t.island),
                F::uint("flags", at + fl, fl_size, t.flags),
            ]
        },
    ));
    let h = base + l.tiles_header;
    out.push(DumpNode::group(
        "tiles_header",
        Some(h),
        vec![
            F::uint("tiles_flags", h, 4, a.tiles_flags),
            F::float("tile_width", h + 4, a.tile_width),
            F::uint("grid_height", h + 8, 4, a.grid_height),
            F::uint("grid_width", h + 12, 4, a.grid_width),
        ],
    ));
    let wide = a.version == 0x6c;
    let tiles = a
        .tiles
        .iter()
        .zip(&l.tiles)
        .enumerate()
        .map(|(i, (t, &start))| {
            let at = base + start;
            let mut f = vec![
                text("name", at, 32, &t.name),
                F::uint("owns_data", at + 32, 1, t.owns_data),
                F::uint("vertex_count", at + 33, 4, t.vertex_count),
                F::uint("edge_count", at + 37, 4, t.edge_count),
                F::uint("triangle_count", at + 41, 4, t.triangle_count),
                F::float("size_x", at + 45, t.size[0]),
                F::float("size_y", at + 49, t.size[1]),
                F::uint("triangles_offset", at + 53, 4, t.triangles_offset),
            ];
            let mut p = at + 57;
            if t.owns_data != 0 {
                let vs = 12 * t.own_vertices.len() as u64;
                f.push(F::floats(
                    "vertices",
                    p,
                    &t.own_vertices.iter().flatten().copied().collect::<Vec<_>>(),
                ));
                p += vs;
                let es = l.edge_size * t.own_edges.len() as u64;
                f.push(F::ints(
                    "edges",
                    p,
                    es,
                    t.own_edges
                        .iter()
                        .flat_map(|e| {
                            [e.vertices[0], e.vertices[1], e.triangles[0], e.triangles[1]]
                        })
                        .map(|x| i64::from(x as i32)),
                ));
                p += es;
            }
            f.push(F::uint("path_table.flags", p, 4, t.table_flags));
            p += 4;
            let ltn_size = if wide { 4 } else { 1 };
            f.push(F::uint(
                "path_table.local_to_node_length",
                p,
                ltn_size,
                t.local_to_node.len() as u64,
            ));
            p += ltn_size;
            let nodes = (t.nodes.len() as f64).sqrt() as u64;
            f.push(F::uint("path_table.node_to_local_length", p, 1, nodes));
            p += 1;
            f.push(F::uint("path_table.rle_table_size", p, 4, t.rle_table_size));
            p += 4;
            let ltn = t.local_to_node.len() as u64;
            f.push(F::ints(
                "path_table.local_to_node",
                p,
                ltn,
                t.local_to_node.iter().map(|&x| i64::from(x)),
            ));
            p += ltn;
            let ntl_size = match a.version {
                0x6c => 4,
                0x6b => 1,
                _ => 0,
            } * t.node_to_local.len() as u64;
            f.push(F::ints(
                "path_table.node_to_local",
                p,
                ntl_size,
                t.node_to_local.iter().map(|&x| i64::from(x)),
            ));
            p += ntl_size;
            f.push(F::ints(
                "path_table.nodes",
                p,
                t.nodes.len() as u64,
                t.nodes.iter().map(|&x| i64::from(x)),
            ));
            p += t.nodes.len() as u64;
            f.push(F::uint("flags", p, 4, t.flags));
            DumpNode::group(format!("tiles[{i}]"), Some(at), f)
        })
        .collect();
    out.push(DumpNode::group("tiles", Some(h + 16), tiles));
    let b = base + l.border;
    out.push(F::uint("border", b, 4, a.border));
    out.push(F::uint("island_count", b + 4, 4, a.islands.len() as u64));
    let islands = a
        .islands
        .iter()
        .zip(&l.islands)
        .enumerate()
        .map(|(i, (isl, &start))| {
            let at = base + start;
            let k = isl.adjacent.len() as u64;
            let adj = at + 28;
            let dist = adj + 4 * k + 4;
            let exits = dist + 4 * isl.distances.len() as u64 + 4;
            DumpNode::group(
                format!("islands[{i}]"),
                Some(at),
                vec![
                    F::uint("index", at, 4, isl.index),
                    F::uint("tile", at + 4, 4, isl.tile),
                    F::floats("centre", at + 8, &isl.centre),
                    F::uint("triangle_count", at + 20, 4, isl.triangle_count),
                    F::uint("adjacent_count", at + 24, 4, k),
                    F::ints(
                        "adjacent",
                        adj,
                        4 * k,
                        isl.adjacent.iter().map(|&x| i64::from(x)),
                    ),
                    F::uint("distance_count", dist - 4, 4, isl.distances.len() as u64),
                    F::floats("distances", dist, &isl.distances),
                    F::uint("exit_count", exits - 4, 4, isl.exits.len() as u64),
                    F::ints(
                        "exits",
                        exits,
                        4 * isl.exits.len() as u64,
                        isl.exits.iter().map(|&x| i64::from(x)),
                    ),
                ],
            )
        })
        .collect();
    out.push(DumpNode::group("islands", Some(b + 8), islands));
    let p = base + l.island_paths;
    out.push(DumpNode::group(
        "island_paths",
        Some(p),
        a.island_paths
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let at = p + 8 * i as u64;
                DumpNode::group(
                    format!("island_paths[{i}]"),
                    Some(at),
                    vec![
                        F::uint("next", at, 2, x.next),
                        F::uint("padding", at + 2, 2, x.padding),
                        F::float("weight", at + 4, x.weight),
                    ],
                )
            })
            .collect(),
    ));
    DumpNode::group("body", Some(base), out)
}
