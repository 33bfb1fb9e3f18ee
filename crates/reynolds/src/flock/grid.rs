//! Flocking over the grid: each kind of [`Flocker`], and every flocker's
//! force, cell by cell, its neighbors weighed eight at a time.

use std::ops::Range;

use glam::Vec2;

use super::{FlockBatch, FlockParams, FlockSums, FlockView, Neighbor, NeighborBlock};
use crate::math::SteeringVector;
use crate::spatial::{Id, MOST_RUNS, NO_RUN, NeighborGrid, Tasks};

/// How one kind of flocker flocks: its rules, the two numbers of its own
/// that the rules steer with, its body and how many neighbors it heeds.
/// Agents alike share one. On a plane (`Vec2`, the default) or in 3D
/// (`Vec3`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flocker<V = Vec2> {
    /// Its rules.
    pub params: FlockParams,
    /// Its top speed.
    pub max_speed: f32,
    /// Its response time.
    pub response_time: f32,
    /// Its body radius.
    pub radius: f32,
    /// At most this many neighbors, the nearest; `None` (all in reach) lets
    /// it weigh runs of cells eight candidates at a time.
    pub max_neighbors: Option<usize>,
    /// Its view of its neighbors facing nowhere, turned to each agent's
    /// heading in turn (the cone's cosine computed once).
    pub view: FlockView<V>,
}

impl<V: SteeringVector> Flocker<V> {
    /// A flocker of `params` with these limits and body.
    pub fn new(
        params: FlockParams,
        max_speed: f32,
        response_time: f32,
        radius: f32,
        max_neighbors: Option<usize>,
    ) -> Self {
        Self {
            params,
            max_speed,
            response_time,
            radius,
            max_neighbors,
            view: FlockView::new(&params, V::ZERO),
        }
    }

    /// How far it must look for neighbors: its reach, its body and the
    /// largest body beside it.
    pub fn reach(&self) -> f32 {
        self.params.reach_with_bodies(self.radius, self.radius)
    }
}

impl<I: Id> NeighborGrid<I> {
    /// The flocking force of every flocker in the grid, by slot, into
    /// `forces` (`None` where the agent does not flock): an agent flocks as
    /// `flockers[tag]` if its tag names one. The cells are shared out
    /// between `tasks`, a few a thread, each with one of `scratch`'s
    /// buffers (kept from call to call, so a step allocates nothing once
    /// warm). Each agent's sums are its own, so the forces do not depend on
    /// the number of threads.
    pub fn flock(
        &self,
        flockers: &[Flocker],
        tasks: &impl Tasks,
        forces: &mut Vec<Option<Vec2>>,
        scratch: &mut Vec<Vec<Neighbor>>,
    ) {
        let parts = shared_out(self.cells.len(), |c| self.slots(c), tasks, forces, scratch);
        tasks.for_each(parts.into_iter(), |(cells, forces, near)| {
            flock_cells_fastest(self, flockers, cells, forces, near)
        });
    }
}

/// A grid's `cells` shared out between `tasks`: a few parts a thread (so a
/// crowded stretch does not keep one thread busy while the others wait),
/// each its cells, the forces of their agents (at `slots` of them, which
/// follow the cells' order) and a scratch buffer. `forces` is made one a
/// slot, each `None`.
pub(super) fn shared_out<'a, F, N>(
    cells: usize,
    slots: impl Fn(Range<usize>) -> Range<usize>,
    tasks: &impl Tasks,
    forces: &'a mut Vec<Option<F>>,
    scratch: &'a mut Vec<Vec<N>>,
) -> Vec<(Range<usize>, &'a mut [Option<F>], &'a mut Vec<N>)> {
    forces.clear();
    forces.resize_with(slots(0..cells).end, || None);
    let threads = tasks.threads();
    let parts = if threads <= 1 {
        1
    } else {
        (threads * 4).min(cells).max(1)
    };
    if scratch.len() < parts {
        scratch.resize_with(parts, Vec::new);
    }
    let mut rest = &mut forces[..];
    let mut done = 0;
    scratch
        .iter_mut()
        .take(parts)
        .enumerate()
        .map(|(part, near)| {
            let cells = part * cells / parts..(part + 1) * cells / parts;
            let slots = slots(cells.clone());
            let (mine, others) = std::mem::take(&mut rest).split_at_mut(slots.end - done);
            (rest, done) = (others, slots.end);
            (cells, mine, near)
        })
        .collect()
}

