//! The [`NeighborGrid`] resource: the core's grid of every agent, rebuilt
//! each step while any agent flocks, each flocker tagged with how it
//! flocks.

use bevy::prelude::*;
use reynolds::flock::Flocker;
use reynolds::flock::{FlockSums, FlockView};
use reynolds::spatial::{self, GridAgent, Id, NO_TAG};

use super::Flocking;
use crate::agent::{
    AgentPosition, AgentVelocity, Embodied, SteeringAgent, SteeringParams, SteeringPriority,
    SteeringSettings,
};
use crate::math::Vector;
use crate::parallel::ComputePool;

/// An agent as the core's grid keeps it: its entity, whose index finds it
/// again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AgentKey(pub(super) Entity);

impl Id for AgentKey {
    fn index(self) -> usize {
        self.0.index_u32() as usize
    }

    fn to_bits(self) -> u64 {
        self.0.to_bits()
    }
}

/// Every agent's position, velocity and body radius, sorted by grid cell
/// (the core's [`spatial::NeighborGrid`]), rebuilt each fixed step in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare) when any
/// agent flocks, or always when [`SteeringSettings::neighbor_grid`] asks
/// for it. Use it to find agents near a point.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// fn count_crowd(grid: Res<NeighborGrid>) {
///     let near = grid.within(Vec2::new(500.0, 350.0), 70.0).count();
/// }
/// ```
#[derive(Resource, Debug, Default)]
pub struct NeighborGrid {
    grid: spatial::NeighborGrid<AgentKey>,
    /// How the flockers flock, by their tags in the grid, and the group
    /// each one's force goes into.
    pub(super) flockers: Vec<Flocker>,
    pub(super) priorities: Vec<SteeringPriority>,
    /// The longest reach another capability (crowds) reads the grid to,
    /// asked for each step before it is rebuilt: the grid is kept while it
    /// is above 0, its cells at least this large.
    pub(crate) asked_reach: f32,
}

impl NeighborGrid {
    /// Sorts `agents` into cells of at least `cell_size`, as
    /// [`spatial::NeighborGrid::rebuild`] does: with `wrap`, round its
    /// edges.
    pub fn rebuild(
        &mut self,
        agents: impl IntoIterator<Item = GridAgent<Entity>>,
        cell_size: f32,
        wrap: Option<Rect>,
    ) {
        let agents = agents.into_iter().map(|agent| GridAgent {
            id: AgentKey(agent.id),
            position: agent.position,
            velocity: agent.velocity,
            radius: agent.radius,
        });
        self.grid
            .rebuild(agents, cell_size, wrap.map(|r| (r.min, r.max)));
    }

    /// How many agents the grid holds.
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// Whether the grid holds no agent.
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// The agents within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vector, radius: f32) -> impl Iterator<Item = (Entity, Vector)> {
        self.grid.within(p, radius).map(|(key, at)| (key.0, at))
    }

    /// Calls `f(slot, offset, velocity)` for every agent within `radius` of
    /// `p` (see [`spatial::NeighborGrid::for_each_within`]).
    pub fn for_each_within(&self, p: Vector, radius: f32, f: impl FnMut(usize, Vector, Vector)) {
        self.grid.for_each_within(p, radius, f);
    }

    /// The flocking sums of an agent at `p` that sees as `view` (see
    /// [`spatial::NeighborGrid::flock_sums`]).
    pub fn flock_sums(&self, p: Vector, reach: f32, view: &FlockView) -> FlockSums {
        self.grid.flock_sums(p, reach, view)
    }

    /// The entity at `slot` of the grid's arrays.
    pub fn entity(&self, slot: usize) -> Entity {
        self.grid.id(slot).0
    }

    /// Where `entity` is in the grid's arrays, if the grid holds it.
    pub fn slot_of(&self, entity: Entity) -> Option<usize> {
        self.grid.slot_of(AgentKey(entity))
    }

    /// The position, velocity and body radius of the agent at `slot`.
    pub(crate) fn agent(&self, slot: usize) -> (Vector, Vector, f32) {
        (
            self.grid.position(slot),
            self.grid.velocity(slot),
            self.grid.radius(slot),
        )
    }

    /// The body radius of the agent at `slot`.
    pub fn radius(&self, slot: usize) -> f32 {
        self.grid.radius(slot)
    }

    /// The largest body radius of any agent in the grid.
    pub fn largest_radius(&self) -> f32 {
        self.grid.largest_radius()
    }

    /// The bytes the grid holds on to: what a long run watches to see that
    /// memory stays bounded.
    pub fn memory_bytes(&self) -> usize {
        self.grid.memory_bytes() + self.flockers.capacity() * std::mem::size_of::<Flocker>()
    }

    /// The flocking force of every flocker, by slot, and the group each
    /// goes into.
    pub(super) fn flock(
        &self,
        forces: &mut Vec<Option<Vector>>,
        scratch: &mut Vec<Vec<reynolds::flock::Neighbor>>,
    ) {
        let tasks = ComputePool::for_agents(self.len());
        self.grid.flock(&self.flockers, &tasks, forces, scratch);
    }

    /// The group the force of the flocker at `slot` goes into.
    pub(super) fn priority(&self, slot: usize) -> SteeringPriority {
        let tag = self.grid.tag(slot) as usize;
        self.priorities.get(tag).copied().unwrap_or_default()
    }
}

