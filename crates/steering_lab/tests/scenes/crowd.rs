//! Crowds: people who avoid each other (`AvoidAgents`), measured through
//! the real plugin in the crowd lab's scenes: who arrives, and whether any
//! two bodies overlap by more than a centimetre. (The same bits on one
//! thread and two: `crates/steering_lab/tests/lab.rs`, one process each,
//! since Bevy's compute pool is made once a process.)

use bevy::math::Vec2;
use steering_lab::crowd::{self, CrowdReport, Method, OVERLAP};

fn run(name: &str, method: Method, hz: f64, threads: usize) -> CrowdReport {
    let scene = crowd::scene(name, 1).expect("a scene of the lab");
    crowd::run(&scene, method, hz, Some(threads))
}

/// A headless app at `hz` whose agents are people 1 m across walking at
/// 1.3 m/s, as in the crowd lab.
fn people_app(hz: f64) -> bevy::app::App {
    let settings = bevy_reynolds::SteeringSettings {
        agent: crowd::person(0.5, 1.3),
        ..Default::default()
    };
    steering_lab::headless_app(hz, 1, settings)
}

/// Two people meeting head-on, at right angles, one overtaking the other,
/// and at a box's corner: both arrive, their bodies never overlap, within
/// 1.3 times the straight line's time, at 60 and 144 steps a second.
/// (Separation alone leaves the head-on pair standing 1.4 m apart, and the
/// crossing pair overlapping by a quarter of a metre.)
#[test]
fn pairs_pass_without_touching() {
    for hz in [60.0, 144.0] {
        for name in ["oncoming", "crossing", "overtaking", "corner"] {
            let r = run(name, Method::Avoid, hz, 1);
            assert_eq!(r.reached, 2, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.collisions, 0, "{name} at {hz} Hz: {r:?}");
            assert!(r.deepest_overlap <= OVERLAP, "{name} at {hz} Hz: {r:?}");
            assert!(r.time_ratio.1 <= 1.3, "{name} at {hz} Hz: {r:?}");
        }
    }
}

/// 24, 100 and 250 people on a circle, each walking to the point opposite
/// (where ORCA locks up for 24): everyone arrives within twice the straight
/// line's time, and no two bodies overlap, at 60 and 144 steps a second.
#[test]
fn circles_swap_sides() {
    for hz in [60.0, 144.0] {
        for name in ["circle-24", "circle-100", "circle-250"] {
            let r = run(name, Method::Avoid, hz, 1);
            assert_eq!(r.reached, r.agents, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.collisions, 0, "{name} at {hz} Hz: {r:?}");
            assert!(r.deepest_overlap <= OVERLAP, "{name} at {hz} Hz: {r:?}");
            assert!(r.time_ratio.1 <= 2.0, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.within_3x, r.agents, "{name} at {hz} Hz: {r:?}");
        }
    }
}

/// Where a crowd presses hardest (a door both ways, the same with one side
/// given right of way or taking turns, a door one way, a hallway both ways,
/// a crossroads, a room emptying through one exit): no two bodies ever
/// overlap by more than a centimetre, and none goes into a wall, at 60 and
/// 144 steps a second.
/// (Before bodies were kept apart, the hallway's overlapped by 0.98 m; while
/// one with right of way kept none of a gap, the door with right of way
/// overlapped in 2,244 pair-steps at 144 Hz.)
#[test]
fn bodies_never_overlap_where_crowds_press() {
    for hz in [60.0, 144.0] {
        for name in [
            "doorway",
            "doorway-east-first",
            "doorway-turns",
            "door-one-way",
            "hallway",
            "crossroads",
            "bottleneck",
        ] {
            let r = run(name, Method::Avoid, hz, 1);
            assert_eq!(r.non_finite, 0, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.collisions, 0, "{name} at {hz} Hz: {r:?}");
            assert!(r.deepest_overlap <= OVERLAP, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.wall_hits, 0, "{name} at {hz} Hz: {r:?}");
            assert!(r.deepest_wall <= OVERLAP, "{name} at {hz} Hz: {r:?}");
        }
    }
}

