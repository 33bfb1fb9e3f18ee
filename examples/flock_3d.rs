//! A flock of birds in 3D, and a hawk hunting them: the birds (pale blue)
//! flock by Reynolds' three rules in full 3D (`FlyerFlocking`), each
//! evading the hawk (red) when it comes within 4.5 m, so the flock opens
//! round it and closes up behind; a behavior of the demo's own turns them
//! back when they stray from the cliff (grey) in the middle. The hawk pursues one bird after another. Every
//! flyer faces its velocity and banks into its turns. The camera orbits
//! the flock; the tuning panel is docked on the right; the debug view
//! draws each flyer's velocity, its up (the bank) and where each evader
//! and the hawk look ahead to.
//!
//! ```sh
//! cargo run --example flock_3d
//! cargo run --example flock_3d -- --birds 4000 --seed 7
//! cargo run --example flock_3d -- --seconds 5 --screenshot flock.png --report flock.json
//! ```

use std::path::PathBuf;

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy_reynolds::inspector::BesideInspector;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, DebugDraw};
use bevy_reynolds::reynolds::defaults::UNITS_PER_METRE;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;

mod common;
use common::{Report, RunArgs, View};

/// Metres a chapter's pixel is here: a 20 px critter is a metre long.
const UNIT: f32 = 0.05;
/// Where the flock circles, in metres: above the cliff's top.
const HOME: Vec3 = Vec3::new(0.0, 30.0, 0.0);
/// How far from home the birds start, at most, in metres.
const SPREAD: f32 = 18.0;

const BIRD: Color = Color::srgb_u8(150, 190, 240);
const HAWK: Color = Color::srgb_u8(230, 60, 50);
const CLIFF: Color = Color::srgb_u8(92, 92, 100);
const GROUND: Color = Color::srgb_u8(40, 46, 40);

/// A flock of birds and a hawk, in 3D.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many birds.
    #[arg(long, default_value_t = 1500)]
    birds: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write where every flyer is, as JSON, into this file on exit.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// A bird of the flock.
#[derive(Component)]
struct Bird;

/// The hawk, and how long it keeps after its bird.
#[derive(Component)]
struct Hawk {
    chase: Timer,
}

/// The camera, orbiting the flock.
#[derive(Component)]
struct Orbit;

#[derive(Resource)]
struct Seed(u64);

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin(
            "Flock 3D",
            View::Ground {
                length_unit: UNIT * UNITS_PER_METRE,
            },
        )
        .with_docked_panel()
        .with_report(args.report.clone());
    let seed = plugin.seed;
    App::new()
        .add_plugins(plugin)
        .insert_resource(Seed(seed))
        .insert_resource(DebugDraw {
            velocity: true,
            look_ahead: true,
            // Arrows a little longer than a bird.
            arrow_seconds: 0.12,
            ..default()
        })
        .insert_resource(args)
        .add_systems(Startup, setup)
        .add_systems(
            FixedUpdate,
            (
                pick_the_hawks_bird.before(SteeringSystems::Prepare),
                keep_in_the_sky.in_set(SteeringSystems::Forces),
            ),
        )
        .add_systems(Update, orbit_the_flock)
        .add_systems(Update, write_report.run_if(common::report_due))
        .run()
}

fn setup(
    mut commands: Commands,
    args: Res<Args>,
    seed: Res<Seed>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Camera3d::default(),
        Orbit,
        BesideInspector,
        Tonemapping::None,
        Transform::from_xyz(0.0, 45.0, 75.0).looking_at(HOME, Vec3::Y),
    ));
    let mut unlit = |color: Color| {
        materials.add(StandardMaterial {
            base_color: color,
            unlit: true,
            ..default()
        })
    };
    commands.spawn((
        Mesh3d(meshes.add(Circle::new(80.0).mesh().resolution(64))),
        MeshMaterial3d(unlit(GROUND)),
        Transform::from_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cylinder::new(4.0, 22.0))),
        MeshMaterial3d(unlit(CLIFF)),
        Transform::from_xyz(0.0, 11.0, 0.0),
    ));

    // A cone, its tip along +x (the way flyers face), its base flattened
    // into wings along z.
    let cone = |length: f32| {
        Cone {
            radius: length * 0.35,
            height: length,
        }
        .mesh()
        .build()
        .rotated_by(Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2))
        .scaled_by(Vec3::new(1.0, 0.35, 1.0))
    };
    let hawk = commands
        .spawn((
            SteeringFlyer,
            Hawk {
                chase: Timer::from_seconds(4.0, TimerMode::Repeating),
            },
            FlyerPosition(HOME + Vec3::new(45.0, 10.0, 0.0)),
            // A little faster than the birds' 11 m/s.
            SteeringParams {
                max_speed: 260.0 * UNIT,
                ..default()
            },
            AgentColor(HAWK),
            Mesh3d(meshes.add(cone(2.2))),
            MeshMaterial3d(unlit(HAWK)),
        ))
        .id();

    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed.0);
    let (body, feathers) = (meshes.add(cone(0.9)), unlit(BIRD));
    let flocking = FlyerFlocking(Flocking::boids(120.0).scaled(UNIT));
    for _ in 0..args.birds {
        let mut random = || rng.random_range(-1.0..1.0f32);
        let way = Vec3::new(random(), random() * 0.3, random()).normalize_or(Vec3::X);
        let at = HOME + Vec3::new(random(), random() * 0.5, random()) * SPREAD;
        commands.spawn((
            Bird,
            flocking,
            // Away from the hawk, weighed above the rules, and a little
            // wander (`keep_in_the_sky` turns them back home).
            FlyerBehavior::Blend(vec![
                Weighted::new(4.0, FlyerBehavior::Evade(FlyerTarget::Entity(hawk))),
                Weighted::new(0.3, FlyerBehavior::Wander),
            ]),
            SteeringParams {
                panic_radius: 90.0 * UNIT,
                ..default()
            },
            FlyerPosition(at),
            FlyerVelocity(way * 6.0),
            WanderDirection(way),
            AgentColor(BIRD),
            Mesh3d(body.clone()),
            MeshMaterial3d(feathers.clone()),
        ));
    }
}

