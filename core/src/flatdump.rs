//! The flat dump: one line per stored field, written as the dumper walks the file.
//!
//! ```text
//! offset          size  type        raw (hex, first 16 bytes)              field = value ; meaning
//! 0x00000130         4  u32         04000000                               materials[0] = 4 ; Stone, walkable
//! ```
//!
//! Offsets and raw bytes are in hex; offsets count from the start of the file, except inside a
//! section that says otherwise (`aswm-body:0x00000035` is byte 0x35 of the inflated ASWM body,
//! the file `walkmesh dump --extract aswm-body` writes). Bytes that no field decodes (unknown
//! packets, garbage between tables) are shown as rows of 16 bytes with their ASCII.
//! [`SectionFilter`] passes on one section; [`SectionBytes`] keeps the bytes of one.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

use crate::dump::{DumpValue, Elem, Entry, FieldSink, Label, Space};

/// Bytes of raw hex shown on a field's line (the rest: `--extract` or the hex rows).
const RAW_SHOWN: usize = 16;
/// Width of the raw column: 16 bytes in groups of four, and `..` when there is more.
const RAW_WIDTH: usize = 2 * RAW_SHOWN + RAW_SHOWN / 4 - 1 + 3;
/// Bytes per hex row of undecoded data.
const ROW: usize = 16;

/// The column titles, as a comment line over the columns.
pub fn column_titles() -> String {
    format!(
        "{:<10}  {:>8}  {:<10}  {:<RAW_WIDTH$}  field = value ; meaning",
        "# offset", "size", "type", "raw (hex)"
    )
}

/// What offsets count from, inside an open group.
#[derive(Debug, Clone)]
enum FrameSpace {
    Inherit,
    File,
    Named(String),
}

/// One open group.
#[derive(Debug)]
struct Frame {
    /// Length of the path before the group added to it.
    path_len: usize,
    /// The path before a section replaced it.
    saved: Option<String>,
    /// The section's name, when the group is a section.
    section: Option<String>,
    /// The group's name in the tree, without index (records of table `t` are `t[i]`).
    base: String,
    space: FrameSpace,
}

/// The open groups of a field stream as the flat dump's names need them: every sink that
/// names fields as the flat dump does ([`FlatWriter`], the research kit's field sinks) keeps
/// its path through these, so the naming rules are in one place. The path itself is the
/// caller's (it may take it out while it writes a line).
#[derive(Debug, Default)]
pub struct PathFrames {
    frames: Vec<Frame>,
}

impl PathFrames {
    pub fn new() -> PathFrames {
        PathFrames::default()
    }

    /// `group` opens: its label joins `path` ([`append_label`]), or a section's name replaces
    /// `path` until the group closes.
    pub fn open(&mut self, path: &mut String, group: &Entry<'_>) {
        let path_len = path.len();
        let mut saved = None;
        let mut space = FrameSpace::Inherit;
        if let Some(section) = &group.section {
            saved = Some(std::mem::replace(path, section.name.to_string()));
            space = match section.space {
                Space::File => FrameSpace::File,
                Space::Section(name) => FrameSpace::Named(name.to_string()),
            };
        } else if let Some(label) = group.label {
            self.append(path, label);
        }
        let base = group
            .label
            .map(|l| l.base().to_string())
            .unwrap_or_default();
        self.frames.push(Frame {
            path_len,
            saved,
            section: group.section.map(|section| section.name.to_string()),
            base,
            space,
        });
    }

    /// The innermost group closes: `path` is what it was before the group opened.
    pub fn close(&mut self, path: &mut String) {
        if let Some(frame) = self.frames.pop() {
            match frame.saved {
                Some(saved) => *path = saved,
                None => path.truncate(frame.path_len),
            }
        }
    }

    /// Appends `label` to `path` as the innermost open group names its fields.
    pub fn append(&self, path: &mut String, label: Label<'_>) {
        append_label(path, self.frames.last().map(Frame::parent), label);
    }

    /// The named space offsets count from inside the innermost group that says (`None`: the
    /// file).
    pub fn space(&self) -> Option<&str> {
        for frame in self.frames.iter().rev() {
            match &frame.space {
                FrameSpace::Inherit => continue,
                FrameSpace::File => return None,
                FrameSpace::Named(name) => return Some(name),
            }
        }
        None
    }