/// [`flock_cells`], compiled for AVX2 where the CPU has it (the kernel then
/// runs without switching between instruction encodings).
fn flock_cells_fastest<I: Id>(
    grid: &NeighborGrid<I>,
    flockers: &[Flocker],
    cells: Range<usize>,
    forces: &mut [Option<Vec2>],
    near: &mut Vec<Neighbor>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[target_feature(enable = "avx2")]
        fn avx2<I: Id>(
            grid: &NeighborGrid<I>,
            flockers: &[Flocker],
            cells: Range<usize>,
            forces: &mut [Option<Vec2>],
            near: &mut Vec<Neighbor>,
        ) {
            flock_cells(grid, flockers, cells, forces, near)
        }
        // SAFETY: this CPU has AVX2.
        return unsafe { avx2(grid, flockers, cells, forces, near) };
    }
    flock_cells(grid, flockers, cells, forces, near)
}

/// The flocking force of every flocker in `cells`, each over the runs of
/// cells within its reach (or, capping its neighbors, one by one), into
/// `forces`, the slots of those cells.
#[inline(always)]
fn flock_cells<I: Id>(
    grid: &NeighborGrid<I>,
    flockers: &[Flocker],
    cells: Range<usize>,
    forces: &mut [Option<Vec2>],
    near: &mut Vec<Neighbor>,
) {
    let candidates = grid.block(0..grid.len());
    let first_slot = grid.slots(cells.start..cells.start).start;
    let cols = grid.cells.cols.max(1);
    // Each cell's column and row, counted along rather than divided out.
    // Every agent in the grid is inside it (and inside the period), so
    // these are its agents' too.
    let (mut col, mut row) = (cells.start % cols, cells.start / cols);
    for cell in cells {
        let coords = (col as i64, row as i64);
        col += 1;
        if col == grid.cells.cols {
            (col, row) = (0, row + 1);
        }
        // The cell's runs, found for its first flocker and kept for the
        // rest of the same reach: the same cells (only the shift from each
        // differs).
        let mut cell_runs: Option<((i64, i64), usize)> = None;
        let (mut period_runs, mut runs) = ([NO_RUN; MOST_RUNS], [NO_RUN; MOST_RUNS]);
        for slot in grid.slots(cell..cell + 1) {
            let Some(flocker) = flockers.get(grid.tag(slot) as usize) else {
                continue;
            };
            let radius = grid.radius(slot);
            let reach = flocker
                .params
                .reach_with_bodies(radius, grid.largest_radius());
            let (pos, vel) = (grid.position(slot), grid.velocity(slot));
            let view = flocker.view.facing(vel).with_body_radius(radius);
            let rings = grid.rings(reach.clamp(0.0, 1e9));
            let count = if flocker.max_neighbors.is_some() || grid.covers_an_axis(rings) {
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
                sums_one_by_one(grid, pos, &view, reach, flocker.max_neighbors, near)
            };
            // Itself and another on its very spot.
            if sums.on_spot() > 1 {
                break_ties(grid, grid.id(slot), pos, &mut sums);
            }
            let force = sums.steering(
                vel,
                &flocker.params,
                flocker.max_speed,
                flocker.response_time,
            );
            forces[slot - first_slot] = Some(force);
        }
    }
}

