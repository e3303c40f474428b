#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A room of an area whose walkmesh runs onto floor the next room draws (as outdoor rooms'
//! walkmeshes do): against its own model that strip is walkable area on air; against the
//! area's picture (every room's model at its layout position) it is not, while a strip
//! running on past every model still is.

use walkmesh_core::{Material, NavMesh, Surface};
use walkmesh_generate::model_lint::{Picture, Tolerances, WALK_ON_AIR, compare, compare_in_area};
use walkmesh_generate::{Engine, Params};

const STONE: Surface = Surface {
    material: Material(4),
    walkable: true,
    code: 4,
};

/// A level rectangle from `x0` to `x1` (0 to 10 in y) at height 0, as one quad.
fn floor(x0: f32, x1: f32) -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [x0, 0.0, 0.0],
            [x1, 0.0, 0.0],
            [x1, 10.0, 0.0],
            [x0, 10.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], STONE);
    mesh.push_polygon(&[0, 2, 3], STONE);
    mesh
}

fn air_between(findings: &[walkmesh_lint::Finding], x0: f32, x1: f32) -> usize {
    findings
        .iter()
        .filter(|f| f.code == WALK_ON_AIR)
        .filter(|f| f.at.is_some_and(|p| p[0] > x0 && p[0] < x1))
        .count()
}

#[test]
fn a_walkmesh_running_onto_the_next_room_s_floor_is_on_air_only_past_every_model() {
    let params = Params::preset(Engine::Kotor);
    // This room's model: floor from 0 to 10 m; the next room's: 10 to 20 m.
    let own = Picture::of(&floor(0.0, 10.0), &params).unwrap();
    let area = Picture::of(
        &walkmesh_generate::combine(&[floor(0.0, 10.0), floor(10.0, 20.0)]),
        &params,
    )
    .unwrap();
    let tolerances = Tolerances::default();
    // The walkmesh runs 4 m onto the next room's floor.
    let onto_next = floor(0.0, 14.0);
    let alone = compare(&onto_next, &own, [0.0; 3], &tolerances).unwrap();
    assert_eq!(air_between(&alone.findings, 10.0, 14.0), 1, "{alone:#?}");
    let in_area = compare_in_area(&onto_next, &own, [0.0; 3], &tolerances, Some(&area)).unwrap();
    assert_eq!(air_between(&in_area.findings, 0.0, 30.0), 0, "{in_area:#?}");
    // Running on 3 m past the next room's floor too: that strip is on air in the area.
    let past_both = floor(0.0, 23.0);
    let in_area = compare_in_area(&past_both, &own, [0.0; 3], &tolerances, Some(&area)).unwrap();
    assert_eq!(
        air_between(&in_area.findings, 20.0, 23.0),
        1,
        "{in_area:#?}"
    );
    assert_eq!(
        air_between(&in_area.findings, 10.0, 20.0),
        0,
        "{in_area:#?}"
    );
}
