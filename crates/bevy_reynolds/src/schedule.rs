//! Where a steering step runs: the schedule a game chose, the five public
//! stages ([`SteeringSystems`]) a game orders its own systems around, and
//! the fixed order of the plugins' own systems inside them
//! ([`StepSystems`]), so that every force adds up in the same order each
//! run, whichever capabilities are in.

use bevy::app::FixedMain;
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

/// The stages of a steering step, in order (they are chained). Order your
/// own systems around them, in the plugins' schedule.
///
/// A behavior of your own is a component and a system in
/// [`Forces`](SteeringSystems::Forces) that adds to each agent's
/// [`SteeringAccumulator`](crate::SteeringAccumulator);
/// [`Integrate`](SteeringSystems::Integrate) then caps it once with every
/// other force (see [`SteeringAccumulator`](crate::SteeringAccumulator) for
/// a whole example):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// fn keep_out(mut agents: Query<(&AgentPosition, &mut SteeringAccumulator)>) { /* ... */ }
///
/// App::new().add_systems(FixedUpdate, keep_out.in_set(SteeringSystems::Forces));
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SteeringSystems {
    /// Bad settings are reported, each agent's
    /// [`SteeringParams`](crate::SteeringParams) follows the defaults where
    /// it has not set its own, the velocity of entities with a
    /// [`MeasuredVelocity`](crate::MeasuredVelocity) is measured, and the
    /// capabilities' indexes are made: the
    /// [`NeighborGrid`](crate::NeighborGrid) (when an agent flocks) and the
    /// [`ObstacleIndex`](crate::ObstacleIndex); then each
    /// [`TakeTurns`](crate::TakeTurns) door's turns are taken.
    Prepare,
    /// The plugins' own behaviors add their steering to each agent's
    /// [`SteeringAccumulator`](crate::SteeringAccumulator), in this order:
    /// the model's (each [`SteeringBehavior`](crate::SteeringBehavior), which starts the
    /// accumulator afresh), flocking ([`Flocking`](crate::Flocking)), path
    /// following ([`FollowPath`](crate::FollowPath)), obstacle avoidance and
    /// containment ([`SteeringObstacle`](crate::SteeringObstacle),
    /// [`Containment`](crate::Containment)), which look where the rest take
    /// the agent, and last avoiding other agents
    /// ([`AvoidAgents`](crate::AvoidAgents)).
    Behaviors,
    /// Yours: add steering forces to the
    /// [`SteeringAccumulator`](crate::SteeringAccumulator) here. It runs
    /// after the plugins' own behaviors (so obstacle avoidance does not see
    /// these forces), and every force adds up in the same order each run.
    Forces,
    /// The accumulated steering is combined into one force (weighted, or by
    /// priority; written to [`SteeringForce`](crate::SteeringForce) and
    /// [`DesiredVelocity`](crate::DesiredVelocity) where an agent has them),
    /// capped once at the max force and divided by the mass; the speed is
    /// capped, the turn limited, the agent moved, wrapped round the world's
    /// edges, and turned to face its velocity; then no
    /// [`AvoidAgents`](crate::AvoidAgents) agent's body is let into
    /// another's.
    Integrate,
    /// Every [`AgentTrail`](crate::AgentTrail) samples its agent's position on its
    /// clock, and, when the plugins run outside the fixed loop, each agent's
    /// [`Transform`] is written.
    Writeback,
}

