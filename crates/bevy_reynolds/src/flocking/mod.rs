//! Flocking ([`SteeringFlockingPlugin`]): Reynolds' separation, alignment
//! and cohesion over the [`NeighborGrid`], rebuilt each step while any
//! agent flocks (or the settings keep it for a game's own queries); for
//! flyers ([`FlyerFlocking`]) the same rules in 3D over the
//! [`FlyerNeighborGrid`].

mod flock;
mod flyers;
mod grid;

use bevy::ecs::schedule::InternedScheduleLabel;
use bevy::prelude::*;
use reynolds::flock::FlockParams;

pub use flyers::{FlyerFlocking, FlyerNeighborGrid};
pub use grid::NeighborGrid;

use crate::agent::{SteeringAgent, SteeringPriority};
use crate::schedule::{SteeringSchedule, StepSystems};

/// Makes an agent flock with the agents around it: Reynolds' separation,
/// alignment and cohesion ([`FlockParams`]), added to its other steering
/// and capped once with it. Separation alone (zero alignment and cohesion
/// weights) stops agents piling up on one spot. Separation is measured
/// between the bodies' edges
/// ([`SteeringParams::radius`](crate::SteeringParams::radius); points by
/// default, as in the model).
///
/// ```
/// # use bevy_reynolds::prelude::*;
/// // Arrivers that settle in a loose huddle instead of on top of each other.
/// let huddle = Flocking::separation_only();
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(SteeringAgent)]
pub struct Flocking {
    /// The three rules: their radii (25 and 70 px) and weights (1.5, 1 and
    /// 1), the field of view and the cruise speed (none: the model's
    /// literal rules, under which a crowd whose headings disagree brakes
    /// itself to a standstill; see [`FlockParams::cruise_speed`]).
    pub rules: FlockParams,
    /// Consider at most this many neighbors, the nearest first; `None` (the
    /// default) considers all within reach.
    pub max_neighbors: Option<usize>,
    /// The group flocking's steering goes into when the agent combines by
    /// priority. Normal, with the model's behaviors.
    pub priority: SteeringPriority,
}

impl Flocking {
    /// Only separation, at its default radius and weight: the model's
    /// answer to "how do I stop the arrivers piling up".
    pub fn separation_only() -> Self {
        Self::with_rules(FlockParams {
            alignment_weight: 0.0,
            cohesion_weight: 0.0,
            ..default()
        })
    }

    /// Reynolds' boids, which fly: the default rules with a cruise speed.
    pub fn boids(cruise_speed: f32) -> Self {
        Self::with_rules(FlockParams {
            cruise_speed: Some(cruise_speed),
            ..default()
        })
    }

    /// Flocking by `rules`, heeding every neighbor in reach.
    pub fn with_rules(rules: FlockParams) -> Self {
        Self { rules, ..default() }
    }

    /// The same rules with every length scaled by `factor` (see
    /// [`SteeringLengthUnit::scale`](crate::SteeringLengthUnit::scale) and
    /// [`FlockParams::scaled`]).
    pub fn scaled(self, factor: f32) -> Self {
        Self {
            rules: self.rules.scaled(factor),
            ..self
        }
    }
}

/// Flocking, of walkers and of flyers: the [`NeighborGrid`] (and the
/// [`FlyerNeighborGrid`]) rebuilt in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare), and each
/// [`Flocking`] agent's force added to its accumulator in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors), after
/// its [`SteeringBehavior`](crate::SteeringBehavior)'s. Needs [`SteeringAgentPlugin`]
/// first (as in [`SteeringPlugins`](crate::SteeringPlugins)).
///
/// [`SteeringAgentPlugin`]: crate::SteeringAgentPlugin
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringFlockingPlugin;

impl Plugin for SteeringFlockingPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringFlockingPlugin");
        app.register_type::<Flocking>()
            .register_type::<FlyerFlocking>()
            .init_resource::<FlyerNeighborGrid>()
            .add_systems(
                schedule,
                (
                    flock::flock
                        .run_if(any_with_component::<Flocking>)
                        .in_set(StepSystems::Flock),
                    flyers::rebuild_flyer_grid
                        .run_if(any_with_component::<FlyerFlocking>)
                        .in_set(StepSystems::Index),
                    flyers::flock_flyers
                        .run_if(any_with_component::<FlyerFlocking>)
                        .in_set(StepSystems::Flock),
                ),
            );
        add_neighbor_grid(app, schedule);
    }
}

/// The [`NeighborGrid`] and its rebuild, for each capability that reads it
/// (flocking, crowds): added by the first.
pub(crate) fn add_neighbor_grid(app: &mut App, schedule: InternedScheduleLabel) {
    if app.world().contains_resource::<NeighborGrid>() {
        return;
    }
    app.init_resource::<NeighborGrid>().add_systems(
        schedule,
        grid::rebuild_grid
            .run_if(grid::grid_wanted)
            .in_set(StepSystems::Index),
    );
}
