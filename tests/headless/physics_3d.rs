//! Agents as avian3d bodies on the XZ ground, and avian3d colliders as the
//! level, with the real crates: a body walking on a floor under gravity
//! steers as the agent would without physics, no body passes through a
//! wall of colliders, and each collider's footprint is the obstacle one
//! would make by hand, kept in step with it.

// Two preludes with one name must not compile (see the last test).
#![deny(ambiguous_glob_imports)]

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy_reynolds::physics::{ColliderObstacle, Footprints, ObstacleHeights, footprints_of};
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults::UNITS_PER_METRE;

use crate::support;

use steering_test_support::{empty_app_with_threads, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];
/// Metres a chapter pixel is: creatures 0.5 m long.
const UNIT: f32 = 0.025;
/// An agent body's radius: the chapter's 8 px.
const BODY: f32 = 8.0 * UNIT;

/// A headless app with agents on the XZ ground in metres.
fn ground_app(hz: f64) -> App {
    let mut app = empty_app_with_threads(hz, Some(1));
    app.add_plugins(
        SteeringPlugins::default()
            .with_ground(GroundPlane::Xz)
            .with_length_unit(UNIT * UNITS_PER_METRE),
    );
    app
}

/// [`ground_app`] with avian3d (gravity and all) and the plugin that joins
/// them, and a floor 100 m square under it.
fn physics_app(hz: f64) -> App {
    let mut app = ground_app(hz);
    app.add_plugins((
        TransformPlugin,
        PhysicsPlugins::default(),
        SteeringAvian3dPlugin,
    ));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::cuboid(100.0, 0.2, 100.0),
        Transform::from_xyz(0.0, -0.1, 0.0),
    ));
    // What `App::run` does first: avian makes some of its resources here.
    app.finish();
    app.cleanup();
    app
}

/// An agent body standing on the floor at `at`: a ball that does not
/// spin, sliding without friction (steering, not the floor, sets its pace).
fn body(at: Vec2) -> impl Bundle {
    (
        SteeringAgent,
        RigidBody::Dynamic,
        Collider::sphere(BODY),
        LockedAxes::ROTATION_LOCKED,
        Friction::ZERO.with_combine_rule(CoefficientCombine::Min),
        Transform::from_xyz(at.x, BODY, at.y),
    )
}

/// Alone, dropped 1 m onto the floor, an agent that is a body arrives as
/// one without physics does: every step within a pixel (0.025 m) of it on
/// the ground; gravity still pulls it (it lands within the 0.45 s a fall
/// of 1 m takes, and stays on the floor).
#[test]
fn an_agent_alone_on_the_floor_steers_as_it_does_without_physics() {
    for hz in RATES {
        let (start, goal) = (Vec2::new(-7.5, -1.25), Vec2::new(6.25, 3.0));
        let behavior = SteeringBehavior::Arrive(SteeringTarget::Point(goal));
        let mut plain = ground_app(hz);
        let alone = plain
            .world_mut()
            .spawn((SteeringAgent, behavior.clone(), AgentPosition(start)))
            .id();
        let mut physics = physics_app(hz);
        let dropped = Transform::from_xyz(start.x, BODY + 1.0, start.y);
        let body = physics
            .world_mut()
            .spawn((body(start), behavior))
            .insert(dropped)
            .id();
        let mut plain_path = Vec::new();
        run_steps(&mut plain, (hz * 6.0) as u64, |world| {
            plain_path.push(world.get::<AgentPosition>(alone).unwrap().0);
        });
        let (mut worst, mut off_floor) = (0.0f32, 0.0f32);
        let mut step = 0;
        run_steps(&mut physics, (hz * 6.0) as u64, |world| {
            let at = world.get::<Position>(body).unwrap().0;
            worst = worst.max(Vec2::new(at.x, at.z).distance(plain_path[step]));
            if step as f64 >= 0.5 * hz {
                off_floor = off_floor.max((at.y - BODY).abs());
            }
            step += 1;
        });
        let end = physics.world().get::<Position>(body).unwrap().0;
        eprintln!(
            "at {hz} Hz: at most {worst} m apart, after 0.5 s at most {off_floor} m off the floor; the body ends at {end}"
        );
        assert!(worst <= UNIT, "at {hz} Hz the body strayed {worst} m");
        assert!(
            off_floor <= 0.01,
            "at {hz} Hz the body left the floor by {off_floor} m"
        );
        assert!(
            Vec2::new(end.x, end.z).distance(goal) < UNIT,
            "at {hz} Hz the body ended at {end}"
        );
    }
}

