//! IR mapping, material profile, TRN/TRX styles, templates and older ASWM versions, on
//! hand-built meshes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod common;

use walkmesh_core::{
    Attribute, Diagnostics, Extra, Input, Material, MeshKind, NavMesh, ReadOptions, Surface,
    TileGrid, WriteOptions,
};
use walkmesh_nwn2::aswm::{self, Aswm};
use walkmesh_nwn2::container;

fn read(bytes: &[u8]) -> (NavMesh, Diagnostics) {
    let mut diag = Diagnostics::new();
    let mesh = walkmesh_nwn2::read_trx(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap();
    (mesh, diag)
}

fn write(mesh: &NavMesh, file_name: &str) -> (Vec<u8>, Diagnostics) {
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        file_name: Some(file_name.into()),
        ..WriteOptions::default()
    };
    let out = walkmesh_nwn2::write_trx(mesh, &options, &mut diag).unwrap();
    (out.main, diag)
}

fn surface(material: u16, walkable: bool) -> Surface {
    Surface {
        material: Material(material),
        walkable,
        code: u32::from(material),
    }
}

/// Two 9 m tiles side by side; tile 0 a walkable square (Grass), tile 1 a walkable square
/// (Lava in the neutral vocabulary) and an unwalkable wall triangle, counter-clockwise.
fn neutral_mesh() -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [9.0, 0.0, 0.0],
            [9.0, 9.0, 0.0],
            [0.0, 9.0, 0.0],
            [18.0, 0.0, 0.0],
            [18.0, 9.0, 0.0],
            [18.0, 9.0, 3.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], surface(3, true));
    mesh.push_polygon(&[0, 2, 3], surface(3, true));
    mesh.push_polygon(&[1, 4, 5], surface(15, false));
    mesh.push_polygon(&[1, 5, 2], surface(7, false));
    mesh
}

#[test]
fn a_neutral_mesh_bakes_with_profile_flags_and_reads_back_counter_clockwise() {
    let (bytes, diag) = write(&neutral_mesh(), "area.trx");
    assert!(diag.items.iter().any(|d| d.code == "trx.grid_computed"));
    let a = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap().aswm;
    assert_eq!((a.grid_width, a.grid_height, a.tile_width), (2, 1, 9.0));
    // Grass = 0x10 walkable; Lava is not in the NWN2 profile: unwalkable, no footstep bit.
    let flags: Vec<u16> = a.triangles.iter().map(|t| t.flags).collect();
    assert_eq!(flags, vec![0x15, 0x15, 0x04, 0x04]);
    // Written clockwise: [a, c, b].
    assert_eq!(a.triangles[0].vertices, [0, 2, 1]);
    assert_eq!(a.triangles[0].normal, [0.0, 0.0, 1.0]);
    assert_eq!(a.islands.len(), 1);
    assert!(
        walkmesh_nwn2::validate::validate_bytes(&bytes, &ReadOptions::default())
            .unwrap()
            .iter()
            .all(|d| d.severity != walkmesh_core::Severity::Error)
    );

    let (mesh, _) = read(&bytes);
    assert_eq!(mesh.kind, MeshKind::Terrain);
    assert_eq!(mesh.polygons.get(0), &[0, 1, 2]);
    assert_eq!(
        mesh.surfaces[0],
        Surface {
            material: Material(3),
            walkable: true,
            code: 0x10
        }
    );
    assert_eq!(
        mesh.surfaces[2].material,
        Material::from_name("NonWalk").unwrap()
    );
    assert!(!mesh.surfaces[2].walkable);
    assert_eq!(
        mesh.face_attributes["nwn2:flags"],
        Attribute::Int(vec![0x15, 0x15, 0x04, 0x04])
    );
    assert_eq!(
        mesh.tile_grid,
        Some(TileGrid {
            columns: 2,
            rows: 1,
            tile_width: 9.0,
            tile_height: 9.0,
            origin: [0.0, 0.0]
        })
    );
    assert_eq!(
        mesh.extras["nwn2:packets"],
        Extra::TextList(vec!["TRWH".into(), "ASWM".into()])
    );
}

