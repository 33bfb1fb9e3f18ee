//! Boids: a flock built from Reynolds' three rules (separation within 25 px
//! weighted 1.5, alignment and cohesion within 70 px weighted 1), voting on
//! one direction the flock cruises at 128 px/s, capped once with the rest.
//! The mouse is a threat the flock flees and splits around. Keys 1, 2 and 3
//! switch each rule off and on; the panel tunes weights, radii and the
//! cruise speed, or switches to the chapter's literal rules, under which a
//! big flock brakes itself still. The world is sized to the flock: about 30
//! neighbors each, never smaller than the window.
//!
//! ```sh
//! cargo run --example boids
//! cargo run --example boids -- --boids 5000
//! cargo run --example boids -- --seconds 5 --screenshot boids.png
//! ```

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui, input::egui_wants_any_pointer_input};
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::AgentColor;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

mod common;
use common::{
    FieldCameras, RunArgs, View, WINDOW_HEIGHT as HEIGHT, WINDOW_WIDTH as WIDTH, cursor_in_world,
};

/// A flock steering around your mouse.
#[derive(clap::Parser, Resource, Debug, Clone)]
struct Args {
    /// How many boids.
    #[arg(long, default_value_t = 40)]
    boids: usize,
    /// The seed, and an unattended run.
    #[command(flatten)]
    run: RunArgs,
}

/// The flock's rules as the panel and the keys set them; applied to every
/// boid when they change.
#[derive(Resource, Debug, Clone, PartialEq)]
struct Rules {
    flocking: Flocking,
    separation: bool,
    alignment: bool,
    cohesion: bool,
}

impl Rules {
    fn applied(&self) -> Flocking {
        let on = |enabled: bool, weight: f32| if enabled { weight } else { 0.0 };
        let rules = &self.flocking.rules;
        Flocking {
            rules: FlockParams {
                separation_weight: on(self.separation, rules.separation_weight),
                alignment_weight: on(self.alignment, rules.alignment_weight),
                cohesion_weight: on(self.cohesion, rules.cohesion_weight),
                ..*rules
            },
            ..self.flocking
        }
    }
}

#[derive(Component)]
struct Mouse;

#[derive(Component)]
struct Boid;

fn main() -> AppExit {
    let args: Args = common::parse_args();
    let plugin = args.run.plugin("Boids", View::Flat);
    let seed = plugin.seed;
    let world = world_size(args.boids);
    App::new()
        .add_plugins(plugin)
        .insert_resource(SteeringSettings {
            wrap: Some(Rect::from_corners(Vec2::ZERO, world)),
            ..default()
        })
        .insert_resource(Rules {
            flocking: Flocking::boids(CRUISE_SPEED),
            separation: true,
            alignment: true,
            cohesion: true,
        })
        .insert_resource(args)
        .insert_resource(BoidSeed(seed))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                follow_mouse.run_if(not(egui_wants_any_pointer_input)),
                toggle_rules,
                apply_rules,
            ),
        )
        .add_systems(EguiPrimaryContextPass, rules_panel)
        .run()
}

#[derive(Resource)]
struct BoidSeed(u64);

/// The speed the flock cruises at, 80% of the boids' top speed.
const CRUISE_SPEED: f32 = 128.0;

/// The world for `boids`: room for about 30 neighbors each within 70 px,
/// in the window's proportions, and never smaller than the window.
fn world_size(boids: usize) -> Vec2 {
    let area = boids as f32 * std::f32::consts::PI * 70.0 * 70.0 / 30.0;
    let scale = (area / (WIDTH * HEIGHT)).sqrt().max(1.0);
    Vec2::new(WIDTH, HEIGHT) * scale
}

