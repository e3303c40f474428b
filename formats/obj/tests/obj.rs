#![allow(clippy::unwrap_used, clippy::expect_used)]
//! OBJ reader/writer behaviour on hand-made inputs.

use walkmesh_core::{
    Diagnostics, EdgeRef, EdgeTag, Hook, Input, Material, MeshKind, NavMesh, ReadOptions, Severity,
    Surface, UpAxis, WriteOptions, material::MaterialProfile,
};
use walkmesh_obj::{material_colour, read_obj, write_obj};

fn read(text: &str) -> Result<(NavMesh, Diagnostics), walkmesh_core::ReadError> {
    read_with(text, &ReadOptions::default())
}

fn read_bytes(bytes: &[u8]) -> Result<NavMesh, walkmesh_core::ReadError> {
    read_obj(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut Diagnostics::new(),
    )
}

fn read_with(
    text: &str,
    options: &ReadOptions,
) -> Result<(NavMesh, Diagnostics), walkmesh_core::ReadError> {
    let mut diag = Diagnostics::new();
    let mesh = read_obj(
        Input {
            bytes: text.as_bytes(),
            path: None,
        },
        options,
        &mut diag,
    )?;
    Ok((mesh, diag))
}

fn write(mesh: &NavMesh, up: UpAxis) -> (String, String, Diagnostics) {
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        up,
        file_name: Some("room.obj".into()),
        ..WriteOptions::default()
    };
    let out = write_obj(mesh, &options, &mut diag).unwrap();
    assert_eq!(out.sidecars.len(), 1);
    assert_eq!(out.sidecars[0].file_name, "room.mtl");
    (
        String::from_utf8(out.main).unwrap(),
        String::from_utf8(out.sidecars[0].bytes.clone()).unwrap(),
        diag,
    )
}

/// xorshift64*: deterministic pseudo-random numbers without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn y_up_maps_blender_axes_to_z_up() {
    let (mesh, _) = read("v 1 2 3\nv 4 5 6\nv 7 8 9\nf 1 2 3\n").unwrap();
    // Blender exports (x, z, -y); IR = (x, -z_file, y_file).
    assert_eq!(mesh.vertices[0], [1.0, -3.0, 2.0]);
    let z = ReadOptions {
        up: UpAxis::Z,
        ..ReadOptions::default()
    };
    let (mesh, _) = read_with("v 1 2 3\nv 4 5 6\nv 7 8 9\nf 1 2 3\n", &z).unwrap();
    assert_eq!(mesh.vertices[0], [1.0, 2.0, 3.0]);
}

#[test]
fn every_f32_bit_pattern_survives_write_then_read() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for up in [UpAxis::Y, UpAxis::Z] {
        let mut mesh = NavMesh::default();
        for _ in 0..20_000 {
            let mut p = [0f32; 3];
            for c in &mut p {
                // Random finite bit patterns, including subnormals and -0.0.
                loop {
                    let candidate = f32::from_bits(rng.next() as u32);
                    if candidate.is_finite() {
                        *c = candidate;
                        break;
                    }
                }
            }
            mesh.vertices.push(p);
        }
        mesh.vertices.push([-0.0, 0.0, -0.0]);
        let n = mesh.vertices.len() as u32;
        let stone = Surface {
            material: Material(4),
            walkable: true,
            code: 4,
        };
        for i in (0..n - 2).step_by(3) {
            mesh.push_polygon(&[i, i + 1, i + 2], stone);
        }
        let (text, _, _) = write(&mesh, up);
        let options = ReadOptions {
            up,
            ..ReadOptions::default()
        };
        let (back, _) = read_with(&text, &options).unwrap();
        assert_eq!(back.vertices.len(), mesh.vertices.len());
        for (a, b) in mesh.vertices.iter().zip(&back.vertices) {
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
        assert_eq!(back.polygons, mesh.polygons);
    }
}

#[test]
fn negative_indices_ngons_and_corner_forms() {
    let text = "v 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\nvt 0 0\nvn 0 1 0\n\
                f 1/1 2/1/1 3//1 4\nf -4 -2 -1\n";
    let (mesh, diag) = read(text).unwrap();
    assert_eq!(mesh.polygons.len(), 2);
    assert_eq!(mesh.polygons.get(0), &[0, 1, 2, 3]);
    assert_eq!(mesh.polygons.get(1), &[0, 2, 3]);
    // Faces without a usemtl are reported (and floor-like ones get the default, Stone).
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["obj.no_material"], "{:?}", diag.items);
}

