//! Stored fields with their byte offsets, for `walkmesh dump`.
//!
//! A format's dumper walks its file once and reports every field, in order, to a
//! [`FieldSink`] (through the [`Emitter`] helper). What the sink does with them is its
//! business: [`TreeSink`] (a [`TreeBuilder`] making [`FullNodes`]) builds the [`DumpNode`] tree
//! that `--format ron|json` serialises;
//! [`crate::flatdump::FlatWriter`] writes one line per field straight to its output, so a flat
//! dump needs memory for one line, not for a tree; [`crate::flatdump::SectionFilter`] passes on
//! one section and [`crate::flatdump::SectionBytes`] keeps the raw bytes of one.

pub mod tree_stream;

use std::fmt;

use serde::Serialize;

/// A field's value as shown by `dump`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DumpValue {
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(String),
    Ints(Vec<i64>),
    Floats(Vec<f32>),
}

/// One stored field or group of fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DumpNode {
    pub name: String,
    /// Byte offset in the file (or line, for text formats, with `line` set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<DumpValue>,
    /// How the value is stored (`u32`, `f32[3]`, `char[4]`), as in the flat dump's type column.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The stored bytes in hex (the first [`TREE_RAW_SHOWN`] bytes, then `..`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// What the value means (a material's name, an adjacency's face and edge, `none`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<DumpNode>,
}

/// Bytes of a field shown in hex in the tree's `raw` (a path table can be kilobytes; the flat
/// dump or `--extract` shows all of it).
pub const TREE_RAW_SHOWN: usize = 64;

impl DumpNode {
    /// A group of fields starting at `offset`.
    pub fn group(
        name: impl Into<String>,
        offset: Option<u64>,
        children: Vec<DumpNode>,
    ) -> DumpNode {
        DumpNode {
            name: name.into(),
            offset,
            size: None,
            value: None,
            kind: None,
            raw: None,
            meaning: None,
            children,
        }
    }
}

/// How the bytes of a field are stored, for the flat dump's type column: one element type,
/// repeated `size / element size` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    U8,
    U16,
    U32,
    I16,
    I32,
    F32,
    /// Characters (shown up to the first NUL, with what follows it).
    Char,
    /// Bytes nobody decodes (unknown packets, garbage): shown as hex rows.
    Bytes,
    /// A zlib stream (decoded elsewhere: one line, not hex rows).
    Zlib,
    /// A value with no byte position of its own (a member of a JSON document).
    Json,
    /// A group of fields.
    Group,
}

impl Elem {
    /// The name in the type column.
    pub fn name(self) -> &'static str {
        match self {
            Elem::U8 => "u8",
            Elem::U16 => "u16",
            Elem::U32 => "u32",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
            Elem::F32 => "f32",
            Elem::Char => "char",
            Elem::Bytes => "bytes",
            Elem::Zlib => "zlib",
            Elem::Json => "json",
            Elem::Group => "group",
        }
    }

    /// The type as the flat dump's type column shows it for a field of `size` bytes: the
    /// element type, with the element count when there is more than one (`f32[3]`, `char[4]`).
    pub fn column(self, size: Option<u64>) -> String {
        let element = self.size();
        match size {
            Some(size)
                if element > 0
                    && self != Elem::Zlib
                    && (size != element || matches!(self, Elem::Char | Elem::Bytes)) =>
            {
                format!("{}[{}]", self.name(), size / element)
            }
            _ => self.name().to_string(),
        }
    }

    /// Bytes of one element (0 when the element has no fixed size).
    pub fn size(self) -> u64 {
        match self {
            Elem::U8 | Elem::Char | Elem::Bytes | Elem::Zlib => 1,
            Elem::U16 | Elem::I16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::Json | Elem::Group => 0,
        }
    }

    /// The unsigned type of a `size`-byte integer.
    pub fn unsigned(size: u64) -> Elem {
        match size {
            1 => Elem::U8,
            2 => Elem::U16,
            4 => Elem::U32,
            _ => Elem::Bytes,
        }
    }
}

