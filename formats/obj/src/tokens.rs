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
    // Most tokens of big files are plain decimals (`-12`, `0.5`), which nom's recognizer
    // takes whole: those go straight to the same conversion.
    if is_plain_decimal(token) {
        return token.parse::<f32>().ok();
    }
    recognized_float(token)
}

/// [`float_token`] through nom's recognizer, for every form.
fn recognized_float(token: &str) -> Option<f32> {
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

/// True for `-?digits(.digits)?`: a token nom's `recognize_float` consumes entirely.
fn is_plain_decimal(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    let (whole, fraction) = match digits.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (digits, None),
    };
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    all_digits(whole) && fraction.is_none_or(all_digits)
}

pub(crate) fn corner(input: &str) -> IResult<&str, Corner> {
    // A corner of plain digits (`f 1 2 3`, the common case) is a vertex index alone; up to
    // 18 digits cannot overflow the i64 the general parser reads either.
    if (1..=18).contains(&input.len()) && input.bytes().all(|b| b.is_ascii_digit()) {
        let mut vertex = 0i64;
        for digit in input.bytes() {
            vertex = vertex * 10 + i64::from(digit - b'0');
        }
        return Ok(("", (vertex, None, None)));
    }
    general_corner(input)
}

/// [`corner`] through nom's parsers, for every form.
fn general_corner(input: &str) -> IResult<&str, Corner> {
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The short cuts give what the general parsers give, bit for bit, and decline what
    /// they do not know.
    #[test]
    fn short_cuts_agree_with_the_general_parsers() {
        let floats = [
            "0",
            "-0",
            "12",
            "-706",
            "0.5",
            "-0.125",
            "1.0000001",
            "16777217",
            "3.4e38",
            "340282356779733661637539395458142568448",
            "1e-50",
            "0.000000000000000000000000000000000000000000001",
            "1.",
            ".5",
            "-",
            "",
            "1.2.3",
            "1e",
            "+1",
            "--1",
            "1x",
            "nan",
            "-inf",
            "0x10",
        ];
        for token in floats {
            let general = recognized_float(token).map(f32::to_bits);
            assert_eq!(float_token(token).map(f32::to_bits), general, "{token:?}");
            if is_plain_decimal(token) {
                assert!(general.is_some(), "{token:?}");
            }
        }
        let corners = [
            "1",
            "7",
            "0",
            "42",
            "999999999999999999",
            "9999999999999999999",
            "1/2",
            "1//3",
            "-1",
            "+1",
            "",
            "1a",
            "12345678901234567890",
        ];
        for token in corners {
            assert_eq!(corner(token), general_corner(token), "{token:?}");
        }
    }
}
