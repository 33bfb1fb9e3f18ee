//! The plugin as a newcomer first runs it: every capability that sends
//! agents somewhere, with `SteeringParams` left at their defaults (a point
//! body, radius 0) and at sizes round them, in pixels and in metres, at 60
//! and 144 Hz. Every agent sent somewhere gets there; none freezes, none
//! ends inside an obstacle or on another agent.

use bevy::prelude::*;
use bevy_reynolds::STALL_AFTER;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults::UNITS_PER_METRE;
use steering_test_support::{empty_app_with_threads, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];

/// Pixels (the chapter's) and metres (critters a metre long, as the crate's
/// README scales them).
const UNITS: [f32; 2] = [1.0, 0.05];

/// Body radii in pixels (scaled with the unit): a point, a hundredth of a
/// critter, a critter, a large one.
const RADII: [f32; 4] = [0.0, 0.1, 10.0, 30.0];

/// An app with the plugin's defaults in `unit`s of the chapter's pixels, as
/// a game scales them.
fn app(hz: f64, unit: f32) -> App {
    let mut app = empty_app_with_threads(hz, None);
    app.add_plugins(
        SteeringPlugins::default()
            .with_seed(1)
            .with_length_unit(unit * UNITS_PER_METRE),
    );
    app
}

/// The agent's parameters: the defaults in `unit`s, with `radius` pixels
/// of body.
fn params(unit: f32, radius: f32) -> SteeringParams {
    SteeringParams {
        radius: radius * unit,
        ..SteeringParams::default().scaled(unit)
    }
}

fn steps(hz: f64, seconds: f64) -> u64 {
    (hz * seconds).ceil() as u64
}

/// Something in the way of a walk from (-300, 0) to (300, 0) pixels.
#[derive(Clone, Copy, Debug)]
enum InTheWay {
    Wall,
    Rock,
    Box,
}

impl InTheWay {
    fn spawn(self, world: &mut World, unit: f32) {
        let u = |x: f32, y: f32| Vec2::new(x, y) * unit;
        let obstacle = match self {
            InTheWay::Wall => SteeringObstacle::wall(u(0.0, -200.0), u(0.0, 200.0)),
            InTheWay::Rock => SteeringObstacle::circle(60.0 * unit),
            InTheWay::Box => SteeringObstacle::polygon(vec![
                u(-40.0, -150.0),
                u(40.0, -150.0),
                u(40.0, 150.0),
                u(-40.0, 150.0),
            ]),
        };
        world.spawn((obstacle, AgentPosition(Vec2::ZERO)));
    }

    /// How far inside it `p` is (negative: outside, that far from it).
    fn depth(self, p: Vec2, unit: f32) -> f32 {
        match self {
            InTheWay::Wall => {
                let on = Vec2::new(0.0, p.y.clamp(-200.0 * unit, 200.0 * unit));
                -p.distance(on)
            }
            InTheWay::Rock => 60.0 * unit - p.length(),
            InTheWay::Box => {
                let half = Vec2::new(40.0, 150.0) * unit;
                let d = p.abs() - half;
                let outside = d.max(Vec2::ZERO).length();
                if outside > 0.0 {
                    -outside
                } else {
                    -d.max_element()
                }
            }
        }
    }
}

/// How one agent's walk went.
#[derive(Debug)]
struct Walk {
    arrived_s: Option<f64>,
    status: NavigationStatus,
    at: Vec2,
    deepest: f32,
}

/// One agent sent with the doc example's `Navigate::to` past `way`.
fn navigate_past(way: InTheWay, hz: f64, unit: f32, radius: f32) -> Walk {
    let mut app = app(hz, unit);
    way.spawn(app.world_mut(), unit);
    let goal = Vec2::new(300.0, 0.0) * unit;
    let agent = app
        .world_mut()
        .spawn((
            Navigate::to(goal),
            AgentPosition(Vec2::new(-300.0, 0.0) * unit),
            params(unit, radius),
        ))
        .id();
    let mut walk = Walk {
        arrived_s: None,
        status: NavigationStatus::Planning,
        at: Vec2::ZERO,
        deepest: f32::NEG_INFINITY,
    };
    let body = radius * unit;
    let mut step = 0;
    run_steps(&mut app, steps(hz, 20.0), |world| {
        step += 1;
        let at = world.get::<AgentPosition>(agent).unwrap().0;
        walk.deepest = walk.deepest.max(way.depth(at, unit) + body);
        walk.at = at;
        walk.status = *world.get::<NavigationStatus>(agent).unwrap();
        if walk.arrived_s.is_none() && walk.status == NavigationStatus::Arrived {
            walk.arrived_s = Some(step as f64 / hz);
        }
    });
    walk
}

