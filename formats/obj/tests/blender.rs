#![allow(clippy::unwrap_used, clippy::expect_used)]
//! OBJ as Blender writes it: vertex identity, material names, faces without material, axes.
//! Expected figures are worked out by hand from the small files below.

use walkmesh_core::passes::as_modelled;
use walkmesh_core::summary::summarize;
use walkmesh_core::{
    Diagnostics, Input, NavMesh, ReadOptions, Requirements, UpAxis, VertexIdentity, WeldChoice,
};
use walkmesh_obj::read_obj;

fn read_with(text: &str, options: &ReadOptions) -> (NavMesh, Diagnostics) {
    let mut diag = Diagnostics::new();
    let mesh = read_obj(
        Input {
            bytes: text.as_bytes(),
            path: None,
        },
        options,
        &mut diag,
    )
    .unwrap();
    (mesh, diag)
}

fn read(text: &str) -> (NavMesh, Diagnostics) {
    read_with(text, &ReadOptions::default())
}

fn codes(diag: &Diagnostics) -> Vec<&str> {
    diag.items.iter().map(|d| d.code.as_str()).collect()
}

/// Two 1×1 floors meeting along x = 1, each its own Blender object with its own vertices (as
/// Blender's OBJ exporter writes them, Y up: file (x, y, z) = Blender (x, z, −y)).
const TWO_OBJECTS: &str = "\
# Blender v3.4.1 OBJ File
o left
v 0 0 0
v 1 0 0
v 1 0 -1
v 0 0 -1
usemtl Stone
f 1 2 3 4
o right
v 1 0 0
v 2 0 0
v 2 0 -1
v 1 0 -1
usemtl Grass
f 5 6 7 8
";

#[test]
fn modelling_tool_files_are_welded_by_default_and_ours_keep_identity() {
    let (mesh, _) = read(TWO_OBJECTS);
    assert_eq!(mesh.vertex_identity(), VertexIdentity::Incidental);
    assert_eq!(summarize(&mesh, "obj").components, 2);
    let mut diag = Diagnostics::new();
    let welded = as_modelled(&mesh, &mut diag);
    assert_eq!(welded.vertices.len(), 6);
    let summary = summarize(&welded, "obj");
    assert_eq!((summary.components, summary.boundary_loops), (1, 1));
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "prepare.welded" && d.message.contains("2 vertices")),
        "{diag:?}"
    );
    // --weld off keeps vertex identity.
    assert_eq!(
        WeldChoice::Off.tolerance(&mesh, &Requirements::default()),
        None
    );
    // The same file with one of our directives is ours: vertex identity is authored.
    let ours = format!("#@walkmesh kind area\n{TWO_OBJECTS}");
    let (mesh, _) = read(&ours);
    assert_eq!(mesh.vertex_identity(), VertexIdentity::Authored);
    let mut diag = Diagnostics::new();
    assert_eq!(as_modelled(&mesh, &mut diag).vertices.len(), 8);
    assert!(diag.items.is_empty());
}

#[test]
fn blender_and_kotorblender_material_names_are_recognised() {
    // Six unit squares in a row; three walkable by name, three not.
    let mut text = String::new();
    for i in 0..=6 {
        text += &format!("v {i} 0 0\nv {i} 0 -1\n");
    }
    for (i, name) in [
        "wok_Stone",
        "Grass.002",
        "wok_Dirt",
        "wok_NonWalk",
        "NonWalk.001",
        "wok_Nonwalk",
    ]
    .iter()
    .enumerate()
    {
        let a = 2 * i + 1;
        text += &format!("usemtl {name}\nf {} {} {} {}\n", a, a + 2, a + 3, a + 1);
    }
    let (mesh, diag) = read(&text);
    assert!(diag.items.is_empty(), "{diag:?}");
    let materials: Vec<(u16, bool)> = mesh
        .surfaces
        .iter()
        .map(|s| (s.material.0, s.walkable))
        .collect();
    assert_eq!(
        materials,
        [
            (4, true),
            (3, true),
            (1, true),
            (7, false),
            (7, false),
            (7, false)
        ]
    );
    assert!((summarize(&mesh, "obj").walkable_area - 3.0).abs() < 1e-9);
}

