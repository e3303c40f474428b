//! One route or reachability query on a mesh as read, with the method chosen as the CLI and
//! Python choose it: `engine` by default where the format has tables (KotOR BWM rooms and
//! assembled areas, NWN2 TRX, Metroid Prime PATH), else `surface`.

use walkmesh_core::NavMesh;
use walkmesh_core::passes::edge_adjacency;

use crate::kotor::area_links;
use crate::reach::{Reach, reach};
use crate::report::RouteReport;
use crate::surface::{Point, SurfaceRouter};

/// How to route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The engine's own tables and links.
    Engine,
    /// The walkable geometry alone.
    Surface,
}

impl Method {
    /// `"engine"` or `"surface"`.
    pub fn parse(text: &str) -> Option<Method> {
        match text {
            "engine" => Some(Method::Engine),
            "surface" => Some(Method::Surface),
            _ => None,
        }
    }
}

pub use walkmesh_core::Engine;
use walkmesh_core::Format;

/// The engine whose tables `--method engine` follows on a mesh read by `format`: the format's
/// declared engine ([`walkmesh_core::FormatDescriptor::engine`]) when it declares
/// [`walkmesh_core::Capabilities::engine_tables`], [`Engine::Kotor`] for an area assembled
/// from KotOR rooms (`area`), else [`Engine::Generic`] (no engine tables: the surface router
/// only).
pub fn routing_engine(format: Option<&dyn Format>, area: bool) -> Engine {
    match format.map(|format| format.descriptor()) {
        _ if area => Engine::Kotor,
        Some(declared) if declared.capabilities.engine_tables => declared.engine,
        _ => Engine::Generic,
    }
}

