//! The stored fields of every face, taken from the same tree `walkmesh dump --format json`
//! prints, kept as columns so that 20k faces stay a few megabytes in the page.
//!
//! A column is one field of one record kind (`triangles[{i}].normal`): for each face, the
//! index `i` of the record that holds the face's value, the field's byte offset, its size and
//! its value (or nothing, when the face has no such record). Which records belong to a face:
//! - every table of the tree whose records are as many as the faces (BWM `faces`, `materials`,
//!   `normals`, `distances`; NWN2 `triangles`; PATH `regions`): record `f` for face `f`;
//! - BWM `adjacency` (one record per walkable face, walkable faces first): record `f`;
//! - BWM `aabb`: the node whose `face` is `f`;
//! - NWN2: the face's tile (`tiles[t]`, the tile whose triangle range holds it), the
//!   path-table entries of the face (`local_to_node[l]` and its row of `nodes`) and its
//!   island (`islands[k]`, `k` from the triangle's `island`);
//! - PATH: the region's links and nodes (`links[link_start + j]`, `nodes[node_start + j]`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use walkmesh_core::dump::{DumpNode, DumpValue};
use walkmesh_core::{Capabilities, NavMesh};

/// One field of one record kind, for every face.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The name shown, `{i}` standing for the record index.
    pub label: String,
    /// What the offsets count from, when not the file (`inflated ASWM body`).
    pub space: Option<String>,
    /// For each face: the index shown in the label (`None`: the face has no such record).
    pub index: Vec<Option<u64>>,
    /// For each face: its record among `offset`, `size` and `value`. Faces that share a
    /// record (the faces of one NWN2 tile or island) share a slot, so its value is stored
    /// once.
    pub record: Vec<Option<u32>>,
    pub offset: Vec<Option<u64>>,
    pub size: Vec<Option<u64>>,
    pub value: Vec<Option<DumpValue>>,
    slots: BTreeMap<u64, u32>,
}

impl Column {
    fn new(label: String, space: Option<String>, faces: usize) -> Column {
        Column {
            label,
            space,
            index: vec![None; faces],
            record: vec![None; faces],
            offset: Vec::new(),
            size: Vec::new(),
            value: Vec::new(),
            slots: BTreeMap::new(),
        }
    }

    /// The value of `face`'s record.
    pub fn value_of(&self, face: usize) -> Option<&DumpValue> {
        let slot = (*self.record.get(face)?)?;
        self.value.get(slot as usize)?.as_ref()
    }

    fn offset_of(&self, face: usize) -> Option<u64> {
        let slot = (*self.record.get(face)?)?;
        *self.offset.get(slot as usize)?
    }
}

/// The columns of one mesh, in the order they were first seen.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FaceFields {
    keys: BTreeMap<String, usize>,
    pub columns: Vec<Column>,
    faces: usize,
}

/// Where a record sits: its table's label, its index and the offset space.
struct Record<'a> {
    table: &'a str,
    /// The index shown in the label.
    index: u64,
    /// Which record it is, among those of its table (faces with the same key share it).
    key: u64,
    space: Option<&'a str>,
    /// Told apart when one face has several records of a table (PATH links).
    slot: usize,
}

impl FaceFields {
    fn with_faces(faces: usize) -> FaceFields {
        FaceFields {
            faces,
            ..FaceFields::default()
        }
    }

    /// Puts a record's fields (or the record itself, when it is one value) in face `face`'s row.
    fn put_record(&mut self, face: usize, record: &Record<'_>, node: &DumpNode) {
        if node.children.is_empty() {
            self.put(face, record, "", node);
        } else {
            for child in &node.children {
                if child.children.is_empty() {
                    self.put(face, record, &child.name, child);
                }
            }
        }
    }

