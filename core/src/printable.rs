//! Strings from file data, made safe to show on a terminal.
//!
//! A member name, room name or material name holding `ESC [ … m` or `ESC ] … BEL` would
//! recolour, retitle or rewrite the user's terminal when printed as it is. [`escape`] is for
//! one string that is shown inside a message (every control character becomes a visible
//! escape, newlines too, so a name cannot fake a line of output); [`Escaping`] is for a whole
//! text stream (the command line's standard error and its text output), where the tool's own
//! newlines and tabs pass and every other control character is shown escaped. JSON output
//! needs neither: serde_json escapes control characters itself.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

/// `text` with every control character (C0, DEL, C1) and the bidirectional overrides (which
/// reorder what a terminal shows) written as `\xNN` or `\u{NNNN}`; borrowed when there are
/// none. A backslash stays as it is: the escapes are for reading, not for parsing back.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_char(&mut out, c);
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// Characters that change the order text is shown in (used to disguise what a name says).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

fn push_char(out: &mut String, c: char) {
    if !needs_escape(c) {
        out.push(c);
    } else if (c as u32) < 0x80 {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else {
        let _ = write!(out, "\\u{{{:04x}}}", c as u32);
    }
}

/// A writer that passes text through with control characters escaped as [`escape`] does,
/// except newline, tab and carriage return, which the tool's own output uses. Bytes that are
/// not UTF-8 are shown as `\xNN`. A character split across two writes is held until its
/// last byte arrives (at most 3 bytes are held); [`Escaping::flush`] writes what is held.
#[derive(Debug)]
pub struct Escaping<W: Write> {
    inner: W,
    /// The first bytes of a character whose remaining bytes have not been written yet.
    held: Vec<u8>,
}

impl<W: Write> Escaping<W> {
    pub fn new(inner: W) -> Self {
        Escaping {
            inner,
            held: Vec::new(),
        }
    }

    /// The wrapped writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    fn write_escaped(&mut self, bytes: &[u8]) -> io::Result<()> {
        // The common case, text without anything to escape, is passed on as it is: checked
        // bytewise for ASCII first (a 360 MB JSON dump spent three quarters of its time
        // here going character by character, because every buffer holds a newline).
        if plain_ascii(bytes) {
            return self.inner.write_all(bytes);
        }
        if let Ok(text) = std::str::from_utf8(bytes)
            && !text.chars().any(stream_needs_escape)
        {
            return self.inner.write_all(bytes);
        }
        let mut out = String::with_capacity(bytes.len());
        let mut rest = bytes;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    push_stream_text(&mut out, text);
                    rest = &[];
                }
                Err(error) => {
                    let (valid, after) = rest.split_at(error.valid_up_to());
                    push_stream_text(&mut out, std::str::from_utf8(valid).unwrap_or_default());
                    match error.error_len() {
                        Some(bad) => {
                            let (invalid, next) = after.split_at(bad.min(after.len()));
                            for byte in invalid {
                                let _ = write!(out, "\\x{byte:02x}");
                            }
                            rest = next;
                        }
                        None => {
                            // An incomplete character at the end: wait for its other bytes.
                            self.held.extend_from_slice(after);
                            rest = &[];
                        }
                    }
                }
            }
        }
        self.inner.write_all(out.as_bytes())
    }
}

/// Printable ASCII and the layout characters a text stream keeps (newline, tab, carriage
/// return): nothing in `bytes` needs escaping.
fn plain_ascii(bytes: &[u8]) -> bool {
    // Blocks folded without an early exit, so that the compiler vectorises the test.
    bytes.chunks(256).all(|block| {
        block.iter().fold(true, |plain, &b| {
            plain & ((b.wrapping_sub(b' ') < 0x5f) | (b == b'\n') | (b == b'\t') | (b == b'\r'))
        })
    })
}

/// What a text stream escapes: control characters other than its own layout characters.
fn stream_needs_escape(c: char) -> bool {
    needs_escape(c) && !matches!(c, '\n' | '\t' | '\r')
}

fn push_stream_text(out: &mut String, text: &str) {
    if !text.chars().any(stream_needs_escape) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if matches!(c, '\n' | '\t' | '\r') {
            out.push(c);
        } else {
            push_char(out, c);
        }
    }
}

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.held.is_empty() {
            self.write_escaped(buf)?;
        } else {
            let mut bytes = std::mem::take(&mut self.held);
            bytes.extend_from_slice(buf);
            self.write_escaped(&bytes)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let held = std::mem::take(&mut self.held);
        for byte in held {
            write!(self.inner, "\\x{byte:02x}")?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn escape_shows_every_control_character() {
        assert!(matches!(escape("m12aa_42a.wok"), Cow::Borrowed(_)));
        assert_eq!(escape("é ü 漢"), "é ü 漢");
        assert_eq!(escape("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(
            escape("title\u{1b}]0;pwned\u{7}"),
            "title\\x1b]0;pwned\\x07"
        );
        assert_eq!(escape("two\nlines\r"), "two\\x0alines\\x0d");
        assert_eq!(escape("del\u{7f}"), "del\\x7f");
        assert_eq!(escape("c1\u{9b}31m"), "c1\\u{009b}31m");
        assert_eq!(escape("rlo\u{202e}kow.exe"), "rlo\\u{202e}kow.exe");
    }

    fn through(pieces: &[&[u8]]) -> String {
        let mut writer = Escaping::new(Vec::new());
        for piece in pieces {
            writer.write_all(piece).unwrap();
        }
        writer.flush().unwrap();
        String::from_utf8(writer.inner).unwrap()
    }

    #[test]
    fn a_stream_keeps_lines_and_escapes_the_rest() {
        assert_eq!(
            through(&[b"error: member \x1b[31mred\n\tnext\r\n"]),
            "error: member \\x1b[31mred\n\tnext\r\n"
        );
        assert_eq!(through(&[b"bad \xff byte\n"]), "bad \\xff byte\n");
        // The bytewise fast path (printable ASCII and layout) must not let DEL or C1 through,
        // and text with other characters still takes the checked path.
        assert_eq!(through(&[b"del \x7f here\n"]), "del \\x7f here\n");
        assert_eq!(through(&["c1 \u{85}\n".as_bytes()]), "c1 \\u{0085}\n");
        assert_eq!(
            through(&["caf\u{e9}\n\tok\r\n".as_bytes()]),
            "caf\u{e9}\n\tok\r\n"
        );
        let plain = "{\n  \"name\": \"x\"\n}\n".repeat(1000);
        assert_eq!(through(&[plain.as_bytes()]), plain);
    }

    #[test]
    fn a_character_split_across_writes_is_whole() {
        // U+009B (C1 CSI) is C2 9B in UTF-8; é is C3 A9.
        assert_eq!(through(&[b"x\xc2", b"\x9by"]), "x\\u{009b}y");
        assert_eq!(through(&[b"caf\xc3", b"\xa9"]), "café");
        assert_eq!(through(&[b"end\xe6\xbc"]), "end\\xe6\\xbc");
    }
}
