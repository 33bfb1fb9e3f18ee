//! Flocking: Reynolds' three rules (separation, alignment, cohesion) as
//! steering forces of the same kind as every other behavior, computed in one
//! pass over an agent's neighbors: one by one ([`FlockSums::add`]), or
//! four at a time over neighbors laid out as parallel arrays
//! ([`FlockBatch`]), the same arithmetic either way. The rules are written
//! once for agents on a plane (`Vec2`) and in 3D (`Vec3`): a
//! [`NeighborGrid`](crate::spatial::NeighborGrid) finds a walker's
//! neighbors, a [`VolumeGrid`](crate::spatial::VolumeGrid) a flyer's.

use crate::math::{
    SteeringVector, direction, finite_or_zero, sanitize_limit, sanitize_radius, sanitize_speed,
    sanitize_weight, truncated,
};
use crate::model::{sanitize_response_time, steering};
use std::ops::Range;

#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use glam::Vec2;

mod batch;
mod grid;
mod volume;

pub use batch::{FlockBatch, NeighborBlock};
pub use grid::Flocker;

/// One neighbor as an agent sees it: on a plane (`Vec2`, the default) or
/// in 3D (`Vec3`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Neighbor<V = Vec2> {
    /// Where the neighbor is, relative to the agent (neighbor - agent), in
    /// pixels. In a wrapping world, the shortest way round.
    pub offset: V,
    /// The neighbor's velocity, in pixels a second.
    pub vel: V,
    /// The neighbor's body radius, in pixels (0 for a point).
    pub radius: f32,
}

/// How a flocking agent treats its neighbors. The defaults are the
/// model's prompt: separation within 25 px weighted 1.5, alignment and
/// cohesion within 70 px weighted 1.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(Debug, PartialEq, Default))]
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
    /// If set, the speed the flock flies at, in pixels a second: the three
    /// rules vote on a direction (each its own way, by its weight:
    /// separation's away from the crowd, as hard as it pushes; alignment's
    /// the neighbors' average direction, or alone the agent's own;
    /// cohesion's toward their middle), and the flock steers toward that
    /// direction at this speed. `None` (the default) is the model's
    /// literal rules, each a desired velocity of its own: their weighted sum
    /// steers toward the mean of those velocities, and in a crowd whose
    /// headings disagree (alignment's average velocity, cohesion's way to a
    /// middle that is all round) that mean is nearly nothing, so the flock
    /// brakes itself still.
    pub cruise_speed: Option<f32>,
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
            cruise_speed: None,
        }
    }
}

impl FlockParams {
    /// The same rules in units of `unit` pixels each: the radii and the
    /// cruise speed multiplied by `unit`. A unit that is not positive and
    /// finite changes nothing.
    pub fn scaled(self, unit: f32) -> Self {
        if !(unit.is_finite() && unit > 0.0) {
            return self;
        }
        Self {
            separation_radius: self.separation_radius * unit,
            neighbor_radius: self.neighbor_radius * unit,
            cruise_speed: self.cruise_speed.map(|s| s * unit),
            ..self
        }
    }

    /// The largest radius the rules look within, between points: what a
    /// neighbor search must cover.
    pub fn reach(&self) -> f32 {
        self.reach_with_bodies(0.0, 0.0)
    }

    /// What a neighbor search must cover for an agent of `body_radius`
    /// among neighbors no bigger than `largest_neighbor_radius`:
    /// separation's radius is measured between the bodies' edges.
    #[inline]
    pub fn reach_with_bodies(&self, body_radius: f32, largest_neighbor_radius: f32) -> f32 {
        let bodies = sanitize_radius(body_radius) + sanitize_radius(largest_neighbor_radius);
        (sanitize_limit(self.separation_radius) + bodies).max(sanitize_limit(self.neighbor_radius))
    }
}

