//! Passes over agents that go parallel only when it pays.
//! A parallel query hands batches to the other threads of Bevy's compute
//! pool, which costs a wake-up each (tens of microseconds on a busy
//! machine, more than stepping a few hundred agents costs): below a pass's
//! [`Pass::parallel_from`] agents it runs on the thread its system runs on.
//! A pass over a contiguous query's columns as slices (each table a
//! [`Chunks`], split by [`for_each_table_chunk!`], its writes through
//! [`Written`]) splits the same way.

use bevy::ecs::batching::BatchingStrategy;
use bevy::ecs::change_detection::{ContiguousComponentTicksMut, Tick};
use bevy::ecs::query::{ArchetypeFilter, IterQueryData, QueryItem};
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use reynolds::spatial::Tasks;

/// How a pass over agents splits between threads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    /// The fewest agents it splits between threads.
    pub(crate) parallel_from: usize,
    /// Into how many batches a thread (more balance the load when agents
    /// cost unequally; each batch costs a task).
    batches_per_thread: usize,
}

/// A column's values and their ticks, from a contiguous query.
pub(crate) type Column<'w, T> = (&'w mut [T], ContiguousComponentTicksMut<'w>);

/// A pass of a few dozen nanoseconds an agent, all alike: parallel from
/// 1,024 agents, one batch a thread.
pub(crate) const CHEAP: Pass = Pass {
    parallel_from: 1024,
    batches_per_thread: 1,
};

/// Obstacle avoidance: about a microsecond an agent, but ten times that
/// for one that must find a way round: parallel from 128 agents, in eight
/// batches a thread so that one crowded batch does not keep the others
/// waiting (see BENCHMARKS.md).
pub(crate) const COSTLY: Pass = Pass {
    parallel_from: 128,
    batches_per_thread: 8,
};

/// `f` on every item of `query`, each thread's items sharing one `T` from
/// `init`: in parallel from `pass.parallel_from` items, else in order on
/// this thread. Keep `T` small: Bevy's parallel `for_each_init` moves it
/// from one item to the next (a scratch of kilobytes belongs in a
/// thread-local, as avoidance's does).
pub(crate) fn for_each_init<D, F, T>(
    pass: Pass,
    query: &mut Query<D, F>,
    init: impl Fn() -> T + Send + Sync + Clone,
    f: impl Fn(&mut T, QueryItem<'_, '_, D>) + Send + Sync + Clone,
) where
    D: IterQueryData,
    F: ArchetypeFilter,
{
    if query.count() < pass.parallel_from {
        let mut state = init();
        for item in query.iter_mut() {
            f(&mut state, item);
        }
    } else {
        query
            .par_iter_mut()
            .batching_strategy(BatchingStrategy::new().batches_per_thread(pass.batches_per_thread))
            .for_each_init(init, f);
    }
}

/// [`for_each_init`] with nothing shared.
pub(crate) fn for_each<D, F>(
    pass: Pass,
    query: &mut Query<D, F>,
    f: impl Fn(QueryItem<'_, '_, D>) + Send + Sync + Clone,
) where
    D: IterQueryData,
    F: ArchetypeFilter,
{
    for_each_init(pass, query, || (), move |_, item| f(item));
}

/// How many agents each task of `pass` takes, of `total` in all: `None`
/// below [`Pass::parallel_from`] (all on this thread), else an even share
/// of each thread's batches.
pub(crate) fn task_len(pass: Pass, total: usize) -> Option<usize> {
    let threads = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num().max(1));
    (total >= pass.parallel_from && threads > 1)
        .then(|| total.div_ceil(threads * pass.batches_per_thread).max(1))
}

/// `f` on each chunk: in parallel, each a task of Bevy's compute pool
/// (this thread taking its share), or all on this thread.
pub(crate) fn for_each_chunk<C: Send>(
    parallel: bool,
    chunks: impl Iterator<Item = C>,
    f: impl Fn(C) + Sync,
) {
    match ComputeTaskPool::try_get() {
        Some(pool) if parallel => {
            let f = &f;
            pool.scope(|scope| {
                for chunk in chunks {
                    scope.spawn(async move { f(chunk) });
                }
            });
        }
        _ => chunks.for_each(f),
    }
}

/// How many tables [`for_each_table_chunk!`] splits between threads at once.
pub(crate) const TABLES: usize = 8;

