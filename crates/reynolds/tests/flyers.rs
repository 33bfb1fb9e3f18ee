//! The model in full 3D: the plane's numbers along every axis and the
//! diagonal, wander over the whole sphere, banking, and the limits things
//! that fly have.

use approx::assert_relative_eq;
use glam::{Vec2, Vec3};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use reynolds::behaviors::{arrive, follow_leader, predicted_position, seek, slot_position};
use reynolds::defaults::{MAX_SPEED, RESPONSE_TIME, WANDER_RATE};
use reynolds::flight::{Attitude, Flight, step_flyer};
use reynolds::flock::{FlockParams, FlockSums, FlockView, Flocker, Neighbor};
use reynolds::math::SteeringVector;
use reynolds::model::{Kinematics, Limits, Vehicle, limit_turn, steering, step, step_vehicle};
use reynolds::path::{Polyline, follow_path};
use reynolds::spatial::{GridAgent, NeighborGrid, OneThread, Tasks, VolumeGrid};
use reynolds::wander::{wander_step, wander_step_3d};

/// Each axis, both ways, and the diagonals the plane never sees.
fn directions() -> Vec<Vec3> {
    let mut all = vec![Vec3::ONE.normalize(), Vec3::new(1.0, -1.0, 1.0).normalize()];
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        all.extend([axis, -axis]);
    }
    all
}

const RATES: [f32; 2] = [60.0, 144.0];

/// Seconds until a still agent, pushed as hard as it may be along `dir`,
/// reaches top speed, and then until it goes top speed the other way.
fn speed_up_and_turn_around<V: SteeringVector>(dir: V, dt: f32) -> (f32, f32) {
    let limits = Limits::default();
    let mut agent = Kinematics {
        pos: V::ZERO,
        vel: V::ZERO,
    };
    let mut up = 0.0;
    while agent.vel.length() < MAX_SPEED - 1e-3 {
        agent = step(agent, dir * 1e6, limits, dt);
        up += dt;
    }
    let mut around = 0.0;
    while agent.vel.dot(dir) > -MAX_SPEED + 1e-3 {
        agent = step(agent, -dir * 1e6, limits, dt);
        around += dt;
    }
    (up, around)
}

/// How far an arriver, started 400 px back along `dir` at rest, passes
/// its target at the origin (the model's exercise: 0 at a 150 px slowing
/// radius, about 21 at 50), and where it stands after 10 s.
fn arrive_overshoot<V: SteeringVector>(dir: V, slowing_radius: f32, dt: f32) -> (f32, V) {
    let limits = Limits::default();
    let mut agent = Kinematics {
        pos: dir * -400.0,
        vel: V::ZERO,
    };
    let mut overshoot = 0.0f32;
    for _ in 0..(10.0 / dt) as usize {
        let desired = arrive(agent.pos, V::ZERO, MAX_SPEED, slowing_radius);
        agent = step(
            agent,
            steering(desired, agent.vel, RESPONSE_TIME),
            limits,
            dt,
        );
        overshoot = overshoot.max(agent.pos.dot(dir));
    }
    (overshoot, agent.pos)
}

