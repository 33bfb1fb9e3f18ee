//! The plugin as a game uses it: bad input, lost targets, paused time,
//! overrides, trails, measured velocities, interpolation and ordering.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use steering_test_support::{headless_app, run_steps};

fn app() -> App {
    headless_app(60.0, 1, SteeringSettings::critters())
}

/// Whether every agent's state, and the debug outputs of those that carry
/// them, are finite; false if there is no agent at all.
fn every_agent_is_finite(app: &mut App) -> bool {
    let mut query = app.world_mut().query::<(
        &AgentPosition,
        &AgentVelocity,
        &AgentHeading,
        Option<&DesiredVelocity>,
        Option<&SteeringForce>,
        &Transform,
    )>();
    let agents: Vec<_> = query.iter(app.world()).collect();
    !agents.is_empty()
        && agents.iter().all(|(p, v, h, d, f, t)| {
            p.is_finite()
                && v.is_finite()
                && h.is_finite()
                && d.is_none_or(|d| d.is_finite())
                && f.is_none_or(|f| f.is_finite())
                && t.is_finite()
        })
}

fn spawn_one_of_each(world: &mut World, target: SteeringTarget) {
    // A rock beside them, so the nonsense reaches avoidance too.
    world.spawn((
        SteeringObstacle::circle(30.0),
        AgentPosition::new(330.0, 200.0),
    ));
    for behavior in [
        SteeringBehavior::Idle,
        SteeringBehavior::Seek(target),
        SteeringBehavior::Arrive(target),
        SteeringBehavior::Flee(target),
        SteeringBehavior::Pursue(target),
        SteeringBehavior::Evade(target),
        SteeringBehavior::Wander,
        SteeringBehavior::Graze(target),
        SteeringBehavior::Blend(vec![
            Weighted::new(f32::NAN, SteeringBehavior::Seek(target)),
            Weighted::new(-2.0, SteeringBehavior::Wander),
            Weighted::new(0.5, SteeringBehavior::Arrive(target)),
        ]),
    ] {
        world.spawn((
            SteeringAgent,
            behavior,
            AgentPosition::new(300.0, 200.0),
            AgentTrail::default(),
            SteeringForce::default(),
            DesiredVelocity::default(),
        ));
    }
}

/// Parameters all set to `value`.
fn every_parameter(value: f32) -> SteeringParams {
    SteeringParams {
        max_speed: value,
        max_force: value,
        response_time: value,
        slowing_radius: value,
        panic_radius: value,
        wander_rate: value,
        graze_flee_weight: value,
        radius: value,
        mass: value,
        max_turn_rate: value,
        look_ahead_time: value,
        min_look_ahead: value,
        clearance: value,
        combine: Combine::Priority { threshold: value },
    }
}

#[test]
fn nonsense_settings_never_panic_or_spread_nan() {
    let nonsense = [0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    for value in nonsense {
        let settings = SteeringSettings {
            agent: every_parameter(value),
            trail_interval: value,
            trail_length: 0,
            wrap: Some(Rect::new(0.0, 0.0, value, value)),
            neighbor_grid: Some(value),
        };
        assert!(!settings.problems().is_empty(), "{value} is reported");
        let mut app = headless_app(60.0, 1, settings);
        spawn_one_of_each(
            app.world_mut(),
            SteeringTarget::Point(Vec2::new(500.0, 350.0)),
        );
        run_steps(&mut app, 120, |_| {});
        assert!(
            every_agent_is_finite(&mut app),
            "settings of {value} spread NaN"
        );
    }
}

#[test]
fn nonsense_overrides_and_positions_never_spread_nan() {
    let mut app = app();
    let world = app.world_mut();
    let target = SteeringTarget::Point(Vec2::new(f32::NAN, 1.0));
    for value in [0.0, -3.0, f32::NAN, f32::INFINITY] {
        let overrides = every_parameter(value);
        assert!(!overrides.problems("SteeringParams").is_empty());
        world.spawn((
            SteeringAgent,
            SteeringBehavior::Seek(target),
            overrides,
            SteeringForce::default(),
            DesiredVelocity::default(),
        ));
        world.spawn((
            SteeringAgent,
            SteeringBehavior::Graze(SteeringTarget::Point(Vec2::ZERO)),
            AgentPosition(Vec2::new(value, value)),
            AgentVelocity(Vec2::new(value, -value)),
            overrides,
        ));
    }
    run_steps(&mut app, 60, |_| {});
    assert!(every_agent_is_finite(&mut app));
}

#[test]
fn a_despawned_target_asks_for_no_steering() {
    let mut app = app();
    let world = app.world_mut();
    let mouse = world.spawn(AgentPosition::new(500.0, 350.0)).id();
    let seeker = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(SteeringTarget::Entity(mouse)),
            AgentPosition::new(100.0, 350.0),
            SteeringForce::default(),
        ))
        .id();
    run_steps(&mut app, 30, |_| {});
    let moving = app.world().get::<AgentVelocity>(seeker).unwrap().0;
    assert!(moving.x > 100.0, "it seeks the entity: {moving}");
    app.world_mut().despawn(mouse);
    run_steps(&mut app, 30, |_| {});
    let coasting = app.world().get::<AgentVelocity>(seeker).unwrap().0;
    assert!(coasting.is_finite());
    assert_eq!(
        app.world().get::<SteeringForce>(seeker).unwrap().0,
        Vec2::ZERO
    );
    assert!(coasting.x >= moving.x, "it keeps the velocity it had");
}

