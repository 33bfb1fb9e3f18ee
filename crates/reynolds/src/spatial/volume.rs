//! The volume grid: a [`NeighborGrid`](super::NeighborGrid) for agents in
//! 3D (flyers). Space is cut into boxes, the agents sorted by box into flat
//! columns (positions and velocities, an axis each, and body radii), so a
//! query reads the boxes round a point as runs of the columns: the boxes
//! of one row along x are contiguous.

use std::ops::Range;

use glam::Vec3;

use super::{Buckets, GridAgent, Id, NO_TAG, OneThread, Tasks};
use crate::math::sanitize_radius;

/// The values past the last agent in each column: three, so four lanes
/// read from the last agent stay inside.
const PADDING: usize = 3;

/// The most runs of the grid's arrays an agent's sums take at once: the
/// 5 × 5 rows of boxes half a reach tall and deep fit.
pub(crate) const MOST_RUNS: usize = 25;

/// The most boxes a volume grid may have, whatever the spread of the
/// agents.
pub(crate) const MAX_BOXES: usize = 1 << 21;

/// A block of `dims` equal boxes from `origin`, each `size`, in rows along
/// x, then y, then z: box `(x, y, z)` is number `(z * dims.y + y) * dims.x
/// + x`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Boxes {
    /// The corner of box `(0, 0, 0)` nearest negative infinity.
    pub origin: Vec3,
    /// A box's size along each axis.
    pub size: Vec3,
    /// Boxes along x, y and z.
    pub dims: [usize; 3],
}

impl Boxes {
    /// How many boxes there are.
    pub fn len(&self) -> usize {
        self.dims.iter().product()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The box coordinates `p` is in, counted from `origin` (outside the
    /// block too, saturated far out; 0 for NaN).
    #[inline]
    pub fn coords(&self, p: Vec3) -> [i64; 3] {
        let c = ((p - self.origin) / self.size).floor();
        [c.x as i64, c.y as i64, c.z as i64]
    }

    /// The number of the box at `coords`, clamped into the block.
    #[inline]
    fn index(&self, coords: [i64; 3]) -> usize {
        let [x, y, z] = std::array::from_fn(|a| coords[a].clamp(0, self.dims[a] as i64 - 1));
        ((z as usize) * self.dims[1] + y as usize) * self.dims[0] + x as usize
    }

    /// The boxes for agents at `positions`, bigger than `size` where there
    /// would be too many, so memory stays bounded however far apart the
    /// agents are.
    fn covering(positions: impl Iterator<Item = Vec3>, size: Vec3) -> Self {
        let mut size = Vec3::select(size.is_finite_mask(), size.max(Vec3::ONE), Vec3::ONE);
        let (min, max) = positions.fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
        if min.x > max.x {
            // No agent.
            return Self {
                origin: Vec3::ZERO,
                size,
                dims: [1; 3],
            };
        }
        // Agents at ±3e38 are 6e38 apart: more than an f32 holds.
        let extent = (max - min).clamp(Vec3::ONE, Vec3::splat(f32::MAX));
        let count = |len: f32, size: f32| {
            let n = (len / size).floor();
            if n.is_nan() {
                1
            } else {
                n.clamp(0.0, MAX_BOXES as f32) as usize + 1
            }
        };
        loop {
            let dims = [
                count(extent.x, size.x),
                count(extent.y, size.y),
                count(extent.z, size.z),
            ];
            let boxes = dims[0].saturating_mul(dims[1]).saturating_mul(dims[2]);
            if boxes <= MAX_BOXES {
                return Self {
                    origin: min,
                    size,
                    dims,
                };
            }
            size *= 2.0;
        }
    }
}

/// Agents in 3D sorted by the box they are in, rebuilt from scratch
/// (usually each step), for the agents near a point
/// ([`for_each_within`](Self::for_each_within),
/// [`within`](Self::within)) and for flocking (the flock module's
/// `VolumeGrid::flock`). Space does not wrap: flyers have no edge to go
/// round.
///
/// ```
/// # use reynolds::spatial::{GridAgent, VolumeGrid};
/// # use glam::Vec3;
/// let mut grid = VolumeGrid::default();
/// let at = |id: u32, y: f32| GridAgent { id, position: Vec3::new(0.0, y, 0.0), velocity: Vec3::ZERO, radius: 0.0 };
/// grid.rebuild([at(1, 0.0), at(2, 30.0), at(3, 500.0)], 70.0);
/// assert_eq!(grid.within(Vec3::ZERO, 50.0).count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct VolumeGrid<I> {
    pub(crate) boxes: Boxes,
    /// Which agent taken in is at each slot, box by box.
    sorted: Buckets<u32>,
    ids: Vec<I>,
    /// Positions and velocities, an axis a column: the layout the flocking
    /// kernel reads four at a time.
    pub(crate) positions: [Vec<f32>; 3],
    pub(crate) velocities: [Vec<f32>; 3],
    /// Body radii: empty when every agent is a point.
    pub(crate) radii: Vec<f32>,
    largest_radius: f32,
    tags: Vec<u32>,
    /// Each agent's slot, by [`Id::index`].
    slot_of: Vec<u32>,
    /// The agents taken in, before they are sorted, and each one's box.
    taken: Vec<(GridAgent<I, Vec3>, u32)>,
    taken_boxes: Vec<u32>,
}

impl<I> Default for VolumeGrid<I> {
    fn default() -> Self {
        Self {
            boxes: Boxes::default(),
            sorted: Buckets::default(),
            ids: Vec::new(),
            positions: Default::default(),
            velocities: Default::default(),
            radii: Vec::new(),
            largest_radius: 0.0,
            tags: Vec::new(),
            slot_of: Vec::new(),
            taken: Vec::new(),
            taken_boxes: Vec::new(),
        }
    }
}

impl<I: Id> VolumeGrid<I> {
    /// Sorts `agents` into boxes of at least `box_size` a side (and at
    /// least 1). Agents at a non-finite place or speed are left out; a
    /// radius that is negative or not finite counts as 0. The buffers are
    /// reused: no allocation once they are big enough.
    pub fn rebuild(&mut self, agents: impl IntoIterator<Item = GridAgent<I, Vec3>>, box_size: f32) {
        self.take(agents.into_iter().map(|agent| (agent, NO_TAG)));
        self.sort(Vec3::splat(box_size), &OneThread);
    }