#[test]
fn the_planes_numbers_hold_along_every_axis_and_the_diagonal() {
    for hz in RATES {
        let dt = 1.0 / hz;
        let (up, around) = speed_up_and_turn_around(Vec2::X, dt);
        // The model's 0.58 s and 1.16 s, to within a step.
        assert_relative_eq!(up, 0.58, epsilon = 0.02);
        assert_relative_eq!(around, 1.16, epsilon = 0.02);
        let (quick, _) = arrive_overshoot(Vec2::X, 50.0, dt);
        let (slow, _) = arrive_overshoot(Vec2::X, 150.0, dt);
        assert_relative_eq!(quick, 21.0, epsilon = 1.0);
        assert_eq!(slow, 0.0);
        for dir in directions() {
            let (up3, around3) = speed_up_and_turn_around(dir, dt);
            // The same number of steps as on the plane.
            assert_relative_eq!(up3, up, epsilon = 1e-4);
            assert_relative_eq!(around3, around, epsilon = 1e-4);
            let (quick3, rest3) = arrive_overshoot(dir, 50.0, dt);
            let (slow3, rest_slow3) = arrive_overshoot(dir, 150.0, dt);
            assert_relative_eq!(quick3, quick, epsilon = 0.05);
            assert!(slow3 < 1e-3, "{dir} at {hz} Hz overshot {slow3}");
            assert!(
                rest3.length() < 0.5 && rest_slow3.length() < 0.5,
                "{dir}: {rest3}"
            );

            // Pursue's look-ahead: 440 px off, a target crossing at 100 px/s
            // is aimed at 100 px ahead of it; 110 px off, 50.
            let across = Vec3::left_of(dir);
            for (d, ahead) in [(440.0, 100.0), (110.0, 50.0)] {
                let target = dir * d;
                let aim = predicted_position(Vec3::ZERO, target, across * 100.0, MAX_SPEED);
                assert_relative_eq!((aim - target).dot(across), ahead, epsilon = 1e-3);
                assert_relative_eq!(seek(Vec3::ZERO, target, MAX_SPEED).length(), MAX_SPEED);
            }
        }
    }
}

#[test]
fn on_a_plane_a_flyer_moves_as_a_walker_does() {
    // The same steering, in the XY plane of 3D: the same path, within
    // float rounding, including a turn-limited vehicle.
    let vehicle = Vehicle {
        max_turn_rate: 2.0,
        mass: 1.5,
        ..Vehicle::default()
    };
    let mut flat = (
        Kinematics {
            pos: Vec2::new(-300.0, 40.0),
            vel: Vec2::new(0.0, -100.0),
        },
        Vec2::NEG_Y,
    );
    let mut flyer = (
        Kinematics {
            pos: flat.0.pos.extend(0.0),
            vel: flat.0.vel.extend(0.0),
        },
        Attitude::new(Vec3::NEG_Y, Vec3::Z),
    );
    let lift = |v: Vec2| v.extend(0.0);
    for _ in 0..600 {
        let desired = arrive(flat.0.pos, Vec2::ZERO, MAX_SPEED, 150.0);
        let s = steering(desired, flat.0.vel, RESPONSE_TIME);
        flat = step_vehicle(flat.0, flat.1, s, vehicle, 1.0 / 60.0);
        let desired3 = arrive(flyer.0.pos, Vec3::ZERO, MAX_SPEED, 150.0);
        let s3 = steering(desired3, flyer.0.vel, RESPONSE_TIME);
        flyer = step_flyer(
            flyer.0,
            flyer.1,
            s3,
            vehicle,
            &Flight::default(),
            1.0 / 60.0,
        );
        assert!((flyer.0.pos - lift(flat.0.pos)).length() < 1e-2);
        assert!((flyer.1.forward - lift(flat.1)).length() < 1e-4);
    }
}

