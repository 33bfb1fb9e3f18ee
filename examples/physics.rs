//! Agents as avian bodies: a room of avian walls with a gap in its middle
//! wall, crates (light dynamic bodies) strewn about, and a crowd (orange)
//! sent to the far side, through the gap, pushing crates aside; click to
//! send it elsewhere. The walls are only avian colliders: the plugin sees
//! them as obstacles (the debug view draws them as the agents see them,
//! and each agent's route round them), avian's contacts do the pushing.
//! Avian moves every agent; steering chooses its velocity.
//!
//! ```sh
//! cargo run --example physics
//! cargo run --example physics -- --seconds 6 --screenshot physics.png --report physics.json
//! ```

use std::path::PathBuf;

use avian2d::prelude::*;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_reynolds::physics::SteeringAvian2dPlugin;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, DebugDraw};
use serde_json::json;

mod common;
use common::{FieldCameras, Report, RunArgs, View, WINDOW_HEIGHT, WINDOW_WIDTH, click_on_field};

const ORANGE: Color = Color::srgb_u8(240, 140, 30);
const WALL: Color = Color::srgb_u8(120, 108, 92);
const CRATE: Color = Color::srgb_u8(160, 110, 60);
const FAINT: Color = Color::srgb_u8(70, 78, 90);

/// The agents' body radius, in pixels.
const BODY: f32 = 8.0;
/// A crate's side, in pixels.
const CRATE_SIDE: f32 = 26.0;

/// A room of walls and crates, and a crowd of bodies sent across it.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many agents.
    #[arg(long, default_value_t = 16)]
    agents: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write, as JSON into this file on exit, where every agent and crate
    /// is, how far each crate was pushed, and how near any agent came to a
    /// wall.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// The walls: (centre, size) of each, on the 1000 x 700 field.
fn walls() -> Vec<(Vec2, Vec2)> {
    let (w, h) = (WINDOW_WIDTH, WINDOW_HEIGHT);
    vec![
        (Vec2::new(w / 2.0, 25.0), Vec2::new(w - 40.0, 10.0)),
        (Vec2::new(w / 2.0, h - 25.0), Vec2::new(w - 40.0, 10.0)),
        (Vec2::new(25.0, h / 2.0), Vec2::new(10.0, h - 40.0)),
        (Vec2::new(w - 25.0, h / 2.0), Vec2::new(10.0, h - 40.0)),
        // The middle wall, in two, with a gap of 120 px.
        (Vec2::new(w / 2.0, 165.0), Vec2::new(12.0, 270.0)),
        (Vec2::new(w / 2.0, 535.0), Vec2::new(12.0, 270.0)),
    ]
}

/// A crate, and where it started.
#[derive(Component)]
struct Crate(Vec2);

/// The closest any agent came to a wall over the run.
#[derive(Resource)]
struct LeastClearance(f32);

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin("Physics", View::Flat)
        .with_docked_panel()
        .with_report(args.report.clone());
    App::new()
        .add_plugins(plugin)
        .add_plugins((
            // Lengths in pixels, 20 px to avian's "metre" (its sleeping
            // and contact tolerances scale with it).
            PhysicsPlugins::default().with_length_unit(20.0),
            SteeringAvian2dPlugin,
        ))
        // Seen from above: nothing falls.
        .insert_resource(Gravity::ZERO)
        .insert_resource(SteeringSettings {
            agent: SteeringParams {
                radius: BODY,
                ..default()
            },
            ..default()
        })
        .insert_resource(DebugDraw {
            obstacle_color: WALL,
            path_color: FAINT,
            ..default()
        })
        .insert_resource(LeastClearance(f32::INFINITY))
        .insert_resource(args)
        .add_systems(Startup, setup)
        .add_systems(
            FixedUpdate,
            measure_clearance.after(SteeringSystems::Integrate),
        )
        .add_systems(
            Update,
            (send_crowd, write_report.run_if(common::report_due)),
        )
        .run()
}

fn setup(
    mut commands: Commands,
    args: Res<Args>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (center, size) in walls() {
        commands.spawn((
            RigidBody::Static,
            Collider::rectangle(size.x, size.y),
            Transform::from_translation(center.extend(0.0)),
        ));
    }
    let target = Vec2::new(820.0, 350.0);
    // Crates in three columns on the crowd's way to the gap and beyond.
    let mesh = meshes.add(Rectangle::new(CRATE_SIDE, CRATE_SIDE));
    let material = materials.add(CRATE);
    for column in 0..3 {
        for row in 0..4 {
            let at = Vec2::new(
                360.0 + 240.0 * column as f32,
                290.0 + 40.0 * row as f32 + 20.0 * (column % 2) as f32,
            );
            commands.spawn((
                Crate(at),
                RigidBody::Dynamic,
                Collider::rectangle(CRATE_SIDE, CRATE_SIDE),
                // Lighter than an agent (a disc of radius 8 weighs 201 at
                // avian's density 1; a crate 676): pushed, they slide off.
                ColliderDensity(0.1),
                LinearDamping(2.0),
                AngularDamping(2.0),
                Mesh2d(mesh.clone()),
                MeshMaterial2d(material.clone()),
                Transform::from_translation(at.extend(-1.0)),
            ));
        }
    }
    // The crowd, in a block by the left wall.
    for i in 0..args.agents {
        let at = Vec2::new(80.0 + 30.0 * (i % 4) as f32, 250.0 + 30.0 * (i / 4) as f32);
        commands.spawn((
            SteeringAgent,
            Navigate::to(target),
            AvoidAgents::default(),
            RigidBody::Dynamic,
            Collider::circle(BODY),
            LockedAxes::ROTATION_LOCKED,
            Transform::from_translation(at.extend(0.0)),
            AgentColor(ORANGE),
        ));
    }
}

/// A click (not on the panel) sends the crowd there.
fn send_crowd(
    buttons: Res<ButtonInput<MouseButton>>,
    panel: Option<Res<bevy_egui::input::EguiWantsInput>>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut agents: Query<&mut Navigate>,
) {
    if let Some(click) = click_on_field(
        MouseButton::Left,
        &buttons,
        panel.as_deref(),
        &window,
        &camera,
    ) {
        for mut navigate in &mut agents {
            navigate.goal = NavigationGoal::Point(click);
        }
    }
}

/// Each step, the closest any agent came to a wall.
fn measure_clearance(
    agents: Query<&AgentPosition, With<SteeringAgent>>,
    mut least: ResMut<LeastClearance>,
) {
    let walls = walls();
    for pos in &agents {
        for (center, size) in &walls {
            let d = (pos.0 - *center).abs() - *size / 2.0;
            let clearance = d.max(Vec2::ZERO).length() + d.max_element().min(0.0) - BODY;
            least.0 = least.0.min(clearance);
        }
    }
}

/// For unattended runs with `--report`: where everyone is at the end.
fn write_report(
    report: Res<Report>,
    fixed: Res<Time<Fixed>>,
    least: Res<LeastClearance>,
    agents: Query<&AgentPosition, With<SteeringAgent>>,
    crates: Query<(&Crate, &Transform)>,
) {
    let agents: Vec<_> = agents.iter().map(|p| [p.x, p.y]).collect();
    let crates: Vec<_> = crates
        .iter()
        .map(|(start, transform)| {
            let at = transform.translation.truncate();
            json!({"pos": [at.x, at.y], "pushed_px": at.distance(start.0)})
        })
        .collect();
    report.publish(&json!({
        "seconds": fixed.elapsed_secs_f64(),
        "least_clearance_px": least.0,
        "agents": agents,
        "crates": crates,
    }));
}
