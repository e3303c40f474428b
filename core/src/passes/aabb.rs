//! Balanced bounding-box trees over polygons, and point location with them.
//!
//! The tree is the one KotOR's area walkmeshes store (any consumer can use it): every inner
//! node splits its items ⌊n/2⌋ | ⌈n/2⌉ at the median centroid along the axis where the
//! centroids spread widest (ties keep the lower axis; equal centroids are ordered by item
//! index, so the result is deterministic); nodes are in pre-order, so an inner node's first
//! child is the next node and its second child follows the first child's subtree. Built
//! iteratively with in-place selection: O(n log n), no recursion.

use crate::ir::NavMesh;

/// An axis-aligned box as (min, max).
pub type Bounds = ([f32; 3], [f32; 3]);

/// "No child" in [`AabbNode::first`]/[`AabbNode::second`].
pub const NO_CHILD: u32 = u32::MAX;

/// One node of a [`balanced_aabb_tree`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbNode {
    pub min: [f32; 3],
    pub max: [f32; 3],
    /// The item of a leaf; `None` on inner nodes.
    pub item: Option<u32>,
    /// Children (node indices), [`NO_CHILD`] on leaves.
    pub first: u32,
    pub second: u32,
    /// Axis the inner node split its centroids along (0 = x, 1 = y, 2 = z).
    pub split_axis: u8,
}

impl AabbNode {
    /// True for a leaf.
    pub fn is_leaf(&self) -> bool {
        self.item.is_some()
    }
}

/// How the tree builder fills nodes in place: the core [`AabbNode`], or a file format's
/// own record (a BWM writer builds its AABB table straight into the bytes of the file, so
/// that a million faces do not make two million nodes in a second array first).
pub trait TreeNodes {
    /// One node as stored.
    type Node: Copy + Send + Sync;
    /// Makes `node` a leaf holding `item` with the box `min`–`max` (padding included).
    fn set_leaf(node: &mut Self::Node, min: [f32; 3], max: [f32; 3], item: u32);
    /// Makes `node` an inner node with children `first` and `second` (node indices of the
    /// whole tree), split along `axis` (0 = x, 1 = y, 2 = z). Its box is set later by
    /// [`TreeNodes::close_inner`], once both children are complete.
    fn set_inner(node: &mut Self::Node, first: u32, second: u32, axis: u8);
    /// True for a leaf (after [`TreeNodes::set_leaf`]).
    fn is_leaf(node: &Self::Node) -> bool;
    /// The children given to [`TreeNodes::set_inner`].
    fn children(node: &Self::Node) -> (u32, u32);
    /// Completes an inner node from its two finished children: its box is their union
    /// (and a format may derive more from them, e.g. which side the second child lies on).
    fn close_inner(node: &mut Self::Node, first: &Self::Node, second: &Self::Node);
}

/// The union of two boxes.
pub fn union(a: Bounds, b: Bounds) -> Bounds {
    (
        [0, 1, 2].map(|k| a.0[k].min(b.0[k])),
        [0, 1, 2].map(|k| a.1[k].max(b.1[k])),
    )
}

impl TreeNodes for AabbNode {
    type Node = AabbNode;
    fn set_leaf(node: &mut AabbNode, min: [f32; 3], max: [f32; 3], item: u32) {
        node.min = min;
        node.max = max;
        node.item = Some(item);
    }
    fn set_inner(node: &mut AabbNode, first: u32, second: u32, axis: u8) {
        node.first = first;
        node.second = second;
        node.split_axis = axis;
    }
    fn is_leaf(node: &AabbNode) -> bool {
        node.item.is_some()
    }
    fn children(node: &AabbNode) -> (u32, u32) {
        (node.first, node.second)
    }
    fn close_inner(node: &mut AabbNode, first: &AabbNode, second: &AabbNode) {
        (node.min, node.max) = union((first.min, first.max), (second.min, second.max));
    }
}

