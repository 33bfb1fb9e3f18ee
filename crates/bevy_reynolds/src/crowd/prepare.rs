//! Before the step: bad values reported, the grid asked for, and who
//! avoids with how much right of way, for the passes to look neighbors up.

use bevy::prelude::*;

use super::AvoidAgents;
use crate::agent::SteeringParams;
use crate::flocking::NeighborGrid;
use crate::math::Vector;

/// Who avoids and how, by entity index, made each step.
#[derive(Resource, Debug, Default)]
pub(super) struct Avoiding {
    /// 0 for an agent that does not avoid, else 1 + its
    /// [`AvoidAgents::right_of_way`] (up to 254).
    ways: Vec<u8>,
    /// What it meant to do in its last step.
    intents: Vec<Intent>,
}

impl Avoiding {
    /// The right of way of `entity`, if it avoids.
    #[inline]
    pub(super) fn right_of_way(&self, entity: Entity) -> Option<u8> {
        match self.ways.get(entity.index_u32() as usize) {
            Some(&way) if way > 0 => Some(way - 1),
            _ => None,
        }
    }

    /// Raises the right of way of `entity`, if it avoids, by `by` (up to
    /// 254): a door's turns ([`TakeTurns`](super::TakeTurns)).
    pub(super) fn raise(&mut self, entity: Entity, by: u8) {
        if let Some(way) = self.ways.get_mut(entity.index_u32() as usize)
            && *way > 0
        {
            *way = way.saturating_add(by);
        }
    }

    /// What `entity` meant to do in its last step, if it avoids (else
    /// neither resting nor heading anywhere).
    #[inline]
    pub(super) fn intent(&self, entity: Entity) -> Intent {
        self.intents
            .get(entity.index_u32() as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// What an avoider's steering asked for in its last step: written as it
/// avoids, read by its neighbors in the next step.
#[derive(Component, Debug, Default, Clone, Copy, PartialEq)]
pub(super) struct Intent {
    /// To stand still (arrived, waiting): it makes way for those that press
    /// on it.
    pub(super) resting: bool,
    /// Which way it meant to go (a unit vector; zero if nowhere): those it
    /// presses on make way out of it.
    pub(super) heading: Vector,
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// a warning for each avoider whose rules are bad.
pub(super) fn report_avoiders(avoiders: Query<(Entity, &AvoidAgents), Changed<AvoidAgents>>) {
    for (entity, avoid) in &avoiders {
        for problem in avoid.rules.problems("AvoidAgents.rules") {
            warn!("agent {entity}: {problem}");
        }
    }
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare),
/// before the grid is rebuilt: the farthest any avoider looks, so the grid
/// is kept (and its cells sized) while anyone avoids; and who avoids.
pub(super) fn ask_for_neighbors(
    mut grid: ResMut<NeighborGrid>,
    mut avoiding: ResMut<Avoiding>,
    avoiders: Query<(Entity, &AvoidAgents, &SteeringParams, Option<&Intent>)>,
) {
    let Avoiding { ways, intents } = &mut *avoiding;
    ways.clear();
    intents.clear();
    let mut reach = 0.0f32;
    for (entity, avoid, params, intent) in &avoiders {
        let rules = avoid.rules.sanitized();
        let body = params.body_radius();
        reach = reach.max(rules.reach(params.max_speed, body, body));
        let index = entity.index_u32() as usize;
        if index >= ways.len() {
            ways.resize(index + 1, 0);
            intents.resize(index + 1, Intent::default());
        }
        ways[index] = avoid.right_of_way.saturating_add(1);
        intents[index] = intent.copied().unwrap_or_default();
    }
    if grid.asked_reach != reach {
        grid.asked_reach = reach;
    }
}