/// A room 20 m by 15 m of walls (avian cuboids 0.25 m thick and 2 m high)
/// with a wall across its middle and four round pillars, and 20 bodies
/// wandering on its floor at full speed for 60 s: no body ever goes into a
/// wall or a pillar, and they do wander.
#[test]
fn bodies_wandering_among_colliders_never_pass_through_a_wall() {
    // (centre, half size) of each wall on the ground.
    let walls: Vec<(Vec2, Vec2)> = vec![
        (Vec2::new(0.0, 7.625), Vec2::new(10.125, 0.125)),
        (Vec2::new(0.0, -7.625), Vec2::new(10.125, 0.125)),
        (Vec2::new(10.125, 0.0), Vec2::new(0.125, 7.625)),
        (Vec2::new(-10.125, 0.0), Vec2::new(0.125, 7.625)),
        (Vec2::new(-2.5, 0.0), Vec2::new(5.0, 0.125)),
    ];
    let pillars =
        [(5.0, 3.75), (5.0, -3.75), (-5.0, 3.75), (-5.0, -3.75)].map(|(x, z)| Vec2::new(x, z));
    const PILLAR: f32 = 0.5;
    // The least distance from a body at `p` to any wall or pillar, less
    // its radius.
    let clearance = |p: Vec2| {
        let to_walls = walls.iter().map(|(c, h)| {
            let d = (p - *c).abs() - *h;
            d.max(Vec2::ZERO).length() + d.max_element().min(0.0)
        });
        let to_pillars = pillars.iter().map(|c| p.distance(*c) - PILLAR);
        to_walls.chain(to_pillars).fold(f32::INFINITY, f32::min) - BODY
    };
    for hz in RATES {
        let mut app = physics_app(hz);
        let world = app.world_mut();
        for (center, half) in &walls {
            world.spawn((
                RigidBody::Static,
                Collider::cuboid(2.0 * half.x, 2.0, 2.0 * half.y),
                Transform::from_xyz(center.x, 1.0, center.y),
            ));
        }
        for at in pillars {
            world.spawn((
                RigidBody::Static,
                Collider::cylinder(PILLAR, 3.0),
                Transform::from_xyz(at.x, 1.5, at.y),
            ));
        }
        let starts: Vec<Vec2> = (0..20)
            .map(|i| {
                let x = -8.25 + 1.75 * (i % 10) as f32;
                Vec2::new(x, if i < 10 { 2.5 } else { -2.5 })
            })
            .collect();
        let bodies: Vec<Entity> = starts
            .iter()
            .enumerate()
            .map(|(i, at)| {
                let angle = i as f32 * 0.7;
                world
                    .spawn((
                        body(*at),
                        SteeringBehavior::Wander,
                        AgentHeading::from_angle(angle),
                        WanderAngle(angle),
                    ))
                    .id()
            })
            .collect();
        let (mut least, mut fastest, mut moved) = (f32::INFINITY, 0.0f32, 0.0f32);
        run_steps(&mut app, (hz * 60.0) as u64, |world| {
            for (b, start) in bodies.iter().zip(&starts) {
                let at = world.get::<Position>(*b).unwrap().0;
                let at = Vec2::new(at.x, at.z);
                least = least.min(clearance(at));
                let v = world.get::<LinearVelocity>(*b).unwrap().0;
                fastest = fastest.max(Vec2::new(v.x, v.z).length());
                moved = moved.max(at.distance(*start));
            }
        });
        eprintln!(
            "at {hz} Hz: least clearance {least} m, fastest {fastest} m/s, farthest from a start {moved} m"
        );
        // (A body resting on a wall is on it to f32's steps there.)
        assert!(
            least >= -1e-5,
            "at {hz} Hz a body went {least} m into a wall"
        );
        assert!(
            fastest > 200.0 * UNIT,
            "at {hz} Hz the fastest went {fastest} m/s"
        );
        assert!(moved > 5.0, "at {hz} Hz they stayed put");
    }
}