    fn put(&mut self, face: usize, record: &Record<'_>, field: &str, node: &DumpNode) {
        if face >= self.faces {
            return;
        }
        let label = if field.is_empty() {
            format!("{}[{{i}}]", record.table)
        } else {
            format!("{}[{{i}}].{field}", record.table)
        };
        let key = format!("{label}#{}", record.slot);
        let faces = self.faces;
        let at = match self.keys.get(&key) {
            Some(&at) => at,
            None => {
                self.columns
                    .push(Column::new(label, record.space.map(str::to_owned), faces));
                self.keys.insert(key, self.columns.len() - 1);
                self.columns.len() - 1
            }
        };
        let Some(column) = self.columns.get_mut(at) else {
            return;
        };
        let slot = match column.slots.get(&record.key) {
            Some(&slot) => slot,
            None => {
                let slot = column.value.len() as u32;
                column.slots.insert(record.key, slot);
                column.offset.push(node.offset);
                column.size.push(node.size);
                column.value.push(node.value.clone());
                slot
            }
        };
        set(&mut column.index, face, Some(record.index));
        set(&mut column.record, face, Some(slot));
    }

    /// The columns as the page reads them (see `viewer.js`, `fieldRows`).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The value of column `label` for `face` (tests).
    pub fn value(&self, label: &str, face: usize) -> Option<&DumpValue> {
        self.columns
            .iter()
            .find(|c| c.label == label)
            .and_then(|c| c.value_of(face))
    }
}

fn set<T>(slots: &mut [Option<T>], at: usize, value: Option<T>) {
    if let Some(slot) = slots.get_mut(at) {
        *slot = value;
    }
}

/// Serialised as the page reads the columns (see `viewer.js`, `fieldRows`), written straight
/// to the page's JSON without a tree of JSON values.
impl Serialize for FaceFields {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.columns.iter().map(ColumnJson::of))
    }
}

#[derive(Serialize)]
struct ColumnJson<'a> {
    label: &'a str,
    space: &'a Option<String>,
    index: Compact,
    record: Compact,
    offset: Offsets<'a>,
    size: Sizes<'a>,
    value: &'a [Option<DumpValue>],
}

impl<'a> ColumnJson<'a> {
    fn of(c: &'a Column) -> ColumnJson<'a> {
        ColumnJson {
            label: &c.label,
            space: &c.space,
            index: compact_index(c.index.iter().copied()),
            record: compact_index(c.record.iter().map(|r| r.map(u64::from))),
            offset: compact_offsets(&c.offset),
            size: compact_sizes(&c.size),
            value: &c.value,
        }
    }
}

/// `"face"` when every face's index is the face itself, else the list.
#[derive(Serialize)]
#[serde(untagged)]
enum Compact {
    Word(&'static str),
    List(Vec<Option<u64>>),
}

fn compact_index(index: impl Iterator<Item = Option<u64>> + Clone) -> Compact {
    if index.clone().enumerate().all(|(f, i)| i == Some(f as u64)) {
        Compact::Word("face")
    } else {
        Compact::List(index.collect())
    }
}

/// `{base, stride}` when the offsets are `base + record * stride` for every record, else the
/// list.
#[derive(Serialize)]
#[serde(untagged)]
enum Offsets<'a> {
    Affine { base: u64, stride: u64 },
    List(&'a [Option<u64>]),
}

fn compact_offsets(offsets: &[Option<u64>]) -> Offsets<'_> {
    if let (Some(Some(first)), Some(Some(second))) = (offsets.first(), offsets.get(1))
        && second >= first
    {
        let (base, stride) = (*first, second - first);
        let affine = offsets
            .iter()
            .enumerate()
            .all(|(r, o)| *o == Some(base + r as u64 * stride));
        if affine {
            return Offsets::Affine { base, stride };
        }
    }
    Offsets::List(offsets)
}

/// One number when every record's field has the same size, else the list.
#[derive(Serialize)]
#[serde(untagged)]
enum Sizes<'a> {
    One(Option<u64>),
    List(&'a [Option<u64>]),
}

fn compact_sizes(sizes: &[Option<u64>]) -> Sizes<'_> {
    match sizes.first() {
        Some(first) if sizes.iter().all(|s| s == first) => Sizes::One(*first),
        _ => Sizes::List(sizes),
    }
}

