//! Each flocker's force from the grid, added to its accumulator.

use bevy::prelude::*;
use reynolds::flock::Neighbor;

use super::{Flocking, NeighborGrid};
use crate::agent::SteeringAccumulator;
use crate::math::Vector;
use crate::parallel::{CHEAP, for_each};

/// The flock's working memory, kept from step to step so that, once warm,
/// a step allocates nothing of its own: each flocker's force by its slot in
/// the grid, and a buffer for each task of the cell pass.
#[derive(Default)]
pub(super) struct FlockForces {
    by_slot: Vec<Option<Vector>>,
    scratch: Vec<Vec<Neighbor>>,
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// right after the agents' behaviors: every flocker's steering by the three
/// rules over its neighbors in this step's grid (the cells shared out
/// between the compute pool's threads; each agent's sums are its own, so
/// the forces do not depend on the thread count), then added to its
/// accumulator in its [`Flocking::priority`] group.
pub(super) fn flock(
    grid: Res<NeighborGrid>,
    mut forces: Local<FlockForces>,
    mut flockers: Query<(Entity, &mut SteeringAccumulator), With<Flocking>>,
) {
    let FlockForces { by_slot, scratch } = &mut *forces;
    grid.flock(by_slot, scratch);
    let by_slot = &*by_slot;
    let grid = &*grid;
    for_each(CHEAP, &mut flockers, |(entity, mut steering)| {
        if let Some(slot) = grid.slot_of(entity)
            && let Some(force) = by_slot[slot]
        {
            steering.add_force(grid.priority(slot), force);
        }
    });
}
