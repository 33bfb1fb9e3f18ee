//! Obstacle avoidance and containment, each step after every other
//! behavior: an agent looks ahead the way the rest of its steering takes
//! it, and steers round the first obstacle or wall in the way, and back
//! inside its [`Containment`], in [`SteeringPriority::Critical`].
//! It looks along its velocity first (a body turning still slides on along
//! it for a while, and that is what hits things), then along where it means
//! to go; it picks a side to pass on and keeps it while the same obstacle
//! is in the way; it takes the way round that gets it farthest toward
//! where it means to go ([`best_way`]), no faster than it can stop within
//! what it sees free ([`stopping_speed`]); and a wanderer that meets
//! something has its wander mirrored off it.

use std::cell::RefCell;

use bevy::prelude::*;
use reynolds::level::{Nearby, ShapeHit, Touch, first_hit_among};
use reynolds::level::{
    Probe, Shape, Side, Surroundings, Way, best_way, come_back_inside, stopping_speed,
};
use reynolds::math::{direction, finite_or_zero, sanitize_limit, sanitize_speed};
use reynolds::model::{self, sanitize_mass, sanitize_response_time};

use super::containment::{Containment, area_edges};
use super::obstacles::{IgnoreObstacles, ObstacleIndex};
use crate::agent::{
    AgentHeading, AgentPosition, AgentVelocity, Combine, SteeringAccumulator, SteeringAgent,
    SteeringParams, SteeringPriority, WanderAngle,
};
use crate::math::Vector;
use crate::parallel::{COSTLY, for_each};

/// Which obstacle an agent last steered round, and on which side: kept while
/// the same obstacle is the first in its way, so an agent whose goal is
/// straight behind a rock does not dither left and right.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AvoidanceMemory {
    /// The obstacle entity and which of its parts (a polygon's edge; an
    /// edge of the agent's area has no entity), or `None` when nothing was
    /// in the way.
    pub obstacle: Option<(Entity, u32)>,
    /// Passing it on the left (`true`) or the right.
    pub left: bool,
    /// The probe's length in the last step, for drawing.
    pub look_ahead: f32,
    /// The direction it looked in, for drawing.
    pub looking: Vector,
}

/// On an agent that another capability keeps clear of the level's
/// obstacles (crowds: [`AvoidAgents`](crate::AvoidAgents) pushes away from
/// them as from other agents, and keeps its body out): the look-ahead
/// leaves its obstacles to that, and still keeps it inside its
/// [`Containment`].
#[derive(Component, Debug, Default, Clone, Copy)]
pub(crate) struct NoLookAhead;

/// On an agent that follows a route ([`Navigate`](crate::Navigate)): the
/// route already keeps its body clear of the still obstacles (a look-ahead
/// at a door post would stop it in the door), so the look-ahead leaves
/// the obstacles alone, and still keeps it inside its [`Containment`].
#[derive(Component, Debug, Default, Clone, Copy)]
pub(crate) struct RouteKeepsClear;

/// Whether there is an obstacle, or an agent kept inside an area: else
/// avoidance has nothing to do, and does not visit every agent to find out.
pub(super) fn anything_to_avoid(
    index: Res<ObstacleIndex>,
    contained: Query<(), With<Containment>>,
) -> bool {
    !index.is_empty() || !contained.is_empty()
}

thread_local! {
    /// Each thread's shapes near the agent it is steering: its obstacles
    /// and its area's edges. Here rather than in a `for_each_init` state,
    /// which Bevy moves from one agent to the next (2.5 KB copied an agent).
    static NEARBY: RefCell<(Nearby, Nearby)> = Default::default();
}

/// The avoiding agents' query.
type Avoiders<'w, 's> = Query<
    'w,
    's,
    (
        &'static AgentPosition,
        &'static AgentVelocity,
        &'static AgentHeading,
        &'static SteeringParams,
        Option<&'static Containment>,
        Has<IgnoreObstacles>,
        (Has<NoLookAhead>, Has<RouteKeepsClear>),
        &'static mut AvoidanceMemory,
        &'static mut SteeringAccumulator,
        &'static mut WanderAngle,
    ),
    With<SteeringAgent>,