#[test]
fn places_in_a_leaders_frame_and_turns_are_the_planes_in_3d() {
    let leader = Vec3::new(100.0, 50.0, 0.0);
    // Heading east, +y up: left is north (-z), up is +y.
    let place = slot_position(leader, Vec3::X, Vec3::new(-40.0, 30.0, 10.0));
    assert_relative_eq!(place.x, 60.0, epsilon = 1e-4);
    assert_relative_eq!(place.z, -30.0, epsilon = 1e-4);
    assert_relative_eq!(place.y, 60.0, epsilon = 1e-4);
    // Straight up, the frame still has a left.
    let above = slot_position(Vec3::ZERO, Vec3::Y, Vec3::new(0.0, 10.0, 0.0));
    assert_relative_eq!(above.length(), 10.0, epsilon = 1e-4);
    // A follower ahead of its leader steps out to the side it is on, in
    // 3D too: here above the leader's line, so up.
    let v = follow_leader(
        Vec3::new(20.0, 3.0, 0.0),
        Vec3::ZERO,
        Vec3::X * 100.0,
        Vec3::X,
        40.0,
        16.0,
        220.0,
        150.0,
    );
    assert!(v.y > 100.0 && v.z.abs() < 1e-3, "{v}");
    // A turn limit turns by its angle toward the wanted way, in its plane.
    for wanted in [
        Vec3::Y,
        Vec3::new(0.0, 1.0, 1.0),
        Vec3::NEG_X,
        Vec3::new(-1.0, 0.0, 1e-6),
    ] {
        let turned = limit_turn(Vec3::X, wanted, 0.1).unwrap();
        assert_relative_eq!(turned.angle_between(Vec3::X), 0.1, epsilon = 1e-5);
        let plane = Vec3::X.cross(wanted);
        if plane.length() > 1e-3 {
            assert!(
                turned.dot(plane.normalize()).abs() < 1e-5,
                "{wanted}: {turned}"
            );
        }
    }
    assert_eq!(limit_turn(Vec3::X, Vec3::new(10.0, 0.5, 0.5), 0.1), None);
    // A 3D course through rings: followed from start to end.
    let rings = Polyline::new(
        [
            Vec3::ZERO,
            Vec3::new(300.0, 100.0, 0.0),
            Vec3::new(300.0, 100.0, 300.0),
        ],
        false,
    );
    let mut agent = Kinematics::<Vec3>::default();
    let mut cursor = 0.0;
    for _ in 0..60 * 10 {
        let path = follow_path(&rings, agent.pos, agent.vel, cursor, MAX_SPEED, 150.0, 60.0);
        cursor = path.cursor;
        agent = step(
            agent,
            steering(path.desired, agent.vel, RESPONSE_TIME),
            Limits::default(),
            1.0 / 60.0,
        );
        assert!(
            rings.distance(agent.pos) < 40.0,
            "off the course at {}",
            agent.pos
        );
    }
    assert!(agent.pos.distance(Vec3::new(300.0, 100.0, 300.0)) < 1.0);
}

/// The root mean square angle, in degrees, between headings one second
/// apart, over `wanderers` wandering for `seconds` at `hz`; and how many of
/// the steps each octant of directions held.
fn drift_3d(hz: f32, seconds: f32, wanderers: u64) -> (f32, [u32; 8]) {
    let dt = 1.0 / hz;
    let per_second = hz.round() as usize;
    let (mut sum, mut count, mut octants) = (0.0f64, 0u32, [0u32; 8]);
    for seed in 0..wanderers {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut dir = Vec3::X;
        let mut mark = dir;
        for i in 1..=(seconds * hz) as usize {
            let u = [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)];
            dir = wander_step_3d(dir, dt, WANDER_RATE, u);
            let octant = (dir.x > 0.0) as usize
                | ((dir.y > 0.0) as usize) << 1
                | ((dir.z > 0.0) as usize) << 2;
            octants[octant] += 1;
            if i % per_second == 0 {
                sum += (mark.angle_between(dir) as f64).powi(2);
                count += 1;
                mark = dir;
            }
        }
    }
    (((sum / count as f64).sqrt() as f32).to_degrees(), octants)
}

fn drift_2d(hz: f32, seconds: f32, wanderers: u64) -> f32 {
    let dt = 1.0 / hz;
    let per_second = hz.round() as usize;
    let (mut sum, mut count) = (0.0f64, 0u32);
    for seed in 0..wanderers {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut angle, mut mark) = (0.0f32, 0.0f32);
        for i in 1..=(seconds * hz) as usize {
            angle = wander_step(angle, dt, WANDER_RATE, rng.random_range(-1.0..1.0));
            if i % per_second == 0 {
                let turn = Vec2::from_angle(mark).angle_to(Vec2::from_angle(angle));
                sum += (turn as f64).powi(2);
                count += 1;
                mark = angle;
            }
        }
    }
    ((sum / count as f64).sqrt() as f32).to_degrees()
}