/// Builds the tree over items with the given bounding boxes and centroids (equal lengths;
/// extra entries of the longer slice are ignored). Leaf boxes are the item's box grown by
/// `leaf_padding` on every side; inner boxes are the union of their children. An empty
/// input gives an empty tree; `n` items give `2n − 1` nodes.
pub fn balanced_aabb_tree(
    boxes: &[Bounds],
    centroids: &[[f32; 3]],
    leaf_padding: f32,
) -> Vec<AabbNode> {
    let count = boxes.len().min(centroids.len());
    let empty = AabbNode {
        min: [0.0; 3],
        max: [0.0; 3],
        item: None,
        first: NO_CHILD,
        second: NO_CHILD,
        split_axis: 0,
    };
    let mut nodes = vec![empty; (2 * count).saturating_sub(1)];
    build_tree_in::<AabbNode>(boxes, centroids, leaf_padding, &mut nodes);
    nodes
}

/// [`balanced_aabb_tree`] built into `nodes`, which must hold exactly `2n − 1` nodes for
/// `n` items (else nothing is built and `false` is returned). Every node is made a leaf or
/// an inner node; nodes are not read before they are set. The same tree, node for node,
/// as [`balanced_aabb_tree`].
pub fn build_tree_in<K: TreeNodes>(
    boxes: &[Bounds],
    centroids: &[[f32; 3]],
    leaf_padding: f32,
    nodes: &mut [K::Node],
) -> bool {
    let threads = crate::threads::available();
    // Each split hands one half to a new thread while this one builds the other, down to
    // `threads` subtrees.
    let depth = usize::BITS - threads.saturating_sub(1).leading_zeros();
    tree_with_threads_depth::<K>(boxes, centroids, leaf_padding, depth, nodes)
}

/// [`build_tree_in`] with threads down to `threads_depth` levels (0: one thread); the
/// tree is the same for every depth.
fn tree_with_threads_depth<K: TreeNodes>(
    boxes: &[Bounds],
    centroids: &[[f32; 3]],
    leaf_padding: f32,
    threads_depth: u32,
    nodes: &mut [K::Node],
) -> bool {
    let count = boxes.len().min(centroids.len());
    if nodes.len() != (2 * count).saturating_sub(1) {
        return false;
    }
    if count == 0 {
        return true;
    }
    // (centroid, item): selected in place, contiguous, so each level is one linear pass.
    let mut items: Vec<([f32; 3], u32)> = centroids
        .iter()
        .take(count)
        .enumerate()
        .map(|(i, c)| (*c, i as u32))
        .collect();
    let tree = Subtree {
        boxes,
        leaf_padding,
    };
    tree.build::<K>(nodes, 0, &mut items, threads_depth);
    true
}

/// Smallest subtree worth a thread of its own (items).
const PARALLEL_SUBTREE: usize = 32 * 1024;

/// What every subtree of [`balanced_aabb_tree`] is built from.
struct Subtree<'a> {
    boxes: &'a [Bounds],
    leaf_padding: f32,
}

