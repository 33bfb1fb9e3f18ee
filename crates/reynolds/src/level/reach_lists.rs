//! For each cell of the obstacle grid, the shapes a probe starting there
//! could touch ([`ReachLists`]): one short list, each shape once, nearest
//! the cell first and four to a cache line, instead of every cell a probe
//! crosses, a shape once for each cell it is in.

use glam::{IVec2, Vec2};

use super::nearby::{LANES, Lanes};
use crate::spatial::{Buckets, Cells};

/// For each cell of a grid, every shape whose bounding circle comes within
/// `reach` of the cell: all that a probe from a point in the cell, as long
/// and as wide as `reach` all told, could touch. Each list is a run of
/// [`Block`]s, its shapes sorted by how far they are from the cell, so a
/// short probe stops early.
#[derive(Debug, Default)]
pub(super) struct ReachLists {
    /// How far the probes they serve may reach (0: there are none).
    pub(super) reach: f32,
    /// The grid's cells (counted from the world's origin) and the one in
    /// its corner.
    cells: Cells,
    first: IVec2,
    /// Cell `c`'s list is blocks `starts[c]..starts[c + 1]`.
    starts: Vec<u32>,
    blocks: Vec<Block>,
    /// Each cell's shapes, with how far each is from it, while building.
    entries: Buckets<Entry>,
}

/// A shape of a cell's list, while the lists are built: how far it is from
/// the cell, its number and its bounding circle.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    gap: f32,
    shape: u32,
    center: Vec2,
    radius: f32,
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
        (cells, first): (Cells, IVec2),
        shapes: impl Iterator<Item = (u32, (Vec2, Vec2), (Vec2, f32))> + Clone,
    ) {
        (self.cells, self.first) = (cells, first);
        self.reach = if reach.is_finite() && !cells.is_empty() {
            reach.max(0.0)
        } else {
            0.0
        };
        self.starts.clear();
        self.blocks.clear();
        if self.reach == 0.0 {
            return;
        }
        let size = IVec2::new(cells.cols as i32, cells.rows as i32);
        // The cells a shape is listed in: its bounds, padded by the reach
        // and what rounding could add, on the grid.
        let listed_in = |(min, max): (Vec2, Vec2)| {
            let pad =
                self.reach * (1.0 + 1e-3) + 1e-4 * min.abs().max(max.abs()).max_element() + 1e-2;
            let (lo, hi) = (min - pad, max + pad);
            if !((lo / cells.size).is_finite() && (hi / cells.size).is_finite()) {
                return None;
            }
            let cell = |p: Vec2| {
                let (x, y) = cells.coords(p);
                IVec2::new(x as i32, y as i32) - first
            };
            let (lo, hi) = (cell(lo).max(IVec2::ZERO), cell(hi).min(size - 1));
            (lo.x <= hi.x && lo.y <= hi.y).then_some((lo, hi))
        };
        // Each shape, with how far it is from the cell, in every cell it is
        // listed in.
        let entries = shapes.flat_map(|(shape, bounds, (center, radius))| {
            listed_in(bounds).into_iter().flat_map(move |(lo, hi)| {
                (lo.y..=hi.y).flat_map(move |y| {
                    (lo.x..=hi.x).map(move |x| {
                        let corner = cells.corner((first.x + x) as i64, (first.y + y) as i64);
                        let entry = Entry {
                            gap: gap(corner, cells.size.x, center, radius),
                            shape,
                            center,
                            radius,
                        };
                        (cells.index(x as usize, y as usize), entry)
                    })
                })
            })
        });
        self.entries.sort(cells.len(), entries);
        // Each cell's list, nearest first, four to a block.
        self.starts.reserve(cells.len() + 1);
        self.starts.push(0);
        for c in 0..cells.len() {
            let list = self.entries.of_mut(c);
            list.sort_by(|a, b| a.gap.total_cmp(&b.gap));
            for four in list.chunks(LANES) {
                let mut block = Block::EMPTY;
                for (lane, entry) in four.iter().enumerate() {
                    (block.x[lane], block.y[lane]) = (entry.center.x, entry.center.y);
                    (block.radius[lane], block.shape[lane]) = (entry.radius, entry.shape);
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
        let size = IVec2::new(self.cells.cols as i32, self.cells.rows as i32);
        let at = from / self.cells.size - self.first.as_vec2();
        let inside = at.cmpge(Vec2::ZERO).all() && at.cmplt(size.as_vec2()).all();
        // (False for a NaN.)
        if !(inside && reach <= self.reach) {
            return None;
        }
        let c = at.as_uvec2();
        let corner = (self.first + c.as_ivec2()).as_vec2() * self.cells.size;
        let c = self.cells.index(c.x as usize, c.y as usize);
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
            if gap(corner, self.cells.size.x, first, block.radius[0]) > farthest {
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
