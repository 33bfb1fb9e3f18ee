//! A live tuning panel (feature `inspector`), drawn with egui: every global
//! parameter, the fixed rate, the seed, pause, single-step and reset, the
//! numbers that follow from the limits, and, when there are formations,
//! their shape and spacing; when agents flock, the flock's rules; when
//! flyers fly, their flight and their flock's rules.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy_reynolds::prelude::*;
//! # use bevy_reynolds::inspector::*;
//! App::new().add_plugins((DefaultPlugins, SteeringPlugins::default(), SteeringInspectorPlugin));
//! ```
//!
//! It floats over the world by default. Docked on the right
//! ([`InspectorDock::Right`]), it takes the window's right edge, and every
//! camera marked [`BesideInspector`] draws the world in the rest of the
//! window, none of it under the panel. Give egui a camera of its own then
//! (bevy_egui's `PrimaryEguiContext` on a camera that draws nothing, with
//! `EguiGlobalSettings::auto_create_primary_context` off): egui draws
//! within its camera's viewport, and the panel would be squeezed with it.
//!
//! Changes take effect on the next fixed step. Reset sends a
//! [`SteeringReset`] message: the game decides what resetting means (the
//! Critters demo respawns its agents), after the plugin has re-seeded every
//! new agent's random stream from the panel's seed.

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui};
use reynolds::defaults::PRIORITY_THRESHOLD;
use reynolds::model::{Limits, braking_distance, sanitize_mass, time_to_speed};
use reynolds::predict::arrive_overshoot;

use crate::agent::{Combine, DEFAULT_SEED, SteeringLengthUnit, SteeringSeed, SteeringSettings};
use crate::flight::FlightParams;
use crate::flocking::{Flocking, FlyerFlocking};
use crate::formation::{Formation, FormationShape};
use crate::schedule::run_one_fixed_step;
use reynolds::flight::Flight;
use reynolds::flock::FlockParams;

/// Adds the tuning panel (and egui, if the app does not have it yet).
pub struct SteeringInspectorPlugin;

/// The panel's own state.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, PartialEq)]
pub struct SteeringInspector {
    /// Whether the panel is shown.
    pub open: bool,
    /// The seed that reset applies.
    pub seed: u64,
    /// Where the panel is drawn.
    pub dock: InspectorDock,
    step_requested: bool,
    /// The width the docked panel took at the window's right edge, in
    /// logical pixels (0 when it floats or is closed).
    docked_width: f32,
}

impl Default for SteeringInspector {
    fn default() -> Self {
        Self {
            open: true,
            seed: DEFAULT_SEED,
            dock: InspectorDock::Floating,
            step_requested: false,
            docked_width: 0.0,
        }
    }
}

impl SteeringInspector {
    /// The width the panel takes at the window's right edge, in logical
    /// pixels: 0 unless it is open and [docked](InspectorDock::Right).
    pub fn docked_width(&self) -> f32 {
        self.docked_width
    }
}

/// Where the tuning panel is drawn.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InspectorDock {
    /// A window over the world, near the top right, that can be dragged.
    #[default]
    Floating,
    /// A panel down the window's right edge, [`DOCKED_WIDTH`] wide; the
    /// cameras marked [`BesideInspector`] draw beside it.
    Right,
}

/// The docked panel's width, in logical pixels.
pub const DOCKED_WIDTH: f32 = 260.0;

/// On a camera that draws to the primary window: while the panel is
/// docked, the camera's viewport is the window but for the panel's strip
/// (its projection then fits the world to that). Not on egui's own camera.
#[derive(Component, Reflect, Debug, Clone, Copy, Default)]
#[reflect(Component, Debug, Default)]
pub struct BesideInspector;

/// Sent when the panel's reset button is pressed, after the seed has been
/// applied. Respawn your agents when you read it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SteeringReset {
    /// The seed the new agents' streams come from.
    pub seed: u64,
}

