//! The obstacles' shapes in a uniform grid ([`ObstacleIndex`]), and the
//! few of them near one agent ([`Nearby`]), gathered once for all the
//! probes it casts in a step.

use std::sync::atomic::{AtomicU32, Ordering};

use bevy::prelude::*;
use reynolds::{Probe, Shape};
use wide::f32x4;

use super::lists::ReachLists;
use crate::neighbors::floor;

/// Every obstacle's shapes where they are this step, in a uniform grid so
/// an agent only tests those near its probe. Kept up to date in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare): gathered
/// again in a step after an obstacle was added, changed, moved or removed,
/// and its grid made again only then (or when the agents look farther).
#[derive(Resource, Debug, Default)]
pub struct ObstacleIndex {
    pub(super) shapes: Vec<(Entity, u32, Shape)>,
    /// Each shape's bounding circle (its radius a little padded): a probe
    /// that passes farther from it than its own radius cannot touch it.
    rough: Vec<(Vec2, f32)>,
    cell: f32,
    /// The grid's first cell and how many cells it has each way: it covers
    /// the shapes' bounds, densely.
    origin: IVec2,
    size: IVec2,
    /// Cell `c`'s shapes are `items[starts[c]..starts[c + 1]]` (cells in
    /// rows, x fastest).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Where the next item of each cell goes, while filling.
    fill: Vec<u32>,
    /// Shapes too big for the grid, tested by every probe.
    big: Vec<u32>,
    /// Each cell's shapes within a probe's reach of it.
    lists: ReachLists,
    /// The longest reach (length and radius) of a probe cast this step, as
    /// `f32` bits: the lists are made for it in the next.
    widest: AtomicU32,
    /// What the grid and lists were last made of.
    built: Built,
    /// How many obstacles there were when the shapes were last gathered,
    /// and how many were placed by a `Position` and had a transform.
    pub(super) counts: [usize; 3],
}

/// The shapes, the cell size asked for and the reach an [`ObstacleIndex`]
/// was last made of: while they stay the same, it is not made again.
#[derive(Debug, Default)]
struct Built {
    shapes: Vec<(Entity, u32, Shape)>,
    cell: f32,
    reach: f32,
}

/// A shape that would cover more cells than this is tested by every probe.
const MAX_CELLS: i64 = 256;

/// The most cells the grid has: `MIN_GRID_CELLS`, or
/// `GRID_CELLS_PER_SHAPE` a shape; sparser levels get bigger cells.
const MIN_GRID_CELLS: i64 = 4096;
const GRID_CELLS_PER_SHAPE: i64 = 16;

