//! Giving a formation's members their places: who holds which, whether the
//! way ahead is wide enough for the shape, and where each place is now.

use bevy::prelude::*;
use reynolds::behaviors::slot_position;
use reynolds::formation::{back_along, untangle};
use reynolds::level::Probe;
use reynolds::math::{direction, finite_or_zero, sanitize_limit};

use super::{Formation, FormationPlace, FormationState, InFormation};
use crate::agent::{AgentHeading, AgentPosition, AgentVelocity, SteeringParams};
use crate::level::ObstacleIndex;
use crate::math::Vector;
use crate::navigation::NavigationRoute;

/// How far ahead of the leader, in seconds at its top speed, the way must
/// be wide enough for the shape: about the time its outer members take to
/// fall in behind it. (At its top speed, not its speed: a leader slowed for
/// its members would otherwise see the narrow place leave its look-ahead,
/// and the column form up again before it.)
const LOOK_AHEAD: f32 = 1.5;

/// Two members trade places only when that shortens their two ways by
/// more than this share of the spacing: members walking in step, a little
/// off their places, would otherwise trade back and forth.
const TRADE_MARGIN: f32 = 0.5;

/// The slowest a leader walks while its members are out of place, as a
/// share of the speed its behaviors ask for: it waits for them, but does
/// not stop for one that is stuck.
const MIN_PACE: f32 = 0.25;

/// The share of its top speed a member's place may ask of it while the
/// leader turns: the rest is left to catch up with.
const TURN_SPEED_SHARE: f32 = 0.9;

/// Below this share of its top speed a leader counts as standing: its
/// formation keeps facing the way it did.
const STANDING: f32 = 0.1;

/// A member as gathered this step: its leader, itself, where it is, its
/// body's radius with the clearance it keeps, and its top speed.
type Member = (Entity, Entity, Vector, f32, f32);

/// A leader's place, velocity, heading, formation, state and route.
type LeaderItem<'a> = (
    &'a AgentPosition,
    &'a AgentVelocity,
    &'a SteeringParams,
    &'a AgentHeading,
    &'a Formation,
    Mut<'a, FormationState>,
    Option<&'a NavigationRoute>,
);

/// The first system of the formations' step: each leader's members get
/// their places this step, in its shape or in a column in its steps.
pub(super) fn form(
    time: Res<Time>,
    index: Option<Res<ObstacleIndex>>,
    mut leaders: Query<(
        &AgentPosition,
        &AgentVelocity,
        &SteeringParams,
        &AgentHeading,
        &Formation,
        &mut FormationState,
        Option<&NavigationRoute>,
    )>,
    members: Query<(Entity, &InFormation, &AgentPosition, &SteeringParams)>,
    mut places: Query<&mut FormationPlace>,
    mut gathered: Local<Vec<Member>>,
) {
    gathered.clear();
    gathered.extend(members.iter().map(|(member, of, pos, params)| {
        let body = sanitize_limit(params.radius) + sanitize_limit(params.clearance);
        (of.0, member, pos.0, body, sanitize_limit(params.max_speed))
    }));
    gathered.sort_unstable_by_key(|&(leader, member, ..)| (leader, member));
    let dt = time.delta_secs();
    for group in gathered.chunk_by(|a, b| a.0 == b.0) {
        let leader = group[0].0;
        let Ok(item) = leaders.get_mut(leader) else {
            for &(_, member, ..) in group {
                set_place(&mut places, member, None);
            }
            continue;
        };
        let shapes = index.as_deref();
        place_group(item, group, shapes, dt, &mut places);
    }
}

