//! Flyers through the real plugin: the model's numbers in 3D along the
//! diagonal and each axis, banking drawn on the transform, wander, bad
//! input, walkers and flyers in one world, the same bits on 1 and 2
//! threads.

use std::f32::consts::TAU;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use steering_test_support::{headless_app, headless_app_with_threads, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];

fn directions() -> [Vec3; 4] {
    [Vec3::ONE.normalize(), Vec3::X, Vec3::NEG_Y, Vec3::Z]
}

fn app(hz: f64) -> App {
    headless_app(hz, 7, SteeringSettings::default())
}

/// Seconds a flyer sent seeking far along `dir` takes to reach top speed,
/// and a walker sent along +x in the same app, both steering as hard as
/// the force cap allows (a response time of a millisecond).
fn seconds_to_top_speed(hz: f64, dir: Vec3) -> (f32, f32) {
    let mut app = app(hz);
    let floor_it = SteeringParams {
        response_time: 1e-3,
        ..default()
    };
    let flyer = app
        .world_mut()
        .spawn((
            SteeringFlyer,
            FlyerBehavior::Seek(FlyerTarget::Point(dir * 1e6)),
            floor_it,
        ))
        .id();
    let walker = app
        .world_mut()
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::X * 1e6)),
            floor_it,
        ))
        .id();
    let (mut flyer_at, mut walker_at) = (None, None);
    let mut steps = 0;
    run_steps(&mut app, (hz * 2.0) as u64, |world| {
        steps += 1;
        let t = steps as f32 / hz as f32;
        let speed = world.get::<FlyerVelocity>(flyer).unwrap().length();
        if speed >= 220.0 - 1e-3 && flyer_at.is_none() {
            flyer_at = Some(t);
        }
        let speed = world.get::<AgentVelocity>(walker).unwrap().length();
        if speed >= 220.0 - 1e-3 && walker_at.is_none() {
            walker_at = Some(t);
        }
    });
    (flyer_at.unwrap(), walker_at.unwrap())
}

/// How far a flyer arriving at the origin from 400 px back along `dir`
/// passes it, and where it is after 8 s.
fn arrive_overshoot(hz: f64, dir: Vec3, slowing_radius: f32) -> (f32, Vec3) {
    let mut app = app(hz);
    let flyer = app
        .world_mut()
        .spawn((
            SteeringFlyer,
            FlyerBehavior::Arrive(FlyerTarget::Point(Vec3::ZERO)),
            FlyerPosition(dir * -400.0),
            SteeringParams {
                slowing_radius,
                ..default()
            },
        ))
        .id();
    let mut overshoot = 0.0f32;
    run_steps(&mut app, (hz * 8.0) as u64, |world| {
        overshoot = overshoot.max(world.get::<FlyerPosition>(flyer).unwrap().dot(dir));
    });
    (
        overshoot,
        app.world().get::<FlyerPosition>(flyer).unwrap().0,
    )
}

#[test]
fn the_models_numbers_hold_for_flyers_in_every_direction() {
    for hz in RATES {
        for dir in directions() {
            let (flyer, walker) = seconds_to_top_speed(hz, dir);
            // 0.58 s, to within a step, as the walker beside it.
            assert!((flyer - 0.58).abs() < 0.02, "{dir} at {hz} Hz: {flyer} s");
            assert!(
                (flyer - walker).abs() < 1e-4,
                "{dir} at {hz} Hz: {flyer} s, walker {walker} s"
            );
            let (quick, _) = arrive_overshoot(hz, dir, 50.0);
            let (slow, rest) = arrive_overshoot(hz, dir, 150.0);
            assert!(
                (quick - 21.0).abs() < 1.0,
                "{dir} at {hz} Hz: overshot {quick}"
            );
            assert!(slow < 1e-3, "{dir} at {hz} Hz: overshot {slow} at 150 px");
            assert!(rest.length() < 0.5, "{dir} at {hz} Hz: stopped at {rest}");
        }
    }
}

