//! Move orders: a crowd of units (radius 6, avoiding each other) standing
//! among rocks or in the office level, all sent with one order, as a
//! strategy game's click sends them. Measured: the steps until each wants
//! to move (its desired velocity at least half its top speed, within 90°
//! of the way its route starts) and until each has its route; what the
//! steps cost before and after the order; and how long the way each goes
//! is against the shortest route from where it stood.

use std::time::Duration;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::navigate::{Ground as OpenGround, Solid, WalkableArea};
use rand::rngs::Xoshiro128PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::bench::positions_hash;
use crate::levels::office;
use crate::routes::paced_step;
use crate::scenario::{Level, headless_app_with_threads};

/// The units' radius, as the strategy game has them.
pub const UNIT_RADIUS: f32 = 6.0;
/// The grid the units stand on before the order.
const SPACING: f32 = 15.0;
/// Steps after the order in which each unit's wish to move is looked at.
const WATCHED: usize = 12;

/// Where the units are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goals {
    /// All to one point.
    One,
    /// Ten groups, each to a point of its own.
    Ten,
    /// Each to a point of its own.
    Each,
}

impl Goals {
    /// The goals called `name` (`one`, `ten`, `each`), if any.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "one" => Some(Self::One),
            "ten" => Some(Self::Ten),
            "each" => Some(Self::Each),
            _ => None,
        }
    }
}

impl Ground {
    /// The ground called `name` (`rocks`, `office`), if any.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "rocks" => Some(Self::Rocks),
            "office" => Some(Self::Office),
            _ => None,
        }
    }
}

/// What they stand in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    /// 30 rocks (radius 20 to 50) between the units and the goal.
    Rocks,
    /// The office level: rooms and doors (1,200 × 800 px, so at most
    /// about 1,500 units).
    Office,
}

/// One run's figures. Steps are counted from the order (the first step
/// after it is step 1).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveOrderReport {
    /// Units sent.
    pub units: usize,
    /// The step by which each wanted to move: median and last (`None`:
    /// some had not within the steps watched).
    pub moving: (usize, Option<usize>),
    /// Units that did not want to move in the steps watched.
    pub not_moving: usize,
    /// The step at which each took its route: median and last (`None`:
    /// some had none by the run's end).
    pub routed: (usize, Option<usize>),
    /// A step's wall time before the order, median and worst, ms (paced
    /// as a game at 60 frames a second).
    pub before_ms: (f64, f64),
    /// The same for the steps from the order until every unit had its route.
    pub after_ms: (f64, f64),
    /// The way each went (walked until its route came, then the route)
    /// over the shortest route from where it stood: median and largest.
    pub length_ratio: (f32, f32),
    /// The units' positions at the end, hashed.
    pub positions_hash: u64,
}

impl MoveOrderReport {
    /// Its figures as the lab's one JSON line.
    pub fn to_json(&self) -> Value {
        json!({
            "units": self.units,
            "moving_step_median": self.moving.0,
            "moving_step_last": self.moving.1,
            "not_moving": self.not_moving,
            "routed_step_median": self.routed.0,
            "routed_step_last": self.routed.1,
            "step_ms_before_median": self.before_ms.0,
            "step_ms_before_worst": self.before_ms.1,
            "step_ms_after_median": self.after_ms.0,
            "step_ms_after_worst": self.after_ms.1,
            "worst_after_over_median_before": self.after_ms.1 / self.before_ms.0,
            "way_over_shortest_median": self.length_ratio.0,
            "way_over_shortest_max": self.length_ratio.1,
            "positions_hash": format!("{:016x}", self.positions_hash),
        })
    }
}

/// The rocks, walls and unit places of a ground for `units` units.
fn layout(ground: Ground, units: usize, rng: &mut Xoshiro128PlusPlus) -> (Level, Vec<Vec2>, Vec2) {
    match ground {
        Ground::Rocks => {
            let side = (units as f32).sqrt().ceil() * SPACING;
            let field = Vec2::new(side + 1600.0, side + 1200.0);
            let mut level = Level::default();
            while level.circles.len() < 30 {
                let at = Vec2::new(rng.random::<f32>() * field.x, rng.random::<f32>() * field.y);
                let radius = 20.0 + 30.0 * rng.random::<f32>();
                // Not on the block the units stand in, nor on the goal.
                let clear = at.x > side + 150.0 + radius || at.y > side + 150.0 + radius;
                if clear && at.distance(field - 100.0) > radius + 200.0 {
                    level.circles.push((at, radius));
                }
            }
            let places = (0..units)
                .map(|i| {
                    let per_row = (units as f32).sqrt().ceil() as usize;
                    Vec2::new(
                        100.0 + (i % per_row) as f32 * SPACING,
                        100.0 + (i / per_row) as f32 * SPACING,
                    )
                })
                .collect();
            (level, places, field - 100.0)
        }
        Ground::Office => {
            let named = office();
            let places = (0..)
                .map(|i| {
                    let per_row = (1200.0 / SPACING) as usize;
                    Vec2::new(
                        SPACING * (0.5 + (i % per_row) as f32),
                        SPACING * (0.5 + (i / per_row) as f32),
                    )
                })
                .take_while(|p| p.y < 800.0)
                .filter(|p| named.level.clearance(*p, UNIT_RADIUS) > 2.0)
                // Not in the goal's room.
                .filter(|p| !(p.x > 800.0 && p.y > 460.0))
                .take(units)
                .collect();
            (named.level, places, named.goal)
        }
    }
}

