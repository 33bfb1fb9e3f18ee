//! The open steering pipeline through the real plugin: a behavior written by
//! a game joins the same capped sum, priority against the weighted sum,
//! per-agent parameters that follow the defaults, body radii, mass and the
//! turn-rate limit.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::{behaviors, combine, model, wander};
use steering_lab::{BehaviorKind, Scenario, headless_app, headless_app_with_threads, run_steps};

const DT: f32 = 1.0 / 60.0;

fn app() -> App {
    headless_app(60.0, 1, SteeringSettings::default())
}

/// A game's own behavior: a constant push, at a priority, while switched on.
#[derive(Component, Clone, Copy)]
struct Push {
    force: Vec2,
    priority: SteeringPriority,
    on: bool,
}

fn push(mut agents: Query<(&Push, &mut SteeringAccumulator)>) {
    for (push, mut steering) in &mut agents {
        if push.on {
            steering.add_force(push.priority, push.force);
        }
    }
}

fn app_with_push() -> App {
    let mut app = app();
    app.add_systems(FixedUpdate, push.in_set(SteeringSystems::Forces));
    app
}

fn get<C: Component + Copy>(app: &App, entity: Entity) -> C {
    *app.world().get::<C>(entity).expect("the agent has it")
}

/// A seeker of a point far to the right, from rest: its own steering is
/// `(220, 0) / 0.15`, well over the cap.
fn seeker(app: &mut App, combine: Combine, push: Push) -> Entity {
    app.world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(10_000.0, 0.0))),
            SteeringParams {
                combine,
                ..default()
            },
            push,
            SteeringForce::default(),
        ))
        .id()
}

const SEEK_FORCE: Vec2 = Vec2::new(220.0 / 0.15, 0.0);

#[test]
fn a_games_own_behavior_joins_the_same_capped_sum() {
    let up = Vec2::new(0.0, 1000.0);
    for combine in [Combine::Weighted, Combine::priority()] {
        let mut app = app_with_push();
        let agent = seeker(
            &mut app,
            combine,
            Push {
                force: up,
                priority: SteeringPriority::Normal,
                on: true,
            },
        );
        run_steps(&mut app, 1, |_| {});
        // In the same group, both ways add the two up...
        let force = get::<SteeringForce>(&app, agent).0;
        assert!((force - (SEEK_FORCE + up)).length() < 1e-2, "{force}");
        // ...and the sum is capped once, at 380 px/s², in its direction.
        let vel = get::<AgentVelocity>(&app, agent).0;
        let expected = (SEEK_FORCE + up).normalize() * 380.0 * DT;
        assert!((vel - expected).length() < 1e-3, "{vel} vs {expected}");
    }
}

#[test]
fn priority_gives_the_first_group_that_asks_and_else_the_rest() {
    let mut app = app_with_push();
    let wall = Vec2::new(-50.0, 30.0);
    let agent = seeker(
        &mut app,
        Combine::priority(),
        Push {
            force: wall,
            priority: SteeringPriority::Critical,
            on: true,
        },
    );
    // The critical force asks: it is the output, whatever the seeker wants,
    // even though it is far weaker.
    run_steps(&mut app, 1, |_| {});
    assert_eq!(get::<SteeringForce>(&app, agent).0, wall);
    let vel = get::<AgentVelocity>(&app, agent).0;
    assert!((vel - wall * DT).length() < 1e-5, "{vel}");
    // It asks for nothing: the rest is the output, exactly the seeker's.
    app.world_mut().get_mut::<Push>(agent).unwrap().on = false;
    let pos = get::<AgentPosition>(&app, agent).0;
    run_steps(&mut app, 1, |_| {});
    let desired = behaviors::seek(pos, Vec2::new(10_000.0, 0.0), 220.0);
    let seek = model::steering(desired, vel, 0.15);
    assert_eq!(get::<SteeringForce>(&app, agent).0, seek);
    // Weighted, the same two forces are summed.
    let mut app = app_with_push();
    let agent = seeker(
        &mut app,
        Combine::Weighted,
        Push {
            force: wall,
            priority: SteeringPriority::Critical,
            on: true,
        },
    );
    run_steps(&mut app, 1, |_| {});
    assert!((get::<SteeringForce>(&app, agent).0 - (SEEK_FORCE + wall)).length() < 1e-2);
}

