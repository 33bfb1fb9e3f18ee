//! Navigation, planar: the ground a body of one size can walk on among a
//! level's solids ([`WalkableArea`]), and the shortest route through it
//! from anywhere to anywhere ([`WalkableArea::route`]).
//!
//! The area is the ground less every solid grown by the body's radius
//! (circumscribed polygons, so a centre on the area keeps the whole body
//! off every solid), triangulated with those edges as constraints (spade's
//! constrained Delaunay triangulation) and merged into convex polygons.
//! Routes are found there by Polyanya (Cui, Harabor and Grastien, 2017):
//! optimal any-angle, so a route is the taut string round the grown solids,
//! not a path along a grid or through polygon middles. Both come from the
//! `polyanya` crate, which vleue_navigator uses.
//!
//! ```
//! use glam::Vec2;
//! use reynolds::navigate::{Ground, Solid, WalkableArea};
//!
//! // A wall from (0, -5) to (0, 5) between the start and the goal.
//! let wall = Solid::Wall { a: Vec2::new(0.0, -5.0), b: Vec2::new(0.0, 5.0) };
//! let (from, to) = (Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0));
//! let area = WalkableArea::new(&[wall], Ground::Open { around: &[from, to] }, 0.5);
//! let route = area.route(from, to).unwrap();
//! // Round one end (its round cap a few short sides), half a metre clear.
//! let farthest = route.points.iter().map(|p| p.y.abs()).fold(0.0, f32::max);
//! assert!(farthest >= 5.5 - 1e-3 && farthest < 5.6);
//! assert!(route.length < 13.0);
//! ```

mod edges;
mod grow;
mod hint;

use geo::algorithm::bool_ops::{BooleanOps, FillRule};
use geo::{LineString, MultiPolygon, Polygon as GeoPolygon};
use glam::Vec2;
use polyanya::{Mesh, Triangulation};

use self::edges::Edges;
pub use self::hint::GroundHint;
use crate::behaviors::arrive;
use crate::math::{closest_on_segment, direction, sanitize_limit, sanitize_radius, sanitize_speed};

/// How much a solid grows for a body of no size: a wall of no thickness
/// must still be carved out of the ground.
const MIN_GROWTH: f32 = 1e-3;

/// The farthest from the origin a solid, a corner of the ground or a point
/// routes must reach round may be, in any unit: the triangulation's
/// areas multiply coordinates, and beyond this they would overflow.
pub const FARTHEST: f32 = 1e12;

/// Whether `p` is finite and no farther than [`FARTHEST`] on either axis.
fn near_enough(p: Vec2) -> bool {
    p.is_finite() && p.abs().max_element() <= FARTHEST
}

/// Something no body may walk into, for navigation.
#[derive(Clone, Debug, PartialEq)]
pub enum Solid {
    /// A disc.
    Circle {
        /// Its middle.
        center: Vec2,
        /// Its radius.
        radius: f32,
    },
    /// A wall of no thickness from `a` to `b`.
    Wall {
        /// One end.
        a: Vec2,
        /// The other.
        b: Vec2,
    },
    /// A closed polygon, solid inside: its corners in order (either way
    /// round).
    Polygon(Vec<Vec2>),
    /// A closed ring of walls through these corners, in order: a body
    /// inside stays inside, one outside stays out.
    Ring(Vec<Vec2>),
}

impl Solid {
    /// Whether every number in it is finite and within [`FARTHEST`], a
    /// circle's radius is not negative, and a polygon has a point.
    pub fn is_valid(&self) -> bool {
        match self {
            Solid::Circle { center, radius } => {
                near_enough(*center) && (0.0..=FARTHEST).contains(radius)
            }
            Solid::Wall { a, b } => near_enough(*a) && near_enough(*b),
            Solid::Polygon(points) | Solid::Ring(points) => {
                !points.is_empty() && points.iter().all(|p| near_enough(*p))
            }
        }
    }
}

/// Where the ground is.
#[derive(Clone, Copy, Debug)]
pub enum Ground<'a> {
    /// Inside this closed polygon (a level's
    /// containment): a body keeps its radius from its edges too.
    Within(&'a [Vec2]),
    /// Everywhere: the area reaches round every solid and past the points
    /// given, as far as a shortest route between any of them can go.
    Open {
        /// Points the area must reach (where agents are and where they
        /// are going).
        around: &'a [Vec2],
    },
}

