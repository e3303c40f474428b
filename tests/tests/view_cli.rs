#![cfg(all(feature = "bwm", feature = "nwn2", feature = "prime", feature = "obj"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh view` (issue #28): the page of every corpus walkmesh is written, holds as many
//! faces as `walkmesh info` counts and refers to nothing outside itself; bad requests are
//! refused. The page in a browser is checked by `.ci/peers/view.sh`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use walkmesh_core::testing::files_with_extensions;
use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("walkmesh-view-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON document inlined in a page, unpacked as the page does (base64, then gzip).
fn page_data(page: &str) -> Value {
    walkmesh_view::unpack::page_data(page).unwrap()
}

fn info_faces(file: &Path) -> u64 {
    let run = walkmesh(["info".as_ref(), "--json".as_ref(), file.as_os_str()]);
    assert_eq!(run.code, 0, "info {}", file.display());
    let info: Value = serde_json::from_str(&run.stdout).unwrap();
    info["faces"].as_u64().unwrap()
}

fn view(files: &[&Path], out: &Path) -> walkmesh_tests::CliRun {
    let mut args: Vec<&std::ffi::OsStr> = vec!["view".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    args.extend(["-o".as_ref(), out.as_os_str()]);
    walkmesh(args)
}

#[test]
fn a_fixture_page_is_written_with_its_faces_and_nothing_outside_it() {
    let dir = temp_dir("fixture");
    let file = fixtures_dir().join("obj").join("two_rooms.obj");
    let out = dir.join("rooms.html");
    let run = view(&[&file], &out);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("8 faces"), "{}", run.stdout);
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(!page.contains("http://") && !page.contains("https://"));
    let data = page_data(&page);
    assert_eq!(data["meshes"][0]["faces"], 8);
    assert_eq!(data["meshes"][0]["format"], "obj");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn three_files_or_an_unreadable_one_are_refused_and_nothing_is_written() {
    let dir = temp_dir("refused");
    let file = fixtures_dir().join("obj").join("two_rooms.obj");
    let out = dir.join("page.html");
    let run = view(&[&file, &file, &file], &out);
    assert_eq!(run.code, 2, "{}", run.stdout);
    let missing = dir.join("missing.wok");
    let run = view(&[&missing], &out);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (shared/corpora or WALKMESH_CORPORA)"
)]
fn every_corpus_walkmesh_gets_a_page_with_info_s_face_count() {
    let files = files_with_extensions(
        &required_corpora(),
        &["wok", "pwk", "dwk", "bwm", "trx", "trn", "path"],
    );
    assert!(files.len() > 100, "{} corpus files", files.len());
    let dir = temp_dir("corpus");
    let out = dir.join("page.html");
    let mut with_fields = 0;
    for file in &files {
        let run = view(&[file], &out);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stdout);
        let data = page_data(&std::fs::read_to_string(&out).unwrap());
        let mesh = &data["meshes"][0];
        assert_eq!(
            mesh["faces"].as_u64(),
            Some(info_faces(file)),
            "{}",
            file.display()
        );
        // Every format here has a field dump, so the panel shows stored fields.
        if mesh["hasFieldDump"] == true && !mesh["fields"].as_array().unwrap().is_empty() {
            with_fields += 1;
        }
    }
    assert_eq!(with_fields, files.len());
    std::fs::remove_dir_all(&dir).ok();
}
