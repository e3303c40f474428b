#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `check_output` reads an output back with the target's validator and reader. Outputs of at
//! least 256 KiB are checked on two threads; these tests run both sizes through both outcomes
//! (a clean file, a file with a broken face index) and check the counts read back against the
//! mesh written.

use std::path::Path;

use walkmesh_core::{
    Diagnostics, Material, NavMesh, ReadOptions, Surface, WeldChoice, WriteOptions,
};
use walkmesh_pipeline::{check_options, check_output, counts, target_for, write_mesh};

/// A `cells` × `cells` grid of stone squares, two triangles each.
fn grid(cells: u32) -> NavMesh {
    let mut mesh = NavMesh::default();
    for j in 0..=cells {
        for i in 0..=cells {
            mesh.vertices.push([i as f32, j as f32, 0.0]);
        }
    }
    let stone = Surface {
        material: Material(4),
        walkable: true,
        code: 4,
    };
    let at = |i: u32, j: u32| j * (cells + 1) + i;
    for j in 0..cells {
        for i in 0..cells {
            mesh.push_polygon(&[at(i, j), at(i + 1, j), at(i + 1, j + 1)], stone);
            mesh.push_polygon(&[at(i, j), at(i + 1, j + 1), at(i, j + 1)], stone);
        }
    }
    mesh
}

fn written_wok(mesh: &NavMesh) -> Vec<u8> {
    let registry = walkmesh_formats::default_registry();
    let (target, _) = target_for(&registry, "wok").unwrap();
    let mut diag = Diagnostics::new();
    let options = WriteOptions {
        file_name: Some("grid.wok".into()),
        ..WriteOptions::default()
    };
    write_mesh(mesh, target, &options, WeldChoice::default(), &mut diag)
        .unwrap()
        .main
}

/// Byte offset of the face table and the face count, from the BWM header (count at 0x50,
/// offset at 0x54, as in `docs/formats/bwm.md` §2.1).
fn face_table(bytes: &[u8]) -> (usize, usize) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    (word(0x54), word(0x50))
}

fn check(bytes: &[u8]) -> walkmesh_pipeline::Checked {
    let registry = walkmesh_formats::default_registry();
    let (target, _) = target_for(&registry, "wok").unwrap();
    check_output(
        target,
        bytes,
        Some(Path::new("grid.wok")),
        &check_options(&ReadOptions::default()),
    )
    .unwrap()
}

#[test]
fn small_and_large_outputs_read_back_with_the_counts_written() {
    // 4 × 4 cells: a few hundred bytes (one thread); 200 × 200: 80,000 faces, megabytes (two).
    for cells in [4u32, 200] {
        let mesh = grid(cells);
        let bytes = written_wok(&mesh);
        assert_eq!(
            bytes.len() >= 256 * 1024,
            cells == 200,
            "{} bytes",
            bytes.len()
        );
        let checked = check(&bytes);
        assert_eq!(checked.errors().count(), 0, "{:?}", checked.findings);
        let written = checked.written.expect("the output reads back");
        let expected = counts(&mesh);
        assert_eq!(written.faces, expected.faces);
        assert_eq!(written.faces, 2 * (cells as usize) * (cells as usize));
        assert_eq!(written.walkable_faces, expected.walkable_faces);
        assert_eq!(written.vertices, ((cells + 1) * (cells + 1)) as usize);
    }
}

#[test]
fn a_face_index_past_the_vertices_is_an_error_at_either_size() {
    for cells in [4u32, 200] {
        let mut bytes = written_wok(&grid(cells));
        let (faces_at, face_count) = face_table(&bytes);
        assert_eq!(face_count, 2 * (cells as usize) * (cells as usize));
        // The last face's first corner points far past the vertex table.
        let last = faces_at + (face_count - 1) * 12;
        bytes[last..last + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let checked = check(&bytes);
        assert!(
            checked.errors().count() > 0,
            "{cells}: no error for a broken face: {:?}",
            checked.findings
        );
    }
}

/// The check only counts what it reads back, so it reads without provenance (no copy of the
/// output's bytes); an ordinary read keeps it (byte-for-byte re-emission depends on it).
#[test]
fn the_check_reads_without_keeping_a_copy_of_the_output() {
    let bytes = written_wok(&grid(4));
    let registry = walkmesh_formats::default_registry();
    let (target, _) = target_for(&registry, "wok").unwrap();
    let reader = target.reader().unwrap();
    let read = |options: &ReadOptions| {
        let mut diag = Diagnostics::new();
        reader
            .read(
                walkmesh_core::Input {
                    bytes: &bytes,
                    path: Some(Path::new("grid.wok")),
                },
                options,
                &mut diag,
            )
            .unwrap()
    };
    let options = check_options(&ReadOptions::default());
    assert!(!options.keep_provenance);
    assert!(read(&options).provenance.is_none());
    let kept = read(&ReadOptions::default()).provenance.unwrap();
    assert_eq!(kept.section("file").map(<[u8]>::len), Some(bytes.len()));
}
