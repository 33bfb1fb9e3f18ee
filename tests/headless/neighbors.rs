//! The neighbor grid against brute force, round a wrapping world's edges,
//! and flocking through the real plugin.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::spatial::GridAgent;
use proptest::prelude::*;
use steering_test_support::{headless_app, run_steps};

fn brute_force(points: &[Vec2], p: Vec2, r: f32, period: Vec2) -> Vec<usize> {
    let mut found: Vec<usize> = points
        .iter()
        .enumerate()
        .filter(|(_, q)| {
            bevy_reynolds::reynolds::wrap::wrapped_offset(p, **q, period).length() <= r
        })
        .map(|(i, _)| i)
        .collect();
    found.sort();
    found
}

fn grid_query(grid: &NeighborGrid, p: Vec2, r: f32) -> Vec<usize> {
    let mut found: Vec<usize> = grid
        .within(p, r)
        .map(|(e, _)| e.index_u32() as usize)
        .collect();
    found.sort();
    found
}

/// A still point agent at `position`, as the grid takes it in.
fn still(id: Entity, position: Vec2) -> GridAgent<Entity> {
    GridAgent {
        id,
        position,
        velocity: Vec2::ZERO,
        radius: 0.0,
    }
}

fn entities(n: usize) -> Vec<Entity> {
    let mut world = World::new();
    (0..n).map(|_| world.spawn_empty().id()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_grid_finds_exactly_what_brute_force_finds(
        points in proptest::collection::vec((0.0f32..1000.0, 0.0f32..700.0), 0..300),
        probe in (-50.0f32..1050.0, -50.0f32..750.0),
        r in 0.0f32..150.0,
        cell in 5.0f32..120.0,
        wraps in any::<bool>(),
    ) {
        let points: Vec<Vec2> = points.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
        let ids = entities(points.len());
        let wrap = wraps.then(|| Rect::new(0.0, 0.0, 1000.0, 700.0));
        let mut grid = NeighborGrid::default();
        grid.rebuild(ids.iter().zip(&points).map(|(e, p)| still(*e, *p)), cell, wrap);
        let period = if wraps { Vec2::new(1000.0, 700.0) } else { Vec2::ZERO };
        let p = Vec2::new(probe.0, probe.1);
        let expected: Vec<usize> = brute_force(&points, p, r, period)
            .into_iter()
            .map(|i| ids[i].index_u32() as usize)
            .collect();
        prop_assert_eq!(grid_query(&grid, p, r), expected);
    }
}

#[test]
fn neighbors_across_an_edge_count() {
    let ids = entities(2);
    let mut grid = NeighborGrid::default();
    grid.rebuild(
        [
            still(ids[0], Vec2::new(995.0, 350.0)),
            still(ids[1], Vec2::new(5.0, 350.0)),
        ],
        70.0,
        Some(Rect::new(0.0, 0.0, 1000.0, 700.0)),
    );
    let mut offsets = Vec::new();
    grid.for_each_within(Vec2::new(995.0, 350.0), 25.0, |_, offset, _| {
        offsets.push(offset)
    });
    offsets.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert_eq!(offsets, [Vec2::ZERO, Vec2::new(10.0, 0.0)]);
}

#[test]
fn separation_pushes_close_still_agents_apart() {
    // Two idle agents 10 px apart: nothing else moves them, so separation
    // alone must part them to its 25 px, and without it they stay.
    let apart_after_1_s = |flocking: Flocking| {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        let pair: Vec<Entity> = [495.0, 505.0]
            .into_iter()
            .map(|x| {
                app.world_mut()
                    .spawn((
                        flocking,
                        SteeringBehavior::Idle,
                        AgentPosition::new(x, 350.0),
                    ))
                    .id()
            })
            .collect();
        run_steps(&mut app, 60, |_| {});
        let p = |e: Entity| app.world().get::<AgentPosition>(e).unwrap().0;
        p(pair[0]).distance(p(pair[1]))
    };
    let separated = apart_after_1_s(Flocking::separation_only());
    assert!(separated >= 25.0, "{separated} px apart");
    let mut none = Flocking::separation_only();
    none.rules.separation_weight = 0.0;
    assert_eq!(apart_after_1_s(none), 10.0);
}

/// 500 boids with the boids example's rules (wander weighted 0.3, the three
/// rules, a top speed of 160 px/s) in a wrapping world sized for about 30
/// neighbors each, after 10 s: their mean speed over the top speed, and
/// how aligned each is with those within 70 px (the length of the mean of
/// their directions and its own: 1 all one way, near 0 every way).
fn flock_after_10_s(flocking: Flocking) -> (f32, f32) {
    use rand::{RngExt, SeedableRng};
    let side = (500.0 * std::f32::consts::PI * 70.0 * 70.0 / 30.0_f32).sqrt();
    let settings = SteeringSettings {
        wrap: Some(Rect::new(0.0, 0.0, side, side)),
        ..default()
    };
    let mut app = headless_app(60.0, 1, settings);
    let mut rng = rand::rngs::Xoshiro128PlusPlus::seed_from_u64(11);
    for _ in 0..500 {
        let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        app.world_mut().spawn((
            flocking,
            SteeringBehavior::Blend(vec![Weighted::new(0.3, SteeringBehavior::Wander)]),
            SteeringParams {
                max_speed: 160.0,
                ..default()
            },
            AgentPosition(Vec2::new(
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
            )),
            AgentVelocity(Vec2::from_angle(angle) * 100.0),
            WanderAngle(angle),
        ));
    }
    run_steps(&mut app, 600, |_| {});
    let mut query = app.world_mut().query::<(&AgentPosition, &AgentVelocity)>();
    let boids: Vec<(Vec2, Vec2)> = query.iter(app.world()).map(|(p, v)| (p.0, v.0)).collect();
    let grid = app.world().resource::<NeighborGrid>();
    let mean_speed = boids.iter().map(|(_, v)| v.length()).sum::<f32>() / 500.0;
    let alignment = boids
        .iter()
        .map(|(p, _)| {
            let mut ways = Vec2::ZERO;
            let mut n = 0;
            grid.for_each_within(*p, 70.0, |_, _, v| {
                ways += v.normalize_or_zero();
                n += 1;
            });
            (ways / n.max(1) as f32).length()
        })
        .sum::<f32>()
        / 500.0;
    (mean_speed / 160.0, alignment)
}

#[test]
fn a_flock_with_a_cruise_speed_keeps_flying_where_the_literal_rules_stall() {
    let (speed, alignment) = flock_after_10_s(Flocking::boids(128.0));
    eprintln!("cruising at 128 px/s: mean speed {speed:.2} of the top, alignment {alignment:.2}");
    assert!(
        speed > 0.6,
        "the flock slowed to {speed:.2} of its top speed"
    );
    assert!(alignment > 0.8, "neighbors fly {alignment:.2} aligned");
    // The chapter's literal rules, in the same world: the flock brakes
    // itself nearly still.
    let (speed, alignment) = flock_after_10_s(Flocking::default());
    eprintln!("the literal rules: mean speed {speed:.2} of the top, alignment {alignment:.2}");
    assert!(speed < 0.3, "{speed:.2}");
}

#[test]
fn separated_arrivers_huddle_instead_of_piling_up() {
    let spread = |separate: bool| {
        let mut app = headless_app(60.0, 1, SteeringSettings::default());
        let target = SteeringTarget::Point(Vec2::new(500.0, 350.0));
        let agents: Vec<Entity> = (0..6)
            .map(|i| {
                let mut agent = app.world_mut().spawn((
                    SteeringAgent,
                    SteeringBehavior::Arrive(target),
                    AgentPosition::new(200.0 + 60.0 * i as f32, 100.0),
                ));
                if separate {
                    agent.insert(Flocking::separation_only());
                }
                agent.id()
            })
            .collect();
        run_steps(&mut app, 600, |_| {});
        let positions: Vec<Vec2> = agents
            .iter()
            .map(|e| app.world().get::<AgentPosition>(*e).unwrap().0)
            .collect();
        let mut closest = f32::MAX;
        for (i, p) in positions.iter().enumerate() {
            for q in &positions[i + 1..] {
                closest = closest.min(p.distance(*q));
            }
        }
        closest
    };
    assert!(spread(false) < 1.0, "without separation they pile up");
    assert!(
        spread(true) > 5.0,
        "with separation they keep apart: {}",
        spread(true)
    );
}

/// The plugin sums most flockers cell by cell, eight candidates at a time,
/// each by how its own kind flocks; one that caps its neighbors is summed
/// one by one. With a cap no agent reaches, both ways see the same
/// neighbors and must steer the same.
#[test]
fn flocking_by_cells_steers_as_flocking_one_by_one() {
    use rand::{RngExt, SeedableRng};
    let forces = |max_neighbors: Option<usize>| {
        let settings = SteeringSettings {
            wrap: Some(Rect::new(0.0, 0.0, 600.0, 400.0)),
            ..default()
        };
        let mut app = headless_app(60.0, 1, settings);
        let mut rng = rand::rngs::Xoshiro128PlusPlus::seed_from_u64(7);
        // Flockers of four kinds side by side: two ways of flocking, two
        // top speeds, and two reaches (so a cell's flockers do not all
        // read the same cells).
        let boids: Vec<Entity> = (0..500)
            .map(|i| {
                let pos = Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..400.0));
                let vel = Vec2::new(
                    rng.random_range(-200.0..200.0),
                    rng.random_range(-200.0..200.0),
                );
                let flocking = Flocking {
                    max_neighbors,
                    rules: FlockParams {
                        view_half_angle: Some(2.0),
                        ..default()
                    },
                    ..default()
                };
                let (flocking, max_speed) = match i % 4 {
                    0 => (flocking, None),
                    3 => (
                        Flocking {
                            rules: FlockParams {
                                separation_radius: 15.0,
                                neighbor_radius: 35.0,
                                ..flocking.rules
                            },
                            ..flocking
                        },
                        None,
                    ),
                    1 => (
                        Flocking {
                            rules: FlockParams {
                                separation_weight: 4.0,
                                cohesion_weight: 0.0,
                                ..flocking.rules
                            },
                            ..flocking
                        },
                        None,
                    ),
                    _ => (flocking, Some(80.0)),
                };
                app.world_mut()
                    .spawn((
                        flocking,
                        SteeringParams {
                            max_speed: max_speed.unwrap_or(220.0),
                            ..default()
                        },
                        SteeringBehavior::Idle,
                        AgentPosition(pos),
                        AgentVelocity(vel),
                        SteeringForce::default(),
                    ))
                    .id()
            })
            .collect();
        run_steps(&mut app, 1, |_| {});
        boids
            .iter()
            .map(|e| app.world().get::<SteeringForce>(*e).unwrap().0)
            .collect::<Vec<_>>()
    };
    let (by_cells, one_by_one) = (forces(None), forces(Some(100_000)));
    let mut pushed = 0;
    for (a, b) in by_cells.iter().zip(&one_by_one) {
        assert!(
            (*a - *b).length() <= 1e-2 * (1.0 + a.length()),
            "{a} vs {b}"
        );
        pushed += (a.length() > 1.0) as usize;
    }
    assert!(pushed > 400, "most boids have neighbors: {pushed}");
}