#[test]
fn the_applied_force_never_exceeds_the_max_force_in_either_combination() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::Xoshiro128PlusPlus::seed_from_u64(3);
    for combine in [Combine::Weighted, Combine::priority()] {
        let mut app = app_with_push();
        let agent = seeker(
            &mut app,
            combine,
            Push {
                force: Vec2::ZERO,
                priority: SteeringPriority::Critical,
                on: true,
            },
        );
        let mut previous = get::<AgentVelocity>(&app, agent).0;
        for step in 0..300 {
            let force = Vec2::new(
                rng.random_range(-3000.0..3000.0),
                rng.random_range(-3000.0..3000.0),
            );
            let priority = [
                SteeringPriority::Critical,
                SteeringPriority::Normal,
                SteeringPriority::Low,
            ][step % 3];
            *app.world_mut().get_mut::<Push>(agent).unwrap() = Push {
                force,
                priority,
                on: step % 5 != 0,
            };
            run_steps(&mut app, 1, |_| {});
            let vel = get::<AgentVelocity>(&app, agent).0;
            let accel = (vel - previous).length() / DT;
            assert!(accel <= 380.0 * (1.0 + 1e-4), "step {step}: {accel} px/s²");
            previous = vel;
        }
    }
}

/// A game's own behavior: keep out of the half-plane y < 0, by steering
/// straight up at full speed within 100 px of it, at the top priority.
#[derive(Component)]
struct KeepOut;

fn keep_out(
    mut agents: Query<
        (
            &AgentPosition,
            &AgentVelocity,
            &SteeringParams,
            &mut SteeringAccumulator,
        ),
        With<KeepOut>,
    >,
) {
    for (pos, vel, params, mut steering) in &mut agents {
        if pos.y < 100.0 {
            let desired = Vec2::new(vel.x, params.max_speed);
            steering.add_desired(
                SteeringPriority::Critical,
                1.0,
                desired,
                vel.0,
                params.response_time,
            );
        }
    }
}

/// The lowest any of 20 agents got in 10 s, each seeking and pursuing a
/// point 400 px inside the forbidden half while keeping out of it.
fn lowest_point(combine: Combine) -> f32 {
    let settings = SteeringSettings {
        agent: SteeringParams {
            combine,
            ..default()
        },
        wrap: None,
        ..default()
    };
    let mut app = headless_app(60.0, 1, settings);
    app.add_systems(FixedUpdate, keep_out.in_set(SteeringSystems::Forces));
    let agents: Vec<Entity> = (0..20)
        .map(|i| {
            let x = i as f32 * 40.0;
            let goal = SteeringTarget::Point(Vec2::new(x + 100.0, -400.0));
            app.world_mut()
                .spawn((
                    SteeringAgent,
                    KeepOut,
                    SteeringBehavior::Blend(vec![
                        Weighted::new(1.0, SteeringBehavior::Seek(goal)),
                        Weighted::new(1.0, SteeringBehavior::Pursue(goal)),
                    ]),
                    AgentPosition::new(x, 300.0),
                ))
                .id()
        })
        .collect();
    let mut lowest = f32::INFINITY;
    run_steps(&mut app, 600, |world| {
        for agent in &agents {
            lowest = lowest.min(world.get::<AgentPosition>(*agent).unwrap().y);
        }
    });
    lowest
}

#[test]
fn a_weighted_sum_leaks_through_a_high_priority_force_and_priority_does_not() {
    // Two behaviors pull the agents in and one pushes them out: the sum
    // settles at -73 px/s, inward, and they walk through.
    let weighted = lowest_point(Combine::Weighted);
    let priority = lowest_point(Combine::priority());
    eprintln!("lowest y in 10 s: weighted {weighted:.1} px, priority {priority:.1} px");
    assert!(weighted < -100.0, "weighted: lowest y {weighted}");
    // By priority, the push is all they do near the edge: they brake in
    // the 64 px it takes and never cross.
    assert!(priority > 0.0, "priority: lowest y {priority}");
}

