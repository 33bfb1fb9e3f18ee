//! Navigation's workloads, on the level workload's 4,000 px square of up to
//! 1,024 obstacles ([`level_obstacles`]): the walkable area built and
//! routes answered across it, beside the same routes from Polyanya on a
//! mesh it builds itself (as vleue_navigator builds one); the plugin's
//! steps when a thousand agents are sent somewhere at once; and a long run
//! of agents sent on and on while obstacles come and go. Used by
//! `steering-lab routes`.

use std::f32::consts::TAU;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::navigate::{Ground, RouteEnd, Solid, WalkableArea};
use polyanya::{Mesh, Triangulation};
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::bench::{BENCH_HZ, LEVEL_SIDE, level_obstacles, positions_hash};
use crate::memory::live_bytes;
use crate::scenario::headless_app_with_threads;

/// The body every workload's agents have: radius 4, clearance 0.25.
pub const AGENT_RADIUS: f32 = 4.0;
/// The body routes are planned for: [`AGENT_RADIUS`] and its clearance.
pub const ROUTE_BODY: f32 = AGENT_RADIUS * 1.25;

/// The level workload's square, corner by corner.
pub fn square() -> Vec<Vec2> {
    vec![
        Vec2::ZERO,
        Vec2::new(LEVEL_SIDE, 0.0),
        Vec2::splat(LEVEL_SIDE),
        Vec2::new(0.0, LEVEL_SIDE),
    ]
}

/// Obstacles placed where they are, as the core's solids.
pub fn solids(obstacles: &[(Vec2, SteeringObstacle)]) -> Vec<Solid> {
    obstacles
        .iter()
        .map(|(at, obstacle)| match obstacle {
            SteeringObstacle::Circle { radius } => Solid::Circle {
                center: *at,
                radius: *radius,
            },
            SteeringObstacle::Wall { a, b } => Solid::Wall {
                a: *at + *a,
                b: *at + *b,
            },
            SteeringObstacle::Polygon { points } => {
                Solid::Ring(points.iter().map(|p| *at + *p).collect())
            }
        })
        .collect()
}

/// The peer: Polyanya's own mesh of the same obstacles, as
/// vleue_navigator builds it (the obstacles' outlines added to a
/// triangulation of the square, grown by the body with Polyanya's own
/// rounded offsets, the outer edge too; merged and baked).
pub fn peer_mesh(obstacles: &[(Vec2, SteeringObstacle)], body: f32) -> Mesh {
    let mut triangulation = Triangulation::from_outer_edges(&square());
    triangulation.add_obstacles(obstacles.iter().map(|(at, obstacle)| {
        match obstacle {
            SteeringObstacle::Circle { radius } => (0..32)
                .map(|i| *at + Vec2::from_angle(i as f32 * TAU / 32.0) * *radius)
                .collect::<Vec<_>>(),
            SteeringObstacle::Wall { a, b } => vec![*at + *a, *at + *b],
            SteeringObstacle::Polygon { points } => points.iter().map(|p| *at + *p).collect(),
        }
    }));
    triangulation.set_agent_radius(body);
    triangulation.agent_radius_on_outer_edge(true);
    let mut mesh = triangulation.as_navmesh();
    mesh.merge_polygons();
    mesh.bake();
    mesh
}

/// The median and the 99th percentile of some durations, in µs.
fn median_p99(times: &mut [Duration]) -> (f64, f64) {
    (quantile_us(times, 0.5), quantile_us(times, 0.99))
}

/// The `q` quantile of some durations (sorting them), in µs.
fn quantile_us(times: &mut [Duration], q: f64) -> f64 {
    if times.is_empty() {
        return f64::NAN;
    }
    times.sort();
    times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6
}

/// Makes something `builds` times (at least once): the last one made, the
/// median time in ms, and the bytes it holds (if the counting allocator
/// is installed).
fn timed_builds<T>(builds: usize, mut make: impl FnMut() -> T) -> (T, f64, Option<usize>) {
    let mut times = Vec::new();
    let mut made = None;
    let mut bytes = None;
    for _ in 0..builds.max(1) {
        drop(made.take());
        let before = live_bytes();
        let start = Instant::now();
        let built = make();
        times.push(start.elapsed());
        bytes = live_bytes().zip(before).map(|(a, b)| a.saturating_sub(b));
        made = Some(built);
    }
    let made = made.expect("made at least once");
    (made, median_p99(&mut times).0 / 1e3, bytes)
}