#[test]
fn wander_drifts_as_on_the_plane_at_any_rate_and_roams_the_sphere() {
    for hz in [30.0, 60.0, 144.0] {
        let (flyer, _) = drift_3d(hz, 300.0, 20);
        let walker = drift_2d(hz, 300.0, 20);
        // 6,000 one-second windows each: the sampling error is about 0.2°.
        assert!(
            (flyer - walker).abs() < 2.0,
            "{hz} Hz: flyer {flyer:.2}°, walker {walker:.2}°"
        );
        assert!((walker - 21.5).abs() < 1.5, "{hz} Hz: walker {walker:.2}°");
    }
    // Ten minutes of one wanderer: every octant of directions, each for a
    // fair share of the time (an eighth, give or take).
    let (_, octants) = drift_3d(60.0, 600.0, 1);
    let total: u32 = octants.iter().sum();
    for (i, steps) in octants.iter().enumerate() {
        let share = *steps as f32 / total as f32;
        assert!(
            share > 0.04,
            "octant {i}: {share:.3} of the time ({octants:?})"
        );
    }
}

#[test]
fn wander_in_3d_is_safe_on_bad_input() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for dir in [Vec3::splat(bad), Vec3::ZERO, Vec3::new(bad, 1.0, 0.0)] {
            assert!(wander_step_3d(dir, 0.1, 0.65, [0.5, 0.5]).is_normalized());
        }
        assert!(wander_step_3d(Vec3::Y, bad, 0.65, [0.5, 0.5]).is_normalized());
        assert!(wander_step_3d(Vec3::Y, 0.1, bad, [0.5, 0.5]).is_normalized());
        assert!(wander_step_3d(Vec3::Y, 0.1, 0.65, [bad, bad]).is_normalized());
    }
    assert_eq!(wander_step_3d(Vec3::Z, -1.0, 0.65, [1.0, 1.0]), Vec3::Z);
    // A huge rate turns by any angle and stays a unit vector.
    assert!(wander_step_3d(Vec3::Z, 1.0, 1e30, [1.0, 1.0]).is_normalized());
}

/// A flyer circling at `speed` on a circle of `radius` in the XZ plane
/// (left-handed seen from above if `left`), steered by exactly the inward
/// acceleration it needs, for `seconds` at `hz`: its last attitude, its
/// position and the way to the circle's centre.
fn circle(speed: f32, radius: f32, left: bool, hz: f32, seconds: f32) -> (Attitude, Vec3, Vec3) {
    let dt = 1.0 / hz;
    let vehicle = Vehicle::new(Limits {
        max_speed: speed,
        max_force: 1e4,
    });
    let centre = if left {
        Vec3::new(0.0, 0.0, -radius)
    } else {
        Vec3::new(0.0, 0.0, radius)
    };
    let mut agent = Kinematics {
        pos: Vec3::ZERO,
        vel: Vec3::X * speed,
    };
    let mut attitude = Attitude::default();
    for _ in 0..(seconds * hz) as usize {
        let inward = (centre - agent.pos).normalize() * (speed * speed / radius);
        (agent, attitude) = step_flyer(agent, attitude, inward, vehicle, &Flight::default(), dt);
    }
    (attitude, agent.pos, (centre - agent.pos).normalize())
}

#[test]
fn a_flyer_banks_into_turns_by_its_lateral_acceleration_and_flies_level_on_straights() {
    let g = Flight::default().bank_gravity;
    for hz in [30.0, 60.0, 144.0] {
        for (speed, radius) in [(220.0, 127.4), (220.0, 400.0), (100.0, 50.0), (60.0, 600.0)] {
            for left in [true, false] {
                let (attitude, _, inward) = circle(speed, radius, left, hz, 4.0);
                assert!(attitude.up.dot(inward) > 0.0, "leans out of the turn");
                let lateral = speed * speed / radius;
                let expected = (lateral / g).atan();
                let roll = attitude.roll().abs();
                assert!(
                    (roll - expected).abs() <= 0.1 * expected,
                    "{speed} px/s on {radius} px at {hz} Hz: roll {:.2}°, expected {:.2}°",
                    roll.to_degrees(),
                    expected.to_degrees()
                );
                assert_eq!(attitude.roll() < 0.0, left, "a left turn rolls left");
            }
        }
        // Into a turn, the roll follows with its half-life (0.1 s), at any
        // rate: about halfway there after one.
        let (early, _, _) = circle(220.0, 400.0, true, hz, 0.1);
        let (settled, _, _) = circle(220.0, 400.0, true, hz, 4.0);
        let share = early.roll() / settled.roll();
        assert!(
            (share - 0.5).abs() < 0.1,
            "{hz} Hz: {share:.3} of the roll after 0.1 s"
        );
        // Out of a turn onto a straight: level again, within 1°, in 2 s.
        let (attitude, pos, _) = circle(220.0, 127.4, true, hz, 2.0);
        let mut agent = Kinematics {
            pos,
            vel: attitude.forward * 220.0,
        };
        let mut attitude = attitude;
        for _ in 0..(2.0 * hz) as usize {
            (agent, attitude) = step_flyer(
                agent,
                attitude,
                Vec3::ZERO,
                Vehicle::default(),
                &Flight::default(),
                1.0 / hz,
            );
        }
        assert!(
            attitude.up.angle_between(Vec3::Y) < 1f32.to_radians(),
            "{}",
            attitude.up
        );
    }
}

