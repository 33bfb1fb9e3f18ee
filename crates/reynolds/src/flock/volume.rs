//! Flocking in 3D over the [`VolumeGrid`]: every flyer's force, box by box,
//! its neighbors weighed four at a time through the plane's arithmetic,
//! on three axes.

use std::ops::Range;

use glam::{Vec2, Vec3};

use super::batch::lane_sums_of_runs;
use super::grid::{nearest_sums, shared_out};
use super::{FlockSums, FlockView, Flocker, Neighbor};
use crate::spatial::{Id, MOST_BOX_RUNS as MOST_RUNS, Tasks, VolumeGrid};

/// No run: what the runs round a box start as.
const NO_RUN: Range<usize> = 0..0;

impl<I: Id> VolumeGrid<I> {
    /// The flocking force of every flocker in the grid, by slot, into
    /// `forces` (`None` where the agent does not flock): an agent flocks as
    /// `flockers[tag]` if its tag names one. The boxes are shared out
    /// between `tasks`, each part with one of `scratch`'s buffers (kept
    /// from call to call). Each agent's sums are its own, so the forces do
    /// not depend on the number of threads.
    pub fn flock(
        &self,
        flockers: &[Flocker<Vec3>],
        tasks: &impl Tasks,
        forces: &mut Vec<Option<Vec3>>,
        scratch: &mut Vec<Vec<Neighbor<Vec3>>>,
    ) {
        let parts = shared_out(self.boxes.len(), |b| self.slots(b), tasks, forces, scratch);
        tasks.for_each(parts.into_iter(), |(boxes, forces, near)| {
            flock_boxes_fastest(self, flockers, boxes, forces, near)
        });
    }

    /// The flocking sums of an agent at `p` that sees as `view`, over every
    /// agent within `reach` of it but itself (and any on its very spot).
    ///
    /// ```
    /// # use reynolds::flock::{FlockParams, FlockView};
    /// # use reynolds::spatial::{GridAgent, VolumeGrid};
    /// # use glam::Vec3;
    /// let mut grid = VolumeGrid::default();
    /// let at = |id: u32, z: f32| GridAgent { id, position: Vec3::new(0.0, 0.0, z), velocity: Vec3::X, radius: 0.0 };
    /// grid.rebuild([at(1, 0.0), at(2, 10.0), at(3, 300.0)], 70.0);
    /// let params = FlockParams::default();
    /// let sums = grid.flock_sums(Vec3::ZERO, params.reach(), &FlockView::new(&params, Vec3::ZERO));
    /// assert_eq!(sums.neighbors(), 1);
    /// ```
    pub fn flock_sums(&self, p: Vec3, reach: f32, view: &FlockView<Vec3>) -> FlockSums<Vec3> {
        if self.is_empty() || !p.is_finite() || reach.is_nan() || reach < 0.0 {
            return FlockSums::default();
        }
        let (coords, rings) = (self.boxes.coords(p), self.rings(reach));
        let mut runs = [NO_RUN; MOST_RUNS];
        if let Some(count) = self.runs_around(coords, rings, &mut runs) {
            return self.sums_of_runs(view, &runs[..count], -p);
        }
        // A reach of many boxes: run by run.
        let mut sums = FlockSums::default();
        self.for_each_run_around(coords, rings, |range| {
            sums.merge(self.sums_of_runs(view, &[range], -p))
        });
        sums
    }

    /// The sums of an agent that sees as `view` over the candidates in
    /// `runs`, each at offset `position + shift`.
    #[inline(always)]
    fn sums_of_runs(
        &self,
        view: &FlockView<Vec3>,
        runs: &[Range<usize>],
        shift: Vec3,
    ) -> FlockSums<Vec3> {
        let columns = [&self.positions, &self.velocities].map(|c| c.each_ref().map(Vec::as_slice));
        match self.radii.is_empty() {
            true => lane_sums_of_runs::<_, 3, false>(view, self.len(), columns, &[], runs, shift),
            false => {
                lane_sums_of_runs::<_, 3, true>(view, self.len(), columns, &self.radii, runs, shift)
            }
        }
    }
}

