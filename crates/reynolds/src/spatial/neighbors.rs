//! The neighbor grid: agents sorted by cell into flat columns (positions
//! and velocities, x and y apart, and body radii), so a query touches only
//! the cells round a point and reads them as runs of the columns; in a
//! wrapping world, neighbors across an edge count. Flocking is its main
//! user (the flock module's `NeighborGrid::flock`): a flocker weighs the
//! runs within its reach eight candidates at a time, its sums kept in
//! registers from the first run to the last.

use std::ops::Range;

use glam::Vec2;

use super::{Buckets, Cells, Id, OneThread, Tasks};
use crate::math::sanitize_radius;
use crate::wrap::wrapped_offset;

/// One agent as a grid takes it in: a [`NeighborGrid`] on a plane
/// (`Vec2`, the default), a [`VolumeGrid`](super::VolumeGrid) in 3D.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridAgent<I, V = Vec2> {
    /// Who it is.
    pub id: I,
    /// Where it is.
    pub position: V,
    /// How fast it goes.
    pub velocity: V,
    /// Its body's radius (0 for a point).
    pub radius: f32,
}

/// The tag of an agent the grid was told nothing of.
pub const NO_TAG: u32 = u32::MAX;

/// Agents sorted by the cell they are in, rebuilt from scratch (usually each
/// step), for the agents near a point: [`for_each_within`], [`within`],
/// [`flock_sums`] and [`flock`].
///
/// [`for_each_within`]: NeighborGrid::for_each_within
/// [`within`]: NeighborGrid::within
/// [`flock_sums`]: NeighborGrid::flock_sums
/// [`flock`]: NeighborGrid::flock
///
/// ```
/// # use reynolds::spatial::{GridAgent, NeighborGrid};
/// # use glam::Vec2;
/// let mut grid = NeighborGrid::default();
/// let at = |id: u32, x: f32| GridAgent { id, position: Vec2::new(x, 0.0), velocity: Vec2::ZERO, radius: 0.0 };
/// grid.rebuild([at(1, 0.0), at(2, 30.0), at(3, 500.0)], 70.0, None);
/// assert_eq!(grid.within(Vec2::ZERO, 50.0).count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct NeighborGrid<I> {
    /// The cells: in a wrapping world they tile the period exactly, so each
    /// is at least the asked-for size; elsewhere they cover the agents.
    pub(crate) cells: Cells,
    /// The wrap period on each axis, or zero where the world does not wrap.
    pub(crate) period: Vec2,
    /// Which agent taken in is at each slot, cell by cell: the counting
    /// sort, whose cell starts say where each cell's agents are.
    sorted: Buckets<u32>,
    ids: Vec<I>,
    // Positions and velocities, x and y apart: the layout the flocking
    // kernel reads eight at a time.
    pub(crate) xs: Vec<f32>,
    pub(crate) ys: Vec<f32>,
    pub(crate) vxs: Vec<f32>,
    pub(crate) vys: Vec<f32>,
    /// Body radii, each finite and not negative: empty when every agent is
    /// a point, so a flock of points neither stores nor reads them.
    pub(crate) radii: Vec<f32>,
    /// The largest body radius in the grid.
    largest_radius: f32,
    /// By slot: what the grid was told of the agent there
    /// ([`NeighborGrid::take`]).
    tags: Vec<u32>,
    /// Each agent's slot, by [`Id::index`] (stale entries are caught by
    /// checking `ids`).
    slot_of: Vec<u32>,
    /// The agents taken in, before they are sorted, and each one's cell.
    taken: Taken<I>,
}

impl<I> Default for NeighborGrid<I> {
    fn default() -> Self {
        Self {
            cells: Cells::default(),
            period: Vec2::ZERO,
            sorted: Buckets::default(),
            ids: Vec::new(),
            xs: Vec::new(),
            ys: Vec::new(),
            vxs: Vec::new(),
            vys: Vec::new(),
            radii: Vec::new(),
            largest_radius: 0.0,
            tags: Vec::new(),
            slot_of: Vec::new(),
            taken: Taken::default(),
        }
    }
}

