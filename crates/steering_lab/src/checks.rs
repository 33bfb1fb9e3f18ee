//! Every number the chapter quotes, measured with the real code.

use bevy::math::{Vec2, Vec3};
use bevy_reynolds::reynolds::{behaviors, defaults, math, model};

use crate::experiments::{
    flyer_wander_drift_degrees, wander_drift_degrees, wander_drift_dt_scaled_degrees,
};
use crate::scenario::{BehaviorKind, Report, Scenario};

/// One row of `steering-lab check`: a quantity, the chapter's value, what
/// was measured at 60 and 144 Hz (or once, where the rate does not enter),
/// and whether the measurement agrees.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// What is measured.
    pub quantity: String,
    /// What the chapter says.
    pub chapter: String,
    /// Measured at 60 Hz (or the one measurement).
    pub at_60: String,
    /// Measured at 144 Hz (or "-" where the rate does not enter).
    pub at_144: String,
    /// Whether the measurements agree with the chapter.
    pub pass: bool,
    /// The numbers of the chapter's that `pass` compares the measurements
    /// with: every number the chapter column quotes must be one of them, or
    /// the row would claim more than it checks.
    pub compares: Vec<f64>,
}

impl Check {
    /// The same row, stating the chapter's numbers it compares with.
    fn comparing(mut self, numbers: &[f64]) -> Self {
        self.compares = numbers.to_vec();
        self
    }
}

/// The two rates the chapter simulates at.
pub const RATES: [f64; 2] = [60.0, 144.0];

fn run(scenario: Scenario) -> Report {
    scenario.run().expect("the lab's own scenarios are valid")
}

fn at_rates(scenario: &Scenario) -> [Report; 2] {
    RATES.map(|hz| {
        run(Scenario {
            hz,
            ..scenario.clone()
        })
    })
}

/// The directions flyers are checked along: the diagonal, then each axis.
pub const FLIGHT_AXES: [Vec3; 4] = [Vec3::new(1.0, 1.0, 1.0), Vec3::X, Vec3::Y, Vec3::Z];

fn within(value: f64, expected: f64, tolerance: f64) -> bool {
    (value - expected).abs() <= tolerance
}

fn row(quantity: &str, chapter: &str, at_60: String, at_144: String, pass: bool) -> Check {
    Check {
        quantity: quantity.into(),
        chapter: chapter.into(),
        at_60,
        at_144,
        pass,
        compares: Vec::new(),
    }
}

/// Both rates' values of `f`, formatted, and whether `ok` holds for both.
fn rate_row(
    quantity: &str,
    chapter: &str,
    reports: &[Report; 2],
    value: impl Fn(&Report) -> Option<f64>,
    unit: &str,
    ok: impl Fn(f64) -> bool,
) -> Check {
    let values = reports.each_ref().map(&value);
    let show = |v: Option<f64>| v.map_or("never".to_string(), |v| format!("{v:.2} {unit}"));
    row(
        quantity,
        chapter,
        show(values[0]),
        show(values[1]),
        values.iter().all(|v| v.is_some_and(&ok)),
    )
}

/// The first time `report`'s speed along `axis` reaches `speed` (within
/// 0.01 px/s), in seconds.
fn time_to_reach(report: &Report, axis: Vec2, speed: f32) -> Option<f64> {
    report
        .trajectory
        .iter()
        .find(|s| s.vel.dot(axis) >= speed - 0.01)
        .map(|s| s.t)
}

