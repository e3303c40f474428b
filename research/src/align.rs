//! Pairing the records of two files by content before their fields are compared: two writers
//! of the same mesh may store vertices, faces and AABB nodes in another order, and compared
//! index by index every record would differ. Here:
//!
//! - vertices are paired by their stored bytes (equal coordinates: first with first);
//! - faces by their corners, as the vertices paired (a face stored from another corner, same
//!   winding, is the same face); each face's fields go with it (BWM: the parallel `materials`,
//!   `normals`, `distances` and `adjacency` tables; ASWM: the triangle's centre, normal, d,
//!   island and flags), neighbours compared as remapped (BWM adjacency `face·3 + edge`, ASWM
//!   `linked_triangles` and `linked_edges`, turned into A's numbering);
//! - BWM AABB nodes by their box and face (remapped), their children compared as remapped;
//! - BWM perimeter edges by their face edge (remapped), their transitions compared; ASWM edges
//!   by their two vertices (remapped), their triangles compared as remapped.
//!
//! Records with no counterpart by content that sit at an index both files have are compared
//! index by index (a vertex that moved, a box a writer pads differently). The tables are those
//! of the BWM and ASWM field dumps (`vertices[i]`, `aswm.triangles[i].vertices`, …); other
//! tables (ASWM tiles and path tables, PATH) are compared index by index.
//! Memory: both files' records of these tables are kept (about 180 bytes a field, within the
//! diff's `--field-limit`).

use std::collections::{BTreeMap, VecDeque};
use std::hash::Hash;

use rustc_hash::FxHashMap;

pub use crate::alignment::Alignment;
use crate::diff::{FieldDiff, FieldDifference, Side, Stored, field_diff, one_sided, walk_error};
use crate::error::ResearchError;
use crate::fields::{FieldRef, walk};

/// How a face's neighbour row names a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Neighbour {
    /// `face·3 + edge` (BWM adjacency).
    FaceEdge,
    /// A face index (ASWM `linked_triangles`).
    Face,
}

/// Where one format's dump keeps the mesh tables.
#[derive(Debug)]
struct Schema {
    vertices: &'static str,
    /// The faces' corners: (table, field within a record; `""` for the record itself).
    corners: (&'static str, &'static str),
    /// Per-face fields compared byte for byte.
    per_face: &'static [(&'static str, &'static str)],
    /// Tables holding one record per face (one-sided with their face).
    face_tables: &'static [&'static str],
    /// The faces' neighbour rows, one per edge.
    neighbours: (&'static str, &'static str, Neighbour),
    /// BWM's AABB tree.
    aabb: Option<&'static str>,
    /// BWM's perimeter edges (`index` = `face·3 + edge`, `transition`).
    perimeter: Option<&'static str>,
    /// ASWM's edges (`vertices`, `triangles`) and the faces' rows naming them.
    edges: Option<(&'static str, (&'static str, &'static str))>,
    /// Entry `k` of a face's neighbour row belongs to its edge `k` (from corner `k`), so a
    /// face stored from another corner has its row turned with it. When false (ASWM, whose
    /// writers order the rows by other rules), rows are compared as sets.
    rows_follow_corners: bool,
}

const BWM: Schema = Schema {
    vertices: "vertices",
    corners: ("faces", ""),
    per_face: &[("materials", ""), ("normals", ""), ("distances", "")],
    face_tables: &["faces", "materials", "normals", "distances", "adjacency"],
    neighbours: ("adjacency", "", Neighbour::FaceEdge),
    aabb: Some("aabb"),
    perimeter: Some("edges"),
    edges: None,
    rows_follow_corners: true,
};

const ASWM: Schema = Schema {
    vertices: "aswm.vertices",
    corners: ("aswm.triangles", "vertices"),
    per_face: &[
        ("aswm.triangles", "centre"),
        ("aswm.triangles", "normal"),
        ("aswm.triangles", "d"),
        ("aswm.triangles", "island"),
        ("aswm.triangles", "flags"),
    ],
    face_tables: &["aswm.triangles"],
    neighbours: ("aswm.triangles", "linked_triangles", Neighbour::Face),
    aabb: None,
    perimeter: None,
    edges: Some(("aswm.edges", ("aswm.triangles", "linked_edges"))),
    rows_follow_corners: false,
};

const SCHEMAS: [&Schema; 2] = [&BWM, &ASWM];

