//! What happens after the step: the wrap around the world's edges, and the
//! heading an agent is drawn facing.

use crate::defaults::HEADING_MIN_SPEED;
use crate::model::{direction, finite_or_zero};
use glam::Vec2;

/// Off one edge of the rectangle `min..max`, back on at the opposite one, as
/// the chapter's agents wrap around the window. Returns the new position and
/// the offset that was added (zero if none), so that anything tied to the
/// position (a previous position kept for drawing) can move with it.
///
/// An axis whose size is not positive and finite does not wrap.
///
/// ```
/// # use reynolds::{wrap, Vec2};
/// let (pos, shift) = wrap(Vec2::new(-5.0, 350.0), Vec2::ZERO, Vec2::new(1000.0, 700.0));
/// assert_eq!(pos, Vec2::new(995.0, 350.0));
/// assert_eq!(shift, Vec2::new(1000.0, 0.0));
/// ```
#[inline]
pub fn wrap(pos: Vec2, min: Vec2, max: Vec2) -> (Vec2, Vec2) {
    // Nearly always inside: four comparisons, nothing else.
    if pos.cmpge(min).all() && pos.cmple(max).all() {
        return (pos, Vec2::ZERO);
    }
    let wrapped = Vec2::new(
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
    // One window's width for the usual case, as the chapter does; the
    // remainder for a position that went far outside in one step.
    min + (x - min).rem_euclid(size)
}

/// The way an agent faces, as a unit vector: along its velocity, or,
/// slower than [`HEADING_MIN_SPEED`] (1 px/s), the way it faced (`previous`,
/// made a unit vector; +x if it has no direction), so a stopped agent does
/// not snap to face right. A direction rather than an angle: no `atan2`
/// each step, and a rotation follows from it without trigonometry.
///
/// ```
/// # use reynolds::{heading, Vec2};
/// assert_eq!(heading(Vec2::new(0.0, 5.0), Vec2::X), Vec2::Y);
/// assert_eq!(heading(Vec2::new(0.5, 0.0), Vec2::Y), Vec2::Y);
/// ```
#[inline]
pub fn heading(vel: Vec2, previous: Vec2) -> Vec2 {
    let vel = finite_or_zero(vel);
    let speed = vel.length();
    if speed > HEADING_MIN_SPEED {
        // A speed too big to square has a direction all the same.
        if speed.is_finite() {
            vel / speed
        } else {
            direction(vel)
        }
    } else if previous.is_normalized() {
        previous
    } else {
        match direction(previous) {
            Vec2::ZERO => Vec2::X,
            facing => facing,
        }
    }
}
