//! The systems of each stage of [`SteeringSystems`](crate::SteeringSystems).
//! Each is a thin loop over the core's pure functions.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use steering_core as model;

use crate::components::*;
use crate::settings::{AgentParams, SteeringSettings};

/// What an agent can read of any entity it steers toward or away from.
#[derive(QueryData)]
pub(crate) struct TargetData {
    position: Option<&'static Position>,
    velocity: Option<&'static Velocity>,
    measured: Option<&'static MeasuredVelocity>,
    global: Option<&'static GlobalTransform>,
}

impl TargetDataItem<'_, '_> {
    /// The target's position: its simulated [`Position`], else its
    /// [`GlobalTransform`]'s translation.
    fn position(&self) -> Option<Vec2> {
        self.position
            .map(|p| p.0)
            .or_else(|| self.global.map(|g| g.translation().truncate()))
    }

    /// The target's velocity: its [`Velocity`], else its measured one, else zero.
    fn velocity(&self) -> Vec2 {
        self.velocity
            .map(|v| v.0)
            .or_else(|| self.measured.map(|m| m.velocity))
            .unwrap_or(Vec2::ZERO)
    }
}

/// The last entity target looked up, and what was found: most agents chase
/// the same entity, and a query lookup costs more than the steering.
type TargetCache = Option<(Entity, Option<(Vec2, Vec2)>)>;

/// The position and velocity of `target`, or `None` if it is an entity that
/// no longer exists (or has no position).
#[inline]
fn resolve(
    target: Target,
    targets: &Query<TargetData>,
    cache: &mut TargetCache,
) -> Option<(Vec2, Vec2)> {
    match target {
        Target::Point(point) => Some((point, Vec2::ZERO)),
        Target::Entity(entity) => {
            if let Some((cached, found)) = *cache
                && cached == entity
            {
                return found;
            }
            let found = targets
                .get(entity)
                .ok()
                .and_then(|data| Some((data.position()?, data.velocity())));
            *cache = Some((entity, found));
            found
        }
    }
}

/// Logs every problem of the settings once, when they change.
pub(crate) fn validate_settings(settings: Res<SteeringSettings>) {
    if settings.is_changed() {
        for problem in settings.problems() {
            warn!("{problem}");
        }
    }
}

/// Logs every problem of an agent's overrides once, when they change.
pub(crate) fn validate_overrides(
    overrides: Query<(Entity, &SteeringOverride), Changed<SteeringOverride>>,
) {
    for (entity, overrides) in &overrides {
        for problem in overrides.problems() {
            warn!("agent {entity}: {problem}");
        }
    }
}

/// Measures the velocity of every entity with a [`MeasuredVelocity`].
pub(crate) fn measure_velocities(
    time: Res<Time>,
    mut measured: Query<(
        &mut MeasuredVelocity,
        Option<&Position>,
        Option<&GlobalTransform>,
    )>,
) {
    let dt = time.delta_secs();
    for (mut measured, position, global) in &mut measured {
        let Some(pos) = position
            .map(|p| p.0)
            .or_else(|| global.map(|g| g.translation().truncate()))
        else {
            continue;
        };
        let last = measured.last_position.unwrap_or(pos);
        // As the chapter does, no division when no time has passed; the
        // position is kept for the next measurement either way.
        measured.velocity =
            model::measured_velocity(measured.velocity, last, pos, dt, measured.half_life);
        measured.last_position = Some(pos);
    }
}

