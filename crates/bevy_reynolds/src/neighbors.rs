//! Neighbor search through a uniform grid, and flocking over it.
//!
//! Each fixed step the grid is rebuilt into flat, cell-sorted arrays of
//! positions and velocities (a counting sort, reusing its buffers), so a
//! query touches only the cells around a point and never looks up a
//! component. In a wrapping world, neighbors across an edge count.
//!
//! The plugin's grid has rows a reach tall and columns a quarter of a reach
//! wide, so the cells within an agent's reach are three runs of the arrays,
//! one a row, each about 2¼ reaches long: a flocker weighs them eight
//! candidates at a time, its sums kept in registers from the first run to
//! the last ([`FlockSums::of_finite_runs`]). Cells run in parallel, and each
//! agent's sums are its own, so the result does not depend on the thread
//! count.
//! The forces wait, by entity, for the first pass over the agents to add
//! them ([`FlockForces`]).

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use reynolds::{
    self as model, FlockBatch, FlockParams, FlockSums, FlockView, Neighbor, NeighborBlock,
};

use crate::components::{Position, SteeringAgent, Velocity};
use crate::params::{Priority, SteeringParams};
use crate::settings::SteeringSettings;

/// Makes an agent flock with the agents around it: Reynolds' separation,
/// alignment and cohesion, added to its other steering and capped once with
/// it. Separation alone (zero alignment and cohesion weights) stops agents
/// piling up on one spot. Separation is measured between the bodies' edges
/// ([`SteeringParams::radius`]; points by default, as in the chapter).
///
/// ```
/// # use bevy_reynolds::prelude::*;
/// // Arrivers that settle in a loose huddle instead of on top of each other.
/// let huddle = Flocking::separation_only();
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(SteeringAgent)]
pub struct Flocking {
    /// Neighbors closer than this push the agent away, in pixels. 25.
    pub separation_radius: f32,
    /// Neighbors closer than this are aligned with and drawn toward. 70.
    pub neighbor_radius: f32,
    /// Weight of separation. 1.5.
    pub separation_weight: f32,
    /// Weight of alignment. 1.
    pub alignment_weight: f32,
    /// Weight of cohesion. 1.
    pub cohesion_weight: f32,
    /// Only neighbors within this angle either side of the heading count,
    /// in radians; `None` (the default) sees all round.
    pub view_half_angle: Option<f32>,
    /// Consider at most this many neighbors, the nearest first; `None` (the
    /// default) considers all within reach.
    pub max_neighbors: Option<usize>,
    /// The group flocking's steering goes into when the agent combines by
    /// priority. Normal, with the chapter's behaviors.
    pub priority: Priority,
    /// The speed the flock flies at, in pixels a second, or `None` (the
    /// default) for the chapter's literal rules, under which a crowd whose
    /// headings disagree brakes itself to a standstill: see
    /// [`FlockParams::cruise_speed`].
    pub cruise_speed: Option<f32>,
}

impl Default for Flocking {
    fn default() -> Self {
        let p = FlockParams::default();
        Self {
            separation_radius: p.separation_radius,
            neighbor_radius: p.neighbor_radius,
            separation_weight: p.separation_weight,
            alignment_weight: p.alignment_weight,
            cohesion_weight: p.cohesion_weight,
            view_half_angle: None,
            max_neighbors: None,
            priority: Priority::Normal,
            cruise_speed: None,
        }
    }
}

impl Flocking {
    /// Only separation, at its default radius and weight: the chapter's
    /// answer to "how do I stop the arrivers piling up".
    pub fn separation_only() -> Self {
        Self {
            alignment_weight: 0.0,
            cohesion_weight: 0.0,
            ..default()
        }
    }

    /// Reynolds' boids, which fly: the default rules with a cruise speed.
    pub fn boids(cruise_speed: f32) -> Self {
        Self {
            cruise_speed: Some(cruise_speed),
            ..default()
        }
    }

    /// The same rules in units of `unit` pixels each (see
    /// [`SteeringLengthUnit`](crate::SteeringLengthUnit)): radii and the
    /// cruise speed multiplied by `unit`. A unit that is not positive and
    /// finite changes nothing.
    pub fn scaled(self, unit: f32) -> Self {
        if !(unit.is_finite() && unit > 0.0) {
            return self;
        }
        Self {
            separation_radius: self.separation_radius * unit,
            neighbor_radius: self.neighbor_radius * unit,
            cruise_speed: self.cruise_speed.map(|s| s * unit),
            ..self
        }
    }

    /// The core's parameters.
    pub fn params(&self) -> FlockParams {
        FlockParams {
            separation_radius: self.separation_radius,
            neighbor_radius: self.neighbor_radius,
            separation_weight: self.separation_weight,
            alignment_weight: self.alignment_weight,
            cohesion_weight: self.cohesion_weight,
            view_half_angle: self.view_half_angle,
            cruise_speed: self.cruise_speed,
        }
    }
}

