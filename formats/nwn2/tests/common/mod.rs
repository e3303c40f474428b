#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use std::path::{Path, PathBuf};

/// The NWN2 files of the shared corpora (the tests calling this are ignored without them).
pub fn corpus_files() -> Vec<PathBuf> {
    let dir = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join("nwn2");
    let files = walkmesh_core::testing::files_with_extensions(&dir, &["trx", "trn"]);
    assert!(
        !files.is_empty(),
        "no TRN/TRX files below {}",
        dir.display()
    );
    files
}

pub fn is_trx(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("trx"))
}

/// The shared corpus file named `file_name` (a test that names one needs it).
pub fn corpus_file(file_name: &str) -> PathBuf {
    corpus_files()
        .into_iter()
        .find(|p| name(p) == file_name)
        .unwrap_or_else(|| panic!("{file_name} is not in the shared NWN2 corpus"))
}

pub fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// `bytes` (a TRN/TRX) with its walkmesh replaced by `edit`'s changes to it: the body is
/// serialised and compressed again (ASWM bodies are zlib streams, so tables cannot be patched
/// in place), every other packet kept.
pub fn with_edited_aswm(
    bytes: &[u8],
    edit: impl FnOnce(&mut walkmesh_nwn2::aswm::Aswm),
) -> Vec<u8> {
    use walkmesh_nwn2::{aswm, container};
    let file = walkmesh_nwn2::file::parse(bytes, 1 << 30).unwrap();
    let mut a = file.aswm.clone();
    edit(&mut a);
    let payload = aswm::wrap(&aswm::serialize(&a), None);
    let packets: Vec<([u8; 4], &[u8])> = file
        .container
        .packets
        .iter()
        .map(|p| {
            if &p.fourcc == b"ASWM" {
                (p.fourcc, &payload[..])
            } else {
                (p.fourcc, p.payload)
            }
        })
        .collect();
    container::write(file.container.major, file.container.minor, &packets)
}

/// The walkable neighbours, as nodes of tile `ti`'s path table, of each of its nodes.
pub fn tile_node_neighbours(a: &walkmesh_nwn2::aswm::Aswm, ti: usize) -> Vec<Vec<usize>> {
    let tile = &a.tiles[ti];
    let start = tile.triangles_offset as usize;
    let end = start + tile.triangle_count as usize;
    tile.node_to_local
        .iter()
        .map(|&local| {
            a.triangles[start + local as usize]
                .neighbours
                .iter()
                .map(|&nb| nb as usize)
                .filter(|nb| (start..end).contains(nb))
                .map(|nb| tile.local_to_node[nb - start])
                .filter(|&node| node != 0xFF)
                .map(usize::from)
                .collect()
        })
        .collect()
}

/// Breaks tile `ti`'s path table the two ways fuzzing found (issue #51): towards node 0, a
/// node and its neighbour name each other as the next hop (`trx.path_loop`), and towards the
/// last node an entry names a node that is not a neighbour (`trx.path_next_not_adjacent`).
pub fn corrupt_path_table(a: &mut walkmesh_nwn2::aswm::Aswm, ti: usize) {
    let neighbours = tile_node_neighbours(a, ti);
    let n = neighbours.len();
    assert!(n >= 4, "tile {ti} has {n} nodes; the corruption needs 4");
    let (s, x) = (1..n)
        .find_map(|s| neighbours[s].iter().find(|&&x| x != 0).map(|&x| (s, x)))
        .unwrap();
    let last = n - 1;
    let (s2, stranger) = (0..last)
        .find_map(|s2| {
            (0..n)
                .find(|y| *y != s2 && *y != last && !neighbours[s2].contains(y))
                .map(|y| (s2, y))
        })
        .unwrap();
    let nodes = &mut a.tiles[ti].nodes;
    nodes[s * n] = x as u8;
    nodes[x * n] = s as u8;
    nodes[s2 * n + last] = stranger as u8;
}

/// The error codes our validator gives `bytes` (path tables searched again).
pub fn error_codes(bytes: &[u8]) -> Vec<String> {
    walkmesh_nwn2::validate::validate_bytes(bytes, &walkmesh_core::ReadOptions::default())
        .unwrap()
        .into_iter()
        .filter(|d| d.severity == walkmesh_core::Severity::Error)
        .map(|d| d.code)
        .collect()
}
