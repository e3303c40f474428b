//! LYT, the text file that places an area's rooms (see `docs/formats/lyt.md`).
//!
//! [`read_lyt`] accepts what real files contain beyond the documented grammar: header comment
//! lines and `filedependancy` before `beginlayout`, tabs and mixed indentation, missing
//! sections, the extra integer after the door name in BioWare's door-hook lines, `****` room
//! names, text after `donelayout`. [`write_lyt`] gives the file back byte for byte while the
//! layout is unchanged, and writes the canonical layout once anything changed.

use std::sync::Arc;

use walkmesh_core::{Diagnostic, ReadError, Severity, printable};

use crate::text::{count, finding, format_f32, lines, number, resref_problem};

/// A room, track or obstacle: a model placed at a position.
#[derive(Clone, Debug)]
pub struct Placement {
    pub name: String,
    pub position: [f32; 3],
    /// The LYT line it was read from, for messages (`None` for a placement made in code). Not
    /// part of what the layout says: equality ignores it, and writing never uses it.
    pub line: Option<u64>,
}

impl PartialEq for Placement {
    fn eq(&self, other: &Placement) -> bool {
        self.name == other.name && self.position == other.position
    }
}

/// A door hook: where a door of a room sits, and how it is turned.
#[derive(Clone, Debug, PartialEq)]
pub struct DoorHook {
    /// The room the hook belongs to (by name).
    pub room: String,
    /// The door's name (`door_17`).
    pub door: String,
    /// The integer BioWare's files carry after the door name (always 0 in the corpus);
    /// `None` when the line follows the documented grammar without it.
    pub flag: Option<i64>,
    pub position: [f32; 3],
    /// Orientation quaternion as stored: x, y, z, w.
    pub orientation: [f32; 4],
    /// Further numbers some lines carry after the quaternion.
    pub extra: Vec<f32>,
}

/// A parsed LYT file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lyt {
    /// Lines before `beginlayout` (`#MAXLAYOUT ASCII`, `filedependancy m40ad.max`), as written.
    pub header: Vec<String>,
    pub rooms: Vec<Placement>,
    pub tracks: Vec<Placement>,
    pub obstacles: Vec<Placement>,
    pub door_hooks: Vec<DoorHook>,
    source: Option<Arc<Source>>,
}

#[derive(Debug, PartialEq)]
struct Source {
    bytes: Vec<u8>,
    as_read: Snapshot,
}

#[derive(Debug, PartialEq)]
struct Snapshot {
    header: Vec<String>,
    rooms: Vec<Placement>,
    tracks: Vec<Placement>,
    obstacles: Vec<Placement>,
    door_hooks: Vec<DoorHook>,
}

impl Lyt {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            header: self.header.clone(),
            rooms: self.rooms.clone(),
            tracks: self.tracks.clone(),
            obstacles: self.obstacles.clone(),
            door_hooks: self.door_hooks.clone(),
        }
    }

    fn unchanged_source(&self) -> Option<&[u8]> {
        let source = self.source.as_ref()?;
        let s = &source.as_read;
        (s.header == self.header
            && s.rooms == self.rooms
            && s.tracks == self.tracks
            && s.obstacles == self.obstacles
            && s.door_hooks == self.door_hooks)
            .then_some(source.bytes.as_slice())
    }

    /// True while the layout is what was read (writing gives the input bytes back).
    pub fn is_unchanged(&self) -> bool {
        self.unchanged_source().is_some()
    }

    /// Index of the room named `name` (case-insensitive), the first if several share it.
    pub fn room_index(&self, name: &str) -> Option<usize> {
        self.rooms
            .iter()
            .position(|room| room.name.eq_ignore_ascii_case(name))
    }
}

/// Room name used in cutscene layouts for a placeholder room without a model.
pub const PLACEHOLDER_ROOM: &str = "****";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    Rooms,
    Tracks,
    Obstacles,
    DoorHooks,
}

impl Section {
    fn keyword(self) -> &'static str {
        match self {
            Section::Rooms => "roomcount",
            Section::Tracks => "trackcount",
            Section::Obstacles => "obstaclecount",
            Section::DoorHooks => "doorhookcount",
        }
    }
    fn field(self) -> &'static str {
        match self {
            Section::Rooms => "rooms",
            Section::Tracks => "tracks",
            Section::Obstacles => "obstacles",
            Section::DoorHooks => "doorhooks",
        }
    }
    fn from_keyword(word: &str) -> Option<Section> {
        [
            Section::Rooms,
            Section::Tracks,
            Section::Obstacles,
            Section::DoorHooks,
        ]
        .into_iter()
        .find(|s| word.eq_ignore_ascii_case(s.keyword()))
    }
}

