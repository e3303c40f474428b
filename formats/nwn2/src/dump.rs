//! `walkmesh dump` for TRN/TRX: every stored field with its byte offset. Container fields
//! carry file offsets; the fields of a `COMP`-wrapped walkmesh carry offsets inside the
//! inflated body (the group says so), since the zlib stream has no byte-aligned fields.

use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{ReadError, ReadOptions};

use crate::aswm::{Aswm, Layout, Wrapper};
use crate::container::fourcc_text;
use crate::file::{self, TrxFile};

fn uint(name: &str, offset: u64, size: u64, value: impl Into<u64>) -> DumpNode {
    DumpNode::field(name, offset, size, DumpValue::UInt(value.into()))
}

fn float(name: &str, offset: u64, value: f32) -> DumpNode {
    DumpNode::field(name, offset, 4, DumpValue::Float(f64::from(value)))
}

fn floats(name: &str, offset: u64, values: &[f32]) -> DumpNode {
    DumpNode::field(
        name,
        offset,
        4 * values.len() as u64,
        DumpValue::Floats(values.to_vec()),
    )
}

fn ints(name: &str, offset: u64, size: u64, values: impl IntoIterator<Item = i64>) -> DumpNode {
    DumpNode::field(
        name,
        offset,
        size,
        DumpValue::Ints(values.into_iter().collect()),
    )
}

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
            uint("version_major", 4, 2, c.major),
            uint("version_minor", 6, 2, c.minor),
            uint("packet_count", 8, 4, c.packets.len() as u64),
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
                    uint("offset", at + 4, 4, p.offset),
                ],
            )
        })
        .collect();
    children.push(DumpNode::group("directory", Some(12), directory));
    for (i, p) in c.packets.iter().enumerate() {
        let at = u64::from(p.offset);
        let mut fields = vec![
            text("fourcc", at, 4, &p.fourcc),
            uint("size", at + 4, 4, p.payload.len() as u64),
        ];
        let base = p.payload_offset;
        match &p.fourcc {
            b"TRWH" => {
                if let Some((_, trwh)) = &file.trwh {
                    fields.push(uint("width", base, 4, trwh.width));
                    fields.push(uint("height", base + 4, 4, trwh.height));
                    fields.push(uint("id", base + 8, 4, trwh.id));
                }
            }
            b"ASWM" if i == file.aswm_index => {
                if let Wrapper::Comp {
                    compressed,
                    uncompressed,
                } = file.wrapper
                {
                    fields.push(text("comp.magic", base, 4, b"COMP"));
                    fields.push(uint("comp.compressed_size", base + 4, 4, compressed));
                    fields.push(uint("comp.uncompressed_size", base + 8, 4, uncompressed));
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
            uint("version", base, 4, a.version),
            text("name", base + 4, 32, &a.name),
            uint("owns_data", base + 36, 1, a.owns_data),
            uint("vertex_count", base + 37, 4, a.vertices.len() as u64),
            uint("edge_count", base + 41, 4, a.edges.len() as u64),
            uint("triangle_count", base + 45, 4, a.triangles.len() as u64),
            uint("triangles_offset", base + 49, 4, a.header_offset),
        ],
    )];
    let vstart = base + l.vertices;
    out.push(DumpNode::group(
        "vertices",
        Some(vstart),
        a.vertices
            .iter()
            .enumerate()
            .map(|(i, v)| floats(&format!("vertices[{i}]"), vstart + 12 * i as u64, v))
            .collect(),
    ));
    let estart = base + l.edges;
    out.push(DumpNode::group(
        "edges",
        Some(estart),
        a.edges
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let at = estart + l.edge_size * i as u64;
                DumpNode::group(
                    format!("edges[{i}]"),
                    Some(at),
                    vec![
                        ints("vertices", at, 8, e.vertices.map(i64::from)),
                        ints(
                            "triangles",
                            at + 8,
                            8,
                            e.triangles.map(|t| i64::from(t as i32)),
                        ),
                    ],
                )
            })
            .collect(),
    ));
    // Field offsets inside a triangle record, by version.
    let (v, e, n, c, nm, d, isl, fl, fl_size) = match a.version {
        0x69 => (8, 20, 32, 56, 68, 80, 86, 4, 4),
        0x6a => (4, 16, 28, 40, 48, 60, 64, 66, 2),
        _ => (0, 12, 24, 36, 44, 56, 60, 62, 2),
    };
    let tstart = base + l.triangles;
    out.push(DumpNode::group(
        "triangles",
        Some(tstart),
        a.triangles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let at = tstart + l.triangle_size * i as u64;
                DumpNode::group(
                    format!("triangles[{i}]"),
                    Some(at),
                    vec![
                        ints("vertices", at + v, 12, t.vertices.map(i64::from)),
                        ints(
                            "linked_edges",
                            at + e,
                            12,
                            t.edges.map(|x| i64::from(x as i32)),
                        ),
                        ints(
                            "linked_triangles",
                            at + n,
                            12,
                            t.neighbours.map(|x| i64::from(x as i32)),
                        ),
                        floats("centre", at + c, &t.centre),
                        floats("normal", at + nm, &t.normal),
                        float("d", at + d, t.d),
                        uint("island", at + isl, 2, t.island),
                        uint("flags", at + fl, fl_size, t.flags),
                    ],
                )
            })
            .collect(),
    ));
    let h = base + l.tiles_header;
    out.push(DumpNode::group(
        "tiles_header",
        Some(h),
        vec![
            uint("tiles_flags", h, 4, a.tiles_flags),
            float("tile_width", h + 4, a.tile_width),
            uint("grid_height", h + 8, 4, a.grid_height),
            uint("grid_width", h + 12, 4, a.grid_width),
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
                uint("owns_data", at + 32, 1, t.owns_data),
                uint("vertex_count", at + 33, 4, t.vertex_count),
                uint("edge_count", at + 37, 4, t.edge_count),
                uint("triangle_count", at + 41, 4, t.triangle_count),
                float("size_x", at + 45, t.size[0]),
                float("size_y", at + 49, t.size[1]),
                uint("triangles_offset", at + 53, 4, t.triangles_offset),
            ];
            let mut p = at + 57;
            if t.owns_data != 0 {
                let vs = 12 * t.own_vertices.len() as u64;
                f.push(floats(
                    "vertices",
                    p,
                    &t.own_vertices.iter().flatten().copied().collect::<Vec<_>>(),
                ));
                p += vs;
                let es = l.edge_size * t.own_edges.len() as u64;
                f.push(ints(
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
            f.push(uint("path_table.flags", p, 4, t.table_flags));
            p += 4;
            let ltn_size = if wide { 4 } else { 1 };
            f.push(uint(
                "path_table.local_to_node_length",
                p,
                ltn_size,
                t.local_to_node.len() as u64,
            ));
            p += ltn_size;
            let nodes = (t.nodes.len() as f64).sqrt() as u64;
            f.push(uint("path_table.node_to_local_length", p, 1, nodes));
            p += 1;
            f.push(uint("path_table.rle_table_size", p, 4, t.rle_table_size));
            p += 4;
            let ltn = t.local_to_node.len() as u64;
            f.push(ints(
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
            f.push(ints(
                "path_table.node_to_local",
                p,
                ntl_size,
                t.node_to_local.iter().map(|&x| i64::from(x)),
            ));
            p += ntl_size;
            f.push(ints(
                "path_table.nodes",
                p,
                t.nodes.len() as u64,
                t.nodes.iter().map(|&x| i64::from(x)),
            ));
            p += t.nodes.len() as u64;
            f.push(uint("flags", p, 4, t.flags));
            DumpNode::group(format!("tiles[{i}]"), Some(at), f)
        })
        .collect();
    out.push(DumpNode::group("tiles", Some(h + 16), tiles));
    let b = base + l.border;
    out.push(uint("border", b, 4, a.border));
    out.push(uint("island_count", b + 4, 4, a.islands.len() as u64));
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
                    uint("index", at, 4, isl.index),
                    uint("tile", at + 4, 4, isl.tile),
                    floats("centre", at + 8, &isl.centre),
                    uint("triangle_count", at + 20, 4, isl.triangle_count),
                    uint("adjacent_count", at + 24, 4, k),
                    ints(
                        "adjacent",
                        adj,
                        4 * k,
                        isl.adjacent.iter().map(|&x| i64::from(x)),
                    ),
                    uint("distance_count", dist - 4, 4, isl.distances.len() as u64),
                    floats("distances", dist, &isl.distances),
                    uint("exit_count", exits - 4, 4, isl.exits.len() as u64),
                    ints(
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
                        uint("next", at, 2, x.next),
                        uint("padding", at + 2, 2, x.padding),
                        float("weight", at + 4, x.weight),
                    ],
                )
            })
            .collect(),
    ));
    DumpNode::group("body", Some(base), out)
}
