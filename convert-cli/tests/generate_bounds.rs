#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Issue #51: `walkmesh generate` on odd but legal input never exhausts memory and never
//! works on a picture 32-bit cells cannot hold. Each case runs the real process under an
//! address-space cap, so that a regression aborts (and fails) instead of taking the machine:
//! memory is estimated stage by stage before it is allocated and refused above
//! `--max-memory`, naming the option and the estimate; scenes and parameters out of range are
//! refused by name. Nothing is written in either case.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

mod common;
use common::{bounded_by, code};

/// Address space of one run (KiB): 2 GiB. Every `--max-memory` below stays well under it,
/// with room for the binary, the reader's copy of the input and the allocator.
const ADDRESS_SPACE_KIB: u64 = 2 << 20;
/// A hang guard only; every case here ends in well under a second when it works.
const LIMIT: Duration = Duration::from_secs(120);

fn generate(args: &[&str]) -> Output {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    bounded_by(&all, ADDRESS_SPACE_KIB, LIMIT)
}

fn stderr(run: &Output) -> String {
    String::from_utf8_lossy(&run.stderr).into_owned()
}

/// A 10 × 8 m floor, two triangles, Y up as Blender exports it (63 bytes in the report).
fn floor(dir: &Path) -> PathBuf {
    let path = dir.join("floor.obj");
    std::fs::write(
        &path,
        "v 0 0 0\nv 10 0 0\nv 10 0 -8\nv 0 0 -8\nf 1 2 3\nf 1 3 4\n",
    )
    .unwrap();
    path
}

fn assert_refused(run: &Output, out: &Path, needles: &[&str]) {
    assert_eq!(code(run), Some(2), "{run:?}");
    let text = stderr(run);
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} not in: {text}");
    }
    assert!(!out.exists(), "{} was written", out.display());
}

/// Fine cells over a small floor: 20 M columns at 2 mm, 11 M at 3 mm (1.6 GB before).
/// Refused by the estimate, naming the stage, the estimate and the option; the same floor
/// generates at the default cells, and a limit the estimate fits lets it through.
#[test]
fn fine_cells_are_refused_by_their_estimate_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let input = floor(dir.path());
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.wok");
    let out_text = out.to_str().unwrap();
    for cell in ["0.002", "0.003"] {
        let run = generate(&[
            input,
            "-o",
            out_text,
            "--cell-size",
            cell,
            "--max-memory",
            "512",
        ]);
        assert_refused(
            &run,
            &out,
            &["needs an estimated", "limit of 512 MiB", "--max-memory"],
        );
    }
    let run = generate(&[input, "-o", out_text, "--json", "--max-memory", "64"]);
    assert_eq!(code(&run), Some(0), "{run:?}");
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let estimate = json["report"]["memory_estimate"].as_u64().unwrap();
    assert!(estimate > 0 && estimate < 64 << 20, "{estimate}");
    assert_eq!(json["report"]["params"]["max_memory_mib"], 64);
}

/// A GLB whose 1,800 nodes instance one 2,000-triangle mesh: 3.6 M triangles from a file of
/// a few hundred KB, within `--max-decompressed` (2.3 GB peak before). Refused by the
/// estimate at `--max-memory 512`.
#[test]
fn a_glb_instancing_one_mesh_many_times_is_refused_by_its_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("instanced.glb");
    std::fs::write(&input, instanced_glb(1800)).unwrap();
    let out = dir.path().join("out.wok");
    let run = generate(&[
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--max-memory",
        "512",
    ]);
    assert_refused(&run, &out, &["needs an estimated", "--max-memory"]);
}

