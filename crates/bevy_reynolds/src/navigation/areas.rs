//! The ground routes go over: the still obstacles' solids, and a walkable
//! area made from them for each size of body and each containment, made
//! again when one of them is added, moved or removed.

use std::sync::Arc;

use bevy::prelude::*;
use reynolds::navigate::{Ground, Route, Solid, WalkableArea};

use super::work::{Frames, Work, steps_in};
use super::{MovingObstacle, NavigationSettings};
use crate::agent::{AgentPosition, GroundPlane, SteeringAgent};
use crate::level::{ObstacleIndex, SteeringObstacle, placer};
use crate::math::Vector;

/// How many changes of the level the areas remember, to tell which routes
/// a change touches; a route older than all of them is planned again.
const CHANGES_KEPT: usize = 64;

/// The walkable ground of the level for each size of body (and each
/// [`Containment`](crate::Containment)) that navigates, made from the still
/// [`SteeringObstacle`]s when a route first needs it, and made again when one of
/// them is added, changed, moved or removed: off the step, taken
/// [`NavigationSettings::area_lag`] later.
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
    /// Steps gathered, the clock areas and routes are made by.
    step: u64,
    /// Steps between asking for an area and taking it.
    lag: u64,
    areas: Vec<Area>,
    /// The app's frames, which work off the step waits between.
    pub(super) frames: Frames,
}

/// One walkable area, and what it was made for.
struct Area {
    body: f32,
    within: Option<Vec<Vector>>,
    /// The area as of a generation of the solids, once made (shared with
    /// the routes being found).
    ready: Option<(u64, Arc<WalkableArea>)>,
    /// For an open ground: the points the ready area reaches.
    around: Vec<Vector>,
    /// The next one, being made.
    making: Option<Making>,
}

/// A walkable area being made, for a generation of the solids.
struct Making {
    generation: u64,
    around: Vec<Vector>,
    work: Work<WalkableArea>,
}

impl Making {
    /// Starts making the area of `solids` for `body`, to be taken at step
    /// `due`.
    fn start(
        frames: &Frames,
        solids: &[(Entity, Solid)],
        within: Option<Vec<Vector>>,
        around: Vec<Vector>,
        body: f32,
        generation: u64,
        due: u64,
    ) -> Self {
        let solids: Vec<Solid> = solids.iter().map(|(_, s)| s.clone()).collect();
        let reach = around.clone();
        let work = Work::start(due, frames, move |_| {
            let ground = match &within {
                Some(points) => Ground::Within(points),
                None => Ground::Open { around: &reach },
            };
            WalkableArea::new(&solids, ground, body)
        });
        Self {
            generation,
            around,
            work,
        }
    }
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
    /// eight sizes an octave), inside `within` if given, reaching `points`
    /// on an open ground: as last made. An area not made yet, out of date
    /// or not reaching the points is asked for, taken
    /// [`NavigationSettings::area_lag`] later; `None` until there is one
    /// that reaches them.
    pub fn area(
        &mut self,
        body: f32,
        within: Option<&[Vector]>,
        points: &[Vector],
    ) -> Option<&WalkableArea> {
        self.ready(body, within, points).map(|(_, area)| &**area)
    }

    /// The shortest route from `from` to `to` for a body of radius `body`,
    /// on the [`area`](Self::area) as last made (`None` while it is made,
    /// or if it has no ground at all).
    pub fn route(
        &mut self,
        body: f32,
        within: Option<&[Vector]>,
        from: Vector,
        to: Vector,
    ) -> Option<Route> {
        self.area(body, within, &[from, to])?.route(from, to)
    }

    /// [`area`](Self::area), with the generation of the solids it was
    /// made from.
    pub(super) fn ready(
        &mut self,
        body: f32,
        within: Option<&[Vector]>,
        points: &[Vector],
    ) -> Option<(u64, &Arc<WalkableArea>)> {
        let body = body_size(body);
        let index = match self
            .areas
            .iter()
            .position(|a| a.body == body && a.within.as_deref() == within)
        {
            Some(index) => index,
            None => {
                self.areas.push(Area {
                    body,
                    within: within.map(<[Vector]>::to_vec),
                    ready: None,
                    around: Vec::new(),
                    making: None,
                });
                self.areas.len() - 1
            }
        };
        let area = &mut self.areas[index];
        let finite = || points.iter().copied().filter(|p| p.is_finite());
        // On an open ground, points it does not reach: one that does.
        let beyond = area.within.is_none()
            && finite().any(|p| {
                !area
                    .ready
                    .as_ref()
                    .is_some_and(|(_, ready)| ready.covers(p))
            });
        // The area being made reaches as far round its points as an open
        // ground does (see `WalkableArea::new`): a goal a game drags a
        // little off the line they lie on is still on it. Judged by the
        // points alone, each step of the drag started the area again, and
        // the agents stood still until the drag stopped.
        let making_reaches = |making: &Making| {
            let (lo, hi) = bounds_of(&making.around);
            let margin = 0.05 * (hi - lo).max_element();
            finite().all(|p| p.cmpge(lo - margin).all() && p.cmple(hi + margin).all())
        };
        if beyond && !area.making.as_ref().is_some_and(making_reaches) {
            let (lo, hi) = area
                .making
                .iter()
                .flat_map(|m| m.around.iter().copied())
                .chain(area.around.iter().copied())
                .chain(finite())
                .fold(bounds_of(&[]), |(lo, hi), p| (lo.min(p), hi.max(p)));
            // Twice as far as asked, so that agents spreading out do not
            // make it again for every step they take.
            let middle = (lo + hi) / 2.0;
            let around = vec![middle + (lo - middle) * 2.0, middle + (hi - middle) * 2.0];
            let within = area.within.clone();
            // A making under way for less is left to finish unused.
            area.making = Some(Making::start(
                &self.frames,
                &self.solids,
                within,
                around,
                body,
                self.generation,
                self.step + self.lag,
            ));
        }
        if area.ready.is_none() && area.making.is_none() {
            area.making = Some(Making::start(
                &self.frames,
                &self.solids,
                area.within.clone(),
                area.around.clone(),
                body,
                self.generation,
                self.step + self.lag,
            ));
        }
        if beyond {
            return None;
        }
        area.ready
            .as_ref()
            .map(|(generation, ready)| (*generation, ready))
    }

