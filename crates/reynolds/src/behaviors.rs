//! The behaviors: each one is a way of choosing a desired velocity.

use crate::defaults::MAX_LOOK_AHEAD;
use crate::math::{
    SteeringVector, direction, finite_or_zero, sanitize_limit, sanitize_speed, truncated,
};

/// Seek: full speed, straight at the target.
///
/// An agent exactly on its target wants a velocity of zero, not NaN.
///
/// ```
/// # use reynolds::{behaviors::seek, math::Vector};
/// assert_eq!(seek(Vector::ZERO, Vector::new(10.0, 0.0), 220.0), Vector::new(220.0, 0.0));
/// assert_eq!(seek(Vector::ONE, Vector::ONE, 220.0), Vector::ZERO);
/// ```
#[inline]
pub fn seek<V: SteeringVector>(pos: V, target: V, max_speed: f32) -> V {
    direction(finite_or_zero(target - pos)) * sanitize_speed(max_speed)
}

/// Arrive: seek, but inside `slowing_radius` a speed in step with the
/// distance left, `max_speed * d / slowing_radius`, down to zero on the
/// target.
///
/// The radius must be comfortably bigger than the
/// [braking distance](crate::model::braking_distance), or the agent overshoots. A
/// radius at or below zero (or NaN) makes arrive plain seek.
///
/// ```
/// # use reynolds::{behaviors::arrive, math::Vector};
/// // Halfway into a 150 px radius: half of 220 px/s.
/// assert_eq!(arrive(Vector::ZERO, Vector::new(75.0, 0.0), 220.0, 150.0), Vector::new(110.0, 0.0));
/// ```
#[inline]
pub fn arrive<V: SteeringVector>(pos: V, target: V, max_speed: f32, slowing_radius: f32) -> V {
    let max_speed = sanitize_speed(max_speed);
    let to_target = finite_or_zero(target - pos);
    let d = to_target.length();
    if d < slowing_radius {
        // Along `to_target / d` at `max_speed * d / slowing_radius`: the
        // distance cancels, and with it a square root and two divisions.
        // (A ratio that overflows comes of a radius under 1e-36 px, inside
        // which every distance squares to 0: on the target, it stops.)
        return finite_or_zero(to_target * (max_speed / slowing_radius));
    }
    direction(to_target) * max_speed
}

/// Flee: full speed, straight away from the threat, inside `panic_radius`.
/// Farther off, it wants the velocity the agent already has, which asks for
/// no steering at all, so a fleer that escaped keeps going instead of braking.
///
/// On top of the threat there is no "away", and it wants to stop.
///
/// ```
/// # use reynolds::{behaviors::flee, math::Vector};
/// let vel = Vector::new(0.0, 30.0);
/// assert_eq!(flee(Vector::new(100.0, 0.0), vel, Vector::ZERO, 220.0, 220.0), Vector::new(220.0, 0.0));
/// assert_eq!(flee(Vector::new(300.0, 0.0), vel, Vector::ZERO, 220.0, 220.0), vel);
/// ```
#[inline]
pub fn flee<V: SteeringVector>(pos: V, vel: V, threat: V, max_speed: f32, panic_radius: f32) -> V {
    let away = finite_or_zero(pos - threat);
    if away.length() > sanitize_limit(panic_radius) {
        return finite_or_zero(vel);
    }
    direction(away) * sanitize_speed(max_speed)
}

/// How far ahead pursue and evade look, in seconds: the time the agent needs
/// to cover the distance at top speed, never more than
/// [`MAX_LOOK_AHEAD`] (1 s). On the target it is 0.
///
/// ```
/// # use reynolds::{behaviors::look_ahead, math::Vector};
/// assert_eq!(look_ahead(Vector::ZERO, Vector::new(110.0, 0.0), 220.0), 0.5);
/// assert_eq!(look_ahead(Vector::ZERO, Vector::new(440.0, 0.0), 220.0), 1.0);
/// ```
#[inline]
pub fn look_ahead<V: SteeringVector>(pos: V, target: V, max_speed: f32) -> f32 {
    let distance = finite_or_zero(target - pos).length();
    let ahead = distance / sanitize_speed(max_speed);
    // 0 / 0 is NaN and x / 0 is infinite; `min` turns both into the cap.
    if ahead.is_nan() {
        0.0
    } else {
        ahead.min(MAX_LOOK_AHEAD)
    }
}