/// Every agent's position, velocity and body radius, sorted by grid cell,
/// rebuilt each fixed step in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare) when any
/// agent flocks, or always when
/// [`SteeringSettings::neighbor_grid`] asks for it. Use it to find agents
/// near a point.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// fn count_crowd(grid: Res<NeighborGrid>) {
///     let near = grid.within(Vec2::new(500.0, 350.0), 70.0).count();
/// }
/// ```
#[derive(Resource, Debug, Clone, Default)]
pub struct NeighborGrid {
    /// A cell's width and height: in a wrapping world the cells tile the
    /// period exactly, so each is at least the asked-for size.
    cell: Vec2,
    origin: Vec2,
    cols: usize,
    rows: usize,
    /// The wrap period on each axis, or zero where the world does not wrap.
    period: Vec2,
    /// Where each cell's entries start in the sorted arrays; one more entry
    /// than cells, so cell `c` is `cell_start[c]..cell_start[c + 1]`.
    cell_start: Vec<u32>,
    entities: Vec<Entity>,
    // Positions and velocities, x and y apart: the layout the flocking
    // kernel reads eight at a time.
    xs: Vec<f32>,
    ys: Vec<f32>,
    vxs: Vec<f32>,
    vys: Vec<f32>,
    /// Body radii, each finite and not negative: empty when every agent is
    /// a point, so a flock of points neither stores nor reads them.
    radii: Vec<f32>,
    /// The largest body radius in the grid.
    largest_radius: f32,
    /// One more than the largest entity index in the grid.
    slots_needed: usize,
    /// Each entity's slot in the arrays, by entity index (stale entries are
    /// caught by checking `entities`).
    slot_of: Vec<u32>,
    cell_of: Vec<u32>,
    /// Each cell's next free slot while sorting, one copy a group of
    /// columns.
    cursors: [Vec<u32>; 2],
    /// The agents taken in by `fill`, before they are sorted.
    taken: Taken,
    /// By slot: what [`NeighborGrid::fill`] was told of the agent
    /// there (for flocking, which of `flock_kinds` it flocks by).
    tags: Vec<u32>,
    /// How the flockers flock, by their tags (set by `rebuild_grid`).
    pub(crate) flock_kinds: Vec<FlockKind>,
    /// Which rebuild this is, counted from 1 (wrapping round, never 0), so
    /// what was found over this grid is told from what was found over an
    /// earlier one ([`FlockForces`]).
    stamp: u32,
}

/// The most runs of the grid's arrays an agent's sums take at once: three
/// rows, each split in two where it crosses a wrapping edge, fit.
const MOST_RUNS: usize = 8;
const NO_RUN: (Range<usize>, Vec2) = (0..0, Vec2::ZERO);

/// The agents [`NeighborGrid::fill`] takes in, in the order given, column
/// by column, so each pass of the sort reads only what it needs.
#[derive(Debug, Clone, Default)]
struct Taken {
    entities: Vec<Entity>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    radii: Vec<f32>,
    tags: Vec<u32>,
}

/// The tag of an agent the grid was told nothing of.
pub(crate) const NO_TAG: u32 = u32::MAX;

/// How a flocker steers by its neighbors: its [`Flocking`] and the
/// [`SteeringParams`] the rules need. Agents alike share one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FlockKind {
    params: FlockParams,
    max_speed: f32,
    response_time: f32,
    radius: f32,
    /// At most this many neighbors, the nearest; `None` (all in reach) lets
    /// it weigh runs of cells eight candidates at a time.
    max_neighbors: Option<usize>,
    /// The group its force goes into.
    priority: Priority,
    /// Its view of its neighbors facing nowhere, turned to each agent's
    /// heading in turn (the cone's cosine computed once).
    view: FlockView,
}

/// What the grid keeps of an agent: its entity, position, velocity and body
/// radius.
pub type GridEntry = (Entity, Vec2, Vec2, f32);

/// The most cells a grid may have, whatever the spread of the agents.
const MAX_CELLS: usize = 1 << 20;

/// Calls `put(slot, i, ahead)` for each entry `i` in turn, `slot` being the
/// next free one of its cell (`cell_of[i]`): the scatter of a counting
/// sort, with `cursor` the cells' next free slots. `ahead` is about where
/// an entry a few places on will go, for `put` to [`fetch`]: the slots are
/// all over the columns, and a write that misses the cache holds up every
/// write behind it.
fn in_cell_order(
    cursor: &mut Vec<u32>,
    cell_start: &[u32],
    cell_of: &[u32],
    mut put: impl FnMut(usize, usize, usize),
) {
    cursor.clear();
    cursor.extend_from_slice(cell_start);
    for (i, cell) in cell_of.iter().enumerate() {
        let ahead = cell_of
            .get(i + FETCH_AHEAD)
            .map_or(usize::MAX, |c| cursor[*c as usize] as usize);
        let slot = &mut cursor[*cell as usize];
        put(*slot as usize, i, ahead);
        *slot += 1;
    }
}

/// `v.floor()` as an integer, saturating far out, 0 for NaN. `f32::floor`
/// is a call to `floorf` without SSE4.1 (x86-64's baseline): this
/// truncates and steps down for negatives instead, the same for any finite
/// value.
pub(crate) fn floor(v: f32) -> i64 {
    let t = v as i64;
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// How many places ahead [`fetch`] is asked for what will be written.
const FETCH_AHEAD: usize = 16;

/// Asks the CPU to fetch `items[index]`, if there is one, to be written
/// soon: the write then finds it in the cache.
#[inline(always)]
fn fetch<T>(items: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(index) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch reads nothing the program sees, and the
        // address is an item's.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) };
    }
    // Elsewhere (WebAssembly) nothing to ask.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, index);
}

impl NeighborGrid {
    /// Sorts `agents` (entity, position, velocity, body radius) into cells
    /// of at least `cell_size` (and at least 1 px). With `wrap`, the grid
    /// covers the wrap rectangle and queries go round its edges; without, it
    /// covers the agents. Agents at a non-finite place or speed are left out;
    /// a radius that is negative or not finite counts as 0. The buffers are
    /// reused: no allocation once they are big enough.
    pub fn rebuild(
        &mut self,
        agents: impl IntoIterator<Item = GridEntry>,
        cell_size: f32,
        wrap: Option<Rect>,
    ) {
        self.fill(agents.into_iter().map(|e| (e, NO_TAG)));
        self.sort(Vec2::splat(cell_size), wrap);
    }

    /// [`NeighborGrid::rebuild`] in two halves, each agent with a tag kept
    /// beside it: the agents taken in (those at a finite place and speed).
    pub(crate) fn fill(&mut self, agents: impl IntoIterator<Item = (GridEntry, u32)>) {
        let taken = &mut self.taken;
        taken.entities.clear();
        taken.positions.clear();
        taken.velocities.clear();
        taken.radii.clear();
        taken.tags.clear();
        let (mut largest, mut slots) = (0.0f32, 0);
        for ((e, p, v, r), tag) in agents {
            if p.is_finite() && v.is_finite() {
                let r = model::sanitize_radius(r);
                largest = largest.max(r);
                slots = slots.max(e.index_u32() as usize + 1);
                taken.entities.push(e);
                taken.positions.push(p);
                taken.velocities.push(v);
                taken.radii.push(r);
                taken.tags.push(tag);
            }
        }
        (self.largest_radius, self.slots_needed) = (largest, slots);
    }