/// One table of a contiguous query, as a pass splits it between threads.
pub(crate) trait Chunks {
    /// A run of the table's agents: the same columns, shorter.
    type Chunk<'a>: Send
    where
        Self: 'a;

    /// The table's agents in chunks of `len` (the last shorter).
    fn chunks(&mut self, len: usize) -> impl Iterator<Item = Self::Chunk<'_>>;
}

/// `for_each_table_chunk!(pass, total, tables, f)`: `f` on every chunk of
/// every table of `tables` (of [`Chunks`]), which hold `total` agents:
/// [`task_len`] agents a task, the tables [`TABLES`] at a time in one scope
/// (a scope a table would wake the other threads once a table); below
/// [`Pass::parallel_from`], all on this thread.
///
/// A macro, not a function: a function would take `f` for chunks of any
/// lifetime, which a table's chunks (borrowing the table) cannot be.
macro_rules! for_each_table_chunk {
    ($pass:expr, $total:expr, $tables:expr, $f:expr $(,)?) => {{
        let len = $crate::parallel::task_len($pass, $total);
        let mut tables = $tables;
        loop {
            let mut some: [Option<_>; $crate::parallel::TABLES] =
                std::array::from_fn(|_| tables.next());
            if some[0].is_none() {
                break;
            }
            let chunks = some.iter_mut().flatten().flat_map(|table| {
                $crate::parallel::Chunks::chunks(table, len.unwrap_or(usize::MAX))
            });
            $crate::parallel::for_each_chunk(len.is_some(), chunks, $f);
        }
    }};
}
pub(crate) use for_each_table_chunk;

/// One table's values of a component a pass writes, with their change
/// ticks, from a contiguous query: a value written with
/// [`set`](Self::set) is marked changed, as a write through `Mut` is, and
/// one left alone is not. (Where a game enables Bevy's `track_location`,
/// the place recorded as the last change's is left as it was.)
pub(crate) struct Written<'a, T> {
    values: &'a mut [T],
    changed: &'a mut [Tick],
    this_run: Tick,
}

impl<'a, T> Written<'a, T> {
    /// `values` and their `ticks`, the two halves of
    /// [`ContiguousMut::bypass_change_detection_split`](bevy::ecs::change_detection::ContiguousMut::bypass_change_detection_split).
    pub(crate) fn new(values: &'a mut [T], ticks: &'a mut ContiguousComponentTicksMut<'_>) -> Self {
        let this_run = ticks.this_run();
        Self {
            values,
            changed: ticks.changed_mut(),
            this_run,
        }
    }

    /// The values, to read.
    #[inline]
    pub(crate) fn get(&self) -> &[T] {
        self.values
    }

    /// Writes value `i` and marks it changed.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, value: T) {
        self.values[i] = value;
        self.changed[i] = self.this_run;
    }

    /// Value `i`, to change in place: marked changed.
    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut T {
        self.changed[i] = self.this_run;
        &mut self.values[i]
    }

    /// Values `range`, to write: a view whose indices start at 0 (one
    /// bounds check for a run of agents rather than two a write).
    #[inline]
    pub(crate) fn run(&mut self, range: std::ops::Range<usize>) -> Written<'_, T> {
        Written {
            values: &mut self.values[range.clone()],
            changed: &mut self.changed[range],
            this_run: self.this_run,
        }
    }

    /// Chunks of `len` values (the last shorter).
    pub(crate) fn into_chunks(self, len: usize) -> impl Iterator<Item = Written<'a, T>> {
        let this_run = self.this_run;
        self.values
            .chunks_mut(len)
            .zip(self.changed.chunks_mut(len))
            .map(move |(values, changed)| Written {
                values,
                changed,
                this_run,
            })
    }
}

/// Bevy's compute pool, to the core's grids: its threads when a pass of
/// `agents` splits by [`CHEAP`]'s rule, else this one.
pub(crate) struct ComputePool {
    threads: usize,
}

impl ComputePool {
    /// The pool, for a pass over `agents`.
    pub(crate) fn for_agents(agents: usize) -> Self {
        let threads = match task_len(CHEAP, agents) {
            Some(_) => ComputeTaskPool::get().thread_num(),
            None => 1,
        };
        Self { threads }
    }
}

impl Tasks for ComputePool {
    fn threads(&self) -> usize {
        self.threads
    }

    fn for_each<C: Send>(&self, chunks: impl Iterator<Item = C>, f: impl Fn(C) + Sync) {
        for_each_chunk(self.threads > 1, chunks, f);
    }
}
