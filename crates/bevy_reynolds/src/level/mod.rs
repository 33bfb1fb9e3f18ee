//! A level ([`SteeringLevelPlugin`]): [`SteeringObstacle`]s (rocks and walls) every
//! agent steers round, [`Containment`] that keeps an agent inside an area,
//! [`FollowPath`], and [`Hide`] behind its obstacles.

mod avoid_obstacles;
mod containment;
mod hide;
mod obstacles;
mod paths;

use bevy::prelude::*;

pub(crate) use avoid_obstacles::AvoidanceMemory;
pub(crate) use avoid_obstacles::{NoLookAhead, RouteKeepsClear};
pub use containment::Containment;
pub use hide::Hide;
pub(crate) use obstacles::placer;
pub use obstacles::{IgnoreObstacles, ObstacleIndex, SteeringObstacle};
pub use paths::{FollowPath, SteeringPath};
pub(crate) use paths::{PathFollower, follow_paths};

use crate::agent::SteeringAgent;
use crate::schedule::{SteeringSchedule, StepSystems};

/// A level: the [`ObstacleIndex`] made in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare); path
/// following and [`Hide`], then obstacle avoidance and containment, in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors), after
/// the agents' behaviors and flocking. Every agent remembers the side it
/// passes an obstacle on. Needs [`SteeringAgentPlugin`] first (as in
/// [`SteeringPlugins`](crate::SteeringPlugins)).
///
/// ```
/// use std::sync::Arc;
/// use bevy::prelude::*;
/// use bevy_reynolds::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
/// // A rock, placed by its Transform (or an AgentPosition).
/// app.world_mut().spawn((SteeringObstacle::circle(40.0), Transform::from_xyz(200.0, 0.0, 0.0)));
/// // A wall, its ends relative to where the entity is.
/// app.world_mut().spawn((SteeringObstacle::wall(Vec2::new(0.0, -100.0), Vec2::new(0.0, 100.0)), Transform::from_xyz(500.0, 0.0, 0.0)));
/// // A patroller on a loop, kept inside a field.
/// let beat = Arc::new(SteeringPath::new([Vec2::ZERO, Vec2::new(300.0, 0.0), Vec2::new(300.0, 200.0)], true));
/// app.world_mut().spawn((
///     SteeringAgent,
///     FollowPath::new(beat, 20.0),
///     Containment::rect(Vec2::new(-400.0, -300.0), Vec2::new(400.0, 300.0)),
///     AgentPosition::new(0.0, 0.0),
/// ));
/// app.update();
/// ```
///
/// Avoidance and containment ask for their steering in
/// [`SteeringPriority::Critical`](crate::SteeringPriority::Critical). With
/// [`Combine::Priority`](crate::Combine::Priority) that group wins
/// whenever it asks for anything; with the weighted sum (the default), an
/// avoiding agent's steering *replaces* the sum of the rest while it avoids,
/// since any other behavior pulling the other way would otherwise outvote it
/// and take the agent into the rock.
///
/// An avoiding agent looks ahead along its velocity (and, when that is
/// clear, along where it means to go), picks a side to pass on and keeps it
/// while the same obstacle is in the way, then takes the way round that
/// gets it farthest toward where it means to go
/// ([`best_way`](reynolds::level::best_way)), no faster than it can stop within
/// what it sees free ([`stopping_speed`](reynolds::level::stopping_speed)): in a
/// corridor, it goes on along it, slowing for the bend, and turns into the
/// bend once it sees it clear. A wanderer that meets something has its
/// [`WanderAngle`](crate::WanderAngle) mirrored off it, so it wanders away instead of sliding
/// along the wall (the model's wander angle is absolute, and would
/// otherwise keep pointing into it).
///
/// [`SteeringAgentPlugin`]: crate::SteeringAgentPlugin
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringLevelPlugin;

impl Plugin for SteeringLevelPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringLevelPlugin");
        app.register_type::<SteeringObstacle>()
            .register_type::<Containment>()
            .register_type::<FollowPath>()
            .register_type::<IgnoreObstacles>()
            .register_type::<Hide>()
            .register_type::<AvoidanceMemory>()
            .register_required_components::<SteeringAgent, AvoidanceMemory>()
            .init_resource::<ObstacleIndex>()
            .add_systems(
                schedule,
                (
                    (
                        obstacles::validate_obstacles
                            .run_if(any_with_component::<SteeringObstacle>),
                        obstacles::index_obstacles.run_if(obstacles::index_wanted),
                    )
                        .chain()
                        .in_set(StepSystems::Index),
                    paths::follow_paths::<Vec2, FollowPath>
                        .run_if(any_with_component::<FollowPath>)
                        .in_set(StepSystems::FollowPaths),
                    hide::hide
                        .run_if(any_with_component::<Hide>)
                        .in_set(StepSystems::Hide),
                    avoid_obstacles::avoid_obstacles
                        .run_if(avoid_obstacles::anything_to_avoid)
                        .in_set(StepSystems::AvoidObstacles),
                ),
            );
    }
}
