//! The steering model every behavior shares: the steering toward a desired
//! velocity, the two limits, the vehicle (its mass and turn limit), the
//! semi-implicit Euler step and the way the agent faces after it.
//! [`step_vehicles`] steps eight agents at once.

mod lanes;

pub use lanes::{LANES, step_vehicles};

use crate::defaults::{self, HEADING_MIN_SPEED};
use crate::math::{
    SteeringVector, Vector, direction, finite_or_zero, sanitize_dt, sanitize_limit,
    sanitize_weight, truncated,
};

/// The shortest response time the model uses, in seconds. A response time
/// of zero, a negative one or NaN means "react as fast as the force cap
/// allows", which this floor gives without dividing by zero.
pub const MIN_RESPONSE_TIME: f32 = 1e-4;

/// A response time that is always usable: at least [`MIN_RESPONSE_TIME`],
/// with NaN treated as the floor.
#[inline]
pub fn sanitize_response_time(response_time: f32) -> f32 {
    response_time.max(MIN_RESPONSE_TIME)
}

/// The steering toward `desired`: the acceleration that would change `vel`
/// into `desired` in `response_time` seconds, `(desired - vel) / response_time`,
/// in pixels per second per second. Not yet capped: cap the sum of all of an
/// agent's steering once, in [`step`].
///
/// A response time of 1 is the common `desired - vel`, which reacts slowly
/// enough to make arrivers overshoot. A response time at or below zero (or
/// NaN) reacts as fast as the force cap allows.
///
/// ```
/// # use reynolds::{math::{Vector, truncated}, model::steering};
/// // The model's exercise 1.
/// let s = steering(Vector::new(100.0, 0.0), Vector::new(0.0, 50.0), 0.25);
/// assert_eq!(s, Vector::new(400.0, -200.0));
/// assert!((truncated(s, 380.0).length() - 380.0).abs() < 1e-3);
/// ```
#[inline]
pub fn steering<V: SteeringVector>(desired: V, vel: V, response_time: f32) -> V {
    let change = finite_or_zero(desired) - finite_or_zero(vel);
    // One division, ready before `change` is.
    let force = change * (1.0 / sanitize_response_time(response_time));
    if force.is_finite() {
        force
    } else {
        // A huge change over a tiny response time: as hard as possible, in
        // the change's direction. `step` caps it.
        direction(change) * f32::MAX
    }
}

/// How an agent handles: its top speed and the most its steering can change
/// its velocity in a second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Top speed, in pixels a second (the model's `MAX_SPEED`).
    pub max_speed: f32,
    /// Steering cap, in pixels a second, every second (`MAX_FORCE`).
    pub max_force: f32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_speed: defaults::MAX_SPEED,
            max_force: defaults::MAX_FORCE,
        }
    }
}

/// Where an agent is and how fast it is going: on a plane (`Vec2`, the
/// default) or in 3D (`Vec3`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Kinematics<V = Vector> {
    /// Position, in pixels.
    pub pos: V,
    /// Velocity, in pixels a second.
    pub vel: V,
}

/// One step of the model, the model's last three lines: the steering is
/// capped at `max_force`, the speed at `max_speed`, and the agent moves by
/// semi-implicit Euler (the new velocity moves it).
///
/// `dt` at or below zero, or non-finite, leaves the agent as it is. A
/// non-finite position or velocity is reset to zero rather than spread.
/// [`step_vehicle`] is the same step with a mass and a turn-rate limit.
///
/// ```
/// # use reynolds::{math::Vector, model::{Kinematics, Limits, step}};
/// let agent = Kinematics { pos: Vector::ZERO, vel: Vector::ZERO };
/// let next = step(agent, Vector::new(1000.0, 0.0), Limits::default(), 0.5);
/// assert_eq!(next.vel, Vector::new(190.0, 0.0)); // 380 px/s² for 0.5 s
/// assert_eq!(next.pos, Vector::new(95.0, 0.0));
/// ```
#[inline]
pub fn step<V: SteeringVector>(
    agent: Kinematics<V>,
    steering: V,
    limits: Limits,
    dt: f32,
) -> Kinematics<V> {
    step_vehicle(agent, V::X, steering, Vehicle::new(limits), dt).0
}

/// How an agent's body moves: its two limits, its mass, and how fast its
/// velocity may turn. The model's agents have a mass of 1 and turn as
/// fast as the force allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    /// Top speed and steering cap.
    pub limits: Limits,
    /// Mass: the capped steering force is divided by it (`a = F / m`), so a
    /// heavy agent steers more sluggishly. 1 in the model.
    pub mass: f32,
    /// The fastest the agent may turn, in radians a second, like a car that
    /// cannot spin its velocity round in a moment. Infinite in the model.
    pub max_turn_rate: f32,
}

impl Vehicle {
    /// The model's vehicle with `limits`: a mass of 1, no turn limit.
    pub const fn new(limits: Limits) -> Self {
        Self {
            limits,
            mass: 1.0,
            max_turn_rate: f32::INFINITY,
        }
    }
}

