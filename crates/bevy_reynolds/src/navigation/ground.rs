//! A navigating body kept on its ground: stopped where it meets an
//! obstacle, and put back where it fits if it swung into one.

use bevy::prelude::*;
use reynolds::level::Probe;
use reynolds::math::direction;
use reynolds::navigate::GroundHint;

use super::areas::NavigationAreas;
use super::{Navigate, NavigationRoute};
use crate::agent::{
    AgentPosition, AgentPreviousPosition, AgentVelocity, SteeringAgent, SteeringParams,
};
use crate::crowd::AvoidAgents;
use crate::level::{Containment, IgnoreObstacles, ObstacleIndex};
use crate::math::Vector;

/// Where on its walkable area a navigating agent was last found, to look
/// there first: most steps it has not left that polygon, and finding one
/// in the area's tree was half of a walking step (BENCHMARKS.md).
#[derive(Component, Debug, Default, Clone, Copy)]
pub(super) struct OnGround(GroundHint);

/// Part of [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate),
/// after the step: a navigating agent whose body went into an obstacle
/// (swinging wide round a corner, pushed by a crowd) is put back at the
/// nearest place it fits, and its velocity into the obstacle taken away,
/// as a body meeting a wall would. The route keeps it clear; this keeps it
/// clear whatever else steers it.
///
/// An agent that [avoids others](AvoidAgents) has its body kept off the
/// obstacles already, to their exact shapes, by the contact step. The area
/// stands a little farther out (made for its body rounded up, its round
/// ends cut into polygons round them), and putting such an agent back on
/// it every step pushed it into the neighbors pressing it against a wall
/// (9 to 14 px deep in a crowd of 200 through the office's doors): it is put
/// back only from a quarter of its radius out (a rock's polygon stands
/// 0.5% of the rock's grown radius beyond it, 2 px for a rock of 400),
/// as when something else pushed it or it left its containment.
pub(super) fn keep_on_ground(
    mut areas: ResMut<NavigationAreas>,
    index: Res<ObstacleIndex>,
    time: Res<Time>,
    mut agents: Query<
        (
            &mut AgentPosition,
            &AgentPreviousPosition,
            &mut AgentVelocity,
            &mut OnGround,
            &SteeringParams,
            Option<&Containment>,
            &NavigationRoute,
            Has<AvoidAgents>,
            Has<IgnoreObstacles>,
        ),
        (With<Navigate>, With<SteeringAgent>),
    >,
) {
    let dt = time.delta_secs();
    for (
        mut pos,
        previous,
        mut vel,
        mut on_ground,
        params,
        containment,
        route,
        avoids,
        ignores_obstacles,
    ) in &mut agents
    {
        let radius = params.body_radius();
        if !ignores_obstacles {
            // Heading straight for its goal before it has a route (and
            // its ground may not be made yet): its whole body is stopped
            // where it meets an obstacle, and waits there for its route.
            let swept = if route.points.is_empty() { radius } else { 0.0 };
            let step = Step {
                from: previous.0,
                dt,
                radius,
                swept,
            };
            stop_short_of_crossing(&index, step, &mut pos.0, &mut vel.0);
        }
        let within = containment.map(|c| c.points.as_slice());
        // An open ground reaching its goal as well: made round where it
        // is alone, it was made again for every step it took toward it.
        let goal = route.planned_for.unwrap_or(pos.0);
        let Some(area) = areas.area(radius, within, &[pos.0, goal]) else {
            continue;
        };
        if area.is_free_from(pos.0, &mut on_ground.bypass_change_detection().0) {
            continue;
        }
        let Some(free) = area.nearest_free(pos.0) else {
            continue;
        };
        if avoids && !ignores_obstacles && pos.0.distance(free) <= 0.25 * radius {
            continue;
        }
        let out = reynolds::math::direction(free - pos.0);
        let into = vel.0.dot(out).min(0.0);
        pos.0 = free;
        vel.0 -= out * into;
    }
}

/// A body's step: from where, in what time, its radius, and the radius of
/// what is swept along it (its middle, or its whole body).
#[derive(Clone, Copy)]
struct Step {
    from: Vector,
    dt: f32,
    radius: f32,
    swept: f32,
}

/// A body whose middle stepped across an obstacle's edge is stopped where
/// it met it, its velocity into it taken away: a small body's step round a
/// corner can cross the thin band the route keeps it off a still one by
/// (put back at the nearest free place, it came out on the far side,
/// inside a box it then had no way out of), and nothing else keeps a
/// follower off a [`MovingObstacle`](super::MovingObstacle), which its
/// route does not go round.
fn stop_short_of_crossing(index: &ObstacleIndex, step: Step, to: &mut Vector, vel: &mut Vector) {
    let Step {
        from,
        dt,
        radius,
        swept,
    } = step;
    let step = from.distance(*to);
    // Not a step at all (a teleport, a wrap round the world) past twice
    // the velocity's reach.
    let reach = 2.0 * vel.length() * dt;
    if !(step > 0.0 && step <= reach && from.is_finite()) {
        return;
    }
    let dir = direction(*to - from);
    let probe = Probe {
        from,
        dir,
        length: step,
        radius: swept,
    };
    if let Some(hit) = index.first_hit(&probe) {
        *to = from + dir * (hit.at - 0.01 * radius).max(0.0);
        *vel -= dir * vel.dot(dir).max(0.0);
    }
}
