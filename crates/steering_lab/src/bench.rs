//! Workloads for measuring speed: the Critters mix and a flock, each
//! through the real plugin and as a plain-Rust loop of the same math, the
//! floor for the ECS's overhead. Used by the criterion benches and by
//! `steering-lab bench`.

use std::collections::VecDeque;
use std::time::Instant;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::flock::{FlockParams, FlockSums, FlockView, Neighbor};
use bevy_reynolds::reynolds::model::{self, Kinematics, Limits};
use bevy_reynolds::reynolds::spatial::{self, GridAgent};
use bevy_reynolds::reynolds::{behaviors, defaults, math, measure, wander, wrap};
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::experiments::{add_circling_target, circle_point};
use crate::scenario::{empty_app_with_threads, headless_app_with_threads, run_steps};

/// The fixed rate every workload steps at.
pub const BENCH_HZ: f64 = 60.0;

/// The five behaviors of Critters, in equal numbers.
const KINDS: usize = 5;

/// `n` agents of the Critters mix (seek, arrive, pursue, wander, graze in
/// turn), with trails, around a target circling the middle of the 1000 x
/// 700 world, in a headless app with the real plugin. One `update` is one
/// fixed step.
pub fn critters_mix_app(n: usize, seed: u64, threads: Option<usize>) -> App {
    let mut app = headless_app_with_threads(BENCH_HZ, seed, SteeringSettings::critters(), threads);
    let mouse = add_circling_target(&mut app);
    let world = app.world_mut();
    let target = SteeringTarget::Entity(mouse);
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let agents: Vec<_> = (0..n)
        .map(|i| {
            let behavior = match i % KINDS {
                0 => SteeringBehavior::Seek(target),
                1 => SteeringBehavior::Arrive(target),
                2 => SteeringBehavior::Pursue(target),
                3 => SteeringBehavior::Wander,
                _ => SteeringBehavior::Graze(target),
            };
            let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
            (
                SteeringAgent,
                behavior,
                AgentPosition(Vec2::new(
                    rng.random_range(0.0..1000.0),
                    rng.random_range(0.0..700.0),
                )),
                WanderAngle(angle),
                AgentTrail::default(),
            )
        })
        .collect();
    world.spawn_batch(agents);
    // Warm up: fill the trails and the archetype's storage.
    run_steps(&mut app, 120, |_| {});
    app
}

/// The Critters mix flown: `n` flyers, each of seek, arrive, pursue,
/// wander and graze in turn, at random places in a box (0..1000, 0..700,
/// 0..-700), still, each wandering along its own random direction, round
/// a target circling (500, 350, -350) at 144 px/s, tilted out of every
/// axis plane. Flyers keep no trail; warmed up as the walkers' mix is.
pub fn flyers_mix_app(n: usize, seed: u64, threads: Option<usize>) -> App {
    let mut app = headless_app_with_threads(BENCH_HZ, seed, SteeringSettings::critters(), threads);
    app.add_systems(
        FixedUpdate,
        circle_flying_target.before(SteeringSystems::Prepare),
    );
    let world = app.world_mut();
    let mouse = world
        .spawn((
            CirclingFlyer,
            FlyerPosition::default(),
            FlyerVelocity::default(),
        ))
        .id();
    let target = FlyerTarget::Entity(mouse);
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let flyers: Vec<_> = (0..n)
        .map(|i| {
            let behavior = match i % KINDS {
                0 => FlyerBehavior::Seek(target),
                1 => FlyerBehavior::Arrive(target),
                2 => FlyerBehavior::Pursue(target),
                3 => FlyerBehavior::Wander,
                _ => FlyerBehavior::Graze(target),
            };
            let mut random = |range: std::ops::Range<f32>| rng.random_range(range);
            let at = Vec3::new(random(0.0..1000.0), random(0.0..700.0), random(-700.0..0.0));
            let heading = Vec3::new(random(-1.0..1.0), random(-1.0..1.0), random(-1.0..1.0));
            (
                SteeringFlyer,
                behavior,
                FlyerPosition(at),
                WanderDirection(heading.normalize_or(Vec3::X)),
            )
        })
        .collect();
    world.spawn_batch(flyers);
    run_steps(&mut app, 120, |_| {});
    app
}

/// The flyers' mix's target: the walkers' circle, tilted out of every
/// axis plane, its velocity set with its place.
#[derive(Component)]
struct CirclingFlyer;

