//! Establishes a writer's [`Requirements`] on a copy of the mesh.

use std::borrow::Cow;

use crate::diag::{Diagnostics, Position, Severity};
use crate::format::Requirements;
use crate::ir::{NavMesh, VertexIdentity};
use crate::passes::{edge_adjacency, reorder, seams, triangulate, weld};

/// Welds, triangulates and reorders as `requirements` ask, each only when needed; the input
/// is borrowed unchanged when nothing has to change (so fresh provenance survives). When the
/// target stores links (`requirements.links`), walkable edges left lying on each other
/// without a link are reported (`prepare.unlinked_coincident_edges`).
///
/// `requirements.weld` is final here: callers resolve the user's `--weld` and the reader's
/// [`VertexIdentity`] with [`crate::WeldChoice::tolerance`] first.
pub fn prepare<'a>(
    mesh: &'a NavMesh,
    requirements: &Requirements,
    diag: &mut Diagnostics,
) -> Cow<'a, NavMesh> {
    prepare_with(mesh, requirements, true, diag)
}

/// [`prepare`], with the removal of repeated corners optional (`info` and `validate` look at
/// the polygons as authored).
fn prepare_with<'a>(
    mesh: &'a NavMesh,
    requirements: &Requirements,
    for_writer: bool,
    diag: &mut Diagnostics,
) -> Cow<'a, NavMesh> {
    let mut current = Cow::Borrowed(mesh);
    if let Some(tolerance) = requirements.weld
        && let Some((welded, report)) = weld::weld_if_changed(&current, tolerance, diag)
        && (report.merged_vertices > 0 || report.dropped_polygons > 0)
    {
        let message = if current.vertex_identity() == VertexIdentity::Incidental {
            format!(
                "modelling-tool input (no walkmesh metadata): {} vertices duplicated where materials, primitives or objects meet were welded at equal positions (within {tolerance}); --weld off keeps them apart",
                report.merged_vertices
            )
        } else {
            format!(
                "welding within {tolerance} merged {} vertices",
                report.merged_vertices
            )
        };
        diag.push(
            Severity::Info,
            "prepare.welded",
            Position::None,
            None,
            message,
        );
        current = Cow::Owned(welded);
    }
    // A triangle that repeats a vertex has no area (game files and OBJ `f 1 2 1` carry
    // them): no writer can keep it and every validator rejects it, so it is dropped and
    // counted here rather than refused after writing. Welding already did this when it ran.
    if for_writer && let Some((collapsed, report)) = weld::collapse_repeated_corners(&current) {
        if report.dropped_polygons > 0 {
            diag.warn(
                "prepare.degenerate_dropped",
                format!(
                    "{} polygon(s) ({} walkable) repeat a vertex and have no area; they were dropped (`walkmesh validate` lists them as mesh.repeated_vertex)",
                    report.dropped_polygons, report.dropped_walkable
                ),
            );
        }
        if report.removed_corners > 0 {
            diag.push(
                Severity::Info,
                "prepare.repeated_corners_removed",
                Position::None,
                None,
                format!(
                    "{} corner(s) equal to the next corner of their polygon were removed (the shape is unchanged)",
                    report.removed_corners
                ),
            );
        }
        if report.lost_tags > 0 {
            diag.warn(
                "prepare.lost_edge_tags",
                format!(
                    "{} edge tag(s) sat on edges of no length (a vertex repeated) and were dropped",
                    report.lost_tags
                ),
            );
        }
        current = Cow::Owned(collapsed);
    }
    if requirements.triangles_only && !current.polygons.all_triangles() {
        let (triangles, _) = triangulate::triangulate(&current, diag);
        diag.push(
            Severity::Info,
            "prepare.triangulated",
            Position::None,
            None,
            format!(
                "the target stores triangles: {} polygons became {} triangles",
                current.polygons.len(),
                triangles.polygons.len()
            ),
        );
        current = Cow::Owned(triangles);
    }
    if requirements.walkable_first && !reorder::is_walkable_first(&current) {
        let (sorted, _) = reorder::walkable_first(&current);
        diag.push(
            Severity::Info,
            "prepare.walkable_first",
            Position::None,
            None,
            "the target stores walkable faces first: faces were reordered (stable)",
        );
        current = Cow::Owned(sorted);
    }
    if requirements.links {
        let adjacency = edge_adjacency(&current, |p| current.is_walkable(p));
        let unlinked = seams::unlinked_coincident_edges(&current, &adjacency);
        if let Some(first) = unlinked.first() {
            diag.push(
                Severity::Warning,
                "prepare.unlinked_coincident_edges",
                Position::None,
                Some(&format!("polygons[{}].edge[{}]", first.polygon, first.edge)),
                format!(
                    "{} walkable edge(s) lie on another walkable edge (ends within {}) but use other vertices, so the target links nothing across them and the walkable region is cut there; weld with --weld exact (or --weld DISTANCE for near misses)",
                    unlinked.len(),
                    seams::SEAM_TOLERANCE
                ),
            );
        }
    }
    current
}