/// Every check, in the chapter's order: walkers', then flyers'.
pub fn all_checks() -> Vec<Check> {
    let (mut checks, after) = model_checks(None);
    let max_speed = defaults::MAX_SPEED;
    // Braking distance, including exercise 2.
    for (speed, force, expected) in [(220.0, 380.0, 64.0), (300.0, 500.0, 90.0)] {
        let d = model::braking_distance(speed, force);
        checks.push(
            row(
                &format!("braking distance at {speed} px/s with {force} px/s²"),
                &format!("{expected} px"),
                format!("{d:.2} px"),
                "-".into(),
                within(d.into(), expected, 0.5),
            )
            .comparing(&[expected]),
        );
    }

    // Pursue's look-ahead, including exercise 3.
    for (distance, target_vel, expected) in [
        (440.0, Vec2::new(100.0, 0.0), 100.0),
        (110.0, Vec2::new(100.0, 0.0), 50.0),
        (330.0, Vec2::new(0.0, 120.0), 120.0),
        (66.0, Vec2::new(0.0, 120.0), 36.0),
    ] {
        let target = Vec2::new(distance, 0.0);
        let aim = behaviors::predicted_position(Vec2::ZERO, target, target_vel, max_speed);
        let ahead = aim.distance(target);
        checks.push(
            row(
                &format!(
                    "pursue aims ahead, {distance} px from a target moving ({}, {})",
                    target_vel.x, target_vel.y
                ),
                &format!("{expected} px"),
                format!("{ahead:.2} px"),
                "-".into(),
                within(ahead.into(), expected, 0.01),
            )
            .comparing(&[expected]),
        );
    }

    // Exercise 1.
    let steer = model::steering(Vec2::new(100.0, 0.0), Vec2::new(0.0, 50.0), 0.25);
    let capped = math::truncated(steer, defaults::MAX_FORCE);
    checks.push(
        row(
            "exercise 1: steering, then capped",
            "(400, -200), capped at 380",
            format!(
                "({}, {}), capped {:.2} at ({:.1}, {:.1})",
                steer.x,
                steer.y,
                capped.length(),
                capped.x,
                capped.y
            ),
            "-".into(),
            steer == Vec2::new(400.0, -200.0) && within(capped.length().into(), 380.0, 0.01),
        )
        .comparing(&[400.0, -200.0, 380.0]),
    );

    // Wander's drift, through the plugin, and the dt-scaled mistake.
    let agents = 4000;
    let seed = 7;
    let drift = |hz| f64::from(wander_drift_degrees(hz, agents, 1.0, seed));
    let [d30, d60, d144] = [30.0, 60.0, 144.0].map(drift);
    checks.push(
        row(
            "wander drift over 1 s, step × √dt (30 Hz in the 60 column's note)",
            "~21° at any rate",
            format!("{d60:.1}° (30 Hz: {d30:.1}°)"),
            format!("{d144:.1}°"),
            [d30, d60, d144].iter().all(|&d| within(d, 21.5, 1.2)),
        )
        .comparing(&[21.0]),
    );
    let naive = |hz| f64::from(wander_drift_dt_scaled_degrees(hz, agents, 1.0, seed, 5.0));
    let [n30, n60, n144] = [30.0, 60.0, 144.0].map(naive);
    checks.push(
        row(
            "wander drift over 1 s, step 5 × dt (the mistake)",
            "~30°, 21°, 14° at 30, 60, 144 Hz",
            format!("{n60:.1}° (30 Hz: {n30:.1}°)"),
            format!("{n144:.1}°"),
            within(n30, 30.2, 1.5) && within(n60, 21.4, 1.2) && within(n144, 13.8, 1.0),
        )
        .comparing(&[30.0, 21.0, 14.0]),
    );

    checks.extend(after);
    checks.extend(flyer_checks());
    checks
}

