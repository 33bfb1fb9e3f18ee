//! Navigation through the real plugin: an agent sent with `Navigate` through
//! the lab's own levels (a U-shaped trap, a 20 × 20 maze, a spiral, an
//! office floor) arrives, and its body never touches a wall or a rock.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::{NavigationRoute, Position};
use steering_lab::levels::{self, NamedLevel};
use steering_lab::{BehaviorKind, Report, Scenario, headless_app, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];
/// The agents' body radius, in pixels.
const BODY: f32 = 10.0;

fn navigate(named: &NamedLevel, hz: f64, seconds: f64) -> Report {
    Scenario {
        behavior: BehaviorKind::Navigate,
        start: named.start,
        target: named.goal,
        radius: BODY,
        hz,
        seconds,
        level: named.level.clone(),
        ..Default::default()
    }
    .run()
    .expect("a valid scenario")
}

/// Each of the lab's levels, at 60 and 144 Hz: the agent arrives, its body
/// never touches a wall or a rock (the route keeps a quarter of its radius
/// clear, it cuts a corner by no more, and it is put back if it swings
/// into one), and it walks less than 10% beyond its route's length (it
/// swings wide at corners: 1% to 9% on these levels).
#[test]
fn every_level_is_crossed_without_touching_a_wall() {
    for hz in RATES {
        for name in levels::NAMES {
            let named = levels::named(name).unwrap();
            let r = navigate(&named, hz, 120.0);
            let summary = format!(
                "{name} at {hz} Hz: reached {:?}, clearance {:?}, route {:?}, walked {}, at {}",
                r.reach_s,
                r.min_clearance_px,
                r.route_px,
                r.walked_px,
                r.last().pos
            );
            assert!(r.reach_s.is_some(), "{summary}");
            assert!(r.min_clearance_px.unwrap() >= 0.0, "{summary}");
            eprintln!("{summary}");
            assert!(r.walked_px <= r.route_px.unwrap() * 1.1, "{summary}");
        }
    }
}

/// A bare app with the level's obstacles and one navigating agent.
fn app_with(named: &NamedLevel, hz: f64) -> (App, Entity) {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    for (a, b) in &named.level.walls {
        world.spawn((Obstacle::wall(*a, *b), Position(Vec2::ZERO)));
    }
    for (c, r) in &named.level.circles {
        world.spawn((Obstacle::circle(*r), Position(*c)));
    }
    let agent = world
        .spawn((
            Navigate::to(named.goal),
            Position(named.start),
            SteeringParams {
                radius: BODY,
                ..default()
            },
        ))
        .id();
    (app, agent)
}

#[derive(Resource, Default)]
struct Ended {
    arrived: u32,
    unreachable: u32,
}

