//! Members holding their places.

use bevy::prelude::*;
use reynolds::behaviors::offset_pursuit;
use reynolds::model::braking_distance;

use super::{FormationPlace, FormationState};
use crate::agent::{
    AgentPosition, AgentVelocity, SteeringAccumulator, SteeringParams, SteeringPriority,
};
use crate::math::Vector;

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each member arrives at its place and moves with it
/// ([`offset_pursuit`]), in [`SteeringPriority::Normal`], slowing only within its
/// braking distance of it (64 px for the model's agent), not the
/// arrivers' slowing radius (150 px): it comes at a place that moves with
/// it, so it closes at no more than the two speeds' difference, and from
/// 150 px off it would take 3 s to settle within 2 px, against 1 s.
pub(super) fn hold_places(
    mut members: Query<(
        &AgentPosition,
        &AgentVelocity,
        &SteeringParams,
        &FormationPlace,
        &mut SteeringAccumulator,
    )>,
) {
    for (pos, vel, params, place, mut steering) in &mut members {
        let Some((place, place_vel)) = place.place else {
            continue;
        };
        let braking = braking_distance(params.max_speed, params.max_force / params.mass);
        let slowing = if braking > 0.0 {
            braking.min(params.slowing_radius)
        } else {
            params.slowing_radius
        };
        let desired = offset_pursuit(pos.0, place, place_vel, params.max_speed, slowing);
        steering.add_desired(
            SteeringPriority::Normal,
            1.0,
            desired,
            vel.0,
            params.response_time,
        );
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// a leader whose members are out of place is held back, by a wish to
/// stand weighted `(1 - pace) / pace`, so that beside one of its behaviors
/// of weight 1 it walks at `pace` of the speed that behavior asks.
pub(super) fn pace_leaders(
    mut leaders: Query<(
        &AgentVelocity,
        &SteeringParams,
        &FormationState,
        &mut SteeringAccumulator,
    )>,
) {
    for (vel, params, state, mut steering) in &mut leaders {
        if state.pace < 1.0 && state.pace > 0.0 {
            let weight = (1.0 - state.pace) / state.pace;
            steering.add_desired(
                SteeringPriority::Normal,
                weight,
                Vector::ZERO,
                vel.0,
                params.response_time,
            );
        }
    }
}