/// One leader's members given their places.
fn place_group(
    (pos, vel, params, heading, formation, mut state, route): LeaderItem,
    group: &[Member],
    shapes: Option<&ObstacleIndex>,
    dt: f32,
    places: &mut Query<&mut FormationPlace>,
) {
    let (at, vel) = (pos.0, vel.0);
    let speed = finite_or_zero(vel).length();
    let walking = speed > STANDING * sanitize_limit(params.max_speed);
    let forward = if walking || state.facing == Vector::ZERO {
        heading.0.as_vec2()
    } else {
        state.facing
    };
    let spacing = sanitize_limit(formation.spacing);
    let body = group.iter().map(|m| m.3).fold(0.0, f32::max);
    if spacing < 2.0 * body {
        warn_once!(
            "a formation's spacing ({spacing}) is less than its members' width \
             ({}): they stand in each other's places",
            2.0 * body
        );
    }
    let state = &mut *state;
    let joined_or_gone = keep_members(&mut state.members, group);
    let n = state.members.len();
    let member_of = |member: Entity| {
        let i = group.partition_point(|m| m.1 < member);
        (group[i].2, group[i].4)
    };
    let member_at = |member: Entity| member_of(member).0;
    let leader_speed = sanitize_limit(params.max_speed);
    let offsets = |i: usize| formation.shape.slot(i, n, spacing);

    // How fast the leader turns, to move each place with it.
    let turn = if dt > 0.0 && state.facing != Vector::ZERO {
        state
            .facing
            .perp_dot(forward)
            .atan2(state.facing.dot(forward))
            / dt
    } else {
        0.0
    };
    state.facing = forward;
    remember_trail(&mut state.trail, at, spacing, n);

    // Whether a body of `radius` goes straight from `from` to `to` without
    // touching an obstacle.
    let clear = |from: Vector, to: Vector, radius: f32| {
        let Some(index) = shapes else { return true };
        let (dir, length) = (direction(to - from), from.distance(to));
        length == 0.0
            || index
                .first_hit(&Probe {
                    from,
                    dir,
                    length,
                    radius,
                })
                .is_none()
    };
    let fits = |center: Vector, facing: Vector| {
        (0..n).all(|i| clear(center, slot_position(center, facing, offsets(i)), body))
    };
    let reach = sanitize_limit(params.max_speed) * LOOK_AHEAD;
    let reach = if reach.is_finite() { reach } else { 0.0 };
    let narrow = way_ahead(at, vel, forward, route, reach, spacing)
        .into_iter()
        .any(|(center, facing)| !fits(center, facing));
    let was_in_column = state.in_column;
    // Out of the column once the way is wide and every member sees its
    // place: a wall between them (the one with the door just walked
    // through) keeps it in the column; a rock its body would graze on the
    // way, it walks round.
    state.in_column = narrow
        || was_in_column
            && !state.members.iter().enumerate().all(|(i, &member)| {
                clear(
                    member_at(member),
                    slot_position(at, forward, offsets(i)),
                    0.0,
                )
            });

    if state.in_column && !was_in_column {
        // The nearest the leader walk first.
        state.members.sort_by(|a, b| {
            member_at(*a)
                .distance(at)
                .total_cmp(&member_at(*b).distance(at))
        });
    } else if !state.in_column {
        let margin = if joined_or_gone || was_in_column {
            0.0
        } else {
            TRADE_MARGIN * spacing
        };
        let from: Vec<Vector> = state.members.iter().map(|&m| member_at(m)).collect();
        let to: Vec<Vector> = (0..n)
            .map(|i| slot_position(at, forward, offsets(i)))
            .collect();
        let mut assigned: Vec<usize> = (0..n).collect();
        if untangle(&from, &to, &mut assigned, margin) {
            let mut members = state.members.clone();
            for (m, &place) in assigned.iter().enumerate() {
                members[place] = state.members[m];
            }
            state.members = members;
        }
    }

    // How sharply the leader turns: on its arc, a place `r` from it moves
    // `|forward + curve * r.perp()|` times as fast as the leader.
    let curve = if speed > 1.0 { turn / speed } else { 0.0 };
    let mut pace = 1.0f32;
    let mut lag = 0.0f32;
    for (i, &member) in state.members.iter().enumerate() {
        let (member_pos, member_speed) = member_of(member);
        let open = slot_position(at, forward, offsets(i));
        let place = if state.in_column {
            let (point, way) =
                back_along(at, state.trail.iter().copied(), (i + 1) as f32 * spacing);
            (point, way * speed)
        } else if !clear(member_pos, open, body) {
            // Its body cannot go straight to its place (still in the door,
            // or pushed behind the wall beside it): it walks the leader's
            // trail toward it until it can.
            let (point, way) = back_along(
                at,
                state.trail.iter().copied(),
                (along_trail(at, &state.trail, member_pos) - spacing).max(0.0),
            );
            (point, way * speed)
        } else {
            (open, finite_or_zero(vel + (open - at).perp() * turn))
        };
        lag = lag.max(member_pos.distance(place.0));
        if !state.in_column {
            let faster = (forward + (place.0 - at).perp() * curve).length();
            pace = pace.min(TURN_SPEED_SHARE * member_speed / (faster * leader_speed));
        }
        set_place(places, member, Some(place));
    }
    // Within a spacing of their places, the leader walks on; farther off,
    // it slows in proportion, so they catch up. And it turns no faster
    // than its outer members can follow.
    let pace = pace.min(spacing / lag).clamp(MIN_PACE, 1.0);
    state.pace = if pace.is_nan() { 1.0 } else { pace };
}

