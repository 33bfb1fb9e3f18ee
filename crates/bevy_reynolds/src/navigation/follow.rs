//! Routes followed: each navigating agent heads for its next corner
//! (straight for its goal while its first route is found), and its
//! progress is watched for stalls.

use bevy::prelude::*;
use reynolds::level::Probe;
use reynolds::math::direction;
use reynolds::model::sanitize_mass;
use reynolds::navigate::{RouteFollowing, corner_in_sight, follow_route};

use super::{Arrived, Navigate, NavigationRoute, NavigationStatus, STALL_AFTER, Stalled};
use crate::agent::{
    AgentPosition, AgentVelocity, GroundPlane, SteeringAccumulator, SteeringAgent, SteeringParams,
    SteeringPriority,
};
use crate::flocking::NeighborGrid;
use crate::level::{Containment, ObstacleIndex};
use crate::math::Vector;

/// How far (in bodies, its clearance in) a new goal may be from the end of
/// the route an agent walks for it to go on walking that route while the
/// new one is found, rather than straight for the goal: a goal dragged a
/// little keeps its route, one sent elsewhere does not.
const PROVISIONAL_PAST: f32 = 4.0;

/// How often a follower looks past the corner it heads for, in steps,
/// each on a step of its own: a look is a probe along its way, dear beside
/// following, and looking every step passed crowds through doors no better
/// (BENCHMARKS.md, "Routes through a crowd").
const LOOK_PAST_EVERY: u64 = 4;

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each agent with a route heads for its next corner (arriving at the
/// last), in [`SteeringPriority::Normal`]; reaching the end triggers [`Arrived`].
#[allow(clippy::type_complexity)]
pub(super) fn follow_routes(
    mut agents: Query<
        (
            Entity,
            &Navigate,
            &AgentPosition,
            &AgentVelocity,
            &SteeringParams,
            Option<&Containment>,
            &mut NavigationRoute,
            &mut NavigationStatus,
            &mut SteeringAccumulator,
            &mut Progress,
        ),
        With<SteeringAgent>,
    >,
    index: Res<ObstacleIndex>,
    grid: Option<Res<NeighborGrid>>,
    time: Res<Time>,
    ground: Res<GroundPlane>,
    places: Query<(Option<&AgentPosition>, Option<&GlobalTransform>)>,
    mut step: Local<u64>,
    mut commands: Commands,
) {
    *step += 1;
    for (
        entity,
        navigate,
        pos,
        vel,
        params,
        containment,
        mut route,
        mut status,
        mut steering,
        mut progress,
    ) in &mut agents
    {
        let radius = params.body_radius();
        let clearance = navigate.clearance.clamp(0.0, 1.0);
        let body = radius * (1.0 + clearance);
        let how = RouteFollowing {
            max_speed: params.max_speed,
            max_accel: params.max_force / sanitize_mass(params.mass),
            slowing_radius: params.slowing_radius,
            reach: radius * clearance,
            room: (2.0 * radius * (1.0 + clearance)).max(0.5 * params.min_look_ahead),
            response_time: params.response_time,
        };
        let mut steer = |desired| {
            steering.add_desired(
                SteeringPriority::Normal,
                1.0,
                desired,
                vel.0,
                params.response_time,
            );
        };
        // Sent where its route (if any) does not go: straight for the goal
        // until its route comes, so that a unit moves in the step after
        // its order (standing still for its route, a thousand sent at once
        // stood for seconds).
        if *status == NavigationStatus::Planning
            && let Some(goal) = navigate.goal.point(*ground, &places)
            && route
                .points
                .last()
                .is_none_or(|end| end.distance(goal) > PROVISIONAL_PAST * body)
        {
            steer(follow_route(&[pos.0, goal], 1, pos.0, how).desired);
            continue;
        }
        if route.points.is_empty() {
            continue;
        }
        // On past a corner it sees past: pushed off its line by a crowd,
        // or beside a round corner's first points (BENCHMARKS.md, "Routes
        // through a crowd").
        let sees = |to| in_sight(&index, containment, pos.0, to, body);
        let looks = (*step + u64::from(entity.index_u32())).is_multiple_of(LOOK_PAST_EVERY);
        if let Some(corner) = looks
            .then(|| corner_in_sight(&route.points, route.corner, sees))
            .flatten()
        {
            route.corner = corner;
            route.seen_from = Some(pos.0);
        }
        let step = follow_route(&route.points, route.corner, pos.0, how);
        if route.corner != step.corner {
            route.corner = step.corner;
            route.seen_from = None;
        }
        steer(step.desired);
        let end = *route.points.last().expect("a route has points");
        let there = pos.0.distance(end) <= (0.5 * radius).max(0.01 * params.slowing_radius);
        if there && *status == NavigationStatus::Following {
            *status = NavigationStatus::Arrived;
            commands.trigger(Arrived { entity });
        }
        // Coming nearer its goal, by half a body at least every STALL_AFTER?
        let went = match *status {
            NavigationStatus::Following | NavigationStatus::Stalled => {
                progress.went(route.remaining(pos.0), 0.5 * radius, time.delta_secs())
            }
            _ => continue,
        };
        match went {
            Went::On if *status == NavigationStatus::Stalled => {
                *status = NavigationStatus::Following;
            }
            Went::On | Went::NowhereYet => {}
            Went::NowhereOnItsRoute => route.again = true,
            Went::Nowhere if *status == NavigationStatus::Stalled => {}
            Went::Nowhere => {
                *status = NavigationStatus::Stalled;
                commands.trigger(Stalled { entity });
                if !progress.warned {
                    progress.warned = true;
                    let crowded = grid.as_ref().is_some_and(|grid| {
                        grid.within(pos.0, 3.0 * radius)
                            .any(|(other, _)| other != entity)
                    });
                    warn_stalled(entity, crowded);
                }
            }
        }
    }
}

/// The warning for an agent that stalled: once an agent, and of those held
/// by a crowd (waiting their turn at a door, say), once an app, since a
/// crowd of them would fill the log.
fn warn_stalled(entity: Entity, crowded: bool) {
    if crowded {
        warn_once!(
            "agent {entity} has come no nearer its goal for {STALL_AFTER} s, even on a route \
             planned again: others press round it (a crowd, or a door taking turns); it is \
             Stalled and keeps trying (others held by crowds are not logged: observe Stalled)"
        );
    } else {
        warn!(
            "agent {entity} has come no nearer its goal for {STALL_AFTER} s, even on a route \
             planned again: something its route does not go round holds it (a MovingObstacle, \
             its Containment, or its other steering); it is Stalled and keeps trying"
        );
    }
}

/// How a navigating agent is getting on: the least route it has had left
/// lately, and for how long it has come no nearer.
#[derive(Component, Debug, Clone, Copy)]
pub(super) struct Progress {
    /// The least length left it has had since it last came nearer.
    least: f32,
    /// Seconds since it last came nearer.
    idle: f32,
    /// Whether it was planned again for coming no nearer.
    planned_again: bool,
    /// Whether a stall of its was warned of.
    warned: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Self {
            least: f32::INFINITY,
            idle: 0.0,
            planned_again: false,
            warned: false,
        }
    }
}

