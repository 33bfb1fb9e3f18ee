//! No allocation per step in steady state: trails are ring buffers and the
//! neighbor grid reuses its buffers. Counted with a counting allocator over
//! 100 steps after a warm-up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use steering_lab::bench::{PlainFlock, critters_mix_app, flock_app};
use steering_lab::{crowd, headless_app_with_threads, run_steps};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's allocations, for work that runs on one thread.
    static ON_THIS_THREAD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count_one() {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    ON_THIS_THREAD.with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is passed straight to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The count is global, so the tests here take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Allocations on every thread while `f` runs (Bevy's systems run on its
/// worker threads). The test harness's own threads can add a few, so take
/// the least of three runs.
fn allocations_during(mut f: impl FnMut()) -> usize {
    (0..3)
        .map(|_| {
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            f();
            ALLOCATIONS.load(Ordering::Relaxed) - before
        })
        .min()
        .unwrap_or(0)
}

/// Allocations on this thread while `f` runs.
fn allocations_on_this_thread(f: impl FnOnce()) -> usize {
    let before = ON_THIS_THREAD.with(|c| c.get());
    f();
    ON_THIS_THREAD.with(|c| c.get()) - before
}

#[test]
fn the_grid_and_the_flocking_math_allocate_nothing_once_warm() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut flock = PlainFlock::new(2_000, 1);
    flock.forces_with_grid();
    let count = allocations_on_this_thread(|| {
        for _ in 0..100 {
            flock.forces_with_grid();
        }
    });
    assert_eq!(count, 0, "{count} allocations in 100 rebuilds and searches");
}

#[test]
fn a_plugin_step_allocates_nothing_more_than_an_empty_world() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Bevy's scheduler and task pools allocate a little each step whatever
    // the agents do, about one allocation a system that runs; our systems
    // must add nothing to it, at any number of agents. The baseline is one
    // agent of each behavior, so every system runs (with no agent at all,
    // run conditions skip the ones with nothing to do). One
    // compute thread, so parallel queries run inline: with more, Bevy boxes
    // one task per batch of a parallel query, a few allocations a system
    // that grow with the agents (Bevy's scheduling, not our systems).
    let per_step = |app: &mut App| allocations_during(|| run_steps(app, 100, |_| {})) / 100;

    let mut few_app = critters_mix_app(5, 1, Some(1));
    let few = per_step(&mut few_app);
    let mut small_app = critters_mix_app(100, 1, Some(1));
    let mut large_app = critters_mix_app(5_000, 1, Some(1));
    let (small, large) = (per_step(&mut small_app), per_step(&mut large_app));
    eprintln!(
        "critters mix: {few} allocations a step with 5 agents, {small} at 100, {large} at 5,000"
    );
    assert_eq!(
        (small, large),
        (few, few),
        "allocations a step with 5 agents, 100 and 5,000"
    );
    let mut flock_few = flock_app(5, 1, Some(1));
    let flock_none = per_step(&mut flock_few);
    let mut flock_small = flock_app(100, 1, Some(1));
    let mut flock_large = flock_app(5_000, 1, Some(1));
    let (fs, fl) = (per_step(&mut flock_small), per_step(&mut flock_large));
    eprintln!("flock: {flock_none} allocations a step with 5 boids, {fs} at 100, {fl} at 5,000");
    assert_eq!(
        (fs, fl),
        (flock_none, flock_none),
        "allocations a step with 5 boids, 100 and 5,000"
    );
    // And the trails are full, so they are in steady state.
    let mut trails = large_app.world_mut().query::<&AgentTrail>();
    assert!(trails.iter(large_app.world()).all(|t| t.points.len() == 30));
}

