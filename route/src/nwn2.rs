//! NWN2's own answer (`--method engine` on TRX): the stored tables decide.
//!
//! - Within a tile the face sequence is the path table's chain: from triangle `a` toward `b`,
//!   `nodes[node(a)·N + node(b)]` gives the next triangle (bits 0–6 a node, mapped through
//!   `node_to_local` and the tile's first triangle), until `b`; `0xFF` means no path.
//! - Between tiles, the island path table gives the order of islands (`next` toward the end's
//!   island until it is reached; `0xFFFF`: unreachable). Each hop leaves through the exit
//!   triangle the island lists for the next island, then steps to that triangle's neighbour in
//!   the next island.
//! - Bit 7 ("visible") of the start-to-end entry in one tile: the engine knows the straight
//!   line is walkable and skips its own test, so the route is the straight segment.
//! - Stale tables: a chain step between triangles that share no edge, a chain that loops, or
//!   a stored answer that differs from the geometry's reachability is reported as a warning.
//!
//! The tables come from the `aswm.body` section a fresh read keeps in the provenance.

use walkmesh_core::NavMesh;

use crate::error::{RouteError, TableInconsistency};
use walkmesh_nwn2::aswm::{Aswm, NO_NODE, NONE16};

/// The parsed tables of a TRX and the tile of every triangle.
#[derive(Debug)]
pub struct Tables {
    aswm: Aswm,
    tile_of: Vec<u32>,
}

/// The tables of `mesh` when it was read from a TRX and is unchanged since.
pub fn tables(mesh: &NavMesh) -> Result<Tables, RouteError> {
    let body = mesh
        .fresh_provenance("trx")
        .and_then(|p| p.section("aswm.body"))
        .ok_or(RouteError::TablesNotStored {
            tables: "path",
            file: "TRX",
        })?;
    let (aswm, _) = walkmesh_nwn2::aswm::parse(body)?;
    Ok(Tables::from_aswm(aswm))
}

impl Tables {
    /// The tables of a parsed ASWM body.
    pub fn from_aswm(aswm: Aswm) -> Tables {
        let mut tile_of = vec![u32::MAX; aswm.triangles.len()];
        for (index, tile) in aswm.tiles.iter().enumerate() {
            let first = tile.triangles_offset as usize;
            let last = first.saturating_add(tile.triangle_count as usize);
            for slot in tile_of
                .get_mut(first..last.min(aswm.triangles.len()))
                .unwrap_or(&mut [])
            {
                *slot = index as u32;
            }
        }
        Tables { aswm, tile_of }
    }
}

impl Tables {
    /// Whether the file carries the bake's path tables: a TRX does (islands, one at least
    /// for any walkable floor); a TRN, the toolset's unbaked terrain, has none (every
    /// triangle's island 0 or none, no island records: all six shared TRNs).
    pub fn has_path_tables(&self) -> bool {
        !self.aswm.islands.is_empty()
    }
}

/// What the tables say about one query.
#[derive(Clone, Debug, PartialEq)]
pub enum Corridor {
    /// The triangles from start to end, and whether the engine walks straight (bit 7).
    Faces { faces: Vec<u32>, straight: bool },
    /// The tables say there is no path.
    Unreachable,
}

impl Tables {
    /// The corridor the tables give from triangle `from` to triangle `to`; `Err` names a
    /// table inconsistency (stale or broken tables).
    pub fn corridor(&self, from: u32, to: u32) -> Result<Corridor, RouteError> {
        self.corridor_faces(from, to)
            .map_err(|reason| RouteError::InconsistentTables { reason })
    }