/// Reads a LYT file. Structural problems the game would still load (a count that differs from
/// the rows that follow, text after `donelayout`) are returned as findings; what cannot be
/// read is an error naming the line and field.
pub fn read_lyt(bytes: &[u8]) -> Result<(Lyt, Vec<Diagnostic>), ReadError> {
    let mut lyt = Lyt::default();
    let mut findings = Vec::new();
    let all = lines(bytes);
    let mut iter = all.iter().peekable();

    // Header: everything up to `beginlayout`.
    let mut begun = false;
    for (line, text) in iter.by_ref() {
        let first = text.split_whitespace().next();
        match first {
            Some(word) if word.eq_ignore_ascii_case("beginlayout") => {
                begun = true;
                break;
            }
            None => lyt.header.push(text.clone()),
            Some(word) if word.starts_with('#') || word.eq_ignore_ascii_case("filedependancy") => {
                lyt.header.push(text.clone())
            }
            Some(word) => {
                return Err(ReadError::at_line(
                    *line,
                    "beginlayout",
                    format!(
                        "expected 'beginlayout' (after optional '#' comments and 'filedependancy'), found '{word}'"
                    ),
                ));
            }
        }
    }
    if !begun {
        return Err(ReadError::at_line(
            all.len() as u64 + 1,
            "beginlayout",
            "the file has no 'beginlayout' line",
        ));
    }

    let mut current: Option<(Section, usize, u64)> = None;
    let mut seen: Vec<Section> = Vec::new();
    let mut done = false;
    let close = |current: Option<(Section, usize, u64)>,
                 lyt: &Lyt,
                 findings: &mut Vec<Diagnostic>| {
        if let Some((section, declared, line)) = current {
            let found = match section {
                Section::Rooms => lyt.rooms.len(),
                Section::Tracks => lyt.tracks.len(),
                Section::Obstacles => lyt.obstacles.len(),
                Section::DoorHooks => lyt.door_hooks.len(),
            };
            if found != declared {
                findings.push(finding(
                    Severity::Error,
                    "lyt.count_mismatch",
                    Some(line),
                    Some(section.keyword().to_string()),
                    format!(
                        "{} {declared} is followed by {found} row(s); the game reads exactly the declared number",
                        section.keyword()
                    ),
                ));
            }
        }
    };
    for (line, text) in iter.by_ref() {
        let line = *line;
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            continue;
        };
        if first.eq_ignore_ascii_case("donelayout") {
            close(current.take(), &lyt, &mut findings);
            done = true;
            break;
        }
        if first.starts_with('#') {
            continue;
        }
        if let Some(section) = Section::from_keyword(first) {
            close(current.take(), &lyt, &mut findings);
            if seen.contains(&section) {
                return Err(ReadError::at_line(
                    line,
                    section.keyword(),
                    format!("a second '{}' section", section.keyword()),
                ));
            }
            seen.push(section);
            let declared = count(tokens.get(1).copied(), line, section.keyword())?;
            current = Some((section, declared, line));
            continue;
        }
        let Some((section, _, _)) = current else {
            return Err(ReadError::at_line(
                line,
                "section",
                format!(
                    "'{first}' appears before any 'roomcount', 'trackcount', 'obstaclecount' or 'doorhookcount' line"
                ),
            ));
        };
        match section {
            Section::DoorHooks => {
                let index = lyt.door_hooks.len();
                lyt.door_hooks.push(door_hook(&tokens, line, index)?);
            }
            _ => {
                let list = match section {
                    Section::Rooms => &mut lyt.rooms,
                    Section::Tracks => &mut lyt.tracks,
                    _ => &mut lyt.obstacles,
                };
                let index = list.len();
                list.push(placement(&tokens, line, section.field(), index)?);
            }
        }
    }
    if !done {
        close(current.take(), &lyt, &mut findings);
        findings.push(finding(
            Severity::Warning,
            "lyt.missing_donelayout",
            None,
            None,
            "the file ends without 'donelayout'".to_string(),
        ));
    }
    if let Some((line, text)) = iter.find(|(_, text)| !text.trim().is_empty()) {
        findings.push(finding(
            Severity::Warning,
            "lyt.text_after_donelayout",
            Some(*line),
            None,
            format!(
                "text after 'donelayout' ('{}') is ignored by the game; a rewritten file leaves it out",
                text.trim()
            ),
        ));
    }
    lyt.source = Some(Arc::new(Source {
        bytes: bytes.to_vec(),
        as_read: lyt.snapshot(),
    }));
    Ok((lyt, findings))
}

