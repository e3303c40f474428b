#![cfg(all(feature = "obj", feature = "bwm", feature = "nwn2"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `walkmesh dump --format flat`, `--section` and `--extract`: lines checked against offsets
//! computed by hand from the BWM notes, every line's raw bytes against the file (or the
//! inflated ASWM body, inflated here with flate2), and sections written out byte for byte.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use walkmesh_tests::{fixtures_dir, required_corpora, walkmesh};

fn os(parts: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_os_string()).collect()
}

/// Converts the fixture `obj/<name>.obj` to `<dir>/<name>.<ext>`.
fn converted(dir: &Path, name: &str, ext: &str) -> PathBuf {
    let source = fixtures_dir().join(format!("obj/{name}.obj"));
    let target = dir.join(format!("{name}.{ext}"));
    let run = walkmesh(os(&[&"convert", &source, &target]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    target
}

fn flat(path: &Path, extra: &[&str]) -> walkmesh_tests::CliRun {
    let mut args = os(&[&"dump", &path, &"--format", &"flat"]);
    args.extend(extra.iter().map(OsString::from));
    walkmesh(args)
}

/// A data line split into its columns: offset (with its space, if any), size, type, raw
/// bytes, and `field = value ; meaning`.
struct Line<'a> {
    space: Option<&'a str>,
    offset: Option<u64>,
    size: Option<u64>,
    ty: &'a str,
    raw: Vec<u8>,
    truncated: bool,
    rest: &'a str,
}

fn parse_line(line: &str) -> Line<'_> {
    // Columns: offset (10 wide, or `space:` + 10), size (8), type (10), raw (38), field.
    let offset_column = line.split(' ').next().unwrap();
    let (space, offset) = match offset_column.rsplit_once(':') {
        Some((space, offset)) => (Some(space), offset),
        None => (None, offset_column.trim()),
    };
    let offset = offset
        .strip_prefix("0x")
        .map(|hex| u64::from_str_radix(hex, 16).unwrap());
    let start = offset_column.len().max(10) + 2;
    let size = line[start..start + 8].trim();
    // The type column is 10 wide, wider for long types (`bytes[1008]`).
    let ty = line[start + 10..].split(' ').next().unwrap();
    let raw_start = start + 10 + ty.len().max(10) + 2;
    let raw_text = &line[raw_start..raw_start + 38];
    let rest = &line[raw_start + 40..];
    let truncated = raw_text.contains("..");
    let raw = raw_text
        .replace("..", "")
        .split_whitespace()
        .flat_map(|group| {
            (0..group.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&group[i..i + 2], 16).unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    Line {
        space,
        offset,
        size: size.parse().ok(),
        ty,
        raw,
        truncated,
        rest,
    }
}

/// Every data line's raw bytes are the stored bytes at its offset: in the file, or in the
/// inflated body for offsets inside `aswm-body`. Returns the number of lines checked.
fn raw_bytes_match(text: &str, file: &[u8], body: Option<&[u8]>) -> usize {
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let parsed = parse_line(line);
        let (Some(offset), Some(size)) = (parsed.offset, parsed.size) else {
            continue;
        };
        let bytes = match parsed.space {
            None => file,
            Some("aswm-body") => body.expect("a body to check against"),
            Some(other) => panic!("unknown offset space {other}: {line}"),
        };
        let shown = parsed.raw.len();
        assert_eq!(shown as u64, size.min(16), "{line}");
        assert_eq!(parsed.truncated, size > 16, "{line}");
        let at = offset as usize;
        assert_eq!(&bytes[at..at + shown], &parsed.raw[..], "{line}");
        checked += 1;
    }
    checked
}

#[test]
fn bwm_lines_match_offsets_computed_from_the_format_notes() {
    let dir = tempfile::tempdir().unwrap();
    // A 4 × 3 floor of unit quads, all Stone: 20 vertices, 24 triangles, all walkable.
    let wok = converted(dir.path(), "flat_floor", "wok");
    let bytes = std::fs::read(&wok).unwrap();
    let run = flat(&wok, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let find = |field: &str| -> Line<'_> {
        let line = lines
            .iter()
            .find(|l| !l.starts_with('#') && parse_line(l).rest.starts_with(field))
            .unwrap_or_else(|| panic!("no line for {field}"));
        parse_line(line)
    };
    // Layout by hand (docs/formats/bwm.md §2): header 0x88 bytes; vertices 12·20 = 240 → faces at
    // 0x178; faces 12·24 = 288 → materials at 0x298; materials 4·24 → normals at 0x2f8;
    // normals 288 → distances at 0x418; distances 96 → AABB at 0x478; 2·24−1 = 47 nodes of
    // 44 bytes = 2068 → adjacency at 0xc8c; 24 walkable rows of 12 → edges at 0xdac; the
    // floor's boundary has 2·(4+3) = 14 edges of 8 bytes → perimeters at 0xe1c; one loop.
    let expected: [(&str, u64, [u8; 4], &str); 9] = [
        ("header.vertex_count", 0x48, [20, 0, 0, 0], "= 20"),
        ("header.face_count", 0x50, [24, 0, 0, 0], "= 24"),
        ("header.face_offset", 0x54, [0x78, 1, 0, 0], "= 376 (0x178)"),
        (
            "header.material_offset",
            0x58,
            [0x98, 2, 0, 0],
            "= 664 (0x298)",
        ),
        ("header.aabb_count", 0x64, [47, 0, 0, 0], "= 47"),
        (
            "header.adjacency_offset",
            0x74,
            [0x8c, 0xc, 0, 0],
            "= 3212 (0xc8c)",
        ),
        ("header.edge_count", 0x78, [14, 0, 0, 0], "= 14"),
        (
            "header.perimeter_offset",
            0x84,
            [0x1c, 0xe, 0, 0],
            "= 3612 (0xe1c)",
        ),
        ("header.type", 0x08, [1, 0, 0, 0], "= 1 ; area (.wok)"),
    ];
    for (field, offset, raw, value) in expected {
        let line = find(field);
        assert_eq!(line.offset, Some(offset), "{field}");
        assert_eq!((line.size, line.ty), (Some(4), "u32"), "{field}");
        assert_eq!(line.raw, raw, "{field}");
        assert_eq!(line.rest, format!("{field} {value}"));
    }
    assert_eq!(bytes.len(), 0xe1c + 4);
    // Stone is code 4 and walkable in the KotOR profile.
    let material = find("materials[5]");
    assert_eq!(material.offset, Some(0x298 + 4 * 5));
    assert_eq!(material.raw, [4, 0, 0, 0]);
    assert_eq!(material.rest, "materials[5] = 4 ; Stone, walkable");
    let perimeter = find("perimeters[0]");
    assert_eq!(perimeter.offset, Some(0xe1c));
    assert_eq!(perimeter.rest, "perimeters[0] = 14 ; loop 0: edges 0 to 13");
    // The AABB root (pre-order node 0) is an inner node; every node stores 4 at 0x1C.
    let face = find("aabb[0].face");
    assert_eq!((face.offset, face.ty), (Some(0x478 + 0x18), "i32"));
    assert_eq!(face.rest, "aabb[0].face = -1 ; none (inner node)");
    assert_eq!(find("aabb[46].unknown").raw, [4, 0, 0, 0]);
    let transition = find("edges[13].transition");
    assert_eq!(transition.offset, Some(0xdac + 8 * 13 + 4));
    assert_eq!(transition.rest, "edges[13].transition = -1 ; none");
    // Adjacency values are 3·face + edge, −1 for none (docs/formats/bwm.md §3(d)).
    let row = find("adjacency[0]");
    assert_eq!((row.offset, row.ty), (Some(0xc8c), "i32[3]"));
    let values: Vec<i32> = row
        .raw
        .chunks(4)
        .map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    let meaning: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(edge, &v)| match v {
            -1 => format!("edge {edge}: none"),
            v => format!("edge {edge}: face {} edge {}", v / 3, v % 3),
        })
        .collect();
    assert!(
        row.rest.ends_with(&format!(" ; {}", meaning.join(", "))),
        "{}",
        row.rest
    );
    assert!(
        values.iter().any(|&v| v >= 0),
        "a floor triangle has a neighbour"
    );
    assert!(raw_bytes_match(&run.stdout, &bytes, None) > 300);
}

