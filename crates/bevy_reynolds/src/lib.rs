#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod components;
mod ground;
mod level;
mod neighbors;
mod params;
mod passes;
mod plugin;
mod settings;
mod systems;

#[cfg(feature = "inspector")]
pub mod inspector;
#[cfg(feature = "render")]
pub mod render;

/// The engine-free model this plugin runs: pure functions on `Vec2`.
pub use reynolds as model;

pub use components::*;
pub use ground::{GroundPlane, SteeringLengthUnit, Writeback};
pub use level::{
    AvoidanceMemory, Containment, FollowPath, IgnoreObstacles, Obstacle, ObstacleIndex,
    SteeringPath,
};
pub use neighbors::{Flocking, GridEntry, NeighborGrid};
pub use params::{Combine, Priority, SteeringOverride, SteeringParams};
pub use plugin::{
    DEFAULT_SEED, InterpolateTransforms, SteeringPlugin, SteeringSystems, run_one_fixed_step,
};
pub use settings::{SteeringSeed, SteeringSettings};

/// Everything a game needs to steer agents: `use bevy_reynolds::prelude::*;`.
///
/// It lives beside Bevy's prelude and a physics engine's: [`Position`] and
/// [`Velocity`] are left out, since avian's prelude has a `Position` and
/// bevy_rapier's a `Velocity`, and two globs with one name make every use of
/// it ambiguous. Import them by path where you need them, or rename them:
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
    pub use crate::components::{
        Behavior, DesiredVelocity, Heading, MeasuredVelocity, PreviousPosition, Steer,
        SteeringAccumulator, SteeringAgent, SteeringForce, Target, Trail, WanderAngle, WanderRng,
        Weighted,
    };
    pub use crate::ground::{GroundPlane, SteeringLengthUnit, Writeback};
    pub use crate::level::{
        Containment, FollowPath, IgnoreObstacles, Obstacle, ObstacleIndex, SteeringPath,
    };
    pub use crate::neighbors::{Flocking, NeighborGrid};
    pub use crate::params::{Combine, Priority, SteeringOverride, SteeringParams};
    pub use crate::plugin::{SteeringPlugin, SteeringSystems};
    pub use crate::settings::SteeringSettings;
}
