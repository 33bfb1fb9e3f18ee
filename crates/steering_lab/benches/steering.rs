//! Criterion benchmarks: one fixed step of the Critters mix through the
//! plugin against a plain loop of the same math, and a flock's neighbor
//! search through the grid against checking every pair, and a level of
//! 10,000 agents among 1,000 obstacles beside the same count of critters.
//!
//! ```sh
//! cargo bench -p steering_lab --bench steering
//! ```
//!
//! Results, with the commands and the machine, are in BENCHMARKS.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use steering_lab::bench::{PlainCritters, PlainFlock, critters_mix_app, flock_app, level_app};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn critters_mix(c: &mut Criterion) {
    let mut group = c.benchmark_group("critters_step");
    group.sample_size(20);
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let mut app = critters_mix_app(n, 1, None);
        group.bench_function(BenchmarkId::new("plugin", n), |b| b.iter(|| app.update()));
        let mut plain = PlainCritters::new(n, 1);
        group.bench_function(BenchmarkId::new("plain_loop", n), |b| {
            b.iter(|| plain.step())
        });
    }
    group.finish();
}

fn flocking(c: &mut Criterion) {
    let mut group = c.benchmark_group("flock_step");
    group.sample_size(10);
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let mut app = flock_app(n, 1, None);
        group.bench_function(BenchmarkId::new("plugin", n), |b| b.iter(|| app.update()));
        let mut flock = PlainFlock::new(n, 1);
        group.bench_function(BenchmarkId::new("grid", n), |b| {
            b.iter(|| black_box(flock.forces_with_grid().len()))
        });
        if n <= 10_000 {
            group.bench_function(BenchmarkId::new("brute_force", n), |b| {
                b.iter(|| black_box(flock.forces_brute_force().len()))
            });
        }
    }
    group.finish();
}

fn level(c: &mut Criterion) {
    let mut group = c.benchmark_group("level_step");
    group.sample_size(10);
    let n = 10_000;
    group.throughput(Throughput::Elements(n as u64));
    let mut app = level_app(n, 1_000, 1, None);
    group.bench_function(BenchmarkId::new("level_1000_obstacles", n), |b| {
        b.iter(|| app.update())
    });
    let mut app = critters_mix_app(n, 1, None);
    group.bench_function(BenchmarkId::new("critters", n), |b| b.iter(|| app.update()));
    group.finish();
}

criterion_group!(benches, critters_mix, flocking, level);
criterion_main!(benches);
