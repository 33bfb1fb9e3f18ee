//! A crowd through a door: ten people each side of a wall, each sent
//! across it and back again, avoiding one another (no two bodies ever
//! overlap), the door letting one way through at a time.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{DebugDraw, SteeringDebugPlugin};

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            SteeringPlugins::default(),
            SteeringDebugPlugin,
        ))
        .insert_resource(DebugDraw {
            trails: false,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_observer(go_back)
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // A wall along x = 0 with a door 40 px wide: two bodies of 10 px radius.
    let (north, south) = (Vec2::new(0.0, 20.0), Vec2::new(0.0, -20.0));
    commands.spawn(SteeringObstacle::wall(north, Vec2::new(0.0, 340.0)));
    commands.spawn(SteeringObstacle::wall(south, Vec2::new(0.0, -340.0)));
    commands.spawn(TakeTurns::between(north, south));
    let person = SteeringParams {
        radius: 10.0,
        ..default()
    };
    for i in 0..10 {
        let y = 40.0 * i as f32 - 180.0;
        for x in [-300.0, 300.0] {
            commands.spawn((
                person,
                Navigate::to(Vec2::new(-x, y)),
                AvoidAgents::default(),
                AgentPosition::new(x, y),
            ));
        }
    }
}

/// Someone who has arrived goes back to the side they came from.
fn go_back(arrived: On<Arrived>, mut people: Query<(&mut Navigate, &AgentPosition)>) {
    if let Ok((mut navigate, at)) = people.get_mut(arrived.entity) {
        *navigate = Navigate::to(Vec2::new(-at.x, at.y));
    }
}
