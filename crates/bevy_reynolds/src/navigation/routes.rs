//! Routes: asked for the agents that need one, found off the step, paid
//! for out of a budget of search work, and taken a set lag later; a goal
//! dragged a little mended without a search.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex, PoisonError};

use bevy::prelude::*;
use reynolds::math::closest_on_segment;
use reynolds::navigate::{Route, RouteEnd, WalkableArea};

use super::areas::NavigationAreas;
use super::follow::{Progress, in_sight};
use super::work::{Work, steps_in};
use super::{Navigate, NavigationRoute, NavigationSettings, NavigationStatus, Unreachable};
use crate::agent::{AgentPosition, GroundPlane, SteeringAgent, SteeringParams};
use crate::level::{Containment, ObstacleIndex};
use crate::math::Vector;

/// The body a route is planned for: the agent's body (a point's too, see
/// [`SteeringParams::body_radius`]) and its clearance.
fn route_body(params: &SteeringParams, navigate: &Navigate) -> f32 {
    let clearance = if navigate.clearance.is_finite() {
        navigate.clearance.max(0.0)
    } else {
        0.0
    };
    params.body_radius() * (1.0 + clearance)
}

/// Routes being found off the step, in batches, paid for in order out of
/// a budget of search work a step, each taken a set lag after it was
/// paid for.
#[derive(Resource, Default)]
pub(super) struct RoutesUnderWay {
    /// Asks made so far, to tell an agent's latest from those before.
    asks: u64,
    batches: VecDeque<Batch>,
    /// The search work the budget has left for the route it is on: carried
    /// from step to step while one costs more than a step's, none while
    /// nothing waits (work is never banked for later).
    credit: u64,
    /// Routes paid for, with the step each is taken at.
    paid: VecDeque<(u64, Asked, Option<Route>)>,
    /// The gaps between steps whose payments are not worked out yet.
    gaps: VecDeque<Gap>,
}

/// One step's asks, and the routes being found for them, each sent back
/// with its work as it is found.
struct Batch {
    /// The step it was asked in.
    step: u64,
    /// Its asks not yet paid for.
    asked: VecDeque<Asked>,
    /// The next of them found, if it came and was not yet paid for.
    next: Option<(Option<Route>, u32)>,
    /// (In a mutex only to make the resource `Sync`: it is only ever
    /// reached through `&mut`.)
    found: Mutex<Receiver<(Option<Route>, u32)>>,
    work: Option<Work<()>>,
}

