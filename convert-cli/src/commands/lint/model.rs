//! `lint WALKMESH --model MODEL` and `lint AREA --models DIR`: reads the render geometry (as
//! `generate` reads it) and the agent options; the comparison is
//! `walkmesh_pipeline::lint_model`'s.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, NavMesh, Registry, Severity};
use walkmesh_generate::{Engine, Overrides, Params};
use walkmesh_lint::{Finding, Level};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::generate::{read_inputs, render_read_options};
use walkmesh_pipeline::lint_model::{AreaRoom, lint_against_model, lint_area_against_models};

use super::{Args, Linted, ModelReport};
use crate::input::read_options;
use crate::input::render_geometry;

/// Adds the model comparison's findings (and the reader's notes on the models) to
/// `findings`; for one walkmesh, where the model was placed.
pub(super) fn compare(
    registry: &Registry,
    args: &Args,
    linted: &Linted,
    engine: Engine,
    findings: &mut Vec<Finding>,
) -> Result<Option<ModelReport>, Failure> {
    if args.model.is_empty() && args.models.is_none() {
        return Ok(None);
    }
    let params = params(args, engine)?;
    let mut diag = Diagnostics::new();
    let report = match (&args.models, &linted.area) {
        (Some(dir), Some(area)) => {
            let rooms = area_rooms(registry, args, dir, area, &mut diag, findings)?;
            findings.extend(lint_area_against_models(rooms, &params)?);
            None
        }
        (Some(_), None) => {
            return Err(Failure::usage(
                "--models DIR is for an area (a folder or module archive with a layout); compare one walkmesh with --model MODEL",
            ));
        }
        (None, Some(_)) => {
            return Err(Failure::usage(
                "an area's rooms are compared with their models with --models DIR (the folder holding ROOM.mdl for each layout room)",
            ));
        }
        (None, None) => {
            let models = read_models(registry, args, &args.model, &mut diag)?;
            let linted_model = lint_against_model(&linted.mesh, &models, &params, [0.0; 3])?;
            findings.extend(linted_model.findings);
            Some(ModelReport {
                files: args.model.clone(),
                shift: linted_model.fit.shift,
                fit: (linted_model.fit.score * 1000.0).round() / 1000.0,
            })
        }
    };
    // The model reader's notes come after the walkmesh's, before the comparison's.
    let notes: Vec<Finding> = diag.items.iter().map(Finding::from_diagnostic).collect();
    let at = findings.iter().take_while(|f| f.at.is_none()).count();
    findings.splice(at..at, notes);
    Ok(report)
}

/// The engine's preset with the agent options over it, as `generate` makes it.
fn params(args: &Args, engine: Engine) -> Result<Params, Failure> {
    let agent = &args.agent;
    let overrides = Overrides {
        agent_height: agent.agent_height,
        agent_radius: agent.agent_radius,
        max_climb: agent.max_climb,
        max_slope: agent.max_slope,
        cell_size: agent.cell_size,
        cell_height: agent.cell_height,
        max_memory_mib: agent.max_memory,
        ..Overrides::default()
    };
    Params::with_overrides(engine, &overrides)
        .map_err(|e| Failure::usage(format!("lint --model: {e}")))
}

fn read_models(
    registry: &Registry,
    args: &Args,
    files: &[PathBuf],
    diag: &mut Diagnostics,
) -> Result<Vec<NavMesh>, Failure> {
    let read = render_read_options(read_options(&args.read)?);
    read_inputs(registry, files, &read, &render_geometry, diag)
}

/// Each room with a walkmesh and a model in `dir` (ROOM.mdl, the layout's name or its lower
/// case), with its layout position and first face in the area; rooms without a model are
/// listed in one note.
fn area_rooms<'a>(
    registry: &Registry,
    args: &Args,
    dir: &Path,
    area: &'a super::area::AreaSource,
    diag: &mut Diagnostics,
    findings: &mut Vec<Finding>,
) -> Result<Vec<AreaRoom<'a>>, Failure> {
    let mut rooms = Vec::new();
    let mut without = Vec::new();
    let mut first_face = 0u32;
    for room in &area.rooms {
        let faces = room.mesh.polygons.len() as u32;
        let position = area.lyt.rooms.get(room.lyt_index).map(|r| r.position);
        let model = model_file(dir, &room.name);
        match (position, model) {
            (Some(position), Some(model)) => rooms.push(AreaRoom {
                name: &room.name,
                walkmesh: &room.mesh,
                model: read_models(registry, args, &[model], diag)?,
                position,
                first_face,
            }),
            _ => without.push(walkmesh_core::printable::escape(&room.name).into_owned()),
        }
        first_face += faces;
    }
    if !without.is_empty() {
        findings.push(Finding {
            code: "model.room_without_model".into(),
            severity: Severity::Info,
            faces: Vec::new(),
            at: None,
            message: format!(
                "rooms not compared, no ROOM.mdl in {}: {}",
                dir.display(),
                without.join(", ")
            ),
            fixable: false,
            level: Level::Default,
            area: None,
        });
    }
    Ok(rooms)
}

fn model_file(dir: &Path, room: &str) -> Option<PathBuf> {
    // The room name comes from the layout file: it becomes a path only as a plain file name.
    [room.to_string(), room.to_ascii_lowercase()]
        .into_iter()
        .map(|name| format!("{name}.mdl"))
        .filter(|file| walkmesh_core::confine::check(file).is_ok())
        .map(|file| dir.join(file))
        .find(|path| path.is_file())
}
