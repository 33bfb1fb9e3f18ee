//! A herd on the ground of a 3D world: seekers (blue), arrivers (green) and
//! grazers (red) round a yellow marker that circles the field, and walkers
//! (purple) on a loop round it, all keeping apart by flocking's separation
//! and steering round three rocks, under a 3D camera. The simulation is the
//! same 2D one on the XZ plane (`GroundPlane::Xz`), in metres: a length unit
//! of 0.05 makes the chapter's 20 px critters a metre long and 11 m/s fast.
//! Each agent is a cone pointing the way it heads, at the height the game
//! gave it; the plugin only moves it on the ground. The debug view draws on
//! the ground with gizmos: the rocks as the agents see them, the walkers'
//! loop and aims, each agent's look-ahead and velocity.
//!
//! ```sh
//! cargo run --example herd_3d
//! cargo run --example herd_3d -- --agents 300 --seed 7
//! cargo run --example herd_3d -- --seconds 5 --screenshot herd.png --report herd.json
//! ```

use std::path::PathBuf;
use std::sync::Arc;

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

/// Metres a chapter's pixel is here.
const UNIT: f32 = 0.05;
/// The field's half-width, in metres.
const FIELD: f32 = 25.0;
/// How high the agents' middles are off the ground, in metres.
const HEIGHT: f32 = 0.5;

const BLUE: Color = Color::srgb_u8(47, 111, 235);
const GREEN: Color = Color::srgb_u8(47, 158, 68);
const RED: Color = Color::srgb_u8(224, 49, 49);
const YELLOW: Color = Color::srgb_u8(240, 200, 60);
const PURPLE: Color = Color::srgb_u8(150, 90, 220);
const GROUND: Color = Color::srgb_u8(40, 46, 40);
const STONE: Color = Color::srgb_u8(92, 92, 100);

/// The rocks: where (x, z) and how wide, in metres.
const ROCKS: [(Vec2, f32); 3] = [
    (Vec2::new(-9.0, -8.0), 2.5),
    (Vec2::new(5.0, 13.0), 3.0),
    (Vec2::new(15.0, -11.0), 2.0),
];

/// A herd steering round a marker on a 3D field.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many agents, split evenly over seek, arrive, graze and walk.
    #[arg(long, default_value_t = 60)]
    agents: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write where every agent is and started, as JSON, into this file on
    /// exit.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// The marker the herd steers round.
#[derive(Component)]
struct Marker;

/// A rock, for the report.
#[derive(Component)]
struct Rock;

/// Where an agent was spawned, for the report.
#[derive(Component)]
struct Start(Vec2);

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin(
            "Herd 3D",
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
        // The view on the ground: what the agents see of the rocks, the
        // walkers' loop, and where each agent looks and goes.
        .insert_resource(DebugDraw {
            velocity: true,
            look_ahead: true,
            ..default()
        })
        .insert_resource(args)
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, circle_marker.before(SteeringSystems::Prepare))
        .add_systems(Update, write_report.run_if(common::report_due))
        .run()
}

#[derive(Resource)]
struct Seed(u64);

