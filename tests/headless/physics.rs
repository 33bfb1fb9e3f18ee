//! Agents as avian bodies and avian colliders as the level, with the real
//! crates: a body steers as the agent would without physics, no body
//! passes through a wall of colliders, and each collider is the obstacle
//! one would make by hand, kept in step with it.

// Two preludes with one name must not compile (see the last test).
#![deny(ambiguous_glob_imports)]

use avian2d::prelude::*;
use bevy::prelude::*;
use bevy_reynolds::physics::{ColliderObstacle, SteeringAvian2dPlugin, obstacles_of};
use bevy_reynolds::prelude::*;

use crate::support;

use steering_test_support::{headless_app, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];
const BODY: f32 = 8.0;

/// The lab's headless app with avian (no gravity: the field is the
/// ground, seen from above) and the plugin that joins them.
fn physics_app(hz: f64) -> App {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    app.add_plugins((
        TransformPlugin,
        PhysicsPlugins::default(),
        SteeringAvian2dPlugin,
    ))
    .insert_resource(Gravity::ZERO);
    // What `App::run` does first: avian makes some of its resources here.
    app.finish();
    app.cleanup();
    app
}

/// An agent body: a disc that does not spin.
fn body(at: Vec2) -> impl Bundle {
    (
        SteeringAgent,
        RigidBody::Dynamic,
        Collider::circle(BODY),
        LockedAxes::ROTATION_LOCKED,
        Transform::from_translation(at.extend(0.0)),
    )
}

/// Alone, an agent that is a body arrives as one without physics does:
/// every step within a pixel of it (semi-implicit Euler both; avian's
/// substeps move a body at one velocity the same distance in all).
#[test]
fn an_agent_alone_steers_as_it_does_without_physics() {
    for hz in RATES {
        let (start, goal) = (Vec2::new(-300.0, -50.0), Vec2::new(250.0, 120.0));
        let behavior = SteeringBehavior::Arrive(SteeringTarget::Point(goal));
        let mut plain = headless_app(hz, 1, SteeringSettings::default());
        let alone = plain
            .world_mut()
            .spawn((SteeringAgent, behavior.clone(), AgentPosition(start)))
            .id();
        let mut physics = physics_app(hz);
        let body = physics.world_mut().spawn((body(start), behavior)).id();
        let mut plain_path = Vec::new();
        run_steps(&mut plain, (hz * 6.0) as u64, |world| {
            plain_path.push(world.get::<AgentPosition>(alone).unwrap().0);
        });
        let mut worst = 0.0f32;
        let mut step = 0;
        run_steps(&mut physics, (hz * 6.0) as u64, |world| {
            let at = world.get::<Position>(body).unwrap().0;
            worst = worst.max(at.distance(plain_path[step]));
            step += 1;
        });
        let end = physics.world().get::<Position>(body).unwrap().0;
        eprintln!("at {hz} Hz: at most {worst} px apart; the body ends at {end}");
        assert!(worst <= 1.0, "at {hz} Hz the body strayed {worst} px");
        assert!(
            end.distance(goal) < 1.0,
            "at {hz} Hz the body ended at {end}"
        );
    }
}

