//! Experiments with many agents: wander's drift, and whole runs of the
//! Critters mix for determinism.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::scenario::{headless_app, run_steps};

/// The standard deviation of a set of angles, in degrees.
fn spread_degrees(angles: &[f32]) -> f32 {
    if angles.is_empty() {
        return 0.0;
    }
    let n = angles.len() as f64;
    let mean = angles.iter().map(|&a| a as f64).sum::<f64>() / n;
    let variance = angles
        .iter()
        .map(|&a| (a as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    variance.sqrt().to_degrees() as f32
}

/// Wander's drift over `seconds` through the real plugin: `agents`
/// wanderers start with a wander angle of 0, and this is the standard
/// deviation of their angles afterwards, in degrees. About 21° for one
/// second at the default rate, at any `hz`.
pub fn wander_drift_degrees(hz: f64, agents: usize, seconds: f64, seed: u64) -> f32 {
    let settings = SteeringSettings {
        wrap: None,
        ..default()
    };
    let mut app = headless_app(hz, seed, settings);
    app.world_mut()
        .spawn_batch((0..agents).map(|_| (SteeringAgent, SteeringBehavior::Wander)));
    run_steps(&mut app, (seconds * hz).round() as u64, |_| {});
    let mut angles = app.world_mut().query::<&WanderAngle>();
    let angles: Vec<f32> = angles.iter(app.world()).map(|a| a.0).collect();
    spread_degrees(&angles)
}

/// Wander's drift for flyers, through the real plugin: `agents` flyers
/// start wandering along +x, and this is the root mean square of the angle
/// each heads away from +x after `seconds`, in degrees: on the plane the
/// same measure is [`wander_drift_degrees`], about 21° for one second.
pub fn flyer_wander_drift_degrees(hz: f64, agents: usize, seconds: f64, seed: u64) -> f32 {
    let mut app = headless_app(hz, seed, SteeringSettings::default());
    app.world_mut()
        .spawn_batch((0..agents).map(|_| (SteeringFlyer, FlyerBehavior::Wander)));
    run_steps(&mut app, (seconds * hz).round() as u64, |_| {});
    let mut directions = app.world_mut().query::<&WanderDirection>();
    let squares: Vec<f64> = directions
        .iter(app.world())
        .map(|d| f64::from(d.angle_between(Vec3::X)).powi(2))
        .collect();
    let mean = squares.iter().sum::<f64>() / squares.len().max(1) as f64;
    mean.sqrt().to_degrees() as f32
}

/// The mistake the chapter warns about, for comparison: wander angles
/// stepped by `scale * dt` instead of `rate * sqrt(dt)`, with the same
/// random numbers, computed with the core alone (the plugin only steps by
/// the square root). The drift shrinks as the rate rises: with a scale of 5,
/// about 30° at 30 Hz, 21° at 60 and 14° at 144.
pub fn wander_drift_dt_scaled_degrees(
    hz: f64,
    agents: usize,
    seconds: f64,
    seed: u64,
    scale: f32,
) -> f32 {
    core_drift_degrees(hz, agents, seconds, seed, |angle, dt, u| {
        angle + u * scale * dt
    })
}

/// The spread of `agents` angles after `seconds` of `step(angle, dt, u)`,
/// with `u` uniform from -1 to 1, in degrees.
fn core_drift_degrees(
    hz: f64,
    agents: usize,
    seconds: f64,
    seed: u64,
    step: impl Fn(f32, f32, f32) -> f32,
) -> f32 {
    let dt = (1.0 / hz) as f32;
    let steps = (seconds * hz).round() as u64;
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let angles: Vec<f32> = (0..agents)
        .map(|_| {
            (0..steps).fold(0.0, |angle, _| {
                step(angle, dt, rng.random_range(-1.0f32..1.0))
            })
        })
        .collect();
    spread_degrees(&angles)
}

/// The Critters mix: `per_behavior` agents each of seek, arrive, pursue,
/// wander and graze, at random places in (100..900, 100..600), still, each
/// facing its own random angle, around a target circling (500, 350) at
/// 144 px/s. Returns every agent's position after `seconds`, in spawn order.
///
/// The same seed gives bit-identical positions, whatever the thread count.
pub fn critters_run(seed: u64, hz: f64, seconds: f64, per_behavior: usize) -> Vec<Vec2> {
    let mut app = headless_app(hz, seed, SteeringSettings::critters());
    let mouse = add_circling_target(&mut app);
    let world = app.world_mut();
    let target = SteeringTarget::Entity(mouse);
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let kinds = [
        SteeringBehavior::Seek(target),
        SteeringBehavior::Arrive(target),
        SteeringBehavior::Pursue(target),
        SteeringBehavior::Wander,
        SteeringBehavior::Graze(target),
    ];
    let mut agents = Vec::new();
    for behavior in kinds {
        for _ in 0..per_behavior {
            let pos = Vec2::new(
                rng.random_range(100.0..900.0),
                rng.random_range(100.0..600.0),
            );
            let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
            agents.push(
                world
                    .spawn((
                        SteeringAgent,
                        behavior.clone(),
                        AgentPosition(pos),
                        AgentHeading::from_angle(angle),
                        WanderAngle(angle),
                        AgentTrail::default(),
                    ))
                    .id(),
            );
        }
    }
    run_steps(&mut app, (seconds * hz).round() as u64, |_| {});
    agents
        .iter()
        .map(|&agent| {
            app.world()
                .get::<AgentPosition>(agent)
                .map_or(Vec2::NAN, |p| p.0)
        })
        .collect()
}

/// A target that goes round a circle of radius 150 about (500, 350) at
/// 144 px/s, clockwise on screen, as the Critters figure's mouse does.
#[derive(Component)]
struct CirclingTarget;

const CIRCLE_CENTER: Vec2 = Vec2::new(500.0, 350.0);
const CIRCLE_RADIUS: f32 = 150.0;
const CIRCLE_SPEED: f32 = 144.0;

/// Where the circling target is after `t` seconds.
pub(crate) fn circle_point(t: f32) -> Vec2 {
    let angle = t * CIRCLE_SPEED / CIRCLE_RADIUS;
    CIRCLE_CENTER + Vec2::new(angle.cos(), -angle.sin()) * CIRCLE_RADIUS
}

fn circle_target(time: Res<Time>, mut targets: Query<&mut AgentPosition, With<CirclingTarget>>) {
    for mut pos in &mut targets {
        pos.0 = circle_point(time.elapsed_secs());
    }
}

/// Spawns the circling target, with a measured velocity for pursuers, and
/// the system that moves it before each step.
pub(crate) fn add_circling_target(app: &mut App) -> Entity {
    app.add_systems(FixedUpdate, circle_target.before(SteeringSystems::Prepare));
    app.world_mut()
        .spawn((
            CirclingTarget,
            AgentPosition(circle_point(0.0)),
            MeasuredVelocity::default(),
        ))
        .id()
}
