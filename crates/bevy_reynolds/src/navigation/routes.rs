//! Routes: asked for a few a step for the agents that need one, found off
//! the step, and followed corner to corner.

use std::collections::VecDeque;
use std::sync::Arc;

use bevy::prelude::*;
use reynolds::level::Probe;
use reynolds::math::{closest_on_segment, direction};
use reynolds::model::sanitize_mass;
use reynolds::navigate::{
    GroundHint, Route, RouteEnd, RouteFollowing, corner_in_sight, follow_route,
};

use super::areas::NavigationAreas;
use super::work::{Work, steps_in};
use super::{
    Arrived, Goal, Navigate, NavigationRoute, NavigationSettings, NavigationStatus, Unreachable,
};
use crate::agent::{
    GroundPlane, Position, Priority, SteeringAccumulator, SteeringAgent, SteeringParams, Velocity,
    entity_on_ground,
};
use crate::crowd::AvoidAgents;
use crate::level::{Containment, IgnoreObstacles, ObstacleIndex};
use crate::math::Vector;

/// The body a route is planned for: the agent's radius and its clearance.
fn route_body(params: &SteeringParams, navigate: &Navigate) -> f32 {
    let clearance = if navigate.clearance.is_finite() {
        navigate.clearance.max(0.0)
    } else {
        0.0
    };
    params.radius.max(0.0) * (1.0 + clearance)
}

/// Where the goal is now, if it is anywhere.
fn goal_point(
    goal: Goal,
    ground: GroundPlane,
    places: &Query<(Option<&Position>, Option<&GlobalTransform>)>,
) -> Option<Vector> {
    match goal {
        Goal::Point(p) => p.is_finite().then_some(p),
        Goal::Entity(entity) => entity_on_ground(entity, ground, places),
    }
}

/// Routes being found off the step, in batches, each taken at its step.
#[derive(Resource, Default)]
pub(super) struct RoutesUnderWay {
    /// Asks made so far, to tell an agent's latest from those before.
    asks: u64,
    batches: VecDeque<Batch>,
}

/// One step's asks, and the routes being found for them.
struct Batch {
    asked: Vec<Asked>,
    work: Work<Vec<Option<Route>>>,
}