/// A room of walls (avian rectangles, 10 px thick) with a wall across its
/// middle and four pillars, and 20 bodies wandering in it at full speed
/// for 60 s: no body ever goes into a wall (they see the walls as
/// obstacles, and avian's contacts stop one that would), and they do
/// wander: at full speed, far from where they started.
#[test]
fn bodies_wandering_among_colliders_never_pass_through_a_wall() {
    // (centre, half size) of each wall and pillar.
    let walls: Vec<(Vec2, Vec2)> = vec![
        (Vec2::new(0.0, 305.0), Vec2::new(405.0, 5.0)),
        (Vec2::new(0.0, -305.0), Vec2::new(405.0, 5.0)),
        (Vec2::new(405.0, 0.0), Vec2::new(5.0, 305.0)),
        (Vec2::new(-405.0, 0.0), Vec2::new(5.0, 305.0)),
        (Vec2::new(-100.0, 0.0), Vec2::new(200.0, 5.0)),
        (Vec2::new(200.0, 150.0), Vec2::new(20.0, 20.0)),
        (Vec2::new(200.0, -150.0), Vec2::new(20.0, 20.0)),
        (Vec2::new(-200.0, 150.0), Vec2::new(20.0, 20.0)),
        (Vec2::new(-200.0, -150.0), Vec2::new(20.0, 20.0)),
    ];
    // The least distance from a body at `p` to any wall, less its radius.
    let clearance = |p: Vec2| {
        walls
            .iter()
            .map(|(c, h)| {
                let d = (p - *c).abs() - *h;
                d.max(Vec2::ZERO).length() + d.max_element().min(0.0) - BODY
            })
            .fold(f32::INFINITY, f32::min)
    };
    for hz in RATES {
        let mut app = physics_app(hz);
        let world = app.world_mut();
        for (center, half) in &walls {
            world.spawn((
                RigidBody::Static,
                Collider::rectangle(2.0 * half.x, 2.0 * half.y),
                Transform::from_translation(center.extend(0.0)),
            ));
        }
        let bodies: Vec<Entity> = (0..20)
            .map(|i| {
                let at = Vec2::new(
                    -330.0 + 70.0 * (i % 10) as f32,
                    if i < 10 { 100.0 } else { -100.0 },
                );
                let angle = i as f32 * 0.7;
                world
                    .spawn((
                        body(at),
                        SteeringBehavior::Wander,
                        AgentHeading::from_angle(angle),
                        WanderAngle(angle),
                    ))
                    .id()
            })
            .collect();
        let (mut least, mut fastest, mut moved) = (f32::INFINITY, 0.0f32, 0.0f32);
        let starts: Vec<Vec2> = bodies
            .iter()
            .map(|b| {
                app.world()
                    .get::<Transform>(*b)
                    .unwrap()
                    .translation
                    .truncate()
            })
            .collect();
        run_steps(&mut app, (hz * 60.0) as u64, |world| {
            for (b, start) in bodies.iter().zip(&starts) {
                let at = world.get::<Position>(*b).unwrap().0;
                least = least.min(clearance(at));
                fastest = fastest.max(world.get::<LinearVelocity>(*b).unwrap().0.length());
                moved = moved.max(at.distance(*start));
            }
        });
        eprintln!(
            "at {hz} Hz: least clearance {least} px, fastest {fastest} px/s, farthest from a start {moved} px"
        );
        // (A body resting on a wall is on it to f32's steps there: 3e-5 px
        // at 400 px.)
        assert!(
            least >= -1e-4,
            "at {hz} Hz a body went {least} px into a wall"
        );
        assert!(
            fastest > 200.0,
            "at {hz} Hz the fastest went {fastest} px/s"
        );
        assert!(moved > 200.0, "at {hz} Hz they stayed put");
    }
}