/// Flockers whose rules or parameters change, agents that start or stop
/// flocking, and new flockers, one kind of change at a time: the next step
/// steers each by what it is now, as a world built that way from the start
/// does. (The grid keeps each agent's way of flocking from step to step and
/// reads it again only when something changed.)
#[test]
fn flockers_changed_between_steps_flock_as_they_are_now() {
    for change in 1..=5 {
        flock_after_a_change(change);
    }
}

/// 400 agents in a wrapping world, one step; then those with `i % 6 ==
/// change` change (1 heavier rules, 2 a slower, rounder body, 3 stop
/// flocking, 4 start; 5 are new flockers), and the next step's forces are
/// held to those of a world built as it is now.
fn flock_after_a_change(change: usize) {
    use rand::{RngExt, SeedableRng};
    let settings = SteeringSettings {
        wrap: Some(Rect::new(0.0, 0.0, 600.0, 400.0)),
        ..default()
    };
    let mut rng = rand::rngs::Xoshiro128PlusPlus::seed_from_u64(11);
    let start: Vec<(Vec2, Vec2)> = (0..400)
        .map(|_| {
            let pos = Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..400.0));
            let vel = Vec2::new(
                rng.random_range(-200.0..200.0),
                rng.random_range(-200.0..200.0),
            );
            (pos, vel)
        })
        .collect();
    let spawn = |app: &mut App, (pos, vel): (Vec2, Vec2), flocks: bool| {
        let mut agent = app.world_mut().spawn((
            SteeringBehavior::Idle,
            AgentPosition(pos),
            AgentVelocity(vel),
            SteeringForce::default(),
        ));
        if flocks {
            agent.insert(Flocking::default());
        }
        agent.id()
    };
    let changes = |i: usize| i % 6 == change;
    // Agents that will start flocking do not flock yet; new ones are not
    // there yet.
    let before = |i: usize| !(changes(i) && change == 4);
    let mut changed = headless_app(60.0, 1, settings.clone());
    let agents: Vec<(usize, Entity)> = (0..start.len())
        .filter(|i| !(changes(*i) && change == 5))
        .map(|i| (i, spawn(&mut changed, start[i], before(i))))
        .collect();
    run_steps(&mut changed, 1, |_| {});
    let change_one = |e: Entity, world: &mut World| match change {
        1 => {
            world
                .entity_mut(e)
                .insert(Flocking::with_rules(FlockParams {
                    separation_weight: 4.0,
                    cohesion_weight: 0.0,
                    ..default()
                }));
        }
        2 => {
            world.entity_mut(e).insert(SteeringParams {
                max_speed: 80.0,
                radius: 3.0,
                ..default()
            });
        }
        3 => {
            world.entity_mut(e).remove::<Flocking>();
        }
        4 => {
            world.entity_mut(e).insert(Flocking::default());
        }
        _ => {}
    };
    let mut fresh = headless_app(60.0, 1, settings);
    let mut pairs = Vec::new();
    for (i, e) in agents {
        let world = changed.world();
        let now = (
            world.get::<AgentPosition>(e).unwrap().0,
            world.get::<AgentVelocity>(e).unwrap().0,
        );
        let twin = spawn(&mut fresh, now, before(i));
        if changes(i) {
            change_one(e, changed.world_mut());
            change_one(twin, fresh.world_mut());
        }
        pairs.push((e, twin));
    }
    if change == 5 {
        for i in (0..start.len()).filter(|i| changes(*i)) {
            pairs.push((
                spawn(&mut changed, start[i], true),
                spawn(&mut fresh, start[i], true),
            ));
        }
    }
    run_steps(&mut changed, 1, |_| {});
    run_steps(&mut fresh, 1, |_| {});
    let force = |app: &App, e: Entity| app.world().get::<SteeringForce>(e).unwrap().0;
    for (e, twin) in pairs {
        let (a, b) = (force(&changed, e), force(&fresh, twin));
        // The same sums, perhaps added in another order.
        assert!(
            (a - b).length() <= 1e-3 * (1.0 + b.length()),
            "change {change}: {a} vs {b}"
        );
    }
}

