//! Steering through a level, through the real plugin: rocks and walls
//! avoided, agents kept inside an area, paths followed. Each case at 60 and
//! 144 Hz.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::{level, path};
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use steering_lab::{BehaviorKind, Level, Report, Scenario, headless_app, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];
/// The agents' body radius in these tests, in pixels.
const BODY: f32 = 10.0;

fn run(scenario: Scenario) -> Report {
    scenario.run().expect("a valid scenario")
}

fn seek_through(level: Level, start: Vec2, goal: Vec2, hz: f64, seconds: f64) -> Scenario {
    Scenario {
        behavior: BehaviorKind::Seek,
        start,
        target: goal,
        radius: BODY,
        hz,
        seconds,
        level,
        ..Default::default()
    }
}

#[test]
fn an_offset_rock_is_passed_on_the_far_side_and_mirrored_offsets_mirror() {
    for hz in RATES {
        let pass = |offset: f32| {
            let level = Level {
                circles: vec![(Vec2::new(200.0, offset), 40.0)],
                ..default()
            };
            let scenario = Scenario {
                behavior: BehaviorKind::Arrive,
                ..seek_through(level, Vec2::ZERO, Vec2::new(400.0, 0.0), hz, 6.0)
            };
            run(scenario)
        };
        let (above, below) = (pass(6.0), pass(-6.0));
        for (a, b) in above.trajectory.iter().zip(&below.trajectory) {
            assert!(
                (a.pos.x - b.pos.x).abs() < 1e-3 && (a.pos.y + b.pos.y).abs() < 1e-3,
                "at {} s: {} and {} do not mirror",
                a.t,
                a.pos,
                b.pos
            );
        }
        // A rock a little above the line is passed below it, and clear of it.
        let lowest = above
            .trajectory
            .iter()
            .map(|s| s.pos.y)
            .fold(f32::INFINITY, f32::min);
        assert!(lowest < -40.0, "{lowest}");
        assert!(above.min_clearance_px.unwrap() >= 0.0);
        assert!(above.reach_s.is_some(), "it still arrives");
    }
}

#[test]
fn from_rest_right_in_front_of_a_rock_it_goes_round() {
    for hz in RATES {
        // The body's edge 10 px from the rock's, the goal straight behind it.
        let level = Level {
            circles: vec![(Vec2::new(100.0, 0.0), 40.0)],
            ..default()
        };
        let start = Vec2::new(100.0 - 40.0 - BODY - 10.0, 0.0);
        let report = run(seek_through(level, start, Vec2::new(300.0, 0.0), hz, 4.0));
        let clearance = report.min_clearance_px.unwrap();
        assert!(clearance >= 0.0, "{clearance} px at {hz} Hz");
        assert!(report.reach_s.is_some(), "it gets round at {hz} Hz");
    }
}

/// 25 rocks on a jittered grid, with gaps between them of at least 2.5
/// body diameters.
fn rock_field(rng: &mut Xoshiro128PlusPlus) -> Vec<(Vec2, f32)> {
    let mut rocks: Vec<(Vec2, f32)> = Vec::new();
    while rocks.len() < 25 {
        let i = rocks.len();
        let cell = Vec2::new((i % 5) as f32, (i / 5) as f32) * 200.0 + 100.0;
        let center = cell + Vec2::new(rng.random_range(-40.0..40.0), rng.random_range(-40.0..40.0));
        let radius = rng.random_range(15.0..45.0);
        let gap_ok = rocks
            .iter()
            .all(|(c, r)| c.distance(center) - r - radius >= 2.5 * 2.0 * BODY);
        if gap_ok {
            rocks.push((center, radius));
        }
    }
    rocks
}

/// A point in the field, clear of every rock by at least a body diameter.
fn clear_point(rng: &mut Xoshiro128PlusPlus, rocks: &[(Vec2, f32)]) -> Vec2 {
    loop {
        let p = Vec2::new(rng.random_range(0.0..1000.0), rng.random_range(0.0..1000.0));
        if rocks.iter().all(|(c, r)| p.distance(*c) - r >= 2.0 * BODY) {
            return p;
        }
    }
}