/// Where a route ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteEnd {
    /// At the goal.
    Goal,
    /// The goal is no place for the body (in a solid, or off the ground):
    /// at the nearest place that is, reachable from the start.
    NearestFree,
    /// The goal is on ground the start has no way to: at the reachable
    /// place nearest it.
    NearestReachable,
}

/// A route: the corners to go through, from the start to its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// From the start (where it was asked from) to the end, each a corner
    /// where the route turns round a grown solid.
    pub points: Vec<Vec2>,
    /// Its length.
    pub length: f32,
    /// Whether it ends at the goal, or the nearest place to it there is.
    pub end: RouteEnd,
}

/// The ground a body of one radius can walk on, and the routes through it.
/// Build it again (or another for another size of body) when a solid is
/// added, moved or removed.
#[derive(Clone)]
pub struct WalkableArea {
    /// Each connected piece of the ground: a route never leaves the piece
    /// it starts in.
    pieces: Vec<Piece>,
    body: f32,
    min: Vec2,
    max: Vec2,
    /// This area's number, unlike any other's made in this process: what
    /// a [`GroundHint`] was noted on.
    id: u64,
}

/// A connected piece of the ground, and the box round it.
#[derive(Clone)]
struct Piece {
    mesh: Mesh,
    edges: Edges,
    min: Vec2,
    max: Vec2,
}

impl std::fmt::Debug for WalkableArea {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkableArea")
            .field("body", &self.body)
            .field("min", &self.min)
            .field("max", &self.max)
            .field("pieces", &self.pieces.len())
            .finish()
    }
}

