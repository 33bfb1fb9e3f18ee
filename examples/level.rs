//! A level: a walled field with rocks, an inner wall and a patrol path.
//! Patrollers (blue) follow the path round; grazers (green) wander and flee
//! the mouse; travellers (orange) go where they are sent, finding the way
//! round everything: click on the ground to send the selected travellers
//! there, click on a traveller to select or leave it (all start selected,
//! and start sent to the far corner); a squad (purple) keeps a wedge
//! behind its leader, falls into a column between the rocks and forms up
//! again: right-click to send it. No one walks into a rock or through a
//! wall, and everyone stays inside the field. The panel tunes the
//! look-ahead, the clearance and the squad's shape and spacing live; the
//! debug view draws the rocks, walls, the path, where each patroller aims,
//! each traveller's route and each squad member's place.
//!
//! ```sh
//! cargo run --example level
//! cargo run --example level -- --seconds 6 --screenshot level.png --report level.json
//! ```

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, DebugDraw, ShowRadii};
use bevy_reynolds::reynolds::{level, math};
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;

mod common;
use common::{
    FieldCameras, Report, RunArgs, View, WINDOW_HEIGHT, WINDOW_WIDTH, click_on_field,
    cursor_in_world,
};

const BLUE: Color = Color::srgb_u8(47, 111, 235);
const GREEN: Color = Color::srgb_u8(47, 158, 68);
const ROCK: Color = Color::srgb_u8(120, 108, 92);
const PATH: Color = Color::srgb_u8(200, 170, 60);
const FAINT: Color = Color::srgb_u8(70, 78, 90);
const ORANGE: Color = Color::srgb_u8(240, 140, 30);
/// A traveller left out of the selection.
const DULL_ORANGE: Color = Color::srgb_u8(130, 90, 50);
const PURPLE: Color = Color::srgb_u8(150, 90, 220);

/// The agents' body radius, in pixels.
const BODY: f32 = 8.0;
/// How far inside the window the field's wall runs.
const MARGIN: f32 = 30.0;

/// A walled field of rocks, patrollers and grazers.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many grazers.
    #[arg(long, default_value_t = 24)]
    grazers: usize,
    /// How many patrollers on the path.
    #[arg(long, default_value_t = 6)]
    patrollers: usize,
    /// How many travellers, sent where you click.
    #[arg(long, default_value_t = 4)]
    travellers: usize,
    /// How many members the squad has besides its leader (0: no squad),
    /// sent where you right-click.
    #[arg(long, default_value_t = 6)]
    squad: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
    /// Write, as JSON into this file on exit, where every agent is and the
    /// closest any body came to a rock or a wall over the run.
    #[arg(long)]
    report: Option<PathBuf>,
}

/// The field's rocks (centre and radius) and inner walls, as placed.
#[derive(Resource, Clone)]
struct Field {
    rocks: Vec<(Vec2, f32)>,
    walls: Vec<(Vec2, Vec2)>,
    corners: [Vec2; 4],
}

impl Field {
    fn new() -> Self {
        let (min, max) = (
            Vec2::splat(MARGIN),
            Vec2::new(WINDOW_WIDTH, WINDOW_HEIGHT) - MARGIN,
        );
        Self {
            rocks: vec![
                (Vec2::new(500.0, 350.0), 60.0),
                (Vec2::new(300.0, 250.0), 30.0),
                (Vec2::new(700.0, 460.0), 35.0),
                (Vec2::new(160.0, 560.0), 40.0),
                (Vec2::new(850.0, 130.0), 38.0),
                (Vec2::new(620.0, 120.0), 25.0),
                (Vec2::new(400.0, 600.0), 28.0),
            ],
            walls: vec![(Vec2::new(60.0, 330.0), Vec2::new(170.0, 330.0))],
            corners: [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)],
        }
    }

    /// The least distance from a body at `p` to any rock, wall or the
    /// field's edge (negative: it went in, or out).
    fn clearance(&self, p: Vec2) -> f32 {
        let rocks = self.rocks.iter().map(|(c, r)| p.distance(*c) - r - BODY);
        let walls = self
            .walls
            .iter()
            .chain(
                &self
                    .corners
                    .iter()
                    .zip(self.corners.iter().cycle().skip(1))
                    .map(|(a, b)| (*a, *b))
                    .collect::<Vec<_>>(),
            )
            .map(|(a, b)| p.distance(math::closest_on_segment(p, *a, *b)) - BODY)
            .collect::<Vec<_>>();
        let inside = if level::inside_polygon(p, &self.corners) {
            f32::INFINITY
        } else {
            f32::NEG_INFINITY
        };
        rocks.chain(walls).fold(inside, f32::min)
    }
}

