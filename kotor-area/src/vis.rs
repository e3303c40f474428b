//! VIS, the text file that says which rooms are drawn from which (see `docs/formats/vis.md`).
//!
//! A parent line `<room> <count>` is followed by `count` child lines naming visible rooms
//! (indented by two spaces in every real file). Names are case-insensitive. [`write_vis`] gives
//! the file back byte for byte while nothing changed, the canonical layout otherwise.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use walkmesh_core::{Diagnostic, ReadError, Severity};

use crate::lyt::{Lyt, PLACEHOLDER_ROOM};
use crate::text::{count, finding, lines, resref_problem};

/// One parent room and the rooms visible from it.
#[derive(Clone, Debug, PartialEq)]
pub struct VisRoom {
    pub name: String,
    pub visible: Vec<String>,
}

/// A parsed VIS file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vis {
    /// A version line (`room V3.28`) some tools write first; kept as written.
    pub version_line: Option<String>,
    pub rooms: Vec<VisRoom>,
    source: Option<Arc<VisSource>>,
}

/// The bytes read and what they held, for writing back unchanged.
type VisSource = (Vec<u8>, Option<String>, Vec<VisRoom>);

impl Vis {
    fn unchanged_source(&self) -> Option<&[u8]> {
        let source = self.source.as_ref()?;
        (source.1 == self.version_line && source.2 == self.rooms).then_some(source.0.as_slice())
    }

    /// True while the visibility is what was read.
    pub fn is_unchanged(&self) -> bool {
        self.unchanged_source().is_some()
    }
}

/// Reads a VIS file. A parent whose count differs from its child lines is a finding; a line
/// that cannot be read is an error naming the line and field.
pub fn read_vis(bytes: &[u8]) -> Result<(Vis, Vec<Diagnostic>), ReadError> {
    let mut vis = Vis::default();
    let mut findings = Vec::new();
    // (parent index, declared count, line of the parent)
    let mut open: Option<(usize, usize, u64)> = None;
    let close = |open: Option<(usize, usize, u64)>, vis: &Vis, findings: &mut Vec<Diagnostic>| {
        if let Some((parent, declared, line)) = open
            && let Some(room) = vis.rooms.get(parent)
            && room.visible.len() != declared
        {
            findings.push(finding(
                Severity::Error,
                "vis.count_mismatch",
                Some(line),
                Some(format!("rooms[{parent}].count")),
                format!(
                    "room '{}' declares {declared} visible room(s) but lists {}; the game reads exactly the declared number",
                    room.name,
                    room.visible.len()
                ),
            ));
        }
    };
    for (line, text) in lines(bytes) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            continue;
        };
        let indented = text.starts_with([' ', '\t']);
        let remaining = open.and_then(|(parent, declared, _)| {
            let listed = vis.rooms.get(parent).map_or(0, |r| r.visible.len());
            (listed < declared).then_some(())
        });
        // The count decides, as in the game; an indented single name after the count is
        // exhausted is still a child (and makes the count wrong).
        if remaining.is_some() || (indented && tokens.len() == 1 && open.is_some()) {
            if tokens.len() > 1 {
                findings.push(finding(
                    Severity::Warning,
                    "vis.extra_tokens",
                    Some(line),
                    None,
                    format!("a child line holds '{text}'; only its first word is a room name"),
                ));
            }
            if let Some(room) = open.and_then(|(parent, _, _)| vis.rooms.get_mut(parent)) {
                room.visible.push(first.to_string());
            }
            continue;
        }
        if vis.rooms.is_empty()
            && vis.version_line.is_none()
            && tokens.len() == 2
            && tokens
                .get(1)
                .is_some_and(|t| t.starts_with(['V', 'v']) && t.parse::<usize>().is_err())
        {
            vis.version_line = Some(text.clone());
            continue;
        }
        close(open.take(), &vis, &mut findings);
        let index = vis.rooms.len();
        // A parent without a count occurs in a real file (K1CP m17aa.vis, `m17aa_09w`): read
        // as 0 visible rooms and reported, so the file still reads and writes back unchanged.
        let declared = match tokens.get(1) {
            None => {
                findings.push(finding(
                    Severity::Error,
                    "vis.count_missing",
                    Some(line),
                    Some(format!("rooms[{index}].count")),
                    format!("room '{first}' has no count of visible rooms; read as 0"),
                ));
                0
            }
            Some(token) => count(Some(token), line, &format!("rooms[{index}].count"))?,
        };
        if tokens.len() > 2 {
            return Err(ReadError::at_line(
                line,
                format!("rooms[{index}]"),
                format!("expected '<room> <count>', found '{}'", text.trim()),
            ));
        }
        vis.rooms.push(VisRoom {
            name: first.to_string(),
            visible: Vec::new(),
        });
        open = Some((index, declared, line));
    }
    close(open.take(), &vis, &mut findings);
    vis.source = Some(Arc::new((
        bytes.to_vec(),
        vis.version_line.clone(),
        vis.rooms.clone(),
    )));
    Ok((vis, findings))
}

