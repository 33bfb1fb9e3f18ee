//! A solid grown by a body's radius, as closed rings of points whose union
//! covers every place the body's centre must not go. Planar.
//!
//! Each ring is *circumscribed*: its sides touch the true grown shape from
//! outside (a round end's polygon has its sides tangent to the arc), so a
//! centre outside every ring keeps the whole body off the solid. The price
//! is a detour of at most `1 / cos(π / 2k) - 1` of the radius at a round
//! corner cut into `k` sides.

use std::f32::consts::{PI, TAU};

use glam::Vec2;

use super::Solid;

/// Sides of the polygon standing in for a half turn round a corner or a
/// wall's end: the rings stand at most 0.5% of the radius beyond the round
/// shape (`1 / cos(π / 32)`), and a route round them is within 0.4% of
/// the length round the round one (`tan x / x`, `x = π / 32`).
pub(super) const HALF_TURN_SIDES: usize = 16;

/// The rings whose union is `solid` grown by `grow`, each a list of points
/// (closed: the last joins the first). A polygon is the ring of its points
/// (its inside is solid) and a capsule round each side; a ring of walls,
/// the capsules alone.
pub(super) fn grown_rings(solid: &Solid, grow: f32, mut ring: impl FnMut(Vec<Vec2>)) {
    match solid {
        Solid::Circle { center, radius } => ring(disc(*center, radius + grow)),
        Solid::Wall { a, b } => ring(capsule(*a, *b, grow)),
        Solid::Polygon(points) | Solid::Ring(points) => {
            let points = distinct(points);
            if points.len() >= 3 && matches!(solid, Solid::Polygon(_)) {
                ring(points.clone());
            }
            for (i, a) in points.iter().enumerate() {
                let b = points[(i + 1) % points.len()];
                if points.len() > 2 || i == 0 {
                    ring(capsule(*a, b, grow));
                }
            }
        }
    }
}

/// The polygon round a disc of `radius` at `center`, its sides touching
/// the circle.
fn disc(center: Vec2, radius: f32) -> Vec<Vec2> {
    let sides = 2 * HALF_TURN_SIDES;
    let corner = radius / (PI / sides as f32).cos();
    (0..sides)
        .map(|i| center + corner * Vec2::from_angle(i as f32 * TAU / sides as f32))
        .collect()
}

/// The polygon round every point within `radius` of the segment from `a`
/// to `b` (a disc when the two are one point).
fn capsule(a: Vec2, b: Vec2, radius: f32) -> Vec<Vec2> {
    let along = b - a;
    let length = along.length();
    if length.is_nan() || length <= radius * 1e-4 {
        return disc(a, radius);
    }
    let angle = along.y.atan2(along.x);
    // Corners of each half turn on the circle of `corner`, so that the
    // sides between them touch the circle of `radius` (the straight sides
    // stand as far out as the corners).
    let step = PI / HALF_TURN_SIDES as f32;
    let corner = radius / (step / 2.0).cos();
    let half_turn = |end: Vec2, from: f32| {
        (0..=HALF_TURN_SIDES).map(move |i| end + corner * Vec2::from_angle(from + i as f32 * step))
    };
    half_turn(b, angle - PI / 2.0)
        .chain(half_turn(a, angle + PI / 2.0))
        .collect()
}

/// The points with each run of (nearly) equal neighbours, and a last equal
/// to the first, made one.
pub(super) fn distinct(points: &[Vec2]) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if out.last().is_none_or(|last| last.distance_squared(p) > 0.0) {
            out.push(p);
        }
    }
    while out.len() > 1 && out[0] == out[out.len() - 1] {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::closest_on_segment;

    /// The least distance from `p` to a ring's sides.
    fn to_ring(ring: &[Vec2], p: Vec2) -> f32 {
        (0..ring.len())
            .map(|i| p.distance(closest_on_segment(p, ring[i], ring[(i + 1) % ring.len()])))
            .fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn a_capsule_keeps_its_radius_and_no_more_than_half_a_percent_beyond() {
        let (a, b, r) = (Vec2::new(-3.0, 1.0), Vec2::new(5.0, -2.0), 2.0);
        let ring = capsule(a, b, r);
        // Every side is at least the radius from the segment...
        for i in 0..ring.len() {
            let (p, q) = (ring[i], ring[(i + 1) % ring.len()]);
            for t in 0..=20 {
                let s = p.lerp(q, t as f32 / 20.0);
                let d = s.distance(closest_on_segment(s, a, b));
                assert!(d >= r * (1.0 - 1e-5), "side {i} comes to {d} of the wall");
                assert!(d <= r * 1.005, "side {i} stands {d} off the wall");
            }
        }
        // ...and the wall's ends are inside it.
        assert!(to_ring(&ring, a) >= r * (1.0 - 1e-5));
        assert!(to_ring(&ring, b) >= r * (1.0 - 1e-5));
    }

    #[test]
    fn a_disc_touches_its_circle() {
        let ring = disc(Vec2::new(1.0, 2.0), 3.0);
        let d = to_ring(&ring, Vec2::new(1.0, 2.0));
        assert!((d - 3.0).abs() < 1e-4, "{d}");
    }

    #[test]
    fn repeated_points_are_made_one() {
        let p = [Vec2::ZERO, Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ZERO];
        assert_eq!(distinct(&p), vec![Vec2::ZERO, Vec2::X, Vec2::Y]);
    }
}