impl Default for Vehicle {
    fn default() -> Self {
        Self::new(Limits::default())
    }
}

/// A mass that is always usable: positive and finite, else 1.
#[inline]
pub fn sanitize_mass(mass: f32) -> f32 {
    if mass.is_finite() && mass > 0.0 {
        mass
    } else {
        1.0
    }
}

/// A turn rate that is always usable: 0 or more (infinite is no limit);
/// NaN and negative rates count as no limit.
#[inline]
pub fn sanitize_turn_rate(rate: f32) -> f32 {
    if rate >= 0.0 { rate } else { f32::INFINITY }
}

/// The direction, exactly `max_angle` radians from `heading` toward
/// `wanted`, if `wanted` lies further round than that; `None` if it is
/// within reach (or there is no limit or nothing to turn to). Toward the
/// side `wanted` leans to; straight behind turns left.
///
/// `heading` should be a unit vector; a zero or non-finite one limits
/// nothing. `max_angle` of π or more (or NaN) limits nothing; below 0 it
/// counts as 0.
///
/// ```
/// # use reynolds::{math::Vector, model::limit_turn};
/// let turned = limit_turn(Vector::X, Vector::new(0.0, 10.0), 0.1).unwrap();
/// assert!((turned.to_angle() - 0.1).abs() < 1e-6);
/// assert_eq!(limit_turn(Vector::X, Vector::new(10.0, 0.5), 0.1), None);
/// ```
#[inline]
pub fn limit_turn<V: SteeringVector>(heading: V, wanted: V, max_angle: f32) -> Option<V> {
    let wanted = finite_or_zero(wanted);
    // NaN compares false, so it limits nothing, as π or more does.
    let limits = max_angle < std::f32::consts::PI;
    if !limits || wanted == V::ZERO {
        return None;
    }
    let heading = if heading.is_normalized() {
        heading
    } else {
        direction(heading)
    };
    if heading == V::ZERO {
        return None;
    }
    let (sin, cos) = max_angle.max(0.0).sin_cos();
    // θ, the angle from the heading to `wanted`, is past the limit when
    // sin(θ - max) > 0: from the cross product, which, unlike a cosine,
    // tells tiny angles apart. Straight behind with no turn at all is past
    // it too.
    let along = heading.dot(wanted);
    let (across, side) = V::across(heading, wanted);
    let past = across.abs() * cos - along * sin > 0.0 || (across == 0.0 && along < 0.0);
    if !past {
        return None;
    }
    Some(direction(heading * cos + side * sin))
}

/// The way an agent faces, as a unit vector: along its velocity, or,
/// slower than [`HEADING_MIN_SPEED`] (1 px/s), the way it faced (`previous`,
/// made a unit vector; +x if it has no direction), so a stopped agent does
/// not snap to face right. A direction rather than an angle: no `atan2`
/// each step, and a rotation follows from it without trigonometry.
///
/// ```
/// # use reynolds::{math::Vector, model::heading};
/// assert_eq!(heading(Vector::new(0.0, 5.0), Vector::X), Vector::Y);
/// assert_eq!(heading(Vector::new(0.5, 0.0), Vector::Y), Vector::Y);
/// ```
#[inline]
pub fn heading<V: SteeringVector>(vel: V, previous: V) -> V {
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
            facing if facing == V::ZERO => V::X,
            facing => facing,
        }
    }
}

/// One step of a [`Vehicle`], and the way it faces after it: the steering
/// capped at the max force and divided by the mass, the speed capped, then
/// semi-implicit Euler. `heading` is the way it faced (a unit vector).
///
/// Without a turn limit it is [`step`], bit for bit, and the heading
/// follows the velocity as [`heading`](heading()) has it. With one,
/// where the new velocity would point further from the heading than
/// `max_turn_rate * dt`, the heading turns by exactly that much toward it,
/// and the agent goes that way at the speed the steering's part along its
/// old heading leaves it (none if that is backward): the sideways push it
/// cannot turn by is lost, as a tyre's grip loses it, and never speeds the
/// agent up. So a vehicle circling a target inside its turning circle, its
/// steering mostly sideways and partly braking, slows down and spirals in
/// instead of orbiting for ever. Asked to go the way it does not face, it
/// turns on the spot first.
///
/// A bad mass counts as 1 and a bad turn rate as no limit.
///
/// ```
/// # use reynolds::{math::Vector, model::{Kinematics, Vehicle, step_vehicle}};
/// let heavy = Vehicle { mass: 2.0, ..Vehicle::default() };
/// let (next, _) = step_vehicle(Kinematics::default(), Vector::X, Vector::new(100.0, 0.0), heavy, 0.5);
/// assert_eq!(next.vel, Vector::new(25.0, 0.0)); // 100 / 2 px/s² for 0.5 s
/// ```
#[inline]
pub fn step_vehicle<V: SteeringVector>(
    agent: Kinematics<V>,
    heading: V,
    steering: V,
    vehicle: Vehicle,
    dt: f32,
) -> (Kinematics<V>, V) {
    let dt = sanitize_dt(dt);
    let pos = finite_or_zero(agent.pos);
    let vel = finite_or_zero(agent.vel);
    let facing = if heading.is_normalized() {
        heading
    } else {
        self::heading(V::ZERO, heading)
    };
    if dt == 0.0 {
        return (Kinematics { pos, vel }, facing);
    }
    let Limits {
        max_speed,
        max_force,
    } = vehicle.limits;
    let accel = truncated(steering, max_force) / sanitize_mass(vehicle.mass);
    let mut vel = truncated(vel + accel * dt, max_speed);
    let mut facing_next = self::heading(vel, facing);
    let max_turn_rate = sanitize_turn_rate(vehicle.max_turn_rate);
    if max_turn_rate.is_finite()
        && let Some(turned) = limit_turn(facing, vel, max_turn_rate * dt)
    {
        vel = turned * vel.dot(facing).max(0.0);
        facing_next = turned;
    }
    let next = Kinematics {
        pos: finite_or_zero(pos + vel * dt),
        vel,
    };
    (next, facing_next)
}

