//! [`SteeringPlugin`] and the [`SteeringSystems`] it runs in.

use bevy::app::{FixedMain, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

use crate::components::*;
use crate::ground::{GroundPlane, SteeringLengthUnit, Writeback};
use crate::params::{Combine, Priority, SteeringOverride, SteeringParams};
use crate::passes::{CHEAP, COSTLY, task_len};
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
/// use bevy_reynolds::prelude::*;
/// use bevy_reynolds::Position;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugin::default()))
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
/// ```
///
/// Run it elsewhere with [`SteeringPlugin::new`], e.g.
/// `SteeringPlugin::new(FixedPostUpdate)`, and get a fresh seed every run
/// with `SteeringPlugin::default().with_seed(rand::random())`. A 3D game
/// puts its agents on the ground with [`GroundPlane::Xz`], and a game whose
/// units are not pixels scales the defaults with
/// [`SteeringPlugin::with_length_unit`].
#[derive(Debug, Clone)]
pub struct SteeringPlugin {
    /// The schedule the steering systems run in.
    pub schedule: InternedScheduleLabel,
    /// The seed of every agent's wander stream.
    pub seed: u64,
    /// The plane agents move on.
    pub ground: GroundPlane,
    /// What the plugin does with each step's result.
    pub writeback: Writeback,
    /// How many of the game's units one of the chapter's pixels is: the
    /// scale of the default [`SteeringSettings`].
    pub length_unit: f32,
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
            ground: GroundPlane::Xy,
            writeback: Writeback::Transform,
            length_unit: 1.0,
        }
    }

    /// The same plugin with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The same plugin with agents on another plane.
    pub fn with_ground(mut self, ground: GroundPlane) -> Self {
        self.ground = ground;
        self
    }

    /// The same plugin doing something else with each step's result.
    pub fn with_writeback(mut self, writeback: Writeback) -> Self {
        self.writeback = writeback;
        self
    }

    /// The same plugin for a game whose units are `unit` of the chapter's
    /// pixels each (see [`SteeringLengthUnit`]): the default settings it
    /// adds are scaled to match. Settings the app already has are kept.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// // A 3D game in metres, its creatures half a metre long.
    /// let mut app = App::new();
    /// app.add_plugins((
    ///     MinimalPlugins,
    ///     SteeringPlugin::default().with_ground(GroundPlane::Xz).with_length_unit(0.025),
    /// ));
    /// assert_eq!(app.world().resource::<SteeringSettings>().agent.max_speed, 5.5); // m/s
    /// ```
    pub fn with_length_unit(mut self, unit: f32) -> Self {
        self.length_unit = unit;
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
/// own systems around them, in the plugin's schedule.
///
/// A behavior of your own is a component and a system in
/// [`Forces`](SteeringSystems::Forces) that adds to each agent's
/// [`SteeringAccumulator`]; [`Integrate`](SteeringSystems::Integrate) then
/// caps it once with every other force (see [`SteeringAccumulator`] for a
/// whole example):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # use bevy_reynolds::Position;
/// fn keep_out(mut agents: Query<(&Position, &mut SteeringAccumulator)>) { /* ... */ }
///
/// App::new().add_systems(FixedUpdate, keep_out.in_set(SteeringSystems::Forces));
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SteeringSystems {
    /// Bad settings and overrides are reported, each agent's
    /// [`SteeringParams`] filled from the defaults and its overrides, the
    /// velocity of entities with a [`MeasuredVelocity`] measured, the
    /// [`NeighborGrid`](crate::NeighborGrid) rebuilt (when an agent flocks)
    /// and the [`ObstacleIndex`](crate::ObstacleIndex) too.
    Prepare,
    /// The plugin's own behaviors add their steering to each agent's
    /// [`SteeringAccumulator`]: flocking ([`Flocking`](crate::Flocking),
    /// found for every flocker first and added as each accumulator starts
    /// the step), the chapter's (each [`Behavior`]), path following
    /// ([`FollowPath`](crate::FollowPath)), and last obstacle avoidance and
    /// containment ([`Obstacle`](crate::Obstacle),
    /// [`Containment`](crate::Containment)), which look where the rest
    /// take the agent.
    Behaviors,
    /// Yours: add steering forces to the [`SteeringAccumulator`] here. It
    /// runs after the plugin's own behaviors, so every force adds up in the
    /// same order each run.
    Forces,
    /// The accumulated steering is combined into one force (weighted, or by
    /// priority; written to [`SteeringForce`] and [`DesiredVelocity`] where
    /// an agent has them), capped once at the max force and divided by the
    /// mass; the speed is capped, the turn limited, the agent moved, wrapped
    /// round the world's edges, and turned to face its velocity.
    Integrate,
    /// Every [`Trail`] samples its agent's position on its clock, and, when
    /// the plugin runs outside the fixed loop, each agent's [`Transform`] is
    /// written.
    Writeback,
}

// The names of the nine stages this set had before, kept so that code
// ordered around them still builds. Each names the stage it became part of.
#[allow(non_upper_case_globals)]
impl SteeringSystems {
    /// Now part of [`Prepare`](Self::Prepare).
    #[deprecated(note = "now part of SteeringSystems::Prepare")]
    pub const Measure: Self = Self::Prepare;
    /// Now part of [`Prepare`](Self::Prepare).
    #[deprecated(note = "now part of SteeringSystems::Prepare")]
    pub const Neighbors: Self = Self::Prepare;
    /// Now part of [`Behaviors`](Self::Behaviors).
    #[deprecated(note = "now part of SteeringSystems::Behaviors")]
    pub const Desire: Self = Self::Behaviors;
    /// Now part of [`Behaviors`](Self::Behaviors). A force of your own goes
    /// into the [`SteeringAccumulator`] in [`Forces`](Self::Forces), not into
    /// [`SteeringForce`], which is now what `Integrate` combined.
    #[deprecated(
        note = "now part of SteeringSystems::Behaviors; add your own forces to the SteeringAccumulator in SteeringSystems::Forces"
    )]
    pub const Steer: Self = Self::Behaviors;
    /// Now part of [`Behaviors`](Self::Behaviors).
    #[deprecated(note = "now part of SteeringSystems::Behaviors")]
    pub const Flock: Self = Self::Behaviors;
    /// Now part of [`Integrate`](Self::Integrate).
    #[deprecated(note = "now part of SteeringSystems::Integrate")]
    pub const Wrap: Self = Self::Integrate;
    /// Now part of [`Integrate`](Self::Integrate).
    #[deprecated(note = "now part of SteeringSystems::Integrate")]
    pub const Heading: Self = Self::Integrate;
    /// Now part of [`Writeback`](Self::Writeback).
    #[deprecated(note = "now part of SteeringSystems::Writeback")]
    pub const Trail: Self = Self::Writeback;
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
            .register_type::<SteeringAccumulator>()
            .register_type::<SteeringParams>()
            .register_type::<SteeringOverride>()
            .register_type::<Combine>()
            .register_type::<Priority>()
            .register_type::<WanderAngle>()
            .register_type::<WanderRng>()
            .register_type::<Behavior>()
            .register_type::<Target>()
            .register_type::<Steer>()
            .register_type::<Weighted>()
            .register_type::<Trail>()
            .register_type::<TrailClock>()
            .register_type::<MeasuredVelocity>()
            .register_type::<crate::neighbors::Flocking>()
            .register_type::<SteeringSettings>()
            .register_type::<SteeringSeed>()
            .register_type::<InterpolateTransforms>()
            .register_type::<GroundPlane>()
            .register_type::<Writeback>()
            .register_type::<SteeringLengthUnit>()
            .register_type::<crate::level::Obstacle>()
            .register_type::<crate::level::Containment>()
            .register_type::<crate::level::FollowPath>()
            .register_type::<crate::level::IgnoreObstacles>()
            .register_type::<crate::level::AvoidanceMemory>();

        if !app.world().contains_resource::<SteeringSettings>() {
            app.insert_resource(SteeringSettings::with_length_unit(self.length_unit));
        }
        app.insert_resource(self.ground)
            .insert_resource(self.writeback)
            .insert_resource(SteeringLengthUnit(self.length_unit))
            .init_resource::<TrailClock>()
            .init_resource::<crate::neighbors::NeighborGrid>()
            .init_resource::<crate::neighbors::FlockForces>()
            .init_resource::<crate::level::ObstacleIndex>()
            .insert_resource(SteeringSeed::new(self.seed))
            .insert_resource(InterpolateTransforms(self.schedule_is_fixed()));

        app.configure_sets(
            self.schedule,
            (
                SteeringSystems::Prepare,
                SteeringSystems::Behaviors,
                SteeringSystems::Forces,
                SteeringSystems::Integrate,
                SteeringSystems::Writeback,
            )
                .chain(),
        )
        .add_systems(
            self.schedule,
            (
                // A system with nothing to do is skipped by its run
                // condition, which costs far less than running it on
                // another thread to find out.
                (
                    systems::validate_settings.run_if(resource_changed::<SteeringSettings>),
                    systems::validate_overrides.run_if(any_with_component::<SteeringOverride>),
                    crate::params::resolve_params.run_if(
                        resource_changed::<SteeringSettings>
                            .or_else(any_with_component::<SteeringOverride>)
                            .or_else(any_component_removed::<SteeringOverride>),
                    ),
                    on_the_steps_thread(systems::measure_velocities)
                        .run_if(any_with_component::<MeasuredVelocity>),
                    crate::neighbors::rebuild_grid.run_if(crate::neighbors::grid_wanted),
                    crate::level::validate_obstacles
                        .run_if(any_with_component::<crate::level::Obstacle>),
                    on_the_steps_thread(crate::level::index_obstacles)
                        .run_if(crate::level::index_wanted),
                )
                    .chain()
                    .in_set(SteeringSystems::Prepare),
                // Chained, so the forces add up in one order every run.
                (
                    crate::neighbors::flock
                        .run_if(any_with_component::<crate::neighbors::Flocking>),
                    on_the_steps_thread(systems::behave),
                    on_the_steps_thread(crate::level::follow_paths)
                        .run_if(any_with_component::<crate::level::FollowPath>),
                    on_the_steps_thread(crate::level::avoid_obstacles)
                        .run_if(crate::level::anything_to_avoid),
                )
                    .chain()
                    .in_set(SteeringSystems::Behaviors),
                (
                    on_the_steps_thread(systems::record_outputs).run_if(
                        any_with_component::<SteeringForce>
                            .or_else(any_with_component::<DesiredVelocity>),
                    ),
                    on_the_steps_thread(systems::integrate),
                )
                    .chain()
                    .in_set(SteeringSystems::Integrate),
                on_the_steps_thread(systems::sample_trails)
                    .run_if(any_with_component::<Trail>)
                    .in_set(SampleTrails)
                    .in_set(SteeringSystems::Writeback),
            ),
        );
        if self.schedule_is_fixed() {
            // Once a frame, after the fixed steps, interpolated between them.
            app.add_systems(
                RunFixedMainLoop,
                on_the_steps_thread(systems::sync_transforms)
                    .in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            );
        } else {
            // Right after each step, in the same schedule, so they never lag.
            app.add_systems(
                self.schedule,
                on_the_steps_thread(systems::sync_transforms)
                    .after(SampleTrails)
                    .in_set(SteeringSystems::Writeback),
            );
        }
    }
}

