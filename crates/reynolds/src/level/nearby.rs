//! The few shapes near one agent ([`Nearby`]), gathered once for all the
//! probes it casts in a step, and tested four lanes at a time.

use glam::Vec2;
use wide::f32x4;

use super::{Probe, Shape};
use crate::math::closest_on_segment;

/// A numbered shape a probe touches first, and how far along the probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Touch {
    /// The shape's number, as it was offered.
    pub number: u32,
    /// The shape.
    pub shape: Shape,
    /// How far along the probe the swept body first touches it.
    pub at: f32,
}

impl Touch {
    /// Whether this touch comes before `other`: nearer, or as near and
    /// lower-numbered (so the first of several does not depend on the
    /// order they were tested in).
    #[inline]
    pub(super) fn comes_before(&self, other: &Touch) -> bool {
        self.at < other.at || (self.at == other.at && self.number < other.number)
    }
}

/// The most shapes a [`Nearby`] holds.
const NEARBY: usize = 32;

/// The shapes near one agent, each with a number (its place in the index,
/// or an edge's in its area): those a probe from where the agent is, within
/// its reach, could touch. An avoiding agent probes up to 30 directions a
/// step, all from there, as far and as wide: each tests these few rather
/// than look them up again, four lanes at a time.
#[derive(Debug, Clone)]
pub struct Nearby {
    shapes: [(u32, Shape); NEARBY],
    len: usize,
    /// The circles among them, and each wall's two round ends, as the
    /// probes see them, by lane: the offset of each centre and `offset² -
    /// (radius + the probe's radius)²`, so a probe's test is a dot product
    /// and a square root. Lanes past the last hold one that is never hit.
    to_x: [f32; ROUND_LANES],
    to_y: [f32; ROUND_LANES],
    c: [f32; ROUND_LANES],
    /// Each lane's place in `shapes`.
    lane_shape: [u8; ROUND_LANES],
    circles: usize,
    /// The walls' two long sides, by lane: one end, the unit vector along
    /// the wall, the distance of the probes' start from its line
    /// (`(from - a) · normal`) and its length. Lanes past the last have a
    /// length of -1, along which nothing lies.
    wall_x: [f32; NEARBY],
    wall_y: [f32; NEARBY],
    along_x: [f32; NEARBY],
    along_y: [f32; NEARBY],
    off_line: [f32; NEARBY],
    wall_len: [f32; NEARBY],
    side_shape: [u8; NEARBY],
    sides: usize,
    /// Walls the probes start inside (or not finite): tested as
    /// [`Probe::hit`] tests them.
    odd_walls: [u8; NEARBY],
    odd: usize,
    /// Where, how far and how wide its probes are (the reach a little
    /// padded).
    from: Vec2,
    reach: f32,
    radius: f32,
    /// Whether every shape in reach fit: if not, probes test them all.
    pub complete: bool,
}

impl Default for Nearby {
    fn default() -> Self {
        let none = Shape::Circle {
            center: Vec2::ZERO,
            radius: 0.0,
        };
        Self {
            shapes: [(0, none); NEARBY],
            len: 0,
            to_x: [0.0; ROUND_LANES],
            to_y: [0.0; ROUND_LANES],
            c: [f32::INFINITY; ROUND_LANES],
            lane_shape: [0; ROUND_LANES],
            circles: 0,
            wall_x: [0.0; NEARBY],
            wall_y: [0.0; NEARBY],
            along_x: [0.0; NEARBY],
            along_y: [0.0; NEARBY],
            off_line: [0.0; NEARBY],
            wall_len: [-1.0; NEARBY],
            side_shape: [0; NEARBY],
            sides: 0,
            odd_walls: [0; NEARBY],
            odd: 0,
            from: Vec2::ZERO,
            reach: 0.0,
            radius: 0.0,
            complete: true,
        }
    }
}

impl Nearby {
    /// Starts gathering what the probes from `from`, `length` long and
    /// `radius` wide, could touch, to be offered with
    /// [`offer`](Self::offer). `false` if any is not finite: then probes
    /// test every shape.
    pub fn start(&mut self, from: Vec2, length: f32, radius: f32) -> bool {
        self.empty();
        self.complete = true;
        let reach = length + radius;
        if !(from.is_finite() && reach.is_finite()) {
            self.overflow();
            return false;
        }
        // A shape a probe touches is no farther than its reach, but the
        // distance and the probe round differently: a ten-thousandth of the
        // coordinates' size more keeps every one (at 4,000 px, 0.4 px).
        self.from = from;
        self.reach = reach + 1e-4 * (from.abs().max_element() + reach) + 1e-3;
        self.radius = radius;
        true
    }