    /// The second half of [`NeighborGrid::rebuild`]: the agents taken in
    /// sorted into cells of at least `cell_size` (each side at least 1 px).
    pub(crate) fn sort(&mut self, cell_size: Vec2, wrap: Option<Rect>) {
        self.stamp = self.stamp.wrapping_add(1) & STAMP_MASK;
        if self.stamp == 0 {
            self.stamp = 1;
        }
        let mut taken = std::mem::take(&mut self.taken);
        let mut cell_size = Vec2::select(
            cell_size.is_finite_mask(),
            cell_size.max(Vec2::ONE),
            Vec2::ONE,
        );
        let wrap = wrap.filter(|r| {
            let s = r.size();
            s.is_finite() && s.x > 0.0 && s.y > 0.0
        });
        let (origin, extent) = match wrap {
            Some(rect) => (rect.min, rect.size()),
            None if taken.positions.is_empty() => (Vec2::ZERO, Vec2::ONE),
            None => {
                let (min, max) = taken.positions.iter().fold(
                    (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                    |(lo, hi), p| (lo.min(*p), hi.max(*p)),
                );
                // Agents at ±3e38 are 6e38 apart: more than an f32 holds.
                (min, (max - min).clamp(Vec2::ONE, Vec2::splat(f32::MAX)))
            }
        };
        // In a wrapping world the cells tile the period exactly (each at
        // least `cell_size`); elsewhere they cover the agents. Too many
        // cells for the spread, however far apart the agents are: bigger
        // cells, so memory stays bounded.
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
                Some(_) => (count(extent.x, cell_size.x), count(extent.y, cell_size.y)),
                None => (
                    count(extent.x, cell_size.x) + 1,
                    count(extent.y, cell_size.y) + 1,
                ),
            };
            if cols.saturating_mul(rows) <= MAX_CELLS {
                break (cols, rows);
            }
            cell_size *= 2.0;
        };
        self.cell = match wrap {
            Some(_) => extent / Vec2::new(cols as f32, rows as f32),
            None => cell_size,
        };
        self.origin = origin;
        self.cols = cols;
        self.rows = rows;
        self.period = wrap.map_or(Vec2::ZERO, |r| r.size());

        // Counting sort by cell: each entry's cell (in parallel), where each
        // cell starts, then the columns written in cell order, a few columns
        // a thread.
        let cells = cols * rows;
        let n = taken.positions.len();
        let pool = ComputeTaskPool::try_get()
            .filter(|pool| pool.thread_num() > 1 && n >= crate::passes::CHEAP.parallel_from);
        let mut cell_of = std::mem::take(&mut self.cell_of);
        cell_of.clear();
        cell_of.resize(n, 0);
        {
            let grid = &*self;
            let find = |cells: &mut [u32], positions: &mut [Vec2]| {
                for (cell, p) in cells.iter_mut().zip(positions) {
                    // In a wrapping world, every position inside the period,
                    // so a cell's copies round the edges are exactly one
                    // period apart. The wrap stage keeps agents inside:
                    // `rem_euclid` (a call to `fmodf`) only for the odd one
                    // that is not.
                    if let Some(rect) = wrap
                        && !(p.cmpge(rect.min).all() && p.cmplt(rect.max).all())
                    {
                        *p = rect.min + (*p - rect.min).rem_euclid(rect.size());
                    }
                    *cell = grid.cell_index(grid.cell_coords(*p)) as u32;
                }
            };
            match pool {
                Some(pool) => {
                    let chunk = n.div_ceil(pool.thread_num());
                    pool.scope(|scope| {
                        let chunks = cell_of
                            .chunks_mut(chunk)
                            .zip(taken.positions.chunks_mut(chunk));
                        for (cells, positions) in chunks {
                            scope.spawn(async move { find(cells, positions) });
                        }
                    });
                }
                None => find(&mut cell_of, &mut taken.positions),
            }
        }
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for cell in &cell_of {
            self.cell_start[*cell as usize + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        // Every slot is written below: only new room needs a value.
        self.entities.resize(n, Entity::PLACEHOLDER);
        self.tags.resize(n, NO_TAG);
        for column in [&mut self.xs, &mut self.ys, &mut self.vxs, &mut self.vys] {
            column.resize(n, 0.0);
        }
        self.radii
            .resize(if self.largest_radius > 0.0 { n } else { 0 }, 0.0);
        if self.slots_needed > self.slot_of.len() {
            self.slot_of.resize(self.slots_needed, u32::MAX);
        }

        // Each group of columns walks the entries in order with its own
        // copy of the cells' next free slots.
        let cell_start = &self.cell_start[..cells];
        let (cells_of, taken_in) = (&cell_of[..], &taken);
        let Self {
            xs,
            ys,
            vxs,
            vys,
            radii,
            entities,
            tags,
            slot_of,
            cursors: [c0, c1],
            ..
        } = self;
        let mut motions = move || {
            in_cell_order(c0, cell_start, cells_of, |slot, i, ahead| {
                for column in [&*xs, &*ys, &*vxs, &*vys, &*radii] {
                    fetch(column, ahead);
                }
                let (p, v) = (taken_in.positions[i], taken_in.velocities[i]);
                xs[slot] = p.x;
                ys[slot] = p.y;
                vxs[slot] = v.x;
                vys[slot] = v.y;
                if let Some(r) = radii.get_mut(slot) {
                    *r = taken_in.radii[i];
                }
            })
        };
        let mut identities = move || {
            in_cell_order(c1, cell_start, cells_of, |slot, i, ahead| {
                fetch(entities, ahead);
                fetch(tags, ahead);
                let entity = taken_in.entities[i];
                entities[slot] = entity;
                tags[slot] = taken_in.tags[i];
                slot_of[entity.index_u32() as usize] = slot as u32;
            })
        };
        match pool {
            Some(pool) => {
                pool.scope(|scope| {
                    scope.spawn(async move { motions() });
                    scope.spawn(async move { identities() });
                });
            }
            None => {
                motions();
                identities();
            }
        }
        self.cell_of = cell_of;
        self.taken = taken;
    }

    fn cell_coords(&self, p: Vec2) -> (i64, i64) {
        let c = (p - self.origin) / self.cell;
        (floor(c.x), floor(c.y))
    }

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
        let x = wrap_or_clamp(x, self.cols, self.period.x > 0.0);
        let y = wrap_or_clamp(y, self.rows, self.period.y > 0.0);
        y * self.cols + x
    }

