//! Holocron Toolset kits and Indoor Map Builder maps (`.indoor`).
//!
//! A kit JSON lists components with door hooks (`x`, `y`, `z`, `rotation` in degrees, `door`,
//! `edge`); a component's walkmesh is `<kit id>/<component id>.wok` beside the JSON, in the
//! component's own coordinates, with its door edges carrying placeholder transitions (20, 21,
//! …; a hook's `edge` names the placeholder of the edge it sits on). An `.indoor` map lists
//! rooms (`kit`, `component`, `position`, `rotation`, `flip_x`, `flip_y`, optionally a base64
//! `walkmesh_override` in component coordinates).
//!
//! [`build_indoor`] does what the builder does, with transitions that move with their edges
//! under a flip: transform each room's walkmesh (flip, rotate about Z, translate), connect two
//! rooms when hooks of theirs lie within [`HOOK_TOLERANCE`], replace each placeholder by the
//! connected room's LYT index or −1, then solve every transition from geometry
//! ([`crate::transitions`]) so that nothing stale survives (overrides taken from game modules
//! carry indices from their original module), and write the LYT.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use walkmesh_core::{Diagnostic, EdgeRef, EdgeTag, Location, NavMesh, Position, Severity};

use crate::error::AreaError;
use crate::lyt::{DoorHook, Lyt, Placement};
use crate::transitions::{self, RoomMesh, Solution};

/// Two hooks closer than this connect their rooms (the builder's own rule).
pub const HOOK_TOLERANCE: f64 = 0.001;
/// Kit WOKs number their door-edge placeholders from this value.
pub const FIRST_PLACEHOLDER: i32 = 20;

/// A door hook of a kit component, in the component's coordinates.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct KitHook {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    /// Degrees about Z: the direction the door faces out of the component.
    #[serde(default)]
    pub rotation: f64,
    /// Index into the kit's `doors`.
    #[serde(default)]
    pub door: i64,
    /// The placeholder transition of the perimeter edge the hook sits on.
    pub edge: i32,
}

/// A kit component.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct KitComponent {
    pub name: String,
    pub id: String,
    #[serde(default)]
    pub doorhooks: Vec<KitHook>,
}

/// A door template of a kit (only its size matters here).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct KitDoor {
    #[serde(default)]
    pub width: f64,
    #[serde(default)]
    pub height: f64,
}

/// A kit JSON.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Kit {
    pub name: String,
    pub id: String,
    #[serde(default)]
    pub components: Vec<KitComponent>,
    #[serde(default)]
    pub doors: Vec<KitDoor>,
}

impl Kit {
    /// Reads a kit JSON.
    pub fn parse(bytes: &[u8]) -> Result<Kit, AreaError> {
        serde_json::from_slice(bytes).map_err(|source| AreaError::Json {
            what: "a kit JSON",
            source,
        })
    }

    /// Width of the door `hook` opens on, when the kit gives a positive finite one.
    pub fn door_width(&self, hook: &KitHook) -> Option<f64> {
        usize::try_from(hook.door)
            .ok()
            .and_then(|i| self.doors.get(i))
            .map(|d| d.width)
            .filter(|w| w.is_finite() && *w > 0.0)
    }

    /// The component named `name` (its `name` or `id`, case-insensitive).
    pub fn component(&self, name: &str) -> Option<&KitComponent> {
        self.components
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name) || c.id.eq_ignore_ascii_case(name))
    }
}

/// A kit and the folder holding its component WOKs (`<folder>/<component id>.wok`).
#[derive(Clone, Debug)]
pub struct LoadedKit {
    pub kit: Kit,
    pub wok_dir: PathBuf,
}

/// Loads every `*.json` kit in `json_dir`; component WOKs are looked up in
/// `<wok_root>/<kit id>/`. Files that are not kits are skipped.
pub fn load_kits(json_dir: &Path, wok_root: &Path) -> Result<Vec<LoadedKit>, AreaError> {
    let entries = std::fs::read_dir(json_dir).map_err(|source| AreaError::Io {
        action: "list",
        path: json_dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        })
        .collect();
    paths.sort();
    let mut kits = Vec::new();
    for path in paths {
        let bytes = walkmesh_core::files::read(&path).map_err(|source| AreaError::Io {
            action: "read",
            path: path.clone(),
            source,
        })?;
        if let Ok(kit) = Kit::parse(&bytes) {
            let wok_dir = walkmesh_core::confine::join(wok_root, &kit.id, "kit id", &path)?;
            kits.push(LoadedKit { kit, wok_dir });
        }
    }
    Ok(kits)
}