#[test]
fn the_faces_walkability_is_kept_and_losses_are_reported() {
    let mut mesh = neutral_mesh();
    // Stone marked unwalkable in the IR (an NWN2 footstep on an unwalkable triangle): bit
    // 0x01 stays clear, the stone footstep is kept.
    mesh.surfaces[3] = surface(4, false);
    mesh.hooks.push(walkmesh_core::Hook {
        name: "use1".into(),
        position: [1.0, 1.0, 0.0],
    });
    let (bytes, diag) = write(&mesh, "area.trx");
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert!(!codes.contains(&"trx.walkability_changed"), "{codes:?}");
    assert!(codes.contains(&"trx.hooks_dropped"), "{codes:?}");
    // Lava has no footstep: merged into NonWalk, counted.
    assert!(codes.contains(&"trx.materials_merged"), "{codes:?}");
    let a = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap().aswm;
    assert_eq!(a.triangles[3].flags, 0x24);
}

#[test]
fn a_user_profile_for_nwn2_replaces_the_embedded_one() {
    let text = r#"(engine: "nwn2", default_material: "Stone", entries: [
        (material: "NonWalk", code: 0, walkable: false),
        (material: "Stone", code: 32, walkable: true),
        (material: "Grass", code: 64, walkable: true)])"#;
    let profile = std::sync::Arc::new(walkmesh_core::MaterialProfile::parse(text).unwrap());
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        file_name: Some("a.trx".into()),
        materials: Some(profile.clone()),
        ..WriteOptions::default()
    };
    let out = walkmesh_nwn2::write_trx(&neutral_mesh(), &options, &mut diag).unwrap();
    let a = walkmesh_nwn2::file::parse(&out.main, 1 << 30).unwrap().aswm;
    assert_eq!(a.triangles[0].flags, 0x45);
    let read_options = ReadOptions {
        materials: Some(profile),
        ..ReadOptions::default()
    };
    let mesh = walkmesh_nwn2::read_trx(
        Input {
            bytes: &out.main,
            path: None,
        },
        &read_options,
        &mut diag,
    )
    .unwrap();
    assert_eq!(mesh.surfaces[0].material, Material(3));
}

#[test]
fn trn_style_is_counter_clockwise_without_tables() {
    let (bytes, _) = write(&neutral_mesh(), "area.TRN");
    let a = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap().aswm;
    assert_eq!(a.tiles_flags, 15);
    assert!(
        a.triangles
            .iter()
            .all(|t| t.flags & 0x04 == 0 && t.island == 0xFFFF)
    );
    assert_eq!(a.triangles[0].vertices, [0, 1, 2]);
    assert_eq!(a.triangles[0].normal, [0.0, 0.0, 1.0]);
    assert!(a.islands.is_empty() && a.tiles.iter().all(|t| t.nodes.is_empty()));
    assert_eq!(a.tiles[0].size, [9.0, 9.0]);
    // A TRN read and written as .trx is baked, not copied.
    let (mesh, _) = read(&bytes);
    let (trx, _) = write(&mesh, "area.trx");
    assert_ne!(trx, bytes);
    assert_eq!(
        walkmesh_nwn2::file::parse(&trx, 1 << 30)
            .unwrap()
            .aswm
            .tiles_flags,
        31
    );
    // Written back as .trn unchanged: byte-identical.
    let (again, _) = write(&mesh, "area.trn");
    assert_eq!(again, bytes);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_template_keeps_its_other_packets() {
    let files = common::corpus_files();
    let template = files
        .iter()
        .find(|p| common::name(p) == "db_templemaiden_int.TRN")
        .unwrap();
    let template_bytes = std::fs::read(template).unwrap();
    let mut diag = Diagnostics::new();
    let mut options = WriteOptions {
        file_name: Some("x.trx".into()),
        ..WriteOptions::default()
    };
    options
        .params
        .insert("nwn2:template".into(), template.display().to_string());
    let out = walkmesh_nwn2::write_trx(&neutral_mesh(), &options, &mut diag).unwrap();
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "trx.template_grid_mismatch")
    );
    let made = container::parse(&out.main).unwrap();
    let original = container::parse(&template_bytes).unwrap();
    let kinds: Vec<String> = made.packets.iter().map(|p| p.kind()).collect();
    let want: Vec<String> = original.packets.iter().map(|p| p.kind()).collect();
    assert_eq!(kinds, want);
    for (a, b) in made.packets.iter().zip(&original.packets) {
        if &a.fourcc == b"WATR" {
            assert_eq!(a.payload, b.payload);
        }
    }
    // A TRX read with its WATR packets keeps them on a rebuild.
    let trx = files
        .iter()
        .find(|p| common::name(p) == "db_templemaiden_int.TRX")
        .unwrap();
    let bytes = std::fs::read(trx).unwrap();
    let (mesh, _) = read(&bytes);
    let mut diag = Diagnostics::new();
    let rebuilt = walkmesh_nwn2::write_trx(
        &mesh,
        &WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        },
        &mut diag,
    )
    .unwrap();
    let a = container::parse(&rebuilt.main).unwrap();
    let b = container::parse(&bytes).unwrap();
    assert_eq!(a.packets.len(), b.packets.len());
    for (x, y) in a.packets.iter().zip(&b.packets) {
        assert_eq!(x.fourcc, y.fourcc);
        if &x.fourcc == b"WATR" {
            assert_eq!(x.payload, y.payload);
        }
    }
}