#[test]
fn material_names_kept_without_mtl_and_mapped_case_insensitively() {
    let text = "mtllib missing.mtl\nv 0 0 0\nv 1 0 0\nv 0 0 -1\n\
                usemtl Stone\nf 1 2 3\nusemtl grass\nf 1 2 3\nusemtl NonWalk\nf 1 2 3\nusemtl surface_7\nf 1 2 3\n";
    let (mesh, diag) = read(text).unwrap();
    let names: Vec<String> = mesh
        .surfaces
        .iter()
        .map(|s| s.material.name().into_owned())
        .collect();
    assert_eq!(names, ["Stone", "Grass", "NonWalk", "NonWalk"]);
    let walkable: Vec<bool> = mesh.surfaces.iter().map(|s| s.walkable).collect();
    assert_eq!(walkable, [true, true, false, false]);
    assert!(diag.items.is_empty());
}

#[test]
fn unknown_names_are_reported_with_lines_and_get_the_default() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nusemtl Material.001\nf 1 2 3\nf 1 2 3\nusemtl Material.001\nf 1 2 3\n";
    let (mesh, diag) = read(text).unwrap();
    assert!(
        mesh.surfaces
            .iter()
            .all(|s| s.material == Material(4) && s.walkable)
    );
    assert_eq!(diag.items.len(), 1);
    let warning = &diag.items[0];
    assert_eq!(warning.code, "obj.unknown_material");
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(warning.location.position, walkmesh_core::Position::Line(4));
    assert!(
        warning.message.contains("lines 4, 7"),
        "{}",
        warning.message
    );
    let options = ReadOptions {
        default_material: Some("NonWalk".into()),
        ..ReadOptions::default()
    };
    let (mesh, _) = read_with(text, &options).unwrap();
    assert!(
        mesh.surfaces
            .iter()
            .all(|s| s.material == Material(7) && !s.walkable)
    );
}

#[test]
fn a_user_profile_adds_names_and_changes_walkability() {
    let profile = MaterialProfile::parse(
        r#"(engine: "kotor", default_material: "NonWalk", entries: [
            (material: "Stone", code: 4, walkable: true, aliases: ["Floor"]),
            (material: "NonWalk", code: 7, walkable: false),
            (material: "BottomlessPit", code: 16, walkable: true)])"#,
    )
    .unwrap();
    let options = ReadOptions {
        materials: Some(profile.into()),
        ..ReadOptions::default()
    };
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nusemtl floor\nf 1 2 3\nusemtl BottomlessPit\nf 1 2 3\nusemtl Dirt\nf 1 2 3\n";
    let (mesh, diag) = read_with(text, &options).unwrap();
    assert_eq!(mesh.surfaces[0].material, Material(4));
    assert!(mesh.surfaces[1].walkable);
    // Dirt is not in this profile: default NonWalk, with a warning.
    assert_eq!(mesh.surfaces[2].material, Material(7));
    assert_eq!(diag.items.len(), 1);
}

#[test]
fn errors_name_the_line_and_field() {
    let cases = [
        ("v 0 0 0\nv 1 0 0\nf 1 2 3\n", 3, "vertex 3 does not exist"),
        ("v 0 0 0\nv 1 0 x\n", 2, "'x' is not a number"),
        (
            "v 0 0 0\nv 1 0 0\nv 1 1 1\n\nf 1 2\n",
            5,
            "at least 3 vertices",
        ),
        (
            "v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 0\n",
            4,
            "vertex 0 does not exist",
        ),
        ("v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 -4\n", 4, "vertex -4"),
        (
            "v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 3/5\n",
            4,
            "texture coordinate 5",
        ),
        (
            "v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 3a\n",
            4,
            "not a face corner",
        ),
        ("v 0 0 0\nv 1 0\n", 2, "at least 3 numbers"),
        ("#@walkmesh kind boat\n", 1, "unknown mesh kind"),
        (
            "v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 3\n#@walkmesh edge 1 3 transition 2\n",
            5,
            "has no edge 3",
        ),
    ];
    let error = read_bytes(b"v 0 0 0\nv 0 0 \xff\n").unwrap_err();
    assert_eq!(error.position, walkmesh_core::Position::Line(2));
    assert!(error.to_string().contains("not UTF-8"));
    for (text, line, needle) in cases {
        let error = read(text).unwrap_err();
        assert_eq!(
            error.position,
            walkmesh_core::Position::Line(line),
            "{text:?}: {error}"
        );
        assert!(error.to_string().contains(needle), "{text:?}: {error}");
        assert!(error.to_string().contains(&format!("line {line}")));
    }
}