/// Where pursue aims and evade flees from: the target's position after it
/// keeps its velocity for the [look-ahead](look_ahead).
///
/// ```
/// # use reynolds::{behaviors::predicted_position, math::Vector};
/// // 440 px from a target moving right at 100 px/s: aim 100 px ahead.
/// let aim = predicted_position(Vector::ZERO, Vector::new(440.0, 0.0), Vector::new(100.0, 0.0), 220.0);
/// assert_eq!(aim, Vector::new(540.0, 0.0));
/// ```
#[inline]
pub fn predicted_position<V: SteeringVector>(
    pos: V,
    target: V,
    target_vel: V,
    max_speed: f32,
) -> V {
    let ahead = look_ahead(pos, target, max_speed);
    finite_or_zero(target + finite_or_zero(target_vel) * ahead)
}

/// Pursue: seek where the target will be if it keeps its velocity, by the
/// time the agent could get there, but never more than a second ahead.
/// On the target, pursue is seek.
#[inline]
pub fn pursue<V: SteeringVector>(pos: V, target: V, target_vel: V, max_speed: f32) -> V {
    seek(
        pos,
        predicted_position(pos, target, target_vel, max_speed),
        max_speed,
    )
}

/// Evade: flee from where the threat will be, rather than where it is, so
/// an evader runs before a fast threat reaches its panic radius.
#[inline]
pub fn evade<V: SteeringVector>(
    pos: V,
    vel: V,
    threat: V,
    threat_vel: V,
    max_speed: f32,
    panic_radius: f32,
) -> V {
    let predicted = predicted_position(pos, threat, threat_vel, max_speed);
    flee(pos, vel, predicted, max_speed, panic_radius)
}

/// Where a slot held in a leader's frame is: `offset.x` ahead of the
/// leader along `heading`, `offset.y` to its left. A heading of zero, or
/// not finite, counts as +x.
///
/// ```
/// # use reynolds::{behaviors::slot_position, math::Vector};
/// // 40 behind and 30 to the left of a leader at (100, 0) heading north.
/// let slot = slot_position(Vector::new(100.0, 0.0), Vector::Y, Vector::new(-40.0, 30.0));
/// assert!((slot - Vector::new(70.0, -40.0)).length() < 1e-4);
/// ```
#[inline]
pub fn slot_position<V: SteeringVector>(leader: V, heading: V, offset: V) -> V {
    let forward = match direction(finite_or_zero(heading)) {
        forward if forward == V::ZERO => V::X,
        forward => forward,
    };
    finite_or_zero(V::in_frame(leader, forward, finite_or_zero(offset)))
}

/// Offset pursuit: hold a slot that moves with a leader (see
/// [`slot_position`]). The agent arrives at the slot, and moves with the
/// leader on top: in its slot it wants the leader's velocity, and no lag
/// is left behind a cruising leader. Never faster than `max_speed`.
///
/// Aiming, besides, where the slot will be (as pursue leads its target)
/// counts the leader's velocity twice: an escort started 200 px off was
/// still 16 px off after 3 s, against 1.6 px without.
///
/// ```
/// # use reynolds::{behaviors::offset_pursuit, math::Vector};
/// // In its slot beside a leader going east at 100: it goes east at 100.
/// let v = offset_pursuit(Vector::ZERO, Vector::ZERO, Vector::new(100.0, 0.0), 220.0, 150.0);
/// assert_eq!(v, Vector::new(100.0, 0.0));
/// ```
#[inline]
pub fn offset_pursuit<V: SteeringVector>(
    pos: V,
    slot: V,
    leader_vel: V,
    max_speed: f32,
    slowing_radius: f32,
) -> V {
    let leader_vel = finite_or_zero(leader_vel);
    truncated(
        finite_or_zero(arrive(pos, slot, max_speed, slowing_radius) + leader_vel),
        max_speed,
    )
}

