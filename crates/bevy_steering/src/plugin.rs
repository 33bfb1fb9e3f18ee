//! [`SteeringPlugin`] and the [`SteeringSystems`] it runs in.

use bevy::app::{FixedMain, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

use crate::components::*;
use crate::settings::{SteeringSeed, SteeringSettings};
use crate::systems;

/// The seed [`SteeringPlugin`] uses unless told otherwise, so runs are
/// reproducible by default.
pub const DEFAULT_SEED: u64 = 0x5EED_0000_C217_7E25;

/// Steers every [`SteeringAgent`], one step of the chapter's model per run
/// of its schedule.
///
/// By default it runs in [`FixedUpdate`], so agents move the same at any
/// frame rate, and their [`Transform`] is interpolated between fixed steps so
/// they never jitter on a display faster or slower than the fixed rate.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_steering::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugin::default()))
///     .insert_resource(SteeringSettings { response_time: 0.3, ..default() });
/// app.world_mut().spawn((
///     SteeringAgent,
///     Behavior::Seek(Target::Point(Vec2::new(500.0, 350.0))),
///     Position::new(100.0, 100.0),
/// ));
/// app.update();
/// ```
///
/// Run it elsewhere with [`SteeringPlugin::new`], e.g.
/// `SteeringPlugin::new(FixedPostUpdate)`, and get a fresh seed every run
/// with `SteeringPlugin::default().with_seed(rand::random())`.
#[derive(Debug, Clone)]
pub struct SteeringPlugin {
    /// The schedule the steering systems run in.
    pub schedule: InternedScheduleLabel,
    /// The seed of every agent's wander stream.
    pub seed: u64,
}

impl Default for SteeringPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl SteeringPlugin {
    /// Steering in `schedule`. A fixed schedule (the default [`FixedUpdate`],
    /// or another one run by [`FixedMain`]) gets interpolated transforms;
    /// any other schedule writes them as they are.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            seed: DEFAULT_SEED,
        }
    }

    /// The same plugin with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    fn schedule_is_fixed(&self) -> bool {
        [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
            FixedMain.intern(),
        ]
        .contains(&self.schedule)
    }
}

/// The stages of a steering step, in order (they are chained). Order your
/// own systems around them, in the plugin's schedule:
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_steering::prelude::*;
/// // Add an avoidance force to every agent's steering before it is capped.
/// fn avoid_walls(mut forces: Query<(&Position, &mut SteeringForce)>) { /* ... */ }
///
/// App::new().add_systems(
///     FixedUpdate,
///     avoid_walls.after(SteeringSystems::Steer).before(SteeringSystems::Integrate),
/// );
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SteeringSystems {
    /// Warns about bad settings, and measures the velocity of entities with
    /// a [`MeasuredVelocity`].
    Measure,
    /// The [`NeighborGrid`](crate::NeighborGrid) is rebuilt, when any agent
    /// has [`Flocking`](crate::Flocking).
    Neighbors,
    /// Each agent's behaviors choose a [`DesiredVelocity`].
    Desire,
    /// The weighted steering is summed into [`SteeringForce`].
    Steer,
    /// Flocking agents add separation, alignment and cohesion to their
    /// [`SteeringForce`].
    Flock,
    /// The force is capped once, the speed capped, and the agent moved.
    Integrate,
    /// Agents off one edge of [`SteeringSettings::wrap`] come back at the other.
    Wrap,
    /// Agents turn their [`Heading`] to their velocity.
    Heading,
    /// Every [`Trail`] samples its agent's position on its timer.
    Trail,
}

/// Runs exactly one step of the fixed schedules now, whatever the virtual
/// clock says: a single step for debugging while time is paused.
///
/// It advances [`Time<Fixed>`] by one timestep and runs [`FixedMain`] with it,
/// as Bevy's own fixed loop does, then restores the virtual clock as the
/// current [`Time`].
pub fn run_one_fixed_step(world: &mut World) {
    let timestep = world.resource::<Time<Fixed>>().timestep();
    world.resource_mut::<Time<Fixed>>().advance_by(timestep);
    *world.resource_mut::<Time>() = world.resource::<Time<Fixed>>().as_generic();
    world.run_schedule(FixedMain);
    *world.resource_mut::<Time>() = world.resource::<Time<Virtual>>().as_generic();
}

/// Whether [`Transform`]s are interpolated between fixed steps: true when
/// [`SteeringPlugin`] runs in a fixed schedule.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
#[reflect(Resource, Debug, PartialEq)]
pub struct InterpolateTransforms(pub bool);

impl Plugin for SteeringPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SteeringAgent>()
            .register_type::<Position>()
            .register_type::<PreviousPosition>()
            .register_type::<Velocity>()
            .register_type::<Heading>()
            .register_type::<DesiredVelocity>()
            .register_type::<SteeringForce>()
            .register_type::<WanderAngle>()
            .register_type::<WanderRng>()
            .register_type::<Behavior>()
            .register_type::<Target>()
            .register_type::<Steer>()
            .register_type::<Weighted>()
            .register_type::<SteeringOverride>()
            .register_type::<Trail>()
            .register_type::<TrailClock>()
            .register_type::<MeasuredVelocity>()
            .register_type::<crate::neighbors::Flocking>()
            .register_type::<SteeringSettings>()
            .register_type::<SteeringSeed>()
            .register_type::<InterpolateTransforms>();

        app.init_resource::<SteeringSettings>()
            .init_resource::<TrailClock>()
            .init_resource::<crate::neighbors::NeighborGrid>()
            .insert_resource(SteeringSeed::new(self.seed))
            .insert_resource(InterpolateTransforms(self.schedule_is_fixed()));

        app.configure_sets(
            self.schedule,
            (
                SteeringSystems::Measure,
                SteeringSystems::Neighbors,
                SteeringSystems::Desire,
                SteeringSystems::Steer,
                SteeringSystems::Flock,
                SteeringSystems::Integrate,
                SteeringSystems::Wrap,
                SteeringSystems::Heading,
                SteeringSystems::Trail,
            )
                .chain(),
        )
        .add_systems(
            self.schedule,
            (
                (
                    systems::validate_settings,
                    systems::validate_overrides,
                    systems::measure_velocities,
                )
                    .in_set(SteeringSystems::Measure),
                systems::desire.in_set(SteeringSystems::Desire),
                crate::neighbors::rebuild_grid.in_set(SteeringSystems::Neighbors),
                systems::steer.in_set(SteeringSystems::Steer),
                crate::neighbors::flock.in_set(SteeringSystems::Flock),
                systems::integrate.in_set(SteeringSystems::Integrate),
                systems::wrap.in_set(SteeringSystems::Wrap),
                systems::face_velocity.in_set(SteeringSystems::Heading),
                systems::sample_trails.in_set(SteeringSystems::Trail),
            ),
        )
        .add_systems(
            RunFixedMainLoop,
            systems::sync_transforms.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
        );
    }
}