/// `collider`'s footprint where `at` puts it, in a metre world.
fn footprint(collider: &Collider, at: Transform) -> Vec<(Vec2, SteeringObstacle)> {
    let heights = ObstacleHeights::with_length_unit(UNIT * UNITS_PER_METRE);
    footprints_of(
        collider,
        &GlobalTransform::from(at),
        GroundPlane::Xz,
        &heights,
    )
    .unwrap()
}

/// The corners of a polygon footprint, sorted, rounded to 0.1 mm.
fn corners(footprint: &[(Vec2, SteeringObstacle)]) -> Vec<(i64, i64)> {
    let [(at, SteeringObstacle::Polygon { points })] = footprint else {
        panic!("not one polygon: {footprint:?}");
    };
    assert_eq!(*at, Vec2::ZERO);
    let mut corners: Vec<(i64, i64)> = points
        .iter()
        .map(|p| ((p.x * 1e4).round() as i64, (p.y * 1e4).round() as i64))
        .collect();
    corners.sort();
    corners
}

/// Each shape a collider can be has the footprint one would make by hand:
/// where it stands in the agents' way, and only there.
#[test]
fn each_colliders_footprint_is_the_obstacle_made_by_hand() {
    let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let standing = |x: f32, y: f32, z: f32| Transform::from_xyz(x, y, z);
    // Round things standing up: circles.
    for (collider, radius) in [
        (Collider::sphere(0.4), 0.4),
        (Collider::cylinder(0.5, 3.0), 0.5),
        (Collider::capsule(0.3, 1.2), 0.3),
        (Collider::cone(0.6, 1.0), 0.6),
    ] {
        assert_eq!(
            footprint(&collider, standing(4.0, 1.0, -2.0).with_rotation(quarter)),
            [(Vec2::new(4.0, -2.0), SteeringObstacle::circle(radius))],
            "{collider:?}"
        );
    }
    // A wall 4 m long (x), 2 m high, 0.5 m thick, turned a quarter about
    // the up axis: the rectangle turned (x to -z).
    let wall = Collider::cuboid(4.0, 2.0, 0.5);
    let turned = footprint(&wall, standing(10.0, 1.0, 5.0).with_rotation(quarter));
    let by_hand = [(-0.25, -2.0), (0.25, -2.0), (0.25, 2.0), (-0.25, 2.0)]
        .map(|(x, z)| Vec2::new(10.0 + x, 5.0 + z));
    let by_hand = [(Vec2::ZERO, SteeringObstacle::polygon(by_hand))];
    assert_eq!(corners(&turned), corners(&by_hand));
    // A box tipped on its edge: its shadow, the hull of its corners.
    let tipped = footprint(
        &Collider::cuboid(2.0, 2.0, 2.0),
        standing(0.0, 1.5, 0.0).with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
    );
    let reach = (1e4 * std::f32::consts::SQRT_2).round() as i64;
    assert_eq!(
        corners(&tipped),
        [
            (-reach, -10000),
            (-reach, 10000),
            (reach, -10000),
            (reach, 10000)
        ]
    );
    // A wall of one triangle standing upright: a wall along its base.
    let sail = Collider::triangle(
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    );
    let [(at, SteeringObstacle::Wall { a, b })] = footprint(&sail, standing(0.0, 0.0, 3.0))[..]
    else {
        panic!("an upright triangle is a wall");
    };
    assert_eq!(at, Vec2::ZERO);
    let mut ends = [a, b];
    ends.sort_by(|p, q| p.x.total_cmp(&q.x));
    assert_eq!(ends, [Vec2::new(-1.0, 3.0), Vec2::new(1.0, 3.0)]);
    // A capsule lying on the floor, 0.5 m high: the polygon round its
    // shadow (a stadium), nowhere inside it and at most 2% of its radius
    // out (16 sides touching it).
    let log = footprint(
        &Collider::capsule(0.25, 3.0),
        standing(0.0, 0.25, 0.0).with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
    );
    let [(_, SteeringObstacle::Polygon { points })] = &log[..] else {
        panic!("a lying capsule is a polygon: {log:?}");
    };
    for p in points {
        let out = p.distance(Vec2::new(p.x.clamp(-1.5, 1.5), 0.0)) - 0.25;
        assert!(
            (-1e-5..=0.02 * 0.25).contains(&out),
            "{p} is {out} m off the capsule"
        );
    }
    // Out of the way: the floor, a kerb 0.2 m high, a sign 2.5 m up.
    for (collider, y) in [
        (Collider::cuboid(50.0, 0.2, 50.0), -0.1),
        (Collider::cuboid(5.0, 0.2, 0.3), 0.1),
        (Collider::cuboid(2.0, 0.5, 0.1), 2.75),
    ] {
        assert!(
            footprint(&collider, standing(0.0, y, 0.0)).is_empty(),
            "{collider:?} at {y}"
        );
    }
    // A compound of a floor and a post on it: the post alone.
    let kiosk = Collider::compound(vec![
        (Vec3::ZERO, Quat::IDENTITY, Collider::cuboid(4.0, 0.1, 4.0)),
        (
            Vec3::new(1.0, 1.0, 1.0),
            Quat::IDENTITY,
            Collider::cylinder(0.1, 2.0),
        ),
    ]);
    assert_eq!(
        footprint(&kiosk, standing(10.0, 0.0, 0.0)),
        [(Vec2::new(11.0, 1.0), SteeringObstacle::circle(0.1))]
    );
    // No obstacle for a half-space (a floor to infinity).
    let heights = ObstacleHeights::with_length_unit(UNIT * UNITS_PER_METRE);
    let half_space = Collider::half_space(Vec3::Y);
    assert!(
        footprints_of(
            &half_space,
            &GlobalTransform::IDENTITY,
            GroundPlane::Xz,
            &heights
        )
        .is_err()
    );
}

