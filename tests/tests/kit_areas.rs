#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Whole areas of real rooms the generator never saw as an area: the shared kit rooms
//! (`kotor-models/pykotor-kits/`) placed door hook to door hook, as the Indoor Map Builder
//! places them, from the door hooks the kit descriptions list
//! (`kotor-areas/PyKotor/kits/*.json`). KotOR layouts only move rooms (no rotation), so two
//! rooms join where one's hook faces the opposite way of the other's: the second room is moved
//! so its hook lies on the first's. A room is only placed where its walkmesh overlaps no room
//! already placed.
//!
//! The yardstick: every door-to-door connection of the layout must become a transition pair
//! both ways in the WOKs `walkmesh generate DIR --lyt AREA.lyt --out-dir OUT` writes, and no
//! other room pair may be linked. BioWare's own kit WOKs, placed the same way, are checked to
//! meet exactly those pairs first (so the layout, not only our generator, is under test).
//! The rooms' floors must end on their models' doorway lines: aligning facing doorways
//! (`walkmesh_generate::doorways`) moves no vertex by more than 1 cm.
//! Each kit gives one area per room with two or more hooks, grown from that room (the same
//! rooms and doors reached from two starts are one area).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use walkmesh_core::NavMesh;
use walkmesh_kotor_area::transitions::{DEFAULT_TOLERANCE, RoomMesh, solve};
use walkmesh_tests::walkmesh;

/// Pairs of layout rooms (indices, smaller first).
type RoomPairs = BTreeSet<(usize, usize)>;

/// A door hook of a kit room, in room coordinates, and the plan direction pointing out of the
/// room through it (from BioWare's walkmesh: away from the walkable face whose boundary edge
/// the hook lies on).
#[derive(Clone, Copy, Debug)]
struct Hook {
    position: [f32; 3],
    outward: [f32; 2],
}

/// A kit room with its model, BioWare's walkmesh and its door hooks.
struct KitRoom {
    id: String,
    model_dir: PathBuf,
    reference: NavMesh,
    hooks: Vec<Hook>,
}

/// A room of a layout: which kit room, and where the layout moves it.
struct Placed {
    room: usize,
    offset: [f32; 3],
}

/// An area: rooms placed and the door connections (layout room index pairs, smaller first).
struct KitArea {
    kit: String,
    rooms: Vec<Placed>,
    connections: BTreeSet<(usize, usize)>,
}

fn read_wok(path: &Path) -> NavMesh {
    walkmesh_kotor_area::kits::read_wok(&std::fs::read(path).unwrap()).unwrap()
}

/// Walkable boundary edges of `mesh` (edges of one walkable face only, by position), each with
/// the face's third corner.
fn walkable_rim(mesh: &NavMesh) -> Vec<([f32; 3], [f32; 3], [f32; 3])> {
    let key = |v: [f32; 3]| v.map(f32::to_bits);
    let mut uses = std::collections::HashMap::new();
    for p in (0..mesh.polygons.len()).filter(|&p| mesh.is_walkable(p)) {
        let c = mesh.polygons.get(p);
        for k in 0..3 {
            let (a, b) = (key(mesh.vertex(c[k])), key(mesh.vertex(c[(k + 1) % 3])));
            *uses.entry(if a < b { (a, b) } else { (b, a) }).or_insert(0) += 1;
        }
    }
    let mut rim = Vec::new();
    for p in (0..mesh.polygons.len()).filter(|&p| mesh.is_walkable(p)) {
        let c = mesh.polygons.get(p);
        for k in 0..3 {
            let (a, b) = (mesh.vertex(c[k]), mesh.vertex(c[(k + 1) % 3]));
            let (ka, kb) = (key(a), key(b));
            if uses[&if ka < kb { (ka, kb) } else { (kb, ka) }] == 1 {
                rim.push((a, b, mesh.vertex(c[(k + 2) % 3])));
            }
        }
    }
    rim
}

/// Plan distance from `p` to the segment `a`–`b`.
fn distance_to_segment(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let length2 = d[0] * d[0] + d[1] * d[1];
    let t = if length2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * d[0]).hypot(p[1] - a[1] - t * d[1])
}

/// The hook's outward direction: the normal of the walkable boundary edge nearest it (within
/// 0.25 m in plan and 0.5 m up), pointing away from its face. `None` when no edge is that near.
fn outward(reference: &NavMesh, at: [f32; 3]) -> Option<[f32; 2]> {
    let rim = walkable_rim(reference);
    let (distance, (a, b, third)) = rim
        .iter()
        .filter(|(a, b, _)| (a[2] - at[2]).abs() < 0.5 || (b[2] - at[2]).abs() < 0.5)
        .map(|e| {
            let d = distance_to_segment([at[0], at[1]], [e.0[0], e.0[1]], [e.1[0], e.1[1]]);
            (d, *e)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))?;
    if distance > 0.25 {
        return None;
    }
    let d = [b[0] - a[0], b[1] - a[1]];
    let length = d[0].hypot(d[1]);
    let mut n = [d[1] / length, -d[0] / length];
    if n[0] * (third[0] - a[0]) + n[1] * (third[1] - a[1]) > 0.0 {
        n = [-n[0], -n[1]];
    }
    Some(n)
}

