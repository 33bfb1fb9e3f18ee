//! Flocking's batch kernel: neighbor candidates as parallel arrays
//! ([`NeighborBlock`]) weighed four at a time ([`FlockBatch`]), or eight at
//! a time with AVX2 where the CPU has it (`eight_lanes`), into the same
//! lanes either way, so the sums are the same to the bit.

use std::ops::Range;

use glam::Vec2;
use wide::f32x4;

use super::{FlockSums, FlockView};
use crate::math::SteeringVector;

#[cfg(target_arch = "x86_64")]
mod eight_lanes;

/// Neighbor candidates as parallel arrays (positions and velocities, x and
/// y apart, and body radii): the layout [`FlockBatch::add_block`] reads
/// four at a time. If their lengths differ, the shortest decides.
#[derive(Clone, Copy, Debug)]
pub struct NeighborBlock<'a> {
    /// Positions, x.
    pub xs: &'a [f32],
    /// Positions, y.
    pub ys: &'a [f32],
    /// Velocities, x.
    pub vxs: &'a [f32],
    /// Velocities, y.
    pub vys: &'a [f32],
    /// Body radii, each finite and not negative; `None` when every candidate
    /// is a point (radius 0), which weighs them a little faster.
    pub radii: Option<&'a [f32]>,
}

impl<'a> NeighborBlock<'a> {
    /// How many candidates: the shortest column's length.
    fn len(&self) -> usize {
        let n = (self.xs.len().min(self.ys.len()))
            .min(self.vxs.len())
            .min(self.vys.len());
        self.radii.map_or(n, |radii| n.min(radii.len()))
    }

    /// The candidates at `range`, clamped to those there are.
    #[inline]
    fn run(&self, range: &Range<usize>) -> NeighborBlock<'a> {
        let range = clamped(range, self.len());
        NeighborBlock {
            xs: &self.xs[range.clone()],
            ys: &self.ys[range.clone()],
            vxs: &self.vxs[range.clone()],
            vys: &self.vys[range.clone()],
            radii: self.radii.map(|radii| &radii[range]),
        }
    }
}

/// `range` within `0..n`: past the end, cut at `n`; backwards, empty.
#[inline]
fn clamped(range: &Range<usize>, n: usize) -> Range<usize> {
    let end = range.end.min(n);
    range.start.min(end)..end
}

/// How many candidates [`FlockBatch::add_block`] weighs side by side: one
/// SSE, NEON or WebAssembly register of `f32`s.
const LANES: usize = 4;

/// What one candidate adds, as [`FlockBatch`] computes it lane by lane. A
/// candidate counts if it is not on the agent's very spot (the agent
/// itself, or one it cannot tell a direction to), is in view, and is within
/// a radius; a non-finite offset is never within one. One on the very
/// spot, within separation's reach, is counted apart, for
/// [`FlockSums::on_spot`].
pub(super) struct Contribution<V> {
    /// Separation's push, if `pushes`.
    pub push: V,
    pub pushes: bool,
    /// The velocity alignment counts, if `counts` (zero if not finite).
    pub vel: V,
    pub counts: bool,
    pub on_spot: bool,
}

/// What a candidate at `offset` from the agent, moving at `vel`, with a
/// body of `radius`, adds to the sums of an agent that sees as `view`: the
/// arithmetic of the lanes, one candidate at a time, on a plane or in 3D.
#[inline(always)]
pub(super) fn contribution<V: SteeringVector>(
    view: &FlockView<V>,
    offset: V,
    vel: V,
    radius: f32,
) -> Contribution<V> {
    let d2 = offset.dot(offset);
    let d = d2.sqrt();
    let seen = (d2 > 0.0) & (offset.dot(view.heading) >= d * view.min_cos);
    let bodies = view.body_radius + radius;
    let push_reach = view.separation_radius + bodies;
    let close = if radius == 0.0 {
        d2 < view.separation_radius_squared
    } else {
        d2 < push_reach * push_reach
    };
    let pushes = seen & close;
    let counts = seen & (d2 < view.neighbor_radius_squared);
    let k = push_strength(1.0, 1.0 / d, bodies, view.inverse_separation_radius);
    Contribution {
        push: if pushes { -offset * k } else { V::ZERO },
        pushes,
        vel: if counts && vel.is_finite() {
            vel
        } else {
            V::ZERO
        },
        counts,
        on_spot: close & (d2 == 0.0),
    }
}