#[test]
fn an_agent_follows_the_defaults_except_where_it_set_its_own() {
    let mut app = app();
    let world = app.world_mut();
    let plain = world.spawn(SteeringAgent).id();
    let own = world
        .spawn((
            SteeringAgent,
            SteeringParams {
                max_speed: 50.0,
                ..default()
            },
        ))
        .id();
    // Filled as they are added, before any step.
    assert_eq!(get::<SteeringParams>(&app, plain).max_speed, 220.0);
    assert_eq!(get::<SteeringParams>(&app, own).max_speed, 50.0);
    run_steps(&mut app, 1, |_| {});

    // A default changes: it reaches the agent without its own value.
    let mut settings = app.world_mut().resource_mut::<SteeringSettings>();
    settings.agent.max_speed = 100.0;
    settings.agent.response_time = 0.5;
    run_steps(&mut app, 1, |_| {});
    assert_eq!(get::<SteeringParams>(&app, plain).max_speed, 100.0);
    assert_eq!(get::<SteeringParams>(&app, own).max_speed, 50.0);
    assert_eq!(get::<SteeringParams>(&app, own).response_time, 0.5);

    // Its own value changes in place, then goes back to the default's.
    let mut params = app.world_mut().get_mut::<SteeringParams>(own).unwrap();
    params.max_speed = 70.0;
    run_steps(&mut app, 1, |_| {});
    assert_eq!(get::<SteeringParams>(&app, own).max_speed, 70.0);
    app.world_mut()
        .get_mut::<SteeringParams>(own)
        .unwrap()
        .max_speed = 100.0;
    let mut settings = app.world_mut().resource_mut::<SteeringSettings>();
    settings.agent.max_speed = 120.0;
    run_steps(&mut app, 1, |_| {});
    assert_eq!(get::<SteeringParams>(&app, own).max_speed, 120.0);
    // And comes back, the rest still the settings'.
    app.world_mut().entity_mut(own).insert(SteeringParams {
        mass: 4.0,
        ..default()
    });
    run_steps(&mut app, 1, |_| {});
    assert_eq!(get::<SteeringParams>(&app, own).mass, 4.0);
    assert_eq!(get::<SteeringParams>(&app, own).max_speed, 120.0);
    assert_eq!(get::<SteeringParams>(&app, own).response_time, 0.5);
}

#[test]
fn separation_reaches_as_far_as_the_gap_between_the_bodies() {
    // Two still agents 30 px apart, pushed apart by separation alone (25 px).
    // Returns the largest distance between their centers at which one of
    // them was still pushed, over 3 s.
    let farthest_push = |radius: f32| {
        let mut app = app();
        let pair: Vec<Entity> = [470.0, 500.0]
            .into_iter()
            .map(|x| {
                app.world_mut()
                    .spawn((
                        Flocking::separation_only(),
                        SteeringBehavior::Idle,
                        AgentPosition::new(x, 350.0),
                        SteeringParams {
                            radius,
                            ..default()
                        },
                        SteeringForce::default(),
                    ))
                    .id()
            })
            .collect();
        let mut farthest = None::<f32>;
        let mut distance = 30.0;
        run_steps(&mut app, 180, |world| {
            let pushed = world.get::<SteeringForce>(pair[0]).unwrap().0 != Vec2::ZERO;
            // The force was decided from where they were before the step.
            if pushed {
                farthest = Some(farthest.unwrap_or(0.0).max(distance));
            }
            let p = |e: Entity| world.get::<AgentPosition>(e).unwrap().0;
            distance = p(pair[0]).distance(p(pair[1]));
        });
        farthest
    };
    // As points, 30 px apart is outside separation's 25 px: no push at all.
    assert_eq!(farthest_push(0.0), None);
    // Bodies of 20 px leave a gap of -10 px: pushed until the gap is 25 px,
    // 65 px between centers (less at most the step they last closed in).
    let farthest = farthest_push(20.0).expect("bodies of 20 px push");
    assert!(
        (60.0..=65.0).contains(&farthest),
        "pushed up to {farthest} px between centers"
    );
}

