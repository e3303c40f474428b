//! Seed corpora for the fuzz targets (`fuzz/`), written by
//! `tests/tests/fuzz_regressions.rs::write_fuzz_seeds` when `WALKMESH_FUZZ_SEEDS` names a
//! folder (`.ci/peers/fuzz.sh` does that; the main build already has everything it needs).
//!
//! Per target (`<folder>/<id>/`): the project's fixtures (`corpora/`) written by our own
//! writers in every format (small, valid files of every kind), the shared real files of that
//! format up to 256 KiB, and for TRX also every one of those with its ASWM packet stored
//! uncompressed, so that mutations reach the walkmesh parser instead of failing the zlib check.
//! The KotOR area targets (`erf`, `lyt`, `vis`, `kit`, `indoor`) get small files written here
//! (an archive of our own holding a fixture as WOK with a layout and visibility), the shared
//! `kotor-areas` files of their kind up to 256 KiB, and for `erf` the shared module archives
//! (too large as they are) laid out again with their members of up to 16 KiB.
//! The KotOR model target (`mdl`) gets a hand-built room model (`walkmesh_mdl::synthetic`) of
//! each game, with and without its `.mdx` appended, and the shared room models (`.mdl` then
//! `.mdx`, see `exercise_model.rs`) up to 256 KiB together.
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

/// A layout of two rooms, one door hook, a track and an obstacle, as our own seed.
const OWN_LYT: &[u8] = b"beginlayout\r\n   roomcount 2\r\n      room_a 0 0 0\r\n      room_b 10 0 0\r\n   trackcount 1\r\n      track_a 1 2 3\r\n   obstaclecount 1\r\n      obstacle_a 4 5 6\r\n   doorhookcount 1\r\n      room_a door_ab 0 5 0 0 1 0 0 0\r\ndonelayout\r\n";

/// A layout whose names hold characters of more than one byte, as UTF-8 (`ABé`: 41 42 C3 A9)
/// and as raw high bytes (FF FE), so the fuzzer starts from them (issue #33).
const OWN_LYT_MULTIBYTE: &[u8] = b"beginlayout\r\n   roomcount 2\r\n      AB\xc3\xa9 0 0 0\r\n      \xff\xfe 10 0 0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      \xff\xfe d\xc3\xa9 0 5 0 0 1 0 0 0\r\ndonelayout\r\n";

/// Visibility of the two rooms of [`OWN_LYT`].
const OWN_VIS: &[u8] = b"room_a 2\r\n  room_a\r\n  room_b\r\nroom_b 1\r\n  room_a\r\n";

/// A kit of one component with two door hooks and one door.
const OWN_KIT: &[u8] = br#"{"name": "Fuzz", "id": "fuzz", "doors": [{"width": 2.5, "height": 3.0}],
"components": [{"name": "Room", "id": "room", "doorhooks": [
{"x": 0.0, "y": 5.0, "z": 0.0, "rotation": 90.0, "door": 0, "edge": 20},
{"x": 10.0, "y": 5.0, "z": 0.0, "rotation": 270.0, "door": 0, "edge": 21}]}]}"#;

/// A map placing that component twice, once mirrored.
const OWN_INDOOR: &[u8] = br#"{"moduleId": "fuzz01", "rooms": [
{"position": [0.0, 0.0, 0.0], "rotation": 0.0, "kit": "Fuzz", "component": "Room"},
{"position": [10.0, 0.0, 0.0], "rotation": 180.0, "flip_x": true, "kit": "Fuzz", "component": "Room"}]}"#;

/// Largest member kept when a shared module archive is laid out again as a seed.
const MAX_SEED_MEMBER: usize = 16 * 1024;

/// Our own archive seeds: a MOD and a RIM holding `wok` (a fixture written as WOK, when there
/// is one), [`OWN_LYT`] and [`OWN_VIS`].
fn own_archives(wok: Option<&[u8]>) -> Vec<(String, Vec<u8>)> {
    use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
    let mut seeds = Vec::new();
    for (name, kind) in [
        ("own.mod", ArchiveKind::Erf(*b"MOD ")),
        ("own.rim", ArchiveKind::Rim),
    ] {
        let mut archive = Archive::new(kind);
        let mut members = vec![
            ("room_a.lyt", OWN_LYT.to_vec()),
            ("room_a.vis", OWN_VIS.to_vec()),
        ];
        if let Some(wok) = wok {
            members.push(("room_a.wok", wok.to_vec()));
        }
        if members
            .into_iter()
            .all(|(member, bytes)| archive.put(member, bytes).is_ok())
            && let Ok(bytes) = archive.write()
        {
            seeds.push((name.to_string(), bytes));
        }
    }
    seeds
}

/// A module whose member names hold the bytes FF FE and the UTF-8 bytes of `é` (the writer
/// takes only ASCII names, so the names are put in place in the key table afterwards).
fn archive_with_multibyte_names() -> Option<Vec<u8>> {
    use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    archive.put("zzzzzzzzzzz1.lyt", OWN_LYT.to_vec()).ok()?;
    archive.put("zzzzzzzzzzz2.vis", OWN_VIS.to_vec()).ok()?;
    let mut bytes = archive.write().ok()?;
    for (placeholder, name) in [
        (&b"zzzzzzzzzzz1"[..], &b"\xff\xfe"[..]),
        (b"zzzzzzzzzzz2", b"AB\xc3\xa9"),
    ] {
        let at = bytes
            .windows(placeholder.len())
            .position(|w| w == placeholder)?;
        let field = bytes.get_mut(at..at + 16)?;
        field.fill(0);
        field.get_mut(..name.len())?.copy_from_slice(name);
    }
    Some(bytes)
}