/// One part's desired velocity. `None` if its target is gone.
#[inline]
fn desired_velocity(
    steer: Steer,
    kinematics: model::Kinematics,
    params: &AgentParams,
    targets: &Query<TargetData>,
    cache: &mut TargetCache,
    wander: &mut (Mut<WanderAngle>, Mut<WanderRng>),
    dt: f32,
) -> Option<Vec2> {
    let model::Kinematics { pos, vel } = kinematics;
    let max_speed = params.limits.max_speed;
    Some(match steer {
        Steer::Seek(target) => model::seek(pos, resolve(target, targets, cache)?.0, max_speed),
        Steer::Arrive(target) => model::arrive(
            pos,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.slowing_radius,
        ),
        Steer::Flee(target) => model::flee(
            pos,
            vel,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.panic_radius,
        ),
        Steer::Pursue(target) => {
            let (target_pos, target_vel) = resolve(target, targets, cache)?;
            model::pursue(pos, target_pos, target_vel, max_speed)
        }
        Steer::Evade(target) => {
            let (threat, threat_vel) = resolve(target, targets, cache)?;
            model::evade(pos, vel, threat, threat_vel, max_speed, params.panic_radius)
        }
        Steer::Wander => {
            let (angle, rng) = wander;
            angle.0 = model::wander_step(angle.0, dt, params.wander_rate, rng.unit());
            model::wander(angle.0, max_speed)
        }
    })
}

/// [`SteeringSystems::Desire`](crate::SteeringSystems::Desire): each agent's
/// behaviors choose their desired velocities, and their weighted mean is kept.
pub(crate) fn desire(
    settings: Res<SteeringSettings>,
    time: Res<Time>,
    targets: Query<TargetData>,
    mut agents: Query<
        (
            Entity,
            &Position,
            &Velocity,
            &Behavior,
            Option<&SteeringOverride>,
            &mut WanderAngle,
            &mut WanderRng,
            &mut DesiredVelocity,
        ),
        With<SteeringAgent>,
    >,
) {
    let dt = time.delta_secs();
    agents.par_iter_mut().for_each_init(
        || None,
        |cache: &mut TargetCache,
         (entity, pos, vel, behavior, overrides, angle, rng, mut desired)| {
            let params = settings.params(overrides);
            let kinematics = model::Kinematics {
                pos: pos.0,
                vel: vel.0,
            };
            // Kept as `Mut`: only a wandering part writes them (and marks
            // them changed).
            let mut wander = (angle, rng);
            let mut weighted = Vec2::ZERO;
            let mut total = 0.0;
            behavior.for_each_part(settings.graze_flee_weight, |weight, steer| {
                let part =
                    desired_velocity(steer, kinematics, &params, &targets, cache, &mut wander, dt)
                        .unwrap_or_else(|| {
                            warn_once!(
                                "agent {entity} steers toward an entity that no longer exists \
                             (or has no Position or GlobalTransform); that part of its behavior \
                             asks for no steering"
                            );
                            vel.0
                        });
                weighted += part * weight;
                total += weight;
            });
            // One part of weight 1 keeps its desire exactly, as the chapter
            // computes it; a blend keeps the weighted mean, which asks for the
            // same summed steering.
            desired.0 = if total == 1.0 {
                weighted
            } else if total > 0.0 {
                model::finite_or_zero(weighted / total)
            } else {
                vel.0
            };
        },
    );
}

/// [`SteeringSystems::Steer`](crate::SteeringSystems::Steer): the summed
/// steering, `total_weight * (desired - vel) / response_time`, which is the
/// sum of each part's weighted steering.
pub(crate) fn steer(
    settings: Res<SteeringSettings>,
    mut agents: Query<
        (
            &Velocity,
            &Behavior,
            &DesiredVelocity,
            Option<&SteeringOverride>,
            &mut SteeringForce,
        ),
        With<SteeringAgent>,
    >,
) {
    agents
        .par_iter_mut()
        .for_each(|(vel, behavior, desired, overrides, mut force)| {
            let response_time = overrides
                .and_then(|o| o.response_time)
                .unwrap_or(settings.response_time);
            let weight = behavior.total_weight(settings.graze_flee_weight);
            force.0 = model::steering(desired.0, vel.0, response_time) * weight;
        });
}

