//! Criterion benchmarks of Jetan: perft from the set-up (leaf nodes per
//! second), and whole games per second between random movers and between
//! greedy players, one thread.
//!
//! Run with `cargo bench --bench jetan`.

use barsoom::games::ScenarioModel;
mod common;

use std::hint::black_box;

use barsoom::games::jetan::game::JetanGame;
use barsoom::games::jetan::position::{Position, Rules, Terminal};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn perft(c: &mut Criterion) {
    let rules = Rules::book();
    let start = Position::initial();
    let mut group = c.benchmark_group("jetan perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(686_112));
    group.bench_function("perft 3 from the set-up (leaves)", |b| {
        b.iter(|| black_box(rules.perft(black_box(&start), 3, Terminal::Leaf)))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    for (name, batch) in [("random-vs-random", 2_000u64), ("greedy-vs-greedy", 200)] {
        let model = common::load(&format!("jetan/{name}.toml"), JetanGame::load);
        common::measure(c, &format!("jetan {name}"), "games", &model, batch, None);
    }
}

criterion_group!(benches, perft, games);
criterion_main!(benches);
