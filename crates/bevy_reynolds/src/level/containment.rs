//! Containment: an area an agent keeps inside, its edges walls seen from
//! within. Planar: a polygon on the plane.

use bevy::prelude::*;
use reynolds::level::first_hit_among;
use reynolds::level::{Probe, Shape, inside_polygon, outside_by};

use crate::math::Vector;

/// Keeps an agent inside a closed polygon (a rectangle, say): an alternative
/// to wrapping. The edges are walls seen from inside, and an agent outside
/// steers straight back in.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct Containment {
    /// The area's corners, in order, in world units on the ground.
    pub points: Vec<Vector>,
}

impl Containment {
    /// Whether a body swept along `probe` crosses none of the area's
    /// edges.
    pub(crate) fn lets_through(&self, probe: &Probe) -> bool {
        first_hit_among(area_edges(&self.points), probe).is_none()
    }

    /// The rectangle from `min` to `max`.
    pub fn rect(min: Vector, max: Vector) -> Self {
        Self::polygon([
            min,
            Vector::new(max.x, min.y),
            max,
            Vector::new(min.x, max.y),
        ])
    }

    /// The polygon through `points`.
    pub fn polygon(points: impl IntoIterator<Item = Vector>) -> Self {
        Self {
            points: points.into_iter().collect(),
        }
    }

    /// Whether `p` is inside (a polygon of fewer than 3 points has no
    /// inside, and contains nothing).
    pub fn contains(&self, p: Vector) -> bool {
        inside_polygon(p, &self.points)
    }

    /// How far outside `p` is: 0 inside.
    pub fn outside_by(&self, p: Vector) -> f32 {
        if self.points.len() < 3 {
            return 0.0;
        }
        outside_by(p, &self.points)
    }
}

/// A closed polygon's edges, numbered, as walls.
pub(super) fn area_edges(points: &[Vector]) -> impl Iterator<Item = (u32, Shape)> + '_ {
    let n = points.len();
    (0..n).map(move |i| {
        let (a, b) = (points[i], points[(i + 1) % n]);
        (i as u32, Shape::Wall { a, b })
    })
}
