#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod agent;
mod crowd;
mod flocking;
mod formation;
mod level;
mod math;
mod navigation;
mod passes;
mod schedule;

#[cfg(feature = "inspector")]
pub mod inspector;
#[cfg(any(feature = "avian2d", feature = "avian3d"))]
pub mod physics;
#[cfg(feature = "render")]
pub mod render;

use bevy::app::{PluginGroup, PluginGroupBuilder};
use bevy::ecs::schedule::ScheduleLabel;

/// The engine-free model the plugins run: pure functions on
/// [`Vector`]s, in modules named for what they hold
/// (`reynolds::model`, `::behaviors`, `::flock`, `::level`, `::spatial`).
pub use reynolds;

pub use agent::{
    Behavior, Combine, DEFAULT_SEED, DesiredVelocity, GroundPlane, Heading, InterpolateTransforms,
    MeasuredVelocity, Part, Position, PreviousPosition, Priority, SteeringAccumulator,
    SteeringAgent, SteeringAgentPlugin, SteeringForce, SteeringLengthUnit, SteeringParams,
    SteeringSeed, SteeringSettings, Target, Trail, TrailClock, Velocity, WanderAngle, WanderRng,
    Weighted, Writeback,
};
pub use crowd::{AvoidAgents, DoorTurn, SteeringCrowdPlugin, TakeTurns};
pub use flocking::{Flocking, NeighborGrid, SteeringFlockingPlugin};
pub use formation::{
    Formation, FormationPlace, FormationShape, FormationState, InFormation, SteeringFormationPlugin,
};
pub use level::{
    AvoidanceMemory, Containment, FollowPath, Hide, IgnoreObstacles, Obstacle, ObstacleIndex,
    SteeringLevelPlugin, SteeringPath,
};
pub use math::{Dir, Vector};
pub use navigation::{
    Arrived, Goal, MovingObstacle, Navigate, NavigationAreas, NavigationRoute, NavigationSettings,
    NavigationStatus, RouteEnd, STALL_AFTER, Stalled, SteeringNavigationPlugin, Unreachable,
};
pub use reynolds::crowd::AvoidParams;
pub use reynolds::flock::FlockParams;
pub use reynolds::spatial::GridAgent;
pub use schedule::{SteeringSchedule, SteeringSystems, run_one_fixed_step};

/// Every steering capability, one plugin each, as avian's `PhysicsPlugins`:
/// [`SteeringAgentPlugin`] (the agent and its step, which the others need),
/// [`SteeringFlockingPlugin`], [`SteeringCrowdPlugin`],
/// [`SteeringLevelPlugin`], [`SteeringNavigationPlugin`] and
/// [`SteeringFormationPlugin`]. One line adds
/// them all with the chapter's defaults; a game leaves a capability out
/// with `.build().disable::<…>()`.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_reynolds::prelude::*;
/// use bevy_reynolds::Position;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugins::default()))
///     .insert_resource(SteeringSettings {
///         agent: SteeringParams { response_time: 0.3, ..default() },
///         ..default()
///     });
/// app.world_mut().spawn((
///     SteeringAgent,
///     Behavior::Seek(Target::Point(Vec2::new(500.0, 350.0))),
///     Position::new(100.0, 100.0),
/// ));
/// app.update();
///
/// // No flocking in this game.
/// App::new().add_plugins((
///     MinimalPlugins,
///     SteeringPlugins::default().build().disable::<SteeringFlockingPlugin>(),
/// ));
/// ```
///
/// Run it elsewhere with [`SteeringPlugins::new`], e.g.
/// `SteeringPlugins::new(FixedPostUpdate)`, and get a fresh seed every run
/// with `SteeringPlugins::default().with_seed(rand::random())`. A 3D game
/// puts its agents on the ground with [`GroundPlane::Xz`], and a game whose
/// units are not pixels scales the defaults with
/// [`SteeringPlugins::with_length_unit`].
#[derive(Debug, Clone, Default)]
pub struct SteeringPlugins {
    agent: SteeringAgentPlugin,
}

