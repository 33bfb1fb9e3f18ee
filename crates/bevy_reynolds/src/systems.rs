//! The systems of each stage of [`SteeringSystems`](crate::SteeringSystems).
//! Each is a thin loop over the core's pure functions.

use bevy::ecs::change_detection::{ContiguousComponentTicksMut, ContiguousMut};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use reynolds::{self as model, Kinematics};

use crate::components::*;
use crate::ground::{GroundPlane, Writeback};
use crate::neighbors::{FlockForces, NeighborGrid};
use crate::params::{SteeringOverride, SteeringParams};
use crate::passes::Written;
use crate::settings::SteeringSettings;

/// What an agent can read of any entity it steers toward or away from.
#[derive(QueryData)]
pub(crate) struct TargetData {
    position: Option<&'static Position>,
    velocity: Option<&'static Velocity>,
    measured: Option<&'static MeasuredVelocity>,
    global: Option<&'static GlobalTransform>,
}

impl TargetDataItem<'_, '_> {
    /// The target's position: its simulated [`Position`], else its
    /// [`GlobalTransform`]'s translation on the ground.
    fn position(&self, ground: GroundPlane) -> Option<Vec2> {
        self.position
            .map(|p| p.0)
            .or_else(|| self.global.map(|g| ground.to_ground(g.translation())))
    }

    /// The target's velocity: its [`Velocity`], else its measured one, else zero.
    fn velocity(&self) -> Vec2 {
        self.velocity
            .map(|v| v.0)
            .or_else(|| self.measured.map(|m| m.velocity))
            .unwrap_or(Vec2::ZERO)
    }
}

/// The last entity target looked up, and what was found: most agents chase
/// the same entity, and a query lookup costs more than the steering.
type TargetCache = Option<(Entity, Option<(Vec2, Vec2)>)>;

/// Every entity an agent may steer toward, seen on the ground.
struct Targets<'a, 'w, 's> {
    query: &'a Query<'w, 's, TargetData>,
    ground: GroundPlane,
}

/// The position and velocity of `target`, or `None` if it is an entity that
/// no longer exists (or has no position). Inlined where it is called: a
/// point, or the entity looked up last, costs a compare.
#[inline(always)]
fn resolve(target: Target, targets: &Targets, cache: &mut TargetCache) -> Option<(Vec2, Vec2)> {
    match target {
        Target::Point(point) => Some((point, Vec2::ZERO)),
        Target::Entity(entity) => match *cache {
            Some((cached, found)) if cached == entity => found,
            _ => look_up(entity, targets, cache),
        },
    }
}

/// [`resolve`]'s query lookup, out of line, remembered in `cache`.
#[inline(never)]
fn look_up(entity: Entity, targets: &Targets, cache: &mut TargetCache) -> Option<(Vec2, Vec2)> {
    let found = targets
        .query
        .get(entity)
        .ok()
        .and_then(|data| Some((data.position(targets.ground)?, data.velocity())));
    *cache = Some((entity, found));
    found
}

/// Logs every problem of the settings once, when they change.
pub(crate) fn validate_settings(settings: Res<SteeringSettings>) {
    if settings.is_changed() {
        for problem in settings.problems() {
            warn!("{problem}");
        }
    }
}

/// Logs every problem of an agent's overrides once, when they change.
pub(crate) fn validate_overrides(
    overrides: Query<(Entity, &SteeringOverride), Changed<SteeringOverride>>,
) {
    for (entity, overrides) in &overrides {
        for problem in overrides.problems() {
            warn!("agent {entity}: {problem}");
        }
    }
}

/// Measures the velocity of every entity with a [`MeasuredVelocity`].
pub(crate) fn measure_velocities(
    time: Res<Time>,
    ground: Res<GroundPlane>,
    mut measured: Query<(
        &mut MeasuredVelocity,
        Option<&Position>,
        Option<&GlobalTransform>,
    )>,
) {
    let dt = time.delta_secs();
    for (mut measured, position, global) in &mut measured {
        let Some(pos) = position
            .map(|p| p.0)
            .or_else(|| global.map(|g| ground.to_ground(g.translation())))
        else {
            continue;
        };
        let last = measured.last_position.unwrap_or(pos);
        // As the chapter does, no division when no time has passed; the
        // position is kept for the next measurement either way.
        measured.velocity =
            model::measured_velocity(measured.velocity, last, pos, dt, measured.half_life);
        measured.last_position = Some(pos);
    }
}

