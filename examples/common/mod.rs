//! What every demo needs: a fixed 1000 x 700 window whose world matches it
//! ((0, 0) at the bottom left, y up), the chapter's 60 Hz, a dark
//! background, the steering plugin with its debug view and tuning panel,
//! and unattended runs (`--seconds S --screenshot out.png`)
//! that take a screenshot and exit.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_steering::SteeringPlugin;
use bevy_steering::inspector::SteeringInspectorPlugin;
use bevy_steering::render::SteeringDebugPlugin;

/// The window's (and the world's) width, in pixels.
pub const WINDOW_WIDTH: f32 = 1000.0;
/// The window's (and the world's) height, in pixels.
pub const WINDOW_HEIGHT: f32 = 700.0;
/// The background behind everything.
pub const BACKGROUND: Color = Color::srgb_u8(18, 20, 24);

/// The demos' shared setup: add it instead of `DefaultPlugins`.
pub struct ExamplePlugin {
    /// The window's title.
    pub title: &'static str,
    /// The seed of every agent's wander stream.
    pub seed: u64,
    /// Simulated seconds before an unattended run ends (none: run until closed).
    pub seconds: Option<f64>,
    /// Where an unattended run saves its screenshot.
    pub screenshot: Option<PathBuf>,
}

/// When and how an unattended run ends.
#[derive(Resource, Clone)]
pub struct Unattended {
    /// Simulated seconds to run.
    pub seconds: f64,
    /// The screenshot to take at the end, if any.
    pub screenshot: Option<PathBuf>,
}

impl Unattended {
    /// Whether the run has reached its end, in simulated time.
    pub fn is_due(&self, fixed: &Time<Fixed>) -> bool {
        fixed.elapsed_secs_f64() >= self.seconds
    }
}

impl Plugin for ExamplePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: self.title.into(),
                resolution: WindowResolution::new(WINDOW_WIDTH as u32, WINDOW_HEIGHT as u32),
                resizable: false,
                ..default()
            }),
            ..default()
        }))
        .add_plugins((
            SteeringPlugin::default().with_seed(self.seed),
            SteeringDebugPlugin,
            SteeringInspectorPlugin,
        ))
        // The chapter simulates at the display's 60 frames a second.
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(ClearColor(BACKGROUND))
        .add_systems(Startup, spawn_camera);
        if let Some(seconds) = self.seconds {
            app.insert_resource(Unattended {
                seconds,
                screenshot: self.screenshot.clone(),
            })
            .add_systems(Update, finish_unattended);
        }
    }
}

/// Where the cursor is, in world coordinates, if it is over the window.
pub fn cursor_in_world(
    window: &Query<&Window, With<PrimaryWindow>>,
    camera: &Query<(&Camera, &GlobalTransform)>,
) -> Option<Vec2> {
    let (window, (camera, transform)) = (window.single().ok()?, camera.single().ok()?);
    let cursor = window.cursor_position()?;
    camera.viewport_to_world_2d(transform, cursor).ok()
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Msaa::Sample4,
        Transform::from_xyz(WINDOW_WIDTH / 2.0, WINDOW_HEIGHT / 2.0, 0.0),
    ));
}

/// At the end of an unattended run: the screenshot, then exit.
fn finish_unattended(
    mut commands: Commands,
    unattended: Res<Unattended>,
    fixed: Res<Time<Fixed>>,
    mut done: Local<bool>,
    mut exit: MessageWriter<AppExit>,
) {
    if *done || !unattended.is_due(&fixed) {
        return;
    }
    *done = true;
    match &unattended.screenshot {
        Some(path) => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()))
                .observe(
                    |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                        exit.write(AppExit::Success);
                    },
                );
        }
        None => {
            exit.write(AppExit::Success);
        }
    }
}
