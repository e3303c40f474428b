//! Hand-computed cases, kinds and hooks, the known-bad PyKotor files.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;
use std::path::{Path, PathBuf};

use walkmesh_bwm::layout::{NONE, RawBwm, Table};
use walkmesh_bwm::{read_bwm, validate_bwm, write_bwm};
use walkmesh_core::{
    Diagnostics, EdgeRef, EdgeTag, Extra, Hook, Input, Material, MeshKind, NavMesh, ReadOptions,
    Severity, Surface, WriteOptions,
};

fn stone() -> Surface {
    Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    }
}
fn nonwalk() -> Surface {
    Surface {
        material: Material(7),
        walkable: false,
        code: 7,
    }
}

/// 3---2
/// | / |    faces (0,1,2) and (0,2,3), counter-clockwise seen from +Z
/// 0---1
fn square() -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 2], stone());
    mesh.push_polygon(&[0, 2, 3], stone());
    mesh
}

fn write(mesh: &NavMesh, options: &WriteOptions) -> Vec<u8> {
    let mut diag = Diagnostics::new();
    write_bwm(mesh, options, &mut diag).unwrap().main
}

fn u32s(bytes: &[u8], at: usize, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| u32::from_le_bytes(bytes[at + 4 * i..at + 4 * i + 4].try_into().unwrap()))
        .collect()
}
fn f32s(bytes: &[u8], at: usize, n: usize) -> Vec<f32> {
    u32s(bytes, at, n).into_iter().map(f32::from_bits).collect()
}

/// The error reading `bytes` gives (the bytes must not read).
fn read_error(bytes: &[u8]) -> walkmesh_core::ReadError {
    read_bwm(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut Diagnostics::new(),
    )
    .unwrap_err()
}

#[test]
fn two_triangle_square_by_hand() {
    let bytes = write(&square(), &WriteOptions::default());
    // Header: 136 bytes, then 4·12 + 2·12 + 2·4 + 2·12 + 2·4 + 3·44 + 2·12 + 4·8 + 1·4 = 304.
    assert_eq!(bytes.len(), 440);
    assert_eq!(&bytes[0..8], b"BWM V1.0");
    assert_eq!(u32s(&bytes, 0x08, 1), [1]);
    // counts and offsets 0x48..0x88
    assert_eq!(
        u32s(&bytes, 0x48, 16),
        [
            4, 136, 2, 184, 208, 216, 240, 3, 248, 0, 2, 380, 4, 404, 1, 436
        ]
    );
    assert_eq!(u32s(&bytes, 184, 6), [0, 1, 2, 0, 2, 3]);
    assert_eq!(u32s(&bytes, 208, 2), [4, 4]);
    assert_eq!(f32s(&bytes, 216, 6), [0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    assert_eq!(f32s(&bytes, 240, 2), [0.0, 0.0]);
    // Adjacency: face 0 edge 2 (2→0) meets face 1 edge 0 (0→2): 3·1+0 = 3 and 3·0+2 = 2.
    assert_eq!(u32s(&bytes, 380, 6), [NONE, NONE, 3, 2, NONE, NONE]);
    // Edges: walk from face 0 edge 0, face 0 edge 1, across the diagonal to face 1 edge 1, 2.
    assert_eq!(u32s(&bytes, 404, 8), [0, NONE, 1, NONE, 4, NONE, 5, NONE]);
    assert_eq!(u32s(&bytes, 436, 1), [4]);
    // AABB: centroids (2/3,1/3) and (1/3,2/3) spread equally on X and Y → X (lower axis);
    // face 1 (smaller x) goes first. Leaves padded by 0.01; root = union; plane +X = 1.
    let node = |i: usize| {
        (
            f32s(&bytes, 248 + 44 * i, 6),
            u32s(&bytes, 248 + 44 * i + 24, 5),
        )
    };
    let padded = vec![-0.01, -0.01, -0.01, 1.01, 1.01, 0.01];
    assert_eq!(node(0), (padded.clone(), vec![NONE, 4, 1, 1, 2]));
    assert_eq!(node(1), (padded.clone(), vec![1, 4, 0, NONE, NONE]));
    assert_eq!(node(2), (padded, vec![0, 4, 0, NONE, NONE]));
    let findings = validate_bwm(
        Input {
            bytes: &bytes,
            path: None,
        },
        &ReadOptions::default(),
    )
    .unwrap();
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn walkable_faces_go_first_and_transitions_follow_their_edges() {
    let mut mesh = NavMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        ..NavMesh::default()
    };
    mesh.push_polygon(&[0, 1, 4], nonwalk()); // a wall
    mesh.push_polygon(&[0, 1, 2], stone());
    mesh.push_polygon(&[0, 2, 3], stone());
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 2,
            edge: 1,
        },
        EdgeTag { transition: 7 },
    );
    let bytes = write(&mesh, &WriteOptions::default());
    let raw = RawBwm::parse(&bytes).unwrap();
    assert_eq!(raw.face(0), [0, 1, 2]);
    assert_eq!(raw.face(1), [0, 2, 3]);
    assert_eq!(raw.face(2), [0, 1, 4]);
    assert_eq!(raw.span(Table::Adjacency).count, 2);
    assert_eq!(raw.span(Table::Aabb).count, 5);
    // Face 1 (was 2) edge 1 = index 4 carries transition 7.
    let edges: Vec<(u32, i32)> = (0..4).map(|i| raw.edge(i)).collect();
    assert_eq!(edges, vec![(0, -1), (1, -1), (4, 7), (5, -1)]);
    let mut diag = Diagnostics::new();
    let back = common::read_ok(&bytes, None, &mut diag);
    assert_eq!(
        back.edge_tags.get(&EdgeRef {
            polygon: 1,
            edge: 1
        }),
        Some(&EdgeTag { transition: 7 })
    );
    assert!(
        validate_bwm(
            Input {
                bytes: &bytes,
                path: None
            },
            &ReadOptions::default()
        )
        .unwrap()
        .is_empty()
    );
}