/// The sums of one flocker at `pos`, seeing as `view`, straight from the
/// grid out to `reach`: with `max_neighbors`, the nearest that many (sorted
/// in `near`, reused from agent to agent).
fn sums_one_by_one<I: Id>(
    grid: &NeighborGrid<I>,
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
    nearest_sums(near, limit, view)
}

/// The sums over the nearest `limit` of the candidates in `near` (sorted
/// in place): the agent itself, and any on its very spot, come first and
/// add nothing but their count, so they do not use up a place.
pub(super) fn nearest_sums<V: SteeringVector>(
    near: &mut [Neighbor<V>],
    limit: usize,
    view: &FlockView<V>,
) -> FlockSums<V> {
    // Unstable sort: no allocation, and still deterministic (the grid's
    // order is).
    near.sort_unstable_by(|a, b| {
        a.offset
            .length_squared()
            .total_cmp(&b.offset.length_squared())
    });
    let mut sums = FlockSums::default();
    let on_spot = near.iter().take_while(|n| n.offset == V::ZERO);
    for n in on_spot.chain(near.iter().filter(|n| n.offset != V::ZERO).take(limit)) {
        sums.add(*n, view);
    }
    sums
}

/// Pushes `sums`' agent `id`, at `pos`, away from the other agents on its
/// very spot: the mean of one direction for each
/// ([`tie_break`](crate::flock::tie_break) of the two ids' indices), so a
/// crowd spawned on one point parts, the same way every run.
fn break_ties<I: Id>(grid: &NeighborGrid<I>, id: I, pos: Vec2, sums: &mut FlockSums) {
    let (mut away, mut others) = (Vec2::ZERO, 0u32);
    grid.for_each_within(pos, 0.0, |i, _, _| {
        let other = grid.id(i);
        if other != id {
            away += crate::flock::tie_break(id.to_bits(), other.to_bits());
            others += 1;
        }
    });
    if others > 0 {
        sums.add_tie(away / others as f32);
    }
}

impl<I: Id> NeighborGrid<I> {
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

    /// The flocking sums of an agent at `p` that sees as `view`, over every
    /// agent within `reach` of it but itself (and any on its very spot):
    /// [`FlockSums::of_finite_runs`] over the runs of cells around `p`,
    /// eight candidates at a time.
    ///
    /// ```
    /// # use reynolds::flock::{FlockParams, FlockView};
    /// # use reynolds::spatial::{GridAgent, NeighborGrid};
    /// # use glam::Vec2;
    /// let mut grid = NeighborGrid::default();
    /// let at = |id: u32, x: f32| GridAgent { id, position: Vec2::new(x, 0.0), velocity: Vec2::X, radius: 0.0 };
    /// grid.rebuild([at(1, 0.0), at(2, 10.0)], 70.0, None);
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
        let (coords, candidates) = (self.cells.coords(p), self.block(0..self.len()));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::{GridAgent, MAX_CELLS};

    /// Agents at the far ends of what an `f32` holds, and queries further
    /// still: no overflow in debug builds, the same answers in release
    /// (`cargo test --release -p reynolds`), memory within the cap.
    #[test]
    fn any_finite_spread_fits_a_bounded_grid() {
        let ids: Vec<u32> = (0..6).collect();
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
            Some((Vec2::splat(-1e30), Vec2::splat(1e30))),
            Some((Vec2::ZERO, Vec2::new(f32::MAX, 1.0))),
            Some((Vec2::new(f32::NAN, 0.0), Vec2::ONE)),
        ];
        let mut grid = NeighborGrid::<u32>::default();
        for wrap in wraps {
            for cell in [1.0, 70.0, 1e20, f32::INFINITY, f32::NAN] {
                grid.rebuild(
                    ids.iter().zip(far).map(|(&id, position)| GridAgent {
                        id,
                        position,
                        velocity: Vec2::ONE,
                        radius: 5.0,
                    }),
                    cell,
                    wrap,
                );
                assert_eq!(grid.len(), far.len());
                assert!(grid.cells.len() <= MAX_CELLS, "{wrap:?} {cell}");
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
