//! Uniform grids: the plane cut into equal cells ([`Cells`]) and what lies
//! in each, sorted by cell with one counting sort ([`Buckets`]). The
//! [`NeighborGrid`] keeps agents, one cell each, for neighbor queries (the
//! flock weighs its neighbors over it); the level's `ShapeIndex` keeps its
//! shapes on the same cells. The [`VolumeGrid`] keeps agents in 3D, in
//! boxes. All are generic over the id of what they store ([`Id`]). A leaf:
//! it knows nothing of what it indexes.

mod neighbors;
mod volume;

use std::ops::Range;

use glam::Vec2;

#[cfg(test)]
pub(crate) use neighbors::MAX_CELLS;
pub use neighbors::{GridAgent, NO_TAG, NeighborGrid};
pub(crate) use neighbors::{MOST_RUNS, NO_RUN};
pub(crate) use volume::MOST_RUNS as MOST_BOX_RUNS;
pub use volume::{Boxes, VolumeGrid};

/// What a grid stores of each thing it holds: a copyable id with a small
/// index of its own (an entity's index, say), by which the grid finds it
/// again.
pub trait Id: Copy + PartialEq + Send + Sync {
    /// A small number of its own: ids alive at once have different ones.
    fn index(self) -> usize;

    /// Every bit of it, as one number: two agents on one spot part in the
    /// directions these make (the flock's `tie_break`).
    fn to_bits(self) -> u64;
}

impl Id for u32 {
    fn index(self) -> usize {
        self as usize
    }

    fn to_bits(self) -> u64 {
        u64::from(self)
    }
}

/// Work split into chunks, run on one thread ([`OneThread`]) or several
/// (an engine's task pool): how a grid sorts in parallel without knowing
/// whose threads it runs on.
pub trait Tasks {
    /// How many threads the chunks may run on.
    fn threads(&self) -> usize;

    /// `f` on every chunk, in any order, perhaps on several threads at once.
    fn for_each<C: Send>(&self, chunks: impl Iterator<Item = C>, f: impl Fn(C) + Sync);
}

/// Runs every chunk in turn, on this thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct OneThread;

impl Tasks for OneThread {
    fn threads(&self) -> usize {
        1
    }

    fn for_each<C: Send>(&self, chunks: impl Iterator<Item = C>, f: impl Fn(C) + Sync) {
        chunks.for_each(f);
    }
}

/// A rectangle of `cols × rows` equal cells from `origin`, each `size`
/// wide and tall, in rows (x fastest): cell `(x, y)` is number
/// `y * cols + x`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cells {
    /// The corner of cell `(0, 0)` nearest negative infinity.
    pub origin: Vec2,
    /// A cell's width and height.
    pub size: Vec2,
    /// Cells along x.
    pub cols: usize,
    /// Cells along y.
    pub rows: usize,
}

impl Cells {
    /// How many cells there are.
    pub fn len(&self) -> usize {
        self.cols * self.rows
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column and row `p` is in, counted from `origin` (outside the
    /// rectangle too, or saturated far out; 0 for NaN).
    #[inline]
    pub fn coords(&self, p: Vec2) -> (i64, i64) {
        let c = (p - self.origin) / self.size;
        // Saturating far out, 0 for NaN (a float's cast to an integer).
        (c.x.floor() as i64, c.y.floor() as i64)
    }

    /// The number of the cell at column `x` and row `y`, both inside.
    #[inline]
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.cols + x
    }

    /// The corner of cell `(x, y)` nearest negative infinity.
    #[inline]
    pub fn corner(&self, x: i64, y: i64) -> Vec2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.size
    }
}

/// Items sorted by cell: cell `c`'s are [`of(c)`](Self::of), in the order
/// they were given. Made by a counting sort (count each cell's items, lay
/// the counts end to end, put each item in its place), reusing its
/// buffers, so a grid rebuilt each step allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct Buckets<T> {
    /// Cell `c`'s items are `items[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    items: Vec<T>,
    /// Each cell's next free place, while sorting.
    next: Vec<u32>,
}

impl<T: Copy + Default> Buckets<T> {
    /// Sorts `entries`, each an item and the cell it goes in (below
    /// `cells`), into `cells` buckets. An item in several cells comes once
    /// for each. `entries` is walked twice: once to count, once to put.
    pub fn sort(&mut self, cells: usize, entries: impl Iterator<Item = (usize, T)> + Clone) {
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        for (cell, _) in entries.clone() {
            self.starts[cell + 1] += 1;
        }
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        self.items.clear();
        self.items.resize(self.starts[cells] as usize, T::default());
        self.next.clear();
        self.next.extend_from_slice(&self.starts[..cells]);
        for (cell, item) in entries {
            let place = &mut self.next[cell];
            self.items[*place as usize] = item;
            *place += 1;
        }
    }

    /// Cell `c`'s items.
    #[inline]
    pub fn of(&self, c: usize) -> &[T] {
        &self.items[self.places(c..c + 1)]
    }

    /// Cell `c`'s items, to change (or reorder) in place.
    pub fn of_mut(&mut self, c: usize) -> &mut [T] {
        let places = self.places(c..c + 1);
        &mut self.items[places]
    }

    /// Where the items of cells `cells` (consecutive) lie among
    /// [`items`](Self::items).
    #[inline]
    pub fn places(&self, cells: Range<usize>) -> Range<usize> {
        self.starts[cells.start] as usize..self.starts[cells.end] as usize
    }

    /// Every item, cell by cell.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// How many cells there are.
    pub fn cells(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The bytes its buffers hold on to.
    pub fn memory_bytes(&self) -> usize {
        self.starts.capacity() * 4
            + self.next.capacity() * 4
            + self.items.capacity() * std::mem::size_of::<T>()
    }
}