fn placement(
    tokens: &[&str],
    line: u64,
    section: &str,
    index: usize,
) -> Result<Placement, ReadError> {
    let field = |name: &str| format!("{section}[{index}].{name}");
    if tokens.len() != 4 {
        return Err(ReadError::at_line(
            line,
            field("name"),
            format!(
                "expected a name and three numbers (x y z), found {} token(s)",
                tokens.len()
            ),
        ));
    }
    let name = tokens.first().copied().unwrap_or_default().to_string();
    let mut position = [0.0f32; 3];
    for (axis, (slot, label)) in position.iter_mut().zip(["x", "y", "z"]).enumerate() {
        *slot = number(
            tokens.get(axis + 1).copied().unwrap_or_default(),
            line,
            &field(label),
        )?;
    }
    Ok(Placement {
        name,
        position,
        line: Some(line),
    })
}

/// True for a token written as a whole number (`0`, `-3`), not a real (`0.0`).
fn is_integer_token(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn door_hook(tokens: &[&str], line: u64, index: usize) -> Result<DoorHook, ReadError> {
    let field = |name: &str| format!("doorhooks[{index}].{name}");
    let numbers = tokens.get(2..).unwrap_or(&[]);
    // BioWare's lines: room door <int> x y z qx qy qz qw; the documented grammar has no
    // integer. The integer is recognised by its form, so both read.
    let (flag, rest) = match numbers.split_first() {
        Some((first, rest)) if numbers.len() >= 8 && is_integer_token(first) => (
            Some(first.parse::<i64>().map_err(|_| {
                ReadError::at_line(line, field("flag"), format!("'{first}' is out of range"))
            })?),
            rest,
        ),
        _ => (None, numbers),
    };
    if tokens.len() < 2 || rest.len() < 7 {
        return Err(ReadError::at_line(
            line,
            field("position"),
            format!(
                "expected room, door, [integer,] x y z and a quaternion qx qy qz qw, found {} token(s)",
                tokens.len()
            ),
        ));
    }
    let labels = ["x", "y", "z", "qx", "qy", "qz", "qw"];
    let mut values = [0.0f32; 7];
    for ((slot, label), token) in values.iter_mut().zip(labels).zip(rest) {
        *slot = number(token, line, &field(label))?;
    }
    let mut extra = Vec::new();
    for (k, token) in rest.iter().enumerate().skip(7) {
        extra.push(number(token, line, &field(&format!("extra[{}]", k - 7)))?);
    }
    let [x, y, z, qx, qy, qz, qw] = values;
    Ok(DoorHook {
        room: tokens.first().copied().unwrap_or_default().to_string(),
        door: tokens.get(1).copied().unwrap_or_default().to_string(),
        flag,
        position: [x, y, z],
        orientation: [qx, qy, qz, qw],
        extra,
    })
}

/// Writes `lyt`: the bytes it was read from while nothing changed, otherwise the canonical
/// layout (header lines kept; CRLF line endings; three-space section and six-space row
/// indentation; numbers in the shortest form that reads back exactly; door hooks always with
/// the integer after the door name, 0 when the hook had none, since PyKotor and BioWare's
/// files expect it).
pub fn write_lyt(lyt: &Lyt) -> Vec<u8> {
    if let Some(bytes) = lyt.unchanged_source() {
        return bytes.to_vec();
    }
    canonical_lyt(lyt)
}

/// The canonical layout of `lyt`, whatever it was read from.
pub fn canonical_lyt(lyt: &Lyt) -> Vec<u8> {
    const EOL: &str = "\r\n";
    let mut out = String::new();
    for line in &lyt.header {
        out.push_str(line);
        out.push_str(EOL);
    }
    out.push_str("beginlayout");
    out.push_str(EOL);
    let placements = [
        (Section::Rooms, &lyt.rooms),
        (Section::Tracks, &lyt.tracks),
        (Section::Obstacles, &lyt.obstacles),
    ];
    for (section, list) in placements {
        out.push_str(&format!("   {} {}{EOL}", section.keyword(), list.len()));
        for item in list {
            let [x, y, z] = item.position.map(format_f32);
            out.push_str(&format!("      {} {x} {y} {z}{EOL}", item.name));
        }
    }
    out.push_str(&format!("   doorhookcount {}{EOL}", lyt.door_hooks.len()));
    for hook in &lyt.door_hooks {
        let [x, y, z] = hook.position.map(format_f32);
        let [qx, qy, qz, qw] = hook.orientation.map(format_f32);
        out.push_str(&format!(
            "      {} {} {} {x} {y} {z} {qx} {qy} {qz} {qw}",
            hook.room,
            hook.door,
            hook.flag.unwrap_or(0)
        ));
        for value in &hook.extra {
            out.push(' ');
            out.push_str(&format_f32(*value));
        }
        out.push_str(EOL);
    }
    out.push_str("donelayout");
    out.push_str(EOL);
    crate::text::latin1_bytes(&out)
}

/// Checks a layout on its own: ResRef names (≤ 16 printable ASCII characters), duplicate room
/// names, door hooks naming rooms the layout does not have.
pub fn check_lyt(lyt: &Lyt) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let lists = [
        ("rooms", &lyt.rooms),
        ("tracks", &lyt.tracks),
        ("obstacles", &lyt.obstacles),
    ];
    for (section, list) in lists {
        for (i, item) in list.iter().enumerate() {
            if item.name == PLACEHOLDER_ROOM {
                continue;
            }
            if let Some(problem) = resref_problem(&item.name) {
                findings.push(finding(
                    Severity::Error,
                    "lyt.bad_name",
                    None,
                    Some(format!("{section}[{i}].name")),
                    problem,
                ));
            }
        }
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, room) in lyt.rooms.iter().enumerate() {
        if room.name == PLACEHOLDER_ROOM {
            continue;
        }
        if let Some(first) = seen.insert(room.name.to_ascii_lowercase(), i) {
            // A warning: the file reads, but every command that finds a room's file by its
            // name refuses it (`crate::placed::unique_rooms`).
            findings.push(finding(
                Severity::Warning,
                "lyt.duplicate_room",
                room.line,
                Some(format!("rooms[{i}].name")),
                format!(
                    "room {i} '{}' has the same name as room {first}{}; names are case-insensitive, so both are one room file, and the area commands refuse the layout",
                    printable::escape(&room.name),
                    lyt.rooms
                        .get(first)
                        .and_then(|r| r.line)
                        .map_or(String::new(), |line| format!(" (line {line})")),
                ),
            ));
            // Keep the first index for later messages.
            seen.insert(room.name.to_ascii_lowercase(), first);
        }
    }
    for (i, hook) in lyt.door_hooks.iter().enumerate() {
        if !seen.contains_key(&hook.room.to_ascii_lowercase()) {
            findings.push(finding(
                Severity::Warning,
                "lyt.door_hook_unknown_room",
                None,
                Some(format!("doorhooks[{i}].room")),
                format!(
                    "door hook {i} ('{}') belongs to room '{}', which is not in the room list",
                    hook.door, hook.room
                ),
            ));
        }
        if let Some(problem) = resref_problem(&hook.door) {
            findings.push(finding(
                Severity::Warning,
                "lyt.bad_name",
                None,
                Some(format!("doorhooks[{i}].door")),
                problem,
            ));
        }
    }
    findings
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::approx_constant)]
mod tests {
    use super::*;

