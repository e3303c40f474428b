//! Hostile input built by hand (no corpus needed): LYT and VIS with counts that lie, archives
//! cut short or with tables pointing anywhere, kit and `.indoor` JSON with absurd values and
//! broken walkmesh overrides. Every reader must return an error or a value, never panic or
//! allocate what the bytes cannot hold.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use walkmesh_core::{EdgeRef, Material, NavMesh, Surface};
use walkmesh_kotor_area::erf::{Archive, ArchiveKind, split_member_path};
use walkmesh_kotor_area::kits::{
    IndoorMap, Kit, LoadedKit, Transform, build_indoor, decode_base64, link_hooks, read_wok, tag,
    transform_mesh,
};
use walkmesh_kotor_area::lyt::{check_lyt, read_lyt, write_lyt};
use walkmesh_kotor_area::transitions::{DEFAULT_TOLERANCE, RoomMesh, Tolerance, solve};
use walkmesh_kotor_area::vis::{check_vis, read_vis, write_vis};

/// Every prefix and every single-byte mutation of `bytes` through `read`.
fn torture(bytes: &[u8], read: &dyn Fn(&[u8])) {
    for cut in 0..=bytes.len() {
        read(&bytes[..cut]);
    }
    for i in 0..bytes.len() {
        for x in [0x01, 0x20, 0x80, 0xff] {
            let mut m = bytes.to_vec();
            m[i] ^= x;
            read(&m);
        }
    }
}

#[test]
fn lyt_with_lying_counts_is_an_error_or_a_finding() {
    for text in [
        "beginlayout\nroomcount 4294967295\nr 1 2 3\ndonelayout\n",
        "beginlayout\nroomcount 18446744073709551616\n",
        "beginlayout\nroomcount -1\nr 1 2 3\ndonelayout\n",
        "beginlayout\nroomcount 3\nr 1 2 3\ndonelayout\n",
        "beginlayout\nroomcount 0\nr 1 2 3\ndonelayout\n",
        "beginlayout\ndoorhookcount 2\nr d 0 1 2 3 0 0 0 1\ndonelayout\n",
        "beginlayout\ndoorhookcount 1\nr d 0 1 2\ndonelayout\n",
        "beginlayout\ntrackcount 99999999999\n",
        "beginlayout\nroomcount 1\nr nan inf -inf\ndonelayout\n",
        "beginlayout\nroomcount 1\n",
        "beginlayout\nroomcount",
        "beginlayout\n\t\t\t",
        "donelayout\nbeginlayout\n",
        "\u{feff}beginlayout\nroomcount 1\nr 1 2 3\ndonelayout\n",
    ] {
        if let Ok((lyt, _)) = read_lyt(text.as_bytes()) {
            // Whatever was read checks and writes without panicking, and reads back.
            let _ = check_lyt(&lyt);
            let written = write_lyt(&lyt);
            assert!(read_lyt(&written).is_ok(), "{text:?}");
        }
    }
    let good = b"#MAXLAYOUT ASCII\r\nfiledependancy a.max\r\nbeginlayout\r\n   roomcount 2\r\n      R1 1.5 2 3\r\n      ****  0 0 0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      R1 door_1 0 1 2 3 0.7 0 0 -0.7 5\r\ndonelayout\r\n";
    assert!(read_lyt(good).is_ok());
    torture(good, &|b| {
        if let Ok((lyt, _)) = read_lyt(b) {
            let _ = check_lyt(&lyt);
            let _ = write_lyt(&lyt);
        }
    });
}

#[test]
fn vis_with_lying_counts_is_an_error_or_a_finding() {
    for text in [
        "a 4294967295\n  b\n",
        "a 18446744073709551616\n",
        "a -3\n  b\n",
        "a 2\n  b\n",
        "a 0\n  b\n  c\n",
        "a\n",
        "  b\n",
        "a 1\n",
        "a 1\n  \n",
    ] {
        if let Ok((vis, _)) = read_vis(text.as_bytes()) {
            let _ = check_vis(&vis, None);
            let written = write_vis(&vis);
            assert!(read_vis(&written).is_ok(), "{text:?}");
        }
    }
    let good =
        b"room_a 3\r\n  room_a\r\n  room_b\r\n  room_c\r\nroom_b 1\r\n  room_a\r\nroom_c 0\r\n";
    let (lyt, _) =
        read_lyt(b"beginlayout\nroomcount 2\nroom_a 0 0 0\nroom_b 1 0 0\ndonelayout\n").unwrap();
    torture(good, &|b| {
        if let Ok((vis, _)) = read_vis(b) {
            let _ = check_vis(&vis, Some(&lyt));
            let _ = write_vis(&vis);
        }
    });
}