/// The reproducers as the issue gave them, with no `--max-memory`, in a process whose address
/// space is capped at 2 GiB (`ulimit -v`): the default limit follows the cap (half of it), so
/// each is refused by its estimate instead of aborting on an allocation the system denies (the
/// fixed 4096 MiB default let the 2 mm floor reach an 800 MB allocation that failed). The
/// floor at 3 mm cells fits since the walkable graph's 24-byte nodes (issue #48: an estimate
/// of 911 MiB, a peak of 629 MiB) and is generated, as at 5 mm.
#[test]
fn the_default_limit_follows_an_address_space_cap() {
    let dir = tempfile::tempdir().unwrap();
    let input = floor(dir.path());
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.wok");
    let out_text = out.to_str().unwrap();
    let run = generate(&[input, "-o", out_text, "--cell-size", "0.002"]);
    assert_refused(
        &run,
        &out,
        &["needs an estimated", "limit of 1024 MiB", "--max-memory"],
    );
    let run = generate(&[input, "-o", out_text, "--cell-size", "0.003"]);
    assert_eq!(code(&run), Some(0), "{run:?}");
    assert!(out.exists());
    std::fs::remove_file(&out).unwrap();
    let glb = dir.path().join("instanced.glb");
    std::fs::write(&glb, instanced_glb(1800)).unwrap();
    let run = generate(&[glb.to_str().unwrap(), "-o", out_text]);
    assert_refused(&run, &out, &["needs an estimated", "--max-memory"]);
    let run = generate(&[input, "-o", out_text, "--cell-size", "0.005", "--json"]);
    assert_eq!(code(&run), Some(0), "{run:?}");
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["report"]["params"]["max_memory_mib"], 1024);
    assert!(out.exists());
}

/// A stray vertex at x = 1e30 beside the floor (a 1 × 83 grid and "no walkable floor"
/// before), one triangle 1e6 m away with the generic preset (2.8 GB before), and a glTF node
/// scaled by 1e30: refused as out of range, naming the corner.
#[test]
fn far_corners_are_refused_naming_the_corner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.wok");
    let out_text = out.to_str().unwrap();
    let stray = dir.path().join("stray.obj");
    std::fs::write(
        &stray,
        "v 0 0 0\nv 10 0 0\nv 10 0 -8\nv 0 0 -8\nv 1e30 0 0\nv 1e30 0 1\nv 1e30 1 0\nf 1 2 3\nf 1 3 4\nf 5 6 7\n",
    )
    .unwrap();
    let run = generate(&[stray.to_str().unwrap(), "-o", out_text]);
    assert_refused(&run, &out, &["out of range", "a corner lies at (1e30, "]);
    let far = dir.path().join("far.obj");
    std::fs::write(
        &far,
        "v 0 0 0\nv 10 0 0\nv 10 0 -8\nv 0 0 -8\nv 1e6 0 0\nv 1000001 0 0\nv 1e6 0 -1\nf 1 2 3\nf 1 3 4\nf 5 6 7\n",
    )
    .unwrap();
    let generic = dir.path().join("out.obj");
    let run = generate(&[
        far.to_str().unwrap(),
        "-o",
        generic.to_str().unwrap(),
        "--engine",
        "generic",
    ]);
    assert_refused(
        &run,
        &generic,
        &[
            "out of range",
            "1000001 m from the origin 32-bit floats step 0.0625 m",
        ],
    );
    let scaled = dir.path().join("scaled.gltf");
    std::fs::write(&scaled, scaled_gltf(1e30)).unwrap();
    let run = generate(&[scaled.to_str().unwrap(), "-o", out_text]);
    assert_refused(&run, &out, &["out of range", "a corner lies at"]);
    // The same file at scale 1 generates.
    std::fs::write(&scaled, scaled_gltf(1.0)).unwrap();
    let run = generate(&[scaled.to_str().unwrap(), "-o", out_text]);
    assert_eq!(code(&run), Some(0), "{run:?}");
}

