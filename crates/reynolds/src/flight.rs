//! What flyers have beyond the model's vehicle: an attitude that banks into
//! turns, and the limits things that fly have (a least speed, a steepest
//! climb and dive). In 3D only, with +y up, as in Bevy.
//!
//! The step itself is the model's, [`step_vehicle`] on `Vec3`: the limits
//! here apply to the velocity it gives, and with none of them (the
//! defaults) a flyer moves exactly as the model has it.

use std::f32::consts::FRAC_PI_2;

use glam::Vec3;

use crate::defaults::{BANK_GRAVITY, BANK_HALF_LIFE, HEADING_MIN_SPEED};
use crate::math::{SteeringVector, direction, finite_or_zero, sanitize_dt, sanitize_limit};
use crate::measure::follow_share;
use crate::model::{Kinematics, Vehicle, heading, step_vehicle};

/// How a flyer handles beyond its [`Vehicle`]: its least speed, its
/// steepest climb and dive, and how it banks.
///
/// The default has no limits, as the model's agents, and banks as a
/// coordinated turn does under 9.81 m/s² (in the model's pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Flight {
    /// The least speed, in pixels a second: a plane or a bird does not
    /// hover. 0, the model's, lets it stop. Never more than the top speed.
    pub min_speed: f32,
    /// The steepest climb, in radians above the horizontal. A quarter turn
    /// (or more, or NaN) is no limit.
    pub max_climb: f32,
    /// The steepest dive, in radians below the horizontal. A quarter turn
    /// (or more, or NaN) is no limit.
    pub max_dive: f32,
    /// The gravity banking is worked out under, in pixels a second per
    /// second: the flyer rolls as in a coordinated turn, by
    /// `atan(lateral acceleration / bank_gravity)`. Infinite (or 0, or NaN)
    /// keeps it level.
    pub bank_gravity: f32,
    /// How quickly the roll follows the acceleration: the half-life of the
    /// up vector's move toward its banked place, in seconds.
    pub bank_half_life: f32,
}

impl Default for Flight {
    fn default() -> Self {
        Self {
            min_speed: 0.0,
            max_climb: FRAC_PI_2,
            max_dive: FRAC_PI_2,
            bank_gravity: BANK_GRAVITY,
            bank_half_life: BANK_HALF_LIFE,
        }
    }
}

impl Flight {
    /// The same flight for a game whose lengths are `factor` times the
    /// model's pixels: the least speed and the gravity scale.
    pub fn scaled(self, factor: f32) -> Self {
        Self {
            min_speed: self.min_speed * factor,
            bank_gravity: self.bank_gravity * factor,
            ..self
        }
    }

    /// `vel` within these limits: at least the least speed (along `vel`,
    /// or along `forward` if it has no direction), but never more than
    /// `max_speed`; then no steeper than the climb and dive limits, at the
    /// same speed. Always finite.
    ///
    /// ```
    /// # use reynolds::flight::Flight;
    /// # use glam::Vec3;
    /// let glider = Flight { min_speed: 80.0, max_climb: 0.5, ..Flight::default() };
    /// // Asked to stop, it keeps going at its least speed.
    /// assert_eq!(glider.limit(Vec3::ZERO, Vec3::X, 220.0), Vec3::new(80.0, 0.0, 0.0));
    /// // Asked to climb straight up, it climbs at 0.5 rad.
    /// let up = glider.limit(Vec3::Y * 100.0, Vec3::X, 220.0);
    /// assert!((up.y.atan2(up.x) - 0.5).abs() < 1e-6 && (up.length() - 100.0).abs() < 1e-4);
    /// ```
    pub fn limit(&self, vel: Vec3, forward: Vec3, max_speed: f32) -> Vec3 {
        let mut vel = finite_or_zero(vel);
        // An infinite least speed (with no top speed) is none.
        let least = sanitize_limit(self.min_speed).min(sanitize_limit(max_speed));
        let least = if least.is_finite() { least } else { 0.0 };
        let speed = vel.length();
        if speed < least {
            let along = match direction(vel) {
                Vec3::ZERO => direction(finite_or_zero(forward)),
                along => along,
            };
            vel = match along {
                Vec3::ZERO => Vec3::X,
                along => along,
            } * least;
        }
        limit_pitch(vel, forward, self.max_climb, self.max_dive)
    }

    /// Whether [`limit`](Self::limit) can change a velocity.
    fn limits(&self) -> bool {
        let steeper = |angle: f32| angle < FRAC_PI_2;
        self.min_speed > 0.0 || steeper(self.max_climb) || steeper(self.max_dive)
    }
}

