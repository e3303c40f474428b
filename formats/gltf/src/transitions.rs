//! Transitions (KotOR edge tags) in texture coordinates: the form of them that survives an
//! edit in Blender.
//!
//! Blender 3.4's glTF exporter drops primitive `extras`, keeps scene `extras` only with
//! "Custom Properties" ticked, and re-splits faces, so the face-keyed `edge_tags` in `extras`
//! do not survive an edit. Vertex colours do not either: its importer puts `COLOR_0` on face
//! corners, and its exporter reads corner colours by vertex index, which scrambles them
//! (`__get_color_attribute` in `gltf2_blender_gather_primitives_extract.py`). Texture
//! coordinates are read and written per corner correctly, and integers pass its `v → 1 − v`
//! flip exactly, so `TEXCOORD_0` carries them.
//!
//! A transition lies on a boundary edge of the walkable region. Walking the boundary the way
//! the walkable polygons are wound, each boundary vertex has one boundary edge coming in and
//! one going out. A vertex touching a tagged edge gets the texture coordinate
//! `(1024 + in, 1024 + out)`: the tags of the edge coming in and the edge going out, 255 for
//! no tag (so tags 0–254 can be carried); every other vertex gets `(0, 0)`. A boundary edge
//! `u → v` has tag `T` when `out(u) = in(v) = T`.

use std::collections::{BTreeMap, HashMap};

use walkmesh_core::passes::edge_adjacency;
use walkmesh_core::{EdgeRef, EdgeTag, NavMesh};

/// The tag byte meaning "no tag".
pub const NO_TAG: u8 = 255;
/// Texture coordinates of tags start here, far from the 0–1 range of real texture maps.
pub const BASE: f32 = 1024.0;

/// The tag byte a texture-coordinate component stands for: `Some(NO_TAG)` for 0 (a vertex
/// touching no tag), `Some(t)` for `1024 + t`, `None` for anything else (real texture
/// coordinates).
pub fn tag_of(component: f64) -> Option<u8> {
    if component == 0.0 {
        return Some(NO_TAG);
    }
    let t = component - f64::from(BASE);
    (t.fract() == 0.0 && (0.0..=255.0).contains(&t)).then_some(t as u8)
}

/// What [`encode`] produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Encoded {
    /// Texture coordinates per vertex; empty when the mesh has no edge tags.
    pub texcoords: Vec<[f32; 2]>,
    /// Edge tags that the texture coordinates cannot carry (not on the walkable boundary, outside
    /// 0–254, or at a vertex where the boundary passes twice); `extras` still has them.
    pub not_encoded: usize,
}

/// Texture coordinates for the vertices of `mesh` carrying its edge tags.
pub fn encode(mesh: &NavMesh) -> Encoded {
    if mesh.edge_tags.is_empty() {
        return Encoded::default();
    }
    let adjacency = edge_adjacency(mesh, |p| mesh.is_walkable(p));
    let count = mesh.vertices.len();
    // (in, out) per vertex; `None` while no boundary edge has touched it.
    let mut incoming: Vec<Option<u8>> = vec![None; count];
    let mut outgoing: Vec<Option<u8>> = vec![None; count];
    let mut encoded = 0usize;
    for (polygon, corners) in mesh.polygons.iter().enumerate() {
        if !mesh.is_walkable(polygon) {
            continue;
        }
        let first = mesh.polygons.first_index(polygon);
        for (edge, &u) in corners.iter().enumerate() {
            if !adjacency.is_boundary(first + edge) {
                continue;
            }
            let v = corners
                .get((edge + 1) % corners.len())
                .copied()
                .unwrap_or(u);
            let tag = mesh
                .edge_tags
                .get(&EdgeRef {
                    polygon: polygon as u32,
                    edge: edge as u32,
                })
                .and_then(|t| u8::try_from(t.transition).ok())
                .filter(|&t| t != NO_TAG);
            let byte = tag.unwrap_or(NO_TAG);
            let mut clash = false;
            for (slot, vertex) in [(&mut outgoing, u), (&mut incoming, v)] {
                if let Some(entry) = slot.get_mut(vertex as usize) {
                    match entry {
                        Some(old) if *old != byte => clash = true,
                        _ => *entry = Some(byte),
                    }
                }
            }
            if !clash && tag.is_some() {
                encoded += 1;
            }
        }
    }
    let texcoords = (0..count)
        .map(|v| {
            let i = incoming.get(v).copied().flatten().unwrap_or(NO_TAG);
            let o = outgoing.get(v).copied().flatten().unwrap_or(NO_TAG);
            if i == NO_TAG && o == NO_TAG {
                [0.0, 0.0]
            } else {
                [BASE + f32::from(i), BASE + f32::from(o)]
            }
        })
        .collect();
    Encoded {
        texcoords,
        not_encoded: mesh.edge_tags.len().saturating_sub(encoded),
    }
}

