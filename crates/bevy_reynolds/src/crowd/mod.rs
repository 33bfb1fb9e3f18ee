//! Crowds ([`SteeringCrowdPlugin`]): agents that see each other coming.
//! An [`AvoidAgents`] agent predicts when its body would touch each
//! neighbor's in the [`NeighborGrid`](crate::NeighborGrid) and steers away from that touching
//! before it comes, in the same steering sum as its other behaviors (the
//! core's [`reynolds::crowd`]).

mod avoid;

use bevy::prelude::*;
use reynolds::crowd::AvoidParams;

use crate::agent::threads::CostlyStep;
use crate::agent::{Priority, SteeringAgent};
use crate::flocking::add_neighbor_grid;
use crate::schedule::{SteeringSchedule, StepSystems};

/// Makes an agent avoid the other agents around it before their bodies
/// meet: it foresees, from where each neighbor is going, how soon the two
/// bodies ([`SteeringParams::radius`](crate::SteeringParams::radius)) would
/// touch, and pushes away from where they would, harder the sooner
/// (Karamouzas, Skinner and Guy's power law, 2014), turning a little to its
/// right so that meetings head-on pass the same way every time.
///
/// The push is a force, added to the agent's other steering (arrive, paths,
/// flocking, a game's own) and capped once with it, so the chapter's
/// response time and force cap still say how the agent moves. A velocity
/// obstacle method (ORCA, which `dodgy` and bevy_landmass use) picks a safe
/// velocity at once instead; in the crowd lab's situations it locks up
/// where agents meet symmetrically (BENCHMARKS.md, "Crowds").
///
/// Lengths come from the bodies and times are in seconds, so the defaults
/// suit people in metres and critters in pixels alike; an agent needs a
/// body (a radius above 0) to avoid with. Every agent is avoided, whether
/// it avoids too or not.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut world = World::new();
/// // A person 1 m across walking to a door, in a crowd.
/// world.spawn((
///     SteeringParams { radius: 0.5, max_speed: 1.3, max_force: 5.0, ..default() },
///     Behavior::Arrive(Target::Point(Vec2::new(10.0, 0.0))),
///     AvoidAgents::default(),
/// ));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(SteeringAgent)]
pub struct AvoidAgents {
    /// How far ahead (a horizon of 3 s), how hard (1.5, times the square of
    /// the two bodies' radii) and how much to the right (0.3 of the push).
    pub rules: AvoidParams,
    /// The group the push goes into when the agent combines by priority:
    /// high, before the chapter's behaviors.
    pub priority: Priority,
}

impl Default for AvoidAgents {
    fn default() -> Self {
        Self {
            rules: AvoidParams::default(),
            priority: Priority::High,
        }
    }
}

/// Crowds: each [`AvoidAgents`] agent's push from its neighbors, added to
/// its accumulator in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors) after
/// its behaviors, flocking and path, before obstacles. It reads the
/// [`NeighborGrid`](crate::NeighborGrid), which it keeps while any agent avoids (and adds, if
/// [`SteeringFlockingPlugin`](crate::SteeringFlockingPlugin) has not).
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringCrowdPlugin;

impl Plugin for SteeringCrowdPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringCrowdPlugin");
        app.register_type::<AvoidAgents>()
            // Avoidance reads dozens of neighbors an agent: its pass splits
            // from fewer agents.
            .register_required_components::<AvoidAgents, CostlyStep>()
            .add_systems(
                schedule,
                (
                    (avoid::report_avoiders, avoid::ask_for_neighbors)
                        .chain()
                        .in_set(StepSystems::Measure),
                    avoid::avoid_agents
                        .run_if(any_with_component::<AvoidAgents>)
                        .in_set(StepSystems::AvoidAgents),
                ),
            );
        add_neighbor_grid(app, schedule);
    }
}
