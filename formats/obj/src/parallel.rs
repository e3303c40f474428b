//! Large OBJ files are pre-parsed on several threads.
//!
//! Almost every line of a big file is a `v`, `vt`, `vn` or `f` statement whose parsing
//! (number recognition, index tokens) does not depend on what came before; only resolving
//! a face's indices, materials and groups does. So the text is cut at line ends into one
//! chunk per thread, and each thread turns its lines into plain records: a vertex's three
//! numbers, a face's vertex indices (as written: 1-based or negative), and how many texture
//! coordinates and normals the face needs to exist. Everything else — comments with
//! directives, `usemtl`, `o`, `g`, and any line the fast path does not recognise or finds
//! wrong — is left as text. The reader then walks the records in file order on one thread,
//! exactly as it walks lines: records are applied, text goes through the ordinary line
//! parser, and a record that fails to resolve (an index past the vertices defined so far)
//! is re-read as text, so errors, their line numbers and their wording are the serial
//! reader's own. `tests::parallel_equals_serial` holds the two paths to the same result.

use walkmesh_core::UpAxis;

use crate::tokens::{corner, float_token, to_ir};

/// Files at least this large are pre-parsed in parallel; below, a thread costs more than it
/// saves.
pub(crate) const PARALLEL_BYTES: usize = 4 << 20;

/// Line kinds (one byte per line). Faces store their corner count (3..=`MAX_FACE`).
pub(crate) const SKIP: u8 = 0;
pub(crate) const VERTEX: u8 = 1;
pub(crate) const TEXT: u8 = 2;
pub(crate) const MAX_FACE: u8 = 250;
pub(crate) const TEXTURE: u8 = 251;
pub(crate) const NORMAL: u8 = 252;

/// The records of one chunk of lines.
#[derive(Debug, Default)]
pub(crate) struct Chunk<'t> {
    /// The chunk's text (its lines, the last one without its `\n`).
    pub text: &'t str,
    /// One kind per line.
    pub kinds: Vec<u8>,
    /// Vertex positions, already in IR axes.
    pub vertices: Vec<[f32; 3]>,
    /// Face vertex indices as written, corner after corner.
    pub corners: Vec<i32>,
    /// Per face: the texture-coordinate and normal counts its indices need (0: none used).
    pub needs: Vec<(u32, u32)>,
    /// The text of `TEXT` lines, in order.
    pub texts: Vec<&'t str>,
}

/// Whether `bytes` may take the parallel path: at least `min_bytes`, UTF-8, and no line
/// continued with a trailing backslash (those join lines across any cut).
pub(crate) fn eligible(bytes: &[u8], min_bytes: usize) -> Option<&str> {
    if bytes.len() < min_bytes {
        return None;
    }
    // Every continuation has a backslash: without one (a vectorised search) the byte
    // pairs need not be looked at.
    if bytes.contains(&b'\\') {
        let continued = bytes.windows(2).any(|w| w == b"\\\n") || bytes.ends_with(b"\\");
        if continued || bytes.windows(3).any(|w| w == b"\\\r\n") {
            return None;
        }
    }
    std::str::from_utf8(bytes).ok()
}

/// Cuts `text` after line ends into at most `parts` chunks of similar size.
pub(crate) fn cut(text: &str, parts: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut chunks = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..parts {
        let target = (text.len() / parts * k).max(start);
        let Some(offset) = bytes
            .get(target..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        else {
            break;
        };
        let end = target + offset + 1;
        if let Some(chunk) = text.get(start..end) {
            chunks.push(chunk);
        }
        start = end;
    }
    // Nothing after the last line end: no empty chunk (the serial reader's empty last line
    // means nothing either).
    if let Some(rest) = text
        .get(start..)
        .filter(|r| !r.is_empty() || chunks.is_empty())
    {
        chunks.push(rest);
    }
    chunks
}

/// The lines of a chunk as the serial reader sees them: split at `\n`, a final `\r`
/// removed. A chunk ending with `\n` has no empty last line (the next chunk starts there).
pub(crate) fn lines(chunk: &str) -> impl Iterator<Item = &str> {
    chunk
        .strip_suffix('\n')
        .unwrap_or(chunk)
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
}

/// Pre-parses the lines of one chunk.
pub(crate) fn pre_parse(text: &str, up: UpAxis) -> Chunk<'_> {
    let mut chunk = Chunk {
        text,
        ..Chunk::default()
    };
    let estimate = text.len() / 24;
    chunk.kinds.reserve(estimate);
    for line in lines(text) {
        let kind = classify(line, up, &mut chunk);
        if kind == TEXT {
            chunk.texts.push(line);
        }
        chunk.kinds.push(kind);
    }
    chunk
}

