//! Shortest paths on small weighted graphs (NWN2 per-tile path tables and island paths).
//!
//! Costs accumulate in `f32` and nodes are settled by (cost, index): that is what reproduces
//! the NWN2 toolset's tie-breaking, and it makes every result deterministic. All-pairs work
//! is split over threads in contiguous chunks and concatenated in order, so the output does
//! not depend on the thread count.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Heap key: the f32 cost's bits (monotone for costs ≥ 0) above the node index, so that
/// the min-heap pops by cost, then by node index, with integer comparisons only.
fn heap_key(cost: f32, node: usize) -> Reverse<u64> {
    Reverse((u64::from(cost.to_bits()) << 32) | node as u64)
}

/// Dijkstra from `source` over `adjacency`: for every node its cost and its parent in the
/// shortest-path tree (`usize::MAX` for the source and unreachable nodes). Costs accumulate
/// in f32 (what reproduces the toolset's tie-breaking); nodes are settled by (cost, index);
/// a parent changes only on a strictly smaller cost. Negative or NaN weights (possible in
/// a hostile file's island distances) are skipped, so the search always terminates.
pub fn dijkstra(
    adjacency: &[Vec<(usize, f32)>],
    source: usize,
    cost: &mut Vec<f32>,
    parent: &mut Vec<usize>,
    heap: &mut BinaryHeap<Reverse<u64>>,
) {
    let n = adjacency.len();
    cost.clear();
    cost.resize(n, f32::INFINITY);
    parent.clear();
    parent.resize(n, usize::MAX);
    heap.clear();
    if let Some(c) = cost.get_mut(source) {
        *c = 0.0;
    }
    heap.push(heap_key(0.0, source));
    while let Some(Reverse(key)) = heap.pop() {
        let c = f32::from_bits((key >> 32) as u32);
        let node = (key & 0xFFFF_FFFF) as usize;
        if cost.get(node).is_some_and(|&best| c > best) {
            continue;
        }
        for &(next, w) in adjacency.get(node).map(Vec::as_slice).unwrap_or(&[]) {
            if w.is_nan() || w < 0.0 {
                continue;
            }
            let candidate = c + w;
            if let Some(slot) = cost.get_mut(next)
                && candidate < *slot
            {
                *slot = candidate;
                if let Some(p) = parent.get_mut(next) {
                    *p = node;
                }
                heap.push(heap_key(candidate, next));
            }
        }
    }
}

/// Runs `work` on `0..count` split into contiguous chunks on a few threads (only when
/// `weight` — a rough operation count — makes it worth it) and concatenates the results in
/// order, so the output does not depend on the thread count.
pub fn parallel_chunks<T: Send>(
    count: usize,
    weight: usize,
    work: &(dyn Fn(std::ops::Range<usize>) -> Vec<T> + Sync),
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
        .min(count);
    if threads <= 1 || weight < 200_000 {
        return work(0..count);
    }
    let per = count.div_ceil(threads);
    let results: Vec<Option<Vec<T>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let range = (k * per).min(count)..((k + 1) * per).min(count);
                (range.clone(), scope.spawn(move || work(range)))
            })
            .collect();
        handles
            .into_iter()
            .map(|(_, handle)| handle.join().ok())
            .collect()
    });
    let mut out = Vec::new();
    for (k, part) in results.into_iter().enumerate() {
        match part {
            Some(part) => out.extend(part),
            // A worker that failed is redone here.
            None => out.extend(work((k * per).min(count)..((k + 1) * per).min(count))),
        }
    }
    out
}

/// All-pairs next hops on a small graph: `hops[s·n + t]` = the node after `s` on a shortest
/// path to `t`, `usize::MAX` for none (and on the diagonal).
pub fn next_hops(adjacency: &[Vec<(usize, f32)>]) -> Vec<usize> {
    let n = adjacency.len();
    let edges: usize = adjacency.iter().map(Vec::len).sum();
    parallel_chunks(n, n.saturating_mul(edges), &|roots| {
        next_hop_rows(adjacency, roots)
    })
}