/// What building the area and answering routes took, ours and the peer's.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutesReport {
    /// Obstacles in the level.
    pub obstacles: usize,
    /// Builds timed, each.
    pub builds: usize,
    /// The median time to build our walkable area, in ms.
    pub build_ms: f64,
    /// Its convex polygons.
    pub polygons: usize,
    /// The bytes it holds (if the counting allocator is installed).
    pub area_bytes: Option<usize>,
    /// Routes timed (pairs of free points the peer reaches too).
    pub routes: usize,
    /// Our median and 99th-percentile time for one route, in µs.
    pub route_us: (f64, f64),
    /// The mean length of a route, in px.
    pub mean_length: f64,
    /// The peer's median build, in ms.
    pub peer_build_ms: f64,
    /// The peer's polygons.
    pub peer_polygons: usize,
    /// The bytes the peer's mesh holds.
    pub peer_bytes: Option<usize>,
    /// The peer's median and 99th-percentile route, in µs.
    pub peer_route_us: (f64, f64),
    /// Pairs we route and the peer finds no path for.
    pub peer_failed: usize,
    /// Our route's length over the peer's: least, median, most.
    pub length_ratio: (f64, f64, f64),
}

/// Builds the area of `obstacles` obstacles for [`ROUTE_BODY`] `builds`
/// times, ours and the peer's, and answers `routes` routes between random
/// free points in both.
pub fn routes_workload(obstacles: usize, routes: usize, builds: usize, seed: u64) -> RoutesReport {
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let level = level_obstacles(obstacles, &mut rng);
    let solids = solids(&level);
    let square = square();
    let builds = builds.max(1);

    let (area, build_ms, area_bytes) = timed_builds(builds, || {
        WalkableArea::new(&solids, Ground::Within(&square), ROUTE_BODY)
    });
    let (peer, peer_build_ms, peer_bytes) = timed_builds(builds, || peer_mesh(&level, ROUTE_BODY));

    let free_in_both = |rng: &mut Xoshiro128PlusPlus| loop {
        let p = Vec2::new(
            rng.random_range(0.0..LEVEL_SIDE),
            rng.random_range(0.0..LEVEL_SIDE),
        );
        if area.is_free(p) && peer.point_in_mesh(p) {
            break p;
        }
    };
    let (mut ours, mut theirs, mut ratios, mut lengths) = (vec![], vec![], vec![], vec![]);
    let mut peer_failed = 0;
    while ours.len() < routes {
        let (from, to) = (free_in_both(&mut rng), free_in_both(&mut rng));
        let start = Instant::now();
        let route = area.route(from, to);
        let our_time = start.elapsed();
        // A pocket walled in for this body: no route either way.
        let Some(route) = route.filter(|r| r.end == RouteEnd::Goal) else {
            continue;
        };
        let start = Instant::now();
        let path = peer.path(from, to);
        let their_time = start.elapsed();
        let Some(path) = path else {
            peer_failed += 1;
            continue;
        };
        ours.push(our_time);
        theirs.push(their_time);
        lengths.push(route.length as f64);
        if path.length > 0.0 {
            ratios.push(route.length as f64 / path.length as f64);
        }
    }
    ratios.sort_by(f64::total_cmp);
    let length_ratio = match ratios.as_slice() {
        [] => (f64::NAN, f64::NAN, f64::NAN),
        r => (r[0], r[r.len() / 2], r[r.len() - 1]),
    };
    RoutesReport {
        obstacles: level.len(),
        builds,
        build_ms,
        polygons: area.polygons().count(),
        area_bytes,
        routes: ours.len(),
        route_us: median_p99(&mut ours),
        mean_length: lengths.iter().sum::<f64>() / lengths.len().max(1) as f64,
        peer_build_ms,
        peer_polygons: peer.layers.iter().map(|l| l.polygons.len()).sum(),
        peer_bytes,
        peer_route_us: median_p99(&mut theirs),
        peer_failed,
        length_ratio,
    }
}