/// [`flock_boxes`], compiled for AVX2 where the CPU has it (the four-lane
/// arithmetic then runs without switching between instruction encodings).
fn flock_boxes_fastest<I: Id>(
    grid: &VolumeGrid<I>,
    flockers: &[Flocker<Vec3>],
    boxes: Range<usize>,
    forces: &mut [Option<Vec3>],
    near: &mut Vec<Neighbor<Vec3>>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[target_feature(enable = "avx2")]
        fn avx2<I: Id>(
            grid: &VolumeGrid<I>,
            flockers: &[Flocker<Vec3>],
            boxes: Range<usize>,
            forces: &mut [Option<Vec3>],
            near: &mut Vec<Neighbor<Vec3>>,
        ) {
            flock_boxes(grid, flockers, boxes, forces, near)
        }
        // SAFETY: this CPU has AVX2.
        return unsafe { avx2(grid, flockers, boxes, forces, near) };
    }
    flock_boxes(grid, flockers, boxes, forces, near)
}

/// The flocking force of every flocker in `boxes`, into `forces`, the
/// slots of those boxes.
#[inline(always)]
fn flock_boxes<I: Id>(
    grid: &VolumeGrid<I>,
    flockers: &[Flocker<Vec3>],
    boxes: Range<usize>,
    forces: &mut [Option<Vec3>],
    near: &mut Vec<Neighbor<Vec3>>,
) {
    let first_slot = grid.slots(boxes.start..boxes.start).start;
    let mut runs = [NO_RUN; MOST_RUNS];
    let [nx, ny, _] = grid.boxes.dims;
    for b in boxes {
        let coords = [b % nx, b / nx % ny, b / (nx * ny)].map(|c| c as i64);
        // The box's runs, found for its first flocker and kept for the rest
        // of the same reach.
        let mut box_runs: Option<([i64; 3], usize)> = None;
        for slot in grid.slots(b..b + 1) {
            let Some(flocker) = flockers.get(grid.tag(slot) as usize) else {
                continue;
            };
            let radius = grid.radius(slot);
            let reach = flocker
                .params
                .reach_with_bodies(radius, grid.largest_radius());
            let (pos, vel) = (grid.position(slot), grid.velocity(slot));
            let view = flocker.view.facing(vel).with_body_radius(radius);
            let mut sums = match flocker.max_neighbors {
                None => {
                    let rings = grid.rings(reach);
                    let count = match box_runs {
                        Some((kept, count)) if kept == rings => Some(count),
                        _ => {
                            let count = grid.runs_around(coords, rings, &mut runs);
                            box_runs = count.map(|count| (rings, count));
                            count
                        }
                    };
                    match count {
                        Some(count) => grid.sums_of_runs(&view, &runs[..count], -pos),
                        None => grid.flock_sums(pos, reach, &view),
                    }
                }
                Some(limit) => {
                    near.clear();
                    grid.for_each_within(pos, reach, |i, offset, vel| {
                        let radius = grid.radius(i);
                        near.push(Neighbor {
                            offset,
                            vel,
                            radius,
                        })
                    });
                    nearest_sums(near, limit, &view)
                }
            };
            // Itself and another on its very spot.
            if sums.on_spot() > 1 {
                break_ties(grid, grid.id(slot), pos, &mut sums);
            }
            forces[slot - first_slot] = Some(sums.steering(
                vel,
                &flocker.params,
                flocker.max_speed,
                flocker.response_time,
            ));
        }
    }
}

/// Pushes `sums`' agent `id`, at `pos`, away from the other agents on its
/// very spot, level with the ground (XZ): the plane's
/// [`tie_break`](crate::flock::tie_break) of the two ids, so a flock
/// spawned on one point parts the same way every run.
fn break_ties<I: Id>(grid: &VolumeGrid<I>, id: I, pos: Vec3, sums: &mut FlockSums<Vec3>) {
    let (mut away, mut others) = (Vec2::ZERO, 0u32);
    grid.for_each_within(pos, 0.0, |i, _, _| {
        let other = grid.id(i);
        if other != id {
            away += crate::flock::tie_break(id.to_bits(), other.to_bits());
            others += 1;
        }
    });
    if others > 0 {
        let away = away / others as f32;
        sums.add_tie(Vec3::new(away.x, 0.0, away.y));
    }
}
