//! A level's shapes in a uniform grid ([`ShapeIndex`]), so a probe tests
//! only those near it: in the cells it crosses, or, shorter, in the one list
//! of the cell it starts in ([`ReachLists`]).

use std::sync::atomic::{AtomicU32, Ordering};

use glam::{IVec2, Vec2};

use super::nearby::{Nearby, Touch};
use super::reach_lists::ReachLists;
use super::{Probe, Shape};
use crate::spatial::{Buckets, Cells};

/// One shape of the index: the thing it belongs to, which part of it, and
/// where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexedShape<I> {
    /// What it belongs to (an obstacle entity, say).
    pub id: I,
    /// Which of its shapes (a polygon's edge): 0 for a thing of one.
    pub part: u32,
    /// The shape, where it is.
    pub shape: Shape,
}

/// The first shape a probe touches, and how far along the probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit<I> {
    /// What it belongs to.
    pub id: I,
    /// Which of its shapes.
    pub part: u32,
    /// The shape.
    pub shape: Shape,
    /// How far along the probe the swept body first touches it.
    pub at: f32,
}

/// Shapes in a uniform grid: cleared and pushed again when they change
/// ([`clear`](Self::clear), [`push`](Self::push)), then
/// [`rebuild`](Self::rebuild), which makes the grid and lists again only
/// if the shapes (or the probes' reach) changed.
///
/// ```
/// # use reynolds::level::{Probe, Shape};
/// # use reynolds::level::ShapeIndex;
/// # use glam::Vec2;
/// let mut index = ShapeIndex::default();
/// index.push("rock", 0, Shape::Circle { center: Vec2::new(100.0, 0.0), radius: 10.0 });
/// index.rebuild(64.0, true);
/// let probe = Probe { from: Vec2::ZERO, dir: Vec2::X, length: 200.0, radius: 5.0 };
/// assert_eq!(index.first_hit(&probe).map(|hit| (hit.id, hit.at)), Some(("rock", 85.0)));
/// ```
#[derive(Debug)]
pub struct ShapeIndex<I> {
    shapes: Vec<IndexedShape<I>>,
    /// Each shape's bounding circle (its radius a little padded): a probe
    /// that passes farther from it than its own radius cannot touch it.
    rough: Vec<(Vec2, f32)>,
    /// The grid: cells counted from the world's origin (so a shape's cells
    /// do not move when another is added far away), `first` the one in its
    /// corner; it covers the shapes' bounds, densely.
    cells: Cells,
    first: IVec2,
    /// The shapes (their numbers) in each cell they cover.
    buckets: Buckets<u32>,
    /// Shapes too big for the grid, tested by every probe.
    big: Vec<u32>,
    /// Each cell's shapes within a probe's reach of it.
    lists: ReachLists,
    /// The longest reach (length and radius) of a probe cast this step, as
    /// `f32` bits: the lists are made for it in the next.
    widest: AtomicU32,
    /// What the grid and lists were last made of.
    built: Built<I>,
}

/// The shapes, the cell size asked for and the reach a [`ShapeIndex`]
/// was last made of: while they stay the same, it is not made again.
#[derive(Debug)]
struct Built<I> {
    shapes: Vec<IndexedShape<I>>,
    cell: f32,
    reach: f32,
}

impl<I> Default for ShapeIndex<I> {
    fn default() -> Self {
        Self {
            shapes: Vec::new(),
            rough: Vec::new(),
            cells: Cells::default(),
            first: IVec2::ZERO,
            buckets: Buckets::default(),
            big: Vec::new(),
            lists: ReachLists::default(),
            widest: AtomicU32::new(0),
            built: Built {
                shapes: Vec::new(),
                cell: 0.0,
                reach: 0.0,
            },
        }
    }
}

/// A shape that would cover more cells than this is tested by every probe.
const MAX_CELLS: i64 = 256;

