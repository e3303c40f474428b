//! The PATH file as stored: every record of every section, parsed and encoded exactly.
//!
//! Layout (all big-endian; see `docs/formats/prime.md`): version, nodes, links, regions, the
//! ground and flyer "path exists" bit tables, reserved zero words (versions 4 and 6), the
//! octree region lookup, the octree nodes (root last), then for version 6 the point graph,
//! then whatever trails (cooker padding).

use walkmesh_core::ReadError;
use walkmesh_core::cursor::ByteCursor;

/// Version word of Metroid Prime (MP1).
pub const VERSION_MP1: u32 = 4;
/// Version word of Metroid Prime 2: Echoes.
pub const VERSION_MP2: u32 = 6;
/// Version word of Metroid Prime 3: Corruption.
pub const VERSION_MP3: u32 = 7;

/// Bytes of one node record.
pub const NODE_SIZE: u64 = 24;
/// Bytes of one link record.
pub const LINK_SIZE: u64 = 16;
/// Bytes of one octree node record.
pub const OCTREE_NODE_SIZE: u64 = 80;
/// Bytes of one MP2 point-graph point.
pub const POINT_SIZE: u64 = 28;
/// A child slot with bit 31 set means "no child".
pub const NO_CHILD: u32 = 0xFFFF_FFFF;

/// Region record size for a version: 80 bytes in MP1, 92 in MP2/MP3 (three obstruction
/// counters before the scratch word).
pub fn region_size(version: u32) -> u64 {
    if version >= VERSION_MP2 { 92 } else { 80 }
}

/// True for the versions whose files carry the reserved zero words after the bit tables.
pub fn has_reserved_words(version: u32) -> bool {
    version < VERSION_MP3
}

/// Words of one triangular "path exists" table for `regions` regions:
/// `(N·(N−1)/2 + 31) / 32`.
pub fn bitset_words(regions: u64) -> u64 {
    (regions * regions.saturating_sub(1) / 2).div_ceil(32)
}

/// Reserved words after the two tables: `(ceil(N²/32) − W) · 2`.
pub fn reserved_words(regions: u64) -> u64 {
    (regions * regions)
        .div_ceil(32)
        .saturating_sub(bitset_words(regions))
        * 2
}

/// Bit position of the pair (i, j), i ≠ j, in a triangular table of `n` regions: row-major
/// strict upper triangle.
pub fn pair_bit(n: u64, i: u64, j: u64) -> u64 {
    let (i, j) = (i.min(j), i.max(j));
    let total = n * n.saturating_sub(1) / 2;
    let remaining = n - i;
    total - remaining * remaining.saturating_sub(1) / 2 + (j - i - 1)
}

/// Reads bit (i, j) from a table; false when the table is too short.
pub fn test_pair(words: &[u32], n: u64, i: u64, j: u64) -> bool {
    if i == j {
        return true;
    }
    let bit = pair_bit(n, i, j);
    words
        .get((bit / 32) as usize)
        .is_some_and(|word| (word >> (bit % 32)) & 1 == 1)
}

/// A corner of a region with the horizontal inward normal of the edge that starts there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    pub position: [f32; 3],
    pub normal: [f32; 3],
}

/// A portal from the owning region to `region` across the owner's edge `node → node+1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    pub node: u32,
    pub region: u32,
    pub width: f32,
    pub inv_width: f32,
}

/// One convex walkable polygon extruded by `height`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    pub node_count: u32,
    pub node_start: u32,
    pub link_count: u32,
    pub link_start: u32,
    pub index_mask: u16,
    pub type_mask: u16,
    pub height: f32,
    pub normal: [f32; 3],
    pub index: u32,
    pub centroid: [f32; 3],
    pub aabb_min: [f32; 3],
    pub aabb_max: [f32; 3],
    /// MP2/MP3 only: the three obstruction counters.
    pub obstruction: Option<[u32; 3]>,
    /// Run-time pointer slot; the cooker writes the region index.
    pub scratch: u32,
}

/// One octree cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OctreeNode {
    pub is_leaf: u32,
    pub aabb_min: [f32; 3],
    pub aabb_max: [f32; 3],
    pub center: [f32; 3],
    pub children: [u32; 8],
    pub region_count: u32,
    pub region_start: u32,
}

/// One MP2 point-graph point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub position: [f32; 3],
    pub flags: u32,
    pub link_count: u32,
    pub link_start: u32,
    pub cost_start: u32,
}

/// The MP2 point graph that follows the octree in version 6 files.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PointGraph {
    pub points: Vec<Point>,
    pub targets: Vec<u32>,
    pub costs: Vec<u32>,
    pub reachability: Vec<u32>,
}