    const BIOWARE: &str = "#MAXLAYOUT ASCII\r\nfiledependancy m40ad.max\r\nbeginlayout\r\n   roomcount 2\r\n      M40ad_08c 225.0 44.99 0.0\r\n\t  M40ad_777 0.0 0.0 0.0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      M40ad_08a door_17 0 190.45 55.0 3.0 0.707107 0.0 0.0 -0.707106\r\ndonelayout\r\n";

    #[test]
    fn bioware_lines_read_with_the_door_integer() {
        let (lyt, findings) = read_lyt(BIOWARE.as_bytes()).unwrap();
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(lyt.header, ["#MAXLAYOUT ASCII", "filedependancy m40ad.max"]);
        assert_eq!(lyt.rooms.len(), 2);
        assert_eq!(lyt.rooms[0].position, [225.0, 44.99, 0.0]);
        assert_eq!(lyt.rooms[1].name, "M40ad_777");
        let hook = &lyt.door_hooks[0];
        assert_eq!(hook.flag, Some(0));
        assert_eq!(hook.position, [190.45, 55.0, 3.0]);
        assert_eq!(hook.orientation, [0.707107, 0.0, 0.0, -0.707106]);
        assert_eq!(write_lyt(&lyt), BIOWARE.as_bytes());
    }

