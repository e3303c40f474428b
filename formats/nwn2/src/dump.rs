//! `walkmesh dump` for TRN/TRX: every stored field with its byte offset. Container fields
//! carry file offsets; the fields of a `COMP`-wrapped walkmesh carry offsets inside the
//! inflated body (the group says so), since the zlib stream has no byte-aligned fields.
//!
//! Sections (for `walkmesh dump --section`/`--extract`): `header`, `directory`, one per packet
//! (named by its fourcc in lower case, numbered when the file has several: `trrn[3]`), the
//! inflated walkmesh `aswm-body` and its parts `aswm.header`, `aswm.vertices`, `aswm.edges`,
//! `aswm.triangles`, `aswm.tiles_header`, `aswm.tiles`, `aswm.islands`, `aswm.island_paths`,
//! and `unclaimed` (bytes no packet covers).

use std::collections::HashMap;
use std::fmt;

use walkmesh_core::dump::{DumpNode, Elem, Emitter, Entry, FieldSink, Label, Space, TreeSink};
use walkmesh_core::{MaterialProfile, ReadError, ReadOptions};

use crate::aswm::{Aswm, Layout, NONE16, NONE32, Wrapper, flags};
use crate::container::fourcc_text;
use crate::file::{self, TrxFile};

/// Characters with anything unprintable as `.` (the tree's value; the flat dump shows the
/// bytes).
fn shown(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                char::from(b)
            } else {
                '.'
            }
        })
        .collect()
}

fn text(e: &mut Emitter<'_, '_>, name: &str, offset: u64, size: u64, bytes: &[u8]) {
    e.chars(name, offset, size, shown(bytes));
}

/// Dumps a file's bytes as a tree.
pub fn dump_bytes(bytes: &[u8], options: &ReadOptions) -> Result<DumpNode, ReadError> {
    let mut tree = TreeSink::new();
    dump_fields(bytes, options, &mut tree)?;
    Ok(tree.finish())
}

/// Reports every field of a file's bytes to `sink`.
pub fn dump_fields(
    bytes: &[u8],
    options: &ReadOptions,
    sink: &mut dyn FieldSink,
) -> Result<(), ReadError> {
    let parsed = file::parse(bytes, options.max_decompressed)?;
    let profile = crate::read::profile(options.materials.as_ref());
    dump_file(&parsed, bytes, &profile, sink);
    Ok(())
}

/// Section names of the packets: the fourcc in lower case, numbered when it occurs more than
/// once.
fn packet_sections(file: &TrxFile<'_>) -> Vec<String> {
    let mut totals: HashMap<[u8; 4], usize> = HashMap::new();
    for p in &file.container.packets {
        *totals.entry(p.fourcc).or_default() += 1;
    }
    let mut seen: HashMap<[u8; 4], usize> = HashMap::new();
    file.container
        .packets
        .iter()
        .map(|p| {
            let name: String = p
                .fourcc
                .iter()
                .map(|&b| {
                    if b.is_ascii_alphanumeric() {
                        char::from(b.to_ascii_lowercase())
                    } else {
                        '_'
                    }
                })
                .collect();
            if totals.get(&p.fourcc).copied().unwrap_or(0) > 1 {
                let k = seen.entry(p.fourcc).or_default();
                let numbered = format!("{name}[{k}]");
                *k += 1;
                numbered
            } else {
                name
            }
        })
        .collect()
}