impl Schema {
    /// Every table this schema pairs.
    fn tables(&self) -> impl Iterator<Item = &'static str> + '_ {
        [self.vertices]
            .into_iter()
            .chain(self.face_tables.iter().copied())
            .chain(self.aabb)
            .chain(self.perimeter)
            .chain(self.edges.map(|e| e.0))
    }
}

/// Every table some schema pairs (records of these are kept while reading).
fn is_table(name: &str) -> Option<&'static str> {
    SCHEMAS.iter().flat_map(|s| s.tables()).find(|t| *t == name)
}

/// One record: its fields by sub-path (`""` for the record itself, `min` for `aabb[3].min`).
type Record = Vec<(String, Stored)>;

/// One file's records of the aligned tables, by table and index.
#[derive(Default)]
struct Tables {
    tables: FxHashMap<&'static str, BTreeMap<usize, Record>>,
}

/// `aabb[3].min` → (`aabb`, 3, `min`), for the tables some schema pairs.
fn split(path: &str) -> Option<(&'static str, usize, &str)> {
    let (name, rest) = path.split_once('[')?;
    let table = is_table(name)?;
    let (index, sub) = rest.split_once(']')?;
    Some((table, index.parse().ok()?, sub.trim_start_matches('.')))
}

/// True when `path` belongs to one of `tables`.
pub fn is_in(path: &str, tables: &[String]) -> bool {
    split(path).is_some_and(|(table, _, _)| tables.iter().any(|t| t == table))
}

impl Tables {
    fn read(side: Side<'_>, limit: usize) -> Result<Tables, ResearchError> {
        let mut tables = Tables::default();
        let mut kept = 0usize;
        walk(
            side.dumper,
            side.bytes,
            Some(side.file),
            |f: FieldRef<'_>| {
                if kept >= limit {
                    return;
                }
                if let Some((table, index, sub)) = split(f.path) {
                    kept += 1;
                    let record = tables
                        .tables
                        .entry(table)
                        .or_default()
                        .entry(index)
                        .or_default();
                    record.push((sub.to_string(), Stored::of(&f)));
                }
            },
        )
        .map_err(walk_error(side.file))?;
        if kept >= limit {
            return Err(ResearchError::TooManyRecords {
                file: side.file.to_path_buf(),
                limit,
            });
        }
        Ok(tables)
    }

    fn table(&self, name: &str) -> Option<&BTreeMap<usize, Record>> {
        self.tables.get(name)
    }

    /// The record's own field, or its field `sub`.
    fn field(&self, table: &str, index: usize, sub: &str) -> Option<&Stored> {
        self.table(table)?
            .get(&index)?
            .iter()
            .find(|(s, _)| s == sub)
            .map(|(_, f)| f)
    }

    fn count(&self, table: &str) -> usize {
        self.table(table).map_or(0, BTreeMap::len)
    }

    /// The integer values of a field (a face's corners, an adjacency row).
    fn ints(&self, table: &str, index: usize, sub: &str) -> Option<Vec<i64>> {
        self.field(table, index, sub)?
            .values
            .iter()
            .map(|v| match v {
                crate::fields::Scalar::Int(i) => Some(*i),
                crate::fields::Scalar::UInt(u) => i64::try_from(*u).ok(),
                _ => None,
            })
            .collect()
    }
}

/// Pairs records by key, in order among equal keys: for each record of A, its B index.
fn pair<K: Hash + Eq>(keys_a: Vec<Option<K>>, keys_b: Vec<Option<K>>) -> Vec<Option<u32>> {
    let mut a_to_b = vec![None; keys_a.len()];
    let mut waiting: FxHashMap<K, VecDeque<usize>> = FxHashMap::default();
    for (i, key) in keys_a.into_iter().enumerate() {
        if let Some(key) = key {
            waiting.entry(key).or_default().push_back(i);
        }
    }
    for (j, key) in keys_b.into_iter().enumerate() {
        let found = key.and_then(|key| waiting.get_mut(&key).and_then(VecDeque::pop_front));
        if let Some(slot) = found.and_then(|i| a_to_b.get_mut(i)) {
            *slot = Some(j as u32);
        }
    }
    a_to_b
}

