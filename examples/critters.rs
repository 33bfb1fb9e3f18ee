//! Critters, the chapter's demo: fifteen agents, three each of seek (blue),
//! arrive (green), pursue (violet), wander (white) and graze (red), steering
//! around the mouse, each leaving a trail of dots. R switches every agent
//! between the quick response (0.15 s) and the slow one (1 s); the panel
//! tunes every parameter live.
//!
//! ```sh
//! cargo run --example critters
//! cargo run --example critters -- --agents 2000 --seed 7
//! cargo run --example critters -- --seconds 6 --screenshot shot.png
//! ```

use std::path::PathBuf;

use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui, input::egui_wants_any_pointer_input};
use bevy_prototype_lyon::prelude::*;
use bevy_reynolds::inspector::SteeringReset;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, DebugDraw, ShowRadii};
use bevy_reynolds::reynolds::defaults;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;

mod common;
use bevy_reynolds::inspector::DOCKED_WIDTH;
use common::{FieldCameras, Report, RunArgs, View, WINDOW_HEIGHT, WINDOW_WIDTH, cursor_in_world};

const GRID: Color = Color::srgb_u8(30, 34, 40);
const TEXT: Color = Color::srgb_u8(235, 238, 242);
const GREY: Color = Color::srgb_u8(90, 100, 112);
const BLUE: Color = Color::srgb_u8(47, 111, 235);
const GREEN: Color = Color::srgb_u8(47, 158, 68);
const RED: Color = Color::srgb_u8(224, 49, 49);
const VIOLET: Color = Color::srgb_u8(150, 102, 230);
const FAINT: Color = Color::srgb_u8(70, 78, 90);

/// Fifteen creatures steering around your mouse.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many agents, split evenly over the five behaviors.
    #[arg(long, default_value_t = 15)]
    agents: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write where every agent is, as JSON, into this file on exit.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Start with the arrivers keeping 25 px apart (the FAQ's separation;
    /// the panel switches it too).
    #[arg(long)]
    separate_arrivers: bool,
}

/// The five behaviors, each with a name and a color, in the key's order.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Seek,
    Arrive,
    Pursue,
    Wander,
    Graze,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::Seek,
        Kind::Arrive,
        Kind::Pursue,
        Kind::Wander,
        Kind::Graze,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Seek => "seek",
            Kind::Arrive => "arrive",
            Kind::Pursue => "pursue",
            Kind::Wander => "wander",
            Kind::Graze => "graze",
        }
    }

    fn color(self) -> Color {
        match self {
            Kind::Seek => BLUE,
            Kind::Arrive => GREEN,
            Kind::Pursue => VIOLET,
            Kind::Wander => TEXT,
            Kind::Graze => RED,
        }
    }

    /// This kind's behavior toward the mouse, with the exercises applied.
    fn behavior(
        self,
        mouse: SteeringTarget,
        exercises: &Exercises,
        graze_flee_weight: f32,
    ) -> SteeringBehavior {
        match self {
            Kind::Seek if exercises.distracted_seekers => SteeringBehavior::Blend(vec![
                Weighted::new(1.0, SteeringBehavior::Seek(mouse)),
                Weighted::new(0.5, SteeringBehavior::Wander),
            ]),
            Kind::Seek => SteeringBehavior::Seek(mouse),
            Kind::Arrive => SteeringBehavior::Arrive(mouse),
            Kind::Pursue => SteeringBehavior::Pursue(mouse),
            Kind::Wander => SteeringBehavior::Wander,
            Kind::Graze if exercises.grazers_evade => SteeringBehavior::Blend(vec![
                Weighted::new(1.0, SteeringBehavior::Wander),
                Weighted::new(graze_flee_weight, SteeringBehavior::Evade(mouse)),
            ]),
            Kind::Graze => SteeringBehavior::Graze(mouse),
        }
    }
}

/// The chapter's two code exercises, as switches.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
struct Exercises {
    /// Exercise 4: grazers evade the mouse instead of fleeing it.
    grazers_evade: bool,
    /// Exercise 5: seekers add wander with a weight of 0.5.
    distracted_seekers: bool,
    /// The FAQ's answer to piling up: arrivers keep 25 px apart.
    separate_arrivers: bool,
}

/// The mouse: a steering target whose velocity the plugin measures.
#[derive(Component)]
struct Mouse;

/// The arrow to where the mouse will be in half a second.
#[derive(Component)]
struct MouseArrow;

