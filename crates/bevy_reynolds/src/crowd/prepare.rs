//! Before the step: bad values reported, the grid asked for, and who
//! avoids with how much right of way, for the passes to look neighbors up.

use bevy::prelude::*;

use super::AvoidAgents;
use crate::agent::SteeringParams;
use crate::flocking::NeighborGrid;

/// Each agent's way of avoiding, by entity index, made each step: 0 for an
/// agent that does not avoid, else 1 + its
/// [`AvoidAgents::right_of_way`] (up to 254).
#[derive(Resource, Debug, Default)]
pub(super) struct Avoiding(Vec<u8>);

impl Avoiding {
    /// The right of way of `entity`, if it avoids.
    #[inline]
    pub(super) fn right_of_way(&self, entity: Entity) -> Option<u8> {
        match self.0.get(entity.index_u32() as usize) {
            Some(&way) if way > 0 => Some(way - 1),
            _ => None,
        }
    }
}

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
/// is kept (and its cells sized) while anyone avoids; and who avoids.
pub(super) fn ask_for_neighbors(
    mut grid: ResMut<NeighborGrid>,
    mut avoiding: ResMut<Avoiding>,
    avoiders: Query<(Entity, &AvoidAgents, &SteeringParams)>,
) {
    let table = &mut avoiding.0;
    table.clear();
    let mut reach = 0.0f32;
    for (entity, avoid, params) in &avoiders {
        let rules = avoid.rules.sanitized();
        reach = reach.max(rules.reach(params.max_speed, params.radius, params.radius));
        let index = entity.index_u32() as usize;
        if index >= table.len() {
            table.resize(index + 1, 0);
        }
        table[index] = avoid.right_of_way.saturating_add(1);
    }
    if grid.asked_reach != reach {
        grid.asked_reach = reach;
    }
}