/// A door passed both ways that takes turns (the plugin's `TakeTurns`:
/// runs of 16, right of way to the way that has it, which may use the
/// whole door): all 50 through, and at least 5 more within three times
/// their straight line than through the door left to the crowd (as written
/// 34 / 33 against 24 / 24 at 60 / 144 Hz; from 16 moved starts 34.1 ±
/// 2.6 / 36.8 ± 2.0 against 17.4 ± 5.3 / 21.8 ± 4.3, BENCHMARKS.md, "Crowds").
#[test]
fn a_door_taking_turns_lets_more_through_in_time() {
    for hz in [60.0, 144.0] {
        let left = run("doorway", Method::Avoid, hz, 1);
        let turns = run("doorway-turns", Method::Avoid, hz, 1);
        assert_eq!(turns.reached, turns.agents, "at {hz} Hz: {turns:?}");
        assert!(
            turns.within_3x >= left.within_3x + 5,
            "at {hz} Hz: {} within 3x taking turns, {} left to the crowd",
            turns.within_3x,
            left.within_3x
        );
    }
}

/// The plugin's door taking turns, alone with two people: the nearer,
/// from the west, has the door first; the one from the east waits without
/// right of way until the first is through, then has it; both arrive, and
/// their bodies never overlap.
#[test]
fn a_door_lets_the_nearest_through_then_the_other_way() {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use steering_lab::run_steps;

    for hz in [60.0, 144.0] {
        let mut app = people_app(hz);
        let world = app.world_mut();
        let (north, south) = (Vec2::new(0.0, 1.0), Vec2::new(0.0, -1.0));
        let door = world.spawn(TakeTurns::between(north, south)).id();
        world.spawn(SteeringObstacle::wall(north, Vec2::new(0.0, 20.0)));
        world.spawn(SteeringObstacle::wall(south, Vec2::new(0.0, -20.0)));
        let mut walker = |from: Vec2, to: Vec2| {
            world
                .spawn((
                    SteeringBehavior::Arrive(SteeringTarget::Point(to)),
                    AgentPosition(from),
                    AvoidAgents::default(),
                ))
                .id()
        };
        let west = walker(Vec2::new(-1.5, 0.2), Vec2::new(6.0, 0.2));
        let east = walker(Vec2::new(2.5, -0.2), Vec2::new(-6.0, -0.2));
        let (mut first_way, mut east_had_it) = (None, false);
        let mut closest = f32::INFINITY;
        run_steps(&mut app, (hz * 20.0) as u64, |world| {
            let turn = world
                .get::<bevy_reynolds::DoorTurn>(door)
                .expect("the door's turns");
            let at = |agent| world.get::<AgentPosition>(agent).expect("an agent").0;
            first_way = first_way.or(turn.way());
            if turn.has_way(east) {
                assert!(
                    at(west).x > 0.0,
                    "at {hz} Hz: the east's before the west is through"
                );
                east_had_it = true;
            }
            closest = closest.min(at(west).distance(at(east)));
        });
        assert_eq!(first_way, Some(Vec2::X), "at {hz} Hz");
        assert!(east_had_it, "at {hz} Hz: the east never had the door");
        let at = |agent| app.world().get::<AgentPosition>(agent).expect("an agent").0;
        assert!(
            at(west).distance(Vec2::new(6.0, 0.2)) < crowd::ARRIVED,
            "at {hz} Hz"
        );
        assert!(
            at(east).distance(Vec2::new(-6.0, -0.2)) < crowd::ARRIVED,
            "at {hz} Hz"
        );
        assert!(closest >= 1.0 - OVERLAP, "at {hz} Hz: {closest}");
    }
}

/// On the XZ ground, a door placed by its transform (turned a quarter
/// about the up axis): its posts are where the transform puts them, and
/// one walking through it along the ground's x has its way.
#[test]
fn a_door_on_the_xz_ground_is_where_its_transform_puts_it() {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use steering_lab::run_steps;

    let mut app = people_app(60.0);
    app.insert_resource(GroundPlane::Xz)
        .add_plugins(TransformPlugin);
    let world = app.world_mut();
    // Posts 1 m either side of the door's middle along its local x; the
    // quarter turn puts them along the world's z, at x = 10.
    let door = world
        .spawn((
            TakeTurns::between(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)),
            Transform::from_xyz(10.0, 0.0, 5.0)
                .with_rotation(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)),
        ))
        .id();
    let walker = world
        .spawn((
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(20.0, 5.0))),
            Transform::from_xyz(8.0, 0.0, 5.2),
            AvoidAgents::default(),
        ))
        .id();
    run_steps(&mut app, 10, |_| {});
    let turn = app
        .world()
        .get::<bevy_reynolds::DoorTurn>(door)
        .expect("the door's turns");
    let (a, b) = turn.opening().expect("its opening");
    let z = |p: Vec2| p.y;
    assert!(
        (a.x - 10.0).abs() < 1e-4 && (b.x - 10.0).abs() < 1e-4,
        "{a} {b}"
    );
    assert!(
        (z(a).min(z(b)) - 4.0).abs() < 1e-4 && (z(a).max(z(b)) - 6.0).abs() < 1e-4,
        "{a} {b}"
    );
    assert!(
        turn.way().is_some_and(|way| way.distance(Vec2::X) < 1e-4),
        "{:?}",
        turn.way()
    );
    assert!(turn.has_way(walker));
}

