#![cfg(all(
    feature = "obj",
    feature = "bwm",
    feature = "nwn2",
    feature = "prime",
    feature = "gltf",
    feature = "mdl"
))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every entry point a user reaches — detection, reading, `info`'s passes, the format
//! validator, the generic mesh checks and the field dump — on mutated copies of every file we
//! have: no panic, ever. (Each format crate also checks its reader's error positions.)

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use walkmesh_core::testing::files_with_extensions;
use walkmesh_core::{Diagnostics, Input, ReadOptions, summary, validate};
use walkmesh_tests::{Rng, fixtures_dir, required_corpora};

const EXTENSIONS: &[&str] = &[
    "wok", "pwk", "dwk", "bwm", "trx", "trn", "path", "obj", "gltf", "glb", "mdl",
];

/// Runs every entry point; returns whether the mutated file still read.
fn exercise(registry: &walkmesh_core::Registry, name: &Path, bytes: &[u8], dump: bool) -> bool {
    let Ok(format) = registry.detect(name, bytes, bytes.len() as u64) else {
        return false;
    };
    let input = Input { bytes, path: None };
    let options = ReadOptions {
        max_decompressed: 64 * 1024 * 1024,
        ..ReadOptions::default()
    };
    if let Some(validator) = format.validator() {
        let _ = validator.validate(input, &options);
    }
    if dump && let Some(dumper) = format.dumper() {
        let _ = dumper.dump(input, &options);
        // The flat dump renders every field (hex, characters, notes) and a section alone.
        let mut flat = walkmesh_core::flatdump::FlatWriter::new(std::io::sink());
        let _ = dumper.dump_fields(input, &options, &mut flat);
        let mut flat = walkmesh_core::flatdump::FlatWriter::new(std::io::sink());
        let mut one = walkmesh_core::flatdump::SectionFilter::new(&mut flat, "aswm.tiles");
        let _ = dumper.dump_fields(input, &options, &mut one);
    }
    if let Some(reader) = format.reader() {
        let mut diag = Diagnostics::new();
        if let Ok(mesh) = reader.read(input, &options, &mut diag) {
            mesh.check().unwrap();
            let _ = summary::summarize(&mesh, format.descriptor().id);
            let _ = validate::mesh_findings(&mesh);
            return true;
        }
    }
    false
}

#[test]
fn mutated_files_never_panic_anywhere() {
    // Only the project's six fixtures: they get many rounds each, so the campaign is large
    // enough to mean something.
    mutate_without_panic(&files_with_extensions(&fixtures_dir(), EXTENSIONS), 250);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn mutated_corpus_files_never_panic_anywhere() {
    mutate_without_panic(&files_with_extensions(&required_corpora(), EXTENSIONS), 40);
}

/// A model with no walkmesh node (a placeable's, `kotor-placeables/`) is no walkmesh for the
/// registry's reader, which says so; it still reads as render geometry, with its `.mdx`.
fn reads_as_render_model(registry: &walkmesh_core::Registry, path: &std::path::Path) -> bool {
    let mut diag = walkmesh_core::Diagnostics::new();
    matches!(
        walkmesh_formats::read_render_geometry(registry, path, &mut diag),
        Some(Ok(mesh)) if !mesh.polygons.is_empty()
    )
}

/// Truncations, bit flips, large counts and cut-out runs of `files` (`rounds_per_file`
/// each, fewer for large files) go through every reader, validator and dumper: no panic.
fn mutate_without_panic(files: &[PathBuf], rounds_per_file: usize) {
    let registry = walkmesh_formats::default_registry();
    // Unmutated, every file reads: the harness itself works.
    for path in files {
        let original = std::fs::read(path).unwrap();
        assert!(
            exercise(&registry, path, &original, false) || reads_as_render_model(&registry, path),
            "{} does not read",
            path.display()
        );
    }
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let (mut runs, mut still_read) = (0usize, 0usize);
    for path in files {
        let original = std::fs::read(path).unwrap();
        // Dumps of the large files are slow to build; they get fewer rounds.
        let rounds = if original.len() > 200_000 {
            6
        } else {
            rounds_per_file
        };
        for round in 0..rounds {
            let mut bytes = original.clone();
            match round % 4 {
                0 => bytes.truncate(rng.below(bytes.len())),
                1 => {
                    for _ in 0..1 + rng.below(16) {
                        let at = rng.below(bytes.len());
                        if let Some(byte) = bytes.get_mut(at) {
                            *byte ^= 1 << rng.below(8);
                        }
                    }
                }
                2 => {
                    // A plausible-looking count: an aligned word set to a large value.
                    let at = rng.below(bytes.len() / 4) * 4;
                    if let Some(word) = bytes.get_mut(at..at + 4) {
                        word.copy_from_slice(
                            &(0x7fff_0000u32 | rng.below(0xffff) as u32).to_le_bytes(),
                        );
                    }
                }
                _ => {
                    let at = rng.below(bytes.len());
                    let end = (at + 1 + rng.below(64)).min(bytes.len());
                    bytes.drain(at..end);
                }
            }
            let result = catch_unwind(AssertUnwindSafe(|| {
                exercise(&registry, path, &bytes, original.len() < 2_000_000)
            }));
            match result {
                Ok(read) => still_read += usize::from(read),
                Err(_) => panic!("panic on a mutation (round {round}) of {}", path.display()),
            }
            runs += 1;
        }
    }
    // Both outcomes must be common, or the mutations exercise nothing.
    println!("{runs} mutated files, {still_read} still read");
    assert!(
        runs > 1000 && still_read > runs / 10 && still_read < runs * 9 / 10,
        "{runs} runs, {still_read} read"
    );
}
