#![allow(dead_code)] // Each demo uses a part of what is shared.

//! What every demo needs: a fixed 1000 x 700 window (on the web, the page's
//! canvas, filling the browser's window), the chapter's 60 Hz, a dark
//! background, the steering plugin with its tuning panel, options from the
//! command line (on the web, from the page's query string), unattended runs
//! (`--seconds S --screenshot out.png`) that take a screenshot and exit, and
//! reports. A flat demo's world is the 1000 x 700 field ((0, 0) at the
//! bottom left, y up) under a 2D camera that shows all of it, with the debug
//! view; a demo on the ground brings its own 3D camera.

use std::path::PathBuf;

use bevy::camera::CameraOutputMode;
use bevy::camera::ScalingMode;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{PrimaryWindow, WindowResolution};
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};
use bevy_reynolds::inspector::{
    BesideInspector, DOCKED_WIDTH, InspectorDock, SteeringInspector, SteeringInspectorPlugin,
};
use bevy_reynolds::render::SteeringDebugPlugin;
use bevy_reynolds::{GroundPlane, SteeringPlugins};

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
            report: None,
            view,
            docked_panel: false,
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
    /// Where an unattended run writes its report (see [`Report`]).
    pub report: Option<PathBuf>,
    /// The world the demo shows.
    pub view: View,
    /// Whether the tuning panel is docked on the right, the field beside
    /// it (on the desktop, the window that much wider).
    pub docked_panel: bool,
}

impl ExamplePlugin {
    /// The same demo with the tuning panel docked on the right and the
    /// field drawn beside it, none of it under the panel.
    pub fn with_docked_panel(mut self) -> Self {
        self.docked_panel = true;
        self
    }

    /// The same demo, writing its report (see [`Report`]) into `path`.
    pub fn with_report(mut self, path: Option<PathBuf>) -> Self {
        self.report = path;
        self
    }
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
        /// See `SteeringPlugins::with_length_unit`.
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
}

/// Where a demo's report goes: on the desktop, the `--report` file, written
/// once at the end of an unattended run; on the web, the page's
/// `<body data-report>`, rewritten every simulated second, which is how the
/// browser test (`web/check`) sees the agents move.
#[derive(Resource, Clone, Default)]
pub struct Report {
    /// The file to write (ignored on the web).
    pub path: Option<PathBuf>,
}

impl Report {
    /// Publishes the demo's report as JSON, or logs why it cannot.
    pub fn publish(&self, report: &serde_json::Value) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = &self.path
            && let Err(error) = std::fs::write(path, report.to_string())
        {
            error!("cannot write the report to {}: {error}", path.display());
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(body) = web_sys::window()
            .and_then(|window| window.document())
            .and_then(|document| document.body())
            && let Err(error) = body.set_attribute("data-report", &report.to_string())
        {
            error!("cannot publish the report on the page: {error:?}");
        }
    }
}

/// A run condition for a demo's report system: true once, at the end of an
/// unattended run with `--report`, on the desktop; every simulated second
/// on the web.
pub fn report_due(
    report: Res<Report>,
    unattended: Option<Res<Unattended>>,
    fixed: Res<Time<Fixed>>,
    mut next: Local<f64>,
) -> bool {
    let now = fixed.elapsed_secs_f64();
    if cfg!(target_arch = "wasm32") {
        if now < *next {
            return false;
        }
        *next = now.floor() + 1.0;
        return true;
    }
    let Some(unattended) = unattended else {
        return false;
    };
    if report.path.is_none() || next.is_infinite() || !unattended.is_due(&fixed) {
        return false;
    }
    *next = f64::INFINITY;
    true
}

/// The demo's options: from the command line on the desktop; on the web,
/// from the page's query string, where `?seed=7&agents=200&separate-arrivers`
/// means `--seed 7 --agents 200 --separate-arrivers` (options the page does
/// not understand are reported in the browser's console and left at their
/// defaults).
pub fn parse_args<T: clap::Parser>() -> T {
    #[cfg(not(target_arch = "wasm32"))]
    return T::parse();
    #[cfg(target_arch = "wasm32")]
    {
        let query = web_sys::window()
            .and_then(|window| window.location().search().ok())
            .unwrap_or_default();
        T::try_parse_from(args_from_query(&query)).unwrap_or_else(|error| {
            web_sys::console::error_1(&error.to_string().into());
            T::parse_from(["demo"])
        })
    }
}