/// A 4×4 floor (Stone) and, as Blender writes an object without material, a wall object
/// with no `usemtl`: one 4 × 3 wall standing on the floor's edge y = 0.
const WALL_WITHOUT_MATERIAL: &str = "\
o floor
v 0 0 0
v 4 0 0
v 4 0 -4
v 0 0 -4
usemtl Stone
f 1 2 3 4
o wall
v 0 0 0
v 4 0 0
v 4 3 0
v 0 3 0
f 5 8 7 6
";

#[test]
fn an_object_without_material_does_not_become_walkable_floor() {
    let (mesh, diag) = read(WALL_WITHOUT_MATERIAL);
    assert_eq!(mesh.surfaces[1].material.0, 7, "the wall is NonWalk");
    assert!(!mesh.surfaces[1].walkable);
    assert!((summarize(&mesh, "obj").walkable_area - 16.0).abs() < 1e-9);
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "obj.no_material")
        .expect("a warning for the faces without material");
    assert!(
        warning.message.contains(
            "1 face(s) steeper than 60°, 12.00 square units, got 'NonWalk' (not walkable)"
        ),
        "{}",
        warning.message
    );
    // An explicit default applies to every face without material, walls included.
    let options = ReadOptions {
        default_material: Some("Dirt".into()),
        ..ReadOptions::default()
    };
    let (mesh, _) = read_with(WALL_WITHOUT_MATERIAL, &options);
    assert_eq!(mesh.surfaces[1].material.0, 1);
    // In our own files `o` is only a label: the material carries on.
    let ours = format!("#@walkmesh kind area\n{WALL_WITHOUT_MATERIAL}");
    let (mesh, diag) = read(&ours);
    assert_eq!(mesh.surfaces[1].material.0, 4);
    assert!(!codes(&diag).contains(&"obj.no_material"));
}

#[test]
fn unknown_names_say_what_became_walkable() {
    // A 2×2 floor and a 2×2 wall, both named Concrete.
    let text = "\
v 0 0 0\nv 2 0 0\nv 2 0 -2\nv 0 0 -2\nv 0 2 0\nv 2 2 0
usemtl Concrete
f 1 2 3 4
f 1 2 6 5
";
    let (mesh, diag) = read(text);
    assert_eq!(
        mesh.surfaces
            .iter()
            .map(|s| (s.material.0, s.walkable))
            .collect::<Vec<_>>(),
        [(4, true), (7, false)]
    );
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "obj.unknown_material")
        .unwrap();
    assert!(
        warning.message.contains("'Concrete' (line 7)")
            && warning
                .message
                .contains("1 face(s), 4.00 square units, got 'Stone' (walkable)")
            && warning
                .message
                .contains("1 face(s) steeper than 60°, 4.00 square units, got 'NonWalk'"),
        "{}",
        warning.message
    );
}

#[test]
fn a_z_up_export_read_as_y_up_is_caught() {
    // A 6×4 floor written Z-up (Blender's exporter with up = Z).
    let text = "v 0 0 0\nv 6 0 0\nv 6 4 0\nv 0 4 0\nusemtl Stone\nf 1 2 3 4\n";
    let (mesh, diag) = read(text);
    assert!(mesh.walkable_count() == 1);
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "obj.walkable_mostly_vertical")
        .expect("a hint about the up axis");
    assert!(
        warning.message.contains("--up z") && warning.message.contains("100%"),
        "{}",
        warning.message
    );
    let options = ReadOptions {
        up: UpAxis::Z,
        ..ReadOptions::default()
    };
    let (mesh, diag) = read_with(text, &options);
    assert!(diag.items.is_empty(), "{diag:?}");
    let (min, max) = mesh.bounds().unwrap();
    assert_eq!((min[2], max[2]), (0.0, 0.0));
}