/// The distance an agent going `speed` needs to stop, braking at `max_force`:
/// `v² / (2a)`, in pixels. 64 px at 220 px/s with 380 px/s².
///
/// An arriver whose slowing radius is smaller than this overshoots. With no
/// force to brake with, the distance is infinite.
///
/// ```
/// # use reynolds::model::braking_distance;
/// assert!((braking_distance(220.0, 380.0) - 63.68).abs() < 0.01);
/// assert_eq!(braking_distance(300.0, 500.0), 90.0);
/// ```
pub fn braking_distance(speed: f32, max_force: f32) -> f32 {
    over_force(speed, max_force, |v, a| v * v / (2.0 * a))
}

/// The time, in seconds, to change speed by `speed` at `max_force`:
/// `v / a`. Top speed from a standstill takes 220 / 380 = 0.58 s, and a full
/// turnaround twice that.
pub fn time_to_speed(speed: f32, max_force: f32) -> f32 {
    over_force(speed, max_force, |v, a| v / a)
}

/// `f(|speed|, max_force)` for a speed and a force that are usable: a
/// non-finite speed counts as 0, and so does no speed (0); with no force
/// to change it, the answer is infinite.
fn over_force(speed: f32, max_force: f32, f: impl Fn(f32, f32) -> f32) -> f32 {
    let speed = if speed.is_finite() { speed.abs() } else { 0.0 };
    let max_force = sanitize_limit(max_force);
    if speed == 0.0 {
        0.0
    } else if max_force == 0.0 {
        f32::INFINITY
    } else {
        f(speed, max_force)
    }
}

/// The weighted sum of several behaviors' steering, as the model combines
/// them: each behavior's `(desired - vel) / response_time`, times its
/// weight, added up. The sum is capped once, in [`step`], so the weights
/// decide each behavior's share.
///
/// It also keeps the weighted mean of the desired velocities, the one
/// velocity that asks for the same steering, for drawing and debugging.
///
/// ```
/// # use reynolds::{math::Vector, model::{SteeringSum, steering}};
/// // A grazer far from the threat: flee wants the velocity it has, so only
/// // wander's steering is left.
/// let vel = Vector::new(50.0, 0.0);
/// let wander = Vector::new(0.0, 220.0);
/// let mut sum = SteeringSum::default();
/// sum.add(1.0, wander, vel, 0.15);
/// sum.add(3.0, vel, vel, 0.15);
/// assert_eq!(sum.steering(), steering(wander, vel, 0.15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SteeringSum<V = Vector> {
    steering: V,
    weighted_desired: V,
    total_weight: f32,
}

impl<V: SteeringVector> SteeringSum<V> {
    /// Adds one behavior's steering toward `desired`, times `weight`.
    /// A weight that is negative or not finite counts as 0, as everywhere
    /// behaviors are weighted (a weight says how much a behavior counts, not
    /// which way).
    #[inline]
    pub fn add(&mut self, weight: f32, desired: V, vel: V, response_time: f32) {
        let weight = sanitize_weight(weight);
        if weight == 0.0 {
            return;
        }
        let desired = finite_or_zero(desired);
        self.steering += steering(desired, vel, response_time) * weight;
        self.weighted_desired += desired * weight;
        self.total_weight += weight;
    }

    /// Adds a steering force computed elsewhere (separation, say), times
    /// `weight` (negative or not finite: 0).
    #[inline]
    pub fn add_force(&mut self, weight: f32, force: V) {
        self.steering += finite_or_zero(force) * sanitize_weight(weight);
    }

    /// The summed steering, not yet capped.
    #[inline]
    pub fn steering(&self) -> V {
        finite_or_zero(self.steering)
    }

    /// The weighted mean of the desired velocities, or `fallback` (usually
    /// the current velocity) when nothing was added.
    #[inline]
    pub fn desired(&self, fallback: V) -> V {
        if self.total_weight.abs() > f32::EPSILON {
            finite_or_zero(self.weighted_desired / self.total_weight)
        } else {
            fallback
        }
    }
}