/// How hard a neighbor at distance `d` pushes, over `d` (the push is
/// `-offset * k`): away, harder the smaller the gap between the bodies,
/// `1 - gap / separation_radius` with `gap = d - bodies` (the sum of the two
/// radii), at most 1. Between points, `1/d - 1/r`, the model's
/// separation, bit for bit.
#[inline(always)]
fn push_strength<F>(one: F, inverse_d: F, bodies: F, inverse_separation: F) -> F
where
    F: Copy
        + std::ops::Add<Output = F>
        + std::ops::Mul<Output = F>
        + std::ops::Sub<Output = F>
        + Min,
{
    ((one + bodies * inverse_separation) * inverse_d - inverse_separation).min_of(inverse_d)
}

/// `min` for both `f32` and four lanes.
trait Min {
    fn min_of(self, other: Self) -> Self;
}

impl Min for f32 {
    #[inline(always)]
    fn min_of(self, other: Self) -> Self {
        self.min(other)
    }
}

impl Min for f32x4 {
    #[inline(always)]
    fn min_of(self, other: Self) -> Self {
        self.fast_min(other)
    }
}

/// [`FlockSums`] eight lanes wide: the hot loop of a neighbor grid. Feed it
/// blocks of candidates with [`FlockBatch::add_block`], then
/// [`FlockBatch::finish`] adds the lanes up, once.
///
/// The eight lanes are two halves of four: a CPU with AVX2 (x86-64, found
/// at run time) weighs eight candidates at once, any other four at a time
/// into each half in turn. Each lane sees the same candidates in the same
/// order either way, so the sums are the same to the bit on every machine.
///
/// ```
/// # use reynolds::flock::{FlockBatch, FlockParams, FlockView, NeighborBlock};
/// # use glam::Vec2;
/// let view = FlockView::new(&FlockParams::default(), Vec2::ZERO);
/// // The agent at (100, 100) itself, one neighbor 10 px right, one far away.
/// let (xs, ys) = ([100.0, 110.0, 900.0], [100.0, 100.0, 100.0]);
/// let mut batch = FlockBatch::new(&view);
/// let block = NeighborBlock { xs: &xs, ys: &ys, vxs: &[0.0; 3], vys: &[0.0; 3], radii: None };
/// batch.add_block(block, Vec2::new(-100.0, -100.0));
/// assert_eq!(batch.finish().neighbors(), 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FlockBatch {
    view: LaneView<2>,
    /// Whether to weigh eight candidates at a time (x86-64 with AVX2).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) eight_lanes: bool,
    /// The sums of lanes 0 to 3 and 4 to 7.
    halves: [LaneSums<2>; 2],
}

/// A [`FlockView`] of `D` dimensions in every lane.
#[derive(Clone, Copy, Debug)]
struct LaneView<const D: usize> {
    has_view_cone: bool,
    /// The heading, a component an axis.
    heading: [f32x4; D],
    min_cos: f32x4,
    separation: f32x4,
    body_radius: f32x4,
    separation2: f32x4,
    neighbor2: f32x4,
    inverse_separation: f32x4,
}

/// Four lanes of running sums, in `D` dimensions (each vector a component
/// an axis).
#[derive(Clone, Copy, Debug)]
struct LaneSums<const D: usize> {
    push: [f32x4; D],
    pushers: f32x4,
    vel: [f32x4; D],
    offset: [f32x4; D],
    neighbors: f32x4,
    on_spot: f32x4,
}

impl<const D: usize> Default for LaneSums<D> {
    fn default() -> Self {
        Self {
            push: [f32x4::ZERO; D],
            pushers: f32x4::ZERO,
            vel: [f32x4::ZERO; D],
            offset: [f32x4::ZERO; D],
            neighbors: f32x4::ZERO,
            on_spot: f32x4::ZERO,
        }
    }
}

impl FlockBatch {
    /// An empty pass of an agent that sees as `view`.
    #[inline]
    pub fn new(view: &FlockView) -> Self {
        Self {
            view: LaneView::of(view),
            eight_lanes: has_eight_lanes(),
            halves: Default::default(),
        }
    }

