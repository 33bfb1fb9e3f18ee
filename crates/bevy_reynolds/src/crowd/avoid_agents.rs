//! Each avoider's push from its neighbors and the level's obstacles, added
//! to its accumulator.

use bevy::prelude::*;
use reynolds::crowd::{
    avoid_neighbor, avoid_shape, foreseen_velocity, make_way, share_of_avoiding,
};
use reynolds::flock::tie_break;
use reynolds::math::{direction, finite_or_zero};
use reynolds::model::sanitize_response_time;

use super::AvoidAgents;
use super::prepare::{Avoiding, Intent};
use crate::agent::{SteeringAccumulator, SteeringParams};
use crate::flocking::NeighborGrid;
use crate::level::{IgnoreObstacles, ObstacleIndex, RouteKeepsClear};
use crate::math::Vector;
use crate::parallel::{COSTLY, for_each};

/// Neighbors nearer than this many times the two bodies' combined radius
/// (between centres) are foreseen at the agent's own velocity, not the one
/// it wants: a packed queue pressing toward a door froze, each pushed back
/// by its wish (BENCHMARKS.md, "Crowds").
const NEAR: f32 = 1.5;

/// An agent whose steering asks for less than this share of its top speed
/// means to stand still.
const REST: f32 = 0.1;

/// Two bodies nearer than this many times their combined radius (between
/// centres) are pressed together. Wider, it also turned people merely
/// standing near each other, and fewer arrived in time.
const TOUCHING: f32 = 1.1;

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors):
/// each avoider's push from every agent within its reach in this step's
/// grid (their places and velocities as the step began, so the pushes do
/// not depend on the order agents are visited, nor on the thread count) and
/// from the level's obstacles near it (unless it ignores them), foreseen at
/// the velocity it means to have; added to its accumulator in its
/// [`AvoidAgents::priority`] group.
pub(super) fn avoid_agents(
    grid: Res<NeighborGrid>,
    obstacles: Option<Res<ObstacleIndex>>,
    avoiding: Res<Avoiding>,
    mut avoiders: Query<(
        Entity,
        &AvoidAgents,
        &SteeringParams,
        (Has<IgnoreObstacles>, Has<RouteKeepsClear>),
        &mut SteeringAccumulator,
        &mut Intent,
    )>,
) {
    let grid = &*grid;
    let largest = grid.largest_radius();
    let obstacles = obstacles.as_deref().filter(|index| !index.is_empty());
    for_each(
        COSTLY,
        &mut avoiders,
        |(entity, avoid, params, (ignores_obstacles, on_a_route), mut steering, mut intent)| {
            let Some(slot) = grid.slot_of(entity) else {
                return;
            };
            let rules = avoid.rules.sanitized();
            // Its own, or more where a door lets it through.
            let my_way = avoiding.right_of_way(entity).unwrap_or(avoid.right_of_way);
            let (at, velocity, radius) = grid.agent(slot);
            // What the rest of its steering asks for this step.
            let wanted = velocity
                + params.combine.apply(&steering.0) * sanitize_response_time(params.response_time);
            let foreseen = foreseen_velocity(velocity, wanted, params.max_speed);
            // Meaning to stand still, it makes way for those pressing on it;
            // meaning to go, those it presses on make way out of its way.
            let wanted = finite_or_zero(wanted);
            let resting = wanted.length() < REST * params.max_speed;
            let meant = Intent {
                resting,
                heading: direction(wanted),
            };
            if *intent != meant {
                *intent = meant;
            }
            // Moving under a tenth of its top speed, and meaning to go: one
            // that may be held face to face (below).
            let still = REST * params.max_speed;
            let i_am_still = !resting && velocity.length() < still;
            let reach = rules.reach(params.max_speed, radius, largest);
            let mut push = Vector::ZERO;
            grid.for_each_within(at, reach, |other, offset, other_velocity| {
                if other == slot {
                    return;
                }
                let radius_sum = radius + grid.radius(other);
                // Meetings foreseen at the velocity it means to have, but
                // with those already near, at the one it has: what it wishes
                // would push it back from all it is pressed against.
                let distance = offset.length();
                let near = distance < NEAR * radius_sum;
                // Right of way is for meetings foreseen: pressed together,
                // each takes half, or one with right of way held one giving
                // way, pinned by its own crowd, for good (BENCHMARKS.md,
                // "Crowds").
                let their_way = avoiding.right_of_way(grid.entity(other));
                let share = match their_way {
                    Some(_) if near => 0.5,
                    _ => share_of_avoiding(my_way, their_way),
                };
                if share == 0.0 {
                    return;
                }
                // One standing makes way when pressed: walked up to at the
                // pace it slows to, not held off by the wish to pass it
                // (which stopped agents short of rows of arrived ones, out
                // of reach of their making way).
                let they = avoiding.intent(grid.entity(other));
                let walk_up = near || they.resting;
                let mine = if walk_up { velocity } else { foreseen };
                // Standing, it makes way for those who move, not for one
                // standing too: two standing close each made way for the
                // other, and a packed block of arrived people kept turning.
                if resting && !they.resting {
                    push += make_way(-offset, radius_sum, they.heading);
                }
                // Two pressed face to face, both standing and each meaning
                // to go through the other, foresee nothing (neither moves)
                // and the contact holds them for good: each steps round the
                // other to its right (`crates/steering_lab/tests/scenes/crowd.rs`,
                // `two_pressed_face_to_face_get_past`).
                if i_am_still
                    && !they.resting
                    && distance < TOUCHING * radius_sum
                    && other_velocity.length() < still
                    && wanted.dot(offset) > 0.0
                    && they.heading.dot(-offset) > 0.0
                {
                    let toward = direction(offset);
                    let to_the_right = Vector::new(toward.y, -toward.x);
                    push += finite_or_zero(
                        to_the_right * params.max_speed
                            / sanitize_response_time(params.response_time),
                    );
                }
                // Between equals each pushes as the power law says; alone,
                // twice as hard.
                push += 2.0
                    * share
                    * avoid_neighbor(&rules, -offset, mine - other_velocity, radius_sum, || {
                        tie_break(entity.to_bits(), grid.entity(other).to_bits())
                    });
            });
            // A route keeps its agent clear of the obstacles already, a
            // little: pushed further off, the agent and its route pull
            // against each other and it stops (its body is still kept out
            // of them after the step).
            if let Some(index) = obstacles.filter(|_| !(ignores_obstacles || on_a_route)) {
                let reach = rules.reach(params.max_speed, radius, 0.0);
                index.for_each_near(at, reach, |obstacle| {
                    push += avoid_shape(&rules, at, foreseen, radius, &obstacle.shape);
                });
            }
            steering.add_force(avoid.priority, push);
        },
    );
}