#[test]
fn a_flyer_banks_into_a_turn_and_its_transform_shows_it() {
    for hz in RATES {
        let mut app = app(hz);
        // Going +x at top speed, sent to a point on its left (-z): a left
        // turn.
        let flyer = app
            .world_mut()
            .spawn((
                SteeringFlyer,
                FlyerBehavior::Seek(FlyerTarget::Point(Vec3::new(0.0, 0.0, -300.0))),
                FlyerVelocity(Vec3::X * 220.0),
                FlyerAttitude::default(),
            ))
            .id();
        let mut deepest = 0.0f32;
        run_steps(&mut app, (hz * 0.5) as u64, |world| {
            deepest = deepest.min(world.get::<FlyerAttitude>(flyer).unwrap().roll());
        });
        assert!(
            deepest < -10f32.to_radians(),
            "{hz} Hz: rolled {deepest} rad"
        );
        // The transform is the attitude: +x along the heading, +y its up.
        app.update();
        let world = app.world();
        let attitude = world.get::<FlyerAttitude>(flyer).unwrap();
        let transform = world.get::<Transform>(flyer).unwrap();
        assert!((transform.rotation * Vec3::X - attitude.forward).length() < 1e-4);
        assert!((transform.rotation * Vec3::Y - attitude.up).length() < 1e-4);
        let heading = world.get::<FlyerVelocity>(flyer).unwrap().normalize();
        assert!(attitude.forward.angle_between(heading) < 1e-3);
    }
}

#[test]
fn flyers_wander_over_the_sphere_and_survive_bad_input() {
    let mut app = app(60.0);
    let wanderers: Vec<Entity> = (0..50)
        .map(|i| {
            let start = Vec3::new(i as f32 * 10.0, 0.0, 0.0);
            app.world_mut()
                .spawn((SteeringFlyer, FlyerBehavior::Wander, FlyerPosition(start)))
                .id()
        })
        .collect();
    let bad = [
        Vec3::NAN,
        Vec3::new(f32::INFINITY, 0.0, 1.0),
        Vec3::new(1.0, f32::NEG_INFINITY, f32::NAN),
    ];
    let broken: Vec<Entity> = bad
        .iter()
        .map(|&v| {
            app.world_mut()
                .spawn((
                    SteeringFlyer,
                    FlyerBehavior::Pursue(FlyerTarget::Point(v)),
                    FlyerPosition(v),
                    FlyerVelocity(v),
                    FlyerAttitude(Attitude {
                        forward: v,
                        up: Vec3::ZERO,
                    }),
                    WanderDirection(v),
                ))
                .id()
        })
        .collect();
    let mut octants = [false; 8];
    run_steps(&mut app, 60 * 60, |world| {
        for &e in &wanderers {
            let v = world.get::<FlyerVelocity>(e).unwrap().0;
            octants[(v.x > 0.0) as usize
                | ((v.y > 0.0) as usize) << 1
                | ((v.z > 0.0) as usize) << 2] = true;
        }
    });
    assert_eq!(octants, [true; 8], "a minute of 50 wanderers' headings");
    for e in wanderers.iter().chain(&broken) {
        let world = app.world();
        assert!(world.get::<FlyerPosition>(*e).unwrap().is_finite());
        assert!(world.get::<FlyerVelocity>(*e).unwrap().is_finite());
        let attitude = world.get::<FlyerAttitude>(*e).unwrap();
        assert!(attitude.forward.is_normalized() && attitude.up.is_normalized());
        assert!(world.get::<Transform>(*e).unwrap().is_finite());
    }
}