impl Subtree<'_> {
    /// Builds the subtree of `items` into `nodes` (its `2 · items − 1` nodes in pre-order,
    /// the first at index `base` of the whole tree): the same tree whatever `threads_depth`,
    /// since a subtree depends only on its own items. With `threads_depth` > 0 and enough
    /// items, the second half is built on another thread.
    fn build<K: TreeNodes>(
        &self,
        nodes: &mut [K::Node],
        base: usize,
        items: &mut [([f32; 3], u32)],
        threads_depth: u32,
    ) {
        if threads_depth == 0 || items.len() < PARALLEL_SUBTREE {
            self.build_here::<K>(nodes, base, items);
            return;
        }
        let (axis, half) = split(items);
        let (root, below) = nodes.split_at_mut(1);
        let (first_nodes, second_nodes) = below.split_at_mut(2 * half - 1);
        let (first_items, second_items) = items.split_at_mut(half);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                self.build::<K>(
                    second_nodes,
                    base + 2 * half,
                    second_items,
                    threads_depth - 1,
                )
            });
            self.build::<K>(first_nodes, base + 1, first_items, threads_depth - 1);
        });
        if let (Some(slot), Some(a), Some(b)) =
            (root.first_mut(), first_nodes.first(), second_nodes.first())
        {
            K::set_inner(
                slot,
                (base + 1) as u32,
                (base + 2 * half) as u32,
                axis as u8,
            );
            K::close_inner(slot, a, b);
        }
    }

    /// [`Subtree::build`] on this thread.
    fn build_here<K: TreeNodes>(
        &self,
        nodes: &mut [K::Node],
        base: usize,
        items: &mut [([f32; 3], u32)],
    ) {
        let count = items.len();
        // (node index within `nodes`, start, end) of ranges of `items` still to place.
        let mut stack = vec![(0usize, 0usize, count)];
        while let Some((node, start, end)) = stack.pop() {
            let Some(range) = items.get_mut(start..end) else {
                continue;
            };
            if let [(_, item)] = range {
                let (min, max) = self
                    .boxes
                    .get(*item as usize)
                    .copied()
                    .unwrap_or(([0.0; 3], [0.0; 3]));
                if let Some(slot) = nodes.get_mut(node) {
                    K::set_leaf(
                        slot,
                        min.map(|v| v - self.leaf_padding),
                        max.map(|v| v + self.leaf_padding),
                        *item,
                    );
                }
                continue;
            }
            let (axis, half) = split(range);
            let first = node + 1;
            let second = node + 2 * half;
            if let Some(slot) = nodes.get_mut(node) {
                K::set_inner(
                    slot,
                    (base + first) as u32,
                    (base + second) as u32,
                    axis as u8,
                );
            }
            stack.push((second, start + half, end));
            stack.push((first, start, start + half));
        }
        // Children come after their parent in pre-order: one backward pass fills inner boxes.
        for node in (0..nodes.len()).rev() {
            let Some(&current) = nodes.get(node) else {
                continue;
            };
            if K::is_leaf(&current) {
                continue;
            }
            let (first, second) = K::children(&current);
            let (Some(&a), Some(&b)) = (
                nodes.get((first as usize).wrapping_sub(base)),
                nodes.get((second as usize).wrapping_sub(base)),
            ) else {
                continue;
            };
            if let Some(slot) = nodes.get_mut(node) {
                K::close_inner(slot, &a, &b);
            }
        }
    }
}

/// Splits `range` (at least two items) at its median along the axis of the centroids'
/// largest spread: returns the axis and the size of the first half, whose items are then
/// the lower ones.
fn split(range: &mut [([f32; 3], u32)]) -> (usize, usize) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for (c, _) in range.iter() {
        for k in 0..3 {
            // Plain comparisons (NaN never wins) compile to branch-free min/max; this
            // loop is the builder's hot spot.
            if c[k] < lo[k] {
                lo[k] = c[k];
            }
            if c[k] > hi[k] {
                hi[k] = c[k];
            }
        }
    }
    let spread = [0, 1, 2].map(|k| hi[k] - lo[k]);
    let mut axis = 0;
    for k in 1..3 {
        // `>`: ties keep the lower axis; NaN spreads are never chosen over a number.
        if spread[k] > spread[axis] || spread[axis].is_nan() {
            axis = k;
        }
    }
    let half = range.len() / 2;
    range.select_nth_unstable_by(half, |a, b| {
        a.0[axis].total_cmp(&b.0[axis]).then(a.1.cmp(&b.1))
    });
    (axis, half)
}