/// Parameters that no 32-bit cell can hold, or that make cells meaningless, are refused by
/// name; a passage width wider than the whole grid is answered (no floor is that wide)
/// without looping over its width (7 s before).
#[test]
fn parameters_out_of_range_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = floor(dir.path());
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.wok");
    let out_text = out.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["--agent-height", "1e9"],
            &["agent_height", "1e9 m is 2.000e10 steps"],
        ),
        (&["--cell-height", "1e-9"], &["cell_height", "finer than"]),
        (&["--cell-size", "1e-9"], &["cell_size", "finer than"]),
        (
            &["--cell-size", "1e9"],
            &["cell_size", "wider than the 2.2 m agent is tall"],
        ),
    ];
    for (options, needles) in cases {
        let mut args = vec![input, "-o", out_text];
        args.extend_from_slice(options);
        let run = generate(&args);
        assert_refused(&run, &out, needles);
    }
    let run = generate(&[input, "-o", out_text, "--min-passage-width", "1e9"]);
    assert_refused(&run, &out, &["no walkable floor"]);
    assert!(stderr(&run).contains("narrower than the passage width"));
}

/// A glTF (JSON, buffer inline) of one 10 × 8 m floor quad under a node scaled by `scale`.
fn scaled_gltf(scale: f32) -> String {
    let positions: [[f32; 3]; 4] = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [10.0, 0.0, -8.0],
        [0.0, 0.0, -8.0],
    ];
    let mut bin = Vec::new();
    for p in positions {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2, 0, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
"nodes":[{{"mesh":0,"scale":[{scale:e},{scale:e},{scale:e}]}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,-8],"max":[10,0,0]}},
{{"bufferView":1,"componentType":5123,"count":6,"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":48}},{{"buffer":0,"byteOffset":48,"byteLength":12}}],
"buffers":[{{"byteLength":60,"uri":"data:application/octet-stream;base64,{}"}}]}}"#,
        base64(&bin)
    )
}

/// A GLB of one 2,000-triangle floor patch (5 × 5 m, 20 × 50 quads) instanced by `nodes`
/// nodes, 6 m apart on rows of 60.
fn instanced_glb(nodes: usize) -> Vec<u8> {
    let (columns, rows) = (20u16, 50u16);
    let mut bin = Vec::new();
    for r in 0..=rows {
        for c in 0..=columns {
            let p = [
                f32::from(c) * 5.0 / f32::from(columns),
                0.0,
                -f32::from(r) * 5.0 / f32::from(rows),
            ];
            for v in p {
                bin.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let positions = bin.len();
    let at = |r: u16, c: u16| r * (columns + 1) + c;
    let mut count = 0;
    for r in 0..rows {
        for c in 0..columns {
            for i in [
                at(r, c),
                at(r, c + 1),
                at(r + 1, c + 1),
                at(r, c),
                at(r + 1, c + 1),
                at(r + 1, c),
            ] {
                bin.extend_from_slice(&i.to_le_bytes());
                count += 1;
            }
        }
    }
    let indices = bin.len() - positions;
    let vertices = usize::from((columns + 1) * (rows + 1));
    let node_list: Vec<String> = (0..nodes)
        .map(|n| {
            let (x, z) = ((n % 60) as f32 * 6.0, (n / 60) as f32 * 6.0);
            format!(r#"{{"mesh":0,"translation":[{x},0,{z}]}}"#)
        })
        .collect();
    let roots: Vec<String> = (0..nodes).map(|n| n.to_string()).collect();
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[{}]}}],"nodes":[{}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":{vertices},"type":"VEC3","min":[0,0,-5],"max":[5,0,0]}},
{{"bufferView":1,"componentType":5123,"count":{count},"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":{positions}}},{{"buffer":0,"byteOffset":{positions},"byteLength":{indices}}}],
"buffers":[{{"byteLength":{}}}]}}"#,
        roots.join(","),
        node_list.join(","),
        bin.len()
    );
    glb(json.as_bytes(), &bin)
}

/// JSON and BIN chunks wrapped into a .glb (written here, independent of our writer).
fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |bytes: &[u8], with: u8| {
        let mut out = bytes.to_vec();
        while !out.len().is_multiple_of(4) {
            out.push(with);
        }
        out
    };
    let (json, bin) = (pad(json, b' '), pad(bin, 0));
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