/// How far back along the trail from `head` its point nearest `p` is.
fn along_trail(head: Vector, trail: &std::collections::VecDeque<Vector>, p: Vector) -> f32 {
    let (mut walked, mut ahead) = (0.0f32, head);
    let (mut nearest, mut along) = (head.distance(p), 0.0);
    for &crumb in trail {
        walked += ahead.distance(crumb);
        ahead = crumb;
        let d = crumb.distance(p);
        if d < nearest {
            (nearest, along) = (d, walked);
        }
    }
    along
}

/// Keeps the members still there in their order, and adds those new at
/// the end: whether any joined or is gone.
fn keep_members(members: &mut Vec<Entity>, group: &[Member]) -> bool {
    let is_in = |member: &Entity| group.binary_search_by_key(member, |m| m.1).is_ok();
    let before = members.len();
    members.retain(is_in);
    let mut changed = members.len() != before;
    for &(_, member, ..) in group {
        if !members.contains(&member) {
            members.push(member);
            changed = true;
        }
    }
    changed
}

/// Puts the leader's place at the front of its trail whenever it has
/// walked a quarter of a spacing, and forgets what lies farther back than
/// twice the column's length.
fn remember_trail(
    trail: &mut std::collections::VecDeque<Vector>,
    at: Vector,
    spacing: f32,
    n: usize,
) {
    if trail
        .front()
        .is_none_or(|last| last.distance(at) >= 0.25 * spacing)
    {
        trail.push_front(at);
    }
    // Twice the column: a member left behind still finds the way.
    let reach = 2.0 * (n + 2) as f32 * spacing;
    let mut walked = 0.0;
    let mut keep = trail.len();
    let mut ahead = at;
    for (i, &crumb) in trail.iter().enumerate() {
        walked += ahead.distance(crumb);
        ahead = crumb;
        if walked > reach {
            keep = i + 1;
            break;
        }
    }
    trail.truncate(keep);
}

/// Where the leader will be, and the way it will face, over the next
/// `reach`, a spacing apart (or farther, for at most 32 of them): along
/// its route if it has one, else straight on along its velocity (nowhere,
/// standing).
fn way_ahead(
    at: Vector,
    vel: Vector,
    forward: Vector,
    route: Option<&NavigationRoute>,
    reach: f32,
    spacing: f32,
) -> Vec<(Vector, Vector)> {
    // A spacing apart, but never more than 32 places, however far.
    let step = spacing.max(reach / 32.0).max(1.0);
    let mut ahead = vec![(at, forward)];
    let corners: Vec<Vector> = match route {
        Some(route) if route.corner < route.points.len() => route.points[route.corner..].to_vec(),
        _ => vec![finite_or_zero(at + direction(finite_or_zero(vel)) * reach)],
    };
    let (mut from, mut walked) = (at, 0.0);
    for corner in corners {
        let (dir, length) = (direction(corner - from), from.distance(corner));
        if dir == Vector::ZERO {
            continue;
        }
        let mut along = step - walked % step;
        while along <= length && walked + along <= reach && ahead.len() <= 32 {
            ahead.push((from + dir * along, dir));
            along += step;
        }
        walked += length;
        from = corner;
        if walked >= reach {
            break;
        }
    }
    ahead
}

/// Writes a member's place, only if it changed.
fn set_place(
    places: &mut Query<&mut FormationPlace>,
    member: Entity,
    place: Option<(Vector, Vector)>,
) {
    if let Ok(mut current) = places.get_mut(member)
        && current.place != place
    {
        current.place = place;
    }
}