/// A name in the dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label<'a> {
    /// `name`.
    Name(&'a str),
    /// `name[index]`: the flat dump writes a record of table `name` as `table[index]`.
    Indexed(&'a str, u64),
    /// `name (description)` in the tree; `name` in the flat dump, whose comments describe.
    Described(&'a str, &'a str),
}

impl Label<'_> {
    /// The name without index or description.
    pub fn base(&self) -> &str {
        match *self {
            Label::Name(name) | Label::Indexed(name, _) | Label::Described(name, _) => name,
        }
    }
}

impl fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Label::Name(name) => f.write_str(name),
            Label::Indexed(name, index) => write!(f, "{name}[{index}]"),
            Label::Described(name, description) => write!(f, "{name} ({description})"),
        }
    }
}

impl<'a> From<&'a str> for Label<'a> {
    fn from(name: &'a str) -> Self {
        Label::Name(name)
    }
}

impl<'a> From<&'a String> for Label<'a> {
    fn from(name: &'a String) -> Self {
        Label::Name(name)
    }
}

/// What offsets inside a section count from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space<'a> {
    /// The file.
    File,
    /// The bytes of the named section (an inflated body): `--extract NAME` writes them, so the
    /// offsets line up with that file.
    Section(&'a str),
}

/// A part of the file that `--section` shows alone and `--extract` writes out.
#[derive(Clone, Copy, Debug)]
pub struct Section<'a> {
    /// Its name (`vertices`, `aswm.triangles`, `trrn[3]`).
    pub name: &'a str,
    /// What its offsets count from.
    pub space: Space<'a>,
    /// Its offset and size in `space`, when it is one byte range.
    pub span: Option<(u64, u64)>,
    /// Its bytes, when it is one byte range (what `--extract` writes).
    pub bytes: Option<&'a [u8]>,
}

/// One stored field, or a group of fields (the fields reported until the matching
/// [`FieldSink::close`]).
#[derive(Clone, Copy)]
pub struct Entry<'a> {
    /// The name; `None` for a group that only the flat dump knows of (no node in the tree,
    /// its fields belong to the enclosing node).
    pub label: Option<Label<'a>>,
    pub offset: Option<u64>,
    pub size: Option<u64>,
    pub elem: Elem,
    /// The bytes as stored (empty when the field has no bytes of its own).
    pub raw: &'a [u8],
    /// The value as decoded (what the tree shows).
    pub value: Option<&'a DumpValue>,
    /// What the value means, for the flat dump (a material's name, an adjacency's face and
    /// edge).
    pub note: Option<&'a dyn fmt::Display>,
    /// Set for a group that is a section.
    pub section: Option<Section<'a>>,
    /// False for what only the flat dump shows (unclaimed bytes): the tree of `--format
    /// ron|json` stays as it has always been.
    pub in_tree: bool,
}

impl fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("label", &self.label)
            .field("offset", &self.offset)
            .field("size", &self.size)
            .field("elem", &self.elem)
            .field("value", &self.value)
            .field("section", &self.section.map(|s| s.name))
            .finish_non_exhaustive()
    }
}