#[test]
fn a_mass_of_2_halves_the_first_steps_change_of_velocity() {
    // A response of 10 s asks for 22 px/s², under the cap.
    let first_speed = |mass: f32| {
        let report = Scenario {
            behavior: BehaviorKind::Seek,
            start: Vec2::ZERO,
            target: Vec2::new(10_000.0, 0.0),
            response: 10.0,
            mass,
            seconds: 1.0 / 60.0,
            ..Default::default()
        }
        .run()
        .unwrap();
        report.last().vel.x
    };
    let (light, heavy) = (first_speed(1.0), first_speed(2.0));
    assert!((light - 22.0 * DT).abs() < 1e-5, "{light}");
    assert!((heavy / light - 0.5).abs() < 1e-5, "{heavy} vs {light}");
}

#[test]
fn a_turn_limited_agent_never_turns_faster_than_its_rate() {
    for hz in [60.0, 144.0] {
        let tolerance = 1e-4 * hz as f32;
        for (behavior, start_vel) in [
            (BehaviorKind::Seek, Vec2::new(220.0, 0.0)),
            (BehaviorKind::Arrive, Vec2::new(0.0, 220.0)),
            (BehaviorKind::Flee, Vec2::new(-100.0, 50.0)),
            (BehaviorKind::Wander, Vec2::ZERO),
            (BehaviorKind::Graze, Vec2::ZERO),
            (BehaviorKind::Seek, Vec2::ZERO),
        ] {
            let report = Scenario {
                behavior,
                start: Vec2::new(-150.0, 40.0),
                start_vel,
                target_vel: Vec2::new(0.0, 80.0),
                max_turn_rate_deg_s: 90.0,
                hz,
                seconds: 8.0,
                ..Default::default()
            }
            .run()
            .unwrap();
            let rate = report.max_turn_rate_deg_s.to_radians();
            assert!(
                rate <= std::f32::consts::FRAC_PI_2 + tolerance,
                "{} at {hz} Hz turned at {:.2}°/s",
                behavior.name(),
                report.max_turn_rate_deg_s
            );
            // Without the limit the same agent turns much faster.
            let free = Scenario {
                behavior,
                start: Vec2::new(-150.0, 40.0),
                start_vel,
                target_vel: Vec2::new(0.0, 80.0),
                hz,
                seconds: 8.0,
                ..Default::default()
            }
            .run()
            .unwrap();
            if behavior == BehaviorKind::Seek {
                assert!(
                    free.max_turn_rate_deg_s > 180.0,
                    "{}",
                    free.max_turn_rate_deg_s
                );
            }
        }
    }
}

#[test]
fn a_target_at_90_degrees_inside_the_turning_circle_is_still_reached() {
    // At 220 px/s and 90°/s the turning circle's radius is 140 px; the
    // target is 100 px away, straight to the left: inside it.
    for hz in [60.0, 144.0] {
        let report = Scenario {
            behavior: BehaviorKind::Seek,
            start: Vec2::ZERO,
            start_vel: Vec2::new(220.0, 0.0),
            target: Vec2::new(0.0, 100.0),
            max_turn_rate_deg_s: 90.0,
            catch_radius: 5.0,
            hz,
            seconds: 20.0,
            ..Default::default()
        }
        .run()
        .unwrap();
        let reached = report.catch_s.expect("it reaches the target within 20 s");
        assert!(reached < 20.0, "reached after {reached} s at {hz} Hz");
    }
}

#[test]
fn outside_the_fixed_loop_transforms_are_written_in_the_same_frame() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SteeringPlugins::new(Update)));
    let agent = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Idle,
            AgentVelocity(Vec2::new(60.0, 0.0)),
        ))
        .id();
    for _ in 0..5 {
        app.update();
        let pos = get::<AgentPosition>(&app, agent).0;
        let drawn = get::<Transform>(&app, agent).translation.truncate();
        assert_eq!(drawn, pos, "the transform lags the simulation");
    }
}

/// Puts an agent in table `N` (with `OwnParams`, in another again).
#[derive(Component)]
struct InTable<const N: u8>;

/// Marks the agents with parameters of their own (another table).
#[derive(Component)]
struct OwnParams;

