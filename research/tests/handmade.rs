#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The field diff and the corpus statistics on BWM files built here byte by byte, so that every
//! expected path, value and offset is computed by hand from the BWM layout (header 0x88 bytes,
//! then the tables where the header points).

use std::path::{Path, PathBuf};

use walkmesh_core::Registry;
use walkmesh_research::diff::{Side, field_diff};
use walkmesh_research::stats::{corpus_stats, pattern};

/// A placeable BWM (type 0) with one triangle: vertices at 0x88, the face at 0xAC, its
/// material at 0xB8, normal at 0xBC, distance at 0xC8; no area tables; `tail` after it all.
fn triangle(x1: f32, material: u32, tail: &[u8]) -> Vec<u8> {
    let mut b = vec![0u8; 0x88];
    b[0..4].copy_from_slice(b"BWM ");
    b[4..8].copy_from_slice(b"V1.0");
    let mut put = |at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(0x48, 3); // vertex_count
    put(0x4C, 0x88); // vertex_offset
    put(0x50, 1); // face_count
    put(0x54, 0xAC);
    put(0x58, 0xB8);
    put(0x5C, 0xBC);
    put(0x60, 0xC8);
    for at in [0x68, 0x74, 0x7C, 0x84] {
        put(at, 0xCC); // empty area tables point at the end of the data
    }
    let floats = |b: &mut Vec<u8>, v: &[f32]| {
        for x in v {
            b.extend_from_slice(&x.to_le_bytes());
        }
    };
    floats(&mut b, &[0.0, 0.0, 0.0, x1, 0.0, 0.0, 0.0, 1.0, 0.0]);
    for i in [0u32, 1, 2] {
        b.extend_from_slice(&i.to_le_bytes());
    }
    b.extend_from_slice(&material.to_le_bytes());
    floats(&mut b, &[0.0, 0.0, 1.0, 0.0]);
    assert_eq!(b.len(), 0xCC);
    b.extend_from_slice(tail);
    b
}

fn registry() -> Registry {
    walkmesh_formats::default_registry()
}

fn diff(a: &[u8], b: &[u8]) -> walkmesh_research::diff::FieldDiff {
    let registry = registry();
    let dumper = registry.by_id("bwm").unwrap().dumper().unwrap();
    let side = |bytes, name| Side {
        bytes,
        file: Path::new(name),
        dumper,
    };
    field_diff(side(a, "a.pwk"), side(b, "b.pwk"), 1000).unwrap()
}

#[test]
fn a_file_against_itself_has_no_differences() {
    let a = triangle(1.0, 4, &[]);
    let report = diff(&a, &a);
    assert!(report.is_empty(), "{report:?}");
    // magic, version, type, 5 vectors, 16 count/offset/root words; 3 vertices, face,
    // material, normal, distance.
    assert_eq!(report.fields_a, 3 + 5 + 16 + 7);
}

/// Path, value in A, value in B, offset in A, offset in B.
type Found<'a> = (&'a str, String, String, Option<u64>, Option<u64>);

#[test]
fn each_difference_has_its_path_values_and_offsets() {
    let a = triangle(1.0, 4, &[]);
    let b = triangle(2.5, 7, &[]);
    let report = diff(&a, &b);
    let found: Vec<Found<'_>> = report
        .differences
        .iter()
        .map(|d| {
            (
                d.path.as_str(),
                d.a.to_string(),
                d.b.to_string(),
                d.offset_a,
                d.offset_b,
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            // Vertex 1 is 12 bytes after the table at 0x88; x is its first float.
            (
                "vertices[1][0]",
                "1.0".into(),
                "2.5".into(),
                Some(0x94),
                Some(0x94)
            ),
            (
                "materials[0]",
                "4".into(),
                "7".into(),
                Some(0xB8),
                Some(0xB8)
            ),
        ]
    );
}

#[test]
fn a_field_only_one_file_holds_is_reported_with_no_value_on_the_other_side() {
    let a = triangle(1.0, 4, &[]);
    let mut b = triangle(1.0, 4, &[]);
    // B says it has one perimeter loop at 0xCC and holds its word there.
    b[0x80..0x84].copy_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&3u32.to_le_bytes());
    let report = diff(&a, &b);
    let paths: Vec<&str> = report.differences.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["header.perimeter_count", "perimeters[0]"]);
    let only_b = &report.differences[1];
    assert!(only_b.a.is_null());
    assert_eq!(only_b.b, serde_json::json!(3));
    assert_eq!((only_b.offset_a, only_b.offset_b), (None, Some(0xCC)));
}

#[test]
fn the_field_limit_is_named_when_reached() {
    let a = triangle(1.0, 4, &[]);
    let registry = registry();
    let dumper = registry.by_id("bwm").unwrap().dumper().unwrap();
    let side = Side {
        bytes: &a,
        file: Path::new("a.pwk"),
        dumper,
    };
    let error = field_diff(side, side, 10).unwrap_err();
    assert!(error.to_string().contains("--field-limit 10"), "{error}");
    assert!(
        matches!(
            &error,
            walkmesh_research::ResearchError::TooManyFields { limit: 10, file, .. }
                if file == Path::new("a.pwk")
        ),
        "{error:?}"
    );
}

