//! The plugin in a game's world rather than the chapter's: an open world by
//! default, 3D agents on the XZ ground, a game's own units, physics engines
//! moving the agents, and the small promises the docs make.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use steering_lab::{BehaviorKind, Scenario, headless_app, run_steps};

#[test]
fn an_idle_agent_spawned_left_of_the_origin_stays_there() {
    // Bevy's 2D camera looks at the origin: a game spawns on both sides.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
    let agent = app
        .world_mut()
        .spawn((SteeringAgent, AgentPosition::new(-100.0, -50.0)))
        .id();
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(
        app.world().get::<AgentPosition>(agent).unwrap().0,
        Vec2::new(-100.0, -50.0)
    );
    let drawn = app.world().get::<Transform>(agent).unwrap().translation;
    assert_eq!(drawn, Vec3::new(-100.0, -50.0, 0.0));
}

/// The Critters mix around a target the game moves by its `Transform`
/// alone, on `ground`; every agent's `Transform` after 3 s. The agents
/// start at `up` off the ground, and the target at `up + 7`.
fn critters_on(ground: GroundPlane, up: f32) -> Vec<Vec3> {
    let mut app = headless_app(60.0, 5, SteeringSettings::critters());
    app.insert_resource(ground);
    let place = move |p: Vec2, up: f32| match ground {
        GroundPlane::Xy => p.extend(up),
        GroundPlane::Xz => Vec3::new(p.x, up, p.y),
    };
    let target = app
        .world_mut()
        .spawn((
            Transform::from_translation(place(Vec2::new(500.0, 350.0), up + 7.0)),
            MeasuredVelocity::default(),
        ))
        .id();
    let circle =
        move |time: Res<Time>, mut targets: Query<&mut Transform, Without<SteeringAgent>>| {
            let t = time.elapsed_secs();
            let p = Vec2::new(500.0, 350.0) + Vec2::from_angle(t) * 150.0;
            if let Ok(mut transform) = targets.get_mut(target) {
                transform.translation = place(p, up + 7.0);
            }
        };
    // The target's GlobalTransform follows its Transform once a frame, as
    // in a game.
    app.add_plugins(TransformPlugin)
        .add_systems(FixedUpdate, circle.before(SteeringSystems::Prepare));
    let mut agents = Vec::new();
    for i in 0..25 {
        let behavior = match i % 5 {
            0 => SteeringBehavior::Seek(SteeringTarget::Entity(target)),
            1 => SteeringBehavior::Arrive(SteeringTarget::Entity(target)),
            2 => SteeringBehavior::Pursue(SteeringTarget::Entity(target)),
            3 => SteeringBehavior::Wander,
            _ => SteeringBehavior::Graze(SteeringTarget::Entity(target)),
        };
        let pos = Vec2::new(100.0 + 31.0 * i as f32, 120.0 + 17.0 * i as f32);
        let agent = app
            .world_mut()
            .spawn((
                SteeringAgent,
                behavior,
                AgentPosition(pos),
                Transform::from_translation(place(pos, up)),
                Flocking::default(),
            ))
            .id();
        agents.push(agent);
    }
    run_steps(&mut app, 180, |_| {});
    app.update();
    agents
        .iter()
        .map(|a| app.world().get::<Transform>(*a).unwrap().translation)
        .collect()
}

#[test]
fn agents_on_the_xz_ground_move_as_on_the_xy_plane_and_keep_their_height() {
    let flat = critters_on(GroundPlane::Xy, 0.0);
    let ground = critters_on(GroundPlane::Xz, 2.5);
    for (xy, xz) in flat.iter().zip(&ground) {
        // (x, y) on the plane is (x, z) on the ground...
        assert!(
            (xy.x - xz.x).abs() < 1e-5 && (xy.y - xz.z).abs() < 1e-5,
            "{xy} vs {xz}"
        );
        // ...and the height the game gave is untouched.
        assert_eq!(xz.y, 2.5);
    }
    // They did move, and apart.
    assert!(flat[0].distance(flat[1]) > 1.0);
}

#[test]
fn on_the_xz_ground_a_heading_is_a_yaw() {
    for i in 0..32 {
        let heading = Dir2::new(Vec2::from_angle(i as f32 * 0.2 - 3.1)).unwrap();
        let turned = GroundPlane::Xz.rotation(heading) * Vec3::X;
        let expected = Vec3::new(heading.x, 0.0, heading.y);
        assert!((turned - expected).length() < 1e-5, "{heading:?}: {turned}");
        // About the up axis only: up stays up.
        assert!((GroundPlane::Xz.rotation(heading) * Vec3::Y - Vec3::Y).length() < 1e-5);
    }
}

