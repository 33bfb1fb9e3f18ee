//! The `scenario` command's flags, the scenario they make, and its report
//! as JSON and as a CSV of every step.

use std::path::PathBuf;

use bevy::math::{Vec2, Vec3};
use bevy_reynolds::Combine;
use clap::Args;
use serde_json::json;
use steering_lab::{BehaviorKind, Level, Report, Scenario};

use crate::cli_parsers::{
    Points, parse_behavior, parse_combine, parse_four, parse_level, parse_obstacle, parse_pair,
    parse_points, parse_triple,
};

#[derive(Args)]
pub(crate) struct ScenarioArgs {
    /// seek, arrive, flee, pursue, evade, wander, graze or path.
    #[arg(long, default_value = "arrive", value_parser = parse_behavior)]
    behavior: BehaviorKind,
    /// The agent's start, X,Y in pixels.
    #[arg(long, default_value = "-400,0", value_parser = parse_pair, allow_hyphen_values = true)]
    start: Vec2,
    /// The agent's starting velocity, X,Y in pixels a second.
    #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
    start_vel: Vec2,
    /// The target's start, X,Y in pixels.
    #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
    target: Vec2,
    /// The target's constant velocity, X,Y in pixels a second.
    #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
    target_vel: Vec2,
    /// Response time, in seconds.
    #[arg(long, default_value_t = 0.15, allow_hyphen_values = true)]
    response: f32,
    /// Fixed steps a second.
    #[arg(long, default_value_t = 60.0, allow_hyphen_values = true)]
    hz: f64,
    /// Simulated seconds.
    #[arg(long, default_value_t = 20.0, allow_hyphen_values = true)]
    seconds: f64,
    /// Arrive's slowing radius, in pixels.
    #[arg(long, default_value_t = 150.0, allow_hyphen_values = true)]
    slow_radius: f32,
    /// Flee's and evade's panic radius, in pixels.
    #[arg(long, default_value_t = 220.0, allow_hyphen_values = true)]
    panic_radius: f32,
    /// Top speed, in pixels a second.
    #[arg(long, default_value_t = 220.0, allow_hyphen_values = true)]
    max_speed: f32,
    /// Steering cap, in pixels a second per second.
    #[arg(long, default_value_t = 380.0, allow_hyphen_values = true)]
    max_force: f32,
    /// Seed of the random numbers (wander).
    #[arg(long, default_value_t = bevy_reynolds::DEFAULT_SEED)]
    seed: u64,
    /// How close counts as catching the target, in pixels.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true)]
    catch_radius: f32,
    /// The agent's body radius, in pixels.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    radius: f32,
    /// The fastest the agent's velocity may turn, in degrees a second (no
    /// limit if not given).
    #[arg(long, value_name = "DEG_PER_S", default_value_t = f32::INFINITY, allow_hyphen_values = true)]
    max_turn_rate: f32,
    /// The agent's mass: the capped force is divided by it.
    #[arg(long, default_value_t = 1.0, allow_hyphen_values = true)]
    mass: f32,
    /// How the agent's steering forces combine: weighted (the chapter's sum)
    /// or priority (the first group that asks for something).
    #[arg(long, default_value = "weighted", value_parser = parse_combine)]
    combine: Combine,
    /// One of the lab's own levels (u-trap, maze, spiral, office), with its
    /// start and goal: it replaces --start, --target and the obstacles.
    #[arg(long, value_parser = parse_level)]
    level: Option<String>,
    /// A circle to avoid, circle:X,Y,R (repeatable).
    #[arg(long, value_parser = parse_obstacle, allow_hyphen_values = true)]
    obstacle: Vec<(Vec2, f32)>,
    /// A wall to avoid, X1,Y1,X2,Y2 (repeatable).
    #[arg(long, value_parser = parse_four, allow_hyphen_values = true)]
    wall: Vec<(Vec2, Vec2)>,
    /// Keep the agent inside this rectangle, X0,Y0,X1,Y1.
    #[arg(long, value_parser = parse_four, allow_hyphen_values = true, conflicts_with = "contain_polygon")]
    contain: Option<(Vec2, Vec2)>,
    /// Keep the agent inside this polygon, "x,y;x,y;...".
    #[arg(long, value_parser = parse_points, allow_hyphen_values = true)]
    contain_polygon: Option<Points>,
    /// The path the path behavior follows, "x,y;x,y;...".
    #[arg(long, value_parser = parse_points, allow_hyphen_values = true)]
    path: Option<Points>,
    /// The path's radius, in pixels.
    #[arg(long, default_value_t = 20.0, allow_hyphen_values = true)]
    path_radius: f32,
    /// The path loops back to its start.
    #[arg(long = "loop")]
    path_loop: bool,
    /// Fly the scenario in 3D, as a flyer: the plane's x along this axis
    /// X,Y,Z, its y square to it; the report is measured on that plane.
    #[arg(long, value_parser = parse_triple, allow_hyphen_values = true)]
    fly: Option<Vec3>,
    /// Print the JSON report (the only output format; accepted for clarity).
    #[arg(long)]
    json: bool,
    /// Also write every step as CSV: t,x,y,vx,vy,tx,ty.
    #[arg(long)]
    pub(crate) trajectory: Option<PathBuf>,
}