/// Puts `agent` in table `k` of ten (0: the one without a marker).
fn put_in_table(agent: &mut EntityWorldMut, k: usize) {
    match k {
        1 => drop(agent.insert(InTable::<1>)),
        2 => drop(agent.insert(InTable::<2>)),
        3 => drop(agent.insert(InTable::<3>)),
        4 => drop(agent.insert(InTable::<4>)),
        5 => drop(agent.insert(InTable::<5>)),
        6 => drop(agent.insert(InTable::<6>)),
        7 => drop(agent.insert(InTable::<7>)),
        8 => drop(agent.insert(InTable::<8>)),
        9 => drop(agent.insert(InTable::<9>)),
        _ => {}
    }
}

/// Puts agent `i` in one of twenty tables: most (about two thirds of
/// 3,001, more than half) in one, so that it splits between two threads
/// too, the rest in more tables than one scope takes (every seventh with
/// parameters of its own, in a table of its own again).
fn spread_over_tables(mut agent: EntityWorldMut, i: usize, own: SteeringParams) -> Entity {
    put_in_table(&mut agent, if i % 40 < 10 { i % 40 } else { 0 });
    if i.is_multiple_of(7) {
        agent.insert((own, OwnParams));
    }
    agent.id()
}

/// The integration runs over each table's columns, eight agents at a time,
/// split between threads, the chunks of eight tables at once: every agent
/// of all twenty tables must come out of one step exactly as the model
/// steps it alone, with its own push, and a still agent's heading must not
/// be marked changed.
#[test]
fn every_agent_of_every_table_steps_as_the_model_steps_it_alone() {
    let mut app = headless_app_with_threads(60.0, 1, SteeringSettings::default(), Some(2));
    app.add_systems(FixedUpdate, push.in_set(SteeringSystems::Forces));
    // Past the 1,024 agents from which a pass splits between threads, and
    // not a multiple of eight; some turn-limited (stepped one by one).
    let n = 3001;
    let agents: Vec<Entity> = (0..n)
        .map(|i| {
            let f = i as f32;
            let still = i % 11 == 0;
            let agent = app.world_mut().spawn((
                SteeringAgent,
                AgentPosition(Vec2::new(
                    100.0 + (f * 7.3) % 800.0,
                    100.0 + (f * 3.1) % 500.0,
                )),
                AgentVelocity(if still {
                    Vec2::ZERO
                } else {
                    Vec2::from_angle(f * 0.1) * (f % 230.0)
                }),
                AgentHeading(Dir2::new(Vec2::from_angle(f * 0.37)).unwrap()),
                Push {
                    force: if still {
                        Vec2::ZERO
                    } else {
                        Vec2::from_angle(f * 0.7) * (f % 500.0)
                    },
                    priority: SteeringPriority::Normal,
                    on: true,
                },
            ));
            spread_over_tables(
                agent,
                i,
                SteeringParams {
                    max_turn_rate: 2.0,
                    ..default()
                },
            )
        })
        .collect();
    // The first update runs no step; after it, each runs one.
    app.update();
    let before: Vec<_> = agents
        .iter()
        .map(|&e| {
            let agent = app.world().entity(e);
            (
                agent.get::<AgentPosition>().unwrap().0,
                agent.get::<AgentVelocity>().unwrap().0,
                agent.get::<AgentHeading>().unwrap().0,
                agent.get_change_ticks::<AgentHeading>().unwrap().changed,
            )
        })
        .collect();
    run_steps(&mut app, 1, |_| {});
    let dt = app
        .world()
        .resource::<Time<Fixed>>()
        .timestep()
        .as_secs_f32();
    let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
    for (i, (&e, &(pos, vel, heading, changed))) in agents.iter().zip(&before).enumerate() {
        let agent = app.world().entity(e);
        let params = agent.get::<SteeringParams>().unwrap();
        let force = agent.get::<Push>().unwrap().force;
        let (next, facing) = model::step_vehicle(
            model::Kinematics { pos, vel },
            heading.as_vec2(),
            force,
            params.vehicle(),
            dt,
        );
        assert_eq!(
            bits(agent.get::<AgentPosition>().unwrap().0),
            bits(next.pos),
            "agent {i} position"
        );
        assert_eq!(
            bits(agent.get::<AgentVelocity>().unwrap().0),
            bits(next.vel),
            "agent {i} velocity"
        );
        assert_eq!(
            bits(agent.get::<AgentHeading>().unwrap().0.as_vec2()),
            bits(facing),
            "agent {i} heading"
        );
        let turned = agent.get_change_ticks::<AgentHeading>().unwrap().changed != changed;
        assert_eq!(
            turned,
            facing != heading.as_vec2(),
            "agent {i} heading marked changed"
        );
    }
}