/// The level's solids for a route of its own to compare with.
fn solids(level: &Level) -> Vec<Solid> {
    let circles = level.circles.iter().map(|(center, radius)| Solid::Circle {
        center: *center,
        radius: *radius,
    });
    let walls = level
        .walls
        .iter()
        .map(|(a, b)| Solid::Wall { a: *a, b: *b });
    circles.chain(walls).collect()
}

/// `units` units standing on `ground`, sent by one order to `goals`, at
/// `hz` steps a second on `threads` threads. The units stand a second
/// before the order; the run goes on until every one has its route and
/// half a second more, or 30 s. With `sent_before`, each is sent to where
/// it stands as it is spawned (as units a game sent before), so that the
/// ground is made before the order; else the order makes it.
pub fn move_order(
    units: usize,
    goals: Goals,
    ground: Ground,
    hz: f64,
    threads: Option<usize>,
    seed: u64,
    sent_before: bool,
) -> MoveOrderReport {
    let mut rng = Xoshiro128PlusPlus::seed_from_u64(seed);
    let (level, places, goal) = layout(ground, units, &mut rng);
    let units = places.len();
    let mut app = headless_app_with_threads(hz, seed, SteeringSettings::default(), threads);
    let params = SteeringParams {
        radius: UNIT_RADIUS,
        ..default()
    };
    let world = app.world_mut();
    for (center, radius) in &level.circles {
        world.spawn((SteeringObstacle::circle(*radius), AgentPosition(*center)));
    }
    for (a, b) in &level.walls {
        world.spawn(SteeringObstacle::wall(*a, *b));
    }
    let agents: Vec<Entity> = places
        .iter()
        .map(|p| {
            world
                .spawn((
                    SteeringAgent,
                    AvoidAgents::default(),
                    AgentPosition(*p),
                    params,
                    DesiredVelocity::default(),
                ))
                .id()
        })
        .collect();
    if sent_before {
        for (agent, p) in agents.iter().zip(&places) {
            world.entity_mut(*agent).insert(Navigate::to(*p));
        }
    }
    // Where each is sent: free places, a body and more from anything.
    let free = |p: Vec2| level.clearance(p, UNIT_RADIUS) > 4.0;
    let field = goal + 100.0;
    let random_free = |rng: &mut Xoshiro128PlusPlus| loop {
        let p = Vec2::new(rng.random::<f32>() * field.x, rng.random::<f32>() * field.y);
        if free(p) {
            return p;
        }
    };
    let targets: Vec<Vec2> = match goals {
        Goals::One => vec![goal; units],
        Goals::Ten => {
            let ten: Vec<Vec2> = (0..10).map(|_| random_free(&mut rng)).collect();
            (0..units).map(|i| ten[i * 10 / units.max(1)]).collect()
        }
        Goals::Each => (0..units).map(|_| random_free(&mut rng)).collect(),
    };

    let mut before: Vec<Duration> = (0..hz as usize).map(|_| paced_step(&mut app)).collect();
    let ordered_at: Vec<Vec2> = agents
        .iter()
        .map(|a| {
            app.world()
                .get::<AgentPosition>(*a)
                .map_or(Vec2::ZERO, |p| p.0)
        })
        .collect();
    for (agent, target) in agents.iter().zip(&targets) {
        app.world_mut()
            .entity_mut(*agent)
            .insert(Navigate::to(*target));
    }

    // Each unit's wish in the steps watched, and its route as it came.
    let mut wishes = vec![[Vec2::ZERO; WATCHED]; units];
    let mut routed: Vec<Option<(usize, Vec2, f32)>> = vec![None; units];
    let mut walked = vec![0.0f32; units];
    let mut last = ordered_at.clone();
    let mut after = Vec::new();
    let most = (30.0 * hz) as usize;
    let mut tail = (0.5 * hz) as usize;
    for step in 1..=most {
        after.push(paced_step(&mut app));
        let world = app.world();
        for (k, agent) in agents.iter().enumerate() {
            let pos = world.get::<AgentPosition>(*agent).map_or(last[k], |p| p.0);
            if step <= WATCHED {
                wishes[k][step - 1] = world
                    .get::<DesiredVelocity>(*agent)
                    .map_or(Vec2::ZERO, |d| d.0);
            }
            if routed[k].is_none() {
                walked[k] += pos.distance(last[k]);
                let status = world.get::<NavigationStatus>(*agent);
                if status.is_some_and(|s| *s != NavigationStatus::Planning)
                    && let Some(route) = world.get::<NavigationRoute>(*agent)
                    && route.points.len() >= 2
                {
                    let way = (route.points[1] - route.points[0]).normalize_or_zero();
                    routed[k] = Some((step, way, route.remaining(route.points[0])));
                }
            }
            last[k] = pos;
        }
        if routed.iter().all(Option::is_some) {
            if tail == 0 {
                break;
            }
            tail -= 1;
        }
    }
    let all_routed_at = routed
        .iter()
        .filter_map(|r| r.map(|r| r.0))
        .max()
        .unwrap_or(after.len());

    // The step by which each wanted to move along its route.
    let top = params.max_speed;
    let moving: Vec<Option<usize>> = wishes
        .iter()
        .zip(&routed)
        .map(|(wish, route)| {
            let way = route.map_or(Vec2::ZERO, |r| r.1);
            wish.iter()
                .position(|d| d.length() >= 0.5 * top && d.dot(way) >= 0.0)
                .map(|i| i + 1)
        })
        .collect();

    let area = WalkableArea::new(
        &solids(&level),
        OpenGround::Open {
            around: &[Vec2::ZERO, field],
        },
        UNIT_RADIUS * 1.25,
    );
    let mut ratios: Vec<f32> = (0..units)
        .filter_map(|k| {
            let (_, _, route) = routed[k]?;
            let shortest = area.route(ordered_at[k], targets[k])?.length;
            (shortest > 1.0).then(|| (walked[k] + route) / shortest)
        })
        .collect();
    ratios.sort_by(f32::total_cmp);

    let mut after = after[..all_routed_at.min(after.len())].to_vec();
    MoveOrderReport {
        units,
        moving: median_last(&moving),
        not_moving: moving.iter().filter(|m| m.is_none()).count(),
        routed: median_last(&routed.iter().map(|r| r.map(|r| r.0)).collect::<Vec<_>>()),
        before_ms: median_worst(&mut before),
        after_ms: median_worst(&mut after),
        length_ratio: (
            ratios.get(ratios.len() / 2).copied().unwrap_or(f32::NAN),
            ratios.last().copied().unwrap_or(f32::NAN),
        ),
        positions_hash: positions_hash(&mut app),
    }
}

