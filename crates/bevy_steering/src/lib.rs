#![doc = include_str!("../../../README.md")]
#![warn(missing_docs)]

mod components;
mod neighbors;
mod params;
mod plugin;
mod settings;
mod systems;

#[cfg(feature = "inspector")]
pub mod inspector;
#[cfg(feature = "render")]
pub mod render;

/// The engine-free model this plugin runs: pure functions on `Vec2`.
pub use steering_core as model;

pub use components::*;
pub use neighbors::{Flocking, GridEntry, NeighborGrid};
pub use params::{Combine, Priority, SteeringOverride, SteeringParams};
pub use plugin::{
    DEFAULT_SEED, InterpolateTransforms, SteeringPlugin, SteeringSystems, run_one_fixed_step,
};
pub use settings::{SteeringSeed, SteeringSettings};

/// Everything a game needs to steer agents: `use bevy_steering::prelude::*;`.
pub mod prelude {
    pub use crate::components::{
        Behavior, DesiredVelocity, Heading, MeasuredVelocity, Position, PreviousPosition, Steer,
        SteeringAccumulator, SteeringAgent, SteeringForce, Target, Trail, Velocity, WanderAngle,
        WanderRng, Weighted,
    };
    pub use crate::neighbors::{Flocking, NeighborGrid};
    pub use crate::params::{Combine, Priority, SteeringOverride, SteeringParams};
    pub use crate::plugin::{SteeringPlugin, SteeringSystems};
    pub use crate::settings::SteeringSettings;
}
