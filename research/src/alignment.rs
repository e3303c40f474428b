//! The outcome of pairing one table's records by content ([`crate::align`]), kept apart from
//! the pairing itself so that the diff's result type (`FieldDiff::aligned`) does not depend on
//! the pairing code that depends on the diff.

use serde::Serialize;

/// How the records of one table were paired.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alignment {
    /// The table: BWM `vertices`, `faces` (with `materials`, `normals`, `distances`,
    /// `adjacency`), `aabb`, `edges`; ASWM `aswm.vertices`, `aswm.triangles`, `aswm.edges`.
    pub table: String,
    pub count_a: usize,
    pub count_b: usize,
    /// Records of A with a counterpart in B of the same content.
    pub matched: usize,
    /// Records found in neither file by content but present at the same index in both: those
    /// are compared index by index (a vertex that moved, a box a writer pads differently).
    pub by_index: usize,
    /// For each record of A, the index of its counterpart in B by content (`null`: none).
    pub permutation: Vec<Option<u32>>,
}

impl Alignment {
    /// Some record of A is paired with another index of B.
    pub fn reordered(&self) -> bool {
        self.permutation
            .iter()
            .enumerate()
            .any(|(i, b)| b.is_some_and(|b| b as usize != i))
    }

    /// The table differs in order or in content.
    pub fn differs(&self) -> bool {
        self.reordered() || self.matched != self.count_a || self.matched != self.count_b
    }

    /// `vertices: same 677 vertices, reordered (permutation in --json)`.
    pub fn to_text(&self) -> String {
        let noun = match self.table.as_str() {
            "aabb" => "AABB nodes",
            "edges" => "perimeter edges",
            other => other.rsplit('.').next().unwrap_or(other),
        };
        let order = if self.reordered() {
            ", reordered (the permutation is in --json)"
        } else {
            ", in the same order"
        };
        if self.matched == self.count_a && self.matched == self.count_b {
            return format!("{}: same {} {noun}{order}", self.table, self.matched);
        }
        let by_index = if self.by_index > 0 {
            format!("; {} others compared index by index", self.by_index)
        } else {
            String::new()
        };
        format!(
            "{}: {} of A's {} {noun} found in B ({} in B){order}{by_index}",
            self.table, self.matched, self.count_a, self.count_b
        )
    }
}