    /// `p`, moved inside the period of a wrapping world.
    fn inside_period(&self, p: Vec2) -> Vec2 {
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
            axis(p.x, self.origin.x, self.period.x),
            axis(p.y, self.origin.y, self.period.y),
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

    /// The bytes the grid's buffers hold on to (their capacity, not their
    /// length): what a long run watches to see that memory stays bounded.
    pub fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        [
            bytes(&self.cell_start),
            bytes(&self.entities),
            bytes(&self.xs),
            bytes(&self.ys),
            bytes(&self.vxs),
            bytes(&self.vys),
            bytes(&self.radii),
            bytes(&self.slot_of),
            bytes(&self.cell_of),
            bytes(&self.cursors[0]),
            bytes(&self.cursors[1]),
            bytes(&self.taken.entities),
            bytes(&self.taken.positions),
            bytes(&self.taken.velocities),
            bytes(&self.taken.radii),
            bytes(&self.taken.tags),
            bytes(&self.tags),
            bytes(&self.flock_kinds),
        ]
        .into_iter()
        .sum()
    }

    /// The position of the agent at `index` of the grid's arrays.
    fn position(&self, index: usize) -> Vec2 {
        Vec2::new(self.xs[index], self.ys[index])
    }

    /// The velocity of the agent at `index` of the grid's arrays.
    fn velocity(&self, index: usize) -> Vec2 {
        Vec2::new(self.vxs[index], self.vys[index])
    }

    /// The body radius of the agent at `index` of the grid's arrays.
    pub fn radius(&self, index: usize) -> f32 {
        self.radii.get(index).copied().unwrap_or(0.0)
    }

    /// This rebuild's stamp, which [`FlockForces`] are read by.
    pub(crate) fn stamp(&self) -> u32 {
        self.stamp
    }

    /// The largest body radius of any agent in the grid.
    pub fn largest_radius(&self) -> f32 {
        self.largest_radius
    }