impl WalkableArea {
    /// The ground for a body of radius `body` among `solids` (invalid ones,
    /// see [`Solid::is_valid`], are left out).
    pub fn new(solids: &[Solid], ground: Ground, body: f32) -> Self {
        let body = sanitize_radius(body).min(FARTHEST);
        // A wall must have some thickness to be carved out of the ground,
        // even for a body of no size.
        let grow = body.max(MIN_GROWTH);
        let mut rings = Vec::new();
        let mut keep = |ring: Vec<Vec2>| {
            let ring = grow::distinct(&ring);
            if ring.len() >= 3 {
                rings.push(ring);
            }
        };
        for solid in solids.iter().filter(|s| s.is_valid()) {
            grow::grown_rings(solid, grow, &mut keep);
        }
        let outline = match ground {
            Ground::Within(points) => {
                let points: Vec<Vec2> =
                    points.iter().copied().filter(|p| near_enough(*p)).collect();
                let points = grow::distinct(&points);
                // The ground's edges are walls seen from inside.
                for (i, a) in points.iter().enumerate() {
                    let b = points[(i + 1) % points.len()];
                    grow::grown_rings(&Solid::Wall { a: *a, b }, grow, &mut keep);
                }
                points
            }
            Ground::Open { around } => {
                let (min, max) = rings
                    .iter()
                    .flatten()
                    .chain(around.iter().filter(|p| near_enough(**p)))
                    .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| {
                        (lo.min(*p), hi.max(*p))
                    });
                let (min, max) = if min.cmple(max).all() {
                    (min, max)
                } else {
                    (Vec2::ZERO, Vec2::ZERO)
                };
                // Room to walk round the outermost solids (in proportion,
                // so that a level scaled to other units is the same).
                let margin = grow + 0.05 * (max - min).max_element();
                let (min, max) = (min - margin, max + margin);
                vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]
            }
        };
        Self::from_rings(&outline, rings, body)
    }

    fn from_rings(outline: &[Vec2], rings: Vec<Vec<Vec2>>, body: f32) -> Self {
        let (min, max) = outline
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        // The ground less the grown solids, by a robust polygon overlay
        // (i_overlay, through geo): rings that overlap, touch or lie along
        // one another (boxes side by side, walls on one line) come out as
        // clean outlines, which the triangulation needs.
        let ring = |points: &[Vec2]| LineString::from_iter(points.iter().map(|p| (p.x, p.y)));
        let ground = GeoPolygon::new(ring(outline), Vec::new());
        let solid = MultiPolygon::new(
            rings
                .iter()
                .map(|r| GeoPolygon::new(ring(r), Vec::new()))
                .collect(),
        );
        let free = if outline.len() >= 3 {
            ground.difference_with_fill_rule(&solid, FillRule::NonZero)
        } else {
            MultiPolygon::new(Vec::new())
        };
        // A point this close to the ground counts as on it: a body resting
        // against a solid is on the ground.
        let delta = (body * 1e-3)
            .max((max - min).max_element() * 1e-6)
            .max(1e-6);
        let pieces = free
            .into_iter()
            .map(|piece| {
                let (lo, hi) = piece.exterior().points().fold(
                    (Vec2::INFINITY, Vec2::NEG_INFINITY),
                    |(lo, hi), p| {
                        let p = Vec2::new(p.x(), p.y());
                        (lo.min(p), hi.max(p))
                    },
                );
                let mut mesh = Triangulation::from_geo_polygon(piece).as_navmesh();
                mesh.merge_polygons();
                mesh.bake();
                mesh.set_search_delta(delta);
                Piece {
                    edges: Edges::of(&mesh),
                    mesh,
                    min: lo,
                    max: hi,
                }
            })
            .collect();
        Self {
            pieces,
            body,
            min,
            max,
            id: hint::new_area_id(),
        }
    }

    /// The radius of the body it is for.
    pub fn body(&self) -> f32 {
        self.body
    }

    /// The box round its ground: (min, max).
    pub fn bounds(&self) -> (Vec2, Vec2) {
        (self.min, self.max)
    }

    /// Whether `p` is inside the box round its ground (an open ground
    /// built without `p` may not reach it).
    pub fn covers(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// Whether a body's centre may be at `p`.
    pub fn is_free(&self, p: Vec2) -> bool {
        p.is_finite() && self.piece_at(p).is_some()
    }

    /// `p` if a body's centre may be there, else the nearest place it may
    /// (`None` only if there is no ground at all, or `p` is not finite).
    pub fn nearest_free(&self, p: Vec2) -> Option<Vec2> {
        if !p.is_finite() {
            return None;
        }
        self.nearest_on_ground(p, None).map(|(q, _)| q)
    }

    /// How many convex polygons its ground is made of.
    pub fn polygon_count(&self) -> usize {
        self.pieces
            .iter()
            .flat_map(|piece| &piece.mesh.layers)
            .map(|layer| layer.polygons.len())
            .sum()
    }

    /// The convex polygons its ground is made of, for drawing.
    pub fn polygons(&self) -> impl Iterator<Item = impl Iterator<Item = Vec2> + '_> + '_ {
        self.pieces
            .iter()
            .flat_map(|piece| &piece.mesh.layers)
            .flat_map(|layer| {
                layer.polygons.iter().map(move |polygon| {
                    polygon
                        .vertices
                        .iter()
                        .map(move |v| layer.vertices[*v as usize].coords)
                })
            })
    }

    /// The shortest route for the body from `from` to `to`. If the goal is
    /// no place for the body, or has no way to it, the route ends at the
    /// nearest place that is and has (see [`RouteEnd`]); if the start is
    /// no place for the body (against a solid, inside one), it first goes
    /// to the nearest that is. `None` only if there is no ground at all
    /// or a point is not finite.
    pub fn route(&self, from: Vec2, to: Vec2) -> Option<Route> {
        self.route_counted(from, to).0
    }

    /// [`route`](Self::route), and the search work it took: the nodes
    /// Polyanya expanded, counted in its polls of [`NODES_A_POLL`] (at
    /// least one for any route). The count is the same on every machine,
    /// so work can be shared out by it and a run still go the same way.
    pub fn route_counted(&self, from: Vec2, to: Vec2) -> (Option<Route>, u32) {
        let mut work = 1;
        let route = self.route_inner(from, to, &mut work);
        (route, work)
    }

    fn route_inner(&self, from: Vec2, to: Vec2, work: &mut u32) -> Option<Route> {
        if !(from.is_finite() && to.is_finite()) {
            return None;
        }
        let (start, piece) = self.nearest_on_ground(from, None)?;
        let (goal, end) = match self.piece_at(to) {
            Some(p) if p == piece => (to, RouteEnd::Goal),
            found => {
                let (goal, _) = self.nearest_on_ground(to, Some(piece))?;
                let end = if found.is_some() {
                    RouteEnd::NearestReachable
                } else {
                    RouteEnd::NearestFree
                };
                (goal, end)
            }
        };
        let mut points = vec![from];
        if start != from {
            points.push(start);
        }
        if start != goal {
            match search(&self.pieces[piece].mesh, start, goal, work) {
                Some(path) => points.extend(path.path),
                // Polyanya found none between two points of one part: its
                // search gave up (a point on an edge it could not place);
                // go straight.
                None => points.push(goal),
            }
        }
        if points.last() != Some(&goal) {
            points.push(goal);
        }
        points.dedup();
        let length: f32 = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        if !length.is_finite() {
            // Ground near f32::MAX: no route a body can follow.
            return None;
        }
        Some(Route {
            points,
            length,
            end,
        })
    }

    /// The piece `p` is on, if it is on the ground.
    fn piece_at(&self, p: Vec2) -> Option<usize> {
        self.pieces.iter().position(|piece| {
            p.cmpge(piece.min).all() && p.cmple(piece.max).all() && piece.mesh.point_in_mesh(p)
        })
    }

    /// `p` if it is on the ground (of `piece`, if given), else the nearest
    /// point that is, a hair inside it; and its piece.
    fn nearest_on_ground(&self, p: Vec2, piece: Option<usize>) -> Option<(Vec2, usize)> {
        if let Some(found) = self.piece_at(p)
            && piece.is_none_or(|i| i == found)
        {
            return Some((p, found));
        }
        let (_, (q, middle), best_piece) = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(index, _)| piece.is_none_or(|i| i == *index))
            .filter_map(|(index, candidate)| {
                let found = candidate.edges.nearest(p)?;
                Some((p.distance_squared(found.0), found, index))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        // A hair toward its polygon's middle, so the search places it there.
        let inside = q + (middle - q) * 1e-3;
        Some((if inside.is_finite() { inside } else { q }, best_piece))
    }
}

/// How many nodes Polyanya expands in one poll of its search, at most.
pub const NODES_A_POLL: u32 = 3;

/// Polyanya's route from `start` to `goal` on `mesh`, its work counted in
/// `work` (nodes expanded): its search polled to the end, as many polls as
/// its own blocking search allows (ten steps a polygon).
fn search(
    mesh: &polyanya::Mesh,
    start: Vec2,
    goal: Vec2,
    work: &mut u32,
) -> Option<polyanya::Path> {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    let mut context = Context::from_waker(Waker::noop());
    let mut future = std::pin::pin!(mesh.get_path(start, goal));
    let polygons: usize = mesh.layers.iter().map(|l| l.polygons.len()).sum();
    let most =
        u32::try_from(polygons.saturating_mul(10) / NODES_A_POLL as usize + 2).unwrap_or(u32::MAX);
    for poll in 0..most {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(found) => {
                *work = work.saturating_add(poll.saturating_mul(NODES_A_POLL));
                // Placing an end failed before any search (a point on an
                // edge, within the search's delta): the blocking search
                // places it by its nearest point.
                return if found.is_none() && poll == 0 {
                    mesh.path(start, goal)
                } else {
                    found
                };
            }
            Poll::Pending => {}
        }
    }
    *work = work.saturating_add(most.saturating_mul(NODES_A_POLL));
    None
}

