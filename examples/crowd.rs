//! A crowd: a plaza split by a wall with two doors, and four groups of
//! people in its corners, each crossing to the corner across the wall and
//! back: two groups each way through each door. Each person is sent with
//! `Navigate`, and the plugin finds their way through the nearer door.
//! Every person avoids the others with `AvoidAgents`: they see each other
//! coming, pass on the right, queue at the doors, and no two bodies ever
//! overlap. The crowd panel tunes the avoidance live (or turns it off, to
//! see what the crowd does without), with how fast people walk; it can make
//! the doors take turns (`TakeTurns`: one way at a time, an arrow showing
//! which), and the debug view can draw each person's route and soonest
//! meeting.
//!
//! ```sh
//! cargo run --example crowd
//! cargo run --example crowd -- --seconds 20 --screenshot crowd.png --report crowd.json
//! cargo run --example crowd -- --turns
//! ```

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_reynolds::inspector::SteeringInspector;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, DebugDraw};
use bevy_reynolds::reynolds::math;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;

mod common;
use common::{Report, RunArgs, View, WINDOW_HEIGHT};

const WALL: Color = Color::srgb_u8(120, 108, 92);
const FAINT: Color = Color::srgb_u8(70, 78, 90);
/// The four groups' colors, from the plaza's north-west corner clockwise.
const GROUPS: [Color; 4] = [
    Color::srgb_u8(47, 111, 235),
    Color::srgb_u8(235, 140, 47),
    Color::srgb_u8(47, 158, 68),
    Color::srgb_u8(200, 60, 160),
];

/// A person's body radius, in pixels: 16 px a metre.
const BODY: f32 = 7.0;
/// The plaza: the left of the window, the panel to its right.
const PLAZA_MIN: Vec2 = Vec2::new(20.0, 20.0);
const PLAZA_MAX: Vec2 = Vec2::new(700.0, WINDOW_HEIGHT - 20.0);
/// The dividing wall's x, and its two doors' middles and half width.
const DIVIDE: f32 = 360.0;
const DOORS: [f32; 2] = [500.0, 200.0];
const DOOR_HALF: f32 = 28.0;

/// A plaza of people crossing through doors.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// People in each of the four groups (at most 25).
    #[arg(long, default_value_t = 24)]
    group: usize,
    /// Draw each person's soonest meeting from the start.
    #[arg(long)]
    foresight: bool,
    /// The doors take turns from the start.
    #[arg(long)]
    turns: bool,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write, as JSON into this file on exit, where everyone is, how many
    /// crossings were made, and how deep any two bodies, or a body and a
    /// wall, ever overlapped.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// The walls, as their ends.
#[derive(Resource, Clone)]
struct Walls(Vec<(Vec2, Vec2)>);

impl Walls {
    fn new() -> Self {
        let (min, max) = (PLAZA_MIN, PLAZA_MAX);
        let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
        let mut walls: Vec<_> = (0..4).map(|i| (corners[i], corners[(i + 1) % 4])).collect();
        // The dividing wall, broken by the doors (north door first).
        let mut y = max.y;
        for door in DOORS {
            walls.push((Vec2::new(DIVIDE, y), Vec2::new(DIVIDE, door + DOOR_HALF)));
            y = door - DOOR_HALF;
        }
        walls.push((Vec2::new(DIVIDE, y), Vec2::new(DIVIDE, min.y)));
        Self(walls)
    }

    /// How far a body at `p` is from the nearest wall (negative: into it).
    fn clearance(&self, p: Vec2) -> f32 {
        self.0
            .iter()
            .map(|(a, b)| p.distance(math::closest_on_segment(p, *a, *b)) - BODY)
            .fold(f32::INFINITY, f32::min)
    }
}

/// The corner areas the groups walk between, from the north-west clockwise:
/// their centres.
fn corner(i: usize) -> Vec2 {
    let (min, max) = (PLAZA_MIN + 90.0, PLAZA_MAX - 90.0);
    [
        Vec2::new(min.x, max.y),
        Vec2::new(max.x, max.y),
        Vec2::new(max.x, min.y),
        Vec2::new(min.x, min.y),
    ][i % 4]
}

/// Place `k` of a group round a corner: a block five wide, 20 px apart.
fn place(corner_at: Vec2, k: usize) -> Vec2 {
    let (row, column) = ((k / 5) as f32, (k % 5) as f32);
    corner_at + Vec2::new(column - 2.0, row - 2.0) * 20.0
}

/// A person's crossings: their group, their place in its block, the corner
/// they are walking to, and how often they have got there. Their way there
/// is the plugin's: `Navigate` finds it through the nearer door.
#[derive(Component, Clone, Copy)]
struct Crossing {
    group: usize,
    place: usize,
    to: usize,
    crossings: u32,
}

