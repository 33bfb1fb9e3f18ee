//! One agent seeking the mouse: the smallest steering game.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::SteeringDebugPlugin;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            SteeringPlugins::default(),
            SteeringDebugPlugin,
        ))
        .add_systems(Startup, setup)
        .add_systems(Update, seek_the_mouse)
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // An agent at the window's left, seeking its centre until the mouse moves.
    commands.spawn((
        SteeringAgent,
        SteeringBehavior::Seek(SteeringTarget::Point(Vec2::ZERO)),
        AgentPosition::new(-400.0, 0.0),
    ));
}

/// Points the agent at the mouse, in the world's coordinates.
fn seek_the_mouse(
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut agent: Single<&mut SteeringBehavior>,
) {
    let (camera, at) = *camera;
    let mouse = window
        .cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(at, p).ok());
    if let Some(mouse) = mouse {
        **agent = SteeringBehavior::Seek(SteeringTarget::Point(mouse));
    }
}