/// The most cells the grid has: `MIN_GRID_CELLS`, or
/// `GRID_CELLS_PER_SHAPE` a shape; sparser levels get bigger cells.
const MIN_GRID_CELLS: i64 = 4096;
const GRID_CELLS_PER_SHAPE: i64 = 16;

impl<I: Copy + PartialEq> ShapeIndex<I> {
    /// Every shape.
    pub fn shapes(&self) -> &[IndexedShape<I>] {
        &self.shapes
    }

    /// Whether there is no shape at all.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Forgets every shape (until the next [`rebuild`](Self::rebuild),
    /// probes still see the shapes the grid was made of).
    pub fn clear(&mut self) {
        self.shapes.clear();
    }

    /// Adds part `part` of `id`, a `shape`.
    pub fn push(&mut self, id: I, part: u32, shape: Shape) {
        self.shapes.push(IndexedShape { id, part, shape });
    }

    /// The cells (counted from the world's origin) of the box `min..max`,
    /// if it is finite, not too far out and covers few enough of them.
    fn cell_range(&self, min: Vec2, max: Vec2) -> Option<(IVec2, IVec2)> {
        let (lo, hi) = (min / self.cells.size, max / self.cells.size);
        if !(lo.is_finite() && hi.is_finite())
            || lo.abs().max_element() > 1e6
            || hi.abs().max_element() > 1e6
        {
            return None;
        }
        let cell = |p: Vec2| {
            let (x, y) = self.cells.coords(p);
            IVec2::new(x as i32, y as i32)
        };
        let (lo, hi) = (cell(min), cell(max));
        let span = (hi - lo).as_i64vec2();
        if (span.x + 1) * (span.y + 1) > MAX_CELLS {
            return None;
        }
        Some((lo, hi))
    }

    /// The cells of `lo..=hi` inside the grid, each as its list of shapes.
    fn for_each_cell(&self, lo: IVec2, hi: IVec2, mut visit: impl FnMut(&[u32])) {
        self.for_each_cell_at(lo, hi, |_, list| visit(list));
    }

