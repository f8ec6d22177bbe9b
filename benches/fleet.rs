//! Criterion benchmarks of `jc.fleet`: the 10-vs-7 strength-point battle
//! (both sides on the minimax maneuver mix), one thread and all threads,
//! reported as battles per second.
//!
//! Run with `cargo bench --bench fleet`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::jc::fleet::JcFleet;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 50_000;

fn load(name: &str) -> JcFleet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/jc/fleet")
        .join(name);
    match JcFleet::load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

fn battles(c: &mut Criterion) {
    for name in ["ten-vs-seven-open-sky.toml", "even-fight.toml"] {
        let model = load(name);
        let mut group = c.benchmark_group(format!("jc.fleet {}", name.trim_end_matches(".toml")));
        group.throughput(Throughput::Elements(BATCH));
        group.bench_function("battles, 1 thread", |b| {
            b.iter(|| {
                for i in 0..BATCH {
                    let mut d = Dice::for_trial(1, i);
                    black_box(model.run_trial(&mut d, &mut NoTrace));
                }
            })
        });
        let parallel = BATCH * 40;
        group.throughput(Throughput::Elements(parallel));
        group.bench_function("battles, all threads (runner)", |b| {
            b.iter(|| black_box(run(&model, &RunConfig::new(1, parallel), None)))
        });
        group.finish();
    }
}

criterion_group!(benches, battles);
criterion_main!(benches);