/// The median and the last of some steps (`None` for the last if any is
/// missing).
fn median_last(steps: &[Option<usize>]) -> (usize, Option<usize>) {
    let mut known: Vec<usize> = steps.iter().flatten().copied().collect();
    known.sort_unstable();
    let median = known.get(steps.len() / 2).copied().unwrap_or(usize::MAX);
    let last = (known.len() == steps.len())
        .then(|| known.last().copied())
        .flatten();
    (median, last)
}

/// The median and worst of some step times, in ms.
fn median_worst(times: &mut [Duration]) -> (f64, f64) {
    times.sort_unstable();
    let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1e3);
    (ms(times.get(times.len() / 2)), ms(times.last()))
}

/// The runs `steering-lab move-order` makes: every count of units on
/// every ground, to every goal set, at every rate.
#[derive(Debug, Clone)]
pub struct MoveOrderRuns {
    /// Units sent.
    pub units: Vec<usize>,
    /// The goal sets, by name ([`Goals::named`]).
    pub goals: Vec<String>,
    /// The grounds, by name ([`Ground::named`]).
    pub ground: Vec<String>,
    /// Steps a second.
    pub hz: Vec<f64>,
    /// Threads in Bevy's compute pool.
    pub threads: Option<usize>,
    /// The seed of the rocks and the goals.
    pub seed: u64,
    /// Each unit sent to where it stands first (the ground made before).
    pub sent_before: bool,
}

impl MoveOrderRuns {
    /// Runs them, printing one JSON line each; a name or rate not known is
    /// an error, before any run.
    pub fn print(&self) -> Result<(), String> {
        let goals: Option<Vec<Goals>> = self.goals.iter().map(|g| Goals::named(g)).collect();
        let goals = goals.ok_or(format!(
            "--goals: one, ten or each, not {}",
            self.goals.join(",")
        ))?;
        let grounds: Option<Vec<Ground>> = self.ground.iter().map(|g| Ground::named(g)).collect();
        let grounds = grounds.ok_or(format!(
            "--ground: rocks or office, not {}",
            self.ground.join(",")
        ))?;
        if let Some(bad) = self
            .hz
            .iter()
            .find(|h| !(h.is_finite() && **h >= 1.0 && **h <= 1000.0))
        {
            return Err(format!("--hz must be from 1 to 1000, not {bad}"));
        }
        for &n in &self.units {
            for (&ground, ground_name) in grounds.iter().zip(&self.ground) {
                for (&to, goals_name) in goals.iter().zip(&self.goals) {
                    for &hz in &self.hz {
                        let report = move_order(
                            n,
                            to,
                            ground,
                            hz,
                            self.threads,
                            self.seed,
                            self.sent_before,
                        );
                        let mut line = report.to_json();
                        line["ground"] = json!(ground_name);
                        line["goals"] = json!(goals_name);
                        line["hz"] = json!(hz);
                        line["threads"] = json!(self.threads);
                        line["sent_before"] = json!(self.sent_before);
                        println!("{line}");
                    }
                }
            }
        }
        Ok(())
    }
}
