//! Crowds: agents that see each other coming. Each agent predicts when its
//! body would touch each neighbor's if both kept their velocities (the time
//! to collision, `τ`) and steers away from that touching before it
//! happens, harder the sooner it comes: the anticipatory force of
//! Karamouzas, Skinner and Guy (2014), the gradient of an energy
//! `k / τ² · e^(−τ/τ₀)`. It is a force, so it goes into the model's
//! steering sum with every other behavior and is capped once with them; a
//! velocity-obstacle method (ORCA) would instead pick a velocity, which the
//! response time cannot take at once. Sideways pushes are planar (the keep-
//! right rule); the rest holds in any dimension. Beside the push, a
//! constraint keeps bodies from passing into each other at all
//! ([`contact`]).

pub mod contact;
pub mod turns;

use crate::level::Shape;
use crate::math::{
    Vector, direction, finite_or_zero, sanitize_dt, sanitize_radius, sanitize_speed,
    sanitize_weight, truncated,
};
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;

/// The strength of the push, as a multiple of the square of the two bodies'
/// combined radius (the power law's `k`, 1.5 m² for people 1 m across).
pub const STRENGTH: f32 = 1.5;
/// Collisions further off than this, in seconds, barely count: the power
/// law's `τ₀`, the time over which its push fades by `e`.
pub const HORIZON: f32 = 3.0;
/// The share of a head-on push turned to the agent's right, so that two
/// agents meeting head-on, or a ring of them, pass the same way every time
/// instead of pushing straight back at each other.
pub const KEEP_RIGHT: f32 = 0.3;
/// How fast two bodies already overlapping are pushed apart: the overlap
/// closes in about this many seconds.
pub const CONTACT_TIME: f32 = 0.1;
/// An agent standing still makes way for a neighbor whose body comes within
/// this share of their combined radius of its own ([`make_way`]).
pub const MAKE_WAY: f32 = 0.3;

/// How an agent avoids the agents around it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(Debug, PartialEq, Default))]
pub struct AvoidParams {
    /// Seconds: how far ahead collisions matter (the push fades as
    /// `e^(−τ/horizon)`), and, times the top speed, how far the agent
    /// looks for neighbors. 3.
    pub horizon: f32,
    /// How hard it pushes, times the square of the two bodies' combined
    /// radius: lengths come from the bodies, so one value suits people in
    /// metres and critters in pixels. 1.5.
    pub strength: f32,
    /// The share of a push turned to the agent's right, which breaks the
    /// symmetry of head-on meetings the same way every time. 0.3.
    pub keep_right: f32,
}

impl Default for AvoidParams {
    fn default() -> Self {
        Self {
            horizon: HORIZON,
            strength: STRENGTH,
            keep_right: KEEP_RIGHT,
        }
    }
}

impl AvoidParams {
    /// What is wrong with these values, one line each (`owner.field`), and
    /// what the model does instead. Empty when all is well.
    pub fn problems(&self, owner: &str) -> Vec<String> {
        let mut problems = Vec::new();
        let mut check = |name: &str, value: f32, what: &str| {
            if !(value.is_finite() && value >= 0.0) {
                problems.push(format!(
                    "{owner}.{name} is {value:?}, but must be 0 or more and finite; {what}"
                ));
            }
        };
        check(
            "horizon",
            self.horizon,
            "it counts as 0: no collision is foreseen",
        );
        check(
            "strength",
            self.strength,
            "it counts as 0: the agent does not avoid",
        );
        check(
            "keep_right",
            self.keep_right,
            "it counts as 0: no side is preferred",
        );
        problems
    }

    /// These values with bad ones (NaN, negative, infinite) at 0.
    pub fn sanitized(self) -> Self {
        Self {
            horizon: sanitize_dt(self.horizon),
            strength: sanitize_weight(self.strength),
            keep_right: sanitize_weight(self.keep_right),
        }
    }