impl Batch {
    /// Its next route and the work it took, waiting for it if it is not
    /// found yet (the machine is slower than the budget assumes).
    fn peek(&mut self) -> &(Option<Route>, u32) {
        let receiver = self.found.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.next.get_or_insert_with(|| {
            if let Ok(found) = receiver.try_recv() {
                return found;
            }
            if let Some(work) = &self.work {
                work.want();
            }
            match receiver.recv() {
                Ok(found) => found,
                // Its thread ended before sending it: it panicked, and
                // the panic goes on here.
                Err(_) => {
                    if let Some(work) = self.work.take() {
                        work.finish();
                    }
                    (None, 1)
                }
            }
        })
    }
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
/// goes), found off the step within [`NavigationSettings::search_per_second`]
/// and taken [`NavigationSettings::route_lag`] after it is paid for.
#[allow(clippy::type_complexity)]
pub(super) fn plan_routes(
    settings: Res<NavigationSettings>,
    time: Res<Time>,
    ground: Res<GroundPlane>,
    mut areas: ResMut<NavigationAreas>,
    mut under_way: ResMut<RoutesUnderWay>,
    index: Res<ObstacleIndex>,
    places: Query<(Option<&AgentPosition>, Option<&GlobalTransform>)>,
    mut agents: Query<
        (
            Entity,
            Ref<Navigate>,
            &AgentPosition,
            &SteeringParams,
            Option<&Containment>,
            &mut NavigationRoute,
            &mut NavigationStatus,
            &mut Progress,
        ),
        With<SteeringAgent>,
    >,
    mut commands: Commands,
) {
    pay_for_routes(
        &mut under_way,
        areas.step(),
        settings.search_per_second,
        time.delta_secs(),
        steps_in(settings.route_lag, time.delta_secs()),
    );
    while under_way
        .paid
        .front()
        .is_some_and(|(due, _, _)| *due <= areas.step())
    {
        let Some((_, asked, found)) = under_way.paid.pop_front() else {
            break;
        };
        let Ok((_, _, pos, _, _, mut route, mut status, mut progress)) =
            agents.get_mut(asked.agent)
        else {
            continue;
        };
        // A route asked for before its latest ask (its goal moved on
        // meanwhile, say, as a game drags an order) is still taken by
        // an agent that has none yet, to walk until the latest comes:
        // dropped, the agent stood still while its goal moved.
        let latest = route.asked == Some(asked.ask);
        if !latest && !route.points.is_empty() {
            continue;
        }
        let pending = (route.asked, route.planned_for, route.planned_body);
        take(&asked, found, pos.0, &mut route, &mut status, &mut commands);
        if !latest {
            (route.asked, route.planned_for, route.planned_body) = pending;
        }
        progress.route_taken(&route, pos.0, asked.sent);
    }

    let mut asks = (Vec::new(), Vec::new());
    let (mut first, mut again) = (Vec::new(), Vec::new());
    for (entity, navigate, pos, params, containment, mut route, mut status, _) in &mut agents {
        let body = route_body(params, &navigate);
        let Some(goal) = navigate.goal.point(*ground, &places) else {
            continue;
        };
        // Sent somewhere new: its goal moved off the route's end, or its
        // body changed. A goal written again (a game's system writing the
        // order every frame, or inserting it again) is not a new order:
        // taken as one, each write asked for a route again and the agent
        // stood still waiting for it.
        let sees = |from: Vector, to: Vector| in_sight(&index, containment, from, to, body);
        let moved_off = route
            .planned_for
            .is_none_or(|planned| planned.distance(goal) > body.max(f32::EPSILON));
        let sent = moved_off || route.planned_body != body;
        if moved_off && route.planned_body == body && mend(&mut route, *status, pos.0, goal, sees) {
            if *status != NavigationStatus::Following {
                *status = NavigationStatus::Following;
            }
            continue;
        }
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
        // From where it saw past the corner it had: it heads straight
        // for the next from there.
        let seen_way = match (route.seen_from, route.points.get(route.corner)) {
            (Some(from), Some(to)) => areas.touches(route.generation, made, &[from, *to], body),
            _ => false,
        };
        let stale = areas.touches(route.generation, made, &route.points[ahead..], body)
            || seen_way
            || (newer && (route.provisional || *status == NavigationStatus::Unreachable))
            || route.again;
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
        // One with a route to walk meanwhile asks after those with none:
        // asked in turn, the re-plans of a crowd pushed off its routes took
        // the budget from agents still standing, waiting for their first.
        if route.points.is_empty() {
            first.push((entity, sent));
        } else {
            again.push((pos.0.distance_squared(goal), entity, sent));
        }
    }
    // Re-plans nearest their goal first: the nearest are the soonest there.
    again.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let again = again.into_iter().map(|(_, entity, sent)| (entity, sent));
    for (entity, sent) in first.into_iter().chain(again) {
        let Ok((_, navigate, pos, params, containment, mut route, _, _)) = agents.get_mut(entity)
        else {
            continue;
        };
        let Some(goal) = navigate.goal.point(*ground, &places) else {
            continue;
        };
        let ends = Ends {
            from: pos.0,
            goal,
            body: route_body(params, &navigate),
            within: containment.map(|c| c.points.as_slice()),
        };
        ask(
            &mut areas,
            &mut under_way,
            &mut route,
            entity,
            ends,
            sent,
            &mut asks,
        );
    }
    let (asked, asked_on) = asks;
    if !asked.is_empty() {
        let ends: Vec<(Vector, Vector)> = asked.iter().map(|a| (a.from, a.goal)).collect();
        let (send, found) = channel();
        // Route by route, each between frames where it can be, each sent
        // back as it is found.
        let work = Work::start(areas.step(), &areas.frames, move |gate| {
            for (area, (from, goal)) in asked_on.iter().zip(ends) {
                gate.wait();
                let (route, nodes) = area.route_counted(from, goal);
                if send.send((route, work_of(nodes, area))).is_err() {
                    break;
                }
            }
        });
        under_way.batches.push_back(Batch {
            step: areas.step(),
            asked: asked.into(),
            next: None,
            found: Mutex::new(found),
            work: Some(work),
        });
    }
}

/// The work of a search that expanded `nodes` on `area`, in nodes of a
/// small ground: a node on a ground of many polygons takes longer (its
/// mesh outgrows the caches), and counted alike, the budget a small
/// ground needs kept a core busy there and steps waited for the routes
/// (BENCHMARKS.md, "Move orders"). Each counts 1 + log10(polygons / 1,000)
/// from 1,000 polygons up.
pub(super) fn work_of(nodes: u32, area: &WalkableArea) -> u32 {
    let polygons = area.polygon_count().max(1) as f64;
    let weight = 1.0 + (polygons / 1_000.0).log10().max(0.0);
    (f64::from(nodes) * weight).ceil().min(f64::from(u32::MAX)) as u32
}

/// Pays for the routes asked before step `step`, in the order asked, out
/// of the search work a step of `dt` buys at `per_second` (nodes
/// expanded): each paid for in the gap before a step is taken `lag` steps
/// after the step before it. The work is counted, not timed, so routes
/// come at the same steps on every machine.
///
/// A gap's payment is worked out only when its routes are due (`lag`
/// steps on), as the routes are taken: it needs each route's work, known
/// once the route is found, and worked out at once a step waited for
/// the thread finding them. A step waits only for a route due and not
/// found yet.
fn pay_for_routes(under_way: &mut RoutesUnderWay, step: u64, per_second: u32, dt: f32, lag: u64) {
    let dt = if dt.is_finite() && dt > 0.0 {
        dt
    } else {
        1.0 / 60.0
    };
    if let Some(after) = step.checked_sub(1) {
        under_way.gaps.push_back(Gap {
            after,
            work: (f64::from(per_second) * f64::from(dt)).ceil().max(1.0) as u64,
            due: after + lag,
        });
    }
    while under_way.gaps.front().is_some_and(|gap| gap.due <= step) {
        let Some(gap) = under_way.gaps.pop_front() else {
            break;
        };
        pay_in(under_way, gap);
    }
}

/// The gap after a step: the search work it buys, and the step the routes
/// it pays for are taken at.
#[derive(Clone, Copy)]
struct Gap {
    after: u64,
    work: u64,
    due: u64,
}

/// Pays for what `gap` buys of the routes asked by its step.
fn pay_in(under_way: &mut RoutesUnderWay, gap: Gap) {
    let waiting = under_way
        .batches
        .iter()
        .any(|batch| batch.step <= gap.after && !batch.asked.is_empty());
    if !waiting {
        under_way.credit = 0;
        return;
    }
    under_way.credit = under_way.credit.saturating_add(gap.work);
    while let Some(batch) = under_way.batches.front_mut() {
        if batch.step > gap.after {
            break;
        }
        if batch.asked.is_empty() {
            under_way.batches.pop_front();
            continue;
        }
        let cost = u64::from(batch.peek().1);
        if cost > under_way.credit {
            break;
        }
        under_way.credit -= cost;
        let (Some(asked), Some((found, _))) = (batch.asked.pop_front(), batch.next.take()) else {
            break;
        };
        under_way.paid.push_back((gap.due, asked, found));
    }
}

/// How far (in bodies, its clearance in) a goal may move from where its
/// route was last searched for and the route still be mended rather than
/// searched again: 4.
const MEND_WITHIN: f32 = 4.0;

/// Mends a route whose goal moved a little (a game dragging an order):
/// its end moved to the goal, without a search, if its last stretch (from
/// its last corner, or from where the agent is if it is on that stretch)
/// goes straight there clear of everything, and the goal is within
/// [`MEND_WITHIN`] bodies of where the route was searched for (farther,
/// the mended route may run well over the shortest). A search asked
/// meanwhile is forgotten. Whether it was mended.
fn mend(
    route: &mut NavigationRoute,
    status: NavigationStatus,
    pos: Vector,
    goal: Vector,
    sees: impl Fn(Vector, Vector) -> bool,
) -> bool {
    let body = route.planned_body;
    let serves = matches!(
        status,
        NavigationStatus::Following | NavigationStatus::Arrived | NavigationStatus::Planning
    ) && route.points.len() >= 2
        && route
            .searched_for
            .is_some_and(|searched| searched.distance(goal) <= MEND_WITHIN * body);
    if !serves {
        return false;
    }
    let last = route.points.len() - 1;
    let from = if route.corner >= last {
        pos
    } else {
        route.points[last - 1]
    };
    if !sees(from, goal) {
        return false;
    }
    route.points[last] = goal;
    route.planned_for = Some(goal);
    route.asked = None;
    true
}

/// Where a route is asked from and to, for what body, inside what.
struct Ends<'a> {
    from: Vector,
    goal: Vector,
    body: f32,
    within: Option<&'a [Vector]>,
}