    /// The candidates at `range` of the grid's arrays.
    fn block(&self, range: Range<usize>) -> NeighborBlock<'_> {
        NeighborBlock {
            xs: &self.xs[range.clone()],
            ys: &self.ys[range.clone()],
            vxs: &self.vxs[range.clone()],
            radii: (!self.radii.is_empty()).then(|| &self.radii[range.clone()]),
            vys: &self.vys[range],
        }
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
        self.for_each_run_around(self.cell_coords(p), rings, |range, period_shift| {
            f(range, (!short_way).then(|| period_shift - p));
        });
    }

    /// How many rings of cells round an agent's own hold everything within
    /// `radius` of it, on each axis.
    fn rings(&self, radius: f32) -> (i64, i64) {
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
        (ceil(radius / self.cell.x), ceil(radius / self.cell.y))
    }

    /// Whether `rings` round a cell take in a whole wrapping axis, so that
    /// some cells would be visited twice.
    fn covers_an_axis(&self, (rings_x, rings_y): (i64, i64)) -> bool {
        let covers = |rings: i64, n: usize| rings.saturating_mul(2).saturating_add(1) >= n as i64;
        (self.period.x > 0.0 && covers(rings_x, self.cols))
            || (self.period.y > 0.0 && covers(rings_y, self.rows))
    }

    /// Calls `f(range, period_shift)` for the runs of the grid's arrays in
    /// the cells within `rings` of cell `(cx, cy)`: the cells of one row are
    /// contiguous, so a run is a row of cells, split where it crosses a
    /// wrapping edge. A cell past an edge is a copy of one inside, one
    /// period over: `period_shift` is what moves its agents there. Where
    /// the rings take in a whole wrapping axis, every cell is visited once,
    /// unshifted.
    fn for_each_run_around(
        &self,
        (cx, cy): (i64, i64),
        (rings_x, rings_y): (i64, i64),
        mut f: impl FnMut(Range<usize>, Vec2),
    ) {
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
        let (x0, x1) = span(self.cols, wraps_x, cx, rings_x);
        let (y0, y1) = span(self.rows, wraps_y, cy, rings_y);
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
            let (row, shift_y) = wrap_axis(y, self.rows, wraps_y, self.period.y);
            let mut x = x0;
            while x <= x1 {
                let (col, shift_x) = wrap_axis(x, self.cols, wraps_x, self.period.x);
                // The run goes on to the row's last column at most.
                let last = x1.min(x + (self.cols - 1 - col) as i64);
                let first_cell = row * self.cols + col;
                let end_cell = first_cell + (last - x) as usize + 1;
                let range =
                    self.cell_start[first_cell] as usize..self.cell_start[end_cell] as usize;
                f(range, Vec2::new(shift_x, shift_y));
                x = last + 1;
            }
        }
    }

    /// Calls `f(index, offset, velocity)` for every agent within `radius`
    /// of `p` (`offset` = its position - `p`, the short way round a
    /// wrapping world). `index` is its place in the grid's arrays.
    pub fn for_each_within(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize, Vec2, Vec2)) {
        let r2 = radius * radius;
        let inside = self.inside_period(p);
        self.for_each_run(p, radius, |range, shift| {
            for i in range {
                let offset = match shift {
                    Some(shift) => self.position(i) + shift,
                    None => model::wrapped_offset(inside, self.position(i), self.period),
                };
                if offset.length_squared() <= r2 {
                    f(i, offset, self.velocity(i));
                }
            }
        });
    }

    /// The flocking sums of an agent at `p` that sees as `view`, over every
    /// agent within `reach` of it but itself (and any on its very spot):
    /// [`FlockSums::of_finite_runs`] over the runs of cells around `p`,
    /// eight candidates at a time.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::{NeighborGrid, model::{FlockParams, FlockView}};
    /// let mut grid = NeighborGrid::default();
    /// let ids = [Entity::from_raw_u32(1).unwrap(), Entity::from_raw_u32(2).unwrap()];
    /// grid.rebuild([(ids[0], Vec2::ZERO, Vec2::ZERO, 0.0), (ids[1], Vec2::new(10.0, 0.0), Vec2::X, 0.0)], 70.0, None);
    /// let params = FlockParams::default();
    /// let sums = grid.flock_sums(Vec2::ZERO, params.reach(), &FlockView::new(&params, Vec2::ZERO));
    /// assert_eq!(sums.neighbors(), 1);
    /// ```
    pub fn flock_sums(&self, p: Vec2, reach: f32, view: &FlockView) -> FlockSums {
        if self.is_empty() || !p.is_finite() || reach.is_nan() || reach < 0.0 {
            return FlockSums::default();
        }
        let rings = self.rings(reach.min(1e9));
        if self.covers_an_axis(rings) {
            // A world too small for blocks: each neighbor the short way round.
            let mut sums = FlockSums::default();
            self.for_each_within(p, reach, |i, offset, vel| {
                let radius = self.radius(i);
                sums.add(
                    Neighbor {
                        offset,
                        vel,
                        radius,
                    },
                    view,
                )
            });
            return sums;
        }
        let (p, mut runs) = (self.inside_period(p), [NO_RUN; MOST_RUNS]);
        let (coords, candidates) = (self.cell_coords(p), self.block(0..self.len()));
        // The runs on the stack, so the kernel keeps its sums in registers
        // from the first to the last; a reach of many rows through a batch.
        if let Some(count) = self.runs_around(coords, rings, &mut runs) {
            for (_, shift) in &mut runs[..count] {
                *shift -= p;
            }
            return FlockSums::of_finite_runs(view, candidates, &runs[..count]);
        }
        let mut batch = FlockBatch::new(view);
        self.for_each_run_around(coords, rings, |range, period_shift| {
            batch.add_finite_block(self.block(range), period_shift - p);
        });
        batch.finish()
    }

    /// The runs of the grid's arrays in the cells within `rings` of cell
    /// `coords`, each with what moves it across a wrapping edge, into
    /// `runs`: how many, or `None` if more than fit.
    fn runs_around(
        &self,
        coords: (i64, i64),
        rings: (i64, i64),
        runs: &mut [(Range<usize>, Vec2); MOST_RUNS],
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

    /// The agents within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vec2, radius: f32) -> impl Iterator<Item = (Entity, Vec2)> {
        let mut found = Vec::new();
        self.for_each_within(p, radius, |i, _, _| {
            found.push((self.entities[i], self.position(i)))
        });
        found.into_iter()
    }

    /// The entity at `index` of the grid's arrays.
    pub fn entity(&self, index: usize) -> Entity {
        self.entities[index]
    }

    /// Where `entity` is in the grid's arrays, if the grid holds it.
    pub fn index_of(&self, entity: Entity) -> Option<usize> {
        let slot = *self.slot_of.get(entity.index_u32() as usize)? as usize;
        (self.entities.get(slot) == Some(&entity)).then_some(slot)
    }
}

/// Whether [`rebuild_grid`] has anything to do: an agent flocks, the
/// settings keep a grid, or there is one to empty.
pub(crate) fn grid_wanted(
    settings: Res<SteeringSettings>,
    grid: Res<NeighborGrid>,
    flockers: Query<(), With<Flocking>>,
) -> bool {
    !flockers.is_empty() || settings.neighbor_grid.is_some() || !grid.is_empty()
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// rebuilds the grid when any agent flocks, with cells as large as the
/// largest reach among flockers of their own size, or when the settings ask
/// to keep it ([`SteeringSettings::neighbor_grid`]).
pub(crate) fn rebuild_grid(
    settings: Res<SteeringSettings>,
    mut grid: ResMut<NeighborGrid>,
    mut tags: Local<TagsByEntity>,
    agents: TaggedAgents,
) {
    let grid = &mut *grid;
    // Each agent's tag and radius as they were: reading its
    // `SteeringParams` and `Flocking` (over a hundred bytes) every step was
    // a quarter of the rebuild, and they seldom change. Any change, or a
    // new agent (whose parameters are new), and they are read again, all
    // of them.
    let mut stale = false;
    grid.fill(agents.iter().map(|(e, p, v, params, flocking)| {
        let (tag, radius) = tags
            .0
            .get(e.index_u32() as usize)
            .copied()
            .unwrap_or_default();
        stale |= params.is_changed()
            || flocking
                .as_ref()
                .map_or(tag != NO_TAG, |f| f.is_changed() || tag == NO_TAG);
        ((e, p.0, v.0, radius), tag)
    }));
    if stale {
        tag_again(grid, &mut tags, &agents);
    }
    let kept = settings
        .neighbor_grid
        .map_or(0.0, |cell| if cell.is_finite() { cell } else { 1.0 });
    let reach = grid
        .flock_kinds
        .iter()
        .map(|k| k.params.reach_with_bodies(k.radius, k.radius))
        .fold(kept.max(0.0), f32::max);
    if reach > 0.0 {
        grid.sort(Vec2::new(reach / COLUMNS_A_REACH, reach), settings.wrap);
    } else {
        grid.fill(std::iter::empty());
        grid.sort(Vec2::ONE, settings.wrap);
    }
}

/// How many columns of cells the plugin's grid has in the width of one
/// reach (its rows are a reach tall). An agent reads the three rows round it
/// only as far as the columns within its reach: 2¼ reaches of each rather
/// than the 3 of cells as wide as they are tall, so a quarter fewer
/// candidates, found without looking at any of them. (8 columns: fewer
/// candidates still, but more cells to count and sort, and slower; 2 to 4
/// measured alike.)
const COLUMNS_A_REACH: f32 = 4.0;

/// Every agent the grid takes in, with the components its tag is read
/// from (and whose changes make the tags stale).
type TaggedAgents<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Position,
        &'static Velocity,
        Ref<'static, SteeringParams>,
        Option<Ref<'static, Flocking>>,
    ),
    With<SteeringAgent>,