/// Serialises `a` in an older layout (0x69, 0x6a, 0x6b), by hand from `docs/formats/nwn2.md` §2.6.
fn old_body(a: &Aswm, version: u32) -> Vec<u8> {
    let mut o = Vec::new();
    let u32s =
        |o: &mut Vec<u8>, v: &[u32]| v.iter().for_each(|x| o.extend_from_slice(&x.to_le_bytes()));
    let f32s =
        |o: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| o.extend_from_slice(&x.to_le_bytes()));
    u32s(&mut o, &[version]);
    o.extend_from_slice(&[0; 32]);
    o.push(1);
    u32s(
        &mut o,
        &[
            a.vertices.len() as u32,
            a.edges.len() as u32,
            a.triangles.len() as u32,
            0,
        ],
    );
    a.vertices.iter().for_each(|v| f32s(&mut o, v));
    for e in &a.edges {
        u32s(
            &mut o,
            &[e.vertices[0], e.vertices[1], e.triangles[0], e.triangles[1]],
        );
        if version == 0x69 {
            o.extend_from_slice(&[0; 36]);
        }
    }
    for t in &a.triangles {
        if version == 0x69 {
            u32s(&mut o, &[0, u32::from(t.flags)]);
            u32s(&mut o, &t.vertices);
            u32s(&mut o, &t.edges);
            u32s(&mut o, &t.neighbours);
            u32s(&mut o, &[0, 0, 0]);
            f32s(&mut o, &t.centre);
            u32s(&mut o, &[0]);
            f32s(&mut o, &t.normal);
            f32s(&mut o, &[t.d]);
            o.extend_from_slice(&0u16.to_le_bytes());
            o.extend_from_slice(&t.island.to_le_bytes());
        } else {
            if version == 0x6a {
                u32s(&mut o, &[0]);
            }
            u32s(&mut o, &t.vertices);
            u32s(&mut o, &t.edges);
            u32s(&mut o, &t.neighbours);
            f32s(&mut o, &t.centre);
            f32s(&mut o, &t.normal);
            f32s(&mut o, &[t.d]);
            o.extend_from_slice(&t.island.to_le_bytes());
            o.extend_from_slice(&t.flags.to_le_bytes());
        }
    }
    u32s(&mut o, &[a.tiles_flags]);
    f32s(&mut o, &[a.tile_width]);
    u32s(&mut o, &[a.grid_height, a.grid_width]);
    for t in &a.tiles {
        o.extend_from_slice(&[0; 32]);
        o.push(0);
        u32s(&mut o, &[t.vertex_count, t.edge_count, t.triangle_count]);
        f32s(&mut o, &t.size);
        u32s(&mut o, &[t.triangles_offset, 0]);
        // Every version counts its nodes (N) and stores the N × N next-node table; 0x69 and
        // 0x6a store no node list between the two (`docs/formats/nwn2.md` §2.6).
        o.push(t.local_to_node.len() as u8);
        o.push(t.node_to_local.len() as u8);
        u32s(&mut o, &[0]);
        o.extend_from_slice(&t.local_to_node);
        if version == 0x6b {
            o.extend(t.node_to_local.iter().map(|&x| x as u8));
        }
        o.extend_from_slice(&t.nodes);
        u32s(&mut o, &[t.flags]);
    }
    u32s(&mut o, &[0, 0]);
    o
}

