//! A scene through the real plugin: each person an agent arriving at
//! their goal, the walls the level's, in metres.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults;
use bevy_reynolds::{DEFAULT_SEED, Position};

use super::{CrowdScene, Door, DoorTurns, Method, Walker};
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
        world.spawn((Obstacle::wall(a, b), Position(Vec2::ZERO)));
    }
    let agents: Vec<Entity> = scene
        .walkers
        .iter()
        .map(|walker| {
            let mut agent = world.spawn((
                person(walker.radius, walker.speed),
                heading_for(walker, walker.start, &mut 0),
                Position(walker.start),
            ));
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
    let walkers = scene.walkers.clone();
    let mut stages = vec![0; walkers.len()];
    let mut turns = Turns::new(scene, method);
    move |positions: &mut Vec<Vec2>| {
        run_steps(&mut app, 1, |_| {});
        let world = app.world_mut();
        for (p, &agent) in positions.iter_mut().zip(&agents) {
            *p = world.get::<Position>(agent).map_or(Vec2::NAN, |p| p.0);
        }
        if let Some(turns) = &mut turns {
            turns.step(&walkers, positions);
        }
        for (i, (&at, &agent)) in positions.iter().zip(&agents).enumerate() {
            let mut walker = walkers[i];
            let changed = turns.as_ref().is_some_and(|t| t.changed(i));
            if let Some(turns) = &turns {
                if changed {
                    let way = walker.right_of_way.saturating_add(turns.has_way(i).into());
                    if let Some(mut avoid) = world.get_mut::<AvoidAgents>(agent) {
                        avoid.right_of_way = way;
                    }
                }
                // Those the door lets through may use all of it.
                if turns.has_way(i) {
                    walker.via = walker.via.map(|door| Door {
                        two_way: false,
                        ..door
                    });
                }
            }
            let stage = stages[i];
            let behavior = heading_for(&walker, at, &mut stages[i]);
            if stages[i] != stage || changed {
                world.entity_mut(agent).insert(behavior);
            }
        }
    }
}

/// A door taking turns ([`DoorTurns`]) and whom it gives right of way.
struct Turns {
    door: DoorTurns,
    sides: Vec<f32>,
    past: Vec<f32>,
    right_of_way: Vec<bool>,
    before: Vec<bool>,
}

impl Turns {
    /// For `scene`'s door passed both ways, if it takes turns and `method`
    /// has right of way.
    fn new(scene: &CrowdScene, method: Method) -> Option<Self> {
        let run = scene.door_turns.filter(|_| method == Method::Avoid)?;
        let people = scene.walkers.len();
        let sides = scene
            .walkers
            .iter()
            .map(|walker| match walker.via {
                Some(door) if door.two_way => door.way_from(walker.start),
                _ => 0.0,
            })
            .collect();
        Some(Self {
            door: DoorTurns::new(run, people),
            sides,
            past: vec![0.0; people],
            right_of_way: vec![false; people],
            before: vec![false; people],
        })
    }

    /// A step of the door, with everyone `at` their places.
    fn step(&mut self, walkers: &[Walker], at: &[Vec2]) {
        for ((past, walker), &at) in self.past.iter_mut().zip(walkers).zip(at) {
            *past = walker.via.map_or(0.0, |door| door.past(walker.start, at));
        }
        self.before.clone_from(&self.right_of_way);
        self.door
            .step(&self.sides, &self.past, &mut self.right_of_way);
    }

    /// Whether person `i` has the door's right of way.
    fn has_way(&self, i: usize) -> bool {
        self.right_of_way[i]
    }

    /// Whether person `i`'s right of way changed in the last step.
    fn changed(&self, i: usize) -> bool {
        self.before[i] != self.right_of_way[i]
    }
}

/// Seeking the points on the way, at full speed, then arriving at the goal.
fn heading_for(walker: &Walker, at: Vec2, stage: &mut u8) -> Behavior {
    let aim = walker.aim(at, stage);
    if aim == walker.goal {
        Behavior::Arrive(Target::Point(aim))
    } else {
        Behavior::Seek(Target::Point(aim))
    }
}
