//! `dump --format json|ron` written as the dumper walks the file, instead of building the
//! [`DumpNode`](crate::dump::DumpNode) tree and serialising it: a 1 MB TRX has a
//! 360 MB JSON tree, which took a gigabyte of memory and seconds to build (issue 36).
//!
//! The text is byte for byte what `crate::json::pretty` (serde_json's pretty printer, with
//! the terminal-safe escaping of every `--json` output) and
//! `ron::ser::to_string_pretty(_, PrettyConfig::default())` write for the tree that
//! [`TreeSink`](crate::dump::TreeSink) builds from the same fields (tests in
//! `tests/tests/dump_stream.rs` compare both on corpus files of every format). The layout
//! rules copied here: JSON indents by two spaces, separates members with `,` and omits a
//! member whose value is `None` or an empty `children`; RON indents by four spaces, ends every
//! member and element with `,` (not the outermost value), and writes `Some(…)`.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::dump::{DumpValue, Elem, Entry, FieldSink, TREE_RAW_SHOWN};

/// The syntax the tree is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Ron,
}

/// One tree node whose braces are still open.
#[derive(Debug)]
struct OpenNode {
    /// Indentation level of its braces (its members are one deeper, its children two).
    level: usize,
    /// Whether its `children` array has been started.
    has_children: bool,
}

/// Writes the tree of fields to `out` as they arrive.
#[derive(Debug)]
pub struct TreeStream<W: Write> {
    out: W,
    syntax: Syntax,
    /// Per open group: whether it has a node of its own in the tree (a group without a label
    /// or only in the flat dump is transparent, its fields belong to the enclosing node).
    groups: Vec<bool>,
    /// The open nodes, innermost last.
    nodes: Vec<OpenNode>,
    /// The tree's top is a group `dump` holding the dumped parts (as [`TreeSink::finish`]
    /// makes when other than exactly one part was dumped).
    ///
    /// [`TreeSink::finish`]: crate::dump::TreeSink::finish
    wrapped: bool,
    /// Top-level nodes written so far.
    roots: usize,
    /// Scratch text (labels and meanings are `Display`, escaped once formatted).
    scratch: String,
    /// The first write error; writing stops there and [`TreeStream::finish`] returns it.
    error: Option<io::Error>,
}

impl<W: Write> TreeStream<W> {
    /// A stream writing to `out`. `wrapped`: the dump has other than exactly one top-level
    /// part (a `--section` matching several, or none), so they go under a group `dump`.
    pub fn new(out: W, syntax: Syntax, wrapped: bool) -> TreeStream<W> {
        let mut stream = TreeStream {
            out,
            syntax,
            groups: Vec::new(),
            nodes: Vec::new(),
            wrapped,
            roots: 0,
            scratch: String::new(),
            error: None,
        };
        if wrapped {
            stream.begin_dump_group();
        }
        stream
    }

