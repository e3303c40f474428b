//! A whole area as one mesh, and back.
//!
//! [`assemble`] places every room of a layout (room WOKs are stored in area coordinates, so
//! placing is concatenating) into one [`NavMesh`]: each face carries its room's LYT index in
//! the `area:room` column (and, for OBJ, the same index as an `obj:group` named after the room,
//! so Blender shows one object group per room), transitions stay edge tags, LYT door hooks
//! become hooks named `door:<room>:<door>`. [`split`] cuts such a mesh (edited in Blender and
//! read back from glTF or OBJ) into one mesh per room, ready to be written as WOKs.

use std::collections::BTreeMap;
use std::path::Path;

use walkmesh_core::{Attribute, EdgeRef, Extra, Hook, MeshKind, NavMesh, Polygons};

use crate::error::AreaError;

use crate::lyt::Lyt;
use crate::placed::unique_rooms;
use crate::transitions::RoomMesh;

/// Per-face column: the LYT index of the face's room.
pub use walkmesh_core::ir::ROOM_COLUMN;
/// Mesh value: the LYT room names, in LYT order.
pub const ROOM_NAMES: &str = "area:rooms";
/// Mesh value: each LYT room's walkmesh position (WOK header), three floats per room.
pub const ROOM_ORIGINS: &str = "area:origins";
/// Mesh value: each door hook's orientation quaternion (x, y, z, w), in hook order.
pub const DOOR_ORIENTATIONS: &str = "area:door_orientations";
const OBJ_GROUP: &str = "obj:group";
const OBJ_GROUPS: &str = "obj:groups";

/// One mesh of the whole area. Rooms whose LYT index is out of range are skipped (the caller
/// checks that).
pub fn assemble(lyt: &Lyt, rooms: &[RoomMesh]) -> NavMesh {
    let mut area = NavMesh {
        kind: MeshKind::Area,
        ..NavMesh::default()
    };
    let total_faces: usize = rooms.iter().map(|r| r.mesh.polygons.len()).sum();
    let total_indices: usize = rooms.iter().map(|r| r.mesh.polygons.indices().len()).sum();
    area.polygons = Polygons::with_capacity(total_faces, total_indices);
    let mut column = Vec::with_capacity(total_faces);
    let mut origins: Vec<f32> = lyt.rooms.iter().flat_map(|r| r.position).collect();
    for room in rooms {
        if room.lyt_index >= lyt.rooms.len() {
            continue;
        }
        if let Some(slot) = origins.get_mut(room.lyt_index * 3..room.lyt_index * 3 + 3) {
            slot.copy_from_slice(&room.mesh.origin);
        }
        let base = area.vertices.len() as u32;
        let first_face = area.polygons.len() as u32;
        area.vertices.extend_from_slice(&room.mesh.vertices);
        let mut shifted = Vec::new();
        for (polygon, surface) in room.mesh.polygons.iter().zip(&room.mesh.surfaces) {
            shifted.clear();
            shifted.extend(polygon.iter().map(|&v| v + base));
            area.push_polygon(&shifted, *surface);
            column.push(room.lyt_index as i64);
        }
        for (edge, tag) in &room.mesh.edge_tags {
            area.edge_tags.insert(
                EdgeRef {
                    polygon: edge.polygon + first_face,
                    edge: edge.edge,
                },
                *tag,
            );
        }
    }
    area.face_attributes
        .insert(OBJ_GROUP.into(), Attribute::Int(column.clone()));
    area.face_attributes
        .insert(ROOM_COLUMN.into(), Attribute::Int(column));
    let names: Vec<String> = lyt.rooms.iter().map(|r| r.name.clone()).collect();
    area.extras
        .insert(OBJ_GROUPS.into(), Extra::TextList(names.clone()));
    area.extras
        .insert(ROOM_NAMES.into(), Extra::TextList(names));
    area.extras
        .insert(ROOM_ORIGINS.into(), Extra::Floats(origins));
    let mut orientations = Vec::new();
    for hook in &lyt.door_hooks {
        area.hooks.push(Hook {
            name: format!("door:{}:{}", hook.room, hook.door),
            position: hook.position,
        });
        orientations.extend_from_slice(&hook.orientation);
    }
    if !orientations.is_empty() {
        area.extras
            .insert(DOOR_ORIENTATIONS.into(), Extra::Floats(orientations));
    }
    area
}

