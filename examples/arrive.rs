//! Agents arriving in a row where you click, each slowing down so that it
//! stops on its place rather than overshoot: the model's Arrive.

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
        .add_systems(Update, arrive_where_clicked)
        .run();
}

/// Where an agent stands in the row, from the row's middle.
#[derive(Component)]
struct InRow(Vec2);

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // Five arrivers in a column, each sent to its place in a row.
    for i in 0..5 {
        let in_row = Vec2::new(60.0 * (i as f32 - 2.0), 0.0);
        commands.spawn((
            SteeringAgent,
            SteeringBehavior::Arrive(SteeringTarget::Point(in_row)),
            InRow(in_row),
            AgentPosition::new(-500.0, -200.0 + 100.0 * i as f32),
            AgentColor(Color::hsl(72.0 * i as f32, 0.7, 0.6)),
        ));
    }
}

/// A left click sends the row to the point under the mouse.
fn arrive_where_clicked(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut agents: Query<(&mut SteeringBehavior, &InRow)>,
) {
    let (camera, at) = *camera;
    let clicked = window
        .cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(at, p).ok());
    if let (true, Some(point)) = (buttons.just_pressed(MouseButton::Left), clicked) {
        for (mut behavior, in_row) in &mut agents {
            *behavior = SteeringBehavior::Arrive(SteeringTarget::Point(point + in_row.0));
        }
    }
}
