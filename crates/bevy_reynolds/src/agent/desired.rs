//! The model's behaviors, each step: every agent's [`SteeringBehavior`] chooses
//! its desired velocities, and their weighted steering starts the agent's
//! [`SteeringAccumulator`] afresh.

use bevy::ecs::change_detection::ContiguousMut;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use reynolds::behaviors::{
    arrive, evade, flee, follow_leader, interpose, offset_pursuit, pursue, seek, slot_position,
};
use reynolds::combine::PriorityGroups;
use reynolds::model::{Kinematics, steering};

use super::behavior::{Behavior, Part, Target};
use super::ground::GroundPlane;
use super::measure::MeasuredVelocity;
use super::params::SteeringParams;
use super::space::AgentSpace;
use super::wander::WanderRng;
use crate::parallel::{CHEAP, Chunks, Column, Written, for_each_table_chunk};

/// What an agent can read of any entity it steers toward or away from.
#[derive(QueryData)]
pub(crate) struct TargetData<V: AgentSpace> {
    position: Option<&'static V::Position>,
    velocity: Option<&'static V::Velocity>,
    measured: Option<&'static MeasuredVelocity>,
    global: Option<&'static GlobalTransform>,
    heading: Option<&'static V::Heading>,
    params: Option<&'static SteeringParams>,
}

impl<V: AgentSpace> TargetDataItem<'_, '_, V> {
    /// The target's position: its simulated one, else its
    /// [`GlobalTransform`]'s translation (on the ground, for a walker).
    fn position(&self, ground: GroundPlane) -> Option<V> {
        self.position
            .map(|p| **p)
            .or_else(|| self.global.map(|g| V::from_world(g.translation(), ground)))
    }

    /// The target's velocity: its simulated one, else its measured one, else zero.
    fn velocity(&self) -> V {
        self.velocity
            .map(|v| **v)
            .or_else(|| self.measured.and_then(|m| V::from_measured(m.velocity)))
            .unwrap_or(V::ZERO)
    }
}

/// The last entity target looked up, and what was found: most agents chase
/// the same entity, and a query lookup costs more than the steering.
type TargetCache<V> = Option<(Entity, Option<(V, V)>)>;

/// Every entity an agent may steer toward, seen on the ground.
struct Targets<'a, 'w, 's, V: AgentSpace> {
    query: &'a Query<'w, 's, TargetData<V>>,
    ground: GroundPlane,
}

/// The position and velocity of `target`, or `None` if it is an entity that
/// no longer exists (or has no position). Inlined where it is called: a
/// point, or the entity looked up last, costs a compare.
#[inline(always)]
fn resolve<V: AgentSpace>(
    target: Target<V>,
    targets: &Targets<V>,
    cache: &mut TargetCache<V>,
) -> Option<(V, V)> {
    match target {
        Target::Point(point) => Some((point, V::ZERO)),
        Target::Entity(entity) => match *cache {
            Some((cached, found)) if cached == entity => found,
            _ => look_up(entity, targets, cache),
        },
    }
}

/// A leader's place, velocity, the way it faces (its [`AgentHeading`], else
/// its velocity's) and its body's radius (if it has [`SteeringParams`]), in
/// one lookup; `None` if it is an entity that no longer exists.
fn leader_of<V: AgentSpace>(
    target: Target<V>,
    targets: &Targets<V>,
) -> Option<(V, V, V, Option<f32>)> {
    let entity = match target {
        Target::Point(point) => return Some((point, V::ZERO, V::ZERO, None)),
        Target::Entity(entity) => entity,
    };
    let data = targets.query.get(entity).ok()?;
    let (pos, vel) = (data.position(targets.ground)?, data.velocity());
    let heading = data.heading.map_or(vel, V::facing);
    Some((pos, vel, heading, data.params.map(|p| p.radius)))
}

/// [`resolve`]'s query lookup, out of line, remembered in `cache`.
#[inline(never)]
fn look_up<V: AgentSpace>(
    entity: Entity,
    targets: &Targets<V>,
    cache: &mut TargetCache<V>,
) -> Option<(V, V)> {
    let found = targets
        .query
        .get(entity)
        .ok()
        .and_then(|data| Some((data.position(targets.ground)?, data.velocity())));
    *cache = Some((entity, found));
    found
}