fn circle_flying_target(
    time: Res<Time>,
    mut targets: Query<(&mut FlyerPosition, &mut FlyerVelocity), With<CirclingFlyer>>,
) {
    let tilt = Quat::from_euler(EulerRot::XYZ, 0.5, 0.3, 0.2);
    let centre = Vec3::new(500.0, 350.0, -350.0);
    let (radius, speed) = (150.0, 144.0);
    let angle = time.elapsed_secs() * speed / radius;
    for (mut pos, mut vel) in &mut targets {
        pos.0 = centre + tilt * Vec3::new(angle.cos(), -angle.sin(), 0.0) * radius;
        vel.0 = tilt * Vec3::new(-angle.sin(), -angle.cos(), 0.0) * speed;
    }
}

/// [`critters_mix_app`] without the plugin, and so without agents: the
/// same task pools, the same fixed step, the same target circling. What
/// the plugin costs beyond it is its fixed cost.
pub fn no_plugin_app(threads: Option<usize>) -> App {
    let mut app = empty_app_with_threads(BENCH_HZ, threads);
    add_circling_target(&mut app);
    run_steps(&mut app, 120, |_| {});
    app
}

/// One agent of the plain loop.
#[derive(Clone, Debug)]
struct PlainAgent {
    kind: usize,
    state: Kinematics,
    wander_angle: f32,
    heading: Vec2,
    trail: VecDeque<Vec2>,
}

/// The Critters mix as a plain `Vec` and a loop of the core's functions:
/// the same math as the plugin, with no ECS.
pub struct PlainCritters {
    agents: Vec<PlainAgent>,
    rng: Xoshiro128PlusPlus,
    target: Vec2,
    target_vel: Vec2,
    t: f32,
    /// Seconds since the trails sampled: one clock for all, as the plugin's.
    since_sample: f32,
}

impl PlainCritters {
    /// `n` agents placed as [`critters_mix_app`] places them.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
        let agents = (0..n)
            .map(|i| {
                let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
                let pos = Vec2::new(rng.random_range(0.0..1000.0), rng.random_range(0.0..700.0));
                PlainAgent {
                    kind: i % KINDS,
                    state: Kinematics {
                        pos,
                        vel: Vec2::ZERO,
                    },
                    wander_angle: angle,
                    heading: Vec2::from_angle(angle),
                    trail: VecDeque::with_capacity(defaults::TRAIL_LENGTH),
                }
            })
            .collect();
        let mut plain = Self {
            agents,
            rng,
            target: circle_point(0.0),
            target_vel: Vec2::ZERO,
            t: 0.0,
            since_sample: 0.0,
        };
        for _ in 0..120 {
            plain.step();
        }
        plain
    }

    /// One fixed step of every agent.
    pub fn step(&mut self) {
        let dt = (1.0 / BENCH_HZ) as f32;
        self.t += dt;
        let next = circle_point(self.t);
        self.target_vel = measure::measured_velocity(
            self.target_vel,
            self.target,
            next,
            dt,
            defaults::MEASURE_HALF_LIFE,
        );
        self.target = next;
        let (target, target_vel) = (self.target, self.target_vel);
        let limits = Limits::default();
        let d = defaults::WORLD_SIZE;
        let (min, max) = (Vec2::ZERO, Vec2::new(d[0], d[1]));
        self.since_sample += dt;
        let sample = self.since_sample >= defaults::TRAIL_INTERVAL;
        if sample {
            self.since_sample -= defaults::TRAIL_INTERVAL;
        }
        for a in &mut self.agents {
            let Kinematics { pos, vel } = a.state;
            let mut sum = model::SteeringSum::default();
            let rt = defaults::RESPONSE_TIME;
            let speed = limits.max_speed;
            let wander = |angle: &mut f32, rng: &mut Xoshiro128PlusPlus| {
                *angle = wander::wander_step(
                    *angle,
                    dt,
                    defaults::WANDER_RATE,
                    rng.random_range(-1.0..1.0),
                );
                wander::wander(*angle, speed)
            };
            match a.kind {
                0 => sum.add(1.0, behaviors::seek(pos, target, speed), vel, rt),
                1 => sum.add(
                    1.0,
                    behaviors::arrive(pos, target, speed, defaults::SLOWING_RADIUS),
                    vel,
                    rt,
                ),
                2 => sum.add(
                    1.0,
                    behaviors::pursue(pos, target, target_vel, speed),
                    vel,
                    rt,
                ),
                3 => sum.add(1.0, wander(&mut a.wander_angle, &mut self.rng), vel, rt),
                _ => {
                    sum.add(1.0, wander(&mut a.wander_angle, &mut self.rng), vel, rt);
                    sum.add(
                        defaults::GRAZE_FLEE_WEIGHT,
                        behaviors::flee(pos, vel, target, speed, defaults::PANIC_RADIUS),
                        vel,
                        rt,
                    );
                }
            }
            a.state = model::step(a.state, sum.steering(), limits, dt);
            a.state.pos = wrap::wrap(a.state.pos, min, max).0;
            a.heading = model::heading(a.state.vel, a.heading);
            if sample {
                if a.trail.len() >= defaults::TRAIL_LENGTH {
                    a.trail.pop_front();
                }
                a.trail.push_back(a.state.pos);
            }
        }
    }

    /// Where the agents are, for checks.
    pub fn positions(&self) -> impl Iterator<Item = Vec2> + '_ {
        self.agents.iter().map(|a| a.state.pos)
    }
}