/// `name[i]` → (`name`, `i`).
fn indexed(name: &str) -> Option<(&str, u64)> {
    let open = name.find('[')?;
    let close = name[open..].find(']')? + open;
    let index = name.get(open + 1..close)?.parse().ok()?;
    Some((name.get(..open)?, index))
}

/// A table: a group whose children are `base[0]`, `base[1]`, … in order.
fn table_of(node: &DumpNode) -> Option<&str> {
    let first = node.children.first()?;
    let (base, _) = indexed(&first.name)?;
    let ordered =
        node.children.iter().enumerate().all(|(i, c)| {
            indexed(&c.name).is_some_and(|(b, index)| b == base && index == i as u64)
        });
    ordered.then_some(base)
}

/// What offsets below `node` count from, when its name says (`body (offsets inside …)`).
fn space_of(node: &DumpNode) -> Option<&str> {
    let open = node.name.find('(')?;
    node.name
        .get(open + 1..)
        .map(|rest| rest.trim_end_matches(')'))
        .filter(|rest| rest.contains("offset"))
}

/// Every table of the tree, with the offset space it lives in.
fn tables<'a>(
    node: &'a DumpNode,
    space: Option<&'a str>,
    out: &mut Vec<(&'a str, &'a DumpNode, Option<&'a str>)>,
) {
    let space = space_of(node).or(space);
    if let Some(base) = table_of(node) {
        out.push((base, node, space));
    }
    for child in &node.children {
        if !child.children.is_empty() {
            tables(child, space, out);
        }
    }
}

fn child<'a>(node: &'a DumpNode, name: &str) -> Option<&'a DumpNode> {
    node.children.iter().find(|c| c.name == name)
}

fn int_of(node: &DumpNode, name: &str) -> Option<i64> {
    match child(node, name)?.value.as_ref()? {
        DumpValue::Int(v) => Some(*v),
        DumpValue::UInt(v) => i64::try_from(*v).ok(),
        _ => None,
    }
}

/// The integers of field `name`: its value, or, when the dump split a long array into rows
/// (`nodes[0]`, `nodes[1]`, …), the rows' values one after another.
pub(crate) fn ints_of(node: &DumpNode, name: &str) -> Option<Vec<i64>> {
    let field = child(node, name)?;
    if let Some(DumpValue::Ints(v)) = field.value.as_ref() {
        return Some(v.clone());
    }
    if field.children.is_empty() {
        return None;
    }
    let mut all = Vec::new();
    for row in &field.children {
        match row.value.as_ref()? {
            DumpValue::Ints(v) => all.extend_from_slice(v),
            _ => return None,
        }
    }
    Some(all)
}

/// The per-face columns of `tree`, the field dump of a file holding `mesh`.
pub fn from_dump(tree: &DumpNode, capabilities: Capabilities, mesh: &NavMesh) -> FaceFields {
    let faces = mesh.polygons.len();
    let mut fields = FaceFields::with_faces(faces);
    let mut found = Vec::new();
    tables(tree, None, &mut found);
    for &(table, node, space) in &found {
        let per_face = node.children.len() == faces
            || (capabilities.aabb_tree && table == "adjacency" && node.children.len() <= faces);
        if per_face {
            for (f, record) in node.children.iter().enumerate() {
                let at = Record {
                    table,
                    index: f as u64,
                    key: f as u64,
                    space,
                    slot: 0,
                };
                fields.put_record(f, &at, record);
            }
        }
    }
    for &(table, node, space) in &found {
        match table {
            "aabb" if capabilities.aabb_tree => aabb_leaves(&mut fields, node, space),
            "tiles" if capabilities.tiles => tile_entries(&mut fields, node, space),
            "islands" if capabilities.tiles => island_entries(&mut fields, &found, node, space),
            "regions" if capabilities.regions => region_links(&mut fields, &found, node, space),
            _ => {}
        }
    }
    fields
}