#[test]
fn kind_comes_from_option_then_file_name_then_mesh() {
    let mut mesh = square();
    mesh.origin = [10.0, 20.0, 0.5];
    mesh.hooks = vec![
        Hook {
            name: "use1".into(),
            position: [1.0, 2.0, 3.0],
        },
        Hook {
            name: "use2".into(),
            position: [-1.0, 0.0, 0.0],
        },
    ];
    let door = write(
        &mesh,
        &WriteOptions {
            file_name: Some("gate0.dwk".into()),
            ..WriteOptions::default()
        },
    );
    assert_eq!(u32s(&door, 0x08, 1), [0]);
    assert_eq!(f32s(&door, 0x0C, 6), [1.0, 2.0, 3.0, -1.0, 0.0, 0.0]);
    // Door: absolute = position + relative.
    assert_eq!(f32s(&door, 0x24, 6), [11.0, 22.0, 3.5, 9.0, 20.0, 0.5]);
    assert_eq!(f32s(&door, 0x3C, 3), [10.0, 20.0, 0.5]);
    // Type 0: WOK-only counts and offsets are 0; normals and distances present.
    assert_eq!(u32s(&door, 0x64, 9), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(door.len(), 136 + 48 + 24 + 8 + 24 + 8);
    let placeable = write(
        &mesh,
        &WriteOptions {
            file_name: Some("gate0.dwk".into()),
            kind: Some(MeshKind::Placeable),
            ..WriteOptions::default()
        },
    );
    assert_eq!(f32s(&placeable, 0x24, 6), [0.0; 6]);
    assert_eq!(u32s(&write(&mesh, &WriteOptions::default()), 0x08, 1), [1]);

    // Reading back: the extension decides door vs placeable, hooks come back.
    let mut diag = Diagnostics::new();
    let read = |bytes: &[u8], name: &str, diag: &mut Diagnostics| {
        read_bwm(
            Input {
                bytes,
                path: Some(Path::new(name)),
            },
            &ReadOptions::default(),
            diag,
        )
        .unwrap()
    };
    let back = read(&door, "gate0.dwk", &mut diag);
    assert_eq!(back.kind, MeshKind::Door);
    assert_eq!(back.hooks, mesh.hooks);
    assert_eq!(back.origin, mesh.origin);
    assert!(
        back.extras.is_empty(),
        "door absolute points follow the rule"
    );
    assert_eq!(
        read(&door, "gate0.pwk", &mut diag).kind,
        MeshKind::Placeable
    );
    // Read as a placeable, the door's absolute points are not the rule: kept as extras.
    let as_placeable = read(&door, "gate0.pwk", &mut diag);
    assert_eq!(
        as_placeable.extras.get("bwm:absolute_use1"),
        Some(&Extra::Floats(vec![11.0, 22.0, 3.5]))
    );
    // … so rebuilding it keeps them.
    let again = write(
        &as_placeable,
        &WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        },
    );
    assert_eq!(again, door);
}

