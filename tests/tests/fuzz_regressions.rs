#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Inputs found by fuzzing (and hand-made hostile inputs) kept as ordinary tests: every file
//! in `corpora/fuzz/<format id>/` goes through the fuzz harness (`tests/src/exercise.rs`:
//! validator, dumper, reader, and read → write → read into every format), on stable Rust.
//! The fixtures go through it too, so the harness itself is tested without the fuzzer.

use std::time::Instant;

use walkmesh_tests::exercise::exercise;
use walkmesh_tests::exercise_area::{AREA_TARGETS, exercise_area};
use walkmesh_tests::exercise_model::exercise_model;
use walkmesh_tests::fixtures_dir;

/// The files of `corpora/fuzz/<target>/`, sorted.
fn regression_inputs(target: &str) -> Vec<std::path::PathBuf> {
    let dir = fixtures_dir().join("fuzz").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.is_file());
    files.sort();
    files
}

#[test]
fn fuzz_regression_inputs_and_fixtures_go_through_the_harness() {
    let registry = walkmesh_formats::default_registry();
    let mut ran = 0;
    for id in ["bwm", "trx", "path", "obj", "gltf"] {
        for file in &regression_inputs(id) {
            let bytes = std::fs::read(file).unwrap();
            let started = Instant::now();
            exercise(&registry, id, &bytes);
            let elapsed = started.elapsed();
            assert!(
                elapsed.as_secs_f64() < 10.0,
                "{}: {elapsed:?} (the fuzz limit is 2 s on an idle machine)",
                file.display()
            );
            ran += 1;
        }
    }
    for fixture in walkmesh_core::testing::files_with_extensions(&fixtures_dir(), &["obj"]) {
        exercise(&registry, "obj", &std::fs::read(&fixture).unwrap());
        ran += 1;
    }
    assert!(ran > 0);
}

/// The model reader's harness over the inputs kept in `corpora/fuzz/mdl/` and over the seeds
/// written for it (hand-built models, each cut short at every byte).
#[test]
fn model_fuzz_inputs_and_seeds_go_through_the_harness() {
    let registry = walkmesh_formats::default_registry();
    for file in &regression_inputs("mdl") {
        let started = Instant::now();
        exercise_model(&registry, &std::fs::read(file).unwrap());
        assert!(started.elapsed().as_secs_f64() < 10.0, "{}", file.display());
    }
    let dir = std::env::temp_dir().join(format!("walkmesh-mdl-seeds-{}", std::process::id()));
    walkmesh_tests::seeds::write_model_seeds(&dir, None);
    let mut seeds: Vec<_> = std::fs::read_dir(dir.join("mdl"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    seeds.sort();
    assert_eq!(seeds.len(), 4, "{seeds:?}");
    for seed in &seeds {
        let bytes = std::fs::read(seed).unwrap();
        for len in 0..=bytes.len() {
            exercise_model(&registry, &bytes[..len]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The KotOR area readers' harness over the inputs kept in `corpora/fuzz/<target>/` and over
/// hand-made inputs of every area target: valid files, each cut short at every byte.
#[test]
#[cfg(feature = "nwn2")]
fn area_fuzz_inputs_go_through_the_harness() {
    let mut ran = 0;
    for target in AREA_TARGETS {
        for file in &regression_inputs(target) {
            let started = Instant::now();
            exercise_area(target, &std::fs::read(file).unwrap());
            assert!(started.elapsed().as_secs_f64() < 10.0, "{}", file.display());
            ran += 1;
        }
    }
    let seeds = std::env::temp_dir().join(format!("walkmesh-area-seeds-{}", std::process::id()));
    walkmesh_tests::seeds::write_seeds(&walkmesh_tests::repo_root(), &seeds, None);
    for target in AREA_TARGETS {
        let mut own: Vec<_> = std::fs::read_dir(seeds.join(target))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        own.sort();
        assert!(!own.is_empty(), "no seeds of our own for {target}");
        for seed in own {
            let bytes = std::fs::read(&seed).unwrap();
            assert!(reads(target, &bytes), "{} does not read", seed.display());
            for cut in 0..=bytes.len() {
                exercise_area(target, &bytes[..cut]);
                ran += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&seeds);
    assert!(ran > 100, "{ran}");
}

/// Whether the reader of area target `target` accepts `bytes` (the seeds must be valid).
fn reads(target: &str, bytes: &[u8]) -> bool {
    use walkmesh_kotor_area::kits::{IndoorMap, Kit};
    match target {
        "erf" => walkmesh_kotor_area::Archive::parse(bytes).is_ok(),
        "lyt" => walkmesh_kotor_area::read_lyt(bytes).is_ok_and(|(l, _)| !l.rooms.is_empty()),
        "vis" => walkmesh_kotor_area::read_vis(bytes).is_ok_and(|(v, _)| !v.rooms.is_empty()),
        "kit" => Kit::parse(bytes).is_ok_and(|k| !k.components.is_empty()),
        "indoor" => IndoorMap::parse(bytes).is_ok_and(|m| !m.rooms.is_empty()),
        _ => false,
    }
}

/// Writes the fuzz seed corpora into `$WALKMESH_FUZZ_SEEDS` (used by `.ci/peers/fuzz.sh`);
/// without it, writes them into a temporary folder and checks that every target got seeds.
#[test]
#[cfg(feature = "nwn2")]
fn write_fuzz_seeds() {
    let (out, keep) = match std::env::var_os("WALKMESH_FUZZ_SEEDS") {
        Some(dir) => (std::path::PathBuf::from(dir), true),
        None => (
            std::env::temp_dir().join(format!("walkmesh-fuzz-seeds-{}", std::process::id())),
            false,
        ),
    };
    // With the corpora present the seeds must include them (the test is not ignored then).
    let shared = cfg!(walkmesh_corpora).then(walkmesh_tests::required_corpora);
    let counts =
        walkmesh_tests::seeds::write_seeds(&walkmesh_tests::repo_root(), &out, shared.as_deref());
    for (id, count) in &counts {
        println!("{id}: {count} seeds");
        assert!(*count > 0, "no seeds for {id}");
    }
    // Every TRX seed also exists with its walkmesh packet uncompressed.
    let raw = std::fs::read_dir(out.join("trx"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("_raw"))
        .count();
    assert!(raw > 0);
    if !keep {
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// Found by `cargo fuzz run gltf` (4.6 s for one input): 24 triangles at coordinates of
/// 2e9 that overlap seen from every side. The PATH octree rule (split any cell that 16 or
/// more regions overlap, down to level 10) made 10 MB of octree; the cook now refuses it.
#[test]
#[cfg(all(feature = "gltf", feature = "prime"))]
fn overlapping_regions_refuse_the_path_octree_instead_of_exploding() {
    use walkmesh_core::{Diagnostics, Input, ReadOptions, WriteOptions, passes};
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(
        fixtures_dir()
            .join("fuzz")
            .join("gltf")
            .join("octree_of_overlapping_regions.input"),
    )
    .unwrap();
    let mesh = registry
        .by_id("gltf")
        .unwrap()
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap();
    let writer = registry.by_id("path").unwrap().writer().unwrap();
    let options = WriteOptions::default();
    let prepared = passes::prepare(
        &mesh,
        &writer.requirements(&options),
        &mut Diagnostics::new(),
    );
    let started = Instant::now();
    let error = writer
        .write(&prepared, &options, &mut Diagnostics::new())
        .unwrap_err();
    assert_eq!(error.field, "octree", "{error}");
    assert!(error.message.contains("overlap"), "{error}");
    assert!(started.elapsed().as_secs_f64() < 2.0);
}
