//! The step: each agent's accumulated steering combined into one force,
//! capped once, divided by the mass; the speed capped, the turn limited,
//! semi-implicit Euler, the wrap round the world's edges and the heading.

use bevy::ecs::change_detection::ContiguousMut;
use bevy::prelude::*;
use reynolds::math::finite_or_zero;
use reynolds::model::{Kinematics, LANES, sanitize_response_time, step_vehicle, step_vehicles};
use reynolds::wrap::wrap;

use super::components::{
    AgentHeading, AgentPosition, AgentPreviousPosition, AgentVelocity, SteeringAccumulator,
    SteeringAgent,
};
use super::ground::Writeback;
use super::params::SteeringParams;
use super::settings::SteeringSettings;
use super::space::AgentSpace;
use crate::math::{Dir, Vector};
use crate::parallel::{CHEAP, Chunks, Column, Written, for_each, for_each_table_chunk};

/// Part of [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate),
/// before the step: the combined [`SteeringForce`](crate::SteeringForce) and the
/// [`DesiredVelocity`](crate::DesiredVelocity) it asks for, for the agents that carry them (debug
/// outputs, so the step itself writes neither).
pub(crate) fn record_outputs<V: AgentSpace>(
    mut agents: Query<
        (
            &V::Velocity,
            &V::Accumulator,
            &SteeringParams,
            Option<&mut V::Force>,
            Option<&mut V::Desired>,
        ),
        (With<V::Marker>, Or<(With<V::Force>, With<V::Desired>)>),
    >,
) {
    for_each(
        CHEAP,
        &mut agents,
        |(vel, steering, params, force, desired)| {
            let combined = params.combine.apply(&**steering);
            if let Some(mut force) = force {
                *force = combined.into();
            }
            if let Some(mut desired) = desired {
                // A velocity set to NaN by other code is still zero here, as
                // it is to the step.
                let vel = finite_or_zero(**vel);
                let asked = vel + combined * sanitize_response_time(params.response_time);
                *desired = if asked.is_finite() { asked } else { vel }.into();
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
/// item by item, eight agents at a time ([`step_vehicles`]): an
/// agent's step is a chain of three square roots and three divisions, and
/// eight lanes take each once for eight agents (see BENCHMARKS.md).
pub(crate) fn integrate(
    settings: Res<SteeringSettings>,
    writeback: Res<Writeback>,
    time: Res<Time>,
    mut agents: Query<
        (
            &mut AgentPosition,
            &mut AgentPreviousPosition,
            &mut AgentVelocity,
            &mut AgentHeading,
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
    let tables = tables.map(
        |(pos, previous, vel, heading, steering, params)| IntegrateTable {
            pos: ContiguousMut::bypass_change_detection_split(pos),
            previous: ContiguousMut::bypass_change_detection_split(previous),
            vel: ContiguousMut::bypass_change_detection_split(vel),
            heading: ContiguousMut::bypass_change_detection_split(heading),
            steering,
            params,
        },
    );
    for_each_table_chunk!(CHEAP, total, tables, |(mut moved, (steering, params))| {
        let len = steering.len();
        let mut start = 0;
        // Eight at a time (`step_vehicles`), the rest one by one.
        while start + LANES <= len {
            let run = start..start + LANES;
            let mut eight = moved.run(run.clone());
            let (steering, params) = (&steering[run.clone()], &params[run]);
            let agents = std::array::from_fn(|k| eight.kinematics(k));
            let headings = std::array::from_fn(|k| eight.heading.get()[k].0.as_vec2());
            let forces = std::array::from_fn(|k| params[k].combine.apply(&steering[k].0));
            let vehicles = std::array::from_fn(|k| params[k].vehicle());
            let (next, facing) = step_vehicles(&agents, &headings, &forces, &vehicles, step.dt);
            for k in 0..LANES {
                let stepped = step.finish(agents[k].pos, headings[k], next[k], facing[k]);
                eight.set(k, stepped);
            }
            start += LANES;
        }
        for i in start..len {
            let Kinematics { pos, vel } = moved.kinematics(i);
            let heading = moved.heading.get()[i].0;
            moved.set(i, step.agent(pos, vel, heading, &steering[i], &params[i]));
        }
    },);
}

/// One table's columns, as [`integrate`] reads and writes them.
struct IntegrateTable<'w> {
    pos: Column<'w, AgentPosition>,
    previous: Column<'w, AgentPreviousPosition>,
    vel: Column<'w, AgentVelocity>,
    heading: Column<'w, AgentHeading>,
    steering: &'w [SteeringAccumulator],
    params: &'w [SteeringParams],
}

impl Chunks for IntegrateTable<'_> {
    type Chunk<'a>
        = (
        MovedColumns<'a>,
        (&'a [SteeringAccumulator], &'a [SteeringParams]),
    )
    where
        Self: 'a;

    fn chunks(&mut self, len: usize) -> impl Iterator<Item = Self::Chunk<'_>> {
        let (steering, params) = (self.steering, self.params);
        MovedColumns {
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
struct MovedColumns<'a> {
    pos: Written<'a, AgentPosition>,
    previous: Written<'a, AgentPreviousPosition>,
    vel: Written<'a, AgentVelocity>,
    heading: Written<'a, AgentHeading>,
}

impl<'a> MovedColumns<'a> {
    fn into_chunks(self, len: usize) -> impl Iterator<Item = MovedColumns<'a>> {
        self.pos
            .into_chunks(len)
            .zip(self.previous.into_chunks(len))
            .zip(self.vel.into_chunks(len).zip(self.heading.into_chunks(len)))
            .map(|((pos, previous), (vel, heading))| MovedColumns {
                pos,
                previous,
                vel,
                heading,
            })
    }

    /// Agents `range`, indexed from 0.
    #[inline]
    fn run(&mut self, range: std::ops::Range<usize>) -> MovedColumns<'_> {
        MovedColumns {
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
        self.pos.set(i, AgentPosition(stepped.pos));
        self.previous
            .set(i, AgentPreviousPosition(stepped.previous));
        self.vel.set(i, AgentVelocity(stepped.vel));
        if let Some(facing) = stepped.heading {
            self.heading.set(i, AgentHeading(facing));
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
    pos: Vector,
    previous: Vector,
    vel: Vector,
    /// The new heading, if it turned.
    heading: Option<Dir>,
}

impl Step {
    /// One agent's step, alone.
    #[inline]
    fn agent(
        self,
        pos: Vector,
        vel: Vector,
        heading: Dir,
        steering: &SteeringAccumulator,
        params: &SteeringParams,
    ) -> Stepped {
        let facing = heading.as_vec2();
        let (next, facing_next) = step_vehicle(
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
    fn finish(self, pos: Vector, facing: Vector, next: Kinematics, facing_next: Vector) -> Stepped {
        let mut previous = finite_or_zero(pos);
        let mut pos = if self.moves { next.pos } else { previous };
        if self.moves
            && let Some(rect) = self.wrap
        {
            let (wrapped, shift) = wrap(pos, rect.min, rect.max);
            if shift != Vector::ZERO {
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
            heading: (facing_next != facing).then(|| Dir::new_unchecked(facing_next)),
        }
    }
}