#[test]
fn paused_time_moves_nothing() {
    let mut app = app();
    spawn_one_of_each(
        app.world_mut(),
        SteeringTarget::Point(Vec2::new(500.0, 350.0)),
    );
    run_steps(&mut app, 10, |_| {});
    let snapshot = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query::<(&AgentPosition, &AgentVelocity, &WanderAngle)>();
        q.iter(app.world())
            .map(|(p, v, a)| (p.0, v.0, a.0))
            .collect::<Vec<_>>()
    };
    let before = snapshot(&mut app);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(before, snapshot(&mut app));
}

#[test]
fn an_override_replaces_the_global_value_for_that_agent_only() {
    let mut app = app();
    let world = app.world_mut();
    let goal = SteeringTarget::Point(Vec2::new(10_000.0, 0.0));
    let quick = world
        .spawn((SteeringAgent, SteeringBehavior::Seek(goal)))
        .id();
    let slow = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(goal),
            SteeringParams {
                max_speed: 50.0,
                ..default()
            },
        ))
        .id();
    run_steps(&mut app, 120, |_| {});
    let speed = |e| app.world().get::<AgentVelocity>(e).unwrap().length();
    assert!((speed(quick) - 220.0).abs() < 0.01);
    assert!((speed(slow) - 50.0).abs() < 0.01);
}

#[test]
fn trails_sample_every_005_s_and_keep_30_places() {
    let mut app = app();
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Wander,
            AgentPosition::new(500.0, 350.0),
            AgentTrail::default(),
        ))
        .id();
    // 0.5 s at 60 Hz: a sample every 3 steps.
    run_steps(&mut app, 30, |_| {});
    let len = app.world().get::<AgentTrail>(agent).unwrap().points.len();
    assert!((9..=10).contains(&len), "{len} samples in 0.5 s");
    run_steps(&mut app, 300, |_| {});
    let trail = app.world().get::<AgentTrail>(agent).unwrap();
    assert_eq!(trail.points.len(), 30);
    assert_eq!(
        *trail.points.back().unwrap(),
        app.world().get::<AgentPosition>(agent).unwrap().0
    );
}

#[test]
fn a_measured_velocity_follows_an_entity_moved_by_other_code() {
    let mut app = app();
    let mouse = app
        .world_mut()
        .spawn((AgentPosition::new(0.0, 0.0), MeasuredVelocity::default()))
        .id();
    // Move it 2 px a step: 120 px/s at 60 Hz.
    run_steps(&mut app, 60, |world| {
        world.get_mut::<AgentPosition>(mouse).unwrap().x += 2.0;
    });
    let measured = app.world().get::<MeasuredVelocity>(mouse).unwrap().velocity;
    assert!((measured.x - 120.0).abs() < 0.5, "measured {measured}");
    assert!(measured.y.abs() < 1e-3);
}