    /// [`Tables::corridor`], with the inconsistency alone.
    fn corridor_faces(&self, from: u32, to: u32) -> Result<Corridor, TableInconsistency> {
        let island = |t: u32| {
            self.aswm
                .triangles
                .get(t as usize)
                .map(|t| t.island)
                .filter(|&i| i != NONE16)
                .ok_or(TableInconsistency::NoIsland { triangle: t })
        };
        let (from_island, to_island) = (island(from)?, island(to)?);
        if from_island == to_island {
            return self.chain(from, to, true);
        }
        let islands = match self.island_order(from_island, to_island)? {
            Some(order) => order,
            None => return Ok(Corridor::Unreachable),
        };
        let mut faces = vec![from];
        let mut current = from;
        for hop in islands.windows(2) {
            let exit = self.exit_towards(hop[0], hop[1])?;
            match self.chain(current, exit, false)? {
                Corridor::Faces { faces: part, .. } => faces.extend(part.into_iter().skip(1)),
                Corridor::Unreachable => {
                    return Err(TableInconsistency::NoPathToExit {
                        from: current,
                        exit,
                    });
                }
            }
            let entry = self.step_into(exit, hop[1])?;
            faces.push(entry);
            current = entry;
        }
        match self.chain(current, to, false)? {
            Corridor::Faces { faces: part, .. } => faces.extend(part.into_iter().skip(1)),
            Corridor::Unreachable => {
                return Err(TableInconsistency::NoPathInIsland { from: current, to });
            }
        }
        Ok(Corridor::Faces {
            faces,
            straight: false,
        })
    }

    /// The island sequence from `from` to `to` by the island path table; `None`: unreachable.
    fn island_order(&self, from: u16, to: u16) -> Result<Option<Vec<u16>>, TableInconsistency> {
        let n = self.aswm.islands.len();
        let mut order = vec![from];
        let mut current = from;
        while current != to {
            if order.len() > n {
                return Err(TableInconsistency::IslandOrderLoops { from, to });
            }
            let entry = self
                .aswm
                .island_paths
                .get(usize::from(current) * n + usize::from(to))
                .ok_or(TableInconsistency::NoIslandPathEntry { from: current, to })?;
            if entry.next == NONE16 {
                return Ok(None);
            }
            current = entry.next;
            order.push(current);
        }
        Ok(Some(order))
    }

    fn exit_towards(&self, from: u16, to: u16) -> Result<u32, TableInconsistency> {
        let island = self
            .aswm
            .islands
            .get(usize::from(from))
            .ok_or(TableInconsistency::IslandMissing { island: from })?;
        island
            .adjacent
            .iter()
            .position(|&a| a == u32::from(to))
            .and_then(|k| island.exits.get(k).copied())
            .ok_or(TableInconsistency::NoExitTowards { from, to })
    }

    /// The neighbour of `exit` that lies in island `island`.
    fn step_into(&self, exit: u32, island: u16) -> Result<u32, TableInconsistency> {
        let triangle = self
            .aswm
            .triangles
            .get(exit as usize)
            .ok_or(TableInconsistency::ExitMissing { exit })?;
        triangle
            .neighbours
            .iter()
            .copied()
            .find(|&n| {
                self.aswm
                    .triangles
                    .get(n as usize)
                    .is_some_and(|t| t.island == island)
            })
            .ok_or(TableInconsistency::ExitWithoutNeighbour { exit, island })
    }