/// One agent's view of its neighbors for a pass: the rules' radii, sanitized
/// once, its body radius and its field of view. Build it once per agent,
/// then feed neighbors to [`FlockSums::add`] or [`FlockSums::add_block`].
///
/// Separation is measured between bodies: a neighbor pushes when the gap
/// between the two bodies' edges is less than the separation radius,
/// harder the smaller the gap, as hard as it can once they touch. Between
/// points (radius 0, the default) the gap is the distance, as the model
/// has it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockView<V = Vec2> {
    separation_radius: f32,
    body_radius: f32,
    /// `(separation_radius + body_radius)²`: how close a point neighbor
    /// pushes.
    separation_radius_squared: f32,
    neighbor_radius_squared: f32,
    inverse_separation_radius: f32,
    heading: V,
    /// A neighbor is seen if `offset · heading >= distance * min_cos`;
    /// `-inf` sees all round.
    min_cos: f32,
    /// The cosine of the cone's half angle whichever way it faces, `-inf`
    /// without a cone: kept so [`FlockView::facing`] need not compute it.
    cone_cos: f32,
}

impl<V: SteeringVector> FlockView<V> {
    /// The view of an agent facing `heading` (a unit vector, or zero for an
    /// agent that sees all round) under `params`.
    #[inline]
    pub fn new(params: &FlockParams, heading: V) -> Self {
        let separation = sanitize_limit(params.separation_radius);
        let neighbor = sanitize_limit(params.neighbor_radius);
        // An angle with no cosine sees all round, as before the cone
        // existed.
        let cone_cos = match params.view_half_angle.map(f32::cos) {
            Some(cos) if cos.is_finite() => cos,
            _ => f32::NEG_INFINITY,
        };
        Self {
            separation_radius: separation,
            body_radius: 0.0,
            separation_radius_squared: separation * separation,
            neighbor_radius_squared: neighbor * neighbor,
            // Infinite radius: full-strength push at any distance.
            inverse_separation_radius: if separation > 0.0 {
                1.0 / separation
            } else {
                0.0
            },
            heading: V::ZERO,
            min_cos: f32::NEG_INFINITY,
            cone_cos,
        }
        .facing(heading)
    }

    /// The same view facing `heading` (a unit vector, or zero to see all
    /// round): what [`FlockView::new`] makes with that heading, without
    /// computing the cone's cosine again. Build one view per kind of agent
    /// with `new`, then turn it for each.
    #[inline]
    pub fn facing(mut self, heading: V) -> Self {
        // Only a cone needs the heading (and its normalizing division).
        (self.heading, self.min_cos) = match self.cone_cos {
            f32::NEG_INFINITY => (V::ZERO, f32::NEG_INFINITY),
            cos => match direction(heading) {
                heading if heading == V::ZERO => (V::ZERO, f32::NEG_INFINITY),
                heading => (heading, cos),
            },
        };
        self
    }

    /// The same view from a body of `radius` (pixels) instead of a point.
    #[inline]
    pub fn with_body_radius(mut self, radius: f32) -> Self {
        self.body_radius = sanitize_radius(radius);
        let reach = self.separation_radius + self.body_radius;
        self.separation_radius_squared = reach * reach;
        self
    }
}

/// Running sums of one pass over the neighbors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockSums<V = Vec2> {
    push: V,
    pushers: u32,
    velocity: V,
    offset: V,
    neighbors: u32,
    on_spot: u32,
}

impl<V: SteeringVector> FlockSums<V> {
    /// Counts one neighbor, if the agent can see it, it is within reach, and
    /// it is not on the agent's very spot: a neighbor there (the agent
    /// itself, or one exactly on top of it) has no direction to be pushed
    /// from, and is only counted in [`FlockSums::on_spot`]. A non-finite
    /// offset is out of reach; a non-finite velocity counts as still.
    #[inline]
    pub fn add(&mut self, neighbor: Neighbor<V>, view: &FlockView<V>) {
        let Neighbor {
            offset,
            vel,
            radius,
        } = neighbor;
        let c = batch::contribution(view, offset, vel, sanitize_radius(radius));
        if c.pushes {
            self.push += c.push;
            self.pushers += 1;
        }
        if c.counts {
            self.velocity += c.vel;
            self.offset += offset;
            self.neighbors += 1;
        }
        self.on_spot += c.on_spot as u32;
    }

