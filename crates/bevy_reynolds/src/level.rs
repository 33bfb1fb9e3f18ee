//! A level: [`Obstacle`]s (rocks and walls) every agent steers round,
//! [`Containment`] that keeps an agent inside an area, and [`FollowPath`].
//!
//! ```
//! use std::sync::Arc;
//! use bevy::prelude::*;
//! use bevy_reynolds::prelude::*;
//! use bevy_reynolds::Position;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, SteeringPlugin::default()));
//! // A rock, placed by its Transform (or a Position).
//! app.world_mut().spawn((Obstacle::circle(40.0), Transform::from_xyz(200.0, 0.0, 0.0)));
//! // A wall, its ends relative to where the entity is.
//! app.world_mut().spawn((Obstacle::wall(Vec2::new(0.0, -100.0), Vec2::new(0.0, 100.0)), Transform::from_xyz(500.0, 0.0, 0.0)));
//! // A patroller on a loop, kept inside a field.
//! let beat = Arc::new(SteeringPath::new([Vec2::ZERO, Vec2::new(300.0, 0.0), Vec2::new(300.0, 200.0)], true));
//! app.world_mut().spawn((
//!     SteeringAgent,
//!     FollowPath::new(beat, 20.0),
//!     Containment::rect(Vec2::new(-400.0, -300.0), Vec2::new(400.0, 300.0)),
//!     Position::new(0.0, 0.0),
//! ));
//! app.update();
//! ```
//!
//! Avoidance and containment ask for their steering in
//! [`Priority::Critical`]. With [`Combine::Priority`] that group wins
//! whenever it asks for anything; with the weighted sum (the default), an
//! avoiding agent's steering *replaces* the sum of the rest while it avoids,
//! since any other behavior pulling the other way would otherwise outvote it
//! and take the agent into the rock.
//!
//! An avoiding agent looks ahead along its velocity (and, when that is
//! clear, along where it means to go), picks a side to pass on and keeps it
//! while the same obstacle is in the way, then takes the way round that
//! gets it farthest toward where it means to go
//! ([`best_way`](reynolds::best_way)), no faster than it can stop within
//! what it sees free ([`stopping_speed`](reynolds::stopping_speed)): in a
//! corridor, it goes on along it, slowing for the bend, and turns into the
//! bend once it sees it clear. A wanderer that meets something has its
//! [`WanderAngle`] mirrored off it, so it wanders away instead of sliding
//! along the wall (the chapter's wander angle is absolute, and would
//! otherwise keep pointing into it).

mod index;
mod lists;

use std::sync::Arc;

use bevy::prelude::*;
use reynolds::{self as model, Polyline, Probe, Shape, Side};

use crate::components::{
    Heading, Position, SteeringAccumulator, SteeringAgent, Velocity, WanderAngle,
};
use crate::ground::{GroundPlane, SteeringLengthUnit};
use crate::params::{Combine, Priority, SteeringParams};

use index::Nearby;
pub use index::ObstacleIndex;

/// A path to follow: the engine-free [`Polyline`], shared between followers
/// with an [`Arc`].
pub type SteeringPath = Polyline;

/// Something agents must not walk into: a circle, a wall, or a closed
/// polygon of walls, placed by the entity's [`Position`] (if it has one)
/// or its [`GlobalTransform`] on the ground. Walls are seen from both sides.
/// It may move: the plugin indexes every obstacle where it is each step.
///
/// Every agent avoids every obstacle, unless it has [`IgnoreObstacles`].
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub enum Obstacle {
    /// A disc of this radius round the entity.
    Circle {
        /// Its radius, in pixels (world units).
        radius: f32,
    },
    /// A wall between two points given relative to the entity.
    Wall {
        /// One end.
        a: Vec2,
        /// The other.
        b: Vec2,
    },
    /// A closed ring of walls through these points, relative to the entity.
    Polygon {
        /// Its corners, in order.
        points: Vec<Vec2>,
    },
}

impl Obstacle {
    /// A circle of `radius`.
    pub fn circle(radius: f32) -> Self {
        Self::Circle { radius }
    }