    /// The first half of [`rebuild`](Self::rebuild): the agents taken in
    /// (those at a finite place and speed), each with a tag of the
    /// caller's, read back by slot with [`tag`](Self::tag).
    pub fn take(&mut self, agents: impl IntoIterator<Item = (GridAgent<I, Vec3>, u32)>) {
        self.taken.clear();
        let mut largest = 0.0f32;
        for (mut agent, tag) in agents {
            if agent.position.is_finite() && agent.velocity.is_finite() {
                agent.radius = sanitize_radius(agent.radius);
                largest = largest.max(agent.radius);
                self.taken.push((agent, tag));
            }
        }
        self.largest_radius = largest;
    }

    /// The second half of [`rebuild`](Self::rebuild): the agents taken in
    /// sorted into boxes of at least `box_size` (each side at least 1),
    /// their boxes found on `tasks`' threads.
    pub fn sort(&mut self, box_size: Vec3, tasks: &impl Tasks) {
        let taken = std::mem::take(&mut self.taken);
        // The boxes cover the agents.
        self.boxes = Boxes::covering(taken.iter().map(|(agent, _)| agent.position), box_size);
        let mut boxes_of = std::mem::take(&mut self.taken_boxes);
        boxes_of.clear();
        boxes_of.resize(taken.len(), 0);
        let boxes = self.boxes;
        let chunk = taken.len().div_ceil(tasks.threads().max(1)).max(1);
        tasks.for_each(
            boxes_of.chunks_mut(chunk).zip(taken.chunks(chunk)),
            |(out, agents)| {
                for (b, (agent, _)) in out.iter_mut().zip(agents) {
                    *b = boxes.index(boxes.coords(agent.position)) as u32;
                }
            },
        );
        let entries = boxes_of
            .iter()
            .enumerate()
            .map(|(i, b)| (*b as usize, i as u32));
        self.sorted.sort(self.boxes.len(), entries);
        self.taken_boxes = boxes_of;
        self.gather(&taken);
        self.taken = taken;
    }

    /// The columns filled in the sorted order, and each agent's slot by id.
    fn gather(&mut self, taken: &[(GridAgent<I, Vec3>, u32)]) {
        let order = self.sorted.items();
        let agent = |i: &u32| &taken[*i as usize].0;
        // Each column padded past its last agent, so the flocking kernel
        // reads a run's last few four at a time (the lanes past the run
        // masked out), never one by one.
        let padding = || std::iter::repeat_n(0.0, PADDING);
        for axis in 0..3 {
            self.positions[axis].clear();
            self.positions[axis].extend(order.iter().map(|i| agent(i).position[axis]));
            self.positions[axis].extend(padding());
            self.velocities[axis].clear();
            self.velocities[axis].extend(order.iter().map(|i| agent(i).velocity[axis]));
            self.velocities[axis].extend(padding());
        }
        self.radii.clear();
        if self.largest_radius > 0.0 {
            self.radii.extend(order.iter().map(|i| agent(i).radius));
            self.radii.extend(padding());
        }
        self.ids.clear();
        self.ids.extend(order.iter().map(|i| agent(i).id));
        self.tags.clear();
        self.tags.extend(order.iter().map(|i| taken[*i as usize].1));
        let slots = self.ids.iter().map(|id| id.index() + 1).max().unwrap_or(0);
        if slots > self.slot_of.len() {
            self.slot_of.resize(slots, u32::MAX);
        }
        for (slot, id) in self.ids.iter().enumerate() {
            self.slot_of[id.index()] = slot as u32;
        }
    }

