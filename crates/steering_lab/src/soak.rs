//! A long run with agents coming and going: memory must stay bounded and
//! every value finite, whatever the run's length.

use std::time::Instant;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::bench::{BENCH_HZ, flock_world_side, positions_hash};
use crate::experiments::add_circling_target;
use crate::scenario::{headless_app_with_threads, run_steps};

/// What a soak run is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Soak {
    /// How many agents live at any time.
    pub agents: usize,
    /// Simulated seconds to run.
    pub seconds: f64,
    /// The share of the agents replaced each simulated second: each step,
    /// that many (on average) are despawned and as many spawned again.
    pub churn_per_second: f64,
    /// The seed of the placements, the choice of who goes, and every wander.
    pub seed: u64,
    /// Threads in Bevy's compute pool (one a core if `None`).
    pub threads: Option<usize>,
}

impl Default for Soak {
    fn default() -> Self {
        Self {
            agents: 1_000,
            seconds: 60.0,
            churn_per_second: 0.1,
            seed: 1,
            threads: None,
        }
    }
}

/// What a soak run saw. Memory is what the neighbor grid's and the trails'
/// buffers hold on to (capacity, in bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct SoakReport {
    /// Fixed steps run.
    pub steps: u64,
    /// Agents spawned after the first ones, and despawned.
    pub spawned: u64,
    /// Agents despawned.
    pub despawned: u64,
    /// The grid's largest memory, and at the end.
    pub peak_grid_bytes: usize,
    /// The grid's memory at the end.
    pub final_grid_bytes: usize,
    /// The trails' largest memory.
    pub peak_trail_bytes: usize,
    /// The trails' memory at the end.
    pub final_trail_bytes: usize,
    /// The largest memory (grid and trails) in the first half of the run.
    pub first_half_peak_bytes: usize,
    /// The largest memory in the second half.
    pub second_half_peak_bytes: usize,
    /// Values found not finite (positions, velocities, headings, transforms,
    /// trail points), summed over every check (four a simulated second).
    pub nonfinite: u64,
    /// A hash of every position at the end: the same seed gives the same
    /// hash on any number of threads.
    pub positions_hash: u64,
    /// Wall time per agent per step, in nanoseconds.
    pub ns_per_agent_step: f64,
}

impl SoakReport {
    /// Whether memory grew: the second half's peak more than 1.5 times the
    /// first half's (a bounded run reaches its peak early and stays; trails
    /// fill in their first 1.5 s, so runs of a few seconds say little).
    pub fn memory_grew(&self) -> bool {
        self.second_half_peak_bytes as f64 > 1.5 * self.first_half_peak_bytes as f64
    }

    /// Whether the run passed: memory bounded and every value finite.
    pub fn passed(&self) -> bool {
        !self.memory_grew() && self.nonfinite == 0
    }
}

/// Marks the soak's agents, to pick who goes.
#[derive(Component)]
struct Soaker;