/// A route asked for.
struct Asked {
    agent: Entity,
    ask: u64,
    from: Vector,
    goal: Vector,
    /// The generation of the solids its ground was made from.
    made: u64,
    /// Whether that ground was out of date.
    provisional: bool,
    /// Whether it was asked for because the agent was sent somewhere.
    sent: bool,
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// the routes due given to their agents; then a route asked for each
/// agent that needs one (sent somewhere new, its goal moved off the
/// route's end, pushed off its way, or the level changed where its route
/// goes), at most [`NavigationSettings::routes_per_step`] a step, found
/// off the step and taken [`NavigationSettings::route_lag`] later.
#[allow(clippy::type_complexity)]
pub(super) fn plan_routes(
    settings: Res<NavigationSettings>,
    time: Res<Time>,
    ground: Res<GroundPlane>,
    mut areas: ResMut<NavigationAreas>,
    mut under_way: ResMut<RoutesUnderWay>,
    places: Query<(Option<&Position>, Option<&GlobalTransform>)>,
    mut agents: Query<
        (
            Entity,
            Ref<Navigate>,
            &Position,
            &SteeringParams,
            Option<&Containment>,
            &mut NavigationRoute,
            &mut NavigationStatus,
        ),
        With<SteeringAgent>,
    >,
    mut commands: Commands,
) {
    while under_way
        .batches
        .front()
        .is_some_and(|batch| batch.work.due <= areas.step())
    {
        let Some(batch) = under_way.batches.pop_front() else {
            break;
        };
        for (asked, found) in batch.asked.into_iter().zip(batch.work.finish()) {
            if let Ok((_, _, pos, _, _, mut route, mut status)) = agents.get_mut(asked.agent)
                && route.asked == Some(asked.ask)
            {
                take(&asked, found, pos.0, &mut route, &mut status, &mut commands);
            }
        }
    }

    let mut budget = settings.routes_per_step;
    let mut asked = Vec::new();
    let mut asked_on = Vec::new();
    for (entity, navigate, pos, params, containment, mut route, mut status) in &mut agents {
        let body = route_body(params, &navigate);
        let Some(goal) = goal_point(navigate.goal, *ground, &places) else {
            continue;
        };
        let moved_off = route
            .planned_for
            .is_none_or(|planned| planned.distance(goal) > body.max(f32::EPSILON));
        let sent = navigate.is_changed() || moved_off;
        if route.asked.is_some() && !sent {
            // Its route is on its way.
            continue;
        }
        let within = containment.map(|c| c.points.as_slice());
        let Some((made, _)) = areas.ready(body, within, &[pos.0, goal]) else {
            // Its ground is being made: routes after it.
            if sent && *status != NavigationStatus::Planning {
                *status = NavigationStatus::Planning;
            }
            continue;
        };
        // What is left of it: from the corner it last passed on.
        let ahead = route.corner.saturating_sub(1).min(route.points.len());
        let newer = route.generation != made;
        let stale = areas.touches(route.generation, made, &route.points[ahead..], body)
            || (newer && (route.provisional || *status == NavigationStatus::Unreachable));
        // Pushed off its way (by a crowd, or swinging wide round a
        // corner) farther than twice its body: a new route from where it is.
        let off_route = match route
            .points
            .get(route.corner.saturating_sub(1)..=route.corner)
        {
            Some([a, b]) => {
                let from = route.seen_from.unwrap_or(*a);
                pos.0.distance(closest_on_segment(pos.0, from, *b)) > 2.0 * body
            }
            _ => false,
        };
        if !(sent || stale || off_route) {
            // Nothing it goes past changed: the route still holds.
            route.bypass_change_detection().generation = made;
            continue;
        }
        if sent && *status != NavigationStatus::Planning {
            *status = NavigationStatus::Planning;
        }
        if budget == 0 {
            continue;
        }
        budget -= 1;
        let Some((made, area)) = areas.ready(body, within, &[pos.0, goal]) else {
            continue;
        };
        under_way.asks += 1;
        route.asked = Some(under_way.asks);
        route.planned_for = Some(goal);
        asked_on.push(Arc::clone(area));
        asked.push(Asked {
            agent: entity,
            ask: under_way.asks,
            from: pos.0,
            goal,
            made,
            provisional: made != areas.generation(),
            sent,
        });
    }
    if !asked.is_empty() {
        let ends: Vec<(Vector, Vector)> = asked.iter().map(|a| (a.from, a.goal)).collect();
        let due = areas.step() + steps_in(settings.route_lag, time.delta_secs());
        // Route by route, each between frames where it can be.
        let work = Work::start(due, &areas.frames, move |gate| {
            asked_on
                .iter()
                .zip(ends)
                .map(|(area, (from, goal))| {
                    gate.wait();
                    area.route(from, goal)
                })
                .collect()
        });
        under_way.batches.push_back(Batch { asked, work });
    }
}

/// In `First`: a frame begins, and work off the step waits between its
/// pieces.
pub(super) fn frame_begins(areas: Res<NavigationAreas>) {
    areas.frames.begin();
}

/// After `Last` (in a schedule of its own): the frame has ended, and work
/// off the step goes on.
pub(super) fn frame_ends(areas: Res<NavigationAreas>) {
    areas.frames.end();
}

/// Gives an agent now at `pos` the route found for it (`None`: there was
/// no ground at all, and it stays where it was asked from).
fn take(
    asked: &Asked,
    found: Option<Route>,
    pos: Vector,
    route: &mut Mut<NavigationRoute>,
    status: &mut Mut<NavigationStatus>,
    commands: &mut Commands,
) {
    let Some(found) = found else {
        **route = NavigationRoute {
            points: vec![asked.from],
            corner: 0,
            planned_for: Some(asked.goal),
            generation: asked.made,
            provisional: asked.provisional,
            asked: None,
            seen_from: None,
        };
        set(status, NavigationStatus::Unreachable, asked.agent, commands);
        return;
    };
    // It went on meanwhile: the route starts from where it is now (else
    // it would be that far off its way).
    let mut points = found.points;
    if let Some(start) = points.first_mut()
        && pos.is_finite()
    {
        *start = pos;
    }
    **route = NavigationRoute {
        points,
        corner: 1,
        planned_for: Some(asked.goal),
        generation: asked.made,
        provisional: asked.provisional,
        asked: None,
        seen_from: None,
    };
    let now = match found.end {
        RouteEnd::Goal | RouteEnd::NearestFree => NavigationStatus::Following,
        RouteEnd::NearestReachable => NavigationStatus::Unreachable,
    };
    if found.end == RouteEnd::NearestFree && asked.sent {
        warn_once!(
            "a navigating agent's goal ({}) is no place for its body (inside an obstacle, or outside its containment): it goes to the nearest place that is",
            asked.goal
        );
    }
    set(status, now, asked.agent, commands);
}

/// Sets a status, triggering [`Unreachable`] when it becomes that.
fn set(
    status: &mut Mut<NavigationStatus>,
    now: NavigationStatus,
    entity: Entity,
    commands: &mut Commands,
) {
    if **status != now {
        **status = now;
        if now == NavigationStatus::Unreachable {
            commands.trigger(Unreachable { entity });
        }
    }
}

/// How often a follower looks past the corner it heads for, in steps,
/// each on a step of its own: a look is a probe along its way, dear beside
/// following, and looking every step passed crowds through doors no better
/// (BENCHMARKS.md, "Routes through a crowd").
const LOOK_PAST_EVERY: u64 = 4;

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each agent with a route heads for its next corner (arriving at the
/// last), in [`Priority::Normal`]; reaching the end triggers [`Arrived`].
#[allow(clippy::type_complexity)]
pub(super) fn follow_routes(
    mut agents: Query<
        (
            Entity,
            &Navigate,
            &Position,
            &Velocity,
            &SteeringParams,
            Option<&Containment>,
            &mut NavigationRoute,
            &mut NavigationStatus,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
    index: Res<ObstacleIndex>,
    mut step: Local<u64>,
    mut commands: Commands,
) {
    *step += 1;
    for (entity, navigate, pos, vel, params, containment, mut route, mut status, mut steering) in
        &mut agents
    {
        if route.points.is_empty() {
            continue;
        }
        let radius = params.radius.max(0.0);
        let clearance = navigate.clearance.clamp(0.0, 1.0);
        // On past a corner it sees past: pushed off its line by a crowd,
        // or beside a round corner's first points (BENCHMARKS.md, "Routes
        // through a crowd").
        let body = radius * (1.0 + clearance);
        let sees = |to| in_sight(&index, containment, pos.0, to, body);
        let looks = (*step + u64::from(entity.index_u32())).is_multiple_of(LOOK_PAST_EVERY);
        if let Some(corner) = looks
            .then(|| corner_in_sight(&route.points, route.corner, sees))
            .flatten()
        {
            route.corner = corner;
            route.seen_from = Some(pos.0);
        }
        let how = RouteFollowing {
            max_speed: params.max_speed,
            max_accel: params.max_force / sanitize_mass(params.mass),
            slowing_radius: params.slowing_radius,
            reach: radius * clearance,
            room: (2.0 * radius * (1.0 + clearance)).max(0.5 * params.min_look_ahead),
            response_time: params.response_time,
        };
        let step = follow_route(&route.points, route.corner, pos.0, how);
        if route.corner != step.corner {
            route.corner = step.corner;
            route.seen_from = None;
        }
        steering.add_desired(
            Priority::Normal,
            1.0,
            step.desired,
            vel.0,
            params.response_time,
        );
        let end = *route.points.last().expect("a route has points");
        let there = pos.0.distance(end) <= (0.5 * radius).max(0.01 * params.slowing_radius);
        if there && *status == NavigationStatus::Following {
            *status = NavigationStatus::Arrived;
            commands.trigger(Arrived { entity });
        }
    }
}

/// Whether a body of `radius` goes straight from `from` to `to` touching
/// no obstacle, and staying inside `containment` if it has one (never from
/// or to a place that is not finite).
fn in_sight(
    index: &ObstacleIndex,
    containment: Option<&Containment>,
    from: Vector,
    to: Vector,
    radius: f32,
) -> bool {
    let probe = Probe {
        from,
        dir: direction(to - from),
        length: from.distance(to),
        radius,
    };
    from.is_finite()
        && to.is_finite()
        && index.first_hit(&probe).is_none()
        && containment.is_none_or(|c| c.lets_through(&probe))
}

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
    mut agents: Query<
        (
            &mut Position,
            &mut Velocity,
            &mut OnGround,
            &SteeringParams,
            Option<&Containment>,
            Has<AvoidAgents>,
            Has<IgnoreObstacles>,
        ),
        (With<Navigate>, With<SteeringAgent>),
    >,
) {
    for (mut pos, mut vel, mut on_ground, params, containment, avoids, ignores_obstacles) in
        &mut agents
    {
        let radius = params.radius.max(0.0);
        let within = containment.map(|c| c.points.as_slice());
        let Some(area) = areas.area(radius, within, &[pos.0]) else {
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
