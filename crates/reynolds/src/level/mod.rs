//! A level's geometry and the behaviors that keep an agent out of it:
//! obstacle and wall avoidance, and containment. Each is a desired velocity,
//! so the model's `(desired - vel) / response_time` applies unchanged.
//! Avoidance looks along a *probe*: the body swept from where the agent is
//! in the direction it means to go, as far as its look-ahead. If the swept
//! body would touch a circle or a wall, the agent turns, to the side that
//! goes round the first one the short way, as little as clears everything
//! in reach ([`best_way`]).

mod index;
mod nearby;
mod reach_lists;

use glam::Vec2;

use crate::math::{closest_on_segment, direction, finite_or_zero, sanitize_speed};
use crate::model::sanitize_response_time;

pub use index::{IndexedShape, ShapeHit, ShapeIndex};
pub use nearby::{Nearby, Touch, first_hit_among};

/// An obstacle an agent's body must not enter: a circle, or a wall segment
/// (walls are seen from both sides; a closed polygon is a ring of them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A disc around `center`.
    Circle {
        /// Its middle.
        center: Vec2,
        /// Its radius (not negative).
        radius: f32,
    },
    /// A wall from `a` to `b`, of no thickness.
    Wall {
        /// One end.
        a: Vec2,
        /// The other end.
        b: Vec2,
    },
}

impl Shape {
    /// The point of the shape nearest `p`.
    #[inline]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        match *self {
            Shape::Circle { center, radius } => {
                let out = direction(p - center);
                // At the centre, any point of the rim is as near.
                let out = if out == Vec2::ZERO { Vec2::X } else { out };
                center + out * radius
            }
            Shape::Wall { a, b } => closest_on_segment(p, a, b),
        }
    }

    /// How far `p` is from the shape's edge: negative inside a circle, 0 on
    /// a wall.
    #[inline]
    pub fn distance(&self, p: Vec2) -> f32 {
        match *self {
            Shape::Circle { center, radius } => p.distance(center) - radius,
            Shape::Wall { a, b } => p.distance(closest_on_segment(p, a, b)),
        }
    }

    /// Whether every number in it is finite and a circle's radius is not
    /// negative.
    pub fn is_valid(&self) -> bool {
        match *self {
            Shape::Circle { center, radius } => {
                center.is_finite() && radius.is_finite() && radius >= 0.0
            }
            Shape::Wall { a, b } => a.is_finite() && b.is_finite(),
        }
    }

    /// The smallest axis-aligned box round it: (min, max).
    pub fn bounds(&self) -> (Vec2, Vec2) {
        match *self {
            Shape::Circle { center, radius } => (center - radius, center + radius),
            Shape::Wall { a, b } => (a.min(b), a.max(b)),
        }
    }
}

/// The circle round a thing made of `shapes` that a hider can hide
/// behind ([`hiding_spot`](crate::behaviors::hiding_spot)): centred on the
/// mean of its circles' centres and its walls' ends (a polygon's corners),
/// just wide enough to hold them all. `None` for no shapes. For a convex
/// thing the centre is inside it, so a line through the centre is blocked.
///
/// ```
/// # use reynolds::level::{Shape, cover_circle};
/// # use glam::Vec2;
/// let wall = Shape::Wall { a: Vec2::new(-40.0, 0.0), b: Vec2::new(40.0, 0.0) };
/// assert_eq!(cover_circle([wall]), Some((Vec2::ZERO, 40.0)));
/// ```
pub fn cover_circle<I>(shapes: I) -> Option<(Vec2, f32)>
where
    I: IntoIterator<Item = Shape>,
    I::IntoIter: Clone,
{
    let shapes = shapes.into_iter();
    let (mut sum, mut count) = (Vec2::ZERO, 0.0f32);
    for shape in shapes.clone() {
        match shape {
            Shape::Circle { center, .. } => (sum, count) = (sum + center * 2.0, count + 2.0),
            Shape::Wall { a, b } => (sum, count) = (sum + a + b, count + 2.0),
        }
    }
    if count == 0.0 {
        return None;
    }
    let center = finite_or_zero(sum / count);
    let radius = shapes
        .map(|shape| match shape {
            Shape::Circle { center: c, radius } => c.distance(center) + radius,
            Shape::Wall { a, b } => a.distance(center).max(b.distance(center)),
        })
        .fold(0.0, f32::max);
    Some((center, radius))
}