/// BWM: the AABB leaf of each face.
fn aabb_leaves(fields: &mut FaceFields, table: &DumpNode, space: Option<&str>) {
    for (i, node) in table.children.iter().enumerate() {
        if let Some(face) = int_of(node, "face").and_then(|f| usize::try_from(f).ok()) {
            let at = Record {
                table: "aabb",
                index: i as u64,
                key: i as u64,
                space,
                slot: 0,
            };
            fields.put_record(face, &at, node);
        }
    }
}

/// NWN2: each face's tile header fields and its path-table entries.
fn tile_entries(fields: &mut FaceFields, table: &DumpNode, space: Option<&str>) {
    for (t, tile) in table.children.iter().enumerate() {
        let (Some(start), Some(count)) = (
            int_of(tile, "triangles_offset"),
            int_of(tile, "triangle_count"),
        ) else {
            continue;
        };
        let (Ok(start), Ok(count)) = (usize::try_from(start), usize::try_from(count)) else {
            continue;
        };
        let node_count = ints_of(tile, "path_table.node_to_local").map_or(0, |v| v.len());
        let at = Record {
            table: "tiles",
            index: t as u64,
            key: t as u64,
            space,
            slot: 0,
        };
        // The stored count is only trusted as far as the mesh has faces.
        for local in 0..count.min(fields.faces.saturating_sub(start)) {
            let face = start.saturating_add(local);
            // The tile's name is left out: it is 32 bytes of leftover memory in most files.
            for name in ["triangle_count", "triangles_offset"] {
                if let Some(field) = child(tile, name) {
                    fields.put(face, &at, name, field);
                }
            }
            path_table_entry(fields, tile, space, face, local, node_count);
        }
    }
}

/// The byte of `local_to_node` for local triangle `local` and, for a node, its row of `nodes`
/// (both belong to this face alone).
fn path_table_entry(
    fields: &mut FaceFields,
    tile: &DumpNode,
    space: Option<&str>,
    face: usize,
    local: usize,
    node_count: usize,
) {
    let Some(map) = child(tile, "path_table.local_to_node") else {
        return;
    };
    let Some(nodes_of) = ints_of(tile, "path_table.local_to_node") else {
        return;
    };
    let Some(&node) = nodes_of.get(local) else {
        return;
    };
    let entry = DumpNode {
        name: String::new(),
        offset: map.offset.map(|o| o + local as u64),
        size: Some(1),
        value: Some(DumpValue::Int(node)),
        kind: None,
        raw: None,
        meaning: None,
        children: Vec::new(),
    };
    let record = |table, index| Record {
        table,
        index,
        key: face as u64,
        space,
        slot: 0,
    };
    fields.put(
        face,
        &record("tile.path_table.local_to_node", local as u64),
        "",
        &entry,
    );
    let (Some(table), Ok(row)) = (child(tile, "path_table.nodes"), usize::try_from(node)) else {
        return;
    };
    // The dump gives the node square row by row (`path_table.nodes[row]`); an older tree
    // gave it as one array, sliced here.
    let entry = match table.children.get(row) {
        Some(stored) => stored.clone(),
        None => {
            let Some(DumpValue::Ints(all)) = table.value.as_ref() else {
                return;
            };
            let Some(values) = all.get(row * node_count..(row + 1) * node_count) else {
                return;
            };
            DumpNode {
                name: String::new(),
                offset: table.offset.map(|o| o + (row * node_count) as u64),
                size: Some(node_count as u64),
                value: Some(DumpValue::Ints(values.to_vec())),
                kind: None,
                raw: None,
                meaning: None,
                children: Vec::new(),
            }
        }
    };
    fields.put(
        face,
        &record("tile.path_table.nodes", row as u64),
        "",
        &entry,
    );
}