/// The desired velocity of one of the model's behaviors (a [`Part`]'s),
/// `None` if its target is gone. (Blends and grazers are split into parts
/// before they get here: were one to, it would ask for nothing.)
#[inline(always)]
fn desired_velocity<V: AgentSpace>(
    behavior: &Behavior<V>,
    kinematics: Kinematics<V>,
    params: &SteeringParams,
    targets: &Targets<V>,
    cache: &mut TargetCache<V>,
    wandering: &mut Wandering<V>,
    dt: f32,
) -> Option<V> {
    let Kinematics { pos, vel } = kinematics;
    let max_speed = params.max_speed;
    Some(match *behavior {
        Behavior::Seek(target) => seek(pos, resolve(target, targets, cache)?.0, max_speed),
        Behavior::Arrive(target) => arrive(
            pos,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.slowing_radius,
        ),
        Behavior::Flee(target) => flee(
            pos,
            vel,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.panic_radius,
        ),
        Behavior::Pursue(target) => {
            let (target_pos, target_vel) = resolve(target, targets, cache)?;
            pursue(pos, target_pos, target_vel, max_speed)
        }
        Behavior::Evade(target) => {
            let (threat, threat_vel) = resolve(target, targets, cache)?;
            evade(pos, vel, threat, threat_vel, max_speed, params.panic_radius)
        }
        Behavior::OffsetPursuit { leader, offset } => {
            let (leader_pos, leader_vel, heading, _) = leader_of(leader, targets)?;
            let slot = slot_position(leader_pos, heading, offset);
            offset_pursuit(pos, slot, leader_vel, max_speed, params.slowing_radius)
        }
        Behavior::FollowLeader { leader, behind } => {
            let (leader_pos, leader_vel, heading, leader_radius) = leader_of(leader, targets)?;
            let clear = leader_radius.unwrap_or(params.radius) + params.radius;
            follow_leader(
                pos,
                leader_pos,
                leader_vel,
                heading,
                behind,
                clear,
                max_speed,
                params.slowing_radius,
            )
        }
        Behavior::Interpose(a, b) => {
            let (a_pos, a_vel) = resolve(a, targets, cache)?;
            let (b_pos, b_vel) = resolve(b, targets, cache)?;
            interpose(
                pos,
                a_pos,
                a_vel,
                b_pos,
                b_vel,
                max_speed,
                params.slowing_radius,
            )
        }
        Behavior::Wander => wandering.step(dt, params.wander_rate, max_speed),
        Behavior::Idle | Behavior::Graze(_) | Behavior::Blend(_) => vel,
    })
}

/// One agent's wander state and random numbers, in its table's columns:
/// written (and marked changed) only if a part of its behavior wanders.
struct Wandering<'a, 'w, V: AgentSpace> {
    states: &'a mut Written<'w, V::Wander>,
    rngs: &'a mut Written<'w, WanderRng>,
    agent: usize,
}

impl<V: AgentSpace> Wandering<'_, '_, V> {
    /// Wander's desired velocity, its state one step on.
    #[inline]
    fn step(&mut self, dt: f32, rate: f32, max_speed: f32) -> V {
        let rng = self.rngs.get_mut(self.agent);
        V::wander(self.states.get_mut(self.agent), rng, dt, rate, max_speed)
    }
}

/// The first system of
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors): each
/// agent's accumulator starts the step afresh with the weighted steering of
/// each part of its [`SteeringBehavior`] toward the velocity that part desires.
///
/// Over each table's columns as slices (a contiguous query), as the
/// integration is: an agent handed to a closure item by item costs a copy
/// of its eight fetched columns and a change tick written for each column
/// it could write (see BENCHMARKS.md).
pub(crate) fn behave<V: AgentSpace>(
    time: Res<Time>,
    ground: Res<GroundPlane>,
    targets: Query<TargetData<V>>,
    mut agents: Query<
        (
            Entity,
            &V::Position,
            &V::Velocity,
            Option<&Behavior<V>>,
            &SteeringParams,
            &mut V::Wander,
            &mut WanderRng,
            &mut V::Accumulator,
        ),
        With<V::Marker>,
    >,
) {
    let dt = time.delta_secs();
    let targets = Targets {
        query: &targets,
        ground: *ground,
    };
    let total = agents.count();
    let Ok(tables) = agents.contiguous_iter_mut() else {
        // Every component it reads is stored in tables, so this cannot
        // happen unless one of them changes storage.
        error_once!("the behaviors' query is not dense: agents do not steer");
        return;
    };
    let tables = tables.map(
        |(entities, pos, vel, behaviors, params, states, rngs, steering)| BehaviorTable {
            read: BehaviorColumns {
                entities,
                pos,
                vel,
                behaviors,
                params,
            },
            states: ContiguousMut::bypass_change_detection_split(states),
            rngs: ContiguousMut::bypass_change_detection_split(rngs),
            steering: ContiguousMut::bypass_change_detection_split(steering),
        },
    );
    for_each_table_chunk!(CHEAP, total, tables, |chunk| {
        let (read, mut states, mut rngs, mut steering) = chunk;
        // Every column cut to the same length, so indexing checks nothing.
        let n = read.entities.len();
        let read = read.slice(0..n);
        let (mut states, mut rngs, mut steering) =
            (states.run(0..n), rngs.run(0..n), steering.run(0..n));
        let mut cache: TargetCache<V> = None;
        for i in 0..n {
            let params = &read.params[i];
            let mut groups = PriorityGroups::default();
            if let Some(behavior) = read.behaviors.map(|behaviors| &behaviors[i]) {
                let mut agent = Behaving {
                    entity: read.entities[i],
                    kinematics: Kinematics {
                        pos: *read.pos[i],
                        vel: *read.vel[i],
                    },
                    params,
                    targets: &targets,
                    cache: &mut cache,
                    wandering: Wandering {
                        states: &mut states,
                        rngs: &mut rngs,
                        agent: i,
                    },
                    dt,
                    groups: &mut groups,
                };
                behavior.for_each_part(params.graze_flee_weight, |part| agent.add(part));
            }
            // Written whole rather than cleared after use: one write a step.
            steering.set(i, groups.into());
        }
    });
}