impl SteeringPlugins {
    /// Steering in `schedule`. A fixed schedule (the default
    /// [`FixedUpdate`](bevy::prelude::FixedUpdate),
    /// or another one run by `FixedMain`) gets interpolated transforms; any
    /// other schedule writes them as they are.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            agent: SteeringAgentPlugin::new(schedule),
        }
    }

    /// The same plugins with another seed for the agents' wander streams.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.agent.seed = seed;
        self
    }

    /// The same plugins with agents on another plane.
    pub fn with_ground(mut self, ground: GroundPlane) -> Self {
        self.agent.ground = ground;
        self
    }

    /// The same plugins doing something else with each step's result.
    pub fn with_writeback(mut self, writeback: Writeback) -> Self {
        self.agent.writeback = writeback;
        self
    }

    /// The same plugins for a game whose units are `unit` of the chapter's
    /// pixels each (see [`SteeringLengthUnit`]): the default settings they
    /// add are scaled to match. Settings the app already has are kept.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// // A 3D game in metres, its creatures half a metre long.
    /// let mut app = App::new();
    /// app.add_plugins((
    ///     MinimalPlugins,
    ///     SteeringPlugins::default().with_ground(GroundPlane::Xz).with_length_unit(0.025),
    /// ));
    /// assert_eq!(app.world().resource::<SteeringSettings>().agent.max_speed, 5.5); // m/s
    /// ```
    pub fn with_length_unit(mut self, unit: f32) -> Self {
        self.agent.length_unit = unit;
        self
    }
}

impl PluginGroup for SteeringPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(self.agent)
            .add(SteeringFlockingPlugin)
            .add(SteeringCrowdPlugin)
            .add(SteeringLevelPlugin)
            .add(SteeringNavigationPlugin)
            .add(SteeringFormationPlugin)
    }
}

/// Everything a game needs to steer agents: `use bevy_reynolds::prelude::*;`.
///
/// It lives beside Bevy's prelude and a physics engine's: [`Position`] and
/// [`Velocity`] are left out, since avian's prelude has a `Position` and
/// bevy_rapier's a `Velocity`, and two globs with one name make every use of
/// it ambiguous (so are [`Vector`] and [`Dir`], avian's names too). Import
/// them by path where you need them, or rename them:
///
/// ```
/// # mod avian2d { pub mod prelude {
/// #     #[derive(bevy::prelude::Component)] pub struct Position(pub bevy::math::Vec2);
/// #     #[derive(bevy::prelude::Component)] pub struct Mass(pub f32);
/// #     #[derive(bevy::prelude::Component)] pub struct LinearVelocity(pub bevy::math::Vec2);
/// # } }
/// # mod bevy_rapier2d { pub mod prelude {
/// #     #[derive(bevy::prelude::Component)] pub struct Velocity { pub linvel: bevy::math::Vec2 }
/// # } }
/// use avian2d::prelude::*; // (here a stand-in with avian's names)
/// use bevy::prelude::*;
/// use bevy_rapier2d::prelude::*; // (and with bevy_rapier's)
/// use bevy_reynolds::prelude::*;
/// use bevy_reynolds::{Position as AgentPosition, Velocity as AgentVelocity};
///
/// fn each_its_own(agents: Query<(&AgentPosition, &AgentVelocity, &Heading)>, bodies: Query<(&Position, &Mass, &Velocity)>) {}
/// # App::new().add_systems(Update, each_its_own);
/// ```
pub mod prelude {
    pub use crate::SteeringPlugins;
    pub use crate::agent::{
        Behavior, Combine, DesiredVelocity, GroundPlane, Heading, MeasuredVelocity,
        PreviousPosition, Priority, SteeringAccumulator, SteeringAgent, SteeringAgentPlugin,
        SteeringForce, SteeringLengthUnit, SteeringParams, SteeringSettings, Target, Trail,
        WanderAngle, WanderRng, Weighted, Writeback,
    };
    pub use crate::crowd::{AvoidAgents, DoorTurn, SteeringCrowdPlugin, TakeTurns};
    pub use crate::flocking::{Flocking, NeighborGrid, SteeringFlockingPlugin};
    pub use crate::formation::{
        Formation, FormationPlace, FormationShape, FormationState, InFormation,
        SteeringFormationPlugin,
    };
    pub use crate::level::{
        Containment, FollowPath, Hide, IgnoreObstacles, Obstacle, ObstacleIndex,
        SteeringLevelPlugin, SteeringPath,
    };
    pub use crate::navigation::{
        Arrived, Goal, MovingObstacle, Navigate, NavigationStatus, Stalled,
        SteeringNavigationPlugin, Unreachable,
    };
    #[cfg(any(feature = "avian2d", feature = "avian3d"))]
    pub use crate::physics::ColliderObstacle;
    #[cfg(feature = "avian2d")]
    pub use crate::physics::SteeringAvianPlugin;
    #[cfg(feature = "avian3d")]
    pub use crate::physics::{ObstacleHeights, SteeringAvian3dPlugin};
    pub use crate::schedule::SteeringSystems;
    pub use reynolds::crowd::AvoidParams;
    pub use reynolds::flock::FlockParams;
}
