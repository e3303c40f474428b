//! The A* queue entry of the surface router (over edge crossings) and of the PATH region
//! search: one ordering for both.

use std::cmp::Ordering;

/// One queue entry; `Ord` is reversed so `BinaryHeap` pops the lowest estimate `f` first,
/// ties to the lower node, then to the lower cost so far `g`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Queued {
    /// Cost so far plus the estimate to the goal.
    pub f: f64,
    pub node: u32,
    /// Cost so far.
    pub g: f64,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(other.node.cmp(&self.node))
            .then(other.g.total_cmp(&self.g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BinaryHeap;

    #[test]
    fn the_heap_pops_the_lowest_estimate_then_node_then_cost() {
        let entry = |f, node, g| Queued { f, node, g };
        let mut queue = BinaryHeap::from([
            entry(2.0, 0, 0.0),
            entry(1.0, 5, 1.0),
            entry(1.0, 5, 0.5),
            entry(1.0, 3, 0.9),
        ]);
        let mut popped = Vec::new();
        while let Some(Queued { f, node, g }) = queue.pop() {
            popped.push((f, node, g));
        }
        assert_eq!(
            popped,
            [(1.0, 3, 0.9), (1.0, 5, 0.5), (1.0, 5, 1.0), (2.0, 0, 0.0)]
        );
    }
}