/// Asks for the agent's route, on the area its ground is made on (none
/// while it is made).
fn ask(
    areas: &mut NavigationAreas,
    under_way: &mut RoutesUnderWay,
    route: &mut NavigationRoute,
    agent: Entity,
    ends: Ends,
    sent: bool,
    (asked, asked_on): &mut (Vec<Asked>, Vec<Arc<WalkableArea>>),
) {
    let generation = areas.generation();
    let Some((made, area)) = areas.ready(ends.body, ends.within, &[ends.from, ends.goal]) else {
        return;
    };
    under_way.asks += 1;
    route.asked = Some(under_way.asks);
    route.again = false;
    route.planned_for = Some(ends.goal);
    route.planned_body = ends.body;
    asked_on.push(Arc::clone(area));
    asked.push(Asked {
        agent,
        ask: under_way.asks,
        from: ends.from,
        goal: ends.goal,
        made,
        provisional: made != generation,
        sent,
    });
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
            searched_for: Some(asked.goal),
            planned_body: route.planned_body,
            generation: asked.made,
            provisional: asked.provisional,
            asked: None,
            seen_from: None,
            again: false,
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
        searched_for: Some(asked.goal),
        planned_body: route.planned_body,
        generation: asked.made,
        provisional: asked.provisional,
        asked: None,
        seen_from: None,
        again: false,
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