    /// True inside a section called `name` (at any depth).
    pub fn in_section(&self, name: &str) -> bool {
        self.frames
            .iter()
            .any(|frame| frame.section.as_deref() == Some(name))
    }
}

/// Writes the flat dump to `out` (buffered: one write per 64 KiB, memory for one line).
pub struct FlatWriter<W: Write> {
    out: BufWriter<W>,
    /// Lines written before the first line of the dump (nothing at all when the dump reports
    /// nothing, as when the file cannot be read).
    preamble: String,
    line: String,
    path: String,
    frames: PathFrames,
    error: Option<io::Error>,
}

impl<W: Write> std::fmt::Debug for FlatWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlatWriter")
            .field("path", &self.path)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<W: Write> FlatWriter<W> {
    pub fn new(out: W) -> FlatWriter<W> {
        FlatWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            preamble: String::new(),
            line: String::with_capacity(256),
            path: String::new(),
            frames: PathFrames::new(),
            error: None,
        }
    }

    /// Adds a comment line to write before the first line of the dump.
    pub fn preamble(&mut self, text: &str) {
        self.preamble.push_str("# ");
        self.preamble.push_str(text);
        self.preamble.push('\n');
    }

    /// Flushes; the first write error, if any.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.out.flush()
    }

    /// Writes `self.line` and a newline, unless an earlier write failed (then the rest of the
    /// dump is skipped: the reader has gone).
    fn emit_line(&mut self) {
        self.line.push('\n');
        if !self.preamble.is_empty() {
            let preamble = std::mem::take(&mut self.preamble);
            if let Err(error) = self.out.write_all(preamble.as_bytes()) {
                self.error = Some(error);
            }
        }
        if self.error.is_none()
            && let Err(error) = self.out.write_all(self.line.as_bytes())
        {
            self.error = Some(error);
        }
        self.line.clear();
    }

    fn space(&self) -> Option<&str> {
        self.frames.space()
    }

    fn write_offset(&mut self, offset: Option<u64>) {
        match offset {
            Some(offset) => {
                if let Some(space) = self.frames.space() {
                    self.line.push_str(space);
                    self.line.push(':');
                }
                let _ = write!(self.line, "{offset:#010x}");
            }
            None => self.line.push_str("-         "),
        }
    }

    /// Offset, size, type and raw columns.
    fn write_columns(&mut self, offset: Option<u64>, size: Option<u64>, elem: Elem, raw: &[u8]) {
        self.write_offset(offset);
        match size {
            Some(size) => {
                let _ = write!(self.line, "  {size:>8}  ");
            }
            None => self.line.push_str("         -  "),
        }
        let start = self.line.len();
        self.line.push_str(&elem.column(size));
        pad(&mut self.line, start, 10);
        self.line.push_str("  ");
        let start = self.line.len();
        hex(&mut self.line, raw.get(..RAW_SHOWN).unwrap_or(raw));
        if raw.len() > RAW_SHOWN {
            self.line.push_str(" ..");
        }
        pad(&mut self.line, start, RAW_WIDTH);
        self.line.push_str("  ");
    }

    /// `= value ; note` for one field.
    fn write_value(&mut self, entry: &Entry<'_>, name: &str) {
        if entry.elem == Elem::Char && !entry.raw.is_empty() {
            self.line.push_str(" = ");
            write_chars(&mut self.line, entry.raw);
        } else if let Some(value) = entry.value {
            self.line.push_str(" = ");
            write_value(&mut self.line, value, entry.elem);
            if let DumpValue::UInt(number) = value
                && name.ends_with("offset")
            {
                let _ = write!(self.line, " ({number:#x})");
            }
        }
        if let Some(note) = entry.note {
            let _ = write!(self.line, " ; {note}");
        }
    }

    /// A long array, [`chunks_of`] elements a line, each line with its own offset, size and
    /// raw bytes and named `name[first..end]`; the meaning goes on the first line.
    fn write_chunks(&mut self, entry: &Entry<'_>, name: &str, per_line: usize) {
        let element = entry.elem.size();
        let start = entry.offset.unwrap_or(0);
        let (ints, floats): (&[i64], &[f32]) = match entry.value {
            Some(DumpValue::Ints(v)) => (v, &[]),
            Some(DumpValue::Floats(v)) => (&[], v),
            _ => (&[], &[]),
        };
        let count = ints.len().max(floats.len());
        let mut first = 0;
        while first < count {
            let end = (first + per_line).min(count);
            let at = start + element * first as u64;
            let size = element * (end - first) as u64;
            let raw = entry
                .raw
                .get(first * element as usize..end * element as usize)
                .unwrap_or(&[]);
            self.write_columns(Some(at), Some(size), entry.elem, raw);
            let _ = write!(self.line, "{name}[{first}..{end}] = ");
            let part = if ints.is_empty() {
                DumpValue::Floats(floats.get(first..end).unwrap_or(&[]).to_vec())
            } else {
                DumpValue::Ints(ints.get(first..end).unwrap_or(&[]).to_vec())
            };
            write_value(&mut self.line, &part, entry.elem);
            if first == 0
                && let Some(note) = entry.note
            {
                let _ = write!(self.line, " ; {note}");
            }
            self.emit_line();
            first = end;
        }
    }

    /// Hex rows for bytes nobody decodes.
    fn write_rows(&mut self, entry: &Entry<'_>, name: &str) {
        let start = entry.offset.unwrap_or(0);
        if entry.raw.is_empty() {
            self.write_columns(entry.offset, entry.size, Elem::Bytes, &[]);
            self.line.push_str(name);
            if entry.size.is_some_and(|size| size > 0) {
                self.line.push_str(" ; bytes not available");
            }
            self.emit_line();
            return;
        }
        for (i, row) in entry.raw.chunks(ROW).enumerate() {
            let at = start.saturating_add((i * ROW) as u64);
            self.write_columns(Some(at), Some(row.len() as u64), Elem::Bytes, row);
            self.line.push_str(name);
            self.line.push_str(" |");
            for &byte in row {
                self.line.push(if byte.is_ascii_graphic() || byte == b' ' {
                    char::from(byte)
                } else {
                    '.'
                });
            }
            self.line.push('|');
            self.emit_line();
        }
    }
}