    /// Adds the sums of another pass (over other neighbors) to these.
    pub fn merge(&mut self, other: FlockSums<V>) {
        self.push += other.push;
        self.pushers += other.pushers;
        self.velocity += other.velocity;
        self.offset += other.offset;
        self.neighbors += other.neighbors;
        self.on_spot += other.on_spot;
    }

    /// How many neighbors count for alignment and cohesion.
    pub fn neighbors(&self) -> u32 {
        self.neighbors
    }

    /// How many candidates were on the agent's very spot, within reach of
    /// separation: the agent itself, if it was among them, and any others
    /// exactly on top of it. Those others have no direction to be pushed
    /// from; more than one means they need [`FlockSums::add_tie`].
    pub fn on_spot(&self) -> u32 {
        self.on_spot
    }

    /// Counts the neighbors on the agent's very spot as one more push,
    /// `away`, at most as hard as one neighbor pushes (a longer `away` is
    /// shortened to length 1). Give it the mean of each one's
    /// [`tie_break`]: from a crowd on one spot, an agent whose ties mostly
    /// agree is pushed harder than one whose ties cancel.
    pub fn add_tie(&mut self, away: V) {
        let away = truncated(away, 1.0);
        if away != V::ZERO {
            self.push += away;
            self.pushers += 1;
        }
    }

    /// The three rules' weighted steering, summed, not yet capped: each is
    /// `(desired - vel) / response_time`, like every other behavior.
    ///
    /// - Separation wants full speed away from the pushing neighbors, scaled
    ///   by how hard they push (at most 1).
    /// - Alignment wants the neighbors' average velocity.
    /// - Cohesion seeks the neighbors' average position.
    ///
    /// A rule with no neighbor in its radius asks for nothing. With a
    /// [cruise speed](FlockParams::cruise_speed) the rules vote on one
    /// direction instead, flown at that speed.
    pub fn steering(&self, vel: V, params: &FlockParams, max_speed: f32, response_time: f32) -> V {
        let vel = finite_or_zero(vel);
        let max_speed = sanitize_speed(max_speed);
        let weights = [
            sanitize_weight(params.separation_weight),
            sanitize_weight(params.alignment_weight),
            sanitize_weight(params.cohesion_weight),
        ];
        if let Some(cruise) = params.cruise_speed.map(sanitize_speed) {
            return self.cruise(vel, cruise, response_time, weights);
        }
        // The three rules' `(desired - vel) * weight` summed, then divided
        // by the response time once: a few divisions instead of fifteen (a
        // tenth of a flock's step went here). The rule by rule sum, exact
        // at any scale, where that overflows.
        let [separation, alignment, cohesion] = weights;
        let mut change = V::ZERO;
        if self.pushers > 0 {
            let length = self.push.length();
            let desired = unit(self.push, length) * max_speed * length.min(1.0);
            change += (desired - vel) * separation;
        }
        if self.neighbors > 0 {
            let n = self.neighbors as f32;
            change += (self.velocity / n - vel) * alignment;
            let desired = unit(self.offset, self.offset.length()) * max_speed;
            change += (desired - vel) * cohesion;
        }
        let force = change / sanitize_response_time(response_time);
        if force.is_finite() {
            force
        } else {
            self.steering_rule_by_rule(vel, max_speed, response_time, weights)
        }
    }

    /// [`FlockSums::steering`] one rule at a time, each through the model's
    /// [`steering`]: what it is for sums too large to add up first.
    fn steering_rule_by_rule(
        &self,
        vel: V,
        max_speed: f32,
        response_time: f32,
        [separation, alignment, cohesion]: [f32; 3],
    ) -> V {
        let mut total = V::ZERO;
        if self.pushers > 0 {
            let desired = direction(self.push) * max_speed * self.push.length().min(1.0);
            total += steering(desired, vel, response_time) * separation;
        }
        if self.neighbors > 0 {
            let n = self.neighbors as f32;
            total += steering(self.velocity / n, vel, response_time) * alignment;
            let desired = direction(self.offset / n) * max_speed;
            total += steering(desired, vel, response_time) * cohesion;
        }
        finite_or_zero(total)
    }