/// The inverse of a pairing, over `count_b` records of B.
fn inverse(a_to_b: &[Option<u32>], count_b: usize) -> Vec<Option<u32>> {
    let mut b_to_a = vec![None; count_b];
    for (i, b) in a_to_b.iter().enumerate() {
        if let Some(slot) = b.and_then(|b| b_to_a.get_mut(b as usize)) {
            *slot = Some(i as u32);
        }
    }
    b_to_a
}

/// How the records of one table were paired: by content, then what is left over at the same
/// index in both files.
struct Pairing {
    /// A → B by content.
    content: Vec<Option<u32>>,
    /// A → B by content or, failing that, by index.
    a_to_b: Vec<Option<u32>>,
    b_to_a: Vec<Option<u32>>,
}

impl Pairing {
    fn new(content: Vec<Option<u32>>, count_b: usize) -> Pairing {
        let mut b_to_a = inverse(&content, count_b);
        let mut a_to_b = content.clone();
        for (i, slot) in a_to_b.iter_mut().enumerate() {
            if slot.is_none()
                && let Some(free @ None) = b_to_a.get_mut(i)
            {
                *slot = Some(i as u32);
                *free = Some(i as u32);
            }
        }
        Pairing {
            content,
            a_to_b,
            b_to_a,
        }
    }

    /// Paired records as (A index, B index, paired by content).
    fn pairs(&self) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        self.a_to_b.iter().enumerate().filter_map(|(i, b)| {
            let by_content = self.content.get(i).copied().flatten().is_some();
            b.map(|b| (i, b as usize, by_content))
        })
    }

    fn alignment(&self, table: &str, count_b: usize) -> Alignment {
        let matched = self.content.iter().flatten().count();
        Alignment {
            table: table.to_string(),
            count_a: self.content.len(),
            count_b,
            matched,
            by_index: self.a_to_b.iter().flatten().count() - matched,
            permutation: self.content.clone(),
        }
    }

    /// B's index `b` in A's numbering (`-2` for a record A lacks); negative values stay.
    fn to_a(&self, b: i64) -> i64 {
        match usize::try_from(b) {
            Ok(b) => self.b_to_a.get(b).copied().flatten().map_or(-2, i64::from),
            Err(_) => b,
        }
    }
}

/// A face's corners rotated to start at the smallest (winding kept), and the rotation.
fn canonical(corners: &[i64]) -> Option<(Vec<i64>, usize)> {
    let (start, _) = corners.iter().enumerate().min_by_key(|(_, c)| **c)?;
    let n = corners.len();
    let rotated = (0..n)
        .map(|k| corners.get((k + start) % n).copied())
        .collect::<Option<Vec<i64>>>()?;
    Some((rotated, start))
}

/// The pairing of faces, with each face's rotation from its stored corner order to its
/// canonical one (B edge `k` is A edge `(k + 3 - rot_b + rot_a) % 3`).
struct FacePairing {
    pairing: Pairing,
    rotation_a: Vec<usize>,
    rotation_b: Vec<usize>,
}

impl FacePairing {
    /// A's `face·3 + edge` of B's, or `None` when B's face has no counterpart; negative
    /// values (no neighbour) stay.
    fn edge_to_a(&self, value_b: i64) -> Option<i64> {
        if value_b < 0 {
            return Some(value_b);
        }
        let (face_b, edge_b) = ((value_b / 3) as usize, (value_b % 3) as usize);
        let face_a = self.pairing.b_to_a.get(face_b).copied().flatten()? as usize;
        let edge_a = self.edge_a(face_a, face_b, edge_b)?;
        Some(face_a as i64 * 3 + edge_a as i64)
    }

    /// A's face of B's face `value_b`; negative values (none) stay.
    fn face_to_a(&self, value_b: i64) -> Option<i64> {
        if value_b < 0 {
            return Some(value_b);
        }
        let face_b = usize::try_from(value_b).ok()?;
        self.pairing
            .b_to_a
            .get(face_b)
            .copied()
            .flatten()
            .map(i64::from)
    }

    /// A's edge number of edge `edge_b` of B's face `face_b`, paired with A's `face_a`.
    fn edge_a(&self, face_a: usize, face_b: usize, edge_b: usize) -> Option<usize> {
        let rot_a = *self.rotation_a.get(face_a)?;
        let rot_b = *self.rotation_b.get(face_b)?;
        Some((edge_b + 3 - rot_b + rot_a) % 3)
    }
}

