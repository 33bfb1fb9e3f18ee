//! [`FlockBatch`]'s hot loop eight candidates at a time, for x86-64 CPUs
//! with AVX2 (found at run time, so no build flag is needed): the same
//! arithmetic, lane by lane, as [`LaneView::add_lanes`], into the same
//! lanes, so the same sums to the bit.
//! [`LaneView::add_lanes`]: super::LaneView

use std::arch::x86_64::*;
use std::ops::Range;

use glam::Vec2;
use wide::f32x4;

use super::{FlockBatch, LaneSums, LaneView, NeighborBlock, total};
use crate::flock::{FlockSums, FlockView};

/// Eight lanes of running sums: a [`LaneSums`] half in each 128-bit half.
#[derive(Clone, Copy)]
struct Sums {
    push_x: __m256,
    push_y: __m256,
    pushers: __m256,
    vel_x: __m256,
    vel_y: __m256,
    offset_x: __m256,
    offset_y: __m256,
    neighbors: __m256,
    on_spot: __m256,
}

/// Eight candidates into `$sums` (a [`Sums`]), seen as `$view` (a
/// [`View`]): x, y, velocity x and y, radius, each an `__m256`. A macro,
/// not a function, so it is always inlined: a `#[target_feature]` function
/// may not be `#[inline(always)]`, and when one was left out of line the
/// sums went through memory every eight candidates (the kernel a quarter
/// slower).
macro_rules! add_eight {
    ($view:expr, $sums:expr, [$x:expr, $y:expr, $vx:expr, $vy:expr, $radius:expr],
     $shift:expr, $check_velocities:expr, $radii:expr) => {{
        let (x, y, vx, vy, radius, shift): (__m256, __m256, __m256, __m256, __m256, Vec2) =
            ($x, $y, $vx, $vy, $radius, $shift);
        let zero = _mm256_setzero_ps();
        let one = _mm256_set1_ps(1.0);
        let dx = _mm256_add_ps(x, _mm256_set1_ps(shift.x));
        let dy = _mm256_add_ps(y, _mm256_set1_ps(shift.y));
        let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        let mut seen = _mm256_cmp_ps::<_CMP_GT_OQ>(d2, zero);
        let mut distance = None;
        if $view.has_view_cone {
            let d = _mm256_sqrt_ps(d2);
            distance = Some(d);
            let ahead = _mm256_add_ps(
                _mm256_mul_ps(dx, $view.heading_x),
                _mm256_mul_ps(dy, $view.heading_y),
            );
            let in_view = _mm256_cmp_ps::<_CMP_GE_OQ>(ahead, _mm256_mul_ps(d, $view.min_cos));
            seen = _mm256_and_ps(seen, in_view);
        }
        let counts = _mm256_and_ps(seen, _mm256_cmp_ps::<_CMP_LT_OQ>(d2, $view.neighbor2));
        let vel_ok = if $check_velocities {
            let finite = _mm256_add_ps(_mm256_mul_ps(vx, zero), _mm256_mul_ps(vy, zero));
            _mm256_and_ps(counts, _mm256_cmp_ps::<_CMP_EQ_OQ>(finite, zero))
        } else {
            counts
        };
        $sums.vel_x = _mm256_add_ps($sums.vel_x, _mm256_and_ps(vx, vel_ok));
        $sums.vel_y = _mm256_add_ps($sums.vel_y, _mm256_and_ps(vy, vel_ok));
        $sums.offset_x = _mm256_add_ps($sums.offset_x, _mm256_and_ps(dx, counts));
        $sums.offset_y = _mm256_add_ps($sums.offset_y, _mm256_and_ps(dy, counts));
        $sums.neighbors = _mm256_add_ps($sums.neighbors, _mm256_and_ps(one, counts));
        let (close, bodies) = if $radii {
            let bodies = _mm256_add_ps($view.body_radius, radius);
            let reach = _mm256_add_ps($view.separation, bodies);
            let close = _mm256_cmp_ps::<_CMP_LT_OQ>(d2, _mm256_mul_ps(reach, reach));
            (close, bodies)
        } else {
            let close = _mm256_cmp_ps::<_CMP_LT_OQ>(d2, $view.separation2);
            (close, $view.body_radius)
        };
        if _mm256_movemask_ps(close) != 0 {
            let on_spot = _mm256_and_ps(close, _mm256_cmp_ps::<_CMP_EQ_OQ>(d2, zero));
            $sums.on_spot = _mm256_add_ps($sums.on_spot, _mm256_and_ps(one, on_spot));
            let pushes = _mm256_and_ps(seen, close);
            if _mm256_movemask_ps(pushes) != 0 {
                let d = distance.unwrap_or_else(|| _mm256_sqrt_ps(d2));
                let inverse_d = _mm256_div_ps(one, d);
                // `push_strength`, operation for operation.
                let inverse_separation = $view.inverse_separation;
                let scale = _mm256_add_ps(one, _mm256_mul_ps(bodies, inverse_separation));
                let k = _mm256_min_ps(
                    _mm256_sub_ps(_mm256_mul_ps(scale, inverse_d), inverse_separation),
                    inverse_d,
                );
                let (push_x, push_y) = (_mm256_mul_ps(dx, k), _mm256_mul_ps(dy, k));
                $sums.push_x = _mm256_sub_ps($sums.push_x, _mm256_and_ps(push_x, pushes));
                $sums.push_y = _mm256_sub_ps($sums.push_y, _mm256_and_ps(push_y, pushes));
                $sums.pushers = _mm256_add_ps($sums.pushers, _mm256_and_ps(one, pushes));
            }
        }
    }};
}