#[test]
fn a_field_of_rocks_is_crossed_without_touching_one() {
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(25);
    let rocks = rock_field(&mut rng);
    let pairs: Vec<(Vec2, Vec2)> = (0..50)
        .map(|_| {
            loop {
                let (start, goal) = (clear_point(&mut rng, &rocks), clear_point(&mut rng, &rocks));
                if start.distance(goal) > 300.0 {
                    break (start, goal);
                }
            }
        })
        .collect();
    for hz in RATES {
        let mut reached = 0;
        let mut worst = f32::INFINITY;
        for &(start, goal) in &pairs {
            let straight = start.distance(goal) / 220.0;
            let level = Level {
                circles: rocks.clone(),
                ..default()
            };
            let report = run(Scenario {
                behavior: BehaviorKind::Arrive,
                ..seek_through(level, start, goal, hz, 3.0 * straight as f64)
            });
            worst = worst.min(report.min_clearance_px.unwrap());
            if report.reach_s.is_some() {
                reached += 1;
            }
        }
        eprintln!(
            "{hz} Hz: {reached} of 50 reached within 3× the straight-line time; least clearance {worst:.2} px"
        );
        assert!(
            worst >= 0.0,
            "a body went {worst} px into a rock at {hz} Hz"
        );
        assert!(reached >= 45, "only {reached} of 50 at {hz} Hz");
    }
}

#[test]
fn walls_approached_at_full_speed_from_either_side_are_never_touched() {
    for hz in RATES {
        for degrees in [90.0f32, 60.0, 30.0] {
            for side in [-1.0f32, 1.0] {
                let wall = (Vec2::new(0.0, -400.0), Vec2::new(0.0, 400.0));
                // Toward the wall at `degrees` to it, from `side` of it.
                let heading = Vec2::from_angle(degrees.to_radians()).rotate(Vec2::new(0.0, 1.0));
                let heading = Vec2::new(-side * heading.x.abs(), heading.y);
                let start = Vec2::new(side * 150.0, 0.0);
                let level = Level {
                    walls: vec![wall],
                    ..default()
                };
                let scenario = Scenario {
                    start_vel: heading * 220.0,
                    ..seek_through(level, start, start + heading * 600.0, hz, 3.0)
                };
                let clearance = run(scenario).min_clearance_px.unwrap();
                assert!(
                    clearance >= 0.0,
                    "{degrees}° from x = {}: {clearance} px at {hz} Hz",
                    side * 150.0
                );
            }
        }
    }
}

/// An L-shaped corridor two body diameters wide, its centre line as the
/// path: the report of following it for 12 s.
fn l_corridor(hz: f64) -> Report {
    // The centre line, and walls a body diameter either side of it.
    let path = vec![Vec2::ZERO, Vec2::new(400.0, 0.0), Vec2::new(400.0, 300.0)];
    let half = 2.0 * BODY;
    let walls = vec![
        // Outside the bend.
        (Vec2::new(-half, -half), Vec2::new(400.0 + half, -half)),
        (
            Vec2::new(400.0 + half, -half),
            Vec2::new(400.0 + half, 300.0),
        ),
        // Inside it.
        (Vec2::new(-half, half), Vec2::new(400.0 - half, half)),
        (
            Vec2::new(400.0 - half, half),
            Vec2::new(400.0 - half, 300.0),
        ),
    ];
    run(Scenario {
        behavior: BehaviorKind::Path,
        radius: BODY,
        hz,
        seconds: 12.0,
        start: Vec2::ZERO,
        level: Level {
            walls,
            path,
            path_radius: BODY,
            ..default()
        },
        ..Default::default()
    })
}

#[test]
fn an_l_shaped_corridor_two_bodies_wide_is_followed_without_touching_a_wall() {
    for hz in RATES {
        let clearance = l_corridor(hz).min_clearance_px.unwrap();
        eprintln!("L corridor at {hz} Hz: least clearance {clearance:.2} px");
        assert!(clearance >= 0.0, "{clearance} px at {hz} Hz");
    }
}

#[test]
fn an_l_shaped_corridor_is_followed_round_the_bend() {
    for hz in RATES {
        assert!(
            l_corridor(hz).reach_s.is_some(),
            "stuck at the bend at {hz} Hz"
        );
    }
}

