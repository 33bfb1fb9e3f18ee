//! The flyers' step: each one's accumulated steering combined into one
//! force and moved by the model in 3D ([`step_flyer`]), within its
//! [`FlightParams`], its attitude banked; and its [`Transform`] written.

use bevy::prelude::*;
use reynolds::flight::Flight;
use reynolds::math::finite_or_zero;
use reynolds::model::Kinematics;

use super::components::{FlightParams, FlyerAttitude, SteeringFlyer};
use super::components::{FlyerAccumulator, FlyerPosition, FlyerPreviousPosition, FlyerVelocity};
use crate::agent::{InterpolateTransforms, SteeringParams, Writeback, drawn_at, interpolation};
use crate::parallel::{CHEAP, for_each, for_each_init};

/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate) for
/// flyers: as walkers, the combined force capped once at the max force,
/// divided by the mass, the speed capped, the turn limited, semi-implicit
/// Euler; then the flight's limits and the banking
/// ([`step_flyer`](reynolds::flight::step_flyer)).
pub(crate) fn integrate_flyers(
    writeback: Res<Writeback>,
    time: Res<Time>,
    mut flyers: Query<
        (
            &mut FlyerPosition,
            &mut FlyerPreviousPosition,
            &mut FlyerVelocity,
            &mut FlyerAttitude,
            &FlyerAccumulator,
            &SteeringParams,
            &FlightParams,
        ),
        With<SteeringFlyer>,
    >,
) {
    let dt = time.delta_secs();
    // With a physics engine, it moves the flyers: steering only chooses
    // their velocities.
    let moves = *writeback != Writeback::Physics;
    // Each flight's step worked out once (a power a flyer, else), for the
    // flyers that share it: most share the default.
    for_each_init(
        CHEAP,
        &mut flyers,
        || Flight::default().step(dt),
        |step, (mut pos, mut previous, mut vel, mut attitude, steering, params, flight)| {
            if step.flight != flight.0 {
                *step = flight.0.step(dt);
            }
            let force = params.combine.apply(&steering.0);
            let kinematics = Kinematics {
                pos: pos.0,
                vel: vel.0,
            };
            let (next, turned) = step.flyer(kinematics, attitude.0, force, params.vehicle());
            previous.0 = finite_or_zero(pos.0);
            pos.0 = if moves { next.pos } else { previous.0 };
            vel.0 = next.vel;
            if turned != attitude.0 {
                attitude.0 = turned;
            }
        },
    );
}

/// Writes each flyer's [`Transform`]: its position interpolated between
/// the last two steps, as walkers', and its rotation from its attitude.
pub(crate) fn sync_flyer_transforms(
    interpolate: Res<InterpolateTransforms>,
    writeback: Res<Writeback>,
    fixed: Res<Time<Fixed>>,
    mut flyers: Query<
        (
            &FlyerPosition,
            &FlyerPreviousPosition,
            &FlyerAttitude,
            &mut Transform,
        ),
        With<SteeringFlyer>,
    >,
) {
    if *writeback != Writeback::Transform {
        return;
    }
    let alpha = interpolation(&interpolate, &fixed);
    for_each(
        CHEAP,
        &mut flyers,
        |(pos, previous, attitude, mut transform)| {
            let drawn = drawn_at(previous.0, pos.0, alpha);
            if drawn.is_finite() {
                transform.translation = drawn;
            }
            transform.rotation = attitude.rotation();
        },
    );
}
