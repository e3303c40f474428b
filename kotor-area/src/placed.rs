//! Rooms placed by a layout, checked before anything is written for them (issue #51).
//!
//! - [`unique_rooms`]: a room's files (`ROOM.wok`, `ROOM.mdl`) are found by its name, and the
//!   games, their module archives and Windows' file systems compare names ignoring ASCII case
//!   (as `area extract` does for archive members). Two layout rooms of one name would be one
//!   file: one room read twice, or written over the other. Every command that writes one file
//!   per layout room or finds a room's file by its name calls this first. The LYT reader
//!   itself keeps reading such a layout (`area check` warns, `lyt.duplicate_room`), and the
//!   placeholder room `****` of cutscene layouts, which has no file, may repeat.
//! - [`place`] and [`check_placed`]: a room's vertices moved to its layout position must stay
//!   where 32-bit floats, the numbers a walkmesh stores, still hold points [`DETAIL`] (1 mm)
//!   apart: within [`LIMIT`] (16384 m) of the area's origin on every axis. Further out, a
//!   room's points merge (at x = 1e30 a whole room is one point, with no walkable area left).

use std::path::{Path, PathBuf};

use walkmesh_core::printable;

use crate::lyt::{Lyt, PLACEHOLDER_ROOM, Placement};

/// The finest detail (m) a placed room must keep: two points 1 mm apart stay apart.
pub const DETAIL: f32 = 0.001;

/// How far (m) from the area's origin a placed room's points may lie: below 2^14 m a 32-bit
/// float steps by 2^-10 m (0.98 mm); from 2^14 m on by 2^-9 m (1.95 mm), more than [`DETAIL`].
pub const LIMIT: f32 = 16384.0;

/// Two layout rooms that name one room file.
#[derive(Debug, Clone, PartialEq)]
pub struct RepeatedRoom {
    /// The layout file (as named to the user).
    pub file: PathBuf,
    /// The rooms: LYT index, name as spelt there, LYT line when read from a file.
    pub first: (usize, String, Option<u64>),
    pub second: (usize, String, Option<u64>),
}

impl std::fmt::Display for RepeatedRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (first, name, first_line) = &self.first;
        let (second, other, second_line) = &self.second;
        let spelt = if other == name {
            String::new()
        } else {
            format!(" (the second as \"{}\")", printable::escape(other))
        };
        let name = printable::escape(name);
        let at = match (first_line, second_line) {
            (Some(a), Some(b)) => format!("lines {a} and {b}"),
            _ => format!("rooms[{first}] and rooms[{second}]"),
        };
        write!(
            f,
            "{}: {at} both place room \"{name}\"{spelt}; a room's files are found by its name, ignoring ASCII case as the games and their archives do, so the two rooms would be one {name}.wok and one of them would be lost; nothing was written",
            self.file.display()
        )
    }
}

impl std::error::Error for RepeatedRoom {}

impl walkmesh_core::Kinded for RepeatedRoom {
    /// A layout that names one room file twice.
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Invalid
    }
}

/// Refuses a layout naming one room twice (ignoring ASCII case; `****` may repeat), naming
/// both rooms and their lines. `file` names the layout in the message.
pub fn unique_rooms(lyt: &Lyt, file: &Path) -> Result<(), RepeatedRoom> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (index, room) in lyt.rooms.iter().enumerate() {
        if room.name == PLACEHOLDER_ROOM {
            continue;
        }
        let key = room.name.to_ascii_lowercase();
        if let Some(&first) = seen.get(&key) {
            let spelt = |i: usize, r: &Placement| (i, r.name.clone(), r.line);
            let earlier = lyt
                .rooms
                .get(first)
                .map_or_else(|| (first, room.name.clone(), None), |r| spelt(first, r));
            return Err(RepeatedRoom {
                file: file.to_path_buf(),
                first: earlier,
                second: spelt(index, room),
            });
        }
        seen.insert(key, index);
    }
    Ok(())
}

