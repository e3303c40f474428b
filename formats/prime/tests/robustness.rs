//! Truncations, byte flips and absurd counts: errors, never panics, bounded memory.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

mod common;

use std::path::Path;

use common::{Rng, grid};
use walkmesh_core::format::Dumper;
use walkmesh_core::testing::required_corpora_dir;
use walkmesh_core::{Diagnostics, Format, Input, ReadOptions, WriteOptions};
use walkmesh_prime::model::NO_CHILD;
use walkmesh_prime::{PathFile, PathFormat};

/// A cooked file with several regions, links and a branching octree.
fn cooked_sample() -> Vec<u8> {
    let mut mesh = grid(
        6,
        6,
        5.0,
        [0.0, 0.0],
        |_, _| 0.0,
        |i, j| (i + j) % 5 != 0,
        true,
    );
    let heights: Vec<f32> = (0..mesh.polygons.len())
        .map(|p| 1.0 + (p % 3) as f32)
        .collect();
    mesh.face_attributes.insert(
        "path:height".into(),
        walkmesh_core::Attribute::Float(heights),
    );
    let (file, _) =
        walkmesh_prime::cook::cook(&mesh, &WriteOptions::default(), &mut Diagnostics::new())
            .unwrap();
    file.encode()
}

/// Files made here: a cooked MP1 file and a cooked MP2 (version 6) file.
fn generated_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![("cooked".to_string(), cooked_sample())];
    let mut mp2 = WriteOptions::default();
    mp2.params.insert("prime:version".into(), "6".into());
    let mesh = grid(3, 3, 5.0, [0.0, 0.0], |_, _| 0.0, |_, _| true, false);
    let (file, _) = walkmesh_prime::cook::cook(&mesh, &mp2, &mut Diagnostics::new()).unwrap();
    out.push(("mp2".to_string(), file.encode()));
    out
}

/// The synthetic MP1 file of the shared corpora.
fn corpus_samples() -> Vec<(String, Vec<u8>)> {
    let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let path = dir.join("prime/synthetic/grid_mp1_v4.path");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    vec![("fixture".to_string(), bytes)]
}

/// Runs everything that takes file bytes; must not panic.
fn exercise(bytes: &[u8]) -> bool {
    let input = Input { bytes, path: None };
    let options = ReadOptions::default();
    let read = PathFormat
        .reader()
        .unwrap()
        .read(input, &options, &mut Diagnostics::new());
    let _ = PathFormat.validator().unwrap().validate(input, &options);
    let _ = walkmesh_prime::dump::PathDumper.dump(input, &options);
    let _ = PathFormat.sniff(bytes, bytes.len() as u64);
    if let Ok(file) = PathFile::parse(bytes) {
        for point in [[5.0, 5.0, 0.5], [0.0; 3], [1e30, -1e30, f32::NAN]] {
            let _ = file.regions_at(point);
        }
    }
    if let Ok(mesh) = &read {
        assert!(mesh.check().is_ok());
        let writer = PathFormat.writer().unwrap();
        let _ = writer.write(mesh, &WriteOptions::default(), &mut Diagnostics::new());
        let rebuild = WriteOptions {
            rebuild: true,
            ..WriteOptions::default()
        };
        let _ = writer.write(mesh, &rebuild, &mut Diagnostics::new());
    }
    read.is_ok()
}

fn check_truncations(samples: Vec<(String, Vec<u8>)>) {
    for (name, bytes) in samples {
        let full = PathFile::parse(&bytes).unwrap();
        let sections_end = full.layout.trailing as usize;
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            let parsed = PathFile::parse(cut);
            if len < sections_end {
                let error = parsed.expect_err(&format!("{name} cut at {len} parsed"));
                assert!(
                    matches!(error.position, walkmesh_core::Position::Offset(_)),
                    "{error}"
                );
                assert!(!error.field.is_empty());
            } else {
                // Only padding is missing.
                assert!(parsed.is_ok(), "{name} cut at {len}");
            }
            exercise(cut);
        }
    }
}