/// The body swept ahead of an agent: from `from`, along the unit vector
/// `dir`, as far as `length`, with the body's radius `radius` (plus any
/// clearance the agent keeps).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// Where the body is now.
    pub from: Vec2,
    /// The way it means to go: a unit vector.
    pub dir: Vec2,
    /// How far ahead it looks.
    pub length: f32,
    /// The body's radius, plus the clearance it keeps.
    pub radius: f32,
}

impl Probe {
    /// How far along the probe the swept body first touches `shape`, or
    /// `None` if it does not within the probe's length. 0 if it already
    /// touches it, unless it is moving out of it.
    #[inline]
    pub fn hit(&self, shape: &Shape) -> Option<f32> {
        let t = match *shape {
            Shape::Circle { center, radius } => {
                ray_circle(self.from, self.dir, center, radius + self.radius)
            }
            Shape::Wall { a, b } => ray_capsule(self.from, self.dir, a, b, self.radius),
        }?;
        (t <= self.length).then_some(t)
    }
}

/// Where the ray `from + dir * t` (t ≥ 0, `dir` a unit vector) first enters
/// the disc, 0 if it starts inside.
#[inline]
fn ray_circle(from: Vec2, dir: Vec2, center: Vec2, radius: f32) -> Option<f32> {
    let to = center - from;
    let c = to.length_squared() - radius * radius;
    let b = to.dot(dir);
    if c <= 0.0 {
        // Already in it: a hit now, unless it is on its way out (a disc is
        // convex, so it will not come back in).
        return (b >= 0.0).then_some(0.0);
    }
    if b <= 0.0 {
        return None;
    }
    let disc = b * b - c;
    if disc.is_nan() || disc < 0.0 {
        return None;
    }
    Some((b - disc.sqrt()).max(0.0))
}

/// Where the ray first touches the capsule round the segment `a`–`b` (the
/// wall inflated by `radius`), 0 if it starts inside.
#[inline]
fn ray_capsule(from: Vec2, dir: Vec2, a: Vec2, b: Vec2, radius: f32) -> Option<f32> {
    let away = from - closest_on_segment(from, a, b);
    if away.length() <= radius {
        // Already in it: a hit now, unless on its way out.
        return (dir.dot(away) <= 0.0).then_some(0.0);
    }
    let mut first: Option<f32> = None;
    let mut keep = |t: Option<f32>| {
        if let Some(t) = t {
            first = Some(first.map_or(t, |f| f.min(t)));
        }
    };
    // The two end caps.
    keep(ray_circle(from, dir, a, radius));
    keep(ray_circle(from, dir, b, radius));
    // The two long sides: lines parallel to the wall, `radius` off it.
    let ab = b - a;
    let len = ab.length();
    if len > 0.0 {
        let along = ab / len;
        let normal = along.perp();
        let facing = dir.dot(normal);
        if facing != 0.0 {
            for side in [radius, -radius] {
                // Solve (from + dir t - a) · normal = side.
                let t = (side - (from - a).dot(normal)) / facing;
                if t >= 0.0 {
                    let s = (from + dir * t - a).dot(along);
                    if (0.0..=len).contains(&s) {
                        keep(Some(t));
                    }
                }
            }
        }
    }
    first
}

/// Which way an agent goes round an obstacle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Turning left of it: the obstacle passes on the agent's right.
    Left,
    /// Turning right of it.
    Right,
}

impl Side {
    /// +1 for left (counter-clockwise), -1 for right.
    #[inline]
    pub fn sign(self) -> f32 {
        match self {
            Side::Left => 1.0,
            Side::Right => -1.0,
        }
    }