    /// Counts every candidate of `block`, each at offset `position + shift`
    /// from the agent (so `shift` is minus the agent's position, plus any
    /// wrap period the block is seen across), as [`FlockSums::add`] would:
    /// candidates out of reach, out of view or on the agent's spot (the
    /// agent itself) add nothing, so a block may hold them. The same sums
    /// as adding one by one, up to rounding, eight candidates at a time.
    #[inline]
    pub fn add_block(&mut self, block: NeighborBlock, shift: Vec2) {
        match block.radii {
            Some(_) => self.add_any_block::<true, true>(block, shift),
            None => self.add_any_block::<true, false>(block, shift),
        }
    }

    /// [`FlockBatch::add_block`] for a block whose velocities are all
    /// finite, as a neighbor grid's are: the same sums, without checking
    /// each velocity (a sixth of the work). Given a non-finite velocity it
    /// still makes no NaN, but alignment then asks the agent to stop rather
    /// than counting that neighbor as still.
    #[inline]
    pub fn add_finite_block(&mut self, block: NeighborBlock, shift: Vec2) {
        match block.radii {
            Some(_) => self.add_any_block::<false, true>(block, shift),
            None => self.add_any_block::<false, false>(block, shift),
        }
    }

    #[inline(always)]
    fn add_any_block<const CHECK_VELOCITIES: bool, const RADII: bool>(
        &mut self,
        block: NeighborBlock,
        shift: Vec2,
    ) {
        let radii = block.radii.unwrap_or(&[]);
        let n = block.len();
        // Without radii, every lane's radius is 0 (and never read).
        let radii = &radii[..if RADII { n } else { 0 }];
        #[cfg(target_arch = "x86_64")]
        if self.eight_lanes {
            // SAFETY: `eight_lanes` is only set on a CPU with AVX2.
            unsafe {
                self.add_eights::<CHECK_VELOCITIES, RADII>(
                    [block.xs, block.ys, block.vxs, block.vys].map(|c| &c[..n]),
                    radii,
                    shift,
                )
            };
            return;
        }
        let (x_chunks, x_rest) = block.xs[..n].as_chunks::<LANES>();
        let (y_chunks, y_rest) = block.ys[..n].as_chunks::<LANES>();
        let (vx_chunks, vx_rest) = block.vxs[..n].as_chunks::<LANES>();
        let (vy_chunks, vy_rest) = block.vys[..n].as_chunks::<LANES>();
        let (r_chunks, r_rest) = radii.as_chunks::<LANES>();
        let zero = [0.0; LANES];
        let mut r_chunks = r_chunks.iter();
        let (shift_x, shift_y) = (f32x4::splat(shift.x), f32x4::splat(shift.y));
        let chunks = x_chunks.iter().zip(y_chunks).zip(vx_chunks).zip(vy_chunks);
        // Groups of four into each half in turn: the lanes an eight-wide
        // pass would put them in.
        for (group, (((x, y), vx), vy)) in chunks.enumerate() {
            let r = if RADII {
                r_chunks.next().unwrap_or(&zero)
            } else {
                &zero
            };
            self.view.add_lanes::<CHECK_VELOCITIES, RADII, true>(
                &mut self.halves[group % 2],
                [f32x4::new(*x) + shift_x, f32x4::new(*y) + shift_y],
                [f32x4::new(*vx), f32x4::new(*vy)],
                f32x4::new(*r),
            );
        }
        if !x_rest.is_empty() {
            // The last few, padded with candidates at NaN, which are never
            // within reach.
            let pad = padded;
            self.view.add_lanes::<CHECK_VELOCITIES, RADII, true>(
                &mut self.halves[x_chunks.len() % 2],
                [
                    pad(x_rest, f32::NAN) + shift_x,
                    pad(y_rest, f32::NAN) + shift_y,
                ],
                [pad(vx_rest, 0.0), pad(vy_rest, 0.0)],
                pad(r_rest, 0.0),
            );
        }
    }

    /// The sums, the lanes added up in one fixed order: the same whatever
    /// the machine.
    #[inline]
    pub fn finish(self) -> FlockSums {
        let [low, high] = self.halves;
        low.finish(&high)
    }
}

impl<const D: usize> LaneSums<D> {
    /// These lanes (0 to 3) and `high`'s (4 to 7) added up, as
    /// [`total`] adds them.
    #[inline(always)]
    fn finish<V: Lanes<D>>(&self, high: &Self) -> FlockSums<V> {
        let vector = |low: &[f32x4; D], high: &[f32x4; D]| {
            V::from_components(std::array::from_fn(|i| total(low[i], high[i])))
        };
        FlockSums {
            push: vector(&self.push, &high.push),
            pushers: total(self.pushers, high.pushers) as u32,
            velocity: vector(&self.vel, &high.vel),
            offset: vector(&self.offset, &high.offset),
            neighbors: total(self.neighbors, high.neighbors) as u32,
            on_spot: total(self.on_spot, high.on_spot) as u32,
        }
    }
}

