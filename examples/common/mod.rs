#![allow(dead_code)] // Each demo uses a part of what is shared.

//! What every demo needs: a fixed 1000 x 700 window, the chapter's 60 Hz,
//! a dark background, the steering plugin with its tuning panel, and
//! unattended runs (`--seconds S --screenshot out.png`) that take a
//! screenshot and exit. A flat demo's world matches the window ((0, 0) at
//! the bottom left, y up) under a 2D camera, with the debug view; a demo on
//! the ground brings its own 3D camera.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_reynolds::inspector::SteeringInspectorPlugin;
use bevy_reynolds::render::SteeringDebugPlugin;
use bevy_reynolds::{GroundPlane, SteeringPlugin};

/// The window's (and the world's) width, in pixels.
pub const WINDOW_WIDTH: f32 = 1000.0;
/// The window's (and the world's) height, in pixels.
pub const WINDOW_HEIGHT: f32 = 700.0;
/// The background behind everything.
pub const BACKGROUND: Color = Color::srgb_u8(18, 20, 24);

/// The options every demo takes (flatten them into its own): a seed, and
/// an unattended run that ends with a screenshot.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The seed of the placements and of every wander; random if not given.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated seconds to run before the screenshot; then exit.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Take a screenshot into this PNG file after --seconds, then exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}

impl RunArgs {
    /// The demo's setup, titled `title`, showing `view`, with the seed given
    /// or a random one (read it back from the plugin's `seed`).
    pub fn plugin(&self, title: &'static str, view: View) -> ExamplePlugin {
        ExamplePlugin {
            title,
            seed: self.seed.unwrap_or_else(rand::random),
            seconds: self.seconds,
            screenshot: self.screenshot.clone(),
            view,
        }
    }
}

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
    /// The world the demo shows.
    pub view: View,
}

/// The world a demo shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View {
    /// The window's own 1000 x 700 pixels, under a 2D camera, with the
    /// debug view drawing the agents.
    Flat,
    /// Agents on the XZ ground of a 3D world whose units are `length_unit`
    /// of the chapter's pixels; the demo spawns its own camera and draws
    /// its own agents.
    Ground {
        /// See `SteeringPlugin::with_length_unit`.
        length_unit: f32,
    },
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

    /// Where to write the demo's `--report` now: its path, once, when the
    /// run has reached its end (`done` remembers that it was written).
    pub fn report_due<'a>(
        &self,
        report: &'a Option<PathBuf>,
        fixed: &Time<Fixed>,
        done: &mut bool,
    ) -> Option<&'a PathBuf> {
        let path = report.as_ref()?;
        if *done || !self.is_due(fixed) {
            return None;
        }
        *done = true;
        Some(path)
    }
}

/// Writes a demo's report as JSON, or says why it cannot.
pub fn write_report_file(path: &std::path::Path, report: &serde_json::Value) {
    if let Err(error) = std::fs::write(path, report.to_string()) {
        error!("cannot write the report to {}: {error}", path.display());
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
        .add_plugins(SteeringInspectorPlugin)
        // The chapter simulates at the display's 60 frames a second.
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(ClearColor(BACKGROUND));
        let steering = SteeringPlugin::default().with_seed(self.seed);
        match self.view {
            View::Flat => {
                app.add_plugins((steering, SteeringDebugPlugin))
                    .add_systems(Startup, spawn_camera);
            }
            View::Ground { length_unit } => {
                app.add_plugins(
                    steering
                        .with_ground(GroundPlane::Xz)
                        .with_length_unit(length_unit),
                );
            }
        }
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