>;

/// Each agent's tag in the grid (which of [`NeighborGrid`]'s flock kinds it
/// flocks by, or [`NO_TAG`]) and body radius, by entity index, as they were
/// when last read from its components.
#[derive(Default)]
pub(crate) struct TagsByEntity(Vec<(u32, f32)>);

/// Reads every agent's flock kind and radius from its components: the
/// grid's kinds found again, the tags by entity rewritten, and the grid
/// filled with them.
fn tag_again(grid: &mut NeighborGrid, tags: &mut TagsByEntity, agents: &TaggedAgents) {
    // Each flocker is tagged with how it flocks, so the flocking pass reads
    // it beside the agent's place, in the grid's order, instead of looking
    // the agent up; and the grid's cells fit the longest reach of any kind.
    let mut kinds = std::mem::take(&mut grid.flock_kinds);
    kinds.clear();
    let tags = &mut tags.0;
    grid.fill(agents.iter().map(|(e, p, v, params, flocking)| {
        let tag = flocking.map_or(NO_TAG, |f| {
            let kind = FlockKind {
                view: FlockView::new(&f.params(), Vec2::ZERO),
                params: f.params(),
                max_speed: params.max_speed,
                response_time: params.response_time,
                radius: params.radius,
                max_neighbors: f.max_neighbors,
                priority: f.priority,
            };
            // Agents side by side in the query's order are mostly alike.
            if kinds.last() != Some(&kind) {
                kinds.push(kind);
            }
            (kinds.len() - 1) as u32
        });
        let index = e.index_u32() as usize;
        if index >= tags.len() {
            tags.resize(index + 1, (NO_TAG, 0.0));
        }
        tags[index] = (tag, params.radius);
        ((e, p.0, v.0, params.radius), tag)
    }));
    grid.flock_kinds = kinds;
}

/// The flocking force each flocker was given this step, by entity index:
/// written by [`flock`] cell by cell from several threads, read by
/// [`behave`](crate::systems::behave) as it starts each agent's accumulator
/// (in the ECS's order, which follows entity indices closely, so these
/// reads are mostly in order). Each is stamped with the grid it was found
/// over ([`NeighborGrid`]'s rebuild count), so a force from an earlier step
/// is never read as this one's and nothing needs forgetting. Atomics with
/// relaxed ordering: plain loads and stores, made safe to share; the scope
/// that runs the cell pass orders the writes before the reads.
#[derive(Resource, Default)]
pub(crate) struct FlockForces(Vec<[AtomicU64; 2]>);

/// The bits of [`NeighborGrid`]'s stamp: 30, so a stamp and a priority
/// group fit beside an entity's generation in one word.
const STAMP_MASK: u32 = (1 << 30) - 1;

impl FlockForces {
    /// Makes room for entity indices below `len`, with no force.
    fn grow(&mut self, len: usize) {
        if self.0.len() < len {
            self.0
                .resize_with(len, || [AtomicU64::new(0), AtomicU64::new(0)]);
        }
    }

    /// `entity`'s generation, `stamp` and `group`, in one word (an entity's
    /// index is where the word is kept).
    fn key(entity: Entity, stamp: u32, group: usize) -> u64 {
        let generation = u64::from(entity.generation().to_bits());
        (generation << 32) | u64::from(stamp << 2) | group as u64
    }

    fn set(&self, entity: Entity, stamp: u32, priority: Priority, force: Vec2) {
        if let Some([key, f]) = self.0.get(entity.index_u32() as usize) {
            let bits = (u64::from(force.y.to_bits()) << 32) | u64::from(force.x.to_bits());
            f.store(bits, Ordering::Relaxed);
            key.store(
                Self::key(entity, stamp, priority.group()),
                Ordering::Relaxed,
            );
        }
    }

    /// Asks the CPU to fetch `entity`'s entry, to be written soon.
    #[inline(always)]
    fn prefetch(&self, entity: Entity) {
        fetch(&self.0, entity.index_u32() as usize);
    }

    /// The priority group and force `entity` was given over the grid of
    /// `stamp`, if it was.
    #[inline]
    pub(crate) fn get(&self, entity: Entity, stamp: u32) -> Option<(usize, Vec2)> {
        let [key, f] = self.0.get(entity.index_u32() as usize)?;
        let key = key.load(Ordering::Relaxed);
        (key >> 2 == Self::key(entity, stamp, 0) >> 2).then(|| {
            let bits = f.load(Ordering::Relaxed);
            let force = Vec2::new(
                f32::from_bits(bits as u32),
                f32::from_bits((bits >> 32) as u32),
            );
            ((key & 3) as usize, force)
        })
    }
}

/// One task's working memory in the flocking pass, kept from step to step
/// so that, once warm, a step allocates nothing of its own.
#[derive(Default)]
pub(crate) struct CellScratch {
    /// The neighbors of an agent that caps them, nearest first.
    near: Vec<Neighbor>,
}

/// [`flock_cells`] compiled for CPUs with AVX2, as the kernel is, which
/// it then calls without switching from one encoding of instructions to
/// the other: Behaviors 127.8 → 124.4 ns a boid-step (100k boids, four runs
/// each, taking turns).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn flock_cells_avx2(
    grid: &NeighborGrid,
    cells: Range<usize>,
    forces: &FlockForces,
    scratch: &mut CellScratch,
) {
    flock_cells(grid, cells, forces, scratch)
}