#[test]
fn walkers_and_flyers_share_a_world_and_walkers_move_as_alone() {
    let walkers = |app: &mut App| {
        for i in 0..40 {
            let at = Vec2::new(i as f32 * 13.0, (i % 7) as f32 * 40.0);
            let behavior = if i % 2 == 0 {
                SteeringBehavior::Wander
            } else {
                SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(500.0, 300.0)))
            };
            app.world_mut()
                .spawn((SteeringAgent, behavior, AgentPosition(at)));
        }
    };
    let mut alone = app(60.0);
    walkers(&mut alone);
    run_steps(&mut alone, 300, |_| {});
    let mut shared = app(60.0);
    // The walkers' transforms made global, as a game's are, for the hawk.
    shared.add_plugins(TransformPlugin);
    walkers(&mut shared);
    // A hawk pursuing the first walker (its transform, in 3D) from above.
    let prey = shared
        .world_mut()
        .query_filtered::<Entity, With<SteeringAgent>>()
        .iter(shared.world())
        .min()
        .unwrap();
    let hawk = shared
        .world_mut()
        .spawn((
            SteeringFlyer,
            FlyerBehavior::Pursue(FlyerTarget::Entity(prey)),
            FlyerPosition(Vec3::new(0.0, 400.0, 0.0)),
        ))
        .id();
    let start = shared.world().get::<FlyerPosition>(hawk).unwrap().0;
    run_steps(&mut shared, 300, |_| {});
    // The walkers moved exactly as without the flyer (their wander streams
    // are seeded before it was spawned).
    assert_eq!(
        steering_test_support::positions_hash(&mut alone),
        steering_test_support::positions_hash(&mut shared)
    );
    let prey_at = shared.world().get::<Transform>(prey).unwrap().translation;
    let hawk_at = shared.world().get::<FlyerPosition>(hawk).unwrap().0;
    assert!(
        hawk_at.distance(prey_at) < start.distance(prey_at) * 0.5,
        "the hawk closed in: {hawk_at} to {prey_at}"
    );
}

#[test]
fn flyers_move_the_same_on_one_and_two_threads() {
    let run = |threads: usize| {
        let mut app =
            headless_app_with_threads(60.0, 3, SteeringSettings::default(), Some(threads));
        let leader = app
            .world_mut()
            .spawn((SteeringFlyer, FlyerBehavior::Wander))
            .id();
        for i in 0..3000 {
            let at = Vec3::new(
                (i % 30) as f32 * 20.0,
                (i / 900) as f32 * 20.0,
                ((i / 30) % 30) as f32 * 20.0,
            );
            let behavior = match i % 4 {
                0 => FlyerBehavior::Wander,
                1 => FlyerBehavior::Pursue(FlyerTarget::Entity(leader)),
                2 => FlyerBehavior::OffsetPursuit {
                    leader: FlyerTarget::Entity(leader),
                    offset: Vec3::new(-40.0, 20.0, 10.0),
                },
                _ => FlyerBehavior::Graze(FlyerTarget::Entity(leader)),
            };
            app.world_mut()
                .spawn((SteeringFlyer, behavior, FlyerPosition(at)));
        }
        run_steps(&mut app, 120, |_| {});
        steering_test_support::flyer_positions_hash(&mut app)
    };
    assert_eq!(run(1), run(2));
}

