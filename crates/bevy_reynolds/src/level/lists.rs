//! For each cell of the obstacle grid, the shapes a probe starting there
//! could touch ([`ReachLists`]): one short list, each shape once, tested
//! eight at a time, instead of every cell a probe crosses, a shape once
//! for each cell it is in.

use bevy::prelude::*;
use wide::f32x8;

use super::index::{LANES, load};
use crate::neighbors::floor;

/// For each cell of a grid, every shape whose bounding circle comes within
/// `reach` of the cell: all that a probe from a point in the cell, as long
/// and as wide as `reach` all told, could touch. Each list is a run of
/// lanes (a multiple of eight; the lanes past its last shape never pass).
#[derive(Debug, Default)]
pub(super) struct ReachLists {
    /// How far the probes they serve may reach (0: there are none).
    pub(super) reach: f32,
    cell: f32,
    origin: IVec2,
    size: IVec2,
    /// Cell `c`'s list is lanes `starts[c]..starts[c + 1]`.
    starts: Vec<u32>,
    /// Each lane's bounding circle, and its shape's number.
    x: Vec<f32>,
    y: Vec<f32>,
    radius: Vec<f32>,
    shape: Vec<u32>,
}

impl ReachLists {
    /// Makes the lists of the grid of `size` cells of `cell` from cell
    /// `origin`, for probes reaching `reach`, from each shape's number,
    /// bounds and (padded) bounding circle. No lists if `reach` is not
    /// positive.
    pub(super) fn build(
        &mut self,
        reach: f32,
        (cell, origin, size): (f32, IVec2, IVec2),
        shapes: impl Iterator<Item = (u32, (Vec2, Vec2), (Vec2, f32))> + Clone,
    ) {
        (self.cell, self.origin, self.size) = (cell, origin, size);
        self.reach = if reach.is_finite() && size.x > 0 {
            reach.max(0.0)
        } else {
            0.0
        };
        self.starts.clear();
        for lanes in [&mut self.x, &mut self.y, &mut self.radius] {
            lanes.clear();
        }
        self.shape.clear();
        if self.reach == 0.0 {
            return;
        }
        let cells = (size.x * size.y) as usize;
        // The cells a shape is listed in: its bounds, padded by the reach
        // and what rounding could add, on the grid.
        let listed_in = |(min, max): (Vec2, Vec2)| {
            let pad =
                self.reach * (1.0 + 1e-3) + 1e-4 * min.abs().max(max.abs()).max_element() + 1e-2;
            let (lo, hi) = ((min - pad) / cell, (max + pad) / cell);
            if !(lo.is_finite() && hi.is_finite()) {
                return None;
            }
            let lo = IVec2::new(floor(lo.x) as i32, floor(lo.y) as i32) - origin;
            let hi = IVec2::new(floor(hi.x) as i32, floor(hi.y) as i32) - origin;
            let (lo, hi) = (lo.max(IVec2::ZERO), hi.min(size - 1));
            (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
        };
        // Count, pad each count to whole lanes, lay them end to end, fill.
        let mut counts = vec![0u32; cells];
        for (_, bounds, _) in shapes.clone() {
            if let Some((lo, hi)) = listed_in(bounds) {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        counts[(y * size.x + x) as usize] += 1;
                    }
                }
            }
        }
        self.starts.reserve(cells + 1);
        self.starts.push(0);
        for count in &mut counts {
            let start = *self.starts.last().expect("pushed") as usize;
            self.starts
                .push((start + (*count as usize).next_multiple_of(LANES)) as u32);
            // From here on, where the cell's next shape goes.
            *count = start as u32;
        }
        let lanes = *self.starts.last().expect("pushed") as usize;
        // Empty lanes: a bounding circle at NaN, which no probe passes near.
        self.x.resize(lanes, f32::NAN);
        self.y.resize(lanes, f32::NAN);
        self.radius.resize(lanes, 0.0);
        self.shape.resize(lanes, u32::MAX);
        for (i, bounds, (center, radius)) in shapes {
            if let Some((lo, hi)) = listed_in(bounds) {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        let next = &mut counts[(y * size.x + x) as usize];
                        let lane = *next as usize;
                        (self.x[lane], self.y[lane]) = (center.x, center.y);
                        self.radius[lane] = radius;
                        self.shape[lane] = i;
                        *next += 1;
                    }
                }
            }
        }
    }

    /// The lanes of the list of the cell `from` is in, if there are lists
    /// and they serve a probe reaching `reach` from there.
    fn lanes(&self, from: Vec2, reach: f32) -> Option<std::ops::Range<usize>> {
        // Its place in the grid, in cells. (Rounded to the cell beside at a
        // cell's edge, it is still within reach of that cell's list: the
        // lists are padded.)
        let at = from / self.cell - self.origin.as_vec2();
        let inside = at.cmpge(Vec2::ZERO).all() && at.cmplt(self.size.as_vec2()).all();
        // (False for a NaN.)
        if !(inside && reach <= self.reach) {
            return None;
        }
        let c = at.as_uvec2();
        let c = (c.y * self.size.x as u32 + c.x) as usize;
        Some(self.starts[c] as usize..self.starts[c + 1] as usize)
    }

    /// Whether there is a list for a probe from `from` reaching `reach`.
    #[cfg(test)]
    pub(super) fn serves(&self, from: Vec2, reach: f32) -> bool {
        self.lanes(from, reach).is_some()
    }

    /// Whether there is a list for a body swept from `from` along the unit
    /// vector `dir` as far as `length`, `reach` wide with the body and
    /// rounding: then `each` is given every shape in it whose bounding
    /// circle the swept body comes within `reach` of (a shape a point
    /// `reach` round `from` could touch, for a `length` of 0).
    pub(super) fn passing(
        &self,
        (from, dir, length): (Vec2, Vec2, f32),
        reach: f32,
        mut each: impl FnMut(u32),
    ) -> bool {
        let Some(lanes) = self.lanes(from, length + reach) else {
            return false;
        };
        let (from_x, from_y) = (f32x8::splat(from.x), f32x8::splat(from.y));
        let (dir_x, dir_y) = (f32x8::splat(dir.x), f32x8::splat(dir.y));
        let (zero, length) = (f32x8::ZERO, f32x8::splat(length));
        for start in lanes.step_by(LANES) {
            let to_x = load(&self.x, start) - from_x;
            let to_y = load(&self.y, start) - from_y;
            // The nearest the segment comes to each centre.
            let along = (to_x * dir_x + to_y * dir_y).max(zero).min(length);
            let (off_x, off_y) = (to_x - dir_x * along, to_y - dir_y * along);
            let within = load(&self.radius, start) + f32x8::splat(reach);
            let mut near = (off_x * off_x + off_y * off_y)
                .simd_le(within * within)
                .to_bitmask();
            while near != 0 {
                let lane = near.trailing_zeros() as usize;
                near &= near - 1;
                each(self.shape[start + lane]);
            }
        }
        true
    }
}