#[test]
fn preserve_falls_back_to_rebuild_after_an_edit_or_on_request() {
    let bytes = write(&square(), &WriteOptions::default());
    let mut tampered = bytes.clone();
    // Move face 0's stored normal z (offset 216 + 8) one step below 1.0: still a valid file
    // (within the validator's tolerance) but not the bytes a rebuild gives. Preserve keeps
    // it, rebuild recomputes it.
    tampered[224..228].copy_from_slice(&0x3F7F_FFFFu32.to_le_bytes());
    assert_ne!(tampered, bytes);
    assert!(codes(&tampered).is_empty(), "{:?}", codes(&tampered));
    let mut diag = Diagnostics::new();
    let mesh = common::read_ok(&tampered, None, &mut diag);
    assert_eq!(write(&mesh, &WriteOptions::default()), tampered);
    assert_eq!(
        write(
            &mesh,
            &WriteOptions {
                rebuild: true,
                ..WriteOptions::default()
            }
        ),
        bytes
    );
    let mut edited = mesh.clone();
    edited.vertices[3][2] = 0.0; // same value: fingerprint unchanged
    assert_eq!(write(&edited, &WriteOptions::default()), tampered);
    edited.vertices[3][0] = -0.5; // a real edit
    let rebuilt = write(&edited, &WriteOptions::default());
    assert_ne!(rebuilt, tampered);
    assert_eq!(f32s(&rebuilt, 136 + 36, 1), [-0.5]);
}

#[test]
fn stored_tables_that_fail_validation_are_recomputed_not_copied() {
    let bytes = write(&square(), &WriteOptions::default());
    let mut tampered = bytes.clone();
    // Node 1's face field (AABB at 248, 44 bytes a node, face at +24) names the wrong face.
    tampered[248 + 44 + 24] = 0;
    assert!(!codes(&tampered).is_empty());
    let mut diag = Diagnostics::new();
    let mesh = common::read_ok(&tampered, None, &mut diag);
    let mut diag = Diagnostics::new();
    let written = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    assert!(written == bytes, "the stored tables were copied");
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "bwm.stored_tables_rebuilt")
        .unwrap();
    assert_eq!(warning.severity, Severity::Warning);
    assert!(warning.message.contains("bwm.aabb_"), "{}", warning.message);
}

#[test]
fn a_kotor_profile_given_by_the_user_changes_walkability() {
    use std::sync::Arc;
    let text = walkmesh_bwm::profile::KOTOR_RON.replace(
        "(material: \"NonWalk\", code: 7, walkable: false",
        "(material: \"NonWalk\", code: 7, walkable: true",
    );
    let profile = Arc::new(walkmesh_core::MaterialProfile::parse(&text).unwrap());
    let mut mesh = square();
    mesh.surfaces[1] = nonwalk();
    // Read from a KotOR file (stale provenance): the profile decides walkability again.
    mesh.provenance = Some(walkmesh_core::Provenance {
        format: "bwm".into(),
        fingerprint: 0,
        sections: Vec::new(),
        ..Default::default()
    });
    let mut diag = Diagnostics::new();
    let default = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    assert_eq!(
        RawBwm::parse(&default)
            .unwrap()
            .span(Table::Adjacency)
            .count,
        1
    );
    let options = WriteOptions {
        materials: Some(profile),
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let custom = write_bwm(&mesh, &options, &mut diag).unwrap().main;
    assert_eq!(
        RawBwm::parse(&custom).unwrap().span(Table::Adjacency).count,
        2
    );
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "bwm.walkability_changed")
    );
}

