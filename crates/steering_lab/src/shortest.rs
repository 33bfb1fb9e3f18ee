//! The shortest way for a body among a level's rocks and walls, found on
//! a visibility graph, to measure the plugin's routes against. Each rock
//! and wall is grown by the body's radius into a convex polygon of many
//! sides round it ([`SIDES`] a full turn, standing at most 0.12% beyond
//! the round shape), and the shortest way among convex polygons runs
//! straight from corner to corner. Every pair of corners may be looked at:
//! for small levels (the U-trap, the spiral, the office), not the maze.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::{PI, TAU};

use bevy::math::Vec2;

use crate::Level;

/// Sides of a grown rock (a wall's ends have half as many each): a route
/// round the polygon is at most `1 / cos(π / SIDES) − 1` = 0.12% longer
/// than round the circle.
pub const SIDES: usize = 64;

/// Levels with more shapes than this are not measured (every pair of
/// corners is tried, and corners grow as the shapes do).
pub const MOST_SHAPES: usize = 64;

/// The length of the shortest way from `from` to `to` for a body of
/// radius `body` among `level`'s rocks and walls (its containment and path
/// are not looked at). `None` if the level has more than [`MOST_SHAPES`]
/// shapes, or has no way between them (an end inside a grown shape).
pub fn shortest_length(level: &Level, from: Vec2, to: Vec2, body: f32) -> Option<f32> {
    if level.circles.len() + level.walls.len() > MOST_SHAPES
        || !(body.is_finite() && body >= 0.0 && from.is_finite() && to.is_finite())
    {
        return None;
    }
    let shapes: Vec<Convex> = level
        .circles
        .iter()
        .map(|(center, radius)| Convex::new(disc(*center, radius + body)))
        .chain(
            level
                .walls
                .iter()
                .map(|(a, b)| Convex::new(capsule(*a, *b, body))),
        )
        .collect();
    let open = |p: Vec2| !shapes.iter().any(|s| s.holds(p));
    if !(open(from) && open(to)) {
        return None;
    }
    let mut corners = vec![from, to];
    corners.extend(
        shapes
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|p| open(*p)),
    );
    let seen = |p: Vec2, q: Vec2| !shapes.iter().any(|s| s.cut_by(p, q));
    a_star(&corners, seen)
}

/// A* over every corner, each edge looked at when first reached: the
/// length from corner 0 to corner 1.
fn a_star(corners: &[Vec2], seen: impl Fn(Vec2, Vec2) -> bool) -> Option<f32> {
    let goal = corners[1];
    let mut best = vec![f32::INFINITY; corners.len()];
    let mut closed = vec![false; corners.len()];
    // (Lengths as bits: non-negative floats order as their bits do.)
    let mut open = BinaryHeap::new();
    best[0] = 0.0;
    open.push(Reverse((corners[0].distance(goal).to_bits(), 0usize)));
    while let Some(Reverse((_, u))) = open.pop() {
        if closed[u] {
            continue;
        }
        if u == 1 {
            return Some(best[1]);
        }
        closed[u] = true;
        for v in 0..corners.len() {
            let length = best[u] + corners[u].distance(corners[v]);
            if closed[v] || length >= best[v] || !seen(corners[u], corners[v]) {
                continue;
            }
            best[v] = length;
            let estimate = length + corners[v].distance(goal);
            open.push(Reverse((estimate.to_bits(), v)));
        }
    }
    None
}

/// A convex polygon, its corners counter-clockwise, and the outward normal
/// of each side (from a corner to the next).
struct Convex {
    points: Vec<Vec2>,
    normals: Vec<Vec2>,
    min: Vec2,
    max: Vec2,
    /// How far inside a point must be to count as inside: a little above
    /// the rounding of coordinates this large.
    depth: f32,
}

impl Convex {
    fn new(points: Vec<Vec2>) -> Self {
        let n = points.len();
        let normals = (0..n)
            .map(|i| {
                let side = points[(i + 1) % n] - points[i];
                Vec2::new(side.y, -side.x).normalize_or_zero()
            })
            .collect();
        let (min, max) = points.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let depth = 1e-5 * max.abs().max(min.abs()).max_element().max(1.0);
        Self {
            points,
            normals,
            min,
            max,
            depth,
        }
    }