/// The agents [`NeighborGrid::take`] takes in, in the order given, column by
/// column, so each pass of the sort reads only what it needs.
#[derive(Clone, Debug)]
struct Taken<I> {
    ids: Vec<I>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    radii: Vec<f32>,
    tags: Vec<u32>,
    cells: Vec<u32>,
    /// One more than the largest id index.
    slots_needed: usize,
}

impl<I> Default for Taken<I> {
    fn default() -> Self {
        Self {
            ids: Vec::new(),
            positions: Vec::new(),
            velocities: Vec::new(),
            radii: Vec::new(),
            tags: Vec::new(),
            cells: Vec::new(),
            slots_needed: 0,
        }
    }
}

/// The grid's columns, in two groups that can be filled at once.
enum Columns<'a, I> {
    /// Where the agents are and how they move.
    Motions {
        xs: &'a mut Vec<f32>,
        ys: &'a mut Vec<f32>,
        vxs: &'a mut Vec<f32>,
        vys: &'a mut Vec<f32>,
        radii: &'a mut Vec<f32>,
    },
    /// Who they are.
    Identities {
        ids: &'a mut Vec<I>,
        tags: &'a mut Vec<u32>,
        slot_of: &'a mut Vec<u32>,
    },
}

/// The most runs of the grid's arrays an agent's sums take at once: three
/// rows, each split in two where it crosses a wrapping edge, fit.
pub(crate) const MOST_RUNS: usize = 8;
pub(crate) const NO_RUN: (Range<usize>, Vec2) = (0..0, Vec2::ZERO);

/// The most cells a grid may have, whatever the spread of the agents.
pub(crate) const MAX_CELLS: usize = 1 << 20;

/// The runs of the grid's arrays round a cell, each with what moves its
/// agents across a wrapping edge: at most [`MOST_RUNS`].
pub(crate) type Runs = [(Range<usize>, Vec2); MOST_RUNS];

impl<I: Id> NeighborGrid<I> {
    /// Sorts `agents` into cells of at least `cell_size` (and at least 1).
    /// With `wrap` (the rectangle's min and max corners), the grid covers
    /// the wrap rectangle and queries go round its edges; without, it covers
    /// the agents. Agents at a non-finite place or speed are left out; a
    /// radius that is negative or not finite counts as 0. The buffers are
    /// reused: no allocation once they are big enough.
    pub fn rebuild(
        &mut self,
        agents: impl IntoIterator<Item = GridAgent<I>>,
        cell_size: f32,
        wrap: Option<(Vec2, Vec2)>,
    ) {
        self.take(agents.into_iter().map(|agent| (agent, NO_TAG)));
        self.sort(Vec2::splat(cell_size), wrap, &OneThread);
    }

    /// The first half of [`rebuild`](Self::rebuild): the agents taken in
    /// (those at a finite place and speed), each with a tag of the
    /// caller's, read back by slot with [`tag`](Self::tag).
    pub fn take(&mut self, agents: impl IntoIterator<Item = (GridAgent<I>, u32)>) {
        let taken = &mut self.taken;
        taken.ids.clear();
        taken.positions.clear();
        taken.velocities.clear();
        taken.radii.clear();
        taken.tags.clear();
        let (mut largest, mut slots) = (0.0f32, 0);
        for (agent, tag) in agents {
            if agent.position.is_finite() && agent.velocity.is_finite() {
                let r = sanitize_radius(agent.radius);
                largest = largest.max(r);
                slots = slots.max(agent.id.index() + 1);
                taken.ids.push(agent.id);
                taken.positions.push(agent.position);
                taken.velocities.push(agent.velocity);
                taken.radii.push(r);
                taken.tags.push(tag);
            }
        }
        self.largest_radius = largest;
        taken.slots_needed = slots;
    }