/// Sampling the trails (both instances of it), for the transforms' sync
/// to follow in the same stage.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
struct SampleTrails;

/// `system` run on the main thread in a step whose passes over the agents
/// are all serial (see [`step_on_main_thread`]), so a step of a few hundred
/// agents wakes no worker thread and stays in one core's cache, and on a
/// worker of the compute pool in a step where one splits between threads
/// (a system on the main thread would then hand its pass to the workers
/// and wait for them, and a step split between the main thread and the
/// workers wakes each in turn). Two instances of the system, one skipped
/// each step by its run condition. What one instance keeps of its own is
/// when it last ran: the one that runs sees every change since then, which
/// is at least every change since either ran (`index_obstacles`, the only
/// one that asks, may gather the obstacles once more than it needed to).
fn on_the_steps_thread<M>(
    system: impl IntoSystem<(), (), M> + Copy,
) -> bevy::ecs::schedule::ScheduleConfigs<bevy::ecs::system::ScheduleSystem> {
    fn on_main_thread(_: bevy::ecs::system::NonSendMarker) {}
    (
        system.run_if(not(step_on_main_thread)),
        on_main_thread.pipe(system).run_if(step_on_main_thread),
    )
        .into_configs()
}

/// Whether every pass over the agents this step is serial: fewer agents
/// than [`CHEAP`] splits, and than [`COSTLY`] does if they have anything to
/// avoid; and no flockers, whose two systems stay on the workers (a step
/// would go back and forth). (From what no system of the step changes, so
/// both instances of a system see the same answer.)
fn step_on_main_thread(
    agents: Query<(), With<SteeringAgent>>,
    flockers: Query<(), With<crate::neighbors::Flocking>>,
    level: Query<
        (),
        Or<(
            With<crate::level::Obstacle>,
            With<crate::level::Containment>,
        )>,
    >,
) -> bool {
    let n = agents.count();
    flockers.is_empty()
        && task_len(CHEAP, n).is_none()
        && (level.is_empty() || task_len(COSTLY, n).is_none())
}
