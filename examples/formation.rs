//! A formation: a squad of eight in a wedge behind its leader, who walks
//! round a circle; the members keep their places as it turns.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{AgentColor, SteeringDebugPlugin};

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            SteeringPlugins::default(),
            SteeringDebugPlugin,
        ))
        .add_systems(Startup, setup)
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // A looped path round a circle of 250 px: 24 corners.
    let circle = (0..24).map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / 24.0) * 250.0);
    let leader = commands
        .spawn((
            SteeringAgent,
            FollowPath::new(Arc::new(SteeringPath::new(circle, true)), 10.0),
            Formation::new(FormationShape::Wedge, 40.0),
            SteeringParams {
                radius: 10.0,
                max_speed: 110.0,
                ..default()
            },
            AvoidAgents {
                right_of_way: 1,
                ..default()
            },
            AgentPosition::new(250.0, 0.0),
            AgentColor(Color::srgb(1.0, 0.8, 0.3)),
        ))
        .id();
    for i in 0..8 {
        commands.spawn((
            InFormation(leader),
            SteeringParams {
                radius: 10.0,
                ..default()
            },
            AvoidAgents::default(),
            AgentPosition::new(250.0 + 30.0 * (i % 3) as f32, -30.0 * (i / 3) as f32 - 30.0),
        ));
    }
}
