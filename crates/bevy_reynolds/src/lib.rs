#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod agent;
mod crowd;
mod flight;
mod flocking;
mod formation;
mod level;
mod math;
mod navigation;
mod parallel;
mod schedule;

#[cfg(feature = "inspector")]
pub mod inspector;
#[cfg(any(feature = "avian2d", feature = "avian3d"))]
pub mod physics;
#[cfg(feature = "render")]
pub mod render;

use bevy::app::{PluginGroup, PluginGroupBuilder};
use bevy::ecs::schedule::ScheduleLabel;

/// The engine-free model the plugins run: pure functions on `Vec2` and
/// `Vec3`, in modules named for what they hold (`reynolds::model`,
/// `::behaviors`, `::flight`, `::flock`, `::level`, `::spatial`).
pub use reynolds;

pub use agent::{
    AgentHeading, AgentPosition, AgentPreviousPosition, AgentTrail, AgentVelocity, Behavior,
    Combine, DEFAULT_SEED, DesiredVelocity, FlyerBehavior, FlyerTarget, GroundPlane,
    MeasuredVelocity, SteeringAccumulator, SteeringAgent, SteeringAgentPlugin, SteeringBehavior,
    SteeringForce, SteeringLengthUnit, SteeringParams, SteeringPriority, SteeringSeed,
    SteeringSettings, SteeringTarget, Target, WanderAngle, WanderRng, Weighted, Writeback,
};
#[doc(hidden)]
pub use agent::{InterpolateTransforms, Part};
#[doc(hidden)]
pub use crowd::DoorTurn;
pub use crowd::{AvoidAgents, SteeringCrowdPlugin, TakeTurns};
pub use flight::{
    FlightParams, FlyerAccumulator, FlyerAttitude, FlyerDesiredVelocity, FlyerFollowPath,
    FlyerForce, FlyerPath, FlyerPosition, FlyerPreviousPosition, FlyerVelocity,
    SteeringFlightPlugin, SteeringFlyer, WanderDirection,
};
pub use flocking::{
    Flocking, FlyerFlocking, FlyerNeighborGrid, NeighborGrid, SteeringFlockingPlugin,
};
pub use formation::{
    Formation, FormationPlace, FormationShape, FormationState, InFormation, SteeringFormationPlugin,
};
pub use level::{
    Containment, FollowPath, Hide, IgnoreObstacles, ObstacleIndex, SteeringLevelPlugin,
    SteeringObstacle, SteeringPath,
};
pub use navigation::{
    Arrived, MovingObstacle, Navigate, NavigationAreas, NavigationGoal, NavigationRoute,
    NavigationSettings, NavigationStatus, RouteEnd, STALL_AFTER, Stalled, SteeringNavigationPlugin,
    Unreachable,
};
pub use reynolds::crowd::AvoidParams;
pub use reynolds::flight::{Attitude, Flight};
pub use reynolds::flock::FlockParams;
#[doc(hidden)]
pub use schedule::run_one_fixed_step;
pub use schedule::{SteeringSchedule, SteeringSystems};

/// Every steering capability, one plugin each, as avian's `PhysicsPlugins`:
/// [`SteeringAgentPlugin`] (the agent and its step, which the others need),
/// [`SteeringFlockingPlugin`], [`SteeringCrowdPlugin`],
/// [`SteeringLevelPlugin`], [`SteeringNavigationPlugin`],
/// [`SteeringFormationPlugin`] and [`SteeringFlightPlugin`]. One line adds
/// them all with the model's defaults; a game leaves a capability out
/// with `.build().disable::<…>()`.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_reynolds::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugins::default()))
///     .insert_resource(SteeringSettings {
///         agent: SteeringParams { response_time: 0.3, ..default() },
///         ..default()
///     });
/// app.world_mut().spawn((
///     SteeringAgent,
///     SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(500.0, 350.0))),
///     AgentPosition::new(100.0, 100.0),
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

    /// The same plugins for a game with `units_per_metre` of its units to a
    /// metre, as avian's `with_length_unit` (see [`SteeringLengthUnit`]):
    /// the default settings they add are scaled to match (the default, 40,
    /// is the model's pixels). Settings the app already has are kept.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// // A 3D game in metres: its creatures half a metre long.
    /// let mut app = App::new();
    /// app.add_plugins((
    ///     MinimalPlugins,
    ///     SteeringPlugins::default().with_ground(GroundPlane::Xz).with_length_unit(1.0),
    /// ));
    /// assert_eq!(app.world().resource::<SteeringSettings>().agent.max_speed, 5.5); // m/s
    /// ```
    pub fn with_length_unit(mut self, units_per_metre: f32) -> Self {
        self.agent.length_unit = units_per_metre;
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
            .add(SteeringFlightPlugin)
    }
}