#[test]
fn a_missing_folder_is_a_not_found_error() {
    let missing = PathBuf::from("no/such/folder/anywhere");
    let error = corpus_stats(&registry(), std::slice::from_ref(&missing)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "no/such/folder/anywhere: no such file or folder"
    );
    assert!(
        matches!(&error, walkmesh_research::ResearchError::NotFound { path } if *path == missing),
        "{error:?}"
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn stats_of_a_handmade_folder() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.pwk", &triangle(1.0, 4, &[]));
    write(dir.path(), "two.pwk", &triangle(3.0, 4, &[]));
    write(dir.path(), "three.pwk", &triangle(2.0, 9, b"junk"));
    write(dir.path(), "notes.txt", b"not a walkmesh");
    let stats = corpus_stats(&registry(), &[dir.path().to_path_buf()]).unwrap();
    assert_eq!(stats.files, 3);
    assert_eq!(stats.skipped.len(), 1);
    assert!(stats.skipped[0].file.ends_with("notes.txt"));
    let field = |name: &str| {
        stats
            .fields
            .iter()
            .find(|f| f.field == name)
            .unwrap_or_else(|| panic!("no field {name}"))
    };
    // Vertex x: each file holds 0.0, x1 and 0.0 for its three vertices.
    let x = field("vertices[][0]");
    assert_eq!((x.count, x.files, x.distinct), (9, 3, 4));
    assert_eq!(x.min.as_ref().unwrap().value, serde_json::json!(0.0));
    let max = x.max.as_ref().unwrap();
    assert_eq!(max.value, serde_json::json!(3.0));
    assert!(max.file.ends_with("two.pwk"), "{}", max.file);
    assert_eq!(x.common[0].value, serde_json::json!(0.0));
    assert_eq!(x.common[0].count, 6);
    // The type is 0 in all three.
    let kind = field("header.type");
    assert_eq!((kind.distinct, kind.common[0].count), (1, 3));
    // The material: 4 twice, 9 once; the min and max name their files.
    let material = field("materials[]");
    assert!(material.min.as_ref().unwrap().file.ends_with("one.pwk"));
    assert!(material.max.as_ref().unwrap().file.ends_with("three.pwk"));
    // The 4 bytes after the tables: flagged as leftover, with their value.
    let leftover = field("unclaimed");
    assert_eq!(leftover.flags, ["leftover"]);
    assert_eq!(leftover.common[0].value, serde_json::json!("6a756e6b"));
}

#[test]
fn stats_flag_unknown_fields_and_list_rare_values_with_their_file() {
    let dir = tempfile::tempdir().unwrap();
    // 120 files with material 4, one with material 9: 9 is under 1% of the values.
    for i in 0..120 {
        write(dir.path(), &format!("m{i:03}.pwk"), &triangle(1.0, 4, &[]));
    }
    write(dir.path(), "odd.pwk", &triangle(1.0, 9, &[]));
    let stats = corpus_stats(&registry(), &[dir.path().to_path_buf()]).unwrap();
    let material = stats
        .fields
        .iter()
        .find(|f| f.field == "materials[]")
        .unwrap();
    assert_eq!(material.outliers.len(), 1);
    assert_eq!(material.outliers[0].value, serde_json::json!(9));
    assert!(material.outliers[0].file.ends_with("odd.pwk"));
}

#[test]
fn patterns_drop_record_indices() {
    assert_eq!(pattern("aswm.tiles[3].size_x"), "aswm.tiles[].size_x");
    assert_eq!(pattern("trrn[12].name"), "trrn[].name");
    assert_eq!(pattern("header.edge_count"), "header.edge_count");
}

/// `stats` tallies files in parallel and merges them in file order: the result must not
/// depend on the number of threads, and the first file named for a value must be the first
/// in file order even with skipped files between (files are named by their place in the
/// whole list, skipped ones included).
#[test]
fn stats_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        let material = if i == 7 { 9 } else { 4 };
        let tail: &[u8] = if i % 5 == 0 { b"junk" } else { &[] };
        write(
            dir.path(),
            &format!("m{i:03}.pwk"),
            &triangle(i as f32 * 0.5, material, tail),
        );
        if i % 9 == 4 {
            write(dir.path(), &format!("m{i:03}.txt"), b"not a walkmesh");
        }
    }
    // 200 files so that a rare material is an outlier (under 1% of the values).
    for i in 40..200 {
        write(dir.path(), &format!("m{i:03}.pwk"), &triangle(1.0, 4, &[]));
    }
    let dirs = [dir.path().to_path_buf()];
    let one = walkmesh_core::threads::with_budget(1, || corpus_stats(&registry(), &dirs)).unwrap();
    for threads in [2, 3, 8] {
        let many =
            walkmesh_core::threads::with_budget(threads, || corpus_stats(&registry(), &dirs))
                .unwrap();
        assert_eq!(one, many, "{threads} threads");
    }
    assert_eq!(one.files, 200);
    assert_eq!(one.skipped.len(), 4);
    assert!(
        one.skipped[0].file.ends_with("m004.txt"),
        "{:?}",
        one.skipped
    );
    let x = one
        .fields
        .iter()
        .find(|f| f.field == "vertices[][0]")
        .unwrap();
    let max = x.max.as_ref().unwrap();
    assert_eq!(max.value, serde_json::json!(19.5));
    assert!(max.file.ends_with("m039.pwk"), "{}", max.file);
    let material = one
        .fields
        .iter()
        .find(|f| f.field == "materials[]")
        .unwrap();
    assert_eq!(material.outliers[0].value, serde_json::json!(9));
    assert!(
        material.outliers[0].file.ends_with("m007.pwk"),
        "{}",
        material.outliers[0].file
    );
}
