//! Predictions made by running the model itself, for tuning tools.

use crate::behaviors::arrive;
use crate::math::{Vector, sanitize_dt};
use crate::model::{Kinematics, Limits, steering, step};

/// How far an arriver overshoots a still target, in pixels, found by
/// stepping the model: it starts `start_distance` px away, coming straight
/// in at `start_speed`, and runs for up to `seconds` at steps of `dt`.
///
/// Tuning tools show it beside the slowing radius: with the model's
/// numbers it is 0 at a 150 px radius and about 21 px at 50.
///
/// ```
/// # use reynolds::{model::Limits, predict::arrive_overshoot};
/// let quick = arrive_overshoot(Limits::default(), 0.15, 50.0, 400.0, 0.0, 1.0 / 60.0, 10.0);
/// assert!((quick - 21.0).abs() < 1.0);
/// assert_eq!(arrive_overshoot(Limits::default(), 0.15, 150.0, 400.0, 0.0, 1.0 / 60.0, 10.0), 0.0);
/// ```
pub fn arrive_overshoot(
    limits: Limits,
    response_time: f32,
    slowing_radius: f32,
    start_distance: f32,
    start_speed: f32,
    dt: f32,
    seconds: f32,
) -> f32 {
    let dt = sanitize_dt(dt);
    if dt == 0.0 || !start_distance.is_finite() {
        return 0.0;
    }
    // Bounded work whatever the input: at most 100,000 steps.
    let steps = (sanitize_dt(seconds) / dt).min(100_000.0) as usize;
    let mut agent = Kinematics {
        pos: Vector::new(-start_distance.abs(), 0.0),
        vel: Vector::new(
            if start_speed.is_finite() {
                start_speed
            } else {
                0.0
            },
            0.0,
        ),
    };
    let mut overshoot = 0.0f32;
    for _ in 0..steps {
        let desired = arrive(agent.pos, Vector::ZERO, limits.max_speed, slowing_radius);
        agent = step(
            agent,
            steering(desired, agent.vel, response_time),
            limits,
            dt,
        );
        overshoot = overshoot.max(agent.pos.x);
    }
    overshoot
}