    /// The side that goes round `shape` the short way, for a body at `from`
    /// heading `dir`: away from where a circle's centre lies across the
    /// heading (exactly head-on, left), and along a wall the way the heading
    /// already leans (see [`wall_side`]).
    pub fn shorter_way_round(shape: &Shape, from: Vec2, dir: Vec2) -> Side {
        match *shape {
            Shape::Circle { center, .. } => {
                // A circle to the left is passed on the right.
                if dir.perp_dot(center - from) > 0.0 {
                    Side::Right
                } else {
                    Side::Left
                }
            }
            Shape::Wall { a, b } => wall_side(a, b, from, dir),
        }
    }
}

/// How far apart the directions [`best_way`] tries are, in radians (15°).
const WAY_STEP: f32 = std::f32::consts::PI / 12.0;

/// How many halvings narrow a turn that clears everything.
const NARROWINGS: usize = 5;

/// The turns [`best_way`] tries, as unit vectors to rotate by (left; a
/// right turn is the conjugate): `[k][0]` is `k` steps of 15°, and
/// `[k][n]` for `n` in `1..32` the halving of the step before it at node
/// `n` of the narrowing's search (node `n` leads to `2n` if its turn clears
/// everything, else to `2n + 1`). Worked out once, with the same arithmetic
/// as turning by angles each time would, and so the same to the bit:
/// `sin_cos` was a tenth of a level's time.
static TURNS: std::sync::LazyLock<[[Vec2; 1 << NARROWINGS]; 13]> = std::sync::LazyLock::new(|| {
    let mut turns = [[Vec2::X; 1 << NARROWINGS]; 13];
    for (k, turns) in turns.iter_mut().enumerate().skip(1) {
        let angle = k as f32 * WAY_STEP;
        turns[0] = Vec2::from_angle(angle);
        // Each node's angle, from the range (shut, open) it halves.
        let mut ranges = [(0.0f32, 0.0f32); 1 << NARROWINGS];
        ranges[1] = ((k - 1) as f32 * WAY_STEP, angle);
        for n in 1..1 << NARROWINGS {
            let (shut, open) = ranges[n];
            let mid = 0.5 * (shut + open);
            turns[n] = Vec2::from_angle(mid);
            if 2 * n + 1 < 1 << NARROWINGS {
                ranges[2 * n] = (shut, mid);
                ranges[2 * n + 1] = (mid, open);
            }
        }
    }
    turns
});

/// What [`best_way`] asks of what is round an agent: how far the swept
/// body goes in a direction before it touches something. Any
/// `Fn(Vec2) -> Option<f32>` is one; a level that can answer
/// [`clear`](Self::clear) more cheaply than [`blocked`](Self::blocked)
/// (without finding which is touched first) implements both.
pub trait Surroundings {
    /// How far along the unit vector `dir` the swept body first touches
    /// something, or `None` if it does not within its reach.
    fn blocked(&self, dir: Vec2) -> Option<f32>;

    /// Whether the swept body goes `reach` (not negative) along `dir`
    /// without touching anything sooner: what `blocked` says, as a yes or
    /// no (a NaN distance is not clear).
    fn clear(&self, dir: Vec2, reach: f32) -> bool {
        self.blocked(dir)
            .is_none_or(|t| !t.is_nan() && t.max(0.0) >= reach)
    }
}

impl<F: Fn(Vec2) -> Option<f32>> Surroundings for F {
    fn blocked(&self, dir: Vec2) -> Option<f32> {
        self(dir)
    }
}

/// A way round what is in front: a direction, and how far the swept body
/// is free along it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Way {
    /// A unit vector; zero if every way is blocked at once.
    pub dir: Vec2,
    /// How far along `dir` the body can go before it touches something, at
    /// most the reach it was asked about.
    pub free: f32,
}