/// The kit's rooms that have a model in the shared corpora, with their hooks.
fn kit_rooms(corpora: &Path, kit: &str) -> Vec<KitRoom> {
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(corpora.join(format!("kotor-areas/PyKotor/kits/{kit}.json"))).unwrap(),
    )
    .unwrap();
    let model_dir = corpora.join("kotor-models/pykotor-kits").join(kit);
    let mut rooms = Vec::new();
    for component in json["components"].as_array().unwrap() {
        let id = component["id"].as_str().unwrap().to_string();
        if !model_dir.join(format!("{id}.mdl")).is_file() {
            continue;
        }
        let reference = read_wok(&corpora.join(format!("kotor/pykotor-kits/{kit}/{id}.wok")));
        let mut hooks: Vec<Hook> = Vec::new();
        for hook in component["doorhooks"].as_array().unwrap() {
            let position = ["x", "y", "z"].map(|k| hook[k].as_f64().unwrap() as f32);
            // A hook listed twice (endarspire's bridge_1) is one door.
            if hooks.iter().any(|h| h.position == position) {
                continue;
            }
            if let Some(outward) = outward(&reference, position) {
                hooks.push(Hook { position, outward });
            }
        }
        rooms.push(KitRoom {
            id,
            model_dir: model_dir.clone(),
            reference,
            hooks,
        });
    }
    rooms.sort_by(|a, b| a.id.cmp(&b.id));
    rooms
}

/// Walkable triangles of a room moved by `offset`, in plan.
fn plan_triangles(mesh: &NavMesh, offset: [f32; 3]) -> Vec<[[f32; 2]; 3]> {
    (0..mesh.polygons.len())
        .filter(|&p| mesh.is_walkable(p))
        .map(|p| {
            let c = mesh.polygons.get(p);
            [0, 1, 2].map(|k| {
                let v = mesh.vertex(c[k]);
                [v[0] + offset[0], v[1] + offset[1]]
            })
        })
        .collect()
}

/// Whether `p` lies inside the triangle by more than `margin` from each of its edges.
fn deep_inside(p: [f32; 2], t: &[[f32; 2]; 3], margin: f32) -> bool {
    let area2 =
        (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]);
    if area2.abs() < 1e-6 {
        return false;
    }
    (0..3).all(|k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let length = (b[0] - a[0]).hypot(b[1] - a[1]);
        cross * area2.signum() / length > margin
    })
}