    /// Whether `p` is inside, deeper than its rounding.
    fn holds(&self, p: Vec2) -> bool {
        self.points
            .iter()
            .zip(&self.normals)
            .all(|(a, n)| n.dot(p - *a) < -self.depth)
    }

    /// Whether the segment from `p` to `q` passes through its inside
    /// (along a side, or through a corner, it does not): the part of the
    /// segment inside every side's half-plane (Cyrus and Beck) is longer
    /// than a point.
    fn cut_by(&self, p: Vec2, q: Vec2) -> bool {
        if p.max(q).cmplt(self.min).any() || p.min(q).cmpgt(self.max).any() {
            return false;
        }
        let d = q - p;
        let (mut enter, mut leave) = (0.0f32, 1.0f32);
        for (a, n) in self.points.iter().zip(&self.normals) {
            // Inside this side where `n · (p + t d − a) < −depth`.
            let start = n.dot(p - *a) + self.depth;
            let rate = n.dot(d);
            if rate.abs() < 1e-12 {
                if start >= 0.0 {
                    return false;
                }
                continue;
            }
            let t = -start / rate;
            if rate < 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
            if enter >= leave {
                return false;
            }
        }
        (leave - enter) * d.length() > self.depth
    }
}

/// The polygon round the disc of `radius` at `center`, counter-clockwise,
/// its sides touching the circle.
fn disc(center: Vec2, radius: f32) -> Vec<Vec2> {
    let corner = radius / (PI / SIDES as f32).cos();
    (0..SIDES)
        .map(|i| center + corner * Vec2::from_angle(i as f32 * TAU / SIDES as f32))
        .collect()
}

/// The polygon round every point within `radius` of the segment from `a`
/// to `b`, counter-clockwise, its sides touching the round shape.
fn capsule(a: Vec2, b: Vec2, radius: f32) -> Vec<Vec2> {
    let along = b - a;
    if along.length() <= 1e-6 * radius.max(1.0) {
        return disc(a, radius);
    }
    let angle = along.to_angle();
    let half = SIDES / 2;
    let step = PI / half as f32;
    let corner = radius / (step / 2.0).cos();
    let half_turn = move |end: Vec2, from: f32| {
        (0..=half).map(move |i| end + corner * Vec2::from_angle(from + i as f32 * step))
    };
    half_turn(b, angle - PI / 2.0)
        .chain(half_turn(a, angle + PI / 2.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round one rock: tangent, arc, tangent.
    #[test]
    fn round_a_rock_as_the_tangents_and_the_arc_go() {
        let level = Level {
            circles: vec![(Vec2::ZERO, 40.0)],
            ..Default::default()
        };
        let (from, to, r) = (Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0), 50.0);
        let tangent = (100.0f32 * 100.0 - r * r).sqrt();
        let arc = r * (PI - 2.0 * (r / 100.0).acos());
        let exact = 2.0 * tangent + arc;
        let found = shortest_length(&level, from, to, 10.0).unwrap();
        assert!(
            found >= exact && found <= exact * 1.0012,
            "{found} against {exact}"
        );
        // Nothing in the way: straight.
        let clear = shortest_length(&level, Vec2::new(-100.0, 60.0), Vec2::new(100.0, 60.0), 5.0);
        assert!((clear.unwrap() - 200.0).abs() < 1e-3);
    }

    /// Round a wall's nearer end, not the farther.
    #[test]
    fn round_a_wall_by_its_nearer_end() {
        let level = Level {
            walls: vec![(Vec2::new(0.0, -300.0), Vec2::new(0.0, 50.0))],
            ..Default::default()
        };
        let (from, to) = (Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0));
        let found = shortest_length(&level, from, to, 10.0).unwrap();
        // Over the top end: at least to (0, 60) and back.
        let lower = 2.0 * from.distance(Vec2::new(0.0, 60.0));
        assert!(
            found >= lower && found < lower * 1.01,
            "{found} against {lower}"
        );
        // A start inside the grown wall has no way.
        assert_eq!(shortest_length(&level, Vec2::new(5.0, 0.0), to, 10.0), None);
    }
}