impl Crossing {
    fn goal(&self) -> Vec2 {
        place(corner(self.to), self.place)
    }
}

/// The corner across the dividing wall from corner `i`: north-west and
/// north-east through the north door, south-east and south-west through
/// the south one.
fn across_the_wall(i: usize) -> usize {
    i ^ 1
}

/// The crowd panel's choices.
#[derive(Resource, Clone, Copy, PartialEq)]
struct CrowdPanel {
    avoid: bool,
    /// Whether the doors take turns.
    turns: bool,
    rules: AvoidParams,
}

/// The deepest any two bodies, and any body and a wall, went into each
/// other over the run, in pixels.
#[derive(Resource, Default)]
struct Deepest {
    bodies: f32,
    wall: f32,
}

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin("Crowd", View::Flat)
        .with_report(args.report.clone());
    let seed = plugin.seed;
    let mut app = App::new();
    app.add_plugins(plugin)
        .insert_resource(SteeringSettings {
            // People 16 px a metre, walking at 4.4 m/s: quick, to watch.
            agent: SteeringParams {
                radius: BODY,
                max_speed: 70.0,
                max_force: 160.0,
                response_time: 0.5,
                slowing_radius: 40.0,
                ..default()
            },
            ..default()
        })
        .insert_resource(DebugDraw {
            trails: false,
            radii: false,
            foresight: args.foresight,
            obstacle_color: WALL,
            radii_color: FAINT,
            // The doors' ways, when they take turns (there are no paths).
            path_color: Color::WHITE,
            // Ninety-six routes would hide the crowd: on from the panel.
            routes: false,
            ..default()
        })
        .insert_resource(CrowdPanel {
            avoid: true,
            turns: args.turns,
            rules: AvoidParams::default(),
        })
        .insert_resource(Walls::new())
        .insert_resource(Deepest::default())
        .insert_resource(Placement(seed))
        .insert_resource(args)
        .add_systems(Startup, close_the_plugins_panel)
        // After every plugin's `Startup`: the plugin breaks ties by entity,
        // and entities made by systems running side by side come in any
        // order, so spawned there the crowd went another way in some runs.
        .add_systems(PostStartup, setup)
        .add_observer(turn_back)
        .add_systems(
            FixedUpdate,
            // The report at the step the run ends, the same step every run.
            (measure_overlaps, write_report.run_if(common::report_due))
                .chain()
                .after(SteeringSystems::Integrate),
        )
        .add_systems(EguiPrimaryContextPass, panel)
        .add_systems(Update, apply_panel);
    app.run()
}

#[derive(Resource)]
struct Placement(u64);

/// The plugin's tuning panel would cover the crowd's: this demo has its own.
fn close_the_plugins_panel(mut inspector: ResMut<SteeringInspector>) {
    inspector.open = false;
}

fn setup(mut commands: Commands, args: Res<Args>, walls: Res<Walls>, placement: Res<Placement>) {
    for (a, b) in &walls.0 {
        commands.spawn((SteeringObstacle::wall(*a, *b), AgentPosition(Vec2::ZERO)));
    }
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(placement.0);
    for (group, color) in GROUPS.into_iter().enumerate() {
        for k in 0..args.group.min(25) {
            // A little off the block, so no two crowds are the same.
            let jitter = Vec2::new(rng.random_range(-2.0..2.0), rng.random_range(-2.0..2.0));
            let at = place(corner(group), k) + jitter;
            let crossing = Crossing {
                group,
                place: k,
                to: across_the_wall(group),
                crossings: 0,
            };
            commands.spawn((
                crossing,
                Navigate::to(crossing.goal()),
                AvoidAgents::default(),
                AgentPosition(at),
                AgentColor(color),
            ));
        }
    }
    // Here rather than at the first frame's panel, so that they are there
    // from the first step whatever the frames.
    if args.turns {
        spawn_doors_taking_turns(&mut commands);
    }
}

/// There: the way back, the plugin finding it again.
fn turn_back(arrived: On<Arrived>, mut people: Query<(&mut Crossing, &mut Navigate)>) {
    let Ok((mut crossing, mut navigate)) = people.get_mut(arrived.entity) else {
        return;
    };
    crossing.crossings += 1;
    crossing.to = if crossing.to == crossing.group {
        across_the_wall(crossing.group)
    } else {
        crossing.group
    };
    navigate.goal = NavigationGoal::Point(crossing.goal());
}

/// Each door taking turns.
fn spawn_doors_taking_turns(commands: &mut Commands) {
    for door in DOORS {
        let (a, b) = (
            Vec2::new(DIVIDE, door + DOOR_HALF),
            Vec2::new(DIVIDE, door - DOOR_HALF),
        );
        commands.spawn((TakeTurns::between(a, b), AgentPosition(Vec2::ZERO)));
    }
}