/// What a step's progress comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Went {
    /// Nearer its goal.
    On,
    /// No nearer, for less than [`STALL_AFTER`].
    NowhereYet,
    /// No nearer for [`STALL_AFTER`]: plan it again.
    NowhereOnItsRoute,
    /// No nearer for [`STALL_AFTER`], on a route planned for that: stalled.
    Nowhere,
}

impl Progress {
    /// A step after which `left` of its route is left: nearer its goal if
    /// that is at least `by` less than the least it has had.
    fn went(&mut self, left: f32, by: f32, dt: f32) -> Went {
        if !left.is_finite() {
            return Went::NowhereYet;
        }
        if left < self.least - by.max(f32::EPSILON) || !self.least.is_finite() {
            *self = Self {
                least: left,
                idle: 0.0,
                planned_again: false,
                ..*self
            };
            return Went::On;
        }
        self.idle += reynolds::math::sanitize_dt(dt);
        if self.idle < STALL_AFTER {
            return Went::NowhereYet;
        }
        self.idle = 0.0;
        if self.planned_again {
            Went::Nowhere
        } else {
            self.planned_again = true;
            Went::NowhereOnItsRoute
        }
    }

    /// A new route was taken: progress is measured along it from `pos`,
    /// and from the start if it was sent somewhere new.
    pub(super) fn route_taken(&mut self, route: &NavigationRoute, pos: Vector, sent: bool) {
        self.least = route.remaining(pos);
        if sent {
            self.idle = 0.0;
            self.planned_again = false;
        }
    }
}

/// Whether a body of `radius` goes straight from `from` to `to` touching
/// no obstacle, and staying inside `containment` if it has one (never from
/// or to a place that is not finite).
pub(super) fn in_sight(
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