    /// Keeps shape `i` if it is within reach (a shape may be offered more
    /// than once).
    #[inline(always)]
    pub fn offer(&mut self, i: u32, shape: &Shape) {
        // Its bounds first, here where it is offered: most shapes offered
        // are out of reach, and the distance to a box needs no square root.
        let (min, max) = shape.bounds();
        let outside = (min - self.from).max(self.from - max).max(Vec2::ZERO);
        if self.complete && outside.length_squared() <= self.reach * self.reach {
            self.offer_near(i, shape);
        }
    }

    /// [`offer`](Self::offer), for a shape whose bounds are within reach.
    #[inline(never)]
    fn offer_near(&mut self, i: u32, shape: &Shape) {
        if self.shapes[..self.len].iter().any(|&(j, _)| j == i) {
            return;
        }
        // `Shape::distance`, a wall's kept for whether the probes start
        // inside it.
        let distance = match *shape {
            Shape::Circle { .. } => shape.distance(self.from),
            Shape::Wall { a, b } => (self.from - closest_on_segment(self.from, a, b)).length(),
        };
        if distance > self.reach {
            return;
        }
        if self.len == NEARBY {
            return self.overflow();
        }
        let slot = self.len as u8;
        // What `Probe::hit` computes of each, operation for operation.
        match *shape {
            Shape::Circle { center, radius } => self.round(slot, center, radius + self.radius),
            Shape::Wall { a, b } => {
                if !(a.is_finite() && b.is_finite()) || distance <= self.radius {
                    self.odd_walls[self.odd] = slot;
                    self.odd += 1;
                } else {
                    // `ray_capsule`: its round ends, then its long sides.
                    self.round(slot, a, self.radius);
                    self.round(slot, b, self.radius);
                    let ab = b - a;
                    let len = ab.length();
                    if len > 0.0 {
                        let along = ab / len;
                        let lane = self.sides;
                        (self.wall_x[lane], self.wall_y[lane]) = (a.x, a.y);
                        (self.along_x[lane], self.along_y[lane]) = (along.x, along.y);
                        self.off_line[lane] = (self.from - a).dot(along.perp());
                        self.wall_len[lane] = len;
                        self.side_shape[lane] = slot;
                        self.sides += 1;
                    }
                }
            }
        }
        self.shapes[self.len] = (i, *shape);
        self.len += 1;
    }

    /// A disc round `center`, `radius` wide with the probe, in the next
    /// round lane.
    fn round(&mut self, slot: u8, center: Vec2, radius: f32) {
        let to = center - self.from;
        let lane = self.circles;
        self.to_x[lane] = to.x;
        self.to_y[lane] = to.y;
        self.c[lane] = to.length_squared() - radius * radius;
        self.lane_shape[lane] = slot;
        self.circles += 1;
    }

    /// How many shapes it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How far from where it was started a shape may be and still be kept
    /// (the probes' reach, a little padded).
    pub(super) fn reach(&self) -> f32 {
        self.reach
    }

    /// Gives up on gathering: probes test every shape.
    pub fn overflow(&mut self) {
        self.empty();
        self.complete = false;
    }

    /// Holds no shape: the lanes used so far hold shapes never hit again
    /// (else the next gathering's last lanes would test this one's).
    fn empty(&mut self) {
        self.c[..self.circles.next_multiple_of(LANES)].fill(f32::INFINITY);
        self.wall_len[..self.sides.next_multiple_of(LANES)].fill(-1.0);
        (self.len, self.circles, self.sides, self.odd) = (0, 0, 0, 0);
    }

    /// The first gathered shape the probe touches (the lowest-numbered of
    /// those it touches first). The same as testing each with
    /// [`Probe::hit`], to the bit.
    pub fn first_hit(&self, probe: &Probe) -> Option<Touch> {
        // Most agents are far from every edge of their area.
        if self.len == 0 {
            return None;
        }
        if probe.from != self.from || probe.radius != self.radius {
            // Not a probe it was gathered for.
            return first_hit_among(self.shapes[..self.len].iter().copied(), probe);
        }
        let odd = self.odd_walls[..self.odd]
            .iter()
            .map(|&k| self.shapes[k as usize]);
        let mut best = first_hit_among(odd, probe);
        self.hit_lanes(probe, |t, hits, shape_of| {
            let mut hits = hits.to_bitmask();
            let t = t.to_array();
            while hits != 0 {
                let lane = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                let (number, shape) = self.shapes[shape_of[lane] as usize];
                let touch = Touch {
                    number,
                    shape,
                    at: t[lane],
                };
                if best.is_none_or(|best| touch.comes_before(&best)) {
                    best = Some(touch);
                }
            }
            false
        });
        best
    }