/// A queue through a door: 25 people from one side all get through a door
/// 2 m wide, slowing behind those in front rather than pressing into them;
/// and one person standing in a door steps aside for one walking through
/// it (then goes back).
#[test]
fn a_door_is_queued_through_and_a_stander_steps_aside() {
    for hz in [60.0, 144.0] {
        let r = run("door-one-way", Method::Avoid, hz, 1);
        assert_eq!(r.reached, r.agents, "at {hz} Hz: {r:?}");
        let scene = crowd::scene("door-stander", 1).expect("a scene of the lab");
        let mut stander = Vec2::NAN;
        let r = crowd::run_traced(&scene, Method::Avoid, hz, Some(1), |_, at| stander = at[0]);
        assert_eq!(r.reached, 2, "at {hz} Hz: {r:?}");
        assert_eq!(r.collisions, 0, "at {hz} Hz: {r:?}");
        assert!(
            stander.length() < crowd::ARRIVED,
            "at {hz} Hz, back at {stander}"
        );
    }
}

/// Two people meet head-on, one with right of way: the other makes all of
/// the way; equals each make half of it.
#[test]
fn who_has_right_of_way_walks_straight_on() {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use steering_lab::run_steps;

    // The most each strays from its straight line, in metres.
    let strays = |first: u8, second: u8| {
        let mut app = people_app(60.0);
        let mut walker = |from: f32, right_of_way: u8| {
            app.world_mut()
                .spawn((
                    SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(-from, 0.0))),
                    AgentPosition(Vec2::new(from, 0.0)),
                    AvoidAgents {
                        right_of_way,
                        ..default()
                    },
                ))
                .id()
        };
        let (a, b) = (walker(-10.0, first), walker(10.0, second));
        let mut most = [0.0f32; 2];
        run_steps(&mut app, 60 * 20, |world| {
            for (k, agent) in [a, b].into_iter().enumerate() {
                let y = world.get::<AgentPosition>(agent).expect("an agent").0.y;
                most[k] = most[k].max(y.abs());
            }
        });
        most
    };
    let [a, b] = strays(0, 0);
    assert!((a - b).abs() < 0.05 && a > 0.3, "equals: {a} and {b}");
    let [a, b] = strays(1, 0);
    assert!(
        a < 0.01 && b > 0.8,
        "the first has right of way: {a} and {b}"
    );
    let [a, b] = strays(0, 1);
    assert!(
        b < 0.01 && a > 0.8,
        "the second has right of way: {a} and {b}"
    );
}

/// People standing at their goals closer together than making way reaches
/// (1.2 m apart, bodies 1 m across, making way within 1.3 m) stay put:
/// only a neighbor that moves is made way for, not one standing too. (When
/// each made way for the other, the block kept turning in place, one
/// 0.36 m off its goal within 20 s.)
#[test]
fn people_standing_close_at_their_goals_stay_there() {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use steering_lab::run_steps;

    let mut app = people_app(60.0);
    let mut standing = Vec::new();
    for i in 0..4 {
        for j in 0..4 {
            let goal = Vec2::new(1.4 * i as f32, 1.2 * j as f32);
            let id = app
                .world_mut()
                .spawn((
                    SteeringBehavior::Arrive(SteeringTarget::Point(goal)),
                    AgentPosition(goal),
                    AvoidAgents::default(),
                ))
                .id();
            standing.push((id, goal));
        }
    }
    let mut farthest = 0.0f32;
    run_steps(&mut app, 60 * 20, |world| {
        for &(id, goal) in &standing {
            let at = world.get::<AgentPosition>(id).expect("an agent").0;
            farthest = farthest.max(at.distance(goal));
        }
    });
    assert!(farthest < 0.05, "one strayed {farthest} m from its goal");
}

