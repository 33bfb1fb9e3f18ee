//! A scene through the real plugin: each person an agent arriving at
//! their goal, the walls the level's, in metres.

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::defaults;
use bevy_reynolds::{DEFAULT_SEED, Position};

use super::{CrowdScene, Method};
use crate::scenario::{headless_app_with_threads, run_steps};

/// A person: the chapter's agent at a walking speed (its slowing radius
/// and clearances scaled with it, the chapter's 220 px/s being the
/// speed), with the response time Karamouzas, Skinner and Guy measured in
/// people, 0.5 s, and a force cap of 10 m/s². (With the chapter's 0.15 s
/// and its 380 px/s² scaled to 2.2 m/s², arriving outweighs avoiding in
/// the circles: 24 agents overlap by 0.25 m.)
pub fn person(radius: f32, speed: f32) -> SteeringParams {
    SteeringParams {
        radius,
        response_time: PERSON_RESPONSE_TIME,
        max_force: PERSON_MAX_FORCE,
        ..SteeringParams::default().scaled(speed / defaults::MAX_SPEED)
    }
}

/// A person's response time, in seconds.
pub const PERSON_RESPONSE_TIME: f32 = 0.5;
/// A person's force cap, in metres a second per second.
pub const PERSON_MAX_FORCE: f32 = 10.0;

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
                Behavior::Arrive(Target::Point(walker.goal)),
                Position(walker.start),
            ));
            match method {
                Method::Separation => agent
                    .insert(Flocking::separation_only().scaled(walker.speed / defaults::MAX_SPEED)),
                _ => agent.insert(AvoidAgents::default()),
            };
            agent.id()
        })
        .collect();
    move |positions: &mut Vec<Vec2>| {
        run_steps(&mut app, 1, |_| {});
        let world = app.world();
        for (p, &agent) in positions.iter_mut().zip(&agents) {
            *p = world.get::<Position>(agent).map_or(Vec2::NAN, |p| p.0);
        }
    }
}