/// Whether two rooms' walkable floors overlap in plan (more than a sliver along a shared
/// edge): a 0.5 m grid over the overlap of their bounds, a point counting when it lies deep
/// inside a triangle of each.
fn floors_overlap(a: &[[[f32; 2]; 3]], b: &[[[f32; 2]; 3]]) -> bool {
    let bounds = |ts: &[[[f32; 2]; 3]]| {
        let mut min = [f32::MAX; 2];
        let mut max = [f32::MIN; 2];
        for p in ts.iter().flatten() {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        (min, max)
    };
    let ((amin, amax), (bmin, bmax)) = (bounds(a), bounds(b));
    let min = [amin[0].max(bmin[0]), amin[1].max(bmin[1])];
    let max = [amax[0].min(bmax[0]), amax[1].min(bmax[1])];
    let mut y = min[1];
    while y <= max[1] {
        let mut x = min[0];
        while x <= max[0] {
            let p = [x, y];
            if a.iter().any(|t| deep_inside(p, t, 0.1)) && b.iter().any(|t| deep_inside(p, t, 0.1))
            {
                return true;
            }
            x += 0.5;
        }
        y += 0.5;
    }
    false
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Grows an area of the kit's rooms from room `start`: each free hook in turn takes the first
/// unused room (by id) with a hook facing it that fits without overlapping a placed room.
/// Hooks of different rooms that end up on one point facing each other connect too.
fn grow_area(kit: &str, rooms: &[KitRoom], start: usize) -> KitArea {
    let mut placed = vec![Placed {
        room: start,
        offset: [0.0; 3],
    }];
    let mut used_hooks: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut connections = BTreeSet::new();
    let mut next = 0;
    while next < placed.len() {
        for hook_index in 0..rooms[placed[next].room].hooks.len() {
            if used_hooks.contains(&(next, hook_index)) {
                continue;
            }
            let hook = rooms[placed[next].room].hooks[hook_index];
            let at = add(hook.position, placed[next].offset);
            let floors: Vec<_> = placed
                .iter()
                .map(|p| plan_triangles(&rooms[p.room].reference, p.offset))
                .collect();
            'candidates: for (candidate, room) in rooms.iter().enumerate() {
                if placed.iter().any(|p| p.room == candidate) {
                    continue;
                }
                for (their_index, theirs) in room.hooks.iter().enumerate() {
                    let facing =
                        hook.outward[0] * theirs.outward[0] + hook.outward[1] * theirs.outward[1];
                    if facing > -0.99 {
                        continue;
                    }
                    let offset = [
                        at[0] - theirs.position[0],
                        at[1] - theirs.position[1],
                        at[2] - theirs.position[2],
                    ];
                    let floor = plan_triangles(&room.reference, offset);
                    if floors.iter().any(|f| floors_overlap(f, &floor)) {
                        continue;
                    }
                    let slot = placed.len();
                    placed.push(Placed {
                        room: candidate,
                        offset,
                    });
                    used_hooks.insert((next, hook_index));
                    used_hooks.insert((slot, their_index));
                    connections.insert((next, slot));
                    break 'candidates;
                }
            }
        }
        next += 1;
    }
    // Hooks that met by chance (two rooms placed from elsewhere) are doors too.
    let world: Vec<(usize, usize, [f32; 3], [f32; 2])> = placed
        .iter()
        .enumerate()
        .flat_map(|(slot, p)| {
            rooms[p.room]
                .hooks
                .iter()
                .enumerate()
                .map(move |(h, hook)| (slot, h, add(hook.position, p.offset), hook.outward))
        })
        .collect();
    for (i, a) in world.iter().enumerate() {
        for b in &world[i + 1..] {
            let near =
                (a.2[0] - b.2[0]).hypot(a.2[1] - b.2[1]) < 0.05 && (a.2[2] - b.2[2]).abs() < 0.1;
            if a.0 != b.0 && near && a.3[0] * b.3[0] + a.3[1] * b.3[1] < -0.99 {
                connections.insert((a.0.min(b.0), a.0.max(b.0)));
            }
        }
    }
    KitArea {
        kit: kit.to_string(),
        rooms: placed,
        connections,
    }
}

/// The room pairs (layout indices, smaller first) that `transitions` of each room link, and
/// whether every link is answered by the other room.
fn linked_pairs(leads_to: &[Vec<usize>]) -> (RoomPairs, Vec<(usize, usize)>) {
    let mut pairs = BTreeSet::new();
    let mut one_way = Vec::new();
    for (room, targets) in leads_to.iter().enumerate() {
        for &target in targets {
            pairs.insert((room.min(target), room.max(target)));
            if !leads_to.get(target).is_some_and(|t| t.contains(&room)) {
                one_way.push((room, target));
            }
        }
    }
    (pairs, one_way)
}

/// The layout text: every room at its offset, the hooks that joined as door hooks.
fn layout_text(area: &KitArea, rooms: &[KitRoom]) -> String {
    let mut text = format!("beginlayout\nroomcount {}\n", area.rooms.len());
    for p in &area.rooms {
        let o = p.offset;
        text.push_str(&format!(
            "  {} {} {} {}\n",
            rooms[p.room].id, o[0], o[1], o[2]
        ));
    }
    let hooks: Vec<String> = area
        .rooms
        .iter()
        .flat_map(|p| {
            rooms[p.room]
                .hooks
                .iter()
                .enumerate()
                .map(move |(h, hook)| {
                    let w = add(hook.position, p.offset);
                    format!(
                        "  {} door_{h} 0 {} {} {} 0 0 0 1\n",
                        rooms[p.room].id, w[0], w[1], w[2]
                    )
                })
        })
        .collect();
    text.push_str(&format!(
        "trackcount 0\nobstaclecount 0\ndoorhookcount {}\n",
        hooks.len()
    ));
    text.extend(hooks);
    text.push_str("donelayout\n");
    text
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn kit_rooms_placed_door_hook_to_door_hook_are_linked_at_every_door_and_nowhere_else() {
    let corpora = walkmesh_tests::required_corpora();
    let mut kits: Vec<String> = std::fs::read_dir(corpora.join("kotor-models/pykotor-kits"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kits.sort();
    assert!(kits.len() >= 5, "{kits:?}");
    let mut failures = Vec::new();
    let mut areas = 0;
    for kit in &kits {
        let rooms = kit_rooms(&corpora, kit);
        let mut seen = BTreeSet::new();
        for start in (0..rooms.len()).filter(|&r| rooms[r].hooks.len() >= 2) {
            let area = grow_area(kit, &rooms, start);
            // A room none of whose hooks another room fits (endarspire's hallway_3) is no area.
            if area.rooms.len() < 2 {
                continue;
            }
            let mut members: Vec<usize> = area.rooms.iter().map(|p| p.room).collect();
            members.sort_unstable();
            let doors: BTreeSet<(usize, usize)> = area
                .connections
                .iter()
                .map(|&(a, b)| {
                    let (a, b) = (area.rooms[a].room, area.rooms[b].room);
                    (a.min(b), a.max(b))
                })
                .collect();
            if !seen.insert((members, doors)) {
                continue;
            }
            areas += 1;
            check_area(&area, &rooms, &mut failures);
        }
    }
    assert!(areas >= 10, "{areas} areas in all");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Checks one area (module documentation); a generated area that differs from its doors is
/// added to `failures`.
fn check_area(area: &KitArea, rooms: &[KitRoom], failures: &mut Vec<String>) {
    let kit = &area.kit;
    // BioWare's own walkmeshes, placed the same way, meet at exactly these doors.
    let meshes: Vec<RoomMesh> = area
        .rooms
        .iter()
        .enumerate()
        .map(|(slot, p)| {
            let mut mesh = rooms[p.room].reference.clone();
            for v in &mut mesh.vertices {
                *v = add(*v, p.offset);
            }
            RoomMesh {
                lyt_index: slot,
                name: rooms[p.room].id.clone(),
                mesh,
            }
        })
        .collect();
    let solution = solve(&meshes, meshes.len(), DEFAULT_TOLERANCE);
    let leads: Vec<Vec<usize>> = (0..meshes.len())
        .map(|slot| {
            let mut to: Vec<usize> = solution
                .room_transitions(slot)
                .into_values()
                .filter(|&t| t >= 0 && t as usize != slot)
                .map(|t| t as usize)
                .collect();
            to.sort();
            to.dedup();
            to
        })
        .collect();
    let (reference_pairs, _) = linked_pairs(&leads);
    assert_eq!(
        reference_pairs, area.connections,
        "{kit}: BioWare's kit walkmeshes placed hook to hook"
    );
    // Generated from the models.
    let dir = tempfile::tempdir().unwrap();
    for p in &area.rooms {
        let room = &rooms[p.room];
        for ext in ["mdl", "mdx"] {
            let name = format!("{}.{ext}", room.id);
            std::fs::copy(room.model_dir.join(&name), dir.path().join(&name)).unwrap();
        }
    }
    let lyt = dir.path().join(format!("{kit}.lyt"));
    std::fs::write(&lyt, layout_text(area, rooms)).unwrap();
    let out = dir.path().join("out");
    let run = walkmesh([
        "generate".as_ref(),
        dir.path().as_os_str(),
        "--lyt".as_ref(),
        lyt.as_os_str(),
        "--out-dir".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
    ]);
    assert_eq!(run.code, 0, "{kit}: {}\n{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let names: Vec<&str> = area
        .rooms
        .iter()
        .map(|p| rooms[p.room].id.as_str())
        .collect();
    let leads: Vec<Vec<usize>> = json["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|room| {
            room["leads_to"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| {
                    names
                        .iter()
                        .position(|m| *m == n.as_str().unwrap())
                        .unwrap()
                })
                .collect()
        })
        .collect();
    let (pairs, one_way) = linked_pairs(&leads);
    let most_moved = json["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|room| room["doorway"]["max_move"].as_f64().unwrap())
        .fold(0.0, f64::max);
    // Each room's floor ends on its model's own doorway line (floor_ends.rs), so the rooms
    // already meet there: aligning them moves nothing by more than 1 cm (the kit models'
    // lines differ by up to 4 mm; the voxel contours were 3–4 cm off).
    if most_moved > 0.01 {
        failures.push(format!(
            "{kit}: doorway vertices moved up to {most_moved:.4} m onto the shared line"
        ));
    }
    let name_pairs = |set: &BTreeSet<(usize, usize)>| -> Vec<String> {
        set.iter()
            .map(|&(a, b)| format!("{}–{}", names[a], names[b]))
            .collect()
    };
    if pairs != area.connections || !one_way.is_empty() {
        failures.push(format!(
            "{kit}: doors {:?}, generated links {:?}, one way {one_way:?}",
            name_pairs(&area.connections),
            name_pairs(&pairs)
        ));
    }
    eprintln!(
        "{} ({} rooms): doors {:?}, generated {:?}",
        area.kit,
        area.rooms.len(),
        name_pairs(&area.connections),
        name_pairs(&pairs)
    );
}