/// The "response time" readout.
#[derive(Component)]
struct Readout;

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin("Critters", View::Flat)
        .with_docked_panel()
        .with_report(args.report.clone());
    let seed = plugin.seed;
    App::new()
        .add_plugins(plugin)
        // The chapter's world: agents wrap round the window.
        .insert_resource(SteeringSettings::critters())
        .insert_resource(DebugDraw {
            radii_color: FAINT,
            ..default()
        })
        .insert_resource(Exercises {
            separate_arrivers: args.separate_arrivers,
            ..default()
        })
        .insert_resource(args)
        .insert_resource(Seed(seed))
        .init_resource::<MouseMovedAt>()
        .add_systems(Startup, (setup_scene, spawn_agents))
        .add_systems(
            Update,
            (
                follow_mouse.run_if(not(egui_wants_any_pointer_input)),
                toggle_response.run_if(input_just_pressed(KeyCode::KeyR)),
                quit.run_if(input_just_pressed(KeyCode::Escape)),
                draw_mouse_arrow,
                update_readout,
                apply_exercises,
                reset_agents,
                write_report.run_if(common::report_due),
            ),
        )
        .init_resource::<Panels>()
        .add_systems(EguiPrimaryContextPass, exercises_panel)
        .run()
}

/// When the mouse last moved, in simulated seconds, for the report.
#[derive(Resource, Default)]
struct MouseMovedAt(f64);

/// The seed this run's placements come from.
#[derive(Resource)]
struct Seed(u64);

fn setup_scene(mut commands: Commands) {
    // A faint grid, every 50 px.
    let mut grid = Vec::new();
    for x in (0..=WINDOW_WIDTH as i32).step_by(50) {
        grid.push((Vec2::new(x as f32, 0.0), Vec2::new(x as f32, WINDOW_HEIGHT)));
    }
    for y in (0..=WINDOW_HEIGHT as i32).step_by(50) {
        grid.push((Vec2::new(0.0, y as f32), Vec2::new(WINDOW_WIDTH, y as f32)));
    }
    commands.spawn((lines(&grid, GRID, 1.0), Transform::from_xyz(0.0, 0.0, -2.0)));

    // The mouse, at the middle until it moves: a cross, and the arrivers'
    // slowing circle and the grazers' panic circle around it.
    let center = Vec2::new(WINDOW_WIDTH / 2.0, WINDOW_HEIGHT / 2.0);
    let cross = [
        (Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0)),
        (Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0)),
    ];
    commands
        .spawn((
            Name::new("Mouse"),
            Mouse,
            AgentPosition(center),
            MeasuredVelocity::default(),
            ShowRadii,
            Transform::from_translation(center.extend(0.0)),
        ))
        .with_child((lines(&cross, TEXT, 1.0), Transform::from_xyz(0.0, 0.0, 1.0)));
    commands.spawn((
        MouseArrow,
        lines(&[(Vec2::ZERO, Vec2::X)], VIOLET, 2.0),
        Visibility::Hidden,
        Transform::from_xyz(0.0, 0.0, 1.0),
    ));

    // The key, the readout and the controls, placed as the chapter places
    // them in screen coordinates (y down from the top).
    let top_left = |x: f32, y: f32| Transform::from_xyz(x, WINDOW_HEIGHT - y, 2.0);
    for (i, kind) in Kind::ALL.into_iter().enumerate() {
        let y = 10.0 + 22.0 * i as f32;
        commands.spawn((
            ShapeBuilder::with(&shapes::Circle {
                radius: 6.0,
                center: Vec2::ZERO,
            })
            .fill(kind.color())
            .build(),
            top_left(20.0, y + 10.0),
        ));
        commands.spawn((
            Text2d::new(kind.name()),
            TextFont::from_font_size(16.0),
            TextColor(kind.color()),
            Anchor::TOP_LEFT,
            top_left(34.0, y),
        ));
    }
    commands.spawn((
        Readout,
        Text2d::new("response time: 0.15 s"),
        TextFont::from_font_size(16.0),
        TextColor(TEXT),
        Anchor::TOP_LEFT,
        top_left(12.0, 126.0),
    ));
    commands.spawn((
        Text2d::new("[Move the mouse] lead them   [R] slow or quick   [Esc] quit"),
        TextFont::from_font_size(16.0),
        TextColor(GREY),
        Anchor::TOP_LEFT,
        top_left(12.0, WINDOW_HEIGHT - 26.0),
    ));
}

/// Three agents of each behavior (or `--agents` split five ways), still, at
/// random places, each facing its own random angle and wandering toward it.
fn spawn_agents(
    mut commands: Commands,
    args: Res<Args>,
    seed: Res<Seed>,
    exercises: Res<Exercises>,
    settings: Res<SteeringSettings>,
    mouse: Query<Entity, With<Mouse>>,
) {
    spawn_critters(
        &mut commands,
        &args,
        seed.0,
        &exercises,
        &settings,
        mouse.single().ok(),
    );
}

