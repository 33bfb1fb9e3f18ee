//! The vector types the model is written in, and the guards every function
//! puts its input through, so that no NaN or infinity spreads.
//!
//! The model is written once for agents on a plane and agents in full 3D:
//! its functions take any [`SteeringVector`], `glam`'s `Vec2` (Bevy's own)
//! for walkers and `Vec3` for flyers. The few steps that differ between
//! the two (which side of a heading a point is on, a place in a leader's
//! frame) are the trait's; code that holds only on a plane (polygons, an
//! angle to wander along) says so where it is.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use glam::{Vec2, Vec3};

/// A position, velocity or force on the plane walkers move on, in pixels
/// (a second, a second per second). A direction is a unit `Vector`.
pub type Vector = Vec2;

/// A vector agents steer with: [`Vec2`] for agents on a plane, [`Vec3`]
/// for agents that fly or swim. Every behavior takes either, and gives on a
/// plane the same results, to the bit, as written for `Vec2` alone.
pub trait SteeringVector:
    Copy
    + Default
    + PartialEq
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f32, Output = Self>
    + Div<f32, Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign<f32>
    + DivAssign<f32>
{
    /// The zero vector.
    const ZERO: Self;
    /// The way an agent with no direction faces: +x.
    const X: Self;

    /// A vector `x` along +x: the local place `x` ahead.
    fn ahead(x: f32) -> Self;
    /// The dot product.
    fn dot(self, other: Self) -> f32;
    /// The length.
    fn length(self) -> f32;
    /// The squared length.
    fn length_squared(self) -> f32;
    /// Whether every component is finite.
    fn is_finite(self) -> bool;
    /// Whether the length is 1, as `glam` has it (within 2e-4 squared).
    fn is_normalized(self) -> bool;
    /// The unit vector along `self`, or zero if it has no (finite) length.
    fn normalize_or_zero(self) -> Self;
    /// The distance to `other`.
    fn distance(self, other: Self) -> f32;
    /// The squared distance to `other`.
    fn distance_squared(self, other: Self) -> f32;
    /// `self + (other - self) * t`.
    fn lerp(self, other: Self, t: f32) -> Self;
    /// The largest absolute component.
    fn max_abs(self) -> f32;
    /// How far `v` lies across the unit vector `forward`, and the unit
    /// vector toward that side. On a plane the distance is signed (positive
    /// to the left, counterclockwise) and the side is the left or the
    /// right; in 3D it is the distance from the line of `forward`, and the
    /// side points from that line to `v`. Straight ahead or behind, the
    /// side is the left ([`left_of`](Self::left_of)).
    fn across(forward: Self, v: Self) -> (f32, Self);
    /// The unit vector to the left of the unit vector `forward`: on a plane
    /// a quarter turn counterclockwise; in 3D level with the ground (XZ,
    /// +y up), or +z when `forward` is straight up or down.
    fn left_of(forward: Self) -> Self;
    /// `origin + ` the local place `local` in the frame of the unit vector
    /// `forward`: `local.x` ahead, `local.y` to the left (see
    /// [`left_of`](Self::left_of)), and in 3D `local.z` up, square to both.
    fn in_frame(origin: Self, forward: Self, local: Self) -> Self;
}

impl SteeringVector for Vec2 {
    const ZERO: Self = Vec2::ZERO;
    const X: Self = Vec2::X;

    #[inline]
    fn ahead(x: f32) -> Self {
        Vec2::new(x, 0.0)
    }
    #[inline]
    fn dot(self, other: Self) -> f32 {
        Vec2::dot(self, other)
    }
    #[inline]
    fn length(self) -> f32 {
        Vec2::length(self)
    }
    #[inline]
    fn length_squared(self) -> f32 {
        Vec2::length_squared(self)
    }
    #[inline]
    fn is_finite(self) -> bool {
        Vec2::is_finite(self)
    }
    #[inline]
    fn is_normalized(self) -> bool {
        Vec2::is_normalized(self)
    }
    #[inline]
    fn normalize_or_zero(self) -> Self {
        Vec2::normalize_or_zero(self)
    }
    #[inline]
    fn distance(self, other: Self) -> f32 {
        Vec2::distance(self, other)
    }
    #[inline]
    fn distance_squared(self, other: Self) -> f32 {
        Vec2::distance_squared(self, other)
    }
    #[inline]
    fn lerp(self, other: Self, t: f32) -> Self {
        Vec2::lerp(self, other, t)
    }
    #[inline]
    fn max_abs(self) -> f32 {
        self.abs().max_element()
    }
    #[inline]
    fn across(forward: Self, v: Self) -> (f32, Self) {
        let across = forward.perp_dot(v);
        let left = forward.perp();
        (across, if across >= 0.0 { left } else { -left })
    }
    #[inline]
    fn left_of(forward: Self) -> Self {
        forward.perp()
    }
    #[inline]
    fn in_frame(origin: Self, forward: Self, local: Self) -> Self {
        origin + forward * local.x + forward.perp() * local.y
    }
}