/// Writes `vis`: the bytes it was read from while nothing changed, otherwise one
/// `<room> <count>` line per parent and `  <room>` per child, CRLF line endings.
pub fn write_vis(vis: &Vis) -> Vec<u8> {
    if let Some(bytes) = vis.unchanged_source() {
        return bytes.to_vec();
    }
    let mut out = String::new();
    if let Some(line) = &vis.version_line {
        out.push_str(line);
        out.push_str("\r\n");
    }
    for room in &vis.rooms {
        out.push_str(&format!("{} {}\r\n", room.name, room.visible.len()));
        for child in &room.visible {
            out.push_str(&format!("  {child}\r\n"));
        }
    }
    crate::text::latin1_bytes(&out)
}

/// Checks visibility on its own and, given the layout, against it: names (ResRefs), parents
/// listed twice, VIS rooms the LYT lacks, LYT rooms without a VIS entry, and one-way
/// visibility (A lists B, B does not list A; reported, since the engine allows it but it is
/// usually an oversight).
pub fn check_vis(vis: &Vis, lyt: Option<&Lyt>) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut parents: HashMap<String, usize> = HashMap::new();
    let mut pairs: HashSet<(String, String)> = HashSet::new();
    for (i, room) in vis.rooms.iter().enumerate() {
        let name = room.name.to_ascii_lowercase();
        if let Some(problem) = resref_problem(&room.name) {
            findings.push(finding(
                Severity::Error,
                "vis.bad_name",
                None,
                Some(format!("rooms[{i}].name")),
                problem,
            ));
        }
        if let Some(first) = parents.get(&name) {
            findings.push(finding(
                Severity::Warning,
                "vis.duplicate_room",
                None,
                Some(format!("rooms[{i}].name")),
                format!(
                    "'{}' is listed as a parent again (first at entry {first})",
                    room.name
                ),
            ));
        } else {
            parents.insert(name.clone(), i);
        }
        for (k, child) in room.visible.iter().enumerate() {
            if let Some(problem) = resref_problem(child) {
                findings.push(finding(
                    Severity::Error,
                    "vis.bad_name",
                    None,
                    Some(format!("rooms[{i}].visible[{k}]")),
                    problem,
                ));
            }
            pairs.insert((name.clone(), child.to_ascii_lowercase()));
        }
    }
    if let Some(lyt) = lyt {
        let layout: HashSet<String> = lyt
            .rooms
            .iter()
            .map(|r| r.name.to_ascii_lowercase())
            .collect();
        let mut reported = HashSet::new();
        for (i, room) in vis.rooms.iter().enumerate() {
            let names = std::iter::once((None, &room.name))
                .chain(room.visible.iter().enumerate().map(|(k, c)| (Some(k), c)));
            for (k, name) in names {
                let lower = name.to_ascii_lowercase();
                if !layout.contains(&lower) && reported.insert(lower) {
                    let field = match k {
                        None => format!("rooms[{i}].name"),
                        Some(k) => format!("rooms[{i}].visible[{k}]"),
                    };
                    findings.push(finding(
                        Severity::Error,
                        "vis.room_not_in_layout",
                        None,
                        Some(field),
                        format!("'{name}' is not a room of the layout"),
                    ));
                }
            }
        }
        for (i, room) in lyt.rooms.iter().enumerate() {
            if room.name != PLACEHOLDER_ROOM
                && !parents.contains_key(&room.name.to_ascii_lowercase())
            {
                findings.push(finding(
                    Severity::Warning,
                    "vis.room_missing",
                    None,
                    Some(format!("lyt.rooms[{i}]")),
                    format!(
                        "layout room {i} '{}' has no VIS entry, so nothing is drawn from it",
                        room.name
                    ),
                ));
            }
        }
    }
    for (i, room) in vis.rooms.iter().enumerate() {
        let name = room.name.to_ascii_lowercase();
        for (k, child) in room.visible.iter().enumerate() {
            let child_lower = child.to_ascii_lowercase();
            if child_lower != name
                && parents.contains_key(&child_lower)
                && !pairs.contains(&(child_lower.clone(), name.clone()))
            {
                findings.push(finding(
                    Severity::Info,
                    "vis.one_way",
                    None,
                    Some(format!("rooms[{i}].visible[{k}]")),
                    format!(
                        "'{}' sees '{child}', but '{child}' does not list '{}'",
                        room.name, room.name
                    ),
                ));
            }
        }
    }
    findings
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn parents_and_children_read_and_write_back() {
        let text = b"m01 2\r\n  m02\r\n  m01\r\nm02 1\r\n  m01\r\nm03 0";
        let (vis, findings) = read_vis(text).unwrap();
        assert!(findings.is_empty());
        assert_eq!(vis.rooms.len(), 3);
        assert_eq!(vis.rooms[0].visible, ["m02", "m01"]);
        assert!(vis.rooms[2].visible.is_empty());
        assert_eq!(write_vis(&vis), text);
        let mut changed = vis.clone();
        changed.rooms[2].visible.push("m01".into());
        assert_eq!(
            write_vis(&changed),
            b"m01 2\r\n  m02\r\n  m01\r\nm02 1\r\n  m01\r\nm03 1\r\n  m01\r\n"
        );
    }

    #[test]
    fn count_mismatch_is_a_finding_and_bad_counts_are_errors() {
        let (vis, findings) = read_vis(b"a 1\n  b\n  c\nb 0\n").unwrap();
        assert_eq!(vis.rooms[0].visible, ["b", "c"]);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, "vis.count_mismatch");
        assert_eq!(
            findings[0].location.position,
            walkmesh_core::Position::Line(1)
        );
        let (_, findings) = read_vis(b"a 0\nb\n").unwrap();
        assert_eq!(findings[0].code, "vis.count_missing");
        let error = read_vis(b"a 1\n  b\nc x\n").unwrap_err();
        assert_eq!(error.position, walkmesh_core::Position::Line(3));
        assert_eq!(error.field, "rooms[1].count");
    }

    #[test]
    fn checks_against_the_layout_and_one_way() {
        let (lyt, _) = crate::lyt::read_lyt(
            b"beginlayout\nroomcount 3\nA 0 0 0\nB 0 0 0\nC 0 0 0\ndonelayout\n",
        )
        .unwrap();
        let (vis, _) = read_vis(b"a 2\n  b\n  x\nb 0\n").unwrap();
        let findings = check_vis(&vis, Some(&lyt));
        let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(
            codes,
            ["vis.room_not_in_layout", "vis.room_missing", "vis.one_way"]
        );
        assert!(findings[0].message.contains("'x'"));
        assert!(findings[1].message.contains("'C'"));
    }
}
