//! Format-neutral mesh checks, run by `walkmesh validate` on every format.

use crate::diag::{Diagnostic, Diagnostics, Position, Severity};
use crate::ir::NavMesh;
use crate::passes::{
    SEAM_TOLERANCE, STEEP_DEGREES, boundary_loops, edge_adjacency, is_steep, polygon_area,
    polygon_normal, unlinked_coincident_edges,
};

/// The mesh rules that make a file wrong rather than doubtful, in O(n): a non-finite
/// coordinate, a polygon using one vertex twice, walkable polygons (those not repeating a
/// vertex) none of which has any area (`mesh.walkable_area_zero`: a walkmesh that looks
/// walkable and cannot be walked on, as a room placed where 32-bit floats merge its points
/// is). `convert` checks what it writes with
/// these (the warnings of [`mesh_findings`] were already given while preparing the mesh).
pub fn mesh_errors(mesh: &NavMesh) -> Vec<Diagnostic> {
    let mut diag = Diagnostics::new();
    if let Some(bad) = mesh
        .vertices
        .iter()
        .position(|v| v.iter().any(|c| !c.is_finite()))
    {
        diag.push(
            Severity::Error,
            "mesh.non_finite_vertex",
            Position::None,
            Some(&format!("vertices[{bad}]")),
            "vertex has a NaN or infinite coordinate",
        );
    }
    for (p, vertices) in mesh.polygons.iter().enumerate() {
        if repeats_a_vertex(vertices) {
            diag.push(
                Severity::Error,
                "mesh.repeated_vertex",
                Position::None,
                Some(&format!("polygons[{p}]")),
                format!("polygon {p} uses the same vertex twice"),
            );
        }
    }
    // One zero-area walkable polygon is a warning (official files have a few); all of them
    // is a mesh nothing can walk on. A NaN area (non-finite corners) counts as none; polygons
    // repeating a vertex are left out (already an error of their own).
    let (count, with_area) = (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p) && !repeats_a_vertex(mesh.polygons.get(p)))
        .fold((0usize, 0usize), |(count, with_area), p| {
            let area = polygon_area(mesh, p);
            (count + 1, with_area + usize::from(area > 0.0))
        });
    if count > 0 && with_area == 0 {
        diag.push(
            Severity::Error,
            "mesh.walkable_area_zero",
            Position::None,
            None,
            format!(
                "all {count} walkable polygon(s) have zero area (their corners lie on one line or point), so nothing can be walked on (a mesh moved as far as x = 1e30, where 32-bit floats cannot tell its points apart, collapses so)"
            ),
        );
    }
    diag.items
}

/// Whether a polygon names one vertex twice (triangles and quads without allocating).
fn repeats_a_vertex(vertices: &[u32]) -> bool {
    match vertices {
        [a, b, c] => a == b || b == c || a == c,
        [a, b, c, d] => a == b || a == c || a == d || b == c || b == d || c == d,
        _ => {
            let mut sorted = vertices.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).any(|w| w[0] == w[1])
        }
    }
}