>;

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// after every other behavior: see the module.
pub(super) fn avoid_obstacles(index: Res<ObstacleIndex>, mut agents: Avoiders) {
    let index = &*index;
    for_each(COSTLY, &mut agents, |item| {
        NEARBY.with_borrow_mut(|(near_obstacles, near_edges)| {
            let (
                pos,
                vel,
                heading,
                params,
                containment,
                ignore,
                (crowd, route),
                mut memory,
                mut steering,
                mut wander,
            ) = item;
            let sees_obstacles = !(ignore || crowd || route || index.is_empty());
            if !sees_obstacles && containment.is_none() {
                forget(&mut memory);
                return;
            }
            if !pos.0.is_finite() {
                return;
            }
            let look = Look::new(pos.0, vel.0, heading.0.as_vec2(), params, &steering);
            memory.look_ahead = look.probe.length;
            memory.looking = look.probe.dir;
            if sees_obstacles {
                index.note_reach(look.probe.length + look.probe.radius);
            }
            let area = containment
                .map(|area| &area.points[..])
                .filter(|points| points.len() >= 3);
            // Every probe starts here and reaches as far: what they could
            // touch is gathered once (the obstacles only for the many
            // probes of a way round).
            if let Some(area) = area
                && near_edges.start(look.probe.from, look.probe.length, look.probe.radius)
            {
                for (i, edge) in area_edges(area) {
                    near_edges.offer(i, &edge);
                }
            }
            let level = Obstructions {
                index: sees_obstacles.then_some(index),
                area,
                edges: near_edges,
            };
            // Outside its area, straight back in before anything else.
            let desired = match area
                .and_then(|a| come_back_inside(look.probe.from, a, look.max_speed))
            {
                Some(back) => Some(back),
                None => look.round_what_is_ahead(&level, near_obstacles, &mut memory, &mut wander),
            };
            if let Some(desired) = desired {
                take_over(
                    &mut steering,
                    params,
                    model::steering(desired, look.vel, params.response_time),
                );
            }
        })
    });
}

/// Nothing in the way: nothing to remember.
fn forget(memory: &mut AvoidanceMemory) {
    if memory.obstacle.is_some() {
        memory.obstacle = None;
    }
}

/// Adds avoidance's `force` to the accumulator in [`SteeringPriority::Critical`]:
/// with [`Combine::Weighted`] in place of everything else (the rest would
/// outvote it and take the agent in).
fn take_over(steering: &mut SteeringAccumulator, params: &SteeringParams, force: Vector) {
    if let Combine::Weighted = params.combine {
        steering.0 = default();
    }
    steering.add_force(SteeringPriority::Critical, force);
}

/// How an agent looks ahead this step: where the rest of its steering takes
/// it, how fast it may go, and the probe along where it means to go.
struct Look {
    vel: Vector,
    /// Where it means to go: the rest of its steering's velocity, else its
    /// velocity, else its heading.
    intent: Vector,
    /// How fast it means to go, at most its top speed.
    speed: f32,
    max_speed: f32,
    /// The most it can change its speed in a second.
    max_accel: f32,
    response_time: f32,
    /// The body swept along `intent` as far as it looks.
    probe: Probe,
}

