//! A scene through the real plugin: each person an agent arriving at
//! their goal, the walls the level's, in metres.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults;
use bevy_reynolds::{DEFAULT_SEED, DoorTurn};

use super::{CrowdScene, Door, Method, Walker};
use crate::scenario::{headless_app_with_threads, run_steps};

/// A person: the chapter's agent at a walking speed (its slowing radius
/// and clearances scaled with it, the chapter's 220 px/s being the
/// speed), with the response time Karamouzas, Skinner and Guy measured in
/// people, 0.5 s, a force cap of 10 m/s², and a look-ahead of 2 s. (With
/// the chapter's 0.15 s and its 380 px/s² scaled to 2.2 m/s², arriving
/// outweighs avoiding in the circles: 24 agents overlap by 0.25 m. The
/// level's look-ahead slows an agent to what it can stop from within a
/// quarter of its response time's worth of what it sees free, so it must
/// see about four response times ahead: with the chapter's 0.8 s, one
/// person alone stops in a 2 m door.)
pub fn person(radius: f32, speed: f32) -> SteeringParams {
    SteeringParams {
        radius,
        response_time: PERSON_RESPONSE_TIME,
        max_force: PERSON_MAX_FORCE,
        look_ahead_time: PERSON_LOOK_AHEAD,
        ..SteeringParams::default().scaled(speed / defaults::MAX_SPEED)
    }
}

/// A person's response time, in seconds.
pub const PERSON_RESPONSE_TIME: f32 = 0.5;
/// A person's force cap, in metres a second per second.
pub const PERSON_MAX_FORCE: f32 = 10.0;
/// How far ahead a person looks, in seconds of their speed.
pub const PERSON_LOOK_AHEAD: f32 = 2.0;

/// A step of `scene` by `method` at `hz`: each call runs one fixed step and
/// writes everyone's position.
pub fn stepper(
    scene: &CrowdScene,
    method: Method,
    hz: f64,
    threads: Option<usize>,
) -> impl FnMut(&mut Vec<Vec2>) {
    let settings = SteeringSettings {
        agent: person(super::scenes::RADIUS, super::scenes::SPEED),
        ..default()
    };
    let mut app = headless_app_with_threads(hz, DEFAULT_SEED, settings, threads);
    let world = app.world_mut();
    for &(a, b) in &scene.walls {
        world.spawn((SteeringObstacle::wall(a, b), AgentPosition(Vec2::ZERO)));
    }
    let agents: Vec<Entity> = scene
        .walkers
        .iter()
        .map(|walker| {
            let mut agent = world.spawn((
                person(walker.radius, walker.speed),
                AgentPosition(walker.start),
            ));
            if method == Method::Navigate {
                agent.insert(Navigate::to(walker.goal));
            } else {
                agent.insert(heading_for(walker, walker.start, &mut 0));
            }
            match method {
                Method::Separation => {
                    agent.insert(
                        Flocking::separation_only().scaled(walker.speed / defaults::MAX_SPEED),
                    );
                }
                Method::Nothing => {
                    agent.insert(SteeringAgent);
                }
                _ => {
                    agent.insert(AvoidAgents {
                        right_of_way: walker.right_of_way,
                        ..default()
                    });
                }
            }
            agent.id()
        })
        .collect();
    // The door passed both ways takes turns, given to the plugin's crowd
    // (ORCA has no right of way, and passes it as it would any door).
    let door = scene
        .door_turns
        .filter(|_| matches!(method, Method::Avoid | Method::Navigate))
        .and_then(|run| {
            let door = scene
                .walkers
                .iter()
                .find_map(|w| w.via.filter(|d| d.two_way))?;
            let [a, b] = door.line.posts();
            let turns = TakeTurns {
                run: run as u32,
                ..TakeTurns::between(a, b)
            };
            Some(world.spawn((turns, AgentPosition(Vec2::ZERO))).id())
        });
    let walkers = scene.walkers.clone();
    let mut stages = vec![0; walkers.len()];
    let mut had_way = vec![false; walkers.len()];
    let mut has_way = vec![false; walkers.len()];
    move |positions: &mut Vec<Vec2>| {
        run_steps(&mut app, 1, |_| {});
        let world = app.world_mut();
        for (p, &agent) in positions.iter_mut().zip(&agents) {
            *p = world.get::<AgentPosition>(agent).map_or(Vec2::NAN, |p| p.0);
        }
        if let Some(turns) = door.and_then(|door| world.get::<DoorTurn>(door)) {
            for (has, &agent) in has_way.iter_mut().zip(&agents) {
                *has = turns.has_way(agent);
            }
        }
        if method == Method::Navigate {
            // Each follows their own route.
            return;
        }
        for (i, (&at, &agent)) in positions.iter().zip(&agents).enumerate() {
            let mut walker = walkers[i];
            // Those the door lets through may use all of it.
            if has_way[i] {
                walker.via = walker.via.map(|door| Door {
                    two_way: false,
                    ..door
                });
            }
            let changed = had_way[i] != has_way[i];
            had_way[i] = has_way[i];
            let stage = stages[i];
            let behavior = heading_for(&walker, at, &mut stages[i]);
            if stages[i] != stage || changed {
                world.entity_mut(agent).insert(behavior);
            }
        }
    }
}

/// Seeking the points on the way, at full speed, then arriving at the goal.
fn heading_for(walker: &Walker, at: Vec2, stage: &mut u8) -> SteeringBehavior {
    let aim = walker.aim(at, stage);
    if aim == walker.goal {
        SteeringBehavior::Arrive(SteeringTarget::Point(aim))
    } else {
        SteeringBehavior::Seek(SteeringTarget::Point(aim))
    }
}
