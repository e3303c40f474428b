//! A small stroke font: every label is drawn as line strokes, so the SVG and the PNG show the
//! same pixels without any font file (a fresh CI machine has none, and text rendering would
//! differ between a browser and our rasteriser).
//!
//! Glyphs live on a grid 4 units wide and 6 tall (y down, capitals only; lower case is drawn
//! as capitals). Each glyph is a list of strokes separated by `;`, each stroke a list of
//! two-digit points `xy`.

/// Horizontal advance of one glyph, in grid units (4 wide plus a gap of 2).
const ADVANCE: f32 = 6.0;
/// Height of a capital, in grid units.
const CAP: f32 = 6.0;

const GLYPHS: &[(char, &str)] = &[
    ('A', "06 02 20 42 46;04 44"),
    ('B', "06 00 30 41 42 33 03;33 44 45 36 06"),
    ('C', "41 30 10 01 05 16 36 45"),
    ('D', "06 00 30 41 45 36 06"),
    ('E', "40 00 06 46;03 33"),
    ('F', "40 00 06;03 33"),
    ('G', "41 30 10 01 05 16 36 45 43 23"),
    ('H', "00 06;40 46;03 43"),
    ('I', "10 30;20 26;16 36"),
    ('J', "40 45 36 16 05"),
    ('K', "00 06;40 04;13 46"),
    ('L', "00 06 46"),
    ('M', "06 00 23 40 46"),
    ('N', "06 00 46 40"),
    ('O', "10 30 41 45 36 16 05 01 10"),
    ('P', "06 00 30 41 42 33 03"),
    ('Q', "10 30 41 45 36 16 05 01 10;24 46"),
    ('R', "06 00 30 41 42 33 03;23 46"),
    ('S', "41 30 10 01 02 13 33 44 45 36 16 05"),
    ('T', "00 40;20 26"),
    ('U', "00 05 16 36 45 40"),
    ('V', "00 26 40"),
    ('W', "00 16 23 36 40"),
    ('X', "00 46;40 06"),
    ('Y', "00 23 40;23 26"),
    ('Z', "00 40 06 46"),
    ('0', "10 30 41 45 36 16 05 01 10;05 41"),
    ('1', "11 20 26;16 36"),
    ('2', "01 10 30 41 42 06 46"),
    ('3', "01 10 30 41 42 33 13;33 44 45 36 16 05"),
    ('4', "36 30 04 44"),
    ('5', "40 00 02 32 43 45 36 06"),
    ('6', "30 10 01 05 16 36 45 44 33 03"),
    ('7', "00 40 16"),
    ('8', "13 02 01 10 30 41 42 33 13 04 05 16 36 45 44 33"),
    ('9', "43 13 02 01 10 30 41 45 36 16"),
    ('.', "15 25 26 16 15"),
    (',', "25 26 17"),
    ('-', "13 33"),
    ('+', "13 33;22 24"),
    (':', "21 22;24 25"),
    ('=', "02 42;04 44"),
    ('(', "30 12 14 36"),
    (')', "10 32 34 16"),
    ('[', "30 10 16 36"),
    (']', "10 30 36 16"),
    ('/', "06 40"),
    ('%', "06 40;00 01;45 46"),
    ('_', "06 46"),
    ('<', "40 03 46"),
    ('>', "00 43 06"),
    ('\'', "20 21"),
    ('#', "10 16;30 36;02 42;04 44"),
    ('!', "20 24;25 26"),
    ('?', "01 10 30 41 42 23 24;25 26"),
];

fn glyph(c: char) -> Option<&'static str> {
    let upper = c.to_ascii_uppercase();
    GLYPHS
        .iter()
        .find(|(g, _)| *g == upper)
        .map(|(_, strokes)| *strokes)
}

fn digit(b: u8) -> Option<f32> {
    b.is_ascii_digit().then(|| f32::from(b - b'0'))
}

/// Width in pixels of `text` drawn at cap height `size`.
pub fn text_width(text: &str, size: f32) -> f32 {
    let count = text.chars().count() as f32;
    if count == 0.0 {
        return 0.0;
    }
    (count * ADVANCE - 2.0) * size / CAP
}

/// The strokes of `text` with its top-left corner at `origin`, capitals `size` pixels tall.
/// Spaces advance; characters without a glyph are drawn as `?`.
pub fn text_strokes(text: &str, origin: [f32; 2], size: f32) -> Vec<Vec<[f32; 2]>> {
    let unit = size / CAP;
    let mut strokes = Vec::new();
    for (i, c) in text.chars().enumerate() {
        if c == ' ' {
            continue;
        }
        let x0 = origin[0] + i as f32 * ADVANCE * unit;
        let Some(spec) = glyph(c).or_else(|| glyph('?')) else {
            continue;
        };
        for stroke in spec.split(';') {
            let points: Vec<[f32; 2]> = stroke
                .split(' ')
                .filter_map(|p| {
                    let bytes = p.as_bytes();
                    let x = digit(*bytes.first()?)?;
                    let y = digit(*bytes.get(1)?)?;
                    Some([x0 + x * unit, origin[1] + y * unit])
                })
                .collect();
            if points.len() >= 2 {
                strokes.push(points);
            }
        }
    }
    strokes
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_parses_into_points_on_the_grid() {
        for (c, spec) in GLYPHS {
            let strokes = text_strokes(&c.to_string(), [0.0, 0.0], 6.0);
            let expected = spec.split(';').count();
            assert_eq!(strokes.len(), expected, "glyph {c:?}");
            for point in strokes.iter().flatten() {
                assert!((0.0..=4.0).contains(&point[0]), "glyph {c:?} x {point:?}");
                assert!((0.0..=7.0).contains(&point[1]), "glyph {c:?} y {point:?}");
            }
        }
    }

    #[test]
    fn glyphs_are_unique_and_lower_case_maps_to_capitals() {
        let mut seen = std::collections::BTreeSet::new();
        for (c, _) in GLYPHS {
            assert!(seen.insert(*c), "{c:?} twice");
        }
        assert_eq!(
            text_strokes("stone", [0.0, 0.0], 12.0),
            text_strokes("STONE", [0.0, 0.0], 12.0)
        );
    }

    #[test]
    fn layout_advances_and_scales() {
        // "-" is one stroke from (1,3) to (3,3): the second one starts 6 units to the right.
        let strokes = text_strokes("--", [10.0, 20.0], 12.0);
        assert_eq!(strokes[0], vec![[12.0, 26.0], [16.0, 26.0]]);
        assert_eq!(strokes[1], vec![[24.0, 26.0], [28.0, 26.0]]);
        assert_eq!(text_width("--", 12.0), 20.0);
        assert_eq!(text_width("", 12.0), 0.0);
        // Unknown characters become '?'.
        assert_eq!(
            text_strokes("~", [0.0, 0.0], 6.0),
            text_strokes("?", [0.0, 0.0], 6.0)
        );
    }
}