/// The side of a square world in which `n` boids have about 30 neighbors
/// within 70 px each: `sqrt(n * π 70² / 30)`.
pub fn flock_world_side(n: usize) -> f32 {
    (n as f32 * std::f32::consts::PI * 70.0 * 70.0 / 30.0).sqrt()
}

/// `n` boids (wander and the three rules) in a wrapping square world of
/// [`flock_world_side`], with the real plugin.
pub fn flock_app(n: usize, seed: u64, threads: Option<usize>) -> App {
    let side = flock_world_side(n);
    let settings = SteeringSettings {
        wrap: Some(Rect::new(0.0, 0.0, side, side)),
        ..default()
    };
    let mut app = headless_app_with_threads(BENCH_HZ, seed, settings, threads);
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let boids: Vec<_> = (0..n)
        .map(|_| {
            let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
            (
                Flocking::default(),
                SteeringBehavior::Blend(vec![Weighted::new(0.3, SteeringBehavior::Wander)]),
                AgentPosition(Vec2::new(
                    rng.random_range(0.0..side),
                    rng.random_range(0.0..side),
                )),
                AgentVelocity(Vec2::from_angle(angle) * 100.0),
                WanderAngle(angle),
            )
        })
        .collect();
    app.world_mut().spawn_batch(boids);
    run_steps(&mut app, 30, |_| {});
    app
}

/// The side of a cube in which `n` flyers have about 22 neighbors within
/// 70 px each: `cbrt(n 4/3 π 70³ / 22)`. Flyers gather more as they flock
/// than [`flock_world_side`]'s boids on the plane (30 at the start) do, so
/// after the warm-up both have about as many (`mean_neighbors` in the
/// bench's line): their costs compare at one density.
pub fn flyer_flock_world_side(n: usize) -> f32 {
    (n as f32 * 4.0 / 3.0 * std::f32::consts::PI * 70f32.powi(3) / 22.0).cbrt()
}

/// [`flock_app`] in 3D: `n` flyers (wander and the three rules) in a cube of
/// [`flyer_flock_world_side`], through the real plugin. Flyers do not
/// wrap, so a system of the workload's own puts any that leave the cube
/// back in on the far side, as the plane's wrap does, to keep the density
/// (and the cost it sets) steady.
pub fn flyer_flock_app(n: usize, seed: u64, threads: Option<usize>) -> App {
    let side = flyer_flock_world_side(n);
    let mut app = headless_app_with_threads(BENCH_HZ, seed, SteeringSettings::default(), threads);
    app.insert_resource(FlyerCube(side)).add_systems(
        FixedUpdate,
        wrap_flyers_round_the_cube.before(SteeringSystems::Prepare),
    );
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let birds: Vec<_> = (0..n)
        .map(|_| {
            let mut random = |range: std::ops::Range<f32>| rng.random_range(range);
            let at = Vec3::new(random(0.0..side), random(0.0..side), random(0.0..side));
            let way = Vec3::new(random(-1.0..1.0), random(-1.0..1.0), random(-1.0..1.0))
                .normalize_or(Vec3::X);
            (
                FlyerFlocking::default(),
                FlyerBehavior::Blend(vec![Weighted::new(0.3, FlyerBehavior::Wander)]),
                FlyerPosition(at),
                FlyerVelocity(way * 100.0),
                WanderDirection(way),
            )
        })
        .collect();
    app.world_mut().spawn_batch(birds);
    run_steps(&mut app, 30, |_| {});
    app
}