/// Why a query has no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum QueryError {
    /// The options do not fit the mesh (exit 2, `cli.usage`).
    Usage(String),
    /// A point on no walkable face, missing tables (exit 2, `cli.input`).
    Input(String),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Usage(m) | QueryError::Input(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for QueryError {}

fn chosen(engine: Engine, asked: Option<Method>) -> Result<Method, QueryError> {
    let method = asked.unwrap_or(if engine == Engine::Generic {
        Method::Surface
    } else {
        Method::Engine
    });
    if method == Method::Engine && engine == Engine::Generic {
        return Err(QueryError::Usage(
            "--method engine needs a format with engine tables (KotOR BWM or area, NWN2 TRX, \
             Metroid Prime PATH); use --method surface"
                .to_string(),
        ));
    }
    Ok(method)
}

/// The router for `method`: KotOR's engine links join rooms across transitions; every other
/// case links faces through shared edges. Also the area's naming and warnings for KotOR.
fn router_for(
    mesh: &NavMesh,
    engine: Engine,
    method: Method,
) -> (SurfaceRouter<'_>, Option<crate::kotor::AreaLinks>) {
    if method == Method::Engine && engine == Engine::Kotor {
        let (links, area) = area_links(mesh);
        return (SurfaceRouter::with_links(mesh, links), Some(area));
    }
    let links = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    (SurfaceRouter::with_links(mesh, links), None)
}

fn located(
    router: &SurfaceRouter<'_>,
    which: &str,
    point: Point,
) -> Result<crate::surface::Located, QueryError> {
    router
        .locate(point)
        .map_err(|e| QueryError::Input(format!("{which}: {e}")))
}

/// A route from `from` to `to`.
pub fn route(
    mesh: &NavMesh,
    engine: Engine,
    from: Point,
    to: Point,
    asked: Option<Method>,
) -> Result<RouteReport, QueryError> {
    let method = chosen(engine, asked)?;
    let (router, area) = router_for(mesh, engine, method);
    if method == Method::Engine && engine == Engine::Prime {
        return prime_route(mesh, &router, from, to);
    }
    let start = located(&router, "--from", from)?;
    let end = located(&router, "--to", to)?;
    let surface = router.route(start, end);
    if method == Method::Engine && engine == Engine::Nwn2 {
        return nwn2_route(mesh, &router, (start, end), &surface, asked.is_some());
    }
    let mut report = RouteReport::from_surface(&surface);
    if let Some(area) = &area {
        report.method = "engine".to_string();
        report.faces = surface.faces.iter().map(|&f| area.face_ref(f)).collect();
        report.warnings.clone_from(&area.warnings);
    }
    Ok(report)
}

#[cfg(feature = "prime")]
fn prime_route(
    mesh: &NavMesh,
    router: &SurfaceRouter<'_>,
    from: Point,
    to: Point,
) -> Result<RouteReport, QueryError> {
    let file = crate::prime::tables(mesh).map_err(|e| QueryError::Input(e.to_string()))?;
    crate::prime::engine_report(&file, router, from, to)
        .map_err(|e| QueryError::Input(e.to_string()))
}

#[cfg(not(feature = "prime"))]
fn prime_route(
    _mesh: &NavMesh,
    _router: &SurfaceRouter<'_>,
    _from: Point,
    _to: Point,
) -> Result<RouteReport, QueryError> {
    Err(QueryError::Usage(left_out("Metroid Prime PATH", "prime")))
}

/// What a TRN (the toolset's unbaked terrain) holds instead of path tables: the bake that
/// makes them writes the TRX. Said when the engine's answer was the default, not asked for.
const NO_PATH_TABLES: &str = "the file holds no baked path tables (a TRN is the toolset's \
     unbaked terrain; the bake writes them into the TRX): the game has no path here until the \
     area is baked";

#[cfg(feature = "nwn2")]
fn nwn2_route(
    mesh: &NavMesh,
    router: &SurfaceRouter<'_>,
    (start, end): (crate::surface::Located, crate::surface::Located),
    surface: &crate::surface::Route,
    engine_asked: bool,
) -> Result<RouteReport, QueryError> {
    let tables = crate::nwn2::tables(mesh).map_err(|e| QueryError::Input(e.to_string()))?;
    if !tables.has_path_tables() {
        if engine_asked {
            return Err(QueryError::Usage(format!(
                "--method engine: {NO_PATH_TABLES}; use --method surface, or bake it with \
                 `walkmesh convert FILE.trn FILE.trx`"
            )));
        }
        // The geometry's answer, said to be that and not the game's.
        let mut report = RouteReport::from_surface(surface);
        report
            .warnings
            .push(format!("{NO_PATH_TABLES}; routed over the surface instead"));
        return Ok(report);
    }
    let mut report = crate::nwn2::engine_report(&tables, router, start, end);
    if report.reachable != surface.reachable {
        report.warnings.push(format!(
            "the stored tables say the end is {}reachable but the geometry says it is {}: \
             the tables are stale (re-bake the area)",
            if report.reachable { "" } else { "un" },
            if surface.reachable {
                "reachable"
            } else {
                "not"
            },
        ));
    }
    Ok(report)
}

#[cfg(not(feature = "nwn2"))]
fn nwn2_route(
    _mesh: &NavMesh,
    _router: &SurfaceRouter<'_>,
    _ends: (crate::surface::Located, crate::surface::Located),
    _surface: &crate::surface::Route,
    _engine_asked: bool,
) -> Result<RouteReport, QueryError> {
    let _ = NO_PATH_TABLES;
    Err(QueryError::Usage(left_out("NWN2 TRX", "nwn2")))
}

/// The message for an engine whose tables this build cannot read.
#[cfg(not(all(feature = "nwn2", feature = "prime")))]
fn left_out(engine: &str, feature: &str) -> String {
    format!(
        "--method engine on {engine} tables needs cargo feature `{feature}`, which this build \
         leaves out; use --method surface"
    )
}

/// Reachability (components, and what `from` reaches), with the warnings of the links.
/// Engine links differ from the geometry's only for KotOR (rooms joined by transitions).
pub fn reachability(
    mesh: &NavMesh,
    engine: Engine,
    from: Option<Point>,
    asked: Option<Method>,
) -> Result<(Reach, Vec<String>), QueryError> {
    let method = chosen(engine, asked)?;
    let (router, area) = router_for(mesh, engine, method);
    let answer = reach(&router, from).map_err(|e| QueryError::Input(format!("--from: {e}")))?;
    Ok((answer, area.map(|a| a.warnings).unwrap_or_default()))
}

impl walkmesh_core::Kinded for QueryError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        match self {
            QueryError::Usage(_) => walkmesh_core::ErrorKind::Parameter,
            QueryError::Input(_) => walkmesh_core::ErrorKind::Invalid,
        }
    }
}
