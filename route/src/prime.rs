//! Metroid Prime's own answer (`--method engine` on PATH), after `CPathFindSearch`:
//!
//! - Region query: the point is lifted 0.3 (ground walkers); the regions holding it come from
//!   the octree leaf it falls in, filtered by the region's prism test (floor plane, height
//!   window, edge planes) and the ground type bit (0x1), at most 4, lowest index used; when
//!   none holds it, the ground region whose centroid is closest within 10 units, and the
//!   route starts (or ends) at that centroid.
//! - Reachability: the ground connectivity bit of the two regions; then A* over ground regions
//!   joined by the file's links, costs and heuristic the 3-D distances between region centroids (ties
//!   to the lower region index).
//! - Limits: a result has at most 16 waypoints; a longer polyline is reported; more than 512
//!   regions make every engine search fail, which is reported too.
//!
//! The polyline is the surface funnel through the region corridor (heights on the regions).

use std::collections::BinaryHeap;

use walkmesh_core::NavMesh;

use crate::error::RouteError;
use walkmesh_prime::model::{PathFile, test_pair};

use crate::queue::Queued;
use crate::report::{FaceRef, RouteReport};
use crate::surface::{Located, Point, SurfaceRouter, dist};

/// Largest number of waypoints in an engine result.
pub const MAX_WAYPOINTS: usize = 16;
/// Largest number of regions the engine searches.
pub const MAX_REGIONS: usize = 512;
const LIFT: f32 = 0.3;
/// Region type bit of ground walkers (flyers 0x2, swimmers 0x4).
const GROUND: u16 = 0x1;

fn is_ground(file: &PathFile, region: u32) -> bool {
    file.regions
        .get(region as usize)
        .is_some_and(|r| r.type_mask & GROUND != 0)
}
const CLOSEST_WITHIN: f64 = 10.0;

/// The parsed PATH file of a mesh read from one (and unchanged since).
pub fn tables(mesh: &NavMesh) -> Result<PathFile, RouteError> {
    let bytes = mesh
        .fresh_provenance("path")
        .and_then(|p| p.section("file"))
        .ok_or(RouteError::TablesNotStored {
            tables: "PATH",
            file: "PATH",
        })?;
    Ok(PathFile::parse(bytes)?)
}

fn centroid(file: &PathFile, region: u32) -> Point {
    file.regions.get(region as usize).map_or([0.0; 3], |r| {
        [
            f64::from(r.centroid[0]),
            f64::from(r.centroid[1]),
            f64::from(r.centroid[2]),
        ]
    })
}

/// The engine's region for `point` and whether it holds the point (else it is the closest
/// region), or `None` when no region is near.
pub fn region_for(file: &PathFile, point: Point) -> Option<(u32, bool)> {
    let lifted = [point[0] as f32, point[1] as f32, point[2] as f32 + LIFT];
    let holding = file.regions_at(lifted);
    if let Some(&first) = holding
        .iter()
        .filter(|&&r| is_ground(file, r))
        .take(4)
        .next()
    {
        return Some((first, true));
    }
    let mut best: Option<(f64, u32)> = None;
    for region in (0..file.regions.len() as u32).filter(|&r| is_ground(file, r)) {
        let d = dist(centroid(file, region), point);
        if d <= CLOSEST_WITHIN && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, region));
        }
    }
    best.map(|(_, r)| (r, false))
}

/// A* over the region graph; the regions from `from` to `to`, `None` when unreachable.
pub fn region_path(file: &PathFile, from: u32, to: u32) -> Option<Vec<u32>> {
    let n = file.regions.len();
    let mut best = vec![f64::INFINITY; n];
    let mut parent = vec![u32::MAX; n];
    let goal = centroid(file, to);
    *best.get_mut(from as usize)? = 0.0;
    let mut queue = BinaryHeap::from([Queued {
        f: dist(centroid(file, from), goal),
        node: from,
        g: 0.0,
    }]);
    // The cost so far is read from `best`, which an entry's own may lag behind.
    while let Some(Queued {
        f, node: region, ..
    }) = queue.pop()
    {
        let here = centroid(file, region);
        let g = best.get(region as usize).copied()?;
        if f > g + dist(here, goal) {
            continue;
        }
        if region == to {
            let mut path = vec![to];
            let mut at = to;
            while at != from {
                at = parent.get(at as usize).copied()?;
                path.push(at);
                if path.len() > n {
                    return None;
                }
            }
            path.reverse();
            return Some(path);
        }
        let r = file.regions.get(region as usize)?;
        let links = file
            .links
            .get(
                r.link_start as usize
                    ..(r.link_start as usize).saturating_add(r.link_count as usize),
            )
            .unwrap_or(&[]);
        for link in links.iter().filter(|l| is_ground(file, l.region)) {
            let next = link.region;
            let cost = g + dist(here, centroid(file, next));
            if best.get(next as usize).is_some_and(|&b| cost < b) {
                best[next as usize] = cost;
                parent[next as usize] = region;
                queue.push(Queued {
                    f: cost + dist(centroid(file, next), goal),
                    node: next,
                    g: cost,
                });
            }
        }
    }
    None
}

/// The engine's route report between two points. `Err`: a point the engine places in no
/// region (exit 2).
pub fn engine_report(
    file: &PathFile,
    router: &SurfaceRouter<'_>,
    from: Point,
    to: Point,
) -> Result<RouteReport, RouteError> {
    let place = |which: &str, p: Point| {
        region_for(file, p)
            .map(|(face, holds)| {
                // A point no region holds goes to the closest region's centroid, as the
                // engine's closest-point answers do.
                let [x, y, _] = if holds { p } else { centroid(file, face) };
                Located {
                    face,
                    point: [x, y, router.height_at(face, x, y)],
                }
            })
            .ok_or_else(|| RouteError::NoRegion {
                which: which.to_string(),
                within: CLOSEST_WITHIN,
            })
    };
    let (start, end) = (place("--from", from)?, place("--to", to)?);
    let mut report = RouteReport {
        reachable: false,
        method: "engine".to_string(),
        points: Vec::new(),
        faces: Vec::new(),
        length: None,
        warnings: Vec::new(),
    };
    let n = file.regions.len();
    if n > MAX_REGIONS {
        report.warnings.push(format!(
            "the area has {n} regions; the engine refuses every search above {MAX_REGIONS}"
        ));
    }
    let connected = test_pair(
        &file.ground,
        n as u64,
        u64::from(start.face.min(end.face)),
        u64::from(start.face.max(end.face)),
    );
    let path = region_path(file, start.face, end.face);
    if connected != path.is_some() {
        report.warnings.push(format!(
            "the ground connectivity table says regions {} and {} are {}connected but the \
             links say otherwise: the tables are stale",
            start.face,
            end.face,
            if connected { "" } else { "not " }
        ));
    }
    let Some(regions) = path.filter(|_| connected) else {
        return Ok(report);
    };
    report.reachable = true;
    report.faces = regions.iter().map(|&r| FaceRef::Index(r)).collect();
    match router.route_along(start, end, &regions) {
        Some(route) => {
            if route.points.len() > MAX_WAYPOINTS {
                report.warnings.push(format!(
                    "the route needs {} waypoints; the engine returns at most {MAX_WAYPOINTS}",
                    route.points.len()
                ));
            }
            report.points = route.points;
            report.length = Some(route.length);
        }
        None => report
            .warnings
            .push("consecutive regions of the route share no edge; no polyline drawn".to_string()),
    }
    Ok(report)
}
