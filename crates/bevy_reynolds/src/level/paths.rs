//! Paths: a shared polyline an agent follows, seeking a point a little
//! ahead of a cursor that only moves forward.

use std::sync::Arc;

use bevy::prelude::*;
use reynolds::math::{finite_or_zero, sanitize_limit};
use reynolds::path::{Polyline, follow_path};

use bevy::ecs::component::Mutable;

use crate::agent::{AgentSpace, SteeringAgent, SteeringParams, SteeringPriority};
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

/// A path follower of either space: a walker's [`FollowPath`] or a
/// flyer's [`FlyerFollowPath`](crate::FlyerFollowPath), which
/// [`follow_paths`] moves along the same way.
pub(crate) trait PathFollower<V>: Component<Mutability = Mutable> {
    /// The path, its width, the cursor and the last aim.
    fn parts(&mut self) -> (&Polyline<V>, f32, &mut f32, &mut V);
}

impl PathFollower<Vector> for FollowPath {
    fn parts(&mut self) -> (&Polyline<Vector>, f32, &mut f32, &mut Vector) {
        (&self.path, self.radius, &mut self.cursor, &mut self.aim)
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each path follower seeks along its path, in [`SteeringPriority::Normal`].
pub(crate) fn follow_paths<V: AgentSpace, F: PathFollower<V>>(
    mut agents: Query<
        (
            &V::Position,
            &V::Velocity,
            &SteeringParams,
            &mut F,
            &mut V::Accumulator,
        ),
        With<V::Marker>,
    >,
) {
    for_each(
        CHEAP,
        &mut agents,
        |(pos, vel, params, mut follow, mut steering)| {
            let (pos, vel) = (**pos, **vel);
            let speed = finite_or_zero(vel).length();
            // Read through the change-detecting pointer: written below only
            // if it moved.
            let (path, radius, cursor, aim) = follow.bypass_change_detection().parts();
            let look = (speed * params.look_ahead_time)
                .max(params.min_look_ahead)
                .max(sanitize_limit(radius));
            let step = follow_path(
                path,
                pos,
                vel,
                *cursor,
                params.max_speed,
                params.slowing_radius,
                look,
            );
            let moved = *cursor != step.cursor || *aim != step.aim;
            (*cursor, *aim) = (step.cursor, step.aim);
            if moved {
                follow.set_changed();
            }
            steering.add_desired(
                SteeringPriority::Normal.group(),
                1.0,
                step.desired,
                vel,
                params.response_time,
            );
        },
    );
}