/// The mesh as every command should see it before a writer's own needs: welded at equal
/// positions when the reader found its vertex sharing incidental (modelling-tool input, see
/// [`crate::WeldChoice::Default`]), else borrowed unchanged. `info` and `validate` look at
/// this, so they agree with what `convert` writes.
pub fn as_modelled<'a>(mesh: &'a NavMesh, diag: &mut Diagnostics) -> Cow<'a, NavMesh> {
    let requirements = Requirements {
        weld: crate::WeldChoice::Default.tolerance(mesh, &Requirements::default()),
        ..Requirements::default()
    };
    prepare_with(mesh, &requirements, false, diag)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::Surface;
    use crate::material::Material;

    /// The unit square's corners (no polygons yet) and a walkable and a wall surface.
    fn unit_square() -> (NavMesh, Surface, Surface) {
        let mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        let walk = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        let wall = Surface {
            material: Material(7),
            walkable: false,
            code: 7,
        };
        (mesh, walk, wall)
    }

    #[test]
    fn borrows_when_nothing_changes_and_fixes_what_is_asked() {
        let (mut mesh, walk, wall) = unit_square();
        mesh.push_polygon(&[0, 1, 2], wall);
        mesh.push_polygon(&[0, 1, 2, 3], walk);
        let mut diag = Diagnostics::new();
        let none = Requirements::default();
        assert!(matches!(prepare(&mesh, &none, &mut diag), Cow::Borrowed(_)));
        let all = Requirements {
            triangles_only: true,
            walkable_first: true,
            weld: Some(0.0),
            links: true,
        };
        let prepared = prepare(&mesh, &all, &mut diag);
        assert_eq!(prepared.polygons.len(), 3);
        assert!(prepared.polygons.all_triangles());
        assert!(prepared.surfaces[0].walkable && prepared.surfaces[1].walkable);
        assert!(!prepared.surfaces[2].walkable);
        let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["prepare.triangulated", "prepare.walkable_first"]);
    }

    #[test]
    fn triangles_repeating_a_vertex_are_dropped_for_writers_and_counted() {
        use crate::ir::{EdgeRef, EdgeTag};
        let (mut mesh, walk, wall) = unit_square();
        mesh.push_polygon(&[0, 1, 0], walk);
        mesh.push_polygon(&[0, 1, 2], walk);
        mesh.push_polygon(&[2, 2, 3], wall);
        // A quad with one corner written twice keeps its shape as a triangle.
        mesh.push_polygon(&[0, 2, 2, 3], walk);
        let tag = |polygon, edge| EdgeRef { polygon, edge };
        mesh.edge_tags.insert(tag(1, 1), EdgeTag { transition: 5 });
        mesh.edge_tags.insert(tag(3, 2), EdgeTag { transition: 6 });
        let mut diag = Diagnostics::new();
        // `info` and `validate` see the polygons as authored.
        assert!(matches!(as_modelled(&mesh, &mut diag), Cow::Borrowed(_)));
        let prepared = prepare(&mesh, &Requirements::default(), &mut diag);
        assert_eq!(prepared.polygons.len(), 2);
        assert_eq!(prepared.polygons.get(0), &[0, 1, 2]);
        assert_eq!(prepared.polygons.get(1), &[0, 2, 3]);
        assert!(prepared.surfaces.iter().all(|s| s.walkable));
        // Old polygon 1 edge 1 → new polygon 0 edge 1; old polygon 3 edge 2 (2 → 3) → new
        // polygon 1 edge 1; the zero-length edge 1 (2 → 2) was removed.
        let tags: Vec<(u32, u32, i32)> = prepared
            .edge_tags
            .iter()
            .map(|(e, t)| (e.polygon, e.edge, t.transition))
            .collect();
        assert_eq!(tags, [(0, 1, 5), (1, 1, 6)]);
        let dropped = diag
            .items
            .iter()
            .find(|d| d.code == "prepare.degenerate_dropped")
            .unwrap();
        assert_eq!(dropped.severity, Severity::Warning);
        assert!(
            dropped.message.starts_with("2 polygon(s) (1 walkable)"),
            "{}",
            dropped.message
        );
        assert!(
            diag.items
                .iter()
                .any(|d| d.code == "prepare.repeated_corners_removed"
                    && d.message.starts_with("1 corner(s)"))
        );
    }

    #[test]
    fn link_targets_hear_about_unlinked_seams_and_modelling_input_is_welded() {
        use crate::ir::{Provenance, VertexIdentity};
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        // Two triangles sharing the edge (1,0)-(0,1) on duplicated vertices.
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 2], stone);
        mesh.push_polygon(&[3, 4, 5], stone);
        let links = Requirements {
            links: true,
            ..Requirements::default()
        };
        let mut diag = Diagnostics::new();
        assert!(matches!(
            prepare(&mesh, &links, &mut diag),
            Cow::Borrowed(_)
        ));
        let warning = &diag.items[0];
        assert_eq!(warning.code, "prepare.unlinked_coincident_edges");
        assert!(
            warning.message.starts_with("2 walkable edge(s)"),
            "{}",
            warning.message
        );
        assert!(warning.message.contains("--weld"));
        // Authored identity: as_modelled leaves it alone.
        let mut diag = Diagnostics::new();
        assert!(matches!(as_modelled(&mesh, &mut diag), Cow::Borrowed(_)));
        // Modelling-tool input: welded, with a note that counts.
        mesh.provenance = Some(Provenance {
            vertex_identity: VertexIdentity::Incidental,
            ..Provenance::default()
        });
        let mut diag = Diagnostics::new();
        let welded = as_modelled(&mesh, &mut diag);
        assert_eq!(welded.vertices.len(), 4);
        assert_eq!(diag.items[0].code, "prepare.welded");
        assert!(
            diag.items[0].message.contains("2 vertices"),
            "{}",
            diag.items[0].message
        );
        let mut diag = Diagnostics::new();
        prepare(&welded, &links, &mut diag);
        assert!(diag.items.is_empty());
    }
}
