//! Moving a whole mesh: what `walkmesh convert --translate` applies, to undo or make a
//! placement change (for example the whole-tile shift of a bake into NWN2).

use crate::ir::NavMesh;

/// Adds `offset` to every vertex and to the origin (hooks are relative to the origin, so
/// they follow). The tile grid stays where it is: a grid is the target's frame, not part of
/// the mesh's placement.
pub fn translate(mesh: &mut NavMesh, offset: [f32; 3]) {
    let shift = |point: &mut [f32; 3]| {
        for (coordinate, delta) in point.iter_mut().zip(offset) {
            *coordinate += delta;
        }
    };
    mesh.vertices.iter_mut().for_each(shift);
    shift(&mut mesh.origin);
}

/// Why an offset ([`parse_offset`]) was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OffsetParseError {
    /// Not three parts separated by commas.
    #[error("'{text}' is not x,y,z (three numbers separated by commas)")]
    NotThreeParts { text: String },
    /// One of the three parts is not a finite number.
    #[error("'{part}' in '{text}' is not a finite number")]
    NotANumber { part: String, text: String },
}

/// Parses `x,y,z` (three numbers separated by commas, spaces allowed).
pub fn parse_offset(text: &str) -> Result<[f32; 3], OffsetParseError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, z] = parts.as_slice() else {
        return Err(OffsetParseError::NotThreeParts {
            text: text.to_string(),
        });
    };
    let number = |s: &str| {
        s.parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| OffsetParseError::NotANumber {
                part: s.to_string(),
                text: text.to_string(),
            })
    };
    Ok([number(x)?, number(y)?, number(z)?])
}

impl crate::Kinded for OffsetParseError {
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Parameter
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ir::{NavMesh, Surface};
    use crate::material::Material;

    #[test]
    fn moves_vertices_and_origin_only() {
        let mut mesh = NavMesh {
            vertices: vec![[1.0, 2.0, 3.0], [-27.0, 0.5, 0.0], [0.0, 0.0, 0.0]],
            origin: [0.5, 0.0, 0.0],
            ..NavMesh::default()
        };
        mesh.push_polygon(
            &[0, 1, 2],
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        translate(&mut mesh, [27.0, -36.0, 0.25]);
        assert_eq!(
            mesh.vertices,
            vec![[28.0, -34.0, 3.25], [0.0, -35.5, 0.25], [27.0, -36.0, 0.25]]
        );
        assert_eq!(mesh.origin, [27.5, -36.0, 0.25]);
    }

    #[test]
    fn offsets_parse_or_name_the_problem() {
        assert_eq!(parse_offset("-27, -36,0").unwrap(), [-27.0, -36.0, 0.0]);
        assert!(
            parse_offset("1,2")
                .unwrap_err()
                .to_string()
                .contains("x,y,z")
        );
        assert!(
            parse_offset("1,a,2")
                .unwrap_err()
                .to_string()
                .contains("'a'")
        );
        assert!(matches!(
            parse_offset("1,2"),
            Err(OffsetParseError::NotThreeParts { .. })
        ));
        assert!(matches!(
            parse_offset("1,a,2"),
            Err(OffsetParseError::NotANumber { part, .. }) if part == "a"
        ));
        assert!(parse_offset("1,inf,2").is_err());
    }
}
