//! Formations: the places a group keeps round its leader
//! ([`FormationShape::slot`]), who takes which ([`untangle`]), and the
//! column it walks in where the way is narrow ([`back_along`]).

#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use glam::Vec2;

use crate::math::{finite_or_zero, sanitize_limit};

/// A formation's shape: where its members stand in the leader's frame
/// (`x` ahead of it along its heading, `y` to its left; see
/// [`slot_position`](crate::behaviors::slot_position)), no two nearer than
/// the spacing.
///
/// ```
/// # use reynolds::formation::FormationShape;
/// # use glam::Vec2;
/// // The first two of a wedge, 40 apart: one row back, either side.
/// assert_eq!(FormationShape::Wedge.slot(0, 12, 40.0), Vec2::new(-40.0, 20.0));
/// assert_eq!(FormationShape::Wedge.slot(1, 12, 40.0), Vec2::new(-40.0, -20.0));
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(Debug, PartialEq, Default))]
pub enum FormationShape {
    /// Side by side, in one row a spacing behind the leader.
    Line,
    /// One behind another, behind the leader.
    Column,
    /// A V with the leader at its point: rows of two, each a spacing
    /// farther back and half a spacing farther out.
    #[default]
    Wedge,
    /// Rows as many as they are wide (a square, the last row shorter),
    /// behind the leader.
    Box,
    /// A ring round the leader, neighbours a spacing apart (a spacing from
    /// the leader, for six or fewer).
    Circle,
    /// Places the game gives, in the leader's frame, taken in order; members
    /// past the last queue behind the rearmost, a spacing apart.
    Slots(Vec<Vec2>),
}

impl FormationShape {
    /// The place of member `i` of `n`, `spacing` apart, in the leader's
    /// frame. Finite for any input (a spacing that is negative or NaN
    /// counts as 0).
    pub fn slot(&self, i: usize, n: usize, spacing: f32) -> Vec2 {
        let s = sanitize_limit(spacing);
        let n = n.max(i + 1);
        let place = match self {
            FormationShape::Line => Vec2::new(-s, (i as f32 - (n - 1) as f32 / 2.0) * s),
            FormationShape::Column => Vec2::new(-((i + 1) as f32) * s, 0.0),
            FormationShape::Wedge => {
                let row = (i / 2 + 1) as f32;
                let side = if i.is_multiple_of(2) { 1.0 } else { -1.0 };
                Vec2::new(-row * s, side * (row - 0.5) * s)
            }
            FormationShape::Box => {
                let wide = (n as f32).sqrt().ceil() as usize;
                let (row, col) = (i / wide, i % wide);
                let in_row = wide.min(n - row * wide);
                Vec2::new(
                    -((row + 1) as f32) * s,
                    (col as f32 - (in_row - 1) as f32 / 2.0) * s,
                )
            }
            FormationShape::Circle => {
                let radius = if n < 7 {
                    s
                } else {
                    s / (2.0 * (std::f32::consts::PI / n as f32).sin())
                };
                let angle = std::f32::consts::PI + std::f32::consts::TAU * i as f32 / n as f32;
                Vec2::from_angle(angle) * radius
            }
            FormationShape::Slots(places) => match places.get(i) {
                Some(&place) => place,
                None => {
                    let rear = places
                        .iter()
                        .copied()
                        .filter(|p| p.is_finite())
                        .min_by(|a, b| a.x.total_cmp(&b.x))
                        .unwrap_or(Vec2::ZERO);
                    rear - Vec2::new((i + 1 - places.len()) as f32 * s, 0.0)
                }
            },
        };
        finite_or_zero(place)
    }
}