    /// The path table's chain from `from` to `to` (same tile). `visible_counts`: report the
    /// bit 7 of the first entry as `straight`.
    fn chain(
        &self,
        from: u32,
        to: u32,
        visible_counts: bool,
    ) -> Result<Corridor, TableInconsistency> {
        if from == to {
            return Ok(Corridor::Faces {
                faces: vec![from],
                straight: true,
            });
        }
        let tile_index = self.tile_of.get(from as usize).copied().unwrap_or(u32::MAX);
        if self.tile_of.get(to as usize) != Some(&tile_index) {
            return Err(TableInconsistency::TilesDiffer { from, to });
        }
        let tile = self
            .aswm
            .tiles
            .get(tile_index as usize)
            .ok_or(TableInconsistency::NoTile { triangle: from })?;
        let offset = tile.triangles_offset;
        let nodes = tile.node_to_local.len();
        let node = |t: u32| {
            tile.local_to_node
                .get(t.wrapping_sub(offset) as usize)
                .copied()
                .filter(|&n| n != NO_NODE)
                .ok_or(TableInconsistency::NotANode { triangle: t })
        };
        let target = usize::from(node(to)?);
        let mut faces = vec![from];
        let mut straight = false;
        let mut current = from;
        while current != to {
            if faces.len() > nodes + 1 {
                return Err(TableInconsistency::ChainLoops { from, to });
            }
            let entry = tile
                .nodes
                .get(usize::from(node(current)?) * nodes + target)
                .copied()
                .ok_or(TableInconsistency::ShortPathTable { tile: tile_index })?;
            if entry == NO_NODE {
                return Ok(Corridor::Unreachable);
            }
            if faces.len() == 1 {
                straight = visible_counts && entry & 0x80 != 0;
            }
            let local = tile.node_to_local.get(usize::from(entry & 0x7F)).ok_or(
                TableInconsistency::UnknownNode {
                    tile: tile_index,
                    node: entry & 0x7F,
                },
            )?;
            current = offset + local;
            faces.push(current);
        }
        Ok(Corridor::Faces { faces, straight })
    }
}

