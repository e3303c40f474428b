#![cfg(all(
    feature = "obj",
    feature = "bwm",
    feature = "nwn2",
    feature = "prime",
    feature = "gltf"
))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh dump --format json|ron` streams its tree (issue 36). Its text must stay byte for
//! byte what serialising the `DumpNode` tree gives: checked here on corpus files of every
//! format with a field dump, whole and by section (one part, several parts wrapped in a
//! group `dump`), against `TreeSink` + `serde_json::to_string_pretty` / `ron` pretty.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use walkmesh_core::dump::{DumpNode, TreeSink};
use walkmesh_core::flatdump::SectionFilter;
use walkmesh_core::{Input, ReadOptions};
use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

/// The tree `dump` used to build and serialise, for `path` (one section of it if given).
fn tree(path: &Path, section: Option<&str>) -> DumpNode {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry
        .detect(path, &bytes, bytes.len() as u64)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let dumper = format.dumper().expect("a format with a field dump");
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    let mut sink = TreeSink::new();
    match section {
        None => dumper
            .dump_fields(input, &ReadOptions::default(), &mut sink)
            .unwrap(),
        Some(name) => {
            let mut filter = SectionFilter::new(&mut sink, name);
            dumper
                .dump_fields(input, &ReadOptions::default(), &mut filter)
                .unwrap();
            assert!(filter.matched(), "{}: no section {name}", path.display());
        }
    }
    sink.finish()
}

/// Compares the streamed `dump` with the serialised tree in both syntaxes.
fn check(path: &Path, section: Option<&str>) {
    let expected_tree = tree(path, section);
    let expected_json = serde_json::to_string_pretty(&expected_tree).unwrap() + "\n";
    let expected_ron =
        ron::ser::to_string_pretty(&expected_tree, ron::ser::PrettyConfig::default()).unwrap()
            + "\n";
    for (syntax, expected) in [("json", &expected_json), ("ron", &expected_ron)] {
        let mut args: Vec<OsString> =
            vec!["dump".into(), path.into(), "--format".into(), syntax.into()];
        if let Some(name) = section {
            args.extend(["--section".into(), name.into()]);
        }
        let run = walkmesh(args);
        assert_eq!(run.code, 0, "{}: {}", path.display(), run.stderr);
        if run.stdout != *expected {
            let at = run
                .stdout
                .bytes()
                .zip(expected.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(run.stdout.len().min(expected.len()));
            let from = at.saturating_sub(200);
            panic!(
                "{} {syntax} {section:?}: streamed text differs from the tree at byte {at} \
                 (lengths {} / {}):\nstreamed: {:?}\ntree:     {:?}",
                path.display(),
                run.stdout.len(),
                expected.len(),
                run.stdout.get(from..(at + 200).min(run.stdout.len())),
                expected.get(from..(at + 200).min(expected.len())),
            );
        }
    }
}

/// The `count` smallest files under `dir` whose extension is `ext` (any case).
fn smallest(dir: &Path, ext: &str, count: usize) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
            {
                files.push((std::fs::metadata(&path).unwrap().len(), path));
            }
        }
    }
    files.sort();
    files.into_iter().take(count).map(|(_, p)| p).collect()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn streamed_kotor_dumps_match_the_tree() {
    let corpora = required_corpora();
    let files: Vec<PathBuf> = ["wok", "pwk", "bwm"]
        .iter()
        .flat_map(|ext| smallest(&corpora.join("kotor"), ext, 3))
        .collect();
    assert!(files.len() >= 5, "{files:?}");
    for file in &files {
        check(file, None);
    }
    check(&files[0], Some("vertices"));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn streamed_nwn2_dumps_match_the_tree() {
    let corpora = required_corpora().join("nwn2");
    let mut files = smallest(&corpora, "trx", 3);
    files.extend(smallest(&corpora, "trn", 2));
    assert_eq!(files.len(), 5, "{files:?}");
    for file in &files {
        check(file, None);
    }
    // Sections of one part (no corpus file has a section of several parts, which the tree
    // wraps in a group `dump`: the unit tests of `tree_stream` cover that).
    check(&files[0], Some("aswm.triangles"));
    check(&files[3], Some("aswm.tiles"));
    check(&files[4], Some("header"));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn streamed_prime_dumps_match_the_tree() {
    let files = smallest(&required_corpora().join("prime"), "path", 3);
    assert!(!files.is_empty());
    for file in &files {
        check(file, None);
    }
    check(&files[0], Some("regions"));
}

#[test]
fn streamed_gltf_dumps_match_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["two_rooms", "room_with_hole"] {
        let source = fixtures_dir().join(format!("obj/{name}.obj"));
        for ext in ["glb", "gltf"] {
            let target = dir.path().join(format!("{name}.{ext}"));
            let run = walkmesh([
                OsString::from("convert"),
                source.clone().into(),
                target.clone().into(),
            ]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            check(&target, None);
        }
        check(&dir.path().join(format!("{name}.glb")), Some("json"));
    }
}

#[test]
fn streamed_dump_of_a_converted_wok_matches_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures_dir().join("obj/two_rooms.obj");
    let target = dir.path().join("two_rooms.wok");
    let run = walkmesh([
        OsString::from("convert"),
        source.into(),
        target.clone().into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check(&target, None);
    check(&target, Some("adjacency"));
}

#[test]
fn an_unknown_section_still_fails_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures_dir().join("obj/two_rooms.obj");
    let target = dir.path().join("two_rooms.wok");
    let run = walkmesh([
        OsString::from("convert"),
        source.into(),
        target.clone().into(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = walkmesh([
        OsString::from("dump"),
        target.into(),
        "--format".into(),
        "json".into(),
        "--section".into(),
        "nonesuch".into(),
    ]);
    assert_ne!(run.code, 0);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains("no section 'nonesuch'"),
        "{}",
        run.stderr
    );
}