/// Reports a parsed file (`bytes` is the file it was parsed from).
pub fn dump_file(
    file: &TrxFile<'_>,
    bytes: &[u8],
    profile: &MaterialProfile,
    sink: &mut dyn FieldSink,
) {
    let c = &file.container;
    let sections = packet_sections(file);
    let mut e = Emitter::new(sink, bytes);
    e.root("trx", |e| {
        e.comment("NWN2 terrain container, little-endian");
        e.section(
            "header",
            Some("header".into()),
            Some(0),
            Some((0, 12)),
            Space::File,
            |e| {
                text(e, "magic", 0, 4, b"NWN2");
                e.uint("version_major", 4, 2, c.major);
                e.uint("version_minor", 6, 2, c.minor);
                e.uint("packet_count", 8, 4, c.packets.len() as u64);
            },
        );
        let directory_size = 8 * c.packets.len() as u64;
        let span = Some((12, directory_size));
        e.section(
            "directory",
            Some("directory".into()),
            Some(12),
            span,
            Space::File,
            |e| {
                for (i, p) in c.packets.iter().enumerate() {
                    let at = 12 + 8 * i as u64;
                    e.group(Label::Indexed("directory", i as u64), Some(at), |e| {
                        text(e, "fourcc", at, 4, &p.fourcc);
                        e.uint("offset", at + 4, 4, p.offset);
                    });
                }
            },
        );
        // Undecoded payloads are shown in hex once per byte of the file: packets that overlap
        // (a crafted directory) would otherwise multiply the output.
        let mut hex_budget = bytes.len() as u64;
        for (i, p) in c.packets.iter().enumerate() {
            let at = u64::from(p.offset);
            let len = p.payload.len() as u64;
            let label = format!("packets[{i}] {}", fourcc_text(p.fourcc));
            let name = sections.get(i).map_or("packet", String::as_str);
            let span = Some((at, 8 + len));
            e.section(
                name,
                Some((&label).into()),
                Some(at),
                span,
                Space::File,
                |e| {
                    text(e, "fourcc", at, 4, &p.fourcc);
                    e.uint("size", at + 4, 4, len);
                    let base = p.payload_offset;
                    match &p.fourcc {
                        b"TRWH" => {
                            if let Some((_, trwh)) = &file.trwh {
                                e.uint("width", base, 4, trwh.width);
                                e.uint("height", base + 4, 4, trwh.height);
                                e.uint("id", base + 8, 4, trwh.id);
                            }
                        }
                        b"ASWM" if i == file.aswm_index => {
                            aswm_packet(e, file, name, base, len, profile)
                        }
                        _ if len <= hex_budget => {
                            hex_budget -= len;
                            let label = Label::Described("payload", "kept as opaque bytes");
                            e.opaque(label, base, len, None, true);
                        }
                        _ => {
                            // Shown as one line; the bytes are those of packets shown before.
                            e.entry(&Entry {
                                label: Some(Label::Described("payload", "kept as opaque bytes")),
                                offset: Some(base),
                                size: Some(len),
                                elem: Elem::U8,
                                raw: e.raw(base, len),
                                value: None,
                                note: Some(&"overlaps bytes shown before; not shown again"),
                                section: None,
                                in_tree: true,
                            });
                        }
                    }
                },
            );
        }
        let mut claimed = vec![(0, 12 + directory_size)];
        claimed.extend(
            c.packets
                .iter()
                .map(|p| (u64::from(p.offset), 8 + p.payload.len() as u64)),
        );
        e.unclaimed(&mut claimed, bytes.len() as u64);
    });
}

/// The ASWM packet: the `COMP` wrapper (when there is one) and the walkmesh body.
fn aswm_packet(
    e: &mut Emitter<'_, '_>,
    file: &TrxFile<'_>,
    section: &str,
    base: u64,
    len: u64,
    profile: &MaterialProfile,
) {
    let body: &[u8] = &file.body;
    if let Wrapper::Comp {
        compressed,
        uncompressed,
    } = file.wrapper
    {
        text(e, "comp.magic", base, 4, b"COMP");
        e.uint("comp.compressed_size", base + 4, 4, compressed);
        e.uint("comp.uncompressed_size", base + 8, 4, uncompressed);
        let stream_at = base + 12;
        let note = format!(
            "inflates to the {} bytes of section aswm-body (walkmesh dump --extract aswm-body)",
            body.len()
        );
        e.entry(&Entry {
            label: Some(Label::Name("comp.zlib_stream")),
            offset: Some(stream_at),
            size: Some(u64::from(compressed)),
            elem: Elem::Zlib,
            raw: e.raw(stream_at, u64::from(compressed)),
            value: None,
            note: Some(&note),
            section: None,
            in_tree: true,
        });
        let after = 12 + u64::from(compressed);
        if len > after {
            // Bytes of the payload after the stream: ignored by every reader.
            e.opaque("comp.trailing", base + after, len - after, None, false);
        }
        e.with_bytes(body, 0, |e| {
            let label = Label::Described("body", "offsets inside the inflated walkmesh");
            let span = Some((0, body.len() as u64));
            let space = Space::Section("aswm-body");
            e.section("aswm-body", Some(label), Some(0), span, space, |e| {
                e.comment("the inflated ASWM walkmesh: offsets count from its first byte");
                aswm_body(e, &file.aswm, &file.layout, 0, section, space, profile);
            });
        });
    } else {
        e.with_bytes(body, base, |e| {
            let label = Label::Described("body", "stored uncompressed");
            let span = Some((base, body.len() as u64));
            e.section(
                "aswm-body",
                Some(label),
                Some(base),
                span,
                Space::File,
                |e| {
                    aswm_body(
                        e,
                        &file.aswm,
                        &file.layout,
                        base,
                        section,
                        Space::File,
                        profile,
                    );
                },
            );
        });
    }
}

