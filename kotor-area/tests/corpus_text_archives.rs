//! Real LYT, VIS and module archives from `shared/corpora/kotor-areas` (see its SOURCES.md).
//! Files written here for the PyKotor peer check go to `$WALKMESH_PEER_DIR/area/` with a JSON
//! sidecar of what our reader sees (`.ci/peers/area.sh`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::json;
use walkmesh_core::testing::{files_with_extensions, required_corpora_dir};
use walkmesh_kotor_area::erf::{Archive, split_member_path};
use walkmesh_kotor_area::lyt::{canonical_lyt, check_lyt, read_lyt, write_lyt};
use walkmesh_kotor_area::vis::{check_vis, read_vis, write_vis};

/// `kotor-areas` of the shared corpora (the tests calling this are ignored without them).
fn areas() -> PathBuf {
    let dir = required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR"))).join("kotor-areas");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    dir
}

pub fn peer_dir() -> PathBuf {
    let dir = match std::env::var_os("WALKMESH_PEER_DIR") {
        Some(dir) => PathBuf::from(dir).join("area"),
        None => std::env::temp_dir().join(format!("walkmesh-peer-area-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn lyt_json(lyt: &walkmesh_kotor_area::Lyt) -> serde_json::Value {
    let list = |l: &[walkmesh_kotor_area::Placement]| {
        l.iter()
            .map(|p| json!([p.name, p.position]))
            .collect::<Vec<_>>()
    };
    json!({
        "rooms": list(&lyt.rooms),
        "tracks": list(&lyt.tracks),
        "obstacles": list(&lyt.obstacles),
        "doorhooks": lyt.door_hooks.iter().map(|h| json!([h.room, h.door, h.position, h.orientation])).collect::<Vec<_>>(),
    })
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_lyt_round_trips_and_canonical_reads_back() {
    let dir = areas();
    let files = files_with_extensions(&dir, &["lyt"]);
    assert_eq!(files.len(), 7, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let (lyt, findings) =
            read_lyt(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(write_lyt(&lyt), bytes, "{}", file.display());
        assert!(lyt.header.iter().any(|l| l.starts_with("filedependancy")));
        // Only m12ac carries stray text after donelayout; no file has a count mismatch.
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
        if name == "m12ac.lyt" {
            assert_eq!(codes, ["lyt.text_after_donelayout"]);
        } else {
            assert!(codes.is_empty(), "{name}: {codes:?}");
        }
        // Every door hook line in the corpus has BioWare's integer 0.
        assert!(lyt.door_hooks.iter().all(|h| h.flag == Some(0)));
        let canonical = canonical_lyt(&lyt);
        let (back, back_findings) = read_lyt(&canonical).unwrap();
        assert!(back_findings.is_empty());
        assert_eq!(back.rooms, lyt.rooms);
        assert_eq!(back.door_hooks, lyt.door_hooks);
        assert_eq!(back.header, lyt.header);
        let stem = format!("{}_canonical", name.trim_end_matches(".lyt"));
        let out = peer_dir();
        std::fs::write(out.join(format!("{stem}.lyt")), &canonical).unwrap();
        std::fs::write(
            out.join(format!("{stem}.lyt.json")),
            serde_json::to_vec_pretty(&lyt_json(&lyt)).unwrap(),
        )
        .unwrap();
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn corpus_layout_facts() {
    let dir = areas();
    let (lyt, _) =
        read_lyt(&std::fs::read(dir.join("K1_Community_Patch/m40ad/m40ad.lyt")).unwrap()).unwrap();
    assert_eq!(lyt.rooms.len(), 13);
    assert_eq!(lyt.door_hooks.len(), 13);
    assert_eq!(lyt.rooms[12].name, "M40ad_777"); // the tab-indented K1CP room
    assert_eq!(lyt.door_hooks[2].orientation[3], 3.84015e-7);
    let (end, _) = read_lyt(
        &std::fs::read(dir.join("K1_Community_Patch/stunt_endbridge/stunt_endbridge.lyt")).unwrap(),
    )
    .unwrap();
    // SOURCES.md says 13; the file has 12 `****` rooms among its 16.
    assert_eq!(end.rooms.iter().filter(|r| r.name == "****").count(), 12);
    // Its door hooks name M01aa rooms that the cutscene layout does not contain.
    let unknown = check_lyt(&end)
        .iter()
        .filter(|f| f.code == "lyt.door_hook_unknown_room")
        .count();
    assert_eq!(unknown, 13);
    assert!(check_lyt(&lyt).is_empty());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn every_vis_round_trips_and_checks_against_its_layout() {
    let dir = areas();
    let files = files_with_extensions(&dir, &["vis"]);
    assert_eq!(files.len(), 12, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let (vis, findings) =
            read_vis(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
        if name == "m17aa.vis" {
            // `m17aa_09w` is a parent line without a count.
            assert_eq!(codes, ["vis.count_missing"]);
        } else if name == "m40ad.vis" {
            // K1CP's m40ad_21a declares 2 visible rooms and lists 3 (line 45).
            assert_eq!(codes, ["vis.count_mismatch"]);
            assert_eq!(
                findings[0].location.position,
                walkmesh_core::Position::Line(45)
            );
        } else if name == "stunt_starforge.vis" {
            // Its last child line reads `  StuntRoom45ad 5`.
            assert_eq!(codes, ["vis.extra_tokens"]);
            assert_eq!(vis.rooms[5].visible[4], "StuntRoom45ad");
        } else {
            assert!(codes.is_empty(), "{name}: {codes:?}");
        }
        assert_eq!(write_vis(&vis), bytes, "{}", file.display());
        let mut changed = vis.clone();
        changed.rooms.reverse();
        let canonical = write_vis(&changed);
        let (back, _) = read_vis(&canonical).unwrap();
        assert_eq!(back.rooms, changed.rooms);
        let out = peer_dir();
        let stem = format!("{}_canonical", name.trim_end_matches(".vis"));
        std::fs::write(out.join(format!("{stem}.vis")), &canonical).unwrap();
        let map: serde_json::Map<String, serde_json::Value> = changed
            .rooms
            .iter()
            .map(|r| {
                (
                    r.name.to_ascii_lowercase(),
                    json!(
                        r.visible
                            .iter()
                            .map(|c| c.to_ascii_lowercase())
                            .collect::<Vec<_>>()
                    ),
                )
            })
            .collect();
        std::fs::write(
            out.join(format!("{stem}.vis.json")),
            serde_json::to_vec_pretty(&json!({ "rooms": map })).unwrap(),
        )
        .unwrap();
        // Against the layout of the same area, where there is one.
        let lyt_path = file.with_extension("lyt");
        if lyt_path.exists() {
            let (lyt, _) = read_lyt(&std::fs::read(&lyt_path).unwrap()).unwrap();
            let findings = check_vis(&vis, Some(&lyt));
            let not_in_layout = findings
                .iter()
                .filter(|f| f.code == "vis.room_not_in_layout")
                .count();
            // m40ad's VIS and LYT agree on every name (case-insensitively).
            if name == "m40ad.vis" {
                assert_eq!(not_in_layout, 0, "{findings:?}");
            }
        }
    }
}

/// Member byte ranges from SOURCES.md.
const MEMBERS: &[(&str, &str, &str, usize, usize)] = &[
    (
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod",
        "m12ac.lyt",
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/m12ac.lyt",
        2218812,
        2219600,
    ),
    (
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod",
        "m12ac.vis",
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/m12ac.vis",
        2219740,
        2221537,
    ),
    (
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod",
        "m12aa_42a.wok",
        "KotOR-Mods/K1R_ebo_m40aa_m12ac/m12aa_42a.wok",
        2208290,
        2209738,
    ),
    (
        "KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_paztourney.mod",
        "k1r_pazak.lyt",
        "KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_pazak.lyt",
        197885,
        199677,
    ),
    (
        "KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_paztourney.mod",
        "k1r_pazak.vis",
        "KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_pazak.vis",
        211409,
        213944,
    ),
];

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn real_archives_list_and_extract_the_documented_ranges() {
    let dir = areas();
    for (archive_path, member, file, start, end) in MEMBERS {
        let bytes = std::fs::read(dir.join(archive_path)).unwrap();
        let archive = Archive::parse(&bytes).unwrap();
        let found = archive.find(member).unwrap();
        assert_eq!(found.source_range(), Some(*start..*end), "{member}");
        let data = archive.extract(member).unwrap();
        assert_eq!(data, &bytes[*start..*end]);
        assert_eq!(data, std::fs::read(dir.join(file)).unwrap().as_slice());
        assert_eq!(archive.write().unwrap(), bytes, "unchanged archive");
    }
    let ebo = Archive::parse(
        &std::fs::read(dir.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod")).unwrap(),
    )
    .unwrap();
    assert_eq!(ebo.members.len(), 45);
    assert_eq!(ebo.of_type(2016).count(), 1);
    let paz = Archive::parse(
        &std::fs::read(dir.join("KotOR-Mods/K1R_k1r_paztourney_k1r_pazak/k1r_paztourney.mod"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(paz.members.len(), 218);
    assert_eq!(paz.of_type(2016).count(), 0);
    assert_eq!(paz.of_type(2053).count(), 1);
    // Every member's range lies inside the file and ranges do not overlap.
    let mut ranges: Vec<_> = paz
        .members
        .iter()
        .filter_map(|m| m.source_range())
        .collect();
    ranges.sort_by_key(|r| r.start);
    assert!(ranges.windows(2).all(|w| w[0].end <= w[1].start));
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn replacing_one_wok_keeps_every_other_member() {
    let dir = areas();
    let path = dir.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod");
    let bytes = std::fs::read(&path).unwrap();
    let original = Archive::parse(&bytes).unwrap();
    let mut archive = original.clone();
    // A different, valid walkmesh: the member rewritten with every table rebuilt.
    let wok = archive.extract("m12aa_42a.wok").unwrap().to_vec();
    let mut diag = walkmesh_core::Diagnostics::new();
    let mesh = walkmesh_bwm::read_bwm(
        walkmesh_core::Input {
            bytes: &wok,
            path: None,
        },
        &walkmesh_core::ReadOptions::default(),
        &mut diag,
    )
    .unwrap();
    let rebuilt = walkmesh_bwm::write_bwm(
        &mesh,
        &walkmesh_core::WriteOptions {
            rebuild: true,
            ..Default::default()
        },
        &mut diag,
    )
    .unwrap()
    .main;
    let mut replacement = rebuilt.clone();
    // Change the room's position so the member really differs.
    replacement[0x3C..0x40].copy_from_slice(&191.0f32.to_le_bytes());
    assert!(archive.put("m12aa_42a.wok", replacement.clone()).unwrap());
    let written = archive.write().unwrap();
    let back = Archive::parse(&written).unwrap();
    assert_eq!(back.members.len(), original.members.len());
    for (a, b) in original.members.iter().zip(&back.members) {
        assert_eq!(
            (&a.name, a.type_id, a.resource_id),
            (&b.name, b.type_id, b.resource_id)
        );
        if a.name == "m12aa_42a" && a.type_id == 2016 {
            assert_eq!(back.data(b), replacement.as_slice());
        } else {
            assert_eq!(back.data(b), original.data(a), "{}", a.file_name());
        }
    }
    // Header fields we keep: build year and day, description.
    assert_eq!(&written[32..160], &bytes[32..160]);
    let out = peer_dir();
    std::fs::write(out.join("ebo_m40aa_replaced.mod"), &written).unwrap();
    let listing: Vec<serde_json::Value> = back
        .members
        .iter()
        .map(|m| json!([m.name, m.type_id, back.data(m).len(), fnv(back.data(m))]))
        .collect();
    std::fs::write(
        out.join("ebo_m40aa_replaced.mod.json"),
        serde_json::to_vec_pretty(&json!({ "members": listing })).unwrap(),
    )
    .unwrap();
    assert_eq!(
        split_member_path("ebo_m40aa.mod:m12aa_42a.wok"),
        Some(("ebo_m40aa.mod", "m12aa_42a.wok"))
    );
}

/// FNV-1a 64 of `bytes`, as a hex string (the peer script computes the same).
pub fn fnv(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x100000001b3);
    }
    format!("{hash:016x}")
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn truncated_and_flipped_corpus_files_never_panic() {
    let dir = areas();
    for file in files_with_extensions(&dir, &["lyt", "vis"]) {
        let bytes = std::fs::read(&file).unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            let _ = read_lyt(&bytes[..cut]);
            let _ = read_vis(&bytes[..cut]);
        }
        for i in (0..bytes.len()).step_by(5) {
            let mut flipped = bytes.clone();
            flipped[i] ^= 0x5a;
            let _ = read_lyt(&flipped);
            let _ = read_vis(&flipped);
        }
    }
    let bytes = std::fs::read(dir.join("KotOR-Mods/K1R_ebo_m40aa_m12ac/ebo_m40aa.mod")).unwrap();
    for cut in (0..1700).chain((bytes.len() - 64)..bytes.len()) {
        assert!(Archive::parse(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    for i in 0..1700 {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0xff;
        if let Ok(archive) = Archive::parse(&flipped) {
            for m in &archive.members {
                let _ = archive.data(m);
            }
        }
    }
}