fn check_byte_flips(samples: Vec<(String, Vec<u8>)>) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut read_ok = 0usize;
    let mut total = 0usize;
    for (_, bytes) in samples {
        for _ in 0..1500 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + rng.below(6) {
                let at = rng.below(damaged.len());
                damaged[at] = match rng.below(4) {
                    0 => 0xFF,
                    1 => 0,
                    _ => rng.next() as u8,
                };
            }
            total += 1;
            if exercise(&damaged) {
                read_ok += 1;
            }
        }
    }
    // Flips in floats leave the file readable; flips in counts do not. Both must occur.
    assert!(
        read_ok > 0 && read_ok < total,
        "{read_ok} of {total} readable"
    );
}

#[test]
fn every_truncation_is_an_error_naming_an_offset() {
    check_truncations(generated_samples());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_truncation_of_the_corpus_file_is_an_error_naming_an_offset() {
    check_truncations(corpus_samples());
}

#[test]
fn random_byte_flips_never_panic() {
    check_byte_flips(generated_samples());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn random_byte_flips_of_the_corpus_file_never_panic() {
    check_byte_flips(corpus_samples());
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let bytes = cooked_sample();
    let file = PathFile::parse(&bytes).unwrap();
    let l = file.layout;
    for (offset, field) in [
        (4u64, "header.node_count"),
        (l.links - 4, "links.count"),
        (l.regions - 4, "regions.count"),
        (l.lookup - 4, "octree_lookup.count"),
        (l.octree - 4, "octree.count"),
    ] {
        for count in [u32::MAX, 0x8000_0000, 0x0100_0000] {
            let mut damaged = bytes.clone();
            damaged[offset as usize..offset as usize + 4].copy_from_slice(&count.to_be_bytes());
            let error = PathFile::parse(&damaged).unwrap_err();
            assert_eq!(error.field, field, "{error}");
            assert!(error.message.contains("remain"), "{error}");
            assert!(!exercise(&damaged));
        }
    }
    // A region count that fits the regions but leaves no room for the bit tables.
    let mut damaged = bytes.clone();
    let at = (l.regions - 4) as usize;
    let regions = u32::from_be_bytes(damaged[at..at + 4].try_into().unwrap());
    damaged[at..at + 4].copy_from_slice(&(regions + 1).to_be_bytes());
    assert!(PathFile::parse(&damaged).is_err());
}

#[test]
fn hostile_octrees_end_without_panic() {
    let bytes = cooked_sample();
    let file = PathFile::parse(&bytes).unwrap();
    assert!(file.octree.len() > 1);
    let root = file.octree.len() - 1;
    let mut cyclic = file.clone();
    // The root points at itself and at a leaf that is turned into a branch pointing back.
    cyclic.octree[root].children = [root as u32; 8];
    let codes: Vec<String> = walkmesh_prime::validate::findings(&cyclic)
        .into_iter()
        .map(|d| d.code)
        .collect();
    assert!(codes.contains(&"path.octree_child_order".to_string()));
    assert!(cyclic.regions_at([1.0, 1.0, 0.5]).is_empty());
    let mut loop_pair = file.clone();
    loop_pair.octree[0].is_leaf = 0;
    loop_pair.octree[0].children = [root as u32; 8];
    loop_pair.octree[root].children = [0; 8];
    let _ = walkmesh_prime::validate::findings(&loop_pair);
    assert!(loop_pair.regions_at([1.0, 1.0, 0.5]).is_empty());
    let mut missing = file.clone();
    missing.octree[root].children[0] = NO_CHILD;
    assert!(missing.regions_at(missing.octree[root].aabb_min).is_empty());
    // Leaf ranges past the lookup table.
    let mut ranges = file;
    ranges.octree[0].region_start = u32::MAX;
    ranges.octree[0].region_count = u32::MAX;
    let codes: Vec<String> = walkmesh_prime::validate::findings(&ranges)
        .into_iter()
        .map(|d| d.code)
        .collect();
    assert!(codes.contains(&"path.octree_leaf_range_invalid".to_string()));
    assert!(exercise(&ranges.encode()));
}
