//! Flocking's batch kernel: neighbor candidates as parallel arrays
//! ([`NeighborBlock`]) weighed four at a time ([`FlockBatch`]), or eight at
//! a time with AVX2 where the CPU has it (`eight_lanes`), into the same
//! lanes either way, so the sums are the same to the bit.

use std::ops::Range;

use glam::Vec2;
use wide::f32x4;

use super::{FlockSums, FlockView};

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

/// What one candidate adds, as [`FlockBatch`] computes it lane by lane:
/// `(push, pushes, velocity, offset, counts, on the spot)`. A candidate
/// counts if it is not on the agent's very spot (the agent itself, or one it
/// cannot tell a direction to), is in view, and is within a radius; a
/// non-finite offset is never within one. One on the very spot, within
/// separation's reach, is counted apart, for [`FlockSums::on_spot`].
#[inline(always)]
pub(super) fn contribution(
    view: &FlockView,
    dx: f32,
    dy: f32,
    vx: f32,
    vy: f32,
    radius: f32,
) -> [f32; 9] {
    let d2 = dx * dx + dy * dy;
    let d = d2.sqrt();
    let seen = (d2 > 0.0) & (dx * view.heading.x + dy * view.heading.y >= d * view.min_cos);
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
    let vel_ok = counts & vx.is_finite() & vy.is_finite();
    [
        if pushes { -dx * k } else { 0.0 },
        if pushes { -dy * k } else { 0.0 },
        if pushes { 1.0 } else { 0.0 },
        if vel_ok { vx } else { 0.0 },
        if vel_ok { vy } else { 0.0 },
        if counts { dx } else { 0.0 },
        if counts { dy } else { 0.0 },
        if counts { 1.0 } else { 0.0 },
        if close & (d2 == 0.0) { 1.0 } else { 0.0 },
    ]
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
    view: LaneView,
    /// Whether to weigh eight candidates at a time (x86-64 with AVX2).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) eight_lanes: bool,
    /// The sums of lanes 0 to 3 and 4 to 7.
    halves: [LaneSums; 2],
}

/// A [`FlockView`] in every lane.
#[derive(Clone, Copy, Debug)]
struct LaneView {
    has_view_cone: bool,
    heading_x: f32x4,
    heading_y: f32x4,
    min_cos: f32x4,
    separation: f32x4,
    body_radius: f32x4,
    separation2: f32x4,
    neighbor2: f32x4,
    inverse_separation: f32x4,
}

/// Four lanes of running sums.
#[derive(Clone, Copy, Debug, Default)]
struct LaneSums {
    push_x: f32x4,
    push_y: f32x4,
    pushers: f32x4,
    vel_x: f32x4,
    vel_y: f32x4,
    offset_x: f32x4,
    offset_y: f32x4,
    neighbors: f32x4,
    on_spot: f32x4,
}

impl FlockBatch {
    /// An empty pass of an agent that sees as `view`.
    #[inline]
    pub fn new(view: &FlockView) -> Self {
        Self {
            view: LaneView {
                has_view_cone: view.min_cos != f32::NEG_INFINITY,
                heading_x: f32x4::splat(view.heading.x),
                heading_y: f32x4::splat(view.heading.y),
                min_cos: f32x4::splat(view.min_cos),
                separation: f32x4::splat(view.separation_radius),
                body_radius: f32x4::splat(view.body_radius),
                separation2: f32x4::splat(view.separation_radius_squared),
                neighbor2: f32x4::splat(view.neighbor_radius_squared),
                inverse_separation: f32x4::splat(view.inverse_separation_radius),
            },
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
            self.view.add_lanes::<CHECK_VELOCITIES, RADII>(
                &mut self.halves[group % 2],
                f32x4::new(*x) + shift_x,
                f32x4::new(*y) + shift_y,
                f32x4::new(*vx),
                f32x4::new(*vy),
                f32x4::new(*r),
            );
        }
        if !x_rest.is_empty() {
            // The last few, padded with candidates at NaN, which are never
            // within reach.
            let pad = |rest: &[f32], fill: f32| {
                let mut lanes = [fill; LANES];
                // Element by element: `copy_from_slice` of a few floats is a
                // call to `memmove`.
                for (lane, value) in lanes.iter_mut().zip(rest) {
                    *lane = *value;
                }
                f32x4::new(lanes)
            };
            self.view.add_lanes::<CHECK_VELOCITIES, RADII>(
                &mut self.halves[x_chunks.len() % 2],
                pad(x_rest, f32::NAN) + shift_x,
                pad(y_rest, f32::NAN) + shift_y,
                pad(vx_rest, 0.0),
                pad(vy_rest, 0.0),
                pad(r_rest, 0.0),
            );
        }
    }

    /// The sums, the lanes added up in one fixed order: the same whatever
    /// the machine.
    #[inline]
    pub fn finish(self) -> FlockSums {
        let [low, high] = self.halves;
        let total2 = |l: fn(&LaneSums) -> (f32x4, f32x4)| {
            let ((lx, ly), (hx, hy)) = (l(&low), l(&high));
            Vec2::new(total(lx, hx), total(ly, hy))
        };
        FlockSums {
            push: total2(|s| (s.push_x, s.push_y)),
            pushers: total(low.pushers, high.pushers) as u32,
            velocity: total2(|s| (s.vel_x, s.vel_y)),
            offset: total2(|s| (s.offset_x, s.offset_y)),
            neighbors: total(low.neighbors, high.neighbors) as u32,
            on_spot: total(low.on_spot, high.on_spot) as u32,
        }
    }
}

impl LaneView {
    /// The arithmetic of `contribution`, four lanes at a time, into `sums`;
    /// masks pick what counts, so a masked-out NaN or infinity never
    /// reaches a sum. The square root and division are only for a field of
    /// view and for separation's few close neighbors, so they wait until a
    /// lane needs them.
    #[inline(always)]
    fn add_lanes<const CHECK_VELOCITIES: bool, const RADII: bool>(
        &self,
        sums: &mut LaneSums,
        dx: f32x4,
        dy: f32x4,
        vx: f32x4,
        vy: f32x4,
        radius: f32x4,
    ) {
        let zero = f32x4::splat(0.0);
        let one = f32x4::splat(1.0);
        let d2 = dx * dx + dy * dy;
        let mut seen = d2.simd_gt(zero);
        if self.has_view_cone {
            let d = d2.sqrt();
            seen &= (dx * self.heading_x + dy * self.heading_y).simd_ge(d * self.min_cos);
        }
        // A mask is all ones or all zeros, so `value & mask` keeps a lane's
        // value or makes it +0: a select with zero, in one instruction.
        let counts = seen & d2.simd_lt(self.neighbor2);
        let vel_ok = if CHECK_VELOCITIES {
            // x * 0 is 0 for a finite x and NaN otherwise.
            counts & (vx * zero + vy * zero).simd_eq(zero)
        } else {
            counts
        };
        sums.vel_x += vx & vel_ok;
        sums.vel_y += vy & vel_ok;
        sums.offset_x += dx & counts;
        sums.offset_y += dy & counts;
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
                sums.push_x -= (dx * k) & pushes;
                sums.push_y -= (dy * k) & pushes;
                sums.pushers += one & pushes;
            }
        }
    }
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
