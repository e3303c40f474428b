//! Every shared corpus walkmesh, linted: no panic, within a minute in total, and the findings
//! per corpus printed as the table in docs/lint.md (`cargo test --release -p walkmesh-lint
//! --test corpus -- --nocapture`). A few findings reviewed by hand are asserted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use walkmesh_core::{Diagnostics, Input, ReadOptions};
use walkmesh_lint::{Engine, Finding, LintOptions, lint};

const EXTENSIONS: [&str; 7] = ["wok", "pwk", "dwk", "bwm", "trx", "trn", "path"];

fn lint_file(path: &Path) -> Vec<Finding> {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let mesh = format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = LintOptions {
        engine: Engine::of_format(format.id()),
        ..LintOptions::default()
    };
    lint(&walkmesh_lint::as_linted(&mesh), &options, None)
}

fn corpora() -> std::path::PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_walkmesh_lints_within_a_minute() {
    let root = corpora();
    let files = walkmesh_core::testing::files_with_extensions(&root, &EXTENSIONS);
    assert!(files.len() >= 100, "only {} corpus walkmeshes", files.len());
    let started = Instant::now();
    // corpus (first folder) → code → (findings, files with it); and files per corpus.
    let mut table: BTreeMap<String, BTreeMap<String, (usize, usize)>> = BTreeMap::new();
    let mut files_per: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for file in &files {
        let corpus = file
            .strip_prefix(&root)
            .unwrap()
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .into_owned();
        let findings = lint_file(file);
        let entry = files_per.entry(corpus.clone()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(findings.is_empty());
        let mut codes: BTreeMap<String, usize> = BTreeMap::new();
        for finding in &findings {
            assert!(finding.at.is_some_and(|p| p.iter().all(|c| c.is_finite())));
            *codes.entry(finding.code.clone()).or_default() += 1;
        }
        for (code, count) in codes {
            let cell = table
                .entry(corpus.clone())
                .or_default()
                .entry(code)
                .or_default();
            cell.0 += count;
            cell.1 += 1;
        }
    }
    let elapsed = started.elapsed();
    println!("{} files in {:.2} s", files.len(), elapsed.as_secs_f64());
    for (corpus, (count, clean)) in &files_per {
        println!("{corpus}: {count} files, {clean} clean");
        for (code, (findings, with)) in table.get(corpus).into_iter().flatten() {
            println!("  {code}: {findings} in {with} file(s)");
        }
    }
    // Issue 27: every shared corpus file within a minute in total (loose: shared machine).
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}

/// Findings reviewed by hand (docs/lint.md, "Samples").
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn hand_reviewed_samples() {
    let root = corpora();
    let faces = |file: &str, code: &str| -> Vec<Vec<u32>> {
        lint_file(&root.join(file))
            .into_iter()
            .filter(|f| f.code == code)
            .map(|f| f.faces)
            .collect()
    };
    // K1CP m12aa_01f: two 0.6 mm-wide walkable slivers standing upright beside each other.
    assert_eq!(
        faces(
            "kotor/k1cp/tslpatchdata/m12aa_01f.wok",
            walkmesh_lint::DEGENERATE
        ),
        vec![vec![29], vec![30]]
    );
    // Black Vulkar kit room_1: two pairs of upright walkable faces, each pair an island.
    let room = "kotor/pykotor-kits/blackvulkar/room_1.wok";
    assert_eq!(
        faces(room, walkmesh_lint::STEEP_WALKABLE),
        vec![vec![53], vec![54], vec![55], vec![56]]
    );
    assert_eq!(
        faces(room, walkmesh_lint::ISLAND),
        vec![vec![53, 54], vec![55, 56]]
    );
    // NWN2 "abandoned house": one flat needle walkable triangle that faces down.
    assert_eq!(
        faces(
            "nwn2/Kaedrin-nwn2cc/abandoned house.trx",
            walkmesh_lint::DEGENERATE
        ),
        vec![vec![195]]
    );
}
