//! Bodies that never pass into each other: after its step, an agent's
//! velocity is the one nearest to what its steering chose that closes no
//! gap to a neighbor by more than its share of that gap in one step. Two
//! agents that each take half of their gap cannot overlap after the step,
//! whatever the other does: their gap shrinks at most by the sum of the
//! halves. A constraint, as a physics engine's contact is, where the
//! anticipatory push is a force; it only binds within a step or two of
//! touching, so the push does the steering.

use crate::math::Vector;

/// At most this many neighbors limit one agent (the ones that limit it
/// most): bodies of one size touch at most six others.
pub const MAX_CLOSING: usize = 16;

/// A limit on an agent's velocity: its speed toward a neighbor (along
/// `toward`, a unit vector) at most `most`, which is never negative, so
/// standing still keeps every limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closing {
    /// From the agent toward the neighbor, a unit vector.
    pub toward: Vector,
    /// How fast it may go that way, at least 0.
    pub most: f32,
}

impl Closing {
    /// The limit from a neighbor `offset` away (the neighbor's position
    /// minus the agent's), whose body touches the agent's at `radius_sum`
    /// apart: in a step of `dt`, the agent closes at most `share` of the
    /// gap, `share` being ½ when the neighbor keeps its half too and 1 when
    /// it does not (then `neighbor_velocity` says how it moves). `None`
    /// when no speed up to `max_speed` can break it, or from bad input.
    ///
    /// ```
    /// # use reynolds::{crowd::contact::Closing, math::Vector};
    /// // 10 cm between two bodies, a 60th of a second: half of 10 cm a step.
    /// let limit = Closing::new(Vector::new(1.1, 0.0), 1.0, 0.5, Vector::ZERO, 1.0 / 60.0, 5.0);
    /// let limit = limit.unwrap();
    /// assert_eq!(limit.toward, Vector::X);
    /// assert!((limit.most - 3.0).abs() < 1e-4);
    /// ```
    pub fn new(
        offset: Vector,
        radius_sum: f32,
        share: f32,
        neighbor_velocity: Vector,
        dt: f32,
        max_speed: f32,
    ) -> Option<Self> {
        let distance = offset.length();
        if !(distance > 0.0 && dt > 0.0 && share > 0.0) {
            return None;
        }
        let toward = offset / distance;
        let gap = distance - radius_sum;
        let most = (share * gap / dt + neighbor_velocity.dot(toward)).max(0.0);
        (most < max_speed && toward.is_finite()).then_some(Self { toward, most })
    }

    /// Whether `vel` keeps it.
    #[inline]
    pub fn keeps(&self, vel: Vector) -> bool {
        vel.dot(self.toward) <= self.most
    }
}

/// Up to [`MAX_CLOSING`] limits, those that limit most kept when there are
/// more: on the stack, so a step allocates nothing.
#[derive(Clone, Debug)]
pub struct Closings {
    limits: [Closing; MAX_CLOSING],
    len: usize,
}

impl Default for Closings {
    fn default() -> Self {
        Self {
            limits: [Closing {
                toward: Vector::X,
                most: 0.0,
            }; MAX_CLOSING],
            len: 0,
        }
    }
}

impl Closings {
    /// Adds `limit`, or, when full, puts it in place of the loosest if it is
    /// tighter.
    pub fn push(&mut self, limit: Closing) {
        if self.len < MAX_CLOSING {
            self.limits[self.len] = limit;
            self.len += 1;
            return;
        }
        let loosest = (0..MAX_CLOSING)
            .max_by(|&a, &b| self.limits[a].most.total_cmp(&self.limits[b].most))
            .unwrap_or(0);
        if limit.most < self.limits[loosest].most {
            self.limits[loosest] = limit;
        }
    }

    /// The limits.
    pub fn as_slice(&self) -> &[Closing] {
        &self.limits[..self.len]
    }