/// A room of an `.indoor` map.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct IndoorRoom {
    pub kit: String,
    pub component: String,
    pub position: [f64; 3],
    #[serde(default)]
    pub rotation: f64,
    #[serde(default)]
    pub flip_x: bool,
    #[serde(default)]
    pub flip_y: bool,
    /// A base64 BWM in component coordinates, replacing the kit's walkmesh.
    #[serde(default)]
    pub walkmesh_override: Option<String>,
}

/// An `.indoor` map.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct IndoorMap {
    /// `module_id` (older builders wrote `moduleId`).
    #[serde(alias = "moduleId")]
    pub module_id: String,
    pub rooms: Vec<IndoorRoom>,
}

impl IndoorMap {
    /// Reads an `.indoor` file.
    pub fn parse(bytes: &[u8]) -> Result<IndoorMap, AreaError> {
        serde_json::from_slice(bytes).map_err(|source| AreaError::Json {
            what: "an Indoor Map Builder map",
            source,
        })
    }
}

/// How a room is placed: flip, then rotate about Z (degrees, counter-clockwise), then move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Transform {
    pub position: [f64; 3],
    pub rotation: f64,
    pub flip_x: bool,
    pub flip_y: bool,
}

impl Transform {
    /// Where point `p` of the component lands.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let x = if self.flip_x { -p[0] } else { p[0] };
        let y = if self.flip_y { -p[1] } else { p[1] };
        let (sin, cos) = self.rotation.to_radians().sin_cos();
        [
            x * cos - y * sin + self.position[0],
            x * sin + y * cos + self.position[1],
            p[2] + self.position[2],
        ]
    }

    /// True when the transform mirrors (exactly one flip), which reverses triangle winding.
    pub fn mirrors(&self) -> bool {
        self.flip_x != self.flip_y
    }

    /// Direction, in degrees, that a hook facing `rotation` faces after the transform. Kit
    /// hooks measure it counter-clockwise from +Y (0° faces +Y, 90° faces −X, as the kits'
    /// door edges show).
    pub fn hook_rotation(&self, rotation: f64) -> f64 {
        let (sin, cos) = rotation.to_radians().sin_cos();
        let (mut dx, mut dy) = (-sin, cos);
        if self.flip_x {
            dx = -dx;
        }
        if self.flip_y {
            dy = -dy;
        }
        ((-dx).atan2(dy).to_degrees() + self.rotation).rem_euclid(360.0)
    }
}

/// `mesh` placed by `transform`. A mirroring transform reverses each triangle (corners
/// `a b c` become `a c b`) so faces still point up, and moves each edge's transition with its
/// edge: the new edge 0 (a→c) is the old edge 2, edge 1 stays, the new edge 2 is the old
/// edge 0. The walkmesh position becomes the transform's position.
pub fn transform_mesh(mesh: &NavMesh, transform: &Transform) -> NavMesh {
    let mut out = mesh.clone();
    out.provenance = None;
    for v in &mut out.vertices {
        let p = transform.apply([f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]);
        *v = p.map(|c| c as f32);
    }
    out.origin = transform.position.map(|c| c as f32);
    if transform.mirrors() {
        let mut polygons = walkmesh_core::Polygons::with_capacity(
            mesh.polygons.len(),
            mesh.polygons.indices().len(),
        );
        let mut reversed = Vec::new();
        for polygon in mesh.polygons.iter() {
            // Keep the first corner, reverse the rest: edge k of n becomes edge n-1-k... for
            // triangles exactly the mapping in the doc comment.
            reversed.clear();
            if let Some((&first, rest)) = polygon.split_first() {
                reversed.push(first);
                reversed.extend(rest.iter().rev());
            }
            polygons.push(&reversed);
        }
        out.polygons = polygons;
        out.edge_tags = mesh
            .edge_tags
            .iter()
            .map(|(edge, tag)| {
                let n = mesh.polygons.get(edge.polygon as usize).len() as u32;
                // Old edge k runs corner k → k+1; in the reversed polygon that edge runs
                // between new corners (n-k) % n and n-1-k, i.e. it is new edge n-1-k.
                // A tag beyond the polygon's corners (or on a missing polygon) names no edge;
                // it is kept as it was rather than guessed onto one.
                let new_edge = if edge.edge < n {
                    n - 1 - edge.edge
                } else {
                    edge.edge
                };
                (
                    EdgeRef {
                        polygon: edge.polygon,
                        edge: new_edge,
                    },
                    *tag,
                )
            })
            .collect();
    }
    for hook in &mut out.hooks {
        let p = transform.apply(hook.position.map(f64::from));
        hook.position = p.map(|c| c as f32);
    }
    out
}