    /// The rules with a cruise speed: each votes on a direction by its
    /// weight, and the flock steers toward the winner at `cruise`, as hard
    /// as all the voters' weights together.
    fn cruise(&self, vel: V, cruise: f32, response_time: f32, weights: [f32; 3]) -> V {
        let [separation, alignment, cohesion] = weights;
        let own_way = direction(vel);
        let (mut vote, mut weight) = (V::ZERO, 0.0);
        if self.pushers > 0 {
            vote += direction(self.push) * self.push.length().min(1.0) * separation;
            weight += separation;
        }
        // The neighbors' way, or alone (or if they cancel out) its own.
        let way = match direction(self.velocity) {
            way if way == V::ZERO => own_way,
            way => way,
        };
        if way != V::ZERO {
            vote += way * alignment;
            weight += alignment;
        }
        if self.neighbors > 0 {
            vote += direction(self.offset) * cohesion;
            weight += cohesion;
        }
        let way = match direction(vote) {
            way if way == V::ZERO => own_way,
            way => way,
        };
        if weight == 0.0 || way == V::ZERO {
            return V::ZERO;
        }
        finite_or_zero(steering(way * cruise, vel, response_time) * weight)
    }
}

/// The batch kernel's ways in, on a plane.
impl FlockSums<Vec2> {
    /// Counts every candidate of `block`, each at offset `position + shift`
    /// from the agent, as [`FlockBatch::add_block`] does. For several blocks
    /// in a row, a [`FlockBatch`] is faster: it adds its lanes up once.
    pub fn add_block(&mut self, view: &FlockView, block: NeighborBlock, shift: Vec2) {
        let mut batch = FlockBatch::new(view);
        batch.add_block(block, shift);
        self.merge(batch.finish());
    }

    /// The sums over `runs` of `candidates`, whose velocities are all
    /// finite: each run a range of them (clamped to how many there are),
    /// each of its candidates at offset `position + shift` from the agent
    /// (the run's `shift`). What a new [`FlockBatch`] given each run's
    /// candidates in turn ([`FlockBatch::add_finite_block`]) and finished
    /// makes, to the bit, but on eight lanes it keeps the sums in registers
    /// from the first candidate to the total. A neighbor grid calls it once
    /// an agent, with a run for each row of cells round it.
    ///
    /// ```
    /// # use glam::Vec2;
    /// # use reynolds::flock::{FlockParams, FlockSums, FlockView, NeighborBlock};
    /// let (xs, ys, still) = ([10.0, 500.0, 20.0], [0.0; 3], [0.0; 3]);
    /// let candidates = NeighborBlock { xs: &xs, ys: &ys, vxs: &still, vys: &still, radii: None };
    /// let params = FlockParams::default();
    /// let view = FlockView::new(&params, Vec2::ZERO);
    /// // Seen from the origin: the first two (one within reach, one far
    /// // off), and the third seen from (20, 0), on the agent's spot.
    /// let runs = [(0..2, Vec2::ZERO), (2..3, Vec2::new(-20.0, 0.0))];
    /// let sums = FlockSums::of_finite_runs(&view, candidates, &runs);
    /// assert_eq!((sums.neighbors(), sums.on_spot()), (1, 1));
    /// ```
    #[inline]
    pub fn of_finite_runs(
        view: &FlockView,
        candidates: NeighborBlock,
        runs: &[(Range<usize>, Vec2)],
    ) -> FlockSums {
        batch::sums_of_finite_runs(view, candidates, runs)
    }
}

/// `v` over its `length`, one division: [`direction`] where the length is
/// too small or too large for that to be exact (or not finite).
#[inline]
fn unit<V: SteeringVector>(v: V, length: f32) -> V {
    if (1e-18..1e18).contains(&length) {
        v * (1.0 / length)
    } else {
        direction(v)
    }
}