#[test]
fn errors_name_offset_and_field() {
    let bytes = write(&square(), &WriteOptions::default());
    let mut diag = Diagnostics::new();
    let mut bad = bytes.clone();
    bad[0x48..0x4C].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = read_error(&bad);
    assert_eq!(error.field, "header.vertex_count");
    assert!(error.to_string().contains("byte 0x48"), "{error}");
    let mut bad = bytes.clone();
    bad[184 + 8..184 + 12].copy_from_slice(&9u32.to_le_bytes());
    let error = read_error(&bad);
    assert_eq!(error.field, "faces[0].v3");
    assert_eq!(error.position, walkmesh_core::Position::Offset(192));
    let error = read_bwm(
        Input {
            bytes: &bytes[..100],
            path: None,
        },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap_err();
    assert_eq!(error.field, "header");
    let mut bad = bytes.clone();
    bad[0x08] = 5;
    let error = read_error(&bad);
    assert_eq!(error.field, "header.type");
}

fn codes(bytes: &[u8]) -> Vec<String> {
    codes_with(bytes, true)
}

fn codes_with(bytes: &[u8], recompute_derived: bool) -> Vec<String> {
    let options = ReadOptions {
        recompute_derived,
        ..ReadOptions::default()
    };
    let findings = validate_bwm(Input { bytes, path: None }, &options).unwrap();
    let mut codes: Vec<String> = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.clone())
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn validator_names_each_broken_rule() {
    let good = write(&square(), &WriteOptions::default());
    assert!(codes(&good).is_empty());
    let patch = |at: usize, value: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        b
    };
    // adjacency row 1 edge 0 points to face 0 edge 1 instead of edge 2
    assert!(codes(&patch(380 + 12, 1)).contains(&"bwm.adjacency_not_reciprocal".to_string()));
    assert!(codes(&patch(380 + 12, 1)).contains(&"bwm.adjacency_mismatch".to_string()));
    assert!(codes(&patch(380 + 12, 300)).contains(&"bwm.adjacency_out_of_range".to_string()));
    // perimeter 3 instead of 4
    assert_eq!(
        codes(&patch(436, 3)),
        vec!["bwm.perimeter_last_mismatch", "bwm.perimeter_loop_open"]
    );
    // no perimeters
    assert_eq!(codes(&patch(0x80, 0)), vec!["bwm.perimeters_missing"]);
    // an edge listed twice (edge 1 replaced by edge 0): edge 1 missing as well
    let dup = codes(&patch(404 + 8, 0));
    assert!(
        dup.contains(&"bwm.edge_duplicate".to_string())
            && dup.contains(&"bwm.edge_missing".to_string()),
        "{dup:?}"
    );
    // a non-boundary edge (face 0 edge 2 = index 2)
    assert!(codes(&patch(404 + 8, 2)).contains(&"bwm.edge_not_boundary".to_string()));
    // Without recomputing derived tables (convert's output check) the same rules hold by
    // the file's own adjacency table; only the comparison with a recomputed one goes.
    let quick = codes_with(&patch(380 + 12, 1), false);
    assert!(quick.contains(&"bwm.adjacency_not_reciprocal".to_string()));
    assert!(!quick.contains(&"bwm.adjacency_mismatch".to_string()));
    assert!(codes_with(&patch(404 + 8, 2), false).contains(&"bwm.edge_not_boundary".to_string()));
    let dup = codes_with(&patch(404 + 8, 0), false);
    assert!(dup.contains(&"bwm.edge_duplicate".to_string()));
    assert!(dup.contains(&"bwm.edge_missing".to_string()));
    assert!(codes_with(&good, false).is_empty());
    // AABB: child index 1-based (PyKotor-NH's bug), leaf with children, cycle, shifted box
    assert!(codes(&patch(248 + 0x24, 2)).contains(&"bwm.aabb_not_preorder".to_string()));
    assert!(codes(&patch(248 + 0x28, 9)).contains(&"bwm.aabb_child_out_of_range".to_string()));
    assert!(codes(&patch(248 + 0x28, 0)).contains(&"bwm.aabb_cycle".to_string()));
    assert!(codes(&patch(248 + 44 + 0x24, 0)).contains(&"bwm.aabb_leaf_children".to_string()));
    assert!(
        codes(&patch(248 + 44 + 0x18, 0)).contains(&"bwm.aabb_face_in_several_leaves".to_string())
    );
    assert!(codes(&patch(248 + 44 + 0x18, 0)).contains(&"bwm.aabb_face_missing".to_string()));
    let shifted = patch(248 + 44 + 8, 10.0f32.to_bits()); // leaf 1 min.z = 10
    let shifted_codes = codes(&shifted);
    assert!(
        shifted_codes.contains(&"bwm.aabb_box_misses_face".to_string()),
        "{shifted_codes:?}"
    );
    assert!(shifted_codes.contains(&"bwm.aabb_inverted_box".to_string()));
    assert!(codes(&patch(0x64, 2)).contains(&"bwm.aabb_count".to_string()));
    // counts and walkability
    assert!(codes(&patch(0x70, 1)).contains(&"bwm.adjacency_count_mismatch".to_string()));
    assert_eq!(
        codes(&patch(208, 7)),
        vec!["bwm.adjacency_count_mismatch", "bwm.walkable_not_first"]
    );
    assert_eq!(codes(&patch(184, 40)), vec!["bwm.face_vertex_out_of_range"]);
    assert!(codes(&patch(0x7C, 380)).contains(&"bwm.tables_overlap".to_string()));
    assert_eq!(codes(&patch(0x78, 400)), vec!["bwm.table_out_of_bounds"]);
    assert_eq!(codes(&patch(0x08, 9)), vec!["bwm.unknown_type"]);
    // type 0 with area tables
    assert!(codes(&patch(0x08, 0)).contains(&"bwm.object_has_area_tables".to_string()));
    // warnings: normals, distance, unknown field, plane value
    let warnings = |bytes: &[u8]| -> Vec<String> {
        validate_bwm(Input { bytes, path: None }, &ReadOptions::default())
            .unwrap()
            .into_iter()
            .map(|d| d.code)
            .collect()
    };
    assert_eq!(
        warnings(&patch(216 + 8, 0.5f32.to_bits())),
        vec!["bwm.normal_mismatch"]
    );
    assert_eq!(
        warnings(&patch(240, 2.0f32.to_bits())),
        vec!["bwm.plane_distance_mismatch"]
    );
    assert_eq!(
        warnings(&patch(248 + 0x1C, 0)),
        vec!["bwm.aabb_unknown_field"]
    );
    assert_eq!(
        warnings(&patch(248 + 0x20, 3)),
        vec!["bwm.aabb_plane_value"]
    );
    assert_eq!(warnings(&patch(0x6C, 1)), vec!["bwm.aabb_root_nonzero"]);
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 4]);
    assert_eq!(warnings(&longer), vec!["bwm.trailing_bytes"]);
}

