//! Default surfaces for polygons without a known material (modelling-tool input).

use crate::ir::NavMesh;
use crate::material::{DefaultRule, DefaultTally};
use crate::passes::{is_steep, polygon_area, polygon_normal};

/// Sets the surface of each polygon in `polygons` (which must exist) by its slope, as `rule`
/// says, and counts what went where.
pub fn assign_default_surfaces(
    mesh: &mut NavMesh,
    rule: &DefaultRule,
    polygons: impl IntoIterator<Item = usize>,
) -> DefaultTally {
    let mut tally = DefaultTally::default();
    for polygon in polygons {
        let area = polygon_area(mesh, polygon);
        let steep = is_steep(polygon_normal(mesh, polygon));
        let surface = rule.surface_for(steep, area, &mut tally);
        if let Some(slot) = mesh.surfaces.get_mut(polygon) {
            *slot = surface;
        }
    }
    tally
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::material::{Material, MaterialProfile};

    #[test]
    fn default_rule_keeps_steep_faces_unwalkable() {
        let profile = MaterialProfile::neutral();
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [0.0, 2.0, 0.0],
                [2.0, 0.0, 3.0],
                [0.0, 0.0, 3.0],
            ],
            ..NavMesh::default()
        };
        let undefined = profile.surface_for_name("Undefined").unwrap();
        mesh.push_polygon(&[0, 1, 2], undefined); // floor, area 2
        mesh.push_polygon(&[0, 1, 3, 4], undefined); // wall, area 6
        let rule = DefaultRule::new(&profile, None);
        let tally = assign_default_surfaces(&mut mesh, &rule, [0, 1]);
        assert_eq!(
            tally,
            DefaultTally {
                floor_faces: 1,
                floor_area: 2.0,
                steep_faces: 1,
                steep_area: 6.0
            }
        );
        assert_eq!(mesh.surfaces[0].material, Material(4));
        assert!(mesh.surfaces[0].walkable);
        assert_eq!(mesh.surfaces[1].material, Material(7));
        assert!(!mesh.surfaces[1].walkable);
        let text = rule.describe(&tally);
        assert!(
            text.contains("1 face(s), 2.00 square units, got 'Stone' (walkable)"),
            "{text}"
        );
        assert!(
            text.contains("steeper than 60°, 6.00 square units, got 'NonWalk' (not walkable)"),
            "{text}"
        );
        // An explicit default applies to every face.
        let grass = profile.surface_for_name("Grass").unwrap();
        let rule = DefaultRule::new(&profile, Some(grass));
        assign_default_surfaces(&mut mesh, &rule, [0, 1]);
        assert!(mesh.surfaces.iter().all(|s| *s == grass));
    }
}