#[test]
fn a_stopped_flyer_keeps_its_attitude() {
    let rolled = Attitude::new(Vec3::Z, Vec3::new(0.3, 1.0, 0.0));
    let still = Kinematics::<Vec3>::default();
    let (next, attitude) = step_flyer(
        still,
        rolled,
        Vec3::ZERO,
        Vehicle::default(),
        &Flight::default(),
        1.0 / 60.0,
    );
    assert_eq!(next, still);
    assert_eq!(attitude, rolled);
    // And bad input leaves unit vectors square to each other.
    for bad in [f32::NAN, f32::INFINITY] {
        let broken = Attitude {
            forward: Vec3::splat(bad),
            up: Vec3::ZERO,
        };
        let agent = Kinematics {
            pos: Vec3::splat(bad),
            vel: Vec3::new(bad, 1.0, 2.0),
        };
        let (next, attitude) = step_flyer(
            agent,
            broken,
            Vec3::splat(bad),
            Vehicle::default(),
            &Flight::default(),
            1.0 / 60.0,
        );
        assert!(next.pos.is_finite() && next.vel.is_finite());
        assert!(attitude.forward.is_normalized() && attitude.up.is_normalized());
        assert!(attitude.forward.dot(attitude.up).abs() < 1e-5);
    }
}