/// The flocking force of every flocker in `cells`, each over the runs of
/// cells within its reach (or, capping its neighbors, one by one).
#[inline(always)]
fn flock_cells(
    grid: &NeighborGrid,
    cells: Range<usize>,
    forces: &FlockForces,
    scratch: &mut CellScratch,
) {
    let candidates = grid.block(0..grid.len());
    // Each cell's column and row, counted along rather than divided out.
    // Every agent in the grid is inside it (and inside the period), so
    // these are its agents' too.
    let (mut col, mut row) = (
        cells.start % grid.cols.max(1),
        cells.start / grid.cols.max(1),
    );
    for cell in cells {
        let coords = (col as i64, row as i64);
        col += 1;
        if col == grid.cols {
            (col, row) = (0, row + 1);
        }
        let slots = grid.cell_start[cell] as usize..grid.cell_start[cell + 1] as usize;
        if slots.is_empty() {
            continue;
        }
        // The forces are kept by entity, in another order than the grid's:
        // each written a cache miss. Fetched a few agents ahead, the miss
        // does not hold up the writes behind it.
        for ahead in &grid.entities[slots.start.saturating_add(FETCH_AHEAD).min(grid.len())
            ..slots.end.saturating_add(FETCH_AHEAD).min(grid.len())]
        {
            forces.prefetch(*ahead);
        }
        // The cell's runs, each with what moves it across a wrapping edge,
        // found for the first flocker and kept for the rest of the same
        // reach: the same cells (only the shift from each differs).
        let mut cell_runs: Option<((i64, i64), usize)> = None;
        let (mut period_runs, mut runs) = ([NO_RUN; MOST_RUNS], [NO_RUN; MOST_RUNS]);
        for slot in slots {
            let Some(kind) = grid.flock_kinds.get(grid.tags[slot] as usize) else {
                continue;
            };
            let radius = grid.radius(slot);
            let reach = kind.params.reach_with_bodies(radius, grid.largest_radius);
            let (pos, vel) = (grid.position(slot), grid.velocity(slot));
            let view = kind.view.facing(vel).with_body_radius(radius);
            let rings = grid.rings(reach.clamp(0.0, 1e9));
            let count = if kind.max_neighbors.is_some() || grid.covers_an_axis(rings) {
                None
            } else {
                match cell_runs {
                    Some((kept, count)) if kept == rings => Some(count),
                    _ => {
                        let count = grid.runs_around(coords, rings, &mut period_runs);
                        cell_runs = count.map(|count| (rings, count));
                        count
                    }
                }
            };
            let mut sums = if let Some(count) = count {
                for (run, (range, period_shift)) in runs.iter_mut().zip(&period_runs[..count]) {
                    *run = (range.clone(), *period_shift - pos);
                }
                FlockSums::of_finite_runs(&view, candidates, &runs[..count])
            } else {
                flock_sums_one_by_one(
                    grid,
                    pos,
                    &view,
                    reach,
                    kind.max_neighbors,
                    &mut scratch.near,
                )
            };
            let entity = grid.entities[slot];
            // Itself and another on its very spot.
            if sums.on_spot() > 1 {
                break_ties(grid, entity, pos, &mut sums);
            }
            let force = sums.steering(vel, &kind.params, kind.max_speed, kind.response_time);
            forces.set(entity, grid.stamp, kind.priority, force);
        }
    }
}

/// The sums of one flocker at `pos`, seeing as `view`, straight from the
/// grid out to `reach`: with `max_neighbors`, the nearest that many (sorted
/// in `near`, reused from agent to agent).
fn flock_sums_one_by_one(
    grid: &NeighborGrid,
    pos: Vec2,
    view: &FlockView,
    reach: f32,
    max_neighbors: Option<usize>,
    near: &mut Vec<Neighbor>,
) -> FlockSums {
    let Some(limit) = max_neighbors else {
        return grid.flock_sums(pos, reach, view);
    };
    near.clear();
    grid.for_each_within(pos, reach, |i, offset, vel| {
        let radius = grid.radius(i);
        near.push(Neighbor {
            offset,
            vel,
            radius,
        })
    });
    // Unstable sort: no allocation, and still deterministic (the grid's
    // order is).
    near.sort_unstable_by(|a, b| {
        a.offset
            .length_squared()
            .total_cmp(&b.offset.length_squared())
    });
    let mut sums = FlockSums::default();
    // The agent itself, and any on its very spot, come first and add nothing
    // but their count: they do not use up a place.
    let on_spot = near.iter().take_while(|n| n.offset == Vec2::ZERO);
    for n in on_spot.chain(near.iter().filter(|n| n.offset != Vec2::ZERO).take(limit)) {
        sums.add(*n, view);
    }
    sums
}