/// The checks the scenarios make, walked on the plane (`flight` none) or
/// flown along `flight` in 3D: those before the braking distance, and
/// those after wander's.
fn model_checks(flight: Option<Vec3>) -> (Vec<Check>, Vec<Check>) {
    let at_rates = |scenario: &Scenario| {
        at_rates(&Scenario {
            flight,
            ..scenario.clone()
        })
    };
    let mut checks = Vec::new();
    let max_speed = defaults::MAX_SPEED;

    // The two limits: steering as hard as the force cap allows.
    let floor_it = Scenario {
        behavior: BehaviorKind::Seek,
        start: Vec2::ZERO,
        target: Vec2::new(10_000.0, 0.0),
        response: 1e-3,
        seconds: 1.0,
        ..Default::default()
    };
    checks.push(
        rate_row(
            "top speed from a standstill",
            "0.58 s",
            &at_rates(&floor_it),
            |r| time_to_reach(r, Vec2::X, max_speed),
            "s",
            |t| within(t, 0.58, 0.01),
        )
        .comparing(&[0.58]),
    );
    let turn_around = Scenario {
        start_vel: Vec2::new(max_speed, 0.0),
        target: Vec2::new(-10_000.0, 0.0),
        seconds: 2.0,
        ..floor_it
    };
    checks.push(
        rate_row(
            "full turnaround",
            "1.16 s",
            &at_rates(&turn_around),
            |r| time_to_reach(r, -Vec2::X, max_speed),
            "s",
            |t| within(t, 1.16, 0.02),
        )
        .comparing(&[1.16]),
    );

    // Seek overshoots.
    let seek = Scenario {
        behavior: BehaviorKind::Seek,
        start_vel: Vec2::new(max_speed, 0.0),
        seconds: 3.0,
        ..Default::default()
    };
    checks.push(
        rate_row(
            "seek, in at full speed: overshoot",
            "~65 px",
            &at_rates(&seek),
            |r| Some(r.overshoot_px.into()),
            "px",
            |v| within(v, 65.0, 3.0),
        )
        .comparing(&[65.0]),
    );

    // Arrive with the hidden one-second response, and with a quick one.
    let arrive = |response: f32, start_vel: f32, slow_radius: f32| {
        at_rates(&Scenario {
            behavior: BehaviorKind::Arrive,
            start_vel: Vec2::new(start_vel, 0.0),
            response,
            slow_radius,
            seconds: 20.0,
            ..Default::default()
        })
    };
    let slow_from_rest = arrive(1.0, 0.0, 150.0);
    let slow_full_speed = arrive(1.0, max_speed, 150.0);
    let quick_from_rest = arrive(0.15, 0.0, 150.0);
    let quick_full_speed = arrive(0.15, max_speed, 150.0);
    let small_radius = arrive(0.15, 0.0, 50.0);
    let overshoot = |r: &Report| Some(f64::from(r.overshoot_px));
    checks.push(
        rate_row(
            "arrive, response 1 s, from rest 400 px away: overshoot",
            "64 px",
            &slow_from_rest,
            overshoot,
            "px",
            |v| within(v, 64.0, 2.0),
        )
        .comparing(&[64.0]),
    );
    checks.push(
        rate_row(
            "arrive, response 1 s, from rest: settles within 1 px",
            "~11 s",
            &slow_from_rest,
            |r| r.settle_s,
            "s",
            |v| (10.0..=12.0).contains(&v),
        )
        .comparing(&[11.0]),
    );
    checks.push(
        rate_row(
            "arrive, response 1 s, in at full speed: overshoot",
            "73 px",
            &slow_full_speed,
            overshoot,
            "px",
            |v| within(v, 73.0, 2.0),
        )
        .comparing(&[73.0]),
    );
    for (what, reports) in [
        ("from rest", &quick_from_rest),
        ("in at full speed", &quick_full_speed),
    ] {
        checks.push(
            rate_row(
                &format!("arrive, response 0.15 s, {what}: overshoot"),
                "none",
                reports,
                overshoot,
                "px",
                |v| v == 0.0,
            )
            .comparing(&[0.0]),
        );
        checks.push(
            rate_row(
                &format!("arrive, response 0.15 s, {what}: settles"),
                "< 4 s",
                reports,
                |r| r.settle_s,
                "s",
                |v| v < 4.0,
            )
            .comparing(&[4.0]),
        );
    }
    checks.push(
        rate_row(
            "arrive, slowing radius 50, response 0.15 s: overshoot",
            "21 px",
            &small_radius,
            overshoot,
            "px",
            |v| within(v, 21.0, 2.0),
        )
        .comparing(&[21.0]),
    );
    let arrive_cases = [
        &slow_from_rest,
        &slow_full_speed,
        &quick_from_rest,
        &quick_full_speed,
        &small_radius,
    ];
    let worst_gap = arrive_cases
        .iter()
        .map(|[a, b]| (a.overshoot_px - b.overshoot_px).abs())
        .fold(0.0f32, f32::max);
    checks.push(
        row(
            "arrive cases: 60 Hz and 144 Hz overshoots agree",
            "within 1 px",
            format!("worst gap {worst_gap:.2} px"),
            "-".into(),
            worst_gap < 1.0,
        )
        .comparing(&[1.0]),
    );

    let before = std::mem::take(&mut checks);
    // An arriver following a target in a straight line at 144 px/s.
    let follow = Scenario {
        behavior: BehaviorKind::Arrive,
        start: Vec2::new(-100.0, 0.0),
        target: Vec2::ZERO,
        target_vel: Vec2::new(144.0, 0.0),
        seconds: 10.0,
        ..Default::default()
    };
    let expected_gap = f64::from(defaults::SLOWING_RADIUS * 144.0 / max_speed);
    // The gap the arriver decides on each step: from where it is to where
    // the target now is. (Measured at the same instant after both have
    // moved, it is one step of the target's motion shorter: 144 px/s × dt.)
    let follows = at_rates(&follow);
    let gaps = follows.each_ref().map(|r| {
        let n = r.trajectory.len();
        let (before, last) = (r.trajectory[n - 2], r.trajectory[n - 1]);
        (
            f64::from(before.pos.distance(last.target)),
            f64::from(last.pos.distance(last.target)),
        )
    });
    let show =
        |(seen, same_instant): (f64, f64)| format!("{seen:.2} px (same instant {same_instant:.2})");
    checks.push(
        row(
            "arrive trails a target moving at 144 px/s by",
            "~98 px (150 × 144 / 220)",
            show(gaps[0]),
            show(gaps[1]),
            gaps.iter()
                .all(|&(seen, _)| within(seen, expected_gap, 1.0)),
        )
        .comparing(&[98.0]),
    );

    // Pursue against seek, on a target crossing in front of them.
    let pursue = at_rates(&Scenario::chase(BehaviorKind::Pursue));
    let seek = at_rates(&Scenario::chase(BehaviorKind::Seek));
    let show = |p: &Report, s: &Report| {
        let t = |r: &Report| r.catch_s.map_or("never".into(), |t| format!("{t:.2} s"));
        format!("pursue {}, seek {}", t(p), t(s))
    };
    let sooner = |p: &Report, s: &Report| match (p.catch_s, s.catch_s) {
        (Some(p), Some(s)) => p < s,
        (Some(_), None) => true,
        _ => false,
    };
    checks.push(
        row(
            "pursue catches a target crossing at 100 px/s before seek",
            "pursue sooner",
            show(&pursue[0], &seek[0]),
            show(&pursue[1], &seek[1]),
            sooner(&pursue[0], &seek[0]) && sooner(&pursue[1], &seek[1]),
        )
        .comparing(&[]),
    );

    (before, checks)
}