    /// Whether the probe touches no gathered shape sooner than `reach`
    /// along: [`first_hit`](Self::first_hit)`(probe).is_none_or(|t| t.at >=
    /// reach)`, to the bit, without finding which is first.
    pub fn clear(&self, probe: &Probe, reach: f32) -> bool {
        if self.len == 0 {
            return true;
        }
        if probe.from != self.from || probe.radius != self.radius {
            return self.first_hit(probe).is_none_or(|touch| touch.at >= reach);
        }
        let odd = self.odd_walls[..self.odd]
            .iter()
            .map(|&k| self.shapes[k as usize]);
        // (A hit is never NaN.)
        if first_hit_among(odd, probe).is_some_and(|touch| touch.at < reach) {
            return false;
        }
        let reach = Lanes::splat(reach);
        // (`!(t >= reach)`, not `t < reach`: a NaN is not clear.)
        !self.hit_lanes(probe, |t, hits, _| {
            (hits & !t.simd_ge(reach)).to_bitmask() != 0
        })
    }

    /// The probe against every lane of round and long sides, four at a
    /// time: `each(t, hits, lane_shape)` for each four, with where along
    /// the probe each lane is touched and which are (within its length),
    /// until it returns `true`; whether one did.
    fn hit_lanes(&self, probe: &Probe, mut each: impl FnMut(Lanes, Lanes, &[u8]) -> bool) -> bool {
        let (dir_x, dir_y) = (Lanes::splat(probe.dir.x), Lanes::splat(probe.dir.y));
        let (zero, length) = (Lanes::ZERO, Lanes::splat(probe.length));
        for start in (0..self.circles.next_multiple_of(LANES)).step_by(LANES) {
            let (to_x, to_y, c) = (
                load(&self.to_x, start),
                load(&self.to_y, start),
                load(&self.c, start),
            );
            // `ray_circle`: from inside, a hit at once unless on its way
            // out; from outside, where it enters, if it does. (Inside,
            // `c <= 0` makes the square root at least `|b|`, so `t` is 0.)
            let b = to_x * dir_x + to_y * dir_y;
            let disc = b * b - c;
            let inside = c.simd_le(zero);
            let enters = b.simd_gt(zero) & disc.simd_ge(zero);
            let t = (b - disc.sqrt()).max(zero);
            let hits = inside.select(b.simd_ge(zero), enters) & t.simd_le(length);
            if each(t, hits, &self.lane_shape[start..]) {
                return true;
            }
        }
        let (from_x, from_y) = (Lanes::splat(probe.from.x), Lanes::splat(probe.from.y));
        let radius = probe.radius;
        for start in (0..self.sides.next_multiple_of(LANES)).step_by(LANES) {
            let (along_x, along_y) = (load(&self.along_x, start), load(&self.along_y, start));
            let (wall_x, wall_y) = (load(&self.wall_x, start), load(&self.wall_y, start));
            let (off_line, len) = (load(&self.off_line, start), load(&self.wall_len, start));
            // `ray_capsule`'s long sides: lines parallel to the wall,
            // `radius` off it (the normal is the direction along, turned
            // left), where the probe crosses them within the wall's length.
            let facing = dir_x * -along_y + dir_y * along_x;
            for side in [radius, -radius] {
                let t = (Lanes::splat(side) - off_line) / facing;
                let s = ((from_x + dir_x * t) - wall_x) * along_x
                    + ((from_y + dir_y * t) - wall_y) * along_y;
                // Parallel to the wall, `t` is infinite or NaN: past any
                // probe's length (a gathering's is finite), as no crossing.
                let hits = t.simd_ge(zero) & s.simd_ge(zero) & s.simd_le(len) & t.simd_le(length);
                if each(t, hits, &self.side_shape[start..]) {
                    return true;
                }
            }
        }
        false
    }
}

/// The most lanes of discs a [`Nearby`] holds: a circle takes one, a wall
/// two (its ends).
const ROUND_LANES: usize = 2 * NEARBY;

/// Shapes tested at once (by a [`Nearby`], and by the cells' lists): one
/// SSE, NEON or WebAssembly register, so each operation is one
/// instruction. (Eight lanes took two a step without a build flag, and a
/// [`Nearby`] rarely has more than four shapes to fill them.)
pub(super) type Lanes = f32x4;

/// How many lanes a [`Lanes`] has.
pub(super) const LANES: usize = 4;

/// The lanes of `a` from `start`.
#[inline]
fn load(a: &[f32], start: usize) -> Lanes {
    Lanes::new(
        *a[start..start + LANES]
            .as_array()
            .expect("a whole register"),
    )
}

/// The first of `shapes` the probe touches (the lowest-numbered of those it
/// touches first).
pub fn first_hit_among(
    shapes: impl IntoIterator<Item = (u32, Shape)>,
    probe: &Probe,
) -> Option<Touch> {
    let mut best: Option<Touch> = None;
    for (number, shape) in shapes {
        if let Some(at) = probe.hit(&shape) {
            let touch = Touch { number, shape, at };
            if best.is_none_or(|best| touch.comes_before(&best)) {
                best = Some(touch);
            }
        }
    }
    best
}
