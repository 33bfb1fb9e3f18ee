//! The crowd lab: `steering-lab crowd`. Each [scene](scenes) runs through
//! the real plugin's [`AvoidAgents`](bevy_reynolds::AvoidAgents) (or, to
//! compare, separation alone, as a crowd had it before), and through ORCA
//! (`dodgy_2d`, the RVO2 port bevy_landmass uses) with RVO2's habits, and
//! is measured the same way: who arrived, how often and how deep bodies
//! overlapped, and the time and path against the straight line. Where a
//! door passed both ways takes turns (a game's rule, not the crowd's:
//! the plugin's [`TakeTurns`](bevy_reynolds::TakeTurns)), it gives the plugin's crowd right of way.

mod bound;
mod orca;
mod plugin;
pub mod scenes;

use std::time::Instant;

use bevy::math::Vec2;
use bevy_reynolds::reynolds::math::closest_on_segment;
use bevy_reynolds::reynolds::spatial::{GridAgent, NeighborGrid};
use serde_json::json;

pub use bound::{BestOrder, RunBound, door_bound, door_by_patience, door_in_bursts, run_bound};
pub use plugin::{PERSON_LOOK_AHEAD, PERSON_MAX_FORCE, PERSON_RESPONSE_TIME, person};
pub use scenes::{CrowdScene, Door, MAX_JITTER, NAMES, Walker, scene};

/// How a scene's people avoid each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The plugin's [`AvoidAgents`](bevy_reynolds::AvoidAgents), with
    /// `Arrive` and the level's walls.
    Avoid,
    /// The plugin with `Arrive`, walls and `Flocking::separation_only()`:
    /// what a crowd had before `AvoidAgents`.
    Separation,
    /// ORCA, by `dodgy_2d`.
    Orca,
    /// The plugin with `Arrive` and walls, and nothing to keep people
    /// apart: what avoiding adds to a step is `Avoid`'s step less this one.
    Nothing,
    /// [`AvoidAgents`](bevy_reynolds::AvoidAgents), each person sent to
    /// their goal with the plugin's own
    /// [`Navigate`](bevy_reynolds::Navigate) instead of the scene's routes,
    /// as a game would.
    Navigate,
}

impl Method {
    /// Every method, by its name on the command line.
    pub const ALL: [(Method, &'static str); 5] = [
        (Method::Avoid, "avoid"),
        (Method::Separation, "separation"),
        (Method::Orca, "orca"),
        (Method::Nothing, "none"),
        (Method::Navigate, "navigate"),
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("?", |(_, n)| n)
    }

    /// The method called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(m, _)| *m)
    }
}

/// Bodies closer than their radii by more than this overlap, in metres.
pub const OVERLAP: f32 = 0.01;
/// A person is there when their centre is this close to their goal.
pub const ARRIVED: f32 = 0.5;

/// What a run of a scene measured.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdReport {
    /// The scene.
    pub scene: &'static str,
    /// The method.
    pub method: Method,
    /// Steps a second.
    pub hz: f64,
    /// People in it.
    pub agents: usize,
    /// How many reached their goal.
    pub reached: usize,
    /// Pairs of bodies overlapping by more than [`OVERLAP`], summed over
    /// the steps.
    pub collisions: u64,
    /// Pairs that overlapped so at least once.
    pub colliding_pairs: usize,
    /// The deepest overlap of two bodies, in metres.
    pub deepest_overlap: f32,
    /// Bodies into a wall by more than [`OVERLAP`], summed over the steps.
    pub wall_hits: u64,
    /// The deepest a body went into a wall, in metres.
    pub deepest_wall: f32,
    /// The median and the largest of each arrived person's time over their
    /// straight-line time.
    pub time_ratio: (f32, f32),
    /// How many arrived within three times their straight-line time (the
    /// two-way door's bar).
    pub within_3x: usize,
    /// Of those whose way goes through a door and who did not arrive within
    /// three times: how many went through it too late (or never) to make it
    /// walking straight on at their speed (the door's order and pace lost
    /// them), and how many went through in time and were held up after it.
    /// Where the time goes in a door's scene.
    pub late_through_door: (usize, usize),
    /// When the last arrived, in seconds, if everyone did: with a long
    /// `--seconds`, how long the scene takes whatever its own run.
    pub all_arrived_at: Option<f32>,
    /// The median of each arrived person's path length over the straight
    /// line's.
    pub path_ratio: f32,
    /// The median wall time of a step, in milliseconds.
    pub ms_per_step: f64,
    /// Any position that was not finite.
    pub non_finite: usize,
    /// A hash of everyone's last position, to the bit: the same run gives
    /// the same hash, whatever the thread count.
    pub positions_hash: u64,
}