fn setup(
    mut commands: Commands,
    args: Res<Args>,
    seed: Res<Seed>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // Looking down on the field from the south, drawn beside the docked
    // panel. Unlit colors, no tonemapping: what the software renderer
    // draws fastest.
    commands.spawn((
        Camera3d::default(),
        BesideInspector,
        Tonemapping::None,
        Transform::from_xyz(0.0, 44.0, 42.0).looking_at(Vec3::new(0.0, 0.0, 3.0), Vec3::Y),
    ));
    let mut unlit = |color: Color| {
        materials.add(StandardMaterial {
            base_color: color,
            unlit: true,
            ..default()
        })
    };
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(2.0 * FIELD, 2.0 * FIELD))),
        MeshMaterial3d(unlit(GROUND)),
    ));

    // The marker, moved on the ground by its Transform alone: agents read
    // it on the XZ plane, and measure its velocity to pursue it.
    let marker = commands
        .spawn((
            Marker,
            MeasuredVelocity::default(),
            Mesh3d(meshes.add(Sphere::new(0.8))),
            MeshMaterial3d(unlit(YELLOW)),
            Transform::from_xyz(FIELD / 2.0, 0.8, 0.0),
        ))
        .id();

    // A cone a metre long, its tip along +x, the way agents face.
    let body = meshes.add(
        Cone {
            radius: 0.35,
            height: 1.0,
        }
        .mesh()
        .build()
        .rotated_by(Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2)),
    );
    // Rocks every agent steers round: a low stone drum each, and the
    // obstacle of its size (read on the ground from its Transform).
    let drum = meshes.add(Cylinder::new(1.0, 0.6));
    for (center, radius) in ROCKS {
        commands.spawn((
            Rock,
            SteeringObstacle::circle(radius),
            Mesh3d(drum.clone()),
            MeshMaterial3d(unlit(STONE)),
            Transform::from_xyz(center.x, 0.3, center.y).with_scale(Vec3::new(radius, 1.0, radius)),
        ));
    }
    let kinds = [
        (SteeringBehavior::Seek(marker.into()), BLUE),
        (SteeringBehavior::Arrive(marker.into()), GREEN),
        (SteeringBehavior::Graze(marker.into()), RED),
        (SteeringBehavior::Idle, PURPLE),
    ]
    .map(|(behavior, color)| (behavior, color, unlit(color)));
    let walkers = args.agents / kinds.len();
    let walk = Arc::new(SteeringPath::new(
        (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 6.0) * 19.0),
        true,
    ));
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed.0);
    let flocking = Flocking::separation_only().scaled(UNIT);
    // The field, a metre in from its edge: grazers that bolt from the
    // marker turn back before they run off it into the dark.
    let field = Containment::rect(Vec2::splat(1.0 - FIELD), Vec2::splat(FIELD - 1.0));
    for i in 0..args.agents {
        let (behavior, color, material) = &kinds[i % kinds.len()];
        let mut pos = Vec2::new(
            rng.random_range(-FIELD..FIELD),
            rng.random_range(-FIELD..FIELD),
        );
        let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        let mut agent = commands.spawn(());
        if *behavior == SteeringBehavior::Idle {
            // Walkers start spread along their loop.
            let mut follow = FollowPath::new(walk.clone(), 1.0);
            follow.cursor = walk.length() * (i / kinds.len()) as f32 / walkers.max(1) as f32;
            pos = walk.point_at(follow.cursor);
            agent.insert(follow);
        }
        agent.insert((
            SteeringAgent,
            behavior.clone(),
            flocking,
            field.clone(),
            AgentPosition(pos),
            Start(pos),
            AgentHeading::from_angle(angle),
            WanderAngle(angle),
            Mesh3d(body.clone()),
            MeshMaterial3d(material.clone()),
            AgentColor(*color),
            // The height is the game's: the plugin moves x and z.
            Transform::from_xyz(pos.x, HEIGHT, pos.y),
        ));
    }
}

/// The marker goes round a circle of half the field, at 7 m/s.
fn circle_marker(time: Res<Time>, mut marker: Query<&mut Transform, With<Marker>>) {
    let radius = FIELD / 2.0;
    let angle = time.elapsed_secs() * 7.0 / radius;
    for mut transform in &mut marker {
        transform.translation.x = radius * angle.cos();
        transform.translation.z = radius * angle.sin();
    }
}

/// For unattended runs with `--report`: where every agent is (its
/// Transform) and started, and where on the window each rock's rim on the
/// ground and the field are (their bounding boxes, in logical pixels), as
/// JSON.
fn write_report(
    report: Res<Report>,
    fixed: Res<Time<Fixed>>,
    agents: Query<(&SteeringBehavior, &Transform, &Start)>,
    rocks: Query<(&SteeringObstacle, &Transform), With<Rock>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
) {
    let Ok((camera, eye)) = camera.single() else {
        return;
    };
    // The box round these points of the ground, in the window (the
    // camera's viewport is the window less the docked panel).
    let corner = camera.logical_viewport_rect().map_or(Vec2::ZERO, |r| r.min);
    let in_window = |points: &mut dyn Iterator<Item = Vec3>| {
        let (mut min, mut max) = (Vec2::MAX, Vec2::MIN);
        for p in points.filter_map(|at| camera.world_to_viewport(eye, at).ok()) {
            (min, max) = (min.min(corner + p), max.max(corner + p));
        }
        json!([min.x, min.y, max.x, max.y])
    };
    let rims: Vec<_> = rocks
        .iter()
        .map(|(obstacle, transform)| {
            let SteeringObstacle::Circle { radius } = obstacle else {
                return json!(null);
            };
            in_window(&mut (0..32).map(|i| {
                let rim = Vec2::from_angle(i as f32 * std::f32::consts::TAU / 32.0) * *radius;
                transform.translation.with_y(0.0) + Vec3::new(rim.x, 0.0, rim.y)
            }))
        })
        .collect();
    let field = in_window(
        &mut [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .into_iter()
            .map(|(x, z)| Vec3::new(x * FIELD, 0.0, z * FIELD)),
    );
    let agents: Vec<_> = agents
        .iter()
        .map(|(behavior, transform, start)| {
            let kind = match behavior {
                SteeringBehavior::Seek(_) => "seek",
                SteeringBehavior::Arrive(_) => "arrive",
                SteeringBehavior::Idle => "walk",
                _ => "graze",
            };
            let t = transform.translation;
            json!({ "kind": kind, "translation": [t.x, t.y, t.z], "start": [start.0.x, start.0.y] })
        })
        .collect();
    report.publish(&json!({
        "seconds": fixed.elapsed_secs_f64(),
        "agents": agents,
        "rock_rims_in_window": rims,
        "field_in_window": field,
    }));
}