/// A room whose placed points lie where 32-bit floats cannot hold them 1 mm apart.
#[derive(Debug, Clone, PartialEq)]
pub struct FarRoom {
    /// The layout (or map) file.
    pub file: PathBuf,
    pub room: String,
    /// The LYT line placing it, when read from a file.
    pub line: Option<u64>,
    pub position: [f32; 3],
    /// The axis (0 x, 1 y, 2 z) and value of its farthest placed coordinate (infinite when
    /// the sum overflowed).
    pub axis: usize,
    pub reach: f32,
}

/// A number as a person reads it: exponent form from 1e7 on (`1e30`, not 31 digits).
fn shown(value: f32) -> String {
    if value.is_finite() && value.abs() >= 1e7 {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// The step between `value` and the next larger 32-bit float in magnitude.
pub fn spacing(value: f32) -> f32 {
    let magnitude = value.abs();
    magnitude.next_up() - magnitude
}

/// Whether a coordinate is one a 32-bit float holds to [`DETAIL`]: finite, and below
/// [`LIMIT`] in magnitude (where the float spacing is at most 1 mm).
pub fn holds(value: f32) -> bool {
    value.is_finite() && spacing(value) <= DETAIL
}

impl std::fmt::Display for FarRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.position.map(shown);
        let line = self.line.map_or(String::new(), |l| format!(" (line {l})"));
        let axis = ["x", "y", "z"].get(self.axis).copied().unwrap_or("x");
        let reach = if self.reach.is_finite() {
            format!(
                "{axis} = {}, where 32-bit floats (the numbers a walkmesh stores) step by {} m and cannot hold points 1 mm apart",
                shown(self.reach),
                shown(spacing(self.reach))
            )
        } else {
            format!(
                "{axis} beyond the largest 32-bit float (the numbers a walkmesh stores), which cannot hold points 1 mm apart"
            )
        };
        write!(
            f,
            "{}: room \"{}\"{line} is placed at ({x}, {y}, {z}), so its points reach {reach}; a placed room must lie within {} m of the area's origin; nothing was written",
            self.file.display(),
            printable::escape(&self.room),
            shown(LIMIT),
        )
    }
}

impl std::error::Error for FarRoom {}

impl walkmesh_core::Kinded for FarRoom {
    /// A placement 32-bit floats cannot hold to the millimetre: more than a walkmesh holds.
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Limit
    }
}

/// Checks `placed`, a room's points already moved to its place (and the position itself, so
/// that a layout can be checked before any room is made: `placed` may be empty), refusing the
/// farthest coordinate a 32-bit float cannot hold to 1 mm. `file` names the layout.
pub fn check_placed(
    room: &Placement,
    placed: impl IntoIterator<Item = [f32; 3]>,
    file: &Path,
) -> Result<(), FarRoom> {
    let mut worst: Option<(usize, f32)> = None;
    for point in std::iter::once(room.position).chain(placed) {
        for (axis, &value) in point.iter().enumerate() {
            if holds(value) {
                continue;
            }
            // Non-finite (NaN or an overflow) is the worst; then the larger magnitude.
            let rank = |v: f32| {
                if v.is_finite() {
                    v.abs()
                } else {
                    f32::INFINITY
                }
            };
            if worst.is_none_or(|(_, w)| rank(value) > rank(w)) {
                worst = Some((axis, value));
            }
        }
    }
    match worst {
        None => Ok(()),
        Some((axis, reach)) => Err(FarRoom {
            file: file.to_path_buf(),
            room: room.name.clone(),
            line: room.line,
            position: room.position,
            axis,
            reach,
        }),
    }
}