fn pair_faces(schema: &Schema, a: &Tables, b: &Tables, vertices: &Pairing) -> FacePairing {
    let (table, sub) = schema.corners;
    let key = |t: &Tables, i: usize, map: Option<&[Option<u32>]>| -> Option<(Vec<i64>, usize)> {
        let corners = t.ints(table, i, sub)?;
        let corners = match map {
            Some(map) => corners
                .iter()
                .map(|&c| {
                    let c = usize::try_from(c).ok()?;
                    map.get(c).copied().flatten().map(i64::from)
                })
                .collect::<Option<Vec<i64>>>()?,
            None => corners,
        };
        canonical(&corners)
    };
    // Corners paired by content only: a vertex that moved makes its faces differ.
    let vertex_content = inverse(&vertices.content, b.count(schema.vertices));
    let keyed_a: Vec<_> = (0..a.count(table)).map(|i| key(a, i, None)).collect();
    let keyed_b: Vec<_> = (0..b.count(table))
        .map(|i| key(b, i, Some(&vertex_content)))
        .collect();
    let rotation = |keyed: &[Option<(Vec<i64>, usize)>]| -> Vec<usize> {
        keyed
            .iter()
            .map(|k| k.as_ref().map_or(0, |k| k.1))
            .collect()
    };
    let (rotation_a, rotation_b) = (rotation(&keyed_a), rotation(&keyed_b));
    let content = pair(
        keyed_a.into_iter().map(|k| k.map(|k| k.0)).collect(),
        keyed_b.into_iter().map(|k| k.map(|k| k.0)).collect(),
    );
    FacePairing {
        pairing: Pairing::new(content, b.count(table)),
        rotation_a,
        rotation_b,
    }
}

/// Adds the difference of two paired fields when their bytes differ.
fn differ(fa: &Stored, fb: &Stored, out: &mut Vec<FieldDifference>) {
    if fa.raw == fb.raw && fa.values == fb.values {
        return;
    }
    out.push(pair_difference(fa, fb));
}

/// The difference of two paired fields, with B's path when it is another record's.
fn pair_difference(fa: &Stored, fb: &Stored) -> FieldDifference {
    let mut d = one_sided(fa, true);
    let from_b = one_sided(fb, false);
    d.b = from_b.b;
    d.offset_b = from_b.offset_b;
    d.space_b = from_b.space_b;
    if fb.path != fa.path {
        d.path_b = Some(fb.path.clone());
    }
    d
}

/// Compares field `sub` of paired records `i` (A) and `j` (B) of `table` byte for byte.
fn differ_at(
    a: &Tables,
    b: &Tables,
    (table, sub): (&str, &str),
    (i, j): (usize, usize),
) -> Option<FieldDifference> {
    let (fa, fb) = (a.field(table, i, sub)?, b.field(table, j, sub)?);
    let mut out = Vec::new();
    differ(fa, fb, &mut out);
    out.pop()
}

/// Compares a field holding indices (a face, a child node, an edge's triangles) after
/// turning B's into A's numbering with `to_a`.
fn differ_mapped(
    a: &Tables,
    b: &Tables,
    (table, sub): (&str, &str),
    (i, j): (usize, usize),
    to_a: impl Fn(i64) -> Option<i64>,
) -> Option<FieldDifference> {
    let (fa, fb) = (a.field(table, i, sub)?, b.field(table, j, sub)?);
    let values_a = a.ints(table, i, sub)?;
    let mapped_b: Vec<Option<i64>> = b.ints(table, j, sub)?.into_iter().map(to_a).collect();
    let same = values_a.len() == mapped_b.len()
        && values_a.iter().zip(&mapped_b).all(|(x, y)| Some(*x) == *y);
    (!same).then(|| pair_difference(fa, fb))
}

/// Compares a row of indices as a set, after turning B's into A's numbering with `to_a`.
fn differ_as_sets(
    a: &Tables,
    b: &Tables,
    (table, sub): (&str, &str),
    (i, j): (usize, usize),
    to_a: &dyn Fn(i64) -> Option<i64>,
) -> Option<FieldDifference> {
    let (fa, fb) = (a.field(table, i, sub)?, b.field(table, j, sub)?);
    let mut values_a: Vec<Option<i64>> = a.ints(table, i, sub)?.into_iter().map(Some).collect();
    let mut mapped_b: Vec<Option<i64>> = b.ints(table, j, sub)?.into_iter().map(to_a).collect();
    values_a.sort_unstable();
    mapped_b.sort_unstable();
    (values_a != mapped_b).then(|| pair_difference(fa, fb))
}

