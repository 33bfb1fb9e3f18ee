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
use reynolds::wander::{wander, wander_step};

use super::behavior::{Part, SteeringBehavior, SteeringTarget};
use super::components::{
    AgentHeading, AgentPosition, AgentVelocity, SteeringAccumulator, SteeringAgent,
};
use super::ground::GroundPlane;
use super::measure::MeasuredVelocity;
use super::params::SteeringParams;
use super::wander::{WanderAngle, WanderRng};
use crate::math::Vector;
use crate::parallel::{CHEAP, Chunks, Column, Written, for_each_table_chunk};

/// What an agent can read of any entity it steers toward or away from.
#[derive(QueryData)]
pub(crate) struct TargetData {
    position: Option<&'static AgentPosition>,
    velocity: Option<&'static AgentVelocity>,
    measured: Option<&'static MeasuredVelocity>,
    global: Option<&'static GlobalTransform>,
    heading: Option<&'static AgentHeading>,
    params: Option<&'static SteeringParams>,
}

impl TargetDataItem<'_, '_> {
    /// The target's position: its simulated [`AgentPosition`], else its
    /// [`GlobalTransform`]'s translation on the ground.
    fn position(&self, ground: GroundPlane) -> Option<Vector> {
        self.position
            .map(|p| p.0)
            .or_else(|| self.global.map(|g| ground.to_ground(g.translation())))
    }

    /// The target's velocity: its [`AgentVelocity`], else its measured one, else zero.
    fn velocity(&self) -> Vector {
        self.velocity
            .map(|v| v.0)
            .or_else(|| self.measured.map(|m| m.velocity))
            .unwrap_or(Vector::ZERO)
    }
}

/// The last entity target looked up, and what was found: most agents chase
/// the same entity, and a query lookup costs more than the steering.
type TargetCache = Option<(Entity, Option<(Vector, Vector)>)>;

/// Every entity an agent may steer toward, seen on the ground.
struct Targets<'a, 'w, 's> {
    query: &'a Query<'w, 's, TargetData>,
    ground: GroundPlane,
}

/// The position and velocity of `target`, or `None` if it is an entity that
/// no longer exists (or has no position). Inlined where it is called: a
/// point, or the entity looked up last, costs a compare.
#[inline(always)]
fn resolve(
    target: SteeringTarget,
    targets: &Targets,
    cache: &mut TargetCache,
) -> Option<(Vector, Vector)> {
    match target {
        SteeringTarget::Point(point) => Some((point, Vector::ZERO)),
        SteeringTarget::Entity(entity) => match *cache {
            Some((cached, found)) if cached == entity => found,
            _ => look_up(entity, targets, cache),
        },
    }
}

/// A leader's place, velocity, the way it faces (its [`AgentHeading`], else
/// its velocity's) and its body's radius (if it has [`SteeringParams`]), in
/// one lookup; `None` if it is an entity that no longer exists.
fn leader_of(
    target: SteeringTarget,
    targets: &Targets,
) -> Option<(Vector, Vector, Vector, Option<f32>)> {
    let entity = match target {
        SteeringTarget::Point(point) => return Some((point, Vector::ZERO, Vector::ZERO, None)),
        SteeringTarget::Entity(entity) => entity,
    };
    let data = targets.query.get(entity).ok()?;
    let (pos, vel) = (data.position(targets.ground)?, data.velocity());
    let heading = data.heading.map_or(vel, |h| h.0.as_vec2());
    Some((pos, vel, heading, data.params.map(|p| p.radius)))
}