/// A walled square of `n` wandering people who avoid each other and the
/// walls, and pass a door taking turns, on one compute thread, warmed up.
fn crowd_app(n: usize) -> App {
    let settings = SteeringSettings {
        agent: crowd::person(0.5, 1.3),
        ..default()
    };
    let mut app = headless_app_with_threads(60.0, 1, settings, Some(1));
    let side = (n as f32).sqrt() * 2.0 + 4.0;
    let corners = [
        Vec2::ZERO,
        Vec2::new(side, 0.0),
        Vec2::splat(side),
        Vec2::new(0.0, side),
    ];
    for i in 0..4 {
        let wall = SteeringObstacle::wall(corners[i], corners[(i + 1) % 4]);
        app.world_mut().spawn((wall, AgentPosition(Vec2::ZERO)));
    }
    // A door taking turns across the middle, which those wandering across
    // it pass.
    let door = TakeTurns::between(
        Vec2::new(side / 2.0, 1.0),
        Vec2::new(side / 2.0, side - 1.0),
    );
    app.world_mut().spawn((door, AgentPosition(Vec2::ZERO)));
    let across = (n as f32).sqrt().ceil() as usize;
    for k in 0..n {
        let at = Vec2::new((k % across) as f32, (k / across) as f32) * 2.0 + 2.0;
        app.world_mut().spawn((
            SteeringBehavior::Wander,
            AvoidAgents::default(),
            AgentPosition(at),
        ));
    }
    run_steps(&mut app, 200, |_| {});
    app
}

#[test]
fn a_crowd_step_allocates_nothing_more_than_a_few_people() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let per_step = |app: &mut App| allocations_during(|| run_steps(app, 100, |_| {})) / 100;
    let few = per_step(&mut crowd_app(5));
    let (small, large) = (
        per_step(&mut crowd_app(100)),
        per_step(&mut crowd_app(2_000)),
    );
    eprintln!("crowd: {few} allocations a step with 5 people, {small} at 100, {large} at 2,000");
    assert_eq!(
        (small, large),
        (few, few),
        "allocations a step with 5 people, 100 and 2,000"
    );
}

/// `n` flyers of every behavior (and on a looped 3D course), every other
/// one flocking, on one compute thread, warmed up.
fn flyers_app(n: usize) -> App {
    let mut app = headless_app_with_threads(60.0, 1, SteeringSettings::default(), Some(1));
    let leader = app
        .world_mut()
        .spawn((SteeringFlyer, FlyerBehavior::Wander))
        .id();
    let course = std::sync::Arc::new(FlyerPath::new(
        [
            Vec3::ZERO,
            Vec3::new(400.0, 100.0, 0.0),
            Vec3::new(0.0, 200.0, -400.0),
        ],
        true,
    ));
    for k in 0..n {
        let at = Vec3::new((k % 20) as f32, (k / 400) as f32, ((k / 20) % 20) as f32) * 15.0;
        let target = FlyerTarget::Entity(leader);
        let behavior = match k % 6 {
            0 => FlyerBehavior::Wander,
            1 => FlyerBehavior::Pursue(target),
            2 => FlyerBehavior::Arrive(FlyerTarget::Point(Vec3::new(300.0, 100.0, 0.0))),
            3 => FlyerBehavior::Graze(target),
            4 => FlyerBehavior::OffsetPursuit {
                leader: target,
                offset: Vec3::new(-40.0, 20.0, 10.0),
            },
            _ => FlyerBehavior::Idle,
        };
        let flyer = app
            .world_mut()
            .spawn((SteeringFlyer, behavior, FlyerPosition(at)))
            .id();
        if k % 6 == 5 {
            app.world_mut()
                .entity_mut(flyer)
                .insert(FlyerFollowPath::new(course.clone(), 20.0));
        }
        if k % 2 == 0 {
            app.world_mut()
                .entity_mut(flyer)
                .insert(FlyerFlocking::default());
        }
    }
    run_steps(&mut app, 100, |_| {});
    app
}

#[test]
fn a_step_with_flyers_allocates_nothing_more_than_a_few_flyers() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let per_step = |app: &mut App| allocations_during(|| run_steps(app, 100, |_| {})) / 100;
    let few = per_step(&mut flyers_app(6));
    let (small, large) = (
        per_step(&mut flyers_app(120)),
        per_step(&mut flyers_app(3_000)),
    );
    eprintln!("flyers: {few} allocations a step with 6 flyers, {small} at 120, {large} at 3,000");
    assert_eq!(
        (small, large),
        (few, few),
        "allocations a step with 6 flyers, 120 and 3,000"
    );
}
