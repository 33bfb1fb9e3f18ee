//! The 3D body's place and velocity to the agent on the ground before the
//! step, the chosen velocity and heading to the body after it.

use avian3d::parry::math::Pose;
use avian3d::parry::shape::{Shape, TypedShape};
use avian3d::prelude::{Collider, Gravity, LinearVelocity, Position, RigidBody, Rotation};
use bevy::prelude::*;

use super::{ColliderAgents, radius_from};
use crate::agent::{AgentHeading, AgentPosition, AgentVelocity, GroundPlane, SteeringAgent};
use crate::math::Vector;

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// each agent where its body is on the ground, at its body's velocity
/// along the ground.
pub(super) fn bodies_to_agents(
    ground: Res<GroundPlane>,
    gravity: Option<Res<Gravity>>,
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
            pos.set_if_neq(AgentPosition(ground.to_ground(body.0)));
        }
        if body_velocity.0.is_finite() {
            vel.set_if_neq(AgentVelocity(ground.to_ground(body_velocity.0)));
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
        let along = ground.place(vel.0, body_velocity.0);
        body_velocity.set_if_neq(LinearVelocity(along));
        rotation.set_if_neq(Rotation(ground.rotation(heading.0)));
    }
}

/// Ground directions a collider's footprint is measured along.
const FOOTPRINT_DIRECTIONS: usize = 16;

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// each agent whose radius is 0 takes the radius of the circle round its
/// collider's footprint on the ground (about the body's origin: an upright
/// capsule's is its radius), kept in step as the collider changes; a
/// radius the game sets stays.
pub(super) fn radius_from_collider(
    ground: Res<GroundPlane>,
    mut agents: ColliderAgents<Collider>,
    mut commands: Commands,
) {
    let ground = *ground;
    radius_from(&mut agents, &mut commands, |collider: &Collider| {
        footprint_radius(collider.shape_scaled().as_ref(), Pose::IDENTITY, ground)
    });
}

/// How far from the body's origin `shape`, placed by `pose`, reaches on the
/// ground: the farthest of its points farthest along
/// [`FOOTPRINT_DIRECTIONS`] ground directions (a ball's, a cylinder's and
/// an upright capsule's radius, a box's corner), each part of a compound,
/// and a shape with no such points the sphere round it.
fn footprint_radius(shape: &dyn Shape, pose: Pose, ground: GroundPlane) -> f32 {
    if let TypedShape::Compound(compound) = shape.as_typed_shape() {
        return compound
            .shapes()
            .iter()
            .map(|(part_pose, part)| footprint_radius(part.as_ref(), pose * *part_pose, ground))
            .fold(0.0, f32::max);
    }
    match shape.as_support_map() {
        Some(support) => (0..FOOTPRINT_DIRECTIONS)
            .map(|k| {
                let along = Vector::from_angle(
                    std::f32::consts::TAU * k as f32 / FOOTPRINT_DIRECTIONS as f32,
                );
                let farthest = support.support_point(&pose, ground.place(along, Vec3::ZERO));
                ground.to_ground(farthest).length()
            })
            .fold(0.0, f32::max),
        None => {
            let round = shape.compute_bounding_sphere(&pose);
            ground.to_ground(round.center).length() + round.radius
        }
    }
}