#[test]
fn older_aswm_versions_are_read() {
    let (bytes, _) = write(&neutral_mesh(), "area.trx");
    let (reference, _) = read(&bytes);
    let mut a = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap().aswm;
    a.islands.clear();
    a.island_paths.clear();
    for version in [0x69u32, 0x6a, 0x6b] {
        let body = old_body(&a, version);
        let trwh = container::Trwh {
            width: 2,
            height: 1,
            id: 0,
        }
        .bytes();
        let file = container::write(
            2,
            3,
            &[(*b"TRWH", &trwh), (*b"ASWM", &aswm::wrap(&body, None))],
        );
        let parsed = walkmesh_nwn2::file::parse(&file, 1 << 30).unwrap();
        assert_eq!(parsed.aswm.version, version);
        assert_eq!(parsed.aswm.triangles, a.triangles, "version {version:#x}");
        if version == 0x6b {
            assert_eq!(parsed.aswm.tiles[0].node_to_local, a.tiles[0].node_to_local);
        }
        assert_eq!(parsed.aswm.tiles[0].nodes, a.tiles[0].nodes);
        let (mesh, _) = read(&file);
        assert_eq!(mesh.polygons, reference.polygons);
        assert_eq!(mesh.surfaces, reference.surfaces);
        // Written back unchanged: the same bytes, with no word, since our validator accepts
        // every version (0x69 and 0x6a store no node list: their local-to-node map stands
        // for it). Rebuilt: version 0x6c.
        assert_eq!(
            common::error_codes(&file),
            Vec::<String>::new(),
            "{version:#x}"
        );
        let (copy, diag) = write(&mesh, "x.trx");
        assert!(copy == file, "version {version:#x} not copied: {diag:?}");
        assert!(
            !diag
                .items
                .iter()
                .any(|d| d.code == "trx.stored_tables_rebuilt"),
            "{diag:?}"
        );
        let mut diag = Diagnostics::new();
        let options = WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        };
        let out = walkmesh_nwn2::write_trx(&mesh, &options, &mut diag)
            .unwrap()
            .main;
        assert_eq!(
            walkmesh_nwn2::file::parse(&out, 1 << 30)
                .unwrap()
                .aswm
                .version,
            0x6c
        );
    }
}

/// The bake names its phases for a progress line (`walkmesh_core::progress`, issue #33):
/// the tile path tables and the island paths with their steps.
#[test]
fn a_trx_bake_reports_its_phases() {
    use std::sync::{Arc, Mutex};
    use walkmesh_core::progress::{Snapshot, Status, with_status};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let status = Arc::new(Status::new(Some(Box::new(move |s: &Snapshot| {
        log.lock().unwrap().push(s.to_string());
    }))));
    with_status(status, || write(&neutral_mesh(), "area.trx"));
    let seen = seen.lock().unwrap();
    let has = |text: &str| seen.iter().any(|s| s.starts_with(text));
    assert!(has("baking NWN2: "), "{seen:?}");
    assert!(has("baking NWN2: path tables of 2 tiles (0/2)"), "{seen:?}");
    assert!(has("baking NWN2: paths between "), "{seen:?}");
}