impl<W: Write> FieldSink for FlatWriter<W> {
    fn open(&mut self, group: &Entry<'_>) {
        self.frames.open(&mut self.path, group);
        if let Some(section) = group.section.filter(|s| !s.name.is_empty()) {
            let mut text = format!("section {}", section.name);
            if let Some((offset, size)) = section.span {
                let _ = write!(text, ": {size} bytes at ");
                if let Some(space) = self.space() {
                    let _ = write!(text, "{space}:");
                }
                let _ = write!(text, "{offset:#010x}");
            }
            if let Some(Label::Described(_, description)) = group.label {
                let _ = write!(text, " ({description})");
            }
            if let Some(space) = self.space().filter(|&s| s != section.name) {
                let _ = write!(
                    text,
                    "; offsets inside {space} (walkmesh dump --extract {space})"
                );
            }
            self.comment(&text);
        }
        if group.value.is_some() {
            let path = std::mem::take(&mut self.path);
            self.write_columns(group.offset, group.size, group.elem, group.raw);
            self.line.push_str(&path);
            self.write_value(group, &path);
            self.path = path;
            self.emit_line();
        }
    }

    fn close(&mut self) {
        self.frames.close(&mut self.path);
    }

    fn field(&mut self, field: &Entry<'_>) {
        let path_len = self.path.len();
        if let Some(label) = field.label {
            self.frames.append(&mut self.path, label);
        }
        let name = std::mem::take(&mut self.path);
        if field.elem == Elem::Bytes {
            self.write_rows(field, &name);
        } else if let Some(chunks) = chunks_of(field) {
            self.write_chunks(field, &name, chunks);
        } else {
            self.write_columns(field.offset, field.size, field.elem, field.raw);
            self.line.push_str(&name);
            self.write_value(field, &name);
            self.emit_line();
        }
        self.path = name;
        self.path.truncate(path_len);
    }

    fn comment(&mut self, text: &str) {
        self.line.push_str("# ");
        self.line.push_str(text);
        self.emit_line();
    }
}