/// A vector the lanes take apart into `D` components and put back.
pub(crate) trait Lanes<const D: usize>: SteeringVector {
    /// Its components, x first.
    fn components(self) -> [f32; D];
    /// The vector of these components.
    fn from_components(components: [f32; D]) -> Self;
}

impl Lanes<2> for Vec2 {
    #[inline(always)]
    fn components(self) -> [f32; 2] {
        self.to_array()
    }

    #[inline(always)]
    fn from_components(components: [f32; 2]) -> Self {
        Vec2::from_array(components)
    }
}

impl Lanes<3> for glam::Vec3 {
    #[inline(always)]
    fn components(self) -> [f32; 3] {
        self.to_array()
    }

    #[inline(always)]
    fn from_components(components: [f32; 3]) -> Self {
        glam::Vec3::from_array(components)
    }
}

impl<const D: usize> LaneView<D> {
    /// The numbers of `view`, each in every lane.
    #[inline(always)]
    fn of<V: Lanes<D>>(view: &FlockView<V>) -> Self {
        LaneView {
            has_view_cone: view.min_cos != f32::NEG_INFINITY,
            heading: view.heading.components().map(f32x4::splat),
            min_cos: f32x4::splat(view.min_cos),
            separation: f32x4::splat(view.separation_radius),
            body_radius: f32x4::splat(view.body_radius),
            separation2: f32x4::splat(view.separation_radius_squared),
            neighbor2: f32x4::splat(view.neighbor_radius_squared),
            inverse_separation: f32x4::splat(view.inverse_separation_radius),
        }
    }

    /// The arithmetic of `contribution`, four lanes at a time, into `sums`;
    /// masks pick what counts, so a masked-out NaN or infinity never
    /// reaches a sum. The square root and division are only for a field of
    /// view and for separation's few close neighbors, so they wait until a
    /// lane needs them.
    #[inline(always)]
    ///
    /// `MAY_HAVE_CONE` false says the view sees all round, so no lane's
    /// distance is worked out ahead of need (the compiler otherwise took
    /// the square root for every lane, for the cone or the push).
    fn add_lanes<const CHECK_VELOCITIES: bool, const RADII: bool, const MAY_HAVE_CONE: bool>(
        &self,
        sums: &mut LaneSums<D>,
        d: [f32x4; D],
        v: [f32x4; D],
        radius: f32x4,
    ) {
        let zero = f32x4::splat(0.0);
        let one = f32x4::splat(1.0);
        // Axis by axis from x, as `dot` adds them.
        let dot =
            |a: &[f32x4; D], b: &[f32x4; D]| (1..D).fold(a[0] * b[0], |sum, i| sum + a[i] * b[i]);
        let d2 = dot(&d, &d);
        let mut seen = d2.simd_gt(zero);
        if MAY_HAVE_CONE && self.has_view_cone {
            let distance = d2.sqrt();
            seen &= dot(&d, &self.heading).simd_ge(distance * self.min_cos);
        }
        // A mask is all ones or all zeros, so `value & mask` keeps a lane's
        // value or makes it +0: a select with zero, in one instruction.
        let counts = seen & d2.simd_lt(self.neighbor2);
        let vel_ok = if CHECK_VELOCITIES {
            // x * 0 is 0 for a finite x and NaN otherwise.
            counts & dot(&v, &[zero; D]).simd_eq(zero)
        } else {
            counts
        };
        for i in 0..D {
            sums.vel[i] += v[i] & vel_ok;
            sums.offset[i] += d[i] & counts;
        }
        sums.neighbors += one & counts;
        let (close, bodies) = if RADII {
            let bodies = self.body_radius + radius;
            let reach = self.separation + bodies;
            (d2.simd_lt(reach * reach), bodies)
        } else {
            (d2.simd_lt(self.separation2), self.body_radius)
        };
        // Only close candidates push, and only they can be on the spot: the
        // agent itself always is, so this is taken at least once an agent.
        // (Skipping it adds nothing but zeros, which leave a sum as it was:
        // `x + 0` and `x - 0` are `x`, as no sum is ever -0.)
        if close.any() {
            sums.on_spot += one & (close & d2.simd_eq(zero));
            let pushes = seen & close;
            if pushes.any() {
                let k = push_strength(one, one / d2.sqrt(), bodies, self.inverse_separation);
                for (push, d) in sums.push.iter_mut().zip(d) {
                    *push -= (d * k) & pushes;
                }
                sums.pushers += one & pushes;
            }
        }
    }
}