/// `vel` tilted, at the same speed, to no steeper than `max_climb` above
/// the horizontal and `max_dive` below (radians; a quarter turn or more,
/// or NaN, is no limit; below 0, 0). Straight up or down, it levels out
/// along `forward`'s horizontal part (+x if it has none).
fn limit_pitch(vel: Vec3, forward: Vec3, max_climb: f32, max_dive: f32) -> Vec3 {
    let speed = vel.length();
    if !(speed > 0.0 && speed.is_finite()) {
        return vel;
    }
    let steepest = |angle: f32| {
        if angle < FRAC_PI_2 {
            angle.max(0.0).sin()
        } else {
            1.0
        }
    };
    let sin_pitch = (vel.y / speed).clamp(-1.0, 1.0);
    let limited = sin_pitch.clamp(-steepest(max_dive), steepest(max_climb));
    if limited == sin_pitch {
        return vel;
    }
    let flat = [vel, finite_or_zero(forward), Vec3::X]
        .into_iter()
        .map(|v| direction(Vec3::new(v.x, 0.0, v.z)))
        .find(|flat| *flat != Vec3::ZERO)
        .unwrap_or(Vec3::X);
    (flat * (1.0 - limited * limited).sqrt() + Vec3::Y * limited) * speed
}

/// The way a flyer faces and its up: two unit vectors square to each
/// other. Without a direction of its own it faces +x, up +y.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Attitude {
    /// The way it faces: along its velocity, as [`heading`] has it.
    pub forward: Vec3,
    /// Its up: the world's up on straight and level flight, leaning into
    /// turns.
    pub up: Vec3,
}

impl Default for Attitude {
    fn default() -> Self {
        Self {
            forward: Vec3::X,
            up: Vec3::Y,
        }
    }
}

impl Attitude {
    /// Facing `forward` (a zero or non-finite one is +x) with the up nearest
    /// `up` square to it (the world's up if `up` has no part square to it).
    ///
    /// ```
    /// # use reynolds::flight::Attitude;
    /// # use glam::Vec3;
    /// let climbing = Attitude::new(Vec3::new(1.0, 1.0, 0.0), Vec3::Y);
    /// assert!((climbing.up - Vec3::new(-1.0, 1.0, 0.0).normalize()).length() < 1e-6);
    /// ```
    pub fn new(forward: Vec3, up: Vec3) -> Self {
        Self::square(unit_or(forward, Vec3::X), up)
    }

    /// [`new`](Self::new) for a `forward` already a unit vector.
    #[inline]
    fn square(forward: Vec3, up: Vec3) -> Self {
        Self {
            forward,
            up: up_square_to(forward, finite_or_zero(up)),
        }
    }

    /// The unit vector to its right: `forward × up`.
    pub fn right(&self) -> Vec3 {
        self.forward.cross(self.up)
    }

    /// Its roll, in radians: how far its up leans to the right of the
    /// vertical plane through `forward` (negative to the left, as into a
    /// left turn).
    pub fn roll(&self) -> f32 {
        let level_up = up_square_to(self.forward, Vec3::Y);
        let right = self.forward.cross(level_up);
        self.up.dot(right).atan2(self.up.dot(level_up))
    }
}

/// `v` if it is a unit vector, else its direction, else `fallback`: the
/// normalization skipped for the vectors that need none (a heading).
#[inline]
fn unit_or(v: Vec3, fallback: Vec3) -> Vec3 {
    if v.is_normalized() {
        return v;
    }
    match direction(finite_or_zero(v)) {
        Vec3::ZERO => fallback,
        unit => unit,
    }
}

/// The unit vector nearest `up` square to the unit vector `forward`: the
/// world's up if `up` has no part square to it, and the up of `forward`'s
/// own frame if that has none either (flying straight up or down).
fn up_square_to(forward: Vec3, up: Vec3) -> Vec3 {
    // `(forward × up) × forward`, `up`'s part square to `forward`: from
    // cross products, which, unlike `up - forward * dot`, lose nothing when
    // the two are nearly parallel.
    let square = direction(forward.cross(up).cross(forward));
    if square != Vec3::ZERO {
        return square;
    }
    let level = direction(forward.cross(Vec3::Y).cross(forward));
    if level != Vec3::ZERO {
        return level;
    }
    forward.cross(Vec3::left_of(forward))
}

/// A flyer's attitude after a step: facing `forward` (its new heading),
/// its up moving, with the half-life, toward where a coordinated turn puts
/// it: along `gravity * up + the part of accel across forward`, so that it
/// rolls by `atan(lateral acceleration / gravity)` into a turn and comes
/// back level on straight flight. Below the heading's least speed (1 px/s)
/// it keeps the up it had, as it keeps its heading.
///
/// ```
/// # use reynolds::flight::{Attitude, Flight, bank};
/// # use glam::Vec3;
/// // Turning left (toward -z, the left of +x, +y up) at 1 g: 45° of roll.
/// let flight = Flight { bank_half_life: 0.0, ..Flight::default() };
/// let g = flight.bank_gravity;
/// let turned = bank(Attitude::default(), Vec3::X, Vec3::NEG_Z * g, 200.0, &flight, 1.0 / 60.0);
/// assert!((turned.roll() + std::f32::consts::FRAC_PI_4).abs() < 1e-5);
/// ```
pub fn bank(
    attitude: Attitude,
    forward: Vec3,
    accel: Vec3,
    speed: f32,
    flight: &Flight,
    dt: f32,
) -> Attitude {
    flight.step(dt).bank(attitude, forward, accel, speed)
}

