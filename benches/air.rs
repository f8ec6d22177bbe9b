//! Criterion benchmarks of `wom.air`: six-against-six fleet actions (line
//! of battle against concentrated fire, and against First Born boarders),
//! one thread and all threads.
//!
//! Run with `cargo bench --bench air`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::wom::air::battle::WomAir;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 2_000;

fn load(name: &str) -> WomAir {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/wom/air")
        .join(name);
    match WomAir::load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

fn actions(c: &mut Criterion) {
    for name in [
        "six-against-six.toml",
        "six-against-six-black-pirate-boarders.toml",
    ] {
        let model = load(name);
        let mut group = c.benchmark_group(name.trim_end_matches(".toml"));
        group.sample_size(20);
        group.throughput(Throughput::Elements(BATCH));
        group.bench_function("actions, 1 thread", |b| {
            b.iter(|| {
                for i in 0..BATCH {
                    let mut d = Dice::for_trial(1, i);
                    black_box(model.run_trial(&mut d, &mut NoTrace));
                }
            })
        });
        let parallel = BATCH * 10;
        group.throughput(Throughput::Elements(parallel));
        group.bench_function("actions, runner, all threads", |b| {
            b.iter(|| black_box(run(&model, &RunConfig::new(1, parallel), None)))
        });
        group.finish();
    }
}

criterion_group!(benches, actions);
criterion_main!(benches);