impl Look {
    fn new(
        pos: Vector,
        vel: Vector,
        heading: Vector,
        params: &SteeringParams,
        steering: &SteeringAccumulator,
    ) -> Self {
        let vel = finite_or_zero(vel);
        let rt = params.response_time;
        // Where the rest of its steering takes it.
        let combined = params.combine.apply(&steering.0);
        let intent = finite_or_zero(vel + combined * sanitize_response_time(rt));
        let max_speed = sanitize_speed(params.max_speed);
        let max_accel = sanitize_speed(params.max_force) / sanitize_mass(params.mass);
        let dir = [intent, vel, heading]
            .into_iter()
            .map(direction)
            .find(|d| *d != Vector::ZERO)
            .unwrap_or(Vector::X);
        let length = (vel.length() * sanitize_limit(params.look_ahead_time))
            .max(sanitize_limit(params.min_look_ahead));
        let length = if length.is_finite() { length } else { 0.0 };
        Self {
            vel,
            intent: dir,
            speed: intent.length().min(max_speed),
            max_speed,
            max_accel,
            response_time: rt,
            probe: Probe {
                from: pos,
                dir,
                length,
                radius: sanitize_limit(params.radius) + sanitize_limit(params.clearance),
            },
        }
    }

    /// The velocity that takes it round the first thing in its way, if
    /// anything is.
    fn round_what_is_ahead(
        &self,
        level: &Obstructions,
        near_obstacles: &mut Nearby,
        memory: &mut AvoidanceMemory,
        wander: &mut WanderAngle,
    ) -> Option<Vector> {
        // Along its velocity first, then along where it means to go.
        let moving = direction(self.vel);
        let along = Probe {
            dir: moving,
            ..self.probe
        };
        let (probe, hit, sliding) = match (moving != Vector::ZERO)
            .then(|| level.first_hit(&along, None))
            .flatten()
        {
            Some(hit) => (along, hit, true),
            None => match level.first_hit(&self.probe, None) {
                Some(hit) => (self.probe, hit, false),
                None => {
                    forget(memory);
                    return None;
                }
            },
        };
        let side = self.side_to_pass(&probe, &hit, memory);
        memory.obstacle = Some((hit.id, hit.part));
        memory.left = side == Side::Left;
        memory.looking = probe.dir;
        // The way that gets it farthest toward where it means to go.
        if let Some(index) = level.index {
            index.gather_near(&probe, near_obstacles);
        }
        let around = WayRound {
            level,
            near: near_obstacles,
            probe,
            met: hit.at,
        };
        let way = best_way(probe.dir, self.intent, side, probe.length, around);
        bounce_wander(wander, &probe, &hit);
        Some(way.dir * self.speed_along(&way, hit.at, moving, sliding))
    }

    /// The side to pass `hit` on: the one it kept while the same obstacle
    /// is in the way, else the short way round as it goes (along a wall it
    /// meets head-on, the way it means to go).
    fn side_to_pass(
        &self,
        probe: &Probe,
        hit: &ShapeHit<Entity>,
        memory: &AvoidanceMemory,
    ) -> Side {
        if memory.obstacle == Some((hit.id, hit.part)) {
            return if memory.left { Side::Left } else { Side::Right };
        }
        let heading = match hit.shape {
            Shape::Circle { .. } => probe.dir,
            Shape::Wall { .. } => (probe.dir + self.intent).normalize_or(probe.dir),
        };
        Side::shorter_way_round(&hit.shape, probe.from, heading)
    }