/// Depth of each polygon's leaf in the balanced AABB tree of `mesh` (the root is depth 0):
/// what `render --mode aabb-depth` and the inspector's AABB layer colour by.
pub fn leaf_depths(mesh: &NavMesh) -> Vec<u32> {
    let (boxes, centroids) = polygon_boxes(mesh);
    let tree = balanced_aabb_tree(&boxes, &centroids, 0.0);
    let mut depth = vec![0u32; mesh.polygons.len()];
    let mut stack = if tree.is_empty() {
        vec![]
    } else {
        vec![(0u32, 0u32)]
    };
    // Each node is pushed once by its parent; the bound guards a malformed tree.
    let mut visited = 0usize;
    while let Some((node, d)) = stack.pop() {
        visited += 1;
        if visited > tree.len() {
            break;
        }
        let Some(n) = tree.get(node as usize) else {
            continue;
        };
        match n.item {
            Some(item) => {
                if let Some(slot) = depth.get_mut(item as usize) {
                    *slot = d;
                }
            }
            None => {
                stack.push((n.second, d + 1));
                stack.push((n.first, d + 1));
            }
        }
    }
    depth
}

/// Bounding box and centroid of every polygon (centroid = mean of its corners, summed in
/// `f64`).
pub fn polygon_boxes(mesh: &NavMesh) -> (Vec<Bounds>, Vec<[f32; 3]>) {
    let mut boxes = Vec::with_capacity(mesh.polygons.len());
    let mut centroids = Vec::with_capacity(mesh.polygons.len());
    for polygon in mesh.polygons.iter() {
        let first = polygon.first().map_or([0.0; 3], |&v| mesh.vertex(v));
        let (mut min, mut max) = (first, first);
        let mut sum = [0f64; 3];
        for &v in polygon {
            let p = mesh.vertex(v);
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
                sum[k] += f64::from(p[k]);
            }
        }
        let n = polygon.len().max(1) as f64;
        boxes.push((min, max));
        centroids.push(sum.map(|s| (s / n) as f32));
    }
    (boxes, centroids)
}

/// Point location: the polygons whose projection on the XY plane contains `point` (edges
/// included), found by descending `tree` (built over `mesh`'s polygons) through the boxes
/// whose XY extent holds the point. Ascending polygon order. The walk is iterative and visits
/// each node at most once, so a malformed tree cannot loop.
pub fn polygons_at_xy(mesh: &NavMesh, tree: &[AabbNode], point: [f32; 2]) -> Vec<u32> {
    let mut found = Vec::new();
    let mut visited = vec![false; tree.len()];
    let mut stack = if tree.is_empty() {
        Vec::new()
    } else {
        vec![0u32]
    };
    while let Some(index) = stack.pop() {
        let Some(node) = tree.get(index as usize) else {
            continue;
        };
        match visited.get_mut(index as usize) {
            Some(seen) if !*seen => *seen = true,
            _ => continue,
        }
        if point[0] < node.min[0]
            || point[0] > node.max[0]
            || point[1] < node.min[1]
            || point[1] > node.max[1]
        {
            continue;
        }
        match node.item {
            Some(item) if polygon_contains_xy(mesh, item as usize, point) => found.push(item),
            Some(_) => {}
            None => {
                stack.push(node.second);
                stack.push(node.first);
            }
        }
    }
    found.sort_unstable();
    found
}

