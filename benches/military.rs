//! Criterion benchmark of `jc.military`: full games of greedy against
//! greedy (the bundled `greedy-vs-greedy` scenario), one thread and all
//! threads, reported as games per second.
//!
//! Run with `cargo bench --bench military`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::jc::military::JcMilitary;
use criterion::{Criterion, criterion_group, criterion_main};

fn games(c: &mut Criterion) {
    let model = common::load("jc/military/greedy-vs-greedy.toml", JcMilitary::load);
    common::measure(
        c,
        "jc.military greedy-vs-greedy",
        "games",
        &model,
        200,
        Some(800),
    );
}

criterion_group!(benches, games);
criterion_main!(benches);