/// The engine's route report: the tables' corridor, smoothed like the surface route unless
/// bit 7 says the engine walks straight. Table inconsistencies become warnings and an
/// unreachable answer.
pub fn engine_report(
    tables: &Tables,
    router: &crate::SurfaceRouter<'_>,
    start: crate::surface::Located,
    end: crate::surface::Located,
) -> crate::RouteReport {
    use crate::report::{FaceRef, RouteReport};
    let mut report = RouteReport {
        reachable: false,
        method: "engine".to_string(),
        points: Vec::new(),
        faces: Vec::new(),
        length: None,
        warnings: Vec::new(),
    };
    match tables.corridor(start.face, end.face) {
        Ok(Corridor::Faces { faces, straight }) => {
            report.reachable = true;
            report.faces = faces.iter().map(|&f| FaceRef::Index(f)).collect();
            match router.route_along(start, end, &faces) {
                Some(route) if !straight => {
                    report.points = route.points;
                    report.length = Some(route.length);
                }
                Some(_) => {
                    report.points = vec![start.point, end.point];
                    report.length = Some(crate::surface::dist(start.point, end.point));
                }
                None => {
                    report.warnings.push(
                        "the stored path table steps between triangles that share no edge: \
                         the tables are stale (re-bake the area); no polyline drawn"
                            .to_string(),
                    );
                }
            }
        }
        Ok(Corridor::Unreachable) => {}
        Err(problem) => report
            .warnings
            .push(format!("the stored tables are inconsistent: {problem}")),
    }
    report
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::fixtures::walkable;
    use walkmesh_nwn2::aswm::{Island, IslandPath, Tile, Triangle};

    /// Two unit cells side by side, T0 (0,0)(1,0)(1,1), T1 (0,0)(1,1)(0,1), T2 (1,0)(2,0)(2,1),
    /// T3 (1,0)(2,1)(1,1): links T1–T0, T0–T3, T3–T2, so the only chain from T1 to T2 is
    /// T1, T0, T3, T2. One tile, one island.
    fn strip() -> (NavMesh, Aswm) {
        let vertices = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
        ];
        let triangles = [[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]];
        let mut mesh = NavMesh {
            vertices: vertices.clone(),
            ..NavMesh::default()
        };
        for t in triangles {
            mesh.push_polygon(&t, walkable());
        }
        // Next hop from a toward b along the line T1 – T0 – T3 – T2.
        let line = [1u8, 0, 3, 2];
        let position = |t: u8| line.iter().position(|&x| x == t).unwrap();
        let mut nodes = vec![NO_NODE; 16];
        for a in 0..4u8 {
            for b in 0..4u8 {
                let (pa, pb) = (position(a), position(b));
                if pa != pb {
                    let step = if pb > pa { pa + 1 } else { pa - 1 };
                    nodes[usize::from(a) * 4 + usize::from(b)] = line[step];
                }
            }
        }
        let aswm = Aswm {
            vertices,
            triangles: triangles
                .iter()
                .map(|&v| Triangle {
                    vertices: v,
                    island: 0,
                    ..Triangle::default()
                })
                .collect(),
            tiles: vec![Tile {
                triangle_count: 4,
                local_to_node: vec![0, 1, 2, 3],
                node_to_local: vec![0, 1, 2, 3],
                nodes,
                ..Tile::default()
            }],
            islands: vec![Island {
                triangle_count: 4,
                ..Island::default()
            }],
            island_paths: vec![IslandPath {
                next: NONE16,
                ..IslandPath::default()
            }],
            ..Aswm::default()
        };
        (mesh, aswm)
    }

    fn report(mesh: &NavMesh, aswm: Aswm) -> crate::RouteReport {
        let router = crate::SurfaceRouter::new(mesh);
        let start = router.locate([0.2, 0.6, 0.0]).unwrap();
        let end = router.locate([1.9, 0.5, 0.0]).unwrap();
        assert_eq!((start.face, end.face), (1, 2));
        engine_report(&Tables::from_aswm(aswm), &router, start, end)
    }

    #[test]
    fn the_face_sequence_is_the_table_chain() {
        let (mesh, aswm) = strip();
        let r = report(&mesh, aswm);
        assert!(r.reachable && r.warnings.is_empty(), "{r:?}");
        let faces: Vec<_> = [1, 0, 3, 2]
            .into_iter()
            .map(crate::FaceRef::Index)
            .collect();
        assert_eq!(r.faces, faces);
        // The straight line (0.2,0.6) → (1.9,0.5) stays inside the two cells: no corner.
        assert_eq!(r.points, vec![[0.2, 0.6, 0.0], [1.9, 0.5, 0.0]]);
    }

    #[test]
    fn bit_7_walks_straight_and_0xff_is_unreachable() {
        let (mesh, mut aswm) = strip();
        let chain = Corridor::Faces {
            faces: vec![1, 0, 3, 2],
            straight: false,
        };
        assert_eq!(Tables::from_aswm(aswm.clone()).corridor(1, 2), Ok(chain));
        aswm.tiles[0].nodes[4 + 2] |= 0x80;
        let chain = Corridor::Faces {
            faces: vec![1, 0, 3, 2],
            straight: true,
        };
        assert_eq!(Tables::from_aswm(aswm.clone()).corridor(1, 2), Ok(chain));
        let r = report(&mesh, aswm.clone());
        assert_eq!(r.points, vec![[0.2, 0.6, 0.0], [1.9, 0.5, 0.0]]);
        assert_eq!(r.faces.len(), 4);
        aswm.tiles[0].nodes[4 + 2] = NO_NODE;
        let r = report(&mesh, aswm);
        assert!(!r.reachable && r.warnings.is_empty());
    }

    #[test]
    fn errors_say_their_kind() {
        assert_eq!(
            tables(&NavMesh::default()).unwrap_err(),
            RouteError::TablesNotStored {
                tables: "path",
                file: "TRX"
            }
        );
        let (_, aswm) = strip();
        let error = Tables::from_aswm(aswm).corridor(1, 99).unwrap_err();
        assert_eq!(error.to_string(), "triangle 99 belongs to no island");
        assert!(matches!(error, RouteError::InconsistentTables { .. }));
    }

    #[test]
    fn a_step_across_no_edge_is_reported_stale() {
        let (mesh, mut aswm) = strip();
        // From T0 toward T2 the table now jumps straight to T2, which only touches T0 at a
        // corner.
        aswm.tiles[0].nodes[2] = 2;
        let r = report(&mesh, aswm);
        assert!(r.reachable);
        assert_eq!(r.points, Vec::<crate::surface::Point>::new());
        assert!(r.warnings[0].contains("share no edge"), "{:?}", r.warnings);
    }
}
