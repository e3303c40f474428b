//! Seed corpora for the fuzz targets (`fuzz/`), written by
//! `tests/tests/fuzz_regressions.rs::write_fuzz_seeds` when `WALKMESH_FUZZ_SEEDS` names a
//! folder (`.ci/peers/fuzz.sh` does that; the main build already has everything it needs).
//!
//! Per target (`<folder>/<id>/`): the project's fixtures (`corpora/`) written by our own
//! writers in every format (small, valid files of every kind), the shared real files of that
//! format up to 256 KiB, and for TRX also every one of those with its ASWM packet stored
//! uncompressed, so that mutations reach the walkmesh parser instead of failing the zlib check.
//! Nothing is copied into the repository.

use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, ReadOptions, WriteOptions, passes};

const MAX_SEED: u64 = 256 * 1024;

fn files(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, extensions, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e.to_ascii_lowercase().as_str()))
            && std::fs::metadata(&path).is_ok_and(|m| m.len() <= MAX_SEED)
        {
            out.push(path);
        }
    }
}

/// The same TRX/TRN with its ASWM packet stored as the bare body (no `COMP` wrapper).
fn uncompressed_trx(bytes: &[u8]) -> Option<Vec<u8>> {
    let container = walkmesh_nwn2::container::parse(bytes).ok()?;
    let mut bodies = Vec::new();
    for packet in &container.packets {
        if &packet.fourcc == b"ASWM" {
            let (body, _, _) = walkmesh_nwn2::aswm::unwrap_payload(
                packet.payload,
                packet.payload_offset,
                64 << 20,
            )
            .ok()?;
            bodies.push(body);
        }
    }
    let mut body = bodies.iter();
    let packets: Vec<([u8; 4], &[u8])> = container
        .packets
        .iter()
        .map(|p| {
            if &p.fourcc == b"ASWM" {
                (p.fourcc, body.next().map_or(p.payload, |b| &b[..]))
            } else {
                (p.fourcc, p.payload)
            }
        })
        .collect();
    Some(walkmesh_nwn2::container::write(
        container.major,
        container.minor,
        &packets,
    ))
}

fn save(dir: &Path, name: &str, bytes: &[u8]) {
    if bytes.len() as u64 > MAX_SEED {
        return;
    }
    let _ = std::fs::create_dir_all(dir);
    if let Err(e) = std::fs::write(dir.join(name), bytes) {
        eprintln!("cannot write {}: {e}", dir.join(name).display());
    }
}

/// Writes the seed corpora of the fuzz targets into `out/<id>/` (see the module comment),
/// from the fixtures below `root/corpora` and the shared corpora `shared` when given.
/// Returns the number of seeds per target.
pub fn write_seeds(root: &Path, out: &Path, shared: Option<&Path>) -> Vec<(&'static str, usize)> {
    let registry = walkmesh_formats::default_registry();
    let targets: [(&str, &[&str], &str); 5] = [
        ("bwm", &["wok", "pwk", "dwk", "bwm"], "wok"),
        ("trx", &["trx", "trn"], "trx"),
        ("path", &["path"], "path"),
        ("obj", &["obj"], "obj"),
        ("gltf", &["glb", "gltf"], "glb"),
    ];
    // Fixtures, written by our writers in every format.
    let mut fixtures = Vec::new();
    files(&root.join("corpora"), &["obj"], &mut fixtures);
    let obj = registry.by_id("obj").ok().and_then(|f| f.reader());
    for fixture in &fixtures {
        let (Ok(bytes), Some(reader)) = (std::fs::read(fixture), obj) else {
            continue;
        };
        let stem = fixture
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("fixture");
        let mut diag = Diagnostics::new();
        let Ok(mesh) = reader.read(
            Input {
                bytes: &bytes,
                path: None,
            },
            &ReadOptions::default(),
            &mut diag,
        ) else {
            continue;
        };
        for (id, _, extension) in targets {
            let Some(writer) = registry.by_id(id).ok().and_then(|f| f.writer()) else {
                continue;
            };
            let options = WriteOptions {
                file_name: Some(format!("{stem}.{extension}")),
                ..WriteOptions::default()
            };
            let prepared = passes::prepare(&mesh, &writer.requirements(&options), &mut diag);
            if let Ok(output) = writer.write(&prepared, &options, &mut diag) {
                let dir = out.join(id);
                save(&dir, &format!("fixture_{stem}.{extension}"), &output.main);
                if id == "trx"
                    && let Some(raw) = uncompressed_trx(&output.main)
                {
                    save(&dir, &format!("fixture_{stem}_raw.trx"), &raw);
                }
            }
        }
    }
    // Real files.
    if let Some(shared) = shared.filter(|s| s.is_dir()) {
        for (id, extensions, _) in targets {
            let mut real = Vec::new();
            files(shared, extensions, &mut real);
            let dir = out.join(id);
            for (n, path) in real.iter().enumerate() {
                let Ok(bytes) = std::fs::read(path) else {
                    continue;
                };
                let name = path
                    .file_name()
                    .and_then(|s| s.to_str())
                    .unwrap_or("file")
                    .to_string();
                save(&dir, &format!("{n:04}_{name}"), &bytes);
                if id == "trx"
                    && let Some(raw) = uncompressed_trx(&bytes)
                {
                    save(&dir, &format!("{n:04}_raw_{name}"), &raw);
                }
            }
        }
    }
    targets
        .iter()
        .map(|(id, _, _)| {
            (
                *id,
                std::fs::read_dir(out.join(id)).map_or(0, |d| d.count()),
            )
        })
        .collect()
}
