//! Flocking: Reynolds' three rules (separation, alignment, cohesion) as
//! steering forces of the same kind as every other behavior, computed in one
//! pass over an agent's neighbors.

use crate::model::{direction, finite_or_zero, sanitize_limit, sanitize_speed, steering};
use glam::Vec2;

/// One neighbor as an agent sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Neighbor {
    /// Where the neighbor is, relative to the agent (neighbor - agent), in
    /// pixels. In a wrapping world, the shortest way round.
    pub offset: Vec2,
    /// The neighbor's velocity, in pixels a second.
    pub vel: Vec2,
}

/// How a flocking agent treats its neighbors. The defaults are the
/// chapter's prompt: separation within 25 px weighted 1.5, alignment and
/// cohesion within 70 px weighted 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockParams {
    /// Neighbors closer than this push the agent away, in pixels.
    pub separation_radius: f32,
    /// Neighbors closer than this are aligned with and drawn toward, in pixels.
    pub neighbor_radius: f32,
    /// Weight of separation's steering.
    pub separation_weight: f32,
    /// Weight of alignment's steering.
    pub alignment_weight: f32,
    /// Weight of cohesion's steering.
    pub cohesion_weight: f32,
    /// If set, only neighbors within this angle of the agent's heading count,
    /// in radians either side (a field of view); `None` sees all round.
    pub view_half_angle: Option<f32>,
}

impl Default for FlockParams {
    fn default() -> Self {
        Self {
            separation_radius: 25.0,
            neighbor_radius: 70.0,
            separation_weight: 1.5,
            alignment_weight: 1.0,
            cohesion_weight: 1.0,
            view_half_angle: None,
        }
    }
}

impl FlockParams {
    /// The largest radius the rules look within: what a neighbor search
    /// must cover.
    pub fn reach(&self) -> f32 {
        sanitize_limit(self.separation_radius).max(sanitize_limit(self.neighbor_radius))
    }
}

/// Running sums of one pass over the neighbors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockSums {
    push: Vec2,
    pushers: u32,
    velocity: Vec2,
    offset: Vec2,
    neighbors: u32,
}

impl FlockSums {
    /// Counts one neighbor, if the agent (facing `heading`, a unit vector or
    /// zero) can see it and it is within reach.
    #[inline]
    pub fn add(&mut self, neighbor: Neighbor, params: &FlockParams, heading: Vec2) {
        let offset = finite_or_zero(neighbor.offset);
        let distance = offset.length();
        if let Some(half_angle) = params.view_half_angle
            && heading != Vec2::ZERO
            && distance > 0.0
            && offset.dot(heading) < distance * half_angle.cos()
        {
            return;
        }
        let separation = sanitize_limit(params.separation_radius);
        if distance < separation {
            // Away from the neighbor, harder the closer: 1 on top of it, 0 at
            // the radius. Two agents on one spot have no "away", and add
            // nothing rather than NaN.
            self.push -= direction(offset) * (1.0 - distance / separation);
            self.pushers += 1;
        }
        if distance < sanitize_limit(params.neighbor_radius) {
            self.velocity += finite_or_zero(neighbor.vel);
            self.offset += offset;
            self.neighbors += 1;
        }
    }

    /// How many neighbors count for alignment and cohesion.
    pub fn neighbors(&self) -> u32 {
        self.neighbors
    }

    /// The three rules' weighted steering, summed, not yet capped: each is
    /// `(desired - vel) / response_time`, like every other behavior.
    ///
    /// - Separation wants full speed away from the pushing neighbors, scaled
    ///   by how hard they push (at most 1).
    /// - Alignment wants the neighbors' average velocity.
    /// - Cohesion seeks the neighbors' average position.
    ///
    /// A rule with no neighbor in its radius asks for nothing.
    pub fn steering(
        &self,
        vel: Vec2,
        params: &FlockParams,
        max_speed: f32,
        response_time: f32,
    ) -> Vec2 {
        let vel = finite_or_zero(vel);
        let max_speed = sanitize_speed(max_speed);
        let weight = |w: f32| if w.is_finite() { w.max(0.0) } else { 0.0 };
        let mut total = Vec2::ZERO;
        if self.pushers > 0 {
            let desired = direction(self.push) * max_speed * self.push.length().min(1.0);
            total += steering(desired, vel, response_time) * weight(params.separation_weight);
        }
        if self.neighbors > 0 {
            let n = self.neighbors as f32;
            let average_vel = self.velocity / n;
            total += steering(average_vel, vel, response_time) * weight(params.alignment_weight);
            let to_center = self.offset / n;
            let desired = direction(to_center) * max_speed;
            total += steering(desired, vel, response_time) * weight(params.cohesion_weight);
        }
        finite_or_zero(total)
    }
}

/// The flocking steering of an agent with velocity `vel` among `neighbors`,
/// in one pass: [`FlockSums`] over them, then [`FlockSums::steering`].
///
/// ```
/// # use steering_core::{flock_steering, FlockParams, Neighbor, Vec2};
/// // A neighbor 10 px to the right pushes the agent left.
/// let near = [Neighbor { offset: Vec2::new(10.0, 0.0), vel: Vec2::ZERO }];
/// let params = FlockParams { alignment_weight: 0.0, cohesion_weight: 0.0, ..Default::default() };
/// let force = flock_steering(Vec2::ZERO, near, &params, 220.0, 0.15);
/// assert!(force.x < 0.0 && force.y == 0.0);
/// ```
pub fn flock_steering(
    vel: Vec2,
    neighbors: impl IntoIterator<Item = Neighbor>,
    params: &FlockParams,
    max_speed: f32,
    response_time: f32,
) -> Vec2 {
    let heading = direction(vel);
    let mut sums = FlockSums::default();
    for neighbor in neighbors {
        sums.add(neighbor, params, heading);
    }
    sums.steering(vel, params, max_speed, response_time)
}

/// The shortest offset from `from` to `to` in a world that wraps with
/// period `size` on each axis (an axis with a size that is not positive and
/// finite does not wrap).
///
/// ```
/// # use steering_core::{wrapped_offset, Vec2};
/// let size = Vec2::new(1000.0, 700.0);
/// assert_eq!(wrapped_offset(Vec2::new(995.0, 10.0), Vec2::new(5.0, 690.0), size), Vec2::new(10.0, -20.0));
/// ```
#[inline]
pub fn wrapped_offset(from: Vec2, to: Vec2, size: Vec2) -> Vec2 {
    let axis = |d: f32, period: f32| {
        if period.is_finite() && period > 0.0 {
            d - period * (d / period).round()
        } else {
            d
        }
    };
    let d = to - from;
    Vec2::new(axis(d.x, size.x), axis(d.y, size.y))
}