    #[test]
    fn documented_grammar_without_the_integer_reads() {
        let text =
            "beginlayout\nroomcount 1\nr 1 2 3\ndoorhookcount 1\nr d 1 2 3 0 0 0 1\ndonelayout\n";
        let (lyt, findings) = read_lyt(text.as_bytes()).unwrap();
        assert!(findings.is_empty());
        assert_eq!(lyt.door_hooks[0].flag, None);
        assert_eq!(lyt.door_hooks[0].position, [1.0, 2.0, 3.0]);
        assert_eq!(lyt.door_hooks[0].orientation, [0.0, 0.0, 0.0, 1.0]);
        assert!(lyt.tracks.is_empty());
    }

    #[test]
    fn a_changed_layout_is_written_canonically_and_reads_back() {
        let (mut lyt, _) = read_lyt(BIOWARE.as_bytes()).unwrap();
        lyt.rooms[1].position[0] = 1.5;
        let bytes = write_lyt(&lyt);
        let expected = "#MAXLAYOUT ASCII\r\nfiledependancy m40ad.max\r\nbeginlayout\r\n   roomcount 2\r\n      M40ad_08c 225.0 44.99 0.0\r\n      M40ad_777 1.5 0.0 0.0\r\n   trackcount 0\r\n   obstaclecount 0\r\n   doorhookcount 1\r\n      M40ad_08a door_17 0 190.45 55.0 3.0 0.707107 0.0 0.0 -0.707106\r\ndonelayout\r\n";
        assert_eq!(String::from_utf8(bytes.clone()).unwrap(), expected);
        let (back, _) = read_lyt(&bytes).unwrap();
        assert_eq!(back.rooms, lyt.rooms);
        assert_eq!(back.door_hooks, lyt.door_hooks);
    }

    #[test]
    fn errors_name_line_and_field() {
        let error = read_lyt(b"beginlayout\nroomcount 1\nroom 1 two 3\ndonelayout\n").unwrap_err();
        assert_eq!(error.position, walkmesh_core::Position::Line(3));
        assert_eq!(error.field, "rooms[0].y");
        let error = read_lyt(b"beginlayout\nroomcount x\n").unwrap_err();
        assert_eq!(error.field, "roomcount");
        let error = read_lyt(b"hello\n").unwrap_err();
        assert_eq!(error.position, walkmesh_core::Position::Line(1));
        let error = read_lyt(b"#only a comment\n").unwrap_err();
        assert_eq!(error.field, "beginlayout");
        let error = read_lyt(b"beginlayout\nroomcount 1\nr 1 2\n").unwrap_err();
        assert_eq!(error.field, "rooms[0].name");
    }

    #[test]
    fn count_mismatch_and_trailing_text_are_findings() {
        let (lyt, findings) =
            read_lyt(b"beginlayout\nroomcount 2\nr 1 2 3\ndonelayout\nstray").unwrap();
        assert_eq!(lyt.rooms.len(), 1);
        let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["lyt.count_mismatch", "lyt.text_after_donelayout"]);
        assert_eq!(
            findings[0].location.position,
            walkmesh_core::Position::Line(2)
        );
    }

    #[test]
    fn checks_report_long_names_duplicates_and_unknown_hook_rooms() {
        let text = "beginlayout\nroomcount 3\nabcdefghijklmnopq 0 0 0\nRoomA 0 0 0\nrooma 1 1 1\ndoorhookcount 1\nnowhere d 0 0 0 0 0 0 0 1\ndonelayout\n";
        let (lyt, _) = read_lyt(text.as_bytes()).unwrap();
        let codes: Vec<String> = check_lyt(&lyt).into_iter().map(|f| f.code).collect();
        assert_eq!(
            codes,
            [
                "lyt.bad_name",
                "lyt.duplicate_room",
                "lyt.door_hook_unknown_room"
            ]
        );
    }
}
