//! Hand-built models: transforms checked against values computed by hand, the walkmesh node
//! through the registered format, and hostile input (counts past the bytes, a missing .mdx,
//! cycles, non-finite transforms, offsets out of range) refused with the node and the offset.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::{Diagnostics, Format, Input, Material, ReadOptions};
use walkmesh_mdl::synthetic::{Built, SyntheticMesh, SyntheticNode, build};
use walkmesh_mdl::{
    Game, MATERIAL_COLUMN, MATERIAL_LIST, MdlErrorKind, MdlFormat, NODE_COLUMN, NODE_LIST, Part,
    flags, read_model, read_render_mesh_file, render_mesh,
};

const H: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// root → "turned" (dummy at (10, 0, 0), a quarter turn about +Z) → "floor" (trimesh at
/// (1, 2, 0), half a turn about +X, texture "FloorTex"); root → "crate" (untextured trimesh at
/// (0, 0, 5)); root → "walk" (walkmesh at (3, 0, 0), faces of Stone and NonWalk).
fn nodes() -> Vec<SyntheticNode> {
    let triangle = vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut floor = SyntheticNode::trimesh(
        "floor",
        1,
        SyntheticMesh {
            texture: "FloorTex".into(),
            vertices: triangle.clone(),
            faces: vec![([0, 1, 2], 0)],
            render: true,
        },
    );
    floor.position = [1.0, 2.0, 0.0];
    floor.orientation = [0.0, 1.0, 0.0, 0.0];
    let mut crate_node = SyntheticNode::trimesh(
        "crate",
        0,
        SyntheticMesh {
            texture: String::new(),
            vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [9.0, 9.0, 9.0]],
            faces: vec![([0, 1, 2], 3), ([2, 1, 0], 3)],
            render: false,
        },
    );
    crate_node.position = [0.0, 0.0, 5.0];
    let mut walk = SyntheticNode::trimesh(
        "walk",
        0,
        SyntheticMesh {
            texture: "NULL".into(),
            vertices: vec![[0.0; 3], [2.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.0, 0.0]],
            faces: vec![([0, 1, 2], 4), ([0, 2, 3], 7)],
            render: false,
        },
    );
    walk.flags = flags::HEADER | flags::MESH | flags::AABB;
    walk.position = [3.0, 0.0, 0.0];
    vec![
        SyntheticNode::dummy("root", None, [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        SyntheticNode::dummy("turned", Some(0), [10.0, 0.0, 0.0], [H, 0.0, 0.0, H]),
        floor,
        crate_node,
        walk,
    ]
}

fn built(game: Game) -> Built {
    build(game, "Synthetic", &nodes())
}

fn assert_close(got: [f32; 3], want: [f32; 3]) {
    for axis in 0..3 {
        assert!(
            (got[axis] - want[axis]).abs() < 1e-5,
            "got {got:?}, want {want:?}"
        );
    }
}

#[test]
fn render_vertices_are_moved_by_the_whole_parent_chain() {
    for game in [Game::Kotor1, Game::Kotor2] {
        let b = built(game);
        let model = read_model(&b.mdl, Some(&b.mdx)).unwrap();
        assert_eq!(model.game, game);
        assert_eq!(model.name, "Synthetic");
        let names: Vec<&str> = model.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["root", "turned", "floor", "crate", "walk"]);
        assert_eq!(model.nodes[2].parent, Some(1));
        assert_eq!(model.nodes[0].children, vec![1, 3, 4]);
        assert_eq!(model.render_nodes().collect::<Vec<_>>(), vec![2, 3]);

        let mesh = render_mesh(&model).unwrap();
        mesh.check().unwrap();
        // floor: half a turn about X maps (x, y, z) to (x, −y, −z), then + (1, 2, 0); the
        // parent's quarter turn about Z maps (x, y, z) to (−y, x, z), then + (10, 0, 0).
        // (1,0,0) → (2,2,0) → (8,2,0); (0,1,0) → (1,1,0) → (9,1,0); (0,0,1) → (1,2,−1) → (8,1,−1).
        assert_eq!(
            mesh.vertices.len(),
            3 + 4,
            "every vertex of both render nodes"
        );
        assert_close(mesh.vertices[0], [8.0, 2.0, 0.0]);
        assert_close(mesh.vertices[1], [9.0, 1.0, 0.0]);
        assert_close(mesh.vertices[2], [8.0, 1.0, -1.0]);
        // crate: only moved up by 5.
        assert_close(mesh.vertices[3], [0.0, 0.0, 5.0]);
        assert_close(mesh.vertices[6], [9.0, 9.0, 14.0]);
        let polygons: Vec<&[u32]> = mesh.polygons.iter().collect();
        assert_eq!(polygons, vec![&[0, 1, 2][..], &[3, 4, 5], &[5, 4, 3]]);

        // Material names: the texture, else the node name; nothing walkable.
        let walkmesh_core::Extra::TextList(materials) = &mesh.extras[MATERIAL_LIST] else {
            panic!("no material list");
        };
        assert_eq!(materials, &["FloorTex".to_string(), "crate".to_string()]);
        let walkmesh_core::Attribute::Int(per_face) = &mesh.face_attributes[MATERIAL_COLUMN] else {
            panic!("no material column");
        };
        assert_eq!(per_face, &[0, 1, 1]);
        let walkmesh_core::Extra::TextList(node_names) = &mesh.extras[NODE_LIST] else {
            panic!("no node list");
        };
        assert_eq!(node_names, &["floor".to_string(), "crate".to_string()]);
        assert!(mesh.face_attributes.contains_key(NODE_COLUMN));
        assert!(
            mesh.surfaces
                .iter()
                .all(|s| !s.walkable && s.material == Material(0))
        );
    }
}

