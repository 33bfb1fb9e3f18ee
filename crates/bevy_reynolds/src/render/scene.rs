//! What the debug view draws, on any [`Canvas`]: the level, the arrows and
//! the trails, in ground coordinates. The flat view paints them into
//! meshes (`flat.rs`), the ground view into gizmos (`ground.rs`).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use reynolds::crowd::time_to_collision;
use reynolds::level::Shape as ObstacleShape;

use super::{AgentColor, DebugDraw};
use crate::agent::{
    AgentPosition, AgentTrail, AgentVelocity, DesiredVelocity, GroundPlane, SteeringAgent,
    SteeringLengthUnit,
};
use crate::crowd::{AvoidAgents, DoorTurn};
use crate::flocking::NeighborGrid;
use crate::formation::FormationPlace;
use crate::level::{AvoidanceMemory, FollowPath, ObstacleIndex};
use crate::navigation::{NavigationRoute, NavigationStatus};

/// Somewhere to draw on the ground. Widths and radii are in world units.
pub(super) trait Canvas {
    /// A line from `a` to `b`, `width` wide.
    fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: LinearRgba);
    /// An arrow from `from` to `to`, `width` wide, with a head.
    fn arrow(&mut self, from: Vec2, to: Vec2, width: f32, color: LinearRgba);
    /// A disc (or its outline), as `segments` sides.
    fn disc(&mut self, center: Vec2, radius: f32, segments: u32, color: LinearRgba);
    /// The places of one trail, oldest first, as dots of `radius`.
    fn trail<'a>(&mut self, points: impl Iterator<Item = &'a Vec2>, radius: f32, color: LinearRgba);
}

/// An agent's color in the debug view, linear.
fn linear(color: Option<&AgentColor>) -> LinearRgba {
    color.copied().unwrap_or_default().0.to_linear()
}

/// How long a pixel of the model is in the game's units: markers (dots, line
/// widths) are drawn this much smaller or larger than in the model.
fn pixel(unit: Option<&SteeringLengthUnit>) -> f32 {
    unit.map_or(1.0, |unit| unit.scale())
}

/// The level: obstacles and walls, paths and each follower's aim, each
/// navigating agent's route, formation places, the way each door taking
/// turns lets people through and, if asked, each agent's look-ahead.
#[derive(SystemParam)]
#[allow(clippy::type_complexity)]
pub(super) struct LevelScene<'w, 's> {
    draw: Res<'w, DebugDraw>,
    unit: Option<Res<'w, SteeringLengthUnit>>,
    // (None without the level's plugin.)
    index: Option<Res<'w, ObstacleIndex>>,
    followers: Query<'w, 's, (&'static FollowPath, Option<&'static AgentColor>)>,
    lookers: Query<'w, 's, (&'static AgentPosition, &'static AvoidanceMemory), With<SteeringAgent>>,
    travellers: Query<
        'w,
        's,
        (
            &'static AgentPosition,
            &'static NavigationRoute,
            &'static NavigationStatus,
            Option<&'static AgentColor>,
        ),
    >,
    members: Query<'w, 's, (&'static FormationPlace, Option<&'static AgentColor>)>,
    doors: Query<'w, 's, &'static DoorTurn>,
}

impl LevelScene<'_, '_> {
    /// Paints the level; `drawn` is scratch room for the paths already
    /// drawn (many agents may follow one).
    pub(super) fn paint(&self, canvas: &mut impl Canvas, drawn: &mut Vec<usize>) {
        let draw = &*self.draw;
        let px = pixel(self.unit.as_deref());
        drawn.clear();
        if draw.level {
            let rock = draw.obstacle_color.to_linear();
            for indexed in self.index.iter().flat_map(|index| index.shapes()) {
                match indexed.shape {
                    ObstacleShape::Circle { center, radius } => {
                        canvas.disc(center, radius, 32, rock);
                    }
                    ObstacleShape::Wall { a, b } => canvas.line(a, b, 4.0 * px, rock),
                }
            }
            let road = draw.path_color.to_linear();
            for (follow, color) in &self.followers {
                let path = &*follow.path;
                // Each path once, told apart by address: one shared path is
                // one Arc.
                let address = std::ptr::from_ref(path).addr();
                if !drawn.contains(&address) {
                    drawn.push(address);
                    let points = path.points();
                    let ends = if path.is_looped() {
                        points.len()
                    } else {
                        points.len().saturating_sub(1)
                    };
                    for i in 0..ends {
                        let next = points[(i + 1) % points.len()];
                        canvas.line(points[i], next, 1.5 * px, road);
                    }
                }
                canvas.disc(follow.aim, 3.0 * px, 8, linear(color));
            }
            if draw.routes {
                for (pos, route, status, color) in &self.travellers {
                    let ahead = route.points.get(route.corner..).unwrap_or_default();
                    if *status == NavigationStatus::Arrived || ahead.is_empty() {
                        continue;
                    }
                    let color = linear(color);
                    let mut from = pos.0;
                    for corner in ahead {
                        canvas.line(from, *corner, 1.5 * px, color);
                        from = *corner;
                    }
                    canvas.disc(from, 4.0 * px, 12, color);
                }
            }
            for (place, color) in &self.members {
                if let Some((at, _)) = place.place {
                    canvas.disc(at, 2.0 * px, 8, linear(color));
                }
            }
            for door in &self.doors {
                if let (Some((a, b)), Some(way)) = (door.opening(), door.way()) {
                    let (middle, half) = ((a + b) / 2.0, a.distance(b) / 2.0);
                    canvas.arrow(middle - way * half, middle + way * half, 2.0 * px, road);
                }
            }
        }
        if draw.look_ahead {
            let color = draw.radii_color.to_linear();
            for (pos, memory) in &self.lookers {
                if memory.look_ahead > 0.0 {
                    let end = pos.0 + memory.looking * memory.look_ahead;
                    canvas.line(pos.0, end, 1.0 * px, color);
                }
            }
        }
    }
}