    /// A wall from `a` to `b`.
    pub fn wall(a: Vec2, b: Vec2) -> Self {
        Self::Wall { a, b }
    }

    /// A closed polygon of walls through `points`.
    pub fn polygon(points: impl IntoIterator<Item = Vec2>) -> Self {
        Self::Polygon {
            points: points.into_iter().collect(),
        }
    }

    /// Whether it is usable: see [`problem`](Self::problem) for what is
    /// wrong when it is not.
    pub fn is_valid(&self) -> bool {
        match self {
            Obstacle::Circle { radius } => radius.is_finite() && *radius >= 0.0,
            Obstacle::Wall { a, b } => a.is_finite() && b.is_finite(),
            Obstacle::Polygon { points } => {
                points.len() >= 3 && points.iter().all(|p| p.is_finite())
            }
        }
    }

    /// What is wrong with it, if anything: a negative or non-finite radius
    /// or point, or a polygon of fewer than three points.
    pub fn problem(&self) -> Option<String> {
        match self {
            Obstacle::Circle { radius } if !(radius.is_finite() && *radius >= 0.0) => Some(
                format!("a circle's radius must be 0 or more and finite, not {radius}"),
            ),
            Obstacle::Wall { a, b } if !(a.is_finite() && b.is_finite()) => {
                Some(format!("a wall's ends must be finite, not {a} and {b}"))
            }
            Obstacle::Polygon { points } if points.len() < 3 => Some(format!(
                "a polygon needs 3 points or more, not {}",
                points.len()
            )),
            Obstacle::Polygon { points } if points.iter().any(|p| !p.is_finite()) => {
                Some("a polygon's points must be finite".to_string())
            }
            _ => None,
        }
    }

    /// Each shape it is made of, placed by `place` (local to world ground).
    fn for_each_shape(&self, place: impl Fn(Vec2) -> Vec2, mut each: impl FnMut(Shape)) {
        match self {
            Obstacle::Circle { radius } => each(Shape::Circle {
                center: place(Vec2::ZERO),
                radius: *radius,
            }),
            Obstacle::Wall { a, b } => each(Shape::Wall {
                a: place(*a),
                b: place(*b),
            }),
            Obstacle::Polygon { points } => {
                for (i, a) in points.iter().enumerate() {
                    let b = points[(i + 1) % points.len()];
                    each(Shape::Wall {
                        a: place(*a),
                        b: place(b),
                    });
                }
            }
        }
    }
}

/// An agent with this does not avoid [`Obstacle`]s (it still keeps to its
/// [`Containment`]).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct IgnoreObstacles;

/// Keeps an agent inside a closed polygon (a rectangle, say): an alternative
/// to wrapping. The edges are walls seen from inside, and an agent outside
/// steers straight back in.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct Containment {
    /// The area's corners, in order, in world units on the ground.
    pub points: Vec<Vec2>,
}

impl Containment {
    /// The rectangle from `min` to `max`.
    pub fn rect(min: Vec2, max: Vec2) -> Self {
        Self::polygon([min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)])
    }

    /// The polygon through `points`.
    pub fn polygon(points: impl IntoIterator<Item = Vec2>) -> Self {
        Self {
            points: points.into_iter().collect(),
        }
    }

    /// Whether `p` is inside (a polygon of fewer than 3 points has no
    /// inside, and contains nothing).
    pub fn contains(&self, p: Vec2) -> bool {
        model::inside_polygon(p, &self.points)
    }

    /// How far outside `p` is: 0 inside.
    pub fn outside_by(&self, p: Vec2) -> f32 {
        if self.points.len() < 3 {
            return 0.0;
        }
        model::outside_by(p, &self.points)
    }
}