fn hostile_vec3() -> impl Strategy<Value = Vec3> + Clone {
    (
        crate::support::hostile(),
        crate::support::hostile(),
        crate::support::hostile(),
    )
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// One flyer of a hostile world: its state, its limits, its parameters and
/// what it does (a behavior kind, toward a point or another flyer).
#[derive(Clone, Debug)]
struct FlyerSpec {
    pos: Vec3,
    vel: Vec3,
    attitude: (Vec3, Vec3),
    flight: [f32; 5],
    params: [f32; 5],
    kind: u8,
    point: Vec3,
    other: Option<usize>,
}

fn flyer_spec() -> impl Strategy<Value = FlyerSpec> {
    (
        (
            hostile_vec3(),
            hostile_vec3(),
            (hostile_vec3(), hostile_vec3()),
        ),
        (
            proptest::array::uniform5(crate::support::hostile()),
            proptest::array::uniform5(crate::support::hostile()),
        ),
        (0u8..12, hostile_vec3(), proptest::option::of(0usize..16)),
    )
        .prop_map(
            |((pos, vel, attitude), (flight, params), (kind, point, other))| FlyerSpec {
                pos,
                vel,
                attitude,
                flight,
                params,
                kind,
                point,
                other,
            },
        )
}

fn flyer_behavior(kind: u8, target: FlyerTarget, point: Vec3) -> FlyerBehavior {
    match kind {
        0 => FlyerBehavior::Seek(target),
        1 => FlyerBehavior::Arrive(target),
        2 => FlyerBehavior::Flee(target),
        3 => FlyerBehavior::Pursue(target),
        4 => FlyerBehavior::Evade(target),
        5 => FlyerBehavior::Wander,
        6 => FlyerBehavior::Graze(target),
        7 => FlyerBehavior::OffsetPursuit {
            leader: target,
            offset: point,
        },
        8 => FlyerBehavior::FollowLeader {
            leader: target,
            behind: point.x,
        },
        9 => FlyerBehavior::Interpose(target, FlyerTarget::Point(point)),
        10 => FlyerBehavior::Blend(vec![
            Weighted::new(point.y, FlyerBehavior::Wander),
            Weighted::new(point.z, FlyerBehavior::Flee(target)),
        ]),
        _ => FlyerBehavior::Idle,
    }
}

/// Every flyer's state finite, its attitude two unit vectors square to
/// each other, its transform finite.
fn assert_flyers_sane(app: &mut App) -> Result<(), TestCaseError> {
    let mut flyers = app.world_mut().query::<(
        Entity,
        &FlyerPosition,
        &FlyerVelocity,
        &FlyerAttitude,
        &Transform,
    )>();
    for (e, pos, vel, attitude, transform) in flyers.iter(app.world()) {
        prop_assert!(pos.is_finite() && vel.is_finite(), "{e}: {pos:?} {vel:?}");
        prop_assert!(
            attitude.forward.is_normalized() && attitude.up.is_normalized(),
            "{e}: {attitude:?}"
        );
        prop_assert!(
            attitude.forward.dot(attitude.up).abs() < 1e-3,
            "{e}: {attitude:?}"
        );
        prop_assert!(transform.is_finite(), "{e}: {transform:?}");
    }
    Ok(())
}

fn run_hostile_flyers(specs: Vec<FlyerSpec>, poison: Vec3) -> Result<(), TestCaseError> {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    let mut flyers = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let [min_speed, max_climb, max_dive, bank_gravity, bank_half_life] = spec.flight;
        let [max_speed, max_force, response_time, mass, max_turn_rate] = spec.params;
        let target = match spec.other.filter(|i| *i < flyers.len()) {
            Some(i) => FlyerTarget::Entity(flyers[i]),
            None => FlyerTarget::Point(spec.point),
        };
        let flyer = app
            .world_mut()
            .spawn((
                SteeringFlyer,
                flyer_behavior(spec.kind, target, spec.point),
                FlyerPosition(spec.pos),
                FlyerVelocity(spec.vel),
                FlyerAttitude(Attitude {
                    forward: spec.attitude.0,
                    up: spec.attitude.1,
                }),
                FlightParams(Flight {
                    min_speed,
                    max_climb,
                    max_dive,
                    bank_gravity,
                    bank_half_life,
                }),
                SteeringParams {
                    max_speed,
                    max_force,
                    response_time,
                    mass,
                    max_turn_rate,
                    ..default()
                },
            ))
            .id();
        if i % 2 == 0 {
            // Every other one flocks, by rules as hostile as the rest.
            let rules = FlockParams {
                separation_radius: spec.point.x,
                neighbor_radius: spec.point.y,
                separation_weight: spec.point.z,
                view_half_angle: Some(bank_gravity),
                cruise_speed: (i % 4 == 0).then_some(min_speed),
                ..default()
            };
            let flocking = Flocking {
                max_neighbors: (i % 3 == 0).then_some(spec.kind as usize % 4),
                ..Flocking::with_rules(rules)
            };
            app.world_mut()
                .entity_mut(flyer)
                .insert(FlyerFlocking(flocking));
        }
        flyers.push(flyer);
    }
    for step in 0..40 {
        run_steps(&mut app, 1, |_| {});
        assert_flyers_sane(&mut app)?;
        // Midway, a game's bug: the first flyer poisoned, the last despawned.
        if step == 20 && !flyers.is_empty() {
            let first = flyers[0];
            app.world_mut()
                .entity_mut(first)
                .insert((FlyerPosition(poison), FlyerVelocity(poison)));
            let last = *flyers.last().unwrap();
            app.world_mut().despawn(last);
        }
    }
    Ok(())
}