fn kotor_file(rel: &str) -> PathBuf {
    let dir = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let path = dir.join("kotor").join(rel);
    assert!(
        path.is_file(),
        "{} is missing from the corpora",
        path.display()
    );
    path
}

/// The PyKotor-written files: validate names their defects; a rebuild validates clean.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn pykotor_written_files_are_diagnosed_and_fixed_by_rebuild() {
    let out = kotor_file("pykotor-misc/out.wok");
    let floor = kotor_file("pykotor-misc/floor_plain.wok");
    let expectations: [(&PathBuf, &[&str]); 2] = [
        (
            &out,
            &[
                "bwm.perimeters_missing",
                "bwm.adjacency_not_reciprocal",
                "bwm.aabb_box_misses_face",
                "bwm.aabb_count",
                "bwm.aabb_face_missing",
            ],
        ),
        (
            &floor,
            &[
                "bwm.perimeters_missing",
                "bwm.aabb_box_misses_face",
                "bwm.aabb_inverted_box",
            ],
        ),
    ];
    for (path, expected) in expectations {
        let bytes = std::fs::read(path).unwrap();
        let found = codes(&bytes);
        for code in expected {
            assert!(
                found.contains(&code.to_string()),
                "{}: {code} not in {found:?}",
                path.display()
            );
        }
        let all = validate_bwm(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(
            all.iter().any(|d| d.code == "bwm.aabb_plane_value") || path == &floor,
            "planes 1/2/3"
        );
        let mut diag = Diagnostics::new();
        let mesh = common::read_ok(&bytes, Some(path), &mut diag);
        let rebuilt = write(
            &mesh,
            &WriteOptions {
                rebuild: true,
                ..WriteOptions::default()
            },
        );
        let findings = validate_bwm(
            Input {
                bytes: &rebuilt,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
        let errors: Vec<_> = findings
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        // Without --rebuild the broken stored tables are not copied: the same rebuild, and a
        // warning naming what was wrong.
        let mut diag = Diagnostics::new();
        let plain = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
            .unwrap()
            .main;
        assert!(plain == rebuilt, "{}: not the rebuilt file", path.display());
        let warning = diag
            .items
            .iter()
            .find(|d| d.code == "bwm.stored_tables_rebuilt")
            .unwrap_or_else(|| panic!("{}: no warning in {diag:?}", path.display()));
        assert!(
            warning.message.contains("bwm.perimeters_missing"),
            "{}",
            warning.message
        );
        if path == &floor {
            assert!(findings.is_empty(), "{findings:#?}");
        } else {
            // out.wok marks walls walkable (material 10 on 1237 of 1242 faces): 126 edges are
            // shared by three or more walkable faces, so some loops cannot close whatever the
            // order; that is a geometry finding (also core's mesh.non_manifold_edge), not a
            // table error.
            assert!(
                findings.iter().all(|d| d.code == "bwm.perimeter_loop_open"),
                "{findings:#?}"
            );
        }
        // Geometry, face order and materials survive.
        let raw_in = RawBwm::parse(&bytes).unwrap();
        let raw_out = RawBwm::parse(&rebuilt).unwrap();
        assert_eq!(raw_in.face_count(), raw_out.face_count());
        for i in 0..raw_in.face_count() {
            assert_eq!(raw_in.face(i), raw_out.face(i));
            assert_eq!(raw_in.material(i), raw_out.material(i));
        }
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn corpus_placeable_reads_as_placeable_with_hooks_and_rebuilds_identically() {
    let path = kotor_file("k1cp/tslpatchdata/plc_fccage2.pwk");
    let bytes = std::fs::read(&path).unwrap();
    let mut diag = Diagnostics::new();
    let mesh = common::read_ok(&bytes, Some(&path), &mut diag);
    assert_eq!(mesh.kind, MeshKind::Placeable);
    assert_eq!(mesh.hooks.len(), 2);
    assert!((mesh.hooks[0].position[0] + 0.883).abs() < 1e-3);
    assert!((mesh.hooks[1].position[0] - 0.852).abs() < 1e-3);
    let rebuilt = write(
        &mesh,
        &WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        },
    );
    // Everything but the normals (recomputed; stored ones within 3e-8) is identical.
    assert_eq!(rebuilt.len(), bytes.len());
    assert_eq!(rebuilt[..0x5C], bytes[..0x5C]);
    let normals = 136 + 18 * 12 + 16 * 12 + 16 * 4;
    assert_eq!(rebuilt[0x5C..normals], bytes[0x5C..normals]);
    assert!(
        validate_bwm(
            Input {
                bytes: &rebuilt,
                path: Some(&path)
            },
            &ReadOptions::default()
        )
        .unwrap()
        .is_empty()
    );
}

#[test]
fn dump_shows_every_field_at_its_offset() {
    use walkmesh_core::dump::{DumpNode, DumpValue};
    let bytes = write(&square(), &WriteOptions::default());
    let root = walkmesh_bwm::dump_bwm(&bytes).unwrap();
    fn find<'a>(node: &'a DumpNode, name: &str) -> Option<&'a DumpNode> {
        if node.name == name {
            return Some(node);
        }
        node.children.iter().find_map(|c| find(c, name))
    }
    let header = find(&root, "header").unwrap();
    // magic, version, type, 5 vectors, then 16 words from 0x48 (counts, offsets, 0x6C).
    assert_eq!(header.children.len(), 24);
    let offsets: Vec<u64> = header.children.iter().map(|c| c.offset.unwrap()).collect();
    let mut expected: Vec<u64> = vec![0, 4, 8, 0x0C, 0x18, 0x24, 0x30, 0x3C];
    expected.extend((0x48..0x88).step_by(4));
    assert_eq!(offsets, expected);
    let count = find(header, "vertex_count").unwrap();
    assert_eq!(
        (count.offset, count.value.clone()),
        (Some(0x48), Some(DumpValue::UInt(4)))
    );
    let node = find(&root, "aabb[1]").unwrap();
    let face = node.children.iter().find(|c| c.name == "face").unwrap();
    assert_eq!(
        (face.offset, face.value.clone()),
        (Some(248 + 44 + 0x18), Some(DumpValue::Int(1)))
    );
    let edge = find(&root, "edges[2]").unwrap();
    assert_eq!(edge.children[0].offset, Some(404 + 16));
    assert_eq!(edge.children[0].value, Some(DumpValue::UInt(4)));
    let perimeter = find(&root, "perimeters[0]").unwrap();
    assert_eq!(
        (perimeter.offset, perimeter.value.clone()),
        (Some(436), Some(DumpValue::UInt(4)))
    );
    assert_eq!(
        find(&root, "adjacency[1]").unwrap().value,
        Some(DumpValue::Ints(vec![2, -1, -1]))
    );
}

#[test]
fn aabb_tree_is_balanced_preorder_with_padded_leaves() {
    let mesh = walkmesh_bwm::synthetic::grid(9, 11); // 198 faces
    let nodes = walkmesh_bwm::derived::aabb_tree(&mesh);
    assert_eq!(nodes.len(), 2 * 198 - 1);
    // Leaves below each node, counted bottom-up (children follow their parent).
    let mut leaves = vec![0usize; nodes.len()];
    for i in (0..nodes.len()).rev() {
        let n = nodes[i];
        if n.face >= 0 {
            leaves[i] = 1;
            assert_eq!((n.first, n.second, n.plane), (NONE, NONE, 0));
            let face = mesh.polygons.get(n.face as usize);
            for k in 0..3 {
                let lo = face
                    .iter()
                    .map(|&v| mesh.vertices[v as usize][k])
                    .fold(f32::INFINITY, f32::min);
                let hi = face
                    .iter()
                    .map(|&v| mesh.vertices[v as usize][k])
                    .fold(f32::NEG_INFINITY, f32::max);
                assert_eq!((n.min[k], n.max[k]), (lo - 0.01, hi + 0.01));
            }
        } else {
            let (a, b) = (n.first as usize, n.second as usize);
            assert_eq!(a, i + 1, "pre-order");
            leaves[i] = leaves[a] + leaves[b];
            assert_eq!(leaves[a], leaves[i] / 2, "balanced split at node {i}");
            assert!([1, 2, 4, 8, 16, 32].contains(&n.plane));
            for k in 0..3 {
                assert_eq!(n.min[k], nodes[a].min[k].min(nodes[b].min[k]));
                assert_eq!(n.max[k], nodes[a].max[k].max(nodes[b].max[k]));
            }
        }
        assert_eq!(n.unknown, 4);
    }
    assert_eq!(leaves[0], 198);
    let mut faces: Vec<i32> = nodes
        .iter()
        .filter(|n| n.face >= 0)
        .map(|n| n.face)
        .collect();
    faces.sort();
    assert_eq!(faces, (0..198).collect::<Vec<i32>>());
}

/// Kotor.NET's synthetic file puts NotDefined (0) in its walkable block: the IR keeps the
/// file's block (so it writes back unchanged), a rebuild applies the profile.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn a_walkable_block_that_contradicts_the_profile_is_kept_until_rebuild() {
    let path = kotor_file("kotor-net/file1.bwm");
    let bytes = std::fs::read(&path).unwrap();
    let raw = RawBwm::parse(&bytes).unwrap();
    let block = raw.span(Table::Adjacency).count;
    let mut diag = Diagnostics::new();
    let mesh = common::read_ok(&bytes, Some(&path), &mut diag);
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "bwm.walkability_differs")
    );
    for (i, surface) in mesh.surfaces.iter().enumerate() {
        assert_eq!(surface.walkable, i < block);
    }
    assert!(mesh.surfaces.iter().take(block).any(|s| s.code == 0));
    // The file's block contradicts its own header (bwm.adjacency_count_mismatch): its tables
    // cannot be copied into a valid file, so even a plain write recomputes them, saying so.
    let mut diag = Diagnostics::new();
    let plain = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    assert_ne!(plain, bytes);
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "bwm.stored_tables_rebuilt"
                && d.message.contains("bwm.adjacency_count_mismatch"))
    );
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        rebuild: true,
        ..WriteOptions::default()
    };
    let rebuilt = write_bwm(&mesh, &options, &mut diag).unwrap().main;
    assert!(
        diag.items
            .iter()
            .any(|d| d.code == "bwm.walkability_changed")
    );
    let out = RawBwm::parse(&rebuilt).unwrap();
    let profile = walkmesh_bwm::profile::kotor_profile();
    let walkable = |code: u32| profile.surface_for_code(code).unwrap().walkable;
    let count = out.span(Table::Adjacency).count;
    assert!((0..out.face_count()).all(|i| walkable(out.material(i)) == (i < count)));
    assert!(
        validate_bwm(
            Input {
                bytes: &rebuilt,
                path: None
            },
            &ReadOptions::default()
        )
        .unwrap()
        .is_empty()
    );
}

