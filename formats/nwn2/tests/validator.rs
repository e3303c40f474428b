//! The validator finds what it claims to: each mutation of a clean file yields its code.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod common;

use walkmesh_core::{ReadOptions, Severity};
use walkmesh_nwn2::aswm::{self, Aswm};
use walkmesh_nwn2::container;

fn codes(a: &Aswm) -> Vec<(Severity, String)> {
    codes_with(a, true)
}

fn codes_with(a: &Aswm, recompute_derived: bool) -> Vec<(Severity, String)> {
    let body = aswm::serialize(a);
    let trwh = container::Trwh {
        width: a.grid_width,
        height: a.grid_height,
        id: 0,
    }
    .bytes();
    let file = container::write(
        2,
        3,
        &[(*b"TRWH", &trwh), (*b"ASWM", &aswm::wrap(&body, None))],
    );
    let options = ReadOptions {
        recompute_derived,
        ..ReadOptions::default()
    };
    walkmesh_nwn2::validate::validate_bytes(&file, &options)
        .unwrap()
        .into_iter()
        .map(|d| (d.severity, d.code))
        .collect()
}

fn has_error(a: &Aswm, code: &str) -> bool {
    codes(a)
        .iter()
        .any(|(s, c)| *s == Severity::Error && c == code)
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn mutations_are_reported_with_their_codes() {
    let path = common::corpus_file("abandoned house.trx");
    let clean = walkmesh_nwn2::file::parse(&std::fs::read(path).unwrap(), 1 << 30)
        .unwrap()
        .aswm;
    assert!(codes(&clean).iter().all(|(s, _)| *s != Severity::Error));

    let mut a = clean.clone();
    a.triangles[3].centre[0] += 0.5;
    assert!(has_error(&a, "trx.triangle_centre"));

    let mut a = clean.clone();
    a.triangles[0].edges[0] = u32::MAX;
    assert!(has_error(&a, "trx.triangle_edge_out_of_range"));

    let mut a = clean.clone();
    let e = a.triangles[0].edges[1] as usize;
    a.edges[e].triangles = [0, u32::MAX];
    assert!(has_error(&a, "trx.edge_link_mismatch"));

    // A tile table entry replaced by the diagonal value, by a non-neighbour, by "no path".
    let t = a
        .tiles
        .iter()
        .position(|t| t.node_to_local.len() > 5)
        .unwrap();
    let n = clean.tiles[t].node_to_local.len();
    let mut a = clean.clone();
    a.tiles[t].nodes[0] = 1;
    assert!(has_error(&a, "trx.path_diagonal"));
    let mut a = clean.clone();
    let (s, d) = (0usize, n - 1);
    let stored = a.tiles[t].nodes[s * n + d] & 0x7F;
    let stranger = (0..n as u8)
        .find(|&x| {
            x as usize != s && x != stored && !clean.tiles[t].nodes.is_empty() && {
                let off = clean.tiles[t].triangles_offset as usize;
                let tri = clean.triangles[off + clean.tiles[t].node_to_local[s] as usize];
                let x_tri = (off + clean.tiles[t].node_to_local[x as usize] as usize) as u32;
                !tri.neighbours.contains(&x_tri)
            }
        })
        .unwrap();
    a.tiles[t].nodes[s * n + d] = stranger;
    assert!(has_error(&a, "trx.path_next_not_adjacent"));
    let mut a = clean.clone();
    if a.tiles[t].nodes[s * n + d] != 0xFF {
        a.tiles[t].nodes[s * n + d] = 0xFF;
        assert!(has_error(&a, "trx.path_reachability"));
    }

    // A next hop replaced by another neighbour whose own path avoids the node: the path
    // still arrives, but longer than the shortest (costs here are followed independently).
    let mut a = clean.clone();
    assert!(longer_detour(&mut a), "no tile offers a detour to test");
    assert!(has_error(&a, "trx.path_not_shortest"));
    // convert's output check skips the recomputed path tables (its writer just made them)
    // but keeps every other rule.
    a.triangles[3].centre[0] += 0.5;
    let quick = codes_with(&a, false);
    assert!(!quick.iter().any(|(_, c)| c == "trx.path_not_shortest"));
    assert!(quick.iter().any(|(_, c)| c == "trx.triangle_centre"));

    let mut a = clean.clone();
    a.tiles[t].node_to_local.swap(0, 1);
    assert!(has_error(&a, "trx.tile_node_list"));

    let mut a = clean.clone();
    a.tiles[1].triangles_offset += 1;
    assert!(has_error(&a, "trx.tiles_not_consecutive"));

    let mut a = clean.clone();
    let w = a.triangles.iter().position(|t| t.island != 0xFFFF).unwrap();
    a.triangles[w].island = 0xFFFF;
    assert!(has_error(&a, "trx.walkable_island_mismatch"));

    let mut a = clean.clone();
    a.islands[0].centre[0] += 1.0;
    assert!(has_error(&a, "trx.island_centre"));

    let mut a = clean.clone();
    a.islands[0].distances[0] *= 2.0;
    assert!(has_error(&a, "trx.island_distance"));

    let mut a = clean.clone();
    let k = a
        .island_paths
        .iter()
        .position(|p| p.next != 0xFFFF)
        .unwrap();
    a.island_paths[k].weight += 3.0;
    assert!(has_error(&a, "trx.island_path_weight"));

    let mut a = clean.clone();
    a.island_paths[1].next = 0xFFFF;
    assert!(has_error(&a, "trx.island_path_reachability"));

    let mut a = clean.clone();
    a.island_paths[1].next = 999;
    assert!(has_error(&a, "trx.island_path_next_out_of_range"));

    // Loose: tile counts off by one is only a warning.
    let mut a = clean.clone();
    a.tiles[0].vertex_count += 1;
    let found = codes(&a);
    assert!(
        found
            .iter()
            .any(|(s, c)| *s == Severity::Warning && c == "trx.tile_counts")
    );
    assert!(found.iter().all(|(s, _)| *s != Severity::Error));
}

/// Centre distance between two triangles (XY), as the toolset's path tables measure it.
fn step(a: &Aswm, x: usize, y: usize) -> f64 {
    let (p, q) = (a.triangles[x].centre, a.triangles[y].centre);
    f64::from(((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt())
}

/// Cost of following tile `ti`'s table from node `s` to node `t`, or None if it does not
/// arrive within n steps or passes through `avoid`.
fn table_cost(a: &Aswm, ti: usize, s: usize, t: usize, avoid: usize) -> Option<f64> {
    let tile = &a.tiles[ti];
    let n = tile.node_to_local.len();
    let off = tile.triangles_offset as usize;
    let tri = |node: usize| off + tile.node_to_local[node] as usize;
    let (mut cur, mut cost) = (s, 0.0);
    for _ in 0..n {
        if cur == t {
            return Some(cost);
        }
        let next = tile.nodes[cur * n + t];
        if next == 0xFF || next as usize >= n || next as usize == avoid {
            return None;
        }
        cost += step(a, tri(cur), tri(next as usize));
        cur = next as usize;
    }
    None
}

/// Rewrites one table entry (s → t) to go through another neighbour u of s whose own path
/// to t avoids s and is at least 1% longer in total. Returns whether one was found.
fn longer_detour(a: &mut Aswm) -> bool {
    for ti in 0..a.tiles.len() {
        let tile = a.tiles[ti].clone();
        let n = tile.node_to_local.len();
        let off = tile.triangles_offset as usize;
        for s in 0..n {
            let s_tri = off + tile.node_to_local[s] as usize;
            let neighbours: Vec<usize> = (0..n)
                .filter(|&u| {
                    u != s
                        && a.triangles[s_tri]
                            .neighbours
                            .contains(&((off + tile.node_to_local[u] as usize) as u32))
                })
                .collect();
            for t in 0..n {
                let Some(shortest) = table_cost(a, ti, s, t, usize::MAX) else {
                    continue;
                };
                for &u in &neighbours {
                    let u_tri = off + tile.node_to_local[u] as usize;
                    if tile.nodes[s * n + t] as usize == u {
                        continue;
                    }
                    if let Some(rest) = table_cost(a, ti, u, t, s) {
                        let detour = step(a, s_tri, u_tri) + rest;
                        if detour > shortest * 1.01 + 0.01 {
                            a.tiles[ti].nodes[s * n + t] = u as u8;
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}