/// Byte offsets of the sections, as found by the parser (for dumps and error messages).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Layout {
    pub nodes: u64,
    pub links: u64,
    pub regions: u64,
    pub ground: u64,
    pub flyer: u64,
    pub reserved: u64,
    pub lookup: u64,
    pub octree: u64,
    pub point_graph: Option<u64>,
    pub trailing: u64,
}

/// A whole PATH file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PathFile {
    pub version: u32,
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub regions: Vec<Region>,
    pub ground: Vec<u32>,
    pub flyer: Vec<u32>,
    pub reserved: Vec<u32>,
    pub lookup: Vec<u32>,
    pub octree: Vec<OctreeNode>,
    /// Version 6: `Some` (possibly empty); otherwise `None`.
    pub point_graph: Option<PointGraph>,
    /// Bytes after the last section (cooker padding, or anything unknown).
    pub trailing: Vec<u8>,
    pub layout: Layout,
}

/// The reader's cursor: core's bounds-checked [`ByteCursor`], big-endian.
pub(crate) type Cursor<'a> = ByteCursor<'a>;

/// `count` big-endian words, checked against the bytes left before allocating.
fn words(c: &mut Cursor<'_>, field: &str, count: u64) -> Result<Vec<u32>, ReadError> {
    c.check_room(count, 4, field)?;
    let mut words = Vec::with_capacity(count as usize);
    for i in 0..count {
        words.push(c.u32(|| format!("{field}[{i}]"))?);
    }
    Ok(words)
}

impl PathFile {
    /// Parses every section. Counts are checked against the bytes left before allocating;
    /// nothing about the contents is checked here (that is the validator's job), except what
    /// the sizes of later sections depend on.
    pub fn parse(bytes: &[u8]) -> Result<PathFile, ReadError> {
        let mut c = ByteCursor::big(bytes);
        let version = c.u32(|| "header.version".to_string())?;
        if !matches!(version, VERSION_MP1 | VERSION_MP2 | VERSION_MP3) {
            return Err(ReadError::at_offset(
                0,
                "header.version",
                format!(
                    "version {version} is not a PATH version (4 = Metroid Prime, 6 = Echoes, 7 = Corruption)"
                ),
            ));
        }
        let mut layout = Layout::default();

        let node_count = c.count(NODE_SIZE, "header.node_count")?;
        layout.nodes = c.offset();
        let mut nodes = Vec::with_capacity(node_count);
        for i in 0..node_count {
            let position = c.vec3(|| format!("nodes[{i}].position"))?;
            let normal = c.vec3(|| format!("nodes[{i}].normal"))?;
            nodes.push(Node { position, normal });
        }

        let link_count = c.count(LINK_SIZE, "links.count")?;
        layout.links = c.offset();
        let mut links = Vec::with_capacity(link_count);
        for i in 0..link_count {
            links.push(Link {
                node: c.u32(|| format!("links[{i}].node"))?,
                region: c.u32(|| format!("links[{i}].region"))?,
                width: c.f32(|| format!("links[{i}].width_2d"))?,
                inv_width: c.f32(|| format!("links[{i}].inv_width_2d"))?,
            });
        }

        let region_count = c.count(region_size(version), "regions.count")?;
        layout.regions = c.offset();
        let mut regions = Vec::with_capacity(region_count);
        for i in 0..region_count {
            let f = |name: &'static str| move || format!("regions[{i}].{name}");
            let node_count = c.u32(f("node_count"))?;
            let node_start = c.u32(f("node_start"))?;
            let link_count = c.u32(f("link_count"))?;
            let link_start = c.u32(f("link_start"))?;
            let index_mask = c.u16(f("index_mask"))?;
            let type_mask = c.u16(f("type_mask"))?;
            let height = c.f32(f("height"))?;
            let normal = c.vec3(f("normal"))?;
            let index = c.u32(f("index"))?;
            let centroid = c.vec3(f("centroid"))?;
            let aabb_min = c.vec3(f("aabb_min"))?;
            let aabb_max = c.vec3(f("aabb_max"))?;
            let obstruction = if version >= VERSION_MP2 {
                Some([
                    c.u32(f("obstruction[0]"))?,
                    c.u32(f("obstruction[1]"))?,
                    c.u32(f("obstruction[2]"))?,
                ])
            } else {
                None
            };
            let scratch = c.u32(f("scratch"))?;
            regions.push(Region {
                node_count,
                node_start,
                link_count,
                link_start,
                index_mask,
                type_mask,
                height,
                normal,
                index,
                centroid,
                aabb_min,
                aabb_max,
                obstruction,
                scratch,
            });
        }

        let n = region_count as u64;
        let table = bitset_words(n);
        layout.ground = c.offset();
        let ground = words(&mut c, "ground", table)?;
        layout.flyer = c.offset();
        let flyer = words(&mut c, "flyer", table)?;
        layout.reserved = c.offset();
        let reserved = if has_reserved_words(version) {
            words(&mut c, "reserved", reserved_words(n))?
        } else {
            Vec::new()
        };

        let lookup_count = c.count(4, "octree_lookup.count")?;
        layout.lookup = c.offset();
        let lookup = words(&mut c, "octree_lookup", lookup_count as u64)?;

        let octree_count = c.count(OCTREE_NODE_SIZE, "octree.count")?;
        layout.octree = c.offset();
        let mut octree = Vec::with_capacity(octree_count);
        for i in 0..octree_count {
            let f = |name: &'static str| move || format!("octree[{i}].{name}");
            let is_leaf = c.u32(f("is_leaf"))?;
            let aabb_min = c.vec3(f("aabb_min"))?;
            let aabb_max = c.vec3(f("aabb_max"))?;
            let center = c.vec3(f("center"))?;
            let mut children = [0u32; 8];
            for (k, child) in children.iter_mut().enumerate() {
                *child = c.u32(|| format!("octree[{i}].children[{k}]"))?;
            }
            let region_count = c.u32(f("region_count"))?;
            let region_start = c.u32(f("region_start"))?;
            octree.push(OctreeNode {
                is_leaf,
                aabb_min,
                aabb_max,
                center,
                children,
                region_count,
                region_start,
            });
        }

        let point_graph = if version == VERSION_MP2 {
            layout.point_graph = Some(c.offset());
            Some(parse_point_graph(&mut c)?)
        } else {
            None
        };
        layout.trailing = c.offset();
        let trailing = c.rest().to_vec();
        Ok(PathFile {
            version,
            nodes,
            links,
            regions,
            ground,
            flyer,
            reserved,
            lookup,
            octree,
            point_graph,
            trailing,
            layout,
        })
    }