/// `?seed=7&separate-arrivers` as command-line words: `demo --seed=7
/// --separate-arrivers` (a `+` is a space; values are numbers and names, so
/// nothing else is decoded).
pub fn args_from_query(query: &str) -> Vec<String> {
    let options = query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) => format!("--{key}={}", value.replace('+', " ")),
            None => format!("--{pair}"),
        });
    std::iter::once("demo".to_owned()).chain(options).collect()
}

impl Plugin for ExamplePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: self.title.into(),
                resolution: WindowResolution::new(
                    (WINDOW_WIDTH + if self.docked_panel { DOCKED_WIDTH } else { 0.0 }) as u32,
                    WINDOW_HEIGHT as u32,
                ),
                resizable: false,
                // On the web: the page's canvas, as large as the page.
                canvas: cfg!(target_arch = "wasm32").then(|| "#bevy".to_owned()),
                fit_canvas_to_parent: true,
                ..default()
            }),
            ..default()
        }))
        .add_plugins(SteeringInspectorPlugin)
        .insert_resource(Report {
            path: self.report.clone(),
        })
        // The chapter simulates at the display's 60 frames a second.
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(ClearColor(BACKGROUND));
        let steering = SteeringPlugins::default().with_seed(self.seed);
        match self.view {
            View::Flat => {
                app.add_plugins((steering, SteeringDebugPlugin))
                    .add_systems(Startup, spawn_camera);
            }
            View::Ground { length_unit } => {
                app.add_plugins((
                    steering
                        .with_ground(GroundPlane::Xz)
                        .with_length_unit(length_unit),
                    SteeringDebugPlugin,
                ));
            }
        }
        if self.docked_panel {
            app.insert_resource(docked_inspector())
                .add_systems(Startup, spawn_egui_camera);
            // egui on a camera of its own, not on the first one.
            app.world_mut()
                .resource_mut::<EguiGlobalSettings>()
                .auto_create_primary_context = false;
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

/// The camera that shows a flat demo's field.
#[derive(Component)]
pub struct FieldCamera;

/// The field's camera, to turn the cursor into a point on the field.
pub type FieldCameras<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<FieldCamera>>;

/// Where the cursor is, in world coordinates, if it is over the field's
/// part of the window.
pub fn cursor_in_world(
    window: &Query<&Window, With<PrimaryWindow>>,
    camera: &FieldCameras,
) -> Option<Vec2> {
    let (window, (camera, transform)) = (window.single().ok()?, camera.single().ok()?);
    let cursor = window.cursor_position()?;
    // Over the field's part of the window (not the docked panel beside it),
    // whose corner may be right of or below the window's.
    let view = camera.logical_viewport_rect()?;
    if !view.contains(cursor) {
        return None;
    }
    camera
        .viewport_to_world_2d(transform, cursor - view.min)
        .ok()
}

/// Where on the field the cursor was when `button` was just pressed, if
/// it was pressed this frame and not on a panel.
pub fn click_on_field(
    button: MouseButton,
    buttons: &ButtonInput<MouseButton>,
    panel: Option<&bevy_egui::input::EguiWantsInput>,
    window: &Query<&Window, With<PrimaryWindow>>,
    camera: &FieldCameras,
) -> Option<Vec2> {
    // A click on the panel is the panel's.
    if !buttons.just_pressed(button)
        || panel.is_some_and(|p| p.wants_pointer_input() || p.is_pointer_over_area())
    {
        return None;
    }
    cursor_in_world(window, camera)
}

/// A 2D camera on the middle of the field that shows all of it, at one
/// pixel a pixel in the desktop's 1000 x 700 window and scaled to fit a
/// browser's window of any size.
fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        FieldCamera,
        // Beside the tuning panel when it is docked.
        BesideInspector,
        Camera2d,
        Msaa::Sample4,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: WINDOW_WIDTH,
                min_height: WINDOW_HEIGHT,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(WINDOW_WIDTH / 2.0, WINDOW_HEIGHT / 2.0, 0.0),
    ));
}

/// The tuning panel, docked on the right.
fn docked_inspector() -> SteeringInspector {
    let mut inspector = SteeringInspector::default();
    inspector.dock = InspectorDock::Right;
    inspector
}

/// egui's own camera, over the whole window and drawing nothing else, for
/// a demo whose field camera draws beside the docked panel (egui draws
/// within its camera's viewport).
fn spawn_egui_camera(mut commands: Commands) {
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            // Over what the field's camera drew.
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
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