/// The two-way hallway from moved starts (each start moved by up to 0.1 m,
/// seeds where someone was held short of their goal for good while those
/// standing made way away from the one pressing and to their own right),
/// given 400 s at 144 steps a second: all 200 arrive, and no two bodies
/// overlap. Those pressed by one walking on now step out of its way.
#[test]
fn nobody_in_the_hallway_is_held_short_for_good() {
    for seed in [19, 25] {
        let scene = crowd::scene("hallway", seed).expect("a scene of the lab");
        let scene = crowd::CrowdScene {
            time_limit: Some(400.0),
            ..scene.jittered(crowd::MAX_JITTER, seed)
        };
        let r = crowd::run(&scene, Method::Avoid, 144.0, Some(1));
        assert_eq!(r.reached, r.agents, "seed {seed}: {r:?}");
        assert_eq!(r.collisions, 0, "seed {seed}: {r:?}");
    }
}

/// Two people standing pressed face to face, each bound for a goal 10 m
/// behind the other, exactly in line or a little off it: both arrive,
/// without overlapping, within 1.3 times the 10.5 m straight line (they
/// start from rest). Neither moving, neither foresees anything, and the
/// contact alone held the two in line for good.
#[test]
fn two_pressed_face_to_face_get_past() {
    for side in [0.0, 0.05, 0.45] {
        for hz in [60.0, 144.0] {
            let scene = crowd::CrowdScene {
                name: "face-to-face",
                walkers: vec![
                    crowd::Walker::new(Vec2::new(-0.5, 0.0), Vec2::new(10.0, 0.0)),
                    crowd::Walker::new(Vec2::new(0.5, side), Vec2::new(-10.0, side)),
                ],
                walls: Vec::new(),
                time_limit: Some(60.0),
                door_turns: None,
            };
            let speed = scene.walkers[0].speed;
            let r = crowd::run(&scene, Method::Avoid, hz, Some(1));
            let case = format!("{side} m off line, {hz} Hz: {r:?}");
            assert_eq!(r.reached, 2, "{case}");
            assert_eq!(r.collisions, 0, "{case}");
            let last = r.all_arrived_at.expect("both arrived");
            assert!(last <= 1.3 * 10.5 / speed, "{case}");
        }
    }
}

mod hostile {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use proptest::prelude::*;
    use steering_lab::{headless_app, run_steps};

    fn hostile() -> impl Strategy<Value = f32> + Clone {
        prop_oneof![
            6 => -50.0f32..50.0,
            1 => Just(0.0f32),
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(-1.0f32),
            1 => Just(1e30f32),
        ]
    }

    fn avoider() -> impl Strategy<Value = (Vec2, Vec2, f32, AvoidParams)> {
        let v = || (hostile(), hostile()).prop_map(|(x, y)| Vec2::new(x, y));
        (v(), v(), hostile(), (hostile(), hostile(), hostile())).prop_map(
            |(p, vel, radius, (horizon, strength, keep_right))| {
                let rules = AvoidParams {
                    horizon,
                    strength,
                    keep_right,
                };
                (p, vel, radius, rules)
            },
        )
    }

    /// Ten thousand avoiders spawned on one point, with bodies: they part
    /// (each pair its own way), no position or velocity turns NaN, and
    /// nothing panics.
    #[test]
    fn ten_thousand_on_one_point_part_without_nan() {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        for _ in 0..10_000 {
            app.world_mut().spawn((
                SteeringParams {
                    radius: 8.0,
                    ..default()
                },
                SteeringBehavior::Idle,
                AvoidAgents::default(),
                AgentPosition(Vec2::new(500.0, 350.0)),
            ));
        }
        run_steps(&mut app, 3, |_| {});
        let mut query = app.world_mut().query::<(&AgentPosition, &AgentVelocity)>();
        let mut spread = 0.0f32;
        for (p, v) in query.iter(app.world()) {
            assert!(p.is_finite() && v.is_finite(), "{p:?} {v:?}");
            spread = spread.max(p.0.distance(Vec2::new(500.0, 350.0)));
        }
        // Pushed apart at the force cap, 380 px/s², from a standstill: a
        // fraction of a pixel in the first few steps.
        assert!(spread > 0.1, "they did not part: {spread}");
    }

