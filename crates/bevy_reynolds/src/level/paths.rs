//! Paths: a shared polyline an agent follows, seeking a point a little
//! ahead of a cursor that only moves forward.

use std::sync::Arc;

use bevy::prelude::*;
use reynolds::math::{finite_or_zero, sanitize_limit};
use reynolds::path::{Polyline, follow_path};

use crate::agent::{
    AgentPosition, AgentVelocity, SteeringAccumulator, SteeringAgent, SteeringParams,
    SteeringPriority,
};
use crate::math::Vector;
use crate::parallel::{CHEAP, for_each};

/// A path to follow: the engine-free [`Polyline`], shared between followers
/// with an [`Arc`].
pub type SteeringPath = Polyline;

/// Follows a path: seeks a point a little ahead of its cursor, which only
/// moves forward (see [`follow_path`]). Its steering
/// goes into [`SteeringPriority::Normal`], with the agent's [`SteeringBehavior`] if it has
/// one (give it none, or `SteeringBehavior::Idle`, to only follow).
///
/// [`SteeringBehavior`]: crate::SteeringBehavior
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringAgent)]
pub struct FollowPath {
    /// The path, shared.
    #[reflect(ignore)]
    pub path: Arc<SteeringPath>,
    /// How far off the path counts as on it, in pixels: the cursor looks at
    /// least this far ahead.
    pub radius: f32,
    /// How far along the path the agent is, in pixels of arc length (past
    /// the length on a looped path: each lap adds the length).
    pub cursor: f32,
    /// Where the agent aimed in its last step.
    pub aim: Vector,
}

impl FollowPath {
    /// Follows `path`, `radius` wide, from its start.
    pub fn new(path: Arc<SteeringPath>, radius: f32) -> Self {
        Self {
            path,
            radius,
            cursor: 0.0,
            aim: Vector::ZERO,
        }
    }

    /// How many laps of a looped path the cursor has made.
    pub fn laps(&self) -> u32 {
        if self.path.is_looped() && self.path.length() > 0.0 {
            (self.cursor / self.path.length()) as u32
        } else {
            0
        }
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each path follower seeks along its path, in [`SteeringPriority::Normal`].
pub(super) fn follow_paths(
    mut agents: Query<
        (
            &AgentPosition,
            &AgentVelocity,
            &SteeringParams,
            &mut FollowPath,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
) {
    for_each(
        CHEAP,
        &mut agents,
        |(pos, vel, params, mut follow, mut steering)| {
            let speed = finite_or_zero(vel.0).length();
            let look = (speed * params.look_ahead_time)
                .max(params.min_look_ahead)
                .max(sanitize_limit(follow.radius));
            let step = follow_path(
                &follow.path,
                pos.0,
                vel.0,
                follow.cursor,
                params.max_speed,
                params.slowing_radius,
                look,
            );
            if follow.cursor != step.cursor || follow.aim != step.aim {
                follow.cursor = step.cursor;
                follow.aim = step.aim;
            }
            steering.add_desired(
                SteeringPriority::Normal,
                1.0,
                step.desired,
                vel.0,
                params.response_time,
            );
        },
    );
}