    /// The second half of [`rebuild`](Self::rebuild): the agents taken in
    /// sorted into cells of at least `cell_size` (each side at least 1),
    /// the work split between `tasks`' threads.
    pub fn sort(&mut self, cell_size: Vec2, wrap: Option<(Vec2, Vec2)>, tasks: &impl Tasks) {
        let wrap = wrap.filter(|(min, max)| {
            let s = *max - *min;
            s.is_finite() && s.x > 0.0 && s.y > 0.0
        });
        self.cells = Self::cells_for(&self.taken.positions, cell_size, wrap);
        self.period = wrap.map_or(Vec2::ZERO, |(min, max)| max - min);

        // Each agent's cell (in parallel), then the counting sort.
        let mut taken = std::mem::take(&mut self.taken);
        let n = taken.positions.len();
        let parallel = tasks.threads() > 1;
        let mut cells_of = std::mem::take(&mut taken.cells);
        cells_of.clear();
        cells_of.resize(n, 0);
        {
            let grid = &*self;
            let find = |(cells, positions): (&mut [u32], &mut [Vec2])| {
                for (cell, p) in cells.iter_mut().zip(positions) {
                    // In a wrapping world, every position inside the period,
                    // so a cell's copies round the edges are exactly one
                    // period apart. The wrap after each step keeps agents
                    // inside: `rem_euclid` (a call to `fmodf`) only for the
                    // odd one that is not.
                    if let Some((min, max)) = wrap
                        && !(p.cmpge(min).all() && p.cmplt(max).all())
                    {
                        *p = min + (*p - min).rem_euclid(max - min);
                    }
                    *cell = grid.cell_index(grid.cells.coords(*p)) as u32;
                }
            };
            let chunk = n.div_ceil(tasks.threads().max(1)).max(1);
            let positions = &mut taken.positions;
            if parallel {
                tasks.for_each(
                    cells_of.chunks_mut(chunk).zip(positions.chunks_mut(chunk)),
                    find,
                );
            } else {
                find((&mut cells_of, positions));
            }
        }
        let cell_count = self.cells.len();
        let entries = cells_of
            .iter()
            .enumerate()
            .map(|(i, c)| (*c as usize, i as u32));
        self.sorted.sort(cell_count, entries);
        taken.cells = cells_of;
        self.taken = taken;
        self.gather(tasks);
    }