/// Each shape a collider can be is the obstacle one would make by hand.
#[test]
fn each_collider_is_the_obstacle_made_by_hand() {
    let v = Vec2::new;
    let square = [v(-10.0, -5.0), v(10.0, -5.0), v(10.0, 5.0), v(-10.0, 5.0)];
    let one = |obstacle: SteeringObstacle| vec![(Vec2::ZERO, obstacle)];
    assert_eq!(
        obstacles_of(&Collider::circle(7.0)).unwrap(),
        vec![(Vec2::ZERO, SteeringObstacle::circle(7.0))]
    );
    assert_eq!(
        obstacles_of(&Collider::rectangle(20.0, 10.0)).unwrap(),
        one(SteeringObstacle::polygon(square))
    );
    assert_eq!(
        obstacles_of(&Collider::segment(v(0.0, 0.0), v(30.0, 40.0))).unwrap(),
        one(SteeringObstacle::wall(v(0.0, 0.0), v(30.0, 40.0)))
    );
    assert_eq!(
        obstacles_of(&Collider::triangle(v(0.0, 0.0), v(30.0, 0.0), v(0.0, 40.0))).unwrap(),
        one(SteeringObstacle::polygon([
            v(0.0, 0.0),
            v(30.0, 0.0),
            v(0.0, 40.0)
        ]))
    );
    let hull = Collider::convex_hull(square.to_vec()).unwrap();
    let SteeringObstacle::Polygon { points } = &obstacles_of(&hull).unwrap()[0].1 else {
        panic!("a convex polygon is a polygon");
    };
    assert_eq!(points.len(), 4);
    assert!(square.iter().all(|p| points.contains(p)), "{points:?}");
    let zigzag = vec![v(0.0, 0.0), v(10.0, 10.0), v(20.0, 0.0)];
    assert_eq!(
        obstacles_of(&Collider::polyline(zigzag, None)).unwrap(),
        vec![
            (
                Vec2::ZERO,
                SteeringObstacle::wall(v(0.0, 0.0), v(10.0, 10.0))
            ),
            (
                Vec2::ZERO,
                SteeringObstacle::wall(v(10.0, 10.0), v(20.0, 0.0))
            ),
        ]
    );
    // A capsule: the polygon round it, no point of it inside the capsule,
    // none farther out than a 40th of its radius.
    let SteeringObstacle::Polygon { points } = obstacles_of(&Collider::capsule(10.0, 40.0))
        .unwrap()[0]
        .1
        .clone()
    else {
        panic!("a capsule is a polygon");
    };
    assert_eq!(points.len(), 18);
    for p in &points {
        let axis = v(0.0, p.y.clamp(-20.0, 20.0));
        let out = p.distance(axis) - 10.0;
        assert!((0.0..=0.25).contains(&out), "{p} is {out} off the capsule");
    }
    // A compound: each part where the compound puts it.
    let compound = Collider::compound(vec![
        (v(100.0, 0.0), 0.0, Collider::circle(5.0)),
        (
            v(0.0, 50.0),
            std::f32::consts::FRAC_PI_2,
            Collider::segment(v(0.0, 0.0), v(10.0, 0.0)),
        ),
    ]);
    let parts = obstacles_of(&compound).unwrap();
    assert_eq!(parts[0], (v(100.0, 0.0), SteeringObstacle::circle(5.0)));
    let SteeringObstacle::Wall { a, b } = parts[1].1 else {
        panic!("a segment is a wall");
    };
    assert!(
        a.abs_diff_eq(v(0.0, 50.0), 1e-4) && b.abs_diff_eq(v(0.0, 60.0), 1e-4),
        "{a} {b}"
    );
    // No obstacle for a half-plane.
    assert!(obstacles_of(&Collider::half_space(Vec2::Y)).is_err());
}

/// The shapes the level's index has near `p`, sorted, as numbers.
fn shapes_near(world: &World, p: Vec2) -> Vec<String> {
    let mut shapes = Vec::new();
    world
        .resource::<ObstacleIndex>()
        .for_each_near(p, 1e4, |shape| shapes.push(format!("{:?}", shape.shape)));
    shapes.sort();
    shapes.dedup();
    shapes
}