/// Triangle or edge links: `triangle 3`, `none`.
struct Links<'a>(&'a str, &'a [u32]);

impl fmt::Display for Links<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &link) in self.1.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if link == NONE32 {
                f.write_str("none")?;
            } else {
                write!(f, "{} {link}", self.0)?;
            }
        }
        Ok(())
    }
}

/// A triangle's flags: walkability, winding and the footstep material through the profile.
struct TriangleFlags<'a>(&'a MaterialProfile, u16);

impl fmt::Display for TriangleFlags<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags = self.1;
        f.write_str(if flags & flags::WALKABLE != 0 {
            "walkable"
        } else {
            "not walkable"
        })?;
        if flags & flags::CLOCKWISE != 0 {
            f.write_str(", clockwise")?;
        }
        let code = u32::from(flags & flags::FOOTSTEPS);
        match self.0.surface_for_code(code) {
            Some(surface) => write!(f, ", {} (footsteps {code:#x})", surface.material.name())?,
            None => write!(
                f,
                ", footsteps {code:#x} not in the {} profile",
                self.0.engine
            )?,
        }
        let other = flags & !(flags::WALKABLE | flags::CLOCKWISE | flags::FOOTSTEPS);
        if other != 0 {
            write!(f, ", other bits {other:#x}")?;
        }
        Ok(())
    }
}

