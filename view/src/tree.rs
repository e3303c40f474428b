//! The field tree the page needs, built from the dumper's field stream without what the page
//! never reads.
//!
//! The tree `walkmesh dump --format json` prints holds every field with its hex bytes, type and
//! meaning; for `dm_dungeon.trx` that is 950k nodes and most of a 580 MiB process, of which the
//! page reads a few columns. [`ViewTreeSink`] (core's tree builder making [`LeanNodes`]) keeps names, offsets, sizes and values only, and
//! drops the records of a table once it has more records than the mesh has faces, unless the
//! page reads that table by name ([`TABLES_READ_BY_NAME`]): such a table can neither be a
//! per-face table (`fields::from_dump` takes those with exactly one record a face) nor one the
//! page looks up, so the page comes out the same (NWN2 `island_paths`, 200k records, is the
//! one that mattered).

use std::path::Path;

use walkmesh_core::dump::{DumpNode, Entry, Label, NodeMaker, TreeBuilder};
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

/// The lean nodes (see the module): names, offsets, sizes and values; records of an
/// oversized table the page does not read by name are left out.
#[derive(Debug)]
pub struct LeanNodes {
    faces: u64,
}

/// Builds the lean tree (see the module).
pub type ViewTreeSink = TreeBuilder<LeanNodes>;

/// A sink for the dump of a file whose mesh has `faces` faces.
pub fn view_tree_sink(faces: usize) -> ViewTreeSink {
    TreeBuilder::with(LeanNodes {
        faces: faces as u64,
    })
}

impl LeanNodes {
    /// True when `label` is a record past the face count of a table the page does not read by
    /// name: the records kept so far are dropped with it.
    fn drops(&self, label: Label<'_>, parent: Option<&mut DumpNode>) -> bool {
        let Label::Indexed(table, index) = label else {
            return false;
        };
        if index < self.faces || TABLES_READ_BY_NAME.contains(&table) {
            return false;
        }
        // Only the records of a table group (`Emitter::table`): a record reported outside its
        // table is kept, so nothing else is ever emptied.
        match parent {
            Some(parent) if parent.name == table => {
                parent.children = Vec::new();
                true
            }
            _ => false,
        }
    }
}

impl NodeMaker for LeanNodes {
    fn node(
        &mut self,
        entry: &Entry<'_>,
        label: Label<'_>,
        parent: Option<&mut DumpNode>,
    ) -> Option<DumpNode> {
        if self.drops(label, parent) {
            return None;
        }
        Some(DumpNode {
            name: label.to_string(),
            offset: entry.offset,
            size: entry.size,
            value: entry.value.cloned(),
            kind: None,
            raw: None,
            meaning: None,
            children: Vec::new(),
        })
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
    let mut sink = view_tree_sink(faces);
    dumper.dump_fields(Input { bytes, path }, options, &mut sink)?;
    Ok(Some(sink.finish()))
}