#[test]
fn the_registered_format_reads_the_walkmesh_node_with_kotor_surfaces() {
    let b = built(Game::Kotor1);
    let format = MdlFormat;
    assert_eq!(format.sniff(&b.mdl, b.mdl.len() as u64), 100);
    assert_eq!(
        format.sniff(&b.mdl, b.mdl.len() as u64 + 1),
        0,
        "sizes disagree"
    );
    let mut diag = Diagnostics::new();
    let mesh = format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &b.mdl,
                path: None,
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap();
    assert!(diag.items.is_empty(), "{:?}", diag.items);
    assert_eq!(mesh.vertices.len(), 4);
    assert_close(mesh.vertices[0], [3.0, 0.0, 0.0]);
    assert_close(mesh.vertices[2], [5.0, 2.0, 0.0]);
    assert_eq!(mesh.origin, [3.0, 0.0, 0.0]);
    assert_eq!(mesh.surfaces.len(), 2);
    assert_eq!(
        (mesh.surfaces[0].code, mesh.surfaces[0].walkable),
        (4, true)
    );
    assert_eq!(mesh.surfaces[0].material.name(), "Stone");
    assert_eq!(
        (mesh.surfaces[1].code, mesh.surfaces[1].walkable),
        (7, false)
    );
}

#[test]
fn a_model_without_walkmesh_node_is_a_clear_error() {
    let mut list = nodes();
    list.truncate(4);
    let b = build(Game::Kotor1, "NoWalk", &list);
    let error = walkmesh_mdl::walkmesh(
        &read_model(&b.mdl, None).unwrap(),
        None,
        &mut Diagnostics::new(),
    )
    .unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::NoWalkmesh);
    let read_error = MdlFormat
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &b.mdl,
                path: None,
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap_err();
    assert!(
        read_error.to_string().contains("no walkmesh (AABB) node"),
        "{read_error}"
    );
}

fn set_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn a_face_count_past_the_bytes_names_the_node_and_the_count_field() {
    let mut b = built(Game::Kotor1);
    let mesh_at = b.mesh_offsets[2].unwrap();
    set_u32(&mut b.mdl, mesh_at + 12, 0x0100_0000);
    set_u32(&mut b.mdl, mesh_at + 16, 0x0100_0000);
    let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Truncated);
    assert_eq!(error.node.as_deref(), Some("floor"));
    assert_eq!(error.offset, Some((mesh_at + 8) as u64));
    assert_eq!(error.field, "mesh.faces");
    let text = error.to_string();
    assert!(
        text.contains("node 'floor'") && text.contains("16777216 faces"),
        "{text}"
    );
    // A count that the model data could hold but whose records run past its end.
    let mut b = built(Game::Kotor1);
    set_u32(&mut b.mdl, mesh_at + 12, 40);
    set_u32(&mut b.mdl, mesh_at + 16, 40);
    let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Truncated);
    assert_eq!(error.node.as_deref(), Some("floor"));
    assert_eq!(error.offset, Some((mesh_at + 8) as u64));
    assert!(
        error.to_string().contains("40 record(s) of 32 bytes"),
        "{error}"
    );
}

