//! Real-corpus conformance: preserve round trip, re-bake against the toolset's own tables,
//! validation, TRN → TRX bakes, dumps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod common;

use walkmesh_core::format::Dumper;
use walkmesh_core::{Diagnostics, Input, ReadOptions, Severity, WriteOptions};
use walkmesh_nwn2::TrxFormat;
use walkmesh_nwn2::aswm::Aswm;

fn read(bytes: &[u8]) -> walkmesh_core::NavMesh {
    let mut diag = Diagnostics::new();
    walkmesh_nwn2::read_trx(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap()
}

fn write(mesh: &walkmesh_core::NavMesh, options: &WriteOptions) -> Vec<u8> {
    write_with(mesh, options, &mut Diagnostics::new())
}

/// [`write`] keeping the diagnostics.
fn write_with(
    mesh: &walkmesh_core::NavMesh,
    options: &WriteOptions,
    diag: &mut Diagnostics,
) -> Vec<u8> {
    let prepared = walkmesh_core::passes::prepare(mesh, &walkmesh_nwn2::REQUIREMENTS, diag);
    walkmesh_nwn2::write_trx(&prepared, options, diag)
        .unwrap()
        .main
}

fn aswm(bytes: &[u8]) -> Aswm {
    walkmesh_nwn2::file::parse(bytes, 1 << 30).unwrap().aswm
}

fn errors(bytes: &[u8]) -> Vec<String> {
    walkmesh_nwn2::validate::validate_bytes(bytes, &ReadOptions::default())
        .unwrap()
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn preserve_round_trip_is_byte_identical() {
    let files = common::corpus_files();
    assert_eq!(files.len(), 21, "the shared corpus has 21 NWN2 files");
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut diag = Diagnostics::new();
        let out = write_with(&read(&bytes), &WriteOptions::default(), &mut diag);
        assert!(
            out == bytes,
            "{} is not written back byte-identically",
            path.display()
        );
        // Their stored tables are valid (official_files_validate_without_errors): copied
        // without a word.
        assert!(
            !diag
                .items
                .iter()
                .any(|d| d.code == "trx.stored_tables_rebuilt"),
            "{}: {diag:?}",
            path.display()
        );
    }
}

/// Issue #51 on an official file: its path tables broken (a loop and a next hop that is not
/// a neighbour) are not copied by a plain write; the file is baked again, exactly as
/// `--rebuild` bakes the intact file, and validates.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn broken_stored_path_tables_of_an_official_file_are_baked_again() {
    let path = common::corpus_file("abandoned house.trx");
    let bytes = std::fs::read(path).unwrap();
    let tile = aswm(&bytes)
        .tiles
        .iter()
        .position(|t| t.node_to_local.len() > 5)
        .unwrap();
    let bad = common::with_edited_aswm(&bytes, |a| common::corrupt_path_table(a, tile));
    let found = common::error_codes(&bad);
    assert!(found.iter().any(|c| c == "trx.path_loop"), "{found:?}");
    let mesh = read(&bad);
    let mut diag = Diagnostics::new();
    let out = write_with(&mesh, &WriteOptions::default(), &mut diag);
    let warning = diag
        .items
        .iter()
        .find(|d| d.code == "trx.stored_tables_rebuilt")
        .unwrap_or_else(|| panic!("no warning in {diag:?}"));
    assert!(
        warning.message.contains("trx.path_loop")
            && warning.message.contains("trx.path_next_not_adjacent"),
        "{}",
        warning.message
    );
    assert_eq!(errors(&out), Vec::<String>::new());
    let rebuilt = write(
        &read(&bytes),
        &WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        },
    );
    assert!(
        out == rebuilt,
        "not what --rebuild makes of the intact file"
    );
    let back = read(&out);
    assert_eq!(back.vertices, mesh.vertices);
    assert!(back.polygons.iter().eq(mesh.polygons.iter()));
    assert_eq!(back.surfaces, mesh.surfaces);
}