    /// Closes what is open, ends the text with a newline and flushes. Fails on a write error,
    /// or when an unwrapped stream received other than one top-level node.
    pub fn finish(mut self) -> io::Result<W> {
        while !self.groups.is_empty() {
            self.close();
        }
        if !self.wrapped && self.roots == 0 {
            // Nothing dumped: the empty group `dump` that the tree would hold.
            self.begin_dump_group();
        }
        if self.wrapped || self.roots == 0 {
            self.end_node();
        }
        self.write(b"\n");
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        if !self.wrapped && self.roots > 1 {
            return Err(io::Error::other(
                "the dump had several top-level parts but was written as one",
            ));
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(error) = self.out.write_all(bytes)
        {
            self.error = Some(error);
        }
    }

    fn indent(&mut self, level: usize) {
        const SPACES: &[u8] = &[b' '; 64];
        let mut width = level
            * match self.syntax {
                Syntax::Json => 2,
                Syntax::Ron => 4,
            };
        while width > 0 {
            let step = width.min(SPACES.len());
            self.write(SPACES.get(..step).unwrap_or_default());
            width -= step;
        }
    }

    /// Starts member `key` of a node whose members are at `level`.
    fn member(&mut self, level: usize, key: &str, first: bool) {
        if !first && self.syntax == Syntax::Json {
            self.write(b",");
        }
        self.write(b"\n");
        self.indent(level);
        match self.syntax {
            Syntax::Json => {
                self.write(b"\"");
                self.write(key.as_bytes());
                self.write(b"\": ");
            }
            Syntax::Ron => {
                self.write(key.as_bytes());
                self.write(b": ");
            }
        }
    }

    /// Ends a member or an element (RON ends each with a comma).
    fn end_item(&mut self) {
        if self.syntax == Syntax::Ron {
            self.write(b",");
        }
    }

    /// An optional member: `Some(…)` in RON.
    fn optional(&mut self, level: usize, key: &str, body: impl FnOnce(&mut Self)) {
        self.member(level, key, false);
        if self.syntax == Syntax::Ron {
            self.write(b"Some(");
        }
        body(self);
        if self.syntax == Syntax::Ron {
            self.write(b")");
        }
        self.end_item();
    }

    fn string(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        let result = match self.syntax {
            Syntax::Json => {
                crate::json::write_compact(&mut self.out, text).map_err(io::Error::from)
            }
            Syntax::Ron => {
                let mut adapter = FmtToIo {
                    out: &mut self.out,
                    error: None,
                };
                match ron::ser::to_writer(&mut adapter, text) {
                    Ok(()) => Ok(()),
                    Err(error) => Err(adapter
                        .error
                        .take()
                        .unwrap_or_else(|| io::Error::other(error.to_string()))),
                }
            }
        };
        if let Err(error) = result {
            self.error = Some(error);
        }
    }

    /// The scratch text, as a string.
    fn scratch_string(&mut self) {
        let text = std::mem::take(&mut self.scratch);
        self.string(&text);
        self.scratch = text;
    }

    fn display(&mut self, value: &dyn std::fmt::Display) {
        self.scratch.clear();
        let _ = write!(self.scratch, "{value}");
        self.scratch_string();
    }

    fn integer(&mut self, value: impl std::fmt::Display) {
        self.scratch.clear();
        let _ = write!(self.scratch, "{value}");
        let text = std::mem::take(&mut self.scratch);
        self.write(text.as_bytes());
        self.scratch = text;
    }

    /// A float as serde_json (shortest round-trip form, `null` for NaN and infinities) or
    /// ron (`Debug`, with a `-` before a negative NaN) writes it.
    fn float<F: serde::Serialize + std::fmt::Debug>(&mut self, value: F, negative_nan: bool) {
        if self.error.is_some() {
            return;
        }
        match self.syntax {
            Syntax::Json => {
                if let Err(error) = crate::json::write_compact(&mut self.out, &value) {
                    self.error = Some(io::Error::from(error));
                }
            }
            Syntax::Ron => {
                self.scratch.clear();
                if negative_nan {
                    self.scratch.push('-');
                }
                let _ = write!(self.scratch, "{value:?}");
                let text = std::mem::take(&mut self.scratch);
                self.write(text.as_bytes());
                self.scratch = text;
            }
        }
    }

    fn f64(&mut self, value: f64) {
        self.float(value, value.is_nan() && value.is_sign_negative());
    }

    fn f32(&mut self, value: f32) {
        self.float(value, value.is_nan() && value.is_sign_negative());
    }

    /// An array value of a member at `level`: one element per line, one level deeper.
    fn array<T: Copy>(&mut self, level: usize, items: &[T], element: impl Fn(&mut Self, T)) {
        self.write(b"[");
        for (i, &item) in items.iter().enumerate() {
            if i > 0 && self.syntax == Syntax::Json {
                self.write(b",");
            }
            self.write(b"\n");
            self.indent(level + 1);
            element(self, item);
            self.end_item();
        }
        if !items.is_empty() {
            self.write(b"\n");
            self.indent(level);
        }
        self.write(b"]");
    }

    fn value(&mut self, level: usize, value: &DumpValue) {
        match value {
            DumpValue::Int(v) => self.integer(*v),
            DumpValue::UInt(v) => self.integer(*v),
            DumpValue::Float(v) => self.f64(*v),
            DumpValue::Text(text) => self.string(text),
            DumpValue::Ints(values) => self.array(level, values, |s, v| s.integer(v)),
            DumpValue::Floats(values) => self.array(level, values, |s, v| s.f32(v)),
        }
    }

    /// The stored bytes in hex as the tree shows them (the first [`TREE_RAW_SHOWN`], then
    /// `..`); hex digits need no escaping in either syntax.
    fn raw(&mut self, raw: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.write(b"\"");
        let shown = raw.get(..TREE_RAW_SHOWN).unwrap_or(raw);
        let mut text = [0u8; 2 * TREE_RAW_SHOWN];
        for (pair, byte) in text.chunks_exact_mut(2).zip(shown) {
            let digits = [byte >> 4, byte & 15].map(|d| HEX.get(usize::from(d)).copied());
            for (slot, digit) in pair.iter_mut().zip(digits) {
                *slot = digit.unwrap_or(b'?');
            }
        }
        self.write(text.get(..2 * shown.len()).unwrap_or_default());
        if raw.len() > TREE_RAW_SHOWN {
            self.write(b"..");
        }
        self.write(b"\"");
    }

    /// Opens a node's braces and writes its members up to (not including) `children`, as
    /// `TreeSink` fills a node from an entry.
    fn begin_node(&mut self, level: usize, entry: &Entry<'_>, label: &dyn std::fmt::Display) {
        self.write(match self.syntax {
            Syntax::Json => b"{",
            Syntax::Ron => b"(",
        });
        let members = level + 1;
        self.member(members, "name", true);
        self.display(label);
        self.end_item();
        if let Some(offset) = entry.offset {
            self.optional(members, "offset", |s| s.integer(offset));
        }
        if let Some(size) = entry.size {
            self.optional(members, "size", |s| s.integer(size));
        }
        if let Some(value) = entry.value {
            self.optional(members, "value", |s| s.value(members, value));
        }
        if entry.elem != Elem::Group {
            let kind = entry.elem.column(entry.size);
            self.optional(members, "type", |s| s.string(&kind));
        }
        if !entry.raw.is_empty() {
            self.optional(members, "raw", |s| s.raw(entry.raw));
        }
        if let Some(note) = entry.note {
            self.optional(members, "meaning", |s| s.display(note));
        }
        self.nodes.push(OpenNode {
            level,
            has_children: false,
        });
    }

    /// The group `dump` that holds several top-level parts.
    fn begin_dump_group(&mut self) {
        self.begin_node(0, &Entry::group(None, None), &"dump");
    }

    /// Where the next node goes: a new element of the innermost open node's `children`
    /// (started if needed), or the top. Returns the node's level.
    fn begin_child(&mut self) -> usize {
        let syntax = self.syntax;
        let Some(parent) = self.nodes.last_mut() else {
            self.roots += 1;
            return 0;
        };
        let (level, first) = (parent.level, !parent.has_children);
        parent.has_children = true;
        if self.nodes.len() == 1 && self.wrapped {
            self.roots += 1;
        }
        if first {
            self.member(level + 1, "children", false);
            self.write(b"[");
        } else if syntax == Syntax::Json {
            self.write(b",");
        }
        self.write(b"\n");
        self.indent(level + 2);
        level + 2
    }

    /// Closes the innermost open node.
    fn end_node(&mut self) {
        let Some(node) = self.nodes.pop() else {
            return;
        };
        if node.has_children {
            self.write(b"\n");
            self.indent(node.level + 1);
            self.write(b"]");
            self.end_item();
        }
        self.write(b"\n");
        self.indent(node.level);
        self.write(match self.syntax {
            Syntax::Json => b"}",
            Syntax::Ron => b")",
        });
        if !self.nodes.is_empty() {
            self.end_item();
        }
    }
}

impl<W: Write> FieldSink for TreeStream<W> {
    fn open(&mut self, group: &Entry<'_>) {
        let in_tree = match group.label {
            Some(label) if group.in_tree => {
                let level = self.begin_child();
                self.begin_node(level, group, &label);
                true
            }
            _ => false,
        };
        self.groups.push(in_tree);
    }