/// Everything a game needs to steer agents: `use bevy_reynolds::prelude::*;`.
///
/// It lives beside the preludes of Bevy and of a physics engine: no name in
/// it is also in those of bevy, avian2d, avian3d or bevy_rapier (the
/// agent's state is [`AgentPosition`] and [`AgentVelocity`], beside avian's
/// `Position` and bevy_rapier's `Velocity`), nor a word games commonly give
/// their own types (a navigation goal is a [`NavigationGoal`], what a
/// behavior aims at a [`SteeringTarget`], an obstacle a
/// [`SteeringObstacle`]).
///
/// ```
/// # mod avian2d { pub mod prelude {
/// #     #[derive(bevy::prelude::Component)] pub struct Position(pub bevy::math::Vec2);
/// #     #[derive(bevy::prelude::Component)] pub struct Mass(pub f32);
/// # } }
/// # mod bevy_rapier2d { pub mod prelude {
/// #     #[derive(bevy::prelude::Component)] pub struct Velocity { pub linvel: bevy::math::Vec2 }
/// # } }
/// use avian2d::prelude::*; // (here a stand-in with avian's names)
/// use bevy::prelude::*;
/// use bevy_rapier2d::prelude::*; // (and with bevy_rapier's)
/// use bevy_reynolds::prelude::*;
///
/// fn each_its_own(
///     agents: Query<(&AgentPosition, &AgentVelocity, &AgentHeading)>,
///     bodies: Query<(&Position, &Mass, &Velocity)>,
/// ) {
/// }
/// # App::new().add_systems(Update, each_its_own);
/// ```
pub mod prelude {
    #[cfg(feature = "avian2d")]
    pub use crate::physics::SteeringAvian2dPlugin;
    #[cfg(any(feature = "avian2d", feature = "avian3d"))]
    pub use crate::physics::{ColliderObstacle, RadiusFromCollider};
    #[cfg(feature = "avian3d")]
    pub use crate::physics::{ObstacleHeights, SteeringAvian3dPlugin};
    pub use crate::{
        AgentHeading, AgentPosition, AgentPreviousPosition, AgentTrail, AgentVelocity, Arrived,
        AvoidAgents, AvoidParams, Combine, Containment, DesiredVelocity, FlockParams, Flocking,
        FollowPath, Formation, FormationPlace, FormationShape, FormationState, GroundPlane, Hide,
        IgnoreObstacles, InFormation, MeasuredVelocity, MovingObstacle, Navigate, NavigationAreas,
        NavigationGoal, NavigationRoute, NavigationSettings, NavigationStatus, NeighborGrid,
        ObstacleIndex, RouteEnd, Stalled, SteeringAccumulator, SteeringAgent, SteeringAgentPlugin,
        SteeringBehavior, SteeringCrowdPlugin, SteeringFlockingPlugin, SteeringForce,
        SteeringFormationPlugin, SteeringLengthUnit, SteeringLevelPlugin, SteeringNavigationPlugin,
        SteeringObstacle, SteeringParams, SteeringPath, SteeringPlugins, SteeringPriority,
        SteeringSchedule, SteeringSeed, SteeringSettings, SteeringSystems, SteeringTarget,
        TakeTurns, Unreachable, WanderAngle, WanderRng, Weighted, Writeback,
    };
    pub use crate::{
        Attitude, Flight, FlightParams, FlyerAccumulator, FlyerAttitude, FlyerBehavior,
        FlyerDesiredVelocity, FlyerFlocking, FlyerFollowPath, FlyerForce, FlyerNeighborGrid,
        FlyerPath, FlyerPosition, FlyerPreviousPosition, FlyerTarget, FlyerVelocity,
        SteeringFlightPlugin, SteeringFlyer, WanderDirection,
    };
}
