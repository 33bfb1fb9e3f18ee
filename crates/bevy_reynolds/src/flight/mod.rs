//! Flyers ([`SteeringFlightPlugin`]): agents that move in full 3D (birds,
//! fish, drones, ships), with every behavior walkers have, written once
//! for both, and an attitude that banks into turns.

mod components;
mod step;

use bevy::app::{RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::prelude::*;

pub use components::{
    FlightParams, FlyerAccumulator, FlyerAttitude, FlyerDesiredVelocity, FlyerFollowPath,
    FlyerForce, FlyerPath, FlyerPosition, FlyerPreviousPosition, FlyerVelocity, SteeringFlyer,
    WanderDirection,
};

use crate::agent::{FlyerBehavior, FlyerTarget, Weighted, behave, record_outputs};
use crate::level::follow_paths;
use crate::schedule::{SteeringSchedule, StepSystems};

/// Steers every [`SteeringFlyer`] in 3D: its [`FlyerBehavior`], the model's
/// step on 3D vectors, its [`FlightParams`] and its banking, and its
/// [`Transform`] written (interpolated between fixed steps). Part of
/// [`SteeringPlugins`](crate::SteeringPlugins); a game with no flyers
/// pays nothing for it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringFlightPlugin;

impl Plugin for SteeringFlightPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SteeringFlyer>()
            .register_type::<FlyerAttitude>()
            .register_type::<WanderDirection>()
            .register_type::<FlightParams>()
            .register_type::<FlyerFollowPath>()
            .register_type::<FlyerPosition>()
            .register_type::<FlyerPreviousPosition>()
            .register_type::<FlyerVelocity>()
            .register_type::<FlyerDesiredVelocity>()
            .register_type::<FlyerForce>()
            .register_type::<FlyerAccumulator>()
            .register_type::<FlyerBehavior>()
            .register_type::<FlyerTarget>()
            .register_type::<Weighted<Vec3>>();

        let schedule = SteeringSchedule::of(app, "SteeringFlightPlugin");
        let flying = any_with_component::<SteeringFlyer>;
        app.add_systems(
            schedule,
            (
                components::validate_flight.in_set(StepSystems::Settings),
                behave::<Vec3>.run_if(flying).in_set(StepSystems::Behave),
                follow_paths::<Vec3, FlyerFollowPath>
                    .run_if(any_with_component::<FlyerFollowPath>)
                    .in_set(StepSystems::FollowPaths),
                record_outputs::<Vec3>
                    .run_if(
                        any_with_component::<FlyerForce>
                            .or_else(any_with_component::<FlyerDesiredVelocity>),
                    )
                    .in_set(StepSystems::RecordOutputs),
                step::integrate_flyers
                    .run_if(flying)
                    .in_set(StepSystems::Move),
            ),
        );
        if SteeringSchedule(schedule).is_fixed() {
            app.add_systems(
                RunFixedMainLoop,
                step::sync_flyer_transforms
                    .run_if(flying)
                    .in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            );
        } else {
            app.add_systems(
                schedule,
                step::sync_flyer_transforms
                    .run_if(flying)
                    .in_set(StepSystems::SyncTransforms),
            );
        }
    }
}
