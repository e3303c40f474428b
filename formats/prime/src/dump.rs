//! `walkmesh dump` for PATH: every stored field with its byte offset and size.

use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Input, ReadError, ReadOptions};

use crate::model::{
    LINK_SIZE, NODE_SIZE, OCTREE_NODE_SIZE, POINT_SIZE, PathFile, VERSION_MP2, region_size,
};

/// Dumps PATH files.
#[derive(Debug, Default, Clone, Copy)]
pub struct PathDumper;

impl walkmesh_core::format::Dumper for PathDumper {
    fn dump(&self, input: Input<'_>, _options: &ReadOptions) -> Result<DumpNode, ReadError> {
        let file = PathFile::parse(input.bytes)?;
        Ok(dump(&file))
    }
}

use DumpNode as F;

fn words(name: &str, offset: u64, values: &[u32]) -> DumpNode {
    F::ints(
        name,
        offset,
        4 * values.len() as u64,
        values.iter().map(|&w| i64::from(w)),
    )
}

/// The dump tree of a parsed file.
pub fn dump(file: &PathFile) -> DumpNode {
    let layout = &file.layout;
    let mut sections = vec![
        F::uint("version", 0, 4, u64::from(file.version)),
        F::uint("node_count", 4, 4, file.nodes.len() as u64),
    ];
    sections.push(F::table(
        "nodes",
        layout.nodes,
        NODE_SIZE,
        &file.nodes,
        |at, node| {
            vec![
                F::floats("position", at, &node.position),
                F::floats("normal", at + 12, &node.normal),
            ]
        },
    ));
    sections.push(F::uint(
        "link_count",
        layout.links - 4,
        4,
        file.links.len() as u64,
    ));
    sections.push(F::table(
        "links",
        layout.links,
        LINK_SIZE,
        &file.links,
        |at, link| {
            vec![
                F::uint("node", at, 4, link.node),
                F::uint("region", at + 4, 4, link.region),
                F::float("width_2d", at + 8, link.width),
                F::float("inv_width_2d", at + 12, link.inv_width),
            ]
        },
    ));
    sections.push(F::uint(
        "region_count",
        layout.regions - 4,
        4,
        file.regions.len() as u64,
    ));
    let record = region_size(file.version);
    sections.push(F::table(
        "regions",
        layout.regions,
        record,
        &file.regions,
        |at, r| {
            let mut fields = vec![
                F::uint("node_count", at, 4, r.node_count),
                F::uint("node_start", at + 4, 4, r.node_start),
                F::uint("link_count", at + 8, 4, r.link_count),
                F::uint("link_start", at + 12, 4, r.link_start),
                F::uint("index_mask", at + 16, 2, r.index_mask),
                F::uint("type_mask", at + 18, 2, r.type_mask),
                F::float("height", at + 20, r.height),
                F::floats("normal", at + 24, &r.normal),
                F::uint("index", at + 36, 4, r.index),
                F::floats("centroid", at + 40, &r.centroid),
                F::floats("aabb_min", at + 52, &r.aabb_min),
                F::floats("aabb_max", at + 64, &r.aabb_max),
            ];
            let mut next = at + 76;
            for (k, word) in r.obstruction.iter().flatten().enumerate() {
                fields.push(F::uint(format!("obstruction[{k}]"), next, 4, *word));
                next += 4;
            }
            fields.push(F::uint("scratch", next, 4, r.scratch));
            fields
        },
    ));
    sections.push(words("ground_bits", layout.ground, &file.ground));
    sections.push(words("flyer_bits", layout.flyer, &file.flyer));
    if !file.reserved.is_empty() {
        sections.push(words("reserved", layout.reserved, &file.reserved));
    }
    sections.push(F::uint(
        "octree_lookup_count",
        layout.lookup - 4,
        4,
        file.lookup.len() as u64,
    ));
    sections.push(words("octree_lookup", layout.lookup, &file.lookup));
    sections.push(F::uint(
        "octree_count",
        layout.octree - 4,
        4,
        file.octree.len() as u64,
    ));
    sections.push(F::table(
        "octree",
        layout.octree,
        OCTREE_NODE_SIZE,
        &file.octree,
        |at, node| {
            vec![
                F::uint("is_leaf", at, 4, node.is_leaf),
                F::floats("aabb_min", at + 4, &node.aabb_min),
                F::floats("aabb_max", at + 16, &node.aabb_max),
                F::floats("center", at + 28, &node.center),
                words("children", at + 40, &node.children),
                F::uint("region_count", at + 72, 4, node.region_count),
                F::uint("region_start", at + 76, 4, node.region_start),
            ]
        },
    ));
    if let (Some(graph), Some(start)) = (&file.point_graph, layout.point_graph) {
        let mut fields = vec![F::uint("point_count", start, 4, graph.points.len() as u64)];
        let mut at = start + 4;
        if file.version == VERSION_MP2 && !graph.points.is_empty() {
            for (i, p) in graph.points.iter().enumerate() {
                let base = at + i as u64 * POINT_SIZE;
                fields.push(DumpNode::group(
                    format!("points[{i}]"),
                    Some(base),
                    vec![
                        F::floats("position", base, &p.position),
                        F::uint("flags", base + 12, 4, u64::from(p.flags)),
                        F::uint("link_count", base + 16, 4, u64::from(p.link_count)),
                        F::uint("link_start", base + 20, 4, u64::from(p.link_start)),
                        F::uint("cost_start", base + 24, 4, u64::from(p.cost_start)),
                    ],
                ));
            }
            at += graph.points.len() as u64 * POINT_SIZE;
            fields.push(F::uint("target_count", at, 4, graph.targets.len() as u64));
            fields.push(words("targets", at + 4, &graph.targets));
            at += 4 + graph.targets.len() as u64 * 4;
            fields.push(F::uint("cost_count", at, 4, graph.costs.len() as u64));
            fields.push(words("costs", at + 4, &graph.costs));
            at += 4 + graph.costs.len() as u64 * 4;
            fields.push(words("reachability", at, &graph.reachability));
        }
        sections.push(DumpNode::group("point_graph", Some(start), fields));
    }
    if !file.trailing.is_empty() {
        sections.push(DumpNode {
            size: Some(file.trailing.len() as u64),
            value: Some(DumpValue::Ints(
                file.trailing.iter().map(|&b| i64::from(b)).collect(),
            )),
            ..DumpNode::group("trailing", Some(layout.trailing), Vec::new())
        });
    }
    DumpNode::group("path", Some(0), sections)
}