#[test]
fn hostile_flyers_never_panic_or_spread_nan() {
    let world = || {
        (
            proptest::collection::vec(flyer_spec(), 0..16),
            hostile_vec3(),
        )
    };
    crate::support::fuzz_with_fixed_seed(64, 11, world, |(specs, poison)| {
        run_hostile_flyers(specs, poison)
    });
}

/// As a game in metres runs it: the plugins in `Update`, frames of 0 to
/// 50 ms, nothing set but the unit. The flight's defaults are in metres
/// (gravity 9.81 m/s²), so a turn rolls the flyer as deep as in pixels
/// (with the pixels' 392 px/s², a turn at 9.5 m/s² would roll it 1.4°), and
/// it gets where it is sent.
#[test]
fn a_flyer_in_metres_in_update_banks_as_in_pixels_and_arrives() {
    use bevy::time::TimeUpdateStrategy;
    use std::time::Duration;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SteeringPlugins::new(Update).with_length_unit(1.0),
    ));
    // Going +x at its top speed, sent to a point on its left: a hard left
    // turn, then an arrival.
    let goal = Vec3::new(0.0, 2.0, -15.0);
    let flyer = app
        .world_mut()
        .spawn((
            SteeringFlyer,
            FlyerBehavior::Arrive(FlyerTarget::Point(goal)),
            FlyerVelocity(Vec3::X * 5.5),
        ))
        .id();
    let flight = app.world().get::<FlightParams>(flyer).unwrap().0;
    assert!((flight.bank_gravity - 9.81).abs() < 1e-4, "{flight:?}");
    let mut deepest = 0.0f32;
    for frame in 0..1500 {
        let ms = [0, 16, 50, 7, 33][frame % 5];
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            ms,
        )));
        app.update();
        let attitude = app.world().get::<FlyerAttitude>(flyer).unwrap();
        assert!(attitude.forward.is_finite() && attitude.up.is_finite());
        deepest = deepest.max(attitude.roll().abs());
    }
    assert!(
        deepest > 15f32.to_radians(),
        "rolled at most {}°",
        deepest.to_degrees()
    );
    let at = app.world().get::<FlyerPosition>(flyer).unwrap().0;
    assert!(
        at.distance(goal) < 0.05,
        "{} m from its goal",
        at.distance(goal)
    );
}

/// A game writes its orders every frame, often the same: a flyer whose
/// behavior (and flight) are inserted anew each frame flies exactly as one
/// left alone, wandering or pursuing.
#[test]
fn orders_written_every_frame_change_nothing() {
    for behavior in [
        FlyerBehavior::Wander,
        FlyerBehavior::Pursue(FlyerTarget::Point(Vec3::new(300.0, 200.0, -100.0))),
    ] {
        let run = |rewrite: bool| {
            let mut app = app(60.0);
            let flyer = app
                .world_mut()
                .spawn((
                    SteeringFlyer,
                    behavior.clone(),
                    FlyerVelocity(Vec3::X * 50.0),
                ))
                .id();
            let mut path = Vec::new();
            run_steps(&mut app, 240, |world| {
                if rewrite {
                    world
                        .entity_mut(flyer)
                        .insert((behavior.clone(), FlightParams::default()));
                }
                path.push(world.get::<FlyerPosition>(flyer).unwrap().0);
            });
            path
        };
        assert_eq!(run(false), run(true), "{behavior:?}");
    }
}