/// Every candidate of `columns` added to `$sums`, eight at a time, the
/// last few padded; a macro for the same reason as `add_eight!`.
macro_rules! add_all {
    ($view:expr, $sums:expr, $columns:expr, $radii:expr, $shift:expr,
     $check_velocities:expr, $with_radii:expr) => {{
        let [xs, ys, vxs, vys]: [&[f32]; 4] = $columns;
        let radii: &[f32] = $radii;
        let (x_chunks, x_rest) = xs.as_chunks::<8>();
        let (y_chunks, y_rest) = ys.as_chunks::<8>();
        let (vx_chunks, vx_rest) = vxs.as_chunks::<8>();
        let (vy_chunks, vy_rest) = vys.as_chunks::<8>();
        let (r_chunks, r_rest) = radii.as_chunks::<8>();
        let mut r_chunks = r_chunks.iter();
        let chunks = x_chunks.iter().zip(y_chunks).zip(vx_chunks).zip(vy_chunks);
        for (((x, y), vx), vy) in chunks {
            let r = match r_chunks.next() {
                Some(r) => load(r),
                None => _mm256_setzero_ps(),
            };
            add_eight!(
                $view,
                $sums,
                [load(x), load(y), load(vx), load(vy), r],
                $shift,
                $check_velocities,
                $with_radii
            );
        }
        if !x_rest.is_empty() {
            // The last few, padded with candidates at NaN, never in reach:
            // loaded under a mask, so nothing past the columns is read.
            // (The columns are as long as each other, the radii too when
            // there are any; the shortest is taken all the same.)
            let len = [x_rest, y_rest, vx_rest, vy_rest, r_rest]
                .iter()
                .filter(|rest| !rest.is_empty())
                .map(|rest| rest.len())
                .min()
                .unwrap_or(0);
            let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(len as i32), lane);
            let nan = _mm256_set1_ps(f32::NAN);
            // SAFETY: the mask takes the first `len` lanes, and every rest
            // read is at least that long (the radii are read only if there
            // are any).
            let (x, y, vx, vy, r) = unsafe {
                (
                    _mm256_blendv_ps(
                        nan,
                        _mm256_maskload_ps(x_rest.as_ptr(), mask),
                        _mm256_castsi256_ps(mask),
                    ),
                    _mm256_blendv_ps(
                        nan,
                        _mm256_maskload_ps(y_rest.as_ptr(), mask),
                        _mm256_castsi256_ps(mask),
                    ),
                    _mm256_maskload_ps(vx_rest.as_ptr(), mask),
                    _mm256_maskload_ps(vy_rest.as_ptr(), mask),
                    if r_rest.is_empty() {
                        _mm256_setzero_ps()
                    } else {
                        _mm256_maskload_ps(r_rest.as_ptr(), mask)
                    },
                )
            };
            add_eight!(
                $view,
                $sums,
                [x, y, vx, vy, r],
                $shift,
                $check_velocities,
                $with_radii
            );
        }
    }};
}

/// A view's numbers, each in all eight lanes.
struct View {
    has_view_cone: bool,
    heading_x: __m256,
    heading_y: __m256,
    min_cos: __m256,
    separation: __m256,
    body_radius: __m256,
    separation2: __m256,
    neighbor2: __m256,
    inverse_separation: __m256,
}

impl View {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn of_lanes(view: &LaneView<2>) -> Self {
        let both = |v: f32x4| {
            let v = __m128::from(v);
            _mm256_set_m128(v, v)
        };
        Self {
            has_view_cone: view.has_view_cone,
            heading_x: both(view.heading[0]),
            heading_y: both(view.heading[1]),
            min_cos: both(view.min_cos),
            separation: both(view.separation),
            body_radius: both(view.body_radius),
            separation2: both(view.separation2),
            neighbor2: both(view.neighbor2),
            inverse_separation: both(view.inverse_separation),
        }
    }