/// Elements of a long array shown per line: 32 one-byte values, 16 wider ones (a line stays
/// under about 300 characters).
const CHUNK_BYTES: usize = 32;
const CHUNK_WIDE: usize = 16;

/// How many elements a line of `entry` shows, when its array is too long for one line and its
/// raw bytes line up with its elements (so that each line's offset is exact); else `None`.
fn chunks_of(entry: &Entry<'_>) -> Option<usize> {
    let count = match entry.value {
        Some(DumpValue::Ints(v)) => v.len(),
        Some(DumpValue::Floats(v)) => v.len(),
        _ => return None,
    };
    let element = usize::try_from(entry.elem.size()).ok()?;
    let per_line = if element == 1 {
        CHUNK_BYTES
    } else {
        CHUNK_WIDE
    };
    (element > 0 && count > per_line && entry.raw.len() == count * element).then_some(per_line)
}

/// The enclosing group of a field, as [`append_label`] needs it.
#[derive(Clone, Copy, Debug)]
pub struct Parent<'a> {
    /// The group's name without index (records of table `t` are `t[i]`).
    pub base: &'a str,
    /// True when the group is a section (its name replaced the path).
    pub is_section: bool,
}

impl Frame {
    fn parent(&self) -> Parent<'_> {
        Parent {
            base: &self.base,
            is_section: self.saved.is_some(),
        }
    }
}

/// Appends `label` to `path` the way the flat dump names things: records of the enclosing
/// table as `table[i]`, a name that repeats its section's name not again. Public so that
/// other sinks (the field diff, corpus statistics) name fields exactly as the flat dump does.
pub fn append_label(path: &mut String, parent: Option<Parent<'_>>, label: Label<'_>) {
    let parent_base = parent.map(|p| p.base);
    match label {
        Label::Indexed(name, index) if parent_base == Some(name) => {
            let _ = write!(path, "[{index}]");
        }
        Label::Indexed(name, index) => {
            if !path.is_empty() {
                path.push('.');
            }
            let _ = write!(path, "{name}[{index}]");
        }
        Label::Name(name) | Label::Described(name, _) => {
            // A group or field named like the section it is in (`nodes` in `nodes`).
            let repeated = parent.is_some_and(|p| p.is_section)
                && path
                    .strip_suffix(name)
                    .is_some_and(|before| before.is_empty() || before.ends_with('.'));
            if repeated {
                return;
            }
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
        }
    }
}

/// Pads `line` with spaces so that what starts at `start` is at least `width` wide.
fn pad(line: &mut String, start: usize, width: usize) {
    let written = line.len() - start;
    for _ in written..width {
        line.push(' ');
    }
}

/// Bytes as hex, a space after every four.
fn hex(line: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (i, &byte) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            line.push(' ');
        }
        line.push(char::from(DIGITS[usize::from(byte >> 4)]));
        line.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
}

/// Characters up to the first NUL, quoted with escapes, and what follows the NUL when it is not
/// all NUL padding.
fn write_chars(line: &mut String, raw: &[u8]) {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    let (text, rest) = raw.split_at(end);
    let rest = rest.get(1..).unwrap_or(&[]);
    line.push('"');
    for &byte in text {
        line.extend(std::ascii::escape_default(byte).map(char::from));
    }
    line.push('"');
    if rest.iter().any(|&b| b != 0) {
        line.push_str(" ; after the NUL: ");
        hex(line, rest);
    }
}

fn write_value(line: &mut String, value: &DumpValue, elem: Elem) {
    match value {
        DumpValue::Int(v) => {
            let _ = write!(line, "{v}");
        }
        DumpValue::UInt(v) => {
            let _ = write!(line, "{v}");
        }
        // Stored as f32: shown as the f32 it is (0.1, not 0.10000000149011612). `{:?}` keeps
        // the shortest digits that read back exactly, in exponent form when tiny or huge.
        DumpValue::Float(v) if elem == Elem::F32 => {
            let _ = write!(line, "{:?}", *v as f32);
        }
        DumpValue::Float(v) => {
            let _ = write!(line, "{v:?}");
        }
        // A symbolic value of an integer field (`none` for an empty child slot): as it is.
        DumpValue::Text(text)
            if matches!(
                elem,
                Elem::U8 | Elem::U16 | Elem::U32 | Elem::I16 | Elem::I32
            ) =>
        {
            line.push_str(text);
        }
        DumpValue::Text(text) => {
            let _ = write!(line, "{text:?}");
        }
        DumpValue::Ints(values) => {
            line.push('[');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push_str(", ");
                }
                let _ = write!(line, "{v}");
            }
            line.push(']');
        }
        DumpValue::Floats(values) => {
            line.push('[');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push_str(", ");
                }
                let _ = write!(line, "{v:?}");
            }
            line.push(']');
        }
    }
}