#[test]
fn a_pursuer_reads_the_velocity_of_an_agent_it_chases() {
    let mut app = app();
    let world = app.world_mut();
    let runner = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Idle,
            AgentPosition::new(500.0, 0.0),
            AgentVelocity(Vec2::new(0.0, 100.0)),
        ))
        .id();
    let pursuer = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Pursue(SteeringTarget::Entity(runner)),
            AgentPosition::new(60.0, 0.0),
            DesiredVelocity::default(),
        ))
        .id();
    run_steps(&mut app, 1, |_| {});
    // 440 px away: aim 1 s (100 px) ahead of the runner.
    let desired = app.world().get::<DesiredVelocity>(pursuer).unwrap().0;
    let runner_pos = app.world().get::<AgentPosition>(runner).unwrap().0;
    let aim = runner_pos + Vec2::new(0.0, 100.0);
    let expected = (aim - Vec2::new(60.0, 0.0)).normalize() * 220.0;
    assert!(
        (desired - expected).length() < 1.0,
        "{desired} vs {expected}"
    );
}

#[test]
fn transforms_are_interpolated_between_fixed_steps() {
    use bevy::time::TimeUpdateStrategy;
    use std::time::Duration;
    let mut app = app();
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Idle,
            AgentPosition::new(0.0, 0.0),
            AgentVelocity(Vec2::new(60.0, 0.0)),
        ))
        .id();
    run_steps(&mut app, 2, |_| {});
    let pos = app.world().get::<AgentPosition>(agent).unwrap().0;
    let previous = app.world().get::<AgentPreviousPosition>(agent).unwrap().0;
    assert_eq!(pos.x - previous.x, 1.0, "one step at 60 px/s moves 1 px");
    // Half a fixed step later, no step runs, and the drawn position is
    // halfway between the last two steps.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        0.5 / 60.0,
    )));
    app.update();
    assert_eq!(app.world().get::<AgentPosition>(agent).unwrap().0, pos);
    let drawn = app.world().get::<Transform>(agent).unwrap().translation.x;
    assert!(
        (drawn - (pos.x - 0.5)).abs() < 1e-3,
        "drawn at {drawn}, simulated at {}",
        pos.x
    );
}

#[test]
fn wrapping_moves_the_interpolation_with_the_agent() {
    let mut app = app();
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Idle,
            AgentPosition::new(999.5, 350.0),
            AgentVelocity(Vec2::new(60.0, 0.0)),
        ))
        .id();
    run_steps(&mut app, 1, |_| {});
    let pos = app.world().get::<AgentPosition>(agent).unwrap().0;
    let previous = app.world().get::<AgentPreviousPosition>(agent).unwrap().0;
    assert!((pos.x - 0.5).abs() < 1e-3, "wrapped to {pos}");
    assert!(
        (pos.x - previous.x - 1.0).abs() < 1e-3,
        "previous moved too: {previous}"
    );
}

#[test]
fn one_fixed_step_runs_while_paused() {
    let mut app = app();
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Idle,
            AgentVelocity(Vec2::new(60.0, 0.0)),
        ))
        .id();
    run_steps(&mut app, 1, |_| {});
    let x = app.world().get::<AgentPosition>(agent).unwrap().x;
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    app.update();
    assert_eq!(
        app.world().get::<AgentPosition>(agent).unwrap().x,
        x,
        "paused"
    );
    bevy_reynolds::run_one_fixed_step(app.world_mut());
    let stepped = app.world().get::<AgentPosition>(agent).unwrap().x;
    assert!(
        (stepped - x - 1.0).abs() < 1e-4,
        "one step at 60 px/s and 60 Hz: {x} -> {stepped}"
    );
}

#[test]
fn a_heading_turns_the_body_as_its_angle_would() {
    for i in -16i32..=16 {
        let angle = i as f32 * std::f32::consts::PI / 16.0;
        let heading = AgentHeading::from_angle(angle);
        let turned = heading.rotation() * Vec3::X;
        let expected = Quat::from_rotation_z(angle) * Vec3::X;
        assert!(
            (turned - expected).length() < 1e-5,
            "{angle}: {turned} vs {expected}"
        );
        assert!((heading.angle() - angle).abs() < 1e-5 || i.abs() == 16);
    }
    assert_eq!(AgentHeading::from_angle(f32::NAN), AgentHeading::default());
}