impl Plugin for SteeringInspectorPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        app.register_type::<SteeringInspector>()
            .register_type::<BesideInspector>()
            .init_resource::<SteeringInspector>()
            .add_message::<SteeringReset>()
            .add_systems(Startup, take_plugin_seed)
            .add_systems(EguiPrimaryContextPass, panel)
            .add_systems(PostUpdate, fit_cameras_beside)
            .add_systems(
                RunFixedMainLoop,
                single_step.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            );
    }
}

fn take_plugin_seed(seed: Option<Res<SteeringSeed>>, mut inspector: ResMut<SteeringInspector>) {
    if let Some(seed) = seed {
        inspector.seed = seed.seed;
    }
}

/// While paused, runs exactly one fixed step when the panel asks for it.
fn single_step(world: &mut World) {
    let requested = std::mem::take(&mut world.resource_mut::<SteeringInspector>().step_requested);
    if requested {
        run_one_fixed_step(world);
    }
}

/// A slider over `range`, clamping whatever is typed into it; text that is
/// not a number (NaN) becomes the range's start rather than reaching the
/// settings.
fn slider(ui: &mut egui::Ui, value: &mut f32, range: std::ops::RangeInclusive<f32>, text: &str) {
    let (low, high) = (*range.start(), *range.end());
    ui.add(
        egui::Slider::new(value, range)
            .clamping(egui::SliderClamping::Always)
            .text(text),
    );
    *value = if value.is_nan() {
        low
    } else {
        value.clamp(low, high)
    };
}

