//! Colours: one per neutral material, a sequence of distinct colours for labels
//! (components, islands, regions, overlaid inputs) and a ramp for depths.

use crate::scene::Rgba;

/// Colour of a walkable face of neutral material `id` (KotOR `surfacemat` numbering).
/// Chosen to suggest the surface (grass green, water blue, …) and to tell neighbours apart.
pub fn material(id: u16) -> Rgba {
    match id {
        0 => Rgba::rgb(190, 190, 190),  // Undefined
        1 => Rgba::rgb(176, 132, 84),   // Dirt
        2 => Rgba::rgb(120, 120, 150),  // Obscuring
        3 => Rgba::rgb(110, 170, 80),   // Grass
        4 => Rgba::rgb(150, 160, 175),  // Stone
        5 => Rgba::rgb(200, 160, 100),  // Wood
        6 => Rgba::rgb(90, 150, 220),   // Water
        7 => Rgba::rgb(120, 120, 120),  // NonWalk
        8 => Rgba::rgb(210, 230, 240),  // Transparent
        9 => Rgba::rgb(190, 80, 90),    // Carpet
        10 => Rgba::rgb(120, 140, 160), // Metal
        11 => Rgba::rgb(130, 190, 220), // Puddles
        12 => Rgba::rgb(110, 130, 70),  // Swamp
        13 => Rgba::rgb(120, 90, 60),   // Mud
        14 => Rgba::rgb(170, 150, 60),  // Leaves
        15 => Rgba::rgb(230, 90, 30),   // Lava
        16 => Rgba::rgb(40, 40, 40),    // BottomlessPit
        17 => Rgba::rgb(40, 70, 160),   // DeepWater
        18 => Rgba::rgb(160, 100, 200), // Door
        19 => Rgba::rgb(80, 120, 60),   // NonWalkGrass
        20 => Rgba::rgb(230, 210, 140), // Sand
        21 => Rgba::rgb(220, 220, 200), // BareBones
        22 => Rgba::rgb(140, 130, 120), // StoneBridge
        30 => Rgba::rgb(240, 120, 200), // Trigger
        other => distinct(usize::from(other) + 7),
    }
}

/// Grey of non-walkable faces (drawn under the walkable ones, half transparent).
pub const NON_WALKABLE: Rgba = Rgba(150, 150, 150, 150);
/// Outline of the walkable region's closed boundary loops.
pub const BOUNDARY: Rgba = Rgba::rgb(25, 25, 25);
/// Boundary chains that do not close (non-manifold or flipped geometry: a likely leak).
pub const OPEN_CHAIN: Rgba = Rgba::rgb(230, 20, 20);
/// Transition edges (KotOR room links).
pub const TRANSITION: Rgba = Rgba::rgb(220, 0, 160);
/// Hook markers.
pub const HOOK: Rgba = Rgba::rgb(255, 150, 0);
/// Text and axes.
pub const INK: Rgba = Rgba::rgb(20, 20, 20);
pub const PAPER: Rgba = Rgba::rgb(255, 255, 255);

/// HSL (hue in degrees, saturation and lightness in 0..1) to RGB.
fn hsl(hue: f64, saturation: f64, lightness: f64) -> Rgba {
    let c = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue.rem_euclid(360.0) / 60.0;
    let x = c * (1.0 - (h.rem_euclid(2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let channel = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgba::rgb(channel(r), channel(g), channel(b))
}

/// The `index`-th of a sequence of colours where neighbours in the sequence differ most:
/// hues step by the golden angle, lightness alternates.
pub fn distinct(index: usize) -> Rgba {
    let hue = 20.0 + (index as f64) * 137.507_764;
    let lightness = match index % 3 {
        0 => 0.55,
        1 => 0.42,
        _ => 0.66,
    };
    hsl(hue, 0.65, lightness)
}

/// Colours of overlaid inputs: first blue, then orange, green, purple, …
pub fn overlay(index: usize) -> Rgba {
    const FIRST: [Rgba; 4] = [
        Rgba::rgb(30, 110, 230),
        Rgba::rgb(240, 120, 20),
        Rgba::rgb(30, 170, 70),
        Rgba::rgb(160, 60, 200),
    ];
    FIRST.get(index).copied().unwrap_or_else(|| distinct(index))
}

/// A ramp from dark blue (0) through teal and green to yellow (1).
pub fn ramp(t: f64) -> Rgba {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [68.0, 1.0, 84.0]),
        (0.25, [59.0, 82.0, 139.0]),
        (0.5, [33.0, 145.0, 140.0]),
        (0.75, [94.0, 201.0, 98.0]),
        (1.0, [253.0, 231.0, 37.0]),
    ];
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let mut colour = STOPS[4].1;
    for pair in STOPS.windows(2) {
        if let [(t0, c0), (t1, c1)] = pair
            && t <= *t1
        {
            let f = (t - t0) / (t1 - t0);
            colour = [0, 1, 2].map(|k| c0[k] + (c1[k] - c0[k]) * f);
            break;
        }
    }
    let [r, g, b] = colour.map(|v| v.round().clamp(0.0, 255.0) as u8);
    Rgba::rgb(r, g, b)
}

/// `top` painted over the opaque `bottom` (source-over compositing): the colour a viewer
/// sees where a half-transparent fill lies on another.
pub fn over(top: Rgba, bottom: Rgba) -> Rgba {
    let alpha = f64::from(top.3) / 255.0;
    let mix = |t: u8, b: u8| (f64::from(t) * alpha + f64::from(b) * (1.0 - alpha)).round() as u8;
    Rgba::rgb(
        mix(top.0, bottom.0),
        mix(top.1, bottom.1),
        mix(top.2, bottom.2),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsl_primaries() {
        assert_eq!(hsl(0.0, 1.0, 0.5), Rgba::rgb(255, 0, 0));
        assert_eq!(hsl(120.0, 1.0, 0.5), Rgba::rgb(0, 255, 0));
        assert_eq!(hsl(240.0, 1.0, 0.5), Rgba::rgb(0, 0, 255));
        assert_eq!(hsl(77.0, 0.0, 1.0), Rgba::rgb(255, 255, 255));
    }

    #[test]
    fn distinct_colours_do_not_repeat_early() {
        let first: std::collections::BTreeSet<Rgba> = (0..64).map(distinct).collect();
        assert_eq!(first.len(), 64);
        assert_ne!(overlay(0), overlay(1));
    }

    #[test]
    fn ramp_ends_and_middle() {
        assert_eq!(ramp(0.0), Rgba::rgb(68, 1, 84));
        assert_eq!(ramp(1.0), Rgba::rgb(253, 231, 37));
        assert_eq!(ramp(0.5), Rgba::rgb(33, 145, 140));
        assert_eq!(ramp(f64::NAN), ramp(0.0));
        assert_eq!(ramp(7.0), ramp(1.0));
    }

    #[test]
    fn half_transparent_blue_over_white_is_light_blue() {
        // 110/255 of (30, 110, 230) plus 145/255 of white.
        assert_eq!(
            super::over(Rgba(30, 110, 230, 110), PAPER),
            Rgba::rgb(158, 192, 244)
        );
    }
}
