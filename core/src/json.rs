//! JSON for standard output (every `--json` value of the command line, and the JSON of a
//! streamed dump, `dump::tree_stream`): serde_json's own escaping, plus `\uXXXX` for the characters a
//! terminal would act on that serde_json leaves as they are (DEL, the C1 controls such as
//! U+0085, and the bidirectional overrides such as U+202E).
//!
//! Text for people goes through the terminal escaper (`crate::printable`), which
//! writes `\u{202e}`: right for a person, not JSON. The two never meet: JSON written here
//! holds no character the terminal escaper would change, so the stream escaper passes it
//! through byte for byte, and a JSON parser reads back exactly the names the file holds.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// `value` as pretty-printed JSON, safe to print on a terminal.
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut bytes = Vec::with_capacity(256);
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut bytes, TerminalSafe(PrettyFormatter::new()));
    value.serialize(&mut serializer)?;
    // serde_json writes UTF-8 only.
    String::from_utf8(bytes).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// `value` as one line of JSON (a `--report` line), safe to print on a terminal.
pub fn compact<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut bytes = Vec::with_capacity(256);
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut bytes,
        TerminalSafe(serde_json::ser::CompactFormatter),
    );
    value.serialize(&mut serializer)?;
    String::from_utf8(bytes).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// `value` as compact JSON written straight to `writer` (a streamed dump's scalars), with the
/// same escaping as [`pretty`].
pub fn write_compact<W: Write + ?Sized, T: Serialize + ?Sized>(
    writer: &mut W,
    value: &T,
) -> Result<(), serde_json::Error> {
    let mut serializer = serde_json::Serializer::with_formatter(
        writer,
        TerminalSafe(serde_json::ser::CompactFormatter),
    );
    value.serialize(&mut serializer)
}

/// Characters serde_json passes unescaped that a terminal would act on.
fn needs_json_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// A formatter that writes [`needs_json_escape`] characters inside strings as `\uXXXX`
/// (all of them are in the Basic Multilingual Plane, so one escape each); everything else
/// is the wrapped formatter's.
struct TerminalSafe<F>(F);

impl<F: Formatter> Formatter for TerminalSafe<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if needs_json_escape(c) {
                writer.write_all(fragment.get(start..at).unwrap_or_default().as_bytes())?;
                write!(writer, "\\u{:04x}", c as u32)?;
                start = at + c.len_utf8();
            }
        }
        writer.write_all(fragment.get(start..).unwrap_or_default().as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const HOSTILE: &[&str] = &[
        "rlo\u{202e}kow.exe",
        "nel\u{85}line",
        "esc\u{1b}[31mred",
        "del\u{7f}",
        "quote\"back\\slash",
        "fake\\u{202e}escape\\x1b",
        "tab\tnew\nline\r",
        "é 漢 😀",
        "lri\u{2066}pdi\u{2069}lrm\u{200e}",
    ];

    #[test]
    fn hostile_names_round_trip_through_a_json_parser() {
        for name in HOSTILE {
            let value = serde_json::json!({ "name": name, "list": [name] });
            for text in [pretty(&value).unwrap(), compact(&value).unwrap()] {
                let back: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(back, value, "{text}");
                // Nothing left for the terminal escaper to change: it passes JSON through.
                assert_eq!(
                    crate::printable::escape(&text.replace(['\n'], "")),
                    text.replace('\n', "")
                );
            }
        }
    }

    #[test]
    fn the_output_matches_serde_json_where_nothing_needs_escaping() {
        let value = serde_json::json!({ "a": [1, 2.5, null], "b": { "c": "plain é" } });
        assert_eq!(
            pretty(&value).unwrap(),
            crate::json::pretty(&value).unwrap()
        );
        assert_eq!(
            compact(&value).unwrap(),
            crate::json::compact(&value).unwrap()
        );
    }
}