/// Moves `vertices` (room coordinates) to the room's layout position, as KotOR stores room
/// walkmeshes (in area coordinates); refused, with `vertices` unchanged, when the placed
/// points would lie where 32-bit floats cannot hold them 1 mm apart ([`check_placed`]).
pub fn place(room: &Placement, vertices: &mut [[f32; 3]], file: &Path) -> Result<(), FarRoom> {
    let p = room.position;
    let moved = |v: &[f32; 3]| [v[0] + p[0], v[1] + p[1], v[2] + p[2]];
    check_placed(room, vertices.iter().map(moved), file)?;
    for v in vertices.iter_mut() {
        *v = moved(v);
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::lyt::read_lyt;

    fn room(name: &str, position: [f32; 3]) -> Placement {
        Placement {
            name: name.into(),
            position,
            line: Some(7),
        }
    }

    #[test]
    fn the_limit_is_where_floats_stop_holding_a_millimetre() {
        assert!(holds(LIMIT.next_down()) && holds(-LIMIT.next_down()));
        assert!(spacing(LIMIT.next_down()) <= DETAIL && spacing(LIMIT) > DETAIL);
        assert!(!holds(LIMIT) && !holds(f32::NAN) && !holds(f32::INFINITY));
        assert!(holds(0.0) && holds(-8000.5));
    }

    #[test]
    fn a_far_room_is_refused_with_its_line_position_and_farthest_point() {
        let file = Path::new("area.lyt");
        let floor = [[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [10.0, 10.0, 0.0]];
        // 8 km out: placed, every point moved.
        let mut near = floor;
        place(&room("hall", [8000.0, 0.0, 0.0]), &mut near, file).unwrap();
        assert_eq!(near[1], [8010.0, 0.0, 0.0]);
        // The room itself within the limit, its far corner beyond it.
        let mut edge = floor;
        let refused = place(&room("hall", [16380.0, 0.0, 0.0]), &mut edge, file).unwrap_err();
        assert_eq!((refused.axis, refused.reach), (0, 16390.0));
        assert_eq!(edge, floor, "nothing moved");
        let mut far = floor;
        let refused = place(&room("Hall", [0.0, 1e30, 0.0]), &mut far, file).unwrap_err();
        let message = refused.to_string();
        assert_eq!(
            message,
            "area.lyt: room \"Hall\" (line 7) is placed at (0, 1e30, 0), so its points reach y = 1e30, where 32-bit floats (the numbers a walkmesh stores) step by 7.5557864e22 m and cannot hold points 1 mm apart; a placed room must lie within 16384 m of the area's origin; nothing was written"
        );
        // An overflow is named as one; the position alone is checked with no points.
        let refused = check_placed(
            &room("r", [3e38, 0.0, 0.0]),
            [[f32::INFINITY, 0.0, 0.0]],
            file,
        )
        .unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("beyond the largest 32-bit float")
        );
        assert!(check_placed(&room("r", [0.0, 0.0, -2e4]), [], file).is_err());
    }

    #[test]
    fn a_room_named_twice_is_refused_naming_both_lines_but_placeholders_may_repeat() {
        let (lyt, _) = read_lyt(
            b"beginlayout\nroomcount 5\n  a 0 0 0\n  **** 1 0 0\n  b 2 0 0\n  **** 3 0 0\n  A 4 0 0\ndonelayout\n",
        )
        .unwrap();
        let refused = unique_rooms(&lyt, Path::new("x.lyt")).unwrap_err();
        assert_eq!(refused.first, (0, "a".into(), Some(3)));
        assert_eq!(refused.second, (4, "A".into(), Some(7)));
        assert!(
            refused
                .to_string()
                .starts_with("x.lyt: lines 3 and 7 both place room \"a\" (the second as \"A\");"),
            "{refused}"
        );
        let mut once = lyt.clone();
        once.rooms.pop();
        assert_eq!(unique_rooms(&once, Path::new("x.lyt")), Ok(()));
        // Rooms made in code have no line: their indices are named instead.
        once.rooms.push(Placement {
            name: "b".into(),
            position: [0.0; 3],
            line: None,
        });
        let refused = unique_rooms(&once, Path::new("x.lyt")).unwrap_err();
        assert!(
            refused
                .to_string()
                .starts_with("x.lyt: rooms[2] and rooms[4] both place room \"b\";"),
            "{refused}"
        );
    }
}
