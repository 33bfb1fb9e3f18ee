//! The ground routes go over: the still obstacles' solids, and a walkable
//! area made from them for each size of body and each containment, made
//! again when one of them is added, moved or removed.

use bevy::prelude::*;
use reynolds::navigate::{Ground, Route, Solid, WalkableArea};

use super::MovingObstacle;
use crate::agent::{GroundPlane, Position, SteeringAgent};
use crate::level::{Obstacle, ObstacleIndex, placer};
use crate::math::Vector;

/// How many changes of the level the areas remember, to tell which routes
/// a change touches; a route older than all of them is planned again.
const CHANGES_KEPT: usize = 64;

/// The walkable ground of the level for each size of body (and each
/// [`Containment`](crate::Containment)) that navigates, made from the still
/// [`Obstacle`]s when a route first needs it, and made again when one of
/// them is added, changed, moved or removed.
#[derive(Resource, Default)]
pub struct NavigationAreas {
    /// Each still obstacle's solid, where it is.
    solids: Vec<(Entity, Solid)>,
    /// The obstacle index's generation they were gathered at.
    gathered_at: Option<u64>,
    /// How many times the solids changed.
    generation: u64,
    /// The boxes round what changed, with the generation each made.
    changes: Vec<(u64, Vector, Vector)>,
    areas: Vec<Area>,
}

/// One walkable area, and what it was made for.
struct Area {
    body: f32,
    within: Option<Vec<Vector>>,
    /// For an open ground: the points it had to reach.
    around: Vec<Vector>,
    generation: u64,
    walkable: WalkableArea,
}

