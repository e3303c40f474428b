//! The field tree the page needs, built from the dumper's field stream without what the page
//! never reads.
//!
//! The tree `walkmesh dump --format json` prints holds every field with its hex bytes, type and
//! meaning; for `dm_dungeon.trx` that is 950k nodes and most of a 580 MiB process, of which the
//! page reads a few columns. [`ViewTreeSink`] keeps names, offsets, sizes and values only, and
//! drops the records of a table once it has more records than the mesh has faces, unless the
//! page reads that table by name ([`TABLES_READ_BY_NAME`]): such a table can neither be a
//! per-face table (`fields::from_dump` takes those with exactly one record a face) nor one the
//! page looks up, so the page comes out the same (NWN2 `island_paths`, 200k records, is the
//! one that mattered).

use std::path::Path;

use walkmesh_core::dump::{DumpNode, Entry, FieldSink, Label};
use walkmesh_core::{Format, Input, ReadError, ReadOptions};

/// Tables that `fields` and `layers` find by name, whatever their record count: BWM `aabb`;
/// NWN2 `tiles`, `islands`, `triangles`; PATH `regions`, `links`, `nodes`, `octree`.
pub const TABLES_READ_BY_NAME: [&str; 8] = [
    "aabb",
    "tiles",
    "islands",
    "triangles",
    "regions",
    "links",
    "nodes",
    "octree",
];

/// An open group.
#[derive(Debug)]
enum Open {
    /// A group with a node in the tree.
    Node(DumpNode),
    /// A group only the flat dump has: its fields belong to the enclosing node.
    Transparent,
    /// A dropped record: everything inside it is dropped too.
    Dropped,
}

/// Builds the lean tree (see the module).
#[derive(Debug)]
pub struct ViewTreeSink {
    faces: u64,
    open: Vec<Open>,
    roots: Vec<DumpNode>,
}

impl ViewTreeSink {
    /// A sink for the dump of a file whose mesh has `faces` faces.
    pub fn new(faces: usize) -> ViewTreeSink {
        ViewTreeSink {
            faces: faces as u64,
            open: Vec::new(),
            roots: Vec::new(),
        }
    }

    fn node(entry: &Entry<'_>, label: Label<'_>) -> DumpNode {
        DumpNode {
            name: label.to_string(),
            offset: entry.offset,
            size: entry.size,
            value: entry.value.cloned(),
            kind: None,
            raw: None,
            meaning: None,
            children: Vec::new(),
        }
    }

    fn inside_dropped(&self) -> bool {
        matches!(self.open.last(), Some(Open::Dropped))
    }

    /// The innermost open node (where a field or a closed group goes).
    fn parent(&mut self) -> Option<&mut DumpNode> {
        self.open.iter_mut().rev().find_map(|o| match o {
            Open::Node(node) => Some(node),
            _ => None,
        })
    }

    /// True when `label` is a record past the face count of a table the page does not read by
    /// name: the records kept so far are dropped with it.
    fn drops(&mut self, label: Label<'_>) -> bool {
        let Label::Indexed(table, index) = label else {
            return false;
        };
        if index < self.faces || TABLES_READ_BY_NAME.contains(&table) {
            return false;
        }
        // Only the records of a table group (`Emitter::table`): a record reported outside its
        // table is kept, so nothing else is ever emptied.
        match self.parent() {
            Some(parent) if parent.name == table => {
                parent.children = Vec::new();
                true
            }
            _ => false,
        }
    }

    fn attach(&mut self, node: DumpNode) {
        match self.parent() {
            Some(parent) => parent.children.push(node),
            None => self.roots.push(node),
        }
    }

    /// The tree: the one top-level node, or a group `dump` holding several.
    pub fn finish(mut self) -> DumpNode {
        while !self.open.is_empty() {
            self.close();
        }
        if self.roots.len() == 1
            && let Some(root) = self.roots.pop()
        {
            return root;
        }
        DumpNode::group("dump", None, self.roots)
    }
}

impl FieldSink for ViewTreeSink {
    fn open(&mut self, group: &Entry<'_>) {
        let open = match group.label {
            _ if self.inside_dropped() => Open::Dropped,
            Some(label) if group.in_tree => {
                if self.drops(label) {
                    Open::Dropped
                } else {
                    Open::Node(ViewTreeSink::node(group, label))
                }
            }
            _ => Open::Transparent,
        };
        self.open.push(open);
    }

    fn close(&mut self) {
        if let Some(Open::Node(node)) = self.open.pop() {
            self.attach(node);
        }
    }

    fn field(&mut self, field: &Entry<'_>) {
        if self.inside_dropped() {
            return;
        }
        if let (Some(label), true) = (field.label, field.in_tree)
            && !self.drops(label)
        {
            let node = ViewTreeSink::node(field, label);
            self.attach(node);
        }
    }
}

/// The field tree the page needs of `bytes` (a file of `format` whose mesh has `faces`
/// faces), or `None` when the format has no field dump.
pub fn view_tree(
    format: &dyn Format,
    bytes: &[u8],
    path: Option<&Path>,
    options: &ReadOptions,
    faces: usize,
) -> Result<Option<DumpNode>, ReadError> {
    let Some(dumper) = format.dumper() else {
        return Ok(None);
    };
    let mut sink = ViewTreeSink::new(faces);
    dumper.dump_fields(Input { bytes, path }, options, &mut sink)?;
    Ok(Some(sink.finish()))
}