/// What [`decode`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decoded {
    pub tags: BTreeMap<EdgeRef, EdgeTag>,
    /// Boundary edges whose two ends disagree (edited after export): left untagged.
    pub mismatched: usize,
}

/// Key for exact position equality: `-0.0` and `0.0` are the same place.
fn position_key(p: [f32; 3]) -> [u32; 3] {
    p.map(|c| if c == 0.0 { 0 } else { c.to_bits() })
}

/// Reads edge tags from per-vertex tag pairs `(in, out)` (made with [`tag_of`]; `None`: the
/// vertex had no texture coordinate). The walkable boundary is found by position, since
/// modelling tools duplicate vertices where faces of different materials meet.
pub fn decode(mesh: &NavMesh, pairs: &[Option<[u8; 2]>]) -> Decoded {
    let mut decoded = Decoded::default();
    if !pairs.iter().flatten().any(|p| *p != [NO_TAG, NO_TAG]) {
        return decoded;
    }
    let key = |a: u32, b: u32| {
        let (ka, kb) = (position_key(mesh.vertex(a)), position_key(mesh.vertex(b)));
        if ka <= kb { [ka, kb] } else { [kb, ka] }
    };
    let walkable_edges = || {
        mesh.polygons
            .iter()
            .enumerate()
            .filter(|&(p, _)| mesh.is_walkable(p))
            .flat_map(|(p, corners)| {
                corners.iter().enumerate().map(move |(e, &u)| {
                    let v = corners.get((e + 1) % corners.len()).copied().unwrap_or(u);
                    (p, e, u, v)
                })
            })
    };
    let mut uses: HashMap<[[u32; 3]; 2], u32> = HashMap::new();
    for (_, _, u, v) in walkable_edges() {
        *uses.entry(key(u, v)).or_insert(0) += 1;
    }
    let channel = |vertex: u32, index: usize| {
        pairs
            .get(vertex as usize)
            .copied()
            .flatten()
            .and_then(|p| p.get(index).copied())
            .unwrap_or(NO_TAG)
    };
    for (p, e, u, v) in walkable_edges() {
        if uses.get(&key(u, v)) != Some(&1) {
            continue;
        }
        let (out_u, in_v) = (channel(u, 1), channel(v, 0));
        if out_u == in_v && out_u != NO_TAG {
            decoded.tags.insert(
                EdgeRef {
                    polygon: p as u32,
                    edge: e as u32,
                },
                EdgeTag {
                    transition: i32::from(out_u),
                },
            );
        } else if out_u != in_v && out_u != NO_TAG && in_v != NO_TAG {
            decoded.mismatched += 1;
        }
    }
    decoded
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{Material, Surface};

    fn walk() -> Surface {
        Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        }
    }

    /// A 2×1 strip of two squares (four triangles); boundary counter-clockwise.
    fn strip() -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
                [2.0, 1.0, 0.0],
            ],
            ..NavMesh::default()
        };
        mesh.push_polygon(&[0, 1, 4], walk());
        mesh.push_polygon(&[0, 4, 3], walk());
        mesh.push_polygon(&[1, 2, 5], walk());
        mesh.push_polygon(&[1, 5, 4], walk());
        mesh
    }

    /// What a reader makes of the written coordinates, after Blender's `v → 1 − v` and back.
    fn pairs(texcoords: &[[f32; 2]]) -> Vec<Option<[u8; 2]>> {
        texcoords
            .iter()
            .map(|t| {
                let v = 1.0 - (1.0 - t[1]);
                match (tag_of(f64::from(t[0])), tag_of(f64::from(v))) {
                    (Some(a), Some(b)) => Some([a, b]),
                    _ => None,
                }
            })
            .collect()
    }

    #[test]
    fn tags_read_only_from_exact_integers() {
        assert_eq!(tag_of(0.0), Some(NO_TAG));
        assert_eq!(tag_of(1024.0), Some(0));
        assert_eq!(tag_of(1024.0 + 254.0), Some(254));
        assert_eq!(tag_of(1024.0 + 255.0), Some(NO_TAG));
        assert_eq!(tag_of(1024.5), None);
        assert_eq!(tag_of(0.5), None);
        assert_eq!(tag_of(1.0), None);
        assert_eq!(tag_of(1280.0), None);
    }

    #[test]
    fn tags_on_the_boundary_round_trip() {
        let mut mesh = strip();
        // Right side (2,0)→(2,1): polygon 2 edge 1. Bottom left (0,0)→(1,0): polygon 0
        // edge 0. Top right (2,1)→(1,1): polygon 3 edge 1.
        for (polygon, edge, transition) in [(2, 1, 7), (0, 0, 0), (3, 1, 254)] {
            mesh.edge_tags
                .insert(EdgeRef { polygon, edge }, EdgeTag { transition });
        }
        let encoded = encode(&mesh);
        assert_eq!(encoded.not_encoded, 0);
        // Vertex 0: in from the left side (untagged), out along the tagged bottom edge.
        assert_eq!(encoded.texcoords[0], [BASE + 255.0, BASE]);
        assert_eq!(encoded.texcoords[3], [0.0, 0.0]); // touches no tag
        let decoded = decode(&mesh, &pairs(&encoded.texcoords));
        assert_eq!(decoded.tags, mesh.edge_tags);
        assert_eq!(decoded.mismatched, 0);
    }

    #[test]
    fn duplicated_vertices_still_find_the_boundary() {
        let mut mesh = strip();
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 2,
                edge: 1,
            },
            EdgeTag { transition: 3 },
        );
        let written = pairs(&encode(&mesh).texcoords);
        // Split the right square onto its own copies of vertices 1 and 4, as an exporter
        // does at a material seam: the shared edge must stay interior.
        let mut split = NavMesh {
            vertices: mesh.vertices.clone(),
            ..NavMesh::default()
        };
        split.vertices.push([1.0, 0.0, 0.0]);
        split.vertices.push([1.0, 1.0, 0.0]);
        split.push_polygon(&[0, 1, 4], walk());
        split.push_polygon(&[0, 4, 3], walk());
        split.push_polygon(&[6, 2, 5], walk());
        split.push_polygon(&[6, 5, 7], walk());
        let mut split_pairs = written.clone();
        split_pairs.push(written[1]);
        split_pairs.push(written[4]);
        let decoded = decode(&split, &split_pairs);
        assert_eq!(
            decoded.tags.into_iter().collect::<Vec<_>>(),
            vec![(
                EdgeRef {
                    polygon: 2,
                    edge: 1
                },
                EdgeTag { transition: 3 }
            )]
        );
    }

    #[test]
    fn untaggable_values_are_counted_and_disagreements_left_out() {
        let mut mesh = strip();
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 0,
            },
            EdgeTag { transition: -1 },
        );
        mesh.edge_tags.insert(
            EdgeRef {
                polygon: 0,
                edge: 1,
            },
            EdgeTag { transition: 2 },
        ); // interior edge
        assert_eq!(encode(&mesh).not_encoded, 2);
        assert_eq!(decode(&mesh, &[None; 6]), Decoded::default());
        // Bottom edge 0→1: out(0) = 5 but in(1) = 6.
        let mut disagree = vec![Some([NO_TAG, NO_TAG]); 6];
        disagree[0] = Some([NO_TAG, 5]);
        disagree[1] = Some([6, NO_TAG]);
        let decoded = decode(&mesh, &disagree);
        assert!(decoded.tags.is_empty());
        assert_eq!(decoded.mismatched, 1);
    }
}
