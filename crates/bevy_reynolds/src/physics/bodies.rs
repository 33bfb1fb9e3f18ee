//! The body's place and velocity to the agent before the step, the chosen
//! velocity and heading to the body after it.

use avian2d::prelude::{Collider, LinearVelocity, Position, RigidBody, Rotation};
use bevy::prelude::*;

use super::{ColliderAgents, radius_from};
use crate::agent::{AgentHeading, AgentPosition, AgentVelocity, SteeringAgent};

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// each agent where its body is, at its body's velocity.
pub(super) fn bodies_to_agents(
    mut agents: Query<
        (
            &Position,
            &LinearVelocity,
            &mut AgentPosition,
            &mut AgentVelocity,
        ),
        With<SteeringAgent>,
    >,
    lost: Query<Entity, (Added<SteeringAgent>, Without<RigidBody>)>,
) {
    if let Some(entity) = lost.iter().next() {
        warn_once!(
            "agent {entity} has no avian RigidBody: with SteeringAvian2dPlugin, avian moves the agents, and this one will not move"
        );
    }
    for (body, body_velocity, mut pos, mut vel) in &mut agents {
        if body.0.is_finite() {
            pos.set_if_neq(AgentPosition(body.0));
        }
        if body_velocity.0.is_finite() {
            vel.set_if_neq(AgentVelocity(body_velocity.0));
        }
    }
}

/// After [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate):
/// each body at the velocity steering chose, facing the agent's heading.
pub(super) fn agents_to_bodies(
    mut agents: Query<
        (
            &AgentVelocity,
            &AgentHeading,
            &mut LinearVelocity,
            &mut Rotation,
        ),
        (With<SteeringAgent>, With<RigidBody>),
    >,
) {
    for (vel, heading, mut body_velocity, mut rotation) in &mut agents {
        body_velocity.set_if_neq(LinearVelocity(vel.0));
        let facing = heading.0.as_vec2();
        rotation.set_if_neq(Rotation::from_sin_cos(facing.y, facing.x));
    }
}

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// each agent whose radius is 0 takes the radius of the circle round its
/// collider (about the body's origin), kept in step as the collider
/// changes; a radius the game sets stays.
pub(super) fn radius_from_collider(mut agents: ColliderAgents<Collider>, mut commands: Commands) {
    radius_from(&mut agents, &mut commands, |collider: &Collider| {
        let round = collider.shape_scaled().compute_local_bounding_sphere();
        round.center.length() + round.radius
    });
}
