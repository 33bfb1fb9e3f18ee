//! One agent and one target in a headless Bevy app, stepped by the real
//! [`SteeringPlugins`], with the metrics the chapter quotes.

use std::fmt;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults;
use bevy_reynolds::reynolds::math::SteeringVector;
use bevy_reynolds::{Behavior, DEFAULT_SEED, Target};

use crate::shortest::shortest_length;
pub use steering_test_support::{compute_threads, run_steps};

/// Which behavior the scenario's agent uses, toward or away from the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BehaviorKind {
    /// [`SteeringBehavior::Seek`].
    Seek,
    /// [`SteeringBehavior::Arrive`].
    Arrive,
    /// [`SteeringBehavior::Flee`].
    Flee,
    /// [`SteeringBehavior::Pursue`].
    Pursue,
    /// [`SteeringBehavior::Evade`].
    Evade,
    /// [`SteeringBehavior::Wander`].
    Wander,
    /// [`SteeringBehavior::Graze`].
    Graze,
    /// [`FollowPath`] along the scenario's [`Level::path`] (and no other
    /// behavior).
    Path,
    /// [`Navigate`] to the target: a route round the level's obstacles,
    /// followed (and no other behavior).
    Navigate,
}

impl BehaviorKind {
    /// Every kind, in the order of the command line's help.
    pub const ALL: [BehaviorKind; 9] = [
        BehaviorKind::Seek,
        BehaviorKind::Arrive,
        BehaviorKind::Flee,
        BehaviorKind::Pursue,
        BehaviorKind::Evade,
        BehaviorKind::Wander,
        BehaviorKind::Graze,
        BehaviorKind::Path,
        BehaviorKind::Navigate,
    ];

    /// The lowercase name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BehaviorKind::Seek => "seek",
            BehaviorKind::Arrive => "arrive",
            BehaviorKind::Flee => "flee",
            BehaviorKind::Pursue => "pursue",
            BehaviorKind::Evade => "evade",
            BehaviorKind::Wander => "wander",
            BehaviorKind::Graze => "graze",
            BehaviorKind::Path => "path",
            BehaviorKind::Navigate => "navigate",
        }
    }

    /// The kind with this name, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The plugin's behavior toward `target`.
    pub fn behavior(self, target: Entity) -> SteeringBehavior {
        self.either(target)
    }

    /// The same behavior for a flyer.
    pub fn flyer_behavior(self, target: Entity) -> FlyerBehavior {
        self.either(target)
    }

    fn either<V: SteeringVector>(self, target: Entity) -> Behavior<V> {
        let target = Target::Entity(target);
        match self {
            BehaviorKind::Seek => Behavior::Seek(target),
            BehaviorKind::Arrive => Behavior::Arrive(target),
            BehaviorKind::Flee => Behavior::Flee(target),
            BehaviorKind::Pursue => Behavior::Pursue(target),
            BehaviorKind::Evade => Behavior::Evade(target),
            BehaviorKind::Wander => Behavior::Wander,
            BehaviorKind::Graze => Behavior::Graze(target),
            BehaviorKind::Path | BehaviorKind::Navigate => Behavior::Idle,
        }
    }
}

/// What a scenario's world holds besides the agent and its target: rocks,
/// walls, an area to stay in and a path to follow.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Level {
    /// Circles, as centre and radius, in pixels.
    pub circles: Vec<(Vec2, f32)>,
    /// Walls, as their two ends.
    pub walls: Vec<(Vec2, Vec2)>,
    /// A polygon the agent is kept inside.
    pub contain: Option<Vec<Vec2>>,
    /// A path's points, for [`BehaviorKind::Path`].
    pub path: Vec<Vec2>,
    /// The path's radius, in pixels.
    pub path_radius: f32,
    /// Whether the path loops back to its start.
    pub path_loop: bool,
}

impl Level {
    /// Whether it has anything to avoid.
    fn has_obstacles(&self) -> bool {
        !self.circles.is_empty() || !self.walls.is_empty()
    }

