//! Criterion benchmark of `jc.military`: full games of greedy against
//! greedy (the bundled `greedy-vs-greedy` scenario), one thread and all
//! threads, reported as games per second.
//!
//! Run with `cargo bench --bench military`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::jc::military::JcMilitary;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 200;

fn games(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/jc/military/greedy-vs-greedy.toml");
    let model = match JcMilitary::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("benchmark scenario: {e}"),
    };
    let mut group = c.benchmark_group("jc.military greedy-vs-greedy");
    group.sample_size(10);
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function("games, 1 thread", |b| {
        b.iter(|| {
            for i in 0..BATCH {
                let mut d = Dice::for_trial(1, i);
                black_box(model.run_trial(&mut d, &mut NoTrace));
            }
        })
    });
    let parallel = BATCH * 4;
    group.throughput(Throughput::Elements(parallel));
    group.bench_function("games, all threads (runner)", |b| {
        b.iter(|| black_box(run(&model, &RunConfig::new(1, parallel), None)))
    });
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