impl<'a> Entry<'a> {
    /// A group labelled `label` at `offset`.
    pub fn group(label: Option<Label<'a>>, offset: Option<u64>) -> Entry<'a> {
        Entry {
            label,
            offset,
            size: None,
            elem: Elem::Group,
            raw: &[],
            value: None,
            note: None,
            section: None,
            in_tree: true,
        }
    }
}

/// Receives the fields of a dump, in the order the dumper walks them.
pub trait FieldSink {
    /// A group starts; the following entries are inside it until [`FieldSink::close`].
    fn open(&mut self, group: &Entry<'_>);
    /// The innermost open group ends.
    fn close(&mut self);
    /// A field.
    fn field(&mut self, field: &Entry<'_>);
    /// Something the reader of a flat dump should know (byte order, what offsets count from).
    fn comment(&mut self, _text: &str) {}
}

/// What a [`TreeBuilder`] makes of each entry that has a node in the tree (a label, and
/// `in_tree` set): the node, or nothing, which leaves the entry out and, for a group,
/// everything inside it. [`FullNodes`] keeps every field as `dump --format ron|json` shows
/// it; `walkmesh-view` keeps the few members its page reads and leaves out records it never
/// reads.
pub trait NodeMaker {
    /// The node of `entry`, named by `label`, going into `parent` (the innermost open node,
    /// `None` at the top), or `None` to leave it out. A maker may change `parent` (empty it of
    /// records it leaves out after all).
    fn node(
        &mut self,
        entry: &Entry<'_>,
        label: Label<'_>,
        parent: Option<&mut DumpNode>,
    ) -> Option<DumpNode>;
}

/// Every node with all its members: type, stored bytes in hex (the first
/// [`TREE_RAW_SHOWN`]) and meaning.
#[derive(Clone, Copy, Debug, Default)]
pub struct FullNodes;

impl NodeMaker for FullNodes {
    fn node(
        &mut self,
        entry: &Entry<'_>,
        label: Label<'_>,
        _parent: Option<&mut DumpNode>,
    ) -> Option<DumpNode> {
        let raw = (!entry.raw.is_empty()).then(|| {
            let shown = entry.raw.get(..TREE_RAW_SHOWN).unwrap_or(entry.raw);
            let mut text: String = shown.iter().map(|b| format!("{b:02x}")).collect();
            if entry.raw.len() > TREE_RAW_SHOWN {
                text.push_str("..");
            }
            text
        });
        Some(DumpNode {
            name: label.to_string(),
            offset: entry.offset,
            size: entry.size,
            value: entry.value.cloned(),
            kind: (entry.elem != Elem::Group).then(|| entry.elem.column(entry.size)),
            raw,
            meaning: entry.note.map(ToString::to_string),
            children: Vec::new(),
        })
    }
}

/// A group a [`TreeBuilder`] has open.
#[derive(Debug)]
enum OpenGroup {
    /// A group with a node in the tree.
    Node(DumpNode),
    /// A group only the flat dump has (no label, or not `in_tree`): its fields belong to the
    /// enclosing node.
    Transparent,
    /// A group the [`NodeMaker`] left out: everything inside it is left out too.
    LeftOut,
}

/// Builds the [`DumpNode`] tree from the stream of fields, with the nodes its [`NodeMaker`]
/// makes. Entries marked flat-only stay out of the tree.
#[derive(Debug, Default)]
pub struct TreeBuilder<M> {
    maker: M,
    /// Open groups, innermost last.
    open: Vec<OpenGroup>,
    /// Finished top-level nodes.
    roots: Vec<DumpNode>,
}

/// The whole tree, every node with all its members: what `Dumper::dump`, the Python module
/// and the tests of `dump --format ron|json` see.
pub type TreeSink = TreeBuilder<FullNodes>;

impl TreeSink {
    pub fn new() -> TreeSink {
        TreeBuilder::with(FullNodes)
    }
}

impl<M: NodeMaker> TreeBuilder<M> {
    /// A builder whose nodes `maker` makes.
    pub fn with(maker: M) -> TreeBuilder<M> {
        TreeBuilder {
            maker,
            open: Vec::new(),
            roots: Vec::new(),
        }
    }

    fn inside_left_out(&self) -> bool {
        matches!(self.open.last(), Some(OpenGroup::LeftOut))
    }

    /// The node the maker makes of `entry`, told its parent.
    fn make(&mut self, entry: &Entry<'_>, label: Label<'_>) -> Option<DumpNode> {
        let parent = innermost_node(&mut self.open);
        self.maker.node(entry, label, parent)
    }

    fn attach(&mut self, node: DumpNode) {
        match innermost_node(&mut self.open) {
            Some(parent) => parent.children.push(node),
            None => self.roots.push(node),
        }
    }

    /// The tree: the one top-level node, or a group `dump` holding several (a `--section`
    /// that matched more than one part).
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

/// The innermost open group with a node (where a field or a closed group goes).
fn innermost_node(open: &mut [OpenGroup]) -> Option<&mut DumpNode> {
    open.iter_mut().rev().find_map(|group| match group {
        OpenGroup::Node(node) => Some(node),
        OpenGroup::Transparent | OpenGroup::LeftOut => None,
    })
}

impl<M: NodeMaker> FieldSink for TreeBuilder<M> {
    fn open(&mut self, group: &Entry<'_>) {
        let open = match group.label {
            _ if self.inside_left_out() => OpenGroup::LeftOut,
            Some(label) if group.in_tree => match self.make(group, label) {
                Some(node) => OpenGroup::Node(node),
                None => OpenGroup::LeftOut,
            },
            _ => OpenGroup::Transparent,
        };
        self.open.push(open);
    }

    fn close(&mut self) {
        if let Some(OpenGroup::Node(node)) = self.open.pop() {
            self.attach(node);
        }
    }

    fn field(&mut self, field: &Entry<'_>) {
        if self.inside_left_out() {
            return;
        }
        if let (Some(label), true) = (field.label, field.in_tree)
            && let Some(node) = self.make(field, label)
        {
            self.attach(node);
        }
    }
}

/// What a dumper reports fields through: it holds the sink and the bytes that offsets index
/// (the file, or an inflated body), so each field is given with its raw bytes.
pub struct Emitter<'s, 'b> {
    sink: &'s mut dyn FieldSink,
    bytes: &'b [u8],
    /// The offset of `bytes[0]`.
    base: u64,
}

impl fmt::Debug for Emitter<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Emitter")
            .field("bytes", &self.bytes.len())
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<'s, 'b> Emitter<'s, 'b> {
    /// Reports to `sink` the fields of `bytes`, whose offsets count from 0.
    pub fn new(sink: &'s mut dyn FieldSink, bytes: &'b [u8]) -> Emitter<'s, 'b> {
        Emitter {
            sink,
            bytes,
            base: 0,
        }
    }

    /// Runs `body` with offsets indexing `bytes`, whose first byte is at offset `base`.
    pub fn with_bytes<'c>(
        &mut self,
        bytes: &'c [u8],
        base: u64,
        body: impl FnOnce(&mut Emitter<'_, 'c>),
    ) {
        let mut inner = Emitter {
            sink: &mut *self.sink,
            bytes,
            base,
        };
        body(&mut inner);
    }

    /// The stored bytes at `offset` (empty where they are not there).
    pub fn raw(&self, offset: u64, size: u64) -> &'b [u8] {
        let Some(start) = offset.checked_sub(self.base) else {
            return &[];
        };
        let (Ok(start), Ok(size)) = (usize::try_from(start), usize::try_from(size)) else {
            return &[];
        };
        start
            .checked_add(size)
            .and_then(|end| self.bytes.get(start..end))
            .unwrap_or(&[])
    }

    /// A comment for the flat dump.
    pub fn comment(&mut self, text: &str) {
        self.sink.comment(text);
    }

    /// A field with everything said.
    pub fn emit(
        &mut self,
        label: Label<'_>,
        offset: u64,
        size: u64,
        elem: Elem,
        value: &DumpValue,
        note: Option<&dyn fmt::Display>,
    ) {
        let raw = self.raw(offset, size);
        self.sink.field(&Entry {
            label: Some(label),
            offset: Some(offset),
            size: Some(size),
            elem,
            raw,
            value: Some(value),
            note,
            section: None,
            in_tree: true,
        });
    }

    /// Any entry, as given (for fields without a byte position, or only in the flat dump).
    pub fn entry(&mut self, entry: &Entry<'_>) {
        self.sink.field(entry);
    }

    /// An unsigned integer of `size` bytes.
    pub fn uint<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        size: u64,
        value: impl Into<u64>,
    ) {
        let value = DumpValue::UInt(value.into());
        self.emit(
            label.into(),
            offset,
            size,
            Elem::unsigned(size),
            &value,
            None,
        );
    }