    /// The cells for agents at `positions`: over the wrap rectangle, tiling
    /// it exactly, or over the agents; bigger than `cell_size` where there
    /// would be too many, so memory stays bounded however far apart the
    /// agents are.
    fn cells_for(positions: &[Vec2], cell_size: Vec2, wrap: Option<(Vec2, Vec2)>) -> Cells {
        let mut size = Vec2::select(
            cell_size.is_finite_mask(),
            cell_size.max(Vec2::ONE),
            Vec2::ONE,
        );
        let (origin, extent) = match wrap {
            Some((min, max)) => (min, max - min),
            None if positions.is_empty() => (Vec2::ZERO, Vec2::ONE),
            None => {
                let (min, max) = positions.iter().fold(
                    (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                    |(lo, hi), p| (lo.min(*p), hi.max(*p)),
                );
                // Agents at ±3e38 are 6e38 apart: more than an f32 holds.
                (min, (max - min).clamp(Vec2::ONE, Vec2::splat(f32::MAX)))
            }
        };
        let count = |len: f32, size: f32| {
            let n = (len / size).floor();
            // NaN (an infinite cell over an infinite length) is one cell.
            if n.is_nan() {
                1
            } else {
                n.clamp(1.0, MAX_CELLS as f32) as usize
            }
        };
        let (cols, rows) = loop {
            let (cols, rows) = match wrap {
                Some(_) => (count(extent.x, size.x), count(extent.y, size.y)),
                None => (count(extent.x, size.x) + 1, count(extent.y, size.y) + 1),
            };
            if cols.saturating_mul(rows) <= MAX_CELLS {
                break (cols, rows);
            }
            size *= 2.0;
        };
        Cells {
            origin,
            size: match wrap {
                Some(_) => extent / Vec2::new(cols as f32, rows as f32),
                None => size,
            },
            cols,
            rows,
        }
    }

    /// The columns filled in the sorted order (two groups of them at once,
    /// where there are threads), and each agent's slot by id.
    fn gather(&mut self, tasks: &impl Tasks) {
        let taken = &self.taken;
        let order = self.sorted.items();
        let with_radii = self.largest_radius > 0.0;
        if taken.slots_needed > self.slot_of.len() {
            self.slot_of.resize(taken.slots_needed, u32::MAX);
        }
        let halves = [
            Columns::Motions {
                xs: &mut self.xs,
                ys: &mut self.ys,
                vxs: &mut self.vxs,
                vys: &mut self.vys,
                radii: &mut self.radii,
            },
            Columns::Identities {
                ids: &mut self.ids,
                tags: &mut self.tags,
                slot_of: &mut self.slot_of,
            },
        ];
        let fill = |half: Columns<'_, I>| match half {
            Columns::Motions {
                xs,
                ys,
                vxs,
                vys,
                radii,
            } => {
                let fill = |column: &mut Vec<f32>, value: &dyn Fn(usize) -> f32| {
                    column.clear();
                    column.extend(order.iter().map(|&i| value(i as usize)));
                };
                fill(xs, &|i| taken.positions[i].x);
                fill(ys, &|i| taken.positions[i].y);
                fill(vxs, &|i| taken.velocities[i].x);
                fill(vys, &|i| taken.velocities[i].y);
                radii.clear();
                if with_radii {
                    radii.extend(order.iter().map(|&i| taken.radii[i as usize]));
                }
            }
            Columns::Identities { ids, tags, slot_of } => {
                ids.clear();
                ids.extend(order.iter().map(|&i| taken.ids[i as usize]));
                tags.clear();
                tags.extend(order.iter().map(|&i| taken.tags[i as usize]));
                for (slot, id) in ids.iter().enumerate() {
                    slot_of[id.index()] = slot as u32;
                }
            }
        };
        if tasks.threads() > 1 && !order.is_empty() {
            tasks.for_each(halves.into_iter(), fill);
        } else {
            halves.into_iter().for_each(fill);
        }
    }

    /// The cell a point of these coordinates is in: wrapped round a
    /// wrapping axis, else clamped to the grid.
    fn cell_index(&self, (x, y): (i64, i64)) -> usize {
        let wrap_or_clamp = |v: i64, n: usize, wraps: bool| {
            let n = n as i64;
            if (0..n).contains(&v) {
                // Nearly always: no integer division.
                v as usize
            } else if wraps {
                v.rem_euclid(n) as usize
            } else {
                v.clamp(0, n - 1) as usize
            }
        };
        let x = wrap_or_clamp(x, self.cells.cols, self.period.x > 0.0);
        let y = wrap_or_clamp(y, self.cells.rows, self.period.y > 0.0);
        self.cells.index(x, y)
    }

    /// `p`, moved inside the period of a wrapping world.
    pub(crate) fn inside_period(&self, p: Vec2) -> Vec2 {
        let origin = self.cells.origin;
        let axis = |x: f32, origin: f32, period: f32| {
            // Nearly always inside already: `rem_euclid` is a call to
            // `fmodf`.
            if period > 0.0 && !(origin..origin + period).contains(&x) {
                origin + (x - origin).rem_euclid(period)
            } else {
                x
            }
        };
        Vec2::new(
            axis(p.x, origin.x, self.period.x),
            axis(p.y, origin.y, self.period.y),
        )
    }

    /// How many agents the grid holds.
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// Whether the grid holds no agent.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// The cells the grid has.
    pub fn cells(&self) -> Cells {
        self.cells
    }

