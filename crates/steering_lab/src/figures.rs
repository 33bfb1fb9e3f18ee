//! The chapter's figures, drawn with plotters from the library's own
//! simulation.

use std::error::Error;
use std::path::{Path, PathBuf};

use bevy::math::Vec2;
use bevy_reynolds::reynolds::{behaviors, defaults, math, model, wander};
use plotters::prelude::*;
use plotters::style::FontStyle;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::scenario::{BehaviorKind, Report, Scenario};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

const SIZE: (u32, u32) = (900, 560);
const BLUE: RGBColor = RGBColor(47, 111, 235);
const GREEN: RGBColor = RGBColor(47, 158, 68);
const RED: RGBColor = RGBColor(224, 49, 49);
const VIOLET: RGBColor = RGBColor(150, 102, 230);
const GREY: RGBColor = RGBColor(90, 100, 112);

/// Registers the font plotters draws text with: egui's Ubuntu Light, which
/// the workspace already depends on, so no system font is needed.
fn register_font() -> Result<()> {
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| "the bundled font could not be read")?;
    Ok(())
}

/// Draws every figure into `dir`, returning the files written.
pub fn draw_all(dir: &Path) -> Result<Vec<PathBuf>> {
    register_font()?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("--out: cannot make {}: {e}", dir.display()))?;
    let figures: [(&str, fn(&Path) -> Result<()>); 5] = [
        ("steering-frame.png", steering_frame),
        ("arrive-speed.png", arrive_speed),
        ("seek-vs-pursue.png", seek_vs_pursue),
        ("wander-drift.png", wander_drift),
        ("arrive-response.png", arrive_response),
    ];
    figures
        .into_iter()
        .map(|(name, draw)| {
            let path = dir.join(name);
            draw(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(path)
        })
        .collect()
}

type Chart<'a, 'b> = ChartContext<
    'a,
    BitMapBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf32, plotters::coord::types::RangedCoordf32>,
>;

/// A chart filling `root`, with a caption, axes and their labels.
fn chart<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, plotters::coord::Shift>,
    caption: &str,
    x: std::ops::Range<f32>,
    y: std::ops::Range<f32>,
    x_desc: &str,
    y_desc: &str,
) -> Result<Chart<'a, 'b>> {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()?;
    Ok(chart)
}

/// The chart's legend, boxed, at `position`.
fn legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    position: SeriesLabelPosition,
    font_size: u32,
) -> Result<()> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(position)
        .label_font(("sans-serif", font_size))
        .draw()?;
    Ok(())
}

/// A legend entry: a short line in `color`.
fn legend_line(color: RGBColor, width: u32) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(width))
}

fn arrow(
    chart: &mut Chart<'_, '_>,
    from: Vec2,
    to: Vec2,
    color: RGBColor,
    width: u32,
    label: &str,
) -> Result<()> {
    let style = color.stroke_width(width);
    let dir = (to - from).normalize_or_zero();
    let side = dir.perp();
    let head = [
        to - dir * 12.0 + side * 6.0,
        to,
        to - dir * 12.0 - side * 6.0,
    ];
    chart
        .draw_series(LineSeries::new([(from.x, from.y), (to.x, to.y)], style))?
        .label(label)
        .legend(legend_line(color, width));
    chart.draw_series(LineSeries::new(head.map(|p| (p.x, p.y)), style))?;
    Ok(())
}

/// One frame of steering: the velocity, the desired velocity, the change
/// the agent wants over one response time, and the part the cap allows
/// (the chapter's exercise 1).
fn steering_frame(path: &Path) -> Result<()> {
    let vel = Vec2::new(0.0, 50.0);
    let desired = Vec2::new(100.0, 0.0);
    let response = 0.25;
    let steer = model::steering(desired, vel, response);
    let capped = math::truncated(steer, defaults::MAX_FORCE);
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = chart(
        &root,
        "One frame of steering: vel (0, 50), desired (100, 0), response 0.25 s",
        -20f32..130f32,
        -20f32..70f32,
        "px/s",
        "px/s",
    )?;
    arrow(&mut chart, Vec2::ZERO, vel, GREY, 3, "velocity")?;
    arrow(
        &mut chart,
        Vec2::ZERO,
        desired,
        GREEN,
        3,
        "desired velocity",
    )?;
    arrow(
        &mut chart,
        vel,
        vel + steer * response,
        BLUE,
        9,
        &format!(
            "steering ({}, {}) × 0.25 s: the change wanted",
            steer.x, steer.y
        ),
    )?;
    arrow(
        &mut chart,
        vel,
        vel + capped * response,
        RED,
        3,
        &format!(
            "capped at {} px/s²: ({:.0}, {:.0}) × 0.25 s",
            defaults::MAX_FORCE,
            capped.x,
            capped.y
        ),
    )?;
    legend(&mut chart, SeriesLabelPosition::UpperRight, 16)?;
    root.present()?;
    Ok(())
}

/// Arrive's desired speed against distance for slowing radii 150 and 50,
/// with the fastest speed from which an agent can still stop in time.
fn arrive_speed(path: &Path) -> Result<()> {
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = chart(
        &root,
        "Arrive's desired speed, and the fastest speed that can still stop",
        0f32..200f32,
        0f32..260f32,
        "distance to the target (px)",
        "speed (px/s)",
    )?;
    let distances = (0..=400).map(|i| i as f32 * 0.5);
    for (radius, color) in [(150.0, GREEN), (50.0, RED)] {
        chart
            .draw_series(LineSeries::new(
                distances.clone().map(|d| {
                    let speed = behaviors::arrive(
                        Vec2::new(-d, 0.0),
                        Vec2::ZERO,
                        defaults::MAX_SPEED,
                        radius,
                    )
                    .length();
                    (d, speed)
                }),
                color.stroke_width(3),
            ))?
            .label(format!("arrive, slowing radius {radius}"))
            .legend(legend_line(color, 3));
    }
    // v² = 2 a d: the braking curve.
    chart
        .draw_series(LineSeries::new(
            distances.map(|d| (d, (2.0 * defaults::MAX_FORCE * d).sqrt())),
            GREY.stroke_width(2),
        ))?
        .label("braking curve √(2 × 380 × d)")
        .legend(legend_line(GREY, 2));
    legend(&mut chart, SeriesLabelPosition::LowerRight, 16)?;
    root.present()?;
    Ok(())
}

