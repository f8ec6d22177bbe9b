//! Criterion benchmarks of `wom.duel`: the level-6 duel and the
//! three-against-one fight, one thread and all threads, against a raw loop
//! that seeds the same streams and rolls the same number of dice.
//!
//! Run with `cargo bench --bench duel`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::bench::dice_per_trial;
use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::wom::duel::WomDuel;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 20_000;

fn load(name: &str) -> WomDuel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/wom")
        .join(name);
    match WomDuel::load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

fn duels(c: &mut Criterion) {
    for name in [
        "padwar-vs-padwar.toml",
        "three-green-warriors-vs-john-carter.toml",
    ] {
        let model = load(name);
        let dice = dice_per_trial(&model, 1, 50_000);
        let mut group = c.benchmark_group(name.trim_end_matches(".toml"));
        group.throughput(Throughput::Elements(BATCH));
        group.bench_function("model, 1 thread", |b| {
            b.iter(|| {
                for i in 0..BATCH {
                    let mut d = Dice::for_trial(1, i);
                    black_box(model.run_trial(&mut d, &mut NoTrace));
                }
            })
        });
        group.bench_function("raw dice loop, 1 thread", |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for i in 0..BATCH {
                    let mut d = Dice::for_trial(1, i);
                    let count =
                        ((i + 1) as f64 * dice).floor() as u64 - (i as f64 * dice).floor() as u64;
                    for _ in 0..count {
                        sum += u64::from(d.d6());
                    }
                }
                black_box(sum)
            })
        });
        let parallel = BATCH * 20;
        group.throughput(Throughput::Elements(parallel));
        group.bench_function("runner, all threads", |b| {
            b.iter(|| black_box(run(&model, &RunConfig::new(1, parallel), None)))
        });
        group.finish();
    }
}

criterion_group!(benches, duels);
criterion_main!(benches);