/// The patrol: a loop round the big rock, between the others.
fn patrol() -> SteeringPath {
    SteeringPath::new(
        [
            Vec2::new(180.0, 150.0),
            Vec2::new(450.0, 130.0),
            Vec2::new(760.0, 300.0),
            Vec2::new(820.0, 560.0),
            Vec2::new(560.0, 600.0),
            Vec2::new(260.0, 420.0),
        ],
        true,
    )
}

#[derive(Component)]
struct Mouse;

/// What an agent does, for the report.
#[derive(Component, Clone, Copy)]
enum Kind {
    Patroller,
    Grazer,
    Traveller,
    Leader,
    Member,
}

/// A traveller that a click on the ground sends.
#[derive(Component)]
struct Selected;

/// The closest any body came to a rock, a wall or the edge, over the run,
/// and where it was then.
#[derive(Resource)]
struct LeastClearance(f32, Vec2);

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args
        .run
        .plugin("Level", View::Flat)
        .with_docked_panel()
        .with_report(args.report.clone());
    let seed = plugin.seed;
    let mut app = App::new();
    app.add_plugins(plugin)
        .insert_resource(SteeringSettings {
            agent: SteeringParams {
                radius: BODY,
                ..default()
            },
            ..default()
        })
        .insert_resource(DebugDraw {
            radii_color: FAINT,
            obstacle_color: ROCK,
            path_color: PATH,
            ..default()
        })
        .insert_resource(Field::new())
        .insert_resource(LeastClearance(f32::INFINITY, Vec2::NAN))
        .insert_resource(Placement(seed))
        .insert_resource(args)
        .add_systems(Startup, setup)
        .add_systems(
            FixedUpdate,
            measure_clearance.after(SteeringSystems::Integrate),
        )
        .add_systems(
            Update,
            (
                follow_mouse,
                send_travellers.after(follow_mouse),
                send_squad.after(follow_mouse),
                write_report.run_if(common::report_due),
            ),
        );
    app.run()
}

#[derive(Resource)]
struct Placement(u64);

