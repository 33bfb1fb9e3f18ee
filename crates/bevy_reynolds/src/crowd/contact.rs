//! After the step: each avoider's body kept out of its neighbors' and the
//! level's obstacles.

use bevy::prelude::*;
use reynolds::crowd::contact::{Closing, Closings};
use reynolds::level::Shape;
use reynolds::math::{closest_on_segment, finite_or_zero};

use super::AvoidAgents;
use super::prepare::Avoiding;
use crate::agent::{AgentPosition, AgentVelocity, Writeback};
use crate::flocking::NeighborGrid;
use crate::level::{IgnoreObstacles, ObstacleIndex};
use crate::math::Vector;
use crate::parallel::{COSTLY, for_each};

/// Part of [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate),
/// after the step: each avoider's velocity made the nearest to the one it
/// stepped to that closes no gap by more than its share of it (half toward
/// another avoider, whatever their right of way; all of it toward one that
/// does not avoid, and toward an obstacle), and
/// its move made again with it (see [`reynolds::crowd::contact`]). The gaps
/// are the step's start, as the grid has them, so no agent's limits depend
/// on whom was moved first.
pub(super) fn keep_apart(
    grid: Res<NeighborGrid>,
    avoiding: Res<Avoiding>,
    time: Res<Time>,
    writeback: Res<Writeback>,
    obstacles: Option<Res<ObstacleIndex>>,
    mut avoiders: Query<
        (
            Entity,
            &mut AgentPosition,
            &mut AgentVelocity,
            Has<IgnoreObstacles>,
        ),
        With<AvoidAgents>,
    >,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    let grid = &*grid;
    let largest = grid.largest_radius();
    let moves = *writeback != Writeback::Physics;
    for_each(
        COSTLY,
        &mut avoiders,
        |(entity, mut pos, mut vel, ignores_obstacles)| {
            let Some(slot) = grid.slot_of(entity) else {
                return;
            };
            let stepped = vel.0;
            let max_speed = stepped.length();
            if !max_speed.is_finite() || max_speed <= 0.0 {
                return;
            }
            let (at, _, radius) = grid.agent(slot);
            let mut limits = Closings::default();
            // A neighbor this far can limit no speed the agent has.
            let reach = radius + largest + 2.0 * max_speed * dt;
            grid.for_each_within(at, reach, |other, offset, other_velocity| {
                if other == slot {
                    return;
                }
                // Between avoiders, half whatever their right of way, which
                // is the push's to honour: one giving way may be unable to (a
                // wall or its own crowd behind it), and one that kept none of
                // the gap walked into it (a two-way door, one side with right
                // of way: 2,244 pair-steps overlapping at 144 Hz).
                let avoids = avoiding.right_of_way(grid.entity(other)).is_some();
                let share = if avoids { 0.5 } else { 1.0 };
                // Sharing, each keeps its half whatever the other does;
                // alone, it must mind where the other is going.
                let moving = if share < 1.0 {
                    Vector::ZERO
                } else {
                    finite_or_zero(other_velocity)
                };
                let radius_sum = radius + grid.radius(other);
                if let Some(limit) = Closing::new(offset, radius_sum, share, moving, dt, max_speed)
                {
                    limits.push(limit);
                }
            });
            // Obstacles hold still: the whole gap is the agent's to keep.
            if let Some(index) = obstacles.as_deref().filter(|_| !ignores_obstacles) {
                index.for_each_near(at, radius + 2.0 * max_speed * dt, |obstacle| {
                    let (offset, radius_sum) = match obstacle.shape {
                        Shape::Circle { center, radius: r } => (center - at, radius + r),
                        Shape::Wall { a, b } => (closest_on_segment(at, a, b) - at, radius),
                    };
                    let limit = Closing::new(offset, radius_sum, 1.0, Vector::ZERO, dt, max_speed);
                    if let Some(limit) = limit {
                        limits.push(limit);
                    }
                });
            }
            let kept = limits.nearest(stepped);
            if kept != stepped {
                if moves {
                    pos.0 += (kept - stepped) * dt;
                }
                vel.0 = kept;
            }
        },
    );
}