/// A world smaller than three cells across: the grid sums each neighbor
/// the short way round instead of in blocks, and counts each once.
#[test]
fn flock_sums_in_a_tiny_world_and_an_empty_grid() {
    use bevy_reynolds::reynolds::flock::FlockView;
    let params = FlockParams::default();
    let view = FlockView::new(&params, Vec2::ZERO);
    let empty = NeighborGrid::default();
    assert_eq!(empty.flock_sums(Vec2::ZERO, 70.0, &view).neighbors(), 0);
    assert_eq!(
        empty
            .flock_sums(Vec2::ZERO, f32::INFINITY, &view)
            .neighbors(),
        0
    );

    let ids = entities(3);
    let mut grid = NeighborGrid::default();
    grid.rebuild(
        [
            still(ids[0], Vec2::new(5.0, 50.0)),
            still(ids[1], Vec2::new(95.0, 50.0)),
            still(ids[2], Vec2::new(50.0, 50.0)),
        ],
        70.0,
        Some(Rect::new(0.0, 0.0, 100.0, 100.0)),
    );
    // From (5, 50): (95, 50) is 10 px away across the edge, (50, 50) 45 px;
    // the agent itself does not count.
    assert_eq!(
        grid.flock_sums(Vec2::new(5.0, 50.0), 70.0, &view)
            .neighbors(),
        2
    );
}