/// Two 9 m tiles of walkable ground, each cut into 3 × 3 squares of two counter-clockwise
/// triangles: 18 nodes in each tile's path table.
fn walkable_grid() -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=3 {
        for i in 0..=6 {
            mesh.vertices.push([i as f32 * 3.0, j as f32 * 3.0, 0.0]);
        }
    }
    let v = |i: u32, j: u32| j * 7 + i;
    for j in 0..3 {
        for i in 0..6 {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            mesh.push_polygon(&[a, b, c], surface(3, true));
            mesh.push_polygon(&[a, c, d], surface(3, true));
        }
    }
    mesh
}

/// What the IR holds of a mesh's authored data.
fn authored(mesh: &NavMesh) -> (Vec<[f32; 3]>, Vec<Vec<u32>>, Vec<Surface>) {
    (
        mesh.vertices.clone(),
        mesh.polygons.iter().map(<[u32]>::to_vec).collect(),
        mesh.surfaces.clone(),
    )
}

/// Issue #51: a TRX whose stored path tables our validator rejects is not copied by a plain
/// write; its derived tables are baked again, with a warning naming what was wrong.
#[test]
fn stored_path_tables_that_fail_validation_are_baked_again_not_copied() {
    let (clean, _) = write(&walkable_grid(), "area.trx");
    assert_eq!(common::error_codes(&clean), Vec::<String>::new());
    let bad = common::with_edited_aswm(&clean, |a| common::corrupt_path_table(a, 0));
    let found = common::error_codes(&bad);
    assert!(
        found.iter().any(|c| c == "trx.path_loop")
            && found.iter().any(|c| c == "trx.path_next_not_adjacent"),
        "{found:?}"
    );
    let (mesh, _) = read(&bad);
    let (out, diag) = write(&mesh, "area.trx");
    assert!(out != bad, "the invalid stored tables were copied");
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "trx.stored_tables_rebuilt")
        .unwrap_or_else(|| panic!("no warning in {diag:?}"));
    assert_eq!(warning.severity, walkmesh_core::Severity::Warning);
    assert!(
        warning.message.contains("trx.path_loop")
            && warning.message.contains("trx.path_next_not_adjacent"),
        "{}",
        warning.message
    );
    assert_eq!(common::error_codes(&out), Vec::<String>::new());
    // The bake of the same authored data: the clean file, byte for byte (zlib level 6).
    assert!(out == clean, "not the file the mesh bakes into");
    let (back, _) = read(&out);
    assert_eq!(authored(&back), authored(&mesh));
    // A valid file is still copied, without a word.
    let (mesh, _) = read(&clean);
    let (again, diag) = write(&mesh, "area.trx");
    assert!(again == clean);
    assert!(
        !diag
            .items
            .iter()
            .any(|d| d.code == "trx.stored_tables_rebuilt")
    );
}

/// The same for a TRN, which has no path tables: its stored triangle centres and planes are
/// derived data too.
#[test]
fn stored_trn_tables_that_fail_validation_are_baked_again_not_copied() {
    let (clean, _) = write(&walkable_grid(), "area.trn");
    assert_eq!(common::error_codes(&clean), Vec::<String>::new());
    let bad = common::with_edited_aswm(&clean, |a| {
        a.triangles[3].centre[0] += 0.5;
        a.triangles[5].d += 2.0;
    });
    let found = common::error_codes(&bad);
    assert_eq!(found, ["trx.triangle_centre", "trx.triangle_plane"]);
    let (mesh, _) = read(&bad);
    let (out, diag) = write(&mesh, "area.trn");
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "trx.stored_tables_rebuilt"
                && d.message
                    .contains("(2 error(s): trx.triangle_centre, trx.triangle_plane)")),
        "{diag:?}"
    );
    assert_eq!(common::error_codes(&out), Vec::<String>::new());
    assert!(out == clean, "not the file the mesh bakes into");
    let (back, _) = read(&out);
    assert_eq!(authored(&back), authored(&mesh));
    let (mesh, _) = read(&clean);
    let (again, diag) = write(&mesh, "area.trn");
    assert!(again == clean && diag.items.is_empty(), "{diag:?}");
}