/// The flocking steering of an agent with velocity `vel` (which is also
/// where it looks) among `neighbors`, in one pass: [`FlockSums`] over them,
/// then [`FlockSums::steering`].
///
/// ```
/// # use reynolds::flock::{FlockParams, Neighbor, flock_steering};
/// # use glam::Vec2;
/// // A neighbor 10 px to the right pushes the agent left.
/// let near = [Neighbor { offset: Vec2::new(10.0, 0.0), ..Default::default() }];
/// let params = FlockParams { alignment_weight: 0.0, cohesion_weight: 0.0, ..Default::default() };
/// let force = flock_steering(Vec2::ZERO, near, &params, 220.0, 0.15);
/// assert!(force.x < 0.0 && force.y == 0.0);
/// ```
pub fn flock_steering<V: SteeringVector>(
    vel: V,
    neighbors: impl IntoIterator<Item = Neighbor<V>>,
    params: &FlockParams,
    max_speed: f32,
    response_time: f32,
) -> V {
    let view = FlockView::new(params, vel);
    let mut sums = FlockSums::default();
    for neighbor in neighbors {
        sums.add(neighbor, &view);
    }
    sums.steering(vel, params, max_speed, response_time)
}

/// Which way an agent on the very spot of another is pushed, as a unit
/// vector: a direction made from the two ids alone, the opposite one for
/// the other agent, so two agents spawned on one spot part symmetrically,
/// the same way in every run and on any number of threads. Zero for the same
/// id.
///
/// ```
/// # use reynolds::flock::tie_break;
/// let (a, b) = (tie_break(7, 42), tie_break(42, 7));
/// assert!((a.length() - 1.0).abs() < 1e-6);
/// assert_eq!(a, -b);
/// ```
pub fn tie_break(own: u64, other: u64) -> Vec2 {
    if own == other {
        return Vec2::ZERO;
    }
    // A point in the unit square from each id (splitmix64): the push is
    // from the other's point toward one's own.
    let point = |id: u64| {
        let mut z = id.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Vec2::new((z as u32) as f32, ((z >> 32) as u32) as f32) / u32::MAX as f32
    };
    match direction(point(own) - point(other)) {
        // Two ids on one point: still opposite ways.
        Vec2::ZERO if own < other => -Vec2::X,
        Vec2::ZERO => Vec2::X,
        away => away,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MIN_RESPONSE_TIME;

    /// Adding the three rules up before dividing by the response time
    /// changes only the rounding of the model's rule-by-rule sum, at any
    /// scale from subnormal to near `f32::MAX`, and stays finite.
    #[test]
    fn adding_the_rules_first_changes_only_the_rounding() {
        let scales = [1e-40, 1e-3, 0.5, 1.0, 70.0, 1e4, 1e20, 3e38];
        let params = FlockParams::default();
        let weights = [
            params.separation_weight,
            params.alignment_weight,
            params.cohesion_weight,
        ];
        let vel = Vec2::new(120.0, -40.0);
        for a in scales {
            for b in scales {
                for rt in [MIN_RESPONSE_TIME, 0.15, 2.0] {
                    let sums = FlockSums {
                        push: Vec2::new(a, -0.5 * b),
                        pushers: 2,
                        velocity: Vec2::new(-b, 0.3 * a),
                        offset: Vec2::new(0.7 * b, a),
                        neighbors: 3,
                        on_spot: 1,
                    };
                    let summed = sums.steering(vel, &params, 220.0, rt);
                    let by_rule = sums.steering_rule_by_rule(vel, 220.0, rt, weights);
                    assert!(summed.is_finite(), "{a} {b} {rt}: {summed}");
                    // Each rule is at most (its desired speed + the speed) / rt
                    // times its weight; rounding is relative to those.
                    let largest = (220.0 + (sums.velocity / 3.0).length() + vel.length()) / rt;
                    let tolerance = 1e-5 * largest * weights.iter().sum::<f32>();
                    assert!(
                        (summed - by_rule).length() <= tolerance,
                        "{a} {b} {rt}: {summed} against {by_rule}"
                    );
                }
            }
        }
    }

    /// A view made facing nowhere and turned sees as one made facing that
    /// way: turning keeps the cone (a grid turns one view a kind for each
    /// of its agents).
    #[test]
    fn a_turned_view_sees_as_one_made_facing_that_way() {
        let headings = [Vec2::X, Vec2::new(-3.0, 4.0), Vec2::ZERO, Vec2::NAN];
        for angle in [None, Some(0.5), Some(2.0), Some(f32::INFINITY)] {
            let params = FlockParams {
                view_half_angle: angle,
                ..FlockParams::default()
            };
            for heading in headings {
                let turned = FlockView::new(&params, Vec2::ZERO)
                    .facing(Vec2::Y)
                    .facing(heading);
                assert_eq!(
                    format!("{turned:?}"),
                    format!("{:?}", FlockView::new(&params, heading)),
                    "{angle:?}, {heading}"
                );
            }
        }
        let cone = FlockParams {
            view_half_angle: Some(0.5),
            ..FlockParams::default()
        };
        assert_eq!(
            FlockView::new(&cone, Vec2::ZERO).facing(Vec2::X).min_cos,
            0.5f32.cos()
        );
    }

    /// Eight candidates at a time (AVX2) and four at a time into each half
    /// in turn make the same sums to the bit: blocks of every length up to
    /// three groups of eight, with and without radii, a view cone and
    /// velocities to check, candidates on the spot, near and far.
    #[test]
    fn eight_lanes_and_four_make_the_same_sums() {
        if !batch::has_eight_lanes() {
            eprintln!("no AVX2 here: only four lanes to compare");
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |range: f32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * range - range
        };
        let mut compared = 0;
        for len in 0..=24 {
            for variant in 0..8 {
                let mut params = FlockParams::default();
                if variant & 1 == 1 {
                    params.view_half_angle = Some(2.0);
                }
                let view = FlockView::new(&params, Vec2::new(0.6, 0.8))
                    .with_body_radius(if variant & 2 == 2 { 3.0 } else { 0.0 });
                let mut columns: [Vec<f32>; 5] = Default::default();
                for i in 0..len {
                    // Some on the agent's spot, most within reach.
                    let (x, y) = if i % 7 == 3 {
                        (0.0, 0.0)
                    } else {
                        (next(90.0), next(90.0))
                    };
                    let vx = if variant & 4 == 4 && i % 5 == 1 {
                        f32::NAN
                    } else {
                        next(200.0)
                    };
                    for (column, value) in
                        columns
                            .iter_mut()
                            .zip([x, y, vx, next(200.0), next(8.0).abs()])
                    {
                        column.push(value);
                    }
                }
                let [xs, ys, vxs, vys, radii] = &columns;
                let block = NeighborBlock {
                    xs,
                    ys,
                    vxs,
                    vys,
                    radii: (variant & 2 == 2).then_some(&radii[..]),
                };
                let sums = |eight_lanes: bool| {
                    let mut batch = FlockBatch::new(&view);
                    batch.eight_lanes = eight_lanes && batch::has_eight_lanes();
                    // Two blocks, as a grid's runs come.
                    batch.add_block(block, Vec2::new(0.5, -0.25));
                    batch.add_block(block, Vec2::ZERO);
                    format!("{:?}", batch.finish())
                };
                assert_eq!(
                    sums(true),
                    sums(false),
                    "{len} candidates, variant {variant}"
                );
                // Runs of the block, their sums kept in registers, against
                // four lanes through memory.
                // The last two past the end and backwards: clamped to the
                // candidates there are, and empty.
                let runs = [
                    (0..len, Vec2::new(0.5, -0.25)),
                    (len / 3..len, Vec2::ZERO),
                    (len / 2..len + 9, Vec2::X),
                    (len + 3..len + 1, Vec2::Y),
                ];
                let cut = [0..len, len / 3..len, len / 2..len];
                let mut four = FlockBatch::new(&view);
                four.eight_lanes = false;
                for (range, (_, shift)) in cut.into_iter().zip(&runs) {
                    let run = NeighborBlock {
                        xs: &block.xs[range.clone()],
                        ys: &block.ys[range.clone()],
                        vxs: &block.vxs[range.clone()],
                        vys: &block.vys[range.clone()],
                        radii: block.radii.map(|r| &r[range.clone()]),
                    };
                    four.add_finite_block(run, *shift);
                }
                assert_eq!(
                    format!("{:?}", FlockSums::of_finite_runs(&view, block, &runs)),
                    format!("{:?}", four.finish()),
                    "runs of {len} candidates, variant {variant}"
                );
                compared += 1;
            }
        }
        assert_eq!(compared, 25 * 8);
    }
}