fn spawn_critters(
    commands: &mut Commands,
    args: &Args,
    seed: u64,
    exercises: &Exercises,
    settings: &SteeringSettings,
    mouse: Option<Entity>,
) {
    let mouse = mouse.map_or(
        SteeringTarget::Point(Vec2::new(WINDOW_WIDTH / 2.0, WINDOW_HEIGHT / 2.0)),
        SteeringTarget::Entity,
    );
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let per_kind = args.agents.div_ceil(Kind::ALL.len()).max(1);
    let mut spawned = 0;
    for kind in Kind::ALL {
        for _ in 0..per_kind {
            if spawned == args.agents {
                return;
            }
            spawned += 1;
            let pos = Vec2::new(
                rng.random_range(100.0..900.0),
                rng.random_range(100.0..600.0),
            );
            let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
            let mut agent = commands.spawn((
                kind,
                SteeringAgent,
                kind.behavior(mouse, exercises, settings.agent.graze_flee_weight),
                AgentPosition(pos),
                AgentHeading::from_angle(angle),
                WanderAngle(angle),
                AgentTrail::default(),
                AgentColor(kind.color()),
            ));
            if kind == Kind::Arrive && exercises.separate_arrivers {
                agent.insert(Flocking::separation_only());
            }
        }
    }
}

/// The mouse's position, in world coordinates, whenever it is over the
/// window and not over the panel.
fn follow_mouse(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut mouse: Query<(&mut AgentPosition, &mut Transform), With<Mouse>>,
    fixed: Res<Time<Fixed>>,
    mut moved_at: ResMut<MouseMovedAt>,
) {
    let (Some(world), Ok((mut pos, mut transform))) =
        (cursor_in_world(&window, &camera), mouse.single_mut())
    else {
        return;
    };
    if pos.0 != world {
        pos.0 = world;
        transform.translation = world.extend(transform.translation.z);
        moved_at.0 = fixed.elapsed_secs_f64();
    }
}

/// The violet arrow from the mouse to where it will be in half a second, at
/// the smoothed velocity the pursuers use.
fn draw_mouse_arrow(
    mouse: Query<(&AgentPosition, &MeasuredVelocity), With<Mouse>>,
    mut arrow: Query<(&mut Shape, &mut Visibility), With<MouseArrow>>,
    mut drawn: Local<Option<(Vec2, Vec2)>>,
) {
    let (Ok((pos, measured)), Ok((mut shape, mut visibility))) =
        (mouse.single(), arrow.single_mut())
    else {
        return;
    };
    let from = pos.0;
    let to = from + measured.velocity * 0.5;
    // Too short to see: hide it rather than mesh nothing.
    if from.distance(to) < 2.0 {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    }
    visibility.set_if_neq(Visibility::Inherited);
    if *drawn == Some((from, to)) {
        return;
    }
    *drawn = Some((from, to));
    let dir = (to - from).normalize();
    let side = dir.perp() * 5.0;
    *shape = lines(
        &[
            (from, to),
            (to, to - dir * 10.0 + side),
            (to, to - dir * 10.0 - side),
        ],
        VIOLET,
        2.0,
    );
}

/// A lyon shape of line segments, stroked.
fn lines(segments: &[(Vec2, Vec2)], color: Color, width: f32) -> Shape {
    let mut builder = ShapeBuilder::new();
    for &(from, to) in segments {
        builder = builder.add(&shapes::Line(from, to));
    }
    builder.stroke((color, width)).build()
}

/// R: every agent between the quick response and the slow one. The panel
/// edits the same setting, so the two always agree.
fn toggle_response(mut settings: ResMut<SteeringSettings>) {
    settings.agent.response_time = if settings.agent.response_time < 0.5 {
        defaults::SLOW_RESPONSE_TIME
    } else {
        defaults::RESPONSE_TIME
    };
}

fn update_readout(settings: Res<SteeringSettings>, mut readout: Query<&mut Text2d, With<Readout>>) {
    if !settings.is_changed() {
        return;
    }
    for mut text in &mut readout {
        text.0 = format!("response time: {:.2} s", settings.agent.response_time);
    }
}

fn quit(mut exit: MessageWriter<AppExit>) {
    exit.write(AppExit::Success);
}

