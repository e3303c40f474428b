//! The region octree: the cooker's builder (metaforce's `AROTBuilder::buildPath` rules, see
//! `docs/formats/prime.md` §6.5) and the engine's point lookup.

use crate::model::{NO_CHILD, OctreeNode, PathFile};

/// Leaves are not split below this many regions (`PATH_MIN_NODE_REGIONS`).
pub const MIN_NODE_REGIONS: usize = 16;
/// Deepest level (`AROT_MAX_LEVEL`).
pub const MAX_LEVEL: u32 = 10;
/// Cells whose largest half-extent is below this are not split, and axes whose half-extent
/// is below it have their octant pairs merged (`AROT_MIN_SUBDIV`, 8 in the cooker the note
/// cites).
pub const MIN_SUBDIV: f32 = 8.0;

/// An axis-aligned box in `f32`, compared the way zeus does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

impl Aabb {
    /// Inclusive overlap test on all three axes (`CAABox::intersects`).
    pub fn intersects(&self, other: &Aabb) -> bool {
        (0..3).all(|a| self.max[a] >= other.min[a] && self.min[a] <= other.max[a])
    }

    /// Half sizes (`CAABox::extents`).
    pub fn extents(&self) -> [f32; 3] {
        [0, 1, 2].map(|a| (self.max[a] - self.min[a]) * 0.5)
    }

    /// `(min + max) · 0.5`, stored as the node centre and used by the descent.
    pub fn center(&self) -> [f32; 3] {
        [0, 1, 2].map(|a| (self.min[a] + self.max[a]) * 0.5)
    }

    /// Octant `i` (bit 0 upper X, bit 1 upper Y, bit 2 upper Z), split at
    /// `(max − min) · 0.5 + min` on every axis (`SplitAABB`).
    pub fn octant(&self, i: usize) -> Aabb {
        let mut out = *self;
        for (axis, bit) in [(0, 1), (1, 2), (2, 4)] {
            let mid = (self.max[axis] - self.min[axis]) * 0.5 + self.min[axis];
            if i & bit != 0 {
                out.min[axis] = mid;
            } else {
                out.max[axis] = mid;
            }
        }
        out
    }
}

struct BuildNode {
    /// Regions whose boxes overlap the cell, ascending (after octant merging for leaves).
    set: Vec<u32>,
    children: Option<Box<[BuildNode; 8]>>,
}

/// Most cells (nodes built, kept or not) and region entries an octree may take. The
/// engine's rule splits every cell that 16 or more regions overlap down to level 10, so
/// regions that overlap heavily seen from every side (stacked or huge crossing faces) make
/// the tree grow as 8^level: 24 such regions gave 10 MB and seconds. Real cooked areas use a
/// few thousand cells; past these limits the cook is refused instead.
pub const MAX_OCTREE_CELLS: usize = 1 << 16;
pub const MAX_OCTREE_ENTRIES: usize = 1 << 20;

/// The octree would exceed [`MAX_OCTREE_CELLS`] or [`MAX_OCTREE_ENTRIES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OctreeTooLarge;

struct Budget {
    cells: usize,
    entries: usize,
}

fn build(
    level: u32,
    cell: &Aabb,
    candidates: &[u32],
    boxes: &[Aabb],
    budget: &mut Budget,
) -> Result<BuildNode, OctreeTooLarge> {
    // A region overlapping the cell overlaps its parent, so the parent's set is enough.
    let set: Vec<u32> = candidates
        .iter()
        .copied()
        .filter(|&r| boxes.get(r as usize).is_some_and(|b| b.intersects(cell)))
        .collect();
    budget.cells = budget.cells.checked_sub(1).ok_or(OctreeTooLarge)?;
    budget.entries = budget
        .entries
        .checked_sub(set.len())
        .ok_or(OctreeTooLarge)?;
    let extents = cell.extents();
    let largest = extents[0].max(extents[1]).max(extents[2]);
    if set.is_empty() || set.len() < MIN_NODE_REGIONS || level == MAX_LEVEL || largest < MIN_SUBDIV
    {
        return Ok(BuildNode {
            set,
            children: None,
        });
    }
    let mut built = Vec::with_capacity(8);
    for i in 0..8 {
        built.push(build(level + 1, &cell.octant(i), &set, boxes, budget)?);
    }
    let Ok(mut children): Result<[BuildNode; 8], _> = built.try_into() else {
        return Err(OctreeTooLarge);
    };
    // Thin axes: octants that differ only along them share (the union of) their sets.
    const PAIRS: [[(usize, usize); 4]; 3] = [
        [(0, 1), (4, 5), (2, 3), (6, 7)],
        [(0, 2), (1, 3), (4, 6), (5, 7)],
        [(0, 4), (1, 5), (2, 6), (3, 7)],
    ];
    for (axis, pairs) in PAIRS.iter().enumerate() {
        if extents[axis] < MIN_SUBDIV {
            for &(a, b) in pairs {
                let mut union = children[a].set.clone();
                union.extend_from_slice(&children[b].set);
                union.sort_unstable();
                union.dedup();
                children[a].set.clone_from(&union);
                children[b].set = union;
            }
        }
    }
    let differs = PAIRS
        .iter()
        .flatten()
        .any(|&(a, b)| children[a].set != children[b].set);
    if !differs {
        return Ok(BuildNode {
            set,
            children: None,
        });
    }
    Ok(BuildNode {
        set,
        children: Some(Box::new(children)),
    })
}