/// A wall dropped across the way mid-run: the agent's route goes round it
/// within a step, and it still arrives, untouched; the wall taken away and
/// the agent sent back: its new route goes through the gap, shorter.
#[test]
fn a_wall_dropped_across_the_way_is_gone_round_and_its_gap_used_when_it_goes() {
    for hz in RATES {
        // Below the middle, so that the way under the U is the shorter.
        let named = NamedLevel {
            start: Vec2::new(-200.0, -60.0),
            ..levels::u_trap()
        };
        let (mut app, agent) = app_with(&named, hz);
        app.init_resource::<Ended>();
        app.world_mut()
            .entity_mut(agent)
            .observe(|_: On<Arrived>, mut ended: ResMut<Ended>| ended.arrived += 1);
        // 1.5 s in, it is on its way under the U, heading right.
        run_steps(&mut app, (hz * 1.5) as u64, |_| {});
        let before = app.world().get::<NavigationRoute>(agent).unwrap().clone();
        // Across the stretch it is on, under the U, from the U to far below.
        let blocker = app
            .world_mut()
            .spawn((
                Obstacle::wall(Vec2::new(250.0, -120.0), Vec2::new(250.0, -600.0)),
                Position(Vec2::ZERO),
            ))
            .id();
        let blocked = |p: Vec2| p.x > 240.0 && p.x < 260.0 && p.y < -110.0;
        run_steps(&mut app, 2, |_| {});
        let after = app.world().get::<NavigationRoute>(agent).unwrap().clone();
        assert_ne!(before.points, after.points, "at {hz} Hz");
        assert!(
            !after
                .points
                .windows(2)
                .any(|w| { (0..=20).any(|t| blocked(w[0].lerp(w[1], t as f32 / 20.0))) }),
            "at {hz} Hz, the new route still crosses the wall: {:?}",
            after.points
        );
        let mut least = f32::INFINITY;
        run_steps(&mut app, (hz * 20.0) as u64, |world| {
            let p = world.get::<Position>(agent).unwrap().0;
            let wall = bevy_reynolds::reynolds::math::closest_on_segment(
                p,
                Vec2::new(250.0, -120.0),
                Vec2::new(250.0, -600.0),
            );
            least = least.min(p.distance(wall) - BODY);
        });
        assert_eq!(app.world().resource::<Ended>().arrived, 1, "at {hz} Hz");
        assert!(least >= 0.0, "at {hz} Hz: {least}");
        // The wall goes; sent back to the start, the route passes its place.
        app.world_mut().despawn(blocker);
        app.world_mut().get_mut::<Navigate>(agent).unwrap().goal = Goal::Point(named.start);
        run_steps(&mut app, 2, |_| {});
        let back = app.world().get::<NavigationRoute>(agent).unwrap().clone();
        assert!(
            back.points
                .windows(2)
                .any(|w| { (0..=20).any(|t| blocked(w[0].lerp(w[1], t as f32 / 20.0))) }),
            "at {hz} Hz, the way back does not take the gap: {:?}",
            back.points
        );
    }
}

/// A goal inside a closed room: the agent is told (`Unreachable`, once) and
/// goes to the nearest place outside it; a goal inside a rock: it arrives
/// at the nearest free place beside it.
#[test]
fn goals_out_of_reach_end_at_the_nearest_place_and_say_so() {
    for hz in RATES {
        let room = NamedLevel {
            level: steering_lab::Level {
                walls: vec![
                    (Vec2::new(200.0, -100.0), Vec2::new(400.0, -100.0)),
                    (Vec2::new(400.0, -100.0), Vec2::new(400.0, 100.0)),
                    (Vec2::new(400.0, 100.0), Vec2::new(200.0, 100.0)),
                    (Vec2::new(200.0, 100.0), Vec2::new(200.0, -100.0)),
                ],
                ..default()
            },
            start: Vec2::ZERO,
            goal: Vec2::new(250.0, 0.0),
        };
        let (mut app, agent) = app_with(&room, hz);
        app.init_resource::<Ended>();
        app.world_mut()
            .entity_mut(agent)
            .observe(|_: On<Unreachable>, mut ended: ResMut<Ended>| ended.unreachable += 1);
        run_steps(&mut app, (hz * 10.0) as u64, |_| {});
        let p = app.world().get::<Position>(agent).unwrap().0;
        assert_eq!(
            *app.world().get::<NavigationStatus>(agent).unwrap(),
            NavigationStatus::Unreachable
        );
        assert_eq!(app.world().resource::<Ended>().unreachable, 1);
        // Against the room's near wall, outside: a body and its clearance
        // off it.
        assert!(
            (p - Vec2::new(200.0 - BODY * 1.25, 0.0)).length() < 3.0,
            "at {hz} Hz: {p}"
        );

        let rock = NamedLevel {
            level: steering_lab::Level {
                circles: vec![(Vec2::new(300.0, 0.0), 50.0)],
                ..default()
            },
            start: Vec2::ZERO,
            goal: Vec2::new(310.0, 0.0),
        };
        let (mut app, agent) = app_with(&rock, hz);
        run_steps(&mut app, (hz * 10.0) as u64, |_| {});
        let p = app.world().get::<Position>(agent).unwrap().0;
        assert_eq!(
            *app.world().get::<NavigationStatus>(agent).unwrap(),
            NavigationStatus::Arrived
        );
        assert!(
            (p.distance(Vec2::new(300.0, 0.0)) - (50.0 + BODY * 1.25)).abs() < 3.0,
            "at {hz} Hz: {p}"
        );
    }
}