/// Decodes standard base64 (padding optional, whitespace ignored).
pub fn decode_base64(text: &str) -> Result<Vec<u8>, AreaError> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buffer = 0u32;
    let mut bits = 0u32;
    for (i, c) in text.bytes().enumerate() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => {
                return Err(AreaError::Base64 {
                    index: i,
                    character: char::from(c),
                });
            }
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// Two hooks that meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HookLink {
    pub room: usize,
    pub hook: usize,
    pub other_room: usize,
    pub other_hook: usize,
}

/// The result of building a map.
#[derive(Clone, Debug, Default)]
pub struct IndoorBuild {
    pub lyt: Lyt,
    /// Rooms that have a walkmesh, in area coordinates with solved transitions.
    pub rooms: Vec<RoomMesh>,
    pub links: Vec<HookLink>,
    /// Transitions after the hook step, before the geometric solve.
    pub solution: Solution,
    pub findings: Vec<Diagnostic>,
}

fn finding(severity: Severity, code: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity,
        code: code.to_string(),
        message,
        location: Location {
            file: None,
            position: Position::None,
            field: None,
        },
    }
}

/// World positions of the hooks of `component` placed by `transform`.
pub fn hook_positions(component: &KitComponent, transform: &Transform) -> Vec<[f64; 3]> {
    component
        .doorhooks
        .iter()
        .map(|h| transform.apply([h.x, h.y, h.z]))
        .collect()
}