/// The way that takes a body farthest toward `toward` within `reach`,
/// turning from `dir`. `around` says how far along a direction the swept
/// body would touch something, or `None` if it would not (a closure will
/// do: see [`Surroundings`]).
/// Directions turning from `dir` to `side` in steps of 15°, up to half a
/// turn, are scored by how far they are free times how much of `toward`
/// they keep (`(1 + cos)/2` of the angle between them): so a body in a
/// corridor goes on along it, slowing for the wall at its end, rather than
/// turning back, and one heading at a rock turns as soon as a way round it
/// is worth more than the way into it. A turn that clears the whole reach
/// is then narrowed to the least that does (to within half a degree), if
/// that scores no worse. Only if that side leads nowhere (no score of an
/// eighth of the reach) is the other side tried. `dir` and `toward` must be
/// unit vectors.
///
/// ```
/// # use reynolds::level::{Probe, Shape, Side, best_way};
/// # use glam::Vec2;
/// // A rock 100 px ahead, 40 px across with the body and its clearance:
/// // the way round on the left grazes it, along the tangent (23.6°).
/// let rock = Shape::Circle { center: Vec2::new(100.0, 0.0), radius: 30.0 };
/// let probe = Probe { from: Vec2::ZERO, dir: Vec2::X, length: 200.0, radius: 10.0 };
/// let blocked = |d| Probe { dir: d, ..probe }.hit(&rock);
/// let way = best_way(Vec2::X, Vec2::X, Side::Left, 200.0, blocked);
/// assert!((way.dir.to_angle().to_degrees() - 23.58).abs() < 0.5);
/// assert_eq!(way.free, 200.0);
/// // Moving along +x but meaning to go back: straight back.
/// let way = best_way(Vec2::X, Vec2::NEG_X, Side::Left, 200.0, blocked);
/// assert!(way.dir.abs_diff_eq(Vec2::NEG_X, 1e-5));
/// ```
#[inline]
pub fn best_way(dir: Vec2, toward: Vec2, side: Side, reach: f32, around: impl Surroundings) -> Way {
    let reach = if reach.is_finite() {
        reach.max(0.0)
    } else {
        0.0
    };
    let turns = &*TURNS;
    let turned = |sign: f32, turn: Vec2| Vec2::new(turn.x, sign * turn.y).rotate(dir);
    let free = |d: Vec2| around.blocked(d).map_or(reach, |t| t.clamp(0.0, reach));
    let score = |d: Vec2, free: f32| free * 0.5 * (1.0 + d.dot(toward).clamp(-1.0, 1.0));
    let straight = free(dir);
    let mut best = Way {
        dir,
        free: straight,
    };
    let mut best_score = score(dir, straight);
    for sign in [side.sign(), -side.sign()] {
        if best_score >= reach / 8.0 && sign != side.sign() {
            break;
        }
        let mut previous_free = straight;
        for turns in turns.iter().skip(1) {
            let d = turned(sign, turns[0]);
            // Not worth a probe if even a clear way there scores no better.
            if score(d, reach) <= best_score {
                previous_free = reach;
                continue;
            }
            let f = free(d);
            let s = score(d, f);
            if s > best_score {
                best_score = s;
                best = Way { dir: d, free: f };
                if f >= reach && previous_free < reach {
                    // Narrowed to the least turn that still clears it all:
                    // halving the step from the one before, 5 times.
                    let (mut node, mut narrowed) = (1, d);
                    while node < turns.len() {
                        let d = turned(sign, turns[node]);
                        // (`free(d) >= reach`, without finding what is
                        // touched first.)
                        node = if around.clear(d, reach) {
                            narrowed = d;
                            2 * node
                        } else {
                            2 * node + 1
                        };
                    }
                    if score(narrowed, reach) >= best_score {
                        best = Way {
                            dir: narrowed,
                            free: reach,
                        };
                        best_score = score(narrowed, reach);
                    }
                }
            }
            previous_free = f;
        }
    }
    if best_score > 0.0 {
        best
    } else {
        Way {
            dir: Vec2::ZERO,
            free: 0.0,
        }
    }
}

/// The fastest an agent may mean to go toward something `free` pixels
/// ahead and still stop short of it, given its steering: the force is
/// `(desired - vel) / response_time`, at most `max_accel`. Two limits,
/// whichever is lower: while braking is capped, the braking curve
/// `sqrt(2 a free)` less the `a · response_time` the velocity lags behind
/// what it means; near the end, `free / (4 response_time)`, for which the
/// response is critically damped (the distance closes without crossing).
///
/// ```
/// # use reynolds::level::stopping_speed;
/// assert_eq!(stopping_speed(0.0, 380.0, 0.15), 0.0);
/// assert!((stopping_speed(15.0, 380.0, 0.15) - 25.0).abs() < 1e-4);
/// assert!(stopping_speed(400.0, 380.0, 0.15) > 220.0);
/// ```
pub fn stopping_speed(free: f32, max_accel: f32, response_time: f32) -> f32 {
    let free = if free.is_finite() { free.max(0.0) } else { 0.0 };
    let a = sanitize_speed(max_accel);
    let rt = sanitize_response_time(response_time);
    let braking = ((2.0 * a * free).sqrt() - a * rt).max(0.0);
    let speed = braking.min(free / (4.0 * rt));
    if speed.is_finite() { speed } else { 0.0 }
}