/// Every field of the records of `table` that only one side holds.
fn one_sided_records(
    tables: &Tables,
    table: &str,
    paired: &[Option<u32>],
    in_a: bool,
    out: &mut Vec<FieldDifference>,
) {
    for (index, record) in tables.table(table).into_iter().flatten() {
        if paired.get(*index).copied().flatten().is_none() {
            out.extend(record.iter().map(|(_, f)| one_sided(f, in_a)));
        }
    }
}

/// Both sides' records of `table` that the pairing left alone.
fn unpaired(
    a: &Tables,
    b: &Tables,
    table: &str,
    pairing: &Pairing,
    out: &mut Vec<FieldDifference>,
) {
    one_sided_records(a, table, &pairing.a_to_b, true, out);
    one_sided_records(b, table, &pairing.b_to_a, false, out);
}

/// Compares paired faces: their corners when paired by index only, the per-face fields and
/// the neighbour rows (and ASWM's edge rows, through `edges`).
fn compare_faces(
    schema: &Schema,
    (a, b): (&Tables, &Tables),
    faces: &FacePairing,
    edges: Option<&Pairing>,
    out: &mut Vec<FieldDifference>,
) {
    for (i, j, by_content) in faces.pairing.pairs() {
        if !by_content {
            out.extend(differ_at(a, b, schema.corners, (i, j)));
        }
        for &field in schema.per_face {
            out.extend(differ_at(a, b, field, (i, j)));
        }
        let (table, sub, kind) = schema.neighbours;
        let to_a = |v: i64| match kind {
            Neighbour::FaceEdge => faces.edge_to_a(v),
            Neighbour::Face => faces.face_to_a(v),
        };
        let rows = |row, to_a: &dyn Fn(i64) -> Option<i64>, out: &mut Vec<FieldDifference>| {
            if schema.rows_follow_corners {
                compare_row(a, b, row, faces, (i, j), to_a, out);
            } else {
                out.extend(differ_as_sets(a, b, row, (i, j), to_a));
            }
        };
        rows((table, sub), &to_a, out);
        if let (Some((_, row)), Some(edges)) = (schema.edges, edges) {
            rows(row, &|v| Some(edges.to_a(v)), out);
        }
    }
    for table in schema.face_tables {
        unpaired(a, b, table, &faces.pairing, out);
    }
}

/// A per-edge row of paired faces `i` (A) and `j` (B) (BWM adjacency, ASWM linked
/// triangles or edges), B's entries turned into A's numbering by `to_a` and into A's edge
/// order by the faces' rotations.
fn compare_row(
    a: &Tables,
    b: &Tables,
    (table, sub): (&str, &str),
    faces: &FacePairing,
    (i, j): (usize, usize),
    to_a: &dyn Fn(i64) -> Option<i64>,
    out: &mut Vec<FieldDifference>,
) {
    let (fa, fb) = (a.field(table, i, sub), b.field(table, j, sub));
    let (Some(fa), Some(fb)) = (fa, fb) else {
        // BWM: a walkable face on one side only has its adjacency row on that side only.
        if sub.is_empty() {
            out.extend(fa.map(|f| one_sided(f, true)));
            out.extend(fb.map(|f| one_sided(f, false)));
        }
        return;
    };
    let (Some(row_a), Some(row_b)) = (a.ints(table, i, sub), b.ints(table, j, sub)) else {
        return;
    };
    let width = fa.elem.size();
    for (edge_b, &value_b) in row_b.iter().enumerate() {
        let Some(edge_a) = faces.edge_a(i, j, edge_b) else {
            continue;
        };
        let value_a = row_a.get(edge_a).copied();
        if value_a.is_some() && value_a == to_a(value_b) {
            continue;
        }
        out.push(FieldDifference {
            path: format!("{}[{edge_a}]", fa.path),
            path_b: Some(format!("{}[{edge_b}]", fb.path)),
            kind: fa.elem.name(),
            a: value_a.map_or(serde_json::Value::Null, serde_json::Value::from),
            b: serde_json::Value::from(value_b),
            offset_a: fa.offset.map(|o| o + width * edge_a as u64),
            offset_b: fb.offset.map(|o| o + width * edge_b as u64),
            space_a: fa.space.clone(),
            space_b: fb.space.clone(),
        });
    }
}