/// A wanderer kept inside `area`, at `p`, from rest, facing anywhere: one
/// spawned at full speed a few pixels from an edge, heading out, could not
/// stop.
fn spawn_wanderer(app: &mut App, p: Vec2, area: &[Vec2], rng: &mut Xoshiro128PlusPlus) {
    app.world_mut().spawn((
        SteeringAgent,
        SteeringBehavior::Wander,
        Containment::polygon(area.iter().copied()),
        AgentPosition(p),
        AgentHeading(Dir2::new(Vec2::from_angle(rng.random_range(0.0..6.3))).unwrap()),
    ));
}

/// What `count` wanderers spread over an area did in it.
struct Wandered {
    /// The farthest any was outside it.
    worst_outside: f32,
    /// The share of agent-steps within 20 px of its outline.
    near_edge: f64,
}

/// `count` wanderers spread over `area`, run for `seconds`.
fn wanderers_inside(area: &[Vec2], count: usize, hz: f64, seconds: f64) -> Wandered {
    let mut app = headless_app(hz, 3, SteeringSettings::default());
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(200);
    let (min, max) = area
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    let mut spawned = 0;
    while spawned < count {
        let p = Vec2::new(
            rng.random_range(min.x..max.x),
            rng.random_range(min.y..max.y),
        );
        if level::inside_polygon(p, area) {
            spawn_wanderer(&mut app, p, area, &mut rng);
            spawned += 1;
        }
    }
    let mut worst = 0.0f32;
    let (mut near, mut all) = (0usize, 0usize);
    let mut positions = app.world_mut().query::<&AgentPosition>();
    run_steps(&mut app, (seconds * hz) as u64, |world| {
        for p in positions.iter(world) {
            worst = worst.max(level::outside_by(p.0, area));
            let to_edge = level::closest_on_outline(p.0, area).map_or(0.0, |q| p.0.distance(q));
            near += usize::from(to_edge < 20.0);
            all += 1;
        }
    });
    Wandered {
        worst_outside: worst,
        near_edge: near as f64 / all.max(1) as f64,
    }
}

fn square() -> Vec<Vec2> {
    vec![
        Vec2::ZERO,
        Vec2::new(600.0, 0.0),
        Vec2::new(600.0, 600.0),
        Vec2::new(0.0, 600.0),
    ]
}

fn l_shape() -> Vec<Vec2> {
    vec![
        Vec2::ZERO,
        Vec2::new(600.0, 0.0),
        Vec2::new(600.0, 250.0),
        Vec2::new(250.0, 250.0),
        Vec2::new(250.0, 600.0),
        Vec2::new(0.0, 600.0),
    ]
}

#[test]
fn wanderers_stay_inside_a_square_and_an_l() {
    for hz in RATES {
        let step = 220.0 / hz as f32;
        for (name, area) in [("square", square()), ("L", l_shape())] {
            let wandered = wanderers_inside(&area, 200, hz, 60.0);
            let worst = wandered.worst_outside;
            eprintln!(
                "200 wanderers, 60 s in the {name} at {hz} Hz: at most {worst:.2} px outside, {:.1}% of the time within 20 px of the edge",
                100.0 * wandered.near_edge
            );
            assert!(worst <= step, "{worst} px outside the {name} at {hz} Hz");
        }
    }
}

/// In a 600 px square, 12.9% of the area is within 20 px of the edge.
/// Wanderers that slid along the edge until their wander turned them
/// (without the bounce) spent 92% of their time there; bouncing off what
/// they see ahead, 0.3%.
#[test]
fn wanderers_bounce_off_the_edge_rather_than_gather_along_it() {
    for hz in RATES {
        let near = wanderers_inside(&square(), 100, hz, 30.0).near_edge;
        eprintln!(
            "100 wanderers, 30 s in the square at {hz} Hz: {:.1}% of the time within 20 px of the edge",
            100.0 * near
        );
        assert!(near < 0.2, "{near} of the time near the edge at {hz} Hz");
    }
}

#[test]
fn an_agent_placed_outside_comes_back_in_within_3_s() {
    for hz in RATES {
        for area in [square(), l_shape()] {
            let report = run(Scenario {
                behavior: BehaviorKind::Wander,
                start: Vec2::new(-100.0, 100.0),
                hz,
                seconds: 3.0,
                level: Level {
                    contain: Some(area.clone()),
                    ..default()
                },
                ..Default::default()
            });
            let back = report
                .trajectory
                .iter()
                .find(|s| level::inside_polygon(s.pos, &area));
            assert!(back.is_some(), "still outside after 3 s at {hz} Hz");
        }
    }
}