/// A [`Flight`] for one step of `dt`: what every flyer of that flight
/// shares that step, worked out once (the roll's share of the way, a power
/// of two).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlightStep {
    /// The flight.
    pub flight: Flight,
    /// The step, in seconds (sane: finite, 0 or more).
    pub dt: f32,
    /// The share of the way to its banked place the up moves in the step.
    pub share: f32,
}

impl Flight {
    /// This flight for a step of `dt`.
    pub fn step(&self, dt: f32) -> FlightStep {
        let dt = sanitize_dt(dt);
        FlightStep {
            flight: *self,
            dt,
            share: follow_share(dt, self.bank_half_life),
        }
    }
}

impl FlightStep {
    /// [`bank`], with the share worked out.
    #[inline]
    pub fn bank(&self, attitude: Attitude, forward: Vec3, accel: Vec3, speed: f32) -> Attitude {
        let forward = unit_or(forward, attitude.forward);
        let up = finite_or_zero(attitude.up);
        // (NaN is not moving either.)
        if speed.is_nan() || speed <= HEADING_MIN_SPEED {
            // Unchanged to the bit, if it was an attitude at all.
            let square = attitude.up.is_normalized() && forward.dot(attitude.up).abs() < 1e-5;
            return if forward == attitude.forward && square {
                attitude
            } else {
                Attitude::new(forward, up)
            };
        }
        let accel = finite_or_zero(accel);
        let lateral = accel - forward * accel.dot(forward);
        let gravity = self.flight.bank_gravity;
        let target = if gravity > 0.0 && gravity.is_finite() {
            direction(finite_or_zero(Vec3::Y * gravity + lateral))
        } else {
            Vec3::Y
        };
        Attitude::square(forward, up.lerp(target, self.share))
    }

    /// [`step_flyer`], with the share worked out.
    #[inline]
    pub fn flyer(
        &self,
        agent: Kinematics<Vec3>,
        attitude: Attitude,
        steering: Vec3,
        vehicle: Vehicle,
    ) -> (Kinematics<Vec3>, Attitude) {
        let dt = self.dt;
        let (mut next, mut forward) = step_vehicle(agent, attitude.forward, steering, vehicle, dt);
        if dt == 0.0 {
            return (next, Attitude::new(forward, attitude.up));
        }
        let flight = &self.flight;
        if flight.limits() {
            let vel = flight.limit(next.vel, forward, vehicle.limits.max_speed);
            if vel != next.vel {
                next = Kinematics {
                    pos: finite_or_zero(finite_or_zero(agent.pos) + vel * dt),
                    vel,
                };
                forward = heading(vel, forward);
            }
        }
        let accel = (next.vel - finite_or_zero(agent.vel)) / dt;
        let attitude = self.bank(attitude, forward, accel, next.vel.length());
        (next, attitude)
    }
}

/// One step of a flyer: the model's step on `Vec3`
/// ([`step_vehicle`]), then the velocity held within `flight`'s limits
/// (the position moved by the velocity it keeps), then the attitude banked
/// by the acceleration the step made.
///
/// With the default [`Flight`], the kinematics are [`step_vehicle`]'s,
/// bit for bit: every number of the model holds for flyers, in any
/// direction.
///
/// ```
/// # use reynolds::{flight::{Attitude, Flight, step_flyer}, model::{Kinematics, Vehicle}};
/// # use glam::Vec3;
/// let still = Kinematics { pos: Vec3::ZERO, vel: Vec3::ZERO };
/// let (next, attitude) = step_flyer(still, Attitude::default(), Vec3::Y * 1000.0, Vehicle::default(), &Flight::default(), 0.5);
/// assert_eq!(next.vel, Vec3::new(0.0, 190.0, 0.0)); // 380 px/s² for 0.5 s
/// assert_eq!(attitude.forward, Vec3::Y);
/// ```
pub fn step_flyer(
    agent: Kinematics<Vec3>,
    attitude: Attitude,
    steering: Vec3,
    vehicle: Vehicle,
    flight: &Flight,
    dt: f32,
) -> (Kinematics<Vec3>, Attitude) {
    flight.step(dt).flyer(agent, attitude, steering, vehicle)
}
