//! The agent and its step ([`SteeringAgentPlugin`]): the components an
//! agent is made of, its parameters and the global settings, the model's
//! behaviors, the step that moves it, its trail, and its [`Transform`]
//! written back on the ground, interpolated between fixed steps. Every
//! other capability builds on it.

mod behavior;
mod components;
mod desired;
mod ground;
mod integrate;
mod measure;
mod params;
mod params_from_settings;
mod settings;
mod space;
mod trail;
mod transforms;
mod wander;

use bevy::app::{RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

pub use behavior::{
    Behavior, FlyerBehavior, FlyerTarget, Part, SteeringBehavior, SteeringTarget, Target, Weighted,
};
pub use components::{
    AgentHeading, AgentPosition, AgentPreviousPosition, AgentVelocity, DesiredVelocity,
    SteeringAccumulator, SteeringAgent, SteeringForce,
};
pub(crate) use components::{
    Embodied, accumulator_api, from_vector, place_new_agent, reset_previous_position,
};
pub(crate) use desired::behave;
pub(crate) use ground::entity_on_ground;
pub use ground::{GroundPlane, InterpolateTransforms, SteeringLengthUnit, Writeback};
pub(crate) use integrate::record_outputs;
pub use measure::MeasuredVelocity;
pub use params::{Combine, SteeringParams, SteeringPriority};
pub use settings::{DEFAULT_SEED, SteeringSeed, SteeringSettings};
pub(crate) use space::AgentSpace;
pub use trail::AgentTrail;
pub(crate) use trail::TrailClock;
pub(crate) use transforms::{drawn_at, interpolation};
pub use wander::{WanderAngle, WanderRng};

use crate::schedule::{SteeringSchedule, StepSystems, configure_sets};

/// Steers every [`SteeringAgent`] by the model, one step per run
/// of its schedule: the first plugin of
/// [`SteeringPlugins`](crate::SteeringPlugins), which every other one needs.
///
/// By default it runs in [`FixedUpdate`], so agents move the same at any
/// frame rate, and their [`Transform`] is interpolated between fixed steps
/// so they never jitter on a display faster or slower than the fixed rate.
/// [`SteeringPlugins`](crate::SteeringPlugins) sets its fields.
#[derive(Debug, Clone)]
pub struct SteeringAgentPlugin {
    /// The schedule the steering systems run in.
    pub schedule: InternedScheduleLabel,
    /// The seed of every agent's wander stream.
    pub seed: u64,
    /// The plane agents move on.
    pub ground: GroundPlane,
    /// What the plugin does with each step's result.
    pub writeback: Writeback,
    /// How many of the game's units make a metre (see
    /// [`SteeringLengthUnit`]): the scale of the default [`SteeringSettings`].
    pub length_unit: f32,
}

impl Default for SteeringAgentPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl SteeringAgentPlugin {
    /// Steering in `schedule`, with the defaults.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            seed: DEFAULT_SEED,
            ground: GroundPlane::Xy,
            writeback: Writeback::Transform,
            length_unit: reynolds::defaults::UNITS_PER_METRE,
        }
    }
}

impl Plugin for SteeringAgentPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SteeringAgent>()
            .register_type::<AgentPosition>()
            .register_type::<AgentPreviousPosition>()
            .register_type::<AgentVelocity>()
            .register_type::<AgentHeading>()
            .register_type::<DesiredVelocity>()
            .register_type::<SteeringForce>()
            .register_type::<SteeringAccumulator>()
            .register_type::<SteeringParams>()
            .register_type::<Combine>()
            .register_type::<SteeringPriority>()
            .register_type::<WanderAngle>()
            .register_type::<WanderRng>()
            .register_type::<SteeringBehavior>()
            .register_type::<SteeringTarget>()
            .register_type::<Weighted>()
            .register_type::<AgentTrail>()
            .register_type::<TrailClock>()
            .register_type::<MeasuredVelocity>()
            .register_type::<SteeringSettings>()
            .register_type::<SteeringSeed>()
            .register_type::<InterpolateTransforms>()
            .register_type::<GroundPlane>()
            .register_type::<Writeback>()
            .register_type::<SteeringLengthUnit>();

        if !app.world().contains_resource::<SteeringSettings>() {
            app.insert_resource(SteeringSettings::with_length_unit(self.length_unit));
        }
        let defaults = app.world().resource::<SteeringSettings>().agent;
        let schedule = SteeringSchedule(self.schedule);
        app.insert_resource(schedule)
            .insert_resource(self.ground)
            .insert_resource(self.writeback)
            .insert_resource(SteeringLengthUnit(self.length_unit))
            .insert_resource(params_from_settings::FollowedDefaults(defaults))
            .init_resource::<TrailClock>()
            .insert_resource(SteeringSeed::new(self.seed))
            .insert_resource(InterpolateTransforms(schedule.is_fixed()));

        // Each field an agent leaves at the model's value takes the
        // settings' when its parameters are inserted.
        app.world_mut()
            .register_component_hooks::<SteeringParams>()
            .on_insert(params_from_settings::follow_settings);

        configure_sets(app, self.schedule);
        // A system with nothing to do is skipped by its run condition, which
        // costs far less than running it on another thread to find out.
        app.add_systems(
            self.schedule,
            (
                (
                    settings::validate_settings.run_if(resource_changed::<SteeringSettings>),
                    params_from_settings::follow_defaults
                        .run_if(resource_changed::<SteeringSettings>),
                    params_from_settings::validate_params,
                )
                    .chain()
                    .in_set(StepSystems::Settings),
                measure::measure_velocities
                    .run_if(any_with_component::<MeasuredVelocity>)
                    .in_set(StepSystems::Measure),
                behave::<Vec2>.in_set(StepSystems::Behave),
                integrate::record_outputs::<Vec2>
                    .run_if(
                        any_with_component::<SteeringForce>
                            .or_else(any_with_component::<DesiredVelocity>),
                    )
                    .in_set(StepSystems::RecordOutputs),
                integrate::integrate.in_set(StepSystems::Move),
                trail::sample_trails
                    .run_if(any_with_component::<AgentTrail>)
                    .in_set(StepSystems::SampleTrails),
            ),
        );
        if schedule.is_fixed() {
            // Once a frame, after the fixed steps, interpolated between them.
            app.add_systems(
                RunFixedMainLoop,
                transforms::sync_transforms.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            );
        } else {
            // Right after each step, in the same schedule, so they never lag.
            app.add_systems(
                self.schedule,
                transforms::sync_transforms.in_set(StepSystems::SyncTransforms),
            );
        }
    }
}