fn rectangle_path() -> Vec<Vec2> {
    vec![
        Vec2::ZERO,
        Vec2::new(400.0, 0.0),
        Vec2::new(400.0, 300.0),
        Vec2::new(0.0, 300.0),
    ]
}

#[test]
fn a_looped_rectangle_is_lapped_on_the_path_and_near_top_speed() {
    let corners = rectangle_path();
    for hz in RATES {
        let report = run(Scenario {
            behavior: BehaviorKind::Path,
            start: Vec2::ZERO,
            radius: BODY,
            hz,
            seconds: 16.0,
            level: Level {
                path: corners.clone(),
                path_radius: 20.0,
                path_loop: true,
                ..default()
            },
            ..Default::default()
        });
        let path = path::Polyline::new(corners.iter().copied(), true);
        let allowed = 20.0 + BODY;
        let (mut straight, mut corner) = (0.0f32, 0.0f32);
        // After the first lap's start from rest.
        for s in &report.trajectory {
            let off = path.distance(s.pos);
            let near_corner = corners.iter().any(|c| c.distance(s.pos) < 100.0);
            if near_corner {
                corner = corner.max(off);
            } else {
                straight = straight.max(off);
            }
        }
        let lap = report.lap_s.expect("a lap in 16 s");
        let ideal = 1400.0 / 220.0;
        eprintln!(
            "rectangle at {hz} Hz: lap {lap:.2} s (ideal {ideal:.2}), off the path {straight:.1} px on straights, {corner:.1} px at corners"
        );
        assert!(
            straight <= allowed,
            "{straight} px off a straight at {hz} Hz"
        );
        assert!(
            corner <= 1.5 * allowed,
            "{corner} px off at a corner at {hz} Hz"
        );
        assert!(lap <= ideal * 1.15, "a lap took {lap} s at {hz} Hz");
    }
}

#[test]
fn on_a_figure_eight_the_cursor_never_goes_back_or_jumps_branch() {
    // Two loops of a lemniscate, crossing at the origin.
    let points: Vec<Vec2> = (0..64)
        .map(|i| {
            let t = i as f32 / 64.0 * std::f32::consts::TAU;
            let d = 1.0 + t.sin().powi(2);
            Vec2::new(300.0 * t.cos() / d, 300.0 * t.sin() * t.cos() / d)
        })
        .collect();
    for hz in RATES {
        let report = run(Scenario {
            behavior: BehaviorKind::Path,
            start: points[0],
            radius: BODY,
            hz,
            seconds: 20.0,
            level: Level {
                path: points.clone(),
                path_radius: 20.0,
                path_loop: true,
                ..default()
            },
            ..Default::default()
        });
        // Inside a bend the nearest point runs ahead of the agent, but by
        // nothing like a jump to the other branch at the crossing, which is
        // half the path (about 900 px) further on.
        let most = 50.0;
        for w in report.trajectory.windows(2) {
            let moved = w[1].cursor - w[0].cursor;
            assert!(moved >= 0.0, "the cursor went back at {} s", w[1].t);
            assert!(
                moved <= most,
                "the cursor jumped {moved} px at {} s",
                w[1].t
            );
        }
        assert!(report.lap_s.is_some(), "it went round at {hz} Hz");
    }
}

#[test]
fn at_the_end_of_an_open_path_it_stops_on_the_last_point() {
    for hz in RATES {
        let report = run(Scenario {
            behavior: BehaviorKind::Path,
            hz,
            seconds: 10.0,
            level: Level {
                path: vec![
                    Vec2::ZERO,
                    Vec2::new(300.0, 0.0),
                    Vec2::new(300.0, 0.0),
                    Vec2::new(300.0, 200.0),
                ],
                path_radius: 20.0,
                ..default()
            },
            start: Vec2::new(-50.0, 30.0),
            ..Default::default()
        });
        let last = report.last();
        let off = last.pos.distance(Vec2::new(300.0, 200.0));
        assert!(off < 1.0, "{off} px from the end at {hz} Hz");
        assert!(
            last.vel.length() < 1.0,
            "{} px/s at {hz} Hz",
            last.vel.length()
        );
    }
}

