//! A world that wraps round its edges, as the model's window does: the
//! wrap after a step, and the shortest way from one point to another.

use crate::math::{Vector, finite_or_zero};

/// Off one edge of the rectangle `min..max`, back on at the opposite one, as
/// the model's agents wrap around the window. Returns the new position and
/// the offset that was added (zero if none), so that anything tied to the
/// position (a previous position kept for drawing) can move with it.
///
/// An axis whose size is not positive and finite does not wrap.
///
/// ```
/// # use reynolds::{math::Vector, wrap::wrap};
/// let (pos, shift) = wrap(Vector::new(-5.0, 350.0), Vector::ZERO, Vector::new(1000.0, 700.0));
/// assert_eq!(pos, Vector::new(995.0, 350.0));
/// assert_eq!(shift, Vector::new(1000.0, 0.0));
/// ```
#[inline]
pub fn wrap(pos: Vector, min: Vector, max: Vector) -> (Vector, Vector) {
    // Nearly always inside: four comparisons, nothing else.
    if pos.cmpge(min).all() && pos.cmple(max).all() {
        return (pos, Vector::ZERO);
    }
    let wrapped = Vector::new(
        wrap_axis(pos.x, min.x, max.x),
        wrap_axis(pos.y, min.y, max.y),
    );
    (wrapped, finite_or_zero(wrapped - pos))
}

#[inline]
fn wrap_axis(x: f32, min: f32, max: f32) -> f32 {
    if (min..=max).contains(&x) {
        return x;
    }
    let size = max - min;
    if !(size.is_finite() && size > 0.0 && x.is_finite()) {
        return x;
    }
    // One window's width for the usual case, as the model does; the
    // remainder for a position that went far outside in one step.
    min + (x - min).rem_euclid(size)
}

/// The shortest offset from `from` to `to` in a world that wraps with
/// period `size` on each axis (an axis with a size that is not positive and
/// finite does not wrap).
///
/// ```
/// # use reynolds::{math::Vector, wrap::wrapped_offset};
/// let size = Vector::new(1000.0, 700.0);
/// assert_eq!(wrapped_offset(Vector::new(995.0, 10.0), Vector::new(5.0, 690.0), size), Vector::new(10.0, -20.0));
/// ```
#[inline]
pub fn wrapped_offset(from: Vector, to: Vector, size: Vector) -> Vector {
    let axis = |d: f32, period: f32| {
        if period.is_finite() && period > 0.0 {
            d - period * (d / period).round()
        } else {
            d
        }
    };
    let d = to - from;
    Vector::new(axis(d.x, size.x), axis(d.y, size.y))
}
