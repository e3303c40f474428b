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
///
/// The chunks are small (several per thread) and handed out to whichever thread is free, so
/// that uneven items (tiles with 3 and with 120 walkable triangles) do not leave a core idle;
/// each chunk's result is stored in its own slot, which keeps the order.
pub fn parallel_chunks<T: Send>(
    count: usize,
    weight: usize,
    work: &(dyn Fn(std::ops::Range<usize>) -> Vec<T> + Sync),
) -> Vec<T> {
    let threads = crate::threads::available();
    parallel_chunks_on(threads, count, weight, work)
}

/// [`parallel_chunks`] on at most `threads` threads (the calling one included), for callers
/// that keep a core busy with something else meanwhile.
pub fn parallel_chunks_on<T: Send>(
    threads: usize,
    count: usize,
    weight: usize,
    work: &(dyn Fn(std::ops::Range<usize>) -> Vec<T> + Sync),
) -> Vec<T> {
    let threads = threads.min(8).min(count);
    if threads <= 1 || weight < 200_000 {
        return work(0..count);
    }
    let chunks = (threads * 16).min(count);
    let per = count.div_ceil(chunks);
    let chunks = count.div_ceil(per);
    let range = |k: usize| (k * per).min(count)..((k + 1) * per).min(count);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let run = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if k >= chunks {
                return done;
            }
            done.push((k, work(range(k))));
        }
    };
    let mut slots: Vec<Option<Vec<T>>> = (0..chunks).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(run)).collect();
        // The calling thread works too.
        let mine = run();
        for (k, part) in handles
            .into_iter()
            .filter_map(|handle| handle.join().ok())
            .flatten()
            .chain(mine)
        {
            if let Some(slot) = slots.get_mut(k) {
                *slot = Some(part);
            }
        }
    });
    let mut out = Vec::new();
    for (k, part) in slots.into_iter().enumerate() {
        match part {
            Some(part) => out.extend(part),
            // A chunk whose worker failed is redone here.
            None => out.extend(work(range(k))),
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
///
/// Same search as [`dijkstra`], but the first hop of every node is carried along: when a
/// settled node `u` improves `v`, `v`'s first hop becomes `u`'s (or `v` itself when `u` is the
/// root). `u` is settled, so its first hop is final, and `v` keeps the hop of its final parent
/// — the ancestor of `v` whose parent is the root, exactly as walking the parent pointers up
/// would find (cost order alone would not: zero-length steps between duplicated triangles tie).
pub fn next_hop_rows(adjacency: &[Vec<(usize, f32)>], roots: std::ops::Range<usize>) -> Vec<usize> {
    let n = adjacency.len();
    let first_root = roots.start;
    let mut hops = vec![usize::MAX; n * roots.len()];
    let mut cost = vec![f32::INFINITY; n];
    let mut heap = BinaryHeap::new();
    for root in roots {
        let Some(first) = hops.get_mut((root - first_root) * n..(root - first_root + 1) * n) else {
            continue;
        };
        cost.fill(f32::INFINITY);
        heap.clear();
        if let Some(c) = cost.get_mut(root) {
            *c = 0.0;
        }
        heap.push(heap_key(0.0, root));
        while let Some(Reverse(key)) = heap.pop() {
            let c = f32::from_bits((key >> 32) as u32);
            let node = (key & 0xFFFF_FFFF) as usize;
            if cost.get(node).is_some_and(|&best| c > best) {
                continue;
            }
            let hop_here = first.get(node).copied().unwrap_or(usize::MAX);
            for &(next, w) in adjacency.get(node).map(Vec::as_slice).unwrap_or(&[]) {
                if w.is_nan() || w < 0.0 {
                    continue;
                }
                let candidate = c + w;
                if let Some(slot) = cost.get_mut(next)
                    && candidate < *slot
                {
                    *slot = candidate;
                    if let Some(h) = first.get_mut(next) {
                        *h = if node == root { next } else { hop_here };
                    }
                    heap.push(heap_key(candidate, next));
                }
            }
        }
        // The root keeps "none" (it is never improved: costs are ≥ 0).
        if let Some(h) = first.get_mut(root) {
            *h = usize::MAX;
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
        for threads in [0, 1, 2, 3, 7, 64] {
            let squares = parallel_chunks_on(threads, 1000, 1_000_000, &|range| {
                range.map(|i| i * i).collect()
            });
            assert_eq!(squares, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        }
        assert!(parallel_chunks(0, 1_000_000, &|range| range.collect::<Vec<_>>()).is_empty());
    }
}