    /// [`Emitter::uint`] with a note on what the value means.
    pub fn uint_noted<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        size: u64,
        value: impl Into<u64>,
        note: &dyn fmt::Display,
    ) {
        let value = DumpValue::UInt(value.into());
        self.emit(
            label.into(),
            offset,
            size,
            Elem::unsigned(size),
            &value,
            Some(note),
        );
    }

    /// A signed 4-byte integer.
    pub fn int<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        value: i32,
        note: Option<&dyn fmt::Display>,
    ) {
        let value = DumpValue::Int(i64::from(value));
        self.emit(label.into(), offset, 4, Elem::I32, &value, note);
    }

    /// A 4-byte float.
    pub fn float<'l>(&mut self, label: impl Into<Label<'l>>, offset: u64, value: f32) {
        let value = DumpValue::Float(f64::from(value));
        self.emit(label.into(), offset, 4, Elem::F32, &value, None);
    }

    /// Consecutive 4-byte floats (a vector).
    pub fn floats<'l>(&mut self, label: impl Into<Label<'l>>, offset: u64, values: &[f32]) {
        let size = 4 * values.len() as u64;
        let value = DumpValue::Floats(values.to_vec());
        self.emit(label.into(), offset, size, Elem::F32, &value, None);
    }

    /// Consecutive integers of type `elem` taking `size` bytes in all.
    pub fn ints<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        size: u64,
        elem: Elem,
        values: impl IntoIterator<Item = i64>,
        note: Option<&dyn fmt::Display>,
    ) {
        let value = DumpValue::Ints(values.into_iter().collect());
        self.emit(label.into(), offset, size, elem, &value, note);
    }

    /// Characters, shown in the tree as `value`.
    pub fn chars<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        size: u64,
        value: impl Into<String>,
    ) {
        let value = DumpValue::Text(value.into());
        self.emit(label.into(), offset, size, Elem::Char, &value, None);
    }

    /// Bytes nobody decodes: hex rows in the flat dump; in the tree a node with no value
    /// (`tree_value` when given, nothing at all when `in_tree` is false).
    pub fn opaque<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: u64,
        size: u64,
        tree_value: Option<&DumpValue>,
        in_tree: bool,
    ) {
        let raw = self.raw(offset, size);
        self.sink.field(&Entry {
            label: Some(label.into()),
            offset: Some(offset),
            size: Some(size),
            elem: Elem::Bytes,
            raw,
            value: tree_value,
            note: None,
            section: None,
            in_tree,
        });
    }

    /// Opens `group`, runs `body`, closes it.
    pub fn nest(&mut self, group: &Entry<'_>, body: impl FnOnce(&mut Self)) {
        self.sink.open(group);
        body(self);
        self.sink.close();
    }

    /// A group of fields labelled `label` at `offset`.
    pub fn group<'l>(
        &mut self,
        label: impl Into<Label<'l>>,
        offset: Option<u64>,
        body: impl FnOnce(&mut Self),
    ) {
        self.nest(&Entry::group(Some(label.into()), offset), body);
    }

    /// A section named `name`: `label` and `offset` are its node in the tree (`None`: it has
    /// none), `span` its offset and size in `space`, whose bytes `--extract` writes.
    pub fn section(
        &mut self,
        name: &str,
        label: Option<Label<'_>>,
        offset: Option<u64>,
        span: Option<(u64, u64)>,
        space: Space<'_>,
        body: impl FnOnce(&mut Self),
    ) {
        let bytes = span.and_then(|(offset, size)| {
            let raw = self.raw(offset, size);
            (raw.len() as u64 == size).then_some(raw)
        });
        let group = Entry {
            section: Some(Section {
                name,
                space,
                span,
                bytes,
            }),
            ..Entry::group(label, offset)
        };
        self.nest(&group, body);
    }

    /// The whole file: the group `name` at offset 0 in the tree; in the flat dump a section
    /// with no name, so that paths start afresh under it.
    pub fn root(&mut self, name: &str, body: impl FnOnce(&mut Self)) {
        self.section(
            "",
            Some(Label::Name(name)),
            Some(0),
            None,
            Space::File,
            body,
        );
    }

    /// A table of fixed-size records: record `i` of `items` starts at `start + stride·i` and
    /// is the group `name[i]` holding the fields `fields` reports.
    pub fn table<T>(
        &mut self,
        name: &str,
        start: u64,
        stride: u64,
        items: &[T],
        mut fields: impl FnMut(&mut Self, u64, &T),
    ) {
        self.group(name, Some(start), |e| {
            for (i, item) in items.iter().enumerate() {
                let at = start.saturating_add(stride.saturating_mul(i as u64));
                e.group(Label::Indexed(name, i as u64), Some(at), |e| {
                    fields(e, at, item)
                });
            }
        });
    }

    /// The ranges of `0..len` that no span in `claimed` covers, as hex rows in a section
    /// `unclaimed` that only the flat dump shows. `claimed` is (offset, size) in any order.
    pub fn unclaimed(&mut self, claimed: &mut [(u64, u64)], len: u64) {
        let gaps = gaps(claimed, len);
        if gaps.is_empty() {
            return;
        }
        let group = Entry {
            section: Some(Section {
                name: "unclaimed",
                space: Space::File,
                span: None,
                bytes: None,
            }),
            in_tree: false,
            ..Entry::group(None, None)
        };
        self.nest(&group, |e| {
            e.comment("bytes that no field of the format covers");
            for (offset, size) in gaps {
                e.opaque("unclaimed", offset, size, None, false);
            }
        });
    }
}

