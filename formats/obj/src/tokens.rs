//! The tokens both OBJ parsers read (the serial reader in `read` and the chunked pre-parse in
//! `parallel`): floats, face corners, and the axis conversion of a position.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::tag_no_case,
    character::complete::{char, i64 as integer},
    combinator::{opt, recognize},
    number::complete::recognize_float,
    sequence::preceded,
};
use walkmesh_core::UpAxis;

/// A float token: decimal/exponent forms through nom's recognizer, plus `nan`/`inf`;
/// converted with the standard library's correctly rounded parser so that printed `f32`s
/// come back bit-exact.
pub(crate) fn float_token(token: &str) -> Option<f32> {
    let recognized: IResult<&str, &str> = alt((
        recognize_float,
        recognize((opt(alt((char('+'), char('-')))), tag_no_case("nan"))),
        recognize((
            opt(alt((char('+'), char('-')))),
            alt((tag_no_case("infinity"), tag_no_case("inf"))),
        )),
    ))
    .parse(token);
    match recognized {
        Ok(("", text)) => text.parse::<f32>().ok(),
        _ => None,
    }
}

/// One face corner: `v`, `v/vt`, `v//vn` or `v/vt/vn` (1-based, negative = relative).
pub(crate) type Corner = (i64, Option<i64>, Option<i64>);

pub(crate) fn corner(input: &str) -> IResult<&str, Corner> {
    let (input, vertex) = integer(input)?;
    let (input, rest) = opt(preceded(
        char('/'),
        (opt(integer), opt(preceded(char('/'), opt(integer)))),
    ))
    .parse(input)?;
    let (texture, normal) = match rest {
        None => (None, None),
        Some((texture, normal)) => (texture, normal.flatten()),
    };
    Ok((input, (vertex, texture, normal)))
}

/// OBJ file (x, y, z) → IR.
pub(crate) fn to_ir(up: UpAxis, p: [f32; 3]) -> [f32; 3] {
    match up {
        // Blender writes (x, z, −y): undo it. Negation is exact, so bits round-trip.
        UpAxis::Y => [p[0], -p[2], p[1]],
        UpAxis::Z => p,
    }
}
