//! A flock of 200 boids: Reynolds' three rules (separation, alignment,
//! cohesion) with a little wander, in a world that wraps round the window.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::SteeringDebugPlugin;

fn main() {
    let field = Rect::from_center_size(Vec2::ZERO, Vec2::new(1280.0, 720.0));
    App::new()
        .add_plugins((
            DefaultPlugins,
            SteeringPlugins::default(),
            SteeringDebugPlugin,
        ))
        // Boids leaving one edge come back at the other.
        .insert_resource(SteeringSettings {
            wrap: Some(field),
            ..default()
        })
        .add_systems(Startup, setup)
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    for i in 0..200 {
        // Spread over the window, heading every which way (a golden-angle spiral).
        let angle = i as f32 * 2.4;
        let at = Vec2::from_angle(angle) * (i as f32).sqrt() * 24.0;
        commands.spawn((
            SteeringAgent,
            Flocking::boids(128.0),
            SteeringBehavior::Wander,
            AgentPosition(at),
            AgentVelocity(Vec2::from_angle(angle * 3.0) * 100.0),
        ));
    }
}
