//! `walkmesh dump` for PATH: every stored field with its byte offset and size.
//!
//! Sections (for `walkmesh dump --section`/`--extract`, each with its count word): `header`,
//! `nodes`, `links`, `regions`, `ground_bits`, `flyer_bits`, `reserved`, `octree_lookup`,
//! `octree`, `point_graph`, `trailing`.

use std::fmt;

use walkmesh_core::dump::{DumpValue, Elem, Emitter, FieldSink, Label, Space};
use walkmesh_core::{Input, MaterialProfile, ReadError, ReadOptions};

use crate::model::{
    LINK_SIZE, NO_CHILD, NODE_SIZE, OCTREE_NODE_SIZE, POINT_SIZE, PathFile, VERSION_MP2,
    region_size,
};
use crate::read::{profile_for, surface_for_mask};

/// Dumps PATH files.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathDumper;

impl walkmesh_core::format::Dumper for PathDumper {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        let file = PathFile::parse(input.bytes)?;
        let profile = profile_for(options.materials.as_ref());
        dump_fields(&file, input.bytes, &profile, sink);
        Ok(())
    }
}

fn words(e: &mut Emitter<'_, '_>, name: &str, offset: u64, values: &[u32]) {
    let size = 4 * values.len() as u64;
    let values = values.iter().map(|&w| i64::from(w));
    e.ints(name, offset, size, Elem::U32, values, None);
}

/// A region's locomotion type mask through the profile.
struct TypeMask<'a>(&'a MaterialProfile, u16);

impl fmt::Display for TypeMask<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let surface = surface_for_mask(self.0, self.1);
        write!(
            f,
            "{}, {}",
            surface.material.name(),
            if surface.walkable {
                "walkable"
            } else {
                "not walkable"
            }
        )
    }
}

/// The eight child slots of an octree node, one field each: a node index, or `none` (the
/// stored 0xffffffff) for an empty slot.
fn children(e: &mut Emitter<'_, '_>, at: u64, slots: &[u32]) {
    let none = DumpValue::Text("none".to_string());
    for (k, &child) in slots.iter().enumerate() {
        let label = Label::Indexed("children", k as u64);
        let offset = at + 4 * k as u64;
        if child == NO_CHILD {
            e.emit(label, offset, 4, Elem::U32, &none, Some(&"no child"));
        } else {
            e.uint_noted(label, offset, 4, child, &format!("node {child}"));
        }
    }
}

/// A counted table: the section `name` holds the count word before it and the records.
fn counted(
    e: &mut Emitter<'_, '_>,
    name: &str,
    start: u64,
    bytes: u64,
    body: impl FnOnce(&mut Emitter<'_, '_>),
) {
    let span = Some((start.saturating_sub(4), 4 + bytes));
    e.section(name, None, None, span, Space::File, body);
}

