//! Flocking in 3D ([`FlyerFlocking`]): the same rules over the
//! [`FlyerNeighborGrid`], the core's volume grid of every flyer, rebuilt
//! each step while any flyer flocks.

use bevy::prelude::*;
use reynolds::flock::{Flocker, Neighbor};
use reynolds::spatial::{self, GridAgent, NO_TAG};

use super::Flocking;
use super::grid::AgentKey;
use crate::agent::{SteeringParams, SteeringPriority};
use crate::flight::{FlyerAccumulator, FlyerPosition, FlyerVelocity, SteeringFlyer};
use crate::parallel::{CHEAP, ComputePool, for_each};

/// Makes a flyer flock with the flyers around it, in 3D: the rules of a
/// [`Flocking`] (the same radii, weights and constructors), over its
/// neighbors above and below as well as round it.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut world = World::new();
/// // A bird among birds: the three rules at a cruise speed of 120 px/s.
/// world.spawn((FlyerFlocking(Flocking::boids(120.0)), FlyerPosition(Vec3::new(0.0, 300.0, 0.0))));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(SteeringFlyer)]
pub struct FlyerFlocking(pub Flocking);

/// Every flyer's position, velocity and body radius, sorted by box (the
/// core's [`spatial::VolumeGrid`]), rebuilt each fixed step in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare) while any
/// flyer flocks. Use it to find flyers near a point.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// fn count_swarm(grid: Res<FlyerNeighborGrid>) {
///     let near = grid.within(Vec3::new(0.0, 300.0, 0.0), 70.0).count();
/// }
/// ```
#[derive(Resource, Debug, Default)]
pub struct FlyerNeighborGrid {
    grid: spatial::VolumeGrid<AgentKey>,
    /// How the flockers flock, by their tags in the grid, and the group
    /// each one's force goes into.
    flockers: Vec<Flocker<Vec3>>,
    priorities: Vec<SteeringPriority>,
}

impl FlyerNeighborGrid {
    /// How many flyers the grid holds.
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// Whether the grid holds no flyer.
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// The flyers within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vec3, radius: f32) -> impl Iterator<Item = (Entity, Vec3)> {
        self.grid.within(p, radius).map(|(key, at)| (key.0, at))
    }

    /// Calls `f(slot, offset, velocity)` for every flyer within `radius`
    /// of `p` (see [`spatial::VolumeGrid::for_each_within`]).
    pub fn for_each_within(&self, p: Vec3, radius: f32, f: impl FnMut(usize, Vec3, Vec3)) {
        self.grid.for_each_within(p, radius, f);
    }

    /// The entity at `slot` of the grid's arrays.
    pub fn entity(&self, slot: usize) -> Entity {
        self.grid.id(slot).0
    }

    /// Where `entity` is in the grid's arrays, if the grid holds it.
    pub fn slot_of(&self, entity: Entity) -> Option<usize> {
        self.grid.slot_of(AgentKey(entity))
    }

    /// The bytes the grid holds on to.
    pub fn memory_bytes(&self) -> usize {
        self.grid.memory_bytes() + self.flockers.capacity() * std::mem::size_of::<Flocker<Vec3>>()
    }
}

/// The boxes of the grid, in reaches: thin along x, the axis a run of boxes
/// goes along, so a run stops nearer the reach; a reach tall and deep, so
/// a flyer reads the 3 × 3 rows round it. (Boxes half a reach tall and
/// deep, 5 × 5 rows, cost 2% more instructions; cubes of a reach 2%.)
const BOX_IN_REACHES: Vec3 = Vec3::new(0.25, 1.0, 1.0);

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// every flyer into the grid, each flocker tagged with how it flocks, the
/// boxes as large as the longest reach.
pub(super) fn rebuild_flyer_grid(
    mut grid: ResMut<FlyerNeighborGrid>,
    flyers: Query<
        (
            Entity,
            &FlyerPosition,
            &FlyerVelocity,
            &SteeringParams,
            Option<&FlyerFlocking>,
        ),
        With<SteeringFlyer>,
    >,
) {
    let FlyerNeighborGrid {
        grid,
        flockers,
        priorities,
    } = &mut *grid;
    flockers.clear();
    priorities.clear();
    grid.take(flyers.iter().map(|(e, p, v, params, flocking)| {
        let tag = flocking.map_or(NO_TAG, |f| {
            let flocker = Flocker::new(
                f.rules,
                params.max_speed,
                params.response_time,
                params.radius,
                f.max_neighbors,
            );
            // Flyers side by side in the query's order are mostly alike.
            if flockers.last() != Some(&flocker) || priorities.last() != Some(&f.priority) {
                flockers.push(flocker);
                priorities.push(f.priority);
            }
            (flockers.len() - 1) as u32
        });
        let agent = GridAgent {
            id: AgentKey(e),
            position: p.0,
            velocity: v.0,
            radius: params.radius,
        };
        (agent, tag)
    }));
    let reach = flockers.iter().map(Flocker::reach).fold(0.0, f32::max);
    let tasks = ComputePool::for_agents(grid.len());
    let shape = std::env::var("BOXES")
        .ok()
        .map(|v| {
            let p: Vec<f32> = v.split(',').map(|x| x.parse().unwrap()).collect();
            Vec3::new(p[0], p[1], p[2])
        })
        .unwrap_or(BOX_IN_REACHES);
    grid.sort(shape * reach.max(1.0), &tasks);
}

/// The flock's working memory, kept from step to step.
#[derive(Default)]
pub(super) struct FlyerForces {
    by_slot: Vec<Option<Vec3>>,
    scratch: Vec<Vec<Neighbor<Vec3>>>,
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// as walkers' flocking is: every flocking flyer's steering by the three
/// rules over its neighbors in this step's grid, added to its accumulator.
pub(super) fn flock_flyers(
    grid: Res<FlyerNeighborGrid>,
    mut forces: Local<FlyerForces>,
    mut flyers: Query<(Entity, &mut FlyerAccumulator), With<FlyerFlocking>>,
) {
    let FlyerForces { by_slot, scratch } = &mut *forces;
    let tasks = ComputePool::for_agents(grid.len());
    grid.grid.flock(&grid.flockers, &tasks, by_slot, scratch);
    let (by_slot, grid) = (&*by_slot, &*grid);
    for_each(CHEAP, &mut flyers, |(entity, mut steering)| {
        if let Some(slot) = grid.slot_of(entity)
            && let Some(force) = by_slot[slot]
        {
            let tag = grid.grid.tag(slot) as usize;
            let priority = grid.priorities.get(tag).copied().unwrap_or_default();
            steering.add_force(priority, force);
        }
    });
}