/// Records `line` in `chunk` when the fast path knows it and finds it well formed; returns
/// its kind (`TEXT` leaves it to the line parser).
fn classify(line: &str, up: UpAxis, chunk: &mut Chunk<'_>) -> u8 {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        // Plain comments mean nothing; directives (`#@walkmesh …`) go to the parser.
        return if trimmed.starts_with(crate::DIRECTIVE) {
            TEXT
        } else {
            SKIP
        };
    }
    let body = match trimmed.find('#') {
        Some(at) => trimmed.get(..at).unwrap_or(""),
        None => trimmed,
    };
    let mut tokens = body.split_ascii_whitespace();
    match tokens.next() {
        None => SKIP,
        Some("v") => {
            let mut xyz = [0f32; 3];
            for slot in &mut xyz {
                match tokens.next().and_then(float_token) {
                    Some(value) if value.is_finite() => *slot = value,
                    _ => return TEXT,
                }
            }
            chunk.vertices.push(to_ir(up, xyz));
            VERTEX
        }
        Some(keyword @ ("vt" | "vn")) => {
            let min = if keyword == "vt" { 1 } else { 3 };
            let mut count = 0;
            for token in tokens {
                if float_token(token).is_none() {
                    return TEXT;
                }
                count += 1;
            }
            match (count >= min, keyword) {
                (false, _) => TEXT,
                (true, "vt") => TEXTURE,
                (true, _) => NORMAL,
            }
        }
        Some("f") => {
            let start = chunk.corners.len();
            let (mut need_texture, mut need_normal) = (0u32, 0u32);
            let mut count = 0usize;
            for token in tokens {
                let parsed = match corner(token) {
                    Ok(("", parsed)) => parsed,
                    _ => {
                        chunk.corners.truncate(start);
                        return TEXT;
                    }
                };
                let (vertex, texture, normal) = parsed;
                // Index 0, or one past 32 bits, is left to the parser (which reports it).
                let as_need = |index: Option<i64>| match index {
                    None => Some(0),
                    Some(i) => u32::try_from(i.unsigned_abs()).ok().filter(|&n| n > 0),
                };
                let vertex = i32::try_from(vertex).ok().filter(|&v| v != 0);
                let (Some(vertex), Some(texture), Some(normal)) =
                    (vertex, as_need(texture), as_need(normal))
                else {
                    chunk.corners.truncate(start);
                    return TEXT;
                };
                chunk.corners.push(vertex);
                need_texture = need_texture.max(texture);
                need_normal = need_normal.max(normal);
                count += 1;
            }
            match u8::try_from(count) {
                Ok(corners @ 3..=MAX_FACE) => {
                    chunk.needs.push((need_texture, need_normal));
                    corners
                }
                _ => {
                    chunk.corners.truncate(start);
                    TEXT
                }
            }
        }
        Some(_) => TEXT,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn cuts_after_line_ends_and_loses_nothing() {
        let text = "v 0 0 0\nv 1 0 0\r\nv 1 1 0\nf 1 2 3\n";
        for parts in 1..6 {
            let chunks = cut(text, parts);
            assert_eq!(chunks.concat(), text);
            assert!(chunks[..chunks.len() - 1].iter().all(|c| c.ends_with('\n')));
            let all: Vec<&str> = chunks.iter().flat_map(|c| lines(c)).collect();
            assert_eq!(all, ["v 0 0 0", "v 1 0 0", "v 1 1 0", "f 1 2 3"]);
        }
    }

    #[test]
    fn records_what_it_knows_and_leaves_the_rest_as_text() {
        let text = "# c\nv 1 2 3\nvt 0.5 0.5\nvn 0 1 0\nf 1/1/1 -1/2 3//4\nusemtl Stone\nf 1 2\nf 0 1 2\nv 1 nan 2\n#@walkmesh kind area\n\n";
        let chunk = pre_parse(text, UpAxis::Z);
        assert_eq!(
            chunk.kinds,
            [
                SKIP, VERTEX, TEXTURE, NORMAL, 3, TEXT, TEXT, TEXT, TEXT, TEXT, SKIP
            ]
        );
        assert_eq!(chunk.vertices, [[1.0, 2.0, 3.0]]);
        assert_eq!(chunk.corners, [1, -1, 3]);
        assert_eq!(chunk.needs, [(2, 4)]);
        assert_eq!(
            chunk.texts,
            [
                "usemtl Stone",
                "f 1 2",
                "f 0 1 2",
                "v 1 nan 2",
                "#@walkmesh kind area"
            ]
        );
    }
}