/// Follows a path: seeks a point a little ahead of its cursor, which only
/// moves forward (see [`follow_path`](model::follow_path)). Its steering
/// goes into [`Priority::Normal`], with the agent's [`Behavior`] if it has
/// one (give it none, or `Behavior::Idle`, to only follow).
///
/// [`Behavior`]: crate::Behavior
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct FollowPath {
    /// The path, shared.
    #[reflect(ignore)]
    pub path: Arc<SteeringPath>,
    /// How far off the path counts as on it, in pixels: the cursor looks at
    /// least this far ahead.
    pub radius: f32,
    /// How far along the path the agent is, in pixels of arc length (past
    /// the length on a looped path: each lap adds the length).
    pub cursor: f32,
    /// Where the agent aimed in its last step.
    pub aim: Vec2,
}

impl FollowPath {
    /// Follows `path`, `radius` wide, from its start.
    pub fn new(path: Arc<SteeringPath>, radius: f32) -> Self {
        Self {
            path,
            radius,
            cursor: 0.0,
            aim: Vec2::ZERO,
        }
    }

    /// How many laps of a looped path the cursor has made.
    pub fn laps(&self) -> u32 {
        if self.path.is_looped() && self.path.length() > 0.0 {
            (self.cursor / self.path.length()) as u32
        } else {
            0
        }
    }
}

/// Which obstacle an agent last steered round, and on which side: kept while
/// the same obstacle is the first in its way, so an agent whose goal is
/// straight behind a rock does not dither left and right.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AvoidanceMemory {
    /// The obstacle entity and which of its parts (a polygon's edge), or
    /// `None` when nothing was in the way.
    pub obstacle: Option<(Entity, u32)>,
    /// Passing it on the left (`true`) or the right.
    pub left: bool,
    /// The probe's length in the last step, for drawing.
    pub look_ahead: f32,
    /// The direction it looked in, for drawing.
    pub looking: Vec2,
}

/// Logs a bad obstacle once, when it is added or changed.
pub(crate) fn validate_obstacles(obstacles: Query<(Entity, &Obstacle), Changed<Obstacle>>) {
    for (entity, obstacle) in &obstacles {
        if let Some(problem) = obstacle.problem() {
            warn!("obstacle {entity}: {problem}; it is ignored");
        }
    }
}