impl ObstacleIndex {
    /// Every shape, with its entity and part.
    pub fn shapes(&self) -> impl Iterator<Item = (Entity, u32, Shape)> + '_ {
        self.shapes.iter().copied()
    }

    /// Whether there is no obstacle at all.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    fn cell_range(&self, min: Vec2, max: Vec2) -> Option<(IVec2, IVec2)> {
        let (lo, hi) = (min / self.cell, max / self.cell);
        if !(lo.is_finite() && hi.is_finite())
            || lo.abs().max_element() > 1e6
            || hi.abs().max_element() > 1e6
        {
            return None;
        }
        // (`f32::floor` is a call to `floorf`: 2% of a level's CPU time.)
        let cell = |v: Vec2| IVec2::new(floor(v.x) as i32, floor(v.y) as i32);
        let (lo, hi) = (cell(lo), cell(hi));
        let span = (hi - lo).as_i64vec2();
        if (span.x + 1) * (span.y + 1) > MAX_CELLS {
            return None;
        }
        Some((lo, hi))
    }

    /// The cells of `lo..=hi` inside the grid, each as its list of shapes.
    fn for_each_cell(&self, lo: IVec2, hi: IVec2, mut visit: impl FnMut(&[u32])) {
        let lo = (lo - self.origin).max(IVec2::ZERO);
        let hi = (hi - self.origin).min(self.size - 1);
        for y in lo.y..=hi.y {
            let row = (y * self.size.x) as usize;
            for x in lo.x..=hi.x {
                let c = row + x as usize;
                visit(&self.items[self.starts[c] as usize..self.starts[c + 1] as usize]);
            }
        }
    }

    /// Notes that a probe reaching `reach` (its length and radius) was cast
    /// this step. (A load first: the widest rarely changes, and a write to
    /// what every thread reads costs them all.)
    pub(crate) fn note_reach(&self, reach: f32) {
        // Not negative, so the bits order as the numbers do.
        if reach.is_finite() && reach > f32::from_bits(self.widest.load(Ordering::Relaxed)) {
            self.widest.fetch_max(reach.to_bits(), Ordering::Relaxed);
        }
    }

    /// Makes the grid of the shapes, in cells of about `cell`, and the
    /// lists for probes as wide as the widest noted since the last time:
    /// unless nothing changed. `gathered`: whether the shapes were gathered
    /// again since (if not, they are the ones it was made of, and are not
    /// compared).
    pub(super) fn rebuild(&mut self, cell: f32, gathered: bool) {
        let widest = f32::from_bits(self.widest.swap(0, Ordering::Relaxed));
        let cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            64.0
        };
        // In steps of half a cell (so speeds changing a little do not make
        // new lists each step), at most four cells: a probe reaching
        // farther walks the grid.
        let reach = ((widest / (0.5 * cell)).ceil() * 0.5 * cell).min(4.0 * cell);
        let reach = if reach.is_finite() { reach } else { 0.0 };
        let built = &mut self.built;
        let same_shapes = !gathered || built.shapes == self.shapes;
        if same_shapes && built.cell == cell && built.reach == reach {
            return;
        }
        if !same_shapes {
            built.shapes.clone_from(&self.shapes);
        }
        (built.cell, built.reach) = (cell, reach);
        self.make_grid(cell);
        let mut lists = std::mem::take(&mut self.lists);
        let shapes = self
            .shapes
            .iter()
            .enumerate()
            .filter_map(|(i, (_, _, shape))| {
                // Shapes in the grid (the big ones are tested by every probe).
                let bounds = shape.bounds();
                self.cell_range(bounds.0, bounds.1)
                    .map(|_| (i as u32, bounds, self.rough[i]))
            });
        lists.build(reach, (self.cell, self.origin, self.size), shapes);
        self.lists = lists;
    }

    fn make_grid(&mut self, cell: f32) {
        self.cell = cell;
        // The shapes' bounds, in cells; bigger cells if that is too many.
        let max_cells = MIN_GRID_CELLS.max(GRID_CELLS_PER_SHAPE * self.shapes.len() as i64);
        let (lo, hi) = loop {
            let (mut lo, mut hi) = (IVec2::MAX, IVec2::MIN);
            for (_, _, shape) in &self.shapes {
                let (min, max) = shape.bounds();
                if let Some((a, b)) = self.cell_range(min, max) {
                    (lo, hi) = (lo.min(a), hi.max(b));
                }
            }
            if lo.x > hi.x {
                break (lo, hi);
            }
            let span = (hi.as_i64vec2() - lo.as_i64vec2()) + 1;
            if span.x * span.y <= max_cells || self.cell > 1e9 {
                break (lo, hi);
            }
            self.cell *= 2.0;
        };
        self.rough.clear();
        self.rough.extend(self.shapes.iter().map(|(_, _, shape)| {
            let (center, radius) = match *shape {
                Shape::Circle { center, radius } => (center, radius),
                Shape::Wall { a, b } => ((a + b) * 0.5, 0.5 * a.distance(b)),
            };
            (center, radius * (1.0 + 1e-4) + 1e-3)
        }));
        self.big.clear();
        self.items.clear();
        self.starts.clear();
        if lo.x > hi.x {
            // No shape fits in cells: every one is big.
            (self.origin, self.size) = (IVec2::ZERO, IVec2::ZERO);
            self.big.extend(0..self.shapes.len() as u32);
            return;
        }
        (self.origin, self.size) = (lo, hi - lo + 1);
        let cells = (self.size.x * self.size.y) as usize;
        // Count each cell's shapes, lay the counts end to end, then fill.
        self.starts.resize(cells + 1, 0);
        let ranges = |index: &Self, i: usize| {
            let (min, max) = index.shapes[i].2.bounds();
            index
                .cell_range(min, max)
                .map(|(a, b)| (a - index.origin, b - index.origin))
        };
        for i in 0..self.shapes.len() {
            match ranges(self, i) {
                Some((a, b)) => {
                    for y in a.y..=b.y {
                        for x in a.x..=b.x {
                            self.starts[(y * self.size.x + x) as usize + 1] += 1;
                        }
                    }
                }
                None => self.big.push(i as u32),
            }
        }
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        self.items.resize(self.starts[cells] as usize, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..cells]);
        for i in 0..self.shapes.len() {
            if let Some((a, b)) = ranges(self, i) {
                for y in a.y..=b.y {
                    for x in a.x..=b.x {
                        let c = (y * self.size.x + x) as usize;
                        self.items[self.fill[c] as usize] = i as u32;
                        self.fill[c] += 1;
                    }
                }
            }
        }
    }

    /// The first shape the probe's swept body touches: its entity and part,
    /// the shape, and how far along the probe.
    pub fn first_hit(&self, probe: &Probe) -> Option<(Entity, u32, Shape, f32)> {
        let mut best: Option<(u32, f32)> = None;
        let exact = |i: u32, best: &mut Option<(u32, f32)>| {
            if let Some(t) = probe.hit(&self.shapes[i as usize].2)
                && best.is_none_or(|(b, bt)| comes_first((i, t), (b, bt)))
            {
                *best = Some((i, t));
            }
        };
        // Rounding: the hit test and the distance to the probe's line
        // differ by ulps of the coordinates (as in `Nearby::start`).
        let slack = probe.radius
            + 1e-4 * (probe.from.abs().max_element() + probe.length + probe.radius)
            + 1e-3;
        // (A probe whose direction is not a unit vector is tested as it is.)
        let unit = (probe.dir.length_squared() - 1.0).abs() < 1e-4;
        // The list of the cell it starts in, if there is one for a probe
        // this long: those it passes near, tested exactly.
        let listed = unit
            && self
                .lists
                .passing((probe.from, probe.dir, probe.length), slack, |i| {
                    exact(i, &mut best)
                });
        let mut test = |i: u32| {
            // Else most shapes near a probe are beside it: one dot product
            // rules them out (NaN rules nothing out).
            if let Some(&(center, radius)) = self.rough.get(i as usize).filter(|_| unit) {
                let to = center - probe.from;
                let along = to.dot(probe.dir).max(0.0).min(probe.length);
                let reach = radius + slack;
                if (to - probe.dir * along).length_squared() > reach * reach {
                    return;
                }
            }
            exact(i, &mut best);
        };
        if listed {
            self.big.iter().copied().for_each(&mut test);
        } else {
            // Else the cells of the box it sweeps.
            let end = probe.from + probe.dir * probe.length;
            let reach = Vec2::splat(probe.radius);
            match self.cell_range(probe.from.min(end) - reach, probe.from.max(end) + reach) {
                Some((lo, hi)) => {
                    if self.size.x > 0 {
                        self.for_each_cell(lo, hi, |list| list.iter().copied().for_each(&mut test));
                    }
                    self.big.iter().copied().for_each(&mut test);
                }
                // A probe too long for the grid tests everything.
                None => (0..self.shapes.len() as u32).for_each(&mut test),
            }
        }
        best.map(|(i, t)| {
            let (entity, part, shape) = self.shapes[i as usize];
            (entity, part, shape, t)
        })
    }

    /// Gathers into `near` the shapes within `reach` of `from`: all a probe
    /// from there of length and radius adding up to `reach` can touch.
    pub(crate) fn gather_near(&self, probe: &Probe, near: &mut Nearby) {
        let (from, reach) = (probe.from, probe.length + probe.radius);
        if !near.start(from, probe.length, probe.radius) {
            return;
        }
        // The cell's list, if there is one that reaches as far: every
        // shape whose bounding circle is within reach (and rounding) of
        // `from`, once.
        let rounding = 1e-4 * from.abs().max_element() + 1e-3;
        let listed = self
            .lists
            .passing((from, Vec2::X, 0.0), near.reach + rounding, |i| {
                near.offer(i, &self.shapes[i as usize].2);
            });
        if listed {
            for &i in &self.big {
                near.offer(i, &self.shapes[i as usize].2);
            }
            return;
        }
        let slack = Vec2::splat(reach);
        let Some((lo, hi)) = self.cell_range(from - slack, from + slack) else {
            return near.overflow();
        };
        if self.size.x > 0 {
            self.for_each_cell(lo, hi, |list| {
                for &i in list {
                    near.offer(i, &self.shapes[i as usize].2);
                }
            });
        }
        for &i in &self.big {
            near.offer(i, &self.shapes[i as usize].2);
        }
    }

    /// [`first_hit`](Self::first_hit) for a probe from where `near` was
    /// gathered and reaching no farther, testing only what it gathered (or
    /// the index, if that did not fit).
    pub(crate) fn first_hit_near(
        &self,
        near: &Nearby,
        probe: &Probe,
    ) -> Option<(Entity, u32, Shape, f32)> {
        if !near.complete {
            return self.first_hit(probe);
        }
        near.first_hit(probe).map(|(i, shape, t)| {
            let (entity, part, _) = self.shapes[i as usize];
            (entity, part, shape, t)
        })
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
pub(crate) struct Nearby {
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
    pub(crate) complete: bool,
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
    pub(crate) fn start(&mut self, from: Vec2, length: f32, radius: f32) -> bool {
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
    pub(crate) fn offer(&mut self, i: u32, shape: &Shape) {
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
            Shape::Wall { a, b } => {
                (self.from - reynolds::closest_on_segment(self.from, a, b)).length()
            }
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

    /// Gives up on gathering: probes test every shape.
    pub(crate) fn overflow(&mut self) {
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
    /// those it touches first): its number, the shape, and how far along.
    /// The same as testing each with [`Probe::hit`], to the bit.
    pub(crate) fn first_hit(&self, probe: &Probe) -> Option<(u32, Shape, f32)> {
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
                let (i, shape) = self.shapes[shape_of[lane] as usize];
                let t = t[lane];
                if best.is_none_or(|(b, _, bt)| comes_first((i, t), (b, bt))) {
                    best = Some((i, shape, t));
                }
            }
            false
        });
        best
    }

    /// Whether the probe touches no gathered shape sooner than `reach`
    /// along: [`first_hit`](Self::first_hit)`(probe).is_none_or(|h| h.2 >=
    /// reach)`, to the bit, without finding which is first.
    pub(crate) fn clear(&self, probe: &Probe, reach: f32) -> bool {
        if self.len == 0 {
            return true;
        }
        if probe.from != self.from || probe.radius != self.radius {
            return self.first_hit(probe).is_none_or(|(_, _, t)| t >= reach);
        }
        let odd = self.odd_walls[..self.odd]
            .iter()
            .map(|&k| self.shapes[k as usize]);
        // (A hit is never NaN.)
        if first_hit_among(odd, probe).is_some_and(|(_, _, t)| t < reach) {
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

/// Whether shape `i`, touched `t` along a probe, is the first hit rather
/// than shape `b` touched `bt` along: nearer, or as near and
/// lower-numbered (so the answer does not depend on the order shapes are
/// tested in).
#[inline]
fn comes_first((i, t): (u32, f32), (b, bt): (u32, f32)) -> bool {
    t < bt || (t == bt && i < b)
}

/// The first of `shapes` the probe touches (the lowest-numbered of those it
/// touches first): its number, the shape, and how far along.
pub(crate) fn first_hit_among(
    shapes: impl IntoIterator<Item = (u32, Shape)>,
    probe: &Probe,
) -> Option<(u32, Shape, f32)> {
    let mut best: Option<(u32, Shape, f32)> = None;
    for (i, shape) in shapes {
        if let Some(t) = probe.hit(&shape)
            && best.is_none_or(|(b, _, bt)| comes_first((i, t), (b, bt)))
        {
            best = Some((i, shape, t));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::Xoshiro128PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// The first hit by testing every shape: what the index must agree with.
    fn first_hit_of_all(shapes: &[(Entity, u32, Shape)], probe: &Probe) -> Option<f32> {
        shapes
            .iter()
            .filter_map(|(_, _, shape)| probe.hit(shape))
            .min_by(f32::total_cmp)
    }

    #[test]
    fn the_index_and_what_it_gathers_find_the_hit_testing_every_shape_finds() {
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(4);
        // A dense level, then one with a few shapes far out, which makes
        // the grid take bigger cells, then one with shapes too big to grid.
        for spread in [2_000.0f32, 200_000.0, 2_000.0] {
            let mut index = ObstacleIndex::default();
            for i in 0..300u32 {
                let at = Vec2::new(
                    rng.random_range(-spread..spread),
                    rng.random_range(-spread..spread),
                );
                let size = if spread == 2_000.0 && i % 50 == 7 {
                    rng.random_range(5_000.0..20_000.0)
                } else {
                    rng.random_range(5.0..60.0)
                };
                let shape = if i % 3 == 0 {
                    let half = Vec2::from_angle(rng.random_range(0.0..6.3)) * size;
                    Shape::Wall {
                        a: at - half,
                        b: at + half,
                    }
                } else {
                    Shape::Circle {
                        center: at,
                        radius: size,
                    }
                };
                index.shapes.push((Entity::PLACEHOLDER, i, shape));
            }
            // Lists for probes reaching 256 (four cells): most of those
            // below; the rest walk the grid.
            index.note_reach(250.0);
            index.rebuild(64.0, true);
            assert_eq!(index.lists.reach, 256.0);
            let cells = index.size.x as i64 * index.size.y as i64;
            assert!(cells <= MIN_GRID_CELLS.max(16 * 300), "{cells} cells");
            let (mut hits, mut gathered, mut near) = (0, 0, Nearby::default());
            let (mut listed, mut walked) = (0, 0);
            for _ in 0..3_000 {
                // From near some shape, so most probes meet one.
                let (min, max) = index.shapes[rng.random_range(0..300)].2.bounds();
                let center = (min + max) / 2.0;
                let from = center
                    + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * 150.0;
                let probe = Probe {
                    from,
                    dir: Vec2::from_angle((center - from).to_angle() + rng.random_range(-0.5..0.5)),
                    length: rng.random_range(0.0..300.0),
                    radius: rng.random_range(0.0..20.0),
                };
                let found = index.first_hit(&probe).map(|h| h.3);
                assert_eq!(found, first_hit_of_all(&index.shapes, &probe), "{probe:?}");
                hits += usize::from(found.is_some());
                if index
                    .lists
                    .serves(probe.from, probe.length + probe.radius + 1.0)
                {
                    listed += 1;
                } else {
                    walked += 1;
                }
                // What is gathered near `from` serves a probe any way from
                // there, as far.
                index.gather_near(&probe, &mut near);
                gathered += near.len;
                for turn in [0.0f32, 0.3, -0.7, 1.6, 3.1] {
                    let probe = Probe {
                        dir: Vec2::from_angle(turn).rotate(probe.dir),
                        ..probe
                    };
                    let found = index.first_hit_near(&near, &probe).map(|h| h.3);
                    let all = first_hit_of_all(&index.shapes, &probe);
                    assert_eq!(found, all, "{probe:?}");
                    if near.complete {
                        for reach in [probe.length, 0.5 * probe.length] {
                            let clear = all.is_none_or(|t| t >= reach);
                            assert_eq!(near.clear(&probe, reach), clear, "{probe:?}, {reach}");
                        }
                    }
                }
            }
            assert!(hits > 1_000, "only {hits} probes met a shape");
            assert!(
                listed > 1_000 && walked > 500,
                "{listed} probes listed, {walked} walked"
            );
            assert!(gathered > 1_000, "only {gathered} shapes gathered");
        }
    }

    /// The grid and lists are made again when a shape moves (not kept
    /// because the cell size and reach are the same), and serve only the
    /// probes they reach for.
    #[test]
    fn the_index_follows_a_rock_that_moves() {
        let mut index = ObstacleIndex::default();
        let probe = Probe {
            from: Vec2::ZERO,
            dir: Vec2::X,
            length: 100.0,
            radius: 5.0,
        };
        // (A rock of radius 10 at `(x, 0)` is touched at `x - 15`.)
        for (at, length, hit) in [
            (Vec2::new(50.0, 200.0), 100.0, None),
            (Vec2::new(50.0, 0.0), 100.0, Some(35.0)),
            (Vec2::new(50.0, 0.0), 100.0, Some(35.0)),
            (Vec2::new(300.0, 0.0), 100.0, None),
            (Vec2::new(300.0, 0.0), 400.0, Some(285.0)),
            (Vec2::new(40.0, 0.0), 100.0, Some(25.0)),
        ] {
            index.shapes.clear();
            let rock = Shape::Circle {
                center: at,
                radius: 10.0,
            };
            index.shapes.push((Entity::PLACEHOLDER, 0, rock));
            index.note_reach(105.0);
            index.rebuild(64.0, true);
            // Lists for probes reaching 128: a probe 405 long walks the grid.
            assert_eq!(index.lists.reach, 128.0);
            let probe = Probe { length, ..probe };
            assert_eq!(
                index.first_hit(&probe).map(|h| h.3),
                hit,
                "rock at {at}, {probe:?}"
            );
        }
    }

    /// A gathering that overflows (more shapes in reach than it holds)
    /// leaves nothing behind for the next: the one after it, of a single
    /// rock, finds only that rock.
    #[test]
    fn a_gathering_after_one_that_overflowed_sees_only_its_own_shapes() {
        let mut near = Nearby::default();
        let ring = |at: Vec2, i: u32| Shape::Circle {
            center: at + Vec2::from_angle(i as f32 * 0.15) * 30.0,
            radius: 2.0,
        };
        // Forty pebbles round (0, 0): more than a gathering holds.
        assert!(near.start(Vec2::ZERO, 100.0, 4.0));
        for i in 0..40 {
            near.offer(i, &ring(Vec2::ZERO, i));
        }
        assert!(!near.complete, "forty shapes should not fit");
        // Then one rock behind an agent at (1000, 0), and a probe ahead.
        let rock = Shape::Circle {
            center: Vec2::new(900.0, 0.0),
            radius: 10.0,
        };
        assert!(near.start(Vec2::new(1_000.0, 0.0), 100.0, 4.0));
        near.offer(0, &rock);
        assert!(near.complete);
        for dir in (0..16).map(|k| Vec2::from_angle(k as f32 * 0.4)) {
            let probe = Probe {
                from: Vec2::new(1_000.0, 0.0),
                dir,
                length: 100.0,
                radius: 4.0,
            };
            let found = near.first_hit(&probe).map(|(_, _, t)| t);
            assert_eq!(found, probe.hit(&rock), "{dir}");
            assert_eq!(
                near.clear(&probe, 100.0),
                probe.hit(&rock).is_none(),
                "{dir}"
            );
        }
    }

    /// From inside a rock, what was gathered agrees with `Probe::hit`: a
    /// hit at once heading in or across (even exactly across), none
    /// heading out.
    #[test]
    fn what_is_gathered_sees_a_rock_from_inside_as_probe_hit_does() {
        let mut index = ObstacleIndex::default();
        let rock = Shape::Circle {
            center: Vec2::ZERO,
            radius: 50.0,
        };
        index.shapes.push((Entity::PLACEHOLDER, 0, rock));
        index.rebuild(64.0, true);
        let probe = Probe {
            from: Vec2::new(10.0, 0.0),
            dir: Vec2::X,
            length: 100.0,
            radius: 4.0,
        };
        let mut near = Nearby::default();
        index.gather_near(&probe, &mut near);
        for (dir, hit) in [(Vec2::NEG_X, true), (Vec2::Y, true), (Vec2::X, false)] {
            let probe = Probe { dir, ..probe };
            assert_eq!(probe.hit(&rock).is_some(), hit, "{dir}");
            let found = index.first_hit_near(&near, &probe).map(|h| h.3);
            assert_eq!(found, probe.hit(&rock), "{dir}");
        }
    }
}