/// True when section `name` is what `wanted` asks for: the same name, or one of a numbered
/// series (`trrn` selects `trrn[0]`, `trrn[1]`, …).
pub fn section_matches(name: &str, wanted: &str) -> bool {
    name == wanted
        || name
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with('['))
}

/// The names of the sections seen, numbered series shown once (`trrn[i]`).
#[derive(Debug, Default)]
pub struct SectionNames(Vec<String>);

impl SectionNames {
    fn add(&mut self, name: &str) {
        if name.is_empty() {
            return;
        }
        let mut general = String::with_capacity(name.len());
        let mut chars = name.chars().peekable();
        while let Some(c) = chars.next() {
            general.push(c);
            if c == '[' && chars.peek().is_some_and(char::is_ascii_digit) {
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
                general.push('i');
            }
        }
        if !self.0.contains(&general) {
            self.0.push(general);
        }
    }

    /// The names, in the order first seen.
    pub fn list(&self) -> &[String] {
        &self.0
    }
}

/// Passes on to `inner` only the sections `wanted` selects (see [`section_matches`]), and the
/// comments that concern the whole file.
pub struct SectionFilter<'a> {
    inner: &'a mut dyn FieldSink,
    wanted: &'a str,
    depth: usize,
    /// Depth at which the selected section opened, while inside it.
    inside: Option<usize>,
    matched: bool,
    names: SectionNames,
    /// Comments about the whole file, held until a section matches.
    pending: Vec<String>,
}

impl std::fmt::Debug for SectionFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SectionFilter")
            .field("wanted", &self.wanted)
            .field("matched", &self.matched)
            .finish_non_exhaustive()
    }
}

impl<'a> SectionFilter<'a> {
    pub fn new(inner: &'a mut dyn FieldSink, wanted: &'a str) -> SectionFilter<'a> {
        SectionFilter {
            inner,
            wanted,
            depth: 0,
            inside: None,
            matched: false,
            names: SectionNames::default(),
            pending: Vec::new(),
        }
    }

    /// Whether any section matched.
    pub fn matched(&self) -> bool {
        self.matched
    }

    /// Every section the dump has.
    pub fn names(&self) -> &SectionNames {
        &self.names
    }
}

impl FieldSink for SectionFilter<'_> {
    fn open(&mut self, group: &Entry<'_>) {
        self.depth += 1;
        if let Some(section) = &group.section {
            self.names.add(section.name);
            if self.inside.is_none() && section_matches(section.name, self.wanted) {
                self.inside = Some(self.depth);
                self.matched = true;
                for text in std::mem::take(&mut self.pending) {
                    self.inner.comment(&text);
                }
            }
        }
        if self.inside.is_some() {
            self.inner.open(group);
        }
    }

    fn close(&mut self) {
        if self.inside.is_some() {
            self.inner.close();
        }
        if self.inside == Some(self.depth) {
            self.inside = None;
        }
        self.depth = self.depth.saturating_sub(1);
    }

    fn field(&mut self, field: &Entry<'_>) {
        if self.inside.is_some() {
            self.inner.field(field);
        }
    }

    fn comment(&mut self, text: &str) {
        if self.inside.is_some() || (self.matched && self.depth <= 1) {
            self.inner.comment(text);
        } else if self.depth <= 1 {
            self.pending.push(text.to_string());
        }
    }
}

/// Keeps the bytes of the section named `wanted` (exactly).
#[derive(Debug)]
pub struct SectionBytes<'a> {
    wanted: &'a str,
    /// `Some(None)`: the section is there but is not one byte range.
    found: Option<Option<Vec<u8>>>,
    names: SectionNames,
}