/// The scenarios' checks flown along the diagonal and each axis (one row
/// each, showing the diagonal's numbers, passing if every direction does),
/// whether a flyer ever left the plane of its run, pursue's look-ahead in
/// 3D, and wander's drift over the sphere.
fn flyer_checks() -> Vec<Check> {
    let runs: Vec<Vec<Check>> = FLIGHT_AXES
        .iter()
        .map(|&axis| {
            let (mut before, after) = model_checks(Some(axis));
            before.extend(after);
            before
        })
        .collect();
    let mut checks: Vec<Check> = (0..runs[0].len())
        .map(|i| {
            let diagonal = &runs[0][i];
            let failed: Vec<String> = FLIGHT_AXES
                .iter()
                .zip(&runs)
                .filter(|(_, run)| !run[i].pass)
                .map(|(axis, run)| format!("{axis}: {} / {}", run[i].at_60, run[i].at_144))
                .collect();
            let note = if failed.is_empty() {
                String::new()
            } else {
                format!(" (failed {})", failed.join(", "))
            };
            Check {
                quantity: format!("flyers: {}", diagonal.quantity),
                at_60: format!("{}{note}", diagonal.at_60),
                pass: failed.is_empty(),
                ..diagonal.clone()
            }
        })
        .collect();

    // Along the plane of each run, and nowhere else.
    let max_speed = defaults::MAX_SPEED;
    let off_plane = FLIGHT_AXES
        .iter()
        .flat_map(|&axis| {
            at_rates(&Scenario {
                behavior: BehaviorKind::Pursue,
                flight: Some(axis),
                ..Scenario::chase(BehaviorKind::Pursue)
            })
        })
        .filter_map(|r| r.off_plane_px)
        .fold(0.0f32, f32::max);
    checks.push(
        row(
            "flyers: a chase stays in the plane of its start (all directions)",
            "0 px",
            format!("{off_plane:.4} px at most"),
            "-".into(),
            off_plane < 0.01,
        )
        .comparing(&[0.0]),
    );

    // Pursue's look-ahead, in 3D, along each direction.
    for (distance, speed, expected) in [(440.0, 100.0, 100.0), (66.0, 120.0, 36.0)] {
        let aheads = FLIGHT_AXES.map(|axis| {
            let dir = axis.normalize();
            let across = math::SteeringVector::left_of(dir);
            let target = dir * distance;
            let aim = behaviors::predicted_position(Vec3::ZERO, target, across * speed, max_speed);
            aim.distance(target)
        });
        let worst = aheads
            .iter()
            .map(|a| (a - expected).abs())
            .fold(0.0f32, f32::max);
        checks.push(
            row(
                &format!("flyers: pursue aims ahead, {distance} px from a target crossing at {speed} px/s"),
                &format!("{expected} px"),
                format!("{:.2} px (worst off by {worst:.4})", aheads[0]),
                "-".into(),
                worst < 0.01,
            )
            .comparing(&[expected.into()]),
        );
    }

    // Wander's drift over the sphere, through the plugin.
    let agents = 4000;
    let seed = 7;
    let drift = |hz| f64::from(flyer_wander_drift_degrees(hz, agents, 1.0, seed));
    let plane = |hz| f64::from(wander_drift_degrees(hz, agents, 1.0, seed));
    let [d30, d60, d144] = [30.0, 60.0, 144.0].map(drift);
    let [p30, p60, p144] = [30.0, 60.0, 144.0].map(plane);
    let close = [(d30, p30), (d60, p60), (d144, p144)]
        .iter()
        .all(|&(d, p)| within(d, 21.5, 1.2) && within(d, p, 2.0));
    checks.push(
        row(
            "flyers: wander drift over 1 s, over the sphere (30 Hz in the 60 column's note)",
            "~21° at any rate",
            format!("{d60:.1}° (30 Hz: {d30:.1}°)"),
            format!("{d144:.1}°"),
            close,
        )
        .comparing(&[21.0]),
    );
    checks
}

/// The checks as a plain-text table, one row a line.
pub fn format_table(checks: &[Check]) -> String {
    let headers = ["quantity", "chapter", "60 Hz", "144 Hz", "result"];
    let rows: Vec<[String; 5]> = checks
        .iter()
        .map(|c| {
            [
                c.quantity.clone(),
                c.chapter.clone(),
                c.at_60.clone(),
                c.at_144.clone(),
                if c.pass { "pass" } else { "FAIL" }.to_string(),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..5)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([headers[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: [&str; 5]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell:<w$}"))
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    let mut out = vec![line(headers)];
    out.push(format!(
        "|{}|",
        widths
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("|")
    ));
    for r in &rows {
        out.push(line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out.join("\n")
}