/// One step along a route: the velocity a body wants, and the corner it
/// now heads for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouteStep {
    /// The desired velocity.
    pub desired: Vec2,
    /// The index in the route's points of the corner it heads for.
    pub corner: usize,
}

/// How a body follows a route: its limits, and the room it has at a corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RouteFollowing {
    /// Its top speed.
    pub max_speed: f32,
    /// The most it can change its velocity in a second (its max force over
    /// its mass).
    pub max_accel: f32,
    /// Where it starts slowing for the route's end.
    pub slowing_radius: f32,
    /// How near a corner counts as reaching it: it cuts a corner by at
    /// most this much.
    pub reach: f32,
    /// How wide it may swing out at a corner: it slows so that a turn at
    /// its top acceleration fits in this radius, and so that its velocity,
    /// catching up with the new way over its response time, takes it no
    /// farther off the route than half of it.
    pub room: f32,
    /// Its response time (see [`steering`](crate::model::steering)).
    pub response_time: f32,
}

/// Follows a route's corners (`points`, from the start): heads for the
/// corner `corner` (1 at the start) and on to the next once within
/// `reach` of it, or past it by no more than `room`, arriving at the last
/// one. It comes to a
/// corner no faster than it can turn there within `room` (a right angle at
/// `√(max_accel · room)`, a U-turn at `√(max_accel · room / 2)`, and no
/// faster than lets it drift off the route by half of `room` while its
/// velocity catches up with the new way), braking for it at half its
/// acceleration.
///
/// A body cuts a corner by at most `reach`: give the route that much
/// clearance beyond the body, and the body keeps clear of the solids
/// (the turn itself swings it wide, away from the corner's solid).
pub fn follow_route(points: &[Vec2], corner: usize, pos: Vec2, how: RouteFollowing) -> RouteStep {
    let max_speed = sanitize_speed(how.max_speed);
    let Some(last) = points.len().checked_sub(1).filter(|l| *l > 0) else {
        let end = points.first().copied().unwrap_or(pos);
        return RouteStep {
            desired: arrive(pos, end, max_speed, how.slowing_radius),
            corner: 0,
        };
    };
    let reach = sanitize_limit(how.reach);
    let room = sanitize_limit(how.room);
    // On along the route past every corner it is beside or beyond.
    let mut corner = corner.clamp(1, last);
    while corner < last {
        let (from, to) = (points[corner - 1], points[corner]);
        let beyond = (pos - to).dot(to - from) >= 0.0;
        if pos.distance(to) <= reach || (beyond && pos.distance(to) <= room) {
            corner += 1;
        } else {
            break;
        }
    }
    let (from, to) = (points[corner - 1], points[corner]);
    // It aims `reach` along the route from the point beside it, so it
    // keeps to the route's line and cuts a corner by no more than that.
    let mut left = reach.max(f32::EPSILON);
    let mut here = closest_on_segment(pos, from, to);
    let mut next = corner;
    let aim = loop {
        let d = here.distance(points[next]);
        if d >= left || next == last {
            break here + direction(points[next] - here) * left.min(d);
        }
        left -= d;
        here = points[next];
        next += 1;
    };
    let end = points[last];
    if corner == last {
        return RouteStep {
            desired: arrive(pos, end, max_speed, how.slowing_radius),
            corner,
        };
    }
    // How far the way turns at the corner ahead: from the last corner
    // `room` or more before it to the next as far after (a round corner
    // is many small turns, one turn in all). 1 straight on, 0 at a right
    // angle, -1 at a U-turn.
    let bend_at = points[corner];
    let far = |p: &&Vec2| p.distance(bend_at) >= room;
    let before = points[..corner]
        .iter()
        .rev()
        .find(far)
        .unwrap_or(&points[0]);
    let after = points[corner + 1..]
        .iter()
        .find(far)
        .unwrap_or(&points[last]);
    let turn = direction(bend_at - *before).dot(direction(*after - bend_at));
    let accel = sanitize_limit(how.max_accel);
    let bend = (1.0 - turn.clamp(-1.0, 1.0)).max(1e-6);
    // A velocity turning through θ over the response time τ drifts
    // `v τ sin θ` off the new line (wider for a U-turn): within room / 2.
    let drift = crate::model::sanitize_response_time(how.response_time)
        * (1.0 - turn.clamp(0.0, 1.0).powi(2))
            .sqrt()
            .max(if turn < 0.0 { 1.0 } else { 0.0 });
    let at_corner = (accel * room / bend)
        .sqrt()
        .min(0.5 * room / drift.max(1e-6))
        .min(max_speed);
    let speed = (at_corner * at_corner + accel * pos.distance(bend_at))
        .sqrt()
        .min(max_speed);
    RouteStep {
        desired: direction(aim - pos) * speed,
        corner,
    }
}

/// The corner a follower heading for `corner` of a route may head for
/// instead: the last one after it that it sees (`sees`: its body goes
/// straight from where it is to there, touching nothing), if it sees past
/// the one it heads for. In a crowd, followers are pushed off their routes'
/// lines, and from where one is pushed to the way on is often straight:
/// kept to its corners, everyone going through a door heads for the same
/// post and slows to turn round it, and those going the other way meet
/// them there head on (BENCHMARKS.md, "Routes through a crowd").
pub fn corner_in_sight(
    points: &[Vec2],
    corner: usize,
    mut sees: impl FnMut(Vec2) -> bool,
) -> Option<usize> {
    let last = points.len().checked_sub(1).filter(|l| *l > 0)?;
    let heading_for = corner.clamp(1, last);
    let mut seen = heading_for;
    while seen < last && sees(points[seen + 1]) {
        seen += 1;
    }
    (seen > heading_for).then_some(seen)
}

#[cfg(test)]
mod tests;