/// The `Navigate` doc example (a wall between the agent and its goal) and
/// a rock and a box in its place, for a point, a tiny body, a critter and
/// a large body, in pixels and metres, at both rates: every agent arrives
/// (alone, 600 px round a 400 px wall at 220 px/s takes under 5 s) within
/// 1% of its slowing radius of its goal, and no body goes into what it goes
/// round (by more than a thousandth of its length).
#[test]
fn navigate_gets_every_body_round_every_obstacle() {
    let mut failed = Vec::new();
    for way in [InTheWay::Wall, InTheWay::Rock, InTheWay::Box] {
        for unit in UNITS {
            for hz in RATES {
                for radius in RADII {
                    let walk = navigate_past(way, hz, unit, radius);
                    let goal = Vec2::new(300.0, 0.0) * unit;
                    let ok = walk.arrived_s.is_some_and(|s| s < 10.0)
                        && walk.at.distance(goal) <= 1.5 * unit
                        && walk.deepest <= 0.4 * unit;
                    if !ok {
                        failed.push(format!(
                            "{way:?}, unit {unit}, {hz} Hz, radius {radius} px: {walk:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Two agents with `AvoidAgents::default()` walking head-on to each
/// other's start, by `Arrive` and by `Navigate`, for every body: they pass
/// (each within 2% of the slowing radius of its goal after 10 s; alone
/// each is in within 3 s), and never stand on one another.
#[test]
fn two_avoiders_head_on_pass_each_other() {
    let mut failed = Vec::new();
    for by_route in [false, true] {
        for unit in UNITS {
            for hz in RATES {
                for radius in RADII {
                    let mut app = app(hz, unit);
                    let (a, b) = (Vec2::new(-200.0, 0.0) * unit, Vec2::new(200.0, 0.0) * unit);
                    let mut spawn = |from: Vec2, to: Vec2| {
                        let mut agent = app.world_mut().spawn((
                            AvoidAgents::default(),
                            AgentPosition(from),
                            params(unit, radius),
                        ));
                        if by_route {
                            agent.insert(Navigate::to(to));
                        } else {
                            agent.insert(SteeringBehavior::Arrive(SteeringTarget::Point(to)));
                        }
                        agent.id()
                    };
                    let (first, second) = (spawn(a, b), spawn(b, a));
                    let mut nearest = f32::INFINITY;
                    run_steps(&mut app, steps(hz, 10.0), |world| {
                        let p = |e| world.get::<AgentPosition>(e).unwrap().0;
                        nearest = nearest.min(p(first).distance(p(second)));
                    });
                    let world = app.world();
                    let p = |e| world.get::<AgentPosition>(e).unwrap().0;
                    let (off_a, off_b) = (p(first).distance(b), p(second).distance(a));
                    let body = radius * unit;
                    // Apart by their two bodies, or for points by a hair.
                    let apart = nearest >= (2.0 * body).max(0.1 * unit) * 0.99;
                    if !(off_a <= 3.0 * unit && off_b <= 3.0 * unit && apart) {
                        failed.push(format!(
                            "route {by_route}, unit {unit}, {hz} Hz, radius {radius} px: \
                             {off_a} and {off_b} off their goals, nearest {nearest}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Ten people a side of the `TakeTurns` doc example's door (2 m wide in
/// metres, 40 px in pixels), each sent to the far side with `Navigate` and
/// `AvoidAgents::default()`, points: all arrive within 90 s, and none ends
/// on another or in the wall.
#[test]
fn a_door_taking_turns_lets_ten_points_a_side_across() {
    let mut failed = Vec::new();
    for unit in UNITS {
        for hz in RATES {
            let mut app = app(hz, unit);
            let u = |x: f32, y: f32| Vec2::new(x, y) * unit;
            let world = app.world_mut();
            let (north, south) = (u(0.0, 20.0), u(0.0, -20.0));
            world.spawn(TakeTurns::between(north, south));
            world.spawn(SteeringObstacle::wall(north, u(0.0, 400.0)));
            world.spawn(SteeringObstacle::wall(south, u(0.0, -400.0)));
            let mut people = Vec::new();
            for i in 0..10 {
                let y = (i as f32 - 4.5) * 20.0;
                for (from, to) in [(-160.0, 160.0), (160.0, -160.0)] {
                    let goal = u(to, y);
                    let person = world
                        .spawn((
                            Navigate::to(goal),
                            AvoidAgents::default(),
                            AgentPosition(u(from, y)),
                        ))
                        .id();
                    people.push((person, goal));
                }
            }
            let mut all_in = None;
            let mut step = 0;
            run_steps(&mut app, steps(hz, 90.0), |world| {
                step += 1;
                if all_in.is_none()
                    && people.iter().all(|(p, _)| {
                        *world.get::<NavigationStatus>(*p).unwrap() == NavigationStatus::Arrived
                    })
                {
                    all_in = Some(step as f64 / hz);
                }
            });
            let world = app.world();
            let at: Vec<Vec2> = people
                .iter()
                .map(|(p, _)| world.get::<AgentPosition>(*p).unwrap().0)
                .collect();
            let body = SteeringParams::default().scaled(unit).body_radius();
            let nearest = nearest_pair(&at);
            let in_wall = at
                .iter()
                .any(|p| p.x.abs() < body * 0.99 && p.y.abs() > 20.0 * unit);
            let off: f32 = people
                .iter()
                .zip(&at)
                .map(|((_, goal), p)| p.distance(*goal))
                .fold(0.0, f32::max);
            if all_in.is_none() || nearest < 2.0 * body * 0.99 || in_wall {
                failed.push(format!(
                    "unit {unit}, {hz} Hz: all in at {all_in:?} s, farthest {off} off its goal, \
                     nearest two {nearest} apart (bodies {body}), in the wall {in_wall}"
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The least distance between any two of `points`.
fn nearest_pair(points: &[Vec2]) -> f32 {
    let mut nearest = f32::INFINITY;
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            nearest = nearest.min(a.distance(*b));
        }
    }
    nearest
}

#[derive(Resource, Default)]
struct StallsSeen(u32);

/// A point sent out of a pen of moving obstacles (which routes do not go
/// round) stalls: it is planned again after `STALL_AFTER` of coming no
/// nearer, then `Stalled`, and says so once in 25 s; let out (the pen
/// taken away), it goes on and arrives.
#[test]
fn a_boxed_in_agent_says_it_is_stalled_once() {
    for hz in RATES {
        let mut app = app(hz, 1.0);
        app.init_resource::<StallsSeen>();
        let world = app.world_mut();
        let corners = [
            Vec2::new(-30.0, -30.0),
            Vec2::new(30.0, -30.0),
            Vec2::new(30.0, 30.0),
            Vec2::new(-30.0, 30.0),
        ];
        let pen: Vec<Entity> = (0..4)
            .map(|i| {
                world
                    .spawn((
                        SteeringObstacle::wall(corners[i], corners[(i + 1) % 4]),
                        MovingObstacle,
                        AgentPosition(Vec2::ZERO),
                    ))
                    .id()
            })
            .collect();
        let agent = world
            .spawn((
                Navigate::to(Vec2::new(300.0, 0.0)),
                AgentPosition(Vec2::ZERO),
            ))
            .observe(|_: On<Stalled>, mut seen: ResMut<StallsSeen>| seen.0 += 1)
            .id();
        let mut stalled_at = None;
        let mut step = 0;
        run_steps(&mut app, steps(hz, 25.0), |world| {
            step += 1;
            let status = *world.get::<NavigationStatus>(agent).unwrap();
            if stalled_at.is_none() && status == NavigationStatus::Stalled {
                stalled_at = Some(step as f64 / hz);
            }
        });
        let seen = app.world().resource::<StallsSeen>().0;
        let status = *app.world().get::<NavigationStatus>(agent).unwrap();
        let at = app.world().get::<AgentPosition>(agent).unwrap().0;
        assert_eq!(status, NavigationStatus::Stalled, "at {hz} Hz, at {at}");
        assert_eq!(seen, 1, "at {hz} Hz: told {seen} times");
        let stall = f64::from(2.0 * STALL_AFTER);
        assert!(
            stalled_at.is_some_and(|s| s >= stall && s < stall + 3.0),
            "at {hz} Hz: stalled at {stalled_at:?} s"
        );
        for wall in pen {
            app.world_mut().despawn(wall);
        }
        run_steps(&mut app, steps(hz, 10.0), |_| {});
        let status = *app.world().get::<NavigationStatus>(agent).unwrap();
        assert_eq!(status, NavigationStatus::Arrived, "at {hz} Hz, let out");
    }
}

/// The README's formation (a wedge of 12 points spaced 40 px, spawned on
/// one spot with `AvoidAgents::default()`, its leader sent 900 px with
/// `Navigate`), in pixels and metres at both rates: the leader arrives, and
/// within 30 s every member stands within a quarter spacing of its place,
/// none on another.
#[test]
fn a_formation_of_points_forms_up_at_its_goal() {
    let mut failed = Vec::new();
    for unit in UNITS {
        for hz in RATES {
            let mut app = app(hz, unit);
            let world = app.world_mut();
            let spacing = 40.0 * unit;
            let leader = world
                .spawn((
                    Navigate::to(Vec2::new(900.0, 300.0) * unit),
                    Formation::new(FormationShape::Wedge, spacing),
                ))
                .id();
            let members: Vec<Entity> = (0..12)
                .map(|_| {
                    world
                        .spawn((InFormation(leader), AvoidAgents::default()))
                        .id()
                })
                .collect();
            run_steps(&mut app, steps(hz, 30.0), |_| {});
            let world = app.world();
            let status = *world.get::<NavigationStatus>(leader).unwrap();
            let off = members
                .iter()
                .map(|m| {
                    let at = world.get::<AgentPosition>(*m).unwrap().0;
                    world
                        .get::<FormationPlace>(*m)
                        .unwrap()
                        .place
                        .map_or(f32::INFINITY, |(place, _)| at.distance(place))
                })
                .fold(0.0, f32::max);
            let at: Vec<Vec2> = members
                .iter()
                .map(|m| world.get::<AgentPosition>(*m).unwrap().0)
                .collect();
            let body = SteeringParams::default().scaled(unit).body_radius();
            let nearest = nearest_pair(&at);
            if status != NavigationStatus::Arrived
                || off > 0.25 * spacing
                || nearest < 2.0 * body * 0.99
            {
                failed.push(format!(
                    "unit {unit}, {hz} Hz: leader {status:?}, farthest member {off} off its \
                     place, nearest two {nearest} apart"
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The README's level (a rock, a wall, a field, a path follower and a
/// wanderer) and `Hide` behind the rock from a hunter: a point hider gets
/// behind the rock (the rock between it and the hunter) within 10 s, and
/// the follower goes round its loop, neither into the rock.
#[test]
fn a_point_hides_and_follows_a_path() {
    use std::sync::Arc;
    for unit in UNITS {
        for hz in RATES {
            let mut app = app(hz, unit);
            let u = |x: f32, y: f32| Vec2::new(x, y) * unit;
            let world = app.world_mut();
            let rock = u(300.0, 200.0);
            world.spawn((SteeringObstacle::circle(40.0 * unit), AgentPosition(rock)));
            world.spawn((
                SteeringObstacle::wall(u(0.0, -80.0), u(0.0, 80.0)),
                AgentPosition(u(600.0, 300.0)),
            ));
            let field = Containment::rect(Vec2::ZERO, u(1000.0, 700.0));
            let beat = SteeringPath::new([u(100.0, 100.0), u(900.0, 100.0), u(500.0, 600.0)], true);
            let follower = world
                .spawn((
                    SteeringAgent,
                    FollowPath::new(Arc::new(beat), 20.0 * unit),
                    field.clone(),
                    AgentPosition(u(100.0, 100.0)),
                ))
                .id();
            let hunter = u(100.0, 200.0);
            let hider = world
                .spawn((Hide::from(hunter), field, AgentPosition(u(200.0, 400.0))))
                .id();
            let mut deepest = f32::NEG_INFINITY;
            let mut far = 0.0f32;
            run_steps(&mut app, steps(hz, 10.0), |world| {
                for agent in [follower, hider] {
                    let at = world.get::<AgentPosition>(agent).unwrap().0;
                    deepest = deepest.max(40.0 * unit - at.distance(rock));
                }
                let at = world.get::<AgentPosition>(follower).unwrap().0;
                far = far.max(at.distance(u(100.0, 100.0)));
            });
            let at = app.world().get::<AgentPosition>(hider).unwrap().0;
            // Behind: the rock lies between the hunter and the hider.
            let (to_rock, to_hider) = (rock - hunter, at - hunter);
            let behind = to_hider.length() > to_rock.length()
                && to_rock.normalize().dot(to_hider.normalize()) > 0.98;
            assert!(
                behind && deepest <= 0.0,
                "unit {unit}, {hz} Hz: the hider at {at}, deepest into the rock {deepest}"
            );
            assert!(
                far > 600.0 * unit,
                "unit {unit}, {hz} Hz: the follower went {far}"
            );
        }
    }
}

/// The crate README's avian example: a body (a disc of 8 px) sent with
/// `Navigate` past a wall collider, its radius left at 0. It takes its
/// collider's radius, arrives within 20 s, and never goes into the wall.
#[test]
fn an_avian_body_takes_its_colliders_radius_and_goes_round_a_wall() {
    use avian2d::prelude::*;
    use bevy_reynolds::physics::{RadiusFromCollider, SteeringAvian2dPlugin};
    for hz in RATES {
        let mut app = app(hz, 1.0);
        app.add_plugins((
            TransformPlugin,
            PhysicsPlugins::default(),
            SteeringAvian2dPlugin,
        ))
        .insert_resource(Gravity::ZERO);
        app.finish();
        app.cleanup();
        let world = app.world_mut();
        world.spawn((RigidBody::Static, Collider::rectangle(20.0, 400.0)));
        let agent = world
            .spawn((
                SteeringAgent,
                Navigate::to(Vec2::new(300.0, 0.0)),
                RigidBody::Dynamic,
                Collider::circle(8.0),
                LockedAxes::ROTATION_LOCKED,
                Transform::from_xyz(-300.0, 0.0, 0.0),
            ))
            .id();
        let mut deepest = f32::NEG_INFINITY;
        run_steps(&mut app, steps(hz, 20.0), |world| {
            let at = world.get::<AgentPosition>(agent).unwrap().0;
            let outside = (at.abs() - Vec2::new(10.0, 200.0)).max(Vec2::ZERO).length();
            deepest = deepest.max(8.0 - outside);
        });
        let world = app.world();
        let radius = world.get::<SteeringParams>(agent).unwrap().radius;
        let status = *world.get::<NavigationStatus>(agent).unwrap();
        let at = world.get::<AgentPosition>(agent).unwrap().0;
        assert_eq!(radius, 8.0, "at {hz} Hz");
        assert_eq!(
            world.get::<RadiusFromCollider>(agent),
            Some(&RadiusFromCollider(8.0))
        );
        assert_eq!(status, NavigationStatus::Arrived, "at {hz} Hz, at {at}");
        assert!(deepest <= 0.1, "at {hz} Hz: {deepest} px into the wall");
    }
}

/// The same in 3D, as the avian3d plugin's doc example has it: a person (an
/// upright capsule 0.5 m across) on a floor, sent with `Navigate` past a
/// wall 10 m long, in metres. Its radius is its capsule's, 0.25 m; it
/// arrives within 20 s; a radius the game then writes stays, whatever the
/// collider does.
#[test]
fn an_avian3d_body_takes_its_footprints_radius_and_goes_round_a_wall() {
    use avian3d::prelude::*;
    use bevy_reynolds::physics::SteeringAvian3dPlugin;
    for hz in RATES {
        let mut app = empty_app_with_threads(hz, None);
        app.add_plugins((
            SteeringPlugins::default()
                .with_ground(GroundPlane::Xz)
                .with_length_unit(1.0),
            TransformPlugin,
            PhysicsPlugins::default(),
            SteeringAvian3dPlugin,
        ));
        app.finish();
        app.cleanup();
        let world = app.world_mut();
        world.spawn((
            RigidBody::Static,
            Collider::cuboid(40.0, 0.2, 40.0),
            Transform::from_xyz(0.0, -0.1, 0.0),
        ));
        world.spawn((
            RigidBody::Static,
            Collider::cuboid(0.3, 2.0, 10.0),
            Transform::from_xyz(0.0, 1.0, 0.0),
        ));
        let agent = world
            .spawn((
                SteeringAgent,
                Navigate::to(Vec2::new(8.0, 0.0)),
                RigidBody::Dynamic,
                Collider::capsule(0.25, 1.2),
                LockedAxes::ROTATION_LOCKED,
                Friction::ZERO.with_combine_rule(CoefficientCombine::Min),
                Transform::from_xyz(-8.0, 0.9, 0.0),
            ))
            .id();
        run_steps(&mut app, steps(hz, 20.0), |_| {});
        let world = app.world_mut();
        let radius = world.get::<SteeringParams>(agent).unwrap().radius;
        let status = *world.get::<NavigationStatus>(agent).unwrap();
        let at = world.get::<AgentPosition>(agent).unwrap().0;
        assert!((radius - 0.25).abs() < 1e-4, "at {hz} Hz: radius {radius}");
        assert_eq!(status, NavigationStatus::Arrived, "at {hz} Hz, at {at}");
        world.get_mut::<SteeringParams>(agent).unwrap().radius = 0.4;
        world.entity_mut(agent).insert(Collider::capsule(0.3, 1.2));
        run_steps(&mut app, 2, |_| {});
        let radius = app.world().get::<SteeringParams>(agent).unwrap().radius;
        assert_eq!(radius, 0.4, "at {hz} Hz: the game's radius");
    }
}

/// A crowd of `n` alike bodies of `radius` pixels in two files `gap` body
/// widths apart (each from the next), one file sent with `Navigate` through
/// the other to its mirror place, in `unit`s at `hz`, `AvoidAgents::default()`:
/// how many arrived within `seconds`, and the nearest any two came.
fn crossing(n: usize, radius: f32, gap: f32, unit: f32, hz: f64, seconds: f64) -> (usize, f32) {
    let mut app = app(hz, unit);
    let params = params(unit, radius);
    let body = params.body_radius();
    let spacing = 2.0 * body * gap;
    let world = app.world_mut();
    let mut people = Vec::new();
    for i in 0..n {
        let side = if i % 2 == 0 { -1.0 } else { 1.0 };
        let y = (i / 2) as f32 * spacing;
        let from = Vec2::new(side * (8.0 * body + 100.0 * unit), y);
        let goal = Vec2::new(-from.x, y);
        people.push(
            world
                .spawn((
                    Navigate::to(goal),
                    AvoidAgents::default(),
                    AgentPosition(from),
                    params,
                ))
                .id(),
        );
    }
    let mut nearest = f32::INFINITY;
    run_steps(&mut app, steps(hz, seconds), |world| {
        let at: Vec<Vec2> = people
            .iter()
            .map(|p| world.get::<AgentPosition>(*p).unwrap().0)
            .collect();
        nearest = nearest.min(nearest_pair(&at));
    });
    let arrived = people
        .iter()
        .filter(|p| *app.world().get::<NavigationStatus>(**p).unwrap() == NavigationStatus::Arrived)
        .count();
    (arrived, nearest)
}

/// Property: two files crossing, over every body size (a point to a large
/// one), files from sparse (4 bodies between neighbours) to dense (1.2),
/// 2 to 16 people, both units and both rates: every one arrives within 60 s
/// and no two bodies ever overlap by more than 2% of a body. A fixed seed,
/// so CI runs the same cases every time.
#[test]
fn crossings_of_every_size_and_density_arrive() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config = Config {
        cases: 12,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let cases = (
        1usize..=8,
        proptest::sample::select(RADII.to_vec()),
        1.2f32..4.0,
        proptest::sample::select(UNITS.to_vec()),
        proptest::sample::select(RATES.to_vec()),
    );
    runner
        .run(&cases, |(pairs, radius, gap, unit, hz)| {
            let n = 2 * pairs;
            let (arrived, nearest) = crossing(n, radius, gap, unit, hz, 60.0);
            let body = params(unit, radius).body_radius();
            prop_assert_eq!(arrived, n, "nearest {}", nearest);
            prop_assert!(
                nearest >= 2.0 * body * 0.98,
                "nearest {} for bodies {}",
                nearest,
                body
            );
            Ok(())
        })
        .unwrap();
}
