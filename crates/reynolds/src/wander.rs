//! Wander: a drifting angle, stepped by random amounts that scale with the
//! square root of dt, so the drift over a second is the same at any rate.
//! Planar: the wanderer heads along an angle on the plane.

use glam::Vec2;

use crate::math::{sanitize_dt, sanitize_limit, sanitize_speed};

/// The wander angle after one step: `angle + unit_random * rate * sqrt(dt)`,
/// in radians.
///
/// `unit_random` is a random number from -1 to 1 (the caller owns the random
/// generator, so this function stays pure and reproducible). Random steps
/// partly cancel, so their spread grows with the square root of their
/// number; scaling each by `sqrt(dt)` keeps the spread over a second equal
/// at 30, 60 or 144 steps a second. With the default rate of 0.65, one
/// second's drift has a standard deviation of `0.65 / sqrt(3)`, about 21°.
///
/// A non-finite angle restarts at 0; a non-finite or out-of-range random
/// number is clamped; `dt <= 0` and a rate at or below zero leave the angle
/// as it is.
///
/// ```
/// # use reynolds::wander::wander_step;
/// assert_eq!(wander_step(1.0, 0.25, 0.65, 1.0), 1.0 + 0.65 * 0.5);
/// assert_eq!(wander_step(1.0, 0.0, 0.65, 1.0), 1.0);
/// ```
#[inline]
pub fn wander_step(angle: f32, dt: f32, rate: f32, unit_random: f32) -> f32 {
    let angle = if angle.is_finite() { angle } else { 0.0 };
    let unit_random = if unit_random.is_nan() {
        0.0
    } else {
        unit_random.clamp(-1.0, 1.0)
    };
    let rate = if rate.is_finite() { rate.max(0.0) } else { 0.0 };
    let next = angle + unit_random * rate * sanitize_dt(dt).sqrt();
    if !next.is_finite() {
        return angle;
    }
    // Keep the angle small, so that hours of wandering lose no precision.
    if next.abs() > 1e4 {
        next.rem_euclid(std::f32::consts::TAU)
    } else {
        next
    }
}

/// Wander's desired velocity: full speed along the wander angle.
///
/// ```
/// # use reynolds::wander::wander;
/// # use glam::Vec2;
/// assert!((wander(0.0, 220.0) - Vec2::new(220.0, 0.0)).length() < 1e-4);
/// ```
#[inline]
pub fn wander(angle: f32, max_speed: f32) -> Vec2 {
    let angle = if angle.is_finite() { angle } else { 0.0 };
    Vec2::from_angle(angle) * sanitize_speed(max_speed)
}

/// The expected spread (standard deviation) of the wander angle after
/// `seconds`, in radians: `rate * sqrt(seconds / 3)`, since a uniform step
/// from -1 to 1 has variance 1/3. About 0.375 rad (21.5°) per second at the
/// default rate, independent of the step rate.
pub fn wander_spread(rate: f32, seconds: f32) -> f32 {
    sanitize_limit(rate) * (sanitize_dt(seconds) / 3.0).sqrt()
}