#[test]
fn a_path_of_one_point_or_none_is_safe() {
    for points in [vec![], vec![Vec2::new(50.0, 50.0)], vec![Vec2::ONE; 3]] {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        let path = Arc::new(SteeringPath::new(points, true));
        let agent = app
            .world_mut()
            .spawn((SteeringAgent, FollowPath::new(path, 10.0)))
            .id();
        run_steps(&mut app, 120, |_| {});
        let pos = app.world().get::<AgentPosition>(agent).unwrap().0;
        assert!(pos.is_finite(), "{pos}");
    }
}

#[test]
fn a_goal_straight_behind_a_rock_is_reached_going_round_one_side() {
    // A goal straight behind a rock, the agent a hair off the line: it
    // goes round one side, without dithering from one to the other.
    let level = Level {
        circles: vec![(Vec2::new(200.0, 0.0), 60.0)],
        ..default()
    };
    let report = run(seek_through(
        level,
        Vec2::new(0.0, 0.5),
        Vec2::new(400.0, 0.0),
        60.0,
        5.0,
    ));
    let sides: Vec<f32> = report
        .trajectory
        .iter()
        .filter(|s| (120.0..280.0).contains(&s.pos.x))
        .map(|s| s.pos.y.signum())
        .collect();
    assert!(!sides.is_empty());
    assert!(sides.iter().all(|s| *s == sides[0]), "it switched sides");
    assert!(report.reach_s.is_some());
}

#[test]
fn wanderers_among_rocks_never_touch_one() {
    for hz in RATES {
        let mut app = headless_app(
            hz,
            5,
            SteeringSettings {
                agent: SteeringParams {
                    radius: BODY,
                    ..default()
                },
                ..default()
            },
        );
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(9);
        let rocks = rock_field(&mut rng);
        for (center, radius) in &rocks {
            app.world_mut()
                .spawn((SteeringObstacle::circle(*radius), AgentPosition(*center)));
        }
        let area = [
            Vec2::ZERO,
            Vec2::new(1000.0, 0.0),
            Vec2::new(1000.0, 1000.0),
            Vec2::new(0.0, 1000.0),
        ];
        for _ in 0..100 {
            let p = clear_point(&mut rng, &rocks);
            spawn_wanderer(&mut app, p, &area, &mut rng);
        }
        let level = Level {
            circles: rocks.clone(),
            ..default()
        };
        let mut worst = (f32::INFINITY, Vec2::ZERO);
        let mut agents = app
            .world_mut()
            .query_filtered::<&AgentPosition, With<SteeringAgent>>();
        run_steps(&mut app, (30.0 * hz) as u64, |world| {
            for p in agents.iter(world) {
                let c = level.clearance(p.0, BODY);
                if c < worst.0 {
                    worst = (c, p.0);
                }
            }
        });
        eprintln!(
            "100 wanderers among 25 rocks for 30 s at {hz} Hz: least clearance {:.2} px at {}",
            worst.0, worst.1
        );
        assert!(worst.0 >= 0.0, "{} px at {hz} Hz", worst.0);
    }
}

/// Agents that never come near each other steer the same alone as
/// together: what one agent gathered against a finely drawn edge (more
/// edges in reach than a gathering holds) is not seen by the next agent
/// stepped on that thread.
#[test]
fn an_agent_steers_the_same_whether_or_not_another_was_stepped_before_it() {
    // A square field whose right side is drawn in a thousand pieces: an
    // agent resting by it has over a hundred edges in reach.
    let field: Vec<Vec2> = (0..=1_000)
        .map(|i| Vec2::new(400.0, -400.0 + 0.8 * i as f32))
        .chain([Vec2::new(-400.0, 400.0), Vec2::new(-400.0, -400.0)])
        .collect();
    let path_of_seeker = |with_resting: bool| {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        if with_resting {
            // Spawned first, so stepped first.
            app.world_mut().spawn((
                SteeringAgent,
                SteeringBehavior::Idle,
                Containment::polygon(field.clone()),
                AgentPosition(Vec2::new(398.0, 0.0)),
            ));
        }
        // From by the top edge (the only one in its reach) down the
        // middle, 400 px from the other.
        let seeker = app
            .world_mut()
            .spawn((
                SteeringAgent,
                SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(0.0, -300.0))),
                Containment::polygon(field.clone()),
                AgentPosition(Vec2::new(0.0, 360.0)),
            ))
            .id();
        let mut path = Vec::new();
        run_steps(&mut app, 120, |world| {
            path.push(world.get::<AgentPosition>(seeker).expect("the seeker").0);
        });
        path
    };
    let (alone, together) = (path_of_seeker(false), path_of_seeker(true));
    for (step, (a, b)) in alone.iter().zip(&together).enumerate() {
        assert_eq!(a, b, "step {step}: alone at {a}, with the other at {b}");
    }
}