/// Findings about the geometry of `mesh` (codes `mesh.*`).
///
/// Errors: polygons repeating a vertex, non-finite coordinates, walkable polygons all without
/// area (`mesh.walkable_area_zero`).
/// Warnings: edges shared by more than two walkable polygons (official NWN2 files have them
/// where duplicated pieces meet, and the games load them; they are never linked), zero-area
/// polygons, walkable polygons facing down, walkable neighbours with opposite winding,
/// boundary chains that do not close, unused vertices, walkable edges lying on another
/// walkable edge without a link (duplicated vertices: an unlinked seam), walkable polygons
/// steeper than [`STEEP_DEGREES`] (stair risers, walls). Zero-area polygons are
/// `mesh.degenerate_walkable_polygon` when walkable (every file we write is free of them
/// unless its source had them), `mesh.degenerate_polygon` otherwise.
pub fn mesh_findings(mesh: &NavMesh) -> Vec<Diagnostic> {
    let mut diag = Diagnostics::new();
    diag.items = mesh_errors(mesh);
    let field = |p: usize| format!("polygons[{p}]");
    let mut used = vec![false; mesh.vertices.len()];
    for (p, vertices) in mesh.polygons.iter().enumerate() {
        for &v in vertices {
            if let Some(slot) = used.get_mut(v as usize) {
                *slot = true;
            }
        }
        // A triangle repeating a vertex has no area either: it is also reported as such, so
        // a walkable one shows among the degenerate walkable polygons `convert` drops.
        if polygon_area(mesh, p) <= 0.0 {
            // Walkable ones get their own code: a walkable face without area cannot be
            // walked on, yet may link its neighbours (zero-area triangles filling a T-junction).
            let (code, what) = if mesh.is_walkable(p) {
                ("mesh.degenerate_walkable_polygon", "walkable polygon")
            } else {
                ("mesh.degenerate_polygon", "polygon")
            };
            diag.push(
                Severity::Warning,
                code,
                Position::None,
                Some(&field(p)),
                format!("{what} {p} has zero area"),
            );
        } else if mesh.is_walkable(p) && polygon_normal(mesh, p)[2] < 0.0 {
            diag.push(
                Severity::Warning,
                "mesh.downward_walkable",
                Position::None,
                Some(&field(p)),
                format!("walkable polygon {p} faces down (clockwise seen from above)"),
            );
        }
    }
    let (steep, steep_area) = (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p) && is_steep(polygon_normal(mesh, p)))
        .fold((0usize, 0f64), |(n, a), p| {
            (n + 1, a + polygon_area(mesh, p))
        });
    if steep > 0 {
        diag.warn(
            "mesh.steep_walkable",
            format!(
                "{steep} walkable polygon(s) ({steep_area:.2} square units) are steeper than {STEEP_DEGREES}° from horizontal (stair risers or walls?); creatures cannot climb them"
            ),
        );
    }
    let unused = used.iter().filter(|&&u| !u).count();
    if unused > 0 {
        diag.warn(
            "mesh.unused_vertices",
            format!("{unused} vertices are used by no polygon"),
        );
    }
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    for edge in &adjacency.non_manifold {
        diag.push(
            Severity::Warning,
            "mesh.non_manifold_edge",
            Position::None,
            Some(&format!("edge({}, {})", edge.vertices[0], edge.vertices[1])),
            format!(
                "the edge between vertices {} and {} is shared by {} walkable polygons ({}); a walkmesh edge joins at most two",
                edge.vertices[0],
                edge.vertices[1],
                edge.edges.len(),
                edge.edges
                    .iter()
                    .map(|e| e.polygon.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    let seams = unlinked_coincident_edges(mesh, &adjacency);
    if let Some(first) = seams.first() {
        diag.push(
            Severity::Warning,
            "mesh.unlinked_coincident_edge",
            Position::None,
            Some(&format!("polygons[{}].edge[{}]", first.polygon, first.edge)),
            format!(
                "{} walkable edge(s) lie on another walkable edge (ends within {SEAM_TOLERANCE}) but use other vertices, so nothing links across them (an unlinked seam splits the walkable region); weld with `walkmesh convert --weld exact` (or `--weld DISTANCE` for near misses)",
                seams.len()
            ),
        );
    }
    if !adjacency.same_direction.is_empty() {
        diag.warn(
            "mesh.inconsistent_winding",
            format!(
                "{} shared edge(s) join walkable polygons wound in opposite directions",
                adjacency.same_direction.len()
            ),
        );
    }
    let open = boundary_loops(mesh, &adjacency)
        .iter()
        .filter(|l| !l.closed)
        .count();
    if open > 0 {
        diag.warn(
            "mesh.open_boundary",
            format!("{open} boundary chain(s) of the walkable region do not close"),
        );
    }
    diag.items
}

/// Share of the walkable area that is steep ([`STEEP_DEGREES`]): `(steep area, walkable
/// area)`. When most of a modelling-tool file's walkable area is steep, its axes were most
/// likely read wrongly (an OBJ exported Z-up read as Y-up, or the reverse).
pub fn steep_walkable_share(mesh: &NavMesh) -> (f64, f64) {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .fold((0.0, 0.0), |(steep, all), p| {
            let area = polygon_area(mesh, p);
            if is_steep(polygon_normal(mesh, p)) {
                (steep + area, all + area)
            } else {
                (steep, all + area)
            }
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;

    fn stone() -> Surface {
        Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        }
    }

    fn codes(mesh: &NavMesh) -> Vec<String> {
        mesh_findings(mesh).into_iter().map(|d| d.code).collect()
    }

    #[test]
    fn unlinked_seams_and_steep_walkable_faces_are_reported() {
        // Two unit squares meeting at x = 1 on duplicated vertices: a seam.
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2, 3], stone());
        mesh.push_polygon(&[4, 5, 6, 7], stone());
        let found = mesh_findings(&mesh);
        let seam = found
            .iter()
            .find(|d| d.code == "mesh.unlinked_coincident_edge")
            .unwrap();
        assert!(
            seam.message.starts_with("2 walkable edge(s)"),
            "{}",
            seam.message
        );
        assert!(!codes(&mesh).contains(&"mesh.steep_walkable".to_string()));
        assert_eq!(steep_walkable_share(&mesh), (0.0, 2.0));
        // Shared vertices: no seam.
        let mut joined = mesh.clone();
        joined.polygons = crate::ir::Polygons::new();
        joined.surfaces.clear();
        joined.push_polygon(&[0, 1, 2, 3], stone());
        joined.push_polygon(&[1, 5, 6, 2], stone());
        assert!(!codes(&joined).contains(&"mesh.unlinked_coincident_edge".to_string()));
        // A walkable riser 1 high (vertical, area 1) is steep; a 45° ramp is not.
        mesh.vertices.extend([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]);
        mesh.push_polygon(&[0, 9, 8], stone());
        mesh.push_polygon(&[0, 1, 9], stone());
        let riser = mesh_findings(&mesh)
            .into_iter()
            .find(|d| d.code == "mesh.steep_walkable")
            .unwrap();
        assert!(
            riser
                .message
                .starts_with("2 walkable polygon(s) (1.00 square units)"),
            "{}",
            riser.message
        );
        assert_eq!(steep_walkable_share(&mesh), (1.0, 3.0));
        let mut ramp = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]],
            ..NavMesh::default()
        };
        ramp.push_polygon(&[0, 1, 2], stone());
        assert!(!codes(&ramp).contains(&"mesh.steep_walkable".to_string()));
    }

    #[test]
    fn walkable_polygons_all_without_area_are_an_error_one_is_a_warning() {
        // A 1 m square moved to x = y = 1e30 (f32): every corner is the same point.
        let far = 1e30f32;
        let mut collapsed = NavMesh {
            vertices: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
                .iter()
                .map(|[x, y]| [far + x, far + y, 0.0])
                .collect(),
            ..NavMesh::default()
        };
        collapsed.push_polygon(&[0, 1, 2], stone());
        collapsed.push_polygon(&[0, 2, 3], stone());
        let errors: Vec<String> = mesh_errors(&collapsed)
            .into_iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(errors, ["mesh.walkable_area_zero"]);
        // With one walkable polygon that has area, the collapsed ones are warnings only.
        collapsed
            .vertices
            .extend([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        collapsed.push_polygon(&[4, 5, 6], stone());
        assert!(mesh_errors(&collapsed).is_empty());
        assert!(codes(&collapsed).contains(&"mesh.degenerate_walkable_polygon".to_string()));
        // No walkable polygon at all (a door's walkmesh) is no such error.
        let mut door = collapsed.clone();
        for surface in &mut door.surfaces {
            surface.walkable = false;
        }
        assert!(mesh_errors(&door).is_empty());
        // A walkable polygon repeating a vertex is its own error, not this one.
        let mut repeated = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
            ..NavMesh::default()
        };
        repeated.push_polygon(&[0, 1, 0], stone());
        let errors: Vec<String> = mesh_errors(&repeated).into_iter().map(|d| d.code).collect();
        assert_eq!(errors, ["mesh.repeated_vertex"]);
    }
}