/// The panel's avoidance on everyone (their rules, or none), and the doors
/// taking turns or not.
fn apply_panel(
    mut commands: Commands,
    panel: Res<CrowdPanel>,
    people: Query<(Entity, Option<&AvoidAgents>), With<Crossing>>,
    doors: Query<Entity, With<TakeTurns>>,
) {
    if !panel.is_changed() {
        return;
    }
    match (panel.turns, doors.is_empty()) {
        (true, true) => spawn_doors_taking_turns(&mut commands),
        (false, false) => doors
            .iter()
            .for_each(|door| commands.entity(door).despawn()),
        _ => {}
    }
    for (person, avoid) in &people {
        match (panel.avoid, avoid) {
            (true, Some(avoid)) if avoid.rules == panel.rules => {}
            (true, _) => {
                commands.entity(person).insert(AvoidAgents {
                    rules: panel.rules,
                    ..default()
                });
            }
            (false, Some(_)) => {
                commands.entity(person).remove::<AvoidAgents>();
            }
            (false, None) => {}
        }
    }
}

/// The crowd panel, beside the plaza: the avoidance, how people walk, and
/// what the debug view draws. (The plugin's own panel stays closed: it
/// would cover this one.)
fn panel(
    mut contexts: EguiContexts,
    mut panel: ResMut<CrowdPanel>,
    mut draw: ResMut<DebugDraw>,
    mut settings: ResMut<SteeringSettings>,
) -> Result {
    let mut edited = *panel;
    let mut agent = settings.agent;
    let (mut routes, mut foresight) = (draw.routes, draw.foresight);
    egui::Window::new("Crowd")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .max_width(270.0)
        .show(contexts.ctx_mut()?, |ui| {
            ui.spacing_mut().slider_width = 100.0;
            ui.checkbox(&mut edited.avoid, "avoid (AvoidAgents)");
            ui.add_enabled_ui(edited.avoid, |ui| {
                ui.add(egui::Slider::new(&mut edited.rules.horizon, 0.0..=6.0).text("horizon (s)"));
                ui.add(egui::Slider::new(&mut edited.rules.strength, 0.0..=5.0).text("strength"));
                ui.add(
                    egui::Slider::new(&mut edited.rules.keep_right, 0.0..=1.0).text("keep right"),
                );
            });
            ui.add_enabled(
                edited.avoid,
                egui::Checkbox::new(&mut edited.turns, "doors take turns (TakeTurns)"),
            );
            ui.separator();
            ui.add(egui::Slider::new(&mut agent.max_speed, 10.0..=150.0).text("speed (px/s)"));
            ui.add(egui::Slider::new(&mut agent.response_time, 0.05..=1.5).text("response (s)"));
            ui.separator();
            ui.checkbox(&mut routes, "draw routes (Navigate)");
            ui.checkbox(&mut foresight, "draw soonest meetings");
        });
    if edited != *panel {
        *panel = edited;
    }
    if agent != settings.agent {
        settings.agent = agent;
    }
    if (routes, foresight) != (draw.routes, draw.foresight) {
        draw.routes = routes;
        draw.foresight = foresight;
    }
    Ok(())
}

/// Each step, the deepest two bodies, or a body and a wall, went into each
/// other.
fn measure_overlaps(
    walls: Res<Walls>,
    people: Query<&AgentPosition, With<Crossing>>,
    mut deepest: ResMut<Deepest>,
) {
    let at: Vec<Vec2> = people.iter().map(|p| p.0).collect();
    for (i, a) in at.iter().enumerate() {
        deepest.wall = deepest.wall.max(-walls.clearance(*a));
        for b in &at[i + 1..] {
            deepest.bodies = deepest.bodies.max(2.0 * BODY - a.distance(*b));
        }
    }
}

/// For unattended runs with `--report`: at the end, where everyone is, the
/// crossings made and the deepest overlaps.
fn write_report(
    report: Res<Report>,
    fixed: Res<Time<Fixed>>,
    deepest: Res<Deepest>,
    people: Query<(&Crossing, &AgentPosition, &AgentVelocity)>,
) {
    let people: Vec<_> = people
        .iter()
        .map(|(crossing, pos, vel)| {
            json!({
                "group": crossing.group,
                "crossings": crossing.crossings,
                "pos": [pos.x, pos.y],
                "vel": [vel.x, vel.y],
            })
        })
        .collect();
    let json = json!({
        "seconds": fixed.elapsed_secs_f64(),
        "deepest_overlap_px": deepest.bodies,
        "deepest_into_wall_px": deepest.wall,
        "agents": people,
    });
    report.publish(&json);
}
