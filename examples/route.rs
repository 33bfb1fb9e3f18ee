//! A route through a level: walls make a few rooms, and a click sends the
//! traveller there by the shortest way its body fits through.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::SteeringDebugPlugin;

/// The walls, each from (x, y) to (x, y).
const WALLS: [[f32; 4]; 4] = [
    [-200.0, -300.0, -200.0, 200.0],
    [200.0, 300.0, 200.0, -200.0],
    [-200.0, 0.0, 50.0, 0.0],
    [-500.0, 200.0, -300.0, 200.0],
];

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            SteeringPlugins::default(),
            SteeringDebugPlugin,
        ))
        .add_systems(Startup, setup)
        .add_systems(Update, go_where_clicked)
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    for [ax, ay, bx, by] in WALLS {
        commands.spawn(SteeringObstacle::wall(Vec2::new(ax, ay), Vec2::new(bx, by)));
    }
    // A traveller 20 px across, sent to the far corner.
    let body = SteeringParams {
        radius: 10.0,
        ..default()
    };
    commands.spawn((
        body,
        Navigate::to(Vec2::new(450.0, 250.0)),
        AgentPosition::new(-450.0, -250.0),
    ));
}

/// A left click sends the traveller to the point under the mouse.
fn go_where_clicked(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut traveller: Single<&mut Navigate>,
) {
    let (camera, at) = *camera;
    let clicked = window
        .cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(at, p).ok());
    if let (true, Some(point)) = (buttons.just_pressed(MouseButton::Left), clicked) {
        **traveller = Navigate::to(point);
    }
}
