//! Criterion benchmarks of the six races of Mars hex wargame: full
//! `races.game` games (2-player greedy, 2-player random, 4-player greedy)
//! and single `races.battle` battles, one thread and all threads, reported
//! as games (battles) per second.
//!
//! Run with `cargo bench --bench races`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::races::battle::RacesBattle;
use barsoom::games::races::game::RacesGame;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn scenario(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/races")
        .join(relative)
}

fn measure<M: Model + Send>(c: &mut Criterion, group: &str, unit: &str, model: &M, batch: u64) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    group.throughput(Throughput::Elements(batch));
    group.bench_function(format!("{unit}, 1 thread"), |b| {
        b.iter(|| {
            for i in 0..batch {
                let mut d = Dice::for_trial(1, i);
                black_box(model.run_trial(&mut d, &mut NoTrace));
            }
        })
    });
    let parallel = batch * 4;
    group.throughput(Throughput::Elements(parallel));
    group.bench_function(format!("{unit}, all threads (runner)"), |b| {
        b.iter(|| black_box(run(model, &RunConfig::new(1, parallel), None)))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    for (name, batch) in [
        ("two-player", 5_000),
        ("two-player-random", 1_000),
        ("four-player", 2_000),
    ] {
        let model = match RacesGame::load(&scenario(&format!("game/{name}.toml"))) {
            Ok((m, _)) => m,
            Err(e) => panic!("benchmark scenario: {e}"),
        };
        measure(c, &format!("races.game {name}"), "games", &model, batch);
    }
    let battle = match RacesBattle::load(&scenario("battle/red-storms-fortified-green.toml")) {
        Ok((m, _)) => m,
        Err(e) => panic!("benchmark scenario: {e}"),
    };
    measure(
        c,
        "races.battle red-storms-fortified-green",
        "battles",
        &battle,
        1_000_000,
    );
}

criterion_group!(benches, games);
criterion_main!(benches);
