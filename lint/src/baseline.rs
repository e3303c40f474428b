//! `lint --baseline FILE`: which findings are new since an earlier `lint --json` run.
//!
//! Findings are matched by what they are, never by their place in the list: a current finding
//! is known when the baseline holds one of the same code on the same faces (face numbers as
//! the file gives them, in any order), or failing that one of the same code within
//! [`SAME_PLACE`] of the same position (an edit elsewhere in the file renumbers faces but
//! leaves a defect where it was). A note without a position (a reader's warning) matches one
//! of the same code and message. Each baseline finding accounts for one current finding at
//! most, so a defect that appears twice where the baseline had it once is new once.

use rustc_hash::FxHashMap;

use crate::Finding;

/// Positions closer than this (in each coordinate, metres) are the same place.
pub const SAME_PLACE: f32 = 0.01;

/// A finding of the baseline, as an earlier `lint --json` printed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    pub code: String,
    pub faces: Vec<u32>,
    pub at: Option<[f32; 3]>,
    pub message: String,
}

impl Known {
    /// The baseline entry a finding would leave.
    pub fn of(finding: &Finding) -> Known {
        Known {
            code: finding.code.clone(),
            faces: finding.faces.clone(),
            at: finding.at,
            message: finding.message.clone(),
        }
    }
}

/// How a finding compared with the baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Per current finding: true when the baseline does not hold it.
    pub new: Vec<bool>,
    /// Baseline findings no current finding matched (fixed since, or changed).
    pub gone: usize,
}

fn sorted_faces(faces: &[u32]) -> Vec<u32> {
    let mut faces = faces.to_vec();
    faces.sort_unstable();
    faces
}

/// The grid cell of a position, in cells of [`SAME_PLACE`].
fn cell(at: [f32; 3]) -> [i64; 3] {
    at.map(|c| (f64::from(c) / f64::from(SAME_PLACE)).floor() as i64)
}

/// Unused baseline entries, filed by code and faces, and by code and position cell.
struct Index<'a> {
    known: &'a [Known],
    used: Vec<bool>,
    by_faces: FxHashMap<(&'a str, Vec<u32>), Vec<usize>>,
    by_cell: FxHashMap<(&'a str, [i64; 3]), Vec<usize>>,
    by_message: FxHashMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Index<'a> {
    fn new(known: &'a [Known]) -> Index<'a> {
        let mut index = Index {
            known,
            used: vec![false; known.len()],
            by_faces: FxHashMap::default(),
            by_cell: FxHashMap::default(),
            by_message: FxHashMap::default(),
        };
        for (i, k) in known.iter().enumerate() {
            match k.at {
                Some(at) => {
                    if !k.faces.is_empty() {
                        let key = (k.code.as_str(), sorted_faces(&k.faces));
                        index.by_faces.entry(key).or_default().push(i);
                    }
                    let key = (k.code.as_str(), cell(at));
                    index.by_cell.entry(key).or_default().push(i);
                }
                None => {
                    let key = (k.code.as_str(), k.message.as_str());
                    index.by_message.entry(key).or_default().push(i);
                }
            }
        }
        index
    }

    /// Marks the first unused entry of `candidates` that `fits` as used.
    fn take(&mut self, candidates: &[usize], fits: impl Fn(&Known) -> bool) -> bool {
        for &i in candidates {
            let unused = self.used.get(i).is_some_and(|u| !u);
            if unused && self.known.get(i).is_some_and(&fits) {
                if let Some(slot) = self.used.get_mut(i) {
                    *slot = true;
                }
                return true;
            }
        }
        false
    }

    fn take_same_faces(&mut self, finding: &Finding) -> bool {
        if finding.faces.is_empty() || finding.at.is_none() {
            return false;
        }
        let key = (finding.code.as_str(), sorted_faces(&finding.faces));
        let candidates = self.by_faces.get(&key).cloned().unwrap_or_default();
        self.take(&candidates, |_| true)
    }

    fn take_same_place(&mut self, finding: &Finding) -> bool {
        let Some(at) = finding.at else {
            let key = (finding.code.as_str(), finding.message.as_str());
            let candidates = self.by_message.get(&key).cloned().unwrap_or_default();
            return self.take(&candidates, |_| true);
        };
        let [x, y, z] = cell(at);
        let near = |k: &Known| {
            k.at.is_some_and(|p| p.iter().zip(at).all(|(a, b)| (a - b).abs() <= SAME_PLACE))
        };
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = (finding.code.as_str(), [x + dx, y + dy, z + dz]);
                    let candidates = self.by_cell.get(&key).cloned().unwrap_or_default();
                    if self.take(&candidates, near) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Compares `findings` with the baseline `known`: first every finding that has a baseline
/// entry of the same code on the same faces takes it, then the rest look for one of the same
/// code at the same place (so an exact match is never stolen by a nearby one).
pub fn compare(findings: &[&Finding], known: &[Known]) -> Comparison {
    let mut index = Index::new(known);
    let mut matched: Vec<bool> = findings.iter().map(|f| index.take_same_faces(f)).collect();
    for (finding, matched) in findings.iter().zip(matched.iter_mut()) {
        if !*matched {
            *matched = index.take_same_place(finding);
        }
    }
    Comparison {
        new: matched.iter().map(|m| !m).collect(),
        gone: index.used.iter().filter(|u| !**u).count(),
    }
}

/// Why a baseline could not be read: the text is not what `walkmesh lint --json` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaselineError {
    /// Not JSON at all (serde_json's message, with line and column).
    NotJson(String),
    /// Neither an object with a `findings` list nor a bare list.
    NoFindings,
    /// `findings[index]` lacks a field of a finding or has one of the wrong type.
    NotAFinding { index: usize },
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaselineError::NotJson(why) => {
                write!(f, "not the JSON `walkmesh lint --json` prints: {why}")
            }
            BaselineError::NoFindings => write!(f, "no \"findings\" list"),
            BaselineError::NotAFinding { index } => write!(
                f,
                "findings[{index}] is not a finding (code, faces, at, message)"
            ),
        }
    }
}

impl std::error::Error for BaselineError {}

/// The findings of an earlier `lint --json` output (its `findings`, or a bare list as
/// Python's `Mesh.lint()` returns).
pub fn parse_known(text: &str) -> Result<Vec<Known>, BaselineError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| BaselineError::NotJson(e.to_string()))?;
    let list = value
        .get("findings")
        .unwrap_or(&value)
        .as_array()
        .ok_or(BaselineError::NoFindings)?;
    list.iter()
        .enumerate()
        .map(|(index, item)| known_of(item).ok_or(BaselineError::NotAFinding { index }))
        .collect()
}