    /// The least distance from a body of `radius` at `p` to any circle or
    /// wall (negative: inside one).
    pub fn clearance(&self, p: Vec2, radius: f32) -> f32 {
        let circles = self
            .circles
            .iter()
            .map(|(c, r)| p.distance(*c) - r - radius);
        let walls = self.walls.iter().map(|(a, b)| {
            p.distance(bevy_reynolds::reynolds::math::closest_on_segment(p, *a, *b)) - radius
        });
        circles.chain(walls).fold(f32::INFINITY, f32::min)
    }

    fn validate(&self) -> Result<(), ScenarioError> {
        for (c, r) in &self.circles {
            if !(c.is_finite() && r.is_finite() && *r > 0.0) {
                return Err(ScenarioError {
                    field: "obstacle",
                    message: format!(
                        "a circle needs a finite centre and a positive radius, not {},{} radius {r}",
                        c.x, c.y
                    ),
                });
            }
        }
        for (a, b) in &self.walls {
            if !(a.is_finite() && b.is_finite()) {
                return Err(ScenarioError {
                    field: "wall",
                    message: format!("a wall's ends must be finite, not {a} and {b}"),
                });
            }
        }
        if let Some(points) = &self.contain
            && (points.len() < 3 || points.iter().any(|p| !p.is_finite()))
        {
            return Err(ScenarioError {
                field: "contain-polygon",
                message: format!(
                    "an area needs 3 or more finite corners, not {}",
                    points.len()
                ),
            });
        }
        if self.path.iter().any(|p| !p.is_finite()) {
            return Err(ScenarioError {
                field: "path",
                message: "a path's points must be finite".to_string(),
            });
        }
        if !(self.path_radius.is_finite() && self.path_radius >= 0.0) {
            return Err(ScenarioError {
                field: "path-radius",
                message: format!("must be 0 or more and finite, not {}", self.path_radius),
            });
        }
        Ok(())
    }
}

/// One agent, one target moving at a constant velocity, and the model's
/// parameters. [`Scenario::default`] is the chapter's slow-to-settle case's
/// setup with the quick response: an arriver from rest, 400 px left of a
/// still target at the origin, at 60 Hz for 20 s.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// What the agent does.
    pub behavior: BehaviorKind,
    /// Where the agent starts, in pixels.
    pub start: Vec2,
    /// The agent's starting velocity, in pixels a second.
    pub start_vel: Vec2,
    /// Where the target starts, in pixels.
    pub target: Vec2,
    /// The target's constant velocity, in pixels a second.
    pub target_vel: Vec2,
    /// The response time, in seconds.
    pub response: f32,
    /// Fixed steps a second.
    pub hz: f64,
    /// Simulated seconds to run.
    pub seconds: f64,
    /// Arrive's slowing radius, in pixels.
    pub slow_radius: f32,
    /// Flee's and evade's panic radius, in pixels.
    pub panic_radius: f32,
    /// Top speed, in pixels a second.
    pub max_speed: f32,
    /// Steering cap, in pixels a second per second.
    pub max_force: f32,
    /// The plugin's seed, for wander.
    pub seed: u64,
    /// How close counts as catching the target, in pixels.
    pub catch_radius: f32,
    /// The agent's body radius, in pixels.
    pub radius: f32,
    /// The agent's mass.
    pub mass: f32,
    /// The fastest the agent's velocity may turn, in degrees a second
    /// (infinite: no limit).
    pub max_turn_rate_deg_s: f32,
    /// How the agent's steering forces combine.
    pub combine: Combine,
    /// Obstacles, walls, an area and a path.
    pub level: Level,
    /// Flown by a [`SteeringFlyer`] in 3D rather than walked: the plane's
    /// x along this axis, its y square to it, and the run measured back on
    /// that plane (the model's numbers, for flyers, in any direction). No
    /// obstacles, area or path.
    pub flight: Option<Vec3>,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            behavior: BehaviorKind::Arrive,
            start: Vec2::new(-400.0, 0.0),
            start_vel: Vec2::ZERO,
            target: Vec2::ZERO,
            target_vel: Vec2::ZERO,
            response: defaults::RESPONSE_TIME,
            hz: 60.0,
            seconds: 20.0,
            slow_radius: defaults::SLOWING_RADIUS,
            panic_radius: defaults::PANIC_RADIUS,
            max_speed: defaults::MAX_SPEED,
            max_force: defaults::MAX_FORCE,
            seed: DEFAULT_SEED,
            catch_radius: 10.0,
            radius: defaults::RADIUS,
            mass: defaults::MASS,
            max_turn_rate_deg_s: f32::INFINITY,
            combine: Combine::Weighted,
            level: Level::default(),
            flight: None,
        }
    }
}