/// Pushes `sums`' agent, at `pos`, away from the other agents on its very
/// spot: the mean of one direction for each ([`model::tie_break`] of the
/// two entities), so a crowd spawned on one point parts, the same way
/// every run.
fn break_ties(grid: &NeighborGrid, entity: Entity, pos: Vec2, sums: &mut FlockSums) {
    let (mut away, mut others) = (Vec2::ZERO, 0u32);
    grid.for_each_within(pos, 0.0, |i, _, _| {
        let other = grid.entity(i);
        if other != entity {
            away += model::tie_break(entity.to_bits(), other.to_bits());
            others += 1;
        }
    });
    if others > 0 {
        sums.add_tie(away / others as f32);
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// its first system: every flocker's steering by the three rules over its
/// neighbors, into [`FlockForces`], which
/// [`behave`](crate::systems::behave) adds to each one's accumulator.
///
/// The grid's cells are shared out between tasks; each flocker weighs the
/// runs of cells within its reach eight candidates at a time. Agents that
/// cap their neighbors, or live in a world too small for runs (one whose
/// wrapping axis their reach takes in whole), are summed one by one
/// through the grid instead. Each agent's sums are its own, so the forces
/// do not depend on the thread count.
pub(crate) fn flock(
    grid: Res<NeighborGrid>,
    mut forces: ResMut<FlockForces>,
    mut scratch: Local<Vec<CellScratch>>,
) {
    let grid = &*grid;
    if grid.flock_kinds.is_empty() {
        return;
    }
    forces.grow(grid.slot_of.len());
    let cells = grid.cols * grid.rows;
    let pool = ComputeTaskPool::get();
    // A few tasks a thread, so a crowded stretch of cells does not keep one
    // thread busy while the others wait.
    let tasks = if pool.thread_num() <= 1 || grid.len() < crate::passes::CHEAP.parallel_from {
        1
    } else {
        (pool.thread_num() * 4).min(cells)
    };
    let scratch = &mut *scratch;
    scratch.resize_with(tasks.max(scratch.len()), CellScratch::default);
    let forces = &*forces;
    let run = |task: usize, scratch: &mut CellScratch| {
        let cells = task * cells / tasks..(task + 1) * cells / tasks;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2.
            unsafe { flock_cells_avx2(grid, cells, forces, scratch) };
            return;
        }
        flock_cells(grid, cells, forces, scratch);
    };
    if tasks == 1 {
        run(0, &mut scratch[0]);
    } else {
        pool.scope(|scope| {
            for (task, scratch) in scratch.iter_mut().take(tasks).enumerate() {
                let run = &run;
                scope.spawn(async move { run(task, scratch) });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A force set for an entity is read back for it alone, with its
    /// group, and only over the grid it was found over.
    #[test]
    fn flock_forces_are_read_back_for_their_entity_and_grid_alone() {
        let mut world = World::new();
        let few: Vec<Entity> = (0..3).map(|_| world.spawn_empty().id()).collect();
        let other = world.spawn_empty().id();
        let last = few
            .iter()
            .map(|e| e.index_u32() as usize)
            .max()
            .unwrap_or(0);
        let mut forces = FlockForces::default();
        let priorities = [Priority::Critical, Priority::Low, Priority::Normal];
        for (stamp, room) in [(1, last + 1), (STAMP_MASK, 100 * (last + 1))] {
            forces.grow(room);
            for ((i, e), priority) in few.iter().enumerate().zip(priorities) {
                forces.set(*e, stamp, priority, Vec2::new(i as f32, -1.5));
            }
            for ((i, e), priority) in few.iter().enumerate().zip(priorities) {
                let found = Some((priority.group(), Vec2::new(i as f32, -1.5)));
                assert_eq!(forces.get(*e, stamp), found);
                assert_eq!(forces.get(*e, stamp - 1), None, "{stamp}");
            }
            assert_eq!(forces.get(other, stamp), None);
        }
        // The same index, the next generation.
        let again = Entity::from_bits(few[0].to_bits() + (1 << 32));
        assert_eq!(again.index(), few[0].index());
        assert_eq!(forces.get(again, STAMP_MASK), None);
    }

    /// The floor without `floorf` is `f32::floor`'s wherever that fits an
    /// integer: negatives, halves, integers, either zero, the largest
    /// `f32`s below 2⁶³; saturating past them, 0 for NaN.
    #[test]
    fn floor_without_floorf_is_the_floor() {
        let mut values = vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, -1.5, 2.999, -2.999];
        values.extend([1e-30, -1e-30, 4_194_303.5, -4_194_303.5, 1e18, -1e18]);
        values.extend((-2000..2000).map(|i| i as f32 * 0.37));
        for v in values {
            assert_eq!(floor(v), v.floor() as i64, "{v}");
        }
        assert_eq!(floor(f32::INFINITY), i64::MAX);
        assert_eq!(floor(f32::NEG_INFINITY), i64::MIN);
        assert_eq!(floor(f32::NAN), 0);
    }

    /// Agents at the far ends of what an `f32` holds, and queries further
    /// still: no overflow in debug builds, the same answers in release
    /// (`cargo test --release -p bevy_reynolds`), memory within the cap.
    #[test]
    fn any_finite_spread_fits_a_bounded_grid() {
        let mut world = World::new();
        let ids: Vec<Entity> = (0..6).map(|_| world.spawn_empty().id()).collect();
        let far = [
            Vec2::new(f32::MAX, 0.0),
            Vec2::new(-f32::MAX, -f32::MAX),
            Vec2::new(1e30, 1e30),
            Vec2::ZERO,
            Vec2::new(3.0, 4.0),
            Vec2::new(-3e9, 2e9),
        ];
        let wraps = [
            None,
            Some(Rect::new(-1e30, -1e30, 1e30, 1e30)),
            Some(Rect::new(0.0, 0.0, f32::MAX, 1.0)),
            Some(Rect {
                min: Vec2::new(f32::NAN, 0.0),
                max: Vec2::ONE,
            }),
        ];
        let mut grid = NeighborGrid::default();
        for wrap in wraps {
            for cell in [1.0, 70.0, 1e20, f32::INFINITY, f32::NAN] {
                grid.rebuild(
                    ids.iter().zip(far).map(|(e, p)| (*e, p, Vec2::ONE, 5.0)),
                    cell,
                    wrap,
                );
                assert_eq!(grid.len(), far.len());
                assert!(grid.cols * grid.rows <= MAX_CELLS, "{wrap:?} {cell}");
                assert!(grid.memory_bytes() < 64 << 20);
                // Within 10 of the origin: itself and (3, 4), at least.
                let mut near = 0;
                grid.for_each_within(Vec2::ZERO, 10.0, |_, offset, _| {
                    near += (offset.length() <= 10.0) as usize
                });
                assert!(near >= 2, "{wrap:?} {cell}: {near}");
                for p in [Vec2::splat(f32::MAX), Vec2::splat(-f32::MAX), Vec2::NAN] {
                    grid.for_each_within(p, 1e9, |_, _, _| {});
                    let view = FlockView::new(&FlockParams::default(), Vec2::X);
                    assert!(
                        grid.flock_sums(p, 1e9, &view)
                            .steering(Vec2::X, &FlockParams::default(), 220.0, 0.15)
                            .is_finite()
                    );
                }
            }
        }
    }
}