/// Whether [`index_obstacles`] has anything to do: there are obstacles, or
/// an index of them to empty.
pub(crate) fn index_wanted(
    index: Res<ObstacleIndex>,
    obstacles: Query<(), With<Obstacle>>,
) -> bool {
    !obstacles.is_empty() || !index.is_empty()
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// every obstacle's shapes, where they are now, into the [`ObstacleIndex`],
/// gathered again only when something they are made of changed: an
/// obstacle added, changed, moved or removed (a level's rocks mostly stand
/// still, and gathering a thousand of them cost more than stepping a
/// hundred agents).
#[allow(clippy::type_complexity)]
pub(crate) fn index_obstacles(
    ground: Res<GroundPlane>,
    unit: Res<SteeringLengthUnit>,
    mut index: ResMut<ObstacleIndex>,
    obstacles: Query<(
        Entity,
        &Obstacle,
        Option<&Position>,
        Option<&GlobalTransform>,
    )>,
    moved: Query<
        (),
        (
            With<Obstacle>,
            Or<(
                Changed<Obstacle>,
                Changed<Position>,
                Changed<GlobalTransform>,
            )>,
        ),
    >,
    placed: Query<(), (With<Obstacle>, With<Position>)>,
    transformed: Query<(), (With<Obstacle>, With<GlobalTransform>)>,
) {
    let index = &mut *index;
    // An obstacle removed (or no longer placed by its `Position` or its
    // transform) leaves one of these fewer; one added is `Changed`. (Counts
    // rather than removal messages, which a fixed step can miss when
    // several frames pass between two steps.)
    let counts = [obstacles.count(), placed.count(), transformed.count()];
    let gone = counts != index.counts;
    index.counts = counts;
    let changed = gone || ground.is_changed() || unit.is_changed() || !moved.is_empty();
    if changed {
        index.shapes.clear();
        for (entity, obstacle, position, global) in &obstacles {
            // Without building the message `problem` makes.
            if !obstacle.is_valid() {
                continue;
            }
            let ground = *ground;
            let place = |local: Vec2| match (position, global) {
                (Some(p), _) => p.0 + local,
                (None, Some(g)) => {
                    ground.to_ground(g.transform_point(ground.place(local, Vec3::ZERO)))
                }
                (None, None) => local,
            };
            let mut part = 0;
            obstacle.for_each_shape(place, |shape| {
                if shape.is_valid() {
                    index.shapes.push((entity, part, shape));
                }
                part += 1;
            });
        }
    }
    // Cells about the size of an agent's look-ahead (and lists for the
    // probes noted since the last step, whether or not the shapes moved).
    index.rebuild(64.0 * unit.0, changed);
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each path follower seeks along its path, in [`Priority::Normal`].
pub(crate) fn follow_paths(
    mut agents: Query<
        (
            &Position,
            &Velocity,
            &SteeringParams,
            &mut FollowPath,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
) {
    crate::passes::for_each(
        crate::passes::CHEAP,
        &mut agents,
        |(pos, vel, params, mut follow, mut steering)| {
            let speed = model::finite_or_zero(vel.0).length();
            let look = (speed * params.look_ahead_time)
                .max(params.min_look_ahead)
                .max(model::sanitize_limit(follow.radius));
            let step = model::follow_path(
                &follow.path,
                pos.0,
                vel.0,
                follow.cursor,
                params.max_speed,
                params.slowing_radius,
                look,
            );
            if follow.cursor != step.cursor || follow.aim != step.aim {
                follow.cursor = step.cursor;
                follow.aim = step.aim;
            }
            steering.add_desired(
                Priority::Normal,
                1.0,
                step.desired,
                vel.0,
                params.response_time,
            );
        },
    );
}

/// Whether there is an obstacle, or an agent kept inside an area: else
/// avoidance has nothing to do, and does not visit every agent to find out.
pub(crate) fn anything_to_avoid(
    index: Res<ObstacleIndex>,
    contained: Query<(), With<Containment>>,
) -> bool {
    !index.is_empty() || !contained.is_empty()
}

thread_local! {
    /// Each thread's shapes near the agent it is steering. Here rather than
    /// in a `for_each_init` state, which Bevy moves from one agent to the
    /// next: 2.5 KB copied an agent.
    static NEARBY: std::cell::RefCell<(Nearby, Nearby)> = Default::default();
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// after every other behavior: each agent looks ahead the way the rest of
/// its steering takes it, and steers round the first obstacle or wall in
/// the way, and back inside its [`Containment`], in [`Priority::Critical`].
#[allow(clippy::type_complexity)]
pub(crate) fn avoid_obstacles(
    index: Res<ObstacleIndex>,
    mut agents: Query<
        (
            &Position,
            &Velocity,
            &Heading,
            &SteeringParams,
            Option<&Containment>,
            Has<IgnoreObstacles>,
            &mut AvoidanceMemory,
            &mut SteeringAccumulator,
            &mut WanderAngle,
        ),
        With<SteeringAgent>,
    >,
) {
    let index = &*index;
    crate::passes::for_each(crate::passes::COSTLY, &mut agents, |item| {
        NEARBY.with_borrow_mut(|(near_obstacles, near_edges)| {
            let (
                pos,
                vel,
                heading,
                params,
                containment,
                ignore,
                mut memory,
                mut steering,
                mut wander,
            ) = item;
            let sees_obstacles = !ignore && !index.is_empty();
            if !sees_obstacles && containment.is_none() {
                if memory.obstacle.is_some() {
                    memory.obstacle = None;
                }
                return;
            }
            let (pos, vel) = (pos.0, model::finite_or_zero(vel.0));
            if !pos.is_finite() {
                return;
            }
            let rt = params.response_time;
            // Where the rest of its steering takes it.
            let combined = params.combine.apply(&steering.0);
            let intent = model::finite_or_zero(vel + combined * model::sanitize_response_time(rt));
            let max_speed = model::sanitize_speed(params.max_speed);
            let max_accel =
                model::sanitize_speed(params.max_force) / model::sanitize_mass(params.mass);
            let speed = intent.length().min(max_speed);
            let dir = [intent, vel, heading.0.as_vec2()]
                .into_iter()
                .map(model::direction)
                .find(|d| *d != Vec2::ZERO)
                .unwrap_or(Vec2::X);
            let length = (vel.length() * model::sanitize_limit(params.look_ahead_time))
                .max(model::sanitize_limit(params.min_look_ahead));
            let length = if length.is_finite() { length } else { 0.0 };
            let probe = Probe {
                from: pos,
                dir,
                length,
                radius: model::sanitize_limit(params.radius)
                    + model::sanitize_limit(params.clearance),
            };
            memory.look_ahead = length;
            memory.looking = dir;
            if sees_obstacles {
                index.note_reach(probe.length + probe.radius);
            }

            let area = containment.filter(|a| a.points.len() >= 3);
            // Outside its area, straight back in before anything else.
            let mut desired = area.and_then(|a| model::come_back_inside(pos, &a.points, max_speed));
            // Every probe starts here and reaches as far: what they could
            // touch is gathered once (the obstacles only for the many
            // probes of a way round).
            if let Some(area) = area
                && near_edges.start(pos, probe.length, probe.radius)
            {
                for (i, edge) in area_edges(&area.points) {
                    near_edges.offer(i, &edge);
                }
            }
            // The first obstacle, or edge of its area (walls seen from
            // inside), the swept body meets.
            let first_hit = |probe: &Probe, near: Option<&Nearby>| {
                let hit = match near {
                    _ if !sees_obstacles => None,
                    Some(near) => index.first_hit_near(near, probe),
                    None => index.first_hit(probe),
                };
                let edge = match area {
                    Some(_) if near_edges.complete => near_edges.first_hit(probe),
                    Some(area) => index::first_hit_among(area_edges(&area.points), probe),
                    None => None,
                };
                match (hit, edge) {
                    (Some(h), Some((i, wall, t))) if t < h.3 => {
                        Some((Entity::PLACEHOLDER, i, wall, t))
                    }
                    (None, Some((i, wall, t))) => Some((Entity::PLACEHOLDER, i, wall, t)),
                    (hit, _) => hit,
                }
            };
            // Look where it is going first: a body turning (a seeker past
            // its target, a wanderer) still slides on along its velocity
            // for a while, and that is what hits things. Where it means to
            // go matters when that is clear (or it is still).
            let moving = model::direction(vel);
            let along = Probe {
                dir: moving,
                ..probe
            };
            let (probe, hit, sliding) = match (moving != Vec2::ZERO)
                .then(|| first_hit(&along, None))
                .flatten()
            {
                Some(hit) => (along, Some(hit), true),
                None => (probe, first_hit(&probe, None), false),
            };
            let intent_dir = dir;
            let dir = probe.dir;
            if desired.is_none() {
                match hit {
                    Some((entity, part, shape, t)) => {
                        let side = if memory.obstacle == Some((entity, part)) {
                            if memory.left { Side::Left } else { Side::Right }
                        } else {
                            // The short way round as it goes; along a wall
                            // it meets head-on, the way it means to go.
                            let heading = match shape {
                                Shape::Circle { .. } => dir,
                                Shape::Wall { .. } => (dir + intent_dir).normalize_or(dir),
                            };
                            Side::shorter_way_round(&shape, pos, heading)
                        };
                        memory.obstacle = Some((entity, part));
                        memory.left = side == Side::Left;
                        memory.looking = dir;
                        // The way that gets it farthest toward where it
                        // means to go.
                        if sees_obstacles {
                            index.gather_near(&probe, near_obstacles);
                        }
                        let near = &*near_obstacles;
                        let around = Around {
                            blocked: |d| {
                                let found = || {
                                    first_hit(&Probe { dir: d, ..probe }, Some(near)).map(|h| h.3)
                                };
                                // Straight ahead is where it met what it met
                                // (the same to the bit, checked in tests).
                                if d == dir {
                                    let met = Some(t);
                                    debug_assert_eq!(met, found(), "straight ahead");
                                    return met;
                                }
                                found()
                            },
                            // The same, as a yes or no: cheaper.
                            clear: |d, reach| {
                                let probe = Probe { dir: d, ..probe };
                                let obstacles = match near.complete {
                                    _ if !sees_obstacles => true,
                                    true => near.clear(&probe, reach),
                                    false => index.first_hit(&probe).is_none_or(|h| h.3 >= reach),
                                };
                                obstacles
                                    && match area {
                                        Some(_) if near_edges.complete => {
                                            near_edges.clear(&probe, reach)
                                        }
                                        Some(area) => {
                                            index::first_hit_among(area_edges(&area.points), &probe)
                                                .is_none_or(|h| h.2 >= reach)
                                        }
                                        None => true,
                                    }
                            },
                        };
                        let way = model::best_way(dir, intent_dir, side, probe.length, around);
                        // The nearer the hit, the more of the force goes
                        // into turning: only the velocity's part along the
                        // way is kept, none of it pressed toward the
                        // obstacle. Touching something from still, out,
                        // even if it meant to stay.
                        let urgency = if length > 0.0 {
                            (1.0 - t / length).clamp(0.0, 1.0)
                        } else {
                            1.0
                        };
                        let toward = way.dir.dot(moving);
                        let speed = if sliding && toward > 0.0 {
                            let kept = vel.dot(way.dir).max(0.0);
                            speed + (kept - speed) * urgency
                        } else if t == 0.0 {
                            speed.max(0.5 * max_speed)
                        } else {
                            speed
                        };
                        // No faster than it can stop from within what it
                        // sees free along the way, nor, still sliding
                        // toward what it has seen, along that.
                        let mut speed = speed.min(model::stopping_speed(way.free, max_accel, rt));
                        if sliding && toward > 0.0 {
                            speed = speed.min(model::stopping_speed(t, max_accel, rt) / toward);
                        }
                        desired = Some(way.dir * speed);
                        // A wanderer bounces: where it means to wander,
                        // if into what it met, is mirrored off it (else
                        // it would slide along a wall until its wander
                        // turned, and gather in corners).
                        let contact = probe.from + probe.dir * t;
                        let normal = model::direction(contact - shape.closest_point(contact));
                        let wandering = Vec2::from_angle(wander.0);
                        let into = wandering.dot(normal);
                        if into < 0.0 && wander.0.is_finite() {
                            wander.0 = (wandering - 2.0 * into * normal).to_angle();
                        }
                    }
                    None => {
                        if memory.obstacle.is_some() {
                            memory.obstacle = None;
                        }
                    }
                }
            }
            let Some(desired) = desired else {
                return;
            };
            let force = model::steering(desired, vel, rt);
            match params.combine {
                Combine::Priority { .. } => steering.add_force(Priority::Critical, force),
                // In a weighted sum the rest would outvote it: it replaces
                // them while it avoids.
                Combine::Weighted => {
                    steering.0 = default();
                    steering.add_force(Priority::Critical, force);
                }
            }
        })
    });
}

/// What is round an avoiding agent, for [`best_way`](model::best_way): how
/// far it is free along a direction, and whether it is clear.
struct Around<B, C> {
    blocked: B,
    clear: C,
}

impl<B: Fn(Vec2) -> Option<f32>, C: Fn(Vec2, f32) -> bool> model::Surroundings for Around<B, C> {
    fn blocked(&self, dir: Vec2) -> Option<f32> {
        (self.blocked)(dir)
    }

    fn clear(&self, dir: Vec2, reach: f32) -> bool {
        (self.clear)(dir, reach)
    }
}

/// A closed polygon's edges, numbered, as walls.
fn area_edges(points: &[Vec2]) -> impl Iterator<Item = (u32, Shape)> + '_ {
    let n = points.len();
    (0..n).map(move |i| {
        let (a, b) = (points[i], points[(i + 1) % n]);
        (i as u32, Shape::Wall { a, b })
    })
}