#[test]
fn a_vertex_count_past_the_mdx_names_the_node() {
    let mut b = built(Game::Kotor1);
    let mesh_at = b.mesh_offsets[3].unwrap();
    b.mdl[mesh_at + 304..mesh_at + 306].copy_from_slice(&20u16.to_le_bytes());
    let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Truncated);
    assert_eq!(error.node.as_deref(), Some("crate"));
    assert_eq!(error.offset, Some((mesh_at + 324) as u64));
    assert_eq!(error.field, "mesh.mdx_offset");
    // More vertices than the files could hold at all: refused before any is read.
    b.mdl[mesh_at + 304..mesh_at + 306].copy_from_slice(&60000u16.to_le_bytes());
    for mdx in [None, Some(&b.mdx[..])] {
        let error = read_model(&b.mdl, mdx).unwrap_err();
        assert_eq!(error.kind, MdlErrorKind::Truncated);
        assert_eq!(error.node.as_deref(), Some("crate"));
        assert_eq!(error.offset, Some((mesh_at + 304) as u64));
    }
}

#[test]
fn a_missing_mdx_is_named() {
    let b = built(Game::Kotor1);
    let dir = tempfile::tempdir().unwrap();
    let mdl_path = dir.path().join("room.mdl");
    std::fs::write(&mdl_path, &b.mdl).unwrap();
    let error = read_render_mesh_file(&mdl_path).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::MissingMdx);
    assert!(error.to_string().contains("room.mdx"), "{error}");
    // With the .mdx beside it, the file reads; with the wrong one it is refused.
    std::fs::write(dir.path().join("room.mdx"), &b.mdx).unwrap();
    assert_eq!(read_render_mesh_file(&mdl_path).unwrap().polygons.len(), 3);
    std::fs::write(dir.path().join("room.mdx"), &b.mdx[..b.mdx.len() - 4]).unwrap();
    let error = read_render_mesh_file(&mdl_path).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Inconsistent);
    assert_eq!(error.field, "wrapper.mdx_size");
}

#[test]
fn a_child_pointing_to_an_ancestor_is_a_cycle_naming_the_node_and_slot() {
    let mut b = built(Game::Kotor1);
    // "turned"'s only child slot now points at the root (blob offset = file offset − 12).
    let slot = b.children_offsets[1];
    set_u32(&mut b.mdl, slot, (b.node_offsets[0] - 12) as u32);
    let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Cycle);
    assert_eq!(error.node.as_deref(), Some("turned"));
    assert_eq!(error.offset, Some(slot as u64));
    assert_eq!(error.field, "children[0]");
    assert!(error.to_string().contains("ancestor"), "{error}");
}

#[test]
fn a_node_reached_twice_is_refused() {
    let mut b = built(Game::Kotor1);
    // The root's third child (walk) now points at "crate", its second.
    let slot = b.children_offsets[0] + 8;
    set_u32(&mut b.mdl, slot, (b.node_offsets[3] - 12) as u32);
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Cycle);
    assert_eq!(error.node.as_deref(), Some("root"));
    assert_eq!(error.offset, Some(slot as u64));
}