/// [`resolve`]'s query lookup, out of line, remembered in `cache`.
#[inline(never)]
fn look_up(entity: Entity, targets: &Targets, cache: &mut TargetCache) -> Option<(Vector, Vector)> {
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
fn desired_velocity(
    behavior: &SteeringBehavior,
    kinematics: Kinematics,
    params: &SteeringParams,
    targets: &Targets,
    cache: &mut TargetCache,
    wandering: &mut Wandering,
    dt: f32,
) -> Option<Vector> {
    let Kinematics { pos, vel } = kinematics;
    let max_speed = params.max_speed;
    Some(match *behavior {
        SteeringBehavior::Seek(target) => seek(pos, resolve(target, targets, cache)?.0, max_speed),
        SteeringBehavior::Arrive(target) => arrive(
            pos,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.slowing_radius,
        ),
        SteeringBehavior::Flee(target) => flee(
            pos,
            vel,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.panic_radius,
        ),
        SteeringBehavior::Pursue(target) => {
            let (target_pos, target_vel) = resolve(target, targets, cache)?;
            pursue(pos, target_pos, target_vel, max_speed)
        }
        SteeringBehavior::Evade(target) => {
            let (threat, threat_vel) = resolve(target, targets, cache)?;
            evade(pos, vel, threat, threat_vel, max_speed, params.panic_radius)
        }
        SteeringBehavior::OffsetPursuit { leader, offset } => {
            let (leader_pos, leader_vel, heading, _) = leader_of(leader, targets)?;
            let slot = slot_position(leader_pos, heading, offset);
            offset_pursuit(pos, slot, leader_vel, max_speed, params.slowing_radius)
        }
        SteeringBehavior::FollowLeader { leader, behind } => {
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
        SteeringBehavior::Interpose(a, b) => {
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
        SteeringBehavior::Wander => wander(wandering.step(dt, params.wander_rate), max_speed),
        SteeringBehavior::Idle | SteeringBehavior::Graze(_) | SteeringBehavior::Blend(_) => vel,
    })
}

/// One agent's wander angle and random numbers, in its table's columns:
/// written (and marked changed) only if a part of its behavior wanders.
struct Wandering<'a, 'w> {
    angles: &'a mut Written<'w, WanderAngle>,
    rngs: &'a mut Written<'w, WanderRng>,
    agent: usize,
}

impl Wandering<'_, '_> {
    /// The agent's wander angle, one step on.
    #[inline]
    fn step(&mut self, dt: f32, rate: f32) -> f32 {
        let unit = self.rngs.get_mut(self.agent).unit();
        let angle = self.angles.get_mut(self.agent);
        angle.0 = wander_step(angle.0, dt, rate, unit);
        angle.0
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
pub(crate) fn behave(
    time: Res<Time>,
    ground: Res<GroundPlane>,
    targets: Query<TargetData>,
    mut agents: Query<
        (
            Entity,
            &AgentPosition,
            &AgentVelocity,
            Option<&SteeringBehavior>,
            &SteeringParams,
            &mut WanderAngle,
            &mut WanderRng,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
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
        |(entities, pos, vel, behaviors, params, angles, rngs, steering)| BehaviorTable {
            read: BehaviorColumns {
                entities,
                pos,
                vel,
                behaviors,
                params,
            },
            angles: ContiguousMut::bypass_change_detection_split(angles),
            rngs: ContiguousMut::bypass_change_detection_split(rngs),
            steering: ContiguousMut::bypass_change_detection_split(steering),
        },
    );
    for_each_table_chunk!(CHEAP, total, tables, |chunk| {
        let (read, mut angles, mut rngs, mut steering) = chunk;
        // Every column cut to the same length, so indexing checks nothing.
        let n = read.entities.len();
        let read = read.slice(0..n);
        let (mut angles, mut rngs, mut steering) =
            (angles.run(0..n), rngs.run(0..n), steering.run(0..n));
        let mut cache: TargetCache = None;
        for i in 0..n {
            let params = &read.params[i];
            let mut groups = PriorityGroups::default();
            if let Some(behavior) = read.behaviors.map(|behaviors| &behaviors[i]) {
                let mut agent = Behaving {
                    entity: read.entities[i],
                    kinematics: Kinematics {
                        pos: read.pos[i].0,
                        vel: read.vel[i].0,
                    },
                    params,
                    targets: &targets,
                    cache: &mut cache,
                    wandering: Wandering {
                        angles: &mut angles,
                        rngs: &mut rngs,
                        agent: i,
                    },
                    dt,
                    groups: &mut groups,
                };
                behavior.for_each_part(params.graze_flee_weight, |part| agent.add(part));
            }
            // Written whole rather than cleared after use: one write a step.
            steering.set(i, SteeringAccumulator(groups));
        }
    });
}

/// One agent as [`behave`] adds up its behavior's parts.
struct Behaving<'a, 'w, 's, 't> {
    entity: Entity,
    kinematics: Kinematics,
    params: &'a SteeringParams,
    targets: &'a Targets<'a, 'w, 's>,
    cache: &'a mut TargetCache,
    wandering: Wandering<'a, 't>,
    dt: f32,
    groups: &'a mut PriorityGroups,
}

impl Behaving<'_, '_, '_, '_> {
    /// A part's weighted steering toward its desired velocity, into its
    /// group. Inlined into each behavior's arm, where its part is known.
    #[inline(always)]
    fn add(&mut self, part: Part) {
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
#[derive(Clone, Copy)]
struct BehaviorColumns<'w> {
    entities: &'w [Entity],
    pos: &'w [AgentPosition],
    vel: &'w [AgentVelocity],
    behaviors: Option<&'w [SteeringBehavior]>,
    params: &'w [SteeringParams],
}

impl BehaviorColumns<'_> {
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
struct BehaviorTable<'w> {
    read: BehaviorColumns<'w>,
    angles: Column<'w, WanderAngle>,
    rngs: Column<'w, WanderRng>,
    steering: Column<'w, SteeringAccumulator>,
}

impl Chunks for BehaviorTable<'_> {
    type Chunk<'a>
        = (
        BehaviorColumns<'a>,
        Written<'a, WanderAngle>,
        Written<'a, WanderRng>,
        Written<'a, SteeringAccumulator>,
    )
    where
        Self: 'a;

    fn chunks(&mut self, len: usize) -> impl Iterator<Item = Self::Chunk<'_>> {
        let read = self.read;
        let total = read.entities.len();
        let starts = (0..total).step_by(len.max(1));
        starts
            .map(move |start| read.slice(start..(start + len).min(total)))
            .zip(Written::new(self.angles.0, &mut self.angles.1).into_chunks(len))
            .zip(Written::new(self.rngs.0, &mut self.rngs.1).into_chunks(len))
            .zip(Written::new(self.steering.0, &mut self.steering.1).into_chunks(len))
            .map(|(((read, angles), rngs), steering)| (read, angles, rngs, steering))
    }
}