/// True when the XY projection of polygon `polygon` (any winding, convex or not) contains
/// `point`, boundary included: crossing-number test plus an on-edge check.
pub fn polygon_contains_xy(mesh: &NavMesh, polygon: usize, point: [f32; 2]) -> bool {
    let corners = mesh.polygons.get(polygon);
    let (px, py) = (f64::from(point[0]), f64::from(point[1]));
    let mut inside = false;
    for (i, &a) in corners.iter().enumerate() {
        let b = corners.get((i + 1) % corners.len()).copied().unwrap_or(a);
        let (a, b) = (mesh.vertex(a), mesh.vertex(b));
        let (ax, ay, bx, by) = (
            f64::from(a[0]),
            f64::from(a[1]),
            f64::from(b[0]),
            f64::from(b[1]),
        );
        let cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        let within = px >= ax.min(bx) && px <= ax.max(bx) && py >= ay.min(by) && py <= ay.max(by);
        if cross == 0.0 && within {
            return true;
        }
        if (ay > py) != (by > py) && px < ax + (py - ay) * (bx - ax) / (by - ay) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;

    fn strip(n: u32) -> NavMesh {
        // n unit squares along x, two triangles each.
        let mut mesh = NavMesh::default();
        for i in 0..=n {
            mesh.vertices.push([i as f32, 0.0, 0.0]);
            mesh.vertices.push([i as f32, 1.0, 0.0]);
        }
        let s = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        for i in 0..n {
            let (a, b, c, d) = (2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
            mesh.push_polygon(&[a, b, c], s);
            mesh.push_polygon(&[a, c, d], s);
        }
        mesh
    }

    #[test]
    fn leaf_depths_of_a_balanced_tree() {
        // Two squares = four triangles: the root splits them 2 + 2, each half 1 + 1, so
        // every leaf is at depth 2. One face is the root itself; no face, no depth.
        assert_eq!(leaf_depths(&strip(2)), vec![2, 2, 2, 2]);
        let mut one = strip(1);
        one.polygons = crate::ir::Polygons::from_triangles(&[[0, 1, 2]]);
        one.surfaces.truncate(1);
        assert_eq!(leaf_depths(&one), vec![0]);
        assert_eq!(leaf_depths(&NavMesh::default()), Vec::<u32>::new());
    }

    #[test]
    fn hand_built_tree_of_three_items() {
        // Centroids along x at 0, 2, 1: the x spread wins; the median (by x) is item 2 (x=1),
        // so the first child holds item 0 alone and the second holds items 2 and 1.
        let boxes = [
            ([0.0, 0.0, 0.0], [0.5, 1.0, 0.0]),
            ([2.0, 0.0, 0.0], [2.5, 1.0, 0.0]),
            ([1.0, 0.0, 0.0], [1.5, 1.0, 0.0]),
        ];
        let centroids = [[0.25, 0.5, 0.0], [2.25, 0.5, 0.0], [1.25, 0.5, 0.0]];
        let tree = balanced_aabb_tree(&boxes, &centroids, 0.0);
        assert_eq!(tree.len(), 5);
        assert_eq!(
            (tree[0].first, tree[0].second, tree[0].split_axis),
            (1, 2, 0)
        );
        assert_eq!(tree[1].item, Some(0));
        assert_eq!((tree[2].first, tree[2].second), (3, 4));
        assert_eq!(tree[3].item, Some(2));
        assert_eq!(tree[4].item, Some(1));
        assert_eq!(tree[0].min, [0.0, 0.0, 0.0]);
        assert_eq!(tree[0].max, [2.5, 1.0, 0.0]);
        assert_eq!(tree[2].min, [1.0, 0.0, 0.0]);
        let padded = balanced_aabb_tree(&boxes, &centroids, 0.01);
        assert_eq!(padded[1].min, [-0.01, -0.01, -0.01]);
    }

    #[test]
    fn balanced_pre_order_covering_every_item_once() {
        let mesh = strip(37);
        let (boxes, centroids) = polygon_boxes(&mesh);
        let tree = balanced_aabb_tree(&boxes, &centroids, 0.0);
        assert_eq!(tree.len(), 2 * 74 - 1);
        let mut seen = vec![0; 74];
        // Count the items below each node to check the ⌊n/2⌋ | ⌈n/2⌉ split.
        let mut below = vec![0usize; tree.len()];
        for (i, node) in tree.iter().enumerate().rev() {
            match node.item {
                Some(item) => {
                    seen[item as usize] += 1;
                    below[i] = 1;
                }
                None => {
                    assert_eq!(node.first as usize, i + 1);
                    let (a, b) = (below[node.first as usize], below[node.second as usize]);
                    assert_eq!(a, (a + b) / 2);
                    below[i] = a + b;
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert!(balanced_aabb_tree(&[], &[], 0.0).is_empty());
    }

    /// The tree built on several threads equals the one built on one, node for node, and is
    /// a valid pre-order tree over every item (large enough for the threaded split, with
    /// repeated centroids so that ties are broken by item number).
    #[test]
    fn threaded_build_equals_the_single_threaded_one() {
        let count = 5 * PARALLEL_SUBTREE + 17;
        let mut state = 0x9e37_79b9u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 1000) as f32 / 10.0
        };
        let centroids: Vec<[f32; 3]> = (0..count)
            .map(|_| [next(), next(), next() / 50.0])
            .collect();
        let boxes: Vec<Bounds> = centroids
            .iter()
            .map(|c| (c.map(|v| v - 0.5), c.map(|v| v + 0.5)))
            .collect();
        let threaded = balanced_aabb_tree(&boxes, &centroids, 0.01);
        let empty = AabbNode {
            min: [0.0; 3],
            max: [0.0; 3],
            item: None,
            first: NO_CHILD,
            second: NO_CHILD,
            split_axis: 0,
        };
        let mut single = vec![empty; 2 * count - 1];
        assert!(tree_with_threads_depth::<AabbNode>(
            &boxes,
            &centroids,
            0.01,
            0,
            &mut single
        ));
        for depth in [1, 2, 3] {
            let mut nodes = vec![empty; 2 * count - 1];
            assert!(tree_with_threads_depth::<AabbNode>(
                &boxes, &centroids, 0.01, depth, &mut nodes
            ));
            assert!(nodes == single, "depth {depth}");
        }
        assert!(threaded == single);
        let mut seen = vec![false; count];
        for (i, node) in single.iter().enumerate() {
            match node.item {
                Some(item) => seen[item as usize] = true,
                None => {
                    let (a, b) = (&single[node.first as usize], &single[node.second as usize]);
                    assert_eq!(node.first as usize, i + 1);
                    for k in 0..3 {
                        assert_eq!(node.min[k], a.min[k].min(b.min[k]));
                        assert_eq!(node.max[k], a.max[k].max(b.max[k]));
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn point_location_agrees_with_brute_force() {
        let mesh = strip(20);
        let (boxes, centroids) = polygon_boxes(&mesh);
        let tree = balanced_aabb_tree(&boxes, &centroids, 0.0);
        let mut state = 0x1234_5678u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = (state % 2300) as f32 / 100.0 - 1.0;
            let y = ((state >> 20) % 160) as f32 / 100.0 - 0.3;
            let brute: Vec<u32> = (0..mesh.polygons.len() as u32)
                .filter(|&p| polygon_contains_xy(&mesh, p as usize, [x, y]))
                .collect();
            assert_eq!(polygons_at_xy(&mesh, &tree, [x, y]), brute, "({x}, {y})");
        }
        // Inside square 3's lower triangle, on the shared diagonal, outside.
        assert_eq!(polygons_at_xy(&mesh, &tree, [3.75, 0.25]), vec![6]);
        assert_eq!(polygons_at_xy(&mesh, &tree, [3.5, 0.5]), vec![6, 7]);
        assert!(polygons_at_xy(&mesh, &tree, [25.0, 0.5]).is_empty());
    }

    #[test]
    fn malformed_tree_does_not_loop() {
        let mesh = strip(1);
        let cyclic = vec![AabbNode {
            min: [-9.0; 3],
            max: [9.0; 3],
            item: None,
            first: 0,
            second: 0,
            split_axis: 0,
        }];
        assert!(polygons_at_xy(&mesh, &cyclic, [0.5, 0.5]).is_empty());
    }
}