#[test]
fn writer_groups_by_surface_and_is_deterministic() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nv 1 0 -1\n\
                usemtl Grass\nf 1 2 3\nusemtl NonWalk\nf 2 4 3\nusemtl Grass\nf 3 2 1\n";
    let (mesh, _) = read(text).unwrap();
    let (first, mtl, diag) = write(&mesh, UpAxis::Y);
    let (second, mtl2, _) = write(&mesh, UpAxis::Y);
    assert_eq!(first, second);
    assert_eq!(mtl, mtl2);
    assert!(diag.items.is_empty());
    assert_eq!(first.matches("usemtl ").count(), 2);
    assert!(first.contains("usemtl Grass\nf 1 2 3\nf 3 2 1\nusemtl NonWalk\nf 2 4 3\n"));
    assert!(first.contains("mtllib room.mtl"));
    assert_eq!(mtl.matches("newmtl ").count(), 2);
    // Distinct colours for all neutral materials.
    let colours: Vec<String> = (0..31)
        .map(|id| format!("{:?}", material_colour(id)))
        .collect();
    let mut unique = colours.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), colours.len());
}

#[test]
fn edge_tags_hooks_kind_and_origin_round_trip() {
    let mut mesh = NavMesh {
        kind: MeshKind::Door,
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.5],
        ],
        origin: [10.0, -2.5, 0.25],
        ..NavMesh::default()
    };
    let wall = Surface {
        material: Material(7),
        walkable: false,
        code: 7,
    };
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    // Stone, wall, Stone: the writer groups faces by surface in order of first use, so the
    // wall moves to the end and its tag must follow it.
    mesh.push_polygon(&[1, 2, 3], stone);
    mesh.push_polygon(&[0, 1, 3], wall);
    mesh.push_polygon(&[0, 2, 1], stone);
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 2,
            edge: 2,
        },
        EdgeTag { transition: 3 },
    );
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 1,
            edge: 0,
        },
        EdgeTag { transition: -7 },
    );
    mesh.hooks.push(Hook {
        name: "use1".into(),
        position: [0.5, 0.25, 1.0],
    });
    mesh.hooks.push(Hook {
        name: "use2".into(),
        position: [-0.5, 0.0, 1.0],
    });
    for up in [UpAxis::Y, UpAxis::Z] {
        let (text, _, _) = write(&mesh, up);
        let (back, diag) = read_with(
            &text,
            &ReadOptions {
                up,
                ..ReadOptions::default()
            },
        )
        .unwrap();
        assert!(diag.items.is_empty(), "{:?}", diag.items);
        assert_eq!(back.kind, MeshKind::Door);
        assert_eq!(back.origin, mesh.origin);
        assert_eq!(back.hooks, mesh.hooks);
        assert_eq!(back.polygons.get(0), &[1, 2, 3]);
        assert_eq!(back.polygons.get(1), &[0, 2, 1]);
        assert_eq!(back.polygons.get(2), &[0, 1, 3]);
        let tags: Vec<(u32, u32, i32)> = back
            .edge_tags
            .iter()
            .map(|(e, t)| (e.polygon, e.edge, t.transition))
            .collect();
        assert_eq!(tags, vec![(1, 2, 3), (2, 0, -7)]);
    }
}

#[test]
fn groups_and_objects_survive_a_round_trip() {
    let text = "o Room\nv 0 0 0\nv 1 0 0\nv 0 0 -1\ng floor\nf 1 2 3\ng ramp\nf 3 2 1\n";
    let (mesh, _) = read(text).unwrap();
    let (written, _, _) = write(&mesh, UpAxis::Y);
    assert!(
        written.contains("o Room\ng floor\nf 1 2 3\ng ramp\nf 3 2 1\n"),
        "{written}"
    );
    let (back, _) = read(&written).unwrap();
    assert_eq!(back.face_attributes, mesh.face_attributes);
}