impl SteeringVector for Vec3 {
    const ZERO: Self = Vec3::ZERO;
    const X: Self = Vec3::X;

    #[inline]
    fn ahead(x: f32) -> Self {
        Vec3::new(x, 0.0, 0.0)
    }
    #[inline]
    fn dot(self, other: Self) -> f32 {
        Vec3::dot(self, other)
    }
    #[inline]
    fn length(self) -> f32 {
        Vec3::length(self)
    }
    #[inline]
    fn length_squared(self) -> f32 {
        Vec3::length_squared(self)
    }
    #[inline]
    fn is_finite(self) -> bool {
        Vec3::is_finite(self)
    }
    #[inline]
    fn is_normalized(self) -> bool {
        Vec3::is_normalized(self)
    }
    #[inline]
    fn normalize_or_zero(self) -> Self {
        Vec3::normalize_or_zero(self)
    }
    #[inline]
    fn distance(self, other: Self) -> f32 {
        Vec3::distance(self, other)
    }
    #[inline]
    fn distance_squared(self, other: Self) -> f32 {
        Vec3::distance_squared(self, other)
    }
    #[inline]
    fn lerp(self, other: Self, t: f32) -> Self {
        Vec3::lerp(self, other, t)
    }
    #[inline]
    fn max_abs(self) -> f32 {
        self.abs().max_element()
    }
    #[inline]
    fn across(forward: Self, v: Self) -> (f32, Self) {
        // From the cross product, which, unlike `v - forward * dot`, keeps
        // tiny angles apart.
        // Measured on `v` scaled to about 1, so that the cross product of a
        // tiny `v` does not square to nothing.
        let largest = v.max_abs();
        let (unit, scale) = if largest > 0.0 && largest.is_finite() {
            (v / largest, largest)
        } else {
            (v, 1.0)
        };
        let normal = forward.cross(unit);
        let across = normal.length() * scale;
        let side = direction(normal.cross(forward));
        if side == Vec3::ZERO {
            (across, Self::left_of(forward))
        } else {
            (across, side)
        }
    }
    #[inline]
    fn left_of(forward: Self) -> Self {
        match direction(Vec3::Y.cross(forward)) {
            Vec3::ZERO => Vec3::Z,
            left => left,
        }
    }
    #[inline]
    fn in_frame(origin: Self, forward: Self, local: Self) -> Self {
        let left = Self::left_of(forward);
        let up = forward.cross(left);
        origin + forward * local.x + left * local.y + up * local.z
    }
}

/// `v` if every component is finite, else the zero vector.
///
/// The model's guard against NaN and infinity: a non-finite input asks for
/// nothing rather than poisoning every later step.
#[inline]
pub fn finite_or_zero<V: SteeringVector>(v: V) -> V {
    if v.is_finite() { v } else { V::ZERO }
}

/// The direction of `v`: a unit vector, or zero for a zero or non-finite `v`.
///
/// Unlike a plain normalize, it is exact for tiny (subnormal) and huge
/// vectors, whose squared length would underflow or overflow.
#[inline]
pub fn direction<V: SteeringVector>(v: V) -> V {
    // The common case first: a squared length that is a normal float, so
    // one square root and one division give the unit vector as exactly as
    // a plain normalize. NaN fails the test.
    let length_squared = v.length_squared();
    if (f32::MIN_POSITIVE..f32::MAX).contains(&length_squared) {
        return v * (1.0 / length_squared.sqrt());
    }
    let v = finite_or_zero(v);
    let largest = v.max_abs();
    if largest == 0.0 {
        V::ZERO
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
pub fn truncated<V: SteeringVector>(v: V, max_length: f32) -> V {
    let v = finite_or_zero(v);
    let max_length = sanitize_limit(max_length);
    if max_length == 0.0 {
        // Also a vector so short that its length squares to 0.
        return V::ZERO;
    }
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
pub fn closest_on_segment<V: SteeringVector>(p: V, a: V, b: V) -> V {
    let ab = b - a;
    let len2 = ab.length_squared();
    // Also NaN: a segment of no (or no finite) length is its first end.
    if len2.is_nan() || len2 <= 0.0 || len2.is_infinite() {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}
