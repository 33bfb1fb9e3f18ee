//! Crowds ([`SteeringCrowdPlugin`]): agents that see each other coming.
//! An [`AvoidAgents`] agent foresees when its body would touch each
//! neighbor's in the [`NeighborGrid`](crate::NeighborGrid), or one of the
//! level's obstacles, and steers away from that touching before it comes,
//! in the same steering sum as its other behaviors; after the step, its
//! body is kept out of theirs (the core's [`reynolds::crowd`]). A
//! [`TakeTurns`] door lets a crowd through one way at a time.

mod avoid_agents;
mod contact;
mod prepare;
mod turns;

use bevy::prelude::*;
use reynolds::crowd::AvoidParams;

pub use turns::{DoorTurn, TakeTurns};

use crate::agent::{Embodied, SteeringAgent, SteeringPriority};
use crate::flocking::add_neighbor_grid;
use crate::level::NoLookAhead;
use crate::schedule::{SteeringSchedule, StepSystems};

/// Makes an agent avoid the other agents around it, and the level's
/// obstacles, before their bodies meet: it foresees, from where each
/// neighbor is going and where it means to go itself, how soon the two
/// bodies ([`SteeringParams::radius`](crate::SteeringParams::radius)) would
/// touch, and pushes away from where they would, harder the sooner
/// (Karamouzas, Skinner and Guy's power law, 2014), turning a little to its
/// right so that meetings head-on pass the same way every time. After each
/// step its body is kept out of its neighbors' and the obstacles': it may
/// close a gap by at most its share of it, so no two bodies overlap, as in
/// a physics engine's contacts.
///
/// An agent whose steering asks it to stand still (arrived, waiting) makes
/// way, stepping aside and to its right, for a moving neighbor that
/// presses on it (not for one standing too); and its neighbors walk up to
/// it rather than holding off, so that they come near enough to be made
/// way for (rows of arrived agents let the later ones through to their
/// places behind).
///
/// The push is a force, added to the agent's other steering (arrive, paths,
/// flocking, a game's own) and capped once with it, so the model's
/// response time and force cap still say how the agent moves. A velocity
/// obstacle method (ORCA, which `dodgy` and bevy_landmass use) picks a safe
/// velocity at once instead; in the crowd lab's situations it locks up
/// where agents meet symmetrically (BENCHMARKS.md, "Crowds").
///
/// The level's look-ahead ([`SteeringObstacle`](crate::SteeringObstacle) avoidance) leaves
/// an avoiding agent's obstacles to this push: it takes over an agent's
/// steering near a wall, which jammed crowds in doorways (measured in
/// BENCHMARKS.md). It still keeps the agent inside its
/// [`Containment`](crate::Containment). The push finds no way round a wall
/// across the way: give the agent a route ([`FollowPath`](crate::FollowPath)).
///
/// Lengths come from the bodies and times are in seconds, so the defaults
/// suit people in metres and critters in pixels alike. A point (radius 0,
/// the default) avoids with the body
/// [`SteeringParams::body_radius`](crate::SteeringParams::body_radius) gives
/// it: as wide as its clearance, 4 px. Every agent is avoided, whether it
/// avoids too or not (one that does not, as the point it may be).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut world = World::new();
/// // A person 1 m across walking to a door, in a crowd.
/// world.spawn((
///     SteeringParams { radius: 0.5, max_speed: 1.3, max_force: 10.0, response_time: 0.5, ..default() },
///     SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(10.0, 0.0))),
///     AvoidAgents::default(),
/// ));
/// // A guard others make way for.
/// world.spawn((
///     SteeringParams { radius: 0.5, max_speed: 1.3, max_force: 10.0, response_time: 0.5, ..default() },
///     SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(-10.0, 0.0))),
///     AvoidAgents { right_of_way: 1, ..default() },
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
    /// high, before the model's behaviors.
    pub priority: SteeringPriority,
    /// Who gives way: of two avoiders that meet, the one with less right of
    /// way avoids the other alone (as Unity's `avoidancePriority`, the other
    /// way round); equals share it. 0 by default. Only meetings foreseen
    /// heed it: two already pressed together (within 1.5 times their
    /// radii) each take half, and after the step each keeps half of the gap
    /// between their bodies, so one that cannot give way (a wall or its own
    /// crowd behind it) is neither walked into nor held there for good.
    pub right_of_way: u8,
}

impl Default for AvoidAgents {
    fn default() -> Self {
        Self {
            rules: AvoidParams::default(),
            priority: SteeringPriority::High,
            right_of_way: 0,
        }
    }
}

/// Crowds: each [`AvoidAgents`] agent's push from its neighbors and the
/// level's obstacles, added to its accumulator in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors) after
/// its behaviors, flocking, path and the level's look-ahead; and its body
/// kept out of theirs in
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate), after
/// the step. Before the behaviors, in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare), each
/// [`TakeTurns`] door gives right of way to those it lets through. It
/// reads the [`NeighborGrid`](crate::NeighborGrid), which it
/// keeps while any agent avoids (and adds, if
/// [`SteeringFlockingPlugin`](crate::SteeringFlockingPlugin) has not).
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringCrowdPlugin;

impl Plugin for SteeringCrowdPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringCrowdPlugin");
        app.register_type::<AvoidAgents>()
            .register_type::<TakeTurns>()
            .register_type::<DoorTurn>()
            .init_resource::<prepare::Avoiding>()
            // It keeps clear of obstacles too, and the level's look-ahead
            // leaves them to it; again when it stops avoiding.
            .register_required_components::<AvoidAgents, NoLookAhead>()
            .register_required_components::<AvoidAgents, prepare::Intent>()
            // Its body in the grid, a point's too (SteeringParams::body_radius).
            .register_required_components::<AvoidAgents, Embodied>()
            .add_observer(look_ahead_again)
            .add_systems(
                schedule,
                (
                    (prepare::report_avoiders, prepare::ask_for_neighbors)
                        .chain()
                        .in_set(StepSystems::Measure),
                    turns::take_turns
                        .run_if(any_with_component::<TakeTurns>)
                        .in_set(StepSystems::TakeTurns),
                    avoid_agents::avoid_agents
                        .run_if(any_with_component::<AvoidAgents>)
                        .in_set(StepSystems::AvoidAgents),
                    contact::keep_apart
                        .run_if(any_with_component::<AvoidAgents>)
                        .in_set(StepSystems::KeepApart),
                ),
            );
        add_neighbor_grid(app, schedule);
    }
}

/// An agent that stops avoiding is the level's look-ahead's again, and a
/// point again in the grid.
fn look_ahead_again(removed: On<Remove, AvoidAgents>, mut commands: Commands) {
    if let Ok(mut agent) = commands.get_entity(removed.entity) {
        agent.try_remove::<(NoLookAhead, Embodied)>();
    }
}