/// One agent as [`behave`] adds up its behavior's parts.
struct Behaving<'a, 'w, 's, 't, V: AgentSpace> {
    entity: Entity,
    kinematics: Kinematics<V>,
    params: &'a SteeringParams,
    targets: &'a Targets<'a, 'w, 's, V>,
    cache: &'a mut TargetCache<V>,
    wandering: Wandering<'a, 't, V>,
    dt: f32,
    groups: &'a mut PriorityGroups<V>,
}

impl<V: AgentSpace> Behaving<'_, '_, '_, '_, V> {
    /// A part's weighted steering toward its desired velocity, into its
    /// group. Inlined into each behavior's arm, where its part is known.
    #[inline(always)]
    fn add(&mut self, part: Part<V>) {
        let vel = self.kinematics.vel;
        let desired = desired_velocity(
            part.behavior,
            self.kinematics,
            self.params,
            self.targets,
            self.cache,
            &mut self.wandering,
            self.dt,
        )
        .unwrap_or_else(|| {
            let entity = self.entity;
            warn_once!(
                "agent {entity} steers toward an entity that no longer exists \
                 (or has no Position or GlobalTransform); that part of its behavior \
                 asks for no steering"
            );
            vel
        });
        // The part's weight is already sane (`for_each_part`).
        let force = steering(desired, vel, self.params.response_time) * part.weight;
        self.groups.add(part.priority.group(), force);
    }
}

/// The columns of one table [`behave`] only reads.
struct BehaviorColumns<'w, V: AgentSpace> {
    entities: &'w [Entity],
    pos: &'w [V::Position],
    vel: &'w [V::Velocity],
    behaviors: Option<&'w [Behavior<V>]>,
    params: &'w [SteeringParams],
}

// By hand: a derive would ask `V: Copy` of the slices' items.
impl<V: AgentSpace> Clone for BehaviorColumns<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: AgentSpace> Copy for BehaviorColumns<'_, V> {}

impl<V: AgentSpace> BehaviorColumns<'_, V> {
    /// Agents `range` of the table.
    #[inline]
    fn slice(self, range: std::ops::Range<usize>) -> Self {
        Self {
            entities: &self.entities[range.clone()],
            pos: &self.pos[range.clone()],
            vel: &self.vel[range.clone()],
            behaviors: self.behaviors.map(|behaviors| &behaviors[range.clone()]),
            params: &self.params[range],
        }
    }
}

/// One table's columns, as [`behave`] reads and writes them.
struct BehaviorTable<'w, V: AgentSpace> {
    read: BehaviorColumns<'w, V>,
    states: Column<'w, V::Wander>,
    rngs: Column<'w, WanderRng>,
    steering: Column<'w, V::Accumulator>,
}

impl<V: AgentSpace> Chunks for BehaviorTable<'_, V> {
    type Chunk<'a>
        = (
        BehaviorColumns<'a, V>,
        Written<'a, V::Wander>,
        Written<'a, WanderRng>,
        Written<'a, V::Accumulator>,
    )
    where
        Self: 'a;

    fn chunks(&mut self, len: usize) -> impl Iterator<Item = Self::Chunk<'_>> {
        let read = self.read;
        let total = read.entities.len();
        let starts = (0..total).step_by(len.max(1));
        starts
            .map(move |start| read.slice(start..(start + len).min(total)))
            .zip(Written::new(self.states.0, &mut self.states.1).into_chunks(len))
            .zip(Written::new(self.rngs.0, &mut self.rngs.1).into_chunks(len))
            .zip(Written::new(self.steering.0, &mut self.steering.1).into_chunks(len))
            .map(|(((read, angles), rngs), steering)| (read, angles, rngs, steering))
    }
}