/// NWN2: the island record of each triangle's `island`.
fn island_entries(
    fields: &mut FaceFields,
    found: &[(&str, &DumpNode, Option<&str>)],
    islands: &DumpNode,
    space: Option<&str>,
) {
    let Some(&(_, triangles, _)) = found.iter().find(|(t, _, _)| *t == "triangles") else {
        return;
    };
    for (face, triangle) in triangles.children.iter().enumerate() {
        let Some(k) = int_of(triangle, "island").and_then(|k| usize::try_from(k).ok()) else {
            continue;
        };
        if let Some(island) = islands.children.get(k) {
            let at = Record {
                table: "islands",
                index: k as u64,
                key: k as u64,
                space,
                slot: 0,
            };
            fields.put_record(face, &at, island);
        }
    }
}

/// PATH: the links and nodes of each region.
fn region_links(
    fields: &mut FaceFields,
    found: &[(&str, &DumpNode, Option<&str>)],
    regions: &DumpNode,
    space: Option<&str>,
) {
    let table = |name: &str| found.iter().find(|(t, _, _)| *t == name).map(|x| x.1);
    for (face, region) in regions.children.iter().enumerate() {
        for (table_name, start, count) in [
            ("links", "link_start", "link_count"),
            ("nodes", "node_start", "node_count"),
        ] {
            let (Some(records), Some(start), Some(count)) = (
                table(table_name),
                int_of(region, start).and_then(|s| usize::try_from(s).ok()),
                int_of(region, count).and_then(|c| usize::try_from(c).ok()),
            ) else {
                continue;
            };
            for j in 0..count.min(records.children.len()) {
                let Some(record) = records.children.get(start.saturating_add(j)) else {
                    break;
                };
                let at = Record {
                    table: table_name,
                    index: (start + j) as u64,
                    key: (start + j) as u64,
                    space,
                    slot: j,
                };
                fields.put_record(face, &at, record);
            }
        }
    }
}

/// Formats without a field dump: the neutral mesh's polygon and surface, as `dump` shows them.
pub fn from_mesh(mesh: &NavMesh) -> FaceFields {
    let faces = mesh.polygons.len();
    let mut fields = FaceFields::with_faces(faces);
    for (f, polygon) in mesh.polygons.iter().enumerate() {
        let leaf = |name: &str, value: DumpValue| DumpNode {
            name: name.to_owned(),
            offset: None,
            size: None,
            value: Some(value),
            kind: None,
            raw: None,
            meaning: None,
            children: Vec::new(),
        };
        let corners = polygon.iter().map(|&v| i64::from(v)).collect();
        let at = |table| Record {
            table,
            index: f as u64,
            key: f as u64,
            space: Some("the neutral mesh (this format has no field dump)"),
            slot: 0,
        };
        fields.put(
            f,
            &at("mesh.polygons"),
            "",
            &leaf("", DumpValue::Ints(corners)),
        );
        if let Some(surface) = mesh.surfaces.get(f) {
            let record = DumpNode::group(
                "",
                None,
                vec![
                    leaf("material", DumpValue::Int(i64::from(surface.material.0))),
                    leaf("walkable", DumpValue::Text(surface.walkable.to_string())),
                    leaf("code", DumpValue::Int(i64::from(surface.code))),
                ],
            );
            fields.put_record(f, &at("mesh.surfaces"), &record);
        }
    }
    fields
}

/// Serialisable so tests can compare with `dump --json` by value.
#[derive(Debug, Serialize)]
pub struct FieldRow<'a> {
    pub label: String,
    pub offset: Option<u64>,
    pub value: Option<&'a DumpValue>,
}

impl FaceFields {
    /// The rows the page shows for `face` (tests; the page computes the same in JS).
    pub fn rows(&self, face: usize) -> Vec<FieldRow<'_>> {
        self.columns
            .iter()
            .filter_map(|c| {
                let index = (*c.index.get(face)?)?;
                Some(FieldRow {
                    label: c.label.replace("{i}", &index.to_string()),
                    offset: c.offset_of(face),
                    value: c.value_of(face),
                })
            })
            .collect()
    }
}