impl ScenarioArgs {
    pub(crate) fn scenario(&self) -> Scenario {
        let scenario = self.given_scenario();
        match self.level.as_deref().and_then(steering_lab::levels::named) {
            Some(named) => Scenario {
                start: named.start,
                target: named.goal,
                level: Level {
                    contain: scenario.level.contain.clone(),
                    ..named.level
                },
                ..scenario
            },
            None => scenario,
        }
    }

    fn given_scenario(&self) -> Scenario {
        Scenario {
            behavior: self.behavior,
            start: self.start,
            start_vel: self.start_vel,
            target: self.target,
            target_vel: self.target_vel,
            response: self.response,
            hz: self.hz,
            seconds: self.seconds,
            slow_radius: self.slow_radius,
            panic_radius: self.panic_radius,
            max_speed: self.max_speed,
            max_force: self.max_force,
            seed: self.seed,
            catch_radius: self.catch_radius,
            radius: self.radius,
            mass: self.mass,
            max_turn_rate_deg_s: self.max_turn_rate,
            combine: self.combine,
            level: Level {
                circles: self.obstacle.clone(),
                walls: self.wall.clone(),
                contain: self
                    .contain
                    .map(|(min, max)| {
                        let (lo, hi) = (min.min(max), min.max(max));
                        vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]
                    })
                    .or_else(|| self.contain_polygon.clone().map(|p| p.0)),
                path: self.path.clone().map(|p| p.0).unwrap_or_default(),
                path_radius: self.path_radius,
                path_loop: self.path_loop,
            },
            flight: self.fly,
        }
    }
}

pub(crate) fn report_json(report: &Report) -> serde_json::Value {
    let last = report.last();
    json!({
        "overshoot_px": report.overshoot_px,
        "settle_s": report.settle_s,
        "catch_s": report.catch_s,
        "final_pos": [last.pos.x, last.pos.y],
        "final_vel": [last.vel.x, last.vel.y],
        "max_speed": report.max_speed,
        "max_turn_rate_deg_s": report.max_turn_rate_deg_s,
        "min_clearance_px": report.min_clearance_px,
        "reached": report.reach_s.is_some(),
        "reach_s": report.reach_s,
        "max_cross_track_px": report.max_cross_track_px,
        "lap_s": report.lap_s,
        "max_outside_px": report.max_outside_px,
        "route_px": report.route_px,
        "shortest_px": report.shortest_px,
        "walked_px": report.walked_px,
        "off_plane_px": report.off_plane_px,
        "steps": report.steps,
    })
}

pub(crate) fn trajectory_csv(report: &Report) -> String {
    let mut csv = String::from("t,x,y,vx,vy,tx,ty\n");
    for s in &report.trajectory {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            s.t, s.pos.x, s.pos.y, s.vel.x, s.vel.y, s.target.x, s.target.y
        ));
    }
    csv
}