    /// [`for_each_cell`](Self::for_each_cell), with each cell's place
    /// (counted from the world's origin, as `lo` and `hi` are).
    fn for_each_cell_at(&self, lo: IVec2, hi: IVec2, mut visit: impl FnMut(IVec2, &[u32])) {
        let size = IVec2::new(self.cells.cols as i32, self.cells.rows as i32);
        let lo = (lo - self.first).max(IVec2::ZERO);
        let hi = (hi - self.first).min(size - 1);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let list = self.buckets.of(self.cells.index(x as usize, y as usize));
                visit(IVec2::new(x, y) + self.first, list);
            }
        }
    }

    /// Notes that a probe reaching `reach` (its length and radius) was cast
    /// this step: the lists are made for the widest at the next
    /// [`rebuild`](Self::rebuild). From any thread. (A load first: the
    /// widest rarely changes, and a write to what every thread reads costs
    /// them all.)
    pub fn note_reach(&self, reach: f32) {
        // Not negative, so the bits order as the numbers do.
        if reach.is_finite() && reach > f32::from_bits(self.widest.load(Ordering::Relaxed)) {
            self.widest.fetch_max(reach.to_bits(), Ordering::Relaxed);
        }
    }

    /// Makes the grid of the shapes, in cells of about `cell`, and the
    /// lists for probes as wide as the widest noted since the last time:
    /// unless nothing changed. `pushed`: whether the shapes were pushed
    /// again since (if not, and there are as many, they are taken to be
    /// the ones it was made of, and are not compared).
    pub fn rebuild(&mut self, cell: f32, pushed: bool) {
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
        // Not pushed again, and as many: trusted to be the same.
        let trusted = !pushed && built.shapes.len() == self.shapes.len();
        let same_shapes = trusted || built.shapes == self.shapes;
        if same_shapes && built.cell == cell && built.reach == reach {
            return;
        }
        if !same_shapes {
            built.shapes.clone_from(&self.shapes);
        }
        (built.cell, built.reach) = (cell, reach);
        self.make_grid(cell);
        let mut lists = std::mem::take(&mut self.lists);
        let shapes = self.built.shapes.iter().enumerate().filter_map(|(i, s)| {
            // Shapes in the grid (the big ones are tested by every probe).
            let bounds = s.shape.bounds();
            self.cell_range(bounds.0, bounds.1)
                .map(|_| (i as u32, bounds, self.rough[i]))
        });
        lists.build(reach, (self.cells, self.first), shapes);
        self.lists = lists;
    }

    fn make_grid(&mut self, cell: f32) {
        self.cells = Cells {
            origin: Vec2::ZERO,
            size: Vec2::splat(cell),
            cols: 0,
            rows: 0,
        };
        // The shapes' bounds, in cells; bigger cells if that is too many.
        // Made of the shapes as they were copied at this rebuild, which the
        // probes read until the next: pushes in between do not move them.
        let shapes = &self.built.shapes;
        let max_cells = MIN_GRID_CELLS.max(GRID_CELLS_PER_SHAPE * shapes.len() as i64);
        let (lo, hi) = loop {
            let (mut lo, mut hi) = (IVec2::MAX, IVec2::MIN);
            for s in shapes {
                let (min, max) = s.shape.bounds();
                if let Some((a, b)) = self.cell_range(min, max) {
                    (lo, hi) = (lo.min(a), hi.max(b));
                }
            }
            if lo.x > hi.x {
                break (lo, hi);
            }
            let span = (hi.as_i64vec2() - lo.as_i64vec2()) + 1;
            if span.x * span.y <= max_cells || self.cells.size.x > 1e9 {
                break (lo, hi);
            }
            self.cells.size *= 2.0;
        };
        self.rough.clear();
        self.rough.extend(shapes.iter().map(|s| {
            let (center, radius) = match s.shape {
                Shape::Circle { center, radius } => (center, radius),
                Shape::Wall { a, b } => ((a + b) * 0.5, 0.5 * a.distance(b)),
            };
            (center, radius * (1.0 + 1e-4) + 1e-3)
        }));
        self.big.clear();
        if lo.x > hi.x {
            // No shape fits in cells: every one is big.
            self.first = IVec2::ZERO;
            self.buckets.sort(0, std::iter::empty());
            self.big.extend(0..shapes.len() as u32);
            return;
        }
        self.first = lo;
        let size = hi - lo + 1;
        (self.cells.cols, self.cells.rows) = (size.x as usize, size.y as usize);
        // Each shape in every cell of its bounds, in the order of the
        // shapes: a cell's shapes come lowest-numbered first.
        let ranges: Vec<_> = shapes
            .iter()
            .map(|s| {
                let (min, max) = s.shape.bounds();
                self.cell_range(min, max)
                    .map(|(a, b)| (a - self.first, b - self.first))
            })
            .collect();
        self.big.extend(
            ranges
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_none())
                .map(|(i, _)| i as u32),
        );
        let cells = self.cells;
        let entries = ranges.iter().enumerate().flat_map(|(i, range)| {
            range.iter().flat_map(move |&(a, b)| {
                (a.y..=b.y).flat_map(move |y| {
                    (a.x..=b.x).map(move |x| (cells.index(x as usize, y as usize), i as u32))
                })
            })
        });
        self.buckets.sort(cells.len(), entries);
    }

    /// The first shape the probe's swept body touches.
    pub fn first_hit(&self, probe: &Probe) -> Option<ShapeHit<I>> {
        let mut best: Option<Touch> = None;
        let exact = |i: u32, best: &mut Option<Touch>| {
            let shape = self.built.shapes[i as usize].shape;
            if let Some(at) = probe.hit(&shape) {
                let touch = Touch {
                    number: i,
                    shape,
                    at,
                };
                if best.is_none_or(|best| touch.comes_before(&best)) {
                    *best = Some(touch);
                }
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
                    if !self.cells.is_empty() {
                        self.for_each_cell(lo, hi, |list| list.iter().copied().for_each(&mut test));
                    }
                    self.big.iter().copied().for_each(&mut test);
                }
                // A probe too long for the grid tests everything.
                None => (0..self.built.shapes.len() as u32).for_each(&mut test),
            }
        }
        best.map(|touch| self.hit(touch))
    }

    /// What a touch of shape number `touch.number` is a hit of.
    fn hit(&self, touch: Touch) -> ShapeHit<I> {
        let IndexedShape { id, part, .. } = self.built.shapes[touch.number as usize];
        ShapeHit {
            id,
            part,
            shape: touch.shape,
            at: touch.at,
        }
    }

    /// Each shape whose bounds come within `distance` of `p`, once (every
    /// shape, if the box round `p` is too big for the grid).
    pub fn for_each_near(&self, p: Vec2, distance: f32, mut visit: impl FnMut(&IndexedShape<I>)) {
        let slack = Vec2::splat(distance.max(0.0));
        // The shape, and its bounds, if they come that near.
        let near = |i: u32| {
            let shape = &self.built.shapes[i as usize];
            let (min, max) = shape.shape.bounds();
            (p.cmpge(min - slack).all() && p.cmple(max + slack).all()).then_some((shape, min, max))
        };
        let Some((lo, hi)) = self.cell_range(p - slack, p + slack) else {
            // A box too big for the grid: every shape.
            for i in 0..self.built.shapes.len() as u32 {
                if let Some((shape, ..)) = near(i) {
                    visit(shape);
                }
            }
            return;
        };
        if !self.cells.is_empty() {
            // A shape in several of the cells is offered from the first
            // only, where its cells and the box's begin: a sum over the
            // shapes near (the crowd's push from walls) must not count a
            // long wall once a cell.
            self.for_each_cell_at(lo, hi, |cell, list| {
                for &i in list {
                    if let Some((shape, min, max)) = near(i)
                        && self
                            .cell_range(min, max)
                            .is_some_and(|(first, _)| first.max(lo) == cell)
                    {
                        visit(shape);
                    }
                }
            });
        }
        for &i in &self.big {
            if let Some((shape, ..)) = near(i) {
                visit(shape);
            }
        }
    }

    /// Gathers into `near` the shapes a probe from where this one starts,
    /// as long and as wide, could touch, whichever way it looks.
    pub fn gather_near(&self, probe: &Probe, near: &mut Nearby) {
        let (from, reach) = (probe.from, probe.length + probe.radius);
        if !near.start(from, probe.length, probe.radius) {
            return;
        }
        let offer = |near: &mut Nearby, i: u32| near.offer(i, &self.built.shapes[i as usize].shape);
        // The cell's list, if there is one that reaches as far: every
        // shape whose bounding circle is within reach (and rounding) of
        // `from`, once.
        let rounding = 1e-4 * from.abs().max_element() + 1e-3;
        let near_reach = near.reach() + rounding;
        let listed = self
            .lists
            .passing((from, Vec2::X, 0.0), near_reach, |i| offer(near, i));
        if !listed {
            let slack = Vec2::splat(reach);
            let Some((lo, hi)) = self.cell_range(from - slack, from + slack) else {
                return near.overflow();
            };
            if !self.cells.is_empty() {
                self.for_each_cell(lo, hi, |list| {
                    list.iter().for_each(|&i| offer(near, i));
                });
            }
        }
        for &i in &self.big {
            offer(near, i);
        }
    }

    /// [`first_hit`](Self::first_hit) for a probe from where `near` was
    /// gathered and reaching no farther, testing only what it gathered (or
    /// the index, if that did not fit).
    pub fn first_hit_near(&self, near: &Nearby, probe: &Probe) -> Option<ShapeHit<I>> {
        if !near.complete {
            return self.first_hit(probe);
        }
        near.first_hit(probe).map(|touch| self.hit(touch))
    }

    /// Whether the probe touches no shape sooner than `reach` along, testing
    /// only what `near` gathered (if it was gathered from where the probe
    /// starts, and all fit).
    pub fn clear_near(&self, near: &Nearby, probe: &Probe, reach: f32) -> bool {
        if near.complete {
            near.clear(probe, reach)
        } else {
            self.first_hit(probe).is_none_or(|hit| hit.at >= reach)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Nearby;
    use rand::rngs::Xoshiro128PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// The first hit by testing every shape: what the index must agree with.
    fn first_hit_of_all(shapes: &[IndexedShape<u32>], probe: &Probe) -> Option<f32> {
        shapes
            .iter()
            .filter_map(|s| probe.hit(&s.shape))
            .min_by(f32::total_cmp)
    }

    #[test]
    fn the_index_and_what_it_gathers_find_the_hit_testing_every_shape_finds() {
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(4);
        // A dense level, then one with a few shapes far out, which makes
        // the grid take bigger cells, then one with shapes too big to grid.
        for spread in [2_000.0f32, 200_000.0, 2_000.0] {
            let mut index = ShapeIndex::<u32>::default();
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
                index.push(0, i, shape);
            }
            // Lists for probes reaching 256 (four cells): most of those
            // below; the rest walk the grid.
            index.note_reach(250.0);
            index.rebuild(64.0, true);
            assert_eq!(index.lists.reach, 256.0);
            let cells = index.cells.len() as i64;
            assert!(cells <= MIN_GRID_CELLS.max(16 * 300), "{cells} cells");
            let (mut hits, mut gathered, mut near) = (0, 0, Nearby::default());
            let (mut listed, mut walked) = (0, 0);
            for _ in 0..3_000 {
                // From near some shape, so most probes meet one.
                let (min, max) = index.shapes[rng.random_range(0..300)].shape.bounds();
                let center = (min + max) / 2.0;
                let from = center
                    + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * 150.0;
                let probe = Probe {
                    from,
                    dir: Vec2::from_angle((center - from).to_angle() + rng.random_range(-0.5..0.5)),
                    length: rng.random_range(0.0..300.0),
                    radius: rng.random_range(0.0..20.0),
                };
                let found = index.first_hit(&probe).map(|h| h.at);
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
                gathered += near.len();
                for turn in [0.0f32, 0.3, -0.7, 1.6, 3.1] {
                    let probe = Probe {
                        dir: Vec2::from_angle(turn).rotate(probe.dir),
                        ..probe
                    };
                    let found = index.first_hit_near(&near, &probe).map(|h| h.at);
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
        let mut index = ShapeIndex::<u32>::default();
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
            index.clear();
            let rock = Shape::Circle {
                center: at,
                radius: 10.0,
            };
            index.push(0, 0, rock);
            index.note_reach(105.0);
            index.rebuild(64.0, true);
            // Lists for probes reaching 128: a probe 405 long walks the grid.
            assert_eq!(index.lists.reach, 128.0);
            let probe = Probe { length, ..probe };
            assert_eq!(
                index.first_hit(&probe).map(|h| h.at),
                hit,
                "rock at {at}, {probe:?}"
            );
        }
    }

    /// Between `clear` (and fewer pushes) and `rebuild`, probes still see
    /// the shapes the grid was made of, as `clear` says, rather than
    /// indexing the new, shorter list by the old grid's numbers.
    #[test]
    fn probes_before_the_rebuild_see_the_shapes_it_was_made_of() {
        let mut index = ShapeIndex::<u32>::default();
        let rock = |x: f32| Shape::Circle {
            center: Vec2::new(x, 0.0),
            radius: 10.0,
        };
        for (i, x) in [50.0, 120.0, 190.0].into_iter().enumerate() {
            index.push(i as u32, 0, rock(x));
        }
        index.note_reach(105.0);
        index.rebuild(64.0, true);
        index.clear();
        index.push(7, 0, rock(400.0));
        let probe = Probe {
            from: Vec2::new(150.0, 0.0),
            dir: Vec2::X,
            length: 100.0,
            radius: 5.0,
        };
        // The grid's lists (a probe within their reach) and its cells (one
        // longer than that).
        for length in [100.0, 300.0] {
            let hit = index.first_hit(&Probe { length, ..probe });
            assert_eq!(hit.map(|h| (h.id, h.at)), Some((2, 25.0)), "{length}");
        }
        let mut near = Vec::new();
        index.for_each_near(Vec2::new(150.0, 0.0), 50.0, |s| near.push(s.id));
        near.sort();
        assert_eq!(near, [1, 2]);
        let mut gathered = Nearby::default();
        index.gather_near(&probe, &mut gathered);
        let hit = index.first_hit_near(&gathered, &probe);
        assert_eq!(hit.map(|h| (h.id, h.at)), Some((2, 25.0)));
        // After the rebuild, the new shapes.
        index.rebuild(64.0, true);
        assert_eq!(index.first_hit(&probe), None);
        let far = Probe {
            length: 300.0,
            ..probe
        };
        assert_eq!(
            index.first_hit(&far).map(|h| (h.id, h.at)),
            Some((7, 235.0))
        );
        // A rebuild told nothing was pushed, when the shapes are not as
        // many as it was made of, still takes them.
        let mut fresh = ShapeIndex::<u32>::default();
        fresh.push(3, 0, rock(190.0));
        fresh.rebuild(64.0, false);
        assert_eq!(
            fresh.first_hit(&probe).map(|h| (h.id, h.at)),
            Some((3, 25.0))
        );
    }

    /// Shapes near a point come once each, however many of the cells
    /// looked through they lie in: a wall through 40 cells, a rock on the
    /// corner of four, and a shape too big for cells, from points all
    /// round them and out to several cells off.
    #[test]
    fn shapes_near_come_once_each() {
        let mut index = ShapeIndex::<u32>::default();
        let wall = Shape::Wall {
            a: Vec2::new(-1_280.0, 10.0),
            b: Vec2::new(1_280.0, 10.0),
        };
        let rock = Shape::Circle {
            center: Vec2::new(128.0, 128.0),
            radius: 20.0,
        };
        let huge = Shape::Circle {
            center: Vec2::ZERO,
            radius: 1e5,
        };
        for (id, shape) in [wall, rock, huge].into_iter().enumerate() {
            index.push(id as u32, 0, shape);
        }
        index.rebuild(64.0, true);
        let mut rng = Xoshiro128PlusPlus::seed_from_u64(7);
        for _ in 0..500 {
            let p = Vec2::new(
                rng.random_range(-600.0..600.0),
                rng.random_range(-300.0..300.0),
            );
            let distance = rng.random_range(0.0..400.0);
            let mut seen = [0; 3];
            index.for_each_near(p, distance, |s| seen[s.id as usize] += 1);
            assert!(
                seen.iter().all(|&n| n <= 1),
                "{p} within {distance}: {seen:?}"
            );
            assert_eq!(seen[2], 1, "{p} within {distance}: the huge rock");
            let wall_near = p.y + distance >= 10.0 && p.y - distance <= 10.0;
            assert_eq!(seen[0], u32::from(wall_near), "{p} within {distance}");
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
            let found = near.first_hit(&probe).map(|touch| touch.at);
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
        let mut index = ShapeIndex::<u32>::default();
        let rock = Shape::Circle {
            center: Vec2::ZERO,
            radius: 50.0,
        };
        index.push(0, 0, rock);
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
            let found = index.first_hit_near(&near, &probe).map(|h| h.at);
            assert_eq!(found, probe.hit(&rock), "{dir}");
        }
    }
}