/// Pairs of hooks of different rooms within [`HOOK_TOLERANCE`] (hash grid, linear).
pub fn link_hooks(hooks: &[Vec<[f64; 3]>]) -> Vec<HookLink> {
    let cell = 2.0 * HOOK_TOLERANCE;
    let key = |p: [f64; 3]| p.map(|c| (c / cell).floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<(usize, usize)>> = HashMap::new();
    for (room, list) in hooks.iter().enumerate() {
        for (hook, &p) in list.iter().enumerate() {
            grid.entry(key(p)).or_default().push((room, hook));
        }
    }
    let mut links = Vec::new();
    for (room, list) in hooks.iter().enumerate() {
        for (hook, &p) in list.iter().enumerate() {
            let lo = key(p.map(|c| c - HOOK_TOLERANCE));
            let hi = key(p.map(|c| c + HOOK_TOLERANCE));
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        for &(other_room, other_hook) in grid.get(&[x, y, z]).into_iter().flatten()
                        {
                            if other_room == room {
                                continue;
                            }
                            let q = hooks
                                .get(other_room)
                                .and_then(|l| l.get(other_hook))
                                .copied()
                                .unwrap_or([f64::INFINITY; 3]);
                            let d2: f64 = p.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum();
                            if d2 < HOOK_TOLERANCE * HOOK_TOLERANCE {
                                links.push(HookLink {
                                    room,
                                    hook,
                                    other_room,
                                    other_hook,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    links
}

/// Replaces each placeholder transition of `mesh` (a kit room) by the LYT index of the room
/// connected at the hook whose `edge` it is, or −1 when nothing is connected there.
pub fn resolve_placeholders(
    mesh: &mut NavMesh,
    component: &KitComponent,
    connected: &[Option<usize>],
) {
    for tag in mesh.edge_tags.values_mut() {
        if let Some(k) = component
            .doorhooks
            .iter()
            .position(|h| h.edge == tag.transition)
        {
            tag.transition = connected
                .get(k)
                .copied()
                .flatten()
                .map_or(-1, |room| room as i32);
        }
    }
    mesh.edge_tags.retain(|_, tag| tag.transition != -1);
}

/// LYT room name the builder gives room `index` of module `module_id`.
pub fn room_name(module_id: &str, index: usize) -> String {
    format!("{module_id}_room{index}")
}

/// Builds a map's rooms: see the module documentation. `kits` are looked up by kit name or id
/// (case-insensitive). Rooms whose walkmesh cannot be found are reported and left without a
/// WOK (they still take their LYT slot, as in the builder).
pub fn build_indoor(
    map: &IndoorMap,
    kits: &[LoadedKit],
    tolerance: transitions::Tolerance,
) -> IndoorBuild {
    let mut findings = Vec::new();
    let mut lyt = Lyt::default();
    let mut meshes: Vec<Option<NavMesh>> = Vec::with_capacity(map.rooms.len());
    let mut components: Vec<Option<&KitComponent>> = Vec::with_capacity(map.rooms.len());
    let mut hooks: Vec<Vec<[f64; 3]>> = Vec::with_capacity(map.rooms.len());
    let mut audited = std::collections::HashSet::new();
    for (index, room) in map.rooms.iter().enumerate() {
        let transform = Transform {
            position: room.position,
            rotation: room.rotation,
            flip_x: room.flip_x,
            flip_y: room.flip_y,
        };
        let name = room_name(&map.module_id, index);
        if name.len() > crate::text::RESREF_MAX {
            findings.push(finding(
                Severity::Error,
                "indoor.room_name_too_long",
                format!("room {index} would be named '{name}', longer than 16 characters; use a shorter module id"),
            ));
        }
        lyt.rooms.push(Placement {
            name: name.clone(),
            position: room.position.map(|c| c as f32),
            line: None,
        });
        let kit = kits.iter().find(|k| {
            k.kit.name.eq_ignore_ascii_case(&room.kit) || k.kit.id.eq_ignore_ascii_case(&room.kit)
        });
        let component = kit.and_then(|k| k.kit.component(&room.component));
        components.push(component);
        hooks.push(component.map_or_else(Vec::new, |c| hook_positions(c, &transform)));
        match room_walkmesh(room, kit, component) {
            Ok(mesh) => {
                // Kit defects that break the builder's own rule; the geometric solve below
                // repairs what it can, and the findings say where.
                if let (None, Some(kit), Some(component)) =
                    (&room.walkmesh_override, kit, component)
                    && audited.insert((kit.kit.id.clone(), component.id.clone()))
                {
                    findings.extend(audit_component(&kit.kit, component, &mesh));
                }
                meshes.push(Some(transform_mesh(&mesh, &transform)));
            }
            Err(message) => {
                findings.push(finding(
                    Severity::Error,
                    "indoor.room_without_walkmesh",
                    format!(
                        "room {index} ({} / {}): {message}; no WOK is written for it",
                        room.kit, room.component
                    ),
                ));
                meshes.push(None);
            }
        }
        if component.is_none() && room.walkmesh_override.is_some() {
            findings.push(finding(
                Severity::Warning,
                "indoor.hooks_unknown",
                format!(
                    "room {index} ({} / {}) uses its walkmesh override, but its kit is not loaded, so its door hooks are unknown; its transitions come from geometry alone",
                    room.kit, room.component
                ),
            ));
        }
        push_door_hooks(
            &mut lyt,
            &name,
            component,
            hooks.get(index).map(Vec::as_slice).unwrap_or_default(),
            &transform,
        );
    }
    let links = link_hooks(&hooks);
    resolve_hooked_placeholders(&mut meshes, &components, &links);
    let mut rooms: Vec<RoomMesh> = meshes
        .into_iter()
        .enumerate()
        .filter_map(|(index, mesh)| {
            Some(RoomMesh {
                lyt_index: index,
                name: lyt.rooms.get(index)?.name.clone(),
                mesh: mesh?,
            })
        })
        .collect();
    let solution = transitions::solve(&rooms, lyt.rooms.len(), tolerance);
    transitions::apply(&mut rooms, &solution);
    report_unmet_hooks(&links, &rooms, &solution, &mut findings);
    IndoorBuild {
        lyt,
        rooms,
        links,
        solution,
        findings,
    }
}

/// The walkmesh of a map's room, in the kit's coordinates: its override, else its kit
/// component's WOK (the component id confined to the kit's folder).
fn room_walkmesh(
    room: &IndoorRoom,
    kit: Option<&LoadedKit>,
    component: Option<&KitComponent>,
) -> Result<NavMesh, AreaError> {
    match &room.walkmesh_override {
        Some(text) => read_wok(&decode_base64(text)?),
        None => match (kit, component) {
            (Some(kit), Some(component)) => {
                let path = walkmesh_core::confine::join(
                    &kit.wok_dir,
                    &format!("{}.wok", component.id),
                    "kit component id",
                    &kit.wok_dir,
                )?;
                let bytes = walkmesh_core::files::read(&path).map_err(|source| AreaError::Io {
                    action: "read",
                    path,
                    source,
                })?;
                read_wok(&bytes)
            }
            (None, _) => Err(AreaError::KitNotFound {
                kit: room.kit.clone(),
            }),
            (Some(_), None) => Err(AreaError::ComponentNotFound {
                kit: room.kit.clone(),
                component: room.component.clone(),
            }),
        },
    }
}

/// The LYT door hooks of room `name`: one per hook of its component, at `positions` (the
/// hooks placed with the room), turned with the room.
fn push_door_hooks(
    lyt: &mut Lyt,
    name: &str,
    component: Option<&KitComponent>,
    positions: &[[f64; 3]],
    transform: &Transform,
) {
    for (k, hook) in component
        .map(|c| c.doorhooks.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let p = positions.get(k).copied().unwrap_or_default();
        let angle = transform.hook_rotation(hook.rotation).to_radians() / 2.0;
        lyt.door_hooks.push(DoorHook {
            room: name.to_string(),
            door: format!("door{k}"),
            flag: Some(0),
            position: p.map(|c| c as f32),
            orientation: [0.0, 0.0, angle.sin() as f32, angle.cos() as f32],
            extra: Vec::new(),
        });
    }
}

/// Replaces the kit rooms' placeholder transitions by the rooms their door hooks connect to.
fn resolve_hooked_placeholders(
    meshes: &mut [Option<NavMesh>],
    components: &[Option<&KitComponent>],
    links: &[HookLink],
) {
    for (index, mesh) in meshes.iter_mut().enumerate() {
        let (Some(mesh), Some(Some(component))) = (mesh.as_mut(), components.get(index)) else {
            continue;
        };
        let mut connected = vec![None; component.doorhooks.len()];
        for link in links.iter().filter(|l| l.room == index) {
            if let Some(slot) = connected.get_mut(link.hook) {
                *slot = Some(link.other_room);
            }
        }
        resolve_placeholders(mesh, component, &connected);
    }
}

/// Hooked doors whose edges do not meet: the builder would link them, geometry does not.
fn report_unmet_hooks(
    links: &[HookLink],
    rooms: &[RoomMesh],
    solution: &transitions::Solution,
    findings: &mut Vec<Diagnostic>,
) {
    for link in links.iter().filter(|l| l.room < l.other_room) {
        let slot_of = |lyt_index: usize| rooms.iter().position(|r| r.lyt_index == lyt_index);
        let (Some(a), Some(b)) = (slot_of(link.room), slot_of(link.other_room)) else {
            continue;
        };
        let meets = solution.pairs.iter().any(|&(i, j)| {
            let (ri, rj) = (
                solution.edges.get(i as usize).map(|e| e.room),
                solution.edges.get(j as usize).map(|e| e.room),
            );
            (ri, rj) == (Some(a), Some(b)) || (ri, rj) == (Some(b), Some(a))
        });
        if !meets {
            findings.push(finding(
                Severity::Warning,
                "indoor.hooked_edges_do_not_meet",
                format!(
                    "rooms {} and {} are connected by their door hooks, but no walkable edges of theirs coincide; no transition joins them",
                    link.room, link.other_room
                ),
            ));
        }
    }
}

/// A hook sits on a door edge when it lies within this distance (XY) of it. The six public
/// kits put their hooks on the door edge to within 0.026; the hooks they place farther off
/// (0.147 to 1.16) sit on no edge at all.
pub const HOOK_SEAT_DISTANCE: f64 = 0.05;
/// A hook's `rotation` agrees with its door edge when within this many degrees of the edge's
/// outward direction.
pub const HOOK_ROTATION_TOLERANCE: f64 = 5.0;

/// Where a hook sits on its component's walkmesh, found from geometry alone.
#[derive(Clone, Debug, PartialEq)]
pub struct HookSeat {
    /// The walkable perimeter edges within [`HOOK_SEAT_DISTANCE`] of the hook (XY), nearest
    /// first: the door edge, sometimes split in pieces.
    pub edges: Vec<EdgeRef>,
    /// XY distance from the hook to the nearest of them.
    pub distance: f64,
    /// Outward direction of the nearest edge, in the kits' convention (degrees
    /// counter-clockwise from +Y, in `[0, 360)`): the way the door leads out of the room.
    pub facing: f64,
}

/// XY distance from `p` to segment `a`–`b`.
fn segment_distance(p: [f64; 2], a: [f32; 3], b: [f32; 3]) -> f64 {
    let (ax, ay) = (f64::from(a[0]), f64::from(a[1]));
    let (dx, dy) = (f64::from(b[0]) - ax, f64::from(b[1]) - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - ax) * dx + (p[1] - ay) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (ax + t * dx - p[0]).hypot(ay + t * dy - p[1])
}

/// The door edge under `hook` on `mesh` (the component in its own coordinates), or `None`
/// when no walkable perimeter edge passes within [`HOOK_SEAT_DISTANCE`].
///
/// The door is the nearest such edge plus every other walkable perimeter edge on the same
/// line (both ends within [`HOOK_SEAT_DISTANCE`] of it), facing the same way, and reaching
/// into the door's span (`door_width` / 2 either side of the hook; the nearest edge's own
/// length when the width is unknown): kit doors are sometimes cut in pieces (endarspire's are
/// a 3.13 edge and a 0.27 one), and the builder marks every piece with the hook's
/// placeholder. The doorway's short side edges face another way and are not part of it.
pub fn hook_seat(mesh: &NavMesh, hook: &KitHook, door_width: Option<f64>) -> Option<HookSeat> {
    let p = [hook.x, hook.y];
    let perimeter: Vec<transitions::PerimeterEdge> = transitions::perimeter_edges(mesh, 0)
        .into_iter()
        .filter(|e| e.start[..2] != e.end[..2])
        .collect();
    let (distance, nearest) = perimeter
        .iter()
        .map(|e| (segment_distance(p, e.start, e.end), *e))
        .filter(|(d, _)| *d < HOOK_SEAT_DISTANCE)
        .min_by(|a, b| a.0.total_cmp(&b.0))?;
    let direction = |e: &transitions::PerimeterEdge| {
        let dx = f64::from(e.end[0]) - f64::from(e.start[0]);
        let dy = f64::from(e.end[1]) - f64::from(e.start[1]);
        let len = dx.hypot(dy);
        ([dx / len, dy / len], len)
    };
    // Faces wind counter-clockwise seen from above, so the room lies left of each perimeter
    // edge and (dy, −dx) points out of it.
    let (along, nearest_len) = direction(&nearest);
    let facing = (-along[1]).atan2(-along[0]).to_degrees().rem_euclid(360.0);
    let half = door_width.unwrap_or(nearest_len) / 2.0;
    let origin = [f64::from(nearest.start[0]), f64::from(nearest.start[1])];
    // Position along the door line (relative to the hook) and distance off it.
    let hook_at = (p[0] - origin[0]) * along[0] + (p[1] - origin[1]) * along[1];
    let place = |q: [f32; 3]| {
        let (x, y) = (f64::from(q[0]) - origin[0], f64::from(q[1]) - origin[1]);
        (
            x * along[0] + y * along[1] - hook_at,
            (x * along[1] - y * along[0]).abs(),
        )
    };
    let mut door: Vec<(f64, EdgeRef)> = perimeter
        .iter()
        .filter(|e| {
            let (a, off_a) = place(e.start);
            let (b, off_b) = place(e.end);
            let (dir, _) = direction(e);
            let same_way = dir[0] * along[0] + dir[1] * along[1] > 0.999;
            same_way
                && off_a < HOOK_SEAT_DISTANCE
                && off_b < HOOK_SEAT_DISTANCE
                && a.min(b) < half - HOOK_SEAT_DISTANCE
                && a.max(b) > -half + HOOK_SEAT_DISTANCE
        })
        .map(|e| (segment_distance(p, e.start, e.end), e.edge))
        .collect();
    if !door.iter().any(|(_, e)| *e == nearest.edge) {
        door.push((distance, nearest.edge));
    }
    door.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Some(HookSeat {
        edges: door.into_iter().map(|(_, e)| e).collect(),
        distance,
        facing,
    })
}

/// Smallest difference between two directions, in degrees.
pub fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Checks a kit component's hooks against its walkmesh (in component coordinates), the
/// defects that make the builder's output wrong:
/// * `kit.hook_off_edge`: no walkable perimeter edge under the hook, so rooms joined there
///   leave a gap nobody can cross;
/// * `kit.hook_rotation_mismatch`: the hook's `rotation` is not the way its door edge faces,
///   so a room turned by it lands on top of this one;
/// * `kit.placeholder_missing`: no edge of the WOK carries the hook's placeholder, so the
///   builder's placeholder rule gives that door no transition;
/// * `kit.placeholder_off_door`: the placeholder is only on edges other than the one under
///   the hook (the doorway's short side edges), same effect.
///
/// Each finding names the kit, component and hook index (`kit:component#hook`).
pub fn audit_component(kit: &Kit, component: &KitComponent, mesh: &NavMesh) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (index, hook) in component.doorhooks.iter().enumerate() {
        let name = format!("{}:{}#{index}", kit.id, component.id);
        let seat = hook_seat(mesh, hook, kit.door_width(hook));
        let placeholders = placeholder_edges(mesh, hook.edge);
        match &seat {
            None => out.push(finding(
                Severity::Warning,
                "kit.hook_off_edge",
                format!(
                    "{name}: the hook at ({:.3}, {:.3}) is farther than {HOOK_SEAT_DISTANCE} from every walkable edge",
                    hook.x, hook.y
                ),
            )),
            Some(seat) if angle_between(seat.facing, hook.rotation) > HOOK_ROTATION_TOLERANCE => {
                out.push(finding(
                    Severity::Warning,
                    "kit.hook_rotation_mismatch",
                    format!(
                        "{name}: rotation {} but its door edge faces {:.0}",
                        hook.rotation, seat.facing
                    ),
                ));
            }
            Some(_) => {}
        }
        if placeholders.is_empty() {
            out.push(finding(
                Severity::Warning,
                "kit.placeholder_missing",
                format!("{name}: no edge carries its placeholder {}", hook.edge),
            ));
        } else if let Some(seat) = &seat
            && !placeholders.iter().any(|e| seat.edges.contains(e))
        {
            out.push(finding(
                Severity::Warning,
                "kit.placeholder_off_door",
                format!(
                    "{name}: placeholder {} is not on the edge under the hook",
                    hook.edge
                ),
            ));
        }
    }
    out
}

/// Reads a BWM area walkmesh from bytes (refused: this build leaves the BWM format out).
#[cfg(not(feature = "bwm"))]
pub fn read_wok(bytes: &[u8]) -> Result<NavMesh, AreaError> {
    let _ = bytes;
    Err(AreaError::BwmLeftOut)
}

/// Reads a BWM area walkmesh from bytes.
#[cfg(feature = "bwm")]
pub fn read_wok(bytes: &[u8]) -> Result<NavMesh, AreaError> {
    use walkmesh_core::{Diagnostics, Input, ReadOptions};
    let mut diag = Diagnostics::new();
    walkmesh_bwm::read_bwm(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut diag,
    )
    .map_err(AreaError::from)
}

/// Sets every placeholder-range transition (≥ [`FIRST_PLACEHOLDER`]) of a kit component.
pub fn placeholder_edges(mesh: &NavMesh, placeholder: i32) -> Vec<EdgeRef> {
    mesh.edge_tags
        .iter()
        .filter(|(_, t)| t.transition == placeholder)
        .map(|(e, _)| *e)
        .collect()
}

/// Removes every transition (for re-solving from scratch).
pub fn strip_transitions(mesh: &mut NavMesh) {
    mesh.edge_tags.clear();
}

/// A tag with value `transition`.
pub fn tag(transition: i32) -> EdgeTag {
    EdgeTag { transition }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use walkmesh_core::{Material, Surface};

    #[test]
    fn transform_rotates_counter_clockwise_after_flipping() {
        let t = Transform {
            position: [10.0, 0.0, 1.0],
            rotation: 90.0,
            flip_x: true,
            flip_y: false,
        };
        // (1, 2, 3) → flip x → (-1, 2, 3) → rotate 90° → (-2, -1, 3) → move → (8, -1, 4).
        let p = t.apply([1.0, 2.0, 3.0]);
        assert!((p[0] - 8.0).abs() < 1e-12 && (p[1] + 1.0).abs() < 1e-12 && p[2] == 4.0);
        // A hook facing +Y (0°) still faces +Y after flipping x, then −X after 90°: 90°.
        assert!((t.hook_rotation(0.0) - 90.0).abs() < 1e-9);
        // One facing −X (90°) faces +X after the flip (270°), then +Y after 90°: 0°.
        assert!(t.hook_rotation(90.0).abs() < 1e-9 || (t.hook_rotation(90.0) - 360.0).abs() < 1e-9);
    }

    #[test]
    fn mirroring_moves_transitions_with_their_edges() {
        let mut mesh = NavMesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            ..NavMesh::default()
        };
        mesh.push_polygon(
            &[0, 1, 2],
            Surface {
                material: Material(4),
                walkable: true,
                code: 4,
            },
        );
        // Edge 0 runs (0,0)→(1,0); edge 1 (1,0)→(0,1); edge 2 (0,1)→(0,0).
        for (edge, value) in [(0, 20), (1, 21), (2, 22)] {
            mesh.edge_tags
                .insert(EdgeRef { polygon: 0, edge }, tag(value));
        }
        let t = Transform {
            flip_x: true,
            ..Transform::default()
        };
        let out = transform_mesh(&mesh, &t);
        assert_eq!(out.polygons.get(0), &[0, 2, 1]);
        // Each transition must sit on the edge between the same two (moved) points.
        for (edge, tag) in &out.edge_tags {
            let corners = out.polygons.get(0);
            let a = out.vertices[corners[edge.edge as usize] as usize];
            let b = out.vertices[corners[(edge.edge as usize + 1) % 3] as usize];
            let original = match tag.transition {
                20 => ([0.0, 0.0], [-1.0, 0.0]),
                21 => ([-1.0, 0.0], [0.0, 1.0]),
                _ => ([0.0, 1.0], [0.0, 0.0]),
            };
            let pair = ([a[0], a[1]], [b[0], b[1]]);
            assert!(
                pair == original || pair == (original.1, original.0),
                "{tag:?} on {pair:?}"
            );
        }
        // Still counter-clockwise from above: positive signed area.
        let c = out.polygons.get(0);
        let [p, q, r] = [0, 1, 2].map(|k| out.vertices[c[k] as usize]);
        let area = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
        assert!(area > 0.0);
    }

    #[test]
    fn base64_decodes() {
        assert_eq!(decode_base64("QldNIFYxLjA=").unwrap(), b"BWM V1.0");
        assert_eq!(decode_base64("QldN\nIFYx").unwrap(), b"BWM V1");
        assert!(decode_base64("QldN*").is_err());
        assert!(matches!(
            decode_base64("QldN*"),
            Err(AreaError::Base64 {
                index: 4,
                character: '*'
            })
        ));
        let not_a_kit = Kit::parse(b"[]").unwrap_err();
        assert!(matches!(
            not_a_kit,
            AreaError::Json {
                what: "a kit JSON",
                ..
            }
        ));
        assert!(not_a_kit.to_string().starts_with("not a kit JSON: "));
    }

    #[test]
    fn hooks_link_within_the_tolerance() {
        let hooks = vec![
            vec![[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]],
            vec![[5.0005, 0.0, 0.0]],
            vec![[0.002, 0.0, 0.0]],
        ];
        let links = link_hooks(&hooks);
        assert_eq!(links.len(), 2);
        assert!(links.contains(&HookLink {
            room: 0,
            hook: 1,
            other_room: 1,
            other_hook: 0
        }));
    }

    #[test]
    fn a_room_without_its_walkmesh_says_why() {
        let room = IndoorRoom {
            kit: "k".into(),
            component: "c".into(),
            position: [0.0; 3],
            rotation: 0.0,
            flip_x: false,
            flip_y: false,
            walkmesh_override: None,
        };
        let message = |kit, component| {
            room_walkmesh(&room, kit, component)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(message(None, None), "kit 'k' was not found");
        let kit = LoadedKit {
            kit: Kit::parse(br#"{"name": "K", "id": "k"}"#).unwrap(),
            wok_dir: PathBuf::from("no-such-kit-folder"),
        };
        assert_eq!(message(Some(&kit), None), "kit 'k' has no component 'c'");
        let component = KitComponent {
            name: "C".into(),
            id: "c".into(),
            doorhooks: Vec::new(),
        };
        let missing = message(Some(&kit), Some(&component));
        assert!(
            missing.starts_with("cannot read no-such-kit-folder/c.wok: "),
            "{missing}"
        );
        let overridden = IndoorRoom {
            walkmesh_override: Some("A*".into()),
            ..room.clone()
        };
        assert_eq!(
            room_walkmesh(&overridden, None, None)
                .unwrap_err()
                .to_string(),
            "character 1 ('*') is not base64"
        );
    }
}