#[test]
fn a_length_unit_scales_the_chapter_to_a_games_units() {
    // The chapter's slow arriver, from rest 400 px away, overshoots 64 px;
    // in a game of 0.4 units a metre (a hundredth of the model's 40),
    // through the settings the plugin makes for that unit, 0.64.
    let in_pixels = Scenario {
        behavior: BehaviorKind::Arrive,
        response: 1.0,
        ..Default::default()
    };
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SteeringPlugins::default().with_length_unit(0.4),
    ));
    let scaled = app.world().resource::<SteeringSettings>().agent;
    let in_units = Scenario {
        start: in_pixels.start * 0.01,
        max_speed: scaled.max_speed,
        max_force: scaled.max_force,
        slow_radius: scaled.slowing_radius,
        panic_radius: scaled.panic_radius,
        catch_radius: 0.1,
        ..in_pixels.clone()
    };
    let (px, units) = (in_pixels.run().unwrap(), in_units.run().unwrap());
    assert!(
        (units.overshoot_px - px.overshoot_px * 0.01).abs() < 1e-3,
        "{} vs {}",
        units.overshoot_px,
        px.overshoot_px
    );
    for (a, b) in px.trajectory.iter().zip(&units.trajectory) {
        assert!(
            (a.pos * 0.01 - b.pos).length() < 1e-4,
            "{} vs {}",
            a.pos,
            b.pos
        );
    }
    // Times, rates and weights do not scale.
    assert_eq!(
        scaled.response_time,
        SteeringParams::default().response_time
    );
    assert_eq!(scaled.wander_rate, SteeringParams::default().wander_rate);
}

/// A stand-in for a physics engine's body: its own position and velocity.
#[derive(Component, Default)]
struct Body {
    position: Vec2,
    velocity: Vec2,
}

fn bodies_to_agents(mut agents: Query<(&Body, &mut AgentPosition)>) {
    for (body, mut pos) in &mut agents {
        pos.0 = body.position;
    }
}

fn agents_to_bodies(mut agents: Query<(&AgentVelocity, &mut Body)>) {
    for (vel, mut body) in &mut agents {
        body.velocity = vel.0;
    }
}

/// The engine: moves bodies at half their velocity (a slow floor), so its
/// moves are not the plugin's.
fn physics(time: Res<Time>, mut bodies: Query<&mut Body>) {
    for mut body in &mut bodies {
        body.position = body.position + body.velocity * 0.5 * time.delta_secs();
    }
}

#[test]
fn with_a_physics_engine_the_plugin_only_chooses_velocities() {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    app.insert_resource(Writeback::Physics).add_systems(
        FixedUpdate,
        (
            bodies_to_agents.before(SteeringSystems::Prepare),
            (agents_to_bodies, physics)
                .chain()
                .after(SteeringSystems::Integrate),
        ),
    );
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(1000.0, 0.0))),
            Body::default(),
            Transform::from_xyz(3.0, 4.0, 5.0),
        ))
        .id();
    run_steps(&mut app, 60, |_| {});
    let world = app.world();
    let (body, vel, pos) = (
        world.get::<Body>(agent).unwrap(),
        world.get::<AgentVelocity>(agent).unwrap().0,
        world.get::<AgentPosition>(agent).unwrap().0,
    );
    // Steering chose a velocity toward the target...
    assert!(vel.x > 150.0, "{vel}");
    // ...the engine moved the body by half of it, and the agent is where
    // the body was at the start of the step, not where steering would have
    // put it.
    assert!(
        body.position.x > 0.0 && body.position.x < vel.x * 0.5,
        "{}",
        body.position
    );
    assert!(pos.x <= body.position.x && pos.x > 0.0, "{pos}");
    // And the Transform is the engine's business.
    assert_eq!(
        world.get::<Transform>(agent).unwrap().translation,
        Vec3::new(3.0, 4.0, 5.0)
    );
}

#[test]
fn writing_back_nothing_moves_agents_and_leaves_their_transforms() {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    app.insert_resource(Writeback::Nothing);
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            AgentVelocity(Vec2::new(60.0, 0.0)),
            Transform::from_xyz(7.0, 8.0, 9.0),
        ))
        .id();
    run_steps(&mut app, 60, |_| {});
    // It starts where its Transform put it (x = 7) and coasts 60 px in 1 s.
    let x = app.world().get::<AgentPosition>(agent).unwrap().x;
    assert!((x - 67.0).abs() < 1e-3, "{x}");
    assert_eq!(
        app.world().get::<Transform>(agent).unwrap().translation,
        Vec3::new(7.0, 8.0, 9.0)
    );
}