    /// The same numbers as [`LaneView`]'s, straight from the view.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn of(view: &FlockView) -> Self {
        Self {
            has_view_cone: view.min_cos != f32::NEG_INFINITY,
            heading_x: _mm256_set1_ps(view.heading.x),
            heading_y: _mm256_set1_ps(view.heading.y),
            min_cos: _mm256_set1_ps(view.min_cos),
            separation: _mm256_set1_ps(view.separation_radius),
            body_radius: _mm256_set1_ps(view.body_radius),
            separation2: _mm256_set1_ps(view.separation_radius_squared),
            neighbor2: _mm256_set1_ps(view.neighbor_radius_squared),
            inverse_separation: _mm256_set1_ps(view.inverse_separation_radius),
        }
    }
}

impl FlockBatch {
    /// [`FlockBatch::add_block`]'s work, eight at a time: `columns` are x,
    /// y, velocity x and y, all as long; `radii` is as long or empty.
    #[target_feature(enable = "avx2")]
    pub(super) fn add_eights<const CHECK_VELOCITIES: bool, const RADII: bool>(
        &mut self,
        columns: [&[f32]; 4],
        radii: &[f32],
        shift: Vec2,
    ) {
        let join = |pick: fn(&LaneSums<2>) -> f32x4| {
            let [low, high] = &self.halves;
            _mm256_set_m128(pick(high).into(), pick(low).into())
        };
        let mut sums = Sums {
            push_x: join(|s| s.push[0]),
            push_y: join(|s| s.push[1]),
            pushers: join(|s| s.pushers),
            vel_x: join(|s| s.vel[0]),
            vel_y: join(|s| s.vel[1]),
            offset_x: join(|s| s.offset[0]),
            offset_y: join(|s| s.offset[1]),
            neighbors: join(|s| s.neighbors),
            on_spot: join(|s| s.on_spot),
        };
        let view = View::of_lanes(&self.view);
        add_all!(view, sums, columns, radii, shift, CHECK_VELOCITIES, RADII);
        let split = |v: __m256| -> [f32x4; 2] {
            [
                _mm256_castps256_ps128(v).into(),
                _mm256_extractf128_ps::<1>(v).into(),
            ]
        };
        for (half, s) in self.halves.iter_mut().enumerate() {
            s.push = [split(sums.push_x)[half], split(sums.push_y)[half]];
            s.pushers = split(sums.pushers)[half];
            s.vel = [split(sums.vel_x)[half], split(sums.vel_y)[half]];
            s.offset = [split(sums.offset_x)[half], split(sums.offset_y)[half]];
            s.neighbors = split(sums.neighbors)[half];
            s.on_spot = split(sums.on_spot)[half];
        }
    }
}

/// [`FlockSums::of_finite_runs`]'s work, eight at a time, the sums kept in
/// registers from the first candidate to the total: what a new
/// [`FlockBatch`] given the runs and finished makes, to the bit.
#[target_feature(enable = "avx2")]
pub(super) fn sums_of_runs<const CHECK_VELOCITIES: bool, const RADII: bool>(
    view: &FlockView,
    candidates: NeighborBlock,
    runs: &[(Range<usize>, Vec2)],
) -> FlockSums {
    let zero = _mm256_setzero_ps();
    let mut sums = Sums {
        push_x: zero,
        push_y: zero,
        pushers: zero,
        vel_x: zero,
        vel_y: zero,
        offset_x: zero,
        offset_y: zero,
        neighbors: zero,
        on_spot: zero,
    };
    let view = View::of(view);
    let n = candidates.len();
    let [xs, ys, vxs, vys] = [candidates.xs, candidates.ys, candidates.vxs, candidates.vys];
    let (xs, ys, vxs, vys) = (&xs[..n], &ys[..n], &vxs[..n], &vys[..n]);
    let radii = match candidates.radii {
        Some(radii) if RADII => &radii[..n],
        _ => &[],
    };
    for (range, shift) in runs {
        let range = super::clamped(range, n);
        let columns = [
            &xs[range.clone()],
            &ys[range.clone()],
            &vxs[range.clone()],
            &vys[range.clone()],
        ];
        let radii = if RADII { &radii[range] } else { &[][..] };
        add_all!(view, sums, columns, radii, *shift, CHECK_VELOCITIES, RADII);
    }
    // Lanes 0 to 3 are the low half, as in `FlockBatch::finish`.
    let lanes = |v: __m256| {
        let (low, high) = (_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        total(low.into(), high.into())
    };
    FlockSums {
        push: Vec2::new(lanes(sums.push_x), lanes(sums.push_y)),
        pushers: lanes(sums.pushers) as u32,
        velocity: Vec2::new(lanes(sums.vel_x), lanes(sums.vel_y)),
        offset: Vec2::new(lanes(sums.offset_x), lanes(sums.offset_y)),
        neighbors: lanes(sums.neighbors) as u32,
        on_spot: lanes(sums.on_spot) as u32,
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(lanes: &[f32; 8]) -> __m256 {
    let &[a, b, c, d, e, f, g, h] = lanes;
    _mm256_setr_ps(a, b, c, d, e, f, g, h)
}