/// Path-table entries equal ignoring bit 0x80 (0xFF only equals 0xFF).
fn entries_equal(a: u8, b: u8) -> bool {
    (a == 0xFF && b == 0xFF) || (a != 0xFF && b != 0xFF && a & 0x7F == b & 0x7F)
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn rebake_reproduces_the_toolset_tables() {
    let files = common::corpus_files();
    let (mut equal, mut total) = (0u64, 0u64);
    for path in files.iter().filter(|p| common::is_trx(p)) {
        let bytes = std::fs::read(path).unwrap();
        let name = common::name(path);
        let options = WriteOptions {
            rebuild: true,
            file_name: Some("out.trx".into()),
            ..WriteOptions::default()
        };
        let out = write(&read(&bytes), &options);
        let (o, n) = (aswm(&bytes), aswm(&out));
        assert_ne!(out, bytes, "{name}: a rebuild must not just copy the file");
        // Same triangles in the same order (tile assignment and ranges).
        assert_eq!(o.triangles.len(), n.triangles.len(), "{name}");
        let (mut e, mut t) = (0u64, 0u64);
        for (ti, (a, b)) in o.tiles.iter().zip(&n.tiles).enumerate() {
            t += a.nodes.len() as u64;
            if a.triangles_offset == b.triangles_offset && a.node_to_local == b.node_to_local {
                e += a
                    .nodes
                    .iter()
                    .zip(&b.nodes)
                    .filter(|(x, y)| entries_equal(**x, **y))
                    .count() as u64;
            } else {
                println!("{name}: tile {ti} holds other triangles after the re-bake");
            }
            assert!(
                b.nodes.iter().all(|&x| x == 0xFF || x & 0x80 == 0),
                "{name}: bit 0x80 must stay clear"
            );
        }
        let next_equal = o
            .island_paths
            .iter()
            .zip(&n.island_paths)
            .filter(|(a, b)| a.next == b.next)
            .count();
        println!(
            "{name}: tile next hops {e}/{t} = {:.4}%, islands {}/{}, island next {next_equal}/{}",
            100.0 * e as f64 / t.max(1) as f64,
            n.islands.len(),
            o.islands.len(),
            o.island_paths.len()
        );
        equal += e;
        total += t;
        assert_eq!(o.islands.len(), n.islands.len(), "{name}: island count");
        for (i, (a, b)) in o.islands.iter().zip(&n.islands).enumerate() {
            assert_eq!(a.adjacent, b.adjacent, "{name}: island {i} adjacency");
            assert_eq!(a.exits, b.exits, "{name}: island {i} exits");
            assert_eq!(a.centre, b.centre, "{name}: island {i} centre");
            assert_eq!(a.distances, b.distances, "{name}: island {i} distances");
        }
        assert_eq!(next_equal, o.island_paths.len(), "{name}: island path next");
        for (a, b) in o.triangles.iter().zip(&n.triangles) {
            // Every baked triangle is clockwise with 0x04; only triangles the toolset left
            // without the flag (one in dm002_chapeltop) come out in the other winding.
            if a.flags & 0x04 != 0 {
                assert_eq!(a.vertices, b.vertices, "{name}: triangle order");
            } else {
                let (mut x, mut y) = (a.vertices, b.vertices);
                x.sort_unstable();
                y.sort_unstable();
                assert_eq!(x, y, "{name}: triangle order");
            }
            assert_eq!(a.centre, b.centre, "{name}: centre");
            assert_eq!(a.island, b.island, "{name}: island of a triangle");
        }
        assert!(
            errors(&out).is_empty(),
            "{name}: the re-baked file does not validate: {:?}",
            errors(&out)
        );
    }
    let share = equal as f64 / total.max(1) as f64;
    println!(
        "corpus: tile next hops {equal}/{total} = {:.4}%",
        100.0 * share
    );
    assert!(
        share >= 0.999,
        "only {:.4}% of the next hops match",
        100.0 * share
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn official_files_validate_without_errors() {
    let files = common::corpus_files();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let found = errors(&bytes);
        assert!(found.is_empty(), "{}: {found:?}", path.display());
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn each_trn_bakes_into_a_clean_trx() {
    let files = common::corpus_files();
    let trns: Vec<_> = files.iter().filter(|p| !common::is_trx(p)).collect();
    assert_eq!(trns.len(), 6);
    for trn in trns {
        let bytes = std::fs::read(trn).unwrap();
        let out = write(
            &read(&bytes),
            &WriteOptions {
                file_name: Some("baked.trx".into()),
                ..WriteOptions::default()
            },
        );
        let found = errors(&out);
        assert!(found.is_empty(), "{}: {found:?}", trn.display());
        let baked = aswm(&out);
        assert_eq!(baked.tiles_flags, 31);
        assert!(baked.triangles.iter().all(|t| t.flags & 0x04 != 0));
        // Compare with the official TRX of the same area.
        let stem = trn.file_stem().unwrap().to_string_lossy().to_lowercase();
        let official = files
            .iter()
            .find(|p| {
                common::is_trx(p) && p.file_stem().unwrap().to_string_lossy().to_lowercase() == stem
            })
            .unwrap();
        let o = aswm(&std::fs::read(official).unwrap());
        let walk = |a: &Aswm| a.triangles.iter().filter(|t| t.flags & 1 != 0).count();
        println!(
            "{stem}: baked from TRN {} triangles ({} walkable), {} islands; official TRX {} ({} walkable), {} islands",
            baked.triangles.len(),
            walk(&baked),
            baked.islands.len(),
            o.triangles.len(),
            walk(&o),
            o.islands.len()
        );
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn dump_shows_fields_at_their_offsets() {
    let path = common::corpus_file("abandoned house.trx");
    let bytes = std::fs::read(path).unwrap();
    let tree = TrxFormat
        .dump(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap();
    let find =
        |node: &walkmesh_core::dump::DumpNode, path: &[&str]| -> walkmesh_core::dump::DumpNode {
            let mut cur = node.clone();
            for part in path {
                cur = cur
                    .children
                    .iter()
                    .find(|c| c.name.starts_with(part))
                    .unwrap()
                    .clone();
            }
            cur
        };
    // Packet directory: TRWH then ASWM, contiguous after the 12 + 16 byte header.
    let dir1 = find(&tree, &["directory", "directory[1]", "offset"]);
    assert_eq!(dir1.offset, Some(24));
    assert_eq!(
        dir1.value,
        Some(walkmesh_core::dump::DumpValue::UInt(28 + 8 + 12))
    );
    // Inside the body: 356 triangles after a 53-byte header, 231 vertices, 591 edges.
    let flags = find(
        &tree,
        &["packets[1]", "body", "triangles", "triangles[5]", "flags"],
    );
    assert_eq!(flags.offset, Some(53 + 12 * 231 + 16 * 591 + 64 * 5 + 62));
    let a = aswm(&bytes);
    assert_eq!(
        flags.value,
        Some(walkmesh_core::dump::DumpValue::UInt(u64::from(
            a.triangles[5].flags
        )))
    );
    let border = find(&tree, &["packets[1]", "body", "border"]);
    assert_eq!(border.value, Some(walkmesh_core::dump::DumpValue::UInt(0)));
    // Every file dumps.
    for path in &common::corpus_files() {
        let bytes = std::fs::read(path).unwrap();
        assert!(
            TrxFormat
                .dump(
                    Input {
                        bytes: &bytes,
                        path: None
                    },
                    &ReadOptions::default()
                )
                .is_ok()
        );
    }
}

/// The writer deflates the body in chunks, some while the bake is still running and the rest
/// on every core; at every level the stream must inflate (by flate2 alone) to the same body.
/// `dm_dungeon.trx` has a 5 MB body, so it spans many chunks; `dm001_cargohold.trx` is small.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_compression_level_inflates_to_the_same_body() {
    let files = common::corpus_files();
    for name in ["dm_dungeon.trx", "dm001_cargohold.trx"] {
        let Some(path) = files.iter().find(|p| common::name(p) == name) else {
            continue;
        };
        let mesh = read(&std::fs::read(path).unwrap());
        let mut bodies: Vec<Vec<u8>> = Vec::new();
        for level in [0u32, 1, 3, 6, 9] {
            let mut options = WriteOptions {
                rebuild: true,
                file_name: Some("out.trx".into()),
                ..WriteOptions::default()
            };
            options
                .params
                .insert("nwn2:zlib_level".into(), level.to_string());
            let out = write(&mesh, &options);
            let container = walkmesh_nwn2::container::parse(&out).unwrap();
            let packet = container
                .packets
                .iter()
                .find(|p| &p.fourcc == b"ASWM")
                .unwrap();
            // Inflated by flate2 alone (which checks the Adler-32), not by our reader.
            let stream = packet.payload.get(12..).unwrap();
            let mut body = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(stream), &mut body)
                .unwrap();
            bodies.push(body);
            assert!(
                bodies.iter().all(|b| b == &bodies[0]),
                "{name} at level {level}: the inflated body differs from level 0's"
            );
        }
    }
}

/// The combined check (`Validator::validate_and_read`, one inflate) gives exactly what the
/// validator and the reader give on their own: on every real file, with and without the
/// derived-table checks, and on a file cut short (the same error for both).
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn validate_and_read_equals_validate_then_read() {
    use walkmesh_core::Validator;
    let files = common::corpus_files();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        for recompute_derived in [true, false] {
            let options = ReadOptions {
                recompute_derived,
                keep_provenance: recompute_derived,
                ..ReadOptions::default()
            };
            let input = Input {
                bytes: &bytes,
                path: None,
            };
            let mut alone_diag = Diagnostics::new();
            let alone = (
                TrxFormat.validate(input, &options),
                walkmesh_nwn2::read_trx(input, &options, &mut alone_diag),
            );
            let mut both_diag = Diagnostics::new();
            let both = TrxFormat
                .validate_and_read(input, &options, &mut both_diag)
                .expect("TRX offers the combined check");
            assert_eq!(both.0, alone.0, "{}: findings", path.display());
            let (a, b) = (alone.1.as_ref().unwrap(), both.1.as_ref().unwrap());
            assert!(a == b, "{}: the meshes differ", path.display());
            assert_eq!(alone_diag.items, both_diag.items, "{}", path.display());
        }
        let cut = &bytes[..bytes.len() / 2];
        let input = Input {
            bytes: cut,
            path: None,
        };
        let options = ReadOptions::default();
        let (validated, read) = TrxFormat
            .validate_and_read(input, &options, &mut Diagnostics::new())
            .unwrap();
        let alone = TrxFormat.validate(input, &options).unwrap_err();
        assert_eq!(validated.unwrap_err(), alone, "{}", path.display());
        assert_eq!(
            read.unwrap_err(),
            walkmesh_nwn2::read_trx(input, &options, &mut Diagnostics::new()).unwrap_err()
        );
    }
}