/// A navigating world: `agents` agents (radius [`AGENT_RADIUS`], kept in
/// the square) among `obstacles` obstacles, each sent to a random free
/// point; and the area (for [`ROUTE_BODY`]) the places were picked on.
pub fn navigation_app(
    agents: usize,
    obstacles: usize,
    search_per_second: Option<u32>,
    seed: u64,
    threads: Option<usize>,
) -> (App, WalkableArea, Xoshiro128PlusPlus) {
    let settings = SteeringSettings {
        agent: SteeringParams {
            radius: AGENT_RADIUS,
            ..default()
        },
        ..default()
    };
    let mut app = headless_app_with_threads(BENCH_HZ, seed, settings, threads);
    if let Some(search_per_second) = search_per_second {
        app.world_mut()
            .resource_mut::<NavigationSettings>()
            .search_per_second = search_per_second;
    }
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let level = level_obstacles(obstacles, &mut rng);
    let area = WalkableArea::new(&solids(&level), Ground::Within(&square()), ROUTE_BODY);
    let world = app.world_mut();
    for (at, obstacle) in level {
        world.spawn((obstacle, AgentPosition(at)));
    }
    let inside = Containment::rect(Vec2::ZERO, Vec2::splat(LEVEL_SIDE));
    for _ in 0..agents {
        let (from, to) = (free_point(&area, &mut rng), free_point(&area, &mut rng));
        world.spawn((Navigate::to(to), AgentPosition(from), inside.clone()));
    }
    (app, area, rng)
}

/// A random point of the square where a body fits.
pub fn free_point(area: &WalkableArea, rng: &mut Xoshiro128PlusPlus) -> Vec2 {
    for _ in 0..10_000 {
        let p = Vec2::new(
            rng.random_range(0.0..LEVEL_SIDE),
            rng.random_range(0.0..LEVEL_SIDE),
        );
        if area.is_free(p) {
            return p;
        }
    }
    Vec2::splat(LEVEL_SIDE / 2.0)
}

/// How many agents are still waiting for a route.
fn planning(world: &mut World) -> usize {
    world
        .query::<&NavigationStatus>()
        .iter(world)
        .filter(|s| **s == NavigationStatus::Planning)
        .count()
}

/// Runs one fixed step, timed, at a game's pace: then waits out the rest
/// of its 1/60 s, as a game waits for the next frame (and the routes and
/// ground being made off the step get that time).
pub(crate) fn paced_step(app: &mut App) -> Duration {
    let start = Instant::now();
    app.update();
    let took = start.elapsed();
    std::thread::sleep(Duration::from_secs_f64(1.0 / BENCH_HZ).saturating_sub(took));
    took
}

/// What the plugin's steps took when every agent was sent somewhere new at
/// once, against its steps while they walk.
#[derive(Debug, Clone, PartialEq)]
pub struct SendReport {
    /// Agents, all navigating.
    pub agents: usize,
    /// Obstacles.
    pub obstacles: usize,
    /// Search work a second (nodes expanded).
    pub search_per_second: u32,
    /// Steps until every first route was planned.
    pub first_routes_steps: usize,
    /// The median step while they walk, in ms (every step here is run at
    /// a game's pace, 60 a second of wall time).
    pub walking_ms: f64,
    /// The 95th percentile of the steps while they walk, in ms.
    pub walking_p95_ms: f64,
    /// The longest step while they walk, in ms.
    pub walking_worst_ms: f64,
    /// The median of the steps after all were sent at once, in ms.
    pub after_send_ms: f64,
    /// Their 95th percentile, in ms.
    pub after_send_p95_ms: f64,
    /// The longest of them, in ms.
    pub worst_after_send_ms: f64,
    /// Steps until every new route was planned.
    pub send_steps: usize,
    /// The longest of the steps after one obstacle was added (the area
    /// made again), in ms.
    pub worst_after_edit_ms: f64,
    /// The bytes the routes' points hold.
    pub routes_bytes: usize,
    /// Walkable areas the plugin holds.
    pub areas: usize,
    /// Every agent's place at the end, hashed (see
    /// [`positions_hash`]).
    pub positions_hash: u64,
}