    /// The bytes the grid's buffers hold on to (their capacity, not their
    /// length): what a long run watches to see that memory stays bounded.
    pub fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let taken = &self.taken;
        [
            self.sorted.memory_bytes(),
            bytes(&self.ids),
            bytes(&self.xs),
            bytes(&self.ys),
            bytes(&self.vxs),
            bytes(&self.vys),
            bytes(&self.radii),
            bytes(&self.tags),
            bytes(&self.slot_of),
            bytes(&taken.ids),
            bytes(&taken.positions),
            bytes(&taken.velocities),
            bytes(&taken.radii),
            bytes(&taken.tags),
            bytes(&taken.cells),
        ]
        .into_iter()
        .sum()
    }

    /// The position of the agent at `slot` of the grid's arrays.
    pub fn position(&self, slot: usize) -> Vec2 {
        Vec2::new(self.xs[slot], self.ys[slot])
    }

    /// The velocity of the agent at `slot` of the grid's arrays.
    pub fn velocity(&self, slot: usize) -> Vec2 {
        Vec2::new(self.vxs[slot], self.vys[slot])
    }

    /// The body radius of the agent at `slot` of the grid's arrays.
    pub fn radius(&self, slot: usize) -> f32 {
        self.radii.get(slot).copied().unwrap_or(0.0)
    }

    /// The tag the agent at `slot` was taken in with.
    pub fn tag(&self, slot: usize) -> u32 {
        self.tags[slot]
    }

    /// The id of the agent at `slot` of the grid's arrays.
    pub fn id(&self, slot: usize) -> I {
        self.ids[slot]
    }

    /// Where the agent `id` is in the grid's arrays, if the grid holds it.
    pub fn slot_of(&self, id: I) -> Option<usize> {
        let slot = *self.slot_of.get(id.index())? as usize;
        (self.ids.get(slot) == Some(&id)).then_some(slot)
    }

    /// The largest body radius of any agent in the grid.
    pub fn largest_radius(&self) -> f32 {
        self.largest_radius
    }

    /// The slots of the agents in cells `cells` (consecutive).
    pub fn slots(&self, cells: Range<usize>) -> Range<usize> {
        self.sorted.places(cells)
    }

    /// Calls `f(range, shift)` for runs of the grid's arrays that hold every
    /// agent within `radius` of `p` (and others near it): each agent in
    /// `range` is at offset `position + shift` from `p`. `shift` is `None`
    /// when the cells visited cover a whole wrapping axis: then each agent
    /// takes the short way round itself.
    fn for_each_run(&self, p: Vec2, radius: f32, mut f: impl FnMut(Range<usize>, Option<Vec2>)) {
        if self.is_empty() || !p.is_finite() || radius.is_nan() || radius < 0.0 {
            return;
        }
        let radius = radius.min(1e9);
        let p = self.inside_period(p);
        let rings = self.rings(radius);
        let short_way = self.covers_an_axis(rings);
        self.for_each_run_around(self.cells.coords(p), rings, |range, period_shift| {
            f(range, (!short_way).then(|| period_shift - p));
        });
    }

    /// How many rings of cells round an agent's own hold everything within
    /// `radius` of it, on each axis.
    pub(crate) fn rings(&self, radius: f32) -> (i64, i64) {
        // `f32::ceil` is a call to `ceilf` without SSE4.1: truncate and step
        // up instead (the same for any value not negative).
        let ceil = |v: f32| {
            let t = v as i64;
            if (t as f32) < v {
                t.saturating_add(1)
            } else {
                t
            }
        };
        let size = self.cells.size;
        (ceil(radius / size.x), ceil(radius / size.y))
    }

    /// Whether `rings` round a cell take in a whole wrapping axis, so that
    /// some cells would be visited twice.
    pub(crate) fn covers_an_axis(&self, (rings_x, rings_y): (i64, i64)) -> bool {
        let covers = |rings: i64, n: usize| rings.saturating_mul(2).saturating_add(1) >= n as i64;
        (self.period.x > 0.0 && covers(rings_x, self.cells.cols))
            || (self.period.y > 0.0 && covers(rings_y, self.cells.rows))
    }

    /// Calls `f(range, period_shift)` for the runs of the grid's arrays in
    /// the cells within `rings` of cell `(cx, cy)`: the cells of one row are
    /// contiguous, so a run is a row of cells, split where it crosses a
    /// wrapping edge. A cell past an edge is a copy of one inside, one
    /// period over: `period_shift` is what moves its agents there. Where
    /// the rings take in a whole wrapping axis, every cell is visited once,
    /// unshifted.
    pub(crate) fn for_each_run_around(
        &self,
        (cx, cy): (i64, i64),
        (rings_x, rings_y): (i64, i64),
        mut f: impl FnMut(Range<usize>, Vec2),
    ) {
        let Cells { cols, rows, .. } = self.cells;
        // Saturating: a point asked about may lie far outside the grid.
        let span = |n: usize, wraps: bool, c: i64, rings: i64| {
            if wraps && rings.saturating_mul(2).saturating_add(1) >= n as i64 {
                (0, n as i64 - 1)
            } else if wraps {
                (c - rings, c + rings)
            } else {
                (
                    c.saturating_sub(rings).max(0),
                    c.saturating_add(rings).min(n as i64 - 1),
                )
            }
        };
        let (wraps_x, wraps_y) = (self.period.x > 0.0, self.period.y > 0.0);
        let (x0, x1) = span(cols, wraps_x, cx, rings_x);
        let (y0, y1) = span(rows, wraps_y, cy, rings_y);
        let wrap_axis = |v: i64, n: usize, wraps: bool, period: f32| {
            let n = n as i64;
            // Nearly always at most one period over: no integer division
            // (tens of cycles each, several an agent).
            if !wraps || (0..n).contains(&v) {
                (v as usize, 0.0)
            } else if (-n..0).contains(&v) {
                ((v + n) as usize, -period)
            } else if (n..2 * n).contains(&v) {
                ((v - n) as usize, period)
            } else {
                (v.rem_euclid(n) as usize, period * v.div_euclid(n) as f32)
            }
        };
        for y in y0..=y1 {
            let (row, shift_y) = wrap_axis(y, rows, wraps_y, self.period.y);
            let mut x = x0;
            while x <= x1 {
                let (col, shift_x) = wrap_axis(x, cols, wraps_x, self.period.x);
                // The run goes on to the row's last column at most.
                let last = x1.min(x + (cols - 1 - col) as i64);
                let first_cell = self.cells.index(col, row);
                let end_cell = first_cell + (last - x) as usize + 1;
                f(
                    self.sorted.places(first_cell..end_cell),
                    Vec2::new(shift_x, shift_y),
                );
                x = last + 1;
            }
        }
    }

    /// The runs of the grid's arrays in the cells within `rings` of cell
    /// `coords`, each with what moves it across a wrapping edge, into
    /// `runs`: how many, or `None` if more than fit.
    pub(crate) fn runs_around(
        &self,
        coords: (i64, i64),
        rings: (i64, i64),
        runs: &mut Runs,
    ) -> Option<usize> {
        let mut count = 0;
        self.for_each_run_around(coords, rings, |range, period_shift| {
            if let Some(run) = runs.get_mut(count) {
                *run = (range, period_shift);
            }
            count += 1;
        });
        (count <= MOST_RUNS).then_some(count)
    }

    /// Calls `f(slot, offset, velocity)` for every agent within `radius`
    /// of `p` (`offset` = its position - `p`, the short way round a
    /// wrapping world). `slot` is its place in the grid's arrays.
    pub fn for_each_within(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize, Vec2, Vec2)) {
        let r2 = radius * radius;
        let inside = self.inside_period(p);
        self.for_each_run(p, radius, |range, shift| {
            for i in range {
                let offset = match shift {
                    Some(shift) => self.position(i) + shift,
                    None => wrapped_offset(inside, self.position(i), self.period),
                };
                if offset.length_squared() <= r2 {
                    f(i, offset, self.velocity(i));
                }
            }
        });
    }

    /// The agents within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vec2, radius: f32) -> impl Iterator<Item = (I, Vec2)> {
        let mut found = Vec::new();
        self.for_each_within(p, radius, |i, _, _| {
            found.push((self.ids[i], self.position(i)))
        });
        found.into_iter()
    }
}