fn panel(
    mut contexts: EguiContexts,
    mut inspector: ResMut<SteeringInspector>,
    mut settings: ResMut<SteeringSettings>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut seed: ResMut<SteeringSeed>,
    mut reset: MessageWriter<SteeringReset>,
    length_unit: Option<Res<SteeringLengthUnit>>,
    mut formations: Query<&mut Formation>,
    mut groups: TunedGroups,
) -> Result {
    if !inspector.open {
        inspector.docked_width = 0.0;
        return Ok(());
    }
    // The lengths' sliders span the model's pixels in the game's units.
    let unit = length_unit.map_or(1.0, |u| u.scale()).clamp(1e-6, 1e6);
    let px = if unit == 1.0 { "px" } else { "units" };
    let length = |range: std::ops::RangeInclusive<f32>| range.start() * unit..=range.end() * unit;
    let ctx = contexts.ctx_mut()?;
    // Edit a copy, and write back only real changes, so change detection
    // (and the settings' validation) fires only when something changed.
    let mut edited = settings.clone();
    let mut hz = fixed.timestep().as_secs_f64().recip() as f32;
    let mut pause_clicked = false;
    let mut step_clicked = false;
    let mut reset_clicked = false;
    let mut seed_value = inspector.seed;
    // Every formation takes the first one's shape and spacing as edited.
    let mut formation = formations.iter().next().cloned();
    // The first flock's rules and flight, as they are and as edited: every
    // one of a kind takes a change made here.
    let walker_rules = groups.walkers.iter().next().map(|f| f.rules);
    let flyer_rules = groups.flyers.iter().next().map(|f| f.rules);
    let flight = groups.flights.iter().next().map(|f| f.0);
    let (mut edited_walkers, mut edited_flyers, mut edited_flight) =
        (walker_rules, flyer_rules, flight);
    let contents = |ui: &mut egui::Ui| {
        let agent = &mut edited.agent;
        ui.heading("Response and limits");
        slider(
            ui,
            &mut agent.response_time,
            0.01..=2.0,
            "response time (s)",
        );
        let speed = format!("max speed ({px}/s)");
        slider(ui, &mut agent.max_speed, length(10.0..=600.0), &speed);
        let force = format!("max force ({px}/s²)");
        slider(ui, &mut agent.max_force, length(10.0..=2000.0), &force);
        ui.heading("Body");
        slider(ui, &mut agent.mass, 0.1..=10.0, "mass");
        let radius = format!("radius ({px})");
        slider(ui, &mut agent.radius, length(0.0..=50.0), &radius);
        turn_rate(ui, &mut agent.max_turn_rate);
        combine(ui, &mut agent.combine, unit, px);
        ui.heading("Behaviors");
        let slowing = format!("slowing radius ({px})");
        slider(ui, &mut agent.slowing_radius, length(1.0..=400.0), &slowing);
        let panic = format!("panic radius ({px})");
        slider(ui, &mut agent.panic_radius, length(1.0..=500.0), &panic);
        slider(ui, &mut agent.wander_rate, 0.0..=3.0, "wander rate");
        slider(
            ui,
            &mut agent.graze_flee_weight,
            0.0..=10.0,
            "graze flee weight",
        );
        if let Some(rules) = &mut edited_walkers {
            ui.heading("Flocking");
            flock_rules(ui, rules, unit, px);
        }
        if let Some(rules) = &mut edited_flyers {
            ui.heading("Flocking in the air");
            flock_rules(ui, rules, unit, px);
        }
        if let Some(flight) = &mut edited_flight {
            ui.heading("Flight");
            flight_limits(ui, flight, unit, px);
        }
        ui.heading("Obstacles");
        slider(
            ui,
            &mut agent.look_ahead_time,
            0.0..=3.0,
            "look-ahead time (s)",
        );
        let look = format!("least look-ahead ({px})");
        slider(ui, &mut agent.min_look_ahead, length(0.0..=200.0), &look);
        let gap = format!("clearance ({px})");
        slider(ui, &mut agent.clearance, length(0.0..=50.0), &gap);
        if let Some(formation) = &mut formation {
            ui.heading("Formations");
            formation_shape(ui, &mut formation.shape);
            let spacing = format!("spacing ({px})");
            slider(ui, &mut formation.spacing, length(10.0..=120.0), &spacing);
        }
        ui.heading("Trails and time");
        slider(
            ui,
            &mut edited.trail_interval,
            0.01..=0.5,
            "trail interval (s)",
        );
        ui.add(
            egui::Slider::new(&mut edited.trail_length, 0..=120)
                .clamping(egui::SliderClamping::Always)
                .text("trail length"),
        );
        slider(ui, &mut hz, 10.0..=240.0, "fixed rate (Hz)");
        ui.horizontal(|ui| {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut seed_value));
        });
        ui.horizontal(|ui| {
            let label = if virtual_time.is_paused() {
                "Resume"
            } else {
                "Pause"
            };
            pause_clicked = ui.button(label).clicked();
            step_clicked = ui
                .add_enabled(virtual_time.is_paused(), egui::Button::new("Step"))
                .clicked();
            reset_clicked = ui.button("Reset").clicked();
        });

        ui.separator();
        let agent = &edited.agent;
        // What the force can do to the velocity: the force over the mass.
        let accel = agent.max_force / sanitize_mass(agent.mass);
        let braking = braking_distance(agent.max_speed, accel);
        let to_top = time_to_speed(agent.max_speed, accel);
        ui.label(format!("braking distance v²/2a: {braking:.1} {px}"));
        ui.label(format!("time to top speed v/a: {to_top:.2} s"));
        if agent.slowing_radius < braking {
            let overshoot = arrive_overshoot(
                Limits {
                    max_speed: agent.max_speed,
                    max_force: accel,
                },
                agent.response_time,
                agent.slowing_radius,
                400.0,
                agent.max_speed,
                1.0 / hz,
                10.0,
            );
            ui.colored_label(
                egui::Color32::from_rgb(224, 49, 49),
                format!(
                    "The slowing radius is smaller than the braking distance: \
                         arrivers overshoot by about {overshoot:.1} {px}."
                ),
            );
        }
    };
    inspector.docked_width = match inspector.dock {
        InspectorDock::Floating => {
            egui::Window::new("Steering")
                .default_pos([760.0, 10.0])
                .default_width(230.0)
                .resizable(false)
                .show(ctx, contents);
            0.0
        }
        InspectorDock::Right => {
            // A panel is laid out in a `Ui`: one spanning the window.
            let mut window = egui::Ui::new(
                ctx.clone(),
                "steering dock".into(),
                egui::UiBuilder::new()
                    .layer_id(egui::LayerId::background())
                    .max_rect(ctx.viewport_rect()),
            );
            egui::Panel::right("Steering")
                .exact_size(DOCKED_WIDTH)
                .resizable(false)
                .show_separator_line(false)
                .show(&mut window, |ui| {
                    // Sliders narrow enough for their labels beside them.
                    ui.spacing_mut().slider_width = 52.0;
                    egui::ScrollArea::vertical().show(ui, contents);
                })
                .response
                .rect
                .width()
        }
    };

    if edited != *settings {
        *settings = edited;
    }
    if let Some(edited) = formation {
        for mut formation in &mut formations {
            formation.set_if_neq(edited.clone());
        }
    }
    if edited_walkers != walker_rules
        && let Some(rules) = edited_walkers
    {
        groups.walkers.iter_mut().for_each(|mut f| f.rules = rules);
    }
    if edited_flyers != flyer_rules
        && let Some(rules) = edited_flyers
    {
        groups.flyers.iter_mut().for_each(|mut f| f.rules = rules);
    }
    if edited_flight != flight
        && let Some(edited) = edited_flight
    {
        groups.flights.iter_mut().for_each(|mut f| f.0 = edited);
    }
    let hz = f64::from(hz.clamp(10.0, 240.0));
    if (fixed.timestep().as_secs_f64().recip() - hz).abs() > 1e-6 {
        fixed.set_timestep_hz(hz);
    }
    inspector.seed = seed_value;
    if pause_clicked {
        if virtual_time.is_paused() {
            virtual_time.unpause();
        } else {
            virtual_time.pause();
        }
    }
    if step_clicked {
        inspector.step_requested = true;
    }
    if reset_clicked {
        *seed = SteeringSeed::new(inspector.seed);
        reset.write(SteeringReset {
            seed: inspector.seed,
        });
    }
    Ok(())
}