impl Scenario {
    /// The lab's chase: an agent 300 px from a target crossing in front of
    /// it, right at 100 px/s, for 6 s. Pursue catches it sooner than seek.
    pub fn chase(behavior: BehaviorKind) -> Self {
        Self {
            behavior,
            start: Vec2::new(0.0, 300.0),
            target: Vec2::ZERO,
            target_vel: Vec2::new(100.0, 0.0),
            seconds: 6.0,
            ..Default::default()
        }
    }
}

/// The most fixed steps one scenario may run: about 19 hours at 144 Hz.
pub const MAX_STEPS: u64 = 10_000_000;

/// Why a scenario cannot run: which parameter, and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// The parameter, as its command-line flag names it (`hz`, `start`).
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScenarioError {}

fn positive(field: &'static str, value: f64) -> Result<(), ScenarioError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(ScenarioError {
            field,
            message: format!("must be a positive, finite number, not {value}"),
        })
    }
}

fn finite_pair(field: &'static str, value: Vec2) -> Result<(), ScenarioError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ScenarioError {
            field,
            message: format!("must be two finite numbers, not {},{}", value.x, value.y),
        })
    }
}

/// One fixed step's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Simulated time after the step, in seconds.
    pub t: f64,
    /// The agent's position.
    pub pos: Vec2,
    /// The agent's velocity.
    pub vel: Vec2,
    /// The way the agent faces, a unit vector.
    pub heading: Vec2,
    /// The target's position.
    pub target: Vec2,
    /// The path cursor's arc length (0 without a path).
    pub cursor: f32,
}

/// What a scenario measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The farthest the agent got past the target, along the line from its
    /// start to the target's start, in pixels; 0 if it never passed.
    pub overshoot_px: f32,
    /// The time after which the agent stayed within 1 px of the target, in
    /// seconds; `None` if it was not within 1 px at the end.
    pub settle_s: Option<f64>,
    /// The first time the agent came within the catch radius of the
    /// target, in seconds; `None` if it never did.
    pub catch_s: Option<f64>,
    /// The largest speed seen, in pixels a second.
    pub max_speed: f32,
    /// The fastest the agent's heading turned in any one step, in degrees a
    /// second: the largest |Δheading| / dt over the run.
    pub max_turn_rate_deg_s: f32,
    /// The least distance between the body's edge and any circle or wall
    /// over every step, in pixels (negative: it went in); `None` without
    /// obstacles.
    pub min_clearance_px: Option<f32>,
    /// The first time the agent was within 5 px of the target, or of the end
    /// of an open path, in seconds.
    pub reach_s: Option<f64>,
    /// The farthest the agent was from its path, in pixels.
    pub max_cross_track_px: Option<f32>,
    /// When the cursor first went once round a looped path, in seconds.
    pub lap_s: Option<f64>,
    /// The farthest the agent was outside its area, in pixels.
    pub max_outside_px: Option<f32>,
    /// The length of the first route a navigating agent was given, in
    /// pixels.
    pub route_px: Option<f32>,
    /// The shortest way for the route's body (the agent's radius and its
    /// clearance) from where its first route starts (it heads straight for
    /// its goal until the route comes) to the target among the level's rocks and
    /// walls, on their visibility graph ([`crate::shortest`]), in pixels:
    /// for a navigating agent on a level of at most
    /// [`MOST_SHAPES`](crate::shortest::MOST_SHAPES) shapes.
    pub shortest_px: Option<f32>,
    /// How far the agent walked, in pixels.
    pub walked_px: f32,
    /// For a flown scenario, the farthest the flyer left the plane it is
    /// measured on, in pixels.
    pub off_plane_px: Option<f32>,
    /// Fixed steps run.
    pub steps: u64,
    /// Every step, in order; the last is the final state.
    pub trajectory: Vec<Sample>,
}