/// The shared module archive `bytes` laid out again with its members of up to
/// [`MAX_SEED_MEMBER`] bytes, so that it fits a seed.
fn smaller_archive(bytes: &[u8]) -> Option<Vec<u8>> {
    use walkmesh_kotor_area::erf::Archive;
    let archive = Archive::parse(bytes).ok()?;
    let mut small = Archive::new(archive.kind);
    for member in &archive.members {
        let data = archive.data(member);
        if data.len() <= MAX_SEED_MEMBER {
            small.put(&member.file_name(), data.to_vec()).ok()?;
        }
    }
    small.write().ok()
}

/// Writes the seeds of the KotOR area targets (see the module comment).
fn write_area_seeds(out: &Path, shared: Option<&Path>, wok: Option<&[u8]>) {
    for (target, name, bytes) in [
        ("lyt", "own.lyt", OWN_LYT),
        ("lyt", "own_multibyte.lyt", OWN_LYT_MULTIBYTE),
        ("vis", "own.vis", OWN_VIS),
        ("kit", "own.json", OWN_KIT),
        ("indoor", "own.indoor", OWN_INDOOR),
    ] {
        save(&out.join(target), name, bytes);
    }
    for (name, bytes) in own_archives(wok) {
        save(&out.join("erf"), &name, &bytes);
    }
    if let Some(bytes) = archive_with_multibyte_names() {
        save(&out.join("erf"), "own_multibyte.mod", &bytes);
    }
    let Some(areas) = shared.map(|s| s.join("kotor-areas")).filter(|a| a.is_dir()) else {
        return;
    };
    for (target, extensions) in [
        ("lyt", &["lyt"][..]),
        ("vis", &["vis"]),
        ("kit", &["json"]),
        ("indoor", &["indoor"]),
        ("erf", &["mod", "erf", "rim", "sav", "hak"]),
    ] {
        let mut real = Vec::new();
        files(&areas, extensions, &mut real);
        for (n, path) in real.iter().enumerate() {
            if let Ok(bytes) = std::fs::read(path) {
                let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("file");
                save(&out.join(target), &format!("{n:04}_{name}"), &bytes);
            }
        }
    }
    // The module archives are larger than a seed may be: their small members, laid out again.
    let archives = walkmesh_core::testing::files_with_extensions(&areas, &["mod", "erf", "rim"]);
    for (n, path) in archives.iter().enumerate() {
        if let Some(bytes) = std::fs::read(path).ok().and_then(|b| smaller_archive(&b)) {
            let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("file");
            save(&out.join("erf"), &format!("{n:04}_small_{name}"), &bytes);
        }
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
    // The area targets; their archives hold the first fixture written as WOK.
    let fixture_wok = std::fs::read_dir(out.join("bwm")).ok().and_then(|entries| {
        let mut woks: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        woks.sort();
        woks.first().and_then(|p| std::fs::read(p).ok())
    });
    write_area_seeds(out, shared, fixture_wok.as_deref());
    write_model_seeds(out, shared);
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
        .map(|(id, _, _)| *id)
        .chain(crate::exercise_area::AREA_TARGETS)
        .chain(["mdl"])
        .map(|id| (id, std::fs::read_dir(out.join(id)).map_or(0, |d| d.count())))
        .collect()
}

/// The seeds of the `mdl` target in `out/mdl/` (see the module comment).
pub fn write_model_seeds(out: &Path, shared: Option<&Path>) {
    use walkmesh_mdl::synthetic::{SyntheticMesh, SyntheticNode, build};
    let dir = out.join("mdl");
    let mut floor = SyntheticNode::trimesh(
        "floor",
        1,
        SyntheticMesh {
            texture: "floor01".into(),
            vertices: vec![[0.0; 3], [4.0, 0.0, 0.0], [4.0, 4.0, 0.0], [0.0, 4.0, 0.0]],
            faces: vec![([0, 1, 2], 1), ([0, 2, 3], 2)],
            render: true,
        },
    );
    floor.position = [1.0, 0.0, 0.0];
    let mut walk = SyntheticNode::trimesh(
        "walk",
        0,
        SyntheticMesh {
            texture: "NULL".into(),
            vertices: vec![[0.0; 3], [4.0, 0.0, 0.0], [4.0, 4.0, 0.0], [0.0, 4.0, 0.0]],
            faces: vec![([0, 1, 2], 4), ([0, 2, 3], 7)],
            render: false,
        },
    );
    walk.flags =
        walkmesh_mdl::flags::HEADER | walkmesh_mdl::flags::MESH | walkmesh_mdl::flags::AABB;
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let nodes = [
        SyntheticNode::dummy("room", None, [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        SyntheticNode::dummy("turned", Some(0), [2.0, 0.0, 0.0], [half, 0.0, 0.0, half]),
        floor,
        walk,
    ];
    for (name, game) in [
        ("k1", walkmesh_mdl::Game::Kotor1),
        ("k2", walkmesh_mdl::Game::Kotor2),
    ] {
        let built = build(game, "seed", &nodes);
        save(&dir, &format!("own_{name}.mdl"), &built.mdl);
        let mut both = built.mdl.clone();
        both.extend_from_slice(&built.mdx);
        save(&dir, &format!("own_{name}_with_mdx.mdl"), &both);
    }
    let Some(shared) = shared.filter(|s| s.is_dir()) else {
        return;
    };
    let mut models = Vec::new();
    files(&shared.join("kotor-models"), &["mdl"], &mut models);
    for (n, path) in models.iter().enumerate() {
        let (Ok(mut bytes), Ok(mdx)) = (
            std::fs::read(path),
            std::fs::read(path.with_extension("mdx")),
        ) else {
            continue;
        };
        bytes.extend_from_slice(&mdx);
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("model");
        save(&dir, &format!("{n:04}_{name}"), &bytes);
    }
}