/// The flocks and flyers the panel tunes: a change to the first one's
/// rules or flight is made to every one of its kind.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct TunedGroups<'w, 's> {
    walkers: Query<'w, 's, &'static mut Flocking>,
    flyers: Query<'w, 's, &'static mut FlyerFlocking>,
    flights: Query<'w, 's, &'static mut FlightParams>,
}

/// The three rules' radii and weights, and the cruise speed.
fn flock_rules(ui: &mut egui::Ui, rules: &mut FlockParams, unit: f32, px: &str) {
    let length = |end: f32| 0.0..=end * unit;
    let separation = format!("separation radius ({px})");
    slider(ui, &mut rules.separation_radius, length(100.0), &separation);
    let neighbor = format!("neighbor radius ({px})");
    slider(ui, &mut rules.neighbor_radius, length(200.0), &neighbor);
    slider(
        ui,
        &mut rules.separation_weight,
        0.0..=5.0,
        "separation weight",
    );
    slider(
        ui,
        &mut rules.alignment_weight,
        0.0..=5.0,
        "alignment weight",
    );
    slider(ui, &mut rules.cohesion_weight, 0.0..=5.0, "cohesion weight");
    let mut cruising = rules.cruise_speed.is_some();
    ui.checkbox(&mut cruising, "fly at a cruise speed");
    rules.cruise_speed = match (cruising, rules.cruise_speed) {
        (false, _) => None,
        (true, Some(speed)) => Some(speed),
        (true, None) => Some(120.0 * unit),
    };
    if let Some(speed) = &mut rules.cruise_speed {
        let text = format!("cruise speed ({px}/s)");
        slider(ui, speed, length(600.0), &text);
    }
}