/// Interpose: stand between two agents, aiming at the midpoint of where
/// they will be by the time the agent could get there (never more than a
/// second ahead), and moving with that midpoint: between two that keep
/// their velocities it wants the midpoint's. Never faster than
/// `max_speed`.
///
/// ```
/// # use reynolds::{behaviors::interpose, math::Vector};
/// // Standing at the midpoint of two standing agents: it stays.
/// let (a, b) = (Vector::new(-50.0, 0.0), Vector::new(50.0, 0.0));
/// assert_eq!(interpose(Vector::ZERO, a, Vector::ZERO, b, Vector::ZERO, 220.0, 150.0), Vector::ZERO);
/// ```
#[inline]
pub fn interpose<V: SteeringVector>(
    pos: V,
    a: V,
    a_vel: V,
    b: V,
    b_vel: V,
    max_speed: f32,
    slowing_radius: f32,
) -> V {
    let (a_vel, b_vel) = (finite_or_zero(a_vel), finite_or_zero(b_vel));
    let middle = finite_or_zero(a * 0.5 + b * 0.5);
    let ahead = look_ahead(pos, middle, max_speed);
    let drift = finite_or_zero(a_vel * 0.5 + b_vel * 0.5);
    let aim = finite_or_zero(middle + drift * ahead);
    truncated(
        finite_or_zero(arrive(pos, aim, max_speed, slowing_radius) + drift),
        max_speed,
    )
}

/// Leader following, as Reynolds describes it: keep `behind` the leader
/// (offset pursuit of the place that far back along its `heading`), but
/// when in its way (ahead of it, nearer than `behind`, within `clear` of
/// the line it walks) step out of it: sideways, to the side the agent is
/// on (its left, seen from the leader, when dead ahead), at top speed,
/// while keeping the leader's pace. Never faster than `max_speed`.
///
/// ```
/// # use reynolds::{behaviors::follow_leader, math::Vector};
/// // Just ahead of a leader walking east, a little to its left: it steps
/// // north, out of the way.
/// let v = follow_leader(Vector::new(20.0, 2.0), Vector::ZERO, Vector::new(100.0, 0.0), Vector::X, 40.0, 16.0, 220.0, 150.0);
/// assert!(v.y > 100.0);
/// ```
#[inline]
pub fn follow_leader<V: SteeringVector>(
    pos: V,
    leader: V,
    leader_vel: V,
    heading: V,
    behind: f32,
    clear: f32,
    max_speed: f32,
    slowing_radius: f32,
) -> V {
    let forward = match direction(finite_or_zero(heading)) {
        forward if forward == V::ZERO => V::X,
        forward => forward,
    };
    let behind = sanitize_limit(behind);
    let from_leader = finite_or_zero(pos - leader);
    let ahead = from_leader.dot(forward);
    let (aside, out) = V::across(forward, from_leader);
    if ahead > 0.0 && ahead < behind && aside.abs() < sanitize_limit(clear) {
        let desired = finite_or_zero(leader_vel) + out * sanitize_speed(max_speed);
        return truncated(desired, max_speed);
    }
    let slot = slot_position(leader, forward, V::ahead(-behind));
    offset_pursuit(pos, slot, leader_vel, max_speed, slowing_radius)
}

/// Where to hide from a hunter behind a cover (an obstacle inside the
/// circle of `radius` round `center`): on the line from the hunter through
/// the cover's middle, `gap` beyond the circle on the far side. Seen from
/// the hunter, the cover's middle stands in front of it, so any cover that
/// holds its middle (a rock, a wall, a convex block) hides it. A hunter on
/// the middle sees round every side: the spot is then `+x` of it.
///
/// ```
/// # use reynolds::{behaviors::hiding_spot, math::Vector};
/// // A rock of 30 at (100, 0), the hunter west of it: 10 px east of the rock.
/// let spot = hiding_spot(Vector::ZERO, Vector::new(100.0, 0.0), 30.0, 10.0);
/// assert_eq!(spot, Vector::new(140.0, 0.0));
/// ```
#[inline]
pub fn hiding_spot<V: SteeringVector>(hunter: V, center: V, radius: f32, gap: f32) -> V {
    let away = match direction(finite_or_zero(center - hunter)) {
        away if away == V::ZERO => V::X,
        away => away,
    };
    finite_or_zero(center + away * (sanitize_limit(radius) + sanitize_limit(gap)))
}
