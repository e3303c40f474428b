#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every file a set writes is read back and validated before any is renamed into place:
//! `write_checked_outputs` (the room files of `area solve`, the mesh of `area assemble`) and
//! `check_archive`/`write_checked_archive` (the module archive `area solve` rewrites). A
//! refused file leaves every target as it was.

use std::path::Path;

use walkmesh_core::{
    Diagnostics, Material, NavMesh, Output, ReadOptions, Surface, WeldChoice, WriteOptions,
};
use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
use walkmesh_pipeline::policy::CLI_NAMES;
use walkmesh_pipeline::write_set::{check_archive, write_checked_archive, write_checked_outputs};
use walkmesh_pipeline::{check_options, target_for, write_mesh};

/// One stone square of two triangles.
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
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    mesh.push_polygon(&[0, 1, 2], stone);
    mesh.push_polygon(&[0, 2, 3], stone);
    mesh
}

fn wok_bytes() -> Vec<u8> {
    let registry = walkmesh_formats::default_registry();
    let (target, _) = target_for(&registry, "wok").unwrap();
    let options = WriteOptions {
        file_name: Some("room.wok".into()),
        ..WriteOptions::default()
    };
    write_mesh(
        &square(),
        target,
        &options,
        WeldChoice::default(),
        &mut Diagnostics::new(),
    )
    .unwrap()
    .main
}

/// The WOK with its face count raised past the faces stored (count at 0x50, as in
/// `docs/formats/bwm.md` §2.1): a file the reader refuses.
fn broken_wok() -> Vec<u8> {
    let mut bytes = wok_bytes();
    bytes[0x50..0x54].copy_from_slice(&1000u32.to_le_bytes());
    bytes
}

fn output(main: Vec<u8>) -> Output {
    Output {
        main,
        sidecars: Vec::new(),
    }
}

fn with_wok<T>(run: impl FnOnce(&dyn walkmesh_core::Format, &ReadOptions) -> T) -> T {
    let registry = walkmesh_formats::default_registry();
    let (format, _) = target_for(&registry, "wok").unwrap();
    run(format, &check_options(&ReadOptions::default()))
}

#[test]
fn a_set_with_one_unreadable_file_writes_none_and_leaves_the_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.wok"), dir.path().join("b.wok"));
    std::fs::write(&a, b"old a").unwrap();
    let files = vec![
        (a.clone(), output(wok_bytes())),
        (b.clone(), output(broken_wok())),
    ];
    let refused = with_wok(|format, check| write_checked_outputs(format, files, check, CLI_NAMES));
    let failure = refused.unwrap_err();
    assert_eq!(failure.exit_code, 2, "{failure:?}");
    assert_eq!(std::fs::read(&a).unwrap(), b"old a");
    assert!(!b.exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn a_set_of_valid_files_replaces_its_targets() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.wok"), dir.path().join("b.wok"));
    std::fs::write(&a, b"old a").unwrap();
    let files = vec![
        (a.clone(), output(wok_bytes())),
        (b.clone(), output(wok_bytes())),
    ];
    with_wok(|format, check| write_checked_outputs(format, files, check, CLI_NAMES)).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), wok_bytes());
    assert_eq!(std::fs::read(&b).unwrap(), wok_bytes());
}

fn archive_with(member: &str, bytes: Vec<u8>) -> Vec<u8> {
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    archive.put(member, bytes).unwrap();
    archive
        .put("other.wok", b"not judged again".to_vec())
        .unwrap();
    archive.write().unwrap()
}

#[test]
fn an_archive_is_written_only_when_it_reads_back_with_its_rewritten_rooms_valid() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("area.mod");
    let checked = vec!["room.wok".to_string()];
    // A rewritten room that does not read back: refused, nothing written.
    let bad = archive_with("room.wok", broken_wok());
    let refused = with_wok(|format, check| {
        write_checked_archive(format, &target, &bad, &checked, check, CLI_NAMES)
    });
    let message = refused.unwrap_err().message;
    assert!(message.contains("area.mod:room.wok"), "{message}");
    assert!(!target.exists());
    // Bytes that are no archive.
    let refused = with_wok(|format, check| {
        check_archive(
            format,
            Path::new("x.mod"),
            b"ERF V1.0",
            &checked,
            check,
            CLI_NAMES,
        )
    });
    assert!(
        refused.unwrap_err().message.contains("does not read back"),
        "an archive that does not parse"
    );
    // A room the archive should hold but does not.
    let missing = archive_with("elsewhere.wok", wok_bytes());
    let refused = with_wok(|format, check| {
        check_archive(
            format,
            Path::new("x.mod"),
            &missing,
            &checked,
            check,
            CLI_NAMES,
        )
    });
    assert!(refused.unwrap_err().message.contains("holds no room.wok"));
    // Valid: written; the member not rewritten is not judged.
    let good = archive_with("room.wok", wok_bytes());
    with_wok(|format, check| {
        write_checked_archive(format, &target, &good, &checked, check, CLI_NAMES)
    })
    .unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), good);
}
