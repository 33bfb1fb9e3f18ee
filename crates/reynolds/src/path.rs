//! Path following: a polyline, open or looped, and a cursor along it that
//! only moves forward.
//! The cursor is an arc length. Each step it moves to the point of the path
//! nearest the agent, searched only in a window ahead of where it was, so a
//! path that crosses itself (a figure eight) never makes the agent jump to
//! the other branch at the crossing. The agent seeks a point a look-ahead
//! further on, slower where the path turns ahead, and arrives at the end of
//! an open path.

use crate::behaviors::{arrive, seek};
use crate::math::{
    SteeringVector, Vector, closest_on_segment, finite_or_zero, sanitize_limit, sanitize_speed,
};

/// A polyline to follow. Non-finite points and a point no distance from the
/// one before it are dropped when it is made, so every segment has a length; a
/// path of one point (or none) is a place to arrive at (or nothing).
///
/// ```
/// # use reynolds::{math::Vector, path::Polyline};
/// let square = Polyline::new([Vector::ZERO, Vector::X * 10.0, Vector::ONE * 10.0, Vector::Y * 10.0], true);
/// assert_eq!(square.length(), 40.0);
/// assert_eq!(square.point_at(15.0), Vector::new(10.0, 5.0));
/// assert_eq!(square.direction_at(15.0), Vector::Y);
/// // Looped, an arc length past the end comes round again.
/// assert_eq!(square.point_at(45.0), Vector::new(5.0, 0.0));
/// assert_eq!(square.point_at(-5.0), Vector::new(0.0, 5.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline<V = Vector> {
    points: Vec<V>,
    /// The arc length at each point.
    starts: Vec<f32>,
    looped: bool,
    length: f32,
}

impl<V> Default for Polyline<V> {
    fn default() -> Self {
        Self {
            points: Vec::new(),
            starts: Vec::new(),
            looped: false,
            length: 0.0,
        }
    }
}

impl<V: SteeringVector> Polyline<V> {
    /// A path through `points`, back to the first if `looped`.
    pub fn new(points: impl IntoIterator<Item = V>, looped: bool) -> Self {
        let mut kept: Vec<V> = Vec::new();
        // A point no distance from the last (as f32 measures it: even a
        // distinct point can be, when the difference's square underflows)
        // would make a segment of no length.
        let apart = |a: &V, b: &V| a.distance(*b) > 0.0;
        for p in points {
            if p.is_finite() && kept.last().is_none_or(|last| apart(last, &p)) {
                kept.push(p);
            }
        }
        while looped && kept.len() > 1 && !apart(&kept[kept.len() - 1], &kept[0]) {
            kept.pop();
        }
        let mut starts = Vec::with_capacity(kept.len());
        let mut length = 0.0f32;
        for (i, p) in kept.iter().enumerate() {
            starts.push(length);
            if let Some(next) = kept.get(i + 1) {
                length += p.distance(*next);
            }
        }
        if looped && kept.len() > 1 {
            length += kept[kept.len() - 1].distance(kept[0]);
        }
        // Points so far apart that the length overflows make no path.
        if !length.is_finite() {
            return Self::default();
        }
        Self {
            points: kept,
            starts,
            looped: looped && length > 0.0,
            length,
        }
    }

    /// Its points, without the dropped ones.
    pub fn points(&self) -> &[V] {
        &self.points
    }

    /// Whether it comes back to its first point.
    pub fn is_looped(&self) -> bool {
        self.looped
    }

    /// Its length, back to the start if looped.
    pub fn length(&self) -> f32 {
        self.length
    }

    /// Whether it has no point at all.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// How many segments it has (a looped path has one back to the start).
    fn segment_count(&self) -> usize {
        match self.points.len() {
            0 | 1 => 0,
            n if self.looped => n,
            n => n - 1,
        }
    }

    /// Segment `i`: its start point, end point and arc length at its start.
    #[inline]
    fn segment(&self, i: usize) -> (V, V, f32) {
        let n = self.points.len();
        let next = if i + 1 == n { 0 } else { i + 1 };
        (self.points[i], self.points[next], self.starts[i])
    }

    /// An arc length brought onto the path: round the loop, or clamped to
    /// the ends of an open path.
    #[inline]
    fn wrap(&self, s: f32) -> f32 {
        let s = if s.is_nan() { 0.0 } else { s };
        if self.looped {
            // (Already on the first lap, as `rem_euclid` would leave it,
            // without its division.)
            if (0.0..self.length).contains(&s) {
                return s;
            }
            s.rem_euclid(self.length)
        } else {
            s.clamp(0.0, self.length)
        }
    }

    /// The segment arc length `s` (on the path) falls in.
    #[inline]
    fn segment_at(&self, s: f32) -> usize {
        let count = self.segment_count();
        if count == 0 {
            return 0;
        }
        self.starts[..count]
            .partition_point(|start| *start <= s)
            .saturating_sub(1)
    }

    /// The segment arc length `s` (any, looped) falls in: its ends, and how
    /// far along it `s` is. The path must have a segment.
    #[inline]
    fn locate(&self, s: f32) -> (V, V, f32) {
        let s = self.wrap(s);
        let (a, b, start) = self.segment(self.segment_at(s));
        (a, b, s - start)
    }

    /// The point at arc length `s`; looped, any `s` comes round again.
    pub fn point_at(&self, s: f32) -> V {
        self.point_and_direction_at(s).0
    }