/// The obstacles are gathered into the index again only when one changes:
/// each kind of change (moved by its `AgentPosition` or by its transform,
/// reshaped, placed by its transform once its `AgentPosition` is removed, a
/// rock added, its `SteeringObstacle` removed, placed where its shape is drawn
/// once its transform is removed too, despawned) shows in the next step's
/// index, and a step without one keeps what the index had.
#[test]
fn every_change_to_an_obstacle_shows_in_the_next_steps_index() {
    let mut app = headless_app(60.0, 1, SteeringSettings::default());
    app.world_mut()
        .spawn((SteeringAgent, AgentPosition(Vec2::new(0.0, 500.0))));
    // Where a ray along +x from the origin first meets an obstacle.
    let ray = |app: &App| {
        let ray = level::Probe {
            from: Vec2::ZERO,
            dir: Vec2::X,
            length: 1000.0,
            radius: 0.0,
        };
        let index = app.world().resource::<ObstacleIndex>();
        index.first_hit(&ray).map(|hit| hit.at)
    };
    let rock = (
        SteeringObstacle::circle(10.0),
        AgentPosition(Vec2::new(100.0, 0.0)),
    );
    let rock = app.world_mut().spawn(rock).id();
    let at = |x: f32| GlobalTransform::from_xyz(x, 0.0, 0.0);
    type Change = Box<dyn Fn(&mut World, Entity)>;
    fn insert(bundle: impl Bundle + Clone) -> Change {
        Box::new(move |w, e| {
            w.entity_mut(e).insert(bundle.clone());
        })
    }
    fn remove<C: Component>() -> Change {
        Box::new(|w, e| {
            w.entity_mut(e).remove::<C>();
        })
    }
    let changes: [(&str, Change, Option<f32>); 11] = [
        ("spawned", Box::new(|_, _| {}), Some(90.0)),
        ("nothing", Box::new(|_, _| {}), Some(90.0)),
        (
            "moved",
            Box::new(|w, e| w.get_mut::<AgentPosition>(e).unwrap().0.x = 200.0),
            Some(190.0),
        ),
        (
            "reshaped",
            insert(SteeringObstacle::circle(20.0)),
            Some(180.0),
        ),
        // Its `AgentPosition` still places it.
        ("given a transform", insert(at(300.0)), Some(180.0)),
        (
            "its position removed",
            remove::<AgentPosition>(),
            Some(280.0),
        ),
        ("moved by its transform", insert(at(400.0)), Some(380.0)),
        (
            "another added in front",
            // A wall placed where it is drawn (nothing else places it).
            Box::new(|w, _| {
                w.spawn(SteeringObstacle::wall(
                    Vec2::new(50.0, -20.0),
                    Vec2::new(50.0, 20.0),
                ));
            }),
            Some(50.0),
        ),
        (
            "that one's obstacle removed",
            Box::new(|w, _| {
                let front = w
                    .query_filtered::<Entity, (With<SteeringObstacle>, Without<GlobalTransform>)>()
                    .single(w)
                    .unwrap();
                w.entity_mut(front).remove::<SteeringObstacle>();
            }),
            Some(380.0),
        ),
        // Placed where its shape is drawn: round the origin, where the
        // ray starts (from its centre, a hit at once).
        (
            "left without a transform",
            remove::<GlobalTransform>(),
            Some(0.0),
        ),
        (
            "despawned",
            Box::new(|w, e| {
                w.despawn(e);
            }),
            None,
        ),
    ];
    app.update();
    for (what, change, hit) in changes {
        change(app.world_mut(), rock);
        run_steps(&mut app, 1, |_| {});
        assert_eq!(ray(&app), hit, "after the rock was {what}");
    }
}
