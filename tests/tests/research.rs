#![cfg(all(feature = "bwm", feature = "nwn2", feature = "prime"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The research kit through the CLI on the shared corpora: `diff --fields`, `stats`, `spec`,
//! and the readable dumps (line lengths, `none` children, the JSON tree's type, raw bytes and
//! meaning). Expected values are read from the files' bytes here, not from the code under test.

use std::ffi::OsString;
use std::path::PathBuf;

use walkmesh_tests::{required_corpora, walkmesh};

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn corpus_files(extensions: &[&str]) -> Vec<PathBuf> {
    walkmesh_core::testing::files_with_extensions(&required_corpora(), extensions)
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn field_diff_sees_stored_counts_the_mesh_diff_calls_equal() {
    let dir = tempfile::tempdir().unwrap();
    // A WOK written by another tool (PyKotor) whose stored perimeter edges a rebuild redoes.
    let original = required_corpora().join("kotor/pykotor-misc/out.wok");
    let rebuilt = dir.path().join("out_rebuilt.wok");
    let run = walkmesh(os(&[&"convert", &original, &rebuilt, &"--rebuild"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (a, b) = (
        std::fs::read(&original).unwrap(),
        std::fs::read(&rebuilt).unwrap(),
    );
    // header.edge_count is the u32 at 0x78 (docs/formats/bwm.md §2.1).
    let (count_a, count_b) = (u32_at(&a, 0x78), u32_at(&b, 0x78));
    assert_ne!(
        count_a, count_b,
        "the rebuild was meant to change the edge count"
    );

    // Against itself: nothing, exit 0.
    let same = walkmesh(os(&[&"diff", &original, &original, &"--fields", &"--json"]));
    assert_eq!(same.code, 0, "{}", same.stderr);
    let report: serde_json::Value = serde_json::from_str(&same.stdout).unwrap();
    assert_eq!(report["differences"].as_array().unwrap().len(), 0);

    let run = walkmesh(os(&[&"diff", &original, &rebuilt, &"--fields", &"--json"]));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let edge_count = report["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == "header.edge_count")
        .expect("header.edge_count is reported");
    assert_eq!(edge_count["a"], count_a);
    assert_eq!(edge_count["b"], count_b);
    assert_eq!(edge_count["offset_a"], 0x78);
    assert_eq!(edge_count["offset_b"], 0x78);
    // Every reported offset holds the reported value in its file (u32 and i32 fields).
    for d in report["differences"].as_array().unwrap() {
        for (side, bytes) in [("a", &a), ("b", &b)] {
            let (Some(at), Some(value)) = (d[format!("offset_{side}")].as_u64(), d[side].as_i64())
            else {
                continue;
            };
            if d["type"] == "u32" || d["type"] == "i32" {
                let stored = u32_at(bytes, at as usize);
                assert!(
                    stored as i32 as i64 == value || stored as i64 == value,
                    "{d}"
                );
            }
        }
    }
    // The mesh diff calls them equal: that is what the field diff is for.
    let mesh = walkmesh(os(&[&"diff", &original, &rebuilt]));
    assert_eq!(mesh.code, 0, "{}", mesh.stdout);
    // The text form names the field and both offsets.
    let text = walkmesh(os(&[&"diff", &original, &rebuilt, &"--fields"]));
    assert!(
        text.stdout.contains(&format!(
            "header.edge_count: {count_a} @0x78 -> {count_b} @0x78"
        )),
        "{}",
        text.stdout
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn stats_of_the_kotor_corpus_match_the_header_bytes() {
    let kotor = required_corpora().join("kotor");
    let files =
        walkmesh_core::testing::files_with_extensions(&kotor, &["wok", "pwk", "dwk", "bwm"]);
    assert!(!files.is_empty());
    // Read the vertex counts (0x48) and types (0x08) straight from the bytes.
    let mut counts = Vec::new();
    let mut types = std::collections::BTreeMap::new();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        counts.push(u32_at(&bytes, 0x48));
        *types.entry(u32_at(&bytes, 0x08)).or_insert(0u64) += 1;
    }
    let run = walkmesh(os(&[&"stats", &kotor, &"--json"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let stats: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(stats["files"], files.len());
    let field = |name: &str| {
        stats["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == name && f["format"] == "bwm")
            .unwrap_or_else(|| panic!("no field {name}"))
            .clone()
    };
    let vertex_count = field("header.vertex_count");
    assert_eq!(vertex_count["min"]["value"], *counts.iter().min().unwrap());
    assert_eq!(vertex_count["max"]["value"], *counts.iter().max().unwrap());
    let distinct: std::collections::BTreeSet<u32> = counts.iter().copied().collect();
    assert_eq!(vertex_count["distinct"], distinct.len());
    // The file holding the largest count is named, and holds it.
    let max_file = PathBuf::from(vertex_count["max"]["file"].as_str().unwrap());
    assert_eq!(
        u32_at(&std::fs::read(&max_file).unwrap(), 0x48),
        *counts.iter().max().unwrap()
    );
    let kind = field("header.type");
    assert_eq!(kind["distinct"], types.len());
    let most = types.values().max().unwrap();
    assert_eq!(kind["common"][0]["count"], *most);
    // The AABB word nobody understands is flagged.
    let unknown = field("aabb[].unknown");
    assert_eq!(unknown["flags"], serde_json::json!(["unknown"]));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn flat_dumps_of_corpus_trx_files_have_no_long_lines() {
    let files = corpus_files(&["trx", "trn"]);
    assert!(!files.is_empty());
    for file in files {
        let run = walkmesh(os(&[&"dump", &file, &"--format", &"flat"]));
        assert_eq!(run.code, 0, "{}", run.stderr);
        let longest = run.stdout.lines().map(str::len).max().unwrap();
        assert!(
            longest <= 320,
            "{}: a line of {longest} characters",
            file.display()
        );
        // The node table of a tile is printed row by row.
        assert!(
            !run.stdout.contains("path_table.nodes = ["),
            "{}",
            file.display()
        );
    }
}

/// The node of the JSON tree at `path` (names from the root's children down).
fn node<'a>(tree: &'a serde_json::Value, path: &[&str]) -> &'a serde_json::Value {
    path.iter().fold(tree, |node, name| {
        node["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == *name)
            .unwrap_or_else(|| panic!("no {name} in {}", node["name"]))
    })
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn json_tree_carries_type_raw_bytes_and_meaning() {
    let file = required_corpora().join("kotor/pykotor-misc/floor_plain.wok");
    let bytes = std::fs::read(&file).unwrap();
    let run = walkmesh(os(&[&"dump", &file, &"--format", &"json"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tree: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let material = node(&tree, &["materials", "materials[0]"]);
    let at = u32_at(&bytes, 0x58) as usize; // header.material_offset
    assert_eq!(material["offset"], at);
    assert_eq!(material["type"], "u32");
    let raw: String = bytes[at..at + 4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(material["raw"], raw);
    assert!(material["meaning"].as_str().unwrap().contains("walkable"));
    let position = node(&tree, &["header", "position"]);
    assert_eq!(position["type"], "f32[3]");
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn empty_octree_children_read_none() {
    let file = required_corpora().join("prime/synthetic/grid_mp1_v4.path");
    let run = walkmesh(os(&[&"dump", &file, &"--format", &"flat"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("octree[0].children[0] = none"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("4294967295"));
}

/// The names a spec gives: `- id:` of sequences and the keys of `instances` (tables read where
/// the header points).
fn spec_ids(spec: &str) -> Vec<String> {
    let run = walkmesh(os(&[&"spec", &spec, &"--format", &"ksy"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .filter_map(|l| {
            let instance = l.strip_prefix("  ").and_then(|k| k.strip_suffix(':'));
            l.trim()
                .strip_prefix("- id: ")
                .or(instance.filter(|k| !k.starts_with(' ')))
        })
        .map(str::to_string)
        .collect()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn specs_name_the_fields_the_dumps_name() {
    // Every leaf name of a dump (without record indices) is an id of the spec, so that a field
    // read with the generated parser and a line of the flat dump are found by the same name.
    let cases: [(&str, PathBuf, &[&str]); 2] = [
        (
            "bwm",
            required_corpora().join("kotor/pykotor-misc/floor_plain.wok"),
            &[],
        ),
        (
            "path",
            required_corpora().join("prime/synthetic/grid_mp1_v4.path"),
            // Dump names of sections' own counts; the spec's top-level counts differ.
            &["trailing"],
        ),
    ];
    for (spec, file, extra_ok) in cases {
        let ids = spec_ids(spec);
        let run = walkmesh(os(&[&"dump", &file, &"--format", &"json"]));
        let tree: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let mut leaves = Vec::new();
        collect_leaves(&tree, &mut leaves);
        for leaf in leaves {
            let name = leaf.split('[').next().unwrap().to_string();
            assert!(
                ids.contains(&name) || extra_ok.contains(&name.as_str()) || name.is_empty(),
                "{spec}: the dump's field {leaf} is not in the spec"
            );
        }
    }
    let ids = spec_ids("aswm");
    for name in [
        "version",
        "triangles_offset",
        "linked_triangles",
        "size_x",
        "rle_table_size",
        "island_paths",
        "weight",
    ] {
        assert!(ids.iter().any(|id| id == name), "aswm spec has no {name}");
    }
}

fn collect_leaves(node: &serde_json::Value, out: &mut Vec<String>) {
    match node["children"].as_array() {
        Some(children) => children.iter().for_each(|c| collect_leaves(c, out)),
        None => out.push(node["name"].as_str().unwrap_or_default().to_string()),
    }
}

/// Issue 33: `diff --fields` on a BioWare WOK and a copy whose vertex table is stored in
/// another order (faces renumbered to match, every other byte kept) says "reordered" and lists
/// nothing else; `--by-index` keeps the index-by-index comparison.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn field_diff_pairs_reordered_vertices_by_content() {
    let original = required_corpora().join("kotor/pykotor-tests/test.wok");
    let a = std::fs::read(&original).unwrap();
    let (count, vertices) = (u32_at(&a, 0x48) as usize, u32_at(&a, 0x4C) as usize);
    let (faces, face_count) = (u32_at(&a, 0x54) as usize, u32_at(&a, 0x50) as usize);
    // Reversed order: new vertex i is old vertex count-1-i.
    let mut b = a.clone();
    for new in 0..count {
        let old = count - 1 - new;
        b[vertices + 12 * new..vertices + 12 * new + 12]
            .copy_from_slice(&a[vertices + 12 * old..vertices + 12 * old + 12]);
    }
    for k in 0..face_count * 3 {
        let renumbered = (count - 1 - u32_at(&a, faces + 4 * k) as usize) as u32;
        b[faces + 4 * k..faces + 4 * k + 4].copy_from_slice(&renumbered.to_le_bytes());
    }
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("reordered.wok");
    std::fs::write(&copy, &b).unwrap();

    let run = walkmesh(os(&[&"diff", &original, &copy, &"--fields", &"--json"]));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["differences"],
        serde_json::json!([]),
        "{}",
        run.stdout
    );
    let vertices_table = &report["aligned"][0];
    assert_eq!(vertices_table["table"], "vertices");
    assert_eq!(vertices_table["matched"], count);
    assert_eq!(vertices_table["permutation"][0], count - 1);
    let text = walkmesh(os(&[&"diff", &original, &copy, &"--fields"]));
    assert!(
        text.stdout
            .starts_with(&format!("vertices: same {count} vertices, reordered")),
        "{}",
        text.stdout
    );
    let by_index = walkmesh(os(&[
        &"diff",
        &original,
        &copy,
        &"--fields",
        &"--by-index",
        &"--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&by_index.stdout).unwrap();
    let rows = report["differences"].as_array().unwrap();
    assert!(rows.len() >= count, "{}", by_index.stdout);
    assert!(report.get("aligned").is_none());
    // --by-index is a --fields option.
    assert_eq!(
        walkmesh(os(&[&"diff", &original, &copy, &"--by-index"])).code,
        2
    );
}
