//! The plugin's fixed cost (issue 13, target 1): one update of the Critters
//! mix's headless app without the plugin, beside the same app with the
//! plugin and 1, 10, 100 and 1,000 agents, and the plain loop at 1,000.
//!
//! ```sh
//! cargo bench -p steering_lab --bench fixed_cost
//! BENCH_THREADS=0 cargo bench -p steering_lab --bench fixed_cost   # Bevy's default pools
//! ```
//!
//! `BENCH_THREADS` sizes Bevy's compute pool (one thread a core if unset;
//! 0 keeps Bevy's defaults). Bevy makes its pools once per process, so
//! each setting is a run of its own. Results are in BENCHMARKS.md.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use steering_lab::bench::{PlainCritters, critters_mix_app, no_plugin_app};

fn threads() -> Option<usize> {
    std::env::var("BENCH_THREADS").ok()?.parse().ok()
}

fn fixed_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("fixed_cost");
    group.sample_size(50);
    let threads = threads();
    let mut app = no_plugin_app(threads);
    group.bench_function("no_plugin", |b| b.iter(|| app.update()));
    for n in [1, 10, 100, 1_000] {
        let mut app = critters_mix_app(n, 1, threads);
        group.bench_function(BenchmarkId::new("plugin", n), |b| b.iter(|| app.update()));
    }
    let mut plain = PlainCritters::new(1_000, 1);
    group.bench_function(BenchmarkId::new("plain_loop", 1_000), |b| {
        b.iter(|| plain.step())
    });
    group.finish();
}

criterion_group!(benches, fixed_cost);
criterion_main!(benches);