impl Report {
    /// The state after the last step (the start, if no step ran).
    pub fn last(&self) -> Sample {
        *self
            .trajectory
            .last()
            .expect("a trajectory starts with t = 0")
    }
}

/// The scenario's target, moved at its constant velocity before the agents
/// steer each step.
#[derive(Component)]
struct MovingTarget;

fn move_targets(
    time: Res<Time>,
    mut targets: Query<(&mut AgentPosition, &AgentVelocity), With<MovingTarget>>,
    mut flying: Query<(&mut FlyerPosition, &FlyerVelocity), With<MovingTarget>>,
) {
    for (mut pos, vel) in &mut targets {
        pos.0 += vel.0 * time.delta_secs();
    }
    for (mut pos, vel) in &mut flying {
        pos.0 += vel.0 * time.delta_secs();
    }
}

/// `app` with the lab's own systems: its scenarios' targets moving.
fn with_moving_targets(mut app: App) -> App {
    app.add_systems(FixedUpdate, move_targets.before(SteeringSystems::Prepare));
    app
}

/// The plane a flown scenario is measured on: its x along `axis`, its y
/// square to it.
#[derive(Clone, Copy)]
struct FlightPlane {
    x: Vec3,
    y: Vec3,
}

impl FlightPlane {
    fn along(axis: Vec3) -> Self {
        let x = axis.normalize_or(Vec3::X);
        Self {
            x,
            y: Vec3::left_of(x),
        }
    }

    /// A point of the plane, in 3D.
    fn lift(self, v: Vec2) -> Vec3 {
        self.x * v.x + self.y * v.y
    }

    /// A point of 3D, on the plane.
    fn flat(self, v: Vec3) -> Vec2 {
        Vec2::new(v.dot(self.x), v.dot(self.y))
    }
}

/// A headless app with the real plugin, stepping at `hz` with one fixed step
/// per `update`. Used by every scenario and experiment in the lab.
pub fn headless_app(hz: f64, seed: u64, settings: SteeringSettings) -> App {
    headless_app_with_threads(hz, seed, settings, None)
}

/// [`headless_app`] with Bevy's compute pool sized to `threads` (one a core
/// if `None`; see [`compute_threads`]).
pub fn headless_app_with_threads(
    hz: f64,
    seed: u64,
    settings: SteeringSettings,
    threads: Option<usize>,
) -> App {
    with_moving_targets(steering_test_support::headless_app_with_threads(
        hz, seed, settings, threads,
    ))
}

/// What [`headless_app_with_threads`] is without the plugin: the baseline
/// of the plugin's fixed cost.
pub fn empty_app_with_threads(hz: f64, threads: Option<usize>) -> App {
    with_moving_targets(steering_test_support::empty_app_with_threads(hz, threads))
}