/// Gives members their places so that no two of them walk across each
/// other: `assigned[m]` is member `m`'s place among `places`, and while
/// two members' straight ways to their places cross, or would together be
/// shorter by more than `margin` swapped, they swap. Two ways that cross
/// are always shorter swapped (the triangle inequality), so this ends, and
/// then no two cross; two may still touch where swapping gains nothing (a
/// member standing on another's way, or two ways end to end along one
/// line). Returns whether anything changed.
///
/// A `margin` above 0 keeps places that are nearly as good, so a group
/// walking in step does not trade places back and forth.
///
/// ```
/// # use reynolds::formation::untangle;
/// # use glam::Vec2;
/// // Two walkers whose ways to their places cross: they swap.
/// let members = [Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0)];
/// let places = [Vec2::new(10.0, 10.0), Vec2::new(10.0, 0.0)];
/// let mut assigned = [0, 1];
/// assert!(untangle(&members, &places, &mut assigned, 0.0));
/// assert_eq!(assigned, [1, 0]);
/// ```
pub fn untangle(members: &[Vec2], places: &[Vec2], assigned: &mut [usize], margin: f32) -> bool {
    let margin = sanitize_limit(margin);
    let way = |m: usize, place: usize| finite_or_zero(places[place] - members[m]).length();
    let n = members.len().min(assigned.len());
    let mut changed = false;
    // Each swap shortens the total by more than the margin (or, at 0, by
    // something), so this ends; the cap only guards against floats that
    // would not.
    for _ in 0..n.max(1) * 4 {
        let mut swapped = false;
        for a in 0..n {
            for b in a + 1..n {
                let (pa, pb) = (assigned[a], assigned[b]);
                if pa >= places.len() || pb >= places.len() {
                    continue;
                }
                let now = way(a, pa) + way(b, pb);
                let swapped_ways = way(a, pb) + way(b, pa);
                let shorter = now - swapped_ways > now * 1e-6;
                let crossing = || ways_cross(members[a], places[pa], members[b], places[pb]);
                if shorter && (swapped_ways + margin < now || crossing()) {
                    assigned.swap(a, b);
                    swapped = true;
                }
            }
        }
        changed |= swapped;
        if !swapped {
            break;
        }
    }
    changed
}

/// The point `distance` back along a trail walked to `head` (its earlier
/// points `crumbs`, newest first), and the way the trail goes there (from
/// it toward the head). Past the trail's end, the way continues straight
/// back along its last piece. For a column that walks in its leader's steps.
///
/// ```
/// # use reynolds::formation::back_along;
/// # use glam::Vec2;
/// // Walked east to (100, 0), having turned there from the north.
/// let crumbs = [Vec2::new(50.0, 0.0), Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0)];
/// let (at, way) = back_along(Vec2::new(100.0, 0.0), crumbs, 120.0);
/// assert!((at - Vec2::new(0.0, 20.0)).length() < 1e-4);
/// assert!((way - Vec2::new(0.0, -1.0)).length() < 1e-4);
/// ```
pub fn back_along(
    head: Vec2,
    crumbs: impl IntoIterator<Item = Vec2>,
    distance: f32,
) -> (Vec2, Vec2) {
    let mut left = sanitize_limit(distance);
    let (mut ahead, mut way) = (finite_or_zero(head), Vec2::ZERO);
    for crumb in crumbs {
        let crumb = finite_or_zero(crumb);
        let piece = finite_or_zero(ahead - crumb);
        let length = piece.length();
        // A crumb on the one before, or too far off to measure, is skipped.
        if !(length > 0.0 && length.is_finite()) {
            continue;
        }
        way = piece / length;
        if left <= length {
            return (finite_or_zero(ahead - way * left), way);
        }
        left -= length;
        ahead = crumb;
    }
    (finite_or_zero(ahead - way * left), way)
}

/// Whether two straight ways, `a0` to `a1` and `b0` to `b1`, cross (touching
/// ends count). For tests of [`untangle`] and of paths that must not cross.
pub fn ways_cross(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(b0, b1, a0), side(b0, b1, a1));
    let (d3, d4) = (side(a0, a1, b0), side(a0, a1, b1));
    let straddles = |x: f32, y: f32| (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0);
    if straddles(d1, d2) && straddles(d3, d4) {
        return true;
    }
    let on = |p: Vec2, q: Vec2, r: Vec2, d: f32| {
        d == 0.0 && r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all()
    };
    on(b0, b1, a0, d1) || on(b0, b1, a1, d2) || on(a0, a1, b0, d3) || on(a0, a1, b1, d4)
}