/// The side of [`flyer_flock_app`]'s cube.
#[derive(Resource)]
struct FlyerCube(f32);

fn wrap_flyers_round_the_cube(
    cube: Res<FlyerCube>,
    mut flyers: Query<(&mut FlyerPosition, &mut FlyerPreviousPosition)>,
) {
    let side = Vec3::splat(cube.0);
    for (mut pos, mut previous) in &mut flyers {
        if !(pos.0.cmpge(Vec3::ZERO).all() && pos.0.cmplt(side).all()) {
            let wrapped = pos.0.rem_euclid(side);
            previous.0 += wrapped - pos.0;
            pos.0 = wrapped;
        }
    }
}

/// How many neighbors within the default 70 px each flocking flyer of
/// `app` has, on average, by its [`FlyerNeighborGrid`].
pub fn mean_flyer_neighbors(app: &mut App) -> f64 {
    let reach = FlockParams::default().neighbor_radius;
    let mut pairs = 0usize;
    let mut query = app.world_mut().query::<&FlyerPosition>();
    let positions: Vec<Vec3> = query.iter(app.world()).map(|p| p.0).collect();
    let grid = app.world().resource::<FlyerNeighborGrid>();
    for p in &positions {
        grid.for_each_within(*p, reach, |_, offset, _| {
            pairs += (offset != Vec3::ZERO) as usize
        });
    }
    pairs as f64 / positions.len().max(1) as f64
}

/// The level workload's square world: 32 × 32 cells of 125 px.
const LEVEL_CELLS: usize = 32;
const LEVEL_CELL: f32 = 125.0;

/// The level workload's side: 4,000 px.
pub const LEVEL_SIDE: f32 = LEVEL_CELLS as f32 * LEVEL_CELL;

/// The level workload's obstacles (up to 1,024), each with where it is: one
/// in five a wall 40 to 80 px long at any angle, the rest rocks of radius
/// 10 to 30, one to a 125 px cell of the [`LEVEL_SIDE`] square, at least
/// 15 px apart.
pub fn level_obstacles(
    obstacles: usize,
    rng: &mut Xoshiro128PlusPlus,
) -> Vec<(Vec2, SteeringObstacle)> {
    (0..obstacles.min(LEVEL_CELLS * LEVEL_CELLS))
        .map(|i| {
            let cell = Vec2::new((i % LEVEL_CELLS) as f32, (i / LEVEL_CELLS) as f32);
            let center = (cell + 0.5) * LEVEL_CELL
                + Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0));
            let obstacle = if i % 5 == 0 {
                let half = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::PI))
                    * rng.random_range(20.0..40.0);
                SteeringObstacle::wall(-half, half)
            } else {
                SteeringObstacle::circle(rng.random_range(10.0..30.0))
            };
            (center, obstacle)
        })
        .collect()
}