    /// Ten thousand on one point, all heading through a door taking turns
    /// just ahead of them: the door sees them coming and gives them its
    /// way, and no position or velocity turns NaN.
    #[test]
    fn ten_thousand_at_a_door_stay_finite() {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        let at = Vec2::new(500.0, 350.0);
        let door = app
            .world_mut()
            .spawn(TakeTurns::between(
                at + Vec2::new(20.0, 30.0),
                at + Vec2::new(20.0, -30.0),
            ))
            .id();
        let mut agents = Vec::new();
        for _ in 0..10_000 {
            let agent = app.world_mut().spawn((
                SteeringParams {
                    radius: 8.0,
                    ..default()
                },
                SteeringBehavior::Seek(SteeringTarget::Point(at + Vec2::new(400.0, 0.0))),
                AvoidAgents::default(),
                AgentPosition(at),
            ));
            agents.push(agent.id());
        }
        run_steps(&mut app, 3, |_| {});
        let turn = app
            .world()
            .get::<bevy_reynolds::DoorTurn>(door)
            .expect("the door's turns");
        assert_eq!(turn.way(), Some(Vec2::X));
        assert!(agents.iter().all(|&a| turn.has_way(a)));
        let mut query = app.world_mut().query::<(&AgentPosition, &AgentVelocity)>();
        for (p, v) in query.iter(app.world()) {
            assert!(p.is_finite() && v.is_finite(), "{p:?} {v:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// Crowds of avoiders with bodies, hostile numbers and all (on one
        /// spot, NaN radii and horizons, huge speeds): no panic, and every
        /// position and force stays finite.
        #[test]
        fn hostile_crowds_stay_finite(agents in proptest::collection::vec(avoider(), 1..24)) {
            let mut app = headless_app(60.0, 1, SteeringSettings::default());
            for (p, vel, radius, rules) in agents {
                app.world_mut().spawn((
                    SteeringParams { radius, ..default() },
                    SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::ZERO)),
                    AvoidAgents { rules, ..default() },
                    AgentPosition(p),
                    AgentVelocity(vel),
                    SteeringForce::default(),
                ));
            }
            run_steps(&mut app, 20, |_| {});
            let mut query = app.world_mut().query::<(&AgentPosition, &AgentVelocity, &SteeringForce)>();
            for (p, v, f) in query.iter(app.world()) {
                prop_assert!(p.is_finite() && v.is_finite() && f.is_finite(), "{p:?} {v:?} {f:?}");
            }
        }
    }
}

/// An avoider walking at a wall is pushed by it as by any wall it meets
/// side on, however long: a wall 40 px long and one 6,000 px long (in the
/// obstacles' index, in cells of 64 px: one cell, or every cell the agent
/// looks through) slow it the same way, step by step, to a stop at it.
#[test]
fn a_long_wall_pushes_an_avoider_once() {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use bevy_reynolds::reynolds::crowd::AvoidParams;
    let walk_at_wall = |half_length: f32| {
        let mut app = steering_lab::headless_app(60.0, 1, SteeringSettings::default());
        // In the middle of a cell, 32 px up.
        app.world_mut().spawn((
            SteeringObstacle::wall(Vec2::new(0.0, -half_length), Vec2::new(0.0, half_length)),
            AgentPosition(Vec2::new(288.0, 32.0)),
        ));
        let agent = app
            .world_mut()
            .spawn((
                // Looking half a second ahead: through a few cells.
                AvoidAgents {
                    rules: AvoidParams {
                        horizon: 0.5,
                        ..default()
                    },
                    ..default()
                },
                SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(1_000.0, 32.0))),
                SteeringParams {
                    radius: 8.0,
                    ..default()
                },
                AgentPosition(Vec2::new(0.0, 32.0)),
                AgentVelocity(Vec2::new(200.0, 0.0)),
            ))
            .id();
        let mut xs = Vec::new();
        steering_lab::run_steps(&mut app, 120, |world| {
            xs.push(world.get::<AgentPosition>(agent).unwrap().0.x);
        });
        xs
    };
    let (short, long) = (walk_at_wall(20.0), walk_at_wall(3_000.0));
    let slowest = |xs: &[f32]| xs.windows(2).map(|w| w[1] - w[0]).fold(f32::MAX, f32::min);
    // Slowed by the push, before its body is stopped at the wall.
    assert!(
        short[40] < 200.0 && (short[119] - 280.0).abs() < 0.5,
        "{short:?}"
    );
    for (step, (a, b)) in short.iter().zip(&long).enumerate() {
        assert!(
            (a - b).abs() < 1e-3,
            "step {step}: {a} by the short wall, {b} by the long one; slowest steps {} and {}",
            slowest(&short),
            slowest(&long)
        );
    }
}