/// The ranges of `0..len` not covered by any (offset, size) of `claimed` (sorted in place).
pub fn gaps(claimed: &mut [(u64, u64)], len: u64) -> Vec<(u64, u64)> {
    claimed.sort_unstable();
    let mut gaps = Vec::new();
    let mut covered = 0u64;
    for &(offset, size) in claimed.iter() {
        if offset > covered {
            gaps.push((covered, offset.min(len) - covered));
        }
        covered = covered.max(offset.saturating_add(size));
        if covered >= len {
            break;
        }
    }
    if covered < len {
        gaps.push((covered, len - covered));
    }
    gaps.retain(|&(_, size)| size > 0);
    gaps
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn table_places_records_at_their_stride() {
        let bytes: Vec<u8> = (0..140u8).collect();
        let mut tree = TreeSink::new();
        let mut e = Emitter::new(&mut tree, &bytes);
        e.table("links", 100, 16, &[7u32, 9], |e, at, &node| {
            e.uint("node", at, 4, node);
            e.float("width", at + 8, 0.5);
        });
        let table = tree.finish();
        assert_eq!(table.name, "links");
        assert_eq!(table.offset, Some(100));
        assert_eq!(table.children.len(), 2);
        let second = &table.children[1];
        assert_eq!(second.name, "links[1]");
        assert_eq!(second.offset, Some(116));
        assert_eq!(second.children[0].value, Some(DumpValue::UInt(9)));
        assert_eq!(second.children[1].offset, Some(124));
        assert_eq!(second.children[1].size, Some(4));
    }

    #[test]
    fn tree_nodes_carry_type_raw_bytes_and_meaning() {
        let bytes: Vec<u8> = (0..100u8).collect();
        let mut tree = TreeSink::new();
        let mut e = Emitter::new(&mut tree, &bytes);
        e.group("root", Some(0), |e| {
            e.uint_noted("code", 4, 4, 7u32, &"Stone, walkable");
            e.floats("position", 8, &[1.0, 2.0, 3.0]);
            e.ints("table", 0, 70, Elem::U8, (0..70).map(i64::from), None);
        });
        let root = tree.finish();
        assert_eq!(root.kind, None);
        let code = &root.children[0];
        assert_eq!(code.kind.as_deref(), Some("u32"));
        assert_eq!(code.raw.as_deref(), Some("04050607"));
        assert_eq!(code.meaning.as_deref(), Some("Stone, walkable"));
        assert_eq!(root.children[1].kind.as_deref(), Some("f32[3]"));
        assert_eq!(root.children[1].meaning, None);
        // 70 bytes: the first 64 in hex, then `..`.
        let raw = root.children[2].raw.as_deref().unwrap();
        assert_eq!(raw.len(), 2 * TREE_RAW_SHOWN + 2);
        assert!(
            raw.starts_with("00010203") && raw.ends_with("3f.."),
            "{raw}"
        );
    }

    #[test]
    fn flat_only_entries_stay_out_of_the_tree() {
        let bytes = [0u8; 32];
        let mut tree = TreeSink::new();
        let mut e = Emitter::new(&mut tree, &bytes);
        e.group("root", Some(0), |e| {
            e.section("part", None, None, Some((0, 8)), Space::File, |e| {
                e.uint("count", 0, 4, 3u32);
            });
            e.opaque("junk", 8, 4, None, false);
            e.unclaimed(&mut [(0, 8)], 32);
        });
        let root = tree.finish();
        // The section has no node: its field joins the root; the junk is not there.
        assert_eq!(root.children.len(), 1);
        assert_eq!(root.children[0].name, "count");
    }

    #[test]
    fn gaps_are_what_no_span_covers() {
        assert_eq!(
            gaps(&mut [(10, 5), (0, 4), (12, 10)], 30),
            vec![(4, 6), (22, 8)]
        );
        assert_eq!(gaps(&mut [(0, 40)], 30), vec![]);
        assert_eq!(gaps(&mut [], 3), vec![(0, 3)]);
        assert_eq!(gaps(&mut [(50, 4)], 30), vec![(0, 30)]);
    }
}
