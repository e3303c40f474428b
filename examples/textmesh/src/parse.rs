//! The statements of a textmesh file, each with its line number and byte offset: the reader,
//! the validator and the dumper all walk the same parse.

use walkmesh_core::ReadError;

/// The first line of every textmesh file (version 1).
pub const HEADER: &str = "textmesh 1";

/// One line of the file.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line's first character.
    pub offset: u64,
    /// The line without its end-of-line characters.
    pub text: &'a str,
}

/// What a line says.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement<'a> {
    /// `textmesh 1`.
    Header,
    /// `v X Y Z`.
    Vertex([f32; 3]),
    /// `f A B C [D …] MATERIAL [walk|wall]`: 0-based vertex indices, a material name, and
    /// optionally the walkability (else the material profile's).
    Face {
        corners: Vec<u32>,
        material: &'a str,
        walkable: Option<bool>,
    },
    /// Empty or `#` comment.
    Nothing,
}

/// The file as text (UTF-8), or where it stops being text.
pub fn text(bytes: &[u8]) -> Result<&str, ReadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        ReadError::at_offset(
            e.valid_up_to() as u64,
            "text",
            "not UTF-8 text: a textmesh file is text",
        )
    })
}

/// Every line with what it says (or why it says nothing readable).
pub fn statements(
    text: &str,
) -> impl Iterator<Item = (Line<'_>, Result<Statement<'_>, ReadError>)> {
    let mut offset = 0u64;
    text.split_inclusive('\n')
        .enumerate()
        .map(move |(index, raw)| {
            let line = Line {
                number: index as u64 + 1,
                offset,
                text: raw.trim_end_matches(['\n', '\r']),
            };
            offset += raw.len() as u64;
            (line, statement(line))
        })
}

fn statement(line: Line<'_>) -> Result<Statement<'_>, ReadError> {
    let content = line.text.split('#').next().unwrap_or_default().trim();
    let mut words = content.split_whitespace();
    let fail = |field: &str, message: String| ReadError::at_line(line.number, field, message);
    match words.next() {
        None => Ok(Statement::Nothing),
        Some("textmesh") if content == HEADER => Ok(Statement::Header),
        Some("textmesh") => Err(fail(
            "header",
            format!("{content:?} is not the version this reader knows ({HEADER:?})"),
        )),
        Some("v") => {
            let numbers: Vec<&str> = words.collect();
            let [x, y, z] = numbers.as_slice() else {
                return Err(fail(
                    "v",
                    format!("a vertex has 3 coordinates, not {}", numbers.len()),
                ));
            };
            let coordinate = |name: &str, text: &str| {
                text.parse::<f32>()
                    .map_err(|_| fail(name, format!("{text:?} is not a number")))
            };
            Ok(Statement::Vertex([
                coordinate("v.x", x)?,
                coordinate("v.y", y)?,
                coordinate("v.z", z)?,
            ]))
        }
        Some("f") => face(words.collect(), &fail),
        Some(other) => Err(fail(
            "statement",
            format!("unknown statement {other:?} (expected v, f or a # comment)"),
        )),
    }
}

fn face<'a>(
    words: Vec<&'a str>,
    fail: &dyn Fn(&str, String) -> ReadError,
) -> Result<Statement<'a>, ReadError> {
    let (walkable, rest) = match words.split_last() {
        Some((&"walk", rest)) => (Some(true), rest),
        Some((&"wall", rest)) => (Some(false), rest),
        _ => (None, words.as_slice()),
    };
    let Some((&material, indices)) = rest.split_last() else {
        return Err(fail(
            "f",
            "a face needs vertex indices and a material".into(),
        ));
    };
    if material.parse::<u32>().is_ok() {
        return Err(fail(
            "f.material",
            format!("the last word of a face is its material name, not the number {material}"),
        ));
    }
    if indices.len() < 3 {
        return Err(fail(
            "f",
            format!("a face has at least 3 corners, not {}", indices.len()),
        ));
    }
    let corners = indices
        .iter()
        .map(|word| {
            word.parse::<u32>().map_err(|_| {
                fail(
                    "f.corner",
                    format!("{word:?} is not a vertex index (0-based)"),
                )
            })
        })
        .collect::<Result<Vec<u32>, ReadError>>()?;
    Ok(Statement::Face {
        corners,
        material,
        walkable,
    })
}
