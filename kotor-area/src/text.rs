//! Line handling shared by the LYT and VIS readers and writers.

use walkmesh_core::{Diagnostic, Location, Position, ReadError, Severity};

/// The lines of a text file, 1-based numbers, line endings (`\n` or `\r\n`) removed. Bytes are
/// read as Latin-1 so that no byte sequence fails to decode; names outside ASCII are reported by
/// the checks, not here.
pub(crate) fn lines(bytes: &[u8]) -> Vec<(u64, String)> {
    let mut lines = Vec::new();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        lines.push((
            index as u64 + 1,
            raw.iter().map(|&b| char::from(b)).collect(),
        ));
    }
    // A final line ending leaves an empty last piece, which is not a line of the file.
    if bytes.last() == Some(&b'\n') {
        lines.pop();
    }
    lines
}

/// The bytes of text the writers made from what [`lines`] read: each character up to U+00FF
/// back to its one Latin-1 byte, so that a name with bytes above 0x7F (a Windows-1252 `é`)
/// is written as it was read, not as its two-byte UTF-8 form (which reads back as `Ã©`; found
/// by the `lyt` and `vis` fuzz targets). Characters above U+00FF, which no file we read holds
/// (only a name given by a caller can), have no such byte and are written as UTF-8.
pub(crate) fn latin1_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(byte) => out.push(byte),
            Err(_) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// Parses one finite number (`f32`), naming the line and field when it is not one.
pub(crate) fn number(token: &str, line: u64, field: &str) -> Result<f32, ReadError> {
    match token.parse::<f32>() {
        Ok(value) if value.is_finite() => Ok(value),
        Ok(_) => Err(ReadError::at_line(
            line,
            field,
            format!("'{token}' is not a finite number"),
        )),
        Err(_) => Err(ReadError::at_line(
            line,
            field,
            format!("'{token}' is not a number"),
        )),
    }
}

/// Parses a count.
pub(crate) fn count(token: Option<&str>, line: u64, field: &str) -> Result<usize, ReadError> {
    let token = token.ok_or_else(|| ReadError::at_line(line, field, "the count is missing"))?;
    token.parse::<usize>().map_err(|_| {
        ReadError::at_line(
            line,
            field,
            format!("'{token}' is not a count (a whole number of 0 or more)"),
        )
    })
}

/// The shortest text that reads back as the same `f32`, always with a decimal point or an
/// exponent so that it reads as a real number everywhere (`225.0`, not `225`).
pub fn format_f32(value: f32) -> String {
    let text = format!("{value}");
    if text.contains(['.', 'e', 'E']) || !value.is_finite() {
        text
    } else {
        format!("{text}.0")
    }
}

/// A finding at a line.
pub(crate) fn finding(
    severity: Severity,
    code: &str,
    line: Option<u64>,
    field: Option<String>,
    message: String,
) -> Diagnostic {
    Diagnostic {
        severity,
        code: code.to_string(),
        message,
        location: Location {
            file: None,
            position: line.map_or(Position::None, Position::Line),
            field,
        },
    }
}

/// Longest ResRef the games accept (room and model names).
pub const RESREF_MAX: usize = 16;

/// Checks a ResRef-like name: length and characters. Returns the problem as a sentence.
pub(crate) fn resref_problem(name: &str) -> Option<String> {
    if name.len() > RESREF_MAX {
        return Some(format!(
            "'{name}' has {} characters; names are at most {RESREF_MAX}",
            name.len()
        ));
    }
    if !name.bytes().all(|b| b.is_ascii_graphic()) {
        return Some(format!(
            "'{name}' contains characters outside printable ASCII"
        ));
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::approx_constant)]
mod tests {
    use super::*;

    #[test]
    fn lines_strip_both_endings_and_keep_a_last_line_without_one() {
        let got = lines(b"a\r\nb\n\nc");
        assert_eq!(
            got,
            vec![
                (1, "a".to_string()),
                (2, "b".to_string()),
                (3, String::new()),
                (4, "c".to_string())
            ]
        );
        assert_eq!(lines(b"a\n"), vec![(1, "a".to_string())]);
    }

    #[test]
    fn bytes_above_0x7f_are_written_back_as_the_byte_they_were_read_from() {
        let read = lines(b"caf\xe9 \xff");
        assert_eq!(read, vec![(1, "caf\u{e9} \u{ff}".to_string())]);
        assert_eq!(latin1_bytes(&read[0].1), b"caf\xe9 \xff");
        // No Latin-1 byte for U+0100: its UTF-8 form (C4 80).
        assert_eq!(latin1_bytes("\u{100}"), [0xC4, 0x80]);
    }

    #[test]
    fn floats_read_back_exactly_and_look_real() {
        assert_eq!(format_f32(225.0), "225.0");
        assert_eq!(format_f32(44.99), "44.99");
        assert_eq!(format_f32(-0.707106), "-0.707106");
        for value in [3.84015e-7f32, 1.0e20, -123.456, 0.1] {
            assert_eq!(format_f32(value).parse::<f32>().unwrap(), value);
        }
    }
}