    /// How far an agent going at most `max_speed`, with a body of `radius`,
    /// looks for neighbors whose bodies are at most `largest_radius`: its
    /// travel over the horizon and both bodies.
    pub fn reach(&self, max_speed: f32, radius: f32, largest_radius: f32) -> f32 {
        let reach = self.horizon * max_speed + radius + largest_radius;
        if reach.is_finite() {
            reach.max(0.0)
        } else {
            0.0
        }
    }
}

/// How much of avoiding a meeting is an agent's, of one with `mine` right
/// of way meeting a neighbor with `theirs` (`None`: one that does not
/// avoid): all of it when the neighbor does not avoid or has more right of
/// way (this agent gives way), none when it has less (it gives way), half
/// between equals. As Unity's `avoidancePriority` and RVO2's
/// responsibility.
///
/// ```
/// # use reynolds::crowd::share_of_avoiding;
/// assert_eq!(share_of_avoiding(0, Some(0)), 0.5);
/// assert_eq!(share_of_avoiding(0, Some(3)), 1.0); // it gives way
/// assert_eq!(share_of_avoiding(3, Some(0)), 0.0); // the other does
/// assert_eq!(share_of_avoiding(3, None), 1.0); // the other does not avoid
/// ```
#[inline]
pub fn share_of_avoiding(mine: u8, theirs: Option<u8>) -> f32 {
    match theirs {
        None => 1.0,
        Some(theirs) if theirs > mine => 1.0,
        Some(theirs) if theirs < mine => 0.0,
        Some(_) => 0.5,
    }
}

/// When two bodies `radius_sum` apart at contact would touch, if the one at
/// `offset` from the other kept a velocity of `relative_velocity` relative
/// to it: seconds from now, or `None` if they never do (or already
/// overlap).
///
/// ```
/// # use reynolds::{crowd::time_to_collision, math::Vector};
/// // 10 apart, closing at 2 a second, touching at 1 apart: in 4.5 s.
/// let t = time_to_collision(Vector::new(10.0, 0.0), Vector::new(-2.0, 0.0), 1.0);
/// assert_eq!(t, Some(4.5));
/// // Moving apart, or passing wide: never.
/// assert_eq!(time_to_collision(Vector::new(10.0, 0.0), Vector::new(2.0, 0.0), 1.0), None);
/// assert_eq!(time_to_collision(Vector::new(10.0, 0.0), Vector::new(-2.0, 3.0), 1.0), None);
/// ```
pub fn time_to_collision(
    offset: Vector,
    relative_velocity: Vector,
    radius_sum: f32,
) -> Option<f32> {
    let Contact { tau, .. } = contact(offset, relative_velocity, radius_sum)?;
    Some(tau)
}

/// A coming contact: its time and the root of the quadratic's
/// discriminant, which the force's gradient divides by.
struct Contact {
    tau: f32,
    root: f32,
}

/// Solves `|x + τ v| = r` for its first root `τ > 0`.
#[inline]
fn contact(x: Vector, v: Vector, r: f32) -> Option<Contact> {
    let b = x.dot(v);
    let c = x.length_squared() - r * r;
    if !(b < 0.0 && c > 0.0) {
        // Parting (or NaN), or overlapping already.
        return None;
    }
    let a = v.length_squared();
    let discriminant = b * b - a * c;
    if discriminant.is_nan() || discriminant <= 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    // `(−b − root) / a`, written so that it cannot cancel when `a` is
    // tiny: both terms of the denominator are positive.
    let tau = c / (root - b);
    (tau.is_finite() && tau > 0.0).then_some(Contact { tau, root })
}