/// Each agent's velocity and desired velocity as arrows, and each
/// avoider's soonest meeting.
#[derive(SystemParam)]
#[allow(clippy::type_complexity)]
pub(super) struct ArrowScene<'w, 's> {
    pub(super) draw: Res<'w, DebugDraw>,
    unit: Option<Res<'w, SteeringLengthUnit>>,
    ground: Option<Res<'w, GroundPlane>>,
    grid: Option<Res<'w, NeighborGrid>>,
    agents: Query<
        'w,
        's,
        (
            Entity,
            &'static Transform,
            &'static AgentVelocity,
            Option<&'static DesiredVelocity>,
            Option<&'static AgentColor>,
            Option<&'static AvoidAgents>,
        ),
        With<SteeringAgent>,
    >,
}

impl ArrowScene<'_, '_> {
    /// Whether there is anything to paint.
    pub(super) fn shown(&self) -> bool {
        self.draw.velocity || self.draw.desired || self.draw.foresight
    }

    pub(super) fn paint(&self, canvas: &mut impl Canvas) {
        let draw = &*self.draw;
        let px = pixel(self.unit.as_deref());
        let ground = self.ground.as_deref().copied().unwrap_or_default();
        let seconds = draw.arrow_seconds;
        for (entity, transform, vel, desired, color, avoids) in &self.agents {
            // Where the agent is drawn (its interpolated Transform).
            let from = ground.to_ground(transform.translation);
            let color = color.copied().unwrap_or_default().0;
            if draw.foresight
                && let (Some(avoid), Some(grid)) = (avoids, self.grid.as_deref())
                && let Some((mine, theirs)) = soonest_meeting(grid, entity, avoid)
            {
                let faint = color.with_alpha(0.6).to_linear();
                canvas.line(mine.0, mine.1, 1.0 * px, faint);
                canvas.line(theirs.0, theirs.1, 1.0 * px, faint);
                let touch = (mine.1 + theirs.1) * 0.5;
                canvas.disc(touch, 2.5 * px, 8, color.to_linear());
            }
            if draw.velocity {
                let to = from + vel.0 * seconds;
                canvas.arrow(from, to, 1.5 * px, color.to_linear());
            }
            if draw.desired
                && let Some(desired) = desired
            {
                let to = from + desired.0 * seconds;
                canvas.arrow(from, to, 1.0 * px, color.with_alpha(0.5).to_linear());
            }
        }
    }
}

/// Where an avoider and the neighbor it would touch soonest (within its
/// horizon, if both kept their velocities) are, and would be then: as the
/// grid has them at the step's start.
type Meeting = ((Vec2, Vec2), (Vec2, Vec2));

fn soonest_meeting(grid: &NeighborGrid, entity: Entity, avoid: &AvoidAgents) -> Option<Meeting> {
    let slot = grid.slot_of(entity)?;
    let (at, vel, radius) = grid.agent(slot);
    let rules = avoid.rules.sanitized();
    let reach = rules.reach(vel.length(), radius, grid.largest_radius());
    let mut soonest: Option<(f32, Vec2, Vec2)> = None;
    grid.for_each_within(at, reach, |other, offset, other_vel| {
        if other == slot {
            return;
        }
        let radius_sum = radius + grid.radius(other);
        if let Some(t) = time_to_collision(-offset, vel - other_vel, radius_sum)
            && t <= rules.horizon
            && soonest.is_none_or(|(s, ..)| t < s)
        {
            soonest = Some((t, at + offset, other_vel));
        }
    });
    soonest.map(|(t, there, other_vel)| ((at, at + vel * t), (there, there + other_vel * t)))
}

/// Every [`AgentTrail`], in its agent's color.
#[derive(SystemParam)]
pub(super) struct TrailScene<'w, 's> {
    pub(super) draw: Res<'w, DebugDraw>,
    unit: Option<Res<'w, SteeringLengthUnit>>,
    trails: Query<'w, 's, (&'static AgentTrail, Option<&'static AgentColor>)>,
}

impl TrailScene<'_, '_> {
    pub(super) fn paint(&self, canvas: &mut impl Canvas) {
        if !self.draw.trails {
            return;
        }
        let radius = self.draw.dot_radius.max(0.0) * pixel(self.unit.as_deref());
        for (trail, color) in &self.trails {
            canvas.trail(trail.points.iter(), radius, linear(color));
        }
    }
}