/// One part's desired velocity. `None` if its target is gone.
#[inline(always)]
fn desired_velocity(
    steer: Steer,
    kinematics: model::Kinematics,
    params: &SteeringParams,
    targets: &Targets,
    cache: &mut TargetCache,
    wander: &mut Wandering,
    dt: f32,
) -> Option<Vec2> {
    let Kinematics { pos, vel } = kinematics;
    let max_speed = params.max_speed;
    Some(match steer {
        Steer::Seek(target) => model::seek(pos, resolve(target, targets, cache)?.0, max_speed),
        Steer::Arrive(target) => model::arrive(
            pos,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.slowing_radius,
        ),
        Steer::Flee(target) => model::flee(
            pos,
            vel,
            resolve(target, targets, cache)?.0,
            max_speed,
            params.panic_radius,
        ),
        Steer::Pursue(target) => {
            let (target_pos, target_vel) = resolve(target, targets, cache)?;
            model::pursue(pos, target_pos, target_vel, max_speed)
        }
        Steer::Evade(target) => {
            let (threat, threat_vel) = resolve(target, targets, cache)?;
            model::evade(pos, vel, threat, threat_vel, max_speed, params.panic_radius)
        }
        Steer::Wander => model::wander(wander.step(dt, params.wander_rate), max_speed),
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
        angle.0 = model::wander_step(angle.0, dt, rate, unit);
        angle.0
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// right after [`flock`](crate::neighbors::flock): each agent's accumulator
/// starts the step with its flocking force, if it flocks, and each part of
/// its [`Behavior`] chooses a desired velocity and adds its weighted
/// steering toward it.
///
/// Over each table's columns as slices (a contiguous query), as
/// [`integrate`] is: an agent handed to a closure item by item cost a copy
/// of its eight fetched columns and a change tick written for each column
/// it could write (100k critters: see BENCHMARKS.md).
pub(crate) fn behave(
    time: Res<Time>,
    ground: Res<GroundPlane>,
    grid: Res<NeighborGrid>,
    flock_forces: Res<FlockForces>,
    targets: Query<TargetData>,
    mut agents: Query<
        (
            Entity,
            &Position,
            &Velocity,
            Option<&Behavior>,
            &SteeringParams,
            &mut WanderAngle,
            &mut WanderRng,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
) {
    let dt = time.delta_secs();
    let stamp = grid.stamp();
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
        |(entities, pos, vel, behaviors, params, angles, rngs, steering)| Behaving {
            read: Read {
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
    crate::passes::for_each_table_chunk!(crate::passes::CHEAP, total, tables, |chunk| {
        let (read, mut angles, mut rngs, mut steering) = chunk;
        // Every column cut to the same length, so indexing checks nothing.
        let n = read.entities.len();
        let read = read.slice(0..n);
        let (mut angles, mut rngs, mut steering) =
            (angles.run(0..n), rngs.run(0..n), steering.run(0..n));
        let mut cache: TargetCache = None;
        for i in 0..n {
            let entity = read.entities[i];
            let vel = read.vel[i].0;
            let kinematics = Kinematics {
                pos: read.pos[i].0,
                vel,
            };
            let params = &read.params[i];
            let mut groups = model::PriorityGroups::default();
            // Found over this step's grid, so the flocking pass need not
            // visit every flocker again to add it.
            if let Some((group, force)) = flock_forces.get(entity, stamp) {
                groups.add(group, force);
            }
            if let Some(behavior) = read.behaviors.map(|behaviors| &behaviors[i]) {
                let mut parts = Parts {
                    entity,
                    kinematics,
                    params,
                    targets: &targets,
                    cache: &mut cache,
                    wander: Wandering {
                        angles: &mut angles,
                        rngs: &mut rngs,
                        agent: i,
                    },
                    dt,
                    groups: &mut groups,
                };
                behavior.for_each_part(params.graze_flee_weight, |part| parts.add(part));
            }
            // Written whole rather than cleared after use: one write a step.
            steering.set(i, SteeringAccumulator(groups));
        }
    });
}

/// One agent as [`behave`] adds up its behavior's parts.
struct Parts<'a, 'w, 's, 't> {
    entity: Entity,
    kinematics: Kinematics,
    params: &'a SteeringParams,
    targets: &'a Targets<'a, 'w, 's>,
    cache: &'a mut TargetCache,
    wander: Wandering<'a, 't>,
    dt: f32,
    groups: &'a mut model::PriorityGroups,
}

impl Parts<'_, '_, '_, '_> {
    /// A part's weighted steering toward its desired velocity, into its
    /// group. Inlined into each behavior's arm, where its part is known.
    #[inline(always)]
    fn add(&mut self, part: Weighted) {
        let vel = self.kinematics.vel;
        let desired = desired_velocity(
            part.steer,
            self.kinematics,
            self.params,
            self.targets,
            self.cache,
            &mut self.wander,
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
        let force = model::steering(desired, vel, self.params.response_time) * part.weight;
        self.groups.add(part.priority.group(), force);
    }
}

/// The columns of one table [`behave`] only reads.
#[derive(Clone, Copy)]
struct Read<'w> {
    entities: &'w [Entity],
    pos: &'w [Position],
    vel: &'w [Velocity],
    behaviors: Option<&'w [Behavior]>,
    params: &'w [SteeringParams],
}

impl<'w> Read<'w> {
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
struct Behaving<'w> {
    read: Read<'w>,
    angles: Column<'w, WanderAngle>,
    rngs: Column<'w, WanderRng>,
    steering: Column<'w, SteeringAccumulator>,
}

impl crate::passes::Chunks for Behaving<'_> {
    type Chunk<'a>
        = (
        Read<'a>,
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

/// Part of [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate),
/// before the step: the combined [`SteeringForce`] and the
/// [`DesiredVelocity`] it asks for, for the agents that carry them (debug
/// outputs, so the step itself writes neither).
pub(crate) fn record_outputs(
    mut agents: Query<
        (
            &Velocity,
            &SteeringAccumulator,
            &SteeringParams,
            Option<&mut SteeringForce>,
            Option<&mut DesiredVelocity>,
        ),
        (
            With<SteeringAgent>,
            Or<(With<SteeringForce>, With<DesiredVelocity>)>,
        ),
    >,
) {
    crate::passes::for_each(
        crate::passes::CHEAP,
        &mut agents,
        |(vel, steering, params, force, desired)| {
            let combined = params.combine.apply(&steering.0);
            if let Some(mut force) = force {
                force.0 = combined;
            }
            if let Some(mut desired) = desired {
                // A velocity set to NaN by other code is still zero here, as
                // it is to the step.
                let vel = model::finite_or_zero(vel.0);
                let asked = vel + combined * model::sanitize_response_time(params.response_time);
                desired.0 = if asked.is_finite() { asked } else { vel };
            }
        },
    );
}

/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate): each
/// agent's accumulated steering combined into one force, capped once at the
/// max force, divided by the mass, the speed capped and the turn limited;
/// semi-implicit Euler; off one edge of the wrap rectangle, back on at the
/// opposite one; and the heading turned to the velocity. One pass, so each
/// agent is read and written once.
///
/// Over each table's columns as slices (a contiguous query) rather than
/// item by item, eight agents at a time ([`model::step_vehicles`]): an
/// agent's step is a chain of three square roots and three divisions, and
/// eight lanes take each once for eight agents (100k critters: 11.5 → 7.4
/// ns an agent-step; the level's 10k agents in several tables, 23 → 16.5,
/// with one scope for all tables; see BENCHMARKS.md).
pub(crate) fn integrate(
    settings: Res<SteeringSettings>,
    writeback: Res<Writeback>,
    time: Res<Time>,
    mut agents: Query<
        (
            &mut Position,
            &mut PreviousPosition,
            &mut Velocity,
            &mut Heading,
            &SteeringAccumulator,
            &SteeringParams,
        ),
        With<SteeringAgent>,
    >,
) {
    let step = Step {
        dt: time.delta_secs(),
        wrap: settings.wrap,
        // With a physics engine, it moves the agents: steering only chooses
        // their velocities.
        moves: *writeback != Writeback::Physics,
    };
    let total = agents.count();
    let Ok(tables) = agents.contiguous_iter_mut() else {
        // Every component it reads is stored in tables, so this cannot
        // happen unless one of them changes storage.
        error_once!("the integration's query is not dense: agents are not moved");
        return;
    };
    let tables = tables.map(|(pos, previous, vel, heading, steering, params)| Table {
        pos: ContiguousMut::bypass_change_detection_split(pos),
        previous: ContiguousMut::bypass_change_detection_split(previous),
        vel: ContiguousMut::bypass_change_detection_split(vel),
        heading: ContiguousMut::bypass_change_detection_split(heading),
        steering,
        params,
    });
    crate::passes::for_each_table_chunk!(crate::passes::CHEAP, total, tables, |(
        mut moved,
        (steering, params),
    )| {
        let len = steering.len();
        let mut start = 0;
        // Eight at a time (`step_vehicles`), the rest one by one.
        while start + model::LANES <= len {
            let run = start..start + model::LANES;
            let mut eight = moved.run(run.clone());
            let (steering, params) = (&steering[run.clone()], &params[run]);
            let agents = std::array::from_fn(|k| eight.kinematics(k));
            let headings = std::array::from_fn(|k| eight.heading.get()[k].0.as_vec2());
            let forces = std::array::from_fn(|k| params[k].combine.apply(&steering[k].0));
            let vehicles = std::array::from_fn(|k| params[k].vehicle());
            let (next, facing) =
                model::step_vehicles(&agents, &headings, &forces, &vehicles, step.dt);
            for k in 0..model::LANES {
                let stepped = step.finish(agents[k].pos, headings[k], next[k], facing[k]);
                eight.set(k, stepped);
            }
            start += model::LANES;
        }
        for i in start..len {
            let Kinematics { pos, vel } = moved.kinematics(i);
            let heading = moved.heading.get()[i].0;
            moved.set(i, step.agent(pos, vel, heading, &steering[i], &params[i]));
        }
    },);
}

/// A column's values and their ticks.
type Column<'w, T> = (&'w mut [T], ContiguousComponentTicksMut<'w>);

/// One table's columns, as [`integrate`] reads and writes them.
struct Table<'w> {
    pos: Column<'w, Position>,
    previous: Column<'w, PreviousPosition>,
    vel: Column<'w, Velocity>,
    heading: Column<'w, Heading>,
    steering: &'w [SteeringAccumulator],
    params: &'w [SteeringParams],
}

impl crate::passes::Chunks for Table<'_> {
    type Chunk<'a>
        = (Moved<'a>, (&'a [SteeringAccumulator], &'a [SteeringParams]))
    where
        Self: 'a;

    fn chunks(&mut self, len: usize) -> impl Iterator<Item = Self::Chunk<'_>> {
        let (steering, params) = (self.steering, self.params);
        Moved {
            pos: Written::new(self.pos.0, &mut self.pos.1),
            previous: Written::new(self.previous.0, &mut self.previous.1),
            vel: Written::new(self.vel.0, &mut self.vel.1),
            heading: Written::new(self.heading.0, &mut self.heading.1),
        }
        .into_chunks(len)
        .zip(steering.chunks(len).zip(params.chunks(len)))
    }
}

/// One table's columns [`integrate`] writes.
struct Moved<'a> {
    pos: Written<'a, Position>,
    previous: Written<'a, PreviousPosition>,
    vel: Written<'a, Velocity>,
    heading: Written<'a, Heading>,
}

impl<'a> Moved<'a> {
    fn into_chunks(self, len: usize) -> impl Iterator<Item = Moved<'a>> {
        self.pos
            .into_chunks(len)
            .zip(self.previous.into_chunks(len))
            .zip(self.vel.into_chunks(len).zip(self.heading.into_chunks(len)))
            .map(|((pos, previous), (vel, heading))| Moved {
                pos,
                previous,
                vel,
                heading,
            })
    }

    /// Agents `range`, indexed from 0.
    #[inline]
    fn run(&mut self, range: std::ops::Range<usize>) -> Moved<'_> {
        Moved {
            pos: self.pos.run(range.clone()),
            previous: self.previous.run(range.clone()),
            vel: self.vel.run(range.clone()),
            heading: self.heading.run(range),
        }
    }

    #[inline]
    fn kinematics(&self, i: usize) -> Kinematics {
        Kinematics {
            pos: self.pos.get()[i].0,
            vel: self.vel.get()[i].0,
        }
    }

    /// Agent `i` stepped; its heading marked changed only if it turned.
    #[inline]
    fn set(&mut self, i: usize, stepped: Stepped) {
        self.pos.set(i, Position(stepped.pos));
        self.previous.set(i, PreviousPosition(stepped.previous));
        self.vel.set(i, Velocity(stepped.vel));
        if let Some(facing) = stepped.heading {
            self.heading.set(i, Heading(facing));
        }
    }
}

/// What [`integrate`] does to every agent this step.
#[derive(Clone, Copy)]
struct Step {
    dt: f32,
    wrap: Option<Rect>,
    moves: bool,
}

/// One agent after its step.
struct Stepped {
    pos: Vec2,
    previous: Vec2,
    vel: Vec2,
    /// The new heading, if it turned.
    heading: Option<Dir2>,
}

impl Step {
    /// One agent's step, alone.
    #[inline]
    fn agent(
        self,
        pos: Vec2,
        vel: Vec2,
        heading: Dir2,
        steering: &SteeringAccumulator,
        params: &SteeringParams,
    ) -> Stepped {
        let facing = heading.as_vec2();
        let (next, facing_next) = model::step_vehicle(
            Kinematics { pos, vel },
            facing,
            params.combine.apply(&steering.0),
            params.vehicle(),
            self.dt,
        );
        self.finish(pos, facing, next, facing_next)
    }

    /// What follows the vehicle's step: where the interpolation starts, the
    /// wrap, and the heading if it turned.
    #[inline]
    fn finish(self, pos: Vec2, facing: Vec2, next: Kinematics, facing_next: Vec2) -> Stepped {
        let mut previous = model::finite_or_zero(pos);
        let mut pos = if self.moves { next.pos } else { previous };
        if self.moves
            && let Some(rect) = self.wrap
        {
            let (wrapped, shift) = model::wrap(pos, rect.min, rect.max);
            if shift != Vec2::ZERO {
                pos = wrapped;
                // Move the interpolation's start with it, so the wrap is
                // not drawn as a streak across the world.
                previous += shift;
            }
        }
        Stepped {
            pos,
            previous,
            vel: next.vel,
            // Along the velocity; nearly still, the way it faced.
            // (`step_vehicle` returns a unit vector.)
            heading: (facing_next != facing).then(|| Dir2::new_unchecked(facing_next)),
        }
    }
}

/// Part of [`SteeringSystems::Writeback`](crate::SteeringSystems::Writeback):
/// every `trail_interval` seconds of simulated time, by one [`TrailClock`], each
/// trail adds where its agent is, keeping the last `trail_length` places.
pub(crate) fn sample_trails(
    settings: Res<SteeringSettings>,
    time: Res<Time>,
    mut clock: ResMut<TrailClock>,
    mut trails: Query<(&Position, &mut Trail)>,
) {
    let dt = model::sanitize_dt(time.delta_secs());
    let interval = settings.trail_interval;
    clock.since_last_sample += dt;
    if interval.is_finite() && interval > 0.0 {
        if clock.since_last_sample < interval {
            return;
        }
        clock.since_last_sample -= interval;
        // After a long pause, do not try to catch up sample by sample.
        clock.since_last_sample = clock.since_last_sample.min(interval);
    } else {
        // A bad interval samples once a step rather than never or forever.
        clock.since_last_sample = 0.0;
    }
    let length = settings.trail_length;
    crate::passes::for_each(crate::passes::CHEAP, &mut trails, |(pos, mut trail)| {
        if length == 0 {
            if !trail.points.is_empty() {
                trail.points.clear();
            }
            return;
        }
        while trail.points.len() >= length {
            trail.points.pop_front();
        }
        trail.points.push_back(pos.0);
    });
}

/// Writes each agent's [`Transform`] from its simulated state, once a frame
/// after the fixed steps: the position interpolated between the last two
/// steps by how far the frame is into the next one, and the rotation from
/// its heading.
pub(crate) fn sync_transforms(
    interpolate: Res<crate::plugin::InterpolateTransforms>,
    ground: Res<GroundPlane>,
    writeback: Res<Writeback>,
    fixed: Res<Time<Fixed>>,
    mut agents: Query<
        (&Position, &PreviousPosition, &Heading, &mut Transform),
        With<SteeringAgent>,
    >,
) {
    if *writeback != Writeback::Transform {
        return;
    }
    let ground = *ground;
    let alpha = if interpolate.0 {
        fixed.overstep_fraction().clamp(0.0, 1.0)
    } else {
        1.0
    };
    crate::passes::for_each(
        crate::passes::CHEAP,
        &mut agents,
        |(pos, previous, heading, mut transform)| {
            // Not `lerp`, whose `a * (1 - t) + b * t` draws a still agent
            // a rounding error off where it is, a different one each frame.
            let drawn = if alpha >= 1.0 {
                pos.0
            } else {
                previous.0 + (pos.0 - previous.0) * alpha
            };
            // A position set to NaN by other code is not drawn until a step
            // has made it finite again.
            if drawn.is_finite() {
                transform.translation = ground.place(drawn, transform.translation);
            }
            transform.rotation = ground.rotation(heading.0);
        },
    );
}
