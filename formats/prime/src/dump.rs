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

fn uint(name: impl Into<String>, offset: u64, size: u64, value: u64) -> DumpNode {
    DumpNode::field(name, offset, size, DumpValue::UInt(value))
}

fn float(name: &str, offset: u64, value: f32) -> DumpNode {
    DumpNode::field(name, offset, 4, DumpValue::Float(f64::from(value)))
}

fn vec3(name: &str, offset: u64, value: [f32; 3]) -> DumpNode {
    DumpNode::field(name, offset, 12, DumpValue::Floats(value.to_vec()))
}

fn words(name: &str, offset: u64, values: &[u32]) -> DumpNode {
    DumpNode {
        size: Some(values.len() as u64 * 4),
        value: Some(DumpValue::Ints(
            values.iter().map(|&w| i64::from(w)).collect(),
        )),
        ..DumpNode::group(name, Some(offset), Vec::new())
    }
}

/// The dump tree of a parsed file.
pub fn dump(file: &PathFile) -> DumpNode {
    let layout = &file.layout;
    let mut sections = vec![
        uint("version", 0, 4, u64::from(file.version)),
        uint("node_count", 4, 4, file.nodes.len() as u64),
    ];
    let nodes = file
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let at = layout.nodes + i as u64 * NODE_SIZE;
            DumpNode::group(
                format!("nodes[{i}]"),
                Some(at),
                vec![
                    vec3("position", at, node.position),
                    vec3("normal", at + 12, node.normal),
                ],
            )
        })
        .collect();
    sections.push(DumpNode::group("nodes", Some(layout.nodes), nodes));
    sections.push(uint(
        "link_count",
        layout.links - 4,
        4,
        file.links.len() as u64,
    ));
    let links = file
        .links
        .iter()
        .enumerate()
        .map(|(i, link)| {
            let at = layout.links + i as u64 * LINK_SIZE;
            DumpNode::group(
                format!("links[{i}]"),
                Some(at),
                vec![
                    uint("node", at, 4, u64::from(link.node)),
                    uint("region", at + 4, 4, u64::from(link.region)),
                    float("width_2d", at + 8, link.width),
                    float("inv_width_2d", at + 12, link.inv_width),
                ],
            )
        })
        .collect();
    sections.push(DumpNode::group("links", Some(layout.links), links));
    sections.push(uint(
        "region_count",
        layout.regions - 4,
        4,
        file.regions.len() as u64,
    ));
    let record = region_size(file.version);
    let regions = file
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let at = layout.regions + i as u64 * record;
            let mut fields = vec![
                uint("node_count", at, 4, u64::from(r.node_count)),
                uint("node_start", at + 4, 4, u64::from(r.node_start)),
                uint("link_count", at + 8, 4, u64::from(r.link_count)),
                uint("link_start", at + 12, 4, u64::from(r.link_start)),
                uint("index_mask", at + 16, 2, u64::from(r.index_mask)),
                uint("type_mask", at + 18, 2, u64::from(r.type_mask)),
                float("height", at + 20, r.height),
                vec3("normal", at + 24, r.normal),
                uint("index", at + 36, 4, u64::from(r.index)),
                vec3("centroid", at + 40, r.centroid),
                vec3("aabb_min", at + 52, r.aabb_min),
                vec3("aabb_max", at + 64, r.aabb_max),
            ];
            let mut next = at + 76;
            if let Some(obstruction) = r.obstruction {
                for (k, word) in obstruction.iter().enumerate() {
                    fields.push(uint(format!("obstruction[{k}]"), next, 4, u64::from(*word)));
                    next += 4;
                }
            }
            fields.push(uint("scratch", next, 4, u64::from(r.scratch)));
            DumpNode::group(format!("regions[{i}]"), Some(at), fields)
        })
        .collect();
    sections.push(DumpNode::group("regions", Some(layout.regions), regions));
    sections.push(words("ground_bits", layout.ground, &file.ground));
    sections.push(words("flyer_bits", layout.flyer, &file.flyer));
    if !file.reserved.is_empty() {
        sections.push(words("reserved", layout.reserved, &file.reserved));
    }
    sections.push(uint(
        "octree_lookup_count",
        layout.lookup - 4,
        4,
        file.lookup.len() as u64,
    ));
    sections.push(words("octree_lookup", layout.lookup, &file.lookup));
    sections.push(uint(
        "octree_count",
        layout.octree - 4,
        4,
        file.octree.len() as u64,
    ));
    let octree = file
        .octree
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let at = layout.octree + i as u64 * OCTREE_NODE_SIZE;
            DumpNode::group(
                format!("octree[{i}]"),
                Some(at),
                vec![
                    uint("is_leaf", at, 4, u64::from(node.is_leaf)),
                    vec3("aabb_min", at + 4, node.aabb_min),
                    vec3("aabb_max", at + 16, node.aabb_max),
                    vec3("center", at + 28, node.center),
                    words("children", at + 40, &node.children),
                    uint("region_count", at + 72, 4, u64::from(node.region_count)),
                    uint("region_start", at + 76, 4, u64::from(node.region_start)),
                ],
            )
        })
        .collect();
    sections.push(DumpNode::group("octree", Some(layout.octree), octree));
    if let (Some(graph), Some(start)) = (&file.point_graph, layout.point_graph) {
        let mut fields = vec![uint("point_count", start, 4, graph.points.len() as u64)];
        let mut at = start + 4;
        if file.version == VERSION_MP2 && !graph.points.is_empty() {
            for (i, p) in graph.points.iter().enumerate() {
                let base = at + i as u64 * POINT_SIZE;
                fields.push(DumpNode::group(
                    format!("points[{i}]"),
                    Some(base),
                    vec![
                        vec3("position", base, p.position),
                        uint("flags", base + 12, 4, u64::from(p.flags)),
                        uint("link_count", base + 16, 4, u64::from(p.link_count)),
                        uint("link_start", base + 20, 4, u64::from(p.link_start)),
                        uint("cost_start", base + 24, 4, u64::from(p.cost_start)),
                    ],
                ));
            }
            at += graph.points.len() as u64 * POINT_SIZE;
            fields.push(uint("target_count", at, 4, graph.targets.len() as u64));
            fields.push(words("targets", at + 4, &graph.targets));
            at += 4 + graph.targets.len() as u64 * 4;
            fields.push(uint("cost_count", at, 4, graph.costs.len() as u64));
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