/// The push on an agent from one neighbor: the agent is at `offset` from
/// the neighbor (the agent's position minus the neighbor's), moving at
/// `relative_velocity` (its velocity minus the neighbor's), and their
/// bodies touch at `radius_sum` apart. An acceleration, before the cap.
///
/// Bodies that will touch within a few horizons are pushed apart along
/// where they would touch, and slowed, by the power law's gradient, with
/// [`AvoidParams::keep_right`] of it turned to the agent's right; bodies
/// already overlapping are pushed straight apart, to part in about
/// [`CONTACT_TIME`] (two on one point part along `tie()`, a unit vector
/// whose opposite the other agent is given).
///
/// ```
/// # use reynolds::{crowd::{AvoidParams, avoid_neighbor}, math::Vector};
/// // A person 1 m across, 4 m ahead of another, closing at 2.6 m/s: it is
/// // pushed back (x > 0), and a little to its right (north, y > 0, going west).
/// let push = avoid_neighbor(&AvoidParams::default(), Vector::new(4.0, 0.0), Vector::new(-2.6, 0.0), 1.0, || Vector::Y);
/// assert!(push.x > 0.0 && push.y > 0.0);
/// ```
pub fn avoid_neighbor(
    params: &AvoidParams,
    offset: Vector,
    relative_velocity: Vector,
    radius_sum: f32,
    tie: impl FnOnce() -> Vector,
) -> Vector {
    let r = sanitize_radius(radius_sum);
    let k = params.strength * r * r;
    if !(k > 0.0 && params.horizon > 0.0) {
        return Vector::ZERO;
    }
    let distance_squared = offset.length_squared();
    if distance_squared < r * r {
        // Already touching: apart, at once.
        let distance = distance_squared.sqrt();
        let away = match direction(offset) {
            Vector::ZERO => tie(),
            away => away,
        };
        return finite_or_zero(away * ((r - distance) / (CONTACT_TIME * CONTACT_TIME)));
    }
    let Some(Contact { tau, root }) = contact(offset, relative_velocity, r) else {
        return Vector::ZERO;
    };
    let horizon = params.horizon;
    // Beyond a few horizons the push is under a thousandth of its value a
    // horizon off: not worth an exponential.
    if tau > 7.0 * horizon {
        return Vector::ZERO;
    }
    // −dE/dτ · dτ/dx for E = k τ⁻² e^(−τ/τ₀): the push grows as the contact
    // nears, along where the bodies would touch.
    let along = offset + relative_velocity * tau;
    let push = along * (power_law(k, tau, horizon) / root);
    // To the right of the agent's motion relative to the neighbor
    // (clockwise; the neighbor's relative motion is the opposite, so it
    // turns to its own right too).
    let right = direction(Vector::new(relative_velocity.y, -relative_velocity.x));
    finite_or_zero(push + right * (push.length() * params.keep_right))
}

/// The push on an agent that means to stand still (arrived, say) from a
/// neighbor pressing against it, at `offset` from the neighbor (the agent's
/// position minus the neighbor's), their bodies touching at `radius_sum`,
/// the neighbor meaning to go along `heading` (a unit vector; zero if
/// unknown): out of the neighbor's way, to the side of its way the agent
/// is on (its right, when dead ahead) and [`MAKE_WAY_AHEAD`] as much along
/// it; as hard as an overlap of the gap left within [`MAKE_WAY`] of
/// touching. Not knowing the heading, half away from the neighbor and half
/// to the agent's right of it. Zero while the neighbor keeps its distance.
/// Without it, one standing in a door, or at its goal in others' way, stood
/// there for good: it foresees no meeting with one that presses still
/// against it.
///
/// ```
/// # use reynolds::{crowd::make_way, math::Vector};
/// // Touching a neighbor to its west that means to go east: pushed out of
/// // its way, to the south (its right), and a little east.
/// let push = make_way(Vector::new(1.0, 0.0), 1.0, Vector::X);
/// assert!(push.x > 0.0 && push.y < 0.0 && push.x < -push.y);
/// // North of its way, pushed north.
/// let push = make_way(Vector::new(0.8, 0.6), 1.0, Vector::X);
/// assert!(push.y > 0.0);
/// assert_eq!(make_way(Vector::new(1.4, 0.0), 1.0, Vector::X), Vector::ZERO);
/// ```
pub fn make_way(offset: Vector, radius_sum: f32, heading: Vector) -> Vector {
    let r = sanitize_radius(radius_sum);
    let within = r * (1.0 + MAKE_WAY) - offset.length();
    let away = direction(offset);
    if within.is_nan() || within <= 0.0 || away == Vector::ZERO {
        return Vector::ZERO;
    }
    let heading = direction(finite_or_zero(heading));
    let aside = if heading == Vector::ZERO {
        (away + Vector::new(away.y, -away.x)) * std::f32::consts::FRAC_1_SQRT_2
    } else {
        // Out of its way: the side of the line it walks that the agent is
        // on, or its right when the agent is on that line.
        let across = offset - heading * offset.dot(heading);
        let side = if across.length() > 1e-3 * r {
            direction(across)
        } else {
            Vector::new(heading.y, -heading.x)
        };
        direction(side + heading * MAKE_WAY_AHEAD)
    };
    finite_or_zero(aside * (within / (CONTACT_TIME * CONTACT_TIME)))
}