/// Rows `roots` of [`next_hops`] (`(root − roots.start)·n + t`), computed on this thread.
pub fn next_hop_rows(adjacency: &[Vec<(usize, f32)>], roots: std::ops::Range<usize>) -> Vec<usize> {
    let n = adjacency.len();
    let first_root = roots.start;
    let mut hops = vec![usize::MAX; n * roots.len()];
    let (mut cost, mut parent, mut heap) = (Vec::new(), Vec::new(), BinaryHeap::new());
    let mut first = vec![usize::MAX; n];
    let mut chain = Vec::new();
    for root in roots {
        dijkstra(adjacency, root, &mut cost, &mut parent, &mut heap);
        {
            // Tree rooted at the source: the first hop of t is the ancestor of t whose parent
            // is the root. Resolved by walking up the parent pointers with memoisation (not by
            // cost order: zero-length steps between duplicated triangles tie in cost).
            first.clear();
            first.resize(n, usize::MAX);
            for t in 0..n {
                if t == root || cost.get(t).is_none_or(|c| !c.is_finite()) {
                    continue;
                }
                chain.clear();
                let mut cur = t;
                let mut hop = usize::MAX;
                for _ in 0..=n {
                    if let Some(&known) = first.get(cur)
                        && known != usize::MAX
                    {
                        hop = known;
                        break;
                    }
                    chain.push(cur);
                    match parent.get(cur).copied() {
                        Some(p) if p == root => {
                            hop = cur;
                            break;
                        }
                        Some(p) if p != usize::MAX => cur = p,
                        _ => break,
                    }
                }
                for &c in &chain {
                    if let Some(slot) = first.get_mut(c) {
                        *slot = hop;
                    }
                }
                if let Some(slot) = hops.get_mut((root - first_root) * n + t) {
                    *slot = hop;
                }
            }
        }
    }
    hops
}

/// All-pairs shortest path costs (f32 sums, widened), `f64::INFINITY` when unreachable, 0 on
/// the diagonal.
pub fn shortest_costs(adjacency: &[Vec<(usize, f32)>]) -> Vec<f64> {
    let n = adjacency.len();
    let mut all = vec![f64::INFINITY; n * n];
    let (mut cost, mut parent, mut heap) = (Vec::new(), Vec::new(), BinaryHeap::new());
    for s in 0..n {
        dijkstra(adjacency, s, &mut cost, &mut parent, &mut heap);
        if let Some(row) = all.get_mut(s * n..(s + 1) * n) {
            for (slot, &c) in row.iter_mut().zip(&cost) {
                *slot = f64::from(c);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_hops_follow_shortest_centre_distances() {
        // 0 - 1 - 2 in a line (1 m steps) plus a 3 m shortcut 0 - 2 that is longer than 2 m.
        let adjacency = vec![
            vec![(1, 1.0), (2, 3.0)],
            vec![(0, 1.0), (2, 1.0)],
            vec![(1, 1.0), (0, 3.0)],
        ];
        let hops = next_hops(&adjacency);
        let none = usize::MAX;
        assert_eq!(hops, vec![none, 1, 1, 0, none, 2, 1, 1, none]);
        // Unreachable node 3.
        let mut adjacency = adjacency;
        adjacency.push(Vec::new());
        let hops = next_hops(&adjacency);
        assert_eq!(hops[3], none);
        assert_eq!(hops[3 * 4], none);
    }

    #[test]
    fn ties_settle_by_lower_index_and_bad_weights_are_skipped() {
        // Two equal 2-step routes 0-1-3 and 0-2-3: node 3's parent is the lower index, 1.
        let adjacency = vec![
            vec![(1, 1.0), (2, 1.0)],
            vec![(0, 1.0), (3, 1.0)],
            vec![(0, 1.0), (3, 1.0)],
            vec![(1, 1.0), (2, 1.0), (0, -5.0), (0, f32::NAN)],
        ];
        let hops = next_hops(&adjacency);
        assert_eq!(hops[3], 1);
        let costs = shortest_costs(&adjacency);
        assert_eq!(costs[3], 2.0);
        assert_eq!(costs[3 * 4], 2.0); // the negative and NaN shortcuts back to 0 are ignored
        assert_eq!(costs[0], 0.0);
        let rows = next_hop_rows(&adjacency, 1..3);
        assert_eq!(rows.len(), 8);
        assert_eq!(&rows[..4], &hops[4..8]);
    }

    #[test]
    fn parallel_chunks_keep_order_whatever_the_split() {
        let squares = parallel_chunks(1000, 1_000_000, &|range| range.map(|i| i * i).collect());
        assert_eq!(squares, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        assert!(parallel_chunks(0, 1_000_000, &|range| range.collect::<Vec<_>>()).is_empty());
    }
}
