//! When a polygon is too steep to be floor: one definition for the passes, the validator, the
//! readers' default materials and the messages that describe them.

use glam::Vec3;

/// Slope, in degrees from horizontal, beyond which a polygon counts as steep: a stair riser
/// or a wall, not a floor or a ramp. Used by `validate` (`mesh.steep_walkable`), by the
/// modelling-tool readers for faces without a known material, and by the axis check.
pub const STEEP_DEGREES: f64 = 60.0;

/// True when a polygon with unit normal `normal` is steeper than [`STEEP_DEGREES`] (facing
/// up or down alike). A zero normal (degenerate polygon) is not steep.
pub fn is_steep(normal: [f32; 3]) -> bool {
    let n = Vec3::from(normal);
    n != Vec3::ZERO && f64::from(n.z.abs()) < STEEP_DEGREES.to_radians().cos()
}
