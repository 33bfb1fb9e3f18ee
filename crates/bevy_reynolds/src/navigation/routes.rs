//! Routes: planned a few a step for the agents that need one, and followed
//! corner to corner.

use bevy::prelude::*;
use reynolds::math::closest_on_segment;
use reynolds::model::sanitize_mass;
use reynolds::navigate::{RouteEnd, RouteFollowing, follow_route};

use super::areas::NavigationAreas;
use super::{
    Arrived, Goal, Navigate, NavigationRoute, NavigationSettings, NavigationStatus, Unreachable,
};
use crate::agent::{
    GroundPlane, Position, Priority, SteeringAccumulator, SteeringAgent, SteeringParams, Velocity,
};
use crate::level::Containment;
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
        Goal::Entity(entity) => match places.get(entity).ok()? {
            (Some(p), _) => Some(p.0),
            (None, Some(g)) => Some(ground.to_ground(g.translation())),
            (None, None) => None,
        },
    }
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// a route for each agent that needs one (sent somewhere new, its goal
/// moved off the route's end, or the level changed where its route goes),
/// at most [`NavigationSettings::routes_per_step`] a step.
#[allow(clippy::type_complexity)]
pub(super) fn plan_routes(
    settings: Res<NavigationSettings>,
    ground: Res<GroundPlane>,
    mut areas: ResMut<NavigationAreas>,
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
    let mut budget = settings.routes_per_step;
    for (entity, navigate, pos, params, containment, mut route, mut status) in &mut agents {
        let body = route_body(params, &navigate);
        let Some(goal) = goal_point(navigate.goal, *ground, &places) else {
            continue;
        };
        let moved_off = route
            .planned_for
            .is_none_or(|planned| planned.distance(goal) > body.max(f32::EPSILON));
        // What is left of it: from the corner it last passed on.
        let ahead = route.corner.saturating_sub(1).min(route.points.len());
        let stale = areas.touches(route.generation, &route.points[ahead..], body)
            || (*status == NavigationStatus::Unreachable && route.generation != areas.generation());
        // Pushed off its way (by a crowd, or swinging wide round a
        // corner) farther than twice its body: a new route from where it is.
        let off_route = match route
            .points
            .get(route.corner.saturating_sub(1)..=route.corner)
        {
            Some([a, b]) => pos.0.distance(closest_on_segment(pos.0, *a, *b)) > 2.0 * body,
            _ => false,
        };
        let sent = navigate.is_changed() || moved_off || off_route;
        if !(sent || stale) {
            // Nothing it goes past changed: the route still holds.
            route.bypass_change_detection().generation = areas.generation();
            continue;
        }
        if budget == 0 {
            if sent && *status != NavigationStatus::Planning {
                *status = NavigationStatus::Planning;
            }
            continue;
        }
        budget -= 1;
        let within = containment.map(|c| c.points.as_slice());
        let Some(found) = areas.route(body, within, pos.0, goal) else {
            // No ground at all: stay.
            *route = NavigationRoute {
                points: vec![pos.0],
                corner: 0,
                planned_for: Some(goal),
                generation: areas.generation(),
            };
            set(
                &mut status,
                NavigationStatus::Unreachable,
                entity,
                &mut commands,
            );
            continue;
        };
        *route = NavigationRoute {
            points: found.points,
            corner: 1,
            planned_for: Some(goal),
            generation: areas.generation(),
        };
        let now = match found.end {
            RouteEnd::Goal | RouteEnd::NearestFree => NavigationStatus::Following,
            RouteEnd::NearestReachable => NavigationStatus::Unreachable,
        };
        if found.end == RouteEnd::NearestFree && sent {
            warn_once!(
                "a navigating agent's goal ({goal}) is no place for its body (inside an obstacle, or outside its containment): it goes to the nearest place that is"
            );
        }
        set(&mut status, now, entity, &mut commands);
    }
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
            &mut NavigationRoute,
            &mut NavigationStatus,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
    mut commands: Commands,
) {
    for (entity, navigate, pos, vel, params, mut route, mut status, mut steering) in &mut agents {
        if route.points.is_empty() {
            continue;
        }
        let radius = params.radius.max(0.0);
        let clearance = navigate.clearance.clamp(0.0, 1.0);
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

/// Part of [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate),
/// after the step: a navigating agent whose body went into an obstacle
/// (swinging wide round a corner, pushed by a crowd) is put back at the
/// nearest place it fits, and its velocity into the obstacle taken away,
/// as a body meeting a wall would. The route keeps it clear; this keeps it
/// clear whatever else steers it.
pub(super) fn keep_on_ground(
    mut areas: ResMut<NavigationAreas>,
    mut agents: Query<
        (
            &mut Position,
            &mut Velocity,
            &SteeringParams,
            Option<&Containment>,
        ),
        (With<Navigate>, With<SteeringAgent>),
    >,
) {
    for (mut pos, mut vel, params, containment) in &mut agents {
        let within = containment.map(|c| c.points.as_slice());
        let area = areas.area(params.radius.max(0.0), within, &[pos.0]);
        if area.is_free(pos.0) {
            continue;
        }
        let Some(free) = area.nearest_free(pos.0) else {
            continue;
        };
        let out = reynolds::math::direction(free - pos.0);
        let into = vel.0.dot(out).min(0.0);
        pos.0 = free;
        vel.0 -= out * into;
    }
}