fn setup(mut commands: Commands, args: Res<Args>, field: Res<Field>, placement: Res<Placement>) {
    // The field's edge: a wall all round, and an area no one leaves.
    commands.spawn((
        SteeringObstacle::polygon(field.corners),
        AgentPosition(Vec2::ZERO),
    ));
    for (center, radius) in &field.rocks {
        commands.spawn((SteeringObstacle::circle(*radius), AgentPosition(*center)));
    }
    for (a, b) in &field.walls {
        commands.spawn((SteeringObstacle::wall(*a, *b), AgentPosition(Vec2::ZERO)));
    }
    // The mouse starts off the field, so it threatens no one until it
    // moves in.
    let mouse = commands
        .spawn((
            Mouse,
            ShowRadii,
            AgentPosition::new(-10_000.0, -10_000.0),
            Transform::from_xyz(-10_000.0, -10_000.0, 0.0),
            MeasuredVelocity::default(),
        ))
        .id();
    let inside = Containment::polygon(field.corners);
    let path = Arc::new(patrol());
    for i in 0..args.patrollers {
        // Spread along the loop.
        let at = path.length() * i as f32 / args.patrollers.max(1) as f32;
        let mut follow = FollowPath::new(path.clone(), 12.0);
        follow.cursor = at;
        commands.spawn((
            SteeringAgent,
            Kind::Patroller,
            SteeringBehavior::Idle,
            follow,
            inside.clone(),
            AgentPosition(path.point_at(at)),
            AgentColor(BLUE),
        ));
    }
    // Travellers wait by the inner wall, sent to the far corner behind
    // the rocks.
    let far_corner = Vec2::new(WINDOW_WIDTH - 90.0, WINDOW_HEIGHT - 90.0);
    for i in 0..args.travellers {
        let start = Vec2::new(60.0 + 30.0 * (i % 4) as f32, 290.0 - 30.0 * (i / 4) as f32);
        commands.spawn((
            Kind::Traveller,
            Selected,
            Navigate::to(far_corner + Vec2::new(-25.0 * (i % 2) as f32, -25.0 * (i / 2) as f32)),
            AvoidAgents::default(),
            inside.clone(),
            AgentPosition(start),
            AgentColor(ORANGE),
        ));
    }
    // The squad, in a wedge behind its leader near the bottom left, sent
    // north between the big rock and the one west of it, a gap too narrow
    // for the wedge.
    if args.squad > 0 {
        let formation = Formation::new(FormationShape::Wedge, 3.0 * BODY);
        let at = Vec2::new(260.0, 110.0);
        let places: Vec<Vec2> = (0..args.squad)
            .map(|i| formation.place(i, args.squad, at, Vec2::X))
            .collect();
        let leader = commands
            .spawn((
                Kind::Leader,
                formation,
                Navigate::to(Vec2::new(300.0, 560.0)),
                AvoidAgents {
                    right_of_way: 1,
                    ..default()
                },
                inside.clone(),
                AgentPosition(at),
                SteeringParams {
                    max_speed: 0.6 * bevy_reynolds::reynolds::defaults::MAX_SPEED,
                    ..default()
                },
                AgentColor(PURPLE),
            ))
            .id();
        for place in places {
            commands.spawn((
                Kind::Member,
                InFormation(leader),
                AvoidAgents::default(),
                inside.clone(),
                AgentPosition(place),
                AgentColor(PURPLE),
            ));
        }
    }
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(placement.0);
    let mut placed = 0;
    while placed < args.grazers {
        let p = Vec2::new(
            rng.random_range(MARGIN..WINDOW_WIDTH - MARGIN),
            rng.random_range(MARGIN..WINDOW_HEIGHT - MARGIN),
        );
        // Clear of every rock and wall by a body and more.
        if field.clearance(p) < 2.0 * BODY {
            continue;
        }
        let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        commands.spawn((
            SteeringAgent,
            Kind::Grazer,
            SteeringBehavior::Graze(SteeringTarget::Entity(mouse)),
            inside.clone(),
            AgentPosition(p),
            // Facing anywhere, and wandering off that way.
            AgentHeading::from_angle(angle),
            WanderAngle(angle),
            AgentColor(GREEN),
        ));
        placed += 1;
    }
}

fn follow_mouse(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut mouse: Query<(&mut AgentPosition, &mut Transform), With<Mouse>>,
) {
    if let (Some(world), Ok((mut pos, mut transform))) =
        (cursor_in_world(&window, &camera), mouse.single_mut())
    {
        pos.set_if_neq(AgentPosition(world));
        transform.translation = world.extend(0.0);
    }
}

/// A click on a traveller selects it or leaves it out; a click anywhere
/// else sends every selected traveller there, each to a place of its own
/// round it.
fn send_travellers(
    buttons: Res<ButtonInput<MouseButton>>,
    panel: Option<Res<bevy_egui::input::EguiWantsInput>>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut travellers: Query<
        (
            Entity,
            &AgentPosition,
            &mut Navigate,
            &mut AgentColor,
            Has<Selected>,
        ),
        Without<Formation>,
    >,
    mut commands: Commands,
) {
    let Some(click) = click_on_field(
        MouseButton::Left,
        &buttons,
        panel.as_deref(),
        &window,
        &camera,
    ) else {
        return;
    };
    let clicked = travellers
        .iter_mut()
        .filter(|(_, pos, ..)| pos.0.distance(click) <= 2.0 * BODY)
        .min_by(|a, b| a.1.0.distance(click).total_cmp(&b.1.0.distance(click)));
    if let Some((entity, _, _, mut color, selected)) = clicked {
        if selected {
            commands.entity(entity).remove::<Selected>();
            color.0 = DULL_ORANGE;
        } else {
            commands.entity(entity).insert(Selected);
            color.0 = ORANGE;
        }
        return;
    }
    // Each to a place of its own round the click, on a sunflower's
    // spiral: one body and more between any two.
    let mut places = (0..).map(|i: u32| {
        let (r, angle) = (2.2 * BODY * (i as f32).sqrt(), i as f32 * 2.399_963);
        click + Vec2::from_angle(angle) * r
    });
    for (_, _, mut navigate, _, selected) in &mut travellers {
        if selected && let Some(place) = places.next() {
            navigate.goal = NavigationGoal::Point(place);
        }
    }
}