#[test]
fn non_finite_transforms_name_the_node_and_component() {
    for (offset, field, value) in [
        (0x10 + 4, "node.position.y", f32::INFINITY),
        (0x1C + 8, "node.orientation.y", f32::NAN),
    ] {
        let mut b = built(Game::Kotor1);
        let at = b.node_offsets[1] + offset;
        b.mdl[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
        assert_eq!(error.kind, MdlErrorKind::NonFinite);
        assert_eq!(error.node.as_deref(), Some("turned"));
        assert_eq!(error.offset, Some(at as u64));
        assert_eq!(error.field, field);
    }
    // A zero quaternion has no rotation to give.
    let mut b = built(Game::Kotor1);
    let at = b.node_offsets[1] + 0x1C;
    b.mdl[at..at + 16].fill(0);
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::NonFinite);
    assert_eq!(error.node.as_deref(), Some("turned"));
}

#[test]
fn a_non_finite_mdx_vertex_is_refused_in_the_mdx() {
    let mut b = built(Game::Kotor1);
    // The floor's second row (stride 24) holds a NaN x.
    b.mdx[24..28].copy_from_slice(&f32::NAN.to_le_bytes());
    let error = read_model(&b.mdl, Some(&b.mdx)).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::NonFinite);
    assert_eq!(error.part, Part::Mdx);
    assert_eq!(error.offset, Some(24));
    assert_eq!(error.node.as_deref(), Some("floor"));
    assert!(error.to_string().contains(".mdx byte 0x18"), "{error}");
}

#[test]
fn offsets_out_of_range_name_the_node_and_slot() {
    // A child offset past the model data.
    let mut b = built(Game::Kotor1);
    let slot = b.children_offsets[0] + 4;
    set_u32(&mut b.mdl, slot, 0x7FFF_FFF0);
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::OutOfRange);
    assert_eq!(error.node.as_deref(), Some("root"));
    assert_eq!(error.offset, Some(slot as u64));
    // A face corner past the vertex count.
    let mut b = built(Game::Kotor1);
    let mesh_at = b.mesh_offsets[2].unwrap();
    let faces_at = u32::from_le_bytes(b.mdl[mesh_at + 8..mesh_at + 12].try_into().unwrap());
    let corner_at = 12 + faces_at as usize + 26 + 2;
    b.mdl[corner_at..corner_at + 2].copy_from_slice(&3u16.to_le_bytes());
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::OutOfRange);
    assert_eq!(error.node.as_deref(), Some("floor"));
    assert_eq!(error.offset, Some(corner_at as u64));
    assert_eq!(error.field, "faces[0].v2");
    // A name index past the name table.
    let mut b = built(Game::Kotor1);
    let at = b.node_offsets[3] + 4;
    b.mdl[at..at + 2].copy_from_slice(&99u16.to_le_bytes());
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::OutOfRange);
    assert_eq!(error.offset, Some(at as u64));
    // The root offset itself.
    let mut b = built(Game::Kotor1);
    set_u32(&mut b.mdl, 12 + 0x28, 0xFFFF_FF00);
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::OutOfRange);
    assert_eq!(error.offset, Some(12 + 0x28));
    assert_eq!(error.node, None);
}

#[test]
fn a_kotor2_mesh_header_in_a_kotor1_model_is_refused() {
    let mut b = built(Game::Kotor1);
    let mesh_at = b.mesh_offsets[2].unwrap();
    set_u32(&mut b.mdl, mesh_at, 4_216_880);
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Inconsistent);
    assert_eq!(error.node.as_deref(), Some("floor"));
}

#[test]
fn unknown_node_bits_are_refused_and_node_count_disagreements_reported() {
    let mut b = built(Game::Kotor1);
    let at = b.node_offsets[1];
    b.mdl[at..at + 2].copy_from_slice(&0x0401u16.to_le_bytes());
    let error = read_model(&b.mdl, None).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Unsupported);
    assert_eq!(error.node.as_deref(), Some("turned"));
    // A header count above, below or far past the tree (issue #50: K2's 401dxna counts 71
    // nodes for a tree of 69): the tree is read as the game reads it, and the count's
    // disagreement is the reader's warning `mdl.node_count`.
    let b = built(Game::Kotor1);
    let whole = read_model(&b.mdl, None).unwrap();
    assert_eq!(whole.node_count_note(), None);
    for declared in [6u32, 4, 1_000_000] {
        let mut b = built(Game::Kotor1);
        set_u32(&mut b.mdl, 12 + 0x2C, declared);
        let model = read_model(&b.mdl, Some(&b.mdx)).unwrap();
        assert_eq!(model.nodes, whole.nodes);
        assert_eq!(model.declared_nodes, declared as usize);
        let note = model.node_count_note().unwrap();
        assert!(
            note.contains(&format!("counts {declared} node(s)")),
            "{note}"
        );
        assert!(note.contains("holds 5"), "{note}");
        let mut diag = Diagnostics::new();
        let input = Input {
            bytes: &b.mdl,
            path: None,
        };
        MdlFormat
            .reader()
            .unwrap()
            .read(input, &ReadOptions::default(), &mut diag)
            .unwrap();
        assert!(
            diag.items.iter().any(|d| d.code == "mdl.node_count"),
            "{diag:?}"
        );
    }
}