/// The fields of the walkmesh body; offsets are `base` + the offset inside the body.
#[allow(clippy::too_many_arguments)]
fn aswm_body(
    e: &mut Emitter<'_, '_>,
    a: &Aswm,
    l: &Layout,
    base: u64,
    prefix: &str,
    space: Space<'_>,
    profile: &MaterialProfile,
) {
    let name = |part: &str| format!("{prefix}.{part}");
    let span = |start: u64, end: u64| Some((start, end.saturating_sub(start)));
    e.section(
        &name("header"),
        Some("header".into()),
        Some(base),
        Some((base, 53)),
        space,
        |e| {
            e.uint("version", base, 4, a.version);
            text(e, "name", base + 4, 32, &a.name);
            e.uint("owns_data", base + 36, 1, a.owns_data);
            e.uint("vertex_count", base + 37, 4, a.vertices.len() as u64);
            e.uint("edge_count", base + 41, 4, a.edges.len() as u64);
            e.uint("triangle_count", base + 45, 4, a.triangles.len() as u64);
            e.uint("triangles_offset", base + 49, 4, a.header_offset);
        },
    );
    let vstart = base + l.vertices;
    let estart = base + l.edges;
    let tstart = base + l.triangles;
    let h = base + l.tiles_header;
    let b = base + l.border;
    let p = base + l.island_paths;
    // The body ends with the island paths (the parser checks it).
    let body_end = p + 8 * a.island_paths.len() as u64;
    e.section(
        &name("vertices"),
        Some("vertices".into()),
        Some(vstart),
        span(vstart, estart),
        space,
        |e| {
            for (i, v) in a.vertices.iter().enumerate() {
                e.floats(
                    Label::Indexed("vertices", i as u64),
                    vstart + 12 * i as u64,
                    v,
                );
            }
        },
    );
    e.section(
        &name("edges"),
        None,
        None,
        span(estart, tstart),
        space,
        |e| {
            e.table("edges", estart, l.edge_size, &a.edges, |e, at, edge| {
                e.ints(
                    "vertices",
                    at,
                    8,
                    Elem::U32,
                    edge.vertices.map(i64::from),
                    None,
                );
                let note = Links("triangle", &edge.triangles);
                let triangles = edge.triangles.map(|t| i64::from(t as i32));
                e.ints("triangles", at + 8, 8, Elem::I32, triangles, Some(&note));
            });
        },
    );
    // Field offsets inside a triangle record, by version.
    let (v, ed, n, c, nm, d, isl, fl, fl_size) = match a.version {
        0x69 => (8, 20, 32, 56, 68, 80, 86, 4, 4),
        0x6a => (4, 16, 28, 40, 48, 60, 64, 66, 2),
        _ => (0, 12, 24, 36, 44, 56, 60, 62, 2),
    };
    e.section(
        &name("triangles"),
        None,
        None,
        span(tstart, h),
        space,
        |e| {
            e.table(
                "triangles",
                tstart,
                l.triangle_size,
                &a.triangles,
                |e, at, t| {
                    e.ints(
                        "vertices",
                        at + v,
                        12,
                        Elem::U32,
                        t.vertices.map(i64::from),
                        None,
                    );
                    let edges = t.edges.map(|x| i64::from(x as i32));
                    let note = Links("edge", &t.edges);
                    e.ints("linked_edges", at + ed, 12, Elem::I32, edges, Some(&note));
                    let neighbours = t.neighbours.map(|x| i64::from(x as i32));
                    let note = Links("triangle", &t.neighbours);
                    e.ints(
                        "linked_triangles",
                        at + n,
                        12,
                        Elem::I32,
                        neighbours,
                        Some(&note),
                    );
                    e.floats("centre", at + c, &t.centre);
                    e.floats("normal", at + nm, &t.normal);
                    e.float("d", at + d, t.d);
                    if t.island == NONE16 {
                        e.uint_noted("island", at + isl, 2, t.island, &"none");
                    } else {
                        e.uint("island", at + isl, 2, t.island);
                    }
                    e.uint_noted(
                        "flags",
                        at + fl,
                        fl_size,
                        t.flags,
                        &TriangleFlags(profile, t.flags),
                    );
                },
            );
        },
    );
    e.section(
        &name("tiles_header"),
        Some("tiles_header".into()),
        Some(h),
        Some((h, 16)),
        space,
        |e| {
            e.uint("tiles_flags", h, 4, a.tiles_flags);
            e.float("tile_width", h + 4, a.tile_width);
            e.uint("grid_height", h + 8, 4, a.grid_height);
            e.uint("grid_width", h + 12, 4, a.grid_width);
        },
    );
    let wide = a.version == 0x6c;
    e.section(
        &name("tiles"),
        Some("tiles".into()),
        Some(h + 16),
        span(h + 16, b),
        space,
        |e| {
            for (i, (t, &start)) in a.tiles.iter().zip(&l.tiles).enumerate() {
                let at = base + start;
                e.group(Label::Indexed("tiles", i as u64), Some(at), |e| {
                    tile(e, t, at, l.edge_size, wide, a.version);
                });
            }
        },
    );
    e.uint("border", b, 4, a.border);
    e.uint("island_count", b + 4, 4, a.islands.len() as u64);
    e.section(
        &name("islands"),
        Some("islands".into()),
        Some(b + 8),
        span(b + 8, p),
        space,
        |e| {
            for (i, (isl, &start)) in a.islands.iter().zip(&l.islands).enumerate() {
                let at = base + start;
                e.group(Label::Indexed("islands", i as u64), Some(at), |e| {
                    island(e, isl, at);
                });
            }
        },
    );
    e.section(
        &name("island_paths"),
        Some("island_paths".into()),
        Some(p),
        span(p, body_end),
        space,
        |e| {
            for (i, x) in a.island_paths.iter().enumerate() {
                let at = p + 8 * i as u64;
                e.group(Label::Indexed("island_paths", i as u64), Some(at), |e| {
                    if x.next == NONE16 {
                        e.uint_noted("next", at, 2, x.next, &"none");
                    } else {
                        e.uint("next", at, 2, x.next);
                    }
                    e.uint("padding", at + 2, 2, x.padding);
                    e.float("weight", at + 4, x.weight);
                });
            }
        },
    );
}