    /// Encodes every section in order; `parse(encode(x))` gives `x` back (layout aside).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        let put = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_be_bytes());
        let vec3 = |out: &mut Vec<u8>, v: &[f32; 3]| {
            for c in v {
                out.extend_from_slice(&c.to_be_bytes());
            }
        };
        put(&mut out, self.version);
        put(&mut out, self.nodes.len() as u32);
        for node in &self.nodes {
            vec3(&mut out, &node.position);
            vec3(&mut out, &node.normal);
        }
        put(&mut out, self.links.len() as u32);
        for link in &self.links {
            put(&mut out, link.node);
            put(&mut out, link.region);
            out.extend_from_slice(&link.width.to_be_bytes());
            out.extend_from_slice(&link.inv_width.to_be_bytes());
        }
        put(&mut out, self.regions.len() as u32);
        for r in &self.regions {
            put(&mut out, r.node_count);
            put(&mut out, r.node_start);
            put(&mut out, r.link_count);
            put(&mut out, r.link_start);
            out.extend_from_slice(&r.index_mask.to_be_bytes());
            out.extend_from_slice(&r.type_mask.to_be_bytes());
            out.extend_from_slice(&r.height.to_be_bytes());
            vec3(&mut out, &r.normal);
            put(&mut out, r.index);
            vec3(&mut out, &r.centroid);
            vec3(&mut out, &r.aabb_min);
            vec3(&mut out, &r.aabb_max);
            if self.version >= VERSION_MP2 {
                for word in r.obstruction.unwrap_or([0; 3]) {
                    put(&mut out, word);
                }
            }
            put(&mut out, r.scratch);
        }
        for &word in self.ground.iter().chain(&self.flyer).chain(&self.reserved) {
            put(&mut out, word);
        }
        put(&mut out, self.lookup.len() as u32);
        for &word in &self.lookup {
            put(&mut out, word);
        }
        put(&mut out, self.octree.len() as u32);
        for node in &self.octree {
            put(&mut out, node.is_leaf);
            vec3(&mut out, &node.aabb_min);
            vec3(&mut out, &node.aabb_max);
            vec3(&mut out, &node.center);
            for &child in &node.children {
                put(&mut out, child);
            }
            put(&mut out, node.region_count);
            put(&mut out, node.region_start);
        }
        if let Some(graph) = &self.point_graph {
            put(&mut out, graph.points.len() as u32);
            if !graph.points.is_empty() {
                for p in &graph.points {
                    vec3(&mut out, &p.position);
                    put(&mut out, p.flags);
                    put(&mut out, p.link_count);
                    put(&mut out, p.link_start);
                    put(&mut out, p.cost_start);
                }
                put(&mut out, graph.targets.len() as u32);
                for &t in &graph.targets {
                    put(&mut out, t);
                }
                put(&mut out, graph.costs.len() as u32);
                for &t in &graph.costs {
                    put(&mut out, t);
                }
                for &t in &graph.reachability {
                    put(&mut out, t);
                }
            }
        }
        out.extend_from_slice(&self.trailing);
        out
    }

    fn encoded_len(&self) -> usize {
        let regions = self.regions.len() * region_size(self.version) as usize;
        16 + self.nodes.len() * 24
            + self.links.len() * 16
            + regions
            + 4 * (self.ground.len() + self.flyer.len() + self.reserved.len() + self.lookup.len())
            + 4
            + self.octree.len() * 80
            + self.trailing.len()
    }
}

