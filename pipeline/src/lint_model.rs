//! `walkmesh lint WALKMESH --model MODEL` (and `lint AREA --models DIR`): the walkmesh against
//! what its render geometry says (`walkmesh_generate::model_lint`), written once for the
//! command line and the Python package. The model is read by the caller (the render geometry
//! reader is the command's, as for `generate`); this combines it, makes generate's picture
//! with the run's parameters, finds where the walkmesh sits on it and compares.

use walkmesh_core::NavMesh;
use walkmesh_generate::model_lint::{Fit, Picture, Tolerances, compare_in_area, fit};
use walkmesh_generate::{GenerateError, Params};
use walkmesh_lint::Finding;

use crate::failure::Failure;

/// The comparison's findings and where the model was placed.
#[derive(Clone, Debug)]
pub struct ModelLint {
    pub findings: Vec<Finding>,
    /// The shift added to the model (the walkmesh's frame) and how well it fits there.
    pub fit: Fit,
}

/// Compares `walkmesh` with the render meshes `models` (one scene) under `params`. The model
/// is placed where it fits the walkmesh best, `expected` (the origin, or a room's layout
/// position) unless another place fits clearly better.
pub fn lint_against_model(
    walkmesh: &NavMesh,
    models: &[NavMesh],
    params: &Params,
    expected: [f32; 3],
) -> Result<ModelLint, Failure> {
    let scene = walkmesh_generate::combine(models);
    lint_against_scene(walkmesh, &scene, params, expected, None)
}

/// [`lint_against_model`] with the render meshes already combined into one `scene` (the
/// inspector draws the scene it was compared with), for a room of an area whose picture
/// (every room's model at its layout position) is `area`, if any: floor a neighbouring room
/// draws is no air under it.
pub fn lint_against_scene(
    walkmesh: &NavMesh,
    scene: &NavMesh,
    params: &Params,
    expected: [f32; 3],
    area: Option<&Picture>,
) -> Result<ModelLint, Failure> {
    let picture = Picture::of(scene, params).map_err(model_failure)?;
    let fitted = fit(walkmesh, &picture, expected).map_err(model_failure)?;
    let tolerances = Tolerances::default();
    let comparison = compare_in_area(walkmesh, &picture, fitted.shift, &tolerances, area)
        .map_err(model_failure)?;
    Ok(ModelLint {
        findings: comparison.findings,
        fit: fitted,
    })
}

/// The picture of every room's model placed at its layout position (the area's frame).
fn area_picture(rooms: &[AreaRoom<'_>], params: &Params) -> Result<Picture, Failure> {
    let placed: Vec<NavMesh> = rooms
        .iter()
        .flat_map(|room| {
            room.model.iter().map(|model| {
                let mut model = model.clone();
                for vertex in &mut model.vertices {
                    for (axis, offset) in vertex.iter_mut().zip(room.position) {
                        *axis += offset;
                    }
                }
                model
            })
        })
        .collect();
    let scene = walkmesh_generate::combine(&placed);
    drop(placed);
    Picture::of(&scene, params).map_err(model_failure)
}

fn model_failure(error: GenerateError) -> Failure {
    match error {
        GenerateError::Parameter { .. } => Failure::usage(format!("lint --model: {error}")),
        _ => Failure::in_context("lint --model: ", &error),
    }
}

/// One layout room of an area to compare: its walkmesh (as stored: area coordinates), its
/// model's render meshes, the layout's position for it and the number of the room's first
/// face in the assembled area.
#[derive(Debug)]
pub struct AreaRoom<'a> {
    pub name: &'a str,
    pub walkmesh: &'a NavMesh,
    pub model: Vec<NavMesh>,
    pub position: [f32; 3],
    pub first_face: u32,
}

/// Compares every room of an area with its model at its layout position: a room whose
/// walkmesh fits its model elsewhere gets one `model.lyt_offset` finding (with the position
/// that fits), and its other findings are measured where it fits; faces are renumbered into
/// the area's numbering.
pub fn lint_area_against_models(
    rooms: Vec<AreaRoom<'_>>,
    params: &Params,
) -> Result<Vec<Finding>, Failure> {
    let mut findings = Vec::new();
    let area = area_picture(&rooms, params)?;
    for room in rooms {
        let scene = walkmesh_generate::combine(&room.model);
        let linted = lint_against_scene(room.walkmesh, &scene, params, room.position, Some(&area))?;
        drop(scene);
        let walkable: Vec<u32> = (0..room.walkmesh.polygons.len())
            .filter(|&p| room.walkmesh.surfaces.get(p).is_some_and(|s| s.walkable))
            .map(|p| p as u32 + room.first_face)
            .collect();
        let at = walkmesh_generate::model_lint::walkable_centroid(room.walkmesh)
            .unwrap_or(room.position);
        findings.extend(walkmesh_generate::model_lint::lyt_offset_finding(
            room.name,
            room.position,
            &linted.fit,
            walkable,
            at,
        ));
        for mut finding in linted.findings {
            for face in &mut finding.faces {
                *face += room.first_face;
            }
            finding.message = format!("room {}: {}", room.name, finding.message);
            findings.push(finding);
        }
    }
    Ok(findings)
}