    /// Once a step, before routes are planned: the areas due taken, and
    /// each made for an older generation of the solids asked for again, to
    /// be taken `lag` steps on.
    fn advance(&mut self, lag: u64) {
        self.step += 1;
        self.lag = lag;
        for area in &mut self.areas {
            if area
                .making
                .as_ref()
                .is_some_and(|m| m.work.due <= self.step)
                && let Some(making) = area.making.take()
            {
                area.around = making.around;
                area.ready = Some((making.generation, Arc::new(making.work.finish())));
            }
            let behind = area
                .ready
                .as_ref()
                .is_some_and(|(generation, _)| *generation != self.generation);
            if behind && area.making.is_none() {
                area.making = Some(Making::start(
                    &self.frames,
                    &self.solids,
                    area.within.clone(),
                    area.around.clone(),
                    area.body,
                    self.generation,
                    self.step + self.lag,
                ));
            }
        }
    }

    /// The step it is (how many steps it has gathered).
    pub(super) fn step(&self) -> u64 {
        self.step
    }

    /// Whether a route made on the area of generation `made` may cross
    /// something that changed up to generation `now`, for a body of
    /// radius `body`.
    pub(super) fn touches(&self, made: u64, now: u64, points: &[Vector], body: f32) -> bool {
        if made >= now {
            return false;
        }
        if self
            .changes
            .first()
            .is_none_or(|(oldest, _, _)| *oldest > made + 1)
        {
            return true;
        }
        let grow = Vector::splat(body_size(body));
        self.changes
            .iter()
            .filter(|(change, _, _)| *change > made && *change <= now)
            .any(|(_, min, max)| {
                points
                    .windows(2)
                    .any(|w| segment_meets_box(w[0], w[1], *min - grow, *max + grow))
            })
    }
}

/// The box round some points (empty: inside out).
fn bounds_of(points: &[Vector]) -> (Vector, Vector) {
    points.iter().fold(
        (
            Vector::splat(f32::INFINITY),
            Vector::splat(f32::NEG_INFINITY),
        ),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
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
/// what changed noted, the areas due taken and those out of date asked for
/// again.
#[allow(clippy::type_complexity)]
pub(super) fn gather_solids(
    settings: Res<NavigationSettings>,
    time: Res<Time>,
    ground: Res<GroundPlane>,
    index: Res<ObstacleIndex>,
    mut areas: ResMut<NavigationAreas>,
    obstacles: Query<
        (
            Entity,
            &SteeringObstacle,
            Option<&AgentPosition>,
            Option<&GlobalTransform>,
        ),
        (Without<MovingObstacle>, Without<SteeringAgent>),
    >,
) {
    if areas.gathered_at != Some(index.generation()) {
        areas.gathered_at = Some(index.generation());
        let mut solids: Vec<(Entity, Solid)> = obstacles
            .iter()
            .filter(|(_, obstacle, _, _)| obstacle.is_valid())
            .map(|(entity, obstacle, position, global)| {
                (entity, obstacle.solid(placer(*ground, position, global)))
            })
            .collect();
        solids.sort_by_key(|(entity, _)| *entity);
        areas.note_changes(solids);
    }
    areas.advance(steps_in(settings.area_lag, time.delta_secs()));
}

impl NavigationAreas {
    /// Takes `solids` (sorted by entity) as the level's, noting the box
    /// round what is in one list and not the other (added, removed or
    /// moved), if anything.
    fn note_changes(&mut self, solids: Vec<(Entity, Solid)>) {
        if solids == self.solids {
            return;
        }
        let (old, new) = (&self.solids, &solids);
        let mut changed: Option<(Vector, Vector)> = None;
        let mut note = |solid: &Solid| {
            let (lo, hi) = bounds(solid);
            changed = Some(changed.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        };
        let missing_from = |list: &[(Entity, Solid)], entity: &Entity, solid: &Solid| {
            list.binary_search_by_key(entity, |(e, _)| *e)
                .map(|i| &list[i].1)
                != Ok(solid)
        };
        for (entity, solid) in old {
            if missing_from(new, entity, solid) {
                note(solid);
            }
        }
        for (entity, solid) in new {
            if missing_from(old, entity, solid) {
                note(solid);
            }
        }
        self.generation += 1;
        if let Some((min, max)) = changed {
            self.changes.push((self.generation, min, max));
            if self.changes.len() > CHANGES_KEPT {
                self.changes.remove(0);
            }
        }
        self.solids = solids;
    }
}

/// The box round a solid.
fn bounds(solid: &Solid) -> (Vector, Vector) {
    match solid {
        Solid::Circle { center, radius } => (center - *radius, center + *radius),
        Solid::Wall { a, b } => (a.min(*b), a.max(*b)),
        Solid::Polygon(points) | Solid::Ring(points) => bounds_of(points),
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
