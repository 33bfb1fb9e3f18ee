//! Passes over agents that go parallel only when it pays.
//!
//! A parallel query hands batches to the other threads of Bevy's compute
//! pool, which costs a wake-up each (tens of microseconds on a busy
//! machine, more than stepping a few hundred agents costs): below
//! [`PARALLEL_FROM`] agents (fewer for a costly pass) a pass runs on the
//! thread its system runs on.

use bevy::ecs::query::{ArchetypeFilter, IterQueryData, QueryItem};
use bevy::prelude::*;

/// The fewest agents a pass splits between threads.
pub(crate) const PARALLEL_FROM: usize = 1024;

/// The fewest agents a costly pass (obstacle avoidance: a microsecond an
/// agent) splits between threads.
pub(crate) const COSTLY_PARALLEL_FROM: usize = 128;

/// `f` on every item of `query`, each thread's items sharing one `T` from
/// `init`: in parallel from `parallel_from` items ([`PARALLEL_FROM`], or
/// [`COSTLY_PARALLEL_FROM`] for a costly pass), else in order on this
/// thread.
pub(crate) fn for_each_init<D, F, T>(
    parallel_from: usize,
    query: &mut Query<D, F>,
    init: impl Fn() -> T + Send + Sync + Clone,
    f: impl Fn(&mut T, QueryItem<'_, '_, D>) + Send + Sync + Clone,
) where
    D: IterQueryData,
    F: ArchetypeFilter,
{
    if query.count() < parallel_from {
        let mut state = init();
        for item in query.iter_mut() {
            f(&mut state, item);
        }
    } else {
        query.par_iter_mut().for_each_init(init, f);
    }
}

/// [`for_each_init`] with nothing shared.
pub(crate) fn for_each<D, F>(
    parallel_from: usize,
    query: &mut Query<D, F>,
    f: impl Fn(QueryItem<'_, '_, D>) + Send + Sync + Clone,
) where
    D: IterQueryData,
    F: ArchetypeFilter,
{
    for_each_init(parallel_from, query, || (), move |_, item| f(item));
}