/// A flyer with nothing but a [`FlyerFollowPath`] flies a looped course
/// through rings in the air, at 60 and 144 Hz: a whole lap, never far off
/// the course.
#[test]
fn a_flyer_follows_a_looped_course_through_the_air() {
    let course = std::sync::Arc::new(FlyerPath::new(
        [
            Vec3::ZERO,
            Vec3::new(400.0, 100.0, 0.0),
            Vec3::new(400.0, 200.0, -400.0),
            Vec3::new(0.0, 100.0, -400.0),
        ],
        true,
    ));
    for hz in RATES {
        let mut app = app(hz);
        let flyer = app
            .world_mut()
            .spawn(FlyerFollowPath::new(course.clone(), 20.0))
            .id();
        let mut farthest = 0.0f32;
        run_steps(&mut app, (hz * 12.0) as u64, |world| {
            let at = world.get::<FlyerPosition>(flyer).unwrap().0;
            farthest = farthest.max(course.distance(at));
        });
        let follow = app.world().get::<FlyerFollowPath>(flyer).unwrap();
        assert!(
            follow.laps() >= 1,
            "{hz} Hz: cursor at {} of {}",
            follow.cursor,
            course.length()
        );
        assert!(farthest < 40.0, "{hz} Hz: {farthest} px off the course");
    }
}

/// `n` birds flocking (the three rules at a cruise speed of 120 px/s, and
/// `behavior`) in a ball of `radius` round `center`, each headed its own
/// way over the sphere (or all along `heading`).
fn spawn_birds(
    app: &mut App,
    n: usize,
    center: Vec3,
    radius: f32,
    heading: Option<Vec3>,
    behavior: impl Fn() -> FlyerBehavior,
) {
    // A golden spiral: spread evenly, the same every run.
    for i in 0..n {
        let t = (i as f32 + 0.5) / n as f32;
        let (polar, turn) = ((1.0 - 2.0 * t).acos(), i as f32 * 2.399_963);
        let way = Vec3::new(
            polar.sin() * turn.cos(),
            polar.cos(),
            polar.sin() * turn.sin(),
        );
        let depth = radius * ((i * 7919) % n) as f32 / n as f32;
        app.world_mut().spawn((
            FlyerFlocking(Flocking::boids(120.0)),
            behavior(),
            FlyerPosition(center + way * depth),
            FlyerVelocity(heading.unwrap_or(way.cross(Vec3::Y).normalize_or(Vec3::X)) * 120.0),
        ));
    }
}

/// How far the flock flies one way: the length of the mean of its unit
/// velocities (1 when all fly alike).
fn alignment(app: &mut App) -> f32 {
    let world = app.world_mut();
    let ways: Vec<Vec3> = world
        .query_filtered::<&FlyerVelocity, With<FlyerFlocking>>()
        .iter(world)
        .map(|v| v.0.normalize_or_zero())
        .collect();
    (ways.iter().sum::<Vec3>() / ways.len() as f32).length()
}

/// The positions of the flock.
fn bird_positions(app: &mut App) -> Vec<Vec3> {
    let world = app.world_mut();
    world
        .query_filtered::<&FlyerPosition, With<FlyerFlocking>>()
        .iter(world)
        .map(|p| p.0)
        .collect()
}

/// The share of `birds` in the largest group whose members are linked by
/// chains of neighbors within `link` px.
fn largest_group(birds: &[Vec3], link: f32) -> f32 {
    let mut group = vec![usize::MAX; birds.len()];
    let mut largest = 0;
    for start in 0..birds.len() {
        if group[start] != usize::MAX {
            continue;
        }
        let (mut stack, mut size) = (vec![start], 0);
        group[start] = start;
        while let Some(i) = stack.pop() {
            size += 1;
            for j in 0..birds.len() {
                if group[j] == usize::MAX && birds[i].distance(birds[j]) <= link {
                    group[j] = start;
                    stack.push(j);
                }
            }
        }
        largest = largest.max(size);
    }
    largest as f32 / birds.len() as f32
}