fn setup(
    mut commands: Commands,
    args: Res<Args>,
    seed: Res<BoidSeed>,
    rules: Res<Rules>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    // The camera shows the whole world.
    let world = world_size(args.boids);
    if let Ok((mut transform, mut projection)) = camera.single_mut() {
        transform.translation = (world / 2.0).extend(transform.translation.z);
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = world.x / WIDTH;
        }
    }
    // The mouse starts far off the flock's world, so it threatens no one
    // until it moves in.
    let mouse = commands
        .spawn((
            Mouse,
            AgentPosition::new(-10_000.0, -10_000.0),
            MeasuredVelocity::default(),
        ))
        .id();
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed.0);
    let flocking = rules.applied();
    // Each boid wanders a little, flees the mouse, and flocks.
    let behavior = SteeringBehavior::Blend(vec![
        Weighted::new(0.3, SteeringBehavior::Wander),
        Weighted::new(3.0, SteeringBehavior::Flee(SteeringTarget::Entity(mouse))),
    ]);
    // A panic radius of 120 px, so the flock splits around the mouse.
    let overrides = SteeringParams {
        panic_radius: 120.0,
        max_speed: 160.0,
        ..default()
    };
    commands.spawn_batch((0..args.boids).map(move |_| {
        let pos = Vec2::new(
            rng.random_range(0.0..world.x),
            rng.random_range(0.0..world.y),
        );
        let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        (
            Boid,
            flocking,
            behavior.clone(),
            overrides,
            AgentPosition(pos),
            AgentVelocity(Vec2::from_angle(angle) * 100.0),
            AgentHeading::from_angle(angle),
            WanderAngle(angle),
            AgentColor(Color::srgb_u8(150, 180, 235)),
        )
    }));
}

fn follow_mouse(
    window: Query<&Window, With<PrimaryWindow>>,
    camera: FieldCameras,
    mut mouse: Query<&mut AgentPosition, With<Mouse>>,
) {
    if let (Some(world), Ok(mut pos)) = (cursor_in_world(&window, &camera), mouse.single_mut()) {
        pos.set_if_neq(AgentPosition(world));
    }
}

/// Keys 1, 2 and 3: separation, alignment and cohesion off and on.
fn toggle_rules(keys: Res<ButtonInput<KeyCode>>, mut rules: ResMut<Rules>) {
    if keys.just_pressed(KeyCode::Digit1) {
        rules.separation = !rules.separation;
    }
    if keys.just_pressed(KeyCode::Digit2) {
        rules.alignment = !rules.alignment;
    }
    if keys.just_pressed(KeyCode::Digit3) {
        rules.cohesion = !rules.cohesion;
    }
}

fn apply_rules(rules: Res<Rules>, mut boids: Query<&mut Flocking, With<Boid>>) {
    if !rules.is_changed() {
        return;
    }
    let flocking = rules.applied();
    for mut f in &mut boids {
        f.set_if_neq(flocking);
    }
}

fn rules_panel(mut contexts: EguiContexts, mut rules: ResMut<Rules>) -> Result {
    let mut edited = rules.clone();
    egui::Window::new("Flock")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -10.0])
        .resizable(false)
        .show(contexts.ctx_mut()?, |ui| {
            let f = &mut edited.flocking.rules;
            ui.checkbox(&mut edited.separation, "[1] separation");
            ui.add(egui::Slider::new(&mut f.separation_weight, 0.0..=5.0).text("weight"));
            ui.add(egui::Slider::new(&mut f.separation_radius, 1.0..=100.0).text("radius (px)"));
            ui.checkbox(&mut edited.alignment, "[2] alignment");
            ui.add(egui::Slider::new(&mut f.alignment_weight, 0.0..=5.0).text("weight"));
            ui.checkbox(&mut edited.cohesion, "[3] cohesion");
            ui.add(egui::Slider::new(&mut f.cohesion_weight, 0.0..=5.0).text("weight"));
            ui.add(
                egui::Slider::new(&mut f.neighbor_radius, 1.0..=200.0).text("neighbor radius (px)"),
            );
            let mut literal = f.cruise_speed.is_none();
            ui.checkbox(&mut literal, "the chapter's literal rules (no cruise)");
            let mut cruise = f.cruise_speed.unwrap_or(CRUISE_SPEED);
            if !literal {
                ui.add(egui::Slider::new(&mut cruise, 10.0..=160.0).text("cruise speed (px/s)"));
            }
            f.cruise_speed = (!literal).then_some(cruise);
        });
    if edited != *rules {
        *rules = edited;
    }
    Ok(())
}