/// Random grids with holes, pinch vertices (cells touching only at a corner), mixed
/// walkability and transitions: the rebuilt file always validates without any finding, every
/// loop closes, and reading it back gives the same faces (as a set), materials and transitions.
#[test]
fn random_grids_rebuild_into_files_that_validate_clean() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for round in 0..60 {
        let (w, h) = (2 + next(12) as u32, 2 + next(12) as u32);
        let mut mesh = NavMesh::default();
        for y in 0..=h {
            for x in 0..=w {
                mesh.vertices
                    .push([x as f32, y as f32, next(3) as f32 * 0.1]);
            }
        }
        let stride = w + 1;
        for y in 0..h {
            for x in 0..w {
                if next(5) == 0 {
                    continue; // a hole
                }
                let a = y * stride + x;
                let surface = match next(4) {
                    0 => nonwalk(),
                    1 => Surface {
                        material: Material(3),
                        walkable: true,
                        code: 3,
                    },
                    _ => stone(),
                };
                let first = mesh.polygons.len() as u32;
                if next(2) == 0 {
                    mesh.push_polygon(&[a, a + 1, a + stride + 1], surface);
                    mesh.push_polygon(&[a, a + stride + 1, a + stride], surface);
                } else {
                    mesh.push_polygon(&[a, a + 1, a + stride], surface);
                    mesh.push_polygon(&[a + 1, a + stride + 1, a + stride], surface);
                }
                if next(6) == 0 {
                    let tag = EdgeTag {
                        transition: next(30) as i32,
                    };
                    mesh.edge_tags.insert(
                        EdgeRef {
                            polygon: first,
                            edge: next(3) as u32,
                        },
                        tag,
                    );
                }
            }
        }
        if mesh.polygons.is_empty() {
            continue;
        }
        let mut diag = Diagnostics::new();
        let bytes = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
            .unwrap()
            .main;
        let findings = validate_bwm(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(findings.is_empty(), "round {round}: {findings:#?}");
        let back = common::read_ok(&bytes, None, &mut diag);
        let describe = |m: &NavMesh| {
            let mut faces: Vec<(Vec<u32>, u32)> = m
                .polygons
                .iter()
                .zip(&m.surfaces)
                .map(|(p, s)| (p.to_vec(), s.code))
                .collect();
            faces.sort();
            faces
        };
        assert_eq!(describe(&mesh), describe(&back), "round {round}");
        // Transitions on walkable boundary edges survive, keyed by their vertex pair.
        let tags = |m: &NavMesh| {
            let mut t: Vec<(u32, u32, i32)> = m
                .edge_tags
                .iter()
                .map(|(e, tag)| {
                    let p = m.polygons.get(e.polygon as usize);
                    (
                        p[e.edge as usize],
                        p[(e.edge as usize + 1) % 3],
                        tag.transition,
                    )
                })
                .collect();
            t.sort();
            t
        };
        let kept = tags(&back);
        let dropped = diag
            .items
            .iter()
            .any(|d| d.code == "bwm.transitions_dropped");
        assert!(
            kept.iter().all(|t| tags(&mesh).contains(t)),
            "round {round}"
        );
        assert!(
            dropped || kept.len() == mesh.edge_tags.len(),
            "round {round}"
        );
    }
}