impl Scenario {
    /// Checks every parameter, naming the first bad one.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        positive("hz", self.hz)?;
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(ScenarioError {
                field: "seconds",
                message: format!(
                    "must be a finite number of seconds, 0 or more, not {}",
                    self.seconds
                ),
            });
        }
        positive("response", self.response.into())?;
        positive("slow-radius", self.slow_radius.into())?;
        positive("panic-radius", self.panic_radius.into())?;
        positive("max-speed", self.max_speed.into())?;
        positive("max-force", self.max_force.into())?;
        positive("catch-radius", self.catch_radius.into())?;
        positive("mass", self.mass.into())?;
        if !(self.radius.is_finite() && self.radius >= 0.0) {
            return Err(ScenarioError {
                field: "radius",
                message: format!("must be a finite number, 0 or more, not {}", self.radius),
            });
        }
        if self.max_turn_rate_deg_s.is_nan() || self.max_turn_rate_deg_s < 0.0 {
            return Err(ScenarioError {
                field: "max-turn-rate",
                message: format!(
                    "must be 0 or more degrees a second (or inf for no limit), not {}",
                    self.max_turn_rate_deg_s
                ),
            });
        }
        if let Combine::Priority { threshold } = self.combine
            && !(threshold.is_finite() && threshold >= 0.0)
        {
            return Err(ScenarioError {
                field: "combine",
                message: format!("the priority threshold must be 0 or more, not {threshold}"),
            });
        }
        finite_pair("start", self.start)?;
        finite_pair("start-vel", self.start_vel)?;
        finite_pair("target", self.target)?;
        finite_pair("target-vel", self.target_vel)?;
        self.level.validate()?;
        if self.behavior == BehaviorKind::Path && self.level.path.is_empty() {
            return Err(ScenarioError {
                field: "path",
                message: "the path behavior needs a --path".to_string(),
            });
        }
        if self.steps() > MAX_STEPS {
            return Err(ScenarioError {
                field: "seconds",
                message: format!(
                    "{} s at {} Hz is {} steps, more than the {MAX_STEPS} a run may take",
                    self.seconds,
                    self.hz,
                    self.steps()
                ),
            });
        }
        Ok(())
    }

    /// Fixed steps the scenario runs.
    pub fn steps(&self) -> u64 {
        (self.seconds * self.hz).round() as u64
    }

    /// The global settings the scenario's agent runs with: the scenario's
    /// numbers, and an open world (no wrap).
    pub fn settings(&self) -> SteeringSettings {
        SteeringSettings {
            agent: SteeringParams {
                max_speed: self.max_speed,
                max_force: self.max_force,
                response_time: self.response,
                slowing_radius: self.slow_radius,
                panic_radius: self.panic_radius,
                radius: self.radius,
                mass: self.mass,
                max_turn_rate: self.max_turn_rate_deg_s.to_radians(),
                combine: self.combine,
                ..default()
            },
            wrap: None,
            ..default()
        }
    }

    /// Runs the scenario through the real plugin.
    pub fn run(&self) -> Result<Report, ScenarioError> {
        self.validate()?;
        if let Some(axis) = self.flight {
            return self.fly(axis);
        }
        let mut app = headless_app(self.hz, self.seed, self.settings());
        let world = app.world_mut();
        let target = world
            .spawn((
                MovingTarget,
                AgentPosition(self.target),
                AgentVelocity(self.target_vel),
            ))
            .id();
        // Facing the way it moves, or, from rest, toward the target: what a
        // turn-limited agent starts along.
        let facing = Dir2::new(self.start_vel)
            .or_else(|_| Dir2::new(self.target - self.start))
            .unwrap_or(Dir2::X);
        let agent = world
            .spawn((
                SteeringAgent,
                self.behavior.behavior(target),
                AgentPosition(self.start),
                AgentVelocity(self.start_vel),
                AgentHeading(facing),
            ))
            .id();
        let level = &self.level;
        for (center, radius) in &level.circles {
            world.spawn((SteeringObstacle::circle(*radius), AgentPosition(*center)));
        }
        for (a, b) in &level.walls {
            world.spawn((SteeringObstacle::wall(*a, *b), AgentPosition(Vec2::ZERO)));
        }
        if let Some(points) = &level.contain {
            world
                .entity_mut(agent)
                .insert(Containment::polygon(points.iter().copied()));
        }
        let path = (!level.path.is_empty()).then(|| {
            Arc::new(SteeringPath::new(
                level.path.iter().copied(),
                level.path_loop,
            ))
        });
        if self.behavior == BehaviorKind::Navigate {
            world.entity_mut(agent).insert(Navigate::to_entity(target));
        }
        if let (BehaviorKind::Path, Some(path)) = (self.behavior, &path) {
            world
                .entity_mut(agent)
                .insert(FollowPath::new(path.clone(), level.path_radius));
        }

        let dt = 1.0 / self.hz;
        let mut route_px = None;
        let mut route_from = self.start;
        let mut trajectory = Vec::with_capacity(self.steps() as usize + 1);
        trajectory.push(Sample {
            t: 0.0,
            pos: self.start,
            vel: self.start_vel,
            heading: facing.as_vec2(),
            target: self.target,
            cursor: 0.0,
        });
        run_steps(&mut app, self.steps(), |world| {
            let t = trajectory.len() as f64 * dt;
            trajectory.push(Sample {
                t,
                pos: world.get::<AgentPosition>(agent).map_or(Vec2::NAN, |p| p.0),
                vel: world.get::<AgentVelocity>(agent).map_or(Vec2::NAN, |v| v.0),
                heading: world
                    .get::<AgentHeading>(agent)
                    .map_or(Vec2::NAN, |h| h.0.as_vec2()),
                target: world
                    .get::<AgentPosition>(target)
                    .map_or(Vec2::NAN, |p| p.0),
                cursor: world.get::<FollowPath>(agent).map_or(0.0, |f| f.cursor),
            });
            if route_px.is_none()
                && let Some(route) = world.get::<NavigationRoute>(agent)
                && route.points.len() > 1
            {
                route_px = Some(route.remaining(route.points[0]));
                route_from = route.points[0];
            }
        });
        let mut report = self.measure(trajectory, path.as_deref());
        report.route_px = route_px;
        if self.behavior == BehaviorKind::Navigate {
            let body = self.radius * (1.0 + Navigate::to(self.target).clearance);
            report.shortest_px = shortest_length(&self.level, route_from, self.target, body);
        }
        Ok(report)
    }

    /// The scenario flown by a flyer, its plane's x along `axis`.
    fn fly(&self, axis: Vec3) -> Result<Report, ScenarioError> {
        let level = &self.level;
        let has_level = !(level.circles.is_empty()
            && level.walls.is_empty()
            && level.contain.is_none()
            && level.path.is_empty());
        if has_level || matches!(self.behavior, BehaviorKind::Path | BehaviorKind::Navigate) {
            return Err(ScenarioError {
                field: "fly",
                message:
                    "flyers fly the behaviors toward a target, with no obstacles, area or path"
                        .into(),
            });
        }
        if !(axis.is_finite() && axis != Vec3::ZERO) {
            return Err(ScenarioError {
                field: "fly",
                message: format!("must be an axis of some length, not {axis}"),
            });
        }
        let plane = FlightPlane::along(axis);
        let mut app = headless_app(self.hz, self.seed, self.settings());
        let world = app.world_mut();
        let target = world
            .spawn((
                MovingTarget,
                FlyerPosition(plane.lift(self.target)),
                FlyerVelocity(plane.lift(self.target_vel)),
            ))
            .id();
        let facing = Dir2::new(self.start_vel)
            .or_else(|_| Dir2::new(self.target - self.start))
            .unwrap_or(Dir2::X);
        let attitude = Attitude::new(plane.lift(facing.as_vec2()), Vec3::Y);
        let flyer = world
            .spawn((
                SteeringFlyer,
                self.behavior.flyer_behavior(target),
                FlyerPosition(plane.lift(self.start)),
                FlyerVelocity(plane.lift(self.start_vel)),
                FlyerAttitude(attitude),
            ))
            .id();
        let dt = 1.0 / self.hz;
        let mut trajectory = Vec::with_capacity(self.steps() as usize + 1);
        trajectory.push(Sample {
            t: 0.0,
            pos: self.start,
            vel: self.start_vel,
            heading: plane.flat(attitude.forward),
            target: self.target,
            cursor: 0.0,
        });
        let normal = plane.x.cross(plane.y);
        let mut off_plane = 0.0f32;
        run_steps(&mut app, self.steps(), |world| {
            let t = trajectory.len() as f64 * dt;
            let pos = world.get::<FlyerPosition>(flyer).map_or(Vec3::NAN, |p| p.0);
            off_plane = off_plane.max(pos.dot(normal).abs());
            trajectory.push(Sample {
                t,
                pos: plane.flat(pos),
                vel: plane.flat(world.get::<FlyerVelocity>(flyer).map_or(Vec3::NAN, |v| v.0)),
                heading: plane.flat(
                    world
                        .get::<FlyerAttitude>(flyer)
                        .map_or(Vec3::NAN, |a| a.forward),
                ),
                target: plane.flat(
                    world
                        .get::<FlyerPosition>(target)
                        .map_or(Vec3::NAN, |p| p.0),
                ),
                cursor: 0.0,
            });
        });
        let mut report = self.measure(trajectory, None);
        report.off_plane_px = Some(off_plane);
        Ok(report)
    }

    fn measure(&self, trajectory: Vec<Sample>, path: Option<&SteeringPath>) -> Report {
        let along = (self.target - self.start).normalize_or_zero();
        let overshoot_px = trajectory
            .iter()
            .map(|s| (s.pos - s.target).dot(along))
            .fold(0.0f32, f32::max);
        let last_outside = trajectory
            .iter()
            .rposition(|s| s.pos.distance(s.target) > 1.0);
        let settle_s = match last_outside {
            None => Some(0.0),
            Some(i) if i + 1 < trajectory.len() => Some(trajectory[i + 1].t),
            Some(_) => None,
        };
        let catch_s = trajectory
            .iter()
            .find(|s| s.pos.distance(s.target) <= self.catch_radius)
            .map(|s| s.t);
        let max_speed = trajectory
            .iter()
            .map(|s| s.vel.length())
            .fold(0.0f32, f32::max);
        let max_turn_rate_deg_s = trajectory
            .windows(2)
            // atan2, not `angle_to`, whose acos is coarse for small turns.
            .map(|w| {
                let (a, b) = (w[0].heading, w[1].heading);
                a.perp_dot(b).atan2(a.dot(b)).abs().to_degrees() * self.hz as f32
            })
            .fold(0.0f32, f32::max);
        let level = &self.level;
        let min_clearance_px = level.has_obstacles().then(|| {
            trajectory
                .iter()
                .map(|s| level.clearance(s.pos, self.radius))
                .fold(f32::INFINITY, f32::min)
        });
        // The path's end, or else the target, is what the agent reaches.
        let goal = |s: &Sample| match path {
            Some(path) if self.behavior == BehaviorKind::Path => {
                (!path.is_looped()).then(|| path.point_at(path.length()))
            }
            _ => Some(s.target),
        };
        let reach_s = trajectory
            .iter()
            .find(|s| goal(s).is_some_and(|g| s.pos.distance(g) <= 5.0))
            .map(|s| s.t);
        let followed = path.filter(|_| self.behavior == BehaviorKind::Path);
        let max_cross_track_px = followed.map(|path| {
            trajectory
                .iter()
                .map(|s| path.distance(s.pos))
                .fold(0.0f32, f32::max)
        });
        let lap_s = followed.filter(|path| path.is_looped()).and_then(|path| {
            trajectory
                .iter()
                .find(|s| s.cursor >= path.length())
                .map(|s| s.t)
        });
        let max_outside_px = level.contain.as_ref().map(|points| {
            trajectory
                .iter()
                .map(|s| bevy_reynolds::reynolds::level::outside_by(s.pos, points))
                .fold(0.0f32, f32::max)
        });
        let walked_px = trajectory
            .windows(2)
            .map(|w| w[0].pos.distance(w[1].pos))
            .sum();
        Report {
            route_px: None,
            shortest_px: None,
            off_plane_px: None,
            walked_px,
            min_clearance_px,
            reach_s,
            max_cross_track_px,
            lap_s,
            max_outside_px,
            overshoot_px,
            settle_s,
            catch_s,
            max_speed,
            max_turn_rate_deg_s,
            steps: trajectory.len() as u64 - 1,
            trajectory,
        }
    }
}