/// Where the panels stand on the window, in logical pixels, for the
/// report: none may hide another.
#[derive(Resource, Default)]
struct Panels(Vec<(&'static str, [f32; 4])>);

fn exercises_panel(
    mut contexts: EguiContexts,
    mut exercises: ResMut<Exercises>,
    mut panels: ResMut<Panels>,
) -> Result {
    let mut edited = exercises.clone();
    let ctx = contexts.ctx_mut()?;
    panels.0 = ctx.memory(|memory| {
        ["Steering", "Exercises"]
            .into_iter()
            .filter_map(|name| {
                // (A window's area is named by its title, as an `Option`.)
                let r = memory.area_rect(egui::Id::new(Some(name)))?;
                Some((name, [r.min.x, r.min.y, r.max.x, r.max.y]))
            })
            .collect()
    });
    egui::Window::new("Exercises")
        // At the foot of the docked panel, off the field.
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .default_width(DOCKED_WIDTH - 24.0)
        .resizable(false)
        .show(contexts.ctx_mut()?, |ui| {
            ui.checkbox(
                &mut edited.grazers_evade,
                "4: grazers evade instead of flee",
            );
            ui.checkbox(
                &mut edited.distracted_seekers,
                "5: seekers wander (weight 0.5)",
            );
            ui.checkbox(
                &mut edited.separate_arrivers,
                "FAQ: arrivers keep 25 px apart",
            );
        });
    if edited != *exercises {
        *exercises = edited;
    }
    Ok(())
}

/// Rewrites the behaviors when an exercise or the grazers' weight changes.
fn apply_exercises(
    mut commands: Commands,
    exercises: Res<Exercises>,
    settings: Res<SteeringSettings>,
    mouse: Query<Entity, With<Mouse>>,
    mut agents: Query<(Entity, &Kind, &mut SteeringBehavior, Has<Flocking>)>,
) {
    if !exercises.is_changed() && !settings.is_changed() {
        return;
    }
    let Ok(mouse) = mouse.single() else {
        return;
    };
    for (entity, kind, mut behavior, flocks) in &mut agents {
        let wanted = kind.behavior(
            SteeringTarget::Entity(mouse),
            &exercises,
            settings.agent.graze_flee_weight,
        );
        if *behavior != wanted {
            *behavior = wanted;
        }
        let separate = *kind == Kind::Arrive && exercises.separate_arrivers;
        if separate && !flocks {
            commands.entity(entity).insert(Flocking::separation_only());
        } else if !separate && flocks {
            commands.entity(entity).remove::<Flocking>();
        }
    }
}

/// The panel's reset: every agent respawned from the panel's seed.
fn reset_agents(
    mut commands: Commands,
    mut resets: MessageReader<SteeringReset>,
    args: Res<Args>,
    exercises: Res<Exercises>,
    settings: Res<SteeringSettings>,
    agents: Query<Entity, With<Kind>>,
    mouse: Query<Entity, With<Mouse>>,
) {
    let Some(reset) = resets.read().last() else {
        return;
    };
    for agent in &agents {
        commands.entity(agent).despawn();
    }
    spawn_critters(
        &mut commands,
        &args,
        reset.seed,
        &exercises,
        &settings,
        mouse.single().ok(),
    );
}

/// For unattended runs with `--report`: at the end, where every agent and
/// the mouse are, and how many frames were drawn in how long, as JSON.
fn write_report(
    report: Res<Report>,
    fixed: Res<Time<Fixed>>,
    agents: Query<(&Kind, &AgentPosition, &AgentVelocity, Has<Flocking>)>,
    mouse: Query<&AgentPosition, With<Mouse>>,
    moved_at: Res<MouseMovedAt>,
    frames: Res<bevy::diagnostic::FrameCount>,
    real: Res<Time<Real>>,
    settings: Res<SteeringSettings>,
    panels: Res<Panels>,
) {
    let mouse = mouse.single().map_or(Vec2::NAN, |p| p.0);
    let windows: serde_json::Map<String, serde_json::Value> = panels
        .0
        .iter()
        .map(|(name, r)| (name.to_string(), json!(r)))
        .collect();
    let agents: Vec<_> = agents
        .iter()
        .map(|(kind, pos, vel, flocks)| {
            json!({
                "kind": kind.name(),
                "pos": [pos.x, pos.y],
                "vel": [vel.x, vel.y],
                "flocking": flocks,
            })
        })
        .collect();
    let json = json!({
        "seconds": fixed.elapsed_secs_f64(),
        "frames": frames.0,
        "real_seconds": real.elapsed_secs_f64(),
        "mouse_moved_at": moved_at.0,
        "mouse": [mouse.x, mouse.y],
        "response_time": settings.agent.response_time,
        "windows": windows,
        "agents": agents,
    });
    report.publish(&json);
}
