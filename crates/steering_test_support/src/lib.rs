//! Headless apps with the real steering plugins, stepped one fixed step
//! per `update` at a rate of the caller's choosing, with Bevy's compute
//! pool sized as asked: what the plugin's tests and the lab build their
//! worlds with.

use bevy::app::TaskPoolOptions;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_reynolds::prelude::*;

/// Counts the fixed steps the app has run.
#[derive(Resource, Default)]
pub struct StepCount(pub u64);

fn count_steps(mut count: ResMut<StepCount>) {
    count.0 += 1;
}

/// Task pools whose compute pool, the one Bevy's parallel queries run on,
/// has `threads` threads (one a core if `None`).
///
/// Bevy's default gives the compute pool the cores left after one IO and one
/// async-compute thread: on a two-core machine, one thread, and parallel
/// queries then run on one core. The IO and async pools sleep here.
///
/// `Some(0)` keeps Bevy's default pools, as a game has them.
pub fn compute_threads(threads: Option<usize>) -> TaskPoolOptions {
    if threads == Some(0) {
        return TaskPoolOptions::default();
    }
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut options = TaskPoolOptions::default();
    options.compute.min_threads = threads;
    options.compute.max_threads = threads;
    options.min_total_threads = threads + 2;
    options.max_total_threads = threads + 2;
    options
}

/// Bevy's `MinimalPlugins` with the compute pool sized to `threads` (see
/// [`compute_threads`]; Bevy's pools are made once per process: the first
/// app decides), stepping at `hz` one fixed step per `update`, its steps
/// counted ([`StepCount`]). No steering: the baseline of the plugin's
/// fixed cost.
pub fn empty_app_with_threads(hz: f64, threads: Option<usize>) -> App {
    let mut app = App::new();
    let pools = compute_threads(threads);
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: pools,
    }))
    .insert_resource(Time::<Fixed>::from_hz(hz))
    .init_resource::<StepCount>();
    // Counted last in the fixed step (after the plugin's sets, if any).
    app.add_systems(FixedLast, count_steps);
    let timestep = app.world().resource::<Time<Fixed>>().timestep();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(timestep));
    app
}

/// [`empty_app_with_threads`] with the steering plugins (wander streams
/// from `seed`) and `settings`.
pub fn headless_app_with_threads(
    hz: f64,
    seed: u64,
    settings: SteeringSettings,
    threads: Option<usize>,
) -> App {
    let mut app = empty_app_with_threads(hz, threads);
    app.add_plugins(SteeringPlugins::default().with_seed(seed))
        .insert_resource(settings);
    app
}

/// [`headless_app_with_threads`] with one compute thread a core.
pub fn headless_app(hz: f64, seed: u64, settings: SteeringSettings) -> App {
    headless_app_with_threads(hz, seed, settings, None)
}

/// Runs `app` until it has made `steps` more fixed steps, calling `each`
/// after every step.
pub fn run_steps(app: &mut App, steps: u64, mut each: impl FnMut(&mut World)) {
    let target = app.world().resource::<StepCount>().0 + steps;
    while app.world().resource::<StepCount>().0 < target {
        let before = app.world().resource::<StepCount>().0;
        app.update();
        let after = app.world().resource::<StepCount>().0;
        // With a manual duration of exactly one timestep, each update after
        // the first runs exactly one step; report each one.
        if after > before {
            each(app.world_mut());
        }
    }
}

/// A hash of every agent's position, bit for bit, in the agents' order:
/// the same run gives the same hash on any number of threads.
pub fn positions_hash(app: &mut App) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut query = app.world_mut().query::<(Entity, &AgentPosition)>();
    let mut all: Vec<(Entity, Vec2)> = query.iter(app.world()).map(|(e, p)| (e, p.0)).collect();
    all.sort_by_key(|(e, _)| *e);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    // The positions in the agents' order, not their entities' bits: a
    // resource the plugins add is an entity too, and shifts every index.
    for (_, p) in all {
        p.x.to_bits().hash(&mut hasher);
        p.y.to_bits().hash(&mut hasher);
    }
    hasher.finish()
}

/// [`positions_hash`] for flyers: every flyer's position, bit for bit, in
/// the flyers' order.
pub fn flyer_positions_hash(app: &mut App) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut query = app
        .world_mut()
        .query_filtered::<(Entity, &FlyerPosition), With<SteeringFlyer>>();
    let mut all: Vec<(Entity, Vec3)> = query.iter(app.world()).map(|(e, p)| (e, p.0)).collect();
    all.sort_by_key(|(e, _)| *e);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (_, p) in all {
        p.to_array().map(f32::to_bits).hash(&mut hasher);
    }
    hasher.finish()
}
