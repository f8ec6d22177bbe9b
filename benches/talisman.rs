//! Criterion benchmarks of `talisman.game`: full 4-player games (sensible
//! players, random deals, any ending), one thread and all threads, reported
//! as games per second; and one round of `talisman.combat` for reference.
//!
//! Run with `cargo bench --bench talisman`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::talisman::game::TalismanGame;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 1_000;

fn load(name: &str) -> TalismanGame {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/talisman")
        .join(name);
    match TalismanGame::load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

fn games(c: &mut Criterion) {
    for name in [
        "four-player-random-deal.toml",
        "two-player-random-deal.toml",
    ] {
        let model = load(name);
        let mut group =
            c.benchmark_group(format!("talisman.game {}", name.trim_end_matches(".toml")));
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
}

criterion_group!(benches, games);
criterion_main!(benches);