/// Steps [`navigation_app`]: until every agent has its first route, then
/// `steps` steps walking, then every agent sent somewhere new at once and
/// `steps` more, then one rock dropped somewhere and a few more; each
/// timed step at a game's pace (60 a second of wall time).
pub fn send_workload(
    agents: usize,
    obstacles: usize,
    steps: usize,
    search_per_second: Option<u32>,
    seed: u64,
    threads: Option<usize>,
) -> SendReport {
    let (mut app, area, mut rng) =
        navigation_app(agents, obstacles, search_per_second, seed, threads);
    let search_per_second = app
        .world()
        .resource::<NavigationSettings>()
        .search_per_second;
    let mut first_routes_steps = 0;
    while planning(app.world_mut()) > 0 && first_routes_steps < 10_000 {
        app.update();
        first_routes_steps += 1;
    }
    let mut walking: Vec<Duration> = (0..steps).map(|_| paced_step(&mut app)).collect();
    let walking_ms = quantile_us(&mut walking, 0.5) / 1e3;
    let walking_p95_ms = quantile_us(&mut walking, 0.95) / 1e3;
    let walking_worst_ms = quantile_us(&mut walking, 1.0) / 1e3;

    let world = app.world_mut();
    let mut sent = world.query::<&mut Navigate>();
    for mut navigate in sent.iter_mut(world) {
        navigate.goal = NavigationGoal::Point(free_point(&area, &mut rng));
    }
    let mut sending = Vec::with_capacity(steps);
    let mut send_steps = 0;
    for step in 0..steps {
        sending.push(paced_step(&mut app));
        if send_steps == 0 && planning(app.world_mut()) == 0 {
            send_steps = step + 1;
        }
    }

    // The ground is made again off the step and taken a set time on.
    app.world_mut().spawn((
        SteeringObstacle::circle(30.0),
        AgentPosition(free_point(&area, &mut rng)),
    ));
    let lag = app.world().resource::<NavigationSettings>().area_lag as f64;
    let worst_edit = (0..2 * (lag * BENCH_HZ).ceil() as usize + 2)
        .map(|_| paced_step(&mut app))
        .max()
        .unwrap_or_default();

    let world = app.world_mut();
    let routes_bytes = world
        .query::<&NavigationRoute>()
        .iter(world)
        .map(|r| r.points.capacity() * std::mem::size_of::<Vec2>())
        .sum();
    let areas = world.resource::<NavigationAreas>().len();
    SendReport {
        agents,
        obstacles: obstacles.min(1024),
        search_per_second,
        first_routes_steps,
        walking_ms,
        walking_p95_ms,
        walking_worst_ms,
        after_send_ms: quantile_us(&mut sending, 0.5) / 1e3,
        after_send_p95_ms: quantile_us(&mut sending, 0.95) / 1e3,
        worst_after_send_ms: quantile_us(&mut sending, 1.0) / 1e3,
        send_steps,
        worst_after_edit_ms: worst_edit.as_secs_f64() * 1e3,
        routes_bytes,
        areas,
        positions_hash: positions_hash(&mut app),
    }
}

/// What a long run of agents sent on and on saw.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutesSoakReport {
    /// Fixed steps run.
    pub steps: u64,
    /// Agents that arrived (each then sent somewhere new).
    pub arrivals: u64,
    /// Agents that had not arrived a minute after being sent (sent
    /// somewhere new all the same).
    pub late: u64,
    /// Rocks dropped and taken away.
    pub edits: u64,
    /// The process's live bytes at their highest in the first half of the
    /// run, and in the second.
    pub first_half_peak_bytes: Option<usize>,
    /// See above.
    pub second_half_peak_bytes: Option<usize>,
    /// Positions or velocities not finite, summed over every step.
    pub nonfinite: u64,
}

impl RoutesSoakReport {
    /// Whether memory grew by more than half from the first half to the
    /// second (as [`SoakReport::memory_grew`](crate::SoakReport::memory_grew)).
    pub fn memory_grew(&self) -> bool {
        match (self.first_half_peak_bytes, self.second_half_peak_bytes) {
            (Some(first), Some(second)) => second as f64 > 1.5 * first as f64,
            _ => false,
        }
    }
}