/// How far along a pressing neighbor's way an agent making way for it also
/// goes, for each unit it steps aside. In the crowd lab's hallway from
/// moved starts, given 400 s, someone was held short of their goal for good
/// in 1 run of 60 with a half; making way away from the neighbor and to its
/// own right instead, in 12 (BENCHMARKS.md, "Crowds").
pub const MAKE_WAY_AHEAD: f32 = 0.5;

/// `−dE/dτ` of the power law's energy `E = k τ⁻² e^(−τ/τ₀)`, `τ₀` being
/// the horizon: how hard a contact `tau` seconds off pushes, before the
/// geometry's factor.
#[inline]
fn power_law(k: f32, tau: f32, horizon: f32) -> f32 {
    k * (-tau / horizon).exp() * (2.0 / tau + 1.0 / horizon) / (tau * tau)
}

/// The push on an agent from one of the level's shapes, which holds still:
/// the agent is at `at`, moving at `velocity`, with a body of `radius`. A
/// circle pushes as a neighbor standing there would; a wall by the time its
/// side or one of its ends would be touched, whichever comes first.
///
/// ```
/// # use reynolds::{crowd::{AvoidParams, avoid_shape}, level::Shape, math::Vector};
/// // Walking at a wall 2 m ahead at 1.3 m/s: pushed back from it.
/// let wall = Shape::Wall { a: Vector::new(2.0, -5.0), b: Vector::new(2.0, 5.0) };
/// let push = avoid_shape(&AvoidParams::default(), Vector::ZERO, Vector::new(1.3, 0.0), 0.5, &wall);
/// assert!(push.x < 0.0 && push.y.abs() < 1e-6);
/// ```
pub fn avoid_shape(
    params: &AvoidParams,
    at: Vector,
    velocity: Vector,
    radius: f32,
    shape: &Shape,
) -> Vector {
    let r = sanitize_radius(radius);
    let (a, b) = match *shape {
        Shape::Circle { center, radius: c } => {
            return avoid_neighbor(params, at - center, velocity, r + c, || Vector::X);
        }
        Shape::Wall { a, b } => (a, b),
    };
    let k = params.strength * r * r;
    if !(k > 0.0 && params.horizon > 0.0) {
        return Vector::ZERO;
    }
    // Its side: touched where the body, moving on, first comes within its
    // radius of the line, if that is between the ends.
    let length = a.distance(b);
    if length > 0.0 {
        let tangent = (b - a) / length;
        let mut normal = tangent.perp();
        let mut distance = (at - a).dot(normal);
        if distance < 0.0 {
            (normal, distance) = (-normal, -distance);
        }
        let approach = -velocity.dot(normal);
        if approach > 0.0 && distance > r {
            let tau = (distance - r) / approach;
            let touch = (at + velocity * tau - a).dot(tangent);
            if (0.0..=length).contains(&touch) {
                if tau > 7.0 * params.horizon {
                    return Vector::ZERO;
                }
                // dτ/dx is the normal over the speed of approach.
                return finite_or_zero(normal * (power_law(k, tau, params.horizon) / approach));
            }
        }
    }
    // Else one of its ends, as a point: the one touched sooner.
    let end = |p: Vector| contact(at - p, velocity, r).map(|c| (c.tau, p));
    let first = match (end(a), end(b)) {
        (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
        (x, y) => x.or(y),
    };
    first.map_or(Vector::ZERO, |(_, p)| {
        avoid_neighbor(params, at - p, velocity, r, || Vector::X)
    })
}

/// The velocity an agent's collisions are foreseen at: halfway from the
/// velocity it has to the one its other steering asks for (`wanted`, at
/// most `max_speed`). An agent held up in a crowd still means to move, and
/// seeing only its velocity it would not foresee the meetings its wish
/// makes: two crowds pressing at one door from either side stood still for
/// good (BENCHMARKS.md, "Crowds").
#[inline]
pub fn foreseen_velocity(velocity: Vector, wanted: Vector, max_speed: f32) -> Vector {
    let velocity = finite_or_zero(velocity);
    let wanted = truncated(finite_or_zero(wanted), sanitize_speed(max_speed));
    finite_or_zero(velocity + (wanted - velocity) * FORESIGHT)
}

/// How far from its velocity toward the one it wants an agent's collisions
/// are foreseen at: half.
pub const FORESIGHT: f32 = 0.5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_gives_no_nan() {
        let bad = [
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            -1.0,
            0.0,
            1e-38,
            1e38,
        ];
        let params = AvoidParams::default();
        for &a in &bad {
            for &b in &bad {
                let v = Vector::new(a, b);
                for push in [
                    avoid_neighbor(&params, v, Vector::new(-1.0, 0.0), 1.0, || Vector::X),
                    avoid_neighbor(&params, Vector::new(3.0, 0.0), v, 1.0, || Vector::X),
                    avoid_neighbor(
                        &params,
                        Vector::new(3.0, 0.0),
                        Vector::new(-1.0, 0.0),
                        a,
                        || Vector::X,
                    ),
                    avoid_neighbor(
                        &AvoidParams {
                            horizon: a,
                            strength: b,
                            keep_right: a,
                        },
                        Vector::new(3.0, 0.0),
                        Vector::new(-1.0, 0.0),
                        1.0,
                        || Vector::X,
                    ),
                ] {
                    assert!(push.is_finite(), "{a} {b}: {push}");
                }
            }
        }
    }

    #[test]
    fn sooner_pushes_harder() {
        let params = AvoidParams::default();
        let at = |d: f32| {
            avoid_neighbor(
                &params,
                Vector::new(d, 0.1),
                Vector::new(-2.0, 0.0),
                1.0,
                || Vector::X,
            )
        };
        assert!(at(2.0).x > at(4.0).x && at(4.0).x > at(8.0).x && at(8.0).x > 0.0);
    }

    #[test]
    fn overlapping_bodies_part() {
        let params = AvoidParams::default();
        let push = avoid_neighbor(&params, Vector::new(0.5, 0.0), Vector::ZERO, 1.0, || {
            Vector::Y
        });
        // Half a body deep: half a unit over 0.1 s squared, straight apart.
        assert!((push - Vector::new(50.0, 0.0)).length() < 1e-3, "{push}");
        let tied = avoid_neighbor(&params, Vector::ZERO, Vector::ZERO, 1.0, || Vector::Y);
        assert!((tied - Vector::new(0.0, 100.0)).length() < 1e-3, "{tied}");
    }
}