#[test]
fn comments_continuations_crlf_and_unsupported_statements() {
    let text = "# a comment\r\nv 0 0 0 # trailing\r\nv 1 \\\r\n 0 0\r\nv 0 0 -1\r\ncurv 0 1 1 2\r\nf 1 2 3\r\n";
    let (mesh, diag) = read(text).unwrap();
    assert_eq!(mesh.vertices.len(), 3);
    assert_eq!(mesh.vertices[1], [1.0, -0.0, 0.0]);
    // The face has no usemtl (reported too); the unknown statement is named by its line.
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["obj.no_material", "obj.unsupported_statement"]);
    assert_eq!(
        diag.items[1].location.position,
        walkmesh_core::Position::Line(6)
    );
}

#[test]
fn writer_reports_what_obj_cannot_store() {
    let mut mesh = NavMesh {
        vertices: vec![[0.0; 3]; 3],
        ..NavMesh::default()
    };
    mesh.push_polygon(
        &[0, 1, 2],
        Surface {
            material: Material(4),
            walkable: false,
            code: 4,
        },
    );
    mesh.extras
        .insert("nwn2:name".into(), walkmesh_core::Extra::Text("x".into()));
    // Past the vocabulary: the name cannot carry a walkability.
    mesh.push_polygon(
        &[0, 2, 1],
        Surface {
            material: Material(40),
            walkable: true,
            code: 40,
        },
    );
    mesh.face_attributes.insert(
        "path:height".into(),
        walkmesh_core::Attribute::Float(vec![1.0, 1.0]),
    );
    let (_, _, diag) = write(&mesh, UpAxis::Y);
    let codes: Vec<&str> = diag.items.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "obj.walkability_not_stored",
            "obj.face_attributes_dropped",
            "obj.extras_dropped"
        ]
    );
    assert!(
        diag.items[0].message.contains("surface_40"),
        "{:?}",
        diag.items[0]
    );
}

#[test]
fn a_walkability_other_than_the_names_survives_a_round_trip() {
    // An NWN2 unwalkable triangle with a stone footstep, next to walkable stone.
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    mesh.push_polygon(&[0, 1, 2], stone);
    mesh.push_polygon(
        &[0, 2, 3],
        Surface {
            walkable: false,
            ..stone
        },
    );
    let (text, _, diag) = write(&mesh, UpAxis::Z);
    assert!(diag.items.is_empty(), "{diag:?}");
    assert!(
        text.contains("usemtl Stone\n#@walkmesh walkable no\n"),
        "{text}"
    );
    let (back, _) = read_with(
        &text,
        &ReadOptions {
            up: UpAxis::Z,
            ..ReadOptions::default()
        },
    )
    .unwrap();
    let walkable: Vec<bool> = back.surfaces.iter().map(|s| s.walkable).collect();
    assert_eq!(walkable, [true, false]);
    assert!(back.surfaces.iter().all(|s| s.material == Material(4)));
}

#[test]
fn faces_before_the_first_group_get_no_group() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\ng ramp\nf 3 2 1\nf 1 3 2\n";
    let (mesh, _) = read(text).unwrap();
    assert_eq!(
        mesh.face_attributes["obj:group"],
        walkmesh_core::Attribute::Int(vec![-1, 0, 0])
    );
    assert!(!mesh.face_attributes.contains_key("obj:object"));
    let (plain, _) = read("v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n").unwrap();
    assert!(plain.face_attributes.is_empty());
}

#[test]
fn usemtl_names_are_kept_per_face_when_asked() {
    // Known (Wood), unknown (LDA_flr_planks01) and none (a new `o` without usemtl): with the
    // parameter every face has its name; without it no column (conversions unchanged).
    let text = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\nusemtl Wood\nf 1 2 3\nusemtl LDA_flr_planks01\nf 3 2 1\no other\nf 1 3 2\nusemtl Wood\nf 1 2 3\n";
    let mut options = ReadOptions::default();
    options
        .params
        .insert(walkmesh_obj::MATERIAL_NAMES_PARAM.into(), "1".into());
    let (mesh, _) = read_with(text, &options).unwrap();
    assert_eq!(
        mesh.face_attributes["obj:material"],
        walkmesh_core::Attribute::Int(vec![-1, 0, 1, -1, 0])
    );
    assert_eq!(
        mesh.extras["obj:materials"],
        walkmesh_core::Extra::TextList(vec!["Wood".into(), "LDA_flr_planks01".into()])
    );
    let (plain, _) = read(text).unwrap();
    assert!(!plain.face_attributes.contains_key("obj:material"));
    assert!(!plain.extras.contains_key("obj:materials"));
}
