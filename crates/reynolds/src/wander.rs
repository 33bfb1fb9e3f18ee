//! Wander: a drifting angle, stepped by random amounts that scale with the
//! square root of dt, so the drift over a second is the same at any rate.
//! On a plane the wanderer heads along an angle; a flyer along a direction
//! that roams the sphere ([`wander_step_3d`]).

use glam::{Vec2, Vec3};

use crate::math::{direction, sanitize_dt, sanitize_limit, sanitize_speed};

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

/// The wander direction of a flyer after one step: `dir` turned by a
/// random angle `rate * sqrt(dt / 2) * (u0 e0 + u1 e1)`, where `e0` and
/// `e1` are square to `dir` and `u0`, `u1` are `unit_random` (each from -1
/// to 1, clamped). Each of the two turns across the heading has half the
/// plane's variance, so the drift over a second is the plane's, about 21°
/// at the default rate at any step rate, and the direction roams the whole
/// sphere, not only round one axis.
///
/// A zero or non-finite `dir` restarts at +x; a non-finite random number
/// counts as 0; `dt <= 0` and a rate at or below zero leave it as it is.
///
/// ```
/// # use reynolds::wander::wander_step_3d;
/// # use glam::Vec3;
/// let next = wander_step_3d(Vec3::X, 1.0 / 60.0, 0.65, [1.0, -0.5]);
/// assert!(next.is_normalized() && next.angle_between(Vec3::X) > 0.0);
/// assert_eq!(wander_step_3d(Vec3::X, 0.0, 0.65, [1.0, 1.0]), Vec3::X);
/// ```
#[inline]
pub fn wander_step_3d(dir: Vec3, dt: f32, rate: f32, unit_random: [f32; 2]) -> Vec3 {
    let dir = match direction(dir) {
        Vec3::ZERO => Vec3::X,
        dir => dir,
    };
    let [u0, u1] = unit_random.map(|u| if u.is_nan() { 0.0 } else { u.clamp(-1.0, 1.0) });
    let rate = if rate.is_finite() { rate.max(0.0) } else { 0.0 };
    let scale = rate * (sanitize_dt(dt) * 0.5).sqrt();
    let (e0, e1) = dir.any_orthonormal_pair();
    let turn = (e0 * u0 + e1 * u1) * scale;
    let angle = turn.length();
    if !(angle > 0.0 && angle.is_finite()) {
        return dir;
    }
    // A rotation by `angle` in the plane of `dir` and `turn`: exact for
    // any step, where adding `turn` and normalizing would shorten big ones.
    let (sin, cos) = angle.sin_cos();
    match direction(dir * cos + turn * (sin / angle)) {
        Vec3::ZERO => dir,
        next => next,
    }
}

/// A flyer's wander: full speed along its wander direction.
///
/// ```
/// # use reynolds::wander::wander_3d;
/// # use glam::Vec3;
/// assert_eq!(wander_3d(Vec3::Y, 220.0), Vec3::new(0.0, 220.0, 0.0));
/// ```
#[inline]
pub fn wander_3d(dir: Vec3, max_speed: f32) -> Vec3 {
    let dir = match direction(dir) {
        Vec3::ZERO => Vec3::X,
        dir => dir,
    };
    dir * sanitize_speed(max_speed)
}
