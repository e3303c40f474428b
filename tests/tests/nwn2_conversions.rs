#![cfg(all(feature = "nwn2", feature = "obj", feature = "bwm"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! NWN2 TRN/TRX through the command line: unchanged copies are byte-identical, `--rebuild`
//! and conversions from OBJ and WOK give files that validate clean, TRX → OBJ/WOK keep the
//! geometry and walkability, `--template` keeps the template's packets, and every loss is
//! reported.

use std::path::{Path, PathBuf};

use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_tests::{required_corpora, walkmesh};

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("walkmesh-nwn2-conv-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file of the shared NWN2 corpus (the tests calling this are ignored without it).
fn nwn2(name: &str) -> PathBuf {
    let path = required_corpora()
        .join("nwn2")
        .join("Kaedrin-nwn2cc")
        .join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

fn read(path: &Path) -> NavMesh {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let format = registry.detect(path, &bytes, bytes.len() as u64).unwrap();
    let mut diag = Diagnostics::new();
    format
        .reader()
        .unwrap()
        .read(
            Input {
                bytes: &bytes,
                path: Some(path),
            },
            &ReadOptions::default(),
            &mut diag,
        )
        .unwrap()
}

fn convert(args: &[&str]) -> String {
    let run = walkmesh(args.iter().copied());
    assert_eq!(run.code, 0, "walkmesh {args:?}: {}", run.stderr);
    run.stderr
}

fn validates_clean(path: &Path) {
    let run = walkmesh(["validate", path.to_str().unwrap(), "--json"]);
    assert_eq!(
        run.code,
        0,
        "{}: {}{}",
        path.display(),
        run.stdout,
        run.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["errors"].as_array().unwrap().len(),
        0,
        "{}",
        run.stdout
    );
}

fn dump(path: &Path) -> DumpNode {
    let registry = walkmesh_formats::default_registry();
    let bytes = std::fs::read(path).unwrap();
    let trx = registry.by_id("trx").unwrap();
    trx.dumper()
        .unwrap()
        .dump(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
        )
        .unwrap()
}

fn field<'a>(node: &'a DumpNode, prefix: &str) -> &'a DumpNode {
    node.children
        .iter()
        .find(|c| c.name.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {}", node.name))
}

/// Packet fourccs in file order, from the dump's `packets[i] FOURCC` groups.
fn packet_kinds(tree: &DumpNode) -> Vec<String> {
    tree.children
        .iter()
        .filter(|c| c.name.starts_with("packets["))
        .filter_map(|c| c.name.split(' ').nth(1).map(str::to_string))
        .collect()
}

fn aswm_body(tree: &DumpNode) -> &DumpNode {
    let packet = tree
        .children
        .iter()
        .find(|c| c.name.ends_with(" ASWM"))
        .unwrap();
    field(packet, "body")
}

/// Error codes `walkmesh validate` reports.
fn error_codes(path: &Path) -> Vec<String> {
    let run = walkmesh(["validate", path.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut codes: Vec<String> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap().to_string())
        .collect();
    codes.dedup();
    codes
}

fn walkable_area(mesh: &NavMesh) -> f64 {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| walkmesh_core::passes::polygon_area(mesh, p))
        .sum()
}

/// `bytes` (a TRX) with one tile's path table looping: towards node 0, a node and one of its
/// walkable neighbours name each other as the next hop (what fuzzing found in issue #51). The
/// body is re-serialised and compressed again; the other packets are kept.
fn with_a_path_loop(bytes: &[u8]) -> Vec<u8> {
    use walkmesh_nwn2::{aswm, container};
    let file = walkmesh_nwn2::file::parse(bytes, 1 << 30).unwrap();
    let mut a = file.aswm.clone();
    let ti = a
        .tiles
        .iter()
        .position(|t| t.node_to_local.len() > 5)
        .unwrap();
    let tile = &a.tiles[ti];
    let (n, start) = (tile.node_to_local.len(), tile.triangles_offset as usize);
    let node_of = |t: u32| {
        let local = (t as usize).checked_sub(start)?;
        tile.local_to_node
            .get(local)
            .copied()
            .filter(|&m| m != 0xFF)
    };
    let (s, x) = (1..n)
        .find_map(|s| {
            let triangle = &a.triangles[start + tile.node_to_local[s] as usize];
            let x = triangle.neighbours.iter().find_map(|&t| node_of(t))?;
            (x != 0).then_some((s, usize::from(x)))
        })
        .unwrap();
    let nodes = &mut a.tiles[ti].nodes;
    nodes[s * n] = x as u8;
    nodes[x * n] = s as u8;
    let payload = aswm::wrap(&aswm::serialize(&a), None);
    let packets: Vec<([u8; 4], &[u8])> = file
        .container
        .packets
        .iter()
        .map(|p| match &p.fourcc {
            b"ASWM" => (p.fourcc, &payload[..]),
            _ => (p.fourcc, p.payload),
        })
        .collect();
    container::write(file.container.major, file.container.minor, &packets)
}

/// Issue #51: `convert bad.trx out.trx` (no `--rebuild`) used to copy a file whose stored path
/// tables our validator rejects, byte for byte and without a word. It bakes them again now:
/// exit 0, the warning printed, and the output validates.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn convert_bakes_stored_path_tables_that_fail_validation_again() {
    let source = nwn2("abandoned house.trx");
    let dir = temp_dir("stored-tables");
    let (bad, out) = (dir.join("bad.trx"), dir.join("out.trx"));
    std::fs::write(&bad, with_a_path_loop(&std::fs::read(&source).unwrap())).unwrap();
    let found = error_codes(&bad);
    assert!(found.iter().any(|c| c == "trx.path_loop"), "{found:?}");
    let stderr = convert(&["convert", bad.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(
        stderr.contains("trx.stored_tables_rebuilt") && stderr.contains("trx.path_loop"),
        "{stderr}"
    );
    assert_ne!(std::fs::read(&out).unwrap(), std::fs::read(&bad).unwrap());
    validates_clean(&out);
    let (a, b) = (read(&bad), read(&out));
    assert_eq!(a.vertices, b.vertices);
    assert_eq!(a.polygons, b.polygons);
    assert_eq!(a.surfaces, b.surfaces);
    // The intact file is still copied as it is, without the warning.
    let copy = dir.join("copy.trx");
    let stderr = convert(&["convert", source.to_str().unwrap(), copy.to_str().unwrap()]);
    assert!(!stderr.contains("stored_tables_rebuilt"), "{stderr}");
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(&source).unwrap()
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn unchanged_copy_is_identical_and_rebuild_validates() {
    let source = nwn2("shadowdale auction.trx");
    let dir = temp_dir("copy");
    let (copy, rebuilt) = (dir.join("copy.trx"), dir.join("rebuilt.trx"));
    convert(&["convert", source.to_str().unwrap(), copy.to_str().unwrap()]);
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(&source).unwrap()
    );
    convert(&[
        "convert",
        source.to_str().unwrap(),
        rebuilt.to_str().unwrap(),
        "--rebuild",
    ]);
    assert_ne!(
        std::fs::read(&rebuilt).unwrap(),
        std::fs::read(&source).unwrap()
    );
    // The official file has duplicated walkable triangles around a placeable, which core's
    // generic check reports as non-manifold edges; the rebuilt file has exactly the same
    // findings and none of the format's own.
    let errors = error_codes(&rebuilt);
    assert_eq!(errors, error_codes(&source));
    assert!(errors.iter().all(|c| c.starts_with("mesh.")), "{errors:?}");
    let (a, b) = (read(&source), read(&rebuilt));
    assert_eq!(a.polygons, b.polygons);
    assert_eq!(a.surfaces, b.surfaces);
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn trx_to_obj_and_back_keeps_geometry_and_walkability() {
    let source = nwn2("enter world.trx");
    let dir = temp_dir("obj");
    let (obj, back) = (dir.join("area.obj"), dir.join("back.trx"));
    let stderr = convert(&["convert", source.to_str().unwrap(), obj.to_str().unwrap()]);
    // The tile grid and the NWN2 columns cannot travel in OBJ: said, not silent.
    assert!(stderr.contains("tile_grid_dropped"), "{stderr}");
    let stderr = convert(&["convert", obj.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(stderr.contains("trx.grid_computed"), "{stderr}");
    validates_clean(&back);
    let (a, b) = (read(&source), read(&back));
    assert_eq!(a.polygons.len(), b.polygons.len());
    assert_eq!(a.walkable_count(), b.walkable_count());
    assert!((walkable_area(&a) - walkable_area(&b)).abs() < 1e-3 * walkable_area(&a));
    let materials = |m: &NavMesh| {
        let mut v: Vec<_> = m
            .surfaces
            .iter()
            .map(|s| (s.material, s.walkable))
            .collect();
        v.sort();
        v
    };
    assert_eq!(materials(&a), materials(&b));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn trx_to_wok_and_wok_to_trx_validate() {
    let source = nwn2("dm001_cargohold.trx");
    let dir = temp_dir("wok");
    let (wok, back) = (dir.join("area.wok"), dir.join("back.trx"));
    convert(&["convert", source.to_str().unwrap(), wok.to_str().unwrap()]);
    validates_clean(&wok);
    convert(&["convert", wok.to_str().unwrap(), back.to_str().unwrap()]);
    validates_clean(&back);
    let (a, w, b) = (read(&source), read(&wok), read(&back));
    assert_eq!(a.walkable_count(), w.walkable_count());
    assert_eq!(a.walkable_count(), b.walkable_count());
    assert!((walkable_area(&a) - walkable_area(&b)).abs() < 1e-3 * walkable_area(&a));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_trn_bakes_with_its_own_template() {
    let dir = required_corpora();
    let files = walkmesh_core::testing::files_with_extensions(&dir.join("nwn2"), &["trn"]);
    let out = temp_dir("trn");
    for trn in files {
        let target = out.join("baked.trx");
        convert(&[
            "convert",
            trn.to_str().unwrap(),
            target.to_str().unwrap(),
            "--template",
            trn.to_str().unwrap(),
        ]);
        validates_clean(&target);
        let (made, original) = (dump(&target), dump(&trn));
        assert_eq!(
            packet_kinds(&made),
            packet_kinds(&original),
            "{}",
            trn.display()
        );
        let body = aswm_body(&made);
        assert_eq!(
            field(field(body, "tiles_header"), "tiles_flags").value,
            Some(DumpValue::UInt(31))
        );
        assert!(matches!(field(body, "island_count").value, Some(DumpValue::UInt(n)) if n > 0));
    }
}

/// `[trx.…]` warnings our validator prints for `path`.
fn trx_warnings(path: &Path) -> Vec<String> {
    let run = walkmesh(["validate", path.to_str().unwrap(), "--max-per-code", "0"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run.stdout
        .lines()
        .chain(run.stderr.lines())
        .filter(|l| l.starts_with("warning [trx."))
        .map(str::to_string)
        .collect()
}

/// Triangles of a written TRX whose centre lies exactly on their tile's upper x or y edge.
fn centres_on_upper_tile_edges(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let a = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap().aswm;
    let w = a.tile_width;
    let mut on_edge = 0;
    for (ti, tile) in a.tiles.iter().enumerate() {
        let (tx, ty) = (
            (ti as u32 % a.grid_width) as f32,
            (ti as u32 / a.grid_width) as f32,
        );
        let start = tile.triangles_offset as usize;
        for t in &a.triangles[start..start + tile.triangle_count as usize] {
            if t.centre[0] == (tx + 1.0) * w || t.centre[1] == (ty + 1.0) * w {
                on_edge += 1;
            }
        }
    }
    on_edge
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn bakes_from_kotor_and_from_trn_validate_without_trx_warnings() {
    let corpora = required_corpora();
    let dir = temp_dir("clean-bakes");
    // Wall slivers of this room stand on tile boundaries: the bake keeps them in the tile
    // the toolset would (centre on its upper edge), which the validator accepts, as the
    // 1,462 such triangles of official files show it must.
    let wok = corpora.join("kotor/k1cp/tslpatchdata/m40aa_18b.wok");
    assert!(wok.is_file(), "{} is missing", wok.display());
    let trx = dir.join("m40aa_18b.trx");
    convert(&["convert", wok.to_str().unwrap(), trx.to_str().unwrap()]);
    assert!(
        centres_on_upper_tile_edges(&trx) > 0,
        "the case is not exercised"
    );
    assert_eq!(trx_warnings(&trx), Vec::<String>::new());
    // A TRN with downward walkable triangles: the TRX bake stores them facing up (the
    // toolset would store them against their 0x04 flag, where the engine cannot locate a
    // point on them) and says how many.
    let trn = nwn2("oldskull_descent.TRN");
    let trx = dir.join("oldskull_descent.trx");
    let stderr = convert(&["convert", trn.to_str().unwrap(), trx.to_str().unwrap()]);
    assert!(
        stderr.contains("[trx.walkable_winding_flipped]"),
        "{stderr}"
    );
    // Sides shared by three or more triangles are the TRN's own geometry (kept).
    let (before, after) = (read(&trn), read(&trx));
    assert!(
        !walkmesh_core::passes::edge_adjacency(&before, |_| true)
            .non_manifold
            .is_empty()
    );
    let mut warnings = trx_warnings(&trx);
    warnings.retain(|w| !w.starts_with("warning [trx.side_shared_by_many]"));
    assert_eq!(warnings, Vec::<String>::new());
    // Walkability is what the TRN says.
    assert_eq!(before.walkable_count(), after.walkable_count());
    let _ = std::fs::remove_dir_all(&dir);
}