/// Cuts an assembled area back into rooms, one per LYT room that has faces. The room of a
/// face comes from the `area:room` column, else from the `obj:group` name (an OBJ read back),
/// matched to the layout's room names. Each room keeps its vertices (area coordinates, as game
/// rooms store them), surfaces and transitions; its origin is the stored walkmesh position, else
/// the room's LYT position. A layout naming one room twice is refused (both rooms would be
/// written as the one `ROOM.wok`); `lyt_file` names the layout in that refusal.
pub fn split(mesh: &NavMesh, lyt: &Lyt, lyt_file: &Path) -> Result<Vec<RoomMesh>, AreaError> {
    unique_rooms(lyt, lyt_file)?;
    mesh.check()?;
    let rooms_of_faces = face_rooms(mesh, lyt)?;
    let origins = match mesh.extras.get(ROOM_ORIGINS) {
        Some(Extra::Floats(values)) if values.len() == lyt.rooms.len() * 3 => Some(values),
        _ => None,
    };
    // Faces of each room, in mesh order.
    let mut faces: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (face, &room) in rooms_of_faces.iter().enumerate() {
        faces.entry(room).or_default().push(face);
    }
    let mut out = Vec::with_capacity(faces.len());
    let mut new_index = vec![u32::MAX; mesh.vertices.len()];
    for (room, list) in faces {
        let Some(placement) = lyt.rooms.get(room) else {
            continue;
        };
        let mut part = NavMesh {
            kind: MeshKind::Area,
            origin: origins
                .and_then(|o| o.get(room * 3..room * 3 + 3))
                .and_then(|s| <[f32; 3]>::try_from(s).ok())
                .unwrap_or(placement.position),
            ..NavMesh::default()
        };
        let mut used: Vec<u32> = list
            .iter()
            .flat_map(|&f| mesh.polygons.get(f).iter().copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        for (k, &v) in used.iter().enumerate() {
            if let Some(slot) = new_index.get_mut(v as usize) {
                *slot = k as u32;
            }
            part.vertices.push(mesh.vertex(v));
        }
        let mut local: Vec<u32> = Vec::new();
        let mut position_of_face = BTreeMap::new();
        for (k, &f) in list.iter().enumerate() {
            local.clear();
            local.extend(
                mesh.polygons
                    .get(f)
                    .iter()
                    .map(|&v| new_index.get(v as usize).copied().unwrap_or(0)),
            );
            let surface = mesh
                .surfaces
                .get(f)
                .copied()
                .unwrap_or(walkmesh_core::Surface {
                    material: walkmesh_core::Material(7),
                    walkable: false,
                    code: 7,
                });
            part.push_polygon(&local, surface);
            position_of_face.insert(f as u32, k as u32);
        }
        for (edge, tag) in mesh.edge_tags.range(
            EdgeRef {
                polygon: list.first().copied().unwrap_or(0) as u32,
                edge: 0,
            }..,
        ) {
            if let Some(&k) = position_of_face.get(&edge.polygon) {
                part.edge_tags.insert(
                    EdgeRef {
                        polygon: k,
                        edge: edge.edge,
                    },
                    *tag,
                );
            }
        }
        for (name, column) in &mesh.face_attributes {
            if name.starts_with("area:") || name.starts_with("obj:") {
                continue;
            }
            let order: Vec<u32> = list.iter().map(|&f| f as u32).collect();
            part.face_attributes
                .insert(name.clone(), column.permuted(&order));
        }
        out.push(RoomMesh {
            lyt_index: room,
            name: placement.name.clone(),
            mesh: part,
        });
    }
    Ok(out)
}

/// The LYT room index of every face.
fn face_rooms(mesh: &NavMesh, lyt: &Lyt) -> Result<Vec<usize>, AreaError> {
    let faces = mesh.polygons.len();
    if let Some(Attribute::Int(values)) = mesh.face_attributes.get(ROOM_COLUMN) {
        return values
            .iter()
            .enumerate()
            .map(|(face, &room)| {
                usize::try_from(room)
                    .ok()
                    .filter(|&r| r < lyt.rooms.len())
                    .ok_or(AreaError::RoomOutOfRange {
                        face,
                        room,
                        rooms: lyt.rooms.len(),
                    })
            })
            .collect();
    }
    if let (Some(Attribute::Int(values)), Some(Extra::TextList(names))) = (
        mesh.face_attributes.get(OBJ_GROUP),
        mesh.extras.get(OBJ_GROUPS),
    ) {
        return values
            .iter()
            .enumerate()
            .map(|(face, &group)| {
                let name = usize::try_from(group)
                    .ok()
                    .and_then(|g| names.get(g))
                    .ok_or(AreaError::NoGroup { face })?;
                lyt.room_index(name).ok_or_else(|| AreaError::UnknownGroup {
                    face,
                    group: name.clone(),
                })
            })
            .collect();
    }
    Err(AreaError::NoRooms { faces })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::lyt::read_lyt;
    use walkmesh_core::{EdgeTag, Material, Surface};

    #[test]
    fn the_no_rooms_message_names_the_room_column() {
        let message = AreaError::NoRooms { faces: 3 }.to_string();
        assert!(
            message.contains(&format!("'{ROOM_COLUMN}' column")),
            "{message}"
        );
    }

    fn tri(x0: f32, transition: Option<i32>) -> NavMesh {
        let mut mesh = NavMesh {
            vertices: vec![[x0, 0.0, 0.0], [x0 + 1.0, 0.0, 0.0], [x0, 1.0, 0.0]],
            origin: [x0, 0.0, 0.0],
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
        if let Some(t) = transition {
            mesh.edge_tags.insert(
                EdgeRef {
                    polygon: 0,
                    edge: 1,
                },
                EdgeTag { transition: t },
            );
        }
        mesh
    }

    #[test]
    fn assemble_then_split_gives_the_rooms_back() {
        let (lyt, _) = read_lyt(
            b"beginlayout\nroomcount 3\nA 0 0 0\nB 5 0 0\nC 9 9 9\ndoorhookcount 1\nA d1 0 1 2 3 0 0 0 1\ndonelayout\n",
        )
        .unwrap();
        let rooms = vec![
            RoomMesh {
                lyt_index: 0,
                name: "A".into(),
                mesh: tri(0.0, Some(1)),
            },
            RoomMesh {
                lyt_index: 1,
                name: "B".into(),
                mesh: tri(5.0, None),
            },
        ];
        let area = assemble(&lyt, &rooms);
        assert_eq!(area.vertices.len(), 6);
        assert_eq!(area.polygons.get(1), &[3, 4, 5]);
        assert_eq!(
            area.face_attributes[ROOM_COLUMN],
            Attribute::Int(vec![0, 1])
        );
        assert_eq!(area.hooks[0].name, "door:A:d1");
        assert_eq!(area.hooks[0].position, [1.0, 2.0, 3.0]);
        assert_eq!(area.edge_tags.len(), 1);
        let back = split(&area, &lyt, Path::new("area.lyt")).unwrap();
        assert_eq!(back.len(), 2);
        for (a, b) in rooms.iter().zip(&back) {
            assert_eq!(a.lyt_index, b.lyt_index);
            assert_eq!(a.mesh.vertices, b.mesh.vertices);
            assert_eq!(a.mesh.polygons, b.mesh.polygons);
            assert_eq!(a.mesh.edge_tags, b.mesh.edge_tags);
            assert_eq!(a.mesh.origin, b.mesh.origin);
        }
        // Through OBJ groups only (what an OBJ read back carries).
        let mut obj_like = area.clone();
        obj_like.face_attributes.remove(ROOM_COLUMN);
        obj_like.extras.remove(ROOM_ORIGINS);
        let back = split(&obj_like, &lyt, Path::new("area.lyt")).unwrap();
        assert_eq!(back[1].name, "B");
        assert_eq!(back[1].mesh.origin, [5.0, 0.0, 0.0]);
        obj_like.face_attributes.remove("obj:group");
        assert!(split(&obj_like, &lyt, Path::new("area.lyt")).is_err());
        assert!(matches!(
            split(&obj_like, &lyt, Path::new("area.lyt")),
            Err(AreaError::NoRooms { faces }) if faces == obj_like.polygons.len()
        ));
    }
}