/// An AABB node's key: its box bytes and its face (B's remapped into A's numbering).
fn node_key(t: &Tables, table: &str, i: usize, faces: Option<&Pairing>) -> Option<Vec<u8>> {
    let mut key = t.field(table, i, "min")?.raw.clone();
    key.extend_from_slice(&t.field(table, i, "max")?.raw);
    let face = *t.ints(table, i, "face")?.first()?;
    let face = faces.map_or(face, |faces| faces.to_a(face));
    key.extend_from_slice(&face.to_le_bytes());
    Some(key)
}

/// Pairs AABB nodes and compares what is not their key (children and faces remapped).
fn compare_aabb(
    table: &str,
    (a, b): (&Tables, &Tables),
    faces: &FacePairing,
    out: &mut Vec<FieldDifference>,
) -> Alignment {
    let (count_a, count_b) = (a.count(table), b.count(table));
    let nodes = Pairing::new(
        pair(
            (0..count_a).map(|i| node_key(a, table, i, None)).collect(),
            (0..count_b)
                .map(|i| node_key(b, table, i, Some(&faces.pairing)))
                .collect(),
        ),
        count_b,
    );
    for (i, j, by_content) in nodes.pairs() {
        let mut subs = vec!["unknown", "plane"];
        if !by_content {
            subs.extend(["min", "max"]);
            let to_a = |f| Some(faces.pairing.to_a(f));
            out.extend(differ_mapped(a, b, (table, "face"), (i, j), to_a));
        }
        for sub in subs {
            out.extend(differ_at(a, b, (table, sub), (i, j)));
        }
        for sub in ["first", "second"] {
            let to_a = |c| Some(nodes.to_a(c));
            out.extend(differ_mapped(a, b, (table, sub), (i, j), to_a));
        }
    }
    unpaired(a, b, table, &nodes, out);
    nodes.alignment(table, count_b)
}

/// Pairs BWM perimeter edges by their face edge (remapped) and compares their transitions.
fn compare_perimeter(
    table: &str,
    (a, b): (&Tables, &Tables),
    faces: &FacePairing,
    out: &mut Vec<FieldDifference>,
) -> Alignment {
    let (count_a, count_b) = (a.count(table), b.count(table));
    let index = |t: &Tables, i: usize| t.ints(table, i, "index").and_then(|v| v.first().copied());
    let edges = Pairing::new(
        pair(
            (0..count_a).map(|i| index(a, i)).collect(),
            (0..count_b)
                .map(|i| index(b, i).and_then(|v| faces.edge_to_a(v)))
                .collect(),
        ),
        count_b,
    );
    for (i, j, by_content) in edges.pairs() {
        if !by_content {
            let to_a = |v| faces.edge_to_a(v);
            out.extend(differ_mapped(a, b, (table, "index"), (i, j), to_a));
        }
        out.extend(differ_at(a, b, (table, "transition"), (i, j)));
    }
    unpaired(a, b, table, &edges, out);
    edges.alignment(table, count_b)
}

/// Pairs ASWM edges by their two vertices (B's remapped, either order) and compares their
/// triangles (remapped).
fn pair_mesh_edges(
    table: &str,
    (a, b): (&Tables, &Tables),
    vertices: &Pairing,
    count_vertices_b: usize,
) -> Pairing {
    let vertex_content = inverse(&vertices.content, count_vertices_b);
    let key = |t: &Tables, i: usize, map: Option<&[Option<u32>]>| -> Option<[i64; 2]> {
        let ends = t.ints(table, i, "vertices")?;
        let mut ends: Vec<i64> = match map {
            Some(map) => ends
                .iter()
                .map(|&v| {
                    let v = usize::try_from(v).ok()?;
                    map.get(v).copied().flatten().map(i64::from)
                })
                .collect::<Option<_>>()?,
            None => ends,
        };
        ends.sort_unstable();
        <[i64; 2]>::try_from(ends).ok()
    };
    let (count_a, count_b) = (a.count(table), b.count(table));
    Pairing::new(
        pair(
            (0..count_a).map(|i| key(a, i, None)).collect(),
            (0..count_b)
                .map(|i| key(b, i, Some(&vertex_content)))
                .collect(),
        ),
        count_b,
    )
}