/// A small valid archive of `kind` with three members.
fn small_archive(kind: ArchiveKind) -> Vec<u8> {
    let mut archive = Archive::new(kind);
    archive
        .put("room_a.wok", b"BWM V1.0 not really".to_vec())
        .unwrap();
    archive
        .put(
            "layout.lyt",
            b"beginlayout\nroomcount 1\nroom_a 0 0 0\ndonelayout\n".to_vec(),
        )
        .unwrap();
    archive.put("layout.vis", b"room_a 0\n".to_vec()).unwrap();
    archive.write().unwrap()
}

/// An archive whose counts claim more than the file holds is refused by field and offset
/// before anything is allocated (the reader's tables go through core's `ByteCursor`).
#[test]
fn archive_tables_past_the_end_name_their_field() {
    use walkmesh_core::Position;
    let erf = small_archive(ArchiveKind::Erf(*b"MOD "));
    let mut m = erf.clone();
    m[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = Archive::parse(&m).unwrap_err();
    assert_eq!(error.field, "header.key_list_offset");
    let key_offset = u32::from_le_bytes(erf[24..28].try_into().unwrap());
    assert_eq!(error.position, Position::Offset(u64::from(key_offset)));
    assert!(
        error.message.contains("4294967295 entries of 24 bytes"),
        "{error}"
    );
    // A member whose data runs past the end: named by its resource entry.
    let mut m = erf.clone();
    let resources = u32::from_le_bytes(erf[28..32].try_into().unwrap()) as usize;
    m[resources + 4..resources + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = Archive::parse(&m).unwrap_err();
    assert_eq!(error.field, "resources[0]");
    assert_eq!(error.position, Position::Offset(resources as u64));
    // A file cut inside the header's fields: the field and its own offset.
    let rim = small_archive(ArchiveKind::Rim);
    let error = Archive::parse(&rim[..14]).unwrap_err();
    assert_eq!(error.field, "header.entry_count");
    assert_eq!(error.position, Position::Offset(12));
    let mut m = rim.clone();
    m[12..16].copy_from_slice(&(1u32 << 28).to_le_bytes());
    let error = Archive::parse(&m).unwrap_err();
    assert_eq!(error.field, "header.key_list_offset");
    assert!(
        error.message.contains("268435456 entries of 32 bytes"),
        "{error}"
    );
}

#[test]
fn truncated_and_mutated_archives_never_panic() {
    for kind in [
        ArchiveKind::Erf(*b"MOD "),
        ArchiveKind::Erf(*b"ERF "),
        ArchiveKind::Rim,
    ] {
        let bytes = small_archive(kind);
        let archive = Archive::parse(&bytes).unwrap();
        assert_eq!(archive.members.len(), 3);
        // Cut anywhere before the last member's data ends: an error naming a field.
        for cut in 0..bytes.len() {
            if let Err(e) = Archive::parse(&bytes[..cut]) {
                assert!(!e.to_string().is_empty());
            }
        }
        torture(&bytes, &|b| {
            if let Ok(mut archive) = Archive::parse(b) {
                for m in archive.members.clone() {
                    let _ = archive.data(&m);
                    let _ = archive.extract(&m.file_name());
                }
                // A read archive writes back (or says why) after a change.
                let _ = archive.put("room_a.wok", vec![1, 2, 3]);
                if let Ok(written) = archive.write() {
                    assert!(Archive::parse(&written).is_ok());
                }
            }
        });
    }
    // Header counts and offsets at their extremes: an error, no huge allocation.
    let bytes = small_archive(ArchiveKind::Erf(*b"MOD "));
    for (at, value) in [
        (16usize, u32::MAX),
        (24, u32::MAX),
        (28, u32::MAX),
        (16, 1 << 28),
    ] {
        let mut m = bytes.clone();
        m[at..at + 4].copy_from_slice(&value.to_le_bytes());
        assert!(Archive::parse(&m).is_err(), "field at {at} = {value}");
    }
    let bytes = small_archive(ArchiveKind::Rim);
    for (at, value) in [(12usize, u32::MAX), (16, u32::MAX), (12, 1 << 28)] {
        let mut m = bytes.clone();
        m[at..at + 4].copy_from_slice(&value.to_le_bytes());
        assert!(Archive::parse(&m).is_err(), "field at {at} = {value}");
    }
    for text in [
        ":",
        "a:",
        ":b",
        "a.mod:",
        "C:\\x.mod:y.wok",
        "a.mod:b.wok:c",
    ] {
        let _ = split_member_path(text);
    }
}

fn triangle_mesh() -> NavMesh {
    let mut mesh = NavMesh {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
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
    mesh
}

#[test]
fn transforms_survive_tags_on_missing_faces_and_absurd_placements() {
    let mut mesh = triangle_mesh();
    // Tags naming a face that does not exist and an edge beyond the polygon's corners.
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 7,
            edge: 0,
        },
        tag(3),
    );
    mesh.edge_tags.insert(
        EdgeRef {
            polygon: 0,
            edge: 9,
        },
        tag(4),
    );
    for position in [[f64::NAN; 3], [f64::INFINITY; 3], [1e300, -1e300, 0.0]] {
        for (flip_x, flip_y) in [(true, false), (false, true), (true, true)] {
            let t = Transform {
                position,
                rotation: f64::NAN,
                flip_x,
                flip_y,
            };
            let out = transform_mesh(&mesh, &t);
            assert_eq!(out.polygons.len(), 1);
        }
    }
    let hooks = vec![
        vec![[f64::NAN; 3], [f64::INFINITY; 3], [1e300; 3]],
        vec![[f64::NEG_INFINITY; 3], [9.2e15, 0.0, 0.0], [-1e300; 3]],
    ];
    let _ = link_hooks(&hooks);
    // The solver with degenerate rooms and extreme tolerances.
    let rooms = vec![
        RoomMesh {
            lyt_index: 0,
            name: "a".into(),
            mesh: mesh.clone(),
        },
        RoomMesh {
            lyt_index: 5,
            name: "b".into(),
            mesh: NavMesh {
                vertices: vec![[f32::NAN; 3], [f32::MAX; 3], [f32::MIN; 3]],
                ..triangle_mesh()
            },
        },
    ];
    for tolerance in [
        DEFAULT_TOLERANCE,
        Tolerance {
            horizontal: 1e-30,
            vertical: 1e-30,
        },
        Tolerance {
            horizontal: f32::NAN,
            vertical: -1.0,
        },
    ] {
        let _ = solve(&rooms, 1, tolerance);
    }
}

#[test]
fn hostile_kits_and_indoor_maps_build_or_report() {
    assert!(Kit::parse(b"").is_err());
    assert!(Kit::parse(b"{\"name\": 3}").is_err());
    let kit = Kit::parse(
        br#"{"name":"K","id":"k","components":[{"name":"C","id":"c","doorhooks":[
            {"x":0,"y":0,"z":0,"rotation":1e308,"door":-5,"edge":2147483647},
            {"x":1e308,"y":-1e308,"z":0,"edge":-2147483648}]}]}"#,
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("walkmesh-area-robust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The component's WOK is garbage.
    std::fs::write(dir.join("c.wok"), b"BWM V1.0\x00\x01").unwrap();
    let kits = vec![LoadedKit {
        kit,
        wok_dir: dir.clone(),
    }];
    // An override that is valid base64 of a truncated BWM, one that is not base64, one empty.
    let truncated = {
        let wok = b"BWM V1.0\x00\x00\x00\x00";
        let mut s = String::new();
        let table = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for chunk in wok.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for k in 0..=chunk.len() {
                s.push(char::from(table[((n >> (18 - 6 * k)) & 63) as usize]));
            }
        }
        s
    };
    assert!(read_wok(&decode_base64(&truncated).unwrap()).is_err());
    let map = format!(
        r#"{{"module_id":"averyveryverylongmoduleid","rooms":[
            {{"kit":"k","component":"c","position":[0,0,0]}},
            {{"kit":"k","component":"c","position":[1e308,0,-1e308],"rotation":1e308,"flip_x":true}},
            {{"kit":"K","component":"missing","position":[0,0,0]}},
            {{"kit":"nope","component":"c","position":[0,0,0],"walkmesh_override":"{truncated}"}},
            {{"kit":"k","component":"c","position":[0,0,0],"walkmesh_override":"***"}},
            {{"kit":"k","component":"c","position":[0,0,0],"walkmesh_override":""}}
        ]}}"#
    );
    let map = IndoorMap::parse(map.as_bytes()).unwrap();
    let build = build_indoor(&map, &kits, DEFAULT_TOLERANCE);
    assert_eq!(build.lyt.rooms.len(), 6);
    assert!(build.rooms.is_empty());
    let without: Vec<_> = build
        .findings
        .iter()
        .filter(|f| f.code == "indoor.room_without_walkmesh")
        .collect();
    assert_eq!(without.len(), 6, "{:?}", build.findings);
    assert!(
        build
            .findings
            .iter()
            .any(|f| f.code == "indoor.room_name_too_long")
    );
    // Mutations of a valid map: parse errors or builds, never a panic.
    let good = br#"{"module_id":"m","rooms":[{"kit":"k","component":"c","position":[0,0,0],"rotation":90,"flip_y":true}]}"#;
    torture(good, &|b| {
        if let Ok(map) = IndoorMap::parse(b) {
            let _ = build_indoor(&map, &kits, DEFAULT_TOLERANCE);
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let _ = transform_mesh(
        &triangle_mesh(),
        &Transform {
            flip_x: true,
            ..Transform::default()
        },
    );
}