impl<'a> SectionBytes<'a> {
    pub fn new(wanted: &'a str) -> SectionBytes<'a> {
        SectionBytes {
            wanted,
            found: None,
            names: SectionNames::default(),
        }
    }

    /// The bytes, or why there are none.
    pub fn finish(self) -> Result<Vec<u8>, SectionError> {
        match self.found {
            Some(Some(bytes)) => Ok(bytes),
            Some(None) => Err(SectionError::NotOneRange {
                section: self.wanted.to_string(),
            }),
            None => Err(SectionError::Missing {
                section: self.wanted.to_string(),
                sections: self.names.list().join(", "),
            }),
        }
    }
}

/// Why a section's bytes ([`SectionBytes::finish`]) cannot be had.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SectionError {
    /// The section is there but spans more than one byte range (or none).
    #[error("section '{section}' is not one range of bytes, so it cannot be extracted")]
    NotOneRange { section: String },
    /// No section of that name; `sections` lists the file's, comma separated.
    #[error("the file has no section '{section}'; its sections are: {sections}")]
    Missing { section: String, sections: String },
}

impl FieldSink for SectionBytes<'_> {
    fn open(&mut self, group: &Entry<'_>) {
        if let Some(section) = &group.section {
            self.names.add(section.name);
            if self.found.is_none() && section.name == self.wanted {
                self.found = Some(section.bytes.map(<[u8]>::to_vec));
            }
        }
    }

    fn close(&mut self) {}

    fn field(&mut self, _field: &Entry<'_>) {}
}

impl crate::Kinded for SectionError {
    /// A section the caller named that the dump does not have once.
    fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::Parameter
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::dump::Emitter;

    /// A small made-up file: a 4-byte magic, a section of two records with an index table
    /// nested in it, and 3 bytes nobody claims.
    fn sample(sink: &mut dyn FieldSink, bytes: &[u8]) {
        let mut e = Emitter::new(sink, bytes);
        e.root("file", |e| {
            e.comment("little-endian");
            e.section(
                "header",
                Some("header".into()),
                Some(0),
                Some((0, 4)),
                Space::File,
                |e| {
                    e.chars("magic", 0, 4, "AB..");
                },
            );
            e.section(
                "records",
                Some("records".into()),
                Some(4),
                Some((4, 8)),
                Space::File,
                |e| {
                    for i in 0..2u64 {
                        e.group(Label::Indexed("records", i), Some(4 + 4 * i), |e| {
                            e.uint("count", 4 + 4 * i, 2, 258u16);
                            e.int("link", 6 + 4 * i, -1, Some(&"none"));
                        });
                    }
                },
            );
            e.unclaimed(&mut [(0, 12)], bytes.len() as u64);
        });
    }

    fn bytes() -> Vec<u8> {
        let mut b = b"AB\0\x07".to_vec();
        b.extend([2, 1, 0xff, 0xff, 2, 1, 0xff, 0xff]);
        b.extend(b"xyz");
        b
    }