impl Soak {
    /// Runs the soak: the Critters mix, flocking and with trails, in a
    /// wrapping square where each agent has about 30 neighbors, around the
    /// circling target. Every agent is spawned at the world's middle, on
    /// one spot, as games spawn units, and each step a random few are
    /// despawned and as many spawned there again.
    pub fn run(&self) -> SoakReport {
        let side = flock_world_side(self.agents.max(1));
        let settings = SteeringSettings {
            wrap: Some(Rect::new(0.0, 0.0, side, side)),
            ..default()
        };
        let mut app = headless_app_with_threads(BENCH_HZ, self.seed, settings, self.threads);
        let target = SteeringTarget::Entity(add_circling_target(&mut app));
        let spawn_point = Vec2::splat(side / 2.0);
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(self.seed);
        let mut kind = 0usize;
        let mut spawn = |world: &mut World, count: usize| {
            let batch: Vec<_> = (0..count)
                .map(|_| {
                    kind += 1;
                    let behavior = match kind % 5 {
                        0 => SteeringBehavior::Seek(target),
                        1 => SteeringBehavior::Arrive(target),
                        2 => SteeringBehavior::Pursue(target),
                        3 => SteeringBehavior::Wander,
                        _ => SteeringBehavior::Graze(target),
                    };
                    (
                        Soaker,
                        Flocking::default(),
                        behavior,
                        AgentPosition(spawn_point),
                        AgentTrail::default(),
                    )
                })
                .collect();
            world.spawn_batch(batch);
        };
        spawn(app.world_mut(), self.agents);

        let steps = (self.seconds * BENCH_HZ).round() as u64;
        let per_step = self.churn_per_second.max(0.0) * self.agents as f64 / BENCH_HZ;
        let mut owed = 0.0;
        let mut report = SoakReport {
            steps,
            spawned: 0,
            despawned: 0,
            peak_grid_bytes: 0,
            final_grid_bytes: 0,
            peak_trail_bytes: 0,
            final_trail_bytes: 0,
            first_half_peak_bytes: 0,
            second_half_peak_bytes: 0,
            nonfinite: 0,
            positions_hash: 0,
            ns_per_agent_step: 0.0,
        };
        let mut soakers = Vec::new();
        let start = Instant::now();
        for step in 1..=steps {
            // Who goes: a few at random, replaced at the spawn point.
            owed += per_step;
            let replace = owed.floor() as usize;
            owed -= replace as f64;
            if replace > 0 {
                let world = app.world_mut();
                soakers.clear();
                soakers.extend(world.query_filtered::<Entity, With<Soaker>>().iter(world));
                for _ in 0..replace.min(soakers.len()) {
                    let victim = soakers.swap_remove(rng.random_range(0..soakers.len()));
                    world.despawn(victim);
                }
                spawn(world, replace);
                report.spawned += replace as u64;
                report.despawned += replace as u64;
            }
            run_steps(&mut app, 1, |_| {});
            // Four checks a simulated second.
            if step % (BENCH_HZ as u64 / 4) == 0 || step == steps {
                let (grid, trails, nonfinite) = measure(app.world_mut());
                report.nonfinite += nonfinite;
                report.peak_grid_bytes = report.peak_grid_bytes.max(grid);
                report.peak_trail_bytes = report.peak_trail_bytes.max(trails);
                report.final_grid_bytes = grid;
                report.final_trail_bytes = trails;
                if step * 2 <= steps {
                    report.first_half_peak_bytes = report.first_half_peak_bytes.max(grid + trails);
                } else {
                    report.second_half_peak_bytes =
                        report.second_half_peak_bytes.max(grid + trails);
                }
            }
        }
        report.ns_per_agent_step =
            crate::bench::per_agent_step(start.elapsed(), self.agents, steps);
        report.positions_hash = positions_hash(&mut app);
        report
    }
}

/// The grid's and the trails' memory, and how many values are not finite.
fn measure(world: &mut World) -> (usize, usize, u64) {
    let grid = world.resource::<NeighborGrid>().memory_bytes();
    let mut trail_bytes = 0;
    let mut nonfinite = 0u64;
    let mut agents = world.query::<(
        &AgentPosition,
        &AgentVelocity,
        &AgentHeading,
        &Transform,
        Option<&AgentTrail>,
    )>();
    for (pos, vel, heading, transform, trail) in agents.iter(world) {
        nonfinite += [
            pos.is_finite(),
            vel.is_finite(),
            heading.is_finite(),
            transform.is_finite(),
        ]
        .iter()
        .filter(|ok| !**ok)
        .count() as u64;
        if let Some(trail) = trail {
            trail_bytes += trail.points.capacity() * std::mem::size_of::<Vec2>();
            nonfinite += trail.points.iter().filter(|p| !p.is_finite()).count() as u64;
        }
    }
    (grid, trail_bytes, nonfinite)
}
