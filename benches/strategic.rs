//! Criterion benchmark of `jc.strategic`: full Strategic Games of the
//! bundled two-player (`two-heroes`) and six-player (`six-heroes`)
//! scenarios, sensible heroes and villains, one thread and all threads,
//! reported as games per second.
//!
//! Run with `cargo bench --bench strategic`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::jc::strategic::JcStrategic;
use criterion::{Criterion, criterion_group, criterion_main};

fn games(c: &mut Criterion) {
    let two = common::load("jc/strategic/two-heroes.toml", JcStrategic::load);
    common::measure(c, "jc.strategic two-heroes", "games", &two, 100, Some(400));
    let six = common::load("jc/strategic/six-heroes.toml", JcStrategic::load);
    common::measure(c, "jc.strategic six-heroes", "games", &six, 30, Some(120));
}

criterion_group!(benches, games);
criterion_main!(benches);