/// The behaviors run over each table's columns too, split between threads,
/// the chunks of eight tables at once: every agent of all twenty tables
/// must come out of one step with exactly the forces the model gives its
/// behavior alone, in their groups, and only a wanderer's wander state may
/// be marked changed.
#[test]
fn every_agent_of_every_table_asks_what_the_model_asks_for_it_alone() {
    let mut app = headless_app_with_threads(60.0, 1, SteeringSettings::default(), Some(2));
    let point = Vec2::new(480.0, 330.0);
    let mover = app
        .world_mut()
        .spawn((
            AgentPosition(Vec2::new(300.0, 200.0)),
            AgentVelocity(Vec2::new(90.0, -40.0)),
        ))
        .id();
    let behavior = |i: usize| match i % 9 {
        0 => SteeringBehavior::Seek(SteeringTarget::Point(point)),
        1 => SteeringBehavior::Arrive(SteeringTarget::Point(point)),
        2 => SteeringBehavior::Flee(SteeringTarget::Point(point)),
        3 => SteeringBehavior::Pursue(SteeringTarget::Entity(mover)),
        4 => SteeringBehavior::Evade(SteeringTarget::Entity(mover)),
        5 => SteeringBehavior::Wander,
        6 => SteeringBehavior::Graze(SteeringTarget::Point(point)),
        7 => SteeringBehavior::Blend(vec![
            Weighted::new(0.5, SteeringBehavior::Wander),
            Weighted {
                priority: SteeringPriority::Critical,
                ..Weighted::new(2.0, SteeringBehavior::Seek(SteeringTarget::Entity(mover)))
            },
        ]),
        _ => SteeringBehavior::Idle,
    };
    // Past the 1,024 agents from which a pass splits between threads.
    let n = 3001;
    let agents: Vec<Entity> = (0..n)
        .map(|i| {
            let f = i as f32;
            let agent = app.world_mut().spawn((
                SteeringAgent,
                behavior(i),
                AgentPosition(Vec2::new(
                    100.0 + (f * 7.3) % 800.0,
                    100.0 + (f * 3.1) % 500.0,
                )),
                AgentVelocity(Vec2::from_angle(f * 0.1) * (f % 230.0)),
            ));
            spread_over_tables(
                agent,
                i,
                SteeringParams {
                    max_speed: 150.0,
                    ..default()
                },
            )
        })
        .collect();
    // The first update runs no step; after it, each runs one.
    app.update();
    let before: Vec<_> = agents
        .iter()
        .map(|&e| {
            let agent = app.world().entity(e);
            (
                model::Kinematics {
                    pos: agent.get::<AgentPosition>().unwrap().0,
                    vel: agent.get::<AgentVelocity>().unwrap().0,
                },
                agent.get_change_ticks::<WanderAngle>().unwrap().changed,
                agent.get_change_ticks::<WanderRng>().unwrap().changed,
            )
        })
        .collect();
    run_steps(&mut app, 1, |_| {});
    let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
    let (mover_pos, mover_vel) = (Vec2::new(300.0, 200.0), Vec2::new(90.0, -40.0));
    for (i, (&e, &(agent_before, angle_ticked, rng_ticked))) in
        agents.iter().zip(&before).enumerate()
    {
        let agent = app.world().entity(e);
        let params = agent.get::<SteeringParams>().unwrap();
        let angle = agent.get::<WanderAngle>().unwrap().0;
        let model::Kinematics { pos, vel } = agent_before;
        let max = params.max_speed;
        let mut expected = combine::PriorityGroups::default();
        let mut wanders = false;
        agent
            .get::<SteeringBehavior>()
            .unwrap()
            .for_each_part(params.graze_flee_weight, |part| {
                let at = |target: SteeringTarget| match target {
                    SteeringTarget::Point(p) => (p, Vec2::ZERO),
                    SteeringTarget::Entity(_) => (mover_pos, mover_vel),
                };
                let desired = match *part.behavior {
                    SteeringBehavior::Seek(t) => behaviors::seek(pos, at(t).0, max),
                    SteeringBehavior::Arrive(t) => {
                        behaviors::arrive(pos, at(t).0, max, params.slowing_radius)
                    }
                    SteeringBehavior::Flee(t) => {
                        behaviors::flee(pos, vel, at(t).0, max, params.panic_radius)
                    }
                    SteeringBehavior::Pursue(t) => behaviors::pursue(pos, at(t).0, at(t).1, max),
                    SteeringBehavior::Evade(t) => {
                        behaviors::evade(pos, vel, at(t).0, at(t).1, max, params.panic_radius)
                    }
                    SteeringBehavior::Wander => {
                        wanders = true;
                        wander::wander(angle, max)
                    }
                    _ => unreachable!("a part is one of the chapter's behaviors"),
                };
                expected.add(
                    part.priority.group(),
                    model::steering(desired, vel, params.response_time) * part.weight,
                );
            });
        let asked = agent.get::<SteeringAccumulator>().unwrap().0;
        for group in 0..combine::PRIORITY_GROUPS {
            assert_eq!(
                bits(asked.groups[group]),
                bits(expected.groups[group]),
                "agent {i}, group {group}"
            );
        }
        let angle_changed =
            agent.get_change_ticks::<WanderAngle>().unwrap().changed != angle_ticked;
        let rng_changed = agent.get_change_ticks::<WanderRng>().unwrap().changed != rng_ticked;
        assert_eq!(
            angle_changed, wanders,
            "agent {i} wander angle marked changed"
        );
        assert_eq!(
            rng_changed, wanders,
            "agent {i} random numbers marked changed"
        );
    }
}