/// Whether [`rebuild_grid`] has anything to do: an agent flocks, the
/// settings keep a grid, or there is one to empty.
pub(super) fn grid_wanted(
    settings: Res<SteeringSettings>,
    grid: Res<NeighborGrid>,
    flockers: Query<(), With<Flocking>>,
) -> bool {
    !flockers.is_empty()
        || settings.neighbor_grid.is_some()
        || grid.asked_reach > 0.0
        || !grid.is_empty()
}

/// How many columns of cells the grid has in the width of one reach (its
/// rows are a reach tall). An agent reads the three rows round it only as
/// far as the columns within its reach: 2¼ reaches of each rather than the
/// 3 of cells as wide as they are tall, so a quarter fewer candidates,
/// found without looking at any of them (BENCHMARKS.md has the counts).
const COLUMNS_A_REACH: f32 = 4.0;

/// Every agent the grid takes in, with the components its tag is read
/// from (and whose changes make the tags stale).
type TaggedAgents<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static AgentPosition,
        &'static AgentVelocity,
        Ref<'static, SteeringParams>,
        Option<Ref<'static, Flocking>>,
        Option<Ref<'static, Embodied>>,
    ),
    With<SteeringAgent>,
>;

/// Each agent's tag in the grid (which of [`NeighborGrid`]'s flockers it
/// flocks as, or [`NO_TAG`]), body radius and whether it is [`Embodied`],
/// by entity index, as they were when last read from its components.
#[derive(Default)]
pub(super) struct TagsByEntity(Vec<(u32, f32, bool)>);

/// The radius the grid holds for an agent: a body's, or a point's own 0
/// unless it is [`Embodied`].
fn grid_radius(params: &SteeringParams, embodied: bool) -> f32 {
    if embodied {
        params.body_radius()
    } else {
        params.radius
    }
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// rebuilds the grid when any agent flocks, with cells as large as the
/// largest reach among flockers of their own size, or when the settings ask
/// to keep it ([`SteeringSettings::neighbor_grid`]).
pub(super) fn rebuild_grid(
    settings: Res<SteeringSettings>,
    mut grid: ResMut<NeighborGrid>,
    mut tags: Local<TagsByEntity>,
    agents: TaggedAgents,
) {
    let grid = &mut *grid;
    // Each agent's tag and radius as they were: reading its
    // `SteeringParams` and `Flocking` (over a hundred bytes) every step was
    // a quarter of the rebuild, and they seldom change. Any change, or a
    // new agent (whose parameters are new), and they are read again, all
    // of them.
    let mut stale = false;
    grid.grid
        .take(agents.iter().map(|(e, p, v, params, flocking, embodied)| {
            let (tag, radius, was_embodied) = tags
                .0
                .get(e.index_u32() as usize)
                .copied()
                .unwrap_or_default();
            stale |= params.is_changed()
                || flocking
                    .as_ref()
                    .map_or(tag != NO_TAG, |f| f.is_changed() || tag == NO_TAG)
                || embodied
                    .as_ref()
                    .map_or(was_embodied, |e| e.is_added() || !was_embodied);
            (grid_agent(e, p, v, radius), tag)
        }));
    if stale {
        tag_again(grid, &mut tags, &agents);
    }
    let kept = settings
        .neighbor_grid
        .map_or(0.0, |cell| if cell.is_finite() { cell } else { 1.0 });
    let reach = grid
        .flockers
        .iter()
        .map(Flocker::reach)
        .fold(kept.max(grid.asked_reach).max(0.0), f32::max);
    let wrap = settings.wrap.map(|r| (r.min, r.max));
    let tasks = ComputePool::for_agents(agents.count());
    if reach > 0.0 {
        grid.grid
            .sort(Vector::new(reach / COLUMNS_A_REACH, reach), wrap, &tasks);
    } else {
        grid.grid.take(std::iter::empty());
        grid.grid.sort(Vector::ONE, wrap, &tasks);
    }
}

/// An agent as the grid takes it in.
fn grid_agent(e: Entity, p: &AgentPosition, v: &AgentVelocity, radius: f32) -> GridAgent<AgentKey> {
    GridAgent {
        id: AgentKey(e),
        position: p.0,
        velocity: v.0,
        radius,
    }
}

/// Reads every agent's flocker and radius from its components: the grid's
/// flockers found again, the tags by entity rewritten, and the grid filled
/// with them.
fn tag_again(grid: &mut NeighborGrid, tags: &mut TagsByEntity, agents: &TaggedAgents) {
    // Each flocker is tagged with how it flocks, so the flocking pass reads
    // it beside the agent's place, in the grid's order, instead of looking
    // the agent up; and the grid's cells fit the longest reach of any kind.
    let (flockers, priorities) = (&mut grid.flockers, &mut grid.priorities);
    flockers.clear();
    priorities.clear();
    let tags = &mut tags.0;
    grid.grid
        .take(agents.iter().map(|(e, p, v, params, flocking, embodied)| {
            let tag = flocking.map_or(NO_TAG, |f| {
                let flocker = Flocker::new(
                    f.rules,
                    params.max_speed,
                    params.response_time,
                    params.radius,
                    f.max_neighbors,
                );
                // Agents side by side in the query's order are mostly alike.
                if flockers.last() != Some(&flocker) || priorities.last() != Some(&f.priority) {
                    flockers.push(flocker);
                    priorities.push(f.priority);
                }
                (flockers.len() - 1) as u32
            });
            let index = e.index_u32() as usize;
            if index >= tags.len() {
                tags.resize(index + 1, (NO_TAG, 0.0, false));
            }
            let radius = grid_radius(&params, embodied.is_some());
            tags[index] = (tag, radius, embodied.is_some());
            (grid_agent(e, p, v, radius), tag)
        }));
}