/// FNV-1a over the positions' bits, in order.
fn positions_hash(positions: &[Vec2]) -> u64 {
    positions
        .iter()
        .flat_map(|p| [p.x.to_bits(), p.y.to_bits()])
        .fold(0xcbf2_9ce4_8422_2325, |h, bits| {
            (h ^ u64::from(bits)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

impl CrowdReport {
    /// As one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "scene": self.scene,
            "method": self.method.name(),
            "hz": self.hz,
            "agents": self.agents,
            "reached": self.reached,
            "collisions": self.collisions,
            "colliding_pairs": self.colliding_pairs,
            "deepest_overlap_m": round(self.deepest_overlap),
            "wall_hits": self.wall_hits,
            "deepest_wall_m": round(self.deepest_wall),
            "time_ratio_median": round(self.time_ratio.0),
            "time_ratio_max": round(self.time_ratio.1),
            "within_3x": self.within_3x,
            "late_at_door": self.late_through_door.0,
            "late_after_door": self.late_through_door.1,
            "all_arrived_s": self.all_arrived_at.map(|t| (f64::from(t) * 10.0).round() / 10.0),
            "path_ratio_median": round(self.path_ratio),
            "ms_per_step": (self.ms_per_step * 1000.0).round() / 1000.0,
            "non_finite": self.non_finite,
            "positions_hash": format!("{:016x}", self.positions_hash),
        })
    }
}

fn round(x: f32) -> f64 {
    (f64::from(x) * 1000.0).round() / 1000.0
}

/// Runs `scene` by `method` at `hz` steps a second, on `threads` of
/// Bevy's compute pool (the plugin's methods).
pub fn run(scene: &CrowdScene, method: Method, hz: f64, threads: Option<usize>) -> CrowdReport {
    run_traced(scene, method, hz, threads, |_, _| {})
}

/// [`run`], showing `trace` everyone's position after each step (the
/// step's number from 1, and the positions in the scene's order).
pub fn run_traced(
    scene: &CrowdScene,
    method: Method,
    hz: f64,
    threads: Option<usize>,
    mut trace: impl FnMut(u64, &[Vec2]),
) -> CrowdReport {
    let mut tally = Tally::new(scene);
    let dt = 1.0 / hz as f32;
    let steps = (f64::from(scene.seconds()) * hz).ceil() as u64;
    let mut step_times = Vec::with_capacity(steps as usize);
    let mut stepper: Box<dyn FnMut(&mut Vec<Vec2>)> = match method {
        Method::Avoid | Method::Separation | Method::Nothing | Method::Navigate => {
            Box::new(plugin::stepper(scene, method, hz, threads))
        }
        Method::Orca => Box::new(orca::stepper(scene, dt)),
    };
    let mut positions = scene.walkers.iter().map(|w| w.start).collect::<Vec<_>>();
    for step in 1..=steps {
        let start = Instant::now();
        stepper(&mut positions);
        step_times.push(start.elapsed().as_secs_f64() * 1e3);
        tally.record(scene, step as f32 * dt, &positions);
        trace(step, &positions);
        if tally.all_arrived() {
            break;
        }
    }
    step_times.sort_by(f64::total_cmp);
    let mut report = tally.report(scene, method, hz, step_times[step_times.len() / 2]);
    report.positions_hash = positions_hash(&positions);
    report
}

/// What is counted as a scene runs.
struct Tally {
    radii: Vec<f32>,
    goals: Vec<Vec2>,
    walls: Vec<(Vec2, Vec2)>,
    last: Vec<Vec2>,
    path: Vec<f32>,
    arrived: Vec<Option<f32>>,
    /// When and where each first had their centre past their door's wall.
    through: Vec<Option<(f32, Vec2)>>,
    grid: NeighborGrid<u32>,
    collisions: u64,
    pairs: std::collections::HashSet<(u32, u32)>,
    deepest: f32,
    wall_hits: u64,
    deepest_wall: f32,
    non_finite: usize,
}

impl Tally {
    fn new(scene: &CrowdScene) -> Self {
        Self {
            radii: scene.walkers.iter().map(|w| w.radius).collect(),
            goals: scene.walkers.iter().map(|w| w.goal).collect(),
            walls: scene.walls.clone(),
            last: scene.walkers.iter().map(|w| w.start).collect(),
            path: vec![0.0; scene.walkers.len()],
            arrived: vec![None; scene.walkers.len()],
            through: vec![None; scene.walkers.len()],
            grid: NeighborGrid::default(),
            collisions: 0,
            pairs: Default::default(),
            deepest: 0.0,
            wall_hits: 0,
            deepest_wall: 0.0,
            non_finite: 0,
        }
    }

    fn all_arrived(&self) -> bool {
        self.arrived.iter().all(Option::is_some)
    }

    fn record(&mut self, scene: &CrowdScene, time: f32, positions: &[Vec2]) {
        for (i, &p) in positions.iter().enumerate() {
            if !p.is_finite() {
                self.non_finite += 1;
                continue;
            }
            let walker = &scene.walkers[i];
            if self.through[i].is_none()
                && walker
                    .via
                    .is_some_and(|door| door.past(walker.start, p) > 0.0)
            {
                self.through[i] = Some((time, p));
            }
            self.path[i] += p.distance(self.last[i]);
            self.last[i] = p;
            if self.arrived[i].is_none() && p.distance(self.goals[i]) <= ARRIVED {
                self.arrived[i] = Some(time);
            }
            for &(a, b) in &self.walls {
                let depth = self.radii[i] - p.distance(closest_on_segment(p, a, b));
                if depth > OVERLAP {
                    self.wall_hits += 1;
                }
                self.deepest_wall = self.deepest_wall.max(depth);
            }
        }
        let largest = self.radii.iter().copied().fold(0.0, f32::max);
        let agents = positions
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_finite())
            .map(|(i, &p)| GridAgent {
                id: i as u32,
                position: p,
                velocity: Vec2::ZERO,
                radius: self.radii[i],
            });
        self.grid.rebuild(agents, (2.0 * largest).max(0.1), None);
        for (i, &p) in positions.iter().enumerate() {
            if !p.is_finite() {
                continue;
            }
            let grid = &self.grid;
            let (radii, pairs) = (&self.radii, &mut self.pairs);
            let (collisions, deepest) = (&mut self.collisions, &mut self.deepest);
            grid.for_each_within(p, radii[i] + largest, |slot, offset, _| {
                let j = grid.id(slot) as usize;
                if j <= i {
                    return;
                }
                let depth = radii[i] + radii[j] - offset.length();
                *deepest = deepest.max(depth);
                if depth > OVERLAP {
                    *collisions += 1;
                    pairs.insert((i as u32, j as u32));
                }
            });
        }
    }

    fn report(&self, scene: &CrowdScene, method: Method, hz: f64, ms_per_step: f64) -> CrowdReport {
        let (mut times, mut paths, mut times_reached) = (Vec::new(), Vec::new(), 0);
        let (mut within_3x, mut late_through_door) = (0, (0, 0));
        for (i, walker) in scene.walkers.iter().enumerate() {
            let deadline = 3.0 * walker.straight_time();
            let too_short = walker.straight_length() < 2.0 * ARRIVED + 1.0;
            let in_time = self.arrived[i].is_some_and(|t| too_short || t <= deadline);
            within_3x += usize::from(in_time);
            if !in_time && walker.via.is_some() {
                // Through too late (or never) even walking straight on.
                let at_door = self.through[i].is_none_or(|(t, at)| {
                    t + (at.distance(walker.goal) - ARRIVED).max(0.0) / walker.speed > deadline
                });
                if at_door {
                    late_through_door.0 += 1;
                } else {
                    late_through_door.1 += 1;
                }
            }
            if let Some(t) = self.arrived[i] {
                times_reached += 1;
                if too_short {
                    // Too short a way for a ratio to mean anything.
                    continue;
                }
                // Against the straight lines to where arriving is counted.
                let straight = (walker.straight_length() - ARRIVED).max(1e-6);
                times.push(t * walker.speed / straight);
                paths.push(self.path[i] / straight);
            }
        }
        times.sort_by(f32::total_cmp);
        paths.sort_by(f32::total_cmp);
        let median = |v: &[f32]| v.get(v.len() / 2).copied().unwrap_or(f32::NAN);
        CrowdReport {
            scene: scene.name,
            method,
            hz,
            agents: scene.walkers.len(),
            reached: times_reached,
            collisions: self.collisions,
            colliding_pairs: self.pairs.len(),
            deepest_overlap: self.deepest.max(0.0),
            wall_hits: self.wall_hits,
            deepest_wall: self.deepest_wall.max(0.0),
            time_ratio: (median(&times), times.last().copied().unwrap_or(f32::NAN)),
            within_3x,
            late_through_door,
            all_arrived_at: self
                .arrived
                .iter()
                .try_fold(0.0, |last: f32, &t| t.map(|t| last.max(t))),
            path_ratio: median(&paths),
            ms_per_step,
            non_finite: self.non_finite,
            positions_hash: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One walking 10 m through a door at the origin (a deadline of three
    /// times 7.7 s), placed by hand at the times given, and what the tally
    /// makes of their lateness: (at the door, after it).
    fn lateness(places: &[(f32, Vec2)]) -> (usize, usize) {
        let door = Door::in_wall_along_y(Vec2::ZERO);
        let scene = CrowdScene {
            name: "door-solo",
            walkers: vec![Walker::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)).via(door)],
            walls: vec![],
            time_limit: None,
            door_turns: None,
        };
        let mut tally = Tally::new(&scene);
        for &(time, at) in places {
            tally.record(&scene, time, &[at]);
        }
        tally
            .report(&scene, Method::Avoid, 60.0, 0.0)
            .late_through_door
    }

    #[test]
    fn the_late_are_told_apart_by_when_they_went_through_the_door() {
        let (before, after, there) = (
            Vec2::new(-0.1, 0.0),
            Vec2::new(0.1, 0.0),
            Vec2::new(5.0, 0.0),
        );
        // In time: not late at all.
        assert_eq!(
            lateness(&[(3.0, before), (4.0, after), (10.0, there)]),
            (0, 0)
        );
        // Through at 20 s, 4.4 m and 3.4 s from arriving: late at the door.
        assert_eq!(lateness(&[(20.0, after), (30.0, there)]), (1, 0));
        // Through at 5 s, in at 30 s: held up after it.
        assert_eq!(lateness(&[(5.0, after), (30.0, there)]), (0, 1));
        // Never through: late at the door.
        assert_eq!(lateness(&[(5.0, before)]), (1, 0));
    }
}
