//! Criterion benchmarks of Jetan: perft from the set-up (leaf nodes per
//! second), and whole games per second between random movers and between
//! greedy players, one thread.
//!
//! Run with `cargo bench --bench jetan`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace};
use barsoom::games::jetan::game::JetanGame;
use barsoom::games::jetan::position::{Position, Rules};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn load(name: &str) -> JetanGame {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/jetan")
        .join(name);
    match JetanGame::load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

fn perft(c: &mut Criterion) {
    let rules = Rules::book();
    let start = Position::initial();
    let mut group = c.benchmark_group("jetan perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(686_112));
    group.bench_function("perft 3 from the set-up (leaves)", |b| {
        b.iter(|| black_box(rules.perft(black_box(&start), 3)))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    for (name, batch) in [
        ("random-vs-random.toml", 2_000u64),
        ("greedy-vs-greedy.toml", 200),
    ] {
        let model = load(name);
        let mut group = c.benchmark_group(format!("jetan {}", name.trim_end_matches(".toml")));
        group.sample_size(10);
        group.throughput(Throughput::Elements(batch));
        group.bench_function("games, 1 thread", |b| {
            b.iter(|| {
                for i in 0..batch {
                    let mut d = Dice::for_trial(1, i);
                    black_box(model.run_trial(&mut d, &mut NoTrace));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, perft, games);
criterion_main!(benches);