fn emit(node: &BuildNode, cell: &Aabb, octree: &mut Vec<OctreeNode>, lookup: &mut Vec<u32>) {
    match &node.children {
        None => {
            octree.push(OctreeNode {
                is_leaf: 1,
                aabb_min: cell.min,
                aabb_max: cell.max,
                center: cell.center(),
                children: [NO_CHILD; 8],
                region_count: node.set.len() as u32,
                region_start: lookup.len() as u32,
            });
            lookup.extend_from_slice(&node.set);
        }
        Some(children) => {
            let mut slots = [NO_CHILD; 8];
            for (i, child) in children.iter().enumerate() {
                emit(child, &cell.octant(i), octree, lookup);
                slots[i] = (octree.len() - 1) as u32;
            }
            octree.push(OctreeNode {
                is_leaf: 0,
                aabb_min: cell.min,
                aabb_max: cell.max,
                center: cell.center(),
                children: slots,
                region_count: 0,
                region_start: 0,
            });
        }
    }
}

/// Builds the octree nodes (post-order, root last) and the region lookup table for regions
/// with the given boxes.
pub fn build_octree(boxes: &[Aabb]) -> Result<(Vec<OctreeNode>, Vec<u32>), OctreeTooLarge> {
    let mut octree = Vec::new();
    let mut lookup = Vec::new();
    if boxes.is_empty() {
        // No regions: one empty leaf over an inverted box.
        let cell = Aabb {
            min: [f32::MAX; 3],
            max: [-f32::MAX; 3],
        };
        emit(
            &BuildNode {
                set: Vec::new(),
                children: None,
            },
            &cell,
            &mut octree,
            &mut lookup,
        );
        return Ok((octree, lookup));
    }
    let mut root = boxes[0];
    for b in boxes {
        for a in 0..3 {
            root.min[a] = root.min[a].min(b.min[a]);
            root.max[a] = root.max[a].max(b.max[a]);
        }
    }
    let all: Vec<u32> = (0..boxes.len() as u32).collect();
    let mut budget = Budget {
        cells: MAX_OCTREE_CELLS,
        entries: MAX_OCTREE_ENTRIES,
    };
    let tree = build(0, &root, &all, boxes, &mut budget)?;
    emit(&tree, &root, &mut octree, &mut lookup);
    Ok((octree, lookup))
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

impl PathFile {
    /// The engine's inside test for region `region` (`CPFRegion::IsPointInside`): inside the
    /// region box, on the inner side of every node's edge plane, above the floor plane
    /// through node 0 and not above it raised by `height` along +Z. False for regions whose
    /// node range is broken.
    pub fn point_in_region(&self, region: usize, point: [f32; 3]) -> bool {
        let Some(r) = self.regions.get(region) else {
            return false;
        };
        let in_box = (0..3).all(|a| r.aabb_min[a] <= point[a] && point[a] <= r.aabb_max[a]);
        if !in_box {
            return false;
        }
        let start = r.node_start as usize;
        let Some(nodes) = start
            .checked_add(r.node_count as usize)
            .and_then(|end| self.nodes.get(start..end))
        else {
            return false;
        };
        let Some(first) = nodes.first() else {
            return false;
        };
        if nodes
            .iter()
            .any(|n| dot(sub(point, n.position), n.normal) < 0.0)
        {
            return false;
        }
        let to_point = sub(point, first.position);
        let lifted = [to_point[0], to_point[1], to_point[2] - r.height];
        dot(to_point, r.normal) >= 0.0 && dot(lifted, r.normal) <= 0.0
    }

    /// The region list of the octree leaf that `point` falls in, found the way the engine
    /// does (`CPFAreaOctree::GetRegionList`): from the root (the last node), step into child
    /// `(x > c.x) | (y > c.y) << 1 | (z > c.z) << 2` until a leaf. `None` when the walk hits
    /// a missing child, a cycle or a bad range (the engine would crash there).
    pub fn leaf_regions(&self, point: [f32; 3]) -> Option<&[u32]> {
        let mut index = self.octree.len().checked_sub(1)?;
        // Each step must reach a new node; more steps than nodes means a cycle.
        for _ in 0..=self.octree.len() {
            let node = self.octree.get(index)?;
            if node.is_leaf != 0 {
                let start = node.region_start as usize;
                return start
                    .checked_add(node.region_count as usize)
                    .and_then(|end| self.lookup.get(start..end));
            }
            let c = node.center;
            let octant = usize::from(point[0] > c[0])
                | usize::from(point[1] > c[1]) << 1
                | usize::from(point[2] > c[2]) << 2;
            let child = *node.children.get(octant)?;
            if child & 0x8000_0000 != 0 {
                return None;
            }
            index = child as usize;
        }
        None
    }

    /// Regions containing `point`: the octree leaf's list filtered by the engine's inside
    /// test (without the engine's 4-result cap and search-flag filter), ascending.
    pub fn regions_at(&self, point: [f32; 3]) -> Vec<u32> {
        let mut found: Vec<u32> = self
            .leaf_regions(point)
            .unwrap_or(&[])
            .iter()
            .copied()
            .filter(|&r| self.point_in_region(r as usize, point))
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Regions containing `point` by testing every region (the reference for
    /// [`PathFile::regions_at`]).
    pub fn regions_at_brute_force(&self, point: [f32; 3]) -> Vec<u32> {
        (0..self.regions.len())
            .filter(|&r| self.point_in_region(r, point))
            .map(|r| r as u32)
            .collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn unit_box(x: f32, y: f32) -> Aabb {
        Aabb {
            min: [x, y, 0.0],
            max: [x + 10.0, y + 10.0, 1.0],
        }
    }

    #[test]
    fn few_regions_give_a_single_leaf() {
        let boxes = vec![unit_box(0.0, 0.0), unit_box(10.0, 0.0)];
        let (octree, lookup) = build_octree(&boxes).unwrap();
        assert_eq!(octree.len(), 1);
        assert_eq!(octree[0].is_leaf, 1);
        assert_eq!(octree[0].aabb_min, [0.0, 0.0, 0.0]);
        assert_eq!(octree[0].aabb_max, [20.0, 10.0, 1.0]);
        assert_eq!(octree[0].center, [10.0, 5.0, 0.5]);
        assert_eq!(lookup, vec![0, 1]);
    }

    #[test]
    fn empty_mesh_gives_one_inverted_leaf() {
        let (octree, lookup) = build_octree(&[]).unwrap();
        assert_eq!(octree.len(), 1);
        assert_eq!(octree[0].aabb_min, [f32::MAX; 3]);
        assert_eq!(octree[0].aabb_max, [-f32::MAX; 3]);
        assert_eq!(octree[0].children, [NO_CHILD; 8]);
        assert!(lookup.is_empty());
    }

    #[test]
    fn sixteen_regions_in_a_row_split_once_along_x_and_y_only() {
        // 16 boxes 10 wide along X: root 160 x 10 x 1. Half extents 80, 5, 0.5: Y and Z are
        // thin, so their octant pairs merge; X still differs, so the root is a branch with
        // 8 leaves. Low-X leaves hold boxes 0..=8 (box 8 touches x = 80), high-X 7..=15
        // (box 7 ends at x = 80).
        let boxes: Vec<Aabb> = (0..16).map(|i| unit_box(10.0 * i as f32, 0.0)).collect();
        let (octree, lookup) = build_octree(&boxes).unwrap();
        assert_eq!(octree.len(), 9);
        let root = octree.last().unwrap();
        assert_eq!(root.is_leaf, 0);
        assert_eq!(root.children, [0, 1, 2, 3, 4, 5, 6, 7]);
        let low: Vec<u32> = (0..=8).collect();
        let high: Vec<u32> = (7..=15).collect();
        for (i, node) in octree[..8].iter().enumerate() {
            let start = node.region_start as usize;
            let list = &lookup[start..start + node.region_count as usize];
            assert_eq!(
                list,
                if i & 1 == 0 { &low[..] } else { &high[..] },
                "octant {i}"
            );
        }
        assert_eq!(octree[1].aabb_min, [80.0, 0.0, 0.0]);
        assert_eq!(octree[1].aabb_max, [160.0, 5.0, 0.5]);
    }

    #[test]
    fn heavily_overlapping_regions_are_refused_before_the_tree_explodes() {
        // 24 regions all covering one huge box: every cell down to level 10 holds 24 ≥ 16.
        let huge = Aabb {
            min: [0.0, 0.0, 0.0],
            max: [2e9, 2e9, 2e9],
        };
        assert_eq!(build_octree(&[huge; 24]), Err(OctreeTooLarge));
        // 15 of them stay one leaf.
        let (octree, lookup) = build_octree(&[huge; 15]).unwrap();
        assert_eq!((octree.len(), lookup.len()), (1, 15));
    }
}
