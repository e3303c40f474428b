//! One hostile input through a KotOR area reader (ERF/MOD/RIM archives, LYT layouts, VIS
//! visibility, kit JSON, Indoor Map Builder `.indoor` maps) and what is built on it: the
//! readers, the checks, and for the text and archive formats write → read of what was read.
//! Shared, like `exercise.rs`, by the cargo-fuzz targets (`fuzz/`, which include this file by
//! path) and by the regression tests of fuzz findings (`tests/tests/fuzz_regressions.rs`).
//!
//! It panics only on a real bug: a panic inside the library, or bytes one of our writers
//! produced from a file we read that our own reader then refuses or reads differently.

use walkmesh_kotor_area::DEFAULT_TOLERANCE;
use walkmesh_kotor_area::erf::Archive;
use walkmesh_kotor_area::kits::{
    IndoorMap, Kit, Transform, build_indoor, hook_positions, link_hooks, read_wok,
};
use walkmesh_kotor_area::lyt::{Lyt, canonical_lyt, check_lyt, read_lyt, write_lyt};
use walkmesh_kotor_area::vis::{Vis, VisRoom, check_vis, read_vis, write_vis};

/// The fuzz targets (and `corpora/fuzz/` folders) this harness serves.
pub const AREA_TARGETS: [&str; 5] = ["erf", "lyt", "vis", "kit", "indoor"];

/// Largest archive member read as a walkmesh while fuzzing: the BWM reader has its own fuzz
/// target, and a large member would only slow this one down.
const MAX_MEMBER_WOK: usize = 64 * 1024;

/// Runs `bytes` through the reader of `target` (one of [`AREA_TARGETS`]).
pub fn exercise_area(target: &str, bytes: &[u8]) {
    match target {
        "erf" => archive(bytes),
        "lyt" => layout(bytes),
        "vis" => visibility(bytes),
        "kit" => kit(bytes),
        "indoor" => indoor(bytes),
        _ => {}
    }
}

/// An archive: listed, each member taken out (layouts, visibility and walkmeshes read as such),
/// then laid out again with one member added, which must read back with every member intact.
#[allow(clippy::panic)]
fn archive(bytes: &[u8]) {
    let _ = Archive::sniff(bytes);
    let Ok(archive) = Archive::parse(bytes) else {
        return;
    };
    for member in &archive.members {
        let data = archive.data(member);
        let name = member.file_name();
        // What `area extract` does with the name before writing (issue #33: the bytes FF FE
        // read as "ÿþ" and the device-name check cut them at byte 3).
        names_as_files(&name);
        let _ = archive.find(&name);
        let _ = member.source_range();
        match name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("lyt") => layout(data),
            Some("vis") => visibility(data),
            Some("wok" | "pwk" | "dwk") if data.len() <= MAX_MEMBER_WOK => {
                let _ = read_wok(data);
            }
            _ => {}
        }
    }
    let mut changed = archive.clone();
    let added = b"beginlayout\r\ndonelayout\r\n".to_vec();
    if changed.put("fuzzadded.lyt", added).is_err() {
        return;
    }
    // The writer may refuse an archive it cannot lay out (with a sentence saying why).
    let Ok(written) = changed.write() else {
        return;
    };
    let back = Archive::parse(&written)
        .unwrap_or_else(|e| panic!("an archive we laid out does not read back: {e}"));
    assert_eq!(
        back.members.len(),
        changed.members.len(),
        "members lost or gained laying the archive out again"
    );
    for (before, after) in changed.members.iter().zip(&back.members) {
        assert_eq!(before.type_id, after.type_id, "{}", before.file_name());
        assert_eq!(
            changed.data(before),
            back.data(after),
            "the bytes of {} changed laying the archive out again",
            before.file_name()
        );
    }
}

/// A name from file data made a file name and shown, as the commands do: the checks must not
/// panic, whatever characters the name holds.
fn names_as_files(name: &str) {
    let _ = walkmesh_core::confine::check(name);
    let _ = walkmesh_core::confine::join(
        std::path::Path::new("out"),
        name,
        "fuzzed name",
        std::path::Path::new("fuzz"),
    );
    let _ = walkmesh_core::printable::escape(name);
}