    /// The velocity nearest to `vel` that keeps every limit: `vel` itself
    /// if it does. Never faster than `vel` (every limit lets the agent
    /// stand still, so the nearest point is no farther from still), and
    /// still when rounding leaves no velocity that keeps them all.
    ///
    /// Seidel's incremental way, as RVO2's `linearProgram2`: while `vel`
    /// keeps the limits so far, it stays; when it breaks one, the nearest
    /// velocity that keeps that one and those before lies on that one's
    /// line, an interval of it.
    ///
    /// ```
    /// # use reynolds::{crowd::contact::{Closing, Closings}, math::Vector};
    /// let mut limits = Closings::default();
    /// limits.push(Closing { toward: Vector::X, most: 0.5 });
    /// limits.push(Closing { toward: Vector::Y, most: 0.0 });
    /// // Wanting (2, 1): east at most 0.5, north not at all.
    /// assert_eq!(limits.nearest(Vector::new(2.0, 1.0)), Vector::new(0.5, 0.0));
    /// ```
    pub fn nearest(&self, vel: Vector) -> Vector {
        let limits = self.as_slice();
        let mut chosen = vel;
        for (i, limit) in limits.iter().enumerate() {
            if limit.keeps(chosen) {
                continue;
            }
            // On the line `v · toward = most`: a point of it and its
            // direction, and the interval the limits before allow.
            let on = limit.toward * limit.most;
            let along = limit.toward.perp();
            let (mut low, mut high) = (f32::NEG_INFINITY, f32::INFINITY);
            for before in &limits[..i] {
                let rate = before.toward.dot(along);
                let room = before.most - before.toward.dot(on);
                if rate.abs() <= 1e-6 {
                    // Parallel: all of the line or none of it. The same
                    // limit twice (a rock in two of the index's cells, two
                    // walls meeting at the corner it touches) is all of
                    // it, though rounding leaves `room` a hair below 0.
                    if room < -1e-5 * before.most.max(limit.most) {
                        return Vector::ZERO;
                    }
                    continue;
                }
                let t = room / rate;
                if rate > 0.0 {
                    high = high.min(t);
                } else {
                    low = low.max(t);
                }
            }
            if low > high {
                return Vector::ZERO;
            }
            chosen = on + along * (vel - on).dot(along).clamp(low, high);
        }
        if chosen.is_finite() {
            chosen
        } else {
            Vector::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bodies closing head-on, each keeping its half: after one step
    /// their gap is still at least 0, whatever speeds they asked for.
    #[test]
    fn halves_never_overlap() {
        let dt = 1.0 / 60.0;
        for gap in [0.0f32, 0.001, 0.01, 0.05, 0.2] {
            for speed in [0.1f32, 1.0, 5.0, 50.0] {
                let (a, b) = (Vector::ZERO, Vector::new(1.0 + gap, 0.3));
                let limit = |from: Vector, to: Vector| {
                    let mut limits = Closings::default();
                    if let Some(l) = Closing::new(to - from, 1.0, 0.5, Vector::ZERO, dt, 1e9) {
                        limits.push(l);
                    }
                    limits
                };
                let va = limit(a, b).nearest((b - a).normalize() * speed);
                let vb = limit(b, a).nearest((a - b).normalize() * speed);
                let after = (b + vb * dt).distance(a + va * dt);
                assert!(after >= 1.0 - 1e-5, "gap {gap}, speed {speed}: {after}");
            }
        }
    }

    /// The nearest velocity is on the boundary when the wanted one breaks
    /// a limit, keeps every limit, and is no faster than the wanted one.
    #[test]
    fn nearest_keeps_every_limit() {
        let wants = [
            Vector::new(3.0, 1.0),
            Vector::new(-2.0, 4.0),
            Vector::new(0.1, -5.0),
        ];
        let mut limits = Closings::default();
        for (angle, most) in [(0.3f32, 0.5f32), (1.9, 0.0), (-1.2, 1.0), (3.0, 0.2)] {
            limits.push(Closing {
                toward: Vector::from_angle(angle),
                most,
            });
        }
        for want in wants {
            let v = limits.nearest(want);
            assert!(v.length() <= want.length() + 1e-5, "{want} -> {v}");
            for limit in limits.as_slice() {
                assert!(v.dot(limit.toward) <= limit.most + 1e-4, "{want} -> {v}");
            }
        }
    }

    /// A body touching a rock that the index has in two cells gets its
    /// limit twice: pressed into it, it slides along it, as with the limit
    /// once. (Rounding used to read the second as contradicting the first,
    /// and stop it dead: a level demo's traveller stood there for good.)
    #[test]
    fn the_same_limit_twice_still_lets_it_slide() {
        let rock = Closing {
            toward: Vector::new(-0.997_723_7, -0.067_435_16),
            most: 0.782_546_9,
        };
        let want = Vector::new(-3.011_364, -5.571_607);
        let mut once = Closings::default();
        once.push(rock);
        let mut twice = once.clone();
        twice.push(rock);
        let slide = once.nearest(want);
        assert!(slide.length() > 5.0, "{slide}");
        assert!(
            twice.nearest(want).abs_diff_eq(slide, 1e-4),
            "{}",
            twice.nearest(want)
        );
    }

    #[test]
    fn bad_input_gives_no_nan() {
        let bad = [f32::NAN, f32::INFINITY, -1.0, 0.0];
        let finite = |l: Option<Closing>| {
            l.is_none_or(|l| l.most.is_finite() && l.most >= 0.0 && l.toward.is_finite())
        };
        for &x in &bad {
            let v = Vector::new(x, 0.0);
            let two = Vector::X * 2.0;
            assert!(finite(Closing::new(v, 1.0, 0.5, Vector::ZERO, 0.1, 5.0)));
            assert!(finite(Closing::new(two, x, 0.5, Vector::ZERO, 0.1, 5.0)));
            assert!(finite(Closing::new(two, 1.0, x, Vector::ZERO, 0.1, 5.0)));
            assert!(finite(Closing::new(two, 1.0, 0.5, v, 0.1, 5.0)));
            assert!(finite(Closing::new(two, 1.0, 0.5, Vector::ZERO, x, 5.0)));
            assert!(finite(Closing::new(two, 1.0, 0.5, Vector::ZERO, 0.1, x)));
        }
        let mut limits = Closings::default();
        limits.push(Closing {
            toward: Vector::X,
            most: 0.0,
        });
        assert!(limits.nearest(Vector::new(f32::NAN, 1.0)).is_finite());
    }
}