fn tile(
    e: &mut Emitter<'_, '_>,
    t: &crate::aswm::Tile,
    at: u64,
    edge_size: u64,
    wide: bool,
    version: u32,
) {
    text(e, "name", at, 32, &t.name);
    e.uint("owns_data", at + 32, 1, t.owns_data);
    e.uint("vertex_count", at + 33, 4, t.vertex_count);
    e.uint("edge_count", at + 37, 4, t.edge_count);
    e.uint("triangle_count", at + 41, 4, t.triangle_count);
    e.float("size_x", at + 45, t.size[0]);
    e.float("size_y", at + 49, t.size[1]);
    e.uint("triangles_offset", at + 53, 4, t.triangles_offset);
    let mut p = at + 57;
    if t.owns_data != 0 {
        let vs = 12 * t.own_vertices.len() as u64;
        let flat: Vec<f32> = t.own_vertices.iter().flatten().copied().collect();
        e.floats("vertices", p, &flat);
        p += vs;
        let es = edge_size * t.own_edges.len() as u64;
        let values = t
            .own_edges
            .iter()
            .flat_map(|e| [e.vertices[0], e.vertices[1], e.triangles[0], e.triangles[1]])
            .map(|x| i64::from(x as i32));
        e.ints("edges", p, es, Elem::I32, values, None);
        p += es;
    }
    e.uint("path_table.flags", p, 4, t.table_flags);
    p += 4;
    let ltn_size = if wide { 4 } else { 1 };
    e.uint(
        "path_table.local_to_node_length",
        p,
        ltn_size,
        t.local_to_node.len() as u64,
    );
    p += ltn_size;
    let nodes = (t.nodes.len() as f64).sqrt() as u64;
    e.uint("path_table.node_to_local_length", p, 1, nodes);
    p += 1;
    e.uint("path_table.rle_table_size", p, 4, t.rle_table_size);
    p += 4;
    let ltn = t.local_to_node.len() as u64;
    let values = t.local_to_node.iter().map(|&x| i64::from(x));
    e.ints("path_table.local_to_node", p, ltn, Elem::U8, values, None);
    p += ltn;
    let (ntl_elem, ntl_width) = match version {
        0x6c => (Elem::U32, 4),
        0x6b => (Elem::U8, 1),
        _ => (Elem::U8, 0),
    };
    let ntl_size = ntl_width * t.node_to_local.len() as u64;
    let values = t.node_to_local.iter().map(|&x| i64::from(x));
    e.ints(
        "path_table.node_to_local",
        p,
        ntl_size,
        ntl_elem,
        values,
        None,
    );
    p += ntl_size;
    // The node table is a square (nodes × nodes): one row per field, so that a reader sees
    // rows and the flat dump's lines stay short.
    let width = usize::try_from(nodes).unwrap_or(0).max(1);
    e.group("path_table.nodes", Some(p), |e| {
        for (r, row) in t.nodes.chunks(width).enumerate() {
            let at = p + (r * width) as u64;
            let values = row.iter().map(|&x| i64::from(x));
            let label = Label::Indexed("path_table.nodes", r as u64);
            e.ints(label, at, row.len() as u64, Elem::U8, values, None);
        }
    });
    p += t.nodes.len() as u64;
    e.uint("flags", p, 4, t.flags);
}

fn island(e: &mut Emitter<'_, '_>, isl: &crate::aswm::Island, at: u64) {
    let k = isl.adjacent.len() as u64;
    let adj = at + 28;
    let dist = adj + 4 * k + 4;
    let exits = dist + 4 * isl.distances.len() as u64 + 4;
    e.uint("index", at, 4, isl.index);
    e.uint("tile", at + 4, 4, isl.tile);
    e.floats("centre", at + 8, &isl.centre);
    e.uint("triangle_count", at + 20, 4, isl.triangle_count);
    e.uint("adjacent_count", at + 24, 4, k);
    let values = isl.adjacent.iter().map(|&x| i64::from(x));
    e.ints("adjacent", adj, 4 * k, Elem::U32, values, None);
    e.uint("distance_count", dist - 4, 4, isl.distances.len() as u64);
    e.floats("distances", dist, &isl.distances);
    e.uint("exit_count", exits - 4, 4, isl.exits.len() as u64);
    let values = isl.exits.iter().map(|&x| i64::from(x));
    let size = 4 * isl.exits.len() as u64;
    e.ints("exits", exits, size, Elem::U32, values, None);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_links_read_as_words() {
        let profile = crate::read::profile(None);
        assert_eq!(
            TriangleFlags(&profile, 0x01 | 0x04 | 0x20).to_string(),
            "walkable, clockwise, Stone (footsteps 0x20)"
        );
        assert_eq!(
            TriangleFlags(&profile, 0x8000).to_string(),
            "not walkable, NonWalk (footsteps 0x0), other bits 0x8000"
        );
        assert_eq!(
            TriangleFlags(&profile, 0x18).to_string(),
            "not walkable, footsteps 0x18 not in the nwn2 profile"
        );
        assert_eq!(
            Links("triangle", &[3, NONE32, 0]).to_string(),
            "triangle 3, none, triangle 0"
        );
    }
}