    fn close(&mut self) {
        if let Some(true) = self.groups.pop() {
            self.end_node();
        }
    }

    fn field(&mut self, field: &Entry<'_>) {
        if let (Some(label), true) = (field.label, field.in_tree) {
            let level = self.begin_child();
            self.begin_node(level, field, &label);
            self.end_node();
        }
    }
}

/// Counts the top-level nodes of the tree a dump would make (a `--section` may match several
/// parts or none), so that [`TreeStream`] knows whether to wrap them before writing any.
#[derive(Debug, Default)]
pub struct RootCount {
    groups: Vec<bool>,
    /// Open groups that are nodes in the tree.
    open_nodes: usize,
    roots: usize,
}

impl RootCount {
    pub fn roots(&self) -> usize {
        self.roots
    }
}

impl FieldSink for RootCount {
    fn open(&mut self, group: &Entry<'_>) {
        let node = group.label.is_some() && group.in_tree;
        if node {
            if self.open_nodes == 0 {
                self.roots += 1;
            }
            self.open_nodes += 1;
        }
        self.groups.push(node);
    }

    fn close(&mut self) {
        if let Some(true) = self.groups.pop() {
            self.open_nodes -= 1;
        }
    }

    fn field(&mut self, field: &Entry<'_>) {
        if field.label.is_some() && field.in_tree && self.open_nodes == 0 {
            self.roots += 1;
        }
    }
}

/// `ron` writes to a `fmt::Write`; this passes its text on to an `io::Write`.
struct FmtToIo<'a, W: Write> {
    out: &'a mut W,
    error: Option<io::Error>,
}

