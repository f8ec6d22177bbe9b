//! Criterion benchmarks of `wom.duel`: the level-6 duel and the
//! three-against-one fight, one thread and all threads, against a raw loop
//! that seeds the same streams and rolls the same number of dice.
//!
//! Run with `cargo bench --bench duel`.

use barsoom::games::ScenarioModel;
mod common;

use std::hint::black_box;

use barsoom::engine::Dice;
use barsoom::engine::bench::dice_per_trial;
use barsoom::games::wom::duel::WomDuel;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 20_000;

fn duels(c: &mut Criterion) {
    for name in ["padwar-vs-padwar", "three-green-warriors-vs-john-carter"] {
        let model = common::load(&format!("wom/{name}.toml"), WomDuel::load);
        common::measure(
            c,
            &format!("wom.duel {name}"),
            "duels",
            &model,
            BATCH,
            Some(BATCH * 20),
        );
        // The same number of d6 rolls with no model around them: the floor
        // the model's cost is compared with.
        let dice = dice_per_trial(&model, 1, 50_000);
        let mut group = c.benchmark_group(format!("wom.duel {name}"));
        group.throughput(Throughput::Elements(BATCH));
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
        group.finish();
    }
}

criterion_group!(benches, duels);
criterion_main!(benches);