/// The last few of a column (fewer than four) in lanes, the rest `fill`.
#[inline(always)]
fn padded(rest: &[f32], fill: f32) -> f32x4 {
    let mut lanes = [fill; LANES];
    // Element by element: `copy_from_slice` of a few floats is a call to
    // `memmove`.
    for (lane, value) in lanes.iter_mut().zip(rest) {
        *lane = *value;
    }
    f32x4::new(lanes)
}

/// The flocking sums of one agent over runs of candidates in `D`
/// dimensions (a volume grid's), four at a time, through the same
/// arithmetic as [`FlockBatch`]'s.
pub(crate) struct LaneBatch<const D: usize> {
    view: LaneView<D>,
    sums: LaneSums<D>,
}

impl<const D: usize> LaneBatch<D> {
    /// An empty pass of an agent that sees as `view`.
    #[inline(always)]
    pub(crate) fn new<V: Lanes<D>>(view: &FlockView<V>) -> Self {
        Self {
            view: LaneView::of(view),
            sums: LaneSums::default(),
        }
    }

    /// Counts the candidates at `range` (of the first `n_candidates`) of
    /// the columns, whose velocities are all finite, each at offset
    /// `position + shift` from the agent: `positions` and `velocities` an
    /// axis a column, `radii` (for points, empty) beside them. Columns
    /// padded with [`LANES`]` - 1` values past the last candidate (as a
    /// volume grid's are) let the run's last few be read four at a time,
    /// the lanes past its end masked out; without that padding, the last
    /// few are copied out.
    #[inline(always)]
    pub(crate) fn add_finite_run<V: Lanes<D>, const RADII: bool, const MAY_HAVE_CONE: bool>(
        &mut self,
        n_candidates: usize,
        positions: [&[f32]; D],
        velocities: [&[f32]; D],
        radii: &[f32],
        range: Range<usize>,
        shift: V,
    ) {
        let shift_lanes = shift.components().map(f32x4::splat);
        let columns = positions.iter().chain(&velocities);
        let padded_len = columns.map(|c| c.len()).min().unwrap_or(0);
        let padded_len = if RADII {
            padded_len.min(radii.len())
        } else {
            padded_len
        };
        let n = n_candidates.min(padded_len);
        // The padding past `n` is only read, never counted.
        let range = clamped(&range, n);
        if range.is_empty() {
            return;
        }
        // The run rounded up to whole groups of four, read from the
        // padding past the last candidate where it is there; else its
        // whole groups, and the last few padded here.
        let rounded = range.start + (range.end - range.start).next_multiple_of(LANES);
        let (end, rest) = if rounded <= padded_len {
            (rounded, 0..0)
        } else {
            let whole = range.start + (range.end - range.start) / LANES * LANES;
            (whole, whole..range.end)
        };
        if !rest.is_empty() {
            let rest = |column: &[f32], fill: f32| padded(&column[rest.clone()], fill);
            let radius = if RADII { rest(radii, 0.0) } else { f32x4::ZERO };
            self.view.add_lanes::<false, RADII, MAY_HAVE_CONE>(
                &mut self.sums,
                std::array::from_fn(|a| rest(positions[a], f32::NAN) + shift_lanes[a]),
                std::array::from_fn(|a| rest(velocities[a], 0.0)),
                radius,
            );
        }
        let groups = (end - range.start) / LANES;
        // Each column's groups, each slice exactly `groups` long so that
        // indexing them by group needs no check (the compiler sees it).
        #[inline(always)]
        fn chunks(column: &[f32], start: usize, groups: usize) -> &[[f32; LANES]] {
            let chunks = column[start..start + groups * LANES].as_chunks::<LANES>().0;
            &chunks[..groups]
        }
        let position_chunks: [_; D] =
            std::array::from_fn(|a| chunks(positions[a], range.start, groups));
        let velocity_chunks: [_; D] =
            std::array::from_fn(|a| chunks(velocities[a], range.start, groups));
        let radius_chunks = if RADII {
            chunks(radii, range.start, groups)
        } else {
            &[]
        };
        // The lanes of the last group inside the run (all of them when the
        // run ends with a whole group).
        let inside = f32x4::new([0.0, 1.0, 2.0, 3.0]).simd_lt(f32x4::splat(
            range.end.saturating_sub(end.saturating_sub(LANES)) as f32,
        ));
        for group in 0..groups {
            let mut first = f32x4::new(position_chunks[0][group]);
            if group + 1 == groups {
                // The lanes past the run: no place, so never in reach.
                first = inside.select(first, f32x4::splat(f32::NAN));
            }
            let radius = if RADII {
                f32x4::new(radius_chunks[group])
            } else {
                f32x4::ZERO
            };
            self.view.add_lanes::<false, RADII, MAY_HAVE_CONE>(
                &mut self.sums,
                std::array::from_fn(|a| {
                    (if a == 0 {
                        first
                    } else {
                        f32x4::new(position_chunks[a][group])
                    }) + shift_lanes[a]
                }),
                std::array::from_fn(|a| f32x4::new(velocity_chunks[a][group])),
                radius,
            );
        }
    }

