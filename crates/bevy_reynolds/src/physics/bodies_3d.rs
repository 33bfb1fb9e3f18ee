//! The 3D body's place and velocity to the agent on the ground before the
//! step, the chosen velocity and heading to the body after it.

use avian3d::prelude::{Gravity, LinearVelocity, Position as BodyPosition, RigidBody, Rotation};
use bevy::prelude::*;

use crate::agent::{GroundPlane, Heading, Position, SteeringAgent, Velocity};

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// each agent where its body is on the ground, at its body's velocity
/// along the ground.
pub(super) fn bodies_to_agents(
    ground: Res<GroundPlane>,
    gravity: Option<Res<Gravity>>,
    mut agents: Query<
        (&BodyPosition, &LinearVelocity, &mut Position, &mut Velocity),
        With<SteeringAgent>,
    >,
    lost: Query<Entity, (Added<SteeringAgent>, Without<RigidBody>)>,
) {
    if let Some(entity) = lost.iter().next() {
        warn_once!(
            "agent {entity} has no avian RigidBody: with SteeringAvian3dPlugin, avian moves the agents, and this one will not move"
        );
    }
    if let Some(gravity) = gravity.filter(|g| g.is_changed() || ground.is_changed()) {
        // A y-up world with agents on the XY plane (the default ground):
        // they would steer up and down.
        let down = gravity.0.normalize_or_zero();
        if down != Vec3::ZERO && down.dot(ground.up()).abs() < 0.9 {
            warn_once!(
                "SteeringAvian3dPlugin: gravity {} pulls along the agents' ground, {:?}; agents walk on the plane gravity pulls them onto (for a y-up world, SteeringPlugins::default().with_ground(GroundPlane::Xz))",
                gravity.0,
                *ground
            );
        }
    }
    for (body, body_velocity, mut pos, mut vel) in &mut agents {
        if body.0.is_finite() {
            pos.set_if_neq(Position(ground.to_ground(body.0)));
        }
        if body_velocity.0.is_finite() {
            vel.set_if_neq(Velocity(ground.to_ground(body_velocity.0)));
        }
    }
}

/// After [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate):
/// each body at the velocity steering chose along the ground (its up
/// component, gravity's, left as avian has it), turned about the up axis
/// to face the agent's heading.
pub(super) fn agents_to_bodies(
    ground: Res<GroundPlane>,
    mut agents: Query<
        (&Velocity, &Heading, &mut LinearVelocity, &mut Rotation),
        (With<SteeringAgent>, With<RigidBody>),
    >,
) {
    for (vel, heading, mut body_velocity, mut rotation) in &mut agents {
        let along = ground.place(vel.0, body_velocity.0);
        body_velocity.set_if_neq(LinearVelocity(along));
        rotation.set_if_neq(Rotation(ground.rotation(heading.0)));
    }
}
