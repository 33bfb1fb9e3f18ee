//! For each cell of the obstacle grid, the shapes a probe starting there
//! could touch ([`ReachLists`]): one short list, each shape once, nearest
//! the cell first and four to a cache line, instead of every cell a probe
//! crosses, a shape once for each cell it is in.

use bevy::prelude::*;

use super::index::{LANES, Lanes};
use crate::neighbors::floor;

/// For each cell of a grid, every shape whose bounding circle comes within
/// `reach` of the cell: all that a probe from a point in the cell, as long
/// and as wide as `reach` all told, could touch. Each list is a run of
/// [`Block`]s, its shapes sorted by how far they are from the cell, so a
/// short probe stops early.
#[derive(Debug, Default)]
pub(super) struct ReachLists {
    /// How far the probes they serve may reach (0: there are none).
    pub(super) reach: f32,
    cell: f32,
    origin: IVec2,
    size: IVec2,
    /// Cell `c`'s list is blocks `starts[c]..starts[c + 1]`.
    starts: Vec<u32>,
    blocks: Vec<Block>,
}

/// Four shapes of a list, as a probe tests them at once: their bounding
/// circles and numbers, in one cache line (each agent reads the list of
/// wherever it is, in no order a cache can guess).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Block {
    x: [f32; LANES],
    y: [f32; LANES],
    radius: [f32; LANES],
    shape: [u32; LANES],
}

impl Block {
    /// Lanes past a list's last shape: a bounding circle at NaN, which no
    /// probe passes near.
    const EMPTY: Self = Self {
        x: [f32::NAN; LANES],
        y: [f32::NAN; LANES],
        radius: [0.0; LANES],
        shape: [u32::MAX; LANES],
    };
}

/// How far the bounding circle round `center` is from the cell whose
/// corner nearest the origin is `min`: the lists' order, worked out the
/// same way when they are made and read.
#[inline]
fn gap(min: Vec2, cell: f32, center: Vec2, radius: f32) -> f32 {
    let outside = (min - center).max(center - (min + cell)).max(Vec2::ZERO);
    outside.length() - radius
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
        self.blocks.clear();
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
        let corner = |c: IVec2| (origin + c).as_vec2() * cell;
        // Count each cell's shapes, lay the counts end to end, put each
        // shape (with how far it is from the cell) in its cells' places.
        let mut first = vec![0usize; cells + 1];
        for (_, bounds, _) in shapes.clone() {
            if let Some((lo, hi)) = listed_in(bounds) {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        first[(y * size.x + x) as usize + 1] += 1;
                    }
                }
            }
        }
        for c in 0..cells {
            first[c + 1] += first[c];
        }
        let mut next = first[..cells].to_vec();
        let mut entries = vec![(0.0, 0, Vec2::ZERO, 0.0); first[cells]];
        for (i, bounds, (center, radius)) in shapes {
            if let Some((lo, hi)) = listed_in(bounds) {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        let c = (y * size.x + x) as usize;
                        let far = gap(corner(IVec2::new(x, y)), cell, center, radius);
                        entries[next[c]] = (far, i, center, radius);
                        next[c] += 1;
                    }
                }
            }
        }
        // Each cell's list, nearest first, four to a block.
        self.starts.reserve(cells + 1);
        self.starts.push(0);
        for c in 0..cells {
            let list = &mut entries[first[c]..first[c + 1]];
            list.sort_by(|a, b| a.0.total_cmp(&b.0));
            for four in list.chunks(LANES) {
                let mut block = Block::EMPTY;
                for (lane, &(_, i, center, radius)) in four.iter().enumerate() {
                    (block.x[lane], block.y[lane]) = (center.x, center.y);
                    (block.radius[lane], block.shape[lane]) = (radius, i);
                }
                self.blocks.push(block);
            }
            self.starts.push(self.blocks.len() as u32);
        }
    }

    /// The blocks of the list of the cell `from` is in, and that cell's
    /// corner nearest the origin, if there are lists and they serve a probe
    /// reaching `reach` from there.
    fn list(&self, from: Vec2, reach: f32) -> Option<(&[Block], Vec2)> {
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
        let corner = (self.origin + c.as_ivec2()).as_vec2() * self.cell;
        let c = (c.y * self.size.x as u32 + c.x) as usize;
        let blocks = &self.blocks[self.starts[c] as usize..self.starts[c + 1] as usize];
        Some((blocks, corner))
    }

    /// Whether there is a list for a probe from `from` reaching `reach`.
    #[cfg(test)]
    pub(super) fn serves(&self, from: Vec2, reach: f32) -> bool {
        self.list(from, reach).is_some()
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
        let Some((blocks, corner)) = self.list(from, length + reach) else {
            return false;
        };
        let (from_x, from_y) = (Lanes::splat(from.x), Lanes::splat(from.y));
        let (dir_x, dir_y) = (Lanes::splat(dir.x), Lanes::splat(dir.y));
        // What a probe this long and wide passes near is no farther from
        // the cell than this (and rounding).
        let farthest = (length + reach) * (1.0 + 1e-3) + 1e-4 * from.abs().max_element() + 1e-2;
        let (zero, length) = (Lanes::ZERO, Lanes::splat(length));
        for block in blocks {
            // The block's first shape is its nearest, and the next
            // blocks' are no nearer.
            let first = Vec2::new(block.x[0], block.y[0]);
            if gap(corner, self.cell, first, block.radius[0]) > farthest {
                break;
            }
            let to_x = Lanes::new(block.x) - from_x;
            let to_y = Lanes::new(block.y) - from_y;
            // The nearest the segment comes to each centre.
            let along = (to_x * dir_x + to_y * dir_y).max(zero).min(length);
            let (off_x, off_y) = (to_x - dir_x * along, to_y - dir_y * along);
            let within = Lanes::new(block.radius) + Lanes::splat(reach);
            let mut near = (off_x * off_x + off_y * off_y)
                .simd_le(within * within)
                .to_bitmask();
            while near != 0 {
                let lane = near.trailing_zeros() as usize;
                near &= near - 1;
                each(block.shape[lane]);
            }
        }
        true
    }
}
