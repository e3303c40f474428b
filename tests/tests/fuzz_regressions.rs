#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Inputs found by fuzzing (and hand-made hostile inputs) kept as ordinary tests: every file
//! in `corpora/fuzz/<format id>/` goes through the fuzz harness (`tests/src/exercise.rs`:
//! validator, dumper, reader, and read → write → read into every format), on stable Rust.
//! The fixtures go through it too, so the harness itself is tested without the fuzzer.

use std::time::Instant;

use walkmesh_tests::exercise::exercise;
use walkmesh_tests::fixtures_dir;

#[test]
fn fuzz_regression_inputs_and_fixtures_go_through_the_harness() {
    let registry = walkmesh_formats::default_registry();
    let mut ran = 0;
    for id in ["bwm", "trx", "path", "obj", "gltf"] {
        let dir = fixtures_dir().join("fuzz").join(id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for file in files.iter().filter(|f| f.is_file()) {
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
    let shared = walkmesh_tests::shared_corpora();
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