/// A flock of flyers headed every way over the sphere comes to fly one way
/// in a few seconds, in full 3D (it keeps its depth on every axis, and
/// its birds apart), the same on one thread and two; without the three
/// rules it does not.
#[test]
fn a_flock_of_flyers_aligns_in_3d_on_one_and_two_threads() {
    let run = |threads: usize, flocking: bool| {
        let mut app =
            headless_app_with_threads(60.0, 5, SteeringSettings::default(), Some(threads));
        spawn_birds(
            &mut app,
            400,
            Vec3::new(0.0, 300.0, 0.0),
            250.0,
            None,
            || FlyerBehavior::Idle,
        );
        if !flocking {
            let world = app.world_mut();
            let birds: Vec<Entity> = world
                .query_filtered::<Entity, With<FlyerFlocking>>()
                .iter(world)
                .collect();
            for bird in birds {
                world.entity_mut(bird).remove::<FlyerFlocking>();
                world
                    .entity_mut(bird)
                    .insert(FlyerFlocking(Flocking::with_rules(FlockParams {
                        separation_weight: 0.0,
                        alignment_weight: 0.0,
                        cohesion_weight: 0.0,
                        ..default()
                    })));
            }
        }
        let before = alignment(&mut app);
        run_steps(&mut app, 600, |_| {});
        let birds = bird_positions(&mut app);
        let mean = birds.iter().sum::<Vec3>() / birds.len() as f32;
        let depth =
            birds.iter().fold(Vec3::ZERO, |d, p| d + (*p - mean).abs()) / birds.len() as f32;
        let closest = birds
            .iter()
            .enumerate()
            .flat_map(|(i, a)| birds[i + 1..].iter().map(move |b| a.distance(*b)))
            .fold(f32::INFINITY, f32::min);
        let hash = steering_test_support::flyer_positions_hash(&mut app);
        (before, alignment(&mut app), depth, closest, hash)
    };
    let (before, after, depth, closest, one) = run(1, true);
    assert!(before < 0.1, "{before}");
    assert!(after > 0.9, "the flock flies one way: {after}");
    assert!(
        depth.min_element() > 20.0,
        "it keeps its depth on every axis: {depth}"
    );
    assert!(closest > 1.0, "its birds stay apart: {closest}");
    assert_eq!(one, run(2, true).4);
    let (_, unruled, ..) = run(1, false);
    assert!(unruled < 0.3, "without the rules it does not: {unruled}");
}

/// What a hawk flying straight through a flock meets: the closest it came
/// to a bird, the widest angle round its line (in degrees) with no bird
/// within 150 px of it as it crossed the flock's middle, and the share of
/// the flock in one group (neighbors within 70 px) at the end, 4 s after
/// it left.
fn hawk_through_flock(evade: bool, n: usize, off_centre: Vec3) -> (f32, f32, f32) {
    let mut app = app(60.0);
    let hawk = app
        .world_mut()
        .spawn((
            SteeringFlyer,
            FlyerBehavior::Seek(FlyerTarget::Point(
                Vec3::new(-5000.0, 300.0, 0.0) + off_centre,
            )),
            FlyerPosition(Vec3::new(700.0, 300.0, 0.0) + off_centre),
            FlyerVelocity(Vec3::new(-220.0, 0.0, 0.0)),
        ))
        .id();
    let flee = move || match evade {
        true => FlyerBehavior::Blend(vec![Weighted::new(
            4.0,
            FlyerBehavior::Evade(FlyerTarget::Entity(hawk)),
        )]),
        false => FlyerBehavior::Idle,
    };
    let radius = 160.0 * (n as f32 / 300.0).cbrt();
    spawn_birds(
        &mut app,
        n,
        Vec3::new(0.0, 300.0, 0.0),
        radius,
        Some(Vec3::X),
        flee,
    );
    for bird in bird_entities(&mut app) {
        // Startled within 90 px.
        app.world_mut()
            .get_mut::<SteeringParams>(bird)
            .unwrap()
            .panic_radius = 90.0;
    }
    let (mut closest, mut gap) = (f32::INFINITY, None);
    for _ in 0..60 * 6 {
        run_steps(&mut app, 1, |_| {});
        let at = app.world().get::<FlyerPosition>(hawk).unwrap().0;
        let birds = bird_positions(&mut app);
        closest = birds.iter().map(|b| b.distance(at)).fold(closest, f32::min);
        let middle = birds.iter().sum::<Vec3>() / birds.len() as f32;
        if gap.is_none() && at.x <= middle.x {
            // The widest angle round the hawk's line with no bird within
            // 150 px of it in it.
            let mut angles: Vec<f32> = birds
                .iter()
                .filter(|b| b.distance(at) < 150.0)
                .map(|b| (b.z - at.z).atan2(b.y - at.y))
                .collect();
            angles.sort_by(f32::total_cmp);
            let widest = angles
                .windows(2)
                .map(|w| w[1] - w[0])
                .chain(angles.first().zip(angles.last()).map(|(a, b)| a + TAU - b))
                .fold(0.0f32, f32::max);
            gap = Some(if angles.is_empty() { TAU } else { widest }.to_degrees());
        }
    }
    (
        closest,
        gap.unwrap_or(360.0),
        largest_group(&bird_positions(&mut app), 70.0),
    )
}