/// Seek and pursue paths to a target moving right at 100 px/s.
fn seek_vs_pursue(path: &Path) -> Result<()> {
    let chase = |behavior| {
        Scenario {
            seconds: 4.0,
            ..Scenario::chase(behavior)
        }
        .run()
    };
    let pursue = chase(BehaviorKind::Pursue)?;
    let seek = chase(BehaviorKind::Seek)?;
    let catch = |r: &Report| r.catch_s.map_or("never".into(), |t| format!("{t:.2} s"));
    let until_caught = |r: &Report| -> Vec<(f32, f32)> {
        let end = r.catch_s.unwrap_or(f64::INFINITY);
        r.trajectory
            .iter()
            .filter(|s| s.t <= end)
            .map(|s| (s.pos.x, s.pos.y))
            .collect()
    };
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = chart(
        &root,
        "Seek and pursue after a target moving right at 100 px/s (60 Hz)",
        -40f32..440f32,
        -40f32..320f32,
        "x (px)",
        "y (px)",
    )?;
    let target_path: Vec<(f32, f32)> = seek
        .trajectory
        .iter()
        .map(|s| (s.target.x, s.target.y))
        .collect();
    chart
        .draw_series(LineSeries::new(target_path, GREY.stroke_width(2)))?
        .label("target")
        .legend(legend_line(GREY, 2));
    for (report, name, color) in [(&seek, "seek", BLUE), (&pursue, "pursue", VIOLET)] {
        chart
            .draw_series(LineSeries::new(until_caught(report), color.stroke_width(3)))?
            .label(format!("{name}: catches it after {}", catch(report)))
            .legend(legend_line(color, 3));
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight, 16)?;
    root.present()?;
    Ok(())
}

/// The wander angle over one second at 30 and 144 Hz, with steps scaled by
/// dt (5 × dt) and by its square root (0.65 × √dt).
fn wander_drift(path: &Path) -> Result<()> {
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((1, 2));
    let paths_per_rate = 6;
    for (panel, sqrt_step) in panels.iter().zip([false, true]) {
        let title = if sqrt_step {
            "step 0.65 × rand × √dt: same drift"
        } else {
            "step 5 × rand × dt: less drift at 144 Hz"
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(35)
            .y_label_area_size(45)
            .build_cartesian_2d(0f32..1f32, -60f32..60f32)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("wander angle (degrees)")
            .draw()?;
        for (hz, color) in [(30u32, RED), (144u32, BLUE)] {
            let dt = 1.0 / hz as f32;
            let mut rng = Xoshiro128PlusPlus::seed_from_u64(u64::from(hz) * 1000 + 7);
            for i in 0..paths_per_rate {
                let mut angle = 0.0f32;
                let mut points = vec![(0.0, 0.0)];
                for step in 1..=hz {
                    let u = rng.random_range(-1.0f32..1.0);
                    angle = if sqrt_step {
                        wander::wander_step(angle, dt, defaults::WANDER_RATE, u)
                    } else {
                        angle + u * 5.0 * dt
                    };
                    points.push((step as f32 * dt, angle.to_degrees()));
                }
                let series = chart.draw_series(LineSeries::new(points, color.stroke_width(2)))?;
                if i == 0 {
                    series
                        .label(format!("{hz} Hz"))
                        .legend(legend_line(color, 2));
                }
            }
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft, 15)?;
    }
    root.present()?;
    Ok(())
}

/// Distance to the target over time for an arriver from rest 400 px away,
/// with the hidden one-second response and with 0.15 s.
fn arrive_response(path: &Path) -> Result<()> {
    let run = |response| {
        Scenario {
            behavior: BehaviorKind::Arrive,
            response,
            seconds: 14.0,
            ..Default::default()
        }
        .run()
    };
    let slow = run(1.0)?;
    let quick = run(0.15)?;
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = chart(
        &root,
        "Arrive from rest, 400 px away: signed distance past the target",
        0f32..14f32,
        -420f32..100f32,
        "time (s)",
        "position relative to the target (px)",
    )?;
    for (report, name, color) in [
        (&slow, "response 1 s", RED),
        (&quick, "response 0.15 s", GREEN),
    ] {
        let settle = report
            .settle_s
            .map_or("never".into(), |t| format!("{t:.1} s"));
        chart
            .draw_series(LineSeries::new(
                report
                    .trajectory
                    .iter()
                    .map(|s| (s.t as f32, s.pos.x - s.target.x)),
                color.stroke_width(3),
            ))?
            .label(format!(
                "{name}: overshoot {:.0} px, settles in {settle}",
                report.overshoot_px
            ))
            .legend(legend_line(color, 3));
    }
    chart.draw_series(LineSeries::new(
        [(0.0, 0.0), (14.0, 0.0)],
        GREY.stroke_width(1),
    ))?;
    legend(&mut chart, SeriesLabelPosition::LowerRight, 16)?;
    root.present()?;
    Ok(())
}