impl NavigationAreas {
    /// How many times the still obstacles have changed.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// How many walkable areas there are (one a size of body and
    /// containment that navigates).
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// Whether there are none yet.
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// The walkable area for a body of radius `body` (rounded up to one of
    /// eight sizes an octave), inside `within` if given, up to date, made
    /// if need be and reaching `points` on an open ground.
    pub fn area(
        &mut self,
        body: f32,
        within: Option<&[Vector]>,
        points: &[Vector],
    ) -> &WalkableArea {
        let body = body_size(body);
        let found = self
            .areas
            .iter()
            .position(|a| a.body == body && a.within.as_deref() == within);
        let index = match found {
            Some(i) => i,
            None => {
                // Made below, reaching the points it is first asked for.
                self.areas.push(Area {
                    body,
                    within: within.map(<[Vector]>::to_vec),
                    around: points.iter().copied().filter(|p| p.is_finite()).collect(),
                    generation: u64::MAX,
                    walkable: WalkableArea::new(&[], Ground::Open { around: &[] }, body),
                });
                self.areas.len() - 1
            }
        };
        let area = &mut self.areas[index];
        let outside = area.within.is_none()
            && area.generation != u64::MAX
            && points
                .iter()
                .any(|p| p.is_finite() && !area.walkable.covers(*p));
        if area.generation != self.generation || outside {
            if outside {
                // Twice as far as asked, so that agents spreading out do
                // not make it again for every step they take.
                let (min, max) = area.walkable.bounds();
                let (lo, hi) = points
                    .iter()
                    .filter(|p| p.is_finite())
                    .fold((min, max), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
                let middle = (lo + hi) / 2.0;
                area.around = vec![middle + (lo - middle) * 2.0, middle + (hi - middle) * 2.0];
            }
            let solids: Vec<Solid> = self.solids.iter().map(|(_, s)| s.clone()).collect();
            let ground = match &area.within {
                Some(points) => Ground::Within(points),
                None => Ground::Open {
                    around: &area.around,
                },
            };
            area.walkable = WalkableArea::new(&solids, ground, body);
            area.generation = self.generation;
        }
        &self.areas[index].walkable
    }

    /// The shortest route from `from` to `to` for a body of radius `body`.
    pub fn route(
        &mut self,
        body: f32,
        within: Option<&[Vector]>,
        from: Vector,
        to: Vector,
    ) -> Option<Route> {
        self.area(body, within, &[from, to]).route(from, to)
    }

    /// Whether a route made at `generation` may cross something that has
    /// changed since, for a body of radius `body`.
    pub(super) fn touches(&self, generation: u64, points: &[Vector], body: f32) -> bool {
        if generation == self.generation {
            return false;
        }
        if self
            .changes
            .first()
            .is_none_or(|(oldest, _, _)| *oldest > generation + 1)
        {
            return true;
        }
        let grow = Vector::splat(body_size(body));
        self.changes
            .iter()
            .filter(|(made, _, _)| *made > generation)
            .any(|(_, min, max)| {
                points
                    .windows(2)
                    .any(|w| segment_meets_box(w[0], w[1], *min - grow, *max + grow))
            })
    }
}

/// A body's radius rounded up to one of eight sizes an octave (at most an
/// eighth more), so that agents of nearly one size share an area.
fn body_size(radius: f32) -> f32 {
    if !(radius.is_finite() && radius > 0.0) {
        return 0.0;
    }
    let octave = radius.log2().floor();
    let step = (octave - 3.0).exp2();
    (radius / step).ceil() * step
}

/// Whether the segment from `a` to `b` meets the box from `min` to `max`.
fn segment_meets_box(a: Vector, b: Vector, min: Vector, max: Vector) -> bool {
    let (mut enter, mut leave) = (0.0_f32, 1.0_f32);
    let d = b - a;
    for axis in 0..2 {
        if d[axis].abs() < f32::EPSILON {
            if a[axis] < min[axis] || a[axis] > max[axis] {
                return false;
            }
        } else {
            let (t0, t1) = (
                (min[axis] - a[axis]) / d[axis],
                (max[axis] - a[axis]) / d[axis],
            );
            enter = enter.max(t0.min(t1));
            leave = leave.min(t0.max(t1));
        }
    }
    enter <= leave
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// the still obstacles' solids gathered again when the obstacle index was,
/// and what changed noted.
#[allow(clippy::type_complexity)]
pub(super) fn gather_solids(
    ground: Res<GroundPlane>,
    index: Res<ObstacleIndex>,
    mut areas: ResMut<NavigationAreas>,
    obstacles: Query<
        (
            Entity,
            &Obstacle,
            Option<&Position>,
            Option<&GlobalTransform>,
        ),
        (Without<MovingObstacle>, Without<SteeringAgent>),
    >,
) {
    if areas.gathered_at == Some(index.generation()) {
        return;
    }
    areas.gathered_at = Some(index.generation());
    let mut solids: Vec<(Entity, Solid)> = obstacles
        .iter()
        .filter(|(_, obstacle, _, _)| obstacle.is_valid())
        .map(|(entity, obstacle, position, global)| {
            (entity, obstacle.solid(placer(*ground, position, global)))
        })
        .collect();
    solids.sort_by_key(|(entity, _)| *entity);
    if solids == areas.solids {
        return;
    }
    // What is in one list and not the other: added, removed or moved.
    let (old, new) = (&areas.solids, &solids);
    let mut changed: Option<(Vector, Vector)> = None;
    let mut note = |solid: &Solid| {
        let (lo, hi) = bounds(solid);
        changed = Some(changed.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
    };
    for (entity, solid) in old {
        if new
            .binary_search_by_key(entity, |(e, _)| *e)
            .map(|i| &new[i].1)
            != Ok(solid)
        {
            note(solid);
        }
    }
    for (entity, solid) in new {
        if old
            .binary_search_by_key(entity, |(e, _)| *e)
            .map(|i| &old[i].1)
            != Ok(solid)
        {
            note(solid);
        }
    }
    let areas = &mut *areas;
    areas.generation += 1;
    if let Some((min, max)) = changed {
        areas.changes.push((areas.generation, min, max));
        if areas.changes.len() > CHANGES_KEPT {
            areas.changes.remove(0);
        }
    }
    areas.solids = solids;
}

/// The box round a solid.
fn bounds(solid: &Solid) -> (Vector, Vector) {
    match solid {
        Solid::Circle { center, radius } => (center - *radius, center + *radius),
        Solid::Wall { a, b } => (a.min(*b), a.max(*b)),
        Solid::Polygon(points) => points.iter().fold(
            (
                Vector::splat(f32::INFINITY),
                Vector::splat(f32::NEG_INFINITY),
            ),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_share_a_size_at_most_an_eighth_bigger() {
        for r in [0.3_f32, 0.5, 0.51, 1.0, 7.9, 8.0, 12.0, 1000.0] {
            let s = body_size(r);
            assert!(s >= r && s <= r * 1.126, "{r} -> {s}");
        }
        assert_eq!(body_size(0.5), body_size(0.5));
        assert_eq!(body_size(f32::NAN), 0.0);
        assert_eq!(body_size(-1.0), 0.0);
    }

    #[test]
    fn a_segment_meets_a_box_it_crosses_and_not_one_beside_it() {
        let (min, max) = (Vector::new(0.0, 0.0), Vector::new(1.0, 1.0));
        assert!(segment_meets_box(
            Vector::new(-1.0, 0.5),
            Vector::new(2.0, 0.5),
            min,
            max
        ));
        assert!(!segment_meets_box(
            Vector::new(-1.0, 2.0),
            Vector::new(2.0, 2.0),
            min,
            max
        ));
        assert!(!segment_meets_box(
            Vector::new(-1.0, 0.5),
            Vector::new(-0.5, 0.5),
            min,
            max
        ));
        assert!(segment_meets_box(
            Vector::new(0.5, 0.5),
            Vector::new(0.5, 0.5),
            min,
            max
        ));
    }
}