    /// The sums, the lanes added up in one fixed order.
    #[inline(always)]
    pub(crate) fn finish<V: Lanes<D>>(&self) -> FlockSums<V> {
        self.sums.finish(&LaneSums::default())
    }
}

/// The flocking sums of an agent that sees as `view` over the candidates
/// in `runs` of the columns' first `n` (each at offset `position + shift`): a
/// [`LaneBatch`] given each run in turn, kept in this function so that
/// its sums stay in registers from the first run to the last.
#[inline(always)]
pub(crate) fn lane_sums_of_runs<V: Lanes<D>, const D: usize, const RADII: bool>(
    view: &FlockView<V>,
    n: usize,
    [positions, velocities]: [[&[f32]; D]; 2],
    radii: &[f32],
    runs: &[Range<usize>],
    shift: V,
) -> FlockSums<V> {
    let mut batch = LaneBatch::new(view);
    if batch.view.has_view_cone {
        for range in runs {
            batch.add_finite_run::<V, RADII, true>(
                n,
                positions,
                velocities,
                radii,
                range.clone(),
                shift,
            );
        }
    } else {
        for range in runs {
            batch.add_finite_run::<V, RADII, false>(
                n,
                positions,
                velocities,
                radii,
                range.clone(),
                shift,
            );
        }
    }
    batch.finish()
}

/// The eight lanes of a sum (lanes 0 to 3 in `low`, 4 to 7 in `high`)
/// added up pairwise, `((0 + 4) + (2 + 6)) + ((1 + 5) + (3 + 7))`: the one
/// order every machine adds them in, three additions deep, the first four
/// in one instruction.
#[inline(always)]
fn total(low: f32x4, high: f32x4) -> f32 {
    let [a, b, c, d] = (low + high).to_array();
    // From 0, as a sum of nothing is: +0, never -0.
    0.0 + ((a + c) + (b + d))
}

/// Whether this CPU weighs eight candidates at a time: x86-64 with AVX2
/// (asked once; the answer is cached). `REYNOLDS_FOUR_LANES=1` in the
/// environment says no, to compare (the sums are the same either way).
pub(super) fn has_eight_lanes() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static EIGHT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *EIGHT.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::env::var_os("REYNOLDS_FOUR_LANES").is_none_or(|v| v != "1")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// [`FlockSums::of_finite_runs`]: on eight lanes where the CPU has them,
/// else a [`FlockBatch`] over each run in turn.
#[inline]
pub(super) fn sums_of_finite_runs(
    view: &FlockView,
    candidates: NeighborBlock,
    runs: &[(Range<usize>, Vec2)],
) -> FlockSums {
    #[cfg(target_arch = "x86_64")]
    if has_eight_lanes() {
        // SAFETY: `has_eight_lanes` is only true on a CPU with AVX2.
        return unsafe {
            match candidates.radii {
                Some(_) => eight_lanes::sums_of_runs::<false, true>(view, candidates, runs),
                None => eight_lanes::sums_of_runs::<false, false>(view, candidates, runs),
            }
        };
    }
    let mut batch = FlockBatch::new(view);
    for (range, shift) in runs {
        batch.add_finite_block(candidates.run(range), *shift);
    }
    batch.finish()
}