/// The side of a wall to slide along for a body heading `dir`: the way that
/// turns it least (its heading's own component along the wall); exactly
/// head-on, toward the wall's nearer end.
pub fn wall_side(a: Vec2, b: Vec2, from: Vec2, dir: Vec2) -> Side {
    let q = closest_on_segment(from, a, b);
    let away = direction(from - q);
    let away = if away == Vec2::ZERO { -dir } else { away };
    // `Side::Left` slides along `away` turned clockwise (see `avoid`).
    let left_along = -away.perp();
    let lean = dir.dot(left_along);
    if lean.abs() > 1e-3 {
        return if lean > 0.0 { Side::Left } else { Side::Right };
    }
    let nearer_end = if from.distance_squared(a) <= from.distance_squared(b) {
        a
    } else {
        b
    };
    if (nearer_end - q).dot(left_along) >= 0.0 {
        Side::Left
    } else {
        Side::Right
    }
}

/// Whether `p` is inside the closed polygon `points` (even-odd rule; a
/// polygon of fewer than three points has no inside).
///
/// ```
/// # use reynolds::level::inside_polygon;
/// # use glam::Vec2;
/// let square = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(0.0, 10.0)];
/// assert!(inside_polygon(Vec2::new(5.0, 5.0), &square));
/// assert!(!inside_polygon(Vec2::new(15.0, 5.0), &square));
/// ```
pub fn inside_polygon(p: Vec2, points: &[Vec2]) -> bool {
    if points.len() < 3 {
        return false;
    }
    let mut inside = false;
    let mut j = points.len() - 1;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[j]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// The point of the closed polygon's outline nearest `p`.
pub fn closest_on_outline(p: Vec2, points: &[Vec2]) -> Option<Vec2> {
    let n = points.len();
    (0..n)
        .map(|i| closest_on_segment(p, points[i], points[(i + 1) % n]))
        .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
}

/// How far outside the closed polygon `p` is: 0 inside, else the distance
/// to its outline.
pub fn outside_by(p: Vec2, points: &[Vec2]) -> f32 {
    if inside_polygon(p, points) {
        return 0.0;
    }
    closest_on_outline(p, points).map_or(0.0, |q| p.distance(q))
}

/// Containment, for an agent outside its area: the desired velocity back in,
/// at `speed`, toward the nearest point of the outline and a little past it
/// (so it does not stop on the line). `None` if `p` is inside (then the
/// outline's edges are walls seen from inside: see [`best_way`]).
///
/// ```
/// # use reynolds::level::come_back_inside;
/// # use glam::Vec2;
/// let square = [Vec2::ZERO, Vec2::new(100.0, 0.0), Vec2::new(100.0, 100.0), Vec2::new(0.0, 100.0)];
/// let back = come_back_inside(Vec2::new(-50.0, 50.0), &square, 220.0).unwrap();
/// assert_eq!(back, Vec2::new(220.0, 0.0));
/// assert_eq!(come_back_inside(Vec2::new(50.0, 50.0), &square, 220.0), None);
/// ```
pub fn come_back_inside(p: Vec2, points: &[Vec2], speed: f32) -> Option<Vec2> {
    if points.len() < 3 || inside_polygon(p, points) {
        return None;
    }
    let q = closest_on_outline(p, points)?;
    let mut back = direction(q - p);
    if back == Vec2::ZERO {
        // On the outline itself: toward the middle of the corners.
        let middle = points.iter().copied().sum::<Vec2>() / points.len() as f32;
        back = direction(middle - p);
    }
    Some(finite_or_zero(back * sanitize_speed(speed)))
}
