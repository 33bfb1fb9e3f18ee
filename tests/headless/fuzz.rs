//! Whole worlds, fuzzed: random agents, behaviors, blends, overrides,
//! flocking, crowds, agents navigating to points and to other agents, and
//! targets, then settings, wrap rectangles, positions and
//! velocities overwritten mid-run with NaN, zero, negative, inverted and
//! huge values, and targets despawned. After every step: no panic, and every
//! position, velocity, heading, force, desired velocity and transform
//! finite.
//!
//! A fixed seed, so CI runs the same cases every time; `FUZZ_CASES` sets how
//! many (256 by default).

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use steering_test_support::{headless_app, run_steps};

use crate::support::hostile;

fn vec2() -> impl Strategy<Value = Vec2> + Clone {
    (hostile(), hostile()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn maybe(value: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Option<f32>> {
    proptest::option::weighted(0.3, value)
}

fn combine() -> impl Strategy<Value = Combine> {
    prop_oneof![
        Just(Combine::Weighted),
        hostile().prop_map(|threshold| Combine::Priority { threshold }),
    ]
}

fn priority() -> impl Strategy<Value = SteeringPriority> {
    prop_oneof![
        Just(SteeringPriority::Critical),
        Just(SteeringPriority::High),
        Just(SteeringPriority::Normal),
        Just(SteeringPriority::Low),
    ]
}

fn params() -> impl Strategy<Value = SteeringParams> {
    (
        (hostile(), hostile(), hostile(), hostile(), hostile()),
        (hostile(), hostile(), hostile(), hostile(), hostile()),
        (hostile(), hostile(), hostile()),
        combine(),
    )
        .prop_map(
            |(
                (max_speed, max_force, response_time, slowing_radius, panic_radius),
                (wander_rate, graze_flee_weight, radius, mass, max_turn_rate),
                (look_ahead_time, min_look_ahead, clearance),
                combine,
            )| SteeringParams {
                look_ahead_time,
                min_look_ahead,
                clearance,
                max_speed,
                max_force,
                response_time,
                slowing_radius,
                panic_radius,
                wander_rate,
                graze_flee_weight,
                radius,
                mass,
                max_turn_rate,
                combine,
            },
        )
}

fn overrides() -> impl Strategy<Value = SteeringParams> {
    (
        (
            maybe(hostile()),
            maybe(hostile()),
            maybe(hostile()),
            maybe(hostile()),
        ),
        (
            maybe(hostile()),
            maybe(hostile()),
            maybe(hostile()),
            maybe(hostile()),
        ),
        proptest::option::weighted(0.3, combine()),
    )
        .prop_map(
            |(
                (max_speed, max_force, response_time, radius),
                (mass, max_turn_rate, wander_rate, panic_radius),
                combine,
            )| {
                // A field left out stays at the chapter's value, so it
                // follows the settings.
                let chapter = SteeringParams::default();
                SteeringParams {
                    max_speed: max_speed.unwrap_or(chapter.max_speed),
                    max_force: max_force.unwrap_or(chapter.max_force),
                    response_time: response_time.unwrap_or(chapter.response_time),
                    radius: radius.unwrap_or(chapter.radius),
                    mass: mass.unwrap_or(chapter.mass),
                    max_turn_rate: max_turn_rate.unwrap_or(chapter.max_turn_rate),
                    wander_rate: wander_rate.unwrap_or(chapter.wander_rate),
                    panic_radius: panic_radius.unwrap_or(chapter.panic_radius),
                    combine: combine.unwrap_or(chapter.combine),
                    ..default()
                }
            },
        )
}

fn flocking() -> impl Strategy<Value = Flocking> {
    (
        (hostile(), hostile(), hostile(), hostile(), hostile()),
        proptest::option::of(hostile()),
        proptest::option::of(0usize..5),
        priority(),
        proptest::option::of(hostile()),
    )
        .prop_map(
            |(
                (separation_radius, neighbor_radius, sw, aw, cw),
                view_half_angle,
                max_neighbors,
                priority,
                cruise_speed,
            )| {
                Flocking {
                    rules: FlockParams {
                        separation_radius,
                        neighbor_radius,
                        separation_weight: sw,
                        alignment_weight: aw,
                        cohesion_weight: cw,
                        view_half_angle,
                        cruise_speed,
                    },
                    max_neighbors,
                    priority,
                }
            },
        )
}

fn avoid_agents() -> impl Strategy<Value = AvoidAgents> {
    ((hostile(), hostile(), hostile()), priority(), any::<u8>()).prop_map(
        |((horizon, strength, keep_right), priority, right_of_way)| AvoidAgents {
            rules: AvoidParams {
                horizon,
                strength,
                keep_right,
            },
            priority,
            right_of_way,
        },
    )
}

/// A target: a point anywhere, or one of the agents (by index, which may be
/// despawned later, or never have existed).
#[derive(Debug, Clone, Copy)]
enum TargetSpec {
    Point(Vec2),
    Agent(usize),
}

fn target() -> impl Strategy<Value = TargetSpec> {
    prop_oneof![
        vec2().prop_map(TargetSpec::Point),
        (0usize..40).prop_map(TargetSpec::Agent)
    ]
}

#[derive(Debug, Clone)]
enum BehaviorSpec {
    Idle,
    Wander,
    Seek(TargetSpec),
    Arrive(TargetSpec),
    Flee(TargetSpec),
    Pursue(TargetSpec),
    Evade(TargetSpec),
    Graze(TargetSpec),
    OffsetPursuit(TargetSpec, Vec2),
    FollowLeader(TargetSpec, f32),
    Interpose(TargetSpec, TargetSpec),
    Blend(Vec<(f32, u8, TargetSpec, SteeringPriority)>),
}

fn behavior() -> impl Strategy<Value = BehaviorSpec> {
    prop_oneof![
        Just(BehaviorSpec::Idle),
        Just(BehaviorSpec::Wander),
        target().prop_map(BehaviorSpec::Seek),
        target().prop_map(BehaviorSpec::Arrive),
        target().prop_map(BehaviorSpec::Flee),
        target().prop_map(BehaviorSpec::Pursue),
        target().prop_map(BehaviorSpec::Evade),
        target().prop_map(BehaviorSpec::Graze),
        (target(), vec2()).prop_map(|(t, offset)| BehaviorSpec::OffsetPursuit(t, offset)),
        (target(), hostile()).prop_map(|(t, behind)| BehaviorSpec::FollowLeader(t, behind)),
        (target(), target()).prop_map(|(a, b)| BehaviorSpec::Interpose(a, b)),
        proptest::collection::vec((hostile(), 0u8..6, target(), priority()), 0..4)
            .prop_map(BehaviorSpec::Blend),
    ]
}

/// Points of a path, an area or a polygon: few, any of them hostile, the
/// same point twice.
fn points() -> impl Strategy<Value = Vec<Vec2>> {
    prop_oneof![
        proptest::collection::vec(vec2(), 0..6),
        vec2().prop_map(|p| vec![p, p, p]),
    ]
}

#[derive(Debug, Clone)]
struct AgentSpec {
    pos: Vec2,
    vel: Vec2,
    behavior: BehaviorSpec,
    overrides: Option<SteeringParams>,
    flocking: Option<Flocking>,
    avoid: Option<AvoidAgents>,
    contain: Option<Vec<Vec2>>,
    path: Option<(Vec<Vec2>, bool, f32)>,
    ignore_obstacles: bool,
    navigate: Option<(TargetSpec, f32)>,
    hide: Option<(TargetSpec, f32)>,
    /// A formation it leads (its shape, by number, and spacing), and the
    /// agent whose formation it keeps.
    formation: (Option<(u8, f32)>, Option<usize>),
}

fn agent() -> impl Strategy<Value = AgentSpec> {
    (
        vec2(),
        vec2(),
        behavior(),
        proptest::option::weighted(0.4, overrides()),
        (
            proptest::option::weighted(0.6, flocking()),
            proptest::option::weighted(0.5, avoid_agents()),
        ),
        proptest::option::weighted(0.3, points()),
        (
            proptest::option::weighted(0.3, (points(), any::<bool>(), hostile())),
            proptest::bool::weighted(0.1),
            proptest::option::weighted(0.3, (target(), hostile())),
            proptest::option::weighted(0.2, (target(), hostile())),
            (
                proptest::option::weighted(0.2, (0u8..6, hostile())),
                proptest::option::weighted(0.3, 0usize..40),
            ),
        ),
    )
        .prop_map(
            |(
                pos,
                vel,
                behavior,
                overrides,
                (flocking, avoid),
                contain,
                (path, ignore_obstacles, navigate, hide, formation),
            )| {
                AgentSpec {
                    pos,
                    vel,
                    behavior,
                    overrides,
                    flocking,
                    avoid,
                    contain,
                    path,
                    ignore_obstacles,
                    navigate,
                    hide,
                    formation,
                }
            },
        )
}

/// A rock, a wall or a polygon, hostile numbers and all, placed by a
/// Position or a Transform.
fn obstacle() -> impl Strategy<Value = (SteeringObstacle, Vec2, bool)> {
    (
        prop_oneof![
            hostile().prop_map(SteeringObstacle::circle),
            (vec2(), vec2()).prop_map(|(a, b)| SteeringObstacle::wall(a, b)),
            points().prop_map(SteeringObstacle::polygon),
        ],
        vec2(),
        any::<bool>(),
    )
}

/// A door taking turns, hostile numbers and all (a run of 0, posts on one
/// point), placed as obstacles are.
fn door() -> impl Strategy<Value = (TakeTurns, Vec2, bool)> {
    (
        (vec2(), vec2(), any::<u32>(), hostile(), any::<u8>()),
        vec2(),
        any::<bool>(),
    )
        .prop_map(|((a, b, run, reach, right_of_way), at, by_position)| {
            let door = TakeTurns {
                run,
                reach,
                right_of_way,
                ..TakeTurns::between(a, b)
            };
            (door, at, by_position)
        })
}

fn rect() -> impl Strategy<Value = Option<Rect>> {
    proptest::option::weighted(
        0.7,
        (vec2(), vec2()).prop_map(|(min, max)| Rect { min, max }),
    )
}

/// Something that happens to the world between steps.
#[derive(Debug, Clone)]
enum Op {
    Step(u8),
    Settings(SteeringParams, Option<Rect>, usize, f32, Option<f32>),
    Teleport(usize, Vec2),
    Shove(usize, Vec2),
    Despawn(usize),
    Spawn(Box<AgentSpec>),
    Push(usize, Vec2, SteeringPriority),
    Obstacle(SteeringObstacle, Vec2, bool),
    Door(TakeTurns, Vec2, bool),
    MoveObstacle(usize, Vec2),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (1u8..8).prop_map(Op::Step),
        1 => (params(), rect(), 0usize..40, hostile(), maybe(hostile()))
            .prop_map(|(p, r, l, i, g)| Op::Settings(p, r, l, i, g)),
        2 => (0usize..40, vec2()).prop_map(|(a, p)| Op::Teleport(a, p)),
        2 => (0usize..40, vec2()).prop_map(|(a, v)| Op::Shove(a, v)),
        1 => (0usize..40).prop_map(Op::Despawn),
        1 => agent().prop_map(|spec| Op::Spawn(Box::new(spec))),
        2 => (0usize..40, vec2(), priority()).prop_map(|(a, f, p)| Op::Push(a, f, p)),
        2 => obstacle().prop_map(|(o, at, by_position)| Op::Obstacle(o, at, by_position)),
        1 => door().prop_map(|(d, at, by_position)| Op::Door(d, at, by_position)),
        1 => (0usize..40, vec2()).prop_map(|(i, at)| Op::MoveObstacle(i, at)),
    ]
}

/// Spawns `thing` at `at`, placed by a Position or by a Transform.
fn place(world: &mut World, thing: impl Bundle, at: Vec2, by_position: bool) -> Entity {
    if by_position {
        world.spawn((thing, AgentPosition(at))).id()
    } else {
        world
            .spawn((thing, Transform::from_translation(at.extend(0.0))))
            .id()
    }
}

/// A force a game's own behavior adds this step, at a priority.
#[derive(Component, Clone, Copy)]
struct ExtraForce(Vec2, SteeringPriority);

fn extra_forces(mut agents: Query<(&ExtraForce, &mut SteeringAccumulator)>) {
    for (extra, mut steering) in &mut agents {
        steering.add_force(extra.1, extra.0);
    }
}

fn resolve(target: TargetSpec, agents: &[Entity]) -> SteeringTarget {
    match target {
        TargetSpec::Point(p) => SteeringTarget::Point(p),
        TargetSpec::Agent(i) => agents
            .get(i)
            .copied()
            .map_or(SteeringTarget::Point(Vec2::ZERO), SteeringTarget::Entity),
    }
}

fn steer(kind: u8, target: SteeringTarget) -> SteeringBehavior {
    match kind {
        0 => SteeringBehavior::Seek(target),
        1 => SteeringBehavior::Arrive(target),
        2 => SteeringBehavior::Flee(target),
        3 => SteeringBehavior::Pursue(target),
        4 => SteeringBehavior::Evade(target),
        _ => SteeringBehavior::Wander,
    }
}

fn spawn(world: &mut World, spec: &AgentSpec, agents: &[Entity]) -> Entity {
    let t = |target| resolve(target, agents);
    let behavior = match &spec.behavior {
        BehaviorSpec::Idle => SteeringBehavior::Idle,
        BehaviorSpec::Wander => SteeringBehavior::Wander,
        BehaviorSpec::Seek(x) => SteeringBehavior::Seek(t(*x)),
        BehaviorSpec::Arrive(x) => SteeringBehavior::Arrive(t(*x)),
        BehaviorSpec::Flee(x) => SteeringBehavior::Flee(t(*x)),
        BehaviorSpec::Pursue(x) => SteeringBehavior::Pursue(t(*x)),
        BehaviorSpec::Evade(x) => SteeringBehavior::Evade(t(*x)),
        BehaviorSpec::Graze(x) => SteeringBehavior::Graze(t(*x)),
        BehaviorSpec::OffsetPursuit(x, offset) => SteeringBehavior::OffsetPursuit {
            leader: t(*x),
            offset: *offset,
        },
        BehaviorSpec::Interpose(a, b) => SteeringBehavior::Interpose(t(*a), t(*b)),
        BehaviorSpec::FollowLeader(x, behind) => SteeringBehavior::FollowLeader {
            leader: t(*x),
            behind: *behind,
        },
        BehaviorSpec::Blend(parts) => SteeringBehavior::Blend(
            parts
                .iter()
                .map(|(w, kind, x, p)| Weighted::new(*w, steer(*kind, t(*x))).with_priority(*p))
                .collect(),
        ),
    };
    let mut agent = world.spawn((
        SteeringAgent,
        behavior,
        AgentPosition(spec.pos),
        AgentVelocity(spec.vel),
        AgentTrail::default(),
        SteeringForce::default(),
        DesiredVelocity::default(),
        MeasuredVelocity::default(),
    ));
    if let Some(overrides) = spec.overrides {
        agent.insert(overrides);
    }
    if let Some(flocking) = spec.flocking {
        agent.insert(flocking);
    }
    if let Some(avoid) = spec.avoid {
        agent.insert(avoid);
    }
    if let Some(points) = &spec.contain {
        agent.insert(Containment::polygon(points.iter().copied()));
    }
    if let Some((points, looped, radius)) = &spec.path {
        let path = SteeringPath::new(points.iter().copied(), *looped);
        agent.insert(FollowPath::new(std::sync::Arc::new(path), *radius));
    }
    if spec.ignore_obstacles {
        agent.insert(IgnoreObstacles);
    }
    if let Some((goal, clearance)) = spec.navigate {
        let goal = match resolve(goal, agents) {
            SteeringTarget::Entity(entity) => NavigationGoal::Entity(entity),
            SteeringTarget::Point(p) => NavigationGoal::Point(p),
        };
        agent.insert(Navigate { goal, clearance });
    }
    if let Some((hunter, reach)) = spec.hide {
        agent.insert(Hide::from(resolve(hunter, agents)).within(reach));
    }
    if let Some((shape, spacing)) = spec.formation.0 {
        let shape = match shape {
            0 => FormationShape::Line,
            1 => FormationShape::Column,
            2 => FormationShape::Wedge,
            3 => FormationShape::Box,
            4 => FormationShape::Circle,
            _ => FormationShape::Slots(vec![Vec2::new(-spacing, 0.0), Vec2::NAN, Vec2::ZERO]),
        };
        agent.insert(Formation::new(shape, spacing));
    }
    if let Some(leader) = spec.formation.1.and_then(|i| agents.get(i)) {
        agent.insert(InFormation(*leader));
    }
    agent.id()
}

/// Steps checked, over every case.
static STEPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Every agent's state and outputs finite.
fn check(app: &mut App) -> Result<(), TestCaseError> {
    STEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut query = app.world_mut().query::<(
        Entity,
        &AgentPosition,
        &AgentVelocity,
        &AgentHeading,
        &SteeringForce,
        &DesiredVelocity,
        &Transform,
        &AgentTrail,
    )>();
    for (e, p, v, h, f, d, t, trail) in query.iter(app.world()) {
        prop_assert!(
            p.is_finite()
                && v.is_finite()
                && h.is_finite()
                && f.is_finite()
                && d.is_finite()
                && t.is_finite()
                && trail.points.iter().all(|p| p.is_finite()),
            "agent {e}: position {p:?}, velocity {v:?}, heading {h:?}, force {f:?}, desired {d:?}, transform {t:?}"
        );
    }
    Ok(())
}

fn run_world(initial: Vec<AgentSpec>, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    app.add_systems(FixedUpdate, extra_forces.in_set(SteeringSystems::Forces));
    let mut agents: Vec<Entity> = Vec::new();
    let mut obstacles: Vec<Entity> = Vec::new();
    for spec in &initial {
        let entity = spawn(app.world_mut(), spec, &agents);
        agents.push(entity);
    }
    let alive = |world: &World, i: usize, agents: &[Entity]| {
        agents
            .get(i % agents.len().max(1))
            .copied()
            .filter(|e| world.get_entity(*e).is_ok())
    };
    for op in ops {
        match op {
            Op::Step(n) => {
                for _ in 0..n {
                    run_steps(&mut app, 1, |_| {});
                    check(&mut app)?;
                }
            }
            Op::Settings(agent, wrap, trail_length, trail_interval, neighbor_grid) => {
                *app.world_mut().resource_mut::<SteeringSettings>() = SteeringSettings {
                    agent,
                    wrap,
                    trail_length,
                    trail_interval,
                    neighbor_grid,
                };
            }
            Op::Teleport(i, pos) => {
                if let Some(e) = alive(app.world(), i, &agents) {
                    app.world_mut().get_mut::<AgentPosition>(e).unwrap().0 = pos;
                }
            }
            Op::Shove(i, vel) => {
                if let Some(e) = alive(app.world(), i, &agents) {
                    app.world_mut().get_mut::<AgentVelocity>(e).unwrap().0 = vel;
                }
            }
            Op::Despawn(i) => {
                if let Some(e) = alive(app.world(), i, &agents) {
                    app.world_mut().despawn(e);
                }
            }
            Op::Spawn(spec) => {
                let entity = spawn(app.world_mut(), &spec, &agents);
                agents.push(entity);
            }
            Op::Push(i, force, priority) => {
                if let Some(e) = alive(app.world(), i, &agents) {
                    app.world_mut()
                        .entity_mut(e)
                        .insert(ExtraForce(force, priority));
                }
            }
            Op::Obstacle(obstacle, at, by_position) => {
                obstacles.push(place(app.world_mut(), obstacle, at, by_position));
            }
            Op::Door(door, at, by_position) => {
                obstacles.push(place(app.world_mut(), door, at, by_position));
            }
            Op::MoveObstacle(i, at) => {
                if let Some(&e) = obstacles.get(i % obstacles.len().max(1)) {
                    match app.world_mut().get_mut::<AgentPosition>(e) {
                        Some(mut p) => p.0 = at,
                        None => {
                            app.world_mut().get_mut::<Transform>(e).unwrap().translation =
                                at.extend(0.0)
                        }
                    }
                }
            }
        }
    }
    // And a last few steps, whatever the ops were.
    for _ in 0..3 {
        run_steps(&mut app, 1, |_| {});
        check(&mut app)?;
    }
    Ok(())
}

#[test]
fn hostile_worlds_never_panic_or_spread_nan() {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    let world = || {
        (
            proptest::collection::vec(agent(), 0..25),
            proptest::collection::vec(op(), 0..30),
        )
    };
    crate::support::fuzz_with_fixed_seed(cases, 7, world, |(initial, ops)| run_world(initial, ops));
    let steps = STEPS.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{cases} hostile worlds, {steps} steps checked, without a panic or a NaN");
}
