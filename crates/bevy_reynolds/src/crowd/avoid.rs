//! Each avoider's push from its neighbors, added to its accumulator; the
//! grid asked for, and bad values reported.

use bevy::prelude::*;
use reynolds::crowd::avoid_neighbor;
use reynolds::flock::tie_break;

use super::AvoidAgents;
use crate::agent::{SteeringAccumulator, SteeringParams};
use crate::flocking::NeighborGrid;
use crate::math::Vector;
use crate::passes::{COSTLY, for_each};

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// a warning for each avoider whose rules are bad or that has no body.
pub(super) fn report_avoiders(
    avoiders: Query<(Entity, &AvoidAgents, &SteeringParams), Changed<AvoidAgents>>,
) {
    for (entity, avoid, params) in &avoiders {
        for problem in avoid.rules.problems("AvoidAgents.rules") {
            warn!("agent {entity}: {problem}");
        }
        if params.radius.is_nan() || params.radius <= 0.0 {
            warn!(
                "agent {entity}: AvoidAgents needs a body, but SteeringParams.radius is {:?}; \
                 the agent avoids no one",
                params.radius
            );
        }
    }
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare),
/// before the grid is rebuilt: the farthest any avoider looks, so the grid
/// is kept (and its cells sized) while anyone avoids.
pub(super) fn ask_for_neighbors(
    mut grid: ResMut<NeighborGrid>,
    avoiders: Query<(&AvoidAgents, &SteeringParams)>,
) {
    let reach = avoiders
        .iter()
        .map(|(avoid, params)| {
            let rules = avoid.rules.sanitized();
            rules.reach(params.max_speed, params.radius, params.radius)
        })
        .fold(0.0, f32::max);
    if grid.asked_reach != reach {
        grid.asked_reach = reach;
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each avoider's push from every agent within its reach in this step's
/// grid (their places and velocities as the step began, so the pushes do
/// not depend on the order agents are visited, nor on the thread count),
/// added to its accumulator in its [`AvoidAgents::priority`] group.
pub(super) fn avoid_agents(
    grid: Res<NeighborGrid>,
    mut avoiders: Query<(
        Entity,
        &AvoidAgents,
        &SteeringParams,
        &mut SteeringAccumulator,
    )>,
) {
    let grid = &*grid;
    let largest = grid.largest_radius();
    for_each(
        COSTLY,
        &mut avoiders,
        |(entity, avoid, params, mut steering)| {
            let Some(slot) = grid.slot_of(entity) else {
                return;
            };
            let rules = avoid.rules.sanitized();
            let (at, velocity, radius) = grid.agent(slot);
            let reach = rules.reach(params.max_speed, radius, largest);
            let mut push = Vector::ZERO;
            grid.for_each_within(at, reach, |other, offset, other_velocity| {
                if other == slot {
                    return;
                }
                push += avoid_neighbor(
                    &rules,
                    -offset,
                    velocity - other_velocity,
                    radius + grid.radius(other),
                    || tie_break(entity.to_bits(), grid.entity(other).to_bits()),
                );
            });
            steering.add_force(avoid.priority, push);
        },
    );
}
