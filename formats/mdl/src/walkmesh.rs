//! The model's own walkmesh (its AABB node) as a BWM-equivalent [`NavMesh`].
//!
//! What the mesh holds (compare `formats/bwm/src/read.rs`): kind area; the node's vertices
//! moved into model space by its rest transform down the parent chain; its faces in file order;
//! surfaces from the face codes through the KotOR profile (`core/profiles/kotor.ron`, or the
//! user's `--materials` when it is a KotOR profile), walkability from the profile, unknown codes
//! read as not walkable with `mdl.unknown_material`; `origin` = the node's model-space
//! position (what the room's `.wok` stores as its position, docs/formats/mdl.md §6.4).
//!
//! What it does not hold: the room's LYT position (a room `.wok` is in area coordinates, the
//! model in room coordinates: docs/formats/mdl.md §6.3), transitions (a model has none) and the
//! AABB tree (writers rebuild it). The node keeps vertices split where the `.wok` has one
//! (§6.6), so the vertex identity is incidental: writers weld equal positions, as the `.wok`
//! has them. The `.wok` lists walkable faces first; the BWM writer's walkable-first order is
//! that same stable partition (§6.5).

use std::collections::BTreeSet;
use std::sync::Arc;

use walkmesh_core::{
    Diagnostics, Material, MaterialProfile, MeshKind, NavMesh, Polygons, Provenance, Surface,
    VertexIdentity,
};

use crate::error::{MdlError, MdlErrorKind};
use crate::model::Model;

/// The walkmesh node of `model` as a mesh (module documentation). `materials` replaces the
/// embedded KotOR profile when it is a KotOR profile. More than one walkmesh node: the first
/// is used, with the warning `mdl.several_walkmeshes`; none: a [`MdlErrorKind::NoWalkmesh`]
/// error.
pub fn walkmesh(
    model: &Model,
    materials: Option<&Arc<MaterialProfile>>,
    diag: &mut Diagnostics,
) -> Result<NavMesh, MdlError> {
    let found: Vec<usize> = model.walkmesh_nodes().collect();
    let Some(&index) = found.first() else {
        return Err(MdlError::whole(
            MdlErrorKind::NoWalkmesh,
            "nodes",
            format!(
                "the model has no walkmesh (AABB) node among its {} node(s), so it holds no walkmesh to read; its room walkmesh is in the .wok",
                model.nodes.len()
            ),
        ));
    };
    let (Some(node), Some(transform)) = (
        model.nodes.get(index),
        model.model_transforms().get(index).copied(),
    ) else {
        return Err(MdlError::whole(
            MdlErrorKind::Inconsistent,
            "nodes",
            "walkmesh node missing",
        ));
    };
    if found.len() > 1 {
        let names: Vec<String> = found
            .iter()
            .filter_map(|&i| model.nodes.get(i))
            .map(|n| format!("'{}'", n.name))
            .collect();
        diag.warn(
            "mdl.several_walkmeshes",
            format!(
                "the model has {} walkmesh (AABB) nodes ({}); only the first is read",
                found.len(),
                names.join(", ")
            ),
        );
    }
    let profile = walkmesh_core::material::choose_kotor_profile(materials);
    let faces = node.mesh.as_ref().map_or(0, |m| m.faces.len());
    let mut mesh = NavMesh {
        kind: MeshKind::Area,
        polygons: Polygons::with_capacity(faces, 3 * faces),
        surfaces: Vec::with_capacity(faces),
        ..NavMesh::default()
    };
    // Surfaces are set per face below; append with a placeholder first.
    let placeholder = Surface {
        material: Material(0),
        walkable: false,
        code: 0,
    };
    crate::render::append_node(&mut mesh, node, &transform, placeholder)?;
    let mut unknown = BTreeSet::new();
    if let Some(geometry) = &node.mesh {
        for (surface, face) in mesh.surfaces.iter_mut().zip(&geometry.faces) {
            let code = face.material;
            *surface = profile.surface_for_code(code).unwrap_or_else(|| {
                unknown.insert(code);
                Surface {
                    material: Material(u16::try_from(code).unwrap_or(u16::MAX)),
                    walkable: false,
                    code,
                }
            });
        }
    }
    if !unknown.is_empty() {
        let codes: Vec<String> = unknown.iter().map(u32::to_string).collect();
        diag.warn(
            "mdl.unknown_material",
            format!(
                "material code(s) {} of walkmesh node '{}' are not in the KotOR profile; their faces are read as not walkable",
                codes.join(", "),
                walkmesh_core::printable::escape(&node.name)
            ),
        );
    }
    mesh.origin = transform.translation.map(|c| c as f32);
    mesh.provenance = Some(Provenance {
        format: "mdl".into(),
        fingerprint: mesh.fingerprint(),
        vertex_identity: VertexIdentity::Incidental,
        ..Provenance::default()
    });
    Ok(mesh)
}