    fn flat(wanted: Option<&str>) -> String {
        let bytes = bytes();
        let mut out = Vec::new();
        let mut writer = FlatWriter::new(&mut out);
        match wanted {
            Some(wanted) => {
                let mut filter = SectionFilter::new(&mut writer, wanted);
                sample(&mut filter, &bytes);
                assert!(filter.matched());
            }
            None => sample(&mut writer, &bytes),
        }
        writer.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn one_line_per_field_with_hex_offsets_and_raw_bytes() {
        let text = flat(None);
        let lines: Vec<&str> = text.lines().collect();
        // Offset (10 wide), size (8, right-aligned), type (10), raw hex (38), field.
        let line = |offset: &str, size: &str, ty: &str, raw: &str, field: &str| {
            format!("{offset:<10}  {size:>8}  {ty:<10}  {raw:<38}  {field}")
        };
        assert_eq!(lines[0], "# little-endian");
        assert_eq!(lines[1], "# section header: 4 bytes at 0x00000000");
        // Characters stop at the NUL; what follows it is shown when it is not padding.
        assert_eq!(
            lines[2],
            line(
                "0x00000000",
                "4",
                "char[4]",
                "41420007",
                "header.magic = \"AB\" ; after the NUL: 07"
            )
        );
        assert_eq!(lines[3], "# section records: 8 bytes at 0x00000004");
        assert_eq!(
            lines[4],
            line("0x00000004", "2", "u16", "0201", "records[0].count = 258")
        );
        assert_eq!(
            lines[5],
            line(
                "0x00000006",
                "4",
                "i32",
                "ffff0201",
                "records[0].link = -1 ; none"
            )
        );
        assert!(lines[7].contains("records[1].link = -1"), "{}", lines[7]);
        assert_eq!(lines[8], "# section unclaimed");
        assert_eq!(lines[9], "# bytes that no field of the format covers");
        assert_eq!(
            lines[10],
            line("0x0000000c", "3", "bytes[3]", "78797a", "unclaimed |xyz|")
        );
        assert_eq!(column_titles().find("field"), lines[10].find("unclaimed"));
    }

    #[test]
    fn long_arrays_are_split_into_lines_with_their_own_offsets() {
        let bytes: Vec<u8> = (0..100u8).collect();
        let mut out = Vec::new();
        let mut writer = FlatWriter::new(&mut out);
        let mut e = Emitter::new(&mut writer, &bytes);
        e.root("file", |e| {
            // 40 bytes from 0x10: 32 on the first line, 8 on the second.
            let values = (16..56).map(i64::from);
            e.ints("table", 16, 40, Elem::U8, values, Some(&"meaning"));
            // 20 u32 from 0x08 (the raw bytes are whatever is there): 16, then 4.
            e.ints("words", 8, 80, Elem::U32, (0..20).map(i64::from), None);
            // A symbolic value of an integer field is written as it is.
            let none = DumpValue::Text("none".to_string());
            e.emit(
                Label::Name("child"),
                0,
                4,
                Elem::U32,
                &none,
                Some(&"no child"),
            );
        });
        writer.finish().unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[0].starts_with("0x00000010        32  u8[32]      10111213"));
        assert!(lines[0].ends_with("table[0..32] = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47] ; meaning"), "{}", lines[0]);
        assert!(lines[1].starts_with("0x00000030         8  u8[8]       30313233"));
        assert!(
            lines[1].ends_with("table[32..40] = [48, 49, 50, 51, 52, 53, 54, 55]"),
            "{}",
            lines[1]
        );
        // 16 words of 4 bytes: the second line starts 64 bytes on.
        assert!(
            lines[2].starts_with("0x00000008        64  u32[16]"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].starts_with("0x00000048        16  u32[4] "),
            "{}",
            lines[3]
        );
        assert!(
            lines[3].ends_with("words[16..20] = [16, 17, 18, 19]"),
            "{}",
            lines[3]
        );
        assert!(
            lines[4].ends_with("child = none ; no child"),
            "{}",
            lines[4]
        );
    }

    #[test]
    fn a_section_alone() {
        let text = flat(Some("records"));
        assert!(
            text.starts_with("# little-endian\n# section records"),
            "{text}"
        );
        assert!(
            !text.contains("magic") && !text.contains("unclaimed"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 6);
    }

    #[test]
    fn section_bytes_and_names() {
        let bytes = bytes();
        let mut keep = SectionBytes::new("records");
        sample(&mut keep, &bytes);
        assert_eq!(keep.finish().unwrap(), bytes[4..12].to_vec());
        let mut keep = SectionBytes::new("nothing");
        sample(&mut keep, &bytes);
        let error = keep.finish().unwrap_err();
        assert!(
            error
                .to_string()
                .ends_with("are: header, records, unclaimed"),
            "{error}"
        );
        assert_eq!(
            error,
            SectionError::Missing {
                section: "nothing".into(),
                sections: "header, records, unclaimed".into()
            }
        );
        let mut keep = SectionBytes::new("unclaimed");
        sample(&mut keep, &bytes);
        assert!(matches!(
            keep.finish(),
            Err(SectionError::NotOneRange { section }) if section == "unclaimed"
        ));
        assert!(section_matches("trrn[3]", "trrn"));
        assert!(!section_matches("trrnx", "trrn"));
        let mut names = SectionNames::default();
        names.add("trrn[0]");
        names.add("trrn[12]");
        names.add("aswm.tiles");
        assert_eq!(names.list(), ["trrn[i]", "aswm.tiles"]);
    }
}