    /// How fast it goes along `way`, having met something `met` along the
    /// probe: the nearer the hit, the more of the force goes into turning
    /// (only the velocity's part along the way is kept, none of it pressed
    /// toward the obstacle); touching something from still, out, even if it
    /// meant to stay; and no faster than it can stop from within what it
    /// sees free along the way, nor, still sliding toward what it has seen,
    /// along that.
    fn speed_along(&self, way: &Way, met: f32, moving: Vector, sliding: bool) -> f32 {
        let length = self.probe.length;
        let urgency = if length > 0.0 {
            (1.0 - met / length).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let toward = way.dir.dot(moving);
        let speed = if sliding && toward > 0.0 {
            let kept = self.vel.dot(way.dir).max(0.0);
            self.speed + (kept - self.speed) * urgency
        } else if met == 0.0 {
            self.speed.max(0.5 * self.max_speed)
        } else {
            self.speed
        };
        let rt = self.response_time;
        let mut speed = speed.min(stopping_speed(way.free, self.max_accel, rt));
        if sliding && toward > 0.0 {
            speed = speed.min(stopping_speed(met, self.max_accel, rt) / toward);
        }
        speed
    }
}

/// A wanderer bounces: where it means to wander, if into what it met, is
/// mirrored off it (else it would slide along a wall until its wander
/// turned, and gather in corners).
fn bounce_wander(wander: &mut WanderAngle, probe: &Probe, hit: &ShapeHit<Entity>) {
    let contact = probe.from + probe.dir * hit.at;
    let normal = direction(contact - hit.shape.closest_point(contact));
    let wandering = Vector::from_angle(wander.0);
    let into = wandering.dot(normal);
    if into < 0.0 && wander.0.is_finite() {
        wander.0 = (wandering - 2.0 * into * normal).to_angle();
    }
}

/// What an avoiding agent can run into: the level's obstacles (unless it
/// ignores them), and the edges of its area (walls seen from inside),
/// gathered near it when they fit.
struct Obstructions<'a> {
    index: Option<&'a ObstacleIndex>,
    area: Option<&'a [Vector]>,
    edges: &'a Nearby,
}

impl Obstructions<'_> {
    /// The first obstacle, or edge of its area, the swept body meets:
    /// testing only the obstacles `near` gathered, if given (an edge has no
    /// entity).
    fn first_hit(&self, probe: &Probe, near: Option<&Nearby>) -> Option<ShapeHit<Entity>> {
        let hit = self.index.and_then(|index| match near {
            Some(near) => index.first_hit_near(near, probe),
            None => index.first_hit(probe),
        });
        let edge = self.area.and_then(|area| match self.edges.complete {
            true => self.edges.first_hit(probe),
            false => first_hit_among(area_edges(area), probe),
        });
        let edge_hit = |edge: Touch| ShapeHit {
            id: Entity::PLACEHOLDER,
            part: edge.number,
            shape: edge.shape,
            at: edge.at,
        };
        match (hit, edge) {
            (Some(hit), Some(edge)) if edge.at < hit.at => Some(edge_hit(edge)),
            (None, Some(edge)) => Some(edge_hit(edge)),
            (hit, _) => hit,
        }
    }

    /// Whether the probe touches nothing sooner than `reach` along (the
    /// obstacles `near` gathered only): [`first_hit`](Self::first_hit) as a
    /// yes or no, which is cheaper.
    fn clear(&self, probe: &Probe, near: &Nearby, reach: f32) -> bool {
        let obstacles = self
            .index
            .is_none_or(|index| index.clear_near(near, probe, reach));
        obstacles
            && self.area.is_none_or(|area| match self.edges.complete {
                true => self.edges.clear(probe, reach),
                false => {
                    first_hit_among(area_edges(area), probe).is_none_or(|edge| edge.at >= reach)
                }
            })
    }
}

/// What is round an avoiding agent, for [`best_way`]: how far it is free
/// along a direction, and whether it is clear, probing from where it met
/// what it met.
struct WayRound<'a> {
    level: &'a Obstructions<'a>,
    near: &'a Nearby,
    probe: Probe,
    /// How far along the probe it met what it met.
    met: f32,
}

impl Surroundings for WayRound<'_> {
    fn blocked(&self, dir: Vector) -> Option<f32> {
        let found = || {
            let probe = Probe { dir, ..self.probe };
            self.level
                .first_hit(&probe, Some(self.near))
                .map(|hit| hit.at)
        };
        // Straight ahead is where it met what it met (the same to the bit,
        // checked in tests).
        if dir == self.probe.dir {
            debug_assert_eq!(Some(self.met), found(), "straight ahead");
            return Some(self.met);
        }
        found()
    }

    fn clear(&self, dir: Vector, reach: f32) -> bool {
        self.level
            .clear(&Probe { dir, ..self.probe }, self.near, reach)
    }
}