/// The x of the middle of each shape the level's index has, sorted.
fn shape_middles(world: &World) -> Vec<f32> {
    let mut xs = Vec::new();
    world
        .resource::<ObstacleIndex>()
        .for_each_near(Vec2::ZERO, 1e4, |s| {
            let (min, max) = s.shape.bounds();
            xs.push(0.5 * (min.x + max.x));
        });
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    xs
}

/// A static collider is in the level where it stands, made once (not
/// again each step); moved, it moves there; its collider removed, or its
/// entity despawned, it is gone. A crate (a dynamic body) is no obstacle,
/// nor is the floor.
#[test]
fn static_colliders_are_kept_in_the_level() {
    let mut app = physics_app(60.0);
    let wall = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::cuboid(0.5, 2.0, 4.0),
            Transform::from_xyz(3.0, 1.0, 0.0),
        ))
        .id();
    let pillar = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::cylinder(0.5, 3.0),
            Transform::from_xyz(-3.0, 1.5, 0.0),
        ))
        .id();
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider::cuboid(1.0, 1.0, 1.0),
        Transform::from_xyz(0.0, 0.5, 5.0),
    ));
    run_steps(&mut app, 2, |_| {});
    let made = |app: &mut App| {
        app.world_mut()
            .query_filtered::<(), With<ColliderObstacle>>()
            .iter(app.world())
            .count()
    };
    assert_eq!(made(&mut app), 2);
    // The wall's four sides about x = 3 (two at 2.75 and 3.25), the pillar at -3.
    assert_eq!(shape_middles(app.world()), [-3.0, 2.75, 3.0, 3.25]);
    let generation = app.world().resource::<ObstacleIndex>().generation();
    run_steps(&mut app, 30, |_| {});
    assert_eq!(
        app.world().resource::<ObstacleIndex>().generation(),
        generation,
        "the level was gathered again with nothing moved"
    );

    // Moved 2 m: its footprint with it.
    app.world_mut()
        .get_mut::<Transform>(wall)
        .unwrap()
        .translation
        .x += 2.0;
    run_steps(&mut app, 3, |_| {});
    assert_eq!(shape_middles(app.world()), [-3.0, 4.75, 5.0, 5.25]);
    assert_eq!(made(&mut app), 2);

    // Its collider taken away, and the pillar despawned: nothing left.
    app.world_mut().entity_mut(wall).remove::<Collider>();
    app.world_mut().despawn(pillar);
    run_steps(&mut app, 2, |_| {});
    assert_eq!(made(&mut app), 0);
    assert!(shape_middles(app.world()).is_empty());
    assert!(
        app.world()
            .get::<Footprints>(wall)
            .is_none_or(|f| f.iter().next().is_none())
    );
}

/// Every name of the plugin's prelude, beside the globs of Bevy's and
/// avian3d's preludes: a name in two of them would be ambiguous, and this
/// file would not compile.
#[test]
fn the_preludes_names_are_its_own_beside_bevys_and_avian3ds() {
    support::assert_uses_the_whole_prelude(&support::every_prelude_name!());
}
