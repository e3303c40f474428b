//! `diff --reach`'s comparison on hand-built floors.
#![allow(clippy::unwrap_used)]

use walkmesh_route::diff::reach_diff;
use walkmesh_route::fixtures::open_floor;

#[test]
fn an_identical_mesh_differs_nowhere() {
    let a = open_floor(5, 3);
    let d = reach_diff(&a, &a.clone(), 300, 7);
    assert_eq!((d.pairs, d.off_b, d.differing.len()), (300, 0, 0));
}

#[test]
fn a_cut_column_separates_the_pairs_across_it() {
    // 5 × 1 cells; B loses cell x = 2 (faces 4 and 5), cutting x < 2 from x > 3.
    let a = open_floor(5, 1);
    let mut b = a.clone();
    b.surfaces[4].walkable = false;
    b.surfaces[5].walkable = false;
    let d = reach_diff(&a, &b, 400, 7);
    assert_eq!(d.pairs, 400);
    // About 1 − (4/5)² = 36 % of the pairs touch the cut cell (off B) and 2·(2/5)² = 32 %
    // straddle it: both must occur.
    assert!(d.off_b > 50, "{}", d.off_b);
    assert!(d.differing.len() > 30, "{}", d.differing.len());
    for pair in &d.differing {
        assert!(pair.reachable_in_a && !pair.reachable_in_b);
        let (left, right) = (pair.from[0].min(pair.to[0]), pair.from[0].max(pair.to[0]));
        assert!(left <= 2.0 && right >= 3.0, "{pair:?}");
    }
    assert_eq!(d, reach_diff(&a, &b, 400, 7), "deterministic");
    // The other way round every point of B is on A, and A joins what B cut.
    let back = reach_diff(&b, &a, 400, 7);
    assert_eq!(back.off_b, 0);
    assert!(!back.differing.is_empty());
    assert!(
        back.differing
            .iter()
            .all(|p| !p.reachable_in_a && p.reachable_in_b)
    );
}