fn bird_entities(app: &mut App) -> Vec<Entity> {
    let world = app.world_mut();
    world
        .query_filtered::<Entity, With<FlyerFlocking>>()
        .iter(world)
        .collect()
}

/// A flock evading a hawk that flies through it (each bird weighing the
/// hawk 4 to the rules' 3.5, startled within 90 px) lets it through with
/// no bird within 80 px of it, where the same flock not evading lets it
/// fly into its birds; through the middle, the flock opens round the
/// hawk's path on every side (no gap round it wider than 90° as it
/// crosses the middle); and it joins up again behind it. Flocks of 150 to
/// 600, the hawk through the middle or 50 to 63 px off it.
#[test]
fn a_flock_splits_round_a_hawk_and_joins_behind_it() {
    let paths = [
        Vec3::ZERO,
        Vec3::new(0.0, 40.0, -30.0),
        Vec3::new(0.0, -20.0, 60.0),
    ];
    for n in [150, 300, 600] {
        for off_centre in paths {
            let case = format!("{n} birds, {off_centre} off the middle");
            let (closest, gap, together) = hawk_through_flock(true, n, off_centre);
            assert!(closest > 80.0, "{case}: a bird {closest} px from the hawk");
            assert!(
                together >= 0.95,
                "{case}: {together} of the flock together behind it"
            );
            if off_centre == Vec3::ZERO {
                assert!(gap < 90.0, "{case}: a gap of {gap}° round the hawk");
                let (blind, ..) = hawk_through_flock(false, n, off_centre);
                assert!(
                    blind < 15.0,
                    "{case}: not evading, the hawk came {blind} px from one"
                );
            }
        }
    }
}

/// Ten thousand flyers flocking, spawned on one point, part within two
/// seconds (half of them at least a separation radius from it), with no
/// NaN.
#[test]
fn ten_thousand_flyers_spawned_on_one_point_part() {
    let spot = Vec3::new(0.0, 300.0, 0.0);
    let mut app = app(60.0);
    for _ in 0..10_000 {
        app.world_mut().spawn((
            FlyerFlocking::default(),
            FlyerBehavior::Idle,
            FlyerPosition(spot),
        ));
    }
    run_steps(&mut app, 120, |_| {});
    let mut distances: Vec<f32> = bird_positions(&mut app)
        .iter()
        .map(|p| {
            assert!(p.is_finite(), "{p}");
            p.distance(spot)
        })
        .collect();
    distances.sort_by(f32::total_cmp);
    let median = distances[distances.len() / 2];
    let separation = Flocking::default().rules.separation_radius;
    assert!(median >= separation, "half within {median} px of the point");
}