#[test]
fn a_flyer_keeps_its_least_speed_and_its_climb_and_dive_limits() {
    let flight = Flight {
        min_speed: 80.0,
        max_climb: 30f32.to_radians(),
        max_dive: 45f32.to_radians(),
        ..Flight::default()
    };
    let vehicle = Vehicle::default();
    for target in [
        Vec3::new(0.0, 2000.0, 0.0),
        Vec3::new(10.0, -2000.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
    ] {
        let mut agent = Kinematics {
            pos: Vec3::ZERO,
            vel: Vec3::X * 100.0,
        };
        let mut attitude = Attitude::default();
        for _ in 0..600 {
            let desired = arrive(agent.pos, target, MAX_SPEED, 150.0);
            let s = steering(desired, agent.vel, RESPONSE_TIME);
            (agent, attitude) = step_flyer(agent, attitude, s, vehicle, &flight, 1.0 / 60.0);
            let speed = agent.vel.length();
            assert!(
                (80.0 - 1e-3..=MAX_SPEED + 1e-3).contains(&speed),
                "speed {speed}"
            );
            let pitch = (agent.vel.y / speed).asin();
            assert!(
                pitch <= flight.max_climb + 1e-5 && pitch >= -flight.max_dive - 1e-5,
                "pitch {pitch}"
            );
            assert!(attitude.forward.angle_between(agent.vel) < 1e-3);
        }
    }
    // With no limits, the defaults, a flyer stops where it is sent.
    let limits = Flight::default();
    assert_eq!(limits.limit(Vec3::ZERO, Vec3::X, MAX_SPEED), Vec3::ZERO);
    assert_eq!(
        limits.limit(Vec3::Y * 5.0, Vec3::X, MAX_SPEED),
        Vec3::Y * 5.0
    );
    // A least speed above the top speed is the top speed.
    let eager = Flight {
        min_speed: 1e9,
        ..Flight::default()
    };
    assert_relative_eq!(
        eager.limit(Vec3::ZERO, Vec3::Z, MAX_SPEED).length(),
        MAX_SPEED
    );
    // Bad limits are no limits, or none at all.
    let broken = Flight {
        min_speed: f32::NAN,
        max_climb: f32::NAN,
        max_dive: -1.0,
        ..Flight::default()
    };
    let v = broken.limit(Vec3::new(1.0, -1.0, 0.0), Vec3::X, MAX_SPEED);
    assert!(v.is_finite() && v.y == 0.0, "{v}");
}

/// Two threads of the test's own, each taking every other chunk.
struct TwoThreads;

impl Tasks for TwoThreads {
    fn threads(&self) -> usize {
        2
    }

    fn for_each<C: Send>(&self, chunks: impl Iterator<Item = C>, f: impl Fn(C) + Sync) {
        let (mut even, mut odd) = (Vec::new(), Vec::new());
        for (i, chunk) in chunks.enumerate() {
            if i % 2 == 0 {
                even.push(chunk)
            } else {
                odd.push(chunk)
            }
        }
        std::thread::scope(|scope| {
            scope.spawn(|| even.into_iter().for_each(&f));
            odd.into_iter().for_each(&f);
        });
    }
}

/// `n` flyers in a cube of `side`, some on one spot, moving every way.
fn flyers_in_a_cube(n: u32, side: f32, seed: u64, radius: f32) -> Vec<GridAgent<u32, Vec3>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut point = |scale: f32| {
        Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        ) * scale
    };
    (0..n)
        .map(|id| GridAgent {
            id,
            // Every tenth on the spot of the one before.
            position: if id % 10 == 9 {
                Vec3::splat(side * 0.1)
            } else {
                point(side)
            },
            velocity: point(200.0),
            radius: if id % 3 == 0 { radius } else { 0.0 },
        })
        .collect()
}