/// A behavior of the game's own: a bird more than 30 m from home across,
/// or below 12 m or above 50 m, turns back toward home at full speed,
/// weighed as one rule of the flock. Inside, the flock flies where it
/// likes.
fn keep_in_the_sky(
    mut birds: Query<
        (
            &FlyerPosition,
            &FlyerVelocity,
            &SteeringParams,
            &mut FlyerAccumulator,
        ),
        With<Bird>,
    >,
) {
    for (pos, vel, params, mut steering) in &mut birds {
        let off = pos.0 - HOME;
        let across = Vec2::new(off.x, off.z).length();
        if across > 30.0 || !(12.0..=50.0).contains(&pos.y) {
            let home = (HOME - pos.0).normalize_or_zero() * params.max_speed;
            steering.add_desired(
                SteeringPriority::Normal,
                1.0,
                home,
                vel.0,
                params.response_time,
            );
        }
    }
}

/// Every 4 s the hawk picks a bird to pursue: the nearest of a few drawn
/// at random, as a hawk goes for the one it can catch.
fn pick_the_hawks_bird(
    time: Res<Time>,
    seed: Res<Seed>,
    mut hawks: Query<(&mut Hawk, &mut FlyerBehavior, &FlyerPosition), Without<Bird>>,
    birds: Query<(Entity, &FlyerPosition), With<Bird>>,
    mut draws: Local<u64>,
) {
    let birds: Vec<_> = birds.iter().collect();
    for (mut hawk, mut behavior, at) in &mut hawks {
        let idle = *behavior == FlyerBehavior::Idle;
        if !hawk.chase.tick(time.delta()).just_finished() && !idle || birds.is_empty() {
            continue;
        }
        *draws += 1;
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed.0 ^ *draws);
        let prey = (0..5)
            .map(|_| birds[rng.random_range(0..birds.len())])
            .min_by(|a, b| a.1.distance(at.0).total_cmp(&b.1.distance(at.0)));
        if let Some((prey, _)) = prey {
            *behavior = FlyerBehavior::Pursue(FlyerTarget::Entity(prey));
        }
    }
}

/// The camera goes round the flock's middle once a minute, 60 m out and
/// 15 m above it, following the middle as it drifts.
fn orbit_the_flock(
    time: Res<Time>,
    birds: Query<&FlyerPosition, With<Bird>>,
    mut camera: Query<&mut Transform, With<Orbit>>,
    mut middle: Local<Option<Vec3>>,
) {
    let (sum, count) = birds
        .iter()
        .fold((Vec3::ZERO, 0), |(sum, n), p| (sum + p.0, n + 1));
    let now = if count > 0 { sum / count as f32 } else { HOME };
    // Eased, so the view does not jerk as birds scatter.
    let eased = middle.map_or(now, |m| m.lerp(now, 0.05));
    *middle = Some(eased);
    let angle = time.elapsed_secs() * std::f32::consts::TAU / 60.0;
    for mut transform in &mut camera {
        let eye = eased + Vec3::new(angle.cos() * 60.0, 15.0, angle.sin() * 60.0);
        *transform = Transform::from_translation(eye).looking_at(eased, Vec3::Y);
    }
}

/// For unattended runs with `--report`: every flyer's place and velocity,
/// and how many birds the camera shows in the window beside the panel.
fn write_report(
    report: Res<Report>,
    fixed: Res<Time<Fixed>>,
    birds: Query<(&FlyerPosition, &FlyerVelocity), With<Bird>>,
    hawk: Query<&FlyerPosition, With<Hawk>>,
    camera: Query<(&Camera, &GlobalTransform), With<Orbit>>,
) {
    let Ok((camera, eye)) = camera.single() else {
        return;
    };
    let viewport = camera.logical_viewport_rect().unwrap_or(Rect::EMPTY);
    let mut in_view = 0;
    let birds: Vec<_> = birds
        .iter()
        .map(|(p, v)| {
            if let Ok(at) = camera.world_to_viewport(eye, p.0) {
                in_view += viewport.contains(viewport.min + at) as usize;
            }
            json!({ "pos": p.0.to_array(), "vel": v.0.to_array() })
        })
        .collect();
    report.publish(&json!({
        "seconds": fixed.elapsed_secs_f64(),
        "birds": birds,
        "birds_in_view": in_view,
        "viewport": [viewport.min.x, viewport.min.y, viewport.max.x, viewport.max.y],
        "hawk": hawk.single().map(|p| p.0.to_array()).ok(),
    }));
}
