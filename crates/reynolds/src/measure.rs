//! Measuring the velocity of something that has none of its own, such as
//! the mouse.

use crate::math::{SteeringVector, finite_or_zero, sanitize_dt};

/// The share of the way an exponential follow with `half_life` covers in
/// `dt`: `1 - 0.5^(dt / half_life)`. A half-life at or below zero follows at
/// once (share 1); `dt <= 0` does not move (share 0).
///
/// ```
/// # use reynolds::measure::follow_share;
/// assert_eq!(follow_share(0.1, 0.1), 0.5);
/// assert_eq!(follow_share(0.0, 0.1), 0.0);
/// ```
#[inline]
pub fn follow_share(dt: f32, half_life: f32) -> f32 {
    let dt = sanitize_dt(dt);
    if dt == 0.0 {
        return 0.0;
    }
    if half_life.is_nan() || half_life <= 0.0 {
        return 1.0;
    }
    1.0 - 0.5f32.powf(dt / half_life)
}

/// A velocity measured from how far something moved in `dt`, smoothed
/// toward the previous estimate with a `half_life` (the model uses
/// 0.1 s), so one jerky frame does not throw pursuers off.
///
/// With `dt <= 0` there is no measurement, and the estimate stays as it was.
///
/// ```
/// # use reynolds::{math::Vector, measure::measured_velocity};
/// let v = measured_velocity(Vector::ZERO, Vector::ZERO, Vector::new(1.0, 0.0), 0.1, 0.0);
/// assert_eq!(v, Vector::new(10.0, 0.0)); // a half-life of 0 does not smooth
/// let same = measured_velocity(v, Vector::ZERO, Vector::new(5.0, 0.0), 0.0, 0.1);
/// assert_eq!(same, v); // dt = 0: no division, no change
/// ```
#[inline]
pub fn measured_velocity<V: SteeringVector>(
    smoothed: V,
    last_pos: V,
    pos: V,
    dt: f32,
    half_life: f32,
) -> V {
    let smoothed = finite_or_zero(smoothed);
    let dt = sanitize_dt(dt);
    if dt == 0.0 {
        return smoothed;
    }
    let measured = finite_or_zero((pos - last_pos) / dt);
    finite_or_zero(smoothed.lerp(measured, follow_share(dt, half_life)))
}