#[test]
fn writing_a_desired_velocity_changes_nothing() {
    // It is an output, for drawing: a system that writes it between the
    // stages must not steer anyone (before, it scaled a blend's steering and
    // was ignored by an idle agent).
    fn meddle(mut desired: Query<&mut DesiredVelocity>) {
        for mut d in &mut desired {
            d.0 = Vec2::new(0.0, 999.0);
        }
    }
    let run = |meddling: bool| {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        if meddling {
            app.add_systems(
                FixedUpdate,
                meddle
                    .after(SteeringSystems::Behaviors)
                    .before(SteeringSystems::Integrate),
            );
        }
        let agents: Vec<Entity> = [
            SteeringBehavior::Idle,
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(300.0, 0.0))),
            SteeringBehavior::Blend(vec![
                Weighted::new(
                    2.0,
                    SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(0.0, 300.0))),
                ),
                Weighted::new(1.0, SteeringBehavior::Wander),
            ]),
        ]
        .into_iter()
        .map(|behavior| {
            app.world_mut()
                .spawn((SteeringAgent, behavior, DesiredVelocity::default()))
                .id()
        })
        .collect();
        run_steps(&mut app, 30, |_| {});
        agents
            .iter()
            .map(|a| app.world().get::<AgentVelocity>(*a).unwrap().0)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn an_agent_made_of_an_entity_with_a_position_starts_drawn_there() {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    let entity = app.world_mut().spawn(AgentPosition::new(300.0, -40.0)).id();
    app.world_mut().entity_mut(entity).insert(SteeringAgent);
    assert_eq!(
        app.world().get::<AgentPreviousPosition>(entity).unwrap().0,
        Vec2::new(300.0, -40.0),
        "it would be drawn sweeping in from the origin"
    );
}

#[test]
fn the_neighbor_grid_can_be_kept_for_a_games_queries_without_flocking() {
    let grid_size = |keep: Option<f32>| {
        let settings = SteeringSettings {
            neighbor_grid: keep,
            ..default()
        };
        let mut app = headless_app(60.0, 1, settings);
        for i in 0..10 {
            app.world_mut()
                .spawn((SteeringAgent, AgentPosition::new(10.0 * i as f32, 0.0)));
        }
        run_steps(&mut app, 1, |_| {});
        let grid = app.world().resource::<NeighborGrid>();
        (grid.len(), grid.within(Vec2::ZERO, 25.0).count())
    };
    assert_eq!(grid_size(None), (0, 0), "no flocker, no grid");
    assert_eq!(grid_size(Some(50.0)), (10, 3), "kept: 0, 10 and 20 px");
}

#[test]
fn an_agent_given_only_a_transform_starts_where_it_puts_it() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SteeringPlugins::default().with_ground(GroundPlane::Xz),
    ));
    let agent = app
        .world_mut()
        .spawn((SteeringAgent, Transform::from_xyz(3.0, 0.5, -2.0)))
        .id();
    assert_eq!(
        app.world().get::<AgentPosition>(agent).unwrap().0,
        Vec2::new(3.0, -2.0)
    );
    app.update();
    app.update();
    assert_eq!(
        app.world().get::<Transform>(agent).unwrap().translation,
        Vec3::new(3.0, 0.5, -2.0)
    );
}

#[test]
fn a_still_agent_is_drawn_exactly_where_it_is_between_fixed_steps() {
    // Frames that fall at every fraction of the way between two fixed
    // steps: an agent that does not move must not be drawn a rounding
    // error off, a different one each frame.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
    let step = app.world().resource::<Time<Fixed>>().timestep();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        step.mul_f64(0.37),
    ));
    let places = [
        Vec2::new(3.0, -2.0),
        Vec2::new(-100.0, -50.0),
        Vec2::new(0.1, 0.7),
        Vec2::new(123.456, -9.87),
    ];
    let agents: Vec<Entity> = places
        .iter()
        .map(|p| {
            app.world_mut()
                .spawn((SteeringAgent, AgentPosition(*p)))
                .id()
        })
        .collect();
    for _ in 0..40 {
        app.update();
        for (agent, place) in agents.iter().zip(places) {
            let drawn = app.world().get::<Transform>(*agent).unwrap().translation;
            assert_eq!(drawn, place.extend(0.0));
        }
    }
}