/// Reports every field of a parsed file (`bytes`: the file it was parsed from).
pub fn dump_fields(
    file: &PathFile,
    bytes: &[u8],
    profile: &MaterialProfile,
    sink: &mut dyn FieldSink,
) {
    let layout = &file.layout;
    let mut e = Emitter::new(sink, bytes);
    e.root("path", |e| {
        e.comment("Metroid Prime PATH, big-endian");
        e.section("header", None, None, Some((0, 4)), Space::File, |e| {
            e.uint("version", 0, 4, u64::from(file.version));
        });
        let size = NODE_SIZE * file.nodes.len() as u64;
        counted(e, "nodes", layout.nodes, size, |e| {
            e.uint("node_count", 4, 4, file.nodes.len() as u64);
            e.table(
                "nodes",
                layout.nodes,
                NODE_SIZE,
                &file.nodes,
                |e, at, node| {
                    e.floats("position", at, &node.position);
                    e.floats("normal", at + 12, &node.normal);
                },
            );
        });
        let size = LINK_SIZE * file.links.len() as u64;
        counted(e, "links", layout.links, size, |e| {
            e.uint("link_count", layout.links - 4, 4, file.links.len() as u64);
            e.table(
                "links",
                layout.links,
                LINK_SIZE,
                &file.links,
                |e, at, link| {
                    e.uint("node", at, 4, link.node);
                    e.uint("region", at + 4, 4, link.region);
                    e.float("width_2d", at + 8, link.width);
                    e.float("inv_width_2d", at + 12, link.inv_width);
                },
            );
        });
        let record = region_size(file.version);
        let size = record * file.regions.len() as u64;
        counted(e, "regions", layout.regions, size, |e| {
            let count = file.regions.len() as u64;
            e.uint("region_count", layout.regions - 4, 4, count);
            e.table(
                "regions",
                layout.regions,
                record,
                &file.regions,
                |e, at, r| {
                    e.uint("node_count", at, 4, r.node_count);
                    e.uint("node_start", at + 4, 4, r.node_start);
                    e.uint("link_count", at + 8, 4, r.link_count);
                    e.uint("link_start", at + 12, 4, r.link_start);
                    e.uint("index_mask", at + 16, 2, r.index_mask);
                    let note = TypeMask(profile, r.type_mask);
                    e.uint_noted("type_mask", at + 18, 2, r.type_mask, &note);
                    e.float("height", at + 20, r.height);
                    e.floats("normal", at + 24, &r.normal);
                    e.uint("index", at + 36, 4, r.index);
                    e.floats("centroid", at + 40, &r.centroid);
                    e.floats("aabb_min", at + 52, &r.aabb_min);
                    e.floats("aabb_max", at + 64, &r.aabb_max);
                    let mut next = at + 76;
                    for (k, word) in r.obstruction.iter().flatten().enumerate() {
                        e.uint(Label::Indexed("obstruction", k as u64), next, 4, *word);
                        next += 4;
                    }
                    e.uint("scratch", next, 4, r.scratch);
                },
            );
        });
        let tables = [
            ("ground_bits", layout.ground, &file.ground),
            ("flyer_bits", layout.flyer, &file.flyer),
            ("reserved", layout.reserved, &file.reserved),
        ];
        for (name, start, values) in tables {
            if name == "reserved" && values.is_empty() {
                continue;
            }
            let span = Some((start, 4 * values.len() as u64));
            e.section(name, None, None, span, Space::File, |e| {
                words(e, name, start, values);
            });
        }
        let size = 4 * file.lookup.len() as u64;
        counted(e, "octree_lookup", layout.lookup, size, |e| {
            let count = file.lookup.len() as u64;
            e.uint("octree_lookup_count", layout.lookup - 4, 4, count);
            words(e, "octree_lookup", layout.lookup, &file.lookup);
        });
        let size = OCTREE_NODE_SIZE * file.octree.len() as u64;
        counted(e, "octree", layout.octree, size, |e| {
            let count = file.octree.len() as u64;
            e.uint("octree_count", layout.octree - 4, 4, count);
            let octree = &file.octree;
            e.table(
                "octree",
                layout.octree,
                OCTREE_NODE_SIZE,
                octree,
                |e, at, node| {
                    e.uint("is_leaf", at, 4, node.is_leaf);
                    e.floats("aabb_min", at + 4, &node.aabb_min);
                    e.floats("aabb_max", at + 16, &node.aabb_max);
                    e.floats("center", at + 28, &node.center);
                    children(e, at + 40, &node.children);
                    e.uint("region_count", at + 72, 4, node.region_count);
                    e.uint("region_start", at + 76, 4, node.region_start);
                },
            );
        });
        if let (Some(graph), Some(start)) = (&file.point_graph, layout.point_graph) {
            let span = Some((start, layout.trailing.saturating_sub(start)));
            let label = Some(Label::Name("point_graph"));
            e.section("point_graph", label, Some(start), span, Space::File, |e| {
                e.uint("point_count", start, 4, graph.points.len() as u64);
                let mut at = start + 4;
                if file.version == VERSION_MP2 && !graph.points.is_empty() {
                    for (i, p) in graph.points.iter().enumerate() {
                        let base = at + i as u64 * POINT_SIZE;
                        e.group(Label::Indexed("points", i as u64), Some(base), |e| {
                            e.floats("position", base, &p.position);
                            e.uint("flags", base + 12, 4, u64::from(p.flags));
                            e.uint("link_count", base + 16, 4, u64::from(p.link_count));
                            e.uint("link_start", base + 20, 4, u64::from(p.link_start));
                            e.uint("cost_start", base + 24, 4, u64::from(p.cost_start));
                        });
                    }
                    at += graph.points.len() as u64 * POINT_SIZE;
                    e.uint("target_count", at, 4, graph.targets.len() as u64);
                    words(e, "targets", at + 4, &graph.targets);
                    at += 4 + graph.targets.len() as u64 * 4;
                    e.uint("cost_count", at, 4, graph.costs.len() as u64);
                    words(e, "costs", at + 4, &graph.costs);
                    at += 4 + graph.costs.len() as u64 * 4;
                    words(e, "reachability", at, &graph.reachability);
                }
            });
        }
        if !file.trailing.is_empty() {
            let size = file.trailing.len() as u64;
            let span = Some((layout.trailing, size));
            e.section("trailing", None, None, span, Space::File, |e| {
                e.comment("bytes after the last section (cooker padding, or anything unknown)");
                let value = DumpValue::Ints(file.trailing.iter().map(|&b| i64::from(b)).collect());
                e.opaque("trailing", layout.trailing, size, Some(&value), true);
            });
        }
    });
}