/// A static collider is in the level where it is, as the hand-made
/// obstacle would be; moved, it moves there; its collider removed, it is
/// gone. A crate (a dynamic body) is no obstacle.
#[test]
fn static_colliders_are_kept_in_the_level() {
    let mut app = physics_app(60.0);
    let rotated = Transform::from_xyz(100.0, 50.0, 0.0)
        .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    let wall = app
        .world_mut()
        .spawn((RigidBody::Static, Collider::rectangle(40.0, 10.0), rotated))
        .id();
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider::rectangle(20.0, 20.0),
        Transform::from_xyz(-200.0, 0.0, 0.0),
    ));
    run_steps(&mut app, 2, |_| {});
    // By hand: the same rectangle, its corners turned a quarter and moved.
    let mut hand = headless_app(60.0, 1, SteeringSettings::default());
    let corners = [(-20.0, -5.0), (20.0, -5.0), (20.0, 5.0), (-20.0, 5.0)]
        .map(|(x, y)| Vec2::new(100.0 - y, 50.0 + x));
    hand.world_mut().spawn((
        SteeringObstacle::polygon(corners),
        AgentPosition(Vec2::ZERO),
    ));
    run_steps(&mut hand, 2, |_| {});
    let made = shapes_near(app.world(), Vec2::ZERO);
    assert_eq!(made.len(), 4, "{made:?}");
    assert_eq!(made, shapes_near(hand.world(), Vec2::ZERO));

    // Moved 200 px to the right: its walls with it.
    app.world_mut()
        .get_mut::<Transform>(wall)
        .unwrap()
        .translation
        .x += 200.0;
    run_steps(&mut app, 3, |_| {});
    let moved: Vec<f32> = {
        let mut xs = Vec::new();
        app.world()
            .resource::<ObstacleIndex>()
            .for_each_near(Vec2::ZERO, 1e4, |s| {
                let (min, max) = s.shape.bounds();
                xs.push(0.5 * (min.x + max.x));
            });
        xs
    };
    assert!(moved.iter().all(|x| (x - 300.0).abs() < 10.0), "{moved:?}");

    // Its collider taken away: no obstacle left.
    app.world_mut().entity_mut(wall).remove::<Collider>();
    run_steps(&mut app, 2, |_| {});
    let left = app
        .world_mut()
        .query_filtered::<(), With<ColliderObstacle>>()
        .iter(app.world())
        .count();
    assert_eq!(left, 0);
    assert!(shapes_near(app.world(), Vec2::ZERO).is_empty());
}

/// A collider scaled by its transform is the obstacle of the shape avian
/// collides with: a ball of radius 10 scaled twice is a circle of 20 (and
/// of 30 once scaled three times), a rectangle's corners move out with the
/// scale, and a ball stretched one way is the circle round the stretch.
#[test]
fn a_scaled_collider_is_the_obstacle_of_its_scaled_shape() {
    let mut app = physics_app(60.0);
    let scaled = |x: f32, sx: f32, sy: f32| {
        Transform::from_xyz(x, 0.0, 0.0).with_scale(Vec3::new(sx, sy, 1.0))
    };
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::circle(10.0),
            scaled(0.0, 2.0, 2.0),
        ))
        .id();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 10.0),
        scaled(200.0, 2.0, 2.0),
    ));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::circle(10.0),
        scaled(400.0, 3.0, 1.0),
    ));
    run_steps(&mut app, 3, |_| {});
    let mut hand = headless_app(60.0, 1, SteeringSettings::default());
    let corners = [(-40.0, -10.0), (40.0, -10.0), (40.0, 10.0), (-40.0, 10.0)]
        .map(|(x, y)| Vec2::new(200.0 + x, y));
    for bundle in [
        (SteeringObstacle::circle(20.0), AgentPosition(Vec2::ZERO)),
        (
            SteeringObstacle::polygon(corners),
            AgentPosition(Vec2::ZERO),
        ),
        (
            SteeringObstacle::circle(30.0),
            AgentPosition(Vec2::new(400.0, 0.0)),
        ),
    ] {
        hand.world_mut().spawn(bundle);
    }
    run_steps(&mut hand, 2, |_| {});
    assert_eq!(
        shapes_near(app.world(), Vec2::ZERO),
        shapes_near(hand.world(), Vec2::ZERO)
    );

    // Scaled again: the circle with it.
    app.world_mut().get_mut::<Transform>(ball).unwrap().scale = Vec3::new(3.0, 3.0, 1.0);
    run_steps(&mut app, 3, |_| {});
    let circles: Vec<String> = shapes_near(app.world(), Vec2::ZERO)
        .into_iter()
        .filter(|s| s.starts_with("Circle"))
        .collect();
    assert!(
        circles
            .iter()
            .filter(|s| s.contains("radius: 30.0"))
            .count()
            == 2,
        "{circles:?}"
    );
}

/// Every name of the plugin's prelude, beside the globs of Bevy's and
/// avian2d's preludes: a name in two of them would be ambiguous, and this
/// file would not compile.
#[test]
fn the_preludes_names_are_its_own_beside_bevys_and_avian2ds() {
    support::assert_uses_the_whole_prelude(&support::every_prelude_name!());
}