    /// The direction of the path at arc length `s` (zero for a path of one
    /// point).
    pub fn direction_at(&self, s: f32) -> V {
        if self.segment_count() == 0 {
            return V::ZERO;
        }
        let (a, b, _) = self.locate(s);
        (b - a).normalize_or_zero()
    }

    /// [`point_at`](Self::point_at) and [`direction_at`](Self::direction_at)
    /// at once, finding the segment once.
    #[inline]
    fn point_and_direction_at(&self, s: f32) -> (V, V) {
        if self.segment_count() == 0 {
            return (self.points.first().copied().unwrap_or(V::ZERO), V::ZERO);
        }
        let (a, b, along) = self.locate(s);
        let point = a.lerp(b, (along / a.distance(b)).clamp(0.0, 1.0));
        (point, (b - a).normalize_or_zero())
    }

    /// The distance from `p` to the nearest point of the whole path.
    pub fn distance(&self, p: V) -> f32 {
        if self.segment_count() == 0 {
            return self.points.first().map_or(f32::INFINITY, |q| q.distance(p));
        }
        (0..self.segment_count())
            .map(|i| {
                let (a, b, _) = self.segment(i);
                closest_on_segment(p, a, b).distance(p)
            })
            .fold(f32::INFINITY, f32::min)
    }

    /// The arc length in `[from, from + window]` whose point is nearest `p`,
    /// the earliest of equals. Looped, arc lengths keep counting past the
    /// length (a cursor's laps); open, they stop at its end.
    pub fn nearest_ahead(&self, p: V, from: f32, window: f32) -> f32 {
        let from = if from.is_finite() { from.max(0.0) } else { 0.0 };
        let window = sanitize_limit(window).min(self.length);
        let count = self.segment_count();
        if count == 0 || !p.is_finite() {
            return from;
        }
        let end = if self.looped {
            from + window
        } else {
            (from + window).min(self.length)
        };
        // Arc lengths counted from the lap `from` is on.
        let lap = if self.looped {
            (from / self.length).floor() * self.length
        } else {
            0.0
        };
        let mut i = self.segment_at(self.wrap(from));
        let mut offset = lap;
        let (mut best, mut best_d2) = (from, f32::INFINITY);
        for _ in 0..=count {
            let (a, b, start) = self.segment(i);
            let seg_start = offset + start;
            if seg_start > end {
                break;
            }
            let len = a.distance(b);
            let lo = from.max(seg_start);
            let hi = end.min(seg_start + len);
            if lo <= hi {
                let along = ((p - a).dot(b - a) / len).clamp(lo - seg_start, hi - seg_start);
                let q = a + (b - a) * (along / len);
                let d2 = q.distance_squared(p);
                if d2 < best_d2 {
                    (best, best_d2) = (seg_start + along, d2);
                }
            }
            i += 1;
            if i == count {
                if !self.looped {
                    break;
                }
                i = 0;
                offset += self.length;
            }
        }
        best.max(from)
    }
}

/// What [`follow_path`] decided this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathStep<V = Vector> {
    /// The velocity the agent wants.
    pub desired: V,
    /// The cursor's new arc length: never less than the old one.
    pub cursor: f32,
    /// The point of the path it seeks (the end, at the end of an open path).
    pub aim: V,
}

/// Follows `path`: the cursor moves to the nearest point in a window ahead
/// of it (twice the look-ahead), and the agent seeks the point `look_ahead`
/// further on, at a speed that drops where the path turns by there (to 4/5
/// of the top speed at a right angle, 2/3 at a U-turn), so it keeps to the
/// path's corners; near the end of an open path it arrives.
///
/// ```
/// # use reynolds::{math::Vector, path::{Polyline, follow_path}};
/// let road = Polyline::new([Vector::ZERO, Vector::new(1000.0, 0.0)], false);
/// let step = follow_path(&road, Vector::new(100.0, 30.0), Vector::ZERO, 0.0, 220.0, 150.0, 60.0);
/// assert_eq!(step.cursor, 100.0);
/// assert_eq!(step.aim, Vector::new(160.0, 0.0));
/// ```
pub fn follow_path<V: SteeringVector>(
    path: &Polyline<V>,
    pos: V,
    vel: V,
    cursor: f32,
    max_speed: f32,
    slowing_radius: f32,
    look_ahead: f32,
) -> PathStep<V> {
    let max_speed = sanitize_speed(max_speed);
    let look_ahead = sanitize_limit(look_ahead).min(path.length().max(0.0));
    let cursor = if cursor.is_finite() {
        cursor.max(0.0)
    } else {
        0.0
    };
    if path.is_empty() {
        return PathStep {
            desired: finite_or_zero(vel),
            cursor,
            aim: pos,
        };
    }
    let cursor = path.nearest_ahead(pos, cursor, 2.0 * look_ahead);
    let ahead = cursor + look_ahead;
    if !path.is_looped() && ahead >= path.length() {
        let end = path.point_at(path.length());
        return PathStep {
            desired: arrive(pos, end, max_speed, slowing_radius),
            cursor,
            aim: end,
        };
    }
    let (aim, heading_there) = path.point_and_direction_at(ahead);
    // How far the path has turned by the aim: 1 straight on, 0 at a right
    // angle, -1 at a U-turn; slower the more it turns, to 4/5 of the top
    // speed at a right angle, 2/3 at a U-turn.
    let turn = path.direction_at(cursor).dot(heading_there);
    let slow = 1.0 / (1.25 - 0.25 * turn.clamp(-1.0, 1.0));
    PathStep {
        desired: seek(pos, aim, max_speed * slow),
        cursor,
        aim,
    }
}