/// A right-click anywhere sends the squad's leader there; its members
/// keep their places round it.
fn send_squad(
    buttons: Res<ButtonInput<MouseButton>>,
    panel: Option<Res<bevy_egui::input::EguiWantsInput>>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut leaders: Query<&mut Navigate, With<Formation>>,
) {
    if let Some(click) = click_on_field(
        MouseButton::Right,
        &buttons,
        panel.as_deref(),
        &window,
        &camera,
    ) {
        for mut navigate in &mut leaders {
            navigate.goal = NavigationGoal::Point(click);
        }
    }
}

/// Each step, the closest any body came to a rock, a wall or the edge.
fn measure_clearance(
    field: Res<Field>,
    agents: Query<&AgentPosition, With<SteeringAgent>>,
    mut least: ResMut<LeastClearance>,
) {
    for pos in &agents {
        let clearance = field.clearance(pos.0);
        if clearance < least.0 {
            *least = LeastClearance(clearance, pos.0);
        }
    }
}

/// For unattended runs with `--report`: at the end, where every agent is
/// and the least clearance over the run.
fn write_report(
    report: Res<Report>,
    camera: FieldCameras,
    fixed: Res<Time<Fixed>>,
    least: Res<LeastClearance>,
    squads: Query<(&Formation, &FormationState, &AgentPosition)>,
    members: Query<&AgentPosition, With<InFormation>>,
    agents: Query<(
        &Kind,
        &AgentPosition,
        &AgentVelocity,
        Option<&FollowPath>,
        Option<&Navigate>,
        Option<&NavigationStatus>,
    )>,
) {
    let agents: Vec<_> = agents
        .iter()
        .map(|(kind, pos, vel, follow, navigate, status)| {
            let goal = navigate.and_then(|n| match n.goal {
                NavigationGoal::Point(p) => Some([p.x, p.y]),
                NavigationGoal::Entity(_) => None,
            });
            json!({
                "kind": match kind {
                    Kind::Patroller => "patroller",
                    Kind::Grazer => "grazer",
                    Kind::Traveller => "traveller",
                    Kind::Leader => "leader",
                    Kind::Member => "member",
                },
                "pos": [pos.x, pos.y],
                "vel": [vel.x, vel.y],
                "cursor": follow.map(|f| f.cursor),
                "goal": goal,
                "status": status.map(|s| format!("{s:?}")),
            })
        })
        .collect();
    // For each place of the squad's shape, the nearest member: the
    // farthest of those, 0 when the shape is whole and every place held.
    let squad = squads.iter().next().map(|(formation, state, pos)| {
        let n = state.members.len();
        let off = (0..n)
            .map(|i| {
                let place = formation.place(i, n, pos.0, state.facing);
                members
                    .iter()
                    .map(|m| m.0.distance(place))
                    .fold(f32::INFINITY, f32::min)
            })
            .fold(0.0, f32::max);
        json!({"members": n, "in_column": state.in_column, "off_places_px": off})
    });
    // Where the field is in the window, in its logical pixels: its top left
    // and bottom right corners (beside the panel, scaled to fit).
    let field_in_window = camera.single().ok().and_then(|(camera, transform)| {
        let origin = camera.logical_viewport_rect()?.min;
        let at = |p: Vec2| camera.world_to_viewport(transform, p.extend(0.0)).ok();
        let (top_left, bottom_right) = (
            at(Vec2::new(0.0, WINDOW_HEIGHT))? + origin,
            at(Vec2::new(WINDOW_WIDTH, 0.0))? + origin,
        );
        Some([top_left.x, top_left.y, bottom_right.x, bottom_right.y])
    });
    let json = json!({
        "seconds": fixed.elapsed_secs_f64(),
        "field_in_window": field_in_window,
        "squad": squad,
        "least_clearance_px": least.0,
        "least_clearance_at": [least.1.x, least.1.y],
        "agents": agents,
    });
    report.publish(&json);
}