/// Compares paired ASWM edges: their vertices when paired by index only, their two
/// triangles (remapped) as a set, as the faces' rows are.
fn compare_mesh_edges(
    table: &str,
    (a, b): (&Tables, &Tables),
    edges: &Pairing,
    faces: &FacePairing,
    out: &mut Vec<FieldDifference>,
) -> Alignment {
    for (i, j, by_content) in edges.pairs() {
        if !by_content {
            out.extend(differ_at(a, b, (table, "vertices"), (i, j)));
        }
        let to_a = |t| faces.face_to_a(t);
        out.extend(differ_as_sets(a, b, (table, "triangles"), (i, j), &to_a));
    }
    unpaired(a, b, table, edges, out);
    edges.alignment(table, b.count(table))
}

/// How each table was paired, the fields of paired records that differ (with the records
/// only one file holds), and the tables paired (their index-by-index differences are
/// replaced by these).
pub type Aligned = (Vec<Alignment>, Vec<FieldDifference>, Vec<String>);

/// Pairs the records of `a` and `b` by content and compares them. `None` when the two dumps
/// do not both hold the vertex and face tables of one schema (BWM, ASWM): the caller compares
/// index by index.
pub fn align(a: Side<'_>, b: Side<'_>, limit: usize) -> Result<Option<Aligned>, ResearchError> {
    let (ta, tb) = (Tables::read(a, limit)?, Tables::read(b, limit)?);
    let has_mesh = |s: &Schema, t: &Tables| t.count(s.vertices) > 0 && t.count(s.corners.0) > 0;
    let Some(schema) = SCHEMAS
        .into_iter()
        .find(|s| has_mesh(s, &ta) && has_mesh(s, &tb))
    else {
        return Ok(None);
    };
    let both = (&ta, &tb);
    let mut out = Vec::new();
    let table = schema.vertices;
    let raw = |t: &Tables, i: usize| t.field(table, i, "").map(|f| f.raw.clone());
    let (count_a, count_b) = (ta.count(table), tb.count(table));
    let vertices = Pairing::new(
        pair(
            (0..count_a).map(|i| raw(&ta, i)).collect(),
            (0..count_b).map(|i| raw(&tb, i)).collect(),
        ),
        count_b,
    );
    for (i, j, by_content) in vertices.pairs() {
        if !by_content {
            out.extend(differ_at(&ta, &tb, (table, ""), (i, j)));
        }
    }
    unpaired(&ta, &tb, table, &vertices, &mut out);
    let faces = pair_faces(schema, &ta, &tb, &vertices);
    let mesh_edges = schema
        .edges
        .map(|(edges, _)| pair_mesh_edges(edges, both, &vertices, count_b));
    compare_faces(schema, both, &faces, mesh_edges.as_ref(), &mut out);
    let corners = schema.corners.0;
    let mut aligned = vec![
        vertices.alignment(table, count_b),
        faces.pairing.alignment(corners, tb.count(corners)),
    ];
    if let (Some((table, _)), Some(edges)) = (schema.edges, &mesh_edges) {
        aligned.push(compare_mesh_edges(table, both, edges, &faces, &mut out));
    }
    if let Some(table) = schema.aabb.filter(|t| ta.count(t) + tb.count(t) > 0) {
        aligned.push(compare_aabb(table, both, &faces, &mut out));
    }
    if let Some(table) = schema.perimeter.filter(|t| ta.count(t) + tb.count(t) > 0) {
        aligned.push(compare_perimeter(table, both, &faces, &mut out));
    }
    let tables = schema.tables().map(str::to_string).collect();
    Ok(Some((aligned, out, tables)))
}

/// [`field_diff`], with the records of the mesh tables (vertices, faces and their per-face
/// fields, BWM AABB nodes and perimeter edges, ASWM edges) paired by content first (this module): a file
/// whose writer ordered them differently shows as reordered, and only the fields that really
/// differ are listed. Files whose dump has no such tables are compared index by index.
pub fn aligned_diff(a: Side<'_>, b: Side<'_>, limit: usize) -> Result<FieldDiff, ResearchError> {
    let mut diff = field_diff(a, b, limit)?;
    if let Some((aligned, differences, tables)) = align(a, b, limit)? {
        diff.differences.retain(|d| !is_in(&d.path, &tables));
        diff.differences.extend(differences);
        diff.aligned = aligned;
    }
    Ok(diff)
}
