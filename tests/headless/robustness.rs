//! Hostile worlds a game really makes: agents flung far apart, wrap
//! rectangles changed to nonsense while agents flock, and crowds spawned on
//! one spot. No panic (debug builds check overflow), no NaN, and crowds part.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use steering_test_support::{headless_app, run_steps};

fn open_world() -> App {
    headless_app(
        60.0,
        1,
        SteeringSettings {
            wrap: None,
            ..default()
        },
    )
}

fn all_finite(app: &mut App) -> bool {
    let mut query = app
        .world_mut()
        .query::<(&AgentPosition, &AgentVelocity, &AgentHeading, &Transform)>();
    let agents: Vec<_> = query.iter(app.world()).collect();
    !agents.is_empty()
        && agents
            .iter()
            .all(|(p, v, h, t)| p.is_finite() && v.is_finite() && h.is_finite() && t.is_finite())
}

#[test]
fn flockers_flung_far_apart_in_an_open_world_neither_panic_nor_spread_nan() {
    for far in [1e30, -1e30, f32::MAX, 3e9] {
        let mut app = open_world();
        let world = app.world_mut();
        world.spawn((Flocking::default(), AgentPosition::new(far, 0.0)));
        world.spawn((Flocking::default(), AgentPosition::new(0.0, 0.0)));
        world.spawn((Flocking::default(), AgentPosition::new(0.0, far)));
        world.spawn((
            Flocking::default(),
            SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(far, far))),
            SteeringParams {
                max_speed: 1e30,
                max_force: 1e35,
                ..default()
            },
        ));
        run_steps(&mut app, 30, |_| {});
        assert!(all_finite(&mut app), "agents at {far}");
    }
}

#[test]
fn a_wrap_rectangle_turned_to_nonsense_while_agents_flock() {
    let nonsense = [
        Rect {
            min: Vec2::new(f32::NAN, 0.0),
            max: Vec2::new(1000.0, 700.0),
        },
        Rect {
            min: Vec2::ZERO,
            max: Vec2::new(f32::INFINITY, 700.0),
        },
        Rect {
            min: Vec2::new(1000.0, 700.0),
            max: Vec2::ZERO,
        },
        Rect {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        },
        Rect {
            min: Vec2::splat(-1e30),
            max: Vec2::splat(1e30),
        },
        Rect {
            min: Vec2::splat(-3e38),
            max: Vec2::splat(3e38),
        },
    ];
    for rect in nonsense {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        for i in 0..50 {
            app.world_mut().spawn((
                Flocking::default(),
                SteeringBehavior::Wander,
                AgentPosition::new(20.0 * i as f32, 350.0),
            ));
        }
        run_steps(&mut app, 10, |_| {});
        app.world_mut().resource_mut::<SteeringSettings>().wrap = Some(rect);
        run_steps(&mut app, 30, |_| {});
        assert!(all_finite(&mut app), "wrap {rect:?}");
    }
}

/// The farthest and the median distance of `agents` from `spot`.
fn spread(app: &App, agents: &[Entity], spot: Vec2) -> (f32, f32) {
    let mut distances: Vec<f32> = agents
        .iter()
        .map(|e| app.world().get::<AgentPosition>(*e).unwrap().distance(spot))
        .collect();
    distances.sort_by(f32::total_cmp);
    (
        distances[distances.len() - 1],
        distances[distances.len() / 2],
    )
}

#[test]
fn a_crowd_spawned_on_one_spot_parts() {
    let spot = Vec2::new(500.0, 350.0);
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    let crowd: Vec<Entity> = (0..2000)
        .map(|_| {
            app.world_mut()
                .spawn((
                    Flocking::default(),
                    SteeringBehavior::Idle,
                    AgentPosition(spot),
                ))
                .id()
        })
        .collect();
    run_steps(&mut app, 120, |_| {});
    assert!(all_finite(&mut app));
    let (farthest, median) = spread(&app, &crowd, spot);
    eprintln!("2,000 from one spot after 2 s: median {median:.1} px, farthest {farthest:.1} px");
    let separation = Flocking::default().rules.separation_radius;
    assert!(
        median >= separation,
        "after 2 s half the crowd is within {median} px of the spot (farthest {farthest} px)"
    );
}

#[test]
fn two_agents_on_one_spot_part_symmetrically() {
    let spot = Vec2::new(500.0, 350.0);
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    let pair: Vec<Entity> = (0..2)
        .map(|_| {
            app.world_mut()
                .spawn((
                    Flocking::separation_only(),
                    SteeringBehavior::Idle,
                    AgentPosition(spot),
                ))
                .id()
        })
        .collect();
    run_steps(&mut app, 60, |_| {});
    let p = |e: Entity| app.world().get::<AgentPosition>(e).unwrap().0 - spot;
    let (a, b) = (p(pair[0]), p(pair[1]));
    assert!(a.is_finite() && b.is_finite());
    assert!(
        a.distance(b) >= Flocking::default().rules.separation_radius,
        "{a} and {b} from the spot"
    );
    // Mirror images of each other about the spot, to within the rounding
    // of 60 steps: the two are added to 500 and taken from it, and past
    // 512 an f32 is half as fine (6.1e-5 px), so the two round apart by up
    // to that each step and coordinate (0.0014 px was seen when the ids,
    // and so the tie-break, sent them along x; 60 x 2 x 6.1e-5 = 0.0073).
    assert!((a + b).length() < 0.01, "{a} and {b} are not symmetric");
}