/// Every prefix and every single-byte change of a small model is read or refused, never a
/// panic (the fuzz target does this at random; this is the deterministic floor).
#[test]
fn truncations_and_byte_flips_never_panic() {
    let b = built(Game::Kotor2);
    for len in 0..b.mdl.len() {
        assert!(
            read_model(&b.mdl[..len], None).is_err(),
            "prefix {len} read"
        );
    }
    for at in 0..b.mdl.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bytes = b.mdl.clone();
            bytes[at] ^= flip;
            if let Ok(model) = read_model(&bytes, Some(&b.mdx))
                && let Ok(mesh) = render_mesh(&model)
            {
                mesh.check().unwrap();
            }
            let _ = MdlFormat.reader().unwrap().read(
                Input {
                    bytes: &bytes,
                    path: None,
                },
                &ReadOptions::default(),
                &mut Diagnostics::new(),
            );
        }
    }
}

/// Issue #51: another model's `.mdx` given with its size word patched into this `.mdl`
/// (so the size check passes) has its rows taken as positions: far-flung points that made
/// `generate` allocate hundreds of MB. Every mesh's rows then differ from the model's own
/// copy, and the render reader refuses the pair, naming the `.mdx`; one mesh that differs
/// is still read (the rows win, as the game draws them).
#[test]
fn another_models_mdx_with_the_size_word_patched_is_refused() {
    let own = built(Game::Kotor1);
    let mut foreign_nodes = nodes();
    for node in &mut foreign_nodes {
        if let Some(mesh) = node.mesh.as_mut() {
            for v in &mut mesh.vertices {
                *v = [v[0] * 1e6 + 3.0e5, v[1] * 1e6 - 7.0e5, v[2] + 40.0];
            }
        }
    }
    let foreign = build(Game::Kotor1, "Other", &foreign_nodes);
    assert_eq!(foreign.mdx.len(), own.mdx.len());
    let mut mdl = own.mdl.clone();
    mdl[8..12].copy_from_slice(&(foreign.mdx.len() as u32).to_le_bytes());
    let model = read_model(&mdl, Some(&foreign.mdx)).unwrap();
    assert_eq!(model.vertex_copy_mismatches.len(), 3, "{model:?}");
    let error = render_mesh(&model).unwrap_err();
    assert_eq!(error.kind, MdlErrorKind::Inconsistent);
    assert!(error.to_string().contains("not this model's"), "{error}");
    // Through the file reader the same, naming the model file.
    let dir = tempfile::tempdir().unwrap();
    let mdl_path = dir.path().join("room.mdl");
    std::fs::write(&mdl_path, &mdl).unwrap();
    std::fs::write(dir.path().join("room.mdx"), &foreign.mdx).unwrap();
    let error = read_render_mesh_file(&mdl_path).unwrap_err();
    assert!(error.to_string().contains("room.mdl"), "{error}");
    assert!(error.to_string().contains("3 of 3"), "{error}");
    // One mesh's rows edited (a modder's touch-up): read, the rows taken.
    let mut touched = own.mdx.clone();
    let first = f32::from_le_bytes(touched[0..4].try_into().unwrap());
    touched[0..4].copy_from_slice(&(first + 0.5).to_le_bytes());
    let model = read_model(&own.mdl, Some(&touched)).unwrap();
    assert_eq!(model.vertex_copy_mismatches.len(), 1);
    assert!(render_mesh(&model).is_ok());
}