fn parse_point_graph(c: &mut Cursor<'_>) -> Result<PointGraph, ReadError> {
    let point_count = c.count(POINT_SIZE, "point_graph.point_count")?;
    let mut graph = PointGraph::default();
    if point_count == 0 {
        return Ok(graph);
    }
    graph.points.reserve(point_count);
    for i in 0..point_count {
        let f = |name: &'static str| move || format!("point_graph.points[{i}].{name}");
        graph.points.push(Point {
            position: c.vec3(f("position"))?,
            flags: c.u32(f("flags"))?,
            link_count: c.u32(f("link_count"))?,
            link_start: c.u32(f("link_start"))?,
            cost_start: c.u32(f("cost_start"))?,
        });
    }
    let targets = c.count(4, "point_graph.target_count")?;
    graph.targets = words(c, "point_graph.targets", targets as u64)?;
    let costs = c.count(4, "point_graph.cost_count")?;
    graph.costs = words(c, "point_graph.costs", costs as u64)?;
    graph.reachability = words(
        c,
        "point_graph.reachability",
        bitset_words(point_count as u64),
    )?;
    Ok(graph)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_match_the_hand_computed_formula() {
        // N = 27 (the synthetic fixture): 351 pairs -> 11 words; ceil(729/32) = 23 -> 24 reserved.
        assert_eq!(bitset_words(27), 11);
        assert_eq!(reserved_words(27), 24);
        assert_eq!(bitset_words(0), 0);
        assert_eq!(reserved_words(0), 0);
        assert_eq!(bitset_words(1), 0);
        assert_eq!(reserved_words(1), 2);
        assert_eq!(bitset_words(2), 1);
        // N = 4: pairs (0,1)=0 (0,2)=1 (0,3)=2 (1,2)=3 (1,3)=4 (2,3)=5.
        assert_eq!(pair_bit(4, 0, 1), 0);
        assert_eq!(pair_bit(4, 0, 3), 2);
        assert_eq!(pair_bit(4, 1, 2), 3);
        assert_eq!(pair_bit(4, 3, 2), 5);
        assert!(test_pair(&[0b100000], 4, 2, 3));
        assert!(!test_pair(&[0b100000], 4, 1, 3));
        assert!(test_pair(&[], 4, 1, 1));
    }

    #[test]
    fn counts_larger_than_the_file_are_refused_before_allocating() {
        let mut bytes = 4u32.to_be_bytes().to_vec();
        bytes.extend_from_slice(&u32::MAX.to_be_bytes());
        let error = PathFile::parse(&bytes).unwrap_err();
        assert_eq!(error.field, "header.node_count");
        assert!(error.message.contains("needs"), "{error}");
        let error = PathFile::parse(&9u32.to_be_bytes()).unwrap_err();
        assert_eq!(error.field, "header.version");
    }

    #[test]
    fn empty_mp2_file_round_trips() {
        let file = PathFile {
            version: VERSION_MP2,
            octree: vec![OctreeNode {
                is_leaf: 1,
                aabb_min: [f32::MAX; 3],
                aabb_max: [-f32::MAX; 3],
                center: [0.0; 3],
                children: [NO_CHILD; 8],
                region_count: 0,
                region_start: 0,
            }],
            point_graph: Some(PointGraph::default()),
            ..PathFile::default()
        };
        let bytes = file.encode();
        // version, 3 counts, lookup count, octree count + 80, point count.
        assert_eq!(bytes.len(), 4 + 12 + 4 + 4 + 80 + 4);
        let parsed = PathFile::parse(&bytes).unwrap();
        assert_eq!(parsed.encode(), bytes);
        assert_eq!(parsed.point_graph, Some(PointGraph::default()));
    }
}