/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate): the
/// steering capped once at the max force, the speed at the max speed, and
/// semi-implicit Euler.
pub(crate) fn integrate(
    settings: Res<SteeringSettings>,
    time: Res<Time>,
    mut agents: Query<
        (
            &mut Position,
            &mut PreviousPosition,
            &mut Velocity,
            &SteeringForce,
            Option<&SteeringOverride>,
        ),
        With<SteeringAgent>,
    >,
) {
    let dt = time.delta_secs();
    agents
        .par_iter_mut()
        .for_each(|(mut pos, mut previous, mut vel, force, overrides)| {
            let limits = settings.params(overrides).limits;
            let next = model::step(
                model::Kinematics {
                    pos: pos.0,
                    vel: vel.0,
                },
                force.0,
                limits,
                dt,
            );
            previous.0 = pos.0;
            pos.0 = next.pos;
            vel.0 = next.vel;
        });
}

/// [`SteeringSystems::Wrap`](crate::SteeringSystems::Wrap): off one edge,
/// back on at the opposite one.
pub(crate) fn wrap(
    settings: Res<SteeringSettings>,
    mut agents: Query<(&mut Position, &mut PreviousPosition), With<SteeringAgent>>,
) {
    let Some(rect) = settings.wrap else {
        return;
    };
    agents.par_iter_mut().for_each(|(mut pos, mut previous)| {
        let (wrapped, shift) = model::wrap(pos.0, rect.min, rect.max);
        if shift != Vec2::ZERO {
            pos.0 = wrapped;
            // Move the interpolation's start with it, so the wrap is not
            // drawn as a streak across the world.
            previous.0 += shift;
        }
    });
}

/// [`SteeringSystems::Heading`](crate::SteeringSystems::Heading): agents
/// face the way they move, and keep their heading when nearly still.
pub(crate) fn face_velocity(mut agents: Query<(&Velocity, &mut Heading), With<SteeringAgent>>) {
    agents.par_iter_mut().for_each(|(vel, mut heading)| {
        let next = model::heading(vel.0, heading.0.as_vec2());
        if next != heading.0.as_vec2() {
            // `model::heading` returns a unit vector.
            heading.0 = Dir2::new_unchecked(next);
        }
    });
}

/// [`SteeringSystems::Trail`](crate::SteeringSystems::Trail): every
/// `trail_interval` seconds of simulated time, by one [`TrailClock`], each
/// trail adds where its agent is, keeping the last `trail_length` places.
pub(crate) fn sample_trails(
    settings: Res<SteeringSettings>,
    time: Res<Time>,
    mut clock: ResMut<TrailClock>,
    mut trails: Query<(&Position, &mut Trail)>,
) {
    let dt = model::sanitize_dt(time.delta_secs());
    let interval = settings.trail_interval;
    clock.since_last_sample += dt;
    if interval.is_finite() && interval > 0.0 {
        if clock.since_last_sample < interval {
            return;
        }
        clock.since_last_sample -= interval;
        // After a long pause, do not try to catch up sample by sample.
        clock.since_last_sample = clock.since_last_sample.min(interval);
    } else {
        // A bad interval samples once a step rather than never or forever.
        clock.since_last_sample = 0.0;
    }
    let length = settings.trail_length;
    trails.par_iter_mut().for_each(|(pos, mut trail)| {
        if length == 0 {
            if !trail.points.is_empty() {
                trail.points.clear();
            }
            return;
        }
        while trail.points.len() >= length {
            trail.points.pop_front();
        }
        trail.points.push_back(pos.0);
    });
}

/// Writes each agent's [`Transform`] from its simulated state, once a frame
/// after the fixed steps: the position interpolated between the last two
/// steps by how far the frame is into the next one, and the rotation from
/// its heading.
pub(crate) fn sync_transforms(
    interpolate: Res<crate::plugin::InterpolateTransforms>,
    fixed: Res<Time<Fixed>>,
    mut agents: Query<
        (&Position, &PreviousPosition, &Heading, &mut Transform),
        With<SteeringAgent>,
    >,
) {
    let alpha = if interpolate.0 {
        fixed.overstep_fraction().clamp(0.0, 1.0)
    } else {
        1.0
    };
    agents
        .par_iter_mut()
        .for_each(|(pos, previous, heading, mut transform)| {
            let drawn = previous.0.lerp(pos.0, alpha);
            transform.translation.x = drawn.x;
            transform.translation.y = drawn.y;
            transform.rotation = heading.rotation();
        });
}