impl<W: Write> std::fmt::Write for FmtToIo<'_, W> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.out.write_all(text.as_bytes()).map_err(|error| {
            self.error = Some(error);
            std::fmt::Error
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use crate::dump::{DumpValue, Emitter, Label, Space, TreeSink};

    use super::*;

    /// Two top-level sections (what a `--section` matching two parts gives), with every kind
    /// of value, empty arrays, a NaN, text needing escapes and a flat-only entry.
    fn report(sink: &mut dyn FieldSink, parts: usize) {
        let bytes: Vec<u8> = (0..=255).cycle().take(200).collect();
        let mut e = Emitter::new(sink, &bytes);
        for part in 0..parts {
            let name = format!("part{part}");
            e.section(
                &name,
                Some(Label::Indexed("part", part as u64)),
                Some(4),
                Some((4, 100)),
                Space::File,
                |e| {
                    e.uint("count", 4, 4, 7u32);
                    e.int("delta", 8, -3, Some(&"three down"));
                    e.float("height", 12, f32::NAN);
                    e.float("depth", 12, -f32::NAN);
                    e.floats("normal", 16, &[0.1, -0.0, 1e30]);
                    e.ints("empty", 28, 0, Elem::I32, [], None);
                    e.ints("pair", 28, 8, Elem::I32, [-1, 5], None);
                    e.group(
                        Label::Described("quote", "a \"b\"\n\u{1b}"),
                        Some(40),
                        |e| {
                            e.chars("tag", 40, 4, "NW\u{0}\"");
                            e.opaque("blob", 44, 100, None, true);
                        },
                    );
                    e.opaque("flat only", 150, 2, None, false);
                    e.nest(&Entry::group(None, Some(160)), |e| {
                        e.emit(
                            Label::Name("text"),
                            152,
                            0,
                            Elem::Json,
                            &DumpValue::Text("ü\t".into()),
                            None,
                        );
                        e.emit(
                            Label::Name("big"),
                            160,
                            8,
                            Elem::Bytes,
                            &DumpValue::UInt(u64::MAX),
                            Some(&1.5),
                        );
                    });
                },
            );
        }
    }

    fn streamed(syntax: Syntax, parts: usize) -> String {
        let mut count = RootCount::default();
        report(&mut count, parts);
        let mut stream = TreeStream::new(Vec::new(), syntax, count.roots() != 1);
        report(&mut stream, parts);
        String::from_utf8(stream.finish().unwrap()).unwrap()
    }

    fn tree(parts: usize) -> crate::dump::DumpNode {
        let mut tree = TreeSink::new();
        report(&mut tree, parts);
        tree.finish()
    }

    #[test]
    fn several_parts_none_and_one_are_written_as_the_tree_serialises() {
        for parts in [0, 1, 2] {
            let tree = tree(parts);
            let json = crate::json::pretty(&tree).unwrap() + "\n";
            assert_eq!(streamed(Syntax::Json, parts), json, "{parts} part(s)");
            let ron = ron::ser::to_string_pretty(&tree, ron::ser::PrettyConfig::default()).unwrap()
                + "\n";
            assert_eq!(streamed(Syntax::Ron, parts), ron, "{parts} part(s)");
        }
    }

    #[test]
    fn roots_are_counted_as_the_tree_has_them() {
        for parts in [0, 1, 3] {
            let mut count = RootCount::default();
            report(&mut count, parts);
            let tree = tree(parts);
            let expected = if parts == 1 { 1 } else { tree.children.len() };
            assert_eq!(count.roots(), expected, "{parts} part(s)");
        }
    }
}
