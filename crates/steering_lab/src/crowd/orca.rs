//! A scene through ORCA, by `dodgy_2d` (the RVO2 port bevy_landmass uses),
//! as RVO2's examples drive it: each person's preferred velocity straight
//! at their goal (shorter within a step of it), nudged by a tiny random
//! amount to break exact symmetries, a top speed of 1.5 times the
//! preferred, the 10 nearest neighbors within 10 body radii, time horizons
//! of 5 s, and the velocity ORCA picks taken at once.

use std::borrow::Cow;

use bevy::math::Vec2;
use bevy_reynolds::reynolds::spatial::{GridAgent, NeighborGrid};
use dodgy_2d as dodgy;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

use super::CrowdScene;

/// RVO2's habits.
const MAX_NEIGHBORS: usize = 10;
const NEIGHBOR_RADII: f32 = 10.0;
const TIME_HORIZON: f32 = 5.0;
const SPEED_HEADROOM: f32 = 1.5;
/// RVO2's examples perturb the preferred velocity by at most this much.
const NUDGE: f32 = 1e-4;

fn to(v: Vec2) -> dodgy::Vec2 {
    dodgy::Vec2::new(v.x, v.y)
}

fn from(v: dodgy::Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// A step of `scene`, `dt` long, for each call.
pub fn stepper(scene: &CrowdScene, dt: f32) -> impl FnMut(&mut Vec<Vec2>) {
    let walkers = scene.walkers.clone();
    let mut agents: Vec<dodgy::Agent> = walkers
        .iter()
        .map(|w| dodgy::Agent {
            position: to(w.start),
            velocity: dodgy::Vec2::ZERO,
            radius: w.radius,
            avoidance_responsibility: 1.0,
        })
        .collect();
    // Each wall a thin closed box, counter-clockwise, so that no one enters.
    let obstacles: Vec<dodgy::Obstacle> = scene
        .walls
        .iter()
        .map(|&(a, b)| {
            let side = (b - a).normalize_or_zero().perp() * 0.05;
            dodgy::Obstacle::Closed {
                vertices: vec![to(a - side), to(b - side), to(b + side), to(a + side)],
            }
        })
        .collect();
    let obstacles: Vec<Cow<dodgy::Obstacle>> = obstacles.into_iter().map(Cow::Owned).collect();
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(1);
    let mut grid = NeighborGrid::<u32>::default();
    let mut velocities = Vec::with_capacity(agents.len());
    let mut near: Vec<(f32, u32)> = Vec::new();
    let mut stages = vec![0; walkers.len()];
    move |positions: &mut Vec<Vec2>| {
        let reach = NEIGHBOR_RADII * walkers.iter().map(|w| w.radius).fold(0.0, f32::max);
        grid.rebuild(
            agents.iter().enumerate().map(|(i, a)| GridAgent {
                id: i as u32,
                position: from(a.position),
                velocity: from(a.velocity),
                radius: a.radius,
            }),
            reach,
            None,
        );
        velocities.clear();
        let mut neighbours: Vec<Cow<dodgy::Agent>> = Vec::with_capacity(MAX_NEIGHBORS);
        for (i, (agent, walker)) in agents.iter().zip(&walkers).enumerate() {
            near.clear();
            grid.for_each_within(from(agent.position), reach, |slot, offset, _| {
                let j = grid.id(slot);
                if j as usize != i {
                    near.push((offset.length_squared(), j));
                }
            });
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            neighbours.clear();
            neighbours.extend(
                near.iter()
                    .take(MAX_NEIGHBORS)
                    .map(|&(_, j)| Cow::Borrowed(&agents[j as usize])),
            );
            let at = from(agent.position);
            let aim = walker.aim(at, &mut stages[i]);
            let to_aim = aim - at;
            let speed = if aim == walker.goal {
                walker.speed.min(to_aim.length() / dt)
            } else {
                walker.speed
            };
            let preferred = to_aim.clamp_length_max(speed)
                + Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
                    * rng.random_range(0.0..NUDGE);
            velocities.push(agent.compute_avoiding_velocity(
                &neighbours,
                &obstacles,
                to(preferred),
                walker.speed * SPEED_HEADROOM,
                dt,
                &dodgy::AvoidanceOptions {
                    obstacle_margin: agent.radius,
                    time_horizon: TIME_HORIZON,
                    obstacle_time_horizon: TIME_HORIZON,
                },
            ));
        }
        for ((agent, &velocity), p) in agents.iter_mut().zip(&velocities).zip(positions.iter_mut())
        {
            agent.velocity = velocity;
            agent.position += velocity * dt;
            *p = from(agent.position);
        }
    }
}