    /// How many agents the grid holds.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the grid holds no agent.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The boxes the grid has.
    pub fn boxes(&self) -> Boxes {
        self.boxes
    }

    /// The bytes the grid's buffers hold on to (their capacity).
    pub fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let columns: usize = self
            .positions
            .iter()
            .chain(&self.velocities)
            .map(bytes)
            .sum();
        self.sorted.memory_bytes()
            + columns
            + bytes(&self.ids)
            + bytes(&self.radii)
            + bytes(&self.tags)
            + bytes(&self.slot_of)
            + bytes(&self.taken)
            + bytes(&self.taken_boxes)
    }

    /// The position of the agent at `slot` of the grid's arrays.
    pub fn position(&self, slot: usize) -> Vec3 {
        Vec3::from_array(std::array::from_fn(|a| self.positions[a][slot]))
    }

    /// The velocity of the agent at `slot` of the grid's arrays.
    pub fn velocity(&self, slot: usize) -> Vec3 {
        Vec3::from_array(std::array::from_fn(|a| self.velocities[a][slot]))
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

    /// The slots of the agents in boxes `boxes` (consecutive).
    pub fn slots(&self, boxes: Range<usize>) -> Range<usize> {
        self.sorted.places(boxes)
    }

    /// How many boxes round an agent's own hold everything within `radius`
    /// of it, along each axis.
    pub(crate) fn rings(&self, radius: f32) -> [i64; 3] {
        let radius = if radius.is_nan() {
            0.0
        } else {
            radius.clamp(0.0, 1e9)
        };
        let size = self.boxes.size;
        [size.x, size.y, size.z].map(|s| (radius / s).ceil() as i64)
    }

    /// Calls `f(range)` for the runs of the grid's arrays in the boxes
    /// within `rings` of box `coords`: the boxes of one row along x are
    /// contiguous, so a run is a row of boxes.
    pub(crate) fn for_each_run_around(
        &self,
        coords: [i64; 3],
        rings: [i64; 3],
        mut f: impl FnMut(Range<usize>),
    ) {
        let [nx, ny, nz] = self.boxes.dims.map(|n| n as i64);
        // Saturating: a point asked about may lie far outside the grid.
        let span = |c: i64, rings: i64, n: i64| {
            (
                c.saturating_sub(rings).max(0),
                c.saturating_add(rings).min(n - 1),
            )
        };
        let (x0, x1) = span(coords[0], rings[0], nx);
        if x0 > x1 {
            return;
        }
        let (y0, y1) = span(coords[1], rings[1], ny);
        let (z0, z1) = span(coords[2], rings[2], nz);
        for z in z0..=z1 {
            for y in y0..=y1 {
                let row = ((z * ny + y) * nx) as usize;
                f(self.sorted.places(row + x0 as usize..row + x1 as usize + 1));
            }
        }
    }

    /// The runs of the grid's arrays in the boxes within `rings` of box
    /// `coords`, into `runs`: how many, or `None` if more than fit.
    pub(crate) fn runs_around(
        &self,
        coords: [i64; 3],
        rings: [i64; 3],
        runs: &mut [Range<usize>; MOST_RUNS],
    ) -> Option<usize> {
        let mut count = 0;
        self.for_each_run_around(coords, rings, |range| {
            if let Some(run) = runs.get_mut(count) {
                *run = range;
            }
            count += 1;
        });
        (count <= MOST_RUNS).then_some(count)
    }

    /// Calls `f(slot, offset, velocity)` for every agent within `radius`
    /// of `p` (`offset` = its position - `p`). `slot` is its place in the
    /// grid's arrays.
    pub fn for_each_within(&self, p: Vec3, radius: f32, mut f: impl FnMut(usize, Vec3, Vec3)) {
        if self.is_empty() || !p.is_finite() || radius.is_nan() || radius < 0.0 {
            return;
        }
        let r2 = radius * radius;
        let coords = self.boxes.coords(p);
        self.for_each_run_around(coords, self.rings(radius), |range| {
            for i in range {
                let offset = self.position(i) - p;
                if offset.length_squared() <= r2 {
                    f(i, offset, self.velocity(i));
                }
            }
        });
    }

    /// The agents within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vec3, radius: f32) -> impl Iterator<Item = (I, Vec3)> {
        let mut found = Vec::new();
        self.for_each_within(p, radius, |i, _, _| {
            found.push((self.ids[i], self.position(i)))
        });
        found.into_iter()
    }
}