/// One finding of a `lint --json` report (`code`, `faces`, `at`, `message`).
fn known_of(item: &serde_json::Value) -> Option<Known> {
    let faces = item
        .get("faces")?
        .as_array()?
        .iter()
        .map(|f| f.as_u64().and_then(|f| u32::try_from(f).ok()))
        .collect::<Option<Vec<u32>>>()?;
    let at = match item.get("at")? {
        serde_json::Value::Null => None,
        value => {
            let xyz: Vec<f32> = value
                .as_array()?
                .iter()
                .map(|c| c.as_f64().map(|c| c as f32))
                .collect::<Option<_>>()?;
            Some(<[f32; 3]>::try_from(xyz).ok()?)
        }
    };
    Some(Known {
        code: item.get("code")?.as_str()?.to_string(),
        faces,
        at,
        message: item.get("message")?.as_str()?.to_string(),
    })
}

impl walkmesh_core::Kinded for BaselineError {
    /// A `--baseline` file that is not a lint report.
    fn kind(&self) -> walkmesh_core::ErrorKind {
        walkmesh_core::ErrorKind::Invalid
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn finding(code: &str, faces: &[u32], at: [f32; 3]) -> Finding {
        Finding::warning(code, faces.to_vec(), at, "m".into(), false)
    }

    #[test]
    fn matches_by_faces_then_by_place_each_entry_once() {
        let known = [
            Known::of(&finding("lint.island", &[3, 4], [1.0, 2.0, 0.0])),
            Known::of(&finding("lint.overlap", &[7, 9], [5.0, 5.0, 0.0])),
        ];
        let now = [
            // Same faces, listed the other way round: known.
            finding("lint.island", &[4, 3], [1.0, 2.0, 0.0]),
            // Renumbered but in the same place: known.
            finding("lint.overlap", &[8, 10], [5.0, 5.005, 0.0]),
            // The same place again: the entry is taken, so this one is new.
            finding("lint.overlap", &[11, 12], [5.0, 5.0, 0.0]),
            // Another code at a known place: new.
            finding("lint.degenerate", &[3], [1.0, 2.0, 0.0]),
        ];
        let now: Vec<&Finding> = now.iter().collect();
        let comparison = compare(&now, &known);
        assert_eq!(comparison.new, vec![false, false, true, true]);
        assert_eq!(comparison.gone, 0);
        assert_eq!(compare(&now[..1], &known).gone, 1);
    }

    #[test]
    fn notes_without_a_place_match_by_code_and_message() {
        let note = Finding {
            at: None,
            faces: Vec::new(),
            ..finding("bwm.x", &[], [0.0; 3])
        };
        let known = [Known::of(&note)];
        let other = Finding {
            message: "another".into(),
            ..note.clone()
        };
        assert_eq!(compare(&[&note, &other], &known).new, vec![false, true]);
    }

    #[test]
    fn parse_known_reads_a_report_or_a_bare_list_and_names_what_is_wrong() {
        let found = finding("lint.island", &[3, 4], [1.0, 2.0, 0.0]);
        let list = serde_json::to_string(&[&found]).unwrap();
        let report = format!("{{\"target\": \"a.wok\", \"findings\": {list}}}");
        assert_eq!(parse_known(&report).unwrap(), vec![Known::of(&found)]);
        assert_eq!(parse_known(&list).unwrap(), vec![Known::of(&found)]);
        let no_place = r#"[{"code": "x", "faces": [], "at": null, "message": "m"}]"#;
        assert_eq!(parse_known(no_place).unwrap()[0].at, None);
        assert!(matches!(parse_known("{"), Err(BaselineError::NotJson(_))));
        assert_eq!(parse_known("{}"), Err(BaselineError::NoFindings));
        let bad = r#"[{"code": "x", "faces": [1], "at": [1, 2], "message": "m"}]"#;
        assert_eq!(
            parse_known(bad).unwrap_err().to_string(),
            "findings[0] is not a finding (code, faces, at, message)"
        );
    }
}