/// The three rules over the volume grid give each flyer the steering they
/// give over every other flyer one by one (up to rounding: the grid adds
/// four lanes at a time), for flocks dense and sparse, of points and of
/// bodies, seeing all round or in a cone, heeding all or the nearest
/// few, in boxes of three shapes, on one thread and two (the same bits).
#[test]
fn a_flock_in_3d_steers_each_flyer_by_all_its_neighbors() {
    let cones = [None, Some(2.0)];
    let mut compared = 0;
    for (seed, (side, radius)) in [(150.0, 0.0), (400.0, 4.0), (60.0, 2.0)]
        .into_iter()
        .enumerate()
    {
        for cone in cones {
            for max_neighbors in [None, Some(5)] {
                let params = FlockParams {
                    view_half_angle: cone,
                    ..FlockParams::default()
                };
                let agents = flyers_in_a_cube(300, side, seed as u64, radius);
                let flocker = Flocker::new(params, 220.0, 0.15, radius, max_neighbors);
                let mut grid = VolumeGrid::default();
                grid.take(agents.iter().map(|a| (*a, 0)));
                let reach = flocker.reach();
                // Boxes of three shapes; the smallest puts more rows of them
                // in reach than an agent's runs hold at once.
                let shape = [Vec3::new(0.25, 0.5, 1.0), Vec3::ONE, Vec3::splat(0.12)][seed];
                grid.sort(shape * reach, &OneThread);
                let (mut forces, mut scratch) = (Vec::new(), Vec::new());
                grid.flock(&[flocker], &OneThread, &mut forces, &mut scratch);
                let mut on_two = Vec::new();
                grid.flock(&[flocker], &TwoThreads, &mut on_two, &mut scratch);
                assert_eq!(format!("{forces:?}"), format!("{on_two:?}"));
                for agent in &agents {
                    let slot = grid.slot_of(agent.id).unwrap();
                    let view =
                        FlockView::new(&params, agent.velocity).with_body_radius(agent.radius);
                    let mut near: Vec<Neighbor<Vec3>> = agents
                        .iter()
                        .map(|other| Neighbor {
                            offset: other.position - agent.position,
                            vel: other.velocity,
                            radius: other.radius,
                        })
                        .collect();
                    let mut sums = FlockSums::default();
                    if let Some(limit) = max_neighbors {
                        near.retain(|n| {
                            n.offset.length()
                                <= flocker.params.reach_with_bodies(agent.radius, radius)
                        });
                        near.sort_by(|a, b| {
                            a.offset
                                .length_squared()
                                .total_cmp(&b.offset.length_squared())
                        });
                        let apart: Vec<f32> = near
                            .iter()
                            .filter(|n| n.offset != Vec3::ZERO)
                            .map(|n| n.offset.length_squared())
                            .collect();
                        if apart.len() > limit && apart[limit - 1] == apart[limit] {
                            // Which of the tied the grid heeds is its own
                            // choice.
                            continue;
                        }
                        let on_spot = near.iter().take_while(|n| n.offset == Vec3::ZERO);
                        for n in on_spot
                            .chain(near.iter().filter(|n| n.offset != Vec3::ZERO).take(limit))
                        {
                            sums.add(*n, &view);
                        }
                    } else {
                        for n in near {
                            sums.add(n, &view);
                        }
                    }
                    if sums.on_spot() > 1 {
                        // Ties are broken by ids: compare those flyers
                        // only by their neighbors' count.
                        continue;
                    }
                    let expected = sums.steering(agent.velocity, &params, 220.0, 0.15);
                    let got = forces[slot].unwrap();
                    assert!(
                        (got - expected).length() <= 1e-3 * expected.length().max(1.0),
                        "side {side}, cone {cone:?}, {max_neighbors:?}: {got} against {expected}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 3000, "{compared}");
}

/// A flock that happens to lie in one plane steers in 3D as the plane's
/// flock steers it (the same rules, radii and weights), and never out of
/// its plane.
#[test]
fn a_flat_flock_in_3d_steers_as_on_the_plane() {
    let flat: Vec<_> = flyers_in_a_cube(400, 200.0, 7, 0.0)
        .into_iter()
        .map(|mut a| {
            a.position.z = 0.0;
            a.velocity.z = 0.0;
            a
        })
        .collect();
    let flocker_3d = Flocker::new(FlockParams::default(), 220.0, 0.15, 0.0, None);
    let flocker_2d = Flocker::new(FlockParams::default(), 220.0, 0.15, 0.0, None);
    let mut volume = VolumeGrid::default();
    volume.take(flat.iter().map(|a| (*a, 0)));
    volume.sort(Vec3::splat(70.0), &OneThread);
    let mut plane = NeighborGrid::default();
    plane.take(flat.iter().map(|a| {
        (
            GridAgent {
                id: a.id,
                position: a.position.truncate(),
                velocity: a.velocity.truncate(),
                radius: 0.0,
            },
            0,
        )
    }));
    plane.sort(Vec2::splat(70.0), None, &OneThread);
    let (mut forces_3d, mut forces_2d) = (Vec::new(), Vec::new());
    volume.flock(&[flocker_3d], &OneThread, &mut forces_3d, &mut Vec::new());
    plane.flock(&[flocker_2d], &OneThread, &mut forces_2d, &mut Vec::new());
    let mut steered = 0;
    // Flyers on one spot part level with the ground, walkers in their
    // plane: those apart.
    for a in flat.iter().filter(|a| a.id % 10 != 9) {
        let in_3d = forces_3d[volume.slot_of(a.id).unwrap()].unwrap();
        let in_2d = forces_2d[plane.slot_of(a.id).unwrap()].unwrap();
        assert_eq!(in_3d.z, 0.0);
        assert!(
            (in_3d.truncate() - in_2d).length() <= 1e-3 * in_2d.length().max(1.0),
            "{in_3d} against {in_2d}"
        );
        steered += (in_2d.length() > 1.0) as u32;
    }
    assert!(steered > 300, "{steered}");
}
