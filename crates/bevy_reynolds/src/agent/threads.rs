//! Which thread a step runs on: the main thread when every pass over the
//! agents is serial, so a step of a few hundred agents wakes no worker
//! thread and stays in one core's cache; the compute pool's workers when a
//! pass splits between threads (a system on the main thread would then hand
//! its pass to the workers and wait for them, and a step split between the
//! main thread and the workers wakes each in turn). See BENCHMARKS.md, "The
//! fixed cost", for what it saves.
//! Capabilities say what their entities cost with two markers, made
//! required components by their plugins: [`CostlyStep`] (obstacles and
//! containment: their passes split from fewer agents) and [`WorkersStep`]
//! (flockers, whose systems run on the workers).

use bevy::ecs::schedule::ScheduleConfigs;
use bevy::ecs::system::{NonSendMarker, ScheduleSystem};
use bevy::prelude::*;

use super::components::SteeringAgent;
use crate::passes::{CHEAP, COSTLY, task_len};

/// On an entity whose presence makes a step's passes split between threads
/// from [`COSTLY`]'s count of agents rather than [`CHEAP`]'s.
#[derive(Component, Debug, Default, Clone, Copy)]
pub(crate) struct CostlyStep;

/// On an agent whose capability runs its own passes on the compute pool's
/// workers: a step with one stays there.
#[derive(Component, Debug, Default, Clone, Copy)]
pub(crate) struct WorkersStep;

/// `system` on the step's thread (see the module): two instances of it,
/// one skipped each step by its run condition. What one instance keeps of
/// its own is when it last ran: the one that runs sees every change since
/// then, which is at least every change since either ran (the obstacle
/// index, the only system that asks, may gather the obstacles once more
/// than it needed to).
pub(crate) fn on_the_steps_thread<M>(
    system: impl IntoSystem<(), (), M> + Copy,
) -> ScheduleConfigs<ScheduleSystem> {
    fn on_main_thread(_: NonSendMarker) {}
    (
        system.run_if(not(step_on_main_thread)),
        on_main_thread.pipe(system).run_if(step_on_main_thread),
    )
        .into_configs()
}

/// Whether every pass over the agents this step is serial: fewer agents
/// than [`CHEAP`] splits, and than [`COSTLY`] does if anything makes the
/// step costly; and no agent whose capability stays on the workers. (From
/// what no system of the step changes, so both instances of a system see
/// the same answer.)
fn step_on_main_thread(
    agents: Query<(), With<SteeringAgent>>,
    on_workers: Query<(), With<WorkersStep>>,
    costly: Query<(), With<CostlyStep>>,
) -> bool {
    let n = agents.count();
    on_workers.is_empty()
        && task_len(CHEAP, n).is_none()
        && (costly.is_empty() || task_len(COSTLY, n).is_none())
}