/// A flyer's least speed, climb and dive, and banking.
fn flight_limits(ui: &mut egui::Ui, flight: &mut Flight, unit: f32, px: &str) {
    let least = format!("least speed ({px}/s)");
    slider(ui, &mut flight.min_speed, 0.0..=300.0 * unit, &least);
    // Angles in degrees, 90 for no limit.
    let degrees = |ui: &mut egui::Ui, radians: &mut f32, text: &str| {
        let shown = if radians.is_nan() {
            90.0
        } else {
            radians.to_degrees().clamp(0.0, 90.0)
        };
        let mut value = shown;
        slider(ui, &mut value, 0.0..=90.0, text);
        // Only a move of the slider changes it: a limit past 90° stays.
        if value != shown {
            *radians = value.to_radians();
        }
    };
    degrees(ui, &mut flight.max_climb, "steepest climb (°)");
    degrees(ui, &mut flight.max_dive, "steepest dive (°)");
    slider(
        ui,
        &mut flight.bank_half_life,
        0.0..=1.0,
        "bank half-life (s)",
    );
}

/// Each camera [beside the panel](BesideInspector): its viewport the
/// window but for the docked panel's strip, or the whole window.
fn fit_cameras_beside(
    inspector: Res<SteeringInspector>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut Camera, Has<PrimaryEguiContext>), With<BesideInspector>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let strip = (inspector.docked_width * window.scale_factor()).round();
    let size = window.physical_size();
    let viewport = (strip >= 1.0).then(|| Viewport {
        physical_position: UVec2::ZERO,
        physical_size: UVec2::new(size.x.saturating_sub(strip as u32).max(1), size.y.max(1)),
        ..default()
    });
    for (mut camera, draws_egui) in &mut cameras {
        if draws_egui && viewport.is_some() {
            warn_once!(
                "a camera marked BesideInspector draws egui too: egui would be squeezed into its viewport with the world, so it is left whole (give egui a camera of its own)"
            );
            continue;
        }
        let now = camera
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        if now
            != viewport
                .as_ref()
                .map(|v| (v.physical_position, v.physical_size))
        {
            camera.viewport = viewport.clone();
        }
    }
}

/// A formation's shape, of the five the panel knows (places a game gave
/// are kept until another shape is picked).
fn formation_shape(ui: &mut egui::Ui, shape: &mut FormationShape) {
    let name = |shape: &FormationShape| match shape {
        FormationShape::Line => "line",
        FormationShape::Column => "column",
        FormationShape::Wedge => "wedge",
        FormationShape::Box => "box",
        FormationShape::Circle => "circle",
        FormationShape::Slots(_) => "given places",
    };
    egui::ComboBox::from_label("shape")
        .selected_text(name(shape))
        .show_ui(ui, |ui| {
            for choice in [
                FormationShape::Line,
                FormationShape::Column,
                FormationShape::Wedge,
                FormationShape::Box,
                FormationShape::Circle,
            ] {
                let label = name(&choice);
                ui.selectable_value(shape, choice, label);
            }
        });
}

/// The turn-rate limit in degrees a second, or none.
fn turn_rate(ui: &mut egui::Ui, rate: &mut f32) {
    let mut limited = rate.is_finite();
    ui.checkbox(&mut limited, "limit the turn rate (like a car)");
    if !limited {
        *rate = f32::INFINITY;
        return;
    }
    let mut degrees = if rate.is_finite() {
        rate.to_degrees()
    } else {
        180.0
    };
    slider(ui, &mut degrees, 1.0..=720.0, "max turn rate (°/s)");
    *rate = degrees.to_radians();
}

/// Weighted sum or priority, and the priority's threshold.
fn combine(ui: &mut egui::Ui, combine: &mut Combine, unit: f32, px: &str) {
    let mut by_priority = matches!(combine, Combine::Priority { .. });
    ui.checkbox(&mut by_priority, "combine by priority");
    *combine = match (by_priority, *combine) {
        (false, _) => Combine::Weighted,
        (true, Combine::Weighted) => Combine::Priority {
            threshold: PRIORITY_THRESHOLD * unit,
        },
        (true, Combine::Priority { mut threshold }) => {
            let text = format!("priority threshold ({px}/s²)");
            slider(ui, &mut threshold, 0.0..=100.0 * unit, &text);
            Combine::Priority { threshold }
        }
    };
}