/// [`navigation_app`] for `seconds` simulated seconds: each agent that
/// arrives (or has not in a minute) is sent to a new random place, and
/// every two seconds a rock of radius 20 to 40 is dropped somewhere,
/// the oldest of eight taken away.
pub fn routes_soak(
    agents: usize,
    obstacles: usize,
    seconds: f64,
    search_per_second: Option<u32>,
    seed: u64,
    threads: Option<usize>,
) -> RoutesSoakReport {
    let (mut app, area, mut rng) =
        navigation_app(agents, obstacles, search_per_second, seed, threads);
    let steps = (seconds * BENCH_HZ).round().max(0.0) as u64;
    let per_second = BENCH_HZ.round() as u64;
    let mut report = RoutesSoakReport {
        steps,
        arrivals: 0,
        late: 0,
        edits: 0,
        first_half_peak_bytes: None,
        second_half_peak_bytes: None,
        nonfinite: 0,
    };
    let mut sent_at: std::collections::HashMap<Entity, u64> = Default::default();
    let mut dropped = std::collections::VecDeque::new();
    for step in 0..steps {
        app.update();
        let world = app.world_mut();
        let mut agents = world.query::<(
            Entity,
            &mut Navigate,
            &NavigationStatus,
            &AgentPosition,
            &AgentVelocity,
        )>();
        for (entity, mut navigate, status, pos, vel) in agents.iter_mut(world) {
            if !(pos.0.is_finite() && vel.0.is_finite()) {
                report.nonfinite += 1;
            }
            let since = *sent_at.entry(entity).or_insert(0);
            let late = step - since > 60 * per_second;
            if *status == NavigationStatus::Arrived || late {
                if late {
                    report.late += 1;
                } else {
                    report.arrivals += 1;
                }
                navigate.goal = NavigationGoal::Point(free_point(&area, &mut rng));
                sent_at.insert(entity, step);
            }
        }
        if step % (2 * per_second) == 0 {
            if dropped.len() >= 8
                && let Some(old) = dropped.pop_front()
            {
                world.despawn(old);
            }
            let radius = rng.random_range(20.0..40.0);
            let rock = world
                .spawn((
                    SteeringObstacle::circle(radius),
                    AgentPosition(free_point(&area, &mut rng)),
                ))
                .id();
            dropped.push_back(rock);
            report.edits += 1;
        }
        if step % per_second == 0
            && let Some(bytes) = live_bytes()
        {
            let half = if step < steps / 2 {
                &mut report.first_half_peak_bytes
            } else {
                &mut report.second_half_peak_bytes
            };
            *half = Some(half.map_or(bytes, |b: usize| b.max(bytes)));
        }
    }
    report
}

impl RoutesReport {
    /// Its figures as the lab's one JSON line.
    pub fn to_json(&self) -> Value {
        json!({
            "workload": "routes",
            "obstacles": self.obstacles,
            "body": ROUTE_BODY,
            "builds": self.builds,
            "build_ms": self.build_ms,
            "polygons": self.polygons,
            "area_bytes": self.area_bytes,
            "routes": self.routes,
            "route_us_median": self.route_us.0,
            "route_us_p99": self.route_us.1,
            "mean_length_px": self.mean_length,
            "peer": "polyanya 0.17 on its own mesh (vleue_navigator's way)",
            "peer_build_ms": self.peer_build_ms,
            "peer_polygons": self.peer_polygons,
            "peer_bytes": self.peer_bytes,
            "peer_route_us_median": self.peer_route_us.0,
            "peer_route_us_p99": self.peer_route_us.1,
            "peer_failed": self.peer_failed,
            "length_vs_peer_min": self.length_ratio.0,
            "length_vs_peer_median": self.length_ratio.1,
            "length_vs_peer_max": self.length_ratio.2,
        })
    }
}

impl SendReport {
    /// Its figures as the lab's one JSON line (the threads left to the
    /// caller).
    pub fn to_json(&self) -> Value {
        json!({
            "workload": "send",
            "agents": self.agents,
            "obstacles": self.obstacles,
            "search_per_second": self.search_per_second,
            "first_routes_steps": self.first_routes_steps,
            "walking_step_ms_median": self.walking_ms,
            "walking_step_ms_p95": self.walking_p95_ms,
            "walking_step_ms_worst": self.walking_worst_ms,
            "step_after_send_ms_median": self.after_send_ms,
            "step_after_send_ms_p95": self.after_send_p95_ms,
            "worst_step_after_send_ms": self.worst_after_send_ms,
            "worst_over_median": self.worst_after_send_ms / self.walking_ms,
            "send_steps": self.send_steps,
            "worst_step_after_edit_ms": self.worst_after_edit_ms,
            "routes_bytes": self.routes_bytes,
            "areas": self.areas,
            "positions_hash": format!("{:016x}", self.positions_hash),
        })
    }
}

impl RoutesSoakReport {
    /// Its figures as the lab's one JSON line (the agents and seconds left
    /// to the caller).
    pub fn to_json(&self) -> Value {
        json!({
            "workload": "routes soak",
            "steps": self.steps,
            "arrivals": self.arrivals,
            "late": self.late,
            "edits": self.edits,
            "first_half_peak_bytes": self.first_half_peak_bytes,
            "second_half_peak_bytes": self.second_half_peak_bytes,
            "memory_grew": self.memory_grew(),
            "nonfinite": self.nonfinite,
        })
    }
}