/// Names and counts of a layout's sections, what a write must keep.
fn layout_shape(lyt: &Lyt) -> Vec<Vec<String>> {
    [&lyt.rooms, &lyt.tracks, &lyt.obstacles]
        .iter()
        .map(|list| list.iter().map(|p| p.name.clone()).collect())
        .chain(std::iter::once(
            lyt.door_hooks.iter().map(|h| h.door.clone()).collect(),
        ))
        .collect()
}

/// A layout: read, checked, written back unchanged and in canonical form, which must read back
/// with the same rooms, tracks, obstacles and door hooks.
#[allow(clippy::panic)]
fn layout(bytes: &[u8]) {
    let Ok((lyt, _)) = read_lyt(bytes) else {
        return;
    };
    let _ = check_lyt(&lyt);
    // What `lint --fix`, `area split` and `area solve` do with room names before writing
    // `<room>.wok` (issue #33: room `ABé` panicked there).
    for room in &lyt.rooms {
        names_as_files(&room.name);
        names_as_files(&format!("{}.wok", room.name));
    }
    // The checks every per-room writer makes first (issue #51): one name per room file, and
    // each position one 32-bit floats hold to 1 mm, with a room's points moved there; the
    // refusals' messages are printed.
    let file = std::path::Path::new("fuzz.lyt");
    if let Err(repeated) = walkmesh_kotor_area::placed::unique_rooms(&lyt, file) {
        let _ = repeated.to_string();
    }
    for room in &lyt.rooms {
        let mut corners = [[0.0, 0.0, 0.0], [10.0, -10.0, 3.0]];
        if let Err(far) = walkmesh_kotor_area::placed::place(room, &mut corners, file) {
            let _ = far.to_string();
        }
    }
    assert!(
        !lyt.is_unchanged() || write_lyt(&lyt) == bytes,
        "an unchanged layout is not written back as read"
    );
    let canonical = canonical_lyt(&lyt);
    let (back, _) = read_lyt(&canonical)
        .unwrap_or_else(|e| panic!("a canonical layout we wrote does not read back: {e}"));
    assert_eq!(
        layout_shape(&back),
        layout_shape(&lyt),
        "the canonical layout lost or renamed an entry"
    );
}

/// Visibility: read, checked, written back unchanged and with one room added, which must read
/// back with every room and its visible rooms.
#[allow(clippy::panic)]
fn visibility(bytes: &[u8]) {
    let Ok((vis, _)) = read_vis(bytes) else {
        return;
    };
    let _ = check_vis(&vis, None);
    assert!(
        !vis.is_unchanged() || write_vis(&vis) == bytes,
        "unchanged visibility is not written back as read"
    );
    let mut edited: Vis = vis.clone();
    edited.rooms.push(VisRoom {
        name: "fuzzadded".to_string(),
        visible: vec!["fuzzadded".to_string()],
    });
    let written = write_vis(&edited);
    let (back, _) = read_vis(&written)
        .unwrap_or_else(|e| panic!("visibility we wrote does not read back: {e}"));
    assert_eq!(
        back.rooms, edited.rooms,
        "rooms changed through write → read"
    );
}

/// A kit: its components' door hooks placed (as given and turned by each hook's rotation),
/// their doors looked up, and the hooks of all components linked where they meet.
fn kit(bytes: &[u8]) {
    let Ok(kit) = Kit::parse(bytes) else {
        return;
    };
    let mut hooks = Vec::new();
    for component in &kit.components {
        let _ = kit.component(&component.name);
        for hook in &component.doorhooks {
            let _ = kit.door_width(hook);
            let turned = Transform {
                rotation: hook.rotation,
                ..Transform::default()
            };
            let _ = turned.hook_rotation(hook.rotation);
            hooks.push(hook_positions(component, &turned));
        }
        hooks.push(hook_positions(component, &Transform::default()));
    }
    let _ = link_hooks(&hooks);
}

/// An Indoor Map Builder map: every room's placement applied, then the whole map built with no
/// kits loaded (each room then names a kit that is missing, which must be a finding).
fn indoor(bytes: &[u8]) {
    let Ok(map) = IndoorMap::parse(bytes) else {
        return;
    };
    for room in &map.rooms {
        let transform = Transform {
            position: room.position,
            rotation: room.rotation,
            flip_x: room.flip_x,
            flip_y: room.flip_y,
        };
        let _ = transform.apply([1.0, 2.0, 3.0]);
        let _ = transform.hook_rotation(90.0);
        let _ = transform.mirrors();
    }
    let _ = build_indoor(&map, &[], DEFAULT_TOLERANCE);
}