#[test]
fn section_shows_one_part_and_names_them_all_when_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let wok = converted(dir.path(), "flat_floor", "wok");
    let run = flat(&wok, &["--section", "materials"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data: Vec<&str> = run.stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(data.len(), 24);
    for (i, line) in data.iter().enumerate() {
        let line = parse_line(line);
        assert_eq!(line.offset, Some(0x298 + 4 * i as u64));
        assert!(line.rest.starts_with(&format!("materials[{i}] = ")));
    }
    // The same section as a tree.
    let json = walkmesh(os(&[
        &"dump",
        &wok,
        &"--format",
        &"json",
        &"--section",
        &"edges",
    ]));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let tree: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(tree["name"], "edges");
    assert_eq!(tree["children"].as_array().unwrap().len(), 14);
    let missing = flat(&wok, &["--section", "nothing"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stdout.is_empty());
    assert!(
        missing.stderr.contains(
            "header, vertices, faces, materials, normals, distances, aabb, adjacency, edges, perimeters"
        ),
        "{}",
        missing.stderr
    );
}

/// The ASWM payload of a TRN/TRX inflated here, from the container layout alone (docs/formats/nwn2.md
/// §1): header 12 bytes, directory of (fourcc, offset), packet = fourcc, size, payload;
/// payload = "COMP", compressed size, uncompressed size, zlib stream.
fn inflate_aswm(file: &[u8]) -> Vec<u8> {
    let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let count = word(8);
    let packet = (0..count)
        .map(|i| 12 + 8 * i)
        .find(|&entry| &file[entry..entry + 4] == b"ASWM")
        .map(|entry| word(entry + 4))
        .unwrap();
    let payload = packet + 8;
    assert_eq!(&file[payload..payload + 4], b"COMP");
    let compressed = word(payload + 4);
    let mut body = Vec::new();
    flate2::read::ZlibDecoder::new(&file[payload + 12..payload + 12 + compressed])
        .read_to_end(&mut body)
        .unwrap();
    assert_eq!(body.len(), word(payload + 8));
    body
}

fn check_extracted_body(trx: &Path, dir: &Path) {
    let file = std::fs::read(trx).unwrap();
    let inflated = inflate_aswm(&file);
    let out = dir.join("body.bin");
    let run = walkmesh(os(&[
        &"dump",
        &trx,
        &"--extract",
        &"aswm-body",
        &"-o",
        &out,
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), inflated, "{}", trx.display());
    // Offsets inside the body line up with the extracted file, the others with the file.
    let dump = flat(trx, &[]);
    assert_eq!(dump.code, 0, "{}", dump.stderr);
    assert!(
        dump.stdout
            .contains("\naswm-body:0x00000025         4  u32 ")
    );
    assert!(raw_bytes_match(&dump.stdout, &file, Some(&inflated)) > 100);
    // A section of the body alone keeps its offsets.
    let triangles = flat(trx, &["--section", "aswm.triangles"]);
    let first = triangles
        .stdout
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap();
    assert!(first.starts_with("aswm-body:0x"), "{first}");
    assert!(first.contains("aswm.triangles[0].vertices = "), "{first}");
}

#[test]
fn extract_writes_the_inflated_aswm_body_that_offsets_point_into() {
    let dir = tempfile::tempdir().unwrap();
    let trx = converted(dir.path(), "two_rooms", "trx");
    check_extracted_body(&trx, dir.path());
    // A BWM table comes out as its bytes.
    let wok = converted(dir.path(), "flat_floor", "wok");
    let out = dir.path().join("faces.bin");
    let run = walkmesh(os(&[&"dump", &wok, &"--extract", &"faces", &"-o", &out]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&wok).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), &bytes[0x178..0x298]);
    let unknown = walkmesh(os(&[&"dump", &wok, &"--extract", &"nothing", &"-o", &out]));
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .contains("its sections are: header, vertices")
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn extract_writes_the_inflated_aswm_body_of_real_trx_files() {
    let dir = tempfile::tempdir().unwrap();
    let shared = required_corpora();
    let trx_files =
        walkmesh_core::testing::files_with_extensions(&shared.join("nwn2"), &["trx", "trn"]);
    assert!(!trx_files.is_empty());
    for trx in trx_files.iter().take(3) {
        check_extracted_body(trx, dir.path());
    }
}

#[test]
fn undecoded_packets_and_other_formats_show_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["glb", "path", "gltf"] {
        let file = converted(dir.path(), "two_rooms", ext);
        let bytes = std::fs::read(&file).unwrap();
        let run = flat(&file, &[]);
        assert_eq!(run.code, 0, "{ext}: {}", run.stderr);
        let checked = raw_bytes_match(&run.stdout, &bytes, None);
        assert!(checked > 10 || ext == "gltf", "{ext}: {checked}");
    }
    let glb = dir.path().join("two_rooms.glb");
    let json = flat(&glb, &["--section", "json"]);
    assert!(
        json.stdout.contains("json.asset.version = \"2.0\""),
        "{}",
        json.stdout
    );
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn undecoded_packets_of_a_real_trn_show_their_bytes() {
    let shared = required_corpora();
    let trn = walkmesh_core::testing::files_with_extensions(&shared.join("nwn2"), &["trn"]);
    let trn = trn.first().expect("the shared corpora have TRN files");
    // TRRN/WATR payloads are not decoded: they are there as 16-byte hex rows.
    let mut run = flat(trn, &["--section", "trrn"]);
    if run.code != 0 {
        run = flat(trn, &["--section", "watr"]);
    }
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = run
        .stdout
        .lines()
        .filter(|l| l.contains(".payload |"))
        .count();
    assert!(rows > 10, "{}", &run.stdout[..run.stdout.len().min(2000)]);
    let file = std::fs::read(trn).unwrap();
    raw_bytes_match(&run.stdout, &file, None);
}
