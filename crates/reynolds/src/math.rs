//! The vector type the model is written in, and the guards every function
//! puts its input through, so that no NaN or infinity spreads.
//! The model steers on a plane: [`Vector`] is `glam`'s `Vec2`, Bevy's own,
//! so the model's types are a Bevy game's. Code that holds only on a plane
//! (sides, polygons, an angle to wander along) says so where it is; the rest
//! is written for any [`Vector`].

/// A position, velocity or force: on the plane agents move on, in pixels
/// (a second, a second per second). A direction is a unit `Vector`.
pub type Vector = glam::Vec2;

/// `v` if every component is finite, else the zero vector.
///
/// The model's guard against NaN and infinity: a non-finite input asks for
/// nothing rather than poisoning every later step.
#[inline]
pub fn finite_or_zero(v: Vector) -> Vector {
    if v.is_finite() { v } else { Vector::ZERO }
}

/// The direction of `v`: a unit vector, or zero for a zero or non-finite `v`.
///
/// Unlike a plain normalize, it is exact for tiny (subnormal) and huge
/// vectors, whose squared length would underflow or overflow.
#[inline]
pub fn direction(v: Vector) -> Vector {
    // The common case first: a squared length that is a normal float, so
    // one square root and one division give the unit vector as exactly as
    // a plain normalize. NaN fails the test.
    let length_squared = v.length_squared();
    if (f32::MIN_POSITIVE..f32::MAX).contains(&length_squared) {
        return v * (1.0 / length_squared.sqrt());
    }
    let v = finite_or_zero(v);
    let largest = v.abs().max_element();
    if largest == 0.0 {
        Vector::ZERO
    } else {
        (v / largest).normalize_or_zero()
    }
}

/// A speed that is always usable as a desired speed: finite and not
/// negative, else 0.
#[inline]
pub fn sanitize_speed(speed: f32) -> f32 {
    if speed.is_finite() {
        speed.max(0.0)
    } else {
        0.0
    }
}

/// A length limit that is always usable: NaN and negative limits become 0,
/// and positive infinity stays "no limit".
#[inline]
pub fn sanitize_limit(limit: f32) -> f32 {
    // `f32::max` returns the non-NaN operand, so NaN becomes 0.
    limit.max(0.0)
}

/// A weight that is always usable: finite and not negative, else 0.
#[inline]
pub fn sanitize_weight(weight: f32) -> f32 {
    if weight.is_finite() {
        weight.max(0.0)
    } else {
        0.0
    }
}

/// A time step that is always usable: finite and not negative, else 0.
#[inline]
pub fn sanitize_dt(dt: f32) -> f32 {
    if dt.is_finite() { dt.max(0.0) } else { 0.0 }
}

/// `v`, shortened to `max_length` if it is longer, with its direction kept.
///
/// A vector of length 0 is never longer than the limit, so there is no
/// division by zero. A non-finite `v` gives zero; a negative or NaN limit
/// counts as 0.
///
/// ```
/// # use reynolds::math::{truncated, Vector};
/// assert_eq!(truncated(Vector::new(300.0, 400.0), 100.0), Vector::new(60.0, 80.0));
/// assert_eq!(truncated(Vector::new(3.0, 4.0), 100.0), Vector::new(3.0, 4.0));
/// ```
#[inline]
pub fn truncated(v: Vector, max_length: f32) -> Vector {
    let v = finite_or_zero(v);
    let max_length = sanitize_limit(max_length);
    let len = v.length();
    if len > max_length {
        // `len` can overflow to infinity for huge finite vectors: then the
        // direction is still `v / |v|`, computed safely by normalizing.
        if len.is_finite() {
            v * (max_length / len)
        } else {
            direction(v) * max_length
        }
    } else {
        v
    }
}

/// A body radius that is always usable: finite and not negative, else 0.
#[inline]
pub fn sanitize_radius(radius: f32) -> f32 {
    if radius.is_finite() {
        radius.max(0.0)
    } else {
        0.0
    }
}

/// The point of the segment `a`–`b` nearest `p`.
///
/// ```
/// # use reynolds::math::{Vector, closest_on_segment};
/// let (a, b) = (Vector::ZERO, Vector::new(10.0, 0.0));
/// assert_eq!(closest_on_segment(Vector::new(4.0, 3.0), a, b), Vector::new(4.0, 0.0));
/// assert_eq!(closest_on_segment(Vector::new(-4.0, 3.0), a, b), a);
/// ```
#[inline]
pub fn closest_on_segment(p: Vector, a: Vector, b: Vector) -> Vector {
    let ab = b - a;
    let len2 = ab.length_squared();
    // Also NaN: a segment of no (or no finite) length is its first end.
    if len2.is_nan() || len2 <= 0.0 || len2.is_infinite() {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}