/// `n` agents in the [`LEVEL_SIDE`] square level of `obstacles`
/// obstacles ([`level_obstacles`]). Every
/// agent (body radius 4) stays inside the square by containment and
/// combines by priority; in turn they wander, seek the target circling
/// (500, 350) (so seekers and arrivers cross the rocks to the level's
/// corner and crowd there), arrive at it, and follow one of eight looped
/// paths (a rectangle each, round the middle at eight sizes, radius 20).
/// Agents start outside every obstacle. One `update` is one fixed step.
pub fn level_app(n: usize, obstacles: usize, seed: u64, threads: Option<usize>) -> App {
    let side = LEVEL_SIDE;
    let settings = SteeringSettings {
        agent: SteeringParams {
            radius: 4.0,
            combine: Combine::priority(),
            ..default()
        },
        ..default()
    };
    let mut app = headless_app_with_threads(BENCH_HZ, seed, settings, threads);
    let target = SteeringTarget::Entity(add_circling_target(&mut app));
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let world = app.world_mut();

    let shapes = level_obstacles(obstacles, &mut rng);
    for (center, obstacle) in &shapes {
        world.spawn((obstacle.clone(), AgentPosition(*center)));
    }
    // Clear of every obstacle by a body and more (the cells' middles are).
    let clear = |p: Vec2| {
        shapes.iter().all(|(c, shape)| match shape {
            SteeringObstacle::Circle { radius } => p.distance(*c) > radius + 8.0,
            SteeringObstacle::Wall { a, b } => {
                p.distance(math::closest_on_segment(p - *c, *a, *b) + *c) > 8.0
            }
            SteeringObstacle::Polygon { .. } => true,
        })
    };

    let inside = Containment::rect(Vec2::ZERO, Vec2::splat(side));
    let middle = Vec2::splat(side / 2.0);
    let paths: Vec<_> = (1..=8)
        .map(|k| {
            let half = Vec2::splat(side * 0.055 * k as f32);
            let corners = [
                middle - half,
                middle + Vec2::new(half.x, -half.y),
                middle + half,
                middle + Vec2::new(-half.x, half.y),
            ];
            std::sync::Arc::new(SteeringPath::new(corners, true))
        })
        .collect();
    for i in 0..n {
        let behavior = match i % 4 {
            0 => SteeringBehavior::Wander,
            1 => SteeringBehavior::Seek(target),
            2 => SteeringBehavior::Arrive(target),
            _ => SteeringBehavior::Idle,
        };
        let mut agent = world.spawn((
            SteeringAgent,
            behavior,
            inside.clone(),
            WanderAngle(rng.random_range(-std::f32::consts::PI..std::f32::consts::PI)),
        ));
        if i % 4 == 3 {
            let path = paths[(i / 4) % paths.len()].clone();
            let mut follow = FollowPath::new(path.clone(), 20.0);
            follow.cursor = rng.random_range(0.0..path.length());
            agent.insert((AgentPosition(path.point_at(follow.cursor)), follow));
        } else {
            let pos = loop {
                let p = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
                if clear(p) {
                    break p;
                }
            };
            agent.insert(AgentPosition(pos));
        }
    }
    run_steps(&mut app, 60, |_| {});
    app
}

/// A flock as plain arrays, for comparing neighbor searches on the same
/// math: the grid against checking every pair.
pub struct PlainFlock {
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    forces: Vec<Vec2>,
    side: f32,
    grid: spatial::NeighborGrid<u32>,
    params: FlockParams,
}

impl PlainFlock {
    /// `n` boids in a wrapping square of [`flock_world_side`].
    pub fn new(n: usize, seed: u64) -> Self {
        let side = flock_world_side(n);
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
        let positions = (0..n)
            .map(|_| Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side)))
            .collect();
        let velocities = (0..n)
            .map(|_| {
                Vec2::from_angle(rng.random_range(-std::f32::consts::PI..std::f32::consts::PI))
                    * 100.0
            })
            .collect();
        Self {
            positions,
            velocities,
            forces: vec![Vec2::ZERO; n],
            side,
            grid: spatial::NeighborGrid::default(),
            params: FlockParams::default(),
        }
    }

    /// Every boid's flocking force, neighbors found through the grid.
    pub fn forces_with_grid(&mut self) -> &[Vec2] {
        let side = self.side;
        self.grid.rebuild(
            self.positions
                .iter()
                .zip(&self.velocities)
                .enumerate()
                .map(|(i, (p, v))| GridAgent {
                    id: i as u32,
                    position: *p,
                    velocity: *v,
                    radius: 0.0,
                }),
            self.params.reach(),
            Some((Vec2::ZERO, Vec2::splat(side))),
        );
        for (i, force) in self.forces.iter_mut().enumerate() {
            let (pos, vel) = (self.positions[i], self.velocities[i]);
            let view = FlockView::new(&self.params, vel);
            let sums = self.grid.flock_sums(pos, self.params.reach(), &view);
            *force = sums.steering(vel, &self.params, 220.0, 0.15);
        }
        &self.forces
    }

    /// Every boid's flocking force, checking every other boid.
    pub fn forces_brute_force(&mut self) -> &[Vec2] {
        let period = Vec2::splat(self.side);
        let reach2 = self.params.reach() * self.params.reach();
        for (i, force) in self.forces.iter_mut().enumerate() {
            let (pos, vel) = (self.positions[i], self.velocities[i]);
            let view = FlockView::new(&self.params, vel);
            let mut sums = FlockSums::default();
            for (j, (p, v)) in self.positions.iter().zip(&self.velocities).enumerate() {
                let offset = wrap::wrapped_offset(pos, *p, period);
                if j != i && offset.length_squared() <= reach2 {
                    sums.add(
                        Neighbor {
                            offset,
                            vel: *v,
                            radius: 0.0,
                        },
                        &view,
                    );
                }
            }
            *force = sums.steering(vel, &self.params, 220.0, 0.15);
        }
        &self.forces
    }
}