/// A pass over the agents runs on its system's thread below a count, and
/// splits between threads from it (1,024 agents, or 128 with obstacles to
/// avoid). A world whose agents cross that count back and forth must step
/// exactly as it does on one thread, and every step exactly once: a
/// coasting agent, at a constant velocity with no steering, moves one
/// step's worth each update.
#[test]
fn agents_step_once_a_step_on_either_side_of_the_count_that_goes_parallel() {
    // Critters, then critters and a rock out of everyone's way.
    for (agents, rock) in [(1000, false), (100, true)] {
        let run = |threads| {
            let mut app = steering_lab::bench::critters_mix_app(agents, 3, Some(threads));
            if rock {
                let far = AgentPosition(Vec2::new(-5000.0, -5000.0));
                app.world_mut().spawn((SteeringObstacle::circle(10.0), far));
            }
            let velocity = Vec2::new(50.0, 20.0);
            let coaster = (
                SteeringAgent,
                SteeringBehavior::Idle,
                AgentPosition(Vec2::ZERO),
                AgentVelocity(velocity),
            );
            let coaster = app.world_mut().spawn(coaster).id();
            let mut hashes = Vec::new();
            let mut extra: Vec<Entity> = Vec::new();
            for step in 0..8 {
                // `agents + 1`, then 100 more, then `agents + 1` again, ...
                if step % 2 == 1 {
                    extra = (0..100)
                        .map(|i| {
                            let p = Vec2::new(10.0 * i as f32, 350.0);
                            let agent = (SteeringAgent, SteeringBehavior::Wander, AgentPosition(p));
                            app.world_mut().spawn(agent).id()
                        })
                        .collect();
                } else {
                    for agent in extra.drain(..) {
                        app.world_mut().despawn(agent);
                    }
                }
                let before = get::<AgentPosition>(&app, coaster).0;
                run_steps(&mut app, 1, |_| {});
                let moved = get::<AgentPosition>(&app, coaster).0 - before;
                assert!(
                    moved.abs_diff_eq(velocity * DT, 1e-4),
                    "{agents} agents, {threads} threads, step {step}: the coasting agent \
                     moved {moved}, not {}",
                    velocity * DT
                );
                hashes.push(steering_lab::bench::positions_hash(&mut app));
            }
            hashes
        };
        assert_eq!(run(2), run(1), "{agents} agents");
    }
}