/// The plugins' own systems within [`SteeringSystems`], in order (chained
/// inside each stage): each capability puts its systems in its place, so
/// their order never depends on the executor, nor on which plugins are in.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum StepSystems {
    /// Settings and parameters checked and resolved.
    Settings,
    /// Velocities measured.
    Measure,
    /// The neighbor grid and the obstacle index made.
    Index,
    /// Doors' turns taken ([`TakeTurns`](crate::TakeTurns)): who has
    /// right of way in them.
    TakeTurns,
    /// Navigating agents' routes planned, on the walkable ground made
    /// again if an obstacle changed.
    PlanRoutes,
    /// Formations' members given their places.
    Form,
    /// Each agent's [`SteeringBehavior`](crate::SteeringBehavior): its accumulator starts
    /// the step with these forces.
    Behave,
    /// Flocking's forces added.
    Flock,
    /// Path following's added.
    FollowPaths,
    /// Hiders' added.
    Hide,
    /// Formations' members' added.
    HoldPlaces,
    /// Navigating agents' routes followed.
    FollowRoutes,
    /// Obstacle avoidance and containment: they look where the rest take
    /// the agent.
    AvoidObstacles,
    /// Avoiding other agents (and, for them, obstacles), last: a crowd's
    /// push kept whole beside the look-ahead of agents that have it.
    AvoidAgents,
    /// The debug outputs of the combined force.
    RecordOutputs,
    /// The step itself.
    Move,
    /// Avoiding agents' bodies kept from passing into each other, after
    /// the step that moved them.
    KeepApart,
    /// Navigating agents' bodies kept out of the level's obstacles.
    KeepOnGround,
    /// Trails sampled.
    SampleTrails,
    /// Transforms written (when the plugins run outside the fixed loop).
    SyncTransforms,
}

impl StepSystems {
    /// Each stage's steps, in order.
    const IN_STAGES: [(SteeringSystems, &'static [StepSystems]); 4] = [
        (
            SteeringSystems::Prepare,
            &[
                Self::Settings,
                Self::Measure,
                Self::Index,
                Self::TakeTurns,
                Self::PlanRoutes,
                Self::Form,
            ],
        ),
        (
            SteeringSystems::Behaviors,
            &[
                Self::Behave,
                Self::Flock,
                Self::FollowPaths,
                Self::Hide,
                Self::HoldPlaces,
                Self::FollowRoutes,
                Self::AvoidObstacles,
                Self::AvoidAgents,
            ],
        ),
        (
            SteeringSystems::Integrate,
            &[
                Self::RecordOutputs,
                Self::Move,
                Self::KeepApart,
                Self::KeepOnGround,
            ],
        ),
        (
            SteeringSystems::Writeback,
            &[Self::SampleTrails, Self::SyncTransforms],
        ),
    ];
}

/// Chains the public stages in `schedule`, and the plugins' own steps
/// inside them.
pub(crate) fn configure_sets(app: &mut App, schedule: InternedScheduleLabel) {
    app.configure_sets(
        schedule,
        (
            SteeringSystems::Prepare,
            SteeringSystems::Behaviors,
            SteeringSystems::Forces,
            SteeringSystems::Integrate,
            SteeringSystems::Writeback,
        )
            .chain(),
    );
    for (stage, steps) in StepSystems::IN_STAGES {
        for step in steps {
            app.configure_sets(schedule, step.in_set(stage));
        }
        for pair in steps.windows(2) {
            app.configure_sets(schedule, pair[0].before(pair[1]));
        }
    }
}

/// The schedule the steering plugins run in, set by
/// [`SteeringAgentPlugin`](crate::SteeringAgentPlugin) for the other
/// capabilities' plugins to add their systems to.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct SteeringSchedule(pub InternedScheduleLabel);

impl SteeringSchedule {
    /// The schedule of the app's steering plugins. Panics, saying what to
    /// add, if there is no [`SteeringAgentPlugin`](crate::SteeringAgentPlugin)
    /// yet: capabilities build on it.
    pub(crate) fn of(app: &App, capability: &str) -> InternedScheduleLabel {
        match app.world().get_resource::<SteeringSchedule>() {
            Some(schedule) => schedule.0,
            None => panic!(
                "{capability} needs SteeringAgentPlugin, added before it: \
                 add SteeringPlugins, which has both"
            ),
        }
    }

    /// Whether it is a fixed schedule (one of those [`FixedMain`] runs),
    /// whose steps are interpolated between.
    pub fn is_fixed(&self) -> bool {
        [
            FixedFirst.intern(),
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            FixedLast.intern(),
            FixedMain.intern(),
        ]
        .contains(&self.0)
    }
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