/// Runs `steps` fixed steps of `app` and returns the wall time per agent
/// per step, in nanoseconds.
pub fn ns_per_agent_step(app: &mut App, agents: usize, steps: u64) -> f64 {
    time_per_agent_step(agents, steps, || run_steps(app, 1, |_| {}))
}

/// The CPU time this process has used, on every thread, from Linux's
/// `/proc/self/stat` (in its clock ticks, a hundredth of a second); `None`
/// elsewhere. Beside wall time it shows the work a step does apart from
/// the waiting for threads to wake, which dominates small steps here.
pub fn process_cpu_time() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces: state is field 3, user time 14 and system time 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
    // Linux reports these in USER_HZ, which is 100 on every platform it
    // runs on today.
    Some(std::time::Duration::from_millis(
        (ticks(14)? + ticks(15)?) * 10,
    ))
}

/// Calls `step` `steps` times and returns the wall time per agent per
/// step, in nanoseconds.
pub fn time_per_agent_step(agents: usize, steps: u64, mut step: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    per_agent_step(start.elapsed(), agents, steps)
}

/// `elapsed` over `steps` steps of `agents` agents, in nanoseconds per agent
/// per step.
pub fn per_agent_step(elapsed: std::time::Duration, agents: usize, steps: u64) -> f64 {
    elapsed.as_nanos() as f64 / (agents.max(1) as f64 * steps.max(1) as f64)
}

/// How many neighbors within the default 70 px each agent of `app` has, on
/// average, by its [`NeighborGrid`]: the density a flock's cost follows.
pub fn mean_neighbors(app: &mut App) -> f64 {
    let reach = FlockParams::default().neighbor_radius;
    let mut pairs = 0usize;
    let mut query = app.world_mut().query::<&AgentPosition>();
    let positions: Vec<Vec2> = query.iter(app.world()).map(|p| p.0).collect();
    let grid = app.world().resource::<NeighborGrid>();
    for p in &positions {
        grid.for_each_within(*p, reach, |_, offset, _| {
            pairs += (offset != Vec2::ZERO) as usize
        });
    }
    pairs as f64 / positions.len().max(1) as f64
}

pub use steering_test_support::{flyer_positions_hash, positions_hash};

/// Wall time spent in each stage of [`SteeringSystems`], summed over the
/// steps since [`time_stages`] was called: a profile of the plugin's step
/// by stage, with no profiler.
#[derive(Resource, Debug, Clone, Default)]
pub struct StageTimes {
    /// Each stage's name and total time.
    pub stages: Vec<(&'static str, std::time::Duration)>,
    last: Option<Instant>,
}

/// The stages in order, as [`StageTimes`] names them.
const STAGES: [(SteeringSystems, &str); 5] = [
    (SteeringSystems::Prepare, "Prepare"),
    (SteeringSystems::Behaviors, "Behaviors"),
    (SteeringSystems::Forces, "Forces"),
    (SteeringSystems::Integrate, "Integrate"),
    (SteeringSystems::Writeback, "Writeback"),
];

/// Adds a clock between every two stages of the plugin's chained set, so
/// [`StageTimes`] collects how long each takes.
pub fn time_stages(app: &mut App) {
    app.init_resource::<StageTimes>();
    app.world_mut().resource_mut::<StageTimes>().stages = STAGES
        .iter()
        .map(|(_, name)| (*name, Default::default()))
        .collect();
    let start = |mut times: ResMut<StageTimes>| times.last = Some(Instant::now());
    app.add_systems(FixedUpdate, start.before(SteeringSystems::Prepare));
    for (i, (stage, _)) in STAGES.iter().enumerate() {
        let lap = move |mut times: ResMut<StageTimes>| {
            let now = Instant::now();
            if let Some(last) = times.last {
                times.stages[i].1 += now - last;
            }
            times.last = Some(now);
        };
        let clock = lap.after(*stage);
        match STAGES.get(i + 1) {
            Some((next, _)) => app.add_systems(FixedUpdate, clock.before(*next)),
            None => app.add_systems(FixedUpdate, clock),
        };
    }
}
